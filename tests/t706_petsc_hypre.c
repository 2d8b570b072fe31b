/* t706 (t7xx: mesh integration and assembly) - feint's CSR matrix goes into
 * PETSc and hypre: (1) MatCreateSeqAIJWithArrays on feint's own values array
 * (no copy: MatSeqAIJGetArray returns that very pointer; row offsets and
 * columns converted to PetscInt where the types differ), (2)
 * MatSetPreallocationCOO + MatSetValuesCOO from feint_csr_coo_rows and the
 * values in place, (3) hypre's IJ interface (HYPRE_IJMatrixSetValues row by
 * row from the CSR arrays).  Each MatMult / ParCSR matvec equals
 * feint_csr_spmv on a non-symmetric tet4 conv-diff matrix and on hex8 and
 * prism6 elasticity matrices (3 dofs per vertex, dof 3 v + c).
 * Tolerance: an entry of A x sums m products, |y - y_ref| <= 2 m eps sum|a x|.
 * Built with PETSc (Debian libpetsc-real-dev, found by pkg-config) and hypre
 * (libhypre-dev); without them it prints SKIP and exits 77. */
#include <stdlib.h>

#if defined(FEINT_HAVE_PETSC) && defined(FEINT_HAVE_HYPRE)
#include <HYPRE.h>
#include <HYPRE_IJ_mv.h>
#include <HYPRE_parcsr_mv.h>
#include <petscmat.h>
#endif

#include "mesh_fixture.h"
#include "test_util.h"

#if defined(FEINT_HAVE_PETSC) && defined(FEINT_HAVE_HYPRE)

/* Sanitizer builds: Open MPI (under PETSc and hypre) leaves allocations of
 * its dlopen'ed components at exit; leak checking here would report MPI, not
 * feint (whose calls in this test are leak-checked by t702-t705). */
const char *__asan_default_options(void);
const char *__asan_default_options(void) { return "detect_leaks=0"; }

static void compare(const char *what, const feint_csr *A, const double *x, const double *y,
                    const double *y_ref) {
  for (size_t i = 0; i < A->num_rows; i++) {
    double scale = 0;
    for (int64_t k = A->row_ptr[i]; k < A->row_ptr[i + 1]; k++)
      scale += fabs(A->values[k] * x[A->col_idx[k]]);
    CHECK_CLOSE(y[i], y_ref[i], 2.0 * (double)(A->row_ptr[i + 1] - A->row_ptr[i]), scale, 1.0,
                what);
  }
}

#define PCHECK(call)                                                  \
  do {                                                                \
    PetscErrorCode ierr_ = (call);                                    \
    if (ierr_) {                                                      \
      TEST_FAIL("%s failed with PETSc error %d", #call, (int)ierr_); \
      return;                                                         \
    }                                                                 \
  } while (0)

static void petsc_no_copy(const feint_csr *A, const double *x, const double *y_ref) {
  const size_t n = A->num_rows;
  /* PetscInt is 32-bit in Debian's build, 64-bit in others: convert only
   * what differs (row offsets are always 64-bit in feint) */
  PetscInt *ia = malloc((n + 1) * sizeof(PetscInt)), *ja = NULL;
  for (size_t i = 0; i <= n; i++) ia[i] = (PetscInt)A->row_ptr[i];
  if (sizeof(PetscInt) == sizeof(int32_t)) {
    ja = (PetscInt *)A->col_idx;
  } else {
    ja = malloc(A->nnz * sizeof(PetscInt));
    for (size_t k = 0; k < A->nnz; k++) ja[k] = A->col_idx[k];
  }
  Mat M;
  Vec vx, vy;
  PCHECK(MatCreateSeqAIJWithArrays(PETSC_COMM_SELF, (PetscInt)n, (PetscInt)n, ia, ja,
                                   A->values, &M));
  PetscScalar *arr;
  PCHECK(MatSeqAIJGetArray(M, &arr));
  CHECK(arr == A->values, "MatCreateSeqAIJWithArrays copied the values (%p, feint %p)",
        (void *)arr, (void *)A->values);
  PCHECK(MatSeqAIJRestoreArray(M, &arr));
  PCHECK(VecCreateSeqWithArray(PETSC_COMM_SELF, 1, (PetscInt)n, x, &vx));
  PCHECK(VecCreateSeq(PETSC_COMM_SELF, (PetscInt)n, &vy));
  PCHECK(MatMult(M, vx, vy));
  const PetscScalar *yp;
  PCHECK(VecGetArrayRead(vy, &yp));
  compare("PETSc MatCreateSeqAIJWithArrays MatMult", A, x, yp, y_ref);
  PCHECK(VecRestoreArrayRead(vy, &yp));
  MatDestroy(&M), VecDestroy(&vx), VecDestroy(&vy);
  free(ia);
  if ((void *)ja != (void *)A->col_idx) free(ja);
}

static void petsc_coo(const feint_csr *A, const double *x, const double *y_ref) {
  const size_t n = A->num_rows, nnz = A->nnz;
  int64_t *rows = malloc(nnz * sizeof(int64_t));
  CHECK_STATUS(feint_csr_coo_rows(A, rows), FEINT_SUCCESS, NULL);
  PetscInt *ci = malloc(nnz * sizeof(PetscInt)), *cj = malloc(nnz * sizeof(PetscInt));
  for (size_t k = 0; k < nnz; k++) ci[k] = (PetscInt)rows[k], cj[k] = (PetscInt)A->col_idx[k];
  Mat M;
  Vec vx, vy;
  PCHECK(MatCreate(PETSC_COMM_SELF, &M));
  PCHECK(MatSetSizes(M, (PetscInt)n, (PetscInt)n, (PetscInt)n, (PetscInt)n));
  PCHECK(MatSetType(M, MATSEQAIJ));
  PCHECK(MatSetPreallocationCOO(M, (PetscCount)nnz, ci, cj));
  PCHECK(MatSetValuesCOO(M, A->values, INSERT_VALUES));
  PCHECK(VecCreateSeqWithArray(PETSC_COMM_SELF, 1, (PetscInt)n, x, &vx));
  PCHECK(VecCreateSeq(PETSC_COMM_SELF, (PetscInt)n, &vy));
  PCHECK(MatMult(M, vx, vy));
  const PetscScalar *yp;
  PCHECK(VecGetArrayRead(vy, &yp));
  compare("PETSc COO MatMult", A, x, yp, y_ref);
  PCHECK(VecRestoreArrayRead(vy, &yp));
  MatDestroy(&M), VecDestroy(&vx), VecDestroy(&vy);
  free(rows), free(ci), free(cj);
}

static void hypre_ij(const feint_csr *A, const double *x, const double *y_ref) {
  const HYPRE_BigInt n = (HYPRE_BigInt)A->num_rows;
  HYPRE_IJMatrix ij;
  HYPRE_IJVector ijx, ijy;
  HYPRE_IJMatrixCreate(MPI_COMM_SELF, 0, n - 1, 0, n - 1, &ij);
  HYPRE_IJMatrixSetObjectType(ij, HYPRE_PARCSR);
  HYPRE_IJMatrixInitialize(ij);
  HYPRE_BigInt *cols = malloc(A->nnz * sizeof(HYPRE_BigInt));
  for (size_t k = 0; k < A->nnz; k++) cols[k] = (HYPRE_BigInt)A->col_idx[k];
  for (HYPRE_BigInt i = 0; i < n; i++) {
    HYPRE_Int ncols = (HYPRE_Int)(A->row_ptr[i + 1] - A->row_ptr[i]);
    HYPRE_IJMatrixSetValues(ij, 1, &ncols, &i, cols + A->row_ptr[i], A->values + A->row_ptr[i]);
  }
  CHECK(HYPRE_IJMatrixAssemble(ij) == 0, "HYPRE_IJMatrixAssemble failed");
  HYPRE_ParCSRMatrix par;
  HYPRE_IJMatrixGetObject(ij, (void **)&par);
  HYPRE_BigInt *idx = malloc((size_t)n * sizeof(HYPRE_BigInt));
  for (HYPRE_BigInt i = 0; i < n; i++) idx[i] = i;
  HYPRE_IJVectorCreate(MPI_COMM_SELF, 0, n - 1, &ijx);
  HYPRE_IJVectorSetObjectType(ijx, HYPRE_PARCSR);
  HYPRE_IJVectorInitialize(ijx);
  HYPRE_IJVectorSetValues(ijx, (HYPRE_Int)n, idx, x);
  HYPRE_IJVectorAssemble(ijx);
  HYPRE_IJVectorCreate(MPI_COMM_SELF, 0, n - 1, &ijy);
  HYPRE_IJVectorSetObjectType(ijy, HYPRE_PARCSR);
  HYPRE_IJVectorInitialize(ijy);
  HYPRE_IJVectorAssemble(ijy);
  HYPRE_ParVector px, py;
  HYPRE_IJVectorGetObject(ijx, (void **)&px);
  HYPRE_IJVectorGetObject(ijy, (void **)&py);
  CHECK(HYPRE_ParCSRMatrixMatvec(1.0, par, px, 0.0, py) == 0, "hypre matvec failed");
  double *y = malloc((size_t)n * sizeof(double));
  HYPRE_IJVectorGetValues(ijy, (HYPRE_Int)n, idx, y);
  compare("hypre IJ matvec", A, x, y, y_ref);
  HYPRE_IJMatrixDestroy(ij), HYPRE_IJVectorDestroy(ijx), HYPRE_IJVectorDestroy(ijy);
  free(cols), free(idx), free(y);
}

/* Assemble one case on an n^3 box (distorted), multiply by a random x with
 * feint_csr_spmv, and compare PETSc's and hypre's products with it. */
static void run_case(feint_element el, feint_problem pb, feint_variant var, size_t n) {
  feint_mesh m;
  fix_mesh_box(&m, el, n, FIX_GENERAL, 0.2, 8);
  const size_t ne = m.num_elem, dpv = pb == FEINT_ELASTICITY ? 3 : 1, nr = dpv * m.num_vertices;
  size_t nc;
  feint_array_entries(el, pb, FEINT_ARRAY_COEFFS, &nc);
  feint_csr A;
  feint_assembly *plan;
  CHECK_STATUS(feint_csr_create(&m, (int)dpv, &A), FEINT_SUCCESS, NULL);
  CHECK_STATUS(feint_assembly_create(&m, &plan), FEINT_SUCCESS, NULL);
  double *coef = malloc(ne * nc * 8), *b = malloc(nr * 8), *x = malloc(nr * 8), *y = malloc(nr * 8);
  test_rng rng = {77};
  for (size_t i = 0; i < ne * nc; i++) /* elasticity: lambda, mu admissible */
    coef[i] = pb == FEINT_ELASTICITY && i % nc < 2 ? test_rng_uniform(&rng, 0.1, 2.0)
                                                   : test_rng_uniform(&rng, -1, 1);
  for (size_t i = 0; i < nr; i++) x[i] = test_rng_uniform(&rng, -1, 1);
  feint_integrate_desc d = {el, pb, var, 0, 0, 0, 0, 0};
  CHECK_STATUS(feint_assemble(&d, FEINT_ASSEMBLE_COLOURING, &m, plan, coef, &A, b), FEINT_SUCCESS,
               NULL);
  CHECK_STATUS(feint_csr_spmv(&A, x, y, FEINT_TARGET_HOST, 0, 0), FEINT_SUCCESS, NULL);
  petsc_no_copy(&A, x, y);
  petsc_coo(&A, x, y);
  hypre_ij(&A, x, y);
  free(coef), free(b), free(x), free(y);
  feint_assembly_destroy(plan);
  feint_csr_destroy(&A);
  fix_mesh_free(&m);
}

int main(int argc, char **argv) {
  if (PetscInitialize(&argc, &argv, NULL, NULL)) {
    fprintf(stderr, "PetscInitialize failed\n");
    return 1;
  }
  HYPRE_Init();
  run_case(FEINT_TET4, FEINT_CONVDIFF, FEINT_QSS_GEO_LINEAR, 4);
  run_case(FEINT_HEX8, FEINT_ELASTICITY, FEINT_QSS_GEO_GENERIC, 3);
  run_case(FEINT_PRISM6, FEINT_ELASTICITY, FEINT_SSQ_GEO_GENERIC, 3);
  HYPRE_Finalize();
  PetscFinalize();
  return test_finish("t706_petsc_hypre");
}

#else
int main(void) {
  printf("SKIP: built without %s (install Debian's libpetsc-real-dev and libhypre-dev: make deps)\n",
#ifndef FEINT_HAVE_PETSC
         "PETSc"
#else
         "hypre"
#endif
  );
  return TEST_SKIP_EXIT;
}
#endif
