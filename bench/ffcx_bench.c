/* ffcx_bench.c - feint_bench_ffcx: feint's hex8 elasticity element matrices
 * against the FFCx-generated kernel of the same form (make bench-ffcx).
 *
 * The form is bench/ffcx/elasticity_hex8.py: a(u, v) = int sigma(u) : eps(v)
 * on Q1 hexahedra with the 2x2x2 Gauss rule, as DOLFINx compiles it.  The
 * FFCx kernels come as shared objects (--ffcx LABEL=PATH, any number), each
 * the same generated C compiled with other flags; each is opened with
 * dlopen and called through its ufcx_form, as DOLFINx calls it.
 *
 * One thread, one core (the figure is per core).  N distinct
 * hexahedra (default 2^20), each a perturbed cube at its own place (every
 * node moved by up to 10% of the edge: non-affine, so both codes take their
 * general-geometry path); lambda, mu the same everywhere (FFCx gets them as
 * its two constants; feint reads them per element, with a body force it
 * also integrates into b^e, work FFCx's rows do not do).
 *
 * Rows, interleaved rep by rep (a triad and an FMA probe of one thread
 * before every rep; the bound of the feint rows uses their medians), for
 * each of the two general-geometry variants that suit hexahedra,
 * qss_geo_generic and ssq_geo_generic (the S form, physics.h):
 *  feint <variant> natural, the default (checked) call
 *  feint <variant> natural, FEINT_FLAG_TRUST_GEOMETRY
 *  feint <variant> blocked, FEINT_FLAG_TRUST_GEOMETRY (the ceiling)
 *  per FFCx object: "to memory": A^e zeroed and tabulated in place in a
 *    [N][576] array (what feint's natural rows write); "in L1": one A^e
 *    buffer reused, never written out (the kernel alone, its best case).
 * Before timing, every FFCx object and both feint variants are compared
 * with feint's serial reference on the first 4096 elements, entry by entry
 * (node order converted: basix numbers a hex's nodes lexicographically,
 * feint as Gmsh/VTK), within the tests' round-off tolerance 2 (n_terms +
 * 16) eps S (tests/variant_fixture.h; S the reference's sums of |terms| at
 * their round-off scale); the largest difference is printed, also relative
 * to max |A^e|.  A mismatch aborts the run: the rows would not measure the
 * same form.
 * Usage: feint_bench_ffcx --ffcx LABEL=SO [...] [--elems N] [--reps R]
 *        [--csv FILE|auto] */
#define _POSIX_C_SOURCE 200809L
#include <dlfcn.h>
#include <float.h>
#include <math.h>
#include <omp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <ufcx.h> /* FFCx's interface: ffcx/codegeneration/ of python3-ffcx */

#include "feint.h"
#include "feint_perfmodel.h"
#include "perfmodel_cli.h"

#define NS 8                 /* nodes of a hex */
#define NA (3 * NS * 3 * NS) /* entries of A^e: 576 */
#define MAX_REPS 32
#define MAX_FFCX 4
#define LAMBDA 1.25
#define MU 0.75

/* basix node of feint (Gmsh/VTK) node n: feint goes round the bottom face,
 * basix is lexicographic (x fastest, then y, then z). */
static const int basix_of_feint[NS] = {0, 1, 3, 2, 4, 5, 7, 6};

#define DIE(...)                                                                                   \
  do {                                                                                             \
    fprintf(stderr, __VA_ARGS__);                                                                  \
    fprintf(stderr, "\n");                                                                         \
    exit(1);                                                                                       \
  } while (0)

static double *alloc_doubles(size_t n) {
  double *p = aligned_alloc(64, (n * sizeof(double) + 63) / 64 * 64);
  if (!p)
    DIE("feint_bench_ffcx: cannot allocate %zu MB", (n * sizeof(double)) >> 20);
  memset(p, 0, n * sizeof(double)); /* first touch before timing */
  return p;
}
/* uniform in [-1, 1), from a 64-bit hash of (element, node, coordinate) */
static double jitter(uint64_t k) {
  k = (k ^ (k >> 33)) * 0xff51afd7ed558ccdULL;
  k = (k ^ (k >> 33)) * 0xc4ceb9fe1a85ec53ULL;
  k ^= k >> 33;
  return (double)(k >> 11) * 0x1p-52 - 1.0;
}

typedef struct {
  const char *label;
  ufcx_tabulate_tensor_float64 *tab;
} ffcx_kernel;

/* LABEL=PATH: the shared object's form_elasticity_hex8_a, its cell integral */
static ffcx_kernel ffcx_open(const char *arg) {
  const char *eq = strchr(arg, '=');
  if (!eq || eq == arg)
    DIE("--ffcx wants LABEL=PATH, got %s", arg);
  void *so = dlopen(eq + 1, RTLD_NOW | RTLD_LOCAL);
  if (!so)
    DIE("dlopen %s: %s", eq + 1, dlerror());
  ufcx_form **form = dlsym(so, "form_elasticity_hex8_a");
  if (!form || !*form)
    DIE("%s: no form_elasticity_hex8_a", eq + 1);
  if ((*form)->rank != 2 || (*form)->num_coefficients != 0 || (*form)->num_constants != 2 ||
      (*form)->num_integrals(cell) != 1)
    DIE("%s: not the bilinear form of bench/ffcx/elasticity_hex8.py", eq + 1);
  ffcx_kernel k = {strndup(arg, (size_t)(eq - arg)),
                   (*form)->integrals(cell)[0]->tabulate_tensor_float64};
  if (!k.tab)
    DIE("%s: no float64 kernel", eq + 1);
  return k;
}

/* One row of the table: ns per element of each rep. */
typedef struct {
  char name[64];
  double ns[MAX_REPS];
  long long bytes, flops; /* feint rows: the model's counts; FFCx rows: 0 */
} row;

/* Element e: the cube [0,1]^3 placed at its own point of a 128^3 grid of
 * period 2 (distinct elements), each node moved by up to 0.1 in each
 * direction (non-affine, det J > 0 at every point). */
static void make_geometry(size_t n, double *geo, double *geo_basix) {
  static const double node[NS][3] = {{0, 0, 0}, {1, 0, 0}, {1, 1, 0}, {0, 1, 0},
                                     {0, 0, 1}, {1, 0, 1}, {1, 1, 1}, {0, 1, 1}};
  for (size_t e = 0; e < n; e++) {
    const double base[3] = {2.0 * (double)(e % 128), 2.0 * (double)(e / 128 % 128),
                            2.0 * (double)(e / 16384)};
    for (int v = 0; v < NS; v++)
      for (int c = 0; c < 3; c++) {
        const double x =
            base[c] + node[v][c] + 0.1 * jitter(((uint64_t)e * NS + (uint64_t)v) * 3 + (uint64_t)c);
        geo[(e * NS + (size_t)v) * 3 + (size_t)c] = x;
        geo_basix[(e * NS + (size_t)basix_of_feint[v]) * 3 + (size_t)c] = x;
      }
  }
}

static double time_feint(const feint_integrate_desc *d, size_t n, const double *geo,
                         const double *coef, double *A, double *b) {
  const double t0 = perfmodel_now_s();
  if (feint_integrate(d, n, geo, coef, A, b))
    DIE("feint_integrate: %s", feint_last_error());
  return perfmodel_now_s() - t0;
}

/* FFCx as DOLFINx calls it: A^e zeroed, then tabulate_tensor adds into it.
 * in_l1: one buffer for all elements (never written out). */
static double time_ffcx(ufcx_tabulate_tensor_float64 *tab, size_t n, const double *X, double *A,
                        int in_l1, double *sink) {
  static const double c[2] = {LAMBDA, MU};
  _Alignas(64) double buf[NA];
  const double t0 = perfmodel_now_s();
  for (size_t e = 0; e < n; e++) {
    double *Ae = in_l1 ? buf : A + e * NA;
    memset(Ae, 0, sizeof buf);
    tab(Ae, NULL, c, X + e * NS * 3, NULL, NULL);
  }
  const double t = perfmodel_now_s() - t0;
  *sink += in_l1 ? buf[NA - 1] : A[(n - 1) * NA];
  return t;
}

/* The first m elements: FFCx's A^e equal to feint's serial reference to
 * round-off, in the tests' convention (tests/variant_fixture.h, t204):
 * |a - a_ref| <= 2 (n_terms + 16) eps S, n_terms = 5 N_Q = 40 and S the
 * reference's sum of |terms| at their round-off scale (A_abs). */
static void check_ffcx(const ffcx_kernel *k, size_t m, const double *X, const double *A_ref,
                       const double *S) {
  static const double c[2] = {LAMBDA, MU};
  const double n_terms = 5.0 * NS;
  double Ae[NA], worst = 0, worst_rel = 0; /* worst_rel: |a - a_ref| / max |A^e| */
  for (size_t e = 0; e < m; e++) {
    memset(Ae, 0, sizeof Ae);
    k->tab(Ae, NULL, c, X + e * NS * 3, NULL, NULL);
    double scale = 0;
    for (int i = 0; i < NA; i++)
      scale = fmax(scale, fabs(A_ref[e * NA + (size_t)i]));
    for (int r = 0; r < NS; r++)
      for (int s = 0; s < NS; s++)
        for (int i = 0; i < 3; i++)
          for (int j = 0; j < 3; j++) {
            const size_t at = e * NA + (size_t)((3 * r + i) * 3 * NS + 3 * s + j);
            const double f = Ae[(3 * basix_of_feint[r] + i) * 3 * NS + 3 * basix_of_feint[s] + j];
            const double ratio = fabs(A_ref[at] - f) / (2 * (n_terms + 16) * DBL_EPSILON * S[at]);
            if (!(ratio <= 1.0))
              DIE("FFCx %s differs from feint's reference: element %zu, entry (%d,%d): %.17g vs "
                  "%.17g (%.3g x the round-off tolerance); not the same form, nothing timed",
                  k->label, e, 3 * r + i, 3 * s + j, f, A_ref[at], ratio);
            worst = fmax(worst, ratio);
            worst_rel = fmax(worst_rel, fabs(A_ref[at] - f) / scale);
          }
  }
  printf("# check: FFCx %s = feint's serial reference on the first %zu elements, every entry "
         "within 2 (n_terms + 16) eps S (largest difference: %.3g of it; %.0f eps max|A^e|)\n",
         k->label, m, worst, worst_rel / DBL_EPSILON);
}

int main(int argc, char **argv) {
  size_t n = (size_t)1 << 20, ncheck = 4096;
  int reps = 5, nk = 0;
  const char *csv = NULL;
  ffcx_kernel kern[MAX_FFCX];
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "--ffcx") && i + 1 < argc && nk < MAX_FFCX)
      kern[nk++] = ffcx_open(argv[++i]);
    else if (!strcmp(argv[i], "--elems") && i + 1 < argc)
      n = strtoull(argv[++i], NULL, 10);
    else if (!strcmp(argv[i], "--reps") && i + 1 < argc)
      reps = atoi(argv[++i]);
    else if (!strcmp(argv[i], "--csv") && i + 1 < argc)
      csv = argv[++i];
    else
      DIE("usage: %s --ffcx LABEL=SO [--ffcx ...] (at most %d) [--elems N] [--reps R] [--csv "
          "FILE|auto]",
          argv[0], MAX_FFCX);
  }
  if (nk == 0)
    DIE("no --ffcx kernel given (make bench-ffcx builds them)");
  if (n < 1 || n > ((size_t)1 << 21))
    DIE("--elems must be in 1..2097152");
  reps = reps < 1 ? 1 : reps > MAX_REPS ? MAX_REPS : reps;
  ncheck = ncheck < n ? ncheck : n;
  omp_set_num_threads(1); /* per core: feint's threads and the probes */

  feint_element_info ei;
  feint_element_get_info(FEINT_HEX8, &ei);
  const size_t nq = (size_t)ei.num_qpts, nc = 2 + 3 * nq;
  size_t len[2][4]; /* [layout][array] */
  for (int l = 0; l < 2; l++)
    for (int a = 0; a < 4; a++)
      if (feint_array_len(FEINT_HEX8, FEINT_ELASTICITY, (feint_array)a, (feint_layout)l, n,
                          &len[l][a]))
        DIE("feint_array_len: %s", feint_last_error());
  double *geo[2] = {alloc_doubles(len[0][0]), alloc_doubles(len[1][0])};
  double *coef[2] = {alloc_doubles(len[0][1]), alloc_doubles(len[1][1])};
  double *X = alloc_doubles(n * NS * 3);
  double *A = alloc_doubles(len[1][2] > n * NA ? len[1][2] : n * NA);
  double *b = alloc_doubles(len[1][3]);
  make_geometry(n, geo[0], X);
  for (size_t e = 0; e < n; e++) {
    coef[0][e * nc] = LAMBDA, coef[0][e * nc + 1] = MU;
    for (size_t k = 2; k < nc; k++)
      coef[0][e * nc + k] = jitter(~(uint64_t)(e * nc + k));
  }
  if (feint_layout_convert(n, NS * 3, FEINT_LAYOUT_NATURAL, geo[0], FEINT_LAYOUT_BLOCKED, geo[1]) ||
      feint_layout_convert(n, nc, FEINT_LAYOUT_NATURAL, coef[0], FEINT_LAYOUT_BLOCKED, coef[1]))
    DIE("feint_layout_convert: %s", feint_last_error());

  /* the rows: 3 per feint variant, 2 per FFCx object */
  enum { NV = 2, NL = 3, NF = NV * NL };
  static const feint_variant fvar[NV] = {FEINT_QSS_GEO_GENERIC, FEINT_SSQ_GEO_GENERIC};
  static const struct {
    const char *name;
    feint_layout layout;
    unsigned flags;
  } frow[NL] = {{"natural, checked (default)", FEINT_LAYOUT_NATURAL, 0},
                {"natural, trusted", FEINT_LAYOUT_NATURAL, FEINT_FLAG_TRUST_GEOMETRY},
                {"blocked, trusted", FEINT_LAYOUT_BLOCKED, FEINT_FLAG_TRUST_GEOMETRY}};
  const int nrows = NF + 2 * nk;
  row rows[NF + 2 * MAX_FFCX];
  memset(rows, 0, sizeof rows);
  feint_pm_counts pc[NV];
  for (int v = 0; v < NV; v++)
    if (feint_pm_counts_get(FEINT_HEX8, FEINT_ELASTICITY, fvar[v], &pc[v]))
      DIE("feint_pm_counts_get: %s", feint_last_error());
  for (int r = 0; r < NF; r++) {
    const int v = r / NL, l = r % NL;
    snprintf(rows[r].name, sizeof rows[r].name, "feint %s %s", feint_pm_variant_name(fvar[v]),
             frow[l].name);
    rows[r].flops = pc[v].flops;
    rows[r].bytes =
        pc[v].bytes_compulsory + (frow[l].flags ? 0 : 8 * (pc[v].geometry + pc[v].coeffs));
  }
  for (int k = 0; k < nk; k++) {
    snprintf(rows[NF + 2 * k].name, sizeof rows[0].name, "FFCx %s, A^e to memory", kern[k].label);
    snprintf(rows[NF + 2 * k + 1].name, sizeof rows[0].name, "FFCx %s, A^e in L1", kern[k].label);
  }

  /* correctness first: every FFCx object against feint's serial reference,
   * and feint's timed variants against it too (on the same sample) */
  double *A_ref = alloc_doubles(ncheck * NA), *S = alloc_doubles(ncheck * NA);
  double *b_ref = alloc_doubles(ncheck * 3 * NS), *b_abs = alloc_doubles(ncheck * 3 * NS);
  if (feint_integrate_reference(FEINT_HEX8, FEINT_ELASTICITY, ncheck, geo[0], coef[0], A_ref, b_ref,
                                S, b_abs))
    DIE("feint_integrate_reference: %s", feint_last_error());
  for (int k = 0; k < nk; k++)
    check_ffcx(&kern[k], ncheck, X, A_ref, S);
  for (int v = 0; v < NV; v++) {
    const feint_integrate_desc d0 = {FEINT_HEX8,           FEINT_ELASTICITY, fvar[v],
                                     FEINT_LAYOUT_NATURAL, FEINT_LAYOUT_NATURAL,
                                     0,                    FEINT_TARGET_HOST, 0};
    if (feint_integrate(&d0, ncheck, geo[0], coef[0], A, b))
      DIE("feint: %s", feint_last_error());
    for (size_t i = 0; i < ncheck * NA; i++)
      if (!(fabs(A[i] - A_ref[i]) <= 2 * (5.0 * NS + 16) * DBL_EPSILON * S[i]))
        DIE("feint %s differs from its reference: element %zu entry %zu",
            feint_pm_variant_name(fvar[v]), i / NA, i % NA);
  }
  free(A_ref), free(S), free(b_ref), free(b_abs);

  perfmodel_cpu cpu;
  perfmodel_cpu_identify(&cpu);
  const size_t tn = (size_t)1 << 24; /* triad: 3 x 134 MB, far beyond the caches */
  double *ta = alloc_doubles(tn), *tb = alloc_doubles(tn), *tc = alloc_doubles(tn);
  for (size_t i = 0; i < tn; i++)
    tb[i] = 1.0, tc[i] = 2.0;
  const size_t fma_iters = perfmodel_fma_iters(0.02);
  double triad[MAX_REPS], fma[MAX_REPS], sink = 0;
  printf("# feint_bench_ffcx: hex8 elasticity, %zu distinct perturbed hexahedra, 1 thread, %d reps "
         "after a dropped warm-up, rows interleaved\n# cpu: %s, -march=native = %s, build %s\n",
         n, reps, cpu.model, cpu.native_arch, FEINT_BUILD_FLAGS);
  fflush(stdout);
  for (int rep = -1; rep < reps; rep++) { /* rep -1: warm-up, dropped */
    const double t_triad = feint_pm_time_triad(ta, tb, tc, tn);
    const double t_fma = feint_pm_time_fma(fma_iters, NULL);
    for (int r = 0; r < nrows; r++) {
      double t;
      if (r < NF) {
        const feint_layout l = frow[r % NL].layout;
        const feint_integrate_desc d = {FEINT_HEX8, FEINT_ELASTICITY,   fvar[r / NL],      l,
                                        l,          frow[r % NL].flags, FEINT_TARGET_HOST, 0};
        t = time_feint(&d, n, geo[l], coef[l], A, b);
      } else {
        t = time_ffcx(kern[(r - NF) / 2].tab, n, X, A, (r - NF) % 2, &sink);
      }
      if (rep >= 0)
        rows[r].ns[rep] = 1e9 * t / (double)n;
    }
    if (rep >= 0) {
      triad[rep] = feint_pm_gbs(feint_pm_triad_bytes(tn), t_triad);
      fma[rep] = feint_pm_gflops(feint_pm_fma_flops(fma_iters, 1), t_fma);
    }
  }
  const double triad_med = perfmodel_median(triad, reps), fma_med = perfmodel_median(fma, reps);

  char path[512] = "";
  FILE *out = csv ? perfmodel_result_open(csv, "ffcx", FEINT_GIT_HASH, FEINT_BUILD_FLAGS,
                                          FEINT_BUILD_ARCH, 1, path, sizeof path)
                  : NULL;
  if (csv && !out)
    return 2;
  printf("# probes (1 thread, median): triad %.2f GB/s, FMA %.2f GFLOP/s; feint rows: bound = "
         "max(bytes / triad, flops / FMA) with the model's counts (%lld bytes trusted natural; "
         "%s %lld flops, %s %lld)\n",
         triad_med, fma_med, pc[0].bytes_compulsory, feint_pm_variant_name(fvar[0]), pc[0].flops,
         feint_pm_variant_name(fvar[1]), pc[1].flops);
  printf("%-50s %10s %10s %9s %7s %7s %12s\n", "row", "ns_min", "ns_med", "bound_ns", "%min",
         "%med", "vs_ffcx_min");
  if (out)
    fprintf(out, "row,ns_min,ns_med,bound_ns,pct_min,pct_med,ffcx_over_row_min\n");
  double ffcx_best = INFINITY; /* the fastest FFCx "to memory" row, min */
  for (int k = 0; k < nk; k++)
    ffcx_best = fmin(ffcx_best, perfmodel_min(rows[NF + 2 * k].ns, reps));
  for (int r = 0; r < nrows; r++) {
    const double mn = perfmodel_min(rows[r].ns, reps), md = perfmodel_median(rows[r].ns, reps);
    double bound_ns = NAN;
    if (r < NF) {
      feint_pm_bound which;
      feint_pm_predict(rows[r].bytes, rows[r].flops, triad_med, fma_med, &bound_ns, &which);
    }
    const double pmin = 100 * bound_ns / mn, pmed = 100 * bound_ns / md;
    printf("%-50s %10.1f %10.1f %9.1f %6.1f%% %6.1f%% %11.2fx\n", rows[r].name, mn, md, bound_ns,
           pmin, pmed, ffcx_best / mn);
    if (out)
      fprintf(out, "\"%s\",%.2f,%.2f,%.2f,%.2f,%.2f,%.3f\n", rows[r].name, mn, md, bound_ns, pmin,
              pmed, ffcx_best / mn);
  }
  printf("# vs_ffcx_min: the fastest FFCx row that writes A^e to memory (min) over this row's min; "
         "feint also integrates b^e (the body force), FFCx does not\n");
  if (out) {
    fprintf(out, "# triad_gbs_median,%.3f\n# fma_gflops_median,%.3f\n", triad_med, fma_med);
    fclose(out);
    printf("# results: %s\n", path);
  }
  return sink == 12345.678 ? 3 : 0; /* keeps the in-L1 results alive */
}
