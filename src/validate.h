/*
 * validate.h - the validation pass (validate.c): one sweep over the
 * geometry and coefficient arrays of a call that finds the first element
 * of each kind of trouble before any output is written.
 */
#ifndef FEINT_VALIDATE_H
#define FEINT_VALIDATE_H

#include <stddef.h>
#include <stdint.h>

#include "feint_internal.h"

/* The first element (index in the arrays scanned) of each finding,
 * SIZE_MAX if none. */
typedef struct {
  size_t degenerate;  /* geometry: degenerate or inverted (criterion.h) */
  size_t not_affine;  /* geometry: not affine (only if check_affine) */
  size_t rescale;     /* geometry: outside the safe range of scales */
  size_t coeff_range; /* a coefficient not finite or above FEINT_SAFE_COEFF */
  size_t coeff_phys;  /* coefficients that describe no material (elasticity: mu < 0 or
                         lambda + 2 mu / 3 <= 0; poisson_kappa: kappa <= 0; NaN fails) */
} feint_scan_firsts;

/* Scan num_elem elements of one element type and problem, both arrays in
 * `layout` (natural or blocked), block by block: each block's geometry
 * (if geometry != NULL) and coefficients (if coeffs != NULL) are read
 * once, by the same thread, in one parallel region.  A NULL array's
 * findings are SIZE_MAX.  check_affine: also look for non-affine prisms
 * and hexahedra (the geo_linear variants' requirement). */
FEINT_INTERNAL void feint_validate_scan(int element, int problem, int layout, size_t num_elem,
                                        const double *geometry, const double *coeffs,
                                        int check_affine, feint_scan_firsts *first);

/* The same sweep over a mesh's elements: each block's vertex coordinates
 * gathered through conn ([num_elem][N_S], indices checked by the caller)
 * from coords ([num_vertices][3]) into an L1 buffer, no per-element
 * geometry array; coeffs in `layout`.  The findings are element indices. */
FEINT_INTERNAL void feint_validate_scan_mesh(int element, int problem, int layout,
                                             size_t num_elem, const uint32_t *conn,
                                             const double *coords, const double *coeffs,
                                             int check_affine, feint_scan_firsts *first);

/* A phrase naming the point and the values that make element e's
 * coefficients inadmissible (the first such point), e.g. "quadrature point
 * 3: kappa = -1; poisson_kappa needs kappa > 0", into what (what_len bytes,
 * NUL-terminated); e must be a coeff_phys finding. */
FEINT_INTERNAL void feint_coeff_describe(int element, int problem, int layout,
                                         const double *coeffs, size_t e, char *what,
                                         size_t what_len);

#endif /* FEINT_VALIDATE_H */
