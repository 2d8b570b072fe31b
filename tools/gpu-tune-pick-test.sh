#!/bin/sh
# gpu-tune-pick-test.sh - tests tools/gpu-tune-pick.sh on fake bench CSVs (no
# GPU needed): +xfer rows and FAIL rows never win, a file whose name is not a
# combination is ignored, the lowest ns_min per case wins, a case without a
# passing row is reported as such, every case of FEINT_FOR_EACH_CASE (hex8,
# elasticity, the variable-coefficient problems) is known, the output is a
# valid gpu.mk fragment.
# Usage: tools/gpu-tune-pick-test.sh      (make check-gpu-tune-pick)
set -eu
ROOT=$(cd "$(dirname "$0")/.." && pwd)
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
hdr='platform,device,case,element,problem,variant,layout_in,layout_out,num_elem,reps,ns_min,ns_median,ns_max,bytes_per_elem,flops_per_elem,gbs_at_min,gflops_at_min,triad_gbs_median,fma_gflops_median,bound_ns,bound_kind,pct_of_bound,status'
row() { echo "fake-gpu,gpu,$1-$2,$1,$2,$3,natural,natural,4194304,10,$4,1,1,288,236,1,1,3000,inf,0.1,memory,50,$5"; }
{ echo "# platform: fake-gpu"; echo "$hdr"
  row tet4 poisson qss_geo_linear 0.50 PASS
  row tet4 poisson qss_geo_linear+xfer 0.01 PASS      # transfers: never a kernel score
  row prism6 convdiff ssq_geo_generic 2.0 PASS
  row hex8 elasticity qss_geo_generic 9.0 PASS
  row hex8 poisson_kappa sqs_geo_generic 3.0 PASS; } > "$dir/ts64-st0-sh0.csv"
{ echo "# platform: fake-gpu"; echo "$hdr"
  row tet4 poisson qss_geo_linear 0.40 PASS
  row tet4 convdiff qss_geo_linear 0.9 PASS
  row prism6 convdiff ssq_geo_generic 1.0 FAIL; } > "$dir/ts128-st1-sh0.csv"   # FAIL: never wins
{ echo "# platform: fake-gpu"; echo "$hdr"
  row tet4 poisson sqs_geo_linear 0.45 PASS
  row prism6 convdiff qss_geo_generic 1.8 PASS
  row hex8 elasticity qss_geo_generic 8.0 PASS
  row tet4 elasticity_qp qss_geo_linear 2.5 PASS; } > "$dir/ts256-st0-sh0.csv"
{ echo "$hdr"; row tet4 poisson qss_geo_linear 0.001 PASS; } > "$dir/other.csv" # not a combination
"$ROOT/tools/gpu-tune-pick.sh" sm_90 "$dir" > "$dir/out.mk" 2> /dev/null
fail=0
expect() {
    if grep -q -e "$1" "$dir/out.mk"; then :; else echo "FAIL gpu-tune-pick: expected '$1' in:"; sed 's/^/    /' "$dir/out.mk"; fail=1; fi
}
expect '^FEINT_GPU_TUNING_DEFS :='
expect '-DFEINT_GPU_TEAM_SIZE_TET4_POISSON=128 -DFEINT_GPU_STAGE_INPUT_TET4_POISSON=1'
expect '-DFEINT_GPU_TEAM_SIZE_TET4_CONVDIFF=128 -DFEINT_GPU_STAGE_INPUT_TET4_CONVDIFF=1'
expect '-DFEINT_GPU_TEAM_SIZE_PRISM6_CONVDIFF=256 -DFEINT_GPU_STAGE_INPUT_PRISM6_CONVDIFF=0'
expect '-DFEINT_GPU_TEAM_SIZE_HEX8_ELASTICITY=256 -DFEINT_GPU_STAGE_INPUT_HEX8_ELASTICITY=0'
expect '-DFEINT_GPU_TEAM_SIZE_HEX8_POISSON_KAPPA=64 -DFEINT_GPU_STAGE_INPUT_HEX8_POISSON_KAPPA=0'
expect '-DFEINT_GPU_TEAM_SIZE_TET4_ELASTICITY_QP=256 -DFEINT_GPU_STAGE_INPUT_TET4_ELASTICITY_QP=0'
expect '^# HEX8_CONVDIFF: no passing measurement'
expect '^# PRISM6_POISSON: no passing measurement'
if grep -q 'PRISM6_POISSON=' "$dir/out.mk"; then echo "FAIL gpu-tune-pick: PRISM6_POISSON has no data but got a value"; fail=1; fi
# the fragment must parse as make and define the variable
printf 'include %s\nall:\n\t@echo $(FEINT_GPU_TUNING_DEFS)\n' "$dir/out.mk" > "$dir/Makefile"
defs=$(MAKEFLAGS= MFLAGS= make -s -f "$dir/Makefile")
case $defs in *-DFEINT_GPU_TEAM_SIZE_TET4_POISSON=128*) ;; *) echo "FAIL gpu-tune-pick: make did not read the fragment: $defs"; fail=1 ;; esac
# no CSV: an error, not an empty file that looks tuned
if "$ROOT/tools/gpu-tune-pick.sh" sm_90 "$dir/none" > /dev/null 2>&1; then echo "FAIL gpu-tune-pick: succeeded without CSVs"; fail=1; fi
[ $fail -eq 0 ] && echo "gpu-tune-pick-test: passed"
exit $fail
