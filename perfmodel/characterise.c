/* characterise.c - `perfmodel characterise`: this machine's benchmark
 * bandwidth and flop rate, measured by likwid-bench (stream_mem_avx_fma and
 * peakflops_avx_fma kernels) when it is installed, and always by feint's own
 * STREAM-triad and peak-FMA kernels (perfmodel/measure.c).  Prints the
 * figures as a platform file on stdout (peak figures are not measurable:
 * they are printed as the best measured figure and marked so in the source
 * lines; edit them from the vendor's data sheet before saving the file).
 *
 * Repetition policy: N runs of each kernel (default 11), interleaved
 * (triad, FMA, triad, ...); the first of each is dropped; the median is the
 * benchmark figure, min and max are printed as comments. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "feint_perfmodel.h"
#include "perfmodel_cli.h"

#ifdef _OPENMP
#include <omp.h>
#endif

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

/* Run likwid-bench (argument vector, no shell) and return the value on its
 * line that starts with `key` (e.g. "MByte/s:"), or -1. */
static double likwid_run(char *const argv[], const char *key) {
  static char out[1 << 16];
  if (perfmodel_run(argv, out, sizeof out) != 0) return -1.0;
  double v = -1.0;
  const size_t kl = strlen(key);
  for (const char *line = out; *line;) {
    if (strncmp(line, key, kl) == 0) v = strtod(line + kl, NULL);
    const char *nl = strchr(line, '\n');
    if (nl == NULL) break;
    line = nl + 1;
  }
  return v;
}

/* A whole decimal number in [lo, hi], or -1 (with a message naming the
 * option): no wrap-around, no trailing junk. */
static long long parse_count(const char *opt, const char *text, long long lo, long long hi) {
  char *end = NULL;
  errno = 0;
  const long long v = strtoll(text, &end, 10);
  if (end == text || *end != '\0' || errno != 0 || v < lo || v > hi) {
    fprintf(stderr, "perfmodel characterise: %s %s: allowed a whole number %lld..%lld\n", opt,
            text, lo, hi);
    return -1;
  }
  return v;
}

int perfmodel_characterise(int argc, char **argv) {
  int reps = 11, use_likwid = 1;
  size_t mib = 256; /* per array: far above any last-level cache here */
  for (int i = 0; i < argc; i++) {
    if (strcmp(argv[i], "--reps") == 0 && i + 1 < argc) {
      const long long v = parse_count("--reps", argv[++i], 3, 1000);
      if (v < 0) return 2;
      reps = (int)v;
    } else if (strcmp(argv[i], "--mib") == 0 && i + 1 < argc) {
      const long long v = parse_count("--mib", argv[++i], 1, 65536);
      if (v < 0) return 2;
      mib = (size_t)v;
    } else if (strcmp(argv[i], "--no-likwid") == 0)
      use_likwid = 0;
    else {
      fprintf(stderr, "perfmodel characterise: unknown argument '%s'%s\n", argv[i],
              i + 1 == argc && argv[i][0] == '-' ? " (or missing value)" : "");
      return 2;
    }
  }
  size_t n = mib * 1024 * 1024 / sizeof(double);
  n -= n % 4;
  double *a = NULL, *b = NULL, *c = NULL;
  if (posix_memalign((void **)&a, 64, n * sizeof(double)) ||
      posix_memalign((void **)&b, 64, n * sizeof(double)) ||
      posix_memalign((void **)&c, 64, n * sizeof(double))) {
    fprintf(stderr, "perfmodel characterise: cannot allocate 3 x %zu MiB\n", mib);
    free(a);
    free(b);
    free(c);
    return 1;
  }
  /* First touch with the triad's static schedule: pages land on the socket
   * of the thread that streams them. */
#pragma omp parallel for schedule(static)
  for (size_t i = 0; i < n; i++) {
    a[i] = 0.0;
    b[i] = 1.0;
    c[i] = 2.0;
  }
  /* FMA iterations: about 0.2 s per run at 10 GFLOP/s per thread. */
  size_t iters = 20000000 / (size_t)feint_pm_fma_width();
  double *gbs = malloc(sizeof(double) * (size_t)reps), *gfl = malloc(sizeof(double) * (size_t)reps);
  if (gbs == NULL || gfl == NULL) {
    fprintf(stderr, "perfmodel characterise: allocation failed\n");
    free(a); free(b); free(c); free(gbs); free(gfl);
    return 1;
  }
  int nthreads = 1;
  for (int r = 0; r < reps; r++) {
    double t = feint_pm_time_triad(a, b, c, n);
    gbs[r] = feint_pm_gbs(feint_pm_triad_bytes(n), t);
    double tf = feint_pm_time_fma(iters, &nthreads);
    gfl[r] = feint_pm_gflops(feint_pm_fma_flops(iters, nthreads), tf);
  }
  /* a[i] = 1 + 3 * 2 = 7 everywhere: validate the triad. */
  int bad = 0;
  for (size_t i = 0; i < n; i += 4099)
    if (a[i] != 7.0) bad = 1;
  free(a);
  free(b);
  free(c);
  if (bad) {
    fprintf(stderr, "perfmodel characterise: triad produced wrong values (FAIL)\n");
    free(gbs);
    free(gfl);
    return 1;
  }
  qsort(gbs + 1, (size_t)reps - 1, sizeof(double), cmp_double);
  qsort(gfl + 1, (size_t)reps - 1, sizeof(double), cmp_double);
  int m = reps - 1;
  double gbs_med = gbs[1 + m / 2], gfl_med = gfl[1 + m / 2];
  double gbs_min = gbs[1], gbs_max = gbs[reps - 1], gfl_min = gfl[1], gfl_max = gfl[reps - 1];
  free(gbs);
  free(gfl);

  double lk_gbs = -1.0, lk_gfl = -1.0;
  if (use_likwid && perfmodel_have_program("likwid-bench")) {
    char work[64];
    /* nontemporal-store triad, like feint's: 24 bytes per index */
    snprintf(work, sizeof work, "N:%zuMB:%d", 3 * mib, nthreads);
    char *stream[] = {"likwid-bench", "-t", "stream_mem_avx_fma", "-W", work, NULL};
    lk_gbs = likwid_run(stream, "MByte/s:");
    if (lk_gbs > 0) lk_gbs *= 1e-3; /* likwid's MByte is 1e6 bytes */
    snprintf(work, sizeof work, "N:%dkB:%d", 16 * nthreads, nthreads);
    char *peak[] = {"likwid-bench", "-t", "peakflops_avx_fma", "-W", work, NULL};
    lk_gfl = likwid_run(peak, "MFlops/s:");
    if (lk_gfl > 0) lk_gfl *= 1e-3;
  }

  char host[128] = "unknown";
  gethostname(host, sizeof host - 1);
  printf("# this-machine.platform, measured by `perfmodel characterise` on host %s\n", host);
  printf("# threads %d, triad arrays 3 x %zu MiB, %d runs each, first dropped\n", nthreads, mib,
         reps);
  printf("# feint triad GB/s: min %.2f median %.2f max %.2f\n", gbs_min, gbs_med, gbs_max);
  printf("# feint FMA GFLOP/s (width %d x %d chains): min %.2f median %.2f max %.2f\n",
         feint_pm_fma_width(), FEINT_PM_FMA_CHAINS, gfl_min, gfl_med, gfl_max);
  if (lk_gbs > 0) printf("# likwid-bench stream_mem_avx_fma GB/s: %.2f\n", lk_gbs);
  if (lk_gfl > 0) printf("# likwid-bench peakflops_avx_fma GFLOP/s: %.2f\n", lk_gfl);
  if (use_likwid && (lk_gbs <= 0 || lk_gfl <= 0))
    printf("# likwid-bench not available or failed: feint's own kernels used\n");
  double bgbs = lk_gbs > 0 ? lk_gbs : gbs_med, bgfl = lk_gfl > 0 ? lk_gfl : gfl_med;
  const char *sgbs = lk_gbs > 0 ? "likwid-bench stream_mem_avx_fma (nontemporal triad, 24 B/index)"
                                : "feint triad, nontemporal stores, 24 B/index, median";
  const char *sgfl = lk_gfl > 0 ? "likwid-bench peakflops_avx_fma"
                                : "feint peak-FMA kernel, median";
  printf("name = this-machine\n");
  printf("description = %s, %d threads (measured)\n", host, nthreads);
  printf("peak_gflops = %.4g\n", bgfl > gfl_max ? bgfl : gfl_max);
  printf("peak_gbs = %.4g\n", bgbs > gbs_max ? bgbs : gbs_max);
  printf("bench_gflops = %.4g\n", bgfl);
  printf("bench_gbs = %.4g\n", bgbs);
  printf("source_peak_gflops = best measured figure, NOT the data-sheet peak: replace it\n");
  printf("source_peak_gbs = best measured figure, NOT the data-sheet peak: replace it\n");
  printf("source_bench_gflops = %s\n", sgfl);
  printf("source_bench_gbs = %s\n", sgbs);
  return 0;
}
