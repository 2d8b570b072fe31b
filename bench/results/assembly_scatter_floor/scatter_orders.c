#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stdint.h>
#include <time.h>
#include "feint.h"
static double now(void){struct timespec t;clock_gettime(CLOCK_MONOTONIC,&t);return t.tv_sec+1e-9*t.tv_nsec;}
#define B 8
static int32_t *off; static int64_t *rp; static uint32_t *conn; static double *val, *rhs; static size_t ne;
static double Ab[16*B] __attribute__((aligned(64))), bb[4*B];
__attribute__((noinline)) void v1(void){ /* lane outer, as feint */
  for(size_t i0=0;i0<ne;i0+=B) for(int l=0;l<B;l++){ size_t e=i0+l; const uint32_t*v=conn+4*e; const int32_t*o=off+16*e;
    for(int r=0;r<4;r++){ double*row=val+rp[v[r]]; for(int s=0;s<4;s++) row[o[4*r+s]]+=Ab[(4*r+s)*B+l]; rhs[v[r]]+=bb[r*B+l]; } } }
__attribute__((noinline)) void v2(void){ /* entry outer, lane inner */
  for(size_t i0=0;i0<ne;i0+=B){ for(int r=0;r<4;r++){ for(int s=0;s<4;s++) for(int l=0;l<B;l++){ size_t e=i0+l; val[rp[conn[4*e+r]]+off[16*e+4*r+s]]+=Ab[(4*r+s)*B+l]; }
      for(int l=0;l<B;l++) rhs[conn[4*(i0+l)+r]]+=bb[r*B+l]; } } }
static int64_t *pos; 
__attribute__((noinline)) void v3(void){ /* absolute positions */
  for(size_t i0=0;i0<ne;i0+=B) for(int l=0;l<B;l++){ size_t e=i0+l; const int64_t*p=pos+16*e; const uint32_t*v=conn+4*e;
    for(int k=0;k<16;k++) val[p[k]]+=Ab[k*B+l]; for(int r=0;r<4;r++) rhs[v[r]]+=bb[r*B+l]; } }
__attribute__((noinline)) void v4(void){ /* only stores, no RMW: value = Ab */
  for(size_t i0=0;i0<ne;i0+=B) for(int l=0;l<B;l++){ size_t e=i0+l; const uint32_t*v=conn+4*e; const int32_t*o=off+16*e;
    for(int r=0;r<4;r++){ double*row=val+rp[v[r]]; for(int s=0;s<4;s++) row[o[4*r+s]]=Ab[(4*r+s)*B+l]; rhs[v[r]]=bb[r*B+l]; } } }
__attribute__((noinline)) void v5(void){ /* lane outer, but loads of one element all before its stores */
  for(size_t i0=0;i0<ne;i0+=B) for(int l=0;l<B;l++){ size_t e=i0+l; const uint32_t*v=conn+4*e; const int32_t*o=off+16*e;
    double *pp[16]; double x[16];
    for(int r=0;r<4;r++){ double*row=val+rp[v[r]]; for(int s=0;s<4;s++) pp[4*r+s]=row+o[4*r+s]; }
    for(int k=0;k<16;k++) x[k]=*pp[k]+Ab[k*B+l];
    for(int k=0;k<16;k++) *pp[k]=x[k];
    for(int r=0;r<4;r++) rhs[v[r]]+=bb[r*B+l]; } }
int main(int argc,char**argv){
  size_t n=argc>1?atoi(argv[1]):88; int reps=argc>2?atoi(argv[2]):11;
  feint_mesh m; feint_mesh_box_create(FEINT_TET4,n,n,n,FEINT_PERTURB_NONE,0,1,&m);
  feint_csr csr; feint_csr_create(&m,1,&csr); ne=m.num_elem; ne-=ne%B; conn=m.conn; rp=csr.row_ptr; val=csr.values; rhs=calloc(m.num_vertices,8);
  off=malloc(ne*16*4); pos=malloc(ne*16*8);
  for(size_t e=0;e<ne;e++) for(int r=0;r<4;r++) for(int s=0;s<4;s++){ int64_t k=rp[conn[4*e+r]]; while(csr.col_idx[k]!=(int32_t)conn[4*e+s]) k++; off[16*e+4*r+s]=(int32_t)(k-rp[conn[4*e+r]]); pos[16*e+4*r+s]=k; }
  for(int i=0;i<16*B;i++) Ab[i]=1e-3*i; for(int i=0;i<4*B;i++) bb[i]=1e-2*i;
  void (*f[])(void)={v1,v2,v3,v4,v5}; const char*nm[]={"v1 lane-outer (feint)","v2 entry-outer","v3 abs positions","v4 stores only","v5 loads-then-stores"};
  for(int round=0;round<2;round++) for(int k=0;k<5;k++){ double best=1e9; for(int r=0;r<reps;r++){double t0=now(); f[k](); double t=now()-t0; if(t<best)best=t;} printf("n=%zu %-24s %.2f ns/e\n",n,nm[k],best*1e9/ne); }
  return 0; }
