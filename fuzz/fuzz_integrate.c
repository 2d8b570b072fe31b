/* fuzz_integrate - libFuzzer target for feint_integrate: the input bytes
 * choose the case, variant, layouts, flags, element count and a power-of-two
 * scale, and supply the geometry and coefficient doubles.  Checks, beyond
 * what ASan/UBSan see: an error leaves both outputs untouched; a success of
 * the default call on finite inputs gives finite outputs (the promise of
 * include/feint.h); no padding lane of a blocked output is written.
 * Build and run: make fuzz (README, "Fuzzing"). */
#include <math.h>
#include <omp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "feint.h"

#define MAX_ELEM 17 /* two blocks and a partial third */
#define SENTINEL 0x6B

int LLVMFuzzerInitialize(int *argc, char ***argv) {
  (void)argc, (void)argv;
  omp_set_num_threads(1);
  return 0;
}

static size_t take(const uint8_t **data, size_t *size, void *out, size_t n) {
  const size_t k = n < *size ? n : *size;
  memcpy(out, *data, k);
  memset((char *)out + k, 0, n - k);
  *data += k;
  *size -= k;
  return k;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  uint8_t head[8];
  take(&data, &size, head, sizeof head);
  const feint_element el = (feint_element)(head[0] % FEINT_ELEMENT_COUNT);
  const feint_problem pb = (feint_problem)(head[1] % FEINT_PROBLEM_COUNT);
  const feint_variant v = (feint_variant)(head[2] % FEINT_VARIANT_COUNT);
  const feint_layout lin = (feint_layout)(head[3] & 1), lout = (feint_layout)((head[3] >> 1) & 1);
  const unsigned flags = (head[3] >> 2) & 1 ? FEINT_FLAG_TRUST_GEOMETRY : 0u;
  const size_t num_elem = head[4] % (MAX_ELEM + 1);
  const int scale = (int)(int8_t)head[5] * 9; /* 2^-1152 .. 2^1143 */
  const int perturb = head[6] & 1;            /* 1: inputs are small offsets of a valid element */
  size_t len[FEINT_ARRAY_COUNT];
  for (int k = 0; k < FEINT_ARRAY_COUNT; k++)
    if (feint_array_len(el, pb, (feint_array)k, k < 2 ? lin : lout, num_elem, &len[k]) != FEINT_SUCCESS)
      abort();
  double geo[MAX_ELEM * 18 + 8 * 18], coef[MAX_ELEM * 20 + 8 * 20];
  double A[MAX_ELEM * 36 + 8 * 36], b[MAX_ELEM * 6 + 8 * 6];
  static const double unit[6][3] = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0, 0, 1}, {1, 0, 1}, {0, 1, 1}};
  for (size_t i = 0; i < len[0]; i++) {
    double x = 0.0;
    take(&data, &size, &x, sizeof x);
    if (perturb) { /* a valid element plus a fuzzed, bounded offset: reaches the accept paths */
      const size_t entry = lin == FEINT_LAYOUT_BLOCKED ? (i / 8) % (el == FEINT_TET4 ? 12 : 18) : i % (el == FEINT_TET4 ? 12 : 18);
      x = unit[entry / 3][entry % 3] + (isfinite(x) ? fmod(x, 0.2) : 0.0);
    }
    geo[i] = ldexp(x, scale);
  }
  for (size_t i = 0; i < len[1]; i++) {
    double c = 0.0;
    take(&data, &size, &c, sizeof c);
    coef[i] = perturb && isfinite(c) ? fmod(c, 4.0) : c;
  }
  memset(A, SENTINEL, sizeof A);
  memset(b, SENTINEL, sizeof b);
  const feint_integrate_desc d = {el, pb, v, lin, lout, flags, FEINT_TARGET_HOST, 0};
  const feint_status st = feint_integrate(&d, num_elem, geo, coef, A, b);
  unsigned char sent[sizeof A];
  memset(sent, SENTINEL, sizeof sent);
  if (st != FEINT_SUCCESS) {
    if (memcmp(A, sent, sizeof A) || memcmp(b, sent, sizeof b)) abort(); /* outputs touched */
    return 0;
  }
  /* nothing beyond the arrays' lengths, no padding lane written */
  if (memcmp(A + len[2], sent, sizeof A - len[2] * sizeof(double)) ||
      memcmp(b + len[3], sent, sizeof b - len[3] * sizeof(double)))
    abort();
  size_t na, nb;
  feint_array_entries(el, pb, FEINT_ARRAY_A, &na);
  feint_array_entries(el, pb, FEINT_ARRAY_B, &nb);
  const size_t B = FEINT_BLOCK_LEN;
  if (lout == FEINT_LAYOUT_BLOCKED)
    for (size_t e = num_elem; e < len[3] / nb; e++) {
      for (size_t k = 0; k < na; k++)
        if (memcmp(&A[(e / B) * B * na + k * B + e % B], sent, sizeof(double))) abort();
      for (size_t k = 0; k < nb; k++)
        if (memcmp(&b[(e / B) * B * nb + k * B + e % B], sent, sizeof(double))) abort();
    }
  if (flags) return 0; /* trusted: no promise about the values */
  int finite_in = 1;
  for (size_t i = 0; i < len[0]; i++) finite_in &= isfinite(geo[i]) != 0;
  for (size_t i = 0; i < len[1]; i++) finite_in &= isfinite(coef[i]) != 0;
  for (size_t e = 0; finite_in && e < num_elem; e++) {
    for (size_t k = 0; k < na; k++)
      if (!isfinite(A[lout == FEINT_LAYOUT_BLOCKED ? (e / B) * B * na + k * B + e % B : e * na + k])) abort();
    for (size_t k = 0; k < nb; k++)
      if (!isfinite(b[lout == FEINT_LAYOUT_BLOCKED ? (e / B) * B * nb + k * B + e % B : e * nb + k])) abort();
  }
  return 0;
}
