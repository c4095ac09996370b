/* pdl_gen: the scaled model of a checked program on p processors of one machine, solved into the
 * distribution of the program's runtime T(p). Shared by the pattern walker (pdl_gen.c) and the
 * one-file-per-scheme generators (pdl_gen_*.c); see design/models.md, "Scaled model per scheme". */
#ifndef PDL_GEN_H
#define PDL_GEN_H

#include "pdl_check.h"

#include "sol_ctx.h"
#include "sol_dist.h"

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

/* The solver context (precision, truncation notes) of the generator. */
sol_ctx *pdl_gen_solver(pdl_gen *g);

/* ---- for the scheme generators ---- */

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
 * counts (every p of a sweep) cost popcount(m) convolutions each. The caller owns *out. */
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

/* Scheme generators: one instance of phase ph on the current p, as shares. */
int pdl_gen_independent(pdl_gen *g, const pdl_phase *ph, pdl_shares *out);
int pdl_gen_neighbor(pdl_gen *g, const pdl_phase *ph, pdl_shares *out);
int pdl_gen_macropipeline(pdl_gen *g, const pdl_phase *ph, pdl_shares *out);
int pdl_gen_forkjoin(pdl_gen *g, const pdl_phase *ph, pdl_shares *out);
int pdl_gen_paired(pdl_gen *g, const pdl_phase *ph, pdl_shares *out);
int pdl_gen_arbitrary(pdl_gen *g, const pdl_phase *ph, pdl_shares *out);

#endif
