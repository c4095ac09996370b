/* msgcover: checks that every diagnostic pdlc can print is pinned by some golden test.
 * It extracts the format string of each pdl_error/pdl_warning (and of the helpers that feed
 * them) from the sources, turns it into a pattern ("%s" matches anything), and looks for a
 * line "...: error: <text>" or "...: warning: <text>" in the .test files that matches it.
 *   usage: msgcover SOURCE... -- TESTFILE...
 * A few messages cannot be provoked from a test (out of memory, defensive checks behind
 * earlier ones); they are listed in `unreachable` below with the reason. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct msg {
    char *fmt;
    const char *file;
    int line;
} msg;

static const struct {
    const char *prefix;
    const char *why;
} unreachable[] = {
    {"out of memory", "allocation failure"},
    {"scanner failure", "flex fails only when out of memory"},
    {"expression has no numeric value", "every operation checks its result first, so NaN "
                                        "cannot arise from finite operands"},
    {"unknown function", "in pdl_expr.c: the checker rejects unknown functions first (its own "
                         "message is covered)"},
    {"wrong number of arguments", "the checker rejects wrong arities first"},
    {"MESSAGE TIME cannot be evaluated", "the checker rejects names MESSAGE TIME cannot use"},
    {"too many data lines", "needs a data file of more than 10^7 lines"},
    {"the execution pattern has more than", "needs more than 10^6 pairs of consecutive phases"},
    {"'%s' is too large", "needs a source file over 16 MiB (covered by a unit test)"},
    {"expression cannot be evaluated here", "the checker resolves every name an expression uses"},
    {"processor count %llu is outside", "the command line accepts only 1..PDL_MAX_PROCS"},
    {"phase '%s' has %zu tasks", "needs a program of more than 10^5 TASK clauses"},
    {"the mean runtime for p = %llu is not a finite number",
     "the solver refuses non-finite moments first (gen-1.5 shows its message)"},
    {"%s", "a message passed through (bison's, or a helper's, covered at its origin)"},
};

static char *slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *s = malloc((size_t)n + 1);
    if (s && fread(s, 1, (size_t)n, f) != (size_t)n) {
        free(s);
        s = NULL;
    }
    fclose(f);
    if (s) {
        s[n] = '\0';
        *len = (size_t)n;
    }
    return s;
}

/* Reads adjacent C string literals starting at p (which points at '"'); returns the joined text. */
static char *literal(const char *p)
{
    size_t cap = 256, n = 0;
    char *out = malloc(cap);
    while (out && *p == '"') {
        for (p++; *p && *p != '"'; p++) {
            char c = *p;
            if (c == '\\' && p[1]) {
                p++;
                c = *p == 'n' ? '\n' : *p == 't' ? '\t' : *p;
            }
            if (n + 2 > cap) {
                cap *= 2;
                char *o = realloc(out, cap);
                if (!o) {
                    free(out);
                    return NULL;
                }
                out = o;
            }
            out[n++] = c;
        }
        if (*p == '"')
            p++;
        while (*p == ' ' || *p == '\n' || *p == '\t')
            p++;
    }
    if (out)
        out[n] = '\0';
    return out;
}

/* Glob match where a printf conversion in the pattern matches any text. */
static int match(const char *pat, const char *s)
{
    if (*pat == '\0')
        return *s == '\0';
    if (pat[0] == '%' && pat[1] == '%')
        return *s == '%' && match(pat + 2, s + 1);
    if (*pat == '%') {
        const char *q = pat + 1;
        while (*q && strchr("0123456789.-+ #*lzhj", *q))
            q++;
        if (*q)
            q++; /* the conversion letter */
        for (const char *t = s;; t++) {
            if (match(q, t))
                return 1;
            if (!*t)
                return 0;
        }
    }
    return *pat == *s && match(pat + 1, s + 1);
}

int main(int argc, char **argv)
{
    static const char *const callers[] = {"pdl_error(", "pdl_warning(", "fail(", "usage_error(",
                                          "snprintf(msg,"};
    msg *msgs = NULL;
    size_t nmsgs = 0;
    int k = 1;
    for (; k < argc && strcmp(argv[k], "--") != 0; k++) {
        size_t len;
        char *src = slurp(argv[k], &len);
        if (!src) {
            fprintf(stderr, "msgcover: cannot read %s\n", argv[k]);
            return 2;
        }
        for (size_t c = 0; c < sizeof callers / sizeof *callers; c++) {
            for (char *p = strstr(src, callers[c]); p; p = strstr(p + 1, callers[c])) {
                if (p > src && (p[-1] == '_' || (p[-1] >= 'a' && p[-1] <= 'z')))
                    continue; /* part of a longer name */
                char *q = p + strlen(callers[c]);
                int depth = 1;
                while (*q && *q != '"' && depth > 0) {
                    depth += (*q == '(') - (*q == ')');
                    q++;
                }
                if (*q != '"' || depth == 0)
                    continue;
                /* Skip declarations: "pdl_error(pdl_diag *d, ..." has no literal before ')'. */
                char *fmt = literal(q);
                if (!fmt)
                    return 2;
                int line = 1;
                for (char *t = src; t < p; t++)
                    line += *t == '\n';
                /* A message built with snprintf is part of a larger one: match anywhere. */
                if (strncmp(callers[c], "snprintf", 8) == 0) {
                    char *wide = malloc(strlen(fmt) + 5);
                    if (!wide)
                        return 2;
                    sprintf(wide, "%%s%s%%s", fmt);
                    free(fmt);
                    fmt = wide;
                }
                msgs = realloc(msgs, (nmsgs + 1) * sizeof *msgs);
                msgs[nmsgs++] = (msg){fmt, argv[k], line};
            }
        }
        free(src);
    }
    if (k >= argc) {
        fputs("usage: msgcover SOURCE... -- TESTFILE...\n", stderr);
        return 2;
    }
    /* Collect the diagnostic lines of every test file. */
    char **lines = NULL;
    size_t nlines = 0;
    for (k++; k < argc; k++) {
        size_t len;
        char *t = slurp(argv[k], &len);
        if (!t) {
            fprintf(stderr, "msgcover: cannot read %s\n", argv[k]);
            return 2;
        }
        for (char *line = strtok(t, "\n"); line; line = strtok(NULL, "\n")) {
            const char *kinds[] = {": error: ", ": warning: "};
            for (int j = 0; j < 2; j++) {
                char *at = strstr(line, kinds[j]);
                if (at) {
                    lines = realloc(lines, (nlines + 1) * sizeof *lines);
                    lines[nlines++] = strdup(at + strlen(kinds[j]));
                    break;
                }
            }
        }
        free(t);
    }
    int missing = 0;
    size_t covered = 0, excused = 0;
    for (size_t m = 0; m < nmsgs; m++) {
        int skip = 0;
        for (size_t u = 0; u < sizeof unreachable / sizeof *unreachable && !skip; u++) {
            const char *pre = unreachable[u].prefix;
            skip = strcmp(pre, "%s") == 0 ? strcmp(msgs[m].fmt, "%s") == 0
                                          : strncmp(msgs[m].fmt, pre, strlen(pre)) == 0;
        }
        if (skip) {
            excused++;
            continue;
        }
        int found = 0;
        for (size_t l = 0; l < nlines && !found; l++)
            found = match(msgs[m].fmt, lines[l]);
        if (found) {
            covered++;
        } else {
            fprintf(stderr, "%s:%d: no golden test shows: %s\n", msgs[m].file, msgs[m].line,
                    msgs[m].fmt);
            missing++;
        }
    }
    printf("%zu messages covered, %zu unreachable by design, %d not covered\n", covered, excused,
           missing);
    for (size_t m = 0; m < nmsgs; m++)
        free(msgs[m].fmt);
    free(msgs);
    for (size_t l = 0; l < nlines; l++)
        free(lines[l]);
    free(lines);
    return missing ? 1 : 0;
}
