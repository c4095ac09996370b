/* pdl_driver: the main job - for every machine and every processor count, build and solve the
 * scaled model and collect procs, mean, speedup, efficiency (and quantiles) into a table. */
#ifndef PDL_DRIVER_H
#define PDL_DRIVER_H

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
} pdl_run_opts;

/* Runs the program on every machine of prog and every p. Returns the table (the caller frees
 * it), or NULL after reporting errors through d. Solver notes (truncated tails, coarse
 * lattices) are reported as warnings. */
pdl_table *pdl_run(const pdl_checked *prog, pdl_diag *d, const pdl_run_opts *o);

/* The column name of quantile u: "q50" for 0.5, "q99.9" for 0.999. */
void pdl_quantile_name(char *buf, size_t size, double u);

#endif
