/*
 * feint_bench - measure every variant of feint on every case (tet4, prism6,
 * hex8 x Poisson, conv-diff, elasticity, poisson_kappa, elasticity_qp),
 * natural and blocked layouts and packed symmetric output (input natural;
 * bytes with A_e's upper triangle only; not conv-diff), and put each
 * time beside the lower bound of the performance model computed from a
 * bandwidth (STREAM triad, nontemporal stores) and a flop rate (peak-FMA
 * kernel) measured in the same run, interleaved with the kernel runs.
 *
 * Run rules
 *  - >= 4 Mi distinct elements per case (perturbed meshes: no two alike),
 *    fewer for cases whose arrays would pass 4 GiB (elasticity: hex8 1 Mi),
 *    never below 1 Mi; arrays far beyond the last-level cache; threads as OpenMP gives them
 *    (make bench pins them: OMP_PROC_BIND=close, OMP_PLACES=cores).
 *  - Per variant, its rows (natural, blocked, packed output; for
 *    qss_geo_generic also the default call in both layouts) are timed
 *    together: one untimed warm-up each, then `reps` rounds, each round
 *    running every row once, and before each timed kernel run one triad run
 *    and one FMA run.  Reported: min / median / max of the kernel; the bound
 *    uses the median triad bandwidth and the median FMA rate of the same
 *    row's reps.  The ratios printed after each case (natural/blocked,
 *    packed/natural, validated/trusted) compare rows of the same rounds:
 *    the ratio of the minima and the median of the per-round ratios.
 *  - Kernel time only (FEINT_FLAG_TRUST_GEOMETRY), as the paper times it;
 *    the default call, with the validation pass feint_integrate runs before
 *    any output is written, has its own row ("qss_geo_generic+check", bytes
 *    including the pass's second read of the geometry and coefficients), so its cost is
 *    visible, not hidden.
 *  - Bytes and flops per element come from the performance model
 *    (feint_pm_counts_get): bytes = compulsory traffic (inputs read once,
 *    outputs written once with streaming stores); % of bound = bound / min.
 *  - Every configuration is validated against the serial reference (every
 *    7th element, all lanes and entries) before it is reported; PASS/FAIL on
 *    every line; exit status 1 if any FAIL.
 *
 * Device mode (--target device, offload build: make GPU=sm_XX): the bound's
 * bandwidth is the device's own STREAM triad (a target-offloaded triad over
 * device arrays, timed with omp_get_wtime around the target region,
 * interleaved with the kernel runs like the host triad); no device flop-rate
 * probe exists, so the bound is memory-only (fma column "inf").  Kernel rows
 * time calls on device-resident data (FEINT_FLAG_DEVICE_POINTERS: no
 * transfers); rows whose variant ends in "+xfer" time whole calls with host
 * arrays (allocation and host<->device transfers included); their bound
 * ("link") is inputs / host-to-device GB/s + bytes / triad + outputs /
 * device-to-host GB/s, the copy rates of pageable host memory measured
 * interleaved like the triad (feint_device_copy_to/from of 8 n bytes), the
 * three phases of such a call being sequential.  Platform: the
 * GPU's name (nvidia-smi), device column "gpu".  Every call is checked with
 * feint_last_execution(): if one did not run on the device the bench prints
 * an error and exits with status 3 - it never labels host numbers as GPU.
 *
 * Usage: feint_bench [--elements N] [--reps R] [--csv FILE | --no-csv]
 *                    [--case tet4-poisson,...] [--quick] [--target host|device]
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <float.h>
#include <math.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "feint.h"
#include "feint_likwid.h"
#include "feint_perfmodel.h"
#include "perfmodel_cli.h" /* perfmodel_run: programs without a shell */


#define MAX_REPS 64
/* Arrays of one case above this size get fewer elements, down to
 * MIN_ELEMENTS (the run rule: >= 1 Mi distinct elements per case). */
#define MEM_CAP_BYTES ((size_t)4 << 30)
#define MIN_ELEMENTS ((size_t)1 << 20)

typedef struct {
  size_t elements;   /* minimum number of elements per case */
  int reps;          /* timed repetitions (at most) */
  double budget_s;   /* time budget per configuration: fewer reps for slow kernels */
  const char *csv;   /* result file, NULL: none */
  const char *cases; /* comma-separated filter, NULL: all */
  size_t triad_n;    /* triad length (doubles per array) */
  int device;        /* 1: --target device */
} options;

/* --target device: the device number and a check that calls ran there. */
static int g_device_mode;
static void require_device_run(const char *what) {
  feint_execution ex;
  if (feint_last_execution(&ex) != FEINT_SUCCESS || ex.ran_on != FEINT_TARGET_DEVICE ||
      ex.host_fallback) {
    fprintf(stderr,
            "feint_bench: error: %s did not run on the GPU (ran on the host%s); refusing to "
            "report host numbers as GPU numbers\n",
            what, ex.host_fallback ? ", host fallback" : "");
    exit(3);
  }
}

static double *alloc_doubles(size_t n) {
  const size_t bytes = (n * sizeof(double) + 63) / 64 * 64 + 64;
  double *p = aligned_alloc(64, bytes);
  if (!p) {
    fprintf(stderr, "feint_bench: cannot allocate %zu MB\n", bytes >> 20);
    exit(2);
  }
  return p;
}

/* First-touch in parallel, with the same static schedule as the kernels, so
 * pages land near the threads that stream them. */
static void parallel_fill(double *p, size_t n, double v) {
#pragma omp parallel for schedule(static)
  for (size_t i = 0; i < n; i++) p[i] = v;
}

static double vmax(const double *v, int n) {
  double m = v[0];
  for (int i = 1; i < n; i++) m = v[i] > m ? v[i] : m;
  return m;
}

/* The machine characterisation runs interleaved with the kernels. */
typedef struct {
  double *a, *b, *c;
  size_t n;
  size_t fma_iters;
} probe;

static void probe_free(probe *p) {
  free(p->a);
  free(p->b);
  free(p->c);
}

static void probe_init(probe *p, size_t n) {
  p->n = n;
  p->a = alloc_doubles(n);
  p->b = alloc_doubles(n);
  p->c = alloc_doubles(n);
  parallel_fill(p->a, n, 0.0);
  parallel_fill(p->b, n, 1.0);
  parallel_fill(p->c, n, 2.0);
  p->fma_iters = perfmodel_fma_iters(0.02); /* >= 20 ms per probe */
}

/* --target device: the device triad (bench_common.c: its arrays and the
 * fastest launch of a sweep; same bytes convention as the host triad). */
static perfmodel_dev_triad g_dev_triad;

static double probe_triad_gbs(const probe *p) {
  if (g_device_mode)
    return feint_pm_gbs(feint_pm_triad_bytes(p->n), perfmodel_dev_triad_s(&g_dev_triad));
  const double t = feint_pm_time_triad(p->a, p->b, p->c, p->n);
  return feint_pm_gbs(feint_pm_triad_bytes(p->n), t);
}

static double probe_fma_gflops(const probe *p) {
  if (g_device_mode) return INFINITY; /* no device flop probe: memory-only bound */
  int nthreads = 1;
  const double t = feint_pm_time_fma(p->fma_iters, &nthreads);
  return feint_pm_gflops(feint_pm_fma_flops(p->fma_iters, nthreads), t);
}

/* One case's data: natural and blocked copies of geometry (general and, for
 * geo_linear prisms, affine mesh) and coefficients, outputs, and the
 * reference on the validation sample. */
typedef struct {
  feint_element el;
  feint_problem pb;
  size_t num_elem, ng, nc, na, nb;
  int num_qpts;
  double *geo[2][2]; /* [mesh: 0 general, 1 affine][layout] */
  double *coef[2];   /* [layout] */
  double *A, *b;     /* outputs (blocked size) */
  double *dgeo[2][2], *dcoef[2], *dA, *dB; /* --target device: device copies */
  size_t len_geo[2], len_coef[2], len_A, len_b;
} case_data;

#define SAMPLE_STRIDE 7

static void case_setup(case_data *cd, feint_element el, feint_problem pb, size_t min_elem) {
  memset(cd, 0, sizeof *cd);
  cd->el = el;
  cd->pb = pb;
  const double per_cell = el == FEINT_TET4 ? 6.0 : el == FEINT_PRISM6 ? 2.0 : 1.0;
  size_t n = (size_t)ceil(cbrt((double)min_elem / per_cell));
  for (;;) {
    if (feint_mesh_box_count(el, n, n, n, &cd->num_elem) != FEINT_SUCCESS) {
      fprintf(stderr, "feint_bench: --elements %zu: %s\n", min_elem, feint_last_error());
      exit(2);
    }
    if (cd->num_elem >= min_elem) break;
    n++;
  }
  feint_element_info ei;
  feint_element_get_info(el, &ei);
  cd->num_qpts = ei.num_qpts;
  feint_array_entries(el, pb, FEINT_ARRAY_GEOMETRY, &cd->ng);
  feint_array_entries(el, pb, FEINT_ARRAY_COEFFS, &cd->nc);
  feint_array_entries(el, pb, FEINT_ARRAY_A, &cd->na);
  feint_array_entries(el, pb, FEINT_ARRAY_B, &cd->nb);
  size_t len;
  for (int m = 0; m < 2; m++) {
    if (m == 1 && el == FEINT_TET4) { /* tetrahedra are affine: one mesh */
      cd->geo[1][0] = cd->geo[0][0];
      cd->geo[1][1] = cd->geo[0][1];
      continue;
    }
    for (int l = 0; l < 2; l++) {
      feint_array_len(el, pb, FEINT_ARRAY_GEOMETRY, (feint_layout)l, cd->num_elem, &len);
      cd->geo[m][l] = alloc_doubles(len);
      parallel_fill(cd->geo[m][l], len, 0.0);
      feint_mesh_box(el, n, n, n, m == 0 ? FEINT_PERTURB_GENERAL : FEINT_PERTURB_AFFINE, 0.15,
                     42 + (unsigned)m, (feint_layout)l, cd->geo[m][l]);
    }
  }
  for (int l = 0; l < 2; l++) {
    feint_array_len(el, pb, FEINT_ARRAY_COEFFS, (feint_layout)l, cd->num_elem, &len);
    cd->coef[l] = alloc_doubles(len);
    parallel_fill(cd->coef[l], len, 0.0);
  }
  /* coefficients: a fixed-seed hash of the index, in [-1, 1); material
   * coefficients (lambda, mu, kappa: admissible for the +check rows) in
   * [0.5, 1.5) */
  for (size_t i = 0; i < cd->num_elem * cd->nc; i++) {
    unsigned long long z = 0x9E3779B97F4A7C15ull * (i + 1);
    z = (z ^ (z >> 31)) * 0xBF58476D1CE4E5B9ull;
    const double u = (double)(z >> 11) * 0x1.0p-53;
    const size_t k = i % cd->nc;
    const int material = (pb == FEINT_ELASTICITY && k < 2) ||
                         (pb == FEINT_ELASTICITY_QP && k % 5 < 2) ||
                         (pb == FEINT_POISSON_KAPPA && k % 2 == 0);
    cd->coef[0][i] = material ? 0.5 + u : -1.0 + 2.0 * u;
  }
  feint_layout_convert(cd->num_elem, cd->nc, FEINT_LAYOUT_NATURAL, cd->coef[0],
                       FEINT_LAYOUT_BLOCKED, cd->coef[1]);
  feint_array_len(el, pb, FEINT_ARRAY_A, FEINT_LAYOUT_BLOCKED, cd->num_elem, &len);
  cd->A = alloc_doubles(len);
  parallel_fill(cd->A, len, 0.0);
  feint_array_len(el, pb, FEINT_ARRAY_B, FEINT_LAYOUT_BLOCKED, cd->num_elem, &len);
  cd->b = alloc_doubles(len);
  parallel_fill(cd->b, len, 0.0);
  if (!g_device_mode) return;
  /* device-resident copies, made once (not timed) */
  for (int l = 0; l < 2; l++) {
    feint_array_len(el, pb, FEINT_ARRAY_GEOMETRY, (feint_layout)l, cd->num_elem, &cd->len_geo[l]);
    feint_array_len(el, pb, FEINT_ARRAY_COEFFS, (feint_layout)l, cd->num_elem, &cd->len_coef[l]);
  }
  feint_array_len(el, pb, FEINT_ARRAY_A, FEINT_LAYOUT_BLOCKED, cd->num_elem, &cd->len_A);
  feint_array_len(el, pb, FEINT_ARRAY_B, FEINT_LAYOUT_BLOCKED, cd->num_elem, &cd->len_b);
  int ok = 1;
  for (int m = 0; m < 2; m++)
    for (int l = 0; l < 2; l++) {
      if (m == 1 && el == FEINT_TET4) {
        cd->dgeo[1][l] = cd->dgeo[0][l];
        continue;
      }
      ok &= feint_device_alloc(0, cd->len_geo[l] * 8, (void **)&cd->dgeo[m][l]) == FEINT_SUCCESS &&
            feint_device_copy_to(0, cd->dgeo[m][l], cd->geo[m][l], cd->len_geo[l] * 8) == FEINT_SUCCESS;
    }
  for (int l = 0; l < 2; l++)
    ok &= feint_device_alloc(0, cd->len_coef[l] * 8, (void **)&cd->dcoef[l]) == FEINT_SUCCESS &&
          feint_device_copy_to(0, cd->dcoef[l], cd->coef[l], cd->len_coef[l] * 8) == FEINT_SUCCESS;
  ok &= feint_device_alloc(0, cd->len_A * 8, (void **)&cd->dA) == FEINT_SUCCESS;
  ok &= feint_device_alloc(0, cd->len_b * 8, (void **)&cd->dB) == FEINT_SUCCESS;
  if (!ok) {
    fprintf(stderr, "feint_bench: device arrays: %s\n", feint_last_error());
    exit(2);
  }
}

static void case_free(case_data *cd) {
  for (int m = 0; m < 2; m++)
    for (int l = 0; l < 2; l++)
      if (m == 0 || cd->el != FEINT_TET4) free(cd->geo[m][l]);
  free(cd->coef[0]);
  free(cd->coef[1]);
  free(cd->A);
  free(cd->b);
  if (!g_device_mode) return;
  for (int m = 0; m < 2; m++)
    for (int l = 0; l < 2; l++)
      if (m == 0 || cd->el != FEINT_TET4) feint_device_free(0, cd->dgeo[m][l]);
  feint_device_free(0, cd->dcoef[0]);
  feint_device_free(0, cd->dcoef[1]);
  feint_device_free(0, cd->dA);
  feint_device_free(0, cd->dB);
}

/* Compare the sampled elements of the output with the serial reference,
 * tolerance 2 (n_terms + 16) eps S as in tests/t301_variants.c.  Returns the
 * number of mismatching entries. */
static size_t validate(const case_data *cd, int mesh, feint_layout lout) {
  const size_t B = FEINT_BLOCK_LEN, n = cd->nb, np = n * (n + 1) / 2;
  const double *geo = cd->geo[mesh][FEINT_LAYOUT_NATURAL];
  /* terms per entry and point: Poisson 3, conv-diff 16, elasticity 5 */
  const double n_terms =
      (double)cd->num_qpts * (cd->pb == FEINT_POISSON || cd->pb == FEINT_POISSON_KAPPA ? 3
                              : cd->pb == FEINT_CONVDIFF                               ? 16
                                                                                       : 5);
  size_t bad = 0;
#pragma omp parallel for schedule(static) reduction(+ : bad)
  for (size_t e = 0; e < cd->num_elem; e += SAMPLE_STRIDE) {
    enum { MAX_DOFS = 3 * FEINT_MAX_NODES };
    double A_ref[MAX_DOFS * MAX_DOFS], b_ref[MAX_DOFS];
    double A_abs[MAX_DOFS * MAX_DOFS], b_abs[MAX_DOFS];
    feint_integrate_reference(cd->el, cd->pb, 1, geo + e * cd->ng, cd->coef[0] + e * cd->nc,
                              A_ref, b_ref, A_abs, b_abs);
    const double scale = 2.0 * (n_terms + 16.0) * DBL_EPSILON;
    for (size_t k = 0; k < cd->na + cd->nb; k++) {
      const int is_a = k < cd->na;
      const size_t kk = is_a ? k : k - cd->na, size = is_a ? cd->na : cd->nb;
      const double *out = is_a ? cd->A : cd->b;
      size_t at = lout == FEINT_LAYOUT_BLOCKED ? (e / B) * B * size + kk * B + e % B
                                               : e * size + kk;
      if (lout == FEINT_LAYOUT_PACKED && is_a) { /* (i, j) at its upper-triangle place */
        const size_t i = kk / n < kk % n ? kk / n : kk % n, j = kk / n < kk % n ? kk % n : kk / n;
        at = e * np + i * n - i * (i - 1) / 2 + (j - i);
      }
      const double ref = is_a ? A_ref[kk] : b_ref[kk], s = is_a ? A_abs[kk] : b_abs[kk];
      if (!(fabs(out[at] - ref) <= scale * s)) bad++;
    }
  }
  return bad;
}

typedef struct {
  const char *variant;
  feint_layout layout;
  int reps;
  double t[MAX_REPS], gbs[MAX_REPS], gflops[MAX_REPS];
  double h2d[MAX_REPS], d2h[MAX_REPS]; /* "+xfer" rows: copy rates, GB/s */
  long long bytes, flops;
  long long bytes_in; /* "+xfer" rows: the bytes that go host -> device */
  int xfer, pass;
} result;

static FILE *csv_out;
static int any_fail;
static char platform_name[160];
static const char *device_column = "host";

/* The input layout of a row: its output layout, or natural for packed
 * output (packed is an output layout). */
static feint_layout layout_in_of(feint_layout lout) {
  return lout == FEINT_LAYOUT_PACKED ? FEINT_LAYOUT_NATURAL : lout;
}

static void report(const case_data *cd, const result *r) {
  const double ns_min = feint_pm_ns_per_elem(perfmodel_min(r->t, r->reps), (double)cd->num_elem);
  const double ns_med = feint_pm_ns_per_elem(perfmodel_median(r->t, r->reps), (double)cd->num_elem);
  const double ns_max = feint_pm_ns_per_elem(vmax(r->t, r->reps), (double)cd->num_elem);
  const double triad = perfmodel_median(r->gbs, r->reps);
  const double fma = perfmodel_median(r->gflops, r->reps);
  double bound_ns = NAN;
  feint_pm_bound bound = FEINT_PM_BOUND_MEMORY;
  const char *bound_name = NULL;
  if (r->xfer) { /* inputs over the link, the kernel at the triad, outputs back */
    const double h2d = perfmodel_median(r->h2d, r->reps), d2h = perfmodel_median(r->d2h, r->reps);
    bound_ns = (double)r->bytes_in / h2d + (double)r->bytes / triad +
               (double)(r->bytes - r->bytes_in) / d2h;
    bound_name = "link";
  } else if (!isfinite(fma)) /* --target device: no FMA probe, the bound is memory only */
    bound_ns = (double)r->bytes / triad;
  else if (feint_pm_predict(r->bytes, r->flops, triad, fma, &bound_ns, &bound) != FEINT_SUCCESS)
    bound_ns = NAN; /* a probe that failed: no bound rather than a wrong one */
  if (!bound_name) bound_name = feint_pm_bound_name(bound);
  const double gbs_at_min = (double)r->bytes / ns_min, gflops_at_min = (double)r->flops / ns_min;
  const double pct = feint_pm_pct_of_bound(bound_ns, ns_min);
  const double pct_med = feint_pm_pct_of_bound(bound_ns, ns_med);
  char case_name[32];
  snprintf(case_name, sizeof case_name, "%s-%s", feint_element_name(cd->el),
           feint_problem_name(cd->pb));
  printf("%-16s %-22s %-8s %9.2f %9.2f %8.1f %8.1f %9.2f %-8s %6.1f%% %6.1f%%  %s\n", case_name,
         r->variant, feint_layout_name(r->layout), ns_min, ns_med, gbs_at_min, gflops_at_min,
         bound_ns, bound_name, pct, pct_med, r->pass ? "PASS" : "FAIL");
  fflush(stdout);
  if (!r->pass) any_fail = 1;
  if (csv_out)
    fprintf(csv_out,
            "%s,%s,%s,%s,%s,%s,%s,%s,%zu,%d,%.4f,%.4f,%.4f,%lld,%lld,%.3f,%.3f,%.3f,%.3f,%.4f,%s,"
            "%.2f,%s\n",
            platform_name, device_column, case_name, feint_element_name(cd->el), feint_problem_name(cd->pb),
            r->variant, feint_layout_name(layout_in_of(r->layout)), feint_layout_name(r->layout),
            cd->num_elem, r->reps, ns_min, ns_med, ns_max, r->bytes, r->flops, gbs_at_min,
            gflops_at_min, triad, fma, bound_ns, bound_name, pct,
            r->pass ? "PASS" : "FAIL");
  if (csv_out) fflush(csv_out); /* a run stopped by a time limit keeps every finished row */
}

/* One row of the bench: its result, the call it times and that call's
 * arrays.  dev_out: the outputs are device arrays (copied back to validate). */
typedef struct {
  result r;
  feint_integrate_desc desc;
  const double *geo, *coef;
  double *A, *b;
  int mesh, dev_out;
  double t_first;
} row;

/* The rows of one group, timed in rounds: a warm-up call of each row (its
 * output validated at once, before the next row overwrites it; the timed
 * calls repeat the same deterministic call), then `reps` rounds, each
 * running every row once, its triad and FMA probe first.  The rows a ratio
 * compares thus run seconds apart, never minutes, so a change of load on a
 * shared machine falls on both sides of the ratio.  on_device: every call
 * must have run on the device.  Returns 0 on success; a failing call is
 * reported and marks the bench failed. */
static int time_rows(const options *o, const probe *p, const case_data *cd, row *rw, int k,
                     int on_device) {
  double first_sum = 0.0;
  for (int j = 0; j < k; j++) {
    row *w = &rw[j];
    const double t0 = perfmodel_now_s();
    const feint_status st = feint_integrate(&w->desc, cd->num_elem, w->geo, w->coef, w->A, w->b);
    w->t_first = perfmodel_now_s() - t0;
    if (st != FEINT_SUCCESS) {
      fprintf(stderr, "feint_bench: %s\n", feint_last_error());
      any_fail = 1;
      return -1;
    }
    if (on_device) require_device_run(w->r.variant);
    if (w->dev_out && (feint_device_copy_from(0, cd->A, cd->dA, cd->len_A * 8) != FEINT_SUCCESS ||
                       feint_device_copy_from(0, cd->b, cd->dB, cd->len_b * 8) != FEINT_SUCCESS)) {
      fprintf(stderr, "feint_bench: %s\n", feint_last_error());
      exit(2);
    }
    w->r.pass = validate(cd, w->mesh, w->r.layout) == 0;
    first_sum += w->t_first + 0.05;
  }
  /* the group's time budget: the rows' budgets together */
  int reps = (int)ceil(k * o->budget_s / first_sum);
  reps = reps < 3 ? 3 : reps > o->reps ? o->reps : reps;
  for (int i = 0; i < reps; i++)
    for (int j = 0; j < k; j++) {
      result *r = &rw[j].r;
      r->gbs[i] = probe_triad_gbs(p);
      r->gflops[i] = probe_fma_gflops(p);
      if (r->xfer) {
        r->h2d[i] = perfmodel_dev_copy_gbs(&g_dev_triad, 1);
        r->d2h[i] = perfmodel_dev_copy_gbs(&g_dev_triad, 0);
      }
      /* likwid counts per thread: start/stop the region in every thread */
#pragma omp parallel
      FEINT_MARKER_START(r->variant);
      const double t0 = perfmodel_now_s(); /* returns after a target region completes */
      feint_integrate(&rw[j].desc, cd->num_elem, rw[j].geo, rw[j].coef, rw[j].A, rw[j].b);
      r->t[i] = perfmodel_now_s() - t0;
#pragma omp parallel
      FEINT_MARKER_STOP(r->variant);
      if (on_device) require_device_run(r->variant);
    }
  for (int j = 0; j < k; j++) rw[j].r.reps = reps;
  return 0;
}

/* The mesh a variant integrates: the affine one for geo_linear prisms and hexes. */
static int variant_mesh(const case_data *cd, const feint_variant_info *vi) {
  return vi->geo_linear && cd->el != FEINT_TET4 ? 1 : 0;
}

/* One row on host arrays (its target: host, or device for the "+xfer"
 * rows).  checked = 0: the kernel alone (FEINT_FLAG_TRUST_GEOMETRY), as the
 * paper times it.  checked = 1: the default call, validation pass included,
 * in a row "<variant>+check" whose bytes add the pass's second read of the
 * geometry and coefficients. */
static void row_init(case_data *cd, int v, feint_layout l, int checked, feint_target target,
                     row *w) {
  memset(w, 0, sizeof *w);
  feint_variant_info vi;
  feint_variant_get_info((feint_variant)v, &vi);
  w->mesh = variant_mesh(cd, &vi);
  feint_pm_counts pc;
  feint_pm_counts_get(cd->el, cd->pb, (feint_variant)v, &pc);
  static char check_name[FEINT_VARIANT_COUNT][48];
  snprintf(check_name[v], sizeof check_name[v], "%s+check", vi.name);
  w->r.variant = checked ? check_name[v] : vi.name;
  w->r.layout = l;
  const feint_layout lin = layout_in_of(l);
  w->r.bytes_in = 8 * (long long)(pc.geometry + pc.coeffs);
  w->r.bytes = (l == FEINT_LAYOUT_PACKED ? pc.bytes_compulsory_packed : pc.bytes_compulsory) +
               (checked ? w->r.bytes_in : 0);
  w->r.flops = pc.flops;
  w->desc = (feint_integrate_desc){cd->el, cd->pb, (feint_variant)v, lin, l,
                                   checked ? 0u : FEINT_FLAG_TRUST_GEOMETRY, target, 0};
  w->geo = cd->geo[w->mesh][lin];
  w->coef = cd->coef[lin];
  w->A = cd->A;
  w->b = cd->b;
}

/* --target device: one configuration twice, kernels alone on device-resident
 * arrays and whole calls with host arrays (transfers included, "+xfer"),
 * timed in alternation. */
static void run_config_device(const options *o, const probe *p, case_data *cd, int v,
                              feint_layout l) {
  row rw[2];
  for (int xfer = 0; xfer < 2; xfer++) row_init(cd, v, l, 0, FEINT_TARGET_DEVICE, &rw[xfer]);
  static char xfer_name[FEINT_VARIANT_COUNT][48];
  snprintf(xfer_name[v], sizeof xfer_name[v], "%s+xfer", rw[1].r.variant);
  rw[1].r.variant = xfer_name[v];
  rw[1].r.xfer = 1;
  row *w = &rw[0]; /* the kernel alone: device-resident arrays */
  const feint_layout lin = layout_in_of(l);
  w->desc.flags |= FEINT_FLAG_DEVICE_POINTERS;
  w->geo = cd->dgeo[w->mesh][lin];
  w->coef = cd->dcoef[lin];
  w->A = cd->dA;
  w->b = cd->dB;
  w->dev_out = 1;
  if (time_rows(o, p, cd, rw, 2, 1)) return;
  for (int j = 0; j < 2; j++) report(cd, &rw[j].r);
}

/* A ratio of two rows timed in the same rounds: of their minima, and the
 * median over the rounds of each round's ratio. */
typedef struct {
  double min, med;
} ratio;

static ratio ratio_of(const result *num, const result *den) {
  double per_round[MAX_REPS];
  for (int i = 0; i < num->reps; i++) per_round[i] = num->t[i] / den->t[i];
  return (ratio){perfmodel_min(num->t, num->reps) / perfmodel_min(den->t, den->reps),
                 perfmodel_median(per_round, num->reps)};
}

/* The regression guards of one host case, each a ratio (ratio_of) of rows
 * timed in the same rounds: natural / blocked per variant and for the
 * default call (nat_blk[FEINT_VARIANT_COUNT]), packed /
 * natural per variant (symmetric problems), validated (the default call,
 * qss_geo_generic+check) / trusted (the kernel alone) per layout. */
typedef struct {
  ratio nat_blk[FEINT_VARIANT_COUNT + 1], packed_nat[FEINT_VARIANT_COUNT], checked[2];
  int has_packed;
} case_ratios;

static void print_ratios(const char *case_name, const case_ratios *q) {
  printf("# %s natural/blocked, of the minima (median of per-round ratios):", case_name);
  for (int v = 0; v <= FEINT_VARIANT_COUNT; v++) {
    feint_variant_info vi;
    feint_variant_get_info((feint_variant)(v < FEINT_VARIANT_COUNT ? v : FEINT_QSS_GEO_GENERIC), &vi);
    printf(" %s%s %.2f (%.2f)", vi.name, v < FEINT_VARIANT_COUNT ? "" : "+check", q->nat_blk[v].min,
           q->nat_blk[v].med);
  }
  if (q->has_packed) {
    printf("\n# %s packed/natural, of the minima (median of per-round ratios):", case_name);
    for (int v = 0; v < FEINT_VARIANT_COUNT; v++) {
      feint_variant_info vi;
      feint_variant_get_info((feint_variant)v, &vi);
      printf(" %s %.2f (%.2f)", vi.name, q->packed_nat[v].min, q->packed_nat[v].med);
    }
  }
  printf("\n# %s validated/trusted (qss_geo_generic+check / qss_geo_generic), of the minima "
         "(median of per-round ratios): natural %.2f (%.2f) blocked %.2f (%.2f)\n",
         case_name, q->checked[0].min, q->checked[0].med, q->checked[1].min, q->checked[1].med);
  fflush(stdout);
}

/* One variant of one host case: its rows (natural, blocked, packed for
 * symmetric problems; for qss_geo_generic also the default call in natural
 * and blocked layout) timed in the same rounds, reported, and their ratios
 * kept in q. */
static void run_variant(const options *o, const probe *p, case_data *cd, int v, case_ratios *q) {
  row rw[FEINT_LAYOUT_COUNT + 2];
  int k = 0, at[FEINT_LAYOUT_COUNT] = {-1, -1, -1}, at_checked[2] = {-1, -1};
  for (int l = 0; l < FEINT_LAYOUT_COUNT; l++) {
    if (l == FEINT_LAYOUT_PACKED && cd->pb == FEINT_CONVDIFF) continue; /* not symmetric */
    at[l] = k;
    row_init(cd, v, (feint_layout)l, 0, FEINT_TARGET_HOST, &rw[k++]);
  }
  if (v == FEINT_QSS_GEO_GENERIC)
    for (int l = 0; l < 2; l++) { /* natural, blocked */
      at_checked[l] = k;
      row_init(cd, v, (feint_layout)l, 1, FEINT_TARGET_HOST, &rw[k++]);
    }
  if (time_rows(o, p, cd, rw, k, 0)) return;
  for (int j = 0; j < k; j++) report(cd, &rw[j].r);
  const int N = at[FEINT_LAYOUT_NATURAL], Bl = at[FEINT_LAYOUT_BLOCKED], P = at[FEINT_LAYOUT_PACKED];
  q->nat_blk[v] = ratio_of(&rw[N].r, &rw[Bl].r);
  if (P >= 0) q->packed_nat[v] = ratio_of(&rw[P].r, &rw[N].r);
  q->has_packed = P >= 0;
  for (int l = 0; l < 2; l++)
    if (at_checked[l] >= 0) q->checked[l] = ratio_of(&rw[at_checked[l]].r, &rw[at[l]].r);
  if (at_checked[0] >= 0)
    q->nat_blk[FEINT_VARIANT_COUNT] = ratio_of(&rw[at_checked[0]].r, &rw[at_checked[1]].r);
}

/* The name of case k (element-major, as the loops): "<element>-<problem>",
 * as --case takes them. */
#define NUM_CASES (FEINT_ELEMENT_COUNT * FEINT_PROBLEM_COUNT)
static const char *case_name_of(int k) {
  static char names[NUM_CASES][40];
  snprintf(names[k], sizeof names[k], "%s-%s",
           feint_element_name((feint_element)(k / FEINT_PROBLEM_COUNT)),
           feint_problem_name((feint_problem)(k % FEINT_PROBLEM_COUNT)));
  return names[k];
}

/* 1 if `name` is one of the comma-separated entries of list. */
static int list_has(const char *list, const char *name) {
  const size_t n = strlen(name);
  for (const char *s = list; *s;) {
    const char *comma = strchr(s, ',');
    const size_t len = comma ? (size_t)(comma - s) : strlen(s);
    if (len == n && strncmp(s, name, n) == 0) return 1;
    s += len + (comma != NULL);
  }
  return 0;
}

/* Strict option values: the whole text, in range, else a message naming
 * the option and exit status 2 (no wrap-around, no float-to-int overflow). */
static unsigned long long parse_count(const char *opt, const char *text, unsigned long long lo,
                                      unsigned long long hi) {
  char *end = NULL;
  errno = 0;
  const unsigned long long v = strtoull(text, &end, 10);
  if (end == text || *end != '\0' || errno != 0 || text[strspn(text, " \t")] == '-' || v < lo ||
      v > hi) {
    fprintf(stderr, "feint_bench: %s %s: allowed a whole number %llu..%llu\n", opt, text, lo, hi);
    exit(2);
  }
  return v;
}

static double parse_seconds(const char *opt, const char *text, double lo, double hi) {
  char *end = NULL;
  errno = 0;
  const double v = strtod(text, &end);
  if (end == text || *end != '\0' || errno != 0 || !(v >= lo && v <= hi)) { /* NaN fails */
    fprintf(stderr, "feint_bench: %s %s: allowed a number of seconds %g..%g\n", opt, text, lo,
            hi);
    exit(2);
  }
  return v;
}

static void usage(void) {
  fprintf(stderr,
          "usage: feint_bench [--elements N] [--reps R] [--budget SECONDS] [--csv FILE | --no-csv]\n"
          "                   [--case tet4-poisson,hex8-convdiff,...] [--quick]\n"
          "                   [--target host|device]\n");
  exit(2);
}

/* Host: <cpu model>-<native arch>-<cores>c<OpenMP threads>t, e.g.
 * amd-epyc-znver4-2c2t.  Device: the GPU's name (nvidia-smi). */
static void platform_slug(char *out, size_t n, const perfmodel_cpu *id) {
  if (g_device_mode) { /* the GPU's name; "gpu" if nvidia-smi cannot say */
    char model[128] = "gpu";
    char line[4096] = "";
    char *argv[] = {"nvidia-smi", "--query-gpu=name", "--format=csv,noheader", NULL};
    if (perfmodel_run(argv, line, sizeof line) == 0 && line[0] != '\0' && line[0] != '\n') {
      line[strcspn(line, "\n")] = '\0'; /* the first GPU */
      snprintf(model, sizeof model, "%s", line);
    }
    perfmodel_slug(out, n, model);
    return;
  }
  perfmodel_cpu_platform(id, omp_get_max_threads(), out, n);
}

int main(int argc, char **argv) {
  options o = {4u << 20, 10, 3.0, "auto", NULL, 1u << 25, 0};
  for (int i = 1; i < argc; i++) {
    /* at most 2^32 elements per case: 150 GB of arrays for prism conv-diff */
    if (!strcmp(argv[i], "--elements") && i + 1 < argc)
      o.elements = (size_t)parse_count("--elements", argv[++i], 1, 1ull << 32);
    else if (!strcmp(argv[i], "--reps") && i + 1 < argc)
      o.reps = (int)parse_count("--reps", argv[++i], 3, MAX_REPS);
    else if (!strcmp(argv[i], "--budget") && i + 1 < argc)
      o.budget_s = parse_seconds("--budget", argv[++i], 0.0, 3600.0);
    else if (!strcmp(argv[i], "--csv") && i + 1 < argc)
      o.csv = argv[++i];
    else if (!strcmp(argv[i], "--no-csv"))
      o.csv = NULL;
    else if (!strcmp(argv[i], "--case") && i + 1 < argc) {
      o.cases = argv[++i];
      /* every entry must name a case: a typo must not measure nothing */
      for (const char *c = o.cases;;) {
        const char *comma = strchr(c, ',');
        const size_t len = comma ? (size_t)(comma - c) : strlen(c);
        int known = 0;
        const int num_cases = NUM_CASES;
        for (int k = 0; k < num_cases; k++)
          known |= strlen(case_name_of(k)) == len && strncmp(c, case_name_of(k), len) == 0;
        if (!known) {
          fprintf(stderr, "feint_bench: --case %s: \"%.*s\" is not a case (allowed, comma-separated:",
                  o.cases, (int)len, c);
          for (int k = 0; k < num_cases; k++) fprintf(stderr, "%s %s", k ? "," : "", case_name_of(k));
          fprintf(stderr, ")\n");
          return 2;
        }
        if (comma == NULL) break;
        c = comma + 1;
      }
    } else if (!strcmp(argv[i], "--target") && i + 1 < argc) {
      const char *t = argv[++i];
      if (!strcmp(t, "device"))
        o.device = 1;
      else if (strcmp(t, "host")) {
        fprintf(stderr, "feint_bench: --target %s: allowed host, device\n", t);
        usage();
      }
    } else if (!strcmp(argv[i], "--quick")) {
      o.elements = 100000;
      o.reps = 3;
      o.budget_s = 0.2;
      o.triad_n = 1u << 20;
      o.csv = NULL;
    } else {
      fprintf(stderr, "feint_bench: unknown argument '%s'%s\n", argv[i],
              i + 1 == argc ? " (or its value is missing)" : "");
      usage();
    }
  }
  if (o.reps < 3 || o.reps > MAX_REPS || o.elements == 0) usage();
  if (o.device) {
    int ndev = 0;
    feint_device_count(&ndev);
    if (!feint_offload_built() || ndev < 1) {
      fprintf(stderr,
              "feint_bench: error: --target device needs %s; refusing to run (host numbers are "
              "never labelled as GPU numbers)\n",
              !feint_offload_built() ? "an offload build (make GPU=sm_XX)"
                                     : "a GPU (omp_get_num_devices() = 0; OMP_TARGET_OFFLOAD?)");
      return 3;
    }
    g_device_mode = 1;
    device_column = "gpu";
    /* the triad must exceed the GPU's L2 cache (50 MB on H100) even with --quick */
    if (o.triad_n < (1u << 25)) o.triad_n = 1u << 25;
  }

  perfmodel_cpu cpu; /* perfmodel/bench_common.c */
  perfmodel_cpu_identify(&cpu);
  platform_slug(platform_name, sizeof platform_name, &cpu);
  char date[16], host[64] = "unknown";
  const time_t tnow = time(NULL);
  strftime(date, sizeof date, "%Y-%m-%d", gmtime(&tnow));
  gethostname(host, sizeof host);
  char csv_path[512];
  if (o.csv && !strcmp(o.csv, "auto")) {
    /* <platform>_<date>-<HHMM>_<build arch>.csv: never overwrites another
     * CPU's, another build's or an earlier run's file */
    if (perfmodel_result_path(csv_path, sizeof csv_path, "bench/results", platform_name,
                              FEINT_BUILD_ARCH) != 0) {
      fprintf(stderr, "feint_bench: cannot name a result file under bench/results\n");
      return 2;
    }
    o.csv = csv_path;
  }

  printf("# feint %s bench (git %s)\n", FEINT_VERSION_STRING, FEINT_GIT_HASH);
  printf("# platform %s, host %s, date %s, %d OpenMP threads, double precision\n", platform_name,
         host, date, omp_get_max_threads());
  printf("# build: %s (target cpu %s)\n", FEINT_BUILD_FLAGS, FEINT_BUILD_ARCH);
  if (!g_device_mode)
    printf("# cpu: %s (%s), -march=native = %s (%s), %d cores, %d logical CPUs\n", cpu.model,
           cpu.cpuid, cpu.native_arch, cpu.native_how, cpu.cores, cpu.cpus);
  printf("# >= %zu elements per case, up to %d timed reps (budget %.1f s per line), first run "
         "dropped\n",
         o.elements, o.reps, o.budget_s);
  printf("# bound = max(bytes / triad GB/s, flops / FMA GFLOP/s), both medians measured\n"
         "# interleaved with this line's reps; %% = bound / time (min and median)\n");
  probe p;
  probe_init(&p, o.triad_n);
  if (g_device_mode) {
    if (perfmodel_dev_triad_open(&g_dev_triad, 0, p.n, stdout) != 0) return 2;
    printf("# device: GPU 0 of %d (%s); kernels timed on device-resident data; \"+xfer\" rows: "
           "whole calls with host arrays; bound = bytes / device triad GB/s (memory only), for "
           "\"+xfer\" rows (\"link\") plus inputs / host-to-device and outputs / "
           "device-to-host GB/s\n",
           omp_get_num_devices(), platform_name);
  }
  printf("# triad: %zu doubles per array (%.0f MB in all); FMA: %zu iterations x %d chains x %d "
         "lanes per thread; timer resolution %.0f ns\n",
         p.n, 24.0 * (double)p.n / 1e6, p.fma_iters, FEINT_PM_FMA_CHAINS, feint_pm_fma_width(),
         1e9 * omp_get_wtick());
  printf("%-16s %-22s %-8s %9s %9s %8s %8s %9s %-8s %7s %7s  %s\n", "case", "variant", "layout",
         "ns_min", "ns_med", "GB/s", "GFLOP/s", "bound_ns", "bound", "%min", "%med", "check");

  if (o.csv) {
    csv_out = fopen(o.csv, "w");
    if (!csv_out) {
      fprintf(stderr, "feint_bench: cannot write %s\n", o.csv);
      return 2;
    }
    fprintf(csv_out, "# platform: %s\n# device: %s\n# date: %s\n# git: %s\n# compiler: %s\n",
            platform_name, device_column, date, FEINT_GIT_HASH, FEINT_BUILD_FLAGS);
    fprintf(csv_out, "# flags: %s\n# build_arch: %s\n# threads: %d\n# host: %s\n",
            FEINT_BUILD_FLAGS, FEINT_BUILD_ARCH, omp_get_max_threads(), host);
    perfmodel_cpu_header(csv_out, &cpu);
    fprintf(csv_out,
            "platform,device,case,element,problem,variant,layout_in,layout_out,num_elem,reps,"
            "ns_min,ns_median,ns_max,bytes_per_elem,flops_per_elem,gbs_at_min,gflops_at_min,"
            "triad_gbs_median,fma_gflops_median,bound_ns,bound_kind,pct_of_bound,status\n");
  }
  FEINT_MARKER_INIT;
  for (int el = 0; el < FEINT_ELEMENT_COUNT; el++)
    for (int pb = 0; pb < FEINT_PROBLEM_COUNT; pb++) {
      char name[32];
      snprintf(name, sizeof name, "%s-%s", feint_element_name((feint_element)el),
               feint_problem_name((feint_problem)pb));
      if (o.cases && !list_has(o.cases, name)) continue;
      /* memory: the big cases (hex8 elasticity: 576 + 24 doubles out per
       * element) take fewer elements, but never below 1 Mi */
      size_t per_elem = 0, min_elem = o.elements;
      for (int a = 0; a < FEINT_ARRAY_COUNT; a++) {
        size_t n = 0;
        feint_array_entries((feint_element)el, (feint_problem)pb, (feint_array)a, &n);
        per_elem += 8 * n * (a < FEINT_ARRAY_A ? 4 : 1); /* inputs: 2 meshes x 2 layouts */
      }
      if (min_elem > MEM_CAP_BYTES / per_elem)
        min_elem = MEM_CAP_BYTES / per_elem > MIN_ELEMENTS ? MEM_CAP_BYTES / per_elem : MIN_ELEMENTS;
      if (min_elem > o.elements) min_elem = o.elements; /* --quick, --elements below 1 Mi */
      case_data cd;
      case_setup(&cd, (feint_element)el, (feint_problem)pb, min_elem);
      case_ratios q = {.has_packed = 0};
      for (int v = 0; v <= FEINT_VARIANT_COUNT; v++) /* NaN: a row that failed */
        q.nat_blk[v] = (ratio){NAN, NAN};
      for (int v = 0; v < FEINT_VARIANT_COUNT; v++) q.packed_nat[v] = (ratio){NAN, NAN};
      q.checked[0] = q.checked[1] = (ratio){NAN, NAN};
      for (int v = 0; v < FEINT_VARIANT_COUNT; v++) {
        if (!g_device_mode) {
          run_variant(&o, &p, &cd, v, &q);
          continue;
        }
        for (int l = 0; l < FEINT_LAYOUT_COUNT; l++)
          if (l != FEINT_LAYOUT_PACKED || pb != FEINT_CONVDIFF) /* packed: symmetric only */
            run_config_device(&o, &p, &cd, v, (feint_layout)l);
      }
      if (!g_device_mode) print_ratios(name, &q);
      case_free(&cd);
    }
  FEINT_MARKER_CLOSE;
  if (csv_out) {
    fclose(csv_out);
    printf("# results written to %s\n", o.csv);
  }
  probe_free(&p);
  perfmodel_dev_triad_close(&g_dev_triad);
  return any_fail;
}
