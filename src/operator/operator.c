/*
 * operator/operator.c - feint_operator: create (checks, the unconstrained
 * diagonal and load vector, the Dirichlet constraint lists), apply with
 * symmetric elimination of the constrained dofs, diagonal, right-hand side,
 * and the ASSEMBLED form (the CSR matrix of feint_assemble, eliminated in
 * place by feint_csr_dirichlet, SpMV by the one kernel of csr.c).  The
 * matrix-free forms live in matfree.c.
 *
 * Constraints, one rule for every form: with C the constrained dofs,
 *   (A_c x)_j = sum_{k not in C} A_jk x_k   (j not in C),
 *   (A_c x)_i = a_ii x_i                    (i in C),
 * which is feint_csr_dirichlet's matrix.  ASSEMBLED stores A_c; the
 * matrix-free forms apply A to x with its constrained entries zeroed, then
 * overwrite the constrained rows.  The entries A_ji (j not in C, i in C) are
 * kept as a list ("lift", boundary-sized) for the right-hand side.
 */
#include <stdlib.h>
#include <string.h>

#ifdef FEINT_OFFLOAD
#include <omp.h>
#endif

#include "operator/operator_internal.h"

/* ---- run-space memory ----------------------------------------------------- */

feint_status feint_op_alloc(const feint_operator *op, size_t bytes, void **p) {
  *p = NULL;
  if (bytes == 0) return FEINT_SUCCESS;
  if (!op->run_device) {
    *p = malloc(bytes);
    FEINT_CHECK(*p != NULL, FEINT_ERR_ALLOC, "cannot allocate %zu bytes", bytes);
    return FEINT_SUCCESS;
  }
#ifdef FEINT_OFFLOAD
  *p = omp_target_alloc(bytes, op->dev);
  FEINT_CHECK(*p != NULL, FEINT_ERR_ALLOC, "omp_target_alloc of %zu bytes on device %d failed",
              bytes, op->dev);
  return FEINT_SUCCESS;
#else
  return feint_error_set(FEINT_ERR_NO_DEVICE, __func__, __FILE__, __LINE__,
                         "feint was built without offload");
#endif
}

void feint_op_free(const feint_operator *op, void *p) {
  if (p == NULL) return;
  if (!op->run_device) {
    free(p);
    return;
  }
#ifdef FEINT_OFFLOAD
  omp_target_free(p, op->dev);
#endif
}

feint_status feint_op_to(const feint_operator *op, void *dst, const void *src, size_t bytes) {
  if (bytes == 0) return FEINT_SUCCESS;
  if (!op->run_device) {
    memcpy(dst, src, bytes);
    return FEINT_SUCCESS;
  }
#ifdef FEINT_OFFLOAD
  FEINT_CHECK(omp_target_memcpy(dst, src, bytes, 0, 0, op->dev, omp_get_initial_device()) == 0,
              FEINT_ERR_DEVICE, "omp_target_memcpy of %zu bytes host -> device %d failed", bytes,
              op->dev);
#endif
  return FEINT_SUCCESS;
}

feint_status feint_op_from(const feint_operator *op, void *dst, const void *src, size_t bytes) {
  if (bytes == 0) return FEINT_SUCCESS;
  if (!op->run_device) {
    memcpy(dst, src, bytes);
    return FEINT_SUCCESS;
  }
#ifdef FEINT_OFFLOAD
  FEINT_CHECK(omp_target_memcpy(dst, src, bytes, 0, 0, omp_get_initial_device(), op->dev) == 0,
              FEINT_ERR_DEVICE, "omp_target_memcpy of %zu bytes device %d -> host failed", bytes,
              op->dev);
#endif
  return FEINT_SUCCESS;
}

feint_status feint_op_upload(feint_operator *op, const void *src, size_t bytes, void **dst) {
  FEINT_CALL(feint_op_alloc(op, bytes, dst));
  const feint_status st = feint_op_to(op, *dst, src, bytes);
  if (st != FEINT_SUCCESS) {
    feint_op_free(op, *dst);
    *dst = NULL;
    return st;
  }
  op->data_bytes += bytes;
  return FEINT_SUCCESS;
}

/* ---- create / destroy ----------------------------------------------------- */

feint_status feint_operator_destroy(feint_operator *op) {
  if (op == NULL) return FEINT_SUCCESS;
  feint_op_matfree_destroy(op);
  feint_assembly_destroy(op->plan);
  feint_op_free(op, op->d_diag);
  feint_op_free(op, op->d_bc);
  feint_op_free(op, op->d_x);
  feint_op_free(op, op->d_y);
  feint_op_free(op, op->d_bcval);
  if (op->run_device) {
    feint_op_free(op, (void *)op->rp);
    feint_op_free(op, (void *)op->ci);
    feint_op_free(op, (void *)op->va);
  }
  feint_csr_destroy(&op->A);
  free(op->load);
  free(op->diag);
  free(op->bc_in);
  free(op->bc);
  free(op->lift);
  free(op);
  return FEINT_SUCCESS;
}

/* The constrained dofs: bc_in (as given), bc (distinct, ascending), and a
 * check that each has a nonzero diagonal.  mark: [num_dofs] zeroed scratch,
 * left marking the constrained dofs. */
static feint_status op_constraints(feint_operator *op, size_t num_bc, const uint32_t *bc_dofs,
                                   unsigned char *mark) {
  const size_t n = op->num_dofs;
  op->num_bc_in = num_bc;
  if (num_bc == 0) return FEINT_SUCCESS;
  op->bc_in = malloc(num_bc * sizeof(uint32_t));
  FEINT_CHECK(op->bc_in != NULL, FEINT_ERR_ALLOC, "cannot allocate %zu constrained dofs", num_bc);
  memcpy(op->bc_in, bc_dofs, num_bc * sizeof(uint32_t));
  size_t cnt = 0;
  for (size_t k = 0; k < num_bc; k++)
    if (!mark[bc_dofs[k]]) mark[bc_dofs[k]] = 1, cnt++;
  op->bc = malloc(cnt * sizeof(uint32_t));
  FEINT_CHECK(op->bc != NULL, FEINT_ERR_ALLOC, "cannot allocate %zu constrained dofs", cnt);
  size_t k = 0;
  for (size_t i = 0; i < n; i++)
    if (mark[i]) op->bc[k++] = (uint32_t)i;
  op->num_bc = cnt;
  for (k = 0; k < cnt; k++)
    FEINT_CHECK(op->diag[op->bc[k]] != 0.0, FEINT_ERR_DEGENERATE,
                "dof %u is constrained but its diagonal entry A[%u][%u] is zero; symmetric "
                "elimination keeps the diagonal",
                op->bc[k], op->bc[k], op->bc[k]);
  return FEINT_SUCCESS;
}

/* ASSEMBLED: assemble A and the load vector, take the diagonal, the lift
 * entries and the constraints, eliminate. */
static feint_status op_assembled(feint_operator *op, const feint_integrate_desc *desc,
                                 const double *coeffs, size_t num_bc, const uint32_t *bc_dofs,
                                 unsigned char *mark) {
  const feint_mesh *mesh = op->mesh;
  const size_t n = op->num_dofs;
  FEINT_CALL(feint_assembly_create(mesh, &op->plan));
  FEINT_CALL(feint_csr_create(mesh, op->dofs_per_vertex, &op->A));
  FEINT_CALL(feint_assemble(desc, op->strategy, mesh, op->plan, coeffs, &op->A, op->load));
  feint_assembly_destroy(op->plan);
  op->plan = NULL;
  const int64_t *rp = op->A.row_ptr;
  const int32_t *ci = op->A.col_idx;
  const double *va = op->A.values;
#pragma omp parallel for schedule(static)
  for (size_t i = 0; i < n; i++) {
    double d = 0.0;
    for (int64_t k = rp[i]; k < rp[i + 1]; k++)
      if ((size_t)ci[k] == i) d = va[k];
    op->diag[i] = d;
  }
  FEINT_CALL(op_constraints(op, num_bc, bc_dofs, mark));
  if (op->num_bc > 0) {
    size_t cnt = 0;
    for (size_t j = 0; j < n; j++)
      if (!mark[j])
        for (int64_t k = rp[j]; k < rp[j + 1]; k++) cnt += mark[ci[k]];
    op->lift = malloc((cnt ? cnt : 1) * sizeof(feint_op_lift));
    FEINT_CHECK(op->lift != NULL, FEINT_ERR_ALLOC, "cannot allocate %zu lift entries", cnt);
    for (size_t j = 0; j < n; j++)
      if (!mark[j])
        for (int64_t k = rp[j]; k < rp[j + 1]; k++)
          if (mark[ci[k]]) op->lift[op->num_lift++] = (feint_op_lift){(uint32_t)j, (uint32_t)ci[k], va[k]};
    double *scratch = calloc(n, sizeof(double));
    FEINT_CHECK(scratch != NULL, FEINT_ERR_ALLOC, "cannot allocate %zu doubles", n);
    const feint_status st = feint_csr_dirichlet(&op->A, scratch, num_bc, bc_dofs, NULL);
    free(scratch);
    FEINT_CALL(st);
  }
  op->data_bytes = (n + 1) * sizeof(int64_t) + op->A.nnz * (sizeof(int32_t) + sizeof(double));
  if (!op->run_device) {
    op->rp = op->A.row_ptr;
    op->ci = op->A.col_idx;
    op->va = op->A.values;
    return FEINT_SUCCESS;
  }
  op->data_bytes = 0;
  FEINT_CALL(feint_op_upload(op, op->A.row_ptr, (n + 1) * sizeof(int64_t), (void **)&op->rp));
  FEINT_CALL(feint_op_upload(op, op->A.col_idx, op->A.nnz * sizeof(int32_t), (void **)&op->ci));
  FEINT_CALL(feint_op_upload(op, op->A.values, op->A.nnz * sizeof(double), (void **)&op->va));
  return FEINT_SUCCESS;
}

/* The matrix-free forms: every element's A^e and b^e once (feint_integrate_mesh,
 * natural layout) for the diagonal, the load vector and the lift entries;
 * matfree.c keeps what its form streams. */
static feint_status op_matfree(feint_operator *op, const feint_integrate_desc *desc,
                               const double *coeffs, size_t num_bc, const uint32_t *bc_dofs,
                               unsigned char *mark) {
  const feint_mesh *mesh = op->mesh;
  const size_t ne = op->num_elem, n = op->num_dofs;
  const int ns = op->nodes, dpv = op->dofs_per_vertex, nd = ns * dpv;
  size_t a_len, b_len, coeff_len;
  FEINT_CALL(feint_array_len(desc->element, desc->problem, FEINT_ARRAY_A, FEINT_LAYOUT_NATURAL,
                             ne, &a_len));
  FEINT_CALL(feint_array_len(desc->element, desc->problem, FEINT_ARRAY_B, FEINT_LAYOUT_NATURAL,
                             ne, &b_len));
  FEINT_CALL(feint_array_len(desc->element, desc->problem, FEINT_ARRAY_COEFFS, desc->layout_in,
                             ne, &coeff_len));
  double *A_e = malloc(a_len * sizeof(double)), *b_e = malloc(b_len * sizeof(double));
  if (!A_e || !b_e) {
    free(A_e), free(b_e);
    FEINT_CHECK(0, FEINT_ERR_ALLOC, "cannot allocate the element matrices of %zu elements", ne);
  }
  feint_integrate_desc d = *desc;
  d.layout_out = FEINT_LAYOUT_NATURAL;
  feint_status st = feint_integrate_mesh(&d, mesh, coeffs, A_e, b_e);
  if (st == FEINT_SUCCESS) {
    /* serial sums in element order: deterministic */
    memset(op->load, 0, n * sizeof(double));
    memset(op->diag, 0, n * sizeof(double));
    for (size_t e = 0; e < ne; e++)
      for (int r = 0; r < nd; r++) {
        const size_t dof = (size_t)mesh->conn[e * ns + r / dpv] * dpv + r % dpv;
        op->load[dof] += b_e[e * nd + r];
        op->diag[dof] += A_e[(e * nd + r) * nd + r];
      }
    st = op_constraints(op, num_bc, bc_dofs, mark);
  }
  if (st == FEINT_SUCCESS && op->num_bc > 0) {
    size_t cnt = 0;
    for (int pass = 0; pass < 2 && st == FEINT_SUCCESS; pass++) {
      for (size_t e = 0; e < ne; e++)
        for (int r = 0; r < nd; r++) {
          const size_t dr = (size_t)mesh->conn[e * ns + r / dpv] * dpv + r % dpv;
          if (mark[dr]) continue;
          for (int s = 0; s < nd; s++) {
            const size_t ds = (size_t)mesh->conn[e * ns + s / dpv] * dpv + s % dpv;
            if (!mark[ds]) continue;
            if (pass == 1)
              op->lift[op->num_lift++] =
                  (feint_op_lift){(uint32_t)dr, (uint32_t)ds, A_e[(e * nd + r) * nd + s]};
            else
              cnt++;
          }
        }
      if (pass == 0) {
        op->lift = malloc((cnt ? cnt : 1) * sizeof(feint_op_lift));
        if (!op->lift)
          st = feint_error_set(FEINT_ERR_ALLOC, __func__, __FILE__, __LINE__,
                               "cannot allocate %zu lift entries", cnt);
      }
    }
  }
  if (st == FEINT_SUCCESS) st = feint_op_matfree_create(op, coeffs, coeff_len, A_e);
  free(A_e), free(b_e);
  return st;
}

feint_status feint_operator_create(const feint_integrate_desc *desc, feint_operator_form form,
                                   feint_assemble_strategy strategy, const feint_mesh *mesh,
                                   const double *coeffs, size_t num_bc, const uint32_t *bc_dofs,
                                   feint_operator **op) {
  FEINT_CHECK(op != NULL, FEINT_ERR_NULL_ARG, "op is NULL");
  FEINT_CHECK(desc != NULL, FEINT_ERR_NULL_ARG, "desc is NULL");
  FEINT_CHECK(mesh != NULL, FEINT_ERR_NULL_ARG, "mesh is NULL");
  FEINT_CHECK_ENUM(form, FEINT_OPERATOR_FORM_COUNT, "form", "feint_operator_form");
  FEINT_CHECK_ENUM(strategy, FEINT_ASSEMBLE_COUNT, "strategy", "feint_assemble_strategy");
  FEINT_CHECK_ENUM(desc->problem, FEINT_PROBLEM_COUNT, "desc->problem", "feint_problem");
  FEINT_CHECK(!(desc->flags & FEINT_FLAG_DEVICE_POINTERS), FEINT_ERR_UNSUPPORTED,
              "desc->flags has FEINT_FLAG_DEVICE_POINTERS: the mesh and coeffs of "
              "feint_operator_create are host arrays (the flag belongs to feint_operator_apply)");
  FEINT_CHECK(num_bc == 0 || bc_dofs != NULL, FEINT_ERR_NULL_ARG,
              "bc_dofs is NULL with num_bc = %zu", num_bc);
  FEINT_CALL(feint_mesh_check(mesh));
  int run_device, host_fallback;
  FEINT_CALL(feint_asm_resolve_target(desc->target, desc->device, desc->flags, "desc->",
                                      &run_device, &host_fallback));
  const int dpv = desc->problem == FEINT_ELASTICITY || desc->problem == FEINT_ELASTICITY_QP ? 3 : 1;
  FEINT_CHECK(mesh->num_vertices <= (size_t)INT32_MAX / (size_t)dpv, FEINT_ERR_BAD_SIZE,
              "mesh->num_vertices = %zu times %d dofs per vertex does not fit 32-bit dof indices",
              mesh->num_vertices, dpv);
  const size_t n = mesh->num_vertices * (size_t)dpv;
  for (size_t k = 0; k < num_bc; k++)
    FEINT_CHECK(bc_dofs[k] < n, FEINT_ERR_OUT_OF_RANGE,
                "bc_dofs[%zu] = %u is not a dof of this operator (0..%zu)", k, bc_dofs[k], n - 1);

  feint_operator *o = calloc(1, sizeof *o);
  FEINT_CHECK(o != NULL, FEINT_ERR_ALLOC, "cannot allocate an operator");
  o->form = form;
  o->strategy = strategy;
  o->desc = *desc;
  o->mesh = mesh;
  o->num_dofs = n;
  o->num_elem = mesh->num_elem;
  o->num_vertices = mesh->num_vertices;
  o->dofs_per_vertex = dpv;
  o->nodes = feint_asm_nodes(mesh->element);
  o->run_device = run_device;
  o->host_fallback = host_fallback;
  o->dev = desc->device;
#ifdef FEINT_OFFLOAD
  if (host_fallback) o->dev = omp_get_initial_device();
#endif
  o->load = malloc(n * sizeof(double));
  o->diag = malloc(n * sizeof(double));
  unsigned char *mark = calloc(n, 1);
  feint_status st = FEINT_SUCCESS;
  if (!o->load || !o->diag || !mark)
    st = feint_error_set(FEINT_ERR_ALLOC, __func__, __FILE__, __LINE__,
                         "cannot allocate the vectors of %zu dofs", n);
  if (st == FEINT_SUCCESS)
    st = form == FEINT_OPERATOR_ASSEMBLED
             ? op_assembled(o, desc, coeffs, num_bc, bc_dofs, mark)
             : op_matfree(o, desc, coeffs, num_bc, bc_dofs, mark);
  free(mark);
  /* run-space copies of the diagonal and the constrained dofs, work vectors */
  if (st == FEINT_SUCCESS) st = feint_op_upload(o, o->diag, n * sizeof(double), (void **)&o->d_diag);
  if (st == FEINT_SUCCESS)
    st = feint_op_upload(o, o->bc, o->num_bc * sizeof(uint32_t), (void **)&o->d_bc);
  if (st == FEINT_SUCCESS && (run_device || (form != FEINT_OPERATOR_ASSEMBLED && o->num_bc > 0))) {
    st = feint_op_alloc(o, n * sizeof(double), (void **)&o->d_x);
    if (st == FEINT_SUCCESS) st = feint_op_alloc(o, n * sizeof(double), (void **)&o->d_y);
    o->data_bytes += 2 * n * sizeof(double);
  }
  if (st == FEINT_SUCCESS && form != FEINT_OPERATOR_ASSEMBLED)
    st = feint_op_alloc(o, o->num_bc * sizeof(double), (void **)&o->d_bcval);
  if (st != FEINT_SUCCESS) {
    feint_operator_destroy(o);
    return st;
  }
  *op = o;
  return FEINT_SUCCESS;
}

feint_status feint_operator_get_info(const feint_operator *op, feint_operator_info *info) {
  FEINT_CHECK(op != NULL, FEINT_ERR_NULL_ARG, "op is NULL");
  FEINT_CHECK(info != NULL, FEINT_ERR_NULL_ARG, "info is NULL");
  memset(info, 0, sizeof *info);
  info->num_dofs = op->num_dofs;
  info->dofs_per_vertex = op->dofs_per_vertex;
  info->form = op->form;
  info->strategy = op->strategy;
  const int on_device = op->run_device && !op->host_fallback;
  info->target = on_device ? FEINT_TARGET_DEVICE : FEINT_TARGET_HOST;
  info->device = on_device ? op->dev : -1;
  info->symmetric = op->desc.problem != FEINT_CONVDIFF;
  info->host_fallback = op->host_fallback;
  info->num_bc = op->num_bc;
  info->num_elem = op->num_elem;
  info->data_bytes = op->data_bytes;
  return FEINT_SUCCESS;
}

/* ---- apply ---------------------------------------------------------------- */

/* y = A_c x with x, y in the run space. */
static void op_apply_run(const feint_operator *op, const double *x, double *y) {
  if (op->form == FEINT_OPERATOR_ASSEMBLED) {
    /* the operator's own matrix (feint_csr_create's pattern): trusted */
    (void)feint_csr_spmv_run(op->run_device, op->dev, op->host_fallback, 0, op->num_dofs,
                             op->num_dofs, op->A.nnz, op->rp, op->ci, op->va, x, y);
    return;
  }
  const size_t n = op->num_dofs, nbc = op->num_bc;
  if (nbc == 0) {
    feint_op_matfree_apply(op, x, y);
    return;
  }
  /* x with its constrained entries zeroed, in the work vector d_x (x is
   * d_x itself after a host-array copy); the constrained rows' values
   * a_ii x_i are saved first (d_bcval) and written over y at the end. */
  const uint32_t *bc = op->d_bc;
  const double *dg = op->d_diag;
  double *xm = op->d_x, *bcval = op->d_bcval;
  if (!op->run_device) {
    if (xm != x) memcpy(xm, x, n * sizeof(double));
#pragma omp parallel for schedule(static)
    for (size_t k = 0; k < nbc; k++) {
      bcval[k] = dg[bc[k]] * xm[bc[k]];
      xm[bc[k]] = 0.0;
    }
    feint_op_matfree_apply(op, xm, y);
#pragma omp parallel for schedule(static)
    for (size_t k = 0; k < nbc; k++) y[bc[k]] = bcval[k];
    return;
  }
#ifdef FEINT_OFFLOAD
  const int dev = op->dev;
  if (xm != x) {
#pragma omp target teams distribute parallel for device(dev) is_device_ptr(xm, x)
    for (size_t i = 0; i < n; i++) xm[i] = x[i];
  }
#pragma omp target teams distribute parallel for device(dev) is_device_ptr(xm, bc, dg, bcval)
  for (size_t k = 0; k < nbc; k++) {
    bcval[k] = dg[bc[k]] * xm[bc[k]];
    xm[bc[k]] = 0.0;
  }
  feint_op_matfree_apply(op, xm, y);
#pragma omp target teams distribute parallel for device(dev) is_device_ptr(y, bc, bcval)
  for (size_t k = 0; k < nbc; k++) y[bc[k]] = bcval[k];
#endif
}

static feint_status check_vec_call(const feint_operator *op, const void *a, const char *aname,
                                   const void *b, const char *bname, unsigned flags) {
  FEINT_CHECK(op != NULL, FEINT_ERR_NULL_ARG, "op is NULL");
  FEINT_CHECK(a != NULL, FEINT_ERR_NULL_ARG, "%s is NULL", aname);
  FEINT_CHECK(b != NULL, FEINT_ERR_NULL_ARG, "%s is NULL", bname);
  FEINT_CHECK((flags & ~(unsigned)FEINT_FLAG_DEVICE_POINTERS) == 0, FEINT_ERR_OUT_OF_RANGE,
              "flags = 0x%x; allowed: 0 or FEINT_FLAG_DEVICE_POINTERS", flags);
  return FEINT_SUCCESS;
}

/* 1 if the vectors of a call are run-space pointers as given (no copies):
 * host operators, and device operators called with device pointers. */
static int op_in_place(const feint_operator *op, unsigned flags) {
  return !op->run_device || (flags & FEINT_FLAG_DEVICE_POINTERS);
}

feint_status feint_operator_apply(const feint_operator *op, const double *x, double *y,
                                  unsigned flags) {
  FEINT_CALL(check_vec_call(op, x, "x", y, "y", flags));
  const size_t bytes = op->num_dofs * sizeof(double);
  FEINT_CHECK(!feint_ranges_overlap(x, bytes, y, bytes), FEINT_ERR_UNSUPPORTED,
              "x and y overlap");
  if (op_in_place(op, flags)) {
    op_apply_run(op, x, y);
    return FEINT_SUCCESS;
  }
  FEINT_CALL(feint_op_to(op, op->d_x, x, bytes));
  op_apply_run(op, op->d_x, op->d_y);
  return feint_op_from(op, y, op->d_y, bytes);
}

feint_status feint_operator_diagonal(const feint_operator *op, double *diag, unsigned flags) {
  FEINT_CALL(check_vec_call(op, diag, "diag", diag, "diag", flags));
  const size_t bytes = op->num_dofs * sizeof(double);
  if (!op->run_device || !(flags & FEINT_FLAG_DEVICE_POINTERS)) {
    memcpy(diag, op->diag, bytes);
    return FEINT_SUCCESS;
  }
#ifdef FEINT_OFFLOAD
  FEINT_CHECK(omp_target_memcpy(diag, op->d_diag, bytes, 0, 0, op->dev, op->dev) == 0,
              FEINT_ERR_DEVICE, "omp_target_memcpy of %zu bytes on device %d failed", bytes,
              op->dev);
#endif
  return FEINT_SUCCESS;
}

feint_status feint_operator_rhs(const feint_operator *op, const double *bc_values, double *b) {
  FEINT_CHECK(op != NULL, FEINT_ERR_NULL_ARG, "op is NULL");
  FEINT_CHECK(b != NULL, FEINT_ERR_NULL_ARG, "b is NULL");
  const size_t n = op->num_dofs;
  if (op->num_bc == 0) {
    memcpy(b, op->load, n * sizeof(double));
    return FEINT_SUCCESS;
  }
  double *g = calloc(n, sizeof(double));
  FEINT_CHECK(g != NULL, FEINT_ERR_ALLOC, "cannot allocate %zu doubles", n);
  if (bc_values)
    for (size_t k = 0; k < op->num_bc_in; k++) g[op->bc_in[k]] = bc_values[k];
  memcpy(b, op->load, n * sizeof(double));
  for (size_t k = 0; k < op->num_lift; k++) b[op->lift[k].row] -= op->lift[k].value * g[op->lift[k].col];
  for (size_t k = 0; k < op->num_bc; k++) b[op->bc[k]] = op->diag[op->bc[k]] * g[op->bc[k]];
  free(g);
  return FEINT_SUCCESS;
}
