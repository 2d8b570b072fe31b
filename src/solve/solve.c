/*
 * solve.c - feint_solve: conjugate gradients and the one-reduction pipelined
 * CG of seed 004, unpreconditioned or Jacobi-preconditioned, on host or
 * device vectors.
 *
 * The two iterations (cg_iterate, pipelined_iterate) are written once, over
 * an operator given as callbacks (feint_solve_operator, solve_internal.h;
 * feint_solve wraps a feint_operator in it).  They call the operator and
 * fused vector kernels: each
 * kern_* below is what one pass does at index i (reading and writing the
 * vectors, adding to at most NSUM sums), and vec_pass runs a pass either as
 * OpenMP threads + SIMD over host arrays or as a target region over device
 * arrays.  Device reductions are two-stage: each team reduces a contiguous
 * chunk with its threads (an intra-team reduction, which LLVM does well) and
 * writes its partial sums to a small device array [NSUM][num_teams]; the
 * host copies that array back and adds it up in team order (deterministic).
 * LLVM 19's cross-team `reduction` clause on NVIDIA GPUs is slow (DESIGN.md),
 * and the host needs the scalars anyway (alpha, beta, the stopping test).
 *
 * Vector passes per iteration and dof (doubles read + written), M = Jacobi:
 *  CG:            p^T q (2) | x += a p, r -= a q, sums r^T r, r^T z (5 + 2)
 *                 | p = z + b p (3 + 1)                       = 13, 2 reductions
 *  pipelined CG:  x += a p, r -= a q, p = z + b p (5 + 3) | sums q^T M^-1 q,
 *                 p^T q, r^T r, r^T M^-1 r (4)                = 12, 1 reduction
 * (without a preconditioner the reads of M^-1 drop: 11 and 10), plus the
 * operator application.
 *
 * Scaling: the iteration solves A y = s b from y_0 = s x_0 and returns
 * x = y / s, with s = 2^-e a power of two that brings ||b||_inf into
 * [1/2, 1) (e from frexp).  Its sums of squares (||b||^2, ||r||^2, p^T A p)
 * then stay in double's range whatever b's magnitude (A's permitting; an
 * initial guess within ~1e150 of b's scale): unscaled, ||b||^2
 * underflowed to 0 for ||b|| below ~1e-160 (the stopping test rtol ||b||
 * became 0: "converged" at x = 0) and overflowed above ~1e+154
 * (NOT_FINITE).  Multiplying by a power of two is exact outside the
 * subnormal range, so the scaled iteration is the unscaled one times s,
 * bit for bit: the same alpha, beta, stopping decisions and iteration count
 * (the Jacobi preconditioner is linear, M^-1 (s r) = s M^-1 r).  The
 * residuals reported (history, info, messages) are multiplied back by 1/s,
 * exactly.  s b and s x_0 are made by a scaling pass (kern_scale) over the
 * copies of b and x_0 the iteration works on (s b: a host copy of b as well
 * unless s = 1), not inside kern_init: a multiply added there changed clang's
 * interleaving of the pass's `simd` reduction (4 -> 2 partial sums), hence
 * the order of ||r_0||^2's terms and the last bits of every iterate.  (With
 * the pass as it is, x, the history and info of 48 solves, CG and pipelined,
 * both preconditioners, zero and nonzero x_0, came out bitwise as before.)
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#ifdef _OPENMP
#include <omp.h>
#else
static inline int omp_get_thread_num(void) { return 0; }
static inline int omp_get_num_threads(void) { return 1; }
#endif

#include "solve/solve_internal.h"
#ifdef FEINT_OFFLOAD
#include "kernel/gpu_tuning.h"
#endif

#define NSUM 4
/* threads per team of the device passes (a multiple of the warp) */
#define SOLVE_THREADS 256
/* device reductions: at least this many entries per thread, at most this
 * many teams (the partial sums copied back: NSUM * 8 bytes per team) */
#define SOLVE_ENTRIES_PER_THREAD 8
#define SOLVE_MAX_TEAMS 1024

/* The vectors of an iteration (host or device pointers, as the pass runs)
 * and its two scalars.  dinv: the inverse diagonal, NULL without
 * preconditioner (z = r).  b: s b, x: y = s x (scaling above).  scale: the
 * factor of kern_scale. */
typedef struct {
  double *x, *r, *p, *q;
  const double *b, *dinv;
  double alpha, beta, scale;
} solve_vecs;

#pragma omp declare target
/* z_i = (M^-1 r)_i */
static inline double precond(const solve_vecs *v, size_t i, double ri) {
  return v->dinv ? v->dinv[i] * ri : ri;
}
/* x *= scale (s b and y_0 = s x_0, run on the vector in x) */
static inline void kern_scale(const solve_vecs *v, size_t i) { v->x[i] *= v->scale; }
/* r = b - q (q = A x_0), p = z; sums b^T b, r^T r, r^T z */
static inline void kern_init(const solve_vecs *v, size_t i, double s[NSUM]) {
  const double bi = v->b[i], ri = bi - v->q[i], zi = precond(v, i, ri);
  v->r[i] = ri;
  v->p[i] = zi;
  s[0] += bi * bi;
  s[1] += ri * ri;
  s[2] += ri * zi;
}
/* CG: sum p^T q (q = A p) */
static inline void kern_cg_pq(const solve_vecs *v, size_t i, double s[NSUM]) {
  s[0] += v->p[i] * v->q[i];
}
/* CG: x += alpha p, r -= alpha q; sums r^T r, r^T z */
static inline void kern_cg_xr(const solve_vecs *v, size_t i, double s[NSUM]) {
  const double ri = v->r[i] - v->alpha * v->q[i], zi = precond(v, i, ri);
  v->x[i] += v->alpha * v->p[i];
  v->r[i] = ri;
  s[0] += ri * ri;
  s[1] += ri * zi;
}
/* CG: p = z + beta p */
static inline void kern_cg_p(const solve_vecs *v, size_t i) {
  v->p[i] = precond(v, i, v->r[i]) + v->beta * v->p[i];
}
/* pipelined CG: x += alpha p, r -= alpha q, p = z(new r) + beta p */
static inline void kern_pcg_xrp(const solve_vecs *v, size_t i) {
  const double pi = v->p[i], ri = v->r[i] - v->alpha * v->q[i];
  v->x[i] += v->alpha * pi;
  v->r[i] = ri;
  v->p[i] = precond(v, i, ri) + v->beta * pi;
}
/* pipelined CG: sums q^T M^-1 q, p^T q, r^T r, r^T M^-1 r (q = A p) */
static inline void kern_pcg_dots(const solve_vecs *v, size_t i, double s[NSUM]) {
  const double qi = v->q[i], ri = v->r[i];
  s[0] += qi * precond(v, i, qi);
  s[1] += v->p[i] * qi;
  s[2] += ri * ri;
  s[3] += ri * precond(v, i, ri);
}
#pragma omp end declare target

enum { K_SCALE, K_INIT, K_CG_PQ, K_CG_XR, K_CG_P, K_PCG_XRP, K_PCG_DOTS };

/* Where the passes run. */
typedef struct {
  size_t n;
  int on_target;       /* 1: target regions on dev over device arrays */
  int dev;             /* device number (the initial device in host fallback) */
  int op_device_ptrs;  /* the operator takes device pointers */
  int num_teams;       /* device reductions: teams and entries per team */
  size_t chunk;
  int update_teams;    /* device update passes: teams */
  int thread_limit;    /* threads per team */
  double *part;        /* device [NSUM][num_teams] partial sums */
  double *part_host;   /* host copy */
} solve_ctx;

/* Entry i's NSUM terms of a sum pass (fn fills them) added to the four
 * accumulators: the one per-entry step of the host and device passes. */
#define ADD_TERMS(fn, i, a0, a1, a2, a3)       \
  do {                                         \
    double t_[NSUM] = {0.0, 0.0, 0.0, 0.0};    \
    fn(&v, i, t_);                             \
    a0 += t_[0];                               \
    a1 += t_[1];                               \
    a2 += t_[2];                               \
    a3 += t_[3];                               \
  } while (0)

/* Host pass with sums: each thread takes a static share of the entries and
 * reduces it with `omp simd` into locals, then the threads' sums meet in the
 * parallel region's reduction.  Not `parallel for simd reduction`: in an
 * offload build (-fopenmp-targets) at -O1, clang 19 left that loop's private
 * reduction copies in memory (their addresses go to the runtime's reduction
 * list, and the passes that store to r and p may alias them), vectorised the
 * loop under the parallel-access metadata that `simd` puts on every access,
 * and kept one lane's partial sum (||b||^2 came out half with SSE2; t901
 * caught it).  Plain `parallel for` avoids that but does not vectorise the
 * sums (+15-25% per CG iteration in cache, Zen 1). */
#define HOST_SUM_PASS(fn)                                                                      \
  do {                                                                                         \
    double s0 = 0.0, s1 = 0.0, s2 = 0.0, s3 = 0.0;                                             \
    _Pragma("omp parallel reduction(+ : s0, s1, s2, s3)")                                      \
    {                                                                                          \
      size_t lo = 0, hi = n;                                                                   \
      feint_thread_range(n, omp_get_thread_num(), omp_get_num_threads(), &lo, &hi);           \
      double l0 = 0.0, l1 = 0.0, l2 = 0.0, l3 = 0.0;                                           \
      _Pragma("omp simd reduction(+ : l0, l1, l2, l3)")                                        \
      for (size_t i = lo; i < hi; i++) ADD_TERMS(fn, i, l0, l1, l2, l3);                      \
      s0 += l0;                                                                                \
      s1 += l1;                                                                                \
      s2 += l2;                                                                                \
      s3 += l3;                                                                                \
    }                                                                                          \
    sums[0] = s0;                                                                              \
    sums[1] = s1;                                                                              \
    sums[2] = s2;                                                                              \
    sums[3] = s3;                                                                              \
  } while (0)

#define HOST_UPDATE_PASS(fn)                                      \
  do {                                                            \
    _Pragma("omp parallel for simd schedule(static)")             \
    for (size_t i = 0; i < n; i++) fn(&v, i);                     \
  } while (0)

#ifdef FEINT_OFFLOAD
/* Device pass with sums, stage 1: team t reduces entries
 * [t chunk, (t+1) chunk) with its threads (schedule(static, 1): consecutive
 * threads read consecutive entries) into part[k][t]. */
#define DEVICE_SUM_PASS(fn)                                                                    \
  do {                                                                                         \
    _Pragma("omp target teams distribute num_teams(nt) thread_limit(tl) device(dev) is_device_ptr(part) firstprivate(v)") \
    for (int t = 0; t < nt; t++) {                                                             \
      const size_t lo = (size_t)t * chunk, hi = lo + chunk < n ? lo + chunk : n;               \
      double s0 = 0.0, s1 = 0.0, s2 = 0.0, s3 = 0.0;                                           \
      _Pragma("omp parallel for schedule(static, 1) reduction(+ : s0, s1, s2, s3)")            \
      for (size_t i = lo; i < hi; i++) ADD_TERMS(fn, i, s0, s1, s2, s3);                      \
      part[t] = s0;                                                                            \
      part[nt + t] = s1;                                                                       \
      part[2 * nt + t] = s2;                                                                   \
      part[3 * nt + t] = s3;                                                                   \
    }                                                                                          \
  } while (0)

#define DEVICE_UPDATE_PASS(fn)                                                                 \
  do {                                                                                         \
    _Pragma("omp target teams distribute parallel for num_teams(ut) thread_limit(tl) device(dev) firstprivate(v)") \
    for (size_t i = 0; i < n; i++) fn(&v, i);                                                  \
  } while (0)
#endif

/* Run pass `kernel` over the vectors; sums[0..nsum-1] receive its sums
 * (nsum: how many the kernel produces; 0 for the update passes). */
static feint_status vec_pass(const solve_ctx *c, int kernel, const solve_vecs *vp, int nsum,
                             double sums[NSUM]) {
  const solve_vecs v = *vp;
  const size_t n = c->n;
  if (!c->on_target) {
    switch (kernel) {
      case K_SCALE: HOST_UPDATE_PASS(kern_scale); break;
      case K_INIT: HOST_SUM_PASS(kern_init); break;
      case K_CG_PQ: HOST_SUM_PASS(kern_cg_pq); break;
      case K_CG_XR: HOST_SUM_PASS(kern_cg_xr); break;
      case K_CG_P: HOST_UPDATE_PASS(kern_cg_p); break;
      case K_PCG_XRP: HOST_UPDATE_PASS(kern_pcg_xrp); break;
      case K_PCG_DOTS: HOST_SUM_PASS(kern_pcg_dots); break;
      default: break;
    }
    return FEINT_SUCCESS;
  }
#ifdef FEINT_OFFLOAD
  const int dev = c->dev, nt = c->num_teams, ut = c->update_teams, tl = c->thread_limit;
  const size_t chunk = c->chunk;
  double *part = c->part;
  switch (kernel) {
    case K_SCALE: DEVICE_UPDATE_PASS(kern_scale); break;
    case K_INIT: DEVICE_SUM_PASS(kern_init); break;
    case K_CG_PQ: DEVICE_SUM_PASS(kern_cg_pq); break;
    case K_CG_XR: DEVICE_SUM_PASS(kern_cg_xr); break;
    case K_CG_P: DEVICE_UPDATE_PASS(kern_cg_p); break;
    case K_PCG_XRP: DEVICE_UPDATE_PASS(kern_pcg_xrp); break;
    case K_PCG_DOTS: DEVICE_SUM_PASS(kern_pcg_dots); break;
    default: break;
  }
  if (nsum == 0) return FEINT_SUCCESS;
  /* stage 2: the partial sums back (nsum * nt doubles), added in team order */
  FEINT_CHECK(omp_target_memcpy(c->part_host, part, (size_t)nsum * (size_t)nt * sizeof(double), 0,
                                0, omp_get_initial_device(), dev) == 0,
              FEINT_ERR_DEVICE, "copying %d x %d partial sums from device %d failed", nsum, nt,
              dev);
  for (int k = 0; k < nsum; k++) {
    double s = 0.0;
    for (int t = 0; t < nt; t++) s += c->part_host[(size_t)k * (size_t)nt + (size_t)t];
    sums[k] = s;
  }
  return FEINT_SUCCESS;
#else
  (void)nsum;
  (void)sums;
  return feint_error_set(FEINT_ERR_NO_DEVICE, __func__, __FILE__, __LINE__,
                         "device vector passes need an offload build (make GPU=sm_XX)");
#endif
}

/* ---- vector memory: host (malloc) or the pass's device --------------------- */

static feint_status vec_alloc(const solve_ctx *c, size_t count, double **ptr) {
  const size_t bytes = count * sizeof(double);
  if (!c->on_target) {
    *ptr = malloc(bytes);
    FEINT_CHECK(*ptr != NULL, FEINT_ERR_ALLOC, "cannot allocate a vector of %zu doubles", count);
    return FEINT_SUCCESS;
  }
#ifdef FEINT_OFFLOAD
  *ptr = omp_target_alloc(bytes, c->dev);
  FEINT_CHECK(*ptr != NULL, FEINT_ERR_ALLOC, "cannot allocate %zu doubles on device %d", count,
              c->dev);
#endif
  return FEINT_SUCCESS;
}

static void vec_free(const solve_ctx *c, double *ptr) {
  if (!ptr) return;
  if (!c->on_target) {
    free(ptr);
    return;
  }
#ifdef FEINT_OFFLOAD
  omp_target_free(ptr, c->dev);
#endif
}

/* host -> pass memory (to_pass = 1) or back (0) */
static feint_status vec_copy(const solve_ctx *c, void *dst, const void *src, size_t count,
                             int to_pass) {
  const size_t bytes = count * sizeof(double);
  if (!c->on_target) {
    memcpy(dst, src, bytes);
    return FEINT_SUCCESS;
  }
#ifdef FEINT_OFFLOAD
  const int host = omp_get_initial_device();
  FEINT_CHECK(omp_target_memcpy(dst, src, bytes, 0, 0, to_pass ? c->dev : host,
                                to_pass ? host : c->dev) == 0,
              FEINT_ERR_DEVICE, "copying %zu doubles %s device %d failed", count,
              to_pass ? "to" : "from", c->dev);
#else
  (void)to_pass;
#endif
  return FEINT_SUCCESS;
}

/* ---- the iterations ---------------------------------------------------------- */

static const char *solver_name(feint_solver s) {
  return s == FEINT_SOLVER_PIPELINED_CG ? "pipelined CG" : "CG";
}

/* What an iteration reports back.  rr, bb: of the scaled problem (s^2 times
 * the unscaled sums); unscale = 1/s = 2^scale_exp turns its norms back into
 * the caller's (exactly: sqrt(s^2 a) = s sqrt(a) for s^2 a power of 4). */
typedef struct {
  size_t k;
  double rr, bb;
  int converged;
  int scale_exp;
  double unscale;
} solve_state;

static void record(const feint_solve_desc *d, solve_state *st, size_t k, double rr) {
  st->k = k;
  st->rr = rr;
  if (d->history) d->history[k] = sqrt(rr) * st->unscale;
}

/* A sum of squares of the scaled problem (quadratic in s) in the caller's
 * units, for messages; in two steps, since 1/s^2 may overflow where 1/s
 * does not. */
static double unscaled_sq(const solve_state *st, double val) {
  return val * st->unscale * st->unscale;
}

/* A scalar of the iteration that must be finite; NOT_FINITE naming it.
 * The scalars checked are all quadratic in s; the message gives them and
 * ||r|| unscaled. */
#define CHECK_FINITE_SCALAR(val, what)                                                          \
  FEINT_CHECK(isfinite(val), FEINT_ERR_NOT_FINITE,                                              \
              "%s, iteration %zu: %s = %g is not finite (a NaN or Inf in the operator's "        \
              "output or the vectors); ||r|| = %g",                                             \
              solver_name(d->solver), st->k, (what), unscaled_sq(st, val),                      \
              sqrt(st->rr) * st->unscale)

/* Breakdown test of a curvature / preconditioned norm that must be > 0. */
#define CHECK_POSITIVE_SCALAR(val, what)                                                        \
  FEINT_CHECK((val) > 0.0, FEINT_ERR_BREAKDOWN,                                                 \
              "%s breakdown at iteration %zu: %s = %g <= 0, so the operator or "                \
              "preconditioner is not positive definite; ||r|| = %g",                            \
              solver_name(d->solver), st->k, (what), unscaled_sq(st, val),                      \
              sqrt(st->rr) * st->unscale)

/* r_0 = s b - A y_0, p_0 = z_0; records k = 0.  sums: (s b)^T (s b), r^T r,
 * r^T z.  With ||s b||_inf in [1/2, 1), r_0^T r_0 overflows only when
 * ||A x_0|| exceeds ||b|| by ~150 orders of magnitude (or the operator
 * produced a NaN or Inf): the message says so. */
static feint_status start(const feint_solve_operator *op, const solve_ctx *c,
                          const feint_solve_desc *d, solve_vecs *v, solve_state *st, double *rz) {
  double s[NSUM] = {0.0, 0.0, 0.0, 0.0};
  FEINT_CALL(op->apply(op->ctx, v->x, v->q));
  FEINT_CALL(vec_pass(c, K_INIT, v, 3, s));
  st->bb = s[0];
  record(d, st, 0, s[1]);
  *rz = s[2];
  FEINT_CHECK(isfinite(st->rr), FEINT_ERR_NOT_FINITE,
              "%s, iteration 0: r_0^T r_0 (r_0 = b - A x_0) = %g is not finite with b and x_0 "
              "scaled by 2^%d (so that ||b||_inf is about 1): a NaN or Inf from the operator, "
              "or ||A x_0|| beyond ~1e150 ||b|| (an initial guess far off b's scale)",
              solver_name(d->solver), unscaled_sq(st, st->rr), -st->scale_exp);
  return FEINT_SUCCESS;
}

static int done(const feint_solve_desc *d, solve_state *st) {
  if (sqrt(st->rr) <= d->rtol * sqrt(st->bb)) {
    st->converged = 1;
    return 1;
  }
  return st->k >= d->max_iter;
}

/* Textbook preconditioned CG (two reductions per iteration). */
static feint_status cg_iterate(const feint_solve_operator *op, const solve_ctx *c,
                               const feint_solve_desc *d, solve_vecs *v, solve_state *st) {
  double s[NSUM] = {0.0, 0.0, 0.0, 0.0}, rz;
  FEINT_CALL(start(op, c, d, v, st, &rz));
  while (!done(d, st)) {
    CHECK_FINITE_SCALAR(rz, "r^T M^-1 r");
    CHECK_POSITIVE_SCALAR(rz, "r^T M^-1 r");
    if (st->k > 0) FEINT_CALL(vec_pass(c, K_CG_P, v, 0, s)); /* p = z + beta p */
    FEINT_CALL(op->apply(op->ctx, v->p, v->q));
    FEINT_CALL(vec_pass(c, K_CG_PQ, v, 1, s));
    CHECK_FINITE_SCALAR(s[0], "p^T A p");
    CHECK_POSITIVE_SCALAR(s[0], "p^T A p");
    v->alpha = rz / s[0];
    FEINT_CALL(vec_pass(c, K_CG_XR, v, 2, s));
    record(d, st, st->k + 1, s[0]);
    CHECK_FINITE_SCALAR(st->rr, "r^T r");
    v->beta = s[1] / rz;
    rz = s[1];
  }
  return FEINT_SUCCESS;
}

/* Seed 004's pipelined CG: one fused reduction per iteration. */
static feint_status pipelined_iterate(const feint_solve_operator *op, const solve_ctx *c,
                                      const feint_solve_desc *d, solve_vecs *v, solve_state *st) {
  double s[NSUM] = {0.0, 0.0, 0.0, 0.0}, rz;
  FEINT_CALL(start(op, c, d, v, st, &rz));
  if (done(d, st)) return FEINT_SUCCESS;
  FEINT_CALL(op->apply(op->ctx, v->p, v->q));
  FEINT_CALL(vec_pass(c, K_PCG_DOTS, v, 4, s));
  for (;;) {
    /* s: q^T M^-1 q, p^T q, r^T r, r^T M^-1 r of the current k */
    CHECK_FINITE_SCALAR(s[0], "(A p)^T M^-1 (A p)");
    CHECK_FINITE_SCALAR(s[1], "p^T A p");
    CHECK_FINITE_SCALAR(s[3], "r^T M^-1 r");
    CHECK_POSITIVE_SCALAR(s[1], "p^T A p");
    CHECK_POSITIVE_SCALAR(s[3], "r^T M^-1 r");
    rz = s[3];
    v->alpha = rz / s[1];
    /* r_{k+1}^T z_{k+1} = rz - 2 alpha p^T A p + alpha^2 q^T M^-1 q, and
     * alpha p^T A p = rz (z_k = p_k - beta p_{k-1}, A-conjugacy) */
    v->beta = (v->alpha * v->alpha * s[0] - rz) / rz;
    FEINT_CALL(vec_pass(c, K_PCG_XRP, v, 0, s));
    FEINT_CALL(op->apply(op->ctx, v->p, v->q));
    FEINT_CALL(vec_pass(c, K_PCG_DOTS, v, 4, s));
    record(d, st, st->k + 1, s[2]);
    CHECK_FINITE_SCALAR(st->rr, "r^T r");
    if (done(d, st)) return FEINT_SUCCESS;
  }
}

/* ---- checks, set-up, the public call ------------------------------------------ */

/* First index of a non-finite entry of a host array, SIZE_MAX if none;
 * *max_abs = max_i |a_i| (meaningful when all are finite; 0: a = 0). */
static size_t scan_host(const double *a, size_t n, double *max_abs) {
  size_t first = SIZE_MAX;
  double m = 0.0;
#pragma omp parallel for schedule(static) reduction(min : first) reduction(max : m)
  for (size_t i = 0; i < n; i++) {
    if (!isfinite(a[i]) && i < first) first = i;
    m = fmax(m, fabs(a[i]));
  }
  *max_abs = m;
  return first;
}

/* e with ||b||_inf = m 2^e, m in [1/2, 1): the iteration's scale s = 2^-e.
 * Clamped to +-1020 so that s and 1/s are normal numbers (b's largest and
 * subnormal entries: ||s b||_inf then lies in [2^-54, 16)). */
static int scale_exponent(double b_max_abs) {
  int e;
  (void)frexp(b_max_abs, &e);
  return e < -1020 ? -1020 : e > 1020 ? 1020 : e;
}

static void fill_info(feint_solve_info *info, const solve_state *st) {
  if (!info) return;
  info->iterations = st->k;
  info->residual_norm = sqrt(st->rr) * st->unscale;
  info->rhs_norm = sqrt(st->bb) * st->unscale;
  info->converged = st->converged;
}

/* x = y / s on the host copy of the last iterate; 0 if an entry overflowed
 * (the solution is not representable: ||b|| near double's maximum and A
 * small).  Once per solve: plain `parallel for`, not `parallel for simd
 * reduction` (the clang 19 offload -O1 miscompile, HOST_SUM_PASS). */
static int unscale_host(double *x, size_t n, double unscale) {
  int finite = 1;
#pragma omp parallel for schedule(static) reduction(& : finite)
  for (size_t i = 0; i < n; i++) {
    x[i] *= unscale;
    finite &= isfinite(x[i]);
  }
  return finite;
}

feint_status feint_solve_run(const feint_solve_operator *op, const feint_solve_desc *desc,
                             const double *b, double *x, feint_solve_info *info,
                             int target_kernels) {
  FEINT_CHECK(op != NULL, FEINT_ERR_NULL_ARG, "op is NULL");
  FEINT_CHECK(desc != NULL, FEINT_ERR_NULL_ARG, "desc is NULL");
  FEINT_CHECK(b != NULL, FEINT_ERR_NULL_ARG, "b is NULL");
  FEINT_CHECK(x != NULL, FEINT_ERR_NULL_ARG, "x is NULL");
  const feint_solve_desc d = *desc;
  FEINT_CHECK_ENUM(d.solver, FEINT_SOLVER_COUNT, "desc->solver", "feint_solver");
  FEINT_CHECK_ENUM(d.pc, FEINT_PC_COUNT, "desc->pc", "feint_pc");
  FEINT_CHECK(d.rtol > 0.0 && isfinite(d.rtol), FEINT_ERR_OUT_OF_RANGE,
              "desc->rtol = %g; the relative tolerance must be positive and finite", d.rtol);
  FEINT_CHECK(!d.history || d.max_iter < SIZE_MAX / sizeof(double), FEINT_ERR_BAD_SIZE,
              "desc->max_iter = %zu: a history of max_iter + 1 entries overflows", d.max_iter);
  const size_t n = op->n;
  FEINT_CHECK(n > 0, FEINT_ERR_BAD_SIZE, "the operator has no dofs");
  FEINT_CHECK(op->symmetric, FEINT_ERR_UNSUPPORTED,
              "the operator is not symmetric (its problem's matrix is not); %s needs a "
              "symmetric positive definite operator",
              solver_name(d.solver));
  FEINT_CHECK(!feint_ranges_overlap(b, n * sizeof(double), x, n * sizeof(double)),
              FEINT_ERR_UNSUPPORTED, "b and x overlap");
  double b_max, x_max;
  size_t bad = scan_host(b, n, &b_max);
  FEINT_CHECK(bad == SIZE_MAX, FEINT_ERR_NOT_FINITE, "b[%zu] = %g is not finite", bad, b[bad]);
  bad = scan_host(x, n, &x_max);
  FEINT_CHECK(bad == SIZE_MAX, FEINT_ERR_NOT_FINITE,
              "x[%zu] = %g (the initial guess) is not finite", bad, x[bad]);

  solve_ctx c = {0};
  c.n = n;
  c.op_device_ptrs = op->device_ptrs;
  c.on_target = c.op_device_ptrs || target_kernels;
#ifdef FEINT_OFFLOAD
  c.dev = c.op_device_ptrs ? op->device : omp_get_initial_device();
  if (c.on_target) {
    const int host = c.dev == omp_get_initial_device();
    const size_t per_team = (size_t)SOLVE_THREADS * SOLVE_ENTRIES_PER_THREAD;
    size_t nt = (n + per_team - 1) / per_team;
    const size_t max_teams = host ? (size_t)omp_get_num_procs() : SOLVE_MAX_TEAMS;
    if (nt > max_teams) nt = max_teams;
    if (nt < 1) nt = 1;
    c.chunk = (n + nt - 1) / nt;
    c.num_teams = (int)((n + c.chunk - 1) / c.chunk); /* every team gets entries */
    c.update_teams = feint_gpu_num_teams(n, SOLVE_THREADS, host, omp_get_num_procs());
    /* host fallback: one thread per team (teams are host threads there;
     * more would oversubscribe the cores) */
    c.thread_limit = host ? 1 : SOLVE_THREADS;
  }
#else
  FEINT_CHECK(!c.on_target, FEINT_ERR_NO_DEVICE,
              "device vectors need an offload build (make GPU=sm_XX)");
#endif

  solve_state st = {0, 0.0, 0.0, 0, 0, 1.0};
  if (b_max == 0.0) { /* A x = 0: x = 0, nothing to iterate */
    memset(x, 0, n * sizeof(double));
    st.converged = 1;
    if (d.history) d.history[0] = 0.0;
    fill_info(info, &st);
    return FEINT_SUCCESS;
  }

  /* Jacobi: M^-1 = 1 / diag(A), from a host copy of the diagonal */
  double *dinv_host = NULL;
  if (d.pc == FEINT_PC_JACOBI) {
    dinv_host = malloc(n * sizeof(double));
    FEINT_CHECK(dinv_host != NULL, FEINT_ERR_ALLOC, "cannot allocate the diagonal (%zu doubles)",
                n);
    feint_status s = op->diagonal(op->ctx, dinv_host);
    if (s != FEINT_SUCCESS) {
      free(dinv_host);
      return s;
    }
    size_t nonpos = SIZE_MAX;
#pragma omp parallel for schedule(static) reduction(min : nonpos)
    for (size_t i = 0; i < n; i++) {
      const double a = dinv_host[i];
      if (!(a > 0.0 && isfinite(a)) && i < nonpos) nonpos = i;
      dinv_host[i] = 1.0 / a;
    }
    if (nonpos != SIZE_MAX) {
      const double a = 1.0 / dinv_host[nonpos];
      free(dinv_host);
      return feint_error_set(FEINT_ERR_BREAKDOWN, __func__, __FILE__, __LINE__,
                             "Jacobi: diagonal entry %zu of A is %g; a symmetric positive "
                             "definite operator has a positive diagonal",
                             nonpos, a);
    }
  }

  /* the scale s = 2^-e (frexp, ldexp: host only; the passes get s in v) */
  st.scale_exp = scale_exponent(b_max);
  st.unscale = ldexp(1.0, st.scale_exp);
  const double scale = ldexp(1.0, -st.scale_exp);

  /* the vectors, where the passes run: x, r, p, q (+ s b where b needs
   * scaling or the passes run on a device, + M^-1 on a device) */
  const int copy_b = c.on_target || scale != 1.0;
  double *vx = NULL, *vr = NULL, *vp = NULL, *vq = NULL, *vb = NULL, *vdinv = NULL;
  feint_status s = FEINT_SUCCESS;
#define TRY(expr)                  \
  do {                             \
    if (s == FEINT_SUCCESS) s = (expr); \
  } while (0)
  TRY(vec_alloc(&c, n, &vx));
  TRY(vec_alloc(&c, n, &vr));
  TRY(vec_alloc(&c, n, &vp));
  TRY(vec_alloc(&c, n, &vq));
  if (copy_b) {
    TRY(vec_alloc(&c, n, &vb));
    TRY(vec_copy(&c, vb, b, n, 1));
  }
  if (c.on_target) {
    if (dinv_host) TRY(vec_alloc(&c, n, &vdinv));
    TRY(vec_alloc(&c, NSUM * (size_t)c.num_teams, &c.part));
    if (s == FEINT_SUCCESS) {
      c.part_host = malloc(NSUM * (size_t)c.num_teams * sizeof(double));
      if (!c.part_host)
        s = feint_error_set(FEINT_ERR_ALLOC, __func__, __FILE__, __LINE__,
                            "cannot allocate %d partial sums", NSUM * c.num_teams);
    }
    if (dinv_host) TRY(vec_copy(&c, vdinv, dinv_host, n, 1));
  }
  TRY(vec_copy(&c, vx, x, n, 1));
  if (scale != 1.0) { /* s b and y_0 = s x_0, in place */
    const solve_vecs vsb = {vb, NULL, NULL, NULL, NULL, NULL, 0.0, 0.0, scale};
    const solve_vecs vsx = {vx, NULL, NULL, NULL, NULL, NULL, 0.0, 0.0, scale};
    TRY(vec_pass(&c, K_SCALE, &vsb, 0, NULL));
    if (x_max != 0.0) TRY(vec_pass(&c, K_SCALE, &vsx, 0, NULL));
  }
  if (s == FEINT_SUCCESS) {
    solve_vecs v = {vx, vr, vp, vq, copy_b ? vb : b, c.on_target ? vdinv : dinv_host,
                    0.0, 0.0, scale};
    s = d.solver == FEINT_SOLVER_CG ? cg_iterate(op, &c, &d, &v, &st)
                                    : pipelined_iterate(op, &c, &d, &v, &st);
    /* x = the last iterate also after NOT_FINITE / BREAKDOWN met in the iteration */
    const int iteration_status = s == FEINT_SUCCESS || s == FEINT_ERR_NOT_FINITE ||
                                 s == FEINT_ERR_BREAKDOWN;
    if (iteration_status) {
      const feint_status s_iter = s;
      /* k = 0: x still holds x_0 (y_0 / s could differ from it where s x_0
       * left double's normal range) */
      s = st.k > 0 ? vec_copy(&c, x, vx, n, 0) : FEINT_SUCCESS;
      if (s == FEINT_SUCCESS) {
        const int x_finite = st.k == 0 || scale == 1.0 || unscale_host(x, n, st.unscale);
        fill_info(info, &st);
        s = s_iter;
        if (s == FEINT_SUCCESS && !x_finite)
          s = feint_error_set(FEINT_ERR_NOT_FINITE, __func__, __FILE__, __LINE__,
                              "%s, iteration %zu: x = y * 2^%d overflows (y the iterate of the "
                              "system scaled so that ||b||_inf is about 1): the solution is "
                              "beyond double's range",
                              solver_name(d.solver), st.k, st.scale_exp);
        else if (s == FEINT_SUCCESS && !st.converged)
          s = feint_error_set(FEINT_ERR_NOT_CONVERGED, __func__, __FILE__, __LINE__,
                              "%s did not converge in %zu iterations: ||r|| = %g > rtol ||b|| = "
                              "%g x %g",
                              solver_name(d.solver), st.k, sqrt(st.rr) * st.unscale, d.rtol,
                              sqrt(st.bb) * st.unscale);
      }
    }
  }
#undef TRY
  vec_free(&c, vx);
  vec_free(&c, vr);
  vec_free(&c, vp);
  vec_free(&c, vq);
  vec_free(&c, vb);
  vec_free(&c, vdinv);
  vec_free(&c, c.part);
  free(c.part_host);
  free(dinv_host);
  return s;
}

/* feint_operator behind the callbacks: a device operator takes device
 * pointers (the vectors stay there); the diagonal comes back to the host. */
typedef struct {
  const feint_operator *op;
  unsigned flags;
} op_ctx;
static feint_status op_apply(void *ctx, const double *x, double *y) {
  const op_ctx *c = ctx;
  return feint_operator_apply(c->op, x, y, c->flags);
}
static feint_status op_diagonal(void *ctx, double *diag) {
  const op_ctx *c = ctx;
  return feint_operator_diagonal(c->op, diag, 0u);
}

feint_status feint_solve(const feint_operator *op, const feint_solve_desc *desc, const double *b,
                         double *x, feint_solve_info *info) {
  FEINT_CHECK(op != NULL, FEINT_ERR_NULL_ARG, "op is NULL");
  feint_operator_info oi;
  FEINT_CALL(feint_operator_get_info(op, &oi));
  const int on_device = oi.target == FEINT_TARGET_DEVICE;
  op_ctx ctx = {op, on_device ? (unsigned)FEINT_FLAG_DEVICE_POINTERS : 0u};
  const feint_solve_operator A = {oi.num_dofs, oi.symmetric, on_device,  oi.device,
                                  op_apply,    op_diagonal,  &ctx};
  /* an offload build's host fallback runs the device passes on the host, as
   * the operator runs its device code there */
  return feint_solve_run(&A, desc, b, x, info, oi.host_fallback && feint_offload_built());
}
