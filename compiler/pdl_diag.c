/* pdl_diag: owns the text of every source pdlc reads and prints GCC-style diagnostics.
 * Invariant: a pdl_loc's range lies within its source's text (end may equal the length). */
#include "pdl_diag.h"

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

typedef struct source {
    char *path;
    char *text;
    size_t len;
    uint32_t *line_starts; /* built on first use */
    size_t nlines;
} source;

struct pdl_diag {
    FILE *out;
    source *src;
    size_t nsrc, capsrc;
    size_t errors, warnings;
    int quiet_warnings;
    int suppressed;  /* set once PDL_MAX_ERRORS is reached */
    pdl_loc last;    /* place of the last error or warning, for notes */
    int last_shown;  /* whether that last diagnostic was printed */
    int progress;    /* a progress line is on the terminal */
    int holding;     /* see pdl_diag_hold */
    size_t held;     /* errors held */
    char first[256]; /* the first held error's message */
};

pdl_diag *pdl_diag_alloc(FILE *out)
{
    pdl_diag *d = calloc(1, sizeof *d);
    if (d)
        d->out = out;
    return d;
}

void pdl_diag_free(pdl_diag *d)
{
    if (!d)
        return;
    for (size_t i = 0; i < d->nsrc; i++) {
        free(d->src[i].path);
        free(d->src[i].text);
        free(d->src[i].line_starts);
    }
    free(d->src);
    free(d);
}

static source *get_source(const pdl_diag *d, uint32_t id)
{
    if (id == 0 || id > d->nsrc)
        return NULL;
    return &d->src[id - 1];
}

int pdl_diag_add_source(pdl_diag *d, const char *path, const char *text, size_t len, uint32_t *id)
{
    if (len > PDL_MAX_SOURCE_BYTES) {
        pdl_error(d, (pdl_loc){0, 0, 0}, "'%s' is too large (%zu bytes; the limit is %u bytes)",
                  path, len, PDL_MAX_SOURCE_BYTES);
        return -1;
    }
    if (d->nsrc == d->capsrc) {
        size_t cap = d->capsrc ? d->capsrc * 2 : 4;
        source *s = realloc(d->src, cap * sizeof *s);
        if (!s)
            return -1;
        d->src = s;
        d->capsrc = cap;
    }
    source *s = &d->src[d->nsrc];
    memset(s, 0, sizeof *s);
    s->path = malloc(strlen(path) + 1);
    s->text = malloc(len + 1);
    if (!s->path || !s->text) {
        free(s->path);
        free(s->text);
        return -1;
    }
    strcpy(s->path, path);
    if (len)
        memcpy(s->text, text, len);
    s->text[len] = '\0';
    s->len = len;
    d->nsrc++;
    *id = (uint32_t)d->nsrc;
    return 0;
}

int pdl_diag_load_file(pdl_diag *d, const char *path, pdl_loc from, uint32_t *id)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        pdl_error(d, from, "cannot open '%s': %s", path, strerror(errno));
        return -1;
    }
    size_t cap = 4096, len = 0;
    char *buf = malloc(cap);
    int rc = -1;
    while (buf) {
        if (len == cap) {
            if (cap > PDL_MAX_SOURCE_BYTES) {
                pdl_error(d, from, "'%s' is too large (more than %u bytes)", path,
                          PDL_MAX_SOURCE_BYTES);
                goto done;
            }
            char *nb = realloc(buf, cap * 2);
            if (!nb)
                break;
            buf = nb;
            cap *= 2;
        }
        size_t n = fread(buf + len, 1, cap - len, f);
        len += n;
        if (n == 0) {
            if (ferror(f)) {
                pdl_error(d, from, "cannot read '%s': %s", path, strerror(errno));
                goto done;
            }
            /* Said here, where the place that named the file is known (a NUMERICAL clause). */
            if (len > PDL_MAX_SOURCE_BYTES)
                pdl_error(d, from, "'%s' is too large (%zu bytes; the limit is %u bytes)", path,
                          len, PDL_MAX_SOURCE_BYTES);
            else
                rc = pdl_diag_add_source(d, path, buf, len, id);
            goto done;
        }
    }
    pdl_error(d, from, "out of memory reading '%s'", path);
done:
    free(buf);
    fclose(f);
    return rc;
}

const char *pdl_diag_text(const pdl_diag *d, uint32_t id, size_t *len)
{
    source *s = get_source(d, id);
    if (!s)
        return NULL;
    if (len)
        *len = s->len;
    return s->text;
}

const char *pdl_diag_path(const pdl_diag *d, uint32_t id)
{
    source *s = get_source(d, id);
    return s ? s->path : "pdlc";
}

static int build_lines(source *s)
{
    size_t n = 1;
    for (size_t i = 0; i < s->len; i++)
        n += s->text[i] == '\n';
    s->line_starts = malloc(n * sizeof *s->line_starts);
    if (!s->line_starts)
        return -1;
    size_t k = 0;
    s->line_starts[k++] = 0;
    for (size_t i = 0; i < s->len; i++)
        if (s->text[i] == '\n')
            s->line_starts[k++] = (uint32_t)(i + 1);
    s->nlines = n;
    return 0;
}

/* Index of the line holding `offset` (binary search over line starts). */
static size_t line_index(source *s, uint32_t offset)
{
    size_t lo = 0, hi = s->nlines;
    while (hi - lo > 1) {
        size_t mid = lo + (hi - lo) / 2;
        if (s->line_starts[mid] <= offset)
            lo = mid;
        else
            hi = mid;
    }
    return lo;
}

void pdl_diag_linecol(pdl_diag *d, uint32_t id, uint32_t offset, unsigned *line, unsigned *col)
{
    source *s = get_source(d, id);
    *line = *col = 0;
    if (!s || (!s->line_starts && build_lines(s) != 0))
        return;
    if (offset > s->len)
        offset = (uint32_t)s->len;
    size_t li = line_index(s, offset);
    *line = (unsigned)(li + 1);
    /* Columns count characters: UTF-8 continuation bytes do not start a new column. */
    unsigned c = 1;
    for (uint32_t k = s->line_starts[li]; k < offset; k++)
        c += ((unsigned char)s->text[k] & 0xC0) != 0x80;
    *col = c;
}

/* Prints the source line of `at` with a gutter, then the caret line underlining the range
 * (clipped to that line). Tabs are echoed in the underline so the caret stays aligned;
 * UTF-8 continuation bytes take no column. */
static void show_source(pdl_diag *d, pdl_loc at, unsigned line)
{
    source *s = get_source(d, at.file);
    if (!s || !s->line_starts)
        return;
    uint32_t ls = s->line_starts[line - 1];
    uint32_t le = ls;
    while (le < s->len && s->text[le] != '\n')
        le++;
    if (le > ls && s->text[le - 1] == '\r')
        le--;
    int width = line >= 10000 ? snprintf(NULL, 0, "%u", line) + 1 : 5;
    fprintf(d->out, "%*u | ", width, line);
    for (uint32_t i = ls; i < le; i++) {
        unsigned char c = (unsigned char)s->text[i];
        fputc(c == '\t' || c >= 0x80 || isprint(c) ? c : '?', d->out);
    }
    fprintf(d->out, "\n%*s | ", width, "");
    uint32_t b = at.begin < ls ? ls : at.begin;
    uint32_t e = at.end > le ? le : at.end;
    if (b > le)
        b = le;
    for (uint32_t i = ls; i < b; i++) {
        unsigned char c = (unsigned char)s->text[i];
        if ((c & 0xC0) == 0x80)
            continue;
        fputc(c == '\t' ? '\t' : ' ', d->out);
    }
    fputc('^', d->out);
    for (uint32_t i = b + 1; i < e; i++)
        if (((unsigned char)s->text[i] & 0xC0) != 0x80)
            fputc('~', d->out);
    fputc('\n', d->out);
}

static void emit(pdl_diag *d, const char *kind, pdl_loc at, int show, const char *fmt, va_list ap)
    PDL_PRINTF(5, 0);
static void emit(pdl_diag *d, const char *kind, pdl_loc at, int show, const char *fmt, va_list ap)
{
    pdl_diag_progress_end(d);
    source *s = get_source(d, at.file);
    unsigned line = 0, col = 0;
    if (s) {
        pdl_diag_linecol(d, at.file, at.begin, &line, &col);
        fprintf(d->out, "%s:%u:%u: %s: ", s->path, line, col, kind);
    } else {
        fprintf(d->out, "pdlc: %s: ", kind);
    }
    vfprintf(d->out, fmt, ap);
    fputc('\n', d->out);
    if (s && show && line)
        show_source(d, at, line);
}

void pdl_error(pdl_diag *d, pdl_loc at, const char *fmt, ...)
{
    if (d->holding) {
        if (d->held++ == 0) {
            va_list ap;
            va_start(ap, fmt);
            vsnprintf(d->first, sizeof d->first, fmt, ap);
            va_end(ap);
        }
        d->last_shown = 0; /* its notes are held with it */
        return;
    }
    d->errors++;
    d->last = at;
    d->last_shown = !d->suppressed;
    if (d->suppressed)
        return;
    va_list ap;
    va_start(ap, fmt);
    emit(d, "error", at, 1, fmt, ap);
    va_end(ap);
    if (d->errors >= PDL_MAX_ERRORS) {
        fprintf(d->out, "pdlc: note: stopping after %d errors\n", PDL_MAX_ERRORS);
        d->suppressed = 1;
    }
}

void pdl_warning(pdl_diag *d, pdl_loc at, const char *fmt, ...)
{
    if (d->holding) {
        d->last_shown = 0;
        return;
    }
    d->warnings++;
    d->last = at;
    d->last_shown = !d->quiet_warnings && !d->suppressed;
    if (!d->last_shown)
        return;
    va_list ap;
    va_start(ap, fmt);
    emit(d, "warning", at, 1, fmt, ap);
    va_end(ap);
}

void pdl_note(pdl_diag *d, pdl_loc at, const char *fmt, ...)
{
    if (!d->last_shown)
        return;
    int same = at.file == d->last.file && at.begin == d->last.begin && at.end == d->last.end;
    va_list ap;
    va_start(ap, fmt);
    emit(d, "note", at, !same, fmt, ap);
    va_end(ap);
}

size_t pdl_diag_errors(const pdl_diag *d)
{
    return d->errors;
}

size_t pdl_diag_warnings(const pdl_diag *d)
{
    return d->warnings;
}

void pdl_diag_set_quiet_warnings(pdl_diag *d, int quiet)
{
    d->quiet_warnings = quiet;
}

void pdl_diag_hold(pdl_diag *d)
{
    d->holding = 1;
    d->held = 0;
    d->first[0] = '\0';
}

size_t pdl_diag_release(pdl_diag *d, const char **first)
{
    d->holding = 0;
    *first = d->first;
    return d->held;
}

void pdl_diag_progress(pdl_diag *d, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputc('\r', d->out);
    vfprintf(d->out, fmt, ap);
    va_end(ap);
    fputs("\033[K", d->out); /* erase what a longer previous line left */
    fflush(d->out);
    d->progress = 1;
}

void pdl_diag_progress_end(pdl_diag *d)
{
    if (d->progress)
        fputs("\r\033[K", d->out);
    d->progress = 0;
}

/* Optimal string alignment distance (edits incl. one transposition), capped at `cap`. */
static size_t edit_distance(const char *a, const char *b, size_t cap)
{
    size_t la = strlen(a), lb = strlen(b);
    if (la > 64 || lb > 64)
        return cap + 1;
    size_t d[65][65];
    for (size_t i = 0; i <= la; i++)
        d[i][0] = i;
    for (size_t j = 0; j <= lb; j++)
        d[0][j] = j;
    for (size_t i = 1; i <= la; i++) {
        for (size_t j = 1; j <= lb; j++) {
            size_t cost = tolower((unsigned char)a[i - 1]) != tolower((unsigned char)b[j - 1]);
            size_t v = d[i - 1][j] + 1;
            if (d[i][j - 1] + 1 < v)
                v = d[i][j - 1] + 1;
            if (d[i - 1][j - 1] + cost < v)
                v = d[i - 1][j - 1] + cost;
            if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] &&
                d[i - 2][j - 2] + 1 < v)
                v = d[i - 2][j - 2] + 1;
            d[i][j] = v;
        }
    }
    return d[la][lb];
}

const char *pdl_closest(const char *name, const char *const *candidates, size_t n)
{
    size_t len = strlen(name);
    /* One edit for short names, about a third of the length for longer ones. */
    size_t cap = len <= 3 ? 1 : (len + 2) / 3;
    const char *best = NULL;
    size_t bestd = cap + 1;
    for (size_t i = 0; i < n; i++) {
        if (!candidates[i] || strcmp(candidates[i], name) == 0)
            continue;
        size_t dist = edit_distance(name, candidates[i], cap);
        if (dist < bestd) {
            bestd = dist;
            best = candidates[i];
        }
    }
    return best;
}

const char *pdl_escape(const char *s, size_t len, char *buf, size_t bufsize)
{
    size_t k = 0;
    for (size_t i = 0; i < len && k + 5 < bufsize; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c >= 0x20 && c < 0x7f && c != '\\') {
            buf[k++] = (char)c;
        } else {
            k += (size_t)snprintf(buf + k, bufsize - k, "\\x%02X", c);
        }
    }
    if (bufsize)
        buf[k < bufsize ? k : bufsize - 1] = '\0';
    return buf;
}
