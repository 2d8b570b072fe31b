/* Hash A and b of feint_assemble_mapped for 3 elements x 3 problems x 2 strategies
 * (qss_geo_generic, 9 x 8 x 7 box, checked call), to compare two builds bitwise;
 * with a .msh argument (added for ../assembly_renumber/), that mesh renumbered instead,
 * tets only, Poisson and elasticity; each line also gives the map's bytes.
 * Link: clang-19 -O2 -march=native -fopenmp -Iinclude hash.c build/lib/libfeint.a -lm */
#include "feint.h"
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
static uint64_t h(const double *x, size_t n) {
  uint64_t s = 1469598103934665603ull;
  for (size_t i = 0; i < n; i++) {
    uint64_t b;
    memcpy(&b, x + i, 8);
    s = (s ^ b) * 1099511628211ull;
  }
  return s;
}
int main(int argc, char **argv) {
  const int ets[3] = {FEINT_TET4, FEINT_PRISM6, FEINT_HEX8};
  const int pbs[3] = {FEINT_POISSON, FEINT_CONVDIFF, FEINT_ELASTICITY};
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++)
      for (int st = 0; st < 2; st++) {
        feint_mesh m;
        if (argc > 1 ? (i > 0 || j == 1 || feint_mesh_read_msh(argv[1], &m) ||
                        feint_mesh_renumber(&m, 3, NULL, NULL))
                     : feint_mesh_box_create(ets[i], 9, 8, 7, FEINT_PERTURB_NONE, 0.0, 1, &m))
          continue;
        size_t nc;
        feint_array_entries(ets[i], pbs[j], FEINT_ARRAY_COEFFS, &nc);
        double *c = malloc(m.num_elem * nc * 8);
        for (size_t k = 0; k < m.num_elem * nc; k++)
          c[k] = 0.5 + 1e-3 * (k % 101);
        int dpv = pbs[j] == FEINT_ELASTICITY ? 3 : 1;
        feint_csr A;
        feint_assembly *plan;
        feint_assembly_map *map;
        if (feint_csr_create(&m, dpv, &A) || feint_assembly_create(&m, &plan) ||
            feint_assembly_map_create(&m, &A, &map))
          return 2;
        double *b = malloc(A.num_rows * 8);
        feint_integrate_desc d = {ets[i], pbs[j], FEINT_QSS_GEO_GENERIC, 0, 0, 0, 0, 0};
        if (feint_assemble_mapped(&d, st, &m, plan, map, c, &A, b)) {
          printf("%s\n", feint_last_error());
          return 3;
        }
        size_t mb;
        feint_assembly_map_bytes(map, &mb);
        printf("%d %d %d %016llx %016llx map %zu bytes\n", i, j, st,
               (unsigned long long)h(A.values, A.nnz), (unsigned long long)h(b, A.num_rows), mb);
      }
  return 0;
}
