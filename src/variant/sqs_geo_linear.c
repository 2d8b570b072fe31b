/*
 * sqs_geo_linear.c - Algorithm 5 of seed 000: loop order S-Q-S, Jacobian
 * terms once per element (affine elements only).
 *
 * Per element: J, its inverse and det J once; the shape functions' values
 * and global derivatives at every quadrature point into psi[q][n]; then for
 * each row r, a sweep over the quadrature points updates row r of A^e and
 * b^e[r], and the row is stored when complete (times vol, where vol is
 * taken out of the sums: feint_vol_outside, physics.h).  Mapping:
 * kernel/driver.h.
 */
#include "kernel/geometry.h"
#include "kernel/physics.h"

FEINT_INLINE void sqs_geo_linear_element(const int et, const int pb, const double *geo,
                                         const double *coef_in, const int in_stride, double *A,
                                         double *b, const int out_stride) {
  const int ns = feint_elem_nodes(et), nq = feint_elem_qpts(et);
  const int nc = feint_problem_comps(pb), nd = nc * ns; /* components, dofs */
  double x[FEINT_MAX_NODES][3], J[3][3], Jinv[3][3];
  feint_coefs coef;
  double psi[FEINT_MAX_QPTS][FEINT_MAX_NODES][4];
  feint_load_nodes(et, geo, in_stride, x);
  feint_load_coeffs(et, pb, coef_in, in_stride, &coef);
  feint_jacobian(et, 0, x, J);
  const double det = feint_invert3(J, Jinv);
  /* vol after the sums where it is the same at every point (physics.h) */
  const int vo = feint_vol_outside(et, pb);
  const double v = vo ? det * feint_elem_qwt(et, 0) : 1.0; /* (x * 1.0 folds) */
  FEINT_UNROLL
  for (int q = 0; q < nq; q++)
    FEINT_UNROLL
    for (int n = 0; n < ns; n++) feint_shape_psi(et, q, n, Jinv, psi[q][n]);
  FEINT_UNROLL
  for (int r = 0; r < ns; r++) {
    double Arow[FEINT_MAX_COMPS][FEINT_MAX_DOFS] = {{0}}, br[FEINT_MAX_COMPS] = {0};
    FEINT_UNROLL
    for (int q = 0; q < nq; q++) {
      const double vol = vo ? 1.0 : det * feint_elem_qwt(et, q);
      FEINT_UNROLL
      for (int s = 0; s < ns; s++)
        feint_update_block(pb, q, &coef, vol, psi[q][r], psi[q][s], &Arow[0][nc * s], FEINT_MAX_DOFS,
                           0); /* unfused (physics.h) */
      feint_update_load(pb, q, &coef, vol, psi[q][r], br);
    }
    FEINT_UNROLL
    for (int i = 0; i < nc; i++) {
      FEINT_UNROLL
      for (int j = 0; j < nd; j++) A[((nc * r + i) * nd + j) * out_stride] = v * Arow[i][j];
      b[(nc * r + i) * out_stride] = v * br[i];
    }
  }
}

#define FEINT_VARIANT_NAME sqs_geo_linear
#define FEINT_ELEMENT_FN sqs_geo_linear_element
#include "kernel/driver.h"
