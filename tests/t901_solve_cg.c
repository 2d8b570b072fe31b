/* t901_solve_cg (range t9xx: operators and solvers) - CG and pipelined CG
 * (feint_solve), without preconditioner and with Jacobi, on the manufactured
 * Poisson system of a perturbed tetrahedral box mesh assembled by feint's
 * assembly layer (tests/solve_fixture.h) and on feint_operator forms:
 *  - both converge (recursive residual <= rtol ||b||, the true residual
 *    within the recursive one's round-off drift), iteration counts within
 *    10 % of each other;
 *  - the solutions agree within ||x1 - x2|| <= (||r1|| + ||r2||) /
 *    lambda_min(A), with a rigorous lower bound of lambda_min (fixture);
 *  - the residual history: history[0] = ||b - A x0||, last entry =
 *    info.residual_norm; repeated solves are bitwise identical;
 *  - the device code path (target regions, two-stage reductions) run in
 *    host fallback (offload builds) gives the same iterates to round-off
 *    and the same iteration count (+-1); a host-only build refuses it with
 *    FEINT_ERR_NO_DEVICE;
 *  - feint_solve on feint_operator (every form it can create) gives the
 *    solution of the assembled system to the same bound;
 *  - b (and the initial guess) scaled by sigma = 2^-600, 2^540, 1e-170,
 *    1e-200, 1e+160: x scales by sigma, in the same number of iterations
 *    (||b||^2 underflowed or overflowed before the solver normalised b:
 *    "converged" at x = 0, or NOT_FINITE). */
#include <stdlib.h>

#include "solve_fixture.h"

#define RTOL 1e-10
#define MAX_ITER 2000

static const char *sname(int s) { return s == FEINT_SOLVER_CG ? "CG" : "pipelined CG"; }
static const char *pname(int p) { return p == FEINT_PC_JACOBI ? "Jacobi" : "none"; }

/* Checks of one converged solve (recursive and true residual, history).
 * True residual: the recursive residual drifts from b - A x by round-off
 * accumulated over the iterations, at most ~ k eps ||A|| ||x|| per the
 * usual bound (Greenbaum 1997) with a small constant: 16 allowed. */
static void check_converged(const sf_problem *p, const double *x, const feint_solve_info *in,
                            const double *hist, const double *x0, const char *what) {
  CHECK(in->converged == 1 && in->iterations > 0, "%s: converged %d after %zu iterations", what,
        in->converged, in->iterations);
  CHECK(in->residual_norm <= RTOL * in->rhs_norm, "%s: residual %g > rtol ||b|| = %g", what,
        in->residual_norm, RTOL * in->rhs_norm);
  const double bnorm = sf_norm(p->b, p->n);
  CHECK_CLOSE(in->rhs_norm, bnorm, (double)p->n, bnorm, 2.0, "info.rhs_norm vs ||b||");
  const double r_true = sf_true_residual(&p->A, p->b, x);
  const double drift = 16.0 * (double)in->iterations * DBL_EPSILON * sf_norm_inf(&p->A) *
                       sf_norm(x, p->n);
  CHECK(r_true <= in->residual_norm + drift,
        "%s: true residual %g > recursive %g + drift bound %g", what, r_true, in->residual_norm,
        drift);
  if (hist) {
    const double r0 = sf_true_residual(&p->A, p->b, x0);
    CHECK_CLOSE(hist[0], r0, (double)p->n, r0 + sf_norm(p->b, p->n), 4.0, "history[0]");
    CHECK(hist[in->iterations] == in->residual_norm, "%s: history[%zu] = %g != residual %g", what,
          in->iterations, hist[in->iterations], in->residual_norm);
    for (size_t k = 0; k <= in->iterations; k++)
      CHECK(isfinite(hist[k]) && hist[k] >= 0, "%s: history[%zu] = %g", what, k, hist[k]);
  }
}

/* ||x1 - x2|| <= (||b - A x1|| + ||b - A x2||) / lambda_min (+ round-off of
 * the bound's own evaluation: 1 %) */
static void check_same_solution(const sf_problem *p, const double *x1, const double *x2,
                                const char *what) {
  const double r1 = sf_true_residual(&p->A, p->b, x1), r2 = sf_true_residual(&p->A, p->b, x2);
  const double bound = 1.01 * (r1 + r2) / p->lambda_low, dist = sf_dist(x1, x2, p->n);
  CHECK(dist <= bound, "%s: ||x1 - x2|| = %g > (||r1|| + ||r2||) / lambda_min = %g", what, dist,
        bound);
}

static void check_assembled(void) {
  sf_problem p;
  if (!sf_problem_create(&p, 10, FIX_GENERAL, 0.25)) {
    TEST_FAIL("problem set-up failed: %s", feint_last_error());
    return;
  }
  CHECK(p.lambda_low > 0, "lambda_low = %g", p.lambda_low);
  const size_t n = p.n;
  feint_solve_operator op = sf_csr_operator(&p.A);
  double *x[2], *hist = malloc((MAX_ITER + 1) * sizeof(double)), *x0 = calloc(n, sizeof(double));
  double *xr = malloc(n * sizeof(double));
  x[0] = malloc(n * sizeof(double));
  x[1] = malloc(n * sizeof(double));
  for (int pc = 0; pc < FEINT_PC_COUNT; pc++) {
    feint_solve_info in[2];
    for (int s = 0; s < FEINT_SOLVER_COUNT; s++) {
      char what[96];
      snprintf(what, sizeof what, "%s, pc %s", sname(s), pname(pc));
      const feint_solve_desc d = {s, pc, RTOL, MAX_ITER, hist};
      memset(x[s], 0, n * sizeof(double));
      CHECK_STATUS(feint_solve_run(&op, &d, p.b, x[s], &in[s], 0), FEINT_SUCCESS, NULL);
      check_converged(&p, x[s], &in[s], hist, x0, what);
      /* repeated: bitwise identical (fixed reduction order for a fixed
       * thread count) */
      memset(xr, 0, n * sizeof(double));
      feint_solve_info ir;
      CHECK_STATUS(feint_solve_run(&op, &d, p.b, xr, &ir, 0), FEINT_SUCCESS, NULL);
      CHECK(ir.iterations == in[s].iterations && memcmp(xr, x[s], n * sizeof(double)) == 0,
            "%s: a repeated solve differs (%zu vs %zu iterations)", what, ir.iterations,
            in[s].iterations);
      /* the device code path in host fallback */
      memset(xr, 0, n * sizeof(double));
      if (feint_offload_built()) {
        CHECK_STATUS(feint_solve_run(&op, &d, p.b, xr, &ir, 1), FEINT_SUCCESS, NULL);
        check_converged(&p, xr, &ir, NULL, x0, what);
        const size_t a = ir.iterations, b = in[s].iterations;
        CHECK(a + 1 >= b && b + 1 >= a, "%s: device passes took %zu iterations, host %zu", what,
              a, b);
        check_same_solution(&p, xr, x[s], "device passes vs host");
      } else {
        CHECK_STATUS(feint_solve_run(&op, &d, p.b, xr, &ir, 1), FEINT_ERR_NO_DEVICE, "offload");
      }
    }
    const double k0 = (double)in[0].iterations, k1 = (double)in[1].iterations;
    if (getenv("FEINT_TEST_VERBOSE"))
      printf("n = %zu, pc %s: CG %zu iterations (residual %.3e), pipelined CG %zu (%.3e); "
             "||x_cg - x_pcg|| = %.3e, lambda_min >= %.3e\n",
             n, pname(pc), in[0].iterations, in[0].residual_norm, in[1].iterations,
             in[1].residual_norm, sf_dist(x[0], x[1], n), p.lambda_low);
    CHECK(fabs(k0 - k1) <= 0.1 * fmax(k0, k1), "pc %s: CG %zu iterations, pipelined CG %zu",
          pname(pc), in[0].iterations, in[1].iterations);
    check_same_solution(&p, x[0], x[1], pname(pc));
  }
  /* a nonzero initial guess: history[0] is its residual */
  for (int s = 0; s < FEINT_SOLVER_COUNT; s++) {
    for (size_t i = 0; i < n; i++) x0[i] = x[s][i] = mms_exact(p.mesh.coords + 3 * i);
    const feint_solve_desc d = {s, FEINT_PC_JACOBI, RTOL, MAX_ITER, hist};
    feint_solve_info in;
    CHECK_STATUS(feint_solve_run(&op, &d, p.b, x[s], &in, 0), FEINT_SUCCESS, NULL);
    check_converged(&p, x[s], &in, hist, x0, "nonzero initial guess");
  }
  free(x[0]), free(x[1]), free(hist), free(x0), free(xr);
  sf_problem_destroy(&p);
}

/* ||xs / sigma - x1||_2 (the division first: the squares of xs itself
 * underflow or overflow for the sigmas below) */
static double scaled_dist(const double *xs, double sigma, const double *x1, size_t n) {
  double s = 0;
  for (size_t i = 0; i < n; i++) s += (xs[i] / sigma - x1[i]) * (xs[i] / sigma - x1[i]);
  return sqrt(s);
}

/* Bound of ||xs / sigma - x1|| for a decimal sigma: e1 = ||b - A x1|| /
 * lambda_min bounds the unscaled run's error; the scaled run's error is at
 * most its own true residual / lambda_min, which is the unscaled one's up to
 * the effect of rounding sigma b (O(kappa eps ||b||), far below rtol ||b||
 * at the same iteration count): 2 e1, and 3 e1 leaves room; plus 4 eps
 * ||x1|| for the rounding of sigma b, sigma x_0 and of xs / sigma here. */
static double scaled_bound(double e1, double x1_norm) {
  return 3.0 * e1 + 4.0 * DBL_EPSILON * x1_norm;
}

/* b and the initial guess scaled by sigma.  A power of two scales the
 * problem exactly, so x, the iteration count, the history and info's norms
 * must be sigma times the unscaled run's, bit for bit (the solver's own
 * scaling is by a power of two as well).  A decimal sigma rounds sigma b: the
 * same iteration count and x within scaled_bound.  Before the solver scaled
 * b, ||b||^2 underflowed for 2^-600, 1e-170, 1e-200 (0 iterations, x = 0,
 * "converged") and overflowed for 2^540, 1e+160 (NOT_FINITE). */
static void check_scaled_rhs(void) {
  sf_problem p;
  if (!sf_problem_create(&p, 8, FIX_GENERAL, 0.25)) {
    TEST_FAIL("problem set-up failed: %s", feint_last_error());
    return;
  }
  const size_t n = p.n;
  feint_solve_operator op = sf_csr_operator(&p.A);
  double *x0 = malloc(n * sizeof(double)), *x1 = malloc(n * sizeof(double));
  double *xs = malloc(n * sizeof(double)), *bs = malloc(n * sizeof(double));
  double *h1 = malloc((MAX_ITER + 1) * sizeof(double));
  double *hs = malloc((MAX_ITER + 1) * sizeof(double));
  for (size_t i = 0; i < n; i++) x0[i] = mms_exact(p.mesh.coords + 3 * i);
  const double bn = sf_norm(p.b, n), x0n = sf_norm(x0, n), an = sf_norm_inf(&p.A);
  const double sigmas[] = {0x1p-600, 0x1p+540, 1e-170, 1e-200, 1e+160};
  const int num_exact = 2; /* the powers of two first */
  /* target_kernels = 1: the device code path, in offload builds */
  for (int tk = 0; tk < (feint_offload_built() ? 2 : 1); tk++)
    for (int guess = 0; guess < 2; guess++)
      for (int pc = 0; pc < FEINT_PC_COUNT; pc++)
        for (int s = 0; s < FEINT_SOLVER_COUNT; s++) {
          for (size_t i = 0; i < n; i++) x1[i] = guess ? x0[i] : 0.0;
          const feint_solve_desc d1 = {s, pc, RTOL, MAX_ITER, h1};
          feint_solve_info in1;
          CHECK_STATUS(feint_solve_run(&op, &d1, p.b, x1, &in1, tk), FEINT_SUCCESS, NULL);
          const double e1 = sf_true_residual(&p.A, p.b, x1) / p.lambda_low;
          const double x1n = sf_norm(x1, n);
          for (size_t k = 0; k < sizeof sigmas / sizeof sigmas[0]; k++) {
            const double sg = sigmas[k];
            char what[128];
            snprintf(what, sizeof what, "%s, pc %s, %s guess, %s, b x %g", sname(s), pname(pc),
                     guess ? "nonzero" : "zero", tk ? "device passes" : "host passes", sg);
            for (size_t i = 0; i < n; i++) bs[i] = sg * p.b[i], xs[i] = guess ? sg * x0[i] : 0.0;
            const feint_solve_desc ds = {s, pc, RTOL, MAX_ITER, hs};
            feint_solve_info ins = {0, 0.0, 0.0, 0};
            CHECK_STATUS(feint_solve_run(&op, &ds, bs, xs, &ins, tk), FEINT_SUCCESS, NULL);
            CHECK(ins.converged && ins.iterations == in1.iterations,
                  "%s: converged %d after %zu iterations, unscaled %zu", what, ins.converged,
                  ins.iterations, in1.iterations);
            if (ins.iterations != in1.iterations) continue;
            if ((int)k < num_exact) {
              size_t diff = 0;
              for (size_t i = 0; i < n; i++) diff += xs[i] != sg * x1[i];
              for (size_t j = 0; j <= ins.iterations; j++) diff += hs[j] != sg * h1[j];
              diff += ins.residual_norm != sg * in1.residual_norm;
              diff += ins.rhs_norm != sg * in1.rhs_norm;
              CHECK(diff == 0, "%s: %zu entries of x, history, info differ from sigma x the "
                    "unscaled ones", what, diff);
            } else {
              const double dist = scaled_dist(xs, sg, x1, n), bound = scaled_bound(e1, x1n);
              CHECK(dist <= bound, "%s: ||x / sigma - x_1|| = %g > %g", what, dist, bound);
              CHECK_CLOSE(ins.rhs_norm / sg, in1.rhs_norm, (double)n, bn, 2.0, what);
              /* r_0 = b - A x_0: sigma b, sigma x_0 rounded: eps (||b|| + ||A|| ||x_0||) */
              CHECK_CLOSE(hs[0] / sg, h1[0], (double)n, h1[0] + bn + an * x0n, 4.0, what);
              CHECK(hs[ins.iterations] == ins.residual_norm &&
                        ins.residual_norm <= RTOL * ins.rhs_norm,
                    "%s: residual %g, history %g, rtol ||b|| %g", what, ins.residual_norm,
                    hs[ins.iterations], RTOL * ins.rhs_norm);
            }
          }
        }
  free(x0), free(x1), free(xs), free(bs), free(h1), free(hs);
  sf_problem_destroy(&p);
}

/* feint_solve on feint_operator: every form the operator layer creates,
 * against the CG solution of the assembled system */
static void check_operator_forms(void) {
  sf_problem p;
  if (!sf_problem_create(&p, 8, FIX_GENERAL, 0.25)) {
    TEST_FAIL("problem set-up failed: %s", feint_last_error());
    return;
  }
  const size_t n = p.n;
  double *xa = calloc(n, sizeof(double)), *x = malloc(n * sizeof(double));
  double *b = malloc(n * sizeof(double)), *bs = malloc(n * sizeof(double));
  double *xs = malloc(n * sizeof(double));
  feint_solve_operator sop = sf_csr_operator(&p.A);
  const feint_solve_desc d0 = {FEINT_SOLVER_CG, FEINT_PC_NONE, RTOL, MAX_ITER, NULL};
  CHECK_STATUS(feint_solve_run(&sop, &d0, p.b, xa, NULL, 0), FEINT_SUCCESS, NULL);
  int created = 0;
  for (int form = 0; form < FEINT_OPERATOR_FORM_COUNT; form++)
    for (int tgt = 0; tgt < FEINT_TARGET_COUNT; tgt++) {
      const feint_integrate_desc id = {FEINT_TET4, FEINT_POISSON, FEINT_QSS_GEO_LINEAR, 0, 0,
                                       FEINT_FLAG_ALLOW_HOST_FALLBACK, tgt, 0};
      feint_operator *op = NULL;
      const feint_status st = feint_operator_create(&id, form, FEINT_ASSEMBLE_COLOURING, &p.mesh,
                                                    p.f, p.num_bc, p.bc, &op);
      if (st == FEINT_ERR_UNSUPPORTED) continue; /* a form not built yet */
      CHECK(st == FEINT_SUCCESS, "feint_operator_create(form %d, target %d): %s", form, tgt,
            feint_last_error());
      if (st != FEINT_SUCCESS) continue;
      created++;
      CHECK_STATUS(feint_operator_rhs(op, p.g, b), FEINT_SUCCESS, NULL);
      /* the operator's rhs is the assembly layer's, to round-off */
      const double bn = sf_norm(p.b, n);
      CHECK(sf_dist(b, p.b, n) <= 1e3 * DBL_EPSILON * bn * sqrt((double)n),
            "form %d: rhs differs from the assembled one by %g", form, sf_dist(b, p.b, n));
      for (int s = 0; s < FEINT_SOLVER_COUNT; s++) {
        memset(x, 0, n * sizeof(double));
        const feint_solve_desc d = {s, FEINT_PC_JACOBI, RTOL, MAX_ITER, NULL};
        feint_solve_info in;
        CHECK_STATUS(feint_solve(op, &d, b, x, &in), FEINT_SUCCESS, NULL);
        CHECK(in.converged, "form %d, %s: not converged", form, sname(s));
        check_same_solution(&p, x, xa, "feint_operator vs assembled");
        /* b x 1e-200 (||b||^2 underflows unscaled): x x 1e-200, the same
         * iterations (check_scaled_rhs; the bound's e1 from the assembled
         * matrix, which includes its difference from the form's) */
        for (size_t i = 0; i < n; i++) bs[i] = 1e-200 * b[i], xs[i] = 0.0;
        feint_solve_info ins = {0, 0.0, 0.0, 0};
        CHECK_STATUS(feint_solve(op, &d, bs, xs, &ins), FEINT_SUCCESS, NULL);
        const double dist = scaled_dist(xs, 1e-200, x, n);
        const double bound = scaled_bound(sf_true_residual(&p.A, b, x) / p.lambda_low,
                                          sf_norm(x, n));
        CHECK(ins.converged && ins.iterations == in.iterations && dist <= bound,
              "form %d, %s, b x 1e-200: converged %d, %zu iterations (unscaled %zu), "
              "||x / 1e-200 - x_1|| = %g (bound %g)",
              form, sname(s), ins.converged, ins.iterations, in.iterations, dist, bound);
      }
      feint_operator_destroy(op);
    }
  CHECK(created > 0, "feint_operator_create made no operator");
  free(xa), free(x), free(b), free(bs), free(xs);
  sf_problem_destroy(&p);
}

int main(void) {
  check_assembled();
  check_scaled_rhs();
  check_operator_forms();
  return test_finish("t901_solve_cg");
}
