/* t001_api_errors: every argument error of the public API returns its exact status and a message naming the argument, and leaves the outputs untouched. */
#include <stdint.h>
#include <stdlib.h>

#include "test_util.h"

#define NUM_TET 9                                   /* elements of the tet batch */
#define SENTINEL_BYTE 0xA5                          /* fill pattern of untouched outputs */
#define TET_GEO (NUM_TET * 4 * 3)                   /* doubles of the tet geometry */
#define TET_COEF (NUM_TET * 4)                      /* Poisson: N_Q = 4 per element */
#define TET_A (NUM_TET * 16)
#define TET_B (NUM_TET * 4)

/* Output buffers with a byte pattern and a copy to compare against. */
typedef struct {
  double A[TET_A], b[TET_B];
  double A_copy[TET_A], b_copy[TET_B];
} outputs;

static void outputs_fill(outputs *o) {
  memset(o->A, SENTINEL_BYTE, sizeof o->A);
  memset(o->b, SENTINEL_BYTE, sizeof o->b);
  memcpy(o->A_copy, o->A, sizeof o->A);
  memcpy(o->b_copy, o->b, sizeof o->b);
}

#define CHECK_UNTOUCHED(o, what)                                                    \
  CHECK(memcmp((o)->A, (o)->A_copy, sizeof(o)->A) == 0 &&                           \
            memcmp((o)->b, (o)->b_copy, sizeof(o)->b) == 0,                         \
        "%s: outputs were written on an error path", (what))

/* NUM_TET unit right tetrahedra (the reference tet shifted by 2e along x). */
static void tet_batch(double *geo) {
  static const double ref[4][3] = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
  for (int e = 0; e < NUM_TET; e++)
    for (int n = 0; n < 4; n++)
      for (int a = 0; a < 3; a++) geo[(e * 4 + n) * 3 + a] = ref[n][a] + (a == 0 ? 2.0 * e : 0.0);
}

static feint_integrate_desc tet_desc(feint_variant variant) {
  feint_integrate_desc d = {FEINT_TET4, FEINT_POISSON, variant, FEINT_LAYOUT_NATURAL,
                            FEINT_LAYOUT_NATURAL, 0, FEINT_TARGET_HOST, 0};
  return d;
}

/* Every bad field of the descriptor, two bad values each. */
static void check_desc_fields(const double *geo, const double *coef, outputs *o) {
  static const int bad_values[2] = {7, -1};
  for (int field = 0; field < 6; field++)
    for (int v = 0; v < 2; v++) {
      feint_integrate_desc d = tet_desc(FEINT_QSS_GEO_LINEAR);
      const char *name = NULL;
      char expect[64];
      switch (field) {
        case 0: d.element = (feint_element)bad_values[v]; name = "desc->element"; break;
        case 1: d.problem = (feint_problem)bad_values[v]; name = "desc->problem"; break;
        case 2: d.variant = (feint_variant)bad_values[v]; name = "desc->variant"; break;
        case 3: d.layout_in = (feint_layout)bad_values[v]; name = "desc->layout_in"; break;
        case 4: d.layout_out = (feint_layout)bad_values[v]; name = "desc->layout_out"; break;
        default:
          d.flags = v == 0 ? 1u << 3 : 1u << 31; /* bits next to and far from the known flags */
          name = "desc->flags";
          break;
      }
      if (field < 5)
        snprintf(expect, sizeof expect, "%s = %d", name, bad_values[v]);
      else
        snprintf(expect, sizeof expect, "%s = 0x%x", name, d.flags);
      outputs_fill(o);
      CHECK_STATUS(feint_integrate(&d, NUM_TET, geo, coef, o->A, o->b), FEINT_ERR_OUT_OF_RANGE,
                   expect);
      CHECK_UNTOUCHED(o, expect);
    }
  /* packed: an output layout, for symmetric problems only */
  feint_integrate_desc d = tet_desc(FEINT_QSS_GEO_LINEAR);
  d.layout_in = FEINT_LAYOUT_PACKED;
  outputs_fill(o);
  CHECK_STATUS(feint_integrate(&d, NUM_TET, geo, coef, o->A, o->b), FEINT_ERR_UNSUPPORTED,
               "desc->layout_in = packed");
  CHECK_UNTOUCHED(o, "layout_in = packed");
  d = tet_desc(FEINT_QSS_GEO_LINEAR);
  d.problem = FEINT_CONVDIFF;
  d.layout_out = FEINT_LAYOUT_PACKED;
  outputs_fill(o);
  CHECK_STATUS(feint_integrate(&d, NUM_TET, geo, coef, o->A, o->b), FEINT_ERR_UNSUPPORTED,
               "convdiff, whose A_e is not symmetric");
  CHECK_UNTOUCHED(o, "convdiff packed");
  /* the mesh paths refuse packed by name (not yet supported there) */
  const double coords[4][3] = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
  const uint32_t conn[4] = {0, 1, 2, 3};
  const feint_mesh m = {FEINT_TET4, 4, 1, (double *)&coords[0][0], (uint32_t *)conn, NULL, 0,
                        NULL, NULL, 0};
  d = tet_desc(FEINT_QSS_GEO_LINEAR);
  d.layout_out = FEINT_LAYOUT_PACKED;
  outputs_fill(o);
  CHECK_STATUS(feint_integrate_mesh(&d, &m, coef, o->A, o->b), FEINT_ERR_UNSUPPORTED,
               "desc->layout_out = packed");
  CHECK_UNTOUCHED(o, "mesh path packed");
}

static void check_null_arrays(const double *geo, const double *coef, outputs *o) {
  const feint_integrate_desc d = tet_desc(FEINT_QSS_GEO_LINEAR);
  outputs_fill(o);
  CHECK_STATUS(feint_integrate(NULL, NUM_TET, geo, coef, o->A, o->b), FEINT_ERR_NULL_ARG, "desc");
  CHECK_UNTOUCHED(o, "desc NULL");
  CHECK_STATUS(feint_integrate(&d, NUM_TET, NULL, coef, o->A, o->b), FEINT_ERR_NULL_ARG,
               "geometry is NULL");
  CHECK_UNTOUCHED(o, "geometry NULL");
  CHECK_STATUS(feint_integrate(&d, NUM_TET, geo, NULL, o->A, o->b), FEINT_ERR_NULL_ARG,
               "coeffs is NULL");
  CHECK_UNTOUCHED(o, "coeffs NULL");
  CHECK_STATUS(feint_integrate(&d, NUM_TET, geo, coef, NULL, o->b), FEINT_ERR_NULL_ARG,
               "A_e is NULL");
  CHECK_UNTOUCHED(o, "A_e NULL");
  CHECK_STATUS(feint_integrate(&d, NUM_TET, geo, coef, o->A, NULL), FEINT_ERR_NULL_ARG,
               "b_e is NULL");
  CHECK_UNTOUCHED(o, "b_e NULL");
  /* the message has the documented form "function(): sentence" */
  CHECK(strncmp(feint_last_error(), "feint_integrate(): ", 19) == 0,
        "message \"%s\" does not start with \"feint_integrate(): \"", feint_last_error());

  /* num_elem = 0: a no-op, NULL pointers allowed, non-NULL outputs untouched */
  CHECK_STATUS(feint_integrate(&d, 0, NULL, NULL, NULL, NULL), FEINT_SUCCESS, NULL);
  CHECK_STATUS(feint_integrate(&d, 0, geo, coef, o->A, o->b), FEINT_SUCCESS, NULL);
  CHECK_UNTOUCHED(o, "num_elem = 0");
}

/* Sizes whose byte count overflows size_t: nothing may be read, so the
 * pointers are small dummies. */
static void check_size_overflow(void) {
  double dummy_in[2] = {0, 0}, dummy_out[2], dummy_b[2];
  memset(dummy_out, SENTINEL_BYTE, sizeof dummy_out);
  memset(dummy_b, SENTINEL_BYTE, sizeof dummy_b);
  double out_copy[2];
  memcpy(out_copy, dummy_out, sizeof out_copy);
  feint_integrate_desc d = tet_desc(FEINT_QSS_GEO_GENERIC);
  /* geometry, 12 doubles per element, overflows first */
  const size_t huge = SIZE_MAX / sizeof(double) / 12 + 1;
  CHECK_STATUS(feint_integrate(&d, huge, dummy_in, dummy_in + 1, dummy_out, dummy_b),
               FEINT_ERR_BAD_SIZE, "overflows");
  CHECK_STATUS(feint_integrate(&d, SIZE_MAX, dummy_in, dummy_in + 1, dummy_out, dummy_b),
               FEINT_ERR_BAD_SIZE, "overflows");
  /* blocked: rounding up to whole blocks overflows */
  d.layout_in = FEINT_LAYOUT_BLOCKED;
  CHECK_STATUS(feint_integrate(&d, SIZE_MAX - 1, dummy_in, dummy_in + 1, dummy_out, dummy_b),
               FEINT_ERR_BAD_SIZE, "whole blocks");
  /* prism conv-diff: geometry (18) and coeffs (20) fit, A_e (36) does not */
  d = (feint_integrate_desc){FEINT_PRISM6, FEINT_CONVDIFF, FEINT_QSS_GEO_GENERIC,
                             FEINT_LAYOUT_NATURAL, FEINT_LAYOUT_NATURAL, 0, FEINT_TARGET_HOST, 0};
  const size_t a_only = SIZE_MAX / sizeof(double) / 36 + 1;
  CHECK_STATUS(feint_integrate(&d, a_only, dummy_in, dummy_in + 1, dummy_out, dummy_b),
               FEINT_ERR_BAD_SIZE, "36 doubles per element");
  CHECK(memcmp(dummy_out, out_copy, sizeof out_copy) == 0 &&
            memcmp(dummy_b, out_copy, sizeof out_copy) == 0,
        "size overflow: dummy outputs were written");
}

/* Degenerate, inverted and non-finite elements; the message names the
 * lowest bad element. */
static void check_degenerate(double *geo, const double *coef, outputs *o) {
  const feint_integrate_desc d = tet_desc(FEINT_QSS_GEO_LINEAR);
  double save[TET_GEO];
  memcpy(save, geo, sizeof save);
  for (int kind = 0; kind < 4; kind++) {
    memcpy(geo, save, sizeof save);
    double *x5 = geo + 5 * 12, *x7 = geo + 7 * 12;
    const char *what = NULL;
    switch (kind) {
      case 0: /* all four nodes in the plane z = 0 */
        x5[3 * 3 + 2] = 0.0;
        what = "coplanar element 5";
        break;
      case 1: /* nodes 1 and 2 swapped: det J < 0 */
        for (int a = 0; a < 3; a++) {
          const double t = x5[3 + a];
          x5[3 + a] = x5[6 + a];
          x5[6 + a] = t;
        }
        what = "inverted element 5";
        break;
      case 2:
        x5[4] = NAN;
        what = "NaN coordinate in element 5";
        break;
      default: /* two bad elements: the lowest index is named */
        x5[3 * 3 + 2] = 0.0;
        x7[0] = INFINITY;
        what = "elements 5 and 7 bad";
        break;
    }
    for (int v = 0; v < FEINT_VARIANT_COUNT; v++) {
      feint_integrate_desc dv = d;
      dv.variant = (feint_variant)v;
      outputs_fill(o);
      CHECK_STATUS(feint_integrate(&dv, NUM_TET, geo, coef, o->A, o->b), FEINT_ERR_DEGENERATE,
                   "element 5 ");
      CHECK(strstr(feint_last_error(), "element 7") == NULL, "%s: message names element 7: %s",
            what, feint_last_error());
      CHECK_UNTOUCHED(o, what);
    }
    /* FEINT_FLAG_TRUST_GEOMETRY skips the scan: the call succeeds */
    feint_integrate_desc trusted = d;
    trusted.flags = FEINT_FLAG_TRUST_GEOMETRY;
    outputs_fill(o);
    CHECK_STATUS(feint_integrate(&trusted, NUM_TET, geo, coef, o->A, o->b), FEINT_SUCCESS, NULL);
  }
  memcpy(geo, save, sizeof save);
  /* the intact batch passes */
  CHECK_STATUS(feint_integrate(&d, NUM_TET, geo, coef, o->A, o->b), FEINT_SUCCESS, NULL);
}

/* geo_linear variants refuse a non-affine prism and name it; geo_generic
 * accepts it. */
static void check_not_affine(void) {
  enum { NP = 4, BAD = 2 };
  static const double ref[6][3] = {{0, 0, -1}, {1, 0, -1}, {0, 1, -1},
                                   {0, 0, 1},  {1, 0, 1},  {0, 1, 1}};
  double geo[NP * 18], coef[NP * 6], A[NP * 36], b[NP * 6], A_copy[NP * 36], b_copy[NP * 6];
  for (int e = 0; e < NP; e++)
    for (int n = 0; n < 6; n++)
      for (int a = 0; a < 3; a++) geo[(e * 6 + n) * 3 + a] = ref[n][a] + (a == 0 ? 2.0 * e : 0.0);
  for (int k = 0; k < NP * 6; k++) coef[k] = 1.0;
  geo[(BAD * 6 + 4) * 3 + 0] += 0.1; /* top vertex 4 of element 2 moves: no longer a translate */
  for (int v = 0; v < FEINT_VARIANT_COUNT; v++) {
    feint_variant_info vi;
    CHECK_STATUS(feint_variant_get_info((feint_variant)v, &vi), FEINT_SUCCESS, NULL);
    const feint_integrate_desc d = {FEINT_PRISM6, FEINT_POISSON, (feint_variant)v,
                                    FEINT_LAYOUT_NATURAL, FEINT_LAYOUT_NATURAL, 0, FEINT_TARGET_HOST, 0};
    memset(A, SENTINEL_BYTE, sizeof A);
    memset(b, SENTINEL_BYTE, sizeof b);
    memcpy(A_copy, A, sizeof A);
    memcpy(b_copy, b, sizeof b);
    if (vi.geo_linear) {
      CHECK_STATUS(feint_integrate(&d, NP, geo, coef, A, b), FEINT_ERR_NOT_AFFINE, "element 2 ");
      CHECK(strstr(feint_last_error(), vi.name) != NULL, "%s: message lacks the variant name: %s",
            vi.name, feint_last_error());
      CHECK(memcmp(A, A_copy, sizeof A) == 0 && memcmp(b, b_copy, sizeof b) == 0,
            "%s: outputs written on FEINT_ERR_NOT_AFFINE", vi.name);
    } else {
      CHECK_STATUS(feint_integrate(&d, NP, geo, coef, A, b), FEINT_SUCCESS, NULL);
    }
  }
}

/* Outputs overlapping inputs or each other. */
static void check_overlap(double *geo, double *coef, outputs *o) {
  const feint_integrate_desc d = tet_desc(FEINT_SSQ_GEO_GENERIC);
  double geo_copy[TET_GEO];
  memcpy(geo_copy, geo, sizeof geo_copy);
  /* A_e is the geometry array */
  outputs_fill(o);
  CHECK_STATUS(feint_integrate(&d, NUM_TET, geo, coef, geo, o->b), FEINT_ERR_UNSUPPORTED,
               "A_e overlaps geometry");
  CHECK(memcmp(geo, geo_copy, sizeof geo_copy) == 0, "A_e = geometry: geometry was written");
  CHECK_UNTOUCHED(o, "A_e = geometry");
  /* b_e starts inside the last element of coeffs */
  double big[TET_COEF + TET_B];
  memcpy(big, coef, TET_COEF * sizeof(double));
  CHECK_STATUS(feint_integrate(&d, NUM_TET, geo, big, o->A, big + TET_COEF - 1),
               FEINT_ERR_UNSUPPORTED, "b_e overlaps coeffs");
  CHECK_UNTOUCHED(o, "b_e inside coeffs");
  /* b_e inside A_e */
  CHECK_STATUS(feint_integrate(&d, NUM_TET, geo, coef, o->A, o->A + TET_A - TET_B),
               FEINT_ERR_UNSUPPORTED, "overlaps");
  CHECK_UNTOUCHED(o, "b_e inside A_e");
  /* adjacent but disjoint arrays are fine */
  double joint[TET_A + TET_B];
  CHECK_STATUS(feint_integrate(&d, NUM_TET, geo, coef, joint, joint + TET_A), FEINT_SUCCESS, NULL);
}

static void check_sizes_and_layouts(void) {
  size_t len = 12345, len_copy = len;
  CHECK_STATUS(feint_array_len(FEINT_TET4, FEINT_POISSON, FEINT_ARRAY_A, FEINT_LAYOUT_NATURAL,
                               SIZE_MAX / sizeof(double) / 16 + 1, &len),
               FEINT_ERR_BAD_SIZE, "overflows");
  CHECK_STATUS(feint_array_len(FEINT_TET4, FEINT_POISSON, FEINT_ARRAY_A, FEINT_LAYOUT_BLOCKED,
                               SIZE_MAX, &len),
               FEINT_ERR_BAD_SIZE, "whole blocks");
  CHECK_STATUS(feint_array_len(FEINT_TET4, FEINT_POISSON, FEINT_ARRAY_A, FEINT_LAYOUT_COUNT, 1, &len),
               FEINT_ERR_OUT_OF_RANGE, "layout = 3");
  CHECK_STATUS(feint_array_len(FEINT_ELEMENT_COUNT, FEINT_POISSON, FEINT_ARRAY_A,
                               FEINT_LAYOUT_NATURAL, 1, &len),
               FEINT_ERR_OUT_OF_RANGE, "element = 3");
  CHECK_STATUS(feint_array_len(FEINT_TET4, FEINT_POISSON, (feint_array)4, FEINT_LAYOUT_NATURAL, 1,
                               &len),
               FEINT_ERR_OUT_OF_RANGE, "array = 4");
  CHECK(len == len_copy, "feint_array_len wrote *len = %zu on an error path", len);
  CHECK_STATUS(feint_array_len(FEINT_TET4, FEINT_POISSON, FEINT_ARRAY_A, FEINT_LAYOUT_NATURAL, 1,
                               NULL),
               FEINT_ERR_NULL_ARG, "len");
  size_t entries;
  CHECK_STATUS(feint_array_entries(FEINT_TET4, (feint_problem)-1, FEINT_ARRAY_A, &entries),
               FEINT_ERR_OUT_OF_RANGE, "problem = -1");
  CHECK_STATUS(feint_array_entries(FEINT_TET4, FEINT_POISSON, FEINT_ARRAY_A, NULL),
               FEINT_ERR_NULL_ARG, "entries");

  /* feint_layout_convert */
  enum { NE = 3, ENT = 4, PADDED = FEINT_BLOCK_LEN * ENT };
  double src[PADDED], dst[PADDED], dst_copy[PADDED];
  for (int k = 0; k < PADDED; k++) src[k] = k;
  memset(dst, SENTINEL_BYTE, sizeof dst);
  memcpy(dst_copy, dst, sizeof dst);
  const feint_layout N = FEINT_LAYOUT_NATURAL, B = FEINT_LAYOUT_BLOCKED;
  CHECK_STATUS(feint_layout_convert(NE, ENT, FEINT_LAYOUT_COUNT, src, B, dst), FEINT_ERR_OUT_OF_RANGE,
               "src_layout = 3");
  CHECK_STATUS(feint_layout_convert(NE, ENT, (feint_layout)-1, src, B, dst),
               FEINT_ERR_OUT_OF_RANGE, "src_layout = -1");
  CHECK_STATUS(feint_layout_convert(NE, ENT, N, src, (feint_layout)7, dst), FEINT_ERR_OUT_OF_RANGE,
               "dst_layout = 7");
  CHECK_STATUS(feint_layout_convert(NE, ENT, N, NULL, B, dst), FEINT_ERR_NULL_ARG, "src is NULL");
  CHECK_STATUS(feint_layout_convert(NE, ENT, N, src, B, NULL), FEINT_ERR_NULL_ARG, "dst is NULL");
  CHECK_STATUS(feint_layout_convert(NE, 0, N, src, B, dst), FEINT_ERR_BAD_SIZE, "entries = 0");
  CHECK_STATUS(feint_layout_convert(SIZE_MAX / sizeof(double) / ENT + 1, ENT, N, src, B, dst),
               FEINT_ERR_BAD_SIZE, "overflows");
  /* natural fits, but the blocked copy rounds up to 2^64 bytes */
  const size_t blocked_overflow = SIZE_MAX / sizeof(double) / ENT / FEINT_BLOCK_LEN * FEINT_BLOCK_LEN + 1;
  CHECK_STATUS(feint_layout_convert(blocked_overflow, ENT, N, src, B, dst), FEINT_ERR_BAD_SIZE,
               "overflows");
  CHECK_STATUS(feint_layout_convert(NE, ENT, N, src, B, src + 1), FEINT_ERR_UNSUPPORTED, "overlap");
  CHECK(memcmp(dst, dst_copy, sizeof dst) == 0, "feint_layout_convert wrote dst on an error path");
  for (int k = 0; k < PADDED; k++)
    CHECK(src[k] == k, "feint_layout_convert wrote src[%d] on an error path", k);
  CHECK_STATUS(feint_layout_convert(0, ENT, N, NULL, B, NULL), FEINT_SUCCESS, NULL);
}

static void check_mesh_box(void) {
  size_t count = 0;
  CHECK_STATUS(feint_mesh_box_count(FEINT_TET4, 2, 2, 2, &count), FEINT_SUCCESS, NULL);
  CHECK(count == 48, "feint_mesh_box_count(tet4, 2, 2, 2) = %zu, expected 48", count);
  double geo[48 * 12], copy[48 * 12];
  memset(geo, SENTINEL_BYTE, sizeof geo);
  memcpy(copy, geo, sizeof geo);
  CHECK_STATUS(feint_mesh_box(FEINT_TET4, 2, 2, 2, FEINT_PERTURB_GENERAL, 0.3, 1,
                              FEINT_LAYOUT_NATURAL, geo),
               FEINT_ERR_OUT_OF_RANGE, "amplitude = 0.3");
  CHECK_STATUS(feint_mesh_box(FEINT_TET4, 2, 2, 2, FEINT_PERTURB_GENERAL, -0.1, 1,
                              FEINT_LAYOUT_NATURAL, geo),
               FEINT_ERR_OUT_OF_RANGE, "amplitude = -0.1");
  CHECK_STATUS(feint_mesh_box(FEINT_TET4, 2, 2, 2, FEINT_PERTURB_GENERAL, NAN, 1,
                              FEINT_LAYOUT_NATURAL, geo),
               FEINT_ERR_OUT_OF_RANGE, "amplitude");
  CHECK_STATUS(feint_mesh_box(FEINT_TET4, 0, 2, 2, FEINT_PERTURB_NONE, 0.0, 1,
                              FEINT_LAYOUT_NATURAL, geo),
               FEINT_ERR_BAD_SIZE, "nx, ny, nz = 0, 2, 2");
  CHECK_STATUS(feint_mesh_box(FEINT_TET4, 2, 2, 2, (feint_perturb)3, 0.1, 1, FEINT_LAYOUT_NATURAL,
                              geo),
               FEINT_ERR_OUT_OF_RANGE, "perturb = 3");
  CHECK_STATUS(feint_mesh_box((feint_element)5, 2, 2, 2, FEINT_PERTURB_NONE, 0.0, 1,
                              FEINT_LAYOUT_NATURAL, geo),
               FEINT_ERR_OUT_OF_RANGE, "element = 5");
  CHECK_STATUS(feint_mesh_box(FEINT_TET4, 2, 2, 2, FEINT_PERTURB_NONE, 0.0, 1, FEINT_LAYOUT_COUNT,
                              geo),
               FEINT_ERR_OUT_OF_RANGE, "layout = 3");
  CHECK_STATUS(feint_mesh_box(FEINT_TET4, 2, 2, 2, FEINT_PERTURB_NONE, 0.0, 1,
                              FEINT_LAYOUT_NATURAL, NULL),
               FEINT_ERR_NULL_ARG, "geometry");
  CHECK(memcmp(geo, copy, sizeof geo) == 0, "feint_mesh_box wrote geometry on an error path");
  CHECK_STATUS(feint_mesh_box_count(FEINT_TET4, 2, 2, 2, NULL), FEINT_ERR_NULL_ARG, "num_elem");
  CHECK_STATUS(feint_mesh_box_count(FEINT_PRISM6, SIZE_MAX, SIZE_MAX, 2, &count),
               FEINT_ERR_BAD_SIZE, "overflow");
}

static void check_introspection(void) {
  feint_variant_info vi;
  feint_element_info ei;
  memset(&vi, SENTINEL_BYTE, sizeof vi);
  memset(&ei, SENTINEL_BYTE, sizeof ei);
  unsigned char vi_copy[sizeof vi], ei_copy[sizeof ei];
  memcpy(vi_copy, &vi, sizeof vi);
  memcpy(ei_copy, &ei, sizeof ei);
  char count_msg[32];
  snprintf(count_msg, sizeof count_msg, "variant = %d", FEINT_VARIANT_COUNT);
  CHECK_STATUS(feint_variant_get_info(FEINT_VARIANT_COUNT, &vi), FEINT_ERR_OUT_OF_RANGE,
               count_msg);
  CHECK_STATUS(feint_variant_get_info((feint_variant)-1, &vi), FEINT_ERR_OUT_OF_RANGE,
               "variant = -1");
  CHECK_STATUS(feint_variant_get_info(FEINT_QSS_GEO_LINEAR, NULL), FEINT_ERR_NULL_ARG, "info");
  CHECK_STATUS(feint_element_get_info(FEINT_ELEMENT_COUNT, &ei), FEINT_ERR_OUT_OF_RANGE,
               "element = 3");
  CHECK_STATUS(feint_element_get_info((feint_element)-1, &ei), FEINT_ERR_OUT_OF_RANGE,
               "element = -1");
  CHECK_STATUS(feint_element_get_info(FEINT_TET4, NULL), FEINT_ERR_NULL_ARG, "info");
  CHECK(memcmp(&vi, vi_copy, sizeof vi) == 0, "feint_variant_get_info wrote *info on an error");
  CHECK(memcmp(&ei, ei_copy, sizeof ei) == 0, "feint_element_get_info wrote *info on an error");

  const double xi[3] = {0.25, 0.25, 0.25};
  double phi[FEINT_MAX_NODES], dphi[FEINT_MAX_NODES][3];
  CHECK_STATUS(feint_element_eval(FEINT_ELEMENT_COUNT, xi, phi, dphi), FEINT_ERR_OUT_OF_RANGE,
               "element = 3");
  CHECK_STATUS(feint_element_eval(FEINT_TET4, NULL, phi, dphi), FEINT_ERR_NULL_ARG, "xi");
  CHECK_STATUS(feint_element_eval(FEINT_TET4, xi, NULL, dphi), FEINT_ERR_NULL_ARG, "phi");
  CHECK_STATUS(feint_element_eval(FEINT_TET4, xi, phi, NULL), FEINT_SUCCESS, NULL);

  CHECK(feint_element_name(FEINT_ELEMENT_COUNT) == NULL, "feint_element_name(out of range) != NULL");
  CHECK(feint_problem_name((feint_problem)-1) == NULL, "feint_problem_name(-1) != NULL");
  CHECK(feint_layout_name(FEINT_LAYOUT_COUNT) == NULL, "feint_layout_name(out of range) != NULL");

  /* one distinct, non-empty sentence per status code */
  for (int s = 0; s < FEINT_STATUS_COUNT; s++) {
    const char *str = feint_status_string((feint_status)s);
    CHECK(str != NULL && str[0] != '\0', "feint_status_string(%d) is empty", s);
    if (!str) continue;
    for (int t = 0; t < s; t++) {
      const char *other = feint_status_string((feint_status)t);
      CHECK(other == NULL || strcmp(str, other) != 0,
            "feint_status_string(%d) == feint_status_string(%d) = \"%s\"", s, t, str);
    }
  }
  const char *unknown = feint_status_string(FEINT_STATUS_COUNT);
  CHECK(unknown != NULL && unknown[0] != '\0', "feint_status_string(FEINT_STATUS_COUNT) is empty");
  CHECK(feint_status_string((feint_status)-5) != NULL, "feint_status_string(-5) is NULL");
}

int main(void) {
  static double geo[TET_GEO], coef[TET_COEF];
  static outputs o;
  tet_batch(geo);
  for (int k = 0; k < TET_COEF; k++) coef[k] = 1.0;
  check_desc_fields(geo, coef, &o);
  check_null_arrays(geo, coef, &o);
  check_size_overflow();
  check_degenerate(geo, coef, &o);
  check_not_affine();
  check_overlap(geo, coef, &o);
  check_sizes_and_layouts();
  check_mesh_box();
  check_introspection();
  return test_finish("t001_api_errors");
}
