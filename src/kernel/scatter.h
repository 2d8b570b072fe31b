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
 * j}.  The count runs over the whole row once for all N_S nodes of the
 * element (feint_row_find): with AVX-512, 16 columns at a time (a P1
 * tetrahedral mesh row has ~15 entries, so mostly one vector load), one
 * compare per node giving a 16-bit mask and its population count; the
 * same compare for equality says whether the row holds the column at all.
 * (The plain loop, compiled for AVX-512, compared one column at a time
 * with the N_S nodes as one short vector, then moved each lane's bit out
 * of the mask register: about 17 instructions per column, 4 rows of ~15
 * columns per tet.)  With N_C = 3 the pattern holds full
 * 3 x 3 vertex blocks (feint_csr_create's does): the three rows of vertex v
 * have the same columns, and column 3 w + d sits at row_ptr[3 v + c] +
 * #{k in row 3 v : col[k] < 3 w} + d, so one count over row 3 v serves the
 * 9 entries of every node pair.  What it costs in bytes is counted in
 * perfmodel (col_idx read once per vertex row touched).
 *
 * Checked positions: in a pattern that lacks an entry of the element (one
 * from another tool, or of another mesh) the count lands on another
 * column's entry, or past the row's end (into the next row, or past the end
 * of the values for the last row).  So the search path checks every
 * position before adding into it: inside its row, holding the expected
 * column (with N_C = 3 column 3 w + d in each row 3 v + c), a compare on
 * col_idx entries the count has just brought into cache (rows 3 v + 1 and
 * 3 v + 2 follow row 3 v in memory).  With N_C = 1 the AVX-512 count knows
 * from its equality masks that the row holds every column of the element,
 * and then each sits exactly where the count put it: nothing left to
 * check (N_C = 3 still checks: a pattern from another tool may hold part
 * of a vertex pair's 3 x 3 block).  An entry that fails is skipped,
 * nothing is written out of place, and counted; the drivers sum the counts
 * (host: per block of elements, one atomic addition when nonzero; device:
 * an atomic addition only on a miss) and feint_assemble turns a nonzero sum
 * into a named error (assembly/assemble.c).
 *
 * Position by map (feint_scatter_element_mapped, feint_assembly_map): the
 * count cnt[s] of row N_C v_r stored per element and node pair, computed
 * and checked once (assembly/map.c), 32-bit or, when every offset of the
 * map fits, 1-byte; row_ptr is still read, col_idx is not.
 * Both paths add through one loop (feint_scatter_row): the same numbers in
 * the same order, bitwise equal results.
 */
#ifndef FEINT_KERNEL_SCATTER_H
#define FEINT_KERNEL_SCATTER_H

#include <stdint.h>

#include "kernel/physics.h"

FEINT_DECLARE_TARGET_BEGIN

/* Add row i = N_C r + c of one element's A^e (entry (i, j) of A^e at
 * Ae[(i * N_C N_S + j) * stride]) into the global row whose entries start
 * at values[row]: entry (i, N_C s + d) at values[row + off[s] + d], in the
 * order s, d (the one addition loop of both position paths).  off[s] is the
 * offset of column N_C v[s] in the row of the vertex block.  `atomic` is a
 * literal at every call: 1 makes every addition an OpenMP atomic update
 * (elements processed concurrently may share entries), 0 a plain one
 * (colouring guarantees no two concurrent elements share a row).
 * col_idx == NULL (the map path: its offsets were checked at creation; the
 * search when it knows every position holds its column): no check,
 * returns 0.  Otherwise each position is checked before its addition: it
 * must lie before row_end (the next row's start) and hold column col[s] +
 * d; an entry whose position fails is skipped (nothing is written) and
 * counted.  Returns the number skipped. */
FEINT_INLINE int feint_scatter_row(const int ns, const int nc, const int atomic, const int i,
                                   const int64_t row, const int64_t row_end,
                                   const int32_t *off, const int32_t *col,
                                   const int32_t *col_idx, const double *Ae, const int stride,
                                   double *values) {
  const int nd = nc * ns;
  int missing = 0;
  FEINT_UNROLL
  for (int s = 0; s < ns; s++)
    FEINT_UNROLL
    for (int d = 0; d < nc; d++) {
      const double a = Ae[(i * nd + nc * s + d) * stride];
      const int64_t p = row + off[s] + d;
      if (col_idx != NULL && !(p < row_end && col_idx[p] == col[s] + d)) {
        missing++; /* the pattern lacks (i, col[s] + d) where the count put it */
        continue;
      }
      double *dst = values + p;
      if (atomic) {
        FEINT_OMP(atomic update)
        *dst += a;
      } else {
        *dst += a;
      }
    }
  return missing;
}

/* The search in one row of ascending columns col_idx[start .. end) (nnz:
 * the length of col_idx): cnt[s] = #{k : col_idx[k] < col[s]} for s < ns.
 * Returns 1 if the row is known to hold every col[s] (each then at start +
 * cnt[s]), 0 if that is not known (the caller checks each position where
 * it lands).  AVX-512 hosts: 16 columns per step, one vector compare per
 * node and a population count of its 16-bit mask; lanes past the row's end
 * are masked off (they read the next rows' columns, which exist: a chunk
 * that would read past nnz is loaded column by column).  Presence: the
 * equality masks of all nodes OR-ed, one count per step; the columns differ
 * (the nodes' vertices do) and each sits once in a row, so a count of ns
 * means all are there.  Counting each node's equality mask instead:
 * prism6 Poisson 157 ns, against 149-150.  Zen 4, one thread,
 * feint_assemble colouring, box order, ns per element: tet4 Poisson 84-85
 * -> 51-53, prism6 Poisson 188-199 -> 149-150.  Elsewhere one column at a
 * time, presence not known (returns 0), so the caller's per-position check
 * runs as before: on Zen 4's x86-64-v3 (AVX2) build the 16-lane code made
 * prism6 Poisson 160-165 ns -> 207-273, and a presence mask kept in the
 * column loop 160 -> 172-177 (tet4 57 -> 64); devices run one element per
 * thread. */
#if FEINT_X86_HOST && defined(__AVX512F__) && defined(__clang__)
#define FEINT_ROW_W 16
typedef int32_t feint_v16i_u __attribute__((ext_vector_type(FEINT_ROW_W), aligned(4), may_alias));
typedef int32_t feint_v16i __attribute__((ext_vector_type(FEINT_ROW_W)));
typedef _Bool feint_v16b __attribute__((ext_vector_type(FEINT_ROW_W)));
FEINT_INLINE unsigned feint_mask16(const feint_v16b m) {
  uint16_t bits;
  __builtin_memcpy(&bits, &m, sizeof bits); /* a bool vector is a bit mask in memory */
  return bits;
}
#endif
FEINT_INLINE int feint_row_find(const int ns, const int32_t *col_idx, const int64_t start,
                                const int64_t end, const int64_t nnz, const int32_t *col,
                                int32_t *cnt) {
  FEINT_UNROLL
  for (int s = 0; s < ns; s++) cnt[s] = 0;
#ifdef FEINT_ROW_W
  int npresent = 0;
  for (int64_t k0 = start; k0 < end; k0 += FEINT_ROW_W) {
    const int64_t n = end - k0;
    const unsigned live = n >= FEINT_ROW_W ? (1u << FEINT_ROW_W) - 1 : (1u << n) - 1;
    feint_v16i c;
    if (k0 + FEINT_ROW_W <= nnz) {
      c = *(const feint_v16i_u *)(col_idx + k0);
    } else {
      for (int k = 0; k < FEINT_ROW_W; k++) c[k] = k < n ? col_idx[k0 + k] : INT32_MAX;
    }
    feint_v16b eq = __builtin_convertvector(c == col[0], feint_v16b);
    FEINT_UNROLL
    for (int s = 0; s < ns; s++) {
      cnt[s] += __builtin_popcount(feint_mask16(__builtin_convertvector(c < col[s], feint_v16b)) &
                                   live);
      if (s > 0) eq |= __builtin_convertvector(c == col[s], feint_v16b);
    }
    npresent += __builtin_popcount(feint_mask16(eq) & live);
  }
  return npresent == ns;
#else
  (void)nnz;
  for (int64_t k = start; k < end; k++) {
    const int32_t c = col_idx[k];
    FEINT_UNROLL
    for (int s = 0; s < ns; s++) cnt[s] += c < col[s];
  }
  return 0;
#endif
}

/* Add one element of problem pb: entry (i, j) of A^e (i, j < N_C N_S) at
 * Ae[(i * N_C N_S + j) * stride], b^e[i] at be[i * stride]; v = the
 * element's N_S vertex indices; positions by search (feint_row_find in the
 * row of each node's first dof; nnz the pattern's), checked
 * (feint_scatter_row): returns the number of entries of A^e that found no
 * place in the pattern (skipped; 0 for a pattern holding the element).
 * b^e is always added (its rows exist: the mesh was checked). */
FEINT_INLINE int feint_scatter_element(const int et, const int pb, const int atomic,
                                       const uint32_t *v, const double *Ae, const double *be,
                                       const int stride, const int64_t *row_ptr,
                                       const int32_t *col_idx, const int64_t nnz,
                                       double *values, double *rhs) {
  const int ns = feint_elem_nodes(et), nc = feint_problem_comps(pb);
  int32_t vs[FEINT_MAX_NODES]; /* first dof (and column) of each node */
  FEINT_UNROLL
  for (int s = 0; s < ns; s++) vs[s] = nc * (int32_t)v[s];
  int missing = 0;
  FEINT_UNROLL
  for (int r = 0; r < ns; r++) {
    const int64_t start = row_ptr[vs[r]], end = row_ptr[vs[r] + 1];
    int32_t cnt[FEINT_MAX_NODES];
    const int all_there = feint_row_find(ns, col_idx, start, end, nnz, vs, cnt);
    FEINT_UNROLL
    for (int c = 0; c < nc; c++) {
      const int64_t row = c == 0 ? start : row_ptr[vs[r] + c];
      const int64_t row_end = c == 0 ? end : row_ptr[vs[r] + c + 1];
      const int i = nc * r + c;
      /* N_C = 1 and every column there: no check left; else each entry's */
      missing += feint_scatter_row(ns, nc, atomic, i, row, row_end, cnt, vs,
                                   nc == 1 && all_there ? NULL : col_idx, Ae, stride, values);
      const double bv = be[i * stride];
      if (atomic) {
        FEINT_OMP(atomic update)
        rhs[vs[r] + c] += bv;
      } else {
        rhs[vs[r] + c] += bv;
      }
    }
  }
  return missing;
}

/* The same additions as feint_scatter_element, positions from the map:
 * off[r * N_S + s] = offset of column N_C v[s] within row N_C v[r] (the
 * element's N_S^2 entries of feint_assembly_map, checked when it was
 * made), or off8[r * N_S + s] when off8 != NULL (the map's 1-byte offsets;
 * the host driver passes a literal NULL for the other, so each width
 * compiles to its own loads).  On x86-64 hosts a row's 1-byte offsets are
 * one load (N_S <= 8 bytes) and shifts instead of N_S byte loads: the
 * scatter is bound by Zen 4's 3 memory operations per cycle (~84 per tet:
 * 20 additions' loads and stores, 20 A^e loads, 16 map bytes, conn and
 * row_ptr), bench/results/assembly_zen4_loads/. */
FEINT_INLINE void feint_scatter_element_mapped(const int et, const int pb, const int atomic,
                                               const uint32_t *v, const int32_t *off,
                                               const uint8_t *off8, const double *Ae,
                                               const double *be, const int stride,
                                               const int64_t *row_ptr, double *values,
                                               double *rhs) {
  const int ns = feint_elem_nodes(et), nc = feint_problem_comps(pb);
  FEINT_UNROLL
  for (int r = 0; r < ns; r++) {
    const int32_t vr = nc * (int32_t)v[r];
    int32_t o[FEINT_MAX_NODES];
#if FEINT_X86_HOST
    if (off8 != NULL) { /* the row's N_S <= 8 bytes in one word, taken apart in registers */
      _Static_assert(FEINT_MAX_NODES <= 8, "a row's offsets fit one 64-bit word");
      uint64_t w = 0;
      __builtin_memcpy(&w, off8 + r * ns, (size_t)ns);
      __asm__("" : "+r"(w)); /* keeps clang from splitting it back into byte loads */
      FEINT_UNROLL
      for (int s = 0; s < ns; s++) o[s] = (int32_t)((w >> (8 * s)) & 0xff);
    } else
#endif
      FEINT_UNROLL
      for (int s = 0; s < ns; s++)
        o[s] = off8 != NULL ? (int32_t)off8[r * ns + s] : off[r * ns + s];
    FEINT_UNROLL
    for (int c = 0; c < nc; c++) {
      const int i = nc * r + c;
      feint_scatter_row(ns, nc, atomic, i, row_ptr[vr + c], 0, o, NULL, NULL, Ae, stride,
                        values);
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
