/* t301_variants: every variant x input layout x output layout (natural,
 * blocked, and packed for the symmetric problems) equals the
 * serial reference for every case on >= 10,000 distinct perturbed
 * elements, within the round-off tolerance 2 (n_terms + 16) eps S derived in
 * variant_fixture.h; padding lanes of blocked outputs are never written; the
 * streaming (aligned) and plain (unaligned) output paths agree; in the SSQ
 * and tensor variants, for the symmetric problems, the block of node pair
 * (s, r) is bitwise the transpose of block (r, s) (they evaluate a block
 * below the diagonal as the one above it, transposed: physics.h,
 * tensor_geo_linear.c; a diagonal block of
 * elasticity is symmetric to round-off only, checked against the
 * reference). */
#include "variant_fixture.h"

/* A_nat (natural, after fixture_check): entries of different nodes
 * bitwise symmetric, element by element; at most one line. */
static void check_exact_symmetry(const fixture *f, const char *what) {
  const size_t n = f->nb, nc = n / (size_t)f->ei.num_nodes; /* dofs, components */
  for (size_t e = 0; e < f->num_elem; e++)
    for (size_t i = 0; i < n; i++)
      for (size_t j = (i / nc + 1) * nc; j < n; j++) {
        const double u = f->A_nat[e * f->na + i * n + j], l = f->A_nat[e * f->na + j * n + i];
        if (u != l) {
          TEST_FAIL("%s: element %zu A[%zu][%zu] = %.17g but A[%zu][%zu] = %.17g", what, e, i, j,
                    u, j, i, l);
          return;
        }
      }
}

static void run_case(feint_element el, feint_problem pb) {
  fixture f;
  fixture_setup(&f, el, pb);
  double *A_out = fixture_alloc(f.padded * f.na + 1), *b_out = fixture_alloc(f.padded * f.nb + 1);
  for (int v = 0; v < FEINT_VARIANT_COUNT; v++) {
    feint_variant_info vi;
    feint_variant_get_info((feint_variant)v, &vi);
    const int m = fixture_mesh(&f, (feint_variant)v);
    for (int lin = 0; lin < FEINT_LAYOUT_COUNT; lin++)
      for (int lout = 0; lout < FEINT_LAYOUT_COUNT; lout++)
        for (int shift = 0; shift < 2; shift++) { /* 0: aligned (streaming), 1: unaligned */
          if (shift && lin != lout && lout != FEINT_LAYOUT_PACKED) continue;
          if (!fixture_layouts_ok(&f, lin, lout)) continue;
          char what[160];
          snprintf(what, sizeof what, "%s/%s %s in=%s out=%s%s", f.ei.name,
                   feint_problem_name(pb), vi.name, feint_layout_name(lin),
                   feint_layout_name(lout), shift ? " unaligned" : "");
          double *A = A_out + shift, *b = b_out + shift;
          fixture_poison(&f, A, b);
          const feint_integrate_desc desc = {el, pb, (feint_variant)v, (feint_layout)lin,
                                             (feint_layout)lout, 0, FEINT_TARGET_HOST, 0};
          CHECK_STATUS(feint_integrate(&desc, f.num_elem, f.geo[m][lin], f.coef[lin], A, b),
                       FEINT_SUCCESS, NULL);
          fixture_check(&f, what, m, (feint_layout)lout, A, b, NULL, NULL);
          if (lout == FEINT_LAYOUT_NATURAL && fixture_symmetric(&f) &&
              (v == FEINT_SSQ_GEO_LINEAR || v == FEINT_SSQ_GEO_GENERIC ||
               v == FEINT_TENSOR_GEO_LINEAR))
            check_exact_symmetry(&f, what);
        }
  }
  free(A_out);
  free(b_out);
  fixture_free(&f);
}

int main(void) {
  for (int el = 0; el < FEINT_ELEMENT_COUNT; el++)
    for (int pb = 0; pb < FEINT_PROBLEM_COUNT; pb++) run_case((feint_element)el, (feint_problem)pb);
  return test_finish("t301_variants");
}
