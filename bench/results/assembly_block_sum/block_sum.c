/* block_sum [cells [reps [h [B2]]]]: the scatter of tet4 Poisson assembly alone
 * (no element computed: a block of A^e and b^e produced by vector stores from
 * a fixed source, as the kernel leaves it), on a box mesh of cells^3 x 6 tets
 * (h = 1: renumbered along a Hilbert curve), in two forms:
 *  lane   : as feint's map path: lane by lane, row by row, 1-byte column
 *           offsets, one read-modify-write of the CSR values per entry
 *           (16 per tet, 4 for the vector);
 *  summed : the contributions of a group of G = B2 consecutive blocks of 8
 *           elements that go to the same CSR entry are summed in registers
 *           first, one read-modify-write per distinct entry of the group.
 *           The plan (made here, untimed) lists per group its distinct
 *           targets (absolute 32-bit position, contribution count) and the
 *           group's entries in target order (16-bit index into the group's
 *           A^e buffer); vector entries the same.
 *  by count: the same sums, the group's targets sorted by their count, so
 *           each count's loop has a fixed trip count (no mispredicted
 *           branch per target; the vector as in summed).
 * Prints the distinct entries per tet of the groups, the plan's bytes per
 * tet, and min / median ns per tet of each form over `reps` runs,
 * interleaved; the matrices of the two forms agree to round-off (checked).
 * Build: clang-19 -O3 -march=native -fopenmp -Iinclude block_sum.c
 *        build/lib/libfeint.a -lm */
#define _POSIX_C_SOURCE 200809L
#include <immintrin.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "feint.h"

#define B 8
#define GMAX 16
static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}
static size_t ne;
static int G;
static const uint32_t *conn;
static const int64_t *rp;
static double *val, *rhs;
static uint8_t *off8;
/* the group's A^e: entry k (0..15) of lane l of block j at Ab[(j * 16 + k) * B + l] */
static double Ab[GMAX * 16 * B] __attribute__((aligned(64)));
static double bb[GMAX * 4 * B] __attribute__((aligned(64)));
static double src[16 * B] __attribute__((aligned(64)));

static inline void produce(size_t i0, double *A, double *b) {
  const __m512d s = _mm512_set1_pd(1e-9 * (double)i0);
  for (int k = 0; k < 16; k++)
    _mm512_store_pd(A + k * B, _mm512_add_pd(_mm512_load_pd(src + k * B), s));
  for (int k = 0; k < 4; k++)
    _mm512_store_pd(b + k * B, _mm512_add_pd(_mm512_load_pd(src + ((5 * k) % 16) * B), s));
  __asm__ volatile("" ::: "memory");
}

__attribute__((noinline)) static void lane(void) {
  for (size_t i0 = 0; i0 < ne; i0 += B) {
    produce(i0, Ab, bb);
    for (int l = 0; l < B; l++) {
      const size_t e = i0 + l;
      const uint32_t *v = conn + 4 * e;
      const uint8_t *o = off8 + 16 * e;
      for (int r = 0; r < 4; r++) {
        double *row = val + rp[v[r]];
        for (int s = 0; s < 4; s++) row[o[4 * r + s]] += Ab[(4 * r + s) * B + l];
        rhs[v[r]] += bb[r * B + l];
      }
    }
  }
}

/* plan of the summed form, per group g: targets [tp[g], tp[g+1]) with
 * position pos[t] and count cnt[t]; their contributions' indices
 * idx[16 G B g + ...] in target order; the vector's likewise. */
static size_t *tp, *vp;
static int32_t *pos;
static uint32_t *vpos;
static uint8_t *cnt, *vcnt;
static uint16_t *idx, *vidx;

__attribute__((noinline)) static void summed(void) {
  const size_t gl = (size_t)G * B, ng = ne / gl;
  for (size_t g = 0; g < ng; g++) {
    for (int j = 0; j < G; j++) produce(g * gl + (size_t)j * B, Ab + j * 16 * B, bb + j * 4 * B);
    const uint16_t *ix = idx + 16 * gl * g;
    for (size_t t = tp[g]; t < tp[g + 1]; t++) {
      double s = Ab[*ix++];
      for (int c = 1; c < cnt[t]; c++) s += Ab[*ix++];
      val[pos[t]] += s;
    }
    const uint16_t *iv = vidx + 4 * gl * g;
    for (size_t t = vp[g]; t < vp[g + 1]; t++) {
      double s = bb[*iv++];
      for (int c = 1; c < vcnt[t]; c++) s += bb[*iv++];
      rhs[vpos[t]] += s;
    }
  }
}

/* the by-count plan: per group g, the targets of count c (1..32: a CSR
 * entry is shared by at most 32 elements of a group here; checked when the
 * plan is made) at [cp[33 g + c - 1], cp[33 g + c]), positions cpos,
 * indices cidx (the group's 16 G B entries by count, then by target) */
static size_t *cp;
static int32_t *cpos;
static uint16_t *cidx;

__attribute__((noinline)) static void by_count(void) {
  const size_t gl = (size_t)G * B, ng = ne / gl;
  for (size_t g = 0; g < ng; g++) {
    for (int j = 0; j < G; j++) produce(g * gl + (size_t)j * B, Ab + j * 16 * B, bb + j * 4 * B);
    const uint16_t *ix = cidx + 16 * gl * g;
#define BY_COUNT(C)                                                        \
  for (size_t t = cp[33 * g + (C) - 1]; t < cp[33 * g + (C)]; t++) {      \
    double s = Ab[ix[0]];                                                  \
    for (int q = 1; q < (C); q++) s += Ab[ix[q]];                          \
    ix += (C);                                                             \
    val[cpos[t]] += s;                                                     \
  }
    BY_COUNT(1) BY_COUNT(2) BY_COUNT(3) BY_COUNT(4) BY_COUNT(5) BY_COUNT(6) BY_COUNT(7)
    BY_COUNT(8) BY_COUNT(9) BY_COUNT(10) BY_COUNT(11) BY_COUNT(12) BY_COUNT(13) BY_COUNT(14)
    BY_COUNT(15) BY_COUNT(16) BY_COUNT(17) BY_COUNT(18) BY_COUNT(19) BY_COUNT(20) BY_COUNT(21)
    BY_COUNT(22) BY_COUNT(23) BY_COUNT(24) BY_COUNT(25) BY_COUNT(26) BY_COUNT(27) BY_COUNT(28)
    BY_COUNT(29) BY_COUNT(30) BY_COUNT(31) BY_COUNT(32)
#undef BY_COUNT
    const uint16_t *iv = vidx + 4 * gl * g;
    for (size_t t = vp[g]; t < vp[g + 1]; t++) {
      double s = bb[*iv++];
      for (int c = 1; c < vcnt[t]; c++) s += bb[*iv++];
      rhs[vpos[t]] += s;
    }
  }
}

typedef struct {
  int64_t key;
  uint16_t ix;
} contrib;
static int cmp_contrib(const void *a, const void *b) {
  const contrib *x = a, *y = b;
  return x->key < y->key ? -1 : x->key > y->key ? 1 : (x->ix > y->ix) - (x->ix < y->ix);
}
static int cmp_d(const void *a, const void *b) {
  const double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

int main(int argc, char **argv) {
  const size_t n = argc > 1 ? (size_t)atoi(argv[1]) : 88;
  const int reps = argc > 2 ? atoi(argv[2]) : 11, hil = argc > 3 ? atoi(argv[3]) : 0;
  G = argc > 4 ? atoi(argv[4]) : 1;
  if (G < 1 || G > GMAX) return 1;
  feint_mesh m;
  if (feint_mesh_box_create(FEINT_TET4, n, n, n, FEINT_PERTURB_NONE, 0, 1, &m)) return 1;
  if (hil && feint_mesh_renumber(&m, FEINT_RENUMBER_VERTICES | FEINT_RENUMBER_ELEMENTS, NULL,
                                 NULL))
    return 1;
  feint_csr csr;
  if (feint_csr_create(&m, 1, &csr)) return 2;
  const size_t gl = (size_t)G * B;
  ne = m.num_elem - m.num_elem % gl;
  conn = m.conn, rp = csr.row_ptr, val = csr.values;
  rhs = calloc(m.num_vertices, 8);
  off8 = malloc(ne * 16);
  for (size_t e = 0; e < ne; e++)
    for (int r = 0; r < 4; r++)
      for (int s = 0; s < 4; s++) {
        int64_t k = rp[conn[4 * e + r]];
        while (csr.col_idx[k] != (int32_t)conn[4 * e + s]) k++;
        off8[16 * e + 4 * r + s] = (uint8_t)(k - rp[conn[4 * e + r]]);
      }
  /* the summed form's plan */
  const size_t ng = ne / gl;
  tp = malloc((ng + 1) * sizeof *tp), vp = malloc((ng + 1) * sizeof *vp);
  pos = malloc(16 * ne * sizeof *pos), cnt = malloc(16 * ne);
  vpos = malloc(4 * ne * sizeof *vpos), vcnt = malloc(4 * ne);
  idx = malloc(16 * ne * sizeof *idx), vidx = malloc(4 * ne * sizeof *vidx);
  contrib *c = malloc(16 * gl * sizeof *c);
  cp = calloc(33 * ng + 1, sizeof *cp), cpos = malloc(16 * ne * sizeof *cpos);
  cidx = malloc(16 * ne * sizeof *cidx);
  size_t nt = 0, nv = 0;
  tp[0] = vp[0] = 0;
  for (size_t g = 0; g < ng; g++) {
    int k = 0;
    for (int j = 0; j < G; j++)
      for (int l = 0; l < B; l++) {
        const size_t e = g * gl + (size_t)j * B + l;
        for (int q = 0; q < 16; q++)
          c[k++] = (contrib){rp[conn[4 * e + q / 4]] + off8[16 * e + q],
                             (uint16_t)((j * 16 + q) * B + l)};
      }
    qsort(c, (size_t)k, sizeof *c, cmp_contrib);
    for (int a = 0; a < k; a++) {
      if (a == 0 || c[a].key != c[a - 1].key) pos[nt] = (int32_t)c[a].key, cnt[nt++] = 0;
      cnt[nt - 1]++;
      idx[16 * gl * g + a] = c[a].ix;
    }
    tp[g + 1] = nt;
    for (size_t t = tp[g]; t < nt; t++)
      if (cnt[t] > 32) return 4; /* the by-count form's classes stop at 32 */
    { /* by count: this group's targets in count order (stable), their
       * positions and contributions in that order, and the class bounds */
      size_t w = 16 * gl * g, o = tp[g];
      cp[33 * g] = tp[g];
      for (int cc = 1; cc <= 32; cc++) {
        size_t a = 16 * gl * g; /* the first contribution of target t */
        for (size_t t = tp[g]; t < tp[g + 1]; a += cnt[t], t++) {
          if (cnt[t] != cc) continue;
          cpos[o++] = pos[t];
          for (int q = 0; q < cc; q++) cidx[w++] = idx[a + q];
        }
        cp[33 * g + cc] = o;
      }
    }
    k = 0;
    for (int j = 0; j < G; j++)
      for (int l = 0; l < B; l++) {
        const size_t e = g * gl + (size_t)j * B + l;
        for (int r = 0; r < 4; r++)
          c[k++] = (contrib){conn[4 * e + r], (uint16_t)((j * 4 + r) * B + l)};
      }
    qsort(c, (size_t)k, sizeof *c, cmp_contrib);
    for (int a = 0; a < k; a++) {
      if (a == 0 || c[a].key != c[a - 1].key) vpos[nv] = (uint32_t)c[a].key, vcnt[nv++] = 0;
      vcnt[nv - 1]++;
      vidx[4 * gl * g + a] = c[a].ix;
    }
    vp[g + 1] = nv;
  }
  printf("n=%zu %s G=%d (groups of %zu tets): %.2f distinct matrix entries per tet (of 16), "
         "%.2f vector entries (of 4); plan %.1f bytes per tet (the 1-byte map: 16)\n",
         n, hil ? "hilbert" : "box", G, gl, (double)nt / ne, (double)nv / ne,
         (double)(nt * 5 + nv * 5 + 20 * ne * 2) / ne);
  for (int i = 0; i < 16 * B; i++) src[i] = 1e-3 * (i + 1);
  /* the two forms agree to round-off */
  memset(val, 0, csr.nnz * 8), memset(rhs, 0, m.num_vertices * 8);
  lane();
  double *ref = malloc(csr.nnz * 8);
  memcpy(ref, val, csr.nnz * 8);
  memset(val, 0, csr.nnz * 8), memset(rhs, 0, m.num_vertices * 8);
  summed();
  size_t bad = 0;
  for (size_t i = 0; i < csr.nnz; i++) bad += !(fabs(val[i] - ref[i]) <= 1e-13 * fabs(ref[i]));
  memset(val, 0, csr.nnz * 8), memset(rhs, 0, m.num_vertices * 8);
  by_count();
  for (size_t i = 0; i < csr.nnz; i++) bad += !(fabs(val[i] - ref[i]) <= 1e-13 * fabs(ref[i]));
  if (bad) {
    printf("FAIL: %zu entries differ\n", bad);
    return 3;
  }
  double *t[3] = {malloc(reps * 8), malloc(reps * 8), malloc(reps * 8)};
  void (*f[3])(void) = {lane, summed, by_count};
  for (int r = 0; r < reps; r++)
    for (int k = 0; k < 3; k++) {
      const double t0 = now();
      f[k]();
      t[k][r] = now() - t0;
    }
  const char *nm[3] = {"lane (feint)", "summed", "by count"};
  for (int k = 0; k < 3; k++) {
    qsort(t[k], (size_t)reps, 8, cmp_d);
    printf("  %-13s min %6.2f  median %6.2f ns/tet\n", nm[k], t[k][0] * 1e9 / ne,
           t[k][reps / 2] * 1e9 / ne);
  }
  return 0;
}
