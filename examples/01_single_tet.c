/* 01_single_tet - the smallest use of feint: one tetrahedron, Poisson,
 * variant qss_geo_linear.  Prints the element stiffness matrix A^e and load
 * vector b^e (f = 1), the closed form (vol G G^T and vol/4, G[n] = gradient
 * of barycentric coordinate n) and the largest error.
 *
 * Build: make examples   (or, with the compiler that built the library:
 *                          clang-19 -std=c11 -Iinclude examples/01_single_tet.c
 *                          build/lib/libfeint.a -fopenmp -lm)
 * Run:   build/examples/01_single_tet [--quiet]
 *        --quiet prints nothing; exit 0 if the error is within round-off,
 *        1 otherwise.
 */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "feint.h"

/* Round-off allowance: each entry passes through ~ROUNDOFF_OPS roundings
 * (Jacobian, its inverse, products, 4 quadrature terms), each relative to
 * the entry's scale vol |G_r| |G_s|; this element is well shaped, so the
 * inverse amplifies them by at most a small factor. */
#define ROUNDOFF_OPS 100.0

int main(int argc, char **argv) {
  const int quiet = argc > 1 && strcmp(argv[1], "--quiet") == 0;
  /* vertices x_0..x_3, positively oriented (det of the edge matrix > 0) */
  const double geometry[4][3] = {{0.1, 0.0, 0.2}, {1.2, 0.3, 0.1}, {0.2, 0.9, 0.4}, {0.3, 0.2, 1.1}};
  const double coeffs[4] = {1.0, 1.0, 1.0, 1.0}; /* f at the 4 quadrature points */
  double A[4][4], b[4];
  const feint_integrate_desc desc = {FEINT_TET4, FEINT_POISSON, FEINT_QSS_GEO_LINEAR,
                                     FEINT_LAYOUT_NATURAL, FEINT_LAYOUT_NATURAL, 0, FEINT_TARGET_HOST, 0};
  const feint_status st = feint_integrate(&desc, 1, &geometry[0][0], coeffs, &A[0][0], b);
  if (st != FEINT_SUCCESS) {
    if (!quiet) fprintf(stderr, "feint_integrate: %s\n", feint_last_error());
    return 1;
  }

  /* closed form: J[a][k] = x_{k+1}[a] - x_0[a]; grad lambda_{k+1} = row k of
   * J^{-1} (by the adjugate); grad lambda_0 = -(the other three) */
  double J[3][3], G[4][3];
  for (int a = 0; a < 3; a++)
    for (int k = 0; k < 3; k++) J[a][k] = geometry[k + 1][a] - geometry[0][a];
  const double det = J[0][0] * (J[1][1] * J[2][2] - J[1][2] * J[2][1]) -
                     J[0][1] * (J[1][0] * J[2][2] - J[1][2] * J[2][0]) +
                     J[0][2] * (J[1][0] * J[2][1] - J[1][1] * J[2][0]);
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++) {
      const int i1 = (i + 1) % 3, i2 = (i + 2) % 3, j1 = (j + 1) % 3, j2 = (j + 2) % 3;
      G[j + 1][i] = (J[i1][j1] * J[i2][j2] - J[i1][j2] * J[i2][j1]) / det;
    }
  for (int a = 0; a < 3; a++) G[0][a] = -(G[1][a] + G[2][a] + G[3][a]);
  const double vol = det / 6.0;

  double max_err = 0.0, max_rel = 0.0; /* error / (round-off allowance) */
  double A_exact[4][4], b_exact[4];
  for (int r = 0; r < 4; r++) {
    const double nr = sqrt(G[r][0] * G[r][0] + G[r][1] * G[r][1] + G[r][2] * G[r][2]);
    for (int s = 0; s < 4; s++) {
      const double ns = sqrt(G[s][0] * G[s][0] + G[s][1] * G[s][1] + G[s][2] * G[s][2]);
      A_exact[r][s] = vol * (G[r][0] * G[s][0] + G[r][1] * G[s][1] + G[r][2] * G[s][2]);
      const double err = fabs(A[r][s] - A_exact[r][s]);
      max_err = fmax(max_err, err);
      const double rel = err / (ROUNDOFF_OPS * DBL_EPSILON * vol * nr * ns);
      max_rel = isnan(rel) || rel > max_rel ? rel : max_rel;
    }
    b_exact[r] = vol / 4.0;
    const double err = fabs(b[r] - b_exact[r]);
    max_err = fmax(max_err, err);
    const double rel = err / (ROUNDOFF_OPS * DBL_EPSILON * vol);
    max_rel = isnan(rel) || rel > max_rel ? rel : max_rel;
  }
  const int pass = max_rel <= 1.0; /* NaN fails */

  if (!quiet) {
    printf("feint %s: one tetrahedron, Poisson, variant qss_geo_linear, volume %.6f\n",
           FEINT_VERSION_STRING, vol);
    printf("%-31s %-26s %s\n", "computed", "closed form", "error");
    for (int r = 0; r < 4; r++) {
      for (int s = 0; s < 4; s++)
        printf("A[%d][%d] = %-21.15g %-26.15g %.2e\n", r, s, A[r][s], A_exact[r][s],
               fabs(A[r][s] - A_exact[r][s]));
    }
    for (int r = 0; r < 4; r++)
      printf("b[%d]    = %-21.15g %-26.15g %.2e\n", r, b[r], b_exact[r], fabs(b[r] - b_exact[r]));
    printf("max error %.3e = %.3f x round-off allowance (%g eps x entry scale): %s\n", max_err,
           max_rel, ROUNDOFF_OPS, pass ? "PASS" : "FAIL");
  }
  return pass ? 0 : 1;
}
