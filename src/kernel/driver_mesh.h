/*
 * kernel/driver_mesh.h - the element loop of a variant fed by a mesh (a
 * template, included by kernel/driver.h, so every variant file instantiates
 * it with its own FEINT_ELEMENT_FN).  It defines
 *   void feint_variant_<name>_mesh_host(const feint_mesh_kernel_args *)
 * (and, in offload builds, feint_variant_<name>_mesh_device from
 * kernel/driver_mesh_device.h).
 *
 * Input path: a block of FEINT_BLOCK_LEN elements at a time, each lane's
 * vertex coordinates gathered through the connectivity (coords[conn[e][n]])
 * into a block buffer in blocked layout, and the coefficients copied there
 * from either layout; no per-element geometry array exists in memory.  The
 * variant's element function then runs lane-parallel (omp simd) on the
 * buffer, exactly as in kernel/driver.h.
 *
 * Output paths (ka->output):
 *  - FEINT_MESH_OUT_ELEMENT: A_e, b_e per element in layout_out; threads own
 *    contiguous ranges of blocks (schedule(static)).
 *  - FEINT_MESH_OUT_COLOURED: add into the CSR values and the vector
 *    (kernel/scatter.h), colour after colour: within a colour no two
 *    elements share a vertex, so the threads splitting a colour's blocks
 *    never touch the same entry, and each entry receives its contributions
 *    in colour order - the same bits for any thread count.  The implicit
 *    barrier of each colour's `omp for` separates the colours.
 *  - FEINT_MESH_OUT_ATOMIC: add with `omp atomic update`, elements in mesh
 *    order, blocks shared statically among the threads.
 * A^e of the scatter paths lives only in the block buffer (on the stack).
 * Each case (element x problem) is a separate instantiation with literal et
 * and pb, so every inner loop is fully unrolled.
 */
#ifndef FEINT_VARIANT_NAME
#error "kernel/driver_mesh.h is included by kernel/driver.h"
#endif

#include "kernel/scatter.h"

/* Gather block [i0, i0 + nvalid) (element i of the block: order[i] if order
 * != NULL, else i) into blocked buffers, run the variant on every lane, and
 * send the block to its output.  Lanes past nvalid repeat lane 0's element
 * and are discarded. */
FEINT_INLINE void FEINT_VFN(feint_mesh_block_, _host)(const feint_mesh_kernel_args *ka,
                                                      const int et, const int pb, const int out,
                                                      const size_t i0, const int nvalid,
                                                      const uint32_t *order) {
  const int ns = feint_elem_nodes(et), cs = feint_problem_coeffs(et, pb);
  const uint32_t *conn = ka->conn;
  const double *coords = ka->coords, *coeffs = ka->coeffs;
  double geo[3 * FEINT_MAX_NODES * FEINT_B] __attribute__((aligned(64)));
  double coef[FEINT_MAX_COEFFS * FEINT_B] __attribute__((aligned(64)));
  double A[FEINT_MAX_NODES * FEINT_MAX_NODES * FEINT_B] __attribute__((aligned(64)));
  double b[FEINT_MAX_NODES * FEINT_B] __attribute__((aligned(64)));
  size_t elem[FEINT_B];
  for (int l = 0; l < FEINT_B; l++) {
    const size_t i = i0 + (size_t)(l < nvalid ? l : 0);
    elem[l] = order ? order[i] : i;
  }
  for (int l = 0; l < FEINT_B; l++) {
    const uint32_t *v = conn + elem[l] * (size_t)ns;
    FEINT_UNROLL
    for (int n = 0; n < ns; n++) {
      const double *x = coords + 3 * (size_t)v[n];
      FEINT_UNROLL
      for (int a = 0; a < 3; a++) geo[(3 * n + a) * FEINT_B + l] = x[a];
    }
  }
  if (ka->layout_in == FEINT_LAYOUT_BLOCKED) {
    for (int l = 0; l < FEINT_B; l++) {
      const size_t e = elem[l];
      const double *c = coeffs + (e - e % FEINT_B) * (size_t)cs + e % FEINT_B;
      FEINT_UNROLL
      for (int k = 0; k < cs; k++) coef[k * FEINT_B + l] = c[k * FEINT_B];
    }
  } else {
    for (int l = 0; l < FEINT_B; l++) {
      const double *c = coeffs + elem[l] * (size_t)cs;
      FEINT_UNROLL
      for (int k = 0; k < cs; k++) coef[k * FEINT_B + l] = c[k];
    }
  }
  FEINT_OMP(simd)
  for (int lane = 0; lane < FEINT_B; lane++)
    FEINT_ELEMENT_FN(et, pb, geo + lane, coef + lane, FEINT_B, A + lane, b + lane, FEINT_B);

  if (out == FEINT_MESH_OUT_ELEMENT) {
    const size_t as = (size_t)ns * ns;
    if (ka->layout_out == FEINT_LAYOUT_BLOCKED) { /* the buffer is the chunk */
      double *Ac = ka->A + i0 * as, *bc = ka->b + i0 * (size_t)ns;
      for (int k = 0; k < ns * ns; k++)
        for (int l = 0; l < nvalid; l++) Ac[k * FEINT_B + l] = A[k * FEINT_B + l];
      for (int k = 0; k < ns; k++)
        for (int l = 0; l < nvalid; l++) bc[k * FEINT_B + l] = b[k * FEINT_B + l];
    } else {
      for (int l = 0; l < nvalid; l++) {
        double *Ae = ka->A + (i0 + l) * as, *be = ka->b + (i0 + l) * (size_t)ns;
        FEINT_UNROLL
        for (int k = 0; k < ns * ns; k++) Ae[k] = A[k * FEINT_B + l];
        FEINT_UNROLL
        for (int k = 0; k < ns; k++) be[k] = b[k * FEINT_B + l];
      }
    }
    return;
  }
  for (int l = 0; l < nvalid; l++)
    feint_scatter_element(et, out == FEINT_MESH_OUT_ATOMIC, conn + elem[l] * (size_t)ns, A + l,
                          b + l, FEINT_B, ka->row_ptr, ka->col_idx, ka->values, ka->rhs);
}

/* One case inside the enclosing parallel region (literal et, pb). */
FEINT_INLINE void FEINT_VFN(feint_mesh_case_, _host)(const feint_mesh_kernel_args *ka,
                                                     const int et, const int pb) {
  if (ka->output == FEINT_MESH_OUT_COLOURED) {
    for (size_t c = 0; c < ka->num_colours; c++) {
      const size_t lo = ka->colour_ptr[c], hi = ka->colour_ptr[c + 1];
      const size_t num_blk = (hi - lo + FEINT_B - 1) / FEINT_B;
      FEINT_OMP(for schedule(static))
      for (size_t blk = 0; blk < num_blk; blk++) {
        const size_t i0 = lo + blk * FEINT_B;
        const int nvalid = hi - i0 < FEINT_B ? (int)(hi - i0) : FEINT_B;
        FEINT_VFN(feint_mesh_block_, _host)(ka, et, pb, FEINT_MESH_OUT_COLOURED, i0, nvalid,
                                            ka->elem_order);
      }
    }
    return;
  }
  const size_t n = ka->num_elem, num_blk = (n + FEINT_B - 1) / FEINT_B;
  const int out = ka->output;
  FEINT_OMP(for schedule(static))
  for (size_t blk = 0; blk < num_blk; blk++) {
    const size_t i0 = blk * FEINT_B;
    const int nvalid = n - i0 < FEINT_B ? (int)(n - i0) : FEINT_B;
    if (out == FEINT_MESH_OUT_ATOMIC)
      FEINT_VFN(feint_mesh_block_, _host)(ka, et, pb, FEINT_MESH_OUT_ATOMIC, i0, nvalid, NULL);
    else
      FEINT_VFN(feint_mesh_block_, _host)(ka, et, pb, FEINT_MESH_OUT_ELEMENT, i0, nvalid, NULL);
  }
}

void FEINT_VFN(feint_variant_, _mesh_host)(const feint_mesh_kernel_args *ka) {
  FEINT_OMP(parallel)
  {
    if (ka->element == FEINT_TET4 && ka->problem == FEINT_POISSON)
      FEINT_VFN(feint_mesh_case_, _host)(ka, FEINT_TET4, FEINT_POISSON);
    else if (ka->element == FEINT_TET4)
      FEINT_VFN(feint_mesh_case_, _host)(ka, FEINT_TET4, FEINT_CONVDIFF);
    else if (ka->problem == FEINT_POISSON)
      FEINT_VFN(feint_mesh_case_, _host)(ka, FEINT_PRISM6, FEINT_POISSON);
    else
      FEINT_VFN(feint_mesh_case_, _host)(ka, FEINT_PRISM6, FEINT_CONVDIFF);
  }
}

#ifdef FEINT_OFFLOAD
#include "kernel/driver_mesh_device.h"
#endif
