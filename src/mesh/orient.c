/*
 * mesh/orient.c - detect inverted elements (det J < 0) and reorder their
 * nodes (feint_mesh_orient).
 *
 * An element is classified by the sign of det J at its quadrature points
 * (where the integration evaluates it; kernel/geometry.h computes it, as the
 * validation pass of feint_integrate does): all positive - fine; all
 * negative - inverted, fixed by a node permutation that composes the
 * element map with a reflection of the reference element; anything else
 * (zero, NaN, a sign change inside the element) - degenerate, which no
 * reordering fixes.  The reflections map each element's quadrature point set
 * onto itself, so a fixed element has det J > 0 at every quadrature point:
 *   tet4   : swap nodes 1 and 2 (reference x <-> y);
 *   hex8   : swap 1 <-> 3 and 5 <-> 7 (x <-> y; the 2x2x2 Gauss points map
 *            onto themselves);
 *   prism6 : swap 1 <-> 2 and 4 <-> 5 (x <-> y in both triangles, which keeps
 *            the bottom and top triangles where they are).
 *
 * Scale.  det J is of the order of the element's size cubed: on raw
 * coordinates it overflows for elements above ~1e102 and underflows to zero
 * below ~1e-108, though feint_integrate accepts such elements (rescale.c).
 * So the signs are taken on the element multiplied by 2^-e, where max |x| =
 * f 2^e with f in [1/2, 1): every coordinate lies in (-1, 1) and |J_ab| <= 2,
 * so nothing overflows.  The scaling is exact (a coordinate loses bits only
 * if it becomes subnormal, below 2^-1021 of the largest), and every operation
 * of det J then scales exactly too: the sign is the raw one wherever the raw
 * det J neither overflows nor underflows, so ordinary meshes are classified
 * as before, and an element feint_integrate accepts (det J >= 2^-40 m^3,
 * m = max |J_ab|, itself at least ~2^-54 after scaling: an edge is at least
 * an ulp of max |x|) has a scaled det J of at least ~2^-202, far from
 * underflow.  The coordinates are not translated (to the first node, say):
 * for prisms and hexahedra that would round J differently.
 */
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "kernel/geometry.h"
#include "mesh/mesh_internal.h"

/* Node swaps of the reflection of each element type: pairs (a, b), -1 ends. */
static const int orient_swaps[FEINT_ELEMENT_COUNT][5] = {
    [FEINT_TET4] = {1, 2, -1},
    [FEINT_PRISM6] = {1, 2, 4, 5, -1},
    [FEINT_HEX8] = {1, 3, 5, 7, -1},
};

/* +1 fine, -1 inverted, 0 degenerate: the signs of det J of the element
 * scaled into (-1, 1) (see the top of the file).  et is a literal at every
 * call (elem_orientation_of), so the Jacobian's tables fold and its loops
 * unroll: with et a run-time value this took ~180 ns per tet (2 threads,
 * Zen 4, a 4.30 M-tet Gmsh mesh: 0.77 s). */
FEINT_INLINE int elem_orientation(const int et, const double *coords, const uint32_t *v) {
  double x[FEINT_MAX_NODES][3], m = 0.0;
  FEINT_UNROLL
  for (int n = 0; n < feint_elem_nodes(et); n++)
    FEINT_UNROLL
    for (int a = 0; a < 3; a++) {
      x[n][a] = coords[3 * (size_t)v[n] + (size_t)a];
      m = fabs(x[n][a]) > m ? fabs(x[n][a]) : m;
    }
  int e;
  frexp(m, &e); /* m = 0 (every node at the origin): e = 0, det J = 0 */
  if (e >= -1021 && e <= 1021) {
    /* x 2^-e by one multiplication: 2^-e is a normal double, and the
     * product is rounded once, as ldexp rounds it - the same bits */
    const uint64_t bits = (uint64_t)(1023 - e) << 52;
    double p;
    memcpy(&p, &bits, sizeof p);
    FEINT_UNROLL
    for (int n = 0; n < feint_elem_nodes(et); n++)
      FEINT_UNROLL
      for (int a = 0; a < 3; a++) x[n][a] *= p;
  } else {
    for (int n = 0; n < feint_elem_nodes(et); n++)
      for (int a = 0; a < 3; a++) x[n][a] = ldexp(x[n][a], -e);
  }
  int pos = 0, neg = 0;
  FEINT_UNROLL
  for (int q = 0; q < feint_elem_qpts(et); q++) {
    const double det = feint_jacobian_det(et, q, x);
    pos += det > 0.0 && det <= DBL_MAX;
    neg += det < 0.0 && det >= -DBL_MAX;
  }
  const int nq = feint_elem_qpts(et);
  return pos == nq ? 1 : neg == nq ? -1 : 0;
}

/* elem_orientation with the element type as a literal, one copy per type. */
static int elem_orientation_of(int et, const double *coords, const uint32_t *v) {
  return et == FEINT_TET4     ? elem_orientation(FEINT_TET4, coords, v)
         : et == FEINT_PRISM6 ? elem_orientation(FEINT_PRISM6, coords, v)
                              : elem_orientation(FEINT_HEX8, coords, v);
}

feint_status feint_mesh_orient(feint_mesh *mesh, size_t *num_fixed) {
  FEINT_CALL(feint_mesh_check(mesh));
  const int et = mesh->element, ns = feint_elem_nodes(et);
  const size_t ne = mesh->num_elem;
  const double *coords = mesh->coords;
  uint32_t *conn = mesh->conn;
  size_t first_bad = SIZE_MAX, inverted = 0;
#pragma omp parallel for schedule(static) reduction(min : first_bad) reduction(+ : inverted)
  for (size_t e = 0; e < ne; e++) {
    const int o = elem_orientation_of(et, coords, conn + e * (size_t)ns);
    if (o == 0 && e < first_bad) first_bad = e;
    inverted += o < 0;
  }
  FEINT_CHECK(first_bad == SIZE_MAX, FEINT_ERR_DEGENERATE,
              "element %zu has a zero, non-finite or sign-changing det J; reordering its nodes "
              "cannot fix it (mesh unchanged)",
              first_bad);
  if (inverted > 0) {
    const int *swap = orient_swaps[et];
#pragma omp parallel for schedule(static)
    for (size_t e = 0; e < ne; e++) {
      uint32_t *v = conn + e * (size_t)ns;
      if (elem_orientation_of(et, coords, v) > 0) continue;
      for (int s = 0; swap[s] >= 0; s += 2) {
        const uint32_t t = v[swap[s]];
        v[swap[s]] = v[swap[s + 1]];
        v[swap[s + 1]] = t;
      }
    }
  }
  if (num_fixed) *num_fixed = inverted;
  return FEINT_SUCCESS;
}
