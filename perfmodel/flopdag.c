/* flopdag.c - executed flops of one element, counted on the expression DAG
 * of the kernel source (perfmodel/counts.c's `flops`).
 *
 * The kernel is fully unrolled straight-line code with constant reference
 * tables, so the compiler sees every value of an element as one expression
 * DAG and computes each distinct node once (common-subexpression
 * elimination), folding what the tables make trivial.  This file rebuilds
 * that DAG by evaluating the kernel's expressions symbolically, in the
 * source's own order and shape, and counts its nodes: a formula by stage
 * cannot see which products of a coordinate or of J^-1 with a table entry
 * recur (hexahedra: 8 nodes x 3 derivatives but only 6 distinct signed
 * entries per column at all 8 points; prisms alike), and overcounted
 * hexahedra and prisms by 20-28% (2026-12-02).
 *
 * Mirrored from src/kernel/geometry.h (feint_jacobian, feint_invert3,
 * feint_shape_psi, feint_times_table) and src/kernel/physics.h
 * (feint_update_block, feint_update_A, feint_update_b, feint_update_load,
 * feint_finish_block); which block form each loop order uses is the
 * variants' own choice (src/variant/<order>_geo_<treatment>.c); the
 * tensor form mirrors src/variant/tensor_geo_linear.c.  A change
 * to one of these expressions must be made here too: `make flop-census`
 * compares this count with the compiled kernels.
 *
 * The rules are those of clang -O3 under strict IEEE (no reassociation):
 *  - a node is (op, operands), operands of + and * unordered; identical
 *    nodes are one (GVN/CSE);
 *  - x * c for a table constant c is its own node: x * c and x * -c are
 *    two (the sign is not factored out); x * 1 = x, x * -1 = -x, and
 *    s + -0.0 = s fold (feint_times_table writes them so); x + (-y) is
 *    x - y, -x + y is y - x; negation is free;
 *  - the C expression a * b + c (or c + a * b, and a += b * c) is one fused
 *    multiply-add node (FP_CONTRACT on: clang fuses within an expression,
 *    the left product first), whose product is not shared with a separate
 *    a * b;
 *  - an accumulator starts at +0.0, and 0.0 + x does not fold (-0.0 would
 *    become +0.0), unless x cannot be -0.0 (a sum of squares: no_neg_zero);
 *  - only nodes an output (A^e, b^e) depends on count: + - * / 1 each, a
 *    fused multiply-add 2 (so the count does not depend on contraction).
 * The count is the arithmetic the element needs with every repeated
 * stage merged.  The compiled kernels execute exactly this for every QSS
 * variant and for Poisson and conv-diff in every loop order and in the
 * tensor form (tools/flop-census.sh).  The tensor form executes more for
 * the other problems (2026-12-05: poisson_kappa 1-4%, elasticity 3-9%,
 * elasticity_qp 20-42% more; not analysed).  SQS and SSQ execute more where they read
 * coefficients in place (poisson_kappa, elasticity, elasticity_qp): 12-52%
 * more for poisson_kappa, 12-97% for elasticity (2026-12-02).  Part is
 * aliasing: they store into A^e while coefficients are still read, and A^e
 * may alias them for all the compiler knows (restrict on A, b and the
 * coefficients takes tet4 poisson_kappa SSQ from 348 to 240 flops, DAG
 * 229).  The rest the compiler leaves unmerged across the unrolled r, s
 * loops (tet4 elasticity_qp SSQ 2784, with restrict 2752, DAG 1683).  So
 * for those variants the count is a lower bound of what they execute, as
 * a bound should be. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "pm_internal.h"

enum { OP_CONST, OP_INPUT, OP_NEG, OP_ADD, OP_SUB, OP_MUL, OP_DIV, OP_FMA };

typedef struct {
  int op, a, b, c; /* operand node ids (-1: none) */
  double k;        /* OP_CONST: the value; OP_INPUT: its tag */
} dag_node;

typedef struct {
  dag_node *node;
  int n, cap;
  int *hash; /* open addressing, node id + 1 (0: empty) */
  int hcap;
  int failed;
} dag;

static unsigned long long mix(unsigned long long h, unsigned long long v) {
  h ^= v + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2);
  return h;
}

static unsigned long long node_key(const dag_node *x) {
  unsigned long long bits;
  memcpy(&bits, &x->k, sizeof bits);
  unsigned long long h = mix((unsigned long long)x->op, bits);
  h = mix(h, (unsigned long long)(x->a + 1));
  h = mix(h, (unsigned long long)(x->b + 1));
  return mix(h, (unsigned long long)(x->c + 1));
}

static int node_eq(const dag_node *x, const dag_node *y) {
  return x->op == y->op && x->a == y->a && x->b == y->b && x->c == y->c &&
         memcmp(&x->k, &y->k, sizeof x->k) == 0;
}

static int grow(dag *g) {
  int ncap = g->cap ? 2 * g->cap : 4096, nh = 2 * ncap;
  dag_node *nn = realloc(g->node, (size_t)ncap * sizeof *nn);
  int *h = calloc((size_t)nh, sizeof *h);
  if (!nn || !h) {
    if (nn) g->node = nn;
    free(h);
    return 0;
  }
  g->node = nn;
  for (int i = 0; i < g->n; i++) {
    unsigned long long s = node_key(&g->node[i]) & (unsigned long long)(nh - 1);
    while (h[s]) s = (s + 1) & (unsigned long long)(nh - 1);
    h[s] = i + 1;
  }
  free(g->hash);
  g->hash = h;
  g->cap = ncap;
  g->hcap = nh;
  return 1;
}

/* The id of node x, created if new. */
static int intern(dag *g, dag_node x) {
  if (g->failed) return 0;
  if (g->n + 1 > g->cap && !grow(g)) {
    g->failed = 1;
    return 0;
  }
  unsigned long long s = node_key(&x) & (unsigned long long)(g->hcap - 1);
  while (g->hash[s]) {
    if (node_eq(&g->node[g->hash[s] - 1], &x)) return g->hash[s] - 1;
    s = (s + 1) & (unsigned long long)(g->hcap - 1);
  }
  g->node[g->n] = x;
  g->hash[s] = g->n + 1;
  return g->n++;
}

static int mk(dag *g, int op, int a, int b, int c, double k) {
  dag_node x = {op, a, b, c, k};
  return intern(g, x);
}
static int cnst(dag *g, double k) { return mk(g, OP_CONST, -1, -1, -1, k); }
static int input(dag *g, int tag) { return mk(g, OP_INPUT, -1, -1, -1, (double)tag); }
static int is_const(const dag *g, int x, double k) {
  return !g->failed && g->node[x].op == OP_CONST && memcmp(&g->node[x].k, &k, sizeof k) == 0;
}
static int is_neg(const dag *g, int x) { return !g->failed && g->node[x].op == OP_NEG; }
static int neg(dag *g, int x) {
  if (is_neg(g, x)) return g->node[x].a;
  return mk(g, OP_NEG, x, -1, -1, 0.0);
}
static void order2(int *a, int *b) {
  if (*a > *b) {
    int t = *a;
    *a = *b;
    *b = t;
  }
}
/* x is never -0.0, as clang's floating-point class analysis sees it (the
 * part the kernels meet): a square x * x, and a multiply-add of a square
 * onto such a value; +0.0 + x then folds to x (the only x for which it
 * does not equal x is -0.0).  With vol outside the sums this folds the
 * first point's addition into each diagonal entry of a Laplacian. */
static int no_neg_zero(const dag *g, int x) {
  if (g->failed) return 0;
  const dag_node *n = &g->node[x];
  if (n->op == OP_MUL) return n->a == n->b;
  if (n->op == OP_FMA) return n->a == n->b && no_neg_zero(g, n->c);
  return 0;
}
static int sub(dag *g, int x, int y);
static int add(dag *g, int x, int y) {
  const double mz = -0.0, pz = 0.0;
  if (is_const(g, y, mz)) return x;
  if (is_const(g, x, mz)) return y;
  if (is_const(g, y, pz) && no_neg_zero(g, x)) return x;
  if (is_const(g, x, pz) && no_neg_zero(g, y)) return y;
  if (is_neg(g, y)) return sub(g, x, g->node[y].a);
  if (is_neg(g, x)) return sub(g, y, g->node[x].a);
  order2(&x, &y);
  return mk(g, OP_ADD, x, y, -1, 0.0);
}
static int sub(dag *g, int x, int y) {
  if (is_neg(g, y)) return add(g, x, g->node[y].a);
  return mk(g, OP_SUB, x, y, -1, 0.0);
}
static int mul(dag *g, int x, int y) {
  if (is_const(g, y, 1.0)) return x; /* hex8's weights are 1 */
  if (is_const(g, x, 1.0)) return y;
  if (is_const(g, y, -1.0)) return neg(g, x);
  if (is_const(g, x, -1.0)) return neg(g, y);
  order2(&x, &y);
  return mk(g, OP_MUL, x, y, -1, 0.0);
}
static int dvd(dag *g, int x, int y) { return mk(g, OP_DIV, x, y, -1, 0.0); }
/* a * b + c written as one C expression: one fused node. */
static int fma3(dag *g, int a, int b, int c) {
  if (is_const(g, a, 1.0)) return add(g, b, c); /* vol = 1 (vol outside) */
  if (is_const(g, b, 1.0)) return add(g, a, c);
  order2(&a, &b);
  return mk(g, OP_FMA, a, b, c, 0.0);
}

/* feint_times_table: x * d for a table constant d. */
static int times_table(dag *g, int x, double d) {
  if (d == 0.0) return cnst(g, -0.0);
  if (d == 1.0) return x;
  if (d == -1.0) return neg(g, x);
  return mul(g, x, cnst(g, d));
}

/* Flops of the nodes the outputs depend on. */
static long long count_live(dag *g, const int *out, int nout) {
  char *live = calloc((size_t)g->n + 1, 1);
  int *stack = malloc(((size_t)g->n + 1) * sizeof *stack);
  long long flops = 0;
  if (!live || !stack) {
    free(live);
    free(stack);
    return -1;
  }
  for (int i = 0; i < nout; i++) {
    int sp = 0;
    if (live[out[i]]) continue;
    live[out[i]] = 1;
    stack[sp++] = out[i];
    while (sp) {
      const dag_node *x = &g->node[stack[--sp]];
      flops += x->op == OP_FMA ? 2 : x->op >= OP_ADD ? 1 : 0;
      const int opnd[3] = {x->a, x->b, x->c};
      for (int k = 0; k < 3; k++)
        if (opnd[k] >= 0 && !live[opnd[k]]) {
          live[opnd[k]] = 1;
          stack[sp++] = opnd[k];
        }
    }
  }
  free(live);
  free(stack);
  return flops;
}

/* ---- The kernel, evaluated symbolically ---------------------------------- */

#define MAXN FEINT_MAX_NODES
#define MAXQ FEINT_MAX_QPTS
#define MAXD (3 * MAXN)

typedef struct {
  dag *g;
  feint_element_info ei;
  int pb; /* the kernel's problem (feint_update_block's pb) */
  int ns, nq, nc;
  int x[MAXN][3];
  int coef[5 * MAXQ > 20 ? 5 * MAXQ : 20]; /* in the kernel's order */
} sym;

/* feint_jacobian, feint_invert3: det, and Jinv[b][a]. */
static int geometry(sym *S, int q, int Jinv[3][3]) {
  dag *g = S->g;
  int J[3][3], c[3][3];
  for (int a = 0; a < 3; a++)
    for (int b = 0; b < 3; b++) {
      int s = cnst(g, -0.0);
      for (int n = 0; n < S->ns; n++)
        s = add(g, s, times_table(g, S->x[n][a], S->ei.dphi[q][n][b]));
      J[a][b] = s;
    }
  /* c_ij = J[.][.] * J[.][.] - J[.][.] * J[.][.]: fma(p, q, -(r * s)) */
  static const int cof[9][8] = {
      {1, 1, 2, 2, 1, 2, 2, 1}, {1, 2, 2, 0, 1, 0, 2, 2}, {1, 0, 2, 1, 1, 1, 2, 0},
      {0, 2, 2, 1, 0, 1, 2, 2}, {0, 0, 2, 2, 0, 2, 2, 0}, {0, 1, 2, 0, 0, 0, 2, 1},
      {0, 1, 1, 2, 0, 2, 1, 1}, {0, 2, 1, 0, 0, 0, 1, 2}, {0, 0, 1, 1, 0, 1, 1, 0}};
  for (int k = 0; k < 9; k++) {
    const int *t = cof[k];
    c[k / 3][k % 3] = fma3(g, J[t[0]][t[1]], J[t[2]][t[3]],
                           neg(g, mul(g, J[t[4]][t[5]], J[t[6]][t[7]])));
  }
  /* det = J00 c00 + J01 c01 + J02 c02: fma(J02, c02, fma(J00, c00, J01 c01)) */
  const int det = fma3(g, J[0][2], c[0][2], fma3(g, J[0][0], c[0][0], mul(g, J[0][1], c[0][1])));
  const int inv = dvd(g, cnst(g, 1.0), det);
  for (int b = 0; b < 3; b++)
    for (int a = 0; a < 3; a++) Jinv[b][a] = mul(g, c[a][b], inv);
  return det;
}

/* feint_shape_psi: psi[0] = phi (a constant), psi[1 + a]. */
static void shape_psi(sym *S, int q, int n, int Jinv[3][3], int psi[4]) {
  dag *g = S->g;
  psi[0] = cnst(g, S->ei.phi[q][n]);
  for (int a = 0; a < 3; a++) {
    int s = cnst(g, -0.0);
    for (int b = 0; b < 3; b++) s = add(g, s, times_table(g, Jinv[b][a], S->ei.dphi[q][n][b]));
    psi[1 + a] = s;
  }
}

/* psi_r[1] psi_s[1] + psi_r[2] psi_s[2] + psi_r[3] psi_s[3] */
static int dot3(dag *g, const int *r, const int *s) {
  return fma3(g, r[3], s[3], fma3(g, r[1], s[1], mul(g, r[2], s[2])));
}

/* feint_update_block into the accumulators A[i * ld + j]. */
static void update_block(sym *S, int q, int vol, const int *pr, const int *ps, int *A, int ld,
                         int form) {
  dag *g = S->g;
  if (S->pb == FEINT_POISSON) {
    A[0] = fma3(g, vol, dot3(g, pr, ps), A[0]);
    return;
  }
  if (S->pb == FEINT_POISSON_KAPPA) {
    const int kv = mul(g, vol, S->coef[2 * q]);
    A[0] = fma3(g, kv, dot3(g, pr, ps), A[0]);
    return;
  }
  if (S->pb == FEINT_CONVDIFF) { /* feint_update_A */
    int s = cnst(g, 0.0);
    for (int i = 0; i < 4; i++) {
      int t = cnst(g, 0.0);
      for (int j = 0; j < 4; j++) t = fma3(g, S->coef[4 * i + j], ps[j], t);
      s = fma3(g, pr[i], t, s);
    }
    A[0] = fma3(g, vol, s, A[0]);
    return;
  }
  if (form == 3 && S->pb == FEINT_ELASTICITY) {
    for (int i = 0; i < 3; i++) {
      const int vr = mul(g, vol, pr[1 + i]);
      for (int j = 0; j < 3; j++) A[i * ld + j] = fma3(g, vr, ps[1 + j], A[i * ld + j]);
    }
    return;
  }
  const int l0 = S->pb == FEINT_ELASTICITY_QP ? 5 * q : 0;
  const int lv = mul(g, S->coef[l0], vol), mv = mul(g, S->coef[l0 + 1], vol);
  if (form == 2) {
    int lr[3], mr[3];
    for (int i = 0; i < 3; i++) {
      lr[i] = mul(g, lv, pr[1 + i]);
      mr[i] = mul(g, mv, pr[1 + i]);
    }
    /* mr0 s1 + (mr1 s2 + mr2 s3) */
    const int mgr = fma3(g, mr[0], ps[1], fma3(g, mr[1], ps[2], mul(g, mr[2], ps[3])));
    for (int i = 0; i < 3; i++)
      for (int j = 0; j < 3; j++) {
        const int a = i == j ? add(g, A[i * ld + j], mgr) : A[i * ld + j];
        A[i * ld + j] = fma3(g, lr[i], ps[1 + j], fma3(g, mr[j], ps[1 + i], a));
      }
    return;
  }
  const int mgg = mul(g, mv, dot3(g, pr, ps));
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++) {
      const int P = mul(g, pr[1 + i], ps[1 + j]), Q = mul(g, pr[1 + j], ps[1 + i]);
      if (form) {
        const int a = i == j ? add(g, A[i * ld + j], mgg) : A[i * ld + j];
        A[i * ld + j] = fma3(g, lv, P, fma3(g, mv, Q, a));
      } else {
        const int t = fma3(g, lv, P, mul(g, mv, Q));
        A[i * ld + j] = add(g, A[i * ld + j], i == j ? add(g, t, mgg) : t);
      }
    }
}

/* feint_finish_block (the S form only). */
static void finish_block(sym *S, int *A, int ld, int form) {
  dag *g = S->g;
  if (form != 3 || S->pb != FEINT_ELASTICITY) return;
  const int lam = S->coef[0], mu = S->coef[1];
  int T[3][3];
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++) T[i][j] = A[i * ld + j];
  const int mtr = mul(g, mu, add(g, add(g, T[0][0], T[1][1]), T[2][2]));
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++)
      A[i * ld + j] = i == j ? fma3(g, lam, T[i][j], fma3(g, mu, T[j][i], mtr))
                             : fma3(g, lam, T[i][j], mul(g, mu, T[j][i]));
}

/* feint_update_load into br[0 .. nc). */
static void update_load(sym *S, int q, int vol, const int *pr, int *br) {
  dag *g = S->g;
  if (S->pb == FEINT_POISSON || S->pb == FEINT_POISSON_KAPPA) {
    const int f = S->pb == FEINT_POISSON ? S->coef[q] : S->coef[2 * q + 1];
    br[0] = fma3(g, vol, mul(g, f, pr[0]), br[0]);
    return;
  }
  if (S->pb == FEINT_CONVDIFF) { /* c16 p0 + c17 p1 + c18 p2 + c19 p3 */
    const int *c = S->coef;
    int u = fma3(g, c[16], pr[0], mul(g, c[17], pr[1]));
    u = fma3(g, c[19], pr[3], fma3(g, c[18], pr[2], u));
    br[0] = fma3(g, vol, u, br[0]);
    return;
  }
  const int f0 = S->pb == FEINT_ELASTICITY_QP ? 5 * q + 2 : 2 + 3 * q;
  for (int i = 0; i < 3; i++) br[i] = fma3(g, vol, mul(g, S->coef[f0 + i], pr[0]), br[i]);
}

/* ---- The tensor variant (src/variant/tensor_geo_linear.c) ---------------- */

/* tensor_hat and tensor_pair: the table entries, folded as the compiler
 * folds them (a * b + c in one expression fused). */
static double tensor_hat(const sym *S, int q, int n, int m) {
  return m == 0 ? S->ei.phi[q][n] : S->ei.dphi[q][n][m - 1];
}
static double tensor_pair(const sym *S, int q, int m, int n, int r, int s, int sy) {
  if (q < 0) {
    double w = 0.0;
    for (int p = 0; p < S->nq; p++) w += tensor_pair(S, p, m, n, r, s, sy);
    return w;
  }
  const double wq = S->ei.qwts[q];
  const double t = wq * tensor_hat(S, q, r, m) * tensor_hat(S, q, s, n);
  return sy && m != n ? fma(wq * tensor_hat(S, q, r, n), tensor_hat(S, q, s, m), t) : t;
}

/* a += x * y in a chain that starts at -0.0 (y may be a table constant):
 * the first term is the product (the -0.0 folds), the later ones fused;
 * a factor +-1 folds: x, -x, a + x, a - x. */
static int tensor_acc(dag *g, int a, int x, int y) {
  if (is_const(g, a, -0.0)) return mul(g, x, y);
  if (is_const(g, x, 1.0) || is_const(g, x, -1.0)) {
    const int t = x;
    x = y;
    y = t;
  }
  if (is_const(g, y, 1.0)) return add(g, a, x);
  if (is_const(g, y, -1.0)) return sub(g, a, x);
  return fma3(g, x, y, a);
}

/* x[2] y[2] + (x[0] y[0] + x[1] y[1]), as the source writes
 * x0 * y0 + x1 * y1 + x2 * y2 */
static int tensor_dot(dag *g, int x0, int x1, int x2, int y0, int y1, int y2) {
  return fma3(g, x2, y2, fma3(g, x0, y0, mul(g, x1, y1)));
}

/* tensor_transform: S = Jd^T R J^-1 over the entries R uses (used[k][l]). */
static void tensor_transform(dag *g, const int used[3][3], const int Jd[3][3],
                             const int Jinv[3][3], const int R[3][3], int E[3][3]) {
  int T[3][3], row_used[3];
  for (int k = 0; k < 3; k++) {
    row_used[k] = used[k][0] | used[k][1] | used[k][2];
    for (int c = 0; c < 3; c++) {
      T[k][c] = cnst(g, -0.0);
      for (int l = 0; l < 3; l++)
        if (used[k][l]) T[k][c] = tensor_acc(g, T[k][c], R[k][l], Jinv[l][c]);
    }
  }
  for (int a = 0; a < 3; a++)
    for (int c = 0; c < 3; c++) {
      E[a][c] = cnst(g, -0.0);
      for (int k = 0; k < 3; k++)
        if (row_used[k]) E[a][c] = tensor_acc(g, E[a][c], Jd[k][a], T[k][c]);
    }
}

/* One node pair's elasticity block E (lambda, mu per element: the S form and
 * feint_finish_block; per point: Lambda' + M'^T + tr M' I). */
static void tensor_elastic_block(sym *S, int r, int s, const int Jd[3][3], const int Jinv[3][3],
                                 int E[3][3]) {
  dag *g = S->g;
  int used[3][3];
  if (S->pb == FEINT_ELASTICITY) {
    int R[3][3];
    for (int k = 0; k < 3; k++)
      for (int l = 0; l < 3; l++) {
        const double w = tensor_pair(S, -1, 1 + k, 1 + l, r, s, 0);
        used[k][l] = w != 0.0;
        R[k][l] = cnst(g, w);
      }
    tensor_transform(g, used, Jd, Jinv, R, E);
    finish_block(S, &E[0][0], 3, 3);
    return;
  }
  int L[3][3], M[3][3], SL[3][3], SM[3][3];
  for (int k = 0; k < 3; k++)
    for (int l = 0; l < 3; l++) {
      L[k][l] = M[k][l] = cnst(g, -0.0);
      used[k][l] = 0;
      for (int q = 0; q < S->nq; q++) {
        const double w = tensor_pair(S, q, 1 + k, 1 + l, r, s, 0);
        if (w == 0.0) continue;
        used[k][l] = 1;
        L[k][l] = tensor_acc(g, L[k][l], S->coef[5 * q], cnst(g, w));
        M[k][l] = tensor_acc(g, M[k][l], S->coef[5 * q + 1], cnst(g, w));
      }
    }
  tensor_transform(g, used, Jd, Jinv, L, SL);
  tensor_transform(g, used, Jd, Jinv, M, SM);
  const int mtr = add(g, add(g, SM[0][0], SM[1][1]), SM[2][2]);
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++)
      E[i][j] = add(g, SL[i][j], i == j ? add(g, SM[j][i], mtr) : SM[j][i]);
}

/* Conv-diff: c' = det P^T c P, d' = det P^T d, contracted with the tables. */
static void tensor_convdiff(sym *S, int det, const int Jinv[3][3], int A[][MAXD], int *b) {
  dag *g = S->g;
  const int *c = S->coef, *d = S->coef + 16;
  int t[4][4], cp[4][4], dp[4];
  for (int i = 0; i < 4; i++) {
    t[i][0] = c[4 * i];
    for (int k = 0; k < 3; k++)
      t[i][1 + k] = tensor_dot(g, c[4 * i + 1], c[4 * i + 2], c[4 * i + 3], Jinv[k][0],
                               Jinv[k][1], Jinv[k][2]);
  }
  for (int n = 0; n < 4; n++) {
    cp[0][n] = mul(g, det, t[0][n]);
    for (int k = 0; k < 3; k++)
      cp[1 + k][n] = mul(g, det, tensor_dot(g, Jinv[k][0], Jinv[k][1], Jinv[k][2], t[1][n],
                                            t[2][n], t[3][n]));
  }
  dp[0] = mul(g, det, d[0]);
  for (int k = 0; k < 3; k++)
    dp[1 + k] = mul(g, det, tensor_dot(g, Jinv[k][0], Jinv[k][1], Jinv[k][2], d[1], d[2], d[3]));
  for (int r = 0; r < S->ns; r++) {
    for (int s = 0; s < S->ns; s++) {
      int a = cnst(g, -0.0);
      for (int m = 0; m < 4; m++)
        for (int n = 0; n < 4; n++) {
          const double w = tensor_pair(S, -1, m, n, r, s, 0);
          if (w != 0.0) a = tensor_acc(g, a, cp[m][n], cnst(g, w));
        }
      A[r][s] = a;
    }
    int br = cnst(g, -0.0);
    for (int m = 0; m < 4; m++) {
      double w = 0.0;
      for (int q = 0; q < S->nq; q++) w = fma(S->ei.qwts[q], tensor_hat(S, q, r, m), w);
      if (w != 0.0) br = tensor_acc(g, br, dp[m], cnst(g, w));
    }
    b[r] = br;
  }
}

/* The tensor variant's element: J once, then per problem the contraction of
 * the constant tables with the element's terms; loads as physics.h's. */
static void tensor_element(sym *S, int A[][MAXD], int *b) {
  dag *g = S->g;
  const int ns = S->ns, nq = S->nq, nc = S->nc;
  int Jinv[3][3];
  const int det = geometry(S, 0, Jinv);
  if (S->pb == FEINT_CONVDIFF) {
    tensor_convdiff(S, det, Jinv, A, b);
    return;
  }
  if (nc == 3) {
    int Jd[3][3];
    for (int k = 0; k < 3; k++)
      for (int a = 0; a < 3; a++) Jd[k][a] = mul(g, det, Jinv[k][a]);
    for (int r = 0; r < ns; r++)
      for (int s = r; s < ns; s++) {
        int E[3][3];
        tensor_elastic_block(S, r, s, Jd, Jinv, E);
        for (int i = 0; i < 3; i++)
          for (int j = 0; j < 3; j++) A[3 * r + i][3 * s + j] = A[3 * s + j][3 * r + i] = E[i][j];
      }
  } else { /* G = det J^-1 J^-T (k <= l); poisson_kappa: kappa_q G per point */
    const int np = S->pb == FEINT_POISSON_KAPPA ? nq : 1;
    int H[MAXQ][3][3];
    for (int k = 0; k < 3; k++)
      for (int l = k; l < 3; l++) {
        const int gk = mul(g, det, tensor_dot(g, Jinv[k][0], Jinv[k][1], Jinv[k][2], Jinv[l][0],
                                              Jinv[l][1], Jinv[l][2]));
        for (int p = 0; p < np; p++) H[p][k][l] = np == 1 ? gk : mul(g, S->coef[2 * p], gk);
      }
    for (int i = 0; i < ns; i++)
      for (int j = i; j < ns; j++) {
        int a = cnst(g, -0.0);
        for (int p = 0; p < np; p++)
          for (int k = 0; k < 3; k++)
            for (int l = k; l < 3; l++) {
              const double t = tensor_pair(S, np == 1 ? -1 : p, 1 + k, 1 + l, i, j, 1);
              if (t != 0.0) a = tensor_acc(g, a, H[p][k][l], cnst(g, t));
            }
        A[i][j] = A[j][i] = a;
      }
  }
  for (int r = 0; r < ns; r++) { /* tensor_load */
    int br[3] = {cnst(g, 0.0), cnst(g, 0.0), cnst(g, 0.0)};
    for (int q = 0; q < nq; q++) {
      const int psi[4] = {cnst(g, S->ei.phi[q][r]), 0, 0, 0};
      update_load(S, q, mul(g, det, cnst(g, S->ei.qwts[q])), psi, br);
    }
    for (int i = 0; i < nc; i++) b[nc * r + i] = br[i];
  }
}

/* The element of variant v: of loop order lo (QSS and SQS update A^e row by
 * row at each point, SSQ block by block over the points, evaluating a block
 * below the diagonal of a symmetric problem as block (s, r) transposed), or
 * the tensor form (tensor_element). */
static long long element_flops(dag *g, feint_element et, feint_problem pb, feint_variant v) {
  const int tensor = v == FEINT_TENSOR_GEO_LINEAR;
  feint_pm_loop_order lo = FEINT_PM_QSS;
  int geo_linear = 1;
  if (!tensor && feint_pm_variant_split(v, &lo, &geo_linear) != FEINT_SUCCESS) return -1;
  sym S;
  memset(&S, 0, sizeof S);
  S.g = g;
  feint_element_get_info(et, &S.ei);
  /* elasticity runs on elasticity_qp's kernel but for SSQ's S form */
  S.pb = pb == FEINT_ELASTICITY && !tensor && lo != FEINT_PM_SSQ ? FEINT_ELASTICITY_QP : pb;
  S.ns = S.ei.num_nodes;
  S.nq = S.ei.num_qpts;
  S.nc = pb == FEINT_ELASTICITY || pb == FEINT_ELASTICITY_QP ? 3 : 1;
  const int ns = S.ns, nq = S.nq, nc = S.nc, nd = nc * ns;
  int tag = 0;
  for (int n = 0; n < ns; n++)
    for (int a = 0; a < 3; a++) S.x[n][a] = input(g, tag++);
  for (int k = 0; k < (int)(sizeof S.coef / sizeof S.coef[0]); k++) S.coef[k] = input(g, tag++);
  int A[MAXD][MAXD], b[MAXD];
  const int zero = cnst(g, 0.0);
  for (int i = 0; i < nd; i++) {
    b[i] = zero;
    for (int j = 0; j < nd; j++) A[i][j] = zero;
  }
  /* geometry and psi at every point (the tensor form: its own element) */
  int psi[MAXQ][MAXN][4], vol[MAXQ];
  int Jinv[3][3], det = 0;
  if (geo_linear && !tensor) det = geometry(&S, 0, Jinv);
  /* vol out of the sums: 1 in them, det w_0 times each output after */
  const int vo = !tensor && feint_pm_vol_outside(et, pb, geo_linear);
  for (int q = 0; q < nq && !tensor; q++) {
    if (!geo_linear) det = geometry(&S, q, Jinv);
    vol[q] = vo ? cnst(g, 1.0) : mul(g, det, cnst(g, S.ei.qwts[q]));
    for (int n = 0; n < ns; n++) shape_psi(&S, q, n, Jinv, psi[q][n]);
  }
  if (tensor)
    tensor_element(&S, A, b);
  else if (lo != FEINT_PM_SSQ) {
    const int form = lo == FEINT_PM_SQS ? 0 : ns > 4; /* the variants' choice */
    for (int q = 0; q < nq; q++)
      for (int r = 0; r < ns; r++) {
        for (int s = 0; s < ns; s++)
          update_block(&S, q, vol[q], psi[q][r], psi[q][s], &A[nc * r][nc * s], MAXD, form);
        update_load(&S, q, vol[q], psi[q][r], &b[nc * r]);
      }
  } else {
    const int form = pb == FEINT_ELASTICITY ? 3 : ns > 4 ? 2 : 1;
    for (int r = 0; r < ns; r++)
      for (int s = 0; s < ns; s++) {
        const int t = pb != FEINT_CONVDIFF && r > s, r0 = t ? s : r, s0 = t ? r : s;
        int a[9], br[3];
        for (int i = 0; i < 9; i++) a[i] = zero;
        for (int i = 0; i < 3; i++) br[i] = zero;
        for (int q = 0; q < nq; q++) {
          update_block(&S, q, vol[q], psi[q][r0], psi[q][s0], a, 3, form);
          if (r == s) update_load(&S, q, vol[q], psi[q][r], br);
        }
        finish_block(&S, a, 3, form);
        for (int i = 0; i < nc; i++) {
          for (int j = 0; j < nc; j++) A[nc * r + i][nc * s + j] = t ? a[3 * j + i] : a[3 * i + j];
          if (r == s) b[nc * r + i] = br[i];
        }
      }
  }
  if (vo) {
    const int v = mul(g, det, cnst(g, S.ei.qwts[0]));
    for (int i = 0; i < nd; i++) {
      for (int j = 0; j < nd; j++) A[i][j] = mul(g, v, A[i][j]);
      b[i] = mul(g, v, b[i]);
    }
  }
  if (g->failed) return -1;
  int out[MAXD * MAXD + MAXD];
  int nout = 0;
  for (int i = 0; i < nd; i++) {
    for (int j = 0; j < nd; j++) out[nout++] = A[i][j];
    out[nout++] = b[i];
  }
  return count_live(g, out, nout);
}

/* src/kernel/physics.h's feint_vol_outside: one Jacobian, Poisson,
 * conv-diff or poisson_kappa, a rule with equal weights (every element's). */
int feint_pm_vol_outside(feint_element et, feint_problem pb, int geo_linear) {
  feint_element_info ei;
  if (!geo_linear || (pb != FEINT_POISSON && pb != FEINT_CONVDIFF && pb != FEINT_POISSON_KAPPA) ||
      feint_element_get_info(et, &ei) != FEINT_SUCCESS)
    return 0;
  for (int q = 1; q < ei.num_qpts; q++)
    if (ei.qwts[q] != ei.qwts[0]) return 0;
  return 1;
}

long long feint_pm_dag_flops(feint_element et, feint_problem pb, feint_variant variant) {
  dag g;
  memset(&g, 0, sizeof g);
  const long long f = element_flops(&g, et, pb, variant);
  free(g.node);
  free(g.hash);
  return f;
}
