#!/bin/sh
# the SSQ cases that keep one lane loop: old (main) and new alternated
export OMP_PROC_BIND=close OMP_PLACES=cores OMP_NUM_THREADS=2
for r in 1 2; do
  for v in old new; do
    if [ $v = old ]; then b=/work/main/build/bin/feint_bench; else b=/tmp/wt/build/bin/feint_bench; fi
    $b --case tet4-poisson,hex8-poisson,tet4-elasticity,tet4-convdiff --budget 1 --no-csv > /tmp/rounds2/$v.$r.txt 2>&1
  done
done
