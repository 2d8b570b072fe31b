/*
 * kernel/driver_mesh_device.h - the device (OpenMP target offload) element
 * loop of a variant fed by a mesh; included by kernel/driver_mesh.h in
 * offload builds.  It defines
 *   void feint_variant_<name>_mesh_device(const feint_mesh_kernel_args *ka,
 *                                         int device, int host_fallback)
 * where the arrays of ka are device pointers on `device` (colour_ptr, read
 * only to launch the colours, stays on the host).
 *
 * Mapping: one thread per element, as kernel/driver_device.h: the thread
 * gathers its element's vertex coordinates through the connectivity into
 * registers, runs the variant's element function and writes A_e/b_e (layout
 * strides at run time) or adds into the CSR matrix and vector
 * (kernel/scatter.h): one kernel per colour with plain additions, or one
 * kernel with atomic additions.  One target region per case with literal et
 * and pb, so the per-element loops unroll; threads per team from
 * kernel/gpu_tuning.h.  Host fallback: a few teams of two threads.
 */
#ifndef FEINT_OFFLOAD
#error "kernel/driver_mesh_device.h is for offload builds (-DFEINT_OFFLOAD)"
#endif

#include <omp.h>

#include "kernel/gpu_tuning.h"

/* Element e: gather, integrate, send to the output (out a literal). */
FEINT_INLINE void FEINT_VFN(feint_mesh_elem_, _device)(
    const int et, const int pb, const int out, const size_t e, const int lin, const int lout,
    const double *coords, const uint32_t *conn, const double *coeffs, double *A, double *b,
    const int64_t *row_ptr, const int32_t *col_idx, double *values, double *rhs) {
  const size_t B = FEINT_B, ns = (size_t)feint_elem_nodes(et);
  const size_t cs = (size_t)feint_problem_coeffs(et, pb), as = ns * ns;
  const size_t lane = e % B, base = e - lane;
  const uint32_t *v = conn + e * ns;
  double geo[3 * FEINT_MAX_NODES], coef[FEINT_MAX_COEFFS];
  FEINT_UNROLL
  for (size_t n = 0; n < ns; n++)
    FEINT_UNROLL
    for (int a = 0; a < 3; a++) geo[3 * n + a] = coords[3 * (size_t)v[n] + a];
  const double *c = lin == FEINT_LAYOUT_BLOCKED ? coeffs + base * cs + lane : coeffs + e * cs;
  const size_t cstride = lin == FEINT_LAYOUT_BLOCKED ? B : 1;
  FEINT_UNROLL
  for (size_t k = 0; k < cs; k++) coef[k] = c[k * cstride];
  if (out == FEINT_MESH_OUT_ELEMENT) {
    const int blk_out = lout == FEINT_LAYOUT_BLOCKED;
    double *a = blk_out ? A + base * as + lane : A + e * as;
    double *bb = blk_out ? b + base * ns + lane : b + e * ns;
    FEINT_ELEMENT_FN(et, pb, geo, coef, 1, a, bb, blk_out ? FEINT_B : 1);
    return;
  }
  double Ae[FEINT_MAX_NODES * FEINT_MAX_NODES], be[FEINT_MAX_NODES];
  FEINT_ELEMENT_FN(et, pb, geo, coef, 1, Ae, be, 1);
  feint_scatter_element(et, out == FEINT_MESH_OUT_ATOMIC, v, Ae, be, 1, row_ptr, col_idx, values,
                        rhs);
}

/* Elements [lo, hi) of one case (element i: order[i], or i if order is
 * NULL), one per thread. */
#define FEINT_MESH_DEVICE_LOOP(ET, PB, OUT, lo, hi, order)                                      \
  do {                                                                                          \
    const size_t cnt_ = (hi) - (lo), lo_ = (lo);                                                \
    const uint32_t *ord_ = (order);                                                             \
    const size_t ts_ = FEINT_GPU_TEAM_SIZE_##ET##_##PB;                                         \
    int nt_ = (cnt_ + ts_ - 1) / ts_ < (1u << 30) ? (int)((cnt_ + ts_ - 1) / ts_) : 1 << 30;    \
    if (nt_ < 1) nt_ = 1;                                                                       \
    if (host_fallback) nt_ = fallback_teams;                                                    \
    FEINT_PRAGMA(omp target teams distribute parallel for device(device) num_teams(nt_)         \
                 thread_limit(FEINT_GPU_TEAM_SIZE_##ET##_##PB)                                  \
                 is_device_ptr(coords, conn, coeffs, A, b, row_ptr, col_idx, values, rhs, ord_)) \
    for (size_t i = 0; i < cnt_; i++)                                                           \
      FEINT_VFN(feint_mesh_elem_, _device)(FEINT_##ET, FEINT_##PB, OUT,                         \
                                           ord_ ? ord_[lo_ + i] : lo_ + i, lin, lout, coords,  \
                                           conn, coeffs, A, b, row_ptr, col_idx, values, rhs); \
  } while (0)

#define FEINT_MESH_DEVICE_CASE(ET, PB)                                                    \
  do {                                                                                    \
    if (output == FEINT_MESH_OUT_COLOURED) {                                              \
      for (size_t c_ = 0; c_ < num_colours; c_++)                                         \
        FEINT_MESH_DEVICE_LOOP(ET, PB, FEINT_MESH_OUT_COLOURED, colour_ptr[c_],           \
                               colour_ptr[c_ + 1], order);                                \
    } else if (output == FEINT_MESH_OUT_ATOMIC) {                                         \
      FEINT_MESH_DEVICE_LOOP(ET, PB, FEINT_MESH_OUT_ATOMIC, (size_t)0, n, NULL);          \
    } else {                                                                              \
      FEINT_MESH_DEVICE_LOOP(ET, PB, FEINT_MESH_OUT_ELEMENT, (size_t)0, n, NULL);         \
    }                                                                                     \
  } while (0)

void FEINT_VFN(feint_variant_, _mesh_device)(const feint_mesh_kernel_args *ka, int device,
                                             int host_fallback) {
  /* plain locals: the target regions capture these, never ka (a host pointer) */
  const double *coords = ka->coords, *coeffs = ka->coeffs;
  const uint32_t *conn = ka->conn, *order = ka->elem_order;
  double *A = ka->A, *b = ka->b, *values = ka->values, *rhs = ka->rhs;
  const int64_t *row_ptr = ka->row_ptr;
  const int32_t *col_idx = ka->col_idx;
  const size_t n = ka->num_elem, num_colours = ka->num_colours;
  const size_t *colour_ptr = ka->colour_ptr;
  const int lin = ka->layout_in, lout = ka->layout_out, output = ka->output;
  int fallback_teams = omp_get_num_procs() / 2;
  if (fallback_teams < 1) fallback_teams = 1;
  if (ka->element == FEINT_TET4 && ka->problem == FEINT_POISSON)
    FEINT_MESH_DEVICE_CASE(TET4, POISSON);
  else if (ka->element == FEINT_TET4)
    FEINT_MESH_DEVICE_CASE(TET4, CONVDIFF);
  else if (ka->problem == FEINT_POISSON)
    FEINT_MESH_DEVICE_CASE(PRISM6, POISSON);
  else
    FEINT_MESH_DEVICE_CASE(PRISM6, CONVDIFF);
}
