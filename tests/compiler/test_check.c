/* test_check: what the checker resolves for the generator - variable values, phase fields,
 * ARBITRARY topological orders, pattern links, concatenation adjacency (check-N.M ids).
 * The diagnostics themselves are pinned by the golden tests. */
#include "testutil.h"

#include <string.h>

/* check-1.1: --set overrides a default; an undeclared --set name is a variable; expressions
 * then evaluate through resolved slots. Expected values are the hand arithmetic shown. */
static void test_variables(void)
{
    fixture f;
    fx_open(&f);
    pdl_setvar sets[] = {{"n", 64, 0}, {"height", 100, 0}};
    pdl_checked *c = fx_check(&f,
                              "PROGRAM NAME IS 'p';\n"
                              "PARAMETER n = 10;\n"
                              "PARAMETER m = 2 * n + 1;\n"
                              "EXECUTION PATTERN IS w;\n"
                              "WORK PHASE w IS:\n"
                              "  PARALLELIZATION SCHEME IS INDEPENDENT;\n"
                              "  SUBTASK RUNTIME IS EXPONENTIAL(1);\n"
                              "  PROBLEM SIZE IS GRID B(height, m);\n"
                              "END;\n",
                              sets, 2);
    CU_ASSERT_PTR_NOT_NULL_FATAL(c);
    CU_ASSERT_EQUAL_FATAL(c->nvars, 3);
    double n = -1, m = -1, h = -1;
    for (size_t k = 0; k < c->nvars; k++) {
        CU_ASSERT(c->vars[k].known);
        if (!strcmp(c->vars[k].name, "n"))
            n = c->vars[k].value;
        if (!strcmp(c->vars[k].name, "m"))
            m = c->vars[k].value;
        if (!strcmp(c->vars[k].name, "height"))
            h = c->vars[k].value;
    }
    CU_ASSERT_DOUBLE_EQUAL(n, 64, 0);
    CU_ASSERT_DOUBLE_EQUAL(m, 129, 0); /* 2 * 64 + 1: the default of m sees --set n */
    CU_ASSERT_DOUBLE_EQUAL(h, 100, 0);
    pdl_env env;
    pdl_env_init(&env);
    env.vars = c->vars;
    env.nvars = c->nvars;
    double units;
    CU_ASSERT_EQUAL(pdl_eval(c->prog->phases[0]->units, &env, NULL, &units), PDL_EVAL_OK);
    CU_ASSERT_DOUBLE_EQUAL(units, 129, 0);
    fx_close(&f);
}

/* check-1.2: resolved phase fields and defaults (BLOCK, DYNAMIC; PAIRED deals out cyclically). */
static void test_phase_fields(void)
{
    fixture f;
    fx_open(&f);
    pdl_checked *c = fx_check(&f,
                              "PROGRAM NAME IS 'p';\n"
                              "EXECUTION PATTERN IS a -> sync -> b;\n"
                              "WORK PHASE a IS:\n"
                              "  PARALLELIZATION SCHEME IS INDEPENDENT;\n"
                              "  SUBTASK RUNTIME IS Erlang(2, 1);\n"
                              "  PROBLEM SIZE IS VECTOR A(8);\n"
                              "END;\n"
                              "WORK PHASE b IS:\n"
                              "  PARALLELIZATION SCHEME IS PAIRED;\n"
                              "  DEPENDENCY IS 2, 4;\n"
                              "  INDEPENDENT SUBTASK IS: RUNTIME IS EXPONENTIAL(1); END;\n"
                              "  DEPENDENT SUBTASK IS: RUNTIME IS DETERMINISTIC(1);\n"
                              "    COMMUNICATION VOLUME IS 8; END;\n"
                              "  PROBLEM SIZE IS VECTOR A(16);\n"
                              "END;\n",
                              NULL, 0);
    CU_ASSERT_PTR_NOT_NULL_FATAL(c);
    pdl_phase *a = c->prog->phases[0], *b = c->prog->phases[1];
    CU_ASSERT_EQUAL(a->scheme, PDL_S_INDEPENDENT);
    CU_ASSERT_EQUAL(a->runtime->kind, PDL_D_ERLANG);
    CU_ASSERT_EQUAL(a->mapping, PDL_MAP_BLOCK);
    CU_ASSERT_EQUAL(a->dynamic, 1);
    CU_ASSERT_PTR_NULL(a->rows);
    CU_ASSERT_EQUAL(b->scheme, PDL_S_PAIRED);
    CU_ASSERT_EQUAL(b->mapping, PDL_MAP_CYCLIC);
    CU_ASSERT_EQUAL(b->ndeps, 2);
    CU_ASSERT_EQUAL(b->indep_runtime->kind, PDL_D_EXPONENTIAL);
    CU_ASSERT_EQUAL(b->dep_runtime->kind, PDL_D_DETERMINISTIC);
    CU_ASSERT_PTR_NOT_NULL(b->dep_volume);
    CU_ASSERT_PTR_NULL(b->indep_volume);
    CU_ASSERT(a->used && b->used);
    fx_close(&f);
}

/* check-1.3: the topological order of an ARBITRARY phase puts every arc forward (checked arc
 * by arc against the arcs as written), and duplicate arcs are dropped. */
static void test_arbitrary_topo(void)
{
    fixture f;
    fx_open(&f);
    pdl_checked *c = fx_check(&f,
                              "PROGRAM NAME IS 'p';\n"
                              "EXECUTION PATTERN IS g;\n"
                              "WORK PHASE g IS:\n"
                              "  PARALLELIZATION SCHEME IS ARBITRARY;\n"
                              "  TASK e RUNTIME IS EXPONENTIAL(1);\n"
                              "  TASK d RUNTIME IS EXPONENTIAL(1);\n"
                              "  TASK c RUNTIME IS EXPONENTIAL(1);\n"
                              "  TASK b RUNTIME IS EXPONENTIAL(1);\n"
                              "  TASK a RUNTIME IS EXPONENTIAL(1);\n"
                              "  ARC a -> b -> d -> e;\n"
                              "  ARC a -> c -> d;\n"
                              "  ARC c -> e;\n"
                              "END;\n",
                              NULL, 0);
    CU_ASSERT_PTR_NOT_NULL_FATAL(c);
    pdl_phase *g = c->prog->phases[0];
    CU_ASSERT_EQUAL_FATAL(g->ntasks, 5);
    size_t pos[5];
    for (size_t k = 0; k < 5; k++)
        pos[g->topo[k]] = k;
    const char *arcs[][2] = {{"a", "b"}, {"b", "d"}, {"d", "e"},
                             {"a", "c"}, {"c", "d"}, {"c", "e"}};
    size_t nsucc = 0;
    for (size_t t = 0; t < 5; t++)
        nsucc += g->tasks[t].nsucc;
    CU_ASSERT_EQUAL(nsucc, 6);
    for (size_t k = 0; k < 6; k++) {
        size_t u = 5, v = 5;
        for (size_t t = 0; t < 5; t++) {
            if (!strcmp(g->tasks[t].name, arcs[k][0]))
                u = t;
            if (!strcmp(g->tasks[t].name, arcs[k][1]))
                v = t;
        }
        CU_ASSERT_FATAL(u < 5 && v < 5);
        CU_ASSERT(pos[u] < pos[v]);
    }
    fx_close(&f);
}

static const char *three_phases =
    "WORK PHASE w1 IS: PARALLELIZATION SCHEME IS INDEPENDENT;\n"
    "  SUBTASK RUNTIME IS EXPONENTIAL(1); PROBLEM SIZE IS VECTOR A(4); END;\n"
    "WORK PHASE w2 IS: PARALLELIZATION SCHEME IS INDEPENDENT;\n"
    "  SUBTASK RUNTIME IS EXPONENTIAL(1); PROBLEM SIZE IS VECTOR A(4); END;\n"
    "WORK PHASE w3 IS: PARALLELIZATION SCHEME IS INDEPENDENT;\n"
    "  SUBTASK RUNTIME IS EXPONENTIAL(1); PROBLEM SIZE IS VECTOR A(4); END;\n";

static pdl_checked *check_concat(fixture *f, const char *pattern, const char *concat)
{
    static char buf[2048];
    snprintf(buf, sizeof buf,
             "PROGRAM NAME IS 'p';\nEXECUTION PATTERN IS %s;\n%sCONCATENATION IS: %s END;\n",
             pattern, three_phases, concat);
    return fx_check(f, buf, NULL, 0);
}

/* check-1.4: adjacency sees through phases that may be skipped (*[q], ^0) but not through
 * SYNC or a phase that always runs. */
static void test_adjacency(void)
{
    fixture f;
    fx_open(&f);
    pdl_checked *c = check_concat(&f, "w1 -> w2 *[0.5] -> w3",
                                  "w1, w2 : SERIAL; w2, w2 : BARRIER; w2, w3 : BARRIER; "
                                  "w1, w3 : SERIAL;");
    CU_ASSERT_PTR_NOT_NULL(c);
    CU_ASSERT_EQUAL(pdl_diag_warnings(f.d), 0);
    if (c) {
        pdl_concat *k = c->prog->concats[3];
        CU_ASSERT_PTR_EQUAL(k->a, c->prog->phases[0]);
        CU_ASSERT_PTR_EQUAL(k->b, c->prog->phases[2]);
    }
    fx_close(&f);

    fx_open(&f);
    CU_ASSERT_PTR_NULL(check_concat(&f, "w1 -> w2 -> w3", "w1, w3 : SERIAL;"));
    CU_ASSERT_EQUAL(pdl_diag_errors(f.d), 1);
    fx_close(&f);

    fx_open(&f);
    CU_ASSERT_PTR_NULL(check_concat(&f, "w1 -> sync -> w2 ^ 1 -> w3", "w1, w2 : SERIAL;"));
    fx_close(&f);

    /* Loops join a phase to itself; branches join each end to each start. */
    fx_open(&f);
    c = check_concat(&f, "(w1 | w2) +[0.5] -> w3",
                     "w1, w1 : BARRIER; w1, w2 : BARRIER; w2, w1 : BARRIER; w2, w2 : BARRIER; "
                     "w1, w3 : BARRIER; w2, w3 : BARRIER;");
    CU_ASSERT_PTR_NOT_NULL(c);
    CU_ASSERT_EQUAL(pdl_diag_warnings(f.d), 0);
    fx_close(&f);
}

/* check-1.5: $ARCH and $NAME expansion in file names. */
static void test_expand(void)
{
    fixture f;
    fx_open(&f);
    pdl_machine m;
    pdl_machine_ideal(&m);
    m.name = "meiko";
    pdl_binding vars[] = {{"n", 128, 1}, {"x", 0.5, 1}};
    char *s = pdl_expand_string(f.d, f.a, "d/$ARCH.$n-$x.$", (pdl_loc){0, 0, 0}, &m, vars, 2);
    CU_ASSERT_PTR_NOT_NULL_FATAL(s);
    CU_ASSERT_STRING_EQUAL(s, "d/meiko.128-0.5.$");
    CU_ASSERT_PTR_NULL(pdl_expand_string(f.d, f.a, "$nope", (pdl_loc){0, 0, 0}, &m, vars, 2));
    CU_ASSERT_EQUAL(pdl_diag_errors(f.d), 1);
    fx_close(&f);
}

/* check-1.6: warnings alone do not fail a check. */
static void test_warnings_pass(void)
{
    fixture f;
    fx_open(&f);
    pdl_checked *c = check_concat(&f, "w1 -> w2", "");
    CU_ASSERT_PTR_NOT_NULL(c);
    CU_ASSERT_EQUAL(pdl_diag_errors(f.d), 0);
    CU_ASSERT_EQUAL(pdl_diag_warnings(f.d), 2); /* w3 unused; w1 -> w2 without concatenation */
    fx_close(&f);
}

int main(void)
{
    if (CU_initialize_registry() != CUE_SUCCESS)
        return 1;
    CU_pSuite s = CU_add_suite("check", NULL, NULL);
    CU_add_test(s, "check-1.1 variables", test_variables);
    CU_add_test(s, "check-1.2 phase fields", test_phase_fields);
    CU_add_test(s, "check-1.3 arbitrary topological order", test_arbitrary_topo);
    CU_add_test(s, "check-1.4 adjacency", test_adjacency);
    CU_add_test(s, "check-1.5 file name expansion", test_expand);
    CU_add_test(s, "check-1.6 warnings pass", test_warnings_pass);
    return fx_run();
}
