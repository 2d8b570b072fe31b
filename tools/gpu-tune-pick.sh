#!/bin/sh
# gpu-tune-pick.sh - pick, per case, the best tuning combination from the
# CSVs of `feint_bench --target device` runs and print it in the format of
# gpu/tuning/<GPU>.mk.
# Usage: tools/gpu-tune-pick.sh GPU DIR      DIR holds one CSV per combination,
#        named ts<TEAM_SIZE>-st<STAGE_INPUT>-sh<SHARED>.csv.
# Cases: every element x problem of src/kernel/physics.h (FEINT_FOR_EACH_CASE),
# in its order; a case name not in that list is ignored.
# Score of a combination for a case: the lowest ns_min of its kernel rows
# (device-resident data: variants without "+xfer") with status PASS, over all
# variants and layouts; the best combination is the one with the lowest score.
# A combination that failed to build or run has no CSV (or no PASS rows) and
# cannot win.  Ties: the first in file-name order.
set -eu
[ $# -eq 2 ] || { echo "usage: $0 GPU DIR" >&2; exit 2; }
GPU=$1 DIR=$2
ls "$DIR"/ts*-st*-sh*.csv >/dev/null 2>&1 || { echo "gpu-tune-pick: no ts*-st*-sh*.csv in $DIR" >&2; exit 1; }
awk -F, -v gpu="$GPU" '
FNR == 1 {
    n = split(FILENAME, parts, "/"); combo = parts[n]; sub(/\.csv$/, "", combo)
    if (match(combo, /^ts[0-9]+-st[01]-sh[0-9]+$/) == 0) { bad = 1; nextfile }
    split(combo, f, "-"); ts = substr(f[1], 3); st = substr(f[2], 3); sh = substr(f[3], 3)
    platform = ""
}
/^#/ || $1 == "platform" { next }
NF >= 23 && $6 !~ /\+xfer$/ && $23 == "PASS" {
    c = toupper($4) "_" toupper($5); t = $11 + 0
    if (!(c in best) || t < best[c]) { best[c] = t; bts[c] = ts; bst[c] = st; bsh[c] = sh; bplat[c] = $1 }
}
END {
    ncase = 0
    for (c in best) ncase++
    if (ncase == 0) { print "gpu-tune-pick: no PASS kernel rows in the CSVs" > "/dev/stderr"; exit 1 }
    printf "# gpu/tuning/%s.mk - per-case defaults of the device tuning parameters for\n", gpu
    printf "# GPU=%s, written by tools/gpu-tune-pick.sh from an exhaustive tuning run\n", gpu
    printf "# (make gpu-tune); score: lowest ns_min per element over variants and layouts.\n"
    printf "FEINT_GPU_TUNING_DEFS :="
    ncase = split("TET4_POISSON TET4_CONVDIFF PRISM6_POISSON PRISM6_CONVDIFF HEX8_POISSON HEX8_CONVDIFF TET4_ELASTICITY PRISM6_ELASTICITY HEX8_ELASTICITY TET4_POISSON_KAPPA PRISM6_POISSON_KAPPA HEX8_POISSON_KAPPA TET4_ELASTICITY_QP PRISM6_ELASTICITY_QP HEX8_ELASTICITY_QP", order, " ")
    for (i = 1; i <= ncase; i++) {
        c = order[i]
        if (!(c in best)) continue
        printf " \\\n  -DFEINT_GPU_TEAM_SIZE_%s=%s -DFEINT_GPU_STAGE_INPUT_%s=%s", c, bts[c], c, bst[c]
        if (bsh[c] != 0) printf " -DFEINT_GPU_SHARED_%s=%s", c, bsh[c]
    }
    printf "\n"
    for (i = 1; i <= ncase; i++) {
        c = order[i]
        if (c in best) printf "# %s: ts%s-st%s-sh%s %.4f ns/element on %s\n", c, bts[c], bst[c], bsh[c], best[c], bplat[c]
        else printf "# %s: no passing measurement; global defaults apply\n", c
    }
}' $(ls "$DIR"/ts*-st*-sh*.csv | sort)
