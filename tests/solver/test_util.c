/* CUnit plumbing shared by the solver test executables (one suite per executable). */
#include "test_util.h"

#include <math.h>
#include <stdlib.h>

#include <CUnit/Basic.h>

double tu_rel(double a, double b)
{
    return b == 0.0 ? fabs(a - b) : fabs(a - b) / fabs(b);
}

int tu_verbose(void)
{
    return getenv("SOL_TEST_VERBOSE") != NULL;
}

int tu_run(const char *suite, const tu_case *cases)
{
    if (CU_initialize_registry() != CUE_SUCCESS)
        return 2;
    CU_pSuite s = CU_add_suite(suite, NULL, NULL);
    for (const tu_case *c = cases; s != NULL && c->name != NULL; c++)
        if (CU_add_test(s, c->name, c->fn) == NULL)
            s = NULL;
    if (s == NULL) {
        CU_cleanup_registry();
        return 2;
    }
    CU_basic_set_mode(CU_BRM_VERBOSE);
    CU_basic_run_tests();
    unsigned fails = CU_get_number_of_failures();
    CU_cleanup_registry();
    return fails == 0 ? 0 : 1;
}
