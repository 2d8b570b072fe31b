/* the validation pass before (three scans) and after (one sweep), interleaved, beside a plain read */
#include <omp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "feint.h"
#include "validate.h"
void old_geometry_scan(int, int, size_t, const double *, int, size_t *, size_t *, size_t *);
size_t old_coeff_scan(int, int, int, size_t, const double *);
size_t old_physics_scan(int, int, int, size_t, const double *, char *, size_t);
static double *al(size_t n) { double *p = aligned_alloc(64, (n * 8 + 63) / 64 * 64);
#pragma omp parallel for schedule(static)
  for (size_t i = 0; i < n; i++) p[i] = 0.5 + 1e-3 * (double)(i % 13);
  return p; }
static double readsum(const double *p, size_t n, const double *q, size_t m) { double s = 0;
#pragma omp parallel for simd schedule(static) reduction(+ : s)
  for (size_t i = 0; i < n; i++) s += p[i];
#pragma omp parallel for simd schedule(static) reduction(+ : s)
  for (size_t i = 0; i < m; i++) s += q[i];
  return s; }
static int cmp(const void *a, const void *b) { double x = *(const double *)a, y = *(const double *)b; return (x > y) - (x < y); }
int main(int argc, char **argv) {
  const int el = atoi(argv[1]), pb = atoi(argv[2]), lay = atoi(argv[3]); const int R = 15;
  size_t n = el == 2 ? 48 : 88, ne; feint_mesh_box_count(el, n, n, n, &ne);
  size_t lg, lc; feint_array_len(el, pb, FEINT_ARRAY_GEOMETRY, lay, ne, &lg);
  feint_array_len(el, pb, FEINT_ARRAY_COEFFS, lay, ne, &lc);
  double *g = al(lg), *c = al(lc);
  feint_mesh_box(el, n, n, n, FEINT_PERTURB_GENERAL, 0.15, 42, lay, g);
  double t[3][64]; volatile double sink = 0;
  for (int r = 0; r < R; r++) {
    double t0 = omp_get_wtime(); size_t a, b, d;
    old_geometry_scan(el, lay, ne, g, 0, &a, &b, &d);
    sink += (double)old_coeff_scan(el, pb, lay, ne, c);
    sink += (double)old_physics_scan(el, pb, lay, ne, c, NULL, 0);
    double t1 = omp_get_wtime(); feint_scan_firsts f;
    feint_validate_scan(el, pb, lay, ne, g, c, 0, &f); sink += (double)f.coeff_phys + f.degenerate;
    double t2 = omp_get_wtime(); sink += readsum(g, lg, c, lc);
    double t3 = omp_get_wtime();
    if (a != f.degenerate || d != f.rescale || f.coeff_range != SIZE_MAX) { printf("MISMATCH\n"); return 1; }
    t[0][r] = t1 - t0; t[1][r] = t2 - t1; t[2][r] = t3 - t2;
  }
  for (int k = 0; k < 3; k++) qsort(t[k], R, sizeof(double), cmp);
  printf("%s %-13s %s %8zu elem, ns/elem min (median): three scans %6.2f (%6.2f)  one sweep %6.2f (%6.2f)  read both %6.2f (%6.2f)\n",
         feint_element_name(el), feint_problem_name(pb), lay ? "blocked" : "natural", ne,
         1e9 * t[0][0] / ne, 1e9 * t[0][R/2] / ne, 1e9 * t[1][0] / ne, 1e9 * t[1][R/2] / ne, 1e9 * t[2][0] / ne, 1e9 * t[2][R/2] / ne);
  return 0;
}
