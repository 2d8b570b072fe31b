/*
 * integrate.c - feint_integrate: argument checks, the validation pass, and
 * dispatch to the variant's element loop (host, or device in an offload
 * build); layout conversion.
 */
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "feint_internal.h"
#include "kernel/block_io.h"
#include "validate.h"

static const feint_variant_fn variant_host[FEINT_VARIANT_COUNT] = {
    feint_variant_qss_geo_linear_host, feint_variant_qss_geo_generic_host,
    feint_variant_sqs_geo_linear_host, feint_variant_sqs_geo_generic_host,
    feint_variant_ssq_geo_linear_host, feint_variant_ssq_geo_generic_host,
    feint_variant_tensor_geo_linear_host};

static const char *array_names[FEINT_ARRAY_COUNT] = {"geometry", "coeffs", "A_e", "b_e"};

feint_status feint_check_overlaps(const char *func, const feint_span *a, int n) {
  for (int o = 0; o < n; o++)
    for (int k = 0; a[o].out && k < n; k++)
      if (k != o && feint_ranges_overlap(a[o].p, a[o].bytes, a[k].p, a[k].bytes))
        return feint_error_set(FEINT_ERR_UNSUPPORTED, func, __FILE__, __LINE__,
                               "%s overlaps %s; outputs must not alias other arrays", a[o].name,
                               a[k].name);
  return FEINT_SUCCESS;
}

feint_status feint_target_resolve(feint_target target, int device, unsigned flags,
                                  const char *prefix, int *host_fallback) {
  FEINT_CHECK((int)target >= 0 && (int)target < (int)FEINT_TARGET_COUNT, FEINT_ERR_OUT_OF_RANGE,
              "%starget = %d is not a feint_target (0..%d)", prefix, (int)target,
              (int)FEINT_TARGET_COUNT - 1);
  const int device_ptrs = (flags & FEINT_FLAG_DEVICE_POINTERS) != 0;
  FEINT_CHECK(target == FEINT_TARGET_DEVICE || !device_ptrs, FEINT_ERR_UNSUPPORTED,
              "%sflags has FEINT_FLAG_DEVICE_POINTERS with %starget = FEINT_TARGET_HOST; device "
              "pointers need FEINT_TARGET_DEVICE",
              prefix, prefix);
  FEINT_CHECK(target == FEINT_TARGET_HOST || device >= 0, FEINT_ERR_OUT_OF_RANGE,
              "%sdevice = %d is negative; device numbers start at 0", prefix, device);
  *host_fallback = 0;
  if (target == FEINT_TARGET_HOST) return FEINT_SUCCESS;
  const int num_dev = feint_device_available();
  if (device < num_dev) return FEINT_SUCCESS;
  FEINT_CHECK(flags & FEINT_FLAG_ALLOW_HOST_FALLBACK, FEINT_ERR_NO_DEVICE,
              "%starget = FEINT_TARGET_DEVICE, %sdevice = %d, but %s; set "
              "FEINT_FLAG_ALLOW_HOST_FALLBACK to run on the host instead",
              prefix, prefix, device,
              !feint_offload_built() ? "feint was built without offload (make GPU=sm_XX)"
              : num_dev == 0 ? "no offload device is available (no GPU, or "
                               "OMP_TARGET_OFFLOAD=DISABLED)"
                             : "that device does not exist");
  FEINT_CHECK(!device_ptrs, FEINT_ERR_NO_DEVICE,
              "%sflags has FEINT_FLAG_DEVICE_POINTERS but device %d does not exist (%d "
              "devices); device pointers cannot fall back to the host",
              prefix, device, num_dev);
  *host_fallback = 1;
  return FEINT_SUCCESS;
}

feint_status feint_desc_check(const feint_integrate_desc *desc) {
  FEINT_CHECK(desc != NULL, FEINT_ERR_NULL_ARG, "desc is NULL");
  const feint_integrate_desc d = *desc;
  FEINT_CHECK_ENUM(d.element, FEINT_ELEMENT_COUNT, "desc->element", "feint_element");
  FEINT_CHECK_ENUM(d.problem, FEINT_PROBLEM_COUNT, "desc->problem", "feint_problem");
  FEINT_CHECK_ENUM(d.variant, FEINT_VARIANT_COUNT, "desc->variant", "feint_variant");
  FEINT_CHECK_ENUM(d.layout_in, FEINT_LAYOUT_COUNT, "desc->layout_in", "feint_layout");
  FEINT_CHECK_ENUM(d.layout_out, FEINT_LAYOUT_COUNT, "desc->layout_out", "feint_layout");
  FEINT_CHECK(d.layout_in != FEINT_LAYOUT_PACKED, FEINT_ERR_UNSUPPORTED,
              "desc->layout_in = packed; packed is an output layout (of A_e), inputs are "
              "natural or blocked");
  FEINT_CHECK(d.layout_out != FEINT_LAYOUT_PACKED || d.problem != FEINT_CONVDIFF,
              FEINT_ERR_UNSUPPORTED,
              "desc->layout_out = packed with problem convdiff, whose A_e is not symmetric; "
              "use natural or blocked");
  const unsigned known_flags = FEINT_FLAG_TRUST_GEOMETRY | FEINT_FLAG_DEVICE_POINTERS |
                               FEINT_FLAG_ALLOW_HOST_FALLBACK;
  FEINT_CHECK((d.flags & ~known_flags) == 0, FEINT_ERR_OUT_OF_RANGE,
              "desc->flags = 0x%x has unknown bits (allowed: FEINT_FLAG_TRUST_GEOMETRY = 0x%x, "
              "FEINT_FLAG_DEVICE_POINTERS = 0x%x, FEINT_FLAG_ALLOW_HOST_FALLBACK = 0x%x)",
              d.flags, (unsigned)FEINT_FLAG_TRUST_GEOMETRY, (unsigned)FEINT_FLAG_DEVICE_POINTERS,
              (unsigned)FEINT_FLAG_ALLOW_HOST_FALLBACK);
  return FEINT_SUCCESS;
}

feint_status feint_integrate(const feint_integrate_desc *desc, size_t num_elem,
                             const double *geometry, const double *coeffs, double *A_e,
                             double *b_e) {
  int host_fallback = 0;
  FEINT_CALL(feint_desc_check(desc));
  const feint_integrate_desc d = *desc;
  FEINT_CALL(feint_target_resolve(d.target, d.device, d.flags, "desc->", &host_fallback));
  const int device_ptrs = (d.flags & FEINT_FLAG_DEVICE_POINTERS) != 0;
  if (num_elem == 0) { /* a successful call: feint_last_execution() describes it */
    feint_execution_set(host_fallback ? FEINT_TARGET_HOST : d.target, d.device, host_fallback);
    return FEINT_SUCCESS;
  }

  const double *arrays[FEINT_ARRAY_COUNT] = {geometry, coeffs, A_e, b_e};
  size_t len[FEINT_ARRAY_COUNT];
  feint_span spans[FEINT_ARRAY_COUNT];
  for (int k = 0; k < FEINT_ARRAY_COUNT; k++) {
    FEINT_CHECK(arrays[k] != NULL, FEINT_ERR_NULL_ARG, "%s is NULL with num_elem = %zu",
                array_names[k], num_elem);
    const feint_layout layout = k < FEINT_ARRAY_A ? d.layout_in : d.layout_out;
    FEINT_CALL(feint_array_len(d.element, d.problem, (feint_array)k, layout, num_elem, &len[k]));
    spans[k] = (feint_span){array_names[k], arrays[k], len[k] * sizeof(double),
                            k >= FEINT_ARRAY_A};
  }
  FEINT_CALL(feint_check_overlaps(__func__, spans, FEINT_ARRAY_COUNT));

  const feint_kernel_args ka = {d.element, d.problem, d.layout_in, d.layout_out, num_elem,
                                geometry,  coeffs,    A_e,         b_e};
  size_t first_rescale = SIZE_MAX;
  if (!(d.flags & FEINT_FLAG_TRUST_GEOMETRY)) {
    feint_variant_info vi;
    FEINT_CALL(feint_variant_get_info(d.variant, &vi));
    feint_scan_firsts first;
    char phys_what[192] = "";
    /* With device pointers the pass runs on host copies, which costs one
     * device -> host transfer of the geometry and coefficient arrays per
     * call; FEINT_FLAG_TRUST_GEOMETRY avoids it. */
    double *geo_host = NULL, *coef_host = NULL;
    if (device_ptrs) {
      FEINT_CALL(feint_device_geometry_to_host(d.device, geometry, len[FEINT_ARRAY_GEOMETRY],
                                               &geo_host));
      const feint_status st =
          feint_device_geometry_to_host(d.device, coeffs, len[FEINT_ARRAY_COEFFS], &coef_host);
      if (st != FEINT_SUCCESS) {
        free(geo_host);
        return st;
      }
    }
    const double *scan_geo = device_ptrs ? geo_host : geometry;
    const double *scan_coef = device_ptrs ? coef_host : coeffs;
    feint_validate_scan(d.element, d.problem, d.layout_in, num_elem, scan_geo, scan_coef,
                        vi.geo_linear, &first);
    if (first.coeff_phys != SIZE_MAX)
      feint_coeff_describe(d.element, d.problem, d.layout_in, scan_coef, first.coeff_phys,
                           phys_what, sizeof phys_what);
    free(geo_host);
    free(coef_host);
    size_t bad_det = first.degenerate;
    const size_t bad_phys = first.coeff_phys, bad_affine = first.not_affine;
    FEINT_CHECK(bad_phys == SIZE_MAX, FEINT_ERR_BAD_COEFF,
                "coeffs of element %zu, %s; no output was written", bad_phys, phys_what);
    first_rescale = first.rescale < first.coeff_range ? first.rescale : first.coeff_range;
    if (first_rescale < bad_det) {
      FEINT_CHECK(!device_ptrs, FEINT_ERR_UNSUPPORTED,
                  "element %zu is outside the safe range of scales and coefficients, and its "
                  "rescaled integration runs on host arrays only (not with "
                  "FEINT_FLAG_DEVICE_POINTERS)",
                  first_rescale);
      const size_t d2 = feint_rescale_first_degenerate(&ka, first_rescale);
      bad_det = d2 < bad_det ? d2 : bad_det;
    }
    FEINT_CHECK(bad_det == SIZE_MAX, FEINT_ERR_DEGENERATE,
                "element %zu is degenerate or inverted (det J < 2^-40 max|J|^3, or not finite, "
                "at a quadrature point); no output was written",
                bad_det);
    FEINT_CHECK(bad_affine == SIZE_MAX, FEINT_ERR_NOT_AFFINE,
                "element %zu is not affine (%s), so "
                "variant %s cannot integrate it; use a geo_generic variant",
                bad_affine,
                d.element == FEINT_PRISM6 ? "top face not a translate of the bottom face"
                                          : "not a parallelepiped",
                vi.name);
    /* compute and check the rescaled elements before any output is written */
    if (first_rescale != SIZE_MAX)
      FEINT_CALL(feint_rescale_run(variant_host[d.variant], &ka, first_rescale, 0));
  }

  if (d.target == FEINT_TARGET_HOST || (host_fallback && !feint_offload_built())) {
    variant_host[d.variant](&ka);
  } else {
    /* a device, or (host_fallback) the device code on the initial device, so
     * that OMP_TARGET_OFFLOAD=DISABLED runs exercise the device code path */
    FEINT_CALL(feint_device_integrate(d.variant, &ka, len, d.device, device_ptrs, host_fallback));
  }
  if (first_rescale != SIZE_MAX) feint_rescale_run(variant_host[d.variant], &ka, first_rescale, 1);
  feint_execution_set(host_fallback ? FEINT_TARGET_HOST : d.target, d.device, host_fallback);
  return FEINT_SUCCESS;
}

feint_status feint_layout_convert(size_t num_elem, size_t entries, feint_layout src_layout,
                                  const double *src, feint_layout dst_layout, double *dst) {
  FEINT_CHECK_ENUM(src_layout, FEINT_LAYOUT_COUNT, "src_layout", "feint_layout");
  FEINT_CHECK_ENUM(dst_layout, FEINT_LAYOUT_COUNT, "dst_layout", "feint_layout");
  FEINT_CHECK(src_layout != FEINT_LAYOUT_PACKED && dst_layout != FEINT_LAYOUT_PACKED,
              FEINT_ERR_UNSUPPORTED,
              "%s_layout = packed; feint_layout_convert converts between natural and blocked",
              src_layout == FEINT_LAYOUT_PACKED ? "src" : "dst");
  if (num_elem == 0) return FEINT_SUCCESS;
  FEINT_CHECK(src != NULL, FEINT_ERR_NULL_ARG, "src is NULL with num_elem = %zu", num_elem);
  FEINT_CHECK(dst != NULL, FEINT_ERR_NULL_ARG, "dst is NULL with num_elem = %zu", num_elem);
  FEINT_CHECK(entries > 0, FEINT_ERR_BAD_SIZE, "entries = 0; an array needs at least one entry per element");
  const size_t B = FEINT_BLOCK_LEN;
  FEINT_CHECK(num_elem <= SIZE_MAX / sizeof(double) / entries / B * B, FEINT_ERR_BAD_SIZE,
              "num_elem = %zu times entries = %zu overflows size_t", num_elem, entries);
  const size_t padded = (num_elem + B - 1) / B * B;
  const size_t src_len = (src_layout == FEINT_LAYOUT_BLOCKED ? padded : num_elem) * entries;
  const size_t dst_len = (dst_layout == FEINT_LAYOUT_BLOCKED ? padded : num_elem) * entries;
  FEINT_CHECK(
      !feint_ranges_overlap(src, src_len * sizeof(double), dst, dst_len * sizeof(double)),
      FEINT_ERR_UNSUPPORTED, "src and dst overlap; in-place conversion is not supported");
  if (src_layout == dst_layout && src_layout == FEINT_LAYOUT_NATURAL) {
    memcpy(dst, src, num_elem * entries * sizeof(double));
    return FEINT_SUCCESS;
  }
  if (src_layout == dst_layout) {
    /* whole blocks at once; of the last, partial block only the valid
     * lanes (padding lanes are never read and never written) */
    const size_t full = num_elem / B * B, lanes = num_elem - full;
    memcpy(dst, src, full * entries * sizeof(double));
    for (size_t k = 0; k < entries; k++)
      memcpy(dst + full * entries + k * B, src + full * entries + k * B, lanes * sizeof(double));
    return FEINT_SUCCESS;
  }
  /* Block by block: a block's chunk is contiguous in both layouts, so a
   * full block is one transposition with contiguous loads and stores
   * (kernel/block_io.h, no gathers or scatters); of the last, partial block
   * only the valid lanes (padding lanes are never read and never written). */
  const int to_blocked = src_layout == FEINT_LAYOUT_NATURAL;
  const size_t num_blk = (num_elem + B - 1) / B;
#pragma omp parallel for schedule(static)
  for (size_t blk = 0; blk < num_blk; blk++) {
    const double *s = src + blk * B * entries;
    double *t = dst + blk * B * entries;
    const size_t lanes = num_elem - blk * B < B ? num_elem - blk * B : B;
#if FEINT_HAVE_V4D
    if (lanes == B && entries >= 4 && entries <= (size_t)INT_MAX / B) {
      const int n = (int)entries;
      for (int g = 0; g < (int)B; g += 4)
        for (int k = 0; k < n; k += 4) {
          const int kt = k + 4 <= n ? k : n - 4; /* the last tile may overlap */
          if (to_blocked)
            feint_tile4_transpose(s, 1, n, t, (int)B, 1, g, kt);
          else
            feint_tile4_transpose(s, (int)B, 1, t, 1, n, g, kt);
        }
      continue;
    }
#endif
    for (size_t l = 0; l < lanes; l++)
      FEINT_NO_VECTORIZE
      for (size_t k = 0; k < entries; k++) {
        if (to_blocked)
          t[k * B + l] = s[l * entries + k];
        else
          t[l * entries + k] = s[k * B + l];
      }
  }
  return FEINT_SUCCESS;
}
