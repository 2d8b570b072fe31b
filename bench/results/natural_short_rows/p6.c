#include <stdio.h>
#include <stdlib.h>
#include <omp.h>
#include "feint.h"
int main(int argc, char **argv) {
  size_t n = 4194304; int lay_in = argc > 1 ? atoi(argv[1]) : 0, lay_out = argc > 2 ? atoi(argv[2]) : 0;
  int reps = argc > 3 ? atoi(argv[3]) : 10;
  double *g = aligned_alloc(64, n * 18 * 8), *A = aligned_alloc(64, n * 36 * 8), *b = aligned_alloc(64, n * 6 * 8);
  static const double ref[6][3] = {{0,0,0},{1,0,0},{0,1,0},{0,0,1},{1,0,1},{0,1,1}};
  srand(1);
  for (size_t e = 0; e < n; e++) {
    double s = 1 + 0.1 * rand() / RAND_MAX, t[3];
    for (int a = 0; a < 3; a++) t[a] = (double)rand() / RAND_MAX;
    for (int v = 0; v < 6; v++) for (int a = 0; a < 3; a++) {
      double x = s * ref[v][a] + t[a];
      if (lay_in == 0) g[e * 18 + v * 3 + a] = x;
      else g[(e / 8) * 8 * 18 + (v * 3 + a) * 8 + e % 8] = x;
    }
  }
  size_t nc; feint_array_len(FEINT_PRISM6, FEINT_POISSON, FEINT_ARRAY_COEFFS, FEINT_LAYOUT_NATURAL, n, &nc);
  double *c = aligned_alloc(64, (nc + 8) * 8); for (size_t i = 0; i < nc; i++) c[i] = 1.0 + 1e-3 * (i % 7);
  feint_integrate_desc d = {0};
  d.element = FEINT_PRISM6; d.problem = FEINT_POISSON; d.variant = FEINT_QSS_GEO_LINEAR;
  d.layout_in = lay_in ? FEINT_LAYOUT_BLOCKED : FEINT_LAYOUT_NATURAL;
  d.layout_out = lay_out == 0 ? FEINT_LAYOUT_NATURAL : lay_out == 1 ? FEINT_LAYOUT_BLOCKED : FEINT_LAYOUT_PACKED;
  d.flags = FEINT_FLAG_TRUST_GEOMETRY;
  double best = 1e30;
  for (int r = 0; r < reps; r++) {
    double t0 = omp_get_wtime();
    int st = feint_integrate(&d, n, g, c, A, b);
    double t = omp_get_wtime() - t0;
    if (st) { printf("status %d %s\n", st, feint_last_error()); return 1; }
    if (r && t < best) best = t;
  }
  printf("in %d out %d: %.2f ns/elem\n", lay_in, lay_out, best / n * 1e9);
  return 0;
}
