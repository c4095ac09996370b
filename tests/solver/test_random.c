/* Random task graphs: the bounds always bracket the simulated mean, exact answers (series-
 * parallel, conditioning, Markov chain) equal it within the simulation's interval, and the
 * Markov chain agrees with the bounds. Fixed seeds: the suite is deterministic. A coarse lattice
 * (1024 points) keeps the 200 cases fast; its discretisation error (~1e-4) is far below the
 * simulation's interval. SOL_TEST_VERBOSE=1 prints every case. */
#include <math.h>
#include <stdlib.h>

#include <gsl/gsl_rng.h>

#include "sol_bounds.h"
#include "sol_dist.h"
#include "sol_graph.h"
#include "sol_markov.h"
#include "sol_sim.h"
#include "test_util.h"

#define CASES   200
#define SAMPLES 20000
/* slack in units of the 95% half-width: 2 * 1.96 = 3.9 standard errors */
#define SLACK 2.0

/* n nodes, arcs only from lower to higher ids (acyclic by construction). */
static sol_graph *random_graph(sol_ctx *ctx, gsl_rng *r, size_t n, int markov)
{
    sol_graph *g;
    TU_OK(sol_graph_new(ctx, 0, &g));
    for (size_t i = 0; i < n; i++) {
        sol_dist *d = tu_random_dist(ctx, r, markov ? 2 : 4, markov ? 2 : 8);
        TU_OK(sol_graph_add_node(ctx, g, d, (uint32_t)i, NULL));
        sol_dist_free(d);
    }
    /* node j after 1..3 of the (up to) w nodes just before it: a window keeps the arcs
     * short (as in real task graphs) and most graphs out of series-parallel form */
    size_t w = 2 + gsl_rng_uniform_int(r, 6);
    for (size_t j = 1; j < n; j++) {
        size_t lo = j > w ? j - w : 0, k = 1 + gsl_rng_uniform_int(r, 3);
        for (size_t i = 0; i < k && gsl_rng_uniform(r) > 0.05; i++)
            TU_OK(sol_graph_add_arc(ctx, g, (uint32_t)(lo + gsl_rng_uniform_int(r, j - lo)),
                                    (uint32_t)j));
    }
    return g;
}

static void test_random(void)
{
    sol_ctx *ctx = sol_ctx_alloc();
    TU_OK(sol_ctx_set_max_len(ctx, 1024));
    gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(r, 2024);
    sol_bounds_opts o;
    sol_bounds_opts_default(&o);
    o.cond_budget = 4000;
    int nsp = 0, nexact = 0, nmarkov = 0, brackets = 0;
    double width = 0.0;
    for (int t = 0; t < CASES; t++) {
        int markov = t % 4 == 0;
        size_t n = markov ? 2 + gsl_rng_uniform_int(r, 11) : 2 + gsl_rng_uniform_int(r, 29);
        sol_graph *g = random_graph(ctx, r, n, markov);
        sol_bounds_result b;
        sol_sim_result s;
        TU_OK(sol_bounds_mean(ctx, g, &o, &b));
        TU_OK(sol_sim_run(ctx, g, SAMPLES, (uint64_t)t, 0, NULL, NULL, &s));
        double tol = SLACK * s.ci95 + 1e-9 * s.mean;
        int ok = b.lower <= s.mean + tol && s.mean - tol <= b.upper && b.lower <= b.upper;
        brackets += ok;
        width += (b.upper - b.lower) / s.mean;
        if (!ok || tu_verbose())
            printf("\n  case %d: n %zu resid %zu: [%.6f (%s), %.6f (%s)]%s sim %.6f +- %.6f", t, n,
                   b.residual_nodes, b.lower, sol_bound_method_name(b.lower_method), b.upper,
                   sol_bound_method_name(b.upper_method), b.exact ? " exact" : "", s.mean, s.ci95);
        CU_ASSERT(ok);
        nsp += b.residual_nodes == 0;
        nexact += b.exact;
        /* every method's own value is on its side of the simulation too */
        for (int m = 1; m < SOL_BOUND_COUNT; m++) {
            double v = b.value[m];
            int lower = sol_bound_method_is_lower((sol_bound_method)m);
            if (isnan(v))
                continue;
            CU_ASSERT(lower ? v <= s.mean + tol : v >= s.mean - tol);
        }
        if (markov) {
            double mm;
            sol_status st = sol_markov_mean(ctx, g, 200000, &mm, NULL);
            CU_ASSERT(st == SOL_OK || st == SOL_ELIMIT);
            if (st == SOL_OK) {
                nmarkov++;
                CU_ASSERT(fabs(mm - s.mean) <= tol);
                /* exact: inside the bounds up to the lattice's discretisation */
                CU_ASSERT(b.lower <= mm * (1 + 1e-3) && mm <= b.upper * (1 + 1e-3));
                if (b.exact)
                    TU_REL(b.lower, mm, 1e-3, "Markov chain (1024-point lattice)");
            }
        }
        sol_graph_free(g);
    }
    if (tu_verbose())
        printf("\n  %d cases: %d bracketed, %d series-parallel, %d exact, %d Markov; mean width "
               "%.3f%%\n",
               CASES, brackets, nsp, nexact, nmarkov, 100.0 * width / CASES);
    CU_ASSERT(nmarkov >= CASES / 8);
    CU_ASSERT(nsp >= 10 && nsp < CASES / 2);
    gsl_rng_free(r);
    sol_ctx_free(ctx);
}

int main(void)
{
    static const tu_case cases[] = {{"200 random DAGs", test_random}, {NULL, NULL}};
    return tu_run("random", cases);
}
