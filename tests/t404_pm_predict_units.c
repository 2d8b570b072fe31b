/* t404: perfmodel unit conversions and the predictor's bound selection and
 * argument errors. */
#include <math.h>

#include "feint_perfmodel.h"
#include "test_util.h"

int main(void) {
  /* Each conversion is one or two correctly rounded operations: relative
   * error <= 2 eps. */
  CHECK_CLOSE(feint_pm_gbs(24e9, 2.0), 12.0, 2, 12.0, 1, "24e9 B in 2 s = 12 GB/s");
  CHECK_CLOSE(feint_pm_gflops(5e9, 0.5), 10.0, 2, 10.0, 1, "5e9 flop in 0.5 s = 10 GFLOP/s");
  CHECK_CLOSE(feint_pm_ns_per_elem(0.25, 1e6), 250.0, 2, 250.0, 1, "0.25 s / 1e6 elem = 250 ns");
  CHECK_CLOSE(feint_pm_tera_to_giga(3.35), 3350.0, 1, 3350.0, 1, "3.35 TB/s = 3350 GB/s");
  CHECK_CLOSE(feint_pm_pct_of_bound(2.0, 8.0), 25.0, 2, 25.0, 1, "bound 2 ns, measured 8 ns: 25%");
  CHECK(feint_pm_triad_bytes(1000) == 24000.0, "triad bytes per 1000 indices: %g",
        feint_pm_triad_bytes(1000));
  /* GB/s x ns = bytes: 100 bytes at 50 GB/s take 2 ns. */
  double ns = 0.0;
  feint_pm_bound b = FEINT_PM_BOUND_COMPUTE;
  CHECK_STATUS(feint_pm_predict(100, 10, 50.0, 100.0, &ns, &b), FEINT_SUCCESS, NULL);
  CHECK(ns == 2.0 && b == FEINT_PM_BOUND_MEMORY, "memory bound: %g ns, bound %d", ns, (int)b);
  CHECK_STATUS(feint_pm_predict(100, 1000, 50.0, 100.0, &ns, &b), FEINT_SUCCESS, NULL);
  CHECK(ns == 10.0 && b == FEINT_PM_BOUND_COMPUTE, "compute bound: %g ns, bound %d", ns, (int)b);
  CHECK_STATUS(feint_pm_predict(100, 200, 50.0, 100.0, &ns, NULL), FEINT_SUCCESS, NULL);
  CHECK(ns == 2.0, "tie: %g ns", ns);
  CHECK(strcmp(feint_pm_bound_name(FEINT_PM_BOUND_MEMORY), "memory") == 0 &&
            strcmp(feint_pm_bound_name(FEINT_PM_BOUND_COMPUTE), "compute") == 0,
        "bound names");
  /* Errors name the argument; the output is untouched. */
  ns = -7.0;
  CHECK_STATUS(feint_pm_predict(100, 10, 0.0, 1.0, &ns, &b), FEINT_ERR_BAD_SIZE, "gbs = 0");
  CHECK_STATUS(feint_pm_predict(100, 10, 1.0, -3.0, &ns, &b), FEINT_ERR_BAD_SIZE, "gflops = -3");
  CHECK_STATUS(feint_pm_predict(100, 10, NAN, 1.0, &ns, &b), FEINT_ERR_BAD_SIZE, "gbs = nan");
  CHECK_STATUS(feint_pm_predict(-1, 10, 1.0, 1.0, &ns, &b), FEINT_ERR_BAD_SIZE, "bytes = -1");
  CHECK_STATUS(feint_pm_predict(1, -10, 1.0, 1.0, &ns, &b), FEINT_ERR_BAD_SIZE, "flops = -10");
  CHECK_STATUS(feint_pm_predict(1, 1, 1.0, 1.0, NULL, &b), FEINT_ERR_NULL_ARG, "ns is NULL");
  CHECK(ns == -7.0, "output changed on error: %g", ns);
  return test_finish("t404_pm_predict_units");
}
