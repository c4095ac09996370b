/* pdl_cli: getopt_long over pdlc's options. Each option's meaning is documented in man/pdlc.1;
 * this file only turns text into values and says precisely what is wrong with bad ones. */
#include "pdl_cli.h"

#include "pdl_gen.h"
#include "pdl_generic.h"
#include "pdl_plot.h"
#include "sol_ctx.h"

#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#ifndef PDLC_VERSION
#define PDLC_VERSION "0.0.0"
#endif

/* printf format: the one argument is the solver's default lattice length. */
static const char usage_text[] =
    "Usage: pdlc FILE [OPTION]...\n"
    "Predict how the parallel program described in the PDL file FILE scales.\n"
    "\n"
    "  -c, --check              parse and check FILE only; print nothing on success\n"
    "  -D, --set NAME=VALUE     give variable NAME the value VALUE (repeatable)\n"
    "  -m, --machine FILE       read a machine model (repeatable; default: the ideal machine)\n"
    "  -P, --max-procs N        model p = 1..N processors (default 16)\n"
    "      --procs LIST         model these processor counts, e.g. 1,2,4-16,32\n"
    "  -q, --quantiles LIST     add quantile columns, e.g. 0.5,0.95 gives q50,q95\n"
    "      --precision N        solver lattice length (64..16777216; default %zu)\n"
    "  -o, --output FILE        write the results to FILE (atomically) instead of stdout\n"
    "  -f, --format FMT         csv (default), json or table (aligned, for a terminal)\n"
    "  -M, --method LIST        approx (default), bounds, simulate, markov or all\n"
    "                           (approx, bounds and simulate); e.g. bounds,markov\n"
    "      --samples N          simulation samples (default 100000)\n"
    "      --seed S             simulation seed (default 1)\n"
    "      --threads N          simulation threads (default: all cores)\n"
    "  -r, --report KIND        speedup (default), profile, losses, bottleneck or\n"
    "                           critical-path\n"
    "      --sweep NAME=LIST    run for every value of variable NAME, e.g. n=100,200 or\n"
    "                           b=50-400:50 (repeatable: every combination)\n"
    "      --optimize NAME      keep, for each p, the swept value of NAME with the\n"
    "                           smallest mean runtime\n"
    "      --plot FILE          draw the speedup curve into FILE.svg or FILE.png (gnuplot)\n"
    "      --emit ast|dot       print the parsed program (ast), or the model on the one\n"
    "                           processor count of --procs as a Graphviz graph (dot)\n"
    "  -h, --help               print this help and exit\n"
    "  -V, --version            print the version and exit\n"
    "\n"
    "Exit status: 0 success, 1 errors in the input, 2 wrong usage.\n"
    "See pdlc(1) for the command and pdl(5) for the language.\n";

enum {
    OPT_EMIT = 256,
    OPT_PROCS,
    OPT_PRECISION,
    OPT_SAMPLES,
    OPT_SEED,
    OPT_THREADS,
    OPT_SWEEP,
    OPT_OPTIMIZE,
    OPT_PLOT
};

static pdl_cli_result usage_error(FILE *err, const char *fmt, ...) PDL_PRINTF(2, 3);
static pdl_cli_result usage_error(FILE *err, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs("pdlc: error: ", err);
    vfprintf(err, fmt, ap);
    va_end(ap);
    fputs("\nTry 'pdlc --help' for more information.\n", err);
    return PDL_CLI_USAGE;
}

static int is_identifier(const char *s, size_t len)
{
    if (len == 0 || !(isalpha((unsigned char)s[0]) || s[0] == '_'))
        return 0;
    for (size_t k = 1; k < len; k++)
        if (!(isalnum((unsigned char)s[k]) || s[k] == '_'))
            return 0;
    return 1;
}

/* Parses a finite number with nothing after it. */
static int parse_number(const char *s, double *v)
{
    char *end;
    errno = 0;
    *v = strtod(s, &end);
    while (isspace((unsigned char)*end))
        end++;
    return end != s && *end == '\0' && errno == 0 && isfinite(*v);
}

/* A whole-string unsigned integer in [lo, hi]. */
static int parse_count(const char *s, uint64_t lo, uint64_t hi, uint64_t *v)
{
    if (!isdigit((unsigned char)*s))
        return 0;
    char *end;
    errno = 0;
    unsigned long long x = strtoull(s, &end, 10);
    if (*end != '\0' || errno != 0 || x < lo || x > hi)
        return 0;
    *v = x;
    return 1;
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

/* "1,2,4-16,32": single counts and inclusive ranges; sorted, duplicates removed. */
static pdl_cli_result parse_procs(pdl_options *o, const char *arg, FILE *err)
{
    size_t cap = 16, n = 0;
    uint64_t *v = malloc(cap * sizeof *v);
    char *copy = strdup(arg);
    pdl_cli_result r = v && copy ? PDL_CLI_RUN : usage_error(err, "%s", "out of memory");
    char *save = NULL;
    for (char *tok = copy ? strtok_r(copy, ",", &save) : NULL; tok && r == PDL_CLI_RUN;
         tok = strtok_r(NULL, ",", &save)) {
        uint64_t a, b;
        char *dash = strchr(tok, '-');
        if (dash)
            *dash = '\0';
        if (!parse_count(tok, 1, PDL_MAX_PROCS, &a) ||
            (dash && !parse_count(dash + 1, 1, PDL_MAX_PROCS, &b))) {
            r = usage_error(err,
                            "--procs: '%s' is not a list of processor counts from 1 to %u "
                            "(e.g. 1,2,4-16,32)",
                            arg, PDL_MAX_PROCS);
            break;
        }
        if (!dash)
            b = a;
        if (b < a) {
            r = usage_error(err, "--procs: the range '%s-%s' runs backwards", tok, dash + 1);
            break;
        }
        if (b - a + 1 > PDL_MAX_PROCS - n) {
            r = usage_error(err, "--procs: more than %u processor counts", PDL_MAX_PROCS);
            break;
        }
        for (uint64_t x = a; x <= b; x++) {
            if (n == cap) {
                cap *= 2;
                uint64_t *nv = realloc(v, cap * sizeof *nv);
                if (!nv) {
                    r = usage_error(err, "%s", "out of memory");
                    break;
                }
                v = nv;
            }
            v[n++] = x;
        }
    }
    free(copy);
    if (r == PDL_CLI_RUN && n == 0)
        r = usage_error(err, "--procs: '%s' names no processor count", arg);
    if (r != PDL_CLI_RUN) {
        free(v);
        return r;
    }
    qsort(v, n, sizeof *v, cmp_u64);
    size_t m = 0;
    for (size_t k = 0; k < n; k++)
        if (m == 0 || v[m - 1] != v[k])
            v[m++] = v[k];
    free(o->procs);
    o->procs = v;
    o->nprocs = m;
    return PDL_CLI_RUN;
}

static pdl_cli_result parse_quantiles(pdl_options *o, const char *arg, FILE *err)
{
    size_t n = 1;
    for (const char *c = arg; *c; c++)
        n += *c == ',';
    double *q = malloc(n * sizeof *q);
    char *copy = strdup(arg);
    if (!q || !copy) {
        free(q);
        free(copy);
        return usage_error(err, "%s", "out of memory");
    }
    size_t k = 0;
    char *save = NULL;
    for (char *tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
        double v;
        if (!parse_number(tok, &v) || !(v > 0 && v < 1)) {
            pdl_cli_result r =
                usage_error(err, "--quantiles: '%s' is not a probability between 0 and 1", tok);
            free(q);
            free(copy);
            return r;
        }
        q[k++] = v;
    }
    free(copy);
    if (k == 0) {
        free(q);
        return usage_error(err, "--quantiles: '%s' names no quantile", arg);
    }
    free(o->quantiles);
    o->quantiles = q;
    o->nquantiles = k;
    return PDL_CLI_RUN;
}

/* "bounds,simulate": the generic-model methods to run besides the scaled model. */
static pdl_cli_result parse_methods(pdl_options *o, const char *arg, FILE *err)
{
    char *copy = strdup(arg), *save = NULL;
    if (!copy)
        return usage_error(err, "%s", "out of memory");
    unsigned m = 0;
    pdl_cli_result r = PDL_CLI_RUN;
    for (char *tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
        if (strcmp(tok, "approx") == 0)
            continue;
        else if (strcmp(tok, "bounds") == 0)
            m |= PDL_WANT_BOUNDS;
        else if (strcmp(tok, "simulate") == 0)
            m |= PDL_WANT_SIM;
        else if (strcmp(tok, "markov") == 0)
            m |= PDL_WANT_MARKOV;
        else if (strcmp(tok, "all") == 0)
            m |= PDL_WANT_BOUNDS | PDL_WANT_SIM;
        else {
            r = usage_error(err,
                            "--method: unknown method '%s' (expected: approx, bounds, simulate, "
                            "markov or all)",
                            tok);
            break;
        }
    }
    free(copy);
    o->methods = m;
    return r;
}

static pdl_cli_result add_set(pdl_options *o, const char *arg, FILE *err)
{
    const char *eq = strchr(arg, '=');
    if (!eq)
        return usage_error(err, "--set expects NAME=VALUE, got '%s'", arg);
    size_t len = (size_t)(eq - arg);
    if (!is_identifier(arg, len))
        return usage_error(err, "--set: '%s' does not start with a variable name", arg);
    double v;
    if (!parse_number(eq + 1, &v))
        return usage_error(err, "--set: the value in '%s' is not a number", arg);
    pdl_setvar *n = realloc(o->sets, (o->nsets + 1) * sizeof *n);
    char *name = malloc(len + 1);
    if (!n || !name) {
        free(name);
        if (n)
            o->sets = n;
        return usage_error(err, "%s", "out of memory");
    }
    memcpy(name, arg, len);
    name[len] = '\0';
    o->sets = n;
    /* A later --set of the same name replaces the earlier one. */
    for (size_t k = 0; k < o->nsets; k++) {
        if (strcmp(o->sets[k].name, name) == 0) {
            free(name);
            o->sets[k].value = v;
            return PDL_CLI_RUN;
        }
    }
    o->sets[o->nsets].name = name;
    o->sets[o->nsets].value = v;
    o->sets[o->nsets].swept = 0;
    o->nsets++;
    return PDL_CLI_RUN;
}

static const char *const report_names[] = {"speedup", "profile", "losses", "bottleneck",
                                           "critical-path"};

static pdl_cli_result parse_report(pdl_options *o, const char *arg, FILE *err)
{
    for (size_t k = 0; k < sizeof report_names / sizeof *report_names; k++) {
        if (strcmp(arg, report_names[k]) == 0) {
            o->report = (pdl_report_kind)k;
            o->report_given = 1;
            return PDL_CLI_RUN;
        }
    }
    return usage_error(err,
                       "--report: unknown report '%s' (expected: speedup, profile, losses, "
                       "bottleneck or critical-path)",
                       arg);
}

/* A range "A-B" or "A-B:STEP" of a sweep; the '-' that separates A from B is the first one with
 * numbers on both sides, so negative values and exponents ("-2--1", "1e-3-1e-2:1e-3") work. */
static int parse_range(char *tok, double *a, double *b, double *step)
{
    char *colon = strchr(tok, ':');
    *step = 1;
    if (colon) {
        *colon = '\0';
        if (!parse_number(colon + 1, step))
            return 0;
    }
    for (char *dash = strchr(tok + 1, '-'); dash; dash = strchr(dash + 1, '-')) {
        *dash = '\0';
        int ok = parse_number(tok, a) && parse_number(dash + 1, b);
        *dash = '-';
        if (ok)
            return 1;
    }
    return 0;
}

static pdl_cli_result add_sweep(pdl_options *o, const char *arg, FILE *err)
{
    const char *eq = strchr(arg, '=');
    if (!eq)
        return usage_error(err, "--sweep expects NAME=LIST, got '%s'", arg);
    size_t len = (size_t)(eq - arg);
    if (!is_identifier(arg, len))
        return usage_error(err, "--sweep: '%s' does not start with a variable name", arg);
    if (o->nsweeps == PDL_MAX_SWEEPS)
        return usage_error(err, "--sweep: more than %d swept variables", PDL_MAX_SWEEPS);
    for (size_t k = 0; k < o->nsweeps; k++)
        if (strlen(o->sweeps[k].name) == len && strncmp(o->sweeps[k].name, arg, len) == 0)
            return usage_error(err,
                               "--sweep: '%.*s' is swept twice; list all its values in one "
                               "--sweep",
                               (int)len, arg);
    pdl_sweep *n = realloc(o->sweeps, (o->nsweeps + 1) * sizeof *n);
    if (!n)
        return usage_error(err, "%s", "out of memory");
    o->sweeps = n;
    pdl_sweep *sw = &o->sweeps[o->nsweeps];
    sw->name = NULL;
    sw->values = NULL;
    sw->n = 0;
    char *name = malloc(len + 1), *copy = strdup(eq + 1), *save = NULL;
    size_t cap = 0;
    pdl_cli_result r = name && copy ? PDL_CLI_RUN : usage_error(err, "%s", "out of memory");
    for (char *tok = copy ? strtok_r(copy, ",", &save) : NULL; tok && r == PDL_CLI_RUN;
         tok = strtok_r(NULL, ",", &save)) {
        double a, b, step;
        char shown[64]; /* the token as given: parse_range cuts it */
        snprintf(shown, sizeof shown, "%s", tok);
        if (parse_number(tok, &a)) {
            b = a;
            step = 1;
        } else if (!parse_range(tok, &a, &b, &step)) {
            r = usage_error(err,
                            "--sweep: '%s' in '%s' is neither a number nor a range A-B or "
                            "A-B:STEP",
                            shown, arg);
            break;
        } else if (!(step > 0) || b < a) {
            r = usage_error(err,
                            "--sweep: the range '%s' in '%s' is empty (it needs A <= B and a "
                            "positive STEP)",
                            shown, arg);
            break;
        }
        /* A + k STEP up to B, with a relative slack for steps like 0.1 that are not exact. */
        double count = floor((b - a) / step * (1 + 1e-12) + 1e-9) + 1;
        if (count > (double)(PDL_MAX_SWEEP_VALUES - sw->n)) {
            r = usage_error(err, "--sweep: '%s' lists more than %d values", arg,
                            PDL_MAX_SWEEP_VALUES);
            break;
        }
        if (sw->n + (size_t)count > cap) {
            size_t ncap = (sw->n + (size_t)count) * 2;
            double *v = realloc(sw->values, ncap * sizeof *v);
            if (!v) {
                r = usage_error(err, "%s", "out of memory");
                break;
            }
            sw->values = v;
            cap = ncap;
        }
        for (size_t k = 0; k < (size_t)count; k++)
            sw->values[sw->n++] = a + (double)k * step;
    }
    free(copy);
    if (r == PDL_CLI_RUN && sw->n == 0)
        r = usage_error(err, "--sweep: '%s' lists no value", arg);
    if (r != PDL_CLI_RUN) {
        free(name);
        free(sw->values);
        return r;
    }
    memcpy(name, arg, len);
    name[len] = '\0';
    sw->name = name;
    o->nsweeps++;
    return PDL_CLI_RUN;
}

/* Options that only make sense together, checked once all are known. */
static pdl_cli_result check_combination(pdl_options *o, FILE *err)
{
    const char *report = report_names[o->report];
    size_t runs = 1;
    for (size_t k = 0; k < o->nsweeps; k++) {
        for (size_t q = 0; q < o->nsets; q++)
            if (strcmp(o->sets[q].name, o->sweeps[k].name) == 0)
                return usage_error(err, "'%s' is given both with --set and with --sweep",
                                   o->sweeps[k].name);
        if (runs > PDL_MAX_SWEEP_RUNS / o->sweeps[k].n)
            return usage_error(err, "--sweep: more than %d combinations of values",
                               PDL_MAX_SWEEP_RUNS);
        runs *= o->sweeps[k].n;
    }
    if (o->report != PDL_REPORT_SPEEDUP && (o->nquantiles || o->methods))
        return usage_error(err,
                           "--quantiles and --method apply to the speedup report only, not to "
                           "--report %s",
                           report);
    if (o->optimize) {
        size_t k = 0;
        while (k < o->nsweeps && strcmp(o->sweeps[k].name, o->optimize) != 0)
            k++;
        if (k == o->nsweeps)
            return usage_error(err,
                               "--optimize %s: '%s' is not swept; give its candidate values with "
                               "--sweep %s=LIST",
                               o->optimize, o->optimize, o->optimize);
        if (o->report != PDL_REPORT_SPEEDUP)
            return usage_error(err,
                               "--optimize keeps the rows with the smallest mean runtime: it "
                               "works with the speedup report, not with --report %s",
                               report);
    }
    if (o->plot) {
        if (!pdl_plot_format_ok(o->plot))
            return usage_error(err, "--plot: '%s' does not end in .svg or .png", o->plot);
        if (o->report != PDL_REPORT_SPEEDUP)
            return usage_error(err,
                               "--plot draws the speedup curve: it cannot be used with "
                               "--report %s",
                               report);
    }
    if (o->emit == PDL_EMIT_DOT) {
        if (o->nprocs != 1)
            return usage_error(err, "%s",
                               "--emit dot draws the model for one processor count: give "
                               "--procs P");
        if (o->nsweeps || o->plot || o->report_given || o->nmachines > 1)
            return usage_error(err, "%s",
                               "--emit dot draws one model: it cannot be combined with --sweep, "
                               "--plot, --report or several machines");
    }
    return PDL_CLI_RUN;
}

pdl_cli_result pdl_cli_parse(int argc, char **argv, pdl_options *o, FILE *out, FILE *err)
{
    static const struct option longopts[] = {{"check", no_argument, NULL, 'c'},
                                             {"set", required_argument, NULL, 'D'},
                                             {"machine", required_argument, NULL, 'm'},
                                             {"emit", required_argument, NULL, OPT_EMIT},
                                             {"max-procs", required_argument, NULL, 'P'},
                                             {"procs", required_argument, NULL, OPT_PROCS},
                                             {"quantiles", required_argument, NULL, 'q'},
                                             {"precision", required_argument, NULL, OPT_PRECISION},
                                             {"output", required_argument, NULL, 'o'},
                                             {"format", required_argument, NULL, 'f'},
                                             {"method", required_argument, NULL, 'M'},
                                             {"samples", required_argument, NULL, OPT_SAMPLES},
                                             {"seed", required_argument, NULL, OPT_SEED},
                                             {"threads", required_argument, NULL, OPT_THREADS},
                                             {"report", required_argument, NULL, 'r'},
                                             {"sweep", required_argument, NULL, OPT_SWEEP},
                                             {"optimize", required_argument, NULL, OPT_OPTIMIZE},
                                             {"plot", required_argument, NULL, OPT_PLOT},
                                             {"help", no_argument, NULL, 'h'},
                                             {"version", no_argument, NULL, 'V'},
                                             {NULL, 0, NULL, 0}};
    memset(o, 0, sizeof *o);
    o->samples = PDL_DEFAULT_SAMPLES;
    o->seed = PDL_DEFAULT_SEED;
    optind = 0; /* full reinitialisation (glibc), so tests can parse several times */
    opterr = 0;
    int c;
    pdl_cli_result r = PDL_CLI_RUN;
    while (r == PDL_CLI_RUN &&
           (c = getopt_long(argc, argv, ":cD:m:P:q:o:f:M:r:hV", longopts, NULL)) != -1) {
        switch (c) {
        case 'c':
            o->check = 1;
            break;
        case 'D':
            r = add_set(o, optarg, err);
            break;
        case 'm': {
            const char **n = realloc(o->machines, (o->nmachines + 1) * sizeof *n);
            if (!n)
                return usage_error(err, "%s", "out of memory");
            o->machines = n;
            o->machines[o->nmachines++] = optarg;
            break;
        }
        case 'P': {
            uint64_t n;
            if (!parse_count(optarg, 1, PDL_MAX_PROCS, &n))
                return usage_error(err, "--max-procs: '%s' is not a number from 1 to %u", optarg,
                                   PDL_MAX_PROCS);
            char range[48];
            snprintf(range, sizeof range, "1-%llu", (unsigned long long)n);
            r = parse_procs(o, range, err);
            break;
        }
        case OPT_PROCS: /* like --max-procs: the last one given wins */
            r = parse_procs(o, optarg, err);
            break;
        case 'q':
            r = parse_quantiles(o, optarg, err);
            break;
        case OPT_PRECISION: {
            uint64_t n;
            if (!parse_count(optarg, SOL_LEN_MIN, SOL_LEN_MAX, &n))
                return usage_error(err, "--precision: '%s' is not a lattice length from %zu to %zu",
                                   optarg, SOL_LEN_MIN, SOL_LEN_MAX);
            o->precision = (size_t)n;
            break;
        }
        case 'o':
            o->output = optarg;
            break;
        case 'f':
            if (strcmp(optarg, "csv") == 0)
                o->format = PDL_FMT_CSV;
            else if (strcmp(optarg, "json") == 0)
                o->format = PDL_FMT_JSON;
            else if (strcmp(optarg, "table") == 0)
                o->format = PDL_FMT_TABLE;
            else
                return usage_error(
                    err, "--format: unknown format '%s' (expected: csv, json or table)", optarg);
            break;
        case 'M':
            r = parse_methods(o, optarg, err);
            break;
        case OPT_SAMPLES:
            if (!parse_count(optarg, 2, SOL_SIM_SAMPLES_MAX, &o->samples))
                return usage_error(err, "--samples: '%s' is not a number from 2 to %llu", optarg,
                                   (unsigned long long)SOL_SIM_SAMPLES_MAX);
            break;
        case OPT_SEED:
            if (!parse_count(optarg, 0, UINT64_MAX, &o->seed))
                return usage_error(err, "--seed: '%s' is not a non-negative integer", optarg);
            break;
        case OPT_THREADS: {
            uint64_t n;
            if (!parse_count(optarg, 0, 4096, &n))
                return usage_error(err, "--threads: '%s' is not a number from 0 to 4096", optarg);
            o->threads = (int)n;
            break;
        }
        case OPT_EMIT:
            if (strcmp(optarg, "ast") == 0)
                o->emit = PDL_EMIT_AST;
            else if (strcmp(optarg, "dot") == 0)
                o->emit = PDL_EMIT_DOT;
            else
                r = usage_error(err, "--emit: unknown output '%s' (expected: ast or dot)", optarg);
            break;
        case 'r':
            r = parse_report(o, optarg, err);
            break;
        case OPT_SWEEP:
            r = add_sweep(o, optarg, err);
            break;
        case OPT_OPTIMIZE:
            o->optimize = optarg;
            break;
        case OPT_PLOT:
            o->plot = optarg;
            break;
        case 'h':
            fprintf(out, usage_text, SOL_LEN_DEFAULT);
            return PDL_CLI_DONE;
        case 'V':
            fputs("pdlc " PDLC_VERSION "\n", out);
            return PDL_CLI_DONE;
        case ':':
            return usage_error(err, "option '%s' needs a value", argv[optind - 1]);
        default:
            if (optopt)
                return usage_error(err, "unknown option '-%c'", optopt);
            return usage_error(err, "unknown option '%s'", argv[optind - 1]);
        }
    }
    if (r != PDL_CLI_RUN)
        return r;
    if (optind >= argc)
        return usage_error(err, "%s", "no input file");
    if (optind + 1 < argc)
        return usage_error(err, "more than one input file ('%s')", argv[optind + 1]);
    o->input = argv[optind];
    if (!o->procs) {
        char range[32];
        snprintf(range, sizeof range, "1-%d", PDL_DEFAULT_MAX_PROCS);
        if ((r = parse_procs(o, range, err)) != PDL_CLI_RUN)
            return r;
    }
    return check_combination(o, err);
}

void pdl_cli_free(pdl_options *o)
{
    for (size_t k = 0; k < o->nsets; k++)
        free((char *)o->sets[k].name);
    free(o->sets);
    free(o->machines);
    free(o->procs);
    free(o->quantiles);
    for (size_t k = 0; k < o->nsweeps; k++) {
        free((char *)o->sweeps[k].name);
        free(o->sweeps[k].values);
    }
    free(o->sweeps);
    memset(o, 0, sizeof *o);
}
