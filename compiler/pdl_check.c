/* pdl_check: semantic analysis of PDL programs and machine models. One pass per concern
 * (variables, phases, pattern, concatenation, use), each reporting every error it finds with a
 * hint; the resolved fields it fills are what the generator trusts without checking again. */
#include "pdl_check.h"

#include "pdl_numfile.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* ---- a string -> index map over the arena (names of phases, variables, tasks) ---- */

typedef struct strmap {
    const char **keys;
    size_t *vals;
    size_t cap, len;
} strmap;

static size_t hash_str(const char *s)
{
    size_t h = 1469598103934665603u;
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * 1099511628211u;
    return h;
}

static int strmap_grow(pdl_arena *a, strmap *m)
{
    size_t cap = m->cap ? m->cap * 2 : 16;
    const char **keys = pdl_arena_calloc(a, cap, sizeof *keys);
    size_t *vals = pdl_arena_calloc(a, cap, sizeof *vals);
    if (!keys || !vals)
        return -1;
    for (size_t k = 0; k < m->cap; k++) {
        if (!m->keys[k])
            continue;
        size_t h = hash_str(m->keys[k]) & (cap - 1);
        while (keys[h])
            h = (h + 1) & (cap - 1);
        keys[h] = m->keys[k];
        vals[h] = m->vals[k];
    }
    m->keys = keys;
    m->vals = vals;
    m->cap = cap;
    return 0;
}

/* Returns 1 and the value when found. */
static int strmap_get(const strmap *m, const char *key, size_t *val)
{
    if (!m->cap)
        return 0;
    size_t h = hash_str(key) & (m->cap - 1);
    while (m->keys[h]) {
        if (strcmp(m->keys[h], key) == 0) {
            *val = m->vals[h];
            return 1;
        }
        h = (h + 1) & (m->cap - 1);
    }
    return 0;
}

/* Inserts key unless present; returns 0 on insert, 1 when present, -1 when out of memory. */
static int strmap_put(pdl_arena *a, strmap *m, const char *key, size_t val)
{
    size_t old;
    if (strmap_get(m, key, &old))
        return 1;
    if ((m->len + 1) * 2 > m->cap && strmap_grow(a, m) != 0)
        return -1;
    size_t h = hash_str(key) & (m->cap - 1);
    while (m->keys[h])
        h = (h + 1) & (m->cap - 1);
    m->keys[h] = key;
    m->vals[h] = val;
    m->len++;
    return 0;
}

/* ---- checker state ---- */

typedef struct var_info {
    pdl_loc decl; /* PARAMETER declaration (file 0 when only given with --set) */
    int declared;
    int from_set; /* value given with --set */
    int swept;    /* ... by --sweep */
    int used;
    int reported; /* "has no value" already said */
} var_info;

typedef struct numcache_entry {
    const char *path;
    const pdl_numdata *data;
} numcache_entry;

typedef struct checker {
    pdl_diag *d;
    pdl_arena *a;
    pdl_program *prog;
    pdl_binding *vars;
    var_info *info;
    size_t nvars;
    strmap varmap;
    strmap phasemap;
    const pdl_machine *const *machines;
    size_t nmachines;
    pdl_env env;            /* constants known at check time (first machine) */
    const char **undefined; /* names already reported as undefined */
    size_t nundefined, capundefined;
    char *prog_dir; /* directory of the program file, with a trailing '/' or "" */
    numcache_entry *numcache;
    size_t nnum, capnum;
    size_t decl_limit; /* while checking PARAMETER k, only bindings < k are visible */
    int oom;
} checker;

static void *alloc(checker *ck, size_t n, size_t size)
{
    void *p = pdl_arena_calloc(ck->a, n ? n : 1, size);
    if (!p && !ck->oom) {
        ck->oom = 1;
        pdl_error(ck->d, (pdl_loc){0, 0, 0}, "out of memory");
    }
    return p;
}

static size_t errors(const checker *ck)
{
    return pdl_diag_errors(ck->d);
}

/* ---- expressions ---- */

static const char *const builtin_vars[] = {"p", "i", "j", "bytes", "hops"};

static int is_builtin_var(const char *n, pdl_builtin_var *which)
{
    static const pdl_builtin_var codes[] = {PDL_V_P, PDL_V_I, PDL_V_J, PDL_V_BYTES, PDL_V_HOPS};
    for (size_t k = 0; k < 5; k++) {
        if (strcmp(n, builtin_vars[k]) == 0) {
            if (which)
                *which = codes[k];
            return 1;
        }
    }
    return 0;
}

static unsigned builtin_scope(pdl_builtin_var v)
{
    switch (v) {
    case PDL_V_P:
        return PDL_SCOPE_P;
    case PDL_V_I:
        return PDL_SCOPE_I;
    case PDL_V_J:
        return PDL_SCOPE_J;
    default:
        return PDL_SCOPE_MSG;
    }
}

static const char *builtin_where(pdl_builtin_var v)
{
    switch (v) {
    case PDL_V_P:
        return "'p', the number of processors, is not defined in PARAMETER values, machine "
               "constants or topology sizes";
    case PDL_V_I:
        return "'i', the unit index, is defined only in the SUBTASK RUNTIME of an INDEPENDENT "
               "phase";
    case PDL_V_J:
        return "'j', the job index, is defined only in a FORK-JOIN phase's TASKS PER JOB, "
               "SUBTASK RUNTIME and COMMUNICATION VOLUME";
    default:
        return "'bytes' and 'hops' are defined only in a machine's MESSAGE TIME";
    }
}

static int already_reported(checker *ck, const char *name)
{
    for (size_t k = 0; k < ck->nundefined; k++)
        if (strcmp(ck->undefined[k], name) == 0)
            return 1;
    if (ck->nundefined == ck->capundefined) {
        size_t cap = ck->capundefined ? ck->capundefined * 2 : 8;
        const char **n = alloc(ck, cap, sizeof *n);
        if (!n)
            return 1;
        if (ck->nundefined)
            memcpy(n, ck->undefined, ck->nundefined * sizeof *n);
        ck->undefined = n;
        ck->capundefined = cap;
    }
    ck->undefined[ck->nundefined++] = name;
    return 0;
}

/* Suggests a close variable name (visible bindings and built-ins in scope). */
static const char *suggest_var(checker *ck, const char *name, unsigned scope)
{
    size_t n = ck->nvars + 5;
    const char **cands = alloc(ck, n, sizeof *cands);
    if (!cands)
        return NULL;
    size_t k = 0;
    if (scope & PDL_SCOPE_VARS)
        for (size_t v = 0; v < ck->nvars && v < ck->decl_limit; v++)
            cands[k++] = ck->vars[v].name;
    for (size_t v = 0; v < 5; v++) {
        pdl_builtin_var b = PDL_V_P;
        is_builtin_var(builtin_vars[v], &b);
        if (scope & builtin_scope(b))
            cands[k++] = builtin_vars[v];
    }
    return pdl_closest(name, cands, k);
}

static void undefined_var(checker *ck, pdl_expr *e, unsigned scope)
{
    const char *name = e->u.name;
    if (already_reported(ck, name))
        return;
    size_t slot;
    int known = strmap_get(&ck->varmap, name, &slot);
    if (!(scope & PDL_SCOPE_VARS)) {
        pdl_error(ck->d, e->loc, "'%s' is not defined in a machine model", name);
        const char *s = suggest_var(ck, name, scope);
        if (s)
            pdl_note(ck->d, e->loc, "did you mean '%s'?", s);
        else
            pdl_note(ck->d, e->loc,
                     "machine expressions may use p, and bytes and hops in "
                     "MESSAGE TIME");
        return;
    }
    if (known && slot >= ck->decl_limit) {
        pdl_error(ck->d, e->loc, "'%s' is used before it is declared", name);
        pdl_note(ck->d, ck->info[slot].decl, "'%s' is declared here", name);
        return;
    }
    if (known && ck->info[slot].declared) {
        pdl_error(ck->d, e->loc, "parameter '%s' has no value", name);
        pdl_note(ck->d, ck->info[slot].decl,
                 "give it a default here ('PARAMETER %s = value;') or a value with "
                 "'--set %s=value'",
                 name, name);
        return;
    }
    pdl_error(ck->d, e->loc, "'%s' has no value", name);
    const char *s = suggest_var(ck, name, scope);
    size_t sslot;
    if (s && strmap_get(&ck->varmap, s, &sslot) && ck->info[sslot].from_set &&
        !ck->info[sslot].declared) {
        /* The near miss is a --set name nothing uses: the typo is on the command line. */
        pdl_note(ck->d, e->loc, "'--set %s' was given; did you mean '--set %s'?", s, name);
        return;
    }
    if (s)
        pdl_note(ck->d, e->loc, "did you mean '%s'?", s);
    pdl_note(ck->d, e->loc,
             "declare it with 'PARAMETER %s = value;' or give it with '--set %s=value'", name,
             name);
}

/* Checks names, functions and arities in e for a context allowing `scope`. Returns 0 when clean. */
static int check_expr(checker *ck, pdl_expr *e, unsigned scope)
{
    if (!e)
        return 0;
    size_t before = errors(ck);
    int failed = 0; /* an undefined name is said once, but fails every expression using it */
    switch (e->kind) {
    case PDL_E_VAR: {
        pdl_builtin_var b;
        if (is_builtin_var(e->u.name, &b)) {
            e->var = b;
            if (!(scope & builtin_scope(b))) {
                pdl_error(ck->d, e->loc, "'%s' cannot be used here", e->u.name);
                pdl_note(ck->d, e->loc, "%s", builtin_where(b));
            }
            break;
        }
        size_t slot;
        if ((scope & PDL_SCOPE_VARS) && strmap_get(&ck->varmap, e->u.name, &slot) &&
            slot < ck->decl_limit && ck->vars[slot].known) {
            e->var = PDL_V_BINDING;
            e->slot = slot;
            ck->info[slot].used = 1;
        } else {
            if ((scope & PDL_SCOPE_VARS) && strmap_get(&ck->varmap, e->u.name, &slot))
                ck->info[slot].used = 1;
            undefined_var(ck, e, scope);
            failed = 1;
        }
        break;
    }
    case PDL_E_RTFACTOR:
    case PDL_E_SIZEOF:
        if (!(scope & PDL_SCOPE_MACHINE)) {
            pdl_error(ck->d, e->loc, "%s cannot be used in a machine model",
                      e->kind == PDL_E_RTFACTOR ? "RTFactor" : "SIZEOF");
            pdl_note(ck->d, e->loc, "the machine model defines these values");
        }
        break;
    case PDL_E_NEG:
    case PDL_E_NOT:
        failed |= check_expr(ck, e->u.operand, scope);
        break;
    case PDL_E_BINARY:
        failed |= check_expr(ck, e->u.bin.a, scope);
        failed |= check_expr(ck, e->u.bin.b, scope);
        break;
    case PDL_E_COND:
        failed |= check_expr(ck, e->u.cond.c, scope);
        failed |= check_expr(ck, e->u.cond.a, scope);
        failed |= check_expr(ck, e->u.cond.b, scope);
        break;
    case PDL_E_CALL: {
        size_t lo, hi, n = e->u.call.nargs;
        if (!pdl_builtin_function(e->u.call.name, &lo, &hi)) {
            pdl_error(ck->d, e->u.call.name_loc, "unknown function '%s'", e->u.call.name);
            const char *s = pdl_closest(e->u.call.name, pdl_builtin_function_names, 12);
            if (s)
                pdl_note(ck->d, e->u.call.name_loc, "did you mean '%s'?", s);
            else
                pdl_note(ck->d, e->u.call.name_loc,
                         "the functions are log2, log, log10, sqrt, exp, ceil, floor, round, "
                         "abs, pow, min and max");
        } else if (n < lo || n > hi) {
            if (lo == hi)
                pdl_error(ck->d, e->loc, "'%s' takes %zu argument%s, got %zu", e->u.call.name, lo,
                          lo == 1 ? "" : "s", n);
            else
                pdl_error(ck->d, e->loc, "'%s' takes %zu to %zu arguments, got %zu", e->u.call.name,
                          lo, hi, n);
        }
        for (size_t k = 0; k < n; k++)
            failed |= check_expr(ck, e->u.call.args[k], scope);
        break;
    }
    case PDL_E_NUM:
        break;
    }
    return errors(ck) == before && !failed ? 0 : -1;
}

/* Checks e, then evaluates it if it is constant at check time. Returns OK with *v, UNKNOWN
 * when it depends on p, i, j, bytes or hops, ERROR after reporting. */
static pdl_eval_status check_value(checker *ck, pdl_expr *e, unsigned scope, double *v)
{
    if (check_expr(ck, e, scope) != 0)
        return PDL_EVAL_ERROR;
    pdl_env env = ck->env;
    env.scope = PDL_SCOPE_VARS | (scope & PDL_SCOPE_MACHINE);
    return pdl_eval(e, &env, ck->d, v);
}

static pdl_eval_status check_count(checker *ck, pdl_expr *e, unsigned scope, const char *what,
                                   double min, uint64_t *out)
{
    if (check_expr(ck, e, scope) != 0)
        return PDL_EVAL_ERROR;
    pdl_env env = ck->env;
    env.scope = PDL_SCOPE_VARS | (scope & PDL_SCOPE_MACHINE);
    uint64_t dummy;
    return pdl_eval_count(e, &env, ck->d, what, min, PDL_MAX_COUNT, out ? out : &dummy);
}

/* ---- distributions ---- */

typedef struct dist_spec {
    const char *name;
    pdl_dist_kind kind;
    size_t min, max;
    const char *params;
} dist_spec;

static const dist_spec dist_specs[] = {
    {"DETERMINISTIC", PDL_D_DETERMINISTIC, 1, 1, "value"},
    {"EXPONENTIAL", PDL_D_EXPONENTIAL, 1, 1, "mean"},
    {"ERLANG", PDL_D_ERLANG, 2, 2, "k, mean of each phase"},
    {"GAMMA", PDL_D_GAMMA, 2, 2, "shape, scale"},
    {"UNIFORM", PDL_D_UNIFORM, 2, 2, "a, b"},
    {"NORMAL", PDL_D_NORMAL, 2, 2, "mu, sigma"},
    {"LOGNORMAL", PDL_D_LOGNORMAL, 2, 2, "mu, sigma"},
    {"WEIBULL", PDL_D_WEIBULL, 2, 2, "shape, scale"},
    {"HYPEREXPONENTIAL", PDL_D_HYPEREXPONENTIAL, 2, 64, "p1, m1, p2, m2, ..."},
    {"NUMERICAL", PDL_D_NUMERICAL, 1, 1, "'file'"},
};
enum { NDIST_SPECS = sizeof dist_specs / sizeof *dist_specs };

int pdl_check_dist_values(pdl_diag *d, const pdl_dist *dist, const double *v, const int *known,
                          const char *context)
{
    size_t before = pdl_diag_errors(d);
    const char *nm = pdl_dist_name(dist->kind);
#define ARGLOC(k) (dist->args[k].loc)
#define POSITIVE(k, what)                                                                          \
    if (known[k] && !(v[k] > 0))                                                                   \
    pdl_error(d, ARGLOC(k), "%s %s must be positive, got %.10g%s", nm, what, v[k], context)
#define NONNEG(k, what)                                                                            \
    if (known[k] && !(v[k] >= 0))                                                                  \
    pdl_error(d, ARGLOC(k), "%s %s must not be negative, got %.10g%s", nm, what, v[k], context)
    switch (dist->kind) {
    case PDL_D_DETERMINISTIC:
        NONNEG(0, "value");
        break;
    case PDL_D_EXPONENTIAL:
        POSITIVE(0, "mean");
        break;
    case PDL_D_ERLANG:
        if (known[0] && (!(v[0] >= 1) || v[0] != floor(v[0]) || v[0] > 1e6))
            pdl_error(d, ARGLOC(0),
                      "ERLANG phase count k must be a positive integer (at most 1e6), got "
                      "%.10g%s",
                      v[0], context);
        POSITIVE(1, "mean");
        break;
    case PDL_D_GAMMA:
        POSITIVE(0, "shape");
        POSITIVE(1, "scale");
        break;
    case PDL_D_UNIFORM:
        NONNEG(0, "lower bound a");
        if (known[0] && known[1] && v[0] >= 0 && !(v[1] >= v[0]))
            pdl_error(d, dist->loc, "UNIFORM needs a <= b, got a = %.10g, b = %.10g%s", v[0], v[1],
                      context);
        break;
    case PDL_D_NORMAL:
    case PDL_D_LOGNORMAL:
        NONNEG(1, "sigma");
        if (dist->kind == PDL_D_NORMAL && known[0] && known[1] && v[1] >= 0 &&
            !(v[0] > -8 * v[1]) && !(v[1] == 0 && v[0] >= 0))
            pdl_error(d, dist->loc,
                      "NORMAL(%.10g, %.10g) has almost no mass above 0, so its truncation at 0 "
                      "is meaningless%s",
                      v[0], v[1], context);
        break;
    case PDL_D_WEIBULL:
        POSITIVE(0, "shape");
        POSITIVE(1, "scale");
        break;
    case PDL_D_HYPEREXPONENTIAL: {
        double sum = 0;
        int all = 1;
        for (size_t k = 0; k + 1 < dist->nargs; k += 2) {
            if (known[k] && !(v[k] >= 0 && v[k] <= 1))
                pdl_error(d, ARGLOC(k),
                          "HYPEREXPONENTIAL probability p%zu must be between 0 and 1, got "
                          "%.10g%s",
                          k / 2 + 1, v[k], context);
            if (known[k + 1] && !(v[k + 1] > 0))
                pdl_error(d, ARGLOC(k + 1),
                          "HYPEREXPONENTIAL mean m%zu must be positive, got %.10g%s", k / 2 + 1,
                          v[k + 1], context);
            all &= known[k];
            sum += v[k];
        }
        if (all && pdl_diag_errors(d) == before && fabs(sum - 1) > 1e-9)
            pdl_error(d, dist->loc, "HYPEREXPONENTIAL probabilities sum to %.10g, not 1%s", sum,
                      context);
        break;
    }
    default:
        break;
    }
#undef POSITIVE
#undef NONNEG
#undef ARGLOC
    return pdl_diag_errors(d) == before ? 0 : -1;
}

static const pdl_numdata *load_numeric(checker *ck, const char *file, pdl_loc at)
{
    char *path =
        file[0] == '/' ? (char *)file : pdl_arena_printf(ck->a, "%s%s", ck->prog_dir, file);
    if (!path)
        return NULL;
    for (size_t k = 0; k < ck->nnum; k++)
        if (strcmp(ck->numcache[k].path, path) == 0)
            return ck->numcache[k].data;
    const pdl_numdata *data = pdl_numfile_load(ck->d, ck->a, path, at);
    if (ck->nnum == ck->capnum) {
        size_t cap = ck->capnum ? ck->capnum * 2 : 4;
        numcache_entry *n = alloc(ck, cap, sizeof *n);
        if (!n)
            return data;
        if (ck->nnum)
            memcpy(n, ck->numcache, ck->nnum * sizeof *n);
        ck->numcache = n;
        ck->capnum = cap;
    }
    /* A file that failed is cached too, so it is reported once. */
    ck->numcache[ck->nnum++] = (numcache_entry){path, data};
    return data;
}

static void check_dist(checker *ck, pdl_dist *dist, unsigned scope)
{
    if (!dist)
        return;
    const dist_spec *spec = NULL;
    for (size_t k = 0; k < NDIST_SPECS; k++)
        if (strcasecmp(dist->name, dist_specs[k].name) == 0)
            spec = &dist_specs[k];
    if (!spec) {
        const char *names[NDIST_SPECS];
        for (size_t k = 0; k < NDIST_SPECS; k++)
            names[k] = dist_specs[k].name;
        pdl_error(ck->d, dist->name_loc, "unknown distribution '%s'", dist->name);
        const char *s = pdl_closest(dist->name, names, NDIST_SPECS);
        if (s)
            pdl_note(ck->d, dist->name_loc, "did you mean '%s'?", s);
        else
            pdl_note(ck->d, dist->name_loc,
                     "the distributions are DETERMINISTIC, EXPONENTIAL, ERLANG, GAMMA, UNIFORM, "
                     "NORMAL, LOGNORMAL, WEIBULL, HYPEREXPONENTIAL and NUMERICAL");
        for (size_t k = 0; k < dist->nargs; k++)
            if (dist->args[k].expr)
                check_expr(ck, dist->args[k].expr, scope);
        return;
    }
    dist->kind = spec->kind;
    if (dist->nargs < spec->min || dist->nargs > spec->max) {
        if (spec->kind == PDL_D_HYPEREXPONENTIAL)
            pdl_error(ck->d, dist->loc,
                      "HYPEREXPONENTIAL takes 1 to 32 pairs of arguments (%s), got %zu arguments",
                      spec->params, dist->nargs);
        else
            pdl_error(ck->d, dist->loc, "%s takes %zu argument%s (%s), got %zu", spec->name,
                      spec->min, spec->min == 1 ? "" : "s", spec->params, dist->nargs);
        return;
    }
    if (spec->kind == PDL_D_HYPEREXPONENTIAL && dist->nargs % 2) {
        pdl_error(ck->d, dist->loc,
                  "HYPEREXPONENTIAL takes pairs of arguments (%s), got %zu arguments", spec->params,
                  dist->nargs);
        return;
    }
    if (spec->kind == PDL_D_NUMERICAL) {
        pdl_arg *arg = &dist->args[0];
        if (!arg->str) {
            pdl_error(ck->d, arg->loc, "NUMERICAL takes a file name in quotes");
            pdl_note(ck->d, arg->loc, "for example NUMERICAL('runtimes.dat')");
            return;
        }
        dist->numeric = alloc(ck, ck->nmachines, sizeof *dist->numeric);
        if (!dist->numeric)
            return;
        /* Variables named as $NAME in the file name are used. */
        for (const char *q = strchr(arg->str, '$'); q; q = strchr(q + 1, '$')) {
            size_t len = 0;
            while (q[1 + len] == '_' || (q[1 + len] >= 'A' && q[1 + len] <= 'Z') ||
                   (q[1 + len] >= 'a' && q[1 + len] <= 'z') ||
                   (len > 0 && q[1 + len] >= '0' && q[1 + len] <= '9'))
                len++;
            char *name = pdl_arena_strndup(ck->a, q + 1, len);
            size_t slot;
            if (name && strmap_get(&ck->varmap, name, &slot))
                ck->info[slot].used = 1;
        }
        for (size_t m = 0; m < ck->nmachines; m++) {
            char *file = pdl_expand_string(ck->d, ck->a, arg->str, arg->loc, ck->machines[m],
                                           ck->vars, ck->nvars);
            if (!file)
                return;
            dist->numeric[m] = load_numeric(ck, file, arg->loc);
        }
        return;
    }
    double v[64];
    int known[64];
    size_t before = errors(ck);
    for (size_t k = 0; k < dist->nargs; k++) {
        known[k] = 0;
        v[k] = 0;
        if (dist->args[k].str) {
            pdl_error(ck->d, dist->args[k].loc, "%s takes numbers, not a file name", spec->name);
            continue;
        }
        known[k] = check_value(ck, dist->args[k].expr, scope, &v[k]) == PDL_EVAL_OK;
    }
    if (errors(ck) == before)
        pdl_check_dist_values(ck->d, dist, v, known, "");
}

/* ---- phases ---- */

#define SB(x) (1u << PDL_S_##x)
#define ALL_SCHEMES                                                                                \
    (SB(INDEPENDENT) | SB(NEIGHBOR) | SB(NEIGHBOR_TORUS) | SB(MACROPIPELINE) | SB(FORK_JOIN) |     \
     SB(PAIRED) | SB(ARBITRARY))

typedef struct clause_rule {
    unsigned allowed, required;
    const char *example; /* what to add when required and missing */
} clause_rule;

static const clause_rule clause_rules[PDL_C_COUNT] = {
    [PDL_C_SCHEME] = {ALL_SCHEMES, ALL_SCHEMES, NULL},
    [PDL_C_SUBTASK_RUNTIME] = {SB(INDEPENDENT) | SB(NEIGHBOR) | SB(NEIGHBOR_TORUS) |
                                   SB(MACROPIPELINE) | SB(FORK_JOIN),
                               SB(INDEPENDENT) | SB(NEIGHBOR) | SB(NEIGHBOR_TORUS) |
                                   SB(MACROPIPELINE) | SB(FORK_JOIN),
                               "SUBTASK RUNTIME IS EXPONENTIAL(1);"},
    [PDL_C_RUNTIME] = {0, 0, NULL},
    [PDL_C_SIZE_VECTOR] = {SB(INDEPENDENT) | SB(NEIGHBOR) | SB(NEIGHBOR_TORUS) | SB(PAIRED), 0,
                           NULL},
    [PDL_C_SIZE_GRID] = {SB(INDEPENDENT) | SB(NEIGHBOR) | SB(NEIGHBOR_TORUS) | SB(PAIRED), 0, NULL},
    /* MACROPIPELINE stages always go to processors in blocks (models.md). */
    [PDL_C_DISTRIBUTION] = {SB(INDEPENDENT) | SB(NEIGHBOR) | SB(NEIGHBOR_TORUS) | SB(FORK_JOIN), 0,
                            NULL},
    [PDL_C_SCHEDULING] = {SB(INDEPENDENT) | SB(FORK_JOIN), 0, NULL},
    [PDL_C_VOLUME] = {ALL_SCHEMES, 0, NULL},
    [PDL_C_DEPENDENCY] = {SB(PAIRED), SB(PAIRED), "DEPENDENCY IS 1;"},
    [PDL_C_INDEP_PART] = {SB(PAIRED), SB(PAIRED), "INDEPENDENT SUBTASK IS: RUNTIME IS ...; END;"},
    [PDL_C_DEP_PART] = {SB(PAIRED), SB(PAIRED), "DEPENDENT SUBTASK IS: RUNTIME IS ...; END;"},
    [PDL_C_STAGES] = {SB(MACROPIPELINE), SB(MACROPIPELINE), "STAGES IS 4;"},
    [PDL_C_JOBS] = {SB(MACROPIPELINE) | SB(FORK_JOIN), SB(MACROPIPELINE) | SB(FORK_JOIN),
                    "JOBS IS 100;"},
    [PDL_C_INTERARRIVAL] = {SB(MACROPIPELINE) | SB(FORK_JOIN), 0, NULL},
    [PDL_C_TASKS_PER_JOB] = {SB(FORK_JOIN), SB(FORK_JOIN), "TASKS PER JOB IS 8;"},
    [PDL_C_TASK] = {SB(ARBITRARY), SB(ARBITRARY), "TASK a RUNTIME IS EXPONENTIAL(1);"},
    [PDL_C_ARC] = {SB(ARBITRARY), 0, NULL},
};

/* "INDEPENDENT, NEIGHBOR and PAIRED" for a scheme mask. */
static const char *scheme_list(checker *ck, unsigned mask)
{
    char buf[256] = "";
    size_t n = 0, count = 0;
    for (int s = PDL_S_INDEPENDENT; s <= PDL_S_ARBITRARY; s++)
        count += (mask >> s) & 1;
    for (int s = PDL_S_INDEPENDENT; s <= PDL_S_ARBITRARY; s++) {
        if (!((mask >> s) & 1))
            continue;
        n++;
        strcat(buf, pdl_scheme_name((pdl_scheme)s));
        if (n + 1 == count)
            strcat(buf, " and ");
        else if (n < count)
            strcat(buf, ", ");
    }
    return pdl_arena_strdup(ck->a, buf);
}

/* Clause kinds that count as the same clause for "given twice". */
static pdl_clause_kind clause_group(pdl_clause_kind k)
{
    return k == PDL_C_SIZE_GRID ? PDL_C_SIZE_VECTOR : k;
}

static const char *clause_label(const pdl_clause *c)
{
    return c->kind == PDL_C_SIZE_VECTOR || c->kind == PDL_C_SIZE_GRID ? "PROBLEM SIZE"
                                                                      : pdl_clause_name(c->kind);
}

/* Body of INDEPENDENT SUBTASK / DEPENDENT SUBTASK: RUNTIME and an optional volume. */
static void check_part(checker *ck, pdl_clause *part, pdl_dist **runtime, pdl_expr **volume)
{
    const char *what = part->kind == PDL_C_INDEP_PART ? "INDEPENDENT SUBTASK" : "DEPENDENT SUBTASK";
    pdl_clause *seen_rt = NULL, *seen_vol = NULL;
    for (size_t k = 0; k < part->nbody; k++) {
        pdl_clause *c = part->body[k];
        pdl_clause **seen = c->kind == PDL_C_RUNTIME  ? &seen_rt
                            : c->kind == PDL_C_VOLUME ? &seen_vol
                                                      : NULL;
        if (!seen) {
            pdl_error(ck->d, c->key_loc, "'%s' does not belong in the %s part", clause_label(c),
                      what);
            pdl_note(ck->d, c->key_loc,
                     "the %s part has 'RUNTIME IS distribution;' and may have "
                     "'COMMUNICATION VOLUME IS bytes;'",
                     what);
            continue;
        }
        if (*seen) {
            pdl_error(ck->d, c->key_loc, "'%s' is given twice in this %s part", clause_label(c),
                      what);
            pdl_note(ck->d, (*seen)->key_loc, "first given here");
            continue;
        }
        *seen = c;
        if (c->kind == PDL_C_RUNTIME) {
            check_dist(ck, c->dist, PDL_SCOPE_P | PDL_SCOPE_VARS | PDL_SCOPE_MACHINE);
            *runtime = c->dist;
        } else {
            double v;
            if (check_value(ck, c->e1, PDL_SCOPE_P | PDL_SCOPE_VARS | PDL_SCOPE_MACHINE, &v) ==
                    PDL_EVAL_OK &&
                v < 0)
                pdl_error(ck->d, c->e1->loc, "communication volume must not be negative, got %.10g",
                          v);
            *volume = c->e1;
        }
    }
    if (!seen_rt) {
        pdl_error(ck->d, part->key_loc, "the %s part needs a RUNTIME", what);
        pdl_note(ck->d, part->key_loc, "add 'RUNTIME IS distribution;' inside it");
    }
}

static void check_arbitrary(checker *ck, pdl_phase *ph)
{
    strmap tasks = {0};
    size_t ntasks = 0;
    for (size_t k = 0; k < ph->nclauses; k++)
        ntasks += ph->clauses[k]->kind == PDL_C_TASK;
    ph->tasks = alloc(ck, ntasks, sizeof *ph->tasks);
    if (!ph->tasks)
        return;
    for (size_t k = 0; k < ph->nclauses; k++) {
        pdl_clause *c = ph->clauses[k];
        if (c->kind != PDL_C_TASK)
            continue;
        int r = strmap_put(ck->a, &tasks, c->name, ph->ntasks);
        if (r == 1) {
            size_t first = 0; /* set by strmap_get: the name is present */
            strmap_get(&tasks, c->name, &first);
            pdl_error(ck->d, c->name_loc, "task '%s' is defined twice in phase '%s'", c->name,
                      ph->name);
            pdl_note(ck->d, ph->tasks[first].loc, "first defined here");
            continue;
        }
        if (r < 0)
            return;
        pdl_task *t = &ph->tasks[ph->ntasks++];
        t->name = c->name;
        t->loc = c->name_loc;
        t->dist = c->dist;
        check_dist(ck, c->dist, PDL_SCOPE_P | PDL_SCOPE_VARS | PDL_SCOPE_MACHINE);
    }
    /* Arcs: collect (from, to) pairs, skipping unknown names and duplicates. */
    size_t narcs = 0;
    for (size_t k = 0; k < ph->nclauses; k++)
        if (ph->clauses[k]->kind == PDL_C_ARC)
            narcs += ph->clauses[k]->nnames - 1;
    size_t *from = alloc(ck, narcs, sizeof *from), *to = alloc(ck, narcs, sizeof *to);
    pdl_loc *where = alloc(ck, narcs, sizeof *where);
    if (!from || !to || !where)
        return;
    size_t na = 0;
    for (size_t k = 0; k < ph->nclauses; k++) {
        pdl_clause *c = ph->clauses[k];
        if (c->kind != PDL_C_ARC)
            continue;
        size_t idx[2];
        int have_prev = 0;
        for (size_t n = 0; n < c->nnames; n++) {
            size_t t;
            if (!strmap_get(&tasks, c->names[n], &t)) {
                const char **names = alloc(ck, ph->ntasks, sizeof *names);
                pdl_error(ck->d, c->name_locs[n], "unknown task '%s' in ARC", c->names[n]);
                if (names) {
                    for (size_t q = 0; q < ph->ntasks; q++)
                        names[q] = ph->tasks[q].name;
                    const char *s = pdl_closest(c->names[n], names, ph->ntasks);
                    if (s)
                        pdl_note(ck->d, c->name_locs[n], "did you mean '%s'?", s);
                    else
                        pdl_note(ck->d, c->name_locs[n],
                                 "define it with 'TASK %s RUNTIME IS distribution;'", c->names[n]);
                }
                have_prev = 0;
                continue;
            }
            idx[1] = t;
            if (have_prev) {
                from[na] = idx[0];
                to[na] = idx[1];
                where[na] = (pdl_loc){c->loc.file, c->name_locs[n - 1].begin, c->name_locs[n].end};
                na++;
            }
            idx[0] = t;
            have_prev = 1;
        }
    }
    /* Successor lists with duplicates removed (a duplicate arc changes nothing). */
    size_t *deg = alloc(ck, ph->ntasks, sizeof *deg);
    if (!deg)
        return;
    for (size_t k = 0; k < na; k++)
        deg[from[k]]++;
    for (size_t t = 0; t < ph->ntasks; t++) {
        ph->tasks[t].succ = alloc(ck, deg[t], sizeof(size_t));
        if (!ph->tasks[t].succ)
            return;
    }
    pdl_loc **arcloc = alloc(ck, ph->ntasks, sizeof *arcloc);
    if (!arcloc)
        return;
    for (size_t t = 0; t < ph->ntasks; t++)
        arcloc[t] = alloc(ck, deg[t], sizeof(pdl_loc));
    for (size_t k = 0; k < na; k++) {
        pdl_task *t = &ph->tasks[from[k]];
        int dup = 0;
        for (size_t q = 0; q < t->nsucc && !dup; q++)
            dup = t->succ[q] == to[k];
        if (dup) {
            pdl_warning(ck->d, where[k], "arc '%s -> %s' is given twice", t->name,
                        ph->tasks[to[k]].name);
            continue;
        }
        if (arcloc[from[k]])
            arcloc[from[k]][t->nsucc] = where[k];
        t->succ[t->nsucc++] = to[k];
        ph->tasks[to[k]].npred++;
    }
    /* Kahn's algorithm; what is left over contains a cycle, which we name. */
    size_t *indeg = alloc(ck, ph->ntasks, sizeof *indeg);
    ph->topo = alloc(ck, ph->ntasks, sizeof *ph->topo);
    if (!indeg || !ph->topo)
        return;
    size_t head = 0, tail = 0;
    for (size_t t = 0; t < ph->ntasks; t++) {
        indeg[t] = ph->tasks[t].npred;
        if (!indeg[t])
            ph->topo[tail++] = t;
    }
    while (head < tail) {
        pdl_task *t = &ph->tasks[ph->topo[head++]];
        for (size_t q = 0; q < t->nsucc; q++)
            if (--indeg[t->succ[q]] == 0)
                ph->topo[tail++] = t->succ[q];
    }
    if (tail == ph->ntasks)
        return;
    /* Every left-over task has a left-over successor (it is on or leads into a cycle): walk
       successors until a task repeats; the walk from that task is the cycle. */
    size_t *pos = alloc(ck, ph->ntasks, sizeof *pos);
    size_t *path = alloc(ck, ph->ntasks + 1, sizeof *path);
    if (!pos || !path)
        return;
    size_t start = 0;
    while (indeg[start] == 0)
        start++;
    /* Follow a successor that is itself left over. */
    size_t len = 0, v = start;
    for (size_t t = 0; t < ph->ntasks; t++)
        pos[t] = SIZE_MAX;
    pdl_loc first_arc = ph->tasks[v].loc;
    while (pos[v] == SIZE_MAX) {
        pos[v] = len;
        path[len++] = v;
        pdl_task *t = &ph->tasks[v];
        size_t next = SIZE_MAX;
        for (size_t q = 0; q < t->nsucc && next == SIZE_MAX; q++)
            if (indeg[t->succ[q]] > 0)
                next = q;
        if (next == SIZE_MAX)
            break; /* cannot happen: a left-over task always has a left-over successor */
        if (arcloc[v] && pos[t->succ[next]] != SIZE_MAX)
            first_arc = arcloc[v][next];
        v = t->succ[next];
    }
    size_t cyc = pos[v];
    char *text = pdl_arena_strdup(ck->a, ph->tasks[path[cyc]].name);
    for (size_t q = cyc + 1; q < len && text; q++)
        text = pdl_arena_printf(ck->a, "%s -> %s", text, ph->tasks[path[q]].name);
    if (text)
        text = pdl_arena_printf(ck->a, "%s -> %s", text, ph->tasks[path[cyc]].name);
    pdl_error(ck->d, first_arc, "the task graph of phase '%s' has a cycle: %s", ph->name,
              text ? text : "?");
    pdl_note(ck->d, first_arc, "an ARBITRARY phase's tasks and arcs must form a DAG");
}

static void check_work_clause(checker *ck, pdl_phase *ph, pdl_clause *c)
{
    unsigned scope = PDL_SCOPE_P | PDL_SCOPE_VARS | PDL_SCOPE_MACHINE;
    unsigned jscope = ph->scheme == PDL_S_FORK_JOIN ? PDL_SCOPE_J : 0;
    double v;
    switch (c->kind) {
    case PDL_C_SUBTASK_RUNTIME:
        check_dist(ck, c->dist,
                   scope | jscope | (ph->scheme == PDL_S_INDEPENDENT ? PDL_SCOPE_I : 0));
        ph->runtime = c->dist;
        break;
    case PDL_C_SIZE_VECTOR:
        check_count(ck, c->e1, scope, "problem size", 0, NULL);
        ph->units = c->e1;
        break;
    case PDL_C_SIZE_GRID:
        check_count(ck, c->e1, scope, "number of grid rows", 0, NULL);
        check_count(ck, c->e2, scope, "number of grid columns", 0, NULL);
        ph->rows = c->e1;
        ph->units = c->e2;
        break;
    case PDL_C_DISTRIBUTION:
        ph->mapping = c->mapping;
        if (c->e1) {
            check_count(ck, c->e1, scope, "BLOCK CYCLIC block size", 1, NULL);
            ph->block = c->e1;
        }
        break;
    case PDL_C_SCHEDULING:
        ph->dynamic = c->dynamic;
        break;
    case PDL_C_VOLUME:
        if (check_value(ck, c->e1, scope | jscope, &v) == PDL_EVAL_OK && v < 0)
            pdl_error(ck->d, c->e1->loc, "communication volume must not be negative, got %.10g", v);
        ph->volume = c->e1;
        break;
    case PDL_C_DEPENDENCY: {
        uint64_t *seen = alloc(ck, c->nlist, sizeof *seen);
        int *have = alloc(ck, c->nlist, sizeof *have);
        for (size_t k = 0; k < c->nlist; k++) {
            uint64_t dv;
            if (check_count(ck, c->list[k], scope, "dependency distance", 1, &dv) != PDL_EVAL_OK)
                continue;
            for (size_t q = 0; seen && q < k; q++)
                if (have[q] && seen[q] == dv)
                    pdl_warning(ck->d, c->list[k]->loc, "dependency distance %llu is listed twice",
                                (unsigned long long)dv);
            if (seen) {
                seen[k] = dv;
                have[k] = 1;
            }
        }
        ph->deps = c->list;
        ph->ndeps = c->nlist;
        break;
    }
    case PDL_C_INDEP_PART:
        check_part(ck, c, &ph->indep_runtime, &ph->indep_volume);
        break;
    case PDL_C_DEP_PART:
        check_part(ck, c, &ph->dep_runtime, &ph->dep_volume);
        break;
    case PDL_C_STAGES:
        check_count(ck, c->e1, scope, "number of stages", 1, NULL);
        ph->stages = c->e1;
        break;
    case PDL_C_JOBS:
        check_count(ck, c->e1, scope, "number of jobs", 1, NULL);
        ph->jobs = c->e1;
        break;
    case PDL_C_INTERARRIVAL:
        check_dist(ck, c->dist, scope);
        ph->interarrival = c->dist;
        break;
    case PDL_C_TASKS_PER_JOB:
        check_count(ck, c->e1, scope | jscope, "number of tasks per job", 0, NULL);
        ph->tasks_per_job = c->e1;
        break;
    case PDL_C_SCHEME:
    case PDL_C_RUNTIME:
    case PDL_C_TASK:
    case PDL_C_ARC:
    case PDL_C_COUNT:
        break;
    }
}

static void check_phase(checker *ck, pdl_phase *ph)
{
    pdl_clause *seen[PDL_C_COUNT] = {0};
    if (ph->kind != PDL_PH_WORK) {
        const char *kind = pdl_phase_kind_name(ph->kind);
        for (size_t k = 0; k < ph->nclauses; k++) {
            pdl_clause *c = ph->clauses[k];
            if (c->kind != PDL_C_RUNTIME) {
                pdl_error(ck->d, c->key_loc, "'%s' does not belong in a %s phase", clause_label(c),
                          kind);
                pdl_note(ck->d, c->key_loc, "a %s phase has only 'RUNTIME IS distribution;'", kind);
                continue;
            }
            if (seen[PDL_C_RUNTIME]) {
                pdl_error(ck->d, c->key_loc, "'RUNTIME' is given twice in phase '%s'", ph->name);
                pdl_note(ck->d, seen[PDL_C_RUNTIME]->key_loc, "first given here");
                continue;
            }
            seen[PDL_C_RUNTIME] = c;
            check_dist(ck, c->dist, PDL_SCOPE_P | PDL_SCOPE_VARS | PDL_SCOPE_MACHINE);
            ph->runtime = c->dist;
        }
        if (!seen[PDL_C_RUNTIME]) {
            pdl_error(ck->d, ph->name_loc, "%s phase '%s' needs a RUNTIME", kind, ph->name);
            pdl_note(ck->d, ph->name_loc, "add 'RUNTIME IS distribution;'");
        }
        return;
    }
    /* The scheme decides what the other clauses mean, so find it first. */
    for (size_t k = 0; k < ph->nclauses; k++) {
        pdl_clause *c = ph->clauses[k];
        if (c->kind != PDL_C_SCHEME)
            continue;
        if (seen[PDL_C_SCHEME]) {
            pdl_error(ck->d, c->key_loc, "'PARALLELIZATION SCHEME' is given twice in phase '%s'",
                      ph->name);
            pdl_note(ck->d, seen[PDL_C_SCHEME]->key_loc, "first given here");
            continue;
        }
        seen[PDL_C_SCHEME] = c;
        if (c->scheme == PDL_S_NONE) {
            static const char *const schemes[] = {"INDEPENDENT",   "NEIGHBOR",  "NEIGHBOR-TORUS",
                                                  "MACROPIPELINE", "FORK-JOIN", "PAIRED",
                                                  "ARBITRARY"};
            pdl_error(ck->d, c->value_loc, "unknown parallelization scheme '%s'", c->name);
            const char *s = pdl_closest(c->name, schemes, 7);
            if (s)
                pdl_note(ck->d, c->value_loc, "did you mean '%s'?", s);
            else
                pdl_note(ck->d, c->value_loc,
                         "the schemes are INDEPENDENT, NEIGHBOR, NEIGHBOR-TORUS, MACROPIPELINE, "
                         "FORK-JOIN, PAIRED and ARBITRARY");
        }
        ph->scheme = c->scheme;
    }
    if (!seen[PDL_C_SCHEME]) {
        pdl_error(ck->d, ph->name_loc, "work phase '%s' has no PARALLELIZATION SCHEME", ph->name);
        pdl_note(ck->d, ph->name_loc, "add e.g. 'PARALLELIZATION SCHEME IS INDEPENDENT;'");
        return;
    }
    if (ph->scheme == PDL_S_NONE)
        return;
    unsigned bit = 1u << ph->scheme;
    const char *sname = pdl_scheme_name(ph->scheme);
    ph->dynamic = 1; /* DYNAMIC is the default scheduling */
    ph->mapping = PDL_MAP_BLOCK;
    for (size_t k = 0; k < ph->nclauses; k++) {
        pdl_clause *c = ph->clauses[k];
        if (c->kind == PDL_C_SCHEME)
            continue;
        if (c->kind == PDL_C_RUNTIME) {
            pdl_error(ck->d, c->key_loc, "'RUNTIME' does not belong in a work phase");
            pdl_note(ck->d, c->key_loc, "did you mean 'SUBTASK RUNTIME'?");
            continue;
        }
        if (!(clause_rules[c->kind].allowed & bit)) {
            pdl_error(ck->d, c->key_loc, "'%s' does not apply to a %s phase", clause_label(c),
                      sname);
            pdl_note(ck->d, c->key_loc, "%s is used by %s phases", clause_label(c),
                     scheme_list(ck, clause_rules[c->kind].allowed));
            continue;
        }
        pdl_clause_kind g = clause_group(c->kind);
        if (g != PDL_C_TASK && g != PDL_C_ARC) {
            if (seen[g]) {
                pdl_error(ck->d, c->key_loc, "'%s' is given twice in phase '%s'", clause_label(c),
                          ph->name);
                pdl_note(ck->d, seen[g]->key_loc, "first given here");
                continue;
            }
            seen[g] = c;
        }
        check_work_clause(ck, ph, c);
    }
    for (int k = 0; k < PDL_C_COUNT; k++) {
        const clause_rule *r = &clause_rules[k];
        if (!(r->required & bit) || k == PDL_C_SCHEME)
            continue;
        int present = seen[k] != NULL;
        if (k == PDL_C_TASK)
            for (size_t q = 0; q < ph->nclauses; q++)
                present |= ph->clauses[q]->kind == PDL_C_TASK;
        if (!present) {
            pdl_error(ck->d, ph->name_loc, "%s phase '%s' needs %s", sname, ph->name,
                      k == PDL_C_TASK ? "at least one TASK" : pdl_clause_name((pdl_clause_kind)k));
            pdl_note(ck->d, ph->name_loc, "add '%s'", r->example);
        }
    }
    unsigned sized = SB(INDEPENDENT) | SB(NEIGHBOR) | SB(NEIGHBOR_TORUS) | SB(PAIRED);
    if ((sized & bit) && !seen[PDL_C_SIZE_VECTOR]) {
        pdl_error(ck->d, ph->name_loc, "%s phase '%s' needs a PROBLEM SIZE", sname, ph->name);
        pdl_note(ck->d, ph->name_loc,
                 "add 'PROBLEM SIZE IS VECTOR A(n);' or 'PROBLEM SIZE IS GRID B(rows, cols);'");
    }
    /* A mapping the user gives is meant to be used: without SCHEDULING it means STATIC. */
    if (seen[PDL_C_DISTRIBUTION] && !seen[PDL_C_SCHEDULING])
        ph->dynamic = 0;
    if (ph->scheme == PDL_S_PAIRED)
        ph->mapping = PDL_MAP_CYCLIC; /* iterations are dealt out cyclically (models.md) */
    if (ph->scheme == PDL_S_ARBITRARY)
        check_arbitrary(ck, ph);
}

/* ---- execution pattern and concatenation ---- */

/* An element of a first/last set: a phase, or NULL for SYNC. */
typedef struct elemset {
    pdl_phase **items;
    size_t len, cap;
} elemset;

typedef struct patinfo {
    elemset first, last;
    int nullable;
} patinfo;

typedef struct pairset {
    uint64_t *keys;
    pdl_loc *locs;
    size_t cap, len;
} pairset;

typedef struct adjacency {
    checker *ck;
    pairset pairs;
    size_t *mark; /* per phase: stamp of the set being built, for deduplication */
    size_t stamp;
    int overflow;
} adjacency;

enum { MAX_PAIRS = 1000000 };

static int set_add(adjacency *adj, elemset *s, pdl_phase *ph, size_t stamp)
{
    size_t id = ph ? ph->index + 1 : 0;
    if (adj->mark[id] == stamp)
        return 0;
    adj->mark[id] = stamp;
    if (s->len == s->cap) {
        size_t cap = s->cap ? s->cap * 2 : 4;
        pdl_phase **n = alloc(adj->ck, cap, sizeof *n);
        if (!n)
            return -1;
        if (s->len)
            memcpy(n, s->items, s->len * sizeof *n);
        s->items = n;
        s->cap = cap;
    }
    s->items[s->len++] = ph;
    return 0;
}

static void set_union(adjacency *adj, elemset *dst, const elemset *src, size_t stamp)
{
    for (size_t k = 0; k < src->len; k++)
        set_add(adj, dst, src->items[k], stamp);
}

static void pair_add(adjacency *adj, pdl_phase *a, pdl_phase *b, pdl_loc at)
{
    if (!a || !b || a->kind != PDL_PH_WORK || b->kind != PDL_PH_WORK)
        return;
    pairset *p = &adj->pairs;
    uint64_t key = ((uint64_t)a->index << 32) ^ (uint64_t)b->index;
    if (p->cap) {
        size_t h = (size_t)(key * 0x9E3779B97F4A7C15u) & (p->cap - 1);
        while (p->keys[h] != UINT64_MAX) {
            if (p->keys[h] == key)
                return;
            h = (h + 1) & (p->cap - 1);
        }
    }
    if (p->len >= MAX_PAIRS) {
        adj->overflow = 1;
        return;
    }
    if ((p->len + 1) * 2 > p->cap) {
        size_t cap = p->cap ? p->cap * 2 : 64;
        uint64_t *keys = alloc(adj->ck, cap, sizeof *keys);
        pdl_loc *locs = alloc(adj->ck, cap, sizeof *locs);
        if (!keys || !locs)
            return;
        for (size_t k = 0; k < cap; k++)
            keys[k] = UINT64_MAX;
        for (size_t k = 0; k < p->cap; k++) {
            if (p->keys[k] == UINT64_MAX)
                continue;
            size_t h = (size_t)(p->keys[k] * 0x9E3779B97F4A7C15u) & (cap - 1);
            while (keys[h] != UINT64_MAX)
                h = (h + 1) & (cap - 1);
            keys[h] = p->keys[k];
            locs[h] = p->locs[k];
        }
        p->keys = keys;
        p->locs = locs;
        p->cap = cap;
    }
    size_t h = (size_t)(key * 0x9E3779B97F4A7C15u) & (p->cap - 1);
    while (p->keys[h] != UINT64_MAX)
        h = (h + 1) & (p->cap - 1);
    p->keys[h] = key;
    p->locs[h] = at;
    p->len++;
}

static int pair_find(const pairset *p, const pdl_phase *a, const pdl_phase *b, pdl_loc *at)
{
    if (!p->cap)
        return 0;
    uint64_t key = ((uint64_t)a->index << 32) ^ (uint64_t)b->index;
    size_t h = (size_t)(key * 0x9E3779B97F4A7C15u) & (p->cap - 1);
    while (p->keys[h] != UINT64_MAX) {
        if (p->keys[h] == key) {
            if (at)
                *at = p->locs[h];
            return 1;
        }
        h = (h + 1) & (p->cap - 1);
    }
    return 0;
}

static void cross(adjacency *adj, const elemset *last, const elemset *first, pdl_loc at)
{
    for (size_t x = 0; x < last->len && !adj->overflow; x++)
        for (size_t y = 0; y < first->len && !adj->overflow; y++)
            pair_add(adj, last->items[x], first->items[y], at);
}

/* Glushkov-style first/last/nullable, recording every pair of consecutive elements. */
static patinfo follow(adjacency *adj, pdl_pat *p)
{
    patinfo r = {{0}, {0}, 0};
    switch (p->kind) {
    case PDL_P_PHASE:
    case PDL_P_SYNC: {
        pdl_phase *ph = p->kind == PDL_P_SYNC ? NULL : p->phase;
        if (p->kind == PDL_P_PHASE && !ph) {
            r.nullable = 1; /* unknown phase: already an error */
            return r;
        }
        set_add(adj, &r.first, ph, ++adj->stamp);
        set_add(adj, &r.last, ph, ++adj->stamp);
        return r;
    }
    case PDL_P_SEQ: {
        patinfo *kid = alloc(adj->ck, p->nkids, sizeof *kid);
        if (!kid)
            return r;
        for (size_t k = 0; k < p->nkids; k++)
            kid[k] = follow(adj, p->kids[k]);
        /* Last of kid k meets first of kid k+1, and of later kids across nullable ones. */
        for (size_t k = 0; k < p->nkids; k++) {
            for (size_t m = k + 1; m < p->nkids; m++) {
                cross(adj, &kid[k].last, &kid[m].first, p->kids[m]->loc);
                if (!kid[m].nullable)
                    break;
            }
        }
        size_t st = ++adj->stamp;
        r.nullable = 1;
        for (size_t k = 0; k < p->nkids && r.nullable; k++) {
            set_union(adj, &r.first, &kid[k].first, st);
            r.nullable = kid[k].nullable;
        }
        st = ++adj->stamp;
        int tail_nullable = 1;
        for (size_t k = p->nkids; k-- > 0 && tail_nullable;) {
            set_union(adj, &r.last, &kid[k].last, st);
            tail_nullable = kid[k].nullable;
        }
        return r;
    }
    case PDL_P_ALT: {
        size_t sf = ++adj->stamp;
        patinfo *kid = alloc(adj->ck, p->nkids, sizeof *kid);
        if (!kid)
            return r;
        for (size_t k = 0; k < p->nkids; k++)
            kid[k] = follow(adj, p->kids[k]);
        sf = ++adj->stamp;
        for (size_t k = 0; k < p->nkids; k++) {
            set_union(adj, &r.first, &kid[k].first, sf);
            r.nullable |= kid[k].nullable;
        }
        size_t sl = ++adj->stamp;
        for (size_t k = 0; k < p->nkids; k++)
            set_union(adj, &r.last, &kid[k].last, sl);
        return r;
    }
    case PDL_P_POW:
    case PDL_P_STAR:
    case PDL_P_PLUS: {
        patinfo kid = follow(adj, p->kids[0]);
        double n = 2;
        int known = 0;
        if (p->kind == PDL_P_POW) {
            pdl_env env = adj->ck->env;
            env.scope = PDL_SCOPE_VARS | PDL_SCOPE_MACHINE;
            known = pdl_eval(p->arg, &env, NULL, &n) == PDL_EVAL_OK;
        }
        if (known && n == 0) {
            r.nullable = 1;
            return r;
        }
        if (!known || n >= 2 || p->kind != PDL_P_POW)
            cross(adj, &kid.last, &kid.first, p->loc);
        r = kid;
        r.nullable = kid.nullable || p->kind == PDL_P_STAR || (p->kind == PDL_P_POW && !known);
        return r;
    }
    }
    return r;
}

static void check_pattern(checker *ck, pdl_pat *p)
{
    unsigned scope = PDL_SCOPE_P | PDL_SCOPE_VARS | PDL_SCOPE_MACHINE;
    double v;
    switch (p->kind) {
    case PDL_P_PHASE: {
        size_t idx;
        if (strmap_get(&ck->phasemap, p->name, &idx)) {
            p->phase = ck->prog->phases[idx];
            p->phase->used = 1;
            return;
        }
        pdl_error(ck->d, p->loc, "unknown phase '%s' in execution pattern", p->name);
        const char **names = alloc(ck, ck->prog->nphases, sizeof *names);
        if (!names)
            return;
        for (size_t k = 0; k < ck->prog->nphases; k++)
            names[k] = ck->prog->phases[k]->name;
        const char *s = pdl_closest(p->name, names, ck->prog->nphases);
        if (s)
            pdl_note(ck->d, p->loc, "did you mean '%s'?", s);
        else
            pdl_note(ck->d, p->loc, "define it with 'WORK PHASE %s IS: ... END;'", p->name);
        return;
    }
    case PDL_P_SYNC:
        return;
    case PDL_P_SEQ:
        for (size_t k = 0; k < p->nkids; k++)
            check_pattern(ck, p->kids[k]);
        return;
    case PDL_P_ALT: {
        size_t given = 0, first_missing = SIZE_MAX, first_given = SIZE_MAX;
        for (size_t k = 0; k < p->nkids; k++) {
            if (p->weights[k]) {
                given++;
                if (first_given == SIZE_MAX)
                    first_given = k;
            } else if (first_missing == SIZE_MAX) {
                first_missing = k;
            }
        }
        if (given && given < p->nkids) {
            pdl_error(ck->d, p->kids[first_missing]->loc, "this branch has no weight");
            pdl_note(ck->d, p->weights[first_given]->loc,
                     "give every branch a weight, or none (equally likely branches)");
        }
        double sum = 0;
        int all_known = given == p->nkids;
        for (size_t k = 0; k < p->nkids; k++) {
            if (p->weights[k]) {
                pdl_eval_status s = check_value(ck, p->weights[k], scope, &v);
                if (s == PDL_EVAL_OK && !(v >= 0 && v <= 1))
                    pdl_error(ck->d, p->weights[k]->loc,
                              "a branch weight must be between 0 and 1, got %.10g", v);
                if (s == PDL_EVAL_OK)
                    sum += v;
                else
                    all_known = 0;
            }
            check_pattern(ck, p->kids[k]);
        }
        if (all_known && fabs(sum - 1) > 1e-9)
            pdl_error(ck->d, p->loc, "branch weights sum to %.10g, not 1", sum);
        return;
    }
    case PDL_P_POW:
        check_count(ck, p->arg, scope, "repetition count", 0, NULL);
        check_pattern(ck, p->kids[0]);
        return;
    case PDL_P_STAR:
    case PDL_P_PLUS:
        if (check_value(ck, p->arg, scope, &v) == PDL_EVAL_OK && !(v >= 0 && v < 1)) {
            pdl_error(ck->d, p->arg->loc,
                      "a loop's repeat probability must be in [0, 1), got %.10g", v);
            pdl_note(ck->d, p->arg->loc,
                     "'%s[q]' repeats with probability q, so q = 1 would never end",
                     p->kind == PDL_P_STAR ? "*" : "+");
        }
        check_pattern(ck, p->kids[0]);
        return;
    }
}

static void check_concatenation(checker *ck)
{
    pdl_program *prog = ck->prog;
    adjacency adj = {ck, {0}, NULL, 0, 0};
    adj.mark = alloc(ck, prog->nphases + 1, sizeof *adj.mark);
    if (!adj.mark || !prog->pattern)
        return;
    follow(&adj, prog->pattern);
    if (adj.overflow)
        pdl_warning(ck->d, prog->pattern_loc,
                    "the execution pattern has more than %d pairs of consecutive work phases; "
                    "concatenation checks are incomplete",
                    MAX_PAIRS);
    /* Entries: names, kinds, adjacency, duplicates. */
    for (size_t k = 0; k < prog->nconcats; k++) {
        pdl_concat *c = prog->concats[k];
        const char *names[2] = {c->first, c->second};
        pdl_loc locs[2] = {c->first_loc, c->second_loc};
        pdl_phase *ph[2] = {NULL, NULL};
        for (int s = 0; s < 2; s++) {
            size_t idx;
            if (!strmap_get(&ck->phasemap, names[s], &idx)) {
                pdl_error(ck->d, locs[s], "unknown phase '%s' in concatenation", names[s]);
                const char **all = alloc(ck, prog->nphases, sizeof *all);
                if (all) {
                    for (size_t q = 0; q < prog->nphases; q++)
                        all[q] = prog->phases[q]->name;
                    const char *sug = pdl_closest(names[s], all, prog->nphases);
                    if (sug)
                        pdl_note(ck->d, locs[s], "did you mean '%s'?", sug);
                }
                continue;
            }
            ph[s] = prog->phases[idx];
            if (ph[s]->kind != PDL_PH_WORK) {
                pdl_error(ck->d, locs[s],
                          "'%s' is a %s phase; a concatenation joins two work phases", names[s],
                          pdl_phase_kind_name(ph[s]->kind));
                ph[s] = NULL;
            }
        }
        if (!ph[0] || !ph[1])
            continue;
        c->a = ph[0];
        c->b = ph[1];
        for (size_t q = 0; q < k; q++) {
            pdl_concat *o = prog->concats[q];
            if (o->a == c->a && o->b == c->b) {
                pdl_error(ck->d, c->loc, "concatenation of '%s' and '%s' is given twice", c->first,
                          c->second);
                pdl_note(ck->d, o->loc, "first given here");
                c->a = c->b = NULL;
                break;
            }
        }
        if (c->a && !adj.overflow && !pair_find(&adj.pairs, c->a, c->b, NULL)) {
            pdl_error(ck->d, c->loc,
                      "'%s' is never directly followed by '%s' in the execution pattern", c->first,
                      c->second);
            pdl_note(ck->d, c->loc,
                     "a concatenation joins two work phases with no SYNC or other phase between "
                     "them");
            c->a = c->b = NULL;
        }
    }
    /* Consecutive work phases with no entry: BARRIER, with a warning naming the pair. */
    pairset *p = &adj.pairs;
    size_t nmissing = 0;
    for (size_t h = 0; h < p->cap; h++)
        nmissing += p->keys[h] != UINT64_MAX;
    uint64_t *keys = alloc(ck, nmissing, sizeof *keys);
    pdl_loc *locs = alloc(ck, nmissing, sizeof *locs);
    if (!keys || !locs)
        return;
    size_t n = 0;
    for (size_t h = 0; h < p->cap; h++) {
        if (p->keys[h] == UINT64_MAX)
            continue;
        size_t a = (size_t)(p->keys[h] >> 32), b = (size_t)(p->keys[h] & 0xFFFFFFFFu);
        int found = 0;
        for (size_t k = 0; k < prog->nconcats && !found; k++)
            found =
                prog->concats[k]->a == prog->phases[a] && prog->concats[k]->b == prog->phases[b];
        if (!found) {
            keys[n] = p->keys[h];
            locs[n] = p->locs[h];
            n++;
        }
    }
    /* In source order, so the warnings read top to bottom. */
    for (size_t x = 1; x < n; x++) {
        for (size_t y = x; y > 0 && locs[y].begin < locs[y - 1].begin; y--) {
            uint64_t tk = keys[y];
            keys[y] = keys[y - 1];
            keys[y - 1] = tk;
            pdl_loc tl = locs[y];
            locs[y] = locs[y - 1];
            locs[y - 1] = tl;
        }
        if (x > 1000)
            break;
    }
    for (size_t x = 0; x < n && x < 100; x++) {
        pdl_phase *a = prog->phases[keys[x] >> 32], *b = prog->phases[keys[x] & 0xFFFFFFFFu];
        pdl_warning(ck->d, locs[x],
                    "no concatenation given for '%s' followed by '%s'; BARRIER assumed", a->name,
                    b->name);
        pdl_note(ck->d, locs[x],
                 "add '%s, %s : BARRIER;' (or SERIAL, NEIGHBOR, ...) to a "
                 "CONCATENATION block",
                 a->name, b->name);
    }
}

/* ---- variables ---- */

static void check_variables(checker *ck, const pdl_setvar *sets, size_t nsets)
{
    pdl_program *prog = ck->prog;
    size_t n = prog->nparams + nsets;
    ck->vars = alloc(ck, n, sizeof *ck->vars);
    ck->info = alloc(ck, n, sizeof *ck->info);
    if (!ck->vars || !ck->info)
        return;
    for (size_t k = 0; k < prog->nparams; k++) {
        pdl_param *pa = prog->params[k];
        if (is_builtin_var(pa->name, NULL)) {
            pdl_error(ck->d, pa->loc, "'%s' is a built-in name and cannot be a parameter",
                      pa->name);
            continue;
        }
        int r = strmap_put(ck->a, &ck->varmap, pa->name, ck->nvars);
        if (r == 1) {
            size_t first = 0; /* set by strmap_get: the name is present */
            strmap_get(&ck->varmap, pa->name, &first);
            pdl_error(ck->d, pa->loc, "parameter '%s' is declared twice", pa->name);
            pdl_note(ck->d, ck->info[first].decl, "first declared here");
            continue;
        }
        if (r < 0)
            return;
        ck->vars[ck->nvars].name = pa->name;
        ck->info[ck->nvars].decl = pa->loc;
        ck->info[ck->nvars].declared = 1;
        ck->nvars++;
    }
    size_t declared = ck->nvars;
    for (size_t k = 0; k < nsets; k++) {
        size_t slot;
        if (!strmap_get(&ck->varmap, sets[k].name, &slot)) {
            /* Undeclared but given: the paper's programs use height and width this way. */
            if (strmap_put(ck->a, &ck->varmap, sets[k].name, ck->nvars) < 0)
                return;
            slot = ck->nvars++;
            ck->vars[slot].name = sets[k].name;
        }
        ck->vars[slot].value = sets[k].value;
        ck->vars[slot].known = 1;
        ck->info[slot].from_set = 1;
        ck->info[slot].swept = sets[k].swept;
    }
    ck->env.vars = ck->vars;
    ck->env.nvars = ck->nvars;
    /* Defaults in declaration order; a default may use parameters declared before it. */
    for (size_t k = 0, slot = 0; k < prog->nparams; k++) {
        pdl_param *pa = prog->params[k];
        size_t s;
        if (!strmap_get(&ck->varmap, pa->name, &s) || ck->info[s].decl.begin != pa->loc.begin ||
            ck->info[s].decl.file != pa->loc.file)
            continue; /* a duplicate or a built-in name, already reported */
        slot = s;
        if (!pa->value || ck->info[slot].from_set)
            continue;
        ck->decl_limit = slot;
        double v;
        if (check_value(ck, pa->value, PDL_SCOPE_VARS | PDL_SCOPE_MACHINE, &v) == PDL_EVAL_OK) {
            ck->vars[slot].value = v;
            ck->vars[slot].known = 1;
        } else {
            /* Its default was reported; uses of it fail quietly rather than repeat that. */
            already_reported(ck, pa->name);
        }
    }
    ck->decl_limit = SIZE_MAX;
    (void)declared;
}

static void report_unused(checker *ck)
{
    pdl_program *prog = ck->prog;
    for (size_t k = 0; k < prog->nphases; k++) {
        pdl_phase *ph = prog->phases[k];
        if (!ph->used && prog->pattern)
            pdl_warning(ck->d, ph->name_loc,
                        "phase '%s' is defined but not used in the execution pattern", ph->name);
    }
    const char **names = alloc(ck, ck->nvars, sizeof *names);
    for (size_t k = 0; k < ck->nvars; k++) {
        if (ck->info[k].used)
            continue;
        if (ck->info[k].swept) {
            /* Every value would give the same rows: surely not what was meant. */
            pdl_error(ck->d, (pdl_loc){0, 0, 0},
                      "'--sweep %s' names no variable that the program uses", ck->vars[k].name);
        } else if (ck->info[k].declared) {
            pdl_warning(ck->d, ck->info[k].decl, "parameter '%s' is declared but never used",
                        ck->vars[k].name);
            continue;
        } else {
            /* Only given with --set: most likely a misspelling. */
            pdl_warning(ck->d, (pdl_loc){0, 0, 0}, "'--set %s' names no variable of the program",
                        ck->vars[k].name);
        }
        size_t m = 0;
        for (size_t q = 0; names && q < ck->nvars; q++)
            if (q != k && (ck->info[q].used || ck->info[q].declared))
                names[m++] = ck->vars[q].name;
        const char *s = names ? pdl_closest(ck->vars[k].name, names, m) : NULL;
        if (s)
            pdl_note(ck->d, (pdl_loc){0, 0, 0}, "did you mean '%s'?", s);
    }
}

/* ---- entry points ---- */

char *pdl_expand_string(pdl_diag *d, pdl_arena *a, const char *s, pdl_loc at, const pdl_machine *m,
                        const pdl_binding *vars, size_t nvars)
{
    char *out = pdl_arena_strdup(a, "");
    for (const char *q = s; out && *q;) {
        const char *dollar = strchr(q, '$');
        if (!dollar) {
            out = pdl_arena_printf(a, "%s%s", out, q);
            break;
        }
        out = pdl_arena_printf(a, "%s%.*s", out, (int)(dollar - q), q);
        const char *nb = dollar + 1, *ne = nb;
        while (*ne == '_' || (*ne >= 'A' && *ne <= 'Z') || (*ne >= 'a' && *ne <= 'z') ||
               (ne > nb && *ne >= '0' && *ne <= '9'))
            ne++;
        if (ne == nb) { /* a lone '$' stands for itself */
            out = out ? pdl_arena_printf(a, "%s$", out) : NULL;
            q = nb;
            continue;
        }
        size_t len = (size_t)(ne - nb);
        const char *val = NULL;
        if (len == 4 && strncmp(nb, "ARCH", 4) == 0) {
            val = m->name;
        } else {
            for (size_t k = 0; k < nvars; k++) {
                if (strlen(vars[k].name) == len && strncmp(vars[k].name, nb, len) == 0 &&
                    vars[k].known) {
                    double v = vars[k].value;
                    val = v == floor(v) && fabs(v) < 1e15 ? pdl_arena_printf(a, "%.0f", v)
                                                          : pdl_arena_printf(a, "%.17g", v);
                    break;
                }
            }
        }
        if (!val) {
            pdl_error(d, at, "unknown name '$%.*s' in file name", (int)len, nb);
            pdl_note(d, at, "$ARCH is the machine's name; $NAME is the value of variable NAME");
            return NULL;
        }
        out = out ? pdl_arena_printf(a, "%s%s", out, val) : NULL;
        q = ne;
    }
    return out;
}

pdl_checked *pdl_check_program(pdl_diag *d, pdl_arena *a, pdl_program *prog, const pdl_setvar *sets,
                               size_t nsets, const pdl_machine *const *machines, size_t nmachines)
{
    checker ck;
    memset(&ck, 0, sizeof ck);
    ck.d = d;
    ck.a = a;
    ck.prog = prog;
    ck.machines = machines;
    ck.nmachines = nmachines;
    ck.decl_limit = SIZE_MAX;
    pdl_machine_env(machines[0], &ck.env);
    size_t before = pdl_diag_errors(d);

    const char *path = pdl_diag_path(d, prog->file);
    const char *slash = strrchr(path, '/');
    ck.prog_dir =
        slash ? pdl_arena_strndup(a, path, (size_t)(slash - path) + 1) : pdl_arena_strdup(a, "");
    if (!ck.prog_dir)
        return NULL;

    check_variables(&ck, sets, nsets);
    for (size_t k = 0; k < prog->nphases && !ck.oom; k++) {
        pdl_phase *ph = prog->phases[k];
        int r = strmap_put(a, &ck.phasemap, ph->name, k);
        if (r == 1) {
            size_t first = 0; /* set by strmap_get: the name is present */
            strmap_get(&ck.phasemap, ph->name, &first);
            pdl_error(d, ph->name_loc, "phase '%s' is defined twice", ph->name);
            pdl_note(d, prog->phases[first]->name_loc, "first defined here");
        }
    }
    for (size_t k = 0; k < prog->nphases && !ck.oom; k++)
        check_phase(&ck, prog->phases[k]);
    if (!prog->pattern) {
        pdl_error(d, prog->header_loc.file ? prog->header_loc : (pdl_loc){prog->file, 0, 0},
                  "program '%s' has no execution pattern", prog->name ? prog->name : "");
        pdl_note(d, prog->header_loc, "add 'EXECUTION PATTERN IS phase -> phase ... ;'");
    } else {
        check_pattern(&ck, prog->pattern);
        if (pdl_diag_errors(d) == before)
            check_concatenation(&ck);
    }
    if (pdl_diag_errors(d) == before)
        report_unused(&ck);
    if (ck.oom || pdl_diag_errors(d) != before)
        return NULL;
    pdl_checked *res = pdl_arena_calloc(a, 1, sizeof *res);
    if (!res)
        return NULL;
    res->prog = prog;
    res->vars = ck.vars;
    res->nvars = ck.nvars;
    res->machines = machines;
    res->nmachines = nmachines;
    return res;
}

pdl_machine *pdl_check_machine(pdl_diag *d, pdl_arena *a, const pdl_machine_ast *ast)
{
    checker ck;
    memset(&ck, 0, sizeof ck);
    ck.d = d;
    ck.a = a;
    ck.decl_limit = SIZE_MAX;
    pdl_env_init(&ck.env);
    ck.env.scope = 0;
    size_t before = pdl_diag_errors(d);
    pdl_machine *m = alloc(&ck, 1, sizeof *m);
    if (!m)
        return NULL;
    pdl_machine_ideal(m);
    m->ideal = 0;
    m->name = ast->name;
    m->file = ast->file;
    if (!ast->name || !ast->name[0])
        pdl_error(d, ast->name_loc, "machine name is empty");
    const pdl_mstmt *seen[PDL_M_COUNT] = {0};
    const pdl_mstmt *seen_size[PDL_T_COUNT] = {0};
    double v;
    for (size_t k = 0; k < ast->nstmts; k++) {
        const pdl_mstmt *s = ast->stmts[k];
        const pdl_mstmt **slot = s->kind == PDL_M_SIZEOF ? &seen_size[s->ctype] : &seen[s->kind];
        if (*slot) {
            pdl_error(d, s->key_loc, "'%s' is given twice in machine '%s'", pdl_mstmt_name(s->kind),
                      m->name);
            pdl_note(d, (*slot)->key_loc, "first given here");
            continue;
        }
        *slot = s;
        switch (s->kind) {
        case PDL_M_RTFACTOR:
            if (check_value(&ck, s->e1, 0, &v) == PDL_EVAL_OK) {
                if (!(v > 0))
                    pdl_error(d, s->e1->loc, "RTFACTOR must be positive, got %.10g", v);
                m->rtfactor = v;
            }
            break;
        case PDL_M_SIZEOF: {
            uint64_t n;
            if (check_count(&ck, s->e1, 0, "SIZEOF", 1, &n) == PDL_EVAL_OK)
                m->sizes[s->ctype] = (double)n;
            break;
        }
        case PDL_M_COMMUNICATION:
            m->shared_memory = s->shared_memory;
            break;
        case PDL_M_LOGGP: {
            static const char *const names[] = {"L", "o", "g", "G"};
            double *dst[] = {&m->L, &m->o, &m->g, &m->G};
            int have[4] = {0, 0, 0, 0};
            for (size_t q = 0; q < s->nvalues; q++) {
                int which = -1;
                for (int t = 0; t < 4; t++)
                    if (strcmp(s->names[q], names[t]) == 0)
                        which = t;
                if (which < 0) {
                    pdl_error(d, s->name_locs[q], "unknown LogGP parameter '%s'", s->names[q]);
                    pdl_note(d, s->name_locs[q],
                             "the parameters are L (latency), o (overhead), g (gap) and G (gap "
                             "per byte)");
                    continue;
                }
                if (have[which]) {
                    pdl_error(d, s->name_locs[q], "LogGP parameter '%s' is given twice",
                              s->names[q]);
                    continue;
                }
                have[which] = 1;
                if (check_value(&ck, s->values[q], 0, &v) == PDL_EVAL_OK) {
                    if (v < 0)
                        pdl_error(d, s->values[q]->loc,
                                  "LogGP parameter '%s' must not be negative, got %.10g",
                                  s->names[q], v);
                    *dst[which] = v;
                }
            }
            for (int t = 0; t < 4; t++)
                if (!have[t])
                    pdl_error(d, s->loc, "LOGGP needs L, o, g and G; '%s' is missing", names[t]);
            m->msg = PDL_MSG_LOGGP;
            break;
        }
        case PDL_M_MESSAGE_TIME:
            m->msg = PDL_MSG_FORMULA;
            m->msg_time = s->e1;
            m->msg_loc = s->e1->loc;
            if (check_expr(&ck, s->e1, PDL_SCOPE_MSG | PDL_SCOPE_P) == 0) {
                /* Try a few typical messages now, so a formula that goes negative (say, a fit
                   meant only for long messages) is found before any model is built. */
                static const double sizes[] = {1, 100, 1e4, 1e6};
                double t;
                for (size_t q = 0; q < 4; q++)
                    if (pdl_machine_message_time(m, sizes[q], 1, 2, d, &t) != 0)
                        break;
            }
            break;
        case PDL_M_TOPOLOGY:
            m->topology = s->topology;
            if (s->e1) {
                uint64_t r = 0, c = 0;
                const char *what = s->topology == PDL_TOPO_MESH ? "mesh" : "torus";
                char w1[32], w2[32];
                snprintf(w1, sizeof w1, "%s rows", what);
                snprintf(w2, sizeof w2, "%s columns", what);
                if (check_count(&ck, s->e1, 0, w1, 1, &r) == PDL_EVAL_OK)
                    m->dims[0] = r;
                if (check_count(&ck, s->e2, 0, w2, 1, &c) == PDL_EVAL_OK)
                    m->dims[1] = c;
            }
            break;
        case PDL_M_BARRIER_TIME:
            check_dist(&ck, s->dist, PDL_SCOPE_P);
            m->barrier = s->dist;
            break;
        case PDL_M_CONTENTION:
            check_dist(&ck, s->dist, PDL_SCOPE_P);
            m->contention = s->dist;
            break;
        case PDL_M_COUNT:
            break;
        }
    }
    if (seen[PDL_M_LOGGP] && seen[PDL_M_MESSAGE_TIME]) {
        pdl_error(d, seen[PDL_M_MESSAGE_TIME]->key_loc,
                  "give either LOGGP or MESSAGE TIME, not both");
        pdl_note(d, seen[PDL_M_LOGGP]->key_loc, "LOGGP is given here");
    }
    return pdl_diag_errors(d) == before ? m : NULL;
}
