#include <stdio.h>
#include <omp.h>
typedef double v8 __attribute__((ext_vector_type(8)));
int main() {
  v8 a[12]; for (int i = 0; i < 12; i++) a[i] = 1.0 + i * 1e-9;
  v8 m = 0.9999999, c = 1e-7;
  long n = 100000000;
  double t0 = omp_get_wtime();
  for (long k = 0; k < n; k++) {
#pragma unroll
    for (int i = 0; i < 12; i++) a[i] = a[i] * m + c;
  }
  double t = omp_get_wtime() - t0;
  v8 s = 0; for (int i = 0; i < 12; i++) s += a[i];
  printf("%.2f GFMA-vec/s -> %.1f GFLOP/s (%g)\n", n * 12 / t / 1e9, n * 12 * 16 / t / 1e9, s[0]);
}
