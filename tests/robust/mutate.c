/* mutate: feeds mutated versions of the example programs and machine models (bytes flipped,
 * replaced, deleted and duplicated, chunks of other examples spliced in, tokens inserted) through
 * the real pdlc binary.
 *
 * Every run must end by itself within 5 s with exit status 0 or 1, never by a signal, without a
 * sanitizer report, nan or inf. Status 2 (wrong usage) fails too: the command line is the one the
 * unmutated example runs with, so it is valid whatever the program says. A run that fails must
 * print no results.
 * Status 1 must come with a located diagnostic, "FILE:LINE:COL: error: " with LINE, COL >= 1 in
 * the mutant or in a file it reads. A "pdlc: error: " line alone does not count: every error a
 * program or machine model can cause has a place in it, and pdlc keeps the unplaced form for the
 * command line, the files named there, running out of memory, and the generic model's methods
 * (--method bounds, markov), which this test leaves to the fuzz harness.
 * One mutant in five is of a machine model (pdl-examples/ *.mdl) that jacobi.pdl or prgA.pdl
 * runs on, so the machine grammar and its checks are reached too.
 * Mutant k is a pure function of (seed, k), so a slice reproduces alone; a failing mutant is
 * written with a note on what failed to FAILDIR/mutant-K.pdl or .mdl (and .txt), with the files
 * it may read, for `cd FAILDIR && pdlc ARGS` as the note says.
 * usage: mutate PDLC EXAMPLES_DIR FAILDIR [COUNT [FIRST [SEED [JOBS [' OPTIONS']]]]]
 *   (OPTIONS, with a leading blank, replace the varied options: to hunt in one part of pdlc) */
#define _DEFAULT_SOURCE /* mkdtemp, strdup in the system headers' own terms */
#include "robrun.h"

#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define TIME_LIMIT   5.0
#define MAX_MUTANT   (64 * 1024)
#define MAX_EXAMPLES 64
#define MAX_JOBS     16

typedef struct example {
    char *name;
    char *text;
    size_t len;
    char args[512]; /* its "// pdlc-args:" without processor options */
} example;

static example ex[MAX_EXAMPLES]; /* the programs (*.pdl) */
static int nex;
static example mach[MAX_EXAMPLES]; /* the machine models (*.mdl) */
static int nmach;
/* Options for every run instead of the varied ones (hunting in one part of pdlc). */
static const char *fixed_options;
/* Programs that run a mutated machine model, written unmutated into the scratch directory. */
static const char *const hosts[] = {"jacobi.pdl", "prgA.pdl"};

/* splitmix64: small, good enough, and the same on every platform. */
static uint64_t mix(uint64_t *s)
{
    uint64_t z = (*s += 0x9E3779B97F4A7C15u);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9u;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBu;
    return z ^ (z >> 31);
}

static size_t below(uint64_t *s, size_t n)
{
    return n ? (size_t)(mix(s) % n) : 0;
}

/* Bytes that mean something to the scanner, so replacements reach past the first token. */
static const char lexical[] = "0123456789.eE+-*/%^|&!=<>?:;,()[]'_ \n\tpijIJPSynciNd";

/* Tokens that probe values at the edges of what pdlc accepts. */
static const char *const tokens[] = {
    "0",
    "1",
    "-1",
    "0.5",
    "1e12",
    "1e13",
    "1e308",
    "1e-308",
    "1e-9",
    "999999999999",
    "4294967296",
    "18446744073709551616",
    "p",
    "i",
    "j",
    "^",
    "^ 3",
    "^ 0",
    "*[0.9]",
    "+[0.5]",
    "*[1]",
    "(",
    ")",
    "[",
    "]",
    ";",
    ",",
    "->",
    "- >",
    "|",
    "'",
    "/*",
    "//",
    "\n",
    "END;",
    "SYNC",
    " -> SYNC",
    "DETERMINISTIC(0)",
    "EXPONENTIAL(1e-9)",
    "LOGNORMAL(0, 3)",
    "WEIBULL(0.3, 1)",
    "HYPEREXPONENTIAL(0.5, 1, 0.5, 1e6)",
    "UNIFORM(0, 0)",
    "NORMAL(1, 0)",
    "NUMERICAL('dur_b.dis.ideal')",
    "NUMERICAL('no-such-file')",
    "log(0)",
    "1/0",
    "sqrt(-1)",
    "pow(10, 400)",
    "min()",
    "max(p, 2)",
    "p - 1",
    "%",
    "?",
    ":",
    "BLOCK CYCLIC(0)",
    "CYCLIC",
    "DEPENDENCY IS 0;",
    "\xff",
    "\t",
    "STAGES IS 0;",
    "JOBS IS 1e6;",
    "TASKS PER JOB IS j;",
    "ARC a -> a;",
    "RTFactor",
    "SIZEOF(INT)",
    "NEIGHBOR-TORUS",
    "FORK-JOIN",
    "PAIRED",
};

static const char *mutate_once(uint64_t *s, char *buf, size_t *len)
{
    size_t n = *len;
    size_t at = below(s, n + 1);
    switch (below(s, 7)) {
    case 0: /* flip one bit */
        if (n) {
            buf[below(s, n)] ^= (char)(1u << below(s, 8));
            return "flip";
        }
        return "none";
    case 1: /* replace a byte, mostly by one the scanner knows */
        if (n) {
            buf[below(s, n)] =
                below(s, 4) ? lexical[below(s, sizeof lexical - 1)] : (char)below(s, 256);
            return "replace";
        }
        return "none";
    case 2: { /* delete a range: short mostly, sometimes a whole line or more */
        size_t k = 1 + below(s, below(s, 4) ? 8 : 200);
        if (at + k > n)
            k = n - at;
        memmove(buf + at, buf + at + k, n - at - k);
        *len = n - k;
        return "delete";
    }
    case 3: { /* duplicate a range in place or somewhere else */
        if (!n)
            return "none";
        size_t from = below(s, n), k = 1 + below(s, 64);
        if (from + k > n)
            k = n - from;
        if (n + k > MAX_MUTANT)
            return "none";
        char tmp[64];
        memcpy(tmp, buf + from, k);
        size_t to = below(s, 2) ? from + k : at;
        memmove(buf + to + k, buf + to, n - to);
        memcpy(buf + to, tmp, k);
        *len = n + k;
        return "duplicate";
    }
    case 4: { /* splice in a chunk of another example (or the same one) */
        const example *o = &ex[below(s, (size_t)nex)];
        size_t from = below(s, o->len), k = 1 + below(s, 300);
        if (from + k > o->len)
            k = o->len - from;
        if (below(s, 2)) { /* overwrite */
            if (at + k > n)
                k = n - at;
            memcpy(buf + at, o->text + from, k);
            return "splice-over";
        }
        if (n + k > MAX_MUTANT)
            return "none";
        memmove(buf + at + k, buf + at, n - at);
        memcpy(buf + at, o->text + from, k);
        *len = n + k;
        return "splice-in";
    }
    case 5: { /* insert a token */
        const char *t = tokens[below(s, sizeof tokens / sizeof *tokens)];
        size_t k = strlen(t);
        if (n + k > MAX_MUTANT)
            return "none";
        memmove(buf + at + k, buf + at, n - at);
        memcpy(buf + at, t, k);
        *len = n + k;
        return "token";
    }
    default: { /* replace a number in the text by a token: reaches the checks of values */
        size_t start = below(s, n ? n : 1), k = 0;
        while (start < n && !(buf[start] >= '0' && buf[start] <= '9'))
            start++;
        while (start + k < n &&
               ((buf[start + k] >= '0' && buf[start + k] <= '9') || buf[start + k] == '.'))
            k++;
        if (!k)
            return "none";
        const char *t = tokens[below(s, 16)];
        size_t tl = strlen(t);
        if (n - k + tl > MAX_MUTANT)
            return "none";
        memmove(buf + start + tl, buf + start + k, n - start - k);
        memcpy(buf + start, t, tl);
        *len = n - k + tl;
        return "number";
    }
    }
}

/* Mutant k, a pure function of (seed, k): one in five mutates a machine model that a host
 * program runs on, the others a program. Fills its bytes, its file name in the scratch
 * directory, the words after "pdlc" and what was done (for the report). */
static void make_mutant(uint64_t seed, long k, char *buf, size_t *len, char *file, size_t nfile,
                        char *args, size_t nargs, char *what, size_t nwhat)
{
    uint64_t s = seed ^ ((uint64_t)k * 0xD1B54A32D192ED03u);
    int machine = nmach > 0 && k % 5 == 4;
    const example *e = machine ? &mach[(k / 5) % nmach] : &ex[k % nex];
    memcpy(buf, e->text, e->len);
    *len = e->len;
    size_t nmut = 1 + below(&s, 3) + (below(&s, 8) == 0 ? 4 : 0);
    size_t used = (size_t)snprintf(what, nwhat, "%s:", e->name);
    for (size_t m = 0; m < nmut; m++) {
        const char *op = mutate_once(&s, buf, len);
        if (used < nwhat)
            used += (size_t)snprintf(what + used, nwhat - used, " %s", op);
    }
    /* Small p and lattices keep runs short; the options vary so more of pdlc is reached. The
       generic model's bounds and Markov chain are left to the fuzz harness, which caps the
       graph size: here they would take seconds per run under the sanitizers. */
    const char *opt[] = {"",
                         "",
                         "",
                         " -q 0.5,0.99",
                         " -f json",
                         " --precision 2048",
                         " -M simulate --samples 64 --threads 1 --procs 1,3",
                         " -f table"};
    const char *o = opt[below(&s, sizeof opt / sizeof *opt)];
    if (fixed_options)
        o = fixed_options;
    if (machine) {
        const char *host = hosts[(k / 5) % 2];
        const example *h = NULL;
        for (int i = 0; i < nex; i++)
            if (strcmp(ex[i].name, host) == 0)
                h = &ex[i];
        snprintf(file, nfile, "mutant-%ld.mdl", k);
        snprintf(args, nargs, "%s %s --machine %s --max-procs 4 --precision 512%s", host,
                 h ? h->args : "", file, o);
    } else {
        snprintf(file, nfile, "mutant-%ld.pdl", k);
        snprintf(args, nargs, "%s %s --max-procs 4 --precision 512%s", file, e->args, o);
    }
}

static int by_name(const void *a, const void *b)
{
    return strcmp(((const example *)a)->name, ((const example *)b)->name);
}

/* Copies the examples' data files (NUMERICAL histograms, machines) into dir. */
static int copy_data(const char *src, const char *dir)
{
    DIR *d = opendir(src);
    if (!d)
        return -1;
    struct dirent *de;
    while ((de = readdir(d))) {
        if (de->d_name[0] == '.' || rob_is_program(de->d_name))
            continue;
        char from[4096], to[4096];
        snprintf(from, sizeof from, "%s/%s", src, de->d_name);
        snprintf(to, sizeof to, "%s/%s", dir, de->d_name);
        size_t n;
        char *data = rob_slurp(from, &n);
        if (data)
            rob_write(to, data, n);
        free(data);
    }
    closedir(d);
    return 0;
}

static int load_examples(const char *src)
{
    DIR *d = opendir(src);
    if (!d)
        return -1;
    struct dirent *de;
    while ((de = readdir(d)) && nex < MAX_EXAMPLES && nmach < MAX_EXAMPLES) {
        size_t l = strlen(de->d_name);
        int program = rob_is_program(de->d_name);
        if (!program && !(l > 4 && strcmp(de->d_name + l - 4, ".mdl") == 0))
            continue;
        char path[4096];
        snprintf(path, sizeof path, "%s/%s", src, de->d_name);
        example *e = program ? &ex[nex] : &mach[nmach];
        e->text = rob_slurp(path, &e->len);
        if (!e->text || e->len > MAX_MUTANT / 2) {
            free(e->text);
            continue;
        }
        e->name = strdup(de->d_name);
        rob_example_args(e->text, e->args, sizeof e->args);
        if (program)
            nex++;
        else
            nmach++;
    }
    closedir(d);
    qsort(ex, (size_t)nex, sizeof *ex, by_name);
    qsort(mach, (size_t)nmach, sizeof *mach, by_name);
    return nex ? 0 : -1;
}

typedef struct slot {
    int busy;
    long k;
    rob_proc proc;
    char file[64];
    char args[1024];
    char what[256];
    char *bytes;
    size_t len;
} slot;

/* What is wrong with a finished run, or NULL. */
static const char *judge(const rob_result *r)
{
    const char *bad = rob_sane(r);
    if (bad)
        return bad;
    if (r->status == 2)
        return "exit status 2 (usage) for a valid command line";
    /* pdlc prints results only once every row is computed: a failed run prints none. */
    if (r->status == 1 && r->outlen)
        return "status 1 but results were printed";
    if (r->status == 1 && !rob_has_located_error(r->err, NULL))
        return rob_has_plain_error(r->err) ? "status 1 with only unplaced errors (pdlc: error:)"
                                           : "status 1 without any error message";
    if (r->status == 0 && r->outlen == 0)
        return "status 0 but nothing printed";
    return NULL;
}

static void report(const char *faildir, const char *examples, slot *sl, const rob_result *r,
                   const char *why, const char *pdlc)
{
    mkdir(faildir, 0777);
    copy_data(examples, faildir);
    for (int i = 0; i < nex; i++) { /* the hosts of machine mutants */
        char host[4200];
        snprintf(host, sizeof host, "%s/%s", faildir, ex[i].name);
        rob_write(host, ex[i].text, ex[i].len);
    }
    char path[4200];
    snprintf(path, sizeof path, "%s/%s", faildir, sl->file);
    rob_write(path, sl->bytes, sl->len);
    snprintf(path, sizeof path, "%s/mutant-%ld.txt", faildir, sl->k);
    FILE *f = fopen(path, "w");
    if (f) {
        fprintf(f, "mutant %ld (%s)\nfailure: %s\nreproduce: cd %s && %s %s\n", sl->k, sl->what,
                why, faildir, pdlc, sl->args);
        fprintf(f, "exit status %d, signal %d, %.2f s\n--- stderr\n%s", r->status, r->signal,
                r->seconds, r->err);
        fclose(f);
    }
    fprintf(stderr, "FAIL mutant %ld (%s): %s\n  reproduce: cd %s && %s %s\n", sl->k, sl->what, why,
            faildir, pdlc, sl->args);
    /* The first lines of stderr say most of what happened. */
    const char *e = r->err;
    for (int line = 0; line < 8 && *e; line++) {
        const char *nl = strchr(e, '\n');
        int n = nl ? (int)(nl - e) : (int)strlen(e);
        fprintf(stderr, "  | %.*s\n", n, e);
        e += n + (nl != NULL);
    }
}

int main(int argc, char **argv)
{
    if (argc < 4) {
        fputs(
            "usage: mutate PDLC EXAMPLES_DIR FAILDIR [COUNT [FIRST [SEED [JOBS [' OPTIONS']]]]]\n",
            stderr);
        return 2;
    }
    char pdlc[4096];
    if (!realpath(argv[1], pdlc)) {
        perror(argv[1]);
        return 2;
    }
    const char *examples = argv[2], *faildir = argv[3];
    long count = argc > 4 ? atol(argv[4]) : 1000, first = argc > 5 ? atol(argv[5]) : 0;
    uint64_t seed = argc > 6 ? strtoull(argv[6], NULL, 0) : 20261121u;
    long jobs = argc > 7 ? atol(argv[7]) : sysconf(_SC_NPROCESSORS_ONLN);
    if (jobs < 1)
        jobs = 1;
    if (jobs > MAX_JOBS)
        jobs = MAX_JOBS;
    fixed_options = argc > 8 ? argv[8] : NULL;
    if (load_examples(examples) != 0) {
        fprintf(stderr, "mutate: no examples in %s\n", examples);
        return 2;
    }
    char scratch[] = "/tmp/pdlc-mutate-XXXXXX";
    if (!mkdtemp(scratch) || copy_data(examples, scratch) != 0) {
        perror("mutate: scratch directory");
        return 2;
    }
    for (int i = 0; i < nex; i++) {
        char path[4200];
        snprintf(path, sizeof path, "%s/%s", scratch, ex[i].name);
        rob_write(path, ex[i].text, ex[i].len);
    }

    slot slots[MAX_JOBS] = {0};
    long next = first, done = 0, failed = 0, by_status[3] = {0};
    double slowest = 0;
    long slowest_k = -1;
    while (done < count) {
        int idle = 1;
        for (long j = 0; j < jobs; j++) {
            slot *sl = &slots[j];
            if (!sl->busy && next < first + count) {
                sl->k = next++;
                sl->bytes = malloc(MAX_MUTANT);
                make_mutant(seed, sl->k, sl->bytes, &sl->len, sl->file, sizeof sl->file, sl->args,
                            sizeof sl->args, sl->what, sizeof sl->what);
                char path[4200];
                snprintf(path, sizeof path, "%s/%s", scratch, sl->file);
                rob_write(path, sl->bytes, sl->len);
                char *av[64], copy[1024];
                int ac = 0;
                av[ac++] = pdlc;
                strcpy(copy, sl->args);
                char *save = NULL;
                for (char *w = strtok_r(copy, " ", &save); w && ac < 63;
                     w = strtok_r(NULL, " ", &save))
                    av[ac++] = w;
                av[ac] = NULL;
                if (rob_start(&sl->proc, av, scratch, TIME_LIMIT) != 0) {
                    perror("mutate: cannot start pdlc");
                    return 2;
                }
                sl->busy = 1;
                idle = 0;
            }
            rob_result r;
            if (sl->busy && rob_poll(&sl->proc, &r)) {
                const char *why = judge(&r);
                if (why) {
                    failed++;
                    report(faildir, examples, sl, &r, why, pdlc);
                } else {
                    by_status[r.status]++;
                }
                if (r.seconds > slowest) {
                    slowest = r.seconds;
                    slowest_k = sl->k;
                }
                char path[4200];
                snprintf(path, sizeof path, "%s/%s", scratch, sl->file);
                remove(path);
                free(sl->bytes);
                rob_free(&r);
                sl->busy = 0;
                done++;
                idle = 0;
            }
        }
        if (idle) {
            struct timespec ts = {0, 2000000};
            nanosleep(&ts, NULL);
        }
    }
    /* The scratch directory held only copies of the data files by now. */
    DIR *d = opendir(scratch);
    struct dirent *de;
    while (d && (de = readdir(d))) {
        char path[4200];
        snprintf(path, sizeof path, "%s/%s", scratch, de->d_name);
        if (de->d_name[0] != '.')
            remove(path);
    }
    if (d)
        closedir(d);
    rmdir(scratch);
    printf("mutate: %ld mutants (%ld..%ld, seed %llu): %ld exit 0, %ld exit 1, %ld failed; "
           "slowest %.2f s (mutant %ld)\n",
           count, first, first + count - 1, (unsigned long long)seed, by_status[0], by_status[1],
           failed, slowest, slowest_k);
    for (int e = 0; e < nex; e++) {
        free(ex[e].name);
        free(ex[e].text);
    }
    for (int e = 0; e < nmach; e++) {
        free(mach[e].name);
        free(mach[e].text);
    }
    return failed ? 1 : 0;
}
