/* t403: feint's flop counts against totals counted by hand from the kernel
 * sources (src/kernel/geometry.h, physics.h, the src/variant files), exact
 * integer equality: the as-written counts by hand, stage by stage; the
 * executed counts (after the compiler's common-subexpression elimination,
 * perfmodel/flopdag.c) as the flops of the compiled kernels, counted
 * instruction by instruction by tools/flop-census.sh (clang-19 -O3, Zen 3,
 * 2026-12-02; t408 repeats that count on every run).  Where a short
 * derivation exists it is given. */
#include "feint_perfmodel.h"
#include "test_util.h"

static void expect(feint_element e, feint_problem p, feint_variant v, long long executed,
                   long long as_written, const char *what) {
  feint_pm_counts c;
  CHECK_STATUS(feint_pm_counts_get(e, p, v, &c), FEINT_SUCCESS, NULL);
  CHECK(c.flops == executed, "%s: executed flops %lld, hand count %lld", what, c.flops, executed);
  CHECK(c.flops_as_written == as_written, "%s: as-written flops %lld, hand count %lld", what,
        c.flops_as_written, as_written);
}

int main(void) {
  /* Stage costs by hand from the kernel sources and the reference tables
   * (a sum of n terms = n-1 adds; table entries 0 and +-1 cost no
   * multiplication, 0 entries no addition either):
   *  Jacobian J[a][b] = sum_n x[n][a] dphi[n][b], 3 rows a x 3 columns b:
   *    tet: each column has two entries, -1 (node 0) and +1 (node b+1):
   *      1 subtraction -> 9.
   *    prism: columns x and y have 4 nonzero entries +-H(z) (nodes with
   *      i = 0, 1 resp. 0, 2): 4 mul + 3 add = 7 each; column z has 6
   *      entries +-L_i/2: 6 mul + 5 add = 11 -> 3 x (7 + 7 + 11) = 75.
   *  feint_invert3: 9 x (2 mul + 1 sub) + (3 mul + 2 add) + 1 div + 9 mul = 42.
   *  vol = det * w: 1 (all weights of each rule are equal).
   *  psi (all nodes at a point), 3 derivatives each:
   *    tet: node 0 row (-1,-1,-1): 2 subtractions per derivative = 6;
   *      nodes 1..3 (a unit vector): 0 -> 6.
   *    prism: nodes i = 0 rows (-H,-H,+-L/2): 3 mul + 2 add = 5 per
   *      derivative, 15 per node, 2 nodes; nodes i = 1, 2 rows with one
   *      zero: 2 mul + 1 add = 3, 9 per node, 4 nodes -> 30 + 36 = 66.
   *  update_A Poisson: 3 mul + 2 add = 5; conv-diff: c psi_s (4 x (4 mul +
   *    3 add) = 28, shared by all r) + psi_r . (c psi_s) (7) = 35.
   *  update_b Poisson: 1; conv-diff: 7.   accumulate (+= vol * u): 2. */

  /* tet4-poisson qss_geo_linear (Algorithm 3), vol outside the sums
   * (physics.h, feint_vol_outside: the accumulations are additions, and
   * each output is multiplied by vol = det w_0 once, after the last point).
   * As written: J + inverse once (9 + 42 = 51), then per point (4):
   *   psi 6 + A 16 x (5 + 1) = 96 + b 4 x (1 + 1) = 8 = 110;
   *   then vol 1 and the 16 + 4 final products: 21;
   *   total 51 + 4 x 110 + 21 = 512.
   * Executed (the compiled count): gradients are the same at every point:
   *   psi once (6), the Poisson integrand once per symmetric pair (10 x 5 =
   *   50); per point the 10 accumulations (4 x 10 x 1 = 40); the load
   *   f_q phi_r once per distinct (rounded) value of phi at the point (2
   *   at the first, 3 at the others: 11) and 13 distinct accumulations
   *   (13: nodes 1-3 have equal phi at the first point, so equal partial
   *   sums); vol once (1) and the final products of the 10 distinct
   *   entries of A^e and the 4 of b^e (14).  The first point's additions
   *   into the 4 diagonal entries fold (0 + x = x: x, a sum of squares,
   *   cannot be -0.0), so the accumulations are 40 - 4 = 36:
   *   51 + 6 + 50 + 36 + 11 + 13 + 1 + 14 = 182 (225 with vol inside). */
  expect(FEINT_TET4, FEINT_POISSON, FEINT_QSS_GEO_LINEAR, 182, 512, "tet4-poisson qss_geo_linear");

  /* prism6-poisson qss_geo_generic (Algorithm 2), as written, per point (6):
   *   J 75 + inverse 42 + vol 1 + psi 66 + A 36 x 7 = 252 + b 6 x 3 = 18
   *   = 454; total 2724.
   * Executed (the compiled count): per point J, inverse, vol, psi, the 21
   *   symmetric pairs and b as above, less every product of a coordinate
   *   (across the points) or of J^-1 with a table entry already computed,
   *   and f_q phi_r once per distinct phi at the point. */
  expect(FEINT_PRISM6, FEINT_POISSON, FEINT_QSS_GEO_GENERIC, 1747, 2724,
         "prism6-poisson qss_geo_generic");

  /* tet4-convdiff ssq_geo_generic (Algorithm 6), as written: per (r, s, q),
   *   64 of them: J + inverse 51 + vol 1 + update 35 + accumulate 2 = 89
   *   -> 5696, psi_r and psi_s at each: 4 points x 16 pairs x (psi_r +
   *   psi_s) = 4 x 2 x 4 x 6 = 192 (every node appears 2 x 4 times per
   *   point); b on the diagonal, per (r, q), 16 of them: 9 -> 144;
   *   total 5696 + 192 + 144 = 6032.
   * Executed (the compiled count): J + inverse (51), vol, psi once; c psi_s
   *   starts with c_i0 phi_s(q), shared by the nodes and points with equal
   *   phi; psi_r . (c psi_s) and its accumulation per (q, r, s); b. */
  expect(FEINT_TET4, FEINT_CONVDIFF, FEINT_SSQ_GEO_GENERIC, 874, 6032,
         "tet4-convdiff ssq_geo_generic");

  /* prism6-convdiff sqs_geo_linear (Algorithm 5), vol outside the sums,
   *   as written: J + inverse once 75 + 42 = 117; psi at every point: 6 x
   *   66 = 396; per (r, q), 36 of them: row 6 x (35 + 1) = 216 + b 7 + 1 =
   *   8 -> 224 x 36 = 8064; vol 1 and the 36 + 6 final products: 43;
   *   total 117 + 396 + 8064 + 43 = 8620.
   * Executed (the compiled count): 117, psi at each point less the
   *   products of J^-1 with a table entry already computed (J^-1 is the
   *   same at every point), c psi_s per (q, s), psi_r . (c psi_s) and its
   *   accumulation per (q, r, s), b, vol once and the 42 final products:
   *   with vol inside 3260, less 216 + 36 (an addition for each
   *   multiply-add of the accumulations), plus 42: 3050. */
  expect(FEINT_PRISM6, FEINT_CONVDIFF, FEINT_SQS_GEO_LINEAR, 3050, 8620,
         "prism6-convdiff sqs_geo_linear");

  /* tet4 elasticity, qss_geo_linear (issue 8).  N_S = 4, N_Q = 4, 12 dofs.
   * Jacobian: each column x_{b+1} - x_0, 1 subtraction, 3 rows x 3 columns
   *   = 9; inverse 42; vol 1 (one det, one weight); psi: node 0 is minus the
   *   sum of the three rows of J^-1 (2 additions x 3 = 6), nodes 1..3 rows
   *   (0): 6.  Geometry 9 + 42 + 1 + 6 = 58.
   * As written (QSS linear, per (q, r, s) the block update 63 + the
   *   accumulation 2 = 65, per (q, r) the load 3 x 3 = 9):
   *   51 + 4 x (1 + 6 + 16 x 65 + 4 x 9) = 51 + 4 x 1083 = 4383.
   * Executed (the compiled count; elasticity runs on elasticity_qp's
   *   kernel, lambda and mu read per point, so only what does not involve
   *   them is shared by the 4 points): symmetric entries merged; the
   *   products g_r[i] g_s[j] that stand alone are shared by the points,
   *   those inside a fused multiply-add (lambda vol P + (mu vol Q + A),
   *   contracted in one C expression) are not.  (elasticity_qp: the
   *   same.) */
  expect(FEINT_TET4, FEINT_ELASTICITY, FEINT_QSS_GEO_LINEAR, 1703, 4383,
         "tet4-elasticity qss_geo_linear");
  expect(FEINT_TET4, FEINT_ELASTICITY_QP, FEINT_QSS_GEO_LINEAR, 1703, 4383,
         "tet4-elasticity_qp qss_geo_linear");

  /* tet4 elasticity_qp, ssq_geo_linear (Algorithm 7), as written: J +
   *   inverse once 51, psi at every point 4 x 6 = 24, per (r, s, q), 64 of
   *   them, vol 1 + the block update 63 + accumulation 2 -> 64 x 66 = 4224,
   *   the load per (r, q) on the diagonal 16 x 9 = 144: 51 + 24 + 4224 +
   *   144 = 4443.  Executed (the compiled count): SSQ evaluates a block
   *   below the diagonal as block (s, r), transposed, so it merges as QSS
   *   does; its fused block form differs from QSS's unfused one on tet4. */
  expect(FEINT_TET4, FEINT_ELASTICITY_QP, FEINT_SSQ_GEO_LINEAR, 1683, 4443,
         "tet4-elasticity_qp ssq_geo_linear");

  /* tet4 elasticity (lambda, mu per element), ssq_geo_linear: the S form
   *   (physics.h, form 3): per (r, s, q) vol g_r 3 + 9 products and
   *   their accumulations 18 = 21; per block the finish lambda S + mu S^T +
   *   mu tr S I: mu tr S 3, per entry 2 mul + 1 add 27, 3 diagonal
   *   additions: 33.
   * As written: 51 + 24 + 64 x (vol 1 + 21) = 1408 + load 144 + 16 x 33 =
   *   528: 2155.
   * Executed (the compiled count): geometry 58 as above; blocks (r, s) and
   *   (s, r) merged (the one below the diagonal is block (s, r)'s
   *   expression, transposed), so 10 pairs r <= s; vol g_r once (one vol,
   *   one gradient point), but each S entry accumulates vol g_r[i] g_s[j]
   *   as one fused multiply-add per point, so the products are not shared
   *   by the points: 10 x 4 x 9 x 2; the finish per pair; the load. */
  expect(FEINT_TET4, FEINT_ELASTICITY, FEINT_SSQ_GEO_LINEAR, 1231, 2155,
         "tet4-elasticity ssq_geo_linear");

  /* hex8 elasticity_qp, ssq_geo_linear.  N_S = N_Q = 8, 24 dofs; no hex8
   *   table entry is 0 or +-1.  Jacobian 9 x (8 mul + 7 add) = 135, inverse
   *   42; psi per point 8 nodes x 3 x (3 mul + 2 add) = 120.  With lambda_q
   *   and mu_q, on prisms and hexahedra, the SSQ variants write the block
   *   update hoisted (physics.h, form 2): lambda vol, mu vol 2; lambda
   *   vol g_r, mu vol g_r 6; mu vol g_r . g_s from them 3 mul + 2 add = 5;
   *   per entry 2 mul + 2 add (one of them the accumulation) 36; 3 diagonal
   *   additions: 52 per (r, s, q).
   * As written: 177 + 8 x 120 = 960 + 64 x 8 x (vol 1 + 52) = 27136 + the
   *   load 8 x 8 x 9 = 576: 28849.
   * Executed (the compiled count): 36 pairs r <= s, block (s, r) merged
   *   with (r, s); the hoisted block per point; the geometry less the
   *   products of a coordinate or of J^-1 with a table entry already
   *   computed (a hexahedron has 6 distinct signed entries per column at
   *   its 8 points). */
  expect(FEINT_HEX8, FEINT_ELASTICITY_QP, FEINT_SSQ_GEO_LINEAR, 13960, 28849,
         "hex8-elasticity_qp ssq_geo_linear");

  /* hex8 elasticity (lambda, mu per element), ssq_geo_linear: the S form,
   *   as for tet4 above.  As written: 177 + 960 + 64 x 8 x (1 + 21) =
   *   11264 + load 576 + 64 x 33 = 2112: 15089.
   * Executed (the compiled count): the geometry as for elasticity_qp, vol
   *   g_r per point and node, per pair r <= s the 9 fused accumulations at
   *   each point and the finish, the load. */
  expect(FEINT_HEX8, FEINT_ELASTICITY, FEINT_SSQ_GEO_LINEAR, 7524, 15089,
         "hex8-elasticity ssq_geo_linear");
  /* qss_geo_linear, as written 177 + 8 x (vol 1 + psi 120 + 64 x (63 + 2)
   *   + 8 x 9) = 177 + 8 x 4353 = 35001.  Executed (the compiled count): the
   *   fused block merged with its transpose, as for tet4 above, with 8
   *   distinct gradient points. */
  expect(FEINT_HEX8, FEINT_ELASTICITY, FEINT_QSS_GEO_LINEAR, 15208, 35001,
         "hex8-elasticity qss_geo_linear");

  /* tet4 poisson_kappa, qss_geo_linear: as Poisson, vol outside the sums,
   *   with the update kappa_q (g_r . g_s) accumulated by a multiply-add:
   *   as written per (q, r, s) 5 + 2 = 7:
   *   51 + 4 x (6 + 16 x 7 + 4 x 2) + 21 = 51 + 4 x 126 + 21 = 576.
   * Executed (the compiled count): Poisson's 182 with 2 flops for each of
   *   the 40 accumulations, none folding (kappa_q x could be -0.0):
   *   182 + 40 + 4 = 226 (229 with vol inside: Poisson's 225 and vol
   *   kappa_q at each point). */
  expect(FEINT_TET4, FEINT_POISSON_KAPPA, FEINT_QSS_GEO_LINEAR, 226, 576,
         "tet4-poisson_kappa qss_geo_linear");

  /* tet4-poisson tensor_geo_linear (the reference-tensor form; nothing
   * repeats, so executed = as written).  J + inverse 51; G_kl = det (J^-1
   * J^-T)_kl for k <= l: 6 x (dot 5 + det 1) = 36.  A_ij = sum_{k<=l} G_kl
   * T^kl_ij (i <= j) over the nonzero table entries, the first term a
   * product, the others FMAs; with dphi of node 0 (-1,-1,-1), of node 1 + m
   * the unit vector e_m and weights summing to 1/6: T^kl_00 = 1/6 (k = l),
   * 2/6 (k < l), 6 terms: 1 + 5 x 2 = 11; T^kl_0(1+m) != 0 for the 3 pairs
   * holding m: 3 entries x 5 = 15; A_(1+m)(1+m) = G_mm / 6, 1 each, but
   * A_11's product is A_00's first term: 2; A_(1+a)(1+b), a < b: G_ab / 6,
   * 3.  A: 31.  Loads as QSS's: vol (1) + 37 = 38.  51 + 36 + 31 + 38 =
   * 156. */
  expect(FEINT_TET4, FEINT_POISSON, FEINT_TENSOR_GEO_LINEAR, 156, 156,
         "tet4-poisson tensor_geo_linear");

  /* flops_useful: the minimum over the variants. */
  for (int e = 0; e < FEINT_ELEMENT_COUNT; e++)
    for (int p = 0; p < FEINT_PROBLEM_COUNT; p++) {
      long long min = -1, useful = -1;
      for (int v = 0; v < FEINT_VARIANT_COUNT; v++) {
        feint_pm_counts c;
        CHECK_STATUS(feint_pm_counts_get((feint_element)e, (feint_problem)p, (feint_variant)v, &c),
                        FEINT_SUCCESS, NULL);
        if (min < 0 || c.flops < min) min = c.flops;
        useful = c.flops_useful;
        /* one rounding in the division, one in the product: <= 2 eps */
        CHECK(fabs(c.intensity_per_access * (double)c.global_accesses - (double)c.flops) <=
                  2 * DBL_EPSILON * (double)c.flops,
              "intensity of %d/%d/%d", e, p, v);
      }
      CHECK(useful == min, "element %d problem %d: useful %lld, min %lld", e, p, useful, min);
    }
  return test_finish("t403_pm_flops_hand");
}
