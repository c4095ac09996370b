/* sol_bounds: the "N" graph's known values (design/solver-methods.md), stochastic upper bounds
 * against quadrature, series-parallel graphs (exact), and bounds bracketing simulated means. */
#include <math.h>
#include <stdlib.h>

#include <gsl/gsl_integration.h>

#include "sol_bounds.h"
#include "sol_dist.h"
#include "sol_graph.h"
#include "sol_sim.h"
#include "test_util.h"

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
    sol_graph *g = tu_n_graph(ctx);
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

/* With a state budget the Markov chain runs first and is exact on the N graph: 23/8
 * (design/solver-methods.md); without one (the default) it is not tried. */
static void test_n_markov(void)
{
    sol_ctx *ctx = sol_ctx_alloc();
    sol_graph *g = tu_n_graph(ctx);
    sol_bounds_opts o;
    sol_bounds_opts_default(&o);
    CU_ASSERT_EQUAL(o.markov_states, 0);
    o.markov_states = 1000;
    sol_bounds_result r;
    TU_OK(sol_bounds_mean(ctx, g, &o, &r));
    CU_ASSERT(r.exact);
    CU_ASSERT(r.lower_method == SOL_BOUND_MARKOV && r.upper_method == SOL_BOUND_MARKOV);
    TU_REL(r.lower, 23.0 / 8.0, 1e-12, "exact mean 23/8, solver-methods.md");
    TU_REL(r.upper, 23.0 / 8.0, 1e-12, "exact mean 23/8, solver-methods.md");
    CU_ASSERT_STRING_EQUAL(sol_bound_method_name(SOL_BOUND_MARKOV), "markov");
    /* too small a budget: skipped, the bounds run */
    o.markov_states = 2;
    TU_OK(sol_bounds_mean(ctx, g, &o, &r));
    CU_ASSERT(!r.exact && isnan(r.value[SOL_BOUND_MARKOV]));
    CU_ASSERT(r.lower <= 23.0 / 8.0 && 23.0 / 8.0 <= r.upper);
    sol_graph_free(g);
    sol_ctx_free(ctx);
}

static void test_cycle(void)
{
    sol_ctx *ctx = sol_ctx_alloc();
    sol_graph *g = tu_n_graph(ctx);
    sol_dist *ub;
    TU_OK(sol_graph_add_arc(ctx, g, 3, 1));
    TU_FAILS(sol_bounds_upper_dist(ctx, g, &ub), SOL_EINVAL);
    CU_ASSERT(ub == NULL);
    sol_graph_free(g);
    sol_ctx_free(ctx);
}

/* Every method on the N graph against the values of design/solver-methods.md: exact 23/8; CPM 2;
 * Kleindorfer-min 2.5; delete A->C 8/3; delete A->D 11/4; add B->C 3; Dodin 55/18 = 3.0556. */
static void test_n_methods(void)
{
    sol_ctx *ctx = sol_ctx_alloc();
    sol_graph *g = tu_n_graph(ctx);
    sol_bounds_result r;
    TU_OK(sol_bounds_mean(ctx, g, NULL, &r));
    CU_ASSERT_EQUAL(r.residual_nodes, 6); /* A, B, C, D, source, sink */
    TU_REL(r.value[SOL_BOUND_CPM], 2.0, 1e-12, "CPM, solver-methods.md");
    TU_REL(r.value[SOL_BOUND_KLEIN_LOWER], 2.5, 1e-6, "Kleindorfer-min, solver-methods.md");
    /* the greedy deletes A->D, the better of the two deletions */
    TU_REL(r.value[SOL_BOUND_ARC_DELETE], 11.0 / 4.0, 1e-6, "delete A->D, solver-methods.md");
    TU_REL(r.value[SOL_BOUND_ARC_INSERT], 3.0, 1e-6, "add B->C, solver-methods.md");
    TU_REL(r.value[SOL_BOUND_DODIN], 55.0 / 18.0, 1e-6, "Dodin 3.0556, solver-methods.md");
    TU_REL(r.value[SOL_BOUND_KLEIN_UPPER], 55.0 / 18.0, 1e-6, "quadrature (test_n_upper_dist)");
    /* partition: the chains A -> C and B -> D (A -> D cuts across), A -> D deleted */
    TU_REL(r.value[SOL_BOUND_PARTITION], 11.0 / 4.0, 1e-6, "delete A->D, solver-methods.md");
    /* conditioning on A (the node Dodin copies): both sides within 1e-3 of 23/8 */
    TU_REL(r.value[SOL_BOUND_COND_LOWER], 23.0 / 8.0, 1e-3, "exact mean 23/8");
    TU_REL(r.value[SOL_BOUND_COND_UPPER], 23.0 / 8.0, 1e-3, "exact mean 23/8");
    CU_ASSERT(r.lower <= 23.0 / 8.0 && 23.0 / 8.0 <= r.upper);
    CU_ASSERT(r.lower_method == SOL_BOUND_COND_LOWER && r.upper_method == SOL_BOUND_COND_UPPER);
    CU_ASSERT(!r.exact);
    CU_ASSERT_STRING_EQUAL(sol_bound_method_name(r.upper_method), "conditioning");
    CU_ASSERT_STRING_EQUAL(sol_bound_method_name(SOL_BOUND_DODIN), "dodin");
    /* the given-arcs entry points */
    sol_dist *d;
    uint32_t from[2] = {0, 1}, to[2] = {2, 2};
    TU_OK(sol_bounds_delete_arcs(ctx, g, 1, from, to, &d));
    TU_REL(sol_dist_mean(d), 8.0 / 3.0, 1e-6, "delete A->C, solver-methods.md");
    sol_dist_free(d);
    to[0] = 3;
    TU_OK(sol_bounds_delete_arcs(ctx, g, 1, from, to, &d));
    TU_REL(sol_dist_mean(d), 11.0 / 4.0, 1e-6, "delete A->D, solver-methods.md");
    sol_dist_free(d);
    TU_OK(sol_bounds_insert_arcs(ctx, g, 1, from + 1, to + 1, &d));
    TU_REL(sol_dist_mean(d), 3.0, 1e-6, "add B->C, solver-methods.md");
    sol_dist_free(d);
    TU_FAILS(sol_bounds_delete_arcs(ctx, g, 1, from + 1, to + 1, &d), SOL_EINVAL); /* no B->C */
    TU_FAILS(sol_bounds_insert_arcs(ctx, g, 0, from, to, &d), SOL_ENOTSP);
    /* one method only, and a bad option */
    sol_bounds_opts o;
    sol_bounds_opts_default(&o);
    o.methods = 1u << SOL_BOUND_CPM;
    TU_OK(sol_bounds_mean(ctx, g, &o, &r));
    CU_ASSERT(r.lower_method == SOL_BOUND_CPM && isnan(r.upper) && isnan(r.value[SOL_BOUND_DODIN]));
    o.cond_cells = 1;
    TU_FAILS(sol_bounds_mean(ctx, g, &o, &r), SOL_EINVAL);
    sol_graph_free(g);
    sol_ctx_free(ctx);
}

/* Conditioning is exact when the conditioned node has few atoms: the N graph with A taking the
 * values 0 and 2 (probability 1/2 each) and B, C, D Exp(1). Given A = a the graph is
 * series-parallel once A is copied: E = 1/2 (E[max(C, B + D)] + E[max(2 + C, max(2, B) + D)]).
 * E[max(C, B + D)] = integral of 1 - (1 - e^-t)(1 - e^-t - t e^-t) = 9/4; the second term by
 * quadrature of 1 - F(t - 2)^Exp * F_{max(2,B)+D}(t) over t > 2 plus 2: its closed form is
 * 2 + 1 + 1/2 + e^-2 (3/4 + ...) -- checked here against the simulation instead (within its
 * interval), and the exactness flag against the equality of both sides. */
static void test_exact_conditioning(void)
{
    sol_ctx *ctx = sol_ctx_alloc();
    sol_graph *g;
    sol_dist *e, *a;
    const double v[2] = {0.0, 2.0}, p[2] = {0.5, 0.5};
    TU_OK(sol_graph_new(ctx, 0, &g));
    TU_OK(sol_dist_exponential(ctx, 1.0, &e));
    TU_OK(sol_dist_histogram(ctx, 2, v, p, &a));
    TU_OK(sol_graph_add_node(ctx, g, a, 0, NULL));
    for (uint32_t i = 1; i < 4; i++)
        TU_OK(sol_graph_add_node(ctx, g, e, i, NULL));
    TU_OK(sol_graph_add_arc(ctx, g, 0, 2));
    TU_OK(sol_graph_add_arc(ctx, g, 0, 3));
    TU_OK(sol_graph_add_arc(ctx, g, 1, 3));
    sol_bounds_result r;
    TU_OK(sol_bounds_mean(ctx, g, NULL, &r));
    CU_ASSERT(r.exact);
    TU_REL(r.lower, r.upper, 0.0, "exact: one value");
    sol_sim_result sim;
    TU_OK(sol_sim_run(ctx, g, 400000, 3, 0, NULL, NULL, &sim));
    if (tu_verbose() || fabs(sim.mean - r.lower) > sim.ci95)
        printf("\n  conditioning %.6f, simulation %.6f +- %.6f\n", r.lower, sim.mean, sim.ci95);
    CU_ASSERT(fabs(sim.mean - r.lower) <= sim.ci95);
    sol_dist_free(e);
    sol_dist_free(a);
    sol_graph_free(g);
    sol_ctx_free(ctx);
}

/* A mesh of rows x cols Erlang(2, 1) units, unit (i, j) after (i-1, j-1..j+1): the partition
 * method pairs the columns {0,1}, {2,3}, ... (each pair is a stack of complete bipartite
 * layers, series-parallel), which is the deletion of the arcs between pairs given explicitly. */
static void test_partition_mesh(void)
{
    enum { ROWS = 3, COLS = 6 };
    sol_ctx *ctx = sol_ctx_alloc();
    sol_graph *g;
    sol_dist *e;
    TU_OK(sol_graph_new(ctx, 0, &g));
    TU_OK(sol_dist_erlang(ctx, 2, 1.0, &e));
    for (uint32_t v = 0; v < ROWS * COLS; v++)
        TU_OK(sol_graph_add_node(ctx, g, e, v, NULL));
    sol_dist_free(e);
    uint32_t from[ROWS * COLS], to[ROWS * COLS];
    size_t k = 0;
    for (int i = 1; i < ROWS; i++)
        for (int j = 0; j < COLS; j++)
            for (int dj = -1; dj <= 1; dj++) {
                if (j + dj < 0 || j + dj >= COLS)
                    continue;
                uint32_t u = (uint32_t)((i - 1) * COLS + j + dj), v = (uint32_t)(i * COLS + j);
                TU_OK(sol_graph_add_arc(ctx, g, u, v));
                if ((j + dj) / 2 != j / 2) {
                    from[k] = u;
                    to[k++] = v;
                }
            }
    sol_dist *pairs;
    TU_OK(sol_bounds_delete_arcs(ctx, g, k, from, to, &pairs));
    sol_bounds_result r;
    TU_OK(sol_bounds_mean(ctx, g, NULL, &r));
    TU_REL(r.value[SOL_BOUND_PARTITION], sol_dist_mean(pairs), 1e-9, "pairs of columns");
    CU_ASSERT(r.lower >= r.value[SOL_BOUND_PARTITION]);
    CU_ASSERT(r.value[SOL_BOUND_PARTITION] <= r.upper);
    CU_ASSERT_STRING_EQUAL(sol_bound_method_name(SOL_BOUND_PARTITION), "partition");
    CU_ASSERT(sol_bound_method_is_lower(SOL_BOUND_PARTITION));
    sol_sim_result sim;
    TU_OK(sol_sim_run(ctx, g, 200000, 5, 0, NULL, NULL, &sim));
    CU_ASSERT(r.value[SOL_BOUND_PARTITION] <= sim.mean + sim.ci95);
    if (tu_verbose())
        printf("\n  mesh: partition %.6f (pairs %.6f), simulation %.6f +- %.6f\n",
               r.value[SOL_BOUND_PARTITION], sol_dist_mean(pairs), sim.mean, sim.ci95);
    sol_dist_free(pairs);
    sol_graph_free(g);
    sol_ctx_free(ctx);
}

/* Kleindorfer's method takes the smaller of its passes forward and on the reversed graph (the
 * same makespan), checked on NEIGHBOR with 3 columns and 3 iterations, columns 0 and 1 on one
 * processor (a chain of two units per iteration) and column 2 on another: the long chain's joins
 * with the short one are unbalanced, so the directions differ. */
static void test_klein_reversed(void)
{
    enum { ROWS = 3, COLS = 3 };
    sol_ctx *ctx = sol_ctx_alloc();
    sol_graph *g[2];
    sol_dist *e;
    TU_OK(sol_dist_erlang(ctx, 4, 1.0, &e));
    for (int k = 0; k < 2; k++) {
        TU_OK(sol_graph_new(ctx, 0, &g[k]));
        for (uint32_t v = 0; v < ROWS * COLS; v++)
            TU_OK(sol_graph_add_node(ctx, g[k], e, v, NULL));
        for (int i = 0; i < ROWS; i++)
            for (int j = 0; j < COLS; j++) {
                uint32_t v = (uint32_t)(i * COLS + j), a[4];
                size_t na = 0;
                for (int dj = -1; i > 0 && dj <= 1; dj++)
                    if (j + dj >= 0 && j + dj < COLS)
                        a[na++] = (uint32_t)((i - 1) * COLS + j + dj);
                if (j == 1)
                    a[na++] = v - 1; /* the processor's previous unit */
                if (j == 0 && i > 0)
                    a[na++] = v - 2;
                for (size_t q = 0; q < na; q++)
                    TU_OK(sol_graph_add_arc(ctx, g[k], k ? v : a[q], k ? a[q] : v));
            }
    }
    sol_dist_free(e);
    sol_dist *fwd, *bwd;
    TU_OK(sol_bounds_upper_dist(ctx, g[0], &fwd));
    TU_OK(sol_bounds_upper_dist(ctx, g[1], &bwd));
    double m = fmin(sol_dist_mean(fwd), sol_dist_mean(bwd));
    CU_ASSERT(sol_dist_mean(fwd) != sol_dist_mean(bwd));
    sol_bounds_result r;
    TU_OK(sol_bounds_mean(ctx, g[0], NULL, &r));
    TU_REL(r.value[SOL_BOUND_KLEIN_UPPER], m, 1e-12, "the smaller direction");
    sol_sim_result sim;
    TU_OK(sol_sim_run(ctx, g[0], 200000, 7, 0, NULL, NULL, &sim));
    CU_ASSERT(sim.mean - sim.ci95 <= m);
    if (tu_verbose())
        printf("\n  Kleindorfer forward %.6f, reversed %.6f, simulation %.6f +- %.6f\n",
               sol_dist_mean(fwd), sol_dist_mean(bwd), sim.mean, sim.ci95);
    sol_dist_free(fwd);
    sol_dist_free(bwd);
    sol_graph_free(g[0]);
    sol_graph_free(g[1]);
    sol_ctx_free(ctx);
}

int main(void)
{
    static const tu_case cases[] = {{"N graph upper distribution", test_n_upper_dist},
                                    {"series-parallel is exact", test_sp_exact},
                                    {"cycle", test_cycle},
                                    {"N graph, every method", test_n_methods},
                                    {"N graph, the Markov chain first", test_n_markov},
                                    {"exact conditioning", test_exact_conditioning},
                                    {"partition of a mesh", test_partition_mesh},
                                    {"Kleindorfer reversed", test_klein_reversed},
                                    {NULL, NULL}};
    return tu_run("bounds", cases);
}
