/* Read-only adjacency of a task graph for the solvers that walk it node by node (bounds,
 * simulation, Markov chain): deduplicated predecessor and successor lists and a topological
 * order. Internal to the solver; a plain struct because the hot loops index it directly. */
#ifndef SOL_DAG_H
#define SOL_DAG_H

#include <stddef.h>
#include <stdint.h>

#include "sol_ctx.h"
#include "sol_dist.h"
#include "sol_graph.h"

typedef struct sol_dag {
    size_t n;              /* nodes, numbered as in the graph */
    size_t na;             /* distinct arcs */
    const sol_dist **dist; /* borrowed from the graph: valid while the graph lives */
    size_t *poff, *soff;   /* predecessors of v: pred[poff[v]..poff[v+1]), successors likewise */
    uint32_t *pred, *succ; /* sorted ascending within each list */
    uint32_t *order;       /* a topological order (Kahn's, smallest id first among ready nodes) */
} sol_dag;

/* Builds the adjacency of g; SOL_EINVAL naming a node on a cycle, SOL_ENOMEM. On success the
 * caller owns d's arrays and releases them with sol_dag_free (also safe after a failure).
 * O(N + A log A), memory O(N + A). */
sol_status sol_dag_build(sol_ctx *ctx, const sol_graph *g, sol_dag *d);
void sol_dag_free(sol_dag *d);

#endif
