/* pdl_gen: the scaled model of a checked program on p processors of one machine, solved into the
 * distribution of the program's runtime T(p). Shared by the pattern walker (pdl_gen.c) and the
 * one-file-per-scheme generators (pdl_gen_*.c); see design/models.md, "Scaled model per scheme". */
#ifndef PDL_GEN_H
#define PDL_GEN_H

#include "pdl_check.h"

#include "sol_ctx.h"
#include "sol_dist.h"
#include "sol_graph.h"

#include <stdint.h>

/* Largest processor count a model may be built for. */
#define PDL_MAX_PROCS 1000000u
/* Units evaluated one by one when a SUBTASK RUNTIME depends on the unit index i. */
#define PDL_MAX_INDEXED_UNITS 100000u
/* Jobs modelled one by one (FORK-JOIN jobs that differ, pipelines with arrivals). */
#define PDL_MAX_JOBS 1000000u
/* Tasks of an ARBITRARY phase. */
#define PDL_MAX_TASKS 100000u

typedef struct pdl_gen pdl_gen;

/* Per-processor view of a phase instance: processor k finishes its own share at time d[of[k]]
 * after the instance starts (groups of processors with identically distributed, independent
 * shares), and then `tail` (one shared delay, e.g. contention) follows once all are done.
 * A synchronised result is all groups zero and tail = its distribution. Owned by its holder. */
typedef struct pdl_shares {
    uint64_t p;
    size_t n;       /* groups */
    sol_dist **d;   /* n distributions (owned references) */
    uint64_t *mult; /* processors in each group */
    uint32_t *of;   /* of[k] = group of processor k, k < p */
    sol_dist *tail; /* owned reference; never NULL */
} pdl_shares;

/* Allocates a generator for one run. The program and machine are borrowed; errors go to d.
 * `precision` is the solver's lattice length (0: its default). NULL when out of memory. */
pdl_gen *pdl_gen_alloc(const pdl_checked *prog, pdl_diag *d, size_t precision);
void pdl_gen_free(pdl_gen *g);

/* Builds and solves the scaled model of the whole program on p processors of machine number
 * `machine` (an index into prog->machines). On success *out is the runtime distribution (the
 * caller owns the reference) and 0 is returned; -1 after reporting errors. */
int pdl_gen_program(pdl_gen *g, size_t machine, uint64_t p, sol_dist **out);

/* Whether results are wanted only for their mean (no quantiles): then values that the pattern
 * only ever adds, mixes or sums geometrically - all linear in the mean - are carried as a point
 * at their mean, which saves their convolutions and changes no printed number. Values that
 * meet a maximum (per-processor shares, arrivals, chains) are always kept whole. */
void pdl_gen_set_mean_only(pdl_gen *g, int on);

/* For a value that will only be added to others (a closed part of the program): in mean-only
 * mode replaces *d by a point at its mean. -1 after reporting. */
int pdl_gen_linear(pdl_gen *g, sol_dist **d);
/* m copies of x added: in mean-only mode a point at m E[x], else pdl_gen_sum. For closed parts
 * that are only added further. */
int pdl_gen_sum_linear(pdl_gen *g, const sol_dist *x, uint64_t m, sol_dist **out);

/* Sets the generator up for (machine, p) without building anything: for pdl_generic, which
 * walks the pattern itself. -1 after reporting (p out of range). */
int pdl_gen_begin(pdl_gen *g, size_t machine, uint64_t p);
/* How the end of pattern node x joins the start of y: a pdl_concat_kind, or PDL_JOIN_NONE when
 * a non-work element separates them (BARRIER when several work pairs disagree). */
#define PDL_JOIN_NONE (-1)
int pdl_gen_join_kind(pdl_gen *g, const pdl_pat *x, const pdl_pat *y);
/* Whether a pattern node can run zero times for the current p. */
int pdl_gen_nullable(pdl_gen *g, const pdl_pat *p);
/* What-if switches for the analyses (pdl_analysis.c): a zeroed phase takes no time at all
 * (runtime and messages: the paper's "deterministic runtime with mean 0"); without
 * communication every message and contention delay is 0; without synchronisation the machine's
 * barrier time (SYNC, BARRIER joins) is 0 - SYNCHRONIZATION phases are zeroed as phases.
 * zero_phase has one flag per phase of the program (NULL: none); the array is borrowed. */
void pdl_gen_set_zeroed(pdl_gen *g, const unsigned char *zero_phase, int no_comm, int no_sync);

/* Lowers the node limit of generic graphs (0: PDL_MAX_GRAPH_NODES); for the fuzz harness. */
void pdl_gen_set_graph_limit(pdl_gen *g, size_t nodes);
/* The node limit of generic graphs. */
size_t pdl_gen_graph_limit(const pdl_gen *g);
/* The checked program being modelled. */
const pdl_checked *pdl_gen_checked(const pdl_gen *g);
/* The program's execution pattern. */
const pdl_pat *pdl_gen_pattern(const pdl_gen *g);
/* The current pattern node or phase, for errors without a more precise place. */
void pdl_gen_set_here(pdl_gen *g, pdl_loc at);

/* The solver context (precision, truncation notes) of the generator. */
sol_ctx *pdl_gen_solver(pdl_gen *g);

/* ---- for the scheme generators ---- */

/* A key for the memo below: bytes, and distributions by identity. Build it with pdl_key_add and
 * pdl_key_dist; a key that ran out of memory (failed) never matches and is never stored. */
typedef struct pdl_key {
    unsigned char *b;
    size_t n, cap;
    sol_dist **keep; /* the lattice distributions named by address, retained */
    size_t nkeep, capkeep;
    int failed;
} pdl_key;
void pdl_key_init(pdl_key *k);
void pdl_key_free(pdl_key *k);
void pdl_key_add(pdl_key *k, const void *bytes, size_t len);
/* A distribution: a lattice by its address (the key keeps it alive, so the address stays its
 * own), exact points by their values and masses. */
void pdl_key_dist(pdl_key *k, const sol_dist *d);
/* A task graph: its nodes' distributions and tags, and its arcs. */
void pdl_key_graph(pdl_key *k, const sol_graph *graph);

/* Results a costly model part would compute again for another p when everything it depends on
 * (the key) is the same: a pipeline on more processors than stages, a task graph scheduled on
 * more processors than tasks. A few recent entries; cleared by the what-if switches.
 * pdl_gen_memo_get: 1 and a new reference in *out when the key is stored, else 0. O(key).
 * pdl_gen_memo_put: stores d under the key, taking the key's storage over (k is left empty);
 * a key over 256 KiB is dropped instead. */
int pdl_gen_memo_get(pdl_gen *g, const pdl_key *k, sol_dist **out);
void pdl_gen_memo_put(pdl_gen *g, pdl_key *k, const sol_dist *d);

/* Current processor count, machine, and an environment with p, the machine's constants and
 * the program's variables defined. */
uint64_t pdl_gen_p(const pdl_gen *g);
const pdl_machine *pdl_gen_machine(const pdl_gen *g);
void pdl_gen_env(const pdl_gen *g, pdl_env *env);
pdl_diag *pdl_gen_diag(const pdl_gen *g);

/* Evaluates e in env; on failure reports (with a note saying p and the machine) and returns -1. */
int pdl_gen_eval(pdl_gen *g, const pdl_expr *e, const pdl_env *env, double *out);
int pdl_gen_count(pdl_gen *g, const pdl_expr *e, const pdl_env *env, const char *what, double min,
                  double max, uint64_t *out);
/* The phase's BLOCK CYCLIC block size in env, 1 for the other mappings. 0, or -1 (reported). */
int pdl_gen_block(pdl_gen *g, const pdl_phase *ph, const pdl_env *env, uint64_t *out);
/* Builds the distribution of d in env (parameters evaluated and range-checked; NUMERICAL data
 * of the current machine; results cached by parameters). The caller owns *out. */
int pdl_gen_dist(pdl_gen *g, const pdl_dist *d, const pdl_env *env, sol_dist **out);
/* Reports running out of memory; always returns -1. */
int pdl_gen_nomem(pdl_gen *g);
/* Whether any expression of d (or e) refers to the built-in v (PDL_V_I, PDL_V_J, PDL_V_P). */
int pdl_dist_uses(const pdl_dist *d, pdl_builtin_var v);
int pdl_expr_uses(const pdl_expr *e, pdl_builtin_var v);
/* A solver failure reported at `at` (NULL out allowed); always returns -1. */
int pdl_gen_solver_error(pdl_gen *g, pdl_loc at);
/* Deterministic distribution (a point); -1 after reporting. */
int pdl_gen_point(pdl_gen *g, double x, pdl_loc at, sol_dist **out);

/* The sum of m iid copies of x, from cached powers x^(2^k) so that sums of the same x for many
 * counts (every p of a sweep) cost popcount(m) convolutions each; recent sums themselves are
 * kept too (the same counts recur from one p to the next), within a bound of 8M lattice points.
 * The caller owns *out. */
int pdl_gen_sum(pdl_gen *g, const sol_dist *x, uint64_t m, sol_dist **out);

/* Units per processor under a mapping of n units onto p processors: counts[k] for k < p.
 * BLOCK and CYCLIC deal ceil/floor; BLOCK CYCLIC(b) deals blocks of b. O(p). */
void pdl_gen_mapping_counts(pdl_mapping m, uint64_t b, uint64_t n, uint64_t p, uint64_t *counts);

/* Communication costs on the current machine (deterministic times; 0 on the ideal machine).
 * Message of `bytes` from processor a to b; the scatter (or gather) of `bytes` between
 * processor 0 and processors 1..nrecv; a processor's exchange with the partners listed. */
int pdl_gen_message(pdl_gen *g, double bytes, uint64_t a, uint64_t b, pdl_loc at, double *t);
int pdl_gen_scatter(pdl_gen *g, double bytes, uint64_t nrecv, pdl_loc at, double *t);
int pdl_gen_exchange(pdl_gen *g, double bytes, uint64_t k, const uint64_t *partners,
                     size_t npartners, pdl_loc at, double *t);
/* When each of processors 1..n has its part of a scatter from processor 0: t[k] for 1 <= k <= n
 * (t[0] = 0). The last arrival is pdl_gen_scatter's time. O(n). */
int pdl_gen_scatter_arrivals(pdl_gen *g, double bytes, uint64_t n, pdl_loc at, double *t);
/* The machine's barrier and contention delays for the current p (points at 0 when none). */
int pdl_gen_barrier(pdl_gen *g, sol_dist **out);
int pdl_gen_contention(pdl_gen *g, sol_dist **out);

/* Shares. init makes p processors with all shares zero and a zero tail; -1 out of memory. */
int pdl_shares_init(pdl_gen *g, pdl_shares *s, uint64_t p);
void pdl_shares_free(pdl_shares *s);
/* Sets the groups from per-processor keys: processors with equal key[k] form one group whose
 * share is dists[key]; ndists distributions indexed by key (each retained as needed). */
int pdl_shares_group(pdl_gen *g, pdl_shares *s, const uint32_t *key, sol_dist *const *dists,
                     size_t ndists);
/* A synchronised result: every processor done at d (s takes its own reference). */
int pdl_shares_closed(pdl_gen *g, pdl_shares *s, uint64_t p, const sol_dist *d);
/* Adds a shared delay after all processors finish. */
int pdl_shares_add_tail(pdl_gen *g, pdl_shares *s, const sol_dist *d);
/* T = max over processors of their shares, then the tail. The caller owns *out. */
int pdl_shares_finish(pdl_gen *g, const pdl_shares *s, sol_dist **out);

/* Shares where processor k runs counts[k] iid copies of x and then, if extra is not NULL, a
 * deterministic extra[k] (its communication). Processors with equal (count, extra) form one
 * group, so regular mappings give a handful of groups. out must be initialised for p. */
int pdl_gen_load_shares(pdl_gen *g, const sol_dist *x, const uint64_t *counts, const double *extra,
                        pdl_loc at, pdl_shares *out);

/* ---- generic models (design/models.md, "Generic model per scheme") ----
 * A segment of work phase instances that do not synchronise between each other (joined
 * NEIGHBOR, TORUS, NEIGHBOR-TORUS or SERIAL) is one task graph. Each scheme adds an instance:
 * its units per processor as chains collapsed exactly (first / convolved middle / last), arcs
 * that cross processors through message nodes, and the joins to the previous instance. */

/* Kinds of node, in the tag's top bits (the low bits hold the phase index + 1). */
enum {
    PDL_NODE_WORK = 0,
    PDL_NODE_COMM = 1,
    PDL_NODE_SYNC = 2,   /* the segment's ends, a fork's or a join's zero node */
    PDL_NODE_ARRIVAL = 3 /* an interarrival time */
};
/* phase_index PDL_NONE (no phase) encodes as 0; kinds stay below 0xF so tags stay below the
 * solver's reserved ones. */
#define PDL_TAG(kind, phase_index)                                                                 \
    (((uint32_t)(kind) << 28) | (((uint32_t)(phase_index) + 1) & 0x0FFFFFFFu))
#define PDL_TAG_KIND(tag)  ((tag) >> 28)
#define PDL_TAG_PHASE(tag) (((tag)&0x0FFFFFFFu) - 1) /* (uint32_t)-1: none */
#define PDL_NONE           UINT32_MAX

/* Largest generic graph built (nodes), unless pdl_gen_set_graph_limit says less. */
#define PDL_MAX_GRAPH_NODES (1u << 20)

typedef struct pdl_segment {
    sol_graph *graph;
    uint64_t p;
    uint32_t source; /* zero node every first instance starts after */
    /* The previous instance, for the next one's joins: per processor its exit node (PDL_NONE:
       idle), or one exit for all when it ended synchronised. */
    uint32_t *exit;
    uint32_t sync_exit;
    const pdl_phase *prev;
    /* NEIGHBOR phases: per processor the first unit of the previous instance and its column
       range, for unit-level neighbour arcs between instances of the same layout. */
    uint32_t *first;
    uint64_t *col_lo, *col_hi;
    uint64_t ncols;
    int empty;      /* no instance yet */
    uint64_t *proc; /* processor of each node (PDL_NONE for none), by node id */
    uint32_t *task; /* ARBITRARY task index of each node (PDL_NONE for none) */
    size_t capproc;
} pdl_segment;

int pdl_segment_init(pdl_gen *g, pdl_segment *s);
void pdl_segment_free(pdl_segment *s);
/* Adds a node of duration d (the graph retains it); -1 after reporting. */
int pdl_seg_node(pdl_gen *g, pdl_segment *s, const sol_dist *d, uint32_t tag, uint32_t *id);
/* The same, recording the processor that runs the node and the ARBITRARY task it is (PDL_NONE
 * for none), for the critical-path report. */
int pdl_seg_node_on(pdl_gen *g, pdl_segment *s, const sol_dist *d, uint32_t tag, uint64_t proc,
                    uint32_t task, uint32_t *id);
int pdl_seg_arc(pdl_gen *g, pdl_segment *s, uint32_t from, uint32_t to);
/* An arc from processor a's node to processor b's node, through a message node of `bytes` when
 * a != b and the message costs anything. */
int pdl_seg_message(pdl_gen *g, pdl_segment *s, uint32_t from, uint64_t a, uint32_t to, uint64_t b,
                    double bytes, uint32_t phase, pdl_loc at);
/* Makes `node` (on processor k) start after the previous instance as the join says: SERIAL:
 * processor k's exit; neighbour joins: the exits of k-1, k, k+1 (wrapping for the torus joins),
 * precedence only (each phase's messages are part of its own instance); a synchronised previous
 * end: that node; nothing before: the segment's source. */
int pdl_seg_join(pdl_gen *g, pdl_segment *s, int join, uint64_t k, uint32_t node,
                 const pdl_phase *ph);
/* Records the instance's exits for the next one (exit[k] per processor, or one node). */
int pdl_seg_set_exits(pdl_gen *g, pdl_segment *s, const uint32_t *exit, uint32_t sync_exit,
                      const pdl_phase *ph);

/* Scheme graph builders: one instance of ph appended to the segment, joined as `join` says
 * (a pdl_concat_kind, or -1 for the first instance). */
int pdl_graph_independent(pdl_gen *g, const pdl_phase *ph, pdl_segment *s, int join);
int pdl_graph_neighbor(pdl_gen *g, const pdl_phase *ph, pdl_segment *s, int join);
int pdl_graph_macropipeline(pdl_gen *g, const pdl_phase *ph, pdl_segment *s, int join);
int pdl_graph_forkjoin(pdl_gen *g, const pdl_phase *ph, pdl_segment *s, int join);
int pdl_graph_paired(pdl_gen *g, const pdl_phase *ph, pdl_segment *s, int join);
int pdl_graph_arbitrary(pdl_gen *g, const pdl_phase *ph, pdl_segment *s, int join);

/* Scheme generators: one instance of phase ph on the current p, as shares. */
int pdl_gen_independent(pdl_gen *g, const pdl_phase *ph, pdl_shares *out);
int pdl_gen_neighbor(pdl_gen *g, const pdl_phase *ph, pdl_shares *out);
int pdl_gen_macropipeline(pdl_gen *g, const pdl_phase *ph, pdl_shares *out);
int pdl_gen_forkjoin(pdl_gen *g, const pdl_phase *ph, pdl_shares *out);
int pdl_gen_paired(pdl_gen *g, const pdl_phase *ph, pdl_shares *out);
int pdl_gen_arbitrary(pdl_gen *g, const pdl_phase *ph, pdl_shares *out);

#endif
