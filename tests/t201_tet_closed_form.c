/* t201_tet_closed_form: on random tetrahedra, A^e and b^e of the reference and of every variant equal the closed forms (Poisson vol G G^T, conv-diff with random coefficients), are symmetric and annihilate constants; f = 1 load vectors sum to the element volume and, over perturbed tet and prism meshes of the unit box, to 1. */
#include <stdlib.h>

#include "test_util.h"

/*
 * Closed form.  For a tetrahedron with vertices x_0..x_3 the barycentric
 * coordinates lambda_n are the shape functions; with the edge matrix
 * J[a][b] = x_{b+1}[a] - x_0[a] (the Jacobian of the reference map),
 * grad lambda_{b+1} = row b of J^{-1}, grad lambda_0 = -(sum of the others),
 * vol = det J / 6, and (lambda products integrate by the standard formula
 * int lambda_r lambda_s = vol (1 + delta_rs) / 20, int lambda_r = vol / 4)
 *   Poisson   A_rs = vol G_r . G_s,            b_r = vol / 4   (f = 1)
 *   conv-diff A_rs = c00 vol (1 + d_rs) / 20 + sum_j>0 c0j G_s[j] vol / 4
 *                  + sum_i>0 ci0 G_r[i] vol / 4 + sum_i,j>0 cij G_r[i] G_s[j] vol
 *             b_r  = d0 vol / 4 + sum_i>0 di G_r[i] vol.
 * All integrands have degree <= 2, which the 4-point rule integrates
 * exactly, so feint must reproduce these to round-off.
 *
 * Tolerance.  feint forms J from coordinates: each entry is a difference of
 * coordinates, off by up to eps X (X = largest |coordinate|), i.e. relatively
 * by eps X / |J| ~ eps X / L (L = longest edge).  Inverting J amplifies a
 * relative perturbation of J by at most its condition number
 * kappa = ||J||_F ||J^{-1}||_F, so every global gradient, and det J, carries a
 * relative error up to AMP eps with AMP = kappa (1 + X / L).  An entry of A
 * adds 4 quadrature terms of a product of two gradients (or values), det J,
 * a weight and a coefficient: about N_OPS = 30 further roundings.  So
 *   |A~ - A| <= SAFETY eps (N_OPS + 3 AMP) S,
 * with S the sum of the absolute values of the terms of the closed form
 * (vol |G_r| |G_s| and the like; Cauchy-Schwarz bounds the dot products).
 * SAFETY covers second-order terms; observed errors stay below ~1/10 of the
 * bound.  A wrong weight, a sign, a swapped node change A by O(S).
 */
#define N_OPS 30.0
#define SAFETY 2.0
#define NUM_TETS 1200
#define MIN_SHAPE 0.05 /* reject |det J| < MIN_SHAPE L^3 (a regular tet has 0.71) */

typedef struct {
  double vol, G[4][3], amp;
} tet_closed;

static double det3(const double M[3][3]) {
  return M[0][0] * (M[1][1] * M[2][2] - M[1][2] * M[2][1]) -
         M[0][1] * (M[1][0] * M[2][2] - M[1][2] * M[2][0]) +
         M[0][2] * (M[1][0] * M[2][1] - M[1][1] * M[2][0]);
}

/* Edge matrix, its inverse by the adjugate, the gradients, the volume. */
static tet_closed closed_form(const double x[4][3]) {
  tet_closed t;
  double J[3][3], adj[3][3], X = 0.0, L = 0.0, nJ = 0.0, nJinv = 0.0;
  for (int a = 0; a < 3; a++)
    for (int b = 0; b < 3; b++) J[a][b] = x[b + 1][a] - x[0][a];
  const double det = det3(J);
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++) {
      /* adj[j][i] = cofactor (i, j) */
      const int i1 = (i + 1) % 3, i2 = (i + 2) % 3, j1 = (j + 1) % 3, j2 = (j + 2) % 3;
      adj[j][i] = J[i1][j1] * J[i2][j2] - J[i1][j2] * J[i2][j1];
    }
  for (int b = 0; b < 3; b++)
    for (int a = 0; a < 3; a++) t.G[b + 1][a] = adj[b][a] / det;
  for (int a = 0; a < 3; a++) t.G[0][a] = -(t.G[1][a] + t.G[2][a] + t.G[3][a]);
  t.vol = det / 6.0;
  for (int a = 0; a < 3; a++)
    for (int b = 0; b < 3; b++) {
      nJ += J[a][b] * J[a][b];
      nJinv += adj[a][b] * adj[a][b] / (det * det);
    }
  for (int n = 0; n < 4; n++)
    for (int a = 0; a < 3; a++) X = fmax(X, fabs(x[n][a]));
  for (int n = 0; n < 4; n++)
    for (int m = 0; m < n; m++) {
      double d2 = 0.0;
      for (int a = 0; a < 3; a++) d2 += (x[n][a] - x[m][a]) * (x[n][a] - x[m][a]);
      L = fmax(L, sqrt(d2));
    }
  t.amp = sqrt(nJ * nJinv) * (1.0 + X / L);
  return t;
}

static double norm3(const double v[3]) { return sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]); }

/* Random tetrahedron: size 10^[-3, 3], centre offset up to its size,
 * reshaped until well-shaped, positively oriented. */
static void random_tet(test_rng *rng, double x[4][3]) {
  for (;;) {
    const double s = pow(10.0, test_rng_uniform(rng, -3.0, 3.0));
    double c[3];
    for (int a = 0; a < 3; a++) c[a] = test_rng_uniform(rng, -1.0, 1.0);
    for (int n = 0; n < 4; n++)
      for (int a = 0; a < 3; a++) x[n][a] = s * (c[a] + test_rng_uniform(rng, -1.0, 1.0));
    double J[3][3], L = 0.0;
    for (int a = 0; a < 3; a++)
      for (int b = 0; b < 3; b++) J[a][b] = x[b + 1][a] - x[0][a];
    for (int n = 0; n < 4; n++)
      for (int m = 0; m < n; m++) {
        double d[3] = {x[n][0] - x[m][0], x[n][1] - x[m][1], x[n][2] - x[m][2]};
        L = fmax(L, norm3(d));
      }
    const double det = det3(J);
    if (fabs(det) < MIN_SHAPE * L * L * L) continue;
    if (det < 0) /* swap nodes 1 and 2: positive orientation */
      for (int a = 0; a < 3; a++) {
        const double t = x[1][a];
        x[1][a] = x[2][a];
        x[2][a] = t;
      }
    return;
  }
}

/* Closed-form A, b and their term scales for one element. */
static void closed_matrices(const tet_closed *t, feint_problem pb, const double *cf, double A[16],
                            double A_scale[16], double b[4], double b_scale[4]) {
  const double v = t->vol;
  for (int r = 0; r < 4; r++) {
    for (int s = 0; s < 4; s++) {
      if (pb == FEINT_POISSON) {
        double dot = 0.0;
        for (int a = 0; a < 3; a++) dot += t->G[r][a] * t->G[s][a];
        A[4 * r + s] = v * dot;
        A_scale[4 * r + s] = v * norm3(t->G[r]) * norm3(t->G[s]);
      } else {
        /* psi[0] = value (integrals by the lambda formula), psi[1..3] = G */
        double sum = cf[0] * v * (1.0 + (r == s)) / 20.0;
        double sc = fabs(cf[0]) * v;
        for (int j = 1; j < 4; j++) {
          sum += cf[j] * t->G[s][j - 1] * v / 4.0;
          sc += fabs(cf[j] * t->G[s][j - 1]) * v;
        }
        for (int i = 1; i < 4; i++) {
          sum += cf[4 * i] * t->G[r][i - 1] * v / 4.0;
          sc += fabs(cf[4 * i] * t->G[r][i - 1]) * v;
          for (int j = 1; j < 4; j++) {
            sum += cf[4 * i + j] * t->G[r][i - 1] * t->G[s][j - 1] * v;
            sc += fabs(cf[4 * i + j]) * norm3(t->G[r]) * norm3(t->G[s]) * v;
          }
        }
        A[4 * r + s] = sum;
        A_scale[4 * r + s] = sc;
      }
    }
    if (pb == FEINT_POISSON) {
      b[r] = v / 4.0;
      b_scale[r] = v;
    } else {
      double sum = cf[16] * v / 4.0, sc = fabs(cf[16]) * v;
      for (int i = 1; i < 4; i++) {
        sum += cf[16 + i] * t->G[r][i - 1] * v;
        sc += fabs(cf[16 + i] * t->G[r][i - 1]) * v;
      }
      b[r] = sum;
      b_scale[r] = sc;
    }
  }
}

/* Compare one implementation's output on the random batch with the closed
 * form.  For Poisson also: symmetry, zero row sums (sum_s G_s = 0: constants
 * are in the kernel of the Laplace stiffness; conv-diff A is neither
 * symmetric nor constant-free) and sum of b (f = 1) = volume.  Symmetry and
 * row sums are scaled by the reference's sums of absolute terms (A_abs). */
static void compare(const char *who, feint_problem pb, const double *geo, const double *coef,
                    const double *A, const double *b, const double *A_abs) {
  int reported = 0;
  for (size_t e = 0; e < NUM_TETS; e++) {
    const double(*x)[3] = (const double(*)[3])(geo + 12 * e);
    const tet_closed t = closed_form(x);
    double Ac[16], As[16], bc[4], bs[4];
    closed_matrices(&t, pb, coef + e * (pb == FEINT_POISSON ? 4 : 20), Ac, As, bc, bs);
    const double n_ops = N_OPS + 3.0 * t.amp;
    const int before = test_failures;
    char what[160];
    for (int k = 0; k < 16; k++) {
      snprintf(what, sizeof what, "%s %s elem %zu A[%d][%d] vs closed form", who,
               feint_problem_name(pb), e, k / 4, k % 4);
      CHECK_CLOSE(A[16 * e + k], Ac[k], n_ops, As[k], SAFETY, what);
    }
    double bsum = 0.0;
    for (int r = 0; r < 4; r++) {
      snprintf(what, sizeof what, "%s %s elem %zu b[%d] vs closed form", who,
               feint_problem_name(pb), e, r);
      CHECK_CLOSE(b[4 * e + r], bc[r], n_ops, bs[r], SAFETY, what);
      bsum += b[4 * e + r];
    }
    if (pb == FEINT_POISSON) {
      snprintf(what, sizeof what, "%s elem %zu sum of b (f = 1) vs volume", who, e);
      CHECK_CLOSE(bsum, t.vol, n_ops + 4, t.vol, SAFETY, what);
      for (int r = 0; r < 4; r++) {
        double row = 0.0, row_abs = 0.0;
        for (int s = 0; s < 4; s++) {
          row += A[16 * e + 4 * r + s];
          row_abs += A_abs[16 * e + 4 * r + s];
          snprintf(what, sizeof what, "%s elem %zu A[%d][%d] vs A[%d][%d] (symmetry)", who, e, r,
                   s, s, r);
          CHECK_CLOSE(A[16 * e + 4 * r + s], A[16 * e + 4 * s + r], n_ops,
                      A_abs[16 * e + 4 * r + s], SAFETY, what);
        }
        snprintf(what, sizeof what, "%s elem %zu row %d sum (constants in the kernel)", who, e, r);
        CHECK_CLOSE(row, 0.0, n_ops + 4, row_abs, SAFETY, what);
      }
    }
    if (test_failures > before && ++reported >= 3) return; /* a few elements tell the story */
  }
}

static void check_random_tets(void) {
  test_rng rng = {201};
  const size_t ngeo = 12 * NUM_TETS;
  double *geo = malloc(ngeo * sizeof(double));
  double *coef = malloc(20 * NUM_TETS * sizeof(double));
  double *A = malloc(16 * NUM_TETS * sizeof(double)), *b = malloc(4 * NUM_TETS * sizeof(double));
  double *A_abs = malloc(16 * NUM_TETS * sizeof(double));
  double *b_abs = malloc(4 * NUM_TETS * sizeof(double));
  if (!geo || !coef || !A || !b || !A_abs || !b_abs) {
    TEST_FAIL("allocation failed");
    goto done;
  }
  for (size_t e = 0; e < NUM_TETS; e++) random_tet(&rng, (double(*)[3])(geo + 12 * e));
  for (int pb = 0; pb <= FEINT_CONVDIFF; pb++) { /* the scalar problems (elasticity: t204) */
    const size_t ncoef = pb == FEINT_POISSON ? 4 : 20;
    for (size_t k = 0; k < ncoef * NUM_TETS; k++)
      coef[k] = pb == FEINT_POISSON ? 1.0 : test_rng_uniform(&rng, -1.0, 1.0);
    CHECK_STATUS(feint_integrate_reference(FEINT_TET4, (feint_problem)pb, NUM_TETS, geo, coef, A,
                                           b, A_abs, b_abs),
                 FEINT_SUCCESS, NULL);
    compare("reference", (feint_problem)pb, geo, coef, A, b, A_abs);
    for (int v = 0; v < FEINT_VARIANT_COUNT; v++) {
      feint_variant_info vi;
      feint_variant_get_info((feint_variant)v, &vi);
      const feint_integrate_desc d = {FEINT_TET4, (feint_problem)pb, (feint_variant)v,
                                      FEINT_LAYOUT_NATURAL, FEINT_LAYOUT_NATURAL, 0, FEINT_TARGET_HOST, 0};
      memset(A, 0xFF, 16 * NUM_TETS * sizeof(double)); /* NaN: an unwritten entry fails */
      memset(b, 0xFF, 4 * NUM_TETS * sizeof(double));
      CHECK_STATUS(feint_integrate(&d, NUM_TETS, geo, coef, A, b), FEINT_SUCCESS, NULL);
      compare(vi.name, (feint_problem)pb, geo, coef, A, b, A_abs);
    }
  }
done:
  free(geo), free(coef), free(A), free(b), free(A_abs), free(b_abs);
}

/* Perturbed meshes of the unit box, f = 1: the load vectors of all elements
 * add up to the box volume 1.  For a prism det J has degree <= 2 in z and
 * <= 1 in (x, y) (the xi and eta columns of J are linear in z, the z column
 * linear in x, y), which the 6-point rule integrates exactly, and the
 * shared faces of neighbours are the same bilinear surfaces, so the sum is
 * 1 up to round-off even though the prisms are not affine.  For a trilinear
 * hexahedron each column of J is linear in the two other reference
 * variables and constant in its own, so det J has degree <= 2 in each
 * variable, which the 2x2x2 Gauss rule (degree 3 in each) integrates
 * exactly; the shared faces are the same bilinear surfaces, so the hex mesh
 * sums to 1 as well.  Round-off: the
 * M = num_elem N_S positive entries are added (M - 1 roundings of partial
 * sums <= 1), each entry carrying about N_OPS roundings (the elements are
 * well shaped, amplitude 0.15, so the amplification is O(1)). */
static void check_mesh_volume(void) {
  enum { NX = 4, NY = 3, NZ = 5 };
  for (int el = 0; el < FEINT_ELEMENT_COUNT; el++) {
    size_t num_elem, ngeo, ncoef, nA, nb;
    feint_mesh_box_count((feint_element)el, NX, NY, NZ, &num_elem);
    feint_array_len((feint_element)el, FEINT_POISSON, FEINT_ARRAY_GEOMETRY, FEINT_LAYOUT_NATURAL,
                    num_elem, &ngeo);
    feint_array_len((feint_element)el, FEINT_POISSON, FEINT_ARRAY_COEFFS, FEINT_LAYOUT_NATURAL,
                    num_elem, &ncoef);
    feint_array_len((feint_element)el, FEINT_POISSON, FEINT_ARRAY_A, FEINT_LAYOUT_NATURAL, num_elem,
                    &nA);
    feint_array_len((feint_element)el, FEINT_POISSON, FEINT_ARRAY_B, FEINT_LAYOUT_NATURAL, num_elem,
                    &nb);
    double *geo = malloc(ngeo * sizeof(double)), *coef = malloc(ncoef * sizeof(double));
    double *A = malloc(nA * sizeof(double)), *b = malloc(nb * sizeof(double));
    if (!geo || !coef || !A || !b) {
      TEST_FAIL("allocation failed");
      free(geo), free(coef), free(A), free(b);
      return;
    }
    CHECK_STATUS(feint_mesh_box((feint_element)el, NX, NY, NZ, FEINT_PERTURB_GENERAL, 0.15, 2024,
                                FEINT_LAYOUT_NATURAL, geo),
                 FEINT_SUCCESS, NULL);
    for (size_t k = 0; k < ncoef; k++) coef[k] = 1.0;
    const double n_ops = (double)nb + N_OPS;
    for (int v = -1; v < FEINT_VARIANT_COUNT; v++) {
      feint_variant_info vi = {.name = "reference"};
      if (v >= 0) {
        feint_variant_get_info((feint_variant)v, &vi);
        if (vi.geo_linear && el != FEINT_TET4) continue; /* refuses non-affine prisms, hexes (t001) */
        const feint_integrate_desc d = {(feint_element)el, FEINT_POISSON, (feint_variant)v,
                                        FEINT_LAYOUT_NATURAL, FEINT_LAYOUT_NATURAL, 0, FEINT_TARGET_HOST, 0};
        CHECK_STATUS(feint_integrate(&d, num_elem, geo, coef, A, b), FEINT_SUCCESS, NULL);
      } else {
        CHECK_STATUS(feint_integrate_reference((feint_element)el, FEINT_POISSON, num_elem, geo,
                                               coef, A, b, NULL, NULL),
                     FEINT_SUCCESS, NULL);
      }
      double sum = 0.0;
      for (size_t k = 0; k < nb; k++) sum += b[k];
      char what[128];
      snprintf(what, sizeof what, "%s %s mesh: sum of all b^e (f = 1) vs box volume", vi.name,
               feint_element_name((feint_element)el));
      CHECK_CLOSE(sum, 1.0, n_ops, 1.0, SAFETY, what);
    }
    free(geo), free(coef), free(A), free(b);
  }
}

int main(void) {
  check_random_tets();
  check_mesh_volume();
  return test_finish("t201_tet_closed_form");
}
