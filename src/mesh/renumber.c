/*
 * mesh/renumber.c - renumber vertices and elements for locality along a
 * Hilbert space-filling curve (feint_mesh_renumber).
 *
 * Points (vertices, element centroids) are mapped to a 2^21 grid over the
 * mesh's bounding box and sorted by their 63-bit Hilbert index (Skilling,
 * "Programming the Hilbert curve", AIP Conf. Proc. 707, 2004: the
 * transpose form, then bit interleaving) with a stable radix sort, ties
 * keeping the old order, so the result is deterministic.  Consecutive points on the curve are close in
 * space, so an element's vertices get close indices and neighbouring
 * elements touch the same rows of coords and of a CSR matrix: fewer cache
 * lines per element in a gather or an assembly.
 *
 * The grid map works for every finite mesh: a coordinate is scaled by an
 * exact power of two before the box's origin is subtracted (grid_map), so
 * that neither the box's extent nor a centroid's sum of nodes overflows and
 * an extent below 2^21 / DBL_MAX (~1e-302) still gives a finite scale.
 * Ordinary meshes (|x| <= DBL_MAX / 16, extent above that) take the factor
 * 1, and their order is the one computed without it, bit for bit.
 */
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "mesh/mesh_internal.h"

#define HILBERT_BITS 21

/* Hilbert index of the grid point x[0..2] (each < 2^HILBERT_BITS). */
static uint64_t hilbert_index(uint32_t x[3]) {
  const uint32_t top = 1u << (HILBERT_BITS - 1);
  /* inverse undo */
  for (uint32_t q = top; q > 1; q >>= 1) {
    const uint32_t p = q - 1;
    for (int i = 0; i < 3; i++)
      if (x[i] & q)
        x[0] ^= p;
      else {
        const uint32_t t = (x[0] ^ x[i]) & p;
        x[0] ^= t;
        x[i] ^= t;
      }
  }
  /* Gray encode */
  for (int i = 1; i < 3; i++) x[i] ^= x[i - 1];
  uint32_t t = 0;
  for (uint32_t q = top; q > 1; q >>= 1)
    if (x[2] & q) t ^= q - 1;
  for (int i = 0; i < 3; i++) x[i] ^= t;
  /* interleave, most significant bits first */
  uint64_t h = 0;
  for (int b = HILBERT_BITS - 1; b >= 0; b--)
    for (int i = 0; i < 3; i++) h = (h << 1) | ((x[i] >> b) & 1u);
  return h;
}

/* Per axis: grid coordinate = (x * pre - lo_pre) * scale, lo_pre = lo * pre,
 * pre an exact power of two (see grid_init). */
typedef struct {
  double pre[3], lo_pre[3], scale[3];
} grid_map;

/* A centroid sums up to FEINT_MAX_NODES coordinates: with |x| <= DBL_MAX /
 * GRID_HUGE_DIV neither that sum nor the extent hi - lo can overflow. */
#define GRID_HUGE_DIV 16.0
_Static_assert(FEINT_MAX_NODES <= 16, "GRID_HUGE_DIV must cover a centroid's sum of nodes");

/* The map of the bounding box [lo, hi] of a finite mesh.  Per axis:
 *  - |lo| or |hi| > DBL_MAX / 16: pre = 1/16, so that hi - lo and a
 *    centroid's sum stay finite;
 *  - 0 < hi - lo < 2^21 / DBL_MAX, where 2^21 / (hi - lo) would be inf
 *    and (x - lo) * inf NaN at x = lo: pre = 2^600.  Distinct doubles that
 *    close lie within 2^53 (hi - lo) < 2^-949 of 0, so x 2^600 is exact
 *    and small, and the scaled extent (>= 2^-474) has a finite scale;
 *  - otherwise (every ordinary mesh) pre = 1: the map (x - lo) * scale as
 *    computed without pre.
 * hi == lo (a flat axis) gives scale 0: every point in cell 0. */
static void grid_init(grid_map *g, const double lo[3], const double hi[3]) {
  const double cells = (double)(1u << HILBERT_BITS);
  for (int a = 0; a < 3; a++) {
    const double big = fabs(lo[a]) > fabs(hi[a]) ? fabs(lo[a]) : fabs(hi[a]);
    double pre = big > DBL_MAX / GRID_HUGE_DIV ? 1.0 / GRID_HUGE_DIV : 1.0;
    if (pre == 1.0 && hi[a] > lo[a] && cells / (hi[a] - lo[a]) > DBL_MAX) pre = 0x1p600;
    const double extent = hi[a] * pre - lo[a] * pre;
    g->pre[a] = pre;
    g->lo_pre[a] = lo[a] * pre;
    g->scale[a] = extent > 0.0 ? cells / extent : 0.0;
  }
}

/* The Hilbert index of the point whose coordinates, multiplied by g->pre,
 * are q[0..2]. */
static uint64_t point_key(const grid_map *g, const double q[3]) {
  uint32_t x[3];
  const double max = (double)((1u << HILBERT_BITS) - 1);
  for (int a = 0; a < 3; a++) {
    double s = (q[a] - g->lo_pre[a]) * g->scale[a];
    /* grid_init keeps s finite and not NaN for points of the box; written
     * so that a NaN would still land in cell 0 (casting it is undefined) */
    s = s > 0.0 ? (s < max ? s : max) : 0.0;
    x[a] = (uint32_t)s;
  }
  return hilbert_index(x);
}

typedef struct {
  uint64_t key;
  size_t index;
} key_index;

/* Stable LSD radix sort of n (key, index) pairs by key, 8 bits a pass
 * (passes where every key has the same digit are skipped); tmp holds n
 * pairs.  Pairs start in index order, so equal keys keep it. */
static void sort_keys(key_index *a, key_index *tmp, size_t n) {
  for (int shift = 0; shift < 64; shift += 8) {
    size_t count[256] = {0};
    for (size_t i = 0; i < n; i++) count[(a[i].key >> shift) & 255u]++;
    if (n == 0 || count[(a[0].key >> shift) & 255u] == n) continue;
    size_t sum = 0;
    for (int d = 0; d < 256; d++) {
      const size_t c = count[d];
      count[d] = sum;
      sum += c;
    }
    for (size_t i = 0; i < n; i++) tmp[count[(a[i].key >> shift) & 255u]++] = a[i];
    memcpy(a, tmp, n * sizeof *a);
  }
}

feint_status feint_mesh_renumber(feint_mesh *mesh, unsigned what, uint32_t *vertex_new_of_old,
                                 size_t *elem_new_of_old) {
  FEINT_CALL(feint_mesh_check(mesh));
  FEINT_CHECK((what & ~(unsigned)(FEINT_RENUMBER_VERTICES | FEINT_RENUMBER_ELEMENTS)) == 0,
              FEINT_ERR_OUT_OF_RANGE,
              "what = 0x%x; allowed FEINT_RENUMBER_VERTICES | FEINT_RENUMBER_ELEMENTS (0x3)", what);
  const size_t nv = mesh->num_vertices, ne = mesh->num_elem, nf = mesh->num_faces;
  const size_t ns = (size_t)feint_mesh_nodes_per_elem(mesh->element);
  const int do_v = (what & FEINT_RENUMBER_VERTICES) != 0, do_e = (what & FEINT_RENUMBER_ELEMENTS) != 0;

  /* every temporary first: on failure the mesh is untouched */
  const size_t nkeys = do_v && nv > ne ? nv : ne;
  key_index *keys = malloc(nkeys * sizeof *keys), *keys_tmp = malloc(nkeys * sizeof *keys_tmp);
  uint32_t *vmap = malloc(nv * sizeof *vmap);
  void *scratch = malloc(ne * ns * sizeof(uint32_t) > nv * 3 * sizeof(double)
                             ? ne * ns * sizeof(uint32_t)
                             : nv * 3 * sizeof(double));
  int32_t *tag_scratch = mesh->elem_tags ? malloc(ne * sizeof *tag_scratch) : NULL;
  if (!keys || !keys_tmp || !vmap || !scratch || (mesh->elem_tags && !tag_scratch)) {
    free(keys), free(keys_tmp), free(vmap), free(scratch), free(tag_scratch);
    FEINT_CHECK(0, FEINT_ERR_ALLOC, "cannot allocate the renumbering buffers (%zu vertices, %zu elements)",
                nv, ne);
  }

  /* the grid over the bounding box */
  grid_map g;
  double lo[3], hi[3];
  for (int a = 0; a < 3; a++) lo[a] = hi[a] = mesh->coords[a];
  for (size_t v = 0; v < nv; v++)
    for (int a = 0; a < 3; a++) {
      const double x = mesh->coords[3 * v + (size_t)a];
      lo[a] = x < lo[a] ? x : lo[a];
      hi[a] = x > hi[a] ? x : hi[a];
    }
  grid_init(&g, lo, hi);

  /* vertices */
  if (do_v) {
#pragma omp parallel for schedule(static)
    for (size_t v = 0; v < nv; v++) {
      double q[3];
      for (int a = 0; a < 3; a++) q[a] = mesh->coords[3 * v + (size_t)a] * g.pre[a];
      keys[v] = (key_index){point_key(&g, q), v};
    }
    sort_keys(keys, keys_tmp, nv);
    double *xyz = scratch;
    for (size_t k = 0; k < nv; k++) {
      vmap[keys[k].index] = (uint32_t)k;
      memcpy(xyz + 3 * k, mesh->coords + 3 * keys[k].index, 3 * sizeof(double));
    }
    memcpy(mesh->coords, xyz, nv * 3 * sizeof(double));
#pragma omp parallel for schedule(static)
    for (size_t i = 0; i < ne * ns; i++) mesh->conn[i] = vmap[mesh->conn[i]];
    for (size_t i = 0; i < 4 * nf; i++)
      if (mesh->faces[i] != FEINT_NO_VERTEX) mesh->faces[i] = vmap[mesh->faces[i]];
  } else
    for (size_t v = 0; v < nv; v++) vmap[v] = (uint32_t)v;
  if (vertex_new_of_old) memcpy(vertex_new_of_old, vmap, nv * sizeof *vmap);

  /* elements, by their centroids */
  if (do_e) {
#pragma omp parallel for schedule(static)
    for (size_t e = 0; e < ne; e++) {
      double c[3] = {0, 0, 0};
      for (size_t n = 0; n < ns; n++)
        for (int a = 0; a < 3; a++)
          c[a] += mesh->coords[3 * (size_t)mesh->conn[e * ns + n] + (size_t)a] * g.pre[a];
      for (int a = 0; a < 3; a++) c[a] /= (double)ns;
      keys[e] = (key_index){point_key(&g, c), e};
    }
    sort_keys(keys, keys_tmp, ne);
    uint32_t *conn = scratch;
    for (size_t k = 0; k < ne; k++) {
      memcpy(conn + k * ns, mesh->conn + keys[k].index * ns, ns * sizeof *conn);
      if (tag_scratch) tag_scratch[k] = mesh->elem_tags[keys[k].index];
    }
    memcpy(mesh->conn, conn, ne * ns * sizeof *conn);
    if (tag_scratch) memcpy(mesh->elem_tags, tag_scratch, ne * sizeof *tag_scratch);
    if (elem_new_of_old)
      for (size_t k = 0; k < ne; k++) elem_new_of_old[keys[k].index] = k;
  } else if (elem_new_of_old)
    for (size_t e = 0; e < ne; e++) elem_new_of_old[e] = e;
  free(keys), free(keys_tmp), free(vmap), free(scratch), free(tag_scratch);
  return FEINT_SUCCESS;
}
