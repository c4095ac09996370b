/* pdl_driver: loops over machines and processor counts. T(1) is always computed, since every
 * speedup is relative to it; rows are collected first and written only when all succeeded. */
#include "pdl_driver.h"

#include "pdl_gen.h"
#include "pdl_generic.h"

#include "sol_markov.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

void pdl_quantile_name(char *buf, size_t size, double u)
{
    /* The percentage in the fewest decimals that say it: 50, 95, 99.9, 2.5. */
    char num[40];
    double pct = 100 * u;
    for (int dec = 0; dec <= 12; dec++) {
        snprintf(num, sizeof num, "%.*f", dec, pct);
        if (fabs(strtod(num, NULL) - pct) <= 1e-9 * pct)
            break;
    }
    snprintf(buf, size, "q%s", num);
}

/* Solver notes about the model (truncated tails, coarse lattices) become warnings, each text
 * once per run; `printed` remembers the texts already shown. */
typedef struct notes {
    char **text;
    size_t n;
} notes;

static void report_notes(pdl_diag *d, sol_ctx *sc, notes *printed)
{
    size_t n = sol_ctx_note_count(sc);
    for (size_t k = 0; k < n && k < SOL_NOTES_MAX; k++) {
        const char *note = sol_ctx_note(sc, k);
        int seen = 0;
        for (size_t j = 0; j < printed->n && !seen; j++)
            seen = strcmp(printed->text[j], note) == 0;
        if (seen)
            continue;
        char **t = realloc(printed->text, (printed->n + 1) * sizeof *t);
        char *copy = strdup(note);
        if (t)
            printed->text = t;
        if (!t || !copy) {
            free(copy);
            continue;
        }
        printed->text[printed->n++] = copy;
        pdl_warning(d, (pdl_loc){0, 0, 0}, "%s", note);
        /* the solver speaks of lattices; the user sets them with an option */
        if (strstr(note, "lattice length"))
            pdl_note(d, (pdl_loc){0, 0, 0},
                     "--precision N sets the lattice length; "
                     "--method simulate does not use the lattice");
    }
    sol_ctx_reset_notes(sc);
}

/* A progress line on the terminal, shown only once the work has run a while. */
typedef struct progress {
    struct timespec start;
    uint64_t p;
    int shown;
    pdl_diag *d;
} progress;

/* Seconds since pr->start. */
static double elapsed(const progress *pr)
{
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (double)(now.tv_sec - pr->start.tv_sec) +
           1e-9 * (double)(now.tv_nsec - pr->start.tv_nsec);
}

static void show_progress(void *arg, uint64_t done, uint64_t total)
{
    progress *pr = arg;
    if (!pr->shown && elapsed(pr) < 1)
        return;
    pr->shown = 1;
    pdl_diag_progress(pr->d, "pdlc: simulating p = %llu: %3.0f%%", (unsigned long long)pr->p,
                      100.0 * (double)done / (double)(total ? total : 1));
}

struct pdl_runner {
    const pdl_run_opts *o;
    pdl_table *t;
    size_t nlead;
    int several; /* a machine column */
    size_t col0; /* first column of the report's own */
    notes printed;
    size_t ncols;
    char **names; /* the columns, for a table rebuilt by --optimize */
    /* the row being started (for pdl_rows.add) */
    const double *lead;
    const char *machine;
};

pdl_runner *pdl_runner_alloc(const pdl_run_opts *o, const char *const *lead, size_t nlead,
                             size_t nmachines)
{
    pdl_runner *r = calloc(1, sizeof *r);
    if (!r)
        return NULL;
    r->o = o;
    r->nlead = nlead;
    r->several = nmachines > 1;
    r->col0 = nlead + (size_t)r->several;
    int bounds = (o->methods & PDL_WANT_BOUNDS) != 0, sim = (o->methods & PDL_WANT_SIM) != 0,
        markov = (o->methods & PDL_WANT_MARKOV) != 0;
    const char *const *own = pdl_report_columns(o->report);
    size_t nown = 0;
    while (own[nown])
        nown++;
    if (o->report == PDL_REPORT_SPEEDUP)
        nown += o->nquantiles + 5 * (size_t)bounds + 2 * (size_t)sim + (size_t)markov +
                (size_t)o->with_ap;
    size_t ncols = r->col0 + nown, c = 0;
    r->ncols = ncols;
    const char **names = calloc(ncols, sizeof *names);
    char(*qnames)[48] = calloc(o->nquantiles ? o->nquantiles : 1, sizeof *qnames);
    if (!names || !qnames) {
        free(names);
        free(qnames);
        free(r);
        return NULL;
    }
    for (size_t k = 0; k < nlead; k++)
        names[c++] = lead[k];
    if (r->several)
        names[c++] = "machine";
    for (size_t k = 0; own[k]; k++)
        names[c++] = own[k];
    if (o->report == PDL_REPORT_SPEEDUP) {
        for (size_t k = 0; k < o->nquantiles; k++) {
            pdl_quantile_name(qnames[k], sizeof qnames[k], o->quantiles[k]);
            names[c++] = qnames[k];
        }
        if (bounds) {
            names[c++] = "lower";
            names[c++] = "upper";
            names[c++] = "lower_method";
            names[c++] = "upper_method";
            names[c++] = "exact";
        }
        if (sim) {
            names[c++] = "sim_mean";
            names[c++] = "sim_ci95";
        }
        if (markov)
            names[c++] = "markov_mean";
        if (o->with_ap)
            names[c++] = "avg_parallelism";
    }
    r->t = pdl_table_alloc(names, ncols);
    /* The table copies the names; keep a copy of ours for pdl_runner_optimize. */
    r->names = calloc(ncols, sizeof *r->names);
    for (size_t k = 0; r->names && k < ncols; k++)
        if (!(r->names[k] = strdup(names[k]))) {
            pdl_runner_free(r);
            r = NULL;
            break;
        }
    free(names);
    free(qnames);
    if (r && (!r->t || !r->names)) {
        pdl_runner_free(r);
        return NULL;
    }
    return r;
}

void pdl_runner_free(pdl_runner *r)
{
    if (!r)
        return;
    for (size_t k = 0; k < r->printed.n; k++)
        free(r->printed.text[k]);
    free(r->printed.text);
    for (size_t k = 0; r->names && k < r->ncols; k++)
        free(r->names[k]);
    free(r->names);
    pdl_table_free(r->t);
    free(r);
}

const pdl_table *pdl_runner_table(const pdl_runner *r)
{
    return r->t;
}

/* pdl_rows.add: a row with the sweep values and the machine filled in. */
static size_t add_row(void *arg)
{
    pdl_runner *r = arg;
    size_t row = pdl_table_add_row(r->t);
    if (row == (size_t)-1)
        return row;
    for (size_t k = 0; k < r->nlead; k++)
        pdl_table_set_num(r->t, row, k, r->lead[k]);
    if (r->several && pdl_table_set_str(r->t, row, r->nlead, r->machine) != 0)
        return (size_t)-1;
    return row;
}

/* The generic-model columns of one speedup row, from column col on. */
static int generic_cells(pdl_runner *r, pdl_gen *g, size_t m, uint64_t p, double mean, size_t row,
                         size_t col)
{
    const pdl_run_opts *o = r->o;
    int bounds = (o->methods & PDL_WANT_BOUNDS) != 0;
    progress pr = {{0, 0}, p, 0, pdl_gen_diag(g)};
    clock_gettime(CLOCK_MONOTONIC, &pr.start);
    pdl_generic_opts go = {.want = o->methods,
                           .samples = o->samples,
                           .seed = o->seed,
                           .threads = o->threads,
                           .markov_states = SOL_MARKOV_STATES_DEFAULT,
                           .progress = o->progress ? show_progress : NULL,
                           .progress_arg = &pr};
    pdl_generic_result gr;
    int rc = pdl_generic_program(g, m, p, &go, &gr);
    pdl_diag_progress_end(pr.d);
    /* The bounding methods note which methods they skipped: not the user's concern, the result
       says which gave the bounds. */
    sol_ctx_reset_notes(pdl_gen_solver(g));
    if (rc != 0)
        return -1;
    pdl_table *t = r->t;
    if (bounds) {
        /* The scaled model only adds barriers: its mean bounds the generic model's mean from
           above too, and may be the tighter bound. */
        if (mean < gr.upper && !gr.exact) {
            gr.upper = mean;
            gr.upper_method = "scaled-model";
        }
        pdl_table_set_num(t, row, col++, gr.lower);
        pdl_table_set_num(t, row, col++, gr.upper);
        pdl_table_set_str(t, row, col++, gr.lower_method);
        pdl_table_set_str(t, row, col++, gr.upper_method);
        pdl_table_set_num(t, row, col++, gr.exact);
    }
    if (o->methods & PDL_WANT_SIM) {
        pdl_table_set_num(t, row, col++, gr.sim_mean);
        pdl_table_set_num(t, row, col++, gr.sim_ci95);
    }
    if (o->methods & PDL_WANT_MARKOV)
        pdl_table_set_num(t, row, col++, gr.markov_mean);
    return 0;
}

/* A long sweep of p shows, on a terminal and after two seconds, the row under way (at most ten
 * updates a second): its only sign of life. */
static void show_row(const pdl_run_opts *o, progress *pr, double *last, size_t k)
{
    if (!o->progress)
        return;
    double t = elapsed(pr);
    if (t < 2 || t - *last < 0.1)
        return;
    *last = t;
    pdl_diag_progress(pr->d, "pdlc: p = %llu (%zu of %zu)", (unsigned long long)o->procs[k], k + 1,
                      o->nprocs);
}

/* The speedup rows of one machine for every p, given T(1)'s mean t1 and the average
 * parallelism ap. */
static int procs_rows(pdl_runner *r, pdl_gen *g, size_t m, pdl_diag *d, double t1, double ap,
                      progress *rows)
{
    const pdl_run_opts *o = r->o;
    double last = 0;
    for (size_t k = 0; k < o->nprocs; k++) {
        uint64_t p = o->procs[k];
        show_row(o, rows, &last, k);
        sol_dist *T;
        if (pdl_gen_program(g, m, p, &T) != 0)
            return -1;
        double mean = sol_dist_mean(T);
        if (!isfinite(mean) || !isfinite(t1)) {
            pdl_error(d, (pdl_loc){0, 0, 0}, "the mean runtime for p = %llu is not a finite number",
                      (unsigned long long)p);
            sol_dist_free(T);
            return -1;
        }
        /* A program that takes no time at all has speedup 1 by convention. */
        double speedup = mean > 0 ? t1 / mean : 1.0;
        size_t row = add_row(r);
        if (row == (size_t)-1) {
            sol_dist_free(T);
            return pdl_gen_nomem(g);
        }
        size_t col = r->col0;
        pdl_table *t = r->t;
        pdl_table_set_num(t, row, col++, (double)p);
        pdl_table_set_num(t, row, col++, mean);
        pdl_table_set_num(t, row, col++, speedup);
        pdl_table_set_num(t, row, col++, speedup / (double)p);
        for (size_t q = 0; q < o->nquantiles; q++)
            pdl_table_set_num(t, row, col++, sol_dist_quantile(T, o->quantiles[q]));
        sol_dist_free(T);
        report_notes(d, pdl_gen_solver(g), &r->printed);
        if (o->methods) {
            if (generic_cells(r, g, m, p, mean, row, col) != 0)
                return -1;
            col += 5 * (size_t)((o->methods & PDL_WANT_BOUNDS) != 0) +
                   2 * (size_t)((o->methods & PDL_WANT_SIM) != 0) +
                   (size_t)((o->methods & PDL_WANT_MARKOV) != 0);
        }
        if (o->with_ap && !isnan(ap))
            pdl_table_set_num(t, row, col, ap); /* left empty when it cannot be had */
        col += (size_t)o->with_ap;
    }
    return 0;
}

/* The speedup report of one machine. */
static int speedup_rows(pdl_runner *r, pdl_gen *g, size_t m, pdl_diag *d)
{
    const pdl_run_opts *o = r->o;
    double ap = o->with_ap ? pdl_average_parallelism_or_nan(g, m) : NAN;
    sol_dist *one;
    if (pdl_gen_program(g, m, 1, &one) != 0)
        return -1;
    double t1 = sol_dist_mean(one);
    sol_dist_free(one);
    progress rows = {{0, 0}, 0, 0, d};
    clock_gettime(CLOCK_MONOTONIC, &rows.start);
    int rc = procs_rows(r, g, m, d, t1, ap, &rows);
    pdl_diag_progress_end(d); /* gone before the results */
    return rc;
}

int pdl_runner_add(pdl_runner *r, const pdl_checked *prog, pdl_diag *d, const double *lead_values)
{
    const pdl_run_opts *o = r->o;
    pdl_gen *g = pdl_gen_alloc(prog, d, o->precision);
    if (!g) {
        pdl_error(d, (pdl_loc){0, 0, 0}, "out of memory");
        return -1;
    }
    pdl_gen_set_mean_only(g, o->nquantiles == 0);
    r->lead = lead_values;
    int rc = 0;
    for (size_t m = 0; m < prog->nmachines && rc == 0; m++) {
        r->machine = prog->machines[m]->name;
        if (o->report == PDL_REPORT_SPEEDUP) {
            rc = speedup_rows(r, g, m, d);
        } else {
            pdl_rows rows = {r->t, r->col0, add_row, r};
            rc = pdl_analysis_rows(g, o->report, m, o->procs, o->nprocs, &rows);
            report_notes(d, pdl_gen_solver(g), &r->printed);
        }
    }
    pdl_gen_free(g);
    return rc;
}

/* Whether rows a and b agree in every column up to procs but column skip (as text: the
 * leading columns hold sweep values and machine names). */
static int same_group(const pdl_table *t, size_t a, size_t b, size_t procs, size_t skip)
{
    for (size_t c = 0; c <= procs; c++) {
        char x[128], y[128];
        if (c == skip)
            continue;
        pdl_table_cell_text(t, a, c, x, sizeof x);
        pdl_table_cell_text(t, b, c, y, sizeof y);
        if (strcmp(x, y) != 0)
            return 0;
    }
    return 1;
}

int pdl_runner_optimize(pdl_runner *r, const char *name)
{
    const pdl_table *t = r->t;
    size_t ncols = pdl_table_cols(t), nrows = pdl_table_rows(t);
    size_t opt = pdl_table_col(t, name), procs = pdl_table_col(t, "procs"),
           mean = pdl_table_col(t, "mean");
    if (opt == (size_t)-1 || procs == (size_t)-1 || mean == (size_t)-1)
        return -1;
    size_t *best = malloc((nrows ? nrows : 1) * sizeof *best);
    pdl_table *out = pdl_table_alloc((const char *const *)r->names, ncols);
    if (!best || !out) {
        free(best);
        pdl_table_free(out);
        return -1;
    }
    /* Groups by a scan over the groups seen: O(rows x groups x columns), small next to solving
       the models that made the rows. */
    size_t ngroups = 0;
    for (size_t row = 0; row < nrows; row++) {
        size_t g = 0;
        while (g < ngroups && !same_group(t, best[g], row, procs, opt))
            g++;
        if (g == ngroups)
            best[ngroups++] = row;
        else if (pdl_table_num(t, row, mean) < pdl_table_num(t, best[g], mean))
            best[g] = row;
    }
    int rc = 0;
    for (size_t g = 0; g < ngroups && rc == 0; g++) {
        size_t row = pdl_table_add_row(out);
        if (row == (size_t)-1) {
            rc = -1;
            break;
        }
        for (size_t c = 0; c < ncols && rc == 0; c++) {
            char buf[256];
            if (pdl_table_is_num(t, best[g], c)) {
                pdl_table_set_num(out, row, c, pdl_table_num(t, best[g], c));
            } else {
                pdl_table_cell_text(t, best[g], c, buf, sizeof buf);
                if (buf[0])
                    rc = pdl_table_set_str(out, row, c, buf);
            }
        }
    }
    free(best);
    if (rc != 0) {
        pdl_table_free(out);
        return -1;
    }
    pdl_table_free(r->t);
    r->t = out;
    return 0;
}
