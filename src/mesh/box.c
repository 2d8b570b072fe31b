/*
 * mesh/box.c - structured meshes of the unit box for tests, examples and the
 * benchmark: 6 tetrahedra (Kuhn split) or 2 prisms per cell, optionally with
 * randomly perturbed interior vertices so that no two elements are alike.
 *
 * One home for the vertex positions (vertex_coord) and the cell split
 * (box_element_corners): feint_mesh_box_create builds the mesh with shared
 * vertices and connectivity, and the per-element generator feint_mesh_box is
 * "make the mesh, then gather".
 *
 * The perturbation of a vertex is a pure function of (seed, vertex index),
 * so the mesh is the same for any number of threads.
 *
 * Why amplitude < 1/6 keeps every element valid.  Each coordinate of a
 * vertex moves by at most a h (a = amplitude), independently.  A Kuhn
 * tetrahedron is a path v0 -> v1 -> v2 -> v3 along three different axes,
 * so det J = h^3 det(I + D) with D_ij = (p_j - p_{j-1})_i / h, |D_ij| <= 2a.
 * Each scalar coordinate enters one row of J only, so det J is affine in
 * each of them and its minimum over the box of perturbations lies at a
 * corner; checking all 2^12 corners gives min det J = (1 - 6a) h^3 exactly
 * (so a = 0.249 could invert elements: 1 - 6a < 0).  For the prisms the same
 * corner search over 2^18 corners at every quadrature point gives det J > 0
 * up to a = 0.2036; 1/6 serves both, and for a <= 0.16 det J >= 0.04 h^3
 * (tets), far above the degeneracy criterion (2^-40 of max|J|^3).
 */
#define FEINT_MESH_MAX_AMPLITUDE (1.0 / 6.0)
#include <stdint.h>

#include "mesh/mesh_internal.h"

/* splitmix64 of (seed, key): a uniform double in [-1, 1). */
static double hash_uniform(unsigned long long seed, uint64_t key) {
  uint64_t z = seed + 0x9E3779B97F4A7C15ull * (key + 1);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  z ^= z >> 31;
  return -1.0 + 2.0 * (double)(z >> 11) * 0x1.0p-53;
}

typedef struct {
  feint_element element;
  size_t nx, ny, nz;
  feint_perturb perturb;
  double amplitude;
  unsigned long long seed;
} box_mesh;

/* Coordinate a (0 x, 1 y, 2 z) of vertex (i, j, k). */
static double vertex_coord(const box_mesh *m, size_t i, size_t j, size_t k, int a) {
  const size_t idx[3] = {i, j, k}, n[3] = {m->nx, m->ny, m->nz};
  const double h = 1.0 / (double)n[a];
  double x = (double)idx[a] * h;
  if (m->perturb == FEINT_PERTURB_NONE || idx[a] == 0 || idx[a] == n[a]) return x;
  /* interior in direction a: move along a only (keeps the box faces flat) */
  /* AFFINE moves tets as it moves prisms (tets are affine anyway): a second,
   * differently perturbed tet mesh (tests/variant_fixture.h, t204 use it) */
  uint64_t key;
  if (m->perturb == FEINT_PERTURB_AFFINE && m->element == FEINT_HEX8)
    key = ((uint64_t)idx[a] << 40) + (uint64_t)a; /* per grid plane: boxes */
  else if (m->perturb == FEINT_PERTURB_AFFINE)
    key = a < 2 ? (uint64_t)(i * (m->ny + 1) + j) * 4 + (uint64_t)a /* per column */
                : ((uint64_t)k << 40) + 3;                            /* per layer */
  else
    key = ((uint64_t)((k * (m->ny + 1) + j) * (m->nx + 1) + i)) * 4 + (uint64_t)a;
  return x + m->amplitude * h * hash_uniform(m->seed, key);
}

feint_status feint_mesh_box_count(feint_element element, size_t nx, size_t ny, size_t nz,
                                  size_t *num_elem) {
  FEINT_CHECK(num_elem != NULL, FEINT_ERR_NULL_ARG, "num_elem is NULL");
  FEINT_CHECK_ENUM(element, FEINT_ELEMENT_COUNT, "element", "feint_element");
  FEINT_CHECK(nx > 0 && ny > 0 && nz > 0, FEINT_ERR_BAD_SIZE,
              "nx, ny, nz = %zu, %zu, %zu; each must be at least 1", nx, ny, nz);
  const size_t per_cell = element == FEINT_TET4 ? 6 : element == FEINT_PRISM6 ? 2 : 1;
  FEINT_CHECK(nx <= SIZE_MAX / ny && nx * ny <= SIZE_MAX / nz &&
                  nx * ny * nz <= SIZE_MAX / per_cell / 64,
              FEINT_ERR_BAD_SIZE, "nx * ny * nz = %zu x %zu x %zu cells overflow size_t", nx, ny,
              nz);
  *num_elem = nx * ny * nz * per_cell;
  return FEINT_SUCCESS;
}

/* The arguments both generators share; *num_elem as feint_mesh_box_count. */
static feint_status box_check_args(feint_element element, size_t nx, size_t ny, size_t nz,
                                   feint_perturb perturb, double amplitude, size_t *num_elem) {
  FEINT_CALL(feint_mesh_box_count(element, nx, ny, nz, num_elem));
  FEINT_CHECK(perturb >= FEINT_PERTURB_NONE && perturb <= FEINT_PERTURB_AFFINE,
              FEINT_ERR_OUT_OF_RANGE, "perturb = %d is not a feint_perturb (0..2)", (int)perturb);
  FEINT_CHECK(amplitude >= 0.0 && amplitude < FEINT_MESH_MAX_AMPLITUDE, FEINT_ERR_OUT_OF_RANGE,
              "amplitude = %g; allowed 0 <= amplitude < 1/6 (larger can invert elements)",
              amplitude);
  return FEINT_SUCCESS;
}

/* Kuhn split: tetrahedron t of a cell follows the axis permutation perm[t]
 * from corner (0,0,0) to (1,1,1); odd permutations swap nodes 1 and 2 so
 * that every tetrahedron has a positive Jacobian. */
static const int kuhn_perm[6][3] = {{0, 1, 2}, {1, 2, 0}, {2, 0, 1}, {0, 2, 1}, {2, 1, 0}, {1, 0, 2}};

/* Grid indices corner[n][0..2] of node n of element t (0 <= t < 6 tets, 2
 * prisms, 1 hexahedron) of cell (i, j, k). */
static void box_element_corners(feint_element element, size_t i, size_t j, size_t k, int t,
                                size_t corner[FEINT_MAX_NODES][3]) {
  if (element == FEINT_TET4) {
    size_t c[3] = {i, j, k};
    for (int a = 0; a < 3; a++) corner[0][a] = c[a];
    for (int step = 0; step < 3; step++) {
      c[kuhn_perm[t][step]]++;
      for (int a = 0; a < 3; a++) corner[step + 1][a] = c[a];
    }
    if (t >= 3) /* odd permutation */
      for (int a = 0; a < 3; a++) {
        size_t tmp = corner[1][a];
        corner[1][a] = corner[2][a];
        corner[2][a] = tmp;
      }
  } else if (element == FEINT_HEX8) {
    /* Gmsh/VTK order: bottom face counter-clockwise, then the top face */
    static const int quad[4][2] = {{0, 0}, {1, 0}, {1, 1}, {0, 1}};
    (void)t;
    for (int nd = 0; nd < 8; nd++) {
      corner[nd][0] = i + (size_t)quad[nd & 3][0];
      corner[nd][1] = j + (size_t)quad[nd & 3][1];
      corner[nd][2] = k + (size_t)(nd >> 2);
    }
  } else {
    /* triangles (00,10,11) and (00,11,01) of the xy square, counter-clockwise */
    static const int tri[2][3][2] = {{{0, 0}, {1, 0}, {1, 1}}, {{0, 0}, {1, 1}, {0, 1}}};
    for (int lev = 0; lev < 2; lev++)
      for (int v = 0; v < 3; v++) {
        corner[3 * lev + v][0] = i + (size_t)tri[t][v][0];
        corner[3 * lev + v][1] = j + (size_t)tri[t][v][1];
        corner[3 * lev + v][2] = k + (size_t)lev;
      }
  }
}

/* Local faces of each element (node lists; triangles end with -1). */
static const int tet_faces[4][4] = {{1, 2, 3, -1}, {0, 2, 3, -1}, {0, 1, 3, -1}, {0, 1, 2, -1}};
static const int prism_faces[5][4] = {
    {0, 1, 2, -1}, {3, 4, 5, -1}, {0, 1, 4, 3}, {1, 2, 5, 4}, {2, 0, 3, 5}};
static const int hex_faces[6][4] = {{0, 3, 2, 1}, {4, 5, 6, 7}, {0, 1, 5, 4},
                                    {1, 2, 6, 5}, {2, 3, 7, 6}, {3, 0, 4, 7}};

/* Boundary tag of a local face (1 + 2 axis + side: 1 x=0, 2 x=1, 3 y=0,
 * 4 y=1, 5 z=0, 6 z=1), 0 if the face is interior. */
static int box_face_tag(const size_t corner[FEINT_MAX_NODES][3], const int *face,
                        const size_t n[3]) {
  for (int a = 0; a < 3; a++)
    for (int side = 0; side < 2; side++) {
      const size_t plane = side ? n[a] : 0;
      int on = 1;
      for (int v = 0; v < 4 && face[v] >= 0; v++) on &= corner[face[v]][a] == plane;
      if (on) return 1 + 2 * a + side;
    }
  return 0;
}

feint_status feint_mesh_box_create(feint_element element, size_t nx, size_t ny, size_t nz,
                                   feint_perturb perturb, double amplitude,
                                   unsigned long long seed, feint_mesh *mesh) {
  size_t num_elem;
  FEINT_CALL(box_check_args(element, nx, ny, nz, perturb, amplitude, &num_elem));
  FEINT_CHECK(mesh != NULL, FEINT_ERR_NULL_ARG, "mesh is NULL");
  /* (nx+1)(ny+1)(nz+1) <= 2^32 - 1 vertices, tested without overflow */
  const size_t nxv = nx + 1, nyv = ny + 1, nzv = nz + 1;
  FEINT_CHECK(nxv > nx && nyv > ny && nzv > nz && nxv <= UINT32_MAX / nyv &&
                  nxv * nyv <= UINT32_MAX / nzv,
              FEINT_ERR_BAD_SIZE,
              "nx, ny, nz = %zu, %zu, %zu: (nx+1)(ny+1)(nz+1) vertices exceed 32-bit indices", nx,
              ny, nz);
  const size_t num_vertices = nxv * nyv * nzv;
  const size_t n[3] = {nx, ny, nz};
  /* boundary faces: per box face of cells, 2 triangles (tets; and prism
   * tops/bottoms) or 1 quad (prism sides) */
  const size_t num_faces = element == FEINT_TET4     ? 4 * (nx * ny + ny * nz + nx * nz)
                           : element == FEINT_PRISM6 ? 4 * nx * ny + 2 * (ny * nz + nx * nz)
                                                     : 2 * (nx * ny + ny * nz + nx * nz);
  feint_mesh m;
  FEINT_CALL(feint_mesh_alloc(element, num_vertices, num_elem, 0, num_faces, &m));
  const box_mesh bm = {element, nx, ny, nz, perturb, amplitude, seed};

#pragma omp parallel for schedule(static)
  for (size_t v = 0; v < num_vertices; v++) {
    const size_t i = v % nxv, j = (v / nxv) % nyv, k = v / (nxv * nyv);
    for (int a = 0; a < 3; a++) m.coords[3 * v + (size_t)a] = vertex_coord(&bm, i, j, k, a);
  }

  const int ns = feint_mesh_nodes_per_elem(element);
  const int per_cell = element == FEINT_TET4 ? 6 : element == FEINT_PRISM6 ? 2 : 1;
  const size_t num_cells = nx * ny * nz;
#pragma omp parallel for schedule(static)
  for (size_t cell = 0; cell < num_cells; cell++) {
    const size_t i = cell % nx, j = (cell / nx) % ny, k = cell / (nx * ny);
    for (int t = 0; t < per_cell; t++) {
      size_t corner[FEINT_MAX_NODES][3];
      box_element_corners(element, i, j, k, t, corner);
      uint32_t *c = m.conn + (cell * (size_t)per_cell + (size_t)t) * (size_t)ns;
      for (int node = 0; node < ns; node++)
        c[node] = (uint32_t)((corner[node][2] * nyv + corner[node][1]) * nxv + corner[node][0]);
    }
  }

  /* boundary faces, in element order (serial: a boundary cell is rare) */
  size_t f = 0;
  const int nfl = element == FEINT_TET4 ? 4 : element == FEINT_PRISM6 ? 5 : 6;
  for (size_t cell = 0; cell < num_cells; cell++) {
    const size_t i = cell % nx, j = (cell / nx) % ny, k = cell / (nx * ny);
    if (i != 0 && j != 0 && k != 0 && i != nx - 1 && j != ny - 1 && k != nz - 1) continue;
    for (int t = 0; t < per_cell; t++) {
      size_t corner[FEINT_MAX_NODES][3];
      box_element_corners(element, i, j, k, t, corner);
      const uint32_t *c = m.conn + (cell * (size_t)per_cell + (size_t)t) * (size_t)ns;
      for (int lf = 0; lf < nfl; lf++) {
        const int *face = element == FEINT_TET4     ? tet_faces[lf]
                          : element == FEINT_PRISM6 ? prism_faces[lf]
                                                    : hex_faces[lf];
        const int tag = box_face_tag(corner, face, n);
        if (!tag) continue;
        for (int v = 0; v < 4; v++) m.faces[4 * f + (size_t)v] = face[v] >= 0 ? c[face[v]] : FEINT_NO_VERTEX;
        m.face_tags[f++] = tag;
      }
    }
  }
  *mesh = m;
  return FEINT_SUCCESS;
}

feint_status feint_mesh_box(feint_element element, size_t nx, size_t ny, size_t nz,
                            feint_perturb perturb, double amplitude, unsigned long long seed,
                            feint_layout layout, double *geometry) {
  size_t num_elem, len;
  FEINT_CALL(box_check_args(element, nx, ny, nz, perturb, amplitude, &num_elem));
  FEINT_CALL(feint_array_len(element, FEINT_POISSON, FEINT_ARRAY_GEOMETRY, layout, num_elem, &len));
  FEINT_CHECK(geometry != NULL, FEINT_ERR_NULL_ARG, "geometry is NULL");
  feint_mesh m;
  FEINT_CALL(feint_mesh_box_create(element, nx, ny, nz, perturb, amplitude, seed, &m));
  feint_mesh_gather_unchecked(&m, layout, geometry);
  feint_mesh_free(&m);
  return FEINT_SUCCESS;
}
