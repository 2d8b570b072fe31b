/*
 * kernel/geometry.h - Jacobian terms and global shape-function derivatives.
 *
 * The one home of the element map x(xi) = sum_n x_n phi_n(xi): its Jacobian
 * J[a][b] = dx_a/dxi_b at a quadrature point, the inverse dxi/dx with the
 * determinant, and the global derivatives of the shape functions.  Shared by
 * every variant; the serial reference in reference.c deliberately does not
 * use it (it is the independent judge).
 */
#ifndef FEINT_KERNEL_GEOMETRY_H
#define FEINT_KERNEL_GEOMETRY_H

#include "kernel/elem.h"

FEINT_DECLARE_TARGET_BEGIN

/* Read the node coordinates of one element: x[n][a] = geo[(3n + a) * stride]
 * (stride 1: natural layout; FEINT_BLOCK_LEN: one lane of a block). */
FEINT_INLINE void feint_load_nodes(int et, const double *geo, int stride,
                                   double x[FEINT_MAX_NODES][3]) {
  FEINT_UNROLL
  for (int n = 0; n < feint_elem_nodes(et); n++)
    FEINT_UNROLL
    for (int a = 0; a < 3; a++) x[n][a] = geo[(3 * n + a) * stride];
}

/* x * d for a table entry d that is a compile-time constant, written so
 * that it folds: a zero entry contributes -0.0 (s + -0.0 == s exactly, for
 * every s, so the addition vanishes; the compiler may not drop x * 0.0 on
 * its own, x could be inf or NaN) and +-1 entries need no multiplication.
 * Selects, not branches: the code stays straight-line until the table
 * loads fold (branches here made the prism SQS/SSQ compiles take minutes). */
FEINT_INLINE double feint_times_table(double x, double d) {
  /* operands are plain variables, so each ?: is a select, not a branch */
  const double prod = x * d, neg = -x, zero = -0.0;
  double t = d == -1.0 ? neg : prod;
  t = d == 1.0 ? x : t;
  return d == 0.0 ? zero : t;
}

/* J[a][b] = sum_n x[n][a] dphi_n/dxi_b at quadrature point q, over the
 * nonzero table entries only (tet: 2 per column, x_{b+1} - x_0). */
FEINT_INLINE void feint_jacobian(int et, int q, const double x[FEINT_MAX_NODES][3],
                                 double J[3][3]) {
  FEINT_UNROLL
  for (int a = 0; a < 3; a++)
    FEINT_UNROLL
    for (int b = 0; b < 3; b++) {
      double s = -0.0;
      FEINT_UNROLL
      for (int n = 0; n < feint_elem_nodes(et); n++) {
        const double d = feint_elem_dphi(et, q, n, b);
        s += feint_times_table(x[n][a], d);
      }
      J[a][b] = s;
    }
}

/* Inverse Jacobian by cofactors: Jinv[b][a] = dxi_b/dx_a.  Returns det J.
 * 9 cofactors (2 mul + 1 sub each) + det (3 mul + 2 add) + 1 division
 * + 9 scalings = 42 flops. */
FEINT_INLINE double feint_invert3(const double J[3][3], double Jinv[3][3]) {
  const double c00 = J[1][1] * J[2][2] - J[1][2] * J[2][1];
  const double c01 = J[1][2] * J[2][0] - J[1][0] * J[2][2];
  const double c02 = J[1][0] * J[2][1] - J[1][1] * J[2][0];
  const double c10 = J[0][2] * J[2][1] - J[0][1] * J[2][2];
  const double c11 = J[0][0] * J[2][2] - J[0][2] * J[2][0];
  const double c12 = J[0][1] * J[2][0] - J[0][0] * J[2][1];
  const double c20 = J[0][1] * J[1][2] - J[0][2] * J[1][1];
  const double c21 = J[0][2] * J[1][0] - J[0][0] * J[1][2];
  const double c22 = J[0][0] * J[1][1] - J[0][1] * J[1][0];
  const double det = J[0][0] * c00 + J[0][1] * c01 + J[0][2] * c02;
  const double inv = 1.0 / det;
  Jinv[0][0] = c00 * inv; Jinv[0][1] = c10 * inv; Jinv[0][2] = c20 * inv;
  Jinv[1][0] = c01 * inv; Jinv[1][1] = c11 * inv; Jinv[1][2] = c21 * inv;
  Jinv[2][0] = c02 * inv; Jinv[2][1] = c12 * inv; Jinv[2][2] = c22 * inv;
  return det;
}

/* Value and global derivatives of shape function n at quadrature point q:
 * psi[0] = phi_n, psi[1+a] = dphi_n/dx_a = sum_b dphi_n/dxi_b dxi_b/dx_a,
 * over the nonzero table entries (tet: psi = a row of J^-1, or minus the
 * sum of the three rows). */
FEINT_INLINE void feint_shape_psi(int et, int q, int n, const double Jinv[3][3], double psi[4]) {
  psi[0] = feint_elem_phi(et, q, n);
  FEINT_UNROLL
  for (int a = 0; a < 3; a++) {
    double s = -0.0;
    FEINT_UNROLL
    for (int b = 0; b < 3; b++) {
      const double d = feint_elem_dphi(et, q, n, b);
      s += feint_times_table(Jinv[b][a], d);
    }
    psi[1 + a] = s;
  }
}

/* det J at quadrature point q (for the validation pass). */
FEINT_INLINE double feint_jacobian_det(int et, int q, const double x[FEINT_MAX_NODES][3]) {
  double J[3][3];
  feint_jacobian(et, q, x, J);
  return J[0][0] * (J[1][1] * J[2][2] - J[1][2] * J[2][1]) +
         J[0][1] * (J[1][2] * J[2][0] - J[1][0] * J[2][2]) +
         J[0][2] * (J[1][0] * J[2][1] - J[1][1] * J[2][0]);
}

FEINT_DECLARE_TARGET_END

#endif /* FEINT_KERNEL_GEOMETRY_H */
