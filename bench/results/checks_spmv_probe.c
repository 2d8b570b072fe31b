/* feint_csr_spmv (the public, checked call) on a tet4 box pattern, host, all
 * threads: min and median of R calls; links against a libfeint.a given on
 * the command line (before/after the pattern check). */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include "feint.h"
static int cmp(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}
int main(int argc, char **argv) {
  size_t n = argc > 1 ? (size_t)atol(argv[1]) : 80;
  int dpv = argc > 2 ? atoi(argv[2]) : 1, reps = 30;
  feint_mesh m;
  if (feint_mesh_box_create(FEINT_TET4, n, n, n, FEINT_PERTURB_GENERAL, 0.1, 1, &m)) { fprintf(stderr, "%s\n", feint_last_error()); return 1; }
  feint_csr A;
  if (feint_csr_create(&m, dpv, &A)) return 1;
  for (size_t k = 0; k < A.nnz; k++) A.values[k] = 1.0 / (double)(k % 7 + 1);
  double *x = malloc(A.num_rows * sizeof(double)), *y = malloc(A.num_rows * sizeof(double));
  for (size_t i = 0; i < A.num_rows; i++) x[i] = 1.0 + (double)(i % 5);
  double t[64];
  for (int r = 0; r < reps; r++) {
    double t0 = omp_get_wtime();
    if (feint_csr_spmv(&A, x, y, FEINT_TARGET_HOST, 0, 0)) return 2;
    t[r] = omp_get_wtime() - t0;
  }
  qsort(t, reps, sizeof t[0], cmp);
  const double bytes = (double)(A.num_rows + 1) * 8 + (double)A.nnz * 12 + 16.0 * (double)A.num_rows;
  printf("rows %zu nnz %zu threads %d: min %.3f ms median %.3f ms (%.2f / %.2f ns per nnz; %.1f GB/s at min over %.0f MB)\n",
         A.num_rows, A.nnz, omp_get_max_threads(), t[0] * 1e3, t[reps / 2] * 1e3,
         t[0] * 1e9 / (double)A.nnz, t[reps / 2] * 1e9 / (double)A.nnz, bytes / t[0] * 1e-9, bytes * 1e-6);
  return 0;
}
