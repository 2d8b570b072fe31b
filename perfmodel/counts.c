/* counts.c - memory and flop counts of feint's kernels (the paper's Tables 3
 * and 4 for feint's own code), derived from N_S, N_Q, N_D, the variant and
 * the sparsity of the reference tables, plus the paper's own Table 4 for
 * comparison.  Pure functions.
 *
 * Kernel sources counted: src/kernel/geometry.h (feint_jacobian,
 * feint_invert3, feint_shape_psi), src/kernel/physics.h (feint_update_A,
 * feint_update_b) and the six src/variant/<loop>_geo_<treatment>.c.
 *
 * Flop convention (every count below follows it):
 *  - +, -, *, / on doubles count 1 each; a fused multiply-add counts 2, so
 *    the count does not depend on FMA contraction;
 *  - a sum of n terms costs n-1 additions (accumulating from the literal
 *    -0.0 folds away), so a dot product of length n is 2n-1;
 *  - products with reference-table entries that are 0 or +-1 are not
 *    executed: geometry.h's feint_times_table folds them at compile time, so
 *    a table dot product with m nonzero entries, u of them +-1, costs
 *    (m - u) multiplications + (m - 1) additions;
 *  - loads, stores, negations and comparisons are not flops.
 *
 * Two flop counts per variant:
 *  flops (executed): each distinct value computed once.  After full
 *    unrolling with constant tables the compiler merges repeated stages on
 *    identical inputs (common-subexpression elimination) and products with
 *    the same table entry (a hexahedron has 6 distinct signed gradient
 *    entries per column at its 8 points).  perfmodel/flopdag.c counts this
 *    by evaluating the kernel's expressions symbolically and counting the
 *    distinct nodes; `make flop-census` checks it against the flops in the
 *    compiled kernels (clang-19 -O3: equal for every QSS variant and for
 *    Poisson and conv-diff in every loop order; SQS and SSQ execute more
 *    where they read coefficients in place, see flopdag.c).  So it depends
 *    on the element, the problem, the geometry treatment and, for
 *    elasticity, on the block form of the loop order (physics.h), not on
 *    the loop order otherwise.
 *  flops_as_written: the count of the source with no such merging: the
 *    N_S-fold (SQS) and N_S^2-fold (SSQ) repetition of the paper's
 *    Algorithms 4 and 6.  This is the work when the compiler cannot merge,
 *    and the counterpart of the paper's SQS/SSQ rows of Table 4.
 * The bound uses `flops` (a lower bound must not count work the compiler
 * removes); flops_useful = min over the six variants of `flops`. */
#include <string.h>

#include "pm_internal.h"

#define N_D 3

/* What the counts need to know of an element, read from its reference
 * tables (feint_element_get_info: the one home of the tables). */
typedef struct {
  int num_nodes, num_qpts;
  long long jacobian;       /* flops of feint_jacobian at one point (the same
                               at every point for both elements) */
  long long psi_point;      /* flops of feint_shape_psi for all nodes at one
                               point (the same at every point) */
} elem_shape;

/* (m - u) multiplications + (m - 1) additions for a table dot product with
 * m nonzero entries, u of them +-1 (0 if m == 0). */
static long long table_dot(int m, int u) { return m ? (m - u) + (m - 1) : 0; }

static elem_shape shape_of(feint_element element) {
  elem_shape e;
  feint_element_info ei;
  memset(&e, 0, sizeof e);
  feint_element_get_info(element, &ei);
  e.num_nodes = ei.num_nodes;
  e.num_qpts = ei.num_qpts;
  /* feint_jacobian at q = 0: J[a][b] = sum_n x[n][a] dphi[n][b], for each
   * of the N_D rows a, one table dot product per column b. */
  for (int b = 0; b < N_D; b++) {
    int m = 0, u = 0;
    for (int n = 0; n < ei.num_nodes; n++) {
      const double d = ei.dphi[0][n][b];
      m += d != 0.0;
      u += d == 1.0 || d == -1.0;
    }
    e.jacobian += N_D * table_dot(m, u);
  }
  /* feint_shape_psi at q = 0: psi[1+a] = sum_b dphi[n][b] Jinv[b][a], one
   * table dot product over row n for each a. */
  for (int n = 0; n < ei.num_nodes; n++) {
    int m = 0, u = 0;
    for (int b = 0; b < N_D; b++) {
      const double d = ei.dphi[0][n][b];
      m += d != 0.0;
      u += d == 1.0 || d == -1.0;
    }
    e.psi_point += N_D * table_dot(m, u);
  }
  return e;
}

/* ---- Stage costs (flops), from the kernel sources ----------------------- */

/* feint_invert3: 9 cofactors x (2 mul + 1 sub) = 27; det = 3 mul + 2 add
 * = 5; 1 / det = 1; 9 scalings = 9: 42. */
static long long cost_invert(void) { return 9 * 3 + 5 + 1 + 9; }

/* vol = det * w_q: 1 mul. */
static long long cost_vol(void) { return 1; }

/* feint_update_A for one (q, r, s), without vol, as written:
 * Poisson: grad psi_r . grad psi_s: 2 N_D - 1 = 5.
 * conv-diff: t_i = sum_j c_ij psi_s[j] for i = 0..N_D (2(N_D+1) - 1 = 7
 * each, 4 of them: 28), then sum_i psi_r[i] t_i (7): 35. */
static long long cost_update_A_inner(feint_problem pb) {
  return pb == FEINT_CONVDIFF ? (N_D + 1) * (2 * (N_D + 1) - 1) : 0;
}
/* Elasticity, one 3x3 block (feint_update_block) as written: lambda vol,
 * mu vol (2), g_r . g_s (5), mu vol g_r.g_s (1), per entry the products
 * g_r[i] g_s[j] and g_r[j] g_s[i] and their scalings (4) and one addition
 * (9 x 5 = 45), 3 diagonal additions: 56, without the 9 accumulations
 * (cost_accumulate, which for elasticity counts them: 2 per block stands for
 * vol and one addition in the scalar problems, so the block's 9 additions
 * are added here and cost_accumulate's 2 subtracted: 56 + 9 - 2 = 63). */
/* The SSQ variants write the block of prisms and hexahedra in its hoisted
 * form (feint_update_block with form 2; tet4 keeps the 63): lambda vol,
 * mu vol (2), lambda vol g_r and mu vol g_r (6), mu vol g_r . g_s from them
 * (3 mul + 2 add = 5), per entry 2 mul + 1 add (27), 3 diagonal additions:
 * 43, without the 9 accumulations, so 43 + 9 - 2 = 50 in place of 63. */
#define FEINT_PM_ELASTIC_HOISTED 50
/* With lambda, mu per element (FEINT_ELASTICITY) the SSQ variants write the
 * S form (form 3): per (r, s, q) vol g_r (3) and 9 products, each
 * accumulated: 3 + 18 = 21, i.e. 19 + cost_accumulate's 2; then once per
 * block (feint_finish_block) mu tr S (3), per entry 2 mul + 1 add (27), 3
 * diagonal additions: 33. */
#define FEINT_PM_ELASTIC_SFORM 19
#define FEINT_PM_ELASTIC_FINISH 33
/* 1 if the variants of loop order lo write the S form for problem pb. */
static int sform(feint_problem pb, feint_pm_loop_order lo) {
  return pb == FEINT_ELASTICITY && lo == FEINT_PM_SSQ;
}
/* poisson_kappa: vol kappa_q (1, written inside the update) + g_r . g_s
 * (5) = 6. */
static int is_elastic(feint_problem pb) {
  return pb == FEINT_ELASTICITY || pb == FEINT_ELASTICITY_QP;
}
static long long cost_update_A_outer(feint_problem pb) {
  return pb == FEINT_POISSON         ? 2 * N_D - 1
         : pb == FEINT_POISSON_KAPPA ? 1 + 2 * N_D - 1
         : pb == FEINT_CONVDIFF      ? 2 * (N_D + 1) - 1
                                     : 63;
}
static long long cost_update_A(feint_problem pb) {
  return cost_update_A_inner(pb) + cost_update_A_outer(pb);
}

/* feint_update_b for one (q, r), without vol: Poisson f_q phi_r: 1;
 * conv-diff d . psi_r: 2(N_D+1) - 1 = 7. */
static long long cost_update_b(feint_problem pb) {
  /* elasticity: 3 components x (vol * (f_i phi_r): 2 mul + 1 add) = 9,
   * less cost_accumulate's 2 */
  return pb == FEINT_POISSON || pb == FEINT_POISSON_KAPPA ? 1
         : pb == FEINT_CONVDIFF                          ? 2 * (N_D + 1) - 1
                                                         : 7;
}

/* Ae[r][s] += vol * u and be[r] += vol * u: 1 mul + 1 add each; 1 add
 * where vol is taken out of the sums (vo, below). */
static long long cost_accumulate(int vo) { return vo ? 1 : 2; }

/* With vol out of the sums (feint_pm_vol_outside) the variant computes
 * vol = det w_0 once and multiplies each of the N_S^2 + N_S outputs by it.
 * poisson_kappa's update keeps its multiply-add (kappa_q g_r . g_s + A)
 * and loses the product vol kappa_q: 1 + 5 + 2 = 8 becomes 5 + 2 = 7, the
 * same as its cost_update_A (6) + cost_accumulate(1). */

/* Flops of the source as written, with no merging of repeated stages.
 * Per loop order (JI = Jacobian + inverse, PSI = psi of all nodes at a
 * point, psi_r of node r, uA = update_A + accumulate, ub = update_b +
 * accumulate):
 *  QSS linear  (Alg. 3): JI + N_Q [vol + PSI + N_S^2 uA + N_S ub]
 *  QSS generic (Alg. 2): N_Q [JI + vol + PSI + N_S^2 uA + N_S ub]
 *  SQS linear  (Alg. 5): JI + N_Q PSI + N_S N_Q [vol + N_S uA + ub]
 *                        (vol = det * w_q is inside the r and q loops)
 *  SQS generic (Alg. 4): N_S N_Q [JI + vol + PSI + N_S uA + ub]
 *  (elasticity on prisms and hexahedra: SSQ's uA is the hoisted block,
 *  FEINT_PM_ELASTIC_HOISTED; with lambda, mu per element on every element
 *  the S form, FEINT_PM_ELASTIC_SFORM, plus N_S^2 finishes)
 *  SSQ linear  (Alg. 7): JI + N_Q PSI + N_S^2 N_Q (vol + uA) + N_S N_Q ub
 *  SSQ generic (Alg. 6): N_Q sum_{r,s} [JI + vol + psi_r + psi_s + uA]
 *                        + N_S N_Q ub = N_Q [N_S^2 (JI + vol + uA)
 *                        + 2 N_S PSI] + N_S N_Q ub
 *                        (psi of r and of s at every point; b when r == s)
 * With vol outside the sums (feint_pm_vol_outside): vol 0 per point, accumulations
 * of 1, and 1 + N_S^2 + N_S for vol and the final products. */
static long long flops_as_written(feint_element et, feint_problem pb, feint_pm_loop_order lo,
                                  int geo_linear) {
  elem_shape e = shape_of(et);
  long long ns = e.num_nodes, nq = e.num_qpts;
  const int vo = feint_pm_vol_outside(et, pb, geo_linear);
  long long ji = e.jacobian + cost_invert(), vol = vo ? 0 : cost_vol(), psi = e.psi_point;
  long long uA = cost_update_A(pb) + cost_accumulate(vo);
  long long ub = cost_update_b(pb) + cost_accumulate(vo);
  const long long out = vo ? cost_vol() + ns * ns + ns : 0; /* vo: v = det w_0, v * A, v * b */
  switch (lo) {
  case FEINT_PM_QSS:
    return (geo_linear ? ji : nq * ji) + nq * (vol + psi + ns * ns * uA + ns * ub) + out;
  case FEINT_PM_SQS:
    if (geo_linear) return ji + nq * psi + ns * nq * (vol + ns * uA + ub) + out;
    return ns * nq * (ji + vol + psi + ns * uA + ub);
  case FEINT_PM_SSQ:
  default:
    if (sform(pb, lo)) { /* the S form, and its finish per block */
      uA += FEINT_PM_ELASTIC_SFORM - cost_update_A_outer(pb);
      const long long fin = ns * ns * FEINT_PM_ELASTIC_FINISH;
      if (geo_linear) return ji + nq * psi + ns * ns * nq * (vol + uA) + ns * nq * ub + fin;
      return nq * (ns * ns * (ji + vol + uA) + 2 * ns * psi) + ns * nq * ub + fin;
    }
    if (is_elastic(pb) && ns > 4) uA += FEINT_PM_ELASTIC_HOISTED - cost_update_A_outer(pb);
    if (geo_linear) return ji + nq * psi + ns * ns * nq * (vol + uA) + ns * nq * ub + out;
    return nq * (ns * ns * (ji + vol + uA) + 2 * ns * psi) + ns * nq * ub;
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
  const long long nd = (is_elastic(pb) ? N_D : 1) * (long long)e.num_nodes;
  c->coeffs = pb == FEINT_POISSON         ? e.num_qpts
              : pb == FEINT_ELASTICITY    ? 2 + N_D * e.num_qpts /* lambda, mu, f per point */
              : pb == FEINT_POISSON_KAPPA ? 2 * e.num_qpts       /* (kappa_q, f_q) */
              : pb == FEINT_ELASTICITY_QP ? 5 * e.num_qpts       /* (lambda_q, mu_q, f_q) */
                                          : (N_D + 1) * (N_D + 1) + (N_D + 1);
  c->a_out = nd * nd; /* elasticity: (3 N_S)^2, vertex-major dofs */
  c->b_out = nd;
  c->global_accesses = c->geometry + c->coeffs + c->a_out + c->b_out;
  /* 8 bytes per double, each moved once (nontemporal stores). */
  c->bytes_compulsory = 8 * c->global_accesses;
  /* Packed symmetric output: A^e's upper triangle only, N (N + 1) / 2
   * doubles (hex8 elasticity 300 of 576); conv-diff has none (0).  The
   * flops do not change (the kernels compute every entry; the symmetric
   * ones are merged, see perfmodel/flopdag.c). */
  c->a_out_packed = pb == FEINT_CONVDIFF ? 0 : nd * (nd + 1) / 2;
  c->bytes_compulsory_packed =
      pb == FEINT_CONVDIFF ? 0 : 8 * (c->geometry + c->coeffs + c->a_out_packed + c->b_out);
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
  long long per_point = pb == FEINT_POISSON         ? 1
                        : pb == FEINT_POISSON_KAPPA ? 2       /* kappa_q, f_q */
                        : is_elastic(pb)            ? 2 + N_D /* lambda, mu, f_q */
                                                    : (N_D + 1) * (N_D + 1) + (N_D + 1);
  c->shared_accesses[FEINT_PM_SHARED_COEFFS] = per_point * nq * reps;
  if (lo == FEINT_PM_SSQ && !geo_linear)
    c->shared_accesses[FEINT_PM_SHARED_PHI] = 16 * nq * ns * ns;
  else {
    long long writes = 4 * ns * nq * (lo == FEINT_PM_SQS && !geo_linear ? ns : 1);
    c->shared_accesses[FEINT_PM_SHARED_PHI] =
        lo == FEINT_PM_SSQ ? writes + 8 * nq * ns * ns : writes + 4 * nq * ns + 4 * nq * ns * ns;
  }
  /* elasticity: per dof (a_out = dofs^2, b_out = dofs) */
  c->shared_accesses[FEINT_PM_SHARED_AB] = 2 * nq * (c->a_out + c->b_out) + c->a_out + c->b_out;
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

/* The tensor form (src/variant/tensor_geo_linear.c) reads each input once
 * and accumulates every entry of A^e and b^e in a register: the geometry
 * 3 N_S and the coefficients once, no shape function values (the tables
 * are constants in the instructions), and one read of each output to
 * store it. */
static void fill_shared_tensor(feint_pm_counts *c) {
  c->shared_accesses[FEINT_PM_SHARED_GEOMETRY] = c->geometry;
  c->shared_accesses[FEINT_PM_SHARED_COEFFS] = c->coeffs;
  c->shared_accesses[FEINT_PM_SHARED_PHI] = 0;
  c->shared_accesses[FEINT_PM_SHARED_AB] = c->a_out + c->b_out;
}

feint_status feint_pm_counts_get(feint_element element, feint_problem problem,
                                 feint_variant variant, feint_pm_counts *out) {
  FEINT_CHECK(out != NULL, FEINT_ERR_NULL_ARG, "out is NULL");
  FEINT_CALL(check_case(__func__, element, problem));
  FEINT_CHECK((unsigned)variant < FEINT_VARIANT_COUNT, FEINT_ERR_OUT_OF_RANGE,
                 "variant = %d; allowed 0..%d", (int)variant, FEINT_VARIANT_COUNT - 1);
  const int tensor = variant == FEINT_TENSOR_GEO_LINEAR;
  feint_pm_counts c;
  memset(&c, 0, sizeof c);
  fill_sizes(element, problem, &c);
  c.flops = feint_pm_dag_flops(element, problem, variant);
  if (tensor) { /* no stage repeats in the source: as written = executed */
    fill_shared_tensor(&c);
    c.flops_as_written = c.flops;
  } else {
    feint_pm_loop_order lo;
    int geo_linear;
    FEINT_CALL(feint_pm_variant_split(variant, &lo, &geo_linear));
    fill_shared(problem, lo, geo_linear, &c);
    c.flops_as_written = flops_as_written(element, problem, lo, geo_linear);
  }
  /* geo_linear never costs more than geo_generic, so the minimum over the
   * variants is that of a geo_linear one or of the tensor form (valid for
   * affine elements only: it is the useful work of the case, not a promise
   * that such a variant runs). */
  c.flops_useful = c.flops;
  for (int v = 0; v < FEINT_VARIANT_COUNT && c.flops_useful > 0; v++) {
    feint_variant_info vi;
    if (v == (int)variant || feint_variant_get_info((feint_variant)v, &vi) != FEINT_SUCCESS ||
        !vi.geo_linear)
      continue;
    const long long f = feint_pm_dag_flops(element, problem, (feint_variant)v);
    c.flops_useful = f < 0 ? -1 : f < c.flops_useful ? f : c.flops_useful;
  }
  FEINT_CHECK(c.flops > 0 && c.flops_useful > 0, FEINT_ERR_ALLOC,
              "out of memory counting the flops of %s-%s", feint_pm_element_name(element),
              feint_pm_problem_name(problem));
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
  FEINT_CHECK(out != NULL, FEINT_ERR_NULL_ARG, "out is NULL");
  FEINT_CALL(check_case(__func__, element, problem));
  FEINT_CHECK((element == FEINT_TET4 || element == FEINT_PRISM6) &&
                  (problem == FEINT_POISSON || problem == FEINT_CONVDIFF),
              FEINT_ERR_UNSUPPORTED,
              "element = %d, problem = %d: the paper's Table 4 covers tet4 and prism6 with "
              "Poisson and conv-diff only",
              (int)element, (int)problem);
  FEINT_CHECK((unsigned)loop_order < FEINT_PM_LOOP_ORDER_COUNT, FEINT_ERR_OUT_OF_RANGE,
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
