/* solve_bench.c - feint_bench_solve: the solver layer's benchmark (make bench).
 *
 * 1. Time to solution, per phase, of the P1 Poisson problem of example 03
 *    on a Gmsh mesh of the unit box, made at bench time with gmsh -3
 *    -format msh41 -bin: by default Gmsh's structured (transfinite) mesh of
 *    examples/data/unit_box_structured.geo with --cells N cells per edge
 *    (N = 100: (N+1)^3 = 1,030,301 unknowns, 6 M tets, meshed in seconds),
 *    or with --clmax C the unstructured mesh of examples/data/unit_box.geo
 *    (about 1 M unknowns at C = 0.0097, but Gmsh's Delaunay mesher takes
 *    many minutes there): read the .msh (+ orient), set up (source at the
 *    quadrature points, boundary values, assembled operator, rhs), solve to
 *    ||r|| <= 1e-8 ||b|| with Jacobi-preconditioned pipelined CG and CG,
 *    write the .vtu.  Min and median over --reps runs.
 * 2. One CG iteration: time per iteration and per unknown of each solver x
 *    preconditioner on that system, beside its memory bound: the bytes of
 *    one iteration (perfmodel/solve.c: vector passes + the SpMV) over the
 *    STREAM triad bandwidth measured in the same run, interleaved (one triad
 *    before every timed solve).  The time of an iteration is the difference
 *    of two solves of K1 and K2 iterations over K2 - K1 (set-up, the
 *    initial residual and the final copies cancel); min and median over the
 *    repetitions.
 * --box N: feint_mesh_box_create's N^3-cell box of 6 N^3 tets instead of
 * a Gmsh mesh (no gmsh needed: the GPU machine has none); phase 1's "read"
 * is then the box's generation.
 * --target device (offload build): the operator is made for device 0 and
 * must run there (checked: no host fallback; without a GPU the bench refuses,
 * exit 3); the solver then keeps every vector on the device (feint_solve),
 * and the bound's bandwidth is a device triad over device arrays.
 * Usage: feint_bench_solve [--cells N | --clmax C | --msh FILE | --box N]
 *        [--reps R] [--csv FILE] [--quick] [--target host|device]
 *        (--quick: unstructured at clmax 0.05, 1 rep, for smoke tests) */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "feint.h"
#include "feint_perfmodel.h"
#include "perfmodel_cli.h" /* perfmodel_result_open */

#define PI 3.14159265358979323846

static double source(const double x[3]) {
  return 3 * PI * PI * sin(PI * x[0]) * sin(PI * x[1]) * sin(PI * x[2]);
}
static double exact(const double x[3]) {
  return sin(PI * x[0]) * sin(PI * x[1]) * sin(PI * x[2]) + x[0] + 2 * x[1] + 3 * x[2];
}

#define DIE(...)                    \
  do {                              \
    fprintf(stderr, __VA_ARGS__);   \
    fprintf(stderr, "\n");          \
    exit(1);                        \
  } while (0)

/* The problem after the set-up phase. */
typedef struct {
  feint_mesh m;
  feint_operator *op;
  double *f, *b, *g;
  uint32_t *bc;
  size_t nbc;
} problem;

static feint_target g_target = FEINT_TARGET_HOST; /* --target */

static void setup(problem *p) {
  feint_element_info ei;
  feint_element_get_info(FEINT_TET4, &ei);
  const size_t ne = p->m.num_elem, nq = (size_t)ei.num_qpts;
  p->f = malloc(ne * nq * sizeof(double));
#pragma omp parallel for schedule(static)
  for (size_t e = 0; e < ne; e++)
    for (size_t q = 0; q < nq; q++) {
      double x[3] = {0, 0, 0};
      for (int n = 0; n < 4; n++)
        for (int c = 0; c < 3; c++) x[c] += ei.phi[q][n] * p->m.coords[3 * p->m.conn[4 * e + n] + c];
      p->f[e * nq + q] = source(x);
    }
  if (feint_mesh_face_vertices(&p->m, -1, &p->nbc, &p->bc)) DIE("faces: %s", feint_last_error());
  p->g = malloc(p->nbc * sizeof(double));
  for (size_t k = 0; k < p->nbc; k++) p->g[k] = exact(p->m.coords + 3 * p->bc[k]);
  const feint_integrate_desc d = {FEINT_TET4, FEINT_POISSON, FEINT_QSS_GEO_LINEAR, 0, 0, 0, g_target, 0};
  if (feint_operator_create(&d, FEINT_OPERATOR_ASSEMBLED, FEINT_ASSEMBLE_COLOURING, &p->m, p->f,
                            p->nbc, p->bc, &p->op))
    DIE("operator: %s", feint_last_error());
  feint_operator_info oi;
  feint_operator_get_info(p->op, &oi);
  if (oi.target != g_target || oi.host_fallback) DIE("operator: not on the target asked for");
  p->b = malloc(p->m.num_vertices * sizeof(double));
  if (feint_operator_rhs(p->op, p->g, p->b)) DIE("rhs: %s", feint_last_error());
}

static void problem_free(problem *p) {
  feint_operator_destroy(p->op);
  free(p->f), free(p->b), free(p->g), free(p->bc);
  feint_mesh_destroy(&p->m);
}

int main(int argc, char **argv) {
  double clmax = 0; /* 0: structured, `cells` per edge */
  int reps = 3, quick = 0, cells = 100, box = 0;
  const char *msh = NULL, *csv = NULL;
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "--clmax") && i + 1 < argc) clmax = atof(argv[++i]);
    else if (!strcmp(argv[i], "--cells") && i + 1 < argc) cells = atoi(argv[++i]), clmax = 0;
    else if (!strcmp(argv[i], "--msh") && i + 1 < argc) msh = argv[++i];
    else if (!strcmp(argv[i], "--reps") && i + 1 < argc) reps = atoi(argv[++i]);
    else if (!strcmp(argv[i], "--csv") && i + 1 < argc) csv = argv[++i];
    else if (!strcmp(argv[i], "--quick")) quick = 1, clmax = 0.05, reps = 1;
    else if (!strcmp(argv[i], "--box") && i + 1 < argc) box = atoi(argv[++i]);
    else if (!strcmp(argv[i], "--target") && i + 1 < argc && !strcmp(argv[i + 1], "device"))
      g_target = FEINT_TARGET_DEVICE, i++;
    else if (!strcmp(argv[i], "--target") && i + 1 < argc && !strcmp(argv[i + 1], "host")) i++;
    else {
      fprintf(stderr,
              "usage: %s [--cells N | --clmax C | --msh FILE | --box N] [--reps R] [--csv FILE] "
              "[--quick] [--target host|device]\n",
              argv[0]);
      return 2;
    }
  }
  if (reps < 1) reps = 1;
  if (!(clmax > 0) && (cells < 1 || cells > 1000)) DIE("--cells must be in 1..1000");
  if (box < 0 || box > 1000) DIE("--box must be in 1..1000");
  if (g_target == FEINT_TARGET_DEVICE) {
    int ndev = 0;
    feint_device_count(&ndev);
    if (!feint_offload_built() || ndev < 1) {
      fprintf(stderr, "feint_bench_solve: --target device needs %s; refusing to run\n",
              !feint_offload_built() ? "an offload build (make GPU=sm_XX)" : "a GPU");
      return 3;
    }
  }
  char dir[64] = "", path_msh[128], path_vtu[128], cmd[1024];
  snprintf(dir, sizeof dir, "/tmp/feint_bench_solve_XXXXXX");
  if (!mkdtemp(dir)) DIE("mkdtemp failed");
  snprintf(path_vtu, sizeof path_vtu, "%s/solution.vtu", dir);
  if (box) {
    snprintf(path_msh, sizeof path_msh, "box %d^3 cells (feint_mesh_box_create)", box);
    msh = path_msh;
  } else if (!msh) {
    snprintf(path_msh, sizeof path_msh, "%s/box.msh", dir);
    if (clmax > 0)
      snprintf(cmd, sizeof cmd,
               "gmsh -3 -format msh41 -bin -clmax %g -nt %d examples/data/unit_box.geo -o %s > "
               "%s/gmsh.log 2>&1",
               clmax, omp_get_max_threads(), path_msh, dir);
    else
      snprintf(cmd, sizeof cmd,
               "gmsh -3 -format msh41 -bin -setnumber N %d examples/data/unit_box_structured.geo "
               "-o %s > %s/gmsh.log 2>&1",
               cells, path_msh, dir);
    printf("meshing: %s\n", cmd);
    fflush(stdout);
    if (system(cmd) != 0) DIE("gmsh failed (run from the repository root; gmsh installed?)");
    msh = path_msh;
  }
  /* "--csv auto" (make bench): bench/results/solve/<platform>_<date>-<HHMM>_<arch>.csv,
   * headed by the CPU, build and threads (perfmodel/bench_common.c) */
  char csv_path[512];
  FILE *out = csv ? perfmodel_result_open(csv, "solve", FEINT_GIT_HASH, FEINT_BUILD_FLAGS,
                                          FEINT_BUILD_ARCH, omp_get_max_threads(), csv_path,
                                          sizeof csv_path)
                  : NULL;
  if (csv && !out) return 2;
  if (out) fprintf(out, "# feint_bench_solve %s, %d threads, mesh %s\n", FEINT_VERSION_STRING,
                   omp_get_max_threads(), msh);

  /* ---- 1. time to solution per phase ---- */
  enum { READ, SETUP, SOLVE_PCG, SOLVE_CG, WRITE, PHASES };
  static const char *phase_name[PHASES] = {"read .msh", "set up (assemble, rhs)",
                                           "solve pipelined CG+J", "solve CG+J", "write .vtu"};
  double *t[PHASES];
  for (int k = 0; k < PHASES; k++) t[k] = malloc((size_t)reps * sizeof(double));
  size_t iters[2] = {0, 0}, n = 0, nnz = 0;
  problem p;
  for (int r = 0; r < reps; r++) {
    memset(&p, 0, sizeof p);
    double t0 = omp_get_wtime();
    size_t fixed;
    if (box ? feint_mesh_box_create(FEINT_TET4, box, box, box, FEINT_PERTURB_NONE, 0.0, 1, &p.m)
            : feint_mesh_read_msh(msh, &p.m) || feint_mesh_orient(&p.m, &fixed))
      DIE("read: %s", feint_last_error());
    t[READ][r] = omp_get_wtime() - t0;
    t0 = omp_get_wtime();
    setup(&p);
    t[SETUP][r] = omp_get_wtime() - t0;
    n = p.m.num_vertices;
    double *u = malloc(n * sizeof(double));
    for (int s = 0; s < 2; s++) {
      memset(u, 0, n * sizeof(double));
      const feint_solve_desc sd = {s == 0 ? FEINT_SOLVER_PIPELINED_CG : FEINT_SOLVER_CG,
                                   FEINT_PC_JACOBI, 1e-8, 100000, NULL};
      feint_solve_info info;
      t0 = omp_get_wtime();
      if (feint_solve(p.op, &sd, p.b, u, &info)) DIE("solve: %s", feint_last_error());
      t[s == 0 ? SOLVE_PCG : SOLVE_CG][r] = omp_get_wtime() - t0;
      iters[s] = info.iterations;
    }
    t0 = omp_get_wtime();
    const feint_vtu_field fld = {"u", 1, u};
    if (feint_mesh_write_vtu(path_vtu, &p.m, 1, &fld, 0, NULL)) DIE("write: %s", feint_last_error());
    t[WRITE][r] = omp_get_wtime() - t0;
    free(u);
    if (r + 1 < reps) problem_free(&p);
  }
  feint_operator_info oi;
  feint_operator_get_info(p.op, &oi);
  {
    /* nnz of the assembled matrix: the pattern of this mesh */
    feint_csr A;
    if (feint_csr_create(&p.m, 1, &A)) DIE("csr: %s", feint_last_error());
    nnz = A.nnz;
    feint_csr_destroy(&A);
  }
  printf("feint_bench_solve: feint %s, %d threads, %s; %s: %zu unknowns, %zu tets, %zu nonzeros; "
         "Jacobi CG to 1e-8: pipelined %zu iterations, CG %zu\n",
         FEINT_VERSION_STRING, omp_get_max_threads(),
         g_target == FEINT_TARGET_DEVICE ? "operator and vectors on device 0" : "host", msh, n,
         p.m.num_elem, nnz, iters[0], iters[1]);
  printf("%-24s %10s %10s   (seconds, %d runs)\n", "phase", "min", "median", reps);
  double tot_min = 0, tot_med = 0;
  for (int k = 0; k < PHASES; k++) {
    const double mn = perfmodel_min(t[k], reps), md = perfmodel_median(t[k], reps);
    if (k != SOLVE_CG) tot_min += mn, tot_med += md;
    printf("%-24s %10.4f %10.4f\n", phase_name[k], mn, md);
    if (out) fprintf(out, "phase,%s,%zu,%d,%.6f,%.6f\n", phase_name[k], n, reps, mn, md);
  }
  printf("%-24s %10.4f %10.4f   (read + set up + pipelined solve + write)\n", "time to solution",
         tot_min, tot_med);

  /* ---- 2. one iteration against its memory bound ---- */
  const size_t tn = (size_t)1 << 24;
  double *ta = aligned_alloc(64, tn * 8), *tb = aligned_alloc(64, tn * 8),
         *tc = aligned_alloc(64, tn * 8);
#pragma omp parallel for schedule(static)
  for (size_t i = 0; i < tn; i++) ta[i] = 0, tb[i] = 1, tc[i] = 2;
  perfmodel_dev_triad dt = {0}; /* --target device: the device triad (bench_common.c) */
  if (g_target == FEINT_TARGET_DEVICE && perfmodel_dev_triad_open(&dt, 0, tn, stdout) != 0)
    return 2;
  const int ireps = quick ? 2 : 5;
  const size_t k1 = quick ? 4 : 10, k2 = quick ? 12 : 50;
  printf("\n%-14s %-6s %12s %12s %12s %8s %8s %7s %7s\n", "solver", "pc", "min ns/it/dof",
         "med ns/it/dof", "bound ns", "B/dof", "GB/s", "%min", "%med");
  /* one iteration = (time of k2 iterations - time of k1) / (k2 - k1), from
   * the min (and the median) of each over the reps: differencing single runs
   * let one disturbed short run make the figure negative.  A difference that
   * is still <= 0 is noise, reported as such, never as a time. */
  double *u = malloc(n * sizeof(double)), tks[2][8], bw[16]; /* ireps <= 8 */
  for (int s = 0; s < FEINT_SOLVER_COUNT; s++)
    for (int pc = 0; pc < FEINT_PC_COUNT; pc++) {
      feint_pm_cg_counts cc;
      feint_pm_cg_counts_get((feint_solver)s, (feint_pc)pc, n, nnz, &cc);
      for (int r = 0; r < ireps; r++) {
        for (int j = 0; j < 2; j++) {
          bw[2 * r + j] = feint_pm_gbs(feint_pm_triad_bytes(tn),
                                       dt.a ? perfmodel_dev_triad_s(&dt)
                                           : feint_pm_time_triad(ta, tb, tc, tn));
          memset(u, 0, n * sizeof(double));
          const feint_solve_desc sd = {(feint_solver)s, (feint_pc)pc, 1e-300, j ? k2 : k1, NULL};
          const double t0 = omp_get_wtime();
          const feint_status st = feint_solve(p.op, &sd, p.b, u, NULL);
          tks[j][r] = omp_get_wtime() - t0;
          if (st != FEINT_ERR_NOT_CONVERGED) DIE("timed solve: %s", feint_last_error());
        }
      }
      const double dk = (double)(k2 - k1);
      const double tmin = (perfmodel_min(tks[1], ireps) - perfmodel_min(tks[0], ireps)) / dk;
      const double tmed = (perfmodel_median(tks[1], ireps) - perfmodel_median(tks[0], ireps)) / dk;
      if (!(tmin > 0) || !(tmed > 0)) {
        printf("%-14s %-6s   noise: %d vs %d iterations gave no positive difference (min %.3g s, "
               "median %.3g s); rerun on a quieter machine\n",
               s == FEINT_SOLVER_CG ? "CG" : "pipelined CG", pc == FEINT_PC_JACOBI ? "Jacobi" : "none",
               (int)k2, (int)k1, tmin * dk, tmed * dk);
        continue;
      }
      const double gbs = perfmodel_median(bw, 2 * ireps);
      const double bound_s = (double)cc.bytes / (gbs * 1e9);
      const double ns_min = 1e9 * tmin / (double)n, ns_med = 1e9 * tmed / (double)n;
      const double bound_ns = 1e9 * bound_s / (double)n;
      printf("%-14s %-6s %12.3f %12.3f %12.3f %8.1f %8.1f %6.1f%% %6.1f%%\n",
             s == FEINT_SOLVER_CG ? "CG" : "pipelined CG", pc == FEINT_PC_JACOBI ? "Jacobi" : "none",
             ns_min, ns_med, bound_ns, (double)cc.bytes / (double)n,
             (double)cc.bytes / tmin / 1e9, 100 * bound_s / tmin, 100 * bound_s / tmed);
      if (out)
        fprintf(out, "iteration,%s,%s,%zu,%zu,%d,%.6f,%.6f,%.6f,%lld,%.3f,%.2f,%.2f\n",
                s == FEINT_SOLVER_CG ? "cg" : "pipelined_cg", pc == FEINT_PC_JACOBI ? "jacobi" : "none",
                n, nnz, ireps, ns_min, ns_med, bound_ns, cc.bytes, gbs, 100 * bound_s / tmin,
                100 * bound_s / tmed);
    }
  printf("(min, median: (t(%zu its) - t(%zu its)) / %zu from the two runs' min, and from their "
         "medians, so the median may fall below the min)\n",
         k2, k1, k2 - k1);
  printf("(bound = bytes of one iteration [perfmodel/solve.c: vector passes + SpMV, compulsory] / "
         "median STREAM triad GB/s measured before each timed solve)\n");
  perfmodel_dev_triad_close(&dt);
  free(u), free(ta), free(tb), free(tc);
  for (int k = 0; k < PHASES; k++) free(t[k]);
  problem_free(&p);
  if (out) {
    fclose(out);
    printf("# results written to %s\n", csv_path);
  }
  snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
  if (system(cmd) != 0) fprintf(stderr, "could not remove %s\n", dir);
  return 0;
}
