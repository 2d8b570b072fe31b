/* Probe (issue 8): hex8 elasticity_qp with explicit 8-lane vectors (clang's
 * ext_vector_type), QSS order, the quadrature loop rolled, A^e accumulated in
 * an L1 buffer and streamed out; timed against the library (feint_integrate,
 * blocked, trusted; VAR=<variant number>, default qss_geo_generic) on the same
 * 8-aligned perturbed hexes, and the results compared (maxdiff).
 * Knobs: -DREFORM (lambda vol g_r and mu vol g_r multiplied first),
 * -DRUNR='_Pragma("nounroll")' (roll the r loop), -DQUNR=... (the q loop);
 * NOSTORE=1 in the environment writes every block to one buffer.
 * Build: clang-19 -O3 -march=native -fopenmp -Iinclude vec_probe.c
 *        build/lib/libfeint.a -lm;  run: OMP_NUM_THREADS=1 ./a.out 65536 5
 * Coefficients are constant over the points of an element (k % 5), so a
 * build with sform_probe.diff (per-element lambda, mu only) also matches. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>
#include <omp.h>
#include "feint.h"
typedef double v8 __attribute__((ext_vector_type(8)));
#define G 0.57735026918962576451
static double dphi[8][8][3], phi[8][8];
#define NS 8
#define ND 24
#ifndef UNR
#define UNR _Pragma("unroll")
#endif
#ifndef RUNR
#define RUNR _Pragma("unroll")
#endif
#ifndef QUNR
#define QUNR _Pragma("nounroll")
#endif
static inline __attribute__((always_inline)) void elem(const double *geo, const double *coef, double *A, double *b) {
  v8 x[NS][3];
  for (int n = 0; n < NS; n++) for (int a = 0; a < 3; a++) x[n][a] = *(const v8 *)(geo + (3 * n + a) * 8);
  v8 Ae[ND * ND] __attribute__((aligned(64))), be[ND];
  UNR for (int i = 0; i < ND * ND; i++) Ae[i] = 0;
  UNR for (int i = 0; i < ND; i++) be[i] = 0;
  QUNR for (int q = 0; q < 8; q++) {
    v8 J[3][3];
    UNR for (int a = 0; a < 3; a++) UNR for (int c = 0; c < 3; c++) {
      v8 s = 0; UNR for (int n = 0; n < NS; n++) s += x[n][a] * dphi[q][n][c]; J[a][c] = s; }
    v8 c00 = J[1][1] * J[2][2] - J[1][2] * J[2][1], c01 = J[1][2] * J[2][0] - J[1][0] * J[2][2],
       c02 = J[1][0] * J[2][1] - J[1][1] * J[2][0], c10 = J[0][2] * J[2][1] - J[0][1] * J[2][2],
       c11 = J[0][0] * J[2][2] - J[0][2] * J[2][0], c12 = J[0][1] * J[2][0] - J[0][0] * J[2][1],
       c20 = J[0][1] * J[1][2] - J[0][2] * J[1][1], c21 = J[0][2] * J[1][0] - J[0][0] * J[1][2],
       c22 = J[0][0] * J[1][1] - J[0][1] * J[1][0];
    v8 det = J[0][0] * c00 + J[0][1] * c01 + J[0][2] * c02, inv = 1.0 / det;
    v8 Ji[3][3] = {{c00 * inv, c10 * inv, c20 * inv}, {c01 * inv, c11 * inv, c21 * inv}, {c02 * inv, c12 * inv, c22 * inv}};
    v8 vol = det; /* weight 1 */
    v8 psi[NS][4];
    UNR for (int n = 0; n < NS; n++) {
      psi[n][0] = phi[q][n];
      UNR for (int a = 0; a < 3; a++) { v8 s = 0; UNR for (int c = 0; c < 3; c++) s += Ji[c][a] * dphi[q][n][c]; psi[n][1 + a] = s; }
    }
    const v8 lv = *(const v8 *)(coef + (5 * q) * 8) * vol, mv = *(const v8 *)(coef + (5 * q + 1) * 8) * vol;
    RUNR for (int r = 0; r < NS; r++) {
      UNR for (int s = 0; s < NS; s++) {
        v8 gg = psi[r][1] * psi[s][1] + psi[r][2] * psi[s][2] + psi[r][3] * psi[s][3];
        v8 mgg = mv * gg;
#ifdef REFORM
        mgg = (mv * psi[r][1]) * psi[s][1] + ((mv * psi[r][2]) * psi[s][2] + (mv * psi[r][3]) * psi[s][3]);
#endif
        UNR for (int i = 0; i < 3; i++) UNR for (int j = 0; j < 3; j++) {
          v8 *a = &Ae[(3 * r + i) * ND + 3 * s + j];
          v8 t = i == j ? *a + mgg : *a;
#ifdef REFORM
          *a = (lv * psi[r][1 + i]) * psi[s][1 + j] + ((mv * psi[r][1 + j]) * psi[s][1 + i] + t);
#else
          v8 P = psi[r][1 + i] * psi[s][1 + j], Q = psi[r][1 + j] * psi[s][1 + i];
          *a = lv * P + (mv * Q + t);
#endif
        }
      }
      UNR for (int i = 0; i < 3; i++) be[3 * r + i] += vol * (*(const v8 *)(coef + (5 * q + 2 + i) * 8) * psi[r][0]);
    }
  }
  for (int i = 0; i < ND * ND; i++) __builtin_nontemporal_store(Ae[i], (v8 *)A + i);
  for (int i = 0; i < ND; i++) __builtin_nontemporal_store(be[i], (v8 *)b + i);
}
int main(int argc, char **argv) {
  size_t n = (size_t)atol(argv[1]); int reps = atoi(argv[2]);
  for (int q = 0; q < 8; q++) for (int m = 0; m < 8; m++) {
    double gx = (q & 1) ? G : -G, gy = (q >> 1 & 1) ? G : -G, gz = (q >> 2) ? G : -G;
    double sx = ((m & 3) == 1 || (m & 3) == 2) ? 1 : -1, sy = ((m & 3) >= 2) ? 1 : -1, sz = m >= 4 ? 1 : -1;
    double fx = .5 * (1 + sx * gx), fy = .5 * (1 + sy * gy), fz = .5 * (1 + sz * gz);
    phi[q][m] = fx * fy * fz; dphi[q][m][0] = .5 * sx * fy * fz; dphi[q][m][1] = .5 * sy * fx * fz; dphi[q][m][2] = .5 * sz * fx * fy;
  }
  static const double ref[8][3] = {{0,0,0},{1,0,0},{1,1,0},{0,1,0},{0,0,1},{1,0,1},{1,1,1},{0,1,1}};
  n = (n + 7) / 8 * 8;
  size_t nb = n / 8;
  double *g = aligned_alloc(64, n * 24 * 8), *A = aligned_alloc(64, n * 576 * 8), *b = aligned_alloc(64, n * 24 * 8);
  double *A2 = aligned_alloc(64, n * 576 * 8), *b2 = aligned_alloc(64, n * 24 * 8);
  double *cx = aligned_alloc(64, n * 40 * 8);
  srand(1);
  for (size_t e = 0; e < n; e++) {
    double s = 1 + 0.1 * rand() / RAND_MAX;
    for (int v = 0; v < 8; v++) for (int a = 0; a < 3; a++) g[(e / 8) * 8 * 24 + (v * 3 + a) * 8 + e % 8] = s * ref[v][a] + 0.02 * rand() / RAND_MAX;
    for (int k = 0; k < 40; k++) cx[(e / 8) * 320 + k * 8 + e % 8] = 1.0 + 1e-3 * ((e + k % 5) % 7);
  }
  memset(A, 0, n * 576 * 8); memset(A2, 0, n * 576 * 8);
  feint_integrate_desc d = {0};
  d.element = FEINT_HEX8; d.problem = FEINT_ELASTICITY_QP; d.variant = getenv("VAR") ? atoi(getenv("VAR")) : FEINT_QSS_GEO_GENERIC;
  d.layout_in = d.layout_out = FEINT_LAYOUT_BLOCKED; d.flags = FEINT_FLAG_TRUST_GEOMETRY;
  for (int round = 0; round < 2; round++) {
    double bl = 1e30, bv = 1e30;
    for (int r = 0; r < reps; r++) {
      double t0 = omp_get_wtime();
      int st = feint_integrate(&d, n, g, cx, A2, b2);
      double t = omp_get_wtime() - t0; if (st) { printf("st %d %s\n", st, feint_last_error()); return 1; }
      if (t < bl) bl = t;
      t0 = omp_get_wtime();
#pragma omp parallel for schedule(static)
      for (size_t k = 0; k < nb; k++) elem(g + k * 192, cx + k * 320, A + (getenv("NOSTORE") ? omp_get_thread_num() * 4608 : k * 4608), b + k * 192);
      t = omp_get_wtime() - t0; if (t < bv) bv = t;
    }
    double md = 0, mx = 0;
    for (size_t i = 0; i < n * 576; i++) { double dd = fabs(A[i] - A2[i]); if (dd > md) md = dd; if (fabs(A2[i]) > mx) mx = fabs(A2[i]); }
    for (size_t i = 0; i < n * 24; i++) { double dd = fabs(b[i] - b2[i]); if (dd > md) md = dd; }
    printf("lib %.1f ns/hex  vec %.1f ns/hex  maxdiff %.3g (max %.3g)\n", bl / n * 1e9, bv / n * 1e9, md, mx);
  }
  return 0;
}
