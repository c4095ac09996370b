/* Bounds on the mean makespan of task graphs that are not series-parallel: the series-parallel
 * reduction runs first, then bounding methods work on its irreducible residual. Every bound is a
 * bound on the mean of the makespan the graph defines (independent node durations); where a
 * method yields a whole distribution that is a stochastic bound, it is exposed as well.
 * Facts used (design/solver-methods.md): the makespan never decreases when an arc is added and
 * never increases when one is deleted; it is convex and 1-Lipschitz in each duration; finishes
 * that share ancestors are associated. */
#ifndef SOL_BOUNDS_H
#define SOL_BOUNDS_H

#include <stddef.h>
#include <stdint.h>

#include "sol_ctx.h"
#include "sol_dist.h"
#include "sol_graph.h"

/* The methods, with what each gives and its cost on a residual of N nodes and A arcs (n is the
 * lattice length, one distribution operation costs O(n log n) at most). */
typedef enum sol_bound_method {
    /* exact: the graph is series-parallel (sol_graph_reduce). */
    SOL_BOUND_SP,
    /* lower: longest path of mean durations (Jensen). O(N + A). */
    SOL_BOUND_CPM,
    /* lower: Kleindorfer's pass with the pointwise minimum of CDFs among predecessors that share
     * random ancestors (their maximum is at least the comonotone one) and the product across
     * groups that share none (independent, exact). O(N * A / 64) for ancestor sets plus one
     * operation per node and per arc; memory O(N^2 / 8) bytes, so N <= 2^15. */
    SOL_BOUND_KLEIN_LOWER,
    /* lower: arc deletion. Greedy: while the reduction is stuck, delete the arc whose deletion
     * lowers a normal (Clark) estimate of the makespan least, preferring arcs whose deletion lets
     * a merge happen; then the series-parallel remainder is solved exactly. Each step scores at
     * most 64 candidates (the least critical ones) at O(N + A) each; at most A steps. */
    SOL_BOUND_ARC_DELETE,
    /* lower: conditioning (see SOL_BOUND_COND_UPPER): the conditioned nodes take their cells'
     * conditional means (Jensen within each cell, the makespan being convex). */
    SOL_BOUND_COND_LOWER,
    /* upper: Kleindorfer's pass with the product of the predecessors' CDFs (association), run
     * forward and on the reversed graph (a path read backwards: the same makespan), the smaller
     * mean kept; the direction matters when joins and forks are unbalanced (a long processor
     * chain fed by short ones: 64.6 instead of 65.9 on NEIGHBOR p = 9, 4 iterations, simulated
     * 64.2). Two convolutions per node, two CDF products per arc. */
    SOL_BOUND_KLEIN_UPPER,
    /* upper: Dodin's node duplication. While the reduction is stuck, a node v with a successor w
     * whose only predecessor is v gets an independent copy that serves w alone (or the mirror
     * image: a predecessor whose only successor is v), lowest-variance node first; copies of a
     * deterministic node are exact. At most opts.dup_limit copies; one operation per merge. */
    SOL_BOUND_DODIN,
    /* upper: arc insertion. Greedy: while the reduction is stuck, give two nodes that share a
     * predecessor or a successor the union of their predecessor and successor sets (so they
     * merge in parallel), choosing the pair whose arcs raise a normal estimate of the makespan
     * least; the series-parallel result is solved exactly. At most 64 scored pairs per step at
     * O(N * A) each (transitive reduction after each insertion); at most N steps. */
    SOL_BOUND_ARC_INSERT,
    /* upper: conditioning on the random residual nodes Dodin duplicates (at most
     * opts.cond_nodes of them, and evaluations times N within opts.cond_budget). Each
     * conditioned node's stored masses (its lattice or atoms: the model the reduction solves)
     * are cut into opts.cond_cells cells of about equal probability; for the upper bound each
     * cell's mass is split between its end points keeping its mean (a mean-preserving spread:
     * the makespan is convex in each duration, so its mean can only grow), for the lower bound
     * it sits at the cell's conditional mean (Jensen). For each combination of values the
     * conditioned nodes are constants, so copying them is exact; Dodin solves the rest. The
     * upper side is always valid; the lower side is reported only when Dodin copied constants
     * alone in every combination (each term exact). When every conditioned node has at most
     * cells + 1 atoms nothing is cut and both sides are the exact mean. Cost: (cells + 1)^k +
     * cells^k Dodin runs, k conditioned nodes. */
    SOL_BOUND_COND_UPPER,
    /* lower: greedy search mixing arc deletion with Jensen copies. While the reduction is stuck,
     * each candidate move is scored by the sample mean of the makespan over 128 fixed samples of
     * the current node durations (common random numbers), and the move that lowers it least is
     * made: delete an arc (a merge-enabling one when there is any), or fix a node that Dodin
     * would copy at its mean and copy it (Jensen: the makespan is convex in each duration; copies
     * of a constant are exact). At most 64 moves scored per step, each O(128 (N + A)). */
    SOL_BOUND_GREEDY_LOWER,
    /* upper: the same search mixing Dodin's independent copies with arc insertion (merging two
     * siblings), the move that raises the sample mean least first. */
    SOL_BOUND_GREEDY_UPPER,
    /* lower: partition. The residual's nodes are covered by chains (each node keeps its
     * "straightest" outgoing arc: the one whose head's predecessors reach most of its tail's
     * successors), each chain a group; groups joined by arcs merge while the graph of the arcs
     * inside groups stays series-parallel, the merge that raises a sampled estimate most (128
     * fixed samples) first; every arc between groups is deleted and the rest solved exactly.
     * Finds the processors of a block mapping, or pairs of neighbouring columns in a mesh, where
     * one-arc-at-a-time deletion loses its way. Per merge step at most 64 candidate merges, each
     * a series-parallel test O((N + A) log A) and an estimate O(128 (N + A)); at most N steps. */
    SOL_BOUND_PARTITION,
    /* exact: the Markov chain of sol_markov.h, when every node is exponential, Erlang or zero
     * and sol_markov_states_bound promises at most opts.markov_states states (and at most
     * SOL_BOUNDS_MARKOV_BYTES of memory); tried first, on the whole graph (the reduction's
     * results are not phase-type). Cost: the bound, O(N A), then about 2 us per state. */
    SOL_BOUND_MARKOV,
    SOL_BOUND_COUNT
} sol_bound_method;

/* Short name of a method ("sp", "cpm", "kleindorfer-min", "arc-deletion", "conditioning",
 * "kleindorfer", "dodin", "arc-insertion", "greedy-lower", "greedy-upper", "partition", "markov"),
 * as the compiler prints it. O(1). */
const char *sol_bound_method_name(sol_bound_method m);

/* 1 for the methods that give lower bounds (and SOL_BOUND_SP), 0 for upper ones. O(1). */
int sol_bound_method_is_lower(sol_bound_method m);

/* Most memory the Markov chain may take inside sol_bounds_mean. */
#define SOL_BOUNDS_MARKOV_BYTES (512.0 * 1024 * 1024)

typedef struct sol_bounds_opts {
    size_t dup_limit;     /* Dodin and greedy searches: most node copies (default 200000,
                             at most SOL_GRAPH_NODES_MAX) */
    size_t cond_nodes;    /* conditioning: most conditioned nodes (default 3; 0 disables it) */
    size_t cond_cells;    /* conditioning: cells per conditioned node (default 32, 2..4096) */
    uint64_t cond_budget; /* conditioning: most (evaluations * residual nodes) (default 2000;
                             one unit is about one distribution operation, ~0.1-1 ms at the
                             default precision) */
    size_t search_nodes;  /* arc deletion/insertion only on residuals up to this many nodes
                             (default 4096): their greedy searches are superlinear */
    size_t markov_states; /* Markov chain: most states (default 0: not tried) */
    uint32_t methods;     /* bit (1 << method) set: run that method; 0: all (default) */
} sol_bounds_opts;

/* Fills o with the defaults above. O(1). */
void sol_bounds_opts_default(sol_bounds_opts *o);

typedef struct sol_bounds_result {
    double lower, upper;             /* tightest valid pair: max lower, min upper */
    sol_bound_method lower_method;   /* the method that gave lower */
    sol_bound_method upper_method;   /* the method that gave upper */
    int exact;                       /* lower = upper by an exact method */
    size_t residual_nodes;           /* nodes left by the reduction (0: SP) */
    double value[SOL_BOUND_COUNT];   /* each method's bound, NAN when not run or failed */
    double seconds[SOL_BOUND_COUNT]; /* each method's time (wall clock) */
} sol_bounds_result;

/* Bounds on the mean makespan of g. SP graphs: exact (lower = upper, exact = 1). Otherwise every
 * selected method runs on the residual; a method that exceeds its limit or does not apply is
 * skipped with a note in the context (value NAN), never an error. opts may be NULL (defaults).
 * Errors: SOL_EINVAL (cycle, bad option), SOL_ENOMEM, numerical failures; *out is then
 * undefined. Cost: the sum of the methods' costs above. */
sol_status sol_bounds_mean(sol_ctx *ctx, const sol_graph *g, const sol_bounds_opts *opts,
                           sol_bounds_result *out);

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

/* The makespan of g with the k arcs from[i] -> to[i] deleted (a stochastic lower bound) or
 * added (an upper bound), when the result is series-parallel: for callers that know which arcs
 * to drop (those that cross processors) or which barriers to add. SOL_ENOTSP when the result is
 * not series-parallel, SOL_EINVAL for an arc that does not exist (deletion), a bad node id or a
 * cycle. The caller owns *out. Cost: a copy of g plus sol_graph_reduce. */
sol_status sol_bounds_delete_arcs(sol_ctx *ctx, const sol_graph *g, size_t k, const uint32_t *from,
                                  const uint32_t *to, sol_dist **out);
sol_status sol_bounds_insert_arcs(sol_ctx *ctx, const sol_graph *g, size_t k, const uint32_t *from,
                                  const uint32_t *to, sol_dist **out);

#endif
