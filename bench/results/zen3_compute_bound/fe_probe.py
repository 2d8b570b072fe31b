#!/usr/bin/python3
"""fe_probe.py K MODE > k.c: a loop whose body is K AVX2 instructions, for
the front end's and the store port's rates on one core.
MODE fma_reg: vfmadd231pd on registers (5-byte instructions), 12
              independent accumulators (latency 4 x 2 pipes < 12)
     fma_mem: the same with a memory operand at a 4-byte displacement
              (10-byte instructions, as the kernels' spill reloads)
     store:   vmovapd ymm stores to 64 distinct slots (disp32)
Build: clang-19 -O1 -fopenmp k.c -o k; it prints ns per instruction, the
best of 7 runs of 4e8 instructions."""
import sys

K, MODE = int(sys.argv[1]), sys.argv[2]
body = []
for i in range(K):
    acc, off = i % 12, 256 + 32 * (i % 64)
    if MODE == "fma_reg":
        body.append(f'"vfmadd231pd %%ymm13, %%ymm14, %%ymm{acc}\\n"')
    elif MODE == "fma_mem":
        body.append(f'"vfmadd231pd {off}(%0), %%ymm14, %%ymm{acc}\\n"')
    elif MODE == "store":
        body.append(f'"vmovapd %%ymm{acc}, {off}(%0)\\n"')
    else:
        sys.exit("MODE: fma_reg, fma_mem or store")
print(f"""#include <stdio.h>
#include <omp.h>
static double buf[4096] __attribute__((aligned(64)));
__attribute__((noinline)) static void body(long iters, double *p) {{
  __asm__ volatile("1:\\n"
{chr(10).join(body)}
  "dec %1\\n jnz 1b\\n" : "+r"(p), "+r"(iters) : : "memory", "cc");
}}
int main(void) {{
  const long iters = 400000000L / {K};
  for (int i = 0; i < 4096; i++) buf[i] = 1e-9;
  double best = 1e30;
  for (int r = 0; r < 7; r++) {{
    const double t0 = omp_get_wtime();
    body(iters, buf);
    const double t = omp_get_wtime() - t0;
    if (t < best) best = t;
  }}
  printf("{MODE} K=%d: %.4f ns per instruction\\n", {K}, best / (iters * (double){K}) * 1e9);
  return 0;
}}""")
