/*
 * device.c - device memory API (feint_device_*), the transfers of
 * feint_integrate on a device target, and feint_last_execution.
 *
 * Offload builds (-DFEINT_OFFLOAD, make GPU=sm_XX) use the OpenMP device
 * memory routines (omp_target_alloc / omp_target_free / omp_target_memcpy).
 * A host-only build compiles the same API without offload: no device exists,
 * feint_device_count gives 0 and every other call returns
 * FEINT_ERR_NO_DEVICE, saying the library was built without offload.
 */
#include <stdint.h>
#include <stdlib.h>

#ifdef FEINT_OFFLOAD
#include <omp.h>
#endif

#include "feint_internal.h"

static _Thread_local feint_execution last_execution = {FEINT_TARGET_HOST, -1, 0};
static _Thread_local int last_execution_valid = 0;

void feint_execution_set(feint_target ran_on, int device, int host_fallback) {
  last_execution.ran_on = ran_on;
  last_execution.device = ran_on == FEINT_TARGET_DEVICE ? device : -1;
  last_execution.host_fallback = host_fallback;
  last_execution_valid = 1;
}

feint_status feint_last_execution(feint_execution *exec) {
  FEINT_CHECK(exec != NULL, FEINT_ERR_NULL_ARG, "exec is NULL");
  FEINT_CHECK(last_execution_valid, FEINT_ERR_UNSUPPORTED,
              "no call that records where it ran (feint_integrate, feint_integrate_mesh, "
              "feint_assemble, feint_csr_spmv) has succeeded on this thread yet");
  *exec = last_execution;
  return FEINT_SUCCESS;
}

#ifdef FEINT_OFFLOAD

int feint_offload_built(void) { return 1; }

int feint_device_available(void) { return omp_get_num_devices(); }

feint_status feint_device_count(int *count) {
  FEINT_CHECK(count != NULL, FEINT_ERR_NULL_ARG, "count is NULL");
  *count = omp_get_num_devices();
  return FEINT_SUCCESS;
}

/* Checks shared by the calls that name a device. */
#define CHECK_DEVICE(device)                                                                  \
  do {                                                                                        \
    const int num_ = omp_get_num_devices();                                                   \
    FEINT_CHECK(num_ > 0, FEINT_ERR_NO_DEVICE,                                                \
                "device = %d: no offload device is available (omp_get_num_devices() = 0; "  \
                "no GPU, or OMP_TARGET_OFFLOAD=DISABLED)",                                    \
                (device));                                                                    \
    FEINT_CHECK((device) >= 0 && (device) < num_, FEINT_ERR_OUT_OF_RANGE,                     \
                "device = %d is not a device number (0..%d)", (device), num_ - 1);            \
  } while (0)

feint_status feint_device_alloc(int device, size_t bytes, void **ptr) {
  FEINT_CHECK(ptr != NULL, FEINT_ERR_NULL_ARG, "ptr is NULL");
  CHECK_DEVICE(device);
  FEINT_CHECK(bytes > 0, FEINT_ERR_BAD_SIZE, "bytes = 0; allocate at least one byte");
  void *p = omp_target_alloc(bytes, device);
  FEINT_CHECK(p != NULL, FEINT_ERR_ALLOC, "omp_target_alloc of %zu bytes on device %d failed",
              bytes, device);
  *ptr = p;
  return FEINT_SUCCESS;
}

feint_status feint_device_free(int device, void *ptr) {
  CHECK_DEVICE(device);
  if (ptr) omp_target_free(ptr, device);
  return FEINT_SUCCESS;
}

feint_status feint_device_copy_to(int device, void *dst_device, const void *src_host,
                                  size_t bytes) {
  CHECK_DEVICE(device);
  if (bytes == 0) return FEINT_SUCCESS;
  FEINT_CHECK(dst_device != NULL, FEINT_ERR_NULL_ARG, "dst_device is NULL");
  FEINT_CHECK(src_host != NULL, FEINT_ERR_NULL_ARG, "src_host is NULL");
  FEINT_CHECK(omp_target_memcpy(dst_device, src_host, bytes, 0, 0, device,
                                omp_get_initial_device()) == 0,
              FEINT_ERR_DEVICE, "omp_target_memcpy of %zu bytes host -> device %d failed", bytes,
              device);
  return FEINT_SUCCESS;
}

feint_status feint_device_copy_from(int device, void *dst_host, const void *src_device,
                                    size_t bytes) {
  CHECK_DEVICE(device);
  if (bytes == 0) return FEINT_SUCCESS;
  FEINT_CHECK(dst_host != NULL, FEINT_ERR_NULL_ARG, "dst_host is NULL");
  FEINT_CHECK(src_device != NULL, FEINT_ERR_NULL_ARG, "src_device is NULL");
  FEINT_CHECK(omp_target_memcpy(dst_host, src_device, bytes, 0, 0, omp_get_initial_device(),
                                device) == 0,
              FEINT_ERR_DEVICE, "omp_target_memcpy of %zu bytes device %d -> host failed", bytes,
              device);
  return FEINT_SUCCESS;
}

feint_status feint_device_geometry_to_host(int device, const double *geometry, size_t len,
                                           double **host) {
  double *h = malloc(len * sizeof(double));
  FEINT_CHECK(h != NULL, FEINT_ERR_ALLOC,
              "cannot allocate %zu doubles for the geometry validation pass (use "
              "FEINT_FLAG_TRUST_GEOMETRY to skip it)",
              len);
  const feint_status st = feint_device_copy_from(device, h, geometry, len * sizeof(double));
  if (st != FEINT_SUCCESS) {
    free(h);
    return st;
  }
  *host = h;
  return FEINT_SUCCESS;
}

static const feint_variant_device_fn variant_device[FEINT_VARIANT_COUNT] = {
    feint_variant_qss_geo_linear_device, feint_variant_qss_geo_generic_device,
    feint_variant_sqs_geo_linear_device, feint_variant_sqs_geo_generic_device,
    feint_variant_ssq_geo_linear_device, feint_variant_ssq_geo_generic_device,
    feint_variant_tensor_geo_linear_device};

feint_status feint_device_integrate(int variant, const feint_kernel_args *ka, const size_t len[4],
                                    int device, int device_ptrs, int host_fallback) {
  const int dev = host_fallback ? omp_get_initial_device() : device;
  if (device_ptrs) {
    variant_device[variant](ka, dev, host_fallback);
    return FEINT_SUCCESS;
  }
  /* Host arrays: device copies for this call (allocation and both transfers
   * are part of the call; FEINT_FLAG_DEVICE_POINTERS avoids all three). */
  const int host = omp_get_initial_device();
  const double *src[4] = {ka->geometry, ka->coeffs, ka->A, ka->b};
  double *d[4] = {NULL, NULL, NULL, NULL};
  feint_status st = FEINT_SUCCESS;
  for (int k = 0; k < 4 && st == FEINT_SUCCESS; k++) {
    d[k] = omp_target_alloc(len[k] * sizeof(double), dev);
    if (d[k] == NULL)
      st = feint_error_set(FEINT_ERR_ALLOC, "feint_integrate", __FILE__, __LINE__,
                           "omp_target_alloc of %zu bytes on device %d failed",
                           len[k] * sizeof(double), dev);
  }
  /* inputs whole; outputs: only the last block's chunk of a blocked output
   * whose last block is partial, so that its padding lanes come back as they
   * were (they are never written) */
  const size_t B = FEINT_BLOCK_LEN, rem = ka->num_elem % B;
  for (int k = 0; k < 4 && st == FEINT_SUCCESS; k++) {
    size_t off = 0, cnt = len[k];
    if (k >= 2) {
      if (ka->layout_out != FEINT_LAYOUT_BLOCKED || rem == 0) continue;
      cnt = len[k] / ((ka->num_elem + B - 1) / B); /* one block's chunk */
      off = len[k] - cnt;
    }
    if (omp_target_memcpy(d[k], src[k], cnt * sizeof(double), off * sizeof(double),
                          off * sizeof(double), dev, host) != 0)
      st = feint_error_set(FEINT_ERR_DEVICE, "feint_integrate", __FILE__, __LINE__,
                           "omp_target_memcpy of %zu bytes host -> device %d failed",
                           cnt * sizeof(double), dev);
  }
  if (st == FEINT_SUCCESS) {
    feint_kernel_args dka = *ka;
    dka.geometry = d[0];
    dka.coeffs = d[1];
    dka.A = d[2];
    dka.b = d[3];
    variant_device[variant](&dka, dev, host_fallback);
    double *dst[2] = {ka->A, ka->b};
    for (int k = 2; k < 4 && st == FEINT_SUCCESS; k++)
      if (omp_target_memcpy(dst[k - 2], d[k], len[k] * sizeof(double), 0, 0, host, dev) != 0)
        st = feint_error_set(FEINT_ERR_DEVICE, "feint_integrate", __FILE__, __LINE__,
                             "omp_target_memcpy of %zu bytes device %d -> host failed",
                             len[k] * sizeof(double), dev);
  }
  for (int k = 0; k < 4; k++)
    if (d[k]) omp_target_free(d[k], dev);
  return st;
}

#else /* !FEINT_OFFLOAD: host-only build */

#define NO_OFFLOAD_MSG "feint was built without offload support (host-only build; rebuild with make GPU=sm_XX)"

int feint_offload_built(void) { return 0; }

int feint_device_available(void) { return 0; }

feint_status feint_device_count(int *count) {
  FEINT_CHECK(count != NULL, FEINT_ERR_NULL_ARG, "count is NULL");
  *count = 0;
  return FEINT_SUCCESS;
}

feint_status feint_device_alloc(int device, size_t bytes, void **ptr) {
  (void)bytes;
  FEINT_CHECK(ptr != NULL, FEINT_ERR_NULL_ARG, "ptr is NULL");
  return feint_error_set(FEINT_ERR_NO_DEVICE, __func__, __FILE__, __LINE__,
                         "device = %d: " NO_OFFLOAD_MSG, device);
}

feint_status feint_device_free(int device, void *ptr) {
  (void)ptr;
  return feint_error_set(FEINT_ERR_NO_DEVICE, __func__, __FILE__, __LINE__,
                         "device = %d: " NO_OFFLOAD_MSG, device);
}

feint_status feint_device_copy_to(int device, void *dst_device, const void *src_host,
                                  size_t bytes) {
  (void)dst_device, (void)src_host, (void)bytes;
  return feint_error_set(FEINT_ERR_NO_DEVICE, __func__, __FILE__, __LINE__,
                         "device = %d: " NO_OFFLOAD_MSG, device);
}

feint_status feint_device_copy_from(int device, void *dst_host, const void *src_device,
                                    size_t bytes) {
  (void)dst_host, (void)src_device, (void)bytes;
  return feint_error_set(FEINT_ERR_NO_DEVICE, __func__, __FILE__, __LINE__,
                         "device = %d: " NO_OFFLOAD_MSG, device);
}

feint_status feint_device_geometry_to_host(int device, const double *geometry, size_t len,
                                           double **host) {
  (void)geometry, (void)len, (void)host;
  return feint_error_set(FEINT_ERR_NO_DEVICE, "feint_integrate", __FILE__, __LINE__,
                         "device = %d: " NO_OFFLOAD_MSG, device);
}

feint_status feint_device_integrate(int variant, const feint_kernel_args *ka, const size_t len[4],
                                    int device, int device_ptrs, int host_fallback) {
  (void)variant, (void)ka, (void)len, (void)device_ptrs, (void)host_fallback;
  return feint_error_set(FEINT_ERR_NO_DEVICE, "feint_integrate", __FILE__, __LINE__,
                         "device = %d: " NO_OFFLOAD_MSG, device);
}

#endif /* FEINT_OFFLOAD */
