/* platform.c - platform descriptions (Table 5 of seed 000 as data files),
 * the lower-bound predictor (Table 6) and unit conversions.
 *
 * File format (perfmodel/platforms/<name>.platform): `key = value` lines,
 * '#' starts a comment, blank lines ignored, every key required exactly once:
 *   name, description,
 *   peak_gflops, peak_gbs       finite numbers > 0,
 *   bench_gflops, bench_gbs     finite numbers > 0, or the word "unmeasured"
 *                               (no benchmark figure exists yet; the
 *                               benchmark bound is then refused, never
 *                               replaced by the peak),
 *   source_<figure>             where each of the four figures comes from. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pm_internal.h"

static const char *const figure_names[FEINT_PM_FIGURE_COUNT] = {"peak_gflops", "peak_gbs",
                                                                "bench_gflops", "bench_gbs"};

const char *feint_pm_figure_name(feint_pm_figure figure) {
  return ((unsigned)figure < FEINT_PM_FIGURE_COUNT) ? figure_names[figure] : NULL;
}

/* Trim leading and trailing white space in place; return the start. */
static char *trim(char *s) {
  while (*s == ' ' || *s == '\t') s++;
  size_t n = strlen(s);
  while (n > 0 && (s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == '\r' || s[n - 1] == '\n'))
    s[--n] = '\0';
  return s;
}

enum { KEY_NAME = 0, KEY_DESCRIPTION, KEY_FIGURE0, KEY_SOURCE0 = KEY_FIGURE0 + 4, KEY_COUNT = KEY_SOURCE0 + 4 };

static const char *const key_names[KEY_COUNT] = {
    "name",         "description",        "peak_gflops",     "peak_gbs",
    "bench_gflops", "bench_gbs",          "source_peak_gflops", "source_peak_gbs",
    "source_bench_gflops", "source_bench_gbs"};

static feint_status copy_field(char *dst, size_t cap, const char *value, const char *key,
                               const char *origin, int line) {
  size_t n = strlen(value);
  if (n == 0 || n >= cap)
    return feint_pm_error(FEINT_ERR_BAD_SIZE, "feint_pm_platform_parse",
                          "%s:%d: field '%s' has length %zu; allowed 1..%zu characters", origin,
                          line, key, n, cap - 1);
  memcpy(dst, value, n + 1);
  return FEINT_SUCCESS;
}

feint_status feint_pm_platform_parse(const char *text, const char *origin,
                                     feint_pm_platform *out) {
  FEINT_CHECK(text != NULL, FEINT_ERR_NULL_ARG, "text is NULL");
  FEINT_CHECK(out != NULL, FEINT_ERR_NULL_ARG, "out is NULL");
  if (origin == NULL) origin = "<string>";
  feint_pm_platform p;
  memset(&p, 0, sizeof p);
  int seen[KEY_COUNT] = {0};
  double figure[FEINT_PM_FIGURE_COUNT] = {0};
  int measured[FEINT_PM_FIGURE_COUNT] = {0};
  char buf[1024];
  const char *cursor = text;
  int line = 0;
  while (*cursor != '\0') {
    const char *eol = strchr(cursor, '\n');
    size_t len = eol ? (size_t)(eol - cursor) : strlen(cursor);
    line++;
    if (len >= sizeof buf)
      return feint_pm_error(FEINT_ERR_BAD_SIZE, __func__,
                            "%s:%d: line of %zu characters; at most %zu allowed", origin, line,
                            len, sizeof buf - 1);
    memcpy(buf, cursor, len);
    buf[len] = '\0';
    cursor = eol ? eol + 1 : cursor + len;
    char *hash = strchr(buf, '#');
    if (hash != NULL) *hash = '\0';
    char *s = trim(buf);
    if (*s == '\0') continue;
    char *eq = strchr(s, '=');
    if (eq == NULL)
      return feint_pm_error(FEINT_ERR_BAD_SIZE, __func__,
                            "%s:%d: expected 'key = value', got \"%s\"", origin, line, s);
    *eq = '\0';
    char *key = trim(s);
    char *value = trim(eq + 1);
    int k;
    for (k = 0; k < KEY_COUNT; k++)
      if (strcmp(key, key_names[k]) == 0) break;
    if (k == KEY_COUNT)
      return feint_pm_error(FEINT_ERR_OUT_OF_RANGE, __func__,
                            "%s:%d: unknown key '%s'; allowed: name, description, peak_gflops, "
                            "peak_gbs, bench_gflops, bench_gbs and source_<figure>",
                            origin, line, key);
    if (seen[k])
      return feint_pm_error(FEINT_ERR_BAD_SIZE, __func__, "%s:%d: field '%s' given twice",
                            origin, line, key);
    seen[k] = 1;
    if (k == KEY_NAME) {
      FEINT_CALL(copy_field(p.name, sizeof p.name, value, key, origin, line));
    } else if (k == KEY_DESCRIPTION) {
      FEINT_CALL(copy_field(p.description, sizeof p.description, value, key, origin, line));
    } else if (k >= KEY_SOURCE0) {
      FEINT_CALL(copy_field(p.source[k - KEY_SOURCE0], sizeof p.source[0], value, key,
                               origin, line));
    } else {
      int f = k - KEY_FIGURE0;
      int is_bench = (f == FEINT_PM_BENCH_GFLOPS || f == FEINT_PM_BENCH_GBS);
      if (is_bench && strcmp(value, "unmeasured") == 0) {
        figure[f] = 0.0;
        measured[f] = 0;
        continue;
      }
      char *end = NULL;
      errno = 0;
      double v = strtod(value, &end);
      if (end == value || *end != '\0' || errno != 0 || !isfinite(v) || !(v > 0.0))
        return feint_pm_error(FEINT_ERR_BAD_SIZE, __func__,
                              "%s:%d: field '%s' = \"%s\"; allowed: a finite number > 0%s",
                              origin, line, key, value, is_bench ? " or \"unmeasured\"" : "");
      figure[f] = v;
      measured[f] = 1;
    }
  }
  for (int k = 0; k < KEY_COUNT; k++)
    if (!seen[k])
      return feint_pm_error(FEINT_ERR_BAD_SIZE, __func__, "%s: field '%s' is missing", origin,
                            key_names[k]);
  p.peak_gflops = figure[FEINT_PM_PEAK_GFLOPS];
  p.peak_gbs = figure[FEINT_PM_PEAK_GBS];
  p.bench_gflops = figure[FEINT_PM_BENCH_GFLOPS];
  p.bench_gbs = figure[FEINT_PM_BENCH_GBS];
  p.bench_measured[0] = measured[FEINT_PM_BENCH_GFLOPS];
  p.bench_measured[1] = measured[FEINT_PM_BENCH_GBS];
  *out = p;
  return FEINT_SUCCESS;
}

feint_status feint_pm_platform_load(const char *path, feint_pm_platform *out) {
  FEINT_CHECK(path != NULL, FEINT_ERR_NULL_ARG, "path is NULL");
  FEINT_CHECK(out != NULL, FEINT_ERR_NULL_ARG, "out is NULL");
  FILE *f = fopen(path, "r");
  FEINT_CHECK(f != NULL, FEINT_ERR_IO, "cannot open platform file '%s': %s", path,
                 strerror(errno));
  enum { MAX_FILE = 64 * 1024 };
  char *text = malloc(MAX_FILE + 1);
  if (text == NULL) {
    fclose(f);
    return feint_pm_error(FEINT_ERR_ALLOC, __func__, "cannot allocate %d bytes", MAX_FILE + 1);
  }
  size_t n = fread(text, 1, MAX_FILE + 1, f);
  int read_error = ferror(f);
  fclose(f);
  if (read_error || n > MAX_FILE) {
    free(text);
    return feint_pm_error(read_error ? FEINT_ERR_IO : FEINT_ERR_UNSUPPORTED, __func__,
                          "platform file '%s': %s", path,
                          read_error ? "read error" : "larger than 64 KiB");
  }
  text[n] = '\0';
  /* a NUL byte would end the text early and hide what follows it */
  const char *nul = memchr(text, '\0', n);
  if (nul != NULL) {
    int line = 1;
    for (const char *c = text; c < nul; c++) line += *c == '\n';
    const size_t offset = (size_t)(nul - text);
    free(text);
    return feint_pm_error(FEINT_ERR_BAD_SIZE, __func__,
                          "platform file '%s':%d: NUL byte at offset %zu; a platform file is "
                          "text", path, line, offset);
  }
  feint_status st = feint_pm_platform_parse(text, path, out);
  free(text);
  return st;
}

feint_status feint_pm_platform_find(const char *name_or_path, const char *dir,
                                    feint_pm_platform *out) {
  FEINT_CHECK(name_or_path != NULL, FEINT_ERR_NULL_ARG, "name_or_path is NULL");
  FEINT_CHECK(out != NULL, FEINT_ERR_NULL_ARG, "out is NULL");
  size_t n = strlen(name_or_path);
  const char *suffix = ".platform";
  size_t ns = strlen(suffix);
  if (strchr(name_or_path, '/') != NULL || (n > ns && strcmp(name_or_path + n - ns, suffix) == 0))
    return feint_pm_platform_load(name_or_path, out);
  FEINT_CHECK(n > 0 && strspn(name_or_path, "abcdefghijklmnopqrstuvwxyz"
                                               "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_.") == n,
                 FEINT_ERR_OUT_OF_RANGE,
                 "platform name \"%s\"; allowed: letters, digits, '-', '_', '.'", name_or_path);
  if (dir == NULL) dir = getenv("FEINT_PLATFORM_DIR");
  if (dir == NULL || *dir == '\0') dir = "perfmodel/platforms";
  char path[1024];
  int len = snprintf(path, sizeof path, "%s/%s%s", dir, name_or_path, suffix);
  FEINT_CHECK(len > 0 && (size_t)len < sizeof path, FEINT_ERR_BAD_SIZE,
                 "platform path for \"%s\" in \"%s\" longer than %zu characters", name_or_path,
                 dir, sizeof path - 1);
  return feint_pm_platform_load(path, out);
}

/* ---- Predictor ----------------------------------------------------------- */

const char *feint_pm_bound_name(feint_pm_bound bound) {
  switch (bound) {
  case FEINT_PM_BOUND_MEMORY: return "memory";
  case FEINT_PM_BOUND_COMPUTE: return "compute";
  }
  return NULL;
}

feint_status feint_pm_predict(long long bytes, long long flops, double gbs, double gflops,
                              double *ns, feint_pm_bound *bound) {
  FEINT_CHECK(ns != NULL, FEINT_ERR_NULL_ARG, "ns is NULL");
  FEINT_CHECK(bytes >= 0, FEINT_ERR_BAD_SIZE, "bytes = %lld; allowed >= 0", bytes);
  FEINT_CHECK(flops >= 0, FEINT_ERR_BAD_SIZE, "flops = %lld; allowed >= 0", flops);
  FEINT_CHECK(isfinite(gbs) && gbs > 0.0, FEINT_ERR_BAD_SIZE,
                 "gbs = %g; allowed: finite and > 0", gbs);
  FEINT_CHECK(isfinite(gflops) && gflops > 0.0, FEINT_ERR_BAD_SIZE,
                 "gflops = %g; allowed: finite and > 0", gflops);
  /* bytes / (1e9 bytes/s) = bytes * 1e-9 s = bytes ns; the same for flops. */
  double t_mem_ns = (double)bytes / gbs;
  double t_flop_ns = (double)flops / gflops;
  *ns = t_mem_ns >= t_flop_ns ? t_mem_ns : t_flop_ns;
  if (bound != NULL) *bound = t_mem_ns >= t_flop_ns ? FEINT_PM_BOUND_MEMORY : FEINT_PM_BOUND_COMPUTE;
  return FEINT_SUCCESS;
}

feint_status feint_pm_predict_platform(long long bytes, long long flops,
                                       const feint_pm_platform *platform, feint_pm_use use,
                                       double *ns, feint_pm_bound *bound) {
  FEINT_CHECK(platform != NULL, FEINT_ERR_NULL_ARG, "platform is NULL");
  FEINT_CHECK(use == FEINT_PM_USE_PEAK || use == FEINT_PM_USE_BENCH, FEINT_ERR_OUT_OF_RANGE,
                 "use = %d; allowed FEINT_PM_USE_PEAK (0) or FEINT_PM_USE_BENCH (1)", (int)use);
  if (use == FEINT_PM_USE_PEAK)
    return feint_pm_predict(bytes, flops, platform->peak_gbs, platform->peak_gflops, ns, bound);
  FEINT_CHECK(platform->bench_measured[0] && platform->bench_measured[1],
                 FEINT_ERR_UNSUPPORTED,
                 "platform '%s' has no benchmark %s (\"unmeasured\" in its file)", platform->name,
                 !platform->bench_measured[0] ? "bench_gflops" : "bench_gbs");
  return feint_pm_predict(bytes, flops, platform->bench_gbs, platform->bench_gflops, ns, bound);
}

double feint_pm_limiting_intensity(double gbs, double gflops) { return 8.0 * gflops / gbs; }

/* ---- Unit conversions ---------------------------------------------------- */

double feint_pm_gbs(double bytes, double time_s) { return bytes / time_s * 1e-9; }
double feint_pm_gflops(double flops, double time_s) { return flops / time_s * 1e-9; }
double feint_pm_ns_per_elem(double time_s, double num_elem) { return time_s * 1e9 / num_elem; }
double feint_pm_tera_to_giga(double tera) { return tera * 1e3; }
double feint_pm_pct_of_bound(double bound_ns, double measured_ns) {
  return 100.0 * bound_ns / measured_ns;
}
