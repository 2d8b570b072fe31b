/* operator.c - memory and flop counts of one application y = A x of a
 * feint_operator (include/feint.h), totals over a mesh of E elements, V
 * vertices, N = d V dofs (d dofs per vertex) and nnz stored CSR entries.
 * Pure functions; exact integers.  N_D = d N_S dofs per element.
 *
 * Compulsory traffic (bytes), what must move at least once per application:
 *  x              8 N        every entry read once (the gathers of the other
 *                            elements sharing a vertex hit cache at best)
 *  y              8 N        every entry written once; the matrix-free forms
 *                            also zero y first and add into it: that pass,
 *                            8 N written, is reported apart (bytes_zeroing),
 *                            and the re-reads of y entries the scatter makes
 *                            hit cache at best
 *  RECOMPUTE      4 N_S E    connectivity, read once in mesh order (host:
 *                            chunks of consecutive elements; device
 *                            colouring: a copy in colour order), so no
 *                            separate colour order
 *                 24 V       coordinates, once per vertex
 *                 8 C E      coefficients that enter A^e: conv-diff C = 20,
 *                            elasticity C = 2 + 3 N_Q (the variants read the
 *                            body force too), Poisson C = 0 (f is not read)
 *  PRECOMPUTED    4 N_S E    connectivity copied in visiting order (the
 *                            device, and the host's straight loop; the
 *                            host's windows, operator/matfree.c, read
 *                            2 N_S E of 16-bit window-local indices and 4 W
 *                            of window vertices, W >= V the sum of their
 *                            counts, and touch x and y W times, not V:
 *                            tet4 Poisson on a 4.09 M box, W = 2.2 V, 8 +
 *                            1.5 + 5.1 bytes per tet in place of 16;
 *                            Hilbert order, W = 1.4 V, 8 + 1 + 1.6; the
 *                            count here stays the 4-byte one)
 *                 8 K E      A^e packed: K = N_D (N_D + 1) / 2 (symmetric
 *                            problems) or N_D^2 (conv-diff); the padding of
 *                            each run (host chunk, device colour) to whole
 *                            blocks is not counted
 *  ASSEMBLED      8 (N + 1) + 12 nnz   row offsets, columns and values
 *
 * Per-quadrature-point geometric factors (the other PRECOMPUTED layout of
 * seed 003) would stream 8 (6 P + C') E bytes: 6 doubles of the symmetric
 * vol J^-1 J^-T at P points (P = 1 for tet4, whose J is constant; N_Q for
 * prisms and hexahedra), C' coefficients per element (elasticity lambda and
 * mu: 2; conv-diff 20; Poisson 0); bytes_qpt_factors gives it so the choice
 * of packed A^e can be read off per case (operator/matfree.c).
 *
 *  QPOINT         4 N_S E    connectivity copied in visiting order (the
 *                            host: windows, as PRECOMPUTED)
 *                 48 P E     the factors G_q (6 doubles per point, P points:
 *                            tet4 1, hex8 8); Poisson on tet4 and hex8 only;
 *                            blocks of 8 affine hex8 cells store one G per
 *                            cell: 48 (P - 1) E less on an all-affine mesh
 *                            (bytes_affine_saving)
 *
 * Flops: QPOINT E (F + N_S), F the cell's gradient -> factor -> test chain
 * (operator/qpoint.h): tet4 3 + 15 + 2 = 20, hex8 by sum factorisation
 * 32 + 56 + 176 + 56 + 64 + 40 = 424; RECOMPUTE E (the variant's executed element flops, counts.c, +
 * 2 N_D^2 for y_e = A^e x_e + N_D additions into y); PRECOMPUTED
 * E (2 N_D^2 + N_D); ASSEMBLED 2 nnz. */
#include "pm_internal.h"

feint_status feint_pm_operator_counts_get(feint_element element, feint_problem problem,
                                          feint_variant variant, feint_operator_form form,
                                          feint_assemble_strategy strategy, size_t num_elem,
                                          size_t num_vertices, size_t nnz,
                                          feint_pm_operator_counts *out) {
  FEINT_CHECK(out != NULL, FEINT_ERR_NULL_ARG, "out is NULL");
  FEINT_CHECK_ENUM(form, FEINT_OPERATOR_FORM_COUNT, "form", "feint_operator_form");
  FEINT_CHECK_ENUM(strategy, FEINT_ASSEMBLE_COUNT, "strategy", "feint_assemble_strategy");
  feint_pm_counts c;
  FEINT_CALL(feint_pm_counts_get(element, problem, variant, &c));
  const long long lim = (long long)1 << 50; /* keeps every product below 2^63 */
  FEINT_CHECK(num_elem < (size_t)lim && num_vertices < (size_t)lim && nnz < (size_t)lim,
              FEINT_ERR_BAD_SIZE, "num_elem = %zu, num_vertices = %zu, nnz = %zu: too large",
              num_elem, num_vertices, nnz);
  const long long E = (long long)num_elem, V = (long long)num_vertices, Z = (long long)nnz;
  const int vec = problem == FEINT_ELASTICITY || problem == FEINT_ELASTICITY_QP;
  const long long ns = c.num_nodes, d = vec ? 3 : 1, N = d * V;
  const long long nd = d * ns, nq = c.num_qpts;
  const long long C = problem == FEINT_POISSON ? 0 : c.coeffs;
  const long long K = problem == FEINT_CONVDIFF ? nd * nd : nd * (nd + 1) / 2;
  feint_pm_operator_counts r = {0};
  r.bytes_vectors = 16 * N;
  r.bytes_zeroing = form == FEINT_OPERATOR_ASSEMBLED ? 0 : 8 * N;
  const long long P = element == FEINT_TET4 ? 1 : nq;
  r.bytes_qpt_factors = 8 * (6 * P + (problem == FEINT_ELASTICITY ? 2 : C)) * E;
  if (form == FEINT_OPERATOR_RECOMPUTE) {
    r.bytes_conn = 4 * ns * E;
    r.bytes_coords = 24 * V;
    r.bytes_coeffs = 8 * C * E;
    r.bytes_map = 0; /* both strategies stream conn in visiting order */
    r.flops = E * (c.flops + 2 * nd * nd + nd);
  } else if (form == FEINT_OPERATOR_QPOINT) {
    FEINT_CHECK(problem == FEINT_POISSON && (element == FEINT_TET4 || element == FEINT_HEX8),
                FEINT_ERR_UNSUPPORTED,
                "%s/%s: the per-quadrature-point form covers Poisson on tet4 and hex8 only",
                feint_element_name(element), feint_problem_name(problem));
    r.bytes_conn = 4 * ns * E;
    r.bytes_elem_data = 8 * 6 * P * E;
    r.bytes_affine_saving = 8 * 6 * (P - 1) * E;
    r.flops = E * ((element == FEINT_TET4 ? 20 : 424) + ns);
  } else if (form == FEINT_OPERATOR_PRECOMPUTED) {
    r.bytes_conn = 4 * ns * E;
    r.bytes_elem_data = 8 * K * E;
    r.flops = E * (2 * nd * nd + nd);
  } else {
    r.bytes_matrix = 8 * (N + 1) + 12 * Z;
    r.flops = 2 * Z;
  }
  r.bytes_compulsory = r.bytes_vectors + r.bytes_conn + r.bytes_coords + r.bytes_coeffs +
                       r.bytes_map + r.bytes_elem_data + r.bytes_matrix;
  *out = r;
  return FEINT_SUCCESS;
}
