/* t502_offload_equals_host: for every case x variant x input layout x output
 * layout, on >= 10,000 distinct perturbed elements (the meshes of
 * t301_variants), feint_integrate with target DEVICE equals target HOST and
 * the serial reference within t301's round-off tolerance
 *   |x - x_ref| <= 2 (n_terms + 16) eps S
 * (S: A_abs / b_abs of feint_integrate_reference; the derivation is in
 * t301_variants.c - host and device are two variants of the same sums, each
 * within (n_terms + 16) eps S of the exact value, so the same bound holds
 * between them).  Both memory spaces: host arrays (copied per call) and,
 * with a device, device pointers (feint_device_alloc / copy); padding lanes of
 * blocked outputs stay untouched.
 * Without a device the offload build runs the device code on the host (host
 * fallback, e.g. OMP_TARGET_OFFLOAD=DISABLED in CI) and a host-only build
 * the host code; with OMP_TARGET_OFFLOAD=MANDATORY every call must have run
 * on the device (no fallback flag; feint_last_execution checked). */
#include <stdlib.h>
#include <strings.h>

#include "test_util.h"

#define NUM_CELLS_TET 12   /* 6 * 12^3 = 10368 tetrahedra */
#define NUM_CELLS_PRISM 18 /* 2 * 18 * 18 * 16 = 10368 prisms */
#define SENTINEL -777.0

static int g_mandatory, g_devices;

static double *alloc_doubles(size_t n) {
  const size_t bytes = ((n + 8) * sizeof(double) + 63) / 64 * 64;
  void *p = aligned_alloc(64, bytes);
  if (p == NULL) {
    fprintf(stderr, "allocation of %zu doubles failed\n", n);
    exit(2);
  }
  return p;
}

static void fill(double *x, size_t n, double v) {
  for (size_t i = 0; i < n; i++) x[i] = v;
}

/* Compare out (layout lout) with the host result and the reference; check
 * the padding lanes of a blocked output still hold the sentinel. */
static void compare(const char *what, size_t num_elem, size_t na, size_t nb, feint_layout lout,
                    const double *A, const double *b, const double *A_host, const double *b_host,
                    const double *A_ref, const double *b_ref, const double *A_abs,
                    const double *b_abs, double n_terms, double *A_nat, double *b_nat) {
  const size_t B = FEINT_BLOCK_LEN, padded = (num_elem + B - 1) / B * B;
  if (lout == FEINT_LAYOUT_BLOCKED)
    for (size_t e = num_elem; e < padded; e++) {
      const size_t base = e / B * B, lane = e % B;
      for (size_t k = 0; k < na; k++)
        CHECK(A[base * na + k * B + lane] == SENTINEL, "%s: padding lane %zu of A_e was written",
              what, e);
      for (size_t k = 0; k < nb; k++)
        CHECK(b[base * nb + k * B + lane] == SENTINEL, "%s: padding lane %zu of b_e was written",
              what, e);
    }
  feint_layout_convert(num_elem, na, lout, A, FEINT_LAYOUT_NATURAL, A_nat);
  feint_layout_convert(num_elem, nb, lout, b, FEINT_LAYOUT_NATURAL, b_nat);
  const double scale = 2.0 * (n_terms + 16.0);
  int reported = 0;
  for (size_t i = 0; i < num_elem * (na + nb) && reported < 3; i++) {
    const int is_a = i < num_elem * na;
    const size_t j = is_a ? i : i - num_elem * na;
    const double x = is_a ? A_nat[j] : b_nat[j], h = is_a ? A_host[j] : b_host[j];
    const double r = is_a ? A_ref[j] : b_ref[j], s = is_a ? A_abs[j] : b_abs[j];
    const size_t size = is_a ? na : nb;
    if (!test_close(x, h, scale, s, 1.0) || !test_close(x, r, scale, s, 1.0)) {
      TEST_FAIL("%s: element %zu %s[%zu] = %.17g, host %.17g, reference %.17g, diff to host "
                "%.3g, tol %.3g",
                what, j / size, is_a ? "A" : "b", j % size, x, h, r, fabs(x - h),
                scale * DBL_EPSILON * s);
      reported++;
    }
  }
}

static void check_ran(const char *what, int on_device_expected) {
  feint_execution ex;
  if (feint_last_execution(&ex) != FEINT_SUCCESS) {
    TEST_FAIL("%s: feint_last_execution failed: %s", what, feint_last_error());
    return;
  }
  if (on_device_expected)
    CHECK(ex.ran_on == FEINT_TARGET_DEVICE && !ex.host_fallback,
          "%s: did not run on the device (ran_on %d, host_fallback %d)", what, (int)ex.ran_on,
          ex.host_fallback);
  else
    CHECK(ex.ran_on == FEINT_TARGET_HOST && ex.host_fallback,
          "%s: no device, yet not recorded as host fallback (ran_on %d, host_fallback %d)", what,
          (int)ex.ran_on, ex.host_fallback);
}

static void run_case(feint_element el, feint_problem pb) {
  feint_element_info ei;
  feint_element_get_info(el, &ei);
  const size_t cells = el == FEINT_TET4 ? NUM_CELLS_TET : NUM_CELLS_PRISM;
  const size_t nz = el == FEINT_TET4 ? cells : 16;
  size_t mesh_elem;
  feint_mesh_box_count(el, cells, cells, nz, &mesh_elem);
  const size_t num_elem = mesh_elem - 3; /* a partial last block */
  size_t ng, nc, na, nb;
  feint_array_entries(el, pb, FEINT_ARRAY_GEOMETRY, &ng);
  feint_array_entries(el, pb, FEINT_ARRAY_COEFFS, &nc);
  feint_array_entries(el, pb, FEINT_ARRAY_A, &na);
  feint_array_entries(el, pb, FEINT_ARRAY_B, &nb);
  const size_t padded = (num_elem + FEINT_BLOCK_LEN - 1) / FEINT_BLOCK_LEN * FEINT_BLOCK_LEN;

  double *geo_mesh[2], *geo_in[2][2], *coef_in[2];
  double *coef = alloc_doubles(padded * nc);
  test_rng rng = {0x5eed0000u + (unsigned)(2 * el + pb)};
  for (size_t i = 0; i < num_elem * nc; i++) coef[i] = test_rng_uniform(&rng, -1.0, 1.0);
  for (int m = 0; m < 2; m++) {
    geo_mesh[m] = alloc_doubles(mesh_elem * ng);
    CHECK_STATUS(feint_mesh_box(el, cells, cells, nz,
                                m == 0 ? FEINT_PERTURB_GENERAL : FEINT_PERTURB_AFFINE, 0.2,
                                1234 + m, FEINT_LAYOUT_NATURAL, geo_mesh[m]),
                 FEINT_SUCCESS, NULL);
    geo_in[m][FEINT_LAYOUT_NATURAL] = geo_mesh[m];
    geo_in[m][FEINT_LAYOUT_BLOCKED] = alloc_doubles(padded * ng);
    feint_layout_convert(num_elem, ng, FEINT_LAYOUT_NATURAL, geo_mesh[m], FEINT_LAYOUT_BLOCKED,
                         geo_in[m][FEINT_LAYOUT_BLOCKED]);
  }
  coef_in[FEINT_LAYOUT_NATURAL] = coef;
  coef_in[FEINT_LAYOUT_BLOCKED] = alloc_doubles(padded * nc);
  feint_layout_convert(num_elem, nc, FEINT_LAYOUT_NATURAL, coef, FEINT_LAYOUT_BLOCKED,
                       coef_in[FEINT_LAYOUT_BLOCKED]);

  double *A_ref[2], *b_ref[2], *A_abs[2], *b_abs[2];
  for (int m = 0; m < 2; m++) {
    A_ref[m] = alloc_doubles(num_elem * na);
    b_ref[m] = alloc_doubles(num_elem * nb);
    A_abs[m] = alloc_doubles(num_elem * na);
    b_abs[m] = alloc_doubles(num_elem * nb);
    CHECK_STATUS(feint_integrate_reference(el, pb, num_elem, geo_mesh[m], coef, A_ref[m], b_ref[m],
                                           A_abs[m], b_abs[m]),
                 FEINT_SUCCESS, NULL);
  }
  const double n_terms = (double)ei.num_qpts * (pb == FEINT_POISSON ? 3 : 16);

  /* device copies of the inputs (one per mesh and layout) and outputs */
  const int have_dev = g_devices > 0;
  double *d_geo[2][2] = {{NULL, NULL}, {NULL, NULL}}, *d_coef[2] = {NULL, NULL}, *d_A = NULL,
         *d_b = NULL;
  if (have_dev) {
    for (int l = 0; l < 2; l++) {
      const size_t lg = (l ? padded : num_elem) * ng, lc = (l ? padded : num_elem) * nc;
      for (int m = 0; m < 2; m++) {
        CHECK_STATUS(feint_device_alloc(0, lg * 8, (void **)&d_geo[m][l]), FEINT_SUCCESS, NULL);
        CHECK_STATUS(feint_device_copy_to(0, d_geo[m][l], geo_in[m][l], lg * 8), FEINT_SUCCESS,
                     NULL);
      }
      CHECK_STATUS(feint_device_alloc(0, lc * 8, (void **)&d_coef[l]), FEINT_SUCCESS, NULL);
      CHECK_STATUS(feint_device_copy_to(0, d_coef[l], coef_in[l], lc * 8), FEINT_SUCCESS, NULL);
    }
    CHECK_STATUS(feint_device_alloc(0, padded * na * 8, (void **)&d_A), FEINT_SUCCESS, NULL);
    CHECK_STATUS(feint_device_alloc(0, padded * nb * 8, (void **)&d_b), FEINT_SUCCESS, NULL);
  }

  double *A_host = alloc_doubles(padded * na), *b_host = alloc_doubles(padded * nb);
  double *A_hn = alloc_doubles(num_elem * na), *b_hn = alloc_doubles(num_elem * nb);
  double *A = alloc_doubles(padded * na), *b = alloc_doubles(padded * nb);
  double *A_nat = alloc_doubles(num_elem * na), *b_nat = alloc_doubles(num_elem * nb);
  for (int v = 0; v < FEINT_VARIANT_COUNT; v++) {
    feint_variant_info vi;
    feint_variant_get_info((feint_variant)v, &vi);
    const int m = vi.geo_linear && el == FEINT_PRISM6 ? 1 : 0;
    for (int lin = 0; lin < FEINT_LAYOUT_COUNT; lin++)
      for (int lout = 0; lout < FEINT_LAYOUT_COUNT; lout++) {
        char what[160];
        feint_integrate_desc desc = {el, pb, (feint_variant)v, (feint_layout)lin,
                                     (feint_layout)lout, 0, FEINT_TARGET_HOST, 0};
        /* host result, natural layout for the comparisons */
        CHECK_STATUS(feint_integrate(&desc, num_elem, geo_in[m][lin], coef_in[lin], A_host,
                                     b_host),
                     FEINT_SUCCESS, NULL);
        feint_layout_convert(num_elem, na, lout, A_host, FEINT_LAYOUT_NATURAL, A_hn);
        feint_layout_convert(num_elem, nb, lout, b_host, FEINT_LAYOUT_NATURAL, b_hn);
        /* device target, host arrays */
        desc.target = FEINT_TARGET_DEVICE;
        desc.flags = g_mandatory ? 0 : FEINT_FLAG_ALLOW_HOST_FALLBACK;
        snprintf(what, sizeof what, "%s/%s %s in=%s out=%s device target, host arrays", ei.name,
                 feint_problem_name(pb), vi.name, feint_layout_name(lin), feint_layout_name(lout));
        fill(A, padded * na, SENTINEL);
        fill(b, padded * nb, SENTINEL);
        CHECK_STATUS(feint_integrate(&desc, num_elem, geo_in[m][lin], coef_in[lin], A, b),
                     FEINT_SUCCESS, NULL);
        check_ran(what, have_dev);
        compare(what, num_elem, na, nb, (feint_layout)lout, A, b, A_hn, b_hn, A_ref[m], b_ref[m],
                A_abs[m], b_abs[m], n_terms, A_nat, b_nat);
        if (!have_dev) continue;
        /* device target, device pointers */
        snprintf(what, sizeof what, "%s/%s %s in=%s out=%s device pointers", ei.name,
                 feint_problem_name(pb), vi.name, feint_layout_name(lin), feint_layout_name(lout));
        fill(A, padded * na, SENTINEL);
        fill(b, padded * nb, SENTINEL);
        feint_device_copy_to(0, d_A, A, padded * na * 8);
        feint_device_copy_to(0, d_b, b, padded * nb * 8);
        desc.flags = FEINT_FLAG_DEVICE_POINTERS;
        CHECK_STATUS(feint_integrate(&desc, num_elem, d_geo[m][lin], d_coef[lin], d_A, d_b),
                     FEINT_SUCCESS, NULL);
        check_ran(what, 1);
        CHECK_STATUS(feint_device_copy_from(0, A, d_A, padded * na * 8), FEINT_SUCCESS, NULL);
        CHECK_STATUS(feint_device_copy_from(0, b, d_b, padded * nb * 8), FEINT_SUCCESS, NULL);
        compare(what, num_elem, na, nb, (feint_layout)lout, A, b, A_hn, b_hn, A_ref[m], b_ref[m],
                A_abs[m], b_abs[m], n_terms, A_nat, b_nat);
      }
  }
  if (have_dev) {
    for (int l = 0; l < 2; l++) {
      feint_device_free(0, d_geo[0][l]);
      feint_device_free(0, d_geo[1][l]);
      feint_device_free(0, d_coef[l]);
    }
    feint_device_free(0, d_A);
    feint_device_free(0, d_b);
  }
  free(A_host); free(b_host); free(A_hn); free(b_hn); free(A); free(b); free(A_nat); free(b_nat);
  free(coef); free(coef_in[1]);
  for (int m = 0; m < 2; m++) {
    free(geo_mesh[m]); free(geo_in[m][1]); free(A_ref[m]); free(b_ref[m]);
    free(A_abs[m]); free(b_abs[m]);
  }
}

int main(void) {
  const char *mode = getenv("OMP_TARGET_OFFLOAD");
  g_mandatory = mode && strcasecmp(mode, "MANDATORY") == 0;
  feint_device_count(&g_devices);
  if (g_mandatory && g_devices == 0) {
    TEST_FAIL("OMP_TARGET_OFFLOAD=MANDATORY but feint sees no device (offload built: %d)",
              feint_offload_built());
    return test_finish("t502_offload_equals_host");
  }
  for (int el = 0; el < FEINT_ELEMENT_COUNT; el++)
    for (int pb = 0; pb < FEINT_PROBLEM_COUNT; pb++) run_case((feint_element)el, (feint_problem)pb);
  if (g_devices == 0)
    printf("t502_offload_equals_host: no device: device target ran as host fallback (%s); the "
           "device-pointer half needs a GPU\n",
           feint_offload_built() ? "device code on the host" : "host-only build: host code");
  return test_finish("t502_offload_equals_host");
}
