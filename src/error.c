/*
 * error.c - status strings and the thread-local error record.
 */
#include <stdarg.h>
#include <stdio.h>

#include "feint_internal.h"

static _Thread_local char feint_error_buf[512];

const char *feint_status_string(feint_status status) {
  switch (status) {
    case FEINT_SUCCESS: return "success";
    case FEINT_ERR_NULL_ARG: return "a required pointer argument was NULL";
    case FEINT_ERR_BAD_SIZE: return "a size argument is invalid or overflows";
    case FEINT_ERR_OUT_OF_RANGE: return "an enum or index argument is out of range";
    case FEINT_ERR_UNSUPPORTED: return "the requested combination is not supported";
    case FEINT_ERR_NO_DEVICE: return "a device was required but none is available";
    case FEINT_ERR_ALLOC: return "memory allocation failed";
    case FEINT_ERR_DEVICE: return "the device runtime reported an error";
    case FEINT_ERR_DEGENERATE: return "an element is degenerate or inverted";
    case FEINT_ERR_NOT_AFFINE: return "a geo_linear variant was given a non-affine element";
    case FEINT_ERR_NOT_FINITE:
      return "an input value (a coefficient or coordinate) is not finite, or an element's result "
             "would exceed the range of double";
    case FEINT_ERR_FORMAT: return "a file is malformed";
    case FEINT_ERR_IO: return "a file could not be opened, read or written";
    case FEINT_ERR_BAD_COEFF:
      return "a physical coefficient is inadmissible (elasticity: mu < 0, lambda + 2 mu / 3 <= 0, "
             "or NaN; poisson_kappa: kappa <= 0 or NaN)";
    case FEINT_ERR_NOT_CONVERGED:
      return "an iterative solver stopped at its iteration limit without reaching the tolerance";
    case FEINT_ERR_BREAKDOWN:
      return "an iterative solver broke down (p^T A p <= 0 or a zero division): the operator or "
             "preconditioner is not symmetric positive definite";
    case FEINT_STATUS_COUNT: break;
  }
  return "unknown status code";
}

const char *feint_last_error(void) { return feint_error_buf; }

void feint_error_clear(void) { feint_error_buf[0] = '\0'; }

feint_status feint_error_set(feint_status status, const char *func, const char *file, int line,
                             const char *fmt, ...) {
  int n = snprintf(feint_error_buf, sizeof feint_error_buf, "%s(): ", func);
  if (n < 0 || (size_t)n >= sizeof feint_error_buf) return status;
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(feint_error_buf + n, sizeof feint_error_buf - (size_t)n, fmt, ap);
  va_end(ap);
  (void)file;
  (void)line; /* kept for debuggers; the message names the function */
  return status;
}
