#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <omp.h>
#include "feint.h"
static uint64_t h64(const void *p, size_t n, uint64_t h) {
  const unsigned char *c = p;
  for (size_t i = 0; i < n; i++) h = (h ^ c[i]) * 0x100000001b3ull;
  return h;
}
static void one(feint_mesh *m, unsigned what, const char *name) {
  uint32_t *vp = malloc(m->num_vertices * 4); size_t *ep = malloc(m->num_elem * sizeof(size_t));
  double t0 = omp_get_wtime();
  if (feint_mesh_renumber(m, what, vp, ep)) { printf("%s\n", feint_last_error()); exit(1); }
  double t = omp_get_wtime() - t0;
  uint64_t h = 1469598103934665603ull;
  h = h64(m->coords, m->num_vertices * 24, h); h = h64(m->conn, m->num_elem * 4 * (m->element == 0 ? 4 : m->element == 1 ? 6 : 8), h);
  h = h64(vp, m->num_vertices * 4, h); h = h64(ep, m->num_elem * sizeof(size_t), h);
  if (m->elem_tags) h = h64(m->elem_tags, m->num_elem * 4, h);
  if (m->faces) h = h64(m->faces, m->num_faces * 16, h);
  printf("%-10s what %u: %016llx  %.3f s\n", name, what, (unsigned long long)h, t);
  free(vp), free(ep);
}
int main(int argc, char **argv) {
  for (unsigned what = 1; what <= 3; what++) {
    feint_mesh m;
    if (argc > 1) { if (feint_mesh_read_msh(argv[1], &m)) return 1; one(&m, what, "gmsh"); feint_mesh_destroy(&m); }
    for (int el = 0; el < 3; el++) {
      feint_mesh_box_create(el, 37, 23, 41, FEINT_PERTURB_GENERAL, 0.1, 7, &m);
      one(&m, what, el == 0 ? "box tet" : el == 1 ? "box prism" : "box hex");
      one(&m, what, "again");
      feint_mesh_destroy(&m);
    }
  }
  return 0;
}
