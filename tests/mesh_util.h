/* mesh_util.h - helpers of the mesh and assembly tests (t6xx, t7xx):
 * element volumes from the element tables (sum over quadrature points of
 * w_q det J(x_q)), computed here independently of the library's kernels,
 * face areas, random admissible coefficients, and a sparse reference
 * assembly into a CSR pattern. */
#ifndef FEINT_TEST_MESH_UTIL_H
#define FEINT_TEST_MESH_UTIL_H

#include <math.h>
#include <stdint.h>
#include <stdlib.h>

#include "feint.h"
#include "test_util.h"

/* Number of nodes of an element type (from the element tables). */
static inline size_t mesh_nodes(feint_element el) {
  feint_element_info info;
  return feint_element_get_info(el, &info) == FEINT_SUCCESS ? (size_t)info.num_nodes : 0;
}

/* VTK cell type of an element type: VTK_TETRA, VTK_WEDGE, VTK_HEXAHEDRON. */
static inline int mesh_vtk_type(feint_element el) {
  return el == FEINT_TET4 ? 10 : el == FEINT_PRISM6 ? 13 : 12;
}

/* Volume of element e of a mesh and, in *abs_scale, the sum of the absolute
 * values of the terms of det J (for round-off tolerances).  Exact for
 * tets (det J constant) and for prisms (det J is quadratic in z at most and
 * bilinear in x,y of degree <= 2: the degree-2 x Gauss-2 rule integrates it
 * exactly; hexes: det J has degree <= 2 in each variable, exact under
 * 2x2x2 Gauss). */
static inline double mesh_elem_volume(const feint_mesh *m, size_t e, double *abs_scale) {
  feint_element_info info;
  feint_element_get_info(m->element, &info);
  const int ns = info.num_nodes;
  double vol = 0.0, scale = 0.0;
  for (int q = 0; q < info.num_qpts; q++) {
    double J[3][3] = {{0}};
    for (int n = 0; n < ns; n++) {
      const double *x = m->coords + 3 * (size_t)m->conn[e * (size_t)ns + (size_t)n];
      for (int a = 0; a < 3; a++)
        for (int b = 0; b < 3; b++) J[a][b] += x[a] * info.dphi[q][n][b];
    }
    const double t[6] = {J[0][0] * J[1][1] * J[2][2], J[0][1] * J[1][2] * J[2][0],
                         J[0][2] * J[1][0] * J[2][1], -J[0][2] * J[1][1] * J[2][0],
                         -J[0][1] * J[1][0] * J[2][2], -J[0][0] * J[1][2] * J[2][1]};
    double det = 0.0, det_abs = 0.0;
    for (int i = 0; i < 6; i++) {
      det += t[i];
      det_abs += fabs(t[i]);
    }
    vol += info.qwts[q] * det;
    scale += info.qwts[q] * det_abs;
  }
  if (abs_scale) *abs_scale = scale;
  return vol;
}

/* Sum of all element volumes (and of their round-off scales). */
static inline double mesh_volume(const feint_mesh *m, double *abs_scale) {
  double vol = 0.0, scale = 0.0;
  for (size_t e = 0; e < m->num_elem; e++) {
    double s;
    vol += mesh_elem_volume(m, e, &s);
    scale += s;
  }
  if (abs_scale) *abs_scale = scale;
  return vol;
}

/* Area of a planar triangle or quad face (quad: two triangles 0-1-2, 0-2-3). */
static inline double mesh_face_area(const feint_mesh *m, size_t f) {
  const uint32_t *v = m->faces + 4 * f;
  double area = 0.0;
  for (int t = 0; t < (v[3] == FEINT_NO_VERTEX ? 1 : 2); t++) {
    const double *p0 = m->coords + 3 * (size_t)v[0], *p1 = m->coords + 3 * (size_t)v[1 + t],
                 *p2 = m->coords + 3 * (size_t)v[2 + t];
    const double u[3] = {p1[0] - p0[0], p1[1] - p0[1], p1[2] - p0[2]};
    const double w[3] = {p2[0] - p0[0], p2[1] - p0[1], p2[2] - p0[2]};
    const double c[3] = {u[1] * w[2] - u[2] * w[1], u[2] * w[0] - u[0] * w[2],
                         u[0] * w[1] - u[1] * w[0]};
    area += 0.5 * sqrt(c[0] * c[0] + c[1] * c[1] + c[2] * c[2]);
  }
  return area;
}

/* Random coefficients of ne elements of problem pb, nc per element, natural
 * layout, from a fixed seed: uniform in [-1, 1), except elasticity's lambda
 * and mu (the first two of an element), uniform in [0.1, 2) (admissible). */
static inline void mesh_random_coeffs(feint_problem pb, size_t ne, size_t nc, uint64_t seed,
                                      double *coef) {
  test_rng rng = {seed};
  for (size_t i = 0; i < ne * nc; i++)
    coef[i] = pb == FEINT_ELASTICITY && i % nc < 2 ? test_rng_uniform(&rng, 0.1, 2.0)
                                                   : test_rng_uniform(&rng, -1.0, 1.0);
}

/* A sparse reference assembly: A[k], b[i] the sums of element entries in
 * the entries of a CSR pattern, S[k], Sb[i] the sums of their scales. */
typedef struct {
  double *A, *S, *b, *Sb;
} mesh_sparse_ref;

/* Assemble element matrices Ae [ne][nd][nd], be [ne][nd] and their scales
 * Aa, ba (feint_integrate_reference's outputs; nd = dpv N_S, element dof
 * dpv r + c = component c of node r) into pattern P's entries: entry (r, s)
 * of element e at row dpv conn[e][r / dpv] + r % dpv, column likewise, its
 * position found by a linear search of the row (independent of the
 * library's scatter; the pattern must hold it).  Arrays calloc'd
 * (mesh_sparse_ref_free). */
static inline void mesh_sparse_ref_assemble(const feint_mesh *m, int dpv, const feint_csr *P,
                                            const double *Ae, const double *be,
                                            const double *Aa, const double *ba,
                                            mesh_sparse_ref *ref) {
  const int ns = (int)mesh_nodes(m->element), nd = dpv * ns;
  ref->A = calloc(P->nnz, sizeof(double)), ref->S = calloc(P->nnz, sizeof(double));
  ref->b = calloc(P->num_rows, sizeof(double)), ref->Sb = calloc(P->num_rows, sizeof(double));
  for (size_t e = 0; e < m->num_elem; e++)
    for (int r = 0; r < nd; r++) {
      const size_t i = (size_t)dpv * m->conn[e * ns + r / dpv] + (size_t)(r % dpv);
      for (int s = 0; s < nd; s++) {
        const int32_t j = dpv * (int32_t)m->conn[e * ns + s / dpv] + s % dpv;
        int64_t k = P->row_ptr[i];
        while (P->col_idx[k] != j) k++;
        ref->A[k] += Ae[(e * nd + r) * nd + s], ref->S[k] += Aa[(e * nd + r) * nd + s];
      }
      ref->b[i] += be[e * nd + r], ref->Sb[i] += ba[e * nd + r];
    }
}

static inline void mesh_sparse_ref_free(mesh_sparse_ref *ref) {
  free(ref->A), free(ref->S), free(ref->b), free(ref->Sb);
}

#endif /* FEINT_TEST_MESH_UTIL_H */
