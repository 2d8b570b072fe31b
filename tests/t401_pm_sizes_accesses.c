/* t401: perfmodel Table 3 sizes, global accesses (36, 66, 52, 80) and the
 * paper's Table 4 shared-memory rows that feint's formulas reproduce. */
#include <stdio.h>

#include "feint_perfmodel.h"
#include "test_util.h"

int main(void) {
  /* Columns in the paper's order: Poisson tetra, Poisson prism, conv-diff
   * tetra, conv-diff prism (Table 3 and Table 4 of seed 000). */
  const feint_element el[4] = {FEINT_TET4, FEINT_PRISM6, FEINT_TET4, FEINT_PRISM6};
  const feint_problem pb[4] = {FEINT_POISSON, FEINT_POISSON, FEINT_CONVDIFF, FEINT_CONVDIFF};
  const long long geometry[4] = {12, 18, 12, 18}, coeffs[4] = {4, 6, 20, 20};
  const long long a_out[4] = {16, 36, 16, 36}, b_out[4] = {4, 6, 4, 6};
  const long long global[4] = {36, 66, 52, 80};
  /* Table 4, QSS shared rows that feint's derivation reproduces exactly
   * (geometry, coefficients, A and b); the phi row is derived differently
   * (perfmodel/README.md). */
  const long long sh_geo[4] = {12, 108, 12, 108}, sh_coef[4] = {4, 6, 80, 120};
  const long long sh_ab[4] = {180, 546, 180, 546};
  for (int k = 0; k < 4; k++) {
    for (int v = 0; v < FEINT_VARIANT_COUNT; v++) {
      feint_pm_counts c;
      CHECK_STATUS(feint_pm_counts_get(el[k], pb[k], (feint_variant)v, &c), FEINT_SUCCESS, NULL);
      CHECK(c.geometry == geometry[k] && c.coeffs == coeffs[k] && c.a_out == a_out[k] &&
                c.b_out == b_out[k],
            "case %d variant %d: sizes %lld %lld %lld %lld", k, v, c.geometry, c.coeffs, c.a_out,
            c.b_out);
      CHECK(c.global_accesses == global[k], "case %d variant %d: global accesses %lld, expected %lld",
            k, v, c.global_accesses, global[k]);
      CHECK(c.bytes_compulsory == 8 * global[k], "case %d: bytes %lld", k, c.bytes_compulsory);
      CHECK(c.bytes_write_allocate == 8 * (a_out[k] + b_out[k]), "case %d: write-allocate %lld",
            k, c.bytes_write_allocate);
      CHECK(c.flops > 0 && c.flops <= c.flops_as_written && c.flops_useful <= c.flops,
            "case %d variant %d: flops %lld as written %lld useful %lld", k, v, c.flops,
            c.flops_as_written, c.flops_useful);
      if (v == FEINT_TENSOR_GEO_LINEAR) {
        /* each input read once, each output stored once from its register;
         * the tables are constants, no psi is stored */
        CHECK(c.shared_accesses[FEINT_PM_SHARED_GEOMETRY] == geometry[k] &&
                  c.shared_accesses[FEINT_PM_SHARED_COEFFS] == coeffs[k] &&
                  c.shared_accesses[FEINT_PM_SHARED_PHI] == 0 &&
                  c.shared_accesses[FEINT_PM_SHARED_AB] == a_out[k] + b_out[k],
              "case %d tensor: shared %lld %lld %lld %lld", k,
              c.shared_accesses[FEINT_PM_SHARED_GEOMETRY], c.shared_accesses[FEINT_PM_SHARED_COEFFS],
              c.shared_accesses[FEINT_PM_SHARED_PHI], c.shared_accesses[FEINT_PM_SHARED_AB]);
        continue;
      }
      CHECK(c.shared_accesses[FEINT_PM_SHARED_AB] == sh_ab[k], "case %d variant %d: shared A,b %lld",
            k, v, c.shared_accesses[FEINT_PM_SHARED_AB]);
    }
    /* the paper's treatment: tetra geo_linear, prism geo_generic */
    feint_variant qss = el[k] == FEINT_TET4 ? FEINT_QSS_GEO_LINEAR : FEINT_QSS_GEO_GENERIC;
    feint_pm_counts c, p;
    CHECK_STATUS(feint_pm_counts_get(el[k], pb[k], qss, &c), FEINT_SUCCESS, NULL);
    CHECK(c.shared_accesses[FEINT_PM_SHARED_GEOMETRY] == sh_geo[k], "case %d: shared geometry %lld, expected %lld",
          k, c.shared_accesses[FEINT_PM_SHARED_GEOMETRY], sh_geo[k]);
    CHECK(c.shared_accesses[FEINT_PM_SHARED_COEFFS] == sh_coef[k], "case %d: shared coeffs %lld, expected %lld",
          k, c.shared_accesses[FEINT_PM_SHARED_COEFFS], sh_coef[k]);
    for (int lo = 0; lo < FEINT_PM_LOOP_ORDER_COUNT; lo++) {
      CHECK_STATUS(feint_pm_paper_counts(el[k], pb[k], (feint_pm_loop_order)lo, &p), FEINT_SUCCESS, NULL);
      CHECK(p.global_accesses == global[k], "paper case %d: global %lld", k, p.global_accesses);
      CHECK((lo == FEINT_PM_QSS) == (p.shared_accesses[0] >= 0), "paper shared given only for QSS");
    }
  }
  /* Paper Table 4 op counts and rounded intensities. */
  const long long flops[3][4] = {{290, 2700, 986, 4806}, {290, 10416, 986, 12492}, {290, 54876, 1623, 65232}};
  const int intensity[3][4] = {{8, 41, 19, 60}, {8, 158, 19, 156}, {8, 831, 31, 815}};
  for (int lo = 0; lo < 3; lo++)
    for (int k = 0; k < 4; k++) {
      feint_pm_counts p;
      CHECK_STATUS(feint_pm_paper_counts(el[k], pb[k], (feint_pm_loop_order)lo, &p), FEINT_SUCCESS, NULL);
      CHECK(p.flops == flops[lo][k], "paper flops [%d][%d] %lld", lo, k, p.flops);
      CHECK((int)(p.intensity_per_access + 0.5) == intensity[lo][k],
            "paper intensity [%d][%d]: %.3f rounds to %d, printed %d", lo, k,
            p.intensity_per_access, (int)(p.intensity_per_access + 0.5), intensity[lo][k]);
    }
  /* Error paths: exact status and a message naming the argument. */
  feint_pm_counts c;
  CHECK_STATUS(feint_pm_counts_get(FEINT_TET4, FEINT_POISSON, FEINT_QSS_GEO_LINEAR, NULL),
                  FEINT_ERR_NULL_ARG, "out is NULL");
  CHECK_STATUS(feint_pm_counts_get((feint_element)7, FEINT_POISSON, FEINT_QSS_GEO_LINEAR, &c),
                  FEINT_ERR_OUT_OF_RANGE, "element = 7");
  CHECK_STATUS(feint_pm_counts_get(FEINT_TET4, (feint_problem)-1, FEINT_QSS_GEO_LINEAR, &c),
                  FEINT_ERR_OUT_OF_RANGE, "problem = -1");
  char msg[32];
  snprintf(msg, sizeof msg, "variant = %d", FEINT_VARIANT_COUNT);
  CHECK_STATUS(feint_pm_counts_get(FEINT_TET4, FEINT_POISSON, FEINT_VARIANT_COUNT, &c),
                  FEINT_ERR_OUT_OF_RANGE, msg);
  /* the tensor form has no loop order of the paper */
  feint_pm_loop_order lo = FEINT_PM_SSQ;
  int lin = -1;
  CHECK_STATUS(feint_pm_variant_split(FEINT_TENSOR_GEO_LINEAR, &lo, &lin), FEINT_ERR_UNSUPPORTED,
               "tensor_geo_linear");
  CHECK(lo == FEINT_PM_SSQ && lin == -1, "variant_split wrote on error: %d %d", (int)lo, lin);
  CHECK_STATUS(feint_pm_variant_split(FEINT_SSQ_GEO_GENERIC, &lo, &lin), FEINT_SUCCESS, NULL);
  CHECK(lo == FEINT_PM_SSQ && lin == 0, "ssq_geo_generic split as %d %d", (int)lo, lin);
  CHECK_STATUS(feint_pm_paper_counts(FEINT_TET4, FEINT_POISSON, (feint_pm_loop_order)3, &c),
                  FEINT_ERR_OUT_OF_RANGE, "loop_order = 3");
  /* Names round-trip through the parser. */
  for (int v = 0; v < FEINT_VARIANT_COUNT; v++) {
    feint_variant back;
    CHECK_STATUS(feint_pm_variant_parse(feint_pm_variant_name((feint_variant)v), &back), FEINT_SUCCESS, NULL);
    CHECK(back == (feint_variant)v, "variant %d parsed back as %d", v, (int)back);
  }
  feint_problem p;
  CHECK_STATUS(feint_pm_problem_parse("conv-diff", &p), FEINT_SUCCESS, NULL);
  CHECK(p == FEINT_CONVDIFF, "conv-diff parsed as %d", (int)p);
  CHECK_STATUS(feint_pm_problem_parse("stokes", &p), FEINT_ERR_OUT_OF_RANGE, "\"stokes\"");
  return test_finish("t401_pm_sizes_accesses");
}
