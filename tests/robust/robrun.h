/* robrun: runs the real pdlc binary from the robustness tests with a time limit, capturing its
 * exit, stdout and stderr; plus the checks every robustness test makes on what pdlc printed. */
#ifndef ROBRUN_H
#define ROBRUN_H

#include <stddef.h>
#include <sys/types.h>
#include <time.h>

typedef struct rob_result {
    int status;    /* exit status, or -1 when pdlc did not exit by itself */
    int signal;    /* the signal that ended it (0 if none, SIGKILL after a timeout) */
    int timed_out; /* killed after the time limit */
    double seconds;
    char *out, *err; /* everything written to stdout and stderr, NUL-terminated */
    size_t outlen, errlen;
} rob_result;

/* A run in progress (rob_start / rob_poll), so a test can keep several going at once. */
typedef struct rob_proc {
    pid_t pid;
    double timeout;
    struct timespec start;
    char dir[64]; /* a private directory holding the captured output */
} rob_proc;

/* Starts argv (argv[0] a path) in directory cwd (NULL: the current one) with an empty stdin.
 * Returns 0, or -1 when it could not be started. */
int rob_start(rob_proc *p, char *const argv[], const char *cwd, double timeout);
/* 1 and *r filled (owned by the caller, rob_free) once the run is over (it is killed when over
 * its time); 0 while it still runs. */
int rob_poll(rob_proc *p, rob_result *r);
/* rob_start, then rob_poll until done. Returns 0, or -1 when pdlc could not be started. */
int rob_run(char *const argv[], const char *cwd, double timeout, rob_result *r);
/* rob_run with the words of `args` (blank-separated, no quoting) after the binary. */
int rob_runf(const char *pdlc, const char *args, double timeout, rob_result *r);
void rob_free(rob_result *r);

/* Problems every run must be free of, whatever its input: a signal, a timeout, an exit status
 * other than 0, 1 or 2, a sanitizer report, nan or inf in the output, an error line with exit
 * status 0. Returns NULL when none, else a static description. */
const char *rob_sane(const rob_result *r);
/* Nonzero when text holds a line starting "error_prefix" followed by ":LINE:COL: error: " with
 * LINE, COL >= 1 (error_prefix NULL: any file name). */
int rob_has_located_error(const char *text, const char *file);
/* Nonzero when text holds a line starting "pdlc: error: ". */
int rob_has_plain_error(const char *text);

/* The cell of CSV text (header line first) in data row `row` (from 0) and the column named
 * `col`, as a number, or NaN when there is none. Cells are copied into buf (for text). */
double rob_cell(const char *csv, size_t row, const char *col);
/* The same cell as text in buf (empty when there is none); returns buf. */
const char *rob_cell_text(const char *csv, size_t row, const char *col, char *buf, size_t len);
/* Data rows of CSV text. */
size_t rob_rows(const char *csv);

/* Reads a whole file (NUL-terminated, *len its length if len). NULL on failure. */
char *rob_slurp(const char *path, size_t *len);
/* Writes len bytes to path. 0, or -1. */
int rob_write(const char *path, const void *data, size_t len);
/* Whether a directory entry is a PDL program (a name ending in ".pdl"). */
int rob_is_program(const char *name);
/* An example's own options (its "// pdlc-args:" line) without the processor counts
 * (--max-procs, -P, --procs and their values), which the tests choose. "" when it has none. */
void rob_example_args(const char *text, char *out, size_t nout);

/* A test program's state: the binary, a scratch directory its programs are written to and run
 * in, and the counts of checks and failures. */
typedef struct rob_suite {
    char pdlc[4096];
    char dir[64];
    int checks, failed;
} rob_suite;

/* Resolves the binary and makes the scratch directory. 0, or -1 (reported). */
int rob_suite_init(rob_suite *s, const char *pdlc);
/* Removes the scratch directory and its files, prints "NAME: N checks, M failed"; returns the
 * exit status for main. */
int rob_suite_end(rob_suite *s, const char *name);
#if defined(__GNUC__)
#define ROB_PRINTF(a, b) __attribute__((format(printf, a, b)))
#else
#define ROB_PRINTF(a, b)
#endif
/* Counts a failure of case `id` and prints why, with the run's output when there is one. */
void rob_fail(rob_suite *s, const char *id, const rob_result *r, const char *fmt, ...)
    ROB_PRINTF(4, 5);
/* Writes `prog` (may be NULL: the file is left as it is) to p.pdl in the scratch directory and
 * runs "pdlc p.pdl ARGS" there (args: blank-separated words); the run must pass rob_sane and
 * end with `status`. Returns 0 when it did; r holds the result either way (rob_free). */
int rob_prog(rob_suite *s, const char *id, const char *prog, const char *args, int status,
             double timeout, rob_result *r);
/* Checks that the number in (row, col) of r's CSV output is want within relative tol; `from`
 * says where want comes from (shown on failure). */
void rob_expect(rob_suite *s, const char *id, const rob_result *r, size_t row, const char *col,
                double want, double tol, const char *from);
/* Checks that needle is (present = 1) or is not (0) in text. */
void rob_expect_text(rob_suite *s, const char *id, const rob_result *r, const char *text,
                     const char *needle, int present);

/* Relative closeness: |got - want| <= tol * |want| (or both 0). */
int rob_close(double got, double want, double tol);

#endif
