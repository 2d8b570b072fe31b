/*
 * feint_perfmodel.h - the performance model of feint (seed 000, section 4,
 * Tables 3-6, made software).
 *
 * For every (element, problem, variant) the model gives, per element:
 *  - the array sizes of Table 3 (doubles in and out),
 *  - global memory accesses (doubles read or written in DRAM),
 *  - auxiliary team-shared memory accesses for the four GPU placement
 *    options of the paper's section 4.3,
 *  - floating-point operations, derived stage by stage from N_S, N_Q, N_D
 *    and the variant (see perfmodel/counts.c for every derivation),
 *  - arithmetic intensity;
 * for every platform (a data file perfmodel/platforms/<name>.platform, or a
 * measurement): peak and benchmark bandwidth and flop rate (Table 5); and
 * from these the lower-bound time per element (Table 6):
 *      t = max(bytes / bandwidth, flops / flop rate).
 *
 * Units: bytes and flops are per element; bandwidths in GB/s (1e9 bytes/s);
 * flop rates in GFLOP/s (1e9 flop/s); times in ns per element.  A double is
 * 8 bytes.
 *
 * CPU byte convention.  bytes_compulsory counts every input double read once
 * and every output double written once (8 * global accesses): the traffic a
 * kernel with nontemporal (streaming) stores causes.  A store that is not
 * nontemporal first reads the line it writes (write-allocate, read for
 * ownership): that extra traffic, 8 bytes per output double, is
 * bytes_write_allocate, kept apart and never folded into the bound.
 * The STREAM triad bandwidth feint measures counts 24 bytes per index
 * (compulsory convention, nontemporal stores), so the two agree.
 *
 * All counting functions are pure: no I/O, no timing, no global state except
 * the thread-local error message.  Every function that can fail returns a
 * feint_status; on an argument error the outputs are untouched and
 * feint_last_error() names the argument, the value received and what is
 * allowed.  The others return their result: a name (const char *, NULL if
 * out of range), a double (unit conversions, measurements; the timed runs
 * return a negative value, with no message, for bad arguments) or an int
 * (feint_pm_fma_width).
 */
#ifndef FEINT_PERFMODEL_H
#define FEINT_PERFMODEL_H

#include <stddef.h>

#include "feint.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The auxiliary shared-memory placement options of the paper's section 4.3
 * (one array placed in team-shared memory at a time). */
typedef enum {
  FEINT_PM_SHARED_GEOMETRY = 0, /* geometry data in shared memory */
  FEINT_PM_SHARED_COEFFS,       /* PDE coefficients c, d in shared memory */
  FEINT_PM_SHARED_PHI,          /* shape functions and derivatives phi */
  FEINT_PM_SHARED_AB,           /* A^e and b^e in shared memory */
  FEINT_PM_SHARED_COUNT
} feint_pm_shared;

/* Per-element counts of one (element, problem, variant).  Integers are exact. */
typedef struct {
  int num_nodes;                 /* N_S */
  int num_qpts;                  /* N_Q */
  long long geometry;            /* doubles in: 3 N_S node coordinates */
  long long coeffs;              /* doubles in: N_Q (Poisson), 20 (conv-diff),
                                    2 + 3 N_Q (elasticity), 2 N_Q
                                    (poisson_kappa), 5 N_Q (elasticity_qp) */
  long long a_out;               /* doubles out: N_S^2 */
  long long b_out;               /* doubles out: N_S */
  long long global_accesses;     /* geometry + coeffs + a_out + b_out */
  long long shared_accesses[FEINT_PM_SHARED_COUNT]; /* auxiliary, per option */
  long long flops;               /* flops this variant executes, each distinct
                                    value computed once (the compiler merges
                                    repeated stages): used for the bound */
  long long flops_as_written;    /* flops of the source with no merging of
                                    the SQS/SSQ repetition (paper's convention
                                    for SQS/SSQ rows) */
  long long flops_useful;        /* min of flops over the variants of the
                                    case: the "useful" work, for GFLOP/s
                                    figures comparable across variants */
  long long bytes_compulsory;    /* 8 * global_accesses */
  long long bytes_write_allocate;/* 8 * (a_out + b_out): extra read-for-
                                    ownership traffic of non-nontemporal stores */
  double intensity_per_access;   /* flops / global_accesses (paper's Table 4) */
  double intensity_per_byte;     /* flops / bytes_compulsory */
  long long a_out_packed;        /* doubles out with packed symmetric output:
                                    N (N + 1) / 2; 0 for conv-diff (none) */
  long long bytes_compulsory_packed; /* 8 * (geometry + coeffs + a_out_packed
                                    + b_out); 0 for conv-diff */
} feint_pm_counts;

/* Loop orders of the paper (Table 4 rows). */
typedef enum {
  FEINT_PM_QSS = 0,
  FEINT_PM_SQS,
  FEINT_PM_SSQ,
  FEINT_PM_LOOP_ORDER_COUNT
} feint_pm_loop_order;

/* Counts of one of feint's kernels, as derived in perfmodel/counts.c.
 * FEINT_ERR_NULL_ARG if out is NULL, FEINT_ERR_OUT_OF_RANGE for an enum value
 * out of range, FEINT_ERR_ALLOC if memory ran out while counting the flops. */
feint_status feint_pm_counts_get(feint_element element, feint_problem problem,
                                 feint_variant variant, feint_pm_counts *out);

/* The paper's own Table 4 (with Table 3 sizes), for the given loop order:
 * global accesses, shared accesses (QSS only: the paper gives them for QSS;
 * for SQS and SSQ they are set to -1, "not given"), flops and intensity.
 * The paper uses geo_linear for tetrahedra and geo_generic for prisms.
 * Errors: FEINT_ERR_NULL_ARG (out), FEINT_ERR_OUT_OF_RANGE (element, problem,
 * loop_order), FEINT_ERR_UNSUPPORTED (hex8, or a problem other than Poisson
 * and conv-diff: Table 4 has tet4 and prism6 with those two only). */
feint_status feint_pm_paper_counts(feint_element element, feint_problem problem,
                                   feint_pm_loop_order loop_order, feint_pm_counts *out);

/* Loop order and geometry treatment of a variant: *loop_order receives
 * FEINT_PM_QSS/SQS/SSQ, *geo_linear 1 or 0.  Either pointer may be NULL.
 * FEINT_ERR_OUT_OF_RANGE for an unknown variant; FEINT_ERR_UNSUPPORTED for
 * FEINT_TENSOR_GEO_LINEAR, which has no loop order of the paper (nothing is
 * written). */
feint_status feint_pm_variant_split(feint_variant variant, feint_pm_loop_order *loop_order,
                                    int *geo_linear);

/* Short names used in tables, CSV files and on the command line:
 * "tet4", "prism6"; "poisson", "convdiff"; "qss_geo_linear", ...;
 * "QSS", "SQS", "SSQ".  NULL if out of range. */
const char *feint_pm_element_name(feint_element element);
const char *feint_pm_problem_name(feint_problem problem);
const char *feint_pm_variant_name(feint_variant variant);
const char *feint_pm_loop_order_name(feint_pm_loop_order loop_order);

/* Parse those names (case-insensitive; '-' and '_' are ignored, so
 * "conv-diff", "convdiff" and "conv_diff" all match).  Also accepts the
 * paper's "tetra" and "prism".  FEINT_ERR_OUT_OF_RANGE for an unknown name. */
feint_status feint_pm_element_parse(const char *name, feint_element *element);
feint_status feint_pm_problem_parse(const char *name, feint_problem *problem);
feint_status feint_pm_variant_parse(const char *name, feint_variant *variant);

/* ---- Platforms ---------------------------------------------------------- */

/* Index of the four figures of a platform (and of their sources). */
typedef enum {
  FEINT_PM_PEAK_GFLOPS = 0,
  FEINT_PM_PEAK_GBS,
  FEINT_PM_BENCH_GFLOPS,
  FEINT_PM_BENCH_GBS,
  FEINT_PM_FIGURE_COUNT
} feint_pm_figure;

/* A platform: double-precision peak and benchmark figures.  A benchmark
 * figure written as "unmeasured" in the data file is stored as 0 and
 * bench_measured[i] = 0: the predictor then refuses the benchmark bound for
 * that platform (it is never replaced by the peak). */
typedef struct {
  char name[64];
  char description[128];
  double peak_gflops;  /* peak DP flop rate, GFLOP/s */
  double peak_gbs;     /* peak memory bandwidth, GB/s */
  double bench_gflops; /* benchmark (DGEMM or peak-FMA kernel) DP rate, GFLOP/s */
  double bench_gbs;    /* benchmark (STREAM triad) bandwidth, GB/s */
  int bench_measured[2]; /* [0]: bench_gflops given, [1]: bench_gbs given */
  char source[FEINT_PM_FIGURE_COUNT][256]; /* where each figure comes from */
} feint_pm_platform;

/* Name of a figure's key in a platform file ("peak_gflops", ...). */
const char *feint_pm_figure_name(feint_pm_figure figure);

/* Read a platform file: `key = value` lines, '#' starts a comment, keys
 * name, description, peak_gflops, peak_gbs, bench_gflops, bench_gbs,
 * source_peak_gflops, source_peak_gbs, source_bench_gflops,
 * source_bench_gbs.  Every key is required.  Peak figures must be finite and
 * > 0; benchmark figures finite and > 0 or the word "unmeasured".
 * FEINT_ERR_NULL_ARG for a NULL argument, FEINT_ERR_IO if the file cannot be
 * opened or read, FEINT_ERR_UNSUPPORTED if it is larger than 64 KiB,
 * FEINT_ERR_ALLOC, FEINT_ERR_BAD_SIZE for a NUL byte, a line of 1024
 * characters or more, a line without '=', a key given twice, an empty or
 * too long text field, or a missing, malformed or non-positive figure (the
 * message names the field and the file), FEINT_ERR_OUT_OF_RANGE for an
 * unknown key. */
feint_status feint_pm_platform_load(const char *path, feint_pm_platform *out);

/* Parse a platform description held in a string (same rules; `origin` names
 * it in messages, e.g. the file name). */
feint_status feint_pm_platform_parse(const char *text, const char *origin,
                                     feint_pm_platform *out);

/* Find a platform by name ("k20m" -> <dir>/k20m.platform) or, if
 * name_or_path contains '/' or ends in ".platform", by path.  dir NULL means
 * "perfmodel/platforms" (relative to the working directory), overridable by
 * the environment variable FEINT_PLATFORM_DIR.
 * Errors: FEINT_ERR_NULL_ARG (name_or_path, out), FEINT_ERR_OUT_OF_RANGE (a
 * name that is empty or has a character other than letters, digits, '-',
 * '_', '.'), FEINT_ERR_BAD_SIZE (the path <dir>/<name>.platform longer than
 * 1023 characters), and those of feint_pm_platform_load. */
feint_status feint_pm_platform_find(const char *name_or_path, const char *dir,
                                    feint_pm_platform *out);

/* ---- Predictor ----------------------------------------------------------- */

typedef enum { FEINT_PM_BOUND_MEMORY = 0, FEINT_PM_BOUND_COMPUTE } feint_pm_bound;

/* Name of a bound: "memory", "compute"; NULL if out of range. */
const char *feint_pm_bound_name(feint_pm_bound bound);

/* Lower-bound time per element: *ns = max(bytes / gbs, flops / gflops) in
 * ns (bytes / (GB/s) is ns since 1 GB/s = 1 byte/ns), *bound says which one
 * binds (memory on a tie).  bytes, flops >= 0; gbs, gflops finite and > 0,
 * else FEINT_ERR_BAD_SIZE naming the argument.  bound may be NULL. */
feint_status feint_pm_predict(long long bytes, long long flops, double gbs, double gflops,
                              double *ns, feint_pm_bound *bound);

/* Which figures of a platform to use. */
typedef enum { FEINT_PM_USE_PEAK = 0, FEINT_PM_USE_BENCH } feint_pm_use;

/* feint_pm_predict with a platform's peak or benchmark figures.
 * Errors: FEINT_ERR_NULL_ARG (platform, ns), FEINT_ERR_OUT_OF_RANGE (use),
 * FEINT_ERR_UNSUPPORTED if a benchmark figure is asked for and unmeasured,
 * FEINT_ERR_BAD_SIZE as feint_pm_predict (bytes or flops < 0; a figure used
 * that is not finite and > 0). */
feint_status feint_pm_predict_platform(long long bytes, long long flops,
                                       const feint_pm_platform *platform, feint_pm_use use,
                                       double *ns, feint_pm_bound *bound);

/* Limiting arithmetic intensity (flops per 8-byte access, the paper's
 * Table 5 convention): 8 * gflops / gbs. */
double feint_pm_limiting_intensity(double gbs, double gflops);

/* ---- Unit conversions ---------------------------------------------------- */

/* Bandwidth in GB/s of `bytes` moved in `time_s` seconds (1 GB = 1e9 B). */
double feint_pm_gbs(double bytes, double time_s);
/* Rate in GFLOP/s of `flops` done in `time_s` seconds. */
double feint_pm_gflops(double flops, double time_s);
/* Nanoseconds per element of a batch of num_elem elements taking time_s. */
double feint_pm_ns_per_elem(double time_s, double num_elem);
/* TFLOP/s -> GFLOP/s and TB/s -> GB/s (factor 1000, decimal prefixes). */
double feint_pm_tera_to_giga(double tera);
/* Percentage of the bound reached: 100 * bound_ns / measured_ns. */
double feint_pm_pct_of_bound(double bound_ns, double measured_ns);

/* ---- Measurement of this machine (perfmodel/measure.c, OpenMP) ----------- */

/* One timed run of the parallel STREAM triad a[i] = b[i] + 3 * c[i],
 * i < n, with nontemporal stores to a.  Arrays 64-byte aligned, n a multiple
 * of 4; otherwise returns a negative value.  Returns seconds.  Bytes moved:
 * feint_pm_triad_bytes(n) = 24 n (compulsory convention). */
double feint_pm_time_triad(double *a, const double *b, const double *c, size_t n);
/* Bytes of one triad run over n indices: 24 n. */
double feint_pm_triad_bytes(size_t n);
/* One timed run of the same triad on an OpenMP target device: a, b, c are
 * device pointers on `device` (feint_device_alloc), n > 0.  teams and
 * threads give the launch (num_teams, thread_limit); <= 0 leaves that one
 * to the offload runtime.  Returns seconds (the launch waits for the
 * kernel), or a negative value for NULL arrays, n == 0 or a device number
 * outside [0, omp_get_num_devices()).  Without an offload build, or with
 * OMP_TARGET_OFFLOAD=DISABLED, omp_get_num_devices() is 0, so every call
 * returns a negative value (the host triad is feint_pm_time_triad). */
double feint_pm_time_triad_device(double *a, const double *b, const double *c, size_t n,
                                  int device, int teams, int threads);

/* One timed run of the parallel peak-FMA kernel: every thread runs `iters`
 * iterations of FEINT_PM_FMA_CHAINS independent FMA chains on vectors of
 * feint_pm_fma_width() doubles (explicit AVX2/AVX-512 FMA intrinsics).
 * Returns seconds and, if nthreads_out is not NULL, the number of threads
 * that ran.  Flops: feint_pm_fma_flops(). */
double feint_pm_time_fma(size_t iters, int *nthreads_out);
/* Flops of one FMA run:
 * nthreads * iters * FEINT_PM_FMA_CHAINS * feint_pm_fma_width() * 2. */
double feint_pm_fma_flops(size_t iters, int nthreads);
/* Doubles per accumulator vector of the FMA kernel as compiled: 8 with
 * AVX-512, 4 with AVX2 + FMA, 1 (scalar fma()) otherwise. */
int feint_pm_fma_width(void);
#define FEINT_PM_FMA_CHAINS 12 /* independent accumulator vectors per thread */


/* ---- Assembly (perfmodel/assembly.c) ------------------------------------- */

/* Totals over a mesh for feint_assemble of one case (E = num_elem, V =
 * num_vertices, nnz = stored entries of the CSR pattern, N_C = dofs per
 * vertex: 3 for elasticity, else 1); derivations in perfmodel/assembly.c.
 * Bytes: */
typedef struct {
  long long bytes_conn;       /* 4 N_S E: connectivity read once */
  long long bytes_coords;     /* 24 V: coordinates once per vertex */
  long long bytes_coeffs;     /* 8 C E: coefficients */
  long long bytes_map;        /* colouring: 4 ceil(E / L), the host's chunks by
                                 colour (L elements each, assembly.c); atomics:
                                 8 ceil(E / B), the host's block reach */
  long long bytes_positions;  /* position map: w N_S^2 E (feint_assembly_map, w bytes per
                                 offset); search: 0 */
  long long bytes_pattern;    /* 8 (N_C V + 1) + 4 nnz: row offsets and columns
                                 (with the map: 8 (N_C V + 1), no columns read) */
  long long bytes_values;     /* 16 nnz: CSR values read and written once */
  long long bytes_vector;     /* 16 N_C V: load vector read and written once */
  long long bytes_compulsory; /* the sum of the eight above: the bound's bytes */
  long long bytes_zeroing;    /* 8 (nnz + N_C V): the zeroing pass, not in the bound */
  long long flops;            /* E (element flops of the variant + N_D^2 + N_D),
                                 N_D = N_C N_S */
} feint_pm_assembly_counts;

/* The counts of feint_assemble (positions by search) for a case on a mesh of
 * num_elem elements, num_vertices vertices and nnz stored entries.
 * FEINT_ERR_NULL_ARG (out), FEINT_ERR_OUT_OF_RANGE (an enum value),
 * FEINT_ERR_BAD_SIZE (a size of 2^52 or more: the counts would overflow),
 * FEINT_ERR_ALLOC (as feint_pm_counts_get). */
feint_status feint_pm_assembly_counts_get(feint_element element, feint_problem problem,
                                          feint_variant variant,
                                          feint_assemble_strategy strategy, size_t num_elem,
                                          size_t num_vertices, size_t nnz,
                                          feint_pm_assembly_counts *out);
/* The same for feint_assemble_mapped: map_offset_bytes = w, the bytes per
 * offset of the feint_assembly_map (1 or 4: feint_assembly_map_bytes / (N_S^2
 * E); positions read from the map, no columns read), or 0 by search (the
 * same counts as feint_pm_assembly_counts_get).  Errors as
 * feint_pm_assembly_counts_get, and FEINT_ERR_OUT_OF_RANGE for
 * map_offset_bytes other than 0, 1 or 4. */
feint_status feint_pm_assembly_mapped_counts_get(feint_element element, feint_problem problem,
                                                 feint_variant variant,
                                                 feint_assemble_strategy strategy,
                                                 int map_offset_bytes,
                                                 size_t num_elem, size_t num_vertices,
                                                 size_t nnz, feint_pm_assembly_counts *out);

/* ---- Operators (perfmodel/operator.c) ------------------------------------ */

/* Totals over a mesh for one application y = A x of a feint_operator of a
 * case (E = num_elem, V = num_vertices, N = dofs, nnz = stored entries of
 * the CSR pattern, used by the ASSEMBLED form); derivations in
 * perfmodel/operator.c.  Bytes: */
typedef struct {
  long long bytes_vectors;     /* 16 N: x read once, y written once */
  long long bytes_conn;        /* 4 N_S E (matrix-free forms) */
  long long bytes_coords;      /* 24 V (RECOMPUTE) */
  long long bytes_coeffs;      /* 8 C E, coefficients entering A^e (RECOMPUTE) */
  long long bytes_map;         /* a stored visiting order: 0 (conn is copied in colour order) */
  long long bytes_elem_data;   /* 8 K E packed A^e (PRECOMPUTED); QPOINT 48 P E, the
                                  factors (P = 1 tet4, 8 hex8) */
  long long bytes_matrix;      /* 8 (N + 1) + 12 nnz (ASSEMBLED) */
  long long bytes_compulsory;  /* the sum of the seven above: the bound's bytes */
  long long bytes_zeroing;     /* 8 N: the matrix-free forms' zeroing of y, not in the bound */
  long long bytes_qpt_factors; /* what per-quadrature-point geometric factors would stream
                                  instead of packed A^e (PRECOMPUTED's alternative) */
  long long bytes_affine_saving; /* QPOINT hex8: what bytes_compulsory drops by when every
                                    cell is affine (one G per cell: 48 (P - 1) E); else 0 */
  long long flops;             /* see perfmodel/operator.c */
} feint_pm_operator_counts;

/* The counts of one feint_operator_apply of a case and form on a mesh of
 * num_elem elements, num_vertices vertices and nnz stored entries (the
 * pattern's, read by the ASSEMBLED form).  Errors as
 * feint_pm_assembly_counts_get, and FEINT_ERR_UNSUPPORTED for a case the
 * form does not serve (perfmodel/operator.c). */
feint_status feint_pm_operator_counts_get(feint_element element, feint_problem problem,
                                          feint_variant variant, feint_operator_form form,
                                          feint_assemble_strategy strategy, size_t num_elem,
                                          size_t num_vertices, size_t nnz,
                                          feint_pm_operator_counts *out);

/* ---- Solvers (perfmodel/solve.c) ----------------------------------------- */

/* One iteration of feint_solve on n unknowns (derivations in
 * perfmodel/solve.c), the operator being the assembled CSR matrix with nnz
 * stored entries (SpMV). */
typedef struct {
  long long bytes_vectors; /* 8 (11 + 2J) n CG, 8 (10 + 2J) n pipelined (J = 1 with Jacobi) */
  long long flops_vectors; /* (12 + 2J) n CG, (14 + 3J) n pipelined */
  long long bytes_apply;   /* 8 (n + 1) + 12 nnz + 16 n: the SpMV */
  long long flops_apply;   /* 2 nnz */
  long long bytes, flops;  /* totals: the bound's bytes and flops per iteration */
  int reductions;          /* global reductions per iteration: 2 CG, 1 pipelined */
} feint_pm_cg_counts;

/* The counts of one iteration of solver with preconditioner pc.
 * FEINT_ERR_NULL_ARG (out), FEINT_ERR_OUT_OF_RANGE (an enum value),
 * FEINT_ERR_BAD_SIZE (sizes whose counts would overflow). */
feint_status feint_pm_cg_counts_get(feint_solver solver, feint_pc pc, size_t n, size_t nnz,
                                    feint_pm_cg_counts *out);

/* Errors: every feint_pm_* function records its message for
 * feint_last_error() (feint.h), like the rest of the library. */

#ifdef __cplusplus
}
#endif
#endif /* FEINT_PERFMODEL_H */
