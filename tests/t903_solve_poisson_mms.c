/* t903_solve_poisson_mms (range t9xx) - the whole path of a user: mesh ->
 * feint_operator (Poisson, Dirichlet on every boundary face) ->
 * feint_operator_rhs (load f = -lap u at the quadrature points, lifted by
 * the boundary values of u) -> feint_solve (pipelined CG and CG, Jacobi)
 * -> the L2 error of the manufactured solution (tests/poisson_mms.h)
 * converges at order 2.0 +- 0.1 over three refinements (4 meshes), for
 * every operator form the operator layer creates, host and device target
 * (host fallback without a GPU).  The solver tolerance (1e-10) keeps the
 * algebraic error far below the discretisation error (>= 1e-3 here). */
#include <stdlib.h>

#include "mesh_fixture.h"
#include "poisson_mms.h"
#include "test_util.h"

#define LEVELS 4

/* L2 error of the solution on an n^3-cell box; NAN if a step failed or the
 * form is not available (*available = 0). */
static double solve_error(size_t cells, feint_operator_form form, feint_target target,
                          feint_solver solver, int *available) {
  feint_mesh m;
  fix_mesh_box(&m, FEINT_TET4, cells, FIX_NONE, 0.0, 1);
  double *f = mms_source_coeffs(&m), err = NAN;
  size_t nbc = 0;
  uint32_t *bc = NULL;
  CHECK_STATUS(feint_mesh_face_vertices(&m, -1, &nbc, &bc), FEINT_SUCCESS, NULL);
  double *g = malloc(nbc * sizeof(double));
  for (size_t k = 0; k < nbc; k++) g[k] = mms_exact(m.coords + 3 * bc[k]);
  const feint_integrate_desc d = {FEINT_TET4, FEINT_POISSON, FEINT_QSS_GEO_LINEAR, 0, 0,
                                  FEINT_FLAG_ALLOW_HOST_FALLBACK, target, 0};
  feint_operator *op = NULL;
  const feint_status st = feint_operator_create(&d, form, FEINT_ASSEMBLE_COLOURING, &m, f, nbc,
                                                bc, &op);
  *available = st != FEINT_ERR_UNSUPPORTED;
  if (st == FEINT_SUCCESS) {
    double *b = malloc(m.num_vertices * sizeof(double));
    double *u = calloc(m.num_vertices, sizeof(double));
    CHECK_STATUS(feint_operator_rhs(op, g, b), FEINT_SUCCESS, NULL);
    const feint_solve_desc sd = {solver, FEINT_PC_JACOBI, 1e-10, 5000, NULL};
    feint_solve_info info;
    const feint_status ss = feint_solve(op, &sd, b, u, &info);
    CHECK(ss == FEINT_SUCCESS && info.converged, "form %d, %zu cells: %s", form, cells,
          feint_last_error());
    if (ss == FEINT_SUCCESS) err = mms_l2_error(&m, u);
    if (getenv("FEINT_TEST_VERBOSE"))
      printf("form %d target %d solver %d: h = 1/%zu, %zu iterations, L2 error %.6e\n", form,
             target, solver, cells, info.iterations, err);
    free(b), free(u);
    feint_operator_destroy(op);
  } else if (*available) {
    TEST_FAIL("feint_operator_create(form %d, target %d): %s", form, target, feint_last_error());
  }
  free(f), free(bc), free(g);
  fix_mesh_free(&m);
  return err;
}

int main(void) {
  const size_t cells[LEVELS] = {8, 12, 16, 24};
  int any = 0;
  for (int form = 0; form < FEINT_OPERATOR_FORM_COUNT; form++)
    for (int target = 0; target < FEINT_TARGET_COUNT; target++)
      for (int solver = 0; solver < FEINT_SOLVER_COUNT; solver++) {
        /* CG once (host, assembled); pipelined CG on every form and target */
        if (solver == FEINT_SOLVER_CG && (form != FEINT_OPERATOR_ASSEMBLED || target != 0))
          continue;
        double err[LEVELS];
        int available = 1;
        for (int l = 0; l < LEVELS && available; l++)
          err[l] = solve_error(cells[l], form, target, solver, &available);
        if (!available) continue;
        any = 1;
        for (int l = 1; l < LEVELS; l++) {
          const double rate = log(err[l - 1] / err[l]) / log((double)cells[l] / (double)cells[l - 1]);
          CHECK(fabs(rate - 2.0) <= 0.1,
                "form %d, target %d, solver %d: L2 rate between h = 1/%zu and 1/%zu is %.3f "
                "(errors %.3e %.3e)",
                form, target, solver, cells[l - 1], cells[l], rate, err[l - 1], err[l]);
        }
      }
  CHECK(any, "no operator form was available");
  return test_finish("t903_solve_poisson_mms");
}
