/* t704 (t7xx: mesh integration and assembly) - a P1 Poisson problem with a
 * manufactured solution, assembled by feint from a mesh (fused colouring
 * assembly), Dirichlet values on every boundary face (feint_mesh_face_vertices,
 * feint_csr_dirichlet: non-zero values, so the lifting is exercised),
 * solved here by conjugate gradients on feint_csr_spmv: the L2 error
 * converges at order 2.0 +- 0.1 over four refinements (5 meshes).
 *   u = sin(pi x) sin(pi y) sin(pi z) + x + 2y + 3z,  -lap u = 3 pi^2 sin sin sin.
 * The L2 error is integrated with a collapsed (Duffy) 4x4x4 Gauss rule on
 * every tetrahedron, exact to degree 7 in the reference coordinates, so the
 * error measure is far more accurate than the error it measures. */
#include <stdlib.h>

#include "mesh_fixture.h"
#include "test_util.h"

#define PI 3.14159265358979323846

static double exact(const double x[3]) {
  return sin(PI * x[0]) * sin(PI * x[1]) * sin(PI * x[2]) + x[0] + 2 * x[1] + 3 * x[2];
}
static double source(const double x[3]) {
  return 3 * PI * PI * sin(PI * x[0]) * sin(PI * x[1]) * sin(PI * x[2]);
}

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

/* L2 error of the P1 function u_h on the mesh. */
static double l2_error(const feint_mesh *m, const double *uh) {
  static const double gx[4] = {0.0694318442029737, 0.3300094782075719, 0.6699905217924281,
                               0.9305681557970263};
  static const double gw[4] = {0.1739274225687269, 0.3260725774312731, 0.3260725774312731,
                               0.1739274225687269};
  double err2 = 0;
  for (size_t e = 0; e < m->num_elem; e++) {
    const uint32_t *v = m->conn + 4 * e;
    const double *x0 = m->coords + 3 * v[0];
    double J[3][3];
    for (int a = 0; a < 3; a++)
      for (int c = 0; c < 3; c++) J[a][c] = m->coords[3 * v[c + 1] + a] - x0[a];
    const double det = J[0][0] * (J[1][1] * J[2][2] - J[1][2] * J[2][1]) -
                       J[0][1] * (J[1][0] * J[2][2] - J[1][2] * J[2][0]) +
                       J[0][2] * (J[1][0] * J[2][1] - J[1][1] * J[2][0]);
    for (int i = 0; i < 4; i++)
      for (int j = 0; j < 4; j++)
        for (int k = 0; k < 4; k++) {
          const double a = gx[i], bq = gx[j], c = gx[k];
          const double xi[3] = {a, bq * (1 - a), c * (1 - a) * (1 - bq)};
          const double w = gw[i] * gw[j] * gw[k] * (1 - a) * (1 - a) * (1 - bq);
          const double lam[4] = {1 - xi[0] - xi[1] - xi[2], xi[0], xi[1], xi[2]};
          double x[3], u = 0;
          for (int d = 0; d < 3; d++) x[d] = x0[d] + J[d][0] * xi[0] + J[d][1] * xi[1] + J[d][2] * xi[2];
          for (int n = 0; n < 4; n++) u += lam[n] * uh[v[n]];
          const double diff = u - exact(x);
          err2 += w * fabs(det) * diff * diff;
        }
  }
  return sqrt(err2);
}

int main(void) {
  const size_t ns_list[5] = {8, 12, 16, 24, 32};
  double err[5], h[5];
  feint_element_info ei;
  feint_element_get_info(FEINT_TET4, &ei);
  for (int l = 0; l < 5; l++) {
    feint_mesh m;
    fix_mesh_box(&m, FEINT_TET4, ns_list[l], FIX_NONE, 0.0, 1);
    h[l] = 1.0 / (double)ns_list[l];
    const size_t ne = m.num_elem, nv = m.num_vertices;
    /* f at the quadrature points of every element */
    double *f = malloc(ne * 4 * sizeof(double));
    for (size_t e = 0; e < ne; e++)
      for (int q = 0; q < 4; q++) {
        double x[3] = {0, 0, 0};
        for (int n = 0; n < 4; n++)
          for (int a = 0; a < 3; a++) x[a] += ei.phi[q][n] * m.coords[3 * m.conn[4 * e + n] + a];
        f[4 * e + q] = source(x);
      }
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
    for (size_t k = 0; k < nbc; k++) g[k] = exact(m.coords + 3 * bc[k]);
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
    err[l] = l2_error(&m, u);
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
