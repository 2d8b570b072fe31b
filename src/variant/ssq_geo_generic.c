/*
 * ssq_geo_generic.c - Algorithm 6 of seed 000: loop order S-S-Q, Jacobian
 * terms at every quadrature point, recomputed for every entry of A^e.
 *
 * Per element and entry (r, s): a sweep over the quadrature points computes
 * J, its inverse, vol and the global derivatives of shape functions r and s,
 * and accumulates A^e[r][s] (and b^e[r] when r == s); the entry is stored
 * at once.  The smallest working set (one accumulator), the most repeated
 * work (N_S^2-fold Jacobian terms) unless the compiler removes it.
 * Mapping: kernel/driver.h.
 */
#include "kernel/geometry.h"
#include "kernel/physics.h"

FEINT_INLINE void ssq_geo_generic_element(const int et, const int pb, const double *geo,
                                          const double *coef_in, const int in_stride, double *A,
                                          double *b, const int out_stride) {
  const int ns = feint_elem_nodes(et), nq = feint_elem_qpts(et);
  const int nc = feint_problem_comps(pb), nd = nc * ns; /* components, dofs */
  /* elasticity's block form (physics.h): the S form where lambda, mu are per
   * element, else hoisted on prisms and hexahedra and fused on tet4 */
  const int form = pb == FEINT_ELASTICITY ? 3 : ns > 4 ? 2 : 1;
  double x[FEINT_MAX_NODES][3];
  feint_coefs coef;
  feint_load_nodes(et, geo, in_stride, x);
  feint_load_coeffs(et, pb, coef_in, in_stride, &coef);
  FEINT_UNROLL
  for (int r = 0; r < ns; r++)
    FEINT_UNROLL
    for (int s = 0; s < ns; s++) {
      /* symmetric problems: below the diagonal, block (s, r)'s expressions,
       * stored transposed, so that the compiler merges the two blocks */
      const int t = feint_problem_symmetric(pb) && r > s, r0 = t ? s : r, s0 = t ? r : s;
      double a[FEINT_MAX_COMPS][FEINT_MAX_COMPS] = {{0}}, br[FEINT_MAX_COMPS] = {0};
      FEINT_UNROLL
      for (int q = 0; q < nq; q++) {
        double J[3][3], Jinv[3][3], psi_r[4], psi_s[4];
        feint_jacobian(et, q, x, J);
        const double vol = feint_invert3(J, Jinv) * feint_elem_qwt(et, q);
        feint_shape_psi(et, q, r0, Jinv, psi_r);
        feint_shape_psi(et, q, s0, Jinv, psi_s);
        feint_update_block(pb, q, &coef, vol, psi_r, psi_s, &a[0][0], FEINT_MAX_COMPS, form);
        if (r == s) feint_update_load(pb, q, &coef, vol, psi_r, br);
      }
      feint_finish_block(pb, &coef, &a[0][0], FEINT_MAX_COMPS, form);
      FEINT_UNROLL
      for (int i = 0; i < nc; i++) {
        FEINT_UNROLL
        for (int j = 0; j < nc; j++)
          A[((nc * r + i) * nd + nc * s + j) * out_stride] = t ? a[j][i] : a[i][j];
        if (r == s) b[(nc * r + i) * out_stride] = br[i];
      }
    }
}

#define FEINT_VARIANT_NAME ssq_geo_generic
#define FEINT_VARIANT_OWN_ELASTICITY /* the S form has its own cases */
#define FEINT_ELEMENT_FN ssq_geo_generic_element
#include "kernel/driver.h"
