/* perfmodel_cli.h - the subcommands of the perfmodel tool that live in their
 * own files (characterise.c, report.c).  Not part of libfeint. */
#ifndef FEINT_PERFMODEL_CLI_H
#define FEINT_PERFMODEL_CLI_H

/* perfmodel characterise [--reps N] [--mib M] [--no-likwid]: measure this
 * machine's triad bandwidth and FMA rate; print them as a platform file. */
int perfmodel_characterise(int argc, char **argv);

/* perfmodel report [--results DIR] [--out FILE] [--plots DIR]: read every
 * bench result CSV and write the model-vs-measured report. */
int perfmodel_report(int argc, char **argv);

/* Names (file names without ".platform") of the platform files in dir,
 * sorted; at most max.  Returns the count, or -1 if dir cannot be read. */
int perfmodel_list_platforms(const char *dir, char names[][64], int max);

#endif /* FEINT_PERFMODEL_CLI_H */
