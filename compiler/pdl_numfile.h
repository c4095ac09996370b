/* pdl_numfile: reads the measured runtime files behind NUMERICAL('file'): either a histogram of
 * `value probability` pairs or one sample per line. Errors point into the file itself. */
#ifndef PDL_NUMFILE_H
#define PDL_NUMFILE_H

#include "pdl_arena.h"
#include "pdl_diag.h"

typedef struct pdl_numdata {
    const char *path; /* as opened */
    int histogram;    /* 1: values[k] has probability probs[k]; 0: values are samples */
    size_t n;
    double *values;
    double *probs; /* NULL for samples */
} pdl_numdata;

/* Largest number of lines (pairs or samples) accepted. */
#define PDL_NUMFILE_MAX_LINES 10000000u

/* Loads `path` (already resolved against the program's directory), registering it with d so
 * errors show its lines; `from` is the place in the program that named it. The result is
 * arena-owned; NULL after reporting an error. */
const pdl_numdata *pdl_numfile_load(pdl_diag *d, pdl_arena *a, const char *path, pdl_loc from);

#endif
