/* cli.c - the `perfmodel` command-line tool: the paper's Tables 3, 4 and 6
 * for feint's kernels (or the paper's own counts) on any platform, the
 * characterisation of this machine, and the model-vs-measured report.
 *
 *   perfmodel tables [--platform NAME|PATH] [--format md|csv]
 *                    [--counts feint|paper] [--table 3|4|6|all]
 *   perfmodel platforms                      list the platform files
 *   perfmodel characterise [--reps N] [--mib M] [--no-likwid]
 *   perfmodel report [--results DIR] [--out FILE] [--plots DIR]
 *
 * Platform files live in perfmodel/platforms (or $FEINT_PLATFORM_DIR). */
#define _POSIX_C_SOURCE 200809L
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "feint_perfmodel.h"
#include "perfmodel_cli.h"

static void usage(FILE *f) {
  fprintf(f,
          "usage: perfmodel tables [--platform NAME|PATH] [--format md|csv]\n"
          "                        [--counts feint|paper] [--table 3|4|6|all]\n"
          "       perfmodel platforms\n"
          "       perfmodel characterise [--reps N] [--mib M] [--no-likwid]\n"
          "       perfmodel report [--results DIR] [--out FILE] [--plots DIR]\n");
}

/* ---- tables -------------------------------------------------------------- */

typedef struct {
  int csv;
  int paper;
} table_opts;

static const char *case_label(feint_element e, feint_problem p, char *buf, size_t cap) {
  snprintf(buf, cap, "%s-%s", feint_pm_element_name(e), feint_pm_problem_name(p));
  return buf;
}

/* Row separator and cells: Markdown "| a | b |" or CSV "a,b". */
static void row_begin(const table_opts *o) {
  if (!o->csv) fputs("|", stdout);
}
static void cell_s(const table_opts *o, int first, const char *s) {
  if (o->csv)
    printf("%s%s", first ? "" : ",", s);
  else
    printf(" %s |", s);
}
static void cell_ll(const table_opts *o, int first, long long v) {
  char b[32];
  snprintf(b, sizeof b, "%lld", v);
  cell_s(o, first, b);
}
static void cell_f(const table_opts *o, int first, const char *fmt, double v) {
  char b[64];
  snprintf(b, sizeof b, fmt, v);
  cell_s(o, first, b);
}
static void row_end(void) { fputs("\n", stdout); }
static void header(const table_opts *o, const char *const *cols, int n) {
  row_begin(o);
  for (int i = 0; i < n; i++) cell_s(o, i == 0, cols[i]);
  row_end();
  if (!o->csv) {
    fputs("|", stdout);
    for (int i = 0; i < n; i++) fputs(i == 0 ? "---|" : "---:|", stdout);
    fputs("\n", stdout);
  }
}

static int table3(const table_opts *o) {
  if (!o->csv)
    printf("\n### Table 3: array sizes per element (doubles)\n\n"
           "A_e_packed, bytes_packed: packed symmetric output (upper triangle of A_e); 0 for "
           "conv-diff, which has none.\n\n");
  static const char *const cols[] = {"case", "N_S", "N_Q", "geometry", "coeffs", "A_e",
                                     "b_e", "global_accesses", "bytes_compulsory",
                                     "bytes_write_allocate", "A_e_packed", "bytes_packed"};
  header(o, cols, 12);
  for (int p = 0; p < FEINT_PROBLEM_COUNT; p++)
    for (int e = 0; e < FEINT_ELEMENT_COUNT; e++) {
      feint_pm_counts c;
      if (feint_pm_counts_get((feint_element)e, (feint_problem)p, FEINT_QSS_GEO_GENERIC, &c))
        return 1;
      char lab[64];
      row_begin(o);
      cell_s(o, 1, case_label((feint_element)e, (feint_problem)p, lab, sizeof lab));
      cell_ll(o, 0, c.num_nodes);
      cell_ll(o, 0, c.num_qpts);
      cell_ll(o, 0, c.geometry);
      cell_ll(o, 0, c.coeffs);
      cell_ll(o, 0, c.a_out);
      cell_ll(o, 0, c.b_out);
      cell_ll(o, 0, c.global_accesses);
      cell_ll(o, 0, c.bytes_compulsory);
      cell_ll(o, 0, c.bytes_write_allocate);
      cell_ll(o, 0, c.a_out_packed); /* 0: no packed output (conv-diff) */
      cell_ll(o, 0, c.bytes_compulsory_packed);
      row_end();
    }
  return 0;
}

/* Rows of Tables 4 and 6: feint's six variants, or the paper's three loop
 * orders (tet geo_linear, prism geo_generic, as in the paper). */
static int row_count(const table_opts *o) { return o->paper ? FEINT_PM_LOOP_ORDER_COUNT : FEINT_VARIANT_COUNT; }

static int row_counts(const table_opts *o, feint_element e, feint_problem p, int r,
                      feint_pm_counts *c, const char **name) {
  if (o->paper) {
    *name = feint_pm_loop_order_name((feint_pm_loop_order)r);
    return feint_pm_paper_counts(e, p, (feint_pm_loop_order)r, c) != FEINT_SUCCESS;
  }
  *name = feint_pm_variant_name((feint_variant)r);
  return feint_pm_counts_get(e, p, (feint_variant)r, c) != FEINT_SUCCESS;
}

static int table4(const table_opts *o) {
  if (!o->csv)
    printf("\n### Table 4: accesses and flops per element (%s counts)\n\n"
           "shared_*: auxiliary team-shared accesses when that array is placed in shared "
           "memory (-1: not given). flops: executed (repeated stages merged); "
           "as_written: no merging. paper_flops: the paper's Table 4 for the same loop order "
           "(given for tet geo_linear and prism geo_generic rows only; perfmodel/README.md says why "
           "they differ).\n\n",
           o->paper ? "the paper's" : "feint's");
  static const char *const cols[] = {"case", "variant", "global", "shared_geometry",
                                     "shared_coeffs", "shared_phi", "shared_Ab", "flops",
                                     "flops_as_written", "intensity_flop_per_access",
                                     "paper_flops", "as_written_minus_paper"};
  header(o, cols, 12);
  for (int p = 0; p < FEINT_PROBLEM_COUNT; p++)
    for (int e = 0; e < FEINT_ELEMENT_COUNT; e++)
      for (int r = 0; r < row_count(o); r++) {
        feint_pm_counts c, pc;
        const char *name;
        int lo = o->paper ? r : r / 2;
        /* cases outside the paper (hex8, ...): no paper column */
        const int have_paper = feint_pm_paper_counts((feint_element)e, (feint_problem)p,
                                                     (feint_pm_loop_order)lo, &pc) == FEINT_SUCCESS;
        if (o->paper && !have_paper) continue;
        if (row_counts(o, (feint_element)e, (feint_problem)p, r, &c, &name)) return 1;
        char lab[64];
        row_begin(o);
        cell_s(o, 1, case_label((feint_element)e, (feint_problem)p, lab, sizeof lab));
        cell_s(o, 0, name);
        cell_ll(o, 0, c.global_accesses);
        for (int k = 0; k < FEINT_PM_SHARED_COUNT; k++) cell_ll(o, 0, c.shared_accesses[k]);
        cell_ll(o, 0, c.flops);
        cell_ll(o, 0, c.flops_as_written);
        cell_f(o, 0, "%.1f", c.intensity_per_access);
        /* The paper's rows are tet geo_linear and prism geo_generic only. */
        int geo_linear = o->paper ? (e == FEINT_TET4) : (r % 2 == 0);
        if (have_paper && geo_linear == (e == FEINT_TET4)) {
          cell_ll(o, 0, pc.flops);
          cell_ll(o, 0, c.flops_as_written - pc.flops);
        } else {
          cell_s(o, 0, "");
          cell_s(o, 0, "");
        }
        row_end();
      }
  return 0;
}

static int table6(const table_opts *o, const feint_pm_platform *pl) {
  if (!o->csv)
    printf("\n### Table 6: lower-bound time per element on %s (%s counts)\n\n"
           "%s. t = max(bytes / bandwidth, flops / flop rate), bytes = 8 x global "
           "accesses (compulsory). Peak: %.4g GB/s, %.4g GFLOP/s. Benchmark: %s.\n\n",
           pl->name, o->paper ? "the paper's" : "feint's", pl->description, pl->peak_gbs,
           pl->peak_gflops,
           (pl->bench_measured[0] && pl->bench_measured[1]) ? "see columns" : "unmeasured");
  static const char *const cols[] = {"platform", "case", "variant", "bytes", "flops",
                                     "ns_peak", "bound_peak", "ns_bench", "bound_bench"};
  header(o, cols, 9);
  int have_bench = pl->bench_measured[0] && pl->bench_measured[1];
  for (int p = 0; p < FEINT_PROBLEM_COUNT; p++)
    for (int e = 0; e < FEINT_ELEMENT_COUNT; e++)
      for (int r = 0; r < row_count(o); r++) {
        feint_pm_counts c;
        const char *name;
        if (row_counts(o, (feint_element)e, (feint_problem)p, r, &c, &name)) {
          if (o->paper) continue; /* a case the paper does not cover */
          return 1;
        }
        double ns_peak, ns_bench = 0.0;
        feint_pm_bound b_peak, b_bench = FEINT_PM_BOUND_MEMORY;
        if (feint_pm_predict_platform(c.bytes_compulsory, c.flops, pl, FEINT_PM_USE_PEAK,
                                      &ns_peak, &b_peak))
          return 1;
        if (have_bench && feint_pm_predict_platform(c.bytes_compulsory, c.flops, pl,
                                                    FEINT_PM_USE_BENCH, &ns_bench, &b_bench))
          return 1;
        char lab[64];
        row_begin(o);
        cell_s(o, 1, pl->name);
        cell_s(o, 0, case_label((feint_element)e, (feint_problem)p, lab, sizeof lab));
        cell_s(o, 0, name);
        cell_ll(o, 0, c.bytes_compulsory);
        cell_ll(o, 0, c.flops);
        cell_f(o, 0, "%.2f", ns_peak);
        cell_s(o, 0, feint_pm_bound_name(b_peak));
        if (have_bench) {
          cell_f(o, 0, "%.2f", ns_bench);
          cell_s(o, 0, feint_pm_bound_name(b_bench));
        } else {
          cell_s(o, 0, "unmeasured");
          cell_s(o, 0, "unmeasured");
        }
        row_end();
      }
  return 0;
}

static int cmd_tables(int argc, char **argv) {
  table_opts o = {0, 0};
  const char *platform = NULL, *which = "all";
  for (int i = 0; i < argc; i++) {
    if (strcmp(argv[i], "--platform") == 0 && i + 1 < argc)
      platform = argv[++i];
    else if (strcmp(argv[i], "--format") == 0 && i + 1 < argc) {
      i++;
      if (strcmp(argv[i], "csv") == 0)
        o.csv = 1;
      else if (strcmp(argv[i], "md") != 0 && strcmp(argv[i], "markdown") != 0) {
        fprintf(stderr, "perfmodel: --format %s: allowed md, csv\n", argv[i]);
        return 2;
      }
    } else if (strcmp(argv[i], "--counts") == 0 && i + 1 < argc) {
      i++;
      if (strcmp(argv[i], "paper") == 0)
        o.paper = 1;
      else if (strcmp(argv[i], "feint") != 0) {
        fprintf(stderr, "perfmodel: --counts %s: allowed feint, paper\n", argv[i]);
        return 2;
      }
    } else if (strcmp(argv[i], "--table") == 0 && i + 1 < argc)
      which = argv[++i];
    else {
      fprintf(stderr, "perfmodel tables: unknown argument '%s'\n", argv[i]);
      usage(stderr);
      return 2;
    }
  }
  int all = strcmp(which, "all") == 0;
  if (!all && strcmp(which, "3") && strcmp(which, "4") && strcmp(which, "6")) {
    fprintf(stderr, "perfmodel: --table %s: allowed 3, 4, 6, all\n", which);
    return 2;
  }
  if (o.csv && all) {
    fprintf(stderr, "perfmodel: --format csv prints one table: add --table 3, 4 or 6\n");
    return 2;
  }
  int want6 = all || strcmp(which, "6") == 0;
  feint_pm_platform pl;
  if (want6) {
    if (platform == NULL) {
      fprintf(stderr, "perfmodel: Table 6 needs --platform NAME|PATH (see perfmodel platforms)\n");
      return 2;
    }
    if (feint_pm_platform_find(platform, NULL, &pl) != FEINT_SUCCESS) {
      fprintf(stderr, "perfmodel: %s\n", feint_last_error());
      return 1;
    }
  }
  int rc = 0;
  if (all || strcmp(which, "3") == 0) rc |= table3(&o);
  if (all || strcmp(which, "4") == 0) rc |= table4(&o);
  if (want6) rc |= table6(&o, &pl);
  if (rc) fprintf(stderr, "perfmodel: %s\n", feint_last_error());
  return rc;
}

static int cmd_platforms(void) {
  const char *dir = getenv("FEINT_PLATFORM_DIR");
  if (dir == NULL || *dir == '\0') dir = "perfmodel/platforms";
  char **names = NULL;
  const int n = perfmodel_list_platforms(dir, &names);
  if (n < 0) {
    fprintf(stderr, "perfmodel: cannot read platform directory '%s'\n", dir);
    return 1;
  }
  int rc = 0;
  printf("| platform | description | peak GFLOP/s | peak GB/s | bench GFLOP/s | bench GB/s |\n"
         "|---|---|---:|---:|---:|---:|\n");
  for (int i = 0; i < n; i++) {
    feint_pm_platform pl;
    if (feint_pm_platform_find(names[i], dir, &pl) != FEINT_SUCCESS) {
      fprintf(stderr, "perfmodel: %s\n", feint_last_error());
      rc = 1;
      continue;
    }
    char bf[32] = "unmeasured", bb[32] = "unmeasured";
    if (pl.bench_measured[0]) snprintf(bf, sizeof bf, "%.4g", pl.bench_gflops);
    if (pl.bench_measured[1]) snprintf(bb, sizeof bb, "%.4g", pl.bench_gbs);
    printf("| %s | %s | %.4g | %.4g | %s | %s |\n", pl.name, pl.description, pl.peak_gflops,
           pl.peak_gbs, bf, bb);
  }
  perfmodel_free_names(names, n);
  return rc;
}

int main(int argc, char **argv) {
  if (argc < 2) {
    usage(stderr);
    return 2;
  }
  if (strcmp(argv[1], "tables") == 0) return cmd_tables(argc - 2, argv + 2);
  if (strcmp(argv[1], "platforms") == 0) return cmd_platforms();
  if (strcmp(argv[1], "characterise") == 0 || strcmp(argv[1], "characterize") == 0)
    return perfmodel_characterise(argc - 2, argv + 2);
  if (strcmp(argv[1], "report") == 0) return perfmodel_report(argc - 2, argv + 2);
  if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0) {
    usage(stdout);
    return 0;
  }
  fprintf(stderr, "perfmodel: unknown command '%s'\n", argv[1]);
  usage(stderr);
  return 2;
}
