/*
 * mesh/msh_read.c - Gmsh MSH 4.1 reader (ASCII and binary, either byte
 * order): feint_mesh_read_msh (a file) and feint_mesh_read_msh_buffer (bytes
 * in memory; the fuzz target's entry point).
 *
 * The whole file is read into memory, NUL-terminated, and parsed front to
 * back by one cursor (msh_reader).  Sections: $MeshFormat (first; version
 * 4.1, file type 0 ASCII / 1 binary, data size 4 or 8 = bytes of a size_t
 * field; binary files follow the line with the int 1, whose bytes tell the
 * byte order), $PhysicalNames (validated, names not kept), $Entities (the
 * physical tags of each point/curve/surface/volume), $Nodes, $Elements; any
 * other section is skipped to its $End line.  In a binary file $Entities,
 * $Nodes and $Elements hold raw numbers ("int" 4 bytes, "size_t" data-size
 * bytes, "double" 8 bytes); the section lines and $PhysicalNames stay text.
 *
 * Every count read from the file is first compared with the bytes left, so
 * a corrupt count fails as FEINT_ERR_FORMAT before anything is allocated
 * for it; all temporary arrays hang off one msh_parse struct, freed on every
 * path.  Error positions: "line N" in ASCII files, "byte offset N" in binary
 * ones (their lines mean nothing).
 */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mesh/mesh_internal.h"

/* ---- Gmsh element types 1..19 (Gmsh manual, "MSH file format") --------- */
enum { MSH_SKIP, MSH_FACE, MSH_VOLUME, MSH_UNSUPPORTED };
typedef struct {
  int dim, num_nodes, role;
  int element; /* feint_element for MSH_VOLUME */
  const char *name;
} msh_type;
#define MSH_MAX_TYPE 19
static const msh_type msh_types[MSH_MAX_TYPE + 1] = {
    [1] = {1, 2, MSH_SKIP, -1, "2-node line"},
    [2] = {2, 3, MSH_FACE, -1, "3-node triangle"},
    [3] = {2, 4, MSH_FACE, -1, "4-node quadrangle"},
    [4] = {3, 4, MSH_VOLUME, FEINT_TET4, "4-node tetrahedron"},
    [5] = {3, 8, MSH_VOLUME, FEINT_HEX8, "8-node hexahedron"},
    [6] = {3, 6, MSH_VOLUME, FEINT_PRISM6, "6-node prism"},
    [7] = {3, 5, MSH_UNSUPPORTED, -1, "5-node pyramid"},
    [8] = {1, 3, MSH_SKIP, -1, "3-node line"},
    [9] = {2, 6, MSH_UNSUPPORTED, -1, "6-node triangle"},
    [10] = {2, 9, MSH_UNSUPPORTED, -1, "9-node quadrangle"},
    [11] = {3, 10, MSH_UNSUPPORTED, -1, "10-node tetrahedron"},
    [12] = {3, 27, MSH_UNSUPPORTED, -1, "27-node hexahedron"},
    [13] = {3, 18, MSH_UNSUPPORTED, -1, "18-node prism"},
    [14] = {3, 14, MSH_UNSUPPORTED, -1, "14-node pyramid"},
    [15] = {0, 1, MSH_SKIP, -1, "1-node point"},
    [16] = {2, 8, MSH_UNSUPPORTED, -1, "8-node quadrangle"},
    [17] = {3, 20, MSH_UNSUPPORTED, -1, "20-node hexahedron"},
    [18] = {3, 15, MSH_UNSUPPORTED, -1, "15-node prism"},
    [19] = {3, 13, MSH_UNSUPPORTED, -1, "13-node pyramid"},
};

/* ---- the cursor ---------------------------------------------------------- */
typedef struct {
  const char *name; /* file name for messages */
  const char *buf;  /* NUL-terminated, len bytes before the NUL */
  size_t len, pos;
  size_t tok;       /* start of the item being read (error position) */
  int binary, swap; /* binary numbers in this section; byte-swapped */
  int binary_file;  /* positions as byte offsets */
  int size_bytes;   /* bytes of a binary size_t field (4 or 8) */
} msh_reader;

/* Position `at` of the file as its messages name it: "line N" in an ASCII
 * file, "byte offset N" in a binary one. */
static void msh_where(const msh_reader *r, size_t at, char *where, size_t size) {
  if (at > r->len) at = r->len;
  if (r->binary_file) {
    snprintf(where, size, "byte offset %zu", at);
    return;
  }
  size_t line = 1;
  for (size_t i = 0; i < at; i++) line += r->buf[i] == '\n';
  snprintf(where, size, "line %zu", line);
}

static feint_status msh_fail(const msh_reader *r, feint_status status, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static feint_status msh_fail(const msh_reader *r, feint_status status, const char *fmt, ...) {
  char msg[300], where[64];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  msh_where(r, r->tok, where, sizeof where);
  return feint_error_set(status, "feint_mesh_read_msh", __FILE__, __LINE__, "%s: %s: %s", r->name,
                         where, msg);
}
#define MSH_CHECK(r, cond, status, ...)                  \
  do {                                                   \
    if (!(cond)) return msh_fail((r), (status), __VA_ARGS__); \
  } while (0)

static int is_space(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; }

static void skip_space(msh_reader *r) {
  while (r->pos < r->len && is_space(r->buf[r->pos])) r->pos++;
}

/* Next whitespace-delimited word (at most cap-1 characters kept). */
static feint_status read_word(msh_reader *r, char *word, size_t cap, const char *what) {
  skip_space(r);
  r->tok = r->pos;
  MSH_CHECK(r, r->pos < r->len, FEINT_ERR_FORMAT, "unexpected end of file; expected %s", what);
  size_t n = 0;
  while (r->pos < r->len && !is_space(r->buf[r->pos])) {
    if (n + 1 < cap) word[n++] = r->buf[r->pos];
    r->pos++;
  }
  word[n] = '\0';
  return FEINT_SUCCESS;
}

static feint_status expect_word(msh_reader *r, const char *expected) {
  char word[64];
  FEINT_CALL(read_word(r, word, sizeof word, expected));
  MSH_CHECK(r, strcmp(word, expected) == 0, FEINT_ERR_FORMAT, "expected %s, found '%s'", expected,
            word);
  return FEINT_SUCCESS;
}

/* A text integer in [lo, hi]. */
static feint_status text_int(msh_reader *r, long long lo, long long hi, long long *v,
                             const char *what) {
  skip_space(r);
  r->tok = r->pos;
  MSH_CHECK(r, r->pos < r->len, FEINT_ERR_FORMAT, "unexpected end of file; expected %s", what);
  int neg = 0;
  if (r->buf[r->pos] == '-' || r->buf[r->pos] == '+') neg = r->buf[r->pos++] == '-';
  unsigned long long x = 0;
  int digits = 0, overflow = 0;
  while (r->pos < r->len && r->buf[r->pos] >= '0' && r->buf[r->pos] <= '9') {
    const unsigned d = (unsigned)(r->buf[r->pos++] - '0');
    overflow |= x > (ULLONG_MAX - d) / 10;
    x = x * 10 + d;
    digits++;
  }
  MSH_CHECK(r, digits > 0 && (r->pos == r->len || is_space(r->buf[r->pos])), FEINT_ERR_FORMAT,
            "%s is not an integer", what);
  MSH_CHECK(r, !overflow && x <= (unsigned long long)LLONG_MAX, FEINT_ERR_FORMAT,
            "%s does not fit a signed 64-bit integer (magnitude above 2^63 - 1)", what);
  const long long s = neg ? -(long long)x : (long long)x;
  MSH_CHECK(r, s >= lo && s <= hi, FEINT_ERR_FORMAT, "%s = %lld, allowed %lld..%lld", what, s, lo,
            hi);
  *v = s;
  return FEINT_SUCCESS;
}

static uint32_t bswap32(uint32_t x) { return __builtin_bswap32(x); }
static uint64_t bswap64(uint64_t x) { return __builtin_bswap64(x); }

/* `bytes` raw bytes of a binary number, byte-swapped if needed. */
static feint_status binary_u64(msh_reader *r, int bytes, uint64_t *v, const char *what) {
  r->tok = r->pos;
  MSH_CHECK(r, r->len - r->pos >= (size_t)bytes, FEINT_ERR_FORMAT,
            "unexpected end of file; expected %s (%d bytes)", what, bytes);
  if (bytes == 4) {
    uint32_t x;
    memcpy(&x, r->buf + r->pos, 4);
    *v = r->swap ? bswap32(x) : x;
  } else {
    uint64_t x;
    memcpy(&x, r->buf + r->pos, 8);
    *v = r->swap ? bswap64(x) : x;
  }
  r->pos += (size_t)bytes;
  return FEINT_SUCCESS;
}

/* An "int" field of the format (text, or 4 binary bytes), in [lo, hi]. */
static feint_status get_int(msh_reader *r, long long lo, long long hi, long long *v,
                            const char *what) {
  if (!r->binary) return text_int(r, lo, hi, v, what);
  uint64_t x = 0;
  FEINT_CALL(binary_u64(r, 4, &x, what));
  const long long s = (int32_t)(uint32_t)x;
  MSH_CHECK(r, s >= lo && s <= hi, FEINT_ERR_FORMAT, "%s = %lld, allowed %lld..%lld", what, s, lo,
            hi);
  *v = s;
  return FEINT_SUCCESS;
}

/* A "size_t" field (text, or data-size binary bytes), at most hi. */
static feint_status get_size(msh_reader *r, uint64_t hi, uint64_t *v, const char *what) {
  if (!r->binary) {
    long long s;
    FEINT_CALL(text_int(r, 0, LLONG_MAX, &s, what));
    MSH_CHECK(r, (uint64_t)s <= hi, FEINT_ERR_FORMAT, "%s = %lld exceeds %llu", what, s,
              (unsigned long long)hi);
    *v = (uint64_t)s;
    return FEINT_SUCCESS;
  }
  FEINT_CALL(binary_u64(r, r->size_bytes, v, what));
  MSH_CHECK(r, *v <= hi, FEINT_ERR_FORMAT, "%s = %llu exceeds %llu", what,
            (unsigned long long)*v, (unsigned long long)hi);
  return FEINT_SUCCESS;
}

/* A "double" field. */
static feint_status get_double(msh_reader *r, double *v, const char *what) {
  if (r->binary) {
    uint64_t x = 0;
    FEINT_CALL(binary_u64(r, 8, &x, what));
    memcpy(v, &x, 8);
    return FEINT_SUCCESS;
  }
  skip_space(r);
  r->tok = r->pos;
  MSH_CHECK(r, r->pos < r->len, FEINT_ERR_FORMAT, "unexpected end of file; expected %s", what);
  char *end;
  *v = strtod(r->buf + r->pos, &end); /* stops at the terminating NUL at the latest */
  const size_t used = (size_t)(end - (r->buf + r->pos));
  MSH_CHECK(r, used > 0 && (r->pos + used == r->len || is_space(r->buf[r->pos + used])),
            FEINT_ERR_FORMAT, "%s is not a number", what);
  r->pos += used;
  return FEINT_SUCCESS;
}

/* A count of items that each take at least min_bytes of the rest of the
 * file: larger counts are corrupt (and would allocate without bound). */
static feint_status check_count(msh_reader *r, uint64_t count, size_t min_bytes, const char *what) {
  const size_t left = r->len - r->pos;
  MSH_CHECK(r, count <= left / min_bytes, FEINT_ERR_FORMAT,
            "%s = %llu cannot fit in the %zu bytes left in the file (truncated or corrupt)", what,
            (unsigned long long)count, left);
  return FEINT_SUCCESS;
}

/* Bytes an item of n "int"/"size_t"/"double" fields takes at least: in a
 * text file each number has a digit and a separator. */
static size_t min_bytes(const msh_reader *r, size_t ints, size_t sizes, size_t doubles) {
  if (!r->binary) return 2 * (ints + sizes + doubles);
  return 4 * ints + (size_t)r->size_bytes * sizes + 8 * doubles;
}

/* ---- parse state ---------------------------------------------------------- */
typedef struct {
  int32_t entity, phys; /* entity tag, its first physical tag (0: none) */
} msh_entity;

typedef struct {
  uint64_t tag;
  size_t index;
} msh_tag_index;

typedef struct {
  int have_entities, have_nodes, have_elements, have_names;
  msh_entity *ents[4]; /* by dimension, sorted by entity tag */
  size_t num_ents[4];
  /* nodes, in file order */
  size_t num_nodes;
  uint64_t *node_tags, min_tag;
  double *node_xyz;
  int contiguous;       /* node_tags[i] == min_tag + i */
  msh_tag_index *sorted; /* (tag, index) sorted by tag (non-contiguous tags) */
  /* elements (node indices into the file's nodes) and faces */
  int element;          /* feint_element of the 3-D elements, -1 none yet */
  size_t vol_block_at;  /* where the first 3-D block began (for messages) */
  uint32_t *conn;
  int32_t *elem_tags;
  size_t num_elem, cap_conn, cap_elem_tags;
  uint32_t *faces;
  int32_t *face_tags;
  size_t num_faces, cap_faces, cap_face_tags;
} msh_parse;

static void parse_free(msh_parse *p) {
  for (int d = 0; d < 4; d++) free(p->ents[d]);
  free(p->node_tags);
  free(p->node_xyz);
  free(p->sorted);
  free(p->conn);
  free(p->elem_tags);
  free(p->faces);
  free(p->face_tags);
}

/* Grow (realloc) an array to hold at least `need` items of `size` bytes. */
static int grow(void **array, size_t *cap, size_t need, size_t size) {
  if (need <= *cap) return 1;
  size_t cap2 = *cap ? *cap : 64;
  while (cap2 < need) cap2 = cap2 > SIZE_MAX / 2 ? need : 2 * cap2;
  if (cap2 > SIZE_MAX / size) return 0;
  void *q = realloc(*array, cap2 * size);
  if (!q) return 0;
  *array = q;
  *cap = cap2;
  return 1;
}

static int cmp_entity(const void *a, const void *b) {
  const int32_t x = ((const msh_entity *)a)->entity, y = ((const msh_entity *)b)->entity;
  return (x > y) - (x < y);
}

/* Physical tag of entity (dim, tag): its first physical tag, 0 if none or
 * if the file has no $Entities. */
static int32_t entity_phys(const msh_parse *p, int dim, int32_t tag) {
  const msh_entity key = {tag, 0};
  const msh_entity *e = p->num_ents[dim] ? bsearch(&key, p->ents[dim], p->num_ents[dim],
                                                   sizeof key, cmp_entity)
                                         : NULL;
  return e ? e->phys : 0;
}

/* ---- sections ------------------------------------------------------------- */
static feint_status parse_format(msh_reader *r) {
  char word[64];
  skip_space(r);
  r->tok = r->pos;
  MSH_CHECK(r, r->len - r->pos >= 11 && memcmp(r->buf + r->pos, "$MeshFormat", 11) == 0,
            FEINT_ERR_FORMAT, "not a Gmsh mesh file: it does not start with $MeshFormat");
  FEINT_CALL(expect_word(r, "$MeshFormat"));
  FEINT_CALL(read_word(r, word, sizeof word, "the format version"));
  MSH_CHECK(r, strcmp(word, "4.1") == 0, FEINT_ERR_UNSUPPORTED,
            "MSH format version %s; only 4.1 is read (Gmsh: -format msh41)", word);
  long long type, size;
  FEINT_CALL(text_int(r, 0, 1, &type, "the file type (0 ASCII, 1 binary)"));
  FEINT_CALL(text_int(r, 4, 8, &size, "the data size"));
  MSH_CHECK(r, size == 4 || size == 8, FEINT_ERR_FORMAT, "data size = %lld, allowed 4 or 8", size);
  r->size_bytes = (int)size;
  if (type == 1) {
    /* the rest of the line, then the int 1 in the writer's byte order */
    while (r->pos < r->len && r->buf[r->pos] != '\n') r->pos++;
    r->pos++;
    r->binary = r->binary_file = 1;
    r->tok = r->pos;
    MSH_CHECK(r, r->pos <= r->len && r->len - r->pos >= 4, FEINT_ERR_FORMAT,
              "unexpected end of file; expected the binary byte-order int 1");
    uint32_t one;
    memcpy(&one, r->buf + r->pos, 4);
    MSH_CHECK(r, one == 1 || bswap32(one) == 1, FEINT_ERR_FORMAT,
              "byte-order int is 0x%08x: neither 1 in this machine's byte order nor in the "
              "other one (wrong byte order or corrupt header)",
              (unsigned)one);
    r->swap = one != 1;
    r->pos += 4;
  }
  return expect_word(r, "$EndMeshFormat");
}

/* $PhysicalNames (always text): count, then "dim tag \"name\"" lines. */
static feint_status parse_names(msh_reader *r, msh_parse *p) {
  MSH_CHECK(r, !p->have_names, FEINT_ERR_FORMAT, "second $PhysicalNames section");
  p->have_names = 1;
  const int binary = r->binary;
  r->binary = 0;
  long long count;
  feint_status st = text_int(r, 0, LLONG_MAX, &count, "the number of physical names");
  if (st == FEINT_SUCCESS) st = check_count(r, (uint64_t)count, 8, "the number of physical names");
  for (long long i = 0; st == FEINT_SUCCESS && i < count; i++) {
    long long dim, tag;
    st = text_int(r, 0, 3, &dim, "a physical name's dimension");
    if (st == FEINT_SUCCESS) st = text_int(r, INT32_MIN, INT32_MAX, &tag, "a physical tag");
    if (st != FEINT_SUCCESS) break;
    skip_space(r);
    r->tok = r->pos;
    if (r->pos >= r->len || r->buf[r->pos] != '"') {
      st = msh_fail(r, FEINT_ERR_FORMAT, "physical name %lld does not start with '\"'", i);
      break;
    }
    const char *close = memchr(r->buf + r->pos + 1, '"', r->len - r->pos - 1);
    const char *eol = memchr(r->buf + r->pos + 1, '\n', r->len - r->pos - 1);
    if (!close || (eol && eol < close)) {
      st = msh_fail(r, FEINT_ERR_FORMAT, "physical name %lld has no closing '\"' on its line", i);
      break;
    }
    r->pos = (size_t)(close - r->buf) + 1;
  }
  if (st == FEINT_SUCCESS) st = expect_word(r, "$EndPhysicalNames");
  r->binary = binary;
  return st;
}

/* $Entities: numPoints numCurves numSurfaces numVolumes, then per entity
 * tag, (point: x y z | other: 6 bounding-box doubles), numPhysicalTags,
 * physical tags, (not points: numBounding, bounding tags). */
static feint_status parse_entities(msh_reader *r, msh_parse *p) {
  MSH_CHECK(r, !p->have_entities, FEINT_ERR_FORMAT, "second $Entities section");
  /* the elements' physical tags are looked up in the entities as the
   * elements are read; Gmsh writes $Entities before $Nodes and $Elements */
  MSH_CHECK(r, !p->have_elements, FEINT_ERR_FORMAT,
            "$Entities after $Elements (the elements' physical tags come from the entities, "
            "which must come first)");
  p->have_entities = 1;
  uint64_t num[4];
  for (int d = 0; d < 4; d++)
    FEINT_CALL(get_size(r, SIZE_MAX, &num[d], "an entity count"));
  for (int d = 0; d < 4; d++) {
    const size_t per = min_bytes(r, 1, 1, d == 0 ? 3 : 6) + (d ? min_bytes(r, 0, 1, 0) : 0);
    FEINT_CALL(check_count(r, num[d], per, "an entity count"));
    p->ents[d] = malloc((num[d] ? num[d] : 1) * sizeof *p->ents[d]);
    MSH_CHECK(r, p->ents[d] != NULL, FEINT_ERR_ALLOC, "cannot allocate %llu entities",
              (unsigned long long)num[d]);
    for (uint64_t i = 0; i < num[d]; i++) {
      long long tag, v;
      double x;
      uint64_t nphys, nbound;
      FEINT_CALL(get_int(r, INT32_MIN, INT32_MAX, &tag, "an entity tag"));
      for (int k = 0; k < (d == 0 ? 3 : 6); k++) FEINT_CALL(get_double(r, &x, "an entity coordinate"));
      FEINT_CALL(get_size(r, SIZE_MAX, &nphys, "an entity's number of physical tags"));
      FEINT_CALL(check_count(r, nphys, min_bytes(r, 1, 0, 0), "an entity's number of physical tags"));
      int32_t phys = 0;
      for (uint64_t k = 0; k < nphys; k++) {
        FEINT_CALL(get_int(r, INT32_MIN, INT32_MAX, &v, "a physical tag"));
        if (k == 0) phys = (int32_t)v;
      }
      if (d > 0) {
        FEINT_CALL(get_size(r, SIZE_MAX, &nbound, "an entity's number of bounding entities"));
        FEINT_CALL(check_count(r, nbound, min_bytes(r, 1, 0, 0), "a number of bounding entities"));
        for (uint64_t k = 0; k < nbound; k++)
          FEINT_CALL(get_int(r, INT32_MIN, INT32_MAX, &v, "a bounding entity tag"));
      }
      p->ents[d][i] = (msh_entity){(int32_t)tag, phys};
    }
    p->num_ents[d] = (size_t)num[d];
    qsort(p->ents[d], p->num_ents[d], sizeof *p->ents[d], cmp_entity);
    for (size_t i = 1; i < p->num_ents[d]; i++)
      MSH_CHECK(r, p->ents[d][i].entity != p->ents[d][i - 1].entity, FEINT_ERR_FORMAT,
                "entity (dimension %d, tag %d) is defined twice", d, (int)p->ents[d][i].entity);
  }
  return expect_word(r, "$EndEntities");
}

static int cmp_by_tag(const void *a, const void *b) {
  const uint64_t x = ((const msh_tag_index *)a)->tag, y = ((const msh_tag_index *)b)->tag;
  return (x > y) - (x < y);
}

/* $Nodes: numEntityBlocks numNodes minNodeTag maxNodeTag, then blocks of
 * entityDim entityTag parametric numNodesInBlock, the block's node tags,
 * then its coordinates x y z (+ entityDim parametric coordinates if
 * parametric). */
static feint_status parse_nodes(msh_reader *r, msh_parse *p) {
  MSH_CHECK(r, !p->have_nodes, FEINT_ERR_FORMAT, "second $Nodes section");
  p->have_nodes = 1;
  uint64_t num_blocks, num_nodes, min_tag, max_tag;
  if (!r->binary) skip_space(r); /* binary data may start with a whitespace byte */
  const size_t header_at = r->pos;
  FEINT_CALL(get_size(r, SIZE_MAX, &num_blocks, "numEntityBlocks of $Nodes"));
  FEINT_CALL(get_size(r, SIZE_MAX, &num_nodes, "numNodes"));
  FEINT_CALL(get_size(r, SIZE_MAX, &min_tag, "minNodeTag"));
  FEINT_CALL(get_size(r, SIZE_MAX, &max_tag, "maxNodeTag"));
  FEINT_CALL(check_count(r, num_blocks, min_bytes(r, 3, 1, 0), "numEntityBlocks of $Nodes"));
  FEINT_CALL(check_count(r, num_nodes, min_bytes(r, 0, 1, 3), "numNodes"));
  MSH_CHECK(r, num_nodes < UINT32_MAX, FEINT_ERR_BAD_SIZE,
            "numNodes = %llu does not fit 32-bit vertex indices", (unsigned long long)num_nodes);
  MSH_CHECK(r, num_nodes == 0 || (min_tag >= 1 && min_tag <= max_tag), FEINT_ERR_FORMAT,
            "minNodeTag = %llu, maxNodeTag = %llu: need 1 <= min <= max",
            (unsigned long long)min_tag, (unsigned long long)max_tag);
  p->num_nodes = (size_t)num_nodes;
  p->min_tag = min_tag;
  p->node_tags = malloc((num_nodes ? num_nodes : 1) * sizeof *p->node_tags);
  p->node_xyz = malloc((num_nodes ? num_nodes : 1) * 3 * sizeof *p->node_xyz);
  MSH_CHECK(r, p->node_tags && p->node_xyz, FEINT_ERR_ALLOC, "cannot allocate %llu nodes",
            (unsigned long long)num_nodes);
  size_t count = 0;
  for (uint64_t b = 0; b < num_blocks; b++) {
    long long dim, tag, parametric;
    uint64_t n;
    FEINT_CALL(get_int(r, 0, 3, &dim, "a node block's entityDim"));
    FEINT_CALL(get_int(r, INT32_MIN, INT32_MAX, &tag, "a node block's entityTag"));
    FEINT_CALL(get_int(r, 0, 1, &parametric, "a node block's parametric flag"));
    FEINT_CALL(get_size(r, SIZE_MAX, &n, "numNodesInBlock"));
    MSH_CHECK(r, n <= num_nodes - count, FEINT_ERR_FORMAT,
              "node block %llu holds %llu nodes, more than the %zu of numNodes = %llu left",
              (unsigned long long)b, (unsigned long long)n, (size_t)num_nodes - count,
              (unsigned long long)num_nodes);
    for (uint64_t i = 0; i < n; i++) {
      uint64_t t;
      FEINT_CALL(get_size(r, SIZE_MAX, &t, "a node tag"));
      MSH_CHECK(r, t >= min_tag && t <= max_tag, FEINT_ERR_FORMAT,
                "node tag %llu outside [minNodeTag, maxNodeTag] = [%llu, %llu]",
                (unsigned long long)t, (unsigned long long)min_tag, (unsigned long long)max_tag);
      p->node_tags[count + i] = t;
    }
    const int extra = parametric ? (int)dim : 0;
    for (uint64_t i = 0; i < n; i++) {
      for (int a = 0; a < 3; a++)
        FEINT_CALL(get_double(r, &p->node_xyz[3 * (count + i) + (size_t)a], "a node coordinate"));
      for (int a = 0; a < extra; a++) {
        double u;
        FEINT_CALL(get_double(r, &u, "a parametric coordinate"));
      }
    }
    count += (size_t)n;
  }
  r->tok = header_at;
  MSH_CHECK(r, count == num_nodes, FEINT_ERR_FORMAT,
            "the node blocks hold %zu nodes, numNodes says %llu", count,
            (unsigned long long)num_nodes);
  FEINT_CALL(expect_word(r, "$EndNodes"));
  /* tag -> index: contiguous tags in order (Gmsh's usual output), else a
   * sorted index */
  p->contiguous = 1;
  for (size_t i = 0; i < count && p->contiguous; i++) p->contiguous = p->node_tags[i] == min_tag + i;
  if (!p->contiguous) {
    p->sorted = malloc(count * sizeof *p->sorted);
    MSH_CHECK(r, p->sorted != NULL, FEINT_ERR_ALLOC, "cannot allocate the node tag index");
    for (size_t i = 0; i < count; i++) p->sorted[i] = (msh_tag_index){p->node_tags[i], i};
    qsort(p->sorted, count, sizeof *p->sorted, cmp_by_tag);
    for (size_t i = 1; i < count; i++)
      MSH_CHECK(r, p->sorted[i].tag != p->sorted[i - 1].tag, FEINT_ERR_FORMAT,
                "node tag %llu appears twice in $Nodes", (unsigned long long)p->sorted[i].tag);
  }
  return FEINT_SUCCESS;
}

/* Index in $Nodes of a node tag; SIZE_MAX if absent. */
static size_t node_index(const msh_parse *p, uint64_t tag) {
  if (p->contiguous) return tag >= p->min_tag && tag - p->min_tag < p->num_nodes ? (size_t)(tag - p->min_tag) : SIZE_MAX;
  size_t lo = 0, hi = p->num_nodes;
  while (lo < hi) {
    const size_t mid = lo + (hi - lo) / 2;
    const uint64_t t = p->sorted[mid].tag;
    if (t == tag) return p->sorted[mid].index;
    if (t < tag)
      lo = mid + 1;
    else
      hi = mid;
  }
  return SIZE_MAX;
}

/* $Elements: numEntityBlocks numElements minElementTag maxElementTag, then
 * blocks of entityDim entityTag elementType numElementsInBlock, each element
 * a tag and its node tags. */
static feint_status parse_elements(msh_reader *r, msh_parse *p) {
  MSH_CHECK(r, !p->have_elements, FEINT_ERR_FORMAT, "second $Elements section");
  MSH_CHECK(r, p->have_nodes, FEINT_ERR_FORMAT, "$Elements before $Nodes");
  p->have_elements = 1;
  uint64_t num_blocks, num_elem, min_tag, max_tag;
  if (!r->binary) skip_space(r);
  const size_t header_at = r->pos;
  FEINT_CALL(get_size(r, SIZE_MAX, &num_blocks, "numEntityBlocks of $Elements"));
  FEINT_CALL(get_size(r, SIZE_MAX, &num_elem, "numElements"));
  FEINT_CALL(get_size(r, SIZE_MAX, &min_tag, "minElementTag"));
  FEINT_CALL(get_size(r, SIZE_MAX, &max_tag, "maxElementTag"));
  FEINT_CALL(check_count(r, num_blocks, min_bytes(r, 3, 1, 0), "numEntityBlocks of $Elements"));
  FEINT_CALL(check_count(r, num_elem, min_bytes(r, 0, 2, 0), "numElements"));
  uint64_t count = 0;
  for (uint64_t b = 0; b < num_blocks; b++) {
    long long dim, ent, type;
    uint64_t n;
    if (!r->binary) skip_space(r);
    const size_t block_at = r->pos;
    FEINT_CALL(get_int(r, 0, 3, &dim, "an element block's entityDim"));
    FEINT_CALL(get_int(r, INT32_MIN, INT32_MAX, &ent, "an element block's entityTag"));
    FEINT_CALL(get_int(r, INT32_MIN, INT32_MAX, &type, "an element type"));
    MSH_CHECK(r, type >= 1 && type <= MSH_MAX_TYPE, FEINT_ERR_FORMAT,
              "unknown element type %lld (known: 1..%d)", type, MSH_MAX_TYPE);
    const msh_type *t = &msh_types[type];
    MSH_CHECK(r, t->dim == dim, FEINT_ERR_FORMAT,
              "element type %lld (%s) is %d-dimensional but its block says entityDim %lld", type,
              t->name, t->dim, dim);
    MSH_CHECK(r, t->role != MSH_UNSUPPORTED, FEINT_ERR_UNSUPPORTED,
              "element type %lld (%s) is not supported (feint reads tets 4, prisms 6, hexahedra 5; "
              "triangles 2 and quadrangles 3 as boundary faces)",
              type, t->name);
    if (t->role == MSH_VOLUME) {
      if (p->element < 0) {
        p->element = t->element;
        p->vol_block_at = block_at;
      }
      if (p->element != t->element) {
        char first[64];
        msh_where(r, p->vol_block_at, first, sizeof first);
        return msh_fail(r, FEINT_ERR_UNSUPPORTED,
                        "mixed 3-D element types: %s here, %s in an earlier block (%s); feint "
                        "meshes hold one element type",
                        t->name, feint_element_name((feint_element)p->element), first);
      }
    }
    FEINT_CALL(get_size(r, SIZE_MAX, &n, "numElementsInBlock"));
    r->tok = block_at;
    MSH_CHECK(r, n <= num_elem - count, FEINT_ERR_FORMAT,
              "element block %llu holds %llu elements, more than the %llu of numElements = %llu "
              "left",
              (unsigned long long)b, (unsigned long long)n, (unsigned long long)(num_elem - count),
              (unsigned long long)num_elem);
    FEINT_CALL(check_count(r, n, min_bytes(r, 0, 1 + (size_t)t->num_nodes, 0), "numElementsInBlock"));
    const int32_t phys = entity_phys(p, (int)dim, (int32_t)ent);
    const int nn = t->num_nodes;
    uint32_t *dst = NULL;
    if (t->role == MSH_VOLUME) {
      const size_t need = p->num_elem + (size_t)n;
      MSH_CHECK(r,
                grow((void **)&p->conn, &p->cap_conn, need, (size_t)nn * sizeof *p->conn) &&
                    grow((void **)&p->elem_tags, &p->cap_elem_tags, need, sizeof *p->elem_tags),
                FEINT_ERR_ALLOC, "cannot allocate %llu more elements", (unsigned long long)n);
    } else if (t->role == MSH_FACE) {
      const size_t need = p->num_faces + (size_t)n;
      MSH_CHECK(r,
                grow((void **)&p->faces, &p->cap_faces, need, 4 * sizeof *p->faces) &&
                    grow((void **)&p->face_tags, &p->cap_face_tags, need, sizeof *p->face_tags),
                FEINT_ERR_ALLOC, "cannot allocate %llu more faces", (unsigned long long)n);
    }
    for (uint64_t i = 0; i < n; i++) {
      uint64_t etag;
      FEINT_CALL(get_size(r, SIZE_MAX, &etag, "an element tag"));
      if (t->role == MSH_VOLUME)
        dst = p->conn + p->num_elem * (size_t)nn;
      else if (t->role == MSH_FACE)
        dst = p->faces + 4 * p->num_faces;
      for (int k = 0; k < nn; k++) {
        uint64_t ntag;
        FEINT_CALL(get_size(r, SIZE_MAX, &ntag, "a node tag"));
        const size_t idx = node_index(p, ntag);
        MSH_CHECK(r, idx != SIZE_MAX, FEINT_ERR_FORMAT,
                  "element %llu: node tag %llu is not in $Nodes", (unsigned long long)etag,
                  (unsigned long long)ntag);
        if (dst) dst[k] = (uint32_t)idx;
      }
      if (t->role == MSH_VOLUME) {
        p->elem_tags[p->num_elem++] = phys;
      } else if (t->role == MSH_FACE) {
        if (nn == 3) dst[3] = FEINT_NO_VERTEX;
        p->face_tags[p->num_faces++] = phys;
      }
    }
    count += n;
  }
  r->tok = header_at;
  MSH_CHECK(r, count == num_elem, FEINT_ERR_FORMAT,
            "the element blocks hold %llu elements, numElements says %llu",
            (unsigned long long)count, (unsigned long long)num_elem);
  return expect_word(r, "$EndElements");
}

/* Skip an unknown section $Name to the line $EndName. */
static feint_status skip_section(msh_reader *r, const char *name) {
  char end[80];
  snprintf(end, sizeof end, "$End%s", name + 1);
  const size_t n = strlen(end);
  for (size_t i = r->pos; i + n <= r->len; i++)
    if (r->buf[i] == '$' && memcmp(r->buf + i, end, n) == 0 &&
        (i + n == r->len || is_space(r->buf[i + n]))) {
      r->pos = i + n;
      return FEINT_SUCCESS;
    }
  return msh_fail(r, FEINT_ERR_FORMAT, "section %s has no %s line", name, end);
}

static feint_status parse_file(msh_reader *r, msh_parse *p) {
  FEINT_CALL(parse_format(r));
  for (;;) {
    skip_space(r);
    if (r->pos >= r->len) break;
    char word[64];
    FEINT_CALL(read_word(r, word, sizeof word, "a section"));
    MSH_CHECK(r, word[0] == '$' && strncmp(word, "$End", 4) != 0 && word[1] != '\0',
              FEINT_ERR_FORMAT, "expected a section ($Name), found '%s'", word);
    /* binary data starts right after the header line's end */
    if (r->binary && r->pos < r->len && r->buf[r->pos] == '\r') r->pos++;
    if (r->binary && r->pos < r->len && r->buf[r->pos] == '\n') r->pos++;
    if (strcmp(word, "$MeshFormat") == 0)
      return msh_fail(r, FEINT_ERR_FORMAT, "second $MeshFormat section");
    else if (strcmp(word, "$PhysicalNames") == 0)
      FEINT_CALL(parse_names(r, p));
    else if (strcmp(word, "$Entities") == 0)
      FEINT_CALL(parse_entities(r, p));
    else if (strcmp(word, "$Nodes") == 0)
      FEINT_CALL(parse_nodes(r, p));
    else if (strcmp(word, "$Elements") == 0)
      FEINT_CALL(parse_elements(r, p));
    else
      FEINT_CALL(skip_section(r, word));
  }
  r->tok = r->len;
  MSH_CHECK(r, p->have_nodes, FEINT_ERR_FORMAT, "missing $Nodes section");
  MSH_CHECK(r, p->have_elements, FEINT_ERR_FORMAT, "missing $Elements section");
  MSH_CHECK(r, p->num_elem > 0, FEINT_ERR_UNSUPPORTED,
            "no 3-D elements (tetrahedra 4, prisms 6 or hexahedra 5) in the file");
  return FEINT_SUCCESS;
}

/* The mesh: the nodes used by 3-D elements or faces, in file order. */
static feint_status build_mesh(const msh_reader *r, const msh_parse *p, feint_mesh *out) {
  const int ns = feint_mesh_nodes_per_elem((feint_element)p->element);
  uint32_t *renum = malloc((p->num_nodes ? p->num_nodes : 1) * sizeof *renum);
  MSH_CHECK(r, renum != NULL, FEINT_ERR_ALLOC, "cannot allocate the vertex map");
  for (size_t i = 0; i < p->num_nodes; i++) renum[i] = FEINT_NO_VERTEX;
  for (size_t i = 0; i < p->num_elem * (size_t)ns; i++) renum[p->conn[i]] = 0;
  for (size_t i = 0; i < 4 * p->num_faces; i++)
    if (p->faces[i] != FEINT_NO_VERTEX) renum[p->faces[i]] = 0;
  size_t nv = 0;
  for (size_t i = 0; i < p->num_nodes; i++)
    if (renum[i] == 0) renum[i] = (uint32_t)nv++;
  feint_mesh m;
  feint_status st = feint_mesh_alloc((feint_element)p->element, nv, p->num_elem, 1, p->num_faces, &m);
  if (st != FEINT_SUCCESS) {
    free(renum);
    return st;
  }
  for (size_t i = 0; i < p->num_nodes; i++)
    if (renum[i] != FEINT_NO_VERTEX)
      memcpy(m.coords + 3 * (size_t)renum[i], p->node_xyz + 3 * i, 3 * sizeof(double));
  for (size_t i = 0; i < p->num_elem * (size_t)ns; i++) m.conn[i] = renum[p->conn[i]];
  memcpy(m.elem_tags, p->elem_tags, p->num_elem * sizeof *m.elem_tags);
  for (size_t i = 0; i < 4 * p->num_faces; i++)
    m.faces[i] = p->faces[i] == FEINT_NO_VERTEX ? FEINT_NO_VERTEX : renum[p->faces[i]];
  if (p->num_faces) memcpy(m.face_tags, p->face_tags, p->num_faces * sizeof *m.face_tags);
  free(renum);
  st = feint_mesh_check(&m);
  if (st != FEINT_SUCCESS) {
    feint_mesh_free(&m);
    return st;
  }
  *out = m;
  return FEINT_SUCCESS;
}

/* Parse a NUL-terminated buffer of len bytes. */
static feint_status read_buffer(const char *name, const char *buf, size_t len, feint_mesh *mesh) {
  msh_reader r = {name, buf, len, 0, 0, 0, 0, 0, 8};
  msh_parse p = {0};
  p.element = -1;
  feint_status st = parse_file(&r, &p);
  if (st == FEINT_SUCCESS) st = build_mesh(&r, &p, mesh);
  parse_free(&p);
  return st;
}

feint_status feint_mesh_read_msh_buffer(const void *data, size_t size, feint_mesh *mesh) {
  FEINT_CHECK(mesh != NULL, FEINT_ERR_NULL_ARG, "mesh is NULL");
  FEINT_CHECK(data != NULL || size == 0, FEINT_ERR_NULL_ARG, "data is NULL (size %zu)", size);
  FEINT_CHECK(size < SIZE_MAX, FEINT_ERR_BAD_SIZE, "size = %zu is too large", size);
  char *buf = malloc(size + 1);
  FEINT_CHECK(buf != NULL, FEINT_ERR_ALLOC, "cannot allocate %zu bytes for the buffer copy", size);
  if (size) memcpy(buf, data, size);
  buf[size] = '\0';
  const feint_status st = read_buffer("<buffer>", buf, size, mesh);
  free(buf);
  return st;
}

feint_status feint_mesh_read_msh(const char *path, feint_mesh *mesh) {
  FEINT_CHECK(path != NULL, FEINT_ERR_NULL_ARG, "path is NULL");
  FEINT_CHECK(mesh != NULL, FEINT_ERR_NULL_ARG, "mesh is NULL");
  FILE *f = fopen(path, "rb");
  FEINT_CHECK(f != NULL, FEINT_ERR_IO, "cannot open '%s': %s", path, strerror(errno));
  size_t len = 0, cap = 1 << 16;
  char *buf = malloc(cap);
  int ok = buf != NULL;
  while (ok) {
    if (cap - len < 2) {
      char *q = cap <= SIZE_MAX / 2 ? realloc(buf, cap * 2) : NULL;
      if (!q) {
        ok = 0;
        break;
      }
      buf = q;
      cap *= 2;
    }
    const size_t got = fread(buf + len, 1, cap - len - 1, f);
    len += got;
    if (got == 0) break;
  }
  const int read_error = ferror(f);
  fclose(f);
  if (!ok) {
    free(buf);
    FEINT_CHECK(0, FEINT_ERR_ALLOC, "cannot allocate memory to read '%s' (%zu bytes so far)", path,
                len);
  }
  if (read_error) {
    free(buf);
    FEINT_CHECK(0, FEINT_ERR_IO, "read error on '%s' after %zu bytes", path, len);
  }
  buf[len] = '\0';
  const char *base = strrchr(path, '/');
  const feint_status st = read_buffer(base ? base + 1 : path, buf, len, mesh);
  free(buf);
  return st;
}
