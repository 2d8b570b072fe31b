/* t905_example_petsc_mpi (range t9xx) - example 04 under MPI: `mpirun -n 2
 * --oversubscribe` (as root with Open MPI's OMPI_ALLOW_RUN_AS_ROOT*), every
 * rank assembling its element range with feint into one PETSc MPIAIJ
 * matrix through COO, KSPCG + GAMG, and a MatShell on feint's operator;
 * the example exits 0 only if both PETSc solutions equal feint's serial
 * solve within the bound of the solver tolerance (see the example).  Run
 * on feint's box mesh and on a Gmsh mesh of examples/data/unit_box.geo
 * (when gmsh is there).  Skips without mpirun or without PETSc (the
 * example then exits 77). */
#define _XOPEN_SOURCE 700 /* mkdtemp, setenv */
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include "test_util.h"

/* exit status of a shell command (-1 if it did not exit) */
static int run(const char *cmd) {
  const int st = system(cmd);
  return st != -1 && WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

int main(int argc, char **argv) {
  (void)argc;
  if (run("mpirun --version > /dev/null 2>&1") != 0) {
    printf("SKIP: no mpirun (Debian package openmpi-bin; make deps installs it)\n");
    return TEST_SKIP_EXIT;
  }
  char bin_dir[512];
  snprintf(bin_dir, sizeof bin_dir, "%s", argv[0]);
  char *s = strrchr(bin_dir, '/');
  if (s) *s = '\0';
  else snprintf(bin_dir, sizeof bin_dir, ".");
  char dir[64];
  snprintf(dir, sizeof dir, "/tmp/feint_t905_XXXXXX");
  if (!mkdtemp(dir)) return 1;
  /* root in CI; one OpenMP thread per rank (2 ranks on 2 cores); sanitizer
   * builds: Open MPI's own allocations are not feint's leaks */
  setenv("OMPI_ALLOW_RUN_AS_ROOT", "1", 1);
  setenv("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1", 1);
  setenv("OMP_NUM_THREADS", "1", 1);
  char cmd[2048];
  const char *mpirun = "mpirun -n 2 --oversubscribe -x OMP_NUM_THREADS -x ASAN_OPTIONS=detect_leaks=0";
  snprintf(cmd, sizeof cmd, "%s %s/../examples/04_petsc_mpi --quiet > %s/out.log 2>&1", mpirun,
           bin_dir, dir);
  int rc = run(cmd);
  if (rc == TEST_SKIP_EXIT) {
    printf("SKIP: example 04 built without PETSc (libpetsc-real-dev)\n");
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    if (system(cmd) != 0) fprintf(stderr, "t905: could not remove %s\n", dir);
    return TEST_SKIP_EXIT;
  }
  if (rc != 0) {
    TEST_FAIL("box mesh, 2 ranks: exit %d: %s", rc, cmd);
    snprintf(cmd, sizeof cmd, "mpirun -n 2 --oversubscribe -x OMP_NUM_THREADS %s/../examples/04_petsc_mpi 2>&1 | head -n 20 >&2", bin_dir);
    if (system(cmd) != 0) fprintf(stderr, "t905: rerun failed\n");
  }
  if (run("gmsh --version > /dev/null 2>&1") == 0) {
    const char *file = __FILE__, *slash = strrchr(file, '/');
    snprintf(cmd, sizeof cmd,
             "gmsh -3 -format msh41 -clmax 0.1 -nt 1 %.*s../examples/data/unit_box.geo -o "
             "%s/box.msh > %s/gmsh.log 2>&1",
             slash ? (int)(slash - file + 1) : 0, file, dir, dir);
    if (run(cmd) != 0) {
      TEST_FAIL("gmsh failed: %s", cmd);
    } else {
      snprintf(cmd, sizeof cmd, "%s %s/../examples/04_petsc_mpi --quiet %s/box.msh > %s/out.log 2>&1",
               mpirun, bin_dir, dir, dir);
      rc = run(cmd);
      CHECK(rc == 0, "Gmsh mesh, 2 ranks: exit %d: %s", rc, cmd);
    }
  }
  snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
  if (system(cmd) != 0) fprintf(stderr, "t905: could not remove %s\n", dir);
  return test_finish("t905_example_petsc_mpi");
}
