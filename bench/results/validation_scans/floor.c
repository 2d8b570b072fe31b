/* The floor of validated/trusted for a separate validation pass (issue 10): tet4 Poisson,
 * qss_geo_generic, 4 Mi perturbed elements, per layout and per round: a plain parallel read
 * of the geometry (the fastest a second pass can go), the validation pass alone
 * (feint_validate_scan, internal), the trusted kernel and the default (checked) call.
 * 12 interleaved rounds, the first two dropped; min and median ns per element.
 * Floor = (trusted + read) / trusted: the pass must finish before the first store (outputs
 * stay untouched on bad input), so it cannot overlap the kernel.
 * Build (from the repository root, after make):
 *   clang-19 -O3 -march=native -fopenmp -Iinclude -Isrc -Iperfmodel \
 *     bench/results/validation_scans/floor.c build/lib/libfeint.a -lm -o /tmp/floor */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include "feint.h"
#include "validate.h"

#define ROUNDS 12
static double read_sum(const double *x, size_t len) {
  double s = 0;
#pragma omp parallel for simd reduction(+ : s) schedule(static)
  for (size_t i = 0; i < len; i++) s += x[i];
  return s;
}
static void sort(double *x, int n) {
  for (int i = 0; i < n; i++)
    for (int j = i + 1; j < n; j++)
      if (x[j] < x[i]) {
        const double s = x[i];
        x[i] = x[j];
        x[j] = s;
      }
}
int main(void) {
  const size_t n = (size_t)1 << 22;
  size_t ng, nc, na, nb;
  feint_array_entries(FEINT_TET4, FEINT_POISSON, FEINT_ARRAY_GEOMETRY, &ng);
  feint_array_entries(FEINT_TET4, FEINT_POISSON, FEINT_ARRAY_COEFFS, &nc);
  feint_array_entries(FEINT_TET4, FEINT_POISSON, FEINT_ARRAY_A, &na);
  feint_array_entries(FEINT_TET4, FEINT_POISSON, FEINT_ARRAY_B, &nb);
  double *g[2], *c[2], *A = aligned_alloc(64, n * na * 8), *b = aligned_alloc(64, n * nb * 8);
  feint_element_info ei;
  feint_element_get_info(FEINT_TET4, &ei);
  for (int l = 0; l < 2; l++) g[l] = aligned_alloc(64, n * ng * 8), c[l] = aligned_alloc(64, n * nc * 8);
  srand(1);
  for (size_t e = 0; e < n; e++)
    for (size_t k = 0; k < ng; k++)
      g[0][e * ng + k] =
          ei.nodes[k / 3][k % 3] + 0.05 * ((double)rand() / RAND_MAX - 0.5) + (double)(e % 97);
  for (size_t i = 0; i < n * nc; i++) c[0][i] = 1.0 + 0.1 * ((double)rand() / RAND_MAX);
  feint_layout_convert(n, ng, FEINT_LAYOUT_NATURAL, g[0], FEINT_LAYOUT_BLOCKED, g[1]);
  feint_layout_convert(n, nc, FEINT_LAYOUT_NATURAL, c[0], FEINT_LAYOUT_BLOCKED, c[1]);
  const char *what[4] = {"read", "scan", "trusted", "checked"};
  double t[2][4][ROUNDS], sink = 0;
  for (int r = 0; r < ROUNDS; r++)
    for (int l = 0; l < 2; l++)
      for (int k = 0; k < 4; k++) {
        const feint_layout lay = l ? FEINT_LAYOUT_BLOCKED : FEINT_LAYOUT_NATURAL;
        feint_integrate_desc d = {FEINT_TET4, FEINT_POISSON, FEINT_QSS_GEO_GENERIC, lay, lay,
                                  k == 2 ? FEINT_FLAG_TRUST_GEOMETRY : 0, 0, 0};
        feint_scan_firsts f;
        const double t0 = omp_get_wtime();
        if (k == 0)
          sink += read_sum(g[l], n * ng);
        else if (k == 1)
          feint_validate_scan(FEINT_TET4, FEINT_POISSON, lay, n, g[l], c[l], 0, &f);
        else if (feint_integrate(&d, n, g[l], c[l], A, b)) {
          printf("%s\n", feint_last_error());
          return 1;
        }
        t[l][k][r] = (omp_get_wtime() - t0) / n * 1e9;
        if (k == 1 && f.degenerate != SIZE_MAX) return 1;
      }
  printf("tet4 poisson qss_geo_generic, %zu elements, %d threads (sink %g)\n", n,
         omp_get_max_threads(), sink);
  for (int l = 0; l < 2; l++) {
    double mn[4], md[4];
    for (int k = 0; k < 4; k++) {
      double *x = t[l][k] + 2;
      sort(x, ROUNDS - 2);
      mn[k] = x[0], md[k] = (x[(ROUNDS - 2) / 2 - 1] + x[(ROUNDS - 2) / 2]) / 2;
    }
    printf("%s:", l ? "blocked" : "natural");
    for (int k = 0; k < 4; k++) printf("  %s %.2f (%.2f)", what[k], mn[k], md[k]);
    printf("\n  checked/trusted %.2f (%.2f), floor (trusted + read)/trusted %.2f (%.2f)\n",
           mn[3] / mn[2], md[3] / md[2], (mn[2] + mn[0]) / mn[2], (md[2] + md[0]) / md[2]);
  }
  return 0;
}
