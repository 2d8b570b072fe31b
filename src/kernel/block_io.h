/*
 * kernel/block_io.h - moving one block of FEINT_BLOCK_LEN elements between a
 * global array and the kernels.
 *
 * A block's chunk of an array is contiguous in both layouts (natural:
 * element after element, entry k of lane l at [l * size + k]; blocked:
 * lane-major, at [k * B + l]).  The kernels always see the blocked order
 * (unit stride between SIMD lanes, so every lane access is one plain vector
 * load or store, no gather or scatter):
 *
 *  - input: a full blocked chunk is read in place; a natural chunk is
 *    transposed into an L1-resident buffer with contiguous loads and
 *    register shuffles (4 x 4 tiles, feint_block_transpose), each row of
 *    the buffer stored whole (feint_store_row8: the kernels load it at once,
 *    and a load spanning two stores is not forwarded);
 *  - output: the kernels write a blocked buffer; a blocked destination gets
 *    it as one contiguous copy with nontemporal (streaming) stores where the
 *    compiler offers them, so the output costs no read-for-ownership and the
 *    traffic is the model's compulsory bytes; a natural destination gets it
 *    transposed back the same way, streamed straight to memory one whole
 *    cache line at a time when a row spans whole lines (size a multiple of
 *    8, the chunk 16-byte aligned: 64-byte aligned, or 16, 32 or 48 bytes
 *    past a line as from malloc; or 4 mod 8 with the chunk on a line or 32
 *    bytes past one, two rows sharing a line); short rows of other lengths
 *    (not a multiple of 4, at most 32 entries) 32 bytes at a time, each
 *    piece built from scalar loads; else through a second buffer and the
 *    streaming copy.
 *
 * The last, partial block is copied first, with lanes past the end filled
 * by a copy of lane 0 (they compute on a valid element and are discarded).
 * Everything is driven by `size` (entries per element), so a new element or
 * output format needs nothing here.
 */
#ifndef FEINT_KERNEL_BLOCK_IO_H
#define FEINT_KERNEL_BLOCK_IO_H

#include <stddef.h>
#include <stdint.h>

#include "feint.h"
#include "kernel/portable.h"

#define FEINT_B FEINT_BLOCK_LEN

/* 4-double vectors (GCC/clang vector extensions): the transposition's 4 x 4
 * tiles and the streaming stores.  feint_v4d_u is the same vector at 8-byte
 * alignment, for loads and stores at any double's address. */
#if defined(__GNUC__) && (defined(__clang__) || __GNUC__ >= 12)
#define FEINT_HAVE_V4D 1
typedef double feint_v4d __attribute__((vector_size(32), aligned(32)));
typedef double feint_v4d_u __attribute__((vector_size(32), aligned(8)));
#else
#define FEINT_HAVE_V4D 0
#endif

/* Streaming stores: 4 doubles at a time to a 32-byte aligned address.
 * clang offers __builtin_nontemporal_store on vector types (vmovntpd on
 * x86); other compilers, and the offload device pass, get plain stores. */
#if defined(__clang__) && !defined(__NVPTX__) && !defined(__AMDGPU__)
#define FEINT_HAVE_STREAM_STORE 1
#else
#define FEINT_HAVE_STREAM_STORE 0
#endif

#if FEINT_HAVE_STREAM_STORE && FEINT_HAVE_V4D
/* 2-double vectors: the halves of a tile row, for 16-byte streaming stores
 * (vmovntpd xmm needs only 16-byte alignment); feint_v2d_u loads at any
 * double's address.  8 bytes stream as an integer (movnti; without
 * SSE4A's movntsd a double's streaming store is lowered to a plain one). */
typedef double feint_v2d __attribute__((vector_size(16), aligned(16)));
typedef double feint_v2d_u __attribute__((vector_size(16), aligned(8)));
FEINT_INLINE void feint_stream2(feint_v2d v, double *p) {
  __builtin_nontemporal_store(v, (feint_v2d *)p);
}
FEINT_INLINE feint_v2d feint_lo2(feint_v4d v) { return __builtin_shufflevector(v, v, 0, 1); }
FEINT_INLINE feint_v2d feint_hi2(feint_v4d v) { return __builtin_shufflevector(v, v, 2, 3); }
FEINT_INLINE void feint_stream1(const double *src, double *p) {
  long long bits; /* loaded as an integer: a double would get a plain store */
  __builtin_memcpy(&bits, src, sizeof bits);
  __builtin_nontemporal_store(bits, (long long *)p);
}
#endif

/* Lane offset and entry stride of an array with `size` entries per element
 * in a layout: entry k of lane l of a block chunk is at l * lane + k * entry. */
FEINT_INLINE int feint_lane_offset(int layout, int size) {
  return layout == FEINT_LAYOUT_BLOCKED ? 1 : size;
}
FEINT_INLINE int feint_entry_stride(int layout) {
  return layout == FEINT_LAYOUT_BLOCKED ? FEINT_B : 1;
}

#if FEINT_HAVE_V4D
/* The 4 x 4 transposition in registers: c[j][i] = r[i][j] (also used by
 * kernel/gather.h on rows gathered through a mesh). */
FEINT_INLINE void feint_transpose4(const feint_v4d r[4], feint_v4d c[4]) {
  const feint_v4d t0 = __builtin_shufflevector(r[0], r[1], 0, 4, 2, 6);
  const feint_v4d t1 = __builtin_shufflevector(r[0], r[1], 1, 5, 3, 7);
  const feint_v4d t2 = __builtin_shufflevector(r[2], r[3], 0, 4, 2, 6);
  const feint_v4d t3 = __builtin_shufflevector(r[2], r[3], 1, 5, 3, 7);
  c[0] = __builtin_shufflevector(t0, t2, 0, 1, 4, 5); /* c[j][i] = r[i][j] */
  c[1] = __builtin_shufflevector(t1, t3, 0, 1, 4, 5);
  c[2] = __builtin_shufflevector(t0, t2, 2, 3, 6, 7);
  c[3] = __builtin_shufflevector(t1, t3, 2, 3, 6, 7);
}

/* One row of the blocked order (B = 8 lanes of one entry) from its two
 * halves, lanes 0..3 and 4..7, at p: one 64-byte store when the kernels'
 * vectors are that wide (AVX-512), since they load the row whole right
 * after, and a load that spans two stores is not forwarded from the store
 * buffer (it waits until both reach L1); two 32-byte stores otherwise.
 * Emerald Rapids, tet4 Poisson qss_geo_linear, one thread, natural input:
 * 18.6-18.7 -> 14.1-14.5 ns per element, as fast as the blocked input
 * (bench/results/store_forwarding/). */
#if defined(__AVX512F__) && FEINT_BLOCK_LEN == 8
typedef double feint_v8d_u __attribute__((vector_size(64), aligned(8)));
#endif
FEINT_INLINE void feint_store_row8(double *p, const feint_v4d lo, const feint_v4d hi) {
#if defined(__AVX512F__) && FEINT_BLOCK_LEN == 8
  *(feint_v8d_u *)p = __builtin_shufflevector(lo, hi, 0, 1, 2, 3, 4, 5, 6, 7);
#else
  *(feint_v4d_u *)p = lo;
  *(feint_v4d_u *)(p + 4) = hi;
#endif
}

/* One 4 x 4 tile of a block transposition: lanes g..g+3, entries k..k+3,
 * c[j] = the 4 values that go to the destination's unit-stride row j, where
 * one of the two orders is natural (lane stride size, entry stride 1) and
 * the other blocked (lane stride 1, entry stride B).  4 contiguous loads
 * along the source's unit stride, the transpose in registers. */
FEINT_INLINE void feint_tile4(const double *src, int sk, int sl, int g, int k, feint_v4d c[4]) {
  const int s_unit_is_entry = sk == 1; /* natural source: rows are lanes */
  feint_v4d r[4];
  FEINT_UNROLL
  for (int i = 0; i < 4; i++)
    r[i] = *(const feint_v4d_u *)(s_unit_is_entry ? src + (g + i) * sl + k : src + (k + i) * sk + g);
  feint_transpose4(r, c);
}

/* The tile stored: dst[k' * dk + l * dl] = src[k' * sk + l * sl] for its
 * 16 values, 4 contiguous stores along the destination's unit stride. */
FEINT_INLINE void feint_tile4_transpose(const double *src, int sk, int sl, double *dst, int dk,
                                        int dl, int g, int k) {
  feint_v4d c[4];
  feint_tile4(src, sk, sl, g, k, c);
  FEINT_UNROLL
  for (int j = 0; j < 4; j++)
    *(feint_v4d_u *)(sk == 1 ? dst + (k + j) * dk + g : dst + (g + j) * dl + k) = c[j];
}
#endif

/* Transpose one block chunk (B lanes x size entries, orders as above) by
 * 4 x 4 tiles; a size that is not a multiple of 4 ends with a tile
 * overlapping the previous one (it rewrites the same values).  Natural to
 * blocked (the input side), the two tiles of a row are stored together
 * (feint_store_row8).  `size` is a
 * compile-time constant in the kernels (the loops unroll);
 * feint_layout_convert has its own loop for a run-time size. */
FEINT_INLINE void feint_block_transpose(const double *src, int sk, int sl, double *dst, int dk,
                                        int dl, int size) {
#if FEINT_HAVE_V4D
  if (size >= 4 && sk == 1 && dl == 1 && FEINT_B == 8) { /* natural -> blocked: whole rows */
    FEINT_UNROLL
    for (int t = 0; t < (size + 3) / 4; t++) {
      const int k = 4 * t + 4 <= size ? 4 * t : size - 4;
      feint_v4d lo[4], hi[4];
      feint_tile4(src, sk, sl, 0, k, lo);
      feint_tile4(src, sk, sl, 4, k, hi);
      FEINT_UNROLL
      for (int j = 0; j < 4; j++) feint_store_row8(dst + (k + j) * dk, lo[j], hi[j]);
    }
    return;
  }
  if (size >= 4) {
    FEINT_UNROLL
    for (int g = 0; g < FEINT_B; g += 4)
      FEINT_UNROLL
      for (int t = 0; t < (size + 3) / 4; t++)
        feint_tile4_transpose(src, sk, sl, dst, dk, dl, g, 4 * t + 4 <= size ? 4 * t : size - 4);
    return;
  }
#endif
  for (int l = 0; l < FEINT_B; l++)
    for (int k = 0; k < size; k++) dst[k * dk + l * dl] = src[k * sk + l * sl];
}

/* A full block from the blocked buffer buf to a natural destination chunk
 * whose rows are whole 64-byte lines (size a multiple of 8, chunk 64-byte
 * aligned), with streaming stores, cache line by cache line: two tiles
 * (lanes g..g+3, entries k..k+7) are transposed in registers, then each
 * lane's line is written by two back-to-back stores.  A line whose halves
 * leave in different tiles, with the other rows' stores between them, is a
 * partial line to the write-combining buffers and to memory: storing tile
 * by tile measured 3 times slower than this with 2 threads on a Zen 1 (and
 * than the plain blocked copy, which this matches), and up to 1.4 times
 * slower with 1 thread (576 entries per element). */
#if FEINT_HAVE_STREAM_STORE && FEINT_HAVE_V4D
/* Entries [k0, k1) of every lane (k0 and k1 multiples of 8). */
FEINT_INLINE void feint_block_stream_natural_range(const double *buf, double *chunk, int size,
                                                   int k0, int k1) {
  FEINT_UNROLL
  for (int g = 0; g < FEINT_B; g += 4)
    FEINT_UNROLL
    for (int k = k0; k < k1; k += 8) {
      feint_v4d lo[4], hi[4];
      feint_tile4(buf, FEINT_B, 1, g, k, lo);
      feint_tile4(buf, FEINT_B, 1, g, k + 4, hi);
      FEINT_UNROLL
      for (int j = 0; j < 4; j++) {
        __builtin_nontemporal_store(lo[j], (feint_v4d *)(chunk + (g + j) * size + k));
        __builtin_nontemporal_store(hi[j], (feint_v4d *)(chunk + (g + j) * size + k + 4));
      }
    }
}
FEINT_INLINE void feint_block_stream_natural(const double *buf, double *chunk, int size) {
  feint_block_stream_natural_range(buf, chunk, size, 0, size);
}

/* The first line of row j of lanes g..g+3 (entries [0, 8 - o)), at row. */
FEINT_INLINE void feint_stream_row_head(const double *buf, double *row, int g, int j, int o) {
  feint_v4d t[4], u[4];
  feint_tile4(buf, FEINT_B, 1, g, 0, t);
  if (o == 4) {
    __builtin_nontemporal_store(t[j], (feint_v4d *)row);
  } else if (o == 2) {
    feint_tile4(buf, FEINT_B, 1, g, 4, u);
    feint_stream2(feint_lo2(t[j]), row);
    feint_stream2(feint_hi2(t[j]), row + 2);
    feint_stream2(feint_lo2(u[j]), row + 4);
  } else {
    feint_stream2(feint_lo2(t[j]), row);
  }
}

/* Rows of whole lines that start o = 2, 4 or 6 doubles past a line (a
 * 16-byte aligned chunk: malloc's large blocks are 16 bytes past a page):
 * a row's lines hold its entries [8m - o, 8m - o + 8), and the line a row
 * shares with the next (its last o entries, the next row's first 8 - o)
 * is written with both parts back to back, the next row's head right after
 * a row's tail; only the chunk's first and last lines are shared with the
 * neighbouring blocks.  o = 4: a line is two whole tile rows (32-byte
 * stores); o = 2 or 6: the upper half of a tile row, a whole one and the
 * lower half of a third (16-byte stores), the tiles at s - 2, s + 2 and
 * s + 6 for the line starting at entry s, the third carried to the next
 * line.  Through tmp and feint_block_store instead (one more pass through
 * L1), the default checked call on malloc'd arrays (16 bytes past a line)
 * took 1.19 times as long as on 64-byte aligned ones (tet4 elasticity,
 * qss_geo_generic, 2 threads, Zen 1), 1.08 for hex8 elasticity; this way
 * 0.99 and 0.98. */
FEINT_INLINE void feint_block_stream_natural_shifted(const double *buf, double *chunk, int size,
                                                     const int o) {
  feint_stream_row_head(buf, chunk, 0, 0, o); /* the chunk's first line, partly */
  FEINT_UNROLL
  for (int g = 0; g < FEINT_B; g += 4) {
    double *row = chunk + g * size;
    feint_v4d t0[4], t1[4], t2[4];
    if (o == 4) {
      for (int s = 4; s + 8 <= size; s += 8) {
        feint_tile4(buf, FEINT_B, 1, g, s, t1);
        feint_tile4(buf, FEINT_B, 1, g, s + 4, t2);
        FEINT_UNROLL
        for (int j = 0; j < 4; j++) {
          __builtin_nontemporal_store(t1[j], (feint_v4d *)(row + j * size + s));
          __builtin_nontemporal_store(t2[j], (feint_v4d *)(row + j * size + s + 4));
        }
      }
      feint_tile4(buf, FEINT_B, 1, g, size - 4, t1); /* tails [size - 4, size) */
    } else {
      feint_tile4(buf, FEINT_B, 1, g, 6 - o, t0); /* the tile at s - 2, s = 8 - o */
      for (int s = 8 - o; s + 8 <= size; s += 8) {
        feint_tile4(buf, FEINT_B, 1, g, s + 2, t1);
        feint_tile4(buf, FEINT_B, 1, g, s + 6, t2);
        FEINT_UNROLL
        for (int j = 0; j < 4; j++) {
          double *p = row + j * size + s;
          feint_stream2(feint_hi2(t0[j]), p);
          feint_stream2(feint_lo2(t1[j]), p + 2);
          feint_stream2(feint_hi2(t1[j]), p + 4);
          feint_stream2(feint_lo2(t2[j]), p + 6);
          t0[j] = t2[j];
        }
      }
      /* t0: the tile at size - o - 2; tails [size - o, size) */
      if (o == 6) feint_tile4(buf, FEINT_B, 1, g, size - 4, t1);
    }
    FEINT_UNROLL
    for (int j = 0; j < 4; j++) { /* row g + j's tail, then row g + j + 1's head */
      double *p = row + j * size + size - o;
      if (o == 4) {
        __builtin_nontemporal_store(t1[j], (feint_v4d *)p);
      } else {
        feint_stream2(feint_hi2(t0[j]), p);
        if (o == 6) {
          feint_stream2(feint_lo2(t1[j]), p + 2);
          feint_stream2(feint_hi2(t1[j]), p + 4);
        }
      }
      if (g + j + 1 < FEINT_B)
        feint_stream_row_head(buf, p + o, j < 3 ? g : g + 4, j < 3 ? j + 1 : 0, o);
    }
  }
}
#endif

/* A full block to a natural destination chunk whose rows are half lines
 * past whole ones (size = 4 mod 8), the chunk 64-byte aligned (o = 0) or
 * 32 bytes past a line (o = 4).  Row l then starts (o + 4 l) mod 8 doubles
 * past a line: a row starting on a line ends 4 doubles into one, which it
 * shares with the next row's first 4 entries, and a row starting 4 past a
 * line ends on a line boundary.  Every line is written by two back-to-back
 * 32-byte streaming stores: the aligned rows' lines hold entries
 * [k, k + 8) and the shifted rows' [k + 4, k + 12), k = 0 mod 8, from the
 * tiles at k, k + 4 and k + 8 of the 4 lanes; each aligned row's tail goes
 * out with the next row's head.  Only the chunk's first line (o = 4) and
 * last line are shared with the neighbouring blocks.  Through tmp and
 * feint_block_store instead (one more pass through L1: prism6 elasticity's
 * A_buf and tmp are 20 KiB each), prism6 elasticity qss_geo_linear in the
 * natural layout took 194-218 ns per element against 131-141 blocked;
 * this way 139-158 (2 threads, Zen 4, 64-byte aligned arrays, 1 M
 * elements).  prism6 Poisson natural/blocked measured 1.06-1.18 in those
 * short runs, but 1.50 (qss_geo_linear) and 1.45 (ssq_geo_linear) in the
 * full bench, until b_e's 6-entry rows left tmp too
 * (feint_block_stream_natural_any; bench/results/natural_short_rows/).
 * Chunks 16 or 48 bytes past a line (malloc's arrays): the quarter-line
 * scheme below.  Both serve a whole block (k0 = 0, k1 = size) and the rows
 * a kernel finishes (feint_rows_out), through
 * feint_block_stream_natural_4mod8. */
#if FEINT_HAVE_STREAM_STORE && FEINT_HAVE_V4D
/* Lines [k, k + 8) of the rows on a line and [k + 4, k + 12) of the rows 4
 * past one, k in [k_lo, k_hi) (multiples of 8, k_hi <= size - 4), lanes
 * g..g+3; t0 returns the tile at k_hi. */
FEINT_INLINE void feint_half_steps(const double *buf, double *chunk, int size, const int o,
                                   const int g, const int k_lo, const int k_hi, feint_v4d t0[4]) {
  double *row = chunk + g * size;
  feint_tile4(buf, FEINT_B, 1, g, k_lo, t0); /* the tile at k */
  for (int k = k_lo; k < k_hi; k += 8) {
    feint_v4d t1[4], t2[4];
    feint_tile4(buf, FEINT_B, 1, g, k + 4, t1);
    feint_tile4(buf, FEINT_B, 1, g, k + 8, t2);
    /* rows ja on a line: [k, k + 8); rows jb 4 past one: [k + 4, k + 12).
     * No branch on the row: with `if (on line)` around the stores,
     * clang-19 turned half of them into plain stores (the nontemporal
     * hint lost, every line read for ownership: 36 times slower, prism6
     * Poisson, Zen 4). */
    FEINT_UNROLL
    for (int m = 0; m < 4; m += 2) {
      const int ja = m + (o == 4), jb = m + (o == 0);
      double *pa = row + ja * size + k, *pb = row + jb * size + k;
      __builtin_nontemporal_store(t0[ja], (feint_v4d *)pa);
      __builtin_nontemporal_store(t1[ja], (feint_v4d *)(pa + 4));
      __builtin_nontemporal_store(t1[jb], (feint_v4d *)(pb + 4));
      __builtin_nontemporal_store(t2[jb], (feint_v4d *)(pb + 8));
    }
    FEINT_UNROLL
    for (int j = 0; j < 4; j++) t0[j] = t2[j];
  }
}

/* The lines after the steps, lanes g..g+3 (t0: their tile at size - 4):
 * each row on a line ends with a line it shares with the next row's head
 * (the next group's first row after row g + 3). */
FEINT_INLINE void feint_half_tails(const double *buf, double *chunk, int size, const int o,
                                   const int g, const feint_v4d t0[4]) {
  double *row = chunk + g * size;
  feint_v4d h[4], h4[4]; /* the heads of lanes g..g+3, then g+4 */
  feint_tile4(buf, FEINT_B, 1, g, 0, h);
  if (g + 4 < FEINT_B) feint_tile4(buf, FEINT_B, 1, g + 4, 0, h4);
  FEINT_UNROLL
  for (int m = 0; m < 4; m += 2) { /* rows on a line: the tail, then the next head */
    const int ja = m + (o == 4);
    double *p = row + ja * size + size - 4;
    __builtin_nontemporal_store(t0[ja], (feint_v4d *)p);
    if (ja < 3) __builtin_nontemporal_store(h[ja + 1], (feint_v4d *)(p + 4));
    else if (g + 4 < FEINT_B) __builtin_nontemporal_store(h4[0], (feint_v4d *)(p + 4));
  }
}

/* o = 4: row 0 starts 4 past a line, its head alone (the line's first
 * half is the previous block's). */
FEINT_INLINE void feint_half_first_head(const double *buf, double *chunk, const int o) {
  if (o != 4) return;
  feint_v4d h[4];
  feint_tile4(buf, FEINT_B, 1, 0, 0, h);
  __builtin_nontemporal_store(h[0], (feint_v4d *)chunk);
}

/* The steps whose lines are all final once entries [0, e) of every row
 * are: those with k + 12 <= e. */
FEINT_INLINE int feint_half_steps_final(const int size, const int e) {
  const int all = (size - 4) / 8;
  return e < 12 ? 0 : ((e - 12) / 8 + 1 < all ? (e - 12) / 8 + 1 : all);
}

/* The lines that entries [k0, k1) of every row completed ([0, k0) were
 * final before; a whole block: 0, size): the steps that became complete,
 * and with the last range (k1 = size) the heads and tails, which hold
 * every row's first and last entries. */
FEINT_INLINE void feint_block_stream_natural_half_range(const double *buf, double *chunk,
                                                        int size, const int o, const int k0,
                                                        const int k1) {
  const int s0 = feint_half_steps_final(size, k0), s1 = feint_half_steps_final(size, k1);
  if (k1 == size) feint_half_first_head(buf, chunk, o);
  FEINT_UNROLL
  for (int g = 0; g < FEINT_B; g += 4) {
    feint_v4d t[4];
    if (s1 > s0) feint_half_steps(buf, chunk, size, o, g, 8 * s0, 8 * s1, t);
    if (k1 == size) {
      if (s1 == s0) feint_tile4(buf, FEINT_B, 1, g, size - 4, t);
      feint_half_tails(buf, chunk, size, o, g, t);
    }
  }
}
#endif

#if FEINT_HAVE_STREAM_STORE && FEINT_HAVE_V4D
/* The same rows (size = 4 mod 8, size >= 12) on a chunk 16 or 48 bytes
 * past a line (o = 2 or 6 doubles: malloc's arrays are 16 bytes past one).
 * Row l then starts (o + 4 l) mod 8 doubles past a line, and its first
 * whole line at entry p = 6 (start 2) or 2 (start 6); rows alternate.  A
 * p = 2 row holds lines [k + 2, k + 10), a p = 6 row [k + 6, k + 14), for
 * k = 0, 8, ... while they fit; a row's tail (2 or 6 entries) shares a line
 * with the next row's head (6 or 2).  Every line is written by four
 * back-to-back 16-byte streaming stores from the tiles at multiples of 4
 * (feint_quarter_line); only the chunk's first and last lines are shared
 * with the neighbouring blocks.  Through tmp and feint_block_store instead
 * (one more pass through L1, the whole A^e after the block), prism6
 * elasticity ssq_geo_linear took 214-237 ns per element in the natural
 * layout on malloc's alignment against 148-175 on 64-byte aligned arrays;
 * this way 156-158 (one Zen 4 thread, bench/results/natural_rows_half). */
FEINT_INLINE void feint_quarter_line(double *p, const feint_v4d a, const feint_v4d b,
                                     const feint_v4d c) { /* a's upper half, b, c's lower */
  feint_stream2(feint_hi2(a), p);
  feint_stream2(feint_lo2(b), p + 2);
  feint_stream2(feint_hi2(b), p + 4);
  feint_stream2(feint_lo2(c), p + 6);
}

/* The lines of step k of every row of lanes g..g+3, k in [k_lo, k_hi)
 * (multiples of 8, k_hi <= size - 12); t returns the tiles at k_hi and
 * k_hi + 4.  Rows j2 have p = 2, rows j6 p = 6 (literal o: no branch). */
FEINT_INLINE void feint_quarter_steps(const double *buf, double *chunk, int size, const int o,
                                      const int g, const int k_lo, const int k_hi,
                                      feint_v4d t0[4], feint_v4d t1[4]) {
  double *row = chunk + g * size;
  feint_tile4(buf, FEINT_B, 1, g, k_lo, t0);
  feint_tile4(buf, FEINT_B, 1, g, k_lo + 4, t1);
  for (int k = k_lo; k < k_hi; k += 8) {
    feint_v4d t2[4], t3[4];
    feint_tile4(buf, FEINT_B, 1, g, k + 8, t2);
    feint_tile4(buf, FEINT_B, 1, g, k + 12, t3);
    FEINT_UNROLL
    for (int m = 0; m < 4; m += 2) {
      const int j2 = m + (o == 2), j6 = m + (o == 6);
      feint_quarter_line(row + j2 * size + k + 2, t0[j2], t1[j2], t2[j2]);
      feint_quarter_line(row + j6 * size + k + 6, t1[j6], t2[j6], t3[j6]);
    }
    FEINT_UNROLL
    for (int j = 0; j < 4; j++) t0[j] = t2[j], t1[j] = t3[j];
  }
}

/* After the steps (t0, t1: the tiles at size - 12 and size - 8): the p = 2
 * rows' last line [size - 10, size - 2), then each row's tail with the next
 * row's head (the next group's first row after row g + 3). */
FEINT_INLINE void feint_quarter_tails(const double *buf, double *chunk, int size, const int o,
                                      const int g, const feint_v4d t0[4], const feint_v4d t1[4]) {
  double *row = chunk + g * size;
  feint_v4d t2[4], h0[4], h4[4], n0[4], n4[4]; /* tile size - 4; heads: tiles 0, 4 */
  feint_tile4(buf, FEINT_B, 1, g, size - 4, t2);
  feint_tile4(buf, FEINT_B, 1, g, 0, h0);
  feint_tile4(buf, FEINT_B, 1, g, 4, h4);
  if (g + 4 < FEINT_B) {
    feint_tile4(buf, FEINT_B, 1, g + 4, 0, n0);
    feint_tile4(buf, FEINT_B, 1, g + 4, 4, n4);
  }
  FEINT_UNROLL
  for (int m = 0; m < 4; m += 2) {
    const int j2 = m + (o == 2);
    feint_quarter_line(row + j2 * size + size - 10, t0[j2], t1[j2], t2[j2]);
  }
  /* No if/else on a row's kind around the stores: with one, clang-19 made
   * some of them plain stores (every line then read for ownership: prism6
   * Poisson 25 -> 209 ns per element); rows j2 and j6 are written apart. */
  FEINT_UNROLL
  for (int m = 0; m < 4; m += 2) {
    const int j2 = m + (o == 2), j6 = m + (o == 6);
    /* row j6 (p = 6): its tail [size - 6, size), then row j6 + 1's head [0, 2) */
    double *q6 = row + j6 * size + size - 6;
    feint_stream2(feint_hi2(t1[j6]), q6);
    feint_stream2(feint_lo2(t2[j6]), q6 + 2);
    feint_stream2(feint_hi2(t2[j6]), q6 + 4);
    if (g + j6 + 1 < FEINT_B) feint_stream2(feint_lo2(j6 < 3 ? h0[j6 + 1] : n0[0]), q6 + 6);
    /* row j2 (p = 2): its tail [size - 2, size), then row j2 + 1's head [0, 6) */
    double *q2 = row + j2 * size + size - 2;
    feint_stream2(feint_hi2(t2[j2]), q2);
    if (g + j2 + 1 < FEINT_B) {
      const feint_v4d a = j2 < 3 ? h0[j2 + 1] : n0[0], b = j2 < 3 ? h4[j2 + 1] : n4[0];
      feint_stream2(feint_lo2(a), q2 + 2);
      feint_stream2(feint_hi2(a), q2 + 4);
      feint_stream2(feint_lo2(b), q2 + 6);
    }
  }
}

/* The chunk's first row's head, alone (the rest of its line is the
 * previous block's): [0, 6) for o = 2, [0, 2) for o = 6. */
FEINT_INLINE void feint_quarter_first_head(const double *buf, double *chunk, const int o) {
  feint_v4d h0[4], h4[4];
  feint_tile4(buf, FEINT_B, 1, 0, 0, h0);
  feint_stream2(feint_lo2(h0[0]), chunk);
  if (o == 2) {
    feint_tile4(buf, FEINT_B, 1, 0, 4, h4);
    feint_stream2(feint_hi2(h0[0]), chunk + 2);
    feint_stream2(feint_lo2(h4[0]), chunk + 4);
  }
}

/* The steps whose lines are all final once entries [0, e) of every row
 * are (k + 14 <= e); the p = 2 rows' last line goes with the tails. */
FEINT_INLINE int feint_quarter_steps_final(const int size, const int e) {
  const int all = (size - 12) / 8;
  return e < 14 ? 0 : ((e - 14) / 8 + 1 < all ? (e - 14) / 8 + 1 : all);
}

/* As feint_block_stream_natural_half_range: the lines that entries
 * [k0, k1) of every row completed. */
FEINT_INLINE void feint_block_stream_natural_quarter_range(const double *buf, double *chunk,
                                                           int size, const int o, const int k0,
                                                           const int k1) {
  const int s0 = feint_quarter_steps_final(size, k0), s1 = feint_quarter_steps_final(size, k1);
  if (k1 == size) feint_quarter_first_head(buf, chunk, o);
  FEINT_UNROLL
  for (int g = 0; g < FEINT_B; g += 4) {
    feint_v4d t0[4], t1[4];
    if (s1 > s0) feint_quarter_steps(buf, chunk, size, o, g, 8 * s0, 8 * s1, t0, t1);
    if (k1 == size) {
      if (s1 == s0) {
        feint_tile4(buf, FEINT_B, 1, g, size - 12, t0);
        feint_tile4(buf, FEINT_B, 1, g, size - 8, t1);
      }
      feint_quarter_tails(buf, chunk, size, o, g, t0, t1);
    }
  }
}

/* Rows of size = 4 mod 8 entries on a 16-byte aligned chunk (size >= 12
 * unless the chunk is 0 or 32 bytes past a line): the lines that entries
 * [k0, k1) of every row completed, by the scheme of the chunk's offset,
 * passed on as a literal. */
FEINT_INLINE void feint_block_stream_natural_4mod8(const double *buf, double *chunk, int size,
                                                   const int k0, const int k1) {
  const unsigned off = (unsigned)((uintptr_t)chunk & 63u);
  if (off == 0) feint_block_stream_natural_half_range(buf, chunk, size, 0, k0, k1);
  else if (off == 32) feint_block_stream_natural_half_range(buf, chunk, size, 4, k0, k1);
  else if (off == 16) feint_block_stream_natural_quarter_range(buf, chunk, size, 2, k0, k1);
  else feint_block_stream_natural_quarter_range(buf, chunk, size, 6, k0, k1);
}
#endif

/* A full block to a natural destination chunk of short rows whose length
 * is not a multiple of 4 (size % 4 != 0, size <= FEINT_NATURAL_ANY_MAX:
 * prism6's b_e (6) and packed Poisson A_e (21), tet4's packed A_e (10),
 * prism6 elasticity's b_e (18)), the chunk 32-byte aligned (h = 0) or 16
 * bytes past (h = 2: a 2-double piece at either end).  Each 32-byte piece
 * of the chunk is built from 4 scalar loads of buf (entry k of lane l at
 * [k B + l]; the loop unrolls, so every index is a constant) and streamed;
 * an empty asm on each loaded value keeps the vectoriser from turning the
 * loads back into a gather.  Through tmp instead, the 4 x 4 tiles of such
 * rows overlap and straddle the copy's 32-byte loads, each of which then
 * needs two stores still in flight and waits for them to reach L1 (no
 * store-to-load forwarding): prism6 Poisson qss_geo_linear took 27.2-28.7
 * ns per element in the natural layout and 27.3 packed, against 16.0-16.5
 * blocked; this way 17.9-18.5 (2 threads, Zen 4, 4 M elements).  Longer
 * rows (78, 171 entries) keep tmp: there the straddling loads are a small
 * share of the copy and the unrolled loop would be thousands of
 * instructions. */
#if FEINT_HAVE_STREAM_STORE && FEINT_HAVE_V4D && defined(__x86_64__)
#define FEINT_HAVE_STREAM_NATURAL_ANY 1
#define FEINT_NATURAL_ANY_MAX 32
FEINT_INLINE double feint_natural_entry(const double *buf, int size, int i) {
  const int l = i / size, k = i - l * size;
  double v = buf[k * FEINT_B + l];
  __asm__("" : "+x"(v)); /* a scalar load, not a lane of a gather */
  return v;
}
FEINT_INLINE void feint_block_stream_natural_any(const double *buf, double *chunk, int size,
                                                 const int h) {
  const int len = FEINT_B * size; /* a multiple of 8 */
  if (h)
    feint_stream2((feint_v2d){feint_natural_entry(buf, size, 0), feint_natural_entry(buf, size, 1)},
                  chunk);
  FEINT_UNROLL
  for (int i = h; i + 4 <= len; i += 4) {
    const feint_v4d v = {feint_natural_entry(buf, size, i), feint_natural_entry(buf, size, i + 1),
                         feint_natural_entry(buf, size, i + 2),
                         feint_natural_entry(buf, size, i + 3)};
    __builtin_nontemporal_store(v, (feint_v4d *)(chunk + i));
  }
  if (h)
    feint_stream2((feint_v2d){feint_natural_entry(buf, size, len - 2),
                              feint_natural_entry(buf, size, len - 1)},
                  chunk + len - 2);
}
#else
#define FEINT_HAVE_STREAM_NATURAL_ANY 0
#endif

/* Copy len doubles from an L1 buffer to dst (any 8-byte aligned address),
 * with streaming stores where the compiler offers them: 8- and 16-byte
 * ones up to dst's first 32-byte boundary and after its last, 32-byte ones
 * between.  Every store streams: a line that took a plain store (a read
 * for ownership, the line then in the cache) and streaming ones from the
 * neighbouring block measured slower than either alone (Zen 1, tet4
 * elasticity, A 16 bytes past a line: 208 ns per element, 188 at 32). */
FEINT_INLINE void feint_block_store(double *dst, const double *buf, int len) {
  int i = 0;
#if FEINT_HAVE_STREAM_STORE && FEINT_HAVE_V4D
  if (len > 0 && ((uintptr_t)dst & 15u) != 0) feint_stream1(buf + i, dst + i), i++;
  if (i + 2 <= len && ((uintptr_t)(dst + i) & 31u) != 0)
    feint_stream2(*(const feint_v2d_u *)(buf + i), dst + i), i += 2;
  for (; i + 4 <= len; i += 4)
    __builtin_nontemporal_store(*(const feint_v4d_u *)(buf + i), (feint_v4d *)(dst + i));
  if (i + 2 <= len) feint_stream2(*(const feint_v2d_u *)(buf + i), dst + i), i += 2;
  if (i < len) feint_stream1(buf + i, dst + i), i++;
#endif
  for (; i < len; i++) dst[i] = buf[i];
}

/* Where a kernel that finishes A^e row range by row range (FEINT_ROW_FN,
 * kernel/driver.h) sends each range as soon as it is final: the chunk of
 * a full block of the output (NULL: the driver copies the whole block out
 * afterwards), and its layout.  Sending rows while the next ones are
 * computed overlaps the output stream with the arithmetic; copied out
 * after the block, the streaming stores fill the store queue and the
 * arithmetic waits for them to drain (bench/results/hex8_elasticity_limits,
 * addendum 7). */
typedef struct {
  double *chunk;
  int layout;
} feint_rows_sink;

/* Can rows of `row` entries (the rows of one node: N_C rows of nd) of
 * matrices of `size` entries go out to this destination chunk as they are
 * finished?  Blocked: any; natural: whole cache lines (a node's rows a
 * multiple of 8 entries, the chunk 64-byte aligned), or matrices of half
 * lines past whole ones (size = 4 mod 8: prism6 elasticity's 324) on any
 * 16-byte aligned chunk, whose lines leave as soon as every entry in them
 * is final (feint_block_stream_natural_4mod8). */
FEINT_INLINE int feint_rows_sink_ok(int layout, const double *chunk, int row, int size) {
#if FEINT_HAVE_STREAM_STORE && FEINT_HAVE_V4D
  if (layout == FEINT_LAYOUT_BLOCKED) return 1;
  if (size % 8 == 4) return size >= 12 && ((uintptr_t)chunk & 15u) == 0;
  return row % 8 == 0 && ((uintptr_t)chunk & 63u) == 0;
#else
  (void)layout, (void)chunk, (void)row, (void)size;
  return 0;
#endif
}

/* Entries [k0, k1) of every lane's matrix (size entries) in the blocked
 * buffer buf are final: stream them to the sink's chunk. */
FEINT_INLINE void feint_rows_out(const feint_rows_sink *sink, const double *buf, int size, int k0,
                                 int k1) {
#if FEINT_HAVE_STREAM_STORE && FEINT_HAVE_V4D
  if (!sink || !sink->chunk) return;
  if (sink->layout == FEINT_LAYOUT_BLOCKED)
    feint_block_store(sink->chunk + k0 * FEINT_B, buf + k0 * FEINT_B, (k1 - k0) * FEINT_B);
  else if (size % 8 != 4)
    feint_block_stream_natural_range(buf, sink->chunk, size, k0, k1);
  else
    feint_block_stream_natural_4mod8(buf, sink->chunk, size, k0, k1);
#else
  (void)sink, (void)buf, (void)size, (void)k0, (void)k1;
#endif
}

/* Ask for the `bytes` bytes from p on to be brought into the cache, a
 * 64-byte line at a time. */
FEINT_INLINE void feint_prefetch_bytes(const void *p, const int bytes) {
  const char *c = (const char *)p;
  for (int i = 0; i < bytes; i += 64) __builtin_prefetch(c + i);
}

/* Ask for the chunk of block `blk` of an array with `size` entries per
 * element (B * size doubles, either layout) to be brought into the cache. */
FEINT_INLINE void feint_prefetch_block(const double *src, int size, size_t blk) {
  feint_prefetch_bytes(src + blk * FEINT_B * (size_t)size, FEINT_B * size * (int)sizeof(double));
}

/* A loop over blocks up to `end` that works on block blk asks for the
 * chunk FEINT_PREFETCH_AHEAD blocks ahead: the hardware prefetchers alone
 * left the loads and the arithmetic taking turns.  tet4 Poisson, 2
 * threads, Zen 1: 16.2 ns per element blocked, 13.3 with the prefetch,
 * 19.6 -> 16.7 natural; the validation pass (validate.c) went from 1.9
 * times a plain read of the geometry to 1.2 times, 2 to 16 blocks ahead
 * measuring the same there. */
#ifndef FEINT_PREFETCH_AHEAD
#define FEINT_PREFETCH_AHEAD 4
#endif
FEINT_INLINE void feint_prefetch_ahead(const double *src, int size, size_t blk, size_t end) {
  if (blk + FEINT_PREFETCH_AHEAD < end) feint_prefetch_block(src, size, blk + FEINT_PREFETCH_AHEAD);
}

/* Entries of the packed upper triangle of an n x n matrix (row i holds
 * columns i..n-1, rows one after another) and the packed index of (i, i). */
FEINT_INLINE int feint_packed_entries(int n) { return n * (n + 1) / 2; }
FEINT_INLINE int feint_packed_row(int n, int i) { return i * n - i * (i - 1) / 2; }

/* Pack, in place, the blocked buffer of a block of n x n matrices (entry
 * (i, j) of lane l at [(i n + j) B + l]) into their upper triangles in the
 * same blocked order (packed entry p of lane l at [p B + l]).  Row i's part
 * j >= i is contiguous in the buffer, (n - i) B doubles, and moves down to
 * its packed place (never above where it was: the moves go in row order,
 * each a memmove within L1). */
FEINT_INLINE void feint_block_pack_upper(double *buf, int n) {
  for (int i = 1; i < n; i++)
    __builtin_memmove(buf + (size_t)feint_packed_row(n, i) * FEINT_B,
                      buf + (size_t)(i * n + i) * FEINT_B, (size_t)(n - i) * FEINT_B * sizeof(double));
}

/* The chunk of block `blk` of an input array (elements blk * B ..
 * blk * B + nvalid - 1) in the blocked order: in place for a full blocked
 * chunk, else in buf (B * size doubles, 32-byte aligned), transposed from
 * the natural order.  A partial block is copied with the missing lanes
 * replaced by lane 0 (natural: first to tmp, B * size doubles, then
 * transposed); tmp is free again on return. */
FEINT_INLINE const double *feint_block_in(int layout, const double *src, int size, size_t blk,
                                          int nvalid, double *buf, double *tmp) {
  const double *chunk = src + blk * FEINT_B * (size_t)size;
  const int blocked = layout == FEINT_LAYOUT_BLOCKED;
  if (nvalid < FEINT_B) { /* the last block: contiguous copies, no gathers */
    const size_t row = (size_t)size * sizeof(double);
    if (blocked) { /* a blocked array holds whole blocks */
      __builtin_memcpy(buf, chunk, FEINT_B * row);
      for (int k = 0; k < size; k++)
        for (int l = nvalid; l < FEINT_B; l++) buf[k * FEINT_B + l] = buf[k * FEINT_B];
      return buf;
    }
    __builtin_memcpy(tmp, chunk, (size_t)nvalid * row);
    for (int l = nvalid; l < FEINT_B; l++) __builtin_memcpy(tmp + l * size, chunk, row);
    chunk = tmp;
  }
  if (blocked) return chunk;
  feint_block_transpose(chunk, 1, size, buf, FEINT_B, 1, size);
  return buf;
}

/* Write block `blk` of an output array from buf (the block in the blocked
 * order); only the nvalid lanes are written.  A full natural block streams
 * straight from buf when it can (the file's header lists when); any other
 * is transposed into tmp (B * size doubles, 32-byte aligned) first.  A full
 * block leaves with streaming stores. */
FEINT_INLINE void feint_block_out(int layout, double *dst, int size, size_t blk, int nvalid,
                                  const double *buf, double *tmp) {
  double *chunk = dst + blk * FEINT_B * (size_t)size;
  const int blocked = layout == FEINT_LAYOUT_BLOCKED;
  if (!blocked) {
#if FEINT_HAVE_STREAM_STORE && FEINT_HAVE_V4D
    /* rows of whole cache lines, or of half lines past whole ones (two rows
     * sharing a line), stream straight to memory, line by line; short rows
     * of any other length, 32 bytes at a time built from scalar loads; any
     * other row goes through tmp and the sequential streaming copy */
    const int o = (int)(((uintptr_t)chunk & 63) >> 3); /* doubles past a line */
    if (nvalid == FEINT_B && size % 8 == 4 && (o % 4 == 0 || (size >= 12 && o % 2 == 0))) {
      feint_block_stream_natural_4mod8(buf, chunk, size, 0, size);
      return;
    }
#if FEINT_HAVE_STREAM_NATURAL_ANY
    if (nvalid == FEINT_B && size % 4 != 0 && size <= FEINT_NATURAL_ANY_MAX &&
        ((uintptr_t)chunk & 15u) == 0) {
      if (((uintptr_t)chunk & 31u) == 0) feint_block_stream_natural_any(buf, chunk, size, 0);
      else feint_block_stream_natural_any(buf, chunk, size, 2);
      return;
    }
#endif
    if (nvalid == FEINT_B && size % 8 == 0) {
      if (o == 0) {
        feint_block_stream_natural(buf, chunk, size);
        return;
      }
      if (o % 2 == 0) {
        if (o == 2) feint_block_stream_natural_shifted(buf, chunk, size, 2);
        else if (o == 4) feint_block_stream_natural_shifted(buf, chunk, size, 4);
        else feint_block_stream_natural_shifted(buf, chunk, size, 6);
        return;
      }
    }
#endif
    feint_block_transpose(buf, FEINT_B, 1, tmp, 1, size, size);
    buf = tmp;
  }
  if (nvalid == FEINT_B) {
    feint_block_store(chunk, buf, FEINT_B * size);
  } else if (blocked) { /* the last block: its nvalid lanes only */
    for (int k = 0; k < size; k++)
      __builtin_memcpy(chunk + k * FEINT_B, buf + k * FEINT_B, (size_t)nvalid * sizeof(double));
  } else {
    __builtin_memcpy(chunk, buf, (size_t)nvalid * size * sizeof(double));
  }
}

#endif /* FEINT_KERNEL_BLOCK_IO_H */
