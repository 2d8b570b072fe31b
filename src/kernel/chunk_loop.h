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
 * coloured == 0: every chunk at once, in mesh order, shared statically.
 * The statement after the arguments runs once per block with i0 (its first
 * element, size_t) and nvalid (its element count, int, <= FEINT_BLOCK_LEN)
 * in scope.
 */
#ifndef FEINT_KERNEL_CHUNK_LOOP_H
#define FEINT_KERNEL_CHUNK_LOOP_H

#include "kernel/block_io.h"

#define FEINT_HOST_CHUNK_LOOP(coloured, ne, len, num_colours, colour_ptr, chunk_order, ...)  \
  do {                                                                                        \
    const size_t ne_ = (ne), len_ = (len);                                                    \
    const size_t parts_ = (coloured) ? (num_colours) : 1;                                     \
    for (size_t c_ = 0; c_ < parts_; c_++) {                                                  \
      const size_t lo_ = (coloured) ? (colour_ptr)[c_] : 0;                                   \
      const size_t hi_ = (coloured) ? (colour_ptr)[c_ + 1] : (ne_ + len_ - 1) / len_;         \
      FEINT_OMP(for schedule(static))                                                         \
      for (size_t k_ = lo_; k_ < hi_; k_++) {                                                 \
        const size_t e0_ = ((coloured) ? (size_t)(chunk_order)[k_] : k_) * len_;              \
        const size_t e1_ = ne_ - e0_ < len_ ? ne_ : e0_ + len_;                               \
        for (size_t i0 = e0_; i0 < e1_; i0 += FEINT_B) {                                      \
          const int nvalid = e1_ - i0 < FEINT_B ? (int)(e1_ - i0) : FEINT_B;                  \
          __VA_ARGS__;                                                                        \
        }                                                                                     \
      }                                                                                       \
    }                                                                                         \
  } while (0)

#endif /* FEINT_KERNEL_CHUNK_LOOP_H */
