#!/bin/bash
# gpu-measure.sh - one lease of a GPU machine, end to end, inside a time
# budget: copied into the bundle by `make gpu-bundle` (as measure.sh) and run
# there from the repository root (tests read tests/data, examples/data and
# perfmodel/platforms relative to it):
#     dist/feint-gpu-sm_90/measure.sh OUTDIR [SECONDS]
# Phases, in order of what a lease must not miss, each cut short by the
# deadline (SECONDS, default 540, from the start):
#   0 the machine: nvidia-smi, the CPU, glibc; a first contact (t501 with
#     OMP_TARGET_OFFLOAD=MANDATORY and LIBOMPTARGET_INFO=16: each kernel
#     launch with its teams, threads and SPMD/generic mode), diagnosed if it fails
#   1 the element bench on the device for the paper's cases (tet4 Poisson first)
#   2 every test with OMP_TARGET_OFFLOAD=MANDATORY (device tests first)
#   3 the operator bench and the solver bench on the device
#   4 the host bench on this machine's cores (a host data point beyond 2 cores)
#   5 the element bench on the device for the remaining cases
#   6 ncu (Nsight Compute) on three tet4 Poisson kernel launches, if installed
# What comes back (a lease returns at most 8 files): OUTDIR/log.txt (all
# output) and OUTDIR/results.tar (CSVs, per-test logs, machine facts),
# rewritten after every phase so that a run cut off still returns what it made.
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
[ $# -ge 1 ] || { echo "usage: $0 OUTDIR [SECONDS]" >&2; exit 2; }
OUTDIR=$(mkdir -p "$1" && cd "$1" && pwd)
BUDGET=${2:-540}
T0=$(date +%s)
W=$(mktemp -d /tmp/feint-measure.XXXXXX)
mkdir -p "$W/tests" "$W/bench"
exec >> "$OUTDIR/log.txt" 2>&1   # (the caller shows its tail: tail -c 11000 OUTDIR/log.txt)
RUN="$HERE/run.sh"
export FEINT_QUIET=1

left() { echo $((T0 + BUDGET - $(date +%s))); }
save() { tar cf "$OUTDIR/results.tar.tmp" -C "$W" . && mv -f "$OUTDIR/results.tar.tmp" "$OUTDIR/results.tar"; }
# cap SECONDS CMD...: run with a timeout of min(SECONDS, time left - 15 s)
cap() {
    local c=$1 l; shift
    l=$(( $(left) - 15 ))
    [ "$l" -lt "$c" ] && c=$l
    if [ "$c" -le 5 ]; then echo "measure: no time left for: $*"; return 124; fi
    timeout -k 5 "$c" "$@"
}
phase() { echo; echo "=== phase $1 ($(( $(date +%s) - T0 )) s in, $(left) s left) ==="; }

phase "0: the machine"
{
    date -u
    uname -a
    nvidia-smi --query-gpu=name,compute_cap,driver_version,memory.total,clocks.max.sm,clocks.max.mem,pcie.link.gen.max,pcie.link.width.max --format=csv
    nvidia-smi
    getconf GNU_LIBC_VERSION
    lscpu
    nproc
    free -g
} > "$W/machine.txt" 2>&1
head -n 3 "$W/machine.txt" | tail -n 2; grep -E 'Model name|^CPU\(s\)|Socket|NUMA node\(s\)' "$W/machine.txt"
echo "--- first contact: t501 with MANDATORY offload"
OMP_TARGET_OFFLOAD=MANDATORY LIBOMPTARGET_INFO=${FEINT_MEASURE_INFO:-16} cap 60 "$RUN" "$HERE/bin/t501_device_api" > "$W/tests/first_contact.log" 2>&1
rc=$?
echo "t501 exit $rc"; tail -n 20 "$W/tests/first_contact.log"
if [ $rc -ne 0 ]; then
    echo "--- first contact failed: diagnostics"
    {
        echo "## run.sh verbose"; FEINT_QUIET=0 OMP_TARGET_OFFLOAD=MANDATORY LIBOMPTARGET_INFO=-1 cap 60 "$RUN" "$HERE/bin/t501_device_api"
        echo "## libcuda"; ldconfig -p | grep -i cuda; ls -l /usr/local/nvidia/lib64 2>&1 | head -20
        echo "## ldd"; LD_LIBRARY_PATH=$HERE/lib ldd "$HERE/bin/t501_device_api"
        echo "## host fallback (DISABLED)"; OMP_TARGET_OFFLOAD=DISABLED cap 60 "$RUN" "$HERE/bin/t501_device_api"; echo "exit $?"
    } > "$W/tests/first_contact_diag.log" 2>&1
    tail -n 60 "$W/tests/first_contact_diag.log"
fi
save

# show FILE: the element bench's rows, short (case variant layout ns_min
# ns_med GB/s bound_ns %min %med check), its ratio lines and errors whole
show() {
    awk '/^# device triad: kept/ { print; next } /^#/ { next } NF >= 12 && $4 ~ /^[0-9.]+$/ {
           printf "%-14s %-22s %-8s %8s %8s %8s %8s %6s %6s %s\n", $1, $2, $3, $4, $5, $6, $8, $10, $11, $12; next }
         { print }' "$1"
}

# elem_bench NAME CASES SECONDS: the element bench on the device
elem_bench() {
    echo "--- element bench, device: $2"
    cap "$3" "$RUN" "$HERE/bin/feint_bench" --target device --case "$2" --budget 0.4 \
        --csv "$W/bench/device_$1.csv" > "$W/bench/device_$1.txt" 2>&1
    echo "exit $?"
    show "$W/bench/device_$1.txt"
    save
}

phase "1: element bench on the device, the paper's cases"
elem_bench paper tet4-poisson,tet4-convdiff,prism6-poisson,prism6-convdiff 150

phase "2: every test with OMP_TARGET_OFFLOAD=MANDATORY"
pass=0 fail=0 skip=0 tout=0
order=$(for t in t501 t502 t003 t701 t705 t708 t709 t710 t801 t802 t901 t903; do ls "$HERE"/bin/${t}_* 2>/dev/null; done
        ls "$HERE"/bin/t[0-9]* | sort)
seen=" "
for t in $order; do
    name=$(basename "$t")
    case $seen in *" $name "*) continue ;; esac
    seen="$seen$name "
    [ "$(left)" -gt 260 ] || { echo "measure: tests stopped at $name (time: the benches after them need 245 s)"; break; }
    OMP_TARGET_OFFLOAD=MANDATORY cap 60 "$RUN" "$t" > "$W/tests/$name.log" 2>&1
    rc=$?
    case $rc in
        0) pass=$((pass + 1)) ;;
        77) skip=$((skip + 1)); echo "skip $name: $(tail -n 1 "$W/tests/$name.log")" ;;
        124|137) tout=$((tout + 1)); echo "TIMEOUT $name" ;;
        *) fail=$((fail + 1)); echo "FAIL $name (exit $rc)"; tail -n 8 "$W/tests/$name.log" | sed 's/^/    /' ;;
    esac
done
echo "tests (MANDATORY): $pass passed, $fail failed, $skip skipped, $tout timed out"
save

phase "3: operator and solver benches on the device"
cap 90 "$RUN" "$HERE/bin/feint_bench_operator" --target device --order box --reps 10 --csv "$W/bench/device_operator.csv" \
    > "$W/bench/device_operator.txt" 2>&1
echo "exit $?"; cat "$W/bench/device_operator.txt"
save
cap 60 "$RUN" "$HERE/bin/feint_bench_solve" --target device --box 100 --reps 2 --csv "$W/bench/device_solve.csv" \
    > "$W/bench/device_solve.txt" 2>&1
echo "exit $?"; cat "$W/bench/device_solve.txt"
save

phase "4: host bench on this machine's cores"
OMP_PROC_BIND=close OMP_PLACES=cores OMP_NUM_THREADS=$(lscpu -p=core | grep -v '^#' | sort -u | wc -l) \
    cap 100 "$RUN" "$HERE/bin/feint_bench" --target host --case tet4-poisson,prism6-convdiff,hex8-elasticity \
    --budget 0.4 --csv "$W/bench/host.csv" > "$W/bench/host.txt" 2>&1
echo "exit $?"; show "$W/bench/host.txt"
save

phase "5: element bench on the device, the other cases"
elem_bench hex8 hex8-poisson,hex8-elasticity 120
elem_bench rest tet4-elasticity,prism6-elasticity,tet4-poisson_kappa,hex8-poisson_kappa,tet4-elasticity_qp,hex8-convdiff,prism6-poisson_kappa,prism6-elasticity_qp,hex8-elasticity_qp 200
phase "6: ncu on the tet4 Poisson kernels (if ncu is there and time is left)"
NCU=$(command -v ncu || ls /opt/nvidia/nsight-compute/*/ncu /usr/local/cuda*/bin/ncu 2>/dev/null | head -n 1)
if [ -n "$NCU" ]; then
    cap 100 "$RUN" "$NCU" -k regex:feint_variant --launch-count 3 --section SpeedOfLight \
        --section LaunchStats --section Occupancy "$HERE/bin/feint_bench" --target device --quick \
        --case tet4-poisson --no-csv > "$W/bench/ncu_tet4_poisson.txt" 2>&1
    echo "exit $?"; grep -E '==PROF==|feint_variant|DRAM Throughput|Memory Throughput|Duration|Registers Per|Achieved Occupancy' \
        "$W/bench/ncu_tet4_poisson.txt" | head -n 40
else
    echo "no ncu on this machine"
fi
phase "end"
save
