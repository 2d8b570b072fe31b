/* variant_fixture.h - the data of the variant tests (t301, t502): for one
 * case, >= 10,000 distinct perturbed elements (a generally perturbed mesh for
 * geo_generic, an affine-perturbed one for geo_linear prisms and hexahedra) with random
 * coefficients, in both layouts, the serial reference with its round-off
 * scales, and the comparison of an output with it.
 *
 * Tolerance.  Entry x of A^e or b^e is a sum of n_terms terms
 * t = vol * c * psi_r * psi_s (Poisson: N_Q * 3 terms per entry of A,
 * conv-diff: N_Q * 16, elasticity: N_Q * 5).  S (A_abs, b_abs of feint_integrate_reference) is the
 * sum of |t| with every factor replaced by the scale of its round-off (the
 * Jacobian, cofactors and det J in absolute values): each factor of a term is
 * then known to a few eps relative to its scale (J 1, cofactor 3, det 4,
 * division 1, derivative sum 3, products 3, vol 1: 16), and two
 * implementations sum the terms in different orders (n_terms eps).  Both
 * sides carry such errors, hence
 *   |x - x_ref| <= 2 (n_terms + 16) eps S. */
#ifndef FEINT_VARIANT_FIXTURE_H
#define FEINT_VARIANT_FIXTURE_H

#include <stdlib.h>

#include "test_util.h"

#define FIXTURE_CELLS_TET 12   /* 6 * 12^3 = 10368 tetrahedra */
#define FIXTURE_CELLS_PRISM 18 /* 2 * 18 * 18 * 16 = 10368 prisms */
#define FIXTURE_CELLS_HEX 22   /* 22^3 = 10648 hexahedra */
#define FIXTURE_SENTINEL -777.0

typedef struct {
  feint_element el;
  feint_problem pb;
  feint_element_info ei;
  size_t num_elem, padded, ng, nc, na, nb;
  double n_terms;
  double *geo_mesh[2];   /* [mesh] natural: 0 general, 1 affine */
  double *geo[2][2];     /* [mesh][layout] */
  double *coef[2];       /* [layout] */
  double *A_ref[2], *b_ref[2], *A_abs[2], *b_abs[2]; /* [mesh], natural */
  double *A_nat, *b_nat; /* scratch for conversions */
} fixture;

static inline double *fixture_alloc(size_t n) {
  const size_t bytes = ((n + 8) * sizeof(double) + 63) / 64 * 64;
  double *p = aligned_alloc(64, bytes);
  if (p == NULL) {
    fprintf(stderr, "allocation of %zu doubles failed\n", n);
    exit(2);
  }
  return p;
}

static inline void fixture_setup(fixture *f, feint_element el, feint_problem pb) {
  memset(f, 0, sizeof *f);
  f->el = el;
  f->pb = pb;
  feint_element_get_info(el, &f->ei);
  const size_t cells = el == FEINT_TET4     ? FIXTURE_CELLS_TET
                       : el == FEINT_PRISM6 ? FIXTURE_CELLS_PRISM
                                            : FIXTURE_CELLS_HEX;
  const size_t nz = el == FEINT_PRISM6 ? 16 : cells;
  size_t mesh_elem;
  feint_mesh_box_count(el, cells, cells, nz, &mesh_elem);
  f->num_elem = mesh_elem - 3; /* a partial last block */
  f->padded = (f->num_elem + FEINT_BLOCK_LEN - 1) / FEINT_BLOCK_LEN * FEINT_BLOCK_LEN;
  feint_array_entries(el, pb, FEINT_ARRAY_GEOMETRY, &f->ng);
  feint_array_entries(el, pb, FEINT_ARRAY_COEFFS, &f->nc);
  feint_array_entries(el, pb, FEINT_ARRAY_A, &f->na);
  feint_array_entries(el, pb, FEINT_ARRAY_B, &f->nb);
  /* terms per entry and point: Poisson 3, conv-diff 16, elasticity 5
   * (lambda term, mu term, 3 of mu g_r . g_s on the diagonal) */
  f->n_terms = (double)f->ei.num_qpts * (pb == FEINT_POISSON || pb == FEINT_POISSON_KAPPA ? 3
                                          : pb == FEINT_CONVDIFF                       ? 16
                                                                                       : 5);

  f->coef[FEINT_LAYOUT_NATURAL] = fixture_alloc(f->padded * f->nc);
  f->coef[FEINT_LAYOUT_BLOCKED] = fixture_alloc(f->padded * f->nc);
  test_rng rng = {0x5eed0000u + (unsigned)(2 * el + pb)};
  for (size_t i = 0; i < f->num_elem * f->nc; i++) {
    /* positive material coefficients: lambda, mu (per element or in each
     * record of 5), kappa (in each record of 2); loads in [-1, 1] */
    const size_t k = i % f->nc;
    const int material = (pb == FEINT_ELASTICITY && k < 2) ||
                         (pb == FEINT_ELASTICITY_QP && k % 5 < 2) ||
                         (pb == FEINT_POISSON_KAPPA && k % 2 == 0);
    f->coef[FEINT_LAYOUT_NATURAL][i] =
        material ? test_rng_uniform(&rng, 0.1, 2.0) : test_rng_uniform(&rng, -1.0, 1.0);
  }
  feint_layout_convert(f->num_elem, f->nc, FEINT_LAYOUT_NATURAL, f->coef[FEINT_LAYOUT_NATURAL],
                       FEINT_LAYOUT_BLOCKED, f->coef[FEINT_LAYOUT_BLOCKED]);
  for (int m = 0; m < 2; m++) {
    f->geo_mesh[m] = fixture_alloc(mesh_elem * f->ng);
    CHECK_STATUS(feint_mesh_box(el, cells, cells, nz,
                                m == 0 ? FEINT_PERTURB_GENERAL : FEINT_PERTURB_AFFINE, 0.15,
                                1234 + m, FEINT_LAYOUT_NATURAL, f->geo_mesh[m]),
                 FEINT_SUCCESS, NULL);
    f->geo[m][FEINT_LAYOUT_NATURAL] = f->geo_mesh[m];
    f->geo[m][FEINT_LAYOUT_BLOCKED] = fixture_alloc(f->padded * f->ng);
    feint_layout_convert(f->num_elem, f->ng, FEINT_LAYOUT_NATURAL, f->geo_mesh[m],
                         FEINT_LAYOUT_BLOCKED, f->geo[m][FEINT_LAYOUT_BLOCKED]);
    f->A_ref[m] = fixture_alloc(f->num_elem * f->na);
    f->b_ref[m] = fixture_alloc(f->num_elem * f->nb);
    f->A_abs[m] = fixture_alloc(f->num_elem * f->na);
    f->b_abs[m] = fixture_alloc(f->num_elem * f->nb);
    CHECK_STATUS(feint_integrate_reference(el, pb, f->num_elem, f->geo_mesh[m],
                                           f->coef[FEINT_LAYOUT_NATURAL], f->A_ref[m],
                                           f->b_ref[m], f->A_abs[m], f->b_abs[m]),
                 FEINT_SUCCESS, NULL);
  }
  f->A_nat = fixture_alloc(f->num_elem * f->na);
  f->b_nat = fixture_alloc(f->num_elem * f->nb);
}

/* The mesh a variant integrates: the affine one for geo_linear prisms and
 * hexahedra. */
static inline int fixture_mesh(const fixture *f, feint_variant v) {
  feint_variant_info vi;
  feint_variant_get_info(v, &vi);
  return vi.geo_linear && f->el != FEINT_TET4 ? 1 : 0;
}

/* 1 if the case's A_e is symmetric (every problem but conv-diff). */
static inline int fixture_symmetric(const fixture *f) { return f->pb != FEINT_CONVDIFF; }

/* 1 if the case can be run with these layouts (packed: output only, and
 * only for symmetric problems). */
static inline int fixture_layouts_ok(const fixture *f, int lin, int lout) {
  return lin != FEINT_LAYOUT_PACKED && (lout != FEINT_LAYOUT_PACKED || fixture_symmetric(f));
}

/* An output of layout lout in the natural layout (A_nat, b_nat); packed:
 * A_nat[i][j] = A_nat[j][i] = packed (min(i,j), max(i,j)). */
static inline void fixture_to_natural(fixture *f, feint_layout lout, const double *A,
                                      const double *b) {
  if (lout != FEINT_LAYOUT_PACKED) {
    feint_layout_convert(f->num_elem, f->na, lout, A, FEINT_LAYOUT_NATURAL, f->A_nat);
    feint_layout_convert(f->num_elem, f->nb, lout, b, FEINT_LAYOUT_NATURAL, f->b_nat);
    return;
  }
  const size_t n = f->nb, np = n * (n + 1) / 2;
  for (size_t e = 0; e < f->num_elem; e++)
    for (size_t i = 0, p = 0; i < n; i++)
      for (size_t j = i; j < n; j++, p++)
        f->A_nat[e * f->na + i * n + j] = f->A_nat[e * f->na + j * n + i] = A[e * np + p];
  memcpy(f->b_nat, b, f->num_elem * f->nb * sizeof(double));
}

/* Outputs (blocked size) filled with the sentinel before a call. */
static inline void fixture_poison(const fixture *f, double *A, double *b) {
  for (size_t i = 0; i < f->padded * f->na; i++) A[i] = FIXTURE_SENTINEL;
  for (size_t i = 0; i < f->padded * f->nb; i++) b[i] = FIXTURE_SENTINEL;
}

/* Check an output (layout lout) against the reference of mesh m and, if
 * A_other/b_other (natural) are given, against them too; padding lanes of a
 * blocked output must still hold the sentinel.  At most 3 lines per call. */
static inline void fixture_check(fixture *f, const char *what, int m, feint_layout lout,
                                 const double *A, const double *b, const double *A_other,
                                 const double *b_other) {
  const size_t B = FEINT_BLOCK_LEN;
  if (lout == FEINT_LAYOUT_BLOCKED)
    for (size_t e = f->num_elem; e < f->padded; e++) {
      const size_t base = e / B * B, lane = e % B;
      for (size_t k = 0; k < f->na; k++)
        CHECK(A[base * f->na + k * B + lane] == FIXTURE_SENTINEL,
              "%s: padding lane %zu of A_e was written", what, e);
      for (size_t k = 0; k < f->nb; k++)
        CHECK(b[base * f->nb + k * B + lane] == FIXTURE_SENTINEL,
              "%s: padding lane %zu of b_e was written", what, e);
    }
  fixture_to_natural(f, lout, A, b);
  const double scale = 2.0 * (f->n_terms + 16.0);
  int reported = 0;
  for (size_t i = 0; i < f->num_elem * (f->na + f->nb) && reported < 3; i++) {
    const int is_a = i < f->num_elem * f->na;
    const size_t j = is_a ? i : i - f->num_elem * f->na, size = is_a ? f->na : f->nb;
    const double x = is_a ? f->A_nat[j] : f->b_nat[j];
    const double r = is_a ? f->A_ref[m][j] : f->b_ref[m][j], s = is_a ? f->A_abs[m][j] : f->b_abs[m][j];
    const double *other = is_a ? A_other : b_other;
    if (!test_close(x, r, scale, s, 1.0) || (other && !test_close(x, other[j], scale, s, 1.0))) {
      TEST_FAIL("%s: element %zu %s[%zu] = %.17g, reference %.17g%s, diff %.3g, tol %.3g", what,
                j / size, is_a ? "A" : "b", j % size, x, r, other ? " (or the other run)" : "",
                fabs(x - r), scale * DBL_EPSILON * s);
      reported++;
    }
  }
}

static inline void fixture_free(fixture *f) {
  for (int l = 0; l < 2; l++) free(f->coef[l]);
  for (int m = 0; m < 2; m++) {
    free(f->geo_mesh[m]);
    free(f->geo[m][FEINT_LAYOUT_BLOCKED]);
    free(f->A_ref[m]);
    free(f->b_ref[m]);
    free(f->A_abs[m]);
    free(f->b_abs[m]);
  }
  free(f->A_nat);
  free(f->b_nat);
}

#endif /* FEINT_VARIANT_FIXTURE_H */
