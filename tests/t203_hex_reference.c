/* t203_hex_reference (t2xx: physics): hex8 Poisson against references
 * written here, independently of feint's tables and kernels:
 *  - on general (non-affine, perturbed) hexahedra, every variant and the
 *    serial reference equal this file's own 2x2x2 Gauss implementation
 *    (corner-sign shape functions, Jacobian, cofactor inverse) to round-off;
 *  - on affine hexahedra (random parallelepipeds) the 2x2x2 rule is exact
 *    for the Laplace matrix (the integrand is a constant-coefficient
 *    quadratic form of linear-in-each-variable gradients: degree <= 2 in each
 *    variable), so feint equals a 5x5x5 Gauss-Legendre integration (nodes by
 *    Newton's method here) to round-off; on general hexahedra the two differ
 *    by the quadrature error, which the test also shows is nonzero (the
 *    integrand is rational there);
 *  - the Laplace matrix annihilates constants (row sums 0), and with f = 1
 *    b sums to the element volume;
 *  - geo_linear variants refuse a non-affine hex (FEINT_ERR_NOT_AFFINE) and
 *    every variant refuses a twisted/inverted one (FEINT_ERR_DEGENERATE),
 *    naming the element and leaving the outputs untouched.
 * Tolerance: as tests/variant_fixture.h, |x - x_ref| <= 2 (n_terms + 16) eps S
 * with n_terms the terms of the longer sum (3 per point: 24 or 375) and S
 * the sum of the absolute values of the terms (feint_integrate_reference's
 * A_abs, which also covers cancellation in the derivatives, plus this
 * file's own sum of |terms|). */
#include <stdlib.h>

#include "test_util.h"

#define NS 8
static const int corner[NS][3] = {{-1, -1, -1}, {1, -1, -1}, {1, 1, -1}, {-1, 1, -1},
                                  {-1, -1, 1},  {1, -1, 1},  {1, 1, 1},  {-1, 1, 1}};

/* Gauss-Legendre rule of n points on [-1, 1] by Newton on P_n. */
static void gauss_legendre(int n, double *x, double *w) {
  for (int i = 0; i < n; i++) {
    double t = cos(3.14159265358979323846 * (i + 0.75) / (n + 0.5)), dp = 0.0;
    for (int it = 0; it < 100; it++) {
      double p0 = 1.0, p1 = t;
      for (int k = 2; k <= n; k++) {
        const double p2 = ((2 * k - 1) * t * p1 - (k - 1) * p0) / k;
        p0 = p1, p1 = p2;
      }
      dp = n * (t * p1 - p0) / (t * t - 1.0);
      const double dt = p1 / dp;
      t -= dt;
      if (fabs(dt) < 1e-17) break;
    }
    x[i] = t;
    w[i] = 2.0 / ((1.0 - t * t) * dp * dp);
  }
}

/* Laplace matrix, load vector (f = 1) and |terms| sums of one hex with an
 * n^3-point tensor Gauss rule; returns the volume. */
static double hex_laplace(const double *geo, int n, double A[NS][NS], double S[NS][NS],
                          double b[NS]) {
  double gx[8], gw[8];
  gauss_legendre(n, gx, gw);
  memset(A, 0, sizeof(double) * NS * NS);
  memset(S, 0, sizeof(double) * NS * NS);
  memset(b, 0, sizeof(double) * NS);
  double volume = 0.0;
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++)
      for (int k = 0; k < n; k++) {
        const double xi[3] = {gx[i], gx[j], gx[k]}, w = gw[i] * gw[j] * gw[k];
        double phi[NS], dref[NS][3], J[3][3] = {{0}};
        for (int v = 0; v < NS; v++) {
          double f[3];
          for (int a = 0; a < 3; a++) f[a] = (1.0 + corner[v][a] * xi[a]) / 2.0;
          phi[v] = f[0] * f[1] * f[2];
          dref[v][0] = corner[v][0] / 2.0 * f[1] * f[2];
          dref[v][1] = corner[v][1] / 2.0 * f[0] * f[2];
          dref[v][2] = corner[v][2] / 2.0 * f[0] * f[1];
          for (int a = 0; a < 3; a++)
            for (int c = 0; c < 3; c++) J[a][c] += geo[3 * v + a] * dref[v][c];
        }
        /* inverse by cofactors: Jinv[c][a] = C[a][c] / det */
        double C[3][3];
        for (int a = 0; a < 3; a++)
          for (int c = 0; c < 3; c++) {
            const int a1 = (a + 1) % 3, a2 = (a + 2) % 3, c1 = (c + 1) % 3, c2 = (c + 2) % 3;
            C[a][c] = J[a1][c1] * J[a2][c2] - J[a1][c2] * J[a2][c1];
          }
        const double det = J[0][0] * C[0][0] + J[0][1] * C[0][1] + J[0][2] * C[0][2];
        double g[NS][3];
        for (int v = 0; v < NS; v++)
          for (int a = 0; a < 3; a++) {
            g[v][a] = 0.0;
            for (int c = 0; c < 3; c++) g[v][a] += dref[v][c] * C[a][c] / det;
          }
        volume += w * det;
        for (int r = 0; r < NS; r++) {
          b[r] += w * det * phi[r];
          for (int s = 0; s < NS; s++)
            for (int a = 0; a < 3; a++) {
              A[r][s] += w * det * g[r][a] * g[s][a];
              S[r][s] += fabs(w * det * g[r][a] * g[s][a]);
            }
        }
      }
  return volume;
}

static double *alloc(size_t n) {
  double *p = malloc((n ? n : 1) * sizeof(double));
  if (!p) {
    fprintf(stderr, "allocation failed\n");
    exit(2);
  }
  return p;
}

/* feint (variant v, or the serial reference for v < 0) against this file's
 * rule of nq1 points per direction on num hexes. */
static void compare(const char *what, const double *geo, size_t num, int nq1, int v) {
  double *coef = alloc(num * NS), *A = alloc(num * NS * NS), *b = alloc(num * NS);
  double *Aabs = alloc(num * NS * NS), *babs = alloc(num * NS), *Ar = alloc(num * NS * NS);
  double *br = alloc(num * NS);
  for (size_t i = 0; i < num * NS; i++) coef[i] = 1.0;
  CHECK_STATUS(feint_integrate_reference(FEINT_HEX8, FEINT_POISSON, num, geo, coef, Ar, br, Aabs,
                                         babs),
               FEINT_SUCCESS, NULL);
  if (v >= 0) {
    const feint_integrate_desc d = {FEINT_HEX8, FEINT_POISSON, (feint_variant)v,
                                    FEINT_LAYOUT_NATURAL, FEINT_LAYOUT_NATURAL, 0,
                                    FEINT_TARGET_HOST, 0};
    CHECK_STATUS(feint_integrate(&d, num, geo, coef, A, b), FEINT_SUCCESS, NULL);
  } else {
    memcpy(A, Ar, num * NS * NS * sizeof(double));
    memcpy(b, br, num * NS * sizeof(double));
  }
  const double n_terms = 3.0 * nq1 * nq1 * nq1;
  int reported = 0;
  for (size_t e = 0; e < num && reported < 3; e++) {
    double At[NS][NS], S[NS][NS], bt[NS];
    const double volume = hex_laplace(geo + e * 3 * NS, nq1, At, S, bt);
    double bsum = 0.0, bsum_abs = 0.0;
    for (int r = 0; r < NS; r++) {
      double rowsum = 0.0, row_abs = 0.0;
      for (int s = 0; s < NS; s++) {
        const double x = A[e * NS * NS + r * NS + s];
        const double scale = Aabs[e * NS * NS + r * NS + s] + S[r][s];
        rowsum += x, row_abs += scale;
        if (!test_close(x, At[r][s], 2.0 * (n_terms + 16.0), scale, 1.0) && reported++ < 3)
          TEST_FAIL("%s: element %zu A[%d][%d] = %.17g, independent %.17g (diff %.3g)", what, e,
                    r, s, x, At[r][s], x - At[r][s]);
      }
      /* constants: each entry within its tolerance of an exactly zero-sum row */
      if (!test_close(rowsum, 0.0, 2.0 * (n_terms + 16.0) + NS, row_abs, 1.0) && reported++ < 3)
        TEST_FAIL("%s: element %zu row %d of A sums to %.3g (constants not annihilated)", what, e,
                  r, rowsum);
      const double x = b[e * NS + r];
      bsum += x, bsum_abs += fabs(x);
      if (!test_close(x, bt[r], 2.0 * (n_terms + 16.0), babs[e * NS + r] + fabs(bt[r]), 1.0) &&
          reported++ < 3)
        TEST_FAIL("%s: element %zu b[%d] = %.17g, independent %.17g", what, e, r, x, bt[r]);
    }
    if (!test_close(bsum, volume, 2.0 * (n_terms + 16.0) + NS, bsum_abs, 1.0) && reported++ < 3)
      TEST_FAIL("%s: element %zu sum of b (f = 1) = %.17g, volume %.17g", what, e, bsum, volume);
  }
  free(coef), free(A), free(b), free(Aabs), free(babs), free(Ar), free(br);
}

/* Random parallelepipeds x = x0 + M (xi + 1) / 2, M = h (I + 0.3 R), and a
 * general perturbed hex mesh. */
static void make_affine(double *geo, size_t num, test_rng *rng) {
  for (size_t e = 0; e < num; e++) {
    double M[3][3], x0[3];
    const double h = test_rng_uniform(rng, 0.05, 2.0);
    for (int a = 0; a < 3; a++) {
      x0[a] = test_rng_uniform(rng, -3.0, 3.0);
      for (int c = 0; c < 3; c++) M[a][c] = h * ((a == c) + 0.3 * test_rng_uniform(rng, -1, 1));
    }
    for (int v = 0; v < NS; v++)
      for (int a = 0; a < 3; a++) {
        double x = x0[a];
        for (int c = 0; c < 3; c++) x += M[a][c] * (corner[v][c] + 1) / 2.0;
        geo[e * 3 * NS + 3 * v + a] = x;
      }
  }
}

/* On general hexes the 2x2x2 rule is not exact: the largest difference to
 * the 5x5x5 integral must be well above round-off (else the "general" mesh
 * would be affine and the test above vacuous). */
static void check_not_exact(const double *geo, size_t num) {
  double worst = 0.0;
  for (size_t e = 0; e < num; e++) {
    double A2[NS][NS], A5[NS][NS], S[NS][NS], b[NS];
    hex_laplace(geo + e * 3 * NS, 2, A2, S, b);
    hex_laplace(geo + e * 3 * NS, 5, A5, S, b);
    for (int r = 0; r < NS; r++)
      for (int s = 0; s < NS; s++) worst = fmax(worst, fabs(A2[r][s] - A5[r][s]) / S[r][s]);
  }
  CHECK(worst > 1e-6, "general hexes: 2x2x2 and 5x5x5 agree to %.3g (mesh not distorted?)", worst);
}

static void check_refusals(void) {
  /* element 1 of 3: non-affine (one top node moved); element 2: twisted
   * (top face mirrored in x: at the upper Gauss points the x edge has turned
   * over, det J < 0 there, > 0 at the lower ones) */
  double geo[3 * 3 * NS], coef[3 * NS], A[3 * NS * NS], b[3 * NS];
  for (int e = 0; e < 3; e++)
    for (int v = 0; v < NS; v++)
      for (int a = 0; a < 3; a++) geo[e * 3 * NS + 3 * v + a] = corner[v][a] + 4.0 * e * (a == 0);
  geo[1 * 3 * NS + 3 * 6 + 2] += 0.3;
  for (int v = 4; v < 8; v++) /* mirror the top face of element 2 in x */
    geo[2 * 3 * NS + 3 * v] = 8.0 - corner[v][0];
  for (int k = 0; k < 3 * NS; k++) coef[k] = 1.0;
  for (int v = 0; v < FEINT_VARIANT_COUNT; v++) {
    feint_variant_info vi;
    feint_variant_get_info((feint_variant)v, &vi);
    for (size_t k = 0; k < 3 * NS * NS; k++) A[k] = -7.0;
    for (size_t k = 0; k < 3 * NS; k++) b[k] = -7.0;
    const feint_integrate_desc d = {FEINT_HEX8, FEINT_POISSON, (feint_variant)v,
                                    FEINT_LAYOUT_NATURAL, FEINT_LAYOUT_NATURAL, 0,
                                    FEINT_TARGET_HOST, 0};
    /* the first two only: non-affine matters for geo_linear */
    CHECK_STATUS(feint_integrate(&d, 2, geo, coef, A, b),
                 vi.geo_linear ? FEINT_ERR_NOT_AFFINE : FEINT_SUCCESS,
                 vi.geo_linear ? "element 1 is not affine" : NULL);
    if (vi.geo_linear)
      for (size_t k = 0; k < 2 * NS * NS; k++)
        CHECK(A[k] == -7.0, "%s: A written on a refused call", vi.name);
    CHECK_STATUS(feint_integrate(&d, 3, geo, coef, A, b), FEINT_ERR_DEGENERATE,
                 "element 2 is degenerate");
  }
}

int main(void) {
  test_rng rng = {203};
  enum { NUM_AFFINE = 200, CELLS = 5 };
  double *aff = alloc(NUM_AFFINE * 3 * NS);
  make_affine(aff, NUM_AFFINE, &rng);
  compare("affine hexes, reference vs 5x5x5", aff, NUM_AFFINE, 5, -1);
  for (int v = 0; v < FEINT_VARIANT_COUNT; v++) {
    feint_variant_info vi;
    feint_variant_get_info((feint_variant)v, &vi);
    char what[96];
    snprintf(what, sizeof what, "affine hexes, %s vs 5x5x5", vi.name);
    compare(what, aff, NUM_AFFINE, 5, v);
  }
  size_t num;
  feint_mesh_box_count(FEINT_HEX8, CELLS, CELLS, CELLS, &num);
  double *gen = alloc(num * 3 * NS);
  CHECK_STATUS(feint_mesh_box(FEINT_HEX8, CELLS, CELLS, CELLS, FEINT_PERTURB_GENERAL, 0.16, 7,
                              FEINT_LAYOUT_NATURAL, gen),
               FEINT_SUCCESS, NULL);
  check_not_exact(gen, num);
  compare("general hexes, reference vs 2x2x2 here", gen, num, 2, -1);
  for (int v = 0; v < FEINT_VARIANT_COUNT; v++) {
    feint_variant_info vi;
    feint_variant_get_info((feint_variant)v, &vi);
    if (vi.geo_linear) continue;
    char what[96];
    snprintf(what, sizeof what, "general hexes, %s vs 2x2x2 here", vi.name);
    compare(what, gen, num, 2, v);
  }
  check_refusals();
  free(aff), free(gen);
  return test_finish("t203_hex_reference");
}
