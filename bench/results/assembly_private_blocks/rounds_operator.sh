#!/bin/bash
# alternated rounds: base (0a83d41) and new feint_bench_operator, tet4 Poisson (RECOMPUTE atomics is what changed)
cd /work/main
export OMP_PROC_BIND=close OMP_PLACES=cores OMP_NUM_THREADS=2
for r in 1 2; do
  for v in base new; do
    if [ $v = base ]; then B=/tmp/wt_base/build/bin/feint_bench_operator; else B=build/bin/feint_bench_operator; fi
    echo "== round $r $v"
    $B --case tet4-poisson --order box,hilbert --threads 2,1 --csv /tmp/rounds/op_${v}_$r.csv 2>&1 | grep -iE 'recompute|^case'
  done
done
