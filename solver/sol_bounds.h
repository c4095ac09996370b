/* Bounds on the mean makespan of task graphs that are not series-parallel: the series-parallel
 * reduction runs first, then bounding methods work on its irreducible residual. Every bound is a
 * bound on the mean of the makespan the graph defines (independent node durations); where a
 * method yields a whole distribution that is a stochastic bound, it is exposed as well. */
#ifndef SOL_BOUNDS_H
#define SOL_BOUNDS_H

#include "sol_ctx.h"
#include "sol_dist.h"
#include "sol_graph.h"

/* Stochastic upper bound of the makespan distribution (Kleindorfer 1971, product form): the
 * graph is reduced series-parallel as far as it goes (exact); on the residual, nodes are taken
 * in topological order, a node's start is the maximum of its predecessors' finishes treated as
 * independent (product of their CDFs), its finish the start plus its duration (convolution).
 * Finishes that share ancestors are associated, so the product is at most their joint CDF
 * (Esary-Proschan-Walkup): the result is >= the true makespan in the usual stochastic order, and
 * equals it when the graph is series-parallel. Use: the scaled model of ARBITRARY phases.
 * On SOL_OK the caller owns *out; on failure *out is NULL and the context holds the message
 * (SOL_EINVAL for a cycle). Cost: the reduction (see sol_graph_reduce), then on the residual of
 * N nodes and A arcs one convolution O(n log n) per node and one product of CDFs O(n) per arc,
 * n the lattice length; memory O(N + A) plus the finishes not yet consumed, O(width * n). */
sol_status sol_bounds_upper_dist(sol_ctx *ctx, const sol_graph *g, sol_dist **out);

#endif
