/* t707 (t7xx: mesh integration and assembly) - the assembled patch test of
 * linear elasticity: on a patch of distorted elements (tet4; prism6 and
 * hex8 affine with every variant, non-affine with the geo_generic ones),
 * constant lambda and mu, zero body force, feint_assemble's A and b:
 *  - a linear displacement u(x) = a + B x (B a general 3 x 3 matrix) gives
 *    (A u)_i = 0 at every dof not on the patch boundary (the discrete
 *    equilibrium of a constant stress: sum_e int_e sigma grad phi_i = 0 for
 *    an interior vertex, and the element rules integrate grad phi_i det J
 *    exactly for the trilinear hex and the prism);
 *  - a rigid-body field u(x) = a + W x (W skew) gives A u = 0 at every dof;
 *  - b = 0.
 * Tolerance, from round-off: (A u)_i sums, over the m <= 24 elements at
 * vertex i and the L entries of row i, the products A^e_rs u_s, each A^e_rs
 * computed with n_terms + 16 roundings (variant_fixture.h), so
 *   |(A u)_i| <= (n_terms + 16 + 24 + L) eps sum_e sum_s |A^e_rs| |u_s|
 * (A^e from feint_integrate_reference).  The observed worst case is below
 * 1 eps times that sum; a change of lambda by 1e-9 in one element fails.
 * (The reference's own round-off scales, which model the cancellation in
 * x_n - x_0 far from the origin, are ~1e15 here: too loose to test.) */
#include <stdlib.h>

#include "mesh_fixture.h"
#include "test_util.h"

static void patch(feint_element el, int perturb, feint_variant var,
                  feint_assemble_strategy strat) {
  feint_mesh m;
  fix_mesh_box(&m, el, 4, perturb, 0.3, 31 + (uint64_t)el);
  const int ns = fix_nodes(el), nd = 3 * ns;
  const size_t ne = m.num_elem, nv = m.num_vertices, n = 3 * nv;
  size_t nc;
  feint_array_entries(el, FEINT_ELASTICITY, FEINT_ARRAY_COEFFS, &nc);
  feint_element_info ei;
  feint_element_get_info(el, &ei);
  const double n_terms = 5.0 * ei.num_qpts;
  double *coef = calloc(ne * nc, sizeof(double)); /* body force 0 */
  for (size_t e = 0; e < ne; e++) coef[e * nc] = 1.3, coef[e * nc + 1] = 0.7;
  feint_csr A;
  feint_assembly *plan;
  CHECK_STATUS(feint_csr_create(&m, 3, &A), FEINT_SUCCESS, NULL);
  CHECK_STATUS(feint_assembly_create(&m, &plan), FEINT_SUCCESS, NULL);
  double *b = malloc(n * sizeof(double));
  feint_integrate_desc d = {el, FEINT_ELASTICITY, var, 0, 0, 0, 0, 0};
  feint_variant_info vi;
  feint_variant_get_info(var, &vi);
  char what[128];
  snprintf(what, sizeof what, "%s %s %s %s", feint_element_name(el),
           perturb == FIX_AFFINE ? "affine" : "distorted", vi.name,
           strat == FEINT_ASSEMBLE_COLOURING ? "colouring" : "atomics");
  feint_status st = feint_assemble(&d, strat, &m, plan, coef, &A, b);
  CHECK(st == FEINT_SUCCESS, "%s: status %d %s", what, st, feint_last_error());
  /* element scales for the tolerance */
  double *geo = fix_gather(&m);
  double *Ae = malloc(ne * nd * nd * sizeof(double)), *be = malloc(ne * nd * sizeof(double));
  double *Aa = malloc(ne * nd * nd * sizeof(double)), *ba = malloc(ne * nd * sizeof(double));
  CHECK_STATUS(feint_integrate_reference(el, FEINT_ELASTICITY, ne, geo, coef, Ae, be, Aa, ba),
               FEINT_SUCCESS, NULL);
  size_t nb = 0;
  uint32_t *bv = NULL;
  CHECK_STATUS(feint_mesh_face_vertices(&m, -1, &nb, &bv), FEINT_SUCCESS, NULL);
  unsigned char *on_bnd = calloc(nv, 1);
  for (size_t k = 0; k < nb; k++) on_bnd[bv[k]] = 1;
  for (size_t i = 0; i < n && st == FEINT_SUCCESS; i++)
    CHECK(b[i] == 0.0, "%s: b[%zu] = %.3g with zero body force", what, i, b[i]);
  const double a[3] = {0.3, -1.1, 0.7};
  const double B[2][3][3] = {{{0.9, -0.4, 1.2}, {0.5, 1.7, -0.8}, {-1.3, 0.6, 0.4}}, /* general */
                             {{0.0, -0.6, 1.1}, {0.6, 0.0, -0.9}, {-1.1, 0.9, 0.0}}}; /* skew */
  double *u = malloc(n * sizeof(double)), *scale = malloc(n * sizeof(double));
  for (int field = 0; field < 2 && st == FEINT_SUCCESS; field++) {
    for (size_t v = 0; v < nv; v++)
      for (int c = 0; c < 3; c++) {
        const double *x = m.coords + 3 * v;
        u[3 * v + c] = a[c] + B[field][c][0] * x[0] + B[field][c][1] * x[1] + B[field][c][2] * x[2];
      }
    for (size_t i = 0; i < n; i++) scale[i] = 0.0;
    for (size_t e = 0; e < ne; e++)
      for (int r = 0; r < nd; r++)
        for (int s = 0; s < nd; s++)
          scale[3 * m.conn[e * ns + r / 3] + r % 3] +=
              fabs(Ae[(e * nd + r) * nd + s]) * fabs(u[3 * m.conn[e * ns + s / 3] + s % 3]);
    size_t checked = 0;
    for (size_t i = 0; i < n; i++) {
      if (field == 0 && on_bnd[i / 3]) continue;
      double y = 0.0;
      for (int64_t k = A.row_ptr[i]; k < A.row_ptr[i + 1]; k++) y += A.values[k] * u[A.col_idx[k]];
      const double len = (double)(A.row_ptr[i + 1] - A.row_ptr[i]);
      checked++;
      if (!test_close(y, 0.0, n_terms + 16 + 24 + len, scale[i], 1.0)) {
        TEST_FAIL("%s: %s field: (A u)[%zu] = %.3g, round-off bound %.3g", what,
                  field ? "rigid-body" : "linear", i, y,
                  (n_terms + 16 + 24 + len) * DBL_EPSILON * scale[i]);
        break;
      }
    }
    CHECK(checked >= (field ? n : 3 * (size_t)27), "%s: only %zu dofs checked", what, checked);
  }
  free(u), free(scale), free(on_bnd), free(bv), free(geo), free(Ae), free(be), free(Aa), free(ba);
  free(b), free(coef);
  feint_assembly_destroy(plan);
  feint_csr_destroy(&A);
  fix_mesh_free(&m);
}

int main(void) {
  for (int el = 0; el < FEINT_ELEMENT_COUNT; el++)
    for (int v = 0; v < FEINT_VARIANT_COUNT; v++) {
      feint_variant_info vi;
      feint_variant_get_info((feint_variant)v, &vi);
      /* tets are affine however distorted; prisms and hexes: affine (a
       * prism's top a translate of its bottom, boxes) for every variant,
       * non-affine for the geo_generic ones */
      patch((feint_element)el, el == FEINT_TET4 ? FIX_GENERAL : FIX_AFFINE, (feint_variant)v,
            FEINT_ASSEMBLE_COLOURING);
      if (el != FEINT_TET4 && !vi.geo_linear)
        patch((feint_element)el, FIX_GENERAL, (feint_variant)v,
              v == FEINT_QSS_GEO_GENERIC ? FEINT_ASSEMBLE_ATOMICS : FEINT_ASSEMBLE_COLOURING);
    }
  return test_finish("t707_elasticity_patch");
}
