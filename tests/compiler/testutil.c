/* testutil: fixtures shared by the compiler suites (see testutil.h). */
#include "testutil.h"

#include <CUnit/Basic.h>
#include <stdlib.h>
#include <string.h>

void fx_open(fixture *f)
{
    memset(f, 0, sizeof *f);
    f->stream = open_memstream(&f->out, &f->outlen);
    f->d = pdl_diag_alloc(f->stream);
    f->a = pdl_arena_alloc();
}

const char *fx_text(fixture *f)
{
    fflush(f->stream);
    return f->out ? f->out : "";
}

void fx_close(fixture *f)
{
    pdl_arena_free(f->a);
    pdl_diag_free(f->d);
    fclose(f->stream);
    free(f->out);
    memset(f, 0, sizeof *f);
}

pdl_program *fx_parse(fixture *f, const char *text)
{
    uint32_t id;
    if (pdl_diag_add_source(f->d, "t.pdl", text, strlen(text), &id) != 0)
        return NULL;
    return pdl_parse_program(f->d, f->a, id);
}

pdl_checked *fx_check(fixture *f, const char *text, const pdl_setvar *sets, size_t nsets)
{
    pdl_program *p = fx_parse(f, text);
    if (!p)
        return NULL;
    static pdl_machine ideal;
    pdl_machine_ideal(&ideal);
    static const pdl_machine *machines[1];
    machines[0] = &ideal;
    return pdl_check_program(f->d, f->a, p, sets, nsets, machines, 1);
}

int fx_run(void)
{
    CU_basic_set_mode(CU_BRM_VERBOSE);
    CU_basic_run_tests();
    unsigned failed = CU_get_number_of_failures() + CU_get_number_of_tests_failed();
    CU_cleanup_registry();
    return failed ? 1 : 0;
}
