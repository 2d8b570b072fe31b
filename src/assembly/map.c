/*
 * assembly/map.c - the per-element position map of a mesh into a CSR
 * pattern (feint_assembly_map_*): the offset within row N_C conn[e][r] of
 * column N_C conn[e][s], for every element and node pair, found once (by
 * counting the row's columns below it) so that feint_assemble_mapped's scatter
 * (kernel/scatter.h, feint_scatter_element_mapped) reads no columns.  The
 * search and the check of a vertex block (feint_asm_pattern_find,
 * feint_asm_block_check) also name the entry a pattern lacks when
 * feint_assemble's scatter found no place for it (assembly/assemble.c).
 *
 * Width: a P1 row holds ~15 (tet4) to 27 (hex8) vertex blocks, so every
 * offset of a mesh's own pattern fits a byte (N_C = 3: at most 3 * 27 - 3 =
 * 78); the map then keeps 1-byte offsets, a quarter of the bytes the
 * scatter streams (tet4: 16 bytes per element instead of 64).  Emerald
 * Rapids, one thread, feint_assemble_mapped colouring at ~4.1 M elements:
 * prism6 Poisson 87.9 -> 80.4 ns per element, tet4 30.0 -> 29.9 (the scatter
 * alone had shown 13.8 -> 10.3; in the fused loop the map is prefetched
 * ahead, so its bytes were mostly hidden; bench/results/assembly_intel/).
 * A pattern with a longer row (a vertex of many neighbours, or extra
 * entries) keeps 32-bit offsets.
 */
#include <stdlib.h>

#include "assembly/assembly_internal.h"
#include "kernel/portable.h" /* FEINT_INLINE, FEINT_UNROLL */

struct feint_assembly_map {
  /* what it was made for (checked at every use) */
  int element, dofs_per_vertex;
  size_t num_elem, num_vertices, num_rows, nnz;
  uint64_t conn_fp, pattern_fp; /* fingerprints of mesh->conn (ordered) and A at create */
  uint64_t conn_sets_fp;        /* and of mesh->conn's vertex sets */
  int32_t *off;                 /* [num_elem][N_S][N_S], or NULL when off8 holds them */
  uint8_t *off8;                /* the same offsets, each <= 255 (else NULL) */
};

int64_t feint_asm_pattern_find(const int64_t *row_ptr, const int32_t *col_idx, size_t row,
                               int32_t col) {
  const int32_t *c = col_idx + row_ptr[row];
  const int64_t len = row_ptr[row + 1] - row_ptr[row];
  int64_t lo = 0, hi = len;
  while (lo < hi) {
    const int64_t mid = lo + (hi - lo) / 2;
    if (c[mid] < col)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo < len && c[lo] == col ? lo : -1;
}

/* feint_asm_block_check at a given offset k >= 0 of row nc v. */
static int block_check_at(const int64_t *row_ptr, const int32_t *col_idx, int nc, uint32_t v,
                          uint32_t w, int64_t k) {
  const size_t row = (size_t)nc * v;
  const int32_t col = nc * (int32_t)w;
  for (int c = 0; c < nc; c++)
    for (int d = 0; d < nc; d++) {
      const int64_t p = row_ptr[row + c] + k + d;
      if (!(p < row_ptr[row + c + 1] && col_idx[p] == col + d)) return nc * c + d;
    }
  return nc * nc;
}

int feint_asm_block_check(const int64_t *row_ptr, const int32_t *col_idx, int nc, uint32_t v,
                          uint32_t w, int64_t *k) {
  *k = feint_asm_pattern_find(row_ptr, col_idx, (size_t)nc * v, nc * (int32_t)w);
  return *k < 0 ? 0 : block_check_at(row_ptr, col_idx, nc, v, w, *k);
}

/* The offsets of one element's N_S x N_S entries (vertices v) into
 * off[r * ns + s]; returns the first pair r * ns + s whose entry is missing
 * or too far into its row (its offset set to 0), or SIZE_MAX; raises *kmax
 * to the largest offset.  An entry's offset is the number of its row's
 * columns below its column, counted without branches in one pass over the
 * row for all of the element's columns at once (ns a literal at each call:
 * the count over the nodes unrolls).  It was a binary search per entry,
 * half of whose halvings on a row of ~15 columns went the way the predictor
 * did not guess (4.30 M tets of a Gmsh mesh, renumbered, 2 threads, Zen 4:
 * 1.15 s for the map's 69 M offsets). */
FEINT_INLINE size_t elem_offsets(const size_t ns, const int nc, const int64_t *rp,
                                 const int32_t *ci, const uint32_t *v, int32_t *off,
                                 int64_t *kmax) {
  size_t bad = SIZE_MAX;
  for (size_t r = 0; r < ns; r++) {
    const size_t row = (size_t)nc * v[r];
    const int32_t *c = ci + rp[row];
    const int64_t len = rp[row + 1] - rp[row];
    int32_t col[FEINT_MAX_NODES];
    int64_t k[FEINT_MAX_NODES];
    FEINT_UNROLL
    for (size_t s = 0; s < ns; s++) col[s] = nc * (int32_t)v[s], k[s] = 0;
    for (int64_t j = 0; j < len; j++) {
      const int32_t x = c[j];
      FEINT_UNROLL
      for (size_t s = 0; s < ns; s++) k[s] += x < col[s];
    }
    for (size_t s = 0; s < ns; s++) {
      /* N_C = 3: the full vertex block, the three rows alike, must be there */
      if (block_check_at(rp, ci, nc, v[r], v[s], k[s]) == nc * nc && k[s] + nc - 1 <= INT32_MAX) {
        off[r * ns + s] = (int32_t)k[s];
        *kmax = k[s] > *kmax ? k[s] : *kmax;
      } else {
        off[r * ns + s] = 0;
        bad = r * ns + s < bad ? r * ns + s : bad;
      }
    }
  }
  return bad;
}

feint_status feint_assembly_map_create(const feint_mesh *mesh, const feint_csr *A,
                                       feint_assembly_map **map) {
  FEINT_CHECK(map != NULL, FEINT_ERR_NULL_ARG, "map is NULL");
  FEINT_CALL(feint_mesh_check(mesh));
  FEINT_CHECK(A != NULL, FEINT_ERR_NULL_ARG, "A is NULL");
  FEINT_CHECK(A->row_ptr != NULL && A->col_idx != NULL, FEINT_ERR_NULL_ARG,
              "A->row_ptr or A->col_idx is NULL");
  const int nc = A->dofs_per_vertex;
  FEINT_CHECK(nc == 1 || nc == 3, FEINT_ERR_OUT_OF_RANGE,
              "A->dofs_per_vertex = %d (1 or 3)", nc);
  FEINT_CHECK(A->num_rows == (size_t)nc * mesh->num_vertices, FEINT_ERR_UNSUPPORTED,
              "A has %zu rows; a pattern of this mesh with %d dofs per vertex has %zu",
              A->num_rows, nc, (size_t)nc * mesh->num_vertices);
  FEINT_CALL(feint_csr_check_pattern(A, 1));
  const size_t ne = mesh->num_elem, ns = (size_t)feint_asm_nodes(mesh->element);
  FEINT_CHECK(ne <= SIZE_MAX / (ns * ns * sizeof(int32_t)), FEINT_ERR_BAD_SIZE,
              "mesh->num_elem = %zu: the map's size overflows size_t", ne);
  const int64_t *rp = A->row_ptr;
  const int32_t *ci = A->col_idx;
  /* rows of at most 256 columns (every pattern of a P1 mesh): each offset
   * fits a byte and goes straight into the 1-byte map, without a 32-bit one
   * first (4 times the bytes, and its pages faulted in) */
  int64_t max_len = 0;
#pragma omp parallel for schedule(static) reduction(max : max_len)
  for (size_t i = 0; i < A->num_rows; i++)
    max_len = rp[i + 1] - rp[i] > max_len ? rp[i + 1] - rp[i] : max_len;
  const int narrow = max_len <= UINT8_MAX + 1;
  feint_assembly_map *m = calloc(1, sizeof *m);
  int32_t *off = narrow ? NULL : malloc((ne ? ne : 1) * ns * ns * sizeof(int32_t));
  uint8_t *off8 = narrow ? malloc((ne ? ne : 1) * ns * ns) : NULL;
  if (!m || (!off && !off8)) {
    free(m), free(off), free(off8);
    FEINT_CHECK(0, FEINT_ERR_ALLOC, "cannot allocate the map of %zu elements (%zu bytes)", ne,
                ne * ns * ns * sizeof(int32_t));
  }
  const uint32_t *conn = mesh->conn;
  /* first element (and node pair) whose entry is missing or too far in its
   * row; the smallest index, whatever the thread count */
  size_t bad = SIZE_MAX;
  int64_t kmax = 0; /* the largest offset, for the width */
#pragma omp parallel for schedule(static) reduction(min : bad) reduction(max : kmax)
  for (size_t e = 0; e < ne; e++) {
    const uint32_t *v = conn + e * ns;
    int32_t o[FEINT_MAX_NODES * FEINT_MAX_NODES];
    const size_t b = ns == 4   ? elem_offsets(4, nc, rp, ci, v, o, &kmax)
                     : ns == 6 ? elem_offsets(6, nc, rp, ci, v, o, &kmax)
                               : elem_offsets(8, nc, rp, ci, v, o, &kmax);
    if (b != SIZE_MAX) bad = e * ns * ns + b < bad ? e * ns * ns + b : bad;
    if (narrow)
      for (size_t i = 0; i < ns * ns; i++) off8[e * ns * ns + i] = (uint8_t)o[i];
    else
      for (size_t i = 0; i < ns * ns; i++) off[e * ns * ns + i] = o[i];
  }
  if (bad != SIZE_MAX) {
    const size_t e = bad / (ns * ns), r = bad / ns % ns, s = bad % ns;
    const size_t row = (size_t)nc * conn[e * ns + r];
    const int32_t col = nc * (int32_t)conn[e * ns + s];
    const int64_t k = feint_asm_pattern_find(rp, ci, row, col);
    free(m), free(off), free(off8);
    FEINT_CHECK(k >= 0, FEINT_ERR_UNSUPPORTED,
                "A has no entry (%zu, %d) for element %zu, nodes %zu and %zu: not a pattern of "
                "this mesh",
                row, col, e, r, s);
    FEINT_CHECK(k + nc - 1 <= INT32_MAX, FEINT_ERR_BAD_SIZE,
                "entry (%zu, %d) of element %zu (nodes %zu, %zu) is at offset %lld of its row, "
                "beyond the map's 32-bit offsets",
                row, col, e, r, s, (long long)k);
    FEINT_CHECK(0, FEINT_ERR_UNSUPPORTED,
                "A's rows %zu..%zu (vertex %u) do not hold the full 3 x 3 block of columns "
                "%d..%d of element %zu, nodes %zu and %zu (the rows of a vertex must be alike)",
                row, row + 2, conn[e * ns + r], col, col + 2, e, r, s);
  }
  m->element = mesh->element;
  m->dofs_per_vertex = nc;
  m->num_elem = ne;
  m->num_vertices = mesh->num_vertices;
  m->num_rows = A->num_rows;
  m->nnz = A->nnz;
  m->conn_fp = feint_asm_fingerprint_conn(mesh, 1);
  m->conn_sets_fp = feint_asm_fingerprint_conn(mesh, 0);
  m->pattern_fp = feint_asm_fingerprint_pattern(A);
  /* longer rows, but every offset fits a byte: keep those (no 1-byte copy
   * allocated: keep the 32-bit ones, the same positions) */
  if (!narrow && kmax <= UINT8_MAX) off8 = malloc((ne ? ne : 1) * ns * ns);
  if (!narrow && off8 != NULL) {
#pragma omp parallel for schedule(static)
    for (size_t i = 0; i < ne * ns * ns; i++) off8[i] = (uint8_t)off[i];
    free(off);
    off = NULL;
  }
  m->off = off;
  m->off8 = off8;
  *map = m;
  return FEINT_SUCCESS;
}

feint_status feint_assembly_map_destroy(feint_assembly_map *map) {
  if (map == NULL) return FEINT_SUCCESS;
  free(map->off), free(map->off8);
  free(map);
  return FEINT_SUCCESS;
}

feint_status feint_assembly_map_bytes(const feint_assembly_map *map, size_t *bytes) {
  FEINT_CHECK(map != NULL, FEINT_ERR_NULL_ARG, "map is NULL");
  FEINT_CHECK(bytes != NULL, FEINT_ERR_NULL_ARG, "bytes is NULL");
  const size_t ns = (size_t)feint_asm_nodes((feint_element)map->element);
  *bytes = map->num_elem * ns * ns * (map->off8 != NULL ? 1 : sizeof(int32_t));
  return FEINT_SUCCESS;
}

uint64_t feint_asm_map_sets_fp(const feint_assembly_map *map) { return map->conn_sets_fp; }

feint_status feint_asm_map_check(const feint_assembly_map *map, const feint_mesh *mesh,
                                 uint64_t conn_fp, const feint_csr *A, const int32_t **off,
                                 const uint8_t **off8) {
  FEINT_CHECK(map->element == (int)mesh->element && map->num_elem == mesh->num_elem &&
                  map->num_vertices == mesh->num_vertices,
              FEINT_ERR_UNSUPPORTED,
              "map was made for a %s mesh of %zu elements and %zu vertices, this mesh is %s with "
              "%zu and %zu",
              feint_element_name((feint_element)map->element), map->num_elem,
              map->num_vertices, feint_element_name(mesh->element), mesh->num_elem,
              mesh->num_vertices);
  FEINT_CHECK(map->dofs_per_vertex == A->dofs_per_vertex && map->num_rows == A->num_rows &&
                  map->nnz == A->nnz,
              FEINT_ERR_UNSUPPORTED,
              "map was made for a pattern of %zu rows, %zu entries and %d dofs per vertex; A "
              "has %zu, %zu and %d",
              map->num_rows, map->nnz, map->dofs_per_vertex, A->num_rows, A->nnz,
              A->dofs_per_vertex);
  FEINT_CHECK(conn_fp == map->conn_fp, FEINT_ERR_UNSUPPORTED,
              "map was made for another connectivity of the same sizes (the fingerprints of "
              "mesh->conn differ); make it again with feint_assembly_map_create");
  FEINT_CHECK(feint_asm_fingerprint_pattern(A) == map->pattern_fp, FEINT_ERR_UNSUPPORTED,
              "map was made for another pattern of the same sizes (the fingerprints of "
              "A->row_ptr and A->col_idx differ); make it again with "
              "feint_assembly_map_create");
  *off = map->off;
  *off8 = map->off8;
  return FEINT_SUCCESS;
}
