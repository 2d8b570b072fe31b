/*
 * validate.c - the validation pass over the geometry that feint_integrate
 * runs before writing any output (skipped with FEINT_FLAG_TRUST_GEOMETRY).
 *
 * The criterion (degenerate, or outside the safe range and so left to the
 * rescaled slow path) is feint_shape_class() of criterion.h; this file only
 * runs it over the elements, and checks the coefficients' range.
 * A prism is affine if its top face is a translate of its bottom face:
 * x_{3+i} - x_i is the same vector for i = 0, 1, 2.  Coordinates carry a
 * rounding error of at most eps/2 |x| each, so the difference of two such
 * edge vectors may be off by 2 eps max|x| for an exactly affine prism; the
 * test allows 8 eps max|x| per component.
 * A hexahedron is affine (a parallelepiped) if every node is the origin
 * node plus the edge vectors of its corner: x_n = x_0 + sx e_x + sy e_y +
 * sz e_z over the edges e_x = x_1 - x_0, e_y = x_3 - x_0, e_z = x_4 - x_0,
 * i.e. x_2 = x_1 + x_3 - x_0, x_4+i - x_i = e_z (i = 1..3).  The worst
 * residual, x_6 - x_5 - x_7 + x_4 after the others hold, combines at most 6
 * node coordinates (weights summing to 6: 3 eps max|x| from the inputs) in
 * 3 operations on values up to 2 max|x| (another 3 eps): the test allows
 * 16 eps max|x| per component.
 */
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#ifdef _OPENMP
#include <omp.h>
#endif

#include "feint_internal.h"
#include "kernel/block_io.h"
#include "criterion.h"
#include "kernel/physics.h"

#define FEINT_AFFINE_TOL_EPS 8.0

FEINT_INLINE int prism_is_affine(const double x[FEINT_MAX_NODES][3]) {
  double scale = 0.0;
  for (int n = 0; n < 6; n++)
    for (int a = 0; a < 3; a++) scale = fmax(scale, fabs(x[n][a]));
  const double tol = FEINT_AFFINE_TOL_EPS * DBL_EPSILON * scale;
  int ok = 1;
  for (int i = 1; i < 3; i++)
    for (int a = 0; a < 3; a++) {
      const double d0 = x[3][a] - x[0][a], di = x[3 + i][a] - x[i][a];
      ok &= fabs(di - d0) <= tol; /* NaN fails */
    }
  return ok;
}

#define FEINT_HEX_AFFINE_TOL_EPS 16.0

FEINT_INLINE int hex_is_affine(const double x[FEINT_MAX_NODES][3]) {
  double scale = 0.0;
  for (int n = 0; n < 8; n++)
    for (int a = 0; a < 3; a++) scale = fmax(scale, fabs(x[n][a]));
  const double tol = FEINT_HEX_AFFINE_TOL_EPS * DBL_EPSILON * scale;
  int ok = 1;
  for (int a = 0; a < 3; a++) {
    const double ez = x[4][a] - x[0][a];
    ok &= fabs((x[2][a] - x[1][a]) - (x[3][a] - x[0][a])) <= tol; /* NaN fails */
    for (int i = 1; i < 4; i++) ok &= fabs((x[4 + i][a] - x[i][a]) - ez) <= tol;
  }
  return ok;
}

/* Blocks [blk_lo, blk_hi) of one case; et is a literal at every call, so
 * the Jacobians of all quadrature points unroll (for tetrahedra they
 * coincide and merge).  Each block is read in the blocked order (in place,
 * or transposed from the natural layout through an L1 buffer with
 * contiguous loads, kernel/block_io.h), so the lane loop vectorises with
 * unit stride, no gathers, and the pass streams through the geometry once;
 * the first bad index is a min-reduction. */
FEINT_INLINE void scan_range(const int et, int layout, size_t blk_lo, size_t blk_hi,
                             size_t num_elem, const double *geo, int check_affine,
                             size_t *bad_det_out, size_t *bad_affine_out, size_t *rescale_out) {
  const int size = 3 * feint_elem_nodes(et);
  size_t bad_det = SIZE_MAX, bad_affine = SIZE_MAX, rescale = SIZE_MAX;
  for (size_t blk = blk_lo; blk < blk_hi; blk++) {
    const size_t e0 = blk * FEINT_BLOCK_LEN;
    const int nvalid = num_elem - e0 < FEINT_BLOCK_LEN ? (int)(num_elem - e0) : FEINT_BLOCK_LEN;
    double buf[3 * FEINT_MAX_NODES * FEINT_BLOCK_LEN] __attribute__((aligned(64)));
    double tmp[3 * FEINT_MAX_NODES * FEINT_BLOCK_LEN] __attribute__((aligned(64)));
    feint_prefetch_ahead(geo, size, blk, blk_hi); /* kernel/block_io.h */
    const double *g = feint_block_in(layout, geo, size, blk, nvalid, buf, tmp);
#pragma omp simd reduction(min : bad_det, bad_affine, rescale)
    for (int lane = 0; lane < FEINT_BLOCK_LEN; lane++) {
      const size_t e = e0 + (size_t)lane;
      double x[FEINT_MAX_NODES][3];
      feint_load_nodes(et, g + lane, FEINT_BLOCK_LEN, x);
      const int cls = feint_shape_class(et, x);
      /* branch-free min-reductions (SIZE_MAX: this element is fine; the
       * padding lanes of a last block repeat its first element) */
      const size_t cand_det = cls == FEINT_SHAPE_DEGENERATE ? e : SIZE_MAX;
      const size_t cand_rescale = cls == FEINT_SHAPE_RESCALE ? e : SIZE_MAX;
      const int affine = !check_affine || et == FEINT_TET4 ||
                         (et == FEINT_PRISM6 ? prism_is_affine(x) : hex_is_affine(x));
      const size_t cand_affine = affine ? SIZE_MAX : e;
      bad_det = cand_det < bad_det ? cand_det : bad_det;
      bad_affine = cand_affine < bad_affine ? cand_affine : bad_affine;
      rescale = cand_rescale < rescale ? cand_rescale : rescale;
    }
  }
  *bad_det_out = bad_det;
  *bad_affine_out = bad_affine;
  *rescale_out = rescale;
}

void feint_geometry_scan(int element, int layout, size_t num_elem, const double *geometry,
                         int check_affine, size_t *first_degenerate, size_t *first_not_affine,
                         size_t *first_rescale) {
  size_t bad_det = SIZE_MAX, bad_affine = SIZE_MAX, rescale = SIZE_MAX;
#pragma omp parallel
  {
    /* static partition of the blocks by hand: the case dispatch must sit
     * inside the parallel region for the element type to be a constant there */
    const size_t num_blk = (num_elem + FEINT_BLOCK_LEN - 1) / FEINT_BLOCK_LEN;
    size_t lo = 0, hi = num_blk, d, a, r;
#ifdef _OPENMP
    feint_thread_range(num_blk, omp_get_thread_num(), omp_get_num_threads(), &lo, &hi);
#endif
    if (element == FEINT_TET4)
      scan_range(FEINT_TET4, layout, lo, hi, num_elem, geometry, check_affine, &d, &a, &r);
    else if (element == FEINT_PRISM6)
      scan_range(FEINT_PRISM6, layout, lo, hi, num_elem, geometry, check_affine, &d, &a, &r);
    else
      scan_range(FEINT_HEX8, layout, lo, hi, num_elem, geometry, check_affine, &d, &a, &r);
#pragma omp critical(feint_geometry_scan)
    {
      bad_det = d < bad_det ? d : bad_det;
      bad_affine = a < bad_affine ? a : bad_affine;
      rescale = r < rescale ? r : rescale;
    }
  }
  *first_degenerate = bad_det;
  *first_not_affine = bad_affine;
  *first_rescale = rescale;
}

/* First element of [lo, hi) with a coefficient outside the safe range. */
static size_t coeff_first_bad(int n, int blocked, size_t lo, size_t hi, const double *coeffs) {
  const size_t B = FEINT_BLOCK_LEN;
  for (size_t e = lo; e < hi; e++) {
    const int ok = blocked ? feint_coeffs_in_range(coeffs + (e / B) * B * (size_t)n + e % B, n, (int)B)
                           : feint_coeffs_in_range(coeffs + e * (size_t)n, n, 1);
    if (!ok) return e;
  }
  return SIZE_MAX;
}

/* The coefficient check: first element with a coefficient outside the
 * safe range (criterion.h), SIZE_MAX if none.  A flat, vectorised streaming
 * test of every value (padding lanes of a blocked array are not read); only
 * if it fails, a per-element search for the index. */
size_t feint_coeff_scan(int element, int problem, int layout, size_t num_elem,
                        const double *coeffs) {
  const int n = feint_problem_coeffs(element, problem);
  const size_t B = FEINT_BLOCK_LEN;
  const int blocked = layout == FEINT_LAYOUT_BLOCKED;
  /* full blocks of a blocked array, or all of a natural one: plain values */
  const size_t flat_elem = blocked ? num_elem / B * B : num_elem, flat = flat_elem * (size_t)n;
  /* |c| <= 2^400 compared as bit patterns: with the sign bit cleared, the
   * order of doubles is the order of their bits, and NaN and inf lie above
   * every finite value; one integer max-reduction, vectorised. */
  const int64_t limit = (int64_t)0x58F0000000000000; /* the bits of 2^400 */
  int64_t top = 0;
#pragma omp parallel for simd schedule(static) reduction(max : top)
  for (size_t i = 0; i < flat; i++) {
    int64_t bits;
    memcpy(&bits, &coeffs[i], sizeof bits);
    bits &= INT64_MAX;
    top = bits > top ? bits : top;
  }
  if (top > limit) return coeff_first_bad(n, blocked, 0, flat_elem, coeffs);
  return coeff_first_bad(n, blocked, flat_elem, num_elem, coeffs); /* the partial block */
}

/* ---- Physical admissibility of the coefficients (issue 8) ---------------
 * Separate from the range check above: a coefficient can be finite and in
 * range and still describe no material.  Elasticity: the element is refused
 * unless mu >= 0 and the bulk modulus lambda + 2 mu / 3 > 0 (NaN fails
 * both), the conditions for the element matrix to be positive semidefinite
 * with only the rigid-body modes in its null space (mu > 0); elasticity_qp
 * the same at every quadrature point; poisson_kappa: kappa > 0 at every
 * point (NaN fails).  Poisson and conv-diff have no such condition. */

/* Index (in the element's coefficients) of lambda / kappa at point q, and
 * the number of points to check: 1 for elasticity (per element). */
static int phys_points(int element, int problem) {
  if (problem == FEINT_ELASTICITY) return 1;
  if (problem == FEINT_ELASTICITY_QP || problem == FEINT_POISSON_KAPPA)
    return feint_elem_qpts(element);
  return 0;
}
static int phys_record(int problem) {
  return problem == FEINT_ELASTICITY_QP ? FEINT_LAME_RECORD
         : problem == FEINT_POISSON_KAPPA ? FEINT_KAPPA_RECORD
                                          : 0;
}

/* 1 if the values at c[0], c[step] (kappa, or lambda and mu) are admissible. */
static inline int phys_ok(int problem, const double *c, size_t step) {
  if (problem == FEINT_POISSON_KAPPA) return c[0] > 0.0; /* NaN fails */
  const double lambda = c[0], mu = c[step];
  return mu >= 0.0 && lambda + 2.0 * mu / 3.0 > 0.0; /* NaN fails */
}

size_t feint_physics_scan(int element, int problem, int layout, size_t num_elem,
                          const double *coeffs, char *what, size_t what_len) {
  const int np = phys_points(element, problem), rec = phys_record(problem);
  if (np == 0) return SIZE_MAX;
  const size_t n = (size_t)feint_problem_coeffs(element, problem), B = FEINT_BLOCK_LEN;
  const int blocked = layout == FEINT_LAYOUT_BLOCKED;
  const size_t step = blocked ? B : 1;
  size_t bad = SIZE_MAX;
#pragma omp parallel for schedule(static) reduction(min : bad)
  for (size_t e = 0; e < num_elem; e++) {
    const double *c = blocked ? coeffs + (e / B) * B * n + e % B : coeffs + e * n;
    int ok = 1;
    for (int q = 0; q < np; q++) ok &= phys_ok(problem, c + (size_t)(rec * q) * step, step);
    const size_t cand = ok ? SIZE_MAX : e;
    bad = cand < bad ? cand : bad;
  }
  if (bad != SIZE_MAX && what != NULL && what_len > 0) {
    const size_t e = bad;
    const double *c = blocked ? coeffs + (e / B) * B * n + e % B : coeffs + e * n;
    int q = 0;
    while (q < np - 1 && phys_ok(problem, c + (size_t)(rec * q) * step, step)) q++;
    const double *r = c + (size_t)(rec * q) * step;
    if (problem == FEINT_POISSON_KAPPA)
      snprintf(what, what_len, "quadrature point %d: kappa = %g; poisson_kappa needs kappa > 0", q,
               r[0]);
    else if (problem == FEINT_ELASTICITY_QP)
      snprintf(what, what_len,
               "quadrature point %d: lambda = %g, mu = %g; elasticity_qp needs mu >= 0 and "
               "lambda + 2 mu / 3 > 0 at every point",
               q, r[0], r[step]);
    else
      snprintf(what, what_len,
               "lambda = %g, mu = %g; elasticity needs mu >= 0 and lambda + 2 mu / 3 > 0", r[0],
               r[step]);
  }
  return bad;
}
