#!/bin/sh
# gpu-tune.sh - exhaustive tuning driver of the device kernels (seed 000
# section 4.3): builds the bench for every combination of the compile-time
# tuning parameters of one GPU architecture, each in its own build directory,
# and packs all the bench binaries into ONE bundle (tools/gpu-bundle.sh: the
# LLVM runtime libraries are shared; each bench is linked statically with its
# own libfeint.a, so it carries its combination's kernels, and is stored
# xz-compressed, ~1.5 MB; the bundled fallback glibc is stored xz-compressed
# too, so that 8 combinations fit in 64 MiB) with a script
# that, on the GPU machine, runs the bench for each combination and writes
# the best combination per case in gpu/tuning/<GPU>.mk format.
#
# Space searched: FEINT_GPU_TEAM_SIZE 32 64 128 256 x FEINT_GPU_STAGE_INPUT 0 1
# (FEINT_GPU_NUM_TEAMS at its default, one element per thread).
# FEINT_GPU_SHARED: only 0 exists (see src/kernel/driver_device.h), so the
# placement axis has one point; FEINT_TUNE_SHARED lists more values once
# they are implemented.  A combination that does not build (e.g. too much
# shared memory) is reported and left out; it cannot win.
#
# Usage: tools/gpu-tune.sh GPU [OUTDIR]     (make gpu-tune GPU=sm_90)
#   OUTDIR default dist/feint-gpu-tune-GPU.  On the GPU machine:
#   OUTDIR/tune-run.sh RESULTDIR [BENCH ARGS]  ->  RESULTDIR/<GPU>.mk (copy it to
#   gpu/tuning/<GPU>.mk), RESULTDIR/ts*-st*-sh*.csv, RESULTDIR/tune.log
# Env: FEINT_TUNE_TEAM_SIZES, FEINT_TUNE_STAGE, FEINT_TUNE_SHARED (override the
#   lists, e.g. for a quick check), MAKE_JOBS (default: nproc).
set -eu
[ $# -ge 1 ] || { echo "usage: $0 GPU [OUTDIR]" >&2; exit 2; }
GPU=$1
ROOT=$(cd "$(dirname "$0")/.." && pwd)
OUT=${2:-$ROOT/dist/feint-gpu-tune-$GPU}
TEAM_SIZES=${FEINT_TUNE_TEAM_SIZES:-32 64 128 256}
STAGES=${FEINT_TUNE_STAGE:-0 1}
SHAREDS=${FEINT_TUNE_SHARED:-0}
JOBS=${MAKE_JOBS:-$(nproc)}
say() { printf 'gpu-tune: %s\n' "$*"; }

stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
built="" failed=""
for ts in $TEAM_SIZES; do
  for st in $STAGES; do
    for sh in $SHAREDS; do
      combo=ts$ts-st$st-sh$sh
      bdir=build-tune/$GPU/$combo
      say "building $combo in $bdir"
      start=$(date +%s)
      if make -C "$ROOT" --no-print-directory -j"$JOBS" GPU="$GPU" BUILD="$bdir" GPU_TUNING= GPU_LINK_STATIC=1 \
           GPU_TUNE_FLAGS="-DFEINT_GPU_TEAM_SIZE=$ts -DFEINT_GPU_STAGE_INPUT=$st -DFEINT_GPU_SHARED=$sh" \
           "$bdir/bin/feint_bench" > "$stage/$combo.log" 2>&1; then
        cp "$ROOT/$bdir/bin/feint_bench" "$stage/feint_bench-$combo"
        built="$built $combo"
        say "  $combo built in $(( $(date +%s) - start )) s"
      else
        failed="$failed $combo"
        say "  $combo does not build (last lines of the log):"
        tail -n 3 "$stage/$combo.log" | sed 's/^/    /'
      fi
    done
  done
done
[ -n "$built" ] || { say "no combination built"; exit 1; }
first=$(ls "$stage"/feint_bench-* | head -n 1)
# the libraries come from one bench (all combinations link the same ones)
"$ROOT/tools/gpu-bundle.sh" "$OUT" "$first"
rm -f "$OUT"/bin/*
for b in "$stage"/feint_bench-*; do
  strip --strip-unneeded -o "$b.stripped" "$b" 2>/dev/null || cp "$b" "$b.stripped"
  xz -T0 -9 -c "$b.stripped" > "$OUT/bin/$(basename "$b").xz"
done
for g in "$OUT"/lib/glibc/*; do
  case $g in *.xz) ;; *) xz -T0 -9 -f "$g" ;; esac
done
cp "$ROOT/tools/gpu-tune-pick.sh" "$OUT/gpu-tune-pick.sh"
cat > "$OUT/tune-run.sh" <<EOF2
#!/bin/sh
# tune-run.sh - written by feint tools/gpu-tune.sh for GPU=$GPU.  Runs the GPU
# bench of every built combination (OMP_TARGET_OFFLOAD=MANDATORY) and writes
# RESULTDIR/$GPU.mk with the best combination per case (copy it to
# gpu/tuning/$GPU.mk in the repository; rebuild).
# Usage: ./tune-run.sh RESULTDIR [BENCH ARGS...]
# Env: FEINT_OFFLOAD_MODE (default MANDATORY; DISABLED for a dry run, in which
#      every bench refuses and no .mk is written).
# Combinations that did not build:${failed:- none}
set -u
HERE=\$(cd "\$(dirname "\$0")" && pwd)
[ \$# -ge 1 ] || { echo "usage: \$0 RESULTDIR [BENCH ARGS...]" >&2; exit 2; }
RES=\$1; shift
mkdir -p "\$RES"
RES=\$(cd "\$RES" && pwd)
export OMP_TARGET_OFFLOAD=\${FEINT_OFFLOAD_MODE:-MANDATORY}
unxz() { if command -v xz >/dev/null 2>&1; then xz -dc "\$1"; else python3 -c 'import lzma,shutil,sys; shutil.copyfileobj(lzma.open(sys.argv[1]), sys.stdout.buffer)' "\$1"; fi; }
for g in "\$HERE"/lib/glibc/*.xz; do
    [ -e "\$g" ] || continue
    [ -f "\${g%.xz}" ] || { unxz "\$g" > "\${g%.xz}.tmp" && chmod 755 "\${g%.xz}.tmp" && mv "\${g%.xz}.tmp" "\${g%.xz}"; }
done
BIN=\${TMPDIR:-/tmp}/feint-tune-\$(id -u)-\$\$
mkdir -p "\$BIN"
trap 'rm -rf "\$BIN"' EXIT
for combo in$built; do
    echo "tune-run: \$combo" | tee -a "\$RES/tune.log"
    unxz "\$HERE/bin/feint_bench-\$combo.xz" > "\$BIN/feint_bench-\$combo" && chmod 755 "\$BIN/feint_bench-\$combo"
    (cd "\$RES" && "\$HERE/run.sh" "\$BIN/feint_bench-\$combo" --target device --csv "\$RES/\$combo.csv" "\$@") >> "\$RES/tune.log" 2>&1 ||
        { echo "tune-run: \$combo failed (see tune.log)"; rm -f "\$RES/\$combo.csv"; }
done
"\$HERE/gpu-tune-pick.sh" $GPU "\$RES" > "\$RES/$GPU.mk" && cat "\$RES/$GPU.mk"
EOF2
chmod 755 "$OUT/tune-run.sh"
kib=$(du -sk "$OUT" | cut -f1)
say "bundle $OUT: $kib KiB; combinations:$built; not built:${failed:- none}"
[ "$kib" -lt $((64 * 1024)) ] || { say "error: bundle is $kib KiB, not under 64 MiB"; exit 1; }
