/* t101_reference_elements: shape functions of tet4, prism6 and hex8 — documented nodes, partition of unity, zero-sum gradients, Kronecker property, tables = feint_element_eval, gradients = central differences. */
#include "test_util.h"

/* Round-off model of one shape-function value.  tet4: phi = 1 - x - y - z
 * (3 additions) or a coordinate; prism6: phi = L(x, y) * 0.5 * (1 -+ z)
 * (2 additions in L, 1 in H, 2 multiplications, the 0.5 exact): at most
 * PHI_OPS = 5 roundings, each relative to the magnitude of the factors, so
 * |phi~ - phi| <= PHI_OPS eps phi_scale(xi) with
 *   tet4:   phi_scale = 1 + |x| + |y| + |z|
 *   prism6: phi_scale = (1 + |x| + |y|) (1 + |z|)  (>= |L| 2|H|, the sizes of
 *           the intermediate results).
 *   hex8:   phi = F(x) F(y) F(z), F(t) = 0.5 (1 +- t) (1 addition, the
 *           sign and the 0.5 exact), 2 multiplications: 5 roundings,
 *           phi_scale = (1 + |x|)(1 + |y|)(1 + |z|). */
#define PHI_OPS 5.0
/* Safety factor on the first-order bounds above (they are worst cases; the
 * factor covers the second-order terms, not sloppiness). */
#define SAFETY 2.0

static double phi_scale(feint_element el, const double xi[3]) {
  if (el == FEINT_TET4) return 1.0 + fabs(xi[0]) + fabs(xi[1]) + fabs(xi[2]);
  if (el == FEINT_HEX8) return (1.0 + fabs(xi[0])) * (1.0 + fabs(xi[1])) * (1.0 + fabs(xi[2]));
  return (1.0 + fabs(xi[0]) + fabs(xi[1])) * (1.0 + fabs(xi[2]));
}

/* The reference nodes documented in feint.h, in node order. */
static const double tet_nodes[4][3] = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
static const double prism_nodes[6][3] = {{0, 0, -1}, {1, 0, -1}, {0, 1, -1},
                                         {0, 0, 1},  {1, 0, 1},  {0, 1, 1}};
/* Gmsh/VTK order: bottom face counter-clockwise, top face above it */
static const double hex_nodes[8][3] = {{-1, -1, -1}, {1, -1, -1}, {1, 1, -1}, {-1, 1, -1},
                                       {-1, -1, 1},  {1, -1, 1},  {1, 1, 1},  {-1, 1, 1}};

static void check_info(feint_element el, const feint_element_info *ei) {
  const int expect_nodes = el == FEINT_TET4 ? 4 : el == FEINT_PRISM6 ? 6 : 8;
  const double expect_volume = el == FEINT_TET4 ? 1.0 / 6.0 : el == FEINT_PRISM6 ? 1.0 : 8.0;
  CHECK(ei->num_nodes == expect_nodes && ei->num_qpts >= 1 && ei->num_qpts <= FEINT_MAX_QPTS &&
            ei->num_nodes <= FEINT_MAX_NODES,
        "%s: num_nodes %d num_qpts %d", ei->name, ei->num_nodes, ei->num_qpts);
  CHECK(strcmp(ei->name, feint_element_name(el)) == 0, "%s: name != feint_element_name (%s)",
        ei->name, feint_element_name(el));
  CHECK(ei->ref_volume == expect_volume, "%s: ref_volume %.17g, expected %.17g", ei->name,
        ei->ref_volume, expect_volume);
  CHECK(ei->qdeg >= 2, "%s: qdeg %d < 2 (a P1 mass matrix needs degree 2)", ei->name, ei->qdeg);
  const double(*doc)[3] = el == FEINT_TET4 ? tet_nodes : el == FEINT_PRISM6 ? prism_nodes : hex_nodes;
  for (int n = 0; n < ei->num_nodes; n++)
    for (int a = 0; a < 3; a++)
      CHECK(ei->nodes[n][a] == doc[n][a], "%s: node %d coordinate %d = %g, documented %g",
            ei->name, n, a, ei->nodes[n][a], doc[n][a]);
}

/* Partition of unity and zero-sum gradients at xi. */
static void check_sums(feint_element el, int ns, const double xi[3], const char *where) {
  double phi[FEINT_MAX_NODES], dphi[FEINT_MAX_NODES][3];
  CHECK_STATUS(feint_element_eval(el, xi, phi, dphi), FEINT_SUCCESS, NULL);
  double sum = 0.0, sum_abs = 0.0;
  for (int n = 0; n < ns; n++) sum += phi[n], sum_abs += fabs(phi[n]);
  /* each phi off by PHI_OPS eps phi_scale, then ns - 1 additions of
   * terms bounded by sum_abs */
  char what[160];
  snprintf(what, sizeof what, "%s sum phi at %s (%.3f, %.3f, %.3f)", feint_element_name(el),
           where, xi[0], xi[1], xi[2]);
  CHECK_CLOSE(sum, 1.0, ns * PHI_OPS + ns, phi_scale(el, xi) + sum_abs, SAFETY, what);
  for (int a = 0; a < 3; a++) {
    /* gradient entries: a constant, or L or H (<= 2 roundings, scale
     * phi_scale); then ns - 1 additions */
    double g = 0.0, g_abs = 0.0;
    for (int n = 0; n < ns; n++) g += dphi[n][a], g_abs += fabs(dphi[n][a]);
    snprintf(what, sizeof what, "%s sum dphi/dxi_%d at %s (%.3f, %.3f, %.3f)",
             feint_element_name(el), a, where, xi[0], xi[1], xi[2]);
    CHECK_CLOSE(g, 0.0, ns * PHI_OPS + ns, phi_scale(el, xi) + g_abs, SAFETY, what);
  }
}

/* phi_n(node_m) = delta_nm.  The node coordinates are 0, +-1, so every
 * operation of the evaluation is exact: the check is exact equality. */
static void check_kronecker(feint_element el, const feint_element_info *ei) {
  for (int m = 0; m < ei->num_nodes; m++) {
    double phi[FEINT_MAX_NODES];
    CHECK_STATUS(feint_element_eval(el, ei->nodes[m], phi, NULL), FEINT_SUCCESS, NULL);
    for (int n = 0; n < ei->num_nodes; n++)
      CHECK(phi[n] == (n == m ? 1.0 : 0.0), "%s: phi_%d(node %d) = %.17g, expected %d", ei->name,
            n, m, phi[n], n == m);
  }
}

/* The tables at the quadrature points equal feint_element_eval there: same
 * formulas, so they differ at most by the rounding of each (constant
 * folding may evaluate in another order): PHI_OPS eps phi_scale each. */
static void check_tables(feint_element el, const feint_element_info *ei) {
  for (int q = 0; q < ei->num_qpts; q++) {
    double phi[FEINT_MAX_NODES], dphi[FEINT_MAX_NODES][3];
    CHECK_STATUS(feint_element_eval(el, ei->qpts[q], phi, dphi), FEINT_SUCCESS, NULL);
    const double scale = phi_scale(el, ei->qpts[q]);
    for (int n = 0; n < ei->num_nodes; n++) {
      char what[96];
      snprintf(what, sizeof what, "%s table phi[%d][%d] vs eval", ei->name, q, n);
      CHECK_CLOSE(ei->phi[q][n], phi[n], 2 * PHI_OPS, scale, SAFETY, what);
      for (int a = 0; a < 3; a++) {
        snprintf(what, sizeof what, "%s table dphi[%d][%d][%d] vs eval", ei->name, q, n, a);
        CHECK_CLOSE(ei->dphi[q][n][a], dphi[n][a], 2 * PHI_OPS, scale, SAFETY, what);
      }
    }
  }
}

/* Central differences.  Every shape function of every element is affine in
 * each coordinate separately (tet4: linear; prism6: L(x,y) H(z) with L
 * linear in x and y, H linear in z; hex8: trilinear), so the truncation error of
 * (phi(xi + h e_a) - phi(xi - h e_a)) / (2h), which is h^2/6 times the third
 * derivative, is exactly zero.  Only round-off remains: with h a power of
 * two and xi on the grid of multiples of h, xi +- h e_a is exact, the two
 * values carry PHI_OPS eps phi_scale each, and the quotient is exact up to
 * one rounding, so |fd - dphi| <= (2 PHI_OPS eps phi_scale) / (2h) + eps |fd|.
 * A wrong gradient (sign, factor 1/2 of H, swapped nodes) is off by O(1). */
#define FD_STEP 0x1p-6
static void check_fd(feint_element el, int ns, const double xi[3], const char *where) {
  double phi[FEINT_MAX_NODES], dphi[FEINT_MAX_NODES][3];
  CHECK_STATUS(feint_element_eval(el, xi, phi, dphi), FEINT_SUCCESS, NULL);
  for (int a = 0; a < 3; a++) {
    double xp[3] = {xi[0], xi[1], xi[2]}, xm[3] = {xi[0], xi[1], xi[2]};
    xp[a] += FD_STEP;
    xm[a] -= FD_STEP;
    double pp[FEINT_MAX_NODES], pm[FEINT_MAX_NODES];
    feint_element_eval(el, xp, pp, NULL);
    feint_element_eval(el, xm, pm, NULL);
    const double scale = fmax(phi_scale(el, xp), phi_scale(el, xm)) / FD_STEP;
    for (int n = 0; n < ns; n++) {
      const double fd = (pp[n] - pm[n]) / (2.0 * FD_STEP);
      char what[128];
      snprintf(what, sizeof what, "%s d phi_%d/d xi_%d at %s (%.4f, %.4f, %.4f) vs central diff",
               feint_element_name(el), n, a, where, xi[0], xi[1], xi[2]);
      CHECK_CLOSE(dphi[n][a], fd, PHI_OPS + 1, scale + fabs(fd), SAFETY, what);
    }
  }
}

/* A random point inside the reference element (or around it, with spread
 * > 1), rounded to the grid of multiples of 2^-10 (coarser than FD_STEP's
 * grid, so xi +- FD_STEP stays exact). */
static void random_point(feint_element el, test_rng *rng, double spread, double xi[3]) {
  for (;;) {
    for (int a = 0; a < 3; a++) xi[a] = test_rng_uniform(rng, -spread, 1.0 + spread);
    if (el == FEINT_PRISM6) xi[2] = 2.0 * xi[2] - 1.0;
    if (el == FEINT_HEX8)
      for (int a = 0; a < 3; a++) xi[a] = 2.0 * xi[a] - 1.0;
    for (int a = 0; a < 3; a++) xi[a] = ldexp(round(ldexp(xi[a], 10)), -10);
    if (spread > 0.0) return; /* outside points welcome */
    const double s = el == FEINT_TET4 ? xi[0] + xi[1] + xi[2] : el == FEINT_PRISM6 ? xi[0] + xi[1] : 0.0;
    if (s <= 1.0) return;
  }
}

int main(void) {
  test_rng rng = {101};
  enum { NUM_RANDOM = 200 };
  for (int el = 0; el < FEINT_ELEMENT_COUNT; el++) {
    feint_element_info ei;
    CHECK_STATUS(feint_element_get_info((feint_element)el, &ei), FEINT_SUCCESS, NULL);
    if (ei.num_nodes < 1 || ei.num_nodes > FEINT_MAX_NODES) {
      TEST_FAIL("%s: num_nodes = %d", ei.name, ei.num_nodes);
      continue;
    }
    check_info((feint_element)el, &ei);
    check_kronecker((feint_element)el, &ei);
    check_tables((feint_element)el, &ei);
    for (int q = 0; q < ei.num_qpts; q++) {
      check_sums((feint_element)el, ei.num_nodes, ei.qpts[q], "qpt");
      /* table gradients sum to zero too (they are what the kernels use) */
      for (int a = 0; a < 3; a++) {
        double g = 0.0, s = 0.0;
        for (int n = 0; n < ei.num_nodes; n++) g += ei.dphi[q][n][a], s += fabs(ei.dphi[q][n][a]);
        char what[64];
        snprintf(what, sizeof what, "%s table sum dphi[%d][.][%d]", ei.name, q, a);
        CHECK_CLOSE(g, 0.0, ei.num_nodes * PHI_OPS, s + 1.0, SAFETY, what);
      }
    }
    for (int k = 0; k < NUM_RANDOM; k++) {
      double xi[3];
      random_point((feint_element)el, &rng, k % 2 ? 0.5 : 0.0, xi);
      check_sums((feint_element)el, ei.num_nodes, xi, k % 2 ? "outside point" : "random point");
      check_fd((feint_element)el, ei.num_nodes, xi, k % 2 ? "outside point" : "random point");
    }
  }
  return test_finish("t101_reference_elements");
}
