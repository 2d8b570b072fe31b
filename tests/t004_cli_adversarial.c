/* t004_cli_adversarial: hostile command lines and files for the tools (perfmodel, feint_bench): every numeric option out of range, file names and platform names with shell and gnuplot metacharacters, NUL bytes, directories of many long names, a quick bench run; each asserting exit status, message and that nothing was executed. */
#define _XOPEN_SOURCE 700
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "test_util.h"

static char perfmodel[4096], bench[4096];
static char out[1 << 16];

/* Run argv (argv[0] an absolute path) in directory cwd (NULL: ours) with
 * FEINT_PLATFORM_DIR = platform_dir (NULL: unchanged); stdout and stderr go
 * to out.  A tool that runs longer than limit_s is killed (a hang fails the
 * test instead of stalling it).  Returns the exit status, or 128 + signal. */
static int run(char *const argv[], const char *cwd, const char *platform_dir, unsigned limit_s) {
  int fd[2];
  if (pipe(fd) != 0) return -1;
  const pid_t pid = fork();
  if (pid < 0) return -1;
  if (pid == 0) {
    dup2(fd[1], STDOUT_FILENO);
    dup2(fd[1], STDERR_FILENO);
    close(fd[0]);
    close(fd[1]);
    if (cwd && chdir(cwd) != 0) _exit(126);
    if (platform_dir) setenv("FEINT_PLATFORM_DIR", platform_dir, 1);
    setenv("OMP_NUM_THREADS", "2", 1);
    alarm(limit_s); /* survives exec */
    execv(argv[0], argv);
    _exit(127);
  }
  close(fd[1]);
  size_t n = 0;
  for (;;) {
    char tmp[4096];
    const ssize_t r = read(fd[0], tmp, sizeof tmp);
    if (r < 0 && errno == EINTR) continue;
    if (r <= 0) break;
    const size_t take = (size_t)r < sizeof out - 1 - n ? (size_t)r : sizeof out - 1 - n;
    memcpy(out + n, tmp, take);
    n += take;
  }
  out[n] = '\0';
  close(fd[0]);
  int status;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

#define EXPECT_RUN(argv, cwd, pdir, rc_expected, substr)                                     \
  do {                                                                                       \
    const int rc_ = run((argv), (cwd), (pdir), 300);                                         \
    if (rc_ != (rc_expected) || (substr && !strstr(out, (const char *)substr)))              \
      TEST_FAIL("%s %s %s: exit %d (expected %d), output lacks \"%s\" or differs: %.300s",   \
                (argv)[0], (argv)[1], (argv)[2] ? (argv)[2] : "", rc_, (rc_expected),        \
                substr ? (const char *)substr : "", out);                                    \
  } while (0)

static void write_file(const char *dir, const char *name, const char *text, size_t len) {
  char path[8192];
  snprintf(path, sizeof path, "%s/%s", dir, name);
  FILE *f = fopen(path, "wb");
  if (f == NULL) {
    TEST_FAIL("cannot write %s: %s", path, strerror(errno));
    return;
  }
  fwrite(text, 1, len, f);
  fclose(f);
}

static int exists(const char *dir, const char *name) {
  char path[8192];
  snprintf(path, sizeof path, "%s/%s", dir, name);
  struct stat st;
  return stat(path, &st) == 0;
}

static void remove_tree(const char *dir) {
  DIR *d = opendir(dir);
  if (d == NULL) return;
  struct dirent *ent;
  while ((ent = readdir(d)) != NULL) {
    if (!strcmp(ent->d_name, ".") || !strcmp(ent->d_name, "..")) continue;
    char path[8192];
    snprintf(path, sizeof path, "%s/%s", dir, ent->d_name);
    struct stat st;
    if (lstat(path, &st) == 0 && S_ISDIR(st.st_mode))
      remove_tree(path);
    else
      unlink(path);
  }
  closedir(d);
  rmdir(dir);
}

/* Numeric options out of range: no wrap-around, no float-to-int overflow,
 * no endless loop; exit status 2 and a message naming the option. */
static void check_numeric_options(void) {
  static const char *const reps_bad[] = {"4294967299", "2", "1001", "abc", "", "-1", "3x", "1e3",
                                         "99999999999999999999"};
  for (size_t i = 0; i < sizeof reps_bad / sizeof *reps_bad; i++) {
    char *a1[] = {perfmodel, "characterise", "--reps", (char *)reps_bad[i], "--no-likwid", NULL};
    EXPECT_RUN(a1, NULL, NULL, 2, "--reps");
    char *a2[] = {perfmodel, "characterise", "--mib", (char *)reps_bad[i], "--no-likwid", NULL};
    if (strcmp(reps_bad[i], "2") && strcmp(reps_bad[i], "1001")) EXPECT_RUN(a2, NULL, NULL, 2, "--mib");
  }
  char *mib0[] = {perfmodel, "characterise", "--mib", "0", NULL};
  EXPECT_RUN(mib0, NULL, NULL, 2, "--mib");
  char *mibbig[] = {perfmodel, "characterise", "--mib", "65537", NULL};
  EXPECT_RUN(mibbig, NULL, NULL, 2, "--mib");
  char *missing[] = {perfmodel, "characterise", "--reps", NULL};
  EXPECT_RUN(missing, NULL, NULL, 2, "--reps");
  char *table[] = {perfmodel, "tables", "--table", "9", NULL};
  EXPECT_RUN(table, NULL, NULL, 2, "--table 9");
  char *fmt[] = {perfmodel, "tables", "--format", "x;id", NULL};
  EXPECT_RUN(fmt, NULL, NULL, 2, "--format");
  char *cmd[] = {perfmodel, "$(id)", NULL};
  EXPECT_RUN(cmd, NULL, NULL, 2, "unknown command");

  static const struct {
    const char *opt, *value, *msg;
  } bench_bad[] = {
      {"--elements", "-5", "--elements -5"},
      {"--elements", "99999999999999999999", "--elements"},
      {"--elements", "0", "--elements"},
      {"--elements", "12abc", "--elements"},
      {"--elements", "18446744073709551615", "--elements"},
      {"--reps", "4294967299", "--reps"},
      {"--reps", "-3", "--reps"},
      {"--reps", "65", "--reps"},
      {"--budget", "nan", "--budget"},
      {"--budget", "1e300", "--budget"},
      {"--budget", "-1", "--budget"},
      {"--budget", "inf", "--budget"},
      {"--budget", "0x1p2000", "--budget"},
      {"--case", "bogus", "not a case"},
      {"--case", "tet4-poisson,", "not a case"},
      {"--case", "xtet4-poissonx", "not a case"},
      {"--target", "gpu;id", "--target"},
  };
  for (size_t i = 0; i < sizeof bench_bad / sizeof *bench_bad; i++) {
    char *a[] = {bench, "--quick", (char *)bench_bad[i].opt, (char *)bench_bad[i].value, NULL};
    EXPECT_RUN(a, NULL, NULL, 2, bench_bad[i].msg);
  }
  char *unknown[] = {bench, "--quick", "--frobnicate", NULL};
  EXPECT_RUN(unknown, NULL, NULL, 2, "unknown argument");
}

static const char *const platform_text =
    "name = p\ndescription = d\npeak_gflops = 10\npeak_gbs = 10\nbench_gflops = 5\n"
    "bench_gbs = 5\nsource_peak_gflops = s\nsource_peak_gbs = s\nsource_bench_gflops = s\n"
    "source_bench_gbs = s\n";

/* perfmodel platforms: every file of a large directory, long names too;
 * a NUL byte in one is reported. */
static void check_platforms(const char *tmp) {
  char dir[4096];
  snprintf(dir, sizeof dir, "%s/platforms", tmp);
  mkdir(dir, 0700);
  const int count = 70;
  for (int i = 0; i < count; i++) {
    char name[160];
    snprintf(name, sizeof name, "%s%03d.platform",
             i % 2 ? "a-platform-name-of-more-than-sixty-four-characters-to-test-the-listing-" : "p",
             i);
    write_file(dir, name, platform_text, strlen(platform_text));
  }
  char *a[] = {perfmodel, "platforms", NULL};
  EXPECT_RUN(a, NULL, dir, 0, "| p |");
  int rows = 0;
  for (const char *s = out; (s = strstr(s, "\n| p |")) != NULL; s++) rows++;
  CHECK(rows == count, "perfmodel platforms listed %d of %d platform files", rows, count);
  char nul_text[512];
  const size_t len = strlen(platform_text);
  memcpy(nul_text, platform_text, len);
  memcpy(nul_text + len, "\0garbage = yes\nname = x\n", 24);
  write_file(dir, "zz-nul.platform", nul_text, len + 24);
  EXPECT_RUN(a, NULL, dir, 1, "NUL byte");
}

static const char *const csv_body =
    "platform,device,case,element,problem,variant,layout_in,layout_out,num_elem,reps,ns_min,"
    "ns_median,ns_max,bytes_per_elem,flops_per_elem,gbs_at_min,gflops_at_min,triad_gbs_median,"
    "fma_gflops_median,bound_ns,bound_kind,pct_of_bound,status\n"
    "x,host,tet4-poisson,tet4,poisson,qss_geo_linear,natural,natural,1000,3,10,11,12,288,100,28,"
    "10,30,100,9.6,memory,96,PASS\n";

/* perfmodel report: shell and gnuplot metacharacters in result-file names,
 * in the platform header, in labels and in the plots directory run nothing. */
static void check_report_injection(const char *tmp) {
  char dir[4096], text[4096];
  snprintf(dir, sizeof dir, "%s/results", tmp);
  mkdir(dir, 0700);
  snprintf(text, sizeof text, "# platform: ok\n%s", csv_body);
  write_file(dir, "x'$(touch${IFS}PWNED)'_2024-01-01.csv", text, strlen(text));
  write_file(dir, "y';touch PWNED;'_2024-01-01.csv", text, strlen(text));
  write_file(dir, "z`touch PWNED`_2024-01-01.csv", text, strlen(text));
  snprintf(text, sizeof text, "# platform: x' ; system 'touch PWNED' ; print '\n%s", csv_body);
  write_file(dir, "evil_2024-01-01.csv", text, strlen(text));
  snprintf(text, sizeof text, "# platform: a\"b\n%s", csv_body);
  write_file(dir, "quote_2024-01-01.csv", text, strlen(text));
  /* a good file whose one row has a label with gnuplot syntax */
  snprintf(text, sizeof text, "# platform: good\n%s%s", csv_body,
           "x,host,tet4-poisson\" ; system \"touch PWNED,tet4,poisson,qss_geo_generic,natural,"
           "natural,1000,3,10,11,12,288,100,28,10,30,100,9.6,memory,96,PASS\n");
  write_file(dir, "good_2024-01-02.csv", text, strlen(text));
  char *a[] = {perfmodel, "report", "--results", "results", "--out", "REPORT.md", "--plots",
               "pl'ots", NULL};
  const int rc = run(a, tmp, tmp, 300);
  CHECK(rc == 1, "perfmodel report with hostile files: exit %d (expected 1: files skipped): %.400s",
        rc, out);
  int refused = 0;
  for (const char *s = out; (s = strstr(s, "refused")) != NULL; s++) refused++;
  CHECK(refused >= 5, "perfmodel report: %d refusals reported (expected >= 5): %.600s", refused, out);
  CHECK(!exists(tmp, "PWNED") && !exists(dir, "PWNED") && !exists(".", "PWNED"),
        "perfmodel report executed an embedded command (PWNED exists)");
  CHECK(exists(tmp, "REPORT.md"), "perfmodel report wrote no REPORT.md: %.300s", out);
}

int main(int argc, char **argv) {
  (void)argc;
  char self[4096];
  snprintf(self, sizeof self, "%s", argv[0]);
  const char *tests_dir = dirname(self);
  char abs_tests[4096];
  if (realpath(tests_dir, abs_tests) == NULL) {
    fprintf(stderr, "t004: cannot resolve %s\n", tests_dir);
    return 1;
  }
  snprintf(perfmodel, sizeof perfmodel, "%s/../bin/perfmodel", abs_tests);
  snprintf(bench, sizeof bench, "%s/../bin/feint_bench", abs_tests);
  if (access(perfmodel, X_OK) != 0 || access(bench, X_OK) != 0) {
    fprintf(stderr, "t004: tools not built next to the tests (%s, %s)\n", perfmodel, bench);
    return 1;
  }
  char tmp[] = "/tmp/feint_t004_XXXXXX";
  if (mkdtemp(tmp) == NULL) {
    fprintf(stderr, "t004: mkdtemp failed\n");
    return 1;
  }
  check_numeric_options();
  check_platforms(tmp);
  check_report_injection(tmp);
  /* the compiler the bench asks for -march=native is a program name, never
   * shell text */
  setenv("FEINT_NATIVE_CC", "clang-19; touch PWNED; :", 1);
  char *native[] = {bench, "--quick", "--elements", "100", "--case", "tet4-poisson", "--no-csv", NULL};
  const int rc_native = run(native, tmp, NULL, 300);
  unsetenv("FEINT_NATIVE_CC");
  CHECK(rc_native == 0 && !exists(tmp, "PWNED"),
        "feint_bench with FEINT_NATIVE_CC holding shell text: exit %d, PWNED %s", rc_native,
        exists(tmp, "PWNED") ? "created" : "absent");
  /* a quick real bench run: every line validated against the reference */
  char *quick[] = {bench, "--quick", "--elements", "2000", "--case", "tet4-poisson,prism6-convdiff",
                   "--no-csv", NULL};
  const int rc = run(quick, NULL, NULL, 600);
  const size_t n = strlen(out);
  CHECK(rc == 0 && strstr(out, "PASS") && !strstr(out, "FAIL"),
        "feint_bench --quick: exit %d, output ends: %s", rc, out + (n > 800 ? n - 800 : 0));
  remove_tree(tmp);
  return test_finish("t004_cli_adversarial");
}
