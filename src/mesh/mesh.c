/*
 * mesh/mesh.c - the mesh struct's life cycle and its structural check:
 * allocation of feint-owned meshes, feint_mesh_destroy, feint_mesh_check
 * (counts, indices, repeated vertices, finite coordinates) and the gather of
 * per-element coordinates from a mesh (feint_mesh_gather_geometry).
 */
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "kernel/elem.h"
#include "mesh/mesh_internal.h"

int feint_mesh_nodes_per_elem(feint_element element) { return feint_elem_nodes(element); }

/* 1 if n * size overflows size_t. */
static int mul_overflows(size_t n, size_t size) { return size != 0 && n > SIZE_MAX / size; }

feint_status feint_mesh_alloc(feint_element element, size_t num_vertices, size_t num_elem,
                              int with_elem_tags, size_t num_faces, feint_mesh *mesh) {
  const size_t ns = (size_t)feint_mesh_nodes_per_elem(element);
  FEINT_CHECK(num_vertices <= (size_t)UINT32_MAX, FEINT_ERR_BAD_SIZE,
              "num_vertices = %zu does not fit 32-bit vertex indices (at most %u)", num_vertices,
              (unsigned)UINT32_MAX);
  FEINT_CHECK(!mul_overflows(num_vertices, 3 * sizeof(double)) &&
                  !mul_overflows(num_elem, ns * sizeof(uint32_t)) &&
                  !mul_overflows(num_faces, 4 * sizeof(uint32_t)) &&
                  !mul_overflows(num_elem, sizeof(int32_t)),
              FEINT_ERR_BAD_SIZE,
              "num_vertices = %zu, num_elem = %zu, num_faces = %zu: array sizes overflow size_t",
              num_vertices, num_elem, num_faces);
  feint_mesh m = {0};
  m.element = element;
  m.num_vertices = num_vertices;
  m.num_elem = num_elem;
  m.num_faces = num_faces;
  m.owns_arrays = 1;
  /* malloc(0) may return NULL: ask for at least one entry */
  m.coords = malloc((num_vertices ? num_vertices : 1) * 3 * sizeof(double));
  m.conn = malloc((num_elem ? num_elem : 1) * ns * sizeof(uint32_t));
  int ok = m.coords && m.conn;
  if (with_elem_tags) {
    m.elem_tags = calloc(num_elem ? num_elem : 1, sizeof(int32_t));
    ok = ok && m.elem_tags;
  }
  if (num_faces > 0) {
    m.faces = malloc(num_faces * 4 * sizeof(uint32_t));
    m.face_tags = calloc(num_faces, sizeof(int32_t));
    ok = ok && m.faces && m.face_tags;
  }
  if (!ok) {
    feint_mesh_free(&m);
    FEINT_CHECK(0, FEINT_ERR_ALLOC,
                "could not allocate a mesh of %zu vertices, %zu elements, %zu faces", num_vertices,
                num_elem, num_faces);
  }
  *mesh = m;
  return FEINT_SUCCESS;
}

void feint_mesh_free(feint_mesh *mesh) {
  free(mesh->coords);
  free(mesh->conn);
  free(mesh->elem_tags);
  free(mesh->faces);
  free(mesh->face_tags);
  memset(mesh, 0, sizeof *mesh);
}

feint_status feint_mesh_destroy(feint_mesh *mesh) {
  FEINT_CHECK(mesh != NULL, FEINT_ERR_NULL_ARG, "mesh is NULL");
  if (mesh->owns_arrays)
    feint_mesh_free(mesh);
  else
    memset(mesh, 0, sizeof *mesh);
  return FEINT_SUCCESS;
}

/* Index of the first element [0, n) for which bad(e) (an int, 0 or 1)
 * holds, SIZE_MAX if none.  Blocks of FEINT_SCAN_BLOCK elements, threads
 * taking static ranges of blocks and the lowest index winning: a block's
 * bad(e) are or-ed without a branch (the loop vectorises: ~20 instead of
 * 84 instructions per tetrahedron for the index checks, run by every call
 * on a mesh), and only a block that holds a bad one is searched again. */
#define FEINT_SCAN_BLOCK 512
#define FIRST_BAD(n, bad_expr, result)                                             \
  do {                                                                             \
    const size_t n_ = (n), nb_ = (n_ + FEINT_SCAN_BLOCK - 1) / FEINT_SCAN_BLOCK;    \
    size_t first_ = SIZE_MAX;                                                      \
    _Pragma("omp parallel for schedule(static) reduction(min : first_)")           \
    for (size_t b_ = 0; b_ < nb_; b_++) {                                          \
      const size_t lo_ = b_ * FEINT_SCAN_BLOCK;                                    \
      const size_t hi_ = n_ - lo_ < FEINT_SCAN_BLOCK ? n_ : lo_ + FEINT_SCAN_BLOCK; \
      int any_ = 0;                                                                \
      for (size_t e = lo_; e < hi_; e++) any_ |= (bad_expr);                       \
      if (any_ && lo_ < first_)                                                    \
        for (size_t e = lo_; e < hi_; e++)                                         \
          if (bad_expr) {                                                          \
            first_ = e;                                                            \
            break;                                                                 \
          }                                                                        \
    }                                                                              \
    (result) = first_;                                                             \
  } while (0)

/* Vertex-index problems of one cell (an element or a face) of `len` nodes:
 * 1 an index >= num_vertices, 2 a vertex repeated, 0 fine. */
static int cell_problem(const uint32_t *v, int len, size_t num_vertices, int *n1, int *n2) {
  for (int i = 0; i < len; i++)
    if ((size_t)v[i] >= num_vertices) {
      *n1 = i;
      return 1;
    }
  for (int i = 0; i < len; i++)
    for (int j = i + 1; j < len; j++)
      if (v[i] == v[j]) {
        *n1 = i;
        *n2 = j;
        return 2;
      }
  return 0;
}

/* 1 if a cell of `len` nodes has an index >= num_vertices (the error
 * path's search for the first such cell after one that repeats a vertex). */
static int cell_out_of_range(const uint32_t *v, int len, size_t num_vertices) {
  int bad = 0;
  for (int i = 0; i < len; i++) bad |= (size_t)v[i] >= num_vertices;
  return bad;
}

/* 1 if a cell of `len` nodes has an index >= num_vertices or a repeated
 * vertex: the scans' test (elements and faces), without branches; `len`
 * is a literal at every element call (first_bad_elem), so the loops unroll
 * into len + len (len - 1) / 2 compares.  cell_problem says which, on the error path only.  (The
 * generic loop with early returns cost ~120 instructions per tetrahedron,
 * a third of a trusted feint_assemble, on every call.) */
static inline int cell_bad(const uint32_t *v, const int len, const uint32_t num_vertices) {
  int bad = 0;
  for (int i = 0; i < len; i++) bad |= v[i] >= num_vertices;
  for (int i = 0; i < len; i++)
    for (int j = i + 1; j < len; j++) bad |= v[i] == v[j];
  return bad;
}

/* The first element of conn [ne][ns] that cell_bad finds, SIZE_MAX if none
 * (num_vertices <= UINT32_MAX: checked before). */
static size_t first_bad_elem(const uint32_t *conn, size_t ne, int ns, size_t num_vertices) {
  const uint32_t nv = (uint32_t)num_vertices;
  size_t bad = SIZE_MAX;
  switch (ns) {
  case 4: FIRST_BAD(ne, cell_bad(conn + 4 * e, 4, nv), bad); break;
  case 6: FIRST_BAD(ne, cell_bad(conn + 6 * e, 6, nv), bad); break;
  case 8: FIRST_BAD(ne, cell_bad(conn + 8 * e, 8, nv), bad); break;
  default: FIRST_BAD(ne, cell_bad(conn + (size_t)ns * e, ns, nv), bad); break;
  }
  return bad;
}

/* 1 if a vertex has a NaN or infinite coordinate, without branches (a NaN
 * fails every comparison) so FIRST_BAD's block loop vectorises. */
static inline int coord_bad(const double *x) {
  const int ok0 = fabs(x[0]) <= DBL_MAX, ok1 = fabs(x[1]) <= DBL_MAX, ok2 = fabs(x[2]) <= DBL_MAX;
  return (ok0 & ok1 & ok2) == 0;
}

static int face_len(const uint32_t *f) { return f[3] == FEINT_NO_VERTEX ? 3 : 4; }

feint_status feint_mesh_check(const feint_mesh *mesh) {
  FEINT_CHECK(mesh != NULL, FEINT_ERR_NULL_ARG, "mesh is NULL");
  FEINT_CHECK_ENUM(mesh->element, FEINT_ELEMENT_COUNT, "mesh->element", "feint_element");
  const size_t nv = mesh->num_vertices, ne = mesh->num_elem, nf = mesh->num_faces;
  const int ns = feint_mesh_nodes_per_elem(mesh->element);
  FEINT_CHECK(nv > 0 && ne > 0, FEINT_ERR_BAD_SIZE,
              "empty mesh: num_vertices = %zu, num_elem = %zu; both must be at least 1", nv, ne);
  FEINT_CHECK(nv <= (size_t)UINT32_MAX, FEINT_ERR_BAD_SIZE,
              "num_vertices = %zu does not fit 32-bit vertex indices (at most %u)", nv,
              (unsigned)UINT32_MAX);
  FEINT_CHECK(!mul_overflows(nv, 3 * sizeof(double)), FEINT_ERR_BAD_SIZE,
              "num_vertices = %zu: coords bytes overflow size_t", nv);
  FEINT_CHECK(!mul_overflows(ne, (size_t)ns * sizeof(uint32_t)), FEINT_ERR_BAD_SIZE,
              "num_elem = %zu: conn bytes overflow size_t", ne);
  FEINT_CHECK(!mul_overflows(nf, 4 * sizeof(uint32_t)), FEINT_ERR_BAD_SIZE,
              "num_faces = %zu: faces bytes overflow size_t", nf);
  FEINT_CHECK(mesh->coords != NULL, FEINT_ERR_NULL_ARG, "mesh->coords is NULL");
  FEINT_CHECK(mesh->conn != NULL, FEINT_ERR_NULL_ARG, "mesh->conn is NULL");
  FEINT_CHECK(nf == 0 || mesh->faces != NULL, FEINT_ERR_NULL_ARG,
              "mesh->faces is NULL but num_faces = %zu", nf);

  /* The documented order: indices outside [0, num_vertices) (elements, then
   * faces), non-finite coordinates, repeated vertices (elements, then faces).
   * One scan per array finds the first cell with either index problem; only
   * if that cell repeats a vertex, on the error path, are the cells after it
   * searched again for an index out of range. */
  const uint32_t *c = mesh->conn, *f = mesh->faces;
  int n1 = 0, n2 = 0;
  const size_t bad_elem = first_bad_elem(c, ne, ns, nv);
  size_t bad_face;
  FIRST_BAD(nf, cell_bad(f + 4 * e, face_len(f + 4 * e), (uint32_t)nv), bad_face);
  if (bad_elem != SIZE_MAX) {
    size_t e_out = bad_elem;
    if (cell_problem(c + bad_elem * (size_t)ns, ns, nv, &n1, &n2) != 1) {
      const uint32_t *rest = c + (bad_elem + 1) * (size_t)ns;
      FIRST_BAD(ne - bad_elem - 1, cell_out_of_range(rest + (size_t)ns * e, ns, nv), e_out);
      e_out = e_out == SIZE_MAX ? SIZE_MAX : bad_elem + 1 + e_out;
    }
    if (e_out != SIZE_MAX) {
      const uint32_t *v = c + e_out * (size_t)ns;
      cell_problem(v, ns, nv, &n1, &n2);
      FEINT_CHECK(0, FEINT_ERR_OUT_OF_RANGE,
                  "element %zu node %d is vertex %u, outside [0, num_vertices = %zu)", e_out, n1,
                  (unsigned)v[n1], nv);
    }
  }
  if (bad_face != SIZE_MAX) {
    size_t f_out = bad_face;
    if (cell_problem(f + 4 * bad_face, face_len(f + 4 * bad_face), nv, &n1, &n2) != 1) {
      const uint32_t *rest = f + 4 * (bad_face + 1);
      FIRST_BAD(nf - bad_face - 1, cell_out_of_range(rest + 4 * e, face_len(rest + 4 * e), nv),
                f_out);
      f_out = f_out == SIZE_MAX ? SIZE_MAX : bad_face + 1 + f_out;
    }
    if (f_out != SIZE_MAX) {
      const uint32_t *v = f + 4 * f_out;
      cell_problem(v, face_len(v), nv, &n1, &n2);
      FEINT_CHECK(0, FEINT_ERR_OUT_OF_RANGE,
                  "face %zu node %d is vertex %u, outside [0, num_vertices = %zu)", f_out, n1,
                  (unsigned)v[n1], nv);
    }
  }

  const double *x = mesh->coords;
  size_t bad;
  FIRST_BAD(nv, coord_bad(x + 3 * e), bad);
  if (bad != SIZE_MAX) {
    int a = isfinite(x[3 * bad]) ? isfinite(x[3 * bad + 1]) ? 2 : 1 : 0;
    FEINT_CHECK(0, FEINT_ERR_NOT_FINITE, "vertex %zu has coordinate %c = %g", bad, "xyz"[a],
                x[3 * bad + a]);
  }

  /* no index is out of range: a bad cell repeats a vertex */
  if (bad_elem != SIZE_MAX) {
    const uint32_t *v = c + bad_elem * (size_t)ns;
    cell_problem(v, ns, nv, &n1, &n2);
    FEINT_CHECK(0, FEINT_ERR_DEGENERATE, "element %zu repeats vertex %u (nodes %d and %d)",
                bad_elem, (unsigned)v[n1], n1, n2);
  }
  if (bad_face != SIZE_MAX) {
    const uint32_t *v = f + 4 * bad_face;
    cell_problem(v, face_len(v), nv, &n1, &n2);
    FEINT_CHECK(0, FEINT_ERR_DEGENERATE, "face %zu repeats vertex %u (nodes %d and %d)", bad_face,
                (unsigned)v[n1], n1, n2);
  }
  return FEINT_SUCCESS;
}

void feint_mesh_gather_unchecked(const feint_mesh *mesh, feint_layout layout, double *geometry) {
  const int ns = feint_mesh_nodes_per_elem(mesh->element);
  const size_t size = 3 * (size_t)ns, B = FEINT_BLOCK_LEN;
  const double *x = mesh->coords;
  const uint32_t *c = mesh->conn;
#pragma omp parallel for schedule(static)
  for (size_t e = 0; e < mesh->num_elem; e++)
    for (int n = 0; n < ns; n++)
      for (int a = 0; a < 3; a++) {
        const size_t entry = 3 * (size_t)n + (size_t)a;
        const size_t at = layout == FEINT_LAYOUT_BLOCKED ? (e / B) * B * size + entry * B + e % B
                                                         : e * size + entry;
        geometry[at] = x[3 * (size_t)c[e * (size_t)ns + (size_t)n] + (size_t)a];
      }
}

feint_status feint_mesh_gather_geometry(const feint_mesh *mesh, feint_layout layout,
                                        double *geometry) {
  size_t len;
  FEINT_CALL(feint_mesh_check(mesh));
  FEINT_CALL(feint_array_len(mesh->element, FEINT_POISSON, FEINT_ARRAY_GEOMETRY, layout,
                             mesh->num_elem, &len));
  FEINT_CHECK(geometry != NULL, FEINT_ERR_NULL_ARG, "geometry is NULL");
  feint_mesh_gather_unchecked(mesh, layout, geometry);
  return FEINT_SUCCESS;
}
