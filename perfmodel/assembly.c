/* assembly.c - memory and flop counts of feint_assemble (the fused gather +
 * integrate + assemble of a problem's CSR matrix and vector on a mesh),
 * totals over a mesh of E elements, V vertices and nnz stored entries, with
 * N_C dofs per vertex (1; 3 for elasticity: 3 V rows).  Pure functions;
 * exact integers.
 *
 * Compulsory traffic, what must move at least once (bytes):
 *  connectivity   4 N_S E      32-bit vertex indices, read once
 *  coordinates    24 V         each vertex's x, y, z read once (the
 *                              gathers of the other elements sharing it hit
 *                              cache in the best case)
 *  coefficients   8 C E        C = N_Q (Poisson), 20 (conv-diff) or
 *                              2 + 3 N_Q (elasticity)
 *  colour order   4 ceil(E / L) colouring on the host: the chunks of L =
 *                              feint_asm_chunk_len(E) elements by colour
 *                              (32-bit indices, read once);
 *  block reach    8 ceil(E / B) atomics on the host: for each block of B =
 *                              FEINT_BLOCK_LEN elements the lowest and the
 *                              highest chunk sharing a vertex with it (two
 *                              32-bit indices, read once; a private block
 *                              adds without atomics).
 *  positions      search (feint_assemble): 0 bytes of map; the search
 *                              reads the pattern's columns (below).
 *                 map (feint_assemble_mapped with a feint_assembly_map):
 *                              w N_S^2 E, one offset of w bytes per element
 *                              and node pair, read once (with N_C = 3 one
 *                              offset serves the pair's 3 x 3 entries); w =
 *                              1 when every offset fits a byte (a mesh's own
 *                              pattern), else 4 (assembly/map.c).
 *  pattern        search: 8 (N_C V + 1) + 4 nnz, row offsets and columns
 *                              read once (the search reads them);
 *                 map: 8 (N_C V + 1), the row offsets only (the map is
 *                              relative to the row start; no column is read)
 *  CSR values     16 nnz       each entry read and written once (+=)
 *  vector         16 N_C V     each entry read and written once (+=)
 *  Not in the bound, reported apart: the zeroing pass feint_assemble makes
 *  first, 8 (nnz + N_C V) bytes written (bytes_zeroing).
 * Flops: E times the variant's executed element flops (feint_pm_counts_get,
 * counts.c) plus the N_D^2 + N_D additions of the scatter per element
 * (N_D = N_C N_S dofs). */
#include "pm_internal.h"

feint_status feint_pm_assembly_counts_get(feint_element element, feint_problem problem,
                                          feint_variant variant,
                                          feint_assemble_strategy strategy, size_t num_elem,
                                          size_t num_vertices, size_t nnz,
                                          feint_pm_assembly_counts *out) {
  return feint_pm_assembly_mapped_counts_get(element, problem, variant, strategy, 0, num_elem,
                                             num_vertices, nnz, out);
}

feint_status feint_pm_assembly_mapped_counts_get(feint_element element, feint_problem problem,
                                                 feint_variant variant,
                                                 feint_assemble_strategy strategy,
                                                 int map_offset_bytes,
                                                 size_t num_elem, size_t num_vertices,
                                                 size_t nnz, feint_pm_assembly_counts *out) {
  FEINT_CHECK(out != NULL, FEINT_ERR_NULL_ARG, "out is NULL");
  FEINT_CHECK_ENUM(strategy, FEINT_ASSEMBLE_COUNT, "strategy", "feint_assemble_strategy");
  const int w = map_offset_bytes;
  FEINT_CHECK(w == 0 || w == 1 || w == 4, FEINT_ERR_OUT_OF_RANGE,
              "map_offset_bytes = %d (0: search; 1 or 4: a position map of 1-byte or 32-bit "
              "offsets)",
              w);
  feint_pm_counts c;
  FEINT_CALL(feint_pm_counts_get(element, problem, variant, &c));
  const long long lim = (long long)1 << 52; /* keeps every product below 2^63 */
  FEINT_CHECK(num_elem < (size_t)lim && num_vertices < (size_t)lim && nnz < (size_t)lim,
              FEINT_ERR_BAD_SIZE, "num_elem = %zu, num_vertices = %zu, nnz = %zu: too large",
              num_elem, num_vertices, nnz);
  const long long E = (long long)num_elem, V = (long long)num_vertices, Z = (long long)nnz;
  const long long ns = c.num_nodes, nc = problem == FEINT_ELASTICITY ? 3 : 1, nd = nc * ns;
  const long long L = (long long)feint_asm_chunk_len(num_elem);
  feint_pm_assembly_counts r;
  r.bytes_conn = 4 * ns * E;
  r.bytes_coords = 24 * V;
  r.bytes_coeffs = 8 * c.coeffs * E;
  const long long B = FEINT_BLOCK_LEN;
  r.bytes_map = strategy == FEINT_ASSEMBLE_COLOURING ? 4 * ((E + L - 1) / L)  /* colour order */
                                                     : 8 * ((E + B - 1) / B); /* block reach */
  r.bytes_positions = w * ns * ns * E;
  r.bytes_pattern = 8 * (nc * V + 1) + (w ? 0 : 4 * Z);
  r.bytes_values = 16 * Z;
  r.bytes_vector = 16 * nc * V;
  r.bytes_zeroing = 8 * (Z + nc * V);
  r.bytes_compulsory = r.bytes_conn + r.bytes_coords + r.bytes_coeffs + r.bytes_map +
                       r.bytes_positions + r.bytes_pattern + r.bytes_values + r.bytes_vector;
  r.flops = E * (c.flops + nd * nd + nd);
  *out = r;
  return FEINT_SUCCESS;
}
