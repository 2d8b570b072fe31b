/*
 * mesh.c - structured meshes of the unit box for tests, examples and the
 * benchmark: 6 tetrahedra (Kuhn split) or 2 prisms per cell, optionally with
 * randomly perturbed interior vertices so that no two elements are alike.
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

#include "feint_internal.h"

/* splitmix64 of (seed, key): a uniform double in [-1, 1). */
static double hash_uniform(unsigned long long seed, uint64_t key) {
  uint64_t z = seed + 0x9E3779B97F4A7C15ull * (key + 1);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  z ^= z >> 31;
  return -1.0 + 2.0 * (double)(z >> 11) * 0x1.0p-53;
}

typedef struct {
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
  uint64_t key;
  if (m->perturb == FEINT_PERTURB_AFFINE)
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
  const size_t per_cell = element == FEINT_TET4 ? 6 : 2;
  FEINT_CHECK(nx <= SIZE_MAX / ny && nx * ny <= SIZE_MAX / nz &&
                  nx * ny * nz <= SIZE_MAX / per_cell / 64,
              FEINT_ERR_BAD_SIZE, "nx * ny * nz = %zu x %zu x %zu cells overflow size_t", nx, ny,
              nz);
  *num_elem = nx * ny * nz * per_cell;
  return FEINT_SUCCESS;
}

/* Kuhn split: tetrahedron t of a cell follows the axis permutation perm[t]
 * from corner (0,0,0) to (1,1,1); odd permutations swap nodes 1 and 2 so
 * that every tetrahedron has a positive Jacobian. */
static const int kuhn_perm[6][3] = {{0, 1, 2}, {1, 2, 0}, {2, 0, 1}, {0, 2, 1}, {2, 1, 0}, {1, 0, 2}};

feint_status feint_mesh_box(feint_element element, size_t nx, size_t ny, size_t nz,
                            feint_perturb perturb, double amplitude, unsigned long long seed,
                            feint_layout layout, double *geometry) {
  size_t num_elem, len;
  FEINT_CALL(feint_mesh_box_count(element, nx, ny, nz, &num_elem));
  FEINT_CHECK(perturb >= FEINT_PERTURB_NONE && perturb <= FEINT_PERTURB_AFFINE,
              FEINT_ERR_OUT_OF_RANGE, "perturb = %d is not a feint_perturb (0..2)", (int)perturb);
  FEINT_CHECK(amplitude >= 0.0 && amplitude < FEINT_MESH_MAX_AMPLITUDE, FEINT_ERR_OUT_OF_RANGE,
              "amplitude = %g; allowed 0 <= amplitude < 1/6 (larger can invert elements)",
              amplitude);
  FEINT_CALL(feint_array_len(element, FEINT_POISSON, FEINT_ARRAY_GEOMETRY, layout, num_elem, &len));
  FEINT_CHECK(geometry != NULL, FEINT_ERR_NULL_ARG, "geometry is NULL");
  const box_mesh m = {nx, ny, nz, perturb, amplitude, seed};
  const int ns = element == FEINT_TET4 ? 4 : 6, per_cell = element == FEINT_TET4 ? 6 : 2;
  const size_t size = 3 * (size_t)ns, B = FEINT_BLOCK_LEN;
  const size_t num_cells = nx * ny * nz;

#pragma omp parallel for schedule(static)
  for (size_t cell = 0; cell < num_cells; cell++) {
    const size_t i = cell % nx, j = (cell / nx) % ny, k = cell / (nx * ny);
    for (int t = 0; t < per_cell; t++) {
      size_t corner[FEINT_MAX_NODES][3];
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
      const size_t e = cell * (size_t)per_cell + (size_t)t;
      for (int n = 0; n < ns; n++)
        for (int a = 0; a < 3; a++) {
          const size_t entry = 3 * (size_t)n + (size_t)a;
          const size_t at = layout == FEINT_LAYOUT_BLOCKED ? (e / B) * B * size + entry * B + e % B
                                                           : e * size + entry;
          geometry[at] = vertex_coord(&m, corner[n][0], corner[n][1], corner[n][2], a);
        }
    }
  }
  return FEINT_SUCCESS;
}
