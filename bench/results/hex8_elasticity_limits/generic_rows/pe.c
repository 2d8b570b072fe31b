/* any case through feint_integrate, trusted, blocked: args elem problem variant n reps */
#include <stdio.h>
#include <stdlib.h>
#include <omp.h>
#include "feint.h"
int main(int argc, char **argv) {
  int et = atoi(argv[1]), pb = atoi(argv[2]), var = atoi(argv[3]);
  size_t n = (size_t)atol(argv[4]); int reps = atoi(argv[5]);
  size_t ng, nc, na, nb;
  feint_array_len(et, pb, FEINT_ARRAY_GEOMETRY, FEINT_LAYOUT_BLOCKED, n, &ng);
  feint_array_len(et, pb, FEINT_ARRAY_COEFFS, FEINT_LAYOUT_BLOCKED, n, &nc);
  feint_array_len(et, pb, FEINT_ARRAY_A, FEINT_LAYOUT_BLOCKED, n, &na);
  feint_array_len(et, pb, FEINT_ARRAY_B, FEINT_LAYOUT_BLOCKED, n, &nb);
  double *g = aligned_alloc(64, (ng + 8) * 8), *c = aligned_alloc(64, (nc + 8) * 8);
  double *A = aligned_alloc(64, (na + 8) * 8), *b = aligned_alloc(64, (nb + 8) * 8);
  static const double tet[4][3] = {{0,0,0},{1,0,0},{0,1,0},{0,0,1}};
  static const double pri[6][3] = {{0,0,0},{1,0,0},{0,1,0},{0,0,1},{1,0,1},{0,1,1}};
  static const double hex[8][3] = {{0,0,0},{1,0,0},{1,1,0},{0,1,0},{0,0,1},{1,0,1},{1,1,1},{0,1,1}};
  const double (*ref)[3] = et == 0 ? tet : et == 1 ? pri : hex; int ns = et == 0 ? 4 : et == 1 ? 6 : 8;
  srand(1);
  for (size_t e = 0; e < n; e++) { double s = 1 + 0.1 * rand() / RAND_MAX;
    for (int v = 0; v < ns; v++) for (int a = 0; a < 3; a++)
      g[(e / 8) * 8 * 3 * ns + (v * 3 + a) * 8 + e % 8] = s * ref[v][a] + 0.02 * rand() / RAND_MAX; }
  for (size_t i = 0; i < nc; i++) c[i] = 1.0 + 1e-3 * (i % 7);
  feint_integrate_desc d = {0};
  d.element = et; d.problem = pb; d.variant = var;
  d.layout_in = d.layout_out = FEINT_LAYOUT_BLOCKED;
  d.flags = FEINT_FLAG_TRUST_GEOMETRY;
  double best = 1e30;
  for (int r = 0; r < reps; r++) {
    double t0 = omp_get_wtime();
    int st = feint_integrate(&d, n, g, c, A, b);
    double t = omp_get_wtime() - t0;
    if (st) { printf("status %d %s\n", st, feint_last_error()); return 1; }
    if (t < best) best = t;
  }
  printf("%.1f\n", best / n * 1e9);
  return 0;
}
