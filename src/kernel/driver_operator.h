/*
 * kernel/driver_operator.h - the matrix-free operator loop of a variant
 * (FEINT_OPERATOR_RECOMPUTE): y += sum_e A^e x_e with A^e recomputed from
 * the mesh at every application and never stored.  A template included by
 * kernel/driver.h, so every variant file instantiates it with its own
 * FEINT_ELEMENT_FN; it defines
 *   void feint_variant_<name>_op_host(const feint_op_kernel_args *)
 * and, in offload builds, feint_variant_<name>_op_device (below).
 *
 * Host mapping: as kernel/driver_mesh.h - a block of FEINT_BLOCK_LEN
 * elements at a time, each lane's vertex coordinates gathered through the
 * connectivity into a blocked buffer (no geometry array exists), the
 * variant's element function lane-parallel (the case's shared block,
 * kernel/driver.h) into a block buffer A[nd * nd][B] that stays in L1,
 * then x_e gathered (x[dof of row r of lane l]), y_e = A^e x_e
 * lane-parallel, and y_e added into y.  The elements go
 * in chunks of consecutive ones (feint_assembly_chunks), each run in order
 * by one thread: chunk colour by chunk colour with plain additions (no two
 * chunks of a colour share a vertex; each entry gets its contributions in
 * colour order, then element order: bitwise reproducible for any thread
 * count), or all chunks at once with `omp atomic update`.  A chunk's
 * elements are neighbours in a locality-ordered mesh, so the coordinates,
 * x and y entries they touch stay in cache while it runs, and the mesh's
 * own connectivity is streamed in its order (element colouring instead
 * jumped through the mesh; tet4 Poisson, one Zen 1 core, 4 M elements: 16.0
 * -> 9.9 ns per element precomputed, 44.6 -> 31.1 recomputed).  The variant's b^e is computed and
 * dropped (the variants compute A^e and b^e together; for Poisson b^e costs
 * N_Q N_S multiply-adds of the element's ~100-1000 flops).
 *
 * Device mapping: one thread per element (kernel/driver_mesh_device.h's):
 * gather into registers, A^e in thread-local memory, y_e = A^e x_e, then the
 * additions (one kernel per colour, or one kernel with atomics).
 */
#ifndef FEINT_VARIANT_NAME
#error "kernel/driver_operator.h is included by kernel/driver.h"
#endif

#include "kernel/chunk_loop.h"
#include "kernel/gather.h"
#include "operator/op_kernel.h"

/* Block [i0, i0 + nvalid) of elements; lanes past nvalid repeat lane 0's
 * element and are dropped. */
FEINT_INLINE void FEINT_VFN(feint_op_block_, _host)(const feint_op_kernel_args *ka, const int et,
                                                    const int pb, const int atomic,
                                                    const size_t i0, const int nvalid) {
  const int ns = feint_elem_nodes(et);
  const int nd = feint_problem_dofs(et, pb), nc = feint_problem_comps(pb);
  const uint32_t *conn = ka->conn;
  double *y = ka->y;
  double geo[3 * FEINT_MAX_NODES * FEINT_B] __attribute__((aligned(64)));
  double coef[FEINT_MAX_COEFFS * FEINT_B] __attribute__((aligned(64)));
  double A[FEINT_MAX_DOFS * FEINT_MAX_DOFS * FEINT_B] __attribute__((aligned(64)));
  double b[FEINT_MAX_DOFS * FEINT_B] __attribute__((aligned(64)));
  double xe[FEINT_MAX_DOFS * FEINT_B] __attribute__((aligned(64)));
  double ye[FEINT_MAX_DOFS * FEINT_B] __attribute__((aligned(64)));
  size_t elem[FEINT_B];
  feint_block_elems(i0, nvalid, elem);
  /* software prefetch: what the gathers read (coordinates and x of the
   * vertices of the block 2 ahead, kernel/gather.h), the y entries of the
   * next block's vertices.  tet4 Poisson, 4.09 M elements, one Zen 3
   * thread, colouring, min of 3 alternated runs: Hilbert order 25.1 -> 20.3
   * ns per element; the generator's order (lines the hardware follows) 17.5
   * -> 19.6 (bench/results/operator_prefetch/) */
  const size_t ne = ka->num_elem, next = i0 + FEINT_B;
  feint_prefetch_mesh_block(conn, ns, ne, i0, FEINT_PREFETCH_AHEAD, 2, ka->coeffs,
                            feint_problem_coeffs(et, pb), ka->coords, 3 * sizeof(double), ka->x,
                            nc * sizeof(double));
  if (next + FEINT_B <= ne)
    for (size_t k = next * ns; k < (next + FEINT_B) * ns; k++)
      __builtin_prefetch(y + nc * (size_t)conn[k], 1);
  const double *cf = feint_gather_block(et, pb, ka->layout_in, conn, ka->coords, ka->coeffs, i0,
                                        nvalid, geo, coef);
  feint_gather_dofs_block(et, pb, conn, ka->x, elem, xe);
  FEINT_VFN(feint_block_, _host)(et, pb, 1, geo, cf, A, b, NULL);
  FEINT_OMP(simd)
  for (int lane = 0; lane < FEINT_B; lane++) {
    FEINT_UNROLL
    for (int r = 0; r < nd; r++) {
      double s = 0.0;
      FEINT_UNROLL
      for (int c = 0; c < nd; c++) s += A[(r * nd + c) * FEINT_B + lane] * xe[c * FEINT_B + lane];
      ye[r * FEINT_B + lane] = s;
    }
  }
  for (int l = 0; l < nvalid; l++) {
    const uint32_t *v = conn + elem[l] * (size_t)ns;
    FEINT_UNROLL
    for (int r = 0; r < nd; r++) {
      double *dst = y + (size_t)v[r / nc] * nc + r % nc;
      if (atomic) {
        FEINT_OMP(atomic update)
        *dst += ye[r * FEINT_B + l];
      } else {
        *dst += ye[r * FEINT_B + l];
      }
    }
  }
}

/* One case inside the enclosing parallel region (literal et, pb): the
 * chunk loop (kernel/chunk_loop.h), chunk colour by chunk colour with plain
 * additions, or every chunk at once with atomic ones, but for a block whose
 * vertices' elements all lie in its thread's share (ka->block_reach): plain
 * additions, no other thread adds into those entries of y. */
FEINT_INLINE void FEINT_VFN(feint_op_case_, _host)(const feint_op_kernel_args *ka, const int et,
                                                   const int pb) {
  const int coloured = !ka->atomic;
  FEINT_HOST_CHUNK_LOOP(
      coloured, ka->num_elem, ka->chunk_len, ka->num_chunk_colours, ka->chunk_colour_ptr,
      ka->chunk_order,
      if (coloured || feint_block_private(ka->block_reach, i0 / FEINT_B, share_lo, share_hi))
          FEINT_VFN(feint_op_block_, _host)(ka, et, pb, 0, i0, nvalid);
      else FEINT_VFN(feint_op_block_, _host)(ka, et, pb, 1, i0, nvalid));
}

void FEINT_VFN(feint_variant_, _op_host)(const feint_op_kernel_args *ka) {
  FEINT_OMP(parallel)
  {
#define FEINT_OP_HOST_CASE(ET, PB)                            \
  if (ka->element == FEINT_##ET && ka->problem == FEINT_##PB) \
    FEINT_VFN(feint_op_case_, _host)(ka, FEINT_##ET, FEINT_##PB);   \
  else
    FEINT_OP_FOR_EACH_CASE(FEINT_OP_HOST_CASE) {}
#undef FEINT_OP_HOST_CASE
  }
}

#ifdef FEINT_OFFLOAD
#include <omp.h>

#include "kernel/gpu_tuning.h"

/* Element e: gather, integrate, y_e = A^e x_e, add (atomic a literal). */
FEINT_INLINE void FEINT_VFN(feint_op_elem_, _device)(const int et, const int pb, const int atomic,
                                                     const size_t e, const int lin,
                                                     const double *coords, const uint32_t *conn,
                                                     const double *coeffs, const double *x,
                                                     double *y) {
  const int nd = feint_problem_dofs(et, pb), nc = feint_problem_comps(pb);
  const uint32_t *v = conn + e * (size_t)feint_elem_nodes(et);
  double geo[3 * FEINT_MAX_NODES], coef[FEINT_MAX_COEFFS];
  double Ae[FEINT_MAX_DOFS * FEINT_MAX_DOFS], be[FEINT_MAX_DOFS], xe[FEINT_MAX_DOFS];
  feint_gather_element(et, pb, lin, conn, coords, coeffs, e, geo, coef, 1);
  FEINT_ELEMENT_FN(et, pb, geo, coef, 1, Ae, be, 1);
  feint_gather_dofs(et, pb, v, x, xe, 1);
  FEINT_UNROLL
  for (int r = 0; r < nd; r++) {
    double s = 0.0;
    FEINT_UNROLL
    for (int q = 0; q < nd; q++) s += Ae[r * nd + q] * xe[q];
    double *dst = y + (size_t)v[r / nc] * nc + r % nc;
    if (atomic) {
      FEINT_OMP(atomic update)
      *dst += s;
    } else {
      *dst += s;
    }
  }
}

/* Elements [lo, hi) of one case, one per thread. */
#define FEINT_OP_DEVICE_LOOP(ET, PB, ATOMIC, lo, hi)                                            \
  do {                                                                                          \
    const size_t cnt_ = (hi) - (lo), lo_ = (lo);                                                \
    const int nt_ = feint_gpu_num_teams(cnt_, FEINT_GPU_TEAM_SIZE_##ET##_##PB, host_fallback,   \
                                        fallback_teams);                                        \
    FEINT_PRAGMA(omp target teams distribute parallel for device(device) num_teams(nt_)         \
                 thread_limit(FEINT_GPU_TEAM_SIZE_##ET##_##PB)                                  \
                 is_device_ptr(coords, conn, coeffs, x, y))                                     \
    for (size_t i = 0; i < cnt_; i++)                                                           \
      FEINT_VFN(feint_op_elem_, _device)(FEINT_##ET, FEINT_##PB, ATOMIC, lo_ + i, lin, coords, \
                                         conn, coeffs, x, y);                                   \
  } while (0)

void FEINT_VFN(feint_variant_, _op_device)(const feint_op_kernel_args *ka, int device,
                                           int host_fallback) {
  /* plain locals: the target regions capture these, never ka (a host pointer) */
  const double *coords = ka->coords, *coeffs = ka->coeffs, *x = ka->x;
  const uint32_t *conn = ka->conn;
  double *y = ka->y;
  const size_t n = ka->num_elem, num_colours = ka->num_colours;
  const size_t *colour_ptr = ka->colour_ptr;
  const int lin = ka->layout_in, atomic = ka->atomic;
  int fallback_teams = omp_get_num_procs() / 2;
  if (fallback_teams < 1) fallback_teams = 1;
#define FEINT_OP_DEVICE_CASE(ET, PB)                                                      \
  if (ka->element == FEINT_##ET && ka->problem == FEINT_##PB) {                           \
    if (atomic) {                                                                         \
      FEINT_OP_DEVICE_LOOP(ET, PB, 1, (size_t)0, n);                                      \
    } else {                                                                              \
      for (size_t c_ = 0; c_ < num_colours; c_++)                                         \
        FEINT_OP_DEVICE_LOOP(ET, PB, 0, colour_ptr[c_], colour_ptr[c_ + 1]);              \
    }                                                                                     \
  } else
  FEINT_OP_FOR_EACH_CASE(FEINT_OP_DEVICE_CASE) {}
#undef FEINT_OP_DEVICE_CASE
}
#endif /* FEINT_OFFLOAD */
