/*
 * operator/operator_internal.h - the state of a feint_operator, shared by
 * the files of src/operator/ (operator.c: create, constraints, rhs, the
 * ASSEMBLED form; matfree.c: the matrix-free forms).
 *
 * Memory spaces: every array the apply reads has a copy in the space the
 * operator runs in ("run space": the host, or device `dev`; after a host
 * fallback in an offload build the initial device, whose pointers are host
 * pointers).  The host keeps what feint_operator_rhs and create need (load
 * vector, diagonal, constraint lists).
 */
#ifndef FEINT_OPERATOR_INTERNAL_H
#define FEINT_OPERATOR_INTERNAL_H

#include "assembly/assembly_internal.h"

/* One entry A_ji of the unconstrained matrix with i constrained and j not:
 * what the elimination removes from row j, and what lifts b_j by -A_ji g_i. */
typedef struct {
  uint32_t row, col;
  double value;
} feint_op_lift;

struct feint_operator {
  feint_operator_form form;
  feint_assemble_strategy strategy;
  feint_integrate_desc desc; /* the case (flags without DEVICE_POINTERS) */
  const feint_mesh *mesh;
  size_t num_dofs, num_elem, num_vertices;
  int dofs_per_vertex, nodes;
  int run_device;    /* 1: the device code runs (on dev) */
  int host_fallback; /* 1: a device was asked for, the host runs it */
  int dev;           /* the OpenMP device number of the run space */
  size_t data_bytes;

  /* host */
  double *load;       /* [num_dofs] sum_e b^e */
  double *diag;       /* [num_dofs] unconstrained diagonal */
  size_t num_bc_in;   /* bc_dofs as given at create (rhs reads values in this order) */
  uint32_t *bc_in;
  size_t num_bc;      /* distinct constrained dofs, ascending */
  uint32_t *bc;
  size_t num_lift;
  feint_op_lift *lift;

  /* ASSEMBLED: the eliminated matrix (host), and its run-space arrays */
  feint_csr A;
  const int64_t *rp;
  const int32_t *ci;
  const double *va;

  /* run space */
  double *d_diag;       /* [num_dofs] */
  uint32_t *d_bc;       /* [num_bc] */
  double *d_x, *d_y;    /* [num_dofs] work vectors: host-array applies on a device,
                           masked x of the matrix-free forms */
  double *d_bcval;      /* [num_bc] a_ii x_i of the constrained rows (matrix-free) */

  /* matrix-free forms (matfree.c) */
  double *coeffs;            /* run space: coefficients entering A^e (RECOMPUTE; not Poisson) */
  const double *coords;      /* run space: mesh coordinates (device copy, or the mesh's) */
  const uint32_t *conn;      /* run space: connectivity (device copy, or the mesh's) */
  feint_assembly *plan;      /* colouring (host) */
  /* host: chunks of chunk_len consecutive elements, each run in order by one
   * thread; colouring: the plan's chunk colours (feint_assembly_chunks) */
  size_t chunk_len;
  size_t num_chunk_colours;
  const size_t *chunk_colour_ptr;
  const uint32_t *chunk_order;
  uint32_t *block_reach;     /* host RECOMPUTE, atomics: feint_asm_build_reach */
  /* device, RECOMPUTE, colouring: the plan's element colours (host), conn and
   * coeffs copied in colour order */
  size_t num_colours;
  const size_t *colour_ptr;
  /* PRECOMPUTED, QPOINT: the slots form runs, each padded to whole blocks
   * of FEINT_BLOCK_LEN slots; a run is one chunk on the host (run in order
   * by one thread), one element colour or the whole mesh (atomics) on a
   * device (one kernel).  Groups of runs go one after another (the colours;
   * one group with atomics), the runs of a group concurrently. */
  size_t num_groups;
  size_t *run_ptr;           /* [num_groups + 1] first run of each group */
  size_t num_runs;
  size_t *run_slot;          /* [num_runs + 1] first slot of each run */
  size_t *run_count;         /* [num_runs] elements of each run */
  size_t num_slots;
  uint32_t *slot_conn;       /* device, and the host without windows (matfree.c,
                                pre_windowed): [num_slots][N_S] */
  /* host: each run cut into windows of whole blocks, each window touching at
   * most FEINT_OP_WINDOW_DOFS / N_C vertices (matfree.c, make_windows) */
  size_t *run_win;           /* [num_runs + 1] first window of each run (W = run_win[num_runs]
                                windows in all) */
  size_t *win_slot;          /* [W + 1] first slot of each window */
  size_t *win_vptr;          /* [W + 1] first entry of win_vert of each */
  uint32_t *win_vert;        /* each window's vertices, ascending */
  uint16_t *win_conn;        /* the slots' vertices as window-local indices, blocked:
                                node n of slot s at [s / B][n][s % B] */
  double *elem_data;         /* PRECOMPUTED, run space: packed A^e, blocked by slot;
                                QPOINT: the factors, block b at qp_off[b] */
  uint64_t *qp_off;          /* QPOINT, run space: [num_slots / B + 1] offsets (doubles) of
                                each block's factors: 6 B apart (one G per cell) or 48 B */
  size_t num_affine_blocks;  /* QPOINT: blocks stored with one G per cell */
};

/* Run-space memory (host malloc for a host operator). */
FEINT_INTERNAL feint_status feint_op_alloc(const feint_operator *op, size_t bytes, void **p);
FEINT_INTERNAL void feint_op_free(const feint_operator *op, void *p);
/* Copy host -> run space (to) and run space -> host (from). */
FEINT_INTERNAL feint_status feint_op_to(const feint_operator *op, void *dst, const void *src,
                                        size_t bytes);
FEINT_INTERNAL feint_status feint_op_from(const feint_operator *op, void *dst, const void *src,
                                          size_t bytes);

/* A run-space copy of a host array (NULL for 0 bytes), counted in
 * data_bytes. */
FEINT_INTERNAL feint_status feint_op_upload(feint_operator *op, const void *src, size_t bytes,
                                            void **dst);

/* The dofs a host window may touch (matfree.c; tests lower it). */
extern FEINT_INTERNAL size_t feint_op_window_dofs;

/* Matrix-free forms (matfree.c): set up at create (after the common part:
 * diag, load, constraints), apply y = A x without constraints (x, y in the
 * run space), release. */
FEINT_INTERNAL feint_status feint_op_matfree_create(feint_operator *op, const double *coeffs,
                                                    size_t coeff_len, const double *A_e);
FEINT_INTERNAL void feint_op_matfree_apply(const feint_operator *op, const double *x, double *y);
FEINT_INTERNAL void feint_op_matfree_destroy(feint_operator *op);

#endif /* FEINT_OPERATOR_INTERNAL_H */
