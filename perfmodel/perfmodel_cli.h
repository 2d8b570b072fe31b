/* perfmodel_cli.h - the subcommands of the perfmodel tool that live in their
 * own files (characterise.c, report.c).  Not part of libfeint. */
#ifndef FEINT_PERFMODEL_CLI_H
#define FEINT_PERFMODEL_CLI_H

#include <stddef.h>

/* perfmodel characterise [--reps N] [--mib M] [--no-likwid]: measure this
 * machine's triad bandwidth and FMA rate; print them as a platform file. */
int perfmodel_characterise(int argc, char **argv);

/* perfmodel report [--results DIR] [--out FILE] [--plots DIR]: read every
 * bench result CSV and write the model-vs-measured report. */
int perfmodel_report(int argc, char **argv);

/* Names (file names without ".platform") of the platform files in dir,
 * sorted, any number of any length: *names is a malloc'd array of malloc'd
 * strings (perfmodel_free_names).  Returns the count, or -1 if dir cannot
 * be read. */
int perfmodel_list_platforms(const char *dir, char ***names);
void perfmodel_free_names(char **names, int n);

/* 1 if s is a non-empty plain name: letters, digits, '-', '_', '.', '+'
 * (what may reach a gnuplot script). */
int perfmodel_safe_name(const char *s);

/* spawn.c (linked into the perfmodel tool and feint_bench): 1 if `name` is
 * an executable on PATH; run argv (argv[0] looked up on PATH) without a
 * shell, capturing stdout and stderr into out[cap] (NUL-ended, truncated)
 * if out != NULL, else inheriting both.  Returns the exit status, or -1 if
 * it could not run or did not exit normally. */
int perfmodel_have_program(const char *name);
int perfmodel_run(char *const argv[], char *out, size_t cap);

#endif /* FEINT_PERFMODEL_CLI_H */
