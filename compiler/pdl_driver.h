/* pdl_driver: the main job - for every machine and every processor count, build and solve the
 * scaled model and collect the report's rows (procs, mean, speedup, ... or an analysis) into a
 * table; a sweep adds the rows of every combination of values to the same table. */
#ifndef PDL_DRIVER_H
#define PDL_DRIVER_H

#include "pdl_analysis.h"
#include "pdl_check.h"
#include "pdl_report.h"

#include <stdint.h>

typedef struct pdl_run_opts {
    const uint64_t *procs; /* processor counts, ascending, distinct */
    size_t nprocs;
    const double *quantiles; /* in (0, 1) */
    size_t nquantiles;
    size_t precision; /* solver lattice length; 0: its default */
    unsigned methods; /* PDL_WANT_* of pdl_generic.h besides the scaled model (always run) */
    uint64_t samples; /* simulation */
    uint64_t seed;
    int threads;
    int progress; /* print a progress line on stderr for long simulations */
    pdl_report_kind report;
    int with_ap; /* the speedup report gets an avg_parallelism column */
} pdl_run_opts;

typedef struct pdl_runner pdl_runner;

/* A run whose table starts with `nlead` columns named lead (the swept variables), then a
 * machine column when there are several machines, then the report's columns. The options and
 * names are borrowed. NULL when out of memory. */
pdl_runner *pdl_runner_alloc(const pdl_run_opts *o, const char *const *lead, size_t nlead,
                             size_t nmachines);
void pdl_runner_free(pdl_runner *r);
/* Appends the rows of one checked program on every machine and p, with lead_values (nlead
 * numbers) in the leading columns. Solver notes (truncated tails, coarse lattices) are reported
 * as warnings, each text once per runner. Returns 0, or -1 after reporting errors through d. */
int pdl_runner_add(pdl_runner *r, const pdl_checked *prog, pdl_diag *d, const double *lead_values);
/* The table so far (owned by the runner). */
const pdl_table *pdl_runner_table(const pdl_runner *r);

/* --optimize: of the rows that agree in every leading column but `name` and in procs, keeps the
 * one with the smallest mean (the first on ties), in the order the groups first appear.
 * O(rows x groups x columns). Returns 0, or -1 when out of memory. */
int pdl_runner_optimize(pdl_runner *r, const char *name);

/* The column name of quantile u: "q50" for 0.5, "q99.9" for 0.999. */
void pdl_quantile_name(char *buf, size_t size, double u);

#endif
