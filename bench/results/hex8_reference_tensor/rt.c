/* The reference-tensor form of Poisson, conv-diff and elasticity (lambda, mu per element)
 * on affine elements (issues 8 and 10), as a probe.
 *
 * On an affine element J is constant, so with G = det J J^-1 J^-T (symmetric 3 x 3)
 *   A_ij = sum_q w_q det J grad phi_i . grad phi_j = sum_{k,l} G_kl R^kl_ij,
 *   R^kl_ij = sum_q w_q dphi_i/dxi_k dphi_j/dxi_l   (a table: the quadrature sum done once).
 * A is symmetric: hex8, 36 entries x 6 terms (k <= l, R^kl + R^lk) = 216 FMAs less the zero
 * R, against the ~2650 flops of the quadrature loops (sqs_geo_linear).  b_r = sum_q det w_q
 * f_q phi_qr stays as it is (f per point).  Conv-diff and elasticity: rt_convdiff,
 * rt_elasticity below.
 *
 * The element functions run inside feint's own host driver (kernel/driver.h: blocks of 8
 * lanes, L1 buffers, streaming stores), restricted to these three problems, so both forms
 * are timed through the same loop.  Per round: the triad, a baseline variant (feint_integrate,
 * trusted; default sqs_geo_linear) and this form, natural and blocked; 4 Mi distinct random
 * affine elements.  Min and median ns per element; % of the memory bound = (compulsory bytes
 * / triad GB/s of that round) / time.  Checks every entry of every element against the
 * baseline: |tensor - baseline| <= 64 eps max_ij |A_ij| of the element (both are sums of at
 * most 64 rounded terms of size <= max |A| times the condition of the element's shape, ~1
 * here, computed from the same J; geo_generic's J per point differs: README.txt).
 *
 * Build (repository root, after make):
 *   clang-19 -O3 -march=native -mprefer-vector-width=512 -std=c11 -fopenmp -Iinclude -Isrc \
 *     -Iperfmodel -mllvm -pragma-unroll-threshold=1000000 \
 *     bench/results/hex8_reference_tensor/rt.c build/lib/libfeint.a -lm -o /tmp/rt
 * Run: OMP_PROC_BIND=close OMP_PLACES=cores /tmp/rt [rounds [element [problem [baseline]]]]
 * With -DRT_DRAFT (and -o /tmp/tv) it times and checks the library's tensor_geo_linear
 * instead (the draft of stop 52, landed in stop 53 as src/variant/tensor_geo_linear.c),
 * every problem (poisson_kappa and elasticity_qp too).
 */
#include <float.h>
#include <math.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include "feint.h"
#include "feint_perfmodel.h"
#include "kernel/geometry.h"
#include "kernel/physics.h"

#ifdef RT_DRAFT
/* -DRT_DRAFT: the seventh variant, as the library builds it (every problem). */
#include "feint_internal.h"
#define RT_HOST feint_variant_tensor_geo_linear_host
#define RT_PROBLEM_OK(pb) 1
#define RT_PROBLEMS "poisson|convdiff|elasticity|poisson_kappa|elasticity_qp"
#else
/* this probe's driver instantiates Poisson and conv-diff only */
#undef FEINT_FOR_EACH_CASE
#define FEINT_FOR_EACH_CASE(X)                                                \
  X(TET4, POISSON) X(PRISM6, POISSON) X(HEX8, POISSON) X(TET4, CONVDIFF) \
  X(PRISM6, CONVDIFF) X(HEX8, CONVDIFF) FEINT_ELASTICITY_KERNEL_CASES(X)
#undef FEINT_FOR_EACH_KERNEL_CASE
#define FEINT_FOR_EACH_KERNEL_CASE(X)                                        \
  X(TET4, POISSON) X(PRISM6, POISSON) X(HEX8, POISSON) X(TET4, CONVDIFF) \
  X(PRISM6, CONVDIFF) X(HEX8, CONVDIFF)
#define FEINT_VARIANT_OWN_ELASTICITY /* elasticity (lambda, mu per element): its own cases */

/* R^kl_ij (+ R^lk_ij for k != l): constants once unrolled (static const tables); 48 of the
 * 216 (k <= l, i <= j) are zero, and their terms fold away (the test on t is on a constant),
 * the others are FMAs.  (feint_times_table's selects gave a mul and an add per term: 511 FP
 * instructions per 4-lane pass against 416, and the same time, this form being memory-bound.) */
FEINT_INLINE double rt_tensor(int et, int k, int l, int i, int j) {
  double s = 0.0;
  FEINT_UNROLL
  for (int q = 0; q < feint_elem_qpts(et); q++) {
    s += feint_elem_qwt(et, q) * feint_elem_dphi(et, q, i, k) * feint_elem_dphi(et, q, j, l);
    if (k != l)
      s += feint_elem_qwt(et, q) * feint_elem_dphi(et, q, i, l) * feint_elem_dphi(et, q, j, k);
  }
  return s;
}

/* Conv-diff: with psi = (phi, grad phi) = P psi^ (P[0][0] = 1, P[1+a][1+k] = dxi_k/dx_a),
 *   A_rs = sum_mn c'_mn S^mn_rs,  c' = det P^T c P,  S^mn_rs = sum_q w_q psi^_qr[m] psi^_qs[n],
 *   b_r  = sum_m d'_m s^m_r,      d' = det P^T d,    s^m_r = sum_q w_q psi^_qr[m].
 * psi^ of node n at point q, entry m (0: value, 1..3: reference derivatives): */
FEINT_INLINE double rt_hat(int et, int q, int n, int m) {
  return m == 0 ? feint_elem_phi(et, q, n) : feint_elem_dphi(et, q, n, m - 1);
}
/* S^mn_rs = sum_q w_q psi^_qr[m] psi^_qs[n], a constant once unrolled (elasticity's R_rs[k][l]
 * is S^{1+k,1+l}_rs). */
FEINT_INLINE double rt_pair(int et, int m, int n, int r, int s) {
  double w = 0.0;
  FEINT_UNROLL
  for (int q = 0; q < feint_elem_qpts(et); q++)
    w += feint_elem_qwt(et, q) * rt_hat(et, q, r, m) * rt_hat(et, q, s, n);
  return w;
}
FEINT_INLINE void rt_convdiff(const int et, const double *coef_in, const int in_stride,
                              const double det, const double Jinv[3][3], double *A, double *b,
                              const int out_stride) {
  const int ns = feint_elem_nodes(et), nq = feint_elem_qpts(et);
  double c[4][4], d[4], t[4][4], cp[4][4], dp[4];
  FEINT_UNROLL
  for (int i = 0; i < 4; i++) {
    d[i] = coef_in[(16 + i) * in_stride];
    FEINT_UNROLL
    for (int j = 0; j < 4; j++) c[i][j] = coef_in[(4 * i + j) * in_stride];
  }
  FEINT_UNROLL
  for (int i = 0; i < 4; i++) { /* t = c P */
    t[i][0] = c[i][0];
    FEINT_UNROLL
    for (int k = 0; k < 3; k++)
      t[i][1 + k] = c[i][1] * Jinv[k][0] + c[i][2] * Jinv[k][1] + c[i][3] * Jinv[k][2];
  }
  FEINT_UNROLL
  for (int n = 0; n < 4; n++) { /* c' = det P^T t */
    cp[0][n] = det * t[0][n];
    FEINT_UNROLL
    for (int k = 0; k < 3; k++)
      cp[1 + k][n] = det * (Jinv[k][0] * t[1][n] + Jinv[k][1] * t[2][n] + Jinv[k][2] * t[3][n]);
  }
  dp[0] = det * d[0];
  FEINT_UNROLL
  for (int k = 0; k < 3; k++)
    dp[1 + k] = det * (Jinv[k][0] * d[1] + Jinv[k][1] * d[2] + Jinv[k][2] * d[3]);
  FEINT_UNROLL
  for (int r = 0; r < ns; r++) {
    FEINT_UNROLL
    for (int s = 0; s < ns; s++) {
      double a = -0.0;
      FEINT_UNROLL
      for (int m = 0; m < 4; m++)
        FEINT_UNROLL
        for (int n = 0; n < 4; n++) {
          const double w = rt_pair(et, m, n, r, s);
          if (w != 0.0) a += cp[m][n] * w;
        }
      A[(r * ns + s) * out_stride] = a;
    }
    double br = -0.0;
    FEINT_UNROLL
    for (int m = 0; m < 4; m++) {
      double w = 0.0;
      FEINT_UNROLL
      for (int q = 0; q < nq; q++) w += feint_elem_qwt(et, q) * rt_hat(et, q, r, m);
      if (w != 0.0) br += dp[m] * w;
    }
    b[r * out_stride] = br;
  }
}

/* Elasticity, lambda and mu per element: the S form of physics.h (feint_finish_block) with
 *   S_rs = sum_q vol g_r g_s^T = det J^-T R_rs J^-1,  R_rs[k][l] = sum_q w_q dphi_qrk dphi_qsl,
 * per node pair T = R_rs J^-1 (constant R: 27 FMAs less the zeros), S = det J^-T T (27), then
 * lambda S + mu S^T + mu tr S I; pairs s >= r only, block (s, r) stored as the transpose. */
FEINT_INLINE void rt_elasticity(const int et, const double *coef_in, const int in_stride,
                                const double det, const double Jinv[3][3], double *A, double *b,
                                const int out_stride) {
  const int ns = feint_elem_nodes(et), nq = feint_elem_qpts(et), nd = 3 * ns;
  const double lam = coef_in[0], mu = coef_in[in_stride];
  double Jd[3][3]; /* det J^-1 */
  FEINT_UNROLL
  for (int k = 0; k < 3; k++)
    FEINT_UNROLL
    for (int a = 0; a < 3; a++) Jd[k][a] = det * Jinv[k][a];
  FEINT_UNROLL
  for (int r = 0; r < ns; r++)
    FEINT_UNROLL
    for (int s = r; s < ns; s++) {
      double T[3][3], S[3][3];
      FEINT_UNROLL
      for (int k = 0; k < 3; k++)
        FEINT_UNROLL
        for (int c = 0; c < 3; c++) {
          double t = -0.0;
          FEINT_UNROLL
          for (int l = 0; l < 3; l++) {
            const double w = rt_pair(et, 1 + k, 1 + l, r, s); /* R_rs[k][l] */
            if (w != 0.0) t += w * Jinv[l][c];
          }
          T[k][c] = t;
        }
      FEINT_UNROLL
      for (int a = 0; a < 3; a++)
        FEINT_UNROLL
        for (int c = 0; c < 3; c++)
          S[a][c] = Jd[0][a] * T[0][c] + Jd[1][a] * T[1][c] + Jd[2][a] * T[2][c];
      const double mtr = mu * (S[0][0] + S[1][1] + S[2][2]);
      FEINT_UNROLL
      for (int i = 0; i < 3; i++)
        FEINT_UNROLL
        for (int j = 0; j < 3; j++) {
          const double e =
              i == j ? lam * S[i][j] + (mu * S[j][i] + mtr) : lam * S[i][j] + mu * S[j][i];
          A[((3 * r + i) * nd + 3 * s + j) * out_stride] = e;
          A[((3 * s + j) * nd + 3 * r + i) * out_stride] = e;
        }
    }
  FEINT_UNROLL
  for (int r = 0; r < ns; r++)
    FEINT_UNROLL
    for (int i = 0; i < 3; i++) {
      double br = 0.0;
      FEINT_UNROLL
      for (int q = 0; q < nq; q++)
        br += det * feint_elem_qwt(et, q) * feint_elem_phi(et, q, r) *
              coef_in[(2 + 3 * q + i) * in_stride];
      b[(3 * r + i) * out_stride] = br;
    }
}

FEINT_INLINE void rt_element(const int et, const int pb, const double *geo, const double *coef_in,
                             const int in_stride, double *A, double *b, const int out_stride) {
  const int ns = feint_elem_nodes(et), nq = feint_elem_qpts(et);
  double x[FEINT_MAX_NODES][3], J[3][3], Jinv[3][3], G[3][3];
  feint_load_nodes(et, geo, in_stride, x);
  feint_jacobian(et, 0, x, J);
  const double det = feint_invert3(J, Jinv);
  if (pb == FEINT_CONVDIFF) {
    rt_convdiff(et, coef_in, in_stride, det, Jinv, A, b, out_stride);
    return;
  }
  if (pb == FEINT_ELASTICITY) {
    rt_elasticity(et, coef_in, in_stride, det, Jinv, A, b, out_stride);
    return;
  }
  FEINT_UNROLL
  for (int k = 0; k < 3; k++)
    FEINT_UNROLL
    for (int l = k; l < 3; l++)
      G[k][l] = det * (Jinv[k][0] * Jinv[l][0] + Jinv[k][1] * Jinv[l][1] + Jinv[k][2] * Jinv[l][2]);
  FEINT_UNROLL
  for (int i = 0; i < ns; i++)
    FEINT_UNROLL
    for (int j = i; j < ns; j++) {
      double a = -0.0;
      FEINT_UNROLL
      for (int k = 0; k < 3; k++)
        FEINT_UNROLL
        for (int l = k; l < 3; l++) {
          const double t = rt_tensor(et, k, l, i, j);
          if (t != 0.0) a += G[k][l] * t;
        }
      A[(i * ns + j) * out_stride] = a;
      A[(j * ns + i) * out_stride] = a;
    }
  double fq[FEINT_MAX_QPTS];
  FEINT_UNROLL
  for (int q = 0; q < nq; q++) fq[q] = det * feint_elem_qwt(et, q) * coef_in[q * in_stride];
  FEINT_UNROLL
  for (int r = 0; r < ns; r++) {
    double s = 0.0;
    FEINT_UNROLL
    for (int q = 0; q < nq; q++) s += fq[q] * feint_elem_phi(et, q, r);
    b[r * out_stride] = s;
  }
}

#define FEINT_VARIANT_NAME rt_geo_linear
#define FEINT_ELEMENT_FN rt_element
#include "kernel/driver.h"

#define RT_HOST feint_variant_rt_geo_linear_host
#define RT_PROBLEM_OK(pb) \
  ((pb) == FEINT_POISSON || (pb) == FEINT_CONVDIFF || (pb) == FEINT_ELASTICITY)
#define RT_PROBLEMS "poisson|convdiff|elasticity"
#endif

#define ROUNDS_MAX 64
static int cmp(const void *a, const void *b) {
  const double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}
static double median(const double *v, int n) {
  double s[ROUNDS_MAX];
  for (int i = 0; i < n; i++) s[i] = v[i];
  qsort(s, (size_t)n, sizeof *s, cmp);
  return n % 2 ? s[n / 2] : 0.5 * (s[n / 2 - 1] + s[n / 2]);
}
static double urand(void) { return (double)rand() / RAND_MAX - 0.5; }

int main(int argc, char **argv) {
  const int rounds = argc > 1 ? atoi(argv[1]) : 12;
  feint_element el = FEINT_HEX8;
  feint_problem pb = FEINT_POISSON;
  feint_variant base = FEINT_SQS_GEO_LINEAR;
  if (rounds < 3 || rounds > ROUNDS_MAX || (argc > 2 && feint_pm_element_parse(argv[2], &el)) ||
      (argc > 3 && feint_pm_problem_parse(argv[3], &pb)) ||
      (argc > 4 && feint_pm_variant_parse(argv[4], &base)) ||
      !RT_PROBLEM_OK(pb)) {
    fprintf(stderr,
            "usage: %s [rounds (3..%d) [element [" RT_PROBLEMS " [baseline]]]]\n",
            argv[0], ROUNDS_MAX);
    return 2;
  }
  size_t ng, nc, na, nb;
  feint_array_entries(el, pb, FEINT_ARRAY_GEOMETRY, &ng);
  feint_array_entries(el, pb, FEINT_ARRAY_COEFFS, &nc);
  feint_array_entries(el, pb, FEINT_ARRAY_A, &na);
  feint_array_entries(el, pb, FEINT_ARRAY_B, &nb);
  /* 4 Mi elements; 2^19 for elasticity (four A arrays of 2.4 GB on hex8) */
  const size_t n = (size_t)1 << (na > 64 ? 19 : 22);
  double *g[2], *c[2], *A[2][2], *bv[2][2]; /* [layout], [form][layout] */
  for (int l = 0; l < 2; l++) {
    g[l] = aligned_alloc(64, n * ng * 8), c[l] = aligned_alloc(64, n * nc * 8);
    for (int f = 0; f < 2; f++)
      A[f][l] = aligned_alloc(64, n * na * 8), bv[f][l] = aligned_alloc(64, n * nb * 8);
  }
  feint_element_info ei;
  feint_element_get_info(el, &ei);
  srand(1);
  for (size_t e = 0; e < n; e++) { /* x = x0 + M xi: a random affine element */
    double M[3][3], x0[3];
    for (int a = 0; a < 3; a++) {
      x0[a] = (double)(e % 101) + urand();
      for (int d = 0; d < 3; d++) M[a][d] = (a == d ? 0.5 : 0.0) + 0.15 * urand();
    }
    for (size_t v = 0; v < ng / 3; v++)
      for (int a = 0; a < 3; a++) {
        double s = x0[a];
        for (int d = 0; d < 3; d++) s += M[a][d] * ei.nodes[v][d];
        g[0][e * ng + 3 * v + a] = s;
      }
  }
  for (size_t i = 0; i < n * nc; i++) c[0][i] = 1.0 + 0.5 * urand();
  feint_layout_convert(n, ng, FEINT_LAYOUT_NATURAL, g[0], FEINT_LAYOUT_BLOCKED, g[1]);
  feint_layout_convert(n, nc, FEINT_LAYOUT_NATURAL, c[0], FEINT_LAYOUT_BLOCKED, c[1]);
  for (int l = 0; l < 2; l++)
    for (int f = 0; f < 2; f++) /* touch the outputs once */
      for (size_t i = 0; i < n * na; i++) A[f][l][i] = 0.0;

  const size_t tn = (size_t)1 << 24;
  double *ta = aligned_alloc(64, tn * 8), *tb = aligned_alloc(64, tn * 8),
         *tc = aligned_alloc(64, tn * 8);
  for (size_t i = 0; i < tn; i++) ta[i] = 0, tb[i] = 1, tc[i] = 2;
  feint_pm_counts pc;
  feint_pm_counts_get(el, pb, base, &pc);
  const double bytes = (double)pc.bytes_compulsory;

  double t[2][2][ROUNDS_MAX], pct[2][2][ROUNDS_MAX], gbs[ROUNDS_MAX];
  for (int r = 0; r < rounds; r++) {
    gbs[r] = feint_pm_gbs(feint_pm_triad_bytes(tn), feint_pm_time_triad(ta, tb, tc, tn));
    for (int l = 0; l < 2; l++)
      for (int f = 0; f < 2; f++) {
        const feint_layout lay = l ? FEINT_LAYOUT_BLOCKED : FEINT_LAYOUT_NATURAL;
        const double t0 = omp_get_wtime();
        if (f == 0) {
          const feint_integrate_desc d = {el, pb, base, lay,
                                          lay, FEINT_FLAG_TRUST_GEOMETRY, 0, 0};
          if (feint_integrate(&d, n, g[l], c[l], A[0][l], bv[0][l])) {
            fprintf(stderr, "%s\n", feint_last_error());
            return 1;
          }
        } else {
          const feint_kernel_args ka = {el, pb, lay, lay, n,
                                        g[l],       c[l],          A[1][l], bv[1][l]};
          RT_HOST(&ka);
        }
        t[f][l][r] = (omp_get_wtime() - t0) / (double)n * 1e9;
        pct[f][l][r] = 100.0 * (bytes / gbs[r]) / t[f][l][r];
      }
  }
  /* every entry against sqs_geo_linear, per element, both layouts */
  double worst = 0.0;
  for (int l = 0; l < 2; l++)
    for (size_t e = 0; e < n; e++) {
      const size_t blk = e / 8, lane = e % 8;
      double amax = 0.0, dmax = 0.0, bmax = 0.0, bd = 0.0;
      for (size_t k = 0; k < na; k++) {
        const size_t i = l ? (blk * na + k) * 8 + lane : e * na + k;
        amax = fmax(amax, fabs(A[0][l][i]));
        dmax = fmax(dmax, fabs(A[0][l][i] - A[1][l][i]));
      }
      for (size_t k = 0; k < nb; k++) {
        const size_t i = l ? (blk * nb + k) * 8 + lane : e * nb + k;
        bmax = fmax(bmax, fabs(bv[0][l][i]));
        bd = fmax(bd, fabs(bv[0][l][i] - bv[1][l][i]));
      }
      worst = fmax(worst, fmax(dmax / amax, bd / bmax) / DBL_EPSILON);
    }
  printf("%s %s, %zu affine elements, %d threads, %d rounds (first dropped); "
         "bytes %.0f per element\n", feint_element_name(el), feint_pm_problem_name(pb), n,
         omp_get_max_threads(), rounds, bytes);
  double gmin = gbs[1];
  for (int r = 2; r < rounds; r++) gmin = fmin(gmin, gbs[r]);
  printf("triad GB/s min %.1f median %.1f\n", gmin, median(gbs + 1, rounds - 1));
  const char *fn[2] = {feint_pm_variant_name(base), "reference tensor"};
  static const char *ln[2] = {"natural", "blocked"};
  for (int f = 0; f < 2; f++)
    for (int l = 0; l < 2; l++) {
      double mn = t[f][l][1], pmax = pct[f][l][1];
      for (int r = 2; r < rounds; r++) mn = fmin(mn, t[f][l][r]), pmax = fmax(pmax, pct[f][l][r]);
      printf("%-17s %-8s ns min %7.2f median %7.2f   %% of memory bound max %5.1f median %5.1f\n",
             fn[f], ln[l], mn, median(t[f][l] + 1, rounds - 1), pmax,
             median(pct[f][l] + 1, rounds - 1));
    }
  printf("max |tensor - %s| / max |entry| of an element: %.1f eps (limit 64) %s\n", fn[0],
         worst, worst <= 64 ? "PASS" : "FAIL");
  return worst <= 64 ? 0 : 1;
}
