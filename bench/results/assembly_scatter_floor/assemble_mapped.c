#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "feint.h"
static double now(void){struct timespec t;clock_gettime(CLOCK_MONOTONIC,&t);return t.tv_sec+1e-9*t.tv_nsec;}
int main(int argc,char**argv){
  size_t n = argc>1?atoi(argv[1]):88; int reps=argc>2?atoi(argv[2]):11; int hil=argc>3?atoi(argv[3]):0;
  feint_mesh m; feint_mesh_box_create(FEINT_TET4,n,n,n,FEINT_PERTURB_NONE,0,1,&m);
  if(hil) feint_mesh_renumber(&m, 3, NULL, NULL);
  size_t ne=m.num_elem; feint_integrate_desc d={FEINT_TET4,FEINT_POISSON,FEINT_QSS_GEO_LINEAR,0,0,FEINT_FLAG_TRUST_GEOMETRY,0,0};
  size_t cl; feint_array_len(FEINT_TET4,FEINT_POISSON,FEINT_ARRAY_COEFFS,0,ne,&cl);
  double *coef=malloc(cl*8); for(size_t i=0;i<cl;i++) coef[i]=1.0+1e-3*(i%7);
  feint_csr csr; feint_csr_create(&m,1,&csr); double *rhs=calloc(m.num_vertices,8);
  feint_assembly *plan; feint_assembly_create(&m,&plan); feint_assembly_map *map; feint_assembly_map_create(&m,&csr,&map);
  double best=1e9, t[64]; for(int r=0;r<reps;r++){double t0=now(); feint_assemble_mapped(&d,FEINT_ASSEMBLE_COLOURING,&m,plan,map,coef,&csr,rhs); t[r]=now()-t0; if(t[r]<best)best=t[r];}
  double s=0; for(size_t i=0;i<csr.nnz;i++) s+=csr.values[i];
  printf("assemble_mapped colouring min %.2f ns/e  checksum %.17g\n", best*1e9/ne, s);
  d.flags=0; best=1e9; for(int r=0;r<reps;r++){double t0=now(); feint_assemble_mapped(&d,FEINT_ASSEMBLE_COLOURING,&m,plan,map,coef,&csr,rhs); t[r]=now()-t0; if(t[r]<best)best=t[r];}
  printf("assemble_mapped colouring checked min %.2f ns/e\n", best*1e9/ne);
  return 0;
}
