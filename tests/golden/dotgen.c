/* dotgen: drives pdl_dot_write from the test suite the way pdlc's --emit dot does: parses and
 * checks one program (and machine files), then writes the DOT graph for one processor count.
 *   usage: dotgen [--generic] [--machine FILE.mdl]... [--use K] [--set NAME=VALUE]... P FILE.pdl
 * --use K draws the model on the K-th machine given (0-based; default 0). Exit status 0 when the
 * graph was written, 1 after errors (on stderr), 2 on a usage error. */
#include "pdl_check.h"
#include "pdl_dot.h"
#include "pdl_parse.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { MAX_FILES = 8, MAX_SETS = 32 };

typedef struct args {
    int generic;
    const char *machines[MAX_FILES];
    size_t nmachines, use;
    pdl_setvar sets[MAX_SETS];
    size_t nsets;
    unsigned long long p;
    const char *input;
} args;

static int usage(void)
{
    fputs("usage: dotgen [--generic] [--machine FILE.mdl]... [--use K] [--set NAME=VALUE]... P "
          "FILE.pdl\n",
          stderr);
    return 2;
}

/* The options the test script passes; anything else is a usage error. */
static int parse_args(int argc, char **argv, args *a, char *setbuf, size_t setlen)
{
    memset(a, 0, sizeof *a);
    int k = 1;
    for (; k < argc && strncmp(argv[k], "--", 2) == 0; k++) {
        if (strcmp(argv[k], "--generic") == 0) {
            a->generic = 1;
        } else if (strcmp(argv[k], "--machine") == 0 && k + 1 < argc && a->nmachines < MAX_FILES) {
            a->machines[a->nmachines++] = argv[++k];
        } else if (strcmp(argv[k], "--use") == 0 && k + 1 < argc) {
            a->use = strtoul(argv[++k], NULL, 10);
        } else if (strcmp(argv[k], "--set") == 0 && k + 1 < argc && a->nsets < MAX_SETS) {
            /* NAME=VALUE: the name is copied out of argv into setbuf */
            const char *arg = argv[++k], *eq = strchr(arg, '=');
            size_t n = eq ? (size_t)(eq - arg) : 0;
            if (!eq || n == 0 || n + 1 > setlen)
                return -1;
            memcpy(setbuf, arg, n);
            setbuf[n] = '\0';
            a->sets[a->nsets].name = setbuf;
            a->sets[a->nsets].value = strtod(eq + 1, NULL);
            a->nsets++;
            setbuf += n + 1;
            setlen -= n + 1;
        } else {
            return -1;
        }
    }
    if (k + 2 != argc)
        return -1;
    char *end;
    a->p = strtoull(argv[k], &end, 10);
    a->input = argv[k + 1];
    if (*end || a->p == 0 || (a->nmachines ? a->use >= a->nmachines : a->use != 0))
        return -1;
    return 0;
}

static int run(const args *o, pdl_diag *d, pdl_arena *a)
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
            return 1;
        pdl_machine_ast *ast = pdl_parse_machine(d, a, id);
        machines[k] = ast ? pdl_check_machine(d, a, ast) : NULL;
        if (!machines[k])
            return 1;
    }
    uint32_t id;
    if (pdl_diag_load_file(d, o->input, (pdl_loc){0, 0, 0}, &id) != 0)
        return 1;
    pdl_program *prog = pdl_parse_program(d, a, id);
    if (!prog || pdl_diag_errors(d))
        return 1;
    pdl_checked *checked = pdl_check_program(d, a, prog, o->sets, o->nsets, machines, nm);
    if (!checked)
        return 1;
    pdl_gen *g = pdl_gen_alloc(checked, d, 0);
    if (!g)
        return 1;
    int rc = pdl_dot_write(g, o->use, o->p, o->generic, stdout);
    pdl_gen_free(g);
    return rc == 0 ? 0 : 1;
}

int main(int argc, char **argv)
{
    args o;
    char setbuf[1024];
    if (parse_args(argc, argv, &o, setbuf, sizeof setbuf) != 0)
        return usage();
    pdl_diag *d = pdl_diag_alloc(stderr);
    pdl_arena *a = pdl_arena_alloc();
    int status = d && a ? run(&o, d, a) : 1;
    if (status == 0 && pdl_diag_errors(d))
        status = 1;
    pdl_arena_free(a);
    pdl_diag_free(d);
    if (fflush(stdout) != 0)
        status = 1;
    return status;
}
