/* names.c - names of elements, problems, variants and loop orders as the
 * performance model prints and parses them. */
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "pm_internal.h"



static const char *const element_names[FEINT_ELEMENT_COUNT] = {"tet4", "prism6", "hex8"};
static const char *const problem_names[FEINT_PROBLEM_COUNT] = {
    "poisson", "convdiff", "elasticity", "poisson_kappa", "elasticity_qp"};
static const char *const variant_names[FEINT_VARIANT_COUNT] = {
    "qss_geo_linear", "qss_geo_generic", "sqs_geo_linear",
    "sqs_geo_generic", "ssq_geo_linear", "ssq_geo_generic", "tensor_geo_linear"};
static const char *const loop_order_names[FEINT_PM_LOOP_ORDER_COUNT] = {"QSS", "SQS", "SSQ"};

const char *feint_pm_element_name(feint_element element) {
  return ((unsigned)element < FEINT_ELEMENT_COUNT) ? element_names[element] : NULL;
}
const char *feint_pm_problem_name(feint_problem problem) {
  return ((unsigned)problem < FEINT_PROBLEM_COUNT) ? problem_names[problem] : NULL;
}
const char *feint_pm_variant_name(feint_variant variant) {
  return ((unsigned)variant < FEINT_VARIANT_COUNT) ? variant_names[variant] : NULL;
}
const char *feint_pm_loop_order_name(feint_pm_loop_order loop_order) {
  return ((unsigned)loop_order < FEINT_PM_LOOP_ORDER_COUNT) ? loop_order_names[loop_order]
                                                            : NULL;
}

/* Compare ignoring case, '-' and '_'. */
static int name_equal(const char *a, const char *b) {
  for (;;) {
    while (*a == '-' || *a == '_') a++;
    while (*b == '-' || *b == '_') b++;
    if (*a == '\0' || *b == '\0') return *a == *b;
    if (tolower((unsigned char)*a) != tolower((unsigned char)*b)) return 0;
    a++;
    b++;
  }
}

feint_status feint_pm_element_parse(const char *name, feint_element *element) {
  FEINT_CHECK(name != NULL, FEINT_ERR_NULL_ARG, "name is NULL");
  FEINT_CHECK(element != NULL, FEINT_ERR_NULL_ARG, "element is NULL");
  if (name_equal(name, "tet4") || name_equal(name, "tetra") || name_equal(name, "tet")) {
    *element = FEINT_TET4;
    return FEINT_SUCCESS;
  }
  if (name_equal(name, "prism6") || name_equal(name, "prism")) {
    *element = FEINT_PRISM6;
    return FEINT_SUCCESS;
  }
  if (name_equal(name, "hex8") || name_equal(name, "hex")) {
    *element = FEINT_HEX8;
    return FEINT_SUCCESS;
  }
  return feint_pm_error(FEINT_ERR_OUT_OF_RANGE, __func__,
                        "element name \"%s\" unknown; allowed: tet4 (tetra), prism6 (prism), hex8 (hex)",
                        name);
}

feint_status feint_pm_problem_parse(const char *name, feint_problem *problem) {
  FEINT_CHECK(name != NULL, FEINT_ERR_NULL_ARG, "name is NULL");
  FEINT_CHECK(problem != NULL, FEINT_ERR_NULL_ARG, "problem is NULL");
  if (name_equal(name, "poisson")) {
    *problem = FEINT_POISSON;
    return FEINT_SUCCESS;
  }
  if (name_equal(name, "convdiff")) {
    *problem = FEINT_CONVDIFF;
    return FEINT_SUCCESS;
  }
  if (name_equal(name, "elasticity")) {
    *problem = FEINT_ELASTICITY;
    return FEINT_SUCCESS;
  }
  if (name_equal(name, "poisson_kappa")) {
    *problem = FEINT_POISSON_KAPPA;
    return FEINT_SUCCESS;
  }
  if (name_equal(name, "elasticity_qp")) {
    *problem = FEINT_ELASTICITY_QP;
    return FEINT_SUCCESS;
  }
  return feint_pm_error(FEINT_ERR_OUT_OF_RANGE, __func__,
                        "problem name \"%s\" unknown; allowed: poisson, convdiff (conv-diff), elasticity, "
                        "poisson_kappa, elasticity_qp",
                        name);
}

feint_status feint_pm_variant_parse(const char *name, feint_variant *variant) {
  FEINT_CHECK(name != NULL, FEINT_ERR_NULL_ARG, "name is NULL");
  FEINT_CHECK(variant != NULL, FEINT_ERR_NULL_ARG, "variant is NULL");
  for (int v = 0; v < FEINT_VARIANT_COUNT; v++) {
    if (name_equal(name, variant_names[v])) {
      *variant = (feint_variant)v;
      return FEINT_SUCCESS;
    }
  }
  return feint_pm_error(FEINT_ERR_OUT_OF_RANGE, __func__,
                        "variant name \"%s\" unknown; allowed: qss|sqs|ssq _geo_linear|_geo_generic, "
                        "tensor_geo_linear",
                        name);
}

feint_status feint_pm_variant_split(feint_variant variant, feint_pm_loop_order *loop_order,
                                    int *geo_linear) {
  FEINT_CHECK((unsigned)variant < FEINT_VARIANT_COUNT, FEINT_ERR_OUT_OF_RANGE,
                 "variant = %d; allowed 0..%d", (int)variant, FEINT_VARIANT_COUNT - 1);
  FEINT_CHECK(variant != FEINT_TENSOR_GEO_LINEAR, FEINT_ERR_UNSUPPORTED,
              "tensor_geo_linear is the reference-tensor form, not one of the paper's loop "
              "orders");
  /* The enum pairs (linear, generic) per loop order: QSS, SQS, SSQ. */
  if (loop_order != NULL) *loop_order = (feint_pm_loop_order)((int)variant / 2);
  if (geo_linear != NULL) *geo_linear = ((int)variant % 2) == 0;
  return FEINT_SUCCESS;
}
