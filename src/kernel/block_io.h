/*
 * kernel/block_io.h - moving one block of FEINT_BLOCK_LEN elements between a
 * global array and the kernels, in the array's own layout.
 *
 * A block's chunk of an array is contiguous in both layouts (natural:
 * element after element, entry k of lane l at [l * size + k]; blocked:
 * lane-major, at [k * B + l]).  The kernels read input chunks in place and
 * address lane l's entries with a (lane offset, entry stride) pair that is a
 * compile-time constant per layout, so the vectoriser turns natural-layout
 * accesses into interleaved loads and shuffles.  Only the last, partial block
 * is copied, with lanes past the end filled by a copy of lane 0 (they compute
 * on a valid element and are discarded).
 *
 * Output: the kernels write a block buffer laid out like the destination
 * chunk; a full block then leaves with one contiguous copy by nontemporal
 * (streaming) stores where the compiler offers them, so the output costs no
 * read-for-ownership and the traffic is the model's compulsory bytes.
 */
#ifndef FEINT_KERNEL_BLOCK_IO_H
#define FEINT_KERNEL_BLOCK_IO_H

#include <stddef.h>
#include <stdint.h>

#include "kernel/portable.h"

#define FEINT_B FEINT_BLOCK_LEN

/* Streaming stores: 4 doubles at a time from a 32-byte aligned address.
 * clang offers __builtin_nontemporal_store on vector types (vmovntpd on
 * x86); other compilers, and the offload device pass, get plain stores. */
#if defined(__clang__) && !defined(__NVPTX__) && !defined(__AMDGPU__)
#define FEINT_HAVE_STREAM_STORE 1
typedef double feint_v4d __attribute__((vector_size(32), aligned(32)));
#else
#define FEINT_HAVE_STREAM_STORE 0
#endif

/* 1 if p is aligned for streaming stores. */
static inline int feint_stream_aligned(const void *p) { return ((uintptr_t)p & 31u) == 0; }

/* Lane offset and entry stride of an array with `size` entries per element
 * in a layout: entry k of lane l of a block chunk is at l * lane + k * entry. */
FEINT_INLINE int feint_lane_offset(int layout, int size) {
  return layout == FEINT_LAYOUT_BLOCKED ? 1 : size;
}
FEINT_INLINE int feint_entry_stride(int layout) {
  return layout == FEINT_LAYOUT_BLOCKED ? FEINT_B : 1;
}

/* The chunk of block `blk` of an input array (elements blk * B ..
 * blk * B + nvalid - 1), in place for a full block, else copied to buf
 * (B * size doubles) with the missing lanes replaced by lane 0. */
FEINT_INLINE const double *feint_block_in(int layout, const double *src, int size, size_t blk,
                                          int nvalid, double *buf) {
  const double *chunk = src + blk * FEINT_B * (size_t)size;
  if (nvalid == FEINT_B) return chunk;
  const int lane = feint_lane_offset(layout, size), entry = feint_entry_stride(layout);
  for (int l = 0; l < FEINT_B; l++)
    for (int k = 0; k < size; k++) buf[l * lane + k * entry] = chunk[(l < nvalid ? l : 0) * lane + k * entry];
  return buf;
}

/* Copy block `blk` of an output array from the buffer (laid out like the
 * destination chunk) to global memory; only the nvalid lanes are written.
 * `stream`: the destination is 32-byte aligned and streaming stores may be
 * used. */
FEINT_INLINE void feint_block_out(int layout, double *dst, int size, size_t blk, int nvalid,
                                  const double *buf, int stream) {
  double *chunk = dst + blk * FEINT_B * (size_t)size;
  if (nvalid == FEINT_B) {
    const int len = FEINT_B * size; /* a multiple of 4: B is */
#if FEINT_HAVE_STREAM_STORE
    if (stream) {
      for (int i = 0; i < len; i += 4) {
        feint_v4d v;
        __builtin_memcpy(&v, buf + i, sizeof v);
        __builtin_nontemporal_store(v, (feint_v4d *)(chunk + i));
      }
      return;
    }
#else
    (void)stream;
#endif
    for (int i = 0; i < len; i++) chunk[i] = buf[i];
    return;
  }
  const int lane = feint_lane_offset(layout, size), entry = feint_entry_stride(layout);
  for (int l = 0; l < nvalid; l++)
    for (int k = 0; k < size; k++) chunk[l * lane + k * entry] = buf[l * lane + k * entry];
}

#endif /* FEINT_KERNEL_BLOCK_IO_H */
