/* pdlrun: runs the real pdlc binary from a test and reads its CSV output, columns by name. */
#ifndef PDLRUN_H
#define PDLRUN_H

#include <stddef.h>

typedef struct pdlrun_table {
    char **cols;
    size_t ncols;
    char ***cells; /* cells[row][col], strings */
    size_t nrows;
    int status; /* pdlc's exit status */
    char *err;  /* its standard error */
} pdlrun_table;

/* Runs `pdlc args` (a shell command line tail) and parses stdout. 0 when pdlc ran and printed a
 * table; the table is filled either way (status, err) and freed with pdlrun_free. */
int pdlrun(const char *pdlc, const char *args, pdlrun_table *t);
void pdlrun_free(pdlrun_table *t);
/* The column's index, or -1. */
int pdlrun_col(const pdlrun_table *t, const char *name);
double pdlrun_num(const pdlrun_table *t, size_t row, const char *name);
const char *pdlrun_str(const pdlrun_table *t, size_t row, const char *name);
/* Writes text to a new temporary file and returns its path (malloc'ed), or NULL. */
char *pdlrun_tempfile(const char *text, const char *suffix);

#endif
