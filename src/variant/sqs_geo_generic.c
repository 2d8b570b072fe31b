/*
 * sqs_geo_generic.c - Algorithm 4 of seed 000: loop order S-Q-S, Jacobian
 * terms at every quadrature point, recomputed for every row of A^e.
 *
 * Per element and row r: for each quadrature point compute J, its inverse,
 * vol and the shape functions' global derivatives, then update row r of A^e
 * and b^e[r]; the row is stored when complete.  Only one row of
 * accumulators is live, at the price of N_S-fold Jacobian work (unless the
 * compiler recognises the repetition).  Mapping: kernel/driver.h.
 */
#include "kernel/geometry.h"
#include "kernel/physics.h"

FEINT_INLINE void sqs_geo_generic_element(const int et, const int pb, const double *geo,
                                          const double *coef_in, const int in_stride, double *A,
                                          double *b, const int out_stride) {
  const int ns = feint_elem_nodes(et), nq = feint_elem_qpts(et);
  const int nc = feint_problem_comps(pb), nd = nc * ns; /* components, dofs */
  double x[FEINT_MAX_NODES][3];
  feint_coefs coef;
  feint_load_nodes(et, geo, in_stride, x);
  feint_load_coeffs(et, pb, coef_in, in_stride, &coef);
  FEINT_UNROLL
  for (int r = 0; r < ns; r++) {
    double Arow[FEINT_MAX_COMPS][FEINT_MAX_DOFS] = {{0}}, br[FEINT_MAX_COMPS] = {0};
    FEINT_UNROLL
    for (int q = 0; q < nq; q++) {
      double J[3][3], Jinv[3][3], psi[FEINT_MAX_NODES][4];
      feint_jacobian(et, q, x, J);
      const double vol = feint_invert3(J, Jinv) * feint_elem_qwt(et, q);
      FEINT_UNROLL
      for (int n = 0; n < ns; n++) feint_shape_psi(et, q, n, Jinv, psi[n]);
      FEINT_UNROLL
      for (int s = 0; s < ns; s++)
        feint_update_block(pb, q, &coef, vol, psi[r], psi[s], &Arow[0][nc * s], FEINT_MAX_DOFS, 0);
      feint_update_load(pb, q, &coef, vol, psi[r], br);
    }
    FEINT_UNROLL
    for (int i = 0; i < nc; i++) {
      FEINT_UNROLL
      for (int j = 0; j < nd; j++) A[((nc * r + i) * nd + j) * out_stride] = Arow[i][j];
      b[(nc * r + i) * out_stride] = br[i];
    }
  }
}

#define FEINT_VARIANT_NAME sqs_geo_generic
#define FEINT_ELEMENT_FN sqs_geo_generic_element
#include "kernel/driver.h"
