/* fuzz_msh - libFuzzer target for the Gmsh MSH 4.1 reader: the input is a
 * .msh file (ASCII or binary, any bytes), read by feint_mesh_read_msh_buffer.
 * Checks, beyond ASan/UBSan/LSan: an error leaves *mesh untouched and
 * records a message; a success is a mesh that passes feint_mesh_check, has
 * element tags, and is released by feint_mesh_destroy.
 * Seed corpus fuzz/corpus/msh/: small ASCII and binary files made by Gmsh
 * (the .geo files of tests/data, coarse) and the hand-written fixture.
 * Build and run: make fuzz (README, "Fuzzing"). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "feint.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  feint_mesh m, before;
  memset(&m, 0x3C, sizeof m);
  before = m;
  const feint_status st = feint_mesh_read_msh_buffer(data, size, &m);
  if (st != FEINT_SUCCESS) {
    if (memcmp(&m, &before, sizeof m) != 0 || feint_last_error()[0] == '\0') abort();
    return 0;
  }
  if (feint_mesh_check(&m) != FEINT_SUCCESS || m.elem_tags == NULL || !m.owns_arrays) abort();
  if (feint_mesh_destroy(&m) != FEINT_SUCCESS) abort();
  return 0;
}
