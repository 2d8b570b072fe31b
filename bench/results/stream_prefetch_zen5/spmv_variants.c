#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stdint.h>
#include <time.h>
#include "feint.h"
static double now(void){struct timespec t;clock_gettime(CLOCK_MONOTONIC,&t);return t.tv_sec+1e-9*t.tv_nsec;}
__attribute__((noinline)) size_t cur(size_t nrows, size_t ncols, size_t nnz, const int64_t *rp, const int32_t *ci, const double *va, const double *x, double *y){
    const int64_t nz = (int64_t)nnz;
    size_t bad = 0;
#pragma omp parallel for schedule(static) reduction(+ : bad)
    for (size_t i = 0; i < nrows; i++) {
      const int64_t lo = rp[i], hi = rp[i + 1];
      double s = 0.0;
      if (lo >= 0 && lo <= hi && hi <= nz) {
        for (int64_t k = lo; k < hi; k++) {
          const uint32_t c = (uint32_t)ci[k];
          if (c < ncols)
            s += va[k] * x[c];
          else
            bad++;
        }
      } else {
        bad++;
      }
      y[i] = s;
    }
    return bad;
}
__attribute__((noinline)) size_t two(size_t nrows, size_t ncols, size_t nnz, const int64_t *rp, const int32_t *ci, const double *va, const double *x, double *y){
    const int64_t nz = (int64_t)nnz;
    size_t bad = 0;
#pragma omp parallel for schedule(static) reduction(+ : bad)
    for (size_t i = 0; i < nrows; i++) {
      const int64_t lo = rp[i], hi = rp[i + 1];
      double s = 0.0;
      if (lo >= 0 && lo <= hi && hi <= nz) {
        uint32_t cmax = 0; /* the row's columns checked first: a vector scan */
        for (int64_t k = lo; k < hi; k++) cmax = (uint32_t)ci[k] > cmax ? (uint32_t)ci[k] : cmax;
        if (cmax < ncols || hi == lo) {
          for (int64_t k = lo; k < hi; k++) s += va[k] * x[(uint32_t)ci[k]];
        } else {
          for (int64_t k = lo; k < hi; k++) {
            const uint32_t c = (uint32_t)ci[k];
            if (c < ncols) s += va[k] * x[c]; else bad++;
          }
        }
      } else {
        bad++;
      }
      y[i] = s;
    }
    return bad;
}
__attribute__((noinline)) size_t plain(size_t nrows, size_t ncols, size_t nnz, const int64_t *rp, const int32_t *ci, const double *va, const double *x, double *y){
  (void)ncols,(void)nnz;
#pragma omp parallel for schedule(static)
    for (size_t i = 0; i < nrows; i++) { double s=0; for (int64_t k = rp[i]; k < rp[i+1]; k++) s += va[k] * x[ci[k]]; y[i]=s; }
    return 0;
}
__attribute__((noinline)) size_t pf(size_t nrows, size_t ncols, size_t nnz, const int64_t *rp, const int32_t *ci, const double *va, const double *x, double *y){
    const int64_t nz = (int64_t)nnz;
    size_t bad = 0;
#pragma omp parallel for schedule(static) reduction(+ : bad)
    for (size_t i = 0; i < nrows; i++) {
      const int64_t lo = rp[i], hi = rp[i + 1];
      if (hi + PFD <= nz) { /* the lines of the entries PFD ahead of this row's */
        for (int64_t k = (lo + PFD) & ~(int64_t)7; k < hi + PFD; k += 8) __builtin_prefetch(va + k);
        for (int64_t k = (lo + PFD) & ~(int64_t)15; k < hi + PFD; k += 16) __builtin_prefetch(ci + k);
      }
      double s = 0.0;
      if (lo >= 0 && lo <= hi && hi <= nz) {
        for (int64_t k = lo; k < hi; k++) {
          const uint32_t c = (uint32_t)ci[k];
          if (c < ncols)
            s += va[k] * x[c];
          else
            bad++;
        }
      } else {
        bad++;
      }
      y[i] = s;
    }
    return bad;
}
__attribute__((noinline)) size_t pfx(size_t nrows, size_t ncols, size_t nnz, const int64_t *rp, const int32_t *ci, const double *va, const double *x, double *y){
    const int64_t nz = (int64_t)nnz;
    size_t bad = 0;
#pragma omp parallel for schedule(static) reduction(+ : bad)
    for (size_t i = 0; i < nrows; i++) {
      const int64_t lo = rp[i], hi = rp[i + 1];
      __builtin_prefetch(va + lo + PFD); __builtin_prefetch(va + lo + PFD + 8); __builtin_prefetch(ci + lo + PFD);
      double s = 0.0;
      if (lo >= 0 && lo <= hi && hi <= nz) {
        for (int64_t k = lo; k < hi; k++) {
          const uint32_t c = (uint32_t)ci[k];
          if (c < ncols)
            s += va[k] * x[c];
          else
            bad++;
        }
      } else {
        bad++;
      }
      y[i] = s;
    }
    return bad;
}
int main(int argc,char**argv){
  size_t n = argc>1?atoi(argv[1]):88; int reps=argc>2?atoi(argv[2]):11;
  feint_mesh m; feint_mesh_box_create(FEINT_TET4,n,n,n,FEINT_PERTURB_NONE,0,1,&m);
  int dpv=argc>3?atoi(argv[3]):1; if(argc>4&&atoi(argv[4])) feint_mesh_renumber(&m,3,NULL,NULL); feint_csr A; feint_csr_create(&m,dpv,&A); for(size_t i=0;i<A.nnz;i++) A.values[i]=1.0+1e-3*(i%11);
  double *x=malloc(A.num_cols*8),*y=malloc(A.num_rows*8),*y0=malloc(A.num_rows*8); for(size_t i=0;i<A.num_cols;i++) x[i]=1.0+1e-3*(i%13);
  size_t (*f[])(size_t,size_t,size_t,const int64_t*,const int32_t*,const double*,const double*,double*)={cur,pf,pfx};
  const char *nm[]={"current","prefetch cover","prefetch fixed"};
  cur(A.num_rows,A.num_cols,A.nnz,A.row_ptr,A.col_idx,A.values,x,y0);
  for(int round=0;round<2;round++) for(int v=0;v<3;v++){
  double best=1e9; for(int r=0;r<reps;r++){double t0=now(); f[v](A.num_rows,A.num_cols,A.nnz,A.row_ptr,A.col_idx,A.values,x,y); double t=now()-t0; if(t<best)best=t;}
  printf("n=%zu %-18s %.3f ns/nnz  %.2f GB/s  same bits %d\n", n, nm[v], best*1e9/A.nnz, (12.0*A.nnz+16.0*A.num_rows)/best/1e9, !memcmp(y,y0,A.num_rows*8)); }
  return 0; }
