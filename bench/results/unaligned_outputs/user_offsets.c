/* The default (checked) call, natural layout, on arrays placed a given number
 * of bytes past a 64-byte boundary, each array its own offset.
 * Usage: user_offsets OFF_GEO OFF_COEF OFF_A OFF_B CASE [TRUST]
 *   CASE 0 tet4 Poisson, 1 prism6 Poisson, 2 hex8 Poisson, 3 tet4 elasticity,
 *   4 hex8 elasticity; qss_geo_generic and ssq_geo_generic, 9 calls each,
 *   min and median in ns per element.
 * Build: clang-19 -O2 -fopenmp -Iinclude user_offsets.c build/lib/libfeint.a -lm */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <omp.h>
#include "feint.h"
static int cmpd(const void *a, const void *b) { double x = *(const double *)a, y = *(const double *)b; return (x > y) - (x < y); }
static double *get(size_t n, long off) {
  char *p = aligned_alloc(64, (n * sizeof(double) + 128) / 64 * 64);
  return (double *)(p + off);
}
int main(int argc, char **argv) {
  long og = atol(argv[1]), oc = atol(argv[2]), oa = atol(argv[3]), ob = atol(argv[4]);
  int which = atoi(argv[5]);
  int trust = argc > 6 ? atoi(argv[6]) : 0;
  struct { feint_element el; feint_problem pb; size_t nx; } cs[] = {
    {FEINT_TET4, FEINT_POISSON, 64}, {FEINT_PRISM6, FEINT_POISSON, 80}, {FEINT_HEX8, FEINT_POISSON, 100},
    {FEINT_TET4, FEINT_ELASTICITY, 40}, {FEINT_HEX8, FEINT_ELASTICITY, 64}};
  int c = which;
    size_t ne; feint_mesh_box_count(cs[c].el, cs[c].nx, cs[c].nx, cs[c].nx, &ne);
    size_t lg, lc, la, lb;
    feint_array_len(cs[c].el, cs[c].pb, FEINT_ARRAY_GEOMETRY, FEINT_LAYOUT_NATURAL, ne, &lg);
    feint_array_len(cs[c].el, cs[c].pb, FEINT_ARRAY_COEFFS, FEINT_LAYOUT_NATURAL, ne, &lc);
    feint_array_len(cs[c].el, cs[c].pb, FEINT_ARRAY_A, FEINT_LAYOUT_NATURAL, ne, &la);
    feint_array_len(cs[c].el, cs[c].pb, FEINT_ARRAY_B, FEINT_LAYOUT_NATURAL, ne, &lb);
    double *g = get(lg, og), *co = get(lc, oc), *A = get(la, oa), *b = get(lb, ob);
    if (feint_mesh_box(cs[c].el, cs[c].nx, cs[c].nx, cs[c].nx, FEINT_PERTURB_GENERAL, 0.1, 7, FEINT_LAYOUT_NATURAL, g)) { puts("box failed"); return 1; }
    for (size_t i = 0; i < lc; i++) co[i] = 1.0 + 0.5 * (double)(i % 7) / 7;
    memset(A, 0, la * sizeof(double)); memset(b, 0, lb * sizeof(double));
    int vs[] = {FEINT_QSS_GEO_GENERIC, FEINT_SSQ_GEO_GENERIC};
    for (int vi_ = 0; vi_ < 2; vi_++) { int v = vs[vi_];
      feint_variant_info vi; feint_variant_get_info((feint_variant)v, &vi);
      const feint_integrate_desc d = {cs[c].el, cs[c].pb, (feint_variant)v, FEINT_LAYOUT_NATURAL, FEINT_LAYOUT_NATURAL, trust ? FEINT_FLAG_TRUST_GEOMETRY : 0, FEINT_TARGET_HOST, 0};
      double t[9];
      for (int r = 0; r < 9; r++) {
        double t0 = omp_get_wtime();
        feint_status s = feint_integrate(&d, ne, g, co, A, b);
        t[r] = (omp_get_wtime() - t0) / ne * 1e9;
        if (s) { printf("status %d\n", s); return 1; }
      }
      qsort(t, 9, sizeof t[0], cmpd);
      feint_element_info ei; feint_element_get_info(cs[c].el, &ei);
      printf("%s-%s %-16s off g%2ld c%2ld A%2ld b%2ld %s: min %8.1f median %8.1f\n", ei.name, feint_problem_name(cs[c].pb), vi.name,
             og, oc, oa, ob, trust ? "trust" : "check", t[0], t[4]);
    }
}
