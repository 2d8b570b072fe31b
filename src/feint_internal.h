/*
 * feint_internal.h - declarations shared inside the library (not installed).
 */
#ifndef FEINT_INTERNAL_H
#define FEINT_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "feint.h"

#if defined(__GNUC__)
#define FEINT_INTERNAL __attribute__((visibility("hidden")))
#else
#define FEINT_INTERNAL
#endif

/* Record an error (function, file, line, formatted message) for
 * feint_last_error() and return `status`. */
FEINT_INTERNAL feint_status feint_error_set(feint_status status, const char *func, const char *file,
                                            int line, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));
FEINT_INTERNAL void feint_error_clear(void);

/* This thread's share [*lo, *hi) of n items split into contiguous, nearly
 * equal parts in thread order (as schedule(static)); inside a parallel
 * region, or the whole range without OpenMP. */
static inline void feint_thread_range(size_t n, int thread, int nthreads, size_t *lo,
                                      size_t *hi) {
  const size_t t = (size_t)thread, nt = (size_t)nthreads;
  *lo = n / nt * t + (t < n % nt ? t : n % nt);
  *hi = *lo + n / nt + (t < n % nt);
}

/* Boundary check that stays on in optimised builds: if cond is false, record
 * the message and return the status from the calling function. */
#define FEINT_CHECK(cond, status, ...)                                              \
  do {                                                                              \
    if (!(cond)) return feint_error_set((status), __func__, __FILE__, __LINE__, __VA_ARGS__); \
  } while (0)

/* Range check of an enum argument: "<arg> = <value> is not a <type>
 * (0..<count-1>)", FEINT_ERR_OUT_OF_RANGE. */
#define FEINT_CHECK_ENUM(value, count, arg, type)                                       \
  FEINT_CHECK((int)(value) >= 0 && (int)(value) < (int)(count), FEINT_ERR_OUT_OF_RANGE, \
              "%s = %d is not a %s (0..%d)", (arg), (int)(value), (type), (int)(count) - 1)

/* Propagate a failing status. */
#define FEINT_CALL(expr)           \
  do {                             \
    feint_status s_ = (expr);      \
    if (s_ != FEINT_SUCCESS) return s_; \
  } while (0)

/* Everything a variant's element loop needs, validated by feint_integrate. */
typedef struct {
  int element, problem;         /* feint_element, feint_problem */
  int layout_in, layout_out;    /* feint_layout */
  size_t num_elem;
  const double *geometry, *coeffs;
  double *A, *b;
} feint_kernel_args;

typedef void (*feint_variant_fn)(const feint_kernel_args *);

/* The variants' host entry points (src/variant/<name>.c). */
FEINT_INTERNAL void feint_variant_qss_geo_linear_host(const feint_kernel_args *);
FEINT_INTERNAL void feint_variant_qss_geo_generic_host(const feint_kernel_args *);
FEINT_INTERNAL void feint_variant_sqs_geo_linear_host(const feint_kernel_args *);
FEINT_INTERNAL void feint_variant_sqs_geo_generic_host(const feint_kernel_args *);
FEINT_INTERNAL void feint_variant_ssq_geo_linear_host(const feint_kernel_args *);
FEINT_INTERNAL void feint_variant_ssq_geo_generic_host(const feint_kernel_args *);
FEINT_INTERNAL void feint_variant_tensor_geo_linear_host(const feint_kernel_args *);

/* The variants' device entry points (offload builds only; kernel/
 * driver_device.h): the arrays of ka are device pointers on `device`;
 * host_fallback: the target regions run on the initial device. */
#ifdef FEINT_OFFLOAD
typedef void (*feint_variant_device_fn)(const feint_kernel_args *, int device, int host_fallback);
FEINT_INTERNAL void feint_variant_qss_geo_linear_device(const feint_kernel_args *, int, int);
FEINT_INTERNAL void feint_variant_qss_geo_generic_device(const feint_kernel_args *, int, int);
FEINT_INTERNAL void feint_variant_sqs_geo_linear_device(const feint_kernel_args *, int, int);
FEINT_INTERNAL void feint_variant_sqs_geo_generic_device(const feint_kernel_args *, int, int);
FEINT_INTERNAL void feint_variant_ssq_geo_linear_device(const feint_kernel_args *, int, int);
FEINT_INTERNAL void feint_variant_ssq_geo_generic_device(const feint_kernel_args *, int, int);
FEINT_INTERNAL void feint_variant_tensor_geo_linear_device(const feint_kernel_args *, int, int);
#endif

/* Device side of feint_integrate (device.c), called after every argument
 * check.  len[] are the array lengths in doubles.  Runs variant `variant` on
 * `device` (or, with host_fallback, on the initial device): with device_ptrs
 * the arrays are used in place, else they are copied to the device and the
 * outputs back (the padding lanes of a blocked output keep their host
 * values).  Returns FEINT_SUCCESS or FEINT_ERR_DEVICE / FEINT_ERR_ALLOC /
 * FEINT_ERR_NO_DEVICE with the message recorded. */
FEINT_INTERNAL feint_status feint_device_integrate(int variant, const feint_kernel_args *ka,
                                                   const size_t len[4], int device,
                                                   int device_ptrs, int host_fallback);

/* 1 if the byte ranges [a, a + na) and [b, b + nb) overlap (an output
 * that aliases an input or another output is refused: the kernels write
 * outputs before they have read all inputs). */
static inline int feint_ranges_overlap(const void *a, size_t na, const void *b, size_t nb) {
  const uintptr_t a0 = (uintptr_t)a, a1 = a0 + na, b0 = (uintptr_t)b, b1 = b0 + nb;
  return na > 0 && nb > 0 && a0 < b1 && b0 < a1;
}

/* An array of a call for feint_check_overlaps: its name in messages, its
 * bytes, and whether the call writes it. */
typedef struct {
  const char *name;
  const void *p;
  size_t bytes;
  int out;
} feint_span;

/* Every output among the n arrays must not overlap any other array
 * (outputs in array order, each against the others in order): else
 * FEINT_ERR_UNSUPPORTED naming both, the message under func, the public
 * function called. */
FEINT_INTERNAL feint_status feint_check_overlaps(const char *func, const feint_span *a, int n);

/* The checks of a descriptor shared by feint_integrate and the mesh paths
 * (feint_integrate_mesh, feint_assemble): not NULL, element, problem,
 * variant, layouts and flags (messages name "desc->..."); target and device
 * are feint_target_resolve's. */
FEINT_INTERNAL feint_status feint_desc_check(const feint_integrate_desc *desc);

/* Where a call with (target, device, flags) runs, decided before any array
 * is touched: FEINT_FLAG_DEVICE_POINTERS only with FEINT_TARGET_DEVICE;
 * *host_fallback = 1 if the device does not exist (no offload build, no
 * GPU, or a number past the last) and FEINT_FLAG_ALLOW_HOST_FALLBACK is set
 * (else FEINT_ERR_NO_DEVICE; device pointers cannot fall back).  An offload
 * build runs its device code on the initial device then, so that fallback
 * runs exercise the device code path.  `prefix` starts the argument names
 * of the messages ("desc->" or ""). */
FEINT_INTERNAL feint_status feint_target_resolve(feint_target target, int device, unsigned flags,
                                                 const char *prefix, int *host_fallback);

/* Number of usable devices (0 in a host-only build). */
FEINT_INTERNAL int feint_device_available(void);

/* Copy the geometry (len doubles) of `device` into a host buffer for the
 * validation pass; *host must be freed with free(). */
FEINT_INTERNAL feint_status feint_device_geometry_to_host(int device, const double *geometry,
                                                          size_t len, double **host);

/* Record where the current feint_integrate ran (feint_last_execution). */
FEINT_INTERNAL void feint_execution_set(feint_target ran_on, int device, int host_fallback);

/* The rescaled slow path (rescale.c) for elements [first, num_elem) of ka
 * that the pass left to it: the lowest degenerate element at or after first
 * (SIZE_MAX: none); and computing them with variant fn, checking that every
 * entry is finite (store = 0: FEINT_ERR_NOT_FINITE naming the element,
 * nothing written) or writing them into ka's outputs (store = 1, after the
 * element loop; cannot fail once store = 0 succeeded). */
FEINT_INTERNAL size_t feint_rescale_first_degenerate(const feint_kernel_args *ka, size_t first);
FEINT_INTERNAL feint_status feint_rescale_run(feint_variant_fn fn, const feint_kernel_args *ka,
                                              size_t first, int store);


/* ---- Mesh paths (kernel/driver_mesh.h, src/assembly/) -------------------- */

/* What a mesh-driven element loop writes. */
enum {
  FEINT_MESH_OUT_ELEMENT = 0, /* A_e, b_e per element (layout_out) */
  FEINT_MESH_OUT_COLOURED,    /* add into CSR values + rhs, colour by colour */
  FEINT_MESH_OUT_ATOMIC       /* add into CSR values + rhs with atomic updates */
};

/* Everything a mesh-driven element loop needs, validated by the caller. */
typedef struct {
  int element, problem;      /* feint_element, feint_problem */
  int layout_in, layout_out; /* coeffs; A_e/b_e (FEINT_MESH_OUT_ELEMENT) */
  int output;                /* FEINT_MESH_OUT_* */
  size_t num_elem, num_vertices;
  const double *coords;      /* [num_vertices][3] */
  const uint32_t *conn;      /* [num_elem][N_S] */
  const double *coeffs;
  double *A, *b;             /* FEINT_MESH_OUT_ELEMENT */
  const int64_t *row_ptr;    /* CSR outputs: pattern, values, rhs */
  const int32_t *col_idx;
  double *values, *rhs;
  size_t num_rows, nnz;
  const int32_t *elem_map;   /* both NULL: positions by search; else one of them: */
  const uint8_t *elem_map8;  /* [num_elem][N_S][N_S] offsets within the rows
                                (feint_assembly_map), 32-bit or 1-byte */
  size_t *num_missing;       /* search: entries of A^e with no place in the pattern
                                (skipped) are added here, atomically; one size_t, in
                                the memory of the run, zero before the loop */
  const uint32_t *elem_order; /* FEINT_MESH_OUT_COLOURED, device: elements by colour */
  const size_t *colour_ptr;   /* [num_colours + 1] (host memory) */
  size_t num_colours;
  size_t chunk_len;           /* host: elements per chunk (feint_asm_chunk_len) */
  const uint32_t *chunk_order; /* FEINT_MESH_OUT_COLOURED, host: chunks by colour */
  const size_t *chunk_colour_ptr; /* [num_chunk_colours + 1] */
  size_t num_chunk_colours;
  const uint32_t *block_reach; /* FEINT_MESH_OUT_ATOMIC, host: [2 b], [2 b + 1] the lowest
                                  and highest chunk with an element sharing a vertex
                                  with block b's; NULL: every addition atomic */
} feint_mesh_kernel_args;

/* Elements per chunk of the host's colouring of a mesh of num_elem elements
 * (feint_assembly_chunks): about num_elem / 256, so that a colour holds
 * enough chunks for the threads to share, within [128, 8192], a multiple of
 * FEINT_BLOCK_LEN.  Long chunks keep the CSR rows of their elements in cache
 * while they run: a vertex on a chunk's boundary has its row loaded once
 * per chunk around it (tet4 Poisson, 750 k elements, one thread, CPU time:
 * 131 ns per element with chunks of 128, 104 with 1024, 94 with 8192, 91
 * in plain mesh order). */
static inline size_t feint_asm_chunk_len(size_t num_elem) {
  const size_t B = FEINT_BLOCK_LEN, lo = 16 * B, hi = 1024 * B;
  const size_t len = (num_elem / 256 + B - 1) / B * B;
  return len < lo ? lo : len > hi ? hi : len;
}

typedef void (*feint_mesh_variant_fn)(const feint_mesh_kernel_args *);
FEINT_INTERNAL void feint_variant_qss_geo_linear_mesh_host(const feint_mesh_kernel_args *);
FEINT_INTERNAL void feint_variant_qss_geo_generic_mesh_host(const feint_mesh_kernel_args *);
FEINT_INTERNAL void feint_variant_sqs_geo_linear_mesh_host(const feint_mesh_kernel_args *);
FEINT_INTERNAL void feint_variant_sqs_geo_generic_mesh_host(const feint_mesh_kernel_args *);
FEINT_INTERNAL void feint_variant_ssq_geo_linear_mesh_host(const feint_mesh_kernel_args *);
FEINT_INTERNAL void feint_variant_ssq_geo_generic_mesh_host(const feint_mesh_kernel_args *);
FEINT_INTERNAL void feint_variant_tensor_geo_linear_mesh_host(const feint_mesh_kernel_args *);
#ifdef FEINT_OFFLOAD
/* the arrays of the args are device pointers on `device` (colour_ptr: host) */
typedef void (*feint_mesh_variant_device_fn)(const feint_mesh_kernel_args *, int device,
                                             int host_fallback);
FEINT_INTERNAL void feint_variant_qss_geo_linear_mesh_device(const feint_mesh_kernel_args *, int, int);
FEINT_INTERNAL void feint_variant_qss_geo_generic_mesh_device(const feint_mesh_kernel_args *, int, int);
FEINT_INTERNAL void feint_variant_sqs_geo_linear_mesh_device(const feint_mesh_kernel_args *, int, int);
FEINT_INTERNAL void feint_variant_sqs_geo_generic_mesh_device(const feint_mesh_kernel_args *, int, int);
FEINT_INTERNAL void feint_variant_ssq_geo_linear_mesh_device(const feint_mesh_kernel_args *, int, int);
FEINT_INTERNAL void feint_variant_ssq_geo_generic_mesh_device(const feint_mesh_kernel_args *, int, int);
FEINT_INTERNAL void feint_variant_tensor_geo_linear_mesh_device(const feint_mesh_kernel_args *, int, int);
#endif

#endif /* FEINT_INTERNAL_H */
