/* pdl_gen: walks the execution pattern for one (machine, p) and composes the scaled model:
 * SERIAL-joined work phases compose per processor, every other join synchronises (plus the
 * machine's barrier time for BARRIER and SYNC), branches mix and loops sum geometrically.
 * The scheme generators (pdl_gen_*.c) supply each work phase instance as per-processor shares. */
#include "pdl_gen.h"

#include "pdl_numfile.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---- caches ---- */

/* A distribution built from (AST node, machine, parameter values): the same ERLANG(8, 1) is
 * discretised once for the whole run, not once per processor count. */
typedef struct dist_entry {
    const void *node;
    size_t machine;
    size_t nargs;
    double args[64];
    sol_dist *dist;
} dist_entry;

/* x^(2^k) for k < npow, kept for the whole run: sums of x for any count reuse them. */
typedef struct power_entry {
    const sol_dist *base; /* retained in pow[0] */
    sol_dist *pow[64];
    size_t npow;
} power_entry;

/* Recent m-fold sums: the same counts recur from one p to the next (n/p rounded changes slowly,
 * and parts that do not depend on p recur for every p). Direct-mapped by (base, m); the base is
 * retained so its address cannot be reused while the entry lives. */
typedef struct sum_entry {
    sol_dist *base, *sum; /* NULL: empty */
    uint64_t m;
} sum_entry;
enum { SUM_SLOTS = 128 };
/* Lattice points the sum cache may hold (8 bytes each: 64 MiB at most). */
#define SUM_CACHE_POINTS ((size_t)8 << 20)

typedef struct phase_entry {
    int have;
    pdl_shares sh;
} phase_entry;

/* The memo: MEMO_SLOTS recent (key, result) pairs, replaced round robin. Keys longer than
 * MEMO_KEY_MAX bytes (task graphs of tens of thousands of nodes) are not kept: 64 of them would
 * hold too much memory for what they are likely to save. */
typedef struct memo_entry {
    pdl_key key;
    sol_dist *d; /* NULL: empty */
} memo_entry;
enum { MEMO_SLOTS = 64, MEMO_KEY_MAX = 256 * 1024 };

struct pdl_gen {
    const pdl_checked *prog;
    pdl_diag *d;
    sol_ctx *sc;
    size_t machine;
    const pdl_machine *m;
    uint64_t p;
    pdl_env env;
    sol_dist *zero;
    dist_entry *cache;
    size_t ncache, capcache;
    size_t *slots; /* hash of cache indices, SIZE_MAX empty */
    size_t capslots;
    power_entry *powers;
    size_t npowers, cappowers;
    sum_entry sums[SUM_SLOTS];
    size_t sum_points; /* lattice points held by sums[] */
    memo_entry memo[MEMO_SLOTS];
    size_t memo_next;    /* the slot replaced next */
    phase_entry *phases; /* per phase of the program, valid for the current (machine, p) */
    char where[160];     /* " (at p = 4 on machine 'x')" for messages */
    pdl_loc here;        /* the pattern node or phase being built: where errors without a more
                            precise place point */
    int mean_only;       /* see pdl_gen_set_mean_only */
    size_t graph_limit;  /* nodes of a generic graph */
    const unsigned char *zero_phase; /* see pdl_gen_set_zeroed */
    int no_comm, no_sync;
};

static int zeroed(const pdl_gen *g, const pdl_phase *ph)
{
    return g->zero_phase && g->zero_phase[ph->index];
}

static int oom(pdl_gen *g)
{
    pdl_error(g->d, (pdl_loc){0, 0, 0}, "out of memory building the model");
    return -1;
}

int pdl_gen_nomem(pdl_gen *g)
{
    return oom(g);
}

static int var_is(void *ctx, const pdl_expr *v)
{
    return v->var == *(const pdl_builtin_var *)ctx;
}

int pdl_expr_uses(const pdl_expr *e, pdl_builtin_var v)
{
    return e && pdl_expr_walk_vars(e, var_is, &v);
}

int pdl_dist_uses(const pdl_dist *d, pdl_builtin_var v)
{
    for (size_t k = 0; d && k < d->nargs; k++)
        if (pdl_expr_uses(d->args[k].expr, v))
            return 1;
    return 0;
}

pdl_gen *pdl_gen_alloc(const pdl_checked *prog, pdl_diag *d, size_t precision)
{
    pdl_gen *g = calloc(1, sizeof *g);
    if (!g)
        return NULL;
    g->prog = prog;
    g->d = d;
    g->graph_limit = PDL_MAX_GRAPH_NODES;
    g->sc = sol_ctx_alloc();
    g->phases = calloc(prog->prog->nphases ? prog->prog->nphases : 1, sizeof *g->phases);
    if (!g->sc || !g->phases || sol_dist_deterministic(g->sc, 0, &g->zero) != SOL_OK ||
        (precision && sol_ctx_set_max_len(g->sc, precision) != SOL_OK)) {
        pdl_gen_free(g);
        return NULL;
    }
    return g;
}

static void clear_phases(pdl_gen *g)
{
    for (size_t k = 0; k < g->prog->prog->nphases; k++) {
        if (g->phases[k].have)
            pdl_shares_free(&g->phases[k].sh);
        g->phases[k].have = 0;
    }
}

/* ---- the memo ---- */

void pdl_key_init(pdl_key *k)
{
    memset(k, 0, sizeof *k);
}

void pdl_key_free(pdl_key *k)
{
    for (size_t i = 0; i < k->nkeep; i++)
        sol_dist_free(k->keep[i]);
    free(k->keep);
    free(k->b);
    memset(k, 0, sizeof *k);
}

void pdl_key_add(pdl_key *k, const void *bytes, size_t len)
{
    if (k->failed)
        return;
    if (len > k->cap - k->n) {
        size_t cap = k->cap ? k->cap : 256;
        while (len > cap - k->n && cap < SIZE_MAX / 2)
            cap *= 2;
        unsigned char *b = len <= cap - k->n ? realloc(k->b, cap) : NULL;
        if (!b) {
            k->failed = 1;
            return;
        }
        k->b = b;
        k->cap = cap;
    }
    memcpy(k->b + k->n, bytes, len);
    k->n += len;
}

void pdl_key_dist(pdl_key *k, const sol_dist *d)
{
    size_t len = sol_dist_len(d);
    unsigned char lattice = (unsigned char)sol_dist_is_lattice(d);
    pdl_key_add(k, &lattice, 1);
    if (!lattice) {
        pdl_key_add(k, &len, sizeof len);
        for (size_t i = 0; i < len; i++) {
            double vm[2] = {sol_dist_value(d, i), sol_dist_mass(d, i)};
            pdl_key_add(k, vm, sizeof vm);
        }
        return;
    }
    pdl_key_add(k, &d, sizeof d);
    if (k->failed)
        return;
    if (k->nkeep == k->capkeep) {
        size_t cap = k->capkeep ? 2 * k->capkeep : 8;
        sol_dist **keep = realloc(k->keep, cap * sizeof *keep);
        if (!keep) {
            k->failed = 1;
            return;
        }
        k->keep = keep;
        k->capkeep = cap;
    }
    k->keep[k->nkeep++] = sol_dist_retain(d);
}

void pdl_key_graph(pdl_key *k, const sol_graph *graph)
{
    size_t n = sol_graph_node_count(graph), a = sol_graph_arc_count(graph);
    pdl_key_add(k, &n, sizeof n);
    pdl_key_add(k, &a, sizeof a);
    for (uint32_t v = 0; v < n && !k->failed; v++) {
        uint32_t tag = sol_graph_node_tag(graph, v);
        pdl_key_add(k, &tag, sizeof tag);
        pdl_key_dist(k, sol_graph_node_dist(graph, v));
    }
    for (size_t i = 0; i < a && !k->failed; i++) {
        uint32_t ft[2];
        sol_graph_arc(graph, i, &ft[0], &ft[1]);
        pdl_key_add(k, ft, sizeof ft);
    }
}

int pdl_gen_memo_get(pdl_gen *g, const pdl_key *k, sol_dist **out)
{
    if (k->failed)
        return 0;
    for (size_t i = 0; i < MEMO_SLOTS; i++) {
        const memo_entry *e = &g->memo[i];
        if (e->d && e->key.n == k->n && (k->n == 0 || memcmp(e->key.b, k->b, k->n) == 0)) {
            *out = sol_dist_retain(e->d);
            return 1;
        }
    }
    return 0;
}

static void memo_clear(pdl_gen *g)
{
    for (size_t i = 0; i < MEMO_SLOTS; i++)
        if (g->memo[i].d) {
            sol_dist_free(g->memo[i].d);
            pdl_key_free(&g->memo[i].key);
            g->memo[i].d = NULL;
        }
}

void pdl_gen_memo_put(pdl_gen *g, pdl_key *k, const sol_dist *d)
{
    if (k->failed || k->n > MEMO_KEY_MAX) {
        pdl_key_free(k);
        return;
    }
    memo_entry *e = &g->memo[g->memo_next];
    g->memo_next = (g->memo_next + 1) % MEMO_SLOTS;
    if (e->d) {
        sol_dist_free(e->d);
        pdl_key_free(&e->key);
    }
    e->key = *k;
    e->d = sol_dist_retain(d);
    pdl_key_init(k);
}

void pdl_gen_free(pdl_gen *g)
{
    if (!g)
        return;
    if (g->phases)
        clear_phases(g);
    free(g->phases);
    for (size_t k = 0; k < g->ncache; k++)
        sol_dist_free(g->cache[k].dist);
    free(g->cache);
    free(g->slots);
    for (size_t k = 0; k < g->npowers; k++)
        for (size_t j = 0; j < g->powers[k].npow; j++)
            sol_dist_free(g->powers[k].pow[j]);
    free(g->powers);
    memo_clear(g);
    for (size_t k = 0; k < SUM_SLOTS; k++)
        if (g->sums[k].sum) {
            sol_dist_free(g->sums[k].base);
            sol_dist_free(g->sums[k].sum);
        }
    sol_dist_free(g->zero);
    sol_ctx_free(g->sc);
    free(g);
}

void pdl_gen_set_mean_only(pdl_gen *g, int on)
{
    g->mean_only = on;
    memo_clear(g); /* sums of diagonals differ */
}

int pdl_gen_linear(pdl_gen *g, sol_dist **d)
{
    if (!g->mean_only || (!sol_dist_is_lattice(*d) && sol_dist_len(*d) == 1))
        return 0;
    sol_dist *pt;
    if (pdl_gen_point(g, sol_dist_mean(*d), g->here, &pt) != 0)
        return -1;
    sol_dist_free(*d);
    *d = pt;
    return 0;
}

int pdl_gen_sum_linear(pdl_gen *g, const sol_dist *x, uint64_t m, sol_dist **out)
{
    if (g->mean_only)
        return pdl_gen_point(g, (double)m * sol_dist_mean(x), g->here, out);
    return pdl_gen_sum(g, x, m, out);
}

sol_ctx *pdl_gen_solver(pdl_gen *g)
{
    return g->sc;
}

uint64_t pdl_gen_p(const pdl_gen *g)
{
    return g->p;
}

const pdl_machine *pdl_gen_machine(const pdl_gen *g)
{
    return g->m;
}

void pdl_gen_env(const pdl_gen *g, pdl_env *env)
{
    *env = g->env;
}

pdl_diag *pdl_gen_diag(const pdl_gen *g)
{
    return g->d;
}

/* ---- evaluation in the model's context ---- */

static void where_note(pdl_gen *g, pdl_loc at)
{
    pdl_note(g->d, at, "while building the model%s", g->where);
}

int pdl_gen_eval(pdl_gen *g, const pdl_expr *e, const pdl_env *env, double *out)
{
    pdl_eval_status s = pdl_eval(e, env, g->d, out);
    if (s == PDL_EVAL_OK)
        return 0;
    if (s == PDL_EVAL_UNKNOWN)
        pdl_error(g->d, e->loc, "expression cannot be evaluated here");
    where_note(g, e->loc);
    return -1;
}

int pdl_gen_count(pdl_gen *g, const pdl_expr *e, const pdl_env *env, const char *what, double min,
                  double max, uint64_t *out)
{
    pdl_eval_status s = pdl_eval_count(e, env, g->d, what, min, max, out);
    if (s == PDL_EVAL_OK)
        return 0;
    if (s == PDL_EVAL_UNKNOWN)
        pdl_error(g->d, e->loc, "expression cannot be evaluated here");
    where_note(g, e->loc);
    return -1;
}

int pdl_gen_block(pdl_gen *g, const pdl_phase *ph, const pdl_env *env, uint64_t *out)
{
    *out = 1;
    if (!ph->block)
        return 0;
    return pdl_gen_count(g, ph->block, env, "BLOCK CYCLIC block size", 1, PDL_MAX_COUNT, out);
}

int pdl_gen_solver_error(pdl_gen *g, pdl_loc at)
{
    if (at.file == 0)
        at = g->here;
    pdl_error(g->d, at, "cannot compute the model: %s", sol_ctx_message(g->sc));
    where_note(g, at);
    return -1;
}

int pdl_gen_point(pdl_gen *g, double x, pdl_loc at, sol_dist **out)
{
    if (sol_dist_deterministic(g->sc, x, out) != SOL_OK)
        return pdl_gen_solver_error(g, at);
    return 0;
}

/* The cache is an open-addressing hash of entry indices keyed by (node, machine, arguments):
 * runtimes that depend on i give one entry per unit, up to PDL_MAX_INDEXED_UNITS. */
static size_t cache_hash(const void *node, size_t machine, const double *args, size_t nargs)
{
    uint64_t h = (uint64_t)(uintptr_t)node * 0x9E3779B97F4A7C15u ^ machine;
    for (size_t k = 0; k < nargs; k++) {
        uint64_t bits;
        memcpy(&bits, &args[k], sizeof bits);
        h = (h ^ bits) * 0x100000001B3u;
        h ^= h >> 29;
    }
    return (size_t)h;
}

static sol_dist *cache_find(pdl_gen *g, const void *node, const double *args, size_t nargs)
{
    if (!g->capslots)
        return NULL;
    size_t h = cache_hash(node, g->machine, args, nargs) & (g->capslots - 1);
    for (; g->slots[h] != SIZE_MAX; h = (h + 1) & (g->capslots - 1)) {
        dist_entry *e = &g->cache[g->slots[h]];
        if (e->node == node && e->machine == g->machine && e->nargs == nargs &&
            (nargs == 0 || memcmp(e->args, args, nargs * sizeof *args) == 0))
            return e->dist;
    }
    return NULL;
}

static int slots_insert(pdl_gen *g, size_t index)
{
    dist_entry *e = &g->cache[index];
    size_t h = cache_hash(e->node, e->machine, e->args, e->nargs) & (g->capslots - 1);
    while (g->slots[h] != SIZE_MAX)
        h = (h + 1) & (g->capslots - 1);
    g->slots[h] = index;
    return 0;
}

static int cache_add(pdl_gen *g, const void *node, const double *args, size_t nargs, sol_dist *d)
{
    if (g->ncache == g->capcache) {
        size_t cap = g->capcache ? g->capcache * 2 : 16;
        dist_entry *n = realloc(g->cache, cap * sizeof *n);
        if (!n)
            return -1;
        g->cache = n;
        g->capcache = cap;
    }
    if ((g->ncache + 1) * 2 > g->capslots) {
        size_t cap = g->capslots ? g->capslots * 2 : 64;
        size_t *slots = malloc(cap * sizeof *slots);
        if (!slots)
            return -1;
        for (size_t k = 0; k < cap; k++)
            slots[k] = SIZE_MAX;
        free(g->slots);
        g->slots = slots;
        g->capslots = cap;
        for (size_t k = 0; k < g->ncache; k++)
            slots_insert(g, k);
    }
    dist_entry *e = &g->cache[g->ncache];
    e->node = node;
    e->machine = g->machine;
    e->nargs = nargs;
    if (nargs)
        memcpy(e->args, args, nargs * sizeof *args);
    e->dist = sol_dist_retain(d);
    return slots_insert(g, g->ncache++);
}

int pdl_gen_dist(pdl_gen *g, const pdl_dist *dist, const pdl_env *env, sol_dist **out)
{
    double v[64];
    int known[64];
    size_t n = dist->nargs;
    *out = NULL;
    if (dist->kind == PDL_D_NUMERICAL) {
        const pdl_numdata *data = dist->numeric[g->machine];
        sol_dist *c = cache_find(g, data, NULL, 0);
        if (c) {
            *out = sol_dist_retain(c);
            return 0;
        }
        sol_status st = data->histogram
                            ? sol_dist_histogram(g->sc, data->n, data->values, data->probs, out)
                            : sol_dist_samples(g->sc, data->n, data->values, out);
        if (st != SOL_OK)
            return pdl_gen_solver_error(g, dist->loc);
        if (cache_add(g, data, NULL, 0, *out) != 0)
            return oom(g);
        return 0;
    }
    for (size_t k = 0; k < n; k++) {
        if (pdl_gen_eval(g, dist->args[k].expr, env, &v[k]) != 0)
            return -1;
        known[k] = 1;
    }
    if (pdl_check_dist_values(g->d, dist, v, known, g->where) != 0)
        return -1;
    sol_dist *c = cache_find(g, dist, v, n);
    if (c) {
        *out = sol_dist_retain(c);
        return 0;
    }
    sol_status st = SOL_EINVAL;
    switch (dist->kind) {
    case PDL_D_DETERMINISTIC:
        st = sol_dist_deterministic(g->sc, v[0], out);
        break;
    case PDL_D_EXPONENTIAL:
        st = sol_dist_exponential(g->sc, v[0], out);
        break;
    case PDL_D_ERLANG:
        st = sol_dist_erlang(g->sc, v[0], v[1], out);
        break;
    case PDL_D_GAMMA:
        st = sol_dist_gamma(g->sc, v[0], v[1], out);
        break;
    case PDL_D_UNIFORM:
        st = sol_dist_uniform(g->sc, v[0], v[1], out);
        break;
    case PDL_D_NORMAL:
        st = sol_dist_normal(g->sc, v[0], v[1], out);
        break;
    case PDL_D_LOGNORMAL:
        st = sol_dist_lognormal(g->sc, v[0], v[1], out);
        break;
    case PDL_D_WEIBULL:
        st = sol_dist_weibull(g->sc, v[0], v[1], out);
        break;
    case PDL_D_HYPEREXPONENTIAL: {
        double probs[32], means[32];
        for (size_t k = 0; k < n / 2; k++) {
            probs[k] = v[2 * k];
            means[k] = v[2 * k + 1];
        }
        st = sol_dist_hyperexp(g->sc, n / 2, probs, means, out);
        break;
    }
    default:
        break;
    }
    if (st != SOL_OK) {
        pdl_error(g->d, dist->loc, "cannot build %s: %s", pdl_dist_name(dist->kind),
                  sol_ctx_message(g->sc));
        where_note(g, dist->loc);
        return -1;
    }
    if (cache_add(g, dist, v, n, *out) != 0)
        return oom(g);
    return 0;
}

/* Powers are cached per base distribution; bases are the few distinct subtask runtimes of a
 * program (and per-processor loads of non-identical tasks), so the table stays small, and it is
 * bounded so a program with runtimes depending on p cannot grow it without end. */
enum { MAX_POWER_BASES = 256 };

static sum_entry *sum_slot(pdl_gen *g, const sol_dist *x, uint64_t m)
{
    uint64_t h = ((uint64_t)(uintptr_t)x >> 4) * 0x9E3779B97F4A7C15u ^ m * 0xC2B2AE3D27D4EB4Fu;
    return &g->sums[(h >> 32) % SUM_SLOTS];
}

/* Keeps sum = x^(*m) in its slot, replacing what was there, unless it would overrun the budget. */
static void sum_keep(pdl_gen *g, const sol_dist *x, uint64_t m, const sol_dist *sum)
{
    sum_entry *e = sum_slot(g, x, m);
    if (e->sum) {
        g->sum_points -= sol_dist_len(e->sum);
        sol_dist_free(e->base);
        sol_dist_free(e->sum);
        e->sum = e->base = NULL;
    }
    size_t len = sol_dist_len(sum);
    if (len > SUM_CACHE_POINTS - g->sum_points)
        return;
    e->base = sol_dist_retain(x);
    e->sum = sol_dist_retain(sum);
    e->m = m;
    g->sum_points += len;
}

static int sum_powers(pdl_gen *g, const sol_dist *x, uint64_t m, sol_dist **out);

int pdl_gen_sum(pdl_gen *g, const sol_dist *x, uint64_t m, sol_dist **out)
{
    if (m == 0 || m == 1 || !sol_dist_is_lattice(x)) {
        if (sol_dist_series_n(g->sc, x, m, out) != SOL_OK)
            return pdl_gen_solver_error(g, (pdl_loc){0, 0, 0});
        return 0;
    }
    const sum_entry *e = sum_slot(g, x, m);
    if (e->sum && e->base == x && e->m == m) {
        *out = sol_dist_retain(e->sum);
        return 0;
    }
    if (sum_powers(g, x, m, out) != 0)
        return -1;
    /* a power of two is in the power table already */
    if (m & (m - 1))
        sum_keep(g, x, m, *out);
    return 0;
}

/* x^(*m) from the cached powers x^(*2^k), m > 1: one convolution per further bit of m. */
static int sum_powers(pdl_gen *g, const sol_dist *x, uint64_t m, sol_dist **out)
{
    power_entry *e = NULL;
    for (size_t k = 0; k < g->npowers && !e; k++)
        if (g->powers[k].base == x)
            e = &g->powers[k];
    if (!e) {
        if (g->npowers == MAX_POWER_BASES) {
            if (sol_dist_series_n(g->sc, x, m, out) != SOL_OK)
                return pdl_gen_solver_error(g, (pdl_loc){0, 0, 0});
            return 0;
        }
        if (g->npowers == g->cappowers) {
            size_t cap = g->cappowers ? g->cappowers * 2 : 8;
            power_entry *n = realloc(g->powers, cap * sizeof *n);
            if (!n)
                return oom(g);
            g->powers = n;
            g->cappowers = cap;
        }
        e = &g->powers[g->npowers++];
        e->base = x;
        e->pow[0] = sol_dist_retain(x);
        e->npow = 1;
    }
    int top = 63;
    while (!((m >> top) & 1))
        top--;
    while ((int)e->npow <= top) {
        sol_dist *sq;
        if (sol_dist_series(g->sc, e->pow[e->npow - 1], e->pow[e->npow - 1], &sq) != SOL_OK)
            return pdl_gen_solver_error(g, (pdl_loc){0, 0, 0});
        e->pow[e->npow++] = sq;
    }
    sol_dist *acc = NULL;
    for (int k = top; k >= 0; k--) {
        if (!((m >> k) & 1))
            continue;
        if (!acc) {
            acc = sol_dist_retain(e->pow[k]);
            continue;
        }
        sol_dist *s2;
        sol_status st = sol_dist_series(g->sc, acc, e->pow[k], &s2);
        sol_dist_free(acc);
        if (st != SOL_OK)
            return pdl_gen_solver_error(g, (pdl_loc){0, 0, 0});
        acc = s2;
    }
    *out = acc;
    return 0;
}

/* ---- mappings ---- */

void pdl_gen_mapping_counts(pdl_mapping m, uint64_t b, uint64_t n, uint64_t p, uint64_t *counts)
{
    if (m != PDL_MAP_BLOCK_CYCLIC || b <= 1) {
        /* BLOCK gives the first n mod p processors one unit more; CYCLIC deals the same
           counts (processor k gets units k, k+p, ...). */
        uint64_t q = n / p, r = n % p;
        for (uint64_t k = 0; k < p; k++)
            counts[k] = q + (k < r);
        return;
    }
    uint64_t nb = n / b + (n % b != 0); /* blocks; the last holds n - (nb-1)b units */
    uint64_t last = n - (nb - 1) * b;
    uint64_t q = nb / p, r = nb % p;
    for (uint64_t k = 0; k < p; k++)
        counts[k] = (q + (k < r)) * b;
    if (nb)
        counts[(nb - 1) % p] -= b - last;
}

/* ---- communication ---- */

static int hops(pdl_gen *g, uint64_t a, uint64_t b, pdl_loc at, double *h)
{
    const char *why = NULL;
    if (pdl_machine_hops(g->m, g->p, a, b, h, &why) == 0)
        return 0;
    pdl_error(g->d, at, "%llu processors do not fit the %llu x %llu %s of machine '%s'",
              (unsigned long long)g->p, (unsigned long long)g->m->dims[0],
              (unsigned long long)g->m->dims[1], why, g->m->name);
    return -1;
}

/* Time between the starts of consecutive sends of one processor (LogGP: the gap, or the time to
 * push the bytes out when that is longer). */
static double loggp_gap(const pdl_machine *m, double bytes)
{
    double push = m->o + (bytes - 1) * m->G;
    return m->g > push ? m->g : push;
}

int pdl_gen_message(pdl_gen *g, double bytes, uint64_t a, uint64_t b, pdl_loc at, double *t)
{
    *t = 0;
    if (bytes <= 0 || a == b || g->m->msg == PDL_MSG_NONE || g->no_comm)
        return 0;
    double h = 0;
    if (!g->m->shared_memory && hops(g, a, b, at, &h) != 0)
        return -1;
    if (pdl_machine_message_time(g->m, bytes, h, (double)g->p, g->d, t) != 0) {
        where_note(g, at);
        return -1;
    }
    return 0;
}

/* Several messages from one processor: one port, so they go out one after another; in LogGP the
 * sends overlap in the network and the last arrives (n-1) gaps after the first. In shared
 * memory the partners read in parallel. */
static int messages_from(pdl_gen *g, double bytes, uint64_t self, const uint64_t *to, size_t n,
                         pdl_loc at, double *t)
{
    *t = 0;
    if (bytes <= 0 || n == 0 || g->m->msg == PDL_MSG_NONE || g->no_comm)
        return 0;
    if (g->m->msg == PDL_MSG_LOGGP) {
        double one;
        if (pdl_gen_message(g, bytes, self, to[0] == self ? self + 1 : to[0], at, &one) != 0)
            return -1;
        *t = (g->m->shared_memory ? 0 : (double)(n - 1) * loggp_gap(g->m, bytes)) + one;
        return 0;
    }
    double total = 0, worst = 0;
    for (size_t k = 0; k < n; k++) {
        double m;
        if (pdl_gen_message(g, bytes, self, to[k], at, &m) != 0)
            return -1;
        total += m;
        worst = m > worst ? m : worst;
    }
    *t = g->m->shared_memory ? worst : total;
    return 0;
}

int pdl_gen_scatter(pdl_gen *g, double bytes, uint64_t nrecv, pdl_loc at, double *t)
{
    *t = 0;
    if (nrecv == 0 || bytes <= 0 || g->m->msg == PDL_MSG_NONE || g->no_comm)
        return 0;
    if (g->m->msg == PDL_MSG_LOGGP) {
        uint64_t one = 1;
        return messages_from(g, bytes, 0, &one, 1, at, t) != 0
                   ? -1
                   : (*t += g->m->shared_memory ? 0 : (double)(nrecv - 1) * loggp_gap(g->m, bytes),
                      0);
    }
    /* A formula's time depends on the distance: sum (or max) over the receivers, as in seeds/002
       eq. (12); the receivers are 1..nrecv. */
    double total = 0, worst = 0;
    for (uint64_t k = 1; k <= nrecv; k++) {
        double m;
        if (pdl_gen_message(g, bytes, 0, k, at, &m) != 0)
            return -1;
        total += m;
        worst = m > worst ? m : worst;
    }
    *t = g->m->shared_memory ? worst : total;
    return 0;
}

int pdl_gen_scatter_arrivals(pdl_gen *g, double bytes, uint64_t n, pdl_loc at, double *t)
{
    t[0] = 0;
    double sum = 0;
    for (uint64_t k = 1; k <= n; k++) {
        double m;
        if (pdl_gen_message(g, bytes, 0, k, at, &m) != 0)
            return -1;
        if (g->m->msg == PDL_MSG_LOGGP)
            t[k] = (g->m->shared_memory ? 0 : (double)(k - 1) * loggp_gap(g->m, bytes)) + m;
        else
            t[k] = g->m->shared_memory ? m : (sum += m);
    }
    return 0;
}

int pdl_gen_exchange(pdl_gen *g, double bytes, uint64_t k, const uint64_t *partners,
                     size_t npartners, pdl_loc at, double *t)
{
    return messages_from(g, bytes, k, partners, npartners, at, t);
}

static int machine_dist(pdl_gen *g, const pdl_dist *d, sol_dist **out)
{
    if (!d) {
        *out = sol_dist_retain(g->zero);
        return 0;
    }
    pdl_env env;
    pdl_machine_env(g->m, &env);
    env.scope = PDL_SCOPE_P;
    env.p = (double)g->p;
    return pdl_gen_dist(g, d, &env, out);
}

int pdl_gen_barrier(pdl_gen *g, sol_dist **out)
{
    return machine_dist(g, g->no_sync ? NULL : g->m->barrier, out);
}

/* Contention is the machine's interaction delay: it counts as communication. */
int pdl_gen_contention(pdl_gen *g, sol_dist **out)
{
    return machine_dist(g, g->no_comm ? NULL : g->m->contention, out);
}

/* ---- shares ---- */

int pdl_shares_init(pdl_gen *g, pdl_shares *s, uint64_t p)
{
    memset(s, 0, sizeof *s);
    s->p = p;
    s->d = malloc(sizeof *s->d);
    s->mult = malloc(sizeof *s->mult);
    s->of = calloc(p ? p : 1, sizeof *s->of);
    if (!s->d || !s->mult || !s->of) {
        pdl_shares_free(s);
        return oom(g);
    }
    s->n = 1;
    s->d[0] = sol_dist_retain(g->zero);
    s->mult[0] = p;
    s->tail = sol_dist_retain(g->zero);
    return 0;
}

void pdl_shares_free(pdl_shares *s)
{
    for (size_t k = 0; k < s->n; k++)
        sol_dist_free(s->d[k]);
    free(s->d);
    free(s->mult);
    free(s->of);
    if (s->tail)
        sol_dist_free(s->tail);
    memset(s, 0, sizeof *s);
}

int pdl_shares_group(pdl_gen *g, pdl_shares *s, const uint32_t *key, sol_dist *const *dists,
                     size_t ndists)
{
    uint32_t *map = malloc((ndists ? ndists : 1) * sizeof *map);
    if (!map)
        return oom(g);
    for (size_t k = 0; k < ndists; k++)
        map[k] = UINT32_MAX;
    size_t n = 0;
    for (uint64_t k = 0; k < s->p; k++)
        if (map[key[k]] == UINT32_MAX)
            map[key[k]] = (uint32_t)n++;
    sol_dist **d = malloc(n * sizeof *d);
    uint64_t *mult = calloc(n, sizeof *mult);
    if (!d || !mult) {
        free(map);
        free(d);
        free(mult);
        return oom(g);
    }
    for (size_t k = 0; k < ndists; k++)
        if (map[k] != UINT32_MAX)
            d[map[k]] = sol_dist_retain(dists[k]);
    for (uint64_t k = 0; k < s->p; k++) {
        s->of[k] = map[key[k]];
        mult[s->of[k]]++;
    }
    for (size_t k = 0; k < s->n; k++)
        sol_dist_free(s->d[k]);
    free(s->d);
    free(s->mult);
    s->d = d;
    s->mult = mult;
    s->n = n;
    free(map);
    return 0;
}

int pdl_shares_closed(pdl_gen *g, pdl_shares *s, uint64_t p, const sol_dist *d)
{
    if (pdl_shares_init(g, s, p) != 0)
        return -1;
    sol_dist_free(s->tail);
    s->tail = sol_dist_retain(d);
    return 0;
}

int pdl_shares_add_tail(pdl_gen *g, pdl_shares *s, const sol_dist *d)
{
    sol_dist *t;
    if (sol_dist_series(g->sc, s->tail, d, &t) != SOL_OK)
        return pdl_gen_solver_error(g, (pdl_loc){0, 0, 0});
    sol_dist_free(s->tail);
    s->tail = t;
    return 0;
}

static int is_zero(const sol_dist *d)
{
    return !sol_dist_is_lattice(d) && sol_dist_max_value(d) == 0;
}

static int shares_finish(pdl_gen *g, const pdl_shares *s, sol_dist **out);

/* Few groups (a fork-join job, identical tasks): the same shares recur for every p beyond the
 * tasks, and the memo answers. Many groups are per-processor loads, new for every p: a key
 * would only keep them alive. */
enum { FINISH_MEMO_GROUPS = 8 };

int pdl_shares_finish(pdl_gen *g, const pdl_shares *s, sol_dist **out)
{
    if (s->n > FINISH_MEMO_GROUPS)
        return shares_finish(g, s, out);
    pdl_key key;
    pdl_key_init(&key);
    pdl_key_add(&key, "finish", 6);
    pdl_key_add(&key, &s->n, sizeof s->n);
    for (size_t k = 0; k < s->n; k++) {
        pdl_key_dist(&key, s->d[k]);
        pdl_key_add(&key, &s->mult[k], sizeof s->mult[k]);
    }
    pdl_key_dist(&key, s->tail);
    int rc = 0;
    if (!pdl_gen_memo_get(g, &key, out)) {
        rc = shares_finish(g, s, out);
        if (rc == 0)
            pdl_gen_memo_put(g, &key, *out);
    }
    pdl_key_free(&key);
    return rc;
}

static int shares_finish(pdl_gen *g, const pdl_shares *s, sol_dist **out)
{
    sol_dist *acc = sol_dist_retain(g->zero);
    for (size_t k = 0; k < s->n; k++) {
        if (is_zero(s->d[k]))
            continue; /* idle processors: max with 0 changes nothing for durations */
        sol_dist *pk, *m;
        if (sol_dist_max_n(g->sc, s->d[k], s->mult[k], &pk) != SOL_OK) {
            sol_dist_free(acc);
            return pdl_gen_solver_error(g, (pdl_loc){0, 0, 0});
        }
        sol_status st =
            is_zero(acc) ? (m = sol_dist_retain(pk), SOL_OK) : sol_dist_max(g->sc, acc, pk, &m);
        sol_dist_free(pk);
        sol_dist_free(acc);
        if (st != SOL_OK)
            return pdl_gen_solver_error(g, (pdl_loc){0, 0, 0});
        acc = m;
    }
    sol_status st = is_zero(s->tail) ? (*out = sol_dist_retain(acc), SOL_OK)
                                     : sol_dist_series(g->sc, acc, s->tail, out);
    sol_dist_free(acc);
    if (st != SOL_OK)
        return pdl_gen_solver_error(g, (pdl_loc){0, 0, 0});
    return 0;
}

static int shares_copy(pdl_gen *g, const pdl_shares *src, pdl_shares *dst)
{
    memset(dst, 0, sizeof *dst);
    dst->p = src->p;
    dst->n = src->n;
    dst->d = malloc(src->n * sizeof *dst->d);
    dst->mult = malloc(src->n * sizeof *dst->mult);
    dst->of = malloc((src->p ? src->p : 1) * sizeof *dst->of);
    if (!dst->d || !dst->mult || !dst->of) {
        free(dst->d);
        free(dst->mult);
        free(dst->of);
        memset(dst, 0, sizeof *dst);
        return oom(g);
    }
    for (size_t k = 0; k < src->n; k++)
        dst->d[k] = sol_dist_retain(src->d[k]);
    memcpy(dst->mult, src->mult, src->n * sizeof *dst->mult);
    memcpy(dst->of, src->of, src->p * sizeof *dst->of);
    dst->tail = sol_dist_retain(src->tail);
    return 0;
}

int pdl_gen_load_shares(pdl_gen *g, const sol_dist *x, const uint64_t *counts, const double *extra,
                        pdl_loc at, pdl_shares *out)
{
    uint64_t p = out->p;
    size_t cap = 8, n = 0;
    uint64_t *cnt = malloc(cap * sizeof *cnt);
    double *ext = malloc(cap * sizeof *ext);
    uint32_t *key = malloc((p ? p : 1) * sizeof *key);
    int rc = cnt && ext && key ? 0 : oom(g);
    for (uint64_t k = 0; k < p && rc == 0; k++) {
        double e = extra ? extra[k] : 0;
        size_t j = 0;
        while (j < n && !(cnt[j] == counts[k] && ext[j] == e))
            j++;
        if (j == n) {
            if (n == cap) {
                cap *= 2;
                uint64_t *nc = realloc(cnt, cap * sizeof *nc);
                double *ne = nc ? realloc(ext, cap * sizeof *ne) : NULL;
                if (nc)
                    cnt = nc;
                if (ne)
                    ext = ne;
                if (!nc || !ne) {
                    rc = oom(g);
                    break;
                }
            }
            cnt[n] = counts[k];
            ext[n] = e;
            n++;
        }
        key[k] = (uint32_t)j;
    }
    sol_dist **ds = rc == 0 ? calloc(n ? n : 1, sizeof *ds) : NULL;
    if (rc == 0 && !ds)
        rc = oom(g);
    for (size_t j = 0; j < n && rc == 0; j++) {
        sol_dist *sum;
        if (pdl_gen_sum(g, x, cnt[j], &sum) != 0) {
            rc = -1;
            break;
        }
        if (ext[j] != 0) {
            sol_status st = sol_dist_shift(g->sc, sum, ext[j], &ds[j]);
            sol_dist_free(sum);
            if (st != SOL_OK)
                rc = pdl_gen_solver_error(g, at);
        } else {
            ds[j] = sum;
        }
    }
    if (rc == 0)
        rc = pdl_shares_group(g, out, key, ds, n);
    for (size_t j = 0; ds && j < n; j++)
        if (ds[j])
            sol_dist_free(ds[j]);
    free(ds);
    free(cnt);
    free(ext);
    free(key);
    return rc;
}

/* SERIAL: processor k runs its share of a, then at once its share of b. Groups become the
 * distinct (group in a, group in b) pairs; shared tails add up (a shared delay commutes with
 * the max over processors). O(p) plus one convolution per pair. */
static int shares_serial(pdl_gen *g, pdl_shares *a, const pdl_shares *b)
{
    uint64_t p = a->p;
    size_t cap = 16, n = 0;
    uint64_t *keys = malloc(cap * sizeof *keys);
    uint32_t *key = malloc((p ? p : 1) * sizeof *key);
    if (!keys || !key) {
        free(keys);
        free(key);
        return oom(g);
    }
    for (uint64_t k = 0; k < p; k++) {
        uint64_t pair = ((uint64_t)a->of[k] << 32) | b->of[k];
        size_t j = 0;
        while (j < n && keys[j] != pair)
            j++;
        if (j == n) {
            if (n == cap) {
                cap *= 2;
                uint64_t *nk = realloc(keys, cap * sizeof *nk);
                if (!nk) {
                    free(keys);
                    free(key);
                    return oom(g);
                }
                keys = nk;
            }
            keys[n++] = pair;
        }
        key[k] = (uint32_t)j;
    }
    sol_dist **sums = calloc(n, sizeof *sums);
    int rc = sums ? 0 : oom(g);
    for (size_t j = 0; j < n && rc == 0; j++) {
        const sol_dist *x = a->d[keys[j] >> 32], *y = b->d[keys[j] & 0xFFFFFFFFu];
        if (is_zero(x))
            sums[j] = sol_dist_retain(y);
        else if (is_zero(y))
            sums[j] = sol_dist_retain(x);
        else if (sol_dist_series(g->sc, x, y, &sums[j]) != SOL_OK)
            rc = pdl_gen_solver_error(g, (pdl_loc){0, 0, 0});
    }
    if (rc == 0)
        rc = pdl_shares_group(g, a, key, sums, n);
    if (rc == 0)
        rc = pdl_shares_add_tail(g, a, b->tail);
    for (size_t j = 0; sums && j < n; j++)
        if (sums[j])
            sol_dist_free(sums[j]);
    free(sums);
    free(keys);
    free(key);
    return rc;
}

/* n instances joined SERIAL to themselves: every processor runs its share n times. */
static int shares_repeat(pdl_gen *g, pdl_shares *s, uint64_t n)
{
    for (size_t k = 0; k < s->n; k++) {
        sol_dist *r;
        if (pdl_gen_sum(g, s->d[k], n, &r) != 0)
            return -1;
        sol_dist_free(s->d[k]);
        s->d[k] = r;
    }
    sol_dist *t;
    if (sol_dist_series_n(g->sc, s->tail, n, &t) != SOL_OK)
        return pdl_gen_solver_error(g, (pdl_loc){0, 0, 0});
    sol_dist_free(s->tail);
    s->tail = t;
    return 0;
}

/* ---- phases ---- */

/* One instance of a work phase as shares, computed once per (machine, p) and copied. */
static int phase_shares(pdl_gen *g, const pdl_phase *ph, pdl_shares *out)
{
    if (zeroed(g, ph))
        return pdl_shares_init(g, out, g->p);
    phase_entry *e = &g->phases[ph->index];
    if (!e->have) {
        pdl_loc outer = g->here;
        g->here = ph->name_loc;
        int rc;
        switch (ph->scheme) {
        case PDL_S_INDEPENDENT:
            rc = pdl_gen_independent(g, ph, &e->sh);
            break;
        case PDL_S_NEIGHBOR:
        case PDL_S_NEIGHBOR_TORUS:
            rc = pdl_gen_neighbor(g, ph, &e->sh);
            break;
        case PDL_S_MACROPIPELINE:
            rc = pdl_gen_macropipeline(g, ph, &e->sh);
            break;
        case PDL_S_FORK_JOIN:
            rc = pdl_gen_forkjoin(g, ph, &e->sh);
            break;
        case PDL_S_PAIRED:
            rc = pdl_gen_paired(g, ph, &e->sh);
            break;
        case PDL_S_ARBITRARY:
            rc = pdl_gen_arbitrary(g, ph, &e->sh);
            break;
        default:
            rc = -1;
            break;
        }
        if (rc != 0)
            return -1;
        /* Every parallel phase instance ends with the machine's contention node c(T, p). */
        sol_dist *c;
        if (pdl_gen_contention(g, &c) != 0)
            return -1;
        rc = is_zero(c) ? 0 : pdl_shares_add_tail(g, &e->sh, c);
        sol_dist_free(c);
        if (rc != 0)
            return -1;
        e->have = 1;
        g->here = outer;
    }
    return shares_copy(g, &e->sh, out);
}

/* A sequential or synchronization phase, or SYNC: one distribution for all processors. */
static int closed_phase(pdl_gen *g, const pdl_phase *ph, sol_dist **out)
{
    if (zeroed(g, ph)) {
        *out = sol_dist_retain(g->zero);
        return 0;
    }
    return pdl_gen_dist(g, ph->runtime, &g->env, out);
}

/* ---- the execution pattern ---- */

/* Phases that can begin (first) or end (last) a pattern node; NULL stands for anything that is
 * not a work phase (SYNC, sequential and synchronization phases). */
typedef struct pset {
    const pdl_phase *item[32];
    size_t n;
    int overflow; /* more than fit: treated as "mixed" */
} pset;

static void pset_add(pset *s, const pdl_phase *ph)
{
    if (ph && ph->kind != PDL_PH_WORK)
        ph = NULL;
    for (size_t k = 0; k < s->n; k++)
        if (s->item[k] == ph)
            return;
    if (s->n == 32)
        s->overflow = 1;
    else
        s->item[s->n++] = ph;
}

/* Whether a node can run zero times (p-dependent counts are evaluated for the current p). */
static int nullable(pdl_gen *g, const pdl_pat *p)
{
    double v;
    switch (p->kind) {
    case PDL_P_PHASE:
    case PDL_P_SYNC:
        return 0;
    case PDL_P_SEQ:
        for (size_t k = 0; k < p->nkids; k++)
            if (!nullable(g, p->kids[k]))
                return 0;
        return 1;
    case PDL_P_ALT:
        for (size_t k = 0; k < p->nkids; k++)
            if (nullable(g, p->kids[k]))
                return 1;
        return 0;
    case PDL_P_POW:
        return (pdl_eval(p->arg, &g->env, NULL, &v) == PDL_EVAL_OK && v == 0) ||
               nullable(g, p->kids[0]);
    case PDL_P_STAR:
        return 1;
    case PDL_P_PLUS:
        return nullable(g, p->kids[0]);
    }
    return 0;
}

static void ends(pdl_gen *g, const pdl_pat *p, int last, pset *out)
{
    switch (p->kind) {
    case PDL_P_PHASE:
        pset_add(out, p->phase);
        return;
    case PDL_P_SYNC:
        pset_add(out, NULL);
        return;
    case PDL_P_SEQ:
        for (size_t j = 0; j < p->nkids; j++) {
            const pdl_pat *kid = p->kids[last ? p->nkids - 1 - j : j];
            ends(g, kid, last, out);
            if (!nullable(g, kid))
                return;
        }
        return;
    case PDL_P_ALT:
        for (size_t k = 0; k < p->nkids; k++)
            ends(g, p->kids[k], last, out);
        return;
    default:
        ends(g, p->kids[0], last, out);
        return;
    }
}

static pdl_concat_kind lookup_concat(const pdl_gen *g, const pdl_phase *a, const pdl_phase *b)
{
    const pdl_program *pr = g->prog->prog;
    for (size_t k = 0; k < pr->nconcats; k++)
        if (pr->concats[k]->a == a && pr->concats[k]->b == b)
            return pr->concats[k]->kind;
    return PDL_J_BARRIER;
}

enum { JOIN_NONE = PDL_JOIN_NONE };

/* How the end of x joins the start of y: the concatenation of their work phases; JOIN_NONE when
 * a non-work element separates them; BARRIER when several work pairs disagree. */
static int join_kind(pdl_gen *g, const pdl_pat *x, const pdl_pat *y)
{
    pset l = {{0}, 0, 0}, f = {{0}, 0, 0};
    ends(g, x, 1, &l);
    ends(g, y, 0, &f);
    if (l.overflow || f.overflow)
        return PDL_J_BARRIER;
    int kind = JOIN_NONE;
    for (size_t a = 0; a < l.n; a++) {
        for (size_t b = 0; b < f.n; b++) {
            if (!l.item[a] || !f.item[b])
                continue;
            int k = (int)lookup_concat(g, l.item[a], f.item[b]);
            if (kind != JOIN_NONE && kind != k)
                return PDL_J_BARRIER;
            kind = k;
        }
    }
    return kind;
}

/* The synchronisation cost of a join: the machine's barrier time for BARRIER, nothing for the
 * others (neighbour exchanges are the phases' own communication). */
static int join_cost(pdl_gen *g, int kind, sol_dist **out)
{
    if (kind == (int)PDL_J_BARRIER)
        return pdl_gen_barrier(g, out);
    *out = sol_dist_retain(g->zero);
    return 0;
}

/* What evaluating a node gives: shares, and whether they are "pure": only work phases joined
 * SERIAL (plus shared tails), so repeating them per processor is exact. */
typedef struct pval {
    pdl_shares sh;
    int pure;
} pval;

static int eval(pdl_gen *g, const pdl_pat *p, pval *out);

/* The node as one synchronised distribution. */
static int eval_closed(pdl_gen *g, const pdl_pat *p, sol_dist **out)
{
    pval v;
    if (eval(g, p, &v) != 0)
        return -1;
    int rc = pdl_shares_finish(g, &v.sh, out);
    pdl_shares_free(&v.sh);
    if (rc == 0 && (rc = pdl_gen_linear(g, out)) != 0)
        sol_dist_free(*out);
    return rc;
}

static int make_closed(pdl_gen *g, sol_dist *d, pval *out)
{
    out->pure = 0;
    if (pdl_gen_linear(g, &d) != 0) {
        sol_dist_free(d);
        return -1;
    }
    int rc = pdl_shares_closed(g, &out->sh, g->p, d);
    sol_dist_free(d);
    return rc;
}

/* x *[q] = 0 with probability 1-q, else x +[q]; x +[q] = x, then (join, x) a geometric number of
 * times. */
static int eval_loop(pdl_gen *g, const pdl_pat *p, pval *out)
{
    double q;
    if (pdl_gen_eval(g, p->arg, &g->env, &q) != 0)
        return -1;
    if (!(q >= 0 && q < 1)) {
        pdl_error(g->d, p->arg->loc, "a loop's repeat probability must be in [0, 1), got %.10g", q);
        where_note(g, p->arg->loc);
        return -1;
    }
    sol_dist *body = NULL, *join = NULL, *again = NULL, *rest = NULL, *plus = NULL, *res = NULL;
    int rc = -1;
    if (eval_closed(g, p->kids[0], &body) != 0 ||
        join_cost(g, join_kind(g, p->kids[0], p->kids[0]), &join) != 0)
        goto done;
    if (g->mean_only) {
        /* E[x +[q]] = E[x] + q/(1-q) (E[join] + E[x]); x *[q] is that with probability q. */
        double m = sol_dist_mean(body) + q / (1 - q) * (sol_dist_mean(join) + sol_dist_mean(body));
        rc = pdl_gen_point(g, p->kind == PDL_P_PLUS ? m : q * m, p->loc, &res);
        if (rc == 0)
            rc = make_closed(g, res, out);
        goto done;
    }
    if (sol_dist_series(g->sc, join, body, &again) != SOL_OK ||
        sol_dist_star(g->sc, again, q, &rest) != SOL_OK ||
        sol_dist_series(g->sc, body, rest, &plus) != SOL_OK) {
        pdl_gen_solver_error(g, p->loc);
        goto done;
    }
    if (p->kind == PDL_P_PLUS) {
        res = sol_dist_retain(plus);
    } else {
        const sol_dist *ds[2] = {g->zero, plus};
        double w[2] = {1 - q, q};
        if (sol_dist_mixture(g->sc, 2, ds, w, &res) != SOL_OK) {
            pdl_gen_solver_error(g, p->loc);
            goto done;
        }
    }
    rc = make_closed(g, res, out);
    res = NULL;
done:
    sol_dist_free(body);
    if (join)
        sol_dist_free(join);
    if (again)
        sol_dist_free(again);
    if (rest)
        sol_dist_free(rest);
    if (plus)
        sol_dist_free(plus);
    return rc;
}

static int eval_alt(pdl_gen *g, const pdl_pat *p, pval *out)
{
    size_t n = p->nkids;
    sol_dist **ds = calloc(n, sizeof *ds);
    double *w = calloc(n, sizeof *w);
    int rc = ds && w ? 0 : oom(g);
    double sum = 0;
    for (size_t k = 0; k < n && rc == 0; k++) {
        if (p->weights[k])
            rc = pdl_gen_eval(g, p->weights[k], &g->env, &w[k]);
        else
            w[k] = 1.0 / (double)n;
        sum += w[k];
        if (rc == 0 && !(w[k] >= 0 && w[k] <= 1)) {
            pdl_error(g->d, p->weights[k]->loc,
                      "a branch weight must be between 0 and 1, got %.10g", w[k]);
            where_note(g, p->weights[k]->loc);
            rc = -1;
        }
        if (rc == 0)
            rc = eval_closed(g, p->kids[k], &ds[k]);
    }
    if (rc == 0 && fabs(sum - 1) > 1e-9) {
        pdl_error(g->d, p->loc, "branch weights sum to %.10g, not 1", sum);
        where_note(g, p->loc);
        rc = -1;
    }
    sol_dist *mix = NULL;
    if (rc == 0 && sol_dist_mixture(g->sc, n, (const sol_dist *const *)ds, w, &mix) != SOL_OK)
        rc = pdl_gen_solver_error(g, p->loc);
    for (size_t k = 0; ds && k < n; k++)
        if (ds[k])
            sol_dist_free(ds[k]);
    free(ds);
    free(w);
    return rc == 0 ? make_closed(g, mix, out) : -1;
}

/* x ^ n: per processor when x is pure and joins itself SERIAL; otherwise n synchronised copies
 * with the join's cost between consecutive ones. */
static int eval_pow(pdl_gen *g, const pdl_pat *p, pval *out)
{
    uint64_t n;
    if (pdl_gen_count(g, p->arg, &g->env, "repetition count", 0, PDL_MAX_COUNT, &n) != 0)
        return -1;
    if (n == 0)
        return make_closed(g, sol_dist_retain(g->zero), out);
    int kind = join_kind(g, p->kids[0], p->kids[0]);
    pval v;
    if (eval(g, p->kids[0], &v) != 0)
        return -1;
    if (v.pure && kind == (int)PDL_J_SERIAL) {
        if (shares_repeat(g, &v.sh, n) != 0) {
            pdl_shares_free(&v.sh);
            return -1;
        }
        *out = v;
        return 0;
    }
    sol_dist *one = NULL, *join = NULL, *a = NULL, *b = NULL, *res = NULL;
    int rc = pdl_shares_finish(g, &v.sh, &one);
    pdl_shares_free(&v.sh);
    if (rc == 0)
        rc = pdl_gen_linear(g, &one);
    if (rc == 0)
        rc = join_cost(g, kind, &join);
    if (rc == 0 && (sol_dist_series_n(g->sc, one, n, &a) != SOL_OK ||
                    sol_dist_series_n(g->sc, join, n - 1, &b) != SOL_OK ||
                    sol_dist_series(g->sc, a, b, &res) != SOL_OK))
        rc = pdl_gen_solver_error(g, p->loc);
    sol_dist *all[] = {one, join, a, b};
    for (size_t k = 0; k < 4; k++)
        if (all[k])
            sol_dist_free(all[k]);
    return rc == 0 ? make_closed(g, res, out) : -1;
}

/* A series: consecutive pure elements joined SERIAL stay per processor; any other join closes
 * what came before (its max folds into the shared tail) and adds the join's cost. */
static int eval_seq(pdl_gen *g, const pdl_pat *const *kids, size_t nkids, pval *out)
{
    pval cur;
    if (pdl_shares_init(g, &cur.sh, g->p) != 0)
        return -1;
    cur.pure = 1;
    const pdl_pat *prev = NULL;
    for (size_t k = 0; k < nkids; k++) {
        const pdl_pat *kid = kids[k];
        if (nullable(g, kid) && kid->kind == PDL_P_POW) {
            /* x ^ 0 vanishes (x ^ n with n > 0 is handled below) */
            double v;
            if (pdl_eval(kid->arg, &g->env, NULL, &v) == PDL_EVAL_OK && v == 0)
                continue;
        }
        int kind = prev ? join_kind(g, prev, kid) : JOIN_NONE;
        pval v;
        if (eval(g, kid, &v) != 0) {
            pdl_shares_free(&cur.sh);
            return -1;
        }
        int rc;
        if (prev && kind == (int)PDL_J_SERIAL && cur.pure && v.pure) {
            rc = shares_serial(g, &cur.sh, &v.sh);
        } else {
            /* Close what came before: everything so far becomes one shared delay. */
            sol_dist *before = NULL, *cost = NULL, *delay = NULL;
            rc = pdl_shares_finish(g, &cur.sh, &before);
            if (rc == 0)
                rc = pdl_gen_linear(g, &before);
            if (rc == 0)
                rc = join_cost(g, prev ? kind : JOIN_NONE, &cost);
            if (rc == 0 && sol_dist_series(g->sc, before, cost, &delay) != SOL_OK)
                rc = pdl_gen_solver_error(g, kid->loc);
            if (rc == 0) {
                pdl_shares_free(&cur.sh);
                rc = shares_copy(g, &v.sh, &cur.sh);
                if (rc == 0)
                    rc = pdl_shares_add_tail(g, &cur.sh, delay);
                /* Shares preceded by a synchronisation are no longer pure. */
                cur.pure = v.pure && prev == NULL;
            }
            if (before)
                sol_dist_free(before);
            if (cost)
                sol_dist_free(cost);
            if (delay)
                sol_dist_free(delay);
        }
        cur.pure = cur.pure && v.pure;
        pdl_shares_free(&v.sh);
        if (rc != 0) {
            pdl_shares_free(&cur.sh);
            return -1;
        }
        prev = kid;
    }
    *out = cur;
    return 0;
}

static int eval(pdl_gen *g, const pdl_pat *p, pval *out)
{
    memset(out, 0, sizeof *out);
    g->here = p->loc;
    switch (p->kind) {
    case PDL_P_PHASE:
        if (p->phase->kind == PDL_PH_WORK) {
            out->pure = 1;
            return phase_shares(g, p->phase, &out->sh);
        } else {
            sol_dist *d;
            if (closed_phase(g, p->phase, &d) != 0)
                return -1;
            return make_closed(g, d, out);
        }
    case PDL_P_SYNC: {
        sol_dist *d;
        if (pdl_gen_barrier(g, &d) != 0)
            return -1;
        return make_closed(g, d, out);
    }
    case PDL_P_SEQ:
        return eval_seq(g, (const pdl_pat *const *)p->kids, p->nkids, out);
    case PDL_P_ALT:
        return eval_alt(g, p, out);
    case PDL_P_POW:
        return eval_pow(g, p, out);
    case PDL_P_STAR:
    case PDL_P_PLUS:
        return eval_loop(g, p, out);
    }
    return -1;
}

int pdl_gen_join_kind(pdl_gen *g, const pdl_pat *x, const pdl_pat *y)
{
    return join_kind(g, x, y);
}

int pdl_gen_nullable(pdl_gen *g, const pdl_pat *p)
{
    return nullable(g, p);
}

void pdl_gen_set_zeroed(pdl_gen *g, const unsigned char *zero_phase, int no_comm, int no_sync)
{
    g->zero_phase = zero_phase;
    g->no_comm = no_comm;
    g->no_sync = no_sync;
    memo_clear(g); /* keys name what a part depends on; cheap insurance all the same */
}

void pdl_gen_set_graph_limit(pdl_gen *g, size_t nodes)
{
    g->graph_limit = nodes && nodes < PDL_MAX_GRAPH_NODES ? nodes : PDL_MAX_GRAPH_NODES;
}

size_t pdl_gen_graph_limit(const pdl_gen *g)
{
    return g->graph_limit;
}

const pdl_checked *pdl_gen_checked(const pdl_gen *g)
{
    return g->prog;
}

const pdl_pat *pdl_gen_pattern(const pdl_gen *g)
{
    return g->prog->prog->pattern;
}

void pdl_gen_set_here(pdl_gen *g, pdl_loc at)
{
    g->here = at;
}

int pdl_gen_begin(pdl_gen *g, size_t machine, uint64_t p)
{
    if (p == 0 || p > PDL_MAX_PROCS) {
        pdl_error(g->d, (pdl_loc){0, 0, 0}, "processor count %llu is outside 1..%u",
                  (unsigned long long)p, PDL_MAX_PROCS);
        return -1;
    }
    clear_phases(g);
    g->machine = machine;
    g->m = g->prog->machines[machine];
    g->p = p;
    pdl_machine_env(g->m, &g->env);
    g->env.scope |= PDL_SCOPE_P;
    g->env.p = (double)p;
    g->env.vars = g->prog->vars;
    g->env.nvars = g->prog->nvars;
    if (g->prog->nmachines > 1)
        snprintf(g->where, sizeof g->where, " for p = %llu on machine '%s'", (unsigned long long)p,
                 g->m->name);
    else
        snprintf(g->where, sizeof g->where, " for p = %llu", (unsigned long long)p);
    g->here = g->prog->prog->pattern_loc;
    return 0;
}

int pdl_gen_program(pdl_gen *g, size_t machine, uint64_t p, sol_dist **out)
{
    *out = NULL;
    if (pdl_gen_begin(g, machine, p) != 0)
        return -1;
    int rc = eval_closed(g, g->prog->prog->pattern, out);
    clear_phases(g);
    return rc;
}

/* ---- generic-model segments ---- */

int pdl_segment_init(pdl_gen *g, pdl_segment *s)
{
    memset(s, 0, sizeof *s);
    s->p = g->p;
    s->exit = malloc(g->p * sizeof *s->exit);
    s->first = malloc(g->p * sizeof *s->first);
    s->col_lo = malloc(g->p * sizeof *s->col_lo);
    s->col_hi = malloc(g->p * sizeof *s->col_hi);
    if (!s->exit || !s->first || !s->col_lo || !s->col_hi) {
        pdl_segment_free(s);
        return oom(g);
    }
    if (sol_graph_new(g->sc, g->graph_limit, &s->graph) != SOL_OK) {
        pdl_segment_free(s);
        return pdl_gen_solver_error(g, g->here);
    }
    for (uint64_t k = 0; k < g->p; k++)
        s->exit[k] = s->first[k] = PDL_NONE;
    s->empty = 1;
    if (pdl_seg_node(g, s, g->zero, PDL_TAG(PDL_NODE_SYNC, PDL_NONE), &s->source) != 0) {
        pdl_segment_free(s);
        return -1;
    }
    s->sync_exit = s->source;
    return 0;
}

void pdl_segment_free(pdl_segment *s)
{
    sol_graph_free(s->graph);
    free(s->proc);
    free(s->task);
    free(s->exit);
    free(s->first);
    free(s->col_lo);
    free(s->col_hi);
    memset(s, 0, sizeof *s);
}

int pdl_seg_node(pdl_gen *g, pdl_segment *s, const sol_dist *d, uint32_t tag, uint32_t *id)
{
    return pdl_seg_node_on(g, s, d, tag, PDL_NONE, PDL_NONE, id);
}

int pdl_seg_node_on(pdl_gen *g, pdl_segment *s, const sol_dist *d, uint32_t tag, uint64_t proc,
                    uint32_t task, uint32_t *id)
{
    sol_status st = sol_graph_add_node(g->sc, s->graph, d, tag, id);
    if (st == SOL_OK && *id >= s->capproc) {
        size_t cap = s->capproc ? s->capproc * 2 : 64;
        uint64_t *n = realloc(s->proc, cap * sizeof *n);
        if (n)
            s->proc = n;
        uint32_t *t = n ? realloc(s->task, cap * sizeof *t) : NULL;
        if (t)
            s->task = t;
        if (!n || !t)
            return oom(g);
        s->capproc = cap;
    }
    if (st == SOL_OK) {
        s->proc[*id] = proc;
        s->task[*id] = task;
    }
    if (st == SOL_ELIMIT) {
        pdl_error(g->d, g->here, "the generic model has more than %zu nodes", g->graph_limit);
        where_note(g, g->here);
        return -1;
    }
    return st == SOL_OK ? 0 : pdl_gen_solver_error(g, g->here);
}

int pdl_seg_arc(pdl_gen *g, pdl_segment *s, uint32_t from, uint32_t to)
{
    if (from == PDL_NONE || from == to)
        return 0;
    return sol_graph_add_arc(g->sc, s->graph, from, to) == SOL_OK
               ? 0
               : pdl_gen_solver_error(g, g->here);
}

int pdl_seg_message(pdl_gen *g, pdl_segment *s, uint32_t from, uint64_t a, uint32_t to, uint64_t b,
                    double bytes, uint32_t phase, pdl_loc at)
{
    double t = 0;
    if (a != b && pdl_gen_message(g, bytes, a, b, at, &t) != 0)
        return -1;
    if (t <= 0)
        return pdl_seg_arc(g, s, from, to);
    sol_dist *m;
    uint32_t id;
    if (pdl_gen_point(g, t, at, &m) != 0)
        return -1;
    int rc = pdl_seg_node(g, s, m, PDL_TAG(PDL_NODE_COMM, phase), &id);
    sol_dist_free(m);
    if (rc == 0)
        rc = pdl_seg_arc(g, s, from, id);
    if (rc == 0)
        rc = pdl_seg_arc(g, s, id, to);
    return rc;
}

int pdl_seg_join(pdl_gen *g, pdl_segment *s, int join, uint64_t k, uint32_t node,
                 const pdl_phase *ph)
{
    (void)ph;
    if (s->empty)
        return pdl_seg_arc(g, s, s->source, node);
    if (s->sync_exit != PDL_NONE)
        return pdl_seg_arc(g, s, s->sync_exit, node);
    if (join == (int)PDL_J_SERIAL)
        return pdl_seg_arc(g, s, s->exit[k] != PDL_NONE ? s->exit[k] : s->source, node);
    /* Neighbour joins: after processors k-1, k and k+1 of the previous instance (wrapping
       around for the torus joins). Precedence only: each phase's data moves inside its own
       instance (scatters, pipeline messages, fork and join, a NEIGHBOR phase's unit-level
       exchanges), as the scaled model counts it. */
    int wrap = join == (int)PDL_J_TORUS || join == (int)PDL_J_NEIGHBOR_TORUS;
    int any = 0;
    for (int dk = -1; dk <= 1; dk++) {
        int64_t q = (int64_t)k + dk;
        if (q < 0 || q >= (int64_t)s->p) {
            if (!wrap || s->p < 3)
                continue;
            q = (q + (int64_t)s->p) % (int64_t)s->p;
        }
        if (s->exit[q] == PDL_NONE)
            continue;
        any = 1;
        if (pdl_seg_arc(g, s, s->exit[q], node) != 0)
            return -1;
    }
    return any ? 0 : pdl_seg_arc(g, s, s->source, node);
}

int pdl_seg_set_exits(pdl_gen *g, pdl_segment *s, const uint32_t *exit, uint32_t sync_exit,
                      const pdl_phase *ph)
{
    (void)g;
    s->empty = 0;
    s->prev = ph;
    if (sync_exit != PDL_NONE) {
        s->sync_exit = sync_exit;
        for (uint64_t k = 0; k < s->p; k++)
            s->exit[k] = sync_exit;
        return 0;
    }
    /* A processor idle in this instance keeps the exit of its last work. */
    s->sync_exit = PDL_NONE;
    for (uint64_t k = 0; k < s->p; k++)
        if (exit[k] != PDL_NONE)
            s->exit[k] = exit[k];
    return 0;
}
