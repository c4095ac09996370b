/* test_parser: the tree the parser builds - pattern and expression precedence, flattening of
 * series, clause contents, locations, machine files, and recovery (parse-N.M ids). */
#include "testutil.h"

#include <stdlib.h>
#include <string.h>

static const char *HEAD = "PROGRAM NAME IS 'p';\n";

static pdl_program *parse_pattern(fixture *f, const char *pattern)
{
    static char buf[1024];
    snprintf(buf, sizeof buf, "%sEXECUTION PATTERN IS %s;\n", HEAD, pattern);
    return fx_parse(f, buf);
}

/* parse-1.1: '->' binds tighter than '|'; series are flat; '^' applies to one atom. */
static void test_pattern_precedence(void)
{
    fixture f;
    fx_open(&f);
    pdl_program *p = parse_pattern(&f, "a -> b ^ 3 -> c | d [0.5] | (e -> f) *[0.25]");
    CU_ASSERT_PTR_NOT_NULL_FATAL(p);
    pdl_pat *alt = p->pattern;
    CU_ASSERT_EQUAL_FATAL(alt->kind, PDL_P_ALT);
    CU_ASSERT_EQUAL_FATAL(alt->nkids, 3);
    pdl_pat *seq = alt->kids[0];
    CU_ASSERT_EQUAL_FATAL(seq->kind, PDL_P_SEQ);
    CU_ASSERT_EQUAL_FATAL(seq->nkids, 3);
    CU_ASSERT_STRING_EQUAL(seq->kids[0]->name, "a");
    CU_ASSERT_EQUAL(seq->kids[1]->kind, PDL_P_POW);
    CU_ASSERT_STRING_EQUAL(seq->kids[1]->kids[0]->name, "b");
    CU_ASSERT_DOUBLE_EQUAL(seq->kids[1]->arg->u.num, 3, 0);
    CU_ASSERT_PTR_NULL(alt->weights[0]);
    CU_ASSERT_DOUBLE_EQUAL(alt->weights[1]->u.num, 0.5, 0);
    CU_ASSERT_EQUAL(alt->kids[2]->kind, PDL_P_STAR);
    CU_ASSERT_EQUAL(alt->kids[2]->kids[0]->kind, PDL_P_SEQ);
    fx_close(&f);
}

/* parse-1.2: a single unweighted branch is no branch; SYNC is an atom. */
static void test_pattern_single(void)
{
    fixture f;
    fx_open(&f);
    pdl_program *p = parse_pattern(&f, "sync");
    CU_ASSERT_PTR_NOT_NULL_FATAL(p);
    CU_ASSERT_EQUAL(p->pattern->kind, PDL_P_SYNC);
    fx_close(&f);
}

/* parse-1.3: expression precedence and associativity, as in C. */
static void test_expression_precedence(void)
{
    fixture f;
    fx_open(&f);
    pdl_program *p = fx_parse(&f, "PROGRAM NAME IS 'p';\n"
                                  "PARAMETER a = 1 + 2 * 3 - 4 / 2 % 3;\n"
                                  "PARAMETER b = -x ^ 2;\n");
    /* '^' is not an expression operator: b's line is a syntax error, a's is fine. */
    CU_ASSERT_PTR_NULL(p);
    fx_close(&f);
    fx_open(&f);
    p = fx_parse(&f, "PROGRAM NAME IS 'p';\n"
                     "PARAMETER a = 1 + 2 * 3 - 4 / 2 % 3;\n"
                     "PARAMETER c = x < 1 || y >= 2 && !z ? -1 : 2;\n");
    CU_ASSERT_PTR_NOT_NULL_FATAL(p);
    char *buf = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&buf, &len);
    pdl_expr_print(m, p->params[0]->value);
    fputc('|', m);
    pdl_expr_print(m, p->params[1]->value);
    fclose(m);
    CU_ASSERT_STRING_EQUAL(buf, "((1 + (2 * 3)) - ((4 / 2) % 3))|"
                                "(((x < 1) || ((y >= 2) && (!z))) ? (-1) : 2)");
    free(buf);
    fx_close(&f);
}

/* parse-1.4: clauses keep their contents and places; nested parts hold their own clauses. */
static void test_clauses(void)
{
    fixture f;
    fx_open(&f);
    const char *text = "PROGRAM NAME IS 'p';\n"
                       "EXECUTION PATTERN IS w;\n"
                       "WORK PHASE w IS:\n"
                       "  PARALLELIZATION SCHEME IS PAIRED;\n"
                       "  DEPENDENCY IS 1, 5;\n"
                       "  INDEPENDENT SUBTASK IS: RUNTIME IS ERLANG(5, 1); END;\n"
                       "  PROBLEM SIZE IS GRID C(h, w2);\n"
                       "  DISTRIBUTION IS BLOCK CYCLIC(4);\n"
                       "END;\n";
    pdl_program *p = fx_parse(&f, text);
    CU_ASSERT_PTR_NOT_NULL_FATAL(p);
    CU_ASSERT_EQUAL_FATAL(p->nphases, 1);
    pdl_phase *ph = p->phases[0];
    CU_ASSERT_STRING_EQUAL(ph->name, "w");
    CU_ASSERT_EQUAL_FATAL(ph->nclauses, 5);
    CU_ASSERT_EQUAL(ph->clauses[0]->scheme, PDL_S_PAIRED);
    CU_ASSERT_EQUAL(ph->clauses[1]->nlist, 2);
    CU_ASSERT_EQUAL(ph->clauses[2]->kind, PDL_C_INDEP_PART);
    CU_ASSERT_EQUAL_FATAL(ph->clauses[2]->nbody, 1);
    CU_ASSERT_STRING_EQUAL(ph->clauses[2]->body[0]->dist->name, "ERLANG");
    CU_ASSERT_EQUAL(ph->clauses[2]->body[0]->dist->nargs, 2);
    CU_ASSERT_EQUAL(ph->clauses[3]->kind, PDL_C_SIZE_GRID);
    CU_ASSERT_STRING_EQUAL(ph->clauses[3]->name, "C");
    CU_ASSERT_EQUAL(ph->clauses[4]->mapping, PDL_MAP_BLOCK_CYCLIC);
    /* The clause's keywords are where diagnostics about it point. */
    pdl_loc k = ph->clauses[1]->key_loc;
    CU_ASSERT_EQUAL(k.end - k.begin, strlen("DEPENDENCY"));
    CU_ASSERT_EQUAL(strncmp(text + k.begin, "DEPENDENCY", 10), 0);
    fx_close(&f);
}

/* parse-1.5: recovery at ';' and END reports every independent error in one run. */
static void test_recovery(void)
{
    fixture f;
    fx_open(&f);
    pdl_program *p = fx_parse(&f, "PROGRAM NAME IS 'p';\n"
                                  "EXECUTION PATTERN IS a -> ;\n"
                                  "WORK PHASE a IS:\n"
                                  "  STAGES IS ;\n"
                                  "  JOBS IS 3;\n"
                                  "END;\n"
                                  "CONCATENATION IS: a b : SERIAL; END;\n");
    CU_ASSERT_PTR_NULL(p);
    CU_ASSERT_EQUAL(pdl_diag_errors(f.d), 3);
    fx_close(&f);
}

/* parse-1.6: a machine file. */
static void test_machine(void)
{
    fixture f;
    fx_open(&f);
    const char *text = "MACHINE NAME IS 'meiko';\nLOGGP(L = 9, o = 2, g = 14, G = 0.03);\n"
                       "TOPOLOGY IS TORUS(4, 8);\nCOMMUNICATION IS SHARED MEMORY;\n";
    uint32_t id;
    CU_ASSERT_FATAL(pdl_diag_add_source(f.d, "m.mdl", text, strlen(text), &id) == 0);
    pdl_machine_ast *m = pdl_parse_machine(f.d, f.a, id);
    CU_ASSERT_PTR_NOT_NULL_FATAL(m);
    CU_ASSERT_STRING_EQUAL(m->name, "meiko");
    CU_ASSERT_EQUAL_FATAL(m->nstmts, 3);
    CU_ASSERT_EQUAL(m->stmts[0]->nvalues, 4);
    CU_ASSERT_STRING_EQUAL(m->stmts[0]->names[2], "g");
    CU_ASSERT_STRING_EQUAL(m->stmts[0]->names[3], "G");
    CU_ASSERT_EQUAL(m->stmts[1]->topology, PDL_TOPO_TORUS);
    CU_ASSERT_EQUAL(m->stmts[2]->shared_memory, 1);
    fx_close(&f);
}

/* parse-1.7: the same text is not both grammars: a program is not a machine file. */
static void test_grammar_selection(void)
{
    fixture f;
    fx_open(&f);
    const char *text = "PROGRAM NAME IS 'p';\n";
    uint32_t id;
    CU_ASSERT_FATAL(pdl_diag_add_source(f.d, "m.mdl", text, strlen(text), &id) == 0);
    CU_ASSERT_PTR_NULL(pdl_parse_machine(f.d, f.a, id));
    CU_ASSERT_PTR_NOT_NULL(strstr(fx_text(&f), "expecting 'MACHINE'"));
    fx_close(&f);
}

int main(void)
{
    if (CU_initialize_registry() != CUE_SUCCESS)
        return 1;
    CU_pSuite s = CU_add_suite("parser", NULL, NULL);
    CU_add_test(s, "parse-1.1 pattern precedence", test_pattern_precedence);
    CU_add_test(s, "parse-1.2 single atom", test_pattern_single);
    CU_add_test(s, "parse-1.3 expression precedence", test_expression_precedence);
    CU_add_test(s, "parse-1.4 clauses", test_clauses);
    CU_add_test(s, "parse-1.5 recovery", test_recovery);
    CU_add_test(s, "parse-1.6 machine", test_machine);
    CU_add_test(s, "parse-1.7 grammar selection", test_grammar_selection);
    return fx_run();
}
