/* 03_gmsh_poisson - from a Gmsh mesh to a solution: read a .msh file (MSH
 * 4.1, tetrahedra, boundary faces in a physical group), solve the Poisson
 * problem -lap u = f with Dirichlet data u = g on every boundary face for
 * the manufactured solution
 *     u = sin(pi x) sin(pi y) sin(pi z) + x + 2y + 3z,   f = 3 pi^2 sin sin sin
 * (the load f is given at the quadrature points of every element), with
 * feint's assembled operator and Jacobi-preconditioned pipelined CG, and
 * write the solution, the exact solution and the error to a .vtu file for
 * ParaView.  Prints the time of each phase, the iterations, the residual,
 * and the largest nodal error beside its a-priori bound.
 *
 * Build: make examples   (installed, with the compiler that built feint:
 *          $(pkg-config --variable=compiler feint) $(pkg-config --cflags feint)
 *          03_gmsh_poisson.c $(pkg-config --libs feint))
 * Mesh:  gmsh -3 -format msh41 -clmax 0.1 examples/data/unit_box.geo -o box.msh
 * Run:   build/examples/03_gmsh_poisson [--quiet] [--device] [box.msh [out.vtu]]
 *        without a mesh file: feint's own 8 x 8 x 8 box mesh (no file written
 *        unless out.vtu is given after it as "-").  --device: the operator
 *        and the solver's vectors on the first GPU (host fallback without
 *        one).  --quiet prints nothing; exit 0 if the solver converged and
 *        the nodal error is within its bound, 1 otherwise.
 */
#define _POSIX_C_SOURCE 199309L /* clock_gettime */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "feint.h"

#define PI 3.14159265358979323846

static double exact(const double x[3]) {
  return sin(PI * x[0]) * sin(PI * x[1]) * sin(PI * x[2]) + x[0] + 2 * x[1] + 3 * x[2];
}
static double source(const double x[3]) {
  return 3 * PI * PI * sin(PI * x[0]) * sin(PI * x[1]) * sin(PI * x[2]);
}

static double now_s(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static int fail(int quiet, const char *what) {
  if (!quiet) fprintf(stderr, "%s: %s\n", what, feint_last_error());
  return 1;
}

int main(int argc, char **argv) {
  int quiet = 0, device = 0, a = 1;
  for (; a < argc && strncmp(argv[a], "--", 2) == 0; a++) {
    if (strcmp(argv[a], "--quiet") == 0) quiet = 1;
    else if (strcmp(argv[a], "--device") == 0) device = 1;
    else {
      fprintf(stderr, "usage: %s [--quiet] [--device] [mesh.msh [out.vtu]]\n", argv[0]);
      return 2;
    }
  }
  const char *msh = a < argc ? argv[a] : NULL, *vtu = a + 1 < argc ? argv[a + 1] : NULL;

  /* 1. the mesh */
  double t0 = now_s();
  feint_mesh m;
  if (msh) {
    if (feint_mesh_read_msh(msh, &m) != FEINT_SUCCESS) return fail(quiet, "read");
  } else if (feint_mesh_box_create(FEINT_TET4, 8, 8, 8, FEINT_PERTURB_GENERAL, 0.15, 1, &m) !=
             FEINT_SUCCESS) {
    return fail(quiet, "box");
  }
  size_t num_fixed;
  if (feint_mesh_orient(&m, &num_fixed) != FEINT_SUCCESS) return fail(quiet, "orient");
  /* Gmsh numbers vertices and elements in no order that keeps neighbours
   * near each other; along a Hilbert curve, assembly on a 2.3 M-tet Gmsh
   * mesh took 28 instead of 196 ns per tet (one Zen 4 core, README "Where the
   * time goes").  Everything below is computed from the renumbered mesh, so
   * no data has to follow the permutation (pass arrays instead of NULL to
   * get it). */
  if (feint_mesh_renumber(&m, FEINT_RENUMBER_VERTICES | FEINT_RENUMBER_ELEMENTS, NULL, NULL) !=
      FEINT_SUCCESS)
    return fail(quiet, "renumber");
  const double t_read = now_s() - t0;
  if (m.element != FEINT_TET4) {
    if (!quiet) fprintf(stderr, "this example solves on tetrahedra; the mesh has another type\n");
    feint_mesh_destroy(&m);
    return 1;
  }
  const size_t nv = m.num_vertices, ne = m.num_elem;

  /* 2. the data: f at the quadrature points, g on the boundary vertices */
  t0 = now_s();
  feint_element_info ei;
  feint_element_get_info(FEINT_TET4, &ei);
  double *f = malloc(ne * (size_t)ei.num_qpts * sizeof(double));
  double *b = malloc(nv * sizeof(double)), *u = calloc(nv, sizeof(double));
  double h_max = 0; /* longest edge: the error bound's h */
  for (size_t e = 0; e < ne; e++) {
    const uint32_t *v = m.conn + 4 * e;
    for (int q = 0; q < ei.num_qpts; q++) {
      double x[3] = {0, 0, 0};
      for (int n = 0; n < 4; n++)
        for (int c = 0; c < 3; c++) x[c] += ei.phi[q][n] * m.coords[3 * v[n] + c];
      f[e * (size_t)ei.num_qpts + (size_t)q] = source(x);
    }
    for (int i = 0; i < 4; i++)
      for (int j = i + 1; j < 4; j++) {
        double d2 = 0;
        for (int c = 0; c < 3; c++) {
          const double d = m.coords[3 * v[i] + c] - m.coords[3 * v[j] + c];
          d2 += d * d;
        }
        if (d2 > h_max * h_max) h_max = sqrt(d2);
      }
  }
  size_t nbc;
  uint32_t *bc;
  if (feint_mesh_face_vertices(&m, -1, &nbc, &bc) != FEINT_SUCCESS)
    return fail(quiet, "boundary vertices");
  double *g = malloc(nbc * sizeof(double));
  for (size_t k = 0; k < nbc; k++) g[k] = exact(m.coords + 3 * bc[k]);

  /* 3. the operator (assembled CSR, Dirichlet eliminated) and its rhs */
  const feint_integrate_desc desc = {FEINT_TET4, FEINT_POISSON, FEINT_QSS_GEO_LINEAR,
                                     FEINT_LAYOUT_NATURAL, FEINT_LAYOUT_NATURAL,
                                     FEINT_FLAG_ALLOW_HOST_FALLBACK,
                                     device ? FEINT_TARGET_DEVICE : FEINT_TARGET_HOST, 0};
  feint_operator *op;
  if (feint_operator_create(&desc, FEINT_OPERATOR_ASSEMBLED, FEINT_ASSEMBLE_COLOURING, &m, f, nbc,
                            bc, &op) != FEINT_SUCCESS)
    return fail(quiet, "operator");
  if (feint_operator_rhs(op, g, b) != FEINT_SUCCESS) return fail(quiet, "rhs");
  const double t_setup = now_s() - t0;

  /* 4. solve */
  t0 = now_s();
  const feint_solve_desc sd = {FEINT_SOLVER_PIPELINED_CG, FEINT_PC_JACOBI, 1e-8, 10000, NULL};
  feint_solve_info info;
  const feint_status st = feint_solve(op, &sd, b, u, &info);
  const double t_solve = now_s() - t0;
  if (st != FEINT_SUCCESS) return fail(quiet, "solve");

  /* 5. the error at the vertices, and the output file */
  double *ue = malloc(nv * sizeof(double)), *err = malloc(nv * sizeof(double)), err_max = 0;
  for (size_t i = 0; i < nv; i++) {
    ue[i] = exact(m.coords + 3 * i);
    err[i] = u[i] - ue[i];
    if (fabs(err[i]) > err_max) err_max = fabs(err[i]);
  }
  t0 = now_s();
  if (vtu && strcmp(vtu, "-") != 0) {
    const feint_vtu_field fields[3] = {{"u", 1, u}, {"u_exact", 1, ue}, {"error", 1, err}};
    if (feint_mesh_write_vtu(vtu, &m, 3, fields, 0, NULL) != FEINT_SUCCESS)
      return fail(quiet, "write");
  }
  const double t_write = now_s() - t0;
  /* A generous a-priori bound of the nodal error (it catches a wrong
   * solution, not a loss of accuracy: t903 measures the convergence order):
   * the P1 interpolation error h^2 / 2 max |D^2 u| (|D^2 u| <= 3 pi^2 for
   * the sine part; the linear part is reproduced exactly), times 2 for the
   * Galerkin projection on these quasi-uniform meshes. */
  const double bound = h_max * h_max * 3 * PI * PI;
  const int ok = info.converged && err_max <= bound;
  if (!quiet) {
    feint_operator_info oi;
    feint_operator_get_info(op, &oi);
    printf("mesh: %s, %zu vertices, %zu tets, %zu boundary vertices, %zu elements reoriented, "
           "h_max = %.4f\n",
           msh ? msh : "feint box 8x8x8", nv, ne, nbc, num_fixed, h_max);
    printf("operator: assembled CSR on the %s%s\n",
           oi.target == FEINT_TARGET_DEVICE ? "device" : "host",
           device && oi.target != FEINT_TARGET_DEVICE ? " (host fallback: no GPU)" : "");
    printf("pipelined CG + Jacobi: %zu iterations, ||r|| / ||b|| = %.3e (rtol %.0e)\n",
           info.iterations, info.residual_norm / info.rhs_norm, sd.rtol);
    printf("max nodal error |u_h - u| = %.4e (bound 3 pi^2 h_max^2 = %.4e): %s\n", err_max, bound,
           ok ? "ok" : "TOO LARGE");
    printf("time [s]: read %.4f  set-up (data, assemble, rhs) %.4f  solve %.4f  write %.4f\n",
           t_read, t_setup, t_solve, t_write);
    if (vtu && strcmp(vtu, "-") != 0) printf("wrote %s (point data u, u_exact, error)\n", vtu);
  }
  feint_operator_destroy(op);
  free(f), free(b), free(u), free(g), free(bc), free(ue), free(err);
  feint_mesh_destroy(&m);
  return ok ? 0 : 1;
}
