/* per-call pieces of feint_assemble_mapped, tet4 Poisson, 1 thread, min ns/elem.
 * parts [cells [reps [h]]]: h renumbers (Hilbert); MINI=1: two rows only */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>
#include "feint.h"
uint64_t feint_asm_fingerprint_conn(const feint_mesh *mesh, int ordered);
uint64_t feint_asm_fingerprint_pattern(const feint_csr *A);
feint_status feint_mesh_check(const feint_mesh *mesh);
#define T(name, expr) do { double best = 1e30; for (int r = 0; r < reps; r++) { \
  double t0 = omp_get_wtime(); expr; double t = omp_get_wtime() - t0; if (t < best) best = t; } \
  printf("%-28s %7.2f ns/elem\n", name, best / ne * 1e9); } while (0)
static void zero(double *v, size_t nnz, double *b, size_t nr) {
#pragma omp parallel
  {
#pragma omp for schedule(static) nowait
    for (size_t k = 0; k < nnz; k++) v[k] = 0.0;
#pragma omp for schedule(static)
    for (size_t i = 0; i < nr; i++) b[i] = 0.0;
  }
}
int main(int argc, char **argv) {
  size_t cells = argc > 1 ? atoi(argv[1]) : 88; int reps = argc > 2 ? atoi(argv[2]) : 7;
  feint_mesh m;
  if (feint_mesh_box_create(FEINT_TET4, cells, cells, cells, FEINT_PERTURB_NONE, 0.0, 1, &m)) return 1;
  if (argc > 3 && feint_mesh_renumber(&m, FEINT_RENUMBER_VERTICES | FEINT_RENUMBER_ELEMENTS, NULL, NULL)) return 1;
  const double ne = (double)m.num_elem;
  size_t nc; feint_array_entries(FEINT_TET4, FEINT_POISSON, FEINT_ARRAY_COEFFS, &nc); printf("nc %zu\n", nc); double *coef = malloc(m.num_elem * nc * 8); for (size_t i = 0; i < m.num_elem * nc; i++) coef[i] = 0.5 + 1e-3 * (i % 1000);
  feint_csr A; feint_assembly *plan; feint_assembly_map *map;
  if (feint_csr_create(&m, 1, &A) || feint_assembly_create(&m, &plan) || feint_assembly_map_create(&m, &A, &map)) return 2;
  double *b = malloc(A.num_rows * 8), *Ae = malloc(m.num_elem * 16 * 8), *be = malloc(m.num_elem * 4 * 8);
  feint_integrate_desc d = {FEINT_TET4, FEINT_POISSON, FEINT_QSS_GEO_LINEAR, 0, 0, FEINT_FLAG_TRUST_GEOMETRY, 0, 0};
  feint_integrate_desc dc = d; dc.flags = 0;
  printf("%zu elems %zu verts nnz %zu (%.2f/elem)\n", m.num_elem, m.num_vertices, A.nnz, A.nnz / ne);
  volatile uint64_t sink = 0;
  if (getenv("MINI")) { /* the switches' runs: only these two rows */
    T("assemble_mapped colour", feint_assemble_mapped(&d, FEINT_ASSEMBLE_COLOURING, &m, plan, map, coef, &A, b));
    T("integrate_mesh trusted", feint_integrate_mesh(&d, &m, coef, Ae, be));
    return 0;
  }
  for (int round = 0; round < 2; round++) {
  T("assemble_mapped colour", feint_assemble_mapped(&d, FEINT_ASSEMBLE_COLOURING, &m, plan, map, coef, &A, b));
  T("assemble_mapped checked", feint_assemble_mapped(&dc, FEINT_ASSEMBLE_COLOURING, &m, plan, map, coef, &A, b));
  T("assemble search colour", feint_assemble(&d, FEINT_ASSEMBLE_COLOURING, &m, plan, coef, &A, b));
  T("integrate_mesh natural", feint_integrate_mesh(&d, &m, coef, Ae, be));
  T("mesh_check", feint_mesh_check(&m));
  T("fp conn ordered", sink += feint_asm_fingerprint_conn(&m, 1));
  T("fp conn sets", sink += feint_asm_fingerprint_conn(&m, 0));
  T("fp pattern", sink += feint_asm_fingerprint_pattern(&A));
  T("zero values+b", { memset(A.values, 0, A.nnz * 8); memset(b, 0, A.num_rows * 8); });
  T("zero loop (omp)", zero(A.values, A.nnz, b, A.num_rows));
  }
  return 0;
}
