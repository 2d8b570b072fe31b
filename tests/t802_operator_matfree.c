/* t802 (t8xx: operators) - the matrix-free forms of feint_operator
 * (RECOMPUTE with every variant, PRECOMPUTED) for every case the mesh paths
 * integrate, both scatter strategies (colouring, atomics), host and device
 * code (host fallback without a GPU), with and without Dirichlet
 * constraints, and QPOINT (tet4, hex8 Poisson; hex8 on boxes, one factor per
 * cell, and on general hexahedra, one per point):
 *  - apply, diagonal and rhs equal the constrained operator computed here
 *    from the serial reference's element matrices (operator_fixture.h);
 *  - apply equals the ASSEMBLED form (feint_assemble's CSR matrix, SpMV) on
 *    the same target, and the diagonal its diagonal, to round-off of the
 *    summation alone: both add the same element entries (the same variant's
 *    A^e, computed by the same element function) in different orders, so
 *      |y - y_csr| <= 2 m eps sum_e sum_s |A^e_rs x_s|   (m products per row),
 *    with |A^e| taken from the reference (equal to round-off), when the
 *    operator's variant is the assembled form's (qss_geo_generic); another
 *    variant's entries differ by round-off, each within the fixture's bound
 *    of the reference, so then twice that bound;
 *  - colouring is bitwise reproducible (two applies, 1 and 2 threads), also
 *    on meshes of many host chunks with a short last one, and with the
 *    host's windows cut to a block or two;
 *  - info (symmetric = 0 for conv-diff, form, strategy), device pointers,
 *    and the refusal, by name, of the per-point problems (poisson_kappa,
 *    elasticity_qp), which the mesh paths do not integrate. */
#include <omp.h>

#include "operator_fixture.h"

/* operator/matfree.c: the dofs a host window may touch (internal: the
 * static library the default build links resolves it; the offload build's
 * tests link libfeint.so, which does not export it, so there the window
 * pass below is left out and the default build's runs cover it) */
#ifndef FEINT_OFFLOAD
extern size_t feint_op_window_dofs;
#endif

/* sum_e sum_s |A^e_rs| |x_s| over the unconstrained couplings (rows of
 * constrained dofs: |a_ii x_i|) and the product counts. */
static void abs_apply(const opfix *f, const double *x, double *s, double *m) {
  const int nd = f->nd;
  memset(s, 0, f->n * sizeof(double)), memset(m, 0, f->n * sizeof(double));
  for (size_t e = 0; e < f->ne; e++)
    for (int r = 0; r < nd; r++) {
      const size_t i = opfix_dof(f, e, r);
      for (int c = 0; c < nd; c++) {
        const size_t j = opfix_dof(f, e, c);
        if (f->is_bc[i] ? j != i : f->is_bc[j]) continue;
        s[i] += fabs(f->Ae[(e * nd + r) * nd + c] * x[j]);
        m[i] += 1;
      }
    }
}

static int compare_tight(const opfix *f, const char *what, const double *v, const double *ref,
                         const double *s, const double *m) {
  int bad = 0;
  for (size_t i = 0; i < f->n; i++) {
    const double tol = 2.0 * m[i] * DBL_EPSILON * s[i];
    if (!(fabs(v[i] - ref[i]) <= tol) && bad++ < 3)
      TEST_FAIL("%s %s/%s: dof %zu observed %.17g expected %.17g diff %.3g tol %.3g", what,
                feint_element_name(f->el), feint_problem_name(f->pb), i, v[i], ref[i],
                fabs(v[i] - ref[i]), tol);
  }
  return bad;
}

/* QPOINT (tet4, hex8 Poisson) computes y_e = sum_q dphi^T G_q (sum_s dphi_s
 * x_s) with G_q = w_q det J J^-1 J^-T, not sum_s A^e_rs x_s: its round-off
 * is bounded by the absolute values of that chain,
 *   Sq_rs = sum_q w_q |det J_q| sum_c (sum_a |dphi_ra| |Jinv_ac|)
 *                                     (sum_b |dphi_sb| |Jinv_bc|),
 * (J, J^-1 computed here from the mesh and feint_element_eval), times the
 * depth of its sums: N_S (gradient) + 3 (factor) + 3 (test) + N_Q (points)
 * <= 24, besides the fixture's n_terms + 16 for G (formed like the
 * variants' J^-1 products) and m for the sum over elements:
 *   |y - y_ref| <= 2 (n_terms + 16 + 24 + m) eps sum_e sum_s (S^e_rs + Sq_rs) |x_s|.
 * sq[i]: sum_e sum_s Sq_rs |x_s| over the unconstrained couplings (the
 * constrained rows a_ii x_i come from the reference's diagonal: s covers). */
static void qp_scale(const opfix *f, const double *x, double *sq) {
  feint_element_info ei;
  feint_element_get_info(f->el, &ei);
  const int ns = f->ns, nq = ei.num_qpts;
  memset(sq, 0, f->n * sizeof(double));
  for (size_t e = 0; e < f->ne; e++) {
    double Sq[8][8] = {{0}};
    for (int q = 0; q < nq; q++) {
      double phi[8], dphi[8][3], J[3][3] = {{0}}, Ji[3][3];
      feint_element_eval(f->el, ei.qpts[q], phi, dphi);
      for (int n = 0; n < ns; n++)
        for (int a = 0; a < 3; a++)
          for (int b = 0; b < 3; b++)
            J[a][b] += f->mesh.coords[3 * (size_t)f->mesh.conn[e * ns + n] + a] * dphi[n][b];
      const double det = J[0][0] * (J[1][1] * J[2][2] - J[1][2] * J[2][1]) -
                         J[0][1] * (J[1][0] * J[2][2] - J[1][2] * J[2][0]) +
                         J[0][2] * (J[1][0] * J[2][1] - J[1][1] * J[2][0]);
      for (int a = 0; a < 3; a++)
        for (int b = 0; b < 3; b++) {
          const int a1 = (b + 1) % 3, a2 = (b + 2) % 3, b1 = (a + 1) % 3, b2 = (a + 2) % 3;
          Ji[a][b] = (J[a1][b1] * J[a2][b2] - J[a1][b2] * J[a2][b1]) / det;
        }
      double t[8][3]; /* sum_a |dphi_ra| |Jinv_ac| */
      for (int r = 0; r < ns; r++)
        for (int c = 0; c < 3; c++)
          t[r][c] = fabs(dphi[r][0] * Ji[0][c]) + fabs(dphi[r][1] * Ji[1][c]) +
                    fabs(dphi[r][2] * Ji[2][c]);
      for (int r = 0; r < ns; r++)
        for (int c = 0; c < ns; c++)
          Sq[r][c] += ei.qwts[q] * fabs(det) *
                      (t[r][0] * t[c][0] + t[r][1] * t[c][1] + t[r][2] * t[c][2]);
    }
    for (int r = 0; r < ns; r++) {
      const size_t i = opfix_dof(f, e, r);
      if (f->is_bc[i]) continue;
      for (int c = 0; c < ns; c++) {
        const size_t j = opfix_dof(f, e, c);
        if (!f->is_bc[j]) sq[i] += Sq[r][c] * fabs(x[j]);
      }
    }
  }
}

/* The QPOINT bound above (k = 2 against the assembled form: both sides err). */
static int compare_qp(const opfix *f, const char *what, const double *v, const double *ref,
                      const double *s, const double *sq, const double *m, double k) {
  int bad = 0;
  for (size_t i = 0; i < f->n; i++) {
    const double tol = k * 2.0 * (f->n_terms + 16.0 + 24.0 + m[i]) * DBL_EPSILON * (s[i] + sq[i]);
    if (!(fabs(v[i] - ref[i]) <= tol) && bad++ < 3)
      TEST_FAIL("%s %s/%s: dof %zu observed %.17g expected %.17g diff %.3g tol %.3g", what,
                feint_element_name(f->el), feint_problem_name(f->pb), i, v[i], ref[i],
                fabs(v[i] - ref[i]), tol);
  }
  return bad;
}

/* Against the assembled form made with another variant: the element entries
 * differ by round-off, each side within the fixture's bound of the
 * reference, so twice that bound. */
static int compare_two(const opfix *f, const char *what, const double *v, const double *ref,
                       const double *s, const double *m) {
  int bad = 0;
  for (size_t i = 0; i < f->n; i++) {
    const double tol = 2.0 * 2.0 * (f->n_terms + 16.0 + m[i]) * DBL_EPSILON * s[i];
    if (!(fabs(v[i] - ref[i]) <= tol) && bad++ < 3)
      TEST_FAIL("%s %s/%s: dof %zu observed %.17g expected %.17g diff %.3g tol %.3g", what,
                feint_element_name(f->el), feint_problem_name(f->pb), i, v[i], ref[i],
                fabs(v[i] - ref[i]), tol);
  }
  return bad;
}

static void check_case(feint_element el, feint_problem pb, feint_perturb pt, size_t cells) {
  opfix f;
  if (!opfix_setup_pt(&f, el, pb, cells, pt)) {
    TEST_FAIL("setup of %s/%s failed: %s", feint_element_name(el), feint_problem_name(pb),
              feint_last_error());
    return;
  }
  const size_t n = f.n, bytes = n * sizeof(double);
  double *x = malloc(bytes), *y = malloc(bytes), *yc = malloc(bytes), *yr = malloc(bytes);
  double *s = malloc(bytes), *m = malloc(bytes), *g = malloc(bytes), *t = malloc(bytes);
  double *st_ = malloc(bytes), *mt = malloc(bytes), *sq = malloc(bytes);
  const int qp_case = pb == FEINT_POISSON && el != FEINT_PRISM6;
  const int nonaffine = el != FEINT_TET4 && pt == FEINT_PERTURB_GENERAL;
  test_rng rng = {2024};
  for (size_t i = 0; i < n; i++) x[i] = test_rng_uniform(&rng, -1, 1);
  uint32_t *bc;
  const size_t nbc_all = opfix_bc(&f, &bc);
  double *gv = malloc(nbc_all * 8);
  for (size_t k = 0; k < nbc_all; k++) gv[k] = test_rng_uniform(&rng, -2, 2);
  for (int with_bc = 0; with_bc < 2; with_bc++) {
    const size_t nbc = with_bc ? nbc_all : 0;
    memset(f.is_bc, 0, n);
    memset(g, 0, bytes);
    for (size_t k = 0; k < nbc; k++) f.is_bc[bc[k]] = 1, g[bc[k]] = gv[k];
    opfix_apply(&f, x, yr, s, m);
    abs_apply(&f, x, st_, mt);
    if (qp_case) qp_scale(&f, x, sq);
    for (int tg = 0; tg < FEINT_TARGET_COUNT; tg++)
      for (int strat = 0; strat < FEINT_ASSEMBLE_COUNT; strat++) {
        const unsigned fl = tg ? FEINT_FLAG_ALLOW_HOST_FALLBACK : 0;
        feint_integrate_desc d = {el, pb, FEINT_QSS_GEO_GENERIC, FEINT_LAYOUT_NATURAL, 0, fl,
                                  (feint_target)tg, 0};
        feint_operator *asm_op = NULL;
        feint_status st = feint_operator_create(&d, FEINT_OPERATOR_ASSEMBLED, FEINT_ASSEMBLE_COLOURING,
                                                &f.mesh, f.coef, nbc, bc, &asm_op);
        CHECK_STATUS(st, FEINT_SUCCESS, NULL);
        if (st != FEINT_SUCCESS) continue;
        CHECK_STATUS(feint_operator_apply(asm_op, x, yc, 0), FEINT_SUCCESS, NULL);
        double *dc = malloc(bytes);
        CHECK_STATUS(feint_operator_diagonal(asm_op, dc, 0), FEINT_SUCCESS, NULL);
        for (int form = 0; form < FEINT_OPERATOR_FORM_COUNT; form++)
          for (int var = 0; var < (form == FEINT_OPERATOR_RECOMPUTE ? FEINT_VARIANT_COUNT : 1);
               var++)
            for (int lin = 0; lin <= FEINT_LAYOUT_BLOCKED; lin += 1 + (var != 0 || tg)) {
              if (form == FEINT_OPERATOR_ASSEMBLED) break;
              const int qp = form == FEINT_OPERATOR_QPOINT;
              /* general hexahedra: the geo_generic variants only (a paper
               * variant's pair: even = geo_linear; the tensor form: qss) */
              d.variant = (feint_variant)(!nonaffine                     ? var
                                          : var == FEINT_TENSOR_GEO_LINEAR ? FEINT_QSS_GEO_GENERIC
                                          : var % 2 == 0                   ? var + 1
                                                                           : var);
              d.layout_in = (feint_layout)lin;
              feint_operator *op = NULL;
              if (qp && !qp_case) { /* refused by name */
                CHECK_STATUS(feint_operator_create(&d, FEINT_OPERATOR_QPOINT,
                                                   (feint_assemble_strategy)strat, &f.mesh,
                                                   f.coef, nbc, bc, &op),
                             FEINT_ERR_UNSUPPORTED, "FEINT_OPERATOR_QPOINT");
                break;
              }
              char what[128];
              snprintf(what, sizeof what, "%s var=%d layout=%d %s target=%d bc=%d",
                       qp ? "qpoint" : form ? "precomputed" : "recompute", var, lin,
                       strat ? "atomics" : "colouring", tg, with_bc);
              st = feint_operator_create(&d, (feint_operator_form)form,
                                         (feint_assemble_strategy)strat, &f.mesh,
                                         lin ? f.coef_blk : f.coef, nbc, bc, &op);
              CHECK_STATUS(st, FEINT_SUCCESS, NULL);
              if (st != FEINT_SUCCESS) continue;
              feint_operator_info info;
              feint_operator_get_info(op, &info);
              CHECK(info.form == (feint_operator_form)form && (int)info.strategy == strat &&
                        info.symmetric == (pb != FEINT_CONVDIFF) && info.num_dofs == n,
                    "%s: info form %d strategy %d symmetric %d", what, (int)info.form,
                    (int)info.strategy, info.symmetric);
              for (size_t i = 0; i < n; i++) y[i] = -777.0;
              CHECK_STATUS(feint_operator_apply(op, x, y, 0), FEINT_SUCCESS, NULL);
              if (qp) {
                compare_qp(&f, what, y, yr, s, sq, m, 1.0);
                compare_qp(&f, what, y, yc, s, sq, m, 2.0);
              } else {
                opfix_compare(&f, what, y, yr, s, m);
                if (d.variant == FEINT_QSS_GEO_GENERIC) /* the assembled form's variant */
                  compare_tight(&f, what, y, yc, st_, mt);
                else
                  compare_two(&f, what, y, yc, s, m);
              }
              if (strat == FEINT_ASSEMBLE_COLOURING) { /* reproducible, any thread count */
                const int nt = omp_get_max_threads();
                omp_set_num_threads(1);
                CHECK_STATUS(feint_operator_apply(op, x, t, 0), FEINT_SUCCESS, NULL);
                omp_set_num_threads(nt < 2 ? 2 : nt);
                CHECK(memcmp(t, y, bytes) == 0, "%s: 1-thread apply differs", what);
                CHECK_STATUS(feint_operator_apply(op, x, t, 0), FEINT_SUCCESS, NULL);
                omp_set_num_threads(nt);
                CHECK(memcmp(t, y, bytes) == 0, "%s: second apply differs", what);
              }
              if (strat == FEINT_ASSEMBLE_ATOMICS) { /* 1 thread: every block private,
                                                         no atomics; 3: mixed */
                const int nt = omp_get_max_threads();
                for (int th = 1; th <= 3; th += 2) {
                  omp_set_num_threads(th);
                  CHECK_STATUS(feint_operator_apply(op, x, t, 0), FEINT_SUCCESS, NULL);
                  if (qp)
                    compare_qp(&f, what, t, yr, s, sq, m, 1.0);
                  else
                    opfix_compare(&f, what, t, yr, s, m);
                }
                omp_set_num_threads(nt);
              }
              /* device pointers (host arrays on a host operator) */
              double *dx = x, *dy = t;
              if (info.target == FEINT_TARGET_DEVICE) {
                feint_device_alloc(info.device, bytes, (void **)&dx);
                feint_device_alloc(info.device, bytes, (void **)&dy);
                feint_device_copy_to(info.device, dx, x, bytes);
              }
              CHECK_STATUS(feint_operator_apply(op, dx, dy, FEINT_FLAG_DEVICE_POINTERS),
                           FEINT_SUCCESS, NULL);
              if (info.target == FEINT_TARGET_DEVICE) {
                feint_device_copy_from(info.device, t, dy, bytes);
                feint_device_free(info.device, dx), feint_device_free(info.device, dy);
              }
              if (qp)
                compare_qp(&f, what, t, yr, s, sq, m, 1.0);
              else
                opfix_compare(&f, what, t, yr, s, m);
              if (var == 0 && lin == 0) {
                double *dg = malloc(bytes), *ds = malloc(bytes), *dm = malloc(bytes);
                CHECK_STATUS(feint_operator_diagonal(op, t, 0), FEINT_SUCCESS, NULL);
                opfix_diag(&f, dg, ds, dm);
                opfix_compare(&f, "diagonal", t, dg, ds, dm);
                memset(ds, 0, bytes);
                for (size_t e = 0; e < f.ne; e++)
                  for (int r = 0; r < f.nd; r++)
                    ds[opfix_dof(&f, e, r)] += fabs(f.Ae[(e * f.nd + r) * f.nd + r]);
                if (d.variant == FEINT_QSS_GEO_GENERIC) {
                  compare_tight(&f, "diagonal vs assembled", t, dc, ds, dm);
                } else {
                  opfix_diag(&f, dg, ds, dm);
                  compare_two(&f, "diagonal vs assembled", t, dc, ds, dm);
                }
                CHECK_STATUS(feint_operator_rhs(op, nbc ? gv : NULL, t), FEINT_SUCCESS, NULL);
                opfix_rhs(&f, g, dg, ds, dm);
                opfix_compare(&f, "rhs", t, dg, ds, dm);
                free(dg), free(ds), free(dm);
              }
              CHECK_STATUS(feint_operator_destroy(op), FEINT_SUCCESS, NULL);
            }
        free(dc);
        feint_operator_destroy(asm_op);
      }
  }
  free(x), free(y), free(yc), free(yr), free(s), free(m), free(g), free(t), free(st_), free(mt), free(sq);
  free(bc), free(gv);
  opfix_free(&f);
}

/* The per-point problems: every form refuses them by name. */
static void check_refused(feint_problem pb) {
  opfix f;
  if (!opfix_setup(&f, FEINT_TET4, FEINT_POISSON, 1)) {
    TEST_FAIL("setup failed: %s", feint_last_error());
    return;
  }
  size_t len = 0;
  feint_array_entries(FEINT_TET4, pb, FEINT_ARRAY_COEFFS, &len);
  double *coef = calloc(len * f.ne, sizeof(double));
  for (int form = 0; form < FEINT_OPERATOR_FORM_COUNT; form++) {
    feint_integrate_desc d = {FEINT_TET4, pb, FEINT_QSS_GEO_GENERIC, FEINT_LAYOUT_NATURAL, 0, 0,
                              FEINT_TARGET_HOST, 0};
    feint_operator *op = NULL;
    CHECK_STATUS(feint_operator_create(&d, (feint_operator_form)form, FEINT_ASSEMBLE_COLOURING,
                                       &f.mesh, coef, 0, NULL, &op),
                 FEINT_ERR_UNSUPPORTED, feint_problem_name(pb));
    CHECK(op == NULL, "%s: op set on refusal", feint_problem_name(pb));
  }
  free(coef);
  opfix_free(&f);
}

int main(void) {
  for (int el = 0; el < FEINT_ELEMENT_COUNT; el++)
    for (int pb = 0; pb <= FEINT_ELASTICITY; pb++)
      check_case((feint_element)el, (feint_problem)pb,
                 el == FEINT_TET4 ? FEINT_PERTURB_GENERAL : FEINT_PERTURB_AFFINE, 3);
  /* hexahedra that are not parallelepipeds: QPOINT's factor per point (an
   * affine box mesh stores one per cell), the generic variants */
  check_case(FEINT_HEX8, FEINT_POISSON, FEINT_PERTURB_GENERAL, 3);
  /* meshes of many host chunks (feint_assembly_chunks: at least 16 blocks
   * each), the last one short and ending inside a block: 1296 tets, 432
   * prisms, 1331 hexahedra */
  check_case(FEINT_TET4, FEINT_POISSON, FEINT_PERTURB_GENERAL, 6);
  check_case(FEINT_TET4, FEINT_CONVDIFF, FEINT_PERTURB_GENERAL, 6);
  check_case(FEINT_PRISM6, FEINT_ELASTICITY, FEINT_PERTURB_AFFINE, 6);
  check_case(FEINT_HEX8, FEINT_POISSON, FEINT_PERTURB_GENERAL, 11);
  /* the same with the host's windows (operator/matfree.c: tet4, prism6)
   * cut after a block or two: many windows per chunk, the elements dealt
   * out across a window's blocks, the last window of a chunk padded */
#ifndef FEINT_OFFLOAD
  const size_t window_dofs = feint_op_window_dofs;
  feint_op_window_dofs = 24;
  check_case(FEINT_TET4, FEINT_POISSON, FEINT_PERTURB_GENERAL, 6);
  check_case(FEINT_TET4, FEINT_CONVDIFF, FEINT_PERTURB_GENERAL, 6);
  check_case(FEINT_PRISM6, FEINT_ELASTICITY, FEINT_PERTURB_AFFINE, 6);
  feint_op_window_dofs = window_dofs;
#endif
  check_refused(FEINT_POISSON_KAPPA);
  check_refused(FEINT_ELASTICITY_QP);
  return test_failures != 0;
}
