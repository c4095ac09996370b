/* robrun: fork/exec of pdlc with a time limit and its output captured in files (no pipes, so a
 * chatty run cannot block), and the output checks shared by the robustness tests. */
#define _DEFAULT_SOURCE /* realpath, mkdtemp */
#include "robrun.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/wait.h>
#include <unistd.h>

static double elapsed(const struct timespec *t0)
{
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (double)(now.tv_sec - t0->tv_sec) + 1e-9 * (double)(now.tv_nsec - t0->tv_nsec);
}

char *rob_slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    size_t cap = 4096, n = 0, k;
    char *s = malloc(cap);
    while (s && (k = fread(s + n, 1, cap - n - 1, f)) > 0) {
        n += k;
        if (n + 1 == cap) {
            char *ns = realloc(s, cap *= 2);
            if (!ns)
                free(s);
            s = ns;
        }
    }
    fclose(f);
    if (s) {
        s[n] = '\0';
        if (len)
            *len = n;
    }
    return s;
}

int rob_write(const char *path, const void *data, size_t len)
{
    FILE *f = fopen(path, "wb");
    if (!f)
        return -1;
    size_t w = len ? fwrite(data, 1, len, f) : 0;
    return fclose(f) == 0 && w == len ? 0 : -1;
}

int rob_start(rob_proc *p, char *const argv[], const char *cwd, double timeout)
{
    const char *tmp = getenv("TMPDIR");
    snprintf(p->dir, sizeof p->dir, "%s/robrun-XXXXXX", tmp && strlen(tmp) < 40 ? tmp : "/tmp");
    if (!mkdtemp(p->dir))
        return -1;
    char out[96], err[96];
    snprintf(out, sizeof out, "%s/out", p->dir);
    snprintf(err, sizeof err, "%s/err", p->dir);
    p->timeout = timeout;
    clock_gettime(CLOCK_MONOTONIC, &p->start);
    p->pid = fork();
    if (p->pid < 0) {
        rmdir(p->dir);
        return -1;
    }
    if (p->pid == 0) {
        int fi = open("/dev/null", O_RDONLY);
        int fo = open(out, O_WRONLY | O_CREAT | O_TRUNC, 0600);
        int fe = open(err, O_WRONLY | O_CREAT | O_TRUNC, 0600);
        if (fi < 0 || fo < 0 || fe < 0 || (cwd && chdir(cwd) != 0))
            _exit(127);
        dup2(fi, 0);
        dup2(fo, 1);
        dup2(fe, 2);
        execv(argv[0], argv);
        _exit(127);
    }
    return 0;
}

int rob_poll(rob_proc *p, rob_result *r)
{
    int st = 0;
    pid_t w = waitpid(p->pid, &st, WNOHANG);
    int timed_out = 0;
    if (w == 0) {
        if (elapsed(&p->start) <= p->timeout)
            return 0;
        /* A hang is a failure of its own: kill it and say so. */
        kill(p->pid, SIGKILL);
        waitpid(p->pid, &st, 0);
        timed_out = 1;
    } else if (w < 0) {
        st = -1;
    }
    memset(r, 0, sizeof *r);
    r->seconds = elapsed(&p->start);
    r->timed_out = timed_out;
    r->status = w >= 0 && WIFEXITED(st) ? WEXITSTATUS(st) : -1;
    r->signal = w >= 0 && WIFSIGNALED(st) ? WTERMSIG(st) : 0;
    char path[96];
    snprintf(path, sizeof path, "%s/out", p->dir);
    r->out = rob_slurp(path, &r->outlen);
    remove(path);
    snprintf(path, sizeof path, "%s/err", p->dir);
    r->err = rob_slurp(path, &r->errlen);
    remove(path);
    rmdir(p->dir);
    if (!r->out) {
        r->out = calloc(1, 1);
        r->outlen = 0;
    }
    if (!r->err) {
        r->err = calloc(1, 1);
        r->errlen = 0;
    }
    return 1;
}

int rob_run(char *const argv[], const char *cwd, double timeout, rob_result *r)
{
    rob_proc p;
    if (rob_start(&p, argv, cwd, timeout) != 0) {
        memset(r, 0, sizeof *r);
        r->status = -1;
        r->out = calloc(1, 1);
        r->err = calloc(1, 1);
        return -1;
    }
    while (!rob_poll(&p, r)) {
        struct timespec ts = {0, 1000000};
        nanosleep(&ts, NULL);
    }
    return 0;
}

int rob_runf(const char *pdlc, const char *args, double timeout, rob_result *r)
{
    char *copy = strdup(args);
    char *argv[128];
    int n = 0;
    argv[n++] = (char *)pdlc;
    char *save = NULL;
    for (char *w = strtok_r(copy, " \t\n", &save); w && n < 127; w = strtok_r(NULL, " \t\n", &save))
        argv[n++] = w;
    argv[n] = NULL;
    int rc = rob_run(argv, NULL, timeout, r);
    free(copy);
    return rc;
}

void rob_free(rob_result *r)
{
    free(r->out);
    free(r->err);
    memset(r, 0, sizeof *r);
}

/* A word that spells a non-finite number as printf or a JSON writer would. */
static int nonfinite_word(const char *w, size_t n)
{
    static const char *const bad[] = {"nan",  "-nan", "+nan",     "inf",
                                      "-inf", "+inf", "infinity", "-infinity"};
    for (size_t k = 0; k < sizeof bad / sizeof *bad; k++)
        if (strlen(bad[k]) == n && strncasecmp(w, bad[k], n) == 0)
            return 1;
    return 0;
}

/* Nonzero when [s, e) holds a non-finite number as a word, outside 'quoted' or "quoted" names
 * (a program may call a phase inf; JSON quotes the program's name). */
static int has_nonfinite(const char *s, const char *e)
{
    char quote = 0;
    while (s < e) {
        if ((*s == '\'' || *s == '"') && (!quote || quote == *s)) {
            quote = quote ? 0 : *s;
            s++;
            continue;
        }
        if (isalnum((unsigned char)*s) || *s == '-' || *s == '+' || *s == '.') {
            const char *b = s;
            while (s < e && (isalnum((unsigned char)*s) || *s == '-' || *s == '+' || *s == '.'))
                s++;
            if (!quote && nonfinite_word(b, (size_t)(s - b)))
                return 1;
        } else {
            s++;
        }
    }
    return 0;
}

const char *rob_sane(const rob_result *r)
{
    if (r->timed_out)
        return "hang: killed after its time limit";
    if (r->signal)
        return "killed by a signal";
    if (r->status < 0 || r->status > 2)
        return "exit status outside 0, 1, 2";
    if (strstr(r->err, "runtime error:") || strstr(r->err, "Sanitizer") ||
        strstr(r->err, "==ERROR"))
        return "sanitizer report";
    if (has_nonfinite(r->out, r->out + r->outlen))
        return "nan or inf in the output";
    /* Diagnostics (not the source lines they quote) must not print non-finite numbers either. */
    for (const char *l = r->err; *l;) {
        const char *e = strchr(l, '\n');
        if (!e)
            e = l + strlen(l);
        const char *m = strstr(l, ": error: ");
        if (!m || m > e)
            m = strstr(l, ": warning: ");
        if (!m || m > e)
            m = strstr(l, ": note: ");
        if (m && m < e && has_nonfinite(m, e))
            return "nan or inf in a diagnostic";
        l = *e ? e + 1 : e;
    }
    if (r->status == 0 && strstr(r->err, ": error: "))
        return "an error was printed but the exit status is 0";
    return NULL;
}

/* Parses "LINE:COL: error: " at s, both numbers >= 1. */
static int line_col_error(const char *s)
{
    for (int field = 0; field < 2; field++) {
        long v = 0;
        if (!isdigit((unsigned char)*s))
            return 0;
        while (isdigit((unsigned char)*s))
            v = v * 10 + (*s++ - '0');
        if (v < 1 || *s++ != ':')
            return 0;
    }
    return strncmp(s, " error: ", 8) == 0;
}

int rob_has_located_error(const char *text, const char *file)
{
    for (const char *l = text; *l;) {
        if (file) {
            size_t n = strlen(file);
            if (strncmp(l, file, n) == 0 && l[n] == ':' && line_col_error(l + n + 1))
                return 1;
        } else {
            /* The file name is whatever comes before the first ":LINE:COL: error: ". */
            for (const char *c = l; *c && *c != '\n'; c++)
                if (*c == ':' && c > l && line_col_error(c + 1))
                    return 1;
        }
        const char *e = strchr(l, '\n');
        l = e ? e + 1 : l + strlen(l);
    }
    return 0;
}

int rob_has_plain_error(const char *text)
{
    for (const char *l = text; *l;) {
        if (strncmp(l, "pdlc: error: ", 13) == 0)
            return 1;
        const char *e = strchr(l, '\n');
        l = e ? e + 1 : l + strlen(l);
    }
    return 0;
}

int rob_close(double got, double want, double tol)
{
    if (!isfinite(got))
        return 0;
    return fabs(got - want) <= tol * fabs(want) || got == want;
}

/* Field k of the line starting at l (fields end at ',' or the line's end). */
static int field(const char *l, size_t k, const char **b, size_t *n)
{
    for (size_t f = 0; f < k; f++) {
        while (*l && *l != ',' && *l != '\n')
            l++;
        if (*l != ',')
            return 0;
        l++;
    }
    const char *e = l;
    while (*e && *e != ',' && *e != '\n')
        e++;
    *b = l;
    *n = (size_t)(e - l);
    return 1;
}

static const char *line_after(const char *l)
{
    const char *e = strchr(l, '\n');
    return e ? e + 1 : NULL;
}

const char *rob_cell_text(const char *csv, size_t row, const char *col, char *buf, size_t len)
{
    buf[0] = '\0';
    size_t k = 0, n;
    const char *b;
    for (; field(csv, k, &b, &n); k++)
        if (n == strlen(col) && strncmp(b, col, n) == 0)
            break;
    if (!field(csv, k, &b, &n))
        return buf;
    const char *l = line_after(csv);
    for (size_t r = 0; l && *l && r < row; r++)
        l = line_after(l);
    if (l && *l && field(l, k, &b, &n)) {
        if (n >= len)
            n = len - 1;
        memcpy(buf, b, n);
        buf[n] = '\0';
    }
    return buf;
}

double rob_cell(const char *csv, size_t row, const char *col)
{
    char buf[128], *end;
    rob_cell_text(csv, row, col, buf, sizeof buf);
    double v = strtod(buf, &end);
    return buf[0] && *end == '\0' ? v : NAN;
}

size_t rob_rows(const char *csv)
{
    size_t n = 0;
    for (const char *l = line_after(csv); l && *l; l = line_after(l))
        n++;
    return n;
}

int rob_suite_init(rob_suite *s, const char *pdlc)
{
    memset(s, 0, sizeof *s);
    if (!realpath(pdlc, s->pdlc)) {
        perror(pdlc);
        return -1;
    }
    snprintf(s->dir, sizeof s->dir, "/tmp/pdlc-robust-XXXXXX");
    if (!mkdtemp(s->dir)) {
        perror("mkdtemp");
        return -1;
    }
    return 0;
}

int rob_suite_end(rob_suite *s, const char *name)
{
    DIR *d = opendir(s->dir);
    struct dirent *de;
    while (d && (de = readdir(d))) {
        char path[4200];
        snprintf(path, sizeof path, "%s/%s", s->dir, de->d_name);
        if (strcmp(de->d_name, ".") != 0 && strcmp(de->d_name, "..") != 0)
            remove(path);
    }
    if (d)
        closedir(d);
    rmdir(s->dir);
    printf("%s: %d checks, %d failed\n", name, s->checks, s->failed);
    return s->failed ? 1 : 0;
}

void rob_fail(rob_suite *s, const char *id, const rob_result *r, const char *fmt, ...)
{
    s->failed++;
    fprintf(stderr, "FAIL %s: ", id);
    va_list ap;
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    if (r) {
        /* Enough of the output to see what happened, not megabytes of it. */
        fprintf(stderr, "  --- stdout\n%.2000s\n  --- stderr\n%.2000s\n", r->out, r->err);
    }
}

int rob_prog(rob_suite *s, const char *id, const char *prog, const char *args, int status,
             double timeout, rob_result *r)
{
    char path[128];
    snprintf(path, sizeof path, "%s/p.pdl", s->dir);
    if (prog)
        rob_write(path, prog, strlen(prog));
    char *line = malloc(strlen(args) + 8), *argv[64];
    sprintf(line, "p.pdl %s", args);
    int n = 0;
    argv[n++] = s->pdlc;
    char *save = NULL;
    for (char *w = strtok_r(line, " ", &save); w && n < 63; w = strtok_r(NULL, " ", &save))
        argv[n++] = w;
    argv[n] = NULL;
    s->checks++;
    int rc = rob_run(argv, s->dir, timeout, r);
    free(line);
    if (rc != 0) {
        rob_fail(s, id, r, "cannot run %s", s->pdlc);
        return -1;
    }
    const char *bad = rob_sane(r);
    if (bad) {
        rob_fail(s, id, r, "pdlc %s: %s (%.1f s)", args, bad, r->seconds);
        return -1;
    }
    if (r->status != status) {
        rob_fail(s, id, r, "pdlc %s: exit status %d, expected %d", args, r->status, status);
        return -1;
    }
    return 0;
}

void rob_expect(rob_suite *s, const char *id, const rob_result *r, size_t row, const char *col,
                double want, double tol, const char *from)
{
    s->checks++;
    double got = rob_cell(r->out, row, col);
    if (!rob_close(got, want, tol))
        rob_fail(s, id, r, "row %zu %s = %.12g, expected %.12g within %g (%s)", row, col, got, want,
                 tol, from);
}

void rob_expect_text(rob_suite *s, const char *id, const rob_result *r, const char *text,
                     const char *needle, int present)
{
    s->checks++;
    if ((strstr(text, needle) != NULL) != present)
        rob_fail(s, id, r, "%s '%s'", present ? "missing" : "should not say", needle);
}

int rob_is_program(const char *name)
{
    size_t l = strlen(name);
    return l > 4 && strcmp(name + l - 4, ".pdl") == 0;
}

void rob_example_args(const char *text, char *out, size_t nout)
{
    out[0] = '\0';
    const char *a = text ? strstr(text, "// pdlc-args:") : NULL;
    if (!a)
        return;
    a += strlen("// pdlc-args:");
    char line[1024];
    snprintf(line, sizeof line, "%.*s", (int)strcspn(a, "\n"), a);
    char *save = NULL;
    size_t used = 0;
    for (char *w = strtok_r(line, " \t", &save); w; w = strtok_r(NULL, " \t", &save)) {
        if (!strcmp(w, "--max-procs") || !strcmp(w, "-P") || !strcmp(w, "--procs")) {
            strtok_r(NULL, " \t", &save);
            continue;
        }
        int k = snprintf(out + used, nout - used, "%s%s", used ? " " : "", w);
        if (k < 0 || (size_t)k >= nout - used)
            break; /* no room for the whole word: stop at the last one that fit */
        used += (size_t)k;
    }
    out[used] = '\0';
}
