/* t604_msh_fixtures (range t6xx): the Gmsh reader on the committed hand-checked fixture tests/data/two_tets.msh, on binary versions of it in both byte orders written here by an independent writer, and on every class of malformed file (each prefix of the ASCII and binary files, wrong counts, unknown and unsupported element types, mixed types, missing sections, wrong byte order, node tags out of range, bad version, NaN, repeated vertices): named status, position in the message, *mesh untouched. */
#include <stdlib.h>

#include "mesh_util.h"
#include "test_util.h"

/* tests/data/ next to this file (tests run from the repository root). */
static void data_path(char *out, size_t cap, const char *name) {
  const char *file = __FILE__, *slash = strrchr(file, '/');
  snprintf(out, cap, "%.*sdata/%s", slash ? (int)(slash - file + 1) : 0, file, name);
}

static char *read_text(const char *path, size_t *len) {
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  fseek(f, 0, SEEK_END);
  const long n = ftell(f);
  fseek(f, 0, SEEK_SET);
  char *s = malloc((size_t)n + 1);
  *len = fread(s, 1, (size_t)n, f);
  s[*len] = '\0';
  fclose(f);
  return s;
}

/* ---- the fixture's content, as hand-checked ---------------------------- */
static const double fx_xyz[5][3] = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0, 0, 1}, {1, 1, 1}};
static const uint32_t fx_conn[2][4] = {{0, 1, 2, 3}, {1, 2, 3, 4}};

static void check_fixture_mesh(const feint_mesh *m, const char *what) {
  CHECK(m->element == FEINT_TET4 && m->num_vertices == 5 && m->num_elem == 2 && m->num_faces == 1,
        "%s: element %d, %zu vertices, %zu elements, %zu faces; expected tet4, 5, 2, 1", what,
        (int)m->element, m->num_vertices, m->num_elem, m->num_faces);
  if (m->num_vertices != 5 || m->num_elem != 2 || m->num_faces != 1) return;
  CHECK(memcmp(m->coords, fx_xyz, sizeof fx_xyz) == 0, "%s: coordinates differ", what);
  CHECK(memcmp(m->conn, fx_conn, sizeof fx_conn) == 0, "%s: connectivity differs", what);
  CHECK(m->elem_tags && m->elem_tags[0] == 9 && m->elem_tags[1] == 9, "%s: element tags", what);
  CHECK(m->faces[0] == 0 && m->faces[1] == 2 && m->faces[2] == 1 &&
            m->faces[3] == FEINT_NO_VERTEX && m->face_tags[0] == 4,
        "%s: face %u %u %u %u tag %d, expected 0 2 1 NO_VERTEX tag 4", what, m->faces[0],
        m->faces[1], m->faces[2], m->faces[3], m->face_tags[0]);
  CHECK(mesh_elem_volume(m, 0, NULL) == 1.0 / 6.0, "%s: volume of ABCD %.17g", what,
        mesh_elem_volume(m, 0, NULL));
  CHECK(fabs(mesh_elem_volume(m, 1, NULL) - 1.0 / 3.0) <= 4 * DBL_EPSILON, "%s: volume of BCDE %.17g",
        what, mesh_elem_volume(m, 1, NULL));
  CHECK(mesh_face_area(m, 0) == 0.5, "%s: face area %g", what, mesh_face_area(m, 0));
}

/* ---- an independent binary writer of the fixture's content -------------- */
typedef struct {
  char *p;
  size_t len, cap;
  int swap;
} wbuf;
static void put(wbuf *w, const void *src, size_t n) {
  if (w->len + n > w->cap) {
    w->cap = 2 * (w->len + n) + 256;
    w->p = realloc(w->p, w->cap);
  }
  memcpy(w->p + w->len, src, n);
  w->len += n;
}
static void put_str(wbuf *w, const char *s) { put(w, s, strlen(s)); }
static void put_raw(wbuf *w, const void *src, size_t n) {
  unsigned char b[8];
  memcpy(b, src, n);
  if (w->swap)
    for (size_t i = 0; i < n / 2; i++) {
      const unsigned char t = b[i];
      b[i] = b[n - 1 - i];
      b[n - 1 - i] = t;
    }
  put(w, b, n);
}
static void put_int(wbuf *w, int32_t v) { put_raw(w, &v, 4); }
static void put_size(wbuf *w, uint64_t v) { put_raw(w, &v, 8); }
static void put_dbl(wbuf *w, double v) { put_raw(w, &v, 8); }

/* The fixture in binary MSH 4.1; swap: the other byte order; marker: the
 * byte-order int. */
static wbuf write_binary(int swap, int32_t marker) {
  wbuf w = {NULL, 0, 0, swap};
  put_str(&w, "$MeshFormat\n4.1 1 8\n");
  put_int(&w, marker);
  put_str(&w, "\n$EndMeshFormat\n$PhysicalNames\n2\n2 4 \"base\"\n3 9 \"body\"\n$EndPhysicalNames\n");
  put_str(&w, "$Entities\n");
  put_size(&w, 1), put_size(&w, 0), put_size(&w, 1), put_size(&w, 1);
  put_int(&w, 7), put_dbl(&w, 0), put_dbl(&w, 0), put_dbl(&w, 0), put_size(&w, 0);
  const int32_t ent_tag[2] = {3, 2}, ent_phys[2] = {4, 9};
  for (int e = 0; e < 2; e++) {
    put_int(&w, ent_tag[e]);
    for (int k = 0; k < 6; k++) put_dbl(&w, k >= 3 && (k < 5 || e == 1) ? 1.0 : 0.0);
    put_size(&w, 1), put_int(&w, ent_phys[e]), put_size(&w, 0);
  }
  put_str(&w, "\n$EndEntities\n$Nodes\n");
  put_size(&w, 3), put_size(&w, 6), put_size(&w, 10), put_size(&w, 99);
  put_int(&w, 0), put_int(&w, 7), put_int(&w, 0), put_size(&w, 1);
  put_size(&w, 99), put_dbl(&w, 5), put_dbl(&w, 5), put_dbl(&w, 5);
  put_int(&w, 2), put_int(&w, 3), put_int(&w, 1), put_size(&w, 3);
  for (int i = 0; i < 3; i++) put_size(&w, 10 * (uint64_t)(i + 1));
  for (int i = 0; i < 3; i++) {
    for (int a = 0; a < 3; a++) put_dbl(&w, fx_xyz[i][a]);
    put_dbl(&w, 0.25 * i), put_dbl(&w, 0.5 * i); /* u v */
  }
  put_int(&w, 3), put_int(&w, 2), put_int(&w, 0), put_size(&w, 2);
  put_size(&w, 40), put_size(&w, 50);
  for (int i = 3; i < 5; i++)
    for (int a = 0; a < 3; a++) put_dbl(&w, fx_xyz[i][a]);
  put_str(&w, "\n$EndNodes\n$Elements\n");
  put_size(&w, 3), put_size(&w, 4), put_size(&w, 1), put_size(&w, 4);
  put_int(&w, 0), put_int(&w, 7), put_int(&w, 15), put_size(&w, 1);
  put_size(&w, 1), put_size(&w, 99);
  put_int(&w, 2), put_int(&w, 3), put_int(&w, 2), put_size(&w, 1);
  put_size(&w, 2), put_size(&w, 10), put_size(&w, 30), put_size(&w, 20);
  put_int(&w, 3), put_int(&w, 2), put_int(&w, 4), put_size(&w, 2);
  put_size(&w, 3);
  for (int n = 0; n < 4; n++) put_size(&w, 10 * (uint64_t)(fx_conn[0][n] + 1));
  put_size(&w, 4);
  for (int n = 0; n < 4; n++) put_size(&w, 10 * (uint64_t)(fx_conn[1][n] + 1));
  put_str(&w, "\n$EndElements\n");
  return w;
}

/* ---- malformed variants ----------------------------------------------------- */
/* text with the first occurrence of `from` replaced by `to` (caller frees) */
static char *replace(const char *text, const char *from, const char *to) {
  const char *at = strstr(text, from);
  if (!at) {
    TEST_FAIL("fixture lacks \"%s\"", from);
    at = text + strlen(text);
    from = "";
  }
  const size_t n = strlen(text) - strlen(from) + strlen(to) + 1;
  char *s = malloc(n);
  snprintf(s, n, "%.*s%s%s", (int)(at - text), text, to, at + strlen(from));
  return s;
}

/* line number (1-based) of the first occurrence of `what` in text */
static int line_of(const char *text, const char *what) {
  const char *at = strstr(text, what);
  int line = 1;
  for (const char *c = text; at && c < at; c++) line += *c == '\n';
  return line;
}

/* Read `text`; expect `status` and the message substrings; *mesh untouched. */
static void expect_error(const char *text, size_t len, feint_status status, const char *sub1,
                         const char *sub2, const char *what) {
  feint_mesh m, before;
  memset(&m, 0x5a, sizeof m);
  before = m;
  const feint_status st = feint_mesh_read_msh_buffer(text, len, &m);
  if (st != status)
    TEST_FAIL("%s: status %d (%s), expected %d; message: %s", what, (int)st,
              feint_status_string(st), (int)status, feint_last_error());
  else {
    CHECK(test_error_has(sub1), "%s: message \"%s\" lacks \"%s\"", what, feint_last_error(), sub1);
    CHECK(test_error_has(sub2), "%s: message \"%s\" lacks \"%s\"", what, feint_last_error(), sub2);
  }
  if (st == FEINT_SUCCESS)
    feint_mesh_destroy(&m);
  else
    CHECK(memcmp(&m, &before, sizeof m) == 0, "%s: *mesh written on an error path", what);
}

/* line: the line the message must name (hand-checked in two_tets.msh), 0
 * for errors found after parsing (by feint_mesh_check: no line). */
static void expect_text_error(const char *fixture, const char *from, const char *to,
                              feint_status status, const char *sub, int line_no,
                              const char *what) {
  char *s = replace(fixture, from, to);
  char line[32] = "";
  if (line_no) snprintf(line, sizeof line, "line %d:", line_no);
  expect_error(s, strlen(s), status, sub, line, what);
  free(s);
}

static void check_malformed(const char *fx) {
  expect_text_error(fx, "3 6 10 99", "3 7 10 99", FEINT_ERR_FORMAT, "numNodes says 7",
                    25,
                    "numNodes too large");
  expect_text_error(fx, "3 4 1 4", "3 5 1 4", FEINT_ERR_FORMAT, "numElements says 5",
                    43,
                    "numElements too large");
  expect_text_error(fx, "3 4 1 4", "3 3 1 4", FEINT_ERR_FORMAT, "more than the",
                    48,
                    "numElements too small");
  expect_text_error(fx, "3 2 4 2", "3 2 99 2", FEINT_ERR_FORMAT, "unknown element type 99",
                    48,
                    "unknown element type");
  expect_text_error(fx, "3 2 4 2", "3 2 7 2", FEINT_ERR_UNSUPPORTED, "5-node pyramid", 48,
                    "pyramid");
  expect_text_error(fx, "3 2 4 2", "3 2 11 2", FEINT_ERR_UNSUPPORTED, "10-node tetrahedron", 48,
                    "second-order tetrahedron");
  expect_text_error(fx, "3 2 4 2", "2 2 4 2", FEINT_ERR_FORMAT, "entityDim 2",
                    48,
                    "element dimension mismatch");
  expect_text_error(fx, "\n40\n50\n", "\n40\n100\n", FEINT_ERR_FORMAT,
                    "node tag 100 outside [minNodeTag, maxNodeTag] = [10, 99]", 38,
                    "node tag > max");
  expect_text_error(fx, "\n40\n50\n", "\n40\n40\n", FEINT_ERR_FORMAT, "node tag 40 appears twice",
                    41,
                    "duplicate node tag");
  expect_text_error(fx, "4 20 30 40 50", "4 20 30 40 35", FEINT_ERR_FORMAT,
                    "element 4: node tag 35 is not in $Nodes", 50,
                    "element node tag not in $Nodes");
  expect_text_error(fx, "4 20 30 40 50", "4 20 30 40 30", FEINT_ERR_DEGENERATE,
                    "element 1 repeats vertex", 0,
                    "repeated vertex");
  expect_text_error(fx, "4.1 0 8", "2.2 0 8", FEINT_ERR_UNSUPPORTED, "version 2.2", 2,
                    "version 2.2");
  expect_text_error(fx, "4.1 0 8", "4.1 0 6", FEINT_ERR_FORMAT, "data size", 2,
                    "data size 6");
  expect_text_error(fx, "1 1 1\n$EndNodes", "1 nan 1\n$EndNodes", FEINT_ERR_NOT_FINITE,
                    "vertex 4 has coordinate y = nan", 0,
                    "NaN coordinate");
  expect_text_error(fx, "1 1 1\n$EndNodes", "1 1x 1\n$EndNodes", FEINT_ERR_FORMAT,
                    "a node coordinate is not a number", 40,
                    "bad number");
  expect_text_error(fx, "0 1 0 0 1", "0 1 0 0 1 7", FEINT_ERR_FORMAT, "", 35,
                    "extra value in a block");
  expect_text_error(fx, "$EndNodes", "$EndNode", FEINT_ERR_FORMAT, "expected $EndNodes",
                    41,
                    "misspelt $EndNodes");
  expect_text_error(fx, "3 0 0 0 1 1 0 1 4 0", "3 0 0 0 1 1 0 99999999999 4 0", FEINT_ERR_FORMAT,
                    "cannot fit", 21,
                    "huge physical tag count");
  expect_text_error(fx, "$MeshFormat", "$MeshFormot", FEINT_ERR_FORMAT, "not a Gmsh",
                    1,
                    "not a mesh file");
  /* a second 3-D type: the tet block followed by a prism block */
  {
    char *s = replace(fx, "3 4 1 4", "4 5 1 5");
    char *t = replace(s, "4 20 30 40 50\n", "4 20 30 40 50\n3 2 6 1\n5 10 20 30 40 50 99\n");
    char line[32], first[48];
    snprintf(line, sizeof line, "line %d:", line_of(fx, "$EndElements"));
    expect_error(t, strlen(t), FEINT_ERR_UNSUPPORTED, "mixed 3-D element types", line,
                 "mixed tets and prisms");
    /* the earlier block by its line too (an ASCII file has no byte offsets) */
    snprintf(first, sizeof first, "in an earlier block (line %d)", line_of(fx, "3 2 4 2"));
    expect_error(t, strlen(t), FEINT_ERR_UNSUPPORTED, "mixed 3-D element types", first,
                 "mixed tets and prisms: the first block");
    free(s);
    free(t);
  }
  /* $Entities after $Elements: the elements' physical tags would be lost
   * (every tag 0, once, without a word) */
  {
    const char *a = strstr(fx, "$Entities"), *b = strstr(fx, "$EndEntities\n");
    if (a == NULL || b == NULL) {
      TEST_FAIL("fixture lacks $Entities");
    } else {
      b += strlen("$EndEntities\n");
      const size_t n = strlen(fx) + 1;
      char *s = malloc(n);
      snprintf(s, n, "%.*s%s%.*s", (int)(a - fx), fx, b, (int)(b - a), a);
      char line[32];
      snprintf(line, sizeof line, "line %d:", line_of(s, "$Entities"));
      expect_error(s, strlen(s), FEINT_ERR_FORMAT, "$Entities after $Elements", line,
                   "$Entities last");
      free(s);
    }
  }
  /* missing sections, no 3-D elements */
  {
    const char *a = strstr(fx, "$Nodes"), *b = strstr(fx, "$EndElements\n");
    const size_t head = (size_t)(a - fx);
    char *s = malloc(strlen(fx) + 1);
    snprintf(s, strlen(fx) + 1, "%.*s", (int)head, fx);
    expect_error(s, strlen(s), FEINT_ERR_FORMAT, "missing $Nodes section", "line", "no $Nodes");
    const char *e = strstr(fx, "$Elements");
    snprintf(s, strlen(fx) + 1, "%.*s", (int)(e - fx), fx);
    expect_error(s, strlen(s), FEINT_ERR_FORMAT, "missing $Elements section", "line",
                 "no $Elements");
    snprintf(s, strlen(fx) + 1, "%.*s%s", (int)head, fx, e);
    expect_error(s, strlen(s), FEINT_ERR_FORMAT, "$Elements before $Nodes", "line",
                 "$Elements without $Nodes");
    free(s);
    char *t = replace(fx, "3 4 1 4\n", "2 2 1 2\n");
    char *u = replace(t, "3 2 4 2\n3 10 20 30 40\n4 20 30 40 50\n", "");
    expect_error(u, strlen(u), FEINT_ERR_UNSUPPORTED, "no 3-D elements", "", "no 3-D elements");
    free(t);
    free(u);
    (void)b;
  }
  /* every prefix of the file that ends before $EndElements is an error */
  const size_t full = strlen(fx), last = (size_t)(strstr(fx, "$EndElements") - fx) + 11;
  for (size_t n = 0; n < last; n++) {
    feint_mesh m;
    const feint_status st = feint_mesh_read_msh_buffer(fx, n, &m);
    if (st == FEINT_SUCCESS) {
      TEST_FAIL("ASCII prefix of %zu of %zu bytes read as a mesh", n, full);
      feint_mesh_destroy(&m);
    } else
      CHECK(st == FEINT_ERR_FORMAT || st == FEINT_ERR_UNSUPPORTED,
            "ASCII prefix of %zu bytes: status %d (%s)", n, (int)st, feint_last_error());
  }
}

static void check_binary(void) {
  for (int swap = 0; swap < 2; swap++) {
    wbuf w = write_binary(swap, 1);
    feint_mesh m;
    CHECK_STATUS(feint_mesh_read_msh_buffer(w.p, w.len, &m), FEINT_SUCCESS, NULL);
    if (m.num_elem) check_fixture_mesh(&m, swap ? "binary, swapped byte order" : "binary");
    feint_mesh_destroy(&m);
    /* every truncation fails with a byte offset */
    const size_t last = w.len - strlen("\n$EndElements\n") + 12;
    for (size_t n = 0; n < last; n++) {
      const feint_status st = feint_mesh_read_msh_buffer(w.p, n, &m);
      if (st == FEINT_SUCCESS) {
        TEST_FAIL("binary prefix of %zu of %zu bytes read as a mesh", n, w.len);
        feint_mesh_destroy(&m);
      } else if (n > 24) /* past the byte-order int */
        CHECK(st == FEINT_ERR_FORMAT && test_error_has("byte offset"),
              "binary prefix of %zu bytes: status %d, message %s", n, (int)st, feint_last_error());
    }
    free(w.p);
  }
  /* a byte-order int that is 1 in neither order */
  wbuf w = write_binary(0, 2);
  expect_error(w.p, w.len, FEINT_ERR_FORMAT, "byte-order int is 0x00000002", "byte offset 20",
               "wrong byte order");
  free(w.p);
  w = write_binary(0, 0x01000100);
  expect_error(w.p, w.len, FEINT_ERR_FORMAT, "neither 1", "byte offset", "garbled byte order");
  free(w.p);
}

int main(void) {
  char path[512];
  data_path(path, sizeof path, "two_tets.msh");
  size_t len = 0;
  char *fx = read_text(path, &len);
  if (!fx) {
    fprintf(stderr, "t604: cannot read %s\n", path);
    return 1;
  }
  feint_mesh m;
  CHECK_STATUS(feint_mesh_read_msh(path, &m), FEINT_SUCCESS, NULL);
  if (m.num_elem) check_fixture_mesh(&m, "two_tets.msh");
  feint_mesh_destroy(&m);
  CHECK_STATUS(feint_mesh_read_msh_buffer(fx, len, &m), FEINT_SUCCESS, NULL);
  if (m.num_elem) check_fixture_mesh(&m, "two_tets.msh from a buffer");
  feint_mesh_destroy(&m);
  check_malformed(fx);
  check_binary();
  /* files and arguments */
  CHECK_STATUS(feint_mesh_read_msh("/nonexistent/feint.msh", &m), FEINT_ERR_IO,
               "cannot open '/nonexistent/feint.msh'");
  CHECK_STATUS(feint_mesh_read_msh(NULL, &m), FEINT_ERR_NULL_ARG, "path");
  CHECK_STATUS(feint_mesh_read_msh(path, NULL), FEINT_ERR_NULL_ARG, "mesh");
  CHECK_STATUS(feint_mesh_read_msh_buffer(NULL, 5, &m), FEINT_ERR_NULL_ARG, "data");
  CHECK_STATUS(feint_mesh_read_msh_buffer(fx, len, NULL), FEINT_ERR_NULL_ARG, "mesh");
  CHECK_STATUS(feint_mesh_read_msh_buffer("", 0, &m), FEINT_ERR_FORMAT, "not a Gmsh");
  free(fx);
  return test_finish("t604_msh_fixtures");
}
