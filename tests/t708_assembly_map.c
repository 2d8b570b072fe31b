/* t708 (t7xx: mesh integration and assembly) - feint_assemble_mapped with a
 * feint_assembly_map (positions of each element's entries computed once)
 * against the search path of feint_assemble, for every case of the mesh
 * paths on meshes of many chunks:
 *  - colouring, host: bitwise equal for 1, 2 and 8 threads (the map adds
 *    the same numbers in the same order);
 *  - atomics, host, 1 thread: bitwise equal;
 *  - device code (host fallback without a GPU): colouring bitwise equal to
 *    the device search path; both strategies within round-off of a sparse
 *    reference assembled here from feint_integrate_reference's element
 *    matrices (positions by linear search in the row), tolerance as t703:
 *    |a - a_ref| <= 2 (n_terms + 16 + 24) eps sum_e S_e;
 *  - the map's byte count is N_S^2 E (1-byte offsets: a mesh's own pattern);
 *  - 32-bit offsets: a dense pattern (every row holds every column, so
 *    offsets reach N_C (V - 1) > 255) gives a map of 4 N_S^2 E bytes whose
 *    assembly equals the search's bitwise (host colouring, 1 and 2 threads;
 *    atomics, 1 thread; device code, colouring), and whose entries in the mesh's own
 *    pattern equal the 1-byte map's assembly into that pattern bitwise
 *    (the same additions in the same order), the others zero;
 *  - bad input: NULLs, a map of another mesh or pattern (sizes stored in
 *    the map), a pattern lacking an entry or a full 3 x 3 vertex block
 *    (named element), outputs untouched. */
#include <omp.h>
#include <stdlib.h>

#include "mesh_fixture.h"
#include "mesh_util.h"
#include "test_util.h"

/* Sanitizer builds: libomp keeps the thread descriptors of the 8-thread
 * team this test asks for (omp_set_num_threads) without freeing them. */
const char *__lsan_default_suppressions(void);
const char *__lsan_default_suppressions(void) { return "leak:libomp.so\n"; }

/* Assemble with (map != NULL) or without the map; returns the status. */
static feint_status run(const feint_integrate_desc *d, int strat, const feint_mesh *m,
                        const feint_assembly *plan, const feint_assembly_map *map,
                        const double *coef, feint_csr *A, double *b) {
  return feint_assemble_mapped(d, (feint_assemble_strategy)strat, m, plan, map, coef, A, b);
}

static void check_case(feint_element el, feint_problem pb, size_t n) {
  feint_mesh m;
  fix_mesh_box(&m, el, n, FIX_GENERAL, 0.2, 11 + el);
  const int ns = fix_nodes(el), dpv = pb == FEINT_ELASTICITY ? 3 : 1, nd = dpv * ns;
  const size_t ne = m.num_elem, nr = (size_t)dpv * m.num_vertices;
  size_t nc;
  feint_array_entries(el, pb, FEINT_ARRAY_COEFFS, &nc);
  feint_element_info ei;
  feint_element_get_info(el, &ei);
  const double n_terms =
      (double)ei.num_qpts * (pb == FEINT_POISSON ? 3 : pb == FEINT_CONVDIFF ? 16 : 5);
  double *coef = malloc(ne * nc * sizeof(double));
  mesh_random_coeffs(pb, ne, nc, 9 + (uint64_t)pb, coef);
  feint_csr A;
  feint_assembly *plan = NULL;
  feint_assembly_map *map = NULL;
  CHECK_STATUS(feint_csr_create(&m, dpv, &A), FEINT_SUCCESS, NULL);
  CHECK_STATUS(feint_assembly_create(&m, &plan), FEINT_SUCCESS, NULL);
  CHECK_STATUS(feint_assembly_map_create(&m, &A, &map), FEINT_SUCCESS, NULL);
  char what[128];
  snprintf(what, sizeof what, "%s %s %zu cells", feint_element_name(el), feint_problem_name(pb),
           n);
  if (map == NULL) goto out;
  size_t bytes = 0;
  CHECK_STATUS(feint_assembly_map_bytes(map, &bytes), FEINT_SUCCESS, NULL);
  CHECK(bytes == (size_t)(ns * ns) * ne, "%s: map bytes %zu, expected %zu (1-byte offsets)",
        what, bytes, (size_t)(ns * ns) * ne);

  /* sparse reference and its scales */
  double *geo = fix_gather(&m);
  double *Ae = malloc(ne * nd * nd * sizeof(double)), *be = malloc(ne * nd * sizeof(double));
  double *Aa = malloc(ne * nd * nd * sizeof(double)), *ba = malloc(ne * nd * sizeof(double));
  CHECK_STATUS(feint_integrate_reference(el, pb, ne, geo, coef, Ae, be, Aa, ba), FEINT_SUCCESS,
               NULL);
  mesh_sparse_ref sr;
  mesh_sparse_ref_assemble(&m, dpv, &A, Ae, be, Aa, ba, &sr);
  const double *ref = sr.A, *S = sr.S, *refb = sr.b, *Sb = sr.Sb;
  const double tol_n = 2 * (n_terms + 16 + 24);

  double *b = malloc(nr * sizeof(double)), *sv = malloc(A.nnz * sizeof(double));
  double *sb = malloc(nr * sizeof(double));
  feint_integrate_desc d = {el, pb, FEINT_QSS_GEO_GENERIC, 0, 0, 0, 0, 0};
  /* host colouring: search with 1 thread, map with 1, 2, 8 */
  omp_set_num_threads(1);
  CHECK_STATUS(run(&d, 0, &m, plan, NULL, coef, &A, b), FEINT_SUCCESS, NULL);
  memcpy(sv, A.values, A.nnz * sizeof(double)), memcpy(sb, b, nr * sizeof(double));
  for (int threads = 1; threads <= 8; threads *= 2) {
    if (threads == 4) continue;
    omp_set_num_threads(threads);
    CHECK_STATUS(run(&d, 0, &m, plan, map, coef, &A, b), FEINT_SUCCESS, NULL);
    CHECK(memcmp(sv, A.values, A.nnz * sizeof(double)) == 0 &&
              memcmp(sb, b, nr * sizeof(double)) == 0,
          "%s: colouring with the map, %d threads, differs bitwise from the search", what,
          threads);
  }
  /* host atomics, one thread: the same order of additions */
  omp_set_num_threads(1);
  CHECK_STATUS(run(&d, 1, &m, plan, NULL, coef, &A, b), FEINT_SUCCESS, NULL);
  memcpy(sv, A.values, A.nnz * sizeof(double)), memcpy(sb, b, nr * sizeof(double));
  CHECK_STATUS(run(&d, 1, &m, plan, map, coef, &A, b), FEINT_SUCCESS, NULL);
  CHECK(memcmp(sv, A.values, A.nnz * sizeof(double)) == 0 &&
            memcmp(sb, b, nr * sizeof(double)) == 0,
        "%s: atomics with the map (1 thread) differs bitwise from the search", what);
  omp_set_num_threads(omp_get_num_procs());
  /* device code (host fallback without a GPU) */
  d.target = FEINT_TARGET_DEVICE;
  d.flags = FEINT_FLAG_ALLOW_HOST_FALLBACK;
  for (int strat = 0; strat < FEINT_ASSEMBLE_COUNT; strat++) {
    CHECK_STATUS(run(&d, strat, &m, plan, NULL, coef, &A, b), FEINT_SUCCESS, NULL);
    memcpy(sv, A.values, A.nnz * sizeof(double)), memcpy(sb, b, nr * sizeof(double));
    CHECK_STATUS(run(&d, strat, &m, plan, map, coef, &A, b), FEINT_SUCCESS, NULL);
    if (strat == FEINT_ASSEMBLE_COLOURING)
      CHECK(memcmp(sv, A.values, A.nnz * sizeof(double)) == 0 &&
                memcmp(sb, b, nr * sizeof(double)) == 0,
            "%s: device colouring with the map differs bitwise from the search", what);
    size_t bad = 0;
    for (size_t k = 0; k < A.nnz; k++) bad += !test_close(A.values[k], ref[k], tol_n, S[k], 1.0);
    for (size_t i = 0; i < nr; i++) bad += !test_close(b[i], refb[i], tol_n, Sb[i], 1.0);
    CHECK(bad == 0, "%s: device %s with the map: %zu entries off the sparse reference", what,
          strat ? "atomics" : "colouring", bad);
  }
  free(geo), free(Ae), free(be), free(Aa), free(ba), free(b), free(sv), free(sb);
  mesh_sparse_ref_free(&sr);
out:
  free(coef);
  feint_assembly_map_destroy(map);
  feint_assembly_destroy(plan);
  feint_csr_destroy(&A);
  fix_mesh_free(&m);
}

/* The dense pattern of n rows in blocks of nc (every column in every row):
 * arrays malloc'd, not owned by the feint_csr. */
static void dense_pattern(size_t n, int nc, feint_csr *D) {
  D->num_rows = D->num_cols = n;
  D->nnz = n * n;
  D->dofs_per_vertex = nc;
  D->owns_arrays = 0;
  D->row_ptr = malloc((n + 1) * sizeof(int64_t));
  D->col_idx = malloc(n * n * sizeof(int32_t));
  D->values = malloc(n * n * sizeof(double));
  for (size_t i = 0; i <= n; i++) D->row_ptr[i] = (int64_t)(i * n);
  for (size_t k = 0; k < n * n; k++) D->col_idx[k] = (int32_t)(k % n);
}

/* 32-bit offsets (a dense pattern) against the search and the 1-byte map. */
static void check_wide(feint_element el, feint_problem pb) {
  feint_mesh m;
  fix_mesh_box(&m, el, 6, FIX_GENERAL, 0.2, 21 + el); /* 343 vertices: offsets > 255 */
  const int ns = fix_nodes(el), dpv = pb == FEINT_ELASTICITY ? 3 : 1;
  const size_t ne = m.num_elem, nr = (size_t)dpv * m.num_vertices;
  size_t nc;
  feint_array_entries(el, pb, FEINT_ARRAY_COEFFS, &nc);
  double *coef = malloc(ne * nc * sizeof(double));
  mesh_random_coeffs(pb, ne, nc, 29 + (uint64_t)pb, coef);
  feint_csr A, D;
  feint_assembly *plan = NULL;
  feint_assembly_map *map = NULL, *wide = NULL;
  dense_pattern(nr, dpv, &D);
  CHECK_STATUS(feint_csr_create(&m, dpv, &A), FEINT_SUCCESS, NULL);
  CHECK_STATUS(feint_assembly_create(&m, &plan), FEINT_SUCCESS, NULL);
  CHECK_STATUS(feint_assembly_map_create(&m, &A, &map), FEINT_SUCCESS, NULL);
  CHECK_STATUS(feint_assembly_map_create(&m, &D, &wide), FEINT_SUCCESS, NULL);
  char what[128];
  snprintf(what, sizeof what, "%s %s dense pattern", feint_element_name(el),
           feint_problem_name(pb));
  size_t bytes = 0;
  if (wide) CHECK_STATUS(feint_assembly_map_bytes(wide, &bytes), FEINT_SUCCESS, NULL);
  CHECK(bytes == 4 * (size_t)(ns * ns) * ne, "%s: map bytes %zu, expected %zu (32-bit)", what,
        bytes, 4 * (size_t)(ns * ns) * ne);
  double *b = malloc(nr * sizeof(double)), *sb = malloc(nr * sizeof(double));
  double *sv = malloc(D.nnz * sizeof(double));
  feint_integrate_desc d = {el, pb, FEINT_QSS_GEO_GENERIC, 0, 0, 0, 0, 0};
  for (int dev = 0; dev < 2 && map && wide; dev++) {
    d.target = dev ? FEINT_TARGET_DEVICE : FEINT_TARGET_HOST;
    d.flags = dev ? FEINT_FLAG_ALLOW_HOST_FALLBACK : 0;
    for (int strat = 0; strat < FEINT_ASSEMBLE_COUNT; strat++)
      for (int threads = 1; threads <= 2; threads++) {
        if (!dev && strat == FEINT_ASSEMBLE_ATOMICS && threads > 1) continue; /* order varies */
        if (dev && (threads > 1 || strat == FEINT_ASSEMBLE_ATOMICS)) continue; /* any order */
        omp_set_num_threads(dev ? omp_get_num_procs() : threads);
        const char *how = dev ? (strat ? "device atomics" : "device colouring")
                              : (strat ? "atomics" : "colouring");
        CHECK_STATUS(run(&d, strat, &m, plan, NULL, coef, &D, b), FEINT_SUCCESS, NULL);
        memcpy(sv, D.values, D.nnz * sizeof(double)), memcpy(sb, b, nr * sizeof(double));
        CHECK_STATUS(run(&d, strat, &m, plan, wide, coef, &D, b), FEINT_SUCCESS, NULL);
        CHECK(memcmp(sv, D.values, D.nnz * sizeof(double)) == 0 &&
                  memcmp(sb, b, nr * sizeof(double)) == 0,
              "%s: %s with the 32-bit map, %d threads, differs bitwise from the search", what,
              how, threads);
        if (dev) continue;
        /* the mesh's pattern, 1-byte map: the same sums in the same order */
        CHECK_STATUS(run(&d, strat, &m, plan, map, coef, &A, sb), FEINT_SUCCESS, NULL);
        size_t bad = 0, k = 0;
        for (size_t i = 0; i < nr; i++)
          for (size_t j = 0; j < nr; j++) {
            const int in = k < (size_t)A.row_ptr[i + 1] && (size_t)A.col_idx[k] == j;
            const double want = in ? A.values[k++] : 0.0;
            bad += memcmp(&D.values[i * nr + j], &want, sizeof want) != 0;
          }
        bad += memcmp(sb, b, nr * sizeof(double)) != 0;
        CHECK(bad == 0, "%s: %s, %d threads: %zu entries differ from the 1-byte map's", what,
              how, threads, bad);
      }
  }
  omp_set_num_threads(omp_get_num_procs());
  free(coef), free(b), free(sb), free(sv);
  free(D.row_ptr), free(D.col_idx), free(D.values);
  feint_assembly_map_destroy(map), feint_assembly_map_destroy(wide);
  feint_assembly_destroy(plan);
  feint_csr_destroy(&A);
  fix_mesh_free(&m);
}

static void check_errors(void) {
  feint_mesh m, other;
  fix_mesh_box(&m, FEINT_TET4, 2, FIX_GENERAL, 0.2, 5);
  fix_mesh_box(&other, FEINT_TET4, 3, FIX_NONE, 0.0, 5);
  feint_csr A, A3, Ao;
  feint_assembly *plan = NULL;
  feint_assembly_map *map = NULL, *map3 = NULL, *map_other = NULL, *bad = NULL;
  CHECK_STATUS(feint_csr_create(&m, 1, &A), FEINT_SUCCESS, NULL);
  CHECK_STATUS(feint_csr_create(&m, 3, &A3), FEINT_SUCCESS, NULL);
  CHECK_STATUS(feint_csr_create(&other, 1, &Ao), FEINT_SUCCESS, NULL);
  CHECK_STATUS(feint_assembly_create(&m, &plan), FEINT_SUCCESS, NULL);
  CHECK_STATUS(feint_assembly_map_create(&m, &A, &map), FEINT_SUCCESS, NULL);
  CHECK_STATUS(feint_assembly_map_create(&m, &A3, &map3), FEINT_SUCCESS, NULL);
  CHECK_STATUS(feint_assembly_map_create(&other, &Ao, &map_other), FEINT_SUCCESS, NULL);

  CHECK_STATUS(feint_assembly_map_create(&m, &A, NULL), FEINT_ERR_NULL_ARG, "map is NULL");
  CHECK_STATUS(feint_assembly_map_create(&m, NULL, &bad), FEINT_ERR_NULL_ARG, "A is NULL");
  CHECK_STATUS(feint_assembly_map_create(NULL, &A, &bad), FEINT_ERR_NULL_ARG, "mesh");
  CHECK_STATUS(feint_assembly_map_create(&m, &Ao, &bad), FEINT_ERR_UNSUPPORTED, "rows");
  CHECK_STATUS(feint_assembly_map_bytes(NULL, &(size_t){0}), FEINT_ERR_NULL_ARG, "map");
  CHECK_STATUS(feint_assembly_map_bytes(map, NULL), FEINT_ERR_NULL_ARG, "bytes");
  CHECK(bad == NULL, "map written on error");
  {
    /* a pattern of the right size lacking entry (row 5, its last column) */
    feint_csr H = A;
    H.owns_arrays = 0;
    H.row_ptr = malloc((A.num_rows + 1) * sizeof(int64_t));
    H.col_idx = malloc(A.nnz * sizeof(int32_t));
    size_t k = 0;
    int64_t drop = A.row_ptr[6] - 1;
    const int32_t col = A.col_idx[drop];
    for (size_t i = 0; i <= A.num_rows; i++) H.row_ptr[i] = A.row_ptr[i] - (i > 5);
    for (int64_t j = 0; j < (int64_t)A.nnz; j++)
      if (j != drop) H.col_idx[k++] = A.col_idx[j];
    H.nnz = A.nnz - 1;
    char msg[64];
    snprintf(msg, sizeof msg, "no entry (5, %d) for element", (int)col);
    CHECK_STATUS(feint_assembly_map_create(&m, &H, &bad), FEINT_ERR_UNSUPPORTED, msg);
    CHECK(bad == NULL, "map written on error");
    free(H.row_ptr), free(H.col_idx);
  }
  {
    /* an elasticity pattern whose row 3 * 2 + 1 ends with another column
     * (3 (w + 1) instead of 3 w + 2, still ascending): vertex 2's rows are
     * not alike, the block of its last neighbour w is not full */
    int32_t *ci = A3.col_idx;
    const int64_t k = A3.row_ptr[8] - 1;
    const int32_t keep = ci[k];
    CHECK(keep % 3 == 2 && (size_t)keep + 1 < A3.num_cols, "row 7 does not end a vertex block");
    ci[k] = keep + 1;
    CHECK_STATUS(feint_assembly_map_create(&m, &A3, &bad), FEINT_ERR_UNSUPPORTED, "vertex 2");
    CHECK(bad == NULL, "map written on error");
    ci[k] = keep;
  }
  double *coef = calloc(m.num_elem * 4, sizeof(double)), *b = malloc(m.num_vertices * 8);
  feint_integrate_desc d = {FEINT_TET4, FEINT_POISSON, FEINT_QSS_GEO_LINEAR, 0, 0, 0, 0, 0};
  A.values[0] = b[0] = -777.0;
  CHECK_STATUS(feint_assemble_mapped(&d, FEINT_ASSEMBLE_COLOURING, &m, plan, map_other, coef, &A,
                                     b),
               FEINT_ERR_UNSUPPORTED, "map was made for a tet4 mesh of");
  CHECK_STATUS(feint_assemble_mapped(&d, FEINT_ASSEMBLE_ATOMICS, &m, plan, map3, coef, &A, b),
               FEINT_ERR_UNSUPPORTED, "map was made for a pattern of");
  CHECK(A.values[0] == -777.0 && b[0] == -777.0, "outputs written on error");
  /* elasticity into A3 with the scalar map: the pattern differs */
  const size_t nce = 2 + 3 * 4;
  double *ce = calloc(m.num_elem * nce, sizeof(double)), *b3 = malloc(3 * m.num_vertices * 8);
  for (size_t e = 0; e < m.num_elem; e++) ce[e * nce] = ce[e * nce + 1] = 1.0;
  d.problem = FEINT_ELASTICITY;
  CHECK_STATUS(feint_assemble_mapped(&d, FEINT_ASSEMBLE_ATOMICS, &m, plan, map, ce, &A3, b3),
               FEINT_ERR_UNSUPPORTED, "map was made for a pattern of");
  CHECK_STATUS(feint_assemble_mapped(&d, FEINT_ASSEMBLE_ATOMICS, &m, plan, map3, ce, &A3, b3),
               FEINT_SUCCESS, NULL);
  d.problem = FEINT_POISSON;
  CHECK_STATUS(feint_assemble_mapped(&d, FEINT_ASSEMBLE_COLOURING, &m, plan, map, coef, &A, b),
               FEINT_SUCCESS, NULL);
  CHECK_STATUS(feint_assembly_map_destroy(NULL), FEINT_SUCCESS, NULL);
  feint_assembly_map_destroy(map), feint_assembly_map_destroy(map3);
  feint_assembly_map_destroy(map_other);
  feint_assembly_destroy(plan);
  feint_csr_destroy(&A), feint_csr_destroy(&A3), feint_csr_destroy(&Ao);
  free(coef), free(b), free(ce), free(b3);
  fix_mesh_free(&m), fix_mesh_free(&other);
}

int main(void) {
  for (int el = 0; el < FEINT_ELEMENT_COUNT; el++)
    for (int pb = 0; pb <= FEINT_ELASTICITY; pb++) /* the mesh paths' problems */
      check_case((feint_element)el, (feint_problem)pb, el == FEINT_TET4 ? 12 : 8);
  check_wide(FEINT_TET4, FEINT_POISSON);
  check_wide(FEINT_TET4, FEINT_ELASTICITY);
  check_wide(FEINT_HEX8, FEINT_POISSON);
  check_errors();
  return test_finish("t708_assembly_map");
}
