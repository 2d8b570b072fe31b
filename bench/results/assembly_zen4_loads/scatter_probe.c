/* The scatter of tet4 Poisson alone (the 1-byte map's positions, A^e read
 * from a per-block array with lane stride 8, as kernel/scatter.h's loop does),
 * one thread, on the box generator's c^3 mesh; min ns per tet of 20 calls.
 * scatter_probe c mode: mode 0 adds in place (values[p] += a), 1 reads values
 * and writes a second array (no chain through memory between elements that
 * share an entry), 2 only loads (into one serial sum: 20 dependent additions
 * per tet, which times the clock).  Link: clang-19 -O3 -march=native -fopenmp
 * -Iinclude -Isrc scatter_probe.c build/lib/libfeint.a -lm */
#include "feint.h"
#include <omp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
static unsigned long long rs = 88172645463325252ull;
static unsigned long long rnd(void) {
  rs ^= rs << 13;
  rs ^= rs >> 7;
  rs ^= rs << 17;
  return rs;
}
/* mode 0: RMW in place; 1: read values, write values2; 2: loads only */
__attribute__((noinline)) static double run(int mode, size_t ne, const uint32_t *conn,
                                            const uint8_t *map, const double *Ae, const double *be,
                                            const int64_t *row_ptr, double *values, double *v2,
                                            double *rhs) {
  double acc = 0;
  double *dstv = mode == 1 ? v2 : values;
  for (size_t i0 = 0; i0 < ne; i0 += 8)
    for (int l = 0; l < 8; l++) {
      const uint32_t *v = conn + (i0 + l) * 4;
      const uint8_t *mp = map + (i0 + l) * 16;
      const double *A = Ae + i0 * 16 + l, *b = be + i0 * 4 + l;
#pragma clang loop unroll(full)
      for (int r = 0; r < 4; r++) {
        const int64_t row = row_ptr[v[r]];
#pragma clang loop unroll(full)
        for (int s = 0; s < 4; s++) {
          double x = values[row + mp[r * 4 + s]] + A[(r * 4 + s) * 8];
          if (mode == 2)
            acc += x;
          else
            dstv[row + mp[r * 4 + s]] = x;
        }
        double y = rhs[v[r]] + b[r * 8];
        if (mode == 2)
          acc += y;
        else
          rhs[v[r]] = y;
      }
    }
  return acc;
}
int main(int argc, char **argv) {
  int c = argc > 1 ? atoi(argv[1]) : 14, mode = argc > 2 ? atoi(argv[2]) : 0, reps = 20;
  feint_mesh m;
  if (feint_mesh_box_create(FEINT_TET4, c, c, c, FEINT_PERTURB_NONE, 0.0, 1, &m))
    return 1;
  size_t ne = m.num_elem & ~(size_t)7;
  const uint32_t *conn = m.conn;
  feint_csr A;
  if (feint_csr_create(&m, 1, &A))
    return 2;
  uint8_t *map = malloc(ne * 16);
  for (size_t e = 0; e < ne; e++)
    for (int r = 0; r < 4; r++)
      for (int s = 0; s < 4; s++) {
        int64_t k = A.row_ptr[conn[4 * e + r]];
        while (A.col_idx[k] != (int32_t)conn[4 * e + s])
          k++;
        map[e * 16 + r * 4 + s] = (uint8_t)(k - A.row_ptr[conn[4 * e + r]]);
      }
  double *Ae = aligned_alloc(64, ne * 16 * 8), *be = aligned_alloc(64, ne * 4 * 8),
         *rhs = calloc(A.num_rows, 8), *v2 = calloc(A.nnz, 8);
  for (size_t k = 0; k < ne * 16; k++)
    Ae[k] = (double)(rnd() % 1000) * 1e-3;
  for (size_t k = 0; k < ne * 4; k++)
    be[k] = 1.0;
  double best = 1e30;
  volatile double sink;
  for (int r = 0; r < reps; r++) {
    memset(A.values, 0, A.nnz * 8);
    double t0 = omp_get_wtime();
    sink = run(mode, ne, conn, map, Ae, be, A.row_ptr, A.values, v2, rhs);
    double t = omp_get_wtime() - t0;
    if (t < best)
      best = t;
  }
  printf("c %d mode %d: %.2f ns/elem\n", c, mode, best / ne * 1e9);
  return 0;
}
