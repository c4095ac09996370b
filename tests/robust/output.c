/* output: what pdlc writes is reproducible and safe. The same input gives the same bytes on
 * every run and for every thread count (simulation included, seed fixed); -o FILE is replaced
 * only by a complete result: a failed run leaves FILE as it was and no FILE.tmp.* behind.
 * usage: output PDLC EXAMPLES_DIR determinism|files|generic-error|special-files
 *   determinism    every example, 5 runs with 1, 2, 4 and all threads: identical bytes
 *   files          -o FILE after errors of every kind found before the output is written
 *   generic-error  -o FILE when the generic model (--method markov) fails for the last p
 *   special-files  -o FIFO writes into the FIFO instead of replacing it (as -o /dev/null must) */
#define _DEFAULT_SOURCE /* setenv */
#include "robrun.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static rob_suite S;

/* output-1: identical bytes (stdout and stderr) from runs that differ only in threads. */
static void determinism(const char *examples)
{
    DIR *d = opendir(examples);
    struct dirent *de;
    while (d && (de = readdir(d))) {
        if (!rob_is_program(de->d_name))
            continue;
        char path[4200], own[1024], args[6000], id[300];
        snprintf(path, sizeof path, "%s/%s", examples, de->d_name);
        snprintf(id, sizeof id, "output-1 %s", de->d_name);
        char *text = rob_slurp(path, NULL);
        rob_example_args(text, own, sizeof own);
        free(text);
        static const char *const threads[] = {"1", "2", "4", "0", "1"};
        rob_result first = {0};
        for (int k = 0; k < 5; k++) {
            /* --threads 0 means all cores: OpenMP's count, set here to one nobody else uses */
            setenv("OMP_NUM_THREADS", "3", 1);
            snprintf(args, sizeof args,
                     "%s %s --procs 1,3 --precision 1024 -q 0.5 -M simulate --samples 3000 "
                     "--seed 7 --threads %s",
                     path, own, threads[k]);
            rob_result r;
            S.checks++;
            rob_runf(S.pdlc, args, 60, &r);
            const char *bad = rob_sane(&r);
            if (bad || r.status != 0) {
                rob_fail(&S, id, &r, "%s: %s", args, bad ? bad : "failed");
                rob_free(&r);
                break;
            }
            if (k == 0) {
                first = r;
                continue;
            }
            if (strcmp(r.out, first.out) != 0 || strcmp(r.err, first.err) != 0)
                rob_fail(&S, id, &r, "--threads %s gives other bytes than --threads 1:\n%s",
                         threads[k], first.out);
            rob_free(&r);
        }
        rob_free(&first);
    }
    if (d)
        closedir(d);
    unsetenv("OMP_NUM_THREADS");
    /* The seed is used: another seed, other simulated numbers (suprenum's tasks are random). */
    char a7[4200], a8[4200];
    snprintf(a7, sizeof a7, "%s/suprenum.pdl --procs 4 -M simulate --samples 3000 --seed 7",
             examples);
    snprintf(a8, sizeof a8, "%s/suprenum.pdl --procs 4 -M simulate --samples 3000 --seed 8",
             examples);
    rob_result r7, r8;
    rob_runf(S.pdlc, a7, 60, &r7);
    rob_runf(S.pdlc, a8, 60, &r8);
    S.checks++;
    if (r7.status != 0 || r8.status != 0 || strcmp(r7.out, r8.out) == 0)
        rob_fail(&S, "output-1.9", &r8, "seeds 7 and 8 give the same simulation:\n%s", r7.out);
    rob_free(&r7);
    rob_free(&r8);
}

/* Names in the scratch directory holding ".tmp." (pdlc's temporaries), or NULL. */
static char *leftover(void)
{
    DIR *d = opendir(S.dir);
    struct dirent *de;
    char *found = NULL;
    while (d && (de = readdir(d)))
        if (!found && strstr(de->d_name, ".tmp."))
            found = strdup(de->d_name);
    if (d)
        closedir(d);
    return found;
}

static const char *const OLD = "results of an earlier run\n";

/* Runs p.pdl (prog) with args and -o out.csv over an existing out.csv: when want_status is 1,
 * out.csv must still hold OLD; when 0, exactly what the same run prints on stdout. Never a
 * temporary left behind. */
static void keeps_file(const char *id, const char *prog, const char *args, int want_status)
{
    char path[200], full[2048];
    snprintf(path, sizeof path, "%s/out.csv", S.dir);
    rob_write(path, OLD, strlen(OLD));
    snprintf(full, sizeof full, "%s -o out.csv", args);
    rob_result r;
    if (rob_prog(&S, id, prog, full, want_status, 60, &r) == 0) {
        char *now = rob_slurp(path, NULL);
        S.checks++;
        if (want_status != 0 && (!now || strcmp(now, OLD) != 0))
            rob_fail(&S, id, &r, "the failed run changed out.csv to:\n%s", now ? now : "(gone)");
        if (want_status != 0 && r.outlen)
            rob_fail(&S, id, &r, "the failed run printed results");
        if (want_status == 0) {
            rob_result plain;
            rob_prog(&S, id, NULL, args, 0, 60, &plain);
            if (!now || strcmp(now, plain.out) != 0)
                rob_fail(&S, id, &plain, "out.csv differs from the results on stdout:\n%s",
                         now ? now : "(gone)");
            rob_free(&plain);
        }
        free(now);
    }
    char *tmp = leftover();
    S.checks++;
    if (tmp)
        rob_fail(&S, id, &r, "a temporary file was left behind: %s", tmp);
    free(tmp);
    rob_free(&r);
}

static const char *const GOOD = "PROGRAM NAME IS 'ok';\nEXECUTION PATTERN IS w;\n"
                                "WORK PHASE w IS: PARALLELIZATION SCHEME IS INDEPENDENT;\n"
                                "    SUBTASK RUNTIME IS EXPONENTIAL(1); PROBLEM SIZE IS VECTOR "
                                "A(8); END;\n";

/* output-2: every kind of error leaves -o FILE alone. */
static void files(void)
{
    keeps_file("output-2.1 success", GOOD, "--procs 1,2,4 -q 0.5", 0);
    keeps_file("output-2.2 success json", GOOD, "--procs 1,2 -f json", 0);
    keeps_file("output-2.3 syntax error", "PROGRAM NAME IS 'bad'\nEXECUTION PATTERN IS w;\n",
               "--procs 1,2", 1);
    keeps_file("output-2.4 check error",
               "PROGRAM NAME IS 'bad';\nEXECUTION PATTERN IS w;\n"
               "WORK PHASE w IS: PARALLELIZATION SCHEME IS INDEPENDENT;\n"
               "    SUBTASK RUNTIME IS EXPONENTIAL(-1); PROBLEM SIZE IS VECTOR A(8); END;\n",
               "--procs 1,2", 1);
    /* Valid for p = 1 and 2, not for p = 3: the rows computed first must not reach the file. */
    keeps_file("output-2.5 error at the last p",
               "PROGRAM NAME IS 'late';\nEXECUTION PATTERN IS w;\n"
               "WORK PHASE w IS: PARALLELIZATION SCHEME IS INDEPENDENT;\n"
               "    SUBTASK RUNTIME IS DETERMINISTIC(2 - p); PROBLEM SIZE IS VECTOR A(8); END;\n",
               "--procs 1,2,3", 1);
    keeps_file("output-2.6 solver error",
               "PROGRAM NAME IS 'heavy';\nEXECUTION PATTERN IS w;\n"
               "WORK PHASE w IS: PARALLELIZATION SCHEME IS INDEPENDENT;\n"
               "    SUBTASK RUNTIME IS LOGNORMAL(0, 9); PROBLEM SIZE IS VECTOR A(8); END;\n",
               "--procs 1,2", 1);
    keeps_file("output-2.7 missing data file",
               "PROGRAM NAME IS 'nodata';\nEXECUTION PATTERN IS w;\n"
               "WORK PHASE w IS: PARALLELIZATION SCHEME IS INDEPENDENT;\n"
               "    SUBTASK RUNTIME IS NUMERICAL('none.dat'); PROBLEM SIZE IS VECTOR A(8); END;\n",
               "--procs 1,2", 1);
    keeps_file("output-2.8 --sweep error in a later combination",
               "PROGRAM NAME IS 'sweep';\nPARAMETER n = 8;\nEXECUTION PATTERN IS w;\n"
               "WORK PHASE w IS: PARALLELIZATION SCHEME IS INDEPENDENT;\n"
               "    SUBTASK RUNTIME IS EXPONENTIAL(1); PROBLEM SIZE IS VECTOR A(n); END;\n",
               "--procs 1,2 --sweep n=4,8,-1", 1);
    /* A directory that does not exist: an error naming the file, nothing created. */
    rob_result r;
    if (rob_prog(&S, "output-2.9", GOOD, "--procs 1 -o no/such/dir/out.csv", 1, 60, &r) == 0)
        rob_expect_text(&S, "output-2.9", &r, r.err, "pdlc: error: cannot write", 1);
    rob_free(&r);
}

/* output-3: the generic model fails after the scaled model's rows are computed. */
static void generic_error(void)
{
    /* UNIFORM is not exponential: --method markov refuses it, for every p. */
    keeps_file("output-3.1 markov refused",
               "PROGRAM NAME IS 'mk';\nEXECUTION PATTERN IS w;\n"
               "WORK PHASE w IS: PARALLELIZATION SCHEME IS INDEPENDENT;\n"
               "    SUBTASK RUNTIME IS UNIFORM(1, 2); PROBLEM SIZE IS VECTOR A(8); END;\n",
               "--procs 1,2 -M markov", 1);
}

/* output-4: -o onto a FIFO (or /dev/null, /dev/stdout) writes into it; replacing it by a
 * regular file would break the pipeline (or, run as root, the system's /dev/null). */
static void special_files(void)
{
    char fifo[200];
    snprintf(fifo, sizeof fifo, "%s/fifo", S.dir);
    S.checks++;
    if (mkfifo(fifo, 0600) != 0) {
        rob_fail(&S, "output-4.1", NULL, "mkfifo: %s", strerror(errno));
        return;
    }
    /* A reader is there first, so pdlc's open for writing does not wait. */
    int rd = open(fifo, O_RDONLY | O_NONBLOCK);
    rob_result r;
    rob_prog(&S, "output-4.1", GOOD, "--procs 1,2 -o fifo", 0, 60, &r);
    char buf[4096];
    ssize_t n = rd >= 0 ? read(rd, buf, sizeof buf - 1) : -1;
    buf[n > 0 ? n : 0] = '\0';
    struct stat st;
    S.checks++;
    if (lstat(fifo, &st) != 0 || !S_ISFIFO(st.st_mode))
        rob_fail(&S, "output-4.1", &r, "-o FIFO replaced the FIFO by a regular file");
    S.checks++;
    if (!strstr(buf, "procs,mean"))
        rob_fail(&S, "output-4.1", &r, "nothing came out of the FIFO: '%s'", buf);
    if (rd >= 0)
        close(rd);
    rob_free(&r);
    remove(fifo);
}

int main(int argc, char **argv)
{
    if (argc != 4) {
        fputs("usage: output PDLC EXAMPLES_DIR determinism|files|generic-error|special-files\n",
              stderr);
        return 2;
    }
    if (rob_suite_init(&S, argv[1]) != 0)
        return 2;
    if (strcmp(argv[3], "determinism") == 0)
        determinism(argv[2]);
    else if (strcmp(argv[3], "files") == 0)
        files();
    else if (strcmp(argv[3], "generic-error") == 0)
        generic_error();
    else if (strcmp(argv[3], "special-files") == 0)
        special_files();
    else
        rob_fail(&S, "output", NULL, "unknown part '%s'", argv[3]);
    return rob_suite_end(&S, "output");
}
