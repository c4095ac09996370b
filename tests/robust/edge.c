/* edge: numerical edge cases through the real pdlc binary, each against a value derived by hand
 * from a closed form (written next to the assertion): zero-time phases, deterministic programs
 * of every scheme, times from 1e-9 to 1e12, heavy tails, more processors than units. Every run
 * must also pass rob_sane (no nan or inf, no signal, no sanitizer report).
 * usage: edge PDLC */
#include "robrun.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define EXACT  1e-9 /* exact values, as far as 10 printed digits go */
#define SOLVER 1e-4 /* the solver's documented accuracy of means at the default precision */

static rob_suite S;

/* H_n = 1 + 1/2 + ... + 1/n: E[max of n iid Exp(1)] (by the memoryless property). */
static double harmonic(int n)
{
    double h = 0;
    for (int k = n; k >= 1; k--)
        h += 1.0 / k;
    return h;
}

/* The header and statements of a one-phase program around a work phase body. */
static void prog1(char *buf, size_t n, const char *pattern, const char *body)
{
    snprintf(buf, n,
             "PROGRAM NAME IS 'edge';\nEXECUTION PATTERN IS %s;\nWORK PHASE w IS:\n%s\nEND;\n",
             pattern, body);
}

static void independent(char *buf, size_t n, const char *dist, const char *units)
{
    char body[512];
    snprintf(body, sizeof body,
             "PARALLELIZATION SCHEME IS INDEPENDENT;\nSUBTASK RUNTIME IS %s;\n"
             "PROBLEM SIZE IS VECTOR A(%s);",
             dist, units);
    prog1(buf, n, "w", body);
}

/* edge-1: phases that take no time. A program of only zero phases has speedup 1 by the
 * convention of pdlc(1) (E[T(1)] / E[T(p)] is 0/0), efficiency 1/p, every quantile 0. */
static void zero_time(void)
{
    const char *prog =
        "PROGRAM NAME IS 'zero';\n"
        "EXECUTION PATTERN IS s -> w -> SYNC -> z -> (w | s) -> w *[0.5];\n"
        "SEQUENTIAL PHASE s IS: RUNTIME IS DETERMINISTIC(0); END;\n"
        "SYNCHRONIZATION PHASE z IS: RUNTIME IS DETERMINISTIC(0 * p); END;\n"
        "WORK PHASE w IS: PARALLELIZATION SCHEME IS INDEPENDENT;\n"
        "    SUBTASK RUNTIME IS DETERMINISTIC(0); PROBLEM SIZE IS VECTOR A(10); END;\n"
        "CONCATENATION IS: w, w : BARRIER; END;\n";
    rob_result r;
    if (rob_prog(&S, "edge-1.1", prog, "--procs 1,2,16 -q 0.5,0.99 -M all --samples 100", 0, 60,
                 &r) == 0) {
        const int p[] = {1, 2, 16};
        for (size_t row = 0; row < 3; row++) {
            rob_expect(&S, "edge-1.1", &r, row, "mean", 0, 0, "every phase takes 0");
            rob_expect(&S, "edge-1.1", &r, row, "speedup", 1, 0, "0/0 is 1 by convention");
            rob_expect(&S, "edge-1.1", &r, row, "efficiency", 1.0 / p[row], EXACT, "speedup / p");
            rob_expect(&S, "edge-1.1", &r, row, "q50", 0, 0, "a point mass at 0");
            rob_expect(&S, "edge-1.1", &r, row, "q99", 0, 0, "a point mass at 0");
            rob_expect(&S, "edge-1.1", &r, row, "lower", 0, 0, "a point mass at 0");
            rob_expect(&S, "edge-1.1", &r, row, "upper", 0, 0, "a point mass at 0");
            rob_expect(&S, "edge-1.1", &r, row, "sim_mean", 0, 0, "every sample is 0");
            rob_expect(&S, "edge-1.1", &r, row, "sim_ci95", 0, 0, "no variance");
        }
    }
    rob_free(&r);
    /* Every output format and report says the same without a nan (rob_sane checks). */
    const char *more[] = {"--procs 1,4 -f json",
                          "--procs 1,4 -f table",
                          "--procs 1,4 --report profile",
                          "--procs 1,4 --report losses",
                          "--procs 1,4 --report bottleneck",
                          "--report critical-path"};
    for (size_t k = 0; k < sizeof more / sizeof *more; k++) {
        if (rob_prog(&S, "edge-1.2", prog, more[k], 0, 60, &r) == 0 && r.outlen == 0)
            rob_fail(&S, "edge-1.2", &r, "no output for %s", more[k]);
        rob_free(&r);
    }
    /* A zero phase among timed ones changes nothing: 5 ceil(4/p) (BLOCK of 4 units of 5). */
    const char *mixed =
        "PROGRAM NAME IS 'mixed';\n"
        "EXECUTION PATTERN IS s -> w -> s;\n"
        "SEQUENTIAL PHASE s IS: RUNTIME IS DETERMINISTIC(0); END;\n"
        "WORK PHASE w IS: PARALLELIZATION SCHEME IS INDEPENDENT;\n"
        "    SUBTASK RUNTIME IS DETERMINISTIC(5); PROBLEM SIZE IS VECTOR A(4); END;\n";
    if (rob_prog(&S, "edge-1.3", mixed, "--procs 1,2,3,4", 0, 60, &r) == 0) {
        const double want[] = {20, 10, 10, 5};
        for (size_t row = 0; row < 4; row++)
            rob_expect(&S, "edge-1.3", &r, row, "mean", want[row], EXACT, "5 ceil(4/p)");
    }
    rob_free(&r);
}

/* edge-2: deterministic programs of every scheme are exact, at any precision (pdlc(1)), their
 * quantiles equal their means, and the values follow from the models of pdlc(1) by hand. */
static void deterministic(void)
{
    static const struct {
        const char *id, *prog, *why;
        int p[6];
        double want[6];
    } cases[] = {
        {"edge-2.1",
         "PROGRAM NAME IS 'ind';\nEXECUTION PATTERN IS s -> w -> SYNC -> z;\n"
         "SEQUENTIAL PHASE s IS: RUNTIME IS DETERMINISTIC(7); END;\n"
         "SYNCHRONIZATION PHASE z IS: RUNTIME IS DETERMINISTIC(log2(p)); END;\n"
         "WORK PHASE w IS: PARALLELIZATION SCHEME IS INDEPENDENT; SUBTASK RUNTIME IS "
         "DETERMINISTIC(3);\n    PROBLEM SIZE IS VECTOR A(10); DISTRIBUTION IS BLOCK; END;\n",
         "7 + 3 ceil(10/p) + log2(p)",
         {1, 2, 3, 4, 10, 16},
         {37, 23, 20.584962500721156, 18, 13.321928094887362, 14}},
        {"edge-2.2",
         "PROGRAM NAME IS 'nb';\nEXECUTION PATTERN IS w ^ 3;\n"
         "WORK PHASE w IS: PARALLELIZATION SCHEME IS NEIGHBOR; SUBTASK RUNTIME IS "
         "DETERMINISTIC(2);\n    PROBLEM SIZE IS GRID B(5, 10); END;\n"
         "CONCATENATION IS: w, w : NEIGHBOR; END;\n",
         "3 iterations of 2 ceil(10/p)",
         {1, 2, 3, 4, 10, 16},
         {60, 30, 24, 18, 6, 6}},
        {"edge-2.3",
         "PROGRAM NAME IS 'fj';\nEXECUTION PATTERN IS w;\n"
         "WORK PHASE w IS: PARALLELIZATION SCHEME IS FORK-JOIN; SUBTASK RUNTIME IS "
         "DETERMINISTIC(1);\n    JOBS IS 3; TASKS PER JOB IS 5; END;\n",
         "3 jobs of ceil(5/p)",
         {1, 2, 3, 4, 5, 8},
         {15, 9, 6, 6, 3, 3}},
        {"edge-2.4",
         "PROGRAM NAME IS 'pr';\nEXECUTION PATTERN IS w;\n"
         "WORK PHASE w IS: PARALLELIZATION SCHEME IS PAIRED; DEPENDENCY IS 1;\n"
         "    INDEPENDENT SUBTASK IS: RUNTIME IS DETERMINISTIC(2); END;\n"
         "    DEPENDENT SUBTASK IS: RUNTIME IS DETERMINISTIC(1); END;\n"
         "    PROBLEM SIZE IS VECTOR A(6); END;\n",
         "2 ceil(6/p) for the independent parts, then a chain of 6 dependent parts of 1",
         {1, 2, 3, 4, 6, 12},
         {18, 12, 10, 10, 8, 8}},
        {"edge-2.5",
         "PROGRAM NAME IS 'mp';\nEXECUTION PATTERN IS w;\n"
         "WORK PHASE w IS: PARALLELIZATION SCHEME IS MACROPIPELINE; SUBTASK RUNTIME IS "
         "DETERMINISTIC(1);\n    STAGES IS 4; JOBS IS 3; END;\n",
         "P = min(p, 4) blocks of stages, P + 2 anti-diagonals of the largest block",
         {1, 2, 3, 4, 5, 8},
         {12, 8, 8, 6, 6, 6}},
        {"edge-2.6",
         "PROGRAM NAME IS 'ar';\nEXECUTION PATTERN IS w;\n"
         "WORK PHASE w IS: PARALLELIZATION SCHEME IS ARBITRARY;\n"
         "    TASK a RUNTIME IS DETERMINISTIC(1); TASK b RUNTIME IS DETERMINISTIC(2);\n"
         "    TASK c RUNTIME IS DETERMINISTIC(3); TASK d RUNTIME IS DETERMINISTIC(1);\n"
         "    ARC a -> b -> d; ARC a -> c -> d; END;\n",
         "the sum 7 on one processor, the critical path a, c, d = 5 on more",
         {1, 2, 3, 4, 5, 8},
         {7, 5, 5, 5, 5, 5}},
    };
    for (size_t c = 0; c < sizeof cases / sizeof *cases; c++) {
        for (int prec = 0; prec < 2; prec++) {
            char args[128];
            snprintf(args, sizeof args, "--procs %d,%d,%d,%d,%d,%d -q 0.5 %s", cases[c].p[0],
                     cases[c].p[1], cases[c].p[2], cases[c].p[3], cases[c].p[4], cases[c].p[5],
                     prec ? "--precision 64" : "");
            rob_result r;
            if (rob_prog(&S, cases[c].id, cases[c].prog, args, 0, 60, &r) == 0) {
                for (size_t row = 0; row < 6; row++) {
                    rob_expect(&S, cases[c].id, &r, row, "mean", cases[c].want[row], EXACT,
                               cases[c].why);
                    rob_expect(&S, cases[c].id, &r, row, "q50", cases[c].want[row], EXACT,
                               "a point mass at the mean");
                    rob_expect(&S, cases[c].id, &r, row, "speedup",
                               cases[c].want[0] / cases[c].want[row], EXACT, "T(1) / T(p)");
                }
            }
            rob_free(&r);
        }
    }
}

/* edge-3: times from 1e-9 to 1e12. Sums keep exact means; maxima follow m H_n at every scale,
 * so T(p)/m agrees across scales; numbers print as plain decimals (pdlc(1): never exponents). */
static void scales(void)
{
    const double scale[] = {1e-9, 1, 1e12};
    double unit_t8[3] = {0};
    for (int s = 0; s < 3; s++) {
        char dist[64], prog[1024], id[32];
        snprintf(id, sizeof id, "edge-3.%d", s + 1);
        snprintf(dist, sizeof dist, "EXPONENTIAL(%g)", scale[s]);
        independent(prog, sizeof prog, dist, "8");
        rob_result r;
        if (rob_prog(&S, id, prog, "--procs 1,8", 0, 60, &r) == 0) {
            rob_expect(&S, id, &r, 0, "mean", 8 * scale[s], EXACT, "the sum of 8 means");
            rob_expect(&S, id, &r, 1, "mean", scale[s] * harmonic(8), SOLVER, "m H_8");
            unit_t8[s] = rob_cell(r.out, 1, "mean") / scale[s];
            rob_expect_text(&S, id, &r, r.out, "e-", 0);
            rob_expect_text(&S, id, &r, r.out, "e+", 0);
        }
        rob_free(&r);
        snprintf(dist, sizeof dist, "DETERMINISTIC(%g)", scale[s]);
        independent(prog, sizeof prog, dist, "10");
        if (rob_prog(&S, id, prog, "--procs 1,3,16", 0, 60, &r) == 0) {
            rob_expect(&S, id, &r, 0, "mean", 10 * scale[s], EXACT, "10 units of m");
            rob_expect(&S, id, &r, 1, "mean", 4 * scale[s], EXACT, "ceil(10/3) units of m");
            rob_expect(&S, id, &r, 2, "mean", scale[s], EXACT, "one unit of m");
        }
        rob_free(&r);
    }
    S.checks++;
    if (!rob_close(unit_t8[0], unit_t8[1], 1e-6) || !rob_close(unit_t8[2], unit_t8[1], 1e-6)) {
        char why[160];
        snprintf(why, sizeof why, "T(8)/m = %.12g, %.12g, %.12g at m = 1e-9, 1, 1e12", unit_t8[0],
                 unit_t8[1], unit_t8[2]);
        rob_fail(&S, "edge-3.4", NULL, "means do not scale: %s", why);
    }
    /* 1e12 and 1e-9 in one program: the small part is below the big one's resolution and
       vanishes from the printed mean, without an error. */
    const char *mixed = "PROGRAM NAME IS 'mixed';\nEXECUTION PATTERN IS s -> w;\n"
                        "SEQUENTIAL PHASE s IS: RUNTIME IS DETERMINISTIC(1e12); END;\n"
                        "WORK PHASE w IS: PARALLELIZATION SCHEME IS INDEPENDENT;\n"
                        "    SUBTASK RUNTIME IS EXPONENTIAL(1e-9); PROBLEM SIZE IS VECTOR A(4); "
                        "END;\n";
    rob_result r;
    if (rob_prog(&S, "edge-3.5", mixed, "--procs 1,4 -q 0.5", 0, 60, &r) == 0) {
        rob_expect(&S, "edge-3.5", &r, 0, "mean", 1e12 + 4e-9, EXACT, "1e12 + 4 x 1e-9");
        rob_expect(&S, "edge-3.5", &r, 1, "mean", 1e12, EXACT, "1e12 + 1e-9 H_4");
    }
    rob_free(&r);
}

/* edge-4: heavy tails. Means of sums stay exact (the solver keeps them by bookkeeping); where the
 * lattice cannot resolve a law, pdlc must say so; beyond what it can represent it must refuse. */
static void heavy_tails(void)
{
    char prog[1024];
    rob_result r;
    /* LOGNORMAL(mu, sigma): mean exp(mu + sigma^2 / 2). */
    const char *seq = "PROGRAM NAME IS 'ln';\nEXECUTION PATTERN IS s;\n"
                      "SEQUENTIAL PHASE s IS: RUNTIME IS LOGNORMAL(1.5, 3); END;\n";
    if (rob_prog(&S, "edge-4.1", seq, "--procs 1,4", 0, 60, &r) == 0) {
        rob_expect(&S, "edge-4.1", &r, 0, "mean", exp(1.5 + 4.5), 1e-9, "exp(mu + 9/2)");
        rob_expect(&S, "edge-4.1", &r, 1, "speedup", 1, EXACT, "a sequential phase runs once");
    }
    rob_free(&r);
    independent(prog, sizeof prog, "LOGNORMAL(0, 3)", "10");
    if (rob_prog(&S, "edge-4.2", prog, "--procs 1,10", 0, 60, &r) == 0) {
        rob_expect(&S, "edge-4.2", &r, 0, "mean", 10 * exp(4.5), 1e-9, "10 exp(9/2)");
        /* E[max of 10] is 812.39 by quadrature of 1 - F^10, while the lattice's step is wider
           than the law's body: pdlc must warn that maxima may be far off. */
        rob_expect_text(&S, "edge-4.2", &r, r.err, "heavy tail", 1);
        rob_expect_text(&S, "edge-4.2", &r, r.err, "maxima over processors (p > 1) may be far off",
                        1);
    }
    rob_free(&r);
    /* HYPEREXPONENTIAL(0.9, 1, 0.1, 100): mean sum p_i m_i = 10.9; survival S(x) = 0.9 e^-x +
       0.1 e^(-x/100), so E[min of 2] = int S^2 = 0.81/2 + 2 (0.09)/(1 + 1/100) + 0.01 (100/2)
       and E[max of 2] = 2 (10.9) - E[min of 2]. */
    independent(prog, sizeof prog, "HYPEREXPONENTIAL(0.9, 1, 0.1, 100)", "2");
    double emin = 0.81 / 2 + 2 * 0.09 / 1.01 + 0.01 * 50;
    /* (At the default precision the error is 1.02e-4: a heavy tail; 4 times the lattice
       divides it by 16, as pdlc(1) says.) */
    if (rob_prog(&S, "edge-4.3", prog, "--procs 1,2,4 --precision 65536", 0, 60, &r) == 0) {
        rob_expect(&S, "edge-4.3", &r, 0, "mean", 2 * 10.9, 1e-9, "2 sum p_i m_i");
        rob_expect(&S, "edge-4.3", &r, 1, "mean", 2 * 10.9 - emin, SOLVER,
                   "2 E[X] - int S(x)^2 dx");
        rob_expect(&S, "edge-4.3", &r, 2, "mean", 2 * 10.9 - emin, SOLVER,
                   "p > units: as for p = 2");
    }
    rob_free(&r);
    /* E[max of n iid Exp(m)] = m H_n, for n = p = 16 and n = p = 1000 (and INDEPENDENT). */
    independent(prog, sizeof prog, "EXPONENTIAL(2)", "16");
    if (rob_prog(&S, "edge-4.4", prog, "--procs 1,16 -M bounds", 0, 60, &r) == 0) {
        rob_expect(&S, "edge-4.4", &r, 0, "mean", 32, EXACT, "16 x 2");
        rob_expect(&S, "edge-4.4", &r, 1, "mean", 2 * harmonic(16), SOLVER, "2 H_16");
        rob_expect(&S, "edge-4.4", &r, 1, "lower", 2 * harmonic(16), SOLVER,
                   "the same graph, exact");
        rob_expect(&S, "edge-4.4", &r, 1, "upper", 2 * harmonic(16), SOLVER,
                   "the same graph, exact");
    }
    rob_free(&r);
    independent(prog, sizeof prog, "EXPONENTIAL(0.5)", "1000");
    if (rob_prog(&S, "edge-4.5", prog, "--procs 1000", 0, 60, &r) == 0)
        rob_expect(&S, "edge-4.5", &r, 0, "mean", 0.5 * harmonic(1000), SOLVER, "0.5 H_1000");
    rob_free(&r);
    /* Laws the lattice cannot represent: most of the mean in events rarer than 1e-14, or values
       beyond the doubles. An error at the distribution that says why, never "out of memory" for
       2^63 lattice points (what WEIBULL(0.01, 1) once gave). */
    static const struct {
        const char *dist, *says;
    } refused[] = {
        {"LOGNORMAL(0, 8)", "tail too heavy to discretise"},
        {"WEIBULL(0.01, 1)", "tail too heavy to discretise"},
        {"LOGNORMAL(0, 20)", "tail too heavy to discretise"},
        {"WEIBULL(0.001, 1)", "values too large to discretise"},
        {"LOGNORMAL(800, 1)", "values too large to discretise"},
        {"NORMAL(1e15, 1)", "use DETERMINISTIC"},
    };
    for (size_t k = 0; k < sizeof refused / sizeof *refused; k++) {
        independent(prog, sizeof prog, refused[k].dist, "4");
        if (rob_prog(&S, "edge-4.6", prog, "--procs 1,2", 1, 60, &r) == 0) {
            S.checks++;
            if (!rob_has_located_error(r.err, "p.pdl") || !strstr(r.err, "p.pdl:5:20: error:"))
                rob_fail(&S, "edge-4.6", &r, "the error is not at the distribution of %s",
                         refused[k].dist);
            rob_expect_text(&S, "edge-4.6", &r, r.err, refused[k].says, 1);
            rob_expect_text(&S, "edge-4.6", &r, r.err, "out of memory", 0);
        }
        rob_free(&r);
    }
}

/* edge-5: more processors than units. The extra processors idle, so T(p) stays at its value for
 * p = units, efficiency keeps falling as speedup / p. */
static void more_procs_than_units(void)
{
    char prog[1024];
    rob_result r;
    independent(prog, sizeof prog, "EXPONENTIAL(1)", "4");
    if (rob_prog(&S, "edge-5.1", prog, "--procs 1,4,5,1000,1000000", 0, 60, &r) == 0) {
        char at4[64], cell[64];
        rob_cell_text(r.out, 1, "mean", at4, sizeof at4);
        rob_expect(&S, "edge-5.1", &r, 1, "mean", harmonic(4), SOLVER, "H_4");
        for (size_t row = 2; row < 5; row++) {
            S.checks++;
            if (strcmp(rob_cell_text(r.out, row, "mean", cell, sizeof cell), at4) != 0)
                rob_fail(&S, "edge-5.1", &r, "T(p) for p > 4 differs from T(4) = %s", at4);
        }
        rob_expect(&S, "edge-5.1", &r, 4, "efficiency", 4 / harmonic(4) / 1e6, SOLVER,
                   "speedup at p = 4 over 10^6");
    }
    rob_free(&r);
    const char *nb = "PROGRAM NAME IS 'nb';\nEXECUTION PATTERN IS w;\n"
                     "WORK PHASE w IS: PARALLELIZATION SCHEME IS NEIGHBOR-TORUS;\n"
                     "    SUBTASK RUNTIME IS DETERMINISTIC(2); PROBLEM SIZE IS GRID B(3, 5); "
                     "END;\n";
    if (rob_prog(&S, "edge-5.2", nb, "--procs 1,5,7,100", 0, 60, &r) == 0) {
        rob_expect(&S, "edge-5.2", &r, 0, "mean", 10, EXACT, "5 columns of 2");
        for (size_t row = 1; row < 4; row++)
            rob_expect(&S, "edge-5.2", &r, row, "mean", 2, EXACT, "one column each, the rest idle");
    }
    rob_free(&r);
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fputs("usage: edge PDLC\n", stderr);
        return 2;
    }
    if (rob_suite_init(&S, argv[1]) != 0)
        return 2;
    zero_time();
    deterministic();
    scales();
    heavy_tails();
    more_procs_than_units();
    return rob_suite_end(&S, "edge");
}
