#!/bin/bash
# run_bench.sh OLD NEW OUTDIR [new-first]: feint_bench of the flop-bound cases, 2 threads, old and
# new binaries alternated per case; round 1 ran old first, round 2 new first.
old=$1 new=$2 out=$3 order="old new"
[ "${4:-}" = new-first ] && order="new old"
mkdir -p "$out"
for c in tet4-convdiff prism6-convdiff prism6-poisson hex8-convdiff hex8-poisson; do
  for b in $order; do
    bin=$old; [ $b = new ] && bin=$new
    OMP_NUM_THREADS=2 tools/run-bench.sh "$bin" --case $c --reps 5 --no-csv > "$out/${b}_$c.txt" 2>&1
  done
done
