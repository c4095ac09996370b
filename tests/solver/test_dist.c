/* sol_dist: exact point mode, mixtures, geometric sums, minima, shift/scale, measured data,
 * parameter errors, cdf/quantile consistency, sampling, reference counting and limits. */
#include <math.h>
#include <string.h>

#include <gsl/gsl_cdf.h>
#include <gsl/gsl_rng.h>

#include "sol_dist.h"
#include "test_util.h"

/* Mean computed from the stored masses (not the bookkeeping). */
static double stored_mean(const sol_dist *d)
{
    double m = 0.0;
    for (size_t i = 0; i < sol_dist_len(d); i++)
        m += sol_dist_value(d, i) * sol_dist_mass(d, i);
    return m;
}

static sol_dist *det(sol_ctx *ctx, double x)
{
    sol_dist *d = NULL;
    TU_OK(sol_dist_deterministic(ctx, x, &d));
    return d;
}

/* dist-1: deterministic programs are exact: sums, maxima, minima, m-fold sums, weighted
 * branches, all in point mode; expected values are arithmetic. */
static void test_points_exact(void)
{
    sol_ctx *ctx = sol_ctx_alloc();
    sol_dist *a = det(ctx, 1.25), *b = det(ctx, 0.1), *c = det(ctx, 3.0), *s, *m, *n, *w;
    TU_OK(sol_dist_series(ctx, a, b, &s));
    CU_ASSERT(!sol_dist_is_lattice(s));
    TU_REL(sol_dist_mean(s), 1.35, 1e-12, "arithmetic 1.25 + 0.1");
    TU_REL(sol_dist_quantile(s, 0.95), 1.35, 1e-12, "arithmetic");
    TU_OK(sol_dist_max(ctx, s, c, &m));
    TU_REL(sol_dist_mean(m), 3.0, 1e-12, "max(1.35, 3)");
    sol_dist_free(m);
    TU_OK(sol_dist_min(ctx, s, c, &m));
    TU_REL(sol_dist_mean(m), 1.35, 1e-12, "min(1.35, 3)");
    sol_dist_free(m);
    TU_OK(sol_dist_series_n(ctx, b, 1000000, &n));
    CU_ASSERT(!sol_dist_is_lattice(n));
    TU_REL(sol_dist_mean(n), 100000.0, 1e-12, "arithmetic 10^6 * 0.1");
    TU_REL(sol_dist_var(n), 0.0, 1e-12, "deterministic");
    /* a weighted branch: 0.3 -> 1.25, 0.7 -> 3, then plus 0.1, then max with 2 */
    const sol_dist *br[2] = {a, c};
    const double wt[2] = {0.3, 0.7};
    TU_OK(sol_dist_mixture(ctx, 2, br, wt, &w));
    CU_ASSERT_EQUAL(sol_dist_len(w), 2);
    TU_REL(sol_dist_mean(w), 0.3 * 1.25 + 0.7 * 3.0, 1e-12, "weighted sum");
    TU_REL(sol_dist_var(w), 0.3 * 0.7 * 1.75 * 1.75, 1e-12, "Bernoulli variance p q d^2");
    sol_dist *w2, *two = det(ctx, 2.0), *mx;
    TU_OK(sol_dist_series(ctx, w, b, &w2));
    TU_OK(sol_dist_max(ctx, w2, two, &mx));
    CU_ASSERT(!sol_dist_is_lattice(mx));
    TU_REL(sol_dist_mean(mx), 0.3 * 2.0 + 0.7 * 3.1, 1e-12, "max(branch + 0.1, 2) by cases");
    TU_REL(sol_dist_cdf(mx, 2.0), 0.3, 1e-12, "step CDF");
    TU_REL(sol_dist_quantile(mx, 0.3), 2.0, 1e-12, "step quantile at the jump");
    TU_REL(sol_dist_quantile(mx, 0.31), 3.1, 1e-12, "step quantile after the jump");
    /* the max of 3 iid two-point branches: P(max = 3) = 1 - 0.3^3 */
    sol_dist *m3;
    TU_OK(sol_dist_max_n(ctx, w, 3, &m3));
    TU_REL(sol_dist_mean(m3), 1.25 * 0.027 + 3.0 * 0.973, 1e-12, "binomial 0.3^3");
    sol_dist_free(m3);
    sol_dist *zero;
    TU_OK(sol_dist_series_n(ctx, a, 0, &zero));
    TU_REL(sol_dist_mean(zero), 0.0, 1e-15, "empty sum");
    sol_dist_free(zero);
    TU_OK(sol_dist_max_n(ctx, a, 0, &zero));
    TU_REL(sol_dist_mean(zero), 0.0, 1e-15, "empty max (durations are >= 0)");
    sol_dist_free(zero);
    sol_dist *arr[] = {a, b, c, s, n, w, two, w2, mx};
    for (size_t i = 0; i < sizeof arr / sizeof *arr; i++)
        sol_dist_free(arr[i]);
    sol_ctx_free(ctx);
}

/* dist-2: too many atoms turn into a mean-exact lattice; a binomial sum stays exact in mean. */
static void test_points_to_lattice(void)
{
    sol_ctx *ctx = sol_ctx_alloc();
    const double v[2] = {0.0, 1.0}, p[2] = {0.5, 0.5};
    sol_dist *bern, *bin;
    TU_OK(sol_dist_histogram(ctx, 2, v, p, &bern));
    TU_OK(sol_dist_series_n(ctx, bern, 100, &bin));
    CU_ASSERT(sol_dist_is_lattice(bin)); /* 101 atoms > SOL_POINTS_MAX */
    TU_REL(sol_dist_mean(bin), 50.0, 1e-12, "binomial(100, 1/2) mean");
    TU_REL(sol_dist_var(bin), 25.0, 1e-12, "binomial(100, 1/2) variance");
    TU_REL(stored_mean(bin), 50.0, 1e-12, "binomial mean from the lattice");
    size_t at50 = (size_t)((50.0 - sol_dist_min_value(bin)) / sol_dist_step(bin));
    TU_REL(sol_dist_value(bin, at50), 50.0, 0.0, "integers are lattice points");
    TU_REL(sol_dist_mass(bin, at50), 0.07958923738717877, 1e-9, "binomial pmf C(100,50)/2^100");
    sol_dist_free(bern);
    sol_dist_free(bin);
    sol_ctx_free(ctx);
}

/* dist-3: mixtures: mean = weighted sum, variance by total variance; lattice mean too. */
static void test_mixture(void)
{
    sol_ctx *ctx = sol_ctx_alloc();
    sol_dist *e, *g, *d, *m;
    TU_OK(sol_dist_exponential(ctx, 1.0, &e));
    TU_OK(sol_dist_erlang(ctx, 3, 2.0, &g));
    d = det(ctx, 0.5);
    const sol_dist *ds[3] = {e, g, d};
    const double w[3] = {0.2, 0.5, 0.3};
    TU_OK(sol_dist_mixture(ctx, 3, ds, w, &m));
    double mean = 0.2 * 1.0 + 0.5 * 6.0 + 0.3 * 0.5;
    double m2 = 0.2 * 2.0 + 0.5 * (12.0 + 36.0) + 0.3 * 0.25;
    TU_REL(sol_dist_mean(m), mean, 1e-12, "weighted sum of means");
    TU_REL(sol_dist_var(m), m2 - mean * mean, 1e-12, "weighted second moments");
    TU_REL(stored_mean(m), mean, 1e-9, "weighted sum, from the lattice");
    /* CDF is the weighted sum of CDFs: at t = 3, 0.2(1-e^-3) + 0.5 P(Erl(3,2) <= 3) + 0.3 */
    double erl = 1.0 - exp(-1.5) * (1.0 + 1.5 + 1.125);
    TU_REL(sol_dist_cdf(m, 3.0), 0.2 * -expm1(-3.0) + 0.5 * erl + 0.3, 1e-4,
           "closed-form CDFs (lattice reading)");
    sol_dist_free(m);
    const double bad[2] = {0.5, 0.6};
    TU_FAILS(sol_dist_mixture(ctx, 2, ds, bad, &m), SOL_EINVAL);
    CU_ASSERT(strstr(sol_ctx_message(ctx), "sum") != NULL);
    sol_dist_free(e);
    sol_dist_free(g);
    sol_dist_free(d);
    sol_ctx_free(ctx);
}

/* dist-4: geometric sums. star(Exp(mu), q) is 0 w.p. 1-q, else Exp(mu/(1-q)), so its CDF is
 * 1 - q exp(-(1-q) t / mu); means (q/(1-q)) E[X] and E[X]/(1-q). */
static void test_star_plus(void)
{
    sol_ctx *ctx = sol_ctx_alloc();
    sol_dist *e, *s, *p, *d, *sd;
    TU_OK(sol_dist_exponential(ctx, 2.0, &e));
    const double qs[] = {0.1, 0.5, 0.9, 0.99};
    for (size_t i = 0; i < 4; i++) {
        double q = qs[i];
        TU_OK(sol_dist_star(ctx, e, q, &s));
        TU_OK(sol_dist_plus(ctx, e, q, &p));
        TU_REL(sol_dist_mean(s), q / (1 - q) * 2.0, 1e-12, "closed form q/(1-q) E[X]");
        TU_REL(sol_dist_mean(p), 2.0 / (1 - q), 1e-12, "closed form E[X]/(1-q)");
        TU_REL(stored_mean(s), q / (1 - q) * 2.0, 1e-8, "closed form, from the lattice");
        TU_REL(stored_mean(p), 2.0 / (1 - q), 1e-8, "closed form, from the lattice");
        double t = 2.0 / (1 - q);
        TU_REL(sol_dist_cdf(s, t), 1.0 - q * exp(-1.0), 1e-4, "closed-form CDF of star(Exp)");
        TU_REL(sol_dist_cdf(p, t), 1.0 - exp(-1.0), 1e-4, "plus(Exp) is Exp(mu/(1-q))");
        sol_dist_free(s);
        sol_dist_free(p);
    }
    /* a deterministic body: N * 1 with N geometric: P(star <= 2) = 1 - q^3 */
    d = det(ctx, 1.0);
    TU_OK(sol_dist_star(ctx, d, 0.5, &sd));
    TU_REL(sol_dist_mean(sd), 1.0, 1e-12, "closed form q/(1-q)");
    TU_REL(stored_mean(sd), 1.0, 1e-9, "closed form, from the lattice");
    /* integer atoms on a fine lattice: between atoms the lattice reading is exact */
    TU_REL(sol_dist_cdf(sd, 2.25), 1.0 - 0.125, 1e-9, "geometric CDF 1 - q^3");
    CU_ASSERT(sol_ctx_tail_mass(ctx) < 1e-10); /* truncation recorded, and tiny */
    TU_FAILS(sol_dist_star(ctx, d, 1.0, &s), SOL_EINVAL);
    TU_FAILS(sol_dist_plus(ctx, d, -0.1, &s), SOL_EINVAL);
    TU_OK(sol_dist_star(ctx, d, 0.0, &s));
    TU_REL(sol_dist_mean(s), 0.0, 1e-15, "q = 0: no passes");
    sol_dist_free(s);
    sol_dist_free(e);
    sol_dist_free(d);
    sol_dist_free(sd);
    sol_ctx_free(ctx);
}

/* dist-5: minima: min of independent exponentials is exponential with the summed rate. */
static void test_min(void)
{
    sol_ctx *ctx = sol_ctx_alloc();
    sol_dist *a, *b, *m, *m4;
    TU_OK(sol_dist_exponential(ctx, 1.0, &a));
    TU_OK(sol_dist_exponential(ctx, 0.5, &b));
    TU_OK(sol_dist_min(ctx, a, b, &m));
    TU_REL(sol_dist_mean(m), 1.0 / 3.0, 1e-5, "closed form 1/(1+2)");
    TU_REL(sol_dist_quantile(m, 0.95), -log(0.05) / 3.0, 1e-3, "closed form Exp(3) quantile");
    TU_REL(sol_dist_cdf(m, 0.5), -expm1(-1.5), 1e-4, "closed form Exp(3) CDF");
    TU_OK(sol_dist_min_n(ctx, a, 4, &m4));
    TU_REL(sol_dist_mean(m4), 0.25, 1e-5, "closed form 1/4");
    sol_dist_free(m4);
    TU_FAILS(sol_dist_min_n(ctx, a, 0, &m4), SOL_EINVAL);
    sol_dist_free(a);
    sol_dist_free(b);
    sol_dist_free(m);
    sol_ctx_free(ctx);
}

/* dist-6: shift and scale keep the law (exact queries) and the mean of the stored masses. */
static void test_shift_scale(void)
{
    sol_ctx *ctx = sol_ctx_alloc();
    sol_dist *e, *s, *c, *c2, *sum, *ss;
    TU_OK(sol_dist_exponential(ctx, 1.0, &e));
    TU_OK(sol_dist_shift(ctx, e, 0.3, &s));
    TU_REL(sol_dist_mean(s), 1.3, 1e-15, "1 + 0.3");
    TU_REL(stored_mean(s), 1.3, 1e-10, "1 + 0.3, from the lattice");
    TU_REL(sol_dist_cdf(s, 1.3), -expm1(-1.0), 1e-14, "exact law: 1 - e^-1");
    CU_ASSERT_STRING_EQUAL(sol_dist_law_name(s), "exponential");
    TU_OK(sol_dist_scale(ctx, e, 3.0, &c));
    TU_REL(sol_dist_mean(c), 3.0, 1e-15, "3 * 1");
    TU_REL(sol_dist_var(c), 9.0, 1e-15, "9 * 1");
    TU_REL(stored_mean(c), 3.0, 1e-10, "3 * 1, from the lattice");
    TU_REL(sol_dist_quantile(c, 0.5), 3.0 * log(2.0), 1e-14, "exact law: 3 ln 2");
    TU_OK(sol_dist_scale(ctx, e, 0.25, &c2)); /* power of two: exact, same masses */
    CU_ASSERT_EQUAL(sol_dist_len(c2), sol_dist_len(e));
    TU_REL(stored_mean(c2), 0.25, 1e-10, "1/4, from the lattice");
    /* a sum of exponentials of one mean keeps its Erlang law; a sum with a uniform has none
     * and is shifted on the lattice alone */
    TU_OK(sol_dist_series(ctx, e, e, &sum));
    CU_ASSERT_STRING_EQUAL(sol_dist_law_name(sum), "erlang");
    sol_dist *u, *eu, *t;
    TU_OK(sol_dist_uniform(ctx, 0.0, 2.0, &u));
    TU_OK(sol_dist_series(ctx, e, u, &eu));
    CU_ASSERT(sol_dist_law_name(eu) == NULL);
    TU_OK(sol_dist_shift(ctx, eu, 0.123456789, &t));
    CU_ASSERT(sol_dist_law_name(t) == NULL);
    TU_REL(stored_mean(t), 2.0 + 0.123456789, 1e-9, "1 + 1 + shift, from the lattice");
    sol_dist_free(u);
    sol_dist_free(eu);
    sol_dist_free(t);
    /* shifted by a non-multiple of h and scaled by a non-power of two */
    TU_OK(sol_dist_shift(ctx, sum, 0.123456789, &t));
    TU_OK(sol_dist_scale(ctx, t, 1.7, &ss));
    sol_dist_free(t);
    TU_REL(sol_dist_mean(ss), 1.7 * (2.0 + 0.123456789), 1e-14, "affine map of the mean");
    TU_REL(stored_mean(ss), 1.7 * (2.0 + 0.123456789), 1e-9, "affine map, from the lattice");
    /* Erlang(2, 1) quantile, mapped */
    TU_REL(sol_dist_quantile(ss, 0.95), 1.7 * (4.743864518 + 0.123456789), 1e-3,
           "gamma_Pinv(0.95, 2, 1) = 4.743864518, mapped");
    TU_FAILS(sol_dist_scale(ctx, e, 0.0, &t), SOL_EINVAL);
    TU_FAILS(sol_dist_shift(ctx, e, INFINITY, &t), SOL_EINVAL);
    sol_dist *arr[] = {e, s, c, c2, sum, ss};
    for (size_t i = 0; i < sizeof arr / sizeof *arr; i++)
        sol_dist_free(arr[i]);
    sol_ctx_free(ctx);
}

/* dist-7: measured data: a small histogram stays exact; many samples become a mean-exact
 * lattice whose mean is the sample mean. */
static void test_measured(void)
{
    sol_ctx *ctx = sol_ctx_alloc();
    const double v[3] = {2.0, 1.0, 4.0}, p[3] = {0.25, 0.5, 0.25};
    sol_dist *h, *s;
    TU_OK(sol_dist_histogram(ctx, 3, v, p, &h));
    CU_ASSERT(!sol_dist_is_lattice(h));
    TU_REL(sol_dist_mean(h), 2.0, 1e-15, "0.5 + 0.5 + 1");
    TU_REL(sol_dist_value(h, 0), 1.0, 0.0, "sorted values");
    TU_REL(sol_dist_quantile(h, 0.6), 2.0, 0.0, "step quantile");
    double xs[1000], mean = 0.0;
    gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
    for (int i = 0; i < 1000; i++) {
        xs[i] = 5.0 + gsl_rng_uniform(r) * 10.0;
        mean += xs[i] / 1000.0;
    }
    TU_OK(sol_dist_samples(ctx, 1000, xs, &s));
    CU_ASSERT(sol_dist_is_lattice(s));
    TU_REL(sol_dist_mean(s), mean, 1e-12, "sample mean");
    TU_REL(stored_mean(s), mean, 1e-12, "sample mean, from the lattice");
    TU_REL(sol_dist_cdf(s, 10.0), 0.5, 0.06, "uniform samples: about half below 10");
    const double bad[3] = {0.25, 0.5, 0.5};
    sol_dist *x;
    TU_FAILS(sol_dist_histogram(ctx, 3, v, bad, &x), SOL_EINVAL);
    CU_ASSERT(strstr(sol_ctx_message(ctx), "sum") != NULL);
    const double neg[3] = {0.25, -0.5, 1.25};
    TU_FAILS(sol_dist_histogram(ctx, 3, v, neg, &x), SOL_EINVAL);
    CU_ASSERT(strstr(sol_ctx_message(ctx), "probability 2") != NULL);
    TU_FAILS(sol_dist_samples(ctx, 0, xs, &x), SOL_EINVAL);
    xs[7] = NAN;
    TU_FAILS(sol_dist_samples(ctx, 1000, xs, &x), SOL_EINVAL);
    CU_ASSERT(strstr(sol_ctx_message(ctx), "value 8") != NULL);
    gsl_rng_free(r);
    sol_dist_free(h);
    sol_dist_free(s);
    sol_ctx_free(ctx);
}

/* dist-8: every bad parameter is SOL_EINVAL with a message naming it; degenerate parameters
 * give deterministic values. */
static void test_param_errors(void)
{
    sol_ctx *ctx = sol_ctx_alloc();
    sol_dist *d = NULL;
    struct {
        sol_status st;
        const char *word;
    } cases[] = {
        {sol_dist_exponential(ctx, -1.0, &d), "mean"},
        {sol_dist_erlang(ctx, 2.5, 1.0, &d), "phase count"},
        {sol_dist_erlang(ctx, 0.0, 1.0, &d), "phase count"},
        {sol_dist_erlang(ctx, 3.0, 0.0, &d), "phase mean"},
        {sol_dist_gamma(ctx, 0.0, 1.0, &d), "shape"},
        {sol_dist_gamma(ctx, 1.0, -2.0, &d), "scale"},
        {sol_dist_uniform(ctx, 2.0, 1.0, &d), "bounds"},
        {sol_dist_normal(ctx, 1.0, -1.0, &d), "sigma"},
        {sol_dist_normal(ctx, -1e6, 1.0, &d), "no mass"},
        {sol_dist_lognormal(ctx, NAN, 1.0, &d), "mu"},
        {sol_dist_weibull(ctx, 1.0, 0.0, &d), "scale"},
        {sol_dist_deterministic(ctx, INFINITY, &d), "finite"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        CU_ASSERT_EQUAL(cases[i].st, SOL_EINVAL);
        CU_ASSERT(d == NULL);
    }
    /* messages are checked one at a time since each call overwrites the last */
    TU_FAILS(sol_dist_erlang(ctx, 2.5, 1.0, &d), SOL_EINVAL);
    CU_ASSERT(strstr(sol_ctx_message(ctx), "phase count") != NULL);
    TU_FAILS(sol_dist_normal(ctx, 1.0, -1.0, &d), SOL_EINVAL);
    CU_ASSERT(strstr(sol_ctx_message(ctx), "sigma") != NULL);
    const double p[2] = {0.5, 0.6}, m[2] = {1.0, 2.0}, m0[2] = {1.0, 0.0}, p1[2] = {0.5, 0.5};
    TU_FAILS(sol_dist_hyperexp(ctx, 2, p, m, &d), SOL_EINVAL);
    CU_ASSERT(strstr(sol_ctx_message(ctx), "sum") != NULL);
    TU_FAILS(sol_dist_hyperexp(ctx, 2, p1, m0, &d), SOL_EINVAL);
    CU_ASSERT(strstr(sol_ctx_message(ctx), "mean 2") != NULL);
    TU_FAILS(sol_dist_hyperexp(ctx, 0, p1, m, &d), SOL_EINVAL);
    TU_OK(sol_dist_normal(ctx, 2.0, 0.0, &d));
    TU_REL(sol_dist_mean(d), 2.0, 0.0, "sigma 0: deterministic mu");
    sol_dist_free(d);
    TU_OK(sol_dist_lognormal(ctx, 1.0, 0.0, &d));
    TU_REL(sol_dist_mean(d), exp(1.0), 1e-15, "sigma 0: deterministic e^mu");
    sol_dist_free(d);
    TU_OK(sol_dist_uniform(ctx, 3.0, 3.0, &d));
    CU_ASSERT(!sol_dist_is_lattice(d));
    sol_dist_free(d);
    sol_ctx_free(ctx);
}

/* dist-9: cdf and quantile invert each other on lattices and points. */
static void test_cdf_quantile(void)
{
    sol_ctx *ctx = sol_ctx_alloc();
    sol_dist *g, *s, *d;
    TU_OK(sol_dist_gamma(ctx, 2.5, 1.5, &g));
    TU_OK(sol_dist_series(ctx, g, g, &s)); /* no law: the lattice answers */
    for (double u = 0.01; u < 1.0; u += 0.07) {
        TU_REL(sol_dist_cdf(s, sol_dist_quantile(s, u)), u, 1e-9, "cdf(quantile(u)) = u");
        TU_REL(sol_dist_cdf(g, sol_dist_quantile(g, u)), u, 1e-9, "exact law");
    }
    /* the lattice reading of a gamma(5, 1.5) against its exact CDF */
    for (double t = 2.0; t < 20.0; t += 3.0)
        TU_REL(sol_dist_cdf(s, t), gsl_cdf_gamma_P(t, 5.0, 1.5), 1e-4, "gamma(5, 1.5) CDF");
    CU_ASSERT_EQUAL(sol_dist_cdf(s, -1.0), 0.0);
    CU_ASSERT_EQUAL(sol_dist_cdf(s, 1e9), 1.0);
    CU_ASSERT(isnan(sol_dist_quantile(s, 1.5)));
    const double v[3] = {1.0, 2.0, 3.0}, p[3] = {0.2, 0.3, 0.5};
    TU_OK(sol_dist_histogram(ctx, 3, v, p, &d));
    for (int i = 0; i < 3; i++)
        TU_REL(sol_dist_quantile(d, sol_dist_cdf(d, v[i])), v[i], 0.0, "points: exact");
    sol_dist_free(g);
    sol_dist_free(s);
    sol_dist_free(d);
    sol_ctx_free(ctx);
}

/* dist-10: sampling: exact law samplers (Monte Carlo mean within 5 standard errors) and the
 * discrete stored masses. */
static void test_sampling(void)
{
    sol_ctx *ctx = sol_ctx_alloc();
    gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
    sol_dist *e, *w, *sum;
    TU_OK(sol_dist_erlang(ctx, 4, 0.5, &e));
    TU_OK(sol_dist_scale(ctx, e, 3.0, &w));
    TU_OK(sol_dist_series(ctx, e, e, &sum));
    const sol_dist *ds[3] = {e, w, sum};
    const double means[3] = {2.0, 6.0, 4.0}, sds[3] = {1.0, 3.0, sqrt(2.0)};
    const int n = 100000;
    for (int k = 0; k < 3; k++) {
        double acc = 0.0;
        for (int i = 0; i < n; i++)
            acc += sol_dist_sample(ds[k], r);
        TU_REL(acc / n, means[k], 5.0 * sds[k] / sqrt(n) / means[k],
               "Monte Carlo mean, 5 standard errors");
    }
    sol_dist *d = det(ctx, 7.5);
    CU_ASSERT_EQUAL(sol_dist_sample(d, r), 7.5);
    sol_dist_free(d);
    sol_dist_free(e);
    sol_dist_free(w);
    sol_dist_free(sum);
    gsl_rng_free(r);
    sol_ctx_free(ctx);
}

/* dist-11: reference counting and sharing. */
static void test_refcount(void)
{
    sol_ctx *ctx = sol_ctx_alloc();
    sol_dist *e, *same;
    TU_OK(sol_dist_exponential(ctx, 1.0, &e));
    CU_ASSERT(sol_dist_retain(e) == e);
    sol_dist_free(e);
    TU_OK(sol_dist_series_n(ctx, e, 1, &same)); /* a one-fold sum is the input itself */
    CU_ASSERT(same == e);
    sol_dist_free(same);
    TU_REL(sol_dist_mean(e), 1.0, 0.0, "still alive");
    sol_dist_free(e);
    sol_dist_free(NULL);
    sol_ctx_free(ctx);
}

/* dist-12: limits and regridding: huge counts, far-apart mixtures, long sums, tiny lattices,
 * values at the edge of double range. */
static void test_limits(void)
{
    sol_ctx *ctx = sol_ctx_alloc();
    sol_dist *e, *x, *far, *mix, *s;
    TU_OK(sol_dist_exponential(ctx, 1.0, &e));
    TU_FAILS(sol_dist_series_n(ctx, e, SOL_COUNT_MAX + 1, &x), SOL_ELIMIT);
    TU_FAILS(sol_dist_max_n(ctx, e, UINT64_MAX, &x), SOL_ELIMIT);
    /* a sum of 2^40 exponentials: mean exact, p95 by the normal approximation */
    TU_OK(sol_dist_series_n(ctx, e, (uint64_t)1 << 40, &s));
    double n = ldexp(1.0, 40);
    TU_REL(sol_dist_mean(s), n, 1e-12, "closed form 2^40");
    TU_REL(stored_mean(s), n, 1e-9, "closed form 2^40, from the lattice");
    TU_REL(sol_dist_quantile(s, 0.95), n + 1.6448536269514722 * sqrt(n), 1e-6,
           "CLT: gamma(2^40) is normal to 1e-6 relative");
    sol_dist_free(s);
    /* mixture of values 10^6 apart: one lattice, coarse step, exact mean */
    far = det(ctx, 1e6);
    const sol_dist *ds[2] = {e, far};
    const double w[2] = {0.5, 0.5};
    TU_OK(sol_dist_mixture(ctx, 2, ds, w, &mix));
    TU_REL(stored_mean(mix), 0.5 * (1.0 + 1e6), 1e-12, "weighted sum, from the lattice");
    CU_ASSERT(sol_dist_len(mix) <= sol_ctx_max_len(ctx));
    sol_dist_free(mix);
    /* the smallest lattice still keeps means */
    TU_OK(sol_ctx_set_max_len(ctx, SOL_LEN_MIN));
    sol_dist *g, *g8;
    TU_OK(sol_dist_gamma(ctx, 3.0, 1.0, &g));
    CU_ASSERT(sol_dist_len(g) <= SOL_LEN_MIN);
    TU_REL(stored_mean(g), 3.0, 1e-12, "gamma(3, 1) mean at 64 points");
    TU_OK(sol_dist_max_n(ctx, g, 8, &g8));
    CU_ASSERT(sol_dist_len(g8) <= SOL_LEN_MIN);
    sol_dist_free(g);
    sol_dist_free(g8);
    TU_OK(sol_ctx_set_max_len(ctx, SOL_LEN_DEFAULT));
    /* sums overflowing double range are reported, not returned as inf */
    sol_dist *big = det(ctx, 1.5e308);
    TU_FAILS(sol_dist_series(ctx, big, big, &x), SOL_ENUMERIC);
    TU_OK(sol_dist_series(ctx, big, e, &x)); /* e is negligible next to 1.5e308 */
    TU_REL(sol_dist_mean(x), 1.5e308, 1e-12, "1.5e308 + 1");
    sol_dist_free(x);
    sol_dist_free(big);
    sol_dist_free(far);
    sol_dist_free(e);
    sol_ctx_free(ctx);
}

/* dist-13: heavy tails keep the mean exact and say when the body is coarse. */
static void test_heavy_tails(void)
{
    sol_ctx *ctx = sol_ctx_alloc();
    sol_dist *ln, *hx, *m;
    TU_OK(sol_dist_lognormal(ctx, 0.0, 3.0, &ln));
    TU_REL(stored_mean(ln), exp(4.5), 1e-9, "lognormal mean e^(mu + sigma^2/2), lattice");
    CU_ASSERT(sol_ctx_note_count(ctx) >= 1); /* the body is resolved by few cells */
    if (sol_ctx_note_count(ctx) > 0)
        CU_ASSERT(strstr(sol_ctx_note(ctx, 0), "heavy tail") != NULL);
    TU_REL(sol_dist_quantile(ln, 0.5), 1.0, 1e-12, "exact law: median e^mu");
    const double p[2] = {0.9, 0.1}, mu[2] = {1.0, 100.0};
    TU_OK(sol_dist_hyperexp(ctx, 2, p, mu, &hx));
    TU_REL(stored_mean(hx), 10.9, 1e-9, "0.9 * 1 + 0.1 * 100, lattice");
    TU_REL(sol_dist_var(hx), 0.9 * 2 + 0.1 * 2e4 - 10.9 * 10.9, 1e-12, "closed form");
    /* the max of 4 iid hyperexponentials against quadrature-free inclusion-exclusion:
     * E[max] = integral of 1 - F^4, F = 1 - 0.9 e^-t - 0.1 e^-t/100; computed by the series
     * sum_k C(4,k)(-1)^(k+1) E[min of k] is not closed, so compare with Monte Carlo instead */
    TU_OK(sol_dist_max_n(ctx, hx, 4, &m));
    gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
    double acc = 0.0, acc2 = 0.0;
    const int n = 200000;
    for (int i = 0; i < n; i++) {
        double v = 0.0;
        for (int k = 0; k < 4; k++)
            v = fmax(v, sol_dist_sample(hx, r));
        acc += v;
        acc2 += v * v;
    }
    double mc = acc / n, se = sqrt((acc2 / n - mc * mc) / n);
    TU_REL(sol_dist_mean(m), mc, 5.0 * se / mc, "Monte Carlo, 5 standard errors");
    gsl_rng_free(r);
    sol_dist_free(m);
    sol_dist_free(ln);
    sol_dist_free(hx);
    sol_ctx_free(ctx);
}

/* dist-14: points combined with lattices: E[max(1, X)] = 1 + E[(X - 1)+] = 1 + e^-1 and
 * 2 + X for X ~ Exp(1); a long geometric sum (q = 0.999) keeps its mean on the lattice. */
static void test_mixed(void)
{
    sol_ctx *ctx = sol_ctx_alloc();
    sol_dist *e, *one = det(ctx, 1.0), *two = det(ctx, 2.0), *m, *s, *st;
    TU_OK(sol_dist_exponential(ctx, 1.0, &e));
    TU_OK(sol_dist_max(ctx, one, e, &m));
    TU_REL(sol_dist_mean(m), 1.0 + exp(-1.0), 1e-5, "closed form 1 + e^-1");
    TU_REL(sol_dist_cdf(m, 2.0), -expm1(-2.0), 1e-5, "closed form: 1 - e^-2 above 1");
    TU_OK(sol_dist_series(ctx, two, e, &s));
    TU_REL(sol_dist_mean(s), 3.0, 1e-15, "2 + 1");
    TU_REL(sol_dist_cdf(s, 3.0), -expm1(-1.0), 1e-5, "closed form 1 - e^-1");
    TU_REL(sol_dist_quantile(s, 0.95), 2.0 - log(0.05), 1e-4, "closed form 2 - ln 0.05");
    TU_OK(sol_dist_star(ctx, e, 0.999, &st));
    TU_REL(sol_dist_mean(st), 999.0, 1e-12, "closed form q/(1-q)");
    TU_REL(stored_mean(st), 999.0, 1e-6, "closed form, from the lattice");
    TU_REL(sol_dist_cdf(st, 999.0), 1.0 - 0.999 * exp(-0.999), 1e-4,
           "closed-form CDF of star(Exp)");
    sol_dist *arr[] = {e, one, two, m, s, st};
    for (size_t i = 0; i < sizeof arr / sizeof *arr; i++)
        sol_dist_free(arr[i]);
    sol_ctx_free(ctx);
}

static const tu_case cases[] = {{"dist-1 exact point mode", test_points_exact},
                                {"dist-2 points become a lattice", test_points_to_lattice},
                                {"dist-3 mixtures", test_mixture},
                                {"dist-4 star and plus", test_star_plus},
                                {"dist-5 minima", test_min},
                                {"dist-6 shift and scale", test_shift_scale},
                                {"dist-7 measured data", test_measured},
                                {"dist-8 parameter errors", test_param_errors},
                                {"dist-9 cdf and quantile", test_cdf_quantile},
                                {"dist-10 sampling", test_sampling},
                                {"dist-11 reference counting", test_refcount},
                                {"dist-12 limits and regridding", test_limits},
                                {"dist-13 heavy tails", test_heavy_tails},
                                {"dist-14 points with lattices", test_mixed},
                                {NULL, NULL}};

int main(void)
{
    return tu_run("solver.dist", cases);
}
