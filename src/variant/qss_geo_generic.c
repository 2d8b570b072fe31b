/*
 * qss_geo_generic.c - Algorithm 2 of seed 000: loop order Q-S-S, Jacobian
 * terms at every quadrature point (valid for every element).
 *
 * Per element: for each quadrature point, compute J, its inverse and
 * vol = det J * w_q, the value and global derivatives of all shape
 * functions, then update every entry of A^e and b^e.  A^e and b^e stay in
 * registers (or L1) for the whole element; the geometry is read once.
 * Mapping: see kernel/driver.h (threads over blocks, SIMD lanes over the
 * elements of a block).  Should win where Jacobian terms vary over the
 * element (prisms): no work is repeated.  Needs N_S*N_S + N_S accumulators
 * per lane, the most register pressure of the three loop orders.
 */
#include "kernel/geometry.h"
#include "kernel/physics.h"

FEINT_INLINE void qss_geo_generic_element(const int et, const int pb, const double *geo,
                                          const double *coef_in, const int in_stride, double *A,
                                          double *b, const int out_stride) {
  const int ns = feint_elem_nodes(et), nq = feint_elem_qpts(et);
  double x[FEINT_MAX_NODES][3];
  feint_coefs coef;
  const int nc = feint_problem_comps(pb), nd = nc * ns; /* components, dofs */
  double Ae[FEINT_MAX_DOFS][FEINT_MAX_DOFS] = {{0}}, be[FEINT_MAX_DOFS] = {0};
  feint_load_nodes(et, geo, in_stride, x);
  feint_load_coeffs(et, pb, coef_in, in_stride, &coef);
  FEINT_UNROLL
  for (int q = 0; q < nq; q++) {
    double J[3][3], Jinv[3][3], psi[FEINT_MAX_NODES][4];
    feint_jacobian(et, q, x, J);
    const double vol = feint_invert3(J, Jinv) * feint_elem_qwt(et, q);
    FEINT_UNROLL
    for (int n = 0; n < ns; n++) feint_shape_psi(et, q, n, Jinv, psi[n]);
    FEINT_UNROLL
    for (int r = 0; r < ns; r++) {
      FEINT_UNROLL
      for (int s = 0; s < ns; s++)
        feint_update_block(pb, q, &coef, vol, psi[r], psi[s], &Ae[nc * r][nc * s], FEINT_MAX_DOFS,
                           ns > 4); /* fused: not on tet4 (physics.h) */
      feint_update_load(pb, q, &coef, vol, psi[r], &be[nc * r]);
    }
  }
  FEINT_UNROLL
  for (int i = 0; i < nd; i++) {
    FEINT_UNROLL
    for (int j = 0; j < nd; j++) A[(i * nd + j) * out_stride] = Ae[i][j];
    b[i * out_stride] = be[i];
  }
}

#define FEINT_VARIANT_NAME qss_geo_generic
#define FEINT_ELEMENT_FN qss_geo_generic_element
#include "kernel/driver.h"
