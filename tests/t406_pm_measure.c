/* t406: the host characterisation kernels: the triad computes a = b + 3c and
 * rejects misaligned arrays; the FMA kernel runs and its flop formula is
 * threads x iterations x chains x width x 2. */
#define _POSIX_C_SOURCE 200809L
#include <stdlib.h>

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
