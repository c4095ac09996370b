/* sol_graph: series-parallel reduction against the same composition computed by hand, redundant
 * arcs, the non-series-parallel "N" graph and its residual, cycles, limits and tags. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_rng.h>

#include "sol_dist.h"
#include "sol_graph.h"
#include "test_util.h"

/* A random node-weighted series-parallel graph built by composition: series joins every exit
 * of the first part to every entry of the second, parallel is a disjoint union. The makespan
 * composes the same way: series = sum, parallel = max. */
typedef struct part {
    uint32_t *in, *out;
    size_t nin, nout;
    sol_dist *makespan;
} part;

static uint32_t *ids(size_t n)
{
    uint32_t *a = malloc(n * sizeof *a);
    CU_ASSERT_FATAL(a != NULL);
    return a;
}

static part build(sol_ctx *ctx, sol_graph *g, gsl_rng *r, int depth)
{
    part p = {NULL, NULL, 0, 0, NULL};
    if (depth == 0 || gsl_rng_uniform(r) < 0.15) {
        uint32_t id;
        p.makespan = tu_random_dist(ctx, r, 4, 4);
        TU_OK(sol_graph_add_node(ctx, g, p.makespan, (uint32_t)sol_graph_node_count(g), &id));
        p.in = ids(1);
        p.out = ids(1);
        p.in[0] = p.out[0] = id;
        p.nin = p.nout = 1;
        return p;
    }
    part a = build(ctx, g, r, depth - 1), b = build(ctx, g, r, depth - 1);
    if (gsl_rng_uniform(r) < 0.5) {
        for (size_t i = 0; i < a.nout; i++)
            for (size_t j = 0; j < b.nin; j++)
                TU_OK(sol_graph_add_arc(ctx, g, a.out[i], b.in[j]));
        TU_OK(sol_dist_series(ctx, a.makespan, b.makespan, &p.makespan));
        p.in = a.in;
        p.nin = a.nin;
        p.out = b.out;
        p.nout = b.nout;
        free(a.out);
        free(b.in);
    } else {
        TU_OK(sol_dist_max(ctx, a.makespan, b.makespan, &p.makespan));
        p.nin = a.nin + b.nin;
        p.nout = a.nout + b.nout;
        p.in = ids(p.nin);
        p.out = ids(p.nout);
        memcpy(p.in, a.in, a.nin * sizeof *p.in);
        memcpy(p.in + a.nin, b.in, b.nin * sizeof *p.in);
        memcpy(p.out, a.out, a.nout * sizeof *p.out);
        memcpy(p.out + a.nout, b.out, b.nout * sizeof *p.out);
        free(a.in);
        free(a.out);
        free(b.in);
        free(b.out);
    }
    sol_dist_free(a.makespan);
    sol_dist_free(b.makespan);
    return p;
}

/* Adds up to k arcs u -> v where v is reachable from u by a longer path (they change nothing). */
static void add_redundant_arcs(sol_ctx *ctx, sol_graph *g, gsl_rng *r, int k)
{
    size_t n = sol_graph_node_count(g), na = sol_graph_arc_count(g);
    unsigned char *seen = malloc(n);
    uint32_t *stack = ids(n);
    for (int t = 0; t < k * 10 && k > 0; t++) {
        uint32_t u = (uint32_t)gsl_rng_uniform_int(r, n);
        memset(seen, 0, n);
        size_t top = 0, hops = 0;
        /* nodes two or more arcs away from u */
        for (size_t i = 0; i < na; i++) {
            uint32_t a, b;
            sol_graph_arc(g, i, &a, &b);
            if (a == u)
                for (size_t j = 0; j < na; j++) {
                    uint32_t c, d;
                    sol_graph_arc(g, j, &c, &d);
                    if (c == b && !seen[d]) {
                        seen[d] = 1;
                        stack[top++] = d;
                    }
                }
        }
        if (top > 0) {
            TU_OK(sol_graph_add_arc(ctx, g, u, stack[gsl_rng_uniform_int(r, top)]));
            hops++;
            k--;
        }
        (void)hops;
    }
    free(seen);
    free(stack);
}

/* Reduction and composition apply the same operations in other orders and groupings, so the
 * lattices differ by discretisation only: means to O(h^2), quantiles by at most a cell or two
 * (a deterministic atom is split between the two lattice points around it). */
static void compare(const sol_dist *got, const sol_dist *want)
{
    TU_REL(sol_dist_mean(got), sol_dist_mean(want), 1e-6, "same composition by hand");
    double h = fmax(sol_dist_step(got), sol_dist_step(want));
    for (double u = 0.1; u < 1.0; u += 0.2)
        CU_ASSERT(fabs(sol_dist_quantile(got, u) - sol_dist_quantile(want, u)) <= 2.0 * h + 1e-12);
}

/* graph-1: random series-parallel graphs reduce to the composition computed by hand, also with
 * transitively redundant arcs added. */
static void test_random_sp(void)
{
    sol_ctx *ctx = sol_ctx_alloc();
    gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
    TU_OK(sol_ctx_set_max_len(ctx, 4096)); /* keeps 40 random graphs fast */
    for (int trial = 0; trial < 40; trial++) {
        sol_graph *g;
        TU_OK(sol_graph_new(ctx, 0, &g));
        part p = build(ctx, g, r, 5);
        if (trial % 2 == 1)
            add_redundant_arcs(ctx, g, r, 5);
        sol_dist *ms;
        sol_graph *res;
        TU_OK(sol_graph_reduce(ctx, g, &ms, &res));
        CU_ASSERT(res == NULL);
        compare(ms, p.makespan);
        sol_dist_free(ms);
        sol_dist_free(p.makespan);
        free(p.in);
        free(p.out);
        sol_graph_free(g);
    }
    gsl_rng_free(r);
    sol_ctx_free(ctx);
}

/* graph-2: fork-join: 100 parallel Exp(1) tasks between a fork and a join: E = H_100; a chain of
 * deterministic tasks with a redundant shortcut is its critical path, exactly. */
static void test_fork_join_chain(void)
{
    sol_ctx *ctx = sol_ctx_alloc();
    sol_graph *g;
    sol_dist *e, *z, *ms;
    TU_OK(sol_dist_exponential(ctx, 1.0, &e));
    TU_OK(sol_dist_deterministic(ctx, 0.0, &z));
    TU_OK(sol_graph_new(ctx, 0, &g));
    uint32_t fork, join, t;
    TU_OK(sol_graph_add_node(ctx, g, z, 0, &fork));
    TU_OK(sol_graph_add_node(ctx, g, z, 0, &join));
    for (int i = 0; i < 100; i++) {
        TU_OK(sol_graph_add_node(ctx, g, e, 1, &t));
        TU_OK(sol_graph_add_arc(ctx, g, fork, t));
        TU_OK(sol_graph_add_arc(ctx, g, t, join));
    }
    TU_OK(sol_graph_reduce(ctx, g, &ms, NULL));
    double H = 0.0;
    for (int i = 1; i <= 100; i++)
        H += 1.0 / i;
    TU_REL(sol_dist_mean(ms), H, 1e-5, "closed form H_100");
    sol_dist_free(ms);
    sol_graph_free(g);
    /* deterministic: 1 -> 2 -> 3 and 1 -> 4 -> 3 with a shortcut 1 -> 3: 1 + max(2, 4) + 3 */
    TU_OK(sol_graph_new(ctx, 0, &g));
    uint32_t v[4];
    for (int i = 0; i < 4; i++) {
        sol_dist *d;
        TU_OK(sol_dist_deterministic(ctx, 0.1 * (i + 1), &d));
        TU_OK(sol_graph_add_node(ctx, g, d, (uint32_t)i, &v[i]));
        sol_dist_free(d);
    }
    TU_OK(sol_graph_add_arc(ctx, g, v[0], v[1]));
    TU_OK(sol_graph_add_arc(ctx, g, v[1], v[2]));
    TU_OK(sol_graph_add_arc(ctx, g, v[0], v[3]));
    TU_OK(sol_graph_add_arc(ctx, g, v[3], v[2]));
    TU_OK(sol_graph_add_arc(ctx, g, v[0], v[2]));
    TU_OK(sol_graph_add_arc(ctx, g, v[0], v[2])); /* duplicates are harmless */
    TU_OK(sol_graph_reduce(ctx, g, &ms, NULL));
    CU_ASSERT(!sol_dist_is_lattice(ms));
    TU_REL(sol_dist_mean(ms), 0.1 + 0.4 + 0.3, 1e-12, "critical path 0.1 + 0.4 + 0.3");
    TU_REL(sol_dist_var(ms), 0.0, 1e-12, "deterministic");
    sol_dist_free(ms);
    sol_graph_free(g);
    /* the empty graph takes no time; one node is its own makespan */
    TU_OK(sol_graph_new(ctx, 0, &g));
    TU_OK(sol_graph_reduce(ctx, g, &ms, NULL));
    TU_REL(sol_dist_mean(ms), 0.0, 0.0, "empty graph");
    sol_dist_free(ms);
    TU_OK(sol_graph_add_node(ctx, g, e, 7, NULL));
    TU_OK(sol_graph_reduce(ctx, g, &ms, NULL));
    TU_REL(sol_dist_mean(ms), 1.0, 1e-15, "single Exp(1) node");
    sol_dist_free(ms);
    sol_graph_free(g);
    sol_dist_free(e);
    sol_dist_free(z);
    sol_ctx_free(ctx);
}

/* graph-3: the N graph (A->C, A->D, B->D) is not series-parallel; the residual keeps all four
 * nodes with their tags and distributions plus the added source and sink. */
static void test_n_graph(void)
{
    sol_ctx *ctx = sol_ctx_alloc();
    sol_graph *g, *res;
    sol_dist *e, *ms;
    TU_OK(sol_dist_exponential(ctx, 1.0, &e));
    TU_OK(sol_graph_new(ctx, 0, &g));
    uint32_t a, b, c, d;
    TU_OK(sol_graph_add_node(ctx, g, e, 10, &a));
    TU_OK(sol_graph_add_node(ctx, g, e, 11, &b));
    TU_OK(sol_graph_add_node(ctx, g, e, 12, &c));
    TU_OK(sol_graph_add_node(ctx, g, e, 13, &d));
    TU_OK(sol_graph_add_arc(ctx, g, a, c));
    TU_OK(sol_graph_add_arc(ctx, g, a, d));
    TU_OK(sol_graph_add_arc(ctx, g, b, d));
    TU_FAILS(sol_graph_reduce(ctx, g, &ms, &res), SOL_ENOTSP);
    CU_ASSERT(ms == NULL);
    CU_ASSERT_FATAL(res != NULL);
    CU_ASSERT_EQUAL(sol_graph_node_count(res), 6);
    CU_ASSERT_EQUAL(sol_graph_arc_count(res), 7);
    int seen[4] = {0}, src = 0, snk = 0;
    for (uint32_t i = 0; i < sol_graph_node_count(res); i++) {
        uint32_t tag = sol_graph_node_tag(res, i);
        if (tag >= 10 && tag <= 13) {
            seen[tag - 10]++;
            CU_ASSERT(sol_graph_node_dist(res, i) == e);
        }
        src += tag == SOL_TAG_SOURCE;
        snk += tag == SOL_TAG_SINK;
    }
    CU_ASSERT(seen[0] == 1 && seen[1] == 1 && seen[2] == 1 && seen[3] == 1);
    CU_ASSERT(src == 1 && snk == 1);
    sol_graph_free(res);
    /* a series prefix and a parallel twin of C reduce away; the core stays the N */
    uint32_t p, c2;
    TU_OK(sol_graph_add_node(ctx, g, e, 14, &p));
    TU_OK(sol_graph_add_node(ctx, g, e, 15, &c2));
    TU_OK(sol_graph_add_arc(ctx, g, p, a));
    TU_OK(sol_graph_add_arc(ctx, g, p, b));
    TU_OK(sol_graph_add_arc(ctx, g, a, c2));
    TU_FAILS(sol_graph_reduce(ctx, g, &ms, &res), SOL_ENOTSP);
    CU_ASSERT_FATAL(res != NULL);
    CU_ASSERT_EQUAL(sol_graph_node_count(res), 6); /* p merged with the source, c2 with c */
    int merged = 0;
    for (uint32_t i = 0; i < sol_graph_node_count(res); i++)
        if (sol_graph_node_tag(res, i) == SOL_TAG_MERGED) {
            merged++;
            TU_REL(sol_dist_mean(sol_graph_node_dist(res, i)), 1.5, 1e-5, "max of 2 Exp(1)");
        }
    CU_ASSERT_EQUAL(merged, 1);
    sol_graph_free(res);
    sol_graph_free(g);
    sol_dist_free(e);
    sol_ctx_free(ctx);
}

/* graph-4: cycles, bad arcs, reserved tags and the node limit are reported. */
static void test_errors(void)
{
    sol_ctx *ctx = sol_ctx_alloc();
    sol_graph *g;
    sol_dist *e, *ms;
    TU_OK(sol_dist_exponential(ctx, 1.0, &e));
    TU_OK(sol_graph_new(ctx, 3, &g));
    uint32_t a, b, c;
    TU_OK(sol_graph_add_node(ctx, g, e, 0, &a));
    TU_OK(sol_graph_add_node(ctx, g, e, 1, &b));
    TU_OK(sol_graph_add_node(ctx, g, e, 2, &c));
    TU_FAILS(sol_graph_add_node(ctx, g, e, 3, NULL), SOL_ELIMIT);
    CU_ASSERT(strstr(sol_ctx_message(ctx), "3 nodes") != NULL);
    TU_FAILS(sol_graph_add_arc(ctx, g, a, a), SOL_EINVAL);
    TU_FAILS(sol_graph_add_arc(ctx, g, a, 9), SOL_EINVAL);
    TU_OK(sol_graph_add_arc(ctx, g, a, b));
    TU_OK(sol_graph_add_arc(ctx, g, b, c));
    TU_OK(sol_graph_add_arc(ctx, g, c, b));
    TU_FAILS(sol_graph_reduce(ctx, g, &ms, NULL), SOL_EINVAL);
    CU_ASSERT(strstr(sol_ctx_message(ctx), "cycle") != NULL);
    CU_ASSERT(ms == NULL);
    sol_graph_free(g);
    TU_OK(sol_graph_new(ctx, 0, &g));
    TU_FAILS(sol_graph_add_node(ctx, g, e, SOL_TAG_MERGED, NULL), SOL_EINVAL);
    TU_FAILS(sol_graph_add_node(ctx, g, NULL, 0, NULL), SOL_EINVAL);
    sol_graph_free(g);
    TU_FAILS(sol_graph_new(ctx, SOL_GRAPH_NODES_MAX + 1, &g), SOL_ELIMIT);
    sol_dist_free(e);
    sol_ctx_free(ctx);
}

/* graph-5: a wide layered graph (complete bipartite layers) reduces quickly: 200 layers of 50
 * deterministic tasks, every task of a layer before every task of the next: 200 * max. */
static void test_layers(void)
{
    sol_ctx *ctx = sol_ctx_alloc();
    sol_graph *g;
    sol_dist *ms, *d[50];
    TU_OK(sol_graph_new(ctx, 0, &g));
    for (int i = 0; i < 50; i++)
        TU_OK(sol_dist_deterministic(ctx, 1.0 + 0.01 * i, &d[i]));
    uint32_t prev[50], cur[50];
    for (int layer = 0; layer < 200; layer++) {
        for (int i = 0; i < 50; i++) {
            TU_OK(sol_graph_add_node(ctx, g, d[i], (uint32_t)layer, &cur[i]));
            for (int j = 0; layer > 0 && j < 50; j++)
                TU_OK(sol_graph_add_arc(ctx, g, prev[j], cur[i]));
        }
        memcpy(prev, cur, sizeof prev);
    }
    TU_OK(sol_graph_reduce(ctx, g, &ms, NULL));
    TU_REL(sol_dist_mean(ms), 200 * 1.49, 1e-12, "200 layers of max 1.49");
    sol_dist_free(ms);
    sol_graph_free(g);
    for (int i = 0; i < 50; i++)
        sol_dist_free(d[i]);
    sol_ctx_free(ctx);
}

static const tu_case cases[] = {{"graph-1 random series-parallel graphs", test_random_sp},
                                {"graph-2 fork-join and chains", test_fork_join_chain},
                                {"graph-3 the N graph", test_n_graph},
                                {"graph-4 errors and limits", test_errors},
                                {"graph-5 layered graph", test_layers},
                                {NULL, NULL}};

int main(void)
{
    return tu_run("solver.graph", cases);
}
