/* t102_quadrature: the tet4 and prism6 quadrature rules integrate every monomial up to their degree exactly, their weights sum to the reference volume, and the check is sharp (the tet rule is not exact for x^3). */
#include "test_util.h"

/* Round-off of Q = sum_q w_q x_q^a y_q^b z_q^c: the points and weights are
 * correctly rounded constants (relative error eps/2 each), the monomial
 * takes deg - 1 multiplications, the weight one more, the sum num_qpts - 1
 * additions: |Q~ - Q| <= (deg + 1 + num_qpts) eps sum_q |w_q x^a y^b z^c|.
 * SAFETY covers the second-order terms of that first-order bound. */
#define SAFETY 2.0

static double factorial(int n) {
  double f = 1.0;
  for (int k = 2; k <= n; k++) f *= k;
  return f;
}

static double ipow(double x, int p) {
  double r = 1.0;
  for (int k = 0; k < p; k++) r *= x;
  return r;
}

/* Quadrature of x^a y^b z^c and the sum of the absolute values of its terms. */
static double rule(const feint_element_info *ei, int a, int b, int c, double *abs_sum) {
  double s = 0.0, s_abs = 0.0;
  for (int q = 0; q < ei->num_qpts; q++) {
    const double t =
        ei->qwts[q] * ipow(ei->qpts[q][0], a) * ipow(ei->qpts[q][1], b) * ipow(ei->qpts[q][2], c);
    s += t;
    s_abs += fabs(t);
  }
  *abs_sum = s_abs;
  return s;
}

/* Exact integrals over the reference elements. */
static double exact_tet(int a, int b, int c) {
  return factorial(a) * factorial(b) * factorial(c) / factorial(a + b + c + 3);
}
static double exact_prism(int a, int b, int c) {
  return factorial(a) * factorial(b) / factorial(a + b + 2) * (c % 2 == 0 ? 2.0 / (c + 1) : 0.0);
}

int main(void) {
  feint_element_info tet, prism;
  CHECK_STATUS(feint_element_get_info(FEINT_TET4, &tet), FEINT_SUCCESS, NULL);
  CHECK_STATUS(feint_element_get_info(FEINT_PRISM6, &prism), FEINT_SUCCESS, NULL);
  char what[128];

  /* weights: positive, summing to the reference volume */
  const feint_element_info *infos[2] = {&tet, &prism};
  for (int k = 0; k < 2; k++) {
    const feint_element_info *ei = infos[k];
    double sum = 0.0, sum_abs = 0.0;
    for (int q = 0; q < ei->num_qpts; q++) {
      CHECK(ei->qwts[q] > 0.0, "%s: weight %d = %g is not positive", ei->name, q, ei->qwts[q]);
      sum += ei->qwts[q];
      sum_abs += fabs(ei->qwts[q]);
    }
    snprintf(what, sizeof what, "%s sum of weights", ei->name);
    CHECK_CLOSE(sum, ei->ref_volume, ei->num_qpts + 1, sum_abs, SAFETY, what);
  }

  /* tet4: points inside, degree 2 */
  CHECK(tet.qdeg == 2, "tet4 qdeg = %d, expected 2", tet.qdeg);
  for (int q = 0; q < tet.num_qpts; q++) {
    const double *x = tet.qpts[q];
    CHECK(x[0] > 0 && x[1] > 0 && x[2] > 0 && x[0] + x[1] + x[2] < 1,
          "tet4 point %d (%g, %g, %g) not inside", q, x[0], x[1], x[2]);
  }
  for (int a = 0; a <= 2; a++)
    for (int b = 0; a + b <= 2; b++)
      for (int c = 0; a + b + c <= 2; c++) {
        double abs_sum;
        const double Q = rule(&tet, a, b, c, &abs_sum);
        snprintf(what, sizeof what, "tet4 rule x^%d y^%d z^%d", a, b, c);
        CHECK_CLOSE(Q, exact_tet(a, b, c), a + b + c + 1 + tet.num_qpts, abs_sum, SAFETY, what);
      }

  /* prism6: degree 2 in (x, y), 3 in z (2-point Gauss) */
  for (int q = 0; q < prism.num_qpts; q++) {
    const double *x = prism.qpts[q];
    CHECK(x[0] > 0 && x[1] > 0 && x[0] + x[1] < 1 && x[2] > -1 && x[2] < 1,
          "prism6 point %d (%g, %g, %g) not inside", q, x[0], x[1], x[2]);
    /* documented order: triangle point fastest, q = t + 3 m */
    CHECK(x[0] == prism.qpts[q % 3][0] && x[1] == prism.qpts[q % 3][1] &&
              x[2] == prism.qpts[3 * (q / 3)][2],
          "prism6 point %d is not triangle point %d x Gauss point %d", q, q % 3, q / 3);
  }
  for (int a = 0; a <= 2; a++)
    for (int b = 0; a + b <= 2; b++)
      for (int c = 0; c <= 3; c++) {
        double abs_sum;
        const double Q = rule(&prism, a, b, c, &abs_sum);
        snprintf(what, sizeof what, "prism6 rule x^%d y^%d z^%d", a, b, c);
        CHECK_CLOSE(Q, exact_prism(a, b, c), a + b + c + 1 + prism.num_qpts, abs_sum, SAFETY,
                    what);
      }

  /* The check is sharp: beyond the rules' degrees the difference is far
   * above the round-off tolerance (the factor 1e6 keeps "not exact" from
   * passing on a near miss). */
  const struct {
    const feint_element_info *ei;
    int a, b, c;
  } beyond[] = {{&tet, 3, 0, 0}, {&tet, 0, 2, 1}, {&prism, 3, 0, 0}, {&prism, 0, 0, 4}};
  for (size_t k = 0; k < sizeof beyond / sizeof beyond[0]; k++) {
    const feint_element_info *ei = beyond[k].ei;
    const int a = beyond[k].a, b = beyond[k].b, c = beyond[k].c;
    double abs_sum;
    const double Q = rule(ei, a, b, c, &abs_sum);
    const double exact = ei == &tet ? exact_tet(a, b, c) : exact_prism(a, b, c);
    const double tol = SAFETY * (a + b + c + 1 + ei->num_qpts) * DBL_EPSILON * abs_sum;
    CHECK(fabs(Q - exact) > 1e6 * tol,
          "%s rule x^%d y^%d z^%d: difference %.3g not far above round-off %.3g (expected inexact)",
          ei->name, a, b, c, fabs(Q - exact), tol);
  }
  return test_finish("t102_quadrature");
}
