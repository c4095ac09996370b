/* pdl_driver: loops over machines and processor counts. T(1) is always computed, since every
 * speedup is relative to it; rows are collected first and written only when all succeeded. */
#include "pdl_driver.h"

#include "pdl_gen.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

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

/* Solver notes become warnings, each text once. */
static void report_notes(pdl_diag *d, sol_ctx *sc)
{
    size_t n = sol_ctx_note_count(sc);
    for (size_t k = 0; k < n && k < SOL_NOTES_MAX; k++) {
        const char *note = sol_ctx_note(sc, k);
        int seen = 0;
        for (size_t j = 0; j < k && !seen; j++)
            seen = strcmp(sol_ctx_note(sc, j), note) == 0;
        if (!seen)
            pdl_warning(d, (pdl_loc){0, 0, 0}, "%s", note);
    }
}

pdl_table *pdl_run(const pdl_checked *prog, pdl_diag *d, const pdl_run_opts *o)
{
    int several = prog->nmachines > 1;
    size_t ncols = (size_t)several + 4 + o->nquantiles;
    char **names = calloc(ncols, sizeof *names);
    char(*qnames)[32] = calloc(o->nquantiles ? o->nquantiles : 1, sizeof *qnames);
    pdl_gen *g = pdl_gen_alloc(prog, d, o->precision);
    pdl_table *t = NULL;
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
        }
    }
    report_notes(d, pdl_gen_solver(g));
    goto done;
fail:
    pdl_table_free(t);
    t = NULL;
done:
    pdl_gen_free(g);
    free(names);
    free(qnames);
    return t;
}
