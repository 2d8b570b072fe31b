/* bench_common.c - what every bench shares (feint_bench, feint_bench_assembly,
 * feint_bench_operator, feint_bench_solve, feint_bench_ffcx): which CPU a run
 * measured, the result file it writes, the length of the FMA probe it
 * interleaves, and the clock, minimum and median of its timings.
 *
 * The CPU: its model name and vendor, family, model and stepping
 * (/proc/cpuinfo), the microarchitecture the
 * compiler resolves for -march=native on it (asked of $FEINT_NATIVE_CC, else
 * clang-19, else clang, at run time: the bench may run on another machine
 * than the one that built it; "unknown-avx512"/"unknown-avx2" from the CPU
 * flags if no compiler is there), its physical cores and logical CPUs
 * online.  With the OpenMP thread count they name the platform
 * (<model>-<native arch>-<cores>c<threads>t, e.g. amd-epyc-znver4-2c2t) and
 * the result file (<platform>_<date>-<HHMM>_<build arch>.csv), so runs on
 * different CPUs, builds or times never overwrite or mix with each other. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "feint.h"
#include "feint_perfmodel.h"
#include "perfmodel_cli.h"

static void chomp(char *s) {
  char *nl = strpbrk(s, "\r\n");
  if (nl) *nl = '\0';
}

/* The value after "key\t: " of a /proc/cpuinfo line into dst, unless dst
 * already holds one (the first CPU's line wins). */
static void keep_first(char *dst, size_t n, const char *colon) {
  if (dst[0]) return;
  snprintf(dst, n, "%s", colon + 2);
  chomp(dst);
}

void perfmodel_cpu_identify(perfmodel_cpu *id) {
  memset(id, 0, sizeof *id);
  int avx512 = 0, avx2 = 0, phys = -1, core = -1, npairs = 0;
  char vendor[32] = "", family[16] = "", model_no[16] = "", stepping[16] = "";
  static int pairs[4096][2];
  FILE *f = fopen("/proc/cpuinfo", "r");
  if (f) {
    char line[4096];
    while (fgets(line, sizeof line, f)) {
      const char *c = strchr(line, ':');
      if (!c) continue;
      if (!strncmp(line, "model name", 10)) {
        keep_first(id->model, sizeof id->model, c);
      } else if (!strncmp(line, "vendor_id", 9)) {
        keep_first(vendor, sizeof vendor, c);
      } else if (!strncmp(line, "cpu family", 10)) {
        keep_first(family, sizeof family, c);
      } else if (!strncmp(line, "model\t", 6)) {
        keep_first(model_no, sizeof model_no, c);
      } else if (!strncmp(line, "stepping", 8)) {
        keep_first(stepping, sizeof stepping, c);
      } else if (!strncmp(line, "flags", 5)) {
        avx512 |= strstr(c, " avx512f") != NULL;
        avx2 |= strstr(c, " avx2") != NULL;
      } else if (!strncmp(line, "processor", 9)) {
        id->cpus++;
      } else if (!strncmp(line, "physical id", 11)) {
        phys = atoi(c + 1);
      } else if (!strncmp(line, "core id", 7)) {
        core = atoi(c + 1);
        int seen = 0;
        for (int i = 0; i < npairs; i++) seen |= pairs[i][0] == phys && pairs[i][1] == core;
        if (!seen && npairs < 4096) {
          pairs[npairs][0] = phys;
          pairs[npairs++][1] = core;
        }
      }
    }
    fclose(f);
  }
  if (!id->model[0]) snprintf(id->model, sizeof id->model, "cpu");
  id->cores = npairs > 0 ? npairs : id->cpus;
  if (vendor[0] && family[0] && model_no[0])
    snprintf(id->cpuid, sizeof id->cpuid, "%s family %s model %s stepping %s", vendor, family,
             model_no, stepping[0] ? stepping : "?");
  else
    snprintf(id->cpuid, sizeof id->cpuid, "unknown");
  const char *env_cc = getenv("FEINT_NATIVE_CC");
  const char *ccs[2] = {env_cc && *env_cc ? env_cc : "clang-19", "clang"};
  for (int i = 0; i < 2 && !id->native_arch[0]; i++) {
    char out[4096] = "";
    /* an argument vector, no shell: FEINT_NATIVE_CC is only a program name */
    char *argv[] = {(char *)ccs[i], "-march=native", "-###", "-x", "c", "/dev/null", NULL};
    if (perfmodel_run(argv, out, sizeof out) < 0) continue;
    const char *t = strstr(out, "\"-target-cpu\" \"");
    if (t) {
      t += strlen("\"-target-cpu\" \"");
      const char *e = strchr(t, '"');
      if (e && e - t < (int)sizeof id->native_arch) {
        snprintf(id->native_arch, sizeof id->native_arch, "%.*s", (int)(e - t), t);
        snprintf(id->native_how, sizeof id->native_how, "%s -march=native", ccs[i]);
      }
    }
  }
  if (!id->native_arch[0]) {
    snprintf(id->native_arch, sizeof id->native_arch, "unknown-%s",
             avx512 ? "avx512" : avx2 ? "avx2" : "isa");
    snprintf(id->native_how, sizeof id->native_how, "no compiler found; from /proc/cpuinfo flags");
  }
}

size_t perfmodel_slug(char *out, size_t n, const char *in) {
  size_t j = 0;
  int dash = 0;
  for (size_t i = 0; in[i] && j + 1 < n; i++) {
    const char ch = in[i];
    if ((ch >= 'a' && ch <= 'z') || (ch >= '0' && ch <= '9')) {
      out[j++] = ch;
      dash = 0;
    } else if (ch >= 'A' && ch <= 'Z') {
      out[j++] = (char)(ch - 'A' + 'a');
      dash = 0;
    } else if (!dash && j > 0) {
      out[j++] = '-';
      dash = 1;
    }
  }
  while (j > 0 && out[j - 1] == '-') j--;
  if (n > 0) out[j] = '\0';
  return j;
}

/* The model name without trademark marks and the words "Processor" and
 * "CPU": "Intel(R) Xeon(R) Processor" names the platform intel-xeon-...,
 * "AMD EPYC" stays amd-epyc-... */
void perfmodel_cpu_platform(const perfmodel_cpu *id, int threads, char *out, size_t n) {
  static const char *const drop[] = {"(R)", "(r)", "(TM)", "(tm)", " Processor", " CPU"};
  char model[sizeof id->model];
  snprintf(model, sizeof model, "%s", id->model);
  for (size_t k = 0; k < sizeof drop / sizeof drop[0]; k++)
    for (char *s; (s = strstr(model, drop[k])) != NULL;)
      memmove(s, s + strlen(drop[k]), strlen(s + strlen(drop[k])) + 1);
  char name[256];
  snprintf(name, sizeof name, "%s %s %dc%dt", model, id->native_arch, id->cores, threads);
  perfmodel_slug(out, n, name);
}

int perfmodel_result_path(char *out, size_t n, const char *dir, const char *platform,
                          const char *build_arch) {
  char date[32], arch[64];
  const time_t now = time(NULL);
  strftime(date, sizeof date, "%Y-%m-%d-%H%M", gmtime(&now));
  perfmodel_slug(arch, sizeof arch, build_arch);
  /* the directory and its parent (bench/results/<bench>) */
  char parent[512];
  snprintf(parent, sizeof parent, "%s", dir);
  char *slash = strrchr(parent, '/');
  if (slash && slash != parent) {
    *slash = '\0';
    if (mkdir(parent, 0777) != 0 && errno != EEXIST) return -1;
  }
  if (mkdir(dir, 0777) != 0 && errno != EEXIST) return -1;
  const int len = snprintf(out, n, "%s/%s_%s_%s.csv", dir, platform, date, arch);
  return len > 0 && (size_t)len < n ? 0 : -1;
}

void perfmodel_cpu_header(FILE *f, const perfmodel_cpu *id) {
  fprintf(f,
          "# cpu_model: %s\n# cpu_id: %s\n# native_arch: %s (%s)\n# cores: %d\n"
          "# logical_cpus: %d\n",
          id->model, id->cpuid, id->native_arch, id->native_how, id->cores, id->cpus);
}

FILE *perfmodel_result_open(const char *csv, const char *bench, const char *git,
                            const char *build_flags, const char *build_arch, int threads,
                            char *path, size_t n) {
  perfmodel_cpu cpu;
  perfmodel_cpu_identify(&cpu);
  char platform[160];
  perfmodel_cpu_platform(&cpu, threads, platform, sizeof platform);
  if (!strcmp(csv, "auto")) {
    char dir[256];
    snprintf(dir, sizeof dir, "bench/results/%s", bench);
    if (perfmodel_result_path(path, n, dir, platform, build_arch) != 0) {
      fprintf(stderr, "%s: cannot name a result file under %s\n", bench, dir);
      return NULL;
    }
  } else {
    snprintf(path, n, "%s", csv);
  }
  FILE *f = fopen(path, "w");
  if (f == NULL) {
    fprintf(stderr, "%s: cannot write %s\n", bench, path);
    return NULL;
  }
  char date[32];
  const time_t now = time(NULL);
  strftime(date, sizeof date, "%Y-%m-%d %H:%M UTC", gmtime(&now));
  fprintf(f, "# bench: %s\n# platform: %s\n# date: %s\n# git: %s\n# flags: %s\n# build_arch: %s\n"
             "# threads: %d\n",
          bench, platform, date, git, build_flags, build_arch, threads);
  perfmodel_cpu_header(f, &cpu);
  return f;
}

size_t perfmodel_fma_iters(double seconds) {
  size_t iters = 1u << 16;
  for (;;) {
    double t = 1e300;
    for (int k = 0; k < 3; k++) {
      const double tk = feint_pm_time_fma(iters, NULL);
      t = tk < t ? tk : t;
    }
    if (t > seconds || iters > (1u << 30)) return iters;
    iters *= 2;
  }
}

double perfmodel_now_s(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static int cmp_double(const void *a, const void *b) {
  const double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

double perfmodel_median(const double *v, int n) {
  double small[64], *s = n <= 64 ? small : malloc((size_t)n * sizeof *s);
  if (s == NULL) {
    fprintf(stderr, "perfmodel_median: cannot allocate %d doubles\n", n);
    exit(2);
  }
  memcpy(s, v, (size_t)n * sizeof *s);
  qsort(s, (size_t)n, sizeof *s, cmp_double);
  const double m = n % 2 ? s[n / 2] : 0.5 * (s[n / 2 - 1] + s[n / 2]);
  if (s != small) free(s);
  return m;
}

double perfmodel_min(const double *v, int n) {
  double m = v[0];
  for (int i = 1; i < n; i++) m = v[i] < m ? v[i] : m;
  return m;
}

/* ---- the device triad ---------------------------------------------------- */

int perfmodel_dev_triad_open(perfmodel_dev_triad *t, int device, size_t n, FILE *log) {
  memset(t, 0, sizeof *t);
  double *host = malloc(n * sizeof(double));
  if (host == NULL) {
    fprintf(stderr, "device triad: out of host memory for %zu doubles\n", n);
    return -1;
  }
  double *arr[3] = {NULL, NULL, NULL};
  int rc = 0;
  for (int k = 0; k < 3 && rc == 0; k++) {
    for (size_t i = 0; i < n; i++) host[i] = 1.0 + (double)k;
    if (feint_device_alloc(device, n * sizeof(double), (void **)&arr[k]) != FEINT_SUCCESS ||
        feint_device_copy_to(device, arr[k], host, n * sizeof(double)) != FEINT_SUCCESS)
      rc = -1;
  }
  if (rc != 0) {
    fprintf(stderr, "device triad arrays: %s\n", feint_last_error());
    for (int k = 0; k < 3; k++)
      if (arr[k]) feint_device_free(device, arr[k]);
    free(host);
    return -1;
  }
  *t = (perfmodel_dev_triad){arr[0], arr[1], arr[2], host, n, device, 0, 0, 0.0};
  feint_pm_time_triad_device(t->a, t->b, t->c, n, device, 0, 0); /* first launch loads the image */
  static const int threads[] = {128, 256, 512, 1024}, per_thread[] = {0, 1, 4, 16};
  double best = -1.0;
  for (size_t i = 0; i < sizeof threads / sizeof *threads; i++)
    for (size_t j = 0; j < sizeof per_thread / sizeof *per_thread; j++) {
      const size_t per_team = (size_t)threads[i] * (size_t)per_thread[j];
      const int teams = per_thread[j] ? (int)((n + per_team - 1) / per_team) : 0;
      double s = 1e300;
      for (int r = 0; r < 3; r++) {
        const double x = feint_pm_time_triad_device(t->a, t->b, t->c, n, device, teams, threads[i]);
        if (x > 0.0 && x < s) s = x;
      }
      const double gbs = feint_pm_gbs(feint_pm_triad_bytes(n), s);
      if (log && teams)
        fprintf(log,
                "# device triad: %4d threads, %2d indices per thread (%8d teams): %7.1f GB/s\n",
                threads[i], per_thread[j], teams, gbs);
      else if (log)
        fprintf(log, "# device triad: %4d threads, the runtime's teams: %7.1f GB/s\n", threads[i],
                gbs);
      if (gbs > best) best = gbs, t->teams = teams, t->threads = threads[i];
    }
  t->gbs = best;
  if (log)
    fprintf(log, "# device triad: kept %d threads x %d teams (0: the runtime's), %.1f GB/s\n",
            t->threads, t->teams, t->gbs);
  return 0;
}

double perfmodel_dev_triad_s(const perfmodel_dev_triad *t) {
  return feint_pm_time_triad_device(t->a, t->b, t->c, t->n, t->device, t->teams, t->threads);
}

double perfmodel_dev_copy_gbs(const perfmodel_dev_triad *t, int to_device) {
  const size_t bytes = t->n * sizeof(double);
  const double t0 = perfmodel_now_s();
  const feint_status st = to_device ? feint_device_copy_to(t->device, t->a, t->host, bytes)
                                    : feint_device_copy_from(t->device, t->host, t->a, bytes);
  const double s = perfmodel_now_s() - t0;
  return st == FEINT_SUCCESS && s > 0.0 ? feint_pm_gbs((double)bytes, s) : 0.0;
}

void perfmodel_dev_triad_close(perfmodel_dev_triad *t) {
  free(t->host);
  if (t->a) feint_device_free(t->device, t->a);
  if (t->b) feint_device_free(t->device, t->b);
  if (t->c) feint_device_free(t->device, t->c);
  memset(t, 0, sizeof *t);
}
