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
    }
    sol_ctx_reset_notes(sc);
}

/* A progress line on stderr, shown only once a simulation has run a second. */
typedef struct progress {
    struct timespec start;
    uint64_t p;
    int shown;
} progress;

static void show_progress(void *arg, uint64_t done, uint64_t total)
{
    progress *pr = arg;
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    double t =
        (double)(now.tv_sec - pr->start.tv_sec) + 1e-9 * (double)(now.tv_nsec - pr->start.tv_nsec);
    if (t < 1 && !pr->shown)
        return;
    pr->shown = 1;
    fprintf(stderr, "\rpdlc: simulating p = %llu: %3.0f%%", (unsigned long long)pr->p,
            100.0 * (double)done / (double)(total ? total : 1));
    fflush(stderr);
}

pdl_table *pdl_run(const pdl_checked *prog, pdl_diag *d, const pdl_run_opts *o)
{
    int several = prog->nmachines > 1;
    int bounds = (o->methods & PDL_WANT_BOUNDS) != 0, sim = (o->methods & PDL_WANT_SIM) != 0,
        markov = (o->methods & PDL_WANT_MARKOV) != 0;
    size_t ncols =
        (size_t)several + 4 + o->nquantiles + 5 * (size_t)bounds + 2 * (size_t)sim + (size_t)markov;
    char **names = calloc(ncols, sizeof *names);
    char(*qnames)[32] = calloc(o->nquantiles ? o->nquantiles : 1, sizeof *qnames);
    pdl_gen *g = pdl_gen_alloc(prog, d, o->precision);
    pdl_table *t = NULL;
    notes printed = {NULL, 0};
    if (!names || !qnames || !g) {
        pdl_error(d, (pdl_loc){0, 0, 0}, "out of memory");
        goto done;
    }
    size_t c = 0;
    if (several)
        names[c++] = "machine";
    names[c++] = "procs";
    names[c++] = "mean";
    names[c++] = "speedup";
    names[c++] = "efficiency";
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
    pdl_gen_set_mean_only(g, o->nquantiles == 0);
    t = pdl_table_alloc((const char *const *)names, ncols);
    if (!t) {
        pdl_error(d, (pdl_loc){0, 0, 0}, "out of memory");
        goto done;
    }
    for (size_t m = 0; m < prog->nmachines; m++) {
        sol_dist *one;
        if (pdl_gen_program(g, m, 1, &one) != 0)
            goto fail;
        double t1 = sol_dist_mean(one);
        sol_dist_free(one);
        for (size_t k = 0; k < o->nprocs; k++) {
            uint64_t p = o->procs[k];
            sol_dist *T;
            if (pdl_gen_program(g, m, p, &T) != 0)
                goto fail;
            double mean = sol_dist_mean(T);
            if (!isfinite(mean) || !isfinite(t1)) {
                pdl_error(d, (pdl_loc){0, 0, 0},
                          "the mean runtime for p = %llu is not a finite number",
                          (unsigned long long)p);
                sol_dist_free(T);
                goto fail;
            }
            /* A program that takes no time at all has speedup 1 by convention. */
            double speedup = mean > 0 ? t1 / mean : 1.0;
            size_t r = pdl_table_add_row(t);
            if (r == (size_t)-1) {
                sol_dist_free(T);
                pdl_error(d, (pdl_loc){0, 0, 0}, "out of memory");
                goto fail;
            }
            size_t col = 0;
            if (several)
                pdl_table_set_str(t, r, col++, prog->machines[m]->name);
            pdl_table_set_num(t, r, col++, (double)p);
            pdl_table_set_num(t, r, col++, mean);
            pdl_table_set_num(t, r, col++, speedup);
            pdl_table_set_num(t, r, col++, speedup / (double)p);
            for (size_t q = 0; q < o->nquantiles; q++)
                pdl_table_set_num(t, r, col++, sol_dist_quantile(T, o->quantiles[q]));
            sol_dist_free(T);
            report_notes(d, pdl_gen_solver(g), &printed);
            if (bounds || sim || markov) {
                progress pr = {{0, 0}, p, 0};
                clock_gettime(CLOCK_MONOTONIC, &pr.start);
                pdl_generic_opts go = {o->methods,
                                       o->samples,
                                       o->seed,
                                       o->threads,
                                       SOL_MARKOV_STATES_DEFAULT,
                                       o->progress ? show_progress : NULL,
                                       &pr};
                pdl_generic_result gr;
                int rc = pdl_generic_program(g, m, p, &go, &gr);
                if (pr.shown)
                    fputs("\r\033[K", stderr);
                /* The bounding methods note which methods they skipped: not the user's concern,
                   the result says which gave the bounds. */
                sol_ctx_reset_notes(pdl_gen_solver(g));
                if (rc != 0)
                    goto fail;
                if (bounds) {
                    /* The scaled model only adds barriers: its mean bounds the generic model's
                       mean from above too, and may be the tighter bound. */
                    if (mean < gr.upper && !gr.exact) {
                        gr.upper = mean;
                        gr.upper_method = "scaled-model";
                    }
                    pdl_table_set_num(t, r, col++, gr.lower);
                    pdl_table_set_num(t, r, col++, gr.upper);
                    pdl_table_set_str(t, r, col++, gr.lower_method);
                    pdl_table_set_str(t, r, col++, gr.upper_method);
                    pdl_table_set_num(t, r, col++, gr.exact);
                }
                if (sim) {
                    pdl_table_set_num(t, r, col++, gr.sim_mean);
                    pdl_table_set_num(t, r, col++, gr.sim_ci95);
                }
                if (markov)
                    pdl_table_set_num(t, r, col++, gr.markov_mean);
            }
        }
    }
    goto done;
fail:
    pdl_table_free(t);
    t = NULL;
done:
    for (size_t k = 0; k < printed.n; k++)
        free(printed.text[k]);
    free(printed.text);
    pdl_gen_free(g);
    free(names);
    free(qnames);
    return t;
}
