/* t602_mesh_orient (range t6xx): feint_mesh_orient on meshes with every second element inverted (tets and prisms) fixes exactly those, keeps each element's vertex set and the total volume; degenerate and twisted elements are refused with the mesh unchanged; the result does not depend on scale (1e-300 .. 1e300, where the raw det J over- or underflows). */
#include <stdlib.h>

#include "mesh_util.h"
#include "test_util.h"

static int cmp_u32(const void *a, const void *b) {
  const uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
  return (x > y) - (x < y);
}

static void check_every_second_inverted(feint_element el) {
  feint_mesh m;
  CHECK_STATUS(feint_mesh_box_create(el, 4, 5, 3, FEINT_PERTURB_GENERAL, 0.15, 5, &m),
               FEINT_SUCCESS, NULL);
  const size_t ns = el == FEINT_TET4 ? 4 : el == FEINT_PRISM6 ? 6 : 8, ne = m.num_elem;
  uint32_t *orig = malloc(ne * ns * sizeof *orig);
  memcpy(orig, m.conn, ne * ns * sizeof *orig);
  /* invert every second element by a reflection other than the one the fix
   * uses: tets swap nodes 0 and 3, prisms and hexes swap their bottom and top */
  for (size_t e = 1; e < ne; e += 2) {
    uint32_t *v = m.conn + e * ns;
    if (el == FEINT_TET4) {
      const uint32_t t = v[0];
      v[0] = v[3];
      v[3] = t;
    } else
      for (size_t i = 0; i < ns / 2; i++) {
        const uint32_t t = v[i];
        v[i] = v[i + ns / 2];
        v[i + ns / 2] = t;
      }
  }
  for (size_t e = 0; e < ne; e++) {
    const double vol = mesh_elem_volume(&m, e, NULL);
    CHECK(e % 2 ? vol < 0 : vol > 0, "%s element %zu: volume %g before orient",
          feint_element_name(el), e, vol);
  }
  size_t fixed = 12345;
  CHECK_STATUS(feint_mesh_orient(&m, &fixed), FEINT_SUCCESS, NULL);
  CHECK(fixed == ne / 2, "%s: fixed %zu elements, expected %zu", feint_element_name(el), fixed,
        ne / 2);
  for (size_t e = 0; e < ne; e++) {
    CHECK(mesh_elem_volume(&m, e, NULL) > 0, "%s element %zu inverted after orient",
          feint_element_name(el), e);
    uint32_t a[8], b[8];
    memcpy(a, m.conn + e * ns, ns * sizeof *a);
    memcpy(b, orig + e * ns, ns * sizeof *b);
    qsort(a, ns, sizeof *a, cmp_u32);
    qsort(b, ns, sizeof *b, cmp_u32);
    CHECK(memcmp(a, b, ns * sizeof *a) == 0, "%s element %zu: vertex set changed",
          feint_element_name(el), e);
    if (e % 2 == 0)
      CHECK(memcmp(m.conn + e * ns, orig + e * ns, ns * sizeof *a) == 0,
            "%s element %zu was fine and got reordered", feint_element_name(el), e);
  }
  double scale;
  CHECK_CLOSE(mesh_volume(&m, &scale), 1.0, 16.0 + (double)ne, scale, 1.0, "volume after orient");
  /* the fixed elements pass feint_integrate's validation pass */
  size_t len;
  feint_array_len(el, FEINT_POISSON, FEINT_ARRAY_GEOMETRY, FEINT_LAYOUT_NATURAL, ne, &len);
  double *geo = malloc(len * sizeof *geo), *coef = calloc(ne * ns, sizeof *coef);
  double *A = malloc(ne * ns * ns * sizeof *A), *b = malloc(ne * ns * sizeof *b);
  CHECK_STATUS(feint_mesh_gather_geometry(&m, FEINT_LAYOUT_NATURAL, geo), FEINT_SUCCESS, NULL);
  const feint_integrate_desc d = {el, FEINT_POISSON, FEINT_QSS_GEO_GENERIC, FEINT_LAYOUT_NATURAL,
                                  FEINT_LAYOUT_NATURAL, 0, FEINT_TARGET_HOST, 0};
  CHECK_STATUS(feint_integrate(&d, ne, geo, coef, A, b), FEINT_SUCCESS, NULL);
  free(geo);
  free(coef);
  free(A);
  free(b);
  /* a second pass has nothing to fix; num_fixed may be NULL */
  CHECK_STATUS(feint_mesh_orient(&m, &fixed), FEINT_SUCCESS, NULL);
  CHECK(fixed == 0, "second orient fixed %zu", fixed);
  CHECK_STATUS(feint_mesh_orient(&m, NULL), FEINT_SUCCESS, NULL);
  free(orig);
  feint_mesh_destroy(&m);
}

static void check_refused(void) {
  /* a flat tet (element 1) after an inverted one (element 0) */
  double coords[6][3] = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0, 0, 1}, {1, 1, 0}, {0, 0, 0}};
  uint32_t conn[2][4] = {{0, 2, 1, 3}, {0, 1, 2, 4}};
  uint32_t copy[2][4];
  memcpy(copy, conn, sizeof conn);
  feint_mesh m = {0};
  m.element = FEINT_TET4;
  m.num_vertices = 5;
  m.num_elem = 2;
  m.coords = &coords[0][0];
  m.conn = &conn[0][0];
  size_t fixed = 77;
  CHECK_STATUS(feint_mesh_orient(&m, &fixed), FEINT_ERR_DEGENERATE, "element 1 ");
  CHECK(fixed == 77 && memcmp(conn, copy, sizeof conn) == 0, "orient wrote on an error path");
  coords[4][2] = NAN;
  CHECK_STATUS(feint_mesh_orient(&m, &fixed), FEINT_ERR_NOT_FINITE, "vertex 4");
  CHECK_STATUS(feint_mesh_orient(NULL, &fixed), FEINT_ERR_NULL_ARG, "mesh is NULL");

  /* a twisted prism: the top triangle runs the other way round, so det J
   * changes sign between the two Gauss levels */
  double pc[6][3] = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0, 0, 1}, {0, 1, 1}, {1, 0, 1}};
  uint32_t pconn[6] = {0, 1, 2, 3, 4, 5}, pcopy[6];
  memcpy(pcopy, pconn, sizeof pconn);
  feint_mesh p = {0};
  p.element = FEINT_PRISM6;
  p.num_vertices = 6;
  p.num_elem = 1;
  p.coords = &pc[0][0];
  p.conn = pconn;
  CHECK_STATUS(feint_mesh_orient(&p, &fixed), FEINT_ERR_DEGENERATE, "element 0 ");
  CHECK(memcmp(pconn, pcopy, sizeof pconn) == 0, "orient wrote a twisted prism");
  /* the same prism untwisted but upside down: fixed */
  pc[4][0] = 1, pc[4][1] = 0, pc[5][0] = 0, pc[5][1] = 1;
  for (int i = 0; i < 3; i++) pc[i][2] = 1, pc[i + 3][2] = 0;
  CHECK_STATUS(feint_mesh_orient(&p, &fixed), FEINT_SUCCESS, NULL);
  CHECK(fixed == 1 && pconn[1] == 2 && pconn[2] == 1 && pconn[4] == 5 && pconn[5] == 4,
        "upside-down prism: fixed %zu, conn %u %u %u %u %u %u", fixed, pconn[0], pconn[1],
        pconn[2], pconn[3], pconn[4], pconn[5]);
  CHECK(fabs(mesh_elem_volume(&p, 0, NULL) - 0.5) <= 4 * DBL_EPSILON, "prism volume %g",
        mesh_elem_volume(&p, 0, NULL));
}

/* Orientation does not depend on scale: the mesh of
 * check_every_second_inverted scaled by 1e110 (det J ~ 1e330 would
 * overflow), 1e-120 (det J ~ 1e-360 would underflow to 0), 1e300 and
 * 1e-300 is fixed exactly as at unit scale, and feint_integrate accepts the
 * result; a flat element at those scales is still refused. */
static void check_scales(feint_element el) {
  static const double scales[] = {1e110, 1e-120, 1e300, 1e-300};
  feint_mesh m;
  CHECK_STATUS(feint_mesh_box_create(el, 3, 2, 2, FEINT_PERTURB_GENERAL, 0.15, 6, &m),
               FEINT_SUCCESS, NULL);
  const size_t ns = mesh_nodes(el), ne = m.num_elem, nv = m.num_vertices;
  /* invert every second element: tets swap nodes 0 and 3, prisms and hexes
   * their bottom and top */
  for (size_t e = 1; e < ne; e += 2) {
    uint32_t *v = m.conn + e * ns;
    const size_t pairs = el == FEINT_TET4 ? 1 : ns / 2, step = el == FEINT_TET4 ? 3 : ns / 2;
    for (size_t i = 0; i < pairs; i++) {
      const uint32_t t = v[i];
      v[i] = v[i + step];
      v[i + step] = t;
    }
  }
  uint32_t *unit_conn = malloc(ne * ns * sizeof *unit_conn);
  memcpy(unit_conn, m.conn, ne * ns * sizeof *unit_conn);
  feint_mesh unit = m;
  unit.conn = unit_conn;
  size_t fixed_unit = 0;
  CHECK_STATUS(feint_mesh_orient(&unit, &fixed_unit), FEINT_SUCCESS, NULL);
  CHECK(fixed_unit == ne / 2, "%s: fixed %zu of %zu at unit scale", feint_element_name(el),
        fixed_unit, ne);
  size_t len;
  feint_array_len(el, FEINT_POISSON, FEINT_ARRAY_GEOMETRY, FEINT_LAYOUT_NATURAL, ne, &len);
  double *geo = malloc(len * sizeof *geo), *coef = calloc(ne * ns, sizeof *coef);
  double *A = malloc(ne * ns * ns * sizeof *A), *b = malloc(ne * ns * sizeof *b);
  const feint_integrate_desc d = {el, FEINT_POISSON, FEINT_QSS_GEO_GENERIC, FEINT_LAYOUT_NATURAL,
                                  FEINT_LAYOUT_NATURAL, 0, FEINT_TARGET_HOST, 0};
  for (size_t s = 0; s < sizeof scales / sizeof scales[0]; s++) {
    feint_mesh c = m;
    c.owns_arrays = 0;
    c.coords = malloc(nv * 3 * sizeof *c.coords);
    c.conn = malloc(ne * ns * sizeof *c.conn);
    for (size_t i = 0; i < 3 * nv; i++) c.coords[i] = m.coords[i] * scales[s];
    memcpy(c.conn, m.conn, ne * ns * sizeof *c.conn);
    size_t fixed = 0;
    CHECK_STATUS(feint_mesh_orient(&c, &fixed), FEINT_SUCCESS, NULL);
    CHECK(fixed == fixed_unit && memcmp(c.conn, unit.conn, ne * ns * sizeof *c.conn) == 0,
          "%s scaled by %g: fixed %zu (%zu at unit scale), or a different connectivity",
          feint_element_name(el), scales[s], fixed, fixed_unit);
    CHECK_STATUS(feint_mesh_gather_geometry(&c, FEINT_LAYOUT_NATURAL, geo), FEINT_SUCCESS, NULL);
    CHECK_STATUS(feint_integrate(&d, ne, geo, coef, A, b), FEINT_SUCCESS, NULL);
    /* element 0 flattened onto the plane z = const of its node 0 */
    const uint32_t *v = c.conn;
    const double z = c.coords[3 * (size_t)v[0] + 2];
    for (size_t n = 0; n < ns; n++) c.coords[3 * (size_t)v[n] + 2] = z;
    CHECK_STATUS(feint_mesh_orient(&c, &fixed), FEINT_ERR_DEGENERATE, "element 0 ");
    free(c.coords);
    free(c.conn);
  }
  free(geo), free(coef), free(A), free(b), free(unit_conn);
  feint_mesh_destroy(&m);
}

int main(void) {
  for (int el = 0; el < FEINT_ELEMENT_COUNT; el++) check_every_second_inverted((feint_element)el);
  for (int el = 0; el < FEINT_ELEMENT_COUNT; el++) check_scales((feint_element)el);
  check_refused();
  return test_finish("t602_mesh_orient");
}
