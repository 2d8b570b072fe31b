/* t407: perfmodel's assembly counts (perfmodel/assembly.c) against totals
 * counted by hand for one cube cut into 6 Kuhn tetrahedra and one cube cut
 * into 2 prisms (scalar and elasticity), and for a mesh of 1000 elements (the
 * chunk colour order), by search and with a position map, exact integer
 * equality; argument errors. */
#include "feint_perfmodel.h"
#include "test_util.h"

static void expect_mapped(feint_element el, feint_problem pb, feint_assemble_strategy st,
                          int map_offset_bytes, size_t E, size_t V, size_t Z, long long bytes,
                          long long extra_flops, const char *what) {
  const size_t nc = pb == FEINT_ELASTICITY ? 3 : 1;
  feint_pm_assembly_counts a;
  feint_pm_counts c;
  CHECK_STATUS(feint_pm_assembly_mapped_counts_get(el, pb, FEINT_QSS_GEO_GENERIC, st,
                                                   map_offset_bytes, E, V, Z, &a),
               FEINT_SUCCESS, NULL);
  if (!map_offset_bytes) { /* the search's counts, the same by either function */
    feint_pm_assembly_counts s;
    CHECK_STATUS(feint_pm_assembly_counts_get(el, pb, FEINT_QSS_GEO_GENERIC, st, E, V, Z, &s),
                 FEINT_SUCCESS, NULL);
    CHECK(s.bytes_compulsory == a.bytes_compulsory && s.bytes_positions == 0,
          "%s: feint_pm_assembly_counts_get differs", what);
  }
  CHECK_STATUS(feint_pm_counts_get(el, pb, FEINT_QSS_GEO_GENERIC, &c), FEINT_SUCCESS, NULL);
  CHECK(a.bytes_compulsory == bytes, "%s: %lld bytes, hand count %lld", what, a.bytes_compulsory,
        bytes);
  CHECK(a.flops == (long long)E * c.flops + extra_flops, "%s: %lld flops, hand count %lld", what,
        a.flops, (long long)E * c.flops + extra_flops);
  CHECK(a.bytes_zeroing == 8 * (long long)(Z + nc * V), "%s: zeroing %lld", what,
        a.bytes_zeroing);
}

static void expect(feint_element el, feint_problem pb, feint_assemble_strategy st, size_t E,
                   size_t V, size_t Z, long long bytes, long long extra_flops, const char *what) {
  expect_mapped(el, pb, st, 0, E, V, Z, bytes, extra_flops, what);
}

int main(void) {
  /* One cube, 6 Kuhn tets on the diagonal 0-7: V = 8; vertices 0 and 7 see
   * all 8, the other 6 see 5 each (e.g. x-corner 1: tets {0,1,3,7},
   * {0,1,5,7} -> {0,1,3,5,7}): nnz = 8 + 8 + 30 = 46.
   * Poisson, colouring: conn 4*4*6 = 96, coords 24*8 = 192, coeffs 8*4*6 =
   * 192, colour order: one chunk, 4, pattern 8*9 + 4*46 = 256, values
   * 16*46 = 736, vector 16*8 = 128: 1604.  Scatter additions 6 * (16 + 4) =
   * 120. */
  expect(FEINT_TET4, FEINT_POISSON, FEINT_ASSEMBLE_COLOURING, 6, 8, 46, 1604, 120, "tet poisson");
  /* atomics: no colour order, a block reach instead (one block of 8 slots,
   * two 32-bit chunk indices): 1604 - 4 + 8 = 1608 */
  expect(FEINT_TET4, FEINT_POISSON, FEINT_ASSEMBLE_ATOMICS, 6, 8, 46, 1608, 120, "tet atomics");
  /* conv-diff: coeffs 8*20*6 = 960 instead of 192: 1604 + 768 = 2372 */
  expect(FEINT_TET4, FEINT_CONVDIFF, FEINT_ASSEMBLE_COLOURING, 6, 8, 46, 2372, 120, "tet cd");
  /* elasticity, 3 dofs per vertex: 24 rows, nnz = 9 * 46 = 414; conn 96,
   * coords 192, coeffs 8*(2 + 3*4)*6 = 672, colour order 4, pattern
   * 8*25 + 4*414 = 1856, values 16*414 = 6624, vector 16*24 = 384: 9828.
   * Scatter additions 6 * (12*12 + 12) = 936. */
  expect(FEINT_TET4, FEINT_ELASTICITY, FEINT_ASSEMBLE_COLOURING, 6, 8, 414, 9828, 936,
         "tet elasticity");
  /* One cube, 2 prisms sharing the diagonal face: V = 8; the 4 vertices on
   * the diagonal face see all 8, the other 4 see their prism's 6:
   * nnz = 32 + 24 = 56.  Poisson colouring: conn 4*6*2 = 48, coords 192,
   * coeffs 8*6*2 = 96, colour order 4, pattern 72 + 224 = 296, values 896,
   * vector 128: 1660.  Scatter additions 2 * (36 + 6) = 84. */
  expect(FEINT_PRISM6, FEINT_POISSON, FEINT_ASSEMBLE_COLOURING, 2, 8, 56, 1660, 84, "prism");
  /* 1000 elements (sizes only; V = 8, nnz = 46 kept): 1000 / 128 -> 8
   * chunks, colour order 32 bytes; conn 16000, coords 192, coeffs 32000,
   * pattern 256, values 736, vector 128: 49344 (atomics: 125 blocks of 8,
   * reach 1000 bytes: 49344 - 32 + 1000 = 50312) */
  expect(FEINT_TET4, FEINT_POISSON, FEINT_ASSEMBLE_COLOURING, 1000, 8, 46, 49344, 20000,
         "1000 tets colouring");
  expect(FEINT_TET4, FEINT_POISSON, FEINT_ASSEMBLE_ATOMICS, 1000, 8, 46, 50312, 20000,
         "1000 tets atomics");
  /* With a position map (feint_assembly_map) of w-byte offsets: + w N_S^2 E
   * bytes of offsets, - 4 nnz bytes of columns (not read).  32-bit (w = 4):
   * tets, Poisson: 1604 - 4*46 + 4*16*6 = 1604 - 184 + 384 = 1804; atomics
   * 1808.  Elasticity (one offset per node pair, not per dof pair): 9828 -
   * 4*414 + 384 = 8556.  Prisms: 1660 - 4*56 + 4*36*2 = 1660 - 224 + 288 =
   * 1724.  1-byte (w = 1): the offsets cost a quarter, 96 instead of 384
   * (tets) and 72 instead of 288 (prisms): 1516, 1520, 8268, 1508.  Flops
   * unchanged. */
  expect_mapped(FEINT_TET4, FEINT_POISSON, FEINT_ASSEMBLE_COLOURING, 4, 6, 8, 46, 1804, 120,
                "tet poisson map");
  expect_mapped(FEINT_TET4, FEINT_POISSON, FEINT_ASSEMBLE_ATOMICS, 4, 6, 8, 46, 1808, 120,
                "tet atomics map");
  expect_mapped(FEINT_TET4, FEINT_ELASTICITY, FEINT_ASSEMBLE_COLOURING, 4, 6, 8, 414, 8556, 936,
                "tet elasticity map");
  expect_mapped(FEINT_PRISM6, FEINT_POISSON, FEINT_ASSEMBLE_COLOURING, 4, 2, 8, 56, 1724, 84,
                "prism map");
  expect_mapped(FEINT_TET4, FEINT_POISSON, FEINT_ASSEMBLE_COLOURING, 1, 6, 8, 46, 1516, 120,
                "tet poisson map8");
  expect_mapped(FEINT_TET4, FEINT_POISSON, FEINT_ASSEMBLE_ATOMICS, 1, 6, 8, 46, 1520, 120,
                "tet atomics map8");
  expect_mapped(FEINT_TET4, FEINT_ELASTICITY, FEINT_ASSEMBLE_COLOURING, 1, 6, 8, 414, 8268, 936,
                "tet elasticity map8");
  expect_mapped(FEINT_PRISM6, FEINT_POISSON, FEINT_ASSEMBLE_COLOURING, 1, 2, 8, 56, 1508, 84,
                "prism map8");
  feint_pm_assembly_counts a;
  CHECK_STATUS(feint_pm_assembly_mapped_counts_get(FEINT_TET4, FEINT_POISSON, 0, 0, 2, 6, 8, 46,
                                                   &a),
               FEINT_ERR_OUT_OF_RANGE, "map_offset_bytes = 2");
  CHECK_STATUS(feint_pm_assembly_counts_get(FEINT_TET4, FEINT_POISSON, 0, 0, 6, 8, 46, NULL),
               FEINT_ERR_NULL_ARG, "out");
  CHECK_STATUS(feint_pm_assembly_counts_get(FEINT_TET4, FEINT_POISSON, 0,
                                            (feint_assemble_strategy)5, 6, 8, 46, &a),
               FEINT_ERR_OUT_OF_RANGE, "strategy = 5");
  CHECK_STATUS(feint_pm_assembly_counts_get(FEINT_TET4, FEINT_POISSON, 0, 0, (size_t)1 << 60, 8,
                                            46, &a),
               FEINT_ERR_BAD_SIZE, "too large");
  return test_finish("t407_pm_assembly");
}
