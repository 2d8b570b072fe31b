/* FNV-1a hash of A and b for every element, problem, variant and layout pair
 * (feint_integrate, trusted and checked), 1037 distinct affine elements. */
#include <stdio.h>
#include <stdlib.h>
#include <stdint.h>
#include <string.h>
#include "feint.h"
static uint64_t fnv(const void *p, size_t n, uint64_t h) {
  const unsigned char *c = p;
  for (size_t i = 0; i < n; i++) { h ^= c[i]; h *= 1099511628211ull; }
  return h;
}
int main(void) {
  const size_t n = 1037;
  static const double refs[3][8][3] = {
    {{0,0,0},{1,0,0},{0,1,0},{0,0,1}},
    {{0,0,0},{1,0,0},{0,1,0},{0,0,1},{1,0,1},{0,1,1}},
    {{0,0,0},{1,0,0},{1,1,0},{0,1,0},{0,0,1},{1,0,1},{1,1,1},{0,1,1}}};
  for (int el = 0; el < 3; el++) {
    int ns = el == 2 ? 8 : el ? 6 : 4;
    double *gn = malloc(n * 3 * ns * 8);
    srand(7);
    for (size_t e = 0; e < n; e++) {
      double s = 1 + 0.1 * rand() / RAND_MAX, t[3], sh = 0.2 * rand() / RAND_MAX;
      for (int a = 0; a < 3; a++) t[a] = (double)rand() / RAND_MAX;
      for (int v = 0; v < ns; v++) for (int a = 0; a < 3; a++)
        gn[e * 3 * ns + v * 3 + a] = s * refs[el][v][a] + t[a] + (a == 0 ? sh * refs[el][v][2] : 0);
    }
    for (int pb = 0; pb < FEINT_PROBLEM_COUNT; pb++)
      for (int var = 0; var < FEINT_VARIANT_COUNT; var++)
        for (int li = 0; li < 2; li++)
          for (int lo = 0; lo < 3; lo++)
            for (int chk = 0; chk < 2; chk++) {
              size_t ng, nc, na, nb;
              feint_array_len(el, pb, FEINT_ARRAY_GEOMETRY, li, n, &ng);
              feint_array_len(el, pb, FEINT_ARRAY_COEFFS, li, n, &nc);
              if (feint_array_len(el, pb, FEINT_ARRAY_A, lo, n, &na)) continue;
              feint_array_len(el, pb, FEINT_ARRAY_B, lo == 2 ? 0 : lo, n, &nb);
              double *g = malloc(ng * 8 + 64), *c = malloc(nc * 8 + 64);
              double *A = calloc(na + 8, 8), *b = calloc(nb + 8, 8);
              size_t ncn; feint_array_len(el, pb, FEINT_ARRAY_COEFFS, 0, n, &ncn);
              double *cn = malloc(ncn * 8 + 64);
              for (size_t i = 0; i < ncn; i++) cn[i] = 1.0 + 1e-3 * (i % 7) + 1e-4 * (i % 13);
              if (li == 0) { memcpy(g, gn, n * 3 * ns * 8); memcpy(c, cn, ncn * 8); }
              else {
                feint_layout_convert(n, 3 * ns, 0, gn, 1, g);
                feint_layout_convert(n, ncn / n, 0, cn, 1, c);
              }
              feint_integrate_desc d = {0};
              d.element = el; d.problem = pb; d.variant = var; d.layout_in = li; d.layout_out = lo;
              d.flags = chk ? 0 : FEINT_FLAG_TRUST_GEOMETRY;
              int st = feint_integrate(&d, n, g, c, A, b);
              uint64_t h = 1469598103934665603ull;
              if (!st) { h = fnv(A, na * 8, h); h = fnv(b, nb * 8, h); }
              printf("%d %d %d %d %d %d st %d %016llx\n", el, pb, var, li, lo, chk, st, (unsigned long long)h);
              free(g); free(c); free(A); free(b); free(cn);
            }
    free(gn);
  }
  return 0;
}
