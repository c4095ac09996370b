/* test_gen: the generator's caches - memo keys (lattices by identity, points by value, graphs),
 * the memo itself, cached m-fold sums, and memoised model parts that must equal a fresh
 * computation and never answer for a p they do not fit (gen-N.M ids). */
#include "testutil.h"

#include "pdl_gen.h"

#include <math.h>

static const char *const pipeline = "PROGRAM NAME IS 'p';\n"
                                    "EXECUTION PATTERN IS w;\n"
                                    "WORK PHASE w IS:\n"
                                    "  PARALLELIZATION SCHEME IS MACROPIPELINE;\n"
                                    "  SUBTASK RUNTIME IS ERLANG(2, 1);\n"
                                    "  STAGES IS 4; JOBS IS 6;\n"
                                    "  INTERARRIVAL TIME IS EXPONENTIAL(3);\n"
                                    "END;\n";

static const char *const graph = "PROGRAM NAME IS 'g';\n"
                                 "EXECUTION PATTERN IS w;\n"
                                 "WORK PHASE w IS:\n"
                                 "  PARALLELIZATION SCHEME IS ARBITRARY;\n"
                                 "  TASK a RUNTIME IS EXPONENTIAL(1);\n"
                                 "  TASK b RUNTIME IS EXPONENTIAL(2);\n"
                                 "  TASK c RUNTIME IS EXPONENTIAL(3);\n"
                                 "  TASK d RUNTIME IS EXPONENTIAL(1);\n"
                                 "  ARC a -> c; ARC a -> d; ARC b -> d;\n"
                                 "END;\n";

static const char *const forkjoin = "PROGRAM NAME IS 'f';\n"
                                    "EXECUTION PATTERN IS w;\n"
                                    "WORK PHASE w IS:\n"
                                    "  PARALLELIZATION SCHEME IS FORK-JOIN;\n"
                                    "  SUBTASK RUNTIME IS GAMMA(3, 1);\n"
                                    "  JOBS IS 4; TASKS PER JOB IS j + 2;\n"
                                    "END;\n";

static pdl_gen *gen_of(fixture *f, const char *text)
{
    pdl_checked *c = fx_check(f, text, NULL, 0);
    CU_ASSERT_PTR_NOT_NULL(c);
    return c ? pdl_gen_alloc(c, f->d, 1024) : NULL;
}

/* gen-1.1: a key names a lattice by its identity (an equal copy is another key) and exact points
 * by their values (separately built equal points are the same key); a stored result comes back
 * as the same object. */
static void test_keys(void)
{
    fixture f;
    fx_open(&f);
    pdl_gen *g = gen_of(&f, graph);
    CU_ASSERT_PTR_NOT_NULL_FATAL(g);
    sol_ctx *sc = pdl_gen_solver(g);
    sol_dist *x, *y, *p1, *p2, *r, *got = NULL;
    CU_ASSERT_FATAL(sol_dist_exponential(sc, 1, &x) == SOL_OK);
    CU_ASSERT_FATAL(sol_dist_exponential(sc, 1, &y) == SOL_OK);
    CU_ASSERT_FATAL(sol_dist_deterministic(sc, 2.5, &p1) == SOL_OK);
    CU_ASSERT_FATAL(sol_dist_deterministic(sc, 2.5, &p2) == SOL_OK);
    CU_ASSERT_FATAL(sol_dist_deterministic(sc, 7, &r) == SOL_OK);
    pdl_key k;
    pdl_key_init(&k);
    pdl_key_add(&k, "t", 1);
    pdl_key_dist(&k, x);
    pdl_key_dist(&k, p1);
    pdl_gen_memo_put(g, &k, r);
    CU_ASSERT_EQUAL(k.n, 0); /* the memo took the key over */

    pdl_key_init(&k);
    pdl_key_add(&k, "t", 1);
    pdl_key_dist(&k, x);
    pdl_key_dist(&k, p2); /* another object, the same point */
    CU_ASSERT_EQUAL(pdl_gen_memo_get(g, &k, &got), 1);
    CU_ASSERT_PTR_EQUAL(got, r);
    if (got)
        sol_dist_free(got);
    pdl_key_free(&k);

    pdl_key_init(&k);
    pdl_key_add(&k, "t", 1);
    pdl_key_dist(&k, y); /* an equal lattice, but not the same one */
    pdl_key_dist(&k, p1);
    CU_ASSERT_EQUAL(pdl_gen_memo_get(g, &k, &got), 0);
    pdl_key_free(&k);

    /* The what-if switches clear the memo. */
    pdl_key_init(&k);
    pdl_key_add(&k, "t", 1);
    pdl_key_dist(&k, x);
    pdl_key_dist(&k, p1);
    pdl_gen_set_zeroed(g, NULL, 0, 0);
    CU_ASSERT_EQUAL(pdl_gen_memo_get(g, &k, &got), 0);
    pdl_key_free(&k);
    sol_dist_free(x);
    sol_dist_free(y);
    sol_dist_free(p1);
    sol_dist_free(p2);
    sol_dist_free(r);
    pdl_gen_free(g);
    fx_close(&f);
}

/* gen-1.2: m-fold sums are cached: asking twice gives the same object, whose mean is m E[X]
 * (means add: the closed form), and a power of two goes through the table of powers. */
static void test_sums(void)
{
    fixture f;
    fx_open(&f);
    pdl_gen *g = gen_of(&f, graph);
    CU_ASSERT_PTR_NOT_NULL_FATAL(g);
    sol_dist *x, *s1 = NULL, *s2 = NULL, *s8 = NULL;
    CU_ASSERT_FATAL(sol_dist_erlang(pdl_gen_solver(g), 2, 1.5, &x) == SOL_OK);
    CU_ASSERT_EQUAL_FATAL(pdl_gen_sum(g, x, 13, &s1), 0);
    CU_ASSERT_EQUAL_FATAL(pdl_gen_sum(g, x, 13, &s2), 0);
    CU_ASSERT_PTR_EQUAL(s1, s2);
    CU_ASSERT_DOUBLE_EQUAL(sol_dist_mean(s1), 13 * 3.0, 1e-9 * 39); /* 13 x (2 x 1.5) */
    CU_ASSERT_EQUAL_FATAL(pdl_gen_sum(g, x, 8, &s8), 0);
    CU_ASSERT_DOUBLE_EQUAL(sol_dist_mean(s8), 8 * 3.0, 1e-9 * 24);
    sol_dist_free(s1);
    sol_dist_free(s2);
    sol_dist_free(s8);
    sol_dist_free(x);
    pdl_gen_free(g);
    fx_close(&f);
}

/* The mean and p95 of T(p) with a fresh generator (nothing cached) and with one that has
 * already modelled `before` (its memo filled). */
static void fresh_and_warm(const char *text, uint64_t p, uint64_t before, double fresh[2],
                           double warm[2])
{
    fixture f;
    fx_open(&f);
    pdl_gen *a = gen_of(&f, text), *b = gen_of(&f, text);
    CU_ASSERT_PTR_NOT_NULL_FATAL(a);
    CU_ASSERT_PTR_NOT_NULL_FATAL(b);
    sol_dist *t;
    CU_ASSERT_EQUAL_FATAL(pdl_gen_program(a, 0, p, &t), 0);
    fresh[0] = sol_dist_mean(t);
    fresh[1] = sol_dist_quantile(t, 0.95);
    sol_dist_free(t);
    CU_ASSERT_EQUAL_FATAL(pdl_gen_program(b, 0, before, &t), 0);
    sol_dist_free(t);
    CU_ASSERT_EQUAL_FATAL(pdl_gen_program(b, 0, p, &t), 0);
    warm[0] = sol_dist_mean(t);
    warm[1] = sol_dist_quantile(t, 0.95);
    sol_dist_free(t);
    pdl_gen_free(a);
    pdl_gen_free(b);
    fx_close(&f);
}

/* T(p) after T(before) equals a fresh T(p), mean and p95, bit for bit. Returns the mean. */
static double warm_equals_fresh(const char *text, uint64_t p, uint64_t before)
{
    double fresh[2], warm[2];
    fresh_and_warm(text, p, before, fresh, warm);
    CU_ASSERT_EQUAL(fresh[0], warm[0]);
    CU_ASSERT_EQUAL(fresh[1], warm[1]);
    return warm[0];
}

/* gen-1.3: a pipeline of 4 stages on 9 processors after one on 5 (both beyond the stages: the
 * memo answers) equals a fresh computation exactly; on 3 processors after 4 (fewer than the
 * stages: a different model) it is not answered from the memo: it equals its own fresh value
 * and differs from T(4). */
static void test_pipeline_memo(void)
{
    warm_equals_fresh(pipeline, 9, 5);
    double t3 = warm_equals_fresh(pipeline, 3, 4), t4 = warm_equals_fresh(pipeline, 4, 3);
    CU_ASSERT(fabs(t4 - t3) > 1e-6 * t4); /* 3 and 4 processors differ */
}

/* gen-1.4: an ARBITRARY graph of 4 tasks on 7 processors after 5 equals a fresh computation;
 * on 1 processor after 2 it equals its own fresh value, the sum of the means 1 + 2 + 3 + 1 = 7
 * (EXPONENTIAL(m) has mean m; one processor runs every task). */
static void test_graph_memo(void)
{
    warm_equals_fresh(graph, 7, 5);
    CU_ASSERT_DOUBLE_EQUAL(warm_equals_fresh(graph, 1, 2), 7, 1e-9 * 7);
}

/* gen-1.5: fork-join jobs of 3 to 6 tasks: on 11 processors after 8 (every job's shares the same:
 * the memo answers) equal to a fresh computation; on 2 after 3 too, and 2 and 3 differ. */
static void test_finish_memo(void)
{
    warm_equals_fresh(forkjoin, 11, 8);
    double t2 = warm_equals_fresh(forkjoin, 2, 3), t3 = warm_equals_fresh(forkjoin, 3, 2);
    CU_ASSERT(fabs(t3 - t2) > 1e-6 * t3);
}

int main(void)
{
    if (CU_initialize_registry() != CUE_SUCCESS)
        return 1;
    CU_pSuite s = CU_add_suite("gen", NULL, NULL);
    CU_add_test(s, "gen-1.1 memo keys", test_keys);
    CU_add_test(s, "gen-1.2 cached sums", test_sums);
    CU_add_test(s, "gen-1.3 pipeline memo", test_pipeline_memo);
    CU_add_test(s, "gen-1.4 task graph memo", test_graph_memo);
    CU_add_test(s, "gen-1.5 fork-join memo", test_finish_memo);
    return fx_run();
}
