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

FEINT_DECLARE_TARGET_BEGIN

/* One element e into geo/coef with the given stride (device threads: one
 * element each, stride 1). */
FEINT_INLINE void feint_gather_element(const int et, const int pb, const int layout_in,
                                       const uint32_t *conn, const double *coords,
                                       const double *coeffs, const size_t e, double *geo,
                                       double *coef, const int stride) {
  const int ns = feint_elem_nodes(et), cs = feint_problem_coeffs(et, pb);
  const uint32_t *v = conn + e * (size_t)ns;
  FEINT_UNROLL
  for (int n = 0; n < ns; n++) {
    const double *x = coords + 3 * (size_t)v[n];
    FEINT_UNROLL
    for (int a = 0; a < 3; a++) geo[(3 * n + a) * stride] = x[a];
  }
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

/* A block of FEINT_B elements elem[0..FEINT_B-1] into blocked buffers (lane
 * l of entry k at [k * FEINT_B + l]), ready for the variants' lane-parallel
 * element functions. */
FEINT_INLINE void feint_gather_block(const int et, const int pb, const int layout_in,
                                     const uint32_t *conn, const double *coords,
                                     const double *coeffs, const size_t elem[FEINT_B],
                                     double *geo, double *coef) {
  for (int l = 0; l < FEINT_B; l++)
    feint_gather_element(et, pb, layout_in, conn, coords, coeffs, elem[l], geo + l, coef + l,
                         FEINT_B);
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

/* Software prefetch for a host loop over elements [0, n) of conn, a block
 * of FEINT_B at a time, called at the block of element i0.  The hardware
 * prefetchers follow the element-ordered streams but not what they index:
 * in a mesh whose vertices are not numbered along lines (a Hilbert-
 * renumbered or a generated one) each element's per-vertex data are misses
 * taken one after another (kernel/driver_mesh.h has the measured effect).
 * So: the streams FEINT_PREFETCH_AHEAD blocks ahead (conn, and `data`, an
 * array of dsize doubles per element in either layout, e.g. the
 * coefficients; NULL: none), and for each vertex v of the block 2 ahead
 * (whose conn is in cache by then) the line at a + a_stride v and, when b
 * is not NULL, the one at b + b_stride v (strides in bytes: a vertex's
 * coordinates, its CSR row offsets, its entries of a vector).  Blocks past
 * n are not asked for. */
FEINT_INLINE void feint_prefetch_mesh_block(const uint32_t *conn, const int ns, const size_t n,
                                            const size_t i0, const double *data, const int dsize,
                                            const void *a, const size_t a_stride, const void *b,
                                            const size_t b_stride) {
  const size_t B = FEINT_B, far = i0 + FEINT_PREFETCH_AHEAD * B, mid = i0 + 2 * B;
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
