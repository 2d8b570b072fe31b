/* t003_adversarial: the hostile-input suite of the library API (issue 11): finite in, finite out at every scale from 1e-300 to 1e300, NaN/Inf/subnormal/flat geometry, huge and non-finite coefficients, sizes that overflow, padding lanes, the mesh generator's amplitude bound, num_elem = 0 and feint_last_execution, platform files with NUL bytes - each asserting status, message and untouched outputs; every element (tet4, prism6, hex8) and problem (Poisson, conv-diff, elasticity, poisson_kappa, elasticity_qp) in the scale, coefficient and padding suites. */
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#include <stdlib.h>
#include <unistd.h>

#include "feint_perfmodel.h"
#include "test_util.h"

#define NE 11          /* elements per batch: a partial last block */
#define MAXG (NE * 24) /* geometry doubles (natural) */
#define MAXC 40        /* coefficient doubles per element (hex8 elasticity_qp) */
#define MAXA 576       /* A_e doubles per element (hex8 elasticity) */
#define MAXB 24        /* b_e doubles per element */
#define SENT 0x5A      /* sentinel byte of untouched outputs */

static const double unit_tet[4][3] = {{0.1, 0.0, 0.2}, {1.2, 0.3, 0.1}, {0.2, 0.9, 0.4}, {0.3, 0.2, 1.1}};
static const double unit_prism[6][3] = {{0.0, 0.1, 0.0}, {1.1, 0.0, 0.1}, {0.1, 0.9, 0.0},
                                        {0.1, 0.2, 1.0}, {1.2, 0.1, 1.1}, {0.2, 1.0, 1.0}};
/* a non-affine (not a parallelepiped) hexahedron, det J > 0 at every point */
static const double unit_hex[8][3] = {{0.0, 0.1, 0.0}, {1.1, 0.0, 0.1}, {1.0, 1.2, 0.0},
                                      {0.1, 0.9, 0.1}, {0.1, 0.2, 1.0}, {1.2, 0.1, 1.1},
                                      {1.1, 1.0, 0.9}, {0.0, 1.1, 1.2}};
static const double *unit_of(feint_element el) {
  return el == FEINT_TET4 ? &unit_tet[0][0] : el == FEINT_PRISM6 ? &unit_prism[0][0] : &unit_hex[0][0];
}

typedef struct {
  feint_element el;
  feint_problem pb;
  size_t ns, ng, nc, na, nb;
} kase;

static kase kase_of(int el, int pb) {
  kase k = {(feint_element)el, (feint_problem)pb, 0, 0, 0, 0, 0};
  feint_array_entries(k.el, k.pb, FEINT_ARRAY_GEOMETRY, &k.ng);
  feint_array_entries(k.el, k.pb, FEINT_ARRAY_COEFFS, &k.nc);
  feint_array_entries(k.el, k.pb, FEINT_ARRAY_A, &k.na);
  feint_array_entries(k.el, k.pb, FEINT_ARRAY_B, &k.nb);
  k.ns = k.nb;
  return k;
}

/* Coefficients of element e (natural): O(1), fixed-seed, nonzero. */
static void coeffs_of(const kase *k, size_t e, double *c) {
  test_rng r = {0xC0FFEEu + e};
  for (size_t i = 0; i < k->nc; i++) c[i] = test_rng_uniform(&r, 0.5, 1.5);
}

/* Reference of one element at scale f * 2^p, from the unit-scale reference
 * (exact power-of-two scaling, see rescale.c): A = 2^p A(x f, c'),
 * b = 2^p b(x f, d'), c'_ij = c_ij 2^(p (2 - n_i - n_j)), d'_i = d_i 2^(p (2 - n_i)),
 * Poisson: f_q' = f_q 2^(2p).  Also the round-off scales. */
static void scaled_reference(const kase *k, const double *x_unit, double f, int p, const double *c,
                             double *A, double *b, double *A_abs, double *b_abs) {
  double xs[24], cs[MAXC];
  for (size_t i = 0; i < k->ng; i++) xs[i] = x_unit[i] * f;
  /* loads f (Poisson, and the f of the others' records) scale like d_0:
   * 2^(2p); kappa, lambda, mu multiply two derivatives: unscaled */
  if (k->pb == FEINT_POISSON)
    for (size_t q = 0; q < k->nc; q++) cs[q] = ldexp(c[q], 2 * p);
  else if (k->pb == FEINT_ELASTICITY)
    for (size_t i = 0; i < k->nc; i++) cs[i] = i < 2 ? c[i] : ldexp(c[i], 2 * p);
  else if (k->pb == FEINT_POISSON_KAPPA)
    for (size_t i = 0; i < k->nc; i++) cs[i] = i % 2 == 0 ? c[i] : ldexp(c[i], 2 * p);
  else if (k->pb == FEINT_ELASTICITY_QP)
    for (size_t i = 0; i < k->nc; i++) cs[i] = i % 5 < 2 ? c[i] : ldexp(c[i], 2 * p);
  else {
    for (int i = 0; i < 4; i++) {
      for (int j = 0; j < 4; j++) cs[4 * i + j] = ldexp(c[4 * i + j], p * (2 - (i > 0) - (j > 0)));
      cs[16 + i] = ldexp(c[16 + i], p * (2 - (i > 0)));
    }
  }
  feint_integrate_reference(k->el, k->pb, 1, xs, cs, A, b, A_abs, b_abs);
  for (size_t i = 0; i < k->na; i++) A[i] = ldexp(A[i], p), A_abs[i] = ldexp(A_abs[i], p);
  for (size_t i = 0; i < k->nb; i++) b[i] = ldexp(b[i], p), b_abs[i] = ldexp(b_abs[i], p);
}

/* Natural -> layout copy of a batch of NE elements (helper of the tests;
 * padding lanes of a blocked copy are filled with NaN, which no call may read). */
static void to_layout(size_t size, feint_layout l, const double *nat, double *out) {
  const size_t B = FEINT_BLOCK_LEN, padded = (NE + B - 1) / B * B;
  if (l == FEINT_LAYOUT_NATURAL) {
    memcpy(out, nat, NE * size * sizeof(double));
    return;
  }
  for (size_t i = 0; i < padded * size; i++) out[i] = NAN;
  feint_layout_convert(NE, size, FEINT_LAYOUT_NATURAL, nat, FEINT_LAYOUT_BLOCKED, out);
}

static size_t at(feint_layout l, size_t size, size_t e, size_t k) {
  const size_t B = FEINT_BLOCK_LEN;
  return l == FEINT_LAYOUT_BLOCKED ? (e / B) * B * size + k * B + e % B : e * size + k;
}

/* 1. Every scale: a batch of NE copies of the unit element, element `odd`
 * at scale f 2^p (the rest at scale 1, so the rescaled elements share a
 * batch with ordinary ones), every variant and layout.  Promise: success
 * with every entry finite and within round-off of the scaled reference, or,
 * only where the exact result overflows, FEINT_ERR_NOT_FINITE naming the
 * element with the outputs untouched. */
static void check_scale(const kase *k, double f, int p, size_t odd) {
  const double *unit = unit_of(k->el);
  double geo_nat[MAXG], coef_nat[NE * MAXC], geo[16 * 24], coef[16 * MAXC];
  static double A[16 * MAXA], A_ref[NE][MAXA], A_abs[NE][MAXA]; /* 0.2 MB: not on the stack */
  double b[16 * MAXB], b_ref[NE][MAXB], b_abs[NE][MAXB];
  int expect_overflow = 0, surely_finite = 1;
  for (size_t e = 0; e < NE; e++) {
    coeffs_of(k, e, coef_nat + e * k->nc);
    const double fe = e == odd ? f : 1.0;
    const int pe = e == odd ? p : 0;
    for (size_t i = 0; i < k->ng; i++) geo_nat[e * k->ng + i] = ldexp(unit[i] * fe, pe);
    scaled_reference(k, unit, fe, pe, coef_nat + e * k->nc, A_ref[e], b_ref[e], A_abs[e], b_abs[e]);
    for (size_t i = 0; i < k->na + k->nb; i++) {
      const double s = i < k->na ? A_abs[e][i] : b_abs[e][i - k->na];
      expect_overflow |= isinf(i < k->na ? A_ref[e][i] : b_ref[e][i - k->na]);
      surely_finite &= s < 0x1p1000;
    }
  }
  /* terms per entry and point: Poisson 3, conv-diff 16, elasticity 5 */
  const double terms = k->pb == FEINT_POISSON || k->pb == FEINT_POISSON_KAPPA ? 3
                       : k->pb == FEINT_CONVDIFF                             ? 16
                                                                             : 5;
  feint_element_info ei;
  feint_element_get_info(k->el, &ei);
  const double tol = 2.0 * ((double)ei.num_qpts * terms + 16.0) * DBL_EPSILON;
  for (int l = 0; l <= FEINT_LAYOUT_BLOCKED; l++) { /* input = output layout */
    to_layout(k->ng, (feint_layout)l, geo_nat, geo);
    to_layout(k->nc, (feint_layout)l, coef_nat, coef);
    /* every variant on the host; qss_geo_generic also as a device call that
     * may fall back (in an offload build without a GPU: the device code on
     * the host, then the rescaled elements written over its output) */
    for (int v = 0; v <= FEINT_VARIANT_COUNT; v++) {
      const int device = v == FEINT_VARIANT_COUNT;
      const feint_variant var = device ? FEINT_QSS_GEO_GENERIC : (feint_variant)v;
      feint_variant_info vi;
      feint_variant_get_info(var, &vi);
      if (vi.geo_linear && k->el != FEINT_TET4) continue; /* unit_prism, unit_hex: not affine */
      const feint_integrate_desc d = {k->el, k->pb, var, (feint_layout)l, (feint_layout)l,
                                      device ? FEINT_FLAG_ALLOW_HOST_FALLBACK : 0u,
                                      device ? FEINT_TARGET_DEVICE : FEINT_TARGET_HOST, 0};
      memset(A, SENT, sizeof A);
      memset(b, SENT, sizeof b);
      const feint_status st = feint_integrate(&d, NE, geo, coef, A, b);
      char what[224];
      snprintf(what, sizeof what, "%s/%s %s%s %s, element %zu at scale %g x 2^%d",
               feint_element_name(k->el), feint_problem_name(k->pb), vi.name,
               device ? " (device target, host fallback allowed)" : "",
               feint_layout_name((feint_layout)l), odd, f, p);
      if (st != FEINT_SUCCESS) {
        char name[48];
        snprintf(name, sizeof name, "element %zu:", odd);
        CHECK(st == FEINT_ERR_NOT_FINITE && !surely_finite && strstr(feint_last_error(), name),
              "%s: status %d (%s) although %s; message: %s", what, (int)st, feint_status_string(st),
              surely_finite ? "every exact entry is below 2^1000" : "(or the wrong element)",
              feint_last_error());
        static unsigned char sent[16 * MAXA * 8];
        memset(sent, SENT, sizeof sent);
        CHECK(memcmp(A, sent, sizeof A) == 0 && memcmp(b, sent, sizeof b) == 0,
              "%s: failed call wrote outputs", what);
        continue;
      }
      CHECK(!expect_overflow, "%s: success although an exact entry overflows", what);
      if (l == FEINT_LAYOUT_BLOCKED) { /* padding lanes keep the sentinel */
        unsigned char s8[8];
        memset(s8, SENT, 8);
        int touched = 0;
        for (size_t e = NE; e < 16; e++) {
          for (size_t kk = 0; kk < k->na; kk++) touched += memcmp(&A[at(FEINT_LAYOUT_BLOCKED, k->na, e, kk)], s8, 8) != 0;
          for (size_t kk = 0; kk < k->nb; kk++) touched += memcmp(&b[at(FEINT_LAYOUT_BLOCKED, k->nb, e, kk)], s8, 8) != 0;
        }
        CHECK(touched == 0, "%s: %d padding entries written", what, touched);
      }
      int bad = 0;
      for (size_t e = 0; e < NE && bad < 2; e++)
        for (size_t i = 0; i < k->na + k->nb; i++) {
          const int is_a = i < k->na;
          const size_t kk = is_a ? i : i - k->na;
          const double x = is_a ? A[at((feint_layout)l, k->na, e, kk)] : b[at((feint_layout)l, k->nb, e, kk)];
          const double r = is_a ? A_ref[e][kk] : b_ref[e][kk];
          const double s = is_a ? A_abs[e][kk] : b_abs[e][kk];
          /* round-off of the scaled computation, plus the spacing of
           * subnormals for results below the normal range */
          if (!(isfinite(x) && fabs(x) - 0.0 >= 0.0 && fabs(x - r) <= tol * s + 64 * 0x1p-1074)) {
            TEST_FAIL("%s: element %zu %s[%zu] = %.17g, reference %.17g, tol %.3g", what, e,
                      is_a ? "A" : "b", kk, x, r, tol * s);
            bad++;
            break;
          }
        }
    }
  }
}

static void check_scales(void) {
  static const int pows[] = {-1074, -1060, -1000, -700, -498, -400, -250, -201, -200, -199, -150,
                             -100,  -52,   -1,    0,    1,    52,   100,  150,  199,  200,  201,
                             250,   400,   498,   700,  1000};
  for (int el = 0; el < FEINT_ELEMENT_COUNT; el++)
    for (int pb = 0; pb < FEINT_PROBLEM_COUNT; pb++) {
      const kase k = kase_of(el, pb);
      for (size_t i = 0; i < sizeof pows / sizeof pows[0]; i++) {
        if (pows[i] < -1000) continue; /* the unit element would lose its shape */
        check_scale(&k, 1.0, pows[i], (size_t)i % NE);
      }
      /* decimal scales 1e-300 .. 1e300 (the 1e-104 and 1e-103 among them) */
      for (int dec = -300; dec <= 300; dec += 13) {
        int p;
        const double f = frexp(pow(10.0, dec), &p);
        check_scale(&k, f, p, (size_t)(dec + 300) % NE);
      }
      int p;
      double f = frexp(1e-104, &p);
      check_scale(&k, f, p, 0);
      f = frexp(1e-103, &p);
      check_scale(&k, f, p, NE - 1);
    }
}

/* One call that must fail with `expect` naming `name`, outputs untouched. */
static void expect_fail(const feint_integrate_desc *d, size_t n, const double *geo,
                        const double *coef, feint_status expect, const char *name,
                        const char *what) {
  static double A[16 * MAXA];
  static unsigned char sent[sizeof A];
  double b[16 * MAXB];
  memset(A, SENT, sizeof A);
  memset(b, SENT, sizeof b);
  memset(sent, SENT, sizeof sent);
  const feint_status st = feint_integrate(d, n, geo, coef, A, b);
  CHECK(st == expect && strstr(feint_last_error(), name) != NULL,
        "%s: status %d (%s), expected %d naming \"%s\"; message: %s", what, (int)st,
        feint_status_string(st), (int)expect, name, feint_last_error());
  CHECK(memcmp(A, sent, sizeof A) == 0 && memcmp(b, sent, sizeof b) == 0,
        "%s: outputs written on error", what);
}

/* 2. Non-finite, flat, inverted, sliver and subnormal geometry; huge and
 * non-finite coefficients; the degeneracy threshold is scale-invariant. */
static void check_bad_geometry(void) {
  for (int el = 0; el < FEINT_ELEMENT_COUNT; el++)
    for (int pb = 0; pb < FEINT_PROBLEM_COUNT; pb++) {
      const kase k = kase_of(el, pb);
      const double *unit = unit_of(k.el);
      double geo[MAXG], coef[NE * MAXC];
      static double A[16 * MAXA];
      double b[16 * MAXB];
      for (size_t e = 0; e < NE; e++) coeffs_of(&k, e, coef + e * k.nc);
      for (int v = 0; v < FEINT_VARIANT_COUNT; v++) {
        feint_variant_info vi;
        feint_variant_get_info((feint_variant)v, &vi);
        if (vi.geo_linear && el != FEINT_TET4) continue;
        const feint_integrate_desc d = {k.el, k.pb, (feint_variant)v, 0, 0, 0, 0, 0};
        static const int scales[] = {-1000, -498, -100, 0, 100, 498};
        for (size_t si = 0; si < sizeof scales / sizeof scales[0]; si++) {
          const int p = scales[si];
          for (int kind = 0; kind < 8; kind++) {
            for (size_t e = 0; e < NE; e++)
              for (size_t i = 0; i < k.ng; i++) geo[e * k.ng + i] = ldexp(unit[i], p);
            double *x = geo + 4 * k.ng; /* element 4 is the bad one */
            const char *what = "";
            switch (kind) {
              case 0: x[2] = NAN, what = "NaN coordinate"; break;
              case 1: x[4] = INFINITY, what = "+inf coordinate"; break;
              case 2: x[5] = -INFINITY, what = "-inf coordinate"; break;
              case 3: /* all nodes coincide */
                for (size_t i = 0; i < k.ng; i++) x[i] = x[i % 3];
                what = "collapsed to a point";
                break;
              case 4: /* nodes 1 and 2 swapped (and 4, 5 for prisms; hex: 1, 3 and
                         5, 7, a reflection): inverted */
                for (int a = 0; a < 3; a++) {
                  double t;
                  if (el == FEINT_HEX8) {
                    t = x[3 + a], x[3 + a] = x[9 + a], x[9 + a] = t;
                    t = x[15 + a], x[15 + a] = x[21 + a], x[21 + a] = t;
                    continue;
                  }
                  t = x[3 + a];
                  x[3 + a] = x[6 + a], x[6 + a] = t;
                  if (el == FEINT_PRISM6) t = x[12 + a], x[12 + a] = x[15 + a], x[15 + a] = t;
                }
                what = "inverted";
                break;
              case 5: /* flat: the last node(s) a relative 1e-300 off the plane of the others */
                if (el == FEINT_TET4) {
                  for (int a = 0; a < 3; a++) x[9 + a] = x[a] + ldexp(1e-300, p) * (a == 2);
                } else { /* the top face onto the bottom one */
                  const int h = el == FEINT_PRISM6 ? 3 : 4;
                  for (int n = h; n < 2 * h; n++)
                    for (int a = 0; a < 3; a++) x[3 * n + a] = x[3 * (n - h) + a] + ldexp(1e-300, p) * (a == 2);
                }
                what = "flat (height 1e-300 of its size)";
                break;
              case 6: /* a sliver of aspect ratio 1e13: beyond the criterion (2^-40) */
                if (el == FEINT_TET4) {
                  for (int a = 0; a < 3; a++)
                    x[9 + a] = (x[a] + x[3 + a] + x[6 + a]) / 3 + ldexp(1e-13, p) * (a == 2);
                } else {
                  const int h = el == FEINT_PRISM6 ? 3 : 4;
                  for (int n = h; n < 2 * h; n++)
                    for (int a = 0; a < 3; a++) x[3 * n + a] = x[3 * (n - h) + a] + ldexp(1e-13, p) * (a == 2);
                }
                what = "sliver, aspect ratio 1e13";
                break;
              default: /* every node subnormal and equal in z: flat and tiny */
                for (size_t i = 0; i < k.ng; i++) x[i] = i % 3 == 2 ? 0x1p-1070 : ldexp(unit[i], -1060);
                what = "subnormal and flat";
                break;
            }
            char full[128];
            snprintf(full, sizeof full, "%s %s %s, scale 2^%d: element 4 %s", feint_element_name(k.el),
                     feint_problem_name(k.pb), vi.name, p, what);
            expect_fail(&d, NE, geo, coef, FEINT_ERR_DEGENERATE, "element 4 ", full);
          }
          /* a sliver of aspect ratio 1e10 is accepted at every scale */
          for (size_t e = 0; e < NE; e++)
            for (size_t i = 0; i < k.ng; i++) geo[e * k.ng + i] = ldexp(unit[i], p);
          double *x = geo + 4 * k.ng;
          if (el == FEINT_TET4)
            for (int a = 0; a < 3; a++) x[9 + a] = ldexp((unit_tet[0][a] + unit_tet[1][a] + unit_tet[2][a]) / 3 + 1e-10 * (a == 2), p);
          const feint_status st = feint_integrate(&d, NE, geo, coef, A, b);
          CHECK(st == FEINT_SUCCESS || (st == FEINT_ERR_NOT_FINITE && p > 300),
                "%s %s: aspect ratio 1e10 at scale 2^%d refused: %s", feint_element_name(k.el),
                vi.name, p, feint_last_error());
          for (size_t i = 0; st == FEINT_SUCCESS && i < NE * k.na; i++)
            if (!isfinite(A[i])) {
              TEST_FAIL("%s %s scale 2^%d: non-finite A entry on success", feint_element_name(k.el), vi.name, p);
              break;
            }
        }
        /* coefficients: NaN, inf -> FEINT_ERR_NOT_FINITE naming them */
        for (size_t e = 0; e < NE; e++)
          for (size_t i = 0; i < k.ng; i++) geo[e * k.ng + i] = unit[i];
        const double badc[3] = {NAN, INFINITY, -INFINITY};
        for (int c = 0; c < 3; c++) {
          double cf[NE * MAXC];
          memcpy(cf, coef, sizeof cf);
          cf[6 * k.nc + k.nc - 1] = badc[c];
          expect_fail(&d, NE, geo, cf, FEINT_ERR_NOT_FINITE, "coeffs of element 6", "non-finite coefficient");
        }
        /* huge finite coefficients: finite results or FEINT_ERR_NOT_FINITE */
        const double huge[3] = {1e300, 0x1p1000, DBL_MAX};
        for (int c = 0; c < 3; c++) {
          double cf[NE * MAXC];
          for (size_t i = 0; i < NE * k.nc; i++) cf[i] = i % 3 ? huge[c] : -huge[c];
          const feint_status st = feint_integrate(&d, NE, geo, cf, A, b);
          /* a negative kappa, lambda or mu is refused by name */
          const int material = pb != FEINT_POISSON && pb != FEINT_CONVDIFF;
          CHECK(st == FEINT_SUCCESS || st == FEINT_ERR_NOT_FINITE ||
                    (material && st == FEINT_ERR_BAD_COEFF),
                "%s coefficients %g: status %d: %s", feint_problem_name(k.pb), huge[c], (int)st,
                feint_last_error());
          int finite = 1;
          for (size_t i = 0; st == FEINT_SUCCESS && i < NE * k.na; i++) finite &= isfinite(A[i]) != 0;
          for (size_t i = 0; st == FEINT_SUCCESS && i < NE * k.nb; i++) finite &= isfinite(b[i]) != 0;
          CHECK(finite, "%s %s coefficients %g: success with a non-finite entry",
                feint_element_name(k.el), vi.name, huge[c]);
        }
        /* 1e300 Poisson loads on unit elements are representable: success */
        if (pb == FEINT_POISSON) {
          double cf[NE * MAXC];
          for (size_t i = 0; i < NE * k.nc; i++) cf[i] = 1e300;
          CHECK_STATUS(feint_integrate(&d, NE, geo, cf, A, b), FEINT_SUCCESS, NULL);
        }
      }
    }
}

/* 3. Sizes: the reference checks every array (coefficients included). */
static void check_sizes(void) {
  double g[18] = {0}, c[20] = {0}, A[36], b[6];
  memset(A, SENT, sizeof A);
  const size_t huge[3] = {SIZE_MAX / 160 + 1, SIZE_MAX / 8, SIZE_MAX};
  for (int i = 0; i < 3; i++) {
    CHECK_STATUS(feint_integrate_reference(FEINT_TET4, FEINT_CONVDIFF, huge[i], g, c, A, b, NULL, NULL),
                 FEINT_ERR_BAD_SIZE, "overflow");
    CHECK_STATUS(feint_integrate_reference(FEINT_PRISM6, FEINT_POISSON, huge[i], g, c, A, b, A, b),
                 FEINT_ERR_BAD_SIZE, "overflow");
  }
  unsigned char sent[sizeof A];
  memset(sent, SENT, sizeof sent);
  CHECK(memcmp(A, sent, sizeof A) == 0, "reference wrote A on a size error");
  size_t len;
  CHECK_STATUS(feint_array_len(FEINT_PRISM6, FEINT_CONVDIFF, FEINT_ARRAY_COEFFS, FEINT_LAYOUT_BLOCKED,
                               SIZE_MAX / 160 + 1, &len),
               FEINT_ERR_BAD_SIZE, NULL);
  const feint_integrate_desc d = {FEINT_TET4, FEINT_CONVDIFF, FEINT_QSS_GEO_LINEAR, 0, 0, 0, 0, 0};
  expect_fail(&d, SIZE_MAX / 160 + 1, g, c, FEINT_ERR_BAD_SIZE, "overflow", "num_elem overflow");
  double dst[64];
  CHECK_STATUS(feint_layout_convert(SIZE_MAX / 8, 3, FEINT_LAYOUT_NATURAL, g, FEINT_LAYOUT_BLOCKED, dst),
               FEINT_ERR_BAD_SIZE, "overflows");
  size_t n;
  CHECK_STATUS(feint_mesh_box_count(FEINT_TET4, SIZE_MAX, 2, 2, &n), FEINT_ERR_BAD_SIZE, "overflow");
}

/* 4. Padding lanes: never read (NaN there changes nothing) and never
 * written, by the conversions and by integration. */
static void check_padding(void) {
  const size_t B = FEINT_BLOCK_LEN;
  for (size_t n = 1; n <= 2 * B + 1; n++) {
    const size_t size = 3, padded = (n + B - 1) / B * B;
    double src[24 * 3], dst[24 * 3], nat[24 * 3];
    for (size_t i = 0; i < padded * size; i++) src[i] = NAN;
    for (size_t e = 0; e < n; e++)
      for (size_t k = 0; k < size; k++) src[at(FEINT_LAYOUT_BLOCKED, size, e, k)] = (double)(e * 10 + k);
    memset(dst, SENT, sizeof dst);
    CHECK_STATUS(feint_layout_convert(n, size, FEINT_LAYOUT_BLOCKED, src, FEINT_LAYOUT_BLOCKED, dst),
                 FEINT_SUCCESS, NULL);
    int bad = 0;
    unsigned char sent[8];
    memset(sent, SENT, 8);
    for (size_t e = 0; e < padded; e++)
      for (size_t k = 0; k < size; k++) {
        const size_t i = at(FEINT_LAYOUT_BLOCKED, size, e, k);
        bad += e < n ? dst[i] != src[i] : memcmp(&dst[i], sent, 8) != 0;
      }
    CHECK(bad == 0, "blocked -> blocked, %zu elements: %d entries wrong or padding written", n, bad);
    CHECK_STATUS(feint_layout_convert(n, size, FEINT_LAYOUT_BLOCKED, src, FEINT_LAYOUT_NATURAL, nat),
                 FEINT_SUCCESS, NULL);
    for (size_t i = 0; i < n * size; i++) bad += isnan(nat[i]);
    CHECK(bad == 0, "blocked -> natural, %zu elements: padding NaN read", n);
  }
  /* integration with NaN in every padding lane of the blocked inputs */
  for (int el = 0; el < FEINT_ELEMENT_COUNT; el++)
    for (int pb = 0; pb < FEINT_PROBLEM_COUNT; pb++) {
      const kase k = kase_of(el, pb);
      const double *unit = unit_of(k.el);
      static double A[16 * MAXA];
      double gn[MAXG], cn[NE * MAXC], g[16 * 24], c[16 * MAXC], b[16 * MAXB];
      for (size_t e = 0; e < NE; e++) {
        for (size_t i = 0; i < k.ng; i++) gn[e * k.ng + i] = unit[i] + (double)e;
        coeffs_of(&k, e, cn + e * k.nc);
      }
      to_layout(k.ng, FEINT_LAYOUT_BLOCKED, gn, g); /* NaN padding */
      to_layout(k.nc, FEINT_LAYOUT_BLOCKED, cn, c);
      memset(A, SENT, sizeof A);
      memset(b, SENT, sizeof b);
      const feint_integrate_desc d = {k.el, k.pb, FEINT_QSS_GEO_GENERIC, FEINT_LAYOUT_BLOCKED, FEINT_LAYOUT_BLOCKED, 0, 0, 0};
      CHECK_STATUS(feint_integrate(&d, NE, g, c, A, b), FEINT_SUCCESS, NULL);
      unsigned char sent[8];
      memset(sent, SENT, 8);
      int bad = 0;
      for (size_t e = 0; e < 16; e++)
        for (size_t kk = 0; kk < k.na; kk++) {
          const double *p = &A[at(FEINT_LAYOUT_BLOCKED, k.na, e, kk)];
          bad += e < NE ? !isfinite(*p) : memcmp(p, sent, 8) != 0;
        }
      CHECK(bad == 0, "%s/%s blocked: %d entries non-finite or padding written",
            feint_element_name(k.el), feint_problem_name(k.pb), bad);
    }
}

/* 5. The mesh generator: amplitudes >= 1/6 refused; just below it, every
 * element of many seeds passes the validation pass. */
static void check_mesh_amplitude(void) {
  static double geo[6 * 6 * 6 * 6 * 18];
  CHECK_STATUS(feint_mesh_box(FEINT_TET4, 6, 6, 6, FEINT_PERTURB_GENERAL, 0.249, 831495,
                              FEINT_LAYOUT_NATURAL, geo),
               FEINT_ERR_OUT_OF_RANGE, "1/6");
  CHECK_STATUS(feint_mesh_box(FEINT_PRISM6, 6, 6, 6, FEINT_PERTURB_GENERAL, 1.0 / 6.0, 1,
                              FEINT_LAYOUT_NATURAL, geo),
               FEINT_ERR_OUT_OF_RANGE, "amplitude");
  for (int el = 0; el < FEINT_ELEMENT_COUNT; el++) {
    const kase k = kase_of(el, FEINT_POISSON);
    size_t ne;
    feint_mesh_box_count(k.el, 6, 6, 6, &ne);
    double *coef = calloc(ne * k.nc, sizeof(double));
    double *A = malloc(ne * k.na * sizeof(double)), *b = malloc(ne * k.nb * sizeof(double));
    const feint_integrate_desc d = {k.el, FEINT_POISSON, FEINT_QSS_GEO_GENERIC, 0, 0, 0, 0, 0};
    int fails = 0;
    for (unsigned long long seed = 831490; seed < 831500 + 40 * (unsigned long long)!el; seed++) {
      CHECK_STATUS(feint_mesh_box(k.el, 6, 6, 6, FEINT_PERTURB_GENERAL, 0.1666, seed,
                                  FEINT_LAYOUT_NATURAL, geo),
                   FEINT_SUCCESS, NULL);
      fails += feint_integrate(&d, ne, geo, coef, A, b) != FEINT_SUCCESS;
    }
    CHECK(fails == 0, "%s: %d seeds at amplitude 0.1666 gave an invalid element: %s",
          feint_element_name(k.el), fails, feint_last_error());
    free(coef), free(A), free(b);
  }
}

/* 6. num_elem = 0 is a successful call: feint_last_execution describes it
 * (on a fresh thread, whose record starts empty). */
static void *fresh_thread(void *arg) {
  (void)arg;
  feint_execution ex;
  CHECK_STATUS(feint_last_execution(&ex), FEINT_ERR_UNSUPPORTED, NULL);
  const feint_integrate_desc host = {FEINT_TET4, FEINT_POISSON, FEINT_QSS_GEO_LINEAR, 0, 0, 0, 0, 0};
  CHECK_STATUS(feint_integrate(&host, 0, NULL, NULL, NULL, NULL), FEINT_SUCCESS, NULL);
  CHECK_STATUS(feint_last_execution(&ex), FEINT_SUCCESS, NULL);
  CHECK(ex.ran_on == FEINT_TARGET_HOST && !ex.host_fallback, "num_elem = 0 host call: ran_on %d fallback %d",
        (int)ex.ran_on, ex.host_fallback);
  if (!feint_offload_built()) { /* a device call falls back: num_elem = 0 says so too */
    const feint_integrate_desc dev = {FEINT_TET4, FEINT_POISSON, FEINT_QSS_GEO_LINEAR, 0, 0,
                                      FEINT_FLAG_ALLOW_HOST_FALLBACK, FEINT_TARGET_DEVICE, 0};
    CHECK_STATUS(feint_integrate(&dev, 0, NULL, NULL, NULL, NULL), FEINT_SUCCESS, NULL);
    CHECK_STATUS(feint_last_execution(&ex), FEINT_SUCCESS, NULL);
    CHECK(ex.host_fallback == 1, "num_elem = 0 device call with fallback: host_fallback %d",
          ex.host_fallback);
  }
  return NULL;
}

static void check_empty_call(void) {
  pthread_t t;
  if (pthread_create(&t, NULL, fresh_thread, NULL) != 0) {
    TEST_FAIL("pthread_create failed");
    return;
  }
  pthread_join(t, NULL);
}

/* 7. Platform files: a NUL byte hides nothing. */
static void check_platform_nul(void) {
  char path[] = "/tmp/feint_t003_XXXXXX";
  const int fd = mkstemp(path);
  if (fd < 0) {
    TEST_FAIL("mkstemp failed");
    return;
  }
  static const char text[] =
      "name = demo\ndescription = d\npeak_gflops = 1\npeak_gbs = 1\nbench_gflops = 1\n"
      "bench_gbs = 1\nsource_peak_gflops = s\nsource_peak_gbs = s\nsource_bench_gflops = s\n"
      "source_bench_gbs = s\n\0garbage = yes\nname = second\n";
  const ssize_t w = write(fd, text, sizeof text - 1);
  close(fd);
  CHECK(w == (ssize_t)sizeof text - 1, "short write");
  feint_pm_platform p, untouched;
  memset(&p, 0x77, sizeof p);
  memcpy(&untouched, &p, sizeof p);
  CHECK_STATUS(feint_pm_platform_load(path, &p), FEINT_ERR_BAD_SIZE, "NUL byte at offset");
  CHECK(memcmp(&p, &untouched, sizeof p) == 0, "platform output written on error");
  unlink(path);
}

/* 8. Concurrent bad calls: each thread's error record is its own. */
static void *bad_calls(void *arg) {
  const int id = (int)(intptr_t)arg;
  double g[12], c[4], A[16], b[4];
  for (int i = 0; i < 12; i++) g[i] = unit_tet[i / 3][i % 3];
  for (int i = 0; i < 4; i++) c[i] = 1.0;
  for (int rep = 0; rep < 200; rep++) {
    feint_integrate_desc d = {FEINT_TET4, FEINT_POISSON, FEINT_QSS_GEO_LINEAR, 0, 0, 0, 0, 0};
    char expect[64];
    if (rep % 2) {
      d.variant = (feint_variant)(100 + id);
      snprintf(expect, sizeof expect, "desc->variant = %d", 100 + id);
    } else {
      c[0] = id % 2 ? NAN : INFINITY; /* element 0's coefficient */
      snprintf(expect, sizeof expect, "entry 0 = %s", id % 2 ? "nan" : "inf");
    }
    const feint_status st = feint_integrate(&d, 1, g, c, A, b);
    if (st == FEINT_SUCCESS || strstr(feint_last_error(), expect) == NULL) {
      TEST_FAIL("thread %d: status %d, message \"%s\" lacks \"%s\"", id, (int)st,
                feint_last_error(), expect);
      break;
    }
    c[0] = 1.0;
  }
  return NULL;
}

static void check_threads(void) {
  pthread_t t[8];
  int started = 0;
  for (int i = 0; i < 8; i++) started += pthread_create(&t[i], NULL, bad_calls, (void *)(intptr_t)i) == 0;
  CHECK(started == 8, "only %d of 8 threads started", started);
  for (int i = 0; i < started; i++) pthread_join(t[i], NULL);
}

int main(void) {
  check_scales();
  check_bad_geometry();
  check_sizes();
  check_padding();
  check_mesh_amplitude();
  check_empty_call();
  check_platform_nul();
  check_threads();
  return test_finish("t003_adversarial");
}
