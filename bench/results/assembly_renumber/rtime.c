#include <stdio.h>
#include <stdlib.h>
#include <omp.h>
#include "feint.h"
int main(int argc, char **argv) {
  feint_mesh m0, m;
  if (feint_mesh_read_msh(argv[1], &m0)) return 1;
  const int what = atoi(argv[2]);
  double best = 1e30, all[5];
  for (int r = 0; r < 5; r++) {
    feint_mesh_read_msh(argv[1], &m);  /* fresh, Gmsh order */
    double t0 = omp_get_wtime();
    if (feint_mesh_renumber(&m, what, NULL, NULL)) return 1;
    all[r] = omp_get_wtime() - t0;
    if (all[r] < best) best = all[r];
    feint_mesh_destroy(&m);
  }
  printf("%s what %d threads %d: min %.3f s, runs %.3f %.3f %.3f %.3f %.3f\n", argv[3], what, omp_get_max_threads(), best, all[0], all[1], all[2], all[3], all[4]);
  feint_mesh_destroy(&m0);
  return 0;
}
