/* perfmodel_cli.h - the subcommands of the perfmodel tool that live in their
 * own files (characterise.c, report.c).  Not part of libfeint. */
#ifndef FEINT_PERFMODEL_CLI_H
#define FEINT_PERFMODEL_CLI_H

#include <stddef.h>
#include <stdio.h>

/* perfmodel characterise [--reps N] [--mib M] [--no-likwid]: measure this
 * machine's triad bandwidth and FMA rate; print them as a platform file. */
int perfmodel_characterise(int argc, char **argv);

/* perfmodel report [--results DIR] [--out FILE] [--plots DIR]: read every
 * bench result CSV and write the model-vs-measured report. */
int perfmodel_report(int argc, char **argv);

/* Names (file names without ".platform") of the platform files in dir,
 * sorted, any number of any length: *names is a malloc'd array of malloc'd
 * strings (perfmodel_free_names).  Returns the count, or -1 if dir cannot
 * be read. */
int perfmodel_list_platforms(const char *dir, char ***names);
void perfmodel_free_names(char **names, int n);

/* 1 if s is a non-empty plain name: letters, digits, '-', '_', '.', '+'
 * (what may reach a gnuplot script). */
int perfmodel_safe_name(const char *s);

/* spawn.c (linked into the perfmodel tool and feint_bench): 1 if `name` is
 * an executable on PATH; run argv (argv[0] looked up on PATH) without a
 * shell, capturing stdout and stderr into out[cap] (NUL-ended, truncated)
 * if out != NULL, else inheriting both.  Returns the exit status, or -1 if
 * it could not run or did not exit normally. */
int perfmodel_have_program(const char *name);
int perfmodel_run(char *const argv[], char *out, size_t cap);

/* What the Makefile tells the benches about their build (-D...). */
#ifndef FEINT_GIT_HASH
#define FEINT_GIT_HASH "unknown"
#endif
#ifndef FEINT_BUILD_FLAGS
#define FEINT_BUILD_FLAGS "unknown"
#endif
#ifndef FEINT_BUILD_ARCH /* the -target-cpu the build flags resolved to (Makefile) */
#define FEINT_BUILD_ARCH "unknown"
#endif

/* bench_common.c (linked into every bench): the CPU a run measured, the platform
 * name it gives and the result file it writes. */
typedef struct {
  char model[128];       /* /proc/cpuinfo "model name" ("cpu" if none) */
  char native_arch[48];  /* the compiler's -target-cpu for -march=native, e.g. znver4 */
  char native_how[96];   /* which compiler said so (or "from /proc/cpuinfo flags") */
  char cpuid[96];        /* vendor, family, model, stepping, e.g. "GenuineIntel family 6
                          * model 207 stepping 2" ("unknown" if /proc/cpuinfo lacks them):
                          * under a hypervisor the model name may say only "Intel(R)
                          * Xeon(R) Processor", and -march=native names Emerald Rapids
                          * sapphirerapids */
  int cores, cpus;       /* physical cores, logical CPUs online */
} perfmodel_cpu;
void perfmodel_cpu_identify(perfmodel_cpu *id);
/* Lower-case alphanumerics of in, every other run of characters one '-'
 * (none at either end); returns the length written to out[n]. */
size_t perfmodel_slug(char *out, size_t n, const char *in);
/* <model>-<native arch>-<cores>c<threads>t as a slug, e.g. amd-epyc-znver4-2c2t. */
void perfmodel_cpu_platform(const perfmodel_cpu *id, int threads, char *out, size_t n);
/* out = <dir>/<platform>_<YYYY-MM-DD>-<HHMM>_<build arch slug>.csv (UTC now);
 * creates dir (and its parent) if missing.  0, or -1 if it cannot. */
int perfmodel_result_path(char *out, size_t n, const char *dir, const char *platform,
                          const char *build_arch);
/* "# cpu_model: ...", "# native_arch: ...", "# cores: ...", "# logical_cpus: ..." */
void perfmodel_cpu_header(FILE *f, const perfmodel_cpu *id);
/* Small helpers every bench shares (bench_common.c). */
double perfmodel_now_s(void);                            /* CLOCK_MONOTONIC, seconds */
double perfmodel_median(const double *v, int n);         /* of v[0..n-1], n >= 1; v unchanged */
double perfmodel_min(const double *v, int n);            /* of v[0..n-1], n >= 1 */
/* Iterations of the peak-FMA probe (feint_pm_time_fma) for a run of at
 * least `seconds` on this machine: doubled until the fastest of 3 trials
 * takes that long, so that one preempted trial (a loaded machine) or the
 * first parallel region's thread start-up cannot stop the calibration at a
 * probe too short to time, whose rate would then collapse under load. */
size_t perfmodel_fma_iters(double seconds);
/* A bench's result file, opened for writing: csv "auto" names it
 * bench/results/<bench>/<platform>_<date>-<HHMM>_<build arch>.csv (this
 * CPU, `threads` threads), any other csv is the path itself (path[n] gets
 * the name either way).  Starts with "# key: value" lines: bench, platform,
 * date, git, flags, build_arch, threads and the CPU's (perfmodel_cpu_header).
 * NULL (message on stderr) if it cannot be written. */
FILE *perfmodel_result_open(const char *csv, const char *bench, const char *git,
                            const char *build_flags, const char *build_arch, int threads,
                            char *path, size_t n);

/* The device STREAM triad of the --target device benches (bench_common.c):
 * three arrays of n doubles on `device`, and the launch the bound uses.  The
 * bound must be the best the device does, and the offload runtime's default
 * launch reached about half of the H200's HBM bandwidth, so open() times a
 * sweep of launches (threads per team 128-1024; teams: the runtime's choice,
 * or n / (threads k), k = 1, 4, 16), the fastest of 3 runs each, prints one
 * "# device triad" line per launch to `log`, and keeps the fastest. */
typedef struct {
  double *a, *b, *c;
  double *host; /* n doubles of pageable host memory (malloc), for the copy probe */
  size_t n;
  int device, teams, threads; /* the kept launch (<= 0: the runtime's choice) */
  double gbs;                 /* its GB/s in the sweep */
} perfmodel_dev_triad;
/* 0, or -1 after saying why on stderr (t zeroed then). */
int perfmodel_dev_triad_open(perfmodel_dev_triad *t, int device, size_t n, FILE *log);
/* Seconds of one run with the kept launch. */
double perfmodel_dev_triad_s(const perfmodel_dev_triad *t);
/* GB/s of one copy of the n doubles between t->host (pageable, as a user's
 * arrays are) and the device (to_device: host to device, else back), with
 * feint_device_copy_to / feint_device_copy_from; 0 if the copy fails. */
double perfmodel_dev_copy_gbs(const perfmodel_dev_triad *t, int to_device);
void perfmodel_dev_triad_close(perfmodel_dev_triad *t);

#endif /* FEINT_PERFMODEL_CLI_H */
