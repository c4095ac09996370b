/* randgeneric: 200 random generic models, every scheme, random sizes, distributions, patterns,
 * concatenations and machines, run through the real binary with --method all. For every row:
 *   - the bounds bracket the simulated mean (within 4 standard errors of the simulation);
 *   - an exact result (exact = 1) equals the simulation within 4 standard errors;
 *   - the lower bound does not exceed the scaled model's mean (which only adds barriers).
 * The programs come from a fixed-seed generator, so the test is deterministic; a failing case
 * is printed whole.   usage: randgeneric PDLC [CASES [FIRST]]: cases FIRST .. FIRST+CASES-1 of
 * the fixed sequence (so the suite can run in parallel slices). */
#include "pdlrun.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SE4 (4.0 / 1.959963984540054)

static uint64_t state = 0x9E3779B97F4A7C15u;

static uint64_t next(void)
{
    state ^= state << 13;
    state ^= state >> 7;
    state ^= state << 17;
    return state;
}

static int pick(int n)
{
    return (int)(next() % (uint64_t)n);
}

static double uniform(double a, double b)
{
    return a + (b - a) * (double)(next() >> 11) / 9007199254740992.0;
}

static void dist(char *buf, size_t n)
{
    switch (pick(5)) {
    case 0:
        snprintf(buf, n, "EXPONENTIAL(%.3f)", uniform(0.5, 3));
        break;
    case 1:
        snprintf(buf, n, "ERLANG(%d, %.3f)", 1 + pick(4), uniform(0.3, 1.5));
        break;
    case 2: {
        double a = uniform(0, 2);
        snprintf(buf, n, "UNIFORM(%.3f, %.3f)", a, a + uniform(0.1, 3));
        break;
    }
    case 3:
        snprintf(buf, n, "DETERMINISTIC(%.3f)", uniform(0.5, 3));
        break;
    default:
        snprintf(buf, n, "GAMMA(%.3f, %.3f)", uniform(0.5, 4), uniform(0.2, 1.5));
        break;
    }
}

static const char *const schemes[] = {"INDEPENDENT", "NEIGHBOR", "NEIGHBOR-TORUS", "MACROPIPELINE",
                                      "FORK-JOIN",   "PAIRED",   "ARBITRARY"};

/* A work phase of the given scheme with small random sizes. */
static void phase(char *buf, size_t n, const char *name, int scheme, int volume)
{
    char d1[64], d2[64];
    dist(d1, sizeof d1);
    dist(d2, sizeof d2);
    int k = snprintf(buf, n, "WORK PHASE %s IS:\n    PARALLELIZATION SCHEME IS %s;\n", name,
                     schemes[scheme]);
    switch (scheme) {
    case 0:
        k += snprintf(buf + k, n - k,
                      "    SUBTASK RUNTIME IS %s;\n    PROBLEM SIZE IS VECTOR A(%d);\n%s", d1,
                      1 + pick(9), pick(2) ? "    SCHEDULING IS STATIC;\n" : "");
        break;
    case 1:
    case 2:
        k += snprintf(buf + k, n - k,
                      "    SUBTASK RUNTIME IS %s;\n    PROBLEM SIZE IS GRID B(1, %d);\n", d1,
                      2 + pick(8));
        break;
    case 3:
        k += snprintf(buf + k, n - k,
                      "    SUBTASK RUNTIME IS %s;\n    STAGES IS %d;\n    JOBS IS %d;\n", d1,
                      1 + pick(4), 1 + pick(4));
        if (pick(2))
            k += snprintf(buf + k, n - k, "    INTERARRIVAL TIME IS %s;\n", d2);
        break;
    case 4:
        k += snprintf(buf + k, n - k,
                      "    SUBTASK RUNTIME IS %s;\n    JOBS IS %d;\n    TASKS PER JOB IS %d - j;\n",
                      d1, 1 + pick(3), 3 + pick(3));
        break;
    case 5:
        k += snprintf(buf + k, n - k,
                      "    DEPENDENCY IS %d%s;\n    INDEPENDENT SUBTASK IS: RUNTIME IS %s; END;\n"
                      "    DEPENDENT SUBTASK IS: RUNTIME IS %s; END;\n"
                      "    PROBLEM SIZE IS VECTOR A(%d);\n",
                      1 + pick(3), pick(2) ? ", 4" : "", d1, d2, 2 + pick(7));
        break;
    default: {
        int tasks = 3 + pick(4);
        for (int t = 0; t < tasks; t++) {
            dist(d1, sizeof d1);
            k += snprintf(buf + k, n - k, "    TASK t%d RUNTIME IS %s;\n", t, d1);
        }
        for (int t = 1; t < tasks; t++) {
            int from = pick(t);
            k += snprintf(buf + k, n - k, "    ARC t%d -> t%d;\n", from, t);
            if (t > 1 && pick(2))
                k += snprintf(buf + k, n - k, "    ARC t%d -> t%d;\n", (from + 1) % t, t);
        }
        break;
    }
    }
    if (volume)
        k += snprintf(buf + k, n - k, "    COMMUNICATION VOLUME IS %d;\n", 8 + pick(200));
    snprintf(buf + k, n - k, "END;\n");
}

static const char *const joins[] = {"NEIGHBOR", "SERIAL", "BARRIER", "TORUS"};

int main(int argc, char **argv)
{
    if (argc < 2) {
        fputs("usage: randgeneric PDLC [CASES [FIRST]]\n", stderr);
        return 2;
    }
    int cases = argc > 2 ? atoi(argv[2]) : 200, first = argc > 3 ? atoi(argv[3]) : 0;
    int failures = 0, rows = 0, exact = 0, ran = 0;
    char *machine = pdlrun_tempfile("MACHINE NAME IS 'lg';\nLOGGP(L = 0.5, o = 0.1, g = 0.3, "
                                    "G = 0.001);\nBARRIER TIME IS DETERMINISTIC(0.2 * p);\n",
                                    ".mdl");
    for (int c = 0; c < first + cases; c++) {
        char prog[8192], w[2048], v[2048];
        int s1 = pick(7), s2 = pick(7), vol = pick(3) == 0, two = pick(3) == 0;
        int reps = 2 + pick(3);
        phase(w, sizeof w, "w", s1, vol);
        phase(v, sizeof v, "v", s2, vol);
        int k = snprintf(prog, sizeof prog,
                         "PROGRAM NAME IS 'r%d';\nEXECUTION PATTERN IS w ^ %d%s;\n%s%s", c, reps,
                         two ? " -> v" : "", w, two ? v : "");
        snprintf(prog + k, sizeof prog - k, "CONCATENATION IS: w, w : %s;%s END;\n", joins[pick(4)],
                 two ? (pick(2) ? " w, v : SERIAL;" : " w, v : NEIGHBOR;") : "");
        int p1 = 1 + pick(3), p2 = p1 + 1 + pick(4);
        if (c < first)
            continue; /* generated, so the sequence stays the same, but not run */
        ran++;
        char *path = pdlrun_tempfile(prog, ".pdl");
        char args[512];
        snprintf(args, sizeof args,
                 "'%s' --procs %d,%d --method all --samples 20000 --seed %d %s%s", path, p1, p2, c,
                 vol ? "--machine " : "", vol ? machine : "");
        pdlrun_table t;
        int bad = 0;
        if (pdlrun(argv[1], args, &t) != 0) {
            printf("case %d: pdlc exited %d: %s\n", c, t.status, t.err);
            bad = 1;
        }
        for (size_t r = 0; !bad && r < t.nrows; r++) {
            double lo = pdlrun_num(&t, r, "lower"), up = pdlrun_num(&t, r, "upper");
            double sim = pdlrun_num(&t, r, "sim_mean"), ci = pdlrun_num(&t, r, "sim_ci95");
            double mean = pdlrun_num(&t, r, "mean");
            double tol = SE4 * ci + 1e-9 * fabs(sim);
            rows++;
            if (!(lo <= sim + tol && sim - tol <= up)) {
                printf("case %d p=%g: simulation %g +- %g outside [%g, %g] (%s, %s)\n", c,
                       pdlrun_num(&t, r, "procs"), sim, ci, lo, up,
                       pdlrun_str(&t, r, "lower_method"), pdlrun_str(&t, r, "upper_method"));
                bad = 1;
            }
            if (pdlrun_num(&t, r, "exact") == 1) {
                exact++;
                if (!(fabs(sim - lo) <= tol)) {
                    printf("case %d: exact %g but simulation %g +- %g\n", c, lo, sim, ci);
                    bad = 1;
                }
            }
            /* 1e-6: the exact bound and the scaled model discretise on different lattices */
            if (!(lo <= mean * (1 + 1e-6) + 1e-9)) {
                printf("case %d p=%g: lower %.10g above the scaled model %.10g\n", c,
                       pdlrun_num(&t, r, "procs"), lo, mean);
                bad = 1;
            }
        }
        if (bad) {
            failures++;
            printf("--- program of case %d (%s):\n%s---\n", c, args, prog);
        }
        pdlrun_free(&t);
        remove(path);
        free(path);
    }
    remove(machine);
    free(machine);
    printf("%d cases, %d rows (%d exact): %d failing\n", ran, rows, exact, failures);
    return failures ? 1 : 0;
}
