#!/usr/bin/env bash
# deps.sh - make sure the packages feint builds and benchmarks with are
# present: clang-19 + libomp-19-dev (compiler and OpenMP runtime),
# libclang-rt-19-dev (sanitizer and libFuzzer runtimes), likwid
# (likwid-bench characterisation, optional), gnuplot (report plots,
# optional), gmsh (the mesh tests make their meshes with it at test time;
# t603 skips without it), python3 (t606 parses VTU output with it),
# python3-vtk9 (t607: VTK itself reads the VTU output; skips without it), PETSc
# and hypre (libpetsc-real-dev, libhypre-dev, pkg-config: test t706 hands
# feint's CSR matrix to them; example 04 solves with them under MPI),
# openmpi-bin (mpirun for t905: example 04 on 2 ranks), python3-ffcx (FFCx,
# the form compiler of DOLFINx: make bench-ffcx times its hex8 elasticity
# kernel beside feint's; skipped without it), gcc (t206 and bench-ffcx
# compile FFCx's generated C with it).  As root, missing
# packages are installed with apt-get; otherwise the exact command is
# printed and the build goes on with what is there.
set -u
need=()
command -v clang-19 >/dev/null 2>&1 || need+=(clang-19)
[ -e /usr/lib/llvm-19/lib/libomp.so ] || need+=(libomp-19-dev)
# sanitizer and libFuzzer runtimes (make sanitize, make fuzz): only a
# Recommends of clang-19, so --no-install-recommends installs lack them
[ -e /usr/lib/llvm-19/lib/clang/19/lib/linux/libclang_rt.fuzzer-x86_64.a ] ||
  [ "$(uname -m)" != x86_64 ] || need+=(libclang-rt-19-dev)
command -v likwid-bench >/dev/null 2>&1 || need+=(likwid)
command -v gnuplot >/dev/null 2>&1 || need+=(gnuplot-nox)
command -v gmsh >/dev/null 2>&1 || need+=(gmsh)
[ -x /usr/bin/python3 ] || need+=(python3) # t606 parses .vtu output with its xml.etree
/usr/bin/python3 -c 'import vtk' >/dev/null 2>&1 || need+=(python3-vtk9) # t607: VTK reads .vtu
command -v pkg-config >/dev/null 2>&1 || need+=(pkg-config)
pkg-config --exists PETSc 2>/dev/null || need+=(libpetsc-real-dev)
[ -e /usr/include/hypre/HYPRE_IJ_mv.h ] || need+=(libhypre-dev)
command -v mpirun >/dev/null 2>&1 || need+=(openmpi-bin) # t905: example 04 under mpirun -n 2
/usr/bin/python3 -c 'import ffcx' >/dev/null 2>&1 || need+=(python3-ffcx) # make bench-ffcx
command -v gcc >/dev/null 2>&1 || need+=(gcc) # t206 and make bench-ffcx compile FFCx's C with it
[ ${#need[@]} -eq 0 ] && exit 0
cmd="apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y ${need[*]}"
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
  echo "feint deps: installing ${need[*]}"
  if ! (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need[@]}" >/dev/null); then
    echo "feint deps: apt-get failed; continuing with the toolchain present" >&2
  fi
else
  echo "feint deps: missing ${need[*]}; to install them run as root:"
  echo "  $cmd"
fi
exit 0
