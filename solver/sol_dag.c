/* Compressed predecessor/successor lists of a task graph with duplicate arcs removed, and a
 * topological order found by Kahn's algorithm with a heap, so the order (and everything computed
 * along it) depends only on the graph, never on the order arcs were added. */
#include "sol_dag.h"

#include <stdlib.h>
#include <string.h>

void sol_dag_free(sol_dag *d)
{
    free(d->dist);
    free(d->poff);
    free(d->soff);
    free(d->pred);
    free(d->succ);
    free(d->order);
    memset(d, 0, sizeof *d);
}

static int cmp_arc(const void *a, const void *b)
{
    const uint32_t *x = a, *y = b;
    if (x[0] != y[0])
        return x[0] < y[0] ? -1 : 1;
    return (x[1] > y[1]) - (x[1] < y[1]);
}

/* Min-heap of node ids (ready nodes of Kahn's algorithm). */
static void heap_push(uint32_t *h, size_t *n, uint32_t v)
{
    size_t i = (*n)++;
    while (i > 0 && h[(i - 1) / 2] > v) {
        h[i] = h[(i - 1) / 2];
        i = (i - 1) / 2;
    }
    h[i] = v;
}

static uint32_t heap_pop(uint32_t *h, size_t *n)
{
    uint32_t top = h[0], v = h[--*n];
    size_t i = 0;
    for (;;) {
        size_t c = 2 * i + 1;
        if (c >= *n)
            break;
        if (c + 1 < *n && h[c + 1] < h[c])
            c++;
        if (h[c] >= v)
            break;
        h[i] = h[c];
        i = c;
    }
    if (*n > 0)
        h[i] = v;
    return top;
}

static sol_status nomem(sol_ctx *ctx)
{
    return sol_ctx_fail(ctx, SOL_ENOMEM, "out of memory for a task graph's adjacency");
}

sol_status sol_dag_build(sol_ctx *ctx, const sol_graph *g, sol_dag *d)
{
    memset(d, 0, sizeof *d);
    size_t n = sol_graph_node_count(g), na = sol_graph_arc_count(g);
    uint32_t *arcs = malloc((na ? na : 1) * 2 * sizeof *arcs);
    d->n = n;
    d->dist = malloc((n ? n : 1) * sizeof *d->dist);
    d->poff = calloc(n + 1, sizeof *d->poff);
    d->soff = calloc(n + 1, sizeof *d->soff);
    d->order = malloc((n ? n : 1) * sizeof *d->order);
    if (arcs == NULL || !d->dist || !d->poff || !d->soff || !d->order) {
        free(arcs);
        sol_dag_free(d);
        return nomem(ctx);
    }
    for (uint32_t v = 0; v < n; v++)
        d->dist[v] = sol_graph_node_dist(g, v);
    for (size_t i = 0; i < na; i++)
        sol_graph_arc(g, i, &arcs[2 * i], &arcs[2 * i + 1]);
    qsort(arcs, na, 2 * sizeof *arcs, cmp_arc);
    size_t u = 0;
    for (size_t i = 0; i < na; i++)
        if (u == 0 || arcs[2 * i] != arcs[2 * u - 2] || arcs[2 * i + 1] != arcs[2 * u - 1]) {
            arcs[2 * u] = arcs[2 * i];
            arcs[2 * u + 1] = arcs[2 * i + 1];
            u++;
        }
    d->na = u;
    d->pred = malloc((u ? u : 1) * sizeof *d->pred);
    d->succ = malloc((u ? u : 1) * sizeof *d->succ);
    size_t *fill = malloc((n + 1) * sizeof *fill);
    uint32_t *indeg = calloc(n ? n : 1, sizeof *indeg);
    uint32_t *heap = malloc((n ? n : 1) * sizeof *heap);
    if (!d->pred || !d->succ || !fill || !indeg || !heap) {
        free(arcs);
        free(fill);
        free(indeg);
        free(heap);
        sol_dag_free(d);
        return nomem(ctx);
    }
    for (size_t i = 0; i < u; i++) {
        d->soff[arcs[2 * i] + 1]++;
        d->poff[arcs[2 * i + 1] + 1]++;
    }
    for (size_t v = 0; v < n; v++) {
        d->soff[v + 1] += d->soff[v];
        d->poff[v + 1] += d->poff[v];
    }
    /* arcs are sorted by (from, to): successor lists come out sorted, and predecessor lists
     * too because the sources ascend */
    for (size_t i = 0; i < u; i++)
        d->succ[i] = arcs[2 * i + 1];
    memcpy(fill, d->poff, (n + 1) * sizeof *fill);
    for (size_t i = 0; i < u; i++)
        d->pred[fill[arcs[2 * i + 1]]++] = arcs[2 * i];
    free(arcs);
    free(fill);
    size_t hn = 0, k = 0;
    for (uint32_t v = 0; v < n; v++) {
        indeg[v] = (uint32_t)(d->poff[v + 1] - d->poff[v]);
        if (indeg[v] == 0)
            heap_push(heap, &hn, v);
    }
    while (hn > 0) {
        uint32_t v = heap_pop(heap, &hn);
        d->order[k++] = v;
        for (size_t i = d->soff[v]; i < d->soff[v + 1]; i++)
            if (--indeg[d->succ[i]] == 0)
                heap_push(heap, &hn, d->succ[i]);
    }
    sol_status st = SOL_OK;
    if (k < n) {
        /* every node still waiting has a waiting predecessor: walking back n steps from one
         * lands on a cycle */
        uint32_t v = 0;
        while (indeg[v] == 0)
            v++;
        for (size_t steps = 0; steps < n; steps++)
            for (size_t i = d->poff[v]; i < d->poff[v + 1]; i++)
                if (indeg[d->pred[i]] > 0) {
                    v = d->pred[i];
                    break;
                }
        st = sol_ctx_fail(ctx, SOL_EINVAL, "task graph has a cycle through node %lu (tag %lu)",
                          (unsigned long)v, (unsigned long)sol_graph_node_tag(g, v));
    }
    free(indeg);
    free(heap);
    if (st != SOL_OK)
        sol_dag_free(d);
    return st;
}
