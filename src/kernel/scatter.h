/*
 * kernel/scatter.h - adding one element's A^e and b^e into a global CSR
 * matrix and vector: the one home of "where does entry (r, s) of element e
 * go", shared by the host and device mesh drivers.
 *
 * Position by search, no per-element map: in a pattern with ascending
 * columns, column c of row i sits at row_ptr[i] + #{k in row i : col[k] <
 * c}.  The count is branch-free and runs over the whole row once for all
 * N_S columns of the element (a P1 tetrahedral mesh row has ~15 entries, so
 * one or two SIMD compares per column); the row's columns are read from
 * cache lines the row's values share a locality with.  What it costs in
 * bytes is counted in perfmodel (col_idx read once per vertex row touched).
 */
#ifndef FEINT_KERNEL_SCATTER_H
#define FEINT_KERNEL_SCATTER_H

#include <stdint.h>

#include "kernel/elem.h"

FEINT_DECLARE_TARGET_BEGIN

/* Add one element: entry (r, s) of A^e at Ae[(r * N_S + s) * stride],
 * b^e[r] at be[r * stride]; v = the element's N_S vertex indices.
 * `atomic` is a literal at every call: 1 makes every addition an OpenMP
 * atomic update (elements processed concurrently may share entries), 0 a
 * plain one (colouring guarantees no two concurrent elements share a row). */
FEINT_INLINE void feint_scatter_element(const int et, const int atomic, const uint32_t *v,
                                        const double *Ae, const double *be, const int stride,
                                        const int64_t *row_ptr, const int32_t *col_idx,
                                        double *values, double *rhs) {
  const int ns = feint_elem_nodes(et);
  int32_t vs[FEINT_MAX_NODES];
  FEINT_UNROLL
  for (int s = 0; s < ns; s++) vs[s] = (int32_t)v[s];
  FEINT_UNROLL
  for (int r = 0; r < ns; r++) {
    const int64_t start = row_ptr[vs[r]], end = row_ptr[vs[r] + 1];
    int cnt[FEINT_MAX_NODES] = {0};
    for (int64_t k = start; k < end; k++) {
      const int32_t c = col_idx[k];
      FEINT_UNROLL
      for (int s = 0; s < ns; s++) cnt[s] += c < vs[s];
    }
    FEINT_UNROLL
    for (int s = 0; s < ns; s++) {
      const double a = Ae[(r * ns + s) * stride];
      double *dst = values + start + cnt[s];
      if (atomic) {
        FEINT_OMP(atomic update)
        *dst += a;
      } else {
        *dst += a;
      }
    }
    const double bv = be[r * stride];
    if (atomic) {
      FEINT_OMP(atomic update)
      rhs[vs[r]] += bv;
    } else {
      rhs[vs[r]] += bv;
    }
  }
}

FEINT_DECLARE_TARGET_END

#endif /* FEINT_KERNEL_SCATTER_H */
