/* Bounding methods for the mean makespan of non-series-parallel task graphs: exact reduction
 * first, then on the residual: forward passes (CPM, Kleindorfer), and an engine that repeats
 * series/parallel merges (distributions computed as merges happen) and, when stuck, deletes an
 * arc, inserts arcs or duplicates a node; conditioning reruns the duplication engine with a few
 * nodes fixed to constants. */
#include "sol_bounds.h"

#include "sol_markov.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <gsl/gsl_rng.h>

#include "sol_dag.h"
#include "sol_set.h"

/* Candidates scored per greedy step of arc deletion/insertion: bounds the step's cost. */
#define SCORE_MAX 64

static sol_status nomem(sol_ctx *ctx)
{
    return sol_ctx_fail(ctx, SOL_ENOMEM, "out of memory for a bounding method");
}

/* ---------------------------------------------------------------- the reduction engine */

/* A graph under reduction: alive nodes with sorted predecessor/successor sets and their current
 * distributions (merges are computed as they happen, so the heuristics can read exact means and
 * variances; copies share one distribution by reference). */
typedef struct eng {
    sol_ctx *ctx;
    size_t n, cap, limit; /* node slots used, allocated, allowed */
    sol_set *pred, *succ;
    sol_dist **d;
    unsigned char *alive, *queued;
    uint32_t *work;
    size_t nwork, nalive;
    uint32_t src, snk;
    size_t dups, inexact_dups; /* copies made; copies of random (not one-point) nodes */
    int track;                 /* keep mem[]: the residual nodes merged into each node */
    int shape;                 /* merges change the graph only (distributions untouched): a
                                  series-parallel test that costs no distribution operation */
    sol_set *mem;
} eng;

static void eng_free(eng *e)
{
    for (size_t i = 0; i < e->n; i++) {
        free(e->pred[i].a);
        free(e->succ[i].a);
        sol_dist_free(e->d[i]);
        if (e->mem)
            free(e->mem[i].a);
    }
    free(e->pred);
    free(e->succ);
    free(e->d);
    free(e->alive);
    free(e->queued);
    free(e->work);
    free(e->mem);
    memset(e, 0, sizeof *e);
}

static int is_point(const sol_dist *d)
{
    return !sol_dist_is_lattice(d) && sol_dist_len(d) == 1;
}

/* Room for one more node. */
static sol_status eng_reserve(eng *e)
{
    if (e->n < e->cap)
        return SOL_OK;
    if (e->n >= e->limit)
        return sol_ctx_fail(e->ctx, SOL_ELIMIT, "bounding engine exceeds its limit of %zu nodes",
                            e->limit);
    size_t c = e->cap ? 2 * e->cap : 16;
    void *p[7] = {realloc(e->pred, c * sizeof *e->pred), NULL, NULL, NULL, NULL, NULL, NULL};
    if (p[0])
        e->pred = p[0];
    if ((p[1] = realloc(e->succ, c * sizeof *e->succ)) != NULL)
        e->succ = p[1];
    if ((p[2] = realloc(e->d, c * sizeof *e->d)) != NULL)
        e->d = p[2];
    if ((p[3] = realloc(e->alive, c)) != NULL)
        e->alive = p[3];
    if ((p[4] = realloc(e->queued, c)) != NULL)
        e->queued = p[4];
    if ((p[5] = realloc(e->work, c * sizeof *e->work)) != NULL)
        e->work = p[5];
    p[6] = e->mem;
    if (e->track && (p[6] = realloc(e->mem, c * sizeof *e->mem)) != NULL)
        e->mem = p[6];
    for (int i = 0; i < 7; i++)
        if (p[i] == NULL && (i < 6 || e->track))
            return nomem(e->ctx);
    memset(e->pred + e->cap, 0, (c - e->cap) * sizeof *e->pred);
    memset(e->succ + e->cap, 0, (c - e->cap) * sizeof *e->succ);
    memset(e->d + e->cap, 0, (c - e->cap) * sizeof *e->d);
    memset(e->alive + e->cap, 0, c - e->cap);
    memset(e->queued + e->cap, 0, c - e->cap);
    if (e->track)
        memset(e->mem + e->cap, 0, (c - e->cap) * sizeof *e->mem);
    e->cap = c;
    return SOL_OK;
}

static sol_status eng_add_node(eng *e, sol_dist *d, uint32_t *id)
{
    sol_status st = eng_reserve(e);
    if (st != SOL_OK)
        return st;
    *id = (uint32_t)e->n++;
    e->d[*id] = sol_dist_retain(d);
    e->alive[*id] = 1;
    e->nalive++;
    return SOL_OK;
}

static sol_status eng_add_arc(eng *e, uint32_t u, uint32_t v)
{
    if (sol_set_insert(&e->succ[u], v) < 0 || sol_set_insert(&e->pred[v], u) < 0)
        return nomem(e->ctx);
    return SOL_OK;
}

static void eng_push(eng *e, uint32_t v)
{
    if (!e->queued[v] && e->alive[v]) {
        e->queued[v] = 1;
        e->work[e->nwork++] = v;
    }
}

static void eng_push_around(eng *e, uint32_t v)
{
    eng_push(e, v);
    for (size_t i = 0; i < e->pred[v].n; i++)
        eng_push(e, e->pred[v].a[i]);
    for (size_t i = 0; i < e->succ[v].n; i++)
        eng_push(e, e->succ[v].a[i]);
}

/* The engine over a residual's adjacency, node v with distribution leaf[v]; limit bounds the
 * node count (copies included). */
static sol_status eng_init(sol_ctx *ctx, const sol_dag *g, const sol_dist *const *leaf,
                           size_t limit, int track, eng *e)
{
    memset(e, 0, sizeof *e);
    e->ctx = ctx;
    e->limit = limit > g->n ? limit : g->n;
    e->track = track;
    sol_status st = SOL_OK;
    e->src = e->snk = UINT32_MAX;
    for (uint32_t v = 0; st == SOL_OK && v < g->n; v++) {
        uint32_t id;
        st = eng_add_node(e, (sol_dist *)leaf[v], &id);
        if (st == SOL_OK && track && sol_set_insert(&e->mem[v], v) < 0)
            st = nomem(ctx);
        if (g->poff[v] == g->poff[v + 1] && e->src == UINT32_MAX)
            e->src = v;
        if (g->soff[v] == g->soff[v + 1])
            e->snk = v;
    }
    for (uint32_t v = 0; st == SOL_OK && v < g->n; v++)
        for (size_t i = g->soff[v]; st == SOL_OK && i < g->soff[v + 1]; i++)
            st = eng_add_arc(e, v, g->succ[i]);
    if (st != SOL_OK)
        eng_free(e);
    return st;
}

static int mem_union(eng *e, uint32_t into, uint32_t from)
{
    if (!e->track)
        return 0;
    for (size_t i = 0; i < e->mem[from].n; i++)
        if (sol_set_insert(&e->mem[into], e->mem[from].a[i]) < 0)
            return -1;
    return 0;
}

static void eng_kill(eng *e, uint32_t v)
{
    sol_dist_free(e->d[v]);
    e->d[v] = NULL;
    e->alive[v] = 0;
    e->nalive--;
    e->pred[v].n = e->succ[v].n = 0;
}

/* v absorbs its only successor s (s's only predecessor is v). */
static sol_status eng_series(eng *e, uint32_t v, uint32_t s)
{
    sol_dist *sum = NULL;
    sol_status st = e->shape ? (sum = sol_dist_retain(e->d[v]), SOL_OK)
                             : sol_dist_series(e->ctx, e->d[v], e->d[s], &sum);
    if (st != SOL_OK)
        return st;
    if (mem_union(e, v, s))
        return nomem(e->ctx);
    sol_dist_free(e->d[v]);
    e->d[v] = sum;
    sol_set tmp = e->succ[v];
    e->succ[v] = e->succ[s];
    e->succ[s] = tmp;
    for (size_t i = 0; i < e->succ[v].n; i++) {
        uint32_t t = e->succ[v].a[i];
        sol_set_remove(&e->pred[t], s);
        if (sol_set_insert(&e->pred[t], v) < 0)
            return nomem(e->ctx);
        eng_push(e, t);
    }
    if (s == e->snk)
        e->snk = v;
    eng_kill(e, s);
    eng_push_around(e, v);
    return SOL_OK;
}

/* Merges every node with v's predecessor and successor sets into v (maximum). */
static sol_status eng_parallel(eng *e, uint32_t v)
{
    const sol_set *P = &e->pred[v];
    if (P->n == 0 || e->succ[v].n == 0)
        return SOL_OK;
    uint32_t p = P->a[0];
    for (size_t i = 1; i < P->n; i++)
        if (e->succ[P->a[i]].n < e->succ[p].n)
            p = P->a[i];
    const sol_set *C = &e->succ[p];
    for (size_t i = 0; i < C->n; i++) {
        uint32_t w = C->a[i];
        if (w == v || !sol_set_equal(&e->pred[w], P) || !sol_set_equal(&e->succ[w], &e->succ[v]))
            continue;
        sol_dist *mx = NULL;
        sol_status st = e->shape ? (mx = sol_dist_retain(e->d[v]), SOL_OK)
                                 : sol_dist_max(e->ctx, e->d[v], e->d[w], &mx);
        if (st != SOL_OK)
            return st;
        if (mem_union(e, v, w)) {
            sol_dist_free(mx);
            return nomem(e->ctx);
        }
        sol_dist_free(e->d[v]);
        e->d[v] = mx;
        for (size_t j = 0; j < e->pred[w].n; j++)
            sol_set_remove(&e->succ[e->pred[w].a[j]], w);
        for (size_t j = 0; j < e->succ[w].n; j++)
            sol_set_remove(&e->pred[e->succ[w].a[j]], w);
        eng_kill(e, w);
        eng_push_around(e, v);
        return SOL_OK; /* C changed: v is queued again for the next sibling */
    }
    return SOL_OK;
}

static sol_status eng_reduce(eng *e)
{
    while (e->nwork > 0) {
        uint32_t v = e->work[--e->nwork];
        e->queued[v] = 0;
        if (!e->alive[v])
            continue;
        sol_status st;
        if (e->succ[v].n == 1 && e->pred[e->succ[v].a[0]].n == 1)
            st = eng_series(e, v, e->succ[v].a[0]);
        else if (e->pred[v].n == 1 && e->succ[e->pred[v].a[0]].n == 1)
            st = eng_series(e, e->pred[v].a[0], v);
        else
            st = eng_parallel(e, v);
        if (st != SOL_OK)
            return st;
    }
    return SOL_OK;
}

static void eng_push_all(eng *e)
{
    for (uint32_t v = (uint32_t)e->n; v-- > 0;)
        eng_push(e, v);
}

/* The one node left, or UINT32_MAX while the graph is not reduced to one. */
static uint32_t eng_root(const eng *e)
{
    if (e->nalive != 1)
        return UINT32_MAX;
    for (uint32_t v = 0; v < e->n; v++)
        if (e->alive[v])
            return v;
    return UINT32_MAX;
}

/* Topological order of the alive nodes into order (room for e->n); returns the count. */
static size_t eng_topo(const eng *e, uint32_t *order, uint32_t *indeg)
{
    size_t head = 0, tail = 0;
    for (uint32_t v = 0; v < e->n; v++) {
        indeg[v] = (uint32_t)e->pred[v].n;
        if (e->alive[v] && indeg[v] == 0)
            order[tail++] = v;
    }
    while (head < tail) {
        uint32_t v = order[head++];
        for (size_t i = 0; i < e->succ[v].n; i++)
            if (--indeg[e->succ[v].a[i]] == 0)
                order[tail++] = e->succ[v].a[i];
    }
    return tail;
}

/* Samples behind the greedy searches' estimates (common random numbers: every candidate is
 * scored on the same durations, so differences between candidates are not noise). */
#define MC_SAMPLES 128
/* A greedy step scores candidates until about this many node visits have been spent. */
#define MC_WORK ((size_t)1 << 25)

/* Scratch for the heuristics: a topological order, marks, sampled durations and finishes. */
typedef struct scratch {
    uint32_t *order, *tmp, *stack;
    unsigned char *mark;
    double *x, *f; /* MC_SAMPLES x cap durations and finishes, sample-major */
    size_t cap;
    gsl_rng *rng;
} scratch;

static void scratch_free(scratch *s)
{
    free(s->order);
    free(s->tmp);
    free(s->stack);
    free(s->mark);
    free(s->x);
    free(s->f);
    if (s->rng)
        gsl_rng_free(s->rng);
    memset(s, 0, sizeof *s);
}

static sol_status scratch_fit(sol_ctx *ctx, scratch *s, size_t n)
{
    if (s->rng == NULL && (s->rng = gsl_rng_alloc(gsl_rng_mt19937)) == NULL)
        return nomem(ctx);
    if (n <= s->cap)
        return SOL_OK;
    gsl_rng *r = s->rng;
    s->rng = NULL;
    scratch_free(s);
    s->rng = r;
    n = n < 64 ? 64 : 2 * n;
    s->order = malloc(n * sizeof *s->order);
    s->tmp = malloc(n * sizeof *s->tmp);
    s->stack = malloc(n * sizeof *s->stack);
    s->mark = calloc(n, 1);
    s->x = malloc(MC_SAMPLES * n * sizeof *s->x);
    s->f = malloc(MC_SAMPLES * n * sizeof *s->f);
    if (!s->order || !s->tmp || !s->stack || !s->mark || !s->x || !s->f) {
        scratch_free(s);
        return nomem(ctx);
    }
    s->cap = n;
    return SOL_OK;
}

/* Draws the durations of every alive node (a fixed seed: the searches are deterministic). */
static void mc_draw(const eng *e, scratch *s)
{
    gsl_rng_set(s->rng, 5489u);
    for (uint32_t v = 0; v < e->n; v++)
        if (e->alive[v])
            for (size_t r = 0; r < MC_SAMPLES; r++)
                s->x[r * s->cap + v] = sol_dist_sample(e->d[v], s->rng);
}

/* Sample mean of the makespan of the current graph on the drawn durations; finishes are left
 * in s->f. O(MC_SAMPLES * (N + A)). */
static double mc_estimate(const eng *e, scratch *s)
{
    size_t k = eng_topo(e, s->order, s->tmp);
    double total = 0.0;
    for (size_t r = 0; r < MC_SAMPLES; r++) {
        const double *x = s->x + r * s->cap;
        double *f = s->f + r * s->cap, T = 0.0;
        for (size_t i = 0; i < k; i++) {
            uint32_t v = s->order[i];
            double st = 0.0;
            for (size_t j = 0; j < e->pred[v].n; j++)
                st = f[e->pred[v].a[j]] > st ? f[e->pred[v].a[j]] : st;
            f[v] = st + x[v];
            T = f[v] > T ? f[v] : T;
        }
        total += T;
    }
    return total / MC_SAMPLES;
}

/* How many candidates a step can score within MC_WORK. */
static size_t mc_budget(const eng *e)
{
    size_t arcs = 0;
    for (uint32_t v = 0; v < e->n; v++)
        arcs += e->alive[v] ? e->pred[v].n : 0;
    size_t per = MC_SAMPLES * (e->nalive + arcs) + 1, k = MC_WORK / per;
    return k < 4 ? 4 : k > SCORE_MAX ? SCORE_MAX : k;
}

/* Marks (s->mark = 1) the nodes reachable from v by one or more arcs, forward (dir = 0) or
 * backward (dir = 1); marks must be cleared by the caller (eng_unmark). */
static void eng_reach(const eng *e, scratch *s, uint32_t v, int dir)
{
    size_t top = 0;
    s->stack[top++] = v;
    while (top > 0) {
        uint32_t x = s->stack[--top];
        const sol_set *nb = dir ? &e->pred[x] : &e->succ[x];
        for (size_t i = 0; i < nb->n; i++)
            if (!s->mark[nb->a[i]]) {
                s->mark[nb->a[i]] = 1;
                s->stack[top++] = nb->a[i];
            }
    }
}

static void eng_unmark(const eng *e, scratch *s)
{
    memset(s->mark, 0, e->n);
}

/* Removes the arcs u -> x for which another successor of u reaches x, for u in the nodes
 * marked in only[] (NULL: all). O(sum over those u of the part of the graph below u). */
static void eng_transred(eng *e, scratch *s, const unsigned char *only)
{
    for (uint32_t u = 0; u < e->n; u++) {
        if (!e->alive[u] || e->succ[u].n < 2 || (only && !only[u]))
            continue;
        eng_unmark(e, s);
        for (size_t i = 0; i < e->succ[u].n; i++)
            eng_reach(e, s, e->succ[u].a[i], 0);
        for (size_t i = e->succ[u].n; i-- > 0;) {
            uint32_t x = e->succ[u].a[i];
            if (s->mark[x]) {
                sol_set_remove(&e->succ[u], x);
                sol_set_remove(&e->pred[x], u);
                eng_push_around(e, x);
                eng_push_around(e, u);
            }
        }
    }
    eng_unmark(e, s);
}

/* ---------------------------------------------------------------- Dodin's duplication */

/* Copy of v that takes over w: forward (w's only predecessor is v): the copy has v's
 * predecessors and w as its only successor; backward (w's only successor is v): v's successors
 * and w as its only predecessor. The copy is independent of v, which can only make the
 * makespan larger (association); for a one-point v it changes nothing. */
static sol_status eng_dup(eng *e, uint32_t v, uint32_t w, int forward)
{
    uint32_t c;
    sol_status st = eng_add_node(e, e->d[v], &c);
    if (st != SOL_OK)
        return st;
    if (e->track && sol_set_copy(&e->mem[c], &e->mem[v]) < 0)
        return nomem(e->ctx);
    e->dups++;
    if (!is_point(e->d[v]))
        e->inexact_dups++;
    const sol_set *nb = forward ? &e->pred[v] : &e->succ[v];
    for (size_t i = 0; st == SOL_OK && i < nb->n; i++)
        st = forward ? eng_add_arc(e, nb->a[i], c) : eng_add_arc(e, c, nb->a[i]);
    if (st != SOL_OK)
        return st;
    if (forward) {
        sol_set_remove(&e->succ[v], w);
        sol_set_remove(&e->pred[w], v);
        st = eng_add_arc(e, c, w);
    } else {
        sol_set_remove(&e->pred[v], w);
        sol_set_remove(&e->succ[w], v);
        st = eng_add_arc(e, w, c);
    }
    eng_push_around(e, c);
    eng_push_around(e, v);
    eng_push(e, w);
    return st;
}

/* Order of duplication candidates: one-point nodes first (exact), then lower variance, then
 * fewer atoms (cheaper to condition on). */
static int dup_better(const eng *e, uint32_t v, uint32_t best)
{
    if (best == UINT32_MAX)
        return 1;
    int pv = is_point(e->d[v]), pb = is_point(e->d[best]);
    if (pv != pb)
        return pv;
    double vv = sol_dist_var(e->d[v]), vb = sol_dist_var(e->d[best]);
    if (vv != vb)
        return vv < vb;
    return sol_dist_len(e->d[v]) < sol_dist_len(e->d[best]);
}

/* Runs Dodin's method to the end; *out (owned by the caller) is the bound's distribution. With
 * track set, dupmem collects the residual nodes inside every duplicated node. */
static sol_status dodin_run(eng *e, sol_set *dupmem, sol_dist **out)
{
    *out = NULL;
    eng_push_all(e);
    for (;;) {
        sol_status st = eng_reduce(e);
        if (st != SOL_OK)
            return st;
        uint32_t root = eng_root(e);
        if (root != UINT32_MAX) {
            *out = sol_dist_retain(e->d[root]);
            return SOL_OK;
        }
        uint32_t bv = UINT32_MAX, bw = 0;
        int bfwd = 1;
        for (uint32_t w = 0; w < e->n; w++) {
            if (!e->alive[w] || w == e->src || w == e->snk)
                continue;
            if (e->pred[w].n == 1) {
                uint32_t v = e->pred[w].a[0];
                if (v != e->src && e->succ[v].n >= 2 && dup_better(e, v, bv)) {
                    bv = v, bw = w, bfwd = 1;
                }
            }
            if (e->succ[w].n == 1) {
                uint32_t v = e->succ[w].a[0];
                if (v != e->snk && e->pred[v].n >= 2 && dup_better(e, v, bv)) {
                    bv = v, bw = w, bfwd = 0;
                }
            }
        }
        if (bv == UINT32_MAX) {
            /* every node next to a fork or join is an end: split a fork node anyway (its copy
             * serves one successor), the one with the fewest predecessors */
            size_t bp = SIZE_MAX;
            for (uint32_t v = 0; v < e->n; v++)
                if (e->alive[v] && v != e->src && e->succ[v].n >= 2 && e->pred[v].n < bp) {
                    bv = v;
                    bw = e->succ[v].a[0];
                    bp = e->pred[v].n;
                }
            if (bv == UINT32_MAX)
                return sol_ctx_fail(e->ctx, SOL_ENUMERIC, "Dodin: no node to duplicate");
        }
        if (dupmem != NULL && e->track)
            for (size_t i = 0; i < e->mem[bv].n; i++)
                if (sol_set_insert(dupmem, e->mem[bv].a[i]) < 0)
                    return nomem(e->ctx);
        st = eng_dup(e, bv, bw, bfwd);
        if (st != SOL_OK)
            return st;
    }
}

/* ---------------------------------------------------------------- arc deletion */

/* Can a merge happen at x (series with its only neighbour, or parallel with a twin)? */
static int can_merge(const eng *e, uint32_t x)
{
    if (e->succ[x].n == 1 && e->pred[e->succ[x].a[0]].n == 1)
        return 1;
    if (e->pred[x].n == 1 && e->succ[e->pred[x].a[0]].n == 1)
        return 1;
    if (e->pred[x].n == 0 || e->succ[x].n == 0)
        return 0;
    const sol_set *C = &e->succ[e->pred[x].a[0]];
    for (size_t i = 0; i < C->n; i++)
        if (C->a[i] != x && sol_set_equal(&e->pred[C->a[i]], &e->pred[x]) &&
            sol_set_equal(&e->succ[C->a[i]], &e->succ[x]))
            return 1;
    return 0;
}

/* Deletes u -> v; a node left without successors (predecessors) is tied to the sink (source).
 * *tie_u, *tie_v say which ties were added, for undo. */
static sol_status del_arc(eng *e, uint32_t u, uint32_t v, int *tie_u, int *tie_v)
{
    sol_set_remove(&e->succ[u], v);
    sol_set_remove(&e->pred[v], u);
    *tie_u = e->succ[u].n == 0;
    *tie_v = e->pred[v].n == 0;
    sol_status st = SOL_OK;
    if (*tie_u)
        st = eng_add_arc(e, u, e->snk);
    if (st == SOL_OK && *tie_v)
        st = eng_add_arc(e, e->src, v);
    return st;
}

static sol_status undel_arc(eng *e, uint32_t u, uint32_t v, int tie_u, int tie_v)
{
    if (tie_u) {
        sol_set_remove(&e->succ[u], e->snk);
        sol_set_remove(&e->pred[e->snk], u);
    }
    if (tie_v) {
        sol_set_remove(&e->succ[e->src], v);
        sol_set_remove(&e->pred[v], e->src);
    }
    return eng_add_arc(e, u, v);
}

/* ---------------------------------------------------------------- arc insertion */

/* 1 when giving v and w the union of their predecessor and successor sets closes no cycle. */
static int union_ok(const eng *e, scratch *s, uint32_t v, uint32_t w)
{
    /* a predecessor that v or w reaches, or a successor that reaches them, would close a cycle */
    int ok = 1;
    eng_unmark(e, s);
    eng_reach(e, s, v, 0);
    eng_reach(e, s, w, 0);
    for (int k = 0; k < 2 && ok; k++) {
        const sol_set *P = &e->pred[k ? w : v];
        for (size_t i = 0; i < P->n && ok; i++)
            ok = !s->mark[P->a[i]];
    }
    ok = ok && !s->mark[v] && !s->mark[w];
    eng_unmark(e, s);
    if (ok) {
        eng_reach(e, s, v, 1);
        eng_reach(e, s, w, 1);
        for (int k = 0; k < 2 && ok; k++) {
            const sol_set *S = &e->succ[k ? w : v];
            for (size_t i = 0; i < S->n && ok; i++)
                ok = !s->mark[S->a[i]];
        }
        eng_unmark(e, s);
    }
    return ok;
}

/* Adds the arcs of the union of v's and w's neighbours, appending them (pairs) to *added. */
static sol_status union_add(eng *e, uint32_t v, uint32_t w, uint32_t **added, size_t *nadded,
                            size_t *acap)
{
    for (int dir = 0; dir < 2; dir++)
        for (int k = 0; k < 2; k++) {
            uint32_t from = k ? w : v, to = k ? v : w;
            const sol_set *nb = dir ? &e->succ[from] : &e->pred[from];
            for (size_t i = 0; i < nb->n; i++) {
                uint32_t a = dir ? to : nb->a[i], b = dir ? nb->a[i] : to;
                if (sol_set_has(&e->succ[a], b))
                    continue;
                if (*nadded + 1 > *acap) {
                    size_t c = *acap ? 2 * *acap : 32;
                    uint32_t *p = realloc(*added, 2 * c * sizeof *p);
                    if (p == NULL)
                        return nomem(e->ctx);
                    *added = p;
                    *acap = c;
                }
                (*added)[2 * *nadded] = a;
                (*added)[2 * *nadded + 1] = b;
                ++*nadded;
                sol_status st = eng_add_arc(e, a, b);
                if (st != SOL_OK)
                    return st;
            }
        }
    return SOL_OK;
}

static void union_undo(eng *e, const uint32_t *added, size_t nadded)
{
    for (size_t i = 0; i < nadded; i++) {
        sol_set_remove(&e->succ[added[2 * i]], added[2 * i + 1]);
        sol_set_remove(&e->pred[added[2 * i + 1]], added[2 * i]);
    }
}

/* Number of arcs the union of v and w adds (a cheap first ranking). */
static size_t union_cost(const eng *e, uint32_t v, uint32_t w)
{
    size_t c = 0;
    for (int k = 0; k < 2; k++) {
        uint32_t a = k ? w : v, b = k ? v : w;
        for (size_t i = 0; i < e->pred[a].n; i++)
            c += !sol_set_has(&e->pred[b], e->pred[a].a[i]);
        for (size_t i = 0; i < e->succ[a].n; i++)
            c += !sol_set_has(&e->succ[b], e->succ[a].a[i]);
    }
    return c;
}

/* ---------------------------------------------------------------- greedy searches */

/* Undoes eng_dup(e, v, w, forward) when the copy is the last node and nothing else changed. */
static sol_status eng_undup(eng *e, uint32_t v, uint32_t w, int forward)
{
    uint32_t c = (uint32_t)(e->n - 1);
    for (size_t i = 0; i < e->pred[c].n; i++)
        sol_set_remove(&e->succ[e->pred[c].a[i]], c);
    for (size_t i = 0; i < e->succ[c].n; i++)
        sol_set_remove(&e->pred[e->succ[c].a[i]], c);
    e->dups--;
    if (!is_point(e->d[c]))
        e->inexact_dups--;
    eng_kill(e, c);
    free(e->pred[c].a);
    free(e->succ[c].a);
    e->pred[c] = e->succ[c] = (sol_set){NULL, 0, 0};
    e->n--;
    return forward ? eng_add_arc(e, v, w) : eng_add_arc(e, w, v);
}

/* A move of the greedy searches: delete u -> v (DEL), copy v for w (DUP, independent copy),
 * fix v at its mean and copy it for w (JENSEN), give u and v each other's neighbours (UNION), or
 * keep only the neighbours they share (INTER); UNION and INTER let them merge in parallel. */
enum { MV_DEL, MV_DUP, MV_JENSEN, MV_UNION, MV_INTER };
typedef struct move {
    int kind, forward;
    uint32_t a, b;
    double key;
} move;

static int cmp_move(const void *x, const void *y)
{
    const move *p = x, *q = y;
    if (p->key != q->key)
        return p->key < q->key ? -1 : 1;
    if (p->kind != q->kind)
        return p->kind < q->kind ? -1 : 1;
    if (p->a != q->a)
        return p->a < q->a ? -1 : 1;
    if (p->b != q->b)
        return p->b < q->b ? -1 : 1;
    return p->forward - q->forward;
}

typedef struct moves {
    move *m;
    size_t n, cap;
} moves;

static sol_status moves_add(sol_ctx *ctx, moves *ms, move mv)
{
    if (ms->n == ms->cap) {
        size_t c = ms->cap ? 2 * ms->cap : 64;
        move *p = realloc(ms->m, c * sizeof *p);
        if (p == NULL)
            return nomem(ctx);
        ms->m = p;
        ms->cap = c;
    }
    ms->m[ms->n++] = mv;
    return SOL_OK;
}

/* Copy moves (Dodin's candidates: a node next to a fork or join whose other side is single),
 * keyed by the copied node's variance; kind is MV_DUP or MV_JENSEN. Jensen moves are listed
 * once per node (fixing v serves all of its copies). */
static sol_status dup_moves(eng *e, int kind, moves *ms)
{
    sol_status st = SOL_OK;
    for (uint32_t w = 0; w < e->n && st == SOL_OK; w++) {
        if (!e->alive[w] || w == e->src || w == e->snk)
            continue;
        for (int fwd = 1; fwd >= 0 && st == SOL_OK; fwd--) {
            const sol_set *side = fwd ? &e->pred[w] : &e->succ[w];
            if (side->n != 1)
                continue;
            uint32_t v = side->a[0];
            if (v == (fwd ? e->src : e->snk) || (fwd ? e->succ[v].n : e->pred[v].n) < 2 ||
                (kind == MV_JENSEN && is_point(e->d[v])))
                continue;
            double var = is_point(e->d[v]) ? -1.0 : sol_dist_var(e->d[v]);
            st = moves_add(e->ctx, ms, (move){kind, fwd, v, w, var});
        }
    }
    return st;
}

/* Deletes the arcs that leave siblings v and w with the intersections of their predecessor and
 * successor sets; each deletion is recorded as (from, to, tie_from, tie_to) in *del for undo. */
static sol_status inter_del(eng *e, uint32_t v, uint32_t w, uint32_t **del, size_t *ndel,
                            size_t *cap)
{
    uint32_t arcs[2 * 64];
    size_t na = 0;
    for (int k = 0; k < 2; k++) {
        uint32_t x = k ? w : v, y = k ? v : w;
        for (size_t i = 0; i < e->pred[x].n && na < 64; i++)
            if (!sol_set_has(&e->pred[y], e->pred[x].a[i])) {
                arcs[2 * na] = e->pred[x].a[i];
                arcs[2 * na++ + 1] = x;
            }
        for (size_t i = 0; i < e->succ[x].n && na < 64; i++)
            if (!sol_set_has(&e->succ[y], e->succ[x].a[i])) {
                arcs[2 * na] = x;
                arcs[2 * na++ + 1] = e->succ[x].a[i];
            }
    }
    *ndel = 0;
    for (size_t i = 0; i < na; i++) {
        if (*ndel == *cap) {
            size_t c = *cap ? 2 * *cap : 16;
            uint32_t *p = realloc(*del, 4 * c * sizeof *p);
            if (p == NULL)
                return nomem(e->ctx);
            *del = p;
            *cap = c;
        }
        int tu, tv;
        uint32_t *r = *del + 4 * *ndel;
        sol_status st = del_arc(e, arcs[2 * i], arcs[2 * i + 1], &tu, &tv);
        r[0] = arcs[2 * i];
        r[1] = arcs[2 * i + 1];
        r[2] = (uint32_t)tu;
        r[3] = (uint32_t)tv;
        ++*ndel;
        if (st != SOL_OK)
            return st;
    }
    return SOL_OK;
}

static sol_status inter_undo(eng *e, const uint32_t *del, size_t ndel)
{
    sol_status st = SOL_OK;
    for (size_t i = ndel; i-- > 0 && st == SOL_OK;)
        st = undel_arc(e, del[4 * i], del[4 * i + 1], (int)del[4 * i + 2], (int)del[4 * i + 3]);
    return st;
}

/* Sample estimate after move mv (then undone); *merge tells whether a merge becomes possible. */
static sol_status try_move(eng *e, scratch *s, const move *mv, double *est, int *merge)
{
    sol_status st = SOL_OK;
    *merge = 1;
    if (mv->kind == MV_JENSEN) {
        double m = sol_dist_mean(e->d[mv->a]), saved[MC_SAMPLES];
        for (size_t r = 0; r < MC_SAMPLES; r++) {
            saved[r] = s->x[r * s->cap + mv->a];
            s->x[r * s->cap + mv->a] = m;
        }
        *est = mc_estimate(e, s);
        for (size_t r = 0; r < MC_SAMPLES; r++)
            s->x[r * s->cap + mv->a] = saved[r];
    } else if (mv->kind == MV_DUP) {
        st = eng_dup(e, mv->a, mv->b, mv->forward);
        if (st == SOL_OK) {
            uint32_t c = (uint32_t)(e->n - 1);
            for (size_t r = 0; r < MC_SAMPLES; r++)
                s->x[r * s->cap + c] = sol_dist_sample(e->d[c], s->rng);
            *est = mc_estimate(e, s);
            st = eng_undup(e, mv->a, mv->b, mv->forward);
        }
    } else if (mv->kind == MV_DEL) {
        int tu, tv;
        st = del_arc(e, mv->a, mv->b, &tu, &tv);
        if (st == SOL_OK) {
            *merge = can_merge(e, mv->a) || can_merge(e, mv->b);
            *est = mc_estimate(e, s);
            st = undel_arc(e, mv->a, mv->b, tu, tv);
        }
    } else if (mv->kind == MV_INTER) {
        uint32_t *del = NULL;
        size_t ndel = 0, dcap = 0;
        st = inter_del(e, mv->a, mv->b, &del, &ndel, &dcap);
        *merge = can_merge(e, mv->a);
        *est = mc_estimate(e, s);
        sol_status s2 = inter_undo(e, del, ndel);
        st = st != SOL_OK ? st : s2;
        free(del);
    } else {
        uint32_t *added = NULL;
        size_t nadded = 0, acap = 0;
        st = union_add(e, mv->a, mv->b, &added, &nadded, &acap);
        *est = mc_estimate(e, s);
        union_undo(e, added, nadded);
        free(added);
    }
    return st;
}

/* Applies move mv for good. */
static sol_status do_move(eng *e, scratch *s, const move *mv)
{
    sol_status st = SOL_OK;
    if (mv->kind == MV_JENSEN) {
        sol_dist *pt;
        st = sol_dist_deterministic(e->ctx, sol_dist_mean(e->d[mv->a]), &pt);
        if (st != SOL_OK)
            return st;
        sol_dist_free(e->d[mv->a]);
        e->d[mv->a] = pt;
        st = eng_dup(e, mv->a, mv->b, mv->forward);
    } else if (mv->kind == MV_DUP) {
        st = eng_dup(e, mv->a, mv->b, mv->forward);
    } else if (mv->kind == MV_DEL) {
        int tu, tv;
        st = del_arc(e, mv->a, mv->b, &tu, &tv);
    } else if (mv->kind == MV_INTER) {
        uint32_t *del = NULL;
        size_t ndel = 0, dcap = 0;
        st = inter_del(e, mv->a, mv->b, &del, &ndel, &dcap);
        for (size_t i = 0; i < ndel; i++) {
            eng_push_around(e, del[4 * i]);
            eng_push_around(e, del[4 * i + 1]);
        }
        free(del);
    } else {
        uint32_t *added = NULL;
        size_t nadded = 0, acap = 0;
        unsigned char *touched = calloc(e->n, 1);
        st = touched ? union_add(e, mv->a, mv->b, &added, &nadded, &acap) : nomem(e->ctx);
        if (st == SOL_OK) {
            /* only arcs from ancestors of the new arcs' tails can have become redundant */
            for (size_t i = 0; i < nadded; i++) {
                touched[added[2 * i]] = 1;
                eng_reach(e, s, added[2 * i], 1);
            }
            for (uint32_t x = 0; x < e->n; x++)
                touched[x] |= s->mark[x];
            eng_unmark(e, s);
            eng_transred(e, s, touched);
        }
        free(added);
        free(touched);
    }
    eng_push_around(e, mv->a);
    eng_push_around(e, mv->b);
    return st;
}

/* Greedy search on sampled estimates (common random numbers). Lower (upper = 0): while stuck,
 * either delete an arc (the makespan can only shrink) or fix a node at its mean and copy it
 * (Jensen: the makespan is convex in each duration, and copies of a constant are exact),
 * whichever keeps the estimate highest. Upper: either copy a node independently (Dodin) or
 * merge two siblings by inserting arcs, whichever raises the estimate least. *out is the
 * resulting exact series-parallel distribution, a bound in the chosen direction. */
static sol_status greedy_run(eng *e, scratch *s, int upper, unsigned kinds, sol_dist **out)
{
    *out = NULL;
    moves a = {NULL, 0, 0}, b = {NULL, 0, 0}, c = {NULL, 0, 0};
    sol_status st = SOL_OK;
    eng_push_all(e);
    while (st == SOL_OK) {
        st = eng_reduce(e);
        uint32_t root = eng_root(e);
        if (st != SOL_OK || root != UINT32_MAX) {
            if (st == SOL_OK)
                *out = sol_dist_retain(e->d[root]);
            break;
        }
        if ((st = scratch_fit(e->ctx, s, e->n + 1)) != SOL_OK)
            break;
        mc_draw(e, s);
        mc_estimate(e, s);
        a.n = b.n = c.n = 0;
        int kd = upper ? MV_DUP : MV_JENSEN, ks = upper ? MV_UNION : MV_INTER;
        if (kinds >> kd & 1u)
            st = dup_moves(e, kd, &a);
        /* second list: deletions by criticality; third: sibling unions or intersections by the
         * arcs they change */
        for (uint32_t v = 0; v < e->n && st == SOL_OK; v++) {
            if (!e->alive[v])
                continue;
            for (int dir = 0; dir < 2; dir++) {
                const sol_set *sib = dir ? &e->pred[v] : &e->succ[v];
                for (size_t i = 0; i < sib->n && st == SOL_OK; i++)
                    for (size_t j = i + 1; j < sib->n && j < i + 8 && st == SOL_OK; j++) {
                        uint32_t x = sib->a[i], y = sib->a[j];
                        if ((kinds >> ks & 1u) && x != e->snk && y != e->snk && x != e->src &&
                            y != e->src)
                            st = moves_add(e->ctx, &c,
                                           (move){upper ? MV_UNION : MV_INTER, 0, x, y,
                                                  (double)union_cost(e, x, y)});
                    }
            }
            const sol_set *nb = &e->pred[v];
            for (size_t i = 0; !upper && (kinds >> MV_DEL & 1u) && i < nb->n && st == SOL_OK; i++) {
                uint32_t u = nb->a[i];
                if ((u == e->src && nb->n == 1) || (v == e->snk && e->succ[u].n == 1))
                    continue;
                double crit = 0.0;
                for (size_t r = 0; r < MC_SAMPLES; r++) {
                    const double *f = s->f + r * s->cap;
                    int last = 1;
                    for (size_t j = 0; j < nb->n && last; j++)
                        last = f[nb->a[j]] <= f[u];
                    crit += last;
                }
                st = moves_add(e->ctx, &b, (move){MV_DEL, 0, u, v, crit});
            }
        }
        if (st != SOL_OK)
            break;
        if (a.n > 0)
            qsort(a.m, a.n, sizeof *a.m, cmp_move);
        if (b.n > 0)
            qsort(b.m, b.n, sizeof *b.m, cmp_move);
        if (c.n > 0)
            qsort(c.m, c.n, sizeof *c.m, cmp_move);
        /* each list gets an equal share of the budget, the last one what the others left */
        size_t budget = mc_budget(e), tried = 0, lists = (a.n > 0) + (b.n > 0) + (c.n > 0);
        size_t share = lists > 0 && budget / lists > 0 ? budget / lists : 1;
        size_t na = a.n < share ? a.n : share, nb = b.n < share ? b.n : share;
        const move *best = NULL;
        int best_merge = -1;
        double best_est = upper ? INFINITY : -INFINITY;
        for (size_t i = 0; i < a.n + b.n + c.n && tried < budget && st == SOL_OK; i++) {
            if ((i < a.n && i >= na) || (i >= a.n && i < a.n + b.n && i - a.n >= nb))
                continue;
            const move *mv = i < a.n         ? &a.m[i]
                             : i < a.n + b.n ? &b.m[i - a.n]
                                             : &c.m[i - a.n - b.n];
            if (i > a.n + b.n && cmp_move(mv, mv - 1) == 0)
                continue;
            if (mv->kind == MV_UNION && !union_ok(e, s, mv->a, mv->b))
                continue;
            tried++;
            double est;
            int merge;
            st = try_move(e, s, mv, &est, &merge);
            int better = upper ? est < best_est : est > best_est;
            if (st == SOL_OK && (merge > best_merge || (merge == best_merge && better))) {
                best = mv;
                best_merge = merge;
                best_est = est;
            }
        }
        if (st == SOL_OK && best == NULL)
            st = sol_ctx_fail(e->ctx, SOL_ENUMERIC, "greedy bound: no move applies");
        if (st == SOL_OK)
            st = do_move(e, s, best);
    }
    free(a.m);
    free(b.m);
    free(c.m);
    return st;
}

/* ---------------------------------------------------------------- partition (lower) */

/* The partition search stops merging after about this many node visits of its estimates
 * (about 1 s), keeping the bound it has: merges only add arcs back. */
#define PART_WORK (16 * MC_WORK)

/* Arc i of a residual d runs from the u with soff[u] <= i < soff[u + 1] to succ[i]; a subgraph
 * is the set of arcs with keep[i] set. */

/* Engine over the kept arcs of d, reduced as far as it goes (shape: merges without
 * distribution operations, a series-parallel test). A node left without predecessors
 * (successors) is tied to the source (sink): that changes no finish time. */
static sol_status part_engine(sol_ctx *ctx, const sol_dag *d, const unsigned char *keep, int shape,
                              scratch *s, eng *e)
{
    memset(e, 0, sizeof *e);
    e->ctx = ctx;
    e->limit = d->n;
    e->shape = shape;
    e->src = e->snk = UINT32_MAX;
    sol_status st = SOL_OK;
    for (uint32_t v = 0; st == SOL_OK && v < d->n; v++) {
        uint32_t id;
        st = eng_add_node(e, (sol_dist *)d->dist[v], &id);
        if (d->poff[v] == d->poff[v + 1] && e->src == UINT32_MAX)
            e->src = v;
        if (d->soff[v] == d->soff[v + 1])
            e->snk = v;
    }
    for (uint32_t u = 0; st == SOL_OK && u < d->n; u++)
        for (size_t i = d->soff[u]; st == SOL_OK && i < d->soff[u + 1]; i++)
            if (keep[i])
                st = eng_add_arc(e, u, d->succ[i]);
    for (uint32_t v = 0; st == SOL_OK && v < d->n; v++) {
        if (v != e->src && e->pred[v].n == 0)
            st = eng_add_arc(e, e->src, v);
        if (st == SOL_OK && v != e->snk && e->succ[v].n == 0)
            st = eng_add_arc(e, v, e->snk);
    }
    if (st == SOL_OK)
        st = scratch_fit(ctx, s, d->n + 1);
    if (st == SOL_OK) {
        /* arcs made redundant by the kept ones (ties to the ends among them) hide merges */
        eng_transred(e, s, NULL);
        eng_push_all(e);
        st = eng_reduce(e);
    }
    if (st != SOL_OK)
        eng_free(e);
    return st;
}

/* 1 when the kept subgraph is series-parallel, 0 when not, -1 on failure (message set). */
static int part_is_sp(sol_ctx *ctx, const sol_dag *d, const unsigned char *keep, scratch *s)
{
    eng e;
    if (part_engine(ctx, d, keep, 1, s, &e) != SOL_OK)
        return -1;
    int sp = eng_root(&e) != UINT32_MAX;
    eng_free(&e);
    return sp;
}

/* Sample mean of the kept subgraph's makespan on the durations x (MC_SAMPLES rows of d->n);
 * start is scratch of d->n. O(MC_SAMPLES * (N + A)). */
static double part_mc(const sol_dag *d, const unsigned char *keep, const double *x, double *start)
{
    double total = 0.0;
    for (size_t r = 0; r < MC_SAMPLES; r++) {
        const double *xr = x + r * d->n;
        double T = 0.0;
        memset(start, 0, d->n * sizeof *start);
        for (size_t k = 0; k < d->n; k++) {
            uint32_t u = d->order[k];
            double f = start[u] + xr[u];
            T = f > T ? f : T;
            for (size_t i = d->soff[u]; i < d->soff[u + 1]; i++)
                if (keep[i] && start[d->succ[i]] < f)
                    start[d->succ[i]] = f;
        }
        total += T;
    }
    return total / MC_SAMPLES;
}

static uint32_t uf_find(uint32_t *par, uint32_t x)
{
    while (par[x] != x)
        x = par[x] = par[par[x]];
    return x;
}

static int arc_has(const sol_dag *d, uint32_t x, uint32_t y)
{
    size_t lo = d->soff[x], hi = d->soff[x + 1];
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (d->succ[mid] < y)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < d->soff[x + 1] && d->succ[lo] == y;
}

/* An arc u -> v of the chain cover, ranked by how completely v's predecessors reach u's
 * successors: 1 when they form a complete bipartite graph (u -> v runs "straight" through a
 * layer, as a processor's own arc does in a mesh), lower for arcs that cut across. */
typedef struct part_arc {
    uint32_t u, v, cnt;
    double key, crit;
} part_arc;

static int cmp_part_pair(const void *a, const void *b)
{
    const part_arc *p = a, *q = b;
    if (p->u != q->u)
        return p->u < q->u ? -1 : 1;
    return p->v < q->v ? -1 : p->v > q->v;
}

static int cmp_part_arc(const void *a, const void *b)
{
    const part_arc *p = a, *q = b;
    if (p->key != q->key)
        return p->key > q->key ? -1 : 1;
    if (p->crit != q->crit)
        return p->crit > q->crit ? -1 : 1;
    if (p->u != q->u)
        return p->u < q->u ? -1 : 1;
    return p->v < q->v ? -1 : p->v > q->v;
}

/* Kuhn's augmenting paths on the path cover (nxt/prv): every chain end u looks for a free
 * chain start, re-routing matched arcs on the way. O(N * A). */
static sol_status part_augment(sol_ctx *ctx, const sol_dag *d, uint32_t src, uint32_t snk,
                               uint32_t *nxt, uint32_t *prv)
{
    size_t n = d->n;
    unsigned char *seen = malloc(n ? n : 1);
    uint32_t *stk = malloc(2 * (n ? n : 1) * sizeof *stk), *at = malloc((n ? n : 1) * sizeof *at);
    if (!seen || !stk || !at) {
        free(seen);
        free(stk);
        free(at);
        return nomem(ctx);
    }
    for (uint32_t r = 0; r < n; r++) {
        if (nxt[r] != UINT32_MAX || r == src || r == snk)
            continue;
        memset(seen, 0, n);
        /* iterative DFS over left nodes: stk holds the path of left nodes, at[] their next arc */
        size_t top = 0;
        stk[top++] = r;
        at[r] = (uint32_t)d->soff[r];
        while (top > 0) {
            uint32_t u = stk[top - 1];
            if (at[u] >= d->soff[u + 1]) {
                top--;
                continue;
            }
            uint32_t v = d->succ[at[u]++];
            if (v == snk || seen[v])
                continue;
            seen[v] = 1;
            if (prv[v] == UINT32_MAX) {
                /* augment: the last left node takes v, each one before it the successor whose
                 * partner it handed on (its follower's old match) */
                uint32_t y = v;
                for (size_t k = top; k-- > 0;) {
                    uint32_t x = stk[k], old = nxt[x];
                    nxt[x] = y;
                    prv[y] = x;
                    y = old;
                }
                break;
            }
            stk[top] = prv[v];
            at[prv[v]] = (uint32_t)d->soff[prv[v]];
            top++;
        }
    }
    free(seen);
    free(stk);
    free(at);
    return SOL_OK;
}

/* Tries merging groups a and b (a == b: closing a group over its own arcs): the kept arcs plus
 * every inner arc among their nodes. With est NULL the merge is made (keep updated); otherwise
 * *est is the sampled makespan when the result is series-parallel, NAN when not. */
static sol_status part_try(sol_ctx *ctx, const sol_dag *d, uint32_t *par, uint32_t a, uint32_t b,
                           unsigned char *keep, unsigned char *tmp, scratch *s, const double *x,
                           double *start, double *est)
{
    memcpy(tmp, keep, d->na ? d->na : 1);
    for (uint32_t u = 0; u < d->n; u++) {
        uint32_t gu = uf_find(par, u);
        if (gu != a && gu != b)
            continue;
        for (size_t i = d->soff[u]; i < d->soff[u + 1]; i++) {
            uint32_t gv = uf_find(par, d->succ[i]);
            if (gv == a || gv == b)
                tmp[i] = 1;
        }
    }
    int sp = part_is_sp(ctx, d, tmp, s);
    if (sp < 0)
        return sol_ctx_status(ctx);
    if (est != NULL) {
        *est = sp ? part_mc(d, tmp, x, start) : NAN;
        return SOL_OK;
    }
    if (sp)
        memcpy(keep, tmp, d->na ? d->na : 1);
    return SOL_OK;
}

/* Lower bound by a partition of the residual's nodes into groups whose own arcs form a
 * series-parallel graph, every arc between groups deleted (the makespan can only shrink; the
 * groups are then independent and run in parallel). Groups start as the chains of a path cover
 * built from the straightest arcs, and two groups joined by arcs merge while the kept graph
 * stays series-parallel, the merge that raises a sampled estimate of the makespan most first
 * (common random numbers). The kept graph is solved exactly. */
static sol_status partition_lower(sol_ctx *ctx, const sol_dag *d, sol_dist **out)
{
    *out = NULL;
    size_t n = d->n, na = d->na;
    uint32_t src = UINT32_MAX, snk = UINT32_MAX;
    for (uint32_t v = 0; v < n; v++) {
        if (d->poff[v] == d->poff[v + 1] && src == UINT32_MAX)
            src = v;
        if (d->soff[v] == d->soff[v + 1])
            snk = v;
    }
    unsigned char *keep = calloc(na ? na : 1, 1), *best = calloc(na ? na : 1, 1);
    uint32_t *par = malloc(n * sizeof *par), *nxt = malloc(n * sizeof *nxt);
    uint32_t *prv = malloc(n * sizeof *prv), *opts = calloc(n, sizeof *opts);
    double *x = malloc(MC_SAMPLES * n * sizeof *x), *start = malloc(n * sizeof *start);
    part_arc *arcs = malloc((na ? na : 1) * sizeof *arcs);
    gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
    scratch s = {0};
    sol_status st = keep && best && par && nxt && prv && opts && x && start && arcs && rng
                        ? SOL_OK
                        : nomem(ctx);
    size_t narcs = 0;
    if (st == SOL_OK) {
        gsl_rng_set(rng, 5489u);
        for (size_t r = 0; r < MC_SAMPLES; r++)
            for (uint32_t v = 0; v < n; v++)
                x[r * n + v] = sol_dist_sample(d->dist[v], rng);
        for (uint32_t v = 0; v < n; v++)
            par[v] = v, nxt[v] = prv[v] = UINT32_MAX;
        /* criticality: how often u finishes last among v's predecessors */
        double *fin = malloc(n * sizeof *fin);
        if (fin == NULL)
            st = nomem(ctx);
        for (uint32_t u = 0; st == SOL_OK && u < n; u++)
            for (size_t i = d->soff[u]; i < d->soff[u + 1]; i++) {
                uint32_t v = d->succ[i];
                if (u == src || v == snk)
                    continue;
                size_t c = 0, pairs = 0;
                for (size_t a = d->poff[v]; a < d->poff[v + 1]; a++)
                    for (size_t b = d->soff[u]; b < d->soff[u + 1]; b++) {
                        uint32_t px = d->pred[a], sy = d->succ[b];
                        if (px == src || sy == snk)
                            continue;
                        pairs++;
                        c += px == u || sy == v || arc_has(d, px, sy);
                    }
                arcs[narcs++] = (part_arc){u, v, 0, pairs ? (double)c / (double)pairs : 0.0, 0.0};
            }
        for (size_t r = 0; st == SOL_OK && r < MC_SAMPLES; r++) {
            const double *xr = x + r * n;
            for (size_t k = 0; k < n; k++) {
                uint32_t v = d->order[k];
                double b = 0.0;
                for (size_t a = d->poff[v]; a < d->poff[v + 1]; a++)
                    b = fin[d->pred[a]] > b ? fin[d->pred[a]] : b;
                fin[v] = b + xr[v];
            }
            for (size_t a = 0; a < narcs; a++) {
                uint32_t v = arcs[a].v;
                int last = 1;
                for (size_t i = d->poff[v]; i < d->poff[v + 1] && last; i++)
                    last = fin[d->pred[i]] <= fin[arcs[a].u];
                arcs[a].crit += last;
            }
        }
        free(fin);
    }
    if (st == SOL_OK && narcs > 0)
        qsort(arcs, narcs, sizeof *arcs, cmp_part_arc);
    /* the path cover: each node keeps one chain successor and one chain predecessor, the
     * straightest arcs first, then augmenting paths (Kuhn) until no chain can be joined to
     * another: the fewest chains, most of them straight */
    for (size_t a = 0; st == SOL_OK && a < narcs; a++) {
        uint32_t u = arcs[a].u, v = arcs[a].v;
        if (nxt[u] == UINT32_MAX && prv[v] == UINT32_MAX) {
            nxt[u] = v;
            prv[v] = u;
        }
    }
    if (st == SOL_OK)
        st = part_augment(ctx, d, src, snk, nxt, prv);
    for (uint32_t u = 0; st == SOL_OK && u < n; u++)
        if (nxt[u] != UINT32_MAX)
            par[uf_find(par, nxt[u])] = uf_find(par, u);
    if (st == SOL_OK) {
        /* kept: the chains, then each group's other inner arcs where they keep it
         * series-parallel */
        for (uint32_t u = 0; u < n; u++)
            for (size_t i = d->soff[u]; i < d->soff[u + 1]; i++)
                keep[i] = u == src || d->succ[i] == snk || nxt[u] == d->succ[i];
        int sp = part_is_sp(ctx, d, keep, &s);
        if (sp < 0)
            st = sol_ctx_status(ctx);
        else if (sp == 0)
            st = sol_ctx_fail(ctx, SOL_ENUMERIC, "partition: the chains are not series-parallel");
    }
    for (uint32_t g = 0; st == SOL_OK && g < n; g++) {
        if (uf_find(par, g) != g || g == src || g == snk)
            continue;
        st = part_try(ctx, d, par, g, g, keep, best, &s, x, start, NULL);
    }
    /* merges of two groups joined by arcs; a group with the fewest possible partners first
     * (as in matching: a group that can merge with one neighbour only should get it), then
     * the largest estimate */
    size_t per = MC_SAMPLES * (n + na) + 1, spent = 0;
    while (st == SOL_OK && spent < PART_WORK) {
        size_t nc = 0;
        for (uint32_t u = 0; u < n; u++)
            for (size_t i = d->soff[u]; i < d->soff[u + 1]; i++) {
                uint32_t a = uf_find(par, u), b = uf_find(par, d->succ[i]);
                if (a != b && u != src && d->succ[i] != snk)
                    arcs[nc++] = (part_arc){a < b ? a : b, a < b ? b : a, 1, 0.0, 0.0};
            }
        if (nc == 0)
            break;
        /* one candidate per pair of groups, keyed by the arcs between them */
        qsort(arcs, nc, sizeof *arcs, cmp_part_pair);
        size_t m = 0;
        for (size_t j = 0; j < nc; j++) {
            if (m > 0 && arcs[m - 1].u == arcs[j].u && arcs[m - 1].v == arcs[j].v)
                arcs[m - 1].cnt++;
            else
                arcs[m++] = arcs[j];
        }
        nc = m;
        for (size_t j = 0; j < nc; j++)
            arcs[j].key = arcs[j].cnt;
        qsort(arcs, nc, sizeof *arcs, cmp_part_arc);
        size_t budget = MC_WORK / per;
        budget = budget < 4 ? 4 : budget > SCORE_MAX ? SCORE_MAX : budget;
        nc = nc < budget ? nc : budget;
        spent += nc * per;
        for (size_t j = 0; j < nc && st == SOL_OK; j++) {
            double est;
            st = part_try(ctx, d, par, arcs[j].u, arcs[j].v, keep, best, &s, x, start, &est);
            arcs[j].crit = st == SOL_OK && !isnan(est) ? est : NAN;
            if (!isnan(arcs[j].crit)) {
                opts[arcs[j].u]++;
                opts[arcs[j].v]++;
            }
        }
        size_t bj = SIZE_MAX;
        uint32_t bo = UINT32_MAX;
        for (size_t j = 0; j < nc && st == SOL_OK; j++) {
            if (isnan(arcs[j].crit))
                continue;
            uint32_t o = opts[arcs[j].u] < opts[arcs[j].v] ? opts[arcs[j].u] : opts[arcs[j].v];
            if (bj == SIZE_MAX || o < bo || (o == bo && arcs[j].crit > arcs[bj].crit)) {
                bj = j;
                bo = o;
            }
        }
        for (size_t j = 0; j < nc; j++)
            opts[arcs[j].u] = opts[arcs[j].v] = 0;
        if (st != SOL_OK || bj == SIZE_MAX)
            break;
        st = part_try(ctx, d, par, arcs[bj].u, arcs[bj].v, keep, best, &s, x, start, NULL);
        par[arcs[bj].v] = arcs[bj].u;
    }
    if (st == SOL_OK) {
        eng e;
        st = part_engine(ctx, d, keep, 0, &s, &e);
        if (st == SOL_OK) {
            uint32_t root = eng_root(&e);
            if (root == UINT32_MAX)
                st = sol_ctx_fail(ctx, SOL_ENUMERIC, "partition: the kept graph does not reduce");
            else
                *out = sol_dist_retain(e.d[root]);
            eng_free(&e);
        }
    }
    scratch_free(&s);
    if (rng)
        gsl_rng_free(rng);
    free(keep);
    free(best);
    free(par);
    free(nxt);
    free(prv);
    free(opts);
    free(x);
    free(start);
    free(arcs);
    return st;
}

/* ---------------------------------------------------------------- Kleindorfer forward passes */

/* Kleindorfer's upper pass over an adjacency: finish[v] = (maximum of the predecessors' finishes
 * as if independent: product of CDFs) + duration; the makespan is the same maximum over the
 * nodes without successors. A finish is freed when its last successor has used it. */
static sol_status klein_pass(sol_ctx *ctx, const sol_dag *d, sol_dist **out)
{
    *out = NULL;
    sol_dist **fin = calloc(d->n ? d->n : 1, sizeof *fin);
    size_t *left = malloc((d->n ? d->n : 1) * sizeof *left);
    const sol_dist **in = malloc((d->n ? d->n : 1) * sizeof *in);
    sol_dist *last = NULL;
    sol_status st = SOL_OK;
    if (fin == NULL || left == NULL || in == NULL)
        st = sol_ctx_fail(ctx, SOL_ENOMEM, "out of memory for a forward pass");
    for (size_t v = 0; st == SOL_OK && v < d->n; v++)
        left[v] = d->soff[v + 1] - d->soff[v];
    /* finishes of the nodes without successors: their maximum is the makespan */
    size_t nend = 0;
    for (size_t k = 0; st == SOL_OK && k < d->n; k++) {
        uint32_t v = d->order[k];
        size_t np = d->poff[v + 1] - d->poff[v];
        if (np == 0) {
            fin[v] = sol_dist_retain(d->dist[v]);
        } else {
            for (size_t i = 0; i < np; i++)
                in[i] = fin[d->pred[d->poff[v] + i]];
            sol_dist *start;
            st = sol_dist_max_all(ctx, np, in, &start);
            if (st == SOL_OK) {
                st = sol_dist_series(ctx, start, d->dist[v], &fin[v]);
                sol_dist_free(start);
            }
            for (size_t i = 0; i < np; i++) {
                uint32_t u = d->pred[d->poff[v] + i];
                if (--left[u] == 0) {
                    sol_dist_free(fin[u]);
                    fin[u] = NULL;
                }
            }
        }
    }
    for (size_t v = 0; st == SOL_OK && v < d->n; v++)
        if (left[v] == 0 && d->soff[v + 1] == d->soff[v])
            in[nend++] = fin[v];
    if (st == SOL_OK)
        st = sol_dist_max_all(ctx, nend, in, &last);
    for (size_t v = 0; fin != NULL && v < d->n; v++)
        sol_dist_free(fin[v]);
    free(fin);
    free(left);
    free(in);
    *out = last;
    return st;
}

/* The reversed adjacency of d (arrays shared with d but the order): the makespan of the
 * reversed graph is the same (a path read backwards). The caller frees rev->order only. */
static sol_status dag_reverse(sol_ctx *ctx, const sol_dag *d, sol_dag *rev)
{
    *rev = *d;
    rev->poff = d->soff;
    rev->soff = d->poff;
    rev->pred = d->succ;
    rev->succ = d->pred;
    rev->order = malloc((d->n ? d->n : 1) * sizeof *rev->order);
    if (rev->order == NULL)
        return nomem(ctx);
    for (size_t k = 0; k < d->n; k++)
        rev->order[k] = d->order[d->n - 1 - k];
    return SOL_OK;
}

/* The residual of g (SOL_ENOTSP) or its exact makespan (SOL_OK, *res NULL). */
static sol_status reduce_first(sol_ctx *ctx, const sol_graph *g, sol_dist **exact, sol_graph **res)
{
    sol_status st = sol_graph_reduce(ctx, g, exact, res);
    if (st == SOL_ENOTSP && *res == NULL)
        st = sol_ctx_fail(ctx, SOL_ENOMEM, "no residual graph");
    return st;
}

sol_status sol_bounds_upper_dist(sol_ctx *ctx, const sol_graph *g, sol_dist **out)
{
    sol_graph *res = NULL;
    sol_status st = reduce_first(ctx, g, out, &res);
    if (st != SOL_ENOTSP)
        return st;
    sol_dag d;
    st = sol_dag_build(ctx, res, &d);
    if (st == SOL_OK)
        st = klein_pass(ctx, &d, out);
    sol_dag_free(&d);
    sol_graph_free(res);
    return st;
}

/* ---------------------------------------------------------------- forward passes */

/* Longest path of mean durations. */
static double cpm(const sol_dag *d, const sol_dist *const *leaf, double *fin)
{
    double T = 0.0;
    for (size_t k = 0; k < d->n; k++) {
        uint32_t v = d->order[k];
        double s = 0.0;
        for (size_t i = d->poff[v]; i < d->poff[v + 1]; i++)
            s = fin[d->pred[i]] > s ? fin[d->pred[i]] : s;
        fin[v] = s + sol_dist_mean(leaf[v]);
        T = fin[v] > T ? fin[v] : T;
    }
    return T;
}

/* Largest residual for the lower Kleindorfer pass (its ancestor sets take N^2/8 bytes). */
#define KLEIN_LOWER_MAX ((size_t)1 << 15)

/* Kleindorfer's lower pass: a node's start has CDF the product over groups of predecessors of
 * the minimum of the group's CDFs, where a group gathers predecessors whose random ancestors
 * (one-point nodes do not count) overlap. Given stochastic lower bounds L_u <= F_u, P(max F <= t)
 * = prod over independent groups of P(max of group <= t) <= prod of min P(L_u <= t). */
static sol_status klein_lower(sol_ctx *ctx, const sol_dag *d, sol_dist **out)
{
    *out = NULL;
    size_t n = d->n, words = (n + 63) / 64;
    if (n > KLEIN_LOWER_MAX)
        return sol_ctx_fail(ctx, SOL_ELIMIT, "Kleindorfer lower pass: %zu nodes (limit %zu)", n,
                            KLEIN_LOWER_MAX);
    uint64_t *anc = calloc(n * words > 0 ? n * words : 1, sizeof *anc);
    sol_dist **fin = calloc(n ? n : 1, sizeof *fin);
    const sol_dist **grp = malloc((n ? n : 1) * sizeof *grp);
    const sol_dist **tops = malloc((n ? n : 1) * sizeof *tops);
    size_t *gid = malloc((n ? n : 1) * sizeof *gid), *left = malloc((n ? n : 1) * sizeof *left);
    sol_status st = SOL_OK;
    if (!anc || !fin || !grp || !tops || !gid || !left)
        st = nomem(ctx);
    for (size_t v = 0; st == SOL_OK && v < n; v++)
        left[v] = d->soff[v + 1] - d->soff[v];
    sol_dist **made = NULL; /* group maxima created for one node */
    if (st == SOL_OK && (made = calloc(n ? n : 1, sizeof *made)) == NULL)
        st = nomem(ctx);
    for (size_t k = 0; st == SOL_OK && k < n; k++) {
        uint32_t v = d->order[k];
        const uint32_t *P = d->pred + d->poff[v];
        size_t np = d->poff[v + 1] - d->poff[v];
        uint64_t *av = anc + (size_t)v * words;
        for (size_t i = 0; i < np; i++) {
            const uint64_t *au = anc + (size_t)P[i] * words;
            for (size_t w = 0; w < words; w++)
                av[w] |= au[w];
            if (!is_point(d->dist[P[i]]))
                av[P[i] / 64] |= (uint64_t)1 << (P[i] % 64);
        }
        if (np == 0) {
            fin[v] = sol_dist_retain(d->dist[v]);
            continue;
        }
        /* groups: union-find over predecessors with overlapping random ancestor sets (a random
         * predecessor counts as its own ancestor) */
        for (size_t i = 0; i < np; i++)
            gid[i] = i;
        for (size_t i = 0; i < np; i++)
            for (size_t j = i + 1; j < np; j++) {
                const uint64_t *a = anc + (size_t)P[i] * words, *b = anc + (size_t)P[j] * words;
                int share = 0;
                for (size_t w = 0; w < words && !share; w++)
                    share = (a[w] & b[w]) != 0;
                share = share || (!is_point(d->dist[P[i]]) && (b[P[i] / 64] >> (P[i] % 64)) & 1);
                share = share || (!is_point(d->dist[P[j]]) && (a[P[j] / 64] >> (P[j] % 64)) & 1);
                if (share) {
                    size_t ri = i, rj = j;
                    while (gid[ri] != ri)
                        ri = gid[ri];
                    while (gid[rj] != rj)
                        rj = gid[rj];
                    gid[ri > rj ? ri : rj] = ri < rj ? ri : rj;
                }
            }
        size_t ntop = 0;
        for (size_t r = 0; st == SOL_OK && r < np; r++) {
            size_t root = r;
            while (gid[root] != root)
                root = gid[root];
            if (root != r)
                continue;
            size_t ng = 0;
            for (size_t i = 0; i < np; i++) {
                size_t x = i;
                while (gid[x] != x)
                    x = gid[x];
                if (x == r)
                    grp[ng++] = fin[P[i]];
            }
            st = sol_dist_max_comonotone(ctx, ng, grp, &made[ntop]);
            if (st == SOL_OK)
                tops[ntop] = made[ntop], ntop++;
        }
        sol_dist *start = NULL;
        if (st == SOL_OK)
            st = sol_dist_max_all(ctx, ntop, tops, &start);
        for (size_t i = 0; i < ntop; i++) {
            sol_dist_free(made[i]);
            made[i] = NULL;
        }
        if (st == SOL_OK)
            st = sol_dist_series(ctx, start, d->dist[v], &fin[v]);
        sol_dist_free(start);
        for (size_t i = 0; i < np; i++)
            if (--left[P[i]] == 0) {
                sol_dist_free(fin[P[i]]);
                fin[P[i]] = NULL;
            }
    }
    /* the residual has one sink; any node without successors ends the makespan */
    size_t nend = 0;
    for (size_t v = 0; st == SOL_OK && v < n; v++)
        if (d->soff[v + 1] == d->soff[v])
            grp[nend++] = fin[v];
    if (st == SOL_OK)
        st = nend == 1 ? (*out = sol_dist_retain(grp[0]), SOL_OK)
                       : sol_dist_max_comonotone(ctx, nend, grp, out);
    for (size_t v = 0; fin && v < n; v++)
        sol_dist_free(fin[v]);
    free(made);
    free(anc);
    free(fin);
    free(grp);
    free(tops);
    free(gid);
    free(left);
    return st;
}

/* ---------------------------------------------------------------- conditioning */

/* Values and probabilities a conditioned node takes in the lower (cell means) and upper (cell
 * ends, masses split keeping each cell's mean) evaluations; exact when no cell was cut. */
typedef struct cond_node {
    uint32_t id;
    size_t nlo, nup;
    double *xlo, *plo, *xup, *pup;
    sol_dist **dlo, **dup; /* one-point distributions at those values */
    int exact;
} cond_node;

static void cond_node_free(cond_node *c)
{
    for (size_t i = 0; c->dlo && i < c->nlo; i++)
        sol_dist_free(c->dlo[i]);
    for (size_t i = 0; c->dup && i < c->nup; i++)
        sol_dist_free(c->dup[i]);
    free(c->xlo);
    free(c->plo);
    free(c->xup);
    free(c->pup);
    free(c->dlo);
    free(c->dup);
}

/* Cuts d's stored masses into at most cells cells of about equal probability. Cell g holds
 * the atoms [b[g], b[g+1]) (the last one also b[cells]); the upper evaluation splits each cell's
 * mass between its first atom and the next cell's first atom (the top cell: its last atom), so
 * the ends are shared and there are cells + 1 values. */
static sol_status cond_cut(sol_ctx *ctx, const sol_dist *d, size_t cells, cond_node *c)
{
    size_t len = sol_dist_len(d);
    c->exact = len <= cells + 1;
    size_t m = c->exact ? len : cells;
    c->xlo = malloc(m * sizeof *c->xlo);
    c->plo = malloc(m * sizeof *c->plo);
    c->xup = malloc((m + 1) * sizeof *c->xup);
    c->pup = calloc(m + 1, sizeof *c->pup);
    c->dlo = calloc(m, sizeof *c->dlo);
    c->dup = calloc(m + 1, sizeof *c->dup);
    if (!c->xlo || !c->plo || !c->xup || !c->pup || !c->dlo || !c->dup)
        return nomem(ctx);
    if (c->exact) {
        for (size_t i = 0; i < len; i++) {
            c->xlo[i] = c->xup[i] = sol_dist_value(d, i);
            c->plo[i] = c->pup[i] = sol_dist_mass(d, i);
        }
        c->nlo = c->nup = len;
    } else {
        size_t g = 0, first = 0;
        double acc = 0.0, mass = 0.0, mom = 0.0;
        for (size_t i = 0; i < len; i++) {
            double p = sol_dist_mass(d, i), x = sol_dist_value(d, i);
            acc += p;
            mass += p;
            mom += p * x;
            /* close the cell at its share of the probability, or at the last atom */
            if (i + 1 == len || (acc >= (double)(g + 1) / (double)m && g + 1 < m)) {
                double lo = sol_dist_value(d, first);
                double hi = i + 1 < len ? sol_dist_value(d, i + 1) : x;
                double mean = mass > 0.0 ? mom / mass : lo;
                c->xlo[g] = mean;
                c->plo[g] = mass;
                c->xup[g] = lo;
                double w = hi > lo ? (mean - lo) / (hi - lo) : 0.0;
                c->pup[g] += mass * (1.0 - w);
                c->pup[g + 1] += mass * w;
                c->xup[g + 1] = hi;
                g++;
                first = i + 1;
                mass = mom = 0.0;
            }
        }
        c->nlo = g;
        c->nup = g + 1;
    }
    for (size_t i = 0; i < c->nlo; i++) {
        sol_status st = sol_dist_deterministic(ctx, c->xlo[i], &c->dlo[i]);
        if (st != SOL_OK)
            return st;
    }
    for (size_t i = 0; i < c->nup; i++) {
        sol_status st = sol_dist_deterministic(ctx, c->xup[i], &c->dup[i]);
        if (st != SOL_OK)
            return st;
    }
    return SOL_OK;
}

/* Sum over all combinations of the conditioned nodes' values (upper: cell ends; lower: cell
 * means) of probability * Dodin's mean with those nodes fixed. *all_exact tells whether Dodin
 * only ever copied constants (then each term is exact). */
static sol_status cond_sum(sol_ctx *ctx, const sol_dag *d, cond_node *cn, size_t k, int upper,
                           size_t limit, double *sum, int *all_exact)
{
    const sol_dist **leaf = malloc(d->n * sizeof *leaf);
    size_t *idx = calloc(k ? k : 1, sizeof *idx);
    sol_status st = leaf && idx ? SOL_OK : nomem(ctx);
    *sum = 0.0;
    *all_exact = 1;
    if (st == SOL_OK)
        memcpy(leaf, d->dist, d->n * sizeof *leaf);
    while (st == SOL_OK) {
        double p = 1.0;
        for (size_t j = 0; j < k; j++) {
            leaf[cn[j].id] = upper ? cn[j].dup[idx[j]] : cn[j].dlo[idx[j]];
            p *= upper ? cn[j].pup[idx[j]] : cn[j].plo[idx[j]];
        }
        if (p > 0.0) {
            eng e;
            sol_dist *r = NULL;
            st = eng_init(ctx, d, leaf, d->n + limit, 0, &e);
            if (st == SOL_OK) {
                st = dodin_run(&e, NULL, &r);
                if (e.inexact_dups > 0)
                    *all_exact = 0;
                eng_free(&e);
            }
            if (st == SOL_OK)
                *sum += p * sol_dist_mean(r);
            sol_dist_free(r);
        }
        size_t j = 0; /* next combination, odometer style */
        while (j < k && ++idx[j] == (upper ? cn[j].nup : cn[j].nlo))
            idx[j++] = 0;
        if (j == k)
            break;
    }
    free(leaf);
    free(idx);
    return st;
}

/* ---------------------------------------------------------------- the driver */

static const char *const method_names[SOL_BOUND_COUNT] = {
    "sp",           "cpm",       "kleindorfer-min", "arc-deletion", "conditioning",
    "kleindorfer",  "dodin",     "arc-insertion",   "conditioning", "greedy-lower",
    "greedy-upper", "partition", "markov"};

const char *sol_bound_method_name(sol_bound_method m)
{
    return (unsigned)m < SOL_BOUND_COUNT ? method_names[m] : "?";
}

void sol_bounds_opts_default(sol_bounds_opts *o)
{
    o->dup_limit = 200000;
    o->cond_nodes = 3;
    o->cond_cells = 32;
    o->cond_budget = 2000;
    o->search_nodes = 4096;
    o->markov_states = 0;
    o->methods = 0;
}

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* Records a method's outcome: its mean, or a note when it gave none (a limit, a method that
 * does not apply); only out-of-memory and invalid input stop the whole computation. */
static sol_status settle(sol_ctx *ctx, sol_bounds_result *r, sol_bound_method m, sol_status st,
                         sol_dist *d, double t0)
{
    r->seconds[m] = now() - t0;
    if (st == SOL_OK && d != NULL)
        r->value[m] = sol_dist_mean(d);
    sol_dist_free(d);
    if (st == SOL_ENOMEM || st == SOL_EINVAL)
        return st;
    if (st != SOL_OK)
        sol_ctx_notef(ctx, "bounds: %s skipped: %s", method_names[m], sol_ctx_message(ctx));
    return SOL_OK;
}

int sol_bound_method_is_lower(sol_bound_method m)
{
    return m == SOL_BOUND_SP || m == SOL_BOUND_CPM || m == SOL_BOUND_KLEIN_LOWER ||
           m == SOL_BOUND_ARC_DELETE || m == SOL_BOUND_COND_LOWER || m == SOL_BOUND_GREEDY_LOWER ||
           m == SOL_BOUND_PARTITION || m == SOL_BOUND_MARKOV;
}

/* Conditioning on the random residual nodes inside the nodes Dodin copied (dupmem). */
static sol_status conditioning(sol_ctx *ctx, const sol_dag *d, const sol_bounds_opts *o,
                               const sol_set *dupmem, sol_bounds_result *r)
{
    size_t k = 0;
    for (size_t i = 0; i < dupmem->n; i++)
        k += !is_point(d->dist[dupmem->a[i]]);
    if (k == 0 || k > o->cond_nodes)
        return sol_ctx_fail(ctx, SOL_ELIMIT, "%zu nodes to condition on (at most %zu)", k,
                            o->cond_nodes);
    cond_node *cn = calloc(k, sizeof *cn);
    if (cn == NULL)
        return nomem(ctx);
    sol_status st = SOL_OK;
    size_t j = 0;
    double nup = 1.0, nlo = 1.0;
    for (size_t i = 0; i < dupmem->n && st == SOL_OK; i++) {
        uint32_t v = dupmem->a[i];
        if (is_point(d->dist[v]))
            continue;
        cn[j].id = v;
        st = cond_cut(ctx, d->dist[v], o->cond_cells, &cn[j]);
        nup *= (double)cn[j].nup;
        nlo *= (double)cn[j].nlo;
        j++;
    }
    if (st == SOL_OK && (nup + nlo) * (double)d->n > (double)o->cond_budget)
        st = sol_ctx_fail(ctx, SOL_ELIMIT,
                          "conditioning needs %.0f evaluations of %zu nodes (budget %llu)",
                          nup + nlo, d->n, (unsigned long long)o->cond_budget);
    double up = NAN, lo = NAN;
    int ex_up = 0, ex_lo = 0;
    if (st == SOL_OK)
        st = cond_sum(ctx, d, cn, k, 1, o->dup_limit, &up, &ex_up);
    if (st == SOL_OK)
        st = cond_sum(ctx, d, cn, k, 0, o->dup_limit, &lo, &ex_lo);
    if (st == SOL_OK) {
        int cut = 0;
        for (size_t i = 0; i < k; i++)
            cut |= !cn[i].exact;
        r->value[SOL_BOUND_COND_UPPER] = up;
        /* the lower side needs every term exact (Dodin's copies of constants only) */
        r->value[SOL_BOUND_COND_LOWER] = ex_lo ? lo : NAN;
        if (!cut && ex_up && ex_lo)
            r->value[SOL_BOUND_COND_LOWER] = up; /* the same sum: exact */
    }
    for (size_t i = 0; i < k; i++)
        cond_node_free(&cn[i]);
    free(cn);
    return st;
}

static int wanted(const sol_bounds_opts *o, sol_bound_method m)
{
    return o->methods == 0 || (o->methods >> m) & 1u;
}

sol_status sol_bounds_mean(sol_ctx *ctx, const sol_graph *g, const sol_bounds_opts *opts,
                           sol_bounds_result *out)
{
    sol_bounds_opts o;
    if (opts != NULL)
        o = *opts;
    else
        sol_bounds_opts_default(&o);
    if (o.cond_cells < 2 || o.cond_cells > 4096)
        return sol_ctx_fail(ctx, SOL_EINVAL, "bounds: %zu conditioning cells (need 2..4096)",
                            o.cond_cells);
    if (o.dup_limit > SOL_GRAPH_NODES_MAX)
        return sol_ctx_fail(ctx, SOL_EINVAL, "bounds: copy limit %zu exceeds %zu", o.dup_limit,
                            SOL_GRAPH_NODES_MAX);
    memset(out, 0, sizeof *out);
    for (int m = 0; m < SOL_BOUND_COUNT; m++)
        out->value[m] = NAN;
    out->lower = out->upper = NAN;
    double t0 = now();
    sol_dist *exact = NULL;
    sol_graph *res = NULL;
    sol_status st = reduce_first(ctx, g, &exact, &res);
    if (st == SOL_OK) {
        out->value[SOL_BOUND_SP] = out->lower = out->upper = sol_dist_mean(exact);
        out->lower_method = out->upper_method = SOL_BOUND_SP;
        out->exact = 1;
        out->seconds[SOL_BOUND_SP] = now() - t0;
        sol_dist_free(exact);
        return SOL_OK;
    }
    if (st != SOL_ENOTSP)
        return st;
    out->seconds[SOL_BOUND_SP] = now() - t0;
    double chain_states = o.markov_states > 0 && wanted(&o, SOL_BOUND_MARKOV)
                              ? sol_markov_states_bound(ctx, g)
                              : INFINITY;
    /* about N + 32 bytes per state (its key, value and hash slot) */
    double chain_bytes = chain_states * ((double)sol_graph_node_count(g) + 32);
    if (chain_states <= (double)o.markov_states && chain_bytes <= SOL_BOUNDS_MARKOV_BYTES) {
        /* Exact when the graph is phase-type and its chain surely small enough (the bound is
           cheap; a chain that outgrows the limit would cost its whole enumeration). */
        t0 = now();
        double m;
        st = sol_markov_mean(ctx, g, o.markov_states, &m, NULL);
        out->seconds[SOL_BOUND_MARKOV] = now() - t0;
        if (st == SOL_OK) {
            out->value[SOL_BOUND_MARKOV] = out->lower = out->upper = m;
            out->lower_method = out->upper_method = SOL_BOUND_MARKOV;
            out->exact = 1;
            sol_graph_free(res);
            return SOL_OK;
        }
        if (st == SOL_ENOMEM) {
            sol_graph_free(res);
            return st;
        }
        sol_ctx_notef(ctx, "bounds: markov skipped: %s", sol_ctx_message(ctx));
        st = SOL_OK;
    }
    sol_dag d;
    st = sol_dag_build(ctx, res, &d);
    if (st != SOL_OK) {
        sol_graph_free(res);
        return st;
    }
    out->residual_nodes = d.n;
    double *fin = malloc(d.n * sizeof *fin);
    if (fin == NULL)
        st = nomem(ctx);
    if (st == SOL_OK && wanted(&o, SOL_BOUND_CPM)) {
        t0 = now();
        out->value[SOL_BOUND_CPM] = cpm(&d, d.dist, fin);
        out->seconds[SOL_BOUND_CPM] = now() - t0;
    }
    free(fin);
    sol_dist *r = NULL;
    if (st == SOL_OK && wanted(&o, SOL_BOUND_KLEIN_LOWER)) {
        t0 = now();
        sol_status s2 = klein_lower(ctx, &d, &r);
        st = settle(ctx, out, SOL_BOUND_KLEIN_LOWER, s2, r, t0);
    }
    if (st == SOL_OK && wanted(&o, SOL_BOUND_KLEIN_UPPER)) {
        t0 = now();
        sol_status s2 = klein_pass(ctx, &d, &r);
        /* the pass on the reversed graph bounds the same makespan; which direction treats
         * fewer correlated finishes as independent depends on the graph's shape */
        sol_dag rev;
        sol_dist *rb = NULL;
        sol_status s3 = s2 == SOL_OK ? dag_reverse(ctx, &d, &rev) : s2;
        if (s3 == SOL_OK) {
            s3 = klein_pass(ctx, &rev, &rb);
            free(rev.order);
        }
        if (s3 == SOL_ENOMEM)
            s2 = s3;
        else if (s3 == SOL_OK && sol_dist_mean(rb) < sol_dist_mean(r)) {
            sol_dist_free(r);
            r = rb;
            rb = NULL;
        }
        sol_dist_free(rb);
        st = settle(ctx, out, SOL_BOUND_KLEIN_UPPER, s2, r, t0);
    }
    sol_set dupmem = {NULL, 0, 0};
    int dodin_exact = 0, dodin_ok = 0;
    if (st == SOL_OK && (wanted(&o, SOL_BOUND_DODIN) || wanted(&o, SOL_BOUND_COND_UPPER))) {
        t0 = now();
        eng e;
        sol_status s2 = eng_init(ctx, &d, d.dist, d.n + o.dup_limit, o.cond_nodes > 0, &e);
        r = NULL;
        if (s2 == SOL_OK) {
            s2 = dodin_run(&e, &dupmem, &r);
            dodin_exact = e.inexact_dups == 0;
            dodin_ok = s2 == SOL_OK;
            eng_free(&e);
        }
        st = settle(ctx, out, SOL_BOUND_DODIN, s2, r, t0);
    }
    scratch s = {0};
    int small = d.n <= o.search_nodes;
    /* the greedy searches: arc deletion and insertion alone, then all moves mixed */
    static const struct {
        sol_bound_method m;
        int upper;
        unsigned kinds;
    } searches[4] = {{SOL_BOUND_ARC_DELETE, 0, 1u << MV_DEL},
                     {SOL_BOUND_ARC_INSERT, 1, 1u << MV_UNION},
                     {SOL_BOUND_GREEDY_LOWER, 0, ~0u},
                     {SOL_BOUND_GREEDY_UPPER, 1, ~0u}};
    for (int i = 0; i < 4 && st == SOL_OK && small; i++) {
        if (!wanted(&o, searches[i].m))
            continue;
        t0 = now();
        eng e;
        sol_status s2 = eng_init(ctx, &d, d.dist, d.n + o.dup_limit, 0, &e);
        r = NULL;
        if (s2 == SOL_OK) {
            s2 = greedy_run(&e, &s, searches[i].upper, searches[i].kinds, &r);
            eng_free(&e);
        }
        st = settle(ctx, out, searches[i].m, s2, r, t0);
    }
    scratch_free(&s);
    if (st == SOL_OK && small && wanted(&o, SOL_BOUND_PARTITION)) {
        t0 = now();
        r = NULL;
        sol_status s2 = partition_lower(ctx, &d, &r);
        st = settle(ctx, out, SOL_BOUND_PARTITION, s2, r, t0);
    }
    if (st == SOL_OK && dodin_ok && dodin_exact) {
        /* Dodin copied constants only: its value is exact */
        out->value[SOL_BOUND_COND_LOWER] = out->value[SOL_BOUND_COND_UPPER] =
            out->value[SOL_BOUND_DODIN];
    } else if (st == SOL_OK && dodin_ok && o.cond_nodes > 0 && wanted(&o, SOL_BOUND_COND_UPPER)) {
        t0 = now();
        st = settle(ctx, out, SOL_BOUND_COND_UPPER, conditioning(ctx, &d, &o, &dupmem, out), NULL,
                    t0);
        out->seconds[SOL_BOUND_COND_LOWER] = out->seconds[SOL_BOUND_COND_UPPER];
    }
    free(dupmem.a);
    sol_dag_free(&d);
    sol_graph_free(res);
    if (st != SOL_OK)
        return st;
    /* the tightest pair */
    for (int m = 1; m < SOL_BOUND_COUNT; m++) {
        double v = out->value[m];
        if (isnan(v))
            continue;
        if (sol_bound_method_is_lower((sol_bound_method)m) && !(v <= out->lower)) {
            out->lower = v;
            out->lower_method = (sol_bound_method)m;
        }
        if (!sol_bound_method_is_lower((sol_bound_method)m) && !(v >= out->upper)) {
            out->upper = v;
            out->upper_method = (sol_bound_method)m;
        }
    }
    out->exact = out->value[SOL_BOUND_COND_LOWER] == out->value[SOL_BOUND_COND_UPPER] &&
                 out->lower_method == SOL_BOUND_COND_LOWER &&
                 out->upper_method == SOL_BOUND_COND_UPPER;
    if (out->lower > out->upper) {
        /* methods agree only up to the lattice's discretisation (O(h^2) upwards): a crossing
         * wider than that is reported, a narrower one closed */
        if (out->lower - out->upper > 1e-6 * fabs(out->upper))
            sol_ctx_notef(ctx, "bounds: %s %.9g exceeds %s %.9g", method_names[out->lower_method],
                          out->lower, method_names[out->upper_method], out->upper);
        out->lower = out->upper;
    }
    return SOL_OK;
}

/* ---------------------------------------------------------------- given arcs */

static sol_status edited_makespan(sol_ctx *ctx, const sol_graph *g, size_t k, const uint32_t *from,
                                  const uint32_t *to, int insert, sol_dist **out)
{
    *out = NULL;
    size_t n = sol_graph_node_count(g), na = sol_graph_arc_count(g);
    unsigned char *drop = calloc(na ? na : 1, 1), *found = calloc(k ? k : 1, 1);
    sol_graph *h = NULL;
    sol_status st = drop && found ? sol_graph_new(ctx, n ? n : 1, &h) : nomem(ctx);
    for (uint32_t v = 0; st == SOL_OK && v < n; v++)
        st = sol_graph_add_node(ctx, h, sol_graph_node_dist(g, v), 0, NULL);
    for (size_t i = 0; st == SOL_OK && !insert && i < na; i++) {
        uint32_t a, b;
        sol_graph_arc(g, i, &a, &b);
        for (size_t j = 0; j < k; j++)
            if (from[j] == a && to[j] == b)
                drop[i] = found[j] = 1;
    }
    for (size_t j = 0; st == SOL_OK && !insert && j < k; j++)
        if (!found[j])
            st = sol_ctx_fail(ctx, SOL_EINVAL, "arc %lu -> %lu to delete is not in the graph",
                              (unsigned long)from[j], (unsigned long)to[j]);
    for (size_t i = 0; st == SOL_OK && i < na; i++) {
        uint32_t a, b;
        sol_graph_arc(g, i, &a, &b);
        if (!drop[i])
            st = sol_graph_add_arc(ctx, h, a, b);
    }
    for (size_t j = 0; st == SOL_OK && insert && j < k; j++)
        st = sol_graph_add_arc(ctx, h, from[j], to[j]);
    if (st == SOL_OK)
        st = sol_graph_reduce(ctx, h, out, NULL);
    sol_graph_free(h);
    free(drop);
    free(found);
    return st;
}

sol_status sol_bounds_delete_arcs(sol_ctx *ctx, const sol_graph *g, size_t k, const uint32_t *from,
                                  const uint32_t *to, sol_dist **out)
{
    return edited_makespan(ctx, g, k, from, to, 0, out);
}

sol_status sol_bounds_insert_arcs(sol_ctx *ctx, const sol_graph *g, size_t k, const uint32_t *from,
                                  const uint32_t *to, sol_dist **out)
{
    return edited_makespan(ctx, g, k, from, to, 1, out);
}
