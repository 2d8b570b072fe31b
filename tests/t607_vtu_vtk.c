/* t607_vtu_vtk (range t6xx): VTK itself (python3-vtk9, the library ParaView is built on) reads feint_mesh_write_vtu output: vtkXMLUnstructuredGridReader gives the counts, cell types and point data written, and vtkCellSizeFilter finds every tet, prism and hexahedron with positive volume (node orders as VTK expects) summing to the box's volume. */
#define _XOPEN_SOURCE 700 /* mkdtemp */
#include <stdlib.h>
#include <unistd.h>

#include "mesh_util.h"
#include "test_util.h"

/* argv: file, points, cells, VTK cell type, volume tolerance.  Exit 0 if all
 * agree; one line per disagreement. */
static const char *script =
    "import sys, vtk\n"
    "path, npts, ncells, ctype, tol = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), "
    "int(sys.argv[4]), float(sys.argv[5])\n"
    "r = vtk.vtkXMLUnstructuredGridReader(); r.SetFileName(path); r.Update()\n"
    "g = r.GetOutput(); bad = []\n"
    "if r.GetErrorCode() != 0: bad.append('reader error code %d' % r.GetErrorCode())\n"
    "if g.GetNumberOfPoints() != npts or g.GetNumberOfCells() != ncells:\n"
    "    bad.append('%d points %d cells' % (g.GetNumberOfPoints(), g.GetNumberOfCells()))\n"
    "if any(g.GetCellType(i) != ctype for i in range(g.GetNumberOfCells())): bad.append('cell types')\n"
    "u = g.GetPointData().GetArray('u')\n"
    "if u is None or any(u.GetValue(i) != g.GetPoint(i)[0] for i in range(npts)): bad.append('u != x')\n"
    "f = vtk.vtkCellSizeFilter(); f.SetInputData(g); f.Update()\n"
    "v = f.GetOutput().GetCellData().GetArray('Volume')\n"
    "vols = [v.GetValue(i) for i in range(ncells)]\n"
    "if min(vols) <= 0: bad.append('cell %d volume %g' % (vols.index(min(vols)), min(vols)))\n"
    "if abs(sum(vols) - 1) > tol: bad.append('volume sum %.17g' % sum(vols))\n"
    "for b in bad: print(path + ': ' + b)\n"
    "sys.exit(1 if bad else 0)\n";

int main(void) {
  if (system("/usr/bin/python3 -c 'import vtk' > /dev/null 2>&1") != 0) {
    printf("SKIP: no VTK for /usr/bin/python3 (Debian package python3-vtk9)\n");
    return TEST_SKIP_EXIT;
  }
  char dir[64], py[128], path[128], cmd[512];
  snprintf(dir, sizeof dir, "/tmp/feint_t607_XXXXXX");
  if (!mkdtemp(dir)) return 1;
  snprintf(py, sizeof py, "%s/check.py", dir);
  FILE *f = fopen(py, "w");
  fputs(script, f);
  fclose(f);
  for (int el = 0; el < FEINT_ELEMENT_COUNT; el++) {
    feint_mesh m;
    CHECK_STATUS(feint_mesh_box_create((feint_element)el, 4, 3, 2, FEINT_PERTURB_GENERAL, 0.15, 2, &m),
                 FEINT_SUCCESS, NULL);
    double *u = malloc(m.num_vertices * sizeof *u);
    for (size_t v = 0; v < m.num_vertices; v++) u[v] = m.coords[3 * v];
    const feint_vtu_field pf = {"u", 1, u};
    snprintf(path, sizeof path, "%s/%s.vtu", dir, feint_element_name((feint_element)el));
    CHECK_STATUS(feint_mesh_write_vtu(path, &m, 1, &pf, 0, NULL), FEINT_SUCCESS, NULL);
    /* VTK's tet volumes are exact to round-off; its wedge and hexahedron
     * volumes split the cell into tets, which differs from the true volume
     * of a cell with warped (perturbed) sides by up to about 1e-3 here */
    snprintf(cmd, sizeof cmd, "/usr/bin/python3 %s %s %zu %zu %d %g", py, path, m.num_vertices,
             m.num_elem, mesh_vtk_type((feint_element)el), el == FEINT_TET4 ? 1e-12 : 1e-2);
    CHECK(system(cmd) == 0, "VTK disagrees with %s (see above)", path);
    feint_mesh_destroy(&m);
    free(u);
  }
  snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
  if (system(cmd) != 0) fprintf(stderr, "t607: could not remove %s\n", dir);
  return test_finish("t607_vtu_vtk");
}
