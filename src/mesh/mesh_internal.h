/*
 * mesh/mesh_internal.h - helpers shared by the mesh layer (src/mesh/): one
 * allocation routine for feint-owned meshes and the unchecked gather.
 */
#ifndef FEINT_MESH_INTERNAL_H
#define FEINT_MESH_INTERNAL_H

#include "feint_internal.h"

/* Number of nodes of an element type (4 tet4, 6 prism6, ...). */
FEINT_INTERNAL int feint_mesh_nodes_per_elem(feint_element element);

/* Allocate the arrays of a feint-owned mesh: coords [num_vertices][3], conn
 * [num_elem][N_S], elem_tags [num_elem] if with_elem_tags, faces
 * [num_faces][4] and face_tags [num_faces] if num_faces > 0.  On success
 * *mesh is overwritten (owns_arrays = 1, tags zeroed); on failure
 * (FEINT_ERR_BAD_SIZE for counts whose byte sizes overflow or whose vertex
 * count does not fit 32-bit indices, FEINT_ERR_ALLOC) nothing is allocated
 * and *mesh is untouched. */
FEINT_INTERNAL feint_status feint_mesh_alloc(feint_element element, size_t num_vertices,
                                             size_t num_elem, int with_elem_tags,
                                             size_t num_faces, feint_mesh *mesh);

/* Free the arrays of a feint-owned mesh (also a half-built one) and zero it. */
FEINT_INTERNAL void feint_mesh_free(feint_mesh *mesh);

/* Gather the node coordinates of every element (no checks):
 * geometry in `layout` (see feint.h), num_elem elements. */
FEINT_INTERNAL void feint_mesh_gather_unchecked(const feint_mesh *mesh, feint_layout layout,
                                                double *geometry);

#endif /* FEINT_MESH_INTERNAL_H */
