// unit_box_structured.geo - the unit cube [0,1]^3 meshed by Gmsh's
// transfinite (structured) algorithm: N cells per edge, each cube cell split
// into tetrahedra, (N+1)^3 vertices.  Same physical groups as unit_box.geo
// (volume 1 "domain", the six faces as surface 1 "boundary"), so example 03
// and feint_bench_solve read it alike.  Meshing takes seconds even at
// N = 100 (1,030,301 vertices: the bench's 1 M-unknown problem), where the
// unstructured Delaunay mesher needs many minutes:
//   gmsh -3 -format msh41 -bin -setnumber N 100 examples/data/unit_box_structured.geo -o box.msh
SetFactory("OpenCASCADE");
DefineConstant[ N = {10, Name "cells per edge"} ];
Box(1) = {0, 0, 0, 1, 1, 1};
Transfinite Curve{:} = N + 1;
Transfinite Surface{:};
Transfinite Volume{:};
Physical Volume("domain", 1) = {1};
Physical Surface("boundary", 1) = {1, 2, 3, 4, 5, 6};
