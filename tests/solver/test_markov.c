/* sol_markov: the N graph's exact mean (design/solver-methods.md), maxima of exponentials and
 * Erlangs against closed forms, agreement with the series-parallel reduction on random SP graphs
 * of exponential tasks, zero-duration nodes, unsupported laws and the state limit. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_rng.h>

#include "sol_dist.h"
#include "sol_graph.h"
#include "sol_markov.h"
#include "test_util.h"

static sol_graph *graph_of(sol_ctx *ctx, size_t n, const sol_dist *d, size_t na,
                           const uint32_t (*arcs)[2])
{
    sol_graph *g;
    TU_OK(sol_graph_new(ctx, 0, &g));
    for (size_t i = 0; i < n; i++)
        TU_OK(sol_graph_add_node(ctx, g, d, (uint32_t)i, NULL));
    for (size_t i = 0; i < na; i++)
        TU_OK(sol_graph_add_arc(ctx, g, arcs[i][0], arcs[i][1]));
    return g;
}

static void test_n_graph(void)
{
    sol_ctx *ctx = sol_ctx_alloc();
    sol_dist *e;
    TU_OK(sol_dist_exponential(ctx, 1.0, &e));
    static const uint32_t arcs[3][2] = {{0, 2}, {0, 3}, {1, 3}};
    sol_graph *g = graph_of(ctx, 4, e, 3, arcs);
    double m;
    size_t states;
    TU_OK(sol_markov_mean(ctx, g, 0, &m, &states));
    TU_REL(m, 23.0 / 8.0, 1e-13, "N graph, solver-methods.md: 23/8");
    CU_ASSERT(states > 4);
    /* the limit: too few states is a clear SOL_ELIMIT */
    TU_FAILS(sol_markov_mean(ctx, g, 3, &m, &states), SOL_ELIMIT);
    CU_ASSERT(strstr(sol_ctx_message(ctx), "state limit") != NULL);
    sol_graph_free(g);
    sol_dist_free(e);
    sol_ctx_free(ctx);
}

/* The state bound: the N graph (A->C, A->D, B->D, Exp) is covered by the paths A->C and B->D,
 * (1 + 1 + 1)^2 = 9 >= the 8 states {}, A, B, AB, AC, ABC, ABD, ABCD counted by hand; a chain
 * of three Erlang-2 nodes is one path: 1 + 6 = 7, exactly its states (0..6 phases done). */
static void test_state_bound(void)
{
    sol_ctx *ctx = sol_ctx_alloc();
    sol_dist *e, *e2, *u;
    TU_OK(sol_dist_exponential(ctx, 1.0, &e));
    static const uint32_t n_arcs[3][2] = {{0, 2}, {0, 3}, {1, 3}};
    sol_graph *g = graph_of(ctx, 4, e, 3, n_arcs);
    double m;
    size_t states;
    TU_OK(sol_markov_mean(ctx, g, 0, &m, &states));
    CU_ASSERT_EQUAL(states, 8);
    CU_ASSERT_DOUBLE_EQUAL(sol_markov_states_bound(ctx, g), 9.0, 0);
    sol_graph_free(g);
    TU_OK(sol_dist_erlang(ctx, 2, 1.0, &e2));
    static const uint32_t c_arcs[2][2] = {{0, 1}, {1, 2}};
    g = graph_of(ctx, 3, e2, 2, c_arcs);
    TU_OK(sol_markov_mean(ctx, g, 0, &m, &states));
    CU_ASSERT_EQUAL(states, 7);
    CU_ASSERT_DOUBLE_EQUAL(sol_markov_states_bound(ctx, g), 7.0, 0);
    sol_graph_free(g);
    /* a node that is not phase-type: no bound */
    TU_OK(sol_dist_uniform(ctx, 0.0, 1.0, &u));
    g = graph_of(ctx, 3, u, 2, c_arcs);
    CU_ASSERT(isinf(sol_markov_states_bound(ctx, g)));
    sol_graph_free(g);
    sol_dist_free(e);
    sol_dist_free(e2);
    sol_dist_free(u);
    sol_ctx_free(ctx);
}

static void test_closed_forms(void)
{
    sol_ctx *ctx = sol_ctx_alloc();
    sol_dist *e, *er, *z;
    double m;
    TU_OK(sol_dist_exponential(ctx, 1.0, &e));
    /* 8 independent Exp(1): H_8 = 2.717857 (solver-methods.md oracles) */
    sol_graph *g = graph_of(ctx, 8, e, 0, NULL);
    TU_OK(sol_markov_mean(ctx, g, 0, &m, NULL));
    TU_REL(m, 761.0 / 280.0, 1e-13, "H_8 = 761/280");
    sol_graph_free(g);
    /* max of 3 Erlang(2, 1): 347/108 (solver-methods.md oracles) */
    TU_OK(sol_dist_erlang(ctx, 2, 1.0, &er));
    g = graph_of(ctx, 3, er, 0, NULL);
    TU_OK(sol_markov_mean(ctx, g, 0, &m, NULL));
    TU_REL(m, 347.0 / 108.0, 1e-13, "E[max of 3 Erlang(2,1)] = 347/108");
    sol_graph_free(g);
    /* a zero node joining two Exp(1) before a third: H_2 + 1; the zero node must still wait */
    TU_OK(sol_dist_deterministic(ctx, 0.0, &z));
    TU_OK(sol_graph_new(ctx, 0, &g));
    for (int i = 0; i < 2; i++)
        TU_OK(sol_graph_add_node(ctx, g, e, 0, NULL));
    TU_OK(sol_graph_add_node(ctx, g, z, 0, NULL));
    TU_OK(sol_graph_add_node(ctx, g, e, 0, NULL));
    TU_OK(sol_graph_add_arc(ctx, g, 0, 2));
    TU_OK(sol_graph_add_arc(ctx, g, 1, 2));
    TU_OK(sol_graph_add_arc(ctx, g, 2, 3));
    TU_OK(sol_markov_mean(ctx, g, 0, &m, NULL));
    TU_REL(m, 2.5, 1e-13, "H_2 + 1");
    sol_graph_free(g);
    /* a scaled exponential and a sum of Erlangs keep their phase structure */
    sol_dist *s, *sum;
    TU_OK(sol_dist_scale(ctx, e, 3.0, &s));
    TU_OK(sol_dist_series(ctx, er, er, &sum));
    uint64_t k;
    double rate;
    CU_ASSERT(sol_dist_erlang_params(s, &k, &rate) && k == 1 && fabs(rate - 1.0 / 3.0) < 1e-15);
    CU_ASSERT(sol_dist_erlang_params(sum, &k, &rate) && k == 4 && rate == 1.0);
    CU_ASSERT(sol_dist_erlang_params(z, &k, &rate) && k == 0);
    g = graph_of(ctx, 2, sum, 0, NULL);
    TU_OK(sol_markov_mean(ctx, g, 0, &m, NULL));
    /* E[max of 2 iid Erlang(4, 1)] = 8 - E[min], E[min] = integral of S(t)^2 with
     * S(t) = e^-t sum_{i<4} t^i/i!, = sum_{i,j<4} C(i+j, i) / 2^(i+j+1) = 93/32 */
    TU_REL(m, 163.0 / 32.0, 1e-12, "E[max of 2 Erlang(4,1)] = 8 - 93/32 = 163/32");
    sol_graph_free(g);
    sol_dist *sh;
    TU_OK(sol_dist_shift(ctx, e, 1.0, &sh));
    g = graph_of(ctx, 1, sh, 0, NULL);
    TU_FAILS(sol_markov_mean(ctx, g, 0, &m, NULL), SOL_EINVAL);
    sol_graph_free(g);
    sol_dist *arr[] = {e, er, z, s, sum, sh};
    for (size_t i = 0; i < sizeof arr / sizeof *arr; i++)
        sol_dist_free(arr[i]);
    sol_ctx_free(ctx);
}

/* Random series-parallel graphs of exponential tasks (composition as in test_graph.c): the
 * chain's mean equals the reduction's (which is exact up to the lattice, rel. error < 1e-5). */
typedef struct part {
    uint32_t in[16], out[16];
    size_t nin, nout;
} part;

static part build(sol_ctx *ctx, sol_graph *g, gsl_rng *r, int depth)
{
    part p = {{0}, {0}, 0, 0};
    if (depth == 0 || gsl_rng_uniform(r) < 0.2) {
        sol_dist *d;
        TU_OK(sol_dist_exponential(ctx, 0.5 + 2.0 * gsl_rng_uniform(r), &d));
        uint32_t id;
        TU_OK(sol_graph_add_node(ctx, g, d, 0, &id));
        sol_dist_free(d);
        p.in[0] = p.out[0] = id;
        p.nin = p.nout = 1;
        return p;
    }
    part a = build(ctx, g, r, depth - 1), b = build(ctx, g, r, depth - 1);
    if (gsl_rng_uniform(r) < 0.5 || a.nin + b.nin > 16 || a.nout + b.nout > 16) {
        for (size_t i = 0; i < a.nout; i++)
            for (size_t j = 0; j < b.nin; j++)
                TU_OK(sol_graph_add_arc(ctx, g, a.out[i], b.in[j]));
        p = a;
        p.nout = b.nout;
        for (size_t i = 0; i < b.nout; i++)
            p.out[i] = b.out[i];
        return p;
    }
    p = a;
    for (size_t i = 0; i < b.nin; i++)
        p.in[p.nin++] = b.in[i];
    for (size_t i = 0; i < b.nout; i++)
        p.out[p.nout++] = b.out[i];
    return p;
}

static void test_sp_agree(void)
{
    sol_ctx *ctx = sol_ctx_alloc();
    gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(r, 7);
    int checked = 0;
    for (int t = 0; t < 40; t++) {
        sol_graph *g;
        TU_OK(sol_graph_new(ctx, 0, &g));
        build(ctx, g, r, 3);
        sol_dist *ms;
        double m;
        TU_OK(sol_graph_reduce(ctx, g, &ms, NULL));
        sol_status st = sol_markov_mean(ctx, g, 200000, &m, NULL);
        CU_ASSERT(st == SOL_OK || st == SOL_ELIMIT);
        if (st == SOL_OK) {
            TU_REL(m, sol_dist_mean(ms), 1e-5, "series-parallel reduction (lattice accuracy)");
            checked++;
        }
        sol_dist_free(ms);
        sol_graph_free(g);
    }
    CU_ASSERT(checked >= 30);
    gsl_rng_free(r);
    sol_ctx_free(ctx);
}

int main(void)
{
    static const tu_case cases[] = {{"N graph and the state limit", test_n_graph},
                                    {"the state bound", test_state_bound},
                                    {"closed forms, zero nodes, laws", test_closed_forms},
                                    {"agrees with SP reduction", test_sp_agree},
                                    {NULL, NULL}};
    return tu_run("markov", cases);
}
