/*
 * kernel/driver_mesh.h - the element loop of a variant fed by a mesh (a
 * template, included by kernel/driver.h, so every variant file instantiates
 * it with its own FEINT_ELEMENT_FN).  It defines
 *   void feint_variant_<name>_mesh_host(const feint_mesh_kernel_args *)
 * (and, in offload builds, feint_variant_<name>_mesh_device from
 * kernel/driver_mesh_device.h).
 *
 * Input path: a block of FEINT_BLOCK_LEN elements at a time (what the
 * blocks ahead will read prefetched: feint_mesh_prefetch_<name>_host), each lane's
 * vertex coordinates gathered through the connectivity (coords[conn[e][n]])
 * into a block buffer in blocked layout, 4 lanes at a time transposed in
 * registers, and the coefficients read as kernel/driver.h reads them
 * (kernel/gather.h's feint_gather_block); no per-element geometry array
 * exists in memory.  The
 * variant's element function then runs lane-parallel (omp simd) on the
 * buffer: the case's block of kernel/driver.h (shared = 1: hex8's out of
 * line, one copy shared with the operator loop).
 *
 * Output paths (ka->output):
 * Elements go in chunks of ka->chunk_len consecutive ones (a multiple of
 * FEINT_BLOCK_LEN), each chunk run in order by one thread.
 *  - FEINT_MESH_OUT_ELEMENT: A_e, b_e per element in layout_out, leaving
 *    as kernel/driver.h's blocks do (feint_block_out: streaming stores,
 *    natural rows transposed in registers); threads own contiguous ranges
 *    of chunks (schedule(static)).
 *  - FEINT_MESH_OUT_COLOURED: add into the CSR values and the vector
 *    (kernel/scatter.h: positions by search, checked, entries with no place
 *    in the pattern counted into ka->num_missing, or from ka->elem_map8 /
 *    ka->elem_map when the caller gave a feint_assembly_map), chunk colour
 *    after chunk colour: no two chunks of a colour share a vertex, so the
 *    threads splitting a colour's chunks never touch the same entry, and
 *    each entry receives its contributions in colour order, then element
 *    order within its one chunk - the same bits for any thread count.  A
 *    chunk's elements are neighbours in a locality-ordered mesh, so the CSR
 *    rows they add into stay in cache while the chunk runs (colouring
 *    single elements instead sweeps the whole matrix once per colour).
 *  - FEINT_MESH_OUT_ATOMIC: add with `omp atomic update`, chunks in mesh
 *    order, each thread a contiguous share of them; plain additions in a
 *    block whose vertices no chunk of another share touches
 *    (ka->block_reach, kernel/chunk_loop.h's feint_block_private).
 * A^e of the scatter paths lives only in the block buffer (on the stack).
 * Every case of FEINT_FOR_EACH_CASE (element x problem, scalar or 3 dofs per
 * vertex) is a separate instantiation with literal et and pb, so every inner
 * loop is fully unrolled; the output is chosen at run time per block, so the
 * element function is compiled once per case, not once per output.
 */
#ifndef FEINT_VARIANT_NAME
#error "kernel/driver_mesh.h is included by kernel/driver.h"
#endif

#include "kernel/chunk_loop.h"
#include "kernel/gather.h"
#include "kernel/scatter.h"

/* Software prefetch of the mesh loop, called once per block at i0: what
 * the gather reads, and the row offsets of the vertices of the block 2
 * ahead (kernel/gather.h's feint_prefetch_mesh_block); the position map
 * FEINT_PREFETCH_AHEAD blocks ahead; the first two lines of each CSR row,
 * and the vector entry, of the vertices of the next block (their row
 * offsets are in cache by then).  The blocks after a chunk's last block
 * may belong to another chunk (a few wasted lines per chunk).  tet4
 * Poisson, 4.09 M elements, one thread, Zen 3, min (median) of 6
 * alternated runs, ns per element, Hilbert order: map 63.8 (69.5) -> 48.1
 * (59.9), search 122.7 (132.1) -> 96.6 (100.2); box generator order (lines
 * of vertices, which the hardware already follows): map 42.0 (45.9) ->
 * 43.5 (48.1), search 79.3 (83.2) -> 84.5 (87.2). */
FEINT_INLINE void FEINT_VFN(feint_mesh_prefetch_, _host)(const feint_mesh_kernel_args *ka,
                                                         const int et, const int pb,
                                                         const int out, const size_t i0) {
  const int ns = feint_elem_nodes(et), nc = feint_problem_comps(pb);
  const int cs = feint_problem_coeffs(et, pb), scatter = out != FEINT_MESH_OUT_ELEMENT;
  const size_t B = FEINT_B, ne = ka->num_elem, far = i0 + FEINT_PREFETCH_AHEAD * B;
  const size_t next = i0 + B;
  const uint32_t *conn = ka->conn;
  feint_prefetch_mesh_block(conn, ns, ne, i0, FEINT_PREFETCH_AHEAD, 2, ka->coeffs, cs,
                            ka->coords, 3 * sizeof(double), scatter ? ka->row_ptr : NULL,
                            nc * sizeof(*ka->row_ptr));
  if (scatter && ka->elem_map8 != NULL && far + B <= ne)
    feint_prefetch_bytes(ka->elem_map8 + far * (size_t)(ns * ns), FEINT_B * ns * ns);
  else if (scatter && ka->elem_map != NULL && far + B <= ne)
    feint_prefetch_bytes(ka->elem_map + far * (size_t)(ns * ns),
                         FEINT_B * ns * ns * (int)sizeof(int32_t));
  const int search = ka->elem_map8 == NULL && ka->elem_map == NULL;
  if (scatter && next + B <= ne)
    for (size_t k = next * ns; k < (next + B) * ns; k++) {
      const size_t v = nc * (size_t)conn[k];
      const double *row = ka->values + ka->row_ptr[v];
      __builtin_prefetch(row, 1);
      __builtin_prefetch(row + 8, 1);
      __builtin_prefetch(ka->rhs + v, 1);
      if (search) __builtin_prefetch(ka->col_idx + ka->row_ptr[v], 0);
    }
}

/* Add the block's nvalid lanes (elements elem[l], A^e and b^e of lane l
 * at A + l and b + l with stride FEINT_B) into the CSR values and the
 * vector, through kernel/scatter.h: positions from ka->elem_map8 or
 * ka->elem_map (the width's own loop, the other map a literal NULL), or
 * by search, checked, a nonzero count of entries with no place added to
 * *ka->num_missing.  `atomic` is a literal at both calls, so each of the
 * six loops compiles to its own additions. */
FEINT_INLINE void FEINT_VFN(feint_mesh_scatter_, _host)(const feint_mesh_kernel_args *ka,
                                                        const int et, const int pb,
                                                        const int atomic, const size_t i0,
                                                        const int nvalid, const size_t *elem,
                                                        const double *A, const double *b) {
  const int ns = feint_elem_nodes(et);
  const uint32_t *conn = ka->conn;
  if (ka->elem_map8 != NULL) { /* positions from the map, 1-byte */
    const uint8_t *map = ka->elem_map8 + i0 * (size_t)(ns * ns);
    for (int l = 0; l < nvalid; l++)
      feint_scatter_element_mapped(et, pb, atomic, conn + elem[l] * (size_t)ns, NULL,
                                   map + l * ns * ns, A + l, b + l, FEINT_B, ka->row_ptr,
                                   ka->values, ka->rhs);
  } else if (ka->elem_map != NULL) { /* positions from the map, 32-bit */
    const int32_t *map = ka->elem_map + i0 * (size_t)(ns * ns);
    for (int l = 0; l < nvalid; l++)
      feint_scatter_element_mapped(et, pb, atomic, conn + elem[l] * (size_t)ns,
                                   map + l * ns * ns, NULL, A + l, b + l, FEINT_B, ka->row_ptr,
                                   ka->values, ka->rhs);
  } else { /* positions by search, checked: entries with no place counted */
    int missing = 0;
    for (int l = 0; l < nvalid; l++)
      missing += feint_scatter_element(et, pb, atomic, conn + elem[l] * (size_t)ns, A + l, b + l,
                                       FEINT_B, ka->row_ptr, ka->col_idx, (int64_t)ka->nnz,
                                       ka->values, ka->rhs);
    if (missing) { /* the shared counter is touched only on a miss */
      FEINT_OMP(atomic update)
      *ka->num_missing += (size_t)missing;
    }
  }
}

/* Gather elements [i0, i0 + nvalid) into blocked buffers (kernel/gather.h),
 * run the variant on every lane, and send the block to output `out` (a
 * run-time value: one call of the case's block function, whatever the
 * output).  Lanes past nvalid repeat lane 0's element and are discarded. */
FEINT_INLINE void FEINT_VFN(feint_mesh_block_, _host)(const feint_mesh_kernel_args *ka,
                                                      const int et, const int pb, const int out,
                                                      const size_t i0, const int nvalid) {
  const int nd = feint_problem_dofs(et, pb);
  const uint32_t *conn = ka->conn;
  double geo[3 * FEINT_MAX_NODES * FEINT_B] __attribute__((aligned(64)));
  double coef[FEINT_MAX_COEFFS * FEINT_B] __attribute__((aligned(64)));
  double A[FEINT_MAX_DOFS * FEINT_MAX_DOFS * FEINT_B] __attribute__((aligned(64)));
  double b[FEINT_MAX_DOFS * FEINT_B] __attribute__((aligned(64)));
  size_t elem[FEINT_B];
  feint_block_elems(i0, nvalid, elem);
  FEINT_VFN(feint_mesh_prefetch_, _host)(ka, et, pb, out, i0);
  const double *cf = feint_gather_block(et, pb, ka->layout_in, conn, ka->coords, ka->coeffs, i0,
                                        nvalid, geo, coef);
  FEINT_VFN(feint_block_, _host)(et, pb, 1, geo, cf, A, b, NULL);

  if (out == FEINT_MESH_OUT_ELEMENT) { /* as kernel/driver.h's blocks leave */
    double tmp[FEINT_MAX_DOFS * FEINT_MAX_DOFS * FEINT_B] __attribute__((aligned(64)));
    feint_block_out(ka->layout_out, ka->A, nd * nd, i0 / FEINT_B, nvalid, A, tmp);
    feint_block_out(ka->layout_out, ka->b, nd, i0 / FEINT_B, nvalid, b, tmp);
  } else if (out == FEINT_MESH_OUT_ATOMIC) {
    FEINT_VFN(feint_mesh_scatter_, _host)(ka, et, pb, 1, i0, nvalid, elem, A, b);
  } else {
    FEINT_VFN(feint_mesh_scatter_, _host)(ka, et, pb, 0, i0, nvalid, elem, A, b);
  }
}

/* One case inside the enclosing parallel region (literal et, pb): the
 * chunk loop (kernel/chunk_loop.h), chunk colour by chunk colour for the
 * coloured output, every chunk at once for the others; one call site of
 * the block function.  Atomic output adds plainly in a block whose vertices'
 * elements all lie in its thread's share of the chunks (ka->block_reach):
 * no other thread adds into those rows during the loop. */
FEINT_INLINE void FEINT_VFN(feint_mesh_case_, _host)(const feint_mesh_kernel_args *ka,
                                                     const int et, const int pb) {
  const int out = ka->output;
  FEINT_HOST_CHUNK_LOOP(
      out == FEINT_MESH_OUT_COLOURED, ka->num_elem, ka->chunk_len, ka->num_chunk_colours,
      ka->chunk_colour_ptr, ka->chunk_order,
      const int plain = out == FEINT_MESH_OUT_ATOMIC &&
                        feint_block_private(ka->block_reach, i0 / FEINT_B, share_lo, share_hi);
      FEINT_VFN(feint_mesh_block_, _host)(ka, et, pb, plain ? FEINT_MESH_OUT_COLOURED : out, i0,
                                          nvalid));
}

void FEINT_VFN(feint_variant_, _mesh_host)(const feint_mesh_kernel_args *ka) {
  FEINT_OMP(parallel)
  {
#define FEINT_MESH_HOST_CASE(ET, PB)                                  \
  if (ka->element == FEINT_##ET && ka->problem == FEINT_##PB)         \
    FEINT_VFN(feint_mesh_case_, _host)(ka, FEINT_##ET, FEINT_##PB);   \
  else
    FEINT_FOR_EACH_CASE(FEINT_MESH_HOST_CASE) {}
#undef FEINT_MESH_HOST_CASE
  }
}

#ifdef FEINT_OFFLOAD
#include "kernel/driver_mesh_device.h"
#endif
