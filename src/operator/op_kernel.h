/*
 * operator/op_kernel.h - what the matrix-free element loops of the operator
 * (kernel/driver_operator.h, instantiated by every variant; the PRECOMPUTED
 * loop of operator/matfree.c) are given, and the cases they cover.
 */
#ifndef FEINT_OPERATOR_OP_KERNEL_H
#define FEINT_OPERATOR_OP_KERNEL_H

#include "feint_internal.h"

/* The cases of the matrix-free operator loops: those the mesh paths
 * integrate (kernel/driver_mesh.h): every element x Poisson, conv-diff,
 * elasticity (3 dofs per vertex, dof 3 v + c); the per-point problems
 * (poisson_kappa, elasticity_qp) are refused by name, like the mesh paths. */
#define FEINT_OP_FOR_EACH_CASE(X)                                               \
  X(TET4, POISSON) X(TET4, CONVDIFF) X(PRISM6, POISSON) X(PRISM6, CONVDIFF)     \
  X(HEX8, POISSON) X(HEX8, CONVDIFF) X(TET4, ELASTICITY) X(PRISM6, ELASTICITY) \
  X(HEX8, ELASTICITY)

/* The cases of FEINT_OPERATOR_QPOINT (operator/qpoint.h). */
#define FEINT_OP_QPOINT_FOR_EACH_CASE(X) X(TET4, POISSON) X(HEX8, POISSON)

/* y += A x over the elements of a mesh, A^e recomputed (RECOMPUTE) or read
 * from per-element data (PRECOMPUTED).  Every array lives in the memory of
 * the run (host, or the device of a device call) except colour_ptr (host;
 * the chunk arrays are read by the host loop only). */
typedef struct {
  int element, problem; /* feint_element, feint_problem */
  int layout_in;        /* coeffs (RECOMPUTE) */
  int atomic;           /* 1: atomic additions; 0: colour by colour, plain additions */
  size_t num_elem, num_dofs;
  const double *coords; /* [num_vertices][3] */
  const uint32_t *conn; /* [num_elem][N_S] */
  const double *coeffs; /* RECOMPUTE: layout_in; NULL: all zero (coefficients that do not
                           enter A^e, such as Poisson's load f, are not read) */
  const double *x;      /* [num_dofs] */
  double *y;            /* [num_dofs], accumulated into */
  /* host: elements in chunks of chunk_len consecutive ones (feint_assembly_chunks),
   * each chunk run in order by one thread; colouring: chunk colour after chunk
   * colour, colour c the chunks chunk_order[chunk_colour_ptr[c] ..]; atomics:
   * every chunk at once */
  size_t chunk_len;
  const uint32_t *chunk_order;
  const size_t *chunk_colour_ptr; /* [num_chunk_colours + 1] */
  size_t num_chunk_colours;
  const uint32_t *block_reach; /* atomics: [2 b], [2 b + 1] the lowest and highest chunk
                                  with an element sharing a vertex with block b's;
                                  NULL: every addition atomic */
  /* device, colouring: element colour after element colour, colour c the
   * elements [colour_ptr[c], colour_ptr[c + 1]) (conn and coeffs are copied
   * in colour order) */
  const size_t *colour_ptr;   /* [num_colours + 1] (host) */
  size_t num_colours;
} feint_op_kernel_args;

typedef void (*feint_op_variant_fn)(const feint_op_kernel_args *);
FEINT_INTERNAL void feint_variant_qss_geo_linear_op_host(const feint_op_kernel_args *);
FEINT_INTERNAL void feint_variant_qss_geo_generic_op_host(const feint_op_kernel_args *);
FEINT_INTERNAL void feint_variant_sqs_geo_linear_op_host(const feint_op_kernel_args *);
FEINT_INTERNAL void feint_variant_sqs_geo_generic_op_host(const feint_op_kernel_args *);
FEINT_INTERNAL void feint_variant_ssq_geo_linear_op_host(const feint_op_kernel_args *);
FEINT_INTERNAL void feint_variant_ssq_geo_generic_op_host(const feint_op_kernel_args *);
FEINT_INTERNAL void feint_variant_tensor_geo_linear_op_host(const feint_op_kernel_args *);
#ifdef FEINT_OFFLOAD
typedef void (*feint_op_variant_device_fn)(const feint_op_kernel_args *, int device,
                                           int host_fallback);
FEINT_INTERNAL void feint_variant_qss_geo_linear_op_device(const feint_op_kernel_args *, int, int);
FEINT_INTERNAL void feint_variant_qss_geo_generic_op_device(const feint_op_kernel_args *, int, int);
FEINT_INTERNAL void feint_variant_sqs_geo_linear_op_device(const feint_op_kernel_args *, int, int);
FEINT_INTERNAL void feint_variant_sqs_geo_generic_op_device(const feint_op_kernel_args *, int, int);
FEINT_INTERNAL void feint_variant_ssq_geo_linear_op_device(const feint_op_kernel_args *, int, int);
FEINT_INTERNAL void feint_variant_ssq_geo_generic_op_device(const feint_op_kernel_args *, int, int);
FEINT_INTERNAL void feint_variant_tensor_geo_linear_op_device(const feint_op_kernel_args *, int, int);
#endif

#endif /* FEINT_OPERATOR_OP_KERNEL_H */
