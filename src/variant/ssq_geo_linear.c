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
  double x[FEINT_MAX_NODES][3], coef[FEINT_MAX_COEFFS], J[3][3], Jinv[3][3];
  double psi[FEINT_MAX_QPTS][FEINT_MAX_NODES][4];
  feint_load_nodes(et, geo, in_stride, x);
  feint_load_coeffs(et, pb, coef_in, in_stride, coef);
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
      double a = 0.0, br = 0.0;
      FEINT_UNROLL
      for (int q = 0; q < nq; q++) {
        const double vol = det * feint_elem_qwt(et, q);
        a += vol * feint_update_A(pb, coef, psi[q][r], psi[q][s]);
        if (r == s) br += vol * feint_update_b(pb, q, coef, psi[q][r]);
      }
      A[(r * ns + s) * out_stride] = a;
      if (r == s) b[r * out_stride] = br;
    }
}

#define FEINT_VARIANT_NAME ssq_geo_linear
#define FEINT_ELEMENT_FN ssq_geo_linear_element
#include "kernel/driver.h"
