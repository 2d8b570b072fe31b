/* t205_variable_coeffs (t2xx: physics): the variable-coefficient problems.
 *  - poisson_kappa with kappa_q = k constant in the element gives k times
 *    the Poisson (Laplace) matrix and the same load, to round-off, in every
 *    variant;
 *  - kappa linear in space is integrated exactly where the rule's degree
 *    allows: tet4 (constant gradients: integrand degree 1), hex8 on
 *    parallelepipeds (degree <= 3 in each reference variable), prism6 on
 *    right prisms with kappa linear in the vertical coordinate; checked in
 *    every variant against an independent high-order integration written
 *    here (collapsed / tensor Gauss-Legendre rules, 4 points per direction);
 *    and kappa = x^2 on hex8 is visibly NOT integrated exactly (so the
 *    comparison can fail);
 *  - elasticity_qp with the same lambda, mu at every point equals
 *    elasticity (lambda, mu per element);
 *  - bad input: kappa <= 0 or NaN at one point, mu_q < 0, lambda_q + 2 mu_q
 *    / 3 <= 0 -> FEINT_ERR_BAD_COEFF naming the element and the point,
 *    outputs untouched.
 * Tolerances: an entry is a sum of 3 N_Q terms (Poisson) or 5 N_Q
 * (elasticity), each known to ~16 eps of its scale S (variant_fixture.h);
 * the high-order reference adds 3 x 64 terms (hex8, 4^3 points): the
 * bound used is 2 (n_terms + 16) eps S with n_terms = 3 N_Q + 192, S the
 * sum of |terms| of feint_integrate_reference with kappa replaced by
 * max |kappa| over the element. */
#include <stdlib.h>
#include <string.h>

#include <omp.h>

#include "test_util.h"

#define NUM_ELEM 203 /* a partial last block */

static const double gauss4_x[4] = {-0.8611363115940526, -0.3399810435848563, 0.3399810435848563,
                                   0.8611363115940526};
static const double gauss4_w[4] = {0.3478548451374538, 0.6521451548625461, 0.6521451548625461,
                                   0.3478548451374538};

typedef double (*kappa_fn)(const double x[3]);
static double kappa_lin_x(const double x[3]) { return 1.5 + 0.7 * x[0]; }
static double kappa_lin_xyz(const double x[3]) { return 2.0 + 0.3 * x[0] - 0.4 * x[1] + 0.5 * x[2]; }
static double kappa_lin_z(const double x[3]) { return 1.0 + 0.8 * x[2]; }
static double kappa_sq_x(const double x[3]) { return 1.0 + 4.0 * x[0] * x[0]; }

/* Points and weights of a high-order rule on the reference element
 * (returns the count): hex [-1,1]^3 tensor 4^3; prism: the triangle by the
 * collapsed map (u, v) -> (u, v (1 - u)), weight (1 - u), 4 x 4 points on
 * [0,1]^2, times 4 in z; tet: (u, v (1-u), w (1-u)(1-v)), weight
 * (1-u)^2 (1-v), 4^3 points. */
static int high_rule(feint_element el, double pts[64][3], double wts[64]) {
  int k = 0;
  for (int i = 0; i < 4; i++)
    for (int j = 0; j < 4; j++)
      for (int l = 0; l < 4; l++, k++) {
        const double a = gauss4_x[i], b = gauss4_x[j], c = gauss4_x[l];
        const double w = gauss4_w[i] * gauss4_w[j] * gauss4_w[l];
        if (el == FEINT_HEX8) {
          pts[k][0] = a, pts[k][1] = b, pts[k][2] = c, wts[k] = w;
          continue;
        }
        const double u = (a + 1) / 2, v = (b + 1) / 2, t = (c + 1) / 2; /* on [0,1] */
        if (el == FEINT_PRISM6) {
          pts[k][0] = u, pts[k][1] = v * (1 - u), pts[k][2] = c, wts[k] = w / 4 * (1 - u);
        } else {
          pts[k][0] = u, pts[k][1] = v * (1 - u), pts[k][2] = t * (1 - u) * (1 - v);
          wts[k] = w / 8 * (1 - u) * (1 - u) * (1 - v);
        }
      }
  return k;
}

/* A_rs = int kappa grad phi_r . grad phi_s over one element, by the
 * high-order rule (shape functions from feint_element_eval). */
static void high_order_stiffness(feint_element el, const double *x, kappa_fn kappa, double *A) {
  double pts[64][3], wts[64];
  const int np = high_rule(el, pts, wts);
  feint_element_info ei;
  feint_element_get_info(el, &ei);
  const int ns = ei.num_nodes;
  for (int k = 0; k < ns * ns; k++) A[k] = 0.0;
  for (int p = 0; p < np; p++) {
    double phi[FEINT_MAX_NODES], dphi[FEINT_MAX_NODES][3], J[3][3] = {{0}}, X[3] = {0};
    feint_element_eval(el, pts[p], phi, dphi);
    for (int n = 0; n < ns; n++)
      for (int a = 0; a < 3; a++) {
        X[a] += phi[n] * x[3 * n + a];
        for (int b = 0; b < 3; b++) J[a][b] += x[3 * n + a] * dphi[n][b];
      }
    /* g = J^-T dphi by the adjugate */
    double C[3][3];
    for (int a = 0; a < 3; a++)
      for (int b = 0; b < 3; b++) {
        const int a1 = (a + 1) % 3, a2 = (a + 2) % 3, b1 = (b + 1) % 3, b2 = (b + 2) % 3;
        C[a][b] = J[a1][b1] * J[a2][b2] - J[a1][b2] * J[a2][b1];
      }
    const double det = J[0][0] * C[0][0] + J[0][1] * C[0][1] + J[0][2] * C[0][2];
    double g[FEINT_MAX_NODES][3];
    for (int n = 0; n < ns; n++)
      for (int a = 0; a < 3; a++) /* (J^-1)_{b a} = C[a][b] / det */
        g[n][a] = (dphi[n][0] * C[a][0] + dphi[n][1] * C[a][1] + dphi[n][2] * C[a][2]) / det;
    const double f = wts[p] * det * kappa(X);
    for (int r = 0; r < ns; r++)
      for (int s = 0; s < ns; s++)
        A[r * ns + s] += f * (g[r][0] * g[s][0] + g[r][1] * g[s][1] + g[r][2] * g[s][2]);
  }
}

static double *alloc_d(size_t n) {
  double *p = malloc((n + 8) * sizeof(double));
  if (!p) {
    fprintf(stderr, "allocation failed\n");
    exit(2);
  }
  return p;
}

/* Geometry of NUM_ELEM elements of an affine-perturbed box (parallelepiped
 * hexes, right prisms with horizontal layers). */
static double *affine_mesh(feint_element el, size_t *ng) {
  size_t n, nx = el == FEINT_TET4 ? 4 : el == FEINT_PRISM6 ? 6 : 6;
  feint_mesh_box_count(el, nx, nx, nx, &n);
  feint_array_entries(el, FEINT_POISSON, FEINT_ARRAY_GEOMETRY, ng);
  double *g = alloc_d(n * *ng);
  CHECK_STATUS(feint_mesh_box(el, nx, nx, nx, FEINT_PERTURB_AFFINE, 0.15, 77, FEINT_LAYOUT_NATURAL,
                              g),
               FEINT_SUCCESS, NULL);
  CHECK(n >= NUM_ELEM, "mesh of %zu elements", n);
  return g;
}

/* Quadrature points of element e in physical space. */
static void qpoints(const feint_element_info *ei, const double *x, double X[][3]) {
  for (int q = 0; q < ei->num_qpts; q++)
    for (int a = 0; a < 3; a++) {
      X[q][a] = 0.0;
      for (int n = 0; n < ei->num_nodes; n++) X[q][a] += ei->phi[q][n] * x[3 * n + a];
    }
}

static void run_integrate(feint_element el, feint_problem pb, feint_variant v, const double *geo,
                          const double *coef, double *A, double *b) {
  const feint_integrate_desc d = {el, pb, v, FEINT_LAYOUT_NATURAL, FEINT_LAYOUT_NATURAL, 0,
                                  FEINT_TARGET_HOST, 0};
  CHECK_STATUS(feint_integrate(&d, NUM_ELEM, geo, coef, A, b), FEINT_SUCCESS, NULL);
}

/* constant kappa: k times Poisson; kappa linear: the high-order reference */
static void check_kappa(feint_element el) {
  feint_element_info ei;
  feint_element_get_info(el, &ei);
  const int ns = ei.num_nodes, nq = ei.num_qpts;
  size_t ng;
  double *geo = affine_mesh(el, &ng);
  double *cp = alloc_d(NUM_ELEM * nq), *ck = alloc_d(NUM_ELEM * 2 * nq);
  double *Ap = alloc_d(NUM_ELEM * ns * ns), *bp = alloc_d(NUM_ELEM * ns);
  double *Ak = alloc_d(NUM_ELEM * ns * ns), *bk = alloc_d(NUM_ELEM * ns);
  double *Aref = alloc_d(NUM_ELEM * ns * ns), *bref = alloc_d(NUM_ELEM * ns);
  double *Aabs = alloc_d(NUM_ELEM * ns * ns), *babs = alloc_d(NUM_ELEM * ns);
  test_rng rng = {0xca77a + (unsigned)el};
  for (size_t e = 0; e < NUM_ELEM; e++) {
    const double k = test_rng_uniform(&rng, 0.25, 4.0);
    for (int q = 0; q < nq; q++) {
      cp[e * nq + q] = test_rng_uniform(&rng, -1.0, 1.0);
      ck[e * 2 * nq + 2 * q] = k;
      ck[e * 2 * nq + 2 * q + 1] = cp[e * nq + q];
    }
  }
  /* round-off scale of the Poisson sums (per unit kappa) */
  CHECK_STATUS(feint_integrate_reference(el, FEINT_POISSON, NUM_ELEM, geo, cp, Aref, bref, Aabs,
                                         babs),
               FEINT_SUCCESS, NULL);
  const double n_terms = 3.0 * nq;
  for (int v = 0; v < FEINT_VARIANT_COUNT; v++) {
    feint_variant_info vi;
    feint_variant_get_info((feint_variant)v, &vi);
    run_integrate(el, FEINT_POISSON, (feint_variant)v, geo, cp, Ap, bp);
    run_integrate(el, FEINT_POISSON_KAPPA, (feint_variant)v, geo, ck, Ak, bk);
    int rep = 0;
    for (size_t e = 0; e < NUM_ELEM && rep < 3; e++) {
      const double k = ck[e * 2 * nq];
      for (int i = 0; i < ns * ns; i++) {
        const size_t at = e * ns * ns + (size_t)i;
        if (!test_close(Ak[at], k * Ap[at], 2.0 * (n_terms + 16.0), k * Aabs[at], 1.0)) {
          TEST_FAIL("%s %s constant kappa %g: element %zu A[%d] = %.17g, kappa x Laplace %.17g",
                    ei.name, vi.name, k, e, i, Ak[at], k * Ap[at]);
          rep++;
        }
      }
      for (int r = 0; r < ns; r++)
        CHECK(bk[e * ns + r] == bp[e * ns + r], "%s %s: load of element %zu entry %d %.17g != "
              "Poisson's %.17g (the same sum)", ei.name, vi.name, e, r, bk[e * ns + r], bp[e * ns + r]);
    }
  }

  /* kappa linear where the rule integrates it exactly, and x^2 on hex8 */
  const kappa_fn fns[2] = {el == FEINT_PRISM6 ? kappa_lin_z : el == FEINT_TET4 ? kappa_lin_xyz
                                                                                : kappa_lin_x,
                           kappa_sq_x};
  for (int which = 0; which < (el == FEINT_HEX8 ? 2 : 1); which++) {
    double kmax = 0.0;
    for (size_t e = 0; e < NUM_ELEM; e++) {
      double X[FEINT_MAX_QPTS][3];
      qpoints(&ei, geo + e * ng, X);
      for (int q = 0; q < nq; q++) {
        ck[e * 2 * nq + 2 * q] = fns[which](X[q]);
        kmax = fmax(kmax, fabs(ck[e * 2 * nq + 2 * q]));
      }
      high_order_stiffness(el, geo + e * ng, fns[which], Aref + e * ns * ns);
    }
    /* the reference's own 3 x 64 terms join the tolerance */
    const double tol_n = 2.0 * (n_terms + 192.0 + 16.0);
    for (int v = 0; v < FEINT_VARIANT_COUNT; v++) {
      feint_variant_info vi;
      feint_variant_get_info((feint_variant)v, &vi);
      run_integrate(el, FEINT_POISSON_KAPPA, (feint_variant)v, geo, ck, Ak, bk);
      size_t inexact = 0;
      int rep = 0;
      for (size_t i = 0; i < NUM_ELEM * (size_t)(ns * ns); i++) {
        const int ok = test_close(Ak[i], Aref[i], tol_n, kmax * Aabs[i], 1.0);
        inexact += !ok;
        if (which == 0 && !ok && rep++ < 3)
          TEST_FAIL("%s %s linear kappa: element %zu A[%zu] = %.17g, high-order %.17g, diff %.3g",
                    ei.name, vi.name, i / (size_t)(ns * ns), i % (size_t)(ns * ns), Ak[i], Aref[i],
                    fabs(Ak[i] - Aref[i]));
      }
      if (which == 1)
        CHECK(inexact > NUM_ELEM, "%s %s: kappa = 1 + 4x^2 looks exactly integrated (%zu inexact "
              "entries): the comparison cannot tell", ei.name, vi.name, inexact);
    }
  }
  free(geo), free(cp), free(ck), free(Ap), free(bp), free(Ak), free(bk);
  free(Aref), free(bref), free(Aabs), free(babs);
}

/* elasticity_qp with lambda_q = lambda, mu_q = mu equals elasticity */
static void check_lame_qp(feint_element el) {
  feint_element_info ei;
  feint_element_get_info(el, &ei);
  const int nq = ei.num_qpts, nd = 3 * ei.num_nodes, n1 = 2 + 3 * nq, n2 = 5 * nq;
  size_t ng;
  double *geo = affine_mesh(el, &ng);
  double *c1 = alloc_d(NUM_ELEM * n1), *c2 = alloc_d(NUM_ELEM * n2);
  double *A1 = alloc_d(NUM_ELEM * nd * nd), *b1 = alloc_d(NUM_ELEM * nd);
  double *A2 = alloc_d(NUM_ELEM * nd * nd), *b2 = alloc_d(NUM_ELEM * nd);
  double *Ar = alloc_d(NUM_ELEM * nd * nd), *br = alloc_d(NUM_ELEM * nd);
  double *Aa = alloc_d(NUM_ELEM * nd * nd), *ba = alloc_d(NUM_ELEM * nd);
  test_rng rng = {0x1a3e + (unsigned)el};
  for (size_t e = 0; e < NUM_ELEM; e++) {
    const double lambda = test_rng_uniform(&rng, 0.1, 3.0), mu = test_rng_uniform(&rng, 0.1, 2.0);
    c1[e * n1] = lambda, c1[e * n1 + 1] = mu;
    for (int q = 0; q < nq; q++) {
      c2[e * n2 + 5 * q] = lambda, c2[e * n2 + 5 * q + 1] = mu;
      for (int i = 0; i < 3; i++)
        c1[e * n1 + 2 + 3 * q + i] = c2[e * n2 + 5 * q + 2 + i] = test_rng_uniform(&rng, -1, 1);
    }
  }
  CHECK_STATUS(feint_integrate_reference(el, FEINT_ELASTICITY_QP, NUM_ELEM, geo, c2, Ar, br, Aa, ba),
               FEINT_SUCCESS, NULL);
  const double tol_n = 2.0 * (5.0 * nq + 16.0);
  for (int v = 0; v < FEINT_VARIANT_COUNT; v++) {
    feint_variant_info vi;
    feint_variant_get_info((feint_variant)v, &vi);
    run_integrate(el, FEINT_ELASTICITY, (feint_variant)v, geo, c1, A1, b1);
    run_integrate(el, FEINT_ELASTICITY_QP, (feint_variant)v, geo, c2, A2, b2);
    int rep = 0;
    for (size_t i = 0; i < NUM_ELEM * (size_t)(nd * nd) && rep < 3; i++)
      if (!test_close(A2[i], A1[i], tol_n, Aa[i], 1.0) || !test_close(A2[i], Ar[i], tol_n, Aa[i], 1.0)) {
        TEST_FAIL("%s %s: elasticity_qp A[%zu] = %.17g, elasticity %.17g, reference %.17g",
                  ei.name, vi.name, i, A2[i], A1[i], Ar[i]);
        rep++;
      }
    for (size_t i = 0; i < NUM_ELEM * (size_t)nd && rep < 3; i++)
      if (!test_close(b2[i], b1[i], tol_n, ba[i], 1.0)) {
        TEST_FAIL("%s %s: elasticity_qp b[%zu] = %.17g, elasticity %.17g", ei.name, vi.name, i,
                  b2[i], b1[i]);
        rep++;
      }
  }
  free(geo), free(c1), free(c2), free(A1), free(b1), free(A2), free(b2);
  free(Ar), free(br), free(Aa), free(ba);
}

/* One bad value at element 5, point q: named status, element and point,
 * outputs untouched; both layouts. */
static void check_bad(feint_element el, feint_problem pb, int k_in_record, double value,
                      const char *want) {
  feint_element_info ei;
  feint_element_get_info(el, &ei);
  size_t ng, nc, na, nb;
  double *geo = affine_mesh(el, &ng);
  feint_array_entries(el, pb, FEINT_ARRAY_COEFFS, &nc);
  feint_array_entries(el, pb, FEINT_ARRAY_A, &na);
  feint_array_entries(el, pb, FEINT_ARRAY_B, &nb);
  const int rec = pb == FEINT_POISSON_KAPPA ? 2 : 5, q = ei.num_qpts - 1;
  const size_t padded = (NUM_ELEM + 7) / 8 * 8;
  double *c = alloc_d(padded * nc), *cb = alloc_d(padded * nc), *gb = alloc_d(padded * ng);
  double *A = alloc_d(padded * na), *b = alloc_d(padded * nb);
  for (size_t e = 0; e < NUM_ELEM; e++)
    for (size_t k = 0; k < nc; k++) c[e * nc + k] = k % (size_t)rec < 2 ? 1.0 : 0.5;
  c[5 * nc + (size_t)(rec * q + k_in_record)] = value;
  feint_layout_convert(NUM_ELEM, nc, FEINT_LAYOUT_NATURAL, c, FEINT_LAYOUT_BLOCKED, cb);
  feint_layout_convert(NUM_ELEM, ng, FEINT_LAYOUT_NATURAL, geo, FEINT_LAYOUT_BLOCKED, gb);
  char point[32];
  snprintf(point, sizeof point, "quadrature point %d", q);
  for (int l = 0; l < 2; l++) {
    for (size_t i = 0; i < padded * na; i++) A[i] = -7.0;
    for (size_t i = 0; i < padded * nb; i++) b[i] = -7.0;
    const feint_integrate_desc d = {el, pb, FEINT_QSS_GEO_GENERIC, (feint_layout)l,
                                    (feint_layout)l, 0, FEINT_TARGET_HOST, 0};
    CHECK_STATUS(feint_integrate(&d, NUM_ELEM, l ? gb : geo, l ? cb : c, A, b),
                 FEINT_ERR_BAD_COEFF, "element 5,");
    CHECK(test_error_has(point) && test_error_has(want), "%s/%s: message \"%s\" lacks \"%s\" or \"%s\"",
          ei.name, feint_problem_name(pb), feint_last_error(), point, want);
    int touched = 0;
    for (size_t i = 0; i < padded * na; i++) touched |= A[i] != -7.0;
    for (size_t i = 0; i < padded * nb; i++) touched |= b[i] != -7.0;
    CHECK(!touched, "%s/%s: refused call wrote its outputs", ei.name, feint_problem_name(pb));
  }
  free(geo), free(c), free(cb), free(gb), free(A), free(b);
}

/* The validation pass reads the coefficients block by block, threads
 * taking contiguous runs of blocks: whatever the lanes, blocks and thread
 * count, the element it names must be the lowest bad one.  Two bad
 * elements e1 < e2 (full and partial blocks, same and different blocks,
 * both at the ends): inadmissible kappa or mu (FEINT_ERR_BAD_COEFF), or a
 * NaN coefficient of Poisson (left to the rescaled path, which refuses it
 * with FEINT_ERR_NOT_FINITE); both layouts; 1 to 3 threads. */
static void check_first_bad(feint_element el) {
  static const size_t pairs[][2] = {{0, 1},    {0, 202},   {7, 8},     {9, 15},
                                    {63, 64},  {101, 150}, {199, 202}, {201, 202}};
  static const feint_problem pbs[4] = {FEINT_POISSON_KAPPA, FEINT_ELASTICITY,
                                       FEINT_ELASTICITY_QP, FEINT_POISSON};
  size_t ng, na, nb;
  double *geo = affine_mesh(el, &ng);
  feint_array_entries(el, FEINT_ELASTICITY_QP, FEINT_ARRAY_A, &na);
  feint_array_entries(el, FEINT_ELASTICITY_QP, FEINT_ARRAY_B, &nb);
  const size_t padded = (NUM_ELEM + 7) / 8 * 8, maxc = 5 * 8;
  double *c = alloc_d(padded * maxc), *cb = alloc_d(padded * maxc), *gb = alloc_d(padded * ng);
  double *A = alloc_d(padded * na), *b = alloc_d(padded * nb);
  feint_layout_convert(NUM_ELEM, ng, FEINT_LAYOUT_NATURAL, geo, FEINT_LAYOUT_BLOCKED, gb);
  const int threads = omp_get_max_threads();
  for (int p = 0; p < 4; p++) {
    const feint_problem pb = pbs[p];
    size_t nc;
    feint_array_entries(el, pb, FEINT_ARRAY_COEFFS, &nc);
    const int rec = pb == FEINT_POISSON_KAPPA ? 2 : pb == FEINT_ELASTICITY_QP ? 5 : (int)nc;
    for (size_t k = 0; k < sizeof pairs / sizeof pairs[0]; k++) {
      for (size_t e = 0; e < NUM_ELEM; e++)
        for (size_t i = 0; i < nc; i++) c[e * nc + i] = i % (size_t)rec < 2 ? 1.0 : 0.5;
      for (int j = 0; j < 2; j++) { /* e1: the last point's first value, e2: the first's */
        const size_t e = pairs[k][j], last = nc - (size_t)rec;
        if (pb == FEINT_POISSON)
          c[e * nc + (j ? 0 : nc - 1)] = NAN;
        else if (pb == FEINT_POISSON_KAPPA)
          c[e * nc + (j ? 0 : last)] = -1.0;
        else
          c[e * nc + (j ? 1 : last + 1)] = -1.0; /* mu */
      }
      feint_layout_convert(NUM_ELEM, nc, FEINT_LAYOUT_NATURAL, c, FEINT_LAYOUT_BLOCKED, cb);
      const feint_status want = pb == FEINT_POISSON ? FEINT_ERR_NOT_FINITE : FEINT_ERR_BAD_COEFF;
      char name[48];
      snprintf(name, sizeof name, "element %zu", pairs[k][0]);
      for (int t = 1; t <= 3; t++)
        for (int l = 0; l < 2; l++) {
          omp_set_num_threads(t);
          const feint_integrate_desc d = {el, pb, FEINT_QSS_GEO_GENERIC, (feint_layout)l,
                                          (feint_layout)l, 0, FEINT_TARGET_HOST, 0};
          const feint_status st = feint_integrate(&d, NUM_ELEM, l ? gb : geo, l ? cb : c, A, b);
          /* "element 1" must not match "element 15": the name ends there */
          const char *m = strstr(feint_last_error(), name);
          const char end = m != NULL ? m[strlen(name)] : 'x';
          CHECK(st == want && m != NULL && (end == ',' || end == ' ' || end == ':'),
                "%s/%s %s, %d threads, bad elements %zu and %zu: status %d, \"%s\"",
                feint_element_name(el), feint_problem_name(pb), l ? "blocked" : "natural", t,
                pairs[k][0], pairs[k][1], (int)st, feint_last_error());
        }
      omp_set_num_threads(threads);
    }
  }
  free(geo), free(c), free(cb), free(gb), free(A), free(b);
}

int main(void) {
  for (int el = 0; el < FEINT_ELEMENT_COUNT; el++) {
    check_kappa((feint_element)el);
    check_lame_qp((feint_element)el);
    check_bad((feint_element)el, FEINT_POISSON_KAPPA, 0, 0.0, "kappa = 0");
    check_bad((feint_element)el, FEINT_POISSON_KAPPA, 0, -2.0, "kappa = -2");
    check_bad((feint_element)el, FEINT_POISSON_KAPPA, 0, NAN, "kappa = nan");
    check_bad((feint_element)el, FEINT_ELASTICITY_QP, 1, -0.5, "mu = -0.5");
    check_bad((feint_element)el, FEINT_ELASTICITY_QP, 0, -1.0, "lambda = -1");
    check_bad((feint_element)el, FEINT_ELASTICITY_QP, 1, NAN, "mu = nan");
    check_first_bad((feint_element)el);
  }
  return test_finish("t205_variable_coeffs");
}
