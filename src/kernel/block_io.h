/*
 * kernel/block_io.h - moving one block of FEINT_BLOCK_LEN elements between a
 * global array (natural or blocked layout) and a lane-major block buffer
 * buf[k * B + lane], the form in which SIMD lanes touch neighbouring
 * addresses.
 *
 * Input: a full block of a blocked array is used in place (no copy); natural
 * input is transposed into the buffer (the read side is one contiguous chunk
 * of B * size doubles).  Lanes past the end of the array (last, partial
 * block) are filled with a copy of lane 0, so they compute on a valid element
 * and are then discarded.
 *
 * Output: the kernels always write the block buffer; it is then copied to
 * the global array, whose block chunk is contiguous in both layouts (natural:
 * element after element; blocked: lane-major as in the buffer).  Full blocks
 * are written with nontemporal (streaming) stores where the compiler offers
 * them, so the output costs no read-for-ownership: the traffic is the
 * compulsory bytes of the performance model.
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

/* Pointer to the lane-major data of block `blk` (elements e0 = blk * B ..
 * e0 + nvalid - 1) of an input array with `size` doubles per element. */
FEINT_INLINE const double *feint_block_in(int layout, const double *src, int size, size_t blk,
                                          int nvalid, double *buf) {
  if (layout == FEINT_LAYOUT_BLOCKED) {
    const double *chunk = src + blk * FEINT_B * (size_t)size;
    if (nvalid == FEINT_B) return chunk;
    for (int k = 0; k < size; k++)
      for (int l = 0; l < FEINT_B; l++) buf[k * FEINT_B + l] = chunk[k * FEINT_B + (l < nvalid ? l : 0)];
  } else {
    const double *chunk = src + blk * FEINT_B * (size_t)size;
    if (nvalid == FEINT_B) {
      for (int l = 0; l < FEINT_B; l++)
        for (int k = 0; k < size; k++) buf[k * FEINT_B + l] = chunk[l * size + k];
    } else {
      for (int l = 0; l < FEINT_B; l++)
        for (int k = 0; k < size; k++) buf[k * FEINT_B + l] = chunk[(l < nvalid ? l : 0) * size + k];
    }
  }
  return buf;
}

/* Copy block `blk` of an output array from the lane-major buffer to global
 * memory in `layout`; only the nvalid lanes are written.  `stream`: the
 * destination is 32-byte aligned and streaming stores may be used. */
FEINT_INLINE void feint_block_out(int layout, double *dst, int size, size_t blk, int nvalid,
                                  const double *buf, int stream) {
  double *chunk = dst + blk * FEINT_B * (size_t)size;
  if (nvalid == FEINT_B) {
    const int len = FEINT_B * size; /* a multiple of 4: B is */
#if FEINT_HAVE_STREAM_STORE
    if (stream) {
      for (int i = 0; i < len; i += 4) {
        feint_v4d v;
        if (layout == FEINT_LAYOUT_BLOCKED) {
          v = (feint_v4d){buf[i], buf[i + 1], buf[i + 2], buf[i + 3]};
        } else {
          /* natural index i = l * size + k  <-  buffer index k * B + l */
          double t[4];
          for (int j = 0; j < 4; j++) t[j] = buf[((i + j) % size) * FEINT_B + (i + j) / size];
          v = (feint_v4d){t[0], t[1], t[2], t[3]};
        }
        __builtin_nontemporal_store(v, (feint_v4d *)(chunk + i));
      }
      return;
    }
#else
    (void)stream;
#endif
    if (layout == FEINT_LAYOUT_BLOCKED)
      for (int i = 0; i < len; i++) chunk[i] = buf[i];
    else
      for (int l = 0; l < FEINT_B; l++)
        for (int k = 0; k < size; k++) chunk[l * size + k] = buf[k * FEINT_B + l];
    return;
  }
  for (int l = 0; l < nvalid; l++)
    for (int k = 0; k < size; k++) {
      const size_t at = layout == FEINT_LAYOUT_BLOCKED ? (size_t)k * FEINT_B + l : (size_t)l * size + k;
      chunk[at] = buf[k * FEINT_B + l];
    }
}

#endif /* FEINT_KERNEL_BLOCK_IO_H */
