/* pdl_report: tables of results and their textual forms. Columns are found by name by every
 * consumer, so adding a column (bounds, simulation, sweeps) never shifts another. */
#define _DEFAULT_SOURCE /* mkstemp, fsync */
#include "pdl_report.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

typedef struct cell {
    int kind; /* 0 empty, 1 number, 2 string */
    double num;
    char *str;
} cell;

struct pdl_table {
    char **cols;
    size_t ncols;
    cell *cells; /* rows * ncols */
    size_t nrows, caprows;
};

pdl_table *pdl_table_alloc(const char *const *columns, size_t ncols)
{
    pdl_table *t = calloc(1, sizeof *t);
    if (!t)
        return NULL;
    t->cols = calloc(ncols ? ncols : 1, sizeof *t->cols);
    if (!t->cols) {
        free(t);
        return NULL;
    }
    t->ncols = ncols;
    for (size_t k = 0; k < ncols; k++) {
        t->cols[k] = strdup(columns[k]);
        if (!t->cols[k]) {
            pdl_table_free(t);
            return NULL;
        }
    }
    return t;
}

void pdl_table_free(pdl_table *t)
{
    if (!t)
        return;
    for (size_t k = 0; k < t->ncols; k++)
        free(t->cols[k]);
    free(t->cols);
    for (size_t k = 0; k < t->nrows * t->ncols; k++)
        free(t->cells[k].str);
    free(t->cells);
    free(t);
}

size_t pdl_table_add_row(pdl_table *t)
{
    if (t->nrows == t->caprows) {
        size_t cap = t->caprows ? t->caprows * 2 : 16;
        cell *c = realloc(t->cells, cap * t->ncols * sizeof *c);
        if (!c)
            return (size_t)-1;
        t->cells = c;
        t->caprows = cap;
    }
    memset(&t->cells[t->nrows * t->ncols], 0, t->ncols * sizeof *t->cells);
    return t->nrows++;
}

int pdl_table_set_num(pdl_table *t, size_t row, size_t col, double v)
{
    cell *c = &t->cells[row * t->ncols + col];
    free(c->str);
    c->str = NULL;
    c->kind = 1;
    c->num = v;
    return 0;
}

int pdl_table_set_str(pdl_table *t, size_t row, size_t col, const char *s)
{
    cell *c = &t->cells[row * t->ncols + col];
    char *d = strdup(s);
    if (!d)
        return -1;
    free(c->str);
    c->str = d;
    c->kind = 2;
    return 0;
}

size_t pdl_table_rows(const pdl_table *t)
{
    return t->nrows;
}

size_t pdl_table_cols(const pdl_table *t)
{
    return t->ncols;
}

size_t pdl_table_col(const pdl_table *t, const char *name)
{
    for (size_t k = 0; k < t->ncols; k++)
        if (strcmp(t->cols[k], name) == 0)
            return k;
    return (size_t)-1;
}

double pdl_table_num(const pdl_table *t, size_t row, size_t col)
{
    return t->cells[row * t->ncols + col].num;
}

const char *pdl_table_col_name(const pdl_table *t, size_t col)
{
    return t->cols[col];
}

void pdl_table_cell_text(const pdl_table *t, size_t row, size_t col, char *buf, size_t size)
{
    const cell *c = &t->cells[row * t->ncols + col];
    char num[PDL_NUM_TEXT_MAX];
    if (size == 0)
        return;
    /* Formatted in full first: pdl_format_number trims zeros after it prints, so printing into a
       short buffer would trim a cut-off number into a different one. */
    if (c->kind == 1)
        pdl_format_number(num, sizeof num, c->num);
    snprintf(buf, size, "%s", c->kind == 1 ? num : c->kind == 2 ? c->str : "");
}

int pdl_table_is_num(const pdl_table *t, size_t row, size_t col)
{
    return t->cells[row * t->ncols + col].kind == 1;
}

void pdl_format_number(char *buf, size_t size, double v)
{
    if (!isfinite(v)) {
        snprintf(buf, size, "%s", isnan(v) ? "nan" : v > 0 ? "inf" : "-inf");
        return;
    }
    if (v == 0) {
        snprintf(buf, size, "0");
        return;
    }
    int e = (int)floor(log10(fabs(v)));
    int decimals = 9 - e;
    if (decimals < 0)
        decimals = 0;
    if (decimals > 340) /* the smallest subnormal, 4.9e-324, needs 333 */
        decimals = 340;
    snprintf(buf, size, "%.*f", decimals, v);
    char *dot = strchr(buf, '.');
    if (dot) {
        char *end = buf + strlen(buf) - 1;
        while (end > dot && *end == '0')
            *end-- = '\0';
        if (end == dot)
            *end = '\0';
    }
    if (strcmp(buf, "-0") == 0)
        snprintf(buf, size, "0");
}

static void put_json_string(FILE *out, const char *s)
{
    fputc('"', out);
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\')
            fprintf(out, "\\%c", c);
        else if (c < 0x20)
            fprintf(out, "\\u%04x", c);
        else
            fputc(c, out);
    }
    fputc('"', out);
}

/* A CSV field: quoted only when it holds a comma, a quote or a line break (RFC 4180). */
static void put_csv_string(FILE *out, const char *s)
{
    if (!strpbrk(s, ",\"\r\n")) {
        fputs(s, out);
        return;
    }
    fputc('"', out);
    for (; *s; s++) {
        if (*s == '"')
            fputc('"', out);
        fputc(*s, out);
    }
    fputc('"', out);
}

static void put_cell(FILE *out, const cell *c, int json)
{
    char buf[PDL_NUM_TEXT_MAX];
    if (c->kind == 1 && json && !isfinite(c->num)) {
        fputs("null", out); /* JSON has no nan or inf; pdlc never makes them, but stay valid */
    } else if (c->kind == 1) {
        pdl_format_number(buf, sizeof buf, c->num);
        fputs(buf, out);
    } else if (c->kind == 2) {
        if (json)
            put_json_string(out, c->str);
        else
            put_csv_string(out, c->str);
    } else if (json) {
        fputs("null", out);
    }
}

/* The terminal table's text of a cell: the CSV text of a number, a string as it is. */
static const char *cell_str(const cell *c, char *buf, size_t size)
{
    if (c->kind == 1) {
        pdl_format_number(buf, size, c->num);
        return buf;
    }
    return c->kind == 2 ? c->str : "";
}

/* Columns on a terminal: one per character, not per byte, so UTF-8 names (machine or phase
   names) keep the columns straight; continuation bytes take no column. */
static size_t text_width(const char *s)
{
    size_t w = 0;
    for (; *s; s++)
        if (((unsigned char)*s & 0xC0) != 0x80)
            w++;
    return w;
}

/* Spaces are held back and written only when something visible follows, so no line ever ends in
   spaces, whatever the padding, an empty last cell or a string's own trailing blanks. A control
   character becomes a space: a line break inside a cell would tear every column apart. */
typedef struct line_out {
    FILE *out;
    size_t pending;
} line_out;

static void put_padded(line_out *l, const char *s)
{
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c <= ' ' || c == 0x7F) {
            l->pending++;
            continue;
        }
        for (; l->pending; l->pending--)
            fputc(' ', l->out);
        fputc(c, l->out);
    }
}

static void end_line(line_out *l)
{
    l->pending = 0;
    fputc('\n', l->out);
}

/* A column is right-aligned, header included, when it holds numbers and nothing else. */
static int write_table(FILE *out, const pdl_table *t)
{
    size_t n = t->ncols ? t->ncols : 1;
    size_t *width = calloc(n, sizeof *width);
    int *right = calloc(n, sizeof *right);
    char buf[PDL_NUM_TEXT_MAX];
    if (!width || !right) {
        free(width);
        free(right);
        return -1;
    }
    for (size_t k = 0; k < t->ncols; k++) {
        width[k] = text_width(t->cols[k]);
        int nums = 0, strs = 0;
        for (size_t r = 0; r < t->nrows; r++) {
            const cell *c = &t->cells[r * t->ncols + k];
            size_t w = text_width(cell_str(c, buf, sizeof buf));
            if (w > width[k])
                width[k] = w;
            nums += c->kind == 1;
            strs += c->kind == 2;
        }
        right[k] = nums > 0 && strs == 0;
    }
    line_out l = {out, 0};
    for (size_t k = 0; k < t->ncols; k++) {
        size_t pad = width[k] - text_width(t->cols[k]);
        l.pending += k ? 2 : 0;
        l.pending += right[k] ? pad : 0;
        put_padded(&l, t->cols[k]);
        l.pending += right[k] ? 0 : pad;
    }
    end_line(&l);
    for (size_t k = 0; k < t->ncols; k++) {
        l.pending += k ? 2 : 0;
        for (size_t i = 0; i < width[k]; i++)
            put_padded(&l, "-");
    }
    end_line(&l);
    for (size_t r = 0; r < t->nrows; r++) {
        for (size_t k = 0; k < t->ncols; k++) {
            const cell *c = &t->cells[r * t->ncols + k];
            const char *s = cell_str(c, buf, sizeof buf);
            size_t pad = width[k] - text_width(s);
            /* Numbers right-aligned in any column, so a mixed column still lines up digits. */
            int r_align = c->kind == 1;
            l.pending += k ? 2 : 0;
            l.pending += r_align ? pad : 0;
            put_padded(&l, s);
            l.pending += r_align ? 0 : pad;
        }
        end_line(&l);
    }
    free(width);
    free(right);
    return 0;
}

int pdl_table_write(FILE *out, const pdl_table *t, pdl_format fmt, const char *program)
{
    if (fmt == PDL_FMT_TABLE) {
        if (write_table(out, t) != 0)
            return -1;
    } else if (fmt == PDL_FMT_CSV) {
        for (size_t k = 0; k < t->ncols; k++) {
            if (k)
                fputc(',', out);
            put_csv_string(out, t->cols[k]);
        }
        fputc('\n', out);
        for (size_t r = 0; r < t->nrows; r++) {
            for (size_t k = 0; k < t->ncols; k++) {
                if (k)
                    fputc(',', out);
                put_cell(out, &t->cells[r * t->ncols + k], 0);
            }
            fputc('\n', out);
        }
    } else {
        fputs("{\n  \"program\": ", out);
        put_json_string(out, program ? program : "");
        fputs(",\n  \"columns\": [", out);
        for (size_t k = 0; k < t->ncols; k++) {
            fputs(k ? ", " : "", out);
            put_json_string(out, t->cols[k]);
        }
        fputs("],\n  \"rows\": [", out);
        for (size_t r = 0; r < t->nrows; r++) {
            fputs(r ? ",\n    {" : "\n    {", out);
            for (size_t k = 0; k < t->ncols; k++) {
                fputs(k ? ", " : "", out);
                put_json_string(out, t->cols[k]);
                fputs(": ", out);
                put_cell(out, &t->cells[r * t->ncols + k], 1);
            }
            fputc('}', out);
        }
        fputs(t->nrows ? "\n  ]\n}\n" : "]\n}\n", out);
    }
    return ferror(out) ? -1 : 0;
}

int pdl_write_atomic(const char *path, int (*write)(FILE *out, void *ctx), void *ctx, FILE *err)
{
    if (strcmp(path, "-") == 0) {
        if (write(stdout, ctx) != 0 || fflush(stdout) != 0) {
            fprintf(err, "pdlc: error: writing standard output: %s\n", strerror(errno));
            return -1;
        }
        return 0;
    }
    /* A device or a pipe (-o /dev/null, a FIFO) cannot be replaced by a rename, nor should it
       be: it is written in place, and there is nothing half-written to protect. */
    struct stat st;
    if (stat(path, &st) == 0 && !S_ISREG(st.st_mode)) {
        FILE *f = S_ISDIR(st.st_mode) ? NULL : fopen(path, "w");
        int saved = f ? 0 : S_ISDIR(st.st_mode) ? EISDIR : errno;
        int rc = f ? write(f, ctx) : -1;
        if (f && rc == 0 && fflush(f) != 0) {
            rc = -1;
            saved = errno;
        }
        if (f && fclose(f) != 0 && rc == 0) {
            rc = -1;
            saved = errno;
        }
        if (rc != 0)
            fprintf(err, "pdlc: error: cannot write '%s': %s\n", path,
                    saved ? strerror(saved) : "write error");
        return rc;
    }
    size_t n = strlen(path);
    char *tmp = malloc(n + 16);
    if (!tmp) {
        fprintf(err, "pdlc: error: out of memory\n");
        return -1;
    }
    snprintf(tmp, n + 16, "%s.tmp.XXXXXX", path);
    int fd = mkstemp(tmp);
    if (fd < 0) {
        fprintf(err, "pdlc: error: cannot write '%s': %s\n", path, strerror(errno));
        free(tmp);
        return -1;
    }
    /* mkstemp makes the file private; the result should have the usual permissions. */
    mode_t mask = umask(0);
    umask(mask);
    fchmod(fd, 0666 & ~mask);
    FILE *f = fdopen(fd, "w");
    int rc = -1, saved = 0;
    if (f) {
        rc = write(f, ctx);
        if (fflush(f) != 0 || fsync(fd) != 0)
            rc = -1;
        saved = errno;
        if (fclose(f) != 0 && rc == 0) {
            rc = -1;
            saved = errno;
        }
    } else {
        saved = errno;
        close(fd);
    }
    if (rc == 0 && rename(tmp, path) != 0) {
        rc = -1;
        saved = errno;
    }
    if (rc != 0) {
        fprintf(err, "pdlc: error: cannot write '%s': %s\n", path,
                saved ? strerror(saved) : "write error");
        remove(tmp);
    }
    free(tmp);
    return rc;
}
