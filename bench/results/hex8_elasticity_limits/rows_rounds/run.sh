#!/bin/sh
# alternated rounds of the old (main) and new (wt) feint_bench on the elasticity cases
export OMP_PROC_BIND=close OMP_PLACES=cores OMP_NUM_THREADS=2
cases=${CASES:-hex8-elasticity,hex8-elasticity_qp,prism6-elasticity}
for r in $(seq 1 ${ROUNDS:-3}); do
  for v in old new; do
    if [ $v = old ]; then b=/work/main/build/bin/feint_bench; else b=/tmp/wt/build/bin/feint_bench; fi
    $b --case $cases --elements ${ELEMS:-262144} --no-csv > /tmp/rounds/$v.$r.txt 2>&1
  done
done
