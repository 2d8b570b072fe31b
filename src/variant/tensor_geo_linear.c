/*
 * tensor_geo_linear.c - the reference-tensor form (affine elements only): the
 * quadrature sums of products of reference shape functions are tables,
 * summed once at compile time, and an element contracts them with its
 * geometry and coefficients; no loop over quadrature points runs for A^e
 * where the coefficients are constant over the element.
 *
 * On an affine element J is constant.  With psi^_qn = (phi_n, dphi_n/dxi)
 * at point q (reference derivatives) and P = blockdiag(1, J^-1), the
 * global psi_qn = P^T psi^_qn, so every bilinear form of physics.h is a
 * contraction of the constant tables
 *   S_q^mn_rs = w_q psi^_qr[m] psi^_qs[n],   S^mn_rs = sum_q S_q^mn_rs,
 * with the element's terms (det J w_q enters as det J times the weights):
 *   Poisson        A_rs = sum_{k<=l} G_kl T^kl_rs,  G = det J^-1 J^-T,
 *                  T^kl = S^{1+k,1+l} + S^{1+l,1+k} (k != l), 36 x 6
 *                  terms on hex8 against ~2650 flops of quadrature loops;
 *   poisson_kappa  the same per point: sum_q sum_{k<=l} kappa_q G_kl T_q^kl;
 *   conv-diff      A_rs = sum_mn c'_mn S^mn_rs, c' = det P^T c P;
 *                  b_r = sum_m d'_m s^m_r, d' = det P^T d, s^m_r =
 *                  sum_q w_q psi^_qr[m];
 *   elasticity     per node pair the 3 x 3 S = det J^-T R J^-1 with
 *                  R[k][l] = S^{1+k,1+l}_rs, then physics.h's finish
 *                  (lambda S + mu S^T + mu tr S I, feint_finish_block);
 *   elasticity_qp  Lambda = sum_q lambda_q R_q and M = sum_q mu_q R_q
 *                  transformed alike, then Lambda' + M'^T + tr M' I.
 * Table entries that are zero are skipped (the test is on a constant that
 * folds); the others are one FMA each.  Loads other than conv-diff's are
 * physics.h's (feint_update_load at every point, phi constant).
 * Measured against the six quadrature variants in
 * bench/results/hex8_reference_tensor (README.txt): hex8 Poisson 3.3x,
 * conv-diff 4.5x faster than the fastest of them on Zen 3; tet4 Poisson
 * the same (its gradients are constant already).  With coefficients per
 * point (poisson_kappa, elasticity_qp) a contraction per point costs more
 * than the quadrature loop it replaces: 1.2-1.4x slower than
 * sqs/ssq_geo_linear there; those problems are served for completeness.
 *
 * Elasticity runs node row by node row (FEINT_ROW_FN, kernel/driver.h):
 * the terms (det J, J^-1) first, then per row r the pairs (r, s >= r),
 * each block stored at (r, s) and transposed at (s, r).  Conv-diff on
 * prisms and hexahedra too: c' and d' join the terms, then each row's
 * A_rs and b_r; its finished rows then stream out while the next ones
 * compute, where the output is blocked (prism6, one Zen 4 thread: 40.6 ->
 * 30.8 ns per element, bench/results/tensor_convdiff_rows).
 * Mapping: kernel/driver.h.
 */
#include "kernel/geometry.h"
#include "kernel/physics.h"

/* psi^ of node n at point q, entry m (0: value, 1..3: reference derivatives). */
FEINT_INLINE double tensor_hat(const int et, const int q, const int n, const int m) {
  return m == 0 ? feint_elem_phi(et, q, n) : feint_elem_dphi(et, q, n, m - 1);
}

/* Point q's term of S^mn_rs, plus S^nm_rs where sym and m != n (Poisson's
 * T^kl = S^{1+k,1+l} + S^{1+l,1+k}, added point by point), and the same summed over
 * the points (q < 0): constants once unrolled.  (Point terms are computed directly, not as
 * a masked sum over the points: the masked sums made the first draft of this file take
 * 46 min to compile.) */
FEINT_INLINE double tensor_pair_at(const int et, const int q, const int m, const int n,
                                   const int r, const int s, const int sym) {
  const double t = feint_elem_qwt(et, q) * tensor_hat(et, q, r, m) * tensor_hat(et, q, s, n);
  return sym && m != n
             ? t + feint_elem_qwt(et, q) * tensor_hat(et, q, r, n) * tensor_hat(et, q, s, m)
             : t;
}
FEINT_INLINE double tensor_pair(const int et, const int q, const int m, const int n, const int r,
                                const int s, const int sym) {
  if (q >= 0) return tensor_pair_at(et, q, m, n, r, s, sym);
  double w = 0.0;
  FEINT_UNROLL
  for (int p = 0; p < feint_elem_qpts(et); p++) w += tensor_pair_at(et, p, m, n, r, s, sym);
  return w;
}

/* The element's terms: det J at P[0], J^-1 at P[(1 + 3 k + a) ps], and for
 * conv-diff its transformed coefficients c' (16) and d' (4) after them. */
#define TENSOR_CP 10
#define TENSOR_DP 26
#define TENSOR_TERMS_LEN 30
/* Conv-diff's part of the terms: c' = det P^T c P at P[(TENSOR_CP + 4 m + n) ps]
 * and d' = det P^T d at P[(TENSOR_DP + m) ps]. */
FEINT_INLINE void tensor_convdiff_terms(const feint_coefs *coef, const double det,
                                        const double Jinv[3][3], double *P, const int ps) {
  const double *c = coef->v, *d = coef->v + 16;
  double t[4][4];
  FEINT_UNROLL
  for (int i = 0; i < 4; i++) { /* t = c P */
    t[i][0] = c[4 * i];
    FEINT_UNROLL
    for (int k = 0; k < 3; k++)
      t[i][1 + k] =
          c[4 * i + 1] * Jinv[k][0] + c[4 * i + 2] * Jinv[k][1] + c[4 * i + 3] * Jinv[k][2];
  }
  FEINT_UNROLL
  for (int n = 0; n < 4; n++) { /* c' = det P^T t */
    P[(TENSOR_CP + n) * ps] = det * t[0][n];
    FEINT_UNROLL
    for (int k = 0; k < 3; k++)
      P[(TENSOR_CP + 4 * (1 + k) + n) * ps] =
          det * (Jinv[k][0] * t[1][n] + Jinv[k][1] * t[2][n] + Jinv[k][2] * t[3][n]);
  }
  P[TENSOR_DP * ps] = det * d[0];
  FEINT_UNROLL
  for (int k = 0; k < 3; k++)
    P[(TENSOR_DP + 1 + k) * ps] = det * (Jinv[k][0] * d[1] + Jinv[k][1] * d[2] + Jinv[k][2] * d[3]);
}

FEINT_INLINE void tensor_geo_linear_terms(const int et, const int pb, const double *geo,
                                          const double *coef_in, const int in_stride,
                                          double *P, const int ps) {
  double x[FEINT_MAX_NODES][3], J[3][3], Jinv[3][3];
  feint_load_nodes(et, geo, in_stride, x);
  feint_jacobian(et, 0, x, J);
  const double det = feint_invert3(J, Jinv);
  P[0] = det;
  FEINT_UNROLL
  for (int k = 0; k < 3; k++)
    FEINT_UNROLL
    for (int a = 0; a < 3; a++) P[(1 + 3 * k + a) * ps] = Jinv[k][a];
  if (pb == FEINT_CONVDIFF) {
    feint_coefs coef;
    feint_load_coeffs(et, pb, coef_in, in_stride, &coef);
    tensor_convdiff_terms(&coef, det, Jinv, P, ps);
  }
}
/* det J from the terms, and J^-1 into Jinv. */
FEINT_INLINE double tensor_terms_get(const double *P, const int ps, double Jinv[3][3]) {
  FEINT_UNROLL
  for (int k = 0; k < 3; k++)
    FEINT_UNROLL
    for (int a = 0; a < 3; a++) Jinv[k][a] = P[(1 + 3 * k + a) * ps];
  return P[0];
}

/* A = sum_p sum_{k<=l} H[p][k][l] T_p^kl over np = 1 (the summed tables,
 * Poisson) or N_Q points (poisson_kappa); i <= j, stored twice. */
FEINT_INLINE void tensor_laplace(const int et, const int np, const double H[][3][3], double *A,
                                 const int out_stride) {
  const int ns = feint_elem_nodes(et);
  FEINT_UNROLL
  for (int i = 0; i < ns; i++)
    FEINT_UNROLL
    for (int j = i; j < ns; j++) {
      double a = -0.0;
      FEINT_UNROLL
      for (int p = 0; p < np; p++)
        FEINT_UNROLL
        for (int k = 0; k < 3; k++)
          FEINT_UNROLL
          for (int l = k; l < 3; l++) {
            const double t = tensor_pair(et, np == 1 ? -1 : p, 1 + k, 1 + l, i, j, 1);
            if (t != 0.0) a += H[p][k][l] * t;
          }
      A[(i * ns + j) * out_stride] = a;
      A[(j * ns + i) * out_stride] = a;
    }
}

/* Conv-diff's node row r of A^e and b^e: A_rs = sum_mn c'_mn S^mn_rs, b_r =
 * sum_m d'_m s^m_r, against the summed tables. */
FEINT_INLINE void tensor_convdiff_row(const int et, const int r, const double *P, const int ps,
                                      double *A, double *b, const int out_stride) {
  const int ns = feint_elem_nodes(et), nq = feint_elem_qpts(et);
  FEINT_UNROLL
  for (int s = 0; s < ns; s++) {
    double a = -0.0;
    FEINT_UNROLL
    for (int m = 0; m < 4; m++)
      FEINT_UNROLL
      for (int n = 0; n < 4; n++) {
        const double w = tensor_pair(et, -1, m, n, r, s, 0);
        if (w != 0.0) a += P[(TENSOR_CP + 4 * m + n) * ps] * w;
      }
    A[(r * ns + s) * out_stride] = a;
  }
  double br = -0.0;
  FEINT_UNROLL
  for (int m = 0; m < 4; m++) {
    double w = 0.0;
    FEINT_UNROLL
    for (int q = 0; q < nq; q++) w += feint_elem_qwt(et, q) * tensor_hat(et, q, r, m);
    if (w != 0.0) br += P[(TENSOR_DP + m) * ps] * w;
  }
  b[r * out_stride] = br;
}

/* 1 if R_rs[k][l] = S^{1+k,1+l}_rs has a term: summed over the points
 * (qp = 0: elasticity's constant R) or at any point (qp = 1: elasticity_qp's
 * Lambda and M); a constant once unrolled. */
FEINT_INLINE int tensor_pair_used(const int et, const int qp, const int k, const int l,
                                  const int r, const int s) {
  if (!qp) return tensor_pair(et, -1, 1 + k, 1 + l, r, s, 0) != 0.0;
  int used = 0;
  FEINT_UNROLL
  for (int q = 0; q < feint_elem_qpts(et); q++)
    used |= tensor_pair(et, q, 1 + k, 1 + l, r, s, 0) != 0.0;
  return used;
}

/* S = Jd^T R J^-1 (Jd = det J^-1) for the 3 x 3 R of node pair (r, s),
 * skipping the entries of R that are zero by the tables (tet4: two of its
 * rows) and the rows of T = R J^-1 they make zero. */
FEINT_INLINE void tensor_transform(const int et, const int qp, const int r, const int s,
                                   const double Jd[3][3], const double Jinv[3][3],
                                   const double R[3][3], double S[3][3]) {
  double T[3][3];
  int used[3][3], row_used[3];
  FEINT_UNROLL
  for (int k = 0; k < 3; k++) {
    row_used[k] = 0;
    FEINT_UNROLL
    for (int l = 0; l < 3; l++)
      used[k][l] = tensor_pair_used(et, qp, k, l, r, s), row_used[k] |= used[k][l];
    FEINT_UNROLL
    for (int c = 0; c < 3; c++) {
      double t = -0.0;
      FEINT_UNROLL
      for (int l = 0; l < 3; l++)
        if (used[k][l]) t += R[k][l] * Jinv[l][c];
      T[k][c] = t;
    }
  }
  FEINT_UNROLL
  for (int a = 0; a < 3; a++)
    FEINT_UNROLL
    for (int c = 0; c < 3; c++) {
      double v = -0.0;
      FEINT_UNROLL
      for (int k = 0; k < 3; k++)
        if (row_used[k]) v += Jd[k][a] * T[k][c];
      S[a][c] = v;
    }
}

/* The loads of node r: physics.h's update at every point (phi a constant). */
FEINT_INLINE void tensor_load(const int et, const int pb, const int r, const feint_coefs *coef,
                              const double det, double *b, const int out_stride) {
  const int nc = feint_problem_comps(pb);
  double br[FEINT_MAX_COMPS] = {0};
  FEINT_UNROLL
  for (int q = 0; q < feint_elem_qpts(et); q++) {
    const double psi[4] = {feint_elem_phi(et, q, r), 0.0, 0.0, 0.0};
    feint_update_load(pb, q, coef, det * feint_elem_qwt(et, q), psi, br);
  }
  FEINT_UNROLL
  for (int i = 0; i < nc; i++) b[(nc * r + i) * out_stride] = br[i];
}

/* Node row r of an elasticity A^e and b^e from the terms: blocks (r, s >= r),
 * stored at (r, s) and transposed at (s, r), so rows 0..r are final once
 * rows 0..r have run.  Per element lambda, mu: one R per pair, then
 * feint_finish_block; per point: Lambda and M, each transformed. */
FEINT_INLINE void tensor_geo_linear_row(const int et, const int pb, const int r, const double *P,
                                        const int ps, const feint_coefs *coef, double *A,
                                        double *b, const int out_stride) {
  if (pb == FEINT_CONVDIFF) {
    tensor_convdiff_row(et, r, P, ps, A, b, out_stride);
    return;
  }
  if (!feint_problem_elastic(pb)) return; /* (rows run for conv-diff and elasticity only) */
  const int ns = feint_elem_nodes(et), nq = feint_elem_qpts(et), nd = 3 * ns;
  double Jinv[3][3], Jd[3][3];
  const double det = tensor_terms_get(P, ps, Jinv);
  FEINT_UNROLL
  for (int k = 0; k < 3; k++)
    FEINT_UNROLL
    for (int a = 0; a < 3; a++) Jd[k][a] = det * Jinv[k][a];
  double lam[FEINT_MAX_QPTS], mu[FEINT_MAX_QPTS]; /* elasticity_qp's, read once */
  FEINT_UNROLL
  for (int q = 0; q < nq; q++)
    lam[q] = pb == FEINT_ELASTICITY_QP ? feint_coef_at(coef, FEINT_LAME_RECORD * q) : 0.0,
    mu[q] = pb == FEINT_ELASTICITY_QP ? feint_coef_at(coef, FEINT_LAME_RECORD * q + 1) : 0.0;
  FEINT_UNROLL
  for (int s = r; s < ns; s++) {
    double E[3][3];
    if (pb == FEINT_ELASTICITY) {
      double R[3][3];
      FEINT_UNROLL
      for (int k = 0; k < 3; k++)
        FEINT_UNROLL
        for (int l = 0; l < 3; l++) R[k][l] = tensor_pair(et, -1, 1 + k, 1 + l, r, s, 0);
      tensor_transform(et, 0, r, s, Jd, Jinv, R, E);
      feint_finish_block(pb, coef, &E[0][0], 3, 3);
    } else {
      double L[3][3], M[3][3], SL[3][3], SM[3][3];
      FEINT_UNROLL
      for (int k = 0; k < 3; k++)
        FEINT_UNROLL
        for (int l = 0; l < 3; l++) {
          double lw = -0.0, mw = -0.0;
          FEINT_UNROLL
          for (int q = 0; q < nq; q++) {
            const double w = tensor_pair(et, q, 1 + k, 1 + l, r, s, 0);
            if (w != 0.0) {
              lw += lam[q] * w;
              mw += mu[q] * w;
            }
          }
          L[k][l] = lw, M[k][l] = mw;
        }
      tensor_transform(et, 1, r, s, Jd, Jinv, L, SL);
      tensor_transform(et, 1, r, s, Jd, Jinv, M, SM);
      const double mtr = SM[0][0] + SM[1][1] + SM[2][2];
      FEINT_UNROLL
      for (int i = 0; i < 3; i++)
        FEINT_UNROLL
        for (int j = 0; j < 3; j++)
          E[i][j] = i == j ? SL[i][j] + (SM[j][i] + mtr) : SL[i][j] + SM[j][i];
    }
    FEINT_UNROLL
    for (int i = 0; i < 3; i++)
      FEINT_UNROLL
      for (int j = 0; j < 3; j++) {
        A[((3 * r + i) * nd + 3 * s + j) * out_stride] = E[i][j];
        if (s > r) A[((3 * s + j) * nd + 3 * r + i) * out_stride] = E[i][j];
      }
  }
  tensor_load(et, pb, r, coef, det, b, out_stride);
}

FEINT_INLINE void tensor_geo_linear_element(const int et, const int pb, const double *geo,
                                            const double *coef_in, const int in_stride, double *A,
                                            double *b, const int out_stride) {
  const int ns = feint_elem_nodes(et), nq = feint_elem_qpts(et);
  double P[TENSOR_TERMS_LEN], Jinv[3][3], H[FEINT_MAX_QPTS][3][3];
  feint_coefs coef;
  tensor_geo_linear_terms(et, pb, geo, coef_in, in_stride, P, 1);
  feint_load_coeffs(et, pb, coef_in, in_stride, &coef);
  if (feint_problem_elastic(pb)) {
    FEINT_UNROLL
    for (int r = 0; r < ns; r++) tensor_geo_linear_row(et, pb, r, P, 1, &coef, A, b, out_stride);
    return;
  }
  const double det = tensor_terms_get(P, 1, Jinv);
  if (pb == FEINT_CONVDIFF) {
    FEINT_UNROLL
    for (int r = 0; r < ns; r++) tensor_convdiff_row(et, r, P, 1, A, b, out_stride);
    return;
  }
  /* G = det J^-1 J^-T (k <= l); poisson_kappa: kappa_q G at every point */
  const int np = pb == FEINT_POISSON_KAPPA ? nq : 1;
  FEINT_UNROLL
  for (int k = 0; k < 3; k++)
    FEINT_UNROLL
    for (int l = k; l < 3; l++) {
      const double g =
          det * (Jinv[k][0] * Jinv[l][0] + Jinv[k][1] * Jinv[l][1] + Jinv[k][2] * Jinv[l][2]);
      FEINT_UNROLL
      for (int p = 0; p < np; p++)
        H[p][k][l] = np == 1 ? g : feint_coef_at(&coef, FEINT_KAPPA_RECORD * p) * g;
    }
  tensor_laplace(et, np, (const double(*)[3][3])H, A, out_stride);
  FEINT_UNROLL
  for (int r = 0; r < ns; r++) tensor_load(et, pb, r, &coef, det, b, out_stride);
}

#define FEINT_VARIANT_NAME tensor_geo_linear
#define FEINT_VARIANT_OWN_ELASTICITY /* the S form with constant tables */
#define FEINT_ELEMENT_FN tensor_geo_linear_element
#define FEINT_TERMS_FN tensor_geo_linear_terms
#define FEINT_TERMS_LEN TENSOR_TERMS_LEN
#define FEINT_ROW_FN tensor_geo_linear_row
/* conv-diff on prisms and hexahedra row by row too: its rows leave while the
 * next compute (kernel/driver.h); tet4 measured no gain */
#define FEINT_ROWS_ALSO(et, pb) ((pb) == FEINT_CONVDIFF && feint_elem_nodes(et) >= 6)
#include "kernel/driver.h"
