#!/bin/bash
# alternated rounds: base (0a83d41) and new (per-block reach) feint_bench_assembly, tet4 Poisson, map
cd /work/main
export OMP_PROC_BIND=close OMP_PLACES=cores OMP_NUM_THREADS=2
for r in 1 2 3; do
  for v in base new; do
    if [ $v = base ]; then B=/tmp/wt_base/build/bin/feint_bench_assembly; else B=build/bin/feint_bench_assembly; fi
    echo "== round $r $v"
    $B --case tet4-poisson --pos map --order box,hilbert --threads 2,1 --csv /tmp/rounds/blk_${v}_$r.csv 2>&1 | grep -E 'atomics|colouring'
  done
done
