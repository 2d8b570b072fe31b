/* t501_device_api: the device API and the device target of feint_integrate:
 * argument errors, a host-only build (or no GPU) reporting FEINT_ERR_NO_DEVICE
 * with outputs untouched, host fallback reported by feint_last_execution, and
 * with a device: allocation / copy round trip, integration on device
 * pointers, the validation pass on device-resident geometry.
 * OMP_TARGET_OFFLOAD=MANDATORY: fails unless a device is present and used. */
#include <stdlib.h>
#include <strings.h>

#include "test_util.h"

#define NUM_TET 16

static void tet_batch(double *geo, double *coef) {
  static const double ref[4][3] = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
  for (int e = 0; e < NUM_TET; e++) {
    for (int n = 0; n < 4; n++)
      for (int a = 0; a < 3; a++)
        geo[(e * 4 + n) * 3 + a] = ref[n][a] * (1.0 + 0.01 * e) + (a == 0 ? 2.0 * e : 0.0);
    for (int q = 0; q < 4; q++) coef[e * 4 + q] = 1.0 + 0.1 * q + 0.01 * e;
  }
}

static int mandatory(void) {
  const char *v = getenv("OMP_TARGET_OFFLOAD");
  return v && strcasecmp(v, "MANDATORY") == 0;
}

static int all_equal(const double *x, double v, size_t n) {
  for (size_t i = 0; i < n; i++)
    if (x[i] != v) return 0;
  return 1;
}

int main(void) {
  double geo[NUM_TET * 12], coef[NUM_TET * 4], A[NUM_TET * 16], b[NUM_TET * 4];
  double A_host[NUM_TET * 16], b_host[NUM_TET * 4];
  tet_batch(geo, coef);
  int count = -1;
  CHECK_STATUS(feint_device_count(NULL), FEINT_ERR_NULL_ARG, "count is NULL");
  CHECK_STATUS(feint_device_count(&count), FEINT_SUCCESS, NULL);
  CHECK(count >= 0, "feint_device_count gave %d", count);
  if (!feint_offload_built()) CHECK(count == 0, "host-only build reports %d devices", count);
  if (mandatory()) CHECK(count > 0, "OMP_TARGET_OFFLOAD=MANDATORY but %d devices", count);
  CHECK_STATUS(feint_last_execution(NULL), FEINT_ERR_NULL_ARG, "exec is NULL");

  /* host reference call, and its execution record */
  feint_integrate_desc d = {FEINT_TET4, FEINT_POISSON, FEINT_QSS_GEO_LINEAR, FEINT_LAYOUT_NATURAL,
                            FEINT_LAYOUT_NATURAL, 0, FEINT_TARGET_HOST, 0};
  feint_execution ex;
  CHECK_STATUS(feint_integrate(&d, NUM_TET, geo, coef, A_host, b_host), FEINT_SUCCESS, NULL);
  CHECK_STATUS(feint_last_execution(&ex), FEINT_SUCCESS, NULL);
  CHECK(ex.ran_on == FEINT_TARGET_HOST && ex.device == -1 && ex.host_fallback == 0,
        "host call recorded as ran_on %d device %d fallback %d", (int)ex.ran_on, ex.device,
        ex.host_fallback);

  /* descriptor errors of the device fields; outputs untouched */
  void *p = NULL;
  for (int k = 0; k < 5; k++) {
    feint_integrate_desc bad = d;
    feint_status want = FEINT_ERR_OUT_OF_RANGE;
    const char *msg = NULL;
    switch (k) {
      case 0: bad.target = (feint_target)7; msg = "desc->target = 7"; break;
      case 1: bad.target = (feint_target)-1; msg = "desc->target = -1"; break;
      case 2: bad.target = FEINT_TARGET_DEVICE; bad.device = -1; msg = "desc->device = -1"; break;
      case 3:
        bad.flags = FEINT_FLAG_DEVICE_POINTERS; /* with the host target */
        want = FEINT_ERR_UNSUPPORTED;
        msg = "FEINT_FLAG_DEVICE_POINTERS";
        break;
      default:
        bad.target = FEINT_TARGET_DEVICE; /* a device that does not exist */
        bad.device = count;
        want = FEINT_ERR_NO_DEVICE;
        msg = "FEINT_FLAG_ALLOW_HOST_FALLBACK";
        break;
    }
    for (size_t i = 0; i < NUM_TET * 16; i++) A[i] = -777.0;
    for (size_t i = 0; i < NUM_TET * 4; i++) b[i] = -777.0;
    CHECK_STATUS(feint_integrate(&bad, NUM_TET, geo, coef, A, b), want, msg);
    CHECK(all_equal(A, -777.0, NUM_TET * 16) && all_equal(b, -777.0, NUM_TET * 4),
          "case %d: outputs written on an error path", k);
  }

  /* device pointers on a device that does not exist cannot fall back */
  {
    feint_integrate_desc dp = d;
    dp.target = FEINT_TARGET_DEVICE;
    dp.device = count;
    dp.flags = FEINT_FLAG_DEVICE_POINTERS | FEINT_FLAG_ALLOW_HOST_FALLBACK;
    CHECK_STATUS(feint_integrate(&dp, NUM_TET, geo, coef, A, b), FEINT_ERR_NO_DEVICE,
                 "cannot fall back");
  }

  /* with host fallback: succeeds and says where it ran */
  {
    feint_integrate_desc fb = d;
    fb.target = FEINT_TARGET_DEVICE;
    fb.device = count; /* never exists */
    fb.flags = FEINT_FLAG_ALLOW_HOST_FALLBACK;
    CHECK_STATUS(feint_integrate(&fb, NUM_TET, geo, coef, A, b), FEINT_SUCCESS, NULL);
    CHECK_STATUS(feint_last_execution(&ex), FEINT_SUCCESS, NULL);
    CHECK(ex.ran_on == FEINT_TARGET_HOST && ex.host_fallback == 1 && ex.device == -1,
          "fallback call recorded as ran_on %d device %d fallback %d", (int)ex.ran_on,
          ex.device, ex.host_fallback);
    for (size_t i = 0; i < NUM_TET * 16; i++)
      CHECK_CLOSE(A[i], A_host[i], 64, fabs(A_host[i]) + 1.0, 1.0, "fallback A vs host A");
    for (size_t i = 0; i < NUM_TET * 4; i++)
      CHECK_CLOSE(b[i], b_host[i], 64, fabs(b_host[i]) + 1.0, 1.0, "fallback b vs host b");
  }

  /* device memory API errors */
  CHECK_STATUS(feint_device_alloc(0, 64, NULL), FEINT_ERR_NULL_ARG, "ptr is NULL");
  if (count == 0) {
    const char *why = feint_offload_built() ? "no offload device" : "without offload";
    CHECK_STATUS(feint_device_alloc(0, 64, &p), FEINT_ERR_NO_DEVICE, why);
    CHECK_STATUS(feint_device_copy_to(0, geo, geo, 8), FEINT_ERR_NO_DEVICE, why);
    CHECK_STATUS(feint_device_copy_from(0, A, geo, 8), FEINT_ERR_NO_DEVICE, why);
    CHECK_STATUS(feint_device_free(0, NULL), FEINT_ERR_NO_DEVICE, why);
    feint_integrate_desc nd = d;
    nd.target = FEINT_TARGET_DEVICE;
    CHECK_STATUS(feint_integrate(&nd, NUM_TET, geo, coef, A, b), FEINT_ERR_NO_DEVICE, why);
    printf("t501_device_api: no device (%s): device memory round trip not run\n",
           feint_offload_built() ? "offload build, no GPU or OMP_TARGET_OFFLOAD=DISABLED"
                                 : "host-only build");
    return test_finish("t501_device_api");
  }

  /* ---- with a device ---- */
  CHECK_STATUS(feint_device_alloc(count, 64, &p), FEINT_ERR_OUT_OF_RANGE, "device = ");
  CHECK_STATUS(feint_device_alloc(0, 0, &p), FEINT_ERR_BAD_SIZE, "bytes = 0");
  double *dgeo = NULL, *dcoef = NULL, *dA = NULL, *db = NULL;
  CHECK_STATUS(feint_device_alloc(0, sizeof geo, (void **)&dgeo), FEINT_SUCCESS, NULL);
  CHECK_STATUS(feint_device_alloc(0, sizeof coef, (void **)&dcoef), FEINT_SUCCESS, NULL);
  CHECK_STATUS(feint_device_alloc(0, sizeof A, (void **)&dA), FEINT_SUCCESS, NULL);
  CHECK_STATUS(feint_device_alloc(0, sizeof b, (void **)&db), FEINT_SUCCESS, NULL);
  if (!dgeo || !dcoef || !dA || !db) return test_finish("t501_device_api");
  /* round trip */
  double back[NUM_TET * 12];
  CHECK_STATUS(feint_device_copy_to(0, dgeo, geo, sizeof geo), FEINT_SUCCESS, NULL);
  CHECK_STATUS(feint_device_copy_from(0, back, dgeo, sizeof back), FEINT_SUCCESS, NULL);
  CHECK(memcmp(back, geo, sizeof geo) == 0, "device round trip changed the data");
  CHECK_STATUS(feint_device_copy_to(0, dcoef, coef, sizeof coef), FEINT_SUCCESS, NULL);
  /* integration on device pointers, without fallback */
  feint_integrate_desc dd = d;
  dd.target = FEINT_TARGET_DEVICE;
  dd.flags = FEINT_FLAG_DEVICE_POINTERS;
  CHECK_STATUS(feint_integrate(&dd, NUM_TET, dgeo, dcoef, dA, db), FEINT_SUCCESS, NULL);
  CHECK_STATUS(feint_last_execution(&ex), FEINT_SUCCESS, NULL);
  CHECK(ex.ran_on == FEINT_TARGET_DEVICE && ex.device == 0 && ex.host_fallback == 0,
        "device call recorded as ran_on %d device %d fallback %d", (int)ex.ran_on, ex.device,
        ex.host_fallback);
  CHECK_STATUS(feint_device_copy_from(0, A, dA, sizeof A), FEINT_SUCCESS, NULL);
  CHECK_STATUS(feint_device_copy_from(0, b, db, sizeof b), FEINT_SUCCESS, NULL);
  for (size_t i = 0; i < NUM_TET * 16; i++)
    CHECK_CLOSE(A[i], A_host[i], 64, fabs(A_host[i]) + 1.0, 1.0, "device A vs host A");
  /* the validation pass on device-resident geometry: element 5 inverted */
  double inv[NUM_TET * 12];
  memcpy(inv, geo, sizeof geo);
  for (int a = 0; a < 3; a++) {
    const double t = inv[(5 * 4 + 1) * 3 + a];
    inv[(5 * 4 + 1) * 3 + a] = inv[(5 * 4 + 2) * 3 + a];
    inv[(5 * 4 + 2) * 3 + a] = t;
  }
  CHECK_STATUS(feint_device_copy_to(0, dgeo, inv, sizeof inv), FEINT_SUCCESS, NULL);
  CHECK_STATUS(feint_integrate(&dd, NUM_TET, dgeo, dcoef, dA, db), FEINT_ERR_DEGENERATE,
               "element 5");
  CHECK_STATUS(feint_device_free(0, dgeo), FEINT_SUCCESS, NULL);
  CHECK_STATUS(feint_device_free(0, dcoef), FEINT_SUCCESS, NULL);
  CHECK_STATUS(feint_device_free(0, dA), FEINT_SUCCESS, NULL);
  CHECK_STATUS(feint_device_free(0, db), FEINT_SUCCESS, NULL);
  return test_finish("t501_device_api");
}
