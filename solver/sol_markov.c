/* The execution of a task graph with phase-type (Erlang) durations as an absorbing Markov
 * chain: states are discovered breadth first (every transition completes one phase, so states
 * come out ordered by the number of completed phases), then the mean time to absorption is
 * computed backwards, E(s) = (1 + sum_i rate_i E(s_i)) / sum_i rate_i. */
#include "sol_markov.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "sol_dag.h"
#include "sol_dist.h"

typedef struct chain {
    sol_ctx *ctx;
    const sol_dag *d;
    size_t n;        /* nodes = key length: key[v] = phases of v completed */
    uint8_t *phases; /* K_v (0: the deterministic 0) */
    double *rate;    /* per phase */
    uint8_t *keys;   /* states, n bytes each, in discovery order */
    size_t count, cap, limit;
    uint32_t *table; /* open addressing: state index + 1, 0 empty */
    size_t tsize;
} chain;

static uint64_t hash(const uint8_t *k, size_t n)
{
    uint64_t h = 1469598103934665603u;
    for (size_t i = 0; i < n; i++)
        h = (h ^ k[i]) * 1099511628211u;
    return h ^ (h >> 29);
}

/* Which nodes count as finished in state k: a timed node when all its phases are done, a
 * zero-duration node as soon as all its predecessors are (it takes no time, but its successors
 * still wait for its predecessors through it). O(N + A). */
static void effective(const chain *c, const uint8_t *k, unsigned char *fin)
{
    for (size_t i = 0; i < c->n; i++) {
        uint32_t v = c->d->order[i];
        int all = 1;
        for (size_t j = c->d->poff[v]; j < c->d->poff[v + 1] && all; j++)
            all = fin[c->d->pred[j]];
        fin[v] = c->phases[v] > 0 ? k[v] == c->phases[v] : all;
    }
}

/* Running: a timed node not finished whose predecessors all are. */
static int running(const chain *c, const unsigned char *fin, uint32_t v)
{
    if (c->phases[v] == 0 || fin[v])
        return 0;
    for (size_t i = c->d->poff[v]; i < c->d->poff[v + 1]; i++)
        if (!fin[c->d->pred[i]])
            return 0;
    return 1;
}

static sol_status grow_table(chain *c)
{
    size_t ns = c->tsize ? 2 * c->tsize : 1024;
    uint32_t *t = calloc(ns, sizeof *t);
    if (t == NULL)
        return sol_ctx_fail(c->ctx, SOL_ENOMEM, "out of memory for the Markov chain's states");
    for (size_t s = 0; s < c->count; s++) {
        size_t h = hash(c->keys + s * c->n, c->n) & (ns - 1);
        while (t[h] != 0)
            h = (h + 1) & (ns - 1);
        t[h] = (uint32_t)(s + 1);
    }
    free(c->table);
    c->table = t;
    c->tsize = ns;
    return SOL_OK;
}

/* Index of state k, added when new (*idx). */
static sol_status lookup(chain *c, const uint8_t *k, int add, size_t *idx)
{
    size_t h = hash(k, c->n) & (c->tsize - 1);
    while (c->table[h] != 0) {
        size_t s = c->table[h] - 1;
        if (memcmp(c->keys + s * c->n, k, c->n) == 0) {
            *idx = s;
            return SOL_OK;
        }
        h = (h + 1) & (c->tsize - 1);
    }
    if (!add)
        return sol_ctx_fail(c->ctx, SOL_ENUMERIC, "Markov chain: a successor state is missing");
    if (c->count >= c->limit)
        return sol_ctx_fail(c->ctx, SOL_ELIMIT,
                            "Markov chain: more than %zu states (the state limit); use bounds or "
                            "simulation, or raise the limit",
                            c->limit);
    if (c->count == c->cap) {
        size_t nc = c->cap ? 2 * c->cap : 1024;
        if (nc > c->limit)
            nc = c->limit;
        uint8_t *p = realloc(c->keys, nc * c->n);
        if (p == NULL)
            return sol_ctx_fail(c->ctx, SOL_ENOMEM,
                                "out of memory for the Markov chain's states (%zu states)",
                                c->count);
        c->keys = p;
        c->cap = nc;
    }
    memcpy(c->keys + c->count * c->n, k, c->n);
    c->table[h] = (uint32_t)(c->count + 1);
    *idx = c->count++;
    if (2 * c->count > c->tsize)
        return grow_table(c);
    return SOL_OK;
}

/* The transitions out of state s, each running node completing one phase (k and fin are
 * scratch). Discovery (val NULL) adds the successors; otherwise *out = E(s) = (1 + sum of rate *
 * E(successor)) / total rate, from the successors' values. */
static sol_status transitions(chain *c, size_t s, const double *val, uint8_t *k, unsigned char *fin,
                              double *out)
{
    double total = 0.0, acc = 0.0;
    sol_status st = SOL_OK;
    effective(c, c->keys + s * c->n, fin);
    for (uint32_t v = 0; st == SOL_OK && v < c->n; v++) {
        if (!running(c, fin, v))
            continue;
        memcpy(k, c->keys + s * c->n, c->n); /* keys may have moved: re-read */
        k[v]++;
        size_t idx;
        st = lookup(c, k, val == NULL, &idx);
        total += c->rate[v];
        if (st == SOL_OK && val != NULL)
            acc += c->rate[v] * val[idx];
    }
    if (out != NULL)
        *out = total > 0.0 ? (1.0 + acc) / total : 0.0;
    return st;
}

static sol_status check_laws(chain *c, const sol_graph *g)
{
    for (uint32_t v = 0; v < c->n; v++) {
        uint64_t k;
        double r;
        if (!sol_dist_erlang_params(c->d->dist[v], &k, &r)) {
            const char *law = sol_dist_law_name(c->d->dist[v]);
            return sol_ctx_fail(c->ctx, SOL_EINVAL,
                                "Markov chain: node %lu (tag %lu) is %s, not exponential, Erlang "
                                "or the deterministic 0",
                                (unsigned long)v, (unsigned long)sol_graph_node_tag(g, v),
                                law ? law : "a general distribution");
        }
        if (k > SOL_MARKOV_PHASES_MAX)
            return sol_ctx_fail(c->ctx, SOL_EINVAL,
                                "Markov chain: node %lu has %llu phases (at most %d)",
                                (unsigned long)v, (unsigned long long)k, SOL_MARKOV_PHASES_MAX);
        c->phases[v] = (uint8_t)k;
        c->rate[v] = r;
    }
    return SOL_OK;
}

sol_status sol_markov_mean(sol_ctx *ctx, const sol_graph *g, size_t max_states, double *mean,
                           size_t *states)
{
    *mean = 0.0;
    if (states != NULL)
        *states = 0;
    if (max_states == 0)
        max_states = SOL_MARKOV_STATES_DEFAULT;
    if (max_states > SOL_MARKOV_STATES_MAX)
        return sol_ctx_fail(ctx, SOL_EINVAL, "Markov chain: state limit %zu exceeds %zu",
                            max_states, SOL_MARKOV_STATES_MAX);
    sol_dag d;
    sol_status st = sol_dag_build(ctx, g, &d);
    if (st != SOL_OK)
        return st;
    chain c = {ctx, &d, d.n, NULL, NULL, NULL, 0, 0, max_states, NULL, 0};
    c.phases = malloc(d.n ? d.n : 1);
    c.rate = malloc((d.n ? d.n : 1) * sizeof *c.rate);
    uint8_t *k = malloc(d.n ? d.n : 1);
    unsigned char *fin = malloc(d.n ? d.n : 1);
    double *val = NULL;
    if (!c.phases || !c.rate || !k || !fin)
        st = sol_ctx_fail(ctx, SOL_ENOMEM, "out of memory for a Markov chain");
    if (st == SOL_OK)
        st = check_laws(&c, g);
    if (st == SOL_OK)
        st = grow_table(&c);
    size_t idx;
    if (st == SOL_OK) {
        memset(k, 0, d.n);
        st = lookup(&c, k, 1, &idx);
    }
    /* breadth first: each transition completes one phase of one running node */
    for (size_t s = 0; st == SOL_OK && s < c.count; s++)
        st = transitions(&c, s, NULL, k, fin, NULL);
    if (st == SOL_OK && (val = malloc(c.count * sizeof *val)) == NULL)
        st = sol_ctx_fail(ctx, SOL_ENOMEM, "out of memory for the Markov chain's values");
    /* backwards: successors were discovered after their predecessors */
    for (size_t s = c.count; st == SOL_OK && s-- > 0;)
        st = transitions(&c, s, val, k, fin, &val[s]);
    if (st == SOL_OK) {
        *mean = val[0];
        if (states != NULL)
            *states = c.count;
    }
    free(val);
    free(fin);
    free(k);
    free(c.phases);
    free(c.rate);
    free(c.keys);
    free(c.table);
    sol_dag_free(&d);
    return st;
}

/* Kuhn's augmenting path from the out-copy of u, iteratively (graphs may be deep): mate_in[w]
 * is the node whose out-copy is matched to w's in-copy. */
static int augment(const sol_dag *d, uint32_t u, uint32_t *mate_in, uint32_t *mate_out,
                   uint32_t *seen, uint32_t stamp, uint32_t *stack, size_t *pos)
{
    size_t top = 0;
    stack[top] = u;
    pos[top] = d->soff[u];
    while (1) {
        uint32_t x = stack[top];
        if (pos[top] == d->soff[x + 1]) {
            if (top == 0)
                return 0;
            top--;
            continue;
        }
        uint32_t w = d->succ[pos[top]++];
        if (seen[w] == stamp)
            continue;
        seen[w] = stamp;
        if (mate_in[w] == UINT32_MAX) {
            /* flip the path: every out-copy on the stack takes the in-copy it went to last
               (for the top one, w) */
            for (size_t i = 0; i <= top; i++) {
                uint32_t next = d->succ[pos[i] - 1];
                mate_in[next] = stack[i];
                mate_out[stack[i]] = next;
            }
            return 1;
        }
        stack[++top] = mate_in[w];
        pos[top] = d->soff[mate_in[w]];
    }
}

double sol_markov_states_bound(sol_ctx *ctx, const sol_graph *g)
{
    sol_dag d;
    if (sol_dag_build(ctx, g, &d) != SOL_OK) {
        sol_dag_free(&d);
        return INFINITY;
    }
    size_t n = d.n ? d.n : 1;
    uint32_t *mate_in = malloc(n * sizeof *mate_in), *mate_out = malloc(n * sizeof *mate_out);
    uint32_t *seen = calloc(n, sizeof *seen), *stack = malloc(n * sizeof *stack);
    size_t *pos = malloc(n * sizeof *pos);
    double bound = INFINITY;
    if (!mate_in || !mate_out || !seen || !stack || !pos)
        goto done;
    for (uint32_t v = 0; v < d.n; v++) {
        uint64_t k;
        double r;
        if (!sol_dist_erlang_params(d.dist[v], &k, &r) || k > SOL_MARKOV_PHASES_MAX)
            goto done;
        mate_in[v] = mate_out[v] = UINT32_MAX;
    }
    for (uint32_t v = 0; v < d.n; v++)
        (void)augment(&d, v, mate_in, mate_out, seen, v + 1, stack, pos);
    /* each path starts at a node whose in-copy is unmatched */
    bound = 1.0;
    for (uint32_t v = 0; v < d.n; v++) {
        if (mate_in[v] != UINT32_MAX)
            continue;
        double states = 1.0;
        for (uint32_t x = v; x != UINT32_MAX; x = mate_out[x]) {
            uint64_t k;
            double r;
            sol_dist_erlang_params(d.dist[x], &k, &r);
            states += (double)k;
        }
        bound *= states;
    }
done:
    free(mate_in);
    free(mate_out);
    free(seen);
    free(stack);
    free(pos);
    sol_dag_free(&d);
    return bound;
}
