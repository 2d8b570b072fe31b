/* counts.c - memory and flop counts of feint's kernels (the paper's Tables 3
 * and 4 for feint's own code), derived from N_S, N_Q, N_D and the variant,
 * plus the paper's own Table 4 for comparison.  Pure functions.
 *
 * Kernel sources counted: src/kernel/geometry.h (feint_jacobian,
 * feint_invert3, feint_shape_psi), src/kernel/physics.h (feint_update_A,
 * feint_update_b) and the six src/variant/<loop>_geo_<treatment>.c.
 *
 * Flop convention (every count below follows it):
 *  - +, -, *, / on doubles count 1 each; a fused multiply-add counts 2, so
 *    the count does not depend on FMA contraction;
 *  - a sum of n terms costs n-1 additions (accumulating from the literal
 *    0.0 is not counted), so a dot product of length n is 2n-1;
 *  - products with reference-table entries count even where the entry is 0
 *    or +-1 (an IEEE-strict build must execute x*0.0; x*1.0 it may drop:
 *    at most N_D^2 N_S + N_D^2 N_S flops per Jacobian + gradient evaluation
 *    may be saved that way, e.g. 30 of 63+60 for a tetrahedron);
 *  - loads, stores, negations and comparisons are not flops.
 *
 * Two flop counts per variant:
 *  flops (executed): each distinct value is computed once.  After full
 *    unrolling with constant tables the compiler merges repeated stages on
 *    identical inputs (common-subexpression elimination): checked on
 *    clang-19 -O3, where qss_geo_linear and sqs_geo_linear compile to the
 *    same 3085 vector FP instructions, and qss_geo_generic and
 *    sqs_geo_generic to the same 4101.  So the executed count depends on the
 *    element and the geometry treatment, not on the loop order, and for a P1
 *    tetrahedron (reference gradients identical at every quadrature point)
 *    geo_generic and geo_linear coincide too.
 *  flops_as_written: the count of the source with no such merging: the
 *    N_S-fold (SQS) and N_S^2-fold (SSQ) repetition of the paper's
 *    Algorithms 4 and 6.  This is the work when the compiler cannot merge
 *    (e.g. loops not fully unrolled), and the counterpart of the paper's
 *    SQS/SSQ rows of Table 4.
 * The bound uses `flops` (a lower bound must not count work the compiler
 * removes); flops_useful = min over the six variants of `flops`. */
#include <string.h>

#include "pm_internal.h"

#define N_D 3

typedef struct {
  int num_nodes, num_qpts;
  /* Quadrature points with distinct reference gradients dphi(q, n): 1 for
   * the P1 tetrahedron (gradients constant), N_Q for the prism. */
  int distinct_grad_points;
} elem_shape;

static elem_shape shape_of(feint_element element) {
  elem_shape e;
  if (element == FEINT_TET4) {
    e.num_nodes = 4;
    e.num_qpts = 4;
    e.distinct_grad_points = 1;
  } else {
    e.num_nodes = 6;
    e.num_qpts = 6;
    e.distinct_grad_points = 6;
  }
  return e;
}

/* ---- Stage costs (flops), from the kernel sources ----------------------- */

/* feint_jacobian: J[a][b] = sum_n x[n][a] dphi[n][b]: N_D^2 dot products of
 * length N_S: N_D^2 (2 N_S - 1).  tet 63, prism 99. */
static long long cost_jacobian(long long ns) { return N_D * N_D * (2 * ns - 1); }

/* feint_invert3: 9 cofactors x (2 mul + 1 sub) = 27; det = 3 mul + 2 add
 * = 5; 1 / det = 1; 9 scalings = 9: 42. */
static long long cost_invert(void) { return 9 * 3 + 5 + 1 + 9; }

/* vol = det * w_q: 1 mul per quadrature point. */
static long long cost_vol(void) { return 1; }

/* feint_shape_psi for one (q, n): psi[0] is a table value (0 flops);
 * psi[1+a] = sum_b dphi[n][b] Jinv[b][a]: N_D dot products of length N_D:
 * N_D (2 N_D - 1) = 15. */
static long long cost_psi(void) { return N_D * (2 * N_D - 1); }

/* feint_update_A for one (q, r, s), without vol:
 * Poisson: grad psi_r . grad psi_s: 2 N_D - 1 = 5.
 * conv-diff as written: for i in 0..N_D: t_i = sum_j c_ij psi_s[j]
 * (2(N_D+1) - 1 = 7 each, 4 of them: 28), then s = sum_i psi_r[i] t_i
 * (2(N_D+1) - 1 = 7): 35.  (physics.h's comment says 47: that is the
 * expanded form sum_ij c_ij psi_r[i] psi_s[j], not what the code does.) */
static long long cost_update_A(feint_problem pb) {
  if (pb == FEINT_POISSON) return 2 * N_D - 1;
  return (N_D + 1) * (2 * (N_D + 1) - 1) + (2 * (N_D + 1) - 1);
}

/* feint_update_b for one (q, r), without vol: Poisson f_q phi_r: 1;
 * conv-diff d . psi_r: 2(N_D+1) - 1 = 7. */
static long long cost_update_b(feint_problem pb) {
  return pb == FEINT_POISSON ? 1 : 2 * (N_D + 1) - 1;
}

/* Ae[r][s] += vol * u and be[r] += vol * u: 1 mul + 1 add each. */
static long long cost_accumulate(void) { return 2; }

/* Executed flops (common-subexpression model, see the file comment).
 *  Jacobian + inverse: once for geo_linear; for geo_generic once per point
 *    with distinct reference gradients (the Jacobian of a tetrahedron is the
 *    same at every point, and the compiler sees the same expression).
 *  vol: N_Q products det * w_q (equal weights are not merged: at most
 *    N_Q - 1 flops over).
 *  psi: one per node and per point with distinct reference gradients
 *    (Jinv is constant for geo_linear, so only dphi distinguishes points).
 *  update_A: Poisson uses only gradients: distinct_grad_points * N_S^2
 *    evaluations; conv-diff uses the values phi(q, n) too: N_Q N_S^2.
 *  accumulation of A: N_Q N_S^2 (vol_q differs per point; the sums over q
 *    are sequential, never reassociated by a strict compiler).
 *  update_b + accumulation: N_Q N_S (f_q, or phi(q, r), differs per point).
 */
static long long flops_executed(feint_element et, feint_problem pb, int geo_linear) {
  elem_shape e = shape_of(et);
  long long ns = e.num_nodes, nq = e.num_qpts, dg = e.distinct_grad_points;
  long long n_jac = geo_linear ? 1 : dg;
  long long n_uA = (pb == FEINT_POISSON ? dg : nq) * ns * ns;
  return n_jac * (cost_jacobian(ns) + cost_invert()) + nq * cost_vol() + dg * ns * cost_psi() +
         n_uA * cost_update_A(pb) + nq * ns * ns * cost_accumulate() +
         nq * ns * (cost_update_b(pb) + cost_accumulate());
}

/* Flops of the source as written, with no merging of repeated stages.
 * Per loop order (JI = cost_jacobian + cost_invert):
 *  QSS linear  (Alg. 3): JI + N_Q [vol + N_S psi + N_S^2 (uA + 2) + N_S (ub + 2)]
 *  QSS generic (Alg. 2): N_Q [JI + vol + N_S psi + N_S^2 (uA + 2) + N_S (ub + 2)]
 *  SQS linear  (Alg. 5): JI + N_Q N_S psi + N_S N_Q [vol + N_S (uA + 2) + (ub + 2)]
 *                        (vol = det * w_q is inside the r and q loops)
 *  SQS generic (Alg. 4): N_S N_Q [JI + vol + N_S psi + N_S (uA + 2) + (ub + 2)]
 *  SSQ linear  (Alg. 7): JI + N_Q N_S psi + N_S^2 N_Q (vol + uA + 2) + N_S N_Q (ub + 2)
 *  SSQ generic (Alg. 6): N_S^2 N_Q [JI + vol + 2 psi + uA + 2] + N_S N_Q (ub + 2)
 *                        (psi of r and of s at every point; b only when r == s) */
static long long flops_as_written(feint_element et, feint_problem pb, feint_pm_loop_order lo,
                                  int geo_linear) {
  elem_shape e = shape_of(et);
  long long ns = e.num_nodes, nq = e.num_qpts;
  long long ji = cost_jacobian(ns) + cost_invert(), vol = cost_vol(), psi = cost_psi();
  long long uA = cost_update_A(pb) + cost_accumulate(), ub = cost_update_b(pb) + cost_accumulate();
  switch (lo) {
  case FEINT_PM_QSS:
    return (geo_linear ? ji : nq * ji) + nq * (vol + ns * psi + ns * ns * uA + ns * ub);
  case FEINT_PM_SQS:
    if (geo_linear) return ji + nq * ns * psi + ns * nq * (vol + ns * uA + ub);
    return ns * nq * (ji + vol + ns * psi + ns * uA + ub);
  case FEINT_PM_SSQ:
  default:
    if (geo_linear) return ji + nq * ns * psi + ns * ns * nq * (vol + uA) + ns * nq * ub;
    return ns * ns * nq * (ji + vol + 2 * psi + uA) + ns * nq * ub;
  }
}

/* Table 3 sizes, shared by feint's and the paper's counts:
 *  geometry 3 N_S (x, y, z per node); coeffs N_Q (Poisson: f per point) or
 *  (N_D+1)^2 + (N_D+1) = 20 (conv-diff: c and d, constant per element);
 *  A^e N_S^2; b^e N_S.  Global accesses = their sum (each input read once
 *  into registers or shared memory, each output written once; the paper's
 *  first row of Table 4: 36, 66, 52, 80). */
static void fill_sizes(feint_element et, feint_problem pb, feint_pm_counts *c) {
  elem_shape e = shape_of(et);
  c->num_nodes = e.num_nodes;
  c->num_qpts = e.num_qpts;
  c->geometry = N_D * e.num_nodes;
  c->coeffs = pb == FEINT_POISSON ? e.num_qpts : (N_D + 1) * (N_D + 1) + (N_D + 1);
  c->a_out = (long long)e.num_nodes * e.num_nodes;
  c->b_out = e.num_nodes;
  c->global_accesses = c->geometry + c->coeffs + c->a_out + c->b_out;
  /* 8 bytes per double, each moved once (nontemporal stores). */
  c->bytes_compulsory = 8 * c->global_accesses;
  /* A store that is not nontemporal reads its line first: one extra 8-byte
   * read per output double. */
  c->bytes_write_allocate = 8 * (c->a_out + c->b_out);
}

static void fill_intensity(feint_pm_counts *c) {
  c->intensity_per_access = (double)c->flops / (double)c->global_accesses;
  c->intensity_per_byte = (double)c->flops / (double)c->bytes_compulsory;
}

/* Auxiliary team-shared memory accesses when one array is placed in shared
 * memory (the paper's section 4.3 options), counted as the paper's QSS row
 * does: accesses besides the global read into / write from shared memory.
 *  geometry: every Jacobian evaluation reads the 3 N_S coordinates:
 *    3 N_S x (1 [linear] | N_Q [QSS] | N_S N_Q [SQS] | N_S^2 N_Q [SSQ]);
 *    QSS: tet (linear) 12, prism (generic) 108 = the paper's.
 *  coeffs: the coefficients used at a point (1 for Poisson, 20 for
 *    conv-diff) are read once per "calculate coefficients" step of the
 *    algorithm: per point (QSS), per (r, q) (SQS), per (r, s, q) (SSQ);
 *    QSS: 4, 6, 80, 120 = the paper's.
 *  phi: psi values are written once per computed (q, n) (4 doubles) and read
 *    4 per r per point (kept in registers over s) plus 4 per (r, s, q):
 *    4 N_S P + 4 N_Q N_S + 4 N_Q N_S^2 with P = computed (q, n) points
 *    (N_Q, or N_S N_Q for SQS generic, which recomputes psi per row; the
 *    SSQ loop reads psi_r at every (r, s, q): 4 N_S P + 8 N_Q N_S^2; SSQ
 *    generic computes psi_r and psi_s at every (r, s, q) and reads them
 *    back: 16 N_Q N_S^2).  The paper's 60 / 210 (QSS) is lower; it gives
 *    no derivation (see the report).
 *  A and b: every update is a read and a write of the accumulator,
 *    2 N_Q (N_S^2 + N_S), plus one read of each entry to store it to global
 *    memory, N_S^2 + N_S; the same for every loop order.  QSS: 180, 546 =
 *    the paper's. */
static void fill_shared(feint_problem pb, feint_pm_loop_order lo, int geo_linear,
                        feint_pm_counts *c) {
  long long ns = c->num_nodes, nq = c->num_qpts;
  long long reps = lo == FEINT_PM_QSS ? 1 : lo == FEINT_PM_SQS ? ns : ns * ns;
  long long n_jac = geo_linear ? 1 : nq * reps;
  c->shared_accesses[FEINT_PM_SHARED_GEOMETRY] = N_D * ns * n_jac;
  long long per_point = pb == FEINT_POISSON ? 1 : (N_D + 1) * (N_D + 1) + (N_D + 1);
  c->shared_accesses[FEINT_PM_SHARED_COEFFS] = per_point * nq * reps;
  if (lo == FEINT_PM_SSQ && !geo_linear)
    c->shared_accesses[FEINT_PM_SHARED_PHI] = 16 * nq * ns * ns;
  else {
    long long writes = 4 * ns * nq * (lo == FEINT_PM_SQS && !geo_linear ? ns : 1);
    c->shared_accesses[FEINT_PM_SHARED_PHI] =
        lo == FEINT_PM_SSQ ? writes + 8 * nq * ns * ns : writes + 4 * nq * ns + 4 * nq * ns * ns;
  }
  c->shared_accesses[FEINT_PM_SHARED_AB] = 2 * nq * (ns * ns + ns) + ns * ns + ns;
}

static feint_status check_case(const char *func, feint_element element, feint_problem problem) {
  if ((unsigned)element >= FEINT_ELEMENT_COUNT)
    return feint_pm_error(FEINT_ERR_OUT_OF_RANGE, func, "element = %d; allowed 0..%d",
                          (int)element, FEINT_ELEMENT_COUNT - 1);
  if ((unsigned)problem >= FEINT_PROBLEM_COUNT)
    return feint_pm_error(FEINT_ERR_OUT_OF_RANGE, func, "problem = %d; allowed 0..%d",
                          (int)problem, FEINT_PROBLEM_COUNT - 1);
  return FEINT_SUCCESS;
}

feint_status feint_pm_counts_get(feint_element element, feint_problem problem,
                                 feint_variant variant, feint_pm_counts *out) {
  FEINT_PM_CHECK(out != NULL, FEINT_ERR_NULL_ARG, "out is NULL");
  FEINT_PM_CALL(check_case(__func__, element, problem));
  FEINT_PM_CHECK((unsigned)variant < FEINT_VARIANT_COUNT, FEINT_ERR_OUT_OF_RANGE,
                 "variant = %d; allowed 0..%d", (int)variant, FEINT_VARIANT_COUNT - 1);
  feint_pm_loop_order lo;
  int geo_linear;
  FEINT_PM_CALL(feint_pm_variant_split(variant, &lo, &geo_linear));
  feint_pm_counts c;
  memset(&c, 0, sizeof c);
  fill_sizes(element, problem, &c);
  fill_shared(problem, lo, geo_linear, &c);
  c.flops = flops_executed(element, problem, geo_linear);
  c.flops_as_written = flops_as_written(element, problem, lo, geo_linear);
  /* geo_linear never costs more than geo_generic, so the minimum over the
   * six variants is the geo_linear count (valid for affine elements only:
   * it is the useful work of the case, not a promise that geo_linear runs). */
  c.flops_useful = flops_executed(element, problem, 1);
  fill_intensity(&c);
  *out = c;
  return FEINT_SUCCESS;
}

/* ---- The paper's Table 4 ------------------------------------------------- */

/* Seed 000, Table 4, columns Poisson tetra, Poisson prism, conv-diff tetra,
 * conv-diff prism (index 2 * problem + element). */
static const long long paper_flops[FEINT_PM_LOOP_ORDER_COUNT][4] = {
    {290, 2700, 986, 4806},     /* QSS */
    {290, 10416, 986, 12492},   /* SQS */
    {290, 54876, 1623, 65232}}; /* SSQ */
static const long long paper_shared_qss[FEINT_PM_SHARED_COUNT][4] = {
    {12, 108, 12, 108},   /* geometry data in shared memory */
    {4, 6, 80, 120},      /* PDE coefficients */
    {60, 210, 60, 210},   /* shape functions phi */
    {180, 546, 180, 546}};/* A^e and b^e */

feint_status feint_pm_paper_counts(feint_element element, feint_problem problem,
                                   feint_pm_loop_order loop_order, feint_pm_counts *out) {
  FEINT_PM_CHECK(out != NULL, FEINT_ERR_NULL_ARG, "out is NULL");
  FEINT_PM_CALL(check_case(__func__, element, problem));
  FEINT_PM_CHECK((unsigned)loop_order < FEINT_PM_LOOP_ORDER_COUNT, FEINT_ERR_OUT_OF_RANGE,
                 "loop_order = %d; allowed 0..%d", (int)loop_order,
                 FEINT_PM_LOOP_ORDER_COUNT - 1);
  feint_pm_counts c;
  memset(&c, 0, sizeof c);
  fill_sizes(element, problem, &c);
  int col = 2 * (int)problem + (int)element;
  for (int k = 0; k < FEINT_PM_SHARED_COUNT; k++)
    c.shared_accesses[k] = loop_order == FEINT_PM_QSS ? paper_shared_qss[k][col] : -1;
  c.flops = paper_flops[loop_order][col];
  c.flops_as_written = c.flops;
  c.flops_useful = paper_flops[FEINT_PM_QSS][col];
  fill_intensity(&c);
  *out = c;
  return FEINT_SUCCESS;
}
