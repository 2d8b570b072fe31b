/* chk [cells [reps [h]]]: tet4 Poisson qss_geo_linear assembly (colouring) on
 * a box mesh of cells^3 x 6 tets, trusted and checked (default flags), by
 * map and by search, the four calls interleaved in every rep; min and
 * median ns per element of each.  h: renumber (Hilbert) first. */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include "feint.h"

static int cmp(const void *a, const void *b) {
  const double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

int main(int argc, char **argv) {
  const size_t cells = argc > 1 ? (size_t)atoi(argv[1]) : 88;
  const int reps = argc > 2 ? atoi(argv[2]) : 11;
  feint_mesh m;
  if (feint_mesh_box_create(FEINT_TET4, cells, cells, cells, FEINT_PERTURB_NONE, 0.0, 1, &m))
    return 1;
  if (argc > 3 &&
      feint_mesh_renumber(&m, FEINT_RENUMBER_VERTICES | FEINT_RENUMBER_ELEMENTS, NULL, NULL))
    return 1;
  size_t nc;
  feint_array_entries(FEINT_TET4, FEINT_POISSON, FEINT_ARRAY_COEFFS, &nc);
  double *coef = malloc(m.num_elem * nc * sizeof(double));
  for (size_t i = 0; i < m.num_elem * nc; i++) coef[i] = 0.5 + 1e-3 * (double)(i % 1000);
  feint_csr A;
  feint_assembly *plan;
  feint_assembly_map *map;
  if (feint_csr_create(&m, 1, &A) || feint_assembly_create(&m, &plan) ||
      feint_assembly_map_create(&m, &A, &map))
    return 2;
  double *b = malloc(A.num_rows * sizeof(double));
  feint_integrate_desc trusted = {FEINT_TET4, FEINT_POISSON, FEINT_QSS_GEO_LINEAR, 0, 0,
                                  FEINT_FLAG_TRUST_GEOMETRY, 0, 0};
  feint_integrate_desc checked = trusted;
  checked.flags = 0;
  const char *name[4] = {"map trusted", "map checked", "search trusted", "search checked"};
  double *t = malloc(4 * (size_t)reps * sizeof(double));
  for (int r = 0; r < reps; r++)
    for (int k = 0; k < 4; k++) {
      const feint_integrate_desc *d = k % 2 ? &checked : &trusted;
      const double t0 = omp_get_wtime();
      const feint_status st =
          feint_assemble_mapped(d, FEINT_ASSEMBLE_COLOURING, &m, plan, k < 2 ? map : NULL, coef,
                                &A, b);
      t[k * reps + r] = omp_get_wtime() - t0;
      if (st != FEINT_SUCCESS) return 3;
    }
  printf("%zu tets, %d threads, %d reps\n", m.num_elem, omp_get_max_threads(), reps);
  for (int k = 0; k < 4; k++) {
    qsort(t + k * reps, (size_t)reps, sizeof(double), cmp);
    printf("%-15s min %6.2f  median %6.2f ns/elem\n", name[k], t[k * reps] / m.num_elem * 1e9,
           t[k * reps + reps / 2] / m.num_elem * 1e9);
  }
  return 0;
}
