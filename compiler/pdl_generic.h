/* pdl_generic: the generic model of a program (design/models.md) for one (machine, p), solved by
 * bounding methods, Monte Carlo simulation or a Markov chain. Runs of work phases that do not
 * synchronise become task graphs (segments); the rest of the pattern combines their means. */
#ifndef PDL_GENERIC_H
#define PDL_GENERIC_H

#include "pdl_gen.h"

#include "sol_sim.h"

enum { PDL_WANT_BOUNDS = 1, PDL_WANT_SIM = 2, PDL_WANT_MARKOV = 4, PDL_WANT_CPM = 8 };

/* One step of a critical path: a node of a generic graph, or a closed part of the program. */
typedef struct pdl_path_step {
    uint32_t phase; /* phase index, or PDL_NONE (a barrier) */
    int kind;       /* PDL_NODE_* */
    uint64_t proc;  /* processor, or PDL_NONE */
    uint32_t task;  /* ARBITRARY task index, or PDL_NONE */
    double mean;
} pdl_path_step;

/* Receives the critical path of means of one part of the program and the expected number of
 * times that part runs (branch weights, loop counts, repetitions). */
typedef void (*pdl_path_cb)(void *arg, const pdl_path_step *steps, size_t n, double times);

/* Receives a finished segment (a task graph ending in its sink; borrowed for the call) and the
 * expected number of times it runs. Called whatever `want` says, before the segment is solved. */
typedef void (*pdl_segment_cb)(void *arg, const pdl_segment *s, double times);
/* Receives a closed part: a sequential or synchronization phase (phase index, kind
 * PDL_NODE_WORK or PDL_NODE_SYNC), a barrier (PDL_NONE, PDL_NODE_SYNC) or a segment's contention
 * (PDL_NONE, PDL_NODE_COMM), with its mean and expected number of runs; zero means included. */
typedef void (*pdl_closed_cb)(void *arg, uint32_t phase, int kind, double mean, double times);

typedef struct pdl_generic_opts {
    unsigned want;             /* PDL_WANT_* */
    uint64_t samples;          /* simulation samples per segment */
    uint64_t seed;             /* simulation seed */
    int threads;               /* simulation threads (0: all cores) */
    size_t markov_states;      /* state limit of the Markov chain */
    size_t exact_states;       /* with PDL_WANT_BOUNDS: state limit of the exact Markov solution
                                  tried first (0: the default, a few seconds at most) */
    sol_sim_progress progress; /* may be NULL */
    void *progress_arg;
    pdl_path_cb path; /* with PDL_WANT_CPM: the path itself (may be NULL) */
    void *path_arg;
    pdl_segment_cb segment; /* every finished task graph, for drawing it (may be NULL) */
    void *segment_arg;      /* also passed to `closed` */
    pdl_closed_cb closed;   /* every closed part, for drawing it (may be NULL) */
} pdl_generic_opts;

typedef struct pdl_generic_result {
    double lower, upper;      /* bounds on E[T(p)] of the generic model */
    const char *lower_method; /* the method that gave each ("mixed" when segments differ) */
    const char *upper_method;
    int exact; /* lower = upper by exact methods */
    double sim_mean, sim_ci95;
    double markov_mean;
    double cpm; /* the critical path of mean durations */
} pdl_generic_result;

/* Solves the generic model of the whole program on p processors of machine `machine`. The
 * program's mean is linear in the means of its segments and closed parts (series add, branches
 * weigh, loops scale by their expected counts), so bounds combine into bounds and independent
 * simulation estimates into an estimate whose interval adds in quadrature. Returns 0, or -1
 * after reporting errors (a Markov chain that cannot be built is an error saying why). */
int pdl_generic_program(pdl_gen *g, size_t machine, uint64_t p, const pdl_generic_opts *o,
                        pdl_generic_result *out);

#endif
