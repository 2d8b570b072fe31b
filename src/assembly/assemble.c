/*
 * assembly/assemble.c - integration straight from a mesh
 * (feint_integrate_mesh), the element colouring (feint_assembly_*), and the
 * fused gather + integrate + assemble into a CSR matrix and vector
 * (feint_assemble), on the host or a device.  The element loops themselves
 * are the variants' mesh drivers (kernel/driver_mesh.h).
 */
#include <stdlib.h>
#include <string.h>

#include "assembly/assembly_internal.h"
#include "validate.h"

static const feint_mesh_variant_fn mesh_host[FEINT_VARIANT_COUNT] = {
    feint_variant_qss_geo_linear_mesh_host, feint_variant_qss_geo_generic_mesh_host,
    feint_variant_sqs_geo_linear_mesh_host, feint_variant_sqs_geo_generic_mesh_host,
    feint_variant_ssq_geo_linear_mesh_host, feint_variant_ssq_geo_generic_mesh_host,
    feint_variant_tensor_geo_linear_mesh_host};
#ifdef FEINT_OFFLOAD
#include <omp.h>
static const feint_mesh_variant_device_fn mesh_device[FEINT_VARIANT_COUNT] = {
    feint_variant_qss_geo_linear_mesh_device, feint_variant_qss_geo_generic_mesh_device,
    feint_variant_sqs_geo_linear_mesh_device, feint_variant_sqs_geo_generic_mesh_device,
    feint_variant_ssq_geo_linear_mesh_device, feint_variant_ssq_geo_generic_mesh_device,
    feint_variant_tensor_geo_linear_mesh_device};
#endif

struct feint_assembly {
  size_t num_elem, num_vertices;
  uint64_t conn_sets_fp; /* feint_asm_fingerprint_conn (sets) of the mesh at create */
  /* the geometry checks' findings at create (feint_asm_geo_scan), valid for
   * a mesh with these fingerprints of its ordered connectivity and its
   * coordinates: */
  uint64_t conn_fp, coords_fp;
  feint_scan_firsts geo;
  /* element colouring (device loops): */
  size_t num_colours;
  size_t *colour_ptr;   /* [num_colours + 1] */
  uint32_t *elem_order; /* [num_elem] elements by colour, ascending within one */
  /* chunk colouring (host loops), chunks of chunk_len elements: */
  size_t chunk_len;
  size_t num_chunk_colours;
  size_t *chunk_colour_ptr; /* [num_chunk_colours + 1] */
  uint32_t *chunk_order;    /* [num_chunks] chunks by colour, ascending within one */
  uint32_t *block_reach;    /* [num_blocks][2] (feint_asm_build_reach): host atomics */
};

/* The descriptor's checks of feint_integrate_mesh (element_out = 1: it
 * writes per-element arrays in desc->layout_out) and feint_assemble (0:
 * layout_out is ignored); says where the call runs. */
static feint_status check_desc(const feint_integrate_desc *desc, int element_out,
                               int *run_device, int *host_fallback) {
  FEINT_CALL(feint_desc_check(desc));
  const feint_integrate_desc d = *desc;
  const int packed_out = element_out && d.layout_out == FEINT_LAYOUT_PACKED;
  FEINT_CHECK(d.layout_in != FEINT_LAYOUT_PACKED && !packed_out, FEINT_ERR_UNSUPPORTED,
              "desc->layout_%s = packed: the mesh paths take natural or blocked layouts (packed "
              "output not yet)",
              d.layout_in == FEINT_LAYOUT_PACKED ? "in" : "out");
  FEINT_CHECK(d.problem != FEINT_POISSON_KAPPA && d.problem != FEINT_ELASTICITY_QP,
              FEINT_ERR_UNSUPPORTED,
              "desc->problem = %s: the mesh paths integrate poisson, convdiff and elasticity "
              "(per-quadrature-point coefficients not yet)",
              feint_problem_name(d.problem));
  return feint_asm_resolve_target(d.target, d.device, d.flags, "desc->", run_device,
                                  host_fallback);
}

/* Checks shared by feint_integrate_mesh and feint_assemble; fills the case
 * fields of *ka and says where the call runs. */
static feint_status check_call(const feint_integrate_desc *desc, int element_out,
                               const feint_mesh *mesh, const double *coeffs,
                               feint_mesh_kernel_args *ka, size_t *coeff_len, int *run_device,
                               int *host_fallback) {
  FEINT_CALL(check_desc(desc, element_out, run_device, host_fallback));
  const feint_integrate_desc d = *desc;
  FEINT_CALL(feint_mesh_check(mesh));
  FEINT_CHECK(mesh->element == d.element, FEINT_ERR_UNSUPPORTED,
              "desc->element = %s but mesh->element = %s", feint_element_name(d.element),
              feint_element_name(mesh->element));
  FEINT_CHECK(coeffs != NULL, FEINT_ERR_NULL_ARG, "coeffs is NULL with mesh->num_elem = %zu",
              mesh->num_elem);
  FEINT_CALL(feint_array_len(d.element, d.problem, FEINT_ARRAY_COEFFS, d.layout_in,
                             mesh->num_elem, coeff_len));
  memset(ka, 0, sizeof *ka);
  ka->element = d.element;
  ka->problem = d.problem;
  ka->layout_in = d.layout_in;
  ka->layout_out = d.layout_out;
  ka->num_elem = mesh->num_elem;
  ka->num_vertices = mesh->num_vertices;
  ka->coords = mesh->coords;
  ka->conn = mesh->conn;
  ka->coeffs = coeffs;
  ka->chunk_len = feint_asm_chunk_len(mesh->num_elem);
  return FEINT_SUCCESS;
}

/* The mesh's arrays as inputs of feint_check_overlaps (after
 * feint_mesh_check: their sizes do not overflow). */
static feint_span coords_span(const feint_mesh *m) {
  return (feint_span){"mesh->coords", m->coords, m->num_vertices * 3 * sizeof(double), 0};
}
static feint_span conn_span(const feint_mesh *m) {
  return (feint_span){"mesh->conn", m->conn,
                      m->num_elem * (size_t)feint_asm_nodes(m->element) * sizeof(uint32_t), 0};
}

/* The element checks of a call (skipped with FEINT_FLAG_TRUST_GEOMETRY):
 * geometry, and coefficients in the range the kernels integrate without
 * rescaling (feint_integrate rescales outside it; these paths refuse), in
 * one sweep (feint_asm_check_elements).  With a plan (the assembly calls)
 * whose fingerprints the mesh's ordered connectivity (*conn_fp when the
 * caller has it, else computed) and coordinates match, the geometry's
 * findings are the plan's and only the coefficients are read: the
 * fingerprints cost a pass over conn and coords (4 and ~4 bytes per tet),
 * the scan gathers every element's coordinates and computes its Jacobian
 * (tet4 Poisson, 4.09 M tets, one Zen 4 thread: the whole sweep 5.5 ns per
 * tet, 1.4 ns without the geometry; bench/results/assembly_checked_plan/). */
static feint_status check_elements(const feint_integrate_desc *desc, const feint_mesh *mesh,
                                   const double *coeffs, const feint_assembly *plan,
                                   const uint64_t *conn_fp) {
  if (desc->flags & FEINT_FLAG_TRUST_GEOMETRY) return FEINT_SUCCESS;
  feint_variant_info vi;
  FEINT_CALL(feint_variant_get_info(desc->variant, &vi));
  const int known = plan != NULL &&
                    (conn_fp != NULL ? *conn_fp : feint_asm_fingerprint_conn(mesh, 1)) ==
                        plan->conn_fp &&
                    feint_asm_fingerprint_coords(mesh) == plan->coords_fp;
  return feint_asm_check_elements(mesh, desc->problem, desc->layout_in, coeffs, vi.geo_linear,
                                  known ? &plan->geo : NULL);
}

/* Run the mesh loop of a variant on the host, or on the device with every
 * array copied there and the outputs back. */
static feint_status run_mesh_loop(int variant, feint_mesh_kernel_args *ka, size_t coeff_len,
                                  size_t a_len, size_t b_len, int run_device, int device,
                                  int host_fallback) {
  if (!run_device) {
    mesh_host[variant](ka);
    return FEINT_SUCCESS;
  }
#ifdef FEINT_OFFLOAD
  const int dev = host_fallback ? omp_get_initial_device() : device;
  const int ns = feint_asm_nodes(ka->element);
  const int scatter = ka->output != FEINT_MESH_OUT_ELEMENT;
  feint_xfer x[10] = {
      {ka->coords, ka->num_vertices * 3 * sizeof(double), 1, 0, NULL},
      {ka->conn, ka->num_elem * ns * sizeof(uint32_t), 1, 0, NULL},
      {ka->coeffs, coeff_len * sizeof(double), 1, 0, NULL},
      {ka->A, scatter ? 0 : a_len * sizeof(double), 1, 1, NULL},
      {ka->b, scatter ? 0 : b_len * sizeof(double), 1, 1, NULL},
      {ka->row_ptr, scatter ? (ka->num_rows + 1) * sizeof(int64_t) : 0, 1, 0, NULL},
      {ka->col_idx, scatter ? ka->nnz * sizeof(int32_t) : 0, 1, 0, NULL},
      {ka->values, scatter ? ka->nnz * sizeof(double) : 0, 1, 1, NULL},
      {ka->rhs, scatter ? ka->num_rows * sizeof(double) : 0, 1, 1, NULL},
      {ka->num_missing, scatter ? sizeof(size_t) : 0, 1, 1, NULL}};
  /* the colour order and the position map (when given), read only */
  feint_xfer ro[3] = {
      {ka->elem_order,
       ka->output == FEINT_MESH_OUT_COLOURED ? ka->num_elem * sizeof(uint32_t) : 0, 1, 0, NULL},
      {ka->elem_map,
       scatter && ka->elem_map ? ka->num_elem * ns * ns * sizeof(int32_t) : 0, 1, 0, NULL},
      {ka->elem_map8, scatter && ka->elem_map8 ? ka->num_elem * ns * ns : 0, 1, 0, NULL}};
  FEINT_CALL(feint_xfer_in(dev, x, 10));
  const feint_status st = feint_xfer_in(dev, ro, 3);
  if (st != FEINT_SUCCESS) {
    for (int k = 0; k < 10; k++) x[k].copy_out = 0;
    feint_xfer_out(dev, x, 10);
    return st;
  }
  feint_mesh_kernel_args dk = *ka;
  dk.coords = x[0].dev;
  dk.conn = x[1].dev;
  dk.coeffs = x[2].dev;
  dk.A = x[3].dev;
  dk.b = x[4].dev;
  dk.row_ptr = x[5].dev;
  dk.col_idx = x[6].dev;
  dk.values = x[7].dev;
  dk.rhs = x[8].dev;
  dk.num_missing = x[9].dev;
  dk.elem_order = ro[0].dev;
  dk.elem_map = ro[1].dev;
  dk.elem_map8 = ro[2].dev;
  mesh_device[variant](&dk, dev, host_fallback);
  feint_xfer_out(dev, ro, 3);
  return feint_xfer_out(dev, x, 10);
#else
  (void)coeff_len, (void)a_len, (void)b_len, (void)device, (void)host_fallback;
  return feint_error_set(FEINT_ERR_NO_DEVICE, __func__, __FILE__, __LINE__,
                         "feint was built without offload");
#endif
}

feint_status feint_integrate_mesh(const feint_integrate_desc *desc, const feint_mesh *mesh,
                                  const double *coeffs, double *A_e, double *b_e) {
  feint_mesh_kernel_args ka;
  size_t coeff_len, a_len, b_len;
  int run_device, host_fallback;
  if (mesh != NULL && mesh->num_elem == 0) { /* nothing to do, but a valid call */
    FEINT_CALL(check_desc(desc, 1, &run_device, &host_fallback));
    feint_execution_set(run_device && !host_fallback ? FEINT_TARGET_DEVICE : FEINT_TARGET_HOST,
                        desc->device, host_fallback);
    return FEINT_SUCCESS;
  }
  FEINT_CALL(check_call(desc, 1, mesh, coeffs, &ka, &coeff_len, &run_device, &host_fallback));
  FEINT_CHECK(A_e != NULL, FEINT_ERR_NULL_ARG, "A_e is NULL");
  FEINT_CHECK(b_e != NULL, FEINT_ERR_NULL_ARG, "b_e is NULL");
  FEINT_CALL(feint_array_len(desc->element, desc->problem, FEINT_ARRAY_A, desc->layout_out,
                             mesh->num_elem, &a_len));
  FEINT_CALL(feint_array_len(desc->element, desc->problem, FEINT_ARRAY_B, desc->layout_out,
                             mesh->num_elem, &b_len));
  /* outputs must not alias another array (feint_integrate's rule) */
  const feint_span arrays[5] = {{"A_e", A_e, a_len * sizeof(double), 1},
                                {"b_e", b_e, b_len * sizeof(double), 1},
                                {"coeffs", coeffs, coeff_len * sizeof(double), 0},
                                coords_span(mesh),
                                conn_span(mesh)};
  FEINT_CALL(feint_check_overlaps(__func__, arrays, 5));
  FEINT_CALL(check_elements(desc, mesh, coeffs, NULL, NULL));
  ka.output = FEINT_MESH_OUT_ELEMENT;
  ka.A = A_e;
  ka.b = b_e;
  FEINT_CALL(run_mesh_loop(desc->variant, &ka, coeff_len, a_len, b_len, run_device,
                           desc->device, host_fallback));
  feint_execution_set(run_device && !host_fallback ? FEINT_TARGET_DEVICE : FEINT_TARGET_HOST,
                      desc->device, host_fallback);
  return FEINT_SUCCESS;
}

/* ---- colouring ----------------------------------------------------------- */

/* Greedy colouring of the items of a mesh in item order, item k = elements
 * [k len, min((k + 1) len, num_elem)) (len = 1: single elements; len =
 * feint_asm_chunk_len: the host's chunks): item k takes the smallest colour
 * that no earlier item sharing one of its vertices has.  Colours are
 * searched 64 at a time (a bit mask per vertex); an item whose neighbours
 * use all 64 colours of a round waits for the next round.  Deterministic: a
 * pure function of the connectivity. */
static feint_status colour_items(const feint_mesh *mesh, size_t len, size_t num_items,
                                 uint32_t *colour, size_t *num_colours) {
  const size_t ne = mesh->num_elem, nv = mesh->num_vertices;
  const size_t ns = (size_t)feint_asm_nodes(mesh->element);
  uint64_t *used = malloc(nv * sizeof(uint64_t));
  FEINT_CHECK(used != NULL, FEINT_ERR_ALLOC, "cannot allocate %zu colour masks", nv);
  for (size_t k = 0; k < num_items; k++) colour[k] = UINT32_MAX;
  size_t left = num_items, base = 0;
  while (left > 0) {
    memset(used, 0, nv * sizeof(uint64_t));
    for (size_t k = 0; k < num_items; k++) {
      if (colour[k] != UINT32_MAX) continue;
      const uint32_t *v = mesh->conn + k * len * ns;
      const size_t nvk = ((k + 1) * len < ne ? len : ne - k * len) * ns;
      uint64_t taken = 0;
      for (size_t n = 0; n < nvk; n++) taken |= used[v[n]];
      if (taken == UINT64_MAX) continue;
      const int c = __builtin_ctzll(~taken);
      colour[k] = (uint32_t)(base + (size_t)c);
      for (size_t n = 0; n < nvk; n++) used[v[n]] |= 1ull << c;
      left--;
    }
    base += 64;
  }
  free(used);
  size_t nc = 0;
  for (size_t k = 0; k < num_items; k++)
    if ((size_t)colour[k] + 1 > nc) nc = (size_t)colour[k] + 1;
  *num_colours = nc;
  return FEINT_SUCCESS;
}

/* The colouring of items of `len` elements: *order (malloc'd) the items
 * sorted by colour, ascending within a colour, *colour_ptr (malloc'd,
 * [*num_colours + 1]) the colours' offsets in it.  All or nothing. */
static feint_status build_colouring(const feint_mesh *mesh, size_t len, size_t *num_colours,
                                    size_t **colour_ptr, uint32_t **order) {
  const size_t ni = (mesh->num_elem + len - 1) / len;
  uint32_t *colour = malloc(ni * sizeof(uint32_t)), *ord = malloc(ni * sizeof(uint32_t));
  if (!colour || !ord) {
    free(colour), free(ord);
    FEINT_CHECK(0, FEINT_ERR_ALLOC, "cannot allocate the colouring of %zu items", ni);
  }
  size_t nc = 0;
  feint_status st = colour_items(mesh, len, ni, colour, &nc);
  size_t *ptr = st == FEINT_SUCCESS ? calloc(nc + 1, sizeof(size_t)) : NULL;
  size_t *next = st == FEINT_SUCCESS ? malloc((nc + 1) * sizeof(size_t)) : NULL;
  if (st == FEINT_SUCCESS && (!ptr || !next))
    st = feint_error_set(FEINT_ERR_ALLOC, __func__, __FILE__, __LINE__,
                         "cannot allocate %zu colour offsets", nc + 1);
  if (st != FEINT_SUCCESS) {
    free(colour), free(ord), free(ptr), free(next);
    return st;
  }
  /* counting sort by colour, stable: ascending item order in a colour */
  for (size_t k = 0; k < ni; k++) ptr[colour[k] + 1]++;
  for (size_t c = 0; c < nc; c++) ptr[c + 1] += ptr[c];
  memcpy(next, ptr, nc * sizeof(size_t));
  for (size_t k = 0; k < ni; k++) ord[next[colour[k]]++] = (uint32_t)k;
  free(next), free(colour);
  *num_colours = nc;
  *colour_ptr = ptr;
  *order = ord;
  return FEINT_SUCCESS;
}

/* The reach of every block of FEINT_BLOCK_LEN elements, in chunks of `len`
 * elements (a multiple of FEINT_BLOCK_LEN): *reach (malloc'd) holds, for
 * block b, the lowest and the highest chunk with an element that shares a
 * vertex with an element of b (b's own chunk included) at [2 b] and
 * [2 b + 1].  Host atomic assembly adds plainly in a block whose reach lies
 * inside its thread's share of the chunks (kernel/chunk_loop.h): the rows of
 * its vertices get additions from that thread only.  Per block, not per
 * chunk: a Hilbert-ordered mesh's chunks are compact blobs, and a chunk on
 * the border of two shares has most of its blocks inside.  A function of the
 * elements' vertex sets (what the plan's fingerprint checks), not of their
 * order within an element. */
feint_status feint_asm_build_reach(const feint_mesh *mesh, size_t len, uint32_t **reach) {
  const size_t ne = mesh->num_elem, nv = mesh->num_vertices, B = FEINT_BLOCK_LEN;
  const size_t ns = (size_t)feint_asm_nodes(mesh->element), nb = (ne + B - 1) / B;
  uint32_t *first = malloc(nv * sizeof(uint32_t)), *last = malloc(nv * sizeof(uint32_t));
  uint32_t *r = malloc((2 * nb + 2) * sizeof(uint32_t)); /* + 2: never malloc(0) */
  if (!first || !last || !r) {
    free(first), free(last), free(r);
    FEINT_CHECK(0, FEINT_ERR_ALLOC, "cannot allocate the reach of %zu blocks", nb);
  }
  const uint32_t *conn = mesh->conn;
  for (size_t v = 0; v < nv; v++) first[v] = UINT32_MAX, last[v] = 0;
  for (size_t i = 0; i < ne * ns; i++) { /* chunks ascending: the first touch is the lowest */
    const uint32_t k = (uint32_t)(i / ns / len);
    if (first[conn[i]] == UINT32_MAX) first[conn[i]] = k;
    last[conn[i]] = k;
  }
  for (size_t b = 0; b < nb; b++) {
    uint32_t lo = (uint32_t)(b * B / len), hi = lo;
    for (size_t i = b * B * ns; i < (b + 1 < nb ? (b + 1) * B : ne) * ns; i++) {
      lo = first[conn[i]] < lo ? first[conn[i]] : lo;
      hi = last[conn[i]] > hi ? last[conn[i]] : hi;
    }
    r[2 * b] = lo, r[2 * b + 1] = hi;
  }
  free(first), free(last);
  *reach = r;
  return FEINT_SUCCESS;
}

const uint32_t *feint_asm_block_reach(const feint_assembly *plan) { return plan->block_reach; }

feint_status feint_assembly_create(const feint_mesh *mesh, feint_assembly **plan) {
  FEINT_CHECK(plan != NULL, FEINT_ERR_NULL_ARG, "plan is NULL");
  FEINT_CALL(feint_mesh_check(mesh));
  FEINT_CHECK(mesh->num_elem <= UINT32_MAX, FEINT_ERR_BAD_SIZE,
              "mesh->num_elem = %zu: the colour order holds 32-bit element indices",
              mesh->num_elem);
  feint_assembly *p = calloc(1, sizeof *p);
  FEINT_CHECK(p != NULL, FEINT_ERR_ALLOC, "cannot allocate the assembly plan");
  feint_status st = build_colouring(mesh, 1, &p->num_colours, &p->colour_ptr, &p->elem_order);
  if (st == FEINT_SUCCESS) {
    p->chunk_len = feint_asm_chunk_len(mesh->num_elem);
    st = build_colouring(mesh, p->chunk_len, &p->num_chunk_colours,
                         &p->chunk_colour_ptr, &p->chunk_order);
    if (st == FEINT_SUCCESS) {
      st = feint_asm_build_reach(mesh, p->chunk_len, &p->block_reach);
      if (st != FEINT_SUCCESS) free(p->chunk_colour_ptr), free(p->chunk_order);
    }
    if (st != FEINT_SUCCESS) free(p->colour_ptr), free(p->elem_order);
  }
  if (st != FEINT_SUCCESS) {
    free(p);
    return st;
  }
  p->num_elem = mesh->num_elem;
  p->num_vertices = mesh->num_vertices;
  p->conn_sets_fp = feint_asm_fingerprint_conn(mesh, 0);
  p->conn_fp = feint_asm_fingerprint_conn(mesh, 1);
  p->coords_fp = feint_asm_fingerprint_coords(mesh);
  feint_asm_geo_scan(mesh, &p->geo);
  *plan = p;
  return FEINT_SUCCESS;
}

feint_status feint_assembly_destroy(feint_assembly *plan) {
  if (plan == NULL) return FEINT_SUCCESS;
  free(plan->colour_ptr);
  free(plan->elem_order);
  free(plan->chunk_colour_ptr);
  free(plan->chunk_order);
  free(plan->block_reach);
  free(plan);
  return FEINT_SUCCESS;
}

feint_status feint_assembly_colouring(const feint_assembly *plan, size_t *num_colours,
                                      const size_t **colour_ptr, const uint32_t **elem_order) {
  FEINT_CHECK(plan != NULL, FEINT_ERR_NULL_ARG, "plan is NULL");
  if (num_colours) *num_colours = plan->num_colours;
  if (colour_ptr) *colour_ptr = plan->colour_ptr;
  if (elem_order) *elem_order = plan->elem_order;
  return FEINT_SUCCESS;
}

feint_status feint_assembly_chunks(const feint_assembly *plan, size_t *chunk_len,
                                   size_t *num_colours, const size_t **colour_ptr,
                                   const uint32_t **chunk_order) {
  FEINT_CHECK(plan != NULL, FEINT_ERR_NULL_ARG, "plan is NULL");
  if (chunk_len) *chunk_len = plan->chunk_len;
  if (num_colours) *num_colours = plan->num_chunk_colours;
  if (colour_ptr) *colour_ptr = plan->chunk_colour_ptr;
  if (chunk_order) *chunk_order = plan->chunk_order;
  return FEINT_SUCCESS;
}

/* ---- assembly ------------------------------------------------------------ */

/* The error of an assembly whose scatter found no place in A for `missing`
 * entries of element matrices (positions by search, checked in
 * kernel/scatter.h; skipped there, nothing written out of place).  A serial
 * rescan, on this error path only, names the first: lowest element, then
 * node pair (r, s), then the entry of its vertex block (one entry when N_C
 * = 1), the entries the scatter skipped (feint_asm_block_check tests the
 * positions the scatter computes), and says whether A lacks it or holds it
 * elsewhere than the 3 x 3 block of its vertex puts it. */
static feint_status report_missing(const char *func, const feint_mesh *mesh, const feint_csr *A,
                                   int nc, size_t missing) {
  const size_t ns = (size_t)feint_asm_nodes(mesh->element);
  const uint32_t *conn = mesh->conn;
  for (size_t e = 0; e < mesh->num_elem; e++)
    for (size_t r = 0; r < ns; r++)
      for (size_t s = 0; s < ns; s++) {
        const uint32_t v = conn[e * ns + r], w = conn[e * ns + s];
        int64_t k;
        const int first = feint_asm_block_check(A->row_ptr, A->col_idx, nc, v, w, &k);
        if (first == nc * nc) continue;
        const size_t row = (size_t)nc * v + (size_t)(first / nc);
        const int32_t col = nc * (int32_t)w + first % nc;
        if (feint_asm_pattern_find(A->row_ptr, A->col_idx, row, col) < 0)
          return feint_error_set(
              FEINT_ERR_UNSUPPORTED, func, __FILE__, __LINE__,
              "A has no entry (%zu, %d) for element %zu, nodes %zu and %zu: not a pattern of "
              "this mesh (%zu entries of element matrices found no place in A; A->values and b "
              "are unspecified)",
              row, (int)col, e, r, s, missing);
        return feint_error_set(
            FEINT_ERR_UNSUPPORTED, func, __FILE__, __LINE__,
            "A's entry (%zu, %d) for element %zu, nodes %zu and %zu, is not where the 3 x 3 block "
            "of vertex %u puts it: the rows %zu..%zu must have the same columns (%zu entries of "
            "element matrices found no place in A; A->values and b are unspecified)",
            row, (int)col, e, r, s, v, (size_t)nc * v, (size_t)nc * v + 2, missing);
      }
  return feint_error_set(FEINT_ERR_UNSUPPORTED, func, __FILE__, __LINE__,
                         "%zu entries of element matrices found no place in A, but a rescan "
                         "finds every entry (did A or the mesh change during the call?); "
                         "A->values and b are unspecified",
                         missing);
}

feint_status feint_assemble(const feint_integrate_desc *desc, feint_assemble_strategy strategy,
                            const feint_mesh *mesh, const feint_assembly *plan,
                            const double *coeffs, feint_csr *A, double *b) {
  return feint_assemble_mapped(desc, strategy, mesh, plan, NULL, coeffs, A, b);
}

feint_status feint_assemble_mapped(const feint_integrate_desc *desc,
                                   feint_assemble_strategy strategy, const feint_mesh *mesh,
                                   const feint_assembly *plan, const feint_assembly_map *map,
                                   const double *coeffs, feint_csr *A, double *b) {
  feint_mesh_kernel_args ka;
  size_t coeff_len;
  int run_device, host_fallback;
  FEINT_CHECK_ENUM(strategy, FEINT_ASSEMBLE_COUNT, "strategy", "feint_assemble_strategy");
  FEINT_CALL(check_call(desc, 0, mesh, coeffs, &ka, &coeff_len, &run_device, &host_fallback));
  FEINT_CHECK(plan != NULL, FEINT_ERR_NULL_ARG, "plan is NULL");
  FEINT_CHECK(A != NULL, FEINT_ERR_NULL_ARG, "A is NULL");
  FEINT_CHECK(b != NULL, FEINT_ERR_NULL_ARG, "b is NULL");
  FEINT_CHECK(plan->num_elem == mesh->num_elem && plan->num_vertices == mesh->num_vertices,
              FEINT_ERR_UNSUPPORTED,
              "plan was made for a mesh of %zu elements and %zu vertices, this mesh has %zu "
              "and %zu",
              plan->num_elem, plan->num_vertices, mesh->num_elem, mesh->num_vertices);
  FEINT_CHECK(A->row_ptr != NULL && A->col_idx != NULL && A->values != NULL,
              FEINT_ERR_NULL_ARG, "A->row_ptr, A->col_idx or A->values is NULL");
  const int nc = desc->problem == FEINT_ELASTICITY ? 3 : 1; /* dofs per vertex */
  const size_t nd = (size_t)nc * mesh->num_vertices;
  FEINT_CHECK(A->dofs_per_vertex == nc && A->num_rows == nd && A->num_cols == nd,
              FEINT_ERR_UNSUPPORTED,
              "A is %zu x %zu with %d dofs per vertex; %s on this mesh needs %zu x %zu with %d",
              A->num_rows, A->num_cols, A->dofs_per_vertex, feint_problem_name(desc->problem),
              nd, nd, nc);
  const int32_t *elem_map = NULL;
  const uint8_t *elem_map8 = NULL;
  /* The plan's colours hold for the mesh's vertex sets.  Map path: the
   * mesh's ordered fingerprint equals the map's (feint_asm_map_check), so
   * its sets are the map's, whose fingerprint is compared with the plan's;
   * one pass over mesh->conn either way. */
  const uint64_t conn_fp = map != NULL ? feint_asm_fingerprint_conn(mesh, 1) : 0;
  if (map != NULL)
    FEINT_CALL(feint_asm_map_check(map, mesh, conn_fp, A, &elem_map, &elem_map8));
  const uint64_t conn_sets_fp =
      map != NULL ? feint_asm_map_sets_fp(map) : feint_asm_fingerprint_conn(mesh, 0);
  FEINT_CHECK(conn_sets_fp == plan->conn_sets_fp, FEINT_ERR_UNSUPPORTED,
              "plan was made for another connectivity of the same sizes (the fingerprints of "
              "the elements' vertex sets differ): its colours could put two elements that share "
              "a vertex side by side; make it again with feint_assembly_create");
  if (map == NULL) /* (map path: the map's pattern fingerprint stands for this check) */
    FEINT_CALL(feint_csr_check_pattern(A, 1));
  /* outputs must not alias another array: A and b are zeroed before the
   * coefficients are read (b = coeffs once gave a wrong b with
   * FEINT_SUCCESS); after the pattern's checks, so A->nnz is the pattern's */
  const feint_span arrays[7] = {{"A->values", A->values, A->nnz * sizeof(double), 1},
                                {"b", b, nd * sizeof(double), 1},
                                {"coeffs", coeffs, coeff_len * sizeof(double), 0},
                                coords_span(mesh),
                                conn_span(mesh),
                                {"A->row_ptr", A->row_ptr, (nd + 1) * sizeof(int64_t), 0},
                                {"A->col_idx", A->col_idx, A->nnz * sizeof(int32_t), 0}};
  FEINT_CALL(feint_check_overlaps(__func__, arrays, 7));
  FEINT_CALL(check_elements(desc, mesh, coeffs, plan, map != NULL ? &conn_fp : NULL));
  const size_t nnz = A->nnz, nrows = A->num_rows;
  double *values = A->values;
#pragma omp parallel
  {
#pragma omp for schedule(static) nowait
    for (size_t k = 0; k < nnz; k++) values[k] = 0.0;
#pragma omp for schedule(static)
    for (size_t i = 0; i < nrows; i++) b[i] = 0.0;
  }
  ka.output = strategy == FEINT_ASSEMBLE_COLOURING ? FEINT_MESH_OUT_COLOURED
                                                   : FEINT_MESH_OUT_ATOMIC;
  ka.row_ptr = A->row_ptr;
  ka.col_idx = A->col_idx;
  ka.values = values;
  ka.rhs = b;
  ka.num_rows = nrows;
  ka.nnz = nnz;
  ka.elem_map = elem_map;
  ka.elem_map8 = elem_map8;
  size_t missing = 0; /* search: entries with no place in A (kernel/scatter.h) */
  ka.num_missing = &missing;
  ka.elem_order = plan->elem_order;
  ka.colour_ptr = plan->colour_ptr;
  ka.num_colours = plan->num_colours;
  ka.chunk_len = plan->chunk_len;
  ka.chunk_order = plan->chunk_order;
  ka.chunk_colour_ptr = plan->chunk_colour_ptr;
  ka.num_chunk_colours = plan->num_chunk_colours;
  ka.block_reach = plan->block_reach;
  FEINT_CALL(run_mesh_loop(desc->variant, &ka, coeff_len, 0, 0, run_device, desc->device,
                           host_fallback));
  if (missing != 0) return report_missing(__func__, mesh, A, nc, missing);
  feint_execution_set(run_device && !host_fallback ? FEINT_TARGET_DEVICE : FEINT_TARGET_HOST,
                      desc->device, host_fallback);
  return FEINT_SUCCESS;
}
