/* Bounding methods for the mean makespan of non-series-parallel task graphs: exact reduction
 * first, then forward passes, arc deletion and insertion, node duplication and conditioning on
 * the residual graph. */
#include "sol_bounds.h"

#include <stdlib.h>

#include "sol_dag.h"

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
