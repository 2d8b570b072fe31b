/* stream_mix.c - the memory traffic of hex8 Poisson element matrices alone:
 * per hex read 24 + 8 doubles (geometry, f), write 64 + 8 (A^e, b^e) with
 * nontemporal stores, blocked layout (8 lanes), no arithmetic but one sum
 * per lane; against a triad in the same run.  args: num_hex reps */
#include <immintrin.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#define B 8
int main(int argc, char **argv) {
  const size_t n = argc > 1 ? (size_t)atol(argv[1]) : 4194304;
  const int reps = argc > 2 ? atoi(argv[2]) : 10;
  const size_t nb = (n + B - 1) / B;
  double *g = aligned_alloc(64, nb * 32 * B * 8), *A = aligned_alloc(64, nb * 72 * B * 8);
#pragma omp parallel for schedule(static)
  for (size_t i = 0; i < nb * 32 * B; i++) g[i] = 1e-3 * (double)(i % 97);
#pragma omp parallel for schedule(static)
  for (size_t i = 0; i < nb * 72 * B; i++) A[i] = 0;
  const size_t tn = 1 << 25;
  double *ta = aligned_alloc(64, tn * 8), *tb = aligned_alloc(64, tn * 8), *tc = aligned_alloc(64, tn * 8);
#pragma omp parallel for schedule(static)
  for (size_t i = 0; i < tn; i++) ta[i] = 0, tb[i] = 1, tc[i] = 2;
  double best = 1e30, bestt = 1e30, bestr = 1e30, s = 0;
  for (int rep = 0; rep < reps; rep++) {
    double t0 = omp_get_wtime();
#pragma omp parallel for schedule(static)
    for (size_t i = 0; i < tn; i++) ta[i] = tb[i] + 3.0 * tc[i];
    double t = omp_get_wtime() - t0;
    if (t < bestt) bestt = t;
    t0 = omp_get_wtime();
#pragma omp parallel for schedule(static)
    for (size_t blk = 0; blk < nb; blk++) {
      const double *gb = g + blk * 32 * B;
      double *Ab = A + blk * 72 * B;
      __m512d v = _mm512_setzero_pd();
      _Pragma("unroll") for (int k = 0; k < 32; k++) v = _mm512_add_pd(v, _mm512_load_pd(gb + k * B));
      _Pragma("unroll") for (int k = 0; k < 72; k++)
        _mm512_stream_pd(Ab + k * B, _mm512_add_pd(v, _mm512_set1_pd((double)k)));
    }
    t = omp_get_wtime() - t0;
    if (t < best) best = t;
    t0 = omp_get_wtime(); /* the reads alone */
    double acc = 0;
#pragma omp parallel for schedule(static) reduction(+ : acc)
    for (size_t i = 0; i < nb * 32 * B; i++) acc += g[i];
    t = omp_get_wtime() - t0;
    if (t < bestr) bestr = t;
    s += acc + A[5];
  }
  const double tri = 24.0 * tn / bestt;
  printf("%d threads, %zu hexes: read 32 + write 72 doubles (NT) %.2f ns per hex = %.1f GB/s; "
         "read-only pass %.1f GB/s; triad %.1f GB/s (bound %.2f ns)  [%g]\n",
         omp_get_max_threads(), n, best / n * 1e9, 832.0 * n / best / 1e9,
         256.0 * n / bestr / 1e9, tri / 1e9, 832.0 / tri * 1e9, s);
  return 0;
}
