#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stdint.h>
#include <time.h>
#include <immintrin.h>
#include "feint.h"
static double now(void){struct timespec t;clock_gettime(CLOCK_MONOTONIC,&t);return t.tv_sec+1e-9*t.tv_nsec;}
#define B 8
static int32_t *off; static int64_t *rp; static uint32_t *conn; static double *val, *rhs; static size_t ne;
static double Ab[16*B] __attribute__((aligned(64))), bb[4*B] __attribute__((aligned(64)));
static double src[16*B] __attribute__((aligned(64)));
static inline void produce(size_t i0){ /* the kernel's block output: vector stores */
  __m512d s=_mm512_set1_pd(1e-9*(double)i0);
  for(int k=0;k<16;k++) _mm512_store_pd(Ab+k*B,_mm512_add_pd(_mm512_load_pd(src+k*B),s));
  for(int k=0;k<4;k++) _mm512_store_pd(bb+k*B,_mm512_add_pd(_mm512_load_pd(src+k*B),s));
  __asm__ volatile("" ::: "memory"); }
__attribute__((noinline)) void v0(void){ for(size_t i0=0;i0<ne;i0+=B) produce(i0); }
__attribute__((noinline)) void v1(void){ /* lane outer, as feint, block produced by vector stores */
  for(size_t i0=0;i0<ne;i0+=B){ produce(i0); for(int l=0;l<B;l++){ size_t e=i0+l; const uint32_t*v=conn+4*e; const int32_t*o=off+16*e;
    for(int r=0;r<4;r++){ double*row=val+rp[v[r]]; for(int s=0;s<4;s++) row[o[4*r+s]]+=Ab[(4*r+s)*B+l]; rhs[v[r]]+=bb[r*B+l]; } } } }
__attribute__((noinline)) void v6(void){ /* values kept in registers: extract lane l */
  for(size_t i0=0;i0<ne;i0+=B){ produce(i0); __m512d a[16], bv[4];
    for(int k=0;k<16;k++) a[k]=_mm512_load_pd(Ab+k*B); for(int k=0;k<4;k++) bv[k]=_mm512_load_pd(bb+k*B);
    for(int l=0;l<B;l++){ size_t e=i0+l; const uint32_t*v=conn+4*e; const int32_t*o=off+16*e;
      for(int r=0;r<4;r++){ double*row=val+rp[v[r]]; for(int s=0;s<4;s++) row[o[4*r+s]]+=_mm512_cvtsd_f64(a[4*r+s]); rhs[v[r]]+=_mm512_cvtsd_f64(bv[r]); }
      for(int k=0;k<16;k++) a[k]=_mm512_castsi512_pd(_mm512_alignr_epi64(_mm512_castpd_si512(a[k]),_mm512_castpd_si512(a[k]),1));
      for(int k=0;k<4;k++) bv[k]=_mm512_castsi512_pd(_mm512_alignr_epi64(_mm512_castpd_si512(bv[k]),_mm512_castpd_si512(bv[k]),1)); } } }
static uint8_t *off8;
__attribute__((noinline)) void v7(void){ /* as v1, uint8 offsets */
  for(size_t i0=0;i0<ne;i0+=B){ produce(i0); for(int l=0;l<B;l++){ size_t e=i0+l; const uint32_t*v=conn+4*e; const uint8_t*o=off8+16*e;
    for(int r=0;r<4;r++){ double*row=val+rp[v[r]]; for(int s=0;s<4;s++) row[o[4*r+s]]+=Ab[(4*r+s)*B+l]; rhs[v[r]]+=bb[r*B+l]; } } } }
__attribute__((noinline)) void v8(void){ /* v6 + uint8 offsets */
  for(size_t i0=0;i0<ne;i0+=B){ produce(i0); __m512d a[16], bv[4];
    for(int k=0;k<16;k++) a[k]=_mm512_load_pd(Ab+k*B); for(int k=0;k<4;k++) bv[k]=_mm512_load_pd(bb+k*B);
    for(int l=0;l<B;l++){ size_t e=i0+l; const uint32_t*v=conn+4*e; const uint8_t*o=off8+16*e;
      for(int r=0;r<4;r++){ double*row=val+rp[v[r]]; for(int s=0;s<4;s++) row[o[4*r+s]]+=_mm512_cvtsd_f64(a[4*r+s]); rhs[v[r]]+=_mm512_cvtsd_f64(bv[r]); }
      for(int k=0;k<16;k++) a[k]=_mm512_castsi512_pd(_mm512_alignr_epi64(_mm512_castpd_si512(a[k]),_mm512_castpd_si512(a[k]),1));
      for(int k=0;k<4;k++) bv[k]=_mm512_castsi512_pd(_mm512_alignr_epi64(_mm512_castpd_si512(bv[k]),_mm512_castpd_si512(bv[k]),1)); } } }
int main(int argc,char**argv){
  size_t n=argc>1?atoi(argv[1]):88; int reps=argc>2?atoi(argv[2]):11;
  feint_mesh m; feint_mesh_box_create(FEINT_TET4,n,n,n,FEINT_PERTURB_NONE,0,1,&m);
  feint_csr csr; feint_csr_create(&m,1,&csr); ne=m.num_elem; ne-=ne%B; conn=m.conn; rp=csr.row_ptr; val=csr.values; rhs=calloc(m.num_vertices,8);
  off=malloc(ne*16*4); off8=malloc(ne*16);
  for(size_t e=0;e<ne;e++) for(int r=0;r<4;r++) for(int s=0;s<4;s++){ int64_t k=rp[conn[4*e+r]]; while(csr.col_idx[k]!=(int32_t)conn[4*e+s]) k++; off[16*e+4*r+s]=(int32_t)(k-rp[conn[4*e+r]]); off8[16*e+4*r+s]=(uint8_t)off[16*e+4*r+s]; }
  for(int i=0;i<16*B;i++) src[i]=1e-3*i;
  void (*f[])(void)={v0,v1,v6,v7,v8}; const char*nm[]={"v0 produce only","v1 lane-outer (feint)","v6 regs extract","v7 uint8 offsets","v8 regs+uint8"};
  for(int round=0;round<2;round++) for(int k=0;k<5;k++){ memset(val,0,csr.nnz*8); double best=1e9; for(int r=0;r<reps;r++){double t0=now(); f[k](); double t=now()-t0; if(t<best)best=t;} double s=0; for(size_t i=0;i<csr.nnz;i++) s+=val[i]; printf("n=%zu %-24s %.2f ns/e  sum %.6g\n",n,nm[k],best*1e9/ne,s); }
  return 0; }
