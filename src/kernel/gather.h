/*
 * kernel/gather.h - reading one element's inputs through a mesh's
 * connectivity: the one home of "where are element e's vertex coordinates
 * and coefficients", shared by the host and device mesh drivers (and by any
 * other loop over a mesh's elements, e.g. matrix-free operators).
 *
 *  coords : [num_vertices][3]; conn : [num_elem][N_S] (32-bit vertex
 *  indices); coeffs : the element coefficients in layout `layout_in`
 *  (natural [num_elem][N_coef] or blocked, include/feint.h), or NULL: all
 *  zero (coefficients that do not enter A^e, such as Poisson's load f for a
 *  matrix-free operator, are then not read);
 *  x : a vector of dofs, N_C per vertex, dof N_C v + c (feint_gather_dofs).
 * The gathered geometry is in the variants' input order: coordinate a of
 * node n at geo[(3 n + a) * stride], coefficient k at coef[k * stride].
 */
#ifndef FEINT_KERNEL_GATHER_H
#define FEINT_KERNEL_GATHER_H

#include <stdint.h>

#include "kernel/block_io.h"
#include "kernel/physics.h"

/* A vertex's 3 coordinates as one masked 4-lane load (lane 3 neither read,
 * so it cannot fault past the array's end, nor kept: zero) where AVX-512VL
 * has it; elsewhere 3 scalar loads joined in registers (feint_gather_coords_block). */
#if FEINT_X86_HOST && defined(__AVX512VL__)
#include <immintrin.h>
#define FEINT_MASKED_LOAD3 1
#else
#define FEINT_MASKED_LOAD3 0
#endif

FEINT_DECLARE_TARGET_BEGIN

/* The coefficients of element e into coef with the given stride. */
FEINT_INLINE void feint_gather_coeffs(const int et, const int pb, const int layout_in,
                                      const double *coeffs, const size_t e, double *coef,
                                      const int stride) {
  const int cs = feint_problem_coeffs(et, pb);
  if (coeffs == NULL) {
    FEINT_UNROLL
    for (int k = 0; k < cs; k++) coef[k * stride] = 0.0;
    return;
  }
  const size_t lane = e % FEINT_B;
  const double *c = layout_in == FEINT_LAYOUT_BLOCKED ? coeffs + (e - lane) * (size_t)cs + lane
                                                      : coeffs + e * (size_t)cs;
  const size_t cstride = layout_in == FEINT_LAYOUT_BLOCKED ? FEINT_B : 1;
  FEINT_UNROLL
  for (int k = 0; k < cs; k++) coef[k * stride] = c[k * cstride];
}

/* One element e into geo/coef with the given stride (device threads: one
 * element each, stride 1). */
FEINT_INLINE void feint_gather_element(const int et, const int pb, const int layout_in,
                                       const uint32_t *conn, const double *coords,
                                       const double *coeffs, const size_t e, double *geo,
                                       double *coef, const int stride) {
  const int ns = feint_elem_nodes(et);
  const uint32_t *v = conn + e * (size_t)ns;
  FEINT_UNROLL
  for (int n = 0; n < ns; n++) {
    const double *x = coords + 3 * (size_t)v[n];
    FEINT_UNROLL
    for (int a = 0; a < 3; a++) geo[(3 * n + a) * stride] = x[a];
  }
  feint_gather_coeffs(et, pb, layout_in, coeffs, e, coef, stride);
}

/* The elements of the lanes of a host block loop's block at element i0
 * with nvalid valid lanes: lane l holds i0 + l, and the lanes past nvalid
 * repeat lane 0's element (their results are discarded, their findings
 * never below lane 0's). */
FEINT_INLINE void feint_block_elems(const size_t i0, const int nvalid, size_t elem[FEINT_B]) {
  for (int l = 0; l < FEINT_B; l++) elem[l] = i0 + (size_t)(l < nvalid ? l : 0);
}

/* The vertex coordinates of a block of FEINT_B elements elem[0..FEINT_B-1]
 * into geo in blocked order (coordinate a of node n of lane l at
 * geo[(3 n + a) * FEINT_B + l]; geo 32-byte aligned).  Host code, 4 lanes
 * at a time: each lane's vertex read as one row (x, y, z) with contiguous
 * loads, the 4 rows transposed in registers (feint_transpose4) and stored
 * as whole vectors.  Written per lane, clang vectorises the lane loop into
 * vgatherqpd, which Zen cores run slowly, and the kernel's vector loads
 * then wait on 8-byte stores: tet4 Poisson from a mesh, one Zen 4 thread,
 * feint_integrate_mesh 24.4 ns per element against 9.5 for the kernel on a
 * gathered geometry array (bench/results/mesh_gather/).  Each row is one
 * masked load under AVX-512VL (FEINT_MASKED_LOAD3; the three scalar loads
 * and two inserts it replaces were 96 of a tet4 block's ~445 gather
 * instructions): bench/results/assembly_zen4_loads/. */
FEINT_INLINE void feint_gather_coords_block(const int ns, const uint32_t *conn,
                                            const double *coords, const size_t elem[FEINT_B],
                                            double *geo) {
#if FEINT_HAVE_V4D
  FEINT_UNROLL
  for (int g = 0; g < FEINT_B; g += 4)
    FEINT_UNROLL
    for (int n = 0; n < ns; n++) {
      feint_v4d r[4], c[4];
      FEINT_UNROLL
      for (int i = 0; i < 4; i++) {
        const double *x = coords + 3 * (size_t)conn[elem[g + i] * ns + n];
#if FEINT_MASKED_LOAD3
        r[i] = (feint_v4d)_mm256_maskz_loadu_pd(0x7, x);
#else
        r[i] = (feint_v4d){x[0], x[1], x[2], 0.0}; /* never reads past the vertex */
#endif
      }
      feint_transpose4(r, c);
      FEINT_UNROLL
      for (int a = 0; a < 3; a++) *(feint_v4d_u *)(geo + (3 * n + a) * FEINT_B + g) = c[a];
    }
#else
  for (int l = 0; l < FEINT_B; l++)
    for (int n = 0; n < ns; n++) {
      const double *x = coords + 3 * (size_t)conn[elem[l] * ns + n];
      for (int a = 0; a < 3; a++) geo[(3 * n + a) * FEINT_B + l] = x[a];
    }
#endif
}

/* The inputs of elements [i0, i0 + nvalid) of a host block loop (i0 a
 * multiple of FEINT_B, as every chunk start is; lanes past nvalid repeat
 * lane 0's element) in blocked order, ready for the variants' lane-parallel
 * element functions: the coordinates into geo (feint_gather_coords_block);
 * the coefficients are returned: a full block's through feint_block_in (in
 * place for a blocked array, else transposed into coef), a partial block's
 * or absent ones (all zero) written into coef (FEINT_MAX_COEFFS * FEINT_B
 * doubles, 32-byte aligned). */
FEINT_INLINE const double *feint_gather_block(const int et, const int pb, const int layout_in,
                                              const uint32_t *conn, const double *coords,
                                              const double *coeffs, const size_t i0,
                                              const int nvalid, double *geo, double *coef) {
  const int ns = feint_elem_nodes(et), cs = feint_problem_coeffs(et, pb);
  size_t elem[FEINT_B];
  feint_block_elems(i0, nvalid, elem);
  feint_gather_coords_block(ns, conn, coords, elem, geo);
  if (coeffs != NULL && nvalid == FEINT_B && i0 % FEINT_B == 0)
    return feint_block_in(layout_in, coeffs, cs, i0 / FEINT_B, FEINT_B, coef, NULL);
  for (int l = 0; l < FEINT_B; l++)
    feint_gather_coeffs(et, pb, layout_in, coeffs, elem[l], coef + l, FEINT_B);
  return coef;
}

/* The N_D = N_C N_S dofs of the element with vertices v[0..N_S-1] from x
 * into xe (dof r of the element: component r % N_C of vertex v[r / N_C],
 * at xe[r * stride]). */
FEINT_INLINE void feint_gather_dofs(const int et, const int pb, const uint32_t *v,
                                    const double *x, double *xe, const int stride) {
  const int nc = feint_problem_comps(pb), nd = nc * feint_elem_nodes(et);
  FEINT_UNROLL
  for (int r = 0; r < nd; r++) xe[r * stride] = x[(size_t)v[r / nc] * nc + r % nc];
}

/* The dofs of a block of FEINT_B elements elem[0..FEINT_B-1] from x into xe
 * in blocked order (dof r of lane l at xe[r * FEINT_B + l], the order of
 * feint_gather_dofs; xe 32-byte aligned), host code.  N_C = 3: a vertex's
 * dofs are a row like its coordinates, read by feint_gather_coords_block.
 * N_C = 1: per lane; clang makes it vpgatherqd + vgatherqpd on znver4, and
 * 4 scalar loads per vector store hidden from the vectoriser measured
 * slower in the recompute operator (tet4 Poisson, one Zen 4 thread, 4.09 M
 * elements: 14.3 -> 21.9 ns per element), so the compiler's choice stays. */
FEINT_INLINE void feint_gather_dofs_block(const int et, const int pb, const uint32_t *conn,
                                          const double *x, const size_t elem[FEINT_B],
                                          double *xe) {
  const int ns = feint_elem_nodes(et), nc = feint_problem_comps(pb);
  if (nc == 3) {
    feint_gather_coords_block(ns, conn, x, elem, xe);
    return;
  }
  for (int l = 0; l < FEINT_B; l++)
    feint_gather_dofs(et, pb, conn + elem[l] * (size_t)ns, x, xe + l, FEINT_B);
}

/* The N_C = 1 dofs of a block (as feint_gather_dofs_block: dof n of lane l
 * at xe[n * FEINT_B + l]) by scalar loads, four joined into each vector
 * store, from a window-local x through 16-bit indices (lane l's node n at
 * lc[n * FEINT_B + l]: operator/matfree.c's windows).  An empty asm on each
 * loaded value keeps clang from turning the loads back into vgatherqpd.
 * Which of the two is faster depends on the loop around it (tet4 Poisson,
 * Zen 4, 4.09 M elements, ns per element, min, when the loop read the
 * mesh's x): the QPOINT operator 7.78 -> 5.84 with one thread, 3.92 -> 2.96
 * with two (hex8 Poisson's QPOINT loop: unchanged within 5%), but the
 * recompute operator 14.3 -> 21.9 and PRECOMPUTED 6.0 -> 6.4-7.0; so only
 * the windowed QPOINT loop (tet4) calls it
 * (bench/results/operator_qpoint_gather/). */
FEINT_INLINE void feint_gather_scalar_dofs_block(const int ns, const uint16_t *lc,
                                                 const double *x, double *xe) {
#if FEINT_HAVE_V4D && FEINT_X86_HOST
  FEINT_UNROLL
  for (int g = 0; g < FEINT_B; g += 4)
    FEINT_UNROLL
    for (int n = 0; n < ns; n++) {
      double a[4];
      FEINT_UNROLL
      for (int i = 0; i < 4; i++) {
        a[i] = x[lc[n * FEINT_B + g + i]];
        __asm__("" : "+x"(a[i])); /* a scalar load, not a lane of a gather */
      }
      *(feint_v4d_u *)(xe + n * FEINT_B + g) = (feint_v4d){a[0], a[1], a[2], a[3]};
    }
#else
  for (int l = 0; l < FEINT_B; l++)
    for (int n = 0; n < ns; n++) xe[n * FEINT_B + l] = x[lc[n * FEINT_B + l]];
#endif
}

/* Software prefetch for a host loop over elements [0, n) of conn, a block
 * of FEINT_B at a time, called at the block of element i0.  The hardware
 * prefetchers follow the element-ordered streams but not what they index:
 * in a mesh whose vertices are not numbered along lines (a Hilbert-
 * renumbered or a generated one) each element's per-vertex data are misses
 * taken one after another (kernel/driver_mesh.h has the measured effect).
 * So: the streams `ahead` blocks ahead (conn, and `data`, an array of
 * dsize doubles per element in either layout, e.g. the coefficients; NULL:
 * none; the element loops pass FEINT_PREFETCH_AHEAD, operator/matfree.c a
 * distance in bytes), and for each vertex v of the block `near` ahead
 * (near < ahead: its conn is in cache by then; 2 in the element loops) the
 * line at a + a_stride v and, when b is not NULL, the one at b + b_stride v
 * (strides in bytes: a vertex's coordinates, its CSR row offsets, its
 * entries of a vector).  Blocks past n are not asked for. */
FEINT_INLINE void feint_prefetch_mesh_block(const uint32_t *conn, const int ns, const size_t n,
                                            const size_t i0, const size_t ahead,
                                            const size_t near, const double *data,
                                            const int dsize, const void *a,
                                            const size_t a_stride, const void *b,
                                            const size_t b_stride) {
  const size_t B = FEINT_B, far = i0 + ahead * B, mid = i0 + near * B;
  if (far + B <= n) {
    feint_prefetch_bytes(conn + far * ns, FEINT_B * ns * (int)sizeof(uint32_t));
    if (data != NULL) feint_prefetch_block(data, dsize, far / B);
  }
  if (mid + B <= n)
    for (size_t k = mid * ns; k < (mid + B) * ns; k++) {
      __builtin_prefetch((const char *)a + a_stride * conn[k]);
      if (b != NULL) __builtin_prefetch((const char *)b + b_stride * conn[k]);
    }
}

FEINT_DECLARE_TARGET_END

#endif /* FEINT_KERNEL_GATHER_H */
