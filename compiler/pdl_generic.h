/* pdl_generic: the generic model of a program (design/models.md) for one (machine, p), solved by
 * bounding methods, Monte Carlo simulation or a Markov chain. Runs of work phases that do not
 * synchronise become task graphs (segments); the rest of the pattern combines their means. */
#ifndef PDL_GENERIC_H
#define PDL_GENERIC_H

#include "pdl_gen.h"

#include "sol_sim.h"

enum { PDL_WANT_BOUNDS = 1, PDL_WANT_SIM = 2, PDL_WANT_MARKOV = 4 };

typedef struct pdl_generic_opts {
    unsigned want;             /* PDL_WANT_* */
    uint64_t samples;          /* simulation samples per segment */
    uint64_t seed;             /* simulation seed */
    int threads;               /* simulation threads (0: all cores) */
    size_t markov_states;      /* state limit of the Markov chain */
    sol_sim_progress progress; /* may be NULL */
    void *progress_arg;
} pdl_generic_opts;

typedef struct pdl_generic_result {
    double lower, upper;      /* bounds on E[T(p)] of the generic model */
    const char *lower_method; /* the method that gave each ("mixed" when segments differ) */
    const char *upper_method;
    int exact; /* lower = upper by exact methods */
    double sim_mean, sim_ci95;
    double markov_mean;
} pdl_generic_result;

/* Solves the generic model of the whole program on p processors of machine `machine`. The
 * program's mean is linear in the means of its segments and closed parts (series add, branches
 * weigh, loops scale by their expected counts), so bounds combine into bounds and independent
 * simulation estimates into an estimate whose interval adds in quadrature. Returns 0, or -1
 * after reporting errors (a Markov chain that cannot be built is an error saying why). */
int pdl_generic_program(pdl_gen *g, size_t machine, uint64_t p, const pdl_generic_opts *o,
                        pdl_generic_result *out);

#endif
