/* fuzz_pdl: the fuzzing entry point. Arbitrary bytes go through everything pdlc does with a
 * program: parsing (as a program and as a machine file), checking, the scaled model for p = 1..3,
 * the generic model's bounds and Markov chain for p = 2, a DOT drawing and one of the analyses.
 * Inputs must never crash, hang or trip a sanitizer; diagnostics go to /dev/null. Built with
 * libFuzzer (PDLC_FUZZ=ON, clang) or linked with replay.c to run a saved corpus in CI. */
#include "pdl_analysis.h"
#include "pdl_check.h"
#include "pdl_dot.h"
#include "pdl_gen.h"
#include "pdl_generic.h"
#include "pdl_parse.h"

#include <stdint.h>
#include <stdio.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static size_t add_row(void *arg)
{
    return pdl_table_add_row(arg);
}

/* The drawing and an analysis chosen by the input's size (each input always takes the same). */
static void reports(pdl_gen *g, size_t size, FILE *null)
{
    (void)pdl_dot_write(g, 0, 2, (int)((size >> 1) & 1), null);
    pdl_report_kind k = (pdl_report_kind)(1 + (size >> 2) % 4);
    const char *const *cols = pdl_report_columns(k);
    size_t n = 0;
    while (cols[n])
        n++;
    pdl_table *t = pdl_table_alloc(cols, n);
    if (!t)
        return;
    static const uint64_t procs[2] = {1, 2};
    pdl_rows rows = {t, 0, add_row, t};
    (void)pdl_analysis_rows(g, k, 0, procs, 2, &rows);
    pdl_table_free(t);
}

static void model(const pdl_checked *c, pdl_diag *d, size_t size, FILE *null)
{
    /* A small lattice keeps each input fast; both evaluation modes get exercised. */
    pdl_gen *g = pdl_gen_alloc(c, d, 256);
    if (!g)
        return;
    pdl_gen_set_mean_only(g, (int)(size & 1));
    pdl_gen_set_graph_limit(g, 60); /* instrumented bound searches are slow */
    int ok = 1;
    for (uint64_t p = 1; p <= 3 && ok; p++) {
        sol_dist *t;
        ok = pdl_gen_program(g, 0, p, &t) == 0;
        if (ok)
            sol_dist_free(t);
    }
    /* As in pdlc, the generic model only after the scaled one succeeded. */
    pdl_generic_opts o = {.want = PDL_WANT_BOUNDS | PDL_WANT_MARKOV | PDL_WANT_CPM,
                          .samples = 64,
                          .seed = 1,
                          .threads = 1,
                          .markov_states = 2000,
                          /* the exact chain inside the bounds: seconds of instrumented code */
                          .exact_states = 2000};
    pdl_generic_result r;
    if (ok && pdl_generic_program(g, 0, 2, &o, &r) == 0)
        reports(g, size, null);
    pdl_gen_free(g);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static FILE *null;
    if (!null) {
        null = fopen("/dev/null", "w");
        /* NUMERICAL('/dev/stdin') must not wait for input */
        if (!freopen("/dev/null", "r", stdin))
            return 0;
    }
    pdl_diag *d = pdl_diag_alloc(null);
    pdl_arena *a = pdl_arena_alloc();
    uint32_t prog_id, mach_id;
    if (d && a && pdl_diag_add_source(d, "fuzz.pdl", (const char *)data, size, &prog_id) == 0 &&
        pdl_diag_add_source(d, "fuzz.mdl", (const char *)data, size, &mach_id) == 0) {
        pdl_machine_ast *mast = pdl_parse_machine(d, a, mach_id);
        if (mast)
            (void)pdl_check_machine(d, a, mast);
        size_t before = pdl_diag_errors(d);
        pdl_program *prog = pdl_parse_program(d, a, prog_id);
        if (prog && pdl_diag_errors(d) == before) {
            pdl_machine ideal;
            pdl_machine_ideal(&ideal);
            const pdl_machine *machines[1] = {&ideal};
            pdl_setvar sets[2] = {{"height", 4, 0}, {"width", 3, 0}};
            pdl_checked *c = pdl_check_program(d, a, prog, sets, 2, machines, 1);
            if (c)
                model(c, d, size, null);
        }
    }
    pdl_arena_free(a);
    pdl_diag_free(d);
    return 0;
}
