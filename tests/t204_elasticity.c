/* t204_elasticity (t2xx: physics): 3-D isotropic linear elasticity on tet4,
 * prism6 and hex8, against a reference assembled here from its textbook
 * form, independent of feint's kernels and of its serial reference:
 *   A^e = sum_q w_q det J  B^T D B,  B the 6 x 3N_S strain-displacement
 *   matrix (Voigt order xx, yy, zz, yz, xz, xy; engineering shear strains),
 *   D the isotropic 6x6 elasticity matrix (lambda + 2 mu on the normal
 *   diagonal, lambda off it, mu on the shear diagonal),
 *   b^e[3r+i] = sum_q w_q det J f_i(x_q) phi_r(x_q),
 * with the shape-function tables of feint_element_get_info (tested in t101)
 * and this file's own Jacobian inverse.  Every variant and the serial
 * reference must equal it to round-off; every element matrix must be
 * symmetric and annihilate the six rigid-body modes (three translations,
 * three infinitesimal rotations u = w x x) to round-off; inadmissible
 * coefficients (mu < 0, lambda + 2 mu / 3 <= 0, NaN) are refused with
 * FEINT_ERR_BAD_COEFF naming the element, outputs untouched.
 * Tolerance: as tests/variant_fixture.h, 2 (n_terms + 16) eps S with
 * n_terms = 5 N_Q (lambda term, mu term, 3 terms of mu g_r . g_s) and S the
 * serial reference's abs sums A_abs (every factor at its round-off scale)
 * plus this file's own sum of |terms|. */
#include <stdlib.h>

#include "test_util.h"

#define MAXN 8
#define MAXD (3 * MAXN)

/* B^T D B reference of one element: A [nd][nd], S (sum of |terms|), b. */
static void btdb(const feint_element_info *ei, const double *x, const double *cf, double *A,
                 double *S, double *b) {
  const int ns = ei->num_nodes, nd = 3 * ns;
  const double lambda = cf[0], mu = cf[1];
  double D[6][6] = {{0}};
  for (int i = 0; i < 3; i++) {
    for (int j = 0; j < 3; j++) D[i][j] = lambda;
    D[i][i] = lambda + 2 * mu;
    D[3 + i][3 + i] = mu;
  }
  memset(A, 0, sizeof(double) * nd * nd);
  memset(S, 0, sizeof(double) * nd * nd);
  memset(b, 0, sizeof(double) * nd);
  for (int q = 0; q < ei->num_qpts; q++) {
    double J[3][3] = {{0}}, C[3][3];
    for (int n = 0; n < ns; n++)
      for (int a = 0; a < 3; a++)
        for (int c = 0; c < 3; c++) J[a][c] += x[3 * n + a] * ei->dphi[q][n][c];
    for (int a = 0; a < 3; a++)
      for (int c = 0; c < 3; c++) {
        const int a1 = (a + 1) % 3, a2 = (a + 2) % 3, c1 = (c + 1) % 3, c2 = (c + 2) % 3;
        C[a][c] = J[a1][c1] * J[a2][c2] - J[a1][c2] * J[a2][c1];
      }
    const double det = J[0][0] * C[0][0] + J[0][1] * C[0][1] + J[0][2] * C[0][2];
    const double w = ei->qwts[q] * det;
    double B[6][MAXD] = {{0}};
    for (int n = 0; n < ns; n++) {
      double g[3];
      for (int a = 0; a < 3; a++) {
        g[a] = 0.0;
        for (int c = 0; c < 3; c++) g[a] += ei->dphi[q][n][c] * C[a][c] / det;
      }
      B[0][3 * n] = g[0], B[1][3 * n + 1] = g[1], B[2][3 * n + 2] = g[2];
      B[3][3 * n + 1] = g[2], B[3][3 * n + 2] = g[1];
      B[4][3 * n] = g[2], B[4][3 * n + 2] = g[0];
      B[5][3 * n] = g[1], B[5][3 * n + 1] = g[0];
      for (int i = 0; i < 3; i++) b[3 * n + i] += w * cf[2 + 3 * q + i] * ei->phi[q][n];
    }
    for (int r = 0; r < nd; r++)
      for (int s = 0; s < nd; s++)
        for (int k = 0; k < 6; k++)
          for (int l = 0; l < 6; l++) {
            const double t = w * B[k][r] * D[k][l] * B[l][s];
            A[r * nd + s] += t;
            S[r * nd + s] += fabs(t);
          }
  }
}

static double *alloc(size_t n) {
  double *p = malloc((n ? n : 1) * sizeof(double));
  if (!p) {
    fprintf(stderr, "allocation failed\n");
    exit(2);
  }
  return p;
}

static void run_element(feint_element el) {
  feint_element_info ei;
  feint_element_get_info(el, &ei);
  const int ns = ei.num_nodes, nd = 3 * ns;
  enum { CELLS = 4 };
  size_t num, ng, nc, na, nb;
  feint_mesh_box_count(el, CELLS, CELLS, CELLS, &num);
  feint_array_entries(el, FEINT_ELASTICITY, FEINT_ARRAY_GEOMETRY, &ng);
  feint_array_entries(el, FEINT_ELASTICITY, FEINT_ARRAY_COEFFS, &nc);
  feint_array_entries(el, FEINT_ELASTICITY, FEINT_ARRAY_A, &na);
  feint_array_entries(el, FEINT_ELASTICITY, FEINT_ARRAY_B, &nb);
  CHECK(na == (size_t)(nd * nd) && nb == (size_t)nd && nc == 2 + 3 * (size_t)ei.num_qpts,
        "%s elasticity sizes: A %zu b %zu coeffs %zu", ei.name, na, nb, nc);
  double *geo[2] = {alloc(num * ng), alloc(num * ng)}, *coef = alloc(num * nc);
  double *A = alloc(num * na), *b = alloc(num * nb), *Ar = alloc(num * na), *br = alloc(num * nb);
  double *Aabs = alloc(num * na), *babs = alloc(num * nb);
  for (int m = 0; m < 2; m++)
    CHECK_STATUS(feint_mesh_box(el, CELLS, CELLS, CELLS,
                                m ? FEINT_PERTURB_AFFINE : FEINT_PERTURB_GENERAL, 0.15, 204 + m,
                                FEINT_LAYOUT_NATURAL, geo[m]),
                 FEINT_SUCCESS, NULL);
  test_rng rng = {0x204u + (unsigned)el};
  for (size_t e = 0; e < num; e++) {
    const double mu = test_rng_uniform(&rng, 0.3, 2.0);
    coef[e * nc] = -0.5 * mu + test_rng_uniform(&rng, 0.05, 2.0); /* lambda, may be < 0 */
    coef[e * nc + 1] = mu; /* lambda + 2 mu / 3 >= mu / 6 + 0.05 > 0 */
    for (size_t k = 2; k < nc; k++) coef[e * nc + k] = test_rng_uniform(&rng, -1.0, 1.0);
  }
  const double n_terms = 5.0 * ei.num_qpts;
  for (int m = 0; m < 2; m++) {
    CHECK_STATUS(feint_integrate_reference(el, FEINT_ELASTICITY, num, geo[m], coef, Ar, br, Aabs,
                                           babs),
                 FEINT_SUCCESS, NULL);
    for (int v = -1; v < FEINT_VARIANT_COUNT; v++) {
      feint_variant_info vi = {.name = "reference"};
      if (v >= 0) {
        feint_variant_get_info((feint_variant)v, &vi);
        if (vi.geo_linear && el != FEINT_TET4 && m == 0) continue; /* not affine */
        const feint_integrate_desc d = {el, FEINT_ELASTICITY, (feint_variant)v,
                                        FEINT_LAYOUT_NATURAL, FEINT_LAYOUT_NATURAL, 0,
                                        FEINT_TARGET_HOST, 0};
        CHECK_STATUS(feint_integrate(&d, num, geo[m], coef, A, b), FEINT_SUCCESS, NULL);
      } else {
        memcpy(A, Ar, num * na * sizeof(double));
        memcpy(b, br, num * nb * sizeof(double));
      }
      int reported = 0;
      for (size_t e = 0; e < num && reported < 3; e++) {
        static double At[MAXD * MAXD], S[MAXD * MAXD], bt[MAXD];
        const double *x = geo[m] + e * ng;
        btdb(&ei, x, coef + e * nc, At, S, bt);
        const double *Ae = A + e * na, *Aa = Aabs + e * na;
        for (int r = 0; r < nd; r++) {
          for (int s = 0; s < nd; s++) {
            const double tol_s = Aa[r * nd + s] + S[r * nd + s];
            if (!test_close(Ae[r * nd + s], At[r * nd + s], 2 * (n_terms + 16), tol_s, 1.0) &&
                reported++ < 3)
              TEST_FAIL("%s %s mesh %d: element %zu A[%d][%d] = %.17g, B^T D B %.17g", ei.name,
                        vi.name, m, e, r, s, Ae[r * nd + s], At[r * nd + s]);
            if (!test_close(Ae[r * nd + s], Ae[s * nd + r], 2 * (n_terms + 16), tol_s, 1.0) &&
                reported++ < 3)
              TEST_FAIL("%s %s: element %zu not symmetric at (%d, %d)", ei.name, vi.name, e, r, s);
          }
          if (!test_close(b[e * nb + r], bt[r], 2 * (n_terms + 16),
                          babs[e * nb + r] + fabs(bt[r]), 1.0) &&
              reported++ < 3)
            TEST_FAIL("%s %s: element %zu b[%d] = %.17g, reference %.17g", ei.name, vi.name, e,
                      r, b[e * nb + r], bt[r]);
        }
        /* rigid-body modes: A u = 0 for translations e_k and rotations
         * u(x) = e_k x x (about the element's first node, so |u| ~ h) */
        for (int mode = 0; mode < 6; mode++) {
          double u[MAXD];
          for (int n = 0; n < ns; n++)
            for (int i = 0; i < 3; i++) {
              const double y[3] = {x[3 * n] - x[0], x[3 * n + 1] - x[1], x[3 * n + 2] - x[2]};
              if (mode < 3)
                u[3 * n + i] = i == mode ? 1.0 : 0.0;
              else { /* (e_k x y)_i */
                const int k = mode - 3, i1 = (i + 1) % 3, i2 = (i + 2) % 3;
                u[3 * n + i] = (k == i1 ? y[i2] : 0.0) - (k == i2 ? y[i1] : 0.0);
              }
            }
          for (int r = 0; r < nd; r++) {
            double s = 0.0, s_abs = 0.0, umax = 0.0;
            for (int c = 0; c < nd; c++) {
              s += Ae[r * nd + c] * u[c];
              s_abs += (Aa[r * nd + c] + S[r * nd + c]) * fabs(u[c]);
              umax = fmax(umax, fabs(u[c]));
            }
            /* each entry within its tolerance of the exact, mode-free matrix,
             * the mode's coordinates exact to eps |y| */
            if (!test_close(s, 0.0, 2 * (n_terms + 16) + nd + 4, s_abs, 1.0) && reported++ < 3)
              TEST_FAIL("%s %s: element %zu rigid mode %d: (A u)[%d] = %.3g (scale %.3g)",
                        ei.name, vi.name, e, mode, r, s, s_abs);
          }
        }
      }
    }
  }
  /* inadmissible coefficients: element 5 of 8, outputs untouched */
  const double bad[4][2] = {{1.0, -0.1}, {-1.0, 1.0}, {1.0, NAN}, {NAN, 1.0}};
  for (int k = 0; k < 4; k++) {
    double saved[2] = {coef[5 * nc], coef[5 * nc + 1]};
    coef[5 * nc] = bad[k][0], coef[5 * nc + 1] = bad[k][1];
    for (size_t i = 0; i < 8 * na; i++) A[i] = -7.0;
    const feint_integrate_desc d = {el, FEINT_ELASTICITY, FEINT_QSS_GEO_GENERIC,
                                    FEINT_LAYOUT_NATURAL, FEINT_LAYOUT_NATURAL, 0,
                                    FEINT_TARGET_HOST, 0};
    CHECK_STATUS(feint_integrate(&d, 8, geo[0], coef, A, b), FEINT_ERR_BAD_COEFF,
                 "coeffs of element 5");
    for (size_t i = 0; i < 8 * na; i++)
      if (A[i] != -7.0) {
        TEST_FAIL("%s: A written on a refused call", ei.name);
        break;
      }
    coef[5 * nc] = saved[0], coef[5 * nc + 1] = saved[1];
  }
  free(geo[0]), free(geo[1]), free(coef), free(A), free(b), free(Ar), free(br), free(Aabs);
  free(babs);
}

int main(void) {
  for (int el = 0; el < FEINT_ELEMENT_COUNT; el++) run_element((feint_element)el);
  return test_finish("t204_elasticity");
}
