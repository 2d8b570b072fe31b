/* hex8 elasticity (per element lambda, mu, body force) through feint_integrate, trusted:
 * args: layout variant n reps [off: A^e shifted by off doubles from a 64-byte boundary] */
#include <stdio.h>
#include <stdlib.h>
#include <omp.h>
#include "feint.h"
int main(int argc, char **argv) {
  int lay = atoi(argv[1]), var = atoi(argv[2]); size_t n = (size_t)atol(argv[3]); int reps = atoi(argv[4]); int off = argc > 5 ? atoi(argv[5]) : 0;
  static const double ref[8][3] = {{0,0,0},{1,0,0},{1,1,0},{0,1,0},{0,0,1},{1,0,1},{1,1,1},{0,1,1}};
  double *g = aligned_alloc(64, n * 24 * 8), *A0 = aligned_alloc(64, n * 576 * 8 + 64), *A = A0 + off, *b = aligned_alloc(64, n * 24 * 8);
  srand(1);
  for (size_t e = 0; e < n; e++) {
    double s = 1 + 0.1 * rand() / RAND_MAX;
    for (int v = 0; v < 8; v++) for (int a = 0; a < 3; a++) {
      double x = s * ref[v][a] + 0.02 * rand() / RAND_MAX;
      if (lay == 0) g[e * 24 + v * 3 + a] = x; else g[(e / 8) * 8 * 24 + (v * 3 + a) * 8 + e % 8] = x;
    }
  }
  size_t nc; feint_array_len(FEINT_HEX8, FEINT_ELASTICITY, FEINT_ARRAY_COEFFS, FEINT_LAYOUT_NATURAL, n, &nc);
  double *c = aligned_alloc(64, (nc + 8) * 8); for (size_t i = 0; i < nc; i++) c[i] = 1.0 + 1e-3 * (i % 7);
  feint_integrate_desc d = {0};
  d.element = FEINT_HEX8; d.problem = FEINT_ELASTICITY; d.variant = var;
  d.layout_in = d.layout_out = lay ? FEINT_LAYOUT_BLOCKED : FEINT_LAYOUT_NATURAL;
  d.flags = FEINT_FLAG_TRUST_GEOMETRY;
  double best = 1e30;
  for (int r = 0; r < reps; r++) {
    double t0 = omp_get_wtime();
    int st = feint_integrate(&d, n, g, c, A, b);
    double t = omp_get_wtime() - t0;
    if (st) { printf("status %d %s\n", st, feint_last_error()); return 1; }
    if (t < best) best = t;
  }
  printf("hex8 elasticity var %d layout %d off %d: %.1f ns/elem\n", var, lay, off, best / n * 1e9);
  return 0;
}
