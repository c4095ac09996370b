/* bench_bounds: every bounding method on a few graph families (the N graph, random layered
 * DAGs, the paper's NEIGHBOR case), with the tightest pair, its relative width, the simulated
 * mean and each method's time; for NEIGHBOR beside the paper's PEPP bounds (its Table 2).
 * usage: bench_bounds [samples] (default 200000 simulated makespans per graph). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include <gsl/gsl_rng.h>

#include "sol_bounds.h"
#include "sol_sim.h"

static int check(sol_ctx *ctx, sol_status st, const char *what)
{
    if (st != SOL_OK)
        fprintf(stderr, "bench_bounds: %s: %s\n", what, sol_ctx_message(ctx));
    return st == SOL_OK;
}

/* One line per graph: each method's value and time, the pair, its width, the simulation. */
static double report(sol_ctx *ctx, const char *name, const sol_graph *g, uint64_t samples,
                     int header, double *sim_mean)
{
    static const int order[] = {SOL_BOUND_CPM,         SOL_BOUND_KLEIN_LOWER,  SOL_BOUND_ARC_DELETE,
                                SOL_BOUND_COND_LOWER,  SOL_BOUND_GREEDY_LOWER, SOL_BOUND_PARTITION,
                                SOL_BOUND_KLEIN_UPPER, SOL_BOUND_DODIN,        SOL_BOUND_ARC_INSERT,
                                SOL_BOUND_COND_UPPER,  SOL_BOUND_GREEDY_UPPER};
    static const char *const label[] = {"cpm",    "klmin", "delete", "condlo", "grlo", "part",
                                        "klprod", "dodin", "insert", "condup", "grup"};
    size_t nm = sizeof order / sizeof *order;
    if (header) {
        printf("%-14s %5s", "graph", "resid");
        for (size_t i = 0; i < nm; i++)
            printf(" %9s", label[i]);
        printf(" %9s %9s %-13s %7s %9s %7s %5s  times (ms) cpm..condup\n", "lower", "upper",
               "methods", "width%", "sim", "ci95", "ok");
    }
    sol_bounds_result r;
    sol_sim_result s;
    if (!check(ctx, sol_bounds_mean(ctx, g, NULL, &r), "bounds") ||
        !check(ctx, sol_sim_run(ctx, g, samples, 1, 0, NULL, NULL, &s), "simulation"))
        return NAN;
    printf("%-14s %5zu", name, r.residual_nodes);
    for (size_t i = 0; i < nm; i++)
        printf(" %9.4f", r.value[order[i]]);
    char methods[64];
    snprintf(methods, sizeof methods, "%s/%s", sol_bound_method_name(r.lower_method),
             sol_bound_method_name(r.upper_method));
    double width = 100.0 * (r.upper - r.lower) / s.mean;
    int ok = r.lower <= s.mean + s.ci95 && s.mean - s.ci95 <= r.upper;
    printf(" %9.4f %9.4f %-13.13s %7.3f %9.4f %7.4f %5s ", r.lower, r.upper, methods, width, s.mean,
           s.ci95, ok ? "yes" : "NO");
    for (size_t i = 0; i < nm; i++)
        printf(" %.1f", 1e3 * r.seconds[order[i]]);
    printf("%s\n", r.exact ? "  exact" : "");
    *sim_mean = s.mean;
    return width;
}

/* The "N" graph: A -> C, A -> D, B -> D, all Exp(1); exact mean 23/8. */
static sol_graph *n_graph(sol_ctx *ctx)
{
    sol_graph *g;
    sol_dist *e;
    if (!check(ctx, sol_graph_new(ctx, 0, &g), "graph") ||
        !check(ctx, sol_dist_exponential(ctx, 1.0, &e), "law"))
        exit(1);
    for (uint32_t i = 0; i < 4; i++)
        sol_graph_add_node(ctx, g, e, i, NULL);
    sol_dist_free(e);
    sol_graph_add_arc(ctx, g, 0, 2);
    sol_graph_add_arc(ctx, g, 0, 3);
    sol_graph_add_arc(ctx, g, 1, 3);
    return g;
}

/* NEIGHBOR on 10 columns, iters iterations, Erlang-8 units of mean 8, BLOCK mapping on p
 * processors: unit (i, j) after (i-1, j-1), (i-1, j), (i-1, j+1) and after the previous unit on
 * its processor (chains on one processor are collapsed by the reduction). */
static sol_graph *neighbor(sol_ctx *ctx, int p, int iters)
{
    enum { COLS = 10 };
    int first[COLS + 1], owner[COLS];
    int k = 0;
    for (int q = 0; q < p; q++) {
        int c = COLS / p + (q < COLS % p);
        first[q] = k;
        for (int j = 0; j < c; j++)
            owner[k++] = q;
    }
    first[p] = COLS;
    sol_graph *g;
    sol_dist *e;
    if (!check(ctx, sol_graph_new(ctx, 0, &g), "graph") ||
        !check(ctx, sol_dist_erlang(ctx, 8, 1.0, &e), "law"))
        exit(1);
    for (int i = 0; i < iters; i++)
        for (int j = 0; j < COLS; j++)
            sol_graph_add_node(ctx, g, e, (uint32_t)(i * COLS + j), NULL);
    sol_dist_free(e);
    for (int i = 0; i < iters; i++)
        for (int j = 0; j < COLS; j++) {
            uint32_t v = (uint32_t)(i * COLS + j);
            for (int dj = -1; i > 0 && dj <= 1; dj++)
                if (j + dj >= 0 && j + dj < COLS)
                    sol_graph_add_arc(ctx, g, (uint32_t)((i - 1) * COLS + j + dj), v);
            int q = owner[j];
            if (j > first[q])
                sol_graph_add_arc(ctx, g, v - 1, v);
            else if (i > 0)
                sol_graph_add_arc(ctx, g, (uint32_t)((i - 1) * COLS + first[q + 1] - 1), v);
        }
    return g;
}

/* A random layered DAG: layers of 1..width nodes, each node after 1..3 nodes of the previous
 * layer, durations exponential, Erlang, uniform or deterministic. */
static sol_graph *layered(sol_ctx *ctx, gsl_rng *r, int layers, int width)
{
    sol_graph *g;
    if (!check(ctx, sol_graph_new(ctx, 0, &g), "graph"))
        exit(1);
    uint32_t prev0 = 0, prevn = 0;
    for (int l = 0; l < layers; l++) {
        uint32_t n0 = (uint32_t)sol_graph_node_count(g);
        uint32_t w = 1 + (uint32_t)gsl_rng_uniform_int(r, (unsigned long)width);
        for (uint32_t i = 0; i < w; i++) {
            sol_dist *d = NULL;
            double m = 0.5 + 2.0 * gsl_rng_uniform(r);
            switch (gsl_rng_uniform_int(r, 4)) {
            case 0:
                sol_dist_exponential(ctx, m, &d);
                break;
            case 1:
                sol_dist_erlang(ctx, 1 + (double)gsl_rng_uniform_int(r, 8), m, &d);
                break;
            case 2:
                sol_dist_uniform(ctx, 0.0, 2.0 * m, &d);
                break;
            default:
                sol_dist_deterministic(ctx, m, &d);
            }
            uint32_t id;
            sol_graph_add_node(ctx, g, d, 0, &id);
            sol_dist_free(d);
            for (uint32_t k = 0; l > 0 && k < 1 + gsl_rng_uniform_int(r, 3); k++)
                sol_graph_add_arc(ctx, g, prev0 + (uint32_t)gsl_rng_uniform_int(r, prevn), id);
        }
        prev0 = n0;
        prevn = w;
    }
    return g;
}

/* The paper's Table 2 (PEPP's lower and upper bounds), p = 2..10, 2 / 4 / 8 iterations. */
static const double pepp[9][3][2] = {
    {{85, 86.8}, {167.1, 172.7}, {330, 341.8}}, {{64.5, 65.8}, {128.1, 130.4}, {256, 258.8}},
    {{51.9, 53.9}, {101.5, 105.1}, {200, 209}}, {{38.8, 38.9}, {73.5, 77.8}, {141, 154}},
    {{37.7, 38.8}, {72.2, 77.7}, {135, 153}},   {{36.8, 37.2}, {70.8, 75.3}, {138, 149}},
    {{35.2, 36.7}, {68.5, 70.3}, {134, 142}},   {{32.2, 32.3}, {64, 64.2}, {128, 130}},
    {{23.7, 24.7}, {44.7, 48.1}, {85.8, 96.1}}};

int main(int argc, char **argv)
{
    uint64_t samples = argc > 1 ? strtoull(argv[1], NULL, 10) : 200000;
    sol_ctx *ctx = sol_ctx_alloc();
    double sim;
    printf("== the N graph (exact mean 23/8 = 2.875)\n");
    sol_graph *g = n_graph(ctx);
    report(ctx, "N", g, samples, 1, &sim);
    sol_graph_free(g);

    printf("\n== random layered DAGs (exponential, Erlang, uniform, deterministic)\n");
    gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
    double wsum = 0.0;
    int wn = 0;
    for (int i = 0; i < 8; i++) {
        char name[32];
        int layers = 4 + 2 * (i % 4), width = 3 + i / 2;
        snprintf(name, sizeof name, "layered %dx%d", layers, width);
        g = layered(ctx, r, layers, width);
        double w = report(ctx, name, g, samples, i == 0, &sim);
        if (!isnan(w)) {
            wsum += w;
            wn++;
        }
        sol_graph_free(g);
    }
    printf("average relative width %.3f%%\n", wn ? wsum / wn : NAN);
    gsl_rng_free(r);

    printf("\n== NEIGHBOR, 10 columns, Erlang-8 (mean 8), BLOCK on p processors\n");
    static const int iters[3] = {2, 4, 8};
    double ours = 0.0, theirs = 0.0;
    int rows = 0, bracket = 0;
    double wide[9][3];
    double lo_hi[9][3][3];
    for (int p = 1; p <= 10; p++)
        for (int k = 0; k < 3; k++) {
            char name[32];
            snprintf(name, sizeof name, "p=%d it=%d", p, iters[k]);
            g = neighbor(ctx, p, iters[k]);
            sol_bounds_result br;
            if (!check(ctx, sol_bounds_mean(ctx, g, NULL, &br), "bounds"))
                return 1;
            double w = report(ctx, name, g, samples, p == 1 && k == 0, &sim);
            sol_graph_free(g);
            if (p >= 2) {
                const double *pp = pepp[p - 2][k];
                double pw = 100.0 * (pp[1] - pp[0]) / sim;
                ours += w;
                theirs += pw;
                rows++;
                wide[p - 2][k] = pw;
                lo_hi[p - 2][k][0] = br.lower;
                lo_hi[p - 2][k][1] = br.upper;
                lo_hi[p - 2][k][2] = sim;
                bracket += br.lower <= sim * 1.001 && sim <= br.upper * 1.001;
            }
        }
    printf("\n%-3s %-4s %21s %21s %9s %8s %8s\n", "p", "it", "ours (lower-upper)",
           "PEPP (lower-upper)", "sim", "ours%", "PEPP%");
    for (int p = 2; p <= 10; p++)
        for (int k = 0; k < 3; k++) {
            const double *v = lo_hi[p - 2][k];
            printf("%-3d %-4d %10.3f-%-10.3f %10.1f-%-10.1f %9.3f %8.3f %8.3f\n", p, iters[k], v[0],
                   v[1], pepp[p - 2][k][0], pepp[p - 2][k][1], v[2], 100.0 * (v[1] - v[0]) / v[2],
                   wide[p - 2][k]);
        }
    printf("average relative width over the %d rows with p >= 2: ours %.3f%%, PEPP %.3f%%\n", rows,
           ours / rows, theirs / rows);
    printf("rows where our bounds bracket the simulated mean (0.1%% slack): %d of %d\n", bracket,
           rows);
    sol_ctx_free(ctx);
    return 0;
}
