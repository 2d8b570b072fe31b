/* t709 (t7xx: mesh integration and assembly) - feint_assemble into a CSR
 * pattern that lacks an entry some element adds into: refused with
 * FEINT_ERR_UNSUPPORTED, never a wrong matrix, never a write out of place.
 *  - patterns with one entry removed: scalar (tet4 Poisson) diagonal,
 *    off-diagonal inside a row, the last column of a row (the count then
 *    points into the next row), the last row's last entry (past the end of
 *    the values) and its first; 3 dofs per vertex (tet4 and hex8
 *    elasticity): one entry of a 3 x 3 vertex block removed (diagonal
 *    block, off-diagonal block in the block's second or third row, the last
 *    row), and an extra entry in one row of a vertex (its rows no longer
 *    alike: entries in A, but not where the vertex block puts them);
 *  - patterns of another mesh: a smaller mesh's (refused by its size), the
 *    same padded to this mesh's rows (block-diagonal extra rows), a prism
 *    mesh's on the same vertices;
 *  each for both strategies, host and device code (host fallback without a
 *  GPU), 1 and 2 threads, and through feint_assemble_mapped with a NULL
 *  map: the status, and a message naming the number of element-matrix
 *  entries that found no place, the first one's row, column, element and
 *  nodes, and whether A lacks it or holds it outside its vertex block.  The
 *  expectation comes from a model of the scatter written here (a linear
 *  count of the columns below the block's first column, the position
 *  checked), independent of the library's binary search.  Values and b are
 *  allocated exactly nnz and num_rows long: the sanitizer build catches a
 *  write past them.
 *  - correct patterns still assemble: bitwise equal to the position map's
 *    (unchecked) path for colouring (1 and 2 threads, host; device code),
 *    atomics with one thread; and a pattern with extra entries no element
 *    touches gives the same bits on the common entries and zeros on the
 *    extra ones. */
#include <omp.h>
#include <stdlib.h>

#include "mesh_fixture.h"
#include "mesh_util.h"
#include "test_util.h"

/* Sanitizer builds: libomp keeps the thread descriptors of the teams this
 * test asks for (omp_set_num_threads) without freeing them. */
const char *__lsan_default_suppressions(void);
const char *__lsan_default_suppressions(void) { return "leak:libomp.so\n"; }

/* ---- patterns (arrays malloc'd here, values exactly nnz long) ---------- */

static void pat_alloc(feint_csr *P, size_t nr, size_t nnz, int dpv) {
  memset(P, 0, sizeof *P);
  P->num_rows = P->num_cols = nr;
  P->nnz = nnz;
  P->dofs_per_vertex = dpv;
  P->row_ptr = malloc((nr + 1) * sizeof(int64_t));
  P->col_idx = malloc((nnz ? nnz : 1) * sizeof(int32_t));
  P->values = malloc((nnz ? nnz : 1) * sizeof(double));
  P->owns_arrays = 0;
}

static void pat_free(feint_csr *P) {
  free(P->row_ptr), free(P->col_idx), free(P->values);
  memset(P, 0, sizeof *P);
}

/* P = A without entry (row, col) (which A holds). */
static void pat_drop(const feint_csr *A, size_t row, int32_t col, feint_csr *P) {
  pat_alloc(P, A->num_rows, A->nnz - 1, A->dofs_per_vertex);
  size_t n = 0;
  P->row_ptr[0] = 0;
  for (size_t i = 0; i < A->num_rows; i++) {
    for (int64_t k = A->row_ptr[i]; k < A->row_ptr[i + 1]; k++)
      if (!(i == row && A->col_idx[k] == col)) P->col_idx[n++] = A->col_idx[k];
    P->row_ptr[i + 1] = (int64_t)n;
  }
  CHECK(n == P->nnz, "pat_drop: A lacks (%zu, %d)", row, (int)col);
}

/* P = A plus entry (row, col) (which A lacks). */
static void pat_insert(const feint_csr *A, size_t row, int32_t col, feint_csr *P) {
  pat_alloc(P, A->num_rows, A->nnz + 1, A->dofs_per_vertex);
  size_t n = 0;
  P->row_ptr[0] = 0;
  for (size_t i = 0; i < A->num_rows; i++) {
    int done = i != row;
    for (int64_t k = A->row_ptr[i]; k < A->row_ptr[i + 1]; k++) {
      if (!done && A->col_idx[k] > col) P->col_idx[n++] = col, done = 1;
      P->col_idx[n++] = A->col_idx[k];
    }
    if (!done) P->col_idx[n++] = col;
    P->row_ptr[i + 1] = (int64_t)n;
  }
}

/* P = the pattern S of a smaller mesh, with rows appended up to nr rows:
 * the block-diagonal of their vertex (columns dpv v .. dpv v + dpv - 1). */
static void pat_padded(const feint_csr *S, size_t nr, feint_csr *P) {
  const int dpv = S->dofs_per_vertex;
  pat_alloc(P, nr, S->nnz + (nr - S->num_rows) * (size_t)dpv, dpv);
  memcpy(P->row_ptr, S->row_ptr, (S->num_rows + 1) * sizeof(int64_t));
  memcpy(P->col_idx, S->col_idx, S->nnz * sizeof(int32_t));
  size_t n = S->nnz;
  for (size_t i = S->num_rows; i < nr; i++) {
    for (int d = 0; d < dpv; d++) P->col_idx[n++] = (int32_t)(i - i % (size_t)dpv) + d;
    P->row_ptr[i + 1] = (int64_t)n;
  }
}

/* P = A plus the vertex blocks (v, w) and (w, v) (dpv x dpv entries each),
 * which A lacks; *extra[k] = 1 for P's added entries. */
static void pat_add_blocks(const feint_csr *A, uint32_t v, uint32_t w, feint_csr *P,
                           unsigned char **extra) {
  const int dpv = A->dofs_per_vertex;
  pat_alloc(P, A->num_rows, A->nnz + 2 * (size_t)(dpv * dpv), dpv);
  *extra = calloc(P->nnz, 1);
  size_t n = 0;
  P->row_ptr[0] = 0;
  for (size_t i = 0; i < A->num_rows; i++) {
    const uint32_t vi = (uint32_t)(i / (size_t)dpv);
    const int32_t add = vi == v ? dpv * (int32_t)w : vi == w ? dpv * (int32_t)v : -1;
    int done = add < 0;
    for (int64_t k = A->row_ptr[i]; k <= A->row_ptr[i + 1]; k++) {
      const int at_end = k == A->row_ptr[i + 1];
      if (!done && (at_end || A->col_idx[k] > add)) {
        for (int d = 0; d < dpv; d++) (*extra)[n] = 1, P->col_idx[n++] = add + d;
        done = 1;
      }
      if (!at_end) P->col_idx[n++] = A->col_idx[k];
    }
    P->row_ptr[i + 1] = (int64_t)n;
  }
  CHECK(n == P->nnz, "pat_add_blocks: %zu entries, expected %zu", n, P->nnz);
}

/* ---- the model of the scatter ------------------------------------------ */

/* What the scatter of kernel/scatter.h does with pattern P, modelled here:
 * entry (dpv v + c, dpv w + d) of an element with v = conn[e][r], w =
 * conn[e][s] goes to row_ptr[dpv v + c] + lo + d, lo = the number of
 * columns below dpv w in row dpv v (a linear count); it found no place if
 * that position is past its row or holds another column.  count: how many
 * entries of all element matrices found none; the first in the order
 * element, node pair (r, s), block entry (c, d); absent: its row lacks its
 * column altogether (else the column is elsewhere in the row). */
typedef struct {
  size_t count, e, r, s, row;
  int32_t col;
  int absent;
} miss_model;

static miss_model model_misses(const feint_mesh *m, int dpv, const feint_csr *P) {
  const size_t ns = (size_t)fix_nodes(m->element);
  miss_model mm = {0, 0, 0, 0, 0, 0, 0};
  for (size_t e = 0; e < m->num_elem; e++)
    for (size_t r = 0; r < ns; r++)
      for (size_t s = 0; s < ns; s++) {
        const size_t row0 = (size_t)dpv * m->conn[e * ns + r];
        const int32_t col0 = dpv * (int32_t)m->conn[e * ns + s];
        int64_t lo = 0;
        for (int64_t k = P->row_ptr[row0]; k < P->row_ptr[row0 + 1]; k++)
          lo += P->col_idx[k] < col0;
        for (int c = 0; c < dpv; c++)
          for (int d = 0; d < dpv; d++) {
            const size_t row = row0 + (size_t)c;
            const int32_t col = col0 + d;
            const int64_t p = P->row_ptr[row] + lo + d;
            if (p < P->row_ptr[row + 1] && P->col_idx[p] == col) continue;
            if (mm.count++ == 0) {
              mm.e = e, mm.r = r, mm.s = s, mm.row = row, mm.col = col, mm.absent = 1;
              for (int64_t k = P->row_ptr[row]; k < P->row_ptr[row + 1]; k++)
                if (P->col_idx[k] == col) mm.absent = 0;
            }
          }
      }
  return mm;
}

/* ---- the checks ---------------------------------------------------------- */

typedef struct {
  feint_mesh m;
  feint_problem pb;
  int dpv;
  size_t nr;
  double *coef;
  feint_assembly *plan;
  feint_csr A; /* feint_csr_create's pattern */
} fixture;

static void fixture_make(fixture *f, feint_element el, feint_problem pb, size_t n) {
  fix_mesh_box(&f->m, el, n, FIX_GENERAL, 0.2, 17 + el);
  f->pb = pb;
  f->dpv = pb == FEINT_ELASTICITY ? 3 : 1;
  f->nr = (size_t)f->dpv * f->m.num_vertices;
  size_t nc;
  feint_array_entries(el, pb, FEINT_ARRAY_COEFFS, &nc);
  f->coef = malloc(f->m.num_elem * nc * sizeof(double));
  mesh_random_coeffs(pb, f->m.num_elem, nc, 31 + (uint64_t)pb, f->coef);
  CHECK_STATUS(feint_assembly_create(&f->m, &f->plan), FEINT_SUCCESS, NULL);
  CHECK_STATUS(feint_csr_create(&f->m, f->dpv, &f->A), FEINT_SUCCESS, NULL);
}

static void fixture_free(fixture *f) {
  free(f->coef);
  feint_assembly_destroy(f->plan);
  feint_csr_destroy(&f->A);
  fix_mesh_free(&f->m);
}

static feint_integrate_desc desc_of(const fixture *f, int target) {
  feint_integrate_desc d = {f->m.element, f->pb, FEINT_QSS_GEO_GENERIC, 0, 0, 0, 0, 0};
  if (target) {
    d.target = FEINT_TARGET_DEVICE;
    d.flags = FEINT_FLAG_ALLOW_HOST_FALLBACK;
  }
  return d;
}

/* Pattern P (lacking entries of f's mesh) is refused on every path with the
 * model's count and first entry in the message. */
static void check_refused(const char *what, const fixture *f, feint_csr *P) {
  const miss_model mm = model_misses(&f->m, f->dpv, P);
  CHECK(mm.count > 0, "%s: the model finds no missing entry: not a test", what);
  char where[128], count[96];
  snprintf(where, sizeof where, "(%zu, %d) for element %zu, nodes %zu and %zu", mm.row,
           (int)mm.col, mm.e, mm.r, mm.s);
  snprintf(count, sizeof count, "(%zu entries of element matrices found no place in A", mm.count);
  const char *kind = mm.absent ? "A has no entry" : "is not where the 3 x 3 block";
  double *b = malloc(f->nr * sizeof(double));
  for (int target = 0; target < 2; target++)
    for (int strat = 0; strat < FEINT_ASSEMBLE_COUNT; strat++)
      for (int threads = 1; threads <= 2; threads++) {
        omp_set_num_threads(threads);
        const feint_integrate_desc d = desc_of(f, target);
        const feint_status st =
            feint_assemble(&d, (feint_assemble_strategy)strat, &f->m, f->plan, f->coef, P, b);
        CHECK(st == FEINT_ERR_UNSUPPORTED && test_error_has(where) && test_error_has(count) &&
                  test_error_has(kind),
              "%s, %s, %s code, %d threads: status %d, message \"%s\"; expected %d with \"%s\", "
              "\"%s\", \"%s\"",
              what, strat ? "atomics" : "colouring", target ? "device" : "host", threads, st,
              feint_last_error(), FEINT_ERR_UNSUPPORTED, kind, where, count);
      }
  omp_set_num_threads(omp_get_num_procs());
  const feint_integrate_desc d = desc_of(f, 0);
  CHECK_STATUS(feint_assemble_mapped(&d, FEINT_ASSEMBLE_COLOURING, &f->m, f->plan, NULL, f->coef,
                                     P, b),
               FEINT_ERR_UNSUPPORTED, where);
  free(b);
}

/* Remove entry (row, col) from f's pattern and check the refusal. */
static void check_drop(const char *what, const fixture *f, size_t row, int32_t col) {
  feint_csr P;
  pat_drop(&f->A, row, col, &P);
  char w[160];
  snprintf(w, sizeof w, "%s %s without (%zu, %d) [%s]", feint_element_name(f->m.element),
           feint_problem_name(f->pb), row, (int)col, what);
  check_refused(w, f, &P);
  pat_free(&P);
}

/* Column at offset k of row i of f's pattern (k < 0: from the row's end). */
static int32_t col_at(const fixture *f, size_t i, int64_t k) {
  const feint_csr *A = &f->A;
  return A->col_idx[k >= 0 ? A->row_ptr[i] + k : A->row_ptr[i + 1] + k];
}

static void check_scalar(void) {
  fixture f;
  fixture_make(&f, FEINT_TET4, FEINT_POISSON, 3);
  const size_t v = fix_vid(3, 1, 1, 1), last = f.nr - 1;
  check_drop("diagonal", &f, v, (int32_t)v);
  check_drop("off-diagonal", &f, v, col_at(&f, v, 2));
  check_drop("last column of a row", &f, v, col_at(&f, v, -1));
  check_drop("first row, first column", &f, 0, col_at(&f, 0, 0));
  check_drop("last row, last column", &f, last, col_at(&f, last, -1));
  check_drop("last row, first column", &f, last, col_at(&f, last, 0));

  /* patterns of other meshes */
  feint_mesh small;
  feint_csr S, P;
  fix_mesh_box(&small, FEINT_TET4, 2, FIX_NONE, 0.0, 3);
  CHECK_STATUS(feint_csr_create(&small, 1, &S), FEINT_SUCCESS, NULL);
  double *b = malloc(f.nr * sizeof(double));
  const feint_integrate_desc d = desc_of(&f, 0);
  CHECK_STATUS(feint_assemble(&d, FEINT_ASSEMBLE_COLOURING, &f.m, f.plan, f.coef, &S, b),
               FEINT_ERR_UNSUPPORTED, "A is 27 x 27 with 1 dofs per vertex");
  pat_padded(&S, f.nr, &P);
  check_refused("tet4 poisson, a 2^3-cell mesh's pattern padded to 64 rows", &f, &P);
  pat_free(&P);
  free(b);
  feint_csr_destroy(&S);
  fix_mesh_free(&small);
  /* a prism mesh of the same vertices, given the tetrahedral mesh's pattern:
   * each cube's tetrahedra connect fewer vertex pairs than its two prisms */
  fixture g;
  fixture_make(&g, FEINT_PRISM6, FEINT_POISSON, 3);
  check_refused("prism6 poisson, a tet mesh's pattern on the same vertices", &g, &f.A);
  fixture_free(&g);
  fixture_free(&f);
}

static void check_elasticity(feint_element el) {
  fixture f;
  fixture_make(&f, el, FEINT_ELASTICITY, 3);
  const size_t v = fix_vid(3, 1, 1, 1), w = fix_vid(3, 1, 1, 0), last = f.nr - 1;
  check_drop("diagonal block, entry (0, 0)", &f, 3 * v, (int32_t)(3 * v));
  check_drop("diagonal block, entry (2, 1)", &f, 3 * v + 2, (int32_t)(3 * v + 1));
  check_drop("off-diagonal block, entry (1, 2)", &f, 3 * v + 1, (int32_t)(3 * w + 2));
  check_drop("off-diagonal block, entry (0, 0)", &f, 3 * w, (int32_t)(3 * v));
  check_drop("last column of a row", &f, 3 * v + 1, col_at(&f, 3 * v + 1, -1));
  check_drop("last row, last column", &f, last, col_at(&f, last, -1));
  {
    /* row 3 u + 1 with an extra leading column (vertex 0's, not a
     * neighbour of u): the rows of u no longer alike, every entry of that
     * row is in A but not where the 3 x 3 blocks put it */
    const size_t u = fix_vid(3, 2, 2, 2);
    feint_csr P;
    pat_insert(&f.A, 3 * u + 1, 0, &P);
    char w2[96];
    snprintf(w2, sizeof w2, "%s elasticity with an extra entry (%zu, 0)",
             feint_element_name(el), 3 * u + 1);
    check_refused(w2, &f, &P);
    pat_free(&P);
  }

  feint_mesh small;
  feint_csr S, P;
  fix_mesh_box(&small, el, 1, FIX_NONE, 0.0, 3);
  CHECK_STATUS(feint_csr_create(&small, 3, &S), FEINT_SUCCESS, NULL);
  pat_padded(&S, f.nr, &P);
  char what[96];
  snprintf(what, sizeof what, "%s elasticity, a 1-cell mesh's pattern padded to %zu rows",
           feint_element_name(el), f.nr);
  check_refused(what, &f, &P);
  pat_free(&P);
  feint_csr_destroy(&S);
  fix_mesh_free(&small);
  fixture_free(&f);
}

/* A correct pattern: the search (checked) and the map (unchecked) give the
 * same bits; a pattern with extra entries gives them too, and zeros. */
static void check_correct(feint_element el, feint_problem pb, size_t n) {
  fixture f;
  fixture_make(&f, el, pb, n);
  char what[64];
  snprintf(what, sizeof what, "%s %s", feint_element_name(el), feint_problem_name(pb));
  const size_t nr = f.nr, nnz = f.A.nnz;
  feint_assembly_map *map = NULL;
  CHECK_STATUS(feint_assembly_map_create(&f.m, &f.A, &map), FEINT_SUCCESS, NULL);
  double *b = malloc(nr * sizeof(double)), *sv = malloc(nnz * sizeof(double));
  double *sb = malloc(nr * sizeof(double));
  feint_csr X;
  unsigned char *extra = NULL;
  pat_add_blocks(&f.A, 0, (uint32_t)(f.m.num_vertices - 1), &X, &extra);
  double *xb = malloc(nr * sizeof(double));
  for (int target = 0; target < 2; target++)
    for (int strat = 0; strat < FEINT_ASSEMBLE_COUNT; strat++)
      for (int threads = 1; threads <= 2; threads++) {
        /* atomics add in the order threads reach an entry: bitwise only with
         * one host thread (the device code's fallback teams may be several) */
        const int exact = strat == FEINT_ASSEMBLE_COLOURING || (threads == 1 && !target);
        omp_set_num_threads(threads);
        const feint_integrate_desc d = desc_of(&f, target);
        const feint_assemble_strategy s = (feint_assemble_strategy)strat;
        CHECK_STATUS(feint_assemble_mapped(&d, s, &f.m, f.plan, map, f.coef, &f.A, b),
                     FEINT_SUCCESS, NULL);
        memcpy(sv, f.A.values, nnz * sizeof(double)), memcpy(sb, b, nr * sizeof(double));
        CHECK_STATUS(feint_assemble(&d, s, &f.m, f.plan, f.coef, &f.A, b), FEINT_SUCCESS, NULL);
        CHECK(!exact || (memcmp(sv, f.A.values, nnz * sizeof(double)) == 0 &&
                         memcmp(sb, b, nr * sizeof(double)) == 0),
              "%s %s, %s code, %d threads: the checked search differs bitwise from the map",
              what, strat ? "atomics" : "colouring", target ? "device" : "host", threads);
        CHECK_STATUS(feint_assemble(&d, s, &f.m, f.plan, f.coef, &X, xb), FEINT_SUCCESS, NULL);
        size_t k = 0, bad = 0;
        for (size_t kx = 0; kx < X.nnz; kx++) {
          if (extra[kx])
            bad += X.values[kx] != 0.0;
          else if (memcmp(&X.values[kx], &sv[k++], sizeof(double)) != 0)
            bad += exact;
        }
        bad += exact && memcmp(sb, xb, nr * sizeof(double)) != 0;
        CHECK(bad == 0,
              "%s %s, %s code, %d threads: a pattern with extra entries: %zu entries differ",
              what, strat ? "atomics" : "colouring", target ? "device" : "host", threads, bad);
      }
  omp_set_num_threads(omp_get_num_procs());
  free(b), free(sv), free(sb), free(xb), free(extra);
  pat_free(&X);
  feint_assembly_map_destroy(map);
  fixture_free(&f);
}

int main(void) {
  check_scalar();
  check_elasticity(FEINT_TET4);
  check_elasticity(FEINT_HEX8);
  check_correct(FEINT_TET4, FEINT_POISSON, 6);
  check_correct(FEINT_HEX8, FEINT_ELASTICITY, 4);
  check_correct(FEINT_PRISM6, FEINT_CONVDIFF, 4);
  return test_finish("t709_assemble_missing");
}
