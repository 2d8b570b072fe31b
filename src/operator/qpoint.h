/*
 * operator/qpoint.h - the per-quadrature-point form of the matrix-free
 * operator (FEINT_OPERATOR_QPOINT, seed 003): the geometric factors
 *   G_q = w_q det J_q J_q^-1 J_q^-T        (symmetric 3 x 3, 6 doubles)
 * of every quadrature point computed once at create and streamed at every
 * application, which is then, per cell,
 *   reference gradients of x_e at the points -> times G_q -> tested with the
 *   reference gradients of the shape functions,
 * y_e(r) = sum_q dphi_r(q)^T G_q sum_s dphi_s(q) x_e(s): the Poisson element
 * matrix applied without forming it (the variants' A^e_rs = sum_q w_q det J
 * (J^-T dphi_r) . (J^-T dphi_s), kernel/geometry.h's feint_shape_psi).
 *
 * Cases: Poisson on tet4 (J constant: one G per cell, the weights summed)
 * and hex8 (8 points, 48 doubles per cell; a block of 8 affine cells -
 * parallelepipeds, J the same at every point - stores one G per cell, 6
 * doubles, as deal.II's MatrixFree compresses affine cells).  Hex8 uses the tensor-product
 * structure of the Q1 basis on the 2 x 2 x 2 Gauss rule (sum
 * factorisation): node n = (a, b, c) in {0,1}^3 (x, y, z; elem.h's Gmsh
 * order), point q = (i, j, k), phi_n(q) = S[i][a] S[j][b] S[k][c] with the
 * 1-D values S[i][a] = (1 + s_a g_i) / 2 and derivatives D[a] = s_a / 2
 * (s_a = -1, +1; g_i = -+1/sqrt 3): the gradients at all 8 points are three
 * sweeps of 2 x 2 1-D products (one per direction) instead of a dense
 * 24 x 8 matrix, and the transpose is the same sweeps backwards.
 * Flops per cell (counted from the code below; perfmodel/operator.c):
 * tet4 3 (gradient: x_{d+1} - x_0, the table's zeros and ones fold) + 15
 * (factor) + 2 (test) = 20; hex8 forward x 32, y 56, z + factor 176, back
 * z 56, y 64, x 40 = 424 (dense 24 x 8 gradients would take 384 + 384 +
 * 120).
 *
 * The cell function is stride-generic: the host runs it lane-parallel on a
 * block of FEINT_BLOCK_LEN cells (lanes = cells, omp simd, every array
 * [entry][lane]); a device thread runs it on one cell (stride 1 for the
 * dofs, FEINT_BLOCK_LEN for the factors, which are blocked by slot).
 */
#ifndef FEINT_OPERATOR_QPOINT_H
#define FEINT_OPERATOR_QPOINT_H

#include "kernel/elem.h"
#include "kernel/geometry.h"

FEINT_DECLARE_TARGET_BEGIN

/* Factor doubles per cell. */
FEINT_INLINE int feint_qp_entries(const int et) { return et == FEINT_TET4 ? 6 : 48; }

/* v = G g, G the symmetric (00, 01, 02, 11, 12, 22) at G[k * gs]. */
FEINT_INLINE void feint_qp_factor(const double *G, const int gs, const double g[3], double v[3]) {
  const double g00 = G[0], g01 = G[gs], g02 = G[2 * gs], g11 = G[3 * gs], g12 = G[4 * gs],
               g22 = G[5 * gs];
  v[0] = g00 * g[0] + g01 * g[1] + g02 * g[2];
  v[1] = g01 * g[0] + g11 * g[1] + g12 * g[2];
  v[2] = g02 * g[0] + g12 * g[1] + g22 * g[2];
}

/* Hex8 node of the 1-D indices (a, b, c) (elem.h: Gmsh/VTK order). */
#define FEINT_QP_HEX_NODE(a, b, c) (4 * (c) + ((b) ? 3 - (a) : (a)))
/* 1-D Q1 value of node index a at Gauss point i on [-1, 1]. */
#define FEINT_QP_S(i, a) FEINT_HEX_F((a) ? 1.0 : -1.0, FEINT_HEX_G(i))

/* y_e = A^e x_e of one cell from its factors G (entry k of point q at
 * G[(6 q + k) gs]; one_g: one G for every point, G_q = G, an affine hex8
 * whose weights are all equal, and tet4 always), x_e at xe[n * xs], y_e to
 * ye[n * ys] (overwritten).  et and one_g literal. */
FEINT_INLINE void feint_qp_cell(const int et, const int one_g, const double *G, const int gs,
                                const double *xe, const int xs, double *ye, const int ys) {
  if (et == FEINT_TET4) { /* P1: constant reference gradients, one point */
    double g[3], v[3];
    FEINT_UNROLL
    for (int d = 0; d < 3; d++) {
      double s = -0.0; /* the table's zeros and ones fold (feint_times_table) */
      FEINT_UNROLL
      for (int n = 0; n < 4; n++) s += feint_times_table(xe[n * xs], feint_elem_dphi(FEINT_TET4, 0, n, d));
      g[d] = s;
    }
    feint_qp_factor(G, gs, g, v);
    FEINT_UNROLL
    for (int n = 0; n < 4; n++) {
      double s = -0.0;
      FEINT_UNROLL
      for (int d = 0; d < 3; d++) s += feint_times_table(v[d], feint_elem_dphi(FEINT_TET4, 0, n, d));
      ye[n * ys] = s;
    }
    return;
  }
  /* hex8, sum factorisation: u[c][b][a] */
  double u[2][2][2], us[2][2][2], ud[2][2][2];
  FEINT_UNROLL
  for (int c = 0; c < 2; c++)
    FEINT_UNROLL
    for (int b = 0; b < 2; b++)
      FEINT_UNROLL
      for (int a = 0; a < 2; a++) u[c][b][a] = xe[FEINT_QP_HEX_NODE(a, b, c) * xs];
  /* x: values at the 2 points and the (constant) derivative, [c][b][i] */
  FEINT_UNROLL
  for (int c = 0; c < 2; c++)
    FEINT_UNROLL
    for (int b = 0; b < 2; b++) {
      FEINT_UNROLL
      for (int i = 0; i < 2; i++)
        us[c][b][i] = FEINT_QP_S(i, 0) * u[c][b][0] + FEINT_QP_S(i, 1) * u[c][b][1];
      const double d = 0.5 * (u[c][b][1] - u[c][b][0]);
      ud[c][b][0] = d, ud[c][b][1] = d;
    }
  /* y: [c][j][i] of (d/dx: S_y ud), (d/dy: D_y us), (d/dz later: S_y us) */
  double uds[2][2][2], usd[2][2][2], uss[2][2][2];
  FEINT_UNROLL
  for (int c = 0; c < 2; c++)
    FEINT_UNROLL
    for (int i = 0; i < 2; i++) {
      const double dy = 0.5 * (us[c][1][i] - us[c][0][i]);
      FEINT_UNROLL
      for (int j = 0; j < 2; j++) {
        uds[c][j][i] = FEINT_QP_S(j, 0) * ud[c][0][i] + FEINT_QP_S(j, 1) * ud[c][1][i];
        uss[c][j][i] = FEINT_QP_S(j, 0) * us[c][0][i] + FEINT_QP_S(j, 1) * us[c][1][i];
        usd[c][j][i] = dy;
      }
    }
  /* z, and the factor at every point q = i + 2 j + 4 k: v[d][k][j][i] */
  double v[3][2][2][2];
  FEINT_UNROLL
  for (int j = 0; j < 2; j++)
    FEINT_UNROLL
    for (int i = 0; i < 2; i++) {
      const double dz = 0.5 * (uss[1][j][i] - uss[0][j][i]);
      FEINT_UNROLL
      for (int k = 0; k < 2; k++) {
        double g[3], w[3];
        g[0] = FEINT_QP_S(k, 0) * uds[0][j][i] + FEINT_QP_S(k, 1) * uds[1][j][i];
        g[1] = FEINT_QP_S(k, 0) * usd[0][j][i] + FEINT_QP_S(k, 1) * usd[1][j][i];
        g[2] = dz;
        feint_qp_factor(one_g ? G : G + 6 * (i + 2 * j + 4 * k) * gs, gs, g, w);
        v[0][k][j][i] = w[0], v[1][k][j][i] = w[1], v[2][k][j][i] = w[2];
      }
    }
  /* back along z: [c][j][i] */
  double wds[2][2][2], wsd[2][2][2], wss[2][2][2];
  FEINT_UNROLL
  for (int j = 0; j < 2; j++)
    FEINT_UNROLL
    for (int i = 0; i < 2; i++) {
      const double tz = 0.5 * (v[2][0][j][i] + v[2][1][j][i]);
      FEINT_UNROLL
      for (int c = 0; c < 2; c++) {
        wds[c][j][i] = FEINT_QP_S(0, c) * v[0][0][j][i] + FEINT_QP_S(1, c) * v[0][1][j][i];
        wsd[c][j][i] = FEINT_QP_S(0, c) * v[1][0][j][i] + FEINT_QP_S(1, c) * v[1][1][j][i];
        wss[c][j][i] = c ? tz : -tz;
      }
    }
  /* back along y: [c][b][i] */
  double wd[2][2][2], ws[2][2][2];
  FEINT_UNROLL
  for (int c = 0; c < 2; c++)
    FEINT_UNROLL
    for (int i = 0; i < 2; i++) {
      const double ty = 0.5 * (wsd[c][0][i] + wsd[c][1][i]);
      FEINT_UNROLL
      for (int b = 0; b < 2; b++) {
        wd[c][b][i] = FEINT_QP_S(0, b) * wds[c][0][i] + FEINT_QP_S(1, b) * wds[c][1][i];
        ws[c][b][i] = FEINT_QP_S(0, b) * wss[c][0][i] + FEINT_QP_S(1, b) * wss[c][1][i] +
                      (b ? ty : -ty);
      }
    }
  /* back along x */
  FEINT_UNROLL
  for (int c = 0; c < 2; c++)
    FEINT_UNROLL
    for (int b = 0; b < 2; b++) {
      const double tx = 0.5 * (wd[c][b][0] + wd[c][b][1]);
      FEINT_UNROLL
      for (int a = 0; a < 2; a++)
        ye[FEINT_QP_HEX_NODE(a, b, c) * ys] =
            FEINT_QP_S(0, a) * ws[c][b][0] + FEINT_QP_S(1, a) * ws[c][b][1] + (a ? tx : -tx);
    }
}

FEINT_DECLARE_TARGET_END

#endif /* FEINT_OPERATOR_QPOINT_H */
