/*
 * rescale.c - the slow path of feint_integrate for the elements the
 * validation pass could not clear at their own scale: an element whose
 * Jacobian entries lie outside the safe range [2^-200, 2^200], or whose
 * coefficients exceed 2^400 (criterion.h).  Ordinary elements never come
 * here, and the element loop they take is unchanged.
 *
 * Exact power-of-two rescaling.  With s = 2^k, k = ilogb(max |J_ab|), the
 * element x' = x / s is the same element at unit scale (multiplying by 2^-k
 * is exact unless a coordinate becomes subnormal, and such a coordinate is
 * below 2^-1000 of the element's size), and for x = s x':
 *   vol = s^3 vol',  psi_0 = psi'_0,  psi_i = psi'_i / s  (i = 1..3), so
 *   A^e = s sum vol' (c_ij s^(2 - n_i - n_j)) psi'_i psi'_j,
 *   b^e = s sum vol' (d_i  s^(2 - n_i)) psi'_i          (n_i = 1 if i > 0),
 * Poisson: c = identity on the derivatives (A^e = s A'), d_0 = f;
 * poisson_kappa: c = kappa_q identity (kappa' = kappa), d_0 = f_q;
 * elasticity (and elasticity_qp): lambda and mu multiply two derivatives
 * (A^e = s A'), the body force is a d_0 (f' = f s^2).  Each
 * scaled coefficient is c_ij 2^(k (2 - n_i - n_j) - j_A) with j_A >= 0 the
 * smallest shift that brings them all to at most 2^400 (likewise d_i with
 * j_b), so the unit-scale element and its coefficients lie inside the safe
 * range; the variant integrates them (natural layout, in chunks), and the
 * results are scaled back exactly: A^e = 2^(k + j_A) A', b^e = 2^(k + j_b) b'.
 * A result beyond the double range becomes inf there and is refused
 * (FEINT_ERR_NOT_FINITE) before anything is written; one that underflows
 * becomes a subnormal or zero, its correctly scaled value.
 *
 * Order of work (feint_integrate): feint_rescale_first_degenerate() during
 * validation, feint_rescale_run(store = 0) to compute and check every such
 * element before any output is written, the element loop over all elements,
 * then feint_rescale_run(store = 1) to overwrite the rescaled elements'
 * entries.  The work is twice the variant's on these elements; ordinary
 * elements in between are classified again (cheap, no integration).
 */
#include <math.h>
#include <stdint.h>

#include "criterion.h"
#include "feint_internal.h"
#include "kernel/block_io.h"
#include "kernel/physics.h"

/* Errors are reported in the name of the public call. */
#define RESCALE_FAIL(cond, status, ...)                                                   \
  do {                                                                                    \
    if (!(cond)) return feint_error_set((status), "feint_integrate", __FILE__, __LINE__, __VA_ARGS__); \
  } while (0)

#define RESCALE_CHUNK 8 /* elements per call of the variant (40 KiB of stack) */

/* Nodes and coefficients of element e in the input layout. */
FEINT_INLINE void load_element(const int et, const int pb, const feint_kernel_args *ka, size_t e,
                               double x[FEINT_MAX_NODES][3], double coef[FEINT_MAX_COEFFS]) {
  const size_t B = FEINT_BLOCK_LEN, gsz = 3 * (size_t)feint_elem_nodes(et);
  const size_t csz = (size_t)feint_problem_coeffs(et, pb);
  const int blocked = ka->layout_in == FEINT_LAYOUT_BLOCKED, stride = blocked ? (int)B : 1;
  const double *c = blocked ? ka->coeffs + (e / B) * B * csz + e % B : ka->coeffs + e * csz;
  feint_load_nodes(et, blocked ? ka->geometry + (e / B) * B * gsz + e % B : ka->geometry + e * gsz,
                   stride, x);
  for (size_t k = 0; k < csz; k++) coef[k] = c[k * (size_t)stride];
}

/* The element at unit scale: k = ilogb(max |J_ab|) over its points and
 * x' = x 2^-k; FEINT_SHAPE_OK if x' passes the criterion, else
 * FEINT_SHAPE_DEGENERATE (also for non-finite or all-zero J). */
FEINT_INLINE int unit_scale(const int et, const double x[FEINT_MAX_NODES][3], int *k,
                            double xs[FEINT_MAX_NODES][3]) {
  double m = 0.0;
  int finite = 1;
  for (int q = 0; q < feint_elem_qpts(et); q++) {
    double J[3][3];
    feint_jacobian(et, q, x, J);
    for (int a = 0; a < 3; a++)
      for (int b = 0; b < 3; b++) {
        finite &= isfinite(J[a][b]);
        m = fabs(J[a][b]) > m ? fabs(J[a][b]) : m;
      }
  }
  if (!finite || m == 0.0) return FEINT_SHAPE_DEGENERATE;
  *k = ilogb(m);
  for (int n = 0; n < feint_elem_nodes(et); n++)
    for (int a = 0; a < 3; a++) xs[n][a] = ldexp(x[n][a], -*k);
  return feint_shape_class(et, xs) == FEINT_SHAPE_OK ? FEINT_SHAPE_OK : FEINT_SHAPE_DEGENERATE;
}

/* 1 if element e needs this path, with its class in *cls (OK or DEGENERATE
 * after rescaling); 0 if the element loop handles it at its own scale (or
 * it is degenerate there: *cls says which). */
FEINT_INLINE int classify(const int et, const int pb, const feint_kernel_args *ka, size_t e,
                          int *cls, int *k, double xs[FEINT_MAX_NODES][3],
                          double coef[FEINT_MAX_COEFFS]) {
  double x[FEINT_MAX_NODES][3];
  load_element(et, pb, ka, e, x, coef);
  const int c = feint_shape_class(et, x);
  if (c == FEINT_SHAPE_DEGENERATE ||
      (c == FEINT_SHAPE_OK && feint_coeffs_in_range(coef, feint_problem_coeffs(et, pb), 1))) {
    *cls = c;
    return 0;
  }
  *cls = unit_scale(et, x, k, xs);
  return 1;
}

/* Scaled coefficients of one element (see the top of the file) and the
 * output exponents.  Every coefficient multiplies either A^e (group 0) or
 * b^e (group 1) with exponent e[i] of s: c_ij s^(2 - n_i - n_j), d_i
 * s^(2 - n_i); kappa, lambda and mu multiply two derivatives (exponent 0),
 * a load f is a d_0 (exponent 2k).  Returns the index of a non-finite
 * coefficient, or -1. */
FEINT_INLINE int scale_coeffs(const int et, const int pb, int k, const double coef[FEINT_MAX_COEFFS],
                              double out[FEINT_MAX_COEFFS], int *exp_a, int *exp_b) {
  const int n = feint_problem_coeffs(et, pb);
  for (int i = 0; i < n; i++)
    if (!isfinite(coef[i])) return i;
  int e[FEINT_MAX_COEFFS], grp[FEINT_MAX_COEFFS];
  for (int i = 0; i < n; i++) {
    if (pb == FEINT_POISSON) {
      grp[i] = 1, e[i] = 2 * k;
    } else if (pb == FEINT_ELASTICITY) { /* lambda, mu, then f per point */
      grp[i] = i >= 2, e[i] = i >= 2 ? 2 * k : 0;
    } else if (pb == FEINT_POISSON_KAPPA) { /* (kappa_q, f_q) */
      grp[i] = i % FEINT_KAPPA_RECORD == 1, e[i] = grp[i] ? 2 * k : 0;
    } else if (pb == FEINT_ELASTICITY_QP) { /* (lambda_q, mu_q, f_q) */
      grp[i] = i % FEINT_LAME_RECORD >= 2, e[i] = grp[i] ? 2 * k : 0;
    } else { /* conv-diff: c^{ij}, then d^i */
      const int ii = i < 16 ? i / 4 : i - 16, jj = i % 4;
      grp[i] = i >= 16, e[i] = i < 16 ? k * (2 - (ii > 0) - (jj > 0)) : k * (2 - (ii > 0));
    }
  }
  /* smallest shift per group bringing every scaled value to <= 2^400 */
  int top[2] = {INT32_MIN, INT32_MIN};
  for (int i = 0; i < n; i++)
    if (coef[i] != 0.0 && ilogb(coef[i]) + e[i] > top[grp[i]]) top[grp[i]] = ilogb(coef[i]) + e[i];
  int j[2];
  for (int g = 0; g < 2; g++) j[g] = top[g] > FEINT_SAFE_COEFF_EXP ? top[g] - FEINT_SAFE_COEFF_EXP : 0;
  for (int i = 0; i < n; i++) out[i] = ldexp(coef[i], e[i] - j[grp[i]]);
  *exp_a = k + j[0];
  *exp_b = k + j[1];
  return -1;
}

FEINT_INLINE size_t first_degenerate_case(const int et, const int pb, const feint_kernel_args *ka,
                                          size_t first) {
  for (size_t e = first; e < ka->num_elem; e++) {
    int cls, k;
    double xs[FEINT_MAX_NODES][3], coef[FEINT_MAX_COEFFS];
    classify(et, pb, ka, e, &cls, &k, xs, coef);
    if (cls == FEINT_SHAPE_DEGENERATE) return e;
  }
  return SIZE_MAX;
}

size_t feint_rescale_first_degenerate(const feint_kernel_args *ka, size_t first) {
#define RESCALE_FIRST_CASE(ET, PB)                                \
  if (ka->element == FEINT_##ET && ka->problem == FEINT_##PB)     \
    return first_degenerate_case(FEINT_##ET, FEINT_##PB, ka, first);
  FEINT_FOR_EACH_CASE(RESCALE_FIRST_CASE)
#undef RESCALE_FIRST_CASE
  return SIZE_MAX;
}

typedef struct {
  size_t num;
  size_t elem[RESCALE_CHUNK];
  int exp_a[RESCALE_CHUNK], exp_b[RESCALE_CHUNK];
  double geo[RESCALE_CHUNK * 3 * FEINT_MAX_NODES], coef[RESCALE_CHUNK * FEINT_MAX_COEFFS];
  double A[RESCALE_CHUNK * FEINT_MAX_DOFS * FEINT_MAX_DOFS], b[RESCALE_CHUNK * FEINT_MAX_DOFS];
} chunk;

/* Integrate the chunk at unit scale, scale back, check (store = 0) or write
 * (store = 1) every entry. */
static feint_status chunk_flush(feint_variant_fn fn, const feint_kernel_args *ka, chunk *c,
                                int store) {
  if (c->num == 0) return FEINT_SUCCESS;
  const int et = ka->element, nd = feint_problem_dofs(et, ka->problem);
  const feint_kernel_args unit = {et, ka->problem, FEINT_LAYOUT_NATURAL, FEINT_LAYOUT_NATURAL,
                                  c->num, c->geo, c->coef, c->A, c->b};
  fn(&unit);
  const size_t B = FEINT_BLOCK_LEN, na = (size_t)(nd * nd), nb = (size_t)nd;
  const int blocked = ka->layout_out == FEINT_LAYOUT_BLOCKED;
  for (size_t i = 0; i < c->num; i++) {
    const size_t e = c->elem[i];
    for (size_t r = 0; r < na + nb; r++) {
      const int is_a = r < na;
      const size_t kk = is_a ? r : r - na, size = is_a ? na : nb;
      const double v = ldexp(is_a ? c->A[i * na + kk] : c->b[i * nb + kk],
                             is_a ? c->exp_a[i] : c->exp_b[i]);
      if (!store) {
        RESCALE_FAIL(isfinite(v), FEINT_ERR_NOT_FINITE,
                    "element %zu: %s[%zu] = %g x 2^%d exceeds the range of double (the element's "
                    "size or coefficients are too large for a finite result); no output was "
                    "written",
                    e, is_a ? "A_e" : "b_e", kk, is_a ? c->A[i * na + kk] : c->b[i * nb + kk],
                    is_a ? c->exp_a[i] : c->exp_b[i]);
        continue;
      }
      double *out = is_a ? ka->A : ka->b;
      if (is_a && ka->layout_out == FEINT_LAYOUT_PACKED) { /* upper triangle only */
        const int i_ = (int)kk / nd, j_ = (int)kk % nd;
        if (j_ >= i_)
          out[e * (size_t)feint_packed_entries(nd) + (size_t)(feint_packed_row(nd, i_) + j_ - i_)] = v;
        continue;
      }
      out[blocked ? (e / B) * B * size + kk * B + e % B : e * size + kk] = v;
    }
  }
  c->num = 0;
  return FEINT_SUCCESS;
}

FEINT_INLINE feint_status run_case(const int et, const int pb, feint_variant_fn fn,
                                   const feint_kernel_args *ka, size_t first, int store,
                                   chunk *c) {
  const int ns = feint_elem_nodes(et), nc = feint_problem_coeffs(et, pb);
  c->num = 0;
  for (size_t e = first; e < ka->num_elem; e++) {
    int cls, k = 0;
    double xs[FEINT_MAX_NODES][3], coef[FEINT_MAX_COEFFS];
    if (!classify(et, pb, ka, e, &cls, &k, xs, coef)) continue;
    /* degenerate elements were refused before this runs */
    const size_t i = c->num;
    for (int n = 0; n < ns; n++)
      for (int a = 0; a < 3; a++) c->geo[i * 3 * (size_t)ns + 3 * (size_t)n + (size_t)a] = xs[n][a];
    const int bad = scale_coeffs(et, pb, k, coef, c->coef + i * (size_t)nc, &c->exp_a[i], &c->exp_b[i]);
    RESCALE_FAIL(bad < 0, FEINT_ERR_NOT_FINITE,
                "coeffs of element %zu: entry %d = %g is not finite; no output was written", e,
                bad, coef[bad < 0 ? 0 : bad]);
    c->elem[i] = e;
    if (++c->num == RESCALE_CHUNK) FEINT_CALL(chunk_flush(fn, ka, c, store));
  }
  return chunk_flush(fn, ka, c, store);
}

feint_status feint_rescale_run(feint_variant_fn fn, const feint_kernel_args *ka, size_t first,
                               int store) {
  chunk c; /* on the stack: the store pass must not be able to fail */
#define RESCALE_RUN_CASE(ET, PB)                                  \
  if (ka->element == FEINT_##ET && ka->problem == FEINT_##PB)     \
    return run_case(FEINT_##ET, FEINT_##PB, fn, ka, first, store, &c);
  FEINT_FOR_EACH_CASE(RESCALE_RUN_CASE)
#undef RESCALE_RUN_CASE
  return FEINT_SUCCESS;
}
