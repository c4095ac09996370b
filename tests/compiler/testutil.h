/* testutil: shared fixtures for the compiler's CUnit suites: a diag that writes into memory,
 * parsing a program from a string, and a runner that registers suites and reports. */
#ifndef TESTUTIL_H
#define TESTUTIL_H

#include "pdl_check.h"
#include "pdl_parse.h"

#include <CUnit/CUnit.h>

typedef struct fixture {
    pdl_diag *d;
    pdl_arena *a;
    char *out; /* diagnostics text */
    size_t outlen;
    FILE *stream;
} fixture;

void fx_open(fixture *f);
/* Returns the diagnostics printed so far (NUL-terminated; valid until fx_close). */
const char *fx_text(fixture *f);
void fx_close(fixture *f);

/* Registers `text` as source "t.pdl" and parses it as a program (NULL on syntax errors). */
pdl_program *fx_parse(fixture *f, const char *text);
/* Parses and checks with the ideal machine and the given --set values. */
pdl_checked *fx_check(fixture *f, const char *text, const pdl_setvar *sets, size_t nsets);

/* Runs the registered suites; returns the process exit status. */
int fx_run(void);

#endif
