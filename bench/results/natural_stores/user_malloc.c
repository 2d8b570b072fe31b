/* What a host code gets: arrays from plain malloc (glibc: 16 bytes past a
 * page for large blocks), natural layout, the default (validated) call.
 * Usage: user_malloc OFFSET_BYTES (0: malloc as is; else aligned_alloc(64) + OFFSET) */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <omp.h>
#include "feint.h"
static int cmpd(const void *a, const void *b) { double x = *(const double *)a, y = *(const double *)b; return (x > y) - (x < y); }
static double *get(size_t n, long off) {
  if (off < 0) return malloc(n * sizeof(double));
  char *p = aligned_alloc(64, (n * sizeof(double) + 128) / 64 * 64);
  return (double *)(p + off);
}
int main(int argc, char **argv) {
  long off = argc > 1 ? atol(argv[1]) : -1;
  struct { feint_element el; feint_problem pb; size_t nx; } cs[] = {
    {FEINT_TET4, FEINT_POISSON, 64}, {FEINT_PRISM6, FEINT_POISSON, 80}, {FEINT_HEX8, FEINT_POISSON, 100},
    {FEINT_TET4, FEINT_ELASTICITY, 40}, {FEINT_HEX8, FEINT_ELASTICITY, 64}};
  for (size_t c = 0; c < sizeof cs / sizeof cs[0]; c++) {
    size_t ne; feint_mesh_box_count(cs[c].el, cs[c].nx, cs[c].nx, cs[c].nx, &ne);
    size_t lg, lc, la, lb;
    feint_array_len(cs[c].el, cs[c].pb, FEINT_ARRAY_GEOMETRY, FEINT_LAYOUT_NATURAL, ne, &lg);
    feint_array_len(cs[c].el, cs[c].pb, FEINT_ARRAY_COEFFS, FEINT_LAYOUT_NATURAL, ne, &lc);
    feint_array_len(cs[c].el, cs[c].pb, FEINT_ARRAY_A, FEINT_LAYOUT_NATURAL, ne, &la);
    feint_array_len(cs[c].el, cs[c].pb, FEINT_ARRAY_B, FEINT_LAYOUT_NATURAL, ne, &lb);
    double *g = get(lg, off), *co = get(lc, off), *A = get(la, off), *b = get(lb, off);
    if (feint_mesh_box(cs[c].el, cs[c].nx, cs[c].nx, cs[c].nx, FEINT_PERTURB_GENERAL, 0.1, 7, FEINT_LAYOUT_NATURAL, g)) { puts("box failed"); return 1; }
    for (size_t i = 0; i < lc; i++) co[i] = 1.0 + 0.5 * (double)(i % 7) / 7;
    memset(A, 0, la * sizeof(double)); memset(b, 0, lb * sizeof(double));
    for (int v = 0; v < FEINT_VARIANT_COUNT; v++) {
      if ((v == FEINT_QSS_GEO_LINEAR || v == FEINT_SQS_GEO_LINEAR || v == FEINT_SSQ_GEO_LINEAR) && cs[c].el != FEINT_TET4) continue;
      feint_variant_info vi; feint_variant_get_info((feint_variant)v, &vi);
      const feint_integrate_desc d = {cs[c].el, cs[c].pb, (feint_variant)v, FEINT_LAYOUT_NATURAL, FEINT_LAYOUT_NATURAL, 0, FEINT_TARGET_HOST, 0};
      double t[7];
      for (int r = 0; r < 7; r++) {
        double t0 = omp_get_wtime();
        feint_status s = feint_integrate(&d, ne, g, co, A, b);
        t[r] = (omp_get_wtime() - t0) / ne * 1e9;
        if (s) { printf("status %d\n", s); return 1; }
      }
      qsort(t, 7, sizeof t[0], cmpd);
      feint_element_info ei; feint_element_get_info(cs[c].el, &ei);
      printf("%s-%s %-16s A%%64=%2u elems=%zu natural checked: min %8.1f median %8.1f ns/elem\n", ei.name, feint_problem_name(cs[c].pb), vi.name,
             (unsigned)((uintptr_t)A & 63), ne, t[0], t[3]);
    }
    if (off < 0) { free(g); free(co); free(A); free(b); }
  }
}
