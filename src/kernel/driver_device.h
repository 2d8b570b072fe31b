/*
 * kernel/driver_device.h - the device (OpenMP target offload) element loop
 * of a variant; included by kernel/driver.h when FEINT_OFFLOAD is defined
 * (make GPU=sm_XX).  It defines
 *   void feint_variant_<name>_device(const feint_kernel_args *ka, int device,
 *                                    int host_fallback)
 * where the four arrays of ka are device pointers valid on `device` (the
 * transfers of host arrays are done once for all variants, in device.c).
 * With host_fallback the same target regions run on the initial device
 * (OMP_TARGET_OFFLOAD=DISABLED or no GPU), with few teams and threads.
 *
 * Mapping: one thread per element, the variant's own per-element function
 * (FEINT_ELEMENT_FN, loop order untouched).  Each case (element x problem)
 * has its own target region with literal et and pb in it: values captured
 * into the outlined kernel are not constants there, literals are, and only
 * with constant sizes do the per-element loops unroll into registers.  One
 * kernel per case also keeps the register allocation of a small case free
 * of a big one's.  Layouts are runtime strides (entry k of element e:
 * natural [e * size + k], blocked [(e / B) * B * size + k * B + e % B]);
 * blocked output is written directly by the threads, which is coalesced
 * (neighbouring threads, neighbouring addresses).
 *
 * Tuning (kernel/gpu_tuning.h, per case): threads per team (thread_limit,
 * a literal so the kernel gets .maxntid), number of teams, and input staging
 * (seed 000 Fig. 1): with FEINT_GPU_STAGE_INPUT and natural-layout input the
 * team reads the inputs of its next team-size elements cooperatively (thread
 * t reads doubles t, t + T, ...: coalesced) into a team-shared buffer, and
 * after a barrier each thread runs its element from there.  The buffer is a
 * local of the teams region with `omp allocate(...)
 * allocator(omp_pteam_mem_alloc)` in the device pass, which clang turns into
 * a static `.shared` array (checked in the PTX: make gpu-ptx-check); in the
 * host pass (host fallback) it is a plain local of the team's master, shared
 * by its threads.
 *
 * Not implemented: FEINT_GPU_SHARED (one array of the computation -
 * geometry, coefficients, psi, or A^e/b^e - kept in team-shared memory).
 * With the loops fully unrolled every index is a constant, and LLVM forwards
 * a thread's stores to a team-shared slot straight to its later loads (legal:
 * no other thread can observe the slot without a barrier), so the shared
 * array vanishes from the PTX and the "placement" would be a no-op that
 * reports itself as tuned.  Doing it honestly needs compiler barriers (or
 * volatile accesses) inside the variants' loops, i.e. editing the six variant
 * files' loop bodies; see the report of issue 4.
 */
#ifndef FEINT_OFFLOAD
#error "kernel/driver_device.h is for offload builds (-DFEINT_OFFLOAD)"
#endif

#include <omp.h>

#include "kernel/gpu_tuning.h"

/* Packed output (symmetric problems): the element's A^e goes to a local
 * n x n array (stride 1, the stride of packed b_e as well), then its upper
 * triangle, row by row, to the element's n(n+1)/2 entries.  One call of the
 * variant serves every layout (its A pointer is the local array or global
 * memory), so the packed path adds no second copy of the element code; the
 * price is a per-thread stack array of FEINT_MAX_DOFS^2 doubles in the
 * symmetric cases' kernels (touched only with packed output; on a GPU it
 * is local memory, not measured yet: no GPU in the session that wrote it). */
FEINT_INLINE void FEINT_VFN(feint_pack_out_, _device)(const int nd, const double *Aloc,
                                                      double *Ap) {
  FEINT_UNROLL
  for (int i = 0; i < nd; i++)
    FEINT_UNROLL
    for (int j = i; j < nd; j++) Ap[feint_packed_row(nd, i) + j - i] = Aloc[i * nd + j];
}

/* Elasticity (lambda, mu per element) on elasticity_qp's kernel (variants
 * without FEINT_VARIANT_OWN_ELASTICITY, driver.h): the
 * element's geometry and coefficients are copied to per-thread arrays, the
 * coefficients expanded to per-point records (feint_expand_lame), and the
 * variant reads those (stride 1).  Like A^e of packed output, the variant
 * is called once, through selected pointers, so this adds no copy of the
 * element code; for the other kernels `expand` is a constant 0 and the
 * arrays vanish. */
FEINT_INLINE int FEINT_VFN(feint_expand_, _device)(const int pb, const int problem) {
  return pb == FEINT_ELASTICITY_QP && problem == FEINT_ELASTICITY;
}

/* Element e of a case: offsets and strides of its entries in each layout.
 * pb: the kernel case's problem; problem: the caller's (ka->problem). */
FEINT_INLINE void FEINT_VFN(feint_elem_, _device)(const int et, const int pb, const int problem,
                                                  const size_t e, const int lin, const int lout,
                                                  const double *geo, const double *coef,
                                                  double *A, double *b) {
  const size_t B = FEINT_B, ns = (size_t)feint_elem_nodes(et), nd = (size_t)feint_problem_dofs(et, pb);
  const int expand = FEINT_VFN(feint_expand_, _device)(pb, problem);
  const size_t gs = 3 * ns, as = nd * nd;
  const size_t cs = (size_t)feint_problem_coeffs(et, expand ? FEINT_ELASTICITY : pb);
  const int blk_in = lin == FEINT_LAYOUT_BLOCKED, blk_out = lout == FEINT_LAYOUT_BLOCKED;
  const int packed = feint_problem_symmetric(pb) && lout == FEINT_LAYOUT_PACKED;
  const size_t lane = e % B, base = e - lane; /* first element of e's block */
  const double *g = blk_in ? geo + base * gs + lane : geo + e * gs;
  const double *c = blk_in ? coef + base * cs + lane : coef + e * cs;
  int in_stride = blk_in ? FEINT_B : 1;
  double gx[3 * FEINT_MAX_NODES], cx[FEINT_MAX_COEFFS];
  if (expand) {
    FEINT_UNROLL
    for (size_t k = 0; k < gs; k++) gx[k] = g[k * (size_t)in_stride];
    feint_expand_lame(et, c, in_stride, cx, 1);
  }
  const double *gp = expand ? gx : g, *cp = expand ? cx : c;
  in_stride = expand ? 1 : in_stride;
  double Aloc[FEINT_MAX_DOFS * FEINT_MAX_DOFS]; /* dropped when never used (conv-diff) */
  double *a = packed ? Aloc : blk_out ? A + base * as + lane : A + e * as;
  double *bb = blk_out ? b + base * nd + lane : b + e * nd;
  FEINT_ELEMENT_FN(et, pb, gp, cp, in_stride, a, bb, blk_out ? FEINT_B : 1);
  if (packed)
    FEINT_VFN(feint_pack_out_, _device)((int)nd, Aloc, A + e * (size_t)feint_packed_entries((int)nd));
}

/* Element e0 + t of a staged chunk: inputs from the team-shared buffer
 * (natural order, as in global memory), outputs straight to global memory. */
FEINT_INLINE void FEINT_VFN(feint_staged_elem_, _device)(const int et, const int pb,
                                                         const int problem, const size_t e,
                                                         const int lout, const double *g,
                                                         const double *c, double *A, double *b) {
  const size_t B = FEINT_B, nd = (size_t)feint_problem_dofs(et, pb), as = nd * nd;
  const int expand = FEINT_VFN(feint_expand_, _device)(pb, problem);
  const int blk_out = lout == FEINT_LAYOUT_BLOCKED;
  const int packed = feint_problem_symmetric(pb) && lout == FEINT_LAYOUT_PACKED;
  const size_t lane = e % B, base = e - lane;
  double cx[FEINT_MAX_COEFFS];
  if (expand) feint_expand_lame(et, c, 1, cx, 1);
  const double *cp = expand ? cx : c;
  double Aloc[FEINT_MAX_DOFS * FEINT_MAX_DOFS]; /* dropped when never used (conv-diff) */
  double *a = packed ? Aloc : blk_out ? A + base * as + lane : A + e * as;
  double *bb = blk_out ? b + base * nd + lane : b + e * nd;
  FEINT_ELEMENT_FN(et, pb, g, cp, 1, a, bb, blk_out ? FEINT_B : 1);
  if (packed)
    FEINT_VFN(feint_pack_out_, _device)((int)nd, Aloc, A + e * (size_t)feint_packed_entries((int)nd));
}

#if defined(__NVPTX__)
#define FEINT_TEAM_SHARED(var) FEINT_PRAGMA(omp allocate(var) allocator(omp_pteam_mem_alloc))
#else
#define FEINT_TEAM_SHARED(var)
#endif

/* Host fallback: a few teams of two threads (2 x cores threads would only
 * oversubscribe; several teams and threads still exercise the team logic). */
#define FEINT_FALLBACK_THREADS 2

/* One case, one element per thread, each thread reading its own element. */
#define FEINT_DEVICE_DIRECT(ET, PB)                                                              \
  do {                                                                                           \
    int nt_ = FEINT_GPU_NUM_TEAMS_##ET##_##PB;                                                   \
    if (nt_ <= 0 || host_fallback)                                                               \
      nt_ = feint_gpu_num_teams(n, FEINT_GPU_TEAM_SIZE_##ET##_##PB, host_fallback,               \
                                fallback_teams);                                                 \
    FEINT_PRAGMA(omp target teams distribute parallel for device(device)                         \
                 num_teams(nt_) thread_limit(FEINT_GPU_TEAM_SIZE_##ET##_##PB)                    \
                 is_device_ptr(geo, coef, A, b))                                                 \
    for (size_t e = 0; e < n; e++)                                                               \
      FEINT_VFN(feint_elem_, _device)(FEINT_##ET, FEINT_##PB, problem, e, lin, lout, geo, coef,  \
                                      A, b);                                                     \
  } while (0)

/* One case with natural-layout input staged through team-shared memory:
 * chunks of T elements (T = the team's thread count) go round-robin to the
 * teams; per chunk a coalesced copy of the geometry and coefficient chunks,
 * a barrier, one element per thread, a barrier before the buffer is reused.
 * The parallel region reads nothing from the teams region's locals but the
 * team-shared buffer and parameter record: the variant objects are compiled
 * in clang's CUDA data-sharing mode (gpu.mk, GPU_CUDA_MODE_FLAGS), where a
 * local of the teams region is private to the thread that runs it, and
 * neither a capture by reference nor firstprivate (which clang refuses
 * there) would reach the other threads.  The team's initial thread fills the
 * record before the parallel region starts (its fork is a team barrier). */
#ifndef FEINT_STAGE_PARAMS_DEFINED
#define FEINT_STAGE_PARAMS_DEFINED
typedef struct {
  const double *geo, *coef;
  double *A, *b;
  size_t n;
  int problem, lout;
} feint_stage_params;
#endif

#define FEINT_DEVICE_STAGED(ET, PB)                                                              \
  do {                                                                                           \
    const size_t ts_ = FEINT_GPU_TEAM_SIZE_##ET##_##PB;                                          \
    int nt_ = FEINT_GPU_NUM_TEAMS_##ET##_##PB;                                                   \
    if (nt_ <= 0 || host_fallback)                                                               \
      nt_ = feint_gpu_num_teams(n, ts_, host_fallback, fallback_teams);                          \
    const int nthr_ = host_fallback ? FEINT_FALLBACK_THREADS : (int)ts_;                         \
    FEINT_PRAGMA(omp target teams device(device) num_teams(nt_)                                  \
                 thread_limit(FEINT_GPU_TEAM_SIZE_##ET##_##PB) is_device_ptr(geo, coef, A, b))   \
    {                                                                                            \
      double stage[FEINT_GPU_TEAM_SIZE_##ET##_##PB * FEINT_GPU_IN_SIZE_##ET##_##PB];             \
      FEINT_TEAM_SHARED(stage)                                                                   \
      feint_stage_params prm;                                                                    \
      FEINT_TEAM_SHARED(prm)                                                                     \
      prm = (feint_stage_params){geo, coef, A, b, n, problem, lout};                             \
      FEINT_PRAGMA(omp parallel num_threads(nthr_))                                              \
      {                                                                                          \
        const feint_stage_params p_ = prm;                                                       \
        const size_t gs = 3 * (size_t)feint_elem_nodes(FEINT_##ET);                              \
        const size_t cs = (size_t)feint_problem_coeffs(FEINT_##ET, p_.problem);                  \
        const size_t t = (size_t)omp_get_thread_num(), nthr = (size_t)omp_get_num_threads();     \
        const size_t teams = (size_t)omp_get_num_teams();                                        \
        double *sg = stage, *sc = stage + nthr * gs;                                             \
        for (size_t e0 = (size_t)omp_get_team_num() * nthr; e0 < p_.n; e0 += teams * nthr) {     \
          const size_t cnt = p_.n - e0 < nthr ? p_.n - e0 : nthr;                                \
          for (size_t i = t; i < cnt * gs; i += nthr) sg[i] = p_.geo[e0 * gs + i];               \
          for (size_t i = t; i < cnt * cs; i += nthr) sc[i] = p_.coef[e0 * cs + i];              \
          FEINT_PRAGMA(omp barrier)                                                              \
          if (t < cnt)                                                                           \
            FEINT_VFN(feint_staged_elem_, _device)(FEINT_##ET, FEINT_##PB, p_.problem, e0 + t,   \
                                                   p_.lout, sg + t * gs, sc + t * cs, p_.A,      \
                                                   p_.b);                                        \
          FEINT_PRAGMA(omp barrier)                                                              \
        }                                                                                        \
      }                                                                                          \
    }                                                                                            \
  } while (0)

/* The case's path, chosen by the preprocessor (FEINT_GPU_STAGE_INPUT_<case>
 * must expand to 0 or 1) so that a case compiles only the kernels it uses. */
#define FEINT_DEVICE_PATH_0(ET, PB) FEINT_DEVICE_DIRECT(ET, PB)
#define FEINT_DEVICE_PATH_1(ET, PB)        \
  do {                                     \
    if (lin == FEINT_LAYOUT_NATURAL)       \
      FEINT_DEVICE_STAGED(ET, PB);         \
    else                                   \
      FEINT_DEVICE_DIRECT(ET, PB);         \
  } while (0)
#define FEINT_DEVICE_CASE(ET, PB) \
  FEINT_CAT(FEINT_DEVICE_PATH_, FEINT_GPU_STAGE_INPUT_##ET##_##PB)(ET, PB)

void FEINT_VFN(feint_variant_, _device)(const feint_kernel_args *ka, int device,
                                        int host_fallback) {
  /* plain locals: the target regions capture these, never ka (a host pointer) */
  const double *geo = ka->geometry, *coef = ka->coeffs;
  double *A = ka->A, *b = ka->b;
  const size_t n = ka->num_elem;
  const int lin = ka->layout_in, lout = ka->layout_out, problem = ka->problem;
  int fallback_teams = omp_get_num_procs() / FEINT_FALLBACK_THREADS;
  if (fallback_teams < 1) fallback_teams = 1;
#define FEINT_DEVICE_CASE_IF(ET, PB)                                                 \
  if (ka->element == FEINT_##ET && FEINT_VARIANT_PROBLEM(ka->problem) == FEINT_##PB) \
    FEINT_DEVICE_CASE(ET, PB);                                                        \
  else
  FEINT_VARIANT_KERNEL_CASES(FEINT_DEVICE_CASE_IF) {}
#undef FEINT_DEVICE_CASE_IF
}
