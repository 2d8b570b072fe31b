/* t601_mesh_box_check (range t6xx: meshes and their I/O): the box mesh with connectivity (counts, shared vertices, volumes, tagged boundary faces, equal to the per-element generator bit for bit), feint_mesh_check on every class of bad mesh and, with several problems at once, in the documented order, tet FEINT_PERTURB_AFFINE moving vertices per column and layer, feint_mesh_destroy, feint_mesh_gather_geometry. */
#include <stdlib.h>

#include "mesh_util.h"
#include "test_util.h"

/* Box meshes: counts, every vertex used, volumes sum to 1, each boundary
 * face lies on the plane of its tag and each tag's faces cover area 1. */
static void check_box_mesh(feint_element el, feint_perturb perturb) {
  const size_t nx = 5, ny = 4, nz = 3;
  feint_mesh m;
  CHECK_STATUS(feint_mesh_box_create(el, nx, ny, nz, perturb, 0.15, 99, &m), FEINT_SUCCESS, NULL);
  const size_t per_cell = el == FEINT_TET4 ? 6 : el == FEINT_PRISM6 ? 2 : 1;
  const size_t ns = el == FEINT_TET4 ? 4 : el == FEINT_PRISM6 ? 6 : 8;
  CHECK(m.num_vertices == 6 * 5 * 4, "num_vertices = %zu, expected 120", m.num_vertices);
  CHECK(m.num_elem == per_cell * nx * ny * nz, "num_elem = %zu", m.num_elem);
  CHECK(m.owns_arrays == 1 && m.elem_tags == NULL && m.element == el, "mesh fields");
  CHECK_STATUS(feint_mesh_check(&m), FEINT_SUCCESS, NULL);
  /* every vertex is used, and vertex (i,j,k) sits at its grid position up to
   * the perturbation (boundary coordinates exact) */
  char *used = calloc(m.num_vertices, 1);
  for (size_t i = 0; i < m.num_elem * ns; i++) used[m.conn[i]] = 1;
  for (size_t v = 0; v < m.num_vertices; v++) {
    CHECK(used[v], "vertex %zu unused", v);
    const size_t idx[3] = {v % (nx + 1), (v / (nx + 1)) % (ny + 1), v / ((nx + 1) * (ny + 1))};
    const size_t n[3] = {nx, ny, nz};
    for (int a = 0; a < 3; a++) {
      const double h = 1.0 / (double)n[a], grid = (double)idx[a] * h; /* as documented: i h */
      const double x = m.coords[3 * v + (size_t)a];
      if (perturb == FEINT_PERTURB_NONE || idx[a] == 0 || idx[a] == n[a])
        CHECK(x == grid, "vertex %zu coordinate %d = %.17g, expected %.17g", v, a, x, grid);
      else
        CHECK(fabs(x - grid) <= 0.15 * h * (1 + 1e-12), "vertex %zu coordinate %d = %g moved too far",
              v, a, x);
    }
  }
  free(used);
  /* volumes: positive, summing to 1 */
  double scale;
  for (size_t e = 0; e < m.num_elem; e++)
    CHECK(mesh_elem_volume(&m, e, NULL) > 0, "element %zu has non-positive volume", e);
  CHECK_CLOSE(mesh_volume(&m, &scale), 1.0, 16.0 + (double)m.num_elem, scale, 1.0, "box volume");
  /* boundary faces */
  const size_t expect_faces = el == FEINT_TET4     ? 4 * (nx * ny + ny * nz + nx * nz)
                              : el == FEINT_PRISM6 ? 4 * nx * ny + 2 * (ny * nz + nx * nz)
                                                   : 2 * (nx * ny + ny * nz + nx * nz);
  CHECK(m.num_faces == expect_faces, "num_faces = %zu, expected %zu", m.num_faces, expect_faces);
  double area[7] = {0};
  for (size_t f = 0; f < m.num_faces; f++) {
    const int tag = m.face_tags[f];
    if (tag < 1 || tag > 6) {
      CHECK(0, "face %zu tag %d", f, tag);
      continue;
    }
    const int a = (tag - 1) / 2;
    const double plane = (tag - 1) % 2;
    const int nv = m.faces[4 * f + 3] == FEINT_NO_VERTEX ? 3 : 4;
    CHECK(nv == (el == FEINT_HEX8 ? 4 : el == FEINT_TET4 || a == 2 ? 3 : 4),
          "face %zu has %d vertices", f, nv);
    for (int i = 0; i < nv; i++)
      CHECK(m.coords[3 * (size_t)m.faces[4 * f + (size_t)i] + (size_t)a] == plane,
            "face %zu (tag %d) vertex off its plane", f, tag);
    area[tag] += mesh_face_area(&m, f);
  }
  for (int t = 1; t <= 6; t++)
    CHECK(fabs(area[t] - 1.0) <= 64 * DBL_EPSILON, "tag %d faces cover area %.17g", t, area[t]);

  /* feint_mesh_box is this mesh gathered, bit for bit, in both layouts */
  for (int l = 0; l < FEINT_LAYOUT_COUNT; l++) {
    size_t len;
    feint_array_len(el, FEINT_POISSON, FEINT_ARRAY_GEOMETRY, (feint_layout)l, m.num_elem, &len);
    double *g1 = calloc(len, sizeof *g1), *g2 = calloc(len, sizeof *g2);
    CHECK_STATUS(feint_mesh_box(el, nx, ny, nz, perturb, 0.15, 99, (feint_layout)l, g1),
                 FEINT_SUCCESS, NULL);
    CHECK_STATUS(feint_mesh_gather_geometry(&m, (feint_layout)l, g2), FEINT_SUCCESS, NULL);
    CHECK(memcmp(g1, g2, len * sizeof *g1) == 0, "%s layout %d: gathered mesh != feint_mesh_box",
          feint_element_name(el), l);
    /* natural layout: node n of element e is coords[conn[e][n]] */
    if (l == FEINT_LAYOUT_NATURAL)
      for (size_t e = 0; e < m.num_elem; e++)
        for (size_t n = 0; n < ns; n++)
          for (int a = 0; a < 3; a++)
            CHECK(g2[(e * ns + n) * 3 + (size_t)a] == m.coords[3 * m.conn[e * ns + n] + (size_t)a],
                  "gathered element %zu node %zu", e, n);
    free(g1);
    free(g2);
  }
  CHECK_STATUS(feint_mesh_destroy(&m), FEINT_SUCCESS, NULL);
  CHECK(m.coords == NULL && m.conn == NULL && m.faces == NULL && m.num_elem == 0,
        "destroy left fields set");
  CHECK_STATUS(feint_mesh_destroy(&m), FEINT_SUCCESS, NULL); /* second destroy: no-op */
}

/* A 2-tet mesh the caller owns (stack arrays: destroy must not free them). */
static double g_coords[5][3] = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0, 0, 1}, {1, 1, 1}};
static uint32_t g_conn[2][4] = {{0, 1, 2, 3}, {1, 2, 3, 4}};
static uint32_t g_faces[1][4] = {{0, 1, 2, FEINT_NO_VERTEX}};

static feint_mesh caller_mesh(void) {
  feint_mesh m = {0};
  m.element = FEINT_TET4;
  m.num_vertices = 5;
  m.num_elem = 2;
  m.coords = &g_coords[0][0];
  m.conn = &g_conn[0][0];
  m.num_faces = 1;
  m.faces = &g_faces[0][0];
  return m;
}

static void check_mesh_errors(void) {
  feint_mesh m = caller_mesh();
  CHECK_STATUS(feint_mesh_check(&m), FEINT_SUCCESS, NULL);
  CHECK_STATUS(feint_mesh_check(NULL), FEINT_ERR_NULL_ARG, "mesh is NULL");
  m.element = (feint_element)7;
  CHECK_STATUS(feint_mesh_check(&m), FEINT_ERR_OUT_OF_RANGE, "mesh->element = 7");
  m = caller_mesh();
  m.num_elem = 0;
  CHECK_STATUS(feint_mesh_check(&m), FEINT_ERR_BAD_SIZE, "empty mesh");
  m = caller_mesh();
  m.num_vertices = 0;
  CHECK_STATUS(feint_mesh_check(&m), FEINT_ERR_BAD_SIZE, "empty mesh");
  m = caller_mesh();
  m.num_vertices = (size_t)UINT32_MAX + 1;
  CHECK_STATUS(feint_mesh_check(&m), FEINT_ERR_BAD_SIZE, "32-bit");
  m = caller_mesh();
  m.num_elem = SIZE_MAX / 8;
  CHECK_STATUS(feint_mesh_check(&m), FEINT_ERR_BAD_SIZE, "conn bytes overflow");
  m = caller_mesh();
  m.num_faces = SIZE_MAX / 8;
  CHECK_STATUS(feint_mesh_check(&m), FEINT_ERR_BAD_SIZE, "faces bytes overflow");
  m = caller_mesh();
  m.coords = NULL;
  CHECK_STATUS(feint_mesh_check(&m), FEINT_ERR_NULL_ARG, "mesh->coords");
  m = caller_mesh();
  m.conn = NULL;
  CHECK_STATUS(feint_mesh_check(&m), FEINT_ERR_NULL_ARG, "mesh->conn");
  m = caller_mesh();
  m.faces = NULL;
  CHECK_STATUS(feint_mesh_check(&m), FEINT_ERR_NULL_ARG, "mesh->faces");

  /* bad values: copies, so the fixture stays good */
  double coords[5][3];
  uint32_t conn[2][4], faces[1][4];
  memcpy(coords, g_coords, sizeof coords);
  memcpy(conn, g_conn, sizeof conn);
  memcpy(faces, g_faces, sizeof faces);
  m = caller_mesh();
  m.coords = &coords[0][0];
  m.conn = &conn[0][0];
  m.faces = &faces[0][0];
  coords[3][1] = NAN;
  CHECK_STATUS(feint_mesh_check(&m), FEINT_ERR_NOT_FINITE, "vertex 3 has coordinate y = nan");
  coords[3][1] = 0.0;
  coords[4][2] = -INFINITY;
  CHECK_STATUS(feint_mesh_check(&m), FEINT_ERR_NOT_FINITE, "vertex 4 has coordinate z = -inf");
  coords[4][2] = 1.0;
  conn[1][3] = 5;
  CHECK_STATUS(feint_mesh_check(&m), FEINT_ERR_OUT_OF_RANGE,
               "element 1 node 3 is vertex 5, outside [0, num_vertices = 5)");
  conn[1][3] = FEINT_NO_VERTEX;
  CHECK_STATUS(feint_mesh_check(&m), FEINT_ERR_OUT_OF_RANGE, "element 1 node 3");
  conn[1][3] = 4;
  conn[1][2] = 1;
  CHECK_STATUS(feint_mesh_check(&m), FEINT_ERR_DEGENERATE,
               "element 1 repeats vertex 1 (nodes 0 and 2)");
  conn[1][2] = 3;
  faces[0][2] = 9;
  CHECK_STATUS(feint_mesh_check(&m), FEINT_ERR_OUT_OF_RANGE, "face 0 node 2 is vertex 9");
  faces[0][2] = 0;
  CHECK_STATUS(feint_mesh_check(&m), FEINT_ERR_DEGENERATE, "face 0 repeats vertex 0");
  faces[0][2] = 2;
  CHECK_STATUS(feint_mesh_check(&m), FEINT_SUCCESS, NULL);
  /* the lowest bad element is named */
  conn[0][1] = 0;
  conn[1][1] = 3;
  CHECK_STATUS(feint_mesh_check(&m), FEINT_ERR_DEGENERATE, "element 0 repeats");

  /* gather: errors leave geometry untouched */
  m = caller_mesh();
  double geo[24], copy[24];
  for (int i = 0; i < 24; i++) geo[i] = copy[i] = -1.0 - i;
  CHECK_STATUS(feint_mesh_gather_geometry(&m, FEINT_LAYOUT_NATURAL, NULL), FEINT_ERR_NULL_ARG,
               "geometry");
  CHECK_STATUS(feint_mesh_gather_geometry(&m, FEINT_LAYOUT_COUNT, geo), FEINT_ERR_OUT_OF_RANGE,
               "layout");
  m.conn = &conn[0][0];
  CHECK_STATUS(feint_mesh_gather_geometry(&m, FEINT_LAYOUT_NATURAL, geo), FEINT_ERR_DEGENERATE,
               "element 0");
  CHECK(memcmp(geo, copy, sizeof geo) == 0, "feint_mesh_gather_geometry wrote on an error path");

  /* destroy of a caller-owned mesh frees nothing (ASan would flag a free of
   * static arrays) and zeroes the struct */
  m = caller_mesh();
  CHECK_STATUS(feint_mesh_destroy(&m), FEINT_SUCCESS, NULL);
  CHECK(m.coords == NULL && m.num_vertices == 0, "destroy did not zero a caller mesh");
  CHECK(g_coords[1][0] == 1.0, "destroy touched caller arrays");
  CHECK_STATUS(feint_mesh_destroy(NULL), FEINT_ERR_NULL_ARG, "mesh is NULL");

  /* box_create errors: *mesh untouched */
  feint_mesh out, before;
  memset(&out, 0x5a, sizeof out);
  before = out;
  CHECK_STATUS(feint_mesh_box_create(FEINT_TET4, 2, 2, 2, FEINT_PERTURB_GENERAL, 0.25, 1, &out),
               FEINT_ERR_OUT_OF_RANGE, "amplitude");
  CHECK_STATUS(feint_mesh_box_create(FEINT_TET4, 0, 2, 2, FEINT_PERTURB_NONE, 0.0, 1, &out),
               FEINT_ERR_BAD_SIZE, "nx");
  CHECK_STATUS(feint_mesh_box_create(FEINT_PRISM6, 1u << 16, 1u << 16, 2, FEINT_PERTURB_NONE,
                                     0.0, 1, &out),
               FEINT_ERR_BAD_SIZE, "32-bit");
  CHECK_STATUS(feint_mesh_box_create((feint_element)3, 2, 2, 2, FEINT_PERTURB_NONE, 0.0, 1, &out),
               FEINT_ERR_OUT_OF_RANGE, "element");
  CHECK_STATUS(feint_mesh_box_create(FEINT_TET4, 2, 2, 2, (feint_perturb)4, 0.0, 1, &out),
               FEINT_ERR_OUT_OF_RANGE, "perturb");
  CHECK_STATUS(feint_mesh_box_create(FEINT_TET4, 2, 2, 2, FEINT_PERTURB_NONE, 0.0, 1, NULL),
               FEINT_ERR_NULL_ARG, "mesh");
  CHECK(memcmp(&out, &before, sizeof out) == 0, "feint_mesh_box_create wrote on an error path");
}

/* The element scan of feint_mesh_check for every element type (its test
 * is unrolled per node count): in a box mesh, the last node of element 5
 * repeated from the first, then out of range; each named, then the mesh
 * restored and accepted. */
static void check_elem_scan_each_type(void) {
  for (int el = 0; el < FEINT_ELEMENT_COUNT; el++) {
    feint_mesh m;
    CHECK_STATUS(feint_mesh_box_create((feint_element)el, 2, 2, 2, FEINT_PERTURB_NONE, 0.0, 1, &m),
                 FEINT_SUCCESS, NULL);
    feint_element_info ei;
    feint_element_get_info((feint_element)el, &ei);
    const int ns = ei.num_nodes;
    uint32_t *v = m.conn + 5 * (size_t)ns;
    const uint32_t keep = v[ns - 1];
    char want[96];
    v[ns - 1] = v[0];
    snprintf(want, sizeof want, "element 5 repeats vertex %u (nodes 0 and %d)", (unsigned)v[0],
             ns - 1);
    CHECK_STATUS(feint_mesh_check(&m), FEINT_ERR_DEGENERATE, want);
    v[ns - 1] = (uint32_t)m.num_vertices;
    snprintf(want, sizeof want, "element 5 node %d is vertex %zu", ns - 1, m.num_vertices);
    CHECK_STATUS(feint_mesh_check(&m), FEINT_ERR_OUT_OF_RANGE, want);
    v[ns - 1] = keep;
    CHECK_STATUS(feint_mesh_check(&m), FEINT_SUCCESS, NULL);
    CHECK_STATUS(feint_mesh_destroy(&m), FEINT_SUCCESS, NULL);
  }
}

/* The scans run in blocks (of elements, of vertices), threads taking
 * ranges of blocks: on a mesh of many blocks, with bad elements in several
 * blocks and two in one block, the lowest is named each time; the last,
 * partial block is scanned; a bad vertex far into the array is found. */
static void check_scan_blocks(void) {
  feint_mesh m;
  CHECK_STATUS(feint_mesh_box_create(FEINT_TET4, 12, 12, 13, FEINT_PERTURB_NONE, 0.0, 1, &m),
               FEINT_SUCCESS, NULL);
  const size_t ne = m.num_elem, nv = m.num_vertices; /* 11232 tets, 2366 vertices */
  CHECK(ne % 512 != 0 && ne > 20 * 512, "the mesh should span many blocks, the last partial");
  const size_t e_far = ne - 1, e_mid = 9000, e_lo = 700;
  uint32_t *far = m.conn + 4 * e_far, *mid = m.conn + 4 * e_mid, *lo = m.conn + 4 * e_lo;
  const uint32_t keep_far = far[2], keep_mid = mid[3], keep_lo = lo[1], keep_lo1 = lo[4 + 1];
  char want[96];
  far[2] = (uint32_t)nv;
  snprintf(want, sizeof want, "element %zu node 2 is vertex %zu", e_far, nv);
  CHECK_STATUS(feint_mesh_check(&m), FEINT_ERR_OUT_OF_RANGE, want);
  /* a repeated vertex in a lower block does not hide it (documented order) */
  mid[3] = mid[0];
  CHECK_STATUS(feint_mesh_check(&m), FEINT_ERR_OUT_OF_RANGE, want);
  far[2] = keep_far;
  snprintf(want, sizeof want, "element %zu repeats vertex %u (nodes 0 and 3)", e_mid,
           (unsigned)mid[0]);
  CHECK_STATUS(feint_mesh_check(&m), FEINT_ERR_DEGENERATE, want);
  lo[1] = UINT32_MAX;
  lo[4 + 1] = UINT32_MAX; /* element e_lo + 1, the same block */
  snprintf(want, sizeof want, "element %zu node 1 is vertex %u", e_lo, (unsigned)UINT32_MAX);
  CHECK_STATUS(feint_mesh_check(&m), FEINT_ERR_OUT_OF_RANGE, want);
  lo[1] = keep_lo;
  snprintf(want, sizeof want, "element %zu node 1 is vertex %u", e_lo + 1, (unsigned)UINT32_MAX);
  CHECK_STATUS(feint_mesh_check(&m), FEINT_ERR_OUT_OF_RANGE, want);
  lo[4 + 1] = keep_lo1;
  mid[3] = keep_mid;
  CHECK_STATUS(feint_mesh_check(&m), FEINT_SUCCESS, NULL);
  m.coords[3 * (nv - 2) + 1] = NAN;
  m.coords[3 * (nv - 1) + 0] = INFINITY;
  snprintf(want, sizeof want, "vertex %zu has coordinate y = nan", nv - 2);
  CHECK_STATUS(feint_mesh_check(&m), FEINT_ERR_NOT_FINITE, want);
  m.coords[3 * (nv - 2) + 1] = 0.5;
  snprintf(want, sizeof want, "vertex %zu has coordinate x = inf", nv - 1);
  CHECK_STATUS(feint_mesh_check(&m), FEINT_ERR_NOT_FINITE, want);
  CHECK_STATUS(feint_mesh_destroy(&m), FEINT_SUCCESS, NULL);
}

/* FEINT_PERTURB_AFFINE moves tetrahedra's vertices as it moves prisms':
 * x and y per vertical column (i, j), z per horizontal layer k, unlike
 * GENERAL (the Kuhn tets are affine whatever the perturbation; tests use
 * this mesh as a second, differently perturbed one). */
static void check_tet_affine(void) {
  const size_t nx = 4, ny = 3, nz = 3;
  feint_mesh a, g;
  CHECK_STATUS(feint_mesh_box_create(FEINT_TET4, nx, ny, nz, FEINT_PERTURB_AFFINE, 0.15, 5, &a),
               FEINT_SUCCESS, NULL);
  CHECK_STATUS(feint_mesh_box_create(FEINT_TET4, nx, ny, nz, FEINT_PERTURB_GENERAL, 0.15, 5, &g),
               FEINT_SUCCESS, NULL);
  for (size_t v = 0; v < a.num_vertices; v++) {
    const size_t i = v % (nx + 1), j = (v / (nx + 1)) % (ny + 1), k = v / ((nx + 1) * (ny + 1));
    const size_t col = (j * (nx + 1) + i) * 3, layer = (k * (ny + 1) * (nx + 1)) * 3;
    CHECK(a.coords[3 * v] == a.coords[col] && a.coords[3 * v + 1] == a.coords[col + 1],
          "tet AFFINE: vertex %zu moved in x or y apart from its column", v);
    CHECK(a.coords[3 * v + 2] == a.coords[layer + 2],
          "tet AFFINE: vertex %zu moved in z apart from its layer", v);
  }
  CHECK(memcmp(a.coords, g.coords, 3 * a.num_vertices * sizeof(double)) != 0,
        "tet AFFINE equals GENERAL");
  CHECK_STATUS(feint_mesh_destroy(&a), FEINT_SUCCESS, NULL);
  CHECK_STATUS(feint_mesh_destroy(&g), FEINT_SUCCESS, NULL);
}

/* With a problem of every kind at once, feint_mesh_check reports them in
 * the documented order, whatever their indices: out-of-range indices
 * (elements, then faces), non-finite coordinates, repeated vertices
 * (elements, then faces); each fixed in turn uncovers the next. */
static void check_problem_order(void) {
  for (int el = 0; el < FEINT_ELEMENT_COUNT; el++) {
    feint_mesh m;
    CHECK_STATUS(feint_mesh_box_create((feint_element)el, 3, 3, 3, FEINT_PERTURB_NONE, 0.0, 1, &m),
                 FEINT_SUCCESS, NULL);
    const size_t ns = mesh_nodes((feint_element)el), nv = m.num_vertices;
    const size_t e_rep = 1, e_out = m.num_elem - 1, f_rep = 0, f_out = m.num_faces - 1;
    uint32_t *rep = m.conn + e_rep * ns, *out = m.conn + e_out * ns;
    uint32_t *frep = m.faces + 4 * f_rep, *fout = m.faces + 4 * f_out;
    const uint32_t keep_rep = rep[1], keep_out = out[2], keep_frep = frep[1], keep_fout = fout[0];
    const double keep_x = m.coords[3 * 4 + 1];
    rep[1] = rep[0];
    out[2] = (uint32_t)nv;
    frep[1] = frep[0];
    fout[0] = (uint32_t)nv + 7;
    m.coords[3 * 4 + 1] = NAN;
    char want[96];
    snprintf(want, sizeof want, "element %zu node 2 is vertex %zu", e_out, nv);
    CHECK_STATUS(feint_mesh_check(&m), FEINT_ERR_OUT_OF_RANGE, want);
    out[2] = keep_out;
    snprintf(want, sizeof want, "face %zu node 0 is vertex %zu", f_out, nv + 7);
    CHECK_STATUS(feint_mesh_check(&m), FEINT_ERR_OUT_OF_RANGE, want);
    fout[0] = keep_fout;
    CHECK_STATUS(feint_mesh_check(&m), FEINT_ERR_NOT_FINITE, "vertex 4 has coordinate y = nan");
    m.coords[3 * 4 + 1] = keep_x;
    snprintf(want, sizeof want, "element %zu repeats vertex %u (nodes 0 and 1)", e_rep,
             (unsigned)rep[0]);
    CHECK_STATUS(feint_mesh_check(&m), FEINT_ERR_DEGENERATE, want);
    rep[1] = keep_rep;
    snprintf(want, sizeof want, "face %zu repeats vertex %u (nodes 0 and 1)", f_rep,
             (unsigned)frep[0]);
    CHECK_STATUS(feint_mesh_check(&m), FEINT_ERR_DEGENERATE, want);
    frep[1] = keep_frep;
    CHECK_STATUS(feint_mesh_check(&m), FEINT_SUCCESS, NULL);
    CHECK_STATUS(feint_mesh_destroy(&m), FEINT_SUCCESS, NULL);
  }
}

int main(void) {
  check_scan_blocks();
  check_problem_order();
  check_tet_affine();
  for (int el = 0; el < FEINT_ELEMENT_COUNT; el++)
    for (int p = 0; p <= FEINT_PERTURB_AFFINE; p++) check_box_mesh((feint_element)el, (feint_perturb)p);
  check_mesh_errors();
  check_elem_scan_each_type();
  return test_finish("t601_mesh_box_check");
}
