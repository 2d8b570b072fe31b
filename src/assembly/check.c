/*
 * assembly/check.c - the checks and device plumbing of the assembly layer:
 * is a mesh usable by the element loops, are its elements valid, where does
 * a call run, and the host <-> device copies of one call.
 */
#include <stdlib.h>
#include <string.h>

#ifdef _OPENMP
#include <omp.h>
#endif

#include "assembly/assembly_internal.h"
#include "validate.h"

int feint_asm_nodes(feint_element element) {
  return element == FEINT_TET4 ? 4 : element == FEINT_PRISM6 ? 6 : 8;
}

/* One term of a fingerprint: entry `index` of the array `salt` holds
 * `value`.  The xor makes the terms depend on index and value together (a
 * value moved to another index changes the sum); the odd multiply, the
 * xor-shift and the second odd multiply make the term a bijective,
 * non-linear mix of that key.  Without the last two (the term x * C, x the
 * key) the sum was linear in the key's low bit: two edits of +-1, such as
 * conn entries 21 -> 20 and 4 -> 5 in a valid mesh, changed the keys by +1
 * and -1 and left the sum, so a stale map passed its check and assembled
 * a wrong matrix (t708).  Cost of the ordered connectivity fingerprint, 4 Mi
 * tets, one thread, Zen 4: 0.54 -> 0.68 ns per tet (x86-64-v3 build: 1.2 ->
 * 2.1); splitmix64's full finaliser was dearer (30 ns per tet of
 * feint_assemble on a Zen 1). */
static inline uint64_t fp_term(uint64_t salt, uint64_t index, uint64_t value) {
  uint64_t t = ((value + (salt << 56)) ^ (index * 0x9E3779B97F4A7C15u)) * 0xC2B2AE3D27D4EB4Fu;
  t ^= t >> 32;
  return t * 0xD6E8FEB86659FD93u;
}

uint64_t feint_asm_fingerprint_conn(const feint_mesh *mesh, int ordered) {
  const size_t ne = mesh->num_elem, ns = (size_t)feint_asm_nodes(mesh->element);
  const uint32_t *conn = mesh->conn;
  uint64_t h = 0;
  if (ordered) {
#pragma omp parallel for schedule(static) reduction(+ : h)
    for (size_t k = 0; k < ne * ns; k++) h += fp_term(1, k, conn[k]);
  } else {
    /* the sets: every entry under its element's index k / ns, one flat loop
     * per literal ns (the division a shift or a multiply), so it vectorises
     * as the ordered one does (a loop over elements with the node loop inside
     * took 2.8 ns per tet against 0.5, one Zen 4 thread) */
#define FP_SETS(NS)                                                                            \
  _Pragma("omp for schedule(static)") for (size_t k = 0; k < ne * (NS); k++)                   \
      h += fp_term(4, k / (NS), conn[k])
#pragma omp parallel reduction(+ : h)
    {
      if (ns == 4)
        FP_SETS(4);
      else if (ns == 6)
        FP_SETS(6);
      else
        FP_SETS(8);
    }
#undef FP_SETS
  }
  return h;
}

uint64_t feint_asm_fingerprint_coords(const feint_mesh *mesh) {
  const size_t n = 3 * mesh->num_vertices;
  const double *x = mesh->coords;
  uint64_t h = 0;
#pragma omp parallel for schedule(static) reduction(+ : h)
  for (size_t k = 0; k < n; k++) {
    uint64_t bits;
    memcpy(&bits, &x[k], sizeof bits);
    h += fp_term(5, k, bits);
  }
  return h;
}

uint64_t feint_asm_fingerprint_pattern(const feint_csr *A) {
  const size_t nr = A->num_rows, nnz = A->nnz;
  const int64_t *rp = A->row_ptr;
  const int32_t *ci = A->col_idx;
  uint64_t h = 0;
#pragma omp parallel
  {
#pragma omp for schedule(static) reduction(+ : h) nowait
    for (size_t i = 0; i <= nr; i++) h += fp_term(2, i, (uint64_t)rp[i]);
#pragma omp for schedule(static) reduction(+ : h)
    for (size_t k = 0; k < nnz; k++) h += fp_term(3, k, (uint32_t)ci[k]);
  }
  return h;
}

void feint_asm_geo_scan(const feint_mesh *mesh, feint_scan_firsts *geo) {
  feint_validate_scan_mesh(mesh->element, FEINT_POISSON, FEINT_LAYOUT_NATURAL, mesh->num_elem,
                           mesh->conn, mesh->coords, NULL, 1, geo);
}

feint_status feint_asm_check_elements(const feint_mesh *mesh, feint_problem problem,
                                      feint_layout layout, const double *coeffs,
                                      int check_affine, const feint_scan_firsts *geo) {
  const int ns = feint_asm_nodes(mesh->element);
  feint_scan_firsts first;
  feint_validate_scan_mesh(mesh->element, problem, layout, mesh->num_elem,
                           geo != NULL ? NULL : mesh->conn, geo != NULL ? NULL : mesh->coords,
                           coeffs, check_affine, &first);
  if (geo != NULL) { /* the geometry's findings as a scan now would make them */
    first.degenerate = geo->degenerate;
    first.rescale = geo->rescale;
    first.not_affine = check_affine ? geo->not_affine : SIZE_MAX;
  }
  const size_t bad_det = first.degenerate;
  const uint32_t *v = mesh->conn + (bad_det == SIZE_MAX ? 0 : bad_det * ns);
  FEINT_CHECK(bad_det == SIZE_MAX, FEINT_ERR_DEGENERATE,
              "mesh element %zu is degenerate or inverted (det J <= 0 or not finite at a "
              "quadrature point; a NaN or infinite coordinate of one of its vertices %u %u %u "
              "%u ... does that too); no output was written",
              bad_det, v[0], v[1], v[2], v[3]);
  FEINT_CHECK(first.rescale == SIZE_MAX, FEINT_ERR_UNSUPPORTED,
              "mesh element %zu has coordinates outside the range the kernels integrate "
              "without rescaling; feint_integrate rescales such elements, the mesh paths do not "
              "(yet)",
              first.rescale);
  FEINT_CHECK(first.not_affine == SIZE_MAX, FEINT_ERR_NOT_AFFINE,
              "mesh element %zu is not affine (%s); use a geo_generic variant", first.not_affine,
              mesh->element == FEINT_PRISM6 ? "top face not a translate of the bottom face"
                                            : "not a parallelepiped");
  char what[192] = "";
  if (first.coeff_phys != SIZE_MAX)
    feint_coeff_describe(mesh->element, problem, layout, coeffs, first.coeff_phys, what,
                         sizeof what);
  FEINT_CHECK(first.coeff_phys == SIZE_MAX, FEINT_ERR_BAD_COEFF,
              "coeffs of element %zu, %s; no output was written", first.coeff_phys, what);
  FEINT_CHECK(first.coeff_range == SIZE_MAX, FEINT_ERR_UNSUPPORTED,
              "coeffs of element %zu are not finite or outside the range the kernels integrate "
              "without rescaling; feint_integrate rescales such elements, the mesh paths do not "
              "(yet)",
              first.coeff_range);
  return FEINT_SUCCESS;
}

feint_status feint_asm_resolve_target(feint_target target, int device, unsigned flags,
                                      const char *prefix, int *run_device, int *host_fallback) {
  FEINT_CHECK(!(flags & FEINT_FLAG_DEVICE_POINTERS), FEINT_ERR_UNSUPPORTED,
              "FEINT_FLAG_DEVICE_POINTERS is not supported on the mesh and CSR paths yet; pass "
              "host arrays (they are copied to the device in the call)");
  FEINT_CALL(feint_target_resolve(target, device, flags, prefix, host_fallback));
  /* the device code runs on a device, or (fallback) on the initial device in
   * an offload build */
  *run_device = target == FEINT_TARGET_DEVICE && (!*host_fallback || feint_offload_built());
  return FEINT_SUCCESS;
}

#ifdef FEINT_OFFLOAD
feint_status feint_xfer_in(int device, feint_xfer *x, int n) {
  const int host = omp_get_initial_device();
  for (int k = 0; k < n; k++) x[k].dev = NULL;
  for (int k = 0; k < n; k++) {
    if (x[k].host == NULL || x[k].bytes == 0) continue;
    x[k].dev = omp_target_alloc(x[k].bytes, device);
    int ok = x[k].dev != NULL;
    if (ok && x[k].copy_in)
      ok = omp_target_memcpy(x[k].dev, x[k].host, x[k].bytes, 0, 0, device, host) == 0;
    if (!ok) {
      for (int j = 0; j <= k; j++)
        if (x[j].dev) omp_target_free(x[j].dev, device);
      for (int j = 0; j < n; j++) x[j].dev = NULL;
      return feint_error_set(FEINT_ERR_DEVICE, __func__, __FILE__, __LINE__,
                             "allocating or copying %zu bytes on device %d failed", x[k].bytes,
                             device);
    }
  }
  return FEINT_SUCCESS;
}

feint_status feint_xfer_out(int device, feint_xfer *x, int n) {
  const int host = omp_get_initial_device();
  feint_status st = FEINT_SUCCESS;
  for (int k = 0; k < n; k++) {
    if (x[k].dev == NULL) continue;
    if (x[k].copy_out && st == FEINT_SUCCESS &&
        omp_target_memcpy((void *)x[k].host, x[k].dev, x[k].bytes, 0, 0, host, device) != 0)
      st = feint_error_set(FEINT_ERR_DEVICE, __func__, __FILE__, __LINE__,
                           "copying %zu bytes from device %d failed", x[k].bytes, device);
    omp_target_free(x[k].dev, device);
    x[k].dev = NULL;
  }
  return st;
}
#endif
