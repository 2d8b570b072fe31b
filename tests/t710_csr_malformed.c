/* t710 (t7xx: mesh integration and assembly) - CSR arrays that are not a
 * matrix are refused by every function that takes a feint_csr, with
 * FEINT_ERR_UNSUPPORTED and a message naming the first bad row and entry,
 * before anything is written (except y of feint_csr_spmv on the host, which
 * checks as it multiplies); never a read outside the arrays (the
 * sanitizer build would report one), never a wrong result.
 *  Starting from feint_csr_create's pattern of a perturbed tet4 box (and
 *  the 3-dof pattern for elasticity), one defect at a time:
 *   - row_ptr decreasing inside (a row's end below its start),
 *   - row_ptr beyond nnz inside, negative inside,
 *   - a column equal to num_cols, a negative column,
 *   - two columns of a row swapped, a column repeated (not ascending: the
 *     assembly refuses it; SpMV, the COO rows and the Dirichlet elimination
 *     accept it, and SpMV gives the product of the matrix as written,
 *     checked against a reference computed here),
 *  through feint_csr_spmv (host, device code in host fallback),
 *  feint_csr_coo_rows, feint_csr_dirichlet, feint_assemble (colouring and
 *  atomics), feint_assemble_mapped and feint_assembly_map_create.  Outputs
 *  are filled with a sentinel first and must still hold it after a refusal.
 *  The untouched pattern passes everywhere (the control).
 *  And an assembly plan or position map used with another connectivity, or
 *  a map with another pattern, of the same sizes is refused (stale_map),
 *  also after edits of two connectivity entries by one in bit 0. */
#include <math.h>
#include <stdlib.h>

#include "mesh_fixture.h"
#include "mesh_util.h"
#include "test_util.h"

/* Sanitizer builds: libomp keeps its thread descriptors. */
const char *__lsan_default_suppressions(void);
const char *__lsan_default_suppressions(void) { return "leak:libomp.so\n"; }

#define SENTINEL (-12345.0)

typedef struct {
  feint_mesh m;
  feint_problem pb;
  size_t nr;
  double *coef;
  feint_assembly *plan;
  feint_csr A; /* feint_csr_create's pattern, never modified */
} fixture;

static void fixture_make(fixture *f, feint_problem pb) {
  fix_mesh_box(&f->m, FEINT_TET4, 3, FIX_GENERAL, 0.2, 71);
  f->pb = pb;
  const int dpv = pb == FEINT_ELASTICITY ? 3 : 1;
  f->nr = (size_t)dpv * f->m.num_vertices;
  size_t nc;
  feint_array_entries(FEINT_TET4, pb, FEINT_ARRAY_COEFFS, &nc);
  f->coef = malloc(f->m.num_elem * nc * sizeof(double));
  mesh_random_coeffs(pb, f->m.num_elem, nc, 5 + (uint64_t)pb, f->coef);
  CHECK_STATUS(feint_assembly_create(&f->m, &f->plan), FEINT_SUCCESS, NULL);
  CHECK_STATUS(feint_csr_create(&f->m, dpv, &f->A), FEINT_SUCCESS, NULL);
}

static void fixture_free(fixture *f) {
  free(f->coef);
  feint_assembly_destroy(f->plan);
  feint_csr_destroy(&f->A);
  fix_mesh_free(&f->m);
}

/* A copy of f's pattern in arrays of exactly its sizes, values random. */
static void pat_copy(const fixture *f, feint_csr *P) {
  const feint_csr *A = &f->A;
  *P = *A;
  P->owns_arrays = 0;
  P->row_ptr = malloc((A->num_rows + 1) * sizeof(int64_t));
  P->col_idx = malloc(A->nnz * sizeof(int32_t));
  P->values = malloc(A->nnz * sizeof(double));
  memcpy(P->row_ptr, A->row_ptr, (A->num_rows + 1) * sizeof(int64_t));
  memcpy(P->col_idx, A->col_idx, A->nnz * sizeof(int32_t));
  test_rng r = {99};
  for (size_t k = 0; k < A->nnz; k++) P->values[k] = test_rng_uniform(&r, -1.0, 1.0);
}

static void pat_free(feint_csr *P) {
  free(P->row_ptr), free(P->col_idx), free(P->values);
  memset(P, 0, sizeof *P);
}

static int all_sentinel(const double *a, size_t n) {
  for (size_t i = 0; i < n; i++)
    if (a[i] != SENTINEL) return 0;
  return 1;
}

static void fill(double *a, size_t n) {
  for (size_t i = 0; i < n; i++) a[i] = SENTINEL;
}

/* One status check with the message: refused (expect_ok = 0) with `msg` in
 * it and `out` (n entries) still the sentinel, or accepted. */
static void expect(const char *what, const char *call, feint_status st, int expect_ok,
                   const char *msg, const double *out, size_t n) {
  if (expect_ok) {
    CHECK(st == FEINT_SUCCESS, "%s: %s returned %d (%s)", what, call, st, feint_last_error());
    return;
  }
  CHECK(st == FEINT_ERR_UNSUPPORTED && test_error_has(msg),
        "%s: %s returned %d, message \"%s\"; expected %d with \"%s\"", what, call, st,
        feint_last_error(), FEINT_ERR_UNSUPPORTED, msg);
  if (out) CHECK(all_sentinel(out, n), "%s: %s wrote its output before refusing", what, call);
}

/* y = P x as written (any column order, repeats summed), or 0 if P is not
 * a matrix (then no product is compared). */
static int reference_spmv(const feint_csr *P, const double *x, double *y) {
  for (size_t i = 0; i < P->num_rows; i++) {
    double s = 0.0;
    for (int64_t k = P->row_ptr[i]; k < P->row_ptr[i + 1]; k++) s += P->values[k] * x[P->col_idx[k]];
    y[i] = s;
  }
  return 1;
}

/* Every function on P.  matrix: P is a matrix (columns possibly unsorted);
 * sorted: its columns ascend.  msg: the expected message part. */
static void run_all(const char *what, const fixture *f, feint_csr *P, int matrix, int sorted,
                    const char *msg) {
  const size_t nr = P->num_rows, nnz = P->nnz;
  double *x = malloc(nr * sizeof(double)), *y = malloc(nr * sizeof(double));
  double *yr = malloc(nr * sizeof(double)), *b = malloc(nr * sizeof(double));
  int64_t *rows = malloc(nnz * sizeof(int64_t));
  test_rng r = {7};
  for (size_t i = 0; i < nr; i++) x[i] = test_rng_uniform(&r, -1.0, 1.0);

  /* SpMV: host, and device code (host fallback without a GPU) */
  for (int t = 0; t < 2; t++) {
    fill(y, nr);
    const feint_status st = feint_csr_spmv(P, x, y, t ? FEINT_TARGET_DEVICE : FEINT_TARGET_HOST, 0,
                                           t ? FEINT_FLAG_ALLOW_HOST_FALLBACK : 0);
    /* y unspecified after the refusal: the host loop checks as it
     * multiplies (a host-only build runs the device request there too) */
    expect(what, t ? "feint_csr_spmv (device code)" : "feint_csr_spmv (host)", st, matrix, msg,
           NULL, nr);
    if (matrix && st == FEINT_SUCCESS) {
      reference_spmv(P, x, yr);
      for (size_t i = 0; i < nr; i++) {
        double scale = 0.0;
        for (int64_t k = P->row_ptr[i]; k < P->row_ptr[i + 1]; k++)
          scale += fabs(P->values[k] * x[P->col_idx[k]]);
        const double n = (double)(P->row_ptr[i + 1] - P->row_ptr[i]);
        if (!test_close(y[i], yr[i], n, scale, 2.0)) {
          TEST_FAIL("%s: feint_csr_spmv row %zu = %.17g, the matrix as written gives %.17g", what,
                    i, y[i], yr[i]);
          break;
        }
      }
    }
  }
  /* COO rows (no double output: rows filled with -1 must stay so) */
  for (size_t k = 0; k < nnz; k++) rows[k] = -1;
  feint_status st = feint_csr_coo_rows(P, rows);
  expect(what, "feint_csr_coo_rows", st, matrix, msg, NULL, 0);
  if (!matrix) {
    int kept = 1;
    for (size_t k = 0; k < nnz; k++) kept &= rows[k] == -1;
    CHECK(kept, "%s: feint_csr_coo_rows wrote rows before refusing", what);
  }
  /* Dirichlet on dof 0 (a copy: it changes values); b and values stay */
  {
    feint_csr Q;
    pat_copy(f, &Q);
    memcpy(Q.row_ptr, P->row_ptr, (nr + 1) * sizeof(int64_t));
    memcpy(Q.col_idx, P->col_idx, nnz * sizeof(int32_t));
    for (size_t k = 0; k < nnz; k++) Q.values[k] = 1.0; /* nonzero diagonals */
    fill(b, nr);
    const uint32_t dof0 = 0;
    st = feint_csr_dirichlet(&Q, b, 1, &dof0, NULL);
    expect(what, "feint_csr_dirichlet", st, matrix, msg, b, nr);
    if (!matrix) {
      int kept = 1;
      for (size_t k = 0; k < nnz; k++) kept &= Q.values[k] == 1.0;
      CHECK(kept, "%s: feint_csr_dirichlet changed values before refusing", what);
    }
    pat_free(&Q);
  }
  /* assembly: both strategies, host and device code; the map */
  const feint_integrate_desc d = {FEINT_TET4, f->pb, FEINT_QSS_GEO_GENERIC, 0, 0, 0, 0, 0};
  for (int t = 0; t < 2; t++)
    for (int s = 0; s < FEINT_ASSEMBLE_COUNT; s++) {
      feint_integrate_desc dt = d;
      if (t) dt.target = FEINT_TARGET_DEVICE, dt.flags = FEINT_FLAG_ALLOW_HOST_FALLBACK;
      fill(P->values, nnz);
      fill(b, nr);
      st = feint_assemble(&dt, (feint_assemble_strategy)s, &f->m, f->plan, f->coef, P, b);
      char call[96];
      snprintf(call, sizeof call, "feint_assemble (%s, %s code)", s ? "atomics" : "colouring",
               t ? "device" : "host");
      expect(what, call, st, sorted, msg, b, nr);
      if (!sorted) CHECK(all_sentinel(P->values, nnz), "%s: %s wrote A->values", what, call);
    }
  fill(b, nr);
  st = feint_assemble_mapped(&d, FEINT_ASSEMBLE_COLOURING, &f->m, f->plan, NULL, f->coef, P, b);
  expect(what, "feint_assemble_mapped (no map)", st, sorted, msg, b, nr);
  feint_assembly_map *map = NULL;
  st = feint_assembly_map_create(&f->m, P, &map);
  expect(what, "feint_assembly_map_create", st, sorted, msg, NULL, 0);
  if (!sorted) CHECK(map == NULL, "%s: feint_assembly_map_create returned a map", what);
  feint_assembly_map_destroy(map);
  free(x), free(y), free(yr), free(b), free(rows);
}

/* Row whose entries the defects touch: a row in the middle with >= 3
 * entries. */
static size_t middle_row(const feint_csr *A) {
  size_t i = A->num_rows / 2;
  while (A->row_ptr[i + 1] - A->row_ptr[i] < 3) i++;
  return i;
}

static void defects(feint_problem pb) {
  fixture f;
  fixture_make(&f, pb);
  const feint_csr *A = &f.A;
  const size_t i = middle_row(A), nnz = A->nnz;
  const int64_t k0 = A->row_ptr[i];
  char name[96], msg[160];
  feint_csr P;
  const char *pbn = feint_problem_name(pb);

  snprintf(name, sizeof name, "%s: the pattern itself", pbn);
  pat_copy(&f, &P);
  run_all(name, &f, &P, 1, 1, NULL);
  pat_free(&P);

  /* row i ends below its start */
  pat_copy(&f, &P);
  P.row_ptr[i + 1] = P.row_ptr[i] - 1;
  snprintf(name, sizeof name, "%s: row_ptr[%zu] below row_ptr[%zu]", pbn, i + 1, i);
  snprintf(msg, sizeof msg, "the offsets of row %zu must not decrease", i);
  run_all(name, &f, &P, 0, 0, msg);
  pat_free(&P);

  /* an offset beyond nnz: row i - 1 would end past the arrays */
  pat_copy(&f, &P);
  P.row_ptr[i] = (int64_t)nnz + 1000;
  snprintf(name, sizeof name, "%s: row_ptr[%zu] beyond nnz", pbn, i);
  snprintf(msg, sizeof msg, "A->row_ptr[%zu] = %lld: the offsets of row %zu", i,
           (long long)nnz + 1000, i - 1);
  run_all(name, &f, &P, 0, 0, msg);
  pat_free(&P);

  /* the ends: row_ptr[0] = 1 (the first entry would be skipped) and
   * row_ptr[num_rows] = nnz - 1 (the last one); feint_csr_spmv once
   * multiplied both without a word */
  pat_copy(&f, &P);
  P.row_ptr[0] = 1;
  snprintf(name, sizeof name, "%s: row_ptr[0] = 1", pbn);
  snprintf(msg, sizeof msg, "A->row_ptr runs from 1 to %zu, not 0 to nnz = %zu", nnz, nnz);
  run_all(name, &f, &P, 0, 0, msg);
  pat_free(&P);
  pat_copy(&f, &P);
  P.row_ptr[A->num_rows] = (int64_t)nnz - 1;
  snprintf(name, sizeof name, "%s: row_ptr[num_rows] = nnz - 1", pbn);
  snprintf(msg, sizeof msg, "A->row_ptr runs from 0 to %zu, not 0 to nnz = %zu", nnz - 1, nnz);
  run_all(name, &f, &P, 0, 0, msg);
  pat_free(&P);

  /* a negative offset */
  pat_copy(&f, &P);
  P.row_ptr[i] = -5;
  snprintf(name, sizeof name, "%s: row_ptr[%zu] negative", pbn, i);
  snprintf(msg, sizeof msg, "A->row_ptr[%zu] = -5", i);
  run_all(name, &f, &P, 0, 0, msg);
  pat_free(&P);

  /* a column = num_cols (the last entry of row i), and a negative one */
  pat_copy(&f, &P);
  P.col_idx[P.row_ptr[i + 1] - 1] = (int32_t)A->num_cols;
  snprintf(name, sizeof name, "%s: column = num_cols in row %zu", pbn, i);
  snprintf(msg, sizeof msg, "A->col_idx[%lld] = %d (row %zu) is not a column of A",
           (long long)(A->row_ptr[i + 1] - 1), (int)A->num_cols, i);
  run_all(name, &f, &P, 0, 0, msg);
  pat_free(&P);
  pat_copy(&f, &P);
  P.col_idx[k0] = -1;
  snprintf(name, sizeof name, "%s: column -1 in row %zu", pbn, i);
  snprintf(msg, sizeof msg, "A->col_idx[%lld] = -1 (row %zu) is not a column of A",
           (long long)k0, i);
  run_all(name, &f, &P, 0, 0, msg);
  pat_free(&P);

  /* two columns swapped, a column repeated: a matrix, not sorted */
  pat_copy(&f, &P);
  const int32_t c0 = P.col_idx[k0], c1 = P.col_idx[k0 + 1];
  P.col_idx[k0] = c1, P.col_idx[k0 + 1] = c0;
  snprintf(name, sizeof name, "%s: columns %d, %d swapped in row %zu", pbn, c0, c1, i);
  snprintf(msg, sizeof msg, "A->col_idx[%lld] = %d (row %zu) does not ascend after %d",
           (long long)k0 + 1, (int)c0, i, (int)c1);
  run_all(name, &f, &P, 1, 0, msg);
  pat_free(&P);
  pat_copy(&f, &P);
  P.col_idx[k0 + 2] = P.col_idx[k0 + 1];
  snprintf(name, sizeof name, "%s: column %d repeated in row %zu", pbn, (int)A->col_idx[k0 + 1], i);
  snprintf(msg, sizeof msg, "A->col_idx[%lld] = %d (row %zu) does not ascend", (long long)k0 + 2,
           (int)A->col_idx[k0 + 1], i);
  run_all(name, &f, &P, 1, 0, msg);
  pat_free(&P);

  fixture_free(&f);
}

/* A map serves only the connectivity and pattern it was made from: a mesh
 * with its vertices renumbered has the same sizes and a pattern of
 * the same sizes, and each mix of the two with the first mesh's map is
 * refused; each mesh with its own pattern and map assembles (the control,
 * bitwise equal to the search path). */
static void stale_map(void) {
  fixture f;
  fixture_make(&f, FEINT_POISSON);
  const size_t nv = f.m.num_vertices, ne = f.m.num_elem;
  feint_mesh m2 = f.m;
  uint32_t *conn2 = malloc(ne * 4 * sizeof(uint32_t));
  double *coords2 = malloc(nv * 3 * sizeof(double));
  /* v -> 5 v + 3 mod nv (nv = 64, coprime to 5): a permutation; reversing
   * the numbering would give the same pattern (the box is symmetric) */
#define PERM(v) (((v) * 5 + 3) % nv)
  for (size_t k = 0; k < ne * 4; k++) conn2[k] = (uint32_t)PERM((size_t)f.m.conn[k]);
  for (size_t v = 0; v < nv; v++)
    for (int a = 0; a < 3; a++) coords2[3 * PERM(v) + a] = f.m.coords[3 * v + a];
#undef PERM
  m2.conn = conn2;
  m2.coords = coords2;
  m2.num_faces = 0, m2.faces = NULL, m2.face_tags = NULL; /* not needed here */
  feint_assembly *plan2 = NULL;
  feint_csr A2;
  CHECK_STATUS(feint_assembly_create(&m2, &plan2), FEINT_SUCCESS, NULL);
  CHECK_STATUS(feint_csr_create(&m2, 1, &A2), FEINT_SUCCESS, NULL);
  CHECK(A2.num_rows == f.A.num_rows && A2.nnz == f.A.nnz, "the renumbered pattern's sizes differ: not a test");
  CHECK(memcmp(A2.row_ptr, f.A.row_ptr, (nv + 1) * sizeof(int64_t)) != 0 ||
            memcmp(A2.col_idx, f.A.col_idx, A2.nnz * sizeof(int32_t)) != 0,
        "the renumbered pattern equals the first: not a test");
  feint_assembly_map *map = NULL, *map2 = NULL;
  CHECK_STATUS(feint_assembly_map_create(&f.m, &f.A, &map), FEINT_SUCCESS, NULL);
  CHECK_STATUS(feint_assembly_map_create(&m2, &A2, &map2), FEINT_SUCCESS, NULL);
  const feint_integrate_desc d = {FEINT_TET4, FEINT_POISSON, FEINT_QSS_GEO_GENERIC, 0, 0, 0, 0, 0};
  double *b = malloc(nv * sizeof(double)), *b2 = malloc(nv * sizeof(double));
  double *v2 = malloc(A2.nnz * sizeof(double));
  /* the first map with the second pattern, and with the second mesh */
  fill(b, nv);
  CHECK_STATUS(feint_assemble_mapped(&d, FEINT_ASSEMBLE_COLOURING, &f.m, f.plan, map, f.coef, &A2,
                                     b),
               FEINT_ERR_UNSUPPORTED, "map was made for another pattern of the same sizes");
  CHECK(all_sentinel(b, nv), "stale map (pattern): b written before the refusal");
  CHECK_STATUS(feint_assemble_mapped(&d, FEINT_ASSEMBLE_ATOMICS, &m2, plan2, map, f.coef, &A2, b),
               FEINT_ERR_UNSUPPORTED, "map was made for another connectivity of the same sizes");
  CHECK_STATUS(feint_assemble_mapped(&d, FEINT_ASSEMBLE_COLOURING, &m2, plan2, map, f.coef, &f.A,
                                     b),
               FEINT_ERR_UNSUPPORTED, "map was made for another connectivity");
  /* the first mesh's plan with the second mesh: its colours would race */
  for (int s = 0; s < FEINT_ASSEMBLE_COUNT; s++) {
    CHECK_STATUS(feint_assemble(&d, (feint_assemble_strategy)s, &m2, f.plan, f.coef, &A2, b),
                 FEINT_ERR_UNSUPPORTED, "plan was made for another connectivity of the same sizes");
    CHECK(all_sentinel(b, nv), "stale plan: b written before the refusal");
  }
  /* controls: each with its own map, bitwise the search path's */
  CHECK_STATUS(feint_assemble_mapped(&d, FEINT_ASSEMBLE_COLOURING, &m2, plan2, map2, f.coef, &A2,
                                     b),
               FEINT_SUCCESS, NULL);
  memcpy(v2, A2.values, A2.nnz * sizeof(double));
  CHECK_STATUS(feint_assemble(&d, FEINT_ASSEMBLE_COLOURING, &m2, plan2, f.coef, &A2, b2),
               FEINT_SUCCESS, NULL);
  CHECK(memcmp(v2, A2.values, A2.nnz * sizeof(double)) == 0 && memcmp(b, b2, nv * sizeof(double)) == 0,
        "renumbered mesh: the mapped assembly differs from the search path");
  CHECK_STATUS(feint_assemble_mapped(&d, FEINT_ASSEMBLE_COLOURING, &f.m, f.plan, map, f.coef, &f.A,
                                     b),
               FEINT_SUCCESS, NULL);
  /* a 3-cycle of one element's first three nodes (an even permutation:
   * det J keeps its sign): the plan (vertex sets) still serves, the map
   * (node positions) does not */
  uint32_t *c5 = f.m.conn + 4 * 5, t0 = c5[0];
  c5[0] = c5[1], c5[1] = c5[2], c5[2] = t0;
  CHECK_STATUS(feint_assemble(&d, FEINT_ASSEMBLE_COLOURING, &f.m, f.plan, f.coef, &f.A, b),
               FEINT_SUCCESS, NULL);
  CHECK_STATUS(feint_assemble_mapped(&d, FEINT_ASSEMBLE_COLOURING, &f.m, f.plan, map, f.coef, &f.A,
                                     b),
               FEINT_ERR_UNSUPPORTED, "map was made for another connectivity");
  c5[2] = c5[1], c5[1] = c5[0], c5[0] = t0;
  CHECK_STATUS(feint_assemble_mapped(&d, FEINT_ASSEMBLE_COLOURING, &f.m, f.plan, map, f.coef, &f.A,
                                     b),
               FEINT_SUCCESS, NULL);
  /* small edits: two entries of different elements each moved to the
   * vertex whose number differs in bit 0 (v -> v ^ 1), every pair of the
   * first 48 entries that leaves a mesh feint_mesh_check accepts.  The
   * fingerprint was once linear in that bit, and half of such pairs (a +1
   * and a -1) left it unchanged: the stale map was accepted and assembled
   * a wrong matrix.  The map must be refused (or the edited element found
   * degenerate), never used. */
  uint32_t *conn = f.m.conn;
  size_t tried = 0, accepted = 0;
  for (size_t k1 = 0; k1 < 48; k1++)
    for (size_t k2 = k1 + 1; k2 < 48; k2++) {
      if (k1 / 4 == k2 / 4 || (conn[k1] ^ 1u) >= nv || (conn[k2] ^ 1u) >= nv) continue;
      conn[k1] ^= 1u, conn[k2] ^= 1u;
      if (feint_mesh_check(&f.m) == FEINT_SUCCESS) {
        tried++;
        accepted += feint_assemble_mapped(&d, FEINT_ASSEMBLE_COLOURING, &f.m, f.plan, map, f.coef,
                                          &f.A, b) == FEINT_SUCCESS;
      }
      conn[k1] ^= 1u, conn[k2] ^= 1u;
    }
  CHECK(tried >= 100, "only %zu edited meshes passed feint_mesh_check: not a test", tried);
  CHECK(accepted == 0, "a stale map was used on %zu of %zu meshes edited in two entries", accepted,
        tried);
  feint_assembly_map_destroy(map);
  feint_assembly_map_destroy(map2);
  feint_assembly_destroy(plan2);
  feint_csr_destroy(&A2);
  free(conn2), free(coords2), free(b), free(b2), free(v2);
  fixture_free(&f);
}

int main(void) {
  stale_map();
  defects(FEINT_POISSON);
  defects(FEINT_ELASTICITY);
  return test_finish("t710_csr_malformed");
}
