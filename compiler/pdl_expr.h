/* pdl_expr: evaluation of PDL expressions against an environment of variable values and the
 * built-ins (p, i, j, bytes, hops, RTFactor, SIZEOF). Errors are reported at the place of the
 * sub-expression that failed; a value that depends on something not yet known is "unknown". */
#ifndef PDL_EXPR_H
#define PDL_EXPR_H

#include "pdl_ast.h"

#include <stdint.h>

/* Built-ins an expression may use, by context. */
enum {
    PDL_SCOPE_P = 1u << 0,      /* processors of the model being built */
    PDL_SCOPE_I = 1u << 1,      /* unit index (INDEPENDENT subtask runtime) */
    PDL_SCOPE_J = 1u << 2,      /* job index (FORK-JOIN) */
    PDL_SCOPE_MSG = 1u << 3,    /* bytes and hops (machine MESSAGE TIME) */
    PDL_SCOPE_VARS = 1u << 4,   /* program variables (PARAMETER and --set) */
    PDL_SCOPE_MACHINE = 1u << 5 /* RTFactor and SIZEOF */
};

/* A named value (PARAMETER default or --set). */
typedef struct pdl_binding {
    const char *name;
    double value;
    int known;
} pdl_binding;

typedef struct pdl_env {
    unsigned scope; /* PDL_SCOPE_* that are defined right now (others are "unknown") */
    const pdl_binding *vars;
    size_t nvars;
    double p, i, j, bytes, hops;
    double rtfactor;
    double sizes[PDL_T_COUNT];
} pdl_env;

typedef enum pdl_eval_status {
    PDL_EVAL_OK = 0,
    PDL_EVAL_ERROR,  /* reported */
    PDL_EVAL_UNKNOWN /* depends on a built-in or variable not defined in this environment */
} pdl_eval_status;

/* An environment with the ideal machine's RTFactor and SIZEOF values and nothing else known. */
void pdl_env_init(pdl_env *env);

/* Evaluates e. On PDL_EVAL_ERROR a diagnostic was given through d (when d is not NULL). */
pdl_eval_status pdl_eval(const pdl_expr *e, const pdl_env *env, pdl_diag *d, double *out);

/* Evaluates e and requires an integer in [min, max]; `what` names the quantity in the
 * message ("repetition count"). Unknown stays unknown. */
pdl_eval_status pdl_eval_count(const pdl_expr *e, const pdl_env *env, pdl_diag *d, const char *what,
                               double min, double max, uint64_t *out);

/* Calls visit(ctx, var) for every variable reference in e (for scope checks and use counts).
 * Stops early and returns nonzero when visit does. */
int pdl_expr_walk_vars(const pdl_expr *e, int (*visit)(void *ctx, const pdl_expr *var), void *ctx);

/* Built-in functions: arity range by name; returns 0 when the name is not a built-in. */
int pdl_builtin_function(const char *name, size_t *min_args, size_t *max_args);
/* Names of the built-in functions (NULL-terminated) for suggestions. */
extern const char *const pdl_builtin_function_names[];

/* The largest count an integer-valued expression may have (units, repetitions). */
#define PDL_MAX_COUNT 1e12

#endif
