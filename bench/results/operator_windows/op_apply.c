#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "feint.h"
static double now(void){struct timespec t;clock_gettime(CLOCK_MONOTONIC,&t);return t.tv_sec+1e-9*t.tv_nsec;}
int main(int argc,char**argv){
  size_t n = argc>1?atoi(argv[1]):88; int reps=argc>2?atoi(argv[2]):11; int form=argc>3?atoi(argv[3]):1; int hil=argc>4?atoi(argv[4]):0; int hex=argc>5?atoi(argv[5]):0; feint_element el=hex==2?FEINT_PRISM6:hex?FEINT_HEX8:FEINT_TET4;
  feint_mesh m; feint_mesh_box_create(el,n,n,n,FEINT_PERTURB_NONE,0,1,&m);
  if(hil) feint_mesh_renumber(&m,FEINT_RENUMBER_VERTICES|FEINT_RENUMBER_ELEMENTS,NULL,NULL);
  size_t ne=m.num_elem; feint_integrate_desc d={el,FEINT_POISSON,hex?FEINT_QSS_GEO_GENERIC:FEINT_QSS_GEO_LINEAR,0,0,FEINT_FLAG_TRUST_GEOMETRY,0,0};
  size_t cl; feint_array_len(el,FEINT_POISSON,FEINT_ARRAY_COEFFS,0,ne,&cl);
  double *coef=malloc(cl*8); for(size_t i=0;i<cl;i++) coef[i]=1.0;
  feint_operator *op; if(feint_operator_create(&d,form,FEINT_ASSEMBLE_COLOURING,&m,coef,0,NULL,&op)){printf("%s\n",feint_last_error());return 1;}
  double *x=malloc(m.num_vertices*8),*y=malloc(m.num_vertices*8); for(size_t i=0;i<m.num_vertices;i++) x[i]=1.0+1e-3*(i%13);
  double best=1e9; for(int r=0;r<reps;r++){double t0=now(); feint_operator_apply(op,x,y,0); double t=now()-t0; if(t<best)best=t;}
  double s=0; for(size_t i=0;i<m.num_vertices;i++) s+=y[i]*x[i];
  printf("n=%zu hil %d form %d min %.3f ns/e  xAx %.10g\n", n, hil, form, best*1e9/ne, s);
  return 0; }
