/*
 * kernel/portable.h - the few compiler and OpenMP spellings the kernels need,
 * so that the same sources build with clang-19 (host or NVPTX offload), with
 * gcc, and without OpenMP at all.
 */
#ifndef FEINT_KERNEL_PORTABLE_H
#define FEINT_KERNEL_PORTABLE_H

/* Kernel helpers are always inlined: their arguments (element type, problem,
 * loop indices) are compile-time constants at every call site, and inlining
 * is what lets the compiler fold the reference tables and unroll the loops. */
#if defined(__GNUC__)
#define FEINT_INLINE static inline __attribute__((always_inline))
#else
#define FEINT_INLINE static inline
#endif

#define FEINT_PRAGMA(x) _Pragma(#x)

/* Full unrolling of a loop with a compile-time trip count (element sizes,
 * space dimensions): the per-element loops must disappear before the
 * element loop is vectorised across SIMD lanes. */
#if defined(FEINT_NO_UNROLL) /* sanitizer builds: correctness, not speed */
#define FEINT_UNROLL
#elif defined(__clang__)
#define FEINT_UNROLL _Pragma("unroll")
#elif defined(__GNUC__)
#define FEINT_UNROLL _Pragma("GCC unroll 64")
#else
#define FEINT_UNROLL
#endif

/* Realign the calling function's stack frame to 64 bytes (x86-64 hosts).
 * clang realigns a frame only if it knows before register allocation that
 * the frame needs it, i.e. from a 64-byte-aligned local; the slots where it
 * spills vector registers are otherwise only as aligned as the stack
 * (16 bytes), and its 64-byte spills and reloads (vmovupd) then straddle
 * two cache lines three times in four, which made a spill-heavy kernel up
 * to 1.8x slower, by where the caller's stack happened to end
 * (kernel/driver.h, the out-of-line hex8 blocks).  A 64-byte-aligned local
 * whose address reaches an empty asm statement forces the realignment;
 * the frame then gets 64-byte spill slots (vmovapd).  Nothing else
 * changes: no instruction of the kernel, no result. */
/* 1 in x86-64 host code, 0 elsewhere and in the device passes of an
 * offload build (which see the host's macros too): what guards the loops'
 * x86-only forms (kernel/gather.h, kernel/scatter.h). */
#if defined(__x86_64__) && !defined(__NVPTX__) && !defined(__AMDGCN__)
#define FEINT_X86_HOST 1
#else
#define FEINT_X86_HOST 0
#endif

#if defined(__x86_64__) && defined(__GNUC__)
#define FEINT_ALIGN_FRAME()                                 \
  do {                                                      \
    double feint_frame_line_[8] __attribute__((aligned(64))); \
    __asm__ volatile("" : : "r"(feint_frame_line_));        \
  } while (0)
#else
#define FEINT_ALIGN_FRAME() ((void)0)
#endif

/* A cold loop with a run-time trip count that the loop vectoriser should
 * leave scalar (it would gather or scatter a handful of strided values). */
#if defined(__clang__)
#define FEINT_NO_VECTORIZE _Pragma("clang loop vectorize(disable)")
#else
#define FEINT_NO_VECTORIZE
#endif

/* Device-visible code: functions and tables between these two markers are
 * compiled for the offload target too. */
#if defined(_OPENMP)
#define FEINT_DECLARE_TARGET_BEGIN _Pragma("omp declare target")
#define FEINT_DECLARE_TARGET_END _Pragma("omp end declare target")
#define FEINT_OMP(x) FEINT_PRAGMA(omp x)
#else
#define FEINT_DECLARE_TARGET_BEGIN
#define FEINT_DECLARE_TARGET_END
#define FEINT_OMP(x)
#endif

#endif /* FEINT_KERNEL_PORTABLE_H */
