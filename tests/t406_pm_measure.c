/* t406: the characterisation kernels: the triad computes a = b + 3c and
 * rejects misaligned arrays; the device triad rejects NULL arrays, n = 0 and
 * device numbers that are not devices (touching nothing) and, where a device
 * exists, computes a = b + 3c in each of its four launch shapes; the FMA
 * kernel runs and its flop formula is threads x iterations x chains x
 * width x 2. */
#define _POSIX_C_SOURCE 200809L
#include <omp.h>
#include <stdlib.h>

#include "feint.h"
#include "feint_perfmodel.h"
#include "test_util.h"

int main(void) {
  size_t n = 1 << 16;
  double *a = NULL, *b = NULL, *c = NULL;
  if (posix_memalign((void **)&a, 64, (n + 8) * sizeof(double)) ||
      posix_memalign((void **)&b, 64, (n + 8) * sizeof(double)) ||
      posix_memalign((void **)&c, 64, (n + 8) * sizeof(double))) {
    fprintf(stderr, "t406: allocation failed\n");
    return 1;
  }
  for (size_t i = 0; i < n + 8; i++) {
    a[i] = -1.0;
    b[i] = (double)i;
    c[i] = 0.5 * (double)i;
  }
  double t = feint_pm_time_triad(a, b, c, n);
  CHECK(t >= 0.0, "triad time %g s", t);
  int bad = 0;
  for (size_t i = 0; i < n; i++) bad += a[i] != (double)i + 3.0 * (0.5 * (double)i); /* exact */
  CHECK(bad == 0, "triad: %d wrong entries", bad);
  CHECK(a[n] == -1.0, "triad wrote past n");
  CHECK(feint_pm_time_triad(a + 1, b, c, n - 4) < 0.0, "misaligned a accepted");
  CHECK(feint_pm_time_triad(a, b, c, n - 1) < 0.0, "n not a multiple of 4 accepted");
  /* the device triad: rejections (a, b, c are host arrays: a device number
   * that passed would make the region fault or write them) */
  const int ndev = omp_get_num_devices();
  for (size_t i = 0; i < n; i++) a[i] = -1.0;
  CHECK(feint_pm_time_triad_device(NULL, b, c, n, 0, 0, 0) < 0.0, "device triad: NULL a accepted");
  CHECK(feint_pm_time_triad_device(a, NULL, c, n, 0, 0, 0) < 0.0, "device triad: NULL b accepted");
  CHECK(feint_pm_time_triad_device(a, b, NULL, n, 0, 0, 0) < 0.0, "device triad: NULL c accepted");
  CHECK(feint_pm_time_triad_device(a, b, c, 0, 0, 0, 0) < 0.0, "device triad: n = 0 accepted");
  CHECK(feint_pm_time_triad_device(a, b, c, n, -1, 0, 0) < 0.0, "device triad: device -1 accepted");
  CHECK(feint_pm_time_triad_device(a, b, c, n, ndev, 0, 0) < 0.0,
        "device triad: device %d of %d accepted", ndev, ndev);
  bad = 0;
  for (size_t i = 0; i < n; i++) bad += a[i] != -1.0;
  CHECK(bad == 0, "device triad: a rejected call wrote %d entries", bad);
  if (ndev > 0) { /* the four launch shapes on device 0 (GPU runs of the tests) */
    double *da = NULL, *db = NULL, *dc = NULL;
    const size_t bytes = n * sizeof(double);
    CHECK(feint_device_alloc(0, bytes, (void **)&da) == FEINT_SUCCESS &&
              feint_device_alloc(0, bytes, (void **)&db) == FEINT_SUCCESS &&
              feint_device_alloc(0, bytes, (void **)&dc) == FEINT_SUCCESS &&
              feint_device_copy_to(0, db, b, bytes) == FEINT_SUCCESS &&
              feint_device_copy_to(0, dc, c, bytes) == FEINT_SUCCESS,
          "device arrays: %s", feint_last_error());
    static const int shape[4][2] = {{0, 0}, {64, 0}, {0, 256}, {64, 256}}; /* teams, threads */
    for (int k = 0; k < 4 && da && db && dc; k++) {
      for (size_t i = 0; i < n; i++) a[i] = -1.0;
      feint_device_copy_to(0, da, a, bytes);
      const double td = feint_pm_time_triad_device(da, db, dc, n, 0, shape[k][0], shape[k][1]);
      CHECK(td >= 0.0, "device triad (%d teams, %d threads): %g s", shape[k][0], shape[k][1], td);
      feint_device_copy_from(0, a, da, bytes);
      bad = 0;
      for (size_t i = 0; i < n; i++) bad += a[i] != (double)i + 3.0 * (0.5 * (double)i);
      CHECK(bad == 0, "device triad (%d teams, %d threads): %d wrong entries", shape[k][0],
            shape[k][1], bad);
    }
    if (da) feint_device_free(0, da);
    if (db) feint_device_free(0, db);
    if (dc) feint_device_free(0, dc);
  }
  int nthreads = 0;
  double tf = feint_pm_time_fma(1000, &nthreads);
  CHECK(tf >= 0.0 && nthreads >= 1, "fma: %g s, %d threads", tf, nthreads);
  int w = feint_pm_fma_width();
  CHECK(w == 1 || w == 4 || w == 8, "fma width %d", w);
  CHECK(feint_pm_fma_flops(1000, 3) == 3.0 * 1000 * FEINT_PM_FMA_CHAINS * w * 2,
        "fma flops %g", feint_pm_fma_flops(1000, 3));
  free(a);
  free(b);
  free(c);
  return test_finish("t406_pm_measure");
}
