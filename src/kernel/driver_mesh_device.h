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
 * (kernel/scatter.h; positions by search, checked, or from ka->elem_map):
 * one kernel per colour with plain additions, or one kernel with atomic
 * additions.  A search that finds no place for entries of an element adds
 * their number to ka->num_missing (one device counter) with an atomic
 * update, only then: no reduction on the hot path.  One target region per case with literal et
 * and pb, so the per-element loops unroll; threads per team from
 * kernel/gpu_tuning.h, teams to cover the elements one per thread
 * (feint_gpu_num_teams).  Host fallback: a few teams of two threads.
 */
#ifndef FEINT_OFFLOAD
#error "kernel/driver_mesh_device.h is for offload builds (-DFEINT_OFFLOAD)"
#endif

#include <omp.h>

#include "kernel/gpu_tuning.h"

/* Element e: gather, integrate, send to output `out` (a run-time value: one
 * instantiation of the element function per case). */
FEINT_INLINE void FEINT_VFN(feint_mesh_elem_, _device)(
    const int et, const int pb, const int out, const size_t e, const int lin, const int lout,
    const double *coords, const uint32_t *conn, const double *coeffs, double *A, double *b,
    const int64_t *row_ptr, const int32_t *col_idx, const int64_t nnz, const int32_t *emap,
    const uint8_t *emap8, double *values, double *rhs, size_t *missing) {
  const size_t B = FEINT_B, ns = (size_t)feint_elem_nodes(et);
  const size_t nd = (size_t)feint_problem_dofs(et, pb), as = nd * nd;
  const size_t lane = e % B, base = e - lane;
  double geo[3 * FEINT_MAX_NODES], coef[FEINT_MAX_COEFFS];
  feint_gather_element(et, pb, lin, conn, coords, coeffs, e, geo, coef, 1);
  double Ae[FEINT_MAX_DOFS * FEINT_MAX_DOFS], be[FEINT_MAX_DOFS];
  const int elem_out = out == FEINT_MESH_OUT_ELEMENT, blk_out = lout == FEINT_LAYOUT_BLOCKED;
  double *a = !elem_out ? Ae : blk_out ? A + base * as + lane : A + e * as;
  double *bb = !elem_out ? be : blk_out ? b + base * nd + lane : b + e * nd;
  FEINT_ELEMENT_FN(et, pb, geo, coef, 1, a, bb, elem_out && blk_out ? FEINT_B : 1);
  if (elem_out) return;
  if (emap != NULL || emap8 != NULL) { /* positions from the map (width: a run-time test) */
    const int32_t *off = emap != NULL ? emap + e * ns * ns : NULL;
    const uint8_t *off8 = emap8 != NULL ? emap8 + e * ns * ns : NULL;
    if (out == FEINT_MESH_OUT_ATOMIC)
      feint_scatter_element_mapped(et, pb, 1, conn + e * ns, off, off8, Ae, be, 1, row_ptr,
                                   values, rhs);
    else
      feint_scatter_element_mapped(et, pb, 0, conn + e * ns, off, off8, Ae, be, 1, row_ptr,
                                   values, rhs);
  } else { /* positions by search, checked */
    const int m =
        out == FEINT_MESH_OUT_ATOMIC
            ? feint_scatter_element(et, pb, 1, conn + e * ns, Ae, be, 1, row_ptr, col_idx, nnz,
                                    values, rhs)
            : feint_scatter_element(et, pb, 0, conn + e * ns, Ae, be, 1, row_ptr, col_idx, nnz,
                                    values, rhs);
    if (m) { /* a miss: the only time the shared counter is touched */
      FEINT_OMP(atomic update)
      *missing += (size_t)m;
    }
  }
}

/* One case: the coloured output launches one kernel per colour (elements
 * elem_order[colour_ptr[c] ..]), the others one kernel over the mesh; one
 * thread per element, one call site of the element function. */
#define FEINT_MESH_DEVICE_CASE(ET, PB)                                                          \
  do {                                                                                          \
    const int coloured_ = output == FEINT_MESH_OUT_COLOURED;                                    \
    const size_t parts_ = coloured_ ? num_colours : 1;                                          \
    const uint32_t *ord_ = coloured_ ? order : NULL;                                            \
    for (size_t c_ = 0; c_ < parts_; c_++) {                                                    \
      const size_t lo_ = coloured_ ? colour_ptr[c_] : 0;                                        \
      const size_t cnt_ = (coloured_ ? colour_ptr[c_ + 1] : n) - lo_;                           \
      const int nt_ = feint_gpu_num_teams(cnt_, FEINT_GPU_TEAM_SIZE_##ET##_##PB, host_fallback, \
                                          fallback_teams);                                      \
      FEINT_PRAGMA(omp target teams distribute parallel for device(device) num_teams(nt_)       \
                   thread_limit(FEINT_GPU_TEAM_SIZE_##ET##_##PB)                                \
                   is_device_ptr(coords, conn, coeffs, A, b, row_ptr, col_idx, emap, emap8,     \
                                 values, rhs, missing, ord_))                                   \
      for (size_t i = 0; i < cnt_; i++)                                                         \
        FEINT_VFN(feint_mesh_elem_, _device)(FEINT_##ET, FEINT_##PB, output,                    \
                                             ord_ ? ord_[lo_ + i] : lo_ + i, lin, lout, coords, \
                                             conn, coeffs, A, b, row_ptr, col_idx, nnz, emap,  \
                                             emap8, values, rhs, missing);                      \
    }                                                                                           \
  } while (0)

void FEINT_VFN(feint_variant_, _mesh_device)(const feint_mesh_kernel_args *ka, int device,
                                             int host_fallback) {
  /* plain locals: the target regions capture these, never ka (a host pointer) */
  const double *coords = ka->coords, *coeffs = ka->coeffs;
  const uint32_t *conn = ka->conn, *order = ka->elem_order;
  double *A = ka->A, *b = ka->b, *values = ka->values, *rhs = ka->rhs;
  size_t *missing = ka->num_missing;
  const int64_t *row_ptr = ka->row_ptr;
  const int32_t *col_idx = ka->col_idx, *emap = ka->elem_map;
  const int64_t nnz = (int64_t)ka->nnz;
  const uint8_t *emap8 = ka->elem_map8;
  const size_t n = ka->num_elem, num_colours = ka->num_colours;
  const size_t *colour_ptr = ka->colour_ptr;
  const int lin = ka->layout_in, lout = ka->layout_out, output = ka->output;
  int fallback_teams = omp_get_num_procs() / 2;
  if (fallback_teams < 1) fallback_teams = 1;
#define FEINT_MESH_DEVICE_DISPATCH(ET, PB)                      \
  if (ka->element == FEINT_##ET && ka->problem == FEINT_##PB)   \
    FEINT_MESH_DEVICE_CASE(ET, PB);                             \
  else
  FEINT_FOR_EACH_CASE(FEINT_MESH_DEVICE_DISPATCH) {}
#undef FEINT_MESH_DEVICE_DISPATCH
}
