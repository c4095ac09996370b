/* CUnit plumbing shared by the solver test executables (one suite per executable). */
#include "test_util.h"

#include <math.h>
#include <stdlib.h>

#include <CUnit/Basic.h>

double tu_rel(double a, double b)
{
    return b == 0.0 ? fabs(a - b) : fabs(a - b) / fabs(b);
}

int tu_verbose(void)
{
    return getenv("SOL_TEST_VERBOSE") != NULL;
}

int tu_run(const char *suite, const tu_case *cases)
{
    if (CU_initialize_registry() != CUE_SUCCESS)
        return 2;
    CU_pSuite s = CU_add_suite(suite, NULL, NULL);
    for (const tu_case *c = cases; s != NULL && c->name != NULL; c++)
        if (CU_add_test(s, c->name, c->fn) == NULL)
            s = NULL;
    if (s == NULL) {
        CU_cleanup_registry();
        return 2;
    }
    CU_basic_set_mode(CU_BRM_VERBOSE);
    CU_basic_run_tests();
    unsigned fails = CU_get_number_of_failures();
    CU_cleanup_registry();
    return fails == 0 ? 0 : 1;
}

sol_graph *tu_n_graph(sol_ctx *ctx)
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

sol_dist *tu_random_dist(sol_ctx *ctx, gsl_rng *r, unsigned kinds, unsigned max_phases)
{
    sol_dist *d = NULL;
    double m = 0.5 + 2.0 * gsl_rng_uniform(r);
    switch (gsl_rng_uniform_int(r, kinds)) {
    case 0:
        TU_OK(sol_dist_exponential(ctx, m, &d));
        break;
    case 1:
        TU_OK(sol_dist_erlang(ctx, 1 + (double)gsl_rng_uniform_int(r, max_phases), m, &d));
        break;
    case 2:
        TU_OK(sol_dist_uniform(ctx, 0.0, 2.0 * m, &d));
        break;
    default:
        TU_OK(sol_dist_deterministic(ctx, m, &d));
        break;
    }
    return d;
}
