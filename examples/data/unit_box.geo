// unit_box.geo - the unit cube [0,1]^3 in tetrahedra, for examples
// 03_gmsh_poisson and 04_petsc_mpi (and their tests t904, t905): physical
// volume 1 "domain", its six faces as physical surface 1 "boundary"
// (Dirichlet).  Mesh size from the command line:
//   gmsh -3 -format msh41 -clmax 0.1 examples/data/unit_box.geo -o box.msh
SetFactory("OpenCASCADE");
Box(1) = {0, 0, 0, 1, 1, 1};
Physical Volume("domain", 1) = {1};
Physical Surface("boundary", 1) = {1, 2, 3, 4, 5, 6};
