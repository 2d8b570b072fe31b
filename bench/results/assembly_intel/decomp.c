#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "feint.h"
static double now(void){struct timespec t;clock_gettime(CLOCK_MONOTONIC,&t);return t.tv_sec+1e-9*t.tv_nsec;}
int main(int argc,char**argv){
  size_t n = argc>1?atoi(argv[1]):88; int reps=argc>2?atoi(argv[2]):11;
  feint_mesh m; feint_mesh_box_create(FEINT_TET4,n,n,n,FEINT_PERTURB_NONE,0,1,&m);
  size_t ne=m.num_elem; feint_integrate_desc d={FEINT_TET4,FEINT_POISSON,FEINT_QSS_GEO_LINEAR,0,0,FEINT_FLAG_TRUST_GEOMETRY,0,0};
  size_t cl; feint_array_len(FEINT_TET4,FEINT_POISSON,FEINT_ARRAY_COEFFS,0,ne,&cl);
  double *coef=malloc(cl*8); for(size_t i=0;i<cl;i++) coef[i]=1.0+1e-3*(i%7);
  double *geo=malloc(ne*12*8), *Ae=aligned_alloc(64,ne*16*8), *be=aligned_alloc(64,ne*4*8);
  for(size_t e=0;e<ne;e++) for(int k=0;k<4;k++) for(int c=0;c<3;c++) geo[e*12+3*k+c]=m.coords[3*m.conn[4*e+k]+c];
  feint_csr csr; feint_csr_create(&m,1,&csr); double *rhs=calloc(m.num_vertices,8);
  feint_assembly *plan; feint_assembly_create(&m,&plan); feint_assembly_map *map; feint_assembly_map_create(&m,&csr,&map);
  for(int round=0;round<2;round++){
  double best=1e9; for(int r=0;r<reps;r++){double t0=now(); feint_integrate(&d,ne,geo,coef,Ae,be); double t=now()-t0; if(t<best)best=t;}
  printf("n=%zu integrate natural (geometry array)   %.2f ns/e\n", n, best*1e9/ne);
  d.layout_out=FEINT_LAYOUT_BLOCKED;
  best=1e9; for(int r=0;r<reps;r++){double t0=now(); feint_integrate_mesh(&d,&m,coef,Ae,be); double t=now()-t0; if(t<best)best=t;}
  printf("n=%zu integrate_mesh out blocked         %.2f ns/e\n", n, best*1e9/ne);
  d.layout_out=0;
  best=1e9; for(int r=0;r<reps;r++){double t0=now(); feint_assemble_mapped(&d,FEINT_ASSEMBLE_COLOURING,&m,plan,map,coef,&csr,rhs); double t=now()-t0; if(t<best)best=t;}
  printf("n=%zu assemble_mapped colouring           %.2f ns/e\n", n, best*1e9/ne);
  }
  return 0;
}
