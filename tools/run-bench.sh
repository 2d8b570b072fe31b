#!/usr/bin/env bash
# run-bench.sh BENCH [ARGS] - run the benchmark with pinned threads (one per
# core unless OMP_NUM_THREADS says otherwise) and results under bench/results/.
set -eu
bench=$1
shift
mkdir -p bench/results
export OMP_PROC_BIND=${OMP_PROC_BIND:-close}
export OMP_PLACES=${OMP_PLACES:-cores}
export OMP_NUM_THREADS=${OMP_NUM_THREADS:-$(nproc)}
exec "$bench" "$@"
