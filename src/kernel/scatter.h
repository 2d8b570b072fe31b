/*
 * kernel/scatter.h - adding one element's A^e and b^e into a global CSR
 * matrix and vector: the one home of "where does entry (r, s) of element e
 * go", shared by the host and device mesh drivers.
 *
 * Dofs: N_C per vertex (problem component count, kernel/physics.h), vertex-
 * major: global dof N_C v + c is component c of vertex v, element dof
 * N_C r + c component c of node r (the order of A^e and b^e).
 *
 * Position by search (feint_scatter_element): in a pattern with ascending
 * columns, column j of row i sits at row_ptr[i] + #{k in row i : col[k] <
 * j}.  The count is branch-free and runs over the whole row once for all
 * N_S nodes of the element (a P1 tetrahedral mesh row has ~15 entries, so
 * one or two SIMD compares per column).  With N_C = 3 the pattern holds full
 * 3 x 3 vertex blocks (feint_csr_create's does): the three rows of vertex v
 * have the same columns, and column 3 w + d sits at row_ptr[3 v + c] +
 * #{k in row 3 v : col[k] < 3 w} + d, so one count over row 3 v serves the
 * 9 entries of every node pair.  What it costs in bytes is counted in
 * perfmodel (col_idx read once per vertex row touched).
 *
 * Position by map (feint_scatter_element_mapped, feint_assembly_map): the
 * count cnt[s] of row N_C v_r stored per element and node pair, computed
 * once (assembly/map.c); row_ptr is still read, col_idx is not.  Both
 * functions add the same numbers in the same order: bitwise equal results.
 */
#ifndef FEINT_KERNEL_SCATTER_H
#define FEINT_KERNEL_SCATTER_H

#include <stdint.h>

#include "kernel/physics.h"

FEINT_DECLARE_TARGET_BEGIN

/* Add one element of problem pb: entry (i, j) of A^e (i, j < N_C N_S) at
 * Ae[(i * N_C N_S + j) * stride], b^e[i] at be[i * stride]; v = the
 * element's N_S vertex indices.  `atomic` is a literal at every call: 1
 * makes every addition an OpenMP atomic update (elements processed
 * concurrently may share entries), 0 a plain one (colouring guarantees no
 * two concurrent elements share a row). */
FEINT_INLINE void feint_scatter_element(const int et, const int pb, const int atomic,
                                        const uint32_t *v, const double *Ae, const double *be,
                                        const int stride, const int64_t *row_ptr,
                                        const int32_t *col_idx, double *values, double *rhs) {
  const int ns = feint_elem_nodes(et), nc = feint_problem_comps(pb), nd = nc * ns;
  int32_t vs[FEINT_MAX_NODES]; /* first dof of each node */
  FEINT_UNROLL
  for (int s = 0; s < ns; s++) vs[s] = nc * (int32_t)v[s];
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
    for (int c = 0; c < nc; c++) {
      const int64_t row = c == 0 ? start : row_ptr[vs[r] + c];
      const int i = nc * r + c;
      FEINT_UNROLL
      for (int s = 0; s < ns; s++)
        FEINT_UNROLL
        for (int d = 0; d < nc; d++) {
          const double a = Ae[(i * nd + nc * s + d) * stride];
          double *dst = values + row + cnt[s] + d;
          if (atomic) {
            FEINT_OMP(atomic update)
            *dst += a;
          } else {
            *dst += a;
          }
        }
      const double bv = be[i * stride];
      if (atomic) {
        FEINT_OMP(atomic update)
        rhs[vs[r] + c] += bv;
      } else {
        rhs[vs[r] + c] += bv;
      }
    }
  }
}

/* The same additions as feint_scatter_element, positions from the map:
 * off[r * N_S + s] = offset of column N_C v[s] within row N_C v[r] (the
 * element's N_S^2 entries of feint_assembly_map). */
FEINT_INLINE void feint_scatter_element_mapped(const int et, const int pb, const int atomic,
                                               const uint32_t *v, const int32_t *off,
                                               const double *Ae, const double *be,
                                               const int stride, const int64_t *row_ptr,
                                               double *values, double *rhs) {
  const int ns = feint_elem_nodes(et), nc = feint_problem_comps(pb), nd = nc * ns;
  FEINT_UNROLL
  for (int r = 0; r < ns; r++) {
    const int32_t vr = nc * (int32_t)v[r];
    FEINT_UNROLL
    for (int c = 0; c < nc; c++) {
      const int64_t row = row_ptr[vr + c];
      const int i = nc * r + c;
      FEINT_UNROLL
      for (int s = 0; s < ns; s++)
        FEINT_UNROLL
        for (int d = 0; d < nc; d++) {
          const double a = Ae[(i * nd + nc * s + d) * stride];
          double *dst = values + row + off[r * ns + s] + d;
          if (atomic) {
            FEINT_OMP(atomic update)
            *dst += a;
          } else {
            *dst += a;
          }
        }
      const double bv = be[i * stride];
      if (atomic) {
        FEINT_OMP(atomic update)
        rhs[vr + c] += bv;
      } else {
        rhs[vr + c] += bv;
      }
    }
  }
}

FEINT_DECLARE_TARGET_END

#endif /* FEINT_KERNEL_SCATTER_H */
