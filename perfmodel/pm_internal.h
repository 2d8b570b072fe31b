/* pm_internal.h - internal helpers of the perfmodel module: the error record
 * behind feint_pm_last_error() and the check macro.  Not installed. */
#ifndef FEINT_PM_INTERNAL_H
#define FEINT_PM_INTERNAL_H

#include "feint_perfmodel.h"

#if defined(__GNUC__)
#define FEINT_PM_HIDDEN __attribute__((visibility("hidden")))
#define FEINT_PM_PRINTF(f, a) __attribute__((format(printf, f, a)))
#else
#define FEINT_PM_HIDDEN
#define FEINT_PM_PRINTF(f, a)
#endif

/* Record "func(): message" as this thread's last error and return status. */
FEINT_PM_HIDDEN feint_status feint_pm_error(feint_status status, const char *func,
                                            const char *fmt, ...) FEINT_PM_PRINTF(3, 4);

/* Check a condition at the API boundary (stays on in optimised builds): on
 * failure record the message and return the status from the caller. */
#define FEINT_PM_CHECK(cond, status, ...)                        \
  do {                                                           \
    if (!(cond)) return feint_pm_error((status), __func__, __VA_ARGS__); \
  } while (0)

/* Propagate a failing status (its message is already recorded). */
#define FEINT_PM_CALL(expr)              \
  do {                                   \
    feint_status st_ = (expr);           \
    if (st_ != FEINT_SUCCESS) return st_; \
  } while (0)

#endif /* FEINT_PM_INTERNAL_H */
