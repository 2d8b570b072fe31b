#!/bin/sh
# alternated rounds: base (461c28b) and hoisted SSQ elasticity, elasticity rows only
cd /work/main
for r in 1 2; do
  for v in base new; do
    if [ $v = base ]; then B=/tmp/bin_base/feint_bench; else B=build/bin/feint_bench; fi
    OMP_PROC_BIND=close OMP_PLACES=cores $B --case tet4-elasticity,prism6-elasticity,hex8-elasticity,hex8-elasticity_qp --csv /tmp/hoist/${v}_r$r.csv > /tmp/hoist/${v}_r$r.txt 2>&1
  done
done
