/* pdl_plot: the speedup table drawn as a picture (SVG or PNG) by gnuplot, run as a child process
 * fed a script with the data inline; pdlc itself draws nothing and links no graphics library. */
#ifndef PDL_PLOT_H
#define PDL_PLOT_H

#include "pdl_report.h"

#include <stdio.h>

/* Draws the speedup table t through gnuplot into path (.svg or .png by its extension): speedup
 * against procs, one curve per series, the ideal line y = x, the bounds band where the table has
 * lower and upper columns, and a horizontal line at each series' avg_parallelism where present.
 * Series: rows with equal values in every column before "procs" (sweep values, machine); the
 * legend names them "n=100, machine=meiko". The file is written atomically (gnuplot writes a
 * temporary file in the same directory, renamed into place on success). Errors go to err as
 * "pdlc: error: ..." lines. Returns 0 or -1. */
int pdl_plot_write(const pdl_table *t, const char *path, const char *title, FILE *err);
/* Whether gnuplot can be run (found in PATH, or the command in the environment variable
 * PDLC_GNUPLOT); when not, and err is not NULL, prints the error saying to install gnuplot
 * (Debian: apt-get install gnuplot-nox) or drop --plot. */
int pdl_plot_available(FILE *err);
/* Whether path ends in .svg or .png (case-insensitive). */
int pdl_plot_format_ok(const char *path);

#endif
