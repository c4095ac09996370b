/* Shared helpers of the solver tests: a CUnit runner for one suite, relative comparisons that
 * print both values on failure, and status checks that print the context's message. */
#ifndef TEST_UTIL_H
#define TEST_UTIL_H

#include <stdio.h>

#include <CUnit/CUnit.h>

#include <gsl/gsl_rng.h>

#include "sol_ctx.h"
#include "sol_dist.h"
#include "sol_graph.h"

typedef struct tu_case {
    const char *name;
    void (*fn)(void);
} tu_case;

/* Runs the cases (terminated by {NULL, NULL}) as one suite; returns the process exit code. */
int tu_run(const char *suite, const tu_case *cases);

/* |a - b| / |b| (|a - b| when b = 0). */
double tu_rel(double a, double b);
/* Nonzero when SOL_TEST_VERBOSE is set: every comparison is then printed (measured errors). */
int tu_verbose(void);

/* Relative comparison; why names where the expected value comes from. */
#define TU_REL(actual, expected, tol, why)                                                         \
    do {                                                                                           \
        double a_ = (actual), e_ = (expected);                                                     \
        if (!(tu_rel(a_, e_) <= (tol)) || tu_verbose())                                            \
            printf("\n  %s:%d: %s = %.12g, expected %.12g (%s), rel err %.3g (tol %.3g)\n",        \
                   __FILE__, __LINE__, #actual, a_, e_, why, tu_rel(a_, e_), (double)(tol));       \
        CU_ASSERT(tu_rel(a_, e_) <= (tol));                                                        \
    } while (0)

/* Asserts a solver call succeeded (ctx must be in scope), printing the message otherwise. */
#define TU_OK(call)                                                                                \
    do {                                                                                           \
        sol_status s_ = (call);                                                                    \
        if (s_ != SOL_OK)                                                                          \
            printf("\n  %s:%d: %s failed: %s\n", __FILE__, __LINE__, #call, sol_ctx_message(ctx)); \
        CU_ASSERT_EQUAL_FATAL(s_, SOL_OK);                                                         \
    } while (0)

/* Asserts a solver call failed with the given status and left a message. */
#define TU_FAILS(call, status)                                                                     \
    do {                                                                                           \
        sol_status s_ = (call);                                                                    \
        CU_ASSERT_EQUAL(s_, status);                                                               \
        CU_ASSERT(sol_ctx_message(ctx)[0] != '\0');                                                \
    } while (0)

/* The "N" graph of design/solver-methods.md: A -> C, A -> D, B -> D, all Exp(1), ids 0..3 = A..D
 * (exact mean 23/8). The caller frees it. */
sol_graph *tu_n_graph(sol_ctx *ctx);
/* A random duration with mean in [0.5, 2.5]: exponential or Erlang (1..max_phases phases) when
 * kinds = 2, also uniform or deterministic when kinds = 4. The caller frees it. */
sol_dist *tu_random_dist(sol_ctx *ctx, gsl_rng *r, unsigned kinds, unsigned max_phases);

#endif
