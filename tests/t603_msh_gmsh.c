/* t603_msh_gmsh (range t6xx): meshes made by Gmsh itself at test time (gmsh -3 on the .geo files of tests/data, ASCII and binary MSH 4.1): element volumes sum to the domain's volume (boxes of tets, extruded prisms and hexahedra: to round-off; cylinder: below pi r^2 h, within the chord error, converging at order 2), physical groups read as element and face tags, tagged faces cover their areas, binary and ASCII read the same mesh. */
#define _XOPEN_SOURCE 700 /* mkdtemp */
#include <stdlib.h>
#include <unistd.h>

#include "mesh_util.h"
#include "test_util.h"

#define FEINT_TEST_PI 3.14159265358979323846
static char tmpdir[64];

/* Run gmsh on tests/data/<geo>.geo; read the result into *m. */
static feint_status gmsh_mesh(const char *geo, double clmax, int binary, feint_mesh *m) {
  const char *file = __FILE__, *slash = strrchr(file, '/');
  char cmd[1024], out[256];
  snprintf(out, sizeof out, "%s/%s_%g%s.msh", tmpdir, geo, clmax, binary ? "_bin" : "");
  snprintf(cmd, sizeof cmd,
           "gmsh -3 -format msh41 %s -clmax %g -nt 1 %.*sdata/%s.geo -o %s > %s/gmsh.log 2>&1",
           binary ? "-bin" : "", clmax, slash ? (int)(slash - file + 1) : 0, file, geo, out,
           tmpdir);
  if (system(cmd) != 0) {
    TEST_FAIL("gmsh failed: %s", cmd);
    return FEINT_ERR_IO;
  }
  const feint_status st = feint_mesh_read_msh(out, m);
  CHECK(st == FEINT_SUCCESS, "reading %s: %s", out, feint_last_error());
  return st;
}

/* Binary and ASCII files of one mesh read the same: identical indices and
 * tags; coordinates equal to the round-off of Gmsh's ASCII output (%.16g:
 * relative error <= 5e-16, so <= 1e-15 of the largest coordinate). */
static void check_same(const feint_mesh *a, const feint_mesh *b, const char *what) {
  if (a->num_vertices != b->num_vertices || a->num_elem != b->num_elem ||
      a->num_faces != b->num_faces || a->element != b->element) {
    TEST_FAIL("%s: binary and ASCII differ in counts", what);
    return;
  }
  const size_t ns = mesh_nodes(a->element);
  CHECK(memcmp(a->conn, b->conn, a->num_elem * ns * sizeof *a->conn) == 0, "%s: conn differs", what);
  CHECK(memcmp(a->elem_tags, b->elem_tags, a->num_elem * sizeof *a->elem_tags) == 0,
        "%s: element tags differ", what);
  CHECK(memcmp(a->faces, b->faces, a->num_faces * 4 * sizeof *a->faces) == 0, "%s: faces differ",
        what);
  CHECK(memcmp(a->face_tags, b->face_tags, a->num_faces * sizeof *a->face_tags) == 0,
        "%s: face tags differ", what);
  double scale = 0.0, diff = 0.0;
  for (size_t i = 0; i < 3 * a->num_vertices; i++) {
    scale = fmax(scale, fabs(a->coords[i]));
    diff = fmax(diff, fabs(a->coords[i] - b->coords[i]));
  }
  CHECK(diff <= 1e-15 * scale, "%s: coordinates differ by %g (scale %g)", what, diff, scale);
}

/* Volume to round-off, every element positive, every element tagged
 * `vol_tag`, and the faces of each tag covering their area. */
static void check_polyhedral(const feint_mesh *m, double volume, int vol_tag, const int *tags,
                             const double *areas, int num_tags, const char *what) {
  double scale;
  const double v = mesh_volume(m, &scale);
  CHECK_CLOSE(v, volume, 16.0 + (double)m->num_elem, scale, 1.0, what);
  for (size_t e = 0; e < m->num_elem; e++) {
    CHECK(mesh_elem_volume(m, e, NULL) > 0, "%s: element %zu has volume <= 0", what, e);
    CHECK(m->elem_tags[e] == vol_tag, "%s: element %zu tag %d, expected %d", what, e,
          m->elem_tags[e], vol_tag);
  }
  for (int t = 0; t < num_tags; t++) {
    double area = 0.0;
    size_t count = 0;
    for (size_t f = 0; f < m->num_faces; f++)
      if (m->face_tags[f] == tags[t]) area += mesh_face_area(m, f), count++;
    CHECK(count > 0 && fabs(area - areas[t]) <= 1e-13 * areas[t],
          "%s: faces tagged %d (%zu) cover %.17g, expected %g", what, tags[t], count, area,
          areas[t]);
  }
}

static void check_box_tet(void) {
  feint_mesh a, b;
  if (gmsh_mesh("box_tet", 0.4, 0, &a) != FEINT_SUCCESS) return;
  if (gmsh_mesh("box_tet", 0.4, 1, &b) == FEINT_SUCCESS) {
    check_same(&a, &b, "box_tet");
    feint_mesh_destroy(&b);
  }
  CHECK(a.element == FEINT_TET4 && a.num_elem > 500, "box_tet: %s, %zu elements",
        feint_element_name(a.element), a.num_elem);
  const int tags[2] = {11, 12};
  const double areas[2] = {2.0, 20.0};
  check_polyhedral(&a, 6.0, 7, tags, areas, 2, "box_tet volume");
  for (size_t f = 0; f < a.num_faces; f++) {
    CHECK(a.faces[4 * f + 3] == FEINT_NO_VERTEX, "box_tet: face %zu is not a triangle", f);
    if (a.face_tags[f] == 11)
      for (int k = 0; k < 3; k++)
        CHECK(a.coords[3 * (size_t)a.faces[4 * f + (size_t)k] + 2] == 0.0,
              "box_tet: bottom face %zu off z = 0", f);
  }
  size_t fixed;
  CHECK_STATUS(feint_mesh_orient(&a, &fixed), FEINT_SUCCESS, NULL);
  CHECK(fixed == 0, "box_tet: Gmsh tets needed %zu reorderings", fixed);
  feint_mesh_destroy(&a);
}

static void check_box_prism(void) {
  feint_mesh a, b;
  if (gmsh_mesh("box_prism", 0.3, 0, &a) != FEINT_SUCCESS) return;
  if (gmsh_mesh("box_prism", 0.3, 1, &b) == FEINT_SUCCESS) {
    check_same(&a, &b, "box_prism");
    feint_mesh_destroy(&b);
  }
  CHECK(a.element == FEINT_PRISM6 && a.num_elem % 4 == 0 && a.num_elem > 100,
        "box_prism: %s, %zu elements (4 layers)", feint_element_name(a.element), a.num_elem);
  const int tags[3] = {1, 2, 3};
  const double areas[3] = {2.0, 2.0, 3.0};
  check_polyhedral(&a, 1.0, 5, tags, areas, 3, "box_prism volume");
  for (size_t f = 0; f < a.num_faces; f++)
    CHECK((a.faces[4 * f + 3] == FEINT_NO_VERTEX) == (a.face_tags[f] != 3),
          "box_prism: face %zu (tag %d): triangles on top and bottom, quads on the sides", f,
          a.face_tags[f]);
  feint_mesh_destroy(&a);
}

static void check_box_hex(void) {
  feint_mesh a, b;
  if (gmsh_mesh("box_hex", 1.0, 0, &a) != FEINT_SUCCESS) return;
  if (gmsh_mesh("box_hex", 1.0, 1, &b) == FEINT_SUCCESS) {
    check_same(&a, &b, "box_hex");
    feint_mesh_destroy(&b);
  }
  CHECK(a.element == FEINT_HEX8 && a.num_elem == 6 * 3 * 3, "box_hex: %s, %zu elements (6 x 3 x 3)",
        feint_element_name(a.element), a.num_elem);
  const int tags[3] = {1, 2, 3};
  const double areas[3] = {2.0, 2.0, 9.0};
  check_polyhedral(&a, 3.0, 8, tags, areas, 3, "box_hex volume");
  for (size_t f = 0; f < a.num_faces; f++)
    CHECK(a.faces[4 * f + 3] != FEINT_NO_VERTEX, "box_hex: face %zu is not a quadrangle", f);
  feint_mesh_destroy(&a);
}

/* The cylinder r = 0.5, h = 1: every vertex lies on or inside the cylinder
 * (the boundary ones on it), so the mesh is inside the convex domain and
 * its volume is below pi r^2 h.  Let L bound the xy-length of the edges of
 * the boundary triangles (side and cap rims), measured on the mesh.  A
 * boundary triangle's points are convex combinations of circle points whose
 * angular span has a chord <= 2L, so they lie at least r - s from the axis,
 * s = r - sqrt(r^2 - L^2) the sagitta of that chord; every horizontal
 * section of the mesh thus holds the disc of radius r - s, and the missing
 * volume is at most pi h (r^2 - (r - s)^2) <= 2 pi r h s.  Halving the mesh
 * size divides the error by about 4 (order 2 in L). */
static double cylinder_error(double clmax) {
  feint_mesh m;
  if (gmsh_mesh("cylinder_tet", clmax, 1, &m) != FEINT_SUCCESS) return NAN;
  const double r = 0.5, h = 1.0, exact = FEINT_TEST_PI * r * r * h;
  double L = 0.0;
  for (size_t f = 0; f < m.num_faces; f++)
    for (int k = 0; k < 3; k++) {
      const double *p = m.coords + 3 * (size_t)m.faces[4 * f + (size_t)k];
      const double *q = m.coords + 3 * (size_t)m.faces[4 * f + (size_t)(k + 1) % 3];
      const int rim = fabs(hypot(p[0], p[1]) - r) < 1e-12 && fabs(hypot(q[0], q[1]) - r) < 1e-12;
      if (m.face_tags[f] == 2 || rim) L = fmax(L, hypot(p[0] - q[0], p[1] - q[1]));
    }
  const double sagitta = r - sqrt(r * r - L * L), bound = 2 * FEINT_TEST_PI * r * h * sagitta;
  double scale;
  const double v = mesh_volume(&m, &scale);
  const double err = exact - v;
  CHECK(err > -64 * DBL_EPSILON * scale, "cylinder clmax %g: volume %.17g above pi/4", clmax, v);
  CHECK(L > 0 && L < r && err <= bound,
        "cylinder clmax %g: volume error %g above the bound 2 pi r h s = %g (L = %g)", clmax, err,
        bound, L);
  for (size_t e = 0; e < m.num_elem; e++) CHECK(m.elem_tags[e] == 1, "cylinder: element tag");
  feint_mesh_destroy(&m);
  return err;
}

int main(void) {
  if (system("gmsh --version > /dev/null 2>&1") != 0) {
    printf("SKIP: gmsh not found (Debian package gmsh; make deps installs it)\n");
    return TEST_SKIP_EXIT;
  }
  snprintf(tmpdir, sizeof tmpdir, "/tmp/feint_t603_XXXXXX");
  if (!mkdtemp(tmpdir)) {
    fprintf(stderr, "t603: mkdtemp failed\n");
    return 1;
  }
  check_box_tet();
  check_box_prism();
  check_box_hex();
  const double e1 = cylinder_error(0.2), e2 = cylinder_error(0.1);
  CHECK(e2 > 0 && e1 / e2 > 2.5 && e1 / e2 < 6.5,
        "cylinder: volume error %g (clmax 0.2) / %g (clmax 0.1) = %g, expected about 4 (order 2)",
        e1, e2, e1 / e2);
  char cmd[128];
  snprintf(cmd, sizeof cmd, "rm -rf %s", tmpdir);
  if (system(cmd) != 0) fprintf(stderr, "t603: could not remove %s\n", tmpdir);
  return test_finish("t603_msh_gmsh");
}
