/* poisson_mms.h - the manufactured-solution Poisson problem of the
 * convergence tests (t704 through the assembly, t903 through the solver):
 *   u = sin(pi x) sin(pi y) sin(pi z) + x + 2y + 3z,  -lap u = 3 pi^2 sin sin sin
 * on the unit box, its source at the quadrature points of a mesh, and the
 * L2 error of a P1 function on a tetrahedral mesh, integrated with a
 * collapsed (Duffy) 4x4x4 Gauss rule on every tetrahedron, exact to degree
 * 7 in the reference coordinates, so the error measure is far more accurate
 * than the error it measures. */
#ifndef FEINT_TEST_POISSON_MMS_H
#define FEINT_TEST_POISSON_MMS_H

#include <math.h>
#include <stdlib.h>

#include "feint.h"

#define MMS_PI 3.14159265358979323846

static inline double mms_exact(const double x[3]) {
  return sin(MMS_PI * x[0]) * sin(MMS_PI * x[1]) * sin(MMS_PI * x[2]) + x[0] + 2 * x[1] + 3 * x[2];
}
static inline double mms_source(const double x[3]) {
  return 3 * MMS_PI * MMS_PI * sin(MMS_PI * x[0]) * sin(MMS_PI * x[1]) * sin(MMS_PI * x[2]);
}

/* The Poisson coefficients of a mesh: f at every quadrature point,
 * [num_elem][N_Q] (natural layout); malloc'd. */
static inline double *mms_source_coeffs(const feint_mesh *m) {
  feint_element_info ei;
  feint_element_get_info(m->element, &ei);
  const size_t ns = (size_t)ei.num_nodes, nq = (size_t)ei.num_qpts;
  double *f = malloc(m->num_elem * nq * sizeof(double));
  if (!f) return NULL;
  for (size_t e = 0; e < m->num_elem; e++)
    for (size_t q = 0; q < nq; q++) {
      double x[3] = {0, 0, 0};
      for (size_t n = 0; n < ns; n++)
        for (int a = 0; a < 3; a++) x[a] += ei.phi[q][n] * m->coords[3 * m->conn[ns * e + n] + a];
      f[nq * e + q] = mms_source(x);
    }
  return f;
}

/* L2 error of the P1 function u_h on a tetrahedral mesh. */
static inline double mms_l2_error(const feint_mesh *m, const double *uh) {
  static const double gx[4] = {0.0694318442029737, 0.3300094782075719, 0.6699905217924281,
                               0.9305681557970263};
  static const double gw[4] = {0.1739274225687269, 0.3260725774312731, 0.3260725774312731,
                               0.1739274225687269};
  double err2 = 0;
  for (size_t e = 0; e < m->num_elem; e++) {
    const uint32_t *v = m->conn + 4 * e;
    const double *x0 = m->coords + 3 * v[0];
    double J[3][3];
    for (int a = 0; a < 3; a++)
      for (int c = 0; c < 3; c++) J[a][c] = m->coords[3 * v[c + 1] + a] - x0[a];
    const double det = J[0][0] * (J[1][1] * J[2][2] - J[1][2] * J[2][1]) -
                       J[0][1] * (J[1][0] * J[2][2] - J[1][2] * J[2][0]) +
                       J[0][2] * (J[1][0] * J[2][1] - J[1][1] * J[2][0]);
    for (int i = 0; i < 4; i++)
      for (int j = 0; j < 4; j++)
        for (int k = 0; k < 4; k++) {
          const double a = gx[i], bq = gx[j], c = gx[k];
          const double xi[3] = {a, bq * (1 - a), c * (1 - a) * (1 - bq)};
          const double w = gw[i] * gw[j] * gw[k] * (1 - a) * (1 - a) * (1 - bq);
          const double lam[4] = {1 - xi[0] - xi[1] - xi[2], xi[0], xi[1], xi[2]};
          double x[3], u = 0;
          for (int d = 0; d < 3; d++) x[d] = x0[d] + J[d][0] * xi[0] + J[d][1] * xi[1] + J[d][2] * xi[2];
          for (int n = 0; n < 4; n++) u += lam[n] * uh[v[n]];
          const double diff = u - mms_exact(x);
          err2 += w * fabs(det) * diff * diff;
        }
  }
  return sqrt(err2);
}

#endif /* FEINT_TEST_POISSON_MMS_H */
