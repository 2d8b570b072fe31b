/*
 * assembly/assembly_internal.h - helpers shared by the assembly layer
 * (src/assembly/): mesh checks, where a call runs, device transfers.
 */
#ifndef FEINT_ASSEMBLY_INTERNAL_H
#define FEINT_ASSEMBLY_INTERNAL_H

#include "feint_internal.h"
#include "validate.h"

/* Nodes per element of a mesh's element type. */
FEINT_INTERNAL int feint_asm_nodes(feint_element element);

/* The element checks of a mesh call, one sweep over the elements
 * (feint_validate_scan_mesh: each block's coordinates gathered through the
 * connectivity into an L1 buffer, its coefficients read beside them):
 * det J > 0 and finite at every quadrature point, coordinates in the range
 * the kernels integrate without rescaling, affine prisms and hexahedra if
 * check_affine; coeffs (in `layout`) finite, in that range and describing
 * a material.  The first element of each finding is named.  geo != NULL:
 * the geometry findings of this very mesh, known from an earlier scan
 * with check_affine = 1 (feint_asm_geo_scan); only the coefficients are
 * read. */
FEINT_INTERNAL feint_status feint_asm_check_elements(const feint_mesh *mesh,
                                                     feint_problem problem,
                                                     feint_layout layout,
                                                     const double *coeffs, int check_affine,
                                                     const feint_scan_firsts *geo);

/* The geometry findings of every element of a mesh (check_affine = 1; the
 * coefficient fields SIZE_MAX): what feint_asm_check_elements finds in
 * the geometry, kept by a plan with the fingerprints of the mesh they
 * belong to. */
FEINT_INTERNAL void feint_asm_geo_scan(const feint_mesh *mesh, feint_scan_firsts *geo);

/* Where a mesh or CSR call with (target, device, flags) runs
 * (feint_target_resolve; FEINT_FLAG_DEVICE_POINTERS refused on these
 * paths): *run_device = 1 for the device code (on `device`, or with
 * *host_fallback = 1 on the initial device in an offload build without a
 * usable device), 0 for the host code. */
FEINT_INTERNAL feint_status feint_asm_resolve_target(feint_target target, int device,
                                                     unsigned flags, const char *prefix,
                                                     int *run_device, int *host_fallback);

/* Fingerprints of a mesh's connectivity and of a pattern's row offsets and
 * columns: the wrapping sum of one hashed term per entry (its array, index
 * and value), so threads add in any order and the result does not depend
 * on their number.  A plan and a map hold colours or positions that are
 * right only for the arrays they were made from; the same sizes with other
 * contents would race (colours) or put entries in other columns or past a
 * short row's end (map).  One pass over the array each.  The connectivity
 * has two: ordered != 0 (each node's position counts: the map's) and
 * ordered == 0, the vertex sets (an element's nodes in any order: the
 * plan's, whose colours depend only on which vertices an element has, so
 * reordering an element's nodes, as feint_mesh_orient does, keeps a plan
 * valid). */
FEINT_INTERNAL uint64_t feint_asm_fingerprint_conn(const feint_mesh *mesh, int ordered);
/* The same for the vertex coordinates, each double by its bits (so -0.0
 * and 0.0, or two NaNs, differ). */
FEINT_INTERNAL uint64_t feint_asm_fingerprint_coords(const feint_mesh *mesh);
FEINT_INTERNAL uint64_t feint_asm_fingerprint_pattern(const feint_csr *A);

/* The offsets of a feint_assembly_map (assembly/map.c), 32-bit (*off) or
 * 1-byte (*off8; the other NULL), after checking it
 * was made for this mesh and pattern: the sizes, the connectivity's
 * ordered fingerprint (conn_fp, computed by the caller) and the pattern's
 * (FEINT_ERR_UNSUPPORTED otherwise).  The pattern was checked
 * (feint_csr_check_pattern) when the map was made, so equal fingerprints
 * stand for that check too. */
FEINT_INTERNAL feint_status feint_asm_map_check(const feint_assembly_map *map,
                                                const feint_mesh *mesh, uint64_t conn_fp,
                                                const feint_csr *A, const int32_t **off,
                                                const uint8_t **off8);
/* The vertex-set fingerprint of the connectivity the map was made from (a
 * feint_assembly plan keeps the same one of its mesh): equal ordered
 * fingerprints of the mesh and the map imply equal sets, so the map path of
 * feint_assemble compares this one with the plan's instead of computing
 * the mesh's again. */
FEINT_INTERNAL uint64_t feint_asm_map_sets_fp(const feint_assembly_map *map);

/* The reach of the blocks of FEINT_BLOCK_LEN elements of a mesh cut into
 * chunks of `len`: *reach (malloc'd, [num_blocks][2]) holds for block b the
 * lowest and the highest chunk with an element sharing a vertex with one of
 * b's (kernel/chunk_loop.h's feint_block_private). */
FEINT_INTERNAL feint_status feint_asm_build_reach(const feint_mesh *mesh, size_t len,
                                                  uint32_t **reach);

/* The plan's block reach (feint_asm_build_reach with feint_assembly_chunks'
 * chunk length).  For tests. */
FEINT_INTERNAL const uint32_t *feint_asm_block_reach(const feint_assembly *plan);

/* Offset of column col within row `row` of a CSR pattern whose rows have
 * ascending columns (binary search), or -1 if the row lacks it: "find
 * entry (row, col)", for feint_assembly_map_create and feint_assemble's
 * report of a pattern that lacks an element's entry. */
FEINT_INTERNAL int64_t feint_asm_pattern_find(const int64_t *row_ptr, const int32_t *col_idx,
                                              size_t row, int32_t col);

/* The vertex block of rows nc v + c and columns nc w + d (c, d < nc, nc =
 * dofs per vertex) where the scatter puts it (kernel/scatter.h): entry
 * (nc v + c, nc w + d) at row_ptr[nc v + c] + k + d, k = the offset of
 * column nc w in row nc v (feint_asm_pattern_find, *k; -1 if absent).
 * Returns nc * c + d of the first entry of the block (c, then d ascending)
 * not at its place in the pattern, or nc * nc if all are (nc = 3: the
 * pattern holds the full 3 x 3 block, the three rows alike). */
FEINT_INTERNAL int feint_asm_block_check(const int64_t *row_ptr, const int32_t *col_idx, int nc,
                                         uint32_t v, uint32_t w, int64_t *k);

/* One array of a device call: host pointer, bytes, whether it is copied in
 * and/or out; dev receives the device copy. */
typedef struct {
  const void *host;
  size_t bytes;
  int copy_in, copy_out;
  void *dev;
} feint_xfer;

/* Allocate device copies of n arrays on `device` and copy the copy_in ones
 * there (all or nothing: on failure everything is freed). */
FEINT_INTERNAL feint_status feint_xfer_in(int device, feint_xfer *x, int n);
/* Copy the copy_out arrays back to the host and free every device copy. */
FEINT_INTERNAL feint_status feint_xfer_out(int device, feint_xfer *x, int n);

/* The arrays of A describe a matrix: row_ptr runs from 0 to nnz without
 * decreasing, every column lies in [0, num_cols) and, with sorted, the
 * columns of a row ascend strictly (what the assembly's search and map
 * need).  One pass over row_ptr and col_idx, threads over rows; on failure
 * FEINT_ERR_UNSUPPORTED with the first bad row and entry named.  Without it
 * a bad offset or column makes every loop over the rows read outside the
 * arrays.  The pointers must be set. */
FEINT_INTERNAL feint_status feint_csr_check_pattern(const feint_csr *A, int sorted);

/* y = A x over nrows rows of a CSR matrix (ncols columns, nnz entries)
 * whose arrays and x, y are in the memory of the run: the host
 * (run_device = 0, OpenMP threads over rows) or device `dev` (a target
 * region, one row per thread; host_fallback: `dev` is the initial device).
 * checked != 0: the host loop checks the arrays as it reads them and
 * returns how many rows with bad offsets and entries with bad columns it
 * skipped (y is then unspecified); checked = 0 (arrays known to be a
 * matrix) and the device loop trust them and return 0.  Every loop adds a
 * row's entries in order: the same bits.  The one SpMV kernel of
 * feint_csr_spmv (checked) and the assembled operator (not: its own
 * matrix). */
FEINT_INTERNAL size_t feint_csr_spmv_run(int run_device, int dev, int host_fallback,
                                         int checked, size_t nrows, size_t ncols, size_t nnz,
                                         const int64_t *rp, const int32_t *ci, const double *va,
                                         const double *x, double *y);

#endif /* FEINT_ASSEMBLY_INTERNAL_H */
