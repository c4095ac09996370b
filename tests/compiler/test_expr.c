/* test_expr: expression evaluation - arithmetic and built-ins against C's libm, unknown values,
 * short-circuit logic, and integer counts (expr-N.M ids). */
#include "testutil.h"

#include <math.h>
#include <string.h>

static pdl_expr *expr_of(fixture *f, const char *text)
{
    static char buf[512];
    snprintf(buf, sizeof buf, "PROGRAM NAME IS 'p';\nPARAMETER x = %s;\n", text);
    pdl_program *p = fx_parse(f, buf);
    return p ? p->params[0]->value : NULL;
}

static double value(const char *text)
{
    fixture f;
    fx_open(&f);
    pdl_expr *e = expr_of(&f, text);
    pdl_env env;
    pdl_env_init(&env);
    double v = NAN;
    if (!e || pdl_eval(e, &env, f.d, &v) != PDL_EVAL_OK)
        v = NAN;
    fx_close(&f);
    return v;
}

/* expr-1.1: values against the same computation in C (libm) and by hand. */
static void test_values(void)
{
    CU_ASSERT_DOUBLE_EQUAL(value("1 + 2 * 3 - 8 / 4"), 5, 0);
    CU_ASSERT_DOUBLE_EQUAL(value("7 % 3"), 1, 0);
    CU_ASSERT_DOUBLE_EQUAL(value("-7 % 3"), fmod(-7, 3), 0);
    CU_ASSERT_DOUBLE_EQUAL(value("log2(1024)"), 10, 0);
    CU_ASSERT_DOUBLE_EQUAL(value("log(exp(2.5))"), log(exp(2.5)), 0);
    CU_ASSERT_DOUBLE_EQUAL(value("log10(1e6)"), 6, 0);
    CU_ASSERT_DOUBLE_EQUAL(value("sqrt(2)"), sqrt(2), 0);
    CU_ASSERT_DOUBLE_EQUAL(value("ceil(2.1) + floor(2.9) + round(2.5) + abs(-4)"), 3 + 2 + 3 + 4,
                           0);
    CU_ASSERT_DOUBLE_EQUAL(value("pow(2, 10)"), 1024, 0);
    CU_ASSERT_DOUBLE_EQUAL(value("min(4, 2, 8) + max(4, 2, 8)"), 10, 0);
    CU_ASSERT_DOUBLE_EQUAL(value("SIZEOF(INT) + SIZEOF(DOUBLE) + SIZEOF(CHAR) + RTFactor"), 14, 0);
    CU_ASSERT_DOUBLE_EQUAL(value("3 > 2 ? 10 : 20"), 10, 0);
    CU_ASSERT_DOUBLE_EQUAL(value("1 == 1 && 2 != 2 || !0"), 1, 0);
}

/* expr-1.2: errors are reported, not returned as values. */
static void test_errors(void)
{
    CU_ASSERT(isnan(value("1 / 0")));
    CU_ASSERT(isnan(value("sqrt(-1)")));
    CU_ASSERT(isnan(value("1e200 * 1e200")));
    CU_ASSERT(isnan(value("log(0)")));
}

/* expr-1.3: p, i, j, bytes are unknown outside their scope; unknown spreads, except through
 * an untaken branch of ?: or a short-circuited && / ||. */
static void test_unknown(void)
{
    fixture f;
    fx_open(&f);
    pdl_env env;
    pdl_env_init(&env);
    double v;
    CU_ASSERT_EQUAL(pdl_eval(expr_of(&f, "2 * p"), &env, f.d, &v), PDL_EVAL_UNKNOWN);
    CU_ASSERT_EQUAL(pdl_eval(expr_of(&f, "1 ? 5 : p"), &env, f.d, &v), PDL_EVAL_OK);
    CU_ASSERT_DOUBLE_EQUAL(v, 5, 0);
    CU_ASSERT_EQUAL(pdl_eval(expr_of(&f, "0 && 1 / 0"), &env, f.d, &v), PDL_EVAL_OK);
    CU_ASSERT_DOUBLE_EQUAL(v, 0, 0);
    CU_ASSERT_EQUAL(pdl_eval(expr_of(&f, "1 || p"), &env, f.d, &v), PDL_EVAL_OK);
    env.scope |= PDL_SCOPE_P;
    env.p = 16;
    CU_ASSERT_EQUAL(pdl_eval(expr_of(&f, "2 * p"), &env, f.d, &v), PDL_EVAL_OK);
    CU_ASSERT_DOUBLE_EQUAL(v, 32, 0);
    CU_ASSERT_EQUAL(pdl_diag_errors(f.d), 0);
    fx_close(&f);
}

/* expr-1.4: counts must be integers within bounds; tiny rounding noise is forgiven. */
static void test_counts(void)
{
    fixture f;
    fx_open(&f);
    pdl_env env;
    pdl_env_init(&env);
    uint64_t n;
    CU_ASSERT_EQUAL(pdl_eval_count(expr_of(&f, "0.1 * 30"), &env, f.d, "n", 0, 1e12, &n),
                    PDL_EVAL_OK);
    CU_ASSERT_EQUAL(n, 3);
    CU_ASSERT_EQUAL(pdl_eval_count(expr_of(&f, "2.5"), &env, f.d, "n", 0, 1e12, &n),
                    PDL_EVAL_ERROR);
    CU_ASSERT_EQUAL(pdl_eval_count(expr_of(&f, "0"), &env, f.d, "n", 1, 1e12, &n), PDL_EVAL_ERROR);
    CU_ASSERT_EQUAL(pdl_eval_count(expr_of(&f, "1e13"), &env, f.d, "n", 0, 1e12, &n),
                    PDL_EVAL_ERROR);
    CU_ASSERT_EQUAL(pdl_diag_errors(f.d), 3);
    fx_close(&f);
}

int main(void)
{
    if (CU_initialize_registry() != CUE_SUCCESS)
        return 1;
    CU_pSuite s = CU_add_suite("expr", NULL, NULL);
    CU_add_test(s, "expr-1.1 values", test_values);
    CU_add_test(s, "expr-1.2 errors", test_errors);
    CU_add_test(s, "expr-1.3 unknown", test_unknown);
    CU_add_test(s, "expr-1.4 counts", test_counts);
    return fx_run();
}
