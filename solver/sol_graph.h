/* Node-weighted task graphs (nodes carry duration distributions, arcs are precedence) and their
 * series-parallel reduction to the makespan distribution; graphs that do not reduce are handed
 * back reduced as far as possible, for the bounding methods. */
#ifndef SOL_GRAPH_H
#define SOL_GRAPH_H

#include <stddef.h>
#include <stdint.h>

#include "sol_ctx.h"
#include "sol_dist.h"

typedef struct sol_graph sol_graph;

/* Tags the reduction gives to the nodes it creates; caller tags must be below SOL_TAG_RESERVED. */
#define SOL_TAG_RESERVED (UINT32_MAX - 2)
#define SOL_TAG_SOURCE   (UINT32_MAX - 2) /* the zero-duration source the reduction adds */
#define SOL_TAG_SINK     (UINT32_MAX - 1) /* the zero-duration sink */
#define SOL_TAG_MERGED   UINT32_MAX       /* a node merged from several caller nodes */
/* Default and largest node limit (ids are uint32; arcs are limited to 4 per node on average
 * beyond 2^24 so memory stays bounded). */
#define SOL_GRAPH_NODES_DEFAULT ((size_t)1 << 24)
#define SOL_GRAPH_NODES_MAX     ((size_t)1 << 30)

/* Empty graph holding at most max_nodes nodes (0: the default) and 4 * max_nodes + 2^20 arcs.
 * The caller owns *out and frees it with sol_graph_free, which drops the node distributions'
 * references. O(1). */
sol_status sol_graph_new(sol_ctx *ctx, size_t max_nodes, sol_graph **out);
void sol_graph_free(sol_graph *g);

/* Adds a node of duration d (the graph takes its own reference) and caller tag; its id (0, 1, ...
 * in order of addition) goes to *id. SOL_ELIMIT beyond the node limit. Amortised O(1). */
sol_status sol_graph_add_node(sol_ctx *ctx, sol_graph *g, const sol_dist *d, uint32_t tag,
                              uint32_t *id);
/* Adds the precedence from -> to (to starts after from ends). Self-loops are SOL_EINVAL, other
 * cycles are found by sol_graph_reduce; duplicate arcs are harmless. Amortised O(1). */
sol_status sol_graph_add_arc(sol_ctx *ctx, sol_graph *g, uint32_t from, uint32_t to);

size_t sol_graph_node_count(const sol_graph *g);
size_t sol_graph_arc_count(const sol_graph *g);
/* Node accessors (id < node count); the distribution stays owned by the graph. O(1). */
const sol_dist *sol_graph_node_dist(const sol_graph *g, uint32_t id);
uint32_t sol_graph_node_tag(const sol_graph *g, uint32_t id);
/* Arc i (< arc count) in order of addition. O(1). */
void sol_graph_arc(const sol_graph *g, size_t i, uint32_t *from, uint32_t *to);

/* Makespan of the graph: adds a zero source and sink, removes transitively redundant arcs, then
 * merges series pairs (convolution) and parallel groups with identical predecessor and successor
 * sets (product of CDFs) until no merge applies.
 * - SOL_OK: series-parallel; *makespan is owned by the caller, *residual is NULL.
 * - SOL_ENOTSP: *makespan is NULL and *residual (owned by the caller) is the irreducible graph:
 *   one source, one sink, nodes carrying their merged distributions, tags kept for unmerged
 *   caller nodes, SOL_TAG_MERGED for merged ones, SOL_TAG_SOURCE/SINK for the added ends.
 * - SOL_EINVAL for a cycle (the message names a node on it); other errors from the operations.
 * residual may be NULL when the caller does not want it. The graph itself is not modified.
 * Cost: cycle check O(N + A); transitive reduction O(sum over nodes u with out-degree >= 2 of the
 * part of the graph between u and its last successor in topological order), O(N * A) at worst
 * and near O(N + A) for layered graphs; merges O(A log A) bookkeeping for bounded degrees,
 * O(N * A) at worst, plus one distribution operation per merge. Memory O(N + A). */
sol_status sol_graph_reduce(sol_ctx *ctx, const sol_graph *g, sol_dist **makespan,
                            sol_graph **residual);

#endif
