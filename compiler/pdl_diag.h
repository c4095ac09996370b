/* pdl_diag: the source files pdlc reads and the diagnostics it prints about them.
 * Locations are byte ranges in a registered source; line and column are computed only
 * when a diagnostic is printed (GNU form, then the source line with a gutter and caret). */
#ifndef PDL_DIAG_H
#define PDL_DIAG_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* A byte range [begin, end) in source `file` (an id from pdl_diag_add_source; 0 = no place). */
typedef struct pdl_loc {
    uint32_t file;
    uint32_t begin, end;
} pdl_loc;

typedef struct pdl_diag pdl_diag;

/* Largest source file accepted, in bytes (an input limit, reported when exceeded). */
#define PDL_MAX_SOURCE_BYTES (16u * 1024u * 1024u)
/* Errors after which pdlc stops reporting (the rest would mostly be consequences). */
#define PDL_MAX_ERRORS 50

/* Diagnostics are written to `out` (borrowed; stderr in pdlc, a memory stream in tests).
 * Returns NULL when out of memory. */
pdl_diag *pdl_diag_alloc(FILE *out);
void pdl_diag_free(pdl_diag *d);

/* Registers a copy of text[0..len) under `path`; *id receives the source id (>= 1).
 * Returns 0, or -1 when out of memory or too large (reported as an error). */
int pdl_diag_add_source(pdl_diag *d, const char *path, const char *text, size_t len, uint32_t *id);
/* Reads a whole file and registers it. On failure returns -1 and reports an error at
 * `from` (the place that named the file; file 0 for the command line). */
int pdl_diag_load_file(pdl_diag *d, const char *path, pdl_loc from, uint32_t *id);
const char *pdl_diag_text(const pdl_diag *d, uint32_t id, size_t *len);
const char *pdl_diag_path(const pdl_diag *d, uint32_t id);
/* 1-based line and column (counted in characters) of a byte offset in a source. */
void pdl_diag_linecol(pdl_diag *d, uint32_t id, uint32_t offset, unsigned *line, unsigned *col);

#if defined(__GNUC__)
#define PDL_PRINTF(a, b) __attribute__((format(printf, a, b)))
#else
#define PDL_PRINTF(a, b)
#endif

void pdl_error(pdl_diag *d, pdl_loc at, const char *fmt, ...) PDL_PRINTF(3, 4);
void pdl_warning(pdl_diag *d, pdl_loc at, const char *fmt, ...) PDL_PRINTF(3, 4);
/* A note belongs to the error or warning printed just before it; its source line is shown
 * only when it points somewhere else. */
void pdl_note(pdl_diag *d, pdl_loc at, const char *fmt, ...) PDL_PRINTF(3, 4);

size_t pdl_diag_errors(const pdl_diag *d);
size_t pdl_diag_warnings(const pdl_diag *d);
/* Warnings are not printed (still counted) while quiet is set. */
void pdl_diag_set_quiet_warnings(pdl_diag *d, int quiet);
/* Holds back what follows: errors are neither printed nor counted, only the first one's message
 * is kept; warnings and notes are dropped. For work whose failure costs a column, not the run.
 * pdl_diag_release ends it and returns the number of errors held; *first is the first message
 * (valid until the next hold). */
void pdl_diag_hold(pdl_diag *d);
size_t pdl_diag_release(pdl_diag *d, const char **first);
/* A progress line for a terminal: replaces the previous one in place. The next diagnostic, or
 * pdl_diag_progress_end, erases it first, so it never mixes with what follows. */
void pdl_diag_progress(pdl_diag *d, const char *fmt, ...) PDL_PRINTF(2, 3);
void pdl_diag_progress_end(pdl_diag *d);

/* The closest candidate to `name` by edit distance, if close enough to be a likely typo;
 * NULL otherwise. */
const char *pdl_closest(const char *name, const char *const *candidates, size_t n);

/* Writes s with control and non-ASCII bytes escaped (\xHH) into buf (always terminated). */
const char *pdl_escape(const char *s, size_t len, char *buf, size_t bufsize);

#endif
