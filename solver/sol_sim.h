/* Monte Carlo simulation of a task graph's makespan: node durations sampled exactly from their
 * laws (gsl_ran_*) or from their stored masses, the makespan by a longest-path pass per sample.
 * The reference for every bound and approximation; parallel with OpenMP when available, with
 * results bit-identical for a seed whatever the thread count. */
#ifndef SOL_SIM_H
#define SOL_SIM_H

#include <stdint.h>

#include "sol_ctx.h"
#include "sol_graph.h"

/* Samples are drawn in blocks of this many; block b uses its own generator (GSL's MT19937)
 * seeded from (seed, b), and block results are combined in block order, so the result depends
 * on the seed and the sample count only. */
#define SOL_SIM_BLOCK ((uint64_t)4096)
/* Largest sample count accepted (2^40: far beyond any run time anyone waits for). */
#define SOL_SIM_SAMPLES_MAX ((uint64_t)1 << 40)

typedef struct sol_sim_result {
    double mean;      /* sample mean of the makespan */
    double ci95;      /* half-width of the 95% confidence interval, 1.959964 * sd / sqrt(N) */
    double sd;        /* sample standard deviation of the makespan */
    uint64_t samples; /* N */
} sol_sim_result;

/* Progress report: done of total samples. Called on the calling thread between rounds of blocks
 * (never concurrently), at most about a hundred times per run. */
typedef void (*sol_sim_progress)(void *arg, uint64_t done, uint64_t total);

/* Simulates samples (2..SOL_SIM_SAMPLES_MAX) makespans of g (nodes without predecessors start
 * at 0; the makespan is the largest finish) with the given seed on threads threads (0: OpenMP's
 * default; 1 without OpenMP). progress may be NULL. Returns SOL_EINVAL for a cycle or a bad
 * count, SOL_ENOMEM; the graph is only read. Cost O(samples * (N + A)) time, split over the
 * threads; memory O(N + A) plus O(N) per thread. */
sol_status sol_sim_run(sol_ctx *ctx, const sol_graph *g, uint64_t samples, uint64_t seed,
                       int threads, sol_sim_progress progress, void *progress_arg,
                       sol_sim_result *out);

#endif
