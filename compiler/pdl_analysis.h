/* pdl_analysis: why a program stops scaling - per-phase profiles (seed 001, section 5), the
 * lost-time breakdown of the DVM performance analyzer (seed 003), bottleneck ratios (seed 002),
 * average parallelism and the critical path (seed 000). Each report appends rows to a table. */
#ifndef PDL_ANALYSIS_H
#define PDL_ANALYSIS_H

#include "pdl_gen.h"
#include "pdl_report.h"

typedef enum pdl_report_kind {
    PDL_REPORT_SPEEDUP, /* the default: procs, mean, speedup, efficiency, ... */
    PDL_REPORT_PROFILE,
    PDL_REPORT_LOSSES,
    PDL_REPORT_BOTTLENECK,
    PDL_REPORT_CRITICAL_PATH
} pdl_report_kind;

/* The report's own columns (after any sweep and machine columns), NULL-terminated. */
const char *const *pdl_report_columns(pdl_report_kind k);

/* Where a report puts its rows: add() appends a row with the caller's own leading columns
 * (sweep values, machine) filled in and returns its index ((size_t)-1 when out of memory); the
 * report's columns start at col0. */
typedef struct pdl_rows {
    pdl_table *t;
    size_t col0;
    size_t (*add)(void *arg);
    void *arg;
} pdl_rows;

/* Appends the rows of report k (not the speedup report) for one machine and the processor
 * counts procs (the critical path is one list, for unlimited processors). Returns 0, or -1 after
 * reporting errors. */
int pdl_analysis_rows(pdl_gen *g, pdl_report_kind k, size_t machine, const uint64_t *procs,
                      size_t nprocs, const pdl_rows *rows);

/* Average parallelism (seed 000): the total work E[T(1)] over the critical path of mean
 * durations of the generic model with unlimited processors (one per unit, at most
 * PDL_AP_PROCS), both with communication and barriers free: a property of the program, and an
 * upper bound on its speedup on any machine whose overheads do not shrink as p grows. */
#define PDL_AP_PROCS 1024
int pdl_average_parallelism(pdl_gen *g, size_t machine, double *ap);
/* The same for a column beside other results: when the generic model cannot be built (too
 * large, ...) a warning says why and the result is NAN, for a cell left empty. */
double pdl_average_parallelism_or_nan(pdl_gen *g, size_t machine);

#endif
