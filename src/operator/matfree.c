/*
 * operator/matfree.c - the matrix-free forms of feint_operator (RECOMPUTE,
 * PRECOMPUTED).  Not built yet: create refuses them by name.
 */
#include "operator/operator_internal.h"

feint_status feint_op_matfree_create(feint_operator *op, const double *coeffs, size_t coeff_len,
                                     const double *A_e) {
  (void)coeffs, (void)coeff_len, (void)A_e;
  return feint_error_set(FEINT_ERR_UNSUPPORTED, "feint_operator_create", __FILE__, __LINE__,
                         "form = %s: the matrix-free forms are not built yet (use "
                         "FEINT_OPERATOR_ASSEMBLED)",
                         op->form == FEINT_OPERATOR_RECOMPUTE ? "FEINT_OPERATOR_RECOMPUTE"
                                                              : "FEINT_OPERATOR_PRECOMPUTED");
}

void feint_op_matfree_apply(const feint_operator *op, const double *x, double *y) {
  (void)op, (void)x, (void)y;
}

void feint_op_matfree_destroy(feint_operator *op) { (void)op; }
