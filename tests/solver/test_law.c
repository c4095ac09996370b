/* sol_law: GSL distribution functions, closed-form partial expectations (checked by quadrature),
 * inverse CDFs, samplers, and the mean-exact discretisation of every family. */
#include <math.h>
#include <stdlib.h>

#include <gsl/gsl_integration.h>
#include <gsl/gsl_rng.h>

#include "sol_law.h"
#include "test_util.h"

typedef struct fam {
    sol_law_kind kind;
    double a, b;
} fam;

static const fam fams[] = {
    {SOL_LAW_EXPONENTIAL, 2.0, 0.0}, {SOL_LAW_ERLANG, 8.0, 1.0},    {SOL_LAW_GAMMA, 0.5, 3.0},
    {SOL_LAW_GAMMA, 40.0, 0.1},      {SOL_LAW_UNIFORM, 1.0, 4.0},   {SOL_LAW_NORMAL, 5.0, 1.0},
    {SOL_LAW_NORMAL, -1.0, 2.0},     {SOL_LAW_LOGNORMAL, 0.5, 0.4}, {SOL_LAW_WEIBULL, 1.7, 2.0},
    {SOL_LAW_WEIBULL, 0.6, 1.0},
};
#define NFAMS (sizeof fams / sizeof *fams)

static sol_law *make(sol_ctx *ctx, const fam *f)
{
    sol_law *l = NULL;
    TU_OK(sol_law_new(ctx, f->kind, f->a, f->b, &l));
    return l;
}

static double density_num(double x, void *arg)
{
    /* x f(x) from a central difference of the CDF: independent of the closed forms */
    const sol_law *l = arg;
    double h = 1e-5 * fmax(1.0, fabs(x));
    return x * (sol_law_cdf(l, x + h) - sol_law_cdf(l, x - h)) / (2.0 * h);
}

/* law-1: lpe(x) + upe(x) = mean, cdf + sf = 1, and lpe matches quadrature of x dF. */
static void test_partial_expectations(void)
{
    sol_ctx *ctx = sol_ctx_alloc();
    gsl_integration_workspace *w = gsl_integration_workspace_alloc(1000);
    for (size_t i = 0; i < NFAMS; i++) {
        sol_law *l = make(ctx, &fams[i]);
        double lo = sol_law_support_min(l);
        for (double u = 0.1; u < 1.0; u += 0.2) {
            double x = sol_law_quantile(l, u);
            TU_REL(sol_law_cdf(l, x), u, 1e-10, "inverse CDF");
            TU_REL(sol_law_cdf(l, x) + sol_law_sf(l, x), 1.0, 1e-14, "complement");
            TU_REL(sol_law_lpe(l, x) + sol_law_upe(l, x), sol_law_mean(l), 1e-12,
                   "partial expectations add to the mean");
            double q, err;
            gsl_function f = {density_num, l};
            gsl_integration_qags(&f, lo + 1e-12, x, 1e-12, 1e-8, 1000, w, &q, &err);
            TU_REL(sol_law_lpe(l, x), q, 1e-5, "quadrature of x dF (numerical density)");
        }
        sol_law_free(l);
    }
    gsl_integration_workspace_free(w);
    sol_ctx_free(ctx);
}

/* law-2: the discretisation keeps mass and mean exactly, the variance to O(h^2), and its CDF at
 * lattice points lies between the true CDF at the point and one cell later. */
static void test_discretise(void)
{
    sol_ctx *ctx = sol_ctx_alloc();
    for (size_t i = 0; i < NFAMS; i++) {
        sol_law *l = make(ctx, &fams[i]);
        int e;
        int64_t k0;
        size_t n;
        double *m;
        TU_OK(sol_law_discretise(ctx, l, 4096, &e, &k0, &n, &m));
        CU_ASSERT(n <= 4096);
        double h = ldexp(1.0, e), tot = 0.0, mean = 0.0, m2 = 0.0, F = 0.0;
        int bracket = 1;
        for (size_t j = 0; j < n; j++) {
            double x = (double)(k0 + (int64_t)j) * h;
            tot += m[j];
            mean += m[j] * x;
            m2 += m[j] * x * x;
            F += m[j];
            if (F < sol_law_cdf(l, x) - 1e-12 || F > sol_law_cdf(l, x + h) + 1e-12)
                bracket = 0;
        }
        TU_REL(tot, 1.0, 1e-13, "total mass");
        TU_REL(mean, sol_law_mean(l), 1e-10, "closed-form mean (mean-exact rule)");
        /* each cell adds at most h^2/4 of variance */
        CU_ASSERT(m2 - mean * mean >= sol_law_var(l) * (1.0 - 1e-10));
        CU_ASSERT(m2 - mean * mean <= sol_law_var(l) + h * h / 4.0 + 1e-12);
        CU_ASSERT(bracket);
        free(m);
        sol_law_free(l);
    }
    sol_ctx_free(ctx);
}

/* law-3: the hyperexponential's inverse survival function (Brent) and its moments. */
static void test_hyperexp(void)
{
    sol_ctx *ctx = sol_ctx_alloc();
    const double p[3] = {0.5, 0.3, 0.2}, mu[3] = {1.0, 5.0, 50.0};
    sol_law *l;
    TU_OK(sol_law_new_hyperexp(ctx, 3, p, mu, &l));
    TU_REL(sol_law_mean(l), 0.5 + 1.5 + 10.0, 1e-15, "sum p_i m_i");
    TU_REL(sol_law_var(l), 2 * (0.5 + 0.3 * 25 + 0.2 * 2500) - 144.0, 1e-12,
           "sum 2 p_i m_i^2 - mean^2");
    const double qs[] = {0.5, 1e-3, 1e-12};
    for (int i = 0; i < 3; i++) {
        double x = sol_law_isf(l, qs[i]);
        double sf = 0.5 * exp(-x) + 0.3 * exp(-x / 5.0) + 0.2 * exp(-x / 50.0);
        TU_REL(sf, qs[i], 1e-9, "closed-form survival at the root");
    }
    sol_law *c = sol_law_copy(l);
    CU_ASSERT_STRING_EQUAL(sol_law_name(c), "hyperexponential");
    sol_law_free(c);
    sol_law_free(l);
    sol_ctx_free(ctx);
}

/* law-4: samplers agree with the exact mean (Monte Carlo, 5 standard errors). */
static void test_samplers(void)
{
    sol_ctx *ctx = sol_ctx_alloc();
    gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
    for (size_t i = 0; i < NFAMS; i++) {
        sol_law *l = make(ctx, &fams[i]);
        const int n = 50000;
        double acc = 0.0;
        for (int k = 0; k < n; k++) {
            double x = sol_law_sample(l, r);
            CU_ASSERT(x >= sol_law_support_min(l));
            acc += x;
        }
        double se = sqrt(sol_law_var(l) / n);
        TU_REL(acc / n, sol_law_mean(l), 5.0 * se / sol_law_mean(l), "Monte Carlo mean");
        sol_law_free(l);
    }
    /* a heavily truncated normal uses the tail sampler */
    sol_law *t;
    TU_OK(sol_law_new(ctx, SOL_LAW_NORMAL, -3.0, 1.0, &t));
    double acc = 0.0;
    for (int k = 0; k < 20000; k++)
        acc += sol_law_sample(t, r);
    TU_REL(acc / 20000, sol_law_mean(t), 0.02, "Monte Carlo mean of the tail sampler");
    sol_law_free(t);
    gsl_rng_free(r);
    sol_ctx_free(ctx);
}

static const tu_case cases[] = {{"law-1 partial expectations", test_partial_expectations},
                                {"law-2 mean-exact discretisation", test_discretise},
                                {"law-3 hyperexponential", test_hyperexp},
                                {"law-4 samplers", test_samplers},
                                {NULL, NULL}};

int main(void)
{
    return tu_run("solver.law", cases);
}
