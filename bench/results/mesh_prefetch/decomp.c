/* decomp.c - tet4 Poisson on a box mesh of 6 n^3 tets (default n = 88: 4.09 M), one call
 * after another, each the min of REPS runs, ns per element: feint_integrate on a gathered
 * blocked geometry array (the kernel alone), feint_integrate_mesh (gather through conn;
 * blocked and natural output), feint_assemble_mapped and feint_assemble, colouring.
 * Trusted geometry (the checks are another cost).  argv: n, then 1 = Hilbert-renumber
 * vertices and elements, 0 = the generator's order, 2 = vertices and elements shuffled
 * (a fixed pseudo-random permutation: an unstructured mesher's worst case), 3 = shuffled, then
 * Hilbert-renumbered.  Build against libfeint.a:
 *   clang-19 -O3 -march=native -fopenmp -Iinclude decomp.c build/lib/libfeint.a -lm
 * and run with OMP_NUM_THREADS=1. */
#define _POSIX_C_SOURCE 200809L
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <stdint.h>
#include "feint.h"
#ifndef REPS
#define REPS 11
#endif
static double now(void){struct timespec t;clock_gettime(CLOCK_MONOTONIC,&t);return t.tv_sec+1e-9*t.tv_nsec;}
#define T(name, stmt) do{ double best=1e9; for(int r=0;r<REPS;r++){double t0=now(); stmt; double t=now()-t0; if(t<best)best=t;} printf("%-34s %8.2f ns/e\n", name, best*1e9/ne);}while(0)
int main(int argc,char**argv){
  size_t n = argc>1?atoi(argv[1]):88; int hil = argc>2?atoi(argv[2]):1;
  feint_mesh m; feint_mesh_box_create(FEINT_TET4,n,n,n,FEINT_PERTURB_NONE,0,1,&m);
  if(hil>=2){ /* shuffle vertices and elements (xorshift, Fisher-Yates) */
    uint64_t st=88172645463325252ull; size_t nv=m.num_vertices, ne0=m.num_elem;
    uint32_t *pv=malloc(nv*4); for(size_t i=0;i<nv;i++) pv[i]=(uint32_t)i;
    for(size_t i=nv-1;i>0;i--){st^=st<<13;st^=st>>7;st^=st<<17; size_t j=st%(i+1); uint32_t t=pv[i];pv[i]=pv[j];pv[j]=t;}
    double *xyz=malloc(nv*24); for(size_t i=0;i<nv;i++) memcpy(xyz+3*pv[i], m.coords+3*i, 24);
    memcpy(m.coords, xyz, nv*24); free(xyz);
    for(size_t i=0;i<ne0*4;i++) m.conn[i]=pv[m.conn[i]];
    for(size_t i=ne0-1;i>0;i--){st^=st<<13;st^=st>>7;st^=st<<17; size_t j=st%(i+1); uint32_t t[4]; memcpy(t,m.conn+4*i,16); memcpy(m.conn+4*i,m.conn+4*j,16); memcpy(m.conn+4*j,t,16);}
    free(pv); m.faces=NULL; m.num_faces=0;
  }
  if(hil==1||hil==3) feint_mesh_renumber(&m, 3, NULL, NULL);
  size_t ne=m.num_elem; feint_integrate_desc d={FEINT_TET4,FEINT_POISSON,FEINT_QSS_GEO_LINEAR,0,0,FEINT_FLAG_TRUST_GEOMETRY,0,0};
  size_t cl; feint_array_len(FEINT_TET4,FEINT_POISSON,FEINT_ARRAY_COEFFS,0,ne,&cl);
  double *coef=malloc(cl*8); for(size_t i=0;i<cl;i++) coef[i]=1.0+1e-3*(i%7);
  double *A=aligned_alloc(64,ne*16*8+64), *b=aligned_alloc(64,ne*4*8+64), *geo=aligned_alloc(64,ne*12*8+64);
  memset(A,0,ne*128); memset(b,0,ne*32);
  feint_mesh_gather_geometry(&m, FEINT_LAYOUT_BLOCKED, geo);
  feint_integrate_desc db=d; db.layout_in=FEINT_LAYOUT_BLOCKED; db.layout_out=FEINT_LAYOUT_BLOCKED;
  double *coefb=malloc(cl*8+64); feint_layout_convert(ne,4,FEINT_LAYOUT_NATURAL,coef,FEINT_LAYOUT_BLOCKED,coefb);
  T("integrate blocked (geometry array)", feint_integrate(&db,ne,geo,coefb,A,b));
  feint_integrate_desc dm=d; dm.layout_out=FEINT_LAYOUT_BLOCKED;
  T("integrate_mesh out blocked", feint_integrate_mesh(&dm,&m,coef,A,b));
  T("integrate_mesh out natural", feint_integrate_mesh(&d,&m,coef,A,b));
  feint_csr csr; feint_csr_create(&m,1,&csr); double *rhs=calloc(m.num_vertices,8);
  feint_assembly *plan; feint_assembly_create(&m,&plan); feint_assembly_map *map; feint_assembly_map_create(&m,&csr,&map);
  T("assemble_mapped colouring", feint_assemble_mapped(&d,FEINT_ASSEMBLE_COLOURING,&m,plan,map,coef,&csr,rhs));
  T("assemble search colouring", feint_assemble(&d,FEINT_ASSEMBLE_COLOURING,&m,plan,coef,&csr,rhs));
  printf("nv %zu nnz %zu\n", m.num_vertices, csr.nnz);
  return 0;
}
