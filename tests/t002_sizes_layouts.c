/* t002_sizes_layouts: array sizes (Table 3 of the paper, and the same pattern for the variable-coefficient cases), natural, blocked and packed array lengths, the blocked index formula and bitwise layout round trips, variant and name introspection. */
#include <stdlib.h>

#include "test_util.h"

#define B FEINT_BLOCK_LEN

/* Table 3 of the paper: doubles per element of each array. */
static void check_table3(void) {
  static const struct {
    feint_element element;
    feint_problem problem;
    size_t entries[FEINT_ARRAY_COUNT]; /* geometry, coeffs, A, b */
    size_t total;
  } table3[4] = {
      {FEINT_TET4, FEINT_POISSON, {12, 4, 16, 4}, 36},
      {FEINT_PRISM6, FEINT_POISSON, {18, 6, 36, 6}, 66},
      {FEINT_TET4, FEINT_CONVDIFF, {12, 20, 16, 4}, 52},
      {FEINT_PRISM6, FEINT_CONVDIFF, {18, 20, 36, 6}, 80},
  };
  for (int c = 0; c < 4; c++) {
    size_t total = 0;
    for (int a = 0; a < FEINT_ARRAY_COUNT; a++) {
      size_t entries = 0;
      CHECK_STATUS(feint_array_entries(table3[c].element, table3[c].problem, (feint_array)a,
                                       &entries),
                   FEINT_SUCCESS, NULL);
      CHECK(entries == table3[c].entries[a], "%s/%s array %d: %zu entries, expected %zu",
            feint_element_name(table3[c].element), feint_problem_name(table3[c].problem), a,
            entries, table3[c].entries[a]);
      total += entries;
    }
    CHECK(total == table3[c].total, "%s/%s: %zu doubles per element, expected %zu",
          feint_element_name(table3[c].element), feint_problem_name(table3[c].problem), total,
          table3[c].total);
  }
}

/* The variable-coefficient cases follow Table 3's pattern: geometry 3 N_S,
 * coefficients one record per quadrature point (poisson_kappa (kappa, f):
 * 2 N_Q; elasticity_qp (lambda, mu, f_x, f_y, f_z): 5 N_Q), A (N_C N_S)^2,
 * b N_C N_S. */
static void check_table3_variable(void) {
  static const struct {
    feint_element element;
    feint_problem problem;
    size_t entries[FEINT_ARRAY_COUNT];
  } rows[] = {
      {FEINT_TET4, FEINT_POISSON_KAPPA, {12, 8, 16, 4}},
      {FEINT_PRISM6, FEINT_POISSON_KAPPA, {18, 12, 36, 6}},
      {FEINT_HEX8, FEINT_POISSON_KAPPA, {24, 16, 64, 8}},
      {FEINT_TET4, FEINT_ELASTICITY_QP, {12, 20, 144, 12}},
      {FEINT_PRISM6, FEINT_ELASTICITY_QP, {18, 30, 324, 18}},
      {FEINT_HEX8, FEINT_ELASTICITY_QP, {24, 40, 576, 24}},
      {FEINT_HEX8, FEINT_ELASTICITY, {24, 26, 576, 24}},
  };
  for (size_t c = 0; c < sizeof rows / sizeof rows[0]; c++)
    for (int a = 0; a < FEINT_ARRAY_COUNT; a++) {
      size_t entries = 0, len = 0;
      CHECK_STATUS(feint_array_entries(rows[c].element, rows[c].problem, (feint_array)a, &entries),
                   FEINT_SUCCESS, NULL);
      CHECK(entries == rows[c].entries[a], "%s/%s array %d: %zu entries, expected %zu",
            feint_element_name(rows[c].element), feint_problem_name(rows[c].problem), a, entries,
            rows[c].entries[a]);
      CHECK_STATUS(feint_array_len(rows[c].element, rows[c].problem, (feint_array)a,
                                   FEINT_LAYOUT_BLOCKED, 9, &len),
                   FEINT_SUCCESS, NULL);
      CHECK(len == 16 * rows[c].entries[a], "%s/%s array %d: blocked len(9) = %zu",
            feint_element_name(rows[c].element), feint_problem_name(rows[c].problem), a, len);
    }
}

/* Packed: A_e N (N + 1) / 2 per element (hex8 elasticity 300), the other
 * arrays natural; conv-diff refused; packed is no layout_convert layout. */
static void check_packed_len(void) {
  for (int el = 0; el < FEINT_ELEMENT_COUNT; el++)
    for (int pb = 0; pb < FEINT_PROBLEM_COUNT; pb++)
      for (int a = 0; a < FEINT_ARRAY_COUNT; a++) {
        size_t entries, len = 12345;
        feint_array_entries((feint_element)el, (feint_problem)pb, (feint_array)a, &entries);
        const feint_status st = feint_array_len((feint_element)el, (feint_problem)pb,
                                                (feint_array)a, FEINT_LAYOUT_PACKED, 7, &len);
        if (a == FEINT_ARRAY_A && pb == FEINT_CONVDIFF) {
          CHECK(st == FEINT_ERR_UNSUPPORTED && len == 12345,
                "packed len of conv-diff A_e: status %d, len %zu", (int)st, len);
          continue;
        }
        size_t n = 0;
        feint_array_entries((feint_element)el, (feint_problem)pb, FEINT_ARRAY_B, &n);
        const size_t want = a == FEINT_ARRAY_A ? 7 * n * (n + 1) / 2 : 7 * entries;
        CHECK(st == FEINT_SUCCESS && len == want, "%s/%s array %d: packed len(7) = %zu, want %zu",
              feint_element_name((feint_element)el), feint_problem_name((feint_problem)pb), a, len,
              want);
      }
  size_t len = 0;
  feint_array_len(FEINT_HEX8, FEINT_ELASTICITY, FEINT_ARRAY_A, FEINT_LAYOUT_PACKED, 1, &len);
  CHECK(len == 300, "hex8 elasticity packed A_e: %zu doubles, expected 300", len);
  double src[4] = {1, 2, 3, 4}, dst[4] = {0};
  CHECK_STATUS(feint_layout_convert(1, 4, FEINT_LAYOUT_PACKED, src, FEINT_LAYOUT_NATURAL, dst),
               FEINT_ERR_UNSUPPORTED, "packed");
  CHECK_STATUS(feint_layout_convert(1, 4, FEINT_LAYOUT_NATURAL, src, FEINT_LAYOUT_PACKED, dst),
               FEINT_ERR_UNSUPPORTED, "packed");
  CHECK(dst[0] == 0.0, "refused conversion wrote dst");
}

/* natural: num_elem * entries; blocked: whole blocks. */
static void check_array_len(void) {
  static const size_t counts[] = {0, 1, B - 1, B, B + 1, 2 * B, 1000, 1001};
  for (int el = 0; el < FEINT_ELEMENT_COUNT; el++)
    for (int pb = 0; pb < FEINT_PROBLEM_COUNT; pb++)
      for (int a = 0; a < FEINT_ARRAY_COUNT; a++) {
        size_t entries;
        CHECK_STATUS(feint_array_entries((feint_element)el, (feint_problem)pb, (feint_array)a,
                                         &entries),
                     FEINT_SUCCESS, NULL);
        for (size_t i = 0; i < sizeof counts / sizeof counts[0]; i++) {
          const size_t n = counts[i];
          size_t natural = 0, blocked = 0;
          CHECK_STATUS(feint_array_len((feint_element)el, (feint_problem)pb, (feint_array)a,
                                       FEINT_LAYOUT_NATURAL, n, &natural),
                       FEINT_SUCCESS, NULL);
          CHECK_STATUS(feint_array_len((feint_element)el, (feint_problem)pb, (feint_array)a,
                                       FEINT_LAYOUT_BLOCKED, n, &blocked),
                       FEINT_SUCCESS, NULL);
          const size_t blocks = n / B + (n % B != 0);
          CHECK(natural == n * entries, "natural len(%zu elements, %zu entries) = %zu", n, entries,
                natural);
          CHECK(blocked == blocks * B * entries, "blocked len(%zu elements, %zu entries) = %zu, "
                "expected %zu", n, entries, blocked, blocks * B * entries);
        }
      }
  /* the largest num_elem whose byte count still fits is accepted */
  size_t len;
  const size_t max_natural = SIZE_MAX / sizeof(double) / 16;
  CHECK_STATUS(feint_array_len(FEINT_TET4, FEINT_POISSON, FEINT_ARRAY_A, FEINT_LAYOUT_NATURAL,
                               max_natural, &len),
               FEINT_SUCCESS, NULL);
  CHECK_STATUS(feint_array_len(FEINT_TET4, FEINT_POISSON, FEINT_ARRAY_A, FEINT_LAYOUT_NATURAL,
                               max_natural + 1, &len),
               FEINT_ERR_BAD_SIZE, "overflows");
}

/* Finite doubles with every bit pattern class: normal, subnormal, -0. */
static double random_double(test_rng *rng) {
  uint64_t bits = test_rng_next(rng);
  const uint64_t exp_mask = 0x7FF0000000000000ull;
  if ((bits & exp_mask) == exp_mask) bits &= ~(1ull << 62); /* Inf/NaN -> finite */
  double x;
  memcpy(&x, &bits, sizeof x);
  return x;
}

static void check_round_trip(void) {
  test_rng rng = {20240602u};
  static const size_t sizes[] = {1, 3, 4, 5, 6, 12, 18, 20, 36, 37}; /* below, at and between the 4-entry tiles */
  static const size_t counts[] = {1, B - 1, 3 * B + 5, 101};
  for (size_t is = 0; is < sizeof sizes / sizeof sizes[0]; is++)
    for (size_t ic = 0; ic < sizeof counts / sizeof counts[0]; ic++) {
      const size_t size = sizes[is], n = counts[ic];
      const size_t padded = (n + B - 1) / B * B;
      double *nat = malloc(n * size * sizeof(double));
      double *blk = malloc(padded * size * sizeof(double));
      double *back = malloc(n * size * sizeof(double));
      double *blk2 = malloc(padded * size * sizeof(double));
      if (!nat || !blk || !back || !blk2) {
        TEST_FAIL("allocation failed");
        free(nat), free(blk), free(back), free(blk2);
        return;
      }
      for (size_t k = 0; k < n * size; k++) nat[k] = random_double(&rng);
      nat[0] = -0.0;
      if (n * size > 1) nat[1] = 0x1p-1060; /* subnormal */
      memset(blk, 0xA5, padded * size * sizeof(double));
      double pad_pattern;
      memcpy(&pad_pattern, blk, sizeof pad_pattern);

      CHECK_STATUS(feint_layout_convert(n, size, FEINT_LAYOUT_NATURAL, nat, FEINT_LAYOUT_BLOCKED,
                                        blk),
                   FEINT_SUCCESS, NULL);
      /* the documented index formula */
      int bad = 0;
      for (size_t e = 0; e < n; e++)
        for (size_t k = 0; k < size; k++)
          bad += memcmp(&blk[(e / B) * B * size + k * B + e % B], &nat[e * size + k],
                        sizeof(double)) != 0;
      CHECK(bad == 0, "size %zu, %zu elements: %d blocked entries not at (e/B)*B*size + k*B + e%%B",
            size, n, bad);
      /* padding lanes of the last block are never written */
      int touched = 0;
      for (size_t e = n; e < padded; e++)
        for (size_t k = 0; k < size; k++)
          touched += memcmp(&blk[(e / B) * B * size + k * B + e % B], &pad_pattern,
                            sizeof(double)) != 0;
      CHECK(touched == 0, "size %zu, %zu elements: %d padding entries written", size, n, touched);

      CHECK_STATUS(feint_layout_convert(n, size, FEINT_LAYOUT_BLOCKED, blk, FEINT_LAYOUT_NATURAL,
                                        back),
                   FEINT_SUCCESS, NULL);
      CHECK(memcmp(back, nat, n * size * sizeof(double)) == 0,
            "size %zu, %zu elements: natural -> blocked -> natural not bitwise identical", size, n);
      /* same layout: a plain copy of the valid lanes; blk2's padding lanes
       * keep their own pattern (never written), blk's are never read (a
       * NaN pattern there would not show up in blk2) */
      memset(blk2, 0x5A, padded * size * sizeof(double));
      double pad2;
      memcpy(&pad2, blk2, sizeof pad2);
      CHECK_STATUS(feint_layout_convert(n, size, FEINT_LAYOUT_BLOCKED, blk, FEINT_LAYOUT_BLOCKED,
                                        blk2),
                   FEINT_SUCCESS, NULL);
      int copy_bad = 0;
      for (size_t e = 0; e < padded; e++)
        for (size_t k = 0; k < size; k++) {
          const size_t at = (e / B) * B * size + k * B + e % B;
          copy_bad += memcmp(&blk2[at], e < n ? &blk[at] : &pad2, sizeof(double)) != 0;
        }
      CHECK(copy_bad == 0,
            "size %zu, %zu elements: blocked -> blocked copy: %d entries differ (valid lanes "
            "copied, padding lanes untouched)",
            size, n, copy_bad);
      CHECK_STATUS(feint_layout_convert(n, size, FEINT_LAYOUT_NATURAL, nat, FEINT_LAYOUT_NATURAL,
                                        back),
                   FEINT_SUCCESS, NULL);
      CHECK(memcmp(back, nat, n * size * sizeof(double)) == 0,
            "size %zu, %zu elements: natural -> natural copy differs", size, n);
      free(nat), free(blk), free(back), free(blk2);
    }
}

/* feint_mesh_box writes the blocked layout by the same formula. */
static void check_mesh_layouts(void) {
  enum { NX = 3, NY = 2, NZ = 1 };
  for (int el = 0; el < FEINT_ELEMENT_COUNT; el++) {
    size_t n, len_nat, len_blk;
    CHECK_STATUS(feint_mesh_box_count((feint_element)el, NX, NY, NZ, &n), FEINT_SUCCESS, NULL);
    CHECK(n == (size_t)(el == FEINT_TET4 ? 6 : el == FEINT_PRISM6 ? 2 : 1) * NX * NY * NZ, "%s mesh: %zu elements",
          feint_element_name((feint_element)el), n);
    feint_array_len((feint_element)el, FEINT_POISSON, FEINT_ARRAY_GEOMETRY, FEINT_LAYOUT_NATURAL,
                    n, &len_nat);
    feint_array_len((feint_element)el, FEINT_POISSON, FEINT_ARRAY_GEOMETRY, FEINT_LAYOUT_BLOCKED,
                    n, &len_blk);
    double *nat = calloc(len_nat, sizeof(double)), *blk = calloc(len_blk, sizeof(double));
    double *conv = calloc(len_blk, sizeof(double));
    if (!nat || !blk || !conv) {
      TEST_FAIL("allocation failed");
      free(nat), free(blk), free(conv);
      return;
    }
    CHECK_STATUS(feint_mesh_box((feint_element)el, NX, NY, NZ, FEINT_PERTURB_GENERAL, 0.15, 7,
                                FEINT_LAYOUT_NATURAL, nat),
                 FEINT_SUCCESS, NULL);
    CHECK_STATUS(feint_mesh_box((feint_element)el, NX, NY, NZ, FEINT_PERTURB_GENERAL, 0.15, 7,
                                FEINT_LAYOUT_BLOCKED, blk),
                 FEINT_SUCCESS, NULL);
    CHECK_STATUS(feint_layout_convert(n, len_nat / n, FEINT_LAYOUT_NATURAL, nat,
                                      FEINT_LAYOUT_BLOCKED, conv),
                 FEINT_SUCCESS, NULL);
    CHECK(memcmp(conv, blk, len_blk * sizeof(double)) == 0,
          "%s: blocked mesh != natural mesh converted to blocked",
          feint_element_name((feint_element)el));
    free(nat), free(blk), free(conv);
  }
}

static void check_names(void) {
  const char *names[FEINT_VARIANT_COUNT];
  for (int v = 0; v < FEINT_VARIANT_COUNT; v++) {
    feint_variant_info vi;
    names[v] = NULL;
    CHECK_STATUS(feint_variant_get_info((feint_variant)v, &vi), FEINT_SUCCESS, NULL);
    if (!vi.name || !vi.algorithm || !vi.description || !vi.runs_on) {
      TEST_FAIL("variant %d: a NULL string in feint_variant_info", v);
      continue;
    }
    names[v] = vi.name;
    CHECK(vi.name[0] && vi.algorithm[0] && vi.description[0] && vi.runs_on[0],
          "variant %d: an empty string in feint_variant_info", v);
    /* the flag agrees with the name */
    CHECK(vi.geo_linear == (strstr(vi.name, "geo_linear") != NULL),
          "variant %s: geo_linear = %d", vi.name, vi.geo_linear);
    CHECK(vi.deterministic == 0 || vi.deterministic == 1, "variant %s: deterministic = %d",
          vi.name, vi.deterministic);
    for (int w = 0; w < v; w++)
      CHECK(names[w] == NULL || strcmp(names[w], vi.name) != 0,
            "variants %d and %d share the name %s", w, v, vi.name);
  }
  static const char *element_names[] = {"tet4", "prism6", "hex8"};
  static const char *problem_names[] = {"poisson", "convdiff", "elasticity", "poisson_kappa",
                                        "elasticity_qp"};
  static const char *layout_names[] = {"natural", "blocked", "packed"};
  for (int k = 0; k < FEINT_PROBLEM_COUNT; k++) {
    const char *p = feint_problem_name((feint_problem)k);
    CHECK(p && strcmp(p, problem_names[k]) == 0, "feint_problem_name(%d) = %s", k, p ? p : "NULL");
  }
  CHECK(feint_problem_name(FEINT_PROBLEM_COUNT) == NULL, "feint_problem_name(count) != NULL");
  for (int k = 0; k < 3; k++) {
    const char *e = feint_element_name((feint_element)k), *p = feint_problem_name((feint_problem)k);
    const char *l = feint_layout_name((feint_layout)k);
    CHECK(e && strcmp(e, element_names[k]) == 0, "feint_element_name(%d) = %s", k, e ? e : "NULL");
    CHECK(p && strcmp(p, problem_names[k]) == 0, "feint_problem_name(%d) = %s", k, p ? p : "NULL");
    CHECK(l && strcmp(l, layout_names[k]) == 0, "feint_layout_name(%d) = %s", k, l ? l : "NULL");
  }
}

int main(void) {
  check_table3();
  check_table3_variable();
  check_packed_len();
  check_array_len();
  check_round_trip();
  check_mesh_layouts();
  check_names();
  return test_finish("t002_sizes_layouts");
}
