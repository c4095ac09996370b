/* golden: runs golden CLI tests kept as data files against the real pdlc binary.
 * A .test file holds cases; each case gives arguments, input files, and the exact expected
 * stdout, stderr and exit status (or numbers compared with a relative tolerance).
 *
 * Format (lines starting with "=== " or "--- " are markers, everything else is content):
 *   === ID: what the case checks
 *   --- args                     one line of arguments (words; 'single quotes' group)
 *   --- file NAME                a file written into the case's fresh directory
 *   --- stdin                    standard input (default: empty)
 *   --- stdout                   expected standard output, exactly (default: empty)
 *   --- stdout numeric TOL       expected stdout; numbers compared within relative TOL
 *   --- stderr                   expected standard error, exactly (default: empty)
 *   --- status                   expected exit status (default: 0)
 *   --- expect-file NAME         the exact content NAME must have after the run
 * After every run the case's directory must hold no "*.tmp.*" file (pdlc writes atomically).
 * One blank line before "=== " separates cases and belongs to no section.
 * Environment: GOLDEN_WRAPPER="valgrind -q --error-exitcode=99 ..." runs pdlc under a tool.
 * Each case runs in its own temporary directory with a 20 s limit. */
#define _XOPEN_SOURCE   700 /* nftw */
#define _DEFAULT_SOURCE     /* mkdtemp */
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

typedef struct buf {
    char *s;
    size_t len, cap;
} buf;

static void buf_add(buf *b, const char *s, size_t n)
{
    if (b->len + n + 1 > b->cap) {
        size_t cap = (b->len + n + 1) * 2;
        char *ns = realloc(b->s, cap);
        if (!ns) {
            fputs("golden: out of memory\n", stderr);
            exit(2);
        }
        b->s = ns;
        b->cap = cap;
    }
    memcpy(b->s + b->len, s, n);
    b->len += n;
    b->s[b->len] = '\0';
}

typedef struct tfile {
    char *name;
    buf content;
} tfile;

typedef struct tcase {
    char *id;
    int line;
    buf args, in, out, err;
    int have_status, status;
    double tol; /* < 0: exact stdout */
    tfile files[16];
    int nfiles;
    tfile expect[4];
    int nexpect;
} tcase;

static void case_free(tcase *c)
{
    free(c->id);
    free(c->args.s);
    free(c->in.s);
    free(c->out.s);
    free(c->err.s);
    for (int k = 0; k < c->nfiles; k++) {
        free(c->files[k].name);
        free(c->files[k].content.s);
    }
    for (int k = 0; k < c->nexpect; k++) {
        free(c->expect[k].name);
        free(c->expect[k].content.s);
    }
    memset(c, 0, sizeof *c);
}

static char *read_all(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    buf b = {0};
    char tmp[65536];
    size_t n;
    while ((n = fread(tmp, 1, sizeof tmp, f)) > 0)
        buf_add(&b, tmp, n);
    fclose(f);
    if (!b.s)
        buf_add(&b, "", 0);
    *len = b.len;
    return b.s;
}

static int write_file(const char *dir, const char *name, const buf *content)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    /* Create intermediate directories for names like "data/x.dat". */
    for (char *p = path + strlen(dir) + 1; *p; p++) {
        if (*p == '/') {
            *p = '\0';
            mkdir(path, 0777);
            *p = '/';
        }
    }
    FILE *f = fopen(path, "wb");
    if (!f)
        return -1;
    if (content->len)
        fwrite(content->s, 1, content->len, f);
    return fclose(f);
}

static int rm_entry(const char *path, const struct stat *sb, int flag, struct FTW *ftw)
{
    (void)sb;
    (void)flag;
    (void)ftw;
    return remove(path);
}

static char *leftover; /* a "*.tmp.*" file found after a run */

static int find_tmp(const char *path, const struct stat *sb, int flag, struct FTW *ftw)
{
    (void)sb;
    (void)ftw;
    if (flag == FTW_F && strstr(path + ftw->base, ".tmp.") && !leftover)
        leftover = strdup(path);
    return 0;
}

/* Splits one line into words; 'single quotes' group and are removed. */
static int split_args(const char *line, char **argv, int max)
{
    int n = 0;
    const char *p = line;
    while (*p && n < max - 1) {
        while (*p == ' ' || *p == '\t' || *p == '\n')
            p++;
        if (!*p)
            break;
        buf w = {0};
        while (*p && *p != ' ' && *p != '\t' && *p != '\n') {
            if (*p == '\'') {
                const char *q = strchr(p + 1, '\'');
                if (!q)
                    q = p + strlen(p);
                buf_add(&w, p + 1, (size_t)(q - p - 1));
                p = *q ? q + 1 : q;
            } else {
                buf_add(&w, p, 1);
                p++;
            }
        }
        if (!w.s)
            buf_add(&w, "", 0);
        argv[n++] = w.s;
    }
    argv[n] = NULL;
    return n;
}

static int numeric_equal(const char *exp, const char *got, double tol, char *why, size_t whylen)
{
    const char *delims = ", \t\n";
    char *e = strdup(exp), *g = strdup(got);
    char *se, *sg;
    char *te = strtok_r(e, delims, &se), *tg = strtok_r(g, delims, &sg);
    int ok = 1, field = 0;
    while (ok && (te || tg)) {
        field++;
        if (!te || !tg) {
            snprintf(why, whylen, "field %d: %s where %s was expected", field,
                     tg ? tg : "end of output", te ? te : "end of output");
            ok = 0;
            break;
        }
        char *ee, *eg;
        double a = strtod(te, &ee), b = strtod(tg, &eg);
        if (*ee == '\0' && *eg == '\0' && ee != te && eg != tg) {
            double scale = fmax(fabs(a), fabs(b));
            if (!(fabs(a - b) <= tol * scale || a == b)) {
                snprintf(why, whylen, "field %d: %s differs from expected %s (relative %.3g > %g)",
                         field, tg, te, fabs(a - b) / scale, tol);
                ok = 0;
            }
        } else if (strcmp(te, tg) != 0) {
            snprintf(why, whylen, "field %d: '%s' where '%s' was expected", field, tg, te);
            ok = 0;
        }
        te = strtok_r(NULL, delims, &se);
        tg = strtok_r(NULL, delims, &sg);
    }
    free(e);
    free(g);
    return ok;
}

static void show(const char *label, const char *text)
{
    fprintf(stderr, "  --- %s\n", label);
    const char *p = text;
    while (*p) {
        const char *nl = strchr(p, '\n');
        size_t n = nl ? (size_t)(nl - p) : strlen(p);
        fprintf(stderr, "  | %.*s\n", (int)n, p);
        p += n + (nl != NULL);
    }
}

static int run_case(const char *pdlc, const char *file, tcase *c)
{
    char tmpl[] = "/tmp/pdlc-golden-XXXXXX";
    char *dir = mkdtemp(tmpl);
    if (!dir) {
        perror("golden: mkdtemp");
        return 0;
    }
    for (int k = 0; k < c->nfiles; k++)
        if (write_file(dir, c->files[k].name, &c->files[k].content) != 0)
            fprintf(stderr, "golden: cannot write %s\n", c->files[k].name);
    buf in_name = {0};
    buf_add(&in_name, "", 0);
    char path_in[4200], path_out[4200], path_err[4200];
    snprintf(path_in, sizeof path_in, "%s/.stdin", dir);
    snprintf(path_out, sizeof path_out, "%s/.stdout", dir);
    snprintf(path_err, sizeof path_err, "%s/.stderr", dir);
    FILE *fi = fopen(path_in, "wb");
    if (fi) {
        if (c->in.len)
            fwrite(c->in.s, 1, c->in.len, fi);
        fclose(fi);
    }
    free(in_name.s);

    char *argv[256];
    int argc = 0;
    const char *wrapper = getenv("GOLDEN_WRAPPER");
    if (wrapper && *wrapper)
        argc = split_args(wrapper, argv, 64);
    argv[argc++] = strdup(pdlc);
    argc += split_args(c->args.s ? c->args.s : "", argv + argc, 256 - argc);

    pid_t pid = fork();
    if (pid == 0) {
        if (chdir(dir) != 0)
            _exit(127);
        int fdi = open(path_in, O_RDONLY), fdo = open(path_out, O_WRONLY | O_CREAT | O_TRUNC, 0666),
            fde = open(path_err, O_WRONLY | O_CREAT | O_TRUNC, 0666);
        if (fdi < 0 || fdo < 0 || fde < 0)
            _exit(127);
        dup2(fdi, 0);
        dup2(fdo, 1);
        dup2(fde, 2);
        execvp(argv[0], argv);
        _exit(127);
    }
    int status = -1, timed_out = 0;
    if (pid > 0) {
        struct timespec start, now;
        clock_gettime(CLOCK_MONOTONIC, &start);
        for (;;) {
            pid_t r = waitpid(pid, &status, WNOHANG);
            if (r == pid)
                break;
            clock_gettime(CLOCK_MONOTONIC, &now);
            if (now.tv_sec - start.tv_sec > 20) {
                kill(pid, SIGKILL);
                waitpid(pid, &status, 0);
                timed_out = 1;
                break;
            }
            struct timespec ts = {0, 2000000};
            nanosleep(&ts, NULL);
        }
    }
    for (int k = 0; k < argc; k++)
        free(argv[k]);

    size_t lo = 0, le = 0;
    char *out = read_all(path_out, &lo), *err = read_all(path_err, &le);
    if (!out)
        out = strdup("");
    if (!err)
        err = strdup("");
    int ok = 1;
    char why[512] = "";
    for (int k = 0; k < c->nexpect && ok; k++) {
        char path[4200];
        size_t len;
        snprintf(path, sizeof path, "%s/%s", dir, c->expect[k].name);
        char *got = read_all(path, &len);
        const char *want = c->expect[k].content.s ? c->expect[k].content.s : "";
        if (!got || strcmp(got, want) != 0) {
            ok = 0;
            snprintf(why, sizeof why, "file %s %s", c->expect[k].name,
                     got ? "differs from what was expected" : "is missing");
            if (got)
                show("actual content", got);
        }
        free(got);
    }
    leftover = NULL;
    nftw(dir, find_tmp, 16, FTW_PHYS);
    if (ok && leftover) {
        ok = 0;
        snprintf(why, sizeof why, "a temporary file was left behind: %s", leftover);
    }
    free(leftover);
    nftw(dir, rm_entry, 16, FTW_DEPTH | FTW_PHYS);

    const char *expect_out = c->out.s ? c->out.s : "";
    const char *expect_err = c->err.s ? c->err.s : "";
    int expect_status = c->have_status ? c->status : 0;
    if (timed_out) {
        ok = 0;
        snprintf(why, sizeof why, "timed out after 20 s");
    } else if (WIFSIGNALED(status)) {
        ok = 0;
        snprintf(why, sizeof why, "killed by signal %d", WTERMSIG(status));
    } else if (!WIFEXITED(status) || WEXITSTATUS(status) != expect_status) {
        ok = 0;
        snprintf(why, sizeof why, "exit status %d, expected %d",
                 WIFEXITED(status) ? WEXITSTATUS(status) : -1, expect_status);
    } else if (c->tol >= 0 ? !numeric_equal(expect_out, out, c->tol, why, sizeof why)
                           : strcmp(expect_out, out) != 0) {
        ok = 0;
        if (!why[0])
            snprintf(why, sizeof why, "stdout differs");
    } else if (strcmp(expect_err, err) != 0) {
        ok = 0;
        snprintf(why, sizeof why, "stderr differs");
    }
    if (!ok) {
        fprintf(stderr, "FAIL %s (%s:%d): %s\n", c->id, file, c->line, why);
        show("expected stdout", expect_out);
        show("actual stdout", out);
        show("expected stderr", expect_err);
        show("actual stderr", err);
    }
    free(out);
    free(err);
    return ok;
}

int main(int argc, char **argv)
{
    if (argc < 3) {
        fputs("usage: golden PDLC FILE.test...\n", stderr);
        return 2;
    }
    char pdlc[4096];
    if (!realpath(argv[1], pdlc)) {
        fprintf(stderr, "golden: %s: %s\n", argv[1], strerror(errno));
        return 2;
    }
    int failed = 0, total = 0;
    for (int a = 2; a < argc; a++) {
        FILE *f = fopen(argv[a], "r");
        if (!f) {
            fprintf(stderr, "golden: %s: %s\n", argv[a], strerror(errno));
            return 2;
        }
        tcase c = {0};
        c.tol = -1;
        int have = 0, lineno = 0;
        buf *section = NULL;
        char *line = NULL;
        size_t cap = 0;
        ssize_t n;
        for (;;) {
            n = getline(&line, &cap, f);
            lineno += n >= 0;
            int marker_case = n >= 4 && strncmp(line, "=== ", 4) == 0;
            if (n < 0 || marker_case) {
                /* The separating blank line is not part of the last section. */
                if (section && section->len && section->s[section->len - 1] == '\n' &&
                    (section->len == 1 || section->s[section->len - 2] == '\n'))
                    section->s[--section->len] = '\0';
                if (have) {
                    total++;
                    failed += !run_case(pdlc, argv[a], &c);
                    case_free(&c);
                    c.tol = -1;
                }
                if (n < 0)
                    break;
                have = 1;
                line[strcspn(line, "\n")] = '\0';
                c.id = strdup(line + 4);
                c.line = lineno;
                section = NULL;
                continue;
            }
            if (n >= 4 && strncmp(line, "--- ", 4) == 0) {
                char *s = line + 4;
                s[strcspn(s, "\n")] = '\0';
                if (strcmp(s, "args") == 0) {
                    section = &c.args;
                } else if (strncmp(s, "file ", 5) == 0 && c.nfiles < 16) {
                    c.files[c.nfiles].name = strdup(s + 5);
                    section = &c.files[c.nfiles++].content;
                } else if (strncmp(s, "expect-file ", 12) == 0 && c.nexpect < 4) {
                    c.expect[c.nexpect].name = strdup(s + 12);
                    section = &c.expect[c.nexpect++].content;
                    buf_add(section, "", 0);
                } else if (strcmp(s, "stdin") == 0) {
                    section = &c.in;
                } else if (strcmp(s, "stdout") == 0) {
                    section = &c.out;
                    buf_add(section, "", 0);
                } else if (strncmp(s, "stdout numeric ", 15) == 0) {
                    section = &c.out;
                    buf_add(section, "", 0);
                    c.tol = atof(s + 15);
                } else if (strcmp(s, "stderr") == 0) {
                    section = &c.err;
                    buf_add(section, "", 0);
                } else if (strcmp(s, "status") == 0) {
                    section = NULL;
                    c.have_status = 1;
                    if (getline(&line, &cap, f) > 0) {
                        lineno++;
                        c.status = atoi(line);
                    }
                } else {
                    fprintf(stderr, "golden: %s:%d: unknown section '%s'\n", argv[a], lineno, s);
                    return 2;
                }
                continue;
            }
            if (section && have)
                buf_add(section, line, (size_t)n);
        }
        free(line);
        fclose(f);
    }
    printf("%d of %d golden cases passed\n", total - failed, total);
    return failed ? 1 : 0;
}
