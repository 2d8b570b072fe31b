/* t405: platform files: every shipped file loads; a missing, malformed or
 * non-positive figure is rejected with a message naming the field;
 * "unmeasured" benchmark figures are refused by the benchmark predictor. */
#define _POSIX_C_SOURCE 200809L
#include <stdlib.h>

#include "feint_perfmodel.h"
#include "test_util.h"

static const char *const good =
    "# comment line\n"
    "name = demo   # trailing comment\n"
    "description = a demo platform\n"
    "peak_gflops = 1000\npeak_gbs = 200\nbench_gflops = 900\nbench_gbs = 150\n"
    "source_peak_gflops = data sheet\nsource_peak_gbs = data sheet\n"
    "source_bench_gflops = DGEMM\nsource_bench_gbs = STREAM\n";

/* good with the line of `key` replaced by `line` (or dropped if line is ""). */
static void variant_of(const char *key, const char *line, char *out, size_t cap) {
  out[0] = '\0';
  const char *s = good;
  while (*s) {
    const char *eol = strchr(s, '\n');
    size_t len = (size_t)(eol - s) + 1;
    size_t kl = strlen(key);
    if (strncmp(s, key, kl) == 0 && s[kl] == ' ')
      strncat(out, line, cap - strlen(out) - 1);
    else
      strncat(out, s, len < cap - strlen(out) - 1 ? len : cap - strlen(out) - 1);
    s += len;
  }
}

int main(void) {
  feint_pm_platform p;
  CHECK_STATUS(feint_pm_platform_parse(good, "good", &p), FEINT_SUCCESS, NULL);
  CHECK(strcmp(p.name, "demo") == 0 && p.peak_gflops == 1000 && p.peak_gbs == 200 &&
            p.bench_gflops == 900 && p.bench_gbs == 150 && p.bench_measured[0] &&
            p.bench_measured[1] && strcmp(p.source[FEINT_PM_BENCH_GBS], "STREAM") == 0,
        "good file parsed wrongly: name '%s'", p.name);

  static const char *const figures[4] = {"peak_gflops", "peak_gbs", "bench_gflops", "bench_gbs"};
  char text[2048], expect[128];
  feint_pm_platform untouched;
  memset(&untouched, 0x5a, sizeof untouched);
  for (int f = 0; f < 4; f++) {
    /* missing */
    variant_of(figures[f], "", text, sizeof text);
    snprintf(expect, sizeof expect, "field '%s' is missing", figures[f]);
    feint_pm_platform q = untouched;
    CHECK_STATUS(feint_pm_platform_parse(text, "t405", &q), FEINT_ERR_BAD_SIZE, expect);
    CHECK(memcmp(&q, &untouched, sizeof q) == 0, "output changed on error (%s)", figures[f]);
    /* zero, negative, non-numeric, infinite */
    const char *bad[4] = {"0", "-5", "fast", "inf"};
    for (int b = 0; b < 4; b++) {
      char line[64];
      snprintf(line, sizeof line, "%s = %s\n", figures[f], bad[b]);
      variant_of(figures[f], line, text, sizeof text);
      snprintf(expect, sizeof expect, "field '%s' = \"%s\"", figures[f], bad[b]);
      CHECK_STATUS(feint_pm_platform_parse(text, "t405", &q), FEINT_ERR_BAD_SIZE, expect);
    }
  }
  /* sources and name are required too */
  variant_of("source_bench_gbs", "", text, sizeof text);
  CHECK_STATUS(feint_pm_platform_parse(text, "t405", &p), FEINT_ERR_BAD_SIZE,
                  "field 'source_bench_gbs' is missing");
  variant_of("name", "", text, sizeof text);
  CHECK_STATUS(feint_pm_platform_parse(text, "t405", &p), FEINT_ERR_BAD_SIZE, "field 'name' is missing");
  /* unknown key, duplicate key, no '=' */
  snprintf(text, sizeof text, "%sturbo = 1\n", good);
  CHECK_STATUS(feint_pm_platform_parse(text, "t405", &p), FEINT_ERR_OUT_OF_RANGE, "unknown key 'turbo'");
  snprintf(text, sizeof text, "%speak_gbs = 3\n", good);
  CHECK_STATUS(feint_pm_platform_parse(text, "t405", &p), FEINT_ERR_BAD_SIZE, "'peak_gbs' given twice");
  snprintf(text, sizeof text, "%sjunk\n", good);
  CHECK_STATUS(feint_pm_platform_parse(text, "t405", &p), FEINT_ERR_BAD_SIZE, "t405:12: expected");
  /* "unmeasured": allowed for benchmark figures only, and then refused. */
  variant_of("bench_gbs", "bench_gbs = unmeasured\n", text, sizeof text);
  CHECK_STATUS(feint_pm_platform_parse(text, "t405", &p), FEINT_SUCCESS, NULL);
  CHECK(!p.bench_measured[1] && p.bench_measured[0], "unmeasured flags %d %d", p.bench_measured[0],
        p.bench_measured[1]);
  double ns = 0.0;
  CHECK_STATUS(feint_pm_predict_platform(100, 100, &p, FEINT_PM_USE_BENCH, &ns, NULL),
                  FEINT_ERR_UNSUPPORTED, "no benchmark bench_gbs");
  CHECK_STATUS(feint_pm_predict_platform(100, 100, &p, FEINT_PM_USE_PEAK, &ns, NULL), FEINT_SUCCESS, NULL);
  CHECK(ns == 0.5, "peak bound %g, expected 100 B / 200 GB/s = 0.5 ns", ns);
  variant_of("peak_gbs", "peak_gbs = unmeasured\n", text, sizeof text);
  CHECK_STATUS(feint_pm_platform_parse(text, "t405", &p), FEINT_ERR_BAD_SIZE, "field 'peak_gbs' = \"unmeasured\"");

  /* Files: a missing file, and every shipped platform by name. */
  CHECK_STATUS(feint_pm_platform_load("/nonexistent/x.platform", &p), FEINT_ERR_IO,
                  "/nonexistent/x.platform");
  CHECK_STATUS(feint_pm_platform_find("../etc", NULL, &p), FEINT_ERR_IO, "../etc");
  const char *dirs[3] = {getenv("FEINT_PLATFORM_DIR"), "perfmodel/platforms", "../perfmodel/platforms"};
  const char *dir = NULL;
  for (int d = 0; d < 3 && dir == NULL; d++)
    if (dirs[d] != NULL && feint_pm_platform_find("k20m", dirs[d], &p) == FEINT_SUCCESS) dir = dirs[d];
  CHECK(dir != NULL, "perfmodel/platforms not found from the working directory (run from the repository root)");
  if (dir != NULL) {
    const char *names[5] = {"k20m", "xeonphi-5110p", "xeon-e5-2620x2", "h100-sxm", "h200"};
    const double peak_gbs[5] = {208, 320, 85.2, 3350, 4800};
    for (int k = 0; k < 5; k++) {
      CHECK_STATUS(feint_pm_platform_find(names[k], dir, &p), FEINT_SUCCESS, NULL);
      CHECK(strcmp(p.name, names[k]) == 0 && p.peak_gbs == peak_gbs[k], "%s: name '%s' peak %g GB/s",
            names[k], p.name, p.peak_gbs);
    }
    /* Table 5 benchmark figures of the paper's processors */
    CHECK_STATUS(feint_pm_platform_find("xeonphi-5110p", dir, &p), FEINT_SUCCESS, NULL);
    CHECK(p.bench_gflops == 840 && p.bench_gbs == 171, "xeonphi bench %g %g", p.bench_gflops, p.bench_gbs);
  }
  return test_finish("t405_pm_platform_files");
}
