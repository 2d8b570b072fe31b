// box_hex.geo - the box [0,2] x [0,1] x [0,1.5] (volume 3) in hexahedra: a
// structured (transfinite, recombined) quadrangle mesh of the bottom
// extruded in 3 layers, for tests/t603_msh_gmsh.c: physical volume 8,
// bottom 1, top 2, sides 3 (all quadrangles).
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
Transfinite Curve{1, 3} = 7;
Transfinite Curve{2, 4} = 4;
Transfinite Surface{1};
Recombine Surface{1};
out[] = Extrude {0, 0, 1.5} { Surface{1}; Layers{3}; Recombine; };
Physical Volume("solid", 8) = {out[1]};
Physical Surface("bottom", 1) = {1};
Physical Surface("top", 2) = {out[0]};
Physical Surface("sides", 3) = {out[2], out[3], out[4], out[5]};
