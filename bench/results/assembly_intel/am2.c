#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include "feint.h"
static double now(void){struct timespec t;clock_gettime(CLOCK_MONOTONIC,&t);return t.tv_sec+1e-9*t.tv_nsec;}
static int cmp(const void*a,const void*b){double x=*(double*)a,y=*(double*)b;return x<y?-1:x>y;}
int main(int argc,char**argv){
  size_t n = atoi(argv[1]); int reps=atoi(argv[2]); int hil=atoi(argv[3]); const char*tag=argv[4];
  feint_mesh m; feint_mesh_box_create(FEINT_TET4,n,n,n,FEINT_PERTURB_NONE,0,1,&m);
  if(hil) feint_mesh_renumber(&m, 3, NULL, NULL);
  size_t ne=m.num_elem; feint_integrate_desc d={FEINT_TET4,FEINT_POISSON,FEINT_QSS_GEO_LINEAR,0,0,FEINT_FLAG_TRUST_GEOMETRY,0,0};
  size_t cl; feint_array_len(FEINT_TET4,FEINT_POISSON,FEINT_ARRAY_COEFFS,0,ne,&cl);
  double *coef=malloc(cl*8); for(size_t i=0;i<cl;i++) coef[i]=1.0+1e-3*(i%7);
  feint_csr csr; feint_csr_create(&m,1,&csr); double *rhs=calloc(m.num_vertices,8);
  feint_assembly *plan; feint_assembly_create(&m,&plan); feint_assembly_map *map; feint_assembly_map_create(&m,&csr,&map);
  double t[64];
  for(int st=0;st<2;st++){
  for(int r=0;r<reps;r++){double t0=now(); feint_assemble_mapped(&d,st?FEINT_ASSEMBLE_ATOMICS:FEINT_ASSEMBLE_COLOURING,&m,plan,map,coef,&csr,rhs); t[r]=now()-t0;}
  qsort(t,reps,8,cmp);
  printf("%s n=%zu %s %s min %.2f med %.2f ns/e\n", tag, n, hil?"hilbert":"box", st?"atomics":"colouring", t[0]*1e9/ne, t[reps/2]*1e9/ne);}
  return 0; }
