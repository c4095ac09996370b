/* pdl_expr: a tree-walking evaluator in double precision. Every operation checks its result:
 * division by zero, domain errors, overflow and NaN become located errors, never values. */
#include "pdl_expr.h"

#include <math.h>
#include <string.h>

typedef struct fn {
    const char *name;
    size_t min, max;
} fn;

static const fn functions[] = {
    {"log2", 1, 1}, {"log", 1, 1},  {"log10", 1, 1}, {"sqrt", 1, 1},
    {"exp", 1, 1},  {"ceil", 1, 1}, {"floor", 1, 1}, {"round", 1, 1},
    {"abs", 1, 1},  {"pow", 2, 2},  {"min", 1, 64},  {"max", 1, 64},
};

const char *const pdl_builtin_function_names[] = {"log2", "log",   "log10", "sqrt", "exp",
                                                  "ceil", "floor", "round", "abs",  "pow",
                                                  "min",  "max",   NULL};

int pdl_builtin_function(const char *name, size_t *min_args, size_t *max_args)
{
    for (size_t k = 0; k < sizeof functions / sizeof *functions; k++) {
        if (strcmp(functions[k].name, name) == 0) {
            *min_args = functions[k].min;
            *max_args = functions[k].max;
            return 1;
        }
    }
    return 0;
}

void pdl_env_init(pdl_env *env)
{
    memset(env, 0, sizeof *env);
    env->scope = PDL_SCOPE_MACHINE | PDL_SCOPE_VARS;
    env->rtfactor = 1.0;
    env->sizes[PDL_T_INT] = 4;
    env->sizes[PDL_T_FLOAT] = 4;
    env->sizes[PDL_T_DOUBLE] = 8;
    env->sizes[PDL_T_CHAR] = 1;
    env->sizes[PDL_T_LONG] = 8;
}

static pdl_eval_status fail(pdl_diag *d, pdl_loc at, const char *msg)
{
    if (d)
        pdl_error(d, at, "%s", msg);
    return PDL_EVAL_ERROR;
}

/* A finite result from finite operands is the only acceptable outcome. */
static pdl_eval_status finish(pdl_diag *d, pdl_loc at, double v, double *out)
{
    if (isnan(v))
        return fail(d, at, "expression has no numeric value (not a number)");
    if (isinf(v))
        return fail(d, at, "expression overflows (its value is too large)");
    *out = v;
    return PDL_EVAL_OK;
}

static pdl_eval_status var_value(const pdl_expr *e, const pdl_env *env, double *out)
{
    if (e->var == PDL_V_BINDING) {
        if (!(env->scope & PDL_SCOPE_VARS) || e->slot >= env->nvars || !env->vars[e->slot].known)
            return PDL_EVAL_UNKNOWN;
        *out = env->vars[e->slot].value;
        return PDL_EVAL_OK;
    }
    const char *n = e->u.name;
    struct {
        const char *name;
        unsigned scope;
        double value;
    } builtins[] = {{"p", PDL_SCOPE_P, env->p},
                    {"i", PDL_SCOPE_I, env->i},
                    {"j", PDL_SCOPE_J, env->j},
                    {"bytes", PDL_SCOPE_MSG, env->bytes},
                    {"hops", PDL_SCOPE_MSG, env->hops}};
    for (size_t k = 0; k < sizeof builtins / sizeof *builtins; k++) {
        if (strcmp(n, builtins[k].name) == 0) {
            if (!(env->scope & builtins[k].scope))
                return PDL_EVAL_UNKNOWN;
            *out = builtins[k].value;
            return PDL_EVAL_OK;
        }
    }
    if (!(env->scope & PDL_SCOPE_VARS))
        return PDL_EVAL_UNKNOWN;
    for (size_t k = 0; k < env->nvars; k++) {
        if (strcmp(env->vars[k].name, n) == 0) {
            if (!env->vars[k].known)
                return PDL_EVAL_UNKNOWN;
            *out = env->vars[k].value;
            return PDL_EVAL_OK;
        }
    }
    /* The checker reports undefined names once, with hints; here it is simply unknown. */
    return PDL_EVAL_UNKNOWN;
}

static pdl_eval_status call(const pdl_expr *e, const pdl_env *env, pdl_diag *d, double *out)
{
    const char *n = e->u.call.name;
    size_t na = e->u.call.nargs;
    double a[64];
    size_t lo, hi;
    if (!pdl_builtin_function(n, &lo, &hi))
        return fail(d, e->u.call.name_loc, "unknown function");
    if (na < lo || na > hi)
        return fail(d, e->loc, "wrong number of arguments");
    pdl_eval_status worst = PDL_EVAL_OK;
    for (size_t k = 0; k < na; k++) {
        pdl_eval_status s = pdl_eval(e->u.call.args[k], env, d, &a[k]);
        if (s == PDL_EVAL_ERROR)
            return s;
        if (s == PDL_EVAL_UNKNOWN)
            worst = s;
    }
    if (worst != PDL_EVAL_OK)
        return worst;
    double x = a[0], v;
    char msg[96];
    if (!strcmp(n, "log2") || !strcmp(n, "log") || !strcmp(n, "log10")) {
        if (!(x > 0)) {
            snprintf(msg, sizeof msg, "%s of a number that is not positive (%g)", n, x);
            return fail(d, e->loc, msg);
        }
        v = !strcmp(n, "log2") ? log2(x) : !strcmp(n, "log") ? log(x) : log10(x);
    } else if (!strcmp(n, "sqrt")) {
        if (x < 0) {
            snprintf(msg, sizeof msg, "sqrt of a negative number (%g)", x);
            return fail(d, e->loc, msg);
        }
        v = sqrt(x);
    } else if (!strcmp(n, "exp")) {
        v = exp(x);
    } else if (!strcmp(n, "ceil")) {
        v = ceil(x);
    } else if (!strcmp(n, "floor")) {
        v = floor(x);
    } else if (!strcmp(n, "round")) {
        v = round(x);
    } else if (!strcmp(n, "abs")) {
        v = fabs(x);
    } else if (!strcmp(n, "pow")) {
        if (x == 0 && a[1] < 0)
            return fail(d, e->loc, "pow of zero to a negative power (division by zero)");
        if (x < 0 && a[1] != floor(a[1])) {
            snprintf(msg, sizeof msg, "pow of a negative number to a fractional power (%g)", a[1]);
            return fail(d, e->loc, msg);
        }
        v = pow(x, a[1]);
    } else { /* min, max */
        v = x;
        for (size_t k = 1; k < na; k++)
            v = !strcmp(n, "min") ? fmin(v, a[k]) : fmax(v, a[k]);
    }
    return finish(d, e->loc, v, out);
}

pdl_eval_status pdl_eval(const pdl_expr *e, const pdl_env *env, pdl_diag *d, double *out)
{
    double a, b;
    pdl_eval_status s, t;
    switch (e->kind) {
    case PDL_E_NUM:
        *out = e->u.num;
        return PDL_EVAL_OK;
    case PDL_E_VAR:
        return var_value(e, env, out);
    case PDL_E_RTFACTOR:
        if (!(env->scope & PDL_SCOPE_MACHINE))
            return PDL_EVAL_UNKNOWN;
        *out = env->rtfactor;
        return PDL_EVAL_OK;
    case PDL_E_SIZEOF:
        if (!(env->scope & PDL_SCOPE_MACHINE))
            return PDL_EVAL_UNKNOWN;
        *out = env->sizes[e->u.ctype];
        return PDL_EVAL_OK;
    case PDL_E_NEG:
    case PDL_E_NOT:
        s = pdl_eval(e->u.operand, env, d, &a);
        if (s != PDL_EVAL_OK)
            return s;
        *out = e->kind == PDL_E_NEG ? -a : (a == 0);
        return PDL_EVAL_OK;
    case PDL_E_COND:
        s = pdl_eval(e->u.cond.c, env, d, &a);
        if (s != PDL_EVAL_OK)
            return s;
        return pdl_eval(a != 0 ? e->u.cond.a : e->u.cond.b, env, d, out);
    case PDL_E_CALL:
        return call(e, env, d, out);
    case PDL_E_BINARY:
        break;
    }
    s = pdl_eval(e->u.bin.a, env, d, &a);
    if (s == PDL_EVAL_ERROR)
        return s;
    /* && and || short-circuit, so `n > 0 && w / n > 1` is safe as in C. */
    if (s == PDL_EVAL_OK &&
        ((e->u.bin.op == PDL_OP_AND && a == 0) || (e->u.bin.op == PDL_OP_OR && a != 0))) {
        *out = e->u.bin.op == PDL_OP_OR;
        return PDL_EVAL_OK;
    }
    t = pdl_eval(e->u.bin.b, env, d, &b);
    if (t == PDL_EVAL_ERROR)
        return t;
    if (s == PDL_EVAL_UNKNOWN || t == PDL_EVAL_UNKNOWN)
        return PDL_EVAL_UNKNOWN;
    double v;
    switch (e->u.bin.op) {
    case PDL_OP_ADD:
        v = a + b;
        break;
    case PDL_OP_SUB:
        v = a - b;
        break;
    case PDL_OP_MUL:
        v = a * b;
        break;
    case PDL_OP_DIV:
    case PDL_OP_MOD:
        if (b == 0)
            return fail(d, e->loc, "division by zero");
        v = e->u.bin.op == PDL_OP_DIV ? a / b : fmod(a, b);
        break;
    case PDL_OP_LT:
        v = a < b;
        break;
    case PDL_OP_LE:
        v = a <= b;
        break;
    case PDL_OP_GT:
        v = a > b;
        break;
    case PDL_OP_GE:
        v = a >= b;
        break;
    case PDL_OP_EQ:
        v = a == b;
        break;
    case PDL_OP_NE:
        v = a != b;
        break;
    case PDL_OP_AND:
        v = a != 0 && b != 0;
        break;
    case PDL_OP_OR:
        v = a != 0 || b != 0;
        break;
    default:
        v = NAN;
        break;
    }
    return finish(d, e->loc, v, out);
}

pdl_eval_status pdl_eval_count(const pdl_expr *e, const pdl_env *env, pdl_diag *d, const char *what,
                               double min, double max, uint64_t *out)
{
    double v;
    pdl_eval_status s = pdl_eval(e, env, d, &v);
    if (s != PDL_EVAL_OK)
        return s;
    double r = round(v);
    if (fabs(v - r) > 1e-9 * fmax(1.0, fabs(v))) {
        if (d)
            pdl_error(d, e->loc, "%s must be an integer, got %.10g", what, v);
        return PDL_EVAL_ERROR;
    }
    if (r < min || r > max) {
        if (d) {
            if (r < min && min == 0)
                pdl_error(d, e->loc, "%s must not be negative, got %.10g", what, r);
            else if (r < min)
                pdl_error(d, e->loc, "%s must be at least %.10g, got %.10g", what, min, r);
            else /* all digits when 10 would print 1000000000001 as the limit, 1e+12 */
                pdl_error(d, e->loc, "%s %.*g exceeds the limit of %.*g", what,
                          r < max * (1 + 1e-9) ? 17 : 10, r, r < max * (1 + 1e-9) ? 17 : 10, max);
        }
        return PDL_EVAL_ERROR;
    }
    *out = (uint64_t)r;
    return PDL_EVAL_OK;
}

int pdl_expr_walk_vars(const pdl_expr *e, int (*visit)(void *ctx, const pdl_expr *var), void *ctx)
{
    if (!e)
        return 0;
    switch (e->kind) {
    case PDL_E_VAR:
        return visit(ctx, e);
    case PDL_E_NEG:
    case PDL_E_NOT:
        return pdl_expr_walk_vars(e->u.operand, visit, ctx);
    case PDL_E_BINARY:
        return pdl_expr_walk_vars(e->u.bin.a, visit, ctx) ||
               pdl_expr_walk_vars(e->u.bin.b, visit, ctx);
    case PDL_E_COND:
        return pdl_expr_walk_vars(e->u.cond.c, visit, ctx) ||
               pdl_expr_walk_vars(e->u.cond.a, visit, ctx) ||
               pdl_expr_walk_vars(e->u.cond.b, visit, ctx);
    case PDL_E_CALL:
        for (size_t k = 0; k < e->u.call.nargs; k++)
            if (pdl_expr_walk_vars(e->u.call.args[k], visit, ctx))
                return 1;
        return 0;
    default:
        return 0;
    }
}
