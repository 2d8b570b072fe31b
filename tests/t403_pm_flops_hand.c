/* t403: feint's flop counts against totals counted by hand from the kernel
 * sources (src/kernel/geometry.h, physics.h, the six src/variant files), exact
 * integer equality. */
#include "pm_test_util.h"

static void expect(feint_element e, feint_problem p, feint_variant v, long long executed,
                   long long as_written, const char *what) {
  feint_pm_counts c;
  PM_CHECK_STATUS(feint_pm_counts_get(e, p, v, &c), FEINT_SUCCESS, NULL);
  CHECK(c.flops == executed, "%s: executed flops %lld, hand count %lld", what, c.flops, executed);
  CHECK(c.flops_as_written == as_written, "%s: as-written flops %lld, hand count %lld", what,
        c.flops_as_written, as_written);
}

int main(void) {
  /* Stage costs by hand (N_S = 4 tet, 6 prism; a sum of n terms = n-1 adds):
   *  Jacobian J[a][b] = sum_n x dphi: 9 entries x (N_S mul + N_S-1 add):
   *    tet 9 x 7 = 63, prism 9 x 11 = 99.
   *  feint_invert3: 9 x (2 mul + 1 sub) + (3 mul + 2 add) + 1 div + 9 mul = 42.
   *  vol = det * w: 1.   psi (one node): 3 x (3 mul + 2 add) = 15.
   *  update_A Poisson: 3 mul + 2 add = 5; conv-diff: 4 x (4 mul + 3 add) +
   *    (4 mul + 3 add) = 35.   update_b Poisson: 1; conv-diff: 7.
   *  accumulate (+= vol * u): 2. */

  /* tet4-poisson qss_geo_linear (Algorithm 3).
   * As written: J + inverse once (63 + 42 = 105), then per point (4):
   *   vol 1 + psi 4 x 15 = 60 + A 16 x (5 + 2) = 112 + b 4 x (1 + 2) = 12
   *   = 185; total 105 + 4 x 185 = 845.
   * Executed: the tet's reference gradients are the same at every point,
   *   so psi is computed once (60) and so is the Poisson integrand of each
   *   (r, s) (16 x 5 = 80); per point remain vol (4 x 1), the 16
   *   accumulations (4 x 16 x 2 = 128) and b (4 x 4 x 3 = 48):
   *   105 + 4 + 60 + 80 + 128 + 48 = 425. */
  expect(FEINT_TET4, FEINT_POISSON, FEINT_QSS_GEO_LINEAR, 425, 845, "tet4-poisson qss_geo_linear");

  /* prism6-poisson qss_geo_generic (Algorithm 2): per point (6):
   *   J 99 + inverse 42 + vol 1 + psi 6 x 15 = 90 + A 36 x 7 = 252 +
   *   b 6 x 3 = 18 = 502; total 6 x 502 = 3012, nothing repeated, so
   *   executed = as written. */
  expect(FEINT_PRISM6, FEINT_POISSON, FEINT_QSS_GEO_GENERIC, 3012, 3012,
         "prism6-poisson qss_geo_generic");

  /* tet4-convdiff ssq_geo_generic (Algorithm 6), as written: per (r, s, q),
   *   64 of them: J 63 + inverse 42 + vol 1 + psi_r, psi_s 30 + update 35 +
   *   accumulate 2 = 173 -> 11072; b on the diagonal, per (r, q), 16 of
   *   them: 7 + 2 = 9 -> 144; total 11216.
   * Executed: J + inverse once (105, same at every point), vol 4, psi once
   *   4 x 15 = 60, conv-diff integrand at every (q, r, s) since it uses the
   *   point values phi: 64 x 35 = 2240, accumulations 64 x 2 = 128, b 16 x 9
   *   = 144: total 2681. */
  expect(FEINT_TET4, FEINT_CONVDIFF, FEINT_SSQ_GEO_GENERIC, 2681, 11216,
         "tet4-convdiff ssq_geo_generic");

  /* prism6-convdiff sqs_geo_linear (Algorithm 5), as written: J + inverse
   *   once 99 + 42 = 141; psi at every (q, n): 36 x 15 = 540; per (r, q), 36
   *   of them: vol 1 + row 6 x (35 + 2) = 222 + b 7 + 2 = 9 -> 232 x 36 =
   *   8352; total 141 + 540 + 8352 = 9033.  Executed: vol once per point
   *   (6, not 36): 9033 - 30 = 9003. */
  expect(FEINT_PRISM6, FEINT_CONVDIFF, FEINT_SQS_GEO_LINEAR, 9003, 9033,
         "prism6-convdiff sqs_geo_linear");

  /* flops_useful: the minimum over the six variants. */
  for (int e = 0; e < FEINT_ELEMENT_COUNT; e++)
    for (int p = 0; p < FEINT_PROBLEM_COUNT; p++) {
      long long min = -1, useful = -1;
      for (int v = 0; v < FEINT_VARIANT_COUNT; v++) {
        feint_pm_counts c;
        PM_CHECK_STATUS(feint_pm_counts_get((feint_element)e, (feint_problem)p, (feint_variant)v, &c),
                        FEINT_SUCCESS, NULL);
        if (min < 0 || c.flops < min) min = c.flops;
        useful = c.flops_useful;
        CHECK(c.intensity_per_access * (double)c.global_accesses == (double)c.flops,
              "intensity of %d/%d/%d", e, p, v);
      }
      CHECK(useful == min, "element %d problem %d: useful %lld, min %lld", e, p, useful, min);
    }
  return test_finish("t403_pm_flops_hand");
}
