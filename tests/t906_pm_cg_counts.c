/* t906_pm_cg_counts (range t9xx: the solver's model and bench) -
 * feint_pm_cg_counts_get against hand counts (perfmodel/solve.c's table) for
 * each solver x preconditioner, its bad input, and the solver benchmark's
 * smoke run (feint_bench_solve --quick: meshes with Gmsh, solves, times an
 * iteration against the triad bound; skipped without gmsh). */
#include <stdlib.h>

#include "feint_perfmodel.h"
#include "test_util.h"

int main(int argc, char **argv) {
  (void)argc;
  /* n = 10 unknowns, nnz = 30: SpMV bytes 8 * 11 + 12 * 30 + 16 * 10 = 608,
   * flops 60; vectors (doubles per unknown, flops per unknown):
   * CG 11 / 12, + Jacobi 13 / 14; pipelined 10 / 14, + Jacobi 12 / 17 */
  const struct {
    feint_solver s;
    feint_pc pc;
    long long bv, fv;
    int red;
  } cases[4] = {{FEINT_SOLVER_CG, FEINT_PC_NONE, 880, 120, 2},
                {FEINT_SOLVER_CG, FEINT_PC_JACOBI, 1040, 140, 2},
                {FEINT_SOLVER_PIPELINED_CG, FEINT_PC_NONE, 800, 140, 1},
                {FEINT_SOLVER_PIPELINED_CG, FEINT_PC_JACOBI, 960, 170, 1}};
  for (int k = 0; k < 4; k++) {
    feint_pm_cg_counts c;
    CHECK_STATUS(feint_pm_cg_counts_get(cases[k].s, cases[k].pc, 10, 30, &c), FEINT_SUCCESS, NULL);
    CHECK(c.bytes_vectors == cases[k].bv && c.flops_vectors == cases[k].fv &&
              c.bytes_apply == 608 && c.flops_apply == 60 && c.bytes == cases[k].bv + 608 &&
              c.flops == cases[k].fv + 60 && c.reductions == cases[k].red,
          "case %d: bytes %lld + %lld, flops %lld + %lld, %d reductions", k, c.bytes_vectors,
          c.bytes_apply, c.flops_vectors, c.flops_apply, c.reductions);
  }
  feint_pm_cg_counts c;
  CHECK_STATUS(feint_pm_cg_counts_get(FEINT_SOLVER_CG, FEINT_PC_NONE, 10, 30, NULL),
               FEINT_ERR_NULL_ARG, "out");
  CHECK_STATUS(feint_pm_cg_counts_get(FEINT_SOLVER_COUNT, FEINT_PC_NONE, 10, 30, &c),
               FEINT_ERR_OUT_OF_RANGE, "solver");
  CHECK_STATUS(feint_pm_cg_counts_get(FEINT_SOLVER_CG, FEINT_PC_COUNT, 10, 30, &c),
               FEINT_ERR_OUT_OF_RANGE, "pc");
  CHECK_STATUS(feint_pm_cg_counts_get(FEINT_SOLVER_CG, FEINT_PC_NONE, (size_t)1 << 60, 30, &c),
               FEINT_ERR_BAD_SIZE, "too large");
  /* the benchmark's smoke run */
  if (system("gmsh --version > /dev/null 2>&1") == 0) {
    char cmd[1024];
    const char *slash = strrchr(argv[0], '/');
    snprintf(cmd, sizeof cmd, "%.*s/../bin/feint_bench_solve --quick > /dev/null 2>&1",
             slash ? (int)(slash - argv[0]) : 1, slash ? argv[0] : ".");
    CHECK(system(cmd) == 0, "%s failed", cmd);
  }
  return test_finish("t906_pm_cg_counts");
}
