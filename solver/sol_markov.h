/* Exact mean makespan of a task graph with exponential or Erlang node durations, by the
 * continuous-time Markov chain over the states of its execution (Kulkarni & Adlakha, Oper. Res.
 * 1986; the paper's "state space analysis"): a state is the set of finished nodes plus the
 * completed phases of the running ones. The oracle for the bounding methods. */
#ifndef SOL_MARKOV_H
#define SOL_MARKOV_H

#include <stddef.h>
#include <stdint.h>

#include "sol_ctx.h"
#include "sol_graph.h"

/* Default and largest state limit. */
#define SOL_MARKOV_STATES_DEFAULT ((size_t)2000000)
#define SOL_MARKOV_STATES_MAX     ((size_t)1 << 28)
/* Most phases of one Erlang node (a phase counter is one byte). */
#define SOL_MARKOV_PHASES_MAX 255

/* Mean makespan of g (nodes without predecessors start at 0, every node runs as soon as its
 * predecessors have finished). Every node must be exponential or Erlang (sol_dist_erlang_params:
 * built by sol_dist_exponential/erlang, scaled, or a sum of Erlangs of one phase mean) with at
 * most SOL_MARKOV_PHASES_MAX phases, or the deterministic 0; otherwise SOL_EINVAL naming the
 * node. max_states (0: the default; at most SOL_MARKOV_STATES_MAX) bounds the reachable states:
 * SOL_ELIMIT with the count reached when exceeded. *states (may be NULL) gets the number of
 * states. Cost: S states, each with R running nodes: O(S * (N + A + R * N)) time (a state's
 * finished set is recomputed, and its key copied and hashed per transition) and about
 * S * (N + 16) bytes, N the node count (the chain is built, then solved backwards). */
sol_status sol_markov_mean(sol_ctx *ctx, const sol_graph *g, size_t max_states, double *mean,
                           size_t *states);

/* An upper bound on the number of states sol_markov_mean would enumerate for g, cheap next to
 * the enumeration: cover the nodes with paths (as few as a maximum matching over the arcs
 * gives); finished nodes meet each path in a prefix and at most one of its nodes runs, so a
 * path of nodes with K_v phases contributes at most 1 + sum K_v states, and the product over
 * the paths bounds the chain. INFINITY when some node is not phase-type (or g has a cycle, or
 * memory runs out). O(N A) for the matching (Kuhn's augmenting paths), memory O(N + A). */
double sol_markov_states_bound(sol_ctx *ctx, const sol_graph *g);

#endif
