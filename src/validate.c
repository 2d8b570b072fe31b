/*
 * validate.c - the validation pass over the geometry that feint_integrate
 * runs before writing any output (skipped with FEINT_FLAG_TRUST_GEOMETRY).
 *
 * An element is degenerate if det J is not positive and finite at one of
 * its quadrature points (for a tetrahedron, at any point: J is constant).
 * A prism is affine if its top face is a translate of its bottom face:
 * x_{3+i} - x_i is the same vector for i = 0, 1, 2.  Coordinates carry a
 * rounding error of at most eps/2 |x| each, so the difference of two such
 * edge vectors may be off by 2 eps max|x| for an exactly affine prism; the
 * test allows 8 eps max|x| per component.
 */
#include <float.h>
#include <math.h>
#include <stdint.h>

#include "feint_internal.h"
#include "kernel/geometry.h"

#define FEINT_AFFINE_TOL_EPS 8.0

static int prism_is_affine(const double x[FEINT_MAX_NODES][3]) {
  double scale = 0.0;
  for (int n = 0; n < 6; n++)
    for (int a = 0; a < 3; a++) scale = fmax(scale, fabs(x[n][a]));
  const double tol = FEINT_AFFINE_TOL_EPS * DBL_EPSILON * scale;
  for (int i = 1; i < 3; i++)
    for (int a = 0; a < 3; a++) {
      const double d0 = x[3][a] - x[0][a], di = x[3 + i][a] - x[i][a];
      if (!(fabs(di - d0) <= tol)) return 0;
    }
  return 1;
}

void feint_geometry_scan(int element, int layout, size_t num_elem, const double *geometry,
                         int check_affine, size_t *first_degenerate, size_t *first_not_affine) {
  const int ns = feint_elem_nodes(element), nq = feint_elem_qpts(element);
  const size_t size = 3 * (size_t)ns;
  size_t bad_det = SIZE_MAX, bad_affine = SIZE_MAX;
#pragma omp parallel for schedule(static) reduction(min : bad_det, bad_affine)
  for (size_t e = 0; e < num_elem; e++) {
    double x[FEINT_MAX_NODES][3];
    if (layout == FEINT_LAYOUT_BLOCKED) {
      const size_t blk = e / FEINT_BLOCK_LEN, lane = e % FEINT_BLOCK_LEN;
      feint_load_nodes(element, geometry + blk * FEINT_BLOCK_LEN * size + lane, FEINT_BLOCK_LEN, x);
    } else {
      feint_load_nodes(element, geometry + e * size, 1, x);
    }
    for (int q = 0; q < nq; q++) {
      const double det = feint_jacobian_det(element, q, x);
      if (!(det > 0.0 && det <= DBL_MAX)) {
        if (e < bad_det) bad_det = e;
        break;
      }
    }
    if (check_affine && element == FEINT_PRISM6 && !prism_is_affine(x) && e < bad_affine)
      bad_affine = e;
  }
  *first_degenerate = bad_det;
  *first_not_affine = bad_affine;
}
