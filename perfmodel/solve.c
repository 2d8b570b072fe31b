/* solve.c - memory and flop counts of one iteration of feint_solve's CG and
 * pipelined CG (src/solve/solve.c) on n unknowns, plus the operator
 * application.  Pure functions; exact integers.
 *
 * Vector passes per iteration (doubles read + written per unknown; J =
 * Jacobi adds the inverse diagonal m = 1/diag(A) where a pass forms
 * z = m r or m q):
 *  CG            p^T q                         2 reads            flops 2
 *                x += a p, r -= a q; r^T r, r^T z
 *                                              x p r q (m) read, x r written
 *                                              6 + J              flops 8 + J
 *                p = z + b p                   r (m) p read, p written
 *                                              3 + J              flops 2 + J
 *                total                         11 + 2J            12 + 2J
 *  pipelined CG  x += a p, r -= a q, p = z + b p
 *                                              x p r q (m) read, x r p written
 *                                              7 + J              flops 6 + J
 *                q^T m q, p^T q, r^T r, r^T m r
 *                                              q r p (m) read
 *                                              3 + J              flops 8 + 2J
 *                total                         10 + 2J            14 + 3J
 * Bytes = 8 x doubles x n (compulsory: each vector entry once per pass).
 * Reductions (global synchronisations): CG 2, pipelined CG 1.
 * The assembled operator's SpMV (feint_csr_spmv): row offsets 8 (n + 1),
 * columns 4 nnz, values 8 nnz, x 8 n (each entry once: the gathers of
 * other rows hit cache in the best case), y 8 n; flops 2 nnz. */
#include "pm_internal.h"

feint_status feint_pm_cg_counts_get(feint_solver solver, feint_pc pc, size_t n, size_t nnz,
                                    feint_pm_cg_counts *out) {
  FEINT_CHECK(out != NULL, FEINT_ERR_NULL_ARG, "out is NULL");
  FEINT_CHECK_ENUM(solver, FEINT_SOLVER_COUNT, "solver", "feint_solver");
  FEINT_CHECK_ENUM(pc, FEINT_PC_COUNT, "pc", "feint_pc");
  const long long lim = (long long)1 << 52; /* keeps every product below 2^63 */
  FEINT_CHECK(n < (size_t)lim && nnz < (size_t)lim, FEINT_ERR_BAD_SIZE,
              "n = %zu, nnz = %zu: too large", n, nnz);
  const long long N = (long long)n, Z = (long long)nnz, J = pc == FEINT_PC_JACOBI;
  feint_pm_cg_counts c;
  if (solver == FEINT_SOLVER_CG) {
    c.bytes_vectors = 8 * (11 + 2 * J) * N;
    c.flops_vectors = (12 + 2 * J) * N;
    c.reductions = 2;
  } else {
    c.bytes_vectors = 8 * (10 + 2 * J) * N;
    c.flops_vectors = (14 + 3 * J) * N;
    c.reductions = 1;
  }
  c.bytes_apply = 8 * (N + 1) + 12 * Z + 16 * N;
  c.flops_apply = 2 * Z;
  c.bytes = c.bytes_vectors + c.bytes_apply;
  c.flops = c.flops_vectors + c.flops_apply;
  *out = c;
  return FEINT_SUCCESS;
}
