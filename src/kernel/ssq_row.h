/*
 * kernel/ssq_row.h - the S-S-Q loop nest of both SSQ variants (Algorithms 6
 * and 7 of seed 000), over the element's terms computed beforehand.
 *
 * An SSQ variant runs in two stages: its terms function fills P with the
 * values and global derivatives of every shape function at every point and
 * with det J (geo_linear: one Jacobian) or each point's vol = det J(q) w_q
 * (geo_generic: a Jacobian per point); then feint_ssq_row gives node
 * row r of A^e and b^e from P, entry by entry, each summed over the points
 * and stored at once.  Two stages let the host driver run each node row as
 * its own lane loop and stream finished rows out while the next computes
 * (kernel/driver.h, "Node row by node row").
 */
#ifndef FEINT_KERNEL_SSQ_ROW_H
#define FEINT_KERNEL_SSQ_ROW_H

#include "kernel/geometry.h"
#include "kernel/physics.h"

FEINT_DECLARE_TARGET_BEGIN

/* The terms of one element, at P[k * ps]: the value and global derivatives
 * of shape function n at point q at k = N_Q + 4 (q N_S + n) + c (c = 0:
 * value, 1..3: d/dx_c), and before them at k = q the point's vol = det J(q)
 * w_q, or only det J at k = 0 where the variant has one Jacobian
 * (one_jacobian: vol = det J w_q is formed in the row, as a multiplication
 * by a constant; loaded from P instead, hex8 elasticity executed 3% more
 * instructions, callgrind; or taken out of the sums, each entry multiplied
 * by vol once: feint_vol_outside, physics.h). */
#define FEINT_SSQ_TERMS_LEN (FEINT_MAX_QPTS * (1 + 4 * FEINT_MAX_NODES))
FEINT_INLINE void feint_ssq_store_psi(const int et, const int q, const double Jinv[3][3], double *P,
                                      const int ps) {
  const int ns = feint_elem_nodes(et), nq = feint_elem_qpts(et);
  FEINT_UNROLL
  for (int n = 0; n < ns; n++) {
    double psi[4];
    feint_shape_psi(et, q, n, Jinv, psi);
    FEINT_UNROLL
    for (int c = 0; c < 4; c++) P[(nq + 4 * (q * ns + n) + c) * ps] = psi[c];
  }
}

/* Node row r (one_jacobian: a literal, as above): the blocks (r, s) of A^e,
 * each summed over the points and stored at once, and b^e's entries of node r.
 * Symmetric problems evaluate s >= r only and store each block twice, at (r, s)
 * and transposed at (s, r), so rows 0..r are final once rows 0..r have run. */
FEINT_INLINE void feint_ssq_row(const int et, const int pb, const int one_jacobian, const int r,
                                const double *P, const int ps, const feint_coefs *coef, double *A,
                                double *b, const int out_stride) {
  const int ns = feint_elem_nodes(et), nq = feint_elem_qpts(et);
  const int nc = feint_problem_comps(pb), nd = nc * ns; /* components, dofs */
  /* elasticity's block form (physics.h): the S form where lambda, mu are per
   * element, else hoisted on prisms and hexahedra and fused on tet4 */
  const int form = pb == FEINT_ELASTICITY ? 3 : ns > 4 ? 2 : 1;
  const int sym = feint_problem_symmetric(pb);
  /* one Jacobian: vol after the sums where it is the same at every point
   * (physics.h) */
  const int vo = one_jacobian && feint_vol_outside(et, pb);
  FEINT_UNROLL
  for (int s = 0; s < ns; s++) {
    if (sym && s < r) continue; /* stored by row s */
    double a[FEINT_MAX_COMPS][FEINT_MAX_COMPS] = {{0}}, br[FEINT_MAX_COMPS] = {0};
    FEINT_UNROLL
    for (int q = 0; q < nq; q++) {
      const double vol = vo ? 1.0 : one_jacobian ? P[0] * feint_elem_qwt(et, q) : P[q * ps];
      double psi_r[4], psi_s[4];
      FEINT_UNROLL
      for (int c = 0; c < 4; c++) {
        psi_r[c] = P[(nq + 4 * (q * ns + r) + c) * ps];
        psi_s[c] = P[(nq + 4 * (q * ns + s) + c) * ps];
      }
      feint_update_block(pb, q, coef, vol, psi_r, psi_s, &a[0][0], FEINT_MAX_COMPS, form);
      if (r == s) feint_update_load(pb, q, coef, vol, psi_r, br);
    }
    feint_finish_block(pb, coef, &a[0][0], FEINT_MAX_COMPS, form);
    const double v = vo ? P[0] * feint_elem_qwt(et, 0) : 1.0; /* (x * 1.0 folds) */
    FEINT_UNROLL
    for (int i = 0; i < nc; i++) {
      FEINT_UNROLL
      for (int j = 0; j < nc; j++) {
        A[((nc * r + i) * nd + nc * s + j) * out_stride] = v * a[i][j];
        if (sym && s > r) A[((nc * s + j) * nd + nc * r + i) * out_stride] = v * a[i][j];
      }
      if (r == s) b[(nc * r + i) * out_stride] = v * br[i];
    }
  }
}

FEINT_DECLARE_TARGET_END

#endif
