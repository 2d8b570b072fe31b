/* natural vs blocked, input and output separately: 4 Mi perturbed elements, trusted geometry;
 * argv: element (0 tet4), variant (0 qss_geo_linear), optional: problem (default 0 Poisson; 3
 * poisson_kappa), and an input and an output layout (0 natural, 1 blocked) to run that pair only
 * (the others print 0); $NB_N elements instead of 4 Mi.  12 interleaved rounds, the first two
 * dropped; min and median ns per element.  Build: clang-19 -O2 -march=native
 * -fopenmp -Iinclude nb.c build/lib/libfeint.a -lm
 * (The problem, pair and NB_N options came with bench/results/zen3_prism_kappa_sqs/; without
 * them it runs as it did for this directory's figures.) */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "feint.h"
int main(int argc, char **argv) {
  const size_t n = getenv("NB_N") ? (size_t)atol(getenv("NB_N")) : (size_t)1 << 22;
  const int el = argc > 1 ? atoi(argv[1]) : 0, var = argc > 2 ? atoi(argv[2]) : 0;
  const int pb = argc > 3 ? atoi(argv[3]) : 0;
  const int pair_in = argc > 5 ? atoi(argv[4]) : -1, pair_out = argc > 5 ? atoi(argv[5]) : -1;
  size_t ng, nc, na, nb;
  feint_array_entries((feint_element)el, (feint_problem)pb, FEINT_ARRAY_GEOMETRY, &ng);
  feint_array_entries((feint_element)el, (feint_problem)pb, FEINT_ARRAY_COEFFS, &nc);
  feint_array_entries((feint_element)el, (feint_problem)pb, FEINT_ARRAY_A, &na);
  feint_array_entries((feint_element)el, (feint_problem)pb, FEINT_ARRAY_B, &nb);
  double *g[2], *c[2], *A = aligned_alloc(64, n * na * 8), *b = aligned_alloc(64, n * nb * 8);
  feint_element_info ei;
  feint_element_get_info((feint_element)el, &ei);
  for (int l = 0; l < 2; l++) {
    g[l] = aligned_alloc(64, n * ng * 8), c[l] = aligned_alloc(64, n * nc * 8);
  }
  /* reference element nodes, perturbed per element */
  double *nat = g[0];
  srand(1);
  for (size_t e = 0; e < n; e++)
    for (size_t k = 0; k < ng; k++)
      nat[e * ng + k] = ei.nodes[k / 3][k % 3] + 0.05 * ((double)rand() / RAND_MAX - 0.5) + (double)(e % 97);
  for (size_t i = 0; i < n * nc; i++) c[0][i] = 1.0 + 0.1 * ((double)rand() / RAND_MAX);
  feint_layout_convert(n, ng, FEINT_LAYOUT_NATURAL, g[0], FEINT_LAYOUT_BLOCKED, g[1]);
  feint_layout_convert(n, nc, FEINT_LAYOUT_NATURAL, c[0], FEINT_LAYOUT_BLOCKED, c[1]);
  const char *nm[2] = {"natural", "blocked"};
  double best[2][2], med[2][2];
  for (int li = 0; li < 2; li++)
    for (int lo = 0; lo < 2; lo++) best[li][lo] = 1e30;
  double t[2][2][12];
  for (int r = 0; r < 12; r++)
    for (int li = 0; li < 2; li++)
      for (int lo = 0; lo < 2; lo++) {
        if (pair_in >= 0 && (li != pair_in || lo != pair_out)) {
          t[li][lo][r] = 0;
          continue;
        }
        feint_integrate_desc d = {(feint_element)el, (feint_problem)pb, (feint_variant)var,
                                  li ? FEINT_LAYOUT_BLOCKED : FEINT_LAYOUT_NATURAL,
                                  lo ? FEINT_LAYOUT_BLOCKED : FEINT_LAYOUT_NATURAL,
                                  FEINT_FLAG_TRUST_GEOMETRY, 0, 0};
        const double t0 = omp_get_wtime();
        if (feint_integrate(&d, n, g[li], c[li], A, b)) { printf("%s\n", feint_last_error()); return 1; }
        t[li][lo][r] = (omp_get_wtime() - t0) / n * 1e9;
      }
  for (int li = 0; li < 2; li++)
    for (int lo = 0; lo < 2; lo++) {
      double *x = t[li][lo] + 2; /* drop 2 warm-ups */
      for (int i = 0; i < 10; i++)
        for (int j = i + 1; j < 10; j++)
          if (x[j] < x[i]) { double s = x[i]; x[i] = x[j]; x[j] = s; }
      printf("in %-8s out %-8s min %6.2f med %6.2f ns\n", nm[li], nm[lo], x[0], (x[4] + x[5]) / 2);
    }
  return 0;
}
