/* sol_sim: the N graph's exact mean within the confidence interval, a deterministic graph's
 * exact makespan, bit-identical results whatever the thread count, progress reports, limits. */
#include <math.h>
#include <string.h>

#include "sol_dist.h"
#include "sol_graph.h"
#include "sol_sim.h"
#include "test_util.h"

static void count_progress(void *arg, uint64_t done, uint64_t total)
{
    uint64_t *calls = arg;
    CU_ASSERT(done <= total);
    calls[0]++;
    calls[1] = done;
}

static void test_n_graph(void)
{
    sol_ctx *ctx = sol_ctx_alloc();
    sol_graph *g = tu_n_graph(ctx);
    sol_sim_result r;
    uint64_t calls[2] = {0, 0};
    TU_OK(sol_sim_run(ctx, g, 200000, 42, 0, count_progress, calls, &r));
    /* exact mean 23/8 (solver-methods.md; the Markov chain reproduces it) */
    if (tu_verbose() || fabs(r.mean - 23.0 / 8.0) > r.ci95)
        printf("\n  sim %.6f +- %.6f vs 23/8\n", r.mean, r.ci95);
    CU_ASSERT(fabs(r.mean - 23.0 / 8.0) <= r.ci95);
    CU_ASSERT(r.samples == 200000);
    CU_ASSERT(calls[0] >= 1 && calls[1] == 200000);
    sol_graph_free(g);
    sol_ctx_free(ctx);
}

static void test_threads(void)
{
    sol_ctx *ctx = sol_ctx_alloc();
    sol_graph *g = tu_n_graph(ctx);
    sol_sim_result a, b, c;
    /* a sample count that is not a multiple of the block: the last block is short */
    uint64_t n = 5 * SOL_SIM_BLOCK + 123;
    TU_OK(sol_sim_run(ctx, g, n, 7, 1, NULL, NULL, &a));
    TU_OK(sol_sim_run(ctx, g, n, 7, 2, NULL, NULL, &b));
    TU_OK(sol_sim_run(ctx, g, n, 7, 3, NULL, NULL, &c));
    CU_ASSERT(memcmp(&a, &b, sizeof a) == 0);
    CU_ASSERT(memcmp(&a, &c, sizeof a) == 0);
    TU_OK(sol_sim_run(ctx, g, n, 8, 2, NULL, NULL, &c));
    CU_ASSERT(c.mean != a.mean); /* another seed, other samples */
    sol_graph_free(g);
    sol_ctx_free(ctx);
}

static void test_deterministic_and_limits(void)
{
    sol_ctx *ctx = sol_ctx_alloc();
    sol_graph *g;
    sol_dist *d1, *d2;
    TU_OK(sol_graph_new(ctx, 0, &g));
    TU_OK(sol_dist_deterministic(ctx, 1.5, &d1));
    TU_OK(sol_dist_deterministic(ctx, 2.0, &d2));
    TU_OK(sol_graph_add_node(ctx, g, d1, 0, NULL));
    TU_OK(sol_graph_add_node(ctx, g, d2, 0, NULL));
    TU_OK(sol_graph_add_node(ctx, g, d1, 0, NULL));
    TU_OK(sol_graph_add_arc(ctx, g, 0, 2));
    sol_sim_result r;
    TU_OK(sol_sim_run(ctx, g, 1000, 1, 0, NULL, NULL, &r));
    TU_REL(r.mean, 3.0, 0.0, "longest path 1.5 + 1.5");
    TU_REL(r.ci95, 0.0, 0.0, "no variance");
    TU_FAILS(sol_sim_run(ctx, g, 1, 1, 0, NULL, NULL, &r), SOL_EINVAL);
    TU_FAILS(sol_sim_run(ctx, g, SOL_SIM_SAMPLES_MAX + 1, 1, 0, NULL, NULL, &r), SOL_EINVAL);
    TU_FAILS(sol_sim_run(ctx, g, 100, 1, -1, NULL, NULL, &r), SOL_EINVAL);
    TU_OK(sol_graph_add_arc(ctx, g, 2, 0));
    TU_FAILS(sol_sim_run(ctx, g, 100, 1, 0, NULL, NULL, &r), SOL_EINVAL);
    sol_dist_free(d1);
    sol_dist_free(d2);
    sol_graph_free(g);
    sol_ctx_free(ctx);
}

int main(void)
{
    static const tu_case cases[] = {
        {"N graph", test_n_graph},
        {"thread-count invariance", test_threads},
        {"deterministic graph and limits", test_deterministic_and_limits},
        {NULL, NULL}};
    return tu_run("sim", cases);
}
