/* t206_ffcx_elasticity (t2xx: physics): hex8 elasticity against the kernel
 * FFCx (the form compiler of DOLFINx, an independent code) generates from
 * the UFL form of bench/ffcx/elasticity_hex8.py, a(u, v) = int sigma(u) :
 * eps(v) with the 2x2x2 Gauss rule: every variant, natural, blocked and
 * packed output, for two pairs (lambda, mu), on non-affine hexahedra (the
 * geo_generic variants) and on parallelepipeds (all seven).  The test runs
 * FFCx (Debian's python3-ffcx) and the C compiler at test time, loads the
 * result with dlopen and calls it as DOLFINx does (A^e zeroed, then
 * tabulate_tensor_float64 adds into it).  basix numbers a hexahedron's
 * nodes lexicographically, feint as Gmsh/VTK (feint.h): the comparison
 * converts, so it also checks feint's documented node order.  Dofs are
 * vertex-major in both (3 v + component).
 * Tolerance: as tests/variant_fixture.h and t204, 2 (n_terms + 16) eps S,
 * n_terms = 5 N_Q, S the serial reference's sums of |terms|; the reference
 * itself is checked against FFCx too.
 * Skips (exit 77) when FFCx is not installed (make deps installs it). */
#define _POSIX_C_SOURCE 200809L
#include <dlfcn.h>
#include <stdlib.h>
#include <unistd.h>

#include "test_util.h"

#define NS 8
#define ND (3 * NS)
#define NA (ND * ND)
#define NE 40 /* elements of each mesh kind (5 blocks of 8) */

/* basix node of feint node n */
static const int basix_of_feint[NS] = {0, 1, 3, 2, 4, 5, 7, 6};

typedef void ffcx_fn(double *A, const double *c, const double *x);

static char tmpdir[64];

/* Generate the FFCx kernel and a shim with a plain C entry point, compile
 * both into a shared object, open it. */
static ffcx_fn *ffcx_kernel(void) {
  char cmd[1024], path[128];
  snprintf(path, sizeof path, "%s/shim.c", tmpdir);
  FILE *f = fopen(path, "w");
  if (!f)
    return NULL;
  fprintf(f, "#include <stddef.h>\n#include \"elasticity_hex8.h\"\n"
             "void t206_tabulate(double *A, const double *c, const double *x) {\n"
             "  form_elasticity_hex8_a->integrals(cell)[0]->tabulate_tensor_float64(A, NULL, c, "
             "x, NULL, NULL);\n}\n");
  fclose(f);
  snprintf(cmd, sizeof cmd,
           "/usr/bin/python3 -m ffcx -o %s bench/ffcx/elasticity_hex8.py > %s/ffcx.log 2>&1 && "
           "cc -O1 -fPIC -shared -I%s -I\"$(/usr/bin/python3 -c 'import os, "
           "ffcx.codegeneration as c; print(os.path.dirname(c.__file__))')\" %s/elasticity_hex8.c "
           "%s -o %s/ffcx.so >> %s/ffcx.log 2>&1",
           tmpdir, tmpdir, tmpdir, tmpdir, path, tmpdir, tmpdir);
  if (system(cmd) != 0) {
    TEST_FAIL("generating or compiling the FFCx kernel failed (log in %s/ffcx.log)", tmpdir);
    return NULL;
  }
  snprintf(path, sizeof path, "%s/ffcx.so", tmpdir);
  void *so = dlopen(path, RTLD_NOW | RTLD_LOCAL);
  if (!so) {
    TEST_FAIL("dlopen %s: %s", path, dlerror());
    return NULL;
  }
  ffcx_fn *fn;
  *(void **)&fn = dlsym(so, "t206_tabulate");
  if (!fn)
    TEST_FAIL("no t206_tabulate in %s", path);
  return fn;
}

/* NE hexahedra: affine = 1 gives parallelepipeds x0 + M (xi + 1) / 2 with
 * M near the identity; affine = 0 moves every node independently by up to
 * 0.15 (non-affine, det J > 0). */
static void make_hexes(int affine, double *geo, test_rng *rng) {
  for (int e = 0; e < NE; e++) {
    double M[3][3], x0[3];
    for (int a = 0; a < 3; a++) {
      x0[a] = test_rng_uniform(rng, -2, 2);
      for (int b = 0; b < 3; b++)
        M[a][b] = (a == b) + test_rng_uniform(rng, -0.2, 0.2);
    }
    for (int n = 0; n < NS; n++) {
      const double xi[3] = {(n == 1 || n == 2 || n == 5 || n == 6),
                            (n == 2 || n == 3 || n == 6 || n == 7), n >= 4};
      for (int a = 0; a < 3; a++) {
        double x = x0[a];
        for (int b = 0; b < 3; b++)
          x += M[a][b] * xi[b];
        if (!affine)
          x += test_rng_uniform(rng, -0.15, 0.15);
        geo[(e * NS + n) * 3 + a] = x;
      }
    }
  }
}

/* A^e of feint (row-major ND x ND, entry (r, s)) from an output array. */
static double entry(feint_layout lo, const double *A, int e, int r, int s) {
  if (lo == FEINT_LAYOUT_BLOCKED)
    return A[(size_t)(e / FEINT_BLOCK_LEN) * FEINT_BLOCK_LEN * NA +
             (size_t)(r * ND + s) * FEINT_BLOCK_LEN + (size_t)(e % FEINT_BLOCK_LEN)];
  if (lo == FEINT_LAYOUT_PACKED) {
    const int i = r < s ? r : s, j = r < s ? s : r;
    return A[(size_t)e * (ND * (ND + 1) / 2) + (size_t)(i * ND - i * (i - 1) / 2 + (j - i))];
  }
  return A[(size_t)e * NA + (size_t)(r * ND + s)];
}

/* FFCx's A^e of the NE elements of geo, in feint's node and dof order:
 * F[e][r][s], row-major ND x ND. */
static void ffcx_matrices(ffcx_fn *ffcx, const double *geo, const double lame[2], double *F) {
  double Af[NA], x_basix[NS * 3];
  for (int e = 0; e < NE; e++) {
    for (int n = 0; n < NS; n++)
      for (int a = 0; a < 3; a++)
        x_basix[basix_of_feint[n] * 3 + a] = geo[(e * NS + n) * 3 + a];
    memset(Af, 0, sizeof Af);
    ffcx(Af, lame, x_basix);
    for (int r = 0; r < ND; r++)
      for (int s = 0; s < ND; s++)
        F[e * NA + r * ND + s] =
            Af[(3 * basix_of_feint[r / 3] + r % 3) * ND + 3 * basix_of_feint[s / 3] + s % 3];
  }
}

/* Every entry of A (layout lo) within 2 (n_terms + 16) eps S of FFCx's F;
 * returns the number of entries compared. */
static int compare(const char *what, feint_layout lo, const double *A, const double *F,
                   const double *S, double n_terms) {
  for (int e = 0; e < NE; e++)
    for (int r = 0; r < ND; r++)
      for (int s = 0; s < ND; s++) {
        const int at = e * NA + r * ND + s;
        const double x = entry(lo, A, e, r, s);
        if (!test_close(x, F[at], 2 * (n_terms + 16), S[at], 1.0))
          TEST_FAIL("%s: entry (%d,%d) of element %d = %.17g, FFCx %.17g", what, r, s, e, x, F[at]);
      }
  return NE * NA;
}

int main(void) {
  if (system("/usr/bin/python3 -c 'import ffcx' > /dev/null 2>&1") != 0) {
    printf("SKIP: FFCx not found (Debian package python3-ffcx; make deps installs it)\n");
    return TEST_SKIP_EXIT;
  }
  snprintf(tmpdir, sizeof tmpdir, "/tmp/feint_t206_XXXXXX");
  if (!mkdtemp(tmpdir)) {
    fprintf(stderr, "t206: mkdtemp failed\n");
    return 1;
  }
  ffcx_fn *ffcx = ffcx_kernel();
  if (!ffcx)
    return test_finish("t206_ffcx_elasticity");

  feint_element_info ei;
  feint_element_get_info(FEINT_HEX8, &ei);
  const int nq = ei.num_qpts, nc = 2 + 3 * nq;
  const double n_terms = 5.0 * nq;
  static const double lame[2][2] = {{1.7, 0.6}, {40.0, 0.9}}; /* (lambda, mu) */
  static double geo[NE * NS * 3], geo_b[NE * NS * 3], coef[NE * 26], coef_b[NE * 26];
  static double A_ref[NE * NA], S[NE * NA], b_ref[NE * ND], b_abs[NE * ND], A[NE * NA], b[NE * ND],
      F[NE * NA];
  test_rng rng = {206};
  int compared = 0;
  char what[160];
  for (int affine = 0; affine < 2; affine++)
    for (int p = 0; p < 2; p++) {
      make_hexes(affine, geo, &rng);
      for (int e = 0; e < NE; e++) {
        coef[e * nc] = lame[p][0], coef[e * nc + 1] = lame[p][1];
        for (int k = 2; k < nc; k++)
          coef[e * nc + k] = test_rng_uniform(&rng, -1, 1);
      }
      if (feint_integrate_reference(FEINT_HEX8, FEINT_ELASTICITY, NE, geo, coef, A_ref, b_ref, S,
                                    b_abs) != FEINT_SUCCESS) {
        TEST_FAIL("reference: %s", feint_last_error());
        continue;
      }
      ffcx_matrices(ffcx, geo, lame[p], F);
      /* the reference against FFCx (not counted below) */
      snprintf(what, sizeof what, "reference, %s hexes, lambda %g mu %g",
               affine ? "affine" : "general", lame[p][0], lame[p][1]);
      compare(what, FEINT_LAYOUT_NATURAL, A_ref, F, S, n_terms);
      /* every variant the mesh kind admits, every output layout */
      feint_layout_convert(NE, NS * 3, FEINT_LAYOUT_NATURAL, geo, FEINT_LAYOUT_BLOCKED, geo_b);
      feint_layout_convert(NE, (size_t)nc, FEINT_LAYOUT_NATURAL, coef, FEINT_LAYOUT_BLOCKED,
                           coef_b);
      for (int v = 0; v < FEINT_VARIANT_COUNT; v++) {
        feint_variant_info vi;
        feint_variant_get_info((feint_variant)v, &vi);
        if (vi.geo_linear && !affine)
          continue;
        for (int lo = 0; lo < FEINT_LAYOUT_COUNT; lo++) {
          const feint_layout lin =
              lo == FEINT_LAYOUT_BLOCKED ? FEINT_LAYOUT_BLOCKED : FEINT_LAYOUT_NATURAL;
          const feint_integrate_desc d = {FEINT_HEX8,        FEINT_ELASTICITY,
                                          (feint_variant)v,  lin,
                                          (feint_layout)lo,  0,
                                          FEINT_TARGET_HOST, 0};
          if (feint_integrate(&d, NE, lin == FEINT_LAYOUT_BLOCKED ? geo_b : geo,
                              lin == FEINT_LAYOUT_BLOCKED ? coef_b : coef, A, b) != FEINT_SUCCESS) {
            TEST_FAIL("%s %s: %s", vi.name, feint_layout_name((feint_layout)lo),
                      feint_last_error());
            continue;
          }
          snprintf(what, sizeof what, "%s %s, %s hexes, lambda %g mu %g", vi.name,
                   feint_layout_name((feint_layout)lo), affine ? "affine" : "general", lame[p][0],
                   lame[p][1]);
          compared += compare(what, (feint_layout)lo, A, F, S, n_terms);
        }
      }
    }
  /* 2 pairs x (the generic variants on general hexes + all on affine) x 3 layouts */
  int generic = 0;
  for (int v = 0; v < FEINT_VARIANT_COUNT; v++) {
    feint_variant_info vi;
    feint_variant_get_info((feint_variant)v, &vi);
    generic += !vi.geo_linear;
  }
  CHECK(generic == 3 && compared == 2 * (generic + FEINT_VARIANT_COUNT) * 3 * NE * NA,
        "compared %d entries (%d generic variants)", compared, generic);
  char cmd[128];
  snprintf(cmd, sizeof cmd, "rm -rf %s", tmpdir);
  if (system(cmd) != 0)
    fprintf(stderr, "t206: could not remove %s\n", tmpdir);
  return test_finish("t206_ffcx_elasticity");
}
