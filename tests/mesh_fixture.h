/* mesh_fixture.h - small meshes with connectivity for the assembly tests
 * (t7xx), built by hand here so the tests do not depend on feint's own
 * generators: the unit box in n^3 cells, 6 tetrahedra per cell (Kuhn split)
 * or 2 prisms per cell, interior vertices optionally moved by up to `amp`
 * times the cell size (fixed seed), boundary faces tagged by box side
 * (1: x=0, 2: x=1, 3: y=0, 4: y=1, 5: z=0, 6: z=1).
 * Perturbation: FIX_GENERAL moves every interior vertex independently;
 * FIX_AFFINE keeps prisms affine (x, y per vertical column, z per layer)
 * and hexahedra affine (x per i, y per j, z per k: a rectilinear grid of
 * boxes). */
#ifndef FEINT_MESH_FIXTURE_H
#define FEINT_MESH_FIXTURE_H

#include <stdlib.h>

#include "test_util.h"

enum { FIX_NONE = 0, FIX_GENERAL, FIX_AFFINE };

static inline size_t fix_vid(size_t n, size_t i, size_t j, size_t k) {
  return (k * (n + 1) + j) * (n + 1) + i;
}

static inline double fix_tet_det(const double *c, const uint32_t *v) {
  double e[3][3];
  for (int r = 0; r < 3; r++)
    for (int a = 0; a < 3; a++) e[r][a] = c[3 * v[r + 1] + a] - c[3 * v[0] + a];
  return e[0][0] * (e[1][1] * e[2][2] - e[1][2] * e[2][1]) -
         e[0][1] * (e[1][0] * e[2][2] - e[1][2] * e[2][0]) +
         e[0][2] * (e[1][0] * e[2][1] - e[1][1] * e[2][0]);
}

/* Nodes per element. */
static inline int fix_nodes(feint_element el) {
  return el == FEINT_TET4 ? 4 : el == FEINT_PRISM6 ? 6 : 8;
}

static inline void fix_face(feint_mesh *m, size_t *nf, uint32_t a, uint32_t b, uint32_t c,
                            uint32_t d, int32_t tag) {
  uint32_t *f = m->faces + 4 * *nf;
  f[0] = a, f[1] = b, f[2] = c, f[3] = d;
  m->face_tags[(*nf)++] = tag;
}

/* Build the mesh (arrays malloc'd; release with fix_mesh_free). */
static inline void fix_mesh_box(feint_mesh *m, feint_element el, size_t n, int perturb,
                                double amp, uint64_t seed) {
  memset(m, 0, sizeof *m);
  m->element = el;
  m->num_vertices = (n + 1) * (n + 1) * (n + 1);
  m->num_elem = (el == FEINT_TET4 ? 6 : el == FEINT_PRISM6 ? 2 : 1) * n * n * n;
  m->coords = malloc(m->num_vertices * 3 * sizeof(double));
  m->conn = malloc(m->num_elem * (size_t)fix_nodes(el) * sizeof(uint32_t));
  m->elem_tags = NULL;
  /* boundary faces: 6 n^2 cell faces, split in 2 triangles for tets and on
   * the top and bottom of prisms */
  m->faces = malloc(12 * n * n * 4 * sizeof(uint32_t));
  m->face_tags = malloc(12 * n * n * sizeof(int32_t));
  const double h = 1.0 / (double)n;
  for (size_t k = 0; k <= n; k++)
    for (size_t j = 0; j <= n; j++)
      for (size_t i = 0; i <= n; i++) {
        const size_t idx[3] = {i, j, k};
        double *x = m->coords + 3 * fix_vid(n, i, j, k);
        for (int a = 0; a < 3; a++) {
          x[a] = (double)idx[a] * h;
          if (perturb == FIX_NONE || idx[a] == 0 || idx[a] == n) continue;
          uint64_t key = perturb == FIX_AFFINE && el == FEINT_PRISM6
                             ? (a < 2 ? (j * (n + 1) + i) * 4 + (uint64_t)a : (k << 40) + 3)
                         : perturb == FIX_AFFINE && el == FEINT_HEX8
                             ? ((uint64_t)idx[a] << 40) + (uint64_t)a
                             : fix_vid(n, i, j, k) * 4 + (uint64_t)a;
          test_rng r = {seed * 0x100000001b3ull + key};
          x[a] += amp * h * test_rng_uniform(&r, -1.0, 1.0);
        }
      }
  size_t e = 0;
  for (size_t k = 0; k < n; k++)
    for (size_t j = 0; j < n; j++)
      for (size_t i = 0; i < n; i++) {
        uint32_t c[8]; /* corner b = x + 2y + 4z bits */
        for (int b = 0; b < 8; b++)
          c[b] = (uint32_t)fix_vid(n, i + (b & 1), j + ((b >> 1) & 1), k + ((b >> 2) & 1));
        if (el == FEINT_TET4) {
          static const int perm[6][3] = {{0, 1, 2}, {0, 2, 1}, {1, 0, 2},
                                         {1, 2, 0}, {2, 0, 1}, {2, 1, 0}};
          for (int t = 0; t < 6; t++) {
            uint32_t *v = m->conn + 4 * e++;
            int b = 0;
            v[0] = c[0];
            for (int s = 0; s < 3; s++) {
              b |= 1 << perm[t][s];
              v[s + 1] = c[b];
            }
            if (fix_tet_det(m->coords, v) < 0) {
              const uint32_t tmp = v[2];
              v[2] = v[3], v[3] = tmp;
            }
          }
        } else if (el == FEINT_HEX8) {
          static const int hex[8] = {0, 1, 3, 2, 4, 5, 7, 6}; /* Gmsh: bottom ccw, then top */
          uint32_t *v = m->conn + 8 * e++;
          for (int s = 0; s < 8; s++) v[s] = c[hex[s]];
        } else {
          const int tri[2][3] = {{0, 1, 3}, {0, 3, 2}}; /* counterclockwise in xy */
          for (int t = 0; t < 2; t++) {
            uint32_t *v = m->conn + 6 * e++;
            for (int s = 0; s < 3; s++) v[s] = c[tri[t][s]], v[s + 3] = c[tri[t][s] + 4];
          }
        }
      }
  size_t nf = 0;
  for (size_t a = 0; a < n; a++)
    for (size_t b = 0; b < n; b++)
      for (int side = 0; side < 6; side++) {
        const int axis = side / 2;
        const size_t fixed = side % 2 ? n : 0;
        size_t q[4][3];
        for (int corner = 0; corner < 4; corner++) {
          const size_t u = a + (corner == 1 || corner == 2), w = b + (corner >= 2);
          q[corner][axis] = fixed;
          q[corner][(axis + 1) % 3] = u;
          q[corner][(axis + 2) % 3] = w;
        }
        uint32_t vq[4];
        for (int corner = 0; corner < 4; corner++)
          vq[corner] = (uint32_t)fix_vid(n, q[corner][0], q[corner][1], q[corner][2]);
        const int32_t tag = side + 1;
        if (el == FEINT_HEX8 || (el == FEINT_PRISM6 && axis != 2)) {
          fix_face(m, &nf, vq[0], vq[1], vq[2], vq[3], tag);
        } else {
          fix_face(m, &nf, vq[0], vq[1], vq[2], FEINT_NO_VERTEX, tag);
          fix_face(m, &nf, vq[0], vq[2], vq[3], FEINT_NO_VERTEX, tag);
        }
      }
  m->num_faces = nf;
  m->owns_arrays = 0;
}

static inline void fix_mesh_free(feint_mesh *m) {
  free(m->coords), free(m->conn), free(m->faces), free(m->face_tags);
  memset(m, 0, sizeof *m);
}

/* Gather the natural-layout geometry [num_elem][N_S][3] of a mesh. */
static inline double *fix_gather(const feint_mesh *m) {
  const int ns = fix_nodes(m->element);
  double *g = malloc(m->num_elem * ns * 3 * sizeof(double));
  for (size_t e = 0; e < m->num_elem; e++)
    for (int r = 0; r < ns; r++)
      for (int a = 0; a < 3; a++) g[(e * ns + r) * 3 + a] = m->coords[3 * m->conn[e * ns + r] + a];
  return g;
}

#endif /* FEINT_MESH_FIXTURE_H */
