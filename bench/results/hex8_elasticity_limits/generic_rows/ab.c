/* ab.c - two builds of libfeint, one process, alternated call by call: for
 * each of the two shared libraries (dlopen, RTLD_LOCAL), feint_integrate on
 * the same inputs and outputs, trusted; rep k runs library k % 2 first.
 * args: lib_a.so lib_b.so element problem variant layout(0 natural, 1
 * blocked) n reps [offset of A in doubles from a 64-byte boundary].
 * Geometry: affine, distinct elements (a scaled reference element, each
 * node moved by up to 2% of its size).  Prints min and median ns per
 * element of each library and the median of the per-rep ratios b/a. */
#include <dlfcn.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include "feint.h"
typedef feint_status (*integrate_fn)(const feint_integrate_desc *, size_t, const double *,
                                     const double *, double *, double *);
static int cmp(const void *x, const void *y) {
  const double a = *(const double *)x, b = *(const double *)y;
  return a < b ? -1 : a > b;
}
int main(int argc, char **argv) {
  if (argc < 9) return 2;
  integrate_fn f[2];
  feint_status (*array_len)(feint_element, feint_problem, feint_array, feint_layout, size_t,
                            size_t *) = NULL;
  for (int k = 0; k < 2; k++) {
    void *h = dlopen(argv[1 + k], RTLD_NOW | RTLD_LOCAL);
    if (!h) { printf("%s\n", dlerror()); return 1; }
    f[k] = (integrate_fn)dlsym(h, "feint_integrate");
    if (!array_len) *(void **)&array_len = dlsym(h, "feint_array_len");
  }
  const int et = atoi(argv[3]), pb = atoi(argv[4]), var = atoi(argv[5]), lay = atoi(argv[6]);
  const size_t n = (size_t)atol(argv[7]);
  const int reps = atoi(argv[8]), off = argc > 9 ? atoi(argv[9]) : 0;
  const feint_layout L = lay ? FEINT_LAYOUT_BLOCKED : FEINT_LAYOUT_NATURAL;
  size_t ng, nc, na, nb;
  array_len(et, pb, FEINT_ARRAY_GEOMETRY, L, n, &ng);
  array_len(et, pb, FEINT_ARRAY_COEFFS, L, n, &nc);
  array_len(et, pb, FEINT_ARRAY_A, L, n, &na);
  array_len(et, pb, FEINT_ARRAY_B, L, n, &nb);
  double *g = aligned_alloc(64, (ng + 8) * 8), *c = aligned_alloc(64, (nc + 8) * 8);
  double *A0 = aligned_alloc(64, (na + 16) * 8), *A = A0 + off, *b = aligned_alloc(64, (nb + 8) * 8);
  static const double tet[4][3] = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
  static const double pri[6][3] = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0, 0, 1}, {1, 0, 1}, {0, 1, 1}};
  static const double hex[8][3] = {{0, 0, 0}, {1, 0, 0}, {1, 1, 0}, {0, 1, 0},
                                   {0, 0, 1}, {1, 0, 1}, {1, 1, 1}, {0, 1, 1}};
  const double(*ref)[3] = et == 0 ? tet : et == 1 ? pri : hex;
  const int ns = et == 0 ? 4 : et == 1 ? 6 : 8;
  srand(1);
  for (size_t e = 0; e < n; e++) {
    const double s = 1 + 0.1 * rand() / RAND_MAX;
    for (int v = 0; v < ns; v++)
      for (int a = 0; a < 3; a++) {
        const double x = s * ref[v][a] + 0.02 * rand() / RAND_MAX;
        if (lay) g[(e / 8) * 8 * 3 * ns + (v * 3 + a) * 8 + e % 8] = x;
        else g[e * 3 * ns + v * 3 + a] = x;
      }
  }
  for (size_t i = 0; i < nc; i++) c[i] = 1.0 + 1e-3 * (double)(i % 7);
  feint_integrate_desc d = {0};
  d.element = et, d.problem = pb, d.variant = var, d.layout_in = d.layout_out = L;
  d.flags = FEINT_FLAG_TRUST_GEOMETRY;
  double *t[2] = {malloc(reps * sizeof(double)), malloc(reps * sizeof(double))};
  double *ratio = malloc(reps * sizeof(double));
  for (int r = -1; r < reps; r++) /* r = -1: warm-up of both */
    for (int i = 0; i < 2; i++) {
      const int k = (r + i + 2) % 2;
      const double t0 = omp_get_wtime();
      const feint_status st = f[k](&d, n, g, c, A, b);
      const double dt = omp_get_wtime() - t0;
      if (st) { printf("status %d\n", (int)st); return 1; }
      if (r >= 0) t[k][r] = dt / (double)n * 1e9;
    }
  for (int r = 0; r < reps; r++) ratio[r] = t[1][r] / t[0][r];
  qsort(t[0], reps, sizeof(double), cmp), qsort(t[1], reps, sizeof(double), cmp);
  qsort(ratio, reps, sizeof(double), cmp);
  printf("a min %.1f med %.1f  b min %.1f med %.1f  b/a: min-ratio %.3f median of ratios %.3f\n",
         t[0][0], t[0][reps / 2], t[1][0], t[1][reps / 2], t[1][0] / t[0][0], ratio[reps / 2]);
  return 0;
}
