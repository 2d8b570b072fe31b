/* t301_variants: every variant x input layout x output layout equals the
 * serial reference for all four cases on >= 10,000 distinct perturbed
 * elements, within a round-off tolerance; padding lanes of blocked outputs
 * are never written; the streaming (aligned) and plain (unaligned) output
 * paths agree.
 *
 * Tolerance.  Entry x of A^e or b^e is a sum of n_terms terms
 * t = vol * c * psi_r * psi_s (Poisson: N_Q * 3 terms per entry of A,
 * conv-diff: N_Q * 16).  S (A_abs, b_abs of feint_integrate_reference) is the
 * sum of |t| with every derivative replaced by the scale of its round-off
 * (cofactors and det J in absolute values): each factor of a term is then
 * known to a few eps relative to its scale (cofactor 3 roundings, det 4,
 * division 1, derivative sum 3, products 3, vol 1: 15 <= 16), and the
 * variant and the reference sum the terms in different orders (n_terms eps).
 * Both sides carry such errors, hence
 *   |x - x_ref| <= 2 (n_terms + 16) eps S. */
#include <stdlib.h>

#include "test_util.h"

#define NUM_CELLS_TET 12 /* 6 * 12^3 = 10368 tetrahedra */
#define NUM_CELLS_PRISM 18 /* 2 * 18 * 18 * 16 = 10368 prisms */

static double *alloc_doubles(size_t n) {
  const size_t bytes = ((n + 8) * sizeof(double) + 63) / 64 * 64;
  void *p = aligned_alloc(64, bytes);
  if (p == NULL) {
    fprintf(stderr, "allocation of %zu doubles failed\n", n);
    exit(2);
  }
  return p;
}

static void run_case(feint_element el, feint_problem pb) {
  feint_element_info ei;
  feint_element_get_info(el, &ei);
  const size_t cells = el == FEINT_TET4 ? NUM_CELLS_TET : NUM_CELLS_PRISM;
  const size_t nz = el == FEINT_TET4 ? cells : 16;
  size_t mesh_elem;
  feint_mesh_box_count(el, cells, cells, nz, &mesh_elem);
  const size_t num_elem = mesh_elem - 3; /* a partial last block */
  size_t ng, nc, na, nb;
  feint_array_entries(el, pb, FEINT_ARRAY_GEOMETRY, &ng);
  feint_array_entries(el, pb, FEINT_ARRAY_COEFFS, &nc);
  feint_array_entries(el, pb, FEINT_ARRAY_A, &na);
  feint_array_entries(el, pb, FEINT_ARRAY_B, &nb);
  const size_t padded = (num_elem + FEINT_BLOCK_LEN - 1) / FEINT_BLOCK_LEN * FEINT_BLOCK_LEN;

  /* two meshes: generally perturbed (for geo_generic) and affine-perturbed
   * (for geo_linear; identical to the general one for tetrahedra) */
  double *geo_mesh[2], *geo_in[2][2], *coef_in[2];
  double *coef = alloc_doubles(padded * nc);
  test_rng rng = {0x5eed0000u + (unsigned)(2 * el + pb)};
  for (size_t i = 0; i < num_elem * nc; i++) coef[i] = test_rng_uniform(&rng, -1.0, 1.0);
  for (int m = 0; m < 2; m++) {
    geo_mesh[m] = alloc_doubles(mesh_elem * ng);
    CHECK_STATUS(feint_mesh_box(el, cells, cells, nz,
                                m == 0 ? FEINT_PERTURB_GENERAL : FEINT_PERTURB_AFFINE, 0.2,
                                1234 + m, FEINT_LAYOUT_NATURAL, geo_mesh[m]),
                 FEINT_SUCCESS, NULL);
    geo_in[m][FEINT_LAYOUT_NATURAL] = geo_mesh[m];
    geo_in[m][FEINT_LAYOUT_BLOCKED] = alloc_doubles(padded * ng);
    feint_layout_convert(num_elem, ng, FEINT_LAYOUT_NATURAL, geo_mesh[m], FEINT_LAYOUT_BLOCKED,
                         geo_in[m][FEINT_LAYOUT_BLOCKED]);
  }
  coef_in[FEINT_LAYOUT_NATURAL] = coef;
  coef_in[FEINT_LAYOUT_BLOCKED] = alloc_doubles(padded * nc);
  feint_layout_convert(num_elem, nc, FEINT_LAYOUT_NATURAL, coef, FEINT_LAYOUT_BLOCKED,
                       coef_in[FEINT_LAYOUT_BLOCKED]);

  /* references and round-off scales */
  double *A_ref[2], *b_ref[2], *A_abs[2], *b_abs[2];
  for (int m = 0; m < 2; m++) {
    A_ref[m] = alloc_doubles(num_elem * na);
    b_ref[m] = alloc_doubles(num_elem * nb);
    A_abs[m] = alloc_doubles(num_elem * na);
    b_abs[m] = alloc_doubles(num_elem * nb);
    CHECK_STATUS(feint_integrate_reference(el, pb, num_elem, geo_mesh[m], coef, A_ref[m], b_ref[m],
                                           A_abs[m], b_abs[m]),
                 FEINT_SUCCESS, NULL);
  }
  const double n_terms = (double)ei.num_qpts * (pb == FEINT_POISSON ? 3 : 16);

  double *A_out = alloc_doubles(padded * na + 1), *b_out = alloc_doubles(padded * nb + 1);
  double *A_nat = alloc_doubles(num_elem * na), *b_nat = alloc_doubles(num_elem * nb);
  for (int v = 0; v < FEINT_VARIANT_COUNT; v++) {
    feint_variant_info vi;
    feint_variant_get_info((feint_variant)v, &vi);
    const int m = vi.geo_linear && el == FEINT_PRISM6 ? 1 : 0;
    for (int lin = 0; lin < FEINT_LAYOUT_COUNT; lin++)
      for (int lout = 0; lout < FEINT_LAYOUT_COUNT; lout++)
        for (int shift = 0; shift < 2; shift++) { /* 0: aligned (streaming), 1: unaligned */
          if (shift && lin != lout) continue;
          char what[160];
          snprintf(what, sizeof what, "%s/%s %s in=%s out=%s%s", ei.name, feint_problem_name(pb),
                   vi.name, feint_layout_name(lin), feint_layout_name(lout),
                   shift ? " unaligned" : "");
          double *A = A_out + shift, *b = b_out + shift;
          for (size_t i = 0; i < padded * na; i++) A[i] = -777.0; /* sentinel */
          for (size_t i = 0; i < padded * nb; i++) b[i] = -777.0;
          const feint_integrate_desc desc = {el, pb, (feint_variant)v, (feint_layout)lin,
                                             (feint_layout)lout, 0, FEINT_TARGET_HOST, 0};
          CHECK_STATUS(feint_integrate(&desc, num_elem, geo_in[m][lin], coef_in[lin], A, b),
                       FEINT_SUCCESS, NULL);
          feint_layout_convert(num_elem, na, lout, A, FEINT_LAYOUT_NATURAL, A_nat);
          feint_layout_convert(num_elem, nb, lout, b, FEINT_LAYOUT_NATURAL, b_nat);
          if (lout == FEINT_LAYOUT_BLOCKED) /* padding lanes of the last block untouched */
            for (size_t e = num_elem; e < padded; e++) {
              const size_t base = (e / FEINT_BLOCK_LEN) * FEINT_BLOCK_LEN, lane = e % FEINT_BLOCK_LEN;
              for (size_t k = 0; k < na; k++)
                CHECK(A[base * na + k * FEINT_BLOCK_LEN + lane] == -777.0,
                      "%s: padding lane %zu of A_e was written", what, e);
              for (size_t k = 0; k < nb; k++)
                CHECK(b[base * nb + k * FEINT_BLOCK_LEN + lane] == -777.0,
                      "%s: padding lane %zu of b_e was written", what, e);
            }
          int reported = 0;
          for (size_t e = 0; e < num_elem && reported < 3; e++) {
            const double scale = 2.0 * (n_terms + 16.0);
            for (size_t k = 0; k < na; k++) {
              const size_t i = e * na + k;
              if (!test_close(A_nat[i], A_ref[m][i], scale, A_abs[m][i], 1.0)) {
                TEST_FAIL("%s: element %zu A[%zu] = %.17g, reference %.17g, diff %.3g, tol %.3g",
                          what, e, k, A_nat[i], A_ref[m][i], fabs(A_nat[i] - A_ref[m][i]),
                          scale * DBL_EPSILON * A_abs[m][i]);
                reported++;
              }
            }
            for (size_t k = 0; k < nb; k++) {
              const size_t i = e * nb + k;
              if (!test_close(b_nat[i], b_ref[m][i], scale, b_abs[m][i], 1.0)) {
                TEST_FAIL("%s: element %zu b[%zu] = %.17g, reference %.17g, diff %.3g, tol %.3g",
                          what, e, k, b_nat[i], b_ref[m][i], fabs(b_nat[i] - b_ref[m][i]),
                          scale * DBL_EPSILON * b_abs[m][i]);
                reported++;
              }
            }
          }
        }
  }
  free(A_out); free(b_out); free(A_nat); free(b_nat); free(coef); free(coef_in[1]);
  for (int m = 0; m < 2; m++) {
    free(geo_mesh[m]); free(geo_in[m][1]); free(A_ref[m]); free(b_ref[m]);
    free(A_abs[m]); free(b_abs[m]);
  }
}

int main(void) {
  for (int el = 0; el < FEINT_ELEMENT_COUNT; el++)
    for (int pb = 0; pb < FEINT_PROBLEM_COUNT; pb++) run_case((feint_element)el, (feint_problem)pb);
  return test_finish("t301_variants");
}
