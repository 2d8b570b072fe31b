/* 04_petsc_mpi - feint as the on-node engine of a distributed PETSc code.
 * Every MPI rank integrates and assembles its own part of the mesh with
 * feint (a contiguous range of elements as a sub-mesh with local vertex
 * numbers, feint_assemble), hands its CSR entries to one PETSc MPIAIJ
 * matrix through COO with global indices (MatSetPreallocationCOO +
 * MatSetValuesCOO, entries shared between ranks are added by PETSc), adds
 * its load vector into a PETSc Vec, imposes the Dirichlet values
 * (MatZeroRowsColumns) and solves with KSPCG + PCGAMG.  The solution is
 * compared with feint's own serial solve (assembled operator, pipelined CG
 * + Jacobi): both stop at ||r|| <= rtol ||b||, so they differ by at most
 * (||r_petsc|| + ||r_feint||) / lambda_min(A), both residuals taken in
 * feint's system and lambda_min bounded from below from the mesh (see
 * lambda_low).  Then the same system once more through a PETSc MatShell whose
 * MatMult is feint_operator_apply (a matrix-free form when the operator
 * layer has one, else the assembled one) and MatGetDiagonal
 * feint_operator_diagonal, solved by KSPCG + PCJACOBI on one rank.
 * Problem: the manufactured Poisson solution of example 03 on feint's
 * perturbed box mesh (or a .msh file given on the command line).
 *
 * Build: make examples (needs PETSc: Debian's libpetsc-real-dev, found by
 *        pkg-config; without it the program prints SKIP and exits 77)
 * Run:   OMP_NUM_THREADS=1 mpirun -n 2 build/examples/04_petsc_mpi [--quiet] [mesh.msh]
 *        (as root: OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1,
 *        and --oversubscribe on a machine with fewer cores than ranks)
 *        --quiet prints nothing; exit 0 if both PETSc solutions match
 *        feint's, 1 otherwise.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "feint.h"

#ifndef FEINT_HAVE_PETSC
int main(void) {
  printf("SKIP: built without PETSc (Debian package libpetsc-real-dev; make deps installs it)\n");
  return 77;
}
#else
#include <petscksp.h>

/* Open MPI leaves allocations of its dlopen'ed components at exit; a
 * sanitizer build (make sanitize) would report MPI's, not feint's. */
#if defined(__has_feature)
#if __has_feature(address_sanitizer)
const char *__asan_default_options(void);
const char *__asan_default_options(void) { return "detect_leaks=0"; }
#endif
#endif

#define PI 3.14159265358979323846
#define RTOL 1e-10

static double exact(const double x[3]) {
  return sin(PI * x[0]) * sin(PI * x[1]) * sin(PI * x[2]) + x[0] + 2 * x[1] + 3 * x[2];
}
static double source(const double x[3]) {
  return 3 * PI * PI * sin(PI * x[0]) * sin(PI * x[1]) * sin(PI * x[2]);
}

static int quiet = 0;
#define FEINT_OK(call)                                                             \
  do {                                                                             \
    if ((call) != FEINT_SUCCESS) {                                                 \
      if (!quiet) fprintf(stderr, "%s: %s\n", #call, feint_last_error());        \
      MPI_Abort(MPI_COMM_WORLD, 1);                                                \
    }                                                                              \
  } while (0)

static double tet_volume(const feint_mesh *m, size_t e) {
  const uint32_t *v = m->conn + 4 * e;
  double J[3][3];
  for (int a = 0; a < 3; a++)
    for (int c = 0; c < 3; c++) J[a][c] = m->coords[3 * v[c + 1] + a] - m->coords[3 * v[0] + a];
  return fabs(J[0][0] * (J[1][1] * J[2][2] - J[1][2] * J[2][1]) -
              J[0][1] * (J[1][0] * J[2][2] - J[1][2] * J[2][0]) +
              J[0][2] * (J[1][0] * J[2][1] - J[1][1] * J[2][0])) / 6;
}

/* A lower bound of lambda_min of feint's constrained matrix on the unit box:
 * the interior block's Rayleigh quotients are >= 3 pi^2 (the continuous
 * first eigenvalue, by min-max: P1 functions vanishing on the boundary lie
 * in H^1_0) times those of the mass matrix, which are >= min over interior
 * vertices of (sum of the volumes of its tets) / 20 (each tet's mass matrix
 * vol/20 (I + 1 1^T) >= vol/20 I); constrained rows hold their a_ii alone. */
static double lambda_low(const feint_mesh *m, const double *diag, size_t nbc, const uint32_t *bc) {
  double *patch = calloc(m->num_vertices, sizeof(double)), low = INFINITY;
  for (size_t e = 0; e < m->num_elem; e++)
    for (int k = 0; k < 4; k++) patch[m->conn[4 * e + k]] += tet_volume(m, e);
  for (size_t k = 0; k < nbc; k++) patch[bc[k]] = -1; /* constrained */
  for (size_t i = 0; i < m->num_vertices; i++) {
    const double l = patch[i] < 0 ? diag[i] : 3 * PI * PI * patch[i] / 20;
    if (l < low) low = l;
  }
  free(patch);
  return low;
}

static double norm2(const double *v, size_t n) {
  double s = 0;
  for (size_t i = 0; i < n; i++) s += v[i] * v[i];
  return sqrt(s);
}

/* ||b - A u|| in feint's system */
static double residual(const feint_operator *op, const double *b, const double *u, size_t n) {
  double *y = malloc(n * sizeof(double)), s = 0;
  FEINT_OK(feint_operator_apply(op, u, y, 0));
  for (size_t i = 0; i < n; i++) s += (b[i] - y[i]) * (b[i] - y[i]);
  free(y);
  return sqrt(s);
}

/* MatShell callbacks: feint's operator behind PETSc's MatMult */
static PetscErrorCode shell_mult(Mat S, Vec x, Vec y) {
  feint_operator *op;
  const PetscScalar *xa;
  PetscScalar *ya;
  PetscFunctionBeginUser;
  PetscCall(MatShellGetContext(S, &op));
  PetscCall(VecGetArrayRead(x, &xa));
  PetscCall(VecGetArray(y, &ya));
  const feint_status st = feint_operator_apply(op, xa, ya, 0);
  PetscCall(VecRestoreArrayRead(x, &xa));
  PetscCall(VecRestoreArray(y, &ya));
  PetscCheck(st == FEINT_SUCCESS, PETSC_COMM_SELF, PETSC_ERR_LIB, "feint_operator_apply: %s",
             feint_last_error());
  PetscFunctionReturn(0);
}
static PetscErrorCode shell_diagonal(Mat S, Vec d) {
  feint_operator *op;
  PetscScalar *da;
  PetscFunctionBeginUser;
  PetscCall(MatShellGetContext(S, &op));
  PetscCall(VecGetArray(d, &da));
  const feint_status st = feint_operator_diagonal(op, da, 0);
  PetscCall(VecRestoreArray(d, &da));
  PetscCheck(st == FEINT_SUCCESS, PETSC_COMM_SELF, PETSC_ERR_LIB, "feint_operator_diagonal: %s",
             feint_last_error());
  PetscFunctionReturn(0);
}

int main(int argc, char **argv) {
  const char *msh = NULL;
  for (int a = 1; a < argc; a++) {
    if (strcmp(argv[a], "--quiet") == 0) quiet = 1;
    else if (argv[a][0] != '-') msh = argv[a];
  }
  PetscCall(PetscInitialize(&argc, &argv, NULL, NULL));
  PetscMPIInt rank, size;
  PetscCallMPI(MPI_Comm_rank(PETSC_COMM_WORLD, &rank));
  PetscCallMPI(MPI_Comm_size(PETSC_COMM_WORLD, &size));

  /* 1. every rank holds the mesh (a real code would read its part) */
  feint_mesh m;
  if (msh) FEINT_OK(feint_mesh_read_msh(msh, &m));
  else FEINT_OK(feint_mesh_box_create(FEINT_TET4, 12, 12, 12, FEINT_PERTURB_GENERAL, 0.15, 3, &m));
  size_t num_fixed;
  FEINT_OK(feint_mesh_orient(&m, &num_fixed));
  const size_t nv = m.num_vertices, ne = m.num_elem;
  feint_element_info ei;
  FEINT_OK(feint_element_get_info(FEINT_TET4, &ei));
  const size_t nq = (size_t)ei.num_qpts;
  double *f = malloc(ne * nq * sizeof(double)); /* f at the quadrature points */
  for (size_t e = 0; e < ne; e++)
    for (size_t q = 0; q < nq; q++) {
      double x[3] = {0, 0, 0};
      for (int n = 0; n < 4; n++)
        for (int c = 0; c < 3; c++) x[c] += ei.phi[q][n] * m.coords[3 * m.conn[4 * e + n] + c];
      f[e * nq + q] = source(x);
    }
  size_t nbc;
  uint32_t *bc;
  FEINT_OK(feint_mesh_face_vertices(&m, -1, &nbc, &bc));
  double *g = malloc(nbc * sizeof(double));
  for (size_t k = 0; k < nbc; k++) g[k] = exact(m.coords + 3 * bc[k]);

  /* 2. this rank's elements [e0, e1) as a sub-mesh with local vertex numbers */
  const size_t e0 = ne * (size_t)rank / (size_t)size, e1 = ne * (size_t)(rank + 1) / (size_t)size;
  uint32_t *g2l = malloc(nv * sizeof(uint32_t)), *l2g = malloc(nv * sizeof(uint32_t));
  for (size_t i = 0; i < nv; i++) g2l[i] = UINT32_MAX;
  size_t nl = 0;
  uint32_t *conn = malloc((e1 - e0) * 4 * sizeof(uint32_t));
  for (size_t e = e0; e < e1; e++)
    for (int k = 0; k < 4; k++) {
      const uint32_t v = m.conn[4 * e + k];
      if (g2l[v] == UINT32_MAX) l2g[nl] = v, g2l[v] = (uint32_t)nl++;
      conn[4 * (e - e0) + k] = g2l[v];
    }
  double *coords = malloc(nl * 3 * sizeof(double));
  for (size_t i = 0; i < nl; i++) memcpy(coords + 3 * i, m.coords + 3 * l2g[i], 3 * sizeof(double));
  feint_mesh part = {0};
  part.element = FEINT_TET4;
  part.num_vertices = nl;
  part.num_elem = e1 - e0;
  part.coords = coords;
  part.conn = conn;
  part.owns_arrays = 0;

  /* 3. feint integrates and assembles the part */
  const feint_integrate_desc desc = {FEINT_TET4, FEINT_POISSON, FEINT_QSS_GEO_LINEAR, 0, 0, 0, 0, 0};
  feint_csr Al;
  feint_assembly *plan;
  double *bl = malloc(nl * sizeof(double));
  FEINT_OK(feint_csr_create(&part, 1, &Al));
  FEINT_OK(feint_assembly_create(&part, &plan));
  FEINT_OK(feint_assemble(&desc, FEINT_ASSEMBLE_COLOURING, &part, plan, f + e0 * nq, &Al, bl));

  /* 4. into PETSc: COO with global indices, load vector added */
  int64_t *rows = malloc(Al.nnz * sizeof(int64_t));
  FEINT_OK(feint_csr_coo_rows(&Al, rows));
  PetscInt *ci = malloc(Al.nnz * sizeof(PetscInt)), *cj = malloc(Al.nnz * sizeof(PetscInt));
  for (size_t k = 0; k < Al.nnz; k++) {
    ci[k] = (PetscInt)l2g[rows[k]];
    cj[k] = (PetscInt)l2g[Al.col_idx[k]];
  }
  Mat A;
  PetscCall(MatCreate(PETSC_COMM_WORLD, &A));
  PetscCall(MatSetSizes(A, PETSC_DECIDE, PETSC_DECIDE, (PetscInt)nv, (PetscInt)nv));
  PetscCall(MatSetType(A, MATMPIAIJ));
  PetscCall(MatSetPreallocationCOO(A, (PetscCount)Al.nnz, ci, cj));
  PetscCall(MatSetValuesCOO(A, Al.values, ADD_VALUES));
  Vec b, u;
  PetscCall(MatCreateVecs(A, &u, &b));
  PetscCall(VecSet(b, 0.0));
  PetscInt *l2g_p = malloc(nl * sizeof(PetscInt));
  for (size_t i = 0; i < nl; i++) l2g_p[i] = (PetscInt)l2g[i];
  PetscCall(VecSetValues(b, (PetscInt)nl, l2g_p, bl, ADD_VALUES));
  PetscCall(VecAssemblyBegin(b));
  PetscCall(VecAssemblyEnd(b));
  /* Dirichlet: u = g on the boundary rows this rank owns, eliminated
   * symmetrically (unit diagonal; b_j -= a_ji g_i) */
  PetscInt r0, r1, nown = 0;
  PetscCall(MatGetOwnershipRange(A, &r0, &r1));
  PetscInt *own = malloc((nbc + 1) * sizeof(PetscInt));
  PetscCall(VecSet(u, 0.0));
  for (size_t k = 0; k < nbc; k++)
    if ((PetscInt)bc[k] >= r0 && (PetscInt)bc[k] < r1) {
      own[nown++] = (PetscInt)bc[k];
      PetscCall(VecSetValue(u, (PetscInt)bc[k], g[k], INSERT_VALUES));
    }
  PetscCall(VecAssemblyBegin(u));
  PetscCall(VecAssemblyEnd(u));
  PetscCall(MatZeroRowsColumns(A, nown, own, 1.0, u, b));
  PetscCall(MatSetOption(A, MAT_SPD, PETSC_TRUE));

  /* 5. KSPCG + GAMG, stopping as feint does: ||r|| <= rtol ||b|| */
  KSP ksp;
  PC pc;
  PetscCall(KSPCreate(PETSC_COMM_WORLD, &ksp));
  PetscCall(KSPSetOperators(ksp, A, A));
  PetscCall(KSPSetType(ksp, KSPCG));
  PetscCall(KSPGetPC(ksp, &pc));
  PetscCall(PCSetType(pc, PCGAMG));
  PetscCall(KSPSetNormType(ksp, KSP_NORM_UNPRECONDITIONED));
  PetscCall(KSPSetTolerances(ksp, RTOL, 0.0, PETSC_DEFAULT, 1000));
  PetscCall(KSPSetInitialGuessNonzero(ksp, PETSC_FALSE));
  PetscCall(KSPSetFromOptions(ksp));
  PetscCall(KSPSolve(ksp, b, u));
  KSPConvergedReason reason;
  PetscInt its;
  PetscCall(KSPGetConvergedReason(ksp, &reason));
  PetscCall(KSPGetIterationNumber(ksp, &its));
  /* the whole solution on rank 0 */
  VecScatter to0;
  Vec u0;
  PetscCall(VecScatterCreateToZero(u, &to0, &u0));
  PetscCall(VecScatterBegin(to0, u, u0, INSERT_VALUES, SCATTER_FORWARD));
  PetscCall(VecScatterEnd(to0, u, u0, INSERT_VALUES, SCATTER_FORWARD));

  /* 6. on rank 0: feint's serial solve, the comparison, and the MatShell */
  int ok = 1;
  if (rank == 0) {
    feint_operator *op;
    FEINT_OK(feint_operator_create(&desc, FEINT_OPERATOR_ASSEMBLED, FEINT_ASSEMBLE_COLOURING, &m,
                                   f, nbc, bc, &op));
    double *bf = malloc(nv * sizeof(double)), *uf = calloc(nv, sizeof(double));
    double *diag = malloc(nv * sizeof(double));
    FEINT_OK(feint_operator_rhs(op, g, bf));
    FEINT_OK(feint_operator_diagonal(op, diag, 0));
    const feint_solve_desc sd = {FEINT_SOLVER_PIPELINED_CG, FEINT_PC_JACOBI, RTOL, 10000, NULL};
    feint_solve_info info;
    FEINT_OK(feint_solve(op, &sd, bf, uf, &info));
    const double lam = lambda_low(&m, diag, nbc, bc), bnorm = norm2(bf, nv);
    const double r_feint = residual(op, bf, uf, nv);
    const PetscScalar *up;
    PetscCall(VecGetArrayRead(u0, &up));
    double dist = 0;
    for (size_t i = 0; i < nv; i++) dist += (up[i] - uf[i]) * (up[i] - uf[i]);
    dist = sqrt(dist);
    const double r_petsc = residual(op, bf, up, nv);
    PetscCall(VecRestoreArrayRead(u0, &up));
    /* 1 %: the round-off of evaluating the bound itself */
    const double bound = 1.01 * (r_petsc + r_feint) / lam;
    const int ok_mpi = reason > 0 && dist <= bound;

    /* the MatShell: feint's operator as PETSc's matrix, one rank */
    feint_operator *mf = NULL;
    const char *form = "matrix-free (recompute)";
    if (feint_operator_create(&desc, FEINT_OPERATOR_RECOMPUTE, FEINT_ASSEMBLE_COLOURING, &m, f, nbc,
                              bc, &mf) != FEINT_SUCCESS) {
      form = "assembled (no matrix-free form in this build)";
      FEINT_OK(feint_operator_create(&desc, FEINT_OPERATOR_ASSEMBLED, FEINT_ASSEMBLE_COLOURING,
                                     &m, f, nbc, bc, &mf));
    }
    Mat S;
    Vec bs, us;
    KSP ks;
    PC ps;
    PetscCall(MatCreateShell(PETSC_COMM_SELF, (PetscInt)nv, (PetscInt)nv, (PetscInt)nv,
                             (PetscInt)nv, mf, &S));
    PetscCall(MatShellSetOperation(S, MATOP_MULT, (void (*)(void))shell_mult));
    PetscCall(MatShellSetOperation(S, MATOP_GET_DIAGONAL, (void (*)(void))shell_diagonal));
    PetscCall(VecCreateSeqWithArray(PETSC_COMM_SELF, 1, (PetscInt)nv, bf, &bs));
    PetscCall(VecCreateSeq(PETSC_COMM_SELF, (PetscInt)nv, &us));
    PetscCall(KSPCreate(PETSC_COMM_SELF, &ks));
    PetscCall(KSPSetOperators(ks, S, S));
    PetscCall(KSPSetType(ks, KSPCG));
    PetscCall(KSPGetPC(ks, &ps));
    PetscCall(PCSetType(ps, PCJACOBI));
    PetscCall(KSPSetNormType(ks, KSP_NORM_UNPRECONDITIONED));
    PetscCall(KSPSetTolerances(ks, RTOL, 0.0, PETSC_DEFAULT, 10000));
    PetscCall(KSPSolve(ks, bs, us));
    KSPConvergedReason reason_s;
    PetscInt its_s;
    PetscCall(KSPGetConvergedReason(ks, &reason_s));
    PetscCall(KSPGetIterationNumber(ks, &its_s));
    const PetscScalar *usa;
    PetscCall(VecGetArrayRead(us, &usa));
    double dist_s = 0;
    for (size_t i = 0; i < nv; i++) dist_s += (usa[i] - uf[i]) * (usa[i] - uf[i]);
    dist_s = sqrt(dist_s);
    const double r_shell = residual(op, bf, usa, nv);
    PetscCall(VecRestoreArrayRead(us, &usa));
    const double bound_s = 1.01 * (r_shell + r_feint) / lam;
    const int ok_shell = reason_s > 0 && dist_s <= bound_s;
    ok = ok_mpi && ok_shell;
    if (!quiet) {
      printf("mesh: %s, %zu vertices, %zu tets, %zu boundary vertices; %d ranks\n",
             msh ? msh : "feint box 12^3", nv, ne, nbc, size);
      printf("PETSc MPIAIJ (COO from feint on %d ranks), KSPCG + GAMG: %d iterations, reason %d\n",
             size, (int)its, (int)reason);
      printf("feint serial, pipelined CG + Jacobi: %zu iterations, ||r||/||b|| = %.2e\n",
             info.iterations, info.residual_norm / info.rhs_norm);
      printf("||b - A u|| / ||b|| in feint's system: PETSc %.2e, feint %.2e; lambda_min >= %.3e\n",
             r_petsc / bnorm, r_feint / bnorm, lam);
      printf("||u_petsc - u_feint|| = %.3e <= (||r_petsc|| + ||r_feint||) / lambda_min = %.3e: %s\n",
             dist, bound, ok_mpi ? "match" : "MISMATCH");
      printf("PETSc MatShell (MatMult = feint_operator_apply, %s), KSPCG + Jacobi: %d "
             "iterations, ||u_shell - u_feint|| = %.3e <= %.3e: %s\n",
             form, (int)its_s, dist_s, bound_s, ok_shell ? "match" : "MISMATCH");
    }
    PetscCall(KSPDestroy(&ks));
    PetscCall(VecDestroy(&bs));
    PetscCall(VecDestroy(&us));
    PetscCall(MatDestroy(&S));
    feint_operator_destroy(mf);
    feint_operator_destroy(op);
    free(bf), free(uf), free(diag);
  }
  PetscCallMPI(MPI_Bcast(&ok, 1, MPI_INT, 0, PETSC_COMM_WORLD));

  PetscCall(VecScatterDestroy(&to0));
  PetscCall(VecDestroy(&u0));
  PetscCall(KSPDestroy(&ksp));
  PetscCall(VecDestroy(&u));
  PetscCall(VecDestroy(&b));
  PetscCall(MatDestroy(&A));
  feint_assembly_destroy(plan);
  feint_csr_destroy(&Al);
  free(rows), free(ci), free(cj), free(l2g_p), free(own), free(bl), free(coords), free(conn);
  free(g2l), free(l2g), free(f), free(bc), free(g);
  feint_mesh_destroy(&m);
  PetscCall(PetscFinalize());
  return ok ? 0 : 1;
}
#endif /* FEINT_HAVE_PETSC */
