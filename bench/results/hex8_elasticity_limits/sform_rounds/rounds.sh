#!/bin/sh
# alternated rounds: base (ca3a7bb, hoisted SSQ elasticity; binaries kept in
# /tmp/s0) and the S form with merged pairs (binaries of the new build kept
# in /tmp/s5bin), elasticity rows only, 2 threads
cd /work/main
for r in 1 2; do
  for v in base new; do
    if [ $v = base ]; then B=/tmp/s0/bin/feint_bench; else B=/tmp/s5bin/feint_bench; fi
    OMP_PROC_BIND=close OMP_PLACES=cores $B --case tet4-elasticity,prism6-elasticity,hex8-elasticity,hex8-elasticity_qp --csv /tmp/sfr/${v}_r$r.csv > /tmp/sfr/${v}_r$r.txt 2>&1
  done
done
