/* measure.c - characterisation of this machine: one timed run of a parallel
 * STREAM triad (bandwidth) and of a parallel peak-FMA kernel (flop rate).
 * The bench interleaves single runs of these with its kernel runs and takes
 * medians, so every "% of bound" comes from figures measured in the same run
 * (machines here are shared and noisy).  This is the only perfmodel file
 * that uses OpenMP and timing; build it with -O3 -march=native -fopenmp.
 *
 * Triad byte convention: 24 bytes per index (read b, read c, write a), the
 * compulsory traffic.  The stores are nontemporal (vmovntpd with clang), so
 * no write-allocate traffic is paid and the convention is also what the
 * hardware moves.  With other compilers the stores are plain and the
 * hardware moves 32 bytes per index of which we still count 24 (a lower
 * bandwidth figure, i.e. a more lenient bound). */
#include <math.h>
#include <stdint.h>

#include "pm_internal.h"

#ifdef _OPENMP
#include <omp.h>
#endif
#include <time.h>

static double now_s(void) {
#ifdef _OPENMP
  return omp_get_wtime();
#else
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
#endif
}

double feint_pm_triad_bytes(size_t n) { return 24.0 * (double)n; }

#if defined(__clang__)
typedef double v4d __attribute__((vector_size(32)));
#endif

double feint_pm_time_triad(double *a, const double *b, const double *c, size_t n) {
  if (a == NULL || b == NULL || c == NULL || n % 4 != 0 || ((uintptr_t)a % 64) != 0 ||
      ((uintptr_t)b % 64) != 0 || ((uintptr_t)c % 64) != 0)
    return -1.0;
  const double scalar = 3.0;
  long long nvec = (long long)(n / 4);
  double t0 = now_s();
#if defined(__clang__)
  v4d *av = (v4d *)(void *)a;
  const v4d *bv = (const v4d *)(const void *)b;
  const v4d *cv = (const v4d *)(const void *)c;
  /* Static schedule: each thread streams one contiguous chunk (first-touch
   * placement by the caller with the same schedule keeps pages local). */
#pragma omp parallel for schedule(static)
  for (long long i = 0; i < nvec; i++) {
    v4d r = bv[i] + scalar * cv[i];
    /* Nontemporal: a is not read again soon; skip the read for ownership. */
    __builtin_nontemporal_store(r, &av[i]);
  }
#else
  long long nn = nvec * 4;
#pragma omp parallel for simd schedule(static)
  for (long long i = 0; i < nn; i++) a[i] = b[i] + scalar * c[i];
#endif
  double t1 = now_s();
  return t1 - t0;
}

/* The device triad: the four launch shapes are four target regions
 * (num_teams and thread_limit take only positive values). */
double feint_pm_time_triad_device(double *a, const double *b, const double *c, size_t n,
                                  int device, int teams, int threads) {
  if (a == NULL || b == NULL || c == NULL || n == 0) return -1.0;
#ifdef _OPENMP
  if (device < 0 || device >= omp_get_num_devices()) return -1.0;
#else
  if (device != 0) return -1.0;
#endif
  const double scalar = 3.0;
  const double t0 = now_s();
  if (teams > 0 && threads > 0) {
#pragma omp target teams distribute parallel for device(device) num_teams(teams) \
    thread_limit(threads) is_device_ptr(a, b, c)
    for (size_t i = 0; i < n; i++) a[i] = b[i] + scalar * c[i];
  } else if (teams > 0) {
#pragma omp target teams distribute parallel for device(device) num_teams(teams) \
    is_device_ptr(a, b, c)
    for (size_t i = 0; i < n; i++) a[i] = b[i] + scalar * c[i];
  } else if (threads > 0) {
#pragma omp target teams distribute parallel for device(device) thread_limit(threads) \
    is_device_ptr(a, b, c)
    for (size_t i = 0; i < n; i++) a[i] = b[i] + scalar * c[i];
  } else {
#pragma omp target teams distribute parallel for device(device) is_device_ptr(a, b, c)
    for (size_t i = 0; i < n; i++) a[i] = b[i] + scalar * c[i];
  }
  return now_s() - t0;
}

#if defined(__AVX512F__) && defined(__FMA__)
#include <immintrin.h>
#define FMA_WIDTH 8
typedef __m512d fma_vec;
#define FMA_SET1(x) _mm512_set1_pd(x)
#define FMA_FMADD(a, b, c) _mm512_fmadd_pd((a), (b), (c))
#define FMA_STORE(p, v) _mm512_storeu_pd((p), (v))
#elif defined(__AVX__) && defined(__FMA__)
#include <immintrin.h>
#define FMA_WIDTH 4
typedef __m256d fma_vec;
#define FMA_SET1(x) _mm256_set1_pd(x)
#define FMA_FMADD(a, b, c) _mm256_fmadd_pd((a), (b), (c))
#define FMA_STORE(p, v) _mm256_storeu_pd((p), (v))
#else
/* Portable fallback (no x86 FMA): one lane per "vector", fma() from libm. */
#define FMA_WIDTH 1
typedef double fma_vec;
#define FMA_SET1(x) (x)
#define FMA_FMADD(a, b, c) fma((a), (b), (c))
#define FMA_STORE(p, v) (*(p) = (v))
#endif

int feint_pm_fma_width(void) { return FMA_WIDTH; }

double feint_pm_fma_flops(size_t iters, int nthreads) {
  return (double)nthreads * (double)iters * FEINT_PM_FMA_CHAINS * FMA_WIDTH * 2.0;
}

/* Keeps the result alive so the compiler cannot drop the FMA chains. */
static volatile double fma_sink;

double feint_pm_time_fma(size_t iters, int *nthreads_out) {
  int nthreads = 1;
  double t0 = now_s();
#pragma omp parallel
  {
#ifdef _OPENMP
#pragma omp single
    nthreads = omp_get_num_threads();
#endif
    /* FEINT_PM_FMA_CHAINS independent chains of FMA_WIDTH lanes: 12 chains
     * cover an FMA latency of 4-5 cycles on 2 pipes (needs >= 10 in flight)
     * and fit in the 16 (AVX2) or 32 (AVX-512) vector registers. */
    fma_vec acc[FEINT_PM_FMA_CHAINS];
    for (int k = 0; k < FEINT_PM_FMA_CHAINS; k++) acc[k] = FMA_SET1(1.0 + 1e-3 * k);
    /* x * 0.999999 + 1e-6 stays bounded (fixed point 1), never denormal. */
    const fma_vec mul = FMA_SET1(0.999999), add = FMA_SET1(1e-6);
    for (size_t it = 0; it < iters; it++) {
      /* Fully unrolled by the compiler: 12 FMAs on 12 registers. */
      for (int k = 0; k < FEINT_PM_FMA_CHAINS; k++) acc[k] = FMA_FMADD(acc[k], mul, add);
    }
    double s = 0.0;
    for (int k = 0; k < FEINT_PM_FMA_CHAINS; k++) {
      double lanes[FMA_WIDTH];
      FMA_STORE(lanes, acc[k]);
      for (int l = 0; l < FMA_WIDTH; l++) s += lanes[l];
    }
#pragma omp atomic
    fma_sink += s;
  }
  double t1 = now_s();
  if (nthreads_out != NULL) *nthreads_out = nthreads;
  return t1 - t0;
}
