/* t702 (t7xx: mesh integration and assembly) - feint_csr_create: the CSR
 * pattern of tet, prism and hex meshes (in order, with scrambled vertex
 * numbers, and a tet fan around a hub of 91 neighbours), 1 and 3 dofs per
 * vertex, equals the adjacency built here by brute force (a dense boolean
 * matrix); columns ascending; COO rows; index overflow and bad meshes get
 * named statuses. */
#include <stdlib.h>

#include "mesh_fixture.h"
#include "test_util.h"

/* The pattern of mesh m (named what) with dpv dofs per vertex against the
 * brute-force adjacency. */
static void check_mesh_pattern(const feint_mesh *mp, const char *what, int dpv) {
  const feint_mesh m = *mp;
  const feint_element el = m.element;
  const int ns = fix_nodes(el);
  const size_t nv = m.num_vertices, n = nv * dpv;
  unsigned char *adj = calloc(n * n, 1);
  for (size_t e = 0; e < m.num_elem; e++)
    for (int r = 0; r < ns; r++)
      for (int s = 0; s < ns; s++)
        for (int c = 0; c < dpv; c++)
          for (int cc = 0; cc < dpv; cc++)
            adj[(m.conn[e * ns + r] * dpv + c) * n + m.conn[e * ns + s] * dpv + cc] = 1;
  size_t nnz_ref = 0;
  for (size_t i = 0; i < n * n; i++) nnz_ref += adj[i];
  feint_csr A;
  CHECK_STATUS(feint_csr_create(&m, dpv, &A), FEINT_SUCCESS, NULL);
  CHECK(A.num_rows == n && A.num_cols == n && A.nnz == nnz_ref && A.dofs_per_vertex == dpv,
        "%s %s dpv %d: %zu x %zu, nnz %zu; expected %zu x %zu, nnz %zu", what,
        feint_element_name(el), dpv, A.num_rows, A.num_cols, A.nnz, n, n, nnz_ref);
  CHECK(A.row_ptr[0] == 0 && (size_t)A.row_ptr[n] == A.nnz, "row_ptr ends");
  for (size_t i = 0; i < n && A.nnz == nnz_ref; i++) {
    size_t cnt = 0;
    for (size_t j = 0; j < n; j++) cnt += adj[i * n + j];
    CHECK((size_t)(A.row_ptr[i + 1] - A.row_ptr[i]) == cnt, "row %zu has %lld entries, expected %zu",
          i, (long long)(A.row_ptr[i + 1] - A.row_ptr[i]), cnt);
    for (int64_t k = A.row_ptr[i]; k < A.row_ptr[i + 1]; k++) {
      CHECK(A.col_idx[k] >= 0 && (size_t)A.col_idx[k] < n && adj[i * n + A.col_idx[k]],
            "row %zu: column %d not adjacent", i, A.col_idx[k]);
      CHECK(k == A.row_ptr[i] || A.col_idx[k] > A.col_idx[k - 1], "row %zu not ascending", i);
      CHECK(A.values[k] == 0.0, "value not zero");
    }
  }
  int64_t *rows = malloc(A.nnz * sizeof(int64_t));
  CHECK_STATUS(feint_csr_coo_rows(&A, rows), FEINT_SUCCESS, NULL);
  for (size_t i = 0; i < n; i++)
    for (int64_t k = A.row_ptr[i]; k < A.row_ptr[i + 1]; k++)
      CHECK(rows[k] == (int64_t)i, "coo row of entry %lld is %lld, expected %zu", (long long)k,
            (long long)rows[k], i);
  free(rows);
  CHECK_STATUS(feint_csr_destroy(&A), FEINT_SUCCESS, NULL);
  CHECK(A.row_ptr == NULL && A.nnz == 0, "destroy did not zero the struct");
  free(adj);
}

/* Box meshes in the fixture's order (each vertex's neighbours come nearly
 * ascending), the same with the vertices relabelled by a scrambling
 * bijection (they come in any order: the sort's work), and a fan of 30
 * tets around one hub vertex (91 neighbours: the long-list sort). */
static void check_pattern(feint_element el, int dpv) {
  feint_mesh m;
  fix_mesh_box(&m, el, 3, FIX_NONE, 0.0, 1);
  check_mesh_pattern(&m, "box", dpv);
  const size_t nv = m.num_vertices, ns = (size_t)fix_nodes(el); /* 64 vertices: 7919 is odd */
  double *x = malloc(3 * nv * sizeof(double));
  for (size_t v = 0; v < nv; v++)
    for (int a = 0; a < 3; a++) x[3 * (v * 7919 % nv) + a] = m.coords[3 * v + a];
  memcpy(m.coords, x, 3 * nv * sizeof(double));
  for (size_t k = 0; k < m.num_elem * ns; k++) m.conn[k] = (uint32_t)(m.conn[k] * 7919 % nv);
  check_mesh_pattern(&m, "scrambled box", dpv);
  free(x);
  fix_mesh_free(&m);
  if (el != FEINT_TET4) return;
  enum { K = 30 };
  double c[3 * (3 * K + 1)] = {0};
  uint32_t conn[4 * K];
  for (int k = 0; k < K; k++) {
    for (int a = 0; a < 3; a++) c[3 * (3 * k + 1 + a) + a] = 1.0 + k;
    conn[4 * k] = 0; /* the rims in descending order: the hub's list comes unsorted */
    for (int a = 0; a < 3; a++) conn[4 * k + 1 + a] = (uint32_t)(3 * (K - 1 - k) + 1 + a);
  }
  feint_mesh fan = {0};
  fan.element = FEINT_TET4;
  fan.num_vertices = 3 * K + 1;
  fan.num_elem = K;
  fan.coords = c;
  fan.conn = conn;
  check_mesh_pattern(&fan, "fan", dpv);
}

static void check_errors(void) {
  feint_mesh m;
  fix_mesh_box(&m, FEINT_TET4, 2, FIX_NONE, 0.0, 1);
  feint_csr A, untouched;
  memset(&A, 0x5a, sizeof A);
  untouched = A;
  CHECK_STATUS(feint_csr_create(NULL, 1, &A), FEINT_ERR_NULL_ARG, "mesh");
  CHECK_STATUS(feint_csr_create(&m, 1, NULL), FEINT_ERR_NULL_ARG, "A is NULL");
  CHECK_STATUS(feint_csr_create(&m, 2, &A), FEINT_ERR_OUT_OF_RANGE, "dofs_per_vertex = 2");
  feint_mesh bad = m;
  bad.num_elem = 0;
  CHECK_STATUS(feint_csr_create(&bad, 1, &A), FEINT_ERR_BAD_SIZE, "empty");
  /* 32-bit column overflow: 2^30 vertices x 3 dofs > INT32_MAX, refused
   * before any array is read or allocated */
  bad = m;
  bad.num_vertices = (size_t)1 << 30;
  CHECK_STATUS(feint_csr_create(&bad, 3, &A), FEINT_ERR_BAD_SIZE, "overflow the 32-bit col_idx");
  bad.num_vertices = (size_t)UINT32_MAX + 1;
  CHECK_STATUS(feint_csr_create(&bad, 1, &A), FEINT_ERR_BAD_SIZE, "overflow the 32-bit col_idx");
  m.conn[4 * 5 + 1] = 1000;
  CHECK_STATUS(feint_csr_create(&m, 1, &A), FEINT_ERR_OUT_OF_RANGE, "element 5 node 1");
  CHECK(memcmp(&A, &untouched, sizeof A) == 0, "A written on error");
  CHECK_STATUS(feint_csr_coo_rows(NULL, NULL), FEINT_ERR_NULL_ARG, "A is NULL");
  CHECK_STATUS(feint_csr_destroy(NULL), FEINT_SUCCESS, NULL);
  fix_mesh_free(&m);
}

int main(void) {
  for (int el = 0; el < FEINT_ELEMENT_COUNT; el++) {
    check_pattern((feint_element)el, 1);
    check_pattern((feint_element)el, 3);
  }
  check_errors();
  return test_finish("t702_csr_pattern");
}
