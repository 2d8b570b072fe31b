/* solve_fixture.h - helpers of the solver tests (t9xx): a symmetric
 * positive definite system from feint's assembly layer (P1 Poisson on a
 * perturbed unit-box mesh, Dirichlet on every boundary face, eliminated
 * symmetrically), the callback operator of a CSR matrix (the solver's
 * internal interface, src/solve/solve_internal.h), norms, and a rigorous
 * lower bound of the matrix's smallest eigenvalue for error bounds. */
#ifndef FEINT_TEST_SOLVE_FIXTURE_H
#define FEINT_TEST_SOLVE_FIXTURE_H

#include <stdlib.h>

#include "mesh_fixture.h"
#include "mesh_util.h"
#include "poisson_mms.h"
#include "solve/solve_internal.h"
#include "test_util.h"

static inline double sf_norm(const double *v, size_t n) {
  double s = 0;
  for (size_t i = 0; i < n; i++) s += v[i] * v[i];
  return sqrt(s);
}
static inline double sf_dist(const double *a, const double *b, size_t n) {
  double s = 0;
  for (size_t i = 0; i < n; i++) s += (a[i] - b[i]) * (a[i] - b[i]);
  return sqrt(s);
}

/* ---- a CSR matrix as the solver's callback operator ---------------------- */
static feint_status sf_csr_apply(void *ctx, const double *x, double *y) {
  return feint_csr_spmv(ctx, x, y, FEINT_TARGET_HOST, 0, 0);
}
static feint_status sf_csr_diagonal(void *ctx, double *d) {
  const feint_csr *A = ctx;
  for (size_t i = 0; i < A->num_rows; i++) {
    d[i] = 0;
    for (int64_t k = A->row_ptr[i]; k < A->row_ptr[i + 1]; k++)
      if ((size_t)A->col_idx[k] == i) d[i] = A->values[k];
  }
  return FEINT_SUCCESS;
}
static inline feint_solve_operator sf_csr_operator(feint_csr *A) {
  feint_solve_operator op = {A->num_rows, 1, 0, 0, sf_csr_apply, sf_csr_diagonal, A};
  return op;
}

/* ||b - A x||_2 with A's own SpMV */
static inline double sf_true_residual(const feint_csr *A, const double *b, const double *x) {
  double *y = malloc(A->num_rows * sizeof(double)), s = 0;
  feint_csr_spmv(A, x, y, FEINT_TARGET_HOST, 0, 0);
  for (size_t i = 0; i < A->num_rows; i++) s += (b[i] - y[i]) * (b[i] - y[i]);
  free(y);
  return sqrt(s);
}

/* max_i sum_j |a_ij| */
static inline double sf_norm_inf(const feint_csr *A) {
  double m = 0;
  for (size_t i = 0; i < A->num_rows; i++) {
    double s = 0;
    for (int64_t k = A->row_ptr[i]; k < A->row_ptr[i + 1]; k++) s += fabs(A->values[k]);
    if (s > m) m = s;
  }
  return m;
}

/* The manufactured Poisson problem (poisson_mms.h) on a mesh of the unit
 * box, assembled by feint_assemble, Dirichlet values from the exact
 * solution on every boundary vertex, eliminated by feint_csr_dirichlet. */
typedef struct {
  feint_mesh mesh;
  feint_csr A;
  double *b, *f;      /* rhs [n], Poisson coefficients [num_elem][N_Q] */
  uint32_t *bc;       /* constrained vertices [num_bc] */
  double *g;          /* their values */
  size_t n, num_bc;
  double lambda_low;  /* lower bound of lambda_min(A) */
} sf_problem;

/* lambda_min of the eliminated matrix = min(lambda_min(A_II), min a_ii of
 * the constrained rows), A_II the interior block.  For A_II: V_h (P1,
 * zero on the boundary) is a subspace of H^1_0 of the unit box, so by
 * min-max the discrete Rayleigh quotients v^T A v / v^T M v are >= the
 * continuous lambda_1 = 3 pi^2; and each element mass matrix vol/20 (I +
 * 1 1^T) >= vol/20 I, so v^T M v >= min_i (sum_{e ni i} vol_e / 20) |v|^2
 * over interior vertices i.  Tets only. */
static inline double sf_lambda_low(const sf_problem *p) {
  const feint_mesh *m = &p->mesh;
  double *patch = calloc(m->num_vertices, sizeof(double));
  for (size_t e = 0; e < m->num_elem; e++) {
    const double vol = mesh_elem_volume(m, e, NULL);
    for (int k = 0; k < 4; k++) patch[m->conn[4 * e + k]] += vol;
  }
  char *is_bc = calloc(m->num_vertices, 1);
  for (size_t k = 0; k < p->num_bc; k++) is_bc[p->bc[k]] = 1;
  double *diag = malloc(p->n * sizeof(double));
  sf_csr_diagonal((void *)&p->A, diag);
  double low = INFINITY;
  for (size_t i = 0; i < m->num_vertices; i++) {
    const double li = is_bc[i] ? diag[i] : 3 * MMS_PI * MMS_PI * patch[i] / 20;
    if (li < low) low = li;
  }
  free(patch), free(is_bc), free(diag);
  return low;
}

static inline int sf_problem_create(sf_problem *p, size_t cells, int perturb, double amp) {
  memset(p, 0, sizeof *p);
  fix_mesh_box(&p->mesh, FEINT_TET4, cells, perturb, amp, 7);
  feint_mesh *m = &p->mesh;
  p->n = m->num_vertices;
  p->f = mms_source_coeffs(m);
  p->b = malloc(p->n * sizeof(double));
  feint_assembly *plan;
  const feint_integrate_desc d = {FEINT_TET4, FEINT_POISSON, FEINT_QSS_GEO_LINEAR, 0, 0, 0, 0, 0};
  if (feint_csr_create(m, 1, &p->A) || feint_assembly_create(m, &plan)) return 0;
  const feint_status st = feint_assemble(&d, FEINT_ASSEMBLE_COLOURING, m, plan, p->f, &p->A, p->b);
  feint_assembly_destroy(plan);
  if (st || feint_mesh_face_vertices(m, -1, &p->num_bc, &p->bc)) return 0;
  p->g = malloc(p->num_bc * sizeof(double));
  for (size_t k = 0; k < p->num_bc; k++) p->g[k] = mms_exact(m->coords + 3 * p->bc[k]);
  if (feint_csr_dirichlet(&p->A, p->b, p->num_bc, p->bc, p->g)) return 0;
  p->lambda_low = sf_lambda_low(p);
  return 1;
}

static inline void sf_problem_destroy(sf_problem *p) {
  feint_csr_destroy(&p->A);
  free(p->b), free(p->f), free(p->bc), free(p->g);
  fix_mesh_free(&p->mesh);
}

#endif /* FEINT_TEST_SOLVE_FIXTURE_H */
