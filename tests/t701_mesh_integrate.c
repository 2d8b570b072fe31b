/* t701 (range t7xx: mesh integration and assembly) - feint_integrate_mesh:
 * every variant, case, coefficient and output layout, host and device code
 * (host fallback without a GPU), equals the serial reference on the
 * geometry gathered here; bad meshes and arguments get named statuses and
 * leave the outputs untouched.
 * Tolerance: that of the variant tests (variant_fixture.h),
 * |x - x_ref| <= 2 (n_terms + 16) eps S, S from feint_integrate_reference. */
#include <stdlib.h>

#include <omp.h>

#include "mesh_fixture.h"
#include "test_util.h"

#define SENTINEL -777.0

static void check_case(feint_element el, feint_problem pb, int perturb) {
  feint_mesh m;
  fix_mesh_box(&m, el, 3, perturb, 0.2, 11 + el); /* 162 tets / 54 prisms / 27 hexes */
  const size_t ne = m.num_elem, B = FEINT_BLOCK_LEN, padded = (ne + B - 1) / B * B;
  size_t nc, na, nb;
  feint_array_entries(el, pb, FEINT_ARRAY_COEFFS, &nc);
  feint_array_entries(el, pb, FEINT_ARRAY_A, &na);
  feint_array_entries(el, pb, FEINT_ARRAY_B, &nb);
  feint_element_info ei;
  feint_element_get_info(el, &ei);
  const double n_terms =
      (double)ei.num_qpts * (pb == FEINT_POISSON ? 3 : pb == FEINT_CONVDIFF ? 16 : 5);
  double *coef[2] = {malloc(padded * nc * sizeof(double)), malloc(padded * nc * sizeof(double))};
  test_rng rng = {99 + (uint64_t)(2 * el + pb)};
  for (size_t i = 0; i < ne * nc; i++) /* elasticity: lambda, mu admissible */
    coef[0][i] = pb == FEINT_ELASTICITY && i % nc < 2 ? test_rng_uniform(&rng, 0.1, 2.0)
                                                      : test_rng_uniform(&rng, -1.0, 1.0);
  feint_layout_convert(ne, nc, FEINT_LAYOUT_NATURAL, coef[0], FEINT_LAYOUT_BLOCKED, coef[1]);
  double *geo = fix_gather(&m);
  double *A_ref = malloc(ne * na * sizeof(double)), *b_ref = malloc(ne * nb * sizeof(double));
  double *A_abs = malloc(ne * na * sizeof(double)), *b_abs = malloc(ne * nb * sizeof(double));
  CHECK_STATUS(feint_integrate_reference(el, pb, ne, geo, coef[0], A_ref, b_ref, A_abs, b_abs),
               FEINT_SUCCESS, NULL);
  double *A = malloc(padded * na * sizeof(double)), *b = malloc(padded * nb * sizeof(double));
  double *An = malloc(ne * na * sizeof(double)), *bn = malloc(ne * nb * sizeof(double));
  for (int v = 0; v < FEINT_VARIANT_COUNT; v++) {
    feint_variant_info vi;
    feint_variant_get_info((feint_variant)v, &vi);
    if (vi.geo_linear && el != FEINT_TET4 && perturb == FIX_GENERAL) {
      /* non-affine prisms and hexes: geo_linear must refuse, naming the element */
      feint_integrate_desc d = {el, pb, (feint_variant)v, 0, 0, 0, FEINT_TARGET_HOST, 0};
      A[0] = SENTINEL;
      CHECK_STATUS(feint_integrate_mesh(&d, &m, coef[0], A, b), FEINT_ERR_NOT_AFFINE,
                   "is not affine");
      CHECK(A[0] == SENTINEL, "output written on error");
      continue;
    }
    for (int t = 0; t < FEINT_TARGET_COUNT; t++)
      for (int lin = 0; lin < 2; lin++)
        for (int lout = 0; lout < 2; lout++) {
          feint_integrate_desc d = {el, pb, (feint_variant)v, (feint_layout)lin, (feint_layout)lout,
                                    t == FEINT_TARGET_DEVICE ? FEINT_FLAG_ALLOW_HOST_FALLBACK : 0,
                                    (feint_target)t, 0};
          feint_status st = feint_integrate_mesh(&d, &m, coef[lin], A, b);
          CHECK(st == FEINT_SUCCESS, "%s %s %s target %d: status %d %s", feint_element_name(el),
                feint_problem_name(pb), vi.name, t, st, feint_last_error());
          if (st != FEINT_SUCCESS) continue;
          feint_layout_convert(ne, na, (feint_layout)lout, A, FEINT_LAYOUT_NATURAL, An);
          feint_layout_convert(ne, nb, (feint_layout)lout, b, FEINT_LAYOUT_NATURAL, bn);
          int bad = 0;
          for (size_t i = 0; i < ne * na && !bad; i++)
            if (!test_close(An[i], A_ref[i], 2 * (n_terms + 16), A_abs[i], 1.0)) {
              bad = 1;
              TEST_FAIL("%s %s %s target %d lin %d lout %d: A[%zu] = %.17g, reference %.17g",
                        feint_element_name(el), feint_problem_name(pb), vi.name, t, lin, lout,
                        i, An[i], A_ref[i]);
            }
          for (size_t i = 0; i < ne * nb && !bad; i++)
            if (!test_close(bn[i], b_ref[i], 2 * (n_terms + 16), b_abs[i], 1.0)) {
              bad = 1;
              TEST_FAIL("%s %s %s target %d: b[%zu] = %.17g, reference %.17g",
                        feint_element_name(el), feint_problem_name(pb), vi.name, t, i, bn[i],
                        b_ref[i]);
            }
        }
  }
  free(coef[0]), free(coef[1]), free(geo), free(A_ref), free(b_ref), free(A_abs), free(b_abs);
  free(A), free(b), free(An), free(bn);
  fix_mesh_free(&m);
}

static void check_errors(void) {
  feint_mesh m;
  fix_mesh_box(&m, FEINT_TET4, 2, FIX_GENERAL, 0.2, 5);
  const size_t ne = m.num_elem;
  double *coef = calloc(ne * 4, sizeof(double)), *A = malloc(ne * 16 * sizeof(double));
  double *b = malloc(ne * 4 * sizeof(double));
  feint_integrate_desc d = {FEINT_TET4, FEINT_POISSON, FEINT_QSS_GEO_LINEAR, 0, 0, 0, 0, 0};
  A[0] = b[0] = SENTINEL;
  CHECK_STATUS(feint_integrate_mesh(NULL, &m, coef, A, b), FEINT_ERR_NULL_ARG, "desc");
  CHECK_STATUS(feint_integrate_mesh(&d, NULL, coef, A, b), FEINT_ERR_NULL_ARG, "mesh");
  CHECK_STATUS(feint_integrate_mesh(&d, &m, NULL, A, b), FEINT_ERR_NULL_ARG, "coeffs");
  CHECK_STATUS(feint_integrate_mesh(&d, &m, coef, NULL, b), FEINT_ERR_NULL_ARG, "A_e");
  d.element = FEINT_PRISM6;
  CHECK_STATUS(feint_integrate_mesh(&d, &m, coef, A, b), FEINT_ERR_UNSUPPORTED, "mesh->element");
  d.element = FEINT_TET4;
  d.problem = FEINT_POISSON_KAPPA;
  CHECK_STATUS(feint_integrate_mesh(&d, &m, coef, A, b), FEINT_ERR_UNSUPPORTED,
               "per-quadrature-point coefficients not yet");
  d.problem = FEINT_ELASTICITY_QP;
  CHECK_STATUS(feint_integrate_mesh(&d, &m, coef, A, b), FEINT_ERR_UNSUPPORTED,
               "per-quadrature-point coefficients not yet");
  d.problem = FEINT_POISSON;
  {
    /* elasticity with mu < 0 in element 5: FEINT_ERR_BAD_COEFF, named */
    const size_t nce = 2 + 3 * 4;
    double *ce = calloc(ne * nce, sizeof(double)), *Ae = malloc(ne * 144 * sizeof(double));
    double *be = malloc(ne * 12 * sizeof(double));
    for (size_t e = 0; e < ne; e++) ce[e * nce] = ce[e * nce + 1] = 1.0;
    ce[5 * nce + 1] = -1.0;
    Ae[0] = SENTINEL;
    feint_integrate_desc de = d;
    de.problem = FEINT_ELASTICITY;
    CHECK_STATUS(feint_integrate_mesh(&de, &m, ce, Ae, be), FEINT_ERR_BAD_COEFF, "element 5");
    CHECK(Ae[0] == SENTINEL, "output written on error");
    ce[5 * nce + 1] = 1.0;
    CHECK_STATUS(feint_integrate_mesh(&de, &m, ce, Ae, be), FEINT_SUCCESS, NULL);
    free(ce), free(Ae), free(be);
  }
  d.target = FEINT_TARGET_DEVICE;
  d.flags = FEINT_FLAG_DEVICE_POINTERS;
  CHECK_STATUS(feint_integrate_mesh(&d, &m, coef, A, b), FEINT_ERR_UNSUPPORTED,
               "FEINT_FLAG_DEVICE_POINTERS");
  d.flags = 0;
  int ndev = 0;
  feint_device_count(&ndev);
  if (ndev == 0)
    CHECK_STATUS(feint_integrate_mesh(&d, &m, coef, A, b), FEINT_ERR_NO_DEVICE,
                 "FEINT_FLAG_ALLOW_HOST_FALLBACK");
  d.target = FEINT_TARGET_HOST;
  /* connectivity index out of range: named element and node */
  const uint32_t saved = m.conn[4 * 7 + 2];
  m.conn[4 * 7 + 2] = (uint32_t)m.num_vertices;
  CHECK_STATUS(feint_integrate_mesh(&d, &m, coef, A, b), FEINT_ERR_OUT_OF_RANGE,
               "element 7 node 2");
  m.conn[4 * 7 + 2] = m.conn[4 * 7 + 1]; /* repeated vertex */
  CHECK_STATUS(feint_integrate_mesh(&d, &m, coef, A, b), FEINT_ERR_DEGENERATE,
               "element 7 repeats vertex");
  m.conn[4 * 7 + 2] = saved;
  /* inverted element: swap two nodes */
  uint32_t *v = m.conn + 4 * 9;
  uint32_t tmp = v[1];
  v[1] = v[2], v[2] = tmp;
  CHECK_STATUS(feint_integrate_mesh(&d, &m, coef, A, b), FEINT_ERR_DEGENERATE, "element 9");
  v[2] = v[1], v[1] = tmp;
  /* NaN coordinate: the vertex is named (feint_mesh_check) */
  const uint32_t w = m.conn[4 * 12 + 3];
  char msg[64];
  snprintf(msg, sizeof msg, "vertex %u has coordinate x", w);
  const double x0 = m.coords[3 * w];
  m.coords[3 * w] = NAN;
  CHECK_STATUS(feint_integrate_mesh(&d, &m, coef, A, b), FEINT_ERR_NOT_FINITE, msg);
  m.coords[3 * w] = x0;
  /* empty mesh: a no-op, but desc is still checked; no coordinates: named */
  feint_mesh empty = m;
  empty.num_elem = 0;
  CHECK_STATUS(feint_integrate_mesh(&d, &empty, coef, A, b), FEINT_SUCCESS, NULL);
  d.flags = 0x40000000u;
  CHECK_STATUS(feint_integrate_mesh(&d, &empty, coef, A, b), FEINT_ERR_OUT_OF_RANGE, "flags");
  d.flags = 0;
  /* an output overlapping another array of the call (feint_integrate's
   * rule): b_e inside A_e, b_e on the coefficients (the same length) */
  CHECK_STATUS(feint_integrate_mesh(&d, &m, coef, A, A + 8), FEINT_ERR_UNSUPPORTED,
               "feint_integrate_mesh(): A_e overlaps b_e");
  CHECK_STATUS(feint_integrate_mesh(&d, &m, coef, A, coef), FEINT_ERR_UNSUPPORTED,
               "b_e overlaps coeffs");
  CHECK_STATUS(feint_integrate_mesh(&d, &m, coef, A, m.coords), FEINT_ERR_UNSUPPORTED,
               "b_e overlaps mesh->coords");
  feint_mesh nocoords = m;
  nocoords.coords = NULL;
  CHECK_STATUS(feint_integrate_mesh(&d, &nocoords, coef, A, b), FEINT_ERR_NULL_ARG,
               "mesh->coords");
  CHECK(A[0] == SENTINEL && b[0] == SENTINEL, "outputs written on error");
  CHECK_STATUS(feint_integrate_mesh(&d, &m, coef, A, b), FEINT_SUCCESS, NULL);
  free(coef), free(A), free(b);
  fix_mesh_free(&m);
}

/* The element checks find the first bad element of the whole mesh,
 * wherever it sits in its block of FEINT_BLOCK_LEN (the scan gathers a
 * block's coordinates through the connectivity, padding a partial last
 * block with its first element), for any thread count: single and paired
 * inverted elements, in a mesh cut to 45 elements (a partial last block),
 * a non-finite coefficient there, and geometry named before coefficients. */
static void check_first_findings(void) {
  feint_mesh m;
  fix_mesh_box(&m, FEINT_TET4, 2, FIX_GENERAL, 0.2, 7);
  m.num_elem = 45; /* 48 in the box: the last block holds 45 - 40 = 5 */
  const size_t ne = m.num_elem;
  double *coef = calloc(ne * 4, sizeof(double)), *A = malloc(ne * 16 * sizeof(double));
  double *b = malloc(ne * 4 * sizeof(double));
  feint_integrate_desc d = {FEINT_TET4, FEINT_POISSON, FEINT_QSS_GEO_LINEAR, 0, 0, 0, 0, 0};
  const size_t at[][2] = {{0, 44}, {7, 8}, {8, 40}, {23, 44}, {40, 41}, {44, 44}, {31, 39}};
  const int threads_before = omp_get_max_threads();
  for (int threads = 1; threads <= 3; threads++) {
    omp_set_num_threads(threads);
    for (size_t k = 0; k < sizeof at / sizeof at[0]; k++) {
      uint32_t *v[2] = {m.conn + 4 * at[k][0], m.conn + 4 * at[k][1]};
      for (int j = 0; j < 1 + (at[k][1] != at[k][0]); j++) { /* invert: swap nodes 1, 2 */
        const uint32_t t = v[j][1];
        v[j][1] = v[j][2], v[j][2] = t;
      }
      char msg[64];
      snprintf(msg, sizeof msg, "mesh element %zu is", at[k][0]);
      A[0] = SENTINEL;
      CHECK_STATUS(feint_integrate_mesh(&d, &m, coef, A, b), FEINT_ERR_DEGENERATE, msg);
      CHECK(A[0] == SENTINEL, "output written on error");
      coef[4 * at[k][1] + 1] = NAN; /* geometry is named first */
      CHECK_STATUS(feint_integrate_mesh(&d, &m, coef, A, b), FEINT_ERR_DEGENERATE, msg);
      for (int j = 0; j < 1 + (at[k][1] != at[k][0]); j++) {
        const uint32_t t = v[j][1];
        v[j][1] = v[j][2], v[j][2] = t;
      }
      snprintf(msg, sizeof msg, "coeffs of element %zu are not finite", at[k][1]);
      CHECK_STATUS(feint_integrate_mesh(&d, &m, coef, A, b), FEINT_ERR_UNSUPPORTED, msg);
      coef[4 * at[k][1] + 1] = 0.0;
    }
    CHECK_STATUS(feint_integrate_mesh(&d, &m, coef, A, b), FEINT_SUCCESS, NULL);
  }
  omp_set_num_threads(threads_before);
  m.num_elem = 48;
  free(coef), free(A), free(b);
  fix_mesh_free(&m);
}

int main(void) {
  for (int el = 0; el < FEINT_ELEMENT_COUNT; el++)
    for (int pb = 0; pb <= FEINT_ELASTICITY; pb++) { /* per-point problems: refused */
      check_case((feint_element)el, (feint_problem)pb, FIX_GENERAL);
      if (el != FEINT_TET4) check_case((feint_element)el, (feint_problem)pb, FIX_AFFINE);
    }
  check_errors();
  check_first_findings();
  return test_finish("t701_mesh_integrate");
}
