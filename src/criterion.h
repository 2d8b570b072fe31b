/*
 * criterion.h - the one home of what the validation pass accepts: the
 * degeneracy criterion, and the safe range of scales and coefficients
 * inside which the kernels' arithmetic cannot overflow or underflow into
 * inf/NaN.  Used by validate.c (the vectorised pass) and rescale.c (the
 * slow path for elements outside the safe range).  Host code only.
 *
 * Degeneracy (scale-invariant).  At every quadrature point, with m the
 * largest |J_ab| (an edge length of the element, up to a factor 2), an
 * element is accepted if
 *     det J >= FEINT_SHAPE_TAU * m^3,        FEINT_SHAPE_TAU = 2^-40.
 * det J / m^3 does not change when the element is scaled, translated or
 * rotated by a permutation; it is at most 3^1.5 (Hadamard) and about 1 for
 * well-shaped elements.  Why 2^-40: det J is a sum of six products of three
 * entries of J; its rounding error is below 18 eps m^3 = 2^-47.8 m^3, so an
 * accepted det J is at least 2^7.8 ~ 220 times its own error (its sign is
 * certain and it is good to ~0.5 %); the entries of J^-1 (cofactor / det)
 * then carry a relative error of at most ~4 eps / tau = 2^-10.  Flat
 * elements (coplanar nodes, a node a rounding error off the plane), inverted
 * ones, and aspect ratios beyond ~10^12 are refused; NaN fails the test.
 *
 * Safe range.  For an accepted element with FEINT_SAFE_SCALE_LO <= m <=
 * FEINT_SAFE_SCALE_HI (2^-200 .. 2^200) at every point and coefficients of
 * magnitude at most FEINT_SAFE_COEFF (2^400), every intermediate of the
 * kernels is finite and normal: det J lies in [2^-640, 2^603], the entries
 * of J^-1 and the global derivatives are at most 2^43 / m <= 2^243, and an
 * entry of A^e or b^e is at most N_Q * 20 terms of |c| vol |psi_i psi_j|
 * <= 2^400 * 2^603 * 2^7 < 2^1023.  Elements outside it (any size a double
 * can describe, coefficients up to DBL_MAX) take the exact power-of-two
 * rescaling of rescale.c.
 */
#ifndef FEINT_CRITERION_H
#define FEINT_CRITERION_H

#include <math.h>

#include "kernel/geometry.h"

#define FEINT_SHAPE_TAU 0x1p-40
#define FEINT_SAFE_SCALE_LO 0x1p-200
#define FEINT_SAFE_SCALE_HI 0x1p+200
#define FEINT_SAFE_COEFF 0x1p+400
#define FEINT_SAFE_COEFF_EXP 400 /* log2 of FEINT_SAFE_COEFF: rescale.c shifts scaled coefficients to it */

enum {
  FEINT_SHAPE_OK = 0,         /* accepted, inside the safe range */
  FEINT_SHAPE_DEGENERATE = 1, /* refused */
  FEINT_SHAPE_RESCALE = 2     /* outside the safe range (or not finite): rescale.c decides */
};

/* Classify one element (nodes x) by the criterion above.  Branch-free on
 * the hot path: et is a literal at every call, so the points unroll (for
 * tetrahedra they coincide and merge) and the caller's element loop
 * vectorises. */
FEINT_INLINE int feint_shape_class(const int et, const double x[FEINT_MAX_NODES][3]) {
  int in_range = 1, good = 1;
  FEINT_UNROLL
  for (int q = 0; q < feint_elem_qpts(et); q++) {
    double J[3][3];
    feint_jacobian(et, q, x, J);
    double m = 0.0;
    FEINT_UNROLL
    for (int a = 0; a < 3; a++)
      FEINT_UNROLL
      for (int b = 0; b < 3; b++) {
        const double v = fabs(J[a][b]);
        m = v > m ? v : m; /* a NaN entry is skipped here and caught by det */
      }
    const double det = J[0][0] * (J[1][1] * J[2][2] - J[1][2] * J[2][1]) +
                       J[0][1] * (J[1][2] * J[2][0] - J[1][0] * J[2][2]) +
                       J[0][2] * (J[1][0] * J[2][1] - J[1][1] * J[2][0]);
    in_range &= m >= FEINT_SAFE_SCALE_LO && m <= FEINT_SAFE_SCALE_HI;
    good &= det >= FEINT_SHAPE_TAU * (m * m * m); /* NaN fails */
  }
  return !in_range ? FEINT_SHAPE_RESCALE : good ? FEINT_SHAPE_OK : FEINT_SHAPE_DEGENERATE;
}

/* 1 if every coefficient of one element (n values, coef[k * stride]) is at
 * most FEINT_SAFE_COEFF in magnitude (NaN fails). */
FEINT_INLINE int feint_coeffs_in_range(const double *coef, int n, int stride) {
  int ok = 1;
  for (int k = 0; k < n; k++) ok &= fabs(coef[k * stride]) <= FEINT_SAFE_COEFF;
  return ok;
}

#endif /* FEINT_CRITERION_H */
