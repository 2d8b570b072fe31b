/* t703 (t7xx: mesh integration and assembly) - feint_assemble: for every
 * case, variant and coefficient layout, both strategies (colouring,
 * atomics), host and device code (host fallback without a GPU), the
 * assembled A and b equal a dense assembly written here from the serial
 * reference's element matrices; both colourings (elements for the device,
 * chunks of elements for the host) are valid; colouring results
 * are bitwise identical for 1, 2 and 8 threads; atomics equal the reference
 * for 1, 3 and 8 threads, and every block's reach (the chunks it shares a
 * vertex with, which host atomics rely on) is what a pairwise search finds;
 * Laplace rows sum to zero,
 * a plan's kept geometry findings (feint_assembly_create) give what a scan
 * gives after every kind of change to the mesh,
 * elasticity rows vanish on rigid translations (sum over the columns of one
 * component), and the Poisson and elasticity matrices are symmetric.
 * Elasticity: 3 dofs per vertex, dof 3 v + c, into a dofs_per_vertex = 3
 * pattern.
 * Tolerance: global entry (i, j) sums m element entries, each within
 * 2 (n_terms + 16) eps S_e of its reference (variant_fixture.h); the two
 * sums add in different orders (m eps sum |a_e|), so
 *   |a - a_ref| <= 2 (n_terms + 16 + m) eps sum_e S_e. */
#include <omp.h>
#include <stdlib.h>

#include "mesh_fixture.h"
#include "mesh_util.h"
#include "test_util.h"

/* assembly/assemble.c: the plan's block reach (internal: the static library
 * the default build links resolves it; the offload build's tests link
 * libfeint.so, which does not export it, so there check_reach is left out
 * and the default build's runs cover it) */
#ifndef FEINT_OFFLOAD
#include "assembly/assembly_internal.h"
#endif

typedef struct {
  size_t n;
  double *A, *S, *b, *Sb; /* dense values and their scales */
  int *cnt, *cntb;        /* contributions per entry */
} dense;

static void dense_assemble(const feint_mesh *m, feint_problem pb, const double *coef, dense *d) {
  const int ns = fix_nodes(m->element), nc = pb == FEINT_ELASTICITY ? 3 : 1, nd = nc * ns;
  const size_t ne = m->num_elem, n = (size_t)nc * m->num_vertices;
  double *geo = fix_gather(m);
  double *Ae = malloc(ne * nd * nd * sizeof(double)), *be = malloc(ne * nd * sizeof(double));
  double *Aa = malloc(ne * nd * nd * sizeof(double)), *ba = malloc(ne * nd * sizeof(double));
  CHECK_STATUS(feint_integrate_reference(m->element, pb, ne, geo, coef, Ae, be, Aa, ba),
               FEINT_SUCCESS, NULL);
  d->n = n;
  d->A = calloc(n * n, sizeof(double)), d->S = calloc(n * n, sizeof(double));
  d->b = calloc(n, sizeof(double)), d->Sb = calloc(n, sizeof(double));
  d->cnt = calloc(n * n, sizeof(int)), d->cntb = calloc(n, sizeof(int));
  for (size_t e = 0; e < ne; e++)
    for (int r = 0; r < nd; r++) { /* element dof r: component r % nc of node r / nc */
      const size_t i = nc * (size_t)m->conn[e * ns + r / nc] + (size_t)(r % nc);
      for (int s = 0; s < nd; s++) {
        const size_t j = nc * (size_t)m->conn[e * ns + s / nc] + (size_t)(s % nc);
        d->A[i * n + j] += Ae[(e * nd + r) * nd + s];
        d->S[i * n + j] += Aa[(e * nd + r) * nd + s];
        d->cnt[i * n + j]++;
      }
      d->b[i] += be[e * nd + r];
      d->Sb[i] += ba[e * nd + r];
      d->cntb[i]++;
    }
  free(geo), free(Ae), free(be), free(Aa), free(ba);
}

static void dense_free(dense *d) {
  free(d->A), free(d->S), free(d->b), free(d->Sb), free(d->cnt), free(d->cntb);
}

/* Compare an assembled system with the dense one; returns 1 if equal. */
static int compare(const char *what, const feint_csr *A, const double *b, const dense *d,
                   double n_terms) {
  const size_t n = d->n;
  double *full = calloc(n * n, sizeof(double));
  for (size_t i = 0; i < n; i++)
    for (int64_t k = A->row_ptr[i]; k < A->row_ptr[i + 1]; k++)
      full[i * n + A->col_idx[k]] = A->values[k];
  int ok = 1;
  for (size_t i = 0; i < n * n && ok; i++)
    if (!test_close(full[i], d->A[i], 2 * (n_terms + 16 + d->cnt[i]), d->S[i], 1.0)) {
      ok = 0;
      TEST_FAIL("%s: A[%zu][%zu] = %.17g, reference %.17g (%d contributions)", what, i / n,
                i % n, full[i], d->A[i], d->cnt[i]);
    }
  for (size_t i = 0; i < n && ok; i++)
    if (!test_close(b[i], d->b[i], 2 * (n_terms + 16 + d->cntb[i]), d->Sb[i], 1.0)) {
      ok = 0;
      TEST_FAIL("%s: b[%zu] = %.17g, reference %.17g", what, i, b[i], d->b[i]);
    }
  free(full);
  return ok;
}

static void check_colouring(const feint_mesh *m, const feint_assembly *plan) {
  const int ns = fix_nodes(m->element);
  size_t nc;
  const size_t *cp;
  const uint32_t *order;
  CHECK_STATUS(feint_assembly_colouring(plan, &nc, &cp, &order), FEINT_SUCCESS, NULL);
  CHECK(cp[0] == 0 && cp[nc] == m->num_elem, "colour offsets 0..%zu, expected 0..%zu", cp[nc],
        m->num_elem);
  unsigned char *seen = calloc(m->num_elem, 1);
  size_t *owner = malloc(m->num_vertices * sizeof(size_t));
  for (size_t c = 0; c < nc; c++) {
    CHECK(cp[c + 1] > cp[c], "colour %zu is empty", c);
    for (size_t v = 0; v < m->num_vertices; v++) owner[v] = SIZE_MAX;
    for (size_t i = cp[c]; i < cp[c + 1]; i++) {
      const uint32_t e = order[i];
      CHECK(e < m->num_elem && !seen[e], "element %u listed twice or out of range", e);
      if (e >= m->num_elem) continue;
      seen[e] = 1;
      CHECK(i == cp[c] || order[i - 1] < e, "colour %zu not ascending", c);
      for (int r = 0; r < ns; r++) {
        const uint32_t v = m->conn[e * ns + r];
        CHECK(owner[v] == SIZE_MAX, "colour %zu: elements %zu and %u share vertex %u", c,
              owner[v], e, v);
        owner[v] = e;
      }
    }
  }
  free(seen), free(owner);
}

/* The host's chunk colouring: every chunk once, no two chunks of a colour
 * share a vertex, ascending within a colour. */
static void check_chunks(const feint_mesh *m, const feint_assembly *plan) {
  const size_t ns = (size_t)fix_nodes(m->element);
  size_t len, nc;
  const size_t *cp;
  const uint32_t *order;
  CHECK_STATUS(feint_assembly_chunks(plan, &len, &nc, &cp, &order), FEINT_SUCCESS, NULL);
  CHECK(len > 0 && len % FEINT_BLOCK_LEN == 0, "chunk length %zu", len);
  const size_t nchunks = (m->num_elem + len - 1) / len;
  CHECK(cp[0] == 0 && cp[nc] == nchunks, "chunk colour offsets 0..%zu, expected 0..%zu", cp[nc],
        nchunks);
  unsigned char *seen = calloc(nchunks, 1);
  size_t *owner = malloc(m->num_vertices * sizeof(size_t));
  for (size_t c = 0; c < nc; c++) {
    CHECK(cp[c + 1] > cp[c], "chunk colour %zu is empty", c);
    for (size_t v = 0; v < m->num_vertices; v++) owner[v] = SIZE_MAX;
    for (size_t i = cp[c]; i < cp[c + 1]; i++) {
      const uint32_t k = order[i];
      CHECK(k < nchunks && !seen[k], "chunk %u listed twice or out of range", k);
      if (k >= nchunks) continue;
      seen[k] = 1;
      CHECK(i == cp[c] || order[i - 1] < k, "chunk colour %zu not ascending", c);
      for (size_t e = k * len; e < (k + 1) * len && e < m->num_elem; e++)
        for (size_t r = 0; r < ns; r++) {
          const uint32_t v = m->conn[e * ns + r];
          CHECK(owner[v] == SIZE_MAX || owner[v] == k,
                "chunk colour %zu: chunks %zu and %u share vertex %u", c, owner[v], k, v);
          owner[v] = k;
        }
    }
  }
  free(seen), free(owner);
}

/* The reach that host atomics rely on (a block whose reach lies in its
 * thread's share of the chunks adds without atomics): for every block of
 * FEINT_BLOCK_LEN elements, the lowest and the highest chunk with an element
 * sharing a vertex with one of the block's, found here by comparing the
 * block with every chunk (the library keeps each vertex's first and last
 * chunk). */
static void check_reach(const feint_mesh *m, const feint_assembly *plan) {
#ifndef FEINT_OFFLOAD
  const size_t ns = (size_t)fix_nodes(m->element), ne = m->num_elem, B = FEINT_BLOCK_LEN;
  size_t len;
  feint_assembly_chunks(plan, &len, NULL, NULL, NULL);
  const size_t nk = (ne + len - 1) / len, nb = (ne + B - 1) / B;
  const uint32_t *reach = feint_asm_block_reach(plan);
  size_t *stamp = malloc(m->num_vertices * sizeof(size_t));
  for (size_t v = 0; v < m->num_vertices; v++) stamp[v] = SIZE_MAX;
  size_t bad = 0, spread = 0;
  for (size_t b = 0; b < nb; b++) {
    for (size_t i = b * B * ns; i < ne * ns && i < (b + 1) * B * ns; i++) stamp[m->conn[i]] = b;
    size_t lo = SIZE_MAX, hi = 0;
    for (size_t j = 0; j < nk; j++) {
      int shares = 0;
      for (size_t i = j * len * ns; i < ne * ns && i < (j + 1) * len * ns && !shares; i++)
        shares = stamp[m->conn[i]] == b;
      if (shares) lo = j < lo ? j : lo, hi = j > hi ? j : hi;
    }
    bad += reach[2 * b] != lo || reach[2 * b + 1] != hi;
    spread += hi - lo;
    CHECK((reach[2 * b] == lo && reach[2 * b + 1] == hi) || bad > 1,
          "block %zu: reach [%u, %u], expected [%zu, %zu]", b, reach[2 * b], reach[2 * b + 1], lo,
          hi);
  }
  CHECK(nk < 3 || spread > 0, "no block shares a vertex with another chunk (%zu chunks)", nk);
  free(stamp);
#else
  (void)m, (void)plan;
#endif
}

static void check_case(feint_element el, feint_problem pb, int perturb) {
  feint_mesh m;
  fix_mesh_box(&m, el, 3, perturb, 0.2, 21 + el);
  const size_t ne = m.num_elem, B = FEINT_BLOCK_LEN, padded = (ne + B - 1) / B * B;
  size_t nc;
  feint_array_entries(el, pb, FEINT_ARRAY_COEFFS, &nc);
  feint_element_info ei;
  feint_element_get_info(el, &ei);
  const double n_terms =
      (double)ei.num_qpts * (pb == FEINT_POISSON ? 3 : pb == FEINT_CONVDIFF ? 16 : 5);
  const int dpv = pb == FEINT_ELASTICITY ? 3 : 1;
  double *coef[2] = {malloc(padded * nc * sizeof(double)), malloc(padded * nc * sizeof(double))};
  mesh_random_coeffs(pb, ne, nc, 7 + (uint64_t)(3 * el + pb), coef[0]);
  feint_layout_convert(ne, nc, FEINT_LAYOUT_NATURAL, coef[0], FEINT_LAYOUT_BLOCKED, coef[1]);
  dense d;
  dense_assemble(&m, pb, coef[0], &d);
  feint_csr A;
  feint_assembly *plan = NULL;
  CHECK_STATUS(feint_csr_create(&m, dpv, &A), FEINT_SUCCESS, NULL);
  CHECK_STATUS(feint_assembly_create(&m, &plan), FEINT_SUCCESS, NULL);
  check_colouring(&m, plan);
  check_chunks(&m, plan);
  check_reach(&m, plan);
  const size_t nv = (size_t)dpv * m.num_vertices; /* rows */
  double *b = malloc(nv * sizeof(double));
  double *first_vals = malloc(A.nnz * sizeof(double)), *first_b = malloc(nv * sizeof(double));
  for (int v = 0; v < FEINT_VARIANT_COUNT; v++) {
    feint_variant_info vi;
    feint_variant_get_info((feint_variant)v, &vi);
    if (vi.geo_linear && el != FEINT_TET4 && perturb == FIX_GENERAL) continue;
    for (int strat = 0; strat < FEINT_ASSEMBLE_COUNT; strat++)
      for (int t = 0; t < FEINT_TARGET_COUNT; t++)
        for (int lin = 0; lin < 2; lin++) {
          feint_integrate_desc desc = {el, pb, (feint_variant)v, (feint_layout)lin, 0,
                                       t ? FEINT_FLAG_ALLOW_HOST_FALLBACK : 0, (feint_target)t, 0};
          char what[160];
          snprintf(what, sizeof what, "%s %s %s %s target %d layout %d", feint_element_name(el),
                   feint_problem_name(pb), vi.name, strat ? "atomics" : "colouring", t, lin);
          feint_status st = feint_assemble(&desc, (feint_assemble_strategy)strat, &m, plan,
                                           coef[lin], &A, b);
          CHECK(st == FEINT_SUCCESS, "%s: status %d %s", what, st, feint_last_error());
          if (st != FEINT_SUCCESS || !compare(what, &A, b, &d, n_terms)) continue;
          if (strat == FEINT_ASSEMBLE_COLOURING && t == FEINT_TARGET_HOST) {
            /* bitwise identical for 1, 2 and 8 threads */
            for (int threads = 1; threads <= 8; threads *= 2) {
              if (threads == 4) continue;
              omp_set_num_threads(threads);
              feint_assemble(&desc, FEINT_ASSEMBLE_COLOURING, &m, plan, coef[lin], &A, b);
              if (threads == 1) {
                memcpy(first_vals, A.values, A.nnz * sizeof(double));
                memcpy(first_b, b, nv * sizeof(double));
              } else {
                CHECK(memcmp(first_vals, A.values, A.nnz * sizeof(double)) == 0 &&
                          memcmp(first_b, b, nv * sizeof(double)) == 0,
                      "%s: %d threads differ bitwise from 1 thread", what, threads);
              }
            }
            omp_set_num_threads(omp_get_num_procs());
          }
          if (pb != FEINT_CONVDIFF) {
            /* Laplace rows sum to zero, elasticity rows (per column
             * component: a rigid translation) too; symmetric to round-off */
            for (size_t i = 0; i < nv; i++) {
              const int64_t r0 = A.row_ptr[i], r1 = A.row_ptr[i + 1];
              for (int comp = 0; comp < dpv; comp++) {
                double s = 0.0, sa = 0.0;
                for (int64_t k = r0; k < r1; k++)
                  if (A.col_idx[k] % dpv == comp)
                    s += A.values[k], sa += d.S[i * nv + A.col_idx[k]];
                CHECK(test_close(s, 0.0, 2 * (n_terms + 16 + 24) + (double)(r1 - r0), sa, 1.0),
                      "%s: row %zu sums to %.3g over component %d", what, i, s, comp);
              }
              for (int64_t k = r0; k < r1; k++) {
                const size_t j = (size_t)A.col_idx[k];
                int64_t kt = A.row_ptr[j];
                while (A.col_idx[kt] != (int32_t)i) kt++;
                CHECK(test_close(A.values[k], A.values[kt], 4 * (n_terms + 16 + 24),
                                 d.S[i * nv + j], 1.0),
                      "%s: A[%zu][%zu] = %.17g != A[%zu][%zu] = %.17g", what, i, j, A.values[k],
                      j, i, A.values[kt]);
              }
            }
          }
        }
  }
  free(first_vals), free(first_b), free(b), free(coef[0]), free(coef[1]);
  feint_assembly_destroy(plan);
  feint_csr_destroy(&A);
  dense_free(&d);
  fix_mesh_free(&m);
}

/* A mesh of many chunks (n^3 cells; the dense check above has one or two):
 * both strategies equal a sparse assembly done here (positions by linear
 * search in the row) to round-off, and colouring is bitwise identical for
 * 1, 2 and 8 threads.  Tolerance as above, with the per-entry scales
 * summed in the sparse reference. */
static void check_large(feint_element el, feint_problem pb, size_t n) {
  feint_mesh m;
  fix_mesh_box(&m, el, n, FIX_GENERAL, 0.2, 3);
  const int ns = fix_nodes(el), dpv = pb == FEINT_ELASTICITY ? 3 : 1, nd = dpv * ns;
  const size_t ne = m.num_elem, nr = (size_t)dpv * m.num_vertices;
  size_t nc;
  feint_array_entries(el, pb, FEINT_ARRAY_COEFFS, &nc);
  feint_element_info ei;
  feint_element_get_info(el, &ei);
  const double n_terms =
      (double)ei.num_qpts * (pb == FEINT_POISSON ? 3 : pb == FEINT_CONVDIFF ? 16 : 5);
  double *coef = malloc(ne * nc * sizeof(double));
  mesh_random_coeffs(pb, ne, nc, 5, coef);
  feint_csr A;
  feint_assembly *plan;
  CHECK_STATUS(feint_csr_create(&m, dpv, &A), FEINT_SUCCESS, NULL);
  CHECK_STATUS(feint_assembly_create(&m, &plan), FEINT_SUCCESS, NULL);
  check_colouring(&m, plan);
  check_chunks(&m, plan);
  check_reach(&m, plan);
  size_t num_chunk_colours;
  feint_assembly_chunks(plan, NULL, &num_chunk_colours, NULL, NULL);
  CHECK(num_chunk_colours > 1, "%zu chunk colours", num_chunk_colours);
  /* sparse reference */
  double *geo = fix_gather(&m);
  double *Ae = malloc(ne * nd * nd * sizeof(double)), *be = malloc(ne * nd * sizeof(double));
  double *Aa = malloc(ne * nd * nd * sizeof(double)), *ba = malloc(ne * nd * sizeof(double));
  CHECK_STATUS(feint_integrate_reference(el, pb, ne, geo, coef, Ae, be, Aa, ba), FEINT_SUCCESS,
               NULL);
  mesh_sparse_ref sr;
  mesh_sparse_ref_assemble(&m, dpv, &A, Ae, be, Aa, ba, &sr);
  const double *ref = sr.A, *S = sr.S, *refb = sr.b, *Sb = sr.Sb;
  double *b = malloc(nr * sizeof(double)), *first = malloc(A.nnz * sizeof(double));
  double *firstb = malloc(nr * sizeof(double));
  feint_integrate_desc d = {el, pb, FEINT_QSS_GEO_GENERIC, 0, 0, 0, 0, 0};
  const double tol_n = 2 * (n_terms + 16 + 24);
  for (int strat = 0; strat < FEINT_ASSEMBLE_COUNT; strat++) {
    CHECK_STATUS(feint_assemble(&d, (feint_assemble_strategy)strat, &m, plan, coef, &A, b),
                 FEINT_SUCCESS, NULL);
    size_t bad = 0;
    for (size_t k = 0; k < A.nnz; k++) bad += !test_close(A.values[k], ref[k], tol_n, S[k], 1.0);
    for (size_t i = 0; i < nr; i++) bad += !test_close(b[i], refb[i], tol_n, Sb[i], 1.0);
    CHECK(bad == 0, "%s %s %zu cells %s: %zu entries off the sparse reference",
          feint_element_name(el), feint_problem_name(pb), n, strat ? "atomics" : "colouring", bad);
  }
  /* atomics: 1 thread (every block private: plain additions), 3 and 8
   * (shares of a few chunks: private blocks plain, the others atomic) */
  for (int threads = 1; threads <= 8; threads += threads == 1 ? 2 : 5) {
    omp_set_num_threads(threads);
    CHECK_STATUS(feint_assemble(&d, FEINT_ASSEMBLE_ATOMICS, &m, plan, coef, &A, b),
                 FEINT_SUCCESS, NULL);
    size_t bad = 0;
    for (size_t k = 0; k < A.nnz; k++) bad += !test_close(A.values[k], ref[k], tol_n, S[k], 1.0);
    for (size_t i = 0; i < nr; i++) bad += !test_close(b[i], refb[i], tol_n, Sb[i], 1.0);
    CHECK(bad == 0, "%s %s %zu cells atomics, %d threads: %zu entries off the sparse reference",
          feint_element_name(el), feint_problem_name(pb), n, threads, bad);
  }
  for (int threads = 1; threads <= 8; threads *= 2) {
    if (threads == 4) continue;
    omp_set_num_threads(threads);
    feint_assemble(&d, FEINT_ASSEMBLE_COLOURING, &m, plan, coef, &A, b);
    if (threads == 1) {
      memcpy(first, A.values, A.nnz * sizeof(double));
      memcpy(firstb, b, nr * sizeof(double));
    } else {
      CHECK(memcmp(first, A.values, A.nnz * sizeof(double)) == 0 &&
                memcmp(firstb, b, nr * sizeof(double)) == 0,
            "%s %s %zu cells: colouring with %d threads differs bitwise from 1 thread",
            feint_element_name(el), feint_problem_name(pb), n, threads);
    }
  }
  omp_set_num_threads(omp_get_num_procs());
  free(coef), free(geo), free(Ae), free(be), free(Aa), free(ba), free(b), free(first);
  free(firstb);
  mesh_sparse_ref_free(&sr);
  feint_assembly_destroy(plan);
  feint_csr_destroy(&A);
  fix_mesh_free(&m);
}

/* Sanitizer builds: libomp keeps the thread descriptors of the 8-thread
 * team this test asks for (omp_set_num_threads) without freeing them; that
 * is the runtime's, not feint's. */
const char *__lsan_default_suppressions(void);
const char *__lsan_default_suppressions(void) { return "leak:libomp.so\n"; }

static void check_errors(void) {
  feint_mesh m, other;
  fix_mesh_box(&m, FEINT_TET4, 2, FIX_GENERAL, 0.2, 5);
  fix_mesh_box(&other, FEINT_TET4, 3, FIX_NONE, 0.0, 5);
  feint_csr A, A3;
  feint_assembly *plan = NULL, *plan_other = NULL;
  CHECK_STATUS(feint_csr_create(&m, 1, &A), FEINT_SUCCESS, NULL);
  CHECK_STATUS(feint_csr_create(&m, 3, &A3), FEINT_SUCCESS, NULL);
  CHECK_STATUS(feint_assembly_create(&m, &plan), FEINT_SUCCESS, NULL);
  CHECK_STATUS(feint_assembly_create(&other, &plan_other), FEINT_SUCCESS, NULL);
  CHECK_STATUS(feint_assembly_create(&m, NULL), FEINT_ERR_NULL_ARG, "plan");
  double *coef = calloc(m.num_elem * 4, sizeof(double)), *b = malloc(m.num_vertices * 8);
  feint_integrate_desc d = {FEINT_TET4, FEINT_POISSON, FEINT_QSS_GEO_LINEAR, 0, 0, 0, 0, 0};
  A.values[0] = b[0] = -777.0;
  CHECK_STATUS(feint_assemble(&d, (feint_assemble_strategy)2, &m, plan, coef, &A, b),
               FEINT_ERR_OUT_OF_RANGE, "strategy = 2");
  CHECK_STATUS(feint_assemble(&d, FEINT_ASSEMBLE_COLOURING, &m, NULL, coef, &A, b),
               FEINT_ERR_NULL_ARG, "plan");
  CHECK_STATUS(feint_assemble(&d, FEINT_ASSEMBLE_COLOURING, &m, plan_other, coef, &A, b),
               FEINT_ERR_UNSUPPORTED, "plan was made for a mesh");
  CHECK_STATUS(feint_assemble(&d, FEINT_ASSEMBLE_COLOURING, &m, plan, coef, &A3, b),
               FEINT_ERR_UNSUPPORTED, "3 dofs per vertex");
  CHECK_STATUS(feint_assemble(&d, FEINT_ASSEMBLE_ATOMICS, &m, plan, coef, &A, NULL),
               FEINT_ERR_NULL_ARG, "b is NULL");
  /* outputs overlapping inputs: b on the coefficients (it is zeroed before
   * they are read: once a wrong b and FEINT_SUCCESS), b inside A->values */
  for (int s = 0; s < FEINT_ASSEMBLE_COUNT; s++) {
    CHECK_STATUS(feint_assemble(&d, (feint_assemble_strategy)s, &m, plan, coef, &A, coef),
                 FEINT_ERR_UNSUPPORTED, "feint_assemble_mapped(): b overlaps coeffs");
    CHECK_STATUS(feint_assemble(&d, (feint_assemble_strategy)s, &m, plan, coef, &A, A.values + 1),
                 FEINT_ERR_UNSUPPORTED, "A->values overlaps b");
  }
  CHECK(A.values[0] == -777.0 && b[0] == -777.0, "outputs written on error");
  /* layout_out is ignored (nothing is written per element): packed too */
  d.layout_out = FEINT_LAYOUT_PACKED;
  CHECK_STATUS(feint_assemble(&d, FEINT_ASSEMBLE_COLOURING, &m, plan, coef, &A, b), FEINT_SUCCESS,
               NULL);
  d.layout_out = FEINT_LAYOUT_NATURAL;
  A.values[0] = b[0] = -777.0;
  {
    /* elasticity: a scalar pattern is refused; mu < 0 in element 4 is named */
    const size_t nce = 2 + 3 * 4, ne = m.num_elem;
    double *ce = calloc(ne * nce, sizeof(double)), *b3 = malloc(3 * m.num_vertices * 8);
    for (size_t e = 0; e < ne; e++) ce[e * nce] = ce[e * nce + 1] = 1.0;
    d.problem = FEINT_ELASTICITY;
    CHECK_STATUS(feint_assemble(&d, FEINT_ASSEMBLE_ATOMICS, &m, plan, ce, &A, b3),
                 FEINT_ERR_UNSUPPORTED, "elasticity on this mesh needs");
    ce[4 * nce + 1] = -0.5;
    A3.values[0] = b3[0] = -777.0;
    CHECK_STATUS(feint_assemble(&d, FEINT_ASSEMBLE_ATOMICS, &m, plan, ce, &A3, b3),
                 FEINT_ERR_BAD_COEFF, "element 4");
    CHECK(A3.values[0] == -777.0 && b3[0] == -777.0, "outputs written on error");
    ce[4 * nce + 1] = 0.5;
    CHECK_STATUS(feint_assemble(&d, FEINT_ASSEMBLE_ATOMICS, &m, plan, ce, &A3, b3),
                 FEINT_SUCCESS, NULL);
    d.problem = FEINT_POISSON;
    free(ce), free(b3);
  }
  uint32_t *v = m.conn + 4 * 3, tmp = v[0];
  v[0] = v[1], v[1] = tmp; /* inverted element 3 */
  CHECK_STATUS(feint_assemble(&d, FEINT_ASSEMBLE_COLOURING, &m, plan, coef, &A, b),
               FEINT_ERR_DEGENERATE, "element 3");
  CHECK(A.values[0] == -777.0 && b[0] == -777.0, "outputs written on error");
  v[1] = v[0], v[0] = tmp;
  CHECK_STATUS(feint_assemble(&d, FEINT_ASSEMBLE_COLOURING, &m, plan, coef, &A, b),
               FEINT_SUCCESS, NULL);
  feint_assembly_destroy(plan), feint_assembly_destroy(plan_other);
  feint_csr_destroy(&A), feint_csr_destroy(&A3);
  free(coef), free(b);
  fix_mesh_free(&m), fix_mesh_free(&other);
}

/* One checked call of each strategy, by search and (map != NULL) by map,
 * must return what feint_integrate_mesh returns on the same mesh (it has no
 * plan: it scans every element at every call), with the same message
 * past the function's name, and write nothing on error. */
static void expect_as_scan(const char *what, const feint_integrate_desc *d, const feint_mesh *m,
                           const feint_assembly *plan, const feint_assembly_map *map,
                           const double *coef, feint_csr *A, double *b, feint_status expect) {
  const int ns = fix_nodes(m->element);
  double *Ae = malloc(m->num_elem * ns * ns * sizeof(double));
  double *be = malloc(m->num_elem * ns * sizeof(double));
  const feint_status want = feint_integrate_mesh(d, m, coef, Ae, be);
  if (want != expect)
    TEST_FAIL("%s: feint_integrate_mesh returned %d, the case needs %d (%s)", what, (int)want,
              (int)expect, feint_last_error());
  char finding[400] = ""; /* the message past the function's name */
  const char *f = strstr(feint_last_error(), "(): ");
  if (want != FEINT_SUCCESS) snprintf(finding, sizeof finding, "%s", f != NULL ? f + 4 : "?");
  for (int s = 0; s < FEINT_ASSEMBLE_COUNT; s++) {
    A->values[0] = b[0] = -777.0;
    CHECK_STATUS(feint_assemble(d, (feint_assemble_strategy)s, m, plan, coef, A, b), want,
                 want != FEINT_SUCCESS ? finding : NULL);
    if (want != FEINT_SUCCESS)
      CHECK(A->values[0] == -777.0 && b[0] == -777.0, "%s: outputs written on error", what);
    if (map == NULL) continue;
    A->values[0] = b[0] = -777.0;
    CHECK_STATUS(feint_assemble_mapped(d, (feint_assemble_strategy)s, m, plan, map, coef, A, b),
                 want, want != FEINT_SUCCESS ? finding : NULL);
    if (want != FEINT_SUCCESS)
      CHECK(A->values[0] == -777.0 && b[0] == -777.0, "%s: outputs written on error", what);
  }
  free(Ae), free(be);
}

/* A plan keeps the geometry findings of the mesh it was made from, with
 * fingerprints of its ordered connectivity and its coordinates; a checked
 * call on a mesh that matches both reads only the coefficients.  Every
 * change of the geometry made after the plan must still be found as a scan
 * finds it: a NaN coordinate, a vertex moved out of the range of scales or
 * through its elements, a tiny
 * move that keeps them valid, two nodes swapped (the plan's vertex sets
 * unchanged), plans made while a vertex was far away or an element
 * inverted (and one used after it was mended), and the affinity the geo_linear variants need but the
 * geo_generic ones do not (one finding kept for both). */
static void check_plan_geometry(void) {
  feint_mesh m;
  fix_mesh_box(&m, FEINT_TET4, 3, FIX_GENERAL, 0.2, 9);
  feint_csr A;
  feint_assembly *plan = NULL, *plan_bad = NULL;
  feint_assembly_map *map = NULL;
  CHECK_STATUS(feint_csr_create(&m, 1, &A), FEINT_SUCCESS, NULL);
  CHECK_STATUS(feint_assembly_create(&m, &plan), FEINT_SUCCESS, NULL);
  CHECK_STATUS(feint_assembly_map_create(&m, &A, &map), FEINT_SUCCESS, NULL);
  double *coef = malloc(m.num_elem * 4 * sizeof(double)), *b = malloc(m.num_vertices * 8);
  for (size_t k = 0; k < m.num_elem * 4; k++) coef[k] = 1.0 + 0.01 * (double)(k % 7);
  feint_integrate_desc d = {FEINT_TET4, FEINT_POISSON, FEINT_QSS_GEO_LINEAR, 0, 0, 0, 0, 0};
  expect_as_scan("unchanged", &d, &m, plan, map, coef, &A, b, FEINT_SUCCESS);
  const size_t u = fix_vid(3, 1, 2, 1); /* an interior vertex */
  double *x = m.coords + 3 * u, x0 = x[0];
  x[0] = NAN; /* (found by feint_mesh_check, before the element checks) */
  expect_as_scan("NaN coordinate", &d, &m, plan, map, coef, &A, b, FEINT_ERR_NOT_FINITE);
  x[0] = 1e300; /* its elements outside the range of scales the mesh paths take */
  expect_as_scan("vertex far away", &d, &m, plan, map, coef, &A, b, FEINT_ERR_UNSUPPORTED);
  CHECK_STATUS(feint_assembly_create(&m, &plan_bad), FEINT_SUCCESS, NULL);
  expect_as_scan("plan of a vertex far away", &d, &m, plan_bad, map, coef, &A, b,
                 FEINT_ERR_UNSUPPORTED);
  feint_assembly_destroy(plan_bad);
  x[0] = x0 + 5.0; /* through the opposite faces of its elements */
  expect_as_scan("vertex moved through", &d, &m, plan, map, coef, &A, b, FEINT_ERR_DEGENERATE);
  x[0] = x0 + 1e-3;
  expect_as_scan("vertex moved a little", &d, &m, plan, map, coef, &A, b, FEINT_SUCCESS);
  x[0] = x0;
  expect_as_scan("vertex back", &d, &m, plan, map, coef, &A, b, FEINT_SUCCESS);
  uint32_t *v = m.conn + 4 * 5, t = v[0];
  v[0] = v[1], v[1] = t; /* element 5 inverted: the map is stale, the plan is not */
  expect_as_scan("nodes swapped", &d, &m, plan, NULL, coef, &A, b, FEINT_ERR_DEGENERATE);
  CHECK_STATUS(feint_assembly_create(&m, &plan_bad), FEINT_SUCCESS, NULL);
  expect_as_scan("plan of an inverted element", &d, &m, plan_bad, NULL, coef, &A, b,
                 FEINT_ERR_DEGENERATE);
  v[1] = v[0], v[0] = t;
  expect_as_scan("plan of an inverted element, mended", &d, &m, plan_bad, map, coef, &A, b,
                 FEINT_SUCCESS);
  feint_assembly_destroy(plan), feint_assembly_destroy(plan_bad);
  feint_assembly_map_destroy(map);
  feint_csr_destroy(&A);
  free(coef), free(b);
  fix_mesh_free(&m);

  /* prisms of the general perturbation are not affine */
  fix_mesh_box(&m, FEINT_PRISM6, 2, FIX_GENERAL, 0.2, 9);
  CHECK_STATUS(feint_csr_create(&m, 1, &A), FEINT_SUCCESS, NULL);
  CHECK_STATUS(feint_assembly_create(&m, &plan), FEINT_SUCCESS, NULL);
  size_t nce;
  CHECK_STATUS(feint_array_entries(FEINT_PRISM6, FEINT_POISSON, FEINT_ARRAY_COEFFS, &nce),
               FEINT_SUCCESS, NULL);
  coef = malloc(m.num_elem * nce * sizeof(double)), b = malloc(m.num_vertices * 8);
  for (size_t k = 0; k < m.num_elem * nce; k++) coef[k] = 1.0;
  d.element = FEINT_PRISM6;
  expect_as_scan("prisms, geo_linear", &d, &m, plan, NULL, coef, &A, b, FEINT_ERR_NOT_AFFINE);
  d.variant = FEINT_QSS_GEO_GENERIC;
  expect_as_scan("prisms, geo_generic", &d, &m, plan, NULL, coef, &A, b, FEINT_SUCCESS);
  feint_assembly_destroy(plan);
  feint_csr_destroy(&A);
  free(coef), free(b);
  fix_mesh_free(&m);
}

int main(void) {
  for (int el = 0; el < FEINT_ELEMENT_COUNT; el++)
    for (int pb = 0; pb <= FEINT_ELASTICITY; pb++) { /* per-point problems: refused */
      check_case((feint_element)el, (feint_problem)pb, FIX_GENERAL);
      if (el != FEINT_TET4) check_case((feint_element)el, (feint_problem)pb, FIX_AFFINE);
    }
  check_large(FEINT_TET4, FEINT_POISSON, 12);   /* 10368 elements, 81 chunks */
  check_large(FEINT_HEX8, FEINT_ELASTICITY, 12); /* 1728 elements, 14 chunks */
  check_large(FEINT_PRISM6, FEINT_CONVDIFF, 10); /* 2000 elements, 16 chunks */
  check_errors();
  check_plan_geometry();
  return test_finish("t703_assemble");
}
