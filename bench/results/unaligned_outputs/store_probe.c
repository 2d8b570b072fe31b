/* Store probe: feint_block_out of an L1 block (8 elements of SIZE entries,
 * blocked order) to a natural array of 400 MiB, 0, 16, 32 and 48 bytes past
 * a 64-byte boundary, OpenMP threads over blocks; min and median of 7 sweeps
 * in ns per element.  Build against a tree's block_io.h:
 * clang-19 -O3 -march=native -fopenmp -mllvm -pragma-unroll-threshold=1000000
 *   -Iinclude -Isrc store_probe.c */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <omp.h>
#include "kernel/block_io.h"
static int cmpd(const void *a, const void *b) { double x = *(const double *)a, y = *(const double *)b; return (x > y) - (x < y); }
#define RUN(SIZE) do { \
  const size_t nblk = (size_t)(400u << 20) / (8 * SIZE * 8); \
  for (int off = 0; off < 8; off += 2) { double t[7]; double *arr = big + off; \
    for (int r = 0; r < 7; r++) { double t0 = omp_get_wtime(); \
      _Pragma("omp parallel") { double buf[8 * SIZE] __attribute__((aligned(64))), tmp[8 * SIZE] __attribute__((aligned(64))); \
        for (int i = 0; i < 8 * SIZE; i++) buf[i] = i * 0.25 + omp_get_thread_num(); \
        _Pragma("omp for schedule(static)") for (size_t b = 0; b < nblk; b++) { buf[0] = (double)b; \
          feint_block_out(FEINT_LAYOUT_NATURAL, arr, SIZE, b, 8, buf, tmp); } } \
      t[r] = (omp_get_wtime() - t0) / (nblk * 8) * 1e9; } \
    qsort(t, 7, sizeof *t, cmpd); printf("size %4d off %d: min %7.2f med %7.2f ns/elem\n", SIZE, off, t[0], t[3]); } } while (0)
int main(void) {
  double *big = aligned_alloc(64, (400u << 20) + 4096); memset(big, 0, (400u << 20) + 4096);
  RUN(16); RUN(64); RUN(144); RUN(576);
  return 0;
}
