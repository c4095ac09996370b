/* pdl_cli: the pdlc command line, parsed into options without side effects so it can be tested
 * alone. Usage mistakes are exit status 2 (GNU convention); --help and --version print and stop. */
#ifndef PDL_CLI_H
#define PDL_CLI_H

#include "pdl_analysis.h"
#include "pdl_check.h"
#include "pdl_report.h"

#include <stdio.h>

typedef enum pdl_emit { PDL_EMIT_NONE, PDL_EMIT_AST, PDL_EMIT_DOT } pdl_emit;

/* --sweep NAME=LIST: the values in the order given. */
typedef struct pdl_sweep {
    const char *name;
    double *values;
    size_t n;
} pdl_sweep;

/* Most values one --sweep may list, and most combinations of all sweeps (each is a whole run). */
#define PDL_MAX_SWEEP_VALUES 10000
#define PDL_MAX_SWEEP_RUNS   100000
/* Most swept variables. */
#define PDL_MAX_SWEEPS 64

typedef struct pdl_options {
    const char *input; /* the PDL program */
    int check;         /* --check: parse and check only */
    pdl_emit emit;     /* --emit */
    pdl_setvar *sets;  /* --set NAME=VALUE, in order (a later one wins) */
    size_t nsets;
    const char **machines; /* --machine FILE, in order */
    size_t nmachines;
    uint64_t *procs; /* --procs / --max-procs, ascending and distinct (default 1..16) */
    size_t nprocs;
    double *quantiles; /* --quantiles, in the order given */
    size_t nquantiles;
    size_t precision;       /* --precision: solver lattice length, 0 = default */
    const char *output;     /* -o FILE, NULL for standard output */
    pdl_format format;      /* --format */
    unsigned methods;       /* --method: PDL_WANT_* beyond the scaled model */
    uint64_t samples;       /* --samples */
    uint64_t seed;          /* --seed */
    int threads;            /* --threads (0: all cores) */
    pdl_report_kind report; /* --report (default: speedup) */
    int report_given;       /* --report was given: the average parallelism is wanted */
    pdl_sweep *sweeps;      /* --sweep, in order: the first varies slowest */
    size_t nsweeps;
    const char *optimize; /* --optimize NAME: one of the swept names */
    const char *plot;     /* --plot FILE */
} pdl_options;

#define PDL_DEFAULT_SAMPLES 100000
#define PDL_DEFAULT_SEED    1

/* The processor counts used when neither --procs nor --max-procs is given: 1..16. */
#define PDL_DEFAULT_MAX_PROCS 16

typedef enum pdl_cli_result {
    PDL_CLI_RUN = 0,  /* options parsed: go on */
    PDL_CLI_DONE = 1, /* --help or --version printed to out: exit 0 */
    PDL_CLI_USAGE = 2 /* a usage error was printed to err: exit 2 */
} pdl_cli_result;

/* Parses argv. Strings in *o point into argv or into memory freed by pdl_cli_free. */
pdl_cli_result pdl_cli_parse(int argc, char **argv, pdl_options *o, FILE *out, FILE *err);
void pdl_cli_free(pdl_options *o);

#endif
