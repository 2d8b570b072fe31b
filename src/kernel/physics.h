/*
 * kernel/physics.h - the problem-specific final update (the pointwise
 * physics), the one home of what distinguishes Poisson from conv-diff.
 *
 * With psi_r = (phi_r, dphi_r/dx, dphi_r/dy, dphi_r/dz) at a quadrature point
 * (index 0 = value, 1..3 = derivatives, as c^{ij} and d^i of the paper):
 *   A^e[r][s] += vol * sum_ij c^{ij} psi_r[i] psi_s[j]
 *   b^e[r]    += vol * sum_i  d^i    psi_r[i]
 * Poisson:   c^{ij} = delta_ij for i,j >= 1 (Laplace operator), and
 *            d^0 = f(x_q) given per quadrature point, d^{1..3} = 0.
 * conv-diff: the full 4x4 c and 4 d, constant over the element.
 */
#ifndef FEINT_KERNEL_PHYSICS_H
#define FEINT_KERNEL_PHYSICS_H

#include "kernel/elem.h"

FEINT_DECLARE_TARGET_BEGIN

/* Every case (element x problem) feint compiles, as X(ELEMENT, PROBLEM) with
 * the enum names less their FEINT_ prefix; the drivers expand it into one
 * fully specialised instantiation per case. */
#define FEINT_FOR_EACH_CASE(X)                                               \
  X(TET4, POISSON) X(TET4, CONVDIFF) X(PRISM6, POISSON) X(PRISM6, CONVDIFF) \
  X(HEX8, POISSON) X(HEX8, CONVDIFF)

/* Coefficient doubles per element: Poisson one f per quadrature point,
 * conv-diff 16 c^{ij} + 4 d^i. */
#define FEINT_CONVDIFF_COEFFS 20
#define FEINT_MAX_COEFFS 20
FEINT_INLINE int feint_problem_coeffs(int et, int pb) {
  return pb == FEINT_POISSON ? feint_elem_qpts(et) : FEINT_CONVDIFF_COEFFS;
}

/* Read the coefficients of one element: coef[k] = src[k * stride]. */
FEINT_INLINE void feint_load_coeffs(int et, int pb, const double *src, int stride,
                                    double coef[FEINT_MAX_COEFFS]) {
  FEINT_UNROLL
  for (int k = 0; k < feint_problem_coeffs(et, pb); k++) coef[k] = src[k * stride];
}

/* Integrand of A^e[r][s] at one point, without vol.
 * Poisson: 3 mul + 2 add = 5 flops.  conv-diff: psi_r . (c psi_s), with
 * c psi_s 4 x (4 mul + 3 add) = 28 (the same for every r: merged by the
 * compiler) and the outer product 4 mul + 3 add = 7: 35 flops. */
FEINT_INLINE double feint_update_A(int pb, const double coef[FEINT_MAX_COEFFS],
                                   const double psi_r[4], const double psi_s[4]) {
  if (pb == FEINT_POISSON) return psi_r[1] * psi_s[1] + psi_r[2] * psi_s[2] + psi_r[3] * psi_s[3];
  double s = 0.0;
  FEINT_UNROLL
  for (int i = 0; i < 4; i++) {
    double t = 0.0;
    FEINT_UNROLL
    for (int j = 0; j < 4; j++) t += coef[4 * i + j] * psi_s[j];
    s += psi_r[i] * t;
  }
  return s;
}

/* Integrand of b^e[r] at quadrature point q, without vol.
 * Poisson: f_q phi_r, 1 flop.  conv-diff: 4 mul + 3 add = 7 flops. */
FEINT_INLINE double feint_update_b(int pb, int q, const double coef[FEINT_MAX_COEFFS],
                                   const double psi_r[4]) {
  if (pb == FEINT_POISSON) return coef[q] * psi_r[0];
  return coef[16] * psi_r[0] + coef[17] * psi_r[1] + coef[18] * psi_r[2] + coef[19] * psi_r[3];
}

FEINT_DECLARE_TARGET_END

#endif /* FEINT_KERNEL_PHYSICS_H */
