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

/* Buffers sized for the largest case the library knows (asked of
 * feint_array_entries, so a new element or problem is covered as it lands),
 * MAX_ELEM elements plus a block of padding. */
static size_t cap[FEINT_ARRAY_COUNT];
static double *buf[FEINT_ARRAY_COUNT];
static unsigned char *sent; /* SENTINEL bytes, as long as the longer output */

int LLVMFuzzerInitialize(int *argc, char ***argv) {
  (void)argc, (void)argv;
  omp_set_num_threads(1);
  for (int el = 0; el < FEINT_ELEMENT_COUNT; el++)
    for (int pb = 0; pb < FEINT_PROBLEM_COUNT; pb++)
      for (int k = 0; k < FEINT_ARRAY_COUNT; k++) {
        size_t n;
        if (feint_array_entries((feint_element)el, (feint_problem)pb, (feint_array)k, &n) != FEINT_SUCCESS)
          continue; /* a combination the library refuses */
        if ((MAX_ELEM + FEINT_BLOCK_LEN) * n > cap[k]) cap[k] = (MAX_ELEM + FEINT_BLOCK_LEN) * n;
      }
  for (int k = 0; k < FEINT_ARRAY_COUNT; k++)
    if (!(buf[k] = malloc(cap[k] * sizeof(double)))) abort();
  const size_t nsent = (cap[FEINT_ARRAY_A] > cap[FEINT_ARRAY_B] ? cap[FEINT_ARRAY_A] : cap[FEINT_ARRAY_B]) * sizeof(double);
  if (!(sent = malloc(nsent))) abort();
  memset(sent, SENTINEL, nsent);
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
  double *geo = buf[FEINT_ARRAY_GEOMETRY], *coef = buf[FEINT_ARRAY_COEFFS];
  double *A = buf[FEINT_ARRAY_A], *b = buf[FEINT_ARRAY_B];
  const size_t capA = cap[FEINT_ARRAY_A] * sizeof(double), capb = cap[FEINT_ARRAY_B] * sizeof(double);
  size_t ngeo;
  feint_element_info info;
  if (feint_array_entries(el, pb, FEINT_ARRAY_GEOMETRY, &ngeo) != FEINT_SUCCESS ||
      feint_element_get_info(el, &info) != FEINT_SUCCESS)
    abort();
  for (size_t i = 0; i < len[0]; i++) {
    double x = 0.0;
    take(&data, &size, &x, sizeof x);
    if (perturb) { /* the reference element plus a fuzzed, bounded offset: reaches the accept paths */
      const size_t entry = lin == FEINT_LAYOUT_BLOCKED ? (i / FEINT_BLOCK_LEN) % ngeo : i % ngeo;
      x = info.nodes[entry / 3][entry % 3] + (isfinite(x) ? fmod(x, 0.2) : 0.0);
    }
    geo[i] = ldexp(x, scale);
  }
  for (size_t i = 0; i < len[1]; i++) {
    double c = 0.0;
    take(&data, &size, &c, sizeof c);
    coef[i] = perturb && isfinite(c) ? fmod(c, 4.0) : c;
  }
  memset(A, SENTINEL, capA);
  memset(b, SENTINEL, capb);
  const feint_integrate_desc d = {el, pb, v, lin, lout, flags, FEINT_TARGET_HOST, 0};
  const feint_status st = feint_integrate(&d, num_elem, geo, coef, A, b);
  if (st != FEINT_SUCCESS) {
    if (memcmp(A, sent, capA) || memcmp(b, sent, capb)) abort(); /* outputs touched */
    return 0;
  }
  /* nothing beyond the arrays' lengths, no padding lane written */
  if (memcmp(A + len[2], sent, capA - len[2] * sizeof(double)) ||
      memcmp(b + len[3], sent, capb - len[3] * sizeof(double)))
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
