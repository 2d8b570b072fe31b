/* 02_mesh_batch - a batch of elements in one call: a perturbed tetrahedral
 * mesh of the unit box (feint_mesh_box), load f = 1, all elements integrated
 * by one feint_integrate call with blocked input and output, A^e and b^e
 * converted back to the natural layout.  Checks two mesh-wide identities:
 *   sum of all b^e entries = box volume = 1   (sum_r phi_r = 1)
 *   sum of all A^e entries = 0                (constants are in the kernel
 *                                              of the Laplace operator)
 * and prints the counts, the sums and their errors.
 *
 * Build: make examples   (or, with the compiler that built the library:
 *                          clang-19 -std=c11 -fopenmp -Iinclude
 *                          examples/02_mesh_batch.c build/lib/libfeint.a -lm)
 * Run:   build/examples/02_mesh_batch [--quiet]
 *        --quiet prints nothing; exit 0 if both errors are within round-off,
 *        1 otherwise.
 */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "feint.h"

#define CELLS 12          /* cells per box edge: 6 * 12^3 = 10368 tetrahedra */
#define AMPLITUDE 0.15    /* vertex perturbation, in cell sizes (< 1/6 keeps elements valid) */
/* Round-off: a sum of M terms carries at most (M - 1) eps sum |terms|; each
 * term carries ~ELEMENT_OPS roundings of its own (Jacobian, inverse,
 * products, quadrature), relative to the same scale.  The A^e entries are
 * summed per element first (each element's sum is ~0, so the long sum over
 * elements adds only tiny terms). */
#define ELEMENT_OPS 100.0

static int fail(int quiet, const char *what) {
  if (!quiet) fprintf(stderr, "%s: %s\n", what, feint_last_error());
  return 1;
}

int main(int argc, char **argv) {
  const int quiet = argc > 1 && strcmp(argv[1], "--quiet") == 0;
  const feint_integrate_desc desc = {FEINT_TET4, FEINT_POISSON, FEINT_SQS_GEO_GENERIC,
                                     FEINT_LAYOUT_BLOCKED, FEINT_LAYOUT_BLOCKED, 0, FEINT_TARGET_HOST, 0};
  size_t num_elem, len[FEINT_ARRAY_COUNT], entries[FEINT_ARRAY_COUNT];
  if (feint_mesh_box_count(FEINT_TET4, CELLS, CELLS, CELLS, &num_elem)) return fail(quiet, "count");
  for (int k = 0; k < FEINT_ARRAY_COUNT; k++)
    if (feint_array_entries(FEINT_TET4, FEINT_POISSON, (feint_array)k, &entries[k]) ||
        feint_array_len(FEINT_TET4, FEINT_POISSON, (feint_array)k, FEINT_LAYOUT_BLOCKED, num_elem,
                        &len[k]))
      return fail(quiet, "sizes");

  double *geometry = malloc(len[FEINT_ARRAY_GEOMETRY] * sizeof(double));
  double *coeffs_natural = malloc(num_elem * entries[FEINT_ARRAY_COEFFS] * sizeof(double));
  double *coeffs = malloc(len[FEINT_ARRAY_COEFFS] * sizeof(double));
  double *A_blocked = malloc(len[FEINT_ARRAY_A] * sizeof(double));
  double *b_blocked = malloc(len[FEINT_ARRAY_B] * sizeof(double));
  double *A = malloc(num_elem * entries[FEINT_ARRAY_A] * sizeof(double));
  double *b = malloc(num_elem * entries[FEINT_ARRAY_B] * sizeof(double));
  int status = 1;
  if (!geometry || !coeffs_natural || !coeffs || !A_blocked || !b_blocked || !A || !b) {
    if (!quiet) fprintf(stderr, "out of memory\n");
    goto done;
  }
  /* the mesh is written directly in the blocked layout; the coefficients
   * are built natural ([num_elem][N_Q]) and converted */
  if (feint_mesh_box(FEINT_TET4, CELLS, CELLS, CELLS, FEINT_PERTURB_GENERAL, AMPLITUDE, 2024,
                     FEINT_LAYOUT_BLOCKED, geometry)) {
    fail(quiet, "feint_mesh_box");
    goto done;
  }
  for (size_t k = 0; k < num_elem * entries[FEINT_ARRAY_COEFFS]; k++) coeffs_natural[k] = 1.0;
  if (feint_layout_convert(num_elem, entries[FEINT_ARRAY_COEFFS], FEINT_LAYOUT_NATURAL,
                           coeffs_natural, FEINT_LAYOUT_BLOCKED, coeffs) ||
      feint_integrate(&desc, num_elem, geometry, coeffs, A_blocked, b_blocked) ||
      feint_layout_convert(num_elem, entries[FEINT_ARRAY_A], FEINT_LAYOUT_BLOCKED, A_blocked,
                           FEINT_LAYOUT_NATURAL, A) ||
      feint_layout_convert(num_elem, entries[FEINT_ARRAY_B], FEINT_LAYOUT_BLOCKED, b_blocked,
                           FEINT_LAYOUT_NATURAL, b)) {
    fail(quiet, "integration");
    goto done;
  }

  double b_sum = 0.0, b_abs = 0.0, A_sum = 0.0, A_abs = 0.0;
  const size_t nb = num_elem * entries[FEINT_ARRAY_B];
  for (size_t k = 0; k < nb; k++) b_sum += b[k], b_abs += fabs(b[k]);
  double elem_sums_abs = 0.0;
  for (size_t e = 0; e < num_elem; e++) {
    double elem_sum = 0.0;
    for (size_t k = e * entries[FEINT_ARRAY_A]; k < (e + 1) * entries[FEINT_ARRAY_A]; k++)
      elem_sum += A[k], A_abs += fabs(A[k]);
    A_sum += elem_sum;
    elem_sums_abs += fabs(elem_sum);
  }
  const double b_err = fabs(b_sum - 1.0), A_err = fabs(A_sum);
  const double b_tol = ((double)nb + ELEMENT_OPS) * DBL_EPSILON * b_abs;
  const double A_tol = ((double)entries[FEINT_ARRAY_A] + ELEMENT_OPS) * DBL_EPSILON * A_abs +
                       (double)num_elem * DBL_EPSILON * elem_sums_abs;
  const int pass = b_err <= b_tol && A_err <= A_tol; /* NaN fails */
  if (!quiet) {
    feint_variant_info vi;
    feint_variant_get_info(desc.variant, &vi);
    printf("feint %s: %zu tetrahedra (%d^3 cells, perturbation %.2f), variant %s, blocked "
           "layout (block %d)\n",
           FEINT_VERSION_STRING, num_elem, CELLS, AMPLITUDE, vi.name, FEINT_BLOCK_LEN);
    printf("%-22s %-22s %-8s %-10s %-10s\n", "quantity", "computed", "exact", "error",
           "tolerance");
    printf("%-22s %-22.17g %-8g %-10.2e %-10.2e\n", "sum of b^e entries", b_sum, 1.0, b_err, b_tol);
    printf("%-22s %-22.17g %-8g %-10.2e %-10.2e\n", "sum of A^e entries", A_sum, 0.0, A_err, A_tol);
    printf("%s\n", pass ? "PASS" : "FAIL");
  }
  status = pass ? 0 : 1;
done:
  free(geometry), free(coeffs_natural), free(coeffs), free(A_blocked), free(b_blocked), free(A),
      free(b);
  return status;
}
