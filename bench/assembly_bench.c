/*
 * feint_bench_assembly - time the fused gather + integrate + assemble of a
 * problem's CSR matrix and load vector on a mesh (feint_assemble), for tet4
 * and prism6 x Poisson and conv-diff (hex8 and elasticity on request, with
 * --case), both strategies (colouring, atomics), with all threads and with
 * one, on a mesh in several orders (order_tab below): the box mesh in
 * generator order (or a Gmsh mesh read from --mesh, in the file's order,
 * "gmsh"), renumbered along a Hilbert curve (feint_mesh_renumber: vertices
 * and elements, or "hilbert-elements", the elements alone), numbered at
 * random ("random": vertices and elements shuffled with a fixed seed, the
 * order of a mesh nobody ordered) and that renumbered ("random-hilbert"),
 * with positions found by search in the CSR
 * rows (feint_assemble) and read from a feint_assembly_map
 * (feint_assemble_mapped; 1-byte offsets on these meshes, the model counts
 * the width the map reports), beside the lower bound of the
 * performance model (perfmodel/assembly.c: compulsory bytes of connectivity,
 * coordinates once per vertex, coefficients, colour order (colouring) or block
 * reach (atomics), position map or CSR columns, row offsets, values and vector
 * read and written) computed from a STREAM triad and a
 * peak-FMA probe measured in the same run, with the same thread count,
 * interleaved with the assembly runs (one probe pair before each timed run).
 *
 * Run rules: unit-box meshes of >= 4 Mi elements (6 tets, 2 prisms or 1 hex
 * per cell, regular), variant qss_geo_linear (the meshes are affine), kernel
 * time (FEINT_FLAG_TRUST_GEOMETRY: the element checks are skipped) and,
 * right after it in every rep, the default call (checked: what a user
 * gets; the plan has kept the geometry's findings, so it reads the
 * coefficients and fingerprints conn and coords); one untimed warm-up of
 * each per row, then `reps` timed runs: min and median reported, % of
 * bound = bound / min of the trusted call, checked/trusted = the ratio of
 * the minima; also the CPU time of the process per
 * element and thread (min; the honest figure on a loaded machine).  Every row is validated before it is
 * reported: the assembled values and vector against a serial scatter, here,
 * of feint_integrate_mesh's per-element A^e and b^e, entry by entry with
 * |x - x_ref| <= 64 eps sum |contributions|; PASS/FAIL per row, exit 1 on a
 * FAIL.  Meshes: feint_mesh_box_create (regular, shared vertices).  A case
 * whose arrays would not fit in memory (hex8 elasticity at the default size
 * needs ~28 GB) is skipped with a line naming a --cells that fits.
 *
 * Usage: feint_bench_assembly [--cells N] [--reps R] [--csv FILE]
 *        [--case tet4-poisson,...] [--threads T1,T2]
 *        [--order box,hilbert,hilbert-elements,random,random-hilbert] [--pos search,map]
 *        [--mesh FILE.msh]
 * --order takes exact names, comma-separated ("gmsh" and "box" both name the
 * order the mesh was made in); the default is box,hilbert,random.
 */
#define _POSIX_C_SOURCE 200809L
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h> /* sysconf: the memory check */

#include <float.h>
#include <math.h>
#include <stdint.h>
#include "feint.h"
#include "feint_perfmodel.h"
#include "perfmodel_cli.h" /* perfmodel_result_open */

/* Serial reference: per-element matrices of chunks of the mesh, scattered
 * here with a binary search per entry (dof N_C v + c); ref and abs sums. */
static void reference(const feint_mesh *m, feint_problem pb, const double *coef, size_t nc,
                      const feint_csr *A, double *ref_v, double *abs_v, double *ref_b,
                      double *abs_b) {
  feint_element_info ei;
  feint_element_get_info(m->element, &ei);
  const int ns = ei.num_nodes, dpv = A->dofs_per_vertex, nd = dpv * ns;
  const size_t chunk = 1 << 14;
  double *Ae = malloc(chunk * nd * nd * sizeof(double)), *be = malloc(chunk * nd * sizeof(double));
  memset(ref_v, 0, A->nnz * 8), memset(abs_v, 0, A->nnz * 8);
  memset(ref_b, 0, A->num_rows * 8), memset(abs_b, 0, A->num_rows * 8);
  feint_integrate_desc d = {m->element, pb, FEINT_QSS_GEO_LINEAR, 0, 0, FEINT_FLAG_TRUST_GEOMETRY, 0, 0};
  for (size_t e0 = 0; e0 < m->num_elem; e0 += chunk) {
    feint_mesh sub = *m;
    sub.num_elem = m->num_elem - e0 < chunk ? m->num_elem - e0 : chunk;
    sub.conn = m->conn + e0 * ns;
    feint_integrate_mesh(&d, &sub, coef + e0 * nc, Ae, be);
    for (size_t i = 0; i < sub.num_elem; i++)
      for (int r = 0; r < nd; r++) {
        const uint32_t row = dpv * sub.conn[i * ns + r / dpv] + r % dpv;
        for (int s = 0; s < nd; s++) {
          int64_t lo = A->row_ptr[row], hi = A->row_ptr[row + 1] - 1;
          const int32_t col = (int32_t)(dpv * sub.conn[i * ns + s / dpv] + s % dpv);
          while (lo < hi) {
            const int64_t mid = (lo + hi) / 2;
            if (A->col_idx[mid] < col) lo = mid + 1; else hi = mid;
          }
          ref_v[lo] += Ae[(i * nd + r) * nd + s];
          abs_v[lo] += fabs(Ae[(i * nd + r) * nd + s]);
        }
        ref_b[row] += be[i * nd + r];
        abs_b[row] += fabs(be[i * nd + r]);
      }
  }
  free(Ae), free(be);
}

/* The orders a mesh is measured in: as made (the generator's, or the
 * file's: "box" or "gmsh"), then renumbered by feint_mesh_renumber (vertices
 * and elements, or the elements alone, which leaves vertex data where it
 * is), or shuffled first. */
static const struct {
  const char *name;
  int shuffle;
  unsigned renumber;
} order_tab[] = {{"box", 0, 0},
                 {"hilbert", 0, FEINT_RENUMBER_VERTICES | FEINT_RENUMBER_ELEMENTS},
                 {"hilbert-elements", 0, FEINT_RENUMBER_ELEMENTS},
                 {"random", 1, 0},
                 {"random-hilbert", 1, FEINT_RENUMBER_VERTICES | FEINT_RENUMBER_ELEMENTS}};
#define NUM_ORDERS ((int)(sizeof order_tab / sizeof order_tab[0]))

/* 1 if `name` is one of the comma-separated names of `list` (exactly). */
static int in_list(const char *list, const char *name) {
  const size_t n = strlen(name);
  for (const char *p = list; p != NULL; p = strchr(p, ',') ? strchr(p, ',') + 1 : NULL)
    if (!strncmp(p, name, n) && (p[n] == ',' || p[n] == '\0')) return 1;
  return 0;
}

/* Number m's vertices and elements at random (Fisher-Yates, xorshift64*
 * with a fixed seed, so every run measures the same mesh): elements keep
 * their vertices and node order, faces follow the vertices.  0, or 1 on a
 * failed allocation (m unchanged). */
static int shuffle_mesh(feint_mesh *m) {
  feint_element_info ei;
  feint_element_get_info(m->element, &ei);
  const size_t nv = m->num_vertices, ne = m->num_elem, ns = (size_t)ei.num_nodes;
  uint32_t *vnew = malloc(nv * sizeof *vnew), *conn = malloc(ne * ns * sizeof *conn);
  size_t *eold = malloc(ne * sizeof *eold);
  double *xyz = malloc(nv * 3 * sizeof *xyz);
  int32_t *tags = m->elem_tags != NULL ? malloc(ne * sizeof *tags) : NULL;
  if (!vnew || !eold || !xyz || !conn || (m->elem_tags != NULL && !tags)) {
    free(vnew), free(eold), free(xyz), free(conn), free(tags);
    return 1;
  }
  uint64_t r = 0x9e3779b97f4a7c15ull; /* xorshift64*, any nonzero seed */
#define NEXT_RAND() (r ^= r >> 12, r ^= r << 25, r ^= r >> 27, r * 0x2545f4914f6cdd1dull)
  for (size_t v = 0; v < nv; v++) vnew[v] = (uint32_t)v;
  for (size_t v = nv; v > 1; v--) { /* vnew: new index of old vertex */
    const size_t j = (size_t)(NEXT_RAND() % v);
    const uint32_t t = vnew[v - 1];
    vnew[v - 1] = vnew[j], vnew[j] = t;
  }
  for (size_t e = 0; e < ne; e++) eold[e] = e;
  for (size_t e = ne; e > 1; e--) { /* eold: old index of new element */
    const size_t j = (size_t)(NEXT_RAND() % e), t = eold[e - 1];
    eold[e - 1] = eold[j], eold[j] = t;
  }
#undef NEXT_RAND
  for (size_t v = 0; v < nv; v++)
    for (int a = 0; a < 3; a++) xyz[3 * (size_t)vnew[v] + a] = m->coords[3 * v + a];
  for (size_t e = 0; e < ne; e++) {
    for (size_t k = 0; k < ns; k++) conn[e * ns + k] = vnew[m->conn[eold[e] * ns + k]];
    if (tags != NULL) tags[e] = m->elem_tags[eold[e]];
  }
  memcpy(m->coords, xyz, nv * 3 * sizeof *xyz);
  memcpy(m->conn, conn, ne * ns * sizeof *conn);
  if (tags != NULL) memcpy(m->elem_tags, tags, ne * sizeof *tags);
  for (size_t f = 0; f < m->num_faces * 4; f++)
    if (m->faces[f] != FEINT_NO_VERTEX) m->faces[f] = vnew[m->faces[f]];
  free(vnew), free(eold), free(xyz), free(conn), free(tags);
  return 0;
}

int main(int argc, char **argv) {
  /* 6 * 88^3 = 4.09 M tets, 2 * 127^3 = 4.10 M prisms, 160^3 = 4.10 M hexes */
  size_t cells_el[FEINT_ELEMENT_COUNT] = {88, 127, 160};
  const char *orders = "box,hilbert,random", *positions = "search,map", *mesh_file = NULL;
  int reps = 5;
  const char *csv = NULL, *cases = "tet4-poisson,tet4-convdiff,prism6-poisson,prism6-convdiff";
  int thread_list[2] = {omp_get_max_threads(), 1}, nthread_list = omp_get_max_threads() > 1 ? 2 : 1;
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "--cells") && i + 1 < argc)
      cells_el[0] = cells_el[1] = cells_el[2] = (size_t)atol(argv[++i]);
    else if (!strcmp(argv[i], "--order") && i + 1 < argc) orders = argv[++i];
    else if (!strcmp(argv[i], "--pos") && i + 1 < argc) positions = argv[++i];
    else if (!strcmp(argv[i], "--mesh") && i + 1 < argc) mesh_file = argv[++i];
    else if (!strcmp(argv[i], "--reps") && i + 1 < argc) reps = atoi(argv[++i]);
    else if (!strcmp(argv[i], "--csv") && i + 1 < argc) csv = argv[++i];
    else if (!strcmp(argv[i], "--case") && i + 1 < argc) cases = argv[++i];
    else if (!strcmp(argv[i], "--threads") && i + 1 < argc) {
      nthread_list = sscanf(argv[++i], "%d,%d", &thread_list[0], &thread_list[1]);
      if (nthread_list < 1) nthread_list = 1;
    } else {
      fprintf(stderr, "usage: %s [--cells N] [--reps R] [--csv FILE] [--case list] "
                      "[--threads T1,T2] "
                      "[--order box,hilbert,hilbert-elements,random,random-hilbert] "
                      "[--pos search,map] [--mesh FILE.msh]\n", argv[0]);
      return 2;
    }
  }
  if (reps < 1) reps = 1;
  /* "--csv auto" (make bench): bench/results/assembly/<platform>_<date>-<HHMM>_<arch>.csv,
   * headed by the CPU, build and threads (perfmodel/bench_common.c) */
  char csv_path[512];
  FILE *out = csv ? perfmodel_result_open(csv, "assembly", FEINT_GIT_HASH, FEINT_BUILD_FLAGS,
                                          FEINT_BUILD_ARCH, omp_get_max_threads(), csv_path,
                                          sizeof csv_path)
                  : NULL;
  if (csv && !out) return 2;
  if (out)
    fprintf(out, "case,order,strategy,positions,threads,num_elem,num_vertices,nnz,colours,reps,min_ns,median_ns,cpu_ns,"
                 "bytes_per_elem,flops_per_elem,triad_gbs,fma_gflops,bound_ns,bound,pct_of_bound,status,"
                 "checked_min_ns,checked_median_ns\n");
  printf("feint_bench_assembly: feint %s, %d threads max, variant qss_geo_linear, kernel time "
         "(trusted geometry) and the default (checked) call\n", FEINT_VERSION_STRING,
         omp_get_max_threads());
  printf("%-16s %-16s %-9s %-6s %3s %10s %9s %9s %9s %9s %8s %7s %6s %9s %6s %s\n", "case",
         "order", "strategy", "pos", "thr", "elements", "min ns/e", "med ns/e", "cpu ns/e",
         "bound ns", "binds", "%bound", "GB/s", "chk ns/e", "chk/tr", "status");
  /* probes: triad over 3 x 2^24 doubles (384 MiB), FMA for ~20 ms */
  const size_t tn = (size_t)1 << 24;
  double *ta = aligned_alloc(64, tn * 8), *tb = aligned_alloc(64, tn * 8), *tc = aligned_alloc(64, tn * 8);
#pragma omp parallel for schedule(static)
  for (size_t i = 0; i < tn; i++) ta[i] = 0, tb[i] = 1, tc[i] = 2;
  /* a --mesh is read once here for its element type (the other element
   * types' cases are skipped without reading it), then once per order */
  int mesh_el = -1;
  if (mesh_file != NULL) {
    feint_mesh f;
    if (feint_mesh_read_msh(mesh_file, &f)) {
      fprintf(stderr, "mesh: %s\n", feint_last_error());
      return 1;
    }
    mesh_el = (int)f.element;
    feint_mesh_destroy(&f);
  }
  const size_t fma_iters = perfmodel_fma_iters(0.02); /* >= 20 ms per probe (perfmodel/bench_common.c) */
  int any_fail = 0;
  for (int el = 0; el < FEINT_ELEMENT_COUNT; el++)
    for (int pb = 0; pb < FEINT_PROBLEM_COUNT; pb++)
      for (int oi = 0; oi < NUM_ORDERS; oi++) {
      char name[64];
      snprintf(name, sizeof name, "%s-%s", feint_element_name((feint_element)el),
               feint_problem_name((feint_problem)pb));
      const char *order = oi == 0 ? (mesh_file != NULL ? "gmsh" : "box") : order_tab[oi].name;
      const int wanted = oi == 0 ? in_list(orders, "box") || in_list(orders, "gmsh")
                                 : in_list(orders, order);
      if (!strstr(cases, name) || !wanted || (mesh_file != NULL && el != mesh_el)) continue;
      omp_set_num_threads(thread_list[0]);
      feint_mesh m;
      const size_t cells = cells_el[el];
      if (mesh_file != NULL ? feint_mesh_read_msh(mesh_file, &m)
                            : feint_mesh_box_create((feint_element)el, cells, cells, cells,
                                                    FEINT_PERTURB_NONE, 0.0, 1, &m)) {
        fprintf(stderr, "mesh: %s\n", feint_last_error());
        return 1;
      }
      if (order_tab[oi].shuffle && shuffle_mesh(&m)) {
        fprintf(stderr, "mesh: out of memory\n");
        return 1;
      }
      if (order_tab[oi].renumber && feint_mesh_renumber(&m, order_tab[oi].renumber, NULL, NULL)) {
        fprintf(stderr, "mesh: %s\n", feint_last_error());
        return 1;
      }
      const int dpv = pb == FEINT_ELASTICITY ? 3 : 1;
      size_t nc;
      feint_array_entries((feint_element)el, (feint_problem)pb, FEINT_ARRAY_COEFFS, &nc);
      double *coef = malloc(m.num_elem * nc * 8);
#pragma omp parallel for schedule(static)
      for (size_t i = 0; i < m.num_elem * nc; i++) coef[i] = 0.5 + 1e-3 * (double)(i % 1000);
      if (pb == FEINT_ELASTICITY) /* lambda, mu: admissible whatever the pattern above */
        for (size_t e = 0; e < m.num_elem; e++) coef[e * nc] = 1.0, coef[e * nc + 1] = 0.5;
      feint_csr A;
      feint_assembly *plan;
      feint_assembly_map *map = NULL;
      if (feint_csr_create(&m, dpv, &A) || feint_assembly_create(&m, &plan) ||
          (strstr(positions, "map") && feint_assembly_map_create(&m, &A, &map))) {
        fprintf(stderr, "setup failed: %s\n", feint_last_error());
        return 1;
      }
      size_t ncol, map_bytes = 0;
      feint_assembly_chunks(plan, NULL, &ncol, NULL, NULL); /* the host's colours */
      if (map != NULL) feint_assembly_map_bytes(map, &map_bytes);
      feint_element_info ei;
      feint_element_get_info((feint_element)el, &ei);
      const size_t ns2 = (size_t)ei.num_nodes * (size_t)ei.num_nodes; /* offsets per element */
      const int map_w = m.num_elem ? (int)(map_bytes / (ns2 * m.num_elem)) : 4; /* 1 or 4 */
      /* What the case holds at once: values and columns of A, the
       * reference and its absolute sums (8 + 4 + 16 bytes per entry), five
       * vectors, the map, the coefficients.  A case that would not fit in
       * this machine's memory is named and skipped rather than killed by the
       * kernel halfway (hex8 elasticity on 160^3 cells needs ~28 GB). */
      const double need = 28.0 * (double)A.nnz + 40.0 * (double)A.num_rows +
                          (double)map_bytes + 8.0 * (double)(m.num_elem * nc);
      const double phys = (double)sysconf(_SC_PHYS_PAGES) * (double)sysconf(_SC_PAGE_SIZE);
      double *b = NULL, *ref_v = NULL, *abs_v = NULL, *ref_b = NULL, *abs_b = NULL;
      if (phys > 0 && need > 0.85 * phys) {
        printf("# %s %s skipped: needs ~%.1f GiB, this machine has %.1f GiB (try --cells %zu)\n",
               name, order, need / (1 << 30), phys / (1 << 30),
               (size_t)((double)cells * cbrt(0.7 * phys / need)));
        fflush(stdout);
        goto case_done; /* the case's cleanup below */
      }
      b = malloc(A.num_rows * 8);
      ref_v = malloc(A.nnz * 8), abs_v = malloc(A.nnz * 8);
      ref_b = malloc(A.num_rows * 8), abs_b = malloc(A.num_rows * 8);
      reference(&m, (feint_problem)pb, coef, nc, &A, ref_v, abs_v, ref_b, abs_b);
      feint_integrate_desc d = {(feint_element)el, (feint_problem)pb, FEINT_QSS_GEO_LINEAR, 0, 0,
                                FEINT_FLAG_TRUST_GEOMETRY, 0, 0};
      feint_integrate_desc dc = d; /* the default call: checked */
      dc.flags = 0;
      for (int ti = 0; ti < nthread_list; ti++)
        for (int st = 0; st < FEINT_ASSEMBLE_COUNT; st++)
          for (int mapped = 0; mapped < 2; mapped++) {
          const char *pos = mapped ? "map" : "search";
          if (!strstr(positions, pos)) continue;
          const feint_assembly_map *mp = mapped ? map : NULL;
          omp_set_num_threads(thread_list[ti]);
          feint_pm_assembly_counts pc;
          feint_pm_assembly_mapped_counts_get((feint_element)el, (feint_problem)pb,
                                              FEINT_QSS_GEO_LINEAR, (feint_assemble_strategy)st,
                                              mapped ? map_w : 0, m.num_elem, m.num_vertices,
                                              A.nnz, &pc);
          double *t = malloc(reps * 8), *tk = malloc(reps * 8), *bw = malloc(reps * 8);
          double *fl = malloc(reps * 8), cpu_min = INFINITY;
          int status = feint_assemble_mapped(&d, (feint_assemble_strategy)st, &m, plan, mp, coef,
                                             &A, b);
          if (status == 0)
            status = feint_assemble_mapped(&dc, (feint_assemble_strategy)st, &m, plan, mp, coef,
                                           &A, b);
          for (int r = 0; r < reps && status == 0; r++) {
            bw[r] = feint_pm_gbs(feint_pm_triad_bytes(tn), feint_pm_time_triad(ta, tb, tc, tn));
            int nthr = 1;
            const double tf = feint_pm_time_fma(fma_iters, &nthr);
            fl[r] = feint_pm_gflops(feint_pm_fma_flops(fma_iters, nthr), tf);
            struct timespec c0, c1;
            clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &c0);
            const double t0 = omp_get_wtime();
            status = feint_assemble_mapped(&d, (feint_assemble_strategy)st, &m, plan, mp, coef,
                                           &A, b);
            t[r] = omp_get_wtime() - t0;
            clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &c1);
            const double cpu = (double)(c1.tv_sec - c0.tv_sec) + 1e-9 * (double)(c1.tv_nsec - c0.tv_nsec);
            cpu_min = cpu < cpu_min ? cpu : cpu_min;
            if (status != 0) break;
            const double t1 = omp_get_wtime(); /* the checked call validates below */
            status = feint_assemble_mapped(&dc, (feint_assemble_strategy)st, &m, plan, mp, coef,
                                           &A, b);
            tk[r] = omp_get_wtime() - t1;
          }
          /* validation */
          size_t bad = 0;
          for (size_t k = 0; k < A.nnz; k++)
            bad += !(fabs(A.values[k] - ref_v[k]) <= 64 * DBL_EPSILON * abs_v[k]);
          for (size_t i = 0; i < A.num_rows; i++)
            bad += !(fabs(b[i] - ref_b[i]) <= 64 * DBL_EPSILON * abs_b[i]);
          const int pass = status == 0 && bad == 0;
          any_fail |= !pass;
          const double s_min = perfmodel_min(t, reps), s_med = perfmodel_median(t, reps);
          const double bw_med = perfmodel_median(bw, reps), fl_med = perfmodel_median(fl, reps);
          const double ne = (double)m.num_elem;
          const double tmin = s_min / ne * 1e9, tmed = s_med / ne * 1e9;
          const double cmin = perfmodel_min(tk, reps) / ne * 1e9;
          const double cmed = perfmodel_median(tk, reps) / ne * 1e9;
          const double tcpu = cpu_min / thread_list[ti] / ne * 1e9; /* per element and thread */
          double bound_ns = 0;
          feint_pm_bound which = FEINT_PM_BOUND_MEMORY;
          feint_pm_predict(pc.bytes_compulsory, pc.flops, bw_med, fl_med, &bound_ns, &which);
          bound_ns /= ne; /* totals over the mesh -> per element */
          const double pct = feint_pm_pct_of_bound(bound_ns, tmin);
          const double gbs = (double)pc.bytes_compulsory / (s_min * 1e9);
          printf("%-16s %-16s %-9s %-6s %3d %10zu %9.2f %9.2f %9.2f %9.2f %8s %6.1f%% %6.1f %9.2f "
                 "%6.2f %s\n",
                 name, order, st ? "atomics" : "colouring", pos, thread_list[ti], m.num_elem, tmin,
                 tmed, tcpu, bound_ns, feint_pm_bound_name(which), pct, gbs, cmin, cmin / tmin,
                 pass ? "PASS" : "FAIL");
          if (!pass)
            printf("  FAIL: status %d (%s), %zu entries off the reference\n", status,
                   feint_last_error(), bad);
          if (out)
            fprintf(out, "%s,%s,%s,%s,%d,%zu,%zu,%zu,%zu,%d,%.4f,%.4f,%.4f,%.2f,%.2f,%.2f,%.2f,%.4f,%s,%.2f,%s,%.4f,%.4f\n",
                    name, order, st ? "atomics" : "colouring", pos, thread_list[ti], m.num_elem,
                    m.num_vertices, A.nnz, ncol, reps, tmin, tmed, tcpu,
                    (double)pc.bytes_compulsory / ne, (double)pc.flops / ne, bw_med,
                    fl_med, bound_ns, feint_pm_bound_name(which), pct, pass ? "PASS" : "FAIL",
                    cmin, cmed);
          fflush(stdout);
          free(t), free(tk), free(bw), free(fl);
        }
    case_done:
      free(coef), free(b), free(ref_v), free(abs_v), free(ref_b), free(abs_b);
      feint_assembly_map_destroy(map);
      feint_assembly_destroy(plan);
      feint_csr_destroy(&A);
      feint_mesh_destroy(&m);
    }
  if (out) {
    fclose(out);
    printf("# results written to %s\n", csv_path);
  }
  free(ta), free(tb), free(tc);
  return any_fail;
}
