/* sol_bounds: the "N" graph's known values (design/solver-methods.md), stochastic upper bounds
 * against quadrature, series-parallel graphs (exact), and bounds bracketing simulated means. */
#include <math.h>
#include <stdlib.h>

#include <gsl/gsl_integration.h>

#include "sol_bounds.h"
#include "sol_dist.h"
#include "sol_graph.h"
#include "test_util.h"

/* The "N" graph: A -> C, A -> D, B -> D, all Exp(1) (ids 0..3 = A, B, C, D). */
static sol_graph *n_graph(sol_ctx *ctx)
{
    sol_graph *g;
    sol_dist *e;
    TU_OK(sol_graph_new(ctx, 0, &g));
    TU_OK(sol_dist_exponential(ctx, 1.0, &e));
    for (uint32_t i = 0; i < 4; i++)
        TU_OK(sol_graph_add_node(ctx, g, e, i, NULL));
    sol_dist_free(e);
    TU_OK(sol_graph_add_arc(ctx, g, 0, 2));
    TU_OK(sol_graph_add_arc(ctx, g, 0, 3));
    TU_OK(sol_graph_add_arc(ctx, g, 1, 3));
    return g;
}

/* 1 - F(t) of Kleindorfer's makespan on the N graph: max(A + C, max(A, B) + D) with the two
 * branches independent; A + C is Erlang(2, 1), max(A, B) + D has CDF 1 - 2t e^-t - e^-2t. */
static double n_klein_sf(double t, void *unused)
{
    (void)unused;
    double e = exp(-t);
    return 1.0 - (1.0 - e - t * e) * (1.0 - 2.0 * t * e - e * e);
}

static void test_n_upper_dist(void)
{
    sol_ctx *ctx = sol_ctx_alloc();
    sol_graph *g = n_graph(ctx);
    sol_dist *ub;
    TU_OK(sol_bounds_upper_dist(ctx, g, &ub));
    /* Quadrature of the independent-branches makespan: 55/18 = 3.0556, the Dodin value of
     * solver-methods.md (on the N graph Dodin's duplication of A is Kleindorfer's pass). */
    gsl_integration_workspace *w = gsl_integration_workspace_alloc(200);
    gsl_function f = {n_klein_sf, NULL};
    double q, err;
    gsl_integration_qagiu(&f, 0.0, 1e-12, 1e-12, 200, w, &q, &err);
    gsl_integration_workspace_free(w);
    TU_REL(q, 55.0 / 18.0, 1e-9, "closed form of the quadrature");
    TU_REL(sol_dist_mean(ub), 55.0 / 18.0, 1e-6, "Kleindorfer on the N graph, quadrature");
    CU_ASSERT(sol_dist_mean(ub) >= 23.0 / 8.0); /* exact mean 23/8, solver-methods.md */
    /* a stochastic upper bound: its CDF lies below the exact makespan's; at t = 2 the exact
     * CDF is P(T <= 2) from the Markov chain, here only checked against the branch bound */
    CU_ASSERT(sol_dist_cdf(ub, 3.0) <= 1.0 - n_klein_sf(3.0, NULL) + 1e-6);
    sol_dist_free(ub);
    sol_graph_free(g);
    sol_ctx_free(ctx);
}

/* A series-parallel graph gives its exact makespan: two Exp(1) in parallel then one in series. */
static void test_sp_exact(void)
{
    sol_ctx *ctx = sol_ctx_alloc();
    sol_graph *g;
    sol_dist *e, *ub;
    TU_OK(sol_graph_new(ctx, 0, &g));
    TU_OK(sol_dist_exponential(ctx, 1.0, &e));
    for (uint32_t i = 0; i < 3; i++)
        TU_OK(sol_graph_add_node(ctx, g, e, i, NULL));
    sol_dist_free(e);
    TU_OK(sol_graph_add_arc(ctx, g, 0, 2));
    TU_OK(sol_graph_add_arc(ctx, g, 1, 2));
    TU_OK(sol_bounds_upper_dist(ctx, g, &ub));
    TU_REL(sol_dist_mean(ub), 2.5, 1e-6, "H_2 + 1");
    sol_dist_free(ub);
    sol_graph_free(g);
    sol_ctx_free(ctx);
}

static void test_cycle(void)
{
    sol_ctx *ctx = sol_ctx_alloc();
    sol_graph *g = n_graph(ctx);
    sol_dist *ub;
    TU_OK(sol_graph_add_arc(ctx, g, 3, 1));
    TU_FAILS(sol_bounds_upper_dist(ctx, g, &ub), SOL_EINVAL);
    CU_ASSERT(ub == NULL);
    sol_graph_free(g);
    sol_ctx_free(ctx);
}

int main(void)
{
    static const tu_case cases[] = {{"N graph upper distribution", test_n_upper_dist},
                                    {"series-parallel is exact", test_sp_exact},
                                    {"cycle", test_cycle},
                                    {NULL, NULL}};
    return tu_run("bounds", cases);
}
