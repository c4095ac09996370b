/* main: pdlc's driver. Text -> tokens -> tree -> checked program (-> models -> rows), each stage
 * stopping the run with status 1 when it reported errors. The only file that calls exit. */
#include "pdl_check.h"
#include "pdl_cli.h"
#include "pdl_dot.h"
#include "pdl_driver.h"
#include "pdl_gen.h"
#include "pdl_parse.h"
#include "pdl_plot.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct output {
    const pdl_table *t;
    pdl_format fmt;
    const char *program;
};

static int write_table(FILE *f, void *ctx)
{
    const struct output *o = ctx;
    return pdl_table_write(f, o->t, o->fmt, o->program);
}

/* The machines of the run, parsed and checked once into a (NULL entries after errors). */
static const pdl_machine **load_machines(const pdl_options *o, pdl_diag *d, pdl_arena *a)
{
    size_t nm = o->nmachines ? o->nmachines : 1;
    const pdl_machine **machines = pdl_arena_calloc(a, nm, sizeof *machines);
    if (!machines)
        return NULL;
    if (o->nmachines == 0) {
        pdl_machine *ideal = pdl_arena_calloc(a, 1, sizeof *ideal);
        if (!ideal)
            return NULL;
        pdl_machine_ideal(ideal);
        machines[0] = ideal;
    }
    for (size_t k = 0; k < o->nmachines; k++) {
        uint32_t id;
        if (pdl_diag_load_file(d, o->machines[k], (pdl_loc){0, 0, 0}, &id) != 0)
            continue;
        pdl_machine_ast *ast = pdl_parse_machine(d, a, id);
        if (ast && o->emit == PDL_EMIT_AST)
            pdl_ast_dump_machine(stdout, ast);
        /* --emit ast shows the syntax only, for machines as for the program */
        machines[k] = ast && o->emit != PDL_EMIT_AST ? pdl_check_machine(d, a, ast) : NULL;
    }
    return machines;
}

struct text_output {
    const char *text;
    size_t len;
};

static int write_text(FILE *f, void *ctx)
{
    const struct text_output *o = ctx;
    return fwrite(o->text, 1, o->len, f) == o->len ? 0 : -1;
}

/* --emit dot: the model of the one machine and p, drawn in memory first so that a model error
 * is reported as itself and leaves no file behind. */
static int emit_dot(const pdl_options *o, const pdl_checked *checked, pdl_diag *d)
{
    pdl_gen *g = pdl_gen_alloc(checked, d, o->precision);
    char *text = NULL;
    size_t len = 0;
    FILE *mem = g ? open_memstream(&text, &len) : NULL;
    if (!mem) {
        pdl_gen_free(g);
        pdl_error(d, (pdl_loc){0, 0, 0}, "out of memory");
        return 1;
    }
    int rc = pdl_dot_write(g, 0, o->procs[0], o->methods != 0, mem);
    if (fclose(mem) != 0 && rc == 0) {
        pdl_error(d, (pdl_loc){0, 0, 0}, "out of memory");
        rc = -1;
    }
    pdl_gen_free(g);
    if (rc == 0 && !pdl_diag_errors(d)) {
        struct text_output out = {text, len};
        rc = pdl_write_atomic(o->output ? o->output : "-", write_text, &out, stderr);
    }
    free(text);
    return rc == 0 && !pdl_diag_errors(d) ? 0 : 1;
}

/* Says which sweep values a failure happened with. */
static void note_combination(const pdl_options *o, pdl_diag *d, const double *values)
{
    char buf[512];
    size_t used = 0;
    for (size_t k = 0; k < o->nsweeps && used < sizeof buf; k++) {
        char num[64];
        pdl_format_number(num, sizeof num, values[k]);
        used += (size_t)snprintf(buf + used, sizeof buf - used, "%s%s=%s", k ? ", " : "",
                                 o->sweeps[k].name, num);
    }
    pdl_note(d, (pdl_loc){0, 0, 0}, "with %s", buf);
}

/* Parses and checks the program with the --set values and one combination of sweep values, in
 * an arena of its own (every combination is checked afresh: a value may change what is valid). */
static pdl_checked *check_with(const pdl_options *o, pdl_diag *d, pdl_arena *a, uint32_t id,
                               const double *values, const pdl_machine **machines, int *parsed)
{
    size_t nsets = o->nsets + o->nsweeps;
    pdl_setvar *sets = pdl_arena_calloc(a, nsets ? nsets : 1, sizeof *sets);
    if (!sets)
        return NULL;
    for (size_t k = 0; k < o->nsets; k++)
        sets[k] = o->sets[k];
    for (size_t k = 0; k < o->nsweeps; k++)
        sets[o->nsets + k] = (pdl_setvar){o->sweeps[k].name, values[k], 1};
    pdl_program *prog = pdl_parse_program(d, a, id);
    if (!prog || pdl_diag_errors(d)) {
        *parsed = 0;
        return NULL;
    }
    *parsed = 1;
    if (o->emit == PDL_EMIT_AST) {
        pdl_ast_dump_program(stdout, prog);
        return NULL;
    }
    return pdl_check_program(d, a, prog, sets, nsets, machines, o->nmachines ? o->nmachines : 1);
}

static int run(const pdl_options *o, pdl_diag *d, pdl_arena *a)
{
    if (o->plot && !o->check && !pdl_plot_available(stderr))
        return 1; /* before any work: the plot could not be drawn */
    const pdl_machine **machines = load_machines(o, d, a);
    if (!machines)
        return 1;
    uint32_t id;
    if (pdl_diag_load_file(d, o->input, (pdl_loc){0, 0, 0}, &id) != 0)
        return 1;
    if (pdl_diag_errors(d))
        return 1;
    size_t runs = 1;
    for (size_t k = 0; k < o->nsweeps; k++)
        runs *= o->sweeps[k].n;
    double values[PDL_MAX_SWEEPS];
    const char *lead[PDL_MAX_SWEEPS];
    for (size_t k = 0; k < o->nsweeps; k++)
        lead[k] = o->sweeps[k].name;
    pdl_run_opts ro = {.procs = o->procs,
                       .nprocs = o->nprocs,
                       .quantiles = o->quantiles,
                       .nquantiles = o->nquantiles,
                       .precision = o->precision,
                       .methods = o->methods,
                       .samples = o->samples,
                       .seed = o->seed,
                       .threads = o->threads,
                       .progress = isatty(fileno(stderr)),
                       .report = o->report,
                       .with_ap = o->report_given || o->plot != NULL};
    pdl_runner *runner = NULL;
    char *progname = NULL; /* outlives the arenas of the combinations */
    int status = 0;
    for (size_t run = 0; run < runs && status == 0; run++) {
        /* The first sweep varies slowest, like nested loops in the order given. */
        size_t rest = run;
        for (size_t k = o->nsweeps; k-- > 0;) {
            values[k] = o->sweeps[k].values[rest % o->sweeps[k].n];
            rest /= o->sweeps[k].n;
        }
        /* Warnings about the program are the same for every combination: say them once. */
        pdl_diag_set_quiet_warnings(d, run > 0);
        pdl_arena *ra = pdl_arena_alloc();
        int parsed = 0;
        pdl_checked *checked = ra ? check_with(o, d, ra, id, values, machines, &parsed) : NULL;
        if (!checked) {
            pdl_arena_free(ra);
            if (!ra)
                fputs("pdlc: error: out of memory\n", stderr);
            else if (o->emit == PDL_EMIT_AST && !pdl_diag_errors(d))
                break; /* printed: once is enough */
            else if (o->nsweeps && parsed)
                note_combination(o, d, values); /* the values may be what is wrong */
            status = 1;
            break;
        }
        if (!progname && !(progname = strdup(checked->prog->name))) {
            fputs("pdlc: error: out of memory\n", stderr);
            status = 1;
        }
        if (status != 0 || o->check) {
            pdl_arena_free(ra);
            continue;
        }
        if (o->emit == PDL_EMIT_DOT) {
            status = emit_dot(o, checked, d);
            pdl_arena_free(ra);
            break;
        }
        if (!runner)
            runner = pdl_runner_alloc(&ro, lead, o->nsweeps, o->nmachines ? o->nmachines : 1);
        if (!runner) {
            fputs("pdlc: error: out of memory\n", stderr);
            status = 1;
        } else if (pdl_runner_add(runner, checked, d, values) != 0) {
            if (o->nsweeps)
                note_combination(o, d, values);
            status = 1;
        }
        pdl_arena_free(ra);
    }
    pdl_diag_set_quiet_warnings(d, 0);
    if (status == 0 && runner) {
        if (o->optimize && pdl_runner_optimize(runner, o->optimize) != 0) {
            fputs("pdlc: error: out of memory\n", stderr);
            status = 1;
        }
        struct output out = {pdl_runner_table(runner), o->format, progname};
        if (status == 0 &&
            pdl_write_atomic(o->output ? o->output : "-", write_table, &out, stderr) != 0)
            status = 1;
        if (status == 0 && o->plot &&
            pdl_plot_write(pdl_runner_table(runner), o->plot, progname, stderr) != 0)
            status = 1;
    }
    pdl_runner_free(runner);
    free(progname);
    return status;
}

int main(int argc, char **argv)
{
    pdl_options o;
    pdl_cli_result r = pdl_cli_parse(argc, argv, &o, stdout, stderr);
    if (r != PDL_CLI_RUN) {
        pdl_cli_free(&o);
        return r == PDL_CLI_DONE ? 0 : 2;
    }
    pdl_diag *d = pdl_diag_alloc(stderr);
    pdl_arena *a = pdl_arena_alloc();
    int status = 1;
    if (d && a)
        status = run(&o, d, a);
    else
        fputs("pdlc: error: out of memory\n", stderr);
    if (status == 0 && d && pdl_diag_errors(d))
        status = 1;
    pdl_arena_free(a);
    pdl_diag_free(d);
    pdl_cli_free(&o);
    if (fflush(stdout) != 0 || ferror(stdout)) {
        perror("pdlc: error: writing standard output");
        return 1;
    }
    return status;
}
