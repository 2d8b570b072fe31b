/*
 * reference.c - the serial reference implementation: the judge of every
 * variant.  Plain loops over elements, quadrature points, shape functions and
 * coefficient indices, written directly from formulas (6)-(9) of seed 000,
 * natural layout only, no OpenMP, no kernel helpers: it shares only the
 * reference-element tables (tested on their own in t1xx).  Variants never
 * edit it.
 *
 * Variable coefficients: poisson_kappa is c = kappa_q I on the derivatives
 * and d_0 = f_q at point q; elasticity_qp takes lambda, mu, f from the
 * record of point q.
 *
 * Linear elasticity (3 dofs per node, dof 3 v + c) from its definition:
 * with v = phi_r e_i, u = phi_s e_j, grad v = e_i (x) g_r, the integrand
 * lambda div u div v + 2 mu eps(u) : eps(v) = lambda tr(grad u) tr(grad v)
 * + mu (grad u : grad v + grad u^T : grad v), each term evaluated as a sum
 * over the 3x3 gradient entries.
 */
#include <math.h>
#include <string.h>

#include "feint_internal.h"

/* Solve J^T g = dref for the global gradient g (Cramer's rule); returns det J. */
static double reference_gradient(const double J[3][3], const double dref[3], double g[3]) {
  /* J^T[i][j] = J[j][i]; det(J^T) = det(J) */
  double M[3][3];
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++) M[i][j] = J[j][i];
  const double det = M[0][0] * (M[1][1] * M[2][2] - M[1][2] * M[2][1]) -
                     M[0][1] * (M[1][0] * M[2][2] - M[1][2] * M[2][0]) +
                     M[0][2] * (M[1][0] * M[2][1] - M[1][1] * M[2][0]);
  for (int c = 0; c < 3; c++) {
    double Mc[3][3];
    memcpy(Mc, M, sizeof Mc);
    for (int i = 0; i < 3; i++) Mc[i][c] = dref[i];
    const double dc = Mc[0][0] * (Mc[1][1] * Mc[2][2] - Mc[1][2] * Mc[2][1]) -
                      Mc[0][1] * (Mc[1][0] * Mc[2][2] - Mc[1][2] * Mc[2][0]) +
                      Mc[0][2] * (Mc[1][0] * Mc[2][1] - Mc[1][1] * Mc[2][0]);
    g[c] = dc / det;
  }
  return det;
}

/* Elasticity at one point: grad v[a][c] = d(v_a)/dx_c for v = phi_r e_i is
 * delta_ai g_r[c].  A[3r+i][3s+j] += vol (lambda tr(gu) tr(gv) + mu sum_ac
 * (gu[a][c] gv[a][c] + gu[c][a] gv[a][c])), b[3r+i] += vol f_i phi_r; the
 * abs sums take every factor by its scale (psi_abs). */
static void elastic_point(int ns, double lambda, double mu, const double f[3], double vol,
                          double vol_abs, const double *phi, const double psi[][4],
                          const double psi_abs[][4], double *A, double *b, double *Aa,
                          double *ba) {
  const int nd = 3 * ns;
  for (int r = 0; r < ns; r++)
    for (int i = 0; i < 3; i++) {
      for (int s = 0; s < ns; s++)
        for (int j = 0; j < 3; j++) {
          double t = 0.0, t_abs = 0.0; /* the integrand without vol */
          /* lambda div u div v: tr(gu) = g_s[j], tr(gv) = g_r[i] */
          t += lambda * psi[s][1 + j] * psi[r][1 + i];
          t_abs += fabs(lambda) * psi_abs[s][1 + j] * psi_abs[r][1 + i];
          for (int a = 0; a < 3; a++)
            for (int c = 0; c < 3; c++) {
              const double gv = a == i ? psi[r][1 + c] : 0.0;
              const double gu = a == j ? psi[s][1 + c] : 0.0;   /* gu[a][c] */
              const double guT = c == j ? psi[s][1 + a] : 0.0;  /* gu[c][a] */
              const double gv_abs = a == i ? psi_abs[r][1 + c] : 0.0;
              const double gu_abs = a == j ? psi_abs[s][1 + c] : 0.0;
              const double guT_abs = c == j ? psi_abs[s][1 + a] : 0.0;
              t += mu * (gu * gv + guT * gv);
              t_abs += fabs(mu) * (gu_abs * gv_abs + guT_abs * gv_abs);
            }
          A[(3 * r + i) * nd + 3 * s + j] += vol * t;
          if (Aa) Aa[(3 * r + i) * nd + 3 * s + j] += vol_abs * t_abs;
        }
      b[3 * r + i] += vol * f[i] * phi[r];
      if (ba) ba[3 * r + i] += vol_abs * fabs(f[i]) * fabs(phi[r]);
    }
}

feint_status feint_integrate_reference(feint_element element, feint_problem problem,
                                       size_t num_elem, const double *geometry,
                                       const double *coeffs, double *A_e, double *b_e,
                                       double *A_abs, double *b_abs) {
  feint_element_info ei;
  size_t ncoef;
  FEINT_CALL(feint_element_get_info(element, &ei));
  FEINT_CALL(feint_array_entries(element, problem, FEINT_ARRAY_COEFFS, &ncoef));
  if (num_elem == 0) return FEINT_SUCCESS;
  FEINT_CHECK(geometry && coeffs && A_e && b_e, FEINT_ERR_NULL_ARG,
              "geometry, coeffs, A_e and b_e must be non-NULL with num_elem = %zu", num_elem);
  /* every array's size, inputs included: an overflowing coefficient count
   * must not let the loop below run past the end of coeffs */
  for (int k = 0; k < FEINT_ARRAY_COUNT; k++) {
    size_t len;
    FEINT_CALL(feint_array_len(element, problem, (feint_array)k, FEINT_LAYOUT_NATURAL, num_elem,
                               &len));
  }
  const int ns = ei.num_nodes, nq = ei.num_qpts;
  const int elastic = problem == FEINT_ELASTICITY || problem == FEINT_ELASTICITY_QP;
  const int nc = elastic ? 3 : 1, nd = nc * ns;

  for (size_t e = 0; e < num_elem; e++) {
    const double *x = geometry + e * 3 * (size_t)ns;
    const double *cf = coeffs + e * ncoef;
    double c[4][4] = {{0}}, d[4] = {0};
    if (problem == FEINT_CONVDIFF) {
      for (int i = 0; i < 4; i++) {
        for (int j = 0; j < 4; j++) c[i][j] = cf[4 * i + j];
        d[i] = cf[16 + i];
      }
    } else {
      c[1][1] = c[2][2] = c[3][3] = 1.0;
    }
    double *A = A_e + e * (size_t)(nd * nd), *b = b_e + e * (size_t)nd;
    double *Aa = A_abs ? A_abs + e * (size_t)(nd * nd) : NULL;
    double *ba = b_abs ? b_abs + e * (size_t)nd : NULL;
    for (int k = 0; k < nd * nd; k++) {
      A[k] = 0.0;
      if (Aa) Aa[k] = 0.0;
    }
    for (int r = 0; r < nd; r++) {
      b[r] = 0.0;
      if (ba) ba[r] = 0.0;
    }
    for (int q = 0; q < nq; q++) {
      double J[3][3] = {{0}};
      for (int a = 0; a < 3; a++)
        for (int bb = 0; bb < 3; bb++)
          for (int n = 0; n < ns; n++) J[a][bb] += x[3 * n + a] * ei.dphi[q][n][bb];
      double psi[FEINT_MAX_NODES][4], psi_abs[FEINT_MAX_NODES][4], det = 0.0;
      for (int n = 0; n < ns; n++) {
        psi[n][0] = ei.phi[q][n];
        det = reference_gradient(J, ei.dphi[q][n], &psi[n][1]);
      }
      /* |psi|: the scale of the round-off in each derivative.  An entry of J
       * is a sum sum_n x_n dphi_n that cancels (|J| ~ h while |x| ~ 1 for a
       * small element far from the origin): its error is eps J_abs with
       * J_abs = sum_n |x_n| |dphi_n|.  A derivative sum_b dphi_b (J^-1)_b,a,
       * with (J^-1)_b,a = C_a,b / det (C the cofactors), may cancel to ~0
       * while each cofactor carries an error of eps (J_abs J_abs + J_abs
       * J_abs) and det an error of eps det_abs.  So psi_abs uses
       * |C|_abs / |det| (1 + det_abs / |det|) in place of (J^-1), and the
       * volume factor |w| (|det| + det_abs) in place of |vol|. */
      double J_abs[3][3] = {{0}}, cof_abs[3][3], det_abs = 0.0;
      for (int a = 0; a < 3; a++)
        for (int bb = 0; bb < 3; bb++)
          for (int n = 0; n < ns; n++) J_abs[a][bb] += fabs(x[3 * n + a] * ei.dphi[q][n][bb]);
      for (int a = 0; a < 3; a++)
        for (int bb = 0; bb < 3; bb++) {
          const int a1 = (a + 1) % 3, a2 = (a + 2) % 3, b1 = (bb + 1) % 3, b2 = (bb + 2) % 3;
          cof_abs[a][bb] = J_abs[a1][b1] * J_abs[a2][b2] + J_abs[a1][b2] * J_abs[a2][b1];
        }
      for (int bb = 0; bb < 3; bb++) det_abs += J_abs[0][bb] * cof_abs[0][bb];
      const double vol_abs = fabs(ei.qwts[q]) * (fabs(det) + det_abs);
      const double inv_scale = (1.0 + det_abs / fabs(det)) / fabs(det);
      for (int n = 0; n < ns; n++) {
        psi_abs[n][0] = fabs(ei.phi[q][n]);
        for (int a = 0; a < 3; a++) {
          psi_abs[n][1 + a] = 0.0;
          for (int bb = 0; bb < 3; bb++)
            psi_abs[n][1 + a] += fabs(ei.dphi[q][n][bb]) * cof_abs[a][bb] * inv_scale;
        }
      }
      const double vol = det * ei.qwts[q];
      if (problem == FEINT_ELASTICITY) {
        elastic_point(ns, cf[0], cf[1], cf + 2 + 3 * q, vol, vol_abs, ei.phi[q], psi, psi_abs, A,
                      b, Aa, ba);
        continue;
      }
      if (problem == FEINT_ELASTICITY_QP) { /* record q: lambda, mu, f_x, f_y, f_z */
        const double *rec = cf + 5 * q;
        elastic_point(ns, rec[0], rec[1], rec + 2, vol, vol_abs, ei.phi[q], psi, psi_abs, A, b,
                      Aa, ba);
        continue;
      }
      if (problem == FEINT_POISSON) d[0] = cf[q];
      if (problem == FEINT_POISSON_KAPPA) { /* record q: kappa, f */
        c[1][1] = c[2][2] = c[3][3] = cf[2 * q];
        d[0] = cf[2 * q + 1];
      }
      for (int r = 0; r < ns; r++) {
        for (int s = 0; s < ns; s++)
          for (int i = 0; i < 4; i++)
            for (int j = 0; j < 4; j++) {
              const double t = vol * c[i][j] * psi[r][i] * psi[s][j];
              A[r * ns + s] += t;
              if (Aa) Aa[r * ns + s] += vol_abs * fabs(c[i][j]) * psi_abs[r][i] * psi_abs[s][j];
            }
        for (int i = 0; i < 4; i++) {
          const double t = vol * d[i] * psi[r][i];
          b[r] += t;
          if (ba) ba[r] += vol_abs * fabs(d[i]) * psi_abs[r][i];
        }
      }
    }
  }
  return FEINT_SUCCESS;
}
