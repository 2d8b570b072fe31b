#include <stdio.h>
#include <stdlib.h>
#include <omp.h>
#include "feint.h"
static uint64_t h64(const void *p, size_t n, uint64_t h) {
  const unsigned char *c = p;
  for (size_t i = 0; i < n; i++) h = (h ^ c[i]) * 0x100000001b3ull;
  return h;
}
static void one(const feint_mesh *m, int dpv, const char *name) {
  feint_csr A;
  double t0 = omp_get_wtime();
  if (feint_csr_create(m, dpv, &A)) { printf("%s\n", feint_last_error()); exit(1); }
  double t = omp_get_wtime() - t0;
  uint64_t h = h64(A.row_ptr, (A.num_rows + 1) * 8, 1469598103934665603ull);
  h = h64(A.col_idx, A.nnz * 4, h); h = h64(A.values, A.nnz * 8, h);
  printf("%-12s dpv %d rows %zu nnz %zu hash %016llx  %.3f s\n", name, dpv, A.num_rows, A.nnz, (unsigned long long)h, t);
  feint_csr_destroy(&A);
}
int main(int argc, char **argv) {
  feint_mesh m;
  for (int el = 0; el < 3; el++) {
    feint_mesh_box_create(el, 23, 19, 17, FEINT_PERTURB_GENERAL, 0.1, 3, &m);
    feint_mesh_renumber(&m, 1, NULL, NULL);
    for (int dpv = 1; dpv <= 3; dpv += 2) one(&m, dpv, el == 0 ? "box tet" : el == 1 ? "box prism" : "box hex");
    feint_mesh_destroy(&m);
  }
  if (argc > 1) {
    feint_mesh_read_msh(argv[1], &m);
    one(&m, 1, "gmsh");
    feint_mesh_renumber(&m, 3, NULL, NULL);
    one(&m, 1, "gmsh-renum"); one(&m, 3, "gmsh-renum");
  }
  return 0;
}
