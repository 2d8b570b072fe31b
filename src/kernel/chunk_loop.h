/*
 * kernel/chunk_loop.h - the host element loop of the mesh drivers
 * (kernel/driver_mesh.h: integration and assembly; kernel/driver_operator.h:
 * matrix-free operators), inside their enclosing parallel region.
 *
 * The elements go in chunks of `len` consecutive ones (a multiple of
 * FEINT_BLOCK_LEN; feint_assembly_chunks), each run in order by one thread,
 * a block of FEINT_BLOCK_LEN elements at a time.  coloured != 0: the chunk
 * colours one after another (colour c is chunks chunk_order[colour_ptr[c]
 * .. colour_ptr[c + 1]), ascending; no two chunks of a colour share a
 * vertex), the implicit barrier of each `omp for` separating them;
 * coloured == 0: every chunk at once, in mesh order, the chunks cut into as
 * many contiguous shares as the team has threads, one share per thread.
 * The statement after the arguments runs once per block with i0 (its first
 * element, size_t) and nvalid (its element count, int, <= FEINT_BLOCK_LEN)
 * in scope, and with chunk (the block's chunk, size_t) and [share_lo,
 * share_hi) (the chunks that the same thread runs in this loop, one after
 * another; coloured: the chunk alone).  No other thread runs a chunk of
 * the share while this one runs: a vertex whose elements all lie in chunks
 * of the share gets its additions from this thread only
 * (feint_block_private).
 */
#ifndef FEINT_KERNEL_CHUNK_LOOP_H
#define FEINT_KERNEL_CHUNK_LOOP_H

#ifdef _OPENMP
#include <omp.h>
#endif

#include "feint_internal.h"
#include "kernel/block_io.h"

/* Threads of the enclosing parallel region (1 without OpenMP). */
FEINT_INLINE int feint_team_threads(void) {
#ifdef _OPENMP
  return omp_get_num_threads();
#else
  return 1;
#endif
}

/* 1 if every chunk with an element that shares a vertex with an element of
 * block b lies in [share_lo, share_hi): reach[2 b] and reach[2 b + 1] are
 * the lowest and the highest such chunk (feint_asm_build_reach; NULL:
 * never).  Such a block's additions need no atomics. */
FEINT_INLINE int feint_block_private(const uint32_t *reach, size_t b, size_t share_lo,
                                     size_t share_hi) {
  return reach != NULL && reach[2 * b] >= share_lo && reach[2 * b + 1] < share_hi;
}

#define FEINT_HOST_CHUNK_LOOP(coloured, ne, len, num_colours, colour_ptr, chunk_order, ...)  \
  do {                                                                                        \
    const size_t ne_ = (ne), len_ = (len);                                                    \
    const size_t parts_ = (coloured) ? (num_colours) : 1;                                     \
    const int team_ = feint_team_threads();                                                   \
    for (size_t c_ = 0; c_ < parts_; c_++) {                                                  \
      const size_t lo_ = (coloured) ? (colour_ptr)[c_] : 0;                                   \
      const size_t hi_ = (coloured) ? (colour_ptr)[c_ + 1] : (ne_ + len_ - 1) / len_;         \
      /* items: one chunk of the colour each, or one share of the chunks per thread */        \
      const size_t items_ = (coloured) ? hi_ - lo_ : (size_t)team_;                           \
      FEINT_OMP(for schedule(static))                                                         \
      for (size_t it_ = 0; it_ < items_; it_++) {                                             \
        size_t a_ = lo_ + it_, b_ = a_ + 1;                                                   \
        if (!(coloured)) feint_thread_range(hi_, (int)it_, team_, &a_, &b_);                  \
        for (size_t k_ = a_; k_ < b_; k_++) {                                                 \
          const size_t chunk = (coloured) ? (size_t)(chunk_order)[k_] : k_;                   \
          const size_t share_lo = (coloured) ? chunk : a_;                                    \
          const size_t share_hi = (coloured) ? chunk + 1 : b_;                                \
          const size_t e0_ = chunk * len_;                                                    \
          const size_t e1_ = ne_ - e0_ < len_ ? ne_ : e0_ + len_;                             \
          for (size_t i0 = e0_; i0 < e1_; i0 += FEINT_B) {                                    \
            const int nvalid = e1_ - i0 < FEINT_B ? (int)(e1_ - i0) : FEINT_B;                \
            (void)share_lo, (void)share_hi, (void)chunk;                                      \
            __VA_ARGS__;                                                                      \
          }                                                                                   \
        }                                                                                     \
      }                                                                                       \
    }                                                                                         \
  } while (0)

#endif /* FEINT_KERNEL_CHUNK_LOOP_H */
