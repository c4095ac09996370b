/* pdl_report: pdlc's results as a table of named columns, written as CSV, JSON or an aligned
 * terminal table, to standard output or atomically to a file (never half-written). */
#ifndef PDL_REPORT_H
#define PDL_REPORT_H

#include <stddef.h>
#include <stdio.h>

typedef enum pdl_format { PDL_FMT_CSV, PDL_FMT_JSON, PDL_FMT_TABLE } pdl_format;

typedef struct pdl_table pdl_table;

/* A table with the given column names (copied). NULL when out of memory. */
pdl_table *pdl_table_alloc(const char *const *columns, size_t ncols);
void pdl_table_free(pdl_table *t);
/* Appends an empty row; returns its index, or (size_t)-1 when out of memory. */
size_t pdl_table_add_row(pdl_table *t);
/* Sets a cell (columns by index). A string is copied. Return 0, or -1 out of memory. */
int pdl_table_set_num(pdl_table *t, size_t row, size_t col, double v);
int pdl_table_set_str(pdl_table *t, size_t row, size_t col, const char *s);
size_t pdl_table_rows(const pdl_table *t);
size_t pdl_table_cols(const pdl_table *t);
/* The column's index by name, or (size_t)-1. */
size_t pdl_table_col(const pdl_table *t, const char *name);
double pdl_table_num(const pdl_table *t, size_t row, size_t col);
/* The column's name; owned by the table. */
const char *pdl_table_col_name(const pdl_table *t, size_t col);
/* The cell as text: numbers as pdl_format_number, strings as is, "" when empty. Cut to size like
 * snprintf (a number needs at most PDL_NUM_TEXT_MAX bytes). */
void pdl_table_cell_text(const pdl_table *t, size_t row, size_t col, char *buf, size_t size);
/* Whether a cell holds a number (0 for strings and empty cells). */
int pdl_table_is_num(const pdl_table *t, size_t row, size_t col);

/* Bytes pdl_format_number may need with its NUL: -1.7e308 written out has 310 characters,
 * -4.9e-324 (ten significant digits of the smallest subnormal) 336. */
#define PDL_NUM_TEXT_MAX 352

/* Plain decimal with 10 significant digits, no exponent, trailing zeros removed ("160",
 * "87.10463212", "0.000001234567891"), however small or large the value. Non-finite values are
 * written as "nan"/"inf" only if they slip through; pdlc never produces them. */
void pdl_format_number(char *buf, size_t size, double v);

/* Writes the table: CSV with a header line, a JSON object {"program": ..., "columns": [...],
 * "rows": [{column: value, ...}, ...]}, or for a terminal a table with a header, a rule of
 * dashes, columns two spaces apart, numbers right-aligned (the same text as in CSV), strings
 * left-aligned, no trailing spaces. Returns 0, or -1 on a write error. */
int pdl_table_write(FILE *out, const pdl_table *t, pdl_format fmt, const char *program);

/* Writes with `write(out, ctx)` to `path` atomically: to a temporary file in the same directory,
 * then renamed over path; on any failure the temporary is removed, path is untouched, and a
 * message goes to err. "-" writes to standard output. Returns 0 or -1. */
int pdl_write_atomic(const char *path, int (*write)(FILE *out, void *ctx), void *ctx, FILE *err);

#endif
