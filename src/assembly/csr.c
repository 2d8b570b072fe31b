/*
 * assembly/csr.c - the CSR matrix of a mesh: sparsity pattern (scalar or 3
 * dofs per vertex), SpMV on host and device, COO row indices, symmetric
 * elimination of Dirichlet conditions, boundary vertices from face tags.
 */
#include <stdlib.h>
#include <string.h>

#ifdef _OPENMP
#include <omp.h>
#endif

#include "assembly/assembly_internal.h"
#ifdef FEINT_OFFLOAD
#include "kernel/gpu_tuning.h"
#endif

/* Neighbours of vertex v (vertices sharing an element with it, v included),
 * ascending, into out (returns their number).  mark: per-thread scratch of
 * num_vertices entries, mark[w] == v + 1 means w is already listed. */
static size_t vertex_neighbours(const feint_mesh *mesh, const size_t *vptr, const uint32_t *velem,
                                uint32_t v, uint32_t *mark, uint32_t *out) {
  const int ns = feint_asm_nodes(mesh->element);
  size_t cnt = 0;
  for (size_t k = vptr[v]; k < vptr[v + 1]; k++) {
    const uint32_t *w = mesh->conn + (size_t)velem[k] * ns;
    for (int n = 0; n < ns; n++)
      if (mark[w[n]] != v + 1) {
        mark[w[n]] = v + 1;
        out[cnt++] = w[n];
      }
  }
  for (size_t i = 1; i < cnt; i++) { /* insertion sort: ~15-30 entries */
    const uint32_t x = out[i];
    size_t j = i;
    while (j > 0 && out[j - 1] > x) {
      out[j] = out[j - 1];
      j--;
    }
    out[j] = x;
  }
  return cnt;
}

feint_status feint_csr_create(const feint_mesh *mesh, int dofs_per_vertex, feint_csr *A) {
  FEINT_CHECK(A != NULL, FEINT_ERR_NULL_ARG, "A is NULL");
  FEINT_CHECK(dofs_per_vertex == 1 || dofs_per_vertex == 3, FEINT_ERR_OUT_OF_RANGE,
              "dofs_per_vertex = %d; allowed: 1 (scalar) or 3 (vector)", dofs_per_vertex);
  FEINT_CHECK(mesh != NULL, FEINT_ERR_NULL_ARG, "mesh is NULL");
  const size_t nv = mesh->num_vertices, ne = mesh->num_elem;
  const size_t dpv = (size_t)dofs_per_vertex;
  /* before the mesh check: it reads every vertex */
  FEINT_CHECK(nv <= (size_t)INT32_MAX / dpv, FEINT_ERR_BAD_SIZE,
              "mesh->num_vertices = %zu times dofs_per_vertex = %d = %zu rows: a column index "
              "would overflow the 32-bit col_idx (at most %d)",
              nv, dofs_per_vertex, nv * dpv, INT32_MAX);
  FEINT_CALL(feint_mesh_check(mesh));
  const int ns = feint_asm_nodes(mesh->element);
  /* vertex -> elements incidence, elements ascending per vertex */
  size_t *vptr = calloc(nv + 1, sizeof(size_t));
  uint32_t *velem = malloc(ne * ns * sizeof(uint32_t));
  size_t *len = malloc(nv * sizeof(size_t));
  int nthreads = 1;
#ifdef _OPENMP
  nthreads = omp_get_max_threads();
#endif
  uint32_t *marks = malloc((size_t)nthreads * nv * sizeof(uint32_t));
  if (!vptr || !velem || !len || !marks) {
    free(vptr), free(velem), free(len), free(marks);
    FEINT_CHECK(0, FEINT_ERR_ALLOC, "cannot allocate the vertex incidence of %zu elements", ne);
  }
  for (size_t i = 0; i < ne * ns; i++) vptr[mesh->conn[i] + 1]++;
  size_t max_deg = 0;
  for (size_t v = 0; v < nv; v++) {
    if (vptr[v + 1] > max_deg) max_deg = vptr[v + 1];
    vptr[v + 1] += vptr[v];
  }
  {
    size_t *next = len; /* borrowed as the fill cursor */
    memcpy(next, vptr, nv * sizeof(size_t));
    for (size_t e = 0; e < ne; e++)
      for (int n = 0; n < ns; n++) velem[next[mesh->conn[e * ns + n]]++] = (uint32_t)e;
  }
  const size_t max_nb = max_deg * ns < nv ? max_deg * ns : nv;
  /* Every vertex's neighbour list, found once: each thread lists those of a
   * contiguous share of the vertices into a buffer of its own (grown as it
   * fills), and after the row offsets copies them into place.  They were
   * found twice, once to count and once to fill (a renumbered 4.30 M-tet
   * Gmsh mesh, 2 threads, Zen 4: 0.42-0.52 -> 0.33-0.34 s). */
  uint32_t **lists = calloc((size_t)nthreads, sizeof *lists);
  int team = 1, failed = lists == NULL;
  if (!failed) {
#pragma omp parallel num_threads(nthreads)
    {
      int t = 0;
#ifdef _OPENMP
      t = omp_get_thread_num();
#pragma omp single
      team = omp_get_num_threads();
#endif
      size_t lo, hi;
      feint_thread_range(nv, t, team, &lo, &hi);
      uint32_t *mark = marks + (size_t)t * nv;
      for (size_t v = 0; v < nv; v++) mark[v] = 0; /* v + 1 >= 1 never matches */
      size_t cap = 16 * (hi - lo) + max_nb, used = 0;
      uint32_t *list = malloc(cap * sizeof *list);
      for (size_t v = lo; v < hi && list != NULL; v++) {
        if (cap - used < max_nb) { /* room for the longest list */
          uint32_t *more = realloc(list, 2 * cap * sizeof *list);
          if (more == NULL) {
            free(list);
            list = NULL;
            break;
          }
          list = more, cap *= 2;
        }
        len[v] = vertex_neighbours(mesh, vptr, velem, (uint32_t)v, mark, list + used);
        used += len[v];
      }
      lists[t] = list;
      if (list == NULL) {
#pragma omp atomic write
        failed = 1;
      }
    }
  }
  if (failed) {
    for (int t = 0; lists != NULL && t < nthreads; t++) free(lists[t]);
    free(lists);
    free(vptr), free(velem), free(len), free(marks);
    FEINT_CHECK(0, FEINT_ERR_ALLOC, "cannot allocate the neighbour lists of %zu vertices", nv);
  }
  /* rows: vertex v gives rows dpv v + c, each with dpv len[v] entries */
  int64_t *row_ptr = malloc((nv * dpv + 1) * sizeof(int64_t));
  size_t nnz = 0;
  if (row_ptr) {
    row_ptr[0] = 0;
    for (size_t v = 0; v < nv; v++)
      for (size_t c = 0; c < dpv; c++) {
        nnz += dpv * len[v];
        row_ptr[v * dpv + c + 1] = (int64_t)nnz;
      }
  }
  int32_t *col_idx = row_ptr ? malloc(nnz * sizeof(int32_t)) : NULL;
  double *values = col_idx ? malloc(nnz * sizeof(double)) : NULL;
  if (!values) {
    for (int t = 0; t < nthreads; t++) free(lists[t]);
    free(lists);
    free(vptr), free(velem), free(len), free(marks), free(row_ptr), free(col_idx);
    FEINT_CHECK(0, FEINT_ERR_ALLOC, "cannot allocate the CSR pattern (%zu nonzeros)", nnz);
  }
#pragma omp parallel for schedule(static, 1) num_threads(team)
  for (int t = 0; t < team; t++) {
    const uint32_t *nb = lists[t];
    size_t lo, hi; /* the share thread t listed */
    feint_thread_range(nv, t, team, &lo, &hi);
    for (size_t v = lo; v < hi; nb += len[v], v++)
      for (size_t c = 0; c < dpv; c++) {
        int32_t *cols = col_idx + row_ptr[v * dpv + c];
        double *vals = values + row_ptr[v * dpv + c];
        for (size_t k = 0; k < len[v]; k++)
          for (size_t cc = 0; cc < dpv; cc++) {
            cols[k * dpv + cc] = (int32_t)(nb[k] * dpv + cc);
            vals[k * dpv + cc] = 0.0;
          }
      }
  }
  for (int t = 0; t < nthreads; t++) free(lists[t]);
  free(lists);
  free(vptr), free(velem), free(len), free(marks);
  A->num_rows = A->num_cols = nv * dpv;
  A->nnz = nnz;
  A->row_ptr = row_ptr;
  A->col_idx = col_idx;
  A->values = values;
  A->dofs_per_vertex = dofs_per_vertex;
  A->owns_arrays = 1;
  return FEINT_SUCCESS;
}

feint_status feint_csr_destroy(feint_csr *A) {
  if (A == NULL) return FEINT_SUCCESS;
  if (A->owns_arrays) {
    free(A->row_ptr);
    free(A->col_idx);
    free(A->values);
  }
  memset(A, 0, sizeof *A);
  return FEINT_SUCCESS;
}

/* The two ends of row_ptr: 0 and nnz (O(1); the checks of every row
 * follow, in feint_csr_check_pattern's pass or as feint_csr_spmv runs). */
static feint_status check_row_ptr_ends(const feint_csr *A) {
  const int64_t *rp = A->row_ptr;
  const size_t n = A->num_rows;
  FEINT_CHECK(A->nnz <= INT64_MAX && rp[0] == 0 && rp[n] == (int64_t)A->nnz,
              FEINT_ERR_UNSUPPORTED, "A->row_ptr runs from %lld to %lld, not 0 to nnz = %zu",
              (long long)rp[0], (long long)rp[n], A->nnz);
  return FEINT_SUCCESS;
}

feint_status feint_csr_check_pattern(const feint_csr *A, int sorted) {
  const size_t n = A->num_rows;
  const int64_t *rp = A->row_ptr, nnz = (int64_t)A->nnz, nc = (int64_t)A->num_cols;
  const int32_t *ci = A->col_idx;
  FEINT_CALL(check_row_ptr_ends(A));
  size_t bad = SIZE_MAX; /* first row whose offsets or columns are wrong */
#pragma omp parallel for schedule(static) reduction(min : bad)
  for (size_t i = 0; i < n; i++) {
    const int64_t lo = rp[i], hi = rp[i + 1];
    if (!(lo >= 0 && lo <= hi && hi <= nnz)) {
      bad = i < bad ? i : bad;
      continue;
    }
    /* no early exit: a vectorisable scan of the row (negative columns
     * compare large as unsigned) */
    unsigned wrong = 0;
    for (int64_t k = lo; k < hi; k++) wrong |= (uint64_t)(uint32_t)ci[k] >= (uint64_t)nc;
    if (sorted)
      for (int64_t k = lo + 1; k < hi; k++) wrong |= ci[k] <= ci[k - 1];
    if (wrong) bad = i < bad ? i : bad;
  }
  if (bad == SIZE_MAX) return FEINT_SUCCESS;
  const int64_t lo = rp[bad], hi = rp[bad + 1];
  FEINT_CHECK(lo >= 0 && lo <= hi && hi <= nnz, FEINT_ERR_UNSUPPORTED,
              "A->row_ptr[%zu] = %lld, A->row_ptr[%zu] = %lld: the offsets of row %zu must not "
              "decrease and must lie in [0, nnz = %zu]",
              bad, (long long)lo, bad + 1, (long long)hi, bad, A->nnz);
  for (int64_t k = lo; k < hi; k++) {
    FEINT_CHECK(ci[k] >= 0 && ci[k] < nc, FEINT_ERR_UNSUPPORTED,
                "A->col_idx[%lld] = %d (row %zu) is not a column of A (0 .. %zu)", (long long)k,
                (int)ci[k], bad, A->num_cols - 1);
    FEINT_CHECK(k == lo || ci[k] > ci[k - 1], FEINT_ERR_UNSUPPORTED,
                "A->col_idx[%lld] = %d (row %zu) does not ascend after %d: the columns of a row "
                "must be strictly ascending",
                (long long)k, (int)ci[k], bad, (int)ci[k - 1]);
  }
  return FEINT_SUCCESS;
}

/* A usable CSR matrix: every pointer set; full: the arrays a matrix
 * (feint_csr_check_pattern, the columns of a row in any order). */
static feint_status check_csr(const feint_csr *A, int full) {
  FEINT_CHECK(A != NULL, FEINT_ERR_NULL_ARG, "A is NULL");
  FEINT_CHECK(A->row_ptr != NULL, FEINT_ERR_NULL_ARG, "A->row_ptr is NULL");
  FEINT_CHECK(A->nnz == 0 || (A->col_idx != NULL && A->values != NULL), FEINT_ERR_NULL_ARG,
              "A->col_idx or A->values is NULL with A->nnz = %zu", A->nnz);
  /* full = 0 (feint_csr_spmv): the rows are checked as the product runs,
   * the ends here (a row_ptr from 1 would skip the first entry unnoticed) */
  return full ? feint_csr_check_pattern(A, 0) : check_row_ptr_ends(A);
}

/* Software prefetch of the host SpMV's two streams FEINT_SPMV_AHEAD entries
 * (16 KiB of values, 8 KiB of columns) ahead of row [lo, hi): the lines of
 * values and columns the row that far ahead will read (for a scalar P1 row
 * of ~15 entries: two lines of values, one of columns; a longer row loops).
 * The hardware prefetchers alone left the row loop waiting on them while
 * they also follow the x entries' streams.  Zen 5, min (median) of 3
 * alternated runs, ns per entry, the checked loop, tet4 box patterns:
 * scalar 100^3 (15.2 M entries) one thread 0.678 (0.708) -> 0.403 (0.411),
 * two 0.392 (0.397) -> 0.316 (0.329); 3 dofs per vertex 64^3 one thread
 * 0.463 (0.526) -> 0.451 (0.472), two 0.342 (0.343) -> 0.308 (0.311); but
 * scalar Hilbert-renumbered (x read out of order) one thread 0.787 (0.814)
 * -> 0.846 (0.895), two 0.409 (0.446) -> 0.429 (0.443): a loss of up to 7%,
 * where the x misses need the miss slots.  lo, hi: a row already checked
 * (0 <= lo <= hi <= nz). */
#define FEINT_SPMV_AHEAD 2048
static inline void spmv_prefetch(const int64_t lo, const int64_t hi, const int64_t nz,
                                 const int32_t *ci, const double *va) {
  if (hi > nz - (FEINT_SPMV_AHEAD + 16)) return;
  const int64_t a = lo + FEINT_SPMV_AHEAD;
  __builtin_prefetch(va + a);
  __builtin_prefetch(va + a + 8);
  __builtin_prefetch(ci + a);
  for (int64_t k = a + 16; k < hi + FEINT_SPMV_AHEAD; k += 16) {
    __builtin_prefetch(va + k);
    __builtin_prefetch(va + k + 8);
    __builtin_prefetch(ci + k);
  }
}

size_t feint_csr_spmv_run(int run_device, int dev, int host_fallback, int checked,
                          size_t nrows, size_t ncols, size_t nnz, const int64_t *rp,
                          const int32_t *ci, const double *va, const double *x, double *y) {
  const int64_t nz = (int64_t)nnz;
  if (!run_device && !checked) {
    /* arrays known to be a matrix (the assembled operator's own): the
     * checked loop's compare and branch per entry cost, in one thread, 0.308
     * -> 0.432 ns per entry in cache (tet4 box pattern of 20^3) and 0.332 ->
     * 0.365 on the 100^3 one (Zen 5, min of 3 runs); the same additions in
     * the same order, so the same bits */
#pragma omp parallel for schedule(static)
    for (size_t i = 0; i < nrows; i++) {
      const int64_t lo = rp[i], hi = rp[i + 1];
      spmv_prefetch(lo, hi, nz, ci, va);
      double s = 0.0;
      for (int64_t k = lo; k < hi; k++) s += va[k] * x[ci[k]];
      y[i] = s;
    }
    return 0;
  }
  if (!run_device) {
    /* the arrays checked as they are read: a row's offsets in [0, nnz] and
     * not decreasing, each column below ncols (a compare and a branch per
     * entry beside its load).  Zen 1, one thread, min of 30 calls: +0-24%
     * on a tet4 pattern of 7.8 M entries, +10-14% on its 3-dof pattern of
     * 17 M (noisy machine); a separate pass of feint_csr_check_pattern
     * doubled the time, a select instead of the branch cost +15-30%. */
    size_t bad = 0;
#pragma omp parallel for schedule(static) reduction(+ : bad)
    for (size_t i = 0; i < nrows; i++) {
      const int64_t lo = rp[i], hi = rp[i + 1];
      double s = 0.0;
      if (lo >= 0 && lo <= hi && hi <= nz) {
        spmv_prefetch(lo, hi, nz, ci, va);
        for (int64_t k = lo; k < hi; k++) {
          const uint32_t c = (uint32_t)ci[k];
          if (c < ncols)
            s += va[k] * x[c];
          else
            bad++;
        }
      } else {
        bad++;
      }
      y[i] = s;
    }
    return bad;
  }
#ifdef FEINT_OFFLOAD
  /* one row per thread; 128 threads per team (a multiple of the warp) */
  const int procs = omp_get_num_procs();
  const int nt = feint_gpu_num_teams(nrows, 128, host_fallback, procs > 1 ? procs / 2 : 1);
  if (nrows > 0) {
#pragma omp target teams distribute parallel for device(dev) num_teams(nt) thread_limit(128) \
    is_device_ptr(rp, ci, va, x, y)
    for (size_t i = 0; i < nrows; i++) {
      double s = 0.0;
      for (int64_t k = rp[i]; k < rp[i + 1]; k++) s += va[k] * x[ci[k]];
      y[i] = s;
    }
  }
#else
  (void)dev, (void)host_fallback;
#endif
  return 0;
}

feint_status feint_csr_spmv(const feint_csr *A, const double *x, double *y, feint_target target,
                            int device, unsigned flags) {
  FEINT_CALL(check_csr(A, 0));
  FEINT_CHECK(x != NULL, FEINT_ERR_NULL_ARG, "x is NULL");
  FEINT_CHECK(y != NULL, FEINT_ERR_NULL_ARG, "y is NULL");
  FEINT_CHECK((flags & ~(unsigned)FEINT_FLAG_ALLOW_HOST_FALLBACK) == 0, FEINT_ERR_OUT_OF_RANGE,
              "flags = 0x%x; allowed: 0 or FEINT_FLAG_ALLOW_HOST_FALLBACK", flags);
  FEINT_CHECK(!feint_ranges_overlap(x, A->num_cols * sizeof(double), y,
                                    A->num_rows * sizeof(double)),
              FEINT_ERR_UNSUPPORTED, "x and y overlap");
  int run_device, host_fallback;
  FEINT_CALL(feint_asm_resolve_target(target, device, flags, "", &run_device, &host_fallback));
  const size_t nrows = A->num_rows, nnz = A->nnz;
  if (!run_device) {
    if (feint_csr_spmv_run(0, 0, 0, 1, nrows, A->num_cols, nnz, A->row_ptr, A->col_idx,
                           A->values, x, y) != 0) {
      FEINT_CALL(feint_csr_check_pattern(A, 0)); /* names the first bad row or entry */
      FEINT_CHECK(0, FEINT_ERR_UNSUPPORTED, "A's arrays changed while the SpMV read them");
    }
  } else {
#ifdef FEINT_OFFLOAD
    FEINT_CALL(feint_csr_check_pattern(A, 0)); /* before the copies; the device loop trusts */
    const int dev = host_fallback ? omp_get_initial_device() : device;
    feint_xfer t[5] = {{A->row_ptr, (nrows + 1) * sizeof(int64_t), 1, 0, NULL},
                       {A->col_idx, nnz * sizeof(int32_t), 1, 0, NULL},
                       {A->values, nnz * sizeof(double), 1, 0, NULL},
                       {x, A->num_cols * sizeof(double), 1, 0, NULL},
                       {y, nrows * sizeof(double), 0, 1, NULL}};
    FEINT_CALL(feint_xfer_in(dev, t, 5));
    feint_csr_spmv_run(1, dev, host_fallback, 1, nrows, A->num_cols, nnz, t[0].dev, t[1].dev,
                       t[2].dev, t[3].dev, t[4].dev);
    FEINT_CALL(feint_xfer_out(dev, t, 5));
#else
    (void)nnz;
#endif
  }
  feint_execution_set(run_device && !host_fallback ? FEINT_TARGET_DEVICE : FEINT_TARGET_HOST,
                      device, host_fallback);
  return FEINT_SUCCESS;
}

feint_status feint_csr_coo_rows(const feint_csr *A, int64_t *rows) {
  FEINT_CALL(check_csr(A, 1));
  FEINT_CHECK(rows != NULL || A->nnz == 0, FEINT_ERR_NULL_ARG, "rows is NULL");
  const size_t nrows = A->num_rows;
#pragma omp parallel for schedule(static)
  for (size_t i = 0; i < nrows; i++)
    for (int64_t k = A->row_ptr[i]; k < A->row_ptr[i + 1]; k++) rows[k] = (int64_t)i;
  return FEINT_SUCCESS;
}

feint_status feint_csr_dirichlet(feint_csr *A, double *b, size_t num_bc, const uint32_t *bc_dofs,
                                 const double *bc_values) {
  FEINT_CALL(check_csr(A, 1));
  FEINT_CHECK(b != NULL, FEINT_ERR_NULL_ARG, "b is NULL");
  FEINT_CHECK(A->num_rows == A->num_cols, FEINT_ERR_UNSUPPORTED,
              "A is %zu x %zu; Dirichlet elimination needs a square matrix", A->num_rows,
              A->num_cols);
  if (num_bc == 0) return FEINT_SUCCESS;
  FEINT_CHECK(bc_dofs != NULL, FEINT_ERR_NULL_ARG, "bc_dofs is NULL with num_bc = %zu", num_bc);
  const size_t n = A->num_rows;
  for (size_t k = 0; k < num_bc; k++)
    FEINT_CHECK(bc_dofs[k] < n, FEINT_ERR_OUT_OF_RANGE,
                "bc_dofs[%zu] = %u is not a row of A (0..%zu)", k, bc_dofs[k], n - 1);
  /* g[i]: the prescribed value of a constrained dof; is_bc marks them */
  double *g = calloc(n, sizeof(double));
  unsigned char *is_bc = calloc(n, 1);
  if (!g || !is_bc) {
    free(g), free(is_bc);
    FEINT_CHECK(0, FEINT_ERR_ALLOC, "cannot allocate %zu-entry Dirichlet markers", n);
  }
  for (size_t k = 0; k < num_bc; k++) {
    is_bc[bc_dofs[k]] = 1;
    g[bc_dofs[k]] = bc_values ? bc_values[k] : 0.0;
  }
  /* every constrained row needs a nonzero diagonal (checked before writing) */
  size_t bad = SIZE_MAX;
  for (size_t k = 0; k < num_bc && bad == SIZE_MAX; k++) {
    const size_t i = bc_dofs[k];
    double d = 0.0;
    for (int64_t p = A->row_ptr[i]; p < A->row_ptr[i + 1]; p++)
      if ((size_t)A->col_idx[p] == i) d = A->values[p];
    if (d == 0.0) bad = i;
  }
  if (bad != SIZE_MAX) {
    free(g), free(is_bc);
    FEINT_CHECK(0, FEINT_ERR_DEGENERATE,
                "row %zu is constrained but A[%zu][%zu] is zero or absent; symmetric "
                "elimination keeps the diagonal",
                bad, bad, bad);
  }
  const int64_t *rp = A->row_ptr;
  const int32_t *ci = A->col_idx;
  double *va = A->values;
#pragma omp parallel for schedule(static)
  for (size_t j = 0; j < n; j++) {
    if (is_bc[j]) {
      double d = 0.0;
      for (int64_t p = rp[j]; p < rp[j + 1]; p++) {
        if ((size_t)ci[p] == j)
          d = va[p];
        else
          va[p] = 0.0;
      }
      b[j] = d * g[j];
    } else {
      double lift = 0.0;
      for (int64_t p = rp[j]; p < rp[j + 1]; p++)
        if (is_bc[ci[p]]) {
          lift += va[p] * g[ci[p]];
          va[p] = 0.0;
        }
      b[j] -= lift;
    }
  }
  free(g), free(is_bc);
  return FEINT_SUCCESS;
}

feint_status feint_mesh_face_vertices(const feint_mesh *mesh, int32_t tag, size_t *count,
                                      uint32_t **vertices) {
  FEINT_CHECK(mesh != NULL, FEINT_ERR_NULL_ARG, "mesh is NULL");
  FEINT_CHECK(count != NULL, FEINT_ERR_NULL_ARG, "count is NULL");
  FEINT_CHECK(vertices != NULL, FEINT_ERR_NULL_ARG, "vertices is NULL");
  FEINT_CHECK(mesh->num_faces == 0 || mesh->faces != NULL, FEINT_ERR_NULL_ARG,
              "mesh->faces is NULL with mesh->num_faces = %zu", mesh->num_faces);
  FEINT_CHECK(tag < 0 || mesh->num_faces == 0 || mesh->face_tags != NULL, FEINT_ERR_NULL_ARG,
              "mesh->face_tags is NULL; tag = %d needs face tags", (int)tag);
  const size_t nv = mesh->num_vertices;
  for (size_t f = 0; f < mesh->num_faces; f++)
    for (int k = 0; k < 4; k++) {
      const uint32_t w = mesh->faces[4 * f + k];
      FEINT_CHECK(w < nv || (k == 3 && w == FEINT_NO_VERTEX), FEINT_ERR_OUT_OF_RANGE,
                  "mesh->faces: face %zu, node %d has vertex index %u, outside [0, %zu)", f, k,
                  w, nv);
    }
  unsigned char *mark = nv ? calloc(nv, 1) : NULL;
  FEINT_CHECK(mark != NULL || nv == 0, FEINT_ERR_ALLOC, "cannot allocate %zu vertex marks", nv);
  size_t cnt = 0;
  for (size_t f = 0; f < mesh->num_faces; f++) {
    if (tag >= 0 && mesh->face_tags[f] != tag) continue;
    for (int k = 0; k < 4; k++) {
      const uint32_t w = mesh->faces[4 * f + k];
      if (w != FEINT_NO_VERTEX && !mark[w]) {
        mark[w] = 1;
        cnt++;
      }
    }
  }
  uint32_t *list = cnt ? malloc(cnt * sizeof(uint32_t)) : NULL;
  if (cnt && !list) {
    free(mark);
    FEINT_CHECK(0, FEINT_ERR_ALLOC, "cannot allocate %zu vertex indices", cnt);
  }
  size_t k = 0;
  for (size_t v = 0; v < nv && k < cnt; v++)
    if (mark[v]) list[k++] = (uint32_t)v;
  free(mark);
  *count = cnt;
  *vertices = list;
  return FEINT_SUCCESS;
}
