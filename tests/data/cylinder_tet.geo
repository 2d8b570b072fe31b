// cylinder_tet.geo - the cylinder of radius 0.5 and height 1 on the z axis
// (volume pi/4) in tetrahedra, for tests/t603_msh_gmsh.c: physical volume 1,
// the curved side 2, bottom and top 3.  Mesh size: -clmax.
SetFactory("OpenCASCADE");
Cylinder(1) = {0, 0, 0, 0, 0, 1, 0.5};
Physical Volume("solid", 1) = {1};
Physical Surface("side", 2) = {1};
Physical Surface("caps", 3) = {2, 3};
