/* report.c - `perfmodel report`: the model-vs-measured report (the paper's
 * Table 7 and Figures 3-5 for feint).
 *
 * Reads every bench result file <results>/<platform>_<YYYY-MM-DD>...csv
 * ("# key: value" metadata lines, then a header row and one row per
 * measurement; columns named in bench/, see the header row), and writes
 * <out> (default bench/REPORT.md) with, per platform (a CPU: model, the
 * -march=native microarchitecture, cores and threads, or a GPU) and per
 * result file, each measured
 * ns/element beside the in-run lower bound (from the triad and FMA figures
 * measured in the same run) and the percentage reached, the ratios
 * natural/blocked and validated/trusted, plus the model's
 * bound from the platform file's peak figures when one exists; and one
 * gnuplot PNG per platform and build (the latest result file of each build
 * arch named in the file names, so a CPU's native and AVX2-only runs each
 * get one): measured vs predicted for each case and variant (best layout).
 * Platforms with a platform file but no results are listed as not measured.
 * Without gnuplot the plots are skipped with a message. */
#define _POSIX_C_SOURCE 200809L
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "feint_perfmodel.h"
#include "perfmodel_cli.h"

/* Copy src into dst[cap], truncating (intended for labels). */
static void copy_trunc(char *dst, size_t cap, const char *src) {
  size_t n = strlen(src);
  if (n >= cap) n = cap - 1;
  memcpy(dst, src, n);
  dst[n] = '\0';
}

static int cmp_name(const void *a, const void *b) {
  return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Entries of dir ending in suffix (suffix stripped if strip), sorted, in a
 * malloc'd array of malloc'd names (free with free_names); no limit on their
 * number or length.  Returns the count, or -1 (message printed). */
static int list_dir(const char *dir, const char *suffix, int strip, char ***out) {
  *out = NULL;
  DIR *d = opendir(dir);
  if (d == NULL) return -1;
  int n = 0, cap = 0;
  char **names = NULL;
  const size_t sl = strlen(suffix);
  struct dirent *ent;
  while ((ent = readdir(d)) != NULL) {
    const size_t l = strlen(ent->d_name);
    if (l <= sl || strcmp(ent->d_name + l - sl, suffix) != 0) continue;
    if (n == cap) {
      cap = cap ? 2 * cap : 64;
      char **grown = realloc(names, sizeof *names * (size_t)cap);
      if (grown == NULL) break;
      names = grown;
    }
    const size_t keep = l - (strip ? sl : 0);
    char *name = malloc(keep + 1);
    if (name == NULL) break;
    memcpy(name, ent->d_name, keep);
    name[keep] = '\0';
    names[n++] = name;
  }
  closedir(d);
  if (ent != NULL) { /* allocation failed */
    perfmodel_free_names(names, n);
    fprintf(stderr, "perfmodel: out of memory listing %s\n", dir);
    return -1;
  }
  if (n > 0) qsort(names, (size_t)n, sizeof *names, cmp_name);
  *out = names;
  return n;
}

void perfmodel_free_names(char **names, int n) {
  for (int i = 0; i < n; i++) free(names[i]);
  free(names);
}

int perfmodel_list_platforms(const char *dir, char ***names) {
  return list_dir(dir, ".platform", 1, names);
}

/* 1 if s is a non-empty name of letters, digits, '-', '_', '.' and '+':
 * the only characters a platform name, date or label may carry into a
 * gnuplot script or data file (anything else is refused, not escaped). */
int perfmodel_safe_name(const char *s) {
  const size_t n = strlen(s);
  return n > 0 && strspn(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_.+") == n;
}

/* A path as a gnuplot single-quoted string: ' doubled (gnuplot's only
 * escape there), control characters refused.  Returns 0, or -1. */
static int gp_quote(char *dst, size_t cap, const char *src) {
  size_t j = 0;
  if (cap < 3) return -1;
  dst[j++] = '\'';
  for (const char *c = src; *c; c++) {
    if ((unsigned char)*c < 0x20 || *c == 0x7f) return -1;
    if (j + 3 >= cap) return -1;
    if (*c == '\'') dst[j++] = '\'';
    dst[j++] = *c;
  }
  dst[j++] = '\'';
  dst[j] = '\0';
  return 0;
}

/* ---- one result file ----------------------------------------------------- */

enum { MAX_COLS = 40, MAX_ROWS = 4096, MAX_META = 16 };

enum { NAME_LEN = 160 }; /* result file and platform names */

typedef struct {
  char file[NAME_LEN];
  char platform[NAME_LEN];
  char date[16];
  char meta_key[MAX_META][32];
  char meta_val[MAX_META][160];
  int num_meta;
  char *cols[MAX_COLS]; /* header names, pointing into header_buf */
  int num_cols;
  char header_buf[1024];
  char **rows; /* each row: one malloc'd line, split in place into fields */
  char **fields; /* rows * MAX_COLS */
  int num_rows;
} result_file;

static void result_free(result_file *r) {
  for (int i = 0; i < r->num_rows; i++) free(r->rows[i]);
  free(r->rows);
  free(r->fields);
}

static int split(char *line, char **out, int max) {
  int n = 0;
  char *s = line;
  for (;;) {
    if (n == max) return -1;
    out[n++] = s;
    char *c = strchr(s, ',');
    if (c == NULL) break;
    *c = '\0';
    s = c + 1;
  }
  char *nl = strpbrk(out[n - 1], "\r\n");
  if (nl) *nl = '\0';
  return n;
}

static int col_index(const result_file *r, const char *name) {
  for (int i = 0; i < r->num_cols; i++)
    if (strcmp(r->cols[i], name) == 0) return i;
  return -1;
}

static const char *field(const result_file *r, int row, const char *name) {
  int c = col_index(r, name);
  if (c < 0) return "";
  const char *v = r->fields[(size_t)row * MAX_COLS + (size_t)c];
  return v ? v : "";
}

static double field_d(const result_file *r, int row, const char *name) {
  const char *v = field(r, row, name);
  char *end;
  double x = strtod(v, &end);
  return end == v ? -1.0 : x;
}

static int result_load(const char *dir, const char *file, result_file *r) {
  memset(r, 0, sizeof *r);
  /* the name ends up in a gnuplot script: refused unless plain */
  if (!perfmodel_safe_name(file) || strlen(file) >= sizeof r->file) {
    fprintf(stderr,
            "perfmodel report: result file name \"%.200s\" refused: allowed are letters, digits, "
            "'-', '_', '.', '+' (at most %zu characters); skipped\n",
            file, sizeof r->file - 1);
    return 1;
  }
  copy_trunc(r->file, sizeof r->file, file);
  /* platform and date from <platform>_<YYYY-MM-DD>[...].csv (the bench
   * writes <platform>_<date>-<HHMM>_<build arch>.csv; platforms have no '_') */
  const char *us = strchr(file, '_');
  if (us == NULL) {
    fprintf(stderr, "perfmodel report: %s: name is not <platform>_<YYYY-MM-DD>...csv; skipped\n",
            file);
    return 1;
  }
  snprintf(r->platform, sizeof r->platform, "%.*s", (int)(us - file), file);
  snprintf(r->date, sizeof r->date, "%.10s", us + 1);
  char path[1024];
  if (snprintf(path, sizeof path, "%s/%s", dir, file) >= (int)sizeof path) {
    fprintf(stderr, "perfmodel report: path %s/%s too long; skipped\n", dir, file);
    return 1;
  }
  FILE *f = fopen(path, "r");
  if (f == NULL) {
    fprintf(stderr, "perfmodel report: cannot open %s: %s\n", path, strerror(errno));
    return 1;
  }
  r->rows = malloc(sizeof(char *) * MAX_ROWS);
  r->fields = calloc((size_t)MAX_ROWS * MAX_COLS, sizeof(char *));
  if (r->rows == NULL || r->fields == NULL) {
    fclose(f);
    return 1;
  }
  char line[2048];
  int have_header = 0;
  while (fgets(line, sizeof line, f) != NULL) {
    if (line[0] == '#') {
      char *colon = strchr(line, ':');
      if (colon && r->num_meta < MAX_META) {
        *colon = '\0';
        char *k = line + 1, *v = colon + 1;
        while (*k == ' ') k++;
        while (*v == ' ') v++;
        char *nl = strpbrk(v, "\r\n");
        if (nl) *nl = '\0';
        copy_trunc(r->meta_key[r->num_meta], sizeof r->meta_key[0], k);
        copy_trunc(r->meta_val[r->num_meta], sizeof r->meta_val[0], v);
        r->num_meta++;
      }
      continue;
    }
    if (line[0] == '\n' || line[0] == '\0') continue;
    if (!have_header) {
      copy_trunc(r->header_buf, sizeof r->header_buf, line);
      r->num_cols = split(r->header_buf, r->cols, MAX_COLS);
      have_header = 1;
      continue;
    }
    if (r->num_rows == MAX_ROWS) break;
    char *copy = malloc(strlen(line) + 1);
    if (copy == NULL) break;
    strcpy(copy, line);
    r->rows[r->num_rows] = copy;
    if (split(copy, r->fields + (size_t)r->num_rows * MAX_COLS, MAX_COLS) < 0) {
      free(copy);
      continue;
    }
    r->num_rows++;
  }
  fclose(f);
  if (!have_header || col_index(r, "ns_min") < 0 || col_index(r, "bound_ns") < 0) {
    fprintf(stderr, "perfmodel report: %s: no header row with ns_min and bound_ns; skipped\n",
            file);
    return 1;
  }
  for (int i = 0; i < r->num_meta; i++)
    if (strcmp(r->meta_key[i], "platform") == 0 && r->meta_val[i][0]) {
      if (!perfmodel_safe_name(r->meta_val[i]) || strlen(r->meta_val[i]) >= sizeof r->platform) {
        fprintf(stderr,
                "perfmodel report: %s: platform name \"%.100s\" refused: allowed are letters, "
                "digits, '-', '_', '.', '+' (at most %zu characters); skipped\n",
                file, r->meta_val[i], sizeof r->platform - 1);
        return 1;
      }
      copy_trunc(r->platform, sizeof r->platform, r->meta_val[i]);
    }
  return 0;
}

/* Model bound for a row from the platform file's peak figures (feint's
 * counts), or -1 if the platform file or the case is unknown. */
static double model_peak_ns(const feint_pm_platform *pl, const result_file *r, int row) {
  if (pl == NULL) return -1.0;
  feint_element e;
  feint_problem p;
  feint_variant v;
  if (feint_pm_element_parse(field(r, row, "element"), &e) ||
      feint_pm_problem_parse(field(r, row, "problem"), &p) ||
      feint_pm_variant_parse(field(r, row, "variant"), &v))
    return -1.0;
  feint_pm_counts c;
  double ns;
  if (feint_pm_counts_get(e, p, v, &c) ||
      feint_pm_predict_platform(c.bytes_compulsory, c.flops, pl, FEINT_PM_USE_PEAK, &ns, NULL))
    return -1.0;
  return ns;
}

/* The build arch of a result file <platform>_<date>[_<arch>].csv: the text
 * after its second '_' up to ".csv"; *len = 0 if there is none (files
 * named before the build arch was). */
static const char *file_arch(const char *file, size_t *len) {
  const char *us = strchr(file, '_');
  const char *a = us ? strchr(us + 1, '_') : NULL;
  if (a == NULL) {
    *len = 0;
    return "";
  }
  a++;
  const char *dot = strstr(a, ".csv");
  *len = dot ? (size_t)(dot - a) : strlen(a);
  return a;
}

/* One PNG per result file (a platform on a date), named after the file:
 * best (min ns_min over layouts) per case/variant. */
static int plot(const result_file *r, const char *plots_dir, FILE *md) {
  char stem[512], dat[1024], png[1024], gp[1024];
  const char *slash = strrchr(r->file, '/');
  snprintf(stem, sizeof stem, "%s", slash ? slash + 1 : r->file);
  char *dot = strrchr(stem, '.');
  if (dot && strcmp(dot, ".csv") == 0) *dot = '\0';
  snprintf(dat, sizeof dat, "%s/%s.dat", plots_dir, stem);
  snprintf(png, sizeof png, "%s/%s.png", plots_dir, stem);
  snprintf(gp, sizeof gp, "%s/%s.gp", plots_dir, stem);
  FILE *f = fopen(dat, "w");
  if (f == NULL) return 1;
  fprintf(f, "# label measured_ns_min bound_ns\n");
  int used[MAX_ROWS] = {0};
  int npts = 0;
  for (int i = 0; i < r->num_rows; i++) {
    if (used[i]) continue;
    double best = field_d(r, i, "ns_min"), bound = field_d(r, i, "bound_ns");
    for (int j = i + 1; j < r->num_rows; j++)
      if (!used[j] && strcmp(field(r, i, "case"), field(r, j, "case")) == 0 &&
          strcmp(field(r, i, "variant"), field(r, j, "variant")) == 0) {
        used[j] = 1;
        if (field_d(r, j, "ns_min") < best) {
          best = field_d(r, j, "ns_min");
          bound = field_d(r, j, "bound_ns");
        }
      }
    /* labels go into the data file between double quotes: plain names only */
    if (!perfmodel_safe_name(field(r, i, "case")) || !perfmodel_safe_name(field(r, i, "variant"))) {
      fprintf(stderr, "perfmodel report: %s: row %d: case or variant name refused (allowed: "
                      "letters, digits, '-', '_', '.', '+'); not plotted\n", r->file, i + 1);
      continue;
    }
    fprintf(f, "\"%s %s\" %.6g %.6g\n", field(r, i, "case"), field(r, i, "variant"), best, bound);
    npts++;
  }
  fclose(f);
  /* The script names paths as quoted strings (quotes doubled, control
   * characters refused); platform and date are plain names (checked when
   * the result file was read).  gnuplot runs from an argument vector. */
  char q_png[2100], q_dat[2100];
  if (gp_quote(q_png, sizeof q_png, png) || gp_quote(q_dat, sizeof q_dat, dat) ||
      !perfmodel_safe_name(r->platform) || !perfmodel_safe_name(r->date)) {
    fprintf(md, "\n(plot refused: a path or name has control characters)\n");
    return 1;
  }
  int rc = -1;
  static const char *const terminals[2] = {"pngcairo", "png"}; /* pngcairo may be missing */
  for (int t = 0; t < 2 && rc != 0; t++) {
    f = fopen(gp, "w");
    if (f == NULL) return 1;
    fprintf(f,
            "set terminal %s size 1400,600 noenhanced\n"
            "set output %s\n"
            "set title 'feint on %s (%s): measured min vs in-run lower bound, ns per element'\n"
            "set style data histograms\nset style histogram clustered gap 1\n"
            "set style fill solid 0.8 border -1\nset logscale y\nset grid ytics\n"
            "set ylabel 'ns / element (log)'\nset xtics rotate by -45 font ',8'\n"
            "set key top left\n"
            "plot %s using 2:xtic(1) title 'measured (min)', '' using 3 title 'lower bound'\n",
            terminals[t], q_png, r->platform, r->date, q_dat);
    fclose(f);
    char *argv[] = {"gnuplot", gp, NULL};
    rc = perfmodel_run(argv, NULL, 0);
  }
  if (rc != 0) {
    fprintf(md, "\n(plot failed: gnuplot returned %d)\n", rc);
    return 1;
  }
  const char *base = strrchr(png, '/');
  fprintf(md, "\n![measured vs predicted on %s](%s/%s)\n", r->platform,
          strrchr(plots_dir, '/') ? strrchr(plots_dir, '/') + 1 : plots_dir,
          base ? base + 1 : png);
  (void)npts;
  return 0;
}

/* Row of (case, variant, output layout) in r, or -1 (natural and blocked
 * rows have layout_in = layout_out; packed rows read natural input). */
static int find_row(const result_file *r, const char *case_name, const char *variant,
                    const char *layout) {
  for (int j = 0; j < r->num_rows; j++)
    if (!strcmp(field(r, j, "case"), case_name) && !strcmp(field(r, j, "variant"), variant) &&
        !strcmp(field(r, j, "layout_out"), layout))
      return j;
  return -1;
}

/* The bench's regression guards from the rows of one file: per case and
 * variant natural / blocked, and per case and layout validated
 * (<variant>+check, the default call) / trusted (the kernel alone); ns_min
 * ratios, ns_median ratios in parentheses. */
static void ratios_section(const result_file *r, FILE *md) {
  int any = 0;
  for (int j = 0; j < r->num_rows; j++) {
    if (strcmp(field(r, j, "layout_out"), "natural")) continue;
    const char *cs = field(r, j, "case"), *v = field(r, j, "variant");
    const int jb = find_row(r, cs, v, "blocked"), jp = find_row(r, cs, v, "packed");
    if (jb < 0) continue;
    if (!any)
      fprintf(md, "\n| case | variant | natural/blocked | packed/natural | validated/trusted "
                  "natural | validated/trusted blocked |\n|---|---|---:|---:|---:|---:|\n");
    any = 1;
    fprintf(md, "| %s | %s | %.2f (%.2f) |", cs, v,
            field_d(r, j, "ns_min") / field_d(r, jb, "ns_min"),
            field_d(r, j, "ns_median") / field_d(r, jb, "ns_median"));
    if (jp < 0)
      fprintf(md, " |");
    else
      fprintf(md, " %.2f (%.2f) |", field_d(r, jp, "ns_min") / field_d(r, j, "ns_min"),
              field_d(r, jp, "ns_median") / field_d(r, j, "ns_median"));
    const char *plus = strstr(v, "+check");
    if (plus == NULL) {
      fprintf(md, " | |\n");
      continue;
    }
    char trusted[64];
    snprintf(trusted, sizeof trusted, "%.*s", (int)(plus - v), v);
    for (int l = 0; l < 2; l++) {
      const char *lay = l ? "blocked" : "natural";
      const int jc = find_row(r, cs, v, lay), jt = find_row(r, cs, trusted, lay);
      if (jc < 0 || jt < 0)
        fprintf(md, " |");
      else
        fprintf(md, " %.2f (%.2f) |", field_d(r, jc, "ns_min") / field_d(r, jt, "ns_min"),
                field_d(r, jc, "ns_median") / field_d(r, jt, "ns_median"));
    }
    fprintf(md, "\n");
  }
  if (any)
    fprintf(md, "\nRatios of ns_min (of ns_median in parentheses): the natural layout against "
                "the blocked one, packed symmetric output against natural (empty: no packed row), and the default call with its validation pass against the "
                "kernel alone.\n");
}

/* feint's counts beside the paper's Table 4, with the reasons they differ
 * (derivations in perfmodel/counts.c and perfmodel/README.md). */
static void paper_section(FILE *md) {
  fprintf(md,
          "\n## Model counts vs the paper's Table 4\n\n"
          "Flops per element. Paper: Table 4 of seed 000 (tetra with geo_linear, prism with "
          "geo_generic). feint executed: each distinct value computed once (what clang -O3 "
          "does after unrolling; the bound uses it). feint as written: no merging of the "
          "SQS/SSQ repetition (the paper's convention for its SQS/SSQ rows).\n\n"
          "| case | loop order | paper | feint as written | difference | feint executed |\n"
          "|---|---|---:|---:|---:|---:|\n");
  for (int p = 0; p < FEINT_PROBLEM_COUNT; p++)
    for (int e = 0; e < FEINT_ELEMENT_COUNT; e++)
      for (int lo = 0; lo < FEINT_PM_LOOP_ORDER_COUNT; lo++) {
        feint_pm_counts pc, fc;
        feint_variant v = (feint_variant)(2 * lo + (e == FEINT_TET4 ? 0 : 1));
        if (feint_pm_paper_counts((feint_element)e, (feint_problem)p, (feint_pm_loop_order)lo, &pc) ||
            feint_pm_counts_get((feint_element)e, (feint_problem)p, v, &fc))
          continue;
        long long d = fc.flops_as_written - pc.flops;
        fprintf(md, "| %s-%s | %s | %lld | %lld | %+lld (%+.0f%%) | %lld |\n",
                feint_pm_element_name((feint_element)e), feint_pm_problem_name((feint_problem)p),
                feint_pm_loop_order_name((feint_pm_loop_order)lo), pc.flops, fc.flops_as_written,
                d, 100.0 * (double)d / (double)pc.flops, fc.flops);
      }
  fprintf(md,
          "\nWhy they differ: (1) both fold the 0/+-1 entries of the reference "
          "gradients (tetrahedron Jacobian: 9 flops in both), but the paper also hoists the "
          "quadrature sum of the tetrahedron's constant integrand out of the loop and uses the "
          "symmetry of A^e in its as-written count; feint's source keeps one accumulation per "
          "point and entry (an IEEE-strict compiler may not reassociate the sum over q), and "
          "only the executed count merges the symmetric Poisson pairs; (2) feint's conv-diff "
          "integrand is psi_r . (c psi_s), 35 flops per (q, r, s) as written (c psi_s is "
          "shared by all r when executed), while the paper hoists the element-constant c; "
          "(3) for the prism the paper counts per point 126 flops for the reference "
          "derivatives of the geometric shape functions (feint reads them from constant "
          "tables: its Jacobian costs 75) and 49 for the Jacobian terms (feint's inverse: "
          "42), and in its SQS/SSQ rows all N_S global derivatives per repetition (feint's SSQ "
          "computes only psi_r and psi_s). "
          "Global accesses (36, 66, 52, 80) and the QSS shared-memory rows for geometry, "
          "coefficients and A^e/b^e agree exactly; feint's phi row (4 values per node, "
          "written once and read per use) is higher than the paper's 60/210, for which the "
          "paper gives no derivation. Details: perfmodel/README.md.\n");
}

int perfmodel_report(int argc, char **argv) {
  const char *results = "bench/results", *out = "bench/REPORT.md", *plots = "bench/report";
  for (int i = 0; i < argc; i++) {
    if (strcmp(argv[i], "--results") == 0 && i + 1 < argc)
      results = argv[++i];
    else if (strcmp(argv[i], "--out") == 0 && i + 1 < argc)
      out = argv[++i];
    else if (strcmp(argv[i], "--plots") == 0 && i + 1 < argc)
      plots = argv[++i];
    else {
      fprintf(stderr, "perfmodel report: unknown argument '%s'\n", argv[i]);
      return 2;
    }
  }
  char **files = NULL, **platforms = NULL;
  int nfiles = list_dir(results, ".csv", 0, &files);
  if (nfiles < 0) nfiles = 0;
  const char *pdir = getenv("FEINT_PLATFORM_DIR");
  if (pdir == NULL || *pdir == '\0') pdir = "perfmodel/platforms";
  int nplat = perfmodel_list_platforms(pdir, &platforms);
  if (nplat < 0) nplat = 0;
  const int have_gnuplot = perfmodel_have_program("gnuplot");
  if (nfiles > 0 && have_gnuplot) mkdir(plots, 0777);

  FILE *md = fopen(out, "w");
  if (md == NULL) {
    fprintf(stderr, "perfmodel report: cannot write %s: %s\n", out, strerror(errno));
    perfmodel_free_names(files, nfiles);
    perfmodel_free_names(platforms, nplat);
    return 1;
  }
  fprintf(md,
          "# feint: measured time vs the model's lower bound\n\n"
          "Written by `make report` (`perfmodel report`) from %d result file(s) in `%s/`. "
          "Do not edit by hand.\n\n"
          "Per element: `bound = max(bytes / GB/s, flops / GFLOP/s)`, bytes = 8 x global "
          "accesses (compulsory, nontemporal stores), flops = feint's executed count "
          "(`perfmodel tables --table 4`). The **in-run bound** uses the triad bandwidth and "
          "FMA rate measured in the same run, interleaved with the kernels (medians); "
          "`%% of bound` = 100 x bound / measured min (the paper's Table 7). "
          "**Model peak** is the bound at the platform file's peak figures.\n",
          nfiles, results);
  int rc = 0, plotted_any = 0;
  static char prev_platform[NAME_LEN];
  /* platforms with results (one entry per result file at most) */
  char (*measured)[NAME_LEN] = calloc((size_t)nfiles + 1, sizeof *measured);
  int nmeasured = 0;
  for (int i = 0; i < nfiles; i++) {
    result_file r;
    if (result_load(results, files[i], &r)) {
      result_free(&r);
      rc = 1;
      continue;
    }
    if (measured != NULL) {
      int seen = 0;
      for (int k = 0; k < nmeasured; k++) seen |= strcmp(measured[k], r.platform) == 0;
      if (!seen) copy_trunc(measured[nmeasured++], NAME_LEN, r.platform);
    }
    feint_pm_platform pl;
    int have_pl = feint_pm_platform_find(r.platform, pdir, &pl) == FEINT_SUCCESS;
    /* files sorted by name: one CPU's (platform's) files are adjacent */
    if (i == 0 || strcmp(r.platform, prev_platform) != 0) {
      fprintf(md, "\n## Platform %s\n", r.platform);
      copy_trunc(prev_platform, NAME_LEN, r.platform);
    }
    fprintf(md, "\n### %s, %s (`%s`)\n\n", r.platform, r.date, r.file);
    for (int k = 0; k < r.num_meta; k++)
      fprintf(md, "- %s: %s\n", r.meta_key[k], r.meta_val[k]);
    if (!have_pl) fprintf(md, "- no platform file `%s/%s.platform`: model peak column empty\n", pdir, r.platform);
    fprintf(md, "\n| case | variant | layout in/out | ns min | ns median | in-run bound ns | "
                "bound | %% of bound | model peak ns | status |\n"
                "|---|---|---|---:|---:|---:|---|---:|---:|---|\n");
    int fails = 0, over = 0;
    for (int j = 0; j < r.num_rows; j++) {
      double ns_min = field_d(&r, j, "ns_min"), bound = field_d(&r, j, "bound_ns");
      double mp = model_peak_ns(have_pl ? &pl : NULL, &r, j);
      char mps[32] = "";
      if (mp > 0) snprintf(mps, sizeof mps, "%.2f", mp);
      char pct[32] = "";
      if (ns_min > 0 && bound > 0) {
        double pc = feint_pm_pct_of_bound(bound, ns_min);
        /* faster than a lower bound: the counts or the in-run figures are wrong */
        snprintf(pct, sizeof pct, "%.0f%%%s", pc, pc > 100.0 ? " (!)" : "");
        over += pc > 100.0;
      }
      fprintf(md, "| %s | %s | %s/%s | %.2f | %.2f | %.2f | %s | %s | %s | %s |\n",
              field(&r, j, "case"), field(&r, j, "variant"), field(&r, j, "layout_in"),
              field(&r, j, "layout_out"), ns_min, field_d(&r, j, "ns_median"), bound,
              field(&r, j, "bound_kind"), pct, mps, field(&r, j, "status"));
      fails += strcmp(field(&r, j, "status"), "PASS") != 0;
    }
    ratios_section(&r, md);
    if (fails) fprintf(md, "\n**%d row(s) did not PASS validation.**\n", fails);
    if (over)
      fprintf(md, "\n**(!) %d row(s) ran faster than the lower bound**: the model's byte or flop "
                  "count for them is too high, or the in-run bandwidth/flop figures too low; "
                  "treat those percentages as a defect to explain, not a result.\n", over);
    /* the latest file of a platform and build arch gets the plot (files
     * sorted by name) */
    size_t alen;
    const char *arch = file_arch(files[i], &alen);
    int latest = 1;
    for (int k = i + 1; k < nfiles; k++) {
      const char *us = strchr(files[k], '_');
      size_t klen;
      const char *karch = file_arch(files[k], &klen);
      if (us && (size_t)(us - files[k]) == strlen(r.platform) &&
          strncmp(files[k], r.platform, strlen(r.platform)) == 0 && klen == alen &&
          strncmp(karch, arch, alen) == 0)
        latest = 0;
    }
    if (latest && r.num_rows > 0) {
      if (have_gnuplot) {
        if (plot(&r, plots, md) == 0)
          plotted_any = 1;
        else
          rc = 1;
      } else {
        fprintf(md, "\n(no plot: gnuplot not installed)\n");
      }
    }
    result_free(&r);
  }
  if (!have_gnuplot && nfiles > 0)
    fprintf(stderr, "perfmodel report: gnuplot not found: plots skipped\n");
  paper_section(md);
  fprintf(md, "\n## Not measured\n\n");
  int none = 1;
  for (int k = 0; k < nplat; k++) {
    int seen = 0;
    for (int m = 0; m < nmeasured; m++) seen |= strcmp(measured[m], platforms[k]) == 0;
    if (seen) continue;
    feint_pm_platform pl;
    if (feint_pm_platform_find(platforms[k], pdir, &pl) == FEINT_SUCCESS)
      fprintf(md, "- %s (%s): no result file; no measurement is shown.\n", pl.name,
              pl.description);
    else
      fprintf(md, "- %s: no result file (platform file invalid: %s)\n", platforms[k],
              feint_last_error());
    none = 0;
  }
  if (none) fprintf(md, "Every platform with a platform file has results.\n");
  fclose(md);
  free(measured);
  perfmodel_free_names(files, nfiles);
  perfmodel_free_names(platforms, nplat);
  fprintf(stderr, "perfmodel report: wrote %s from %d result file(s)%s%s\n", out, nfiles,
          plotted_any ? "; plots in " : "", plotted_any ? plots : "");
  return rc;
}
