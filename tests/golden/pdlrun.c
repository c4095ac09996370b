/* pdlrun: popen-based runner for tests that check relations between pdlc's columns (bounds
 * around simulations, quadrature), where a golden text comparison cannot say what is meant. */
#define _DEFAULT_SOURCE /* mkstemps */
#include "pdlrun.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static char *slurp(FILE *f)
{
    size_t cap = 4096, n = 0;
    char *s = malloc(cap);
    size_t k;
    while (s && (k = fread(s + n, 1, cap - n - 1, f)) > 0) {
        n += k;
        if (cap - n - 1 == 0) {
            char *ns = realloc(s, cap *= 2);
            if (!ns) {
                free(s);
                return NULL;
            }
            s = ns;
        }
    }
    if (s)
        s[n] = '\0';
    return s;
}

static char **split(char *line, size_t *n)
{
    size_t cap = 8;
    char **v = malloc(cap * sizeof *v);
    *n = 0;
    for (char *p = line; v;) {
        char *c = strchr(p, ',');
        if (c)
            *c = '\0';
        if (*n == cap)
            v = realloc(v, (cap *= 2) * sizeof *v);
        if (v)
            v[(*n)++] = strdup(p);
        if (!c)
            break;
        p = c + 1;
    }
    return v;
}

int pdlrun(const char *pdlc, const char *args, pdlrun_table *t)
{
    memset(t, 0, sizeof *t);
    char errpath[] = "/tmp/pdlrun-err-XXXXXX";
    int fd = mkstemp(errpath);
    if (fd < 0)
        return -1;
    close(fd);
    size_t len = strlen(pdlc) + strlen(args) + strlen(errpath) + 32;
    char *cmd = malloc(len);
    snprintf(cmd, len, "'%s' %s 2>'%s'", pdlc, args, errpath);
    FILE *f = popen(cmd, "r");
    free(cmd);
    char *out = f ? slurp(f) : NULL;
    int st = f ? pclose(f) : -1;
    t->status = st >= 0 && WIFEXITED(st) ? WEXITSTATUS(st) : -1;
    FILE *e = fopen(errpath, "r");
    t->err = e ? slurp(e) : strdup("");
    if (e)
        fclose(e);
    remove(errpath);
    if (!out)
        return -1;
    char *save = NULL;
    char *line = strtok_r(out, "\n", &save);
    if (line) {
        t->cols = split(line, &t->ncols);
        for (line = strtok_r(NULL, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
            size_t n;
            char **row = split(line, &n);
            t->cells = realloc(t->cells, (t->nrows + 1) * sizeof *t->cells);
            t->cells[t->nrows++] = row;
        }
    }
    free(out);
    return t->status == 0 && t->cols ? 0 : -1;
}

void pdlrun_free(pdlrun_table *t)
{
    for (size_t r = 0; r < t->nrows; r++) {
        for (size_t c = 0; c < t->ncols; c++)
            free(t->cells[r][c]);
        free(t->cells[r]);
    }
    free(t->cells);
    for (size_t c = 0; c < t->ncols; c++)
        free(t->cols[c]);
    free(t->cols);
    free(t->err);
    memset(t, 0, sizeof *t);
}

int pdlrun_col(const pdlrun_table *t, const char *name)
{
    for (size_t c = 0; c < t->ncols; c++)
        if (strcmp(t->cols[c], name) == 0)
            return (int)c;
    return -1;
}

double pdlrun_num(const pdlrun_table *t, size_t row, const char *name)
{
    int c = pdlrun_col(t, name);
    return c < 0 || row >= t->nrows ? NAN : atof(t->cells[row][c]);
}

const char *pdlrun_str(const pdlrun_table *t, size_t row, const char *name)
{
    int c = pdlrun_col(t, name);
    return c < 0 || row >= t->nrows ? "" : t->cells[row][c];
}

char *pdlrun_tempfile(const char *text, const char *suffix)
{
    char *path = malloc(64);
    snprintf(path, 64, "/tmp/pdlrun-XXXXXX%s", suffix);
    int fd = mkstemps(path, (int)strlen(suffix));
    if (fd < 0) {
        free(path);
        return NULL;
    }
    FILE *f = fdopen(fd, "w");
    fputs(text, f);
    fclose(f);
    return path;
}
