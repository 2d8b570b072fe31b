/* fuzz_platform - libFuzzer target for the platform-file reader: the input
 * is a platform file (NUL bytes included), read by feint_pm_platform_load
 * from a file and by feint_pm_platform_parse from the text.  Checks, beyond
 * ASan/UBSan: an error leaves the output untouched; a success has a name
 * and finite, positive peak figures, and a file with a NUL byte never loads.
 * Build and run: make fuzz (README, "Fuzzing"). */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "feint_perfmodel.h"

static char path[64];

static void remove_file(void) { unlink(path); }

int LLVMFuzzerInitialize(int *argc, char ***argv) {
  (void)argc, (void)argv;
  snprintf(path, sizeof path, "/tmp/feint_fuzz_platform_%ld.platform", (long)getpid());
  atexit(remove_file);
  return 0;
}

static void check(feint_status st, const feint_pm_platform *p, const feint_pm_platform *before) {
  if (st != FEINT_SUCCESS) {
    if (memcmp(p, before, sizeof *p)) abort();
    return;
  }
  if (p->name[0] == '\0' || !(p->peak_gflops > 0) || !isfinite(p->peak_gflops) ||
      !(p->peak_gbs > 0) || !isfinite(p->peak_gbs))
    abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  feint_pm_platform p, before;
  memset(&before, 0x3C, sizeof before);
  /* from a file: every byte, NULs included */
  FILE *f = fopen(path, "wb");
  if (f == NULL) return 0;
  fwrite(data, 1, size, f);
  fclose(f);
  p = before;
  const feint_status st = feint_pm_platform_load(path, &p);
  check(st, &p, &before);
  if (st == FEINT_SUCCESS && memchr(data, '\0', size) != NULL) abort(); /* a NUL hid something */
  /* from text: the bytes up to the first NUL */
  char *text = malloc(size + 1);
  if (text == NULL) return 0;
  memcpy(text, data, size);
  text[size] = '\0';
  p = before;
  check(feint_pm_platform_parse(text, "fuzz", &p), &p, &before);
  free(text);
  return 0;
}
