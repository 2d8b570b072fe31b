/*
 * solve_internal.h - inside src/solve/ (not installed).
 */
#ifndef FEINT_SOLVE_INTERNAL_H
#define FEINT_SOLVE_INTERNAL_H

#include "feint_internal.h"

/* The operator as the solver sees it: y = A x and diag(A) through callbacks,
 * so that the iteration is tested on matrices a test writes (indefinite,
 * singular, NaN-producing) as well as on feint_operator (feint_solve wraps
 * one).  apply: x, y in the memory space of the passes (device pointers on
 * `device` when device_ptrs); diagonal: a host array [n]. */
typedef struct {
  size_t n;
  int symmetric;   /* 0: refused (CG needs a symmetric operator) */
  int device_ptrs; /* 1: apply takes device pointers on `device` */
  int device;
  feint_status (*apply)(void *ctx, const double *x, double *y);
  feint_status (*diagonal)(void *ctx, double *diag);
  void *ctx;
} feint_solve_operator;

/* feint_solve on a callback operator, with the choice of where the vector
 * passes run: target_kernels = 0: where the operator runs (device_ptrs: on
 * its device; else host threads), what feint_solve does; target_kernels = 1
 * (offload builds only; a host operator): in target regions on the initial
 * device (the host), the vectors allocated by omp_target_alloc there: the
 * device code path (teams, two-stage reductions, no host pointer in a target
 * region) run in host fallback, so that a build without a GPU tests it
 * (t901).  In a host-only build 1 gives FEINT_ERR_NO_DEVICE. */
/* Not part of the API, but exported (default visibility, unlike
 * FEINT_INTERNAL): the offload build links the tests against libfeint.so
 * (gpu.mk), and t901, t902 call it. */
#define FEINT_SOLVE_TEST_EXPORT __attribute__((visibility("default")))
FEINT_SOLVE_TEST_EXPORT feint_status feint_solve_run(const feint_solve_operator *A,
                                                     const feint_solve_desc *desc,
                                                     const double *b, double *x,
                                                     feint_solve_info *info, int target_kernels);

#endif /* FEINT_SOLVE_INTERNAL_H */
