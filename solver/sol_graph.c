/* Task graphs and their series-parallel reduction: zero source and sink, transitive reduction
 * by pruned depth-first search, then series and parallel merges driven by a worklist (merges
 * are confluent, so the order does not change the outcome). */
#include "sol_graph.h"
#include "sol_set.h"

#include <stdlib.h>
#include <string.h>

struct sol_graph {
    size_t max_nodes, max_arcs;
    size_t n, ncap;
    sol_dist **dist;
    uint32_t *tag;
    size_t na, acap;
    uint32_t *from, *to;
};

static sol_status nomem(sol_ctx *ctx)
{
    return sol_ctx_fail(ctx, SOL_ENOMEM, "out of memory for a task graph");
}

sol_status sol_graph_new(sol_ctx *ctx, size_t max_nodes, sol_graph **out)
{
    *out = NULL;
    if (max_nodes == 0)
        max_nodes = SOL_GRAPH_NODES_DEFAULT;
    if (max_nodes > SOL_GRAPH_NODES_MAX)
        return sol_ctx_fail(ctx, SOL_ELIMIT, "graph node limit %zu exceeds %zu", max_nodes,
                            SOL_GRAPH_NODES_MAX);
    sol_graph *g = calloc(1, sizeof *g);
    if (g == NULL)
        return nomem(ctx);
    g->max_nodes = max_nodes;
    g->max_arcs = 4 * max_nodes + ((size_t)1 << 20);
    *out = g;
    return SOL_OK;
}

void sol_graph_free(sol_graph *g)
{
    if (g == NULL)
        return;
    for (size_t i = 0; i < g->n; i++)
        sol_dist_free(g->dist[i]);
    free(g->dist);
    free(g->tag);
    free(g->from);
    free(g->to);
    free(g);
}

/* Grows *a (element size sz, capacity *cap) to hold need elements. */
static int grow(void **a, size_t *cap, size_t need, size_t sz)
{
    if (need <= *cap)
        return 0;
    size_t c = *cap ? 2 * *cap : 16;
    while (c < need)
        c *= 2;
    void *p = realloc(*a, c * sz);
    if (p == NULL)
        return -1;
    *a = p;
    *cap = c;
    return 0;
}

/* Node with a tag the caller may not use (the reduction's own nodes pass them). */
static sol_status add_node(sol_ctx *ctx, sol_graph *g, const sol_dist *d, uint32_t tag,
                           uint32_t *id)
{
    if (g->n >= g->max_nodes)
        return sol_ctx_fail(ctx, SOL_ELIMIT, "task graph exceeds its limit of %zu nodes",
                            g->max_nodes);
    size_t c1 = g->ncap, c2 = g->ncap;
    if (grow((void **)&g->dist, &c1, g->n + 1, sizeof *g->dist) ||
        grow((void **)&g->tag, &c2, g->n + 1, sizeof *g->tag))
        return nomem(ctx);
    g->ncap = c1 < c2 ? c1 : c2;
    g->dist[g->n] = sol_dist_retain(d);
    g->tag[g->n] = tag;
    if (id != NULL)
        *id = (uint32_t)g->n;
    g->n++;
    return SOL_OK;
}

sol_status sol_graph_add_node(sol_ctx *ctx, sol_graph *g, const sol_dist *d, uint32_t tag,
                              uint32_t *id)
{
    if (d == NULL)
        return sol_ctx_fail(ctx, SOL_EINVAL, "task graph node without a distribution");
    if (tag >= SOL_TAG_RESERVED)
        return sol_ctx_fail(ctx, SOL_EINVAL, "node tag %lu is reserved (tags must be below %lu)",
                            (unsigned long)tag, (unsigned long)SOL_TAG_RESERVED);
    return add_node(ctx, g, d, tag, id);
}

sol_status sol_graph_add_arc(sol_ctx *ctx, sol_graph *g, uint32_t from, uint32_t to)
{
    if (from >= g->n || to >= g->n)
        return sol_ctx_fail(ctx, SOL_EINVAL, "arc %lu -> %lu names a node that does not exist",
                            (unsigned long)from, (unsigned long)to);
    if (from == to)
        return sol_ctx_fail(ctx, SOL_EINVAL, "arc %lu -> %lu is a cycle (self-loop)",
                            (unsigned long)from, (unsigned long)to);
    if (g->na >= g->max_arcs)
        return sol_ctx_fail(ctx, SOL_ELIMIT, "task graph exceeds its limit of %zu arcs",
                            g->max_arcs);
    size_t c1 = g->acap, c2 = g->acap;
    if (grow((void **)&g->from, &c1, g->na + 1, sizeof *g->from) ||
        grow((void **)&g->to, &c2, g->na + 1, sizeof *g->to))
        return nomem(ctx);
    g->acap = c1 < c2 ? c1 : c2;
    g->from[g->na] = from;
    g->to[g->na] = to;
    g->na++;
    return SOL_OK;
}

size_t sol_graph_node_count(const sol_graph *g)
{
    return g->n;
}

size_t sol_graph_arc_count(const sol_graph *g)
{
    return g->na;
}

const sol_dist *sol_graph_node_dist(const sol_graph *g, uint32_t id)
{
    return id < g->n ? g->dist[id] : NULL;
}

uint32_t sol_graph_node_tag(const sol_graph *g, uint32_t id)
{
    return id < g->n ? g->tag[id] : SOL_TAG_MERGED;
}

void sol_graph_arc(const sol_graph *g, size_t i, uint32_t *from, uint32_t *to)
{
    *from = i < g->na ? g->from[i] : UINT32_MAX;
    *to = i < g->na ? g->to[i] : UINT32_MAX;
}

/* ---------------------------------------------------------------- reduction state */

typedef struct red {
    sol_ctx *ctx;
    size_t n; /* caller nodes + source + sink */
    sol_set *succ, *pred;
    sol_dist **d;
    uint32_t *tag;
    unsigned char *alive, *queued;
    uint32_t *work;
    size_t nwork, nalive;
} red;

static void red_free(red *r)
{
    for (size_t i = 0; i < r->n; i++) {
        if (r->succ)
            free(r->succ[i].a);
        if (r->pred)
            free(r->pred[i].a);
        if (r->d)
            sol_dist_free(r->d[i]);
    }
    free(r->succ);
    free(r->pred);
    free(r->d);
    free(r->tag);
    free(r->alive);
    free(r->queued);
    free(r->work);
}

static void push(red *r, uint32_t v)
{
    if (!r->queued[v] && r->alive[v]) {
        r->queued[v] = 1;
        r->work[r->nwork++] = v;
    }
}

/* Tag of a node merged from a and b: a zero end node adds nothing, so the other keeps its tag. */
static uint32_t merged_tag(uint32_t a, uint32_t b)
{
    if (a == SOL_TAG_SOURCE || a == SOL_TAG_SINK)
        return b;
    if (b == SOL_TAG_SOURCE || b == SOL_TAG_SINK)
        return a;
    return SOL_TAG_MERGED;
}

/* v absorbs its only successor s (s's only predecessor is v). */
static sol_status merge_series(red *r, uint32_t v, uint32_t s)
{
    sol_dist *sum;
    sol_status st = sol_dist_series(r->ctx, r->d[v], r->d[s], &sum);
    if (st != SOL_OK)
        return st;
    sol_dist_free(r->d[v]);
    sol_dist_free(r->d[s]);
    r->d[v] = sum;
    r->d[s] = NULL;
    r->tag[v] = merged_tag(r->tag[v], r->tag[s]);
    free(r->succ[v].a);
    r->succ[v] = r->succ[s];
    r->succ[s] = (sol_set){NULL, 0, 0};
    r->pred[s].n = 0;
    r->alive[s] = 0;
    r->nalive--;
    for (size_t i = 0; i < r->succ[v].n; i++) {
        uint32_t t = r->succ[v].a[i];
        sol_set_remove(&r->pred[t], s);
        if (sol_set_insert(&r->pred[t], v) < 0)
            return nomem(r->ctx);
        push(r, t);
    }
    push(r, v);
    return SOL_OK;
}

/* Merges every node with v's predecessor and successor sets into v (max of all). */
static sol_status merge_parallel(red *r, uint32_t v)
{
    const sol_set *P = &r->pred[v];
    if (P->n == 0 || r->succ[v].n == 0)
        return SOL_OK;
    /* candidates share every predecessor: scan the one with the fewest successors */
    uint32_t p = P->a[0];
    for (size_t i = 1; i < P->n; i++)
        if (r->succ[P->a[i]].n < r->succ[p].n)
            p = P->a[i];
    size_t k = 0;
    uint32_t *group = NULL;
    const sol_set *C = &r->succ[p];
    for (size_t i = 0; i < C->n; i++) {
        uint32_t w = C->a[i];
        if (w == v || !sol_set_equal(&r->pred[w], P) || !sol_set_equal(&r->succ[w], &r->succ[v]))
            continue;
        if (group == NULL && (group = malloc(C->n * sizeof *group)) == NULL)
            return nomem(r->ctx);
        group[k++] = w;
    }
    if (k == 0)
        return SOL_OK;
    const sol_dist **ds = malloc((k + 1) * sizeof *ds);
    if (ds == NULL) {
        free(group);
        return nomem(r->ctx);
    }
    ds[0] = r->d[v];
    for (size_t i = 0; i < k; i++)
        ds[i + 1] = r->d[group[i]];
    sol_dist *mx;
    sol_status st = sol_dist_max_all(r->ctx, k + 1, ds, &mx);
    free(ds);
    if (st != SOL_OK) {
        free(group);
        return st;
    }
    sol_dist_free(r->d[v]);
    r->d[v] = mx;
    r->tag[v] = SOL_TAG_MERGED;
    for (size_t i = 0; i < k; i++) {
        uint32_t w = group[i];
        for (size_t j = 0; j < r->pred[w].n; j++)
            sol_set_remove(&r->succ[r->pred[w].a[j]], w);
        for (size_t j = 0; j < r->succ[w].n; j++)
            sol_set_remove(&r->pred[r->succ[w].a[j]], w);
        sol_dist_free(r->d[w]);
        r->d[w] = NULL;
        r->alive[w] = 0;
        r->nalive--;
    }
    free(group);
    for (size_t j = 0; j < r->pred[v].n; j++)
        push(r, r->pred[v].a[j]);
    for (size_t j = 0; j < r->succ[v].n; j++)
        push(r, r->succ[v].a[j]);
    push(r, v);
    return SOL_OK;
}

static sol_status reduce_loop(red *r)
{
    for (uint32_t v = (uint32_t)r->n; v-- > 0;)
        push(r, v);
    while (r->nwork > 0) {
        uint32_t v = r->work[--r->nwork];
        r->queued[v] = 0;
        if (!r->alive[v])
            continue;
        sol_status st = SOL_OK;
        if (r->succ[v].n == 1 && r->pred[r->succ[v].a[0]].n == 1)
            st = merge_series(r, v, r->succ[v].a[0]);
        else if (r->pred[v].n == 1 && r->succ[r->pred[v].a[0]].n == 1)
            st = merge_series(r, r->pred[v].a[0], v);
        else
            st = merge_parallel(r, v);
        if (st != SOL_OK)
            return st;
    }
    return SOL_OK;
}

/* ---------------------------------------------------------------- preparation */

/* Compressed adjacency of the graph with source and sink: arcs of u are adj[off[u]..off[u+1]). */
typedef struct csr {
    size_t n, na;
    size_t *off;
    uint32_t *adj;
    unsigned char *redundant;
} csr;

static void csr_free(csr *c)
{
    free(c->off);
    free(c->adj);
    free(c->redundant);
}

static int cmp_arc(const void *a, const void *b)
{
    const uint32_t *x = a, *y = b;
    if (x[0] != y[0])
        return x[0] < y[0] ? -1 : 1;
    return (x[1] > y[1]) - (x[1] < y[1]);
}

/* Deduplicated arcs plus source -> (nodes without predecessors) and (nodes without successors)
 * -> sink. */
static sol_status build_csr(sol_ctx *ctx, const sol_graph *g, csr *c)
{
    size_t n0 = g->n, n = n0 + 2, cap = 2 * (g->na + 2 * n0 + 1);
    uint32_t *arcs = malloc(cap * sizeof *arcs);
    unsigned char *hasin = calloc(n, 1), *hasout = calloc(n, 1);
    memset(c, 0, sizeof *c);
    if (arcs == NULL || hasin == NULL || hasout == NULL) {
        free(arcs);
        free(hasin);
        free(hasout);
        return nomem(ctx);
    }
    size_t k = 0;
    for (size_t i = 0; i < g->na; i++) {
        arcs[2 * k] = g->from[i];
        arcs[2 * k + 1] = g->to[i];
        hasout[g->from[i]] = hasin[g->to[i]] = 1;
        k++;
    }
    uint32_t src = (uint32_t)n0, snk = (uint32_t)n0 + 1;
    for (uint32_t v = 0; v < n0; v++) {
        if (!hasin[v]) {
            arcs[2 * k] = src;
            arcs[2 * k + 1] = v;
            k++;
        }
        if (!hasout[v]) {
            arcs[2 * k] = v;
            arcs[2 * k + 1] = snk;
            k++;
        }
    }
    if (n0 == 0) {
        arcs[0] = src;
        arcs[1] = snk;
        k = 1;
    }
    free(hasin);
    free(hasout);
    qsort(arcs, k, 2 * sizeof *arcs, cmp_arc);
    size_t u = 0;
    for (size_t i = 0; i < k; i++)
        if (u == 0 || arcs[2 * i] != arcs[2 * (u - 1)] ||
            arcs[2 * i + 1] != arcs[2 * (u - 1) + 1]) {
            arcs[2 * u] = arcs[2 * i];
            arcs[2 * u + 1] = arcs[2 * i + 1];
            u++;
        }
    c->n = n;
    c->na = u;
    c->off = calloc(n + 1, sizeof *c->off);
    c->adj = malloc((u ? u : 1) * sizeof *c->adj);
    c->redundant = calloc(u ? u : 1, 1);
    if (c->off == NULL || c->adj == NULL || c->redundant == NULL) {
        free(arcs);
        csr_free(c);
        return nomem(ctx);
    }
    for (size_t i = 0; i < u; i++) {
        c->off[arcs[2 * i] + 1]++;
        c->adj[i] = arcs[2 * i + 1];
    }
    for (size_t v = 0; v < n; v++)
        c->off[v + 1] += c->off[v];
    free(arcs);
    return SOL_OK;
}

/* Kahn's algorithm; pos[v] = position in a topological order. SOL_EINVAL names a node on a
 * cycle. */
static sol_status topo(sol_ctx *ctx, const sol_graph *g, const csr *c, uint32_t *pos)
{
    size_t n = c->n;
    uint32_t *indeg = calloc(n, sizeof *indeg), *queue = malloc(n * sizeof *queue);
    if (indeg == NULL || queue == NULL) {
        free(indeg);
        free(queue);
        return nomem(ctx);
    }
    for (size_t i = 0; i < c->na; i++)
        indeg[c->adj[i]]++;
    size_t head = 0, tail = 0;
    for (uint32_t v = 0; v < n; v++)
        if (indeg[v] == 0)
            queue[tail++] = v;
    while (head < tail) {
        uint32_t v = queue[head];
        pos[v] = (uint32_t)head++;
        for (size_t i = c->off[v]; i < c->off[v + 1]; i++)
            if (--indeg[c->adj[i]] == 0)
                queue[tail++] = c->adj[i];
    }
    sol_status st = SOL_OK;
    if (tail < n) {
        /* Every node still waiting has a waiting predecessor: following them n times from any
         * waiting node ends on a cycle. queue is reused as "one waiting predecessor". */
        for (uint32_t u = 0; u < n; u++)
            for (size_t i = c->off[u]; indeg[u] > 0 && i < c->off[u + 1]; i++)
                queue[c->adj[i]] = u;
        uint32_t v = 0;
        while (v < n && indeg[v] == 0)
            v++;
        for (size_t steps = 0; steps < n; steps++)
            v = queue[v];
        st = sol_ctx_fail(ctx, SOL_EINVAL, "task graph has a cycle through node %lu (tag %lu)",
                          (unsigned long)v, (unsigned long)g->tag[v]);
    }
    free(indeg);
    free(queue);
    return st;
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

/* Transitive reduction: arc u -> v is redundant when another successor w of u reaches v. Only
 * nodes with two or more successors can have one; successors are taken in topological order and
 * the search never passes the last of them. */
static sol_status transitive_reduction(sol_ctx *ctx, csr *c, const uint32_t *pos)
{
    size_t n = c->n;
    uint32_t *stamp = calloc(n, sizeof *stamp), *stack = malloc(n * sizeof *stack);
    uint64_t *order = malloc(n * sizeof *order);
    if (stamp == NULL || stack == NULL || order == NULL) {
        free(stamp);
        free(stack);
        free(order);
        return nomem(ctx);
    }
    for (uint32_t u = 0; u < n; u++) {
        size_t a = c->off[u], b = c->off[u + 1];
        if (b - a < 2)
            continue;
        /* successors of u by topological position: keys (position, arc offset) */
        size_t d = b - a;
        for (size_t i = 0; i < d; i++)
            order[i] = (uint64_t)pos[c->adj[a + i]] << 32 | (uint64_t)i;
        qsort(order, d, sizeof *order, cmp_u64);
        for (size_t i = 0; i < d; i++)
            order[i] &= 0xffffffffu;
        uint32_t limit = pos[c->adj[a + order[d - 1]]], mark = u + 1;
        for (size_t i = 0; i < d; i++) {
            uint32_t v = c->adj[a + order[i]];
            if (stamp[v] == mark) {
                c->redundant[a + order[i]] = 1;
                continue;
            }
            size_t top = 0;
            stack[top++] = v;
            stamp[v] = mark;
            while (top > 0) {
                uint32_t x = stack[--top];
                for (size_t j = c->off[x]; j < c->off[x + 1]; j++) {
                    uint32_t y = c->adj[j];
                    if (stamp[y] != mark && pos[y] <= limit) {
                        stamp[y] = mark;
                        stack[top++] = y;
                    }
                }
            }
        }
    }
    free(stamp);
    free(stack);
    free(order);
    return SOL_OK;
}

static sol_status red_init(sol_ctx *ctx, const sol_graph *g, const csr *c, red *r)
{
    size_t n = c->n;
    memset(r, 0, sizeof *r);
    r->ctx = ctx;
    r->n = n;
    r->succ = calloc(n, sizeof *r->succ);
    r->pred = calloc(n, sizeof *r->pred);
    r->d = calloc(n, sizeof *r->d);
    r->tag = malloc(n * sizeof *r->tag);
    r->alive = malloc(n);
    r->queued = calloc(n, 1);
    r->work = malloc(n * sizeof *r->work);
    if (!r->succ || !r->pred || !r->d || !r->tag || !r->alive || !r->queued || !r->work)
        return nomem(ctx);
    for (uint32_t u = 0; u < n; u++)
        for (size_t i = c->off[u]; i < c->off[u + 1]; i++)
            if (!c->redundant[i] &&
                (sol_set_push(&r->succ[u], c->adj[i]) || sol_set_push(&r->pred[c->adj[i]], u)))
                return nomem(ctx);
    /* succ lists come out sorted from the CSR, pred lists because u ascends */
    for (size_t v = 0; v < g->n; v++) {
        r->d[v] = sol_dist_retain(g->dist[v]);
        r->tag[v] = g->tag[v];
    }
    sol_status st = sol_dist_deterministic(ctx, 0.0, &r->d[g->n]);
    if (st != SOL_OK)
        return st;
    r->d[g->n + 1] = sol_dist_retain(r->d[g->n]);
    r->tag[g->n] = SOL_TAG_SOURCE;
    r->tag[g->n + 1] = SOL_TAG_SINK;
    memset(r->alive, 1, n);
    r->nalive = n;
    return SOL_OK;
}

/* The irreducible remainder as a new graph (alive nodes renumbered in id order). */
static sol_status residual_graph(sol_ctx *ctx, const red *r, sol_graph **out)
{
    sol_graph *g;
    sol_status st = sol_graph_new(ctx, 0, &g);
    if (st != SOL_OK)
        return st;
    /* the remainder of a graph that was within its limits is within them too */
    g->max_nodes = r->nalive > g->max_nodes ? r->nalive : g->max_nodes;
    g->max_arcs = SIZE_MAX;
    uint32_t *id = malloc(r->n * sizeof *id);
    if (st == SOL_OK && id == NULL)
        st = nomem(ctx);
    for (uint32_t v = 0; st == SOL_OK && v < r->n; v++)
        if (r->alive[v])
            st = add_node(ctx, g, r->d[v], r->tag[v], &id[v]);
    for (uint32_t v = 0; st == SOL_OK && v < r->n; v++)
        for (size_t i = 0; r->alive[v] && st == SOL_OK && i < r->succ[v].n; i++)
            st = sol_graph_add_arc(ctx, g, id[v], id[r->succ[v].a[i]]);
    free(id);
    if (st != SOL_OK) {
        sol_graph_free(g);
        return st;
    }
    *out = g;
    return SOL_OK;
}

sol_status sol_graph_reduce(sol_ctx *ctx, const sol_graph *g, sol_dist **makespan,
                            sol_graph **residual)
{
    *makespan = NULL;
    if (residual != NULL)
        *residual = NULL;
    csr c;
    sol_status st = build_csr(ctx, g, &c);
    if (st != SOL_OK)
        return st;
    uint32_t *pos = malloc(c.n * sizeof *pos);
    st = pos == NULL ? nomem(ctx) : topo(ctx, g, &c, pos);
    if (st == SOL_OK)
        st = transitive_reduction(ctx, &c, pos);
    free(pos);
    red r;
    if (st == SOL_OK)
        st = red_init(ctx, g, &c, &r);
    else
        memset(&r, 0, sizeof r);
    csr_free(&c);
    if (st == SOL_OK)
        st = reduce_loop(&r);
    if (st == SOL_OK && r.nalive == 1) {
        for (size_t v = 0; v < r.n; v++)
            if (r.alive[v])
                *makespan = sol_dist_retain(r.d[v]);
    } else if (st == SOL_OK) {
        st = residual != NULL ? residual_graph(ctx, &r, residual) : SOL_OK;
        if (st == SOL_OK)
            st = sol_ctx_fail(ctx, SOL_ENOTSP,
                              "task graph is not series-parallel: %zu nodes remain after "
                              "reduction",
                              r.nalive);
    }
    red_free(&r);
    return st;
}
