/*
 * kernel/elem.h - reference elements and quadratures, tabulated once.
 *
 * The one home of the shape functions, their reference derivatives and the
 * quadrature rules of every element feint supports.  Included by every
 * variant (inside `omp declare target`, so the tables exist on the device)
 * and by element.c, which exposes them through feint_element_get_info().
 *
 * All tables are padded to FEINT_MAX_QPTS x FEINT_MAX_NODES so one accessor
 * serves every element; with the element a compile-time constant the
 * accessors fold to literals and the padding is never touched.
 */
#ifndef FEINT_KERNEL_ELEM_H
#define FEINT_KERNEL_ELEM_H

#include "feint.h"
#include "kernel/portable.h"

FEINT_DECLARE_TARGET_BEGIN

/* ---- P1 tetrahedron: phi_0 = 1-x-y-z, phi_1 = x, phi_2 = y, phi_3 = z.
 * 4-point degree-2 rule: barycentric (a,b,b,b) and its permutations,
 * a = (5+3 sqrt5)/20, b = (5-sqrt5)/20, weight 1/24 each; point q has
 * barycentric coordinate lambda_q = a. */
#define FEINT_TET_A 0.58541019662496845446
#define FEINT_TET_B 0.13819660112501051518
#define FEINT_TET_L(n, x, y, z) ((n) == 0 ? 1.0 - (x) - (y) - (z) : (n) == 1 ? (x) : (n) == 2 ? (y) : (z))
#define FEINT_TET_LD(n, d) ((n) == 0 ? -1.0 : (n) == (d) + 1 ? 1.0 : 0.0)
#define FEINT_TET_QC(q, d) ((q) == (d) + 1 ? FEINT_TET_A : FEINT_TET_B) /* coordinate d of point q */
#define FEINT_TET_QPT(q) {FEINT_TET_QC(q, 0), FEINT_TET_QC(q, 1), FEINT_TET_QC(q, 2)}
#define FEINT_TET_PHI(q, n) FEINT_TET_L(n, FEINT_TET_QC(q, 0), FEINT_TET_QC(q, 1), FEINT_TET_QC(q, 2))
#define FEINT_TET_DPHI(q, n) {FEINT_TET_LD(n, 0), FEINT_TET_LD(n, 1), FEINT_TET_LD(n, 2)}
#define FEINT_TET_ROW(M, q) {M(q, 0), M(q, 1), M(q, 2), M(q, 3)}

static const double feint_tet4_qpts[FEINT_MAX_QPTS][3] = {
    FEINT_TET_QPT(0), FEINT_TET_QPT(1), FEINT_TET_QPT(2), FEINT_TET_QPT(3)};
static const double feint_tet4_qwts[FEINT_MAX_QPTS] = {1.0 / 24, 1.0 / 24, 1.0 / 24, 1.0 / 24};
static const double feint_tet4_phi[FEINT_MAX_QPTS][FEINT_MAX_NODES] = {
    FEINT_TET_ROW(FEINT_TET_PHI, 0), FEINT_TET_ROW(FEINT_TET_PHI, 1),
    FEINT_TET_ROW(FEINT_TET_PHI, 2), FEINT_TET_ROW(FEINT_TET_PHI, 3)};
static const double feint_tet4_dphi[FEINT_MAX_QPTS][FEINT_MAX_NODES][3] = {
    FEINT_TET_ROW(FEINT_TET_DPHI, 0), FEINT_TET_ROW(FEINT_TET_DPHI, 1),
    FEINT_TET_ROW(FEINT_TET_DPHI, 2), FEINT_TET_ROW(FEINT_TET_DPHI, 3)};
static const double feint_tet4_nodes[FEINT_MAX_NODES][3] = {
    {0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0, 0, 1}};

/* ---- Linear prism: triangle (0,0) (1,0) (0,1) x segment z in [-1,1].
 * Node n = i + 3k: triangle vertex i, level k (k=0: z=-1, k=1: z=+1);
 * phi_n = L_i(x,y) H_k(z), L_0 = 1-x-y, L_1 = x, L_2 = y,
 * H_0 = (1-z)/2, H_1 = (1+z)/2.
 * Quadrature point q = t + 3m: triangle point t of the 3-point degree-2
 * rule (1/6,1/6) (2/3,1/6) (1/6,2/3), weights 1/6, times Gauss point m of
 * the 2-point rule z = -+1/sqrt3, weights 1.  Degree 2 in (x,y), 3 in z. */
#define FEINT_PR_G 0.57735026918962576451 /* 1/sqrt(3) */
#define FEINT_PR_TX(t) ((t) == 1 ? 2.0 / 3.0 : 1.0 / 6.0)
#define FEINT_PR_TY(t) ((t) == 2 ? 2.0 / 3.0 : 1.0 / 6.0)
#define FEINT_PR_Z(m) ((m) == 0 ? -FEINT_PR_G : FEINT_PR_G)
#define FEINT_PR_L(i, x, y) ((i) == 0 ? 1.0 - (x) - (y) : (i) == 1 ? (x) : (y))
#define FEINT_PR_LX(i) ((i) == 0 ? -1.0 : (i) == 1 ? 1.0 : 0.0)
#define FEINT_PR_LY(i) ((i) == 0 ? -1.0 : (i) == 1 ? 0.0 : 1.0)
#define FEINT_PR_H(k, z) ((k) == 0 ? 0.5 * (1.0 - (z)) : 0.5 * (1.0 + (z)))
#define FEINT_PR_HZ(k) ((k) == 0 ? -0.5 : 0.5)
#define FEINT_PR_PHI(q, n) \
  (FEINT_PR_L((n) % 3, FEINT_PR_TX((q) % 3), FEINT_PR_TY((q) % 3)) * FEINT_PR_H((n) / 3, FEINT_PR_Z((q) / 3)))
#define FEINT_PR_DPHI(q, n)                                               \
  {FEINT_PR_LX((n) % 3) * FEINT_PR_H((n) / 3, FEINT_PR_Z((q) / 3)),        \
   FEINT_PR_LY((n) % 3) * FEINT_PR_H((n) / 3, FEINT_PR_Z((q) / 3)),        \
   FEINT_PR_L((n) % 3, FEINT_PR_TX((q) % 3), FEINT_PR_TY((q) % 3)) * FEINT_PR_HZ((n) / 3)}
#define FEINT_PR_ROW(M, q) {M(q, 0), M(q, 1), M(q, 2), M(q, 3), M(q, 4), M(q, 5)}
#define FEINT_PR_QPT(q) {FEINT_PR_TX((q) % 3), FEINT_PR_TY((q) % 3), FEINT_PR_Z((q) / 3)}

static const double feint_prism6_qpts[FEINT_MAX_QPTS][3] = {
    FEINT_PR_QPT(0), FEINT_PR_QPT(1), FEINT_PR_QPT(2),
    FEINT_PR_QPT(3), FEINT_PR_QPT(4), FEINT_PR_QPT(5)};
static const double feint_prism6_qwts[FEINT_MAX_QPTS] = {1.0 / 6, 1.0 / 6, 1.0 / 6,
                                                         1.0 / 6, 1.0 / 6, 1.0 / 6};
static const double feint_prism6_phi[FEINT_MAX_QPTS][FEINT_MAX_NODES] = {
    FEINT_PR_ROW(FEINT_PR_PHI, 0), FEINT_PR_ROW(FEINT_PR_PHI, 1), FEINT_PR_ROW(FEINT_PR_PHI, 2),
    FEINT_PR_ROW(FEINT_PR_PHI, 3), FEINT_PR_ROW(FEINT_PR_PHI, 4), FEINT_PR_ROW(FEINT_PR_PHI, 5)};
static const double feint_prism6_dphi[FEINT_MAX_QPTS][FEINT_MAX_NODES][3] = {
    FEINT_PR_ROW(FEINT_PR_DPHI, 0), FEINT_PR_ROW(FEINT_PR_DPHI, 1), FEINT_PR_ROW(FEINT_PR_DPHI, 2),
    FEINT_PR_ROW(FEINT_PR_DPHI, 3), FEINT_PR_ROW(FEINT_PR_DPHI, 4), FEINT_PR_ROW(FEINT_PR_DPHI, 5)};
static const double feint_prism6_nodes[FEINT_MAX_NODES][3] = {
    {0, 0, -1}, {1, 0, -1}, {0, 1, -1}, {0, 0, 1}, {1, 0, 1}, {0, 1, 1}};

/* ---- Trilinear hexahedron on [-1,1]^3, Gmsh/VTK node order: node n has
 * corner signs (sx, sy, sz) = bottom face (-,-) (+,-) (+,+) (-,+) for
 * n & 3 = 0..3, sz = - for n < 4, + for n >= 4;
 * phi_n = (1 + sx x)(1 + sy y)(1 + sz z) / 8.
 * 2x2x2 Gauss rule: point q = i + 2j + 4k at (g_i, g_j, g_k), g_0 = -1/sqrt3,
 * g_1 = +1/sqrt3, weight 1 each (degree 3 in each variable).  Every table
 * entry is nonzero: (1 +- g)/2 factors, no zeros or ones to fold. */
#define FEINT_HEX_SX(n) (((n) & 3) == 1 || ((n) & 3) == 2 ? 1.0 : -1.0)
#define FEINT_HEX_SY(n) (((n) & 3) >= 2 ? 1.0 : -1.0)
#define FEINT_HEX_SZ(n) ((n) >= 4 ? 1.0 : -1.0)
#define FEINT_HEX_G(i) ((i) == 0 ? -FEINT_PR_G : FEINT_PR_G)
#define FEINT_HEX_QX(q) FEINT_HEX_G((q) & 1)
#define FEINT_HEX_QY(q) FEINT_HEX_G(((q) >> 1) & 1)
#define FEINT_HEX_QZ(q) FEINT_HEX_G((q) >> 2)
#define FEINT_HEX_F(s, t) (0.5 * (1.0 + (s) * (t))) /* 1D factor (1 + s t) / 2 */
#define FEINT_HEX_PHI_AT(n, x, y, z) \
  (FEINT_HEX_F(FEINT_HEX_SX(n), x) * FEINT_HEX_F(FEINT_HEX_SY(n), y) * FEINT_HEX_F(FEINT_HEX_SZ(n), z))
#define FEINT_HEX_DPHI_AT(n, x, y, z)                                                    \
  {0.5 * FEINT_HEX_SX(n) * FEINT_HEX_F(FEINT_HEX_SY(n), y) * FEINT_HEX_F(FEINT_HEX_SZ(n), z), \
   0.5 * FEINT_HEX_SY(n) * FEINT_HEX_F(FEINT_HEX_SX(n), x) * FEINT_HEX_F(FEINT_HEX_SZ(n), z), \
   0.5 * FEINT_HEX_SZ(n) * FEINT_HEX_F(FEINT_HEX_SX(n), x) * FEINT_HEX_F(FEINT_HEX_SY(n), y)}
#define FEINT_HEX_PHI(q, n) FEINT_HEX_PHI_AT(n, FEINT_HEX_QX(q), FEINT_HEX_QY(q), FEINT_HEX_QZ(q))
#define FEINT_HEX_DPHI(q, n) FEINT_HEX_DPHI_AT(n, FEINT_HEX_QX(q), FEINT_HEX_QY(q), FEINT_HEX_QZ(q))
#define FEINT_HEX_ROW(M, q) {M(q, 0), M(q, 1), M(q, 2), M(q, 3), M(q, 4), M(q, 5), M(q, 6), M(q, 7)}
#define FEINT_HEX_QPT(q) {FEINT_HEX_QX(q), FEINT_HEX_QY(q), FEINT_HEX_QZ(q)}
#define FEINT_HEX_ROWS(M) \
  {FEINT_HEX_ROW(M, 0), FEINT_HEX_ROW(M, 1), FEINT_HEX_ROW(M, 2), FEINT_HEX_ROW(M, 3), \
   FEINT_HEX_ROW(M, 4), FEINT_HEX_ROW(M, 5), FEINT_HEX_ROW(M, 6), FEINT_HEX_ROW(M, 7)}

static const double feint_hex8_qpts[FEINT_MAX_QPTS][3] = {
    FEINT_HEX_QPT(0), FEINT_HEX_QPT(1), FEINT_HEX_QPT(2), FEINT_HEX_QPT(3),
    FEINT_HEX_QPT(4), FEINT_HEX_QPT(5), FEINT_HEX_QPT(6), FEINT_HEX_QPT(7)};
static const double feint_hex8_qwts[FEINT_MAX_QPTS] = {1, 1, 1, 1, 1, 1, 1, 1};
static const double feint_hex8_phi[FEINT_MAX_QPTS][FEINT_MAX_NODES] = FEINT_HEX_ROWS(FEINT_HEX_PHI);
static const double feint_hex8_dphi[FEINT_MAX_QPTS][FEINT_MAX_NODES][3] =
    FEINT_HEX_ROWS(FEINT_HEX_DPHI);
static const double feint_hex8_nodes[FEINT_MAX_NODES][3] = {
    {-1, -1, -1}, {1, -1, -1}, {1, 1, -1}, {-1, 1, -1},
    {-1, -1, 1},  {1, -1, 1},  {1, 1, 1},  {-1, 1, 1}};

/* ---- Accessors.  `et` is a feint_element; inside the kernels it is a
 * compile-time constant, so every call folds to a literal. */
FEINT_INLINE int feint_elem_nodes(int et) { return et == FEINT_TET4 ? 4 : et == FEINT_PRISM6 ? 6 : 8; }
FEINT_INLINE int feint_elem_qpts(int et) { return et == FEINT_TET4 ? 4 : et == FEINT_PRISM6 ? 6 : 8; }
FEINT_INLINE double feint_elem_qwt(int et, int q) {
  return et == FEINT_TET4 ? feint_tet4_qwts[q] : et == FEINT_PRISM6 ? feint_prism6_qwts[q] : feint_hex8_qwts[q];
}
FEINT_INLINE double feint_elem_phi(int et, int q, int n) {
  return et == FEINT_TET4 ? feint_tet4_phi[q][n] : et == FEINT_PRISM6 ? feint_prism6_phi[q][n] : feint_hex8_phi[q][n];
}
FEINT_INLINE double feint_elem_dphi(int et, int q, int n, int d) {
  return et == FEINT_TET4     ? feint_tet4_dphi[q][n][d]
         : et == FEINT_PRISM6 ? feint_prism6_dphi[q][n][d]
                              : feint_hex8_dphi[q][n][d];
}

/* Value and reference gradient of shape function n at an arbitrary point
 * xi of the reference element (the same formulas the tables come from). */
FEINT_INLINE void feint_elem_eval(int et, int n, const double xi[3], double *phi, double dphi[3]) {
  if (et == FEINT_TET4) {
    *phi = FEINT_TET_L(n, xi[0], xi[1], xi[2]);
    for (int d = 0; d < 3; d++) dphi[d] = FEINT_TET_LD(n, d);
  } else if (et == FEINT_PRISM6) {
    *phi = FEINT_PR_L(n % 3, xi[0], xi[1]) * FEINT_PR_H(n / 3, xi[2]);
    dphi[0] = FEINT_PR_LX(n % 3) * FEINT_PR_H(n / 3, xi[2]);
    dphi[1] = FEINT_PR_LY(n % 3) * FEINT_PR_H(n / 3, xi[2]);
    dphi[2] = FEINT_PR_L(n % 3, xi[0], xi[1]) * FEINT_PR_HZ(n / 3);
  } else {
    const double d[3] = FEINT_HEX_DPHI_AT(n, xi[0], xi[1], xi[2]);
    *phi = FEINT_HEX_PHI_AT(n, xi[0], xi[1], xi[2]);
    for (int a = 0; a < 3; a++) dphi[a] = d[a];
  }
}

FEINT_DECLARE_TARGET_END

#endif /* FEINT_KERNEL_ELEM_H */
