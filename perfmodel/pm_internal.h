/* pm_internal.h - internal helpers of the perfmodel module.  Not installed.
 * The module reports errors through the library's one error record
 * (feint_internal.h: FEINT_CHECK, FEINT_CALL, feint_last_error()). */
#ifndef FEINT_PM_INTERNAL_H
#define FEINT_PM_INTERNAL_H

#include "feint_internal.h"
#include "feint_perfmodel.h"

/* Record "func(): message" for feint_last_error() and return status; for
 * messages that name another function than the caller (parsers). */
#define feint_pm_error(status, func, ...) \
  feint_error_set((status), (func), __FILE__, __LINE__, __VA_ARGS__)

/* Executed flops of one element of a case and variant: the distinct nodes
 * of the kernel's expression DAG, perfmodel/flopdag.c; -1 if memory ran
 * out. */
long long feint_pm_dag_flops(feint_element et, feint_problem pb, feint_variant variant);
/* 1 if a variant with one Jacobian (geo_linear) takes vol out of the sums
 * for problem pb on element et: the model's copy of src/kernel/physics.h's
 * feint_vol_outside (flopdag.c). */
int feint_pm_vol_outside(feint_element et, feint_problem pb, int geo_linear);

#endif /* FEINT_PM_INTERNAL_H */
