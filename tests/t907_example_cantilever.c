/* t907_example_cantilever (range t9xx) - example 05 (hex8 cantilever,
 * elasticity, Jacobi-CG on nested meshes) with the matrix-free operator
 * forms: RECOMPUTE and PRECOMPUTED, on the host and with --device (host
 * fallback without a GPU), on 4 levels (3 are pre-asymptotic: observed order
 * 1.45 over m = 1, 2, 4).  Each run must pass the example's
 * own checks (converged solves, compliance growing under refinement,
 * observed order in [1.5, 2.5], Richardson limit within 1% of Timoshenko's
 * deflection); make test already runs the ASSEMBLED form on 4 levels. */
#include <stdlib.h>

#include "test_util.h"

int main(int argc, char **argv) {
  (void)argc;
  char bin_dir[512];
  snprintf(bin_dir, sizeof bin_dir, "%s", argv[0]);
  char *s = strrchr(bin_dir, '/');
  if (s) *s = '\0';
  else snprintf(bin_dir, sizeof bin_dir, ".");
  static const char *runs[] = {"--form recompute", "--form precomputed",
                               "--device --form recompute"};
  for (size_t i = 0; i < sizeof runs / sizeof runs[0]; i++) {
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "%s/../examples/05_hex_cantilever --quiet %s 4", bin_dir, runs[i]);
    CHECK(system(cmd) == 0, "example 05 failed: %s", cmd);
  }
  return test_finish("t907_example_cantilever");
}
