/* t302_layouts_bitwise (t3xx: variants): the layout changes only the data
 * movement, never the arithmetic, so for every case and variant the four
 * input x output layout pairs give bitwise identical A^e and b^e (compared
 * as bytes after conversion to the natural layout, NaN or -0.0 included),
 * and packed output (symmetric problems) is bitwise the upper triangle of
 * the natural one (b_e bitwise equal),
 * on a mesh whose last block is partial, with the outputs 64-byte aligned
 * and 16 (malloc's alignment), 32 and 48 bytes past that (natural rows
 * spanning whole cache lines leave line by line, each of the four
 * alignments its own code; rows of 4 mod 8 entries, aligned or 32 bytes
 * past, leave line by line too, two rows sharing a line; short rows of
 * other lengths, 32-byte pieces built from scalar loads, with a 16-byte
 * piece at either end at 16 and 48) and 8 and 24 bytes past (through the
 * L1 buffer
 * and the streaming copy, whose 8- and 16-byte stores at either end these
 * two reach), and with and without the
 * validation pass (the aligned runs trusted, the others validated).
 * Correctness against the reference is t301's; this test catches a
 * transposition that is wrong in a way round-off tolerances could hide. */
#include "variant_fixture.h"

static void run_case(feint_element el, feint_problem pb) {
  fixture f;
  fixture_setup(&f, el, pb);
  double *A_out = fixture_alloc(f.padded * f.na + 6), *b_out = fixture_alloc(f.padded * f.nb + 6);
  double *A_first = fixture_alloc(f.num_elem * f.na), *b_first = fixture_alloc(f.num_elem * f.nb);
  for (int v = 0; v < FEINT_VARIANT_COUNT; v++) {
    feint_variant_info vi;
    feint_variant_get_info((feint_variant)v, &vi);
    const int m = fixture_mesh(&f, (feint_variant)v);
    int first = 1;
    for (int lin = 0; lin < FEINT_LAYOUT_COUNT; lin++)
      for (int lout = 0; lout < FEINT_LAYOUT_COUNT; lout++)
        for (int s = 0; s < 6; s++) {
          static const int shifts[6] = {0, 1, 2, 3, 4, 6}; /* doubles past a 64-byte boundary */
          const int shift = shifts[s];
          if (!fixture_layouts_ok(&f, lin, lout)) continue;
          const unsigned flags = shift ? 0u : FEINT_FLAG_TRUST_GEOMETRY;
          double *A = A_out + shift, *b = b_out + shift;
          fixture_poison(&f, A, b);
          const feint_integrate_desc desc = {el, pb, (feint_variant)v, (feint_layout)lin,
                                             (feint_layout)lout, flags, FEINT_TARGET_HOST, 0};
          CHECK_STATUS(feint_integrate(&desc, f.num_elem, f.geo[m][lin], f.coef[lin], A, b),
                       FEINT_SUCCESS, NULL);
          if (lout == FEINT_LAYOUT_PACKED) {
            /* packed = the natural upper triangle, bit for bit */
            const size_t n = f.nb, np = n * (n + 1) / 2;
            for (size_t e = 0; e < f.num_elem; e++) {
              size_t bad = SIZE_MAX;
              for (size_t i = 0, p = 0; i < n && bad == SIZE_MAX; i++)
                for (size_t j = i; j < n; j++, p++)
                  if (memcmp(&A[e * np + p], &A_first[e * f.na + i * n + j], sizeof(double))) {
                    bad = p;
                    break;
                  }
              if (bad == SIZE_MAX && memcmp(b + e * n, b_first + e * n, n * sizeof(double)))
                bad = np;
              if (bad != SIZE_MAX) {
                TEST_FAIL("%s/%s %s in=%s out=packed at +%d bytes%s: element %zu packed entry "
                          "%zu differs bitwise from the upper triangle of in=natural out=natural",
                          f.ei.name, feint_problem_name(pb), vi.name,
                          feint_layout_name((feint_layout)lin), 8 * shift,
                          shift ? ", validated" : "", e, bad);
                break;
              }
            }
            continue;
          }
          feint_layout_convert(f.num_elem, f.na, (feint_layout)lout, A, FEINT_LAYOUT_NATURAL, f.A_nat);
          feint_layout_convert(f.num_elem, f.nb, (feint_layout)lout, b, FEINT_LAYOUT_NATURAL, f.b_nat);
          if (first) {
            memcpy(A_first, f.A_nat, f.num_elem * f.na * sizeof(double));
            memcpy(b_first, f.b_nat, f.num_elem * f.nb * sizeof(double));
            first = 0;
            continue;
          }
          for (size_t e = 0; e < f.num_elem; e++) {
            const int same_A = !memcmp(A_first + e * f.na, f.A_nat + e * f.na, f.na * sizeof(double));
            const int same_b = !memcmp(b_first + e * f.nb, f.b_nat + e * f.nb, f.nb * sizeof(double));
            if (!same_A || !same_b) {
              TEST_FAIL("%s/%s %s in=%s out=%s at +%d bytes%s: element %zu (block %zu, lane %zu): "
                        "%s differs bitwise from in=natural out=natural",
                        f.ei.name, feint_problem_name(pb), vi.name,
                        feint_layout_name((feint_layout)lin), feint_layout_name((feint_layout)lout),
                        8 * shift, shift ? ", validated" : "", e, e / FEINT_BLOCK_LEN,
                        e % FEINT_BLOCK_LEN, same_A ? "b_e" : "A_e");
              break;
            }
          }
        }
  }
  free(A_out);
  free(b_out);
  free(A_first);
  free(b_first);
  fixture_free(&f);
}

int main(void) {
  for (int el = 0; el < FEINT_ELEMENT_COUNT; el++)
    for (int pb = 0; pb < FEINT_PROBLEM_COUNT; pb++) run_case((feint_element)el, (feint_problem)pb);
  return test_finish("t302_layouts_bitwise");
}
