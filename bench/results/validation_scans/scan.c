/* the validation pass's three scans, timed alone, beside a plain read of the same arrays */
#include <omp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "feint.h"
void feint_geometry_scan(int, int, size_t, const double *, int, size_t *, size_t *, size_t *);
size_t feint_coeff_scan(int, int, int, size_t, const double *);
size_t feint_physics_scan(int, int, int, size_t, const double *, char *, size_t);
static double *al(size_t n) { double *p = aligned_alloc(64, (n * 8 + 63) / 64 * 64);
#pragma omp parallel for schedule(static)
  for (size_t i = 0; i < n; i++) p[i] = 0.5 + 1e-3 * (double)(i % 13);
  return p; }
static double readsum(const double *p, size_t n) { double s = 0;
#pragma omp parallel for simd schedule(static) reduction(+ : s)
  for (size_t i = 0; i < n; i++) s += p[i];
  return s; }
int main(int argc, char **argv) {
  const int el = atoi(argv[1]), pb = atoi(argv[2]), lay = atoi(argv[3]);
  size_t n = 88, ne; feint_mesh_box_count(el, n, n, n, &ne);
  size_t lg, lc; feint_array_len(el, pb, FEINT_ARRAY_GEOMETRY, lay, ne, &lg);
  feint_array_len(el, pb, FEINT_ARRAY_COEFFS, lay, ne, &lc);
  double *g = al(lg), *c = al(lc);
  feint_mesh_box(el, n, n, n, FEINT_PERTURB_GENERAL, 0.15, 42, lay, g);
  double t[5] = {1e30, 1e30, 1e30, 1e30, 1e30}; volatile double sink = 0;
  for (int r = 0; r < 9; r++) {
    double t0 = omp_get_wtime(); size_t a, b, d;
    feint_geometry_scan(el, lay, ne, g, 0, &a, &b, &d);
    double t1 = omp_get_wtime(); sink += (double)feint_coeff_scan(el, pb, lay, ne, c);
    double t2 = omp_get_wtime(); sink += (double)feint_physics_scan(el, pb, lay, ne, c, NULL, 0);
    double t3 = omp_get_wtime(); sink += readsum(g, lg);
    double t4 = omp_get_wtime(); sink += readsum(c, lc);
    double t5 = omp_get_wtime();
    double d_[5] = {t1 - t0, t2 - t1, t3 - t2, t4 - t3, t5 - t4};
    for (int k = 0; k < 5; k++) if (d_[k] < t[k]) t[k] = d_[k];
  }
  printf("%s %s %s %zu elements, ns per element (min of 9): geometry scan %.2f (read %.2f), coeff scan %.2f, physics scan %.2f (coeff read %.2f)\n",
         feint_element_name(el), feint_problem_name(pb), lay ? "blocked" : "natural", ne,
         1e9 * t[0] / ne, 1e9 * t[3] / ne, 1e9 * t[1] / ne, 1e9 * t[2] / ne, 1e9 * t[4] / ne);
  return 0;
}
