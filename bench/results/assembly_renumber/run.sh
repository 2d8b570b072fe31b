#!/bin/sh
# The runs of this folder (from the repository root, after make all):
# a Gmsh-made unit cube of 4.38 M tets (Gmsh 4.8.4, Debian's package; about 4 minutes
# and 200 MB, so the mesh is made here rather than committed), measured in Gmsh's own
# order, renumbered, elements-only renumbered and shuffled; then the box mesh.
set -e
d=bench/results/assembly_renumber
gmsh -3 -nt 2 -format msh41 -bin $d/unit_cube_h0101.geo -o /tmp/cube4m.msh
build/bin/feint_bench_assembly --mesh /tmp/cube4m.msh --order gmsh,hilbert,hilbert-elements,random \
  --case tet4-poisson,tet4-convdiff --reps 5 --csv $d/gmsh_4.4M_tets.csv > $d/gmsh_4.4M_tets.txt
build/bin/feint_bench_assembly --order box,hilbert,hilbert-elements,random,random-hilbert \
  --case tet4-poisson --reps 5 --csv $d/box_4.1M_tets.csv > $d/box_4.1M_tets.txt
