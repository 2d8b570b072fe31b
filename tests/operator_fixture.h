/* operator_fixture.h - a case on a perturbed box mesh with the serial
 * reference's element matrices, and the constrained operator, its diagonal
 * and right-hand side computed from them here (dense in nothing, element by
 * element), for the operator tests (t8xx).
 *
 * Tolerance.  An entry of A^e from a variant is within 2 (n_terms + 16) eps
 * S^e of the reference's (variant_fixture.h; S^e = the reference's sum of
 * absolute terms, >= |A^e|).  Row i of A x sums m products A^e_rs x_s over
 * the elements at the row's vertex, in an order the operator chooses (m eps
 * sum |A^e_rs x_s| for the sum itself, whatever the order or grouping: an
 * assembled entry first sums its element entries, then multiplies).  So
 *   |y_i - y_ref_i| <= 2 (n_terms + 16 + m) eps sum S^e_rs |x_s|,
 * the bound of t703 with |x| as weights.  The diagonal and the right-hand
 * side are sums of the same kind (x = 1 and x = g). */
#ifndef FEINT_OPERATOR_FIXTURE_H
#define FEINT_OPERATOR_FIXTURE_H

#include <stdlib.h>

#include "test_util.h"

typedef struct {
  feint_element el;
  feint_problem pb;
  feint_mesh mesh;
  size_t ne, nv, n; /* elements, vertices, dofs */
  int ns, dpv, nd;  /* nodes, dofs per vertex, dofs per element */
  size_t nc;        /* coefficients per element */
  double *coef;     /* natural */
  double *coef_blk; /* blocked */
  double *Ae, *Se, *be, *Sbe; /* reference element matrices, vectors and scales */
  double n_terms;
  unsigned char *is_bc;
} opfix;

static inline size_t opfix_dof(const opfix *f, size_t e, int r) {
  return (size_t)f->mesh.conn[e * f->ns + r / f->dpv] * f->dpv + (size_t)(r % f->dpv);
}

/* cells per side: nx = ny = nz = cells, perturbation pt (no two elements
 * alike). */
static inline int opfix_setup_pt(opfix *f, feint_element el, feint_problem pb, size_t cells,
                                 feint_perturb pt) {
  memset(f, 0, sizeof *f);
  f->el = el, f->pb = pb;
  if (feint_mesh_box_create(el, cells, cells, cells, pt, 0.1, 11 + el, &f->mesh) != FEINT_SUCCESS)
    return 0;
  feint_element_info ei;
  feint_element_get_info(el, &ei);
  f->ne = f->mesh.num_elem, f->nv = f->mesh.num_vertices;
  f->ns = ei.num_nodes;
  f->dpv = pb == FEINT_ELASTICITY ? 3 : 1;
  f->nd = f->ns * f->dpv;
  f->n = f->nv * (size_t)f->dpv;
  f->n_terms = (double)ei.num_qpts * (pb == FEINT_POISSON ? 3 : pb == FEINT_CONVDIFF ? 16 : 5);
  feint_array_entries(el, pb, FEINT_ARRAY_COEFFS, &f->nc);
  const size_t padded = (f->ne + FEINT_BLOCK_LEN - 1) / FEINT_BLOCK_LEN * FEINT_BLOCK_LEN;
  f->coef = malloc(padded * f->nc * sizeof(double));
  f->coef_blk = malloc(padded * f->nc * sizeof(double));
  test_rng rng = {0x0fe7a700u + (unsigned)(3 * el + pb)};
  for (size_t e = 0; e < f->ne; e++)
    for (size_t k = 0; k < f->nc; k++) {
      double v = test_rng_uniform(&rng, -1.0, 1.0);
      if (pb == FEINT_ELASTICITY && k < 2) v = test_rng_uniform(&rng, 0.5, 1.5); /* lambda, mu */
      f->coef[e * f->nc + k] = v;
    }
  feint_layout_convert(f->ne, f->nc, FEINT_LAYOUT_NATURAL, f->coef, FEINT_LAYOUT_BLOCKED,
                       f->coef_blk);
  double *geo = malloc(f->ne * 3 * f->ns * sizeof(double));
  feint_mesh_gather_geometry(&f->mesh, FEINT_LAYOUT_NATURAL, geo);
  const size_t nd = (size_t)f->nd;
  f->Ae = malloc(f->ne * nd * nd * sizeof(double));
  f->Se = malloc(f->ne * nd * nd * sizeof(double));
  f->be = malloc(f->ne * nd * sizeof(double));
  f->Sbe = malloc(f->ne * nd * sizeof(double));
  const feint_status st =
      feint_integrate_reference(el, pb, f->ne, geo, f->coef, f->Ae, f->be, f->Se, f->Sbe);
  free(geo);
  f->is_bc = calloc(f->n, 1);
  return st == FEINT_SUCCESS;
}

/* The usual perturbation: general for tets, affine otherwise (prisms stay
 * affine, hexahedra boxes: every variant applies). */
static inline int opfix_setup(opfix *f, feint_element el, feint_problem pb, size_t cells) {
  return opfix_setup_pt(f, el, pb, cells,
                        el == FEINT_TET4 ? FEINT_PERTURB_GENERAL : FEINT_PERTURB_AFFINE);
}

static inline void opfix_free(opfix *f) {
  feint_mesh_destroy(&f->mesh);
  free(f->coef), free(f->coef_blk), free(f->Ae), free(f->Se), free(f->be), free(f->Sbe);
  free(f->is_bc);
}

/* Constrain the dofs of the vertices on the box faces x = 0 (tag 1) and
 * z = 1 (tag 6): every component.  *bc: malloc'd list (with repeats: the
 * shared edge), returns its length. */
static inline size_t opfix_bc(opfix *f, uint32_t **bc) {
  size_t n1 = 0, n6 = 0;
  uint32_t *v1 = NULL, *v6 = NULL;
  feint_mesh_face_vertices(&f->mesh, 1, &n1, &v1);
  feint_mesh_face_vertices(&f->mesh, 6, &n6, &v6);
  const size_t dpv = (size_t)f->dpv, cnt = (n1 + n6) * dpv;
  *bc = malloc((cnt ? cnt : 1) * sizeof(uint32_t));
  size_t k = 0;
  for (size_t i = 0; i < n1; i++)
    for (size_t c = 0; c < dpv; c++) (*bc)[k++] = (uint32_t)(v1[i] * dpv + c);
  for (size_t i = 0; i < n6; i++)
    for (size_t c = 0; c < dpv; c++) (*bc)[k++] = (uint32_t)(v6[i] * dpv + c);
  free(v1), free(v6);
  memset(f->is_bc, 0, f->n);
  for (size_t i = 0; i < cnt; i++) f->is_bc[(*bc)[i]] = 1;
  return cnt;
}

/* The unconstrained diagonal from the reference: d[i], its scale s[i] and
 * term count m[i]. */
static inline void opfix_diag(const opfix *f, double *d, double *s, double *m) {
  const int nd = f->nd;
  memset(d, 0, f->n * sizeof(double)), memset(s, 0, f->n * sizeof(double));
  memset(m, 0, f->n * sizeof(double));
  for (size_t e = 0; e < f->ne; e++)
    for (int r = 0; r < nd; r++) {
      const size_t i = opfix_dof(f, e, r);
      d[i] += f->Ae[(e * nd + r) * nd + r];
      s[i] += f->Se[(e * nd + r) * nd + r];
      m[i] += 1;
    }
}

/* y = A_c x (constraints of is_bc) from the reference, with scales and
 * counts (the tolerance of the header). */
static inline void opfix_apply(const opfix *f, const double *x, double *y, double *s, double *m) {
  const int nd = f->nd;
  double *d = malloc(f->n * sizeof(double)), *ds = malloc(f->n * sizeof(double));
  double *dm = malloc(f->n * sizeof(double));
  opfix_diag(f, d, ds, dm);
  memset(y, 0, f->n * sizeof(double)), memset(s, 0, f->n * sizeof(double));
  memset(m, 0, f->n * sizeof(double));
  for (size_t e = 0; e < f->ne; e++)
    for (int r = 0; r < nd; r++) {
      const size_t i = opfix_dof(f, e, r);
      if (f->is_bc[i]) continue;
      for (int c = 0; c < nd; c++) {
        const size_t j = opfix_dof(f, e, c);
        if (f->is_bc[j]) continue;
        y[i] += f->Ae[(e * nd + r) * nd + c] * x[j];
        s[i] += f->Se[(e * nd + r) * nd + c] * fabs(x[j]);
        m[i] += 1;
      }
    }
  for (size_t i = 0; i < f->n; i++)
    if (f->is_bc[i]) y[i] = d[i] * x[i], s[i] = ds[i] * fabs(x[i]), m[i] = dm[i];
  free(d), free(ds), free(dm);
}

/* b = load lifted by g (g: [n], values at constrained dofs, 0 elsewhere),
 * b_i = a_ii g_i on constrained rows; scales and counts. */
static inline void opfix_rhs(const opfix *f, const double *g, double *b, double *s, double *m) {
  const int nd = f->nd;
  double *d = malloc(f->n * sizeof(double)), *ds = malloc(f->n * sizeof(double));
  double *dm = malloc(f->n * sizeof(double));
  opfix_diag(f, d, ds, dm);
  memset(b, 0, f->n * sizeof(double)), memset(s, 0, f->n * sizeof(double));
  memset(m, 0, f->n * sizeof(double));
  for (size_t e = 0; e < f->ne; e++)
    for (int r = 0; r < nd; r++) {
      const size_t i = opfix_dof(f, e, r);
      b[i] += f->be[e * nd + r];
      s[i] += f->Sbe[e * nd + r];
      m[i] += 1;
      if (f->is_bc[i]) continue;
      for (int c = 0; c < nd; c++) {
        const size_t j = opfix_dof(f, e, c);
        if (!f->is_bc[j]) continue;
        b[i] -= f->Ae[(e * nd + r) * nd + c] * g[j];
        s[i] += f->Se[(e * nd + r) * nd + c] * fabs(g[j]);
        m[i] += 1;
      }
    }
  for (size_t i = 0; i < f->n; i++)
    if (f->is_bc[i]) b[i] = d[i] * g[i], s[i] = ds[i] * fabs(g[i]), m[i] = dm[i];
  free(d), free(ds), free(dm);
}

/* Compare v with the reference; returns the number of mismatches (the
 * first few reported). */
static inline int opfix_compare(const opfix *f, const char *what, const double *v,
                                const double *ref, const double *s, const double *m) {
  int bad = 0;
  for (size_t i = 0; i < f->n; i++) {
    const double tol = 2.0 * (f->n_terms + 16.0 + m[i]) * DBL_EPSILON * s[i];
    if (!(fabs(v[i] - ref[i]) <= tol)) {
      if (bad++ < 3)
        TEST_FAIL("%s %s/%s: dof %zu observed %.17g expected %.17g diff %.3g tol %.3g", what,
                  feint_element_name(f->el), feint_problem_name(f->pb), i, v[i], ref[i],
                  fabs(v[i] - ref[i]), tol);
    }
  }
  return bad;
}

#endif /* FEINT_OPERATOR_FIXTURE_H */
