/* pm_test_util.h - helper of the perfmodel tests (t4xx): a status check that
 * reads the perfmodel's own error record, feint_pm_last_error(). */
#ifndef FEINT_PM_TEST_UTIL_H
#define FEINT_PM_TEST_UTIL_H

#include "feint_perfmodel.h"
#include "test_util.h"

/* 1 if substr is NULL or feint_pm_last_error() contains it.  (A function,
 * not an expression in the macro: gcc's -Wnonnull flags strstr(x, NULL) even
 * in a branch that cannot run.) */
static inline int pm_message_has(const char *substr) {
  return substr == NULL || strstr(feint_pm_last_error(), substr) != NULL;
}

/* Check a status and, if substr != NULL, that feint_pm_last_error() contains
 * substr. */
#define PM_CHECK_STATUS(call, expected, substr)                                                \
  do {                                                                                         \
    feint_status st_ = (call);                                                                 \
    if (st_ != (expected))                                                                     \
      TEST_FAIL("%s returned %d, expected %d; message: %s", #call, (int)st_, (int)(expected), \
                feint_pm_last_error());                                                        \
    else if (!pm_message_has(substr))                                                         \
      TEST_FAIL("%s: message \"%s\" lacks \"%s\"", #call, feint_pm_last_error(),             \
                (const char *)(substr));                                                       \
  } while (0)

#endif /* FEINT_PM_TEST_UTIL_H */
