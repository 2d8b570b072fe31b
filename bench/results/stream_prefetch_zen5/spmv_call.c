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
  int dpv=argc>3?atoi(argv[3]):1; if(argc>4&&atoi(argv[4])) feint_mesh_renumber(&m,3,NULL,NULL); feint_csr A; feint_csr_create(&m,dpv,&A); for(size_t i=0;i<A.nnz;i++) A.values[i]=1.0+1e-3*(i%11);
  double *x=malloc(A.num_cols*8),*y=malloc(A.num_rows*8); for(size_t i=0;i<A.num_cols;i++) x[i]=1.0+1e-3*(i%13);
  double best=1e9; for(int r=0;r<reps;r++){double t0=now(); feint_csr_spmv(&A,x,y,FEINT_TARGET_HOST,0,0); double t=now()-t0; if(t<best)best=t;}
  printf("n=%zu nnz %zu rows %zu: %.3f ns/nnz  %.2f GB/s (12 B/nnz + 16 B/row)\n", n, A.nnz, A.num_rows, best*1e9/A.nnz, (12.0*A.nnz+16.0*A.num_rows)/best/1e9);
  return 0; }
