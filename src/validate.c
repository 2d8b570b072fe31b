/*
 * validate.c - the validation pass over the geometry that feint_integrate
 * runs before writing any output (skipped with FEINT_FLAG_TRUST_GEOMETRY).
 *
 * The criterion (degenerate, or outside the safe range and so left to the
 * rescaled slow path) is feint_shape_class() of criterion.h; this file only
 * runs it over the elements, and checks the coefficients: their range, and
 * that they describe a material.  Both arrays are read once, block by
 * block, in the same sweep: the pass costs one read of the inputs.
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

#include "validate.h"
#include "kernel/block_io.h"
#include "criterion.h"
#include "kernel/gather.h"
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

/* ---- Coefficients ---------------------------------------------------------
 * Range: every value at most FEINT_SAFE_COEFF in magnitude (criterion.h;
 * NaN and inf fail), else the element is left to the rescaled path.
 * Physical admissibility, separate from the range: a coefficient can be
 * finite and in range and still describe no material.  Elasticity: the
 * element is refused unless mu >= 0 and the bulk modulus lambda + 2 mu / 3
 * > 0 (NaN fails both), the conditions for the element matrix to be
 * positive semidefinite with only the rigid-body modes in its null space
 * (mu > 0); elasticity_qp the same at every quadrature point;
 * poisson_kappa: kappa > 0 at every point (NaN fails).  Poisson and
 * conv-diff have no such condition. */

/* The number of points to check (1 for elasticity, per element; 0: no
 * condition) and the record length (the index step from one point's
 * lambda or kappa to the next). */
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
FEINT_INLINE int phys_ok(int problem, const double *c, size_t step) {
  if (problem == FEINT_POISSON_KAPPA) return c[0] > 0.0; /* NaN fails */
  const double lambda = c[0], mu = c[step];
  return mu >= 0.0 && lambda + 2.0 * mu / 3.0 > 0.0; /* NaN fails */
}

/* What a coefficient check needs to know of the case. */
typedef struct {
  int problem, n, points, record; /* n: coefficients per element */
  size_t lane_step, entry_step;   /* element e's entry k: base of its block + lane * lane_step +
                                     k * entry_step */
} coeff_case;

FEINT_INLINE const double *coeff_elem(const coeff_case *cc, const double *coeffs, size_t e) {
  const size_t B = FEINT_BLOCK_LEN;
  return coeffs + (e / B) * B * (size_t)cc->n + (e % B) * cc->lane_step;
}

FEINT_INLINE int coeff_phys_ok(const coeff_case *cc, const double *c) {
  int ok = 1;
  for (int q = 0; q < cc->points; q++)
    ok &= phys_ok(cc->problem, c + (size_t)(cc->record * q) * cc->entry_step, cc->entry_step);
  return ok;
}

/* The coefficients of block blk (nvalid elements): the first element out
 * of range and the first inadmissible one lower *first_range and
 * *first_phys.  A full block's values are contiguous in both layouts: a
 * flat, vectorised test of all of them (|c| <= 2^400 compared as bit
 * patterns: with the sign bit cleared, the order of doubles is the order
 * of their bits, and NaN and inf lie above every finite value) and of the
 * physical condition; only if either fails, or in the last, partial block
 * (whose padding lanes are not read), a per-element search. */
FEINT_INLINE void coeff_block(const coeff_case *cc, const double *coeffs, size_t blk, int nvalid,
                              int64_t limit, size_t *first_range, size_t *first_phys) {
  const size_t B = FEINT_BLOCK_LEN, e0 = blk * B;
  int suspect = nvalid < (int)B;
  if (!suspect) {
    const double *c = coeffs + e0 * (size_t)cc->n;
    const int len = (int)B * cc->n;
    int64_t top = 0;
#pragma omp simd reduction(max : top)
    for (int i = 0; i < len; i++) {
      int64_t bits;
      memcpy(&bits, &c[i], sizeof bits);
      bits &= INT64_MAX;
      top = bits > top ? bits : top;
    }
    int ok = top <= limit;
    for (int lane = 0; lane < (int)B; lane++) ok &= coeff_phys_ok(cc, c + (size_t)lane * cc->lane_step);
    suspect = !ok;
  }
  if (!suspect) return;
  for (int lane = 0; lane < nvalid; lane++) {
    const size_t e = e0 + (size_t)lane;
    const double *c = coeff_elem(cc, coeffs, e);
    if (e < *first_range && !feint_coeffs_in_range(c, cc->n, (int)cc->entry_step)) *first_range = e;
    if (e < *first_phys && !coeff_phys_ok(cc, c)) *first_phys = e;
  }
}

static coeff_case coeff_case_of(int element, int problem, int layout) {
  const int blocked = layout == FEINT_LAYOUT_BLOCKED;
  const coeff_case cc = {problem,
                         feint_problem_coeffs(element, problem),
                         phys_points(element, problem),
                         phys_record(problem),
                         blocked ? 1 : (size_t)feint_problem_coeffs(element, problem),
                         blocked ? FEINT_BLOCK_LEN : 1};
  return cc;
}

/* ---- The sweep ------------------------------------------------------------ */

/* Where a scan's geometry comes from: an array of per-element geometry
 * (geo, in the scan's layout), or a mesh (conn != NULL: the vertex
 * coordinates gathered through the connectivity, block by block, into an
 * L1 buffer by the mesh drivers' own gather, kernel/gather.h). */
typedef struct {
  const double *geo;
  const uint32_t *conn;
  const double *coords;
} geo_source;

/* Blocks [blk_lo, blk_hi) of one case; et is a literal at every call, so
 * the Jacobians of all quadrature points unroll (for tetrahedra they
 * coincide and merge).  Each block of geometry is read in the blocked
 * order (in place, or transposed from the natural layout through an L1
 * buffer with contiguous loads, kernel/block_io.h, or gathered from a
 * mesh into that buffer), so the lane loop vectorises with unit stride, no
 * gathers; the block's coefficients follow (coeff_block).  The first bad
 * indices are min-reductions. */
FEINT_INLINE void scan_range(const int et, int layout, size_t blk_lo, size_t blk_hi,
                             size_t num_elem, const geo_source *src, const double *coeffs,
                             const coeff_case *cc, int check_affine, feint_scan_firsts *first) {
  const double *geo = src->geo;
  const int size = 3 * feint_elem_nodes(et);
  size_t bad_det = SIZE_MAX, bad_affine = SIZE_MAX, rescale = SIZE_MAX;
  size_t bad_range = SIZE_MAX, bad_phys = SIZE_MAX;
  int64_t limit; /* the bits of FEINT_SAFE_COEFF */
  const double safe = FEINT_SAFE_COEFF;
  memcpy(&limit, &safe, sizeof limit);
  for (size_t blk = blk_lo; blk < blk_hi; blk++) {
    const size_t e0 = blk * FEINT_BLOCK_LEN;
    const int nvalid = num_elem - e0 < FEINT_BLOCK_LEN ? (int)(num_elem - e0) : FEINT_BLOCK_LEN;
    if (coeffs != NULL) coeff_block(cc, coeffs, blk, nvalid, limit, &bad_range, &bad_phys);
    if (geo == NULL && src->conn == NULL) continue;
    double buf[3 * FEINT_MAX_NODES * FEINT_BLOCK_LEN] __attribute__((aligned(64)));
    double tmp[3 * FEINT_MAX_NODES * FEINT_BLOCK_LEN] __attribute__((aligned(64)));
    const double *g = buf;
    if (src->conn != NULL) {
      const int ns = feint_elem_nodes(et);
      size_t elem[FEINT_B];
      feint_block_elems(e0, nvalid, elem);
      feint_prefetch_mesh_block(src->conn, ns, num_elem, e0, FEINT_PREFETCH_AHEAD, 2, NULL, 0,
                                src->coords, 3 * sizeof(double), NULL, 0);
      feint_gather_coords_block(ns, src->conn, src->coords, elem, buf);
    } else {
      feint_prefetch_ahead(geo, size, blk, blk_hi); /* kernel/block_io.h */
      g = feint_block_in(layout, geo, size, blk, nvalid, buf, tmp);
    }
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
  const size_t found[5] = {bad_det, bad_affine, rescale, bad_range, bad_phys};
  size_t *slot[5] = {&first->degenerate, &first->not_affine, &first->rescale,
                     &first->coeff_range, &first->coeff_phys};
#pragma omp critical(feint_validate_scan)
  for (int k = 0; k < 5; k++) *slot[k] = found[k] < *slot[k] ? found[k] : *slot[k];
}

static void scan(int element, int problem, int layout, size_t num_elem, const geo_source *src,
                 const double *coeffs, int check_affine, feint_scan_firsts *first) {
  const feint_scan_firsts none = {SIZE_MAX, SIZE_MAX, SIZE_MAX, SIZE_MAX, SIZE_MAX};
  *first = none;
  const coeff_case cc = coeff_case_of(element, problem, layout);
#pragma omp parallel
  {
    /* static partition of the blocks by hand: the case dispatch must sit
     * inside the parallel region for the element type to be a constant there */
    const size_t num_blk = (num_elem + FEINT_BLOCK_LEN - 1) / FEINT_BLOCK_LEN;
    size_t lo = 0, hi = num_blk;
#ifdef _OPENMP
    feint_thread_range(num_blk, omp_get_thread_num(), omp_get_num_threads(), &lo, &hi);
#endif
    if (element == FEINT_TET4)
      scan_range(FEINT_TET4, layout, lo, hi, num_elem, src, coeffs, &cc, check_affine, first);
    else if (element == FEINT_PRISM6)
      scan_range(FEINT_PRISM6, layout, lo, hi, num_elem, src, coeffs, &cc, check_affine, first);
    else
      scan_range(FEINT_HEX8, layout, lo, hi, num_elem, src, coeffs, &cc, check_affine, first);
  }
}

void feint_validate_scan(int element, int problem, int layout, size_t num_elem,
                         const double *geometry, const double *coeffs, int check_affine,
                         feint_scan_firsts *first) {
  const geo_source src = {geometry, NULL, NULL};
  scan(element, problem, layout, num_elem, &src, coeffs, check_affine, first);
}

void feint_validate_scan_mesh(int element, int problem, int layout, size_t num_elem,
                              const uint32_t *conn, const double *coords, const double *coeffs,
                              int check_affine, feint_scan_firsts *first) {
  const geo_source src = {NULL, conn, coords};
  scan(element, problem, layout, num_elem, &src, coeffs, check_affine, first);
}

void feint_coeff_describe(int element, int problem, int layout, const double *coeffs, size_t e,
                          char *what, size_t what_len) {
  const coeff_case cc = coeff_case_of(element, problem, layout);
  const double *c = coeff_elem(&cc, coeffs, e);
  const size_t step = cc.entry_step;
  int q = 0;
  while (q < cc.points - 1 && phys_ok(problem, c + (size_t)(cc.record * q) * step, step)) q++;
  const double *r = c + (size_t)(cc.record * q) * step;
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
