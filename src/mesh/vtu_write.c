/*
 * mesh/vtu_write.c - VTK XML unstructured grid (.vtu) writer
 * (feint_mesh_write_vtu): points, cells, point data, cell data.
 *
 * ASCII format, doubles printed with %.17g so that they read back exactly;
 * connectivity and offsets Int64, types UInt8 (VTK_TETRA 10, VTK_WEDGE 13,
 * VTK_HEXAHEDRON 12).  Node orders: a tet's and a hexahedron's are VTK's; a VTK wedge's first triangle must turn
 * clockwise seen from the second one (VTK computes negative volumes for
 * feint's counter-clockwise bottom triangle: checked with VTK 9.1's
 * vtkCellSizeFilter), so prisms are written in the order 0 2 1 3 5 4
 * (vtk_node_order).  The
 * element tags, if any, are written as the cell data array "elem_tags"
 * (Int32).  Every argument is checked before the file is opened: a field
 * name must be representable in XML 1.0, which has no form, not even
 * escaped, for most bytes below 0x20 (so all of them and DEL are refused),
 * and well-formed UTF-8, the file's encoding (utf8_bad_at),
 * and no two arrays of a section may share a name (a reader would keep one
 * of them).  A write error removes the partial file only if the path names
 * the regular file this call wrote (created or truncated): a device, FIFO
 * or symbolic link at the path is left as it is.
 */
#define _POSIX_C_SOURCE 200809L /* fileno, fstat, lstat */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "mesh/mesh_internal.h"

#define VTU_MAX_COMPONENTS 9

static const int vtk_cell_type[FEINT_ELEMENT_COUNT] = {
    [FEINT_TET4] = 10, [FEINT_PRISM6] = 13, [FEINT_HEX8] = 12};

/* VTK node n of a cell is feint node vtk_node_order[element][n]. */
static const int vtk_node_order[FEINT_ELEMENT_COUNT][FEINT_MAX_NODES] = {
    [FEINT_TET4] = {0, 1, 2, 3},
    [FEINT_PRISM6] = {0, 2, 1, 3, 5, 4},
    [FEINT_HEX8] = {0, 1, 2, 3, 4, 5, 6, 7}};

/* Offset of the first byte of s that does not start a well-formed UTF-8
 * sequence (RFC 3629: no overlong forms, no surrogates, at most U+10FFFF)
 * or starts one for U+FFFE or U+FFFF, which XML excludes; SIZE_MAX if none.
 * The file is UTF-8 (XML's default): a name in another encoding, Latin-1
 * say, made it ill-formed. */
static size_t utf8_bad_at(const char *s) {
  const unsigned char *u = (const unsigned char *)s;
  size_t i = 0;
  while (u[i] != 0) {
    const unsigned c = u[i];
    int len = c < 0x80 ? 1 : c >= 0xc2 && c <= 0xdf ? 2 : c >= 0xe0 && c <= 0xef ? 3
                           : c >= 0xf0 && c <= 0xf4 ? 4 : 0;
    if (len == 0) return i;
    uint32_t cp = len == 1 ? c : c & (0x7fu >> len);
    for (int k = 1; k < len; k++) {
      if ((u[i + k] & 0xc0) != 0x80) return i; /* (also stops at the NUL) */
      cp = cp << 6 | (u[i + k] & 0x3fu);
    }
    const uint32_t min[5] = {0, 0, 0x80, 0x800, 0x10000};
    if (cp < min[len] || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff) || cp == 0xfffe ||
        cp == 0xffff)
      return i;
    i += (size_t)len;
  }
  return SIZE_MAX;
}

/* Check the fields of one kind: names (XML-representable, unique in the
 * section, none equal to `automatic`, the name of an array the writer adds
 * itself, if not NULL), components, values finite. */
static feint_status check_fields(const char *kind, size_t num_fields, const feint_vtu_field *fields,
                                 size_t count, const char *automatic) {
  FEINT_CHECK(num_fields == 0 || fields != NULL, FEINT_ERR_NULL_ARG,
              "%s_fields is NULL but num_%s_fields = %zu", kind, kind, num_fields);
  for (size_t f = 0; f < num_fields; f++) {
    const feint_vtu_field *d = &fields[f];
    FEINT_CHECK(d->name != NULL && d->name[0] != '\0', FEINT_ERR_NULL_ARG,
                "%s_fields[%zu].name is NULL or empty", kind, f);
    for (size_t i = 0; d->name[i] != '\0'; i++) {
      const unsigned char b = (unsigned char)d->name[i];
      FEINT_CHECK(b >= 0x20 && b != 0x7f, FEINT_ERR_OUT_OF_RANGE,
                  "%s_fields[%zu].name has the control byte 0x%02x at offset %zu; control "
                  "bytes are refused, XML 1.0 cannot hold most of them (allowed: bytes "
                  "0x20..0x7e and UTF-8 sequences)",
                  kind, f, (unsigned)b, i);
    }
    const size_t bad = utf8_bad_at(d->name);
    FEINT_CHECK(bad == SIZE_MAX, FEINT_ERR_OUT_OF_RANGE,
                "%s_fields[%zu].name is not UTF-8 from byte %zu (0x%02x): the file is UTF-8 "
                "XML, so a name must be too (no overlong forms, surrogates, U+FFFE or U+FFFF)",
                kind, f, bad, (unsigned)(unsigned char)d->name[bad]);
    FEINT_CHECK(automatic == NULL || strcmp(d->name, automatic) != 0, FEINT_ERR_UNSUPPORTED,
                "%s_fields[%zu].name is '%s', the name of the array written from "
                "mesh->elem_tags; rename the field",
                kind, f, d->name);
    for (size_t g = 0; g < f; g++)
      FEINT_CHECK(strcmp(d->name, fields[g].name) != 0, FEINT_ERR_UNSUPPORTED,
                  "%s_fields[%zu] and [%zu] are both named '%s'; names must differ", kind, g, f,
                  d->name);
    FEINT_CHECK(d->num_components >= 1 && d->num_components <= VTU_MAX_COMPONENTS,
                FEINT_ERR_OUT_OF_RANGE, "%s field '%s': num_components = %d, allowed 1..%d", kind,
                d->name, d->num_components, VTU_MAX_COMPONENTS);
    FEINT_CHECK(d->values != NULL, FEINT_ERR_NULL_ARG, "%s field '%s': values is NULL", kind,
                d->name);
    const size_t n = count * (size_t)d->num_components;
    for (size_t i = 0; i < n; i++)
      FEINT_CHECK(isfinite(d->values[i]), FEINT_ERR_NOT_FINITE,
                  "%s field '%s': entry %zu (item %zu, component %zu) is %g", kind, d->name, i,
                  i / (size_t)d->num_components, i % (size_t)d->num_components, d->values[i]);
  }
  return FEINT_SUCCESS;
}

/* A name as an XML attribute value. */
static void put_escaped(FILE *f, const char *s) {
  for (; *s; s++) switch (*s) {
      case '&': fputs("&amp;", f); break;
      case '<': fputs("&lt;", f); break;
      case '>': fputs("&gt;", f); break;
      case '"': fputs("&quot;", f); break;
      case '\'': fputs("&apos;", f); break;
      default: fputc(*s, f);
    }
}

static void put_fields(FILE *f, const char *tag, size_t num_fields, const feint_vtu_field *fields,
                       size_t count, const int32_t *tags) {
  if (num_fields == 0 && !tags) return;
  fprintf(f, "      <%s>\n", tag);
  for (size_t k = 0; k < num_fields; k++) {
    fputs("        <DataArray type=\"Float64\" Name=\"", f);
    put_escaped(f, fields[k].name);
    fprintf(f, "\" NumberOfComponents=\"%d\" format=\"ascii\">\n", fields[k].num_components);
    const size_t nc = (size_t)fields[k].num_components;
    for (size_t i = 0; i < count; i++) {
      fputs("         ", f);
      for (size_t c = 0; c < nc; c++) fprintf(f, " %.17g", fields[k].values[i * nc + c]);
      fputc('\n', f);
    }
    fputs("        </DataArray>\n", f);
  }
  if (tags) {
    fputs("        <DataArray type=\"Int32\" Name=\"elem_tags\" format=\"ascii\">\n", f);
    for (size_t i = 0; i < count; i++) fprintf(f, "          %d\n", (int)tags[i]);
    fputs("        </DataArray>\n", f);
  }
  fprintf(f, "      </%s>\n", tag);
}

feint_status feint_mesh_write_vtu(const char *path, const feint_mesh *mesh, size_t num_point_fields,
                                  const feint_vtu_field *point_fields, size_t num_cell_fields,
                                  const feint_vtu_field *cell_fields) {
  FEINT_CHECK(path != NULL, FEINT_ERR_NULL_ARG, "path is NULL");
  FEINT_CALL(feint_mesh_check(mesh));
  FEINT_CALL(check_fields("point", num_point_fields, point_fields, mesh->num_vertices, NULL));
  FEINT_CALL(check_fields("cell", num_cell_fields, cell_fields, mesh->num_elem,
                          mesh->elem_tags ? "elem_tags" : NULL));
  FILE *f = fopen(path, "w");
  FEINT_CHECK(f != NULL, FEINT_ERR_IO, "cannot open '%s' for writing: %s", path, strerror(errno));
  /* what was opened: only a regular file may be removed after a write error */
  struct stat opened;
  const int regular = fstat(fileno(f), &opened) == 0 && S_ISREG(opened.st_mode);
  errno = 0;
  const size_t nv = mesh->num_vertices, ne = mesh->num_elem;
  const size_t ns = (size_t)feint_mesh_nodes_per_elem(mesh->element);
  fputs("<?xml version=\"1.0\"?>\n"
        "<VTKFile type=\"UnstructuredGrid\" version=\"1.0\" byte_order=\"LittleEndian\" "
        "header_type=\"UInt64\">\n  <UnstructuredGrid>\n",
        f);
  fprintf(f, "    <Piece NumberOfPoints=\"%zu\" NumberOfCells=\"%zu\">\n", nv, ne);
  put_fields(f, "PointData", num_point_fields, point_fields, nv, NULL);
  put_fields(f, "CellData", num_cell_fields, cell_fields, ne, mesh->elem_tags);
  fputs("      <Points>\n        <DataArray type=\"Float64\" NumberOfComponents=\"3\" "
        "format=\"ascii\">\n",
        f);
  for (size_t v = 0; v < nv; v++)
    fprintf(f, "          %.17g %.17g %.17g\n", mesh->coords[3 * v], mesh->coords[3 * v + 1],
            mesh->coords[3 * v + 2]);
  fputs("        </DataArray>\n      </Points>\n      <Cells>\n"
        "        <DataArray type=\"Int64\" Name=\"connectivity\" format=\"ascii\">\n",
        f);
  for (size_t e = 0; e < ne; e++) {
    fputs("         ", f);
    for (size_t n = 0; n < ns; n++)
      fprintf(f, " %u", (unsigned)mesh->conn[e * ns + (size_t)vtk_node_order[mesh->element][n]]);
    fputc('\n', f);
  }
  fputs("        </DataArray>\n"
        "        <DataArray type=\"Int64\" Name=\"offsets\" format=\"ascii\">\n",
        f);
  for (size_t e = 0; e < ne; e++) fprintf(f, "          %zu\n", (e + 1) * ns);
  fputs("        </DataArray>\n"
        "        <DataArray type=\"UInt8\" Name=\"types\" format=\"ascii\">\n",
        f);
  for (size_t e = 0; e < ne; e++) fprintf(f, "          %d\n", vtk_cell_type[mesh->element]);
  fputs("        </DataArray>\n      </Cells>\n    </Piece>\n  </UnstructuredGrid>\n"
        "</VTKFile>\n",
        f);
  const int failed = ferror(f) != 0;
  const int close_failed = fclose(f) != 0;
  if (failed || close_failed) {
    const int write_errno = errno;
    /* remove the partial file only if the path itself still names it (lstat: a link to it is
     * not removed, nor is a file put there since): never a device or a FIFO */
    const char *fate = "not a regular file: left in place";
    if (regular) {
      struct stat now;
      if (lstat(path, &now) != 0 || !S_ISREG(now.st_mode) || now.st_dev != opened.st_dev ||
          now.st_ino != opened.st_ino)
        fate = "partial file left in place: the path is a link or was replaced";
      else if (remove(path) != 0)
        fate = "partial file left in place: it could not be removed";
      else
        fate = "partial file removed";
    }
    FEINT_CHECK(0, FEINT_ERR_IO, "write error on '%s': %s (%s)", path,
                write_errno ? strerror(write_errno) : "unknown cause", fate);
  }
  return FEINT_SUCCESS;
}
