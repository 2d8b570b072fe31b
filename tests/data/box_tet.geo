// box_tet.geo - the box [0,1] x [0,2] x [0,3] (volume 6) in tetrahedra, for
// tests/t603_msh_gmsh.c: physical volume 7 "solid", the face z = 0 as
// physical surface 11 "bottom" (area 2), the other five faces as 12 "walls"
// (area 20).  Mesh size: -clmax on the gmsh command line.
SetFactory("OpenCASCADE");
Box(1) = {0, 0, 0, 1, 2, 3};
// OpenCASCADE numbers a box's faces x=0, x=1, y=0, y=1, z=0, z=1
Physical Volume("solid", 7) = {1};
Physical Surface("bottom", 11) = {5};
Physical Surface("walls", 12) = {1, 2, 3, 4, 6};
