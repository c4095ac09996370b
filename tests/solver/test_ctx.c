/* sol_ctx: defaults, precision settings and their validation, messages, notes and counters. */
#include <string.h>

#include "sol_ctx.h"
#include "test_util.h"

/* ctx-1: defaults and validated settings. */
static void test_settings(void)
{
    sol_ctx *ctx = sol_ctx_alloc();
    CU_ASSERT_FATAL(ctx != NULL);
    CU_ASSERT_EQUAL(sol_ctx_max_len(ctx), SOL_LEN_DEFAULT);
    CU_ASSERT_EQUAL(sol_ctx_tail_eps(ctx), SOL_TAIL_EPS_DEFAULT);
    CU_ASSERT_STRING_EQUAL(sol_ctx_message(ctx), "");
    TU_OK(sol_ctx_set_max_len(ctx, 1000));
    CU_ASSERT_EQUAL(sol_ctx_max_len(ctx), 1000);
    TU_FAILS(sol_ctx_set_max_len(ctx, 10), SOL_EINVAL);
    CU_ASSERT(strstr(sol_ctx_message(ctx), "lattice length 10") != NULL);
    TU_FAILS(sol_ctx_set_max_len(ctx, SOL_LEN_MAX + 1), SOL_EINVAL);
    CU_ASSERT_EQUAL(sol_ctx_max_len(ctx), 1000);
    CU_ASSERT_EQUAL(sol_ctx_status(ctx), SOL_EINVAL);
    TU_OK(sol_ctx_set_tail_eps(ctx, 1e-10));
    TU_FAILS(sol_ctx_set_tail_eps(ctx, 0.1), SOL_EINVAL);
    TU_FAILS(sol_ctx_set_tail_eps(ctx, 0.0), SOL_EINVAL);
    CU_ASSERT_EQUAL(sol_ctx_tail_eps(ctx), 1e-10);
    sol_ctx_free(ctx);
}

/* ctx-2: messages, notes (bounded), tail mass and counters. */
static void test_records(void)
{
    sol_ctx *ctx = sol_ctx_alloc();
    CU_ASSERT_EQUAL(sol_ctx_fail(ctx, SOL_ELIMIT, "limit %d", 7), SOL_ELIMIT);
    CU_ASSERT_STRING_EQUAL(sol_ctx_message(ctx), "limit 7");
    for (int i = 0; i < SOL_NOTES_MAX + 5; i++)
        sol_ctx_notef(ctx, "note %d", i);
    CU_ASSERT_EQUAL(sol_ctx_note_count(ctx), SOL_NOTES_MAX + 5);
    CU_ASSERT_STRING_EQUAL(sol_ctx_note(ctx, 3), "note 3");
    CU_ASSERT(sol_ctx_note(ctx, SOL_NOTES_MAX) == NULL);
    sol_ctx_add_tail(ctx, 1e-12);
    sol_ctx_add_tail(ctx, -1.0); /* ignored */
    CU_ASSERT_DOUBLE_EQUAL(sol_ctx_tail_mass(ctx), 1e-12, 1e-20);
    sol_ctx_reset_notes(ctx);
    CU_ASSERT_EQUAL(sol_ctx_note_count(ctx), 0);
    CU_ASSERT_EQUAL(sol_ctx_tail_mass(ctx), 0.0);
    sol_ctx_count_conv(ctx, 1);
    sol_ctx_count_regrid(ctx);
    sol_ctx_count_dist(ctx, 0);
    sol_counters c = sol_ctx_counters(ctx);
    CU_ASSERT(c.conv_fft == 1 && c.regrids == 1 && c.points == 1 && c.lattices == 0);
    for (int s = SOL_OK; s <= SOL_ENOTSP; s++)
        CU_ASSERT(strcmp(sol_status_name((sol_status)s), "unknown status") != 0);
    sol_ctx_free(ctx);
}

static const tu_case cases[] = {
    {"ctx-1 settings", test_settings}, {"ctx-2 records", test_records}, {NULL, NULL}};

int main(void)
{
    return tu_run("solver.ctx", cases);
}
