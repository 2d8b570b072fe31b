/* t803 (t8xx: operators) - perfmodel/operator.c: the byte and flop counts
 * of one operator application, by hand for tet4 and hex8 Poisson and tet4
 * conv-diff on a made-up mesh (E = 10 elements, V = 5 vertices, nnz = 20),
 * every form and strategy; tet4 and hex8 elasticity (3 dofs per vertex);
 * the QPOINT form (tet4, hex8 Poisson; prism6 refused); argument errors. */
#include "feint_perfmodel.h"
#include "test_util.h"

#define EQ(got, want, what) \
  CHECK((got) == (want), "%s: %lld, expected %lld", (what), (long long)(got), (long long)(want))

int main(void) {
  feint_pm_operator_counts r;
  feint_pm_counts c;
  /* tet4 Poisson, qss_geo_linear: N = V = 5, N_S = N_D = 4 */
  CHECK_STATUS(feint_pm_counts_get(FEINT_TET4, FEINT_POISSON, FEINT_QSS_GEO_LINEAR, &c),
               FEINT_SUCCESS, NULL);
  CHECK_STATUS(feint_pm_operator_counts_get(FEINT_TET4, FEINT_POISSON, FEINT_QSS_GEO_LINEAR,
                                            FEINT_OPERATOR_RECOMPUTE, FEINT_ASSEMBLE_COLOURING, 10,
                                            5, 20, &r),
               FEINT_SUCCESS, NULL);
  EQ(r.bytes_vectors, 16 * 5, "recompute vectors");
  EQ(r.bytes_conn, 4 * 4 * 10, "recompute conn");
  EQ(r.bytes_coords, 24 * 5, "recompute coords");
  EQ(r.bytes_coeffs, 0, "recompute Poisson coeffs (f not read)");
  EQ(r.bytes_map, 0, "recompute colour order (conn copied in that order)");
  EQ(r.bytes_elem_data + r.bytes_matrix, 0, "recompute stored data");
  EQ(r.bytes_compulsory, 80 + 160 + 120, "recompute compulsory");
  EQ(r.bytes_zeroing, 8 * 5, "recompute zeroing");
  EQ(r.flops, 10 * (c.flops + 2 * 16 + 4), "recompute flops");
  CHECK_STATUS(feint_pm_operator_counts_get(FEINT_TET4, FEINT_POISSON, FEINT_QSS_GEO_LINEAR,
                                            FEINT_OPERATOR_RECOMPUTE, FEINT_ASSEMBLE_ATOMICS, 10,
                                            5, 20, &r),
               FEINT_SUCCESS, NULL);
  EQ(r.bytes_map, 0, "recompute atomics map");
  CHECK_STATUS(feint_pm_operator_counts_get(FEINT_TET4, FEINT_POISSON, FEINT_QSS_GEO_LINEAR,
                                            FEINT_OPERATOR_PRECOMPUTED, FEINT_ASSEMBLE_COLOURING,
                                            10, 5, 20, &r),
               FEINT_SUCCESS, NULL);
  EQ(r.bytes_elem_data, 8 * 10 * 10, "precomputed packed A^e (10 of 16)");
  EQ(r.bytes_compulsory, 80 + 160 + 800, "precomputed compulsory");
  EQ(r.flops, 10 * (32 + 4), "precomputed flops");
  EQ(r.bytes_qpt_factors, 8 * 6 * 10, "tet4 Poisson factors (one point)");
  CHECK_STATUS(feint_pm_operator_counts_get(FEINT_TET4, FEINT_POISSON, FEINT_QSS_GEO_LINEAR,
                                            FEINT_OPERATOR_ASSEMBLED, FEINT_ASSEMBLE_COLOURING, 10,
                                            5, 20, &r),
               FEINT_SUCCESS, NULL);
  EQ(r.bytes_matrix, 8 * 6 + 12 * 20, "assembled matrix");
  EQ(r.bytes_compulsory, 80 + 48 + 240, "assembled compulsory");
  EQ(r.bytes_zeroing, 0, "assembled zeroing");
  EQ(r.flops, 40, "assembled flops");
  /* tet4 conv-diff: 20 coefficients, full 16-entry A^e */
  CHECK_STATUS(feint_pm_operator_counts_get(FEINT_TET4, FEINT_CONVDIFF, FEINT_QSS_GEO_LINEAR,
                                            FEINT_OPERATOR_RECOMPUTE, FEINT_ASSEMBLE_ATOMICS, 10,
                                            5, 20, &r),
               FEINT_SUCCESS, NULL);
  EQ(r.bytes_coeffs, 8 * 20 * 10, "conv-diff coeffs");
  CHECK_STATUS(feint_pm_operator_counts_get(FEINT_TET4, FEINT_CONVDIFF, FEINT_QSS_GEO_LINEAR,
                                            FEINT_OPERATOR_PRECOMPUTED, FEINT_ASSEMBLE_ATOMICS, 10,
                                            5, 20, &r),
               FEINT_SUCCESS, NULL);
  EQ(r.bytes_elem_data, 8 * 16 * 10, "conv-diff full A^e");
  EQ(r.bytes_qpt_factors, 8 * (6 + 20) * 10, "conv-diff factors");
  /* hex8 Poisson: packed 36 of 64, factors 8 points x 6 */
  CHECK_STATUS(feint_pm_operator_counts_get(FEINT_HEX8, FEINT_POISSON, FEINT_QSS_GEO_GENERIC,
                                            FEINT_OPERATOR_PRECOMPUTED, FEINT_ASSEMBLE_COLOURING,
                                            10, 5, 20, &r),
               FEINT_SUCCESS, NULL);
  EQ(r.bytes_conn, 4 * 8 * 10, "hex8 conn");
  EQ(r.bytes_elem_data, 8 * 36 * 10, "hex8 packed A^e");
  EQ(r.bytes_qpt_factors, 8 * 48 * 10, "hex8 factors");
  EQ(r.flops, 10 * (128 + 8), "hex8 precomputed flops");
  /* QPOINT: tet4 Poisson, one G (6 doubles) per cell; flops per cell:
   * gradient x_{d+1} - x_0 (3), G g (3 x (3 mul + 2 add) = 15), test
   * y_0 = -(v_0 + v_1 + v_2) (2), y_1..3 = v (0), 4 additions into y */
  CHECK_STATUS(feint_pm_operator_counts_get(FEINT_TET4, FEINT_POISSON, FEINT_QSS_GEO_LINEAR,
                                            FEINT_OPERATOR_QPOINT, FEINT_ASSEMBLE_COLOURING, 10,
                                            5, 20, &r),
               FEINT_SUCCESS, NULL);
  EQ(r.bytes_conn, 4 * 4 * 10, "qpoint tet4 conn");
  EQ(r.bytes_elem_data, 8 * 6 * 10, "qpoint tet4 factors");
  EQ(r.bytes_affine_saving, 0, "qpoint tet4 affine saving (one G already)");
  EQ(r.bytes_compulsory, 80 + 160 + 480, "qpoint tet4 compulsory");
  EQ(r.flops, 10 * (3 + 15 + 2 + 4), "qpoint tet4 flops");
  /* hex8 Poisson: 8 points x 6; sum factorisation, per cell: x sweep 4 rows
   * x (2 values x 3 + difference 2) = 32; y 4 x (2 + 2 x (3 + 3)) = 56; z
   * and factor 4 x (2 + 2 x (3 + 3 + 15)) = 176; back z 4 x (2 + 2 x 6) =
   * 56, y 4 x (2 + 2 x (3 + 4)) = 64, x 4 x (2 + 2 x 4) = 40; 8 additions */
  CHECK_STATUS(feint_pm_operator_counts_get(FEINT_HEX8, FEINT_POISSON, FEINT_QSS_GEO_LINEAR,
                                            FEINT_OPERATOR_QPOINT, FEINT_ASSEMBLE_ATOMICS, 10,
                                            5, 20, &r),
               FEINT_SUCCESS, NULL);
  EQ(r.bytes_elem_data, 8 * 48 * 10, "qpoint hex8 factors");
  EQ(r.bytes_affine_saving, 8 * 42 * 10, "qpoint hex8 affine: 6 doubles per cell, not 48");
  EQ(r.bytes_compulsory, 80 + 320 + 3840, "qpoint hex8 compulsory");
  EQ(r.flops, 10 * (32 + 56 + 176 + 56 + 64 + 40 + 8), "qpoint hex8 flops");
  CHECK_STATUS(feint_pm_operator_counts_get(FEINT_PRISM6, FEINT_POISSON, FEINT_QSS_GEO_GENERIC,
                                            FEINT_OPERATOR_QPOINT, FEINT_ASSEMBLE_ATOMICS, 10,
                                            5, 20, &r),
               FEINT_ERR_UNSUPPORTED, "prism6/poisson");
  /* elasticity (3 dofs per vertex, N = 15): tet4 N_D = 12, packed 78,
   * coefficients 2 + 3 N_Q */
  CHECK_STATUS(feint_pm_counts_get(FEINT_TET4, FEINT_ELASTICITY, FEINT_QSS_GEO_LINEAR, &c),
               FEINT_SUCCESS, NULL);
  CHECK_STATUS(feint_pm_operator_counts_get(FEINT_TET4, FEINT_ELASTICITY, FEINT_QSS_GEO_LINEAR,
                                            FEINT_OPERATOR_PRECOMPUTED, FEINT_ASSEMBLE_COLOURING,
                                            10, 5, 20, &r),
               FEINT_SUCCESS, NULL);
  EQ(r.bytes_vectors, 16 * 15, "elasticity vectors");
  EQ(r.bytes_zeroing, 8 * 15, "elasticity zeroing");
  EQ(r.bytes_elem_data, 8 * 78 * 10, "tet4 elasticity packed A^e");
  EQ(r.flops, 10 * (2 * 144 + 12), "tet4 elasticity precomputed flops");
  CHECK_STATUS(feint_pm_operator_counts_get(FEINT_TET4, FEINT_ELASTICITY, FEINT_QSS_GEO_LINEAR,
                                            FEINT_OPERATOR_RECOMPUTE, FEINT_ASSEMBLE_ATOMICS, 10,
                                            5, 20, &r),
               FEINT_SUCCESS, NULL);
  EQ(r.bytes_coeffs, 8 * (2 + 3 * c.num_qpts) * 10, "tet4 elasticity coeffs");
  EQ(r.flops, 10 * (c.flops + 2 * 144 + 12), "tet4 elasticity recompute flops");
  /* hex8 elasticity: N_D = 24, packed 300, 2 + 3 x 8 = 26 coefficients */
  CHECK_STATUS(feint_pm_operator_counts_get(FEINT_HEX8, FEINT_ELASTICITY, FEINT_QSS_GEO_GENERIC,
                                            FEINT_OPERATOR_PRECOMPUTED, FEINT_ASSEMBLE_ATOMICS, 10,
                                            5, 20, &r),
               FEINT_SUCCESS, NULL);
  EQ(r.bytes_conn, 4 * 8 * 10, "hex8 elasticity conn");
  EQ(r.bytes_elem_data, 8 * 300 * 10, "hex8 elasticity packed A^e");
  EQ(r.bytes_compulsory, 16 * 15 + 320 + 24000, "hex8 elasticity compulsory");
  EQ(r.flops, 10 * (2 * 576 + 24), "hex8 elasticity precomputed flops");
  CHECK_STATUS(feint_pm_operator_counts_get(FEINT_HEX8, FEINT_ELASTICITY, FEINT_QSS_GEO_GENERIC,
                                            FEINT_OPERATOR_RECOMPUTE, FEINT_ASSEMBLE_ATOMICS, 10,
                                            5, 20, &r),
               FEINT_SUCCESS, NULL);
  EQ(r.bytes_coeffs, 8 * 26 * 10, "hex8 elasticity coeffs");
  /* errors */
  CHECK_STATUS(feint_pm_operator_counts_get(FEINT_TET4, FEINT_POISSON, FEINT_QSS_GEO_LINEAR,
                                            FEINT_OPERATOR_ASSEMBLED, FEINT_ASSEMBLE_COLOURING, 10,
                                            5, 20, NULL),
               FEINT_ERR_NULL_ARG, "out");
  CHECK_STATUS(feint_pm_operator_counts_get(FEINT_TET4, FEINT_POISSON, FEINT_QSS_GEO_LINEAR,
                                            (feint_operator_form)4, FEINT_ASSEMBLE_COLOURING, 10,
                                            5, 20, &r),
               FEINT_ERR_OUT_OF_RANGE, "form = 4");
  CHECK_STATUS(feint_pm_operator_counts_get(FEINT_TET4, FEINT_POISSON, FEINT_QSS_GEO_LINEAR,
                                            FEINT_OPERATOR_ASSEMBLED, (feint_assemble_strategy)2,
                                            10, 5, 20, &r),
               FEINT_ERR_OUT_OF_RANGE, "strategy = 2");
  CHECK_STATUS(feint_pm_operator_counts_get(FEINT_TET4, FEINT_POISSON, FEINT_QSS_GEO_LINEAR,
                                            FEINT_OPERATOR_ASSEMBLED, FEINT_ASSEMBLE_COLOURING,
                                            (size_t)1 << 51, 5, 20, &r),
               FEINT_ERR_BAD_SIZE, "too large");
  return test_failures != 0;
}
