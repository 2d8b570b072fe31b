/* t606_mesh_vtu (range t6xx): feint_mesh_write_vtu output is well-formed VTK XML (parsed by Python's xml.etree, /usr/bin/python3) with the right structure, and every array (points, connectivity, offsets, types, point and cell data, element tags) reads back to exactly the numbers written; bad fields (control bytes or ill-formed UTF-8 in names, duplicate names, a name of an automatic array) are refused before any file is created; a write error removes only the regular file written (not a FIFO or a link). */
#define _XOPEN_SOURCE 700 /* mkdtemp, mkfifo, fork, setrlimit, symlink */
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "mesh_util.h"
#include "test_util.h"

static char tmpdir[64];

/* Parses the .vtu with xml.etree and prints, per DataArray, a header
 * "<section> <name> <type> <components> <count>" and then one value per
 * line (floats by repr: they read back exactly). */
static const char *script =
    "import sys, xml.etree.ElementTree as ET\n"
    "root = ET.parse(sys.argv[1]).getroot()\n"
    "assert root.tag == 'VTKFile' and root.get('type') == 'UnstructuredGrid'\n"
    "pieces = root.findall('UnstructuredGrid/Piece')\n"
    "assert len(pieces) == 1\n"
    "piece = pieces[0]\n"
    "print('piece', piece.get('NumberOfPoints'), piece.get('NumberOfCells'))\n"
    "for sec in ('PointData', 'CellData', 'Points', 'Cells'):\n"
    "    s = piece.find(sec)\n"
    "    if s is None: continue\n"
    "    for a in s.findall('DataArray'):\n"
    "        vals = a.text.split()\n"
    "        t = a.get('type')\n"
    "        print(sec, a.get('Name', '-'), t, a.get('NumberOfComponents', '1'), len(vals))\n"
    "        for v in vals: print(repr(float(v)) if t == 'Float64' else int(v))\n";

typedef struct {
  const char *section, *name, *type;
  int components;
  size_t count;
  const double *dvalues; /* Float64 arrays */
  long long (*ivalue)(const feint_mesh *, size_t); /* integer arrays */
} expected_array;

static const feint_mesh *g_mesh;
/* VTK's wedge lists each triangle clockwise seen from the other one: feint
 * prism nodes 0 2 1 3 5 4 (tets unchanged) */
static long long conn_at(const feint_mesh *m, size_t i) {
  static const size_t wedge[6] = {0, 2, 1, 3, 5, 4};
  if (m->element != FEINT_PRISM6) return m->conn[i]; /* tet, hex: VTK's order */
  return m->conn[i - i % 6 + wedge[i % 6]];
}
static long long offset_at(const feint_mesh *m, size_t i) {
  return (long long)((i + 1) * (mesh_nodes(m->element)));
}
static long long type_at(const feint_mesh *m, size_t i) {
  (void)i;
  return mesh_vtk_type(m->element);
}
static long long tag_at(const feint_mesh *m, size_t i) { return m->elem_tags[i]; }

static void check_readback(const char *out_path, const expected_array *ex, int num_ex,
                           const char *what) {
  FILE *f = fopen(out_path, "r");
  if (!f) {
    TEST_FAIL("%s: no parser output", what);
    return;
  }
  char line[512];
  size_t np = 0, nc = 0;
  if (!fgets(line, sizeof line, f) || sscanf(line, "piece %zu %zu", &np, &nc) != 2 ||
      np != g_mesh->num_vertices || nc != g_mesh->num_elem)
    TEST_FAIL("%s: piece line '%s'", what, line);
  int found = 0;
  while (fgets(line, sizeof line, f)) {
    char sec[64], name[64], type[64];
    int comps;
    size_t count;
    if (sscanf(line, "%63s %63s %63s %d %zu", sec, name, type, &comps, &count) != 5) {
      TEST_FAIL("%s: unexpected parser line '%s'", what, line);
      break;
    }
    const expected_array *e = NULL;
    for (int k = 0; k < num_ex; k++)
      if (!strcmp(ex[k].section, sec) && !strcmp(ex[k].name, name)) e = &ex[k];
    if (!e) {
      TEST_FAIL("%s: unexpected array %s/%s", what, sec, name);
      break;
    }
    found++;
    CHECK(!strcmp(e->type, type) && e->components == comps && e->count == count,
          "%s: %s/%s is %s x %d, %zu values; expected %s x %d, %zu", what, sec, name, type, comps,
          count, e->type, e->components, e->count);
    for (size_t i = 0; i < count; i++) {
      if (!fgets(line, sizeof line, f)) {
        TEST_FAIL("%s: %s/%s truncated", what, sec, name);
        break;
      }
      if (i >= e->count) continue;
      if (e->dvalues) {
        const double v = strtod(line, NULL);
        CHECK(v == e->dvalues[i], "%s: %s/%s[%zu] reads %.17g, wrote %.17g", what, sec, name, i, v,
              e->dvalues[i]);
      } else {
        const long long v = strtoll(line, NULL, 10);
        CHECK(v == e->ivalue(g_mesh, i), "%s: %s/%s[%zu] reads %lld, wrote %lld", what, sec, name,
              i, v, e->ivalue(g_mesh, i));
      }
    }
  }
  CHECK(found == num_ex, "%s: %d of %d arrays found", what, found, num_ex);
  fclose(f);
}

static void check_mesh_vtu(feint_element el) {
  feint_mesh m;
  CHECK_STATUS(feint_mesh_box_create(el, 3, 4, 2, FEINT_PERTURB_GENERAL, 0.15, 8, &m), FEINT_SUCCESS,
               NULL);
  const size_t nv = m.num_vertices, ne = m.num_elem, ns = mesh_nodes(el);
  int32_t *tags = malloc(ne * sizeof *tags);
  for (size_t e = 0; e < ne; e++) tags[e] = (int32_t)(e % 5) - 2;
  m.elem_tags = tags; /* caller array in a feint mesh: detached before destroy */
  double *u = malloc(nv * sizeof *u), *vol = malloc(ne * sizeof *vol);
  for (size_t v = 0; v < nv; v++)
    u[v] = m.coords[3 * v] + 2 * m.coords[3 * v + 1] / 3;
  for (size_t e = 0; e < ne; e++) vol[e] = mesh_elem_volume(&m, e, NULL);
  const feint_vtu_field pf[2] = {{"u", 1, u}, {"a&b<c>\"", 3, m.coords}};
  const feint_vtu_field cf[1] = {{"volume", 1, vol}};
  char path[128], out[128], py[128], cmd[512];
  snprintf(path, sizeof path, "%s/%s.vtu", tmpdir, feint_element_name(el));
  snprintf(out, sizeof out, "%s/%s.txt", tmpdir, feint_element_name(el));
  snprintf(py, sizeof py, "%s/readback.py", tmpdir);
  CHECK_STATUS(feint_mesh_write_vtu(path, &m, 2, pf, 1, cf), FEINT_SUCCESS, NULL);
  snprintf(cmd, sizeof cmd, "/usr/bin/python3 %s %s > %s", py, path, out);
  CHECK(system(cmd) == 0, "%s: the Python XML parser rejected %s", feint_element_name(el), path);
  g_mesh = &m;
  const expected_array ex[] = {
      {"PointData", "u", "Float64", 1, nv, u, NULL},
      {"PointData", "a&b<c>\"", "Float64", 3, 3 * nv, m.coords, NULL},
      {"CellData", "volume", "Float64", 1, ne, vol, NULL},
      {"CellData", "elem_tags", "Int32", 1, ne, NULL, tag_at},
      {"Points", "-", "Float64", 3, 3 * nv, m.coords, NULL},
      {"Cells", "connectivity", "Int64", 1, ns * ne, NULL, conn_at},
      {"Cells", "offsets", "Int64", 1, ne, NULL, offset_at},
      {"Cells", "types", "UInt8", 1, ne, NULL, type_at},
  };
  check_readback(out, ex, (int)(sizeof ex / sizeof ex[0]), feint_element_name(el));

  /* errors: checked before the file is created */
  char bad[128];
  snprintf(bad, sizeof bad, "%s/bad.vtu", tmpdir);
  u[7] = NAN;
  CHECK_STATUS(feint_mesh_write_vtu(bad, &m, 2, pf, 1, cf), FEINT_ERR_NOT_FINITE,
               "point field 'u': entry 7");
  u[7] = 0.0;
  const feint_vtu_field bad_comp = {"w", 0, u}, no_name = {NULL, 1, u}, no_values = {"w", 1, NULL};
  CHECK_STATUS(feint_mesh_write_vtu(bad, &m, 1, &bad_comp, 0, NULL), FEINT_ERR_OUT_OF_RANGE,
               "num_components = 0");
  CHECK_STATUS(feint_mesh_write_vtu(bad, &m, 0, NULL, 1, &no_name), FEINT_ERR_NULL_ARG,
               "cell_fields[0].name");
  CHECK_STATUS(feint_mesh_write_vtu(bad, &m, 0, NULL, 1, &no_values), FEINT_ERR_NULL_ARG,
               "values is NULL");
  CHECK_STATUS(feint_mesh_write_vtu(bad, &m, 1, NULL, 0, NULL), FEINT_ERR_NULL_ARG, "point_fields");
  CHECK_STATUS(feint_mesh_write_vtu(NULL, &m, 0, NULL, 0, NULL), FEINT_ERR_NULL_ARG, "path");
  m.conn[0] = (uint32_t)nv;
  CHECK_STATUS(feint_mesh_write_vtu(bad, &m, 0, NULL, 0, NULL), FEINT_ERR_OUT_OF_RANGE, "element 0");
  CHECK(access(bad, F_OK) != 0, "a refused write created %s", bad);
  CHECK_STATUS(feint_mesh_write_vtu("/nonexistent/dir/x.vtu", &m, 0, NULL, 0, NULL),
               FEINT_ERR_OUT_OF_RANGE, NULL);
  m.conn[0] = 0;
  CHECK_STATUS(feint_mesh_write_vtu("/nonexistent/dir/x.vtu", &m, 0, NULL, 0, NULL), FEINT_ERR_IO,
               "cannot open '/nonexistent/dir/x.vtu'");
  m.elem_tags = NULL;
  feint_mesh_destroy(&m);
  free(tags);
  free(u);
  free(vol);
}

/* Names XML cannot hold, or that two arrays of a section would share, are
 * refused before the file is created. */
static void check_names(void) {
  feint_mesh m;
  CHECK_STATUS(feint_mesh_box_create(FEINT_TET4, 1, 1, 1, FEINT_PERTURB_NONE, 0.0, 1, &m),
               FEINT_SUCCESS, NULL);
  int32_t tags[6] = {1, 2, 3, 4, 5, 6};
  double *pv = calloc(m.num_vertices, sizeof *pv), *cv = calloc(m.num_elem, sizeof *cv);
  char path[128];
  snprintf(path, sizeof path, "%s/names.vtu", tmpdir);
  const feint_vtu_field ctl[2] = {{"u", 1, pv}, {"ctl\x01name", 1, pv}};
  CHECK_STATUS(feint_mesh_write_vtu(path, &m, 2, ctl, 0, NULL), FEINT_ERR_OUT_OF_RANGE,
               "point_fields[1].name has the control byte 0x01 at offset 3");
  const feint_vtu_field nl = {"a\nb", 1, cv}, del = {"a\x7f", 1, cv};
  CHECK_STATUS(feint_mesh_write_vtu(path, &m, 0, NULL, 1, &nl), FEINT_ERR_OUT_OF_RANGE,
               "cell_fields[0].name has the control byte 0x0a at offset 1");
  CHECK_STATUS(feint_mesh_write_vtu(path, &m, 0, NULL, 1, &del), FEINT_ERR_OUT_OF_RANGE,
               "control byte 0x7f");
  /* the file is UTF-8: a Latin-1 name, an overlong form, a surrogate are
   * refused (they made ill-formed XML); a UTF-8 name is written and parses */
  const feint_vtu_field latin1 = {"temp\xe9rature", 1, cv}, overlong = {"a\xc0\xaf", 1, cv};
  const feint_vtu_field surrogate = {"a\xed\xa0\x80", 1, cv};
  CHECK_STATUS(feint_mesh_write_vtu(path, &m, 0, NULL, 1, &latin1), FEINT_ERR_OUT_OF_RANGE,
               "cell_fields[0].name is not UTF-8 from byte 4 (0xe9)");
  CHECK_STATUS(feint_mesh_write_vtu(path, &m, 0, NULL, 1, &overlong), FEINT_ERR_OUT_OF_RANGE,
               "not UTF-8 from byte 1 (0xc0)");
  CHECK_STATUS(feint_mesh_write_vtu(path, &m, 0, NULL, 1, &surrogate), FEINT_ERR_OUT_OF_RANGE,
               "not UTF-8 from byte 1 (0xed)");
  CHECK(access(path, F_OK) != 0, "a refused write created %s", path);
  const feint_vtu_field utf8 = {"temp\xc3\xa9rature \xe6\xb8\xa9\xe5\xba\xa6", 1, cv};
  CHECK_STATUS(feint_mesh_write_vtu(path, &m, 0, NULL, 1, &utf8), FEINT_SUCCESS, NULL);
  {
    char cmd[512];
    snprintf(cmd, sizeof cmd,
             "/usr/bin/python3 -c \"import sys, xml.etree.ElementTree as E; "
             "sys.exit(0 if any(a.get('Name') == 'temp\\u00e9rature \\u6e29\\u5ea6' "
             "for a in E.parse(sys.argv[1]).iter('DataArray')) else 1)\" %s",
             path);
    CHECK(system(cmd) == 0, "the UTF-8 name does not parse back from %s", path);
  }
  remove(path);
  const feint_vtu_field twice[2] = {{"u", 1, pv}, {"u", 1, pv}};
  CHECK_STATUS(feint_mesh_write_vtu(path, &m, 2, twice, 0, NULL), FEINT_ERR_UNSUPPORTED,
               "point_fields[0] and [1] are both named 'u'");
  const feint_vtu_field tag_field = {"elem_tags", 1, cv};
  m.elem_tags = tags;
  CHECK_STATUS(feint_mesh_write_vtu(path, &m, 0, NULL, 1, &tag_field), FEINT_ERR_UNSUPPORTED,
               "cell_fields[0].name is 'elem_tags'");
  CHECK(access(path, F_OK) != 0, "a refused write created %s", path);
  /* without mesh->elem_tags the name is free, and a point field may share a cell field's */
  m.elem_tags = NULL;
  const feint_vtu_field point_tags = {"elem_tags", 1, pv};
  CHECK_STATUS(feint_mesh_write_vtu(path, &m, 1, &point_tags, 1, &tag_field), FEINT_SUCCESS, NULL);
  remove(path);
  feint_mesh_destroy(&m);
  free(pv);
  free(cv);
}

/* A write error removes the partial file only where the path names the
 * regular file written: a FIFO whose reader goes away (EPIPE) and a link
 * stay; a regular file cut short by RLIMIT_FSIZE (EFBIG) is removed. */
static void check_write_errors(void) {
  feint_mesh m; /* 16^3 cells: over 1 MB of XML, far more than a pipe holds */
  CHECK_STATUS(feint_mesh_box_create(FEINT_TET4, 16, 16, 16, FEINT_PERTURB_NONE, 0.0, 1, &m),
               FEINT_SUCCESS, NULL);
  signal(SIGPIPE, SIG_IGN);
  signal(SIGXFSZ, SIG_IGN);
  char fifo[128];
  snprintf(fifo, sizeof fifo, "%s/fifo.vtu", tmpdir);
  CHECK(mkfifo(fifo, 0600) == 0, "mkfifo %s failed", fifo);
  const pid_t reader = fork();
  if (reader == 0) { /* reads one byte and goes away */
    const int fd = open(fifo, O_RDONLY);
    char c;
    if (fd >= 0 && read(fd, &c, 1) >= 0) close(fd);
    _exit(0);
  }
  CHECK(reader > 0, "fork failed");
  if (reader > 0) {
    CHECK_STATUS(feint_mesh_write_vtu(fifo, &m, 0, NULL, 0, NULL), FEINT_ERR_IO,
                 "(not a regular file: left in place)");
    waitpid(reader, NULL, 0);
    struct stat st;
    CHECK(stat(fifo, &st) == 0 && S_ISFIFO(st.st_mode), "the FIFO %s was removed", fifo);
  }
  remove(fifo);

  char file[128], link[128], target[128];
  snprintf(file, sizeof file, "%s/cut.vtu", tmpdir);
  snprintf(target, sizeof target, "%s/target.vtu", tmpdir);
  snprintf(link, sizeof link, "%s/link.vtu", tmpdir);
  CHECK(symlink(target, link) == 0, "symlink %s failed", link);
  struct rlimit keep, cut;
  CHECK(getrlimit(RLIMIT_FSIZE, &keep) == 0, "getrlimit failed");
  cut = keep;
  cut.rlim_cur = 4096;
  CHECK(setrlimit(RLIMIT_FSIZE, &cut) == 0, "setrlimit failed");
  CHECK_STATUS(feint_mesh_write_vtu(file, &m, 0, NULL, 0, NULL), FEINT_ERR_IO,
               "(partial file removed)");
  CHECK_STATUS(feint_mesh_write_vtu(link, &m, 0, NULL, 0, NULL), FEINT_ERR_IO,
               "(partial file left in place: the path is a link or was replaced)");
  CHECK(setrlimit(RLIMIT_FSIZE, &keep) == 0, "setrlimit (restore) failed");
  struct stat st;
  CHECK(access(file, F_OK) != 0, "the partial file %s was kept", file);
  CHECK(lstat(link, &st) == 0 && S_ISLNK(st.st_mode) && access(target, F_OK) == 0,
        "the link %s or its target was removed", link);
  remove(link);
  remove(target);
  feint_mesh_destroy(&m);
}

int main(void) {
  if (access("/usr/bin/python3", X_OK) != 0) {
    printf("SKIP: /usr/bin/python3 not found (its xml.etree parses the output)\n");
    return TEST_SKIP_EXIT;
  }
  snprintf(tmpdir, sizeof tmpdir, "/tmp/feint_t606_XXXXXX");
  if (!mkdtemp(tmpdir)) return 1;
  char py[128];
  snprintf(py, sizeof py, "%s/readback.py", tmpdir);
  FILE *f = fopen(py, "w");
  fputs(script, f);
  fclose(f);
  for (int el = 0; el < FEINT_ELEMENT_COUNT; el++) check_mesh_vtu((feint_element)el);
  check_names();
  check_write_errors();
  char cmd[128];
  snprintf(cmd, sizeof cmd, "rm -rf %s", tmpdir);
  if (system(cmd) != 0) fprintf(stderr, "t606: could not remove %s\n", tmpdir);
  return test_finish("t606_mesh_vtu");
}
