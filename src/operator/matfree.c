/*
 * operator/matfree.c - the matrix-free forms of feint_operator.
 *
 * RECOMPUTE: every application runs the variant's operator loop
 * (kernel/driver_operator.h): gather each element's vertex coordinates
 * through the connectivity, integrate A^e again (in registers / L1), add
 * A^e x_e into y.  Resident data: the coordinates and the connectivity (the
 * mesh's own arrays on the host, which runs chunks of consecutive elements:
 * see kernel/driver_operator.h; copies on a device, the connectivity in
 * colour order with colouring, so that each colour is one contiguous stream
 * instead of a jump through the mesh per element), the coefficients if
 * they enter A^e (conv-diff, copied, in the same order; Poisson's f does
 * not and is not read).
 *
 * PRECOMPUTED: A^e of every element computed once at create and streamed
 * at every application, packed: the upper triangle row by row (nd (nd+1)/2
 * doubles) for the symmetric problems, all nd^2 entries for conv-diff.
 * Why per-element matrices and not per-quadrature-point geometric factors
 * (perfmodel/operator.c counts both): the factors are 6 doubles (the
 * symmetric vol J^-1 J^-T) per quadrature point, plus the coefficients a
 * problem needs there: tet4 Poisson 6 doubles (J is constant: one point)
 * against 10 packed, prism6 6 x 6 = 36 against 21, hex8 8 x 6 = 48 against
 * 36, conv-diff needs its 20 coefficients besides (tet4 26 against 16);
 * the packed matrix moves fewer bytes for every scalar case but tet4
 * Poisson, where the factors would save 32 of its ~100 bytes per element
 * (elasticity, once it is on the mesh paths, is the other way round: 78
 * packed against 8 for a tet, 300 against 50 for a hex), and its apply is
 * a plain small matrix-vector product whatever the physics.  The factor
 * layout exists as its own form for Poisson on tet4 and hex8
 * (FEINT_OPERATOR_QPOINT, operator/qpoint.h: on hex8 it streams 384 bytes
 * of factors per cell against 288 of packed A^e and takes 432 flops by sum
 * factorisation against 136, so packed A^e stays the PRECOMPUTED layout; the
 * seed-003 comparison wants both); not done: factors for elasticity.
 * The data are stored in the order the application visits the elements:
 * "slots" in runs (host: chunks of consecutive elements, grouped by chunk
 * colour with colouring; device: element colours, or the mesh with
 * atomics), each run padded to whole blocks of FEINT_BLOCK_LEN slots, in the blocked
 * layout (entry k of slot s at [(s / B) B nk + k B + s % B]): the host loop
 * reads a block's entries as whole SIMD vectors, the device threads read
 * neighbouring addresses.  The connectivity is copied in slot order too
 * ([num_slots][N_S]), so the element loop streams both arrays.
 */
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#ifdef FEINT_OFFLOAD
#include <omp.h>

#include "kernel/gpu_tuning.h"
#endif

#include "kernel/block_io.h"
#include "kernel/gather.h"
#include "kernel/physics.h"
#include "operator/op_kernel.h"
#include "operator/operator_internal.h"
#include "operator/qpoint.h"
#include "kernel/geometry.h"

static const feint_op_variant_fn op_host[FEINT_VARIANT_COUNT] = {
    feint_variant_qss_geo_linear_op_host, feint_variant_qss_geo_generic_op_host,
    feint_variant_sqs_geo_linear_op_host, feint_variant_sqs_geo_generic_op_host,
    feint_variant_ssq_geo_linear_op_host, feint_variant_ssq_geo_generic_op_host,
    feint_variant_tensor_geo_linear_op_host};
#ifdef FEINT_OFFLOAD
static const feint_op_variant_device_fn op_device[FEINT_VARIANT_COUNT] = {
    feint_variant_qss_geo_linear_op_device, feint_variant_qss_geo_generic_op_device,
    feint_variant_sqs_geo_linear_op_device, feint_variant_sqs_geo_generic_op_device,
    feint_variant_ssq_geo_linear_op_device, feint_variant_ssq_geo_generic_op_device,
    feint_variant_tensor_geo_linear_op_device};
#endif

/* ---- the PRECOMPUTED loop ------------------------------------------------- */

FEINT_DECLARE_TARGET_BEGIN
/* Entries per element of the PRECOMPUTED data (literal nd and sym: folds). */
FEINT_INLINE int packed_entries(const int nd, const int sym) {
  return sym ? feint_packed_entries(nd) : nd * nd;
}

/* Index of entry (r, c) in the packed data (literal nd and sym: folds). */
FEINT_INLINE int packed_index(const int nd, const int sym, const int r, const int c) {
  if (!sym) return r * nd + c;
  const int i = r < c ? r : c, j = r < c ? c : r;
  return feint_packed_row(nd, i) + (j - i);
}
FEINT_DECLARE_TARGET_END

/* Dofs of a host window (pre_case_host): its x and y entries are two stack
 * arrays of this many doubles, 32 KiB together, in L1 while the window
 * runs; 16-bit indices address them. */
#ifndef FEINT_OP_WINDOW_DOFS
#define FEINT_OP_WINDOW_DOFS 2048
#endif
_Static_assert(FEINT_OP_WINDOW_DOFS <= 65536 && FEINT_OP_WINDOW_DOFS >= FEINT_MAX_DOFS * FEINT_B,
               "a window holds at least one block and at most 65536 vertices");

/* The cap make_windows applies (dofs; above FEINT_OP_WINDOW_DOFS it is that):
 * t802 lowers it to cut runs into windows of a block or two. */
size_t feint_op_window_dofs = FEINT_OP_WINDOW_DOFS;

/* Whether the host loop of a case runs in windows (pre_case_host) or
 * straight on x and y with each block's vertices prefetched (literal
 * argument: folds): windows for tet4 and prism6, straight for hex8.
 * Straight -> windows, Zen 5, colouring, min ns per element of 3
 * alternated rounds of back-to-back applies, one thread / two (box order;
 * Hilbert): tet4 Poisson PRECOMPUTED (4.09 M tets) 4.07 -> 3.48 / 2.69 ->
 * 2.53; 4.42 -> 3.54 / 2.72 -> 2.05; QPOINT 6.87 -> 6.00 / 3.75 -> 3.34;
 * 6.94 -> 5.86 / 3.74 -> 3.10; prism6 Poisson PRECOMPUTED (2 M prisms)
 * 7.27 -> 7.55 / 3.89 -> 3.83; 8.75 -> 7.05 / 4.70 -> 4.11.  Under
 * feint_bench_operator, which flushes the caches between applies, tet4
 * keeps ~10% of it (one thread, PRECOMPUTED box 4.27-4.43 -> 3.86-4.28,
 * Hilbert 4.53-4.59 -> 3.93-4.12).  hex8 loses there: box-ordered windows
 * are thin slabs whose vertices are gathered 2.3 times each (QPOINT, one
 * thread, 14.6-14.8 -> 16.8-17.6 ns; Hilbert order gains 14.7-14.8 ->
 * 13.5-13.7), and PRECOMPUTED lost in the probes too (box 11.3-12.5 ->
 * 15.3-15.9, Hilbert 12.1-13.3 -> 13.5-14.5, while within 3% in cache);
 * bench/results/operator_windows/. */
FEINT_INLINE int pre_windowed(const int et) { return et != FEINT_HEX8; }

/* Host: block of B slots starting at slot s0 (a multiple of B), nvalid of
 * them elements.  Windows (win): the vertices' x entries from xs = xl, the
 * products added into ys = yl, both window-local (lconn, blocked: node n of
 * lane l at [n B + l]); else from x into y through the slots' connectivity
 * sconn ([slot][N_S]), atomically with atomics. */
FEINT_INLINE void pre_block_host(const int et, const int pb, const int qp, const int win,
                                 const int atomic, const size_t s0, const int nvalid,
                                 const uint16_t *lconn, const uint32_t *sconn, const double *data,
                                 const uint64_t *qp_off, const double *xs, double *ys) {
  const int ns = feint_elem_nodes(et), nc = feint_problem_comps(pb), nd = ns * nc;
  const int sym = pb != FEINT_CONVDIFF;
  const int nk = qp ? feint_qp_entries(et) : packed_entries(nd, sym);
  /* QPOINT: the block's offset, and its size says whether it holds one G
   * per cell (affine) or one per point */
  const double *blk = qp ? data + qp_off[s0 / FEINT_B] : data + s0 * (size_t)nk;
  const int affine = qp && qp_off[s0 / FEINT_B + 1] - qp_off[s0 / FEINT_B] == 6 * FEINT_B;
  const uint16_t *lv = win ? lconn + s0 * (size_t)ns : NULL;
  const uint32_t *v = win ? NULL : sconn + s0 * (size_t)ns;
  double xe[FEINT_MAX_DOFS * FEINT_B] __attribute__((aligned(64)));
  double ye[FEINT_MAX_DOFS * FEINT_B] __attribute__((aligned(64)));
  if (win && qp && nc == 1) { /* kernel/gather.h: measured faster here, and only here */
    feint_gather_scalar_dofs_block(ns, lv, xs, xe);
  } else if (win) {
    FEINT_UNROLL
    for (int r = 0; r < nd; r++)
      for (int l = 0; l < FEINT_B; l++)
        xe[r * FEINT_B + l] = xs[(size_t)lv[r / nc * FEINT_B + l] * nc + r % nc];
  } else {
    for (int l = 0; l < FEINT_B; l++) feint_gather_dofs(et, pb, v + l * ns, xs, xe + l, FEINT_B);
  }
  if (qp && affine) {
    FEINT_OMP(simd)
    for (int l = 0; l < FEINT_B; l++)
      feint_qp_cell(et, 1, blk + l, FEINT_B, xe + l, FEINT_B, ye + l, FEINT_B);
  } else if (qp) {
    FEINT_OMP(simd)
    for (int l = 0; l < FEINT_B; l++)
      feint_qp_cell(et, 0, blk + l, FEINT_B, xe + l, FEINT_B, ye + l, FEINT_B);
  } else {
  FEINT_OMP(simd)
  for (int l = 0; l < FEINT_B; l++) {
    FEINT_UNROLL
    for (int r = 0; r < nd; r++) {
      double s = 0.0;
      FEINT_UNROLL
      for (int c = 0; c < nd; c++)
        s += blk[packed_index(nd, sym, r, c) * FEINT_B + l] * xe[c * FEINT_B + l];
      ye[r * FEINT_B + l] = s;
    }
  }
  }
  for (int l = 0; l < nvalid; l++)
    FEINT_UNROLL
    for (int r = 0; r < nd; r++) {
      const size_t vx = win ? lv[r / nc * FEINT_B + l] : v[l * ns + r / nc];
      double *dst = ys + vx * nc + r % nc;
      if (atomic && !win) {
        FEINT_OMP(atomic update)
        *dst += ye[r * FEINT_B + l];
      } else {
        *dst += ye[r * FEINT_B + l];
      }
    }
}

/* How far ahead the PRECOMPUTED loop prefetches its streams: about this
 * many bytes of element data, and never fewer blocks than the element loops
 * (FEINT_PREFETCH_AHEAD).  With a fixed block count the distance scaled
 * with the data per element: 2.5 KiB for tet4 Poisson (80 bytes per
 * element), 9 KiB for hex8.  tet4 Poisson, 4.09 M elements, box order,
 * colouring, Zen 5, min (median) of 5 alternated runs, ns per element: 2
 * threads 2.45 (2.51) at 4 blocks -> 2.26 (2.33) at 16 (10 KiB), one thread
 * 4.52-4.69 -> 4.02-4.12; 8 blocks about as 16. */
#define FEINT_PRE_AHEAD_BYTES 10240

FEINT_INLINE size_t pre_ahead(const int nk) {
  const size_t blocks = FEINT_PRE_AHEAD_BYTES / ((size_t)FEINT_B * (size_t)nk * sizeof(double));
  return blocks > FEINT_PREFETCH_AHEAD ? blocks : FEINT_PREFETCH_AHEAD;
}

/* ... and, in the straight loop, the x and y entries of the vertices half
 * that far ahead (at least 2 blocks; their conn is in cache by then), QPOINT
 * 2 blocks.  tet4 Poisson PRECOMPUTED, colouring, Zen 5, min of 3
 * alternated runs, ns per element, 2 -> 8 blocks: Hilbert order 4.79 ->
 * 4.13 (one thread), 2.56 -> 2.27 (two); box 3.90 -> 3.82, 2.24 -> 2.15.
 * QPOINT lost with 8 (Hilbert, atomics, 20.1 -> 24.7; colouring, two
 * threads, 3.51 -> 3.82), and hex8 (4 blocks ahead) keeps 2 either way. */
FEINT_INLINE size_t pre_near(const int qp, const int nk) {
  const size_t half = pre_ahead(nk) / 2;
  return qp || half < 2 ? 2 : half;
}

/* One case inside the enclosing parallel region (literal et, pb: the
 * constants reach the outlined code, and the loops unroll): the groups
 * (chunk colours, or one group with atomics) one after another, the runs
 * (chunks) of a group shared among the threads, each in order by one.
 * With windows (pre_windowed), a run goes window by window (make_windows):
 * the x entries of the window's vertices are gathered into xl, its blocks
 * add into yl, and yl is added into y (atomically with atomics), so the
 * element loop reads and writes L1-resident arrays through 16-bit indices
 * and needs no prefetch per vertex; each block asks instead for its share
 * of the lines of x and y the next window will gather and add into. */
FEINT_INLINE void pre_case_host(const feint_operator *op, const int et, const int pb,
                                const int qp, const double *x, double *y) {
  const int atomic = op->strategy == FEINT_ASSEMBLE_ATOMICS, win = pre_windowed(et);
  const int ns = feint_elem_nodes(et), nc = feint_problem_comps(pb), nd = ns * nc;
  const int nk = packed_entries(nd, pb != FEINT_CONVDIFF);
  const size_t B = FEINT_B, ahead = pre_ahead(nk);
  double xl[FEINT_OP_WINDOW_DOFS] __attribute__((aligned(64))); /* windows only */
  double yl[FEINT_OP_WINDOW_DOFS] __attribute__((aligned(64)));
  for (size_t g = 0; g < op->num_groups; g++) {
    FEINT_OMP(for schedule(static))
    for (size_t r = op->run_ptr[g]; r < op->run_ptr[g + 1]; r++) {
      const size_t s0 = op->run_slot[r], cnt = op->run_count[r];
      const double *rdata = qp ? NULL : op->elem_data + s0 * nk;
      if (!win) {
        for (size_t i = 0; i < cnt; i += B) {
          const int nvalid = cnt - i < B ? (int)(cnt - i) : (int)B;
          /* software prefetch (kernel/gather.h): the run's streams
           * pre_ahead(nk) blocks ahead, the x and y entries of the vertices
           * of the block pre_near ahead */
          feint_prefetch_mesh_block(op->slot_conn + s0 * ns, ns, cnt, i, ahead,
                                    pre_near(qp, nk), rdata, nk, x, nc * sizeof(double), y,
                                    nc * sizeof(double));
          if (atomic)
            pre_block_host(et, pb, qp, 0, 1, s0 + i, nvalid, NULL, op->slot_conn,
                           op->elem_data, op->qp_off, x, y);
          else
            pre_block_host(et, pb, qp, 0, 0, s0 + i, nvalid, NULL, op->slot_conn,
                           op->elem_data, op->qp_off, x, y);
        }
        continue;
      }
      for (size_t w = op->run_win[r]; w < op->run_win[r + 1]; w++) {
        const uint32_t *vt = op->win_vert + op->win_vptr[w];
        const size_t nv = (op->win_vptr[w + 1] - op->win_vptr[w]) * (size_t)nc;
        /* the next window of the group (this thread's, or a neighbour's) */
        const size_t wn = w + 1 < op->run_win[op->run_ptr[g + 1]] ? w + 1 : w;
        const uint32_t *pv = op->win_vert + op->win_vptr[wn];
        const size_t npv = wn == w ? 0 : op->win_vptr[wn + 1] - op->win_vptr[wn];
        const size_t nbw = (op->win_slot[w + 1] - op->win_slot[w]) / B;
        const size_t share = (npv + nbw - 1) / nbw;
        size_t next = 0;
        for (size_t k = 0; k < nv; k++) {
          xl[k] = x[(size_t)vt[k / nc] * nc + k % nc];
          yl[k] = 0.0;
        }
        for (size_t i = op->win_slot[w] - s0; i < op->win_slot[w + 1] - s0; i += B) {
          const int nvalid = cnt - i < B ? (int)(cnt - i) : (int)B;
          /* software prefetch: the run's streams pre_ahead(nk) blocks ahead */
          const size_t far = i + ahead * B;
          if (far + B <= cnt) {
            feint_prefetch_bytes(op->win_conn + (s0 + far) * ns, (int)(B * ns * sizeof(uint16_t)));
            if (rdata != NULL) feint_prefetch_block(rdata, nk, far / B);
          }
          for (const size_t stop = next + share < npv ? next + share : npv; next < stop; next++) {
            __builtin_prefetch(x + (size_t)pv[next] * nc);
            __builtin_prefetch(y + (size_t)pv[next] * nc, 1);
          }
          pre_block_host(et, pb, qp, 1, 0, s0 + i, nvalid, op->win_conn, NULL, op->elem_data,
                         op->qp_off, xl, yl);
        }
        for (size_t k = 0; k < nv; k++) {
          double *dst = y + (size_t)vt[k / nc] * nc + k % nc;
          if (atomic) {
            FEINT_OMP(atomic update)
            *dst += yl[k];
          } else {
            *dst += yl[k];
          }
        }
      }
    }
  }
}

#ifdef FEINT_OFFLOAD
/* Device: one thread per slot of a run (slot s, lane s % B of its block). */
FEINT_DECLARE_TARGET_BEGIN
FEINT_INLINE void pre_slot_device(const int et, const int pb, const int qp, const int atomic,
                                  const size_t s, const uint32_t *sconn, const double *data,
                                  const uint64_t *qp_off, const double *x, double *y) {
  const int ns = feint_elem_nodes(et), nc = feint_problem_comps(pb), nd = ns * nc;
  const int sym = pb != FEINT_CONVDIFF;
  const int nk = qp ? feint_qp_entries(et) : packed_entries(nd, sym);
  const size_t l = s % FEINT_B;
  const double *blk = (qp ? data + qp_off[s / FEINT_B] : data + (s - l) * (size_t)nk) + l;
  const int affine = qp && qp_off[s / FEINT_B + 1] - qp_off[s / FEINT_B] == 6 * FEINT_B;
  const uint32_t *v = sconn + s * (size_t)ns;
  double xe[FEINT_MAX_DOFS];
  feint_gather_dofs(et, pb, v, x, xe, 1);
  double ye[FEINT_MAX_DOFS];
  if (qp && affine)
    feint_qp_cell(et, 1, blk, FEINT_B, xe, 1, ye, 1);
  else if (qp)
    feint_qp_cell(et, 0, blk, FEINT_B, xe, 1, ye, 1);
  FEINT_UNROLL
  for (int r = 0; r < nd; r++) {
    double t = 0.0;
    if (qp) {
      t = ye[r];
    } else {
      FEINT_UNROLL
      for (int c = 0; c < nd; c++) t += blk[packed_index(nd, sym, r, c) * FEINT_B] * xe[c];
    }
    double *dst = y + (size_t)v[r / nc] * nc + r % nc;
    if (atomic) {
      FEINT_OMP(atomic update)
      *dst += t;
    } else {
      *dst += t;
    }
  }
}
FEINT_DECLARE_TARGET_END

/* Threads per team of the PRECOMPUTED and QPOINT loops (not tuned yet). */
#define PRE_TEAM_SIZE 128

#define PRE_DEVICE_CASE(ET, PB, QP)                                                            \
  if (et == FEINT_##ET && pb == FEINT_##PB && qp == QP) {                                      \
    for (size_t r = 0; r < op->num_runs; r++) {                                                \
      const size_t lo = op->run_slot[r], cnt = op->run_count[r];                               \
      const int nt = feint_gpu_num_teams(cnt, PRE_TEAM_SIZE, op->host_fallback,               \
                                         fallback_teams);                                      \
      FEINT_PRAGMA(omp target teams distribute parallel for device(dev) num_teams(nt)          \
                   thread_limit(PRE_TEAM_SIZE) is_device_ptr(sconn, data, qp_off, x, y))       \
      for (size_t i = 0; i < cnt; i++)                                                         \
        pre_slot_device(FEINT_##ET, FEINT_##PB, QP, atomic, lo + i, sconn, data, qp_off, x,    \
                        y);                                                                    \
    }                                                                                          \
  } else

static void pre_device(const feint_operator *op, const double *x, double *y) {
  const int et = op->desc.element, pb = op->desc.problem, dev = op->dev;
  const int atomic = op->strategy == FEINT_ASSEMBLE_ATOMICS;
  const int qp = op->form == FEINT_OPERATOR_QPOINT;
  const uint32_t *sconn = op->slot_conn;
  const double *data = op->elem_data;
  const uint64_t *qp_off = op->qp_off;
  int fallback_teams = omp_get_num_procs() / 2;
  if (fallback_teams < 1) fallback_teams = 1;
#define PRE_DEVICE_CASE_PACKED(ET, PB) PRE_DEVICE_CASE(ET, PB, 0)
#define PRE_DEVICE_CASE_QPOINT(ET, PB) PRE_DEVICE_CASE(ET, PB, 1)
  FEINT_OP_FOR_EACH_CASE(PRE_DEVICE_CASE_PACKED)
  FEINT_OP_QPOINT_FOR_EACH_CASE(PRE_DEVICE_CASE_QPOINT) {}
#undef PRE_DEVICE_CASE_PACKED
#undef PRE_DEVICE_CASE_QPOINT
}
#undef PRE_DEVICE_CASE
#undef PRE_TEAM_SIZE
#endif

/* ---- create / apply / destroy -------------------------------------------- */

/* Element e's vertex coordinates. */
static void cell_nodes(const feint_mesh *mesh, const int ns, const size_t e,
                       double x[FEINT_MAX_NODES][3]) {
  for (int n = 0; n < ns; n++)
    for (int a = 0; a < 3; a++) x[n][a] = mesh->coords[3 * (size_t)mesh->conn[e * ns + n] + a];
}

/* 1 if hex8 element e is affine (a parallelepiped: every node x(a,b,c) =
 * x000 + a (x100 - x000) + b (x010 - x000) + c (x001 - x000), FEINT_QP_HEX_NODE
 * order, to 8 eps of its largest coordinate): then J is the same at every
 * point and so is G_q (the 2x2x2 weights are all 1). */
static int hex_affine(const double x[FEINT_MAX_NODES][3]) {
  double big = 0.0;
  for (int n = 0; n < 8; n++)
    for (int a = 0; a < 3; a++) big = fabs(x[n][a]) > big ? fabs(x[n][a]) : big;
  const double tol = 8.0 * DBL_EPSILON * big;
  const int n0 = FEINT_QP_HEX_NODE(0, 0, 0), nx = FEINT_QP_HEX_NODE(1, 0, 0);
  const int ny = FEINT_QP_HEX_NODE(0, 1, 0), nz = FEINT_QP_HEX_NODE(0, 0, 1);
  for (int c = 0; c < 2; c++)
    for (int b = 0; b < 2; b++)
      for (int a = 0; a < 2; a++)
        for (int d = 0; d < 3; d++) {
          const double p = x[n0][d] + a * (x[nx][d] - x[n0][d]) + b * (x[ny][d] - x[n0][d]) +
                           c * (x[nz][d] - x[n0][d]);
          if (!(fabs(x[FEINT_QP_HEX_NODE(a, b, c)][d] - p) <= tol)) return 0;
        }
  for (int q = 1; q < 8; q++)
    if (feint_elem_qwt(FEINT_HEX8, q) != feint_elem_qwt(FEINT_HEX8, 0)) return 0;
  return 1;
}

/* The QPOINT factors of an element with nodes x to G[k * gs] (operator/
 * qpoint.h): at each of np points G_q = w_q det J_q J_q^-1 J_q^-T
 * (feint_shape_psi's global gradient is J^-T dphi).  np = 1: one G, for
 * tet4 (J constant) with the weights summed, for an affine hex8 with w_0. */
static void qpoint_factors(const int et, const double x[FEINT_MAX_NODES][3], const int np,
                           double *G, const size_t gs) {
  const int nq = feint_elem_qpts(et);
  double J[3][3], Jinv[3][3];
  for (int p = 0; p < np; p++) {
    feint_jacobian(et, p, x, J);
    double w = 0.0;
    if (et == FEINT_TET4)
      for (int q = 0; q < nq; q++) w += feint_elem_qwt(et, q);
    else
      w = feint_elem_qwt(et, p);
    w *= feint_invert3(J, Jinv);
    static const int ia[6] = {0, 0, 0, 1, 1, 2}, ib[6] = {0, 1, 2, 1, 2, 2};
    for (int k = 0; k < 6; k++)
      G[(size_t)(6 * p + k) * gs] = w * (Jinv[ia[k]][0] * Jinv[ib[k]][0] +
                                         Jinv[ia[k]][1] * Jinv[ib[k]][1] +
                                         Jinv[ia[k]][2] * Jinv[ib[k]][2]);
  }
}

/* QPOINT data: block b of B slots at qp_off[b] doubles, 6 B of them (one G
 * per cell: tet4, or a block of affine hex8 cells) or 48 B (hex8, a G per
 * point); the connectivity in slot order to sconn (device; NULL: not
 * wanted); uploads qp_off, returns
 * the data (host) in *data. */
static feint_status qpoint_data(feint_operator *op, const uint32_t *order, uint32_t *sconn,
                                double **data) {
  const feint_mesh *mesh = op->mesh;
  const int et = op->desc.element, ns = op->nodes;
  const size_t B = FEINT_BLOCK_LEN, nb = op->num_slots / B;
  uint64_t *off = malloc((nb + 1) * sizeof(uint64_t));
  unsigned char *aff = malloc(nb ? nb : 1);
  if (!off || !aff) {
    free(off), free(aff);
    FEINT_CHECK(0, FEINT_ERR_ALLOC, "cannot allocate the block offsets of %zu blocks", nb);
  }
#pragma omp parallel for schedule(static)
  for (size_t b = 0; b < nb; b++) {
    int all = 1;
    for (size_t l = 0; l < B && all && et == FEINT_HEX8; l++) {
      double x[FEINT_MAX_NODES][3];
      cell_nodes(mesh, ns, order[b * B + l], x);
      all = hex_affine(x);
    }
    aff[b] = (unsigned char)all;
  }
  off[0] = 0;
  for (size_t b = 0; b < nb; b++) off[b + 1] = off[b] + (aff[b] ? 6 : 48) * B;
  double *d = malloc((off[nb] ? off[nb] : 1) * sizeof(double));
  if (!d) {
    free(off), free(aff);
    FEINT_CHECK(0, FEINT_ERR_ALLOC, "cannot allocate the factors of %zu blocks", nb);
  }
#pragma omp parallel for schedule(static)
  for (size_t s = 0; s < op->num_slots; s++) {
    const size_t e = order[s], b = s / B;
    double x[FEINT_MAX_NODES][3];
    if (sconn) memcpy(sconn + s * ns, mesh->conn + e * ns, ns * sizeof(uint32_t));
    cell_nodes(mesh, ns, e, x);
    qpoint_factors(et, x, aff[b] ? 1 : feint_elem_qpts(et), d + off[b] + s % B, B);
  }
  op->num_affine_blocks = 0;
  for (size_t b = 0; b < nb; b++) op->num_affine_blocks += aff[b];
  feint_status st = feint_op_upload(op, off, (nb + 1) * sizeof(uint64_t), (void **)&op->qp_off);
  if (st == FEINT_SUCCESS)
    st = feint_op_upload(op, d, off[nb] * sizeof(double), (void **)&op->elem_data);
  free(off), free(aff);
  *data = d;
  return st;
}

/* The runs of slots (operator_internal.h), each padded to whole blocks:
 * host: the chunks, grouped by chunk colour (colouring) or all in one group
 * (atomics); device: the element colours (a group of one run each), or one
 * run of the whole mesh (atomics).  Fills num_groups, run_ptr, num_runs,
 * run_slot, run_count, num_slots, and returns in *order (host, malloc'd) the
 * element of each slot (padding slots: the run's first element). */
/* Run r's first element: of the colour order (device colouring; gptr the
 * element colours) or of the mesh (gord the chunks by colour, or NULL). */
static size_t run_first(const feint_operator *op, const size_t *gptr, const uint32_t *gord,
                        size_t r) {
  if (op->run_device) return gptr ? gptr[r] : 0;
  return (gord ? (size_t)gord[r] : r) * op->chunk_len;
}

static feint_status make_slots(feint_operator *op, uint32_t **order) {
  const size_t ne = op->num_elem, B = FEINT_BLOCK_LEN, len = op->chunk_len;
  const int coloured = op->strategy == FEINT_ASSEMBLE_COLOURING;
  size_t ng = 1, nr = 1;
  const size_t *gptr = NULL;  /* host: chunk colours; device: element colours */
  const uint32_t *gord = NULL; /* host: chunks by colour; device: elements by colour */
  if (op->run_device && coloured) {
    FEINT_CALL(feint_assembly_colouring(op->plan, &ng, &gptr, &gord));
    nr = ng;
  } else if (!op->run_device) {
    if (coloured) /* the plan's chunk colours, taken at create */
      ng = op->num_chunk_colours, gptr = op->chunk_colour_ptr, gord = op->chunk_order;
    nr = coloured ? gptr[ng] : (ne + len - 1) / len;
  }
  op->num_groups = ng, op->num_runs = nr;
  op->run_ptr = malloc((ng + 1) * sizeof(size_t));
  op->run_slot = malloc((nr + 1) * sizeof(size_t));
  op->run_count = malloc(nr * sizeof(size_t));
  FEINT_CHECK(op->run_ptr && op->run_slot && op->run_count, FEINT_ERR_ALLOC,
              "cannot allocate %zu runs", nr);
  for (size_t g = 0; g <= ng; g++)
    op->run_ptr[g] = op->run_device ? g : coloured ? gptr[g] : g * nr;
  op->run_slot[0] = 0;
  for (size_t r = 0; r < nr; r++) {
    const size_t first = run_first(op, gptr, gord, r);
    const size_t cnt = !op->run_device ? (ne - first < len ? ne - first : len)
                       : gptr            ? gptr[r + 1] - gptr[r]
                                         : ne;
    op->run_count[r] = cnt;
    op->run_slot[r + 1] = op->run_slot[r] + (cnt + B - 1) / B * B;
  }
  op->num_slots = op->run_slot[nr];
  *order = malloc(op->num_slots * sizeof(uint32_t));
  FEINT_CHECK(*order != NULL, FEINT_ERR_ALLOC, "cannot allocate %zu slots", op->num_slots);
  for (size_t r = 0; r < nr; r++) {
    const size_t first = run_first(op, gptr, gord, r);
    const size_t lo = op->run_slot[r], cnt = op->run_count[r];
    for (size_t i = 0; i < op->run_slot[r + 1] - lo; i++) {
      const size_t k = first + (i < cnt ? i : 0);
      (*order)[lo + i] = op->run_device && coloured ? gord[k] : (uint32_t)k;
    }
  }
  return FEINT_SUCCESS;
}

static int cmp_u32(const void *a, const void *b) {
  const uint32_t u = *(const uint32_t *)a, v = *(const uint32_t *)b;
  return (u > v) - (u < v);
}

/* Host: cut each run into windows (operator_internal.h): a window takes
 * whole blocks while the distinct vertices of their elements (padding slots
 * are not read back) fit FEINT_OP_WINDOW_DOFS / N_C; its vertices
 * ascending (the gather into xl and the add out of yl go up through x and
 * y), win_conn their positions there (padding slots: 0).  A window without
 * padding also has its elements dealt out across its blocks (the slot
 * order, *order, is permuted): element j of m = nb B goes to lane j / nb of
 * block j % nb.  Neighbours in a run share vertices, and in one block their
 * adds into yl formed chains of dependent loads and stores; dealt out, a
 * lane's neighbour is a block away.  tet4 Poisson, Zen 5, one thread, in
 * cache (16^3 box): 3.37-3.52 -> 2.94-3.07 ns per element. */
static feint_status make_windows(feint_operator *op, uint32_t *order) {
  const size_t B = FEINT_BLOCK_LEN, S = op->num_slots, nr = op->num_runs, ns = (size_t)op->nodes;
  const size_t cap = (feint_op_window_dofs < FEINT_OP_WINDOW_DOFS ? feint_op_window_dofs
                                                                  : FEINT_OP_WINDOW_DOFS) /
                     (size_t)op->dofs_per_vertex;
  const uint32_t *conn = op->mesh->conn;
  int32_t *lid = malloc((op->num_vertices ? op->num_vertices : 1) * sizeof(int32_t));
  uint32_t *cur = malloc((cap + B * ns) * sizeof(uint32_t));
  size_t longest = 1; /* slots of the longest run */
  for (size_t r = 0; r < nr; r++) {
    const size_t len = op->run_slot[r + 1] - op->run_slot[r];
    longest = len > longest ? len : longest;
  }
  uint32_t *dealt = malloc(longest * sizeof(uint32_t));
  op->run_win = malloc((nr + 1) * sizeof(size_t));
  op->win_slot = malloc((S / B + nr + 1) * sizeof(size_t));
  op->win_vptr = malloc((S / B + nr + 1) * sizeof(size_t));
  op->win_vert = malloc((S * ns ? S * ns : 1) * sizeof(uint32_t));
  op->win_conn = malloc((S * ns ? S * ns : 1) * sizeof(uint16_t));
  if (!lid || !cur || !dealt || !op->run_win || !op->win_slot || !op->win_vptr ||
      !op->win_vert || !op->win_conn) {
    free(lid), free(cur), free(dealt);
    FEINT_CHECK(0, FEINT_ERR_ALLOC, "cannot allocate the windows of %zu slots", S);
  }
  for (size_t v = 0; v < op->num_vertices; v++) lid[v] = -1;
  size_t nw = 0, nl = 0;
  for (size_t r = 0; r < nr; r++) {
    const size_t lo = op->run_slot[r], hi = op->run_slot[r + 1], valid = lo + op->run_count[r];
    op->run_win[r] = nw;
    for (size_t s = lo; s < hi;) { /* a window from slot s */
      size_t n = 0, t = s;
      for (; t < hi; t += B) { /* take block t if its new vertices fit */
        size_t add = 0;
        for (size_t u = t; u < t + B && u < valid; u++)
          for (size_t k = 0; k < ns; k++) {
            const uint32_t v = conn[(size_t)order[u] * ns + k];
            if (lid[v] == -1) lid[v] = -2, cur[n + add++] = v;
          }
        if (t > s && n + add > cap) {
          for (size_t j = n; j < n + add; j++) lid[cur[j]] = -1;
          break;
        }
        n += add;
      }
      qsort(cur, n, sizeof(uint32_t), cmp_u32);
      for (size_t j = 0; j < n; j++) lid[cur[j]] = (int32_t)j, op->win_vert[nl + j] = cur[j];
      if (t <= valid) { /* deal the elements out */
        const size_t m = t - s, nb = m / B;
        for (size_t j = 0; j < m; j++) dealt[j % nb * B + j / nb] = order[s + j];
        memcpy(order + s, dealt, m * sizeof(uint32_t));
      }
      for (size_t u = s; u < t; u++) /* blocked: node k of slot u at [u / B][k][u % B] */
        for (size_t k = 0; k < ns; k++)
          op->win_conn[(u - u % B) * ns + k * B + u % B] =
              u < valid ? (uint16_t)lid[conn[(size_t)order[u] * ns + k]] : 0;
      for (size_t j = 0; j < n; j++) lid[cur[j]] = -1;
      op->win_slot[nw] = s, op->win_vptr[nw] = nl;
      nw++, nl += n, s = t;
    }
  }
  op->run_win[nr] = nw, op->win_slot[nw] = S, op->win_vptr[nw] = nl;
  free(lid), free(cur), free(dealt);
  uint32_t *fit = realloc(op->win_vert, (nl ? nl : 1) * sizeof(uint32_t)); /* shrinks */
  if (fit) op->win_vert = fit;
  op->data_bytes += S * ns * sizeof(uint16_t) + nl * sizeof(uint32_t) +
                    (nr + 1 + 2 * (nw + 1)) * sizeof(size_t);
  return FEINT_SUCCESS;
}

feint_status feint_op_matfree_create(feint_operator *op, const double *coeffs, size_t coeff_len,
                                     const double *A_e) {
  const feint_mesh *mesh = op->mesh;
  const int ns = op->nodes, dpv = op->dofs_per_vertex, nd = ns * dpv;
  const size_t ne = op->num_elem;
  int supported = 0;
#define OP_CASE_MATCH(ET, PB) \
  supported |= op->desc.element == FEINT_##ET && op->desc.problem == FEINT_##PB;
  FEINT_OP_FOR_EACH_CASE(OP_CASE_MATCH)
#undef OP_CASE_MATCH
  if (op->form == FEINT_OPERATOR_QPOINT) {
    supported = 0;
#define OP_CASE_MATCH(ET, PB) \
  supported |= op->desc.element == FEINT_##ET && op->desc.problem == FEINT_##PB;
    FEINT_OP_QPOINT_FOR_EACH_CASE(OP_CASE_MATCH)
#undef OP_CASE_MATCH
    FEINT_CHECK(supported, FEINT_ERR_UNSUPPORTED,
                "%s/%s: the per-quadrature-point form (FEINT_OPERATOR_QPOINT) covers Poisson on "
                "tet4 and hex8 only",
                feint_element_name(op->desc.element), feint_problem_name(op->desc.problem));
  }
  FEINT_CHECK(supported, FEINT_ERR_UNSUPPORTED,
              "%s/%s: the matrix-free operators cover the cases of the mesh paths (not the "
              "per-point problems)",
              feint_element_name(op->desc.element), feint_problem_name(op->desc.problem));
  if (op->plan == NULL && op->strategy == FEINT_ASSEMBLE_COLOURING)
    FEINT_CALL(feint_assembly_create(mesh, &op->plan));
  if (op->plan != NULL)
    FEINT_CALL(feint_assembly_chunks(op->plan, &op->chunk_len, &op->num_chunk_colours,
                                     &op->chunk_colour_ptr, &op->chunk_order));
  else
    op->chunk_len = feint_asm_chunk_len(ne);
  if (!op->run_device && op->form == FEINT_OPERATOR_RECOMPUTE &&
      op->strategy == FEINT_ASSEMBLE_ATOMICS) /* chunks that need no atomics */
    FEINT_CALL(feint_asm_build_reach(mesh, op->chunk_len, &op->block_reach));
  if (op->form == FEINT_OPERATOR_RECOMPUTE) {
    const int need_coef = op->desc.problem != FEINT_POISSON;
    size_t cs_nat;
    FEINT_CALL(feint_array_entries(op->desc.element, op->desc.problem, FEINT_ARRAY_COEFFS, &cs_nat));
    if (op->run_device) {
      FEINT_CALL(feint_op_upload(op, mesh->coords, op->num_vertices * 3 * sizeof(double),
                                 (void **)&op->coords));
    } else {
      op->coords = mesh->coords;
      op->data_bytes += op->num_vertices * 3 * sizeof(double);
    }
    if (!op->run_device || op->plan == NULL) { /* host, device atomics: the mesh's order */
      if (op->run_device)
        FEINT_CALL(feint_op_upload(op, mesh->conn, ne * ns * sizeof(uint32_t), (void **)&op->conn));
      else
        op->conn = mesh->conn, op->data_bytes += ne * ns * sizeof(uint32_t);
      if (need_coef)
        FEINT_CALL(feint_op_upload(op, coeffs, coeff_len * sizeof(double), (void **)&op->coeffs));
      return FEINT_SUCCESS;
    }
    /* device colouring: the connectivity (and coefficients, natural layout)
     * copied in colour order, so that a colour's elements are read as one
     * stream */
    const uint32_t *eorder;
    FEINT_CALL(feint_assembly_colouring(op->plan, &op->num_colours, &op->colour_ptr, &eorder));
    uint32_t *pconn = malloc(ne * ns * sizeof(uint32_t));
    double *pcoef = need_coef ? malloc(ne * cs_nat * sizeof(double)) : NULL;
    feint_status st = FEINT_SUCCESS;
    if (!pconn || (need_coef && !pcoef))
      st = feint_error_set(FEINT_ERR_ALLOC, "feint_operator_create", __FILE__, __LINE__,
                           "cannot allocate the colour-ordered connectivity of %zu elements", ne);
    if (st == FEINT_SUCCESS) {
      const int blocked = op->desc.layout_in == FEINT_LAYOUT_BLOCKED;
      const size_t B = FEINT_BLOCK_LEN;
#pragma omp parallel for schedule(static)
      for (size_t i = 0; i < ne; i++) {
        const size_t e = eorder[i];
        memcpy(pconn + i * ns, mesh->conn + e * ns, ns * sizeof(uint32_t));
        if (pcoef)
          for (size_t k = 0; k < cs_nat; k++)
            pcoef[i * cs_nat + k] =
                blocked ? coeffs[(e - e % B) * cs_nat + k * B + e % B] : coeffs[e * cs_nat + k];
      }
      st = feint_op_upload(op, pconn, ne * ns * sizeof(uint32_t), (void **)&op->conn);
      if (st == FEINT_SUCCESS && pcoef)
        st = feint_op_upload(op, pcoef, ne * cs_nat * sizeof(double), (void **)&op->coeffs);
    }
    free(pconn), free(pcoef);
    return st;
  }
  /* PRECOMPUTED, QPOINT */
  uint32_t *order = NULL;
  feint_status st = make_slots(op, &order);
  const int sym = op->desc.problem != FEINT_CONVDIFF, qp = op->form == FEINT_OPERATOR_QPOINT;
  const size_t nk = qp ? (size_t)feint_qp_entries(op->desc.element) : (size_t)packed_entries(nd, sym);
  const size_t B = FEINT_BLOCK_LEN, S = op->num_slots;
  const int win = !op->run_device && pre_windowed(op->desc.element);
  if (st == FEINT_SUCCESS && win) st = make_windows(op, order); /* permutes order */
  /* device, or the straight host loop: the connectivity in slot order */
  uint32_t *sconn = st == FEINT_SUCCESS && !win ? malloc(S * ns * sizeof(uint32_t)) : NULL;
  double *data = st == FEINT_SUCCESS && (sconn || win) ? malloc(S * nk * sizeof(double)) : NULL;
  if (st == FEINT_SUCCESS && !data)
    st = feint_error_set(FEINT_ERR_ALLOC, "feint_operator_create", __FILE__, __LINE__,
                         "cannot allocate the per-element data of %zu slots", S);
  if (st == FEINT_SUCCESS && qp) {
    free(data);
    data = NULL;
    st = qpoint_data(op, order, sconn, &data);
  } else if (st == FEINT_SUCCESS) {
#pragma omp parallel for schedule(static)
    for (size_t s = 0; s < S; s++) {
      const size_t e = order[s];
      if (sconn) memcpy(sconn + s * ns, mesh->conn + e * ns, ns * sizeof(uint32_t));
      double *blk = data + (s - s % B) * nk + s % B;
      const double *a = A_e + e * (size_t)nd * nd;
      for (int r = 0; r < nd; r++)
        for (int c = sym ? r : 0; c < nd; c++)
          blk[(size_t)packed_index(nd, sym, r, c) * B] = sym && c != r ? 0.5 * (a[r * nd + c] + a[c * nd + r]) : a[r * nd + c];
    }
    st = feint_op_upload(op, data, S * nk * sizeof(double), (void **)&op->elem_data);
  }
  if (st == FEINT_SUCCESS && !win)
    st = feint_op_upload(op, sconn, S * ns * sizeof(uint32_t), (void **)&op->slot_conn);
  free(order), free(sconn), free(data);
  return st;
}

void feint_op_matfree_apply(const feint_operator *op, const double *x, double *y) {
  const size_t n = op->num_dofs;
  const int et = op->desc.element, pb = op->desc.problem;
  /* RECOMPUTE with colouring on a device: conn and coeffs copied in colour
   * order (natural) */
  const int coloured_copy =
      op->run_device && op->form == FEINT_OPERATOR_RECOMPUTE && op->plan != NULL;
  const feint_op_kernel_args ka = {
      .element = et,
      .problem = pb,
      .layout_in = coloured_copy ? FEINT_LAYOUT_NATURAL : (int)op->desc.layout_in,
      .atomic = op->strategy == FEINT_ASSEMBLE_ATOMICS,
      .num_elem = op->num_elem,
      .num_dofs = n,
      .coords = op->coords,
      .conn = op->conn,
      .coeffs = op->coeffs,
      .x = x,
      .y = y,
      .chunk_len = op->chunk_len,
      .chunk_order = op->chunk_order,
      .chunk_colour_ptr = op->chunk_colour_ptr,
      .num_chunk_colours = op->num_chunk_colours,
      .block_reach = op->block_reach,
      .colour_ptr = op->colour_ptr,
      .num_colours = op->num_colours};
  if (!op->run_device) {
#pragma omp parallel for schedule(static)
    for (size_t i = 0; i < n; i++) y[i] = 0.0;
    if (op->form == FEINT_OPERATOR_RECOMPUTE) {
      op_host[op->desc.variant](&ka);
      return;
    }
    const int qp = op->form == FEINT_OPERATOR_QPOINT;
#define PRE_HOST_CASE(ET, PB)                                     \
  if (et == FEINT_##ET && pb == FEINT_##PB && !qp)                \
    pre_case_host(op, FEINT_##ET, FEINT_##PB, 0, x, y);           \
  else
#define QP_HOST_CASE(ET, PB)                                      \
  if (et == FEINT_##ET && pb == FEINT_##PB && qp)                 \
    pre_case_host(op, FEINT_##ET, FEINT_##PB, 1, x, y);           \
  else
#pragma omp parallel
    FEINT_OP_FOR_EACH_CASE(PRE_HOST_CASE) FEINT_OP_QPOINT_FOR_EACH_CASE(QP_HOST_CASE) {}
#undef PRE_HOST_CASE
#undef QP_HOST_CASE
    return;
  }
#ifdef FEINT_OFFLOAD
  const int dev = op->dev;
#pragma omp target teams distribute parallel for device(dev) is_device_ptr(y)
  for (size_t i = 0; i < n; i++) y[i] = 0.0;
  if (op->form == FEINT_OPERATOR_RECOMPUTE)
    op_device[op->desc.variant](&ka, dev, op->host_fallback);
  else
    pre_device(op, x, y);
#endif
}

void feint_op_matfree_destroy(feint_operator *op) {
  /* on a device the operator's own copies; on the host the mesh's arrays */
  if (op->run_device) feint_op_free(op, (void *)op->coords);
  if (op->run_device) feint_op_free(op, (void *)op->conn);
  feint_op_free(op, op->coeffs);
  feint_op_free(op, op->slot_conn);
  feint_op_free(op, op->elem_data);
  feint_op_free(op, op->qp_off);
  free(op->block_reach);
  free(op->run_ptr);
  free(op->run_slot);
  free(op->run_count);
  free(op->run_win), free(op->win_slot), free(op->win_vptr);
  free(op->win_vert), free(op->win_conn);
  op->run_win = NULL, op->win_slot = NULL, op->win_vptr = NULL;
  op->win_vert = NULL, op->win_conn = NULL;
  op->coords = NULL, op->conn = NULL, op->coeffs = NULL;
  op->slot_conn = NULL, op->elem_data = NULL, op->qp_off = NULL;
  op->run_ptr = NULL, op->run_slot = NULL, op->run_count = NULL;
}
