/*
 * ssq_geo_linear.c - Algorithm 7 of seed 000: loop order S-S-Q, Jacobian
 * terms once per element (affine elements only).
 *
 * Per element: J, its inverse and det J once; the values and global
 * derivatives of all shape functions at all quadrature points into
 * psi[q][n]; then for each entry (r, s) a sweep over the quadrature points
 * accumulates A^e[r][s] (and b^e[r] when r == s), stored at once.
 * Mapping: kernel/driver.h.
 */
#include "kernel/geometry.h"
#include "kernel/physics.h"

FEINT_INLINE void ssq_geo_linear_element(const int et, const int pb, const double *geo,
                                         const double *coef_in, const int in_stride, double *A,
                                         double *b, const int out_stride) {
  const int ns = feint_elem_nodes(et), nq = feint_elem_qpts(et);
  const int nc = feint_problem_comps(pb), nd = nc * ns; /* components, dofs */
  /* elasticity's block form (physics.h): the S form where lambda, mu are per
   * element, else hoisted on prisms and hexahedra and fused on tet4 */
  const int form = pb == FEINT_ELASTICITY ? 3 : ns > 4 ? 2 : 1;
  double x[FEINT_MAX_NODES][3], J[3][3], Jinv[3][3];
  feint_coefs coef;
  double psi[FEINT_MAX_QPTS][FEINT_MAX_NODES][4];
  feint_load_nodes(et, geo, in_stride, x);
  feint_load_coeffs(et, pb, coef_in, in_stride, &coef);
  feint_jacobian(et, 0, x, J);
  const double det = feint_invert3(J, Jinv);
  FEINT_UNROLL
  for (int q = 0; q < nq; q++)
    FEINT_UNROLL
    for (int n = 0; n < ns; n++) feint_shape_psi(et, q, n, Jinv, psi[q][n]);
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
        const double vol = det * feint_elem_qwt(et, q);
        feint_update_block(pb, q, &coef, vol, psi[q][r0], psi[q][s0], &a[0][0], FEINT_MAX_COMPS,
                           form);
        if (r == s) feint_update_load(pb, q, &coef, vol, psi[q][r], br);
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

#define FEINT_VARIANT_NAME ssq_geo_linear
#define FEINT_VARIANT_OWN_ELASTICITY /* the S form has its own cases */
#define FEINT_ELEMENT_FN ssq_geo_linear_element
#include "kernel/driver.h"
