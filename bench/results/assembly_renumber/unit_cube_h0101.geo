SetFactory("OpenCASCADE");
Box(1) = {0,0,0,1,1,1};
Mesh.CharacteristicLengthMax = 0.0101;
Physical Volume(1) = {1};
