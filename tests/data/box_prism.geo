// box_prism.geo - the box [0,2] x [0,1] x [0,0.5] (volume 1) in prisms: an
// unstructured triangle mesh of the bottom extruded in 4 layers, for
// tests/t603_msh_gmsh.c: physical volume 5, bottom 1 (triangles), top 2
// (triangles), sides 3 (quadrangles).  Mesh size: -clmax.
Point(1) = {0, 0, 0};
Point(2) = {2, 0, 0};
Point(3) = {2, 1, 0};
Point(4) = {0, 1, 0};
Line(1) = {1, 2};
Line(2) = {2, 3};
Line(3) = {3, 4};
Line(4) = {4, 1};
Curve Loop(1) = {1, 2, 3, 4};
Plane Surface(1) = {1};
out[] = Extrude {0, 0, 0.5} { Surface{1}; Layers{4}; Recombine; };
// out[0]: top surface, out[1]: volume, out[2..5]: the side surfaces
Physical Volume("solid", 5) = {out[1]};
Physical Surface("bottom", 1) = {1};
Physical Surface("top", 2) = {out[0]};
Physical Surface("sides", 3) = {out[2], out[3], out[4], out[5]};
