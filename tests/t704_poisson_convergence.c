/* t704 (t7xx: mesh integration and assembly) - a P1 Poisson problem with a
 * manufactured solution, assembled by feint from a mesh (fused colouring
 * assembly), Dirichlet values on every boundary face (feint_mesh_face_vertices,
 * feint_csr_dirichlet: non-zero values, so the lifting is exercised),
 * solved here by conjugate gradients on feint_csr_spmv: the L2 error
 * converges at order 2.0 +- 0.1 over four refinements (5 meshes).
 *   u = sin(pi x) sin(pi y) sin(pi z) + x + 2y + 3z,  -lap u = 3 pi^2 sin sin sin.
 * The problem and the L2 error: tests/poisson_mms.h. */
#include <stdlib.h>

#include "mesh_fixture.h"
#include "poisson_mms.h"
#include "test_util.h"

/* CG on A u = b; returns the number of iterations (-1: no convergence). */
static int cg(const feint_csr *A, const double *b, double *u) {
  const size_t n = A->num_rows;
  double *r = malloc(n * 8), *p = malloc(n * 8), *q = malloc(n * 8);
  double bb = 0, rr = 0;
  for (size_t i = 0; i < n; i++) u[i] = 0, r[i] = b[i], p[i] = b[i], bb += b[i] * b[i];
  rr = bb;
  int it = 0;
  for (; it < 5000 && rr > 1e-26 * bb; it++) {
    feint_csr_spmv(A, p, q, FEINT_TARGET_HOST, 0, 0);
    double pq = 0;
    for (size_t i = 0; i < n; i++) pq += p[i] * q[i];
    const double alpha = rr / pq;
    double rr_new = 0;
    for (size_t i = 0; i < n; i++) u[i] += alpha * p[i], r[i] -= alpha * q[i], rr_new += r[i] * r[i];
    for (size_t i = 0; i < n; i++) p[i] = r[i] + rr_new / rr * p[i];
    rr = rr_new;
  }
  free(r), free(p), free(q);
  return rr <= 1e-26 * bb ? it : -1;
}

int main(void) {
  const size_t ns_list[5] = {8, 12, 16, 24, 32};
  double err[5], h[5];
  for (int l = 0; l < 5; l++) {
    feint_mesh m;
    fix_mesh_box(&m, FEINT_TET4, ns_list[l], FIX_NONE, 0.0, 1);
    h[l] = 1.0 / (double)ns_list[l];
    const size_t nv = m.num_vertices;
    double *f = mms_source_coeffs(&m);
    feint_csr A;
    feint_assembly *plan;
    double *b = malloc(nv * 8), *u = malloc(nv * 8);
    CHECK_STATUS(feint_csr_create(&m, 1, &A), FEINT_SUCCESS, NULL);
    CHECK_STATUS(feint_assembly_create(&m, &plan), FEINT_SUCCESS, NULL);
    feint_integrate_desc d = {FEINT_TET4, FEINT_POISSON, FEINT_QSS_GEO_LINEAR, 0, 0, 0, 0, 0};
    CHECK_STATUS(feint_assemble(&d, FEINT_ASSEMBLE_COLOURING, &m, plan, f, &A, b), FEINT_SUCCESS,
                 NULL);
    size_t nbc;
    uint32_t *bc;
    CHECK_STATUS(feint_mesh_face_vertices(&m, -1, &nbc, &bc), FEINT_SUCCESS, NULL);
    const size_t n1 = ns_list[l] + 1;
    CHECK(nbc == n1 * n1 * n1 - (n1 - 2) * (n1 - 2) * (n1 - 2), "%zu boundary vertices, expected %zu",
          nbc, n1 * n1 * n1 - (n1 - 2) * (n1 - 2) * (n1 - 2));
    double *g = malloc(nbc * 8);
    for (size_t k = 0; k < nbc; k++) g[k] = mms_exact(m.coords + 3 * bc[k]);
    CHECK_STATUS(feint_csr_dirichlet(&A, b, nbc, bc, g), FEINT_SUCCESS, NULL);
    const int it = cg(&A, b, u);
    CHECK(it > 0, "CG did not converge on mesh %zu", ns_list[l]);
    /* a constrained row's residual is a_ii (g_i - u_i), one component of
     * the final residual: CG stops at |r| <= 1e-13 |b| (recursive residual;
     * 10x allowed for its drift from the true one) */
    double bnorm = 0;
    for (size_t i = 0; i < nv; i++) bnorm += b[i] * b[i];
    bnorm = sqrt(bnorm);
    for (size_t k = 0; k < nbc; k++) {
      double aii = 0;
      for (int64_t p = A.row_ptr[bc[k]]; p < A.row_ptr[bc[k] + 1]; p++)
        if (A.col_idx[p] == (int32_t)bc[k]) aii = A.values[p];
      CHECK(fabs(aii * (u[bc[k]] - g[k])) <= 1e-12 * bnorm,
            "boundary value u[%u] = %.17g, prescribed %.17g", bc[k], u[bc[k]], g[k]);
    }
    err[l] = mms_l2_error(&m, u);
    free(f), free(b), free(u), free(g), free(bc);
    feint_assembly_destroy(plan);
    feint_csr_destroy(&A);
    fix_mesh_free(&m);
  }
  for (int l = 1; l < 5; l++) {
    const double rate = log(err[l - 1] / err[l]) / log(h[l - 1] / h[l]);
    CHECK(fabs(rate - 2.0) <= 0.1, "L2 rate between h = 1/%zu and 1/%zu is %.3f (errors %.3e %.3e)",
          ns_list[l - 1], ns_list[l], rate, err[l - 1], err[l]);
  }
  if (getenv("FEINT_TEST_VERBOSE"))
    for (int l = 0; l < 5; l++) printf("h = 1/%zu  L2 error %.6e\n", ns_list[l], err[l]);
  return test_finish("t704_poisson_convergence");
}
