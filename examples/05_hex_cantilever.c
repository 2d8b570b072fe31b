/* 05_hex_cantilever - a cantilever beam of trilinear hexahedra (hex8,
 * 3-D isotropic linear elasticity) under a tip load, solved with feint's
 * operator and Jacobi-preconditioned CG on a sequence of nested meshes, and
 * its deflection compared with beam theory.
 *
 * The beam is [0, L] x [0, W] x [0, H] (L = 10, W = H = 1), clamped on
 * x = 0 (all three displacement components zero), with a uniform shear
 * traction of total force P in +z on the end face x = L.  Material: E = 1,
 * Poisson's ratio 0 (lambda = 0, mu = 1/2), so the cross-section does not
 * contract and the clamp adds no lateral constraint.  Timoshenko's tip
 * deflection is
 *     delta_T = P L^3 / (3 E I) + P L / (kappa G A),   I = W H^3 / 12,
 *     G = mu, A = W H, kappa = 10 (1 + nu) / (12 + 11 nu) = 5/6 at nu = 0
 * (the second term is 0.6% of the first at L/H = 10).
 *
 * The deflection measured is the load's work per unit load,
 * delta_h = F . u_h / P, with F the consistent nodal forces of the end-face
 * traction: the mean of u_z over the end face, weighted as the load is.
 * F . u_h = u_h^T A_h u_h is the compliance of the discrete problem, which
 * can only grow when the mesh is refined by halving (the spaces are nested),
 * and converges at order 2 in h for the trilinear element (order 2 for the
 * energy, which the compliance is).  Level k has 10 m x m x m cells with
 * m = 2^k (k = 0 .. levels-1): cubes of side 1/m.
 *
 * Checks (exit status 1 if any fails; the run must have >= 3 levels):
 *  - every solve converges to rtol 1e-10 (solver error far below the
 *    discretisation error);
 *  - delta_h grows strictly from level to level (nested spaces);
 *  - the observed order p = log2((d1 - d0) / (d2 - d1)) over the last three
 *    levels lies in [1.5, 2.5] (order 2 in the asymptotic range);
 *  - the Richardson limit d2 + (d2 - d1) / (2^p - 1) is within 1% of
 *    delta_T: the 3-D solution differs from the beam's by end effects of
 *    relative size O((H / L)^2) (the clamped face also stops the
 *    cross-section from warping), 1% at L / H = 10.
 *
 * Build: make examples
 * Run:   build/examples/05_hex_cantilever [--quiet] [--device]
 *          [--form assembled|recompute|precomputed] [levels [out.vtu]]
 *        levels defaults to 4 (up to 80 x 8 x 8 cells, 19,683 unknowns);
 *        out.vtu receives the finest solution (displacement as point data).
 */
#define _POSIX_C_SOURCE 199309L /* clock_gettime */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "feint.h"

enum { MAX_LEVELS = 6 };
static const double L = 10, W = 1, H = 1, P = 1e-3, MU = 0.5, LAMBDA = 0;

static double now_s(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

typedef struct {
  size_t cells, dofs, iterations;
  double delta, t_setup, t_solve;
} level_result;

/* One level: m cells through the height.  Returns 0 on success (converged),
 * 1 on failure (message printed unless quiet). */
static int solve_level(size_t m, feint_operator_form form, int device, int quiet,
                       const char *vtu, level_result *res) {
  double t0 = now_s();
  feint_mesh mesh;
  if (feint_mesh_box_create(FEINT_HEX8, 10 * m, m, m, FEINT_PERTURB_NONE, 0, 1, &mesh) !=
      FEINT_SUCCESS)
    goto fail_early;
  for (size_t v = 0; v < mesh.num_vertices; v++) {
    mesh.coords[3 * v + 0] *= L;
    mesh.coords[3 * v + 1] *= W;
    mesh.coords[3 * v + 2] *= H;
  }
  const size_t nv = mesh.num_vertices, ne = mesh.num_elem, n = 3 * nv;

  /* coefficients: lambda, mu and a zero body force at the 8 points */
  size_t per_elem;
  feint_array_entries(FEINT_HEX8, FEINT_ELASTICITY, FEINT_ARRAY_COEFFS, &per_elem);
  double *coeffs = calloc(ne * per_elem, sizeof(double));
  double *b = malloc(n * sizeof(double)), *u = calloc(n, sizeof(double));
  double *F = calloc(n, sizeof(double));
  for (size_t e = 0; e < ne; e++) coeffs[e * per_elem] = LAMBDA, coeffs[e * per_elem + 1] = MU;

  /* clamp: every component of every vertex on x = 0 (box face tag 1) */
  size_t nclamp;
  uint32_t *clamp;
  if (feint_mesh_face_vertices(&mesh, 1, &nclamp, &clamp) != FEINT_SUCCESS) goto fail;
  uint32_t *bc = malloc(3 * nclamp * sizeof(uint32_t));
  for (size_t k = 0; k < nclamp; k++)
    for (int c = 0; c < 3; c++) bc[3 * k + (size_t)c] = 3 * clamp[k] + (uint32_t)c;

  /* tip load: traction P / (W H) in +z on x = L (face tag 2); a bilinear
   * face of area a gives each of its 4 nodes a / 4 of its force */
  for (size_t f = 0; f < mesh.num_faces; f++) {
    if (mesh.face_tags[f] != 2) continue;
    const uint32_t *q = mesh.faces + 4 * f;
    const double *x0 = mesh.coords + 3 * q[0], *x2 = mesh.coords + 3 * q[2];
    const double *x1 = mesh.coords + 3 * q[1], *x3 = mesh.coords + 3 * q[3];
    double d1[3], d2[3];
    for (int c = 0; c < 3; c++) d1[c] = x2[c] - x0[c], d2[c] = x3[c] - x1[c];
    const double cr[3] = {d1[1] * d2[2] - d1[2] * d2[1], d1[2] * d2[0] - d1[0] * d2[2],
                          d1[0] * d2[1] - d1[1] * d2[0]};
    const double area = 0.5 * sqrt(cr[0] * cr[0] + cr[1] * cr[1] + cr[2] * cr[2]);
    for (int k = 0; k < 4; k++) F[3 * q[k] + 2] += P / (W * H) * area / 4;
  }

  const feint_integrate_desc desc = {FEINT_HEX8, FEINT_ELASTICITY, FEINT_QSS_GEO_LINEAR,
                                     FEINT_LAYOUT_NATURAL, FEINT_LAYOUT_NATURAL,
                                     FEINT_FLAG_ALLOW_HOST_FALLBACK,
                                     device ? FEINT_TARGET_DEVICE : FEINT_TARGET_HOST, 0};
  feint_operator *op;
  if (feint_operator_create(&desc, form, FEINT_ASSEMBLE_COLOURING, &mesh, coeffs, 3 * nclamp, bc,
                            &op) != FEINT_SUCCESS)
    goto fail;
  if (feint_operator_rhs(op, NULL, b) != FEINT_SUCCESS) goto fail_op;
  for (size_t i = 0; i < n; i++) b[i] += F[i]; /* F is zero on the clamped dofs */
  res->t_setup = now_s() - t0;

  t0 = now_s();
  const feint_solve_desc sd = {FEINT_SOLVER_CG, FEINT_PC_JACOBI, 1e-10, 100000, NULL};
  feint_solve_info info;
  if (feint_solve(op, &sd, b, u, &info) != FEINT_SUCCESS) goto fail_op;
  res->t_solve = now_s() - t0;

  double work = 0;
  for (size_t i = 0; i < n; i++) work += F[i] * u[i];
  res->delta = work / P;
  res->cells = ne, res->dofs = n, res->iterations = info.iterations;

  if (vtu) {
    const feint_vtu_field field = {"displacement", 3, u};
    if (feint_mesh_write_vtu(vtu, &mesh, 1, &field, 0, NULL) != FEINT_SUCCESS) goto fail_op;
  }
  feint_operator_destroy(op);
  free(coeffs), free(b), free(u), free(F), free(clamp), free(bc);
  feint_mesh_destroy(&mesh);
  return 0;

fail_op:
  feint_operator_destroy(op);
fail:
  feint_mesh_destroy(&mesh);
fail_early:
  if (!quiet) fprintf(stderr, "level with %zu cells through the height: %s\n", m,
                      feint_last_error());
  return 1; /* the process ends: the remaining buffers are not freed */
}

int main(int argc, char **argv) {
  int quiet = 0, device = 0, a = 1;
  feint_operator_form form = FEINT_OPERATOR_ASSEMBLED;
  for (; a < argc && strncmp(argv[a], "--", 2) == 0; a++) {
    if (strcmp(argv[a], "--quiet") == 0) quiet = 1;
    else if (strcmp(argv[a], "--device") == 0) device = 1;
    else if (strcmp(argv[a], "--form") == 0 && a + 1 < argc) {
      const char *f = argv[++a];
      if (strcmp(f, "assembled") == 0) form = FEINT_OPERATOR_ASSEMBLED;
      else if (strcmp(f, "recompute") == 0) form = FEINT_OPERATOR_RECOMPUTE;
      else if (strcmp(f, "precomputed") == 0) form = FEINT_OPERATOR_PRECOMPUTED;
      else goto usage;
    } else goto usage;
  }
  const int levels = a < argc ? atoi(argv[a]) : 4;
  const char *vtu = a + 1 < argc ? argv[a + 1] : NULL;
  if (levels < 3 || levels > MAX_LEVELS) goto usage;

  const double I = W * H * H * H / 12, kappa = 5.0 / 6.0;
  const double delta_T = P * L * L * L / (3 * (2 * MU) * I) + P * L / (kappa * MU * W * H);
  level_result r[MAX_LEVELS];
  int ok = 1;
  if (!quiet)
    printf("hex8 cantilever %g x %g x %g, E = 1, nu = 0, tip load %g; Timoshenko delta_T = %.6e\n"
           "%5s %9s %9s %6s %14s %9s %10s %10s\n",
           L, W, H, P, delta_T, "level", "cells", "unknowns", "CG it", "delta_h", "/delta_T",
           "setup [s]", "solve [s]");
  for (int k = 0; k < levels; k++) {
    if (solve_level((size_t)1 << k, form, device, quiet, k == levels - 1 ? vtu : NULL, &r[k]))
      return 1;
    if (!quiet)
      printf("%5d %9zu %9zu %6zu %14.8e %9.5f %10.3f %10.3f\n", k, r[k].cells, r[k].dofs,
             r[k].iterations, r[k].delta, r[k].delta / delta_T, r[k].t_setup, r[k].t_solve);
    if (k > 0 && !(r[k].delta > r[k - 1].delta)) ok = 0;
  }
  const double d0 = r[levels - 3].delta, d1 = r[levels - 2].delta, d2 = r[levels - 1].delta;
  const double p = log2((d1 - d0) / (d2 - d1));
  const double limit = d2 + (d2 - d1) / (pow(2, p) - 1);
  const double rel = fabs(limit - delta_T) / delta_T;
  if (!(p >= 1.5 && p <= 2.5) || !(rel <= 0.01)) ok = 0;
  if (!quiet) {
    printf("observed order (last three levels) %.3f, Richardson limit %.6e = %.5f delta_T "
           "(|difference| %.3f%%, allowed 1%%)\n",
           p, limit, limit / delta_T, 100 * rel);
    printf("%s\n", ok ? "ok: converges to beam theory" : "FAILED");
    if (vtu) printf("wrote %s (point data: displacement)\n", vtu);
  }
  return ok ? 0 : 1;

usage:
  fprintf(stderr,
          "usage: %s [--quiet] [--device] [--form assembled|recompute|precomputed] "
          "[levels (3..%d) [out.vtu]]\n",
          argv[0], MAX_LEVELS);
  return 2;
}
