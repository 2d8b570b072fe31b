/*
 * element.c - reference element and variant introspection, array sizes.
 */
#include <stdint.h>

#include "feint_internal.h"
#include "kernel/elem.h"
#include "kernel/physics.h"

const char *feint_element_name(feint_element element) {
  switch (element) {
    case FEINT_TET4: return "tet4";
    case FEINT_PRISM6: return "prism6";
    case FEINT_HEX8: return "hex8";
    default: return NULL;
  }
}

const char *feint_problem_name(feint_problem problem) {
  switch (problem) {
    case FEINT_POISSON: return "poisson";
    case FEINT_CONVDIFF: return "convdiff";
    case FEINT_ELASTICITY: return "elasticity";
    case FEINT_POISSON_KAPPA: return "poisson_kappa";
    case FEINT_ELASTICITY_QP: return "elasticity_qp";
    default: return NULL;
  }
}

const char *feint_layout_name(feint_layout layout) {
  switch (layout) {
    case FEINT_LAYOUT_NATURAL: return "natural";
    case FEINT_LAYOUT_BLOCKED: return "blocked";
    case FEINT_LAYOUT_PACKED: return "packed";
    default: return NULL;
  }
}

feint_status feint_element_get_info(feint_element element, feint_element_info *info) {
  FEINT_CHECK(info != NULL, FEINT_ERR_NULL_ARG, "info is NULL");
  FEINT_CHECK_ENUM(element, FEINT_ELEMENT_COUNT, "element", "feint_element");
  if (element == FEINT_TET4) {
    *info = (feint_element_info){"tet4", 4, 4, 2, 1.0 / 6.0, feint_tet4_nodes, feint_tet4_qpts,
                                 feint_tet4_qwts, feint_tet4_phi, feint_tet4_dphi};
  } else if (element == FEINT_PRISM6) {
    *info = (feint_element_info){"prism6", 6, 6, 2, 1.0, feint_prism6_nodes, feint_prism6_qpts,
                                 feint_prism6_qwts, feint_prism6_phi, feint_prism6_dphi};
  } else {
    *info = (feint_element_info){"hex8", 8, 8, 3, 8.0, feint_hex8_nodes, feint_hex8_qpts,
                                 feint_hex8_qwts, feint_hex8_phi, feint_hex8_dphi};
  }
  return FEINT_SUCCESS;
}

feint_status feint_element_eval(feint_element element, const double xi[3], double *phi,
                                double (*dphi)[3]) {
  FEINT_CHECK_ENUM(element, FEINT_ELEMENT_COUNT, "element", "feint_element");
  FEINT_CHECK(xi != NULL, FEINT_ERR_NULL_ARG, "xi is NULL");
  FEINT_CHECK(phi != NULL, FEINT_ERR_NULL_ARG, "phi is NULL");
  for (int n = 0; n < feint_elem_nodes(element); n++) {
    double d[3];
    feint_elem_eval(element, n, xi, &phi[n], d);
    if (dphi)
      for (int a = 0; a < 3; a++) dphi[n][a] = d[a];
  }
  return FEINT_SUCCESS;
}

static const feint_variant_info variant_table[FEINT_VARIANT_COUNT] = {
    {"qss_geo_linear", "Algorithm 3 (seed 000)",
     "quadrature points outside shape-function pairs; Jacobian terms once per element", "host", 1, 1},
    {"qss_geo_generic", "Algorithm 2 (seed 000)",
     "quadrature points outside shape-function pairs; Jacobian terms at every point", "host", 0, 1},
    {"sqs_geo_linear", "Algorithm 5 (seed 000)",
     "one row of A^e at a time, quadrature inside; Jacobian terms once per element", "host", 1, 1},
    {"sqs_geo_generic", "Algorithm 4 (seed 000)",
     "one row of A^e at a time, quadrature inside; Jacobian terms per point and row", "host", 0, 1},
    {"ssq_geo_linear", "Algorithm 7 (seed 000)",
     "one entry of A^e at a time, quadrature innermost; Jacobian terms once per element", "host", 1, 1},
    {"ssq_geo_generic", "Algorithm 6 (seed 000)",
     "one entry of A^e at a time, quadrature innermost; Jacobian terms per point and entry", "host", 0, 1},
    {"tensor_geo_linear", "reference-tensor form (not in seed 000)",
     "quadrature sums as constant tables, contracted with the element's terms; J once", "host", 1, 1},
};

feint_status feint_variant_get_info(feint_variant variant, feint_variant_info *info) {
  FEINT_CHECK(info != NULL, FEINT_ERR_NULL_ARG, "info is NULL");
  FEINT_CHECK_ENUM(variant, FEINT_VARIANT_COUNT, "variant", "feint_variant");
  *info = variant_table[variant];
  return FEINT_SUCCESS;
}

feint_status feint_array_entries(feint_element element, feint_problem problem, feint_array array,
                                 size_t *entries) {
  FEINT_CHECK(entries != NULL, FEINT_ERR_NULL_ARG, "entries is NULL");
  FEINT_CHECK_ENUM(element, FEINT_ELEMENT_COUNT, "element", "feint_element");
  FEINT_CHECK_ENUM(problem, FEINT_PROBLEM_COUNT, "problem", "feint_problem");
  FEINT_CHECK_ENUM(array, FEINT_ARRAY_COUNT, "array", "feint_array");
  const size_t ns = (size_t)feint_elem_nodes(element);
  const size_t nd = (size_t)feint_problem_dofs(element, problem);
  switch (array) {
    case FEINT_ARRAY_GEOMETRY: *entries = 3 * ns; break;
    case FEINT_ARRAY_COEFFS: *entries = (size_t)feint_problem_coeffs(element, problem); break;
    case FEINT_ARRAY_A: *entries = nd * nd; break;
    default: *entries = nd; break;
  }
  return FEINT_SUCCESS;
}

feint_status feint_array_len(feint_element element, feint_problem problem, feint_array array,
                             feint_layout layout, size_t num_elem, size_t *len) {
  size_t entries;
  FEINT_CHECK(len != NULL, FEINT_ERR_NULL_ARG, "len is NULL");
  FEINT_CALL(feint_array_entries(element, problem, array, &entries));
  FEINT_CHECK_ENUM(layout, FEINT_LAYOUT_COUNT, "layout", "feint_layout");
  if (layout == FEINT_LAYOUT_PACKED && array == FEINT_ARRAY_A) {
    FEINT_CHECK(feint_problem_symmetric(problem), FEINT_ERR_UNSUPPORTED,
                "layout = packed for A_e of problem %s, whose A_e is not symmetric; packed "
                "output is for the symmetric problems",
                feint_problem_name(problem));
    const size_t nd = (size_t)feint_problem_dofs(element, problem);
    entries = nd * (nd + 1) / 2;
  }
  size_t n = num_elem;
  if (layout == FEINT_LAYOUT_BLOCKED) {
    FEINT_CHECK(num_elem <= SIZE_MAX - (FEINT_BLOCK_LEN - 1), FEINT_ERR_BAD_SIZE,
                "num_elem = %zu overflows when rounded up to whole blocks", num_elem);
    n = (num_elem + FEINT_BLOCK_LEN - 1) / FEINT_BLOCK_LEN * FEINT_BLOCK_LEN;
  }
  FEINT_CHECK(n <= SIZE_MAX / sizeof(double) / entries, FEINT_ERR_BAD_SIZE,
              "num_elem = %zu times %zu doubles per element overflows size_t (in bytes)", num_elem,
              entries);
  *len = n * entries;
  return FEINT_SUCCESS;
}
