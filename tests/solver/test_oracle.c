/* Accuracy oracles at the default precision (issue 3, solver-methods.md "Oracles"): relative
 * error of the mean below 1e-5 and of the p95 quantile below 1e-3 for maxima of iid and
 * independent exponentials, Erlangs and uniforms, Erlang sums, and the paper's Table 3. */
#include <math.h>
#include <stdlib.h>

#include <gsl/gsl_cdf.h>
#include <gsl/gsl_integration.h>

#include "sol_dist.h"
#include "test_util.h"

#define MEAN_TOL 1e-5
#define Q95_TOL  1e-3

static const unsigned ns[] = {2, 3, 4, 8};

/* oracle-1: E[max of n iid Exp(1)] = H_n; p95 of the max solves (1 - e^-t)^n = 0.95. */
static void test_max_exponential(void)
{
    sol_ctx *ctx = sol_ctx_alloc();
    sol_dist *x, *m;
    TU_OK(sol_dist_exponential(ctx, 1.0, &x));
    for (size_t i = 0; i < 4; i++) {
        double H = 0.0;
        for (unsigned j = 1; j <= ns[i]; j++)
            H += 1.0 / j;
        TU_OK(sol_dist_max_n(ctx, x, ns[i], &m));
        TU_REL(sol_dist_mean(m), H, MEAN_TOL, "closed form H_n");
        TU_REL(sol_dist_quantile(m, 0.95), -log1p(-pow(0.95, 1.0 / ns[i])), Q95_TOL,
               "closed form -ln(1 - 0.95^(1/n))");
        sol_dist_free(m);
    }
    /* the table values of solver-methods.md, to their 7 digits */
    const double table[] = {1.5, 1.833333, 2.083333, 2.717857};
    for (size_t i = 0; i < 4; i++) {
        TU_OK(sol_dist_max_n(ctx, x, ns[i], &m));
        TU_REL(sol_dist_mean(m), table[i], MEAN_TOL, "solver-methods.md oracle table");
        sol_dist_free(m);
    }
    sol_dist_free(x);
    sol_ctx_free(ctx);
}

/* oracle-2: max of independent Exp with rates 1, 2, 3 = 73/60 (inclusion-exclusion:
 * 1 + 1/2 + 1/3 - 1/3 - 1/4 - 1/5 + 1/6). */
static void test_max_rates(void)
{
    sol_ctx *ctx = sol_ctx_alloc();
    sol_dist *e[3], *m, *m2;
    for (int i = 0; i < 3; i++)
        TU_OK(sol_dist_exponential(ctx, 1.0 / (i + 1), &e[i]));
    const sol_dist *ds[3] = {e[0], e[1], e[2]};
    TU_OK(sol_dist_max_all(ctx, 3, ds, &m));
    TU_REL(sol_dist_mean(m), 73.0 / 60.0, MEAN_TOL, "closed form 73/60");
    /* p95 solves (1-e^-t)(1-e^-2t)(1-e^-3t) = 0.95; checked through the exact CDF there */
    double t = sol_dist_quantile(m, 0.95);
    double F = -expm1(-t) * -expm1(-2 * t) * -expm1(-3 * t);
    TU_REL(F, 0.95, 1e-4, "closed-form CDF at the solver's p95");
    /* pairwise max gives the same distribution */
    TU_OK(sol_dist_max(ctx, e[0], e[1], &m2));
    sol_dist *m3;
    TU_OK(sol_dist_max(ctx, m2, e[2], &m3));
    TU_REL(sol_dist_mean(m3), 73.0 / 60.0, MEAN_TOL, "closed form 73/60");
    sol_dist_free(m);
    sol_dist_free(m2);
    sol_dist_free(m3);
    for (int i = 0; i < 3; i++)
        sol_dist_free(e[i]);
    sol_ctx_free(ctx);
}

struct prod_cdf {
    size_t n;
    double shape[4];
    double count[4];
};

/* 1 - prod_k F_k(t)^count_k for gamma(shape_k, 1) CDFs. */
static double one_minus_prod(double t, void *arg)
{
    const struct prod_cdf *p = arg;
    double logF = 0.0;
    for (size_t i = 0; i < p->n; i++)
        logF += p->count[i] * log(gsl_cdf_gamma_P(t, p->shape[i], 1.0));
    return -expm1(logF);
}

/* E[max] = integral of 1 - prod F over [0, inf) by gsl_integration_qagiu. */
static double quad_emax(const struct prod_cdf *p)
{
    gsl_integration_workspace *w = gsl_integration_workspace_alloc(1000);
    gsl_function f = {one_minus_prod, (void *)p};
    double res = NAN, err;
    CU_ASSERT_FATAL(w != NULL);
    CU_ASSERT_EQUAL(gsl_integration_qagiu(&f, 0.0, 1e-13, 1e-12, 1000, w, &res, &err), 0);
    gsl_integration_workspace_free(w);
    return res;
}

/* oracle-3: E[max of n iid Erlang(2, rate 1)]: 11/4, 347/108 closed forms; n = 4, 8 from the
 * table (7 digits) and from quadrature; p95 from gsl_cdf_gamma_Pinv(0.95^(1/n), 2, 1). */
static void test_max_erlang2(void)
{
    sol_ctx *ctx = sol_ctx_alloc();
    sol_dist *x, *m;
    TU_OK(sol_dist_erlang(ctx, 2, 1.0, &x));
    const double table[] = {11.0 / 4.0, 347.0 / 108.0, 3.547164, 4.360586};
    for (size_t i = 0; i < 4; i++) {
        TU_OK(sol_dist_max_n(ctx, x, ns[i], &m));
        struct prod_cdf p = {1, {2.0}, {(double)ns[i]}};
        TU_REL(sol_dist_mean(m), quad_emax(&p), MEAN_TOL, "quadrature of 1 - F^n");
        TU_REL(sol_dist_mean(m), table[i], i < 2 ? MEAN_TOL : 2e-6,
               "closed form (n = 2, 3) / 7-digit table (n = 4, 8)");
        TU_REL(sol_dist_quantile(m, 0.95), gsl_cdf_gamma_Pinv(pow(0.95, 1.0 / ns[i]), 2.0, 1.0),
               Q95_TOL, "gamma inverse CDF at 0.95^(1/n)");
        sol_dist_free(m);
    }
    sol_dist_free(x);
    sol_ctx_free(ctx);
}

/* oracle-4: E[max of n iid U(0,1)] = n/(n+1); p95 = 0.95^(1/n). */
static void test_max_uniform(void)
{
    sol_ctx *ctx = sol_ctx_alloc();
    sol_dist *x, *m;
    TU_OK(sol_dist_uniform(ctx, 0.0, 1.0, &x));
    for (size_t i = 0; i < 4; i++) {
        TU_OK(sol_dist_max_n(ctx, x, ns[i], &m));
        TU_REL(sol_dist_mean(m), ns[i] / (ns[i] + 1.0), MEAN_TOL, "closed form n/(n+1)");
        TU_REL(sol_dist_quantile(m, 0.95), pow(0.95, 1.0 / ns[i]), Q95_TOL,
               "closed form 0.95^(1/n)");
        sol_dist_free(m);
    }
    sol_dist_free(x);
    sol_ctx_free(ctx);
}

/* oracle-5: Erlang(a, m) + Erlang(b, m) = Erlang(a + b, m), and the m-fold sum of Erlang(k, m) is
 * Erlang(m k, m): mean, variance and quantiles from gsl_cdf_gamma_Pinv. */
static void test_erlang_sums(void)
{
    sol_ctx *ctx = sol_ctx_alloc();
    sol_dist *a, *b, *s, *e2, *s50;
    TU_OK(sol_dist_erlang(ctx, 3, 0.7, &a));
    TU_OK(sol_dist_erlang(ctx, 5, 0.7, &b));
    TU_OK(sol_dist_series(ctx, a, b, &s));
    TU_REL(sol_dist_mean(s), 8 * 0.7, 1e-12, "closed form k m");
    TU_REL(sol_dist_var(s), 8 * 0.49, 1e-12, "closed form k m^2");
    const double us[] = {0.05, 0.5, 0.95, 0.999};
    for (size_t i = 0; i < 4; i++)
        TU_REL(sol_dist_quantile(s, us[i]), gsl_cdf_gamma_Pinv(us[i], 8, 0.7), Q95_TOL,
               "gamma inverse CDF (8, 0.7)");
    TU_OK(sol_dist_erlang(ctx, 2, 1.0, &e2));
    TU_OK(sol_dist_series_n(ctx, e2, 50, &s50));
    TU_REL(sol_dist_mean(s50), 100.0, 1e-12, "closed form 50 * 2");
    TU_REL(sol_dist_var(s50), 100.0, 1e-12, "closed form 50 * 2");
    for (size_t i = 0; i < 4; i++)
        TU_REL(sol_dist_quantile(s50, us[i]), gsl_cdf_gamma_Pinv(us[i], 100, 1.0), Q95_TOL,
               "gamma inverse CDF (100, 1)");
    /* the lattice itself, not only the bookkeeping, keeps the mean */
    double lm = 0.0;
    for (size_t i = 0; i < sol_dist_len(s50); i++)
        lm += sol_dist_value(s50, i) * sol_dist_mass(s50, i);
    TU_REL(lm, 100.0, 1e-10, "closed form; lattice mean after regridding");
    sol_dist_free(a);
    sol_dist_free(b);
    sol_dist_free(s);
    sol_dist_free(e2);
    sol_dist_free(s50);
    sol_ctx_free(ctx);
}

/* oracle-6: the paper's Table 3 (scaled NEIGHBOR model, 10 columns of Erlang(8, 1) on p
 * processors, BLOCK mapping): per iteration E[max_k Erlang(8 c_k)], compared with quadrature of
 * 1 - prod F; twice the quadrature value is within 0.3% of the paper's 2-iteration column. */
static void test_table3(void)
{
    const double paper[] = {160, 87.1, 65.8, 53.8, 41.7, 40.5, 38.9, 36.7, 33, 25.7};
    sol_ctx *ctx = sol_ctx_alloc();
    sol_dist *x;
    TU_OK(sol_dist_erlang(ctx, 8, 1.0, &x));
    for (unsigned p = 1; p <= 10; p++) {
        unsigned ceil_c = (10 + p - 1) / p, floor_c = 10 / p;
        unsigned nceil = 10 % p ? 10 % p : p, nfloor = 10 % p ? p - 10 % p : 0;
        if (10 % p == 0)
            ceil_c = floor_c;
        sol_dist *sc, *mc, *r;
        TU_OK(sol_dist_series_n(ctx, x, ceil_c, &sc));
        TU_OK(sol_dist_max_n(ctx, sc, nceil, &mc));
        struct prod_cdf pc = {1, {8.0 * ceil_c}, {(double)nceil}};
        if (nfloor > 0 && floor_c > 0) {
            sol_dist *sf, *mf;
            TU_OK(sol_dist_series_n(ctx, x, floor_c, &sf));
            TU_OK(sol_dist_max_n(ctx, sf, nfloor, &mf));
            TU_OK(sol_dist_max(ctx, mc, mf, &r));
            pc.n = 2;
            pc.shape[1] = 8.0 * floor_c;
            pc.count[1] = nfloor;
            sol_dist_free(sf);
            sol_dist_free(mf);
        } else {
            r = sol_dist_retain(mc);
        }
        double q = quad_emax(&pc);
        TU_REL(sol_dist_mean(r), q, MEAN_TOL, "quadrature of 1 - prod F (Table 3 model)");
        TU_REL(2.0 * q, paper[p - 1], 3e-3, "paper, Table 3, 2 iterations (rounded down)");
        sol_dist_free(sc);
        sol_dist_free(mc);
        sol_dist_free(r);
    }
    sol_dist_free(x);
    sol_ctx_free(ctx);
}

/* oracle-7: max of n iid Exp(1) for large n: E = H_n ~ ln n + gamma, F^n computed in the upper
 * tail keeps it exact; n = 2^20 and n = 2^40 against the asymptotic series of H_n. */
static void test_max_large_n(void)
{
    sol_ctx *ctx = sol_ctx_alloc();
    sol_dist *x, *m;
    TU_OK(sol_dist_exponential(ctx, 1.0, &x));
    const double lg[] = {20, 40};
    for (int i = 0; i < 2; i++) {
        double n = ldexp(1.0, (int)lg[i]);
        TU_OK(sol_dist_max_n(ctx, x, (uint64_t)n, &m));
        double H = log(n) + 0.57721566490153286 + 0.5 / n - 1.0 / (12 * n * n);
        TU_REL(sol_dist_mean(m), H, MEAN_TOL, "asymptotic series of H_n (Euler-Maclaurin)");
        sol_dist_free(m);
    }
    sol_dist_free(x);
    sol_ctx_free(ctx);
}

static const tu_case cases[] = {{"oracle-1 max of iid exponentials", test_max_exponential},
                                {"oracle-2 max of rates 1,2,3", test_max_rates},
                                {"oracle-3 max of iid Erlang-2", test_max_erlang2},
                                {"oracle-4 max of iid uniforms", test_max_uniform},
                                {"oracle-5 Erlang sums", test_erlang_sums},
                                {"oracle-6 paper Table 3", test_table3},
                                {"oracle-7 max of 2^40 exponentials", test_max_large_n},
                                {NULL, NULL}};

int main(void)
{
    return tu_run("solver.oracle", cases);
}
