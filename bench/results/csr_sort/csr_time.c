#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "feint.h"
int main(int argc, char **argv) {
  feint_mesh m;
  if (feint_mesh_box_create(FEINT_TET4, 88, 88, 88, FEINT_PERTURB_NONE, 0.0, 1, &m)) return 1;
  if (argc > 1) feint_mesh_renumber(&m, FEINT_RENUMBER_VERTICES | FEINT_RENUMBER_ELEMENTS, NULL, NULL);
  const size_t nv = m.num_vertices, ne = m.num_elem; const int ns = 4;
  double bi = 1e9, bc = 1e9;
  for (int r = 0; r < 5; r++) {
    double t0 = omp_get_wtime();
    size_t *vptr = calloc(nv + 1, sizeof(size_t)); uint32_t *velem = malloc(ne * ns * 4); size_t *next = malloc(nv * 8);
    for (size_t i = 0; i < ne * ns; i++) vptr[m.conn[i] + 1]++;
    for (size_t v = 0; v < nv; v++) vptr[v + 1] += vptr[v];
    memcpy(next, vptr, nv * 8);
    for (size_t e = 0; e < ne; e++) for (int n = 0; n < ns; n++) velem[next[m.conn[e * ns + n]]++] = (uint32_t)e;
    double t = omp_get_wtime() - t0; if (t < bi) bi = t;
    free(vptr); free(velem); free(next);
    feint_csr A; t0 = omp_get_wtime(); feint_csr_create(&m, 1, &A); t = omp_get_wtime() - t0; if (t < bc) bc = t; feint_csr_destroy(&A);
  }
  printf("incidence (serial) %.3f s, csr_create %.3f s\n", bi, bc);
}
