/*
 * ssq_geo_generic.c - Algorithm 6 of seed 000: loop order S-S-Q, Jacobian
 * terms at every quadrature point.
 *
 * Per element: at each quadrature point J, its inverse, vol and the global
 * derivatives of all shape functions into the terms P; then for each entry
 * (r, s) a sweep over the quadrature points accumulates A^e[r][s] (and
 * b^e[r] when r == s), stored at once (kernel/ssq_row.h, shared with
 * ssq_geo_linear).  Algorithm 6 as printed recomputes the Jacobian terms
 * for every entry; compiled fully unrolled, those recomputations were
 * merged into one per point all the same (the flop census,
 * bench/results/flop_census, counted the same flops for Poisson and
 * conv-diff before and after this split, and fewer after it where the
 * coefficients are read in place), so the terms are computed once per
 * point here, in a stage of their own.  The host driver runs the two stages lane-parallel one after
 * the other, node row r by node row, and streams each finished row out
 * while the next is computed (FEINT_ROW_FN, kernel/driver.h).
 * Mapping: kernel/driver.h.
 */
#include "kernel/ssq_row.h"

/* The element's terms (kernel/ssq_row.h): a Jacobian at every point. */
FEINT_INLINE void ssq_geo_generic_terms(const int et, const int pb, const double *geo,
                                        const double *coef, const int in_stride, double *P,
                                        const int ps) {
  (void)pb, (void)coef; /* the terms are geometry only */
  double x[FEINT_MAX_NODES][3];
  feint_load_nodes(et, geo, in_stride, x);
  FEINT_UNROLL
  for (int q = 0; q < feint_elem_qpts(et); q++) {
    double J[3][3], Jinv[3][3];
    feint_jacobian(et, q, x, J);
    P[q * ps] = feint_invert3(J, Jinv) * feint_elem_qwt(et, q);
    feint_ssq_store_psi(et, q, Jinv, P, ps);
  }
}

/* Node row r of A^e and b^e from the terms (kernel/ssq_row.h). */
FEINT_INLINE void ssq_geo_generic_row(const int et, const int pb, const int r, const double *P,
                                      const int ps, const feint_coefs *coef, double *A, double *b,
                                      const int out_stride) {
  feint_ssq_row(et, pb, 0, r, P, ps, coef, A, b, out_stride);
}

FEINT_INLINE void ssq_geo_generic_element(const int et, const int pb, const double *geo,
                                          const double *coef_in, const int in_stride, double *A,
                                          double *b, const int out_stride) {
  double P[FEINT_SSQ_TERMS_LEN];
  feint_coefs coef;
  ssq_geo_generic_terms(et, pb, geo, coef_in, in_stride, P, 1);
  feint_load_coeffs(et, pb, coef_in, in_stride, &coef);
  FEINT_UNROLL
  for (int r = 0; r < feint_elem_nodes(et); r++)
    ssq_geo_generic_row(et, pb, r, P, 1, &coef, A, b, out_stride);
}

#define FEINT_VARIANT_NAME ssq_geo_generic
#define FEINT_VARIANT_OWN_ELASTICITY /* the S form has its own cases */
#define FEINT_ELEMENT_FN ssq_geo_generic_element
#define FEINT_TERMS_FN ssq_geo_generic_terms
#define FEINT_TERMS_LEN FEINT_SSQ_TERMS_LEN
#define FEINT_ROW_FN ssq_geo_generic_row
#include "kernel/driver.h"
