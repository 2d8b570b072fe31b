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
  double x[FEINT_MAX_NODES][3], coef[FEINT_MAX_COEFFS];
  feint_load_nodes(et, geo, in_stride, x);
  feint_load_coeffs(et, pb, coef_in, in_stride, coef);
  FEINT_UNROLL
  for (int r = 0; r < ns; r++)
    FEINT_UNROLL
    for (int s = 0; s < ns; s++) {
      double a = 0.0, br = 0.0;
      FEINT_UNROLL
      for (int q = 0; q < nq; q++) {
        double J[3][3], Jinv[3][3], psi_r[4], psi_s[4];
        feint_jacobian(et, q, x, J);
        const double vol = feint_invert3(J, Jinv) * feint_elem_qwt(et, q);
        feint_shape_psi(et, q, r, Jinv, psi_r);
        feint_shape_psi(et, q, s, Jinv, psi_s);
        a += vol * feint_update_A(pb, coef, psi_r, psi_s);
        if (r == s) br += vol * feint_update_b(pb, q, coef, psi_r);
      }
      A[(r * ns + s) * out_stride] = a;
      if (r == s) b[r * out_stride] = br;
    }
}

#define FEINT_VARIANT_NAME ssq_geo_generic
#define FEINT_ELEMENT_FN ssq_geo_generic_element
#include "kernel/driver.h"
