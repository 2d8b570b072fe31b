#include <stdio.h>
#include <stdlib.h>
#include "feint.h"
int main(int argc, char **argv) {
  /* argv: variant, layout, problem (enum numbers; 2 elasticity, 0 Poisson) */
  const int v = atoi(argv[1]), lay = atoi(argv[2]), pb = argc > 3 ? atoi(argv[3]) : FEINT_ELASTICITY;
  const size_t n = 6; size_t ne;
  feint_mesh_box_count(FEINT_HEX8, n, n, n, &ne);
  size_t lg, lc, la, lb;
  feint_array_len(FEINT_HEX8, pb, FEINT_ARRAY_GEOMETRY, lay, ne, &lg);
  feint_array_len(FEINT_HEX8, pb, FEINT_ARRAY_COEFFS, lay, ne, &lc);
  feint_array_len(FEINT_HEX8, pb, FEINT_ARRAY_A, lay, ne, &la);
  feint_array_len(FEINT_HEX8, pb, FEINT_ARRAY_B, lay, ne, &lb);
  double *g = aligned_alloc(64, (lg * 8 + 63) / 64 * 64), *c = aligned_alloc(64, (lc * 8 + 63) / 64 * 64);
  double *A = aligned_alloc(64, (la * 8 + 63) / 64 * 64), *b = aligned_alloc(64, (lb * 8 + 63) / 64 * 64);
  feint_mesh_box(FEINT_HEX8, n, n, n, FEINT_PERTURB_GENERAL, 0.15, 42, lay, g);
  for (size_t i = 0; i < lc; i++) c[i] = 1.0 + 0.001 * (double)(i % 7);
  feint_integrate_desc d = {FEINT_HEX8, pb, (feint_variant)v, lay, lay, FEINT_FLAG_TRUST_GEOMETRY, FEINT_TARGET_HOST, 0};
  int st = 0;
  for (int r = 0; r < 2; r++) st |= feint_integrate(&d, ne, g, c, A, b);
  printf("%zu elements, status %d\n", ne, st);
  return st;
}
