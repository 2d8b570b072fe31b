/*
 * qss_geo_linear.c - Algorithm 3 of seed 000: loop order Q-S-S, Jacobian
 * terms once per element (affine elements only: tetrahedra, and prisms whose
 * top face is a translate of the bottom; feint_integrate refuses others).
 *
 * Per element: J (taken at the first quadrature point: constant for an
 * affine map), its inverse and det J once; then for each quadrature point
 * vol = det J * w_q, the shape functions' values and global derivatives
 * (for P1 tetrahedra identical at every point, which the compiler hoists),
 * and the update of every entry of A^e and b^e.  Where vol is the same at
 * every point (equal weights) and the problem allows, the sums run without
 * it and each entry is multiplied by vol once at the end
 * (feint_vol_outside, physics.h).
 * Mapping: kernel/driver.h.  The cheapest variant for affine elements; the
 * same register pressure as qss_geo_generic.
 */
#include "kernel/geometry.h"
#include "kernel/physics.h"

FEINT_INLINE void qss_geo_linear_element(const int et, const int pb, const double *geo,
                                         const double *coef_in, const int in_stride, double *A,
                                         double *b, const int out_stride) {
  const int ns = feint_elem_nodes(et), nq = feint_elem_qpts(et);
  double x[FEINT_MAX_NODES][3], J[3][3], Jinv[3][3];
  feint_coefs coef;
  const int nc = feint_problem_comps(pb), nd = nc * ns; /* components, dofs */
  double Ae[FEINT_MAX_DOFS][FEINT_MAX_DOFS] = {{0}}, be[FEINT_MAX_DOFS] = {0};
  feint_load_nodes(et, geo, in_stride, x);
  feint_load_coeffs(et, pb, coef_in, in_stride, &coef);
  feint_jacobian(et, 0, x, J);
  const double det = feint_invert3(J, Jinv);
  /* vol after the sums where it is the same at every point (physics.h) */
  const int vo = feint_vol_outside(et, pb);
  FEINT_UNROLL
  for (int q = 0; q < nq; q++) {
    double psi[FEINT_MAX_NODES][4];
    const double vol = vo ? 1.0 : det * feint_elem_qwt(et, q);
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
  const double v = vo ? det * feint_elem_qwt(et, 0) : 1.0; /* (x * 1.0 folds) */
  FEINT_UNROLL
  for (int i = 0; i < nd; i++) {
    FEINT_UNROLL
    for (int j = 0; j < nd; j++) A[(i * nd + j) * out_stride] = v * Ae[i][j];
    b[i * out_stride] = v * be[i];
  }
}

#define FEINT_VARIANT_NAME qss_geo_linear
#define FEINT_ELEMENT_FN qss_geo_linear_element
#include "kernel/driver.h"
