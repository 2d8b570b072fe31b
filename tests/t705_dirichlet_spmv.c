/* t705 (t7xx: mesh integration and assembly) - feint_csr_spmv on host and
 * device code (host fallback without a GPU) equals a dense product written
 * here; feint_csr_dirichlet equals a dense symmetric elimination written
 * here, keeps the matrix symmetric positive definite (a dense Cholesky
 * factorisation succeeds) and its solution takes the prescribed values;
 * feint_mesh_face_vertices by tag; error paths.
 * Tolerance: an SpMV entry sums m products, |y - y_ref| <= 2 m eps sum|a x|. */
#include <stdlib.h>
#include <string.h>

#include "mesh_fixture.h"
#include "test_util.h"

static void to_dense(const feint_csr *A, double *D) {
  const size_t n = A->num_rows;
  memset(D, 0, n * n * sizeof(double));
  for (size_t i = 0; i < n; i++)
    for (int64_t k = A->row_ptr[i]; k < A->row_ptr[i + 1]; k++) D[i * n + A->col_idx[k]] = A->values[k];
}

/* 1 if the dense symmetric D is positive definite (Cholesky succeeds). */
static int cholesky_ok(const double *D, size_t n) {
  double *L = malloc(n * n * sizeof(double));
  memcpy(L, D, n * n * sizeof(double));
  int ok = 1;
  for (size_t j = 0; j < n && ok; j++) {
    double s = L[j * n + j];
    for (size_t k = 0; k < j; k++) s -= L[j * n + k] * L[j * n + k];
    if (!(s > 0)) ok = 0;
    const double d = sqrt(s);
    L[j * n + j] = d;
    for (size_t i = j + 1; i < n && ok; i++) {
      double t = L[i * n + j];
      for (size_t k = 0; k < j; k++) t -= L[i * n + k] * L[j * n + k];
      L[i * n + j] = t / d;
    }
  }
  free(L);
  return ok;
}

int main(void) {
  feint_mesh m;
  fix_mesh_box(&m, FEINT_TET4, 3, FIX_GENERAL, 0.2, 3);
  const size_t nv = m.num_vertices, ne = m.num_elem;
  feint_csr A;
  feint_assembly *plan;
  CHECK_STATUS(feint_csr_create(&m, 1, &A), FEINT_SUCCESS, NULL);
  CHECK_STATUS(feint_assembly_create(&m, &plan), FEINT_SUCCESS, NULL);
  double *f = malloc(ne * 4 * 8), *b = malloc(nv * 8), *x = malloc(nv * 8), *y = malloc(nv * 8);
  test_rng rng = {42};
  for (size_t i = 0; i < ne * 4; i++) f[i] = test_rng_uniform(&rng, -1, 1);
  for (size_t i = 0; i < nv; i++) x[i] = test_rng_uniform(&rng, -1, 1);
  feint_integrate_desc d = {FEINT_TET4, FEINT_POISSON, FEINT_QSS_GEO_LINEAR, 0, 0, 0, 0, 0};
  CHECK_STATUS(feint_assemble(&d, FEINT_ASSEMBLE_COLOURING, &m, plan, f, &A, b), FEINT_SUCCESS, NULL);
  double *D = malloc(nv * nv * 8);
  to_dense(&A, D);

  /* SpMV, host and device code */
  for (int t = 0; t < FEINT_TARGET_COUNT; t++) {
    for (size_t i = 0; i < nv; i++) y[i] = -777.0;
    CHECK_STATUS(feint_csr_spmv(&A, x, y, (feint_target)t, 0, t ? FEINT_FLAG_ALLOW_HOST_FALLBACK : 0),
                 FEINT_SUCCESS, NULL);
    for (size_t i = 0; i < nv; i++) {
      double ref = 0, scale = 0;
      for (size_t j = 0; j < nv; j++) ref += D[i * nv + j] * x[j], scale += fabs(D[i * nv + j] * x[j]);
      CHECK_CLOSE(y[i], ref, 2.0 * 27, scale, 1.0, t ? "spmv device" : "spmv host");
    }
  }
  /* the host loop adds each row's entries one at a time in their order
   * (feint.h): the same bits as this one-row loop, for the whole matrix and
   * for its first nv - 3 rows (a rectangular matrix, rows not a multiple
   * of any SIMD width) */
  for (int part = 0; part < 2; part++) {
    feint_csr P = A;
    P.num_rows = part ? nv - 3 : nv;
    P.nnz = (size_t)A.row_ptr[P.num_rows];
    for (size_t i = 0; i < nv; i++) y[i] = -777.0;
    CHECK_STATUS(feint_csr_spmv(&P, x, y, FEINT_TARGET_HOST, 0, 0), FEINT_SUCCESS, NULL);
    for (size_t i = 0; i < P.num_rows; i++) {
      double s = 0.0;
      for (int64_t k = P.row_ptr[i]; k < P.row_ptr[i + 1]; k++) s += P.values[k] * x[P.col_idx[k]];
      if (memcmp(&s, &y[i], sizeof s) != 0) {
        TEST_FAIL("spmv host (%zu rows) row %zu = %.17g, the entries added in order give %.17g",
                  P.num_rows, i, y[i], s);
        break;
      }
    }
    CHECK(y[nv - 1] == -777.0 || !part, "spmv host wrote row %zu of a %zu-row matrix", nv - 1,
          P.num_rows);
  }

  /* Dirichlet on the faces of tags 1 (x = 0) and 6 (z = 1), values g */
  size_t n1, n6;
  uint32_t *v1, *v6;
  CHECK_STATUS(feint_mesh_face_vertices(&m, 1, &n1, &v1), FEINT_SUCCESS, NULL);
  CHECK_STATUS(feint_mesh_face_vertices(&m, 6, &n6, &v6), FEINT_SUCCESS, NULL);
  CHECK(n1 == 16 && n6 == 16, "faces of tag 1 and 6 have %zu and %zu vertices, expected 16", n1, n6);
  for (size_t k = 0; k < n1; k++) CHECK(m.coords[3 * v1[k]] == 0.0, "vertex %u not on x = 0", v1[k]);
  const size_t nbc = n1 + n6;
  uint32_t *bc = malloc(nbc * 4);
  double *g = malloc(nbc * 8);
  memcpy(bc, v1, n1 * 4), memcpy(bc + n1, v6, n6 * 4); /* shared edge: repeated dofs */
  for (size_t k = 0; k < nbc; k++) g[k] = 1.0 + m.coords[3 * bc[k] + 1];
  /* dense reference elimination */
  unsigned char *isbc = calloc(nv, 1);
  double *gv = calloc(nv, 8), *Dr = malloc(nv * nv * 8), *br = malloc(nv * 8);
  for (size_t k = 0; k < nbc; k++) isbc[bc[k]] = 1, gv[bc[k]] = g[k];
  for (size_t i = 0; i < nv; i++) {
    br[i] = b[i];
    for (size_t j = 0; j < nv; j++) {
      if (!isbc[i] && isbc[j]) br[i] -= D[i * nv + j] * gv[j];
      Dr[i * nv + j] = (isbc[i] || isbc[j]) && i != j ? 0.0 : D[i * nv + j];
    }
    if (isbc[i]) br[i] = D[i * nv + i] * gv[i];
  }
  CHECK_STATUS(feint_csr_dirichlet(&A, b, nbc, bc, g), FEINT_SUCCESS, NULL);
  to_dense(&A, D);
  for (size_t i = 0; i < nv * nv; i++) CHECK(D[i] == Dr[i], "eliminated A differs at %zu", i);
  for (size_t i = 0; i < nv; i++) {
    double scale = fabs(b[i]);
    for (size_t j = 0; j < nv; j++) scale += fabs(Dr[i * nv + j] * gv[j]) + fabs(Dr[i * nv + j]);
    CHECK_CLOSE(b[i], br[i], 2.0 * 27, scale, 1.0, "lifted b");
  }
  for (size_t i = 0; i < nv; i++)
    for (size_t j = 0; j < i; j++) CHECK(D[i * nv + j] == D[j * nv + i], "not symmetric at %zu %zu", i, j);
  CHECK(cholesky_ok(D, nv), "eliminated matrix is not positive definite");

  /* errors: outputs untouched */
  const double b0 = b[0], a0 = A.values[0];
  uint32_t badbc[2] = {0, (uint32_t)nv};
  CHECK_STATUS(feint_csr_dirichlet(&A, b, 2, badbc, NULL), FEINT_ERR_OUT_OF_RANGE, "bc_dofs[1]");
  CHECK_STATUS(feint_csr_dirichlet(&A, NULL, 2, badbc, NULL), FEINT_ERR_NULL_ARG, "b is NULL");
  CHECK_STATUS(feint_csr_dirichlet(&A, b, 2, NULL, NULL), FEINT_ERR_NULL_ARG, "bc_dofs");
  CHECK(b[0] == b0 && A.values[0] == a0, "outputs written on error");
  CHECK_STATUS(feint_csr_spmv(&A, x, x, FEINT_TARGET_HOST, 0, 0), FEINT_ERR_UNSUPPORTED, "overlap");
  CHECK_STATUS(feint_csr_spmv(&A, x, y, FEINT_TARGET_HOST, 0, 0x40), FEINT_ERR_OUT_OF_RANGE, "flags");
  int ndev = 0;
  feint_device_count(&ndev);
  if (ndev == 0)
    CHECK_STATUS(feint_csr_spmv(&A, x, y, FEINT_TARGET_DEVICE, 0, 0), FEINT_ERR_NO_DEVICE, "device = 0");
  CHECK_STATUS(feint_mesh_face_vertices(&m, 1, NULL, &v1), FEINT_ERR_NULL_ARG, "count");
  free(v1), free(v6), free(bc), free(g), free(isbc), free(gv), free(Dr), free(br);
  free(f), free(b), free(x), free(y), free(D);
  feint_assembly_destroy(plan);
  feint_csr_destroy(&A);
  fix_mesh_free(&m);
  return test_finish("t705_dirichlet_spmv");
}
