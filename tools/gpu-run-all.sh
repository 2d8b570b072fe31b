#!/bin/sh
# run-all.sh - copied into a feint GPU bundle by `make gpu-bundle`.  On a
# machine with an NVIDIA driver (nothing else needed): runs every test with
# OMP_TARGET_OFFLOAD=MANDATORY (a test that cannot use the GPU fails), then
# the GPU bench, writing its CSV under OUTDIR/bench/results/.
# Usage: ./run-all.sh OUTDIR [BENCH ARGS...]     (e.g. ./run-all.sh "$OUT")
# Env:   FEINT_OFFLOAD_MODE  MANDATORY (default) or DISABLED: a dry run without
#                            a GPU - tests run with host fallback, and the
#                            bench is expected to refuse (exit 3), which is
#                            reported, not counted as a failure.
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
[ $# -ge 1 ] || { echo "usage: $0 OUTDIR [BENCH ARGS...]" >&2; exit 2; }
OUTDIR=$1; shift
mkdir -p "$OUTDIR"
OUTDIR=$(cd "$OUTDIR" && pwd)
MODE=${FEINT_OFFLOAD_MODE:-MANDATORY}
export OMP_TARGET_OFFLOAD=$MODE
echo "run-all: OMP_TARGET_OFFLOAD=$MODE, results in $OUTDIR"
pass=0 fail=0 skip=0
for t in "$HERE"/bin/t[0-9]*; do
    [ -x "$t" ] || continue
    name=$(basename "$t")
    # from the bundle directory: tests read perfmodel/platforms/ relative to it
    out=$(cd "$HERE" && FEINT_QUIET=1 "$HERE/run.sh" "$t" 2>&1)
    rc=$?
    printf '%s\n' "== $name (exit $rc)" "$out" >> "$OUTDIR/tests.log"
    if [ $rc -eq 0 ]; then pass=$((pass + 1))
    elif [ $rc -eq 77 ]; then skip=$((skip + 1)); echo "skip $name"
    else fail=$((fail + 1)); echo "FAIL $name (exit $rc)"; printf '%s\n' "$out" | head -n 10 | sed 's/^/    /'
    fi
done
echo "tests: $pass passed, $fail failed, $skip skipped (log: $OUTDIR/tests.log)"
cd "$OUTDIR" && mkdir -p bench/results
"$HERE/run.sh" "$HERE/bin/feint_bench" --target device "$@"
brc=$?
if [ "$MODE" = MANDATORY ]; then
    [ $brc -eq 0 ] || { echo "run-all: bench failed (exit $brc)"; fail=$((fail + 1)); }
elif [ $brc -eq 3 ]; then
    echo "run-all: dry run ($MODE): the bench refused to label host numbers as GPU numbers, as it must"
else
    echo "run-all: dry run ($MODE): bench exit $brc, expected 3 (refusal)"; fail=$((fail + 1))
fi
[ $fail -eq 0 ]
