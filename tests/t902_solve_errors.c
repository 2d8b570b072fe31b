/* t902_solve_errors (range t9xx) - feint_solve's bad input and named
 * stops: NULL arguments, enum values, tolerances <= 0, NaN or Inf (rejected,
 * outputs untouched), a history that cannot be sized, b and x overlapping,
 * NaN/Inf in b or in the initial guess (naming the index), a non-symmetric
 * operator (refused), an indefinite operator (FEINT_ERR_BREAKDOWN at the
 * first negative curvature), a negative diagonal under Jacobi (named), an
 * operator that starts producing NaN (FEINT_ERR_NOT_FINITE, x = the last
 * iterate), max_iter = 0 (the initial residual, NOT_CONVERGED, x
 * untouched), a small max_iter (NOT_CONVERGED with the residual), b = 0
 * (x = 0).  Operators: matrices written here behind the solver's callback
 * interface, and feint_operator. */
#include <stdlib.h>

#include "solve_fixture.h"

#define N 40

/* a diagonal matrix d[i] */
typedef struct {
  double d[N];
  int calls, nan_from_call; /* apply returns NaN from this call on (0: never) */
} diag_op;
static feint_status diag_apply(void *ctx, const double *x, double *y) {
  diag_op *o = ctx;
  o->calls++;
  for (int i = 0; i < N; i++) y[i] = o->d[i] * x[i];
  if (o->nan_from_call && o->calls >= o->nan_from_call) y[N / 3] = NAN;
  return FEINT_SUCCESS;
}
static feint_status diag_diagonal(void *ctx, double *diag) {
  const diag_op *o = ctx;
  for (int i = 0; i < N; i++) diag[i] = o->d[i];
  return FEINT_SUCCESS;
}

static feint_solve_operator diag_operator(diag_op *o) {
  feint_solve_operator op = {N, 1, 0, 0, diag_apply, diag_diagonal, o};
  return op;
}

static int all_equal(const double *x, double v) {
  for (int i = 0; i < N; i++)
    if (x[i] != v) return 0;
  return 1;
}

static void check_arguments(void) {
  diag_op o = {{0}, 0, 0};
  for (int i = 0; i < N; i++) o.d[i] = 1.0 + i;
  feint_solve_operator op = diag_operator(&o);
  double b[N], x[N], hist[N + 1];
  for (int i = 0; i < N; i++) b[i] = 1.0, x[i] = 0.5;
  const feint_solve_info sentinel = {12345, -1.0, -2.0, 7};
  feint_solve_info in = sentinel;
  feint_solve_desc d = {FEINT_SOLVER_CG, FEINT_PC_JACOBI, 1e-8, 100, hist};
#define UNTOUCHED(what)                                                                  \
  CHECK(all_equal(x, 0.5) && memcmp(&in, &sentinel, sizeof in) == 0, "%s: outputs changed", \
        (what))
  CHECK_STATUS(feint_solve_run(NULL, &d, b, x, &in, 0), FEINT_ERR_NULL_ARG, "op");
  CHECK_STATUS(feint_solve(NULL, &d, b, x, &in), FEINT_ERR_NULL_ARG, "op");
  CHECK_STATUS(feint_solve_run(&op, NULL, b, x, &in, 0), FEINT_ERR_NULL_ARG, "desc");
  CHECK_STATUS(feint_solve_run(&op, &d, NULL, x, &in, 0), FEINT_ERR_NULL_ARG, "b is NULL");
  CHECK_STATUS(feint_solve_run(&op, &d, b, NULL, &in, 0), FEINT_ERR_NULL_ARG, "x is NULL");
  UNTOUCHED("NULL arguments");
  const double bad_rtol[5] = {0.0, -1e-8, NAN, INFINITY, -INFINITY};
  for (int k = 0; k < 5; k++) {
    d.rtol = bad_rtol[k];
    CHECK_STATUS(feint_solve_run(&op, &d, b, x, &in, 0), FEINT_ERR_OUT_OF_RANGE, "rtol");
  }
  d.rtol = 1e-8;
  UNTOUCHED("bad rtol");
  d.solver = FEINT_SOLVER_COUNT;
  CHECK_STATUS(feint_solve_run(&op, &d, b, x, &in, 0), FEINT_ERR_OUT_OF_RANGE, "desc->solver");
  d.solver = FEINT_SOLVER_CG;
  d.pc = (feint_pc)-1;
  CHECK_STATUS(feint_solve_run(&op, &d, b, x, &in, 0), FEINT_ERR_OUT_OF_RANGE, "desc->pc");
  d.pc = FEINT_PC_JACOBI;
  d.max_iter = SIZE_MAX;
  CHECK_STATUS(feint_solve_run(&op, &d, b, x, &in, 0), FEINT_ERR_BAD_SIZE, "max_iter");
  d.max_iter = 100;
  CHECK_STATUS(feint_solve_run(&op, &d, x, x, &in, 0), FEINT_ERR_UNSUPPORTED, "overlap");
  CHECK_STATUS(feint_solve_run(&op, &d, x + 1, x, &in, 0), FEINT_ERR_UNSUPPORTED, "overlap");
  UNTOUCHED("enums, sizes, overlap");
  b[7] = NAN;
  CHECK_STATUS(feint_solve_run(&op, &d, b, x, &in, 0), FEINT_ERR_NOT_FINITE, "b[7]");
  b[7] = 1.0;
  b[N - 1] = -INFINITY;
  CHECK_STATUS(feint_solve_run(&op, &d, b, x, &in, 0), FEINT_ERR_NOT_FINITE, "b[39]");
  b[N - 1] = 1.0;
  UNTOUCHED("NaN/Inf in b");
  x[3] = INFINITY;
  CHECK_STATUS(feint_solve_run(&op, &d, b, x, &in, 0), FEINT_ERR_NOT_FINITE, "x[3]");
  x[3] = 0.5;
  UNTOUCHED("Inf in x");
  op.symmetric = 0;
  CHECK_STATUS(feint_solve_run(&op, &d, b, x, &in, 0), FEINT_ERR_UNSUPPORTED, "not symmetric");
  UNTOUCHED("non-symmetric");
  o.d[N / 2] = -3.0;
  op.symmetric = 1;
  CHECK_STATUS(feint_solve_run(&op, &d, b, x, &in, 0), FEINT_ERR_BREAKDOWN,
               "diagonal entry 20 of A is -3");
  o.d[N / 2] = 0.0;
  CHECK_STATUS(feint_solve_run(&op, &d, b, x, &in, 0), FEINT_ERR_BREAKDOWN, "diagonal entry 20");
  UNTOUCHED("Jacobi on a non-positive diagonal");
#undef UNTOUCHED
}

/* Named stops of the iteration, both solvers. */
static void check_stops(int solver) {
  const char *sn = solver == FEINT_SOLVER_CG ? "CG" : "pipelined CG";
  diag_op o = {{0}, 0, 0};
  for (int i = 0; i < N; i++) o.d[i] = 1.0 + i;
  feint_solve_operator op = diag_operator(&o);
  double b[N], x[N], hist[N + 1];
  for (int i = 0; i < N; i++) b[i] = 1.0, x[i] = 0.0;
  feint_solve_info in;
  /* max_iter = 0: the initial residual, x untouched */
  for (int i = 0; i < N; i++) x[i] = 0.5;
  double r0 = 0;
  for (int i = 0; i < N; i++) r0 += (1.0 - o.d[i] * 0.5) * (1.0 - o.d[i] * 0.5);
  r0 = sqrt(r0);
  feint_solve_desc d = {solver, FEINT_PC_NONE, 1e-8, 0, hist};
  CHECK_STATUS(feint_solve_run(&op, &d, b, x, &in, 0), FEINT_ERR_NOT_CONVERGED,
               "did not converge in 0 iterations");
  CHECK(in.iterations == 0 && in.converged == 0 && all_equal(x, 0.5), "%s max_iter 0: %zu it",
        sn, in.iterations);
  CHECK_CLOSE(in.residual_norm, r0, N, r0 + sqrt((double)N) * 20, 2.0, "initial residual");
  CHECK(hist[0] == in.residual_norm, "%s: history[0] = %g", sn, hist[0]);
  CHECK_CLOSE(in.rhs_norm, sqrt((double)N), N, sqrt((double)N), 2.0, "rhs norm");
  /* a few iterations short of convergence (distinct eigenvalues: CG needs
   * N iterations in exact arithmetic) */
  d.max_iter = 3;
  CHECK_STATUS(feint_solve_run(&op, &d, b, x, &in, 0), FEINT_ERR_NOT_CONVERGED,
               "did not converge in 3 iterations");
  CHECK(in.iterations == 3 && !in.converged && in.residual_norm > 1e-8 * in.rhs_norm &&
            in.residual_norm < r0 && hist[3] == in.residual_norm && !all_equal(x, 0.5),
        "%s max_iter 3: %zu iterations, residual %g (initial %g)", sn, in.iterations,
        in.residual_norm, r0);
  /* and to convergence: the diagonal system's solution 1 / d_i */
  d.max_iter = 200;
  CHECK_STATUS(feint_solve_run(&op, &d, b, x, &in, 0), FEINT_SUCCESS, NULL);
  for (int i = 0; i < N; i++)
    CHECK(fabs(x[i] - 1.0 / o.d[i]) <= 1e-8 * sqrt((double)N) / 1.0,
          "%s: x[%d] = %g, expected %g", sn, i, x[i], 1.0 / o.d[i]);
  /* Jacobi on a diagonal matrix: exact after one iteration */
  d.pc = FEINT_PC_JACOBI;
  for (int i = 0; i < N; i++) x[i] = 0.0;
  CHECK_STATUS(feint_solve_run(&op, &d, b, x, &in, 0), FEINT_SUCCESS, NULL);
  CHECK(in.iterations == 1, "%s + Jacobi on a diagonal matrix: %zu iterations", sn,
        in.iterations);
  /* b = 0: x = 0 without iterating */
  double zero[N] = {0};
  for (int i = 0; i < N; i++) x[i] = 0.5;
  CHECK_STATUS(feint_solve_run(&op, &d, zero, x, &in, 0), FEINT_SUCCESS, NULL);
  CHECK(all_equal(x, 0.0) && in.iterations == 0 && in.converged == 1 && in.rhs_norm == 0,
        "%s: b = 0 gave %zu iterations", sn, in.iterations);
  /* indefinite: half the eigenvalues -2, b = 1: p^T A p = b^T A b < 0 at once */
  for (int i = 0; i < N; i++) o.d[i] = i < N / 2 ? 1.0 : -2.0, x[i] = 0.0;
  d.pc = FEINT_PC_NONE;
  CHECK_STATUS(feint_solve_run(&op, &d, b, x, &in, 0), FEINT_ERR_BREAKDOWN, "p^T A p");
  CHECK(in.iterations == 0 && !in.converged && all_equal(x, 0.0), "%s indefinite: %zu", sn,
        in.iterations);
  /* indefinite, found later: one negative eigenvalue among positive ones */
  for (int i = 0; i < N; i++) o.d[i] = 1.0 + i, x[i] = 0.0;
  o.d[5] = -0.5;
  const feint_status st = feint_solve_run(&op, &d, b, x, &in, 0);
  CHECK(st == FEINT_ERR_BREAKDOWN || (st == FEINT_SUCCESS && in.converged),
        "%s, one negative eigenvalue: %s", sn, feint_last_error());
  /* NaN from the operator at its 4th application */
  for (int i = 0; i < N; i++) o.d[i] = 1.0 + i, x[i] = 0.0;
  o.calls = 0;
  o.nan_from_call = 4;
  CHECK_STATUS(feint_solve_run(&op, &d, b, x, &in, 0), FEINT_ERR_NOT_FINITE, "not finite");
  CHECK(in.iterations >= 2 && in.iterations <= 3 && !in.converged, "%s NaN: stopped at %zu", sn,
        in.iterations);
  int finite = 1;
  for (int i = 0; i < N; i++) finite &= isfinite(x[i]);
  CHECK(finite && !all_equal(x, 0.0), "%s NaN: x is not the last finite iterate", sn);
}

/* feint_operator: a non-symmetric problem is refused by name. */
static void check_operator(void) {
  sf_problem p;
  if (!sf_problem_create(&p, 3, FIX_NONE, 0.0)) {
    TEST_FAIL("problem set-up failed: %s", feint_last_error());
    return;
  }
  double *coef = malloc(p.mesh.num_elem * 20 * sizeof(double));
  for (size_t e = 0; e < p.mesh.num_elem; e++)
    for (int k = 0; k < 20; k++) coef[20 * e + k] = k == 5 || k == 10 || k == 15 ? 1.0 : k == 1 ? 0.5 : 0.0;
  const feint_integrate_desc id = {FEINT_TET4, FEINT_CONVDIFF, FEINT_QSS_GEO_LINEAR, 0, 0, 0, 0, 0};
  feint_operator *op = NULL;
  const feint_status st = feint_operator_create(&id, FEINT_OPERATOR_ASSEMBLED,
                                                FEINT_ASSEMBLE_COLOURING, &p.mesh, coef, p.num_bc,
                                                p.bc, &op);
  if (st == FEINT_SUCCESS) {
    double *x = calloc(p.n, sizeof(double));
    const feint_solve_desc d = {FEINT_SOLVER_CG, FEINT_PC_NONE, 1e-8, 100, NULL};
    CHECK_STATUS(feint_solve(op, &d, p.b, x, NULL), FEINT_ERR_UNSUPPORTED, "not symmetric");
    free(x);
    feint_operator_destroy(op);
  } else {
    TEST_FAIL("conv-diff operator: %s", feint_last_error());
  }
  free(coef);
  sf_problem_destroy(&p);
}

int main(void) {
  check_arguments();
  check_stops(FEINT_SOLVER_CG);
  check_stops(FEINT_SOLVER_PIPELINED_CG);
  check_operator();
  return test_finish("t902_solve_errors");
}
