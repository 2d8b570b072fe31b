/*
 * kernel/physics.h - the problem-specific final update (the pointwise
 * physics), the one home of what distinguishes Poisson from conv-diff.
 *
 * With psi_r = (phi_r, dphi_r/dx, dphi_r/dy, dphi_r/dz) at a quadrature point
 * (index 0 = value, 1..3 = derivatives, as c^{ij} and d^i of the paper):
 *   A^e[r][s] += vol * sum_ij c^{ij} psi_r[i] psi_s[j]
 *   b^e[r]    += vol * sum_i  d^i    psi_r[i]
 * Poisson:   c^{ij} = delta_ij for i,j >= 1 (Laplace operator), and
 *            d^0 = f(x_q) given per quadrature point, d^{1..3} = 0.
 * conv-diff: the full 4x4 c and 4 d, constant over the element.
 *
 * Vector problems (linear elasticity) have N_C = 3 components per node:
 * dofs are vertex-major, dof 3 v + c (PETSc block size 3), and the update of
 * a node pair (r, s) is a 3x3 block.  With g_r = grad phi_r, isotropic
 * elasticity a(u, v) = int lambda div u div v + 2 mu eps(u) : eps(v) gives,
 * for test function phi_r e_i and trial function phi_s e_j,
 *   A^e[3r+i][3s+j] += vol (lambda g_r[i] g_s[j] + mu g_r[j] g_s[i]
 *                           + mu delta_ij g_r . g_s)
 *   b^e[3r+i]       += vol f_i(x_q) phi_r
 * Elasticity coefficients: lambda, mu per element, then the body force f at
 * each quadrature point: [lambda, mu, f_0x, f_0y, f_0z, f_1x, ...]
 * (2 + 3 N_Q doubles).
 *
 * Variable coefficients (heterogeneous media), one record per quadrature
 * point q, in the order of the element's quadrature points:
 *   poisson_kappa  -div(kappa grad u) = f: record (kappa_q, f_q), 2 N_Q
 *                  doubles; A^e[r][s] += (vol kappa_q) g_r . g_s,
 *                  b^e[r] += vol f_q phi_r.
 *   elasticity_qp  Lame lambda_q, mu_q and body force f_q at every point:
 *                  record (lambda_q, mu_q, f_qx, f_qy, f_qz), 5 N_Q doubles;
 *                  the update above with lambda_q, mu_q.
 * Both are read in place (feint_coef_at), like elasticity's.
 *
 * The variants call feint_update_block / feint_update_load, which add the
 * N_C x N_C block of (r, s) and the N_C entries of r; for the scalar
 * problems they are the one-entry updates vol * feint_update_A / _b.
 */
#ifndef FEINT_KERNEL_PHYSICS_H
#define FEINT_KERNEL_PHYSICS_H

#include "kernel/elem.h"

FEINT_DECLARE_TARGET_BEGIN

/* Every case (element x problem) feint integrates, as X(ELEMENT, PROBLEM)
 * with the enum names less their FEINT_ prefix (per-case code outside the
 * element loops, e.g. rescale.c). */
#define FEINT_FOR_EACH_CASE(X)                                               \
  X(TET4, POISSON) X(TET4, CONVDIFF) X(PRISM6, POISSON) X(PRISM6, CONVDIFF) \
  X(HEX8, POISSON) X(HEX8, CONVDIFF) X(TET4, ELASTICITY) X(PRISM6, ELASTICITY)  \
  X(HEX8, ELASTICITY) X(TET4, POISSON_KAPPA) X(PRISM6, POISSON_KAPPA)           \
  X(HEX8, POISSON_KAPPA) X(TET4, ELASTICITY_QP) X(PRISM6, ELASTICITY_QP)        \
  X(HEX8, ELASTICITY_QP)

/* The kernel instantiations: the drivers expand this into one fully
 * specialised element loop per entry.  Elasticity with lambda, mu per
 * element has none of its own: it runs on elasticity_qp's loop, the driver
 * giving every quadrature point the element's lambda, mu (feint_expand_lame,
 * in L1 or registers), so the costliest kernels (24 x 24 blocks on hex8)
 * are compiled once, not twice. */
#define FEINT_FOR_EACH_KERNEL_CASE(X)                                        \
  X(TET4, POISSON) X(TET4, CONVDIFF) X(PRISM6, POISSON) X(PRISM6, CONVDIFF) \
  X(HEX8, POISSON) X(HEX8, CONVDIFF) X(TET4, POISSON_KAPPA)                 \
  X(PRISM6, POISSON_KAPPA) X(HEX8, POISSON_KAPPA) X(TET4, ELASTICITY_QP)    \
  X(PRISM6, ELASTICITY_QP) X(HEX8, ELASTICITY_QP)

/* The kernel case that integrates problem pb. */
#define FEINT_KERNEL_PROBLEM(pb) ((pb) == FEINT_ELASTICITY ? FEINT_ELASTICITY_QP : (pb))

/* A variant whose element function has a form of its own for elasticity
 * with lambda, mu per element (SSQ: the S form, feint_update_block) defines
 * FEINT_VARIANT_OWN_ELASTICITY before including kernel/driver.h; its
 * drivers then compile these cases as well and integrate elasticity on
 * them, not on elasticity_qp's loop. */
#define FEINT_ELASTICITY_KERNEL_CASES(X) \
  X(TET4, ELASTICITY) X(PRISM6, ELASTICITY) X(HEX8, ELASTICITY)

/* Coefficient doubles per element: Poisson one f per quadrature point,
 * conv-diff 16 c^{ij} + 4 d^i, elasticity 2 + 3 N_Q, poisson_kappa 2 N_Q,
 * elasticity_qp 5 N_Q (records above). */
#define FEINT_CONVDIFF_COEFFS 20
#define FEINT_KAPPA_RECORD 2
#define FEINT_LAME_RECORD 5
#define FEINT_MAX_COEFFS (FEINT_LAME_RECORD * FEINT_MAX_QPTS)
FEINT_INLINE int feint_problem_coeffs(int et, int pb) {
  return pb == FEINT_POISSON         ? feint_elem_qpts(et)
         : pb == FEINT_ELASTICITY    ? 2 + 3 * feint_elem_qpts(et)
         : pb == FEINT_POISSON_KAPPA ? FEINT_KAPPA_RECORD * feint_elem_qpts(et)
         : pb == FEINT_ELASTICITY_QP ? FEINT_LAME_RECORD * feint_elem_qpts(et)
                                     : FEINT_CONVDIFF_COEFFS;
}

/* 1 for the vector (3 components per node) problems. */
FEINT_INLINE int feint_problem_elastic(int pb) {
  return pb == FEINT_ELASTICITY || pb == FEINT_ELASTICITY_QP;
}
/* 1 if a variant with one Jacobian per element (geo_linear) takes vol out
 * of the sums for problem pb on element et.  vol = det J w_q is then the
 * same at every point wherever the rule's weights are equal (all of
 * feint's rules; tested here, so a rule without equal weights keeps vol
 * inside), and the variant adds up the points' terms without it and
 * multiplies each entry of A^e and b^e by vol = det J w_0 once, after the
 * last point.  Poisson and conv-diff: per entry and point an addition
 * replaces a multiply-add (1 flop fewer), an instruction that moves from
 * the FMA pipes, which bind these kernels, to the FP adders (Zen 4 has two
 * of each).  poisson_kappa: vol kappa_q becomes kappa_q (N_Q products
 * fewer, N_S^2 + N_S final ones more), so that its load vector stays
 * Poisson's bit for bit (the same sum, tests/t205).  Elasticity keeps vol
 * inside: it multiplies vol into lambda and mu once per point, and taking
 * it out would only add the final products.  One rounding moves from every
 * point's product to the final one, so results differ from vol inside in
 * the last bits.  Measured: bench/results/vol_outside. */
FEINT_INLINE int feint_vol_outside(int et, int pb) {
  int equal = pb == FEINT_POISSON || pb == FEINT_CONVDIFF || pb == FEINT_POISSON_KAPPA;
  FEINT_UNROLL
  for (int q = 1; q < feint_elem_qpts(et); q++)
    equal = equal && feint_elem_qwt(et, q) == feint_elem_qwt(et, 0);
  return equal;
}

/* 1 if A^e is symmetric (every problem but conv-diff): packed output. */
FEINT_INLINE int feint_problem_symmetric(int pb) { return pb != FEINT_CONVDIFF; }

/* Components per node (N_C) and dofs per element (N_C N_S); the sizes of
 * A^e (dofs^2) and b^e (dofs). */
#define FEINT_MAX_COMPS 3
#define FEINT_MAX_DOFS (FEINT_MAX_COMPS * FEINT_MAX_NODES)
FEINT_INLINE int feint_problem_comps(int pb) { return feint_problem_elastic(pb) ? 3 : 1; }
FEINT_INLINE int feint_problem_dofs(int et, int pb) {
  return feint_problem_comps(pb) * feint_elem_nodes(et);
}

/* The coefficients of one element.  Poisson and conv-diff copy them into
 * v[] (v[k] = src[k * stride]); elasticity, elasticity_qp and poisson_kappa
 * read them from src where they are used (its copy into a local array was not promoted to registers in the
 * QSS loop nests, and clang then vectorised the omp simd lane loop with the
 * array shared by the lanes: every lane saw the last lane's body force). */
typedef struct {
  double v[FEINT_MAX_COEFFS];
  const double *src;
  int stride;
} feint_coefs;

FEINT_INLINE void feint_load_coeffs(int et, int pb, const double *src, int stride,
                                    feint_coefs *coef) {
  coef->src = src;
  coef->stride = stride;
  if (pb != FEINT_POISSON && pb != FEINT_CONVDIFF) return;
  FEINT_UNROLL
  for (int k = 0; k < feint_problem_coeffs(et, pb); k++) coef->v[k] = src[k * stride];
}

/* Elasticity's coefficients [lambda, mu, f_0 (3), f_1 (3), ...] of element
 * `lane` (entry k at c[k * stride]) as elasticity_qp records (lambda, mu,
 * f_q) at cx[k * xstride] for every point q. */
FEINT_INLINE void feint_expand_lame(int et, const double *c, int stride, double *cx, int xstride) {
  FEINT_UNROLL
  for (int q = 0; q < feint_elem_qpts(et); q++) {
    cx[FEINT_LAME_RECORD * q * xstride] = c[0];
    cx[(FEINT_LAME_RECORD * q + 1) * xstride] = c[stride];
    FEINT_UNROLL
    for (int i = 0; i < 3; i++)
      cx[(FEINT_LAME_RECORD * q + 2 + i) * xstride] = c[(2 + 3 * q + i) * stride];
  }
}

/* Coefficient k of an element read in place. */
FEINT_INLINE double feint_coef_at(const feint_coefs *coef, int k) {
  return coef->src[k * coef->stride];
}

/* Integrand of A^e[r][s] at one point, without vol.
 * Poisson: 3 mul + 2 add = 5 flops.  conv-diff: psi_r . (c psi_s), with
 * c psi_s 4 x (4 mul + 3 add) = 28 (the same for every r: merged by the
 * compiler) and the outer product 4 mul + 3 add = 7: 35 flops. */
FEINT_INLINE double feint_update_A(int pb, const double coef[FEINT_MAX_COEFFS],
                                   const double psi_r[4], const double psi_s[4]) {
  if (pb == FEINT_POISSON) return psi_r[1] * psi_s[1] + psi_r[2] * psi_s[2] + psi_r[3] * psi_s[3];
  double s = 0.0;
  FEINT_UNROLL
  for (int i = 0; i < 4; i++) {
    double t = 0.0;
    FEINT_UNROLL
    for (int j = 0; j < 4; j++) t += coef[4 * i + j] * psi_s[j];
    s += psi_r[i] * t;
  }
  return s;
}

/* Integrand of b^e[r] at quadrature point q, without vol.
 * Poisson: f_q phi_r, 1 flop.  conv-diff: 4 mul + 3 add = 7 flops. */
FEINT_INLINE double feint_update_b(int pb, int q, const double coef[FEINT_MAX_COEFFS],
                                   const double psi_r[4]) {
  if (pb == FEINT_POISSON) return coef[q] * psi_r[0];
  return coef[16] * psi_r[0] + coef[17] * psi_r[1] + coef[18] * psi_r[2] + coef[19] * psi_r[3];
}

/* Add the block of node pair (r, s) at one point: Ars[i * ld + j] for
 * i, j < N_C (Ars points at A^e[N_C r][N_C s] of a row-major array with
 * leading dimension ld).  Elasticity, per block: the 9 products g_r[i]
 * g_s[j] and the 9 g_r[j] g_s[i] (18 mul, merged with those of block (s, r)
 * by the compiler: the same products), g_r . g_s (5), lambda vol and mu vol
 * (2, once per point), mu vol g_r.g_s (1), per entry 2 mul + 2 add (36) and
 * 3 diagonal additions: 18 + 5 + 1 + 36 + 3 = 63 flops as written
 * (elasticity_qp the same, lambda_q and mu_q read per point).
 * `form` (a literal of the calling variant) picks how an elasticity block
 * is written.  0 and 1 differ in evaluation order only, not in flops: 1
 * (fused) writes an entry as one expression,
 * lambda vol P + (mu vol Q + A), which FP_CONTRACT turns into two FMAs into
 * the accumulator; 0 (unfused) adds the point's term t = lambda vol P + mu vol Q
 * after computing it.  The variants choose by measurement (Zen 1, AVX2,
 * 2026-11-26, feint_bench, 2 threads, interleaved, min ns per element of
 * fused against unfused): SSQ fused everywhere (hex8 1.12-1.32x faster,
 * prism6 1.10-1.12x, tet4 1.01-1.05x); QSS fused for prism6 (1.01-1.07x)
 * and hex8 (1.13-1.40x), where the unfused form made the compiler compute
 * and spill every block's terms, then add them in a second pass (two
 * 256-bit stores per entry and point), but unfused for tet4 (three
 * alternated pairs: unfused 1-7% faster on 6 of its 8 QSS rows); SQS
 * unfused (fused was 1.2-1.5x slower on a first try; not analysed).
 * 2 (hoisted, SSQ on prisms and hexahedra) multiplies lambda vol and mu vol
 * into g_r first, lambda vol g_r[i] g_s[j] + (mu vol g_r[j] g_s[i] + A), and
 * mu vol g_r . g_s from the same mu vol g_r: nothing is shared with block
 * (s, r), 52 flops per block as written (perfmodel/counts.c).  In the SSQ
 * loop nest blocks (r, s) and (s, r) run far apart, so a shared product
 * has to live from one to the other.  Measured on Zen 5 (2026-11-29,
 * alternated with the fused build; hex8 elasticity_qp through
 * feint_integrate, blocked, trusted, 65536 hexes, one thread, min of 5 in
 * each of 3 rounds): ssq_geo_linear 524-526 -> 426-432 ns per hex,
 * ssq_geo_generic 566-569 -> 465-480; feint_bench, 2 threads, 2 rounds:
 * hex8 (elasticity and elasticity_qp) ssq_geo_linear 0.83-0.92x the time,
 * ssq_geo_generic 0.89-1.00x, prism6 SSQ 0.83-1.02x.  tet4 stays fused:
 * its SSQ rows ran 1.14-1.46x slower hoisted, but QSS, unchanged, moved
 * 0.98-1.30x in the same runs (memory-bound rows, the VM's memory level
 * moving), so nothing was decided there.  In probe builds QSS hoisted ran
 * 1.38x slower on hex8 (it loses the products it shares with block (s, r)
 * at the same point) and SQS 1.09x slower.
 * 3 (the S form, SSQ, elasticity with lambda, mu per element only) adds
 * vol g_r[i] g_s[j] into S = Ars, 3 mul + 9 FMAs (21 flops with the 9
 * accumulations), and leaves lambda and mu to feint_finish_block, once per
 * block after the last point; other problems treat 3 as 1.  SSQ evaluates
 * a block below the diagonal (r > s) as block (s, r) and stores its
 * transpose (symmetric problems), so the compiler computes each pair
 * once.  Measured on Zen 5 (2026-11-29, hex8 elasticity through
 * feint_integrate, blocked, trusted, 65536 hexes, one thread, min of 5 in
 * each of 3 alternated rounds against the build before, hoisted):
 * ssq_geo_linear 393-401 -> 261-272 ns per hex with the merged S form,
 * ssq_geo_generic 481-489 -> 286-288; in an earlier sitting the S form
 * without the merge gave 336-377 and 368-388 (hoisted 425-444 and
 * 516-533).  The merge does not speed up the hoisted block of
 * elasticity_qp (409-441 against 412-445); a QSS probe build of the S form
 * ran 1.2x slower (there every entry is read and written at every point).
 * poisson_kappa: vol kappa_q (1, once per point), g_r . g_s (5), 1 mul +
 * 1 add: 7 flops per entry as written. */
FEINT_INLINE void feint_update_block(int pb, int q, const feint_coefs *coef,
                                     double vol, const double psi_r[4], const double psi_s[4],
                                     double *Ars, int ld, int form) {
  if (pb == FEINT_POISSON_KAPPA) {
    const double kv = vol * feint_coef_at(coef, FEINT_KAPPA_RECORD * q);
    Ars[0] += kv * (psi_r[1] * psi_s[1] + psi_r[2] * psi_s[2] + psi_r[3] * psi_s[3]);
    return;
  }
  if (!feint_problem_elastic(pb)) {
    Ars[0] += vol * feint_update_A(pb, coef->v, psi_r, psi_s);
    return;
  }
  if (form == 3 && pb == FEINT_ELASTICITY) { /* S form: lambda and mu at the finish */
    FEINT_UNROLL
    for (int i = 0; i < 3; i++) {
      const double vr = vol * psi_r[1 + i];
      FEINT_UNROLL
      for (int j = 0; j < 3; j++) Ars[i * ld + j] += vr * psi_s[1 + j];
    }
    return;
  }
  const int lam = pb == FEINT_ELASTICITY_QP ? FEINT_LAME_RECORD * q : 0; /* lambda's index */
  const double lv = feint_coef_at(coef, lam) * vol, mv = feint_coef_at(coef, lam + 1) * vol;
  if (form == 2) { /* hoisted: lv g_r and mv g_r, the same for every s */
    const double lr[3] = {lv * psi_r[1], lv * psi_r[2], lv * psi_r[3]};
    const double mr[3] = {mv * psi_r[1], mv * psi_r[2], mv * psi_r[3]};
    const double mgr = mr[0] * psi_s[1] + (mr[1] * psi_s[2] + mr[2] * psi_s[3]);
    FEINT_UNROLL
    for (int i = 0; i < 3; i++)
      FEINT_UNROLL
      for (int j = 0; j < 3; j++) {
        const double a = i == j ? Ars[i * ld + j] + mgr : Ars[i * ld + j];
        Ars[i * ld + j] = lr[i] * psi_s[1 + j] + (mr[j] * psi_s[1 + i] + a);
      }
    return;
  }
  const double gg = psi_r[1] * psi_s[1] + psi_r[2] * psi_s[2] + psi_r[3] * psi_s[3];
  const double mgg = mv * gg;
  FEINT_UNROLL
  for (int i = 0; i < 3; i++)
    FEINT_UNROLL
    for (int j = 0; j < 3; j++) {
      const double P = psi_r[1 + i] * psi_s[1 + j], Q = psi_r[1 + j] * psi_s[1 + i];
      if (form) { /* one expression: two FMAs into the accumulator */
        const double a = i == j ? Ars[i * ld + j] + mgg : Ars[i * ld + j];
        Ars[i * ld + j] = lv * P + (mv * Q + a);
      } else { /* the point's term first, then one addition */
        const double t = lv * P + mv * Q;
        Ars[i * ld + j] += i == j ? t + mgg : t;
      }
    }
}

/* The block of node pair (r, s) once every point is added, for the S form
 * (form 3, elasticity): S = sum_q vol g_r g_s^T in Ars becomes
 *   A^e[3r+i][3s+j] = lambda S[i][j] + mu S[j][i] + mu delta_ij tr S,
 * the update above summed over the points with lambda, mu taken out (they
 * are constant over the element): mu tr S (2 add + 1 mul), per entry 2 mul
 * + 1 add, 3 diagonal additions: 33 flops per block.  Block (s, r) is
 * this block's transpose (SSQ evaluates it so, and the compiler merges the
 * two).  Any other form or problem: nothing to do. */
FEINT_INLINE void feint_finish_block(int pb, const feint_coefs *coef, double *Ars, int ld,
                                     int form) {
  if (form != 3 || pb != FEINT_ELASTICITY) return;
  const double lam = feint_coef_at(coef, 0), mu = feint_coef_at(coef, 1);
  double S[3][3];
  FEINT_UNROLL
  for (int i = 0; i < 3; i++)
    FEINT_UNROLL
    for (int j = 0; j < 3; j++) S[i][j] = Ars[i * ld + j];
  const double mtr = mu * (S[0][0] + S[1][1] + S[2][2]);
  FEINT_UNROLL
  for (int i = 0; i < 3; i++)
    FEINT_UNROLL
    for (int j = 0; j < 3; j++)
      Ars[i * ld + j] =
          i == j ? lam * S[i][j] + (mu * S[j][i] + mtr) : lam * S[i][j] + mu * S[j][i];
}

/* Add the N_C load entries of node r at point q: br[i], i < N_C.
 * Elasticity: vol f_{q,i} phi_r: 2 mul + 1 add per component. */
FEINT_INLINE void feint_update_load(int pb, int q, const feint_coefs *coef,
                                    double vol, const double psi_r[4], double *br) {
  if (pb == FEINT_POISSON_KAPPA) {
    br[0] += vol * (feint_coef_at(coef, FEINT_KAPPA_RECORD * q + 1) * psi_r[0]);
    return;
  }
  if (!feint_problem_elastic(pb)) {
    br[0] += vol * feint_update_b(pb, q, coef->v, psi_r);
    return;
  }
  const int f0 = pb == FEINT_ELASTICITY_QP ? FEINT_LAME_RECORD * q + 2 : 2 + 3 * q; /* f_qx */
  FEINT_UNROLL
  for (int i = 0; i < 3; i++) br[i] += vol * (feint_coef_at(coef, f0 + i) * psi_r[0]);
}

FEINT_DECLARE_TARGET_END

#endif /* FEINT_KERNEL_PHYSICS_H */
