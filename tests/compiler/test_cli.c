/* test_cli: option parsing alone - values, repetition, and the usage errors that exit 2. */
#include "testutil.h"

#include "pdl_cli.h"

#include <stdlib.h>
#include <string.h>

static pdl_cli_result parse(int argc, const char **argv, pdl_options *o, char **err)
{
    size_t len;
    FILE *e = open_memstream(err, &len);
    FILE *out = fopen("/dev/null", "w");
    pdl_cli_result r = pdl_cli_parse(argc, (char **)argv, o, out, e);
    fclose(e);
    fclose(out);
    return r;
}

/* cli-1.1: options in any order around the file; --set repeats and the last one wins. */
static void test_ok(void)
{
    const char *argv[] = {"pdlc", "--set", "n=5",   "prog.pdl", "-m",        "a.mdl", "--check",
                          "-D",   "n=7",   "--set", "w=1e3",    "--machine", "b.mdl", NULL};
    pdl_options o;
    char *err;
    CU_ASSERT_EQUAL(parse(13, argv, &o, &err), PDL_CLI_RUN);
    CU_ASSERT_STRING_EQUAL(err, "");
    CU_ASSERT_STRING_EQUAL(o.input, "prog.pdl");
    CU_ASSERT(o.check);
    CU_ASSERT_EQUAL_FATAL(o.nsets, 2);
    CU_ASSERT_STRING_EQUAL(o.sets[0].name, "n");
    CU_ASSERT_DOUBLE_EQUAL(o.sets[0].value, 7, 0);
    CU_ASSERT_DOUBLE_EQUAL(o.sets[1].value, 1000, 0);
    CU_ASSERT_EQUAL_FATAL(o.nmachines, 2);
    CU_ASSERT_STRING_EQUAL(o.machines[1], "b.mdl");
    pdl_cli_free(&o);
    free(err);
}

/* cli-1.2: each usage mistake is status 2 with a message naming it. */
static void test_usage(void)
{
    struct {
        int argc;
        const char *argv[4];
        const char *msg;
    } cases[] = {
        {1, {"pdlc"}, "no input file"},
        {3, {"pdlc", "a", "b"}, "more than one input file"},
        {3, {"pdlc", "--set", "x"}, "--set expects NAME=VALUE"},
        {3, {"pdlc", "--set", "x=1y"}, "is not a number"},
        {3, {"pdlc", "--set", "=1"}, "does not start with a variable name"},
        {3, {"pdlc", "--emit", "svgz"}, "unknown output"},
        {2, {"pdlc", "--bogus"}, "unknown option '--bogus'"},
        {2, {"pdlc", "--machine"}, "needs a value"},
    };
    for (size_t k = 0; k < sizeof cases / sizeof *cases; k++) {
        pdl_options o;
        char *err;
        CU_ASSERT_EQUAL(parse(cases[k].argc, cases[k].argv, &o, &err), PDL_CLI_USAGE);
        CU_ASSERT_PTR_NOT_NULL(strstr(err, cases[k].msg));
        CU_ASSERT_PTR_NOT_NULL(strstr(err, "Try 'pdlc --help'"));
        pdl_cli_free(&o);
        free(err);
    }
}

/* cli-1.3: --help and --version stop the run successfully. */
static void test_done(void)
{
    const char *h[] = {"pdlc", "--help", NULL}, *v[] = {"pdlc", "-V", NULL};
    pdl_options o;
    char *err;
    CU_ASSERT_EQUAL(parse(2, h, &o, &err), PDL_CLI_DONE);
    pdl_cli_free(&o);
    free(err);
    CU_ASSERT_EQUAL(parse(2, v, &o, &err), PDL_CLI_DONE);
    pdl_cli_free(&o);
    free(err);
}

/* cli-1.4: sweep lists - single values, ranges with the default and a given step, negative
 * values and exponents, a fractional step that is not exact in binary (0.1: five values, the
 * last within rounding of 0.5), the order kept; reports by name. */
static void test_sweep(void)
{
    const char *argv[] = {"pdlc",     "p.pdl",         "--sweep",    "b=1-2:0.5,-3--1,1e-3,7",
                          "--sweep",  "q=0.1-0.5:0.1", "--optimize", "b",
                          "--report", "speedup",       NULL};
    pdl_options o;
    char *err;
    CU_ASSERT_EQUAL_FATAL(parse(10, argv, &o, &err), PDL_CLI_RUN);
    CU_ASSERT_STRING_EQUAL(err, "");
    CU_ASSERT_EQUAL_FATAL(o.nsweeps, 2);
    CU_ASSERT_STRING_EQUAL(o.sweeps[0].name, "b");
    static const double b[] = {1, 1.5, 2, -3, -2, -1, 1e-3, 7};
    CU_ASSERT_EQUAL_FATAL(o.sweeps[0].n, sizeof b / sizeof *b);
    for (size_t k = 0; k < o.sweeps[0].n; k++)
        CU_ASSERT_DOUBLE_EQUAL(o.sweeps[0].values[k], b[k], 0);
    CU_ASSERT_EQUAL_FATAL(o.sweeps[1].n, 5);
    for (size_t k = 0; k < 5; k++)
        CU_ASSERT_DOUBLE_EQUAL(o.sweeps[1].values[k], 0.1 * (double)(k + 1), 1e-15);
    CU_ASSERT_STRING_EQUAL(o.optimize, "b");
    CU_ASSERT_EQUAL(o.report, PDL_REPORT_SPEEDUP);
    CU_ASSERT(o.report_given);
    pdl_cli_free(&o);
    free(err);
    const char *r[] = {"pdlc", "p.pdl", "-r", "critical-path", NULL};
    CU_ASSERT_EQUAL_FATAL(parse(4, r, &o, &err), PDL_CLI_RUN);
    CU_ASSERT_EQUAL(o.report, PDL_REPORT_CRITICAL_PATH);
    pdl_cli_free(&o);
    free(err);
}

int main(void)
{
    if (CU_initialize_registry() != CUE_SUCCESS)
        return 1;
    CU_pSuite s = CU_add_suite("cli", NULL, NULL);
    CU_add_test(s, "cli-1.1 options", test_ok);
    CU_add_test(s, "cli-1.2 usage errors", test_usage);
    CU_add_test(s, "cli-1.3 help and version", test_done);
    CU_add_test(s, "cli-1.4 sweeps and reports", test_sweep);
    return fx_run();
}
