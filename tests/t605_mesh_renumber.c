/* t605_mesh_renumber (range t6xx): feint_mesh_renumber returns permutations that coords, connectivity, tags and faces follow exactly (every element's volume and node coordinates unchanged, bit for bit), is deterministic, improves locality of a shuffled mesh (mean vertex-index spread per element), gives a mesh at extreme scales (extent below 1e-302, spanning +-2^1023, near DBL_MAX) the order of the same mesh at unit scale, orders the points of a grid along a Hilbert curve (starting at the origin, each step to a neighbour), the same for any thread count, and refuses bad input without writing. */
#include <stdlib.h>
#ifdef _OPENMP
#include <omp.h>
#endif

#include "mesh_util.h"
#include "test_util.h"

/* Mean over elements of max - min vertex index: the spread of an element's
 * rows in a CSR matrix. */
static double mean_spread(const feint_mesh *m) {
  const size_t ns = mesh_nodes(m->element);
  double sum = 0.0;
  for (size_t e = 0; e < m->num_elem; e++) {
    uint32_t lo = UINT32_MAX, hi = 0;
    for (size_t n = 0; n < ns; n++) {
      const uint32_t v = m->conn[e * ns + n];
      lo = v < lo ? v : lo;
      hi = v > hi ? v : hi;
    }
    sum += (double)(hi - lo);
  }
  return sum / (double)m->num_elem;
}

/* a deep copy (caller-owned arrays) */
static feint_mesh copy_mesh(const feint_mesh *m) {
  const size_t ns = mesh_nodes(m->element);
  feint_mesh c = *m;
  c.owns_arrays = 0;
  c.coords = malloc(m->num_vertices * 3 * sizeof(double));
  memcpy(c.coords, m->coords, m->num_vertices * 3 * sizeof(double));
  c.conn = malloc(m->num_elem * ns * sizeof(uint32_t));
  memcpy(c.conn, m->conn, m->num_elem * ns * sizeof(uint32_t));
  c.elem_tags = malloc(m->num_elem * sizeof(int32_t));
  for (size_t e = 0; e < m->num_elem; e++) c.elem_tags[e] = m->elem_tags ? m->elem_tags[e] : (int32_t)e;
  c.faces = malloc(m->num_faces * 4 * sizeof(uint32_t));
  memcpy(c.faces, m->faces, m->num_faces * 4 * sizeof(uint32_t));
  c.face_tags = malloc(m->num_faces * sizeof(int32_t));
  memcpy(c.face_tags, m->face_tags, m->num_faces * sizeof(int32_t));
  return c;
}
static void free_copy(feint_mesh *c) {
  free(c->coords), free(c->conn), free(c->elem_tags), free(c->faces), free(c->face_tags);
}

/* Shuffle the vertices of a mesh with a fixed-seed permutation (the worst
 * case a mesh generator could hand over). */
static void shuffle_vertices(feint_mesh *m, uint64_t seed) {
  const size_t nv = m->num_vertices, ns = mesh_nodes(m->element);
  uint32_t *perm = malloc(nv * sizeof *perm);
  for (size_t v = 0; v < nv; v++) perm[v] = (uint32_t)v;
  test_rng rng = {seed};
  for (size_t v = nv - 1; v > 0; v--) {
    const size_t j = (size_t)(test_rng_next(&rng) % (v + 1));
    const uint32_t t = perm[v];
    perm[v] = perm[j];
    perm[j] = t;
  }
  double *xyz = malloc(nv * 3 * sizeof *xyz);
  for (size_t v = 0; v < nv; v++) memcpy(xyz + 3 * (size_t)perm[v], m->coords + 3 * v, 3 * sizeof *xyz);
  memcpy(m->coords, xyz, nv * 3 * sizeof *xyz);
  for (size_t i = 0; i < m->num_elem * ns; i++) m->conn[i] = perm[m->conn[i]];
  for (size_t i = 0; i < m->num_faces * 4; i++)
    if (m->faces[i] != FEINT_NO_VERTEX) m->faces[i] = perm[m->faces[i]];
  free(xyz);
  free(perm);
}

static void check_renumber(feint_element el, unsigned what) {
  feint_mesh m;
  CHECK_STATUS(feint_mesh_box_create(el, 9, 7, 5, FEINT_PERTURB_GENERAL, 0.15, 3, &m), FEINT_SUCCESS,
               NULL);
  shuffle_vertices(&m, 77);
  feint_mesh old = copy_mesh(&m), r = copy_mesh(&m); /* r: element tags = old index */
  const size_t nv = m.num_vertices, ne = m.num_elem, ns = mesh_nodes(el);
  uint32_t *vperm = malloc(nv * sizeof *vperm);
  size_t *eperm = malloc(ne * sizeof *eperm);
  CHECK_STATUS(feint_mesh_renumber(&r, what, vperm, eperm), FEINT_SUCCESS, NULL);
  CHECK_STATUS(feint_mesh_check(&r), FEINT_SUCCESS, NULL);
  /* permutations */
  char *seen = calloc(nv > ne ? nv : ne, 1);
  for (size_t v = 0; v < nv; v++) {
    CHECK(vperm[v] < nv && !seen[vperm[v]], "vertex permutation is not a permutation at %zu", v);
    if (vperm[v] < nv) seen[vperm[v]] = 1;
    if (!(what & FEINT_RENUMBER_VERTICES)) CHECK(vperm[v] == v, "vertices moved unasked");
  }
  memset(seen, 0, nv > ne ? nv : ne);
  for (size_t e = 0; e < ne; e++) {
    CHECK(eperm[e] < ne && !seen[eperm[e]], "element permutation is not a permutation at %zu", e);
    if (eperm[e] < ne) seen[eperm[e]] = 1;
    if (!(what & FEINT_RENUMBER_ELEMENTS)) CHECK(eperm[e] == e, "elements moved unasked");
  }
  free(seen);
  /* data follow: coords, conn, tags, faces, volumes bit for bit */
  for (size_t v = 0; v < nv && vperm[v] < nv; v++)
    CHECK(memcmp(r.coords + 3 * (size_t)vperm[v], old.coords + 3 * v, 3 * sizeof(double)) == 0,
          "vertex %zu -> %u: coordinates differ", v, vperm[v]);
  for (size_t e = 0; e < ne && eperm[e] < ne; e++) {
    const size_t k = eperm[e];
    for (size_t n = 0; n < ns; n++)
      CHECK(r.conn[k * ns + n] == vperm[old.conn[e * ns + n]], "element %zu -> %zu node %zu", e, k, n);
    CHECK(r.elem_tags[k] == (int32_t)e, "element %zu -> %zu: tag %d did not follow", e, k,
          r.elem_tags[k]);
    CHECK(mesh_elem_volume(&r, k, NULL) == mesh_elem_volume(&old, e, NULL),
          "element %zu -> %zu: volume changed", e, k);
  }
  for (size_t f = 0; f < m.num_faces; f++) {
    for (int i = 0; i < 4; i++) {
      const uint32_t o = old.faces[4 * f + (size_t)i];
      CHECK(r.faces[4 * f + (size_t)i] == (o == FEINT_NO_VERTEX ? o : vperm[o]), "face %zu", f);
    }
    CHECK(r.face_tags[f] == old.face_tags[f], "face tag %zu", f);
  }
  /* locality: the shuffled mesh's spread is about nv / 2; after renumbering
   * vertices it must drop far below */
  if (what & FEINT_RENUMBER_VERTICES)
    CHECK(mean_spread(&r) < mean_spread(&old) / 4, "%s: mean spread %g after renumbering, %g before",
          feint_element_name(el), mean_spread(&r), mean_spread(&old));
  /* deterministic: the owned mesh renumbered the same way is identical */
  CHECK_STATUS(feint_mesh_renumber(&m, what, NULL, NULL), FEINT_SUCCESS, NULL);
  CHECK(memcmp(m.coords, r.coords, nv * 3 * sizeof(double)) == 0 &&
            memcmp(m.conn, r.conn, ne * ns * sizeof(uint32_t)) == 0,
        "renumbering is not deterministic");
  free(vperm);
  free(eperm);
  free_copy(&old);
  free_copy(&r);
  feint_mesh_destroy(&m);
}

static void check_errors(void) {
  feint_mesh m;
  CHECK_STATUS(feint_mesh_box_create(FEINT_TET4, 2, 2, 2, FEINT_PERTURB_NONE, 0.0, 1, &m),
               FEINT_SUCCESS, NULL);
  feint_mesh before = copy_mesh(&m);
  uint32_t vperm[27];
  size_t eperm[48];
  memset(vperm, 0x77, sizeof vperm);
  CHECK_STATUS(feint_mesh_renumber(&m, 4, vperm, eperm), FEINT_ERR_OUT_OF_RANGE, "what = 0x4");
  CHECK_STATUS(feint_mesh_renumber(NULL, 3, vperm, eperm), FEINT_ERR_NULL_ARG, "mesh is NULL");
  m.conn[5] = 27;
  CHECK_STATUS(feint_mesh_renumber(&m, 3, vperm, eperm), FEINT_ERR_OUT_OF_RANGE, "element 1 node 1");
  m.conn[5] = before.conn[5];
  CHECK(memcmp(m.coords, before.coords, 27 * 3 * sizeof(double)) == 0 &&
            memcmp(m.conn, before.conn, 48 * 4 * sizeof(uint32_t)) == 0 && vperm[0] == 0x77777777u,
        "renumber wrote on an error path");
  free_copy(&before);
  feint_mesh_destroy(&m);
}

/* Every finite mesh has a Hilbert order: the mesh of check_renumber moved
 * into [a, b] per axis by an exact power of two (2^k (x + c)), where
 * b - a is below 2^21 / DBL_MAX (the grid's scale would be inf), spans
 * +-2^1023 (b - a overflows) or lies near DBL_MAX (a centroid's sum of
 * nodes overflows), gets the permutations of the same mesh at unit scale
 * (x + c): the grid coordinates are the same numbers. */
static void check_extreme_scales(feint_element el) {
  static const struct {
    int k[3];
    double c[3];
  } cases[] = {
      {{-1005, -1005, -1005}, {0.0, 0.0, 0.0}},    /* extent 2^-1005 */
      {{1024, 1024, 1024}, {-0.5, -0.5, -0.5}},    /* [-2^1023, 2^1023] */
      {{1022, 1022, 1022}, {1.5, 1.5, 1.5}},       /* [1.5, 2.5] 2^1022 */
      {{-1005, 1024, 0}, {0.0, -0.5, 0.0}},        /* one of each, and an ordinary axis */
      {{1022, -1005, 1024}, {-2.5, 0.0, -0.5}},
  };
  feint_mesh m;
  CHECK_STATUS(feint_mesh_box_create(el, 9, 7, 5, FEINT_PERTURB_GENERAL, 0.15, 3, &m),
               FEINT_SUCCESS, NULL);
  shuffle_vertices(&m, 78);
  const size_t nv = m.num_vertices, ne = m.num_elem;
  uint32_t *vref = malloc(nv * sizeof *vref), *vperm = malloc(nv * sizeof *vperm);
  size_t *eref = malloc(ne * sizeof *eref), *eperm = malloc(ne * sizeof *eperm);
  for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
    feint_mesh unit = copy_mesh(&m), scaled = copy_mesh(&m);
    for (size_t v = 0; v < nv; v++)
      for (int a = 0; a < 3; a++) {
        unit.coords[3 * v + (size_t)a] += cases[c].c[a];
        scaled.coords[3 * v + (size_t)a] = ldexp(unit.coords[3 * v + (size_t)a], cases[c].k[a]);
      }
    for (size_t i = 0; i < 3 * nv; i++)
      CHECK(isfinite(scaled.coords[i]) && ldexp(scaled.coords[i], -cases[c].k[i % 3]) ==
                                              unit.coords[i],
            "case %zu: coordinate %zu is not an exact scaling", c, i);
    CHECK_STATUS(feint_mesh_renumber(&unit, 3, vref, eref), FEINT_SUCCESS, NULL);
    CHECK_STATUS(feint_mesh_renumber(&scaled, 3, vperm, eperm), FEINT_SUCCESS, NULL);
    CHECK(memcmp(vperm, vref, nv * sizeof *vref) == 0 &&
              memcmp(eperm, eref, ne * sizeof *eref) == 0,
          "%s, scale case %zu: the permutations differ from those at unit scale",
          feint_element_name(el), c);
    free_copy(&unit);
    free_copy(&scaled);
  }
  free(vref), free(vperm), free(eref), free(eperm);
  feint_mesh_destroy(&m);
}

/* The order is a Hilbert curve's: vertices at the integer points of
 * [0, 16)^3, and one at (2^21, 2^21, 2^21) so that the grid over the
 * bounding box has cells of side 1 with the points at their corners.  A
 * Hilbert curve starts at the origin and fills the 16^3 cells nearest to it
 * first, each one a step of 1 along one axis from the one before: the
 * renumbered points 0..4095 are those of the small cube, point 0 is the
 * origin, consecutive ones are neighbours, and the far vertex comes last.
 * (Any wrong bit in the index - the curve's state, its Gray code or the
 * interleaving of the axes - breaks one of these.) */
static void check_hilbert_curve(void) {
  enum { S = 16 };
  const size_t nv = S * S * S + 1, ne = (S - 1) * (S - 1) * (S - 1) + 1;
  feint_mesh m = {FEINT_TET4, nv, ne, malloc(nv * 3 * sizeof(double)),
                  malloc(ne * 4 * sizeof(uint32_t)), NULL, 0, NULL, NULL, 0};
  for (size_t v = 0; v < nv - 1; v++) {
    m.coords[3 * v] = (double)(v % S);
    m.coords[3 * v + 1] = (double)(v / S % S);
    m.coords[3 * v + 2] = (double)(v / (S * S));
  }
  for (int a = 0; a < 3; a++) m.coords[3 * (nv - 1) + (size_t)a] = 0x1p21;
  size_t e = 0; /* a tet at each point (i, j, k < S - 1) and one with the far vertex */
  for (uint32_t k = 0; k + 1 < S; k++)
    for (uint32_t j = 0; j + 1 < S; j++)
      for (uint32_t i = 0; i + 1 < S; i++, e++) {
        const uint32_t v = i + S * j + S * S * k;
        const uint32_t t[4] = {v, v + 1, v + S, v + S * S};
        memcpy(m.conn + 4 * e, t, sizeof t);
      }
  const uint32_t last[4] = {0, 1, S, (uint32_t)(nv - 1)};
  memcpy(m.conn + 4 * e, last, sizeof last);
  uint32_t *perm = malloc(nv * sizeof *perm);
  CHECK_STATUS(feint_mesh_renumber(&m, FEINT_RENUMBER_VERTICES, perm, NULL), FEINT_SUCCESS, NULL);
  CHECK(perm[nv - 1] == nv - 1, "the far vertex is number %u, not the last", perm[nv - 1]);
  CHECK(m.coords[0] == 0 && m.coords[1] == 0 && m.coords[2] == 0,
        "the curve starts at (%g, %g, %g), not at the origin", m.coords[0], m.coords[1],
        m.coords[2]);
  size_t jumps = 0;
  for (size_t v = 0; v + 2 < nv; v++) {
    double d = 0;
    for (size_t a = 0; a < 3; a++) d += fabs(m.coords[3 * (v + 1) + a] - m.coords[3 * v + a]);
    jumps += d != 1.0;
  }
  CHECK(jumps == 0, "%zu of %zu steps along the curve are not to a neighbouring point", jumps,
        nv - 2);
  free(perm);
  free(m.coords), free(m.conn);
}

/* The same order for any thread count (the sort splits its passes between
 * threads): a shuffled mesh renumbered with 1, 2 and 3 threads. */
static void check_thread_counts(void) {
#ifdef _OPENMP
  feint_mesh m;
  CHECK_STATUS(feint_mesh_box_create(FEINT_TET4, 21, 17, 19, FEINT_PERTURB_GENERAL, 0.15, 5, &m),
               FEINT_SUCCESS, NULL);
  shuffle_vertices(&m, 91);
  const int max_threads = omp_get_max_threads();
  feint_mesh ref = copy_mesh(&m);
  omp_set_num_threads(1);
  CHECK_STATUS(feint_mesh_renumber(&ref, 3, NULL, NULL), FEINT_SUCCESS, NULL);
  for (int nt = 2; nt <= 3; nt++) {
    feint_mesh r = copy_mesh(&m);
    omp_set_num_threads(nt);
    CHECK_STATUS(feint_mesh_renumber(&r, 3, NULL, NULL), FEINT_SUCCESS, NULL);
    CHECK(memcmp(r.coords, ref.coords, m.num_vertices * 3 * sizeof(double)) == 0 &&
              memcmp(r.conn, ref.conn, m.num_elem * 4 * sizeof(uint32_t)) == 0,
          "%d threads renumber differently from one", nt);
    free_copy(&r);
  }
  omp_set_num_threads(max_threads);
  free_copy(&ref);
  feint_mesh_destroy(&m);
#endif
}

int main(void) {
  check_hilbert_curve();
  check_thread_counts();
  for (int el = 0; el < FEINT_ELEMENT_COUNT; el++) check_extreme_scales((feint_element)el);
  for (int el = 0; el < FEINT_ELEMENT_COUNT; el++)
    for (unsigned what = 0; what <= 3; what++) check_renumber((feint_element)el, what);
  check_errors();
  return test_finish("t605_mesh_renumber");
}
