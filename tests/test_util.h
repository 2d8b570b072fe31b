/* test_util.h - shared helpers of the feint tests: checks, a fixed-seed RNG,
 * round-off tolerances.  Tests are silent on success and print one line per
 * failure (capped); main() returns test_finish(). */
#ifndef FEINT_TEST_UTIL_H
#define FEINT_TEST_UTIL_H

#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "feint.h"

static int test_failures __attribute__((unused)) = 0;
#define TEST_MAX_REPORTS 20

static inline void test_fail_report(const char *file, int line, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
#include <stdarg.h>
static inline void test_fail_report(const char *file, int line, const char *fmt, ...) {
  if (++test_failures > TEST_MAX_REPORTS) return;
  va_list ap;
  va_start(ap, fmt);
  fprintf(stderr, "FAIL %s:%d: ", file, line);
  vfprintf(stderr, fmt, ap);
  fputc('\n', stderr);
  va_end(ap);
}
#define TEST_FAIL(...) test_fail_report(__FILE__, __LINE__, __VA_ARGS__)

/* Check a condition; the message says what was observed. */
#define CHECK(cond, ...)                 \
  do {                                   \
    if (!(cond)) TEST_FAIL(__VA_ARGS__); \
  } while (0)

/* 1 if substr is NULL or feint_last_error() contains it. */
static inline int test_error_has(const char *substr) {
  return substr == NULL || strstr(feint_last_error(), substr) != NULL;
}

/* Check a status code and, if substr != NULL, that feint_last_error()
 * contains substr. */
#define CHECK_STATUS(call, expected, substr)                                                  \
  do {                                                                                        \
    feint_status st_ = (call);                                                                \
    if (st_ != (expected))                                                                    \
      TEST_FAIL("%s returned %d (%s), expected %d; last error: %s", #call, (int)st_,         \
                feint_status_string(st_), (int)(expected), feint_last_error());               \
    else if (!test_error_has(substr))                                                         \
      TEST_FAIL("%s: message \"%s\" lacks \"%s\"", #call, feint_last_error(), (const char *)(substr)); \
  } while (0)

/* Round-off check: |x - ref| <= c * n * eps * scale, where n is the number of
 * floating-point operations the value went through and scale the sum of the
 * absolute values of its terms.  NaN fails (the comparison is false). */
static inline int test_close(double x, double ref, double n, double scale, double c) {
  double tol = c * n * DBL_EPSILON * scale;
  return fabs(x - ref) <= tol;
}
#define CHECK_CLOSE(x, ref, n, scale, c, what)                                             \
  do {                                                                                     \
    double x_ = (x), r_ = (ref), tol_ = (c) * (n) * DBL_EPSILON * (scale);                 \
    if (!(fabs(x_ - r_) <= tol_))                                                          \
      TEST_FAIL("%s: observed %.17g expected %.17g diff %.3g tol %.3g", (what), x_, r_,    \
                fabs(x_ - r_), tol_);                                                      \
  } while (0)

/* splitmix64: fixed-seed generator, reproducible on every platform. */
typedef struct { uint64_t s; } test_rng;
static inline uint64_t test_rng_next(test_rng *r) {
  uint64_t z = (r->s += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}
/* uniform in [lo, hi) */
static inline double test_rng_uniform(test_rng *r, double lo, double hi) {
  return lo + (hi - lo) * (double)(test_rng_next(r) >> 11) * 0x1.0p-53;
}

/* Exit code: 0 if all checks passed. Prints a summary line on failure. */
static inline int test_finish(const char *name) {
  if (test_failures) {
    fprintf(stderr, "%s: %d check(s) failed\n", name, test_failures);
    return 1;
  }
  return 0;
}
/* Skipped test: print the reason, exit code 77. */
#define TEST_SKIP_EXIT 77

#endif /* FEINT_TEST_UTIL_H */
