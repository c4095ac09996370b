/* main: pdlc's driver. Text -> tokens -> tree -> checked program (-> models -> rows), each stage
 * stopping the run with status 1 when it reported errors. The only file that calls exit. */
#include "pdl_check.h"
#include "pdl_cli.h"
#include "pdl_driver.h"
#include "pdl_parse.h"

#include <stdio.h>
#include <stdlib.h>
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

static int run(const pdl_options *o, pdl_diag *d, pdl_arena *a)
{
    size_t nm = o->nmachines ? o->nmachines : 1;
    const pdl_machine **machines = pdl_arena_calloc(a, nm, sizeof *machines);
    if (!machines)
        return 1;
    if (o->nmachines == 0) {
        pdl_machine *ideal = pdl_arena_calloc(a, 1, sizeof *ideal);
        if (!ideal)
            return 1;
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
        machines[k] = ast ? pdl_check_machine(d, a, ast) : NULL;
    }
    uint32_t id;
    if (pdl_diag_load_file(d, o->input, (pdl_loc){0, 0, 0}, &id) != 0)
        return 1;
    pdl_program *prog = pdl_parse_program(d, a, id);
    if (!prog || pdl_diag_errors(d))
        return 1;
    if (o->emit == PDL_EMIT_AST) {
        pdl_ast_dump_program(stdout, prog);
        return 0;
    }
    pdl_checked *checked = pdl_check_program(d, a, prog, o->sets, o->nsets, machines, nm);
    if (!checked)
        return 1;
    if (o->check)
        return 0;
    pdl_run_opts ro = {o->procs,   o->nprocs,  o->quantiles, o->nquantiles, o->precision,
                       o->methods, o->samples, o->seed,      o->threads,    isatty(fileno(stderr))};
    pdl_table *t = pdl_run(checked, d, &ro);
    if (!t)
        return 1;
    struct output out = {t, o->format, prog->name};
    int rc = pdl_write_atomic(o->output ? o->output : "-", write_table, &out, stderr);
    pdl_table_free(t);
    return rc == 0 ? 0 : 1;
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
