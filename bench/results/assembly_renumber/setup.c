#include <stdio.h>
#include <stdlib.h>
#include <omp.h>
#include "feint.h"
#define T() omp_get_wtime()
int main(int argc, char **argv) {
  feint_mesh m;
  double t0 = T();
  if (feint_mesh_read_msh(argv[1], &m)) return 1;
  double t1 = T();
  size_t nf; feint_mesh_orient(&m, &nf);
  double t2 = T();
  if (argc > 2) feint_mesh_renumber(&m, 3, NULL, NULL);
  double t3 = T();
  feint_csr A; feint_assembly *plan; feint_assembly_map *map;
  feint_csr_create(&m, 1, &A);
  double t4 = T();
  feint_assembly_create(&m, &plan);
  double t5 = T();
  feint_assembly_map_create(&m, &A, &map);
  double t6 = T();
  double *f = malloc(m.num_elem * 8), *b = malloc(A.num_rows * 8);
  for (size_t e = 0; e < m.num_elem; e++) f[e] = 1.0;
  feint_integrate_desc d = {FEINT_TET4, FEINT_POISSON, FEINT_QSS_GEO_LINEAR, 0, 0, 0, 0, 0};
  double t7 = T();
  int st = feint_assemble_mapped(&d, FEINT_ASSEMBLE_COLOURING, &m, plan, map, f, &A, b);
  double t8 = T();
  st |= feint_assemble_mapped(&d, FEINT_ASSEMBLE_COLOURING, &m, plan, map, f, &A, b);
  double t9 = T();
  printf("%s: read %.3f orient %.3f renumber %.3f csr %.3f plan %.3f map %.3f assemble(checked) %.3f %.3f  st %d\n",
         argc > 2 ? "renumbered" : "gmsh order", t1-t0, t2-t1, t3-t2, t4-t3, t5-t4, t6-t5, t8-t7, t9-t8, st);
  return 0;
}
