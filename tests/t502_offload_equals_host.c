/* t502_offload_equals_host: for every case x variant x input layout x output
 * layout (packed for the symmetric problems), on >= 10,000 distinct perturbed elements (variant_fixture.h, as
 * t301_variants), feint_integrate with target DEVICE equals target HOST and
 * the serial reference within the round-off tolerance
 *   |x - x_ref| <= 2 (n_terms + 16) eps S
 * derived in variant_fixture.h (host and device are two variants of the same
 * sums, each within (n_terms + 16) eps S of the exact value, so the same
 * bound holds between them).  Both memory spaces: host arrays (copied per call) and,
 * with a device, device pointers (feint_device_alloc / copy); padding lanes of
 * blocked outputs stay untouched.
 * Without a device the offload build runs the device code on the host (host
 * fallback, e.g. OMP_TARGET_OFFLOAD=DISABLED in CI) and a host-only build
 * the host code; with OMP_TARGET_OFFLOAD=MANDATORY every call must have run
 * on the device (no fallback flag; feint_last_execution checked). */
#include <strings.h>

#include "variant_fixture.h"

static int g_mandatory, g_devices;

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
  fixture f;
  fixture_setup(&f, el, pb);
  const size_t padded = f.padded, na = f.na, nb = f.nb;

  /* device copies of the inputs (one per mesh and layout) and outputs */
  const int have_dev = g_devices > 0;
  double *d_geo[2][2] = {{NULL, NULL}, {NULL, NULL}}, *d_coef[2] = {NULL, NULL}, *d_A = NULL,
         *d_b = NULL;
  if (have_dev) {
    for (int l = 0; l < 2; l++) {
      const size_t n = l ? padded : f.num_elem, lg = n * f.ng, lc = n * f.nc;
      for (int m = 0; m < 2; m++) {
        CHECK_STATUS(feint_device_alloc(0, lg * 8, (void **)&d_geo[m][l]), FEINT_SUCCESS, NULL);
        CHECK_STATUS(feint_device_copy_to(0, d_geo[m][l], f.geo[m][l], lg * 8), FEINT_SUCCESS,
                     NULL);
      }
      CHECK_STATUS(feint_device_alloc(0, lc * 8, (void **)&d_coef[l]), FEINT_SUCCESS, NULL);
      CHECK_STATUS(feint_device_copy_to(0, d_coef[l], f.coef[l], lc * 8), FEINT_SUCCESS, NULL);
    }
    CHECK_STATUS(feint_device_alloc(0, padded * na * 8, (void **)&d_A), FEINT_SUCCESS, NULL);
    CHECK_STATUS(feint_device_alloc(0, padded * nb * 8, (void **)&d_b), FEINT_SUCCESS, NULL);
  }

  double *A_host = fixture_alloc(padded * na), *b_host = fixture_alloc(padded * nb);
  double *A_hn = fixture_alloc(f.num_elem * na), *b_hn = fixture_alloc(f.num_elem * nb);
  double *A = fixture_alloc(padded * na), *b = fixture_alloc(padded * nb);
  for (int v = 0; v < FEINT_VARIANT_COUNT; v++) {
    feint_variant_info vi;
    feint_variant_get_info((feint_variant)v, &vi);
    const int m = fixture_mesh(&f, (feint_variant)v);
    for (int lin = 0; lin < FEINT_LAYOUT_COUNT; lin++)
      for (int lout = 0; lout < FEINT_LAYOUT_COUNT; lout++) {
        if (!fixture_layouts_ok(&f, lin, lout)) continue;
        char what[160];
        feint_integrate_desc desc = {el, pb, (feint_variant)v, (feint_layout)lin,
                                     (feint_layout)lout, 0, FEINT_TARGET_HOST, 0};
        /* host result, natural layout for the comparisons */
        CHECK_STATUS(feint_integrate(&desc, f.num_elem, f.geo[m][lin], f.coef[lin], A_host,
                                     b_host),
                     FEINT_SUCCESS, NULL);
        fixture_to_natural(&f, (feint_layout)lout, A_host, b_host);
        memcpy(A_hn, f.A_nat, f.num_elem * na * sizeof(double));
        memcpy(b_hn, f.b_nat, f.num_elem * nb * sizeof(double));
        /* device target, host arrays */
        desc.target = FEINT_TARGET_DEVICE;
        desc.flags = g_mandatory ? 0 : FEINT_FLAG_ALLOW_HOST_FALLBACK;
        snprintf(what, sizeof what, "%s/%s %s in=%s out=%s device target, host arrays",
                 f.ei.name, feint_problem_name(pb), vi.name, feint_layout_name(lin),
                 feint_layout_name(lout));
        fixture_poison(&f, A, b);
        CHECK_STATUS(feint_integrate(&desc, f.num_elem, f.geo[m][lin], f.coef[lin], A, b),
                     FEINT_SUCCESS, NULL);
        check_ran(what, have_dev);
        fixture_check(&f, what, m, (feint_layout)lout, A, b, A_hn, b_hn);
        if (!have_dev) continue;
        /* device target, device pointers */
        snprintf(what, sizeof what, "%s/%s %s in=%s out=%s device pointers", f.ei.name,
                 feint_problem_name(pb), vi.name, feint_layout_name(lin), feint_layout_name(lout));
        fixture_poison(&f, A, b);
        feint_device_copy_to(0, d_A, A, padded * na * 8);
        feint_device_copy_to(0, d_b, b, padded * nb * 8);
        desc.flags = FEINT_FLAG_DEVICE_POINTERS;
        CHECK_STATUS(feint_integrate(&desc, f.num_elem, d_geo[m][lin], d_coef[lin], d_A, d_b),
                     FEINT_SUCCESS, NULL);
        check_ran(what, 1);
        CHECK_STATUS(feint_device_copy_from(0, A, d_A, padded * na * 8), FEINT_SUCCESS, NULL);
        CHECK_STATUS(feint_device_copy_from(0, b, d_b, padded * nb * 8), FEINT_SUCCESS, NULL);
        fixture_check(&f, what, m, (feint_layout)lout, A, b, A_hn, b_hn);
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
  free(A_host); free(b_host); free(A_hn); free(b_hn); free(A); free(b);
  fixture_free(&f);
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
