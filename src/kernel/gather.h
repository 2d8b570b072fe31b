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

FEINT_DECLARE_TARGET_END

#endif /* FEINT_KERNEL_GATHER_H */
