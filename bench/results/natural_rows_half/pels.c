/* pels.c: pel.c with the output arrays A and b SHIFT (environment variable) doubles past
 * their 64-byte aligned start.  One case through feint_integrate (trusted), best of reps after the first, ns per element.
 * args: layout_in layout_out (0 natural, 1 blocked) variant (feint_variant: 4 ssq_geo_linear,
 *       5 ssq_geo_generic, 6 tensor_geo_linear) element (0 tet4, 1 prism6, 2 hex8) reps
 *       [elements [problem (feint_problem: 1 conv-diff, 2 elasticity, 4 elasticity_qp)]]
 * Coefficients 1 + 1e-3 (i % 7) (lambda, mu > 0). A widened copy of ../tensor_convdiff_rows/pcd.c.
 * Elements: one reference element scaled by 1 + 0.1 u and shifted by (u, u, u), u uniform
 * in [0, 1), a different draw per element; arrays 64-byte aligned. */
#include <stdio.h>
#include <stdlib.h>
#include <omp.h>
#include "feint.h"
static int pb;
int main(int argc, char **argv) {
  int lay_in = argc > 1 ? atoi(argv[1]) : 0, lay_out = argc > 2 ? atoi(argv[2]) : 0;
  int var = argc > 3 ? atoi(argv[3]) : 0, el = argc > 4 ? atoi(argv[4]) : 1;
  int reps = argc > 5 ? atoi(argv[5]) : 10; pb = argc > 7 ? atoi(argv[7]) : 1;
  int ns = el == 2 ? 8 : el ? 6 : 4;
  size_t n = argc > 6 ? (size_t)atol(argv[6]) : (el == 2 ? 2097152 : el ? 4194304 : 8388608);
  double *g = aligned_alloc(64, n * 3 * ns * 8), *A = aligned_alloc(64, n * 9 * ns * ns * 8), *b = aligned_alloc(64, n * 3 * ns * 8);
  static const double refp[6][3] = {{0,0,0},{1,0,0},{0,1,0},{0,0,1},{1,0,1},{0,1,1}};
  static const double refh[8][3] = {{0,0,0},{1,0,0},{1,1,0},{0,1,0},{0,0,1},{1,0,1},{1,1,1},{0,1,1}};
  const double (*ref)[3] = el == 2 ? refh : refp;
  srand(1);
  for (size_t e = 0; e < n; e++) {
    double s = 1 + 0.1 * rand() / RAND_MAX, t[3];
    for (int a = 0; a < 3; a++) t[a] = (double)rand() / RAND_MAX;
    for (int v = 0; v < ns; v++) for (int a = 0; a < 3; a++) {
      double x = s * ref[v][a] + t[a] + (el == 0 && v == 3 && a == 2 ? 0 : 0);
      if (lay_in == 0) g[e * 3 * ns + v * 3 + a] = x;
      else g[(e / 8) * 8 * 3 * ns + (v * 3 + a) * 8 + e % 8] = x;
    }
  }
  size_t nc; feint_array_len(el == 2 ? FEINT_HEX8 : el ? FEINT_PRISM6 : FEINT_TET4, pb, FEINT_ARRAY_COEFFS, FEINT_LAYOUT_NATURAL, n, &nc);
  double *c = aligned_alloc(64, (nc + 8) * 8); for (size_t i = 0; i < nc; i++) c[i] = 1.0 + 1e-3 * (i % 7);
  feint_integrate_desc d = {0};
  d.element = el == 2 ? FEINT_HEX8 : el ? FEINT_PRISM6 : FEINT_TET4; d.problem = pb; d.variant = var;
  d.layout_in = lay_in ? FEINT_LAYOUT_BLOCKED : FEINT_LAYOUT_NATURAL;
  d.layout_out = lay_out == 0 ? FEINT_LAYOUT_NATURAL : FEINT_LAYOUT_BLOCKED;
  d.flags = FEINT_FLAG_TRUST_GEOMETRY;
  double best = 1e30; int sh = getenv("SHIFT") ? atoi(getenv("SHIFT")) : 0;
  for (int r = 0; r < reps; r++) {
    double t0 = omp_get_wtime();
    int st = feint_integrate(&d, n, g, c, A + sh, b + sh);
    double t = omp_get_wtime() - t0;
    if (st) { printf("status %d %s\n", st, feint_last_error()); return 1; }
    if (r && t < best) best = t;
  }
  printf("el %d var %d in %d out %d: %.2f ns/elem\n", el, var, lay_in, lay_out, best / n * 1e9);
  return 0;
}
