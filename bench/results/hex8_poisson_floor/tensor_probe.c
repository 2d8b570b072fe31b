/* tensor_probe.c - hex8 Poisson on affine hexahedra in the tensor form
 * (FFC's "tensor representation"): with J constant over the element,
 *   A_rs = sum_q w_q det (Jinv^T dphi_r(q)) . (Jinv^T dphi_s(q))
 *        = sum_ab G_ab K_rs^ab,  G = det Jinv Jinv^T (symmetric, 6 values),
 *   K_rs^ab = sum_q w_q dphi_r(q)[a] dphi_s(q)[b] (reference tensor, once).
 * b_r = det sum_q w_q f_q phi_r(q).  Blocked layout (8 lanes), the same
 * arrays feint_integrate reads and writes (geometry 24, f 8, A 64, b 8
 * doubles per hex); A and b leave with nontemporal stores.  Timed against a
 * triad of the same run, interleaved.  Not a feint kernel: a ceiling for the
 * lead in hex8_elasticity_limits/README.txt.
 * args: num_hex reps (OMP_NUM_THREADS threads) */
#include <math.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include "feint.h"
#define B 8
static double K[8][8][6]; /* K_rs^ab + K_rs^ba for a < b, K_rs^aa: with G_ab */
static double PHIW[8][8]; /* w_q phi_r(q) */
int main(int argc, char **argv) {
  const size_t n = argc > 1 ? (size_t)atol(argv[1]) : 4194304;
  const int reps = argc > 2 ? atoi(argv[2]) : 10;
  feint_element_info ei;
  feint_element_get_info(FEINT_HEX8, &ei);
  static const int pa[6] = {0, 1, 2, 0, 0, 1}, pb[6] = {0, 1, 2, 1, 2, 2};
  for (int r = 0; r < 8; r++)
    for (int s = 0; s < 8; s++)
      for (int k = 0; k < 6; k++) {
        double v = 0;
        for (int q = 0; q < 8; q++) {
          v += ei.qwts[q] * ei.dphi[q][r][pa[k]] * ei.dphi[q][s][pb[k]];
          if (k >= 3) v += ei.qwts[q] * ei.dphi[q][r][pb[k]] * ei.dphi[q][s][pa[k]];
        }
        K[r][s][k] = v;
      }
  for (int q = 0; q < 8; q++)
    for (int r = 0; r < 8; r++) PHIW[q][r] = ei.qwts[q] * ei.phi[q][r];
  const size_t nb = (n + B - 1) / B;
  double *g = aligned_alloc(64, nb * 24 * B * 8), *f = aligned_alloc(64, nb * 8 * B * 8);
  double *A = aligned_alloc(64, nb * 64 * B * 8), *b = aligned_alloc(64, nb * 8 * B * 8);
  static const double ref[8][3] = {{0,0,0},{1,0,0},{1,1,0},{0,1,0},{0,0,1},{1,0,1},{1,1,1},{0,1,1}};
#pragma omp parallel for schedule(static)
  for (size_t blk = 0; blk < nb; blk++)
    for (int l = 0; l < B; l++) {
      size_t e = blk * B + l;
      double t[3][3], o[3] = {(double)(e % 1000), (double)(e / 1000 % 1000), (double)(e / 1000000)};
      for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) t[i][j] = (i == j) + 0.1 * sin(1.0 + e * 0.37 + 3 * i + j);
      for (int v = 0; v < 8; v++)
        for (int i = 0; i < 3; i++) {
          double x = o[i];
          for (int j = 0; j < 3; j++) x += t[i][j] * ref[v][j];
          g[blk * 24 * B + (3 * v + i) * B + l] = x;
        }
      for (int q = 0; q < 8; q++) f[blk * 8 * B + q * B + l] = 1.0 + 0.01 * q;
    }
  const size_t tn = 1 << 25;
  double *ta = aligned_alloc(64, tn * 8), *tb = aligned_alloc(64, tn * 8), *tc = aligned_alloc(64, tn * 8);
#pragma omp parallel for schedule(static)
  for (size_t i = 0; i < tn; i++) ta[i] = 0, tb[i] = 1, tc[i] = 2;
  double best = 1e30, bestt = 1e30, sum = 0;
  for (int rep = 0; rep < reps; rep++) {
    double t0 = omp_get_wtime();
#pragma omp parallel for schedule(static)
    for (size_t i = 0; i < tn; i++) ta[i] = tb[i] + 3.0 * tc[i];
    double tt = omp_get_wtime() - t0;
    if (tt < bestt) bestt = tt;
    t0 = omp_get_wtime();
#pragma omp parallel for schedule(static)
    for (size_t blk = 0; blk < nb; blk++) {
      const double *gb = g + blk * 24 * B, *fb = f + blk * 8 * B;
      double *Ab = A + blk * 64 * B, *bb = b + blk * 8 * B;
#pragma omp simd nontemporal(Ab, bb)
      for (int l = 0; l < B; l++) {
        double J[3][3];
        _Pragma("unroll") for (int i = 0; i < 3; i++) {
          /* reference hex [-1, 1]^3: J = (x1 - x0, x3 - x0, x4 - x0) / 2 */
          J[i][0] = 0.5 * (gb[(3 + i) * B + l] - gb[i * B + l]);
          J[i][1] = 0.5 * (gb[(9 + i) * B + l] - gb[i * B + l]);
          J[i][2] = 0.5 * (gb[(12 + i) * B + l] - gb[i * B + l]);
        }
        double C[3][3];
        C[0][0] = J[1][1] * J[2][2] - J[1][2] * J[2][1];
        C[0][1] = J[1][2] * J[2][0] - J[1][0] * J[2][2];
        C[0][2] = J[1][0] * J[2][1] - J[1][1] * J[2][0];
        C[1][0] = J[0][2] * J[2][1] - J[0][1] * J[2][2];
        C[1][1] = J[0][0] * J[2][2] - J[0][2] * J[2][0];
        C[1][2] = J[0][1] * J[2][0] - J[0][0] * J[2][1];
        C[2][0] = J[0][1] * J[1][2] - J[0][2] * J[1][1];
        C[2][1] = J[0][2] * J[1][0] - J[0][0] * J[1][2];
        C[2][2] = J[0][0] * J[1][1] - J[0][1] * J[1][0];
        const double det = J[0][0] * C[0][0] + J[0][1] * C[0][1] + J[0][2] * C[0][2];
        const double id = 1.0 / det; /* Jinv = C^T / det; G = det Jinv Jinv^T = C^T C / det */
        double G[6];
        _Pragma("unroll") for (int k = 0; k < 6; k++)
          G[k] = id * (C[0][pa[k]] * C[0][pb[k]] + C[1][pa[k]] * C[1][pb[k]] + C[2][pa[k]] * C[2][pb[k]]);
        _Pragma("unroll") for (int r = 0; r < 8; r++)
          _Pragma("unroll") for (int s = 0; s < 8; s++) {
            double a = 0;
            _Pragma("unroll") for (int k = 0; k < 6; k++) a += G[k] * K[r][s][k];
            Ab[(8 * r + s) * B + l] = a;
          }
        _Pragma("unroll") for (int r = 0; r < 8; r++) {
          double v = 0;
          _Pragma("unroll") for (int q = 0; q < 8; q++) v += PHIW[q][r] * fb[q * B + l];
          bb[r * B + l] = det * v;
        }
      }
    }
    double tk = omp_get_wtime() - t0;
    if (tk < best) best = tk;
    sum += A[17] + b[3];
  }
  { /* the same elements through feint (qss_geo_linear, blocked): largest difference */
    const size_t m = 4096;
    double *A2 = aligned_alloc(64, m * 64 * 8), *b2 = aligned_alloc(64, m * 8 * 8), d = 0, mx = 0;
    feint_integrate_desc dd = {FEINT_HEX8, FEINT_POISSON, FEINT_QSS_GEO_LINEAR, FEINT_LAYOUT_BLOCKED,
                               FEINT_LAYOUT_BLOCKED, 0, FEINT_TARGET_HOST, 0};
    if (feint_integrate(&dd, m, g, f, A2, b2)) { printf("feint: %s\n", feint_last_error()); return 1; }
    for (size_t i = 0; i < m * 64; i++) d = fmax(d, fabs(A2[i] - A[i])), mx = fmax(mx, fabs(A2[i]));
    for (size_t i = 0; i < m * 8; i++) d = fmax(d, fabs(b2[i] - b[i]));
    printf("check: max |A_tensor - A_feint| = %.3g (max |A| %.3g, %.1f eps)\n", d, mx, d / mx / 2.220446049250313e-16);
  }
  const double bytes = 8.0 * (24 + 8 + 64 + 8), tri = 3.0 * 8 * tn / bestt;
  printf("%d threads, %zu hexes: tensor form %.2f ns per hex (min of %d); triad %.1f GB/s -> "
         "bound %.2f ns (%.0f%%)  [%g]\n", omp_get_max_threads(), n, best / n * 1e9, reps,
         tri / 1e9, bytes / tri * 1e9, 100 * bytes / tri / (best / n), sum);
  return 0;
}
