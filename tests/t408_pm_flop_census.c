/* t408: perfmodel's executed flop count (perfmodel/flopdag.c) against the
 * flops of the compiled kernels: runs tools/flop-census.sh --quick, which
 * compiles each variant's element function for every case but prism6 and
 * hex8 elasticity (minutes each; `make flop-census` includes them) and
 * counts its floating-point instructions.  Every QSS variant, and Poisson
 * and conv-diff in every loop order, must equal the model exactly; the rest
 * may only execute more.  Needs clang-19 (SKIP without it).  Skipped in the
 * checking builds (FEINT_NO_UNROLL: make sanitize): the census compiles its
 * own kernels whatever the build, so `make test` has already run the same
 * thing, and the counting tool itself runs under the sanitizers in t403. */
#define _XOPEN_SOURCE 700
#include <libgen.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include "test_util.h"

int main(int argc, char **argv) {
  (void)argc;
#ifdef FEINT_NO_UNROLL
  (void)argv;
  printf("SKIP: checking build; make test runs the census\n");
  return 77;
#endif
  if (system("command -v clang-19 >/dev/null 2>&1") != 0 && access("/usr/bin/clang-19", X_OK)) {
    printf("SKIP: no clang-19 to compile the kernels with\n");
    return 77;
  }
  char self[4096], build[4096];
  snprintf(self, sizeof self, "%s", argv[0]);
  if (realpath(dirname(self), build) == NULL) {
    fprintf(stderr, "t408: cannot resolve the directory of %s\n", argv[0]);
    return 1;
  }
  /* the build directory is the parent of tests/; the census runs from the
   * source tree (the working directory of `make check`) */
  char *slash = strrchr(build, '/');
  CHECK(slash != NULL && strcmp(slash, "/tests") == 0, "t408 is not in BUILD/tests: %s", build);
  if (test_failures) return test_finish("t408_pm_flop_census");
  *slash = '\0';
  CHECK(strchr(build, '\'') == NULL, "build path with a quote: %s", build);
  if (test_failures) return test_finish("t408_pm_flop_census");
  CHECK(access("tools/flop-census.sh", X_OK) == 0,
        "tools/flop-census.sh not found: run t408 from the source tree (make check does)");
  if (test_failures) return test_finish("t408_pm_flop_census");
  char cmd[8192];
  snprintf(cmd, sizeof cmd,
           "timeout 900 tools/flop-census.sh --quick '%s' >/tmp/feint_t408_%d.txt 2>&1", build,
           (int)getpid());
  const int rc = system(cmd);
  char log[64];
  snprintf(log, sizeof log, "/tmp/feint_t408_%d.txt", (int)getpid());
  if (!(WIFEXITED(rc) && WEXITSTATUS(rc) == 0)) {
    TEST_FAIL("flop-census.sh exited with %d; its output:", WIFEXITED(rc) ? WEXITSTATUS(rc) : -1);
    FILE *f = fopen(log, "r");
    char line[512];
    while (f && fgets(line, sizeof line, f))
      if (!strstr(line, " equal\n")) fputs(line, stderr);
    if (f) fclose(f);
  }
  remove(log);
  return test_finish("t408_pm_flop_census");
}
