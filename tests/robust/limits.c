/* limits: pdlc at the edges of what it accepts (pdlc(1), DIAGNOSTICS): 10^6 processors, 10^12
 * units and repetitions, nesting, file sizes, --precision, the generic model's graph size and
 * the Markov chain's state space. Each either works, with values checked where they follow from
 * a closed form, or fails with an error that says which limit, at its place; never a signal, a
 * hang, a sanitizer report, nan or inf.  usage: limits PDLC EXAMPLES_DIR */
#define _DEFAULT_SOURCE /* strdup */
#include "robrun.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static rob_suite S;

static double harmonic(int n)
{
    double h = 0;
    for (int k = n; k >= 1; k--)
        h += 1.0 / k;
    return h;
}

/* A one-work-phase program with the given scheme clauses (the phase is named w). */
static char *phase(const char *pattern, const char *clauses)
{
    static char buf[4096];
    snprintf(buf, sizeof buf,
             "PROGRAM NAME IS 'limits';\nEXECUTION PATTERN IS %s;\nWORK PHASE w IS:\n%s\nEND;\n",
             pattern, clauses);
    return buf;
}

/* An error run: status 1, an error located in p.pdl (or, with at == NULL, a "pdlc: error:" line)
 * that says `says`. */
static void refused(const char *id, const char *prog, const char *args, const char *at,
                    const char *says)
{
    rob_result r;
    if (rob_prog(&S, id, prog, args, 1, 60, &r) == 0) {
        S.checks++;
        if (at ? !strstr(r.err, at) : !rob_has_plain_error(r.err))
            rob_fail(&S, id, &r, "the error is not at %s", at ? at : "pdlc: (no place)");
        rob_expect_text(&S, id, &r, r.err, says, 1);
    }
    rob_free(&r);
}

/* A usage error: status 2 and a "pdlc: error: OPTION" line. */
static void usage_error(const char *id, const char *args, const char *option)
{
    rob_result r;
    if (rob_prog(&S, id, NULL, args, 2, 60, &r) == 0) {
        char want[64];
        snprintf(want, sizeof want, "pdlc: error: %s", option);
        rob_expect_text(&S, id, &r, r.err, want, 1);
    }
    rob_free(&r);
}

/* limits-1: processor counts up to 10^6 (and not one more). */
static void processors(const char *examples)
{
    const char *ind = phase("w", "PARALLELIZATION SCHEME IS INDEPENDENT;\n"
                                 "SUBTASK RUNTIME IS EXPONENTIAL(1);\n"
                                 "PROBLEM SIZE IS VECTOR A(1000);");
    rob_result r;
    if (rob_prog(&S, "limits-1.1", ind, "--procs 1,1000000", 0, 60, &r) == 0) {
        rob_expect(&S, "limits-1.1", &r, 0, "mean", 1000, 1e-9, "1000 units of mean 1");
        rob_expect(&S, "limits-1.1", &r, 1, "mean", harmonic(1000), 1e-4,
                   "H_1000: one unit per processor, the rest idle");
    }
    rob_free(&r);
    usage_error("limits-1.2", "--procs 1000001", "--procs");
    usage_error("limits-1.3", "--max-procs 1000001", "--max-procs");
    usage_error("limits-1.4", "--procs 0", "--procs");
    /* Every example (every scheme, with its own options) on 10^6 processors. */
    DIR *d = opendir(examples);
    struct dirent *de;
    while (d && (de = readdir(d))) {
        if (!rob_is_program(de->d_name))
            continue;
        char path[4200], args[1024];
        snprintf(path, sizeof path, "%s/%s", examples, de->d_name);
        char *text = rob_slurp(path, NULL);
        rob_example_args(text, args, sizeof args); /* the example's own processor counts go */
        /* data files (NUMERICAL) are read relative to the program: run the example in place */
        char id[300], cmd[2048];
        snprintf(id, sizeof id, "limits-1.5 %s", de->d_name);
        snprintf(cmd, sizeof cmd, "%s --procs 1,1000000", args);
        char *argv[64], *save = NULL;
        int ac = 0;
        argv[ac++] = S.pdlc;
        argv[ac++] = path;
        for (char *w = strtok_r(cmd, " ", &save); w && ac < 63; w = strtok_r(NULL, " ", &save))
            argv[ac++] = w;
        argv[ac] = NULL;
        S.checks++;
        rob_run(argv, NULL, 60, &r);
        const char *bad = rob_sane(&r);
        if (bad || r.status != 0 || rob_rows(r.out) != 2)
            rob_fail(&S, id, &r, "%s", bad ? bad : "no result for p = 10^6");
        rob_free(&r);
        free(text);
    }
    if (d)
        closedir(d);
    /* A machine whose mesh is smaller than p: an error naming the machine, not a wrong value. */
    char mdl[4200], prog[4200], args[8600];
    snprintf(mdl, sizeof mdl, "%s/parsytec.mdl", examples);
    snprintf(prog, sizeof prog, "%s/jacobi.pdl", examples);
    snprintf(args, sizeof args, "%s --set n=64 --machine %s --procs 1,129", prog, mdl);
    S.checks++;
    rob_runf(S.pdlc, args, 60, &r);
    if (rob_sane(&r) || r.status != 1 || !strstr(r.err, "do not fit the 16 x 8 mesh") ||
        !rob_has_located_error(r.err, NULL))
        rob_fail(&S, "limits-1.6", &r, "129 processors on a 16 x 8 mesh: %s",
                 "expected a located error");
    rob_free(&r);
}

/* limits-2: counts up to 10^12 in every scheme, one more is an error at the count. */
static void units(void)
{
    rob_result r;
    const char *ind = phase("w", "PARALLELIZATION SCHEME IS INDEPENDENT;\n"
                                 "SUBTASK RUNTIME IS EXPONENTIAL(1);\n"
                                 "PROBLEM SIZE IS VECTOR A(1e12);");
    if (rob_prog(&S, "limits-2.1", ind, "--procs 1,1000000", 0, 60, &r) == 0) {
        rob_expect(&S, "limits-2.1", &r, 0, "mean", 1e12, 1e-9, "10^12 units of mean 1");
        /* 10^6 units per processor: sums of mean 10^6 and deviation 10^3, so the slowest of
           10^6 processors needs about 10^6 + 4.9 x 10^3 (normal extremes). */
        double t = rob_cell(r.out, 1, "mean");
        S.checks++;
        if (!(t > 1e6 + 4e3 && t < 1e6 + 6e3))
            rob_fail(&S, "limits-2.1", &r, "T(10^6) = %g is not 10^6 + (4 to 6) x 10^3", t);
    }
    rob_free(&r);
    /* Every scheme at 10^12 units (deterministic, so T(1) is exact), on a machine that charges
       for messages: nothing may overflow or loop over the units. */
    static const struct {
        const char *id, *clauses;
        double t1;
    } big[] = {
        {"limits-2.2 NEIGHBOR",
         "PARALLELIZATION SCHEME IS NEIGHBOR; SUBTASK RUNTIME IS DETERMINISTIC(1);\n"
         "PROBLEM SIZE IS GRID B(1e12, 1e12); COMMUNICATION VOLUME IS 8;",
         1e12},
        {"limits-2.3 NEIGHBOR-TORUS",
         "PARALLELIZATION SCHEME IS NEIGHBOR-TORUS; SUBTASK RUNTIME IS DETERMINISTIC(1);\n"
         "PROBLEM SIZE IS GRID B(10, 1e12); DISTRIBUTION IS CYCLIC;",
         1e12},
        {"limits-2.4 PAIRED",
         "PARALLELIZATION SCHEME IS PAIRED; DEPENDENCY IS 1, 3;\n"
         "INDEPENDENT SUBTASK IS: RUNTIME IS DETERMINISTIC(1); END;\n"
         "DEPENDENT SUBTASK IS: RUNTIME IS DETERMINISTIC(1); COMMUNICATION VOLUME IS 4; END;\n"
         "PROBLEM SIZE IS VECTOR C(1e12);",
         2e12},
        {"limits-2.5 FORK-JOIN",
         "PARALLELIZATION SCHEME IS FORK-JOIN; SUBTASK RUNTIME IS DETERMINISTIC(1);\n"
         "JOBS IS 1e12; TASKS PER JOB IS 1e12; COMMUNICATION VOLUME IS 8;",
         1e24},
        {"limits-2.6 MACROPIPELINE",
         "PARALLELIZATION SCHEME IS MACROPIPELINE; SUBTASK RUNTIME IS DETERMINISTIC(1);\n"
         "STAGES IS 1e12; JOBS IS 1e12; COMMUNICATION VOLUME IS 8;",
         1e24},
        {"limits-2.7 INDEPENDENT BLOCK CYCLIC",
         "PARALLELIZATION SCHEME IS INDEPENDENT; SUBTASK RUNTIME IS DETERMINISTIC(1);\n"
         "PROBLEM SIZE IS VECTOR A(1e12); DISTRIBUTION IS BLOCK CYCLIC(7);",
         1e12},
    };
    for (size_t k = 0; k < sizeof big / sizeof *big; k++) {
        /* (p = 10^6 is left out for MACROPIPELINE: its 2 x 10^6 anti-diagonals take minutes.) */
        if (rob_prog(&S, big[k].id, phase("w", big[k].clauses), "--procs 1,7,1000 -m m.mdl", 0, 60,
                     &r) == 0)
            rob_expect(&S, big[k].id, &r, 0, "mean", big[k].t1, 1e-9,
                       "units x 1 on one processor, no messages");
        rob_free(&r);
    }
    refused("limits-2.8",
            phase("w", "PARALLELIZATION SCHEME IS INDEPENDENT; SUBTASK RUNTIME IS "
                       "EXPONENTIAL(1);\nPROBLEM SIZE IS VECTOR A(1000000000001);"),
            "--procs 1",
            "p.pdl:5:26: error:", "problem size 1000000000001 exceeds the limit of 1000000000000");
    refused("limits-2.9",
            phase("w", "PARALLELIZATION SCHEME IS MACROPIPELINE; SUBTASK RUNTIME IS "
                       "EXPONENTIAL(1);\nSTAGES IS 4; JOBS IS 1e13;"),
            "--procs 1", "p.pdl:5:22: error:", "number of jobs 1e+13 exceeds the limit of 1e+12");
    /* Index-dependent work is built unit by unit, up to documented counts. */
    refused("limits-2.10",
            phase("w", "PARALLELIZATION SCHEME IS INDEPENDENT; SUBTASK RUNTIME IS "
                       "EXPONENTIAL(1 + i);\nPROBLEM SIZE IS VECTOR A(100001);"),
            "--procs 1", "p.pdl:5:26: error:", "is more than the 100000");
    refused("limits-2.11",
            phase("w", "PARALLELIZATION SCHEME IS FORK-JOIN; SUBTASK RUNTIME IS EXPONENTIAL(1);\n"
                       "JOBS IS 1000001; TASKS PER JOB IS j + 1;"),
            "--procs 1", "p.pdl:5:9: error:", "is more than the 1000000");
    refused("limits-2.12",
            phase("w", "PARALLELIZATION SCHEME IS MACROPIPELINE; SUBTASK RUNTIME IS "
                       "EXPONENTIAL(1);\nSTAGES IS 4; JOBS IS 100001; INTERARRIVAL TIME IS "
                       "EXPONENTIAL(1);"),
            "--procs 1", "p.pdl:5:22: error:", "is more than the 100000");
}

/* limits-2.13: times that overflow while the model is built (each value written is finite) are
 * an error that says so, never inf in the output or in a message. */
static void overflow(void)
{
    char path[200];
    snprintf(path, sizeof path, "%s/huge.mdl", S.dir);
    const char *mdl = "MACHINE NAME IS 'huge';\nLOGGP(L = 9, o = 1e308, g = 14, G = 0.03);\n";
    rob_write(path, mdl, strlen(mdl));
    refused("limits-2.13",
            phase("w", "PARALLELIZATION SCHEME IS INDEPENDENT; SUBTASK RUNTIME IS "
                       "EXPONENTIAL(1);\nPROBLEM SIZE IS VECTOR A(8); COMMUNICATION VOLUME IS 8;"),
            "--procs 1,3 -m huge.mdl", "p.pdl:", "exceeds the largest double");
    /* E[(w -> s) +[0.75]] = 4 (E[w] + E[s]) with E[s] = 1e308. */
    refused("limits-2.14",
            "PROGRAM NAME IS 'o';\nEXECUTION PATTERN IS (w -> s) +[0.75];\n"
            "SEQUENTIAL PHASE s IS: RUNTIME IS DETERMINISTIC(1e308); END;\n"
            "WORK PHASE w IS: PARALLELIZATION SCHEME IS INDEPENDENT;\n"
            "SUBTASK RUNTIME IS EXPONENTIAL(1); PROBLEM SIZE IS VECTOR A(8); END;\n",
            "--procs 1,2", "p.pdl:", "exceeds the largest double");
}

/* limits-3: nesting and repetition. */
static void nesting(void)
{
    static char prog[1 << 20];
    rob_result r;
    /* Parentheses nest about 1990 deep; far deeper is an error, never a stack overflow. */
    const int depth[] = {1900, 2100, 100000};
    for (int k = 0; k < 3; k++) {
        size_t n = (size_t)snprintf(prog, sizeof prog,
                                    "PROGRAM NAME IS 'n';\n"
                                    "EXECUTION PATTERN IS ");
        for (int i = 0; i < depth[k]; i++)
            prog[n++] = '(';
        prog[n++] = 'w';
        for (int i = 0; i < depth[k]; i++)
            prog[n++] = ')';
        snprintf(prog + n, sizeof prog - n,
                 ";\nWORK PHASE w IS: PARALLELIZATION SCHEME IS INDEPENDENT;\n"
                 "SUBTASK RUNTIME IS DETERMINISTIC(1); PROBLEM SIZE IS VECTOR A(4); END;\n");
        if (k == 0) {
            if (rob_prog(&S, "limits-3.1", prog, "--procs 1,4", 0, 60, &r) == 0)
                rob_expect(&S, "limits-3.1", &r, 1, "mean", 1, 1e-9, "one unit of 1 each");
            rob_free(&r);
        } else {
            refused("limits-3.2", prog, "--procs 1", "p.pdl:2:", "nested too deeply");
        }
    }
    /* A chain of 10^5 operators is as deep a tree as 10^5 parentheses (limits.test pins the
       exact message at the boundary). */
    size_t n = (size_t)snprintf(prog, sizeof prog, "PROGRAM NAME IS 'n';\nPARAMETER k = 1");
    for (int i = 0; i < 100000; i++)
        n += (size_t)snprintf(prog + n, sizeof prog - n, "+1");
    snprintf(prog + n, sizeof prog - n,
             ";\nEXECUTION PATTERN IS w;\nWORK PHASE w IS: PARALLELIZATION SCHEME IS "
             "INDEPENDENT;\nSUBTASK RUNTIME IS DETERMINISTIC(k); PROBLEM SIZE IS VECTOR A(4); "
             "END;\n");
    refused("limits-3.3", prog, "--procs 1", "p.pdl:2:", "expression is nested too deeply");
    /* Repetition counts up to 10^12, nested ones multiply; 2^1100 runs overflow: an error. */
    const char *rep = "PARALLELIZATION SCHEME IS INDEPENDENT;\n"
                      "SUBTASK RUNTIME IS EXPONENTIAL(1); PROBLEM SIZE IS VECTOR A(4);";
    if (rob_prog(&S, "limits-3.4", phase("(w ^ 1e12) ^ 1e12", rep), "--procs 1,4 -q 0.5 -M bounds",
                 0, 60, &r) == 0) {
        rob_expect(&S, "limits-3.4", &r, 0, "mean", 4e24, 1e-9, "10^24 runs of 4 units of 1");
        rob_expect(&S, "limits-3.4", &r, 1, "mean", 1e24 * harmonic(4), 1e-4,
                   "10^24 runs of H_4 (barriers between runs)");
    }
    rob_free(&r);
    refused("limits-3.5", phase("w ^ 1e13", rep), "--procs 1",
            "p.pdl:2:26: error:", "repetition count 1e+13 exceeds the limit of 1e+12");
    refused("limits-3.6", phase("w ^ 2.5", rep), "--procs 1", "p.pdl:2:26: error:", "integer");
    n = (size_t)snprintf(prog, sizeof prog, "PROGRAM NAME IS 'n';\nEXECUTION PATTERN IS ");
    for (int i = 0; i < 1100; i++)
        prog[n++] = '(';
    prog[n++] = 'w';
    for (int i = 0; i < 1100; i++)
        n += (size_t)snprintf(prog + n, sizeof prog - n, ")^2");
    snprintf(prog + n, sizeof prog - n,
             ";\nWORK PHASE w IS: PARALLELIZATION SCHEME IS INDEPENDENT;\nSUBTASK RUNTIME IS "
             "DETERMINISTIC(1); PROBLEM SIZE IS VECTOR A(4); END;\n"
             "CONCATENATION IS: w, w : BARRIER; END;\n");
    refused("limits-3.7", prog, "--procs 1", "p.pdl:2:", "not finite");
    /* A geometric loop that almost never ends: E[N] = q/(1-q) = 10^10 - 1. */
    if (rob_prog(&S, "limits-3.8", phase("w *[0.9999999999]", rep), "--procs 1", 0, 60, &r) == 0)
        rob_expect(&S, "limits-3.8", &r, 0, "mean", 4 * 0.9999999999 / 1e-10, 1e-6,
                   "4 q/(1-q), the geometric tail cut below 1e-14");
    rob_free(&r);
}

/* limits-4: file sizes, --precision, graph and state-space limits. */
static void sizes(void)
{
    rob_result r;
    char *small = strdup(phase("w", "PARALLELIZATION SCHEME IS INDEPENDENT;\n"
                                    "SUBTASK RUNTIME IS DETERMINISTIC(2); PROBLEM SIZE IS "
                                    "VECTOR A(4);"));
    /* A source of exactly 16 MiB is read; one byte more is refused by name. */
    size_t limit = 16u << 20, len = strlen(small);
    char *big = malloc(limit + 2);
    memcpy(big, small, len);
    memset(big + len, ' ', limit - len);
    big[limit] = '\0';
    if (rob_prog(&S, "limits-4.1", big, "--procs 1,2", 0, 60, &r) == 0)
        rob_expect(&S, "limits-4.1", &r, 1, "mean", 4, 1e-9, "2 units of 2 per processor");
    rob_free(&r);
    big[limit] = ' ';
    big[limit + 1] = '\0';
    refused("limits-4.2", big, "--procs 1", NULL, "'p.pdl' is too large (16777217 bytes");
    /* The same for a NUMERICAL data file, reported at the name that reads it. */
    char path[200];
    snprintf(path, sizeof path, "%s/big.dat", S.dir);
    memset(big, '\n', limit + 1);
    memcpy(big, "1 1\n", 4);
    rob_write(path, big, limit + 1);
    free(big);
    refused("limits-4.3",
            phase("w", "PARALLELIZATION SCHEME IS INDEPENDENT;\n"
                       "SUBTASK RUNTIME IS NUMERICAL('big.dat'); PROBLEM SIZE IS VECTOR A(4);"),
            "--procs 1", "p.pdl:5:30: error:", "'big.dat' is too large");
    remove(path);
    /* --precision from 64 to 2^24; deterministic programs are exact at both ends. */
    usage_error("limits-4.4", "--precision 63", "--precision");
    usage_error("limits-4.5", "--precision 16777217", "--precision");
    for (int k = 0; k < 2; k++) {
        if (rob_prog(&S, "limits-4.6", small,
                     k ? "--procs 1,3 --precision 16777216" : "--procs 1,3 --precision 64", 0, 60,
                     &r) == 0)
            rob_expect(&S, "limits-4.6", &r, 1, "mean", 4, 1e-9, "ceil(4/3) units of 2");
        rob_free(&r);
    }
    free(small);
    /* The generic model's size: 10^12 neighbour iterations cannot be a graph. */
    const char *nb = phase("w ^ 1e12", "PARALLELIZATION SCHEME IS NEIGHBOR;\n"
                                       "SUBTASK RUNTIME IS EXPONENTIAL(1); PROBLEM SIZE IS GRID "
                                       "A(4, 4);\nEND;\nCONCATENATION IS: w, w : NEIGHBOR;");
    refused("limits-4.7", nb, "--procs 1,2 -M bounds", "p.pdl:", "the generic model has more than");
    refused("limits-4.8", nb, "--procs 1,2 -M simulate",
            "p.pdl:", "the generic model has more than");
    /* The Markov chain's state space: 8 processors of 8 exponential units each pass 2 x 10^6
       states. (Results printed with this error are a known bug of pdl_generic.c: see the
       output test.) */
    const char *mk = phase("w", "PARALLELIZATION SCHEME IS INDEPENDENT;\n"
                                "SUBTASK RUNTIME IS EXPONENTIAL(1); PROBLEM SIZE IS VECTOR "
                                "B(64);");
    rob_prog(&S, "limits-4.9", mk, "--procs 8 -M markov", 1, 60, &r);
    rob_expect_text(&S, "limits-4.9", &r, r.err, "more than 2000000 states", 1);
    rob_free(&r);
}

int main(int argc, char **argv)
{
    if (argc != 3) {
        fputs("usage: limits PDLC EXAMPLES_DIR\n", stderr);
        return 2;
    }
    if (rob_suite_init(&S, argv[1]) != 0)
        return 2;
    /* A machine that charges for messages, for the schemes that send them. */
    char path[200];
    snprintf(path, sizeof path, "%s/m.mdl", S.dir);
    const char *mdl = "MACHINE NAME IS 'm';\nLOGGP(L = 9, o = 2, g = 14, G = 0.03);\n";
    rob_write(path, mdl, strlen(mdl));
    processors(argv[2]);
    units();
    overflow();
    nesting();
    sizes();
    return rob_suite_end(&S, "limits");
}
