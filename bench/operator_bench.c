/*
 * feint_bench_operator - time one operator application y = A x
 * (feint_operator_apply, host arrays on the host: nothing moves) for P1
 * tetrahedra and Q1 hexahedra (Poisson), in every form: matrix-free
 * RECOMPUTE, PRECOMPUTED (packed A^e) and QPOINT (per-point geometric
 * factors; hex8 by sum factorisation) with both scatter strategies
 * (colouring, atomics), and ASSEMBLED (CSR SpMV), with all threads and with one, each
 * beside the lower bound of the performance model (perfmodel/operator.c:
 * compulsory bytes and flops of the form) computed from a STREAM triad and
 * a peak-FMA probe measured in the same run with the same thread count,
 * interleaved with the timed applications (one probe pair before each).
 *
 * Columns: ns/elem (min and median of the timed runs, per element of the
 * mesh), MDoF/s (dofs / min time, 1e6 per second), bound ns/elem and which
 * bound binds (memory or compute), % of bound = bound / min, GB/s = the
 * model's compulsory bytes / min time, PASS/FAIL.
 *
 * Run rules: unit-box meshes of ~4 Mi elements (regular: 6 tets per cell,
 * or 1 hex per cell) in the generator's order (vertices in lines, which the
 * hardware prefetchers follow) and renumbered along a Hilbert curve
 * (feint_mesh_renumber: what a generated mesh looks like after
 * renumbering), column "order"; no constraints, variant qss_geo_linear for tets and
 * qss_geo_generic for hexahedra (--variant overrides), kernel time only
 * (FEINT_FLAG_TRUST_GEOMETRY at create); one untimed application per row,
 * then `reps` timed ones.  Every row is validated before it is reported:
 * y against feint_csr_spmv of feint_assemble's matrix (same variant),
 * |y - y_ref| <= 2 m eps sum_e sum_s |A^e_rs x_s| per row (m products: the
 * same element entries summed in another order), PASS/FAIL per row, exit 1
 * on a FAIL.  A case the mesh paths do not integrate yet prints one line
 * saying so.
 *
 * --target device (offload build, make GPU=sm_XX): the operators are made
 * for device 0 and must run there (checked: info.target and no host
 * fallback; without a GPU the bench refuses, exit 3, and never labels host
 * numbers as device ones).  Each row twice: x and y device-resident
 * (FEINT_FLAG_DEVICE_POINTERS: nothing moves), then "+xfer" with host x and
 * y (copied in and out in the call).  The bound's bandwidth is a device
 * triad over device arrays, interleaved like the host one; no device FMA
 * probe, so the bound is memory only.  Column thr: 0.
 *
 * Usage: feint_bench_operator [--cells-tet N] [--cells-hex N] [--reps R]
 *        [--csv FILE] [--case tet4-poisson,hex8-poisson] [--threads T1,T2]
 *        [--order box,hilbert] [--target host|device]
 */
#define _POSIX_C_SOURCE 200809L
#include <float.h>
#include <math.h>
#include <omp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "feint.h"
#include "feint_perfmodel.h"
#include "perfmodel_cli.h" /* perfmodel_result_open */

/* s_i = sum_e sum_s |A^e_rs x_s|, m_i = products per row, from the
 * variant's element matrices (64 Ki elements at a time). */
static int abs_row_sums(const feint_mesh *m, const feint_integrate_desc *d, const double *coef,
                        size_t nc, const double *x, double *s, double *cnt) {
  feint_element_info ei;
  feint_element_get_info(m->element, &ei);
  const int ns = ei.num_nodes;
  const size_t chunk = 1 << 16;
  double *Ae = malloc(chunk * ns * ns * 8), *be = malloc(chunk * ns * 8);
  memset(s, 0, m->num_vertices * 8), memset(cnt, 0, m->num_vertices * 8);
  feint_integrate_desc dd = *d;
  dd.layout_in = dd.layout_out = FEINT_LAYOUT_NATURAL;
  dd.target = FEINT_TARGET_HOST, dd.flags = FEINT_FLAG_TRUST_GEOMETRY;
  int st = 0;
  for (size_t e0 = 0; e0 < m->num_elem && st == 0; e0 += chunk) {
    feint_mesh sub = *m;
    sub.num_elem = m->num_elem - e0 < chunk ? m->num_elem - e0 : chunk;
    sub.conn = m->conn + e0 * ns;
    st = feint_integrate_mesh(&dd, &sub, coef + e0 * nc, Ae, be);
    for (size_t i = 0; i < sub.num_elem && st == 0; i++)
      for (int r = 0; r < ns; r++)
        for (int c = 0; c < ns; c++) {
          s[sub.conn[i * ns + r]] += fabs(Ae[(i * ns + r) * ns + c] * x[sub.conn[i * ns + c]]);
          cnt[sub.conn[i * ns + r]] += 1;
        }
  }
  free(Ae), free(be);
  return st;
}

int main(int argc, char **argv) {
  size_t cells_tet = 88, cells_hex = 160; /* 6 * 88^3 = 4.09 M tets, 160^3 = 4.10 M hexes */
  int reps = 5, variant_arg = -1, on_device = 0;
  const char *csv = NULL, *cases = "tet4-poisson,hex8-poisson", *orders = "box,hilbert";
  int thread_list[2] = {omp_get_max_threads(), 1}, nthread_list = omp_get_max_threads() > 1 ? 2 : 1;
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "--cells-tet") && i + 1 < argc) cells_tet = (size_t)atol(argv[++i]);
    else if (!strcmp(argv[i], "--cells-hex") && i + 1 < argc) cells_hex = (size_t)atol(argv[++i]);
    else if (!strcmp(argv[i], "--reps") && i + 1 < argc) reps = atoi(argv[++i]);
    else if (!strcmp(argv[i], "--variant") && i + 1 < argc) variant_arg = atoi(argv[++i]);
    else if (!strcmp(argv[i], "--csv") && i + 1 < argc) csv = argv[++i];
    else if (!strcmp(argv[i], "--case") && i + 1 < argc) cases = argv[++i];
    else if (!strcmp(argv[i], "--order") && i + 1 < argc) orders = argv[++i];
    else if (!strcmp(argv[i], "--target") && i + 1 < argc && !strcmp(argv[i + 1], "device"))
      on_device = 1, i++;
    else if (!strcmp(argv[i], "--target") && i + 1 < argc && !strcmp(argv[i + 1], "host")) i++;
    else if (!strcmp(argv[i], "--threads") && i + 1 < argc) {
      nthread_list = sscanf(argv[++i], "%d,%d", &thread_list[0], &thread_list[1]);
      if (nthread_list < 1) nthread_list = 1;
    } else {
      fprintf(stderr,
              "usage: %s [--cells-tet N] [--cells-hex N] [--reps R] [--variant V] [--csv FILE] "
              "[--case list] [--threads T1,T2] [--order box,hilbert] [--target host|device]\n",
              argv[0]);
      return 2;
    }
  }
  if (reps < 1) reps = 1;
  if (on_device) {
    int ndev = 0;
    feint_device_count(&ndev);
    if (!feint_offload_built() || ndev < 1) {
      fprintf(stderr, "feint_bench_operator: --target device needs %s; refusing to run\n",
              !feint_offload_built() ? "an offload build (make GPU=sm_XX)" : "a GPU");
      return 3;
    }
    thread_list[0] = omp_get_max_threads(), nthread_list = 1; /* host threads: set-up only */
  }
  /* "--csv auto" (make bench): bench/results/operator/<platform>_<date>-<HHMM>_<arch>.csv,
   * headed by the CPU, build and threads (perfmodel/bench_common.c) */
  char csv_path[512];
  FILE *out = csv ? perfmodel_result_open(csv, "operator", FEINT_GIT_HASH, FEINT_BUILD_FLAGS,
                                          FEINT_BUILD_ARCH, omp_get_max_threads(), csv_path,
                                          sizeof csv_path)
                  : NULL;
  if (csv && !out) return 2;
  if (out)
    fprintf(out, "case,order,form,strategy,variant,threads,num_elem,num_dofs,nnz,reps,min_ns,"
                 "median_ns,mdofs,bytes_per_elem,flops_per_elem,triad_gbs,fma_gflops,bound_ns,bound,"
                 "pct_of_bound,status\n");
  printf("feint_bench_operator: feint %s, %d threads max, y = A x %s, kernel time "
         "(trusted geometry)\n",
         FEINT_VERSION_STRING, omp_get_max_threads(),
         on_device ? "on device 0 (device-resident x, y; +xfer: host x, y)" : "with host arrays");
  printf("%-13s %-7s %-11s %-9s %3s %9s %9s %9s %8s %9s %8s %7s %6s %s\n", "case", "order",
         "form", "strategy",
         "thr", "elements", "min ns/e", "med ns/e", "MDoF/s", "bound ns", "binds", "%bound",
         "GB/s", "status");
  const size_t tn = (size_t)1 << 24; /* triad over 3 x 2^24 doubles (384 MiB) */
  double *ta = aligned_alloc(64, tn * 8), *tb = aligned_alloc(64, tn * 8), *tc = aligned_alloc(64, tn * 8);
#pragma omp parallel for schedule(static)
  for (size_t i = 0; i < tn; i++) ta[i] = 0, tb[i] = 1, tc[i] = 2;
  perfmodel_dev_triad dt = {0}; /* --target device: the device triad (bench_common.c) */
  if (on_device && perfmodel_dev_triad_open(&dt, 0, tn, stdout) != 0) return 2;
  const size_t fma_iters = perfmodel_fma_iters(0.02); /* >= 20 ms per probe (perfmodel/bench_common.c) */
  int any_fail = 0;
  static const feint_element els[2] = {FEINT_TET4, FEINT_HEX8};
  for (int k = 0; k < 4; k++) {
    const feint_element el = els[k / 2];
    const int hilbert = k % 2;
    const char *order = hilbert ? "hilbert" : "box";
    const feint_problem pb = FEINT_POISSON;
    char name[64];
    snprintf(name, sizeof name, "%s-poisson", feint_element_name(el));
    if (!strstr(cases, name) || !strstr(orders, order)) continue;
    const feint_variant var = variant_arg >= 0 ? (feint_variant)variant_arg
                              : el == FEINT_TET4 ? FEINT_QSS_GEO_LINEAR
                                                 : FEINT_QSS_GEO_GENERIC;
    omp_set_num_threads(thread_list[0]);
    feint_mesh m;
    const size_t cells = el == FEINT_TET4 ? cells_tet : cells_hex;
    if (feint_mesh_box_create(el, cells, cells, cells, FEINT_PERTURB_NONE, 0.0, 1, &m) ||
        (hilbert &&
         feint_mesh_renumber(&m, FEINT_RENUMBER_VERTICES | FEINT_RENUMBER_ELEMENTS, NULL, NULL))) {
      fprintf(stderr, "mesh: %s\n", feint_last_error());
      return 1;
    }
    size_t nc;
    feint_array_entries(el, pb, FEINT_ARRAY_COEFFS, &nc);
    double *coef = malloc(m.num_elem * nc * 8);
#pragma omp parallel for schedule(static)
    for (size_t i = 0; i < m.num_elem * nc; i++) coef[i] = 1.0;
    const feint_integrate_desc d = {el, pb, var, 0, 0, FEINT_FLAG_TRUST_GEOMETRY,
                                    on_device ? FEINT_TARGET_DEVICE : FEINT_TARGET_HOST, 0};
    const size_t n = m.num_vertices;
    double *x = malloc(n * 8), *y = malloc(n * 8), *yref = malloc(n * 8);
    double *s = malloc(n * 8), *cnt = malloc(n * 8);
    for (size_t i = 0; i < n; i++) x[i] = sin(0.001 * (double)i) + 0.5;
    /* the reference: SpMV of the assembled matrix */
    feint_csr A;
    feint_assembly *plan;
    int st = feint_csr_create(&m, 1, &A);
    if (!st) st = feint_assembly_create(&m, &plan);
    feint_integrate_desc dh = d;
    dh.target = FEINT_TARGET_HOST; /* the reference is the host's */
    if (!st) st = feint_assemble(&dh, FEINT_ASSEMBLE_COLOURING, &m, plan, coef, &A, y);
    if (!st) st = feint_csr_spmv(&A, x, yref, FEINT_TARGET_HOST, 0, 0);
    if (!st) st = abs_row_sums(&m, &dh, coef, nc, x, s, cnt);
    double *dx = NULL, *dy = NULL; /* --target device: x and y on the device */
    if (!st && on_device && (feint_device_alloc(0, n * 8, (void **)&dx) ||
                             feint_device_alloc(0, n * 8, (void **)&dy) ||
                             feint_device_copy_to(0, dx, x, n * 8)))
      st = FEINT_ERR_DEVICE;
    if (st) {
      printf("%-13s %-7s not measured: %s\n", name, order, feint_last_error());
      feint_csr_destroy(&A);
      free(coef), free(x), free(y), free(yref), free(s), free(cnt);
      feint_mesh_destroy(&m);
      continue;
    }
    feint_assembly_destroy(plan);
    for (int form = 0; form < FEINT_OPERATOR_FORM_COUNT; form++)
      for (int strat = 0; strat < (form == FEINT_OPERATOR_ASSEMBLED ? 1 : FEINT_ASSEMBLE_COUNT);
           strat++) {
        omp_set_num_threads(thread_list[0]);
        feint_operator *op = NULL;
        if (feint_operator_create(&d, (feint_operator_form)form, (feint_assemble_strategy)strat,
                                  &m, coef, 0, NULL, &op)) {
          printf("%-13s %-7s %d not measured: %s\n", name, order, form, feint_last_error());
          any_fail = 1;
          continue;
        }
        static const char *form_names[FEINT_OPERATOR_FORM_COUNT] = {"recompute", "precomputed",
                                                                    "assembled", "qpoint"};
        /* QPOINT sums other terms than A^e_rs x_s (gradient -> factor ->
         * test, operator/qpoint.h): t802 checks its derived bound on
         * perturbed meshes; here the envelope 2 (m + 40) eps 8 s_i (the
         * chain's absolute terms on these unperturbed cubes and 6-tet
         * cubes are at most 8 x the |A^e_rs x_s| of a row) */
        const int qp = form == FEINT_OPERATOR_QPOINT;
        feint_operator_info oi;
        feint_operator_get_info(op, &oi);
        if (on_device && (oi.target != FEINT_TARGET_DEVICE || oi.host_fallback)) {
          printf("%-13s %-7s %s FAIL: the operator did not go to the device\n", name, order,
                 form_names[form]);
          any_fail = 1;
          feint_operator_destroy(op);
          continue;
        }
        /* host: one row per thread count; device: device-resident x, y, then +xfer */
        for (int ti = 0; ti < (on_device ? 2 : nthread_list); ti++) {
          const int xfer = on_device && ti == 1;
          const double *xa = on_device && !xfer ? dx : x;
          double *ya = on_device && !xfer ? dy : y;
          const unsigned aflags = on_device && !xfer ? FEINT_FLAG_DEVICE_POINTERS : 0;
          omp_set_num_threads(thread_list[on_device ? 0 : ti]);
          feint_pm_operator_counts pc;
          feint_pm_operator_counts_get(el, pb, var, (feint_operator_form)form,
                                       (feint_assemble_strategy)strat, m.num_elem, n, A.nnz, &pc);
          double *t = malloc(reps * 8), *bw = malloc(reps * 8), *fl = malloc(reps * 8);
          int status = feint_operator_apply(op, xa, ya, aflags);
          for (int r = 0; r < reps && status == 0; r++) {
            if (on_device) {
              bw[r] = feint_pm_gbs(feint_pm_triad_bytes(tn), perfmodel_dev_triad_s(&dt));
              fl[r] = INFINITY; /* no device FMA probe: memory-only bound */
            } else {
              bw[r] = feint_pm_gbs(feint_pm_triad_bytes(tn), feint_pm_time_triad(ta, tb, tc, tn));
              int nthr = 1;
              const double tf = feint_pm_time_fma(fma_iters, &nthr);
              fl[r] = feint_pm_gflops(feint_pm_fma_flops(fma_iters, nthr), tf);
            }
            const double t0 = omp_get_wtime();
            status = feint_operator_apply(op, xa, ya, aflags);
            t[r] = omp_get_wtime() - t0;
          }
          if (status == 0 && aflags && feint_device_copy_from(0, y, dy, n * 8)) status = FEINT_ERR_DEVICE;
          size_t bad = 0;
          for (size_t i = 0; i < n; i++)
            bad += !(fabs(y[i] - yref[i]) <=
                     (qp ? 2 * (cnt[i] + 40) * DBL_EPSILON * 8 * s[i] : 2 * cnt[i] * DBL_EPSILON * s[i]));
          const int pass = status == 0 && bad == 0;
          any_fail |= !pass;
          const double s_min = perfmodel_min(t, reps), s_med = perfmodel_median(t, reps);
          const double bw_med = perfmodel_median(bw, reps), fl_med = perfmodel_median(fl, reps);
          const double ne = (double)m.num_elem;
          const double tmin = s_min / ne * 1e9, tmed = s_med / ne * 1e9;
          double bound_ns = 0;
          feint_pm_bound which = FEINT_PM_BOUND_MEMORY;
          /* the bench meshes are unperturbed: every hex8 cell is affine, and
           * QPOINT stores one G per cell there */
          pc.bytes_compulsory -= pc.bytes_affine_saving;
          if (!isfinite(fl_med)) /* --target device: memory-only bound */
            bound_ns = (double)pc.bytes_compulsory / bw_med;
          else if (feint_pm_predict(pc.bytes_compulsory, pc.flops, bw_med, fl_med, &bound_ns,
                                    &which) != FEINT_SUCCESS)
            bound_ns = NAN;
          bound_ns /= ne;
          const double pct = feint_pm_pct_of_bound(bound_ns, tmin);
          const double gbs = (double)pc.bytes_compulsory / (s_min * 1e9);
          const double mdofs = (double)n / s_min * 1e-6;
          char sname[24];
          snprintf(sname, sizeof sname, "%s%s",
                   form == FEINT_OPERATOR_ASSEMBLED ? "-" : strat ? "atomics" : "colouring",
                   xfer ? "+xfer" : "");
          const int thr_shown = on_device ? 0 : thread_list[ti];
          printf("%-13s %-7s %-11s %-9s %3d %9zu %9.2f %9.2f %8.1f %9.2f %8s %6.1f%% %6.1f %s\n",
                 name, order, form_names[form], sname, thr_shown, m.num_elem, tmin, tmed, mdofs,
                 bound_ns, feint_pm_bound_name(which), pct, gbs, pass ? "PASS" : "FAIL");
          if (!pass)
            printf("  FAIL: status %d (%s), %zu entries off the reference\n", status,
                   feint_last_error(), bad);
          if (out)
            fprintf(out,
                    "%s,%s,%s,%s,%d,%d,%zu,%zu,%zu,%d,%.4f,%.4f,%.2f,%.2f,%.2f,%.2f,%.2f,%.4f,%s,"
                    "%.2f,%s\n",
                    name, order, form_names[form], sname, (int)var, thr_shown, m.num_elem, n, A.nnz,
                    reps, tmin, tmed, mdofs, (double)pc.bytes_compulsory / ne,
                    (double)pc.flops / ne, bw_med, fl_med, bound_ns,
                    feint_pm_bound_name(which), pct, pass ? "PASS" : "FAIL");
          fflush(stdout);
          if (out) fflush(out); /* a run stopped by a time limit keeps every finished row */
          free(t), free(bw), free(fl);
        }
        feint_operator_destroy(op);
      }
    feint_csr_destroy(&A);
    if (dx) feint_device_free(0, dx);
    if (dy) feint_device_free(0, dy);
    free(coef), free(x), free(y), free(yref), free(s), free(cnt);
    feint_mesh_destroy(&m);
  }
  if (out) {
    fclose(out);
    printf("# results written to %s\n", csv_path);
  }
  perfmodel_dev_triad_close(&dt);
  free(ta), free(tb), free(tc);
  return any_fail;
}
