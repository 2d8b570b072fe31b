/*
 * ssq_geo_linear.c - Algorithm 7 of seed 000: loop order S-S-Q, Jacobian
 * terms once per element (affine elements only).
 *
 * Per element: J, its inverse and det J once; the values and global
 * derivatives of all shape functions at all quadrature points into
 * psi[q][n]; then for each entry (r, s) a sweep over the quadrature points
 * accumulates A^e[r][s] (and b^e[r] when r == s), stored at once.  The
 * two stages are two functions: the host driver runs them lane-parallel
 * one after the other, node row r by node row, and streams each finished
 * row out while the next is computed (FEINT_ROW_FN, kernel/driver.h).
 * Mapping: kernel/driver.h.
 */
#include "kernel/geometry.h"
#include "kernel/physics.h"

/* The element's terms, at P[k * ps]: det J at k = 0, then the value and
 * global derivatives of shape function n at point q at k = 1 + 4 (q N_S +
 * n) + c (c = 0: value, 1..3: d/dx_c). */
#define SSQ_GEO_LINEAR_TERMS (1 + 4 * FEINT_MAX_QPTS * FEINT_MAX_NODES)
FEINT_INLINE void ssq_geo_linear_terms(const int et, const double *geo, const int in_stride,
                                       double *P, const int ps) {
  const int ns = feint_elem_nodes(et), nq = feint_elem_qpts(et);
  double x[FEINT_MAX_NODES][3], J[3][3], Jinv[3][3];
  feint_load_nodes(et, geo, in_stride, x);
  feint_jacobian(et, 0, x, J);
  P[0] = feint_invert3(J, Jinv);
  FEINT_UNROLL
  for (int q = 0; q < nq; q++)
    FEINT_UNROLL
    for (int n = 0; n < ns; n++) {
      double psi[4];
      feint_shape_psi(et, q, n, Jinv, psi);
      FEINT_UNROLL
      for (int c = 0; c < 4; c++) P[(1 + 4 * (q * ns + n) + c) * ps] = psi[c];
    }
}

/* Node row r: the blocks (r, s) of A^e, each summed over the points and
 * stored at once, and b^e's entries of node r.  Symmetric problems
 * evaluate s >= r only and store each block twice, at (r, s) and
 * transposed at (s, r), so rows 0..r are final once rows 0..r have run. */
FEINT_INLINE void ssq_geo_linear_row(const int et, const int pb, const int r, const double *P,
                                     const int ps, const feint_coefs *coef, double *A, double *b,
                                     const int out_stride) {
  const int ns = feint_elem_nodes(et), nq = feint_elem_qpts(et);
  const int nc = feint_problem_comps(pb), nd = nc * ns; /* components, dofs */
  /* elasticity's block form (physics.h): the S form where lambda, mu are per
   * element, else hoisted on prisms and hexahedra and fused on tet4 */
  const int form = pb == FEINT_ELASTICITY ? 3 : ns > 4 ? 2 : 1;
  const int sym = feint_problem_symmetric(pb);
  const double det = P[0];
  FEINT_UNROLL
  for (int s = 0; s < ns; s++) {
    if (sym && s < r) continue; /* stored by row s */
    double a[FEINT_MAX_COMPS][FEINT_MAX_COMPS] = {{0}}, br[FEINT_MAX_COMPS] = {0};
    FEINT_UNROLL
    for (int q = 0; q < nq; q++) {
      const double vol = det * feint_elem_qwt(et, q);
      double psi_r[4], psi_s[4];
      FEINT_UNROLL
      for (int c = 0; c < 4; c++) {
        psi_r[c] = P[(1 + 4 * (q * ns + r) + c) * ps];
        psi_s[c] = P[(1 + 4 * (q * ns + s) + c) * ps];
      }
      feint_update_block(pb, q, coef, vol, psi_r, psi_s, &a[0][0], FEINT_MAX_COMPS, form);
      if (r == s) feint_update_load(pb, q, coef, vol, psi_r, br);
    }
    feint_finish_block(pb, coef, &a[0][0], FEINT_MAX_COMPS, form);
    FEINT_UNROLL
    for (int i = 0; i < nc; i++) {
      FEINT_UNROLL
      for (int j = 0; j < nc; j++) {
        A[((nc * r + i) * nd + nc * s + j) * out_stride] = a[i][j];
        if (sym && s > r) A[((nc * s + j) * nd + nc * r + i) * out_stride] = a[i][j];
      }
      if (r == s) b[(nc * r + i) * out_stride] = br[i];
    }
  }
}

FEINT_INLINE void ssq_geo_linear_element(const int et, const int pb, const double *geo,
                                         const double *coef_in, const int in_stride, double *A,
                                         double *b, const int out_stride) {
  double P[SSQ_GEO_LINEAR_TERMS];
  feint_coefs coef;
  ssq_geo_linear_terms(et, geo, in_stride, P, 1);
  feint_load_coeffs(et, pb, coef_in, in_stride, &coef);
  FEINT_UNROLL
  for (int r = 0; r < feint_elem_nodes(et); r++)
    ssq_geo_linear_row(et, pb, r, P, 1, &coef, A, b, out_stride);
}

#define FEINT_VARIANT_NAME ssq_geo_linear
#define FEINT_VARIANT_OWN_ELASTICITY /* the S form has its own cases */
#define FEINT_ELEMENT_FN ssq_geo_linear_element
#define FEINT_TERMS_FN ssq_geo_linear_terms
#define FEINT_TERMS_LEN SSQ_GEO_LINEAR_TERMS
#define FEINT_ROW_FN ssq_geo_linear_row
#include "kernel/driver.h"
