#include <stdio.h>
#include <omp.h>
typedef double v8 __attribute__((ext_vector_type(8)));
static v8 A[576] __attribute__((aligned(64)));
int main() {
  v8 x[8]; for (int i = 0; i < 8; i++) x[i] = 1e-9 * i;
  long n = 200000;
  double t0 = omp_get_wtime();
  for (long k = 0; k < n; k++) {
    __asm__ volatile("" : "+v"(x[0]), "+v"(x[1]), "+v"(x[2]), "+v"(x[3]));
#pragma nounroll
    for (int i = 0; i < 576; i += 8) {
#pragma unroll
      for (int j = 0; j < 8; j++) A[i + j] = x[j&3] * x[(j + 1)&3] + (x[(j + 2)&3] * x[(j+3)&3] + A[i + j]);
    }
  }
  double t = omp_get_wtime() - t0;
  printf("%.3f ns per entry update (%.2f per cycle at 5 GHz)\n", t / n / 576 * 1e9, 1 / (t / n / 576 * 5e9));
  printf("%g\n", A[3][2]);
}
