#!/bin/sh
# gpu-heap-check.sh - which device kernels call the CUDA device heap (malloc,
# free), read from the linked device image of an offload build; no GPU needed.
# Why: on the first GPU (H200, 2026-11-26) every element, mesh and operator
# kernel called malloc and free once per element (the CUDA heap serialises
# them: 0.02-0.2 % of the memory bound, 99.98 % of instructions in those
# calls), and large launches ran out of heap (illegal memory access).  The
# calls came from clang's generic data sharing (locals handed to
# __kmpc_alloc_shared, served from the heap past a 512-byte team stack); the
# kernels' objects are now compiled in CUDA mode (gpu.mk,
# GPU_CUDA_MODE_FLAGS).  check-gpu-fallback runs this check on CI's -O1
# offload build, and gpu-bundle refuses a library that fails it.
# How: the image is the .llvm.offloading section of the library (an offload
# package); clang-offload-packager extracts the sm_XX cubin, whose relocation
# sections (.rela.text.<kernel>) name every function a kernel calls.
# Usage: tools/gpu-heap-check.sh LIBRARY|OBJECT [ARCH]   (make GPU=sm_90 gpu-heap-check)
# (an object of an offload build carries its own device image: one file checked alone)
# Exit: 0 if no kernel calls malloc or free, 1 otherwise (the list is printed).
set -eu
lib=$1
arch=${2:-sm_90}
LLVM_BIN=${LLVM_BIN:-/usr/lib/llvm-19/bin}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
objcopy --dump-section .llvm.offloading="$tmp/blob" "$lib" "$tmp/junk" 2>/dev/null || true
[ -s "$tmp/blob" ] || { echo "gpu-heap-check: $lib has no device image"; exit 2; }
"$LLVM_BIN/clang-offload-packager" "$tmp/blob" --image=file="$tmp/img.cubin",arch="$arch"
readelf -SW "$tmp/img.cubin" 2>/dev/null | grep -o ' \.text\.[^ ]*' | sed 's/ \.text\.//' | sort -u > "$tmp/all"
readelf -rW "$tmp/img.cubin" 2>/dev/null |
  awk '/^Relocation section/ { s = $3; gsub(/\047/, "", s); sub(/^\.rela\.text\./, "", s); next }
       NF >= 3 && ($(NF-2) == "malloc" || $(NF-2) == "free") { print s }' | sort -u > "$tmp/heap"
n_all=$(wc -l < "$tmp/all"); n_heap=$(wc -l < "$tmp/heap")
echo "gpu-heap-check: $n_heap of $n_all device functions of $lib ($arch) call malloc/free"
if [ "$n_heap" -gt 0 ]; then
  sed 's/^/  /' "$tmp/heap" | head -n 20
  [ "$n_heap" -le 20 ] || echo "  ... ($((n_heap - 20)) more)"
  exit 1
fi
