/* pdl_numfile: line-oriented parser for measured distributions. Blank lines and `#` comments are
 * skipped; every data line must have the same number of fields (1 = samples, 2 = histogram). */
#include "pdl_numfile.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

typedef struct reader {
    pdl_diag *d;
    uint32_t file;
    const char *text;
    size_t len, pos;
} reader;

static pdl_loc here(const reader *r, size_t b, size_t e)
{
    return (pdl_loc){r->file, (uint32_t)b, (uint32_t)e};
}

/* Parses one field starting at *pos; on success stores it and advances. */
static int field(reader *r, size_t *pos, size_t line_end, double *out)
{
    size_t b = *pos;
    size_t e = b;
    while (e < line_end && !isspace((unsigned char)r->text[e]) && r->text[e] != '#' &&
           r->text[e] != ',')
        e++;
    char buf[128];
    size_t n = e - b;
    if (n >= sizeof buf) {
        pdl_error(r->d, here(r, b, e), "expected a number, found %zu characters", n);
        return -1;
    }
    memcpy(buf, r->text + b, n);
    buf[n] = '\0';
    char *endp;
    errno = 0;
    double v = strtod(buf, &endp);
    if (*endp != '\0' || endp == buf || !isfinite(v) || (errno == ERANGE && fabs(v) > 1)) {
        char esc[160];
        pdl_error(r->d, here(r, b, e), "expected a number, found '%s'",
                  pdl_escape(buf, n, esc, sizeof esc));
        return -1;
    }
    *out = v;
    *pos = e;
    return 0;
}

const pdl_numdata *pdl_numfile_load(pdl_diag *d, pdl_arena *a, const char *path, pdl_loc from)
{
    uint32_t id;
    if (pdl_diag_load_file(d, path, from, &id) != 0)
        return NULL;
    reader r = {d, id, NULL, 0, 0};
    r.text = pdl_diag_text(d, id, &r.len);
    size_t errors = pdl_diag_errors(d);

    size_t cap = 64, n = 0;
    double *vals = malloc(cap * sizeof *vals), *probs = malloc(cap * sizeof *probs);
    int fields_per_line = 0;
    size_t first_data_line = 0;
    if (!vals || !probs)
        goto oom;
    for (size_t pos = 0, line = 1; pos < r.len; line++) {
        size_t le = pos;
        while (le < r.len && r.text[le] != '\n')
            le++;
        size_t next = le < r.len ? le + 1 : le;
        double x[3];
        size_t fb[2] = {0, 0}, fe[2] = {0, 0}; /* each field's byte range */
        int k = 0;
        size_t q = pos;
        for (;;) {
            while (q < le && (isspace((unsigned char)r.text[q]) || r.text[q] == ','))
                q++;
            if (q >= le || r.text[q] == '#')
                break;
            if (k == 2) {
                pdl_error(d, here(&r, q, le), "too many numbers on this line");
                pdl_note(d, here(&r, q, le),
                         "a line holds either one sample or a 'value probability' pair");
                k = -1;
                break;
            }
            fb[k] = q;
            if (field(&r, &q, le, &x[k]) != 0) {
                k = -1;
                break;
            }
            fe[k] = q;
            k++;
        }
        size_t ls = pos; /* this line's start, for diagnostics about the whole line */
        pos = next;
        if (k <= 0) {
            if (k < 0 && pdl_diag_errors(d) - errors >= 10)
                break;
            continue;
        }
        if (fields_per_line == 0) {
            fields_per_line = k;
            first_data_line = line;
        } else if (k != fields_per_line) {
            pdl_error(d, here(&r, ls, le), "line has %d number%s but line %zu has %d", k,
                      k == 1 ? "" : "s", first_data_line, fields_per_line);
            continue;
        }
        if (x[0] < 0) {
            pdl_error(d, here(&r, fb[0], fe[0]), "a runtime must not be negative, got %g", x[0]);
            continue;
        }
        if (k == 2 && (x[1] < 0 || x[1] > 1)) {
            pdl_error(d, here(&r, fb[1], fe[1]), "a probability must be between 0 and 1, got %g",
                      x[1]);
            continue;
        }
        if (n == PDL_NUMFILE_MAX_LINES) {
            pdl_error(d, here(&r, 0, 0), "too many data lines (the limit is %u)",
                      PDL_NUMFILE_MAX_LINES);
            break;
        }
        if (n == cap) {
            cap *= 2;
            double *nv = realloc(vals, cap * sizeof *vals);
            if (!nv)
                goto oom;
            vals = nv;
            double *np = realloc(probs, cap * sizeof *probs);
            if (!np)
                goto oom;
            probs = np;
        }
        vals[n] = x[0];
        probs[n] = k == 2 ? x[1] : 0;
        n++;
    }
    if (pdl_diag_errors(d) == errors && n == 0) {
        pdl_error(d, here(&r, 0, 0), "no data in the file");
        pdl_note(d, here(&r, 0, 0),
                 "a NUMERICAL file holds 'value probability' lines or one sample per line");
    }
    if (pdl_diag_errors(d) == errors && fields_per_line == 2) {
        double sum = 0;
        for (size_t k = 0; k < n; k++)
            sum += probs[k];
        if (fabs(sum - 1) > 1e-6) {
            pdl_error(d, here(&r, 0, 0), "probabilities sum to %.10g, not 1", sum);
        }
    }
    if (pdl_diag_errors(d) != errors && pdl_diag_errors(d) - errors < 10)
        pdl_note(d, from, "in the file read for this distribution");
    pdl_numdata *res = NULL;
    if (pdl_diag_errors(d) == errors) {
        res = pdl_arena_calloc(a, 1, sizeof *res);
        double *av = res ? pdl_arena_calloc(a, n, sizeof *av) : NULL;
        double *ap = res && fields_per_line == 2 ? pdl_arena_calloc(a, n, sizeof *ap) : NULL;
        if (!res || !av || (fields_per_line == 2 && !ap))
            goto oom;
        memcpy(av, vals, n * sizeof *av);
        if (ap)
            memcpy(ap, probs, n * sizeof *ap);
        res->path = pdl_diag_path(d, id);
        res->histogram = fields_per_line == 2;
        res->n = n;
        res->values = av;
        res->probs = ap;
    }
    free(vals);
    free(probs);
    return res;
oom:
    free(vals);
    free(probs);
    pdl_error(d, from, "out of memory reading '%s'", path);
    return NULL;
}
