/*
 * feint.h - public C API of feint (finite element numerical integration).
 *
 * feint computes element stiffness matrices A^e and load vectors b^e for
 * batches of first-order finite elements (formulas (6)-(7) of Banas, Kruzel,
 * Bielanski, "Finite element numerical integration for first order
 * approximations on multi-core architectures"), with one of seven algorithm
 * variants: the paper's six (loop orders QSS, SQS, SSQ x geometry treatment
 * geo_linear, geo_generic) and a reference-tensor form for affine elements
 * (tensor_geo_linear: the quadrature sums are constant tables, contracted
 * with each element's Jacobian terms), on the host with OpenMP threads +
 * SIMD.
 *
 * Conventions used throughout this header
 *  - All arrays are double precision and live in host memory.
 *  - "N_S" is the number of shape functions (= nodes) of the element, "N_Q"
 *    the number of quadrature points, N_D = 3 the space dimension.
 *  - Every function that can fail returns a feint_status; FEINT_SUCCESS is
 *    0 (the others return a string or an int: feint_status_string,
 *    feint_last_error, the *_name functions, feint_offload_built).  On any
 *    argument error the output arrays are left untouched, and
 *    feint_last_error() returns a sentence naming the argument, the value
 *    received and what is allowed.
 *  - Functions are thread-safe: the error record is thread-local.
 *  - Finite in, finite out: with the default flags, if every geometry and
 *    coefficient value is finite, feint_integrate either returns
 *    FEINT_SUCCESS and every entry of A_e and b_e is finite, or returns an
 *    error naming the lowest offending element and writes nothing:
 *    FEINT_ERR_DEGENERATE (the element fails the degeneracy criterion) or
 *    FEINT_ERR_NOT_FINITE (an entry's magnitude would exceed the range of
 *    double).  Well-shaped elements of any size a double can describe
 *    (1e-300 .. 1e300) are integrated; a result below the double range
 *    becomes a subnormal or zero.
 *
 * Degeneracy criterion (scale-invariant): at every quadrature point,
 *   det J >= 2^-40 m^3,  m = max_ab |J_ab|  (J = dx/dxi, m ~ the element's size).
 * det J / m^3 is unchanged by scaling and translation and about 1 for
 * well-shaped elements; 2^-40 is where the computed det J is still ~220
 * times its own rounding error (<= 18 eps m^3), so its sign is certain
 * (src/criterion.h derives it).  Aspect ratios up to ~10^12 pass.
 *
 * Safe range: elements with 2^-200 <= m <= 2^200 and coefficients of
 * magnitude <= 2^400 take the element loop as they are; the default call
 * integrates the others by exact power-of-two rescaling (a slower path,
 * src/rescale.c).  FEINT_FLAG_TRUST_GEOMETRY skips all of this: it assumes
 * accepted elements inside the safe range, and gives meaningless (possibly
 * non-finite) entries for an element that is not.
 *
 * Array shapes (natural layout; "e" is the element index, 0 <= e < num_elem)
 *  geometry : [num_elem][N_S][3]   node coordinates x,y,z of each vertex, in the
 *                                  node order of the reference element below.
 *  coeffs   : Poisson  [num_elem][N_Q]  the load f at each quadrature point,
 *                                  in the order of feint_element_info().qpts.
 *             conv-diff [num_elem][20]  c^{ij} for i,j = 0..3 row-major (16
 *                                  values, index 0 = function value, 1..3 =
 *                                  d/dx, d/dy, d/dz), then d^i, i = 0..3.
 *                                  Constant over the element.
 *             elasticity [num_elem][2 + 3 N_Q]  Lame lambda, mu (constant
 *                                  over the element), then the body force
 *                                  f = (f_x, f_y, f_z) at each quadrature
 *                                  point: [lambda, mu, f_0x, f_0y, f_0z,
 *                                  f_1x, ...].  Requires mu >= 0 and
 *                                  lambda + 2 mu / 3 > 0, finite.
 *             poisson_kappa [num_elem][N_Q][2]  variable-coefficient Poisson
 *                                  -div(kappa grad u) = f: one record
 *                                  (kappa_q, f_q) per quadrature point, in
 *                                  the order of feint_element_info().qpts
 *                                  (2 N_Q doubles: tet4 8, prism6 12, hex8
 *                                  16).  Requires kappa_q > 0 (not NaN) at
 *                                  every point.
 *             elasticity_qp [num_elem][N_Q][5]  elasticity with Lame
 *                                  coefficients varying inside the element:
 *                                  one record (lambda_q, mu_q, f_qx, f_qy,
 *                                  f_qz) per quadrature point (5 N_Q
 *                                  doubles: tet4 20, prism6 30, hex8 40).
 *                                  Requires mu_q >= 0 and lambda_q + 2 mu_q
 *                                  / 3 > 0 at every point.
 *             (Lame coefficients constant per element: elasticity; varying:
 *             elasticity_qp.  A, b and the dof order are those of
 *             elasticity, resp. Poisson for poisson_kappa.)
 *  A_e      : [num_elem][N][N] row-major, N = N_S (scalar problems) or 3 N_S
 *                                  (elasticity: dof 3 v + c is component c of
 *                                  vertex v, "vertex-major" as PETSc block
 *                                  size 3); A_e[e][r][s] couples test
 *                                  function r with trial function s.
 *                                  Elasticity (and elasticity_qp):
 *                                  A[3r+i][3s+j] = int lambda
 *                                  dphi_r/dx_i dphi_s/dx_j + mu dphi_r/dx_j
 *                                  dphi_s/dx_i + mu delta_ij grad phi_r .
 *                                  grad phi_s.
 *  b_e      : [num_elem][N]        elasticity: b[3r+i] = int f_i phi_r
 *
 * Blocked (coalesced) layout: elements are grouped in blocks of
 * FEINT_BLOCK_LEN; entry k of element e of an array with `size` entries per
 * element is stored at  [(e / B) * B * size + k * B + e % B]  with
 * B = FEINT_BLOCK_LEN.  A blocked array always holds whole blocks:
 * ceil(num_elem / B) * B * size doubles (use feint_array_len).  Entries of the
 * padding lanes of the last block are never read and never written.
 *
 * Packed symmetric output (FEINT_LAYOUT_PACKED, layout_out only; every
 * problem but conv-diff, whose A_e is not symmetric): A_e holds, element
 * after element, the upper triangle of each N x N matrix row by row,
 * N (N + 1) / 2 doubles per element: entry (i, j), j >= i, of element e at
 * [e * N (N + 1) / 2 + i N - i (i - 1) / 2 + (j - i)]; (j, i) is the same
 * value.  b_e is natural.  hex8 elasticity: 300 doubles instead of 576.
 * feint_array_len(..., FEINT_ARRAY_A, FEINT_LAYOUT_PACKED, ...) gives the
 * length (for the other arrays PACKED means natural); feint_array_entries
 * always gives the dense count N^2.
 *
 * Reference elements
 *  FEINT_TET4  : vertices (0,0,0) (1,0,0) (0,1,0) (0,0,1);
 *                phi = 1-x-y-z, x, y, z; 4-point degree-2 rule.
 *  FEINT_PRISM6: triangle (0,0) (1,0) (0,1) x segment z in [-1,1]; nodes 0-2
 *                at z=-1, nodes 3-5 above them at z=+1;
 *                phi = L_i(x,y) (1 -+ z)/2; 3-point degree-2 triangle rule
 *                x 2-point Gauss rule = 6 points (triangle point fastest).
 *  FEINT_HEX8  : the cube [-1,1]^3, trilinear; node order of Gmsh and VTK
 *                (the same for both, so their files need no conversion):
 *                bottom face z=-1 counter-clockwise seen from above,
 *                0 (-1,-1,-1) 1 (1,-1,-1) 2 (1,1,-1) 3 (-1,1,-1), then the
 *                top face z=+1 with node 4+i above node i;
 *                phi_n = (1 + x_n x)(1 + y_n y)(1 + z_n z) / 8;
 *                2x2x2 Gauss rule (+-1/sqrt3, weights 1, degree 3 in each
 *                variable), point q = i + 2j + 4k at (g_i, g_j, g_k),
 *                g_0 = -1/sqrt3, g_1 = +1/sqrt3 (x fastest).
 *
 * Alignment: the arrays need only the alignment of a double (malloc's is
 * enough); clang builds write A_e and b_e with streaming stores whatever
 * their alignment.
 * Natural outputs whose rows span whole cache lines (N * N a multiple of 8)
 * at a 16-byte aligned address (malloc's) skip one copy through L1.
 */
#ifndef FEINT_H
#define FEINT_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define FEINT_VERSION_MAJOR 0
#define FEINT_VERSION_MINOR 1
#define FEINT_VERSION_STRING "0.1.0"

/* Number of elements per block of the blocked layout (one SIMD vector of
 * doubles on AVX-512, two on AVX2; a quarter warp on NVIDIA GPUs). */
#define FEINT_BLOCK_LEN 8

/* Largest N_S and N_Q of any element feint supports (for stack buffers). */
#define FEINT_MAX_NODES 8
#define FEINT_MAX_QPTS 8

typedef enum {
  FEINT_SUCCESS = 0,
  FEINT_ERR_NULL_ARG,      /* a required pointer was NULL */
  FEINT_ERR_BAD_SIZE,      /* a size is invalid or overflows size_t */
  FEINT_ERR_OUT_OF_RANGE,  /* an enum or index argument is out of range */
  FEINT_ERR_UNSUPPORTED,   /* valid arguments, but a combination feint refuses */
  FEINT_ERR_NO_DEVICE,     /* a device was required and none is available */
  FEINT_ERR_ALLOC,         /* memory allocation failed */
  FEINT_ERR_DEVICE,        /* the device runtime reported an error */
  FEINT_ERR_DEGENERATE,    /* an element is degenerate or inverted */
  FEINT_ERR_NOT_AFFINE,    /* geo_linear was asked for on a non-affine element */
  FEINT_ERR_NOT_FINITE,    /* an input value (coefficient, coordinate) is not finite, or a
                              result would exceed the range of double */
  FEINT_ERR_FORMAT,        /* a file is malformed (message: line or byte offset) */
  FEINT_ERR_IO,            /* a file could not be opened, read or written */
  FEINT_ERR_BAD_COEFF,     /* a physical coefficient is inadmissible (elasticity: mu < 0
                              or lambda + 2 mu / 3 <= 0 or NaN; poisson_kappa: kappa <= 0
                              or NaN) */
  FEINT_ERR_NOT_CONVERGED, /* an iterative solver reached its iteration limit (feint_solve) */
  FEINT_ERR_BREAKDOWN,     /* an iterative solver met a division by zero or a negative
                              curvature: the operator is not symmetric positive definite */
  FEINT_STATUS_COUNT
} feint_status;

typedef enum { FEINT_TET4 = 0, FEINT_PRISM6, FEINT_HEX8, FEINT_ELEMENT_COUNT } feint_element;

typedef enum {
  FEINT_POISSON = 0, /* -Laplace u = f */
  FEINT_CONVDIFF,    /* convection-diffusion-reaction, c and d per element */
  FEINT_ELASTICITY,  /* 3-D isotropic linear elasticity (3 dofs per node) */
  FEINT_POISSON_KAPPA, /* -div(kappa grad u) = f, kappa and f at every quadrature point */
  FEINT_ELASTICITY_QP, /* elasticity with lambda, mu (and f) at every quadrature point */
  FEINT_PROBLEM_COUNT
} feint_problem;

typedef enum {
  FEINT_QSS_GEO_LINEAR = 0, /* Algorithm 3 of the paper */
  FEINT_QSS_GEO_GENERIC,    /* Algorithm 2 */
  FEINT_SQS_GEO_LINEAR,     /* Algorithm 5 */
  FEINT_SQS_GEO_GENERIC,    /* Algorithm 4 */
  FEINT_SSQ_GEO_LINEAR,     /* Algorithm 7 */
  FEINT_SSQ_GEO_GENERIC,    /* Algorithm 6 */
  FEINT_TENSOR_GEO_LINEAR,  /* reference-tensor form, affine elements (not in the paper):
                               fewest flops where coefficients are constant per element */
  FEINT_VARIANT_COUNT
} feint_variant;

typedef enum {
  FEINT_LAYOUT_NATURAL = 0, /* one element's entries contiguous */
  FEINT_LAYOUT_BLOCKED,     /* blocks of FEINT_BLOCK_LEN elements, lane fastest */
  FEINT_LAYOUT_PACKED,      /* output only, symmetric problems: A_e's upper triangle */
  FEINT_LAYOUT_COUNT
} feint_layout;

/* The per-element arrays of one integration call. */
typedef enum {
  FEINT_ARRAY_GEOMETRY = 0,
  FEINT_ARRAY_COEFFS,
  FEINT_ARRAY_A,
  FEINT_ARRAY_B,
  FEINT_ARRAY_COUNT
} feint_array;

/* Where an integration runs. */
typedef enum {
  FEINT_TARGET_HOST = 0, /* OpenMP threads + SIMD on the host */
  FEINT_TARGET_DEVICE,   /* OpenMP target offload (build with make GPU=sm_XX) */
  FEINT_TARGET_COUNT
} feint_target;

/* Flags of feint_integrate_desc.flags. */
enum {
  /* Skip the validation pass over the geometry and coefficients (degenerate,
   * inverted and, for geo_linear, non-affine elements; the safe range).  The
   * caller promises valid elements inside the safe range (see the top of
   * this header); any other element gets meaningless, possibly non-finite,
   * A_e/b_e (never affecting other elements).  Saves one read of the
   * geometry and coefficient arrays. */
  FEINT_FLAG_TRUST_GEOMETRY = 1u << 0,
  /* FEINT_TARGET_DEVICE only: the four arrays are device pointers from
   * feint_device_alloc() on desc->device, so the call moves no data.
   * Without it they are host arrays, copied to and from the device on every
   * call (the transfers are then part of the call). */
  FEINT_FLAG_DEVICE_POINTERS = 1u << 1,
  /* FEINT_TARGET_DEVICE only: if no device is available (host-only build, or
   * no GPU at run time), run on the host instead of failing with
   * FEINT_ERR_NO_DEVICE.  feint_last_execution() tells where it ran. */
  FEINT_FLAG_ALLOW_HOST_FALLBACK = 1u << 2
};

/* One integration call: which case, which variant, which layouts, where.
 * Fields left zero mean: host target, no flags. */
typedef struct {
  feint_element element;
  feint_problem problem;
  feint_variant variant;
  feint_layout layout_in;  /* geometry and coeffs: natural or blocked */
  feint_layout layout_out; /* A_e and b_e: natural, blocked or packed */
  unsigned flags;          /* 0 or FEINT_FLAG_* */
  feint_target target;     /* FEINT_TARGET_HOST (0) or FEINT_TARGET_DEVICE */
  int device;              /* device number for FEINT_TARGET_DEVICE (0: the first) */
} feint_integrate_desc;

/* Where the last successful call on this thread ran (feint_last_execution). */
typedef struct {
  feint_target ran_on; /* FEINT_TARGET_HOST or FEINT_TARGET_DEVICE */
  int device;          /* device number if ran_on == FEINT_TARGET_DEVICE, else -1 */
  int host_fallback;   /* 1: a device was asked for and the host ran instead */
} feint_execution;

/* Description of a variant, for iteration by tests and benchmarks. */
typedef struct {
  const char *name;        /* "qss_geo_linear", ... */
  const char *algorithm;   /* "Algorithm 3 (seed 000)" */
  const char *description; /* one sentence */
  const char *runs_on;     /* "host" (this build) */
  int geo_linear;          /* 1 if the variant needs affine elements */
  int deterministic;       /* 1: bitwise identical results run to run */
} feint_variant_info;

/* Reference element data, exposed for tests and host codes. */
typedef struct {
  const char *name; /* "tet4", "prism6", "hex8" */
  int num_nodes;    /* N_S */
  int num_qpts;     /* N_Q */
  int qdeg;         /* polynomial degree the quadrature integrates exactly */
  double ref_volume;                       /* volume of the reference element */
  const double (*nodes)[3];                /* [N_S][3] reference node coordinates */
  const double (*qpts)[3];                 /* [N_Q][3] quadrature points */
  const double *qwts;                      /* [N_Q] weights (sum = ref_volume) */
  const double (*phi)[FEINT_MAX_NODES];    /* [N_Q][N_S] shape values at qpts */
  const double (*dphi)[FEINT_MAX_NODES][3]; /* [N_Q][N_S][3] reference gradients */
} feint_element_info;

/* ---- Status and errors -------------------------------------------------- */

/* One sentence describing a status code (never NULL). */
const char *feint_status_string(feint_status status);

/* The message recorded by the last failing feint call on this thread:
 * "function(): sentence".  Empty string if none failed. */
const char *feint_last_error(void);

/* ---- Introspection ------------------------------------------------------ */

/* Fill *info for a variant.  FEINT_ERR_OUT_OF_RANGE for an unknown variant. */
feint_status feint_variant_get_info(feint_variant variant, feint_variant_info *info);

/* Fill *info for an element type.
 * Errors: FEINT_ERR_NULL_ARG (info), FEINT_ERR_OUT_OF_RANGE (element). */
feint_status feint_element_get_info(feint_element element, feint_element_info *info);

/* Evaluate all shape functions of an element at a point xi of its reference
 * element: phi[n] (n < N_S) and, if dphi != NULL, the reference gradients
 * dphi[n][0..2] = d phi_n / d xi_0..2.  Points outside the element are
 * allowed (the polynomials are evaluated).
 * Errors: FEINT_ERR_OUT_OF_RANGE (element), FEINT_ERR_NULL_ARG (xi, phi). */
feint_status feint_element_eval(feint_element element, const double xi[3], double *phi,
                                double (*dphi)[3]);

/* Names of enum values ("tet4", "poisson", "natural"); NULL if out of range. */
const char *feint_element_name(feint_element element);
const char *feint_problem_name(feint_problem problem);
const char *feint_layout_name(feint_layout layout);

/* Number of doubles per element of one array of a case (Table 3 of the
 * paper): e.g. tet4/poisson geometry 12, coeffs 4, A 16, b 4.
 * Errors: FEINT_ERR_NULL_ARG (entries), FEINT_ERR_OUT_OF_RANGE (element,
 * problem, array). */
feint_status feint_array_entries(feint_element element, feint_problem problem,
                                 feint_array array, size_t *entries);

/* Number of doubles to allocate for one array of num_elem elements in a
 * layout (blocked rounds up to whole blocks; packed: N (N + 1) / 2 per
 * element for A_e, natural for the other arrays).
 * Errors: FEINT_ERR_NULL_ARG (len), FEINT_ERR_OUT_OF_RANGE (element, problem,
 * array, layout), FEINT_ERR_BAD_SIZE if the count, or the count in bytes,
 * overflows size_t; FEINT_ERR_UNSUPPORTED for A_e of conv-diff in the packed
 * layout (not symmetric). */
feint_status feint_array_len(feint_element element, feint_problem problem, feint_array array,
                             feint_layout layout, size_t num_elem, size_t *len);

/* ---- Integration -------------------------------------------------------- */

/* Compute A_e and b_e for num_elem elements of one case.
 *  desc     : case, variant, layouts, flags and target (feint_integrate_desc).
 *  geometry : feint_array_len(..., FEINT_ARRAY_GEOMETRY, layout_in) doubles
 *  coeffs   : feint_array_len(..., FEINT_ARRAY_COEFFS, layout_in) doubles
 *  A_e, b_e : layout_out; fully overwritten (padding lanes of a blocked
 *             array excepted).  A_e and b_e must not overlap the inputs or
 *             each other.
 *  Memory space: host arrays, unless desc->target is FEINT_TARGET_DEVICE and
 *  desc->flags has FEINT_FLAG_DEVICE_POINTERS (then all four are device
 *  pointers on desc->device).
 * num_elem = 0 writes nothing (pointers may then be NULL); desc, its target
 * and device are still checked.
 * Errors: FEINT_ERR_NULL_ARG (desc; an array with num_elem > 0),
 * FEINT_ERR_OUT_OF_RANGE (enum values, desc->target included; unknown bits in
 * desc->flags; desc->device < 0 with FEINT_TARGET_DEVICE),
 * FEINT_ERR_BAD_SIZE (overflow), FEINT_ERR_DEGENERATE (an element failing the
 * degeneracy criterion above, or with a non-finite coordinate; the message
 * names the lowest such element index), FEINT_ERR_NOT_AFFINE (geo_linear
 * variant on a non-affine element; the message names it),
 * FEINT_ERR_BAD_COEFF (elasticity, elasticity_qp: an element with mu < 0,
 * lambda + 2 mu / 3 <= 0 or NaN Lame coefficients; poisson_kappa: kappa <= 0
 * or NaN; the message names the lowest such element, the quadrature point
 * for the per-point cases, and the values),
 * FEINT_ERR_NOT_FINITE (a non-finite coefficient, or an element whose
 * A_e/b_e entries would exceed the double range; named),
 * FEINT_ERR_UNSUPPORTED (A_e or b_e overlapping another of the four arrays;
 * FEINT_FLAG_DEVICE_POINTERS with FEINT_TARGET_HOST; an element outside the
 * safe range with FEINT_FLAG_DEVICE_POINTERS: its rescaled path runs on host
 * arrays only; layout_in = FEINT_LAYOUT_PACKED; packed output of conv-diff),
 * FEINT_ERR_NO_DEVICE (device target, desc->device not an available device
 * (host-only build, no GPU, or a number >= the device count), and no
 * FEINT_FLAG_ALLOW_HOST_FALLBACK, or FEINT_FLAG_DEVICE_POINTERS, which cannot
 * fall back), FEINT_ERR_ALLOC (device copies of host arrays; with
 * FEINT_FLAG_DEVICE_POINTERS the host copy of geometry and coeffs that the
 * checks read), FEINT_ERR_DEVICE (a device copy failed).
 * The geometry and coefficient checks are skipped with
 * FEINT_FLAG_TRUST_GEOMETRY. */
feint_status feint_integrate(const feint_integrate_desc *desc, size_t num_elem,
                             const double *geometry, const double *coeffs, double *A_e,
                             double *b_e);

/* Where the last successful call of this thread that takes a target ran:
 * feint_integrate (also with num_elem = 0: where it would have run),
 * feint_integrate_mesh (also with mesh->num_elem = 0), feint_assemble,
 * feint_assemble_mapped and feint_csr_spmv; also
 * feint_operator_create, through the feint_assemble (ASSEMBLED form) or
 * feint_integrate_mesh (other forms) that it calls.  feint_operator_apply
 * and feint_solve do not set it, nor does a failing call (though a failing
 * feint_operator_create may have set it before it failed).  A call that
 * asked for a device and ran on the host says so here (never silently).
 * Errors: FEINT_ERR_NULL_ARG (exec), FEINT_ERR_UNSUPPORTED (no such call has
 * succeeded on this thread yet; *exec untouched). */
feint_status feint_last_execution(feint_execution *exec);

/* ---- Devices (OpenMP target offload) -------------------------------------
 * In a host-only build feint_device_count returns FEINT_SUCCESS with count 0,
 * and feint_device_alloc, _free, _copy_to and _copy_from return
 * FEINT_ERR_NO_DEVICE whatever their arguments (feint_device_free(d, NULL)
 * included; feint_device_alloc returns FEINT_ERR_NULL_ARG first if ptr is
 * NULL).  An offload build with no device available (no GPU, or
 * OMP_TARGET_OFFLOAD=DISABLED) returns FEINT_ERR_NO_DEVICE from them too.
 * Device memory is addressed with plain pointers that are valid only on that
 * device. */

/* Number of offload devices visible to this build (0 in a host-only build).
 * Errors: FEINT_ERR_NULL_ARG (count). */
feint_status feint_device_count(int *count);

/* 1 if this library was built with offload support (make GPU=sm_XX). */
int feint_offload_built(void);

/* Allocate / free `bytes` of memory on `device`.
 * Errors (both): FEINT_ERR_NO_DEVICE (no device available, see above),
 * FEINT_ERR_OUT_OF_RANGE (device outside [0, count)); alloc also
 * FEINT_ERR_NULL_ARG (ptr), FEINT_ERR_BAD_SIZE (bytes = 0), FEINT_ERR_ALLOC
 * (omp_target_alloc failed).  free: ptr NULL on a valid device is a no-op. */
feint_status feint_device_alloc(int device, size_t bytes, void **ptr);
feint_status feint_device_free(int device, void *ptr);

/* Copy `bytes` host -> device and device -> host.  bytes = 0 is a no-op
 * (pointers may be NULL) once the device is checked.
 * Errors: FEINT_ERR_NO_DEVICE and FEINT_ERR_OUT_OF_RANGE (device) as
 * feint_device_alloc, FEINT_ERR_NULL_ARG (dst or src with bytes > 0),
 * FEINT_ERR_DEVICE (omp_target_memcpy failed). */
feint_status feint_device_copy_to(int device, void *dst_device, const void *src_host,
                                  size_t bytes);
feint_status feint_device_copy_from(int device, void *dst_host, const void *src_device,
                                    size_t bytes);

/* Copy an array of num_elem elements, `entries` doubles each, from one layout
 * to the other (src and dst must not overlap; natural and blocked only:
 * FEINT_LAYOUT_PACKED is FEINT_ERR_UNSUPPORTED).  Same layout: plain copy
 * (blocked: the valid lanes only; padding lanes of src are not read, those
 * of dst are not written).  num_elem = 0 is a no-op (pointers may be NULL).
 * Errors: FEINT_ERR_OUT_OF_RANGE (src_layout, dst_layout),
 * FEINT_ERR_UNSUPPORTED (a packed layout; src and dst overlapping),
 * FEINT_ERR_NULL_ARG (src or dst with num_elem > 0), FEINT_ERR_BAD_SIZE
 * (entries = 0 with num_elem > 0; the size in bytes overflows size_t). */
feint_status feint_layout_convert(size_t num_elem, size_t entries, feint_layout src_layout,
                                  const double *src, feint_layout dst_layout, double *dst);

/* Serial reference implementation (the judge of every variant): natural
 * layout in and out, plain loops, no OpenMP.  If A_abs/b_abs are non-NULL
 * they receive, entry by entry, the sum of the absolute values of the terms
 * that were added, with each global shape-function derivative replaced by
 * the scale of its round-off (cofactors and det J evaluated with absolute
 * values, see reference.c): the S of round-off tolerances n * eps * S.
 * Only the arguments are checked, never the values: a degenerate element
 * (det J = 0) gives non-finite entries and an inverted one entries of the
 * opposite sign (signed det J), both with FEINT_SUCCESS; coefficients are
 * used as given (kappa <= 0, mu < 0, NaN or Inf accepted).  No overlap check.
 * num_elem = 0 is a no-op (element and problem are still checked).
 * Errors: FEINT_ERR_OUT_OF_RANGE (element, problem), FEINT_ERR_NULL_ARG
 * (geometry, coeffs, A_e or b_e NULL with num_elem > 0; A_abs and b_abs may
 * be NULL), FEINT_ERR_BAD_SIZE (an array's size in bytes overflows size_t). */
feint_status feint_integrate_reference(feint_element element, feint_problem problem,
                                       size_t num_elem, const double *geometry,
                                       const double *coeffs, double *A_e, double *b_e,
                                       double *A_abs, double *b_abs);

/* ---- Mesh generation ---------------------------------------------------- */

typedef enum {
  FEINT_PERTURB_NONE = 0, /* regular grid */
  FEINT_PERTURB_GENERAL,  /* every interior vertex moved independently */
  FEINT_PERTURB_AFFINE    /* prisms stay affine: x,y moved per vertical column,
                             z per horizontal layer; hexahedra stay boxes:
                             x moved per yz grid plane, y per xz plane, z per
                             xy plane; tets (affine whatever the
                             perturbation) move like prisms: x,y per column,
                             z per layer, a mesh different from GENERAL's */
} feint_perturb;

/* Elements of the unit box [0,1]^3 split into nx*ny*nz cells: 6 tetrahedra
 * per cell (Kuhn split, conforming), 2 prisms per cell (vertical prisms over
 * the two triangles of the cell's xy square) or 1 hexahedron per cell (the
 * cell itself, nodes in the reference order); element and node order as in
 * feint_mesh_box_create.  num_elem = 6, 2 or 1 times nx ny nz
 * (feint_mesh_box_count).  With a perturbation, interior vertices
 * move by up to `amplitude` times the cell size in each coordinate
 * (0 <= amplitude < 1/6 keeps every element valid: the worst case over all
 * perturbations is det J = (1 - 6 amplitude) h^3 for a tetrahedron, see
 * src/mesh/box.c; prisms and hexahedra have the same limit; larger
 * amplitudes are refused), drawn
 * from a fixed-seed generator (`seed`), so no two elements are alike.
 * geometry receives feint_array_len(..., FEINT_ARRAY_GEOMETRY, layout,
 * num_elem) doubles.
 * Errors: FEINT_ERR_NULL_ARG (num_elem of _count, geometry of _box),
 * FEINT_ERR_OUT_OF_RANGE (element; _box: perturb, layout, amplitude outside
 * [0, 1/6) or NaN), FEINT_ERR_BAD_SIZE (nx, ny or nz = 0; more than about
 * SIZE_MAX / 64 elements; _box: more than 2^32 - 1 vertices),
 * FEINT_ERR_ALLOC (_box: it builds the mesh of feint_mesh_box_create, then
 * gathers); geometry untouched on error. */
feint_status feint_mesh_box_count(feint_element element, size_t nx, size_t ny, size_t nz,
                                  size_t *num_elem);
feint_status feint_mesh_box(feint_element element, size_t nx, size_t ny, size_t nz,
                            feint_perturb perturb, double amplitude, unsigned long long seed,
                            feint_layout layout, double *geometry);

/* ---- Meshes -------------------------------------------------------------
 * An unstructured mesh of one element type, as a host finite element code
 * holds it: vertex coordinates and element connectivity, both plain arrays.
 * A host code may fill the struct with its own arrays (feint never frees
 * them); meshes made by feint (readers, generators) own their arrays and are
 * released with feint_mesh_destroy().
 *
 *  coords      : [num_vertices][3]  x, y, z of each vertex.
 *  conn        : [num_elem][N_S]    0-based vertex indices of each element, in
 *                                   the node order of the reference element
 *                                   (see "Reference elements" above).
 *  elem_tags   : [num_elem] or NULL the Gmsh physical group of each element
 *                                   (0: none).
 *  faces       : [num_faces][4] or NULL  boundary faces carried for their tags
 *                                   (triangles: 4th index FEINT_NO_VERTEX).
 *  face_tags   : [num_faces] or NULL the physical group of each face.
 * Counts are size_t; vertex indices are 32-bit, so num_vertices <= 2^32 - 1. */
#define FEINT_NO_VERTEX UINT32_MAX
typedef struct {
  feint_element element;
  size_t num_vertices;
  size_t num_elem;
  double *coords;
  uint32_t *conn;
  int32_t *elem_tags;
  size_t num_faces;
  uint32_t *faces;
  int32_t *face_tags;
  int owns_arrays; /* 1: made by feint, free with feint_mesh_destroy() */
} feint_mesh;

/* Release a mesh: if mesh->owns_arrays, free its arrays; in every case zero
 * the struct (so a second destroy is a harmless no-op).  Arrays of a mesh the
 * caller filled (owns_arrays = 0) are never freed.
 * Errors: FEINT_ERR_NULL_ARG (mesh NULL). */
feint_status feint_mesh_destroy(feint_mesh *mesh);

/* Structural check of a mesh, reading it only: the first problem found, in
 * this order, is returned with a message naming the element, face or vertex:
 *  FEINT_ERR_NULL_ARG     mesh, coords or conn NULL; faces NULL with
 *                         num_faces > 0
 *  FEINT_ERR_OUT_OF_RANGE element not a feint_element; a conn or faces index
 *                         outside [0, num_vertices) ("element 12 node 3 is
 *                         vertex 99, outside [0, num_vertices = 64)")
 *  FEINT_ERR_BAD_SIZE     empty mesh (num_vertices or num_elem 0),
 *                         num_vertices > 2^32 - 1, or array byte sizes that
 *                         overflow size_t
 *  FEINT_ERR_NOT_FINITE   a NaN or infinite coordinate ("vertex 7 has
 *                         coordinate y = nan")
 *  FEINT_ERR_DEGENERATE   an element or face with a repeated vertex
 * (the size checks come before the pointer checks of coords/conn; within a
 * kind the lowest bad vertex / element / face index is named, elements
 * before faces).  Tags are not checked (any int32 is a tag).  Orientation
 * (det J sign) is not checked here: see feint_mesh_orient.  Cost: one
 * parallel pass over coords, conn and faces (on the error path only, a
 * second search of conn or faces). */
feint_status feint_mesh_check(const feint_mesh *mesh);

/* Per-element coordinates of a mesh (the geometry array of
 * feint_integrate): geometry receives feint_array_len(mesh->element, ...,
 * FEINT_ARRAY_GEOMETRY, layout, mesh->num_elem) doubles, element e's node n
 * being coords[conn[e][n]].  Runs feint_mesh_check first (its errors);
 * FEINT_ERR_NULL_ARG if geometry is NULL; geometry untouched on error. */
feint_status feint_mesh_gather_geometry(const feint_mesh *mesh, feint_layout layout,
                                        double *geometry);

/* Detect inverted elements (det J < 0 at every quadrature point) and reorder
 * their nodes in mesh->conn so that det J > 0; *num_fixed (if num_fixed is
 * not NULL) receives how many were reordered.  The reordering is a
 * reflection of the reference element (x <-> y): tet4 swaps nodes 1 and 2,
 * prism6 swaps 1 <-> 2 and 4 <-> 5 (both triangles reversed, bottom and top
 * kept), hex8 swaps 1 <-> 3 and 5 <-> 7 (both quads reversed, bottom and top
 * kept).  The signs are those of det J of the element scaled by an exact
 * power of two into (-1, 1), so elements of any size a double can describe
 * are classified (a mesh feint_integrate accepts is oriented, not refused),
 * and ordinary meshes exactly as by the raw det J.
 * Only conn changes (coords, tags and faces do not).  Errors: those of
 * feint_mesh_check, and FEINT_ERR_DEGENERATE naming the first element whose
 * det J is zero, non-finite or changes sign inside it (no reordering fixes
 * it); on error nothing is written. */
feint_status feint_mesh_orient(feint_mesh *mesh, size_t *num_fixed);

/* Read a Gmsh MSH 4.1 file (ASCII or binary, either byte order; Gmsh:
 * `gmsh -3 -format msh41 [-bin] file.geo`) into a feint-owned mesh (release
 * with feint_mesh_destroy).
 *  elements : the 3-D elements, one type per file: 4-node tetrahedra (Gmsh
 *             type 4), 6-node prisms (type 6) or 8-node hexahedra (type 5);
 *             Gmsh's node orders are feint's (tet: (0,0,0) (1,0,0) (0,1,0)
 *             (0,0,1); prism: bottom triangle 0-2, top 3-5 above them; hex:
 *             bottom face 0-3 counter-clockwise seen from above, top 4-7
 *             above them), nodes are not reordered (see feint_mesh_orient).
 *             Order: as in the file.  Gmsh's numbering of vertices and
 *             elements keeps no neighbours together: renumber the mesh
 *             (feint_mesh_renumber) before assembling on it (a 4.3 M-tet
 *             Gmsh cube, one Zen 4 core: 231 -> 29 ns per tet).
 *  elem_tags: always allocated: the first physical tag of the element's
 *             entity ($Entities), 0 if it has none or the file has no
 *             $Entities.
 *  faces    : every triangle (type 2; 4th index FEINT_NO_VERTEX) and
 *             quadrangle (type 3) of the file, tagged like elements (NULL
 *             if none).  Points and lines (types 15, 1, 8) are skipped.
 *  vertices : the nodes used by an element or a face, in file order (node
 *             tags may be non-contiguous; parametric coordinates are
 *             skipped).  $PhysicalNames is validated, names are not kept.
 * Errors (message: file name, then "line N" (ASCII) or "byte offset N"
 * (binary), then what was found): FEINT_ERR_NULL_ARG, FEINT_ERR_IO (cannot
 * open or read), FEINT_ERR_FORMAT (not a .msh file, truncated, counts that
 * disagree with the data or with the bytes left, numbers that do not parse,
 * unknown element types, node tags outside [minNodeTag, maxNodeTag] or not
 * in $Nodes, duplicate node tags, missing $Nodes / $Elements, a binary
 * byte-order int that is 1 in neither byte order), FEINT_ERR_UNSUPPORTED
 * (version other than 4.1; mixed 3-D element types; pyramids and
 * higher-order elements; no 3-D element), FEINT_ERR_BAD_SIZE (more than
 * 2^32 - 2 nodes), FEINT_ERR_ALLOC, and those of feint_mesh_check on the
 * result (NaN coordinates, repeated vertices).  On error *mesh is untouched
 * and nothing is leaked. */
feint_status feint_mesh_read_msh(const char *path, feint_mesh *mesh);

/* feint_mesh_read_msh on `size` bytes in memory (data need not be
 * NUL-terminated; it is copied).  Messages name the file "<buffer>". */
feint_status feint_mesh_read_msh_buffer(const void *data, size_t size, feint_mesh *mesh);

/* What feint_mesh_renumber renumbers (bit flags). */
enum { FEINT_RENUMBER_VERTICES = 1u << 0, FEINT_RENUMBER_ELEMENTS = 1u << 1 };

/* Renumber a mesh for locality, in place: vertices (FEINT_RENUMBER_VERTICES)
 * in the order of their position along a Hilbert space-filling curve over
 * the mesh's bounding box, elements (FEINT_RENUMBER_ELEMENTS) in the order
 * of their centroids along the same curve (after the vertices, if both);
 * ties keep the old order, so the result is deterministic and the same for
 * any thread count.  Any finite mesh
 * is ordered (a bounding box down to a point, up to +-DBL_MAX); a mesh
 * scaled by a power of two gets the same permutations.  Elements alone
 * (vertex data stays where it is) recover most of the locality: on a Gmsh
 * mesh, 48 instead of 29 ns per tet of assembly, against 231 unrenumbered.
 * Cost: ~0.1 us per element and vertex (4.3 M tets, 2 Zen 4 threads: 0.39 s).
 * coords, conn (rows and vertex indices), elem_tags and the vertex indices
 * of faces follow; faces keep their order; each element keeps its node order
 * (and so its orientation).  Works on caller-owned meshes too (the arrays
 * are rewritten, not replaced).
 *  vertex_new_of_old : NULL or [num_vertices]: new index of old vertex v
 *                      (identity if vertices are not renumbered), so vertex
 *                      data moves as data_new[vertex_new_of_old[v]] =
 *                      data_old[v].
 *  elem_new_of_old   : NULL or [num_elem]: likewise for elements.
 * Errors: those of feint_mesh_check, FEINT_ERR_OUT_OF_RANGE (unknown bits in
 * what), FEINT_ERR_ALLOC (temporary arrays: about 36 bytes per vertex or
 * element plus one copy of coords or conn); on error nothing is written. */
feint_status feint_mesh_renumber(feint_mesh *mesh, unsigned what, uint32_t *vertex_new_of_old,
                                 size_t *elem_new_of_old);

/* A named data array for feint_mesh_write_vtu: values [n][num_components]
 * (n = num_vertices for point data, num_elem for cell data), row-major. */
typedef struct {
  const char *name;     /* the DataArray's Name: non-empty UTF-8, no control
                           bytes (< 0x20, 0x7f), unique among the fields of
                           its kind (XML-escaped on output) */
  int num_components;   /* 1 (scalar), 3 (vector), ... at most 9 */
  const double *values; /* host array, [n][num_components] */
} feint_vtu_field;

/* Write a mesh and data on it as a VTK XML unstructured grid (.vtu, ASCII;
 * ParaView, VisIt and VTK read it): points = coords, cells = conn with VTK
 * types 10 (tet4) and 12 (hex8), same node orders, and 13 (prism6 =
 * VTK_WEDGE, written in node order 0 2 1 3 5 4: VTK's wedge turns the other
 * way round),
 * point data `point_fields` [num_point_fields], cell data `cell_fields`
 * [num_cell_fields], plus the Int32 cell data "elem_tags" if
 * mesh->elem_tags != NULL.  Doubles are printed with 17 significant digits
 * (they read back exactly).  The file is overwritten.
 * Errors: those of feint_mesh_check; FEINT_ERR_NULL_ARG (path, a fields
 * array with a nonzero count, a name or values NULL, an empty name);
 * FEINT_ERR_OUT_OF_RANGE (num_components outside 1..9; a name with a control
 * byte, 0x01..0x1f or 0x7f, or not well-formed UTF-8 (the file's encoding):
 * the message names the field, the byte and its offset); FEINT_ERR_UNSUPPORTED (two fields of one kind with the same name,
 * or a cell field named "elem_tags" while mesh->elem_tags != NULL);
 * FEINT_ERR_NOT_FINITE (a NaN or infinite value: the message names field,
 * item and component); all checked before the file is opened; FEINT_ERR_IO
 * (cannot open, or a write error: the message gives the cause and says
 * whether the partial file was removed, which happens only if the path names
 * the regular file this call created or truncated; a device, FIFO or
 * symbolic link at the path is left as it is). */
feint_status feint_mesh_write_vtu(const char *path, const feint_mesh *mesh, size_t num_point_fields,
                                  const feint_vtu_field *point_fields, size_t num_cell_fields,
                                  const feint_vtu_field *cell_fields);

/* The box meshes of feint_mesh_box, with shared vertices and connectivity:
 * the same elements in the same order with the same node coordinates
 * (feint_mesh_box is this followed by feint_mesh_gather_geometry).
 *  vertices : (nx+1)(ny+1)(nz+1); vertex (i, j, k) of the grid (0 <= i <= nx,
 *             ...) has index (k (ny+1) + j) (nx+1) + i.
 *  elements : cell (i, j, k) has index c = (k ny + j) nx + i and holds
 *             elements 6c..6c+5 (tets, Kuhn split: every tet has the cell's
 *             diagonal (i,j,k)-(i+1,j+1,k+1) as an edge), 2c, 2c+1 (prisms
 *             over the triangles (00,10,11) and (00,11,01) of the cell's xy
 *             square) or c (hexahedra: the cell, nodes (i,j,k) (i+1,j,k)
 *             (i+1,j+1,k) (i,j+1,k), then the same at k+1: the reference
 *             order); every element has det J > 0.
 *  faces    : every boundary face (tets: 2 triangles per boundary cell face;
 *             prisms: triangles on z = 0, 1, quads on the sides; hexahedra:
 *             1 quad per boundary cell face), tagged
 *             1 (x = 0), 2 (x = 1), 3 (y = 0), 4 (y = 1), 5 (z = 0),
 *             6 (z = 1); elem_tags is NULL.
 * The mesh owns its arrays: release it with feint_mesh_destroy().  Errors:
 * FEINT_ERR_NULL_ARG (mesh), FEINT_ERR_OUT_OF_RANGE (element, perturb,
 * amplitude as feint_mesh_box), FEINT_ERR_BAD_SIZE (nx, ny or nz = 0; too many
 * elements as feint_mesh_box_count; a vertex count above 2^32 - 1),
 * FEINT_ERR_ALLOC; *mesh untouched on error. */
feint_status feint_mesh_box_create(feint_element element, size_t nx, size_t ny, size_t nz,
                                   feint_perturb perturb, double amplitude,
                                   unsigned long long seed, feint_mesh *mesh);

/* ---- Integration and assembly from a mesh --------------------------------
 * The element loop reads the mesh itself: each element's vertex coordinates
 * are gathered through mesh->conn inside the loop (no per-element geometry
 * array is ever stored), then one of the variants integrates it.  The
 * results go to per-element arrays (feint_integrate_mesh) or are added
 * straight into a global CSR matrix and vector (feint_assemble: A^e is
 * never stored).
 *
 * Checks (skipped with FEINT_FLAG_TRUST_GEOMETRY, which promises a valid
 * mesh): every connectivity index below num_vertices, no vertex twice in an
 * element, finite coordinates at every vertex an element uses, det J > 0 at
 * every quadrature point, and affine prisms for geo_linear variants; the
 * message names the element (and vertex).  The assembly calls take the
 * geometry's findings from their plan when the mesh is the one the plan
 * was made from (feint_assembly_create).  Memory space: host arrays; a
 * device target copies the mesh, coefficients and outputs to the device and
 * back in each call (FEINT_FLAG_DEVICE_POINTERS is not supported on these
 * paths yet: FEINT_ERR_UNSUPPORTED).  Cases: every element (tet4, prism6,
 * hex8) with Poisson, conv-diff and elasticity (poisson_kappa and
 * elasticity_qp, and the packed layout in (and out, where there is
 * per-element output), are refused with FEINT_ERR_UNSUPPORTED until the mesh
 * paths take them); elasticity has
 * 3 dofs per vertex (dof 3 v + c, as in A^e: element dof 3 r + c), its
 * coefficients must be admissible (FEINT_ERR_BAD_COEFF, as feint_integrate).
 * Elements or coefficients outside the range the kernels integrate without
 * rescaling (feint_integrate rescales them) are refused with
 * FEINT_ERR_UNSUPPORTED naming the element.  An output that overlaps any
 * other array of the call (coefficients, mesh->coords, mesh->conn, the
 * other output; for an assembly also A's row_ptr and col_idx) is refused
 * with FEINT_ERR_UNSUPPORTED naming both, before anything is written. */

/* A_e, b_e of every element of a mesh (the same numbers as feint_integrate
 * on the gathered geometry).
 *  desc    : desc->element must equal mesh->element; desc->layout_in is the
 *            layout of coeffs, desc->layout_out that of A_e and b_e.
 *  coeffs  : feint_array_len(..., FEINT_ARRAY_COEFFS, layout_in, num_elem)
 *  A_e, b_e: as in feint_integrate.
 * mesh->num_elem = 0 is a no-op that still checks desc (its errors) and
 * records where it would run (feint_last_execution). */
feint_status feint_integrate_mesh(const feint_integrate_desc *desc, const feint_mesh *mesh,
                                  const double *coeffs, double *A_e, double *b_e);

/* A sparse matrix in compressed sparse row form.
 *  row_ptr : [num_rows + 1]  64-bit offsets (nnz beyond 2^31 works);
 *                            row i holds entries row_ptr[i] .. row_ptr[i+1]-1.
 *  col_idx : [nnz]           32-bit column indices, ascending within a row.
 *  values  : [nnz]           the entries, in the order of col_idx.
 * Matrices made by feint_csr_create own their arrays (owns_arrays = 1) and
 * are released with feint_csr_destroy().  A host code may fill the struct
 * with its own arrays (owns_arrays = 0).  The arrays have the shapes PETSc's
 * MatCreateSeqAIJWithArrays and hypre's IJ interface take (row_ptr and
 * col_idx converted to PetscInt / HYPRE_BigInt where those differ).
 * Every function that takes a feint_csr first checks that its arrays are a
 * matrix, in one pass over row_ptr and col_idx: row_ptr[0] = 0, row_ptr
 * never decreases and ends at nnz, every column is in [0, num_cols); the
 * assembly (feint_assemble, feint_assembly_map_create) also needs the
 * columns of a row strictly ascending.  A violation returns
 * FEINT_ERR_UNSUPPORTED naming the first bad row and entry, before anything
 * is written; feint_csr_spmv on the host checks as it multiplies (a compare
 * per entry instead of a second pass, which doubled its time), and y is
 * then unspecified. */
typedef struct {
  size_t num_rows, num_cols, nnz;
  int64_t *row_ptr;
  int32_t *col_idx;
  double *values;
  int dofs_per_vertex; /* 1 (scalar) or 3 (vector, e.g. elasticity) */
  int owns_arrays;
} feint_csr;

/* The sparsity pattern of a mesh's matrix: dofs_per_vertex = 1 (scalar
 * problem; row and column i = vertex i) or 3 (dof 3 v + c is component c of
 * vertex v, vertex-major).  Entry (i, j) exists iff the vertices of i and j
 * share an element (the diagonal included).  Values are set to zero.
 * Errors: FEINT_ERR_NULL_ARG (A, mesh), FEINT_ERR_OUT_OF_RANGE
 * (dofs_per_vertex), FEINT_ERR_BAD_SIZE (num_vertices * dofs_per_vertex
 * above INT32_MAX: a column index would overflow 32 bits), those of
 * feint_mesh_check (NULL arrays; element type, connectivity or face index out
 * of range; empty mesh; FEINT_ERR_NOT_FINITE for a NaN or infinite
 * coordinate; FEINT_ERR_DEGENERATE for a repeated vertex in an element or
 * face), FEINT_ERR_ALLOC.  *A untouched on error. */
feint_status feint_csr_create(const feint_mesh *mesh, int dofs_per_vertex, feint_csr *A);

/* Free a matrix made by feint_csr_create and zero the struct (a matrix with
 * owns_arrays = 0 is only zeroed; NULL is a no-op). */
feint_status feint_csr_destroy(feint_csr *A);

/* y = A x (x: [num_cols], y: [num_rows], not overlapping).  target
 * FEINT_TARGET_HOST: OpenMP threads over rows; each y[i] adds row
 * i's products one at a time in the row's order, so y is the same bits for
 * any thread count.  FEINT_TARGET_DEVICE: a
 * target region on `device` (the arrays are copied there and y back), or the
 * host with FEINT_FLAG_ALLOW_HOST_FALLBACK in `flags` when no device exists
 * (feint_last_execution() says where it ran).
 * Errors: FEINT_ERR_NULL_ARG (A, A->row_ptr, x, y; A->col_idx or A->values
 * with nnz > 0), FEINT_ERR_OUT_OF_RANGE (flags other than
 * FEINT_FLAG_ALLOW_HOST_FALLBACK, FEINT_FLAG_DEVICE_POINTERS included; target;
 * device < 0 with FEINT_TARGET_DEVICE), FEINT_ERR_UNSUPPORTED (x and y
 * overlap; arrays of A that are not a matrix, see feint_csr),
 * FEINT_ERR_NO_DEVICE (FEINT_TARGET_DEVICE, no such device, no
 * FEINT_FLAG_ALLOW_HOST_FALLBACK), FEINT_ERR_DEVICE (a device allocation or
 * copy failed). */
feint_status feint_csr_spmv(const feint_csr *A, const double *x, double *y, feint_target target,
                            int device, unsigned flags);

/* COO row index of every entry, in CSR order: rows[k] = i for
 * row_ptr[i] <= k < row_ptr[i+1] (rows: [nnz]).  With A->col_idx and
 * A->values this is the COO form of MatSetPreallocationCOO / MatSetValuesCOO
 * (the values are used in place: no copy).
 * Errors: FEINT_ERR_NULL_ARG (A, A->row_ptr; A->col_idx, A->values or rows
 * with nnz > 0), FEINT_ERR_UNSUPPORTED (arrays of A that are not a matrix,
 * see feint_csr; the columns of a row may come in any order). */
feint_status feint_csr_coo_rows(const feint_csr *A, int64_t *rows);

/* Symmetric elimination of Dirichlet conditions u_i = g_i on the dofs
 * bc_dofs[0..num_bc-1] (any order, repeats allowed) with values bc_values
 * (NULL: all zero): for every constrained i and every unconstrained j,
 * b[j] -= A[j][i] g_i and A[j][i] = A[i][j] = 0; row i keeps its diagonal
 * a_ii (which must be nonzero) and b[i] = a_ii g_i.  A symmetric positive
 * definite A stays so; the solution of the new system has u_i = g_i.
 * Any pattern works (each row is rewritten on its own, with a marker per
 * constrained dof; an entry absent from the pattern is zero and needs no
 * elimination).  num_bc = 0 leaves A and b as they are.
 * Errors, nothing written: FEINT_ERR_NULL_ARG (A and its arrays as
 * feint_csr_coo_rows; b; bc_dofs with num_bc > 0), FEINT_ERR_UNSUPPORTED (A
 * not a matrix, see feint_csr; A not square), FEINT_ERR_OUT_OF_RANGE (a
 * bc_dofs entry >= num_rows), FEINT_ERR_DEGENERATE (a constrained row whose
 * diagonal is zero or absent), FEINT_ERR_ALLOC. */
feint_status feint_csr_dirichlet(feint_csr *A, double *b, size_t num_bc, const uint32_t *bc_dofs,
                                 const double *bc_values);

/* The vertices of the boundary faces with face tag `tag` (tag < 0: every
 * face of mesh->faces), ascending, each once: *vertices receives a malloc'd
 * array (free() it) of *count entries (NULL if none).  Only faces and
 * face_tags are read (no feint_mesh_check).
 * Errors, outputs untouched: FEINT_ERR_NULL_ARG (mesh, count, vertices;
 * mesh->faces with num_faces > 0; mesh->face_tags with num_faces > 0 and
 * tag >= 0), FEINT_ERR_OUT_OF_RANGE (a face index >= num_vertices, other
 * than FEINT_NO_VERTEX as a face's 4th), FEINT_ERR_ALLOC. */
feint_status feint_mesh_face_vertices(const feint_mesh *mesh, int32_t tag, size_t *count,
                                      uint32_t **vertices);

/* How feint_assemble adds element contributions into the global arrays. */
typedef enum {
  /* Conflict-free by colouring: on the host, chunks of consecutive
   * elements colour by colour (no two chunks of a colour share a vertex;
   * each chunk runs in order on one thread); on a device, single elements
   * colour by colour.  Results are bitwise identical run to run and, on the
   * host, for any thread count. */
  FEINT_ASSEMBLE_COLOURING = 0,
  /* Every addition is an atomic update (omp atomic); no colouring needed,
   * results depend on the order threads reach an entry (round-off). */
  FEINT_ASSEMBLE_ATOMICS,
  FEINT_ASSEMBLE_COUNT
} feint_assemble_strategy;

/* State of the assembly of one mesh that outlives a call: two greedy
 * colourings (in mesh order: deterministic), of single elements (the
 * device loops: one thread per element) and of chunks of consecutive
 * elements (the host loops), each with its items sorted by colour.  Opaque;
 * made by feint_assembly_create. */
typedef struct feint_assembly feint_assembly;

/* Build the assembly state of a mesh (the mesh goes through
 * feint_mesh_check; mesh->num_elem must be below 2^32).  The mesh must not
 * change before the state is destroyed:
 * feint_assemble compares a fingerprint of the elements' vertex sets,
 * taken here, in one pass at every call, and refuses a plan of another
 * connectivity (reordering the nodes within an element, as
 * feint_mesh_orient does, keeps the plan valid).  The plan also checks the
 * elements' geometry once, as a checked call does, and keeps what it found
 * with fingerprints of the ordered connectivity and of the coordinates: a
 * checked feint_assemble on a mesh that matches both then reads only the
 * coefficients and reports a bad element from what was kept, with the
 * message a scan gives.  A mesh changed since (coordinates moved, nodes
 * reordered) is scanned as if there were no plan; any change to one entry
 * of conn or coords changes its fingerprint.
 * Errors: FEINT_ERR_NULL_ARG (plan), those of feint_mesh_check,
 * FEINT_ERR_BAD_SIZE (num_elem >= 2^32), FEINT_ERR_ALLOC; *plan untouched.
 * feint_assembly_destroy: NULL is a no-op. */
feint_status feint_assembly_create(const feint_mesh *mesh, feint_assembly **plan);
feint_status feint_assembly_destroy(feint_assembly *plan);

/* The colouring: *num_colours colours; colour c holds the elements
 * elem_order[colour_ptr[c] .. colour_ptr[c+1]-1] (ascending).  Pointers into
 * the plan (valid until it is destroyed); any output pointer may be NULL.
 * Errors: FEINT_ERR_NULL_ARG (plan). */
feint_status feint_assembly_colouring(const feint_assembly *plan, size_t *num_colours,
                                      const size_t **colour_ptr, const uint32_t **elem_order);

/* The chunk colouring of the host loops: chunk k holds elements
 * [k *chunk_len, min((k + 1) *chunk_len, num_elem)) (chunk_len: about
 * num_elem / 256, within [128, 8192], a multiple of FEINT_BLOCK_LEN; a pure
 * function of num_elem); colour c holds the
 * chunks chunk_order[colour_ptr[c] .. colour_ptr[c+1]-1] (ascending), no two
 * of which share a vertex.  Pointers into the plan; any output may be NULL.
 * Errors: FEINT_ERR_NULL_ARG (plan). */
feint_status feint_assembly_chunks(const feint_assembly *plan, size_t *chunk_len,
                                   size_t *num_colours, const size_t **colour_ptr,
                                   const uint32_t **chunk_order);

/* Assemble the global matrix and load vector of a problem on a mesh:
 * A->values = sum_e A^e, b = sum_e b^e.  Scalar problems: entry [r][s] of
 * element e is added at row conn[e][r], column conn[e][s].  Elasticity
 * (N_C = 3 components): entry [3 r + c][3 s + d] at row 3 conn[e][r] + c,
 * column 3 conn[e][s] + d.  Both are overwritten (zeroed first).
 *  desc    : as for feint_integrate_mesh (layout_out is ignored: nothing is
 *            written per element).
 *  plan    : from feint_assembly_create on this mesh.
 *  A       : a pattern of this mesh from feint_csr_create with
 *            dofs_per_vertex = N_C (1, or 3 for elasticity), or any pattern
 *            of that size holding every entry (with N_C = 3: in full 3 x 3
 *            vertex blocks, the three rows of a vertex alike).
 *  b       : [N_C num_vertices].
 * Errors as feint_integrate_mesh, plus FEINT_ERR_UNSUPPORTED for a plan or
 * pattern of another mesh (sizes differ; for the plan also a connectivity
 * of the same sizes, by fingerprint), for arrays of A that are not a
 * matrix with ascending columns (see feint_csr), and FEINT_ERR_UNSUPPORTED if A
 * lacks an entry that an element adds into (a pattern from another tool,
 * or of another mesh of the same size; with N_C = 3 also an entry held
 * elsewhere than the full 3 x 3 block of its vertex puts it): the message
 * names how many entries of element matrices found no place in A, and the
 * first one (lowest element, then node pair): its row, column, element and
 * nodes.  Every position is checked before anything is added there, so
 * nothing is written outside A->values and b or into another entry, but
 * the assembly has run: A->values and b are then unspecified (partly
 * assembled), not untouched (leaving them untouched would cost a check of
 * the whole pattern before the run, what feint_assembly_map_create does,
 * or a copy of both). */
feint_status feint_assemble(const feint_integrate_desc *desc, feint_assemble_strategy strategy,
                            const feint_mesh *mesh, const feint_assembly *plan,
                            const double *coeffs, feint_csr *A, double *b);

/* Where each element's entries go in a CSR pattern, computed once so that
 * feint_assemble_mapped adds A^e without searching the rows: for element e
 * and nodes r, s (r, s < N_S) the offset, within row N_C conn[e][r], of
 * column N_C conn[e][s], at map[(e N_S + r) N_S + s].  With N_C = 3 one
 * offset serves the 9 entries of a node pair: the three rows 3 v + c of a
 * vertex have the same columns (full 3 x 3 vertex blocks), so entry
 * (3 r + c, 3 s + d) of A^e sits at row_ptr[3 v_r + c] + map[..] + d.  The
 * offsets take one byte each when all of them are <= 255 (the pattern from
 * feint_csr_create of any mesh whose vertices have at most 85 neighbours
 * with N_C = 3, 255 with N_C = 1): N_S^2 bytes per element (16 for tet4, 36
 * prism6, 64 hex8); otherwise 32 bits each, 4 N_S^2 bytes.  Host memory (a
 * device call copies it with the other arrays).  Opaque; it remembers the
 * mesh's and the pattern's sizes and refuses to serve another. */
typedef struct feint_assembly_map feint_assembly_map;

/* Build the map of a mesh into a pattern A (from feint_csr_create(mesh,
 * dofs_per_vertex, A), or any pattern of N_C num_vertices rows with ascending
 * columns and full vertex blocks).  FEINT_ERR_UNSUPPORTED (naming the
 * element and nodes) if A lacks an entry of an element; FEINT_ERR_BAD_SIZE
 * if a row is longer than 2^31 - 1.  A's values are not read.  While it is
 * made the offsets are held at 32 bits (4 N_S^2 bytes per element), then
 * copied to 1-byte ones when they fit. */
feint_status feint_assembly_map_create(const feint_mesh *mesh, const feint_csr *A,
                                       feint_assembly_map **map);
feint_status feint_assembly_map_destroy(feint_assembly_map *map);
/* Bytes the map holds: w N_S^2 num_elem, w = 1 or 4 bytes per offset.
 * Errors: FEINT_ERR_NULL_ARG (map, bytes). */
feint_status feint_assembly_map_bytes(const feint_assembly_map *map, size_t *bytes);

/* feint_assemble with a position map (map = NULL: positions by search, the
 * same as feint_assemble, its errors included).  The additions happen in
 * the same order as the search path's, so A and b are bitwise the same.
 * FEINT_ERR_UNSUPPORTED if map was made for another mesh or pattern
 * (element type, num_elem, num_vertices, dofs per vertex, num_rows or nnz
 * differ, or, with the same sizes, the connectivity, row offsets or
 * columns: a fingerprint of those arrays, taken at create, is compared in
 * one pass at every call). */
feint_status feint_assemble_mapped(const feint_integrate_desc *desc,
                                   feint_assemble_strategy strategy, const feint_mesh *mesh,
                                   const feint_assembly *plan, const feint_assembly_map *map,
                                   const double *coeffs, feint_csr *A, double *b);

/* ---- Operators -----------------------------------------------------------
 * The matrix A of a case on a mesh (with Dirichlet constraints eliminated)
 * as an operator x -> A x behind one interface, in three forms.  Dofs are
 * numbered as the rows of feint_csr_create's pattern: vertex v (scalar
 * problems) or 3 v + c (elasticity, vertex-major).  An operator made for a
 * device target keeps everything it needs on that device from create to
 * destroy; only the vectors of a call move (or nothing, with device
 * pointers).  An operator may be applied by one thread at a time (it owns
 * work vectors). */
typedef enum {
  FEINT_OPERATOR_RECOMPUTE = 0, /* matrix-free: every application gathers each element's
                                   geometry and integrates it again (a variant computes A^e
                                   in registers/local memory), then y_e += A^e x_e */
  FEINT_OPERATOR_PRECOMPUTED,   /* matrix-free: per-element data computed once at create,
                                   streamed at every apply */
  FEINT_OPERATOR_ASSEMBLED,     /* the CSR matrix assembled once (feint_assemble);
                                   apply = SpMV */
  FEINT_OPERATOR_QPOINT,        /* matrix-free, seed 003's per-quadrature-point form: the
                                   geometric factors w_q det J J^-1 J^-T (6 doubles per
                                   point; tet4: one point) computed once at create and
                                   streamed; apply = reference gradients at the points ->
                                   factor -> test with the gradients (hex8: sum
                                   factorisation on the 2x2x2 rule).  Poisson on tet4 and
                                   hex8 only (other cases: FEINT_ERR_UNSUPPORTED) */
  FEINT_OPERATOR_FORM_COUNT
} feint_operator_form;

typedef struct feint_operator feint_operator;

typedef struct {
  size_t num_dofs;          /* rows = columns = num_vertices * dofs_per_vertex */
  int dofs_per_vertex;      /* 1 scalar problems, 3 elasticity */
  feint_operator_form form;
  feint_assemble_strategy strategy;
  feint_target target;      /* where it actually runs (HOST after a host fallback) */
  int device;               /* device number if target == FEINT_TARGET_DEVICE, else -1 */
  int symmetric;            /* 1 if the problem's matrix is symmetric (Poisson, elasticity);
                               0 for conv-diff */
  int host_fallback;        /* 1: a device was asked for and the host runs it (an offload
                               build then runs the device code on the initial device) */
  size_t num_bc;            /* distinct constrained dofs */
  size_t num_elem;          /* elements of the mesh */
  size_t data_bytes;        /* bytes the operator keeps for apply (CSR arrays, per-element
                               data, copies of coefficients, work vectors), per memory space */
} feint_operator_info;

/* The operator A of a case on a mesh, with Dirichlet constraints on bc_dofs
 * (num_bc may be 0; any order, repeats allowed): constrained rows and
 * columns are eliminated symmetrically exactly as feint_csr_dirichlet does
 * (constrained row i of A x gives a_ii x_i, where a_ii is the unconstrained
 * diagonal, which must be nonzero; other rows ignore x at constrained dofs).
 *  desc     : as for feint_assemble (element = mesh->element, problem,
 *             variant, layout_in of coeffs, target, device, flags:
 *             FEINT_FLAG_TRUST_GEOMETRY, FEINT_FLAG_ALLOW_HOST_FALLBACK;
 *             FEINT_FLAG_DEVICE_POINTERS belongs to apply and is refused here).
 *  form     : feint_operator_form.
 *  strategy : how element contributions are scatter-added (matrix-free
 *             forms: colour by colour or atomics, in every apply; ASSEMBLED:
 *             the assembly strategy).
 *  mesh     : host arrays; must outlive the operator and not change.
 *  coeffs   : feint_array_len(..., FEINT_ARRAY_COEFFS, layout_in, num_elem)
 *             doubles (copied; they give the load vector of
 *             feint_operator_rhs and, for conv-diff and elasticity, A).
 *  bc_dofs  : [num_bc] dof indices (host), or NULL with num_bc = 0.
 *  op       : receives the operator (release with feint_operator_destroy).
 * Errors: those of feint_assemble (NULL arguments, enum values, a desc that
 * does not match the mesh, the cases the mesh paths refuse, invalid
 * elements, no device), FEINT_ERR_OUT_OF_RANGE (form, strategy, a bc_dofs
 * entry >= num_dofs), FEINT_ERR_DEGENERATE (a constrained dof whose diagonal
 * is zero), FEINT_ERR_ALLOC, FEINT_ERR_DEVICE; *op untouched on error. */
feint_status feint_operator_create(const feint_integrate_desc *desc, feint_operator_form form,
                                   feint_assemble_strategy strategy, const feint_mesh *mesh,
                                   const double *coeffs, size_t num_bc, const uint32_t *bc_dofs,
                                   feint_operator **op);

/* Release an operator and its device data (NULL: no-op). */
feint_status feint_operator_destroy(feint_operator *op);

/* What an operator is and where it runs (feint_operator_info above, every
 * field set); FEINT_ERR_NULL_ARG if op or info is NULL. */
feint_status feint_operator_get_info(const feint_operator *op, feint_operator_info *info);

/* y = A x  (x, y: [num_dofs], not overlapping; y is overwritten).
 * flags: 0 -> host arrays (a device operator copies x in and y out in the
 * call); FEINT_FLAG_DEVICE_POINTERS -> x, y are device arrays on
 * info.device (feint_device_alloc), nothing moves.  On a host operator
 * (info.target == FEINT_TARGET_HOST, also after a host fallback) the flag is
 * ignored: x and y are host arrays.
 * Errors: FEINT_ERR_NULL_ARG, FEINT_ERR_OUT_OF_RANGE (unknown flags),
 * FEINT_ERR_UNSUPPORTED (x and y overlap, host arrays only), FEINT_ERR_DEVICE. */
feint_status feint_operator_apply(const feint_operator *op, const double *x, double *y,
                                  unsigned flags);

/* diag: [num_dofs], the diagonal of A (constrained rows too: a_ii), same
 * memory-space rule as apply.
 * Errors: FEINT_ERR_NULL_ARG (op, diag), FEINT_ERR_OUT_OF_RANGE (flags other
 * than FEINT_FLAG_DEVICE_POINTERS), FEINT_ERR_DEVICE (the device copy). */
feint_status feint_operator_diagonal(const feint_operator *op, double *diag, unsigned flags);

/* The right-hand side of the constrained system, host arrays: b = load
 * vector (sum_e b^e of the coefficients given at create) lifted by the
 * constraint values g (bc_values: [num_bc] in the order of bc_dofs at
 * create, the last value of a repeated dof wins; NULL: all zero):
 * b_j -= sum_i A_ji g_i for unconstrained j, b_i = a_ii g_i for constrained
 * i (as feint_csr_dirichlet).  b: [num_dofs], overwritten.  The solution of
 * A u = b has u_i = g_i.  bc_values are not checked (NaN or Inf propagate).
 * Errors: FEINT_ERR_NULL_ARG (op, b), FEINT_ERR_ALLOC (with constraints). */
feint_status feint_operator_rhs(const feint_operator *op, const double *bc_values, double *b);

/* ---- Solvers (src/solve/) ------------------------------------------------
 * Krylov solvers for A x = b with A a symmetric positive definite
 * feint_operator (any form, host or device).  Both methods are the
 * conjugate gradient method (the same iterates in exact arithmetic):
 *  FEINT_SOLVER_CG            textbook (preconditioned) CG: per iteration one
 *                             operator application and two reductions
 *                             (p^T A p, then r^T r and r^T z fused with the
 *                             x and r updates);
 *  FEINT_SOLVER_PIPELINED_CG  the one-reduction variant of seed 004
 *                             (Chronopoulos/Gear form, as Rupp et al. run it
 *                             on GPUs): x, r and p are updated in one pass,
 *                             then q = A p, then all four scalars
 *                             (q^T M^-1 q, p^T q, r^T r, r^T M^-1 r) in one
 *                             fused reduction; beta from the recurrence
 *                             r_{k+1}^T z_{k+1} = alpha^2 q^T M^-1 q - r^T z.
 *                             Fewer vector passes (12 vs 13 vector reads and
 *                             writes per dof and iteration with Jacobi) and
 *                             one global synchronisation instead of two; one
 *                             extra operator application at the end (the
 *                             convergence test sees r_k after q_k = A p_k).
 * Preconditioners: FEINT_PC_NONE (M = I), FEINT_PC_JACOBI (M = diag(A) from
 * feint_operator_diagonal; every diagonal entry must be positive).
 * Vectors on the operator's side: a device operator (info.target =
 * FEINT_TARGET_DEVICE) gets every vector of the iteration in device memory
 * for the whole solve (b, x, the diagonal copied in once, x copied back at
 * the end); its reductions are two-stage (per-team partial sums in a small
 * device array, summed on the host in a fixed order), since LLVM's
 * cross-team reductions are slow on NVIDIA GPUs.  A host operator runs
 * OpenMP threads + SIMD on host arrays; one made for a device that fell back
 * to the host (info.host_fallback) in an offload build runs the device
 * passes on the initial device, as the operator does. */
typedef enum { FEINT_SOLVER_CG = 0, FEINT_SOLVER_PIPELINED_CG, FEINT_SOLVER_COUNT } feint_solver;
typedef enum { FEINT_PC_NONE = 0, FEINT_PC_JACOBI, FEINT_PC_COUNT } feint_pc;

typedef struct {
  feint_solver solver;
  feint_pc pc;
  double rtol;     /* > 0 and finite: stop when ||r_k||_2 <= rtol * ||b||_2 */
  size_t max_iter; /* 0 allowed: reports the initial residual */
  double *history; /* NULL or [max_iter + 1] host array: ||r_k||_2 for
                      k = 0..iterations (entries beyond are not written) */
} feint_solve_desc;

typedef struct {
  size_t iterations;    /* k where the solver stopped (0: the initial guess) */
  double residual_norm; /* ||r_k||_2 where the solver stopped (the iteration's
                           recursively updated residual; NaN if it met one) */
  double rhs_norm;      /* ||b||_2 */
  int converged;        /* 1 if residual_norm <= rtol * rhs_norm */
} feint_solve_info;

/* Solve A x = b with op.  b, x: host arrays [info.num_dofs] (not
 * overlapping); x holds the initial guess on entry and the iterate where the
 * solver stopped on exit (also when it stops with NOT_CONVERGED, BREAKDOWN
 * or a NaN met during the iteration; untouched if it stops at iteration 0).
 * b = 0 gives x = 0 (the solution of a nonsingular system) with 0
 * iterations.  Any finite b works whatever its magnitude: the iteration runs
 * on the system scaled by s = 2^-e, ||b||_inf = m 2^e with m in [1/2, 1)
 * (A y = s b from y_0 = s x_0, x = y / s); a power of two scales exactly, so
 * iterates, iteration counts and stopping decisions are those of the
 * unscaled iteration wherever that stays clear of underflow and overflow.
 * info's norms and the history are the unscaled problem's (||b||_2 is Inf
 * if it exceeds DBL_MAX though every entry is finite).  info (may be NULL)
 * is filled on success and on the three iteration statuses below.
 * Errors, outputs untouched: FEINT_ERR_NULL_ARG (op, desc, b, x),
 * FEINT_ERR_OUT_OF_RANGE (desc->solver, desc->pc; desc->rtol not in
 * (0, inf), NaN included), FEINT_ERR_BAD_SIZE (desc->max_iter + 1 overflows
 * with a history), FEINT_ERR_UNSUPPORTED (b and x overlap; a non-symmetric
 * operator: CG needs a symmetric positive definite one),
 * FEINT_ERR_NOT_FINITE (a NaN or Inf in b or in the initial x, naming the
 * first index), FEINT_ERR_BREAKDOWN (Jacobi: a diagonal entry <= 0 or not
 * finite, naming it), FEINT_ERR_ALLOC, FEINT_ERR_DEVICE and the operator's
 * own errors.
 * Iteration statuses (info filled, x = the last iterate, message with the
 * iteration and residual): FEINT_ERR_NOT_CONVERGED (max_iter iterations
 * without reaching rtol; max_iter = 0 reports the initial residual and
 * returns this unless the initial guess already satisfies rtol),
 * FEINT_ERR_BREAKDOWN (p^T A p <= 0 or r^T M^-1 r <= 0: the operator or the
 * preconditioner is not positive definite), FEINT_ERR_NOT_FINITE (a NaN or
 * Inf met during the iteration, e.g. from the operator; ||b - A x_0|| beyond
 * ~1e150 ||b||, an initial guess far off b's scale; a solution x beyond
 * double's range, x then holding Inf entries). */
feint_status feint_solve(const feint_operator *op, const feint_solve_desc *desc, const double *b,
                         double *x, feint_solve_info *info);

#ifdef __cplusplus
}
#endif
#endif /* FEINT_H */
