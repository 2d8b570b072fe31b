#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>
#include "feint.h"
static uint64_t h64(const void *p, size_t n, uint64_t h) {
  const unsigned char *c = p;
  for (size_t i = 0; i < n; i++) h = (h ^ c[i]) * 0x100000001b3ull;
  return h;
}
int main(void) {
  const int ks[] = {0, -1074 + 60, -1060, -1030, -1022, -1000, 997, 1010, 1021, 1022, 1023};
  for (int el = 0; el < 3; el++)
    for (size_t ki = 0; ki < sizeof ks / sizeof ks[0]; ki++) {
      feint_mesh m;
      feint_mesh_box_create(el, 9, 8, 7, FEINT_PERTURB_GENERAL, 0.15, 11, &m);
      const int ns = el == 0 ? 4 : el == 1 ? 6 : 8;
      for (size_t e = 0; e < m.num_elem; e += 3) { uint32_t *v = m.conn + e * ns; uint32_t t; if (el != 2) { t = v[1]; v[1] = v[2]; v[2] = t; } if (el==1) { t=v[4]; v[4]=v[5]; v[5]=t; } if (el==2) { t=v[1]; v[1]=v[3]; v[3]=t; t=v[5]; v[5]=v[7]; v[7]=t; } }
      for (size_t i = 0; i < 3 * m.num_vertices; i++) m.coords[i] = ldexp(m.coords[i] - 0.3, ks[ki]);
      size_t fixed = 0;
      int st = feint_mesh_orient(&m, &fixed);
      printf("el %d k %d: status %d fixed %zu hash %016llx\n", el, ks[ki], st, fixed,
             (unsigned long long)h64(m.conn, m.num_elem * ns * 4, 1469598103934665603ull));
      feint_mesh_destroy(&m);
    }
  return 0;
}
