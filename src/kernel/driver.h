/*
 * kernel/driver.h - the element loop shared by every variant (a template:
 * include it at the end of a variant file after defining
 *   FEINT_VARIANT_NAME   the variant's name, e.g. qss_geo_linear
 *   FEINT_ELEMENT_FN     its per-element function, called as
 *       FEINT_ELEMENT_FN(et, pb, geo, coef, in_stride, A, b, out_stride)
 * and optionally the same split in two stages, FEINT_TERMS_FN,
 * FEINT_TERMS_LEN and FEINT_ROW_FN (below: "Node row by node row")).
 * It defines  void feint_variant_<name>_host(const feint_kernel_args *).
 *
 * Host mapping: OpenMP threads own contiguous ranges of blocks of
 * FEINT_BLOCK_LEN elements (schedule(static): equal work per element, and
 * each thread streams through its own part of every array); inside a block,
 * `omp simd` gives each SIMD lane one element, so the variant's loops over
 * quadrature points and shape functions run lane-parallel.  The kernels see
 * every block in the blocked order whatever the caller's layout: natural
 * chunks are transposed through L1 buffers with contiguous loads and stores
 * (block_io.h), so the hot loop has no gathers or scatters, and outputs
 * leave with streaming stores (large A^e row by row while the kernel
 * computes the next rows, where the variant offers it: FEINT_ROW_FN); the
 * inputs of a block a few blocks ahead are prefetched.  Elasticity with
 * per-element lambda, mu runs on elasticity_qp's instantiation: its
 * coefficient block is expanded to per-point records in L1 first
 * (physics.h, FEINT_FOR_EACH_KERNEL_CASE), unless the variant defines
 * FEINT_VARIANT_OWN_ELASTICITY (SSQ), which compiles elasticity's own
 * cases.
 * Packed output (symmetric problems): the
 * block's matrices are compacted to their upper triangles inside the L1
 * buffer (feint_block_pack_upper) and leave as natural rows of n(n+1)/2
 * entries; b_e as natural.  Each case (element x problem) is a separate
 * instantiation with constant sizes, so every inner loop is fully unrolled.
 *
 * Offload builds (-DFEINT_OFFLOAD, make GPU=sm_XX) also get the device loop,
 * feint_variant_<name>_device, from kernel/driver_device.h.
 */
#ifndef FEINT_VARIANT_NAME
#error "define FEINT_VARIANT_NAME and FEINT_ELEMENT_FN before including kernel/driver.h"
#endif

#include "feint_internal.h"
#include "kernel/block_io.h"
#include "kernel/physics.h"

/* Entries per element of the largest array of any case (the size of the
 * transposition buffer). */
#define FEINT_MAX2_(a, b) ((a) > (b) ? (a) : (b))
#define FEINT_MAX_ENTRIES \
  FEINT_MAX2_(FEINT_MAX2_(3 * FEINT_MAX_NODES, FEINT_MAX_COEFFS), FEINT_MAX_DOFS * FEINT_MAX_DOFS)

/* The kernel cases this variant compiles, and the one that integrates
 * problem pb (physics.h). */
#ifdef FEINT_VARIANT_OWN_ELASTICITY
#define FEINT_VARIANT_KERNEL_CASES(X) \
  FEINT_FOR_EACH_KERNEL_CASE(X) FEINT_ELASTICITY_KERNEL_CASES(X)
#define FEINT_VARIANT_PROBLEM(pb) (pb)
#else
#define FEINT_VARIANT_KERNEL_CASES(X) FEINT_FOR_EACH_KERNEL_CASE(X)
#define FEINT_VARIANT_PROBLEM(pb) FEINT_KERNEL_PROBLEM(pb)
#endif

#define FEINT_CAT_(a, b) a##b
#define FEINT_CAT(a, b) FEINT_CAT_(a, b)
#define FEINT_VFN(prefix, suffix) FEINT_CAT(FEINT_CAT(prefix, FEINT_VARIANT_NAME), suffix)

/* Node row by node row (a variant that defines FEINT_TERMS_FN, its
 * per-element terms in FEINT_TERMS_LEN doubles, called as
 *     FEINT_TERMS_FN(et, pb, geo, coef, in_stride, P, ps)
 * (coef: the element's coefficients, for terms that fold them in), and
 * FEINT_ROW_FN, one node row of A^e and b^e from them: SSQ, tensor): the
 * terms of every lane into an L1 buffer, then per node row r a
 * lane-parallel FEINT_ROW_FN, and rows N_C r .. N_C r + N_C - 1, final
 * now, out to the sink while the next row computes.  Used where A^e is
 * large (hex8 and prism6 elasticity: a 24 x 24 blocked A_buf is 36 KiB,
 * more than an L1): copied out after the block, its streaming stores left
 * the FMA units idle (hex8_elasticity_limits, addendum 7); and in the
 * cases a variant names with FEINT_ROWS_ALSO(et, pb), where the same
 * overlap pays on a smaller A^e (tensor conv-diff on prisms and hexahedra,
 * bench/results/tensor_convdiff_rows).  Elsewhere the whole element runs
 * in one lane loop.  Natural output takes the rows as they finish too
 * where its lines allow (block_io.h's feint_rows_sink_ok): rows of whole
 * lines (hex8), or prism6 elasticity's A^e of 324 entries, half a line
 * past whole ones, whose lines leave once every entry in them is final;
 * copied out after the block instead, that natural A^e took 1.19-1.39
 * times as long as blocked on one Zen 4 thread, now 1.06-1.13
 * (bench/results/natural_rows_half). */
#ifdef FEINT_ROW_FN
#ifndef FEINT_ROWS_ALSO
#define FEINT_ROWS_ALSO(et, pb) 0
#endif
/* Does this block run row by row?  Always where A^e is large; in a
 * FEINT_ROWS_ALSO case only for blocked output, whose rows leave as they
 * finish.  prism6's natural rows of 6 entries are not whole lines: copied
 * out after the block, the row loop's reloads of the terms cost more than
 * one lane loop (conv-diff, 2 threads, Zen 4: 21.9-22.3 ns against
 * 20.4-21.4), and neither streaming the lines each row completes nor
 * holding a block back to leave with the next one's rows gained; hex8's
 * natural rows are whole lines, but streaming them gained nothing
 * measurable (2 threads: 37.4-50.8 against 37.4-41.7).  The test
 * is on the layout, the same for every block: testing each block's chunk
 * instead gave back about half the gain (33.1-33.5 ns against 28.8-29.1
 * on one thread in the same rounds, the cause not found:
 * bench/results/tensor_convdiff_rows). */
FEINT_INLINE int FEINT_VFN(feint_block_rows_, _now)(const int et, const int pb,
                                                    const feint_rows_sink *sink) {
  return feint_problem_dofs(et, pb) >= 18 ||
         (FEINT_ROWS_ALSO(et, pb) && sink != NULL && sink->layout == FEINT_LAYOUT_BLOCKED);
}
FEINT_INLINE void FEINT_VFN(feint_block_rows_, )(const int et, const int pb, const double *geo,
                                                 const double *coef, double *A, double *b,
                                                 const feint_rows_sink *sink) {
  const int nc = feint_problem_comps(pb), nd = feint_problem_dofs(et, pb);
  double P[FEINT_TERMS_LEN * FEINT_B] __attribute__((aligned(64)));
  FEINT_OMP(simd)
  for (int lane = 0; lane < FEINT_B; lane++)
    FEINT_TERMS_FN(et, pb, geo + lane, coef + lane, FEINT_B, P + lane, FEINT_B);
  FEINT_UNROLL
  for (int r = 0; r < feint_elem_nodes(et); r++) {
    FEINT_OMP(simd)
    for (int lane = 0; lane < FEINT_B; lane++) {
      feint_coefs c;
      feint_load_coeffs(et, pb, coef + lane, FEINT_B, &c);
      FEINT_ROW_FN(et, pb, r, P + lane, FEINT_B, &c, A + lane, b + lane, FEINT_B);
    }
    feint_rows_out(sink, A, nd * nd, nc * r * nd, nc * (r + 1) * nd);
  }
}
#else
FEINT_INLINE int FEINT_VFN(feint_block_rows_, _now)(const int et, const int pb,
                                                    const feint_rows_sink *sink) {
  (void)et, (void)pb, (void)sink;
  return 0;
}
FEINT_INLINE void FEINT_VFN(feint_block_rows_, )(const int et, const int pb, const double *geo,
                                                 const double *coef, double *A, double *b,
                                                 const feint_rows_sink *sink) {
  (void)et, (void)pb, (void)geo, (void)coef, (void)A, (void)b, (void)sink;
}
#endif

/* One block of one case: the variant's element function on every SIMD lane
 * (omp simd, lane stride FEINT_B), geo and coef in, A and b out, all in the
 * blocked order: feint_block_<variant>_<ET>_<PB>, inlined into the host
 * loop below.  The mesh and operator loops (driver_mesh.h,
 * driver_operator.h) take the same block with shared = 1, where hex8's is
 * out of line (noinline): one copy for both loops.  Inlined three times,
 * the hex8 kernels made the -O3 build of the six variant files cost 55 min
 * of a Zen 3 core (ssq_geo_generic.c alone 16.6); now 19 (4.8).  The host
 * loop keeps its own inlined copy: out of line there, hex8 Poisson sqs_geo_linear ran 1.3x
 * slower (blocked, one thread, in cache, Zen 3: 156-168 ns per element
 * against 121-123, the same instruction count by callgrind; restrict,
 * alignment and a shifted stack frame did not help), qss_geo_linear 1.1x.
 * The mesh loops pay that price on hex8: the recomputed operator of
 * feint_bench_operator (hex8 Poisson, qss_geo_linear, 2 threads) went from
 * 82.8-84.1 to 88.9-89.6 ns per element (min of 4 alternated runs), the
 * assembly of feint_bench_assembly by 0-3% (its scatter dominates).
 * Much of that price was the out-of-line frame, not the call: clang did not
 * realign it, so its 64-byte spill slots sat 48 bytes past a line (rsp = 48
 * mod 64 in every one of these functions) and each spill and reload
 * straddled two lines.  FEINT_ALIGN_FRAME (portable.h) now realigns it.
 * Zen 4, one thread, best of 3 alternated rounds, old -> new:
 * feint_bench_operator recompute (hex8 Poisson, 100^3 cells) qss_geo_generic
 * 96.6-97.1 -> 88.6 ns per element, sqs_geo_linear 94.5-95.8 -> 87.6-91.4;
 * feint_bench_assembly (map, 64^3 cells) hex8 Poisson 175-210 -> 152-182,
 * hex8 elasticity 1541 -> 1449-1460; the precomputed operator, which runs
 * no block, unchanged (bench/results/ool_frame_alignment).  Whether the
 * host loop could now share the out-of-line copy is not measured.
 * tet4 and prism6 stay inlined everywhere (small kernels, cheap to
 * compile).  Checking builds (FEINT_NO_UNROLL: sanitizers) put every case
 * out of line. */
#define FEINT_BLOCK_FN(ET, PB) \
  FEINT_CAT(FEINT_VFN(feint_block_, _), FEINT_CAT(ET, FEINT_CAT(_, PB)))
#define FEINT_BLOCK_FN_OOL(ET, PB) \
  FEINT_CAT(FEINT_VFN(feint_block_ool_, _), FEINT_CAT(ET, FEINT_CAT(_, PB)))
#ifdef FEINT_NO_UNROLL
#define FEINT_BLOCK_INLINE static __attribute__((noinline))
#else
#define FEINT_BLOCK_INLINE FEINT_INLINE
#endif
#define FEINT_BLOCK_FN_DEF(ET, PB)                                                             \
  FEINT_BLOCK_INLINE void FEINT_BLOCK_FN(ET, PB)(const double *geo, const double *coef,        \
                                                 double *A, double *b,                         \
                                                 const feint_rows_sink *sink) {                \
    if (FEINT_VFN(feint_block_rows_, _now)(FEINT_##ET, FEINT_##PB, sink)) {                   \
      FEINT_VFN(feint_block_rows_, )(FEINT_##ET, FEINT_##PB, geo, coef, A, b, sink);          \
      return;                                                                                  \
    }                                                                                          \
    FEINT_OMP(simd)                                                                            \
    for (int lane = 0; lane < FEINT_B; lane++)                                                 \
      FEINT_ELEMENT_FN(FEINT_##ET, FEINT_##PB, geo + lane, coef + lane, FEINT_B, A + lane,     \
                       b + lane, FEINT_B);                                                     \
  }
FEINT_FOR_EACH_CASE(FEINT_BLOCK_FN_DEF)
#undef FEINT_BLOCK_FN_DEF
/* hex8's out-of-line copy (A, b: the callers' 64-byte aligned locals) */
#define FEINT_BLOCK_OOL_DEF_HEX8(ET, PB)                                                      \
  static __attribute__((noinline)) void FEINT_BLOCK_FN_OOL(ET, PB)(                           \
      const double *restrict geo, const double *restrict coef, double *restrict A,           \
      double *restrict b, const feint_rows_sink *sink) {                                     \
    FEINT_ALIGN_FRAME(); /* 64-byte spill slots (portable.h) */                              \
    FEINT_BLOCK_FN(ET, PB)(geo, coef, __builtin_assume_aligned(A, 64),                       \
                           __builtin_assume_aligned(b, 64), sink);                            \
  }
#define FEINT_BLOCK_OOL_DEF_TET4(ET, PB)
#define FEINT_BLOCK_OOL_DEF_PRISM6(ET, PB)
#define FEINT_BLOCK_OOL_DEF(ET, PB) FEINT_BLOCK_OOL_DEF_##ET(ET, PB)
FEINT_FOR_EACH_CASE(FEINT_BLOCK_OOL_DEF)
#undef FEINT_BLOCK_OOL_DEF

/* The block of case (et, pb): inlined (shared = 0: host loop) or the copy
 * the mesh and operator loops share (shared = 1: hex8 out of line); literal
 * et, pb, shared fold the chain to one call. */
#define FEINT_BLOCK_SHARED_TET4 FEINT_BLOCK_FN
#define FEINT_BLOCK_SHARED_PRISM6 FEINT_BLOCK_FN
#define FEINT_BLOCK_SHARED_HEX8 FEINT_BLOCK_FN_OOL
FEINT_INLINE void FEINT_VFN(feint_block_, _host)(const int et, const int pb, const int shared,
                                                 const double *geo, const double *coef, double *A,
                                                 double *b, const feint_rows_sink *sink) {
#define FEINT_BLOCK_CASE(ET, PB)                              \
  if (et == FEINT_##ET && pb == FEINT_##PB) {                 \
    if (shared)                                               \
      FEINT_BLOCK_SHARED_##ET(ET, PB)(geo, coef, A, b, sink); \
    else                                                      \
      FEINT_BLOCK_FN(ET, PB)(geo, coef, A, b, sink);          \
  } else
  FEINT_FOR_EACH_CASE(FEINT_BLOCK_CASE) {}
#undef FEINT_BLOCK_CASE
}

/* The blocks of one case, shared among the threads of the enclosing parallel
 * region.  Called with literal et and pb inside that region, so the
 * constants reach the outlined code and every inner loop unrolls.  Per
 * block: the inputs in the blocked order (in place, or transposed into L1
 * buffers, block_io.h), one SIMD lane per element with unit lane stride,
 * then the outputs back in the caller's layout with streaming stores. */
FEINT_INLINE void FEINT_VFN(feint_case_, _host)(const feint_kernel_args *ka, const int et,
                                                const int pb) {
  const int ns = feint_elem_nodes(et), nd = feint_problem_dofs(et, pb);
  const int geo_size = 3 * ns, coef_size = feint_problem_coeffs(et, pb);
  /* elasticity (lambda, mu per element) on elasticity_qp's loop */
  const int expand = pb == FEINT_ELASTICITY_QP && ka->problem == FEINT_ELASTICITY;
  const int coef_in_size = expand ? feint_problem_coeffs(et, FEINT_ELASTICITY) : coef_size;
  const size_t num_elem = ka->num_elem;
  const size_t num_blk = (num_elem + FEINT_B - 1) / FEINT_B;
  const int lin = ka->layout_in, lout = ka->layout_out;
  FEINT_OMP(for schedule(static))
  for (size_t blk = 0; blk < num_blk; blk++) {
    const int nvalid =
        num_elem - blk * FEINT_B < FEINT_B ? (int)(num_elem - blk * FEINT_B) : FEINT_B;
    double geo_buf[3 * FEINT_MAX_NODES * FEINT_B] __attribute__((aligned(64)));
    double coef_buf[FEINT_MAX_COEFFS * FEINT_B] __attribute__((aligned(64)));
    double A_buf[FEINT_MAX_DOFS * FEINT_MAX_DOFS * FEINT_B] __attribute__((aligned(64)));
    double b_buf[FEINT_MAX_DOFS * FEINT_B] __attribute__((aligned(64)));
    double tmp_buf[FEINT_MAX_ENTRIES * FEINT_B] __attribute__((aligned(64)));
    feint_prefetch_ahead(ka->geometry, geo_size, blk, num_blk); /* a block ahead's inputs */
    if (coef_in_size > 0) feint_prefetch_ahead(ka->coeffs, coef_in_size, blk, num_blk);
    const double *geo = feint_block_in(lin, ka->geometry, geo_size, blk, nvalid, geo_buf, tmp_buf);
    const double *coef;
    if (expand) {
      double lame_buf[FEINT_MAX_COEFFS * FEINT_B] __attribute__((aligned(64)));
      /* (the size spelled out: a literal here, so the transposition's loops unroll) */
      const double *c = feint_block_in(lin, ka->coeffs, feint_problem_coeffs(et, FEINT_ELASTICITY),
                                       blk, nvalid, lame_buf, tmp_buf);
      FEINT_OMP(simd)
      for (int lane = 0; lane < FEINT_B; lane++)
        feint_expand_lame(et, c + lane, FEINT_B, coef_buf + lane, FEINT_B);
      coef = coef_buf;
    } else {
      coef = feint_block_in(lin, ka->coeffs, coef_size, blk, nvalid, coef_buf, tmp_buf);
    }
    /* a case that runs node row by node row sends a full block's A^e rows
     * out as it finishes them, where the destination allows */
    feint_rows_sink sink = {NULL, lout};
    if (FEINT_VFN(feint_block_rows_, _now)(et, pb, &sink) && nvalid == FEINT_B &&
        lout != FEINT_LAYOUT_PACKED) {
      double *A_chunk = ka->A + blk * FEINT_B * (size_t)(nd * nd);
      if (feint_rows_sink_ok(lout, A_chunk, feint_problem_comps(pb) * nd, nd * nd))
        sink.chunk = A_chunk;
    }
    FEINT_VFN(feint_block_, _host)(et, pb, 0, geo, coef, A_buf, b_buf, &sink);
    if (sink.chunk) {
      /* A^e is out already */
    } else if (feint_problem_symmetric(pb) && lout == FEINT_LAYOUT_PACKED) {
      /* the upper triangles, compacted in L1, then out as natural rows */
      feint_block_pack_upper(A_buf, nd);
      feint_block_out(FEINT_LAYOUT_NATURAL, ka->A, feint_packed_entries(nd), blk, nvalid, A_buf,
                      tmp_buf);
    } else {
      feint_block_out(lout, ka->A, nd * nd, blk, nvalid, A_buf, tmp_buf);
    }
    feint_block_out(lout, ka->b, nd, blk, nvalid, b_buf, tmp_buf);
  }
}

void FEINT_VFN(feint_variant_, _host)(const feint_kernel_args *ka) {
  FEINT_OMP(parallel)
  {
    /* literal arguments: one fully specialised loop nest per case */
#define FEINT_HOST_CASE(ET, PB)                                                      \
  if (ka->element == FEINT_##ET && FEINT_VARIANT_PROBLEM(ka->problem) == FEINT_##PB) \
    FEINT_VFN(feint_case_, _host)(ka, FEINT_##ET, FEINT_##PB);                        \
  else
    FEINT_VARIANT_KERNEL_CASES(FEINT_HOST_CASE) {}
#undef FEINT_HOST_CASE
  }
}

#ifdef FEINT_OFFLOAD
#include "kernel/driver_device.h"
#endif

/* The same variant fed by a mesh (gather through the connectivity). */
#include "kernel/driver_mesh.h"

/* Its matrix-free operator action y += A^e x_e (operator RECOMPUTE form). */
#include "kernel/driver_operator.h"
