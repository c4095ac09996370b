/* pdl_check: semantic analysis. Takes the parser's tree, reports every mistake it can find
 * without choosing a processor count, and fills the tree's resolved fields for the generator. */
#ifndef PDL_CHECK_H
#define PDL_CHECK_H

#include "pdl_ast.h"
#include "pdl_expr.h"
#include "pdl_machine.h"

/* A value given on the command line with --set NAME=VALUE (or one value of a --sweep). */
typedef struct pdl_setvar {
    const char *name;
    double value;
    int swept; /* from --sweep: an error, not a warning, when nothing uses it */
} pdl_setvar;

/* Everything the later stages need to know about a checked program. Arena-owned. */
typedef struct pdl_checked {
    pdl_program *prog;
    pdl_binding *vars; /* PARAMETER defaults overridden by --set; all known after a clean check */
    size_t nvars;
    const pdl_machine *const *machines; /* the machines of this run (the ideal one if none) */
    size_t nmachines;
} pdl_checked;

/* Checks a machine model file's tree and builds the machine. NULL after reporting errors. */
pdl_machine *pdl_check_machine(pdl_diag *d, pdl_arena *a, const pdl_machine_ast *ast);

/* Checks prog against the given --set values and machines (at least one). NUMERICAL files are
 * read here, once per machine, relative to the program file's directory. Returns NULL after
 * reporting errors; warnings do not fail the check. */
pdl_checked *pdl_check_program(pdl_diag *d, pdl_arena *a, pdl_program *prog, const pdl_setvar *sets,
                               size_t nsets, const pdl_machine *const *machines, size_t nmachines);

/* Range checks on a checked distribution's parameter values (args in order); only those with
 * known[k] set are checked. `context` is appended to messages (" at p = 3"). 0 when fine. */
int pdl_check_dist_values(pdl_diag *d, const pdl_dist *dist, const double *v, const int *known,
                          const char *context);

/* Expands $ARCH (the machine's name) and $NAME (a variable's value) in a file name. Reports
 * unknown names at `at`; returns NULL then. */
char *pdl_expand_string(pdl_diag *d, pdl_arena *a, const char *s, pdl_loc at, const pdl_machine *m,
                        const pdl_binding *vars, size_t nvars);

#endif
