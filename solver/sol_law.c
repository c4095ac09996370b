/* Parametric laws through GSL: distribution functions, partial expectations (closed forms via
 * the shape+1 gamma CDF, the normal's density, the lognormal's shifted CDF, the incomplete gamma
 * function for Weibull) and the mean-exact discretisation that sol_dist builds lattices from. */
#include "sol_law.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_cdf.h>
#include <gsl/gsl_errno.h>
#include <gsl/gsl_math.h>
#include <gsl/gsl_randist.h>
#include <gsl/gsl_roots.h>
#include <gsl/gsl_sf_gamma.h>

/* More branches than any measured hyperexponential needs; keeps evaluation cost bounded. */
#define HYPER_MAX 1024
/* Largest share of a law's mean that may lie beyond its 1 - eps quantile (see discretise). */
#define TAIL_MEAN_MAX 0.01

struct sol_law {
    sol_law_kind kind;
    double a, b;
    /* truncated normal: P(untruncated > 0) and the standardised truncation point */
    double q0, z0;
    size_t nbr;
    double *p, *m;
};

static const char *const names[] = {"exponential", "erlang",    "gamma",   "uniform",
                                    "normal",      "lognormal", "weibull", "hyperexponential"};

static int positive(double x)
{
    return isfinite(x) && x > 0.0;
}

sol_status sol_law_new(sol_ctx *ctx, sol_law_kind kind, double a, double b, sol_law **out)
{
    *out = NULL;
    const char *nm = (unsigned)kind < sizeof names / sizeof *names ? names[kind] : "?";
    switch (kind) {
    case SOL_LAW_EXPONENTIAL:
        if (!positive(a))
            return sol_ctx_fail(ctx, SOL_EINVAL, "exponential: mean %g must be positive", a);
        b = 0.0;
        break;
    case SOL_LAW_ERLANG:
        if (!(isfinite(a) && a >= 1.0 && a == floor(a) && a <= 1e15))
            return sol_ctx_fail(ctx, SOL_EINVAL,
                                "erlang: phase count %g must be a positive integer", a);
        if (!positive(b))
            return sol_ctx_fail(ctx, SOL_EINVAL, "erlang: phase mean %g must be positive", b);
        break;
    case SOL_LAW_GAMMA:
    case SOL_LAW_WEIBULL:
        if (!positive(a))
            return sol_ctx_fail(ctx, SOL_EINVAL, "%s: shape %g must be positive", nm, a);
        if (!positive(b))
            return sol_ctx_fail(ctx, SOL_EINVAL, "%s: scale %g must be positive", nm, b);
        break;
    case SOL_LAW_UNIFORM:
        if (!isfinite(a) || !isfinite(b) || !(a < b))
            return sol_ctx_fail(ctx, SOL_EINVAL,
                                "uniform: bounds (%g, %g) must be finite with a < b", a, b);
        break;
    case SOL_LAW_NORMAL:
    case SOL_LAW_LOGNORMAL:
        if (!isfinite(a))
            return sol_ctx_fail(ctx, SOL_EINVAL, "%s: mu %g must be finite", nm, a);
        if (!positive(b))
            return sol_ctx_fail(ctx, SOL_EINVAL, "%s: sigma %g must be positive", nm, b);
        break;
    default:
        return sol_ctx_fail(ctx, SOL_EINVAL, "unknown law kind %d", (int)kind);
    }
    sol_law *l = calloc(1, sizeof *l);
    if (l == NULL)
        return sol_ctx_fail(ctx, SOL_ENOMEM, "out of memory for a %s law", nm);
    l->kind = kind;
    l->a = a;
    l->b = b;
    if (kind == SOL_LAW_NORMAL) {
        l->z0 = -a / b;
        l->q0 = gsl_cdf_ugaussian_Q(l->z0);
        /* Below ~1e-300 the renormalised law is all roundoff. */
        if (!(l->q0 > 1e-300)) {
            free(l);
            return sol_ctx_fail(ctx, SOL_EINVAL,
                                "normal: mu %g, sigma %g leave no mass above 0 to renormalise", a,
                                b);
        }
    }
    *out = l;
    return SOL_OK;
}

sol_status sol_law_new_hyperexp(sol_ctx *ctx, size_t n, const double *probs, const double *means,
                                sol_law **out)
{
    *out = NULL;
    if (n == 0 || n > HYPER_MAX)
        return sol_ctx_fail(ctx, SOL_EINVAL, "hyperexponential: %zu branches (need 1..%d)", n,
                            HYPER_MAX);
    double total = 0.0;
    for (size_t i = 0; i < n; i++) {
        if (!(isfinite(probs[i]) && probs[i] >= 0.0))
            return sol_ctx_fail(ctx, SOL_EINVAL,
                                "hyperexponential: probability %zu (%g) must be >= 0", i + 1,
                                probs[i]);
        if (!positive(means[i]))
            return sol_ctx_fail(ctx, SOL_EINVAL, "hyperexponential: mean %zu (%g) must be positive",
                                i + 1, means[i]);
        total += probs[i];
    }
    if (fabs(total - 1.0) > 1e-9)
        return sol_ctx_fail(ctx, SOL_EINVAL, "hyperexponential: probabilities sum to %.12g, not 1",
                            total);
    sol_law *l = calloc(1, sizeof *l);
    double *p = malloc(2 * n * sizeof *p);
    if (l == NULL || p == NULL) {
        free(l);
        free(p);
        return sol_ctx_fail(ctx, SOL_ENOMEM, "out of memory for a hyperexponential law");
    }
    l->kind = SOL_LAW_HYPEREXP;
    l->nbr = n;
    l->p = p;
    l->m = p + n;
    for (size_t i = 0; i < n; i++) {
        l->p[i] = probs[i] / total;
        l->m[i] = means[i];
    }
    *out = l;
    return SOL_OK;
}

sol_law *sol_law_copy(const sol_law *law)
{
    sol_law *l = malloc(sizeof *l);
    if (l == NULL)
        return NULL;
    *l = *law;
    if (law->nbr > 0) {
        l->p = malloc(2 * law->nbr * sizeof *l->p);
        if (l->p == NULL) {
            free(l);
            return NULL;
        }
        memcpy(l->p, law->p, 2 * law->nbr * sizeof *l->p);
        l->m = l->p + law->nbr;
    }
    return l;
}

void sol_law_free(sol_law *law)
{
    if (law == NULL)
        return;
    free(law->p);
    free(law);
}

void sol_law_params(const sol_law *law, sol_law_kind *kind, double *a, double *b)
{
    *kind = law->kind;
    *a = law->kind == SOL_LAW_HYPEREXP ? (double)law->nbr : law->a;
    *b = law->kind == SOL_LAW_HYPEREXP ? 0.0 : law->b;
}

sol_law *sol_law_new_erlang(double k, double phase_mean)
{
    sol_law *law = calloc(1, sizeof *law);
    if (law != NULL) {
        law->kind = SOL_LAW_ERLANG;
        law->a = k;
        law->b = phase_mean;
    }
    return law;
}

const char *sol_law_name(const sol_law *law)
{
    return names[law->kind];
}

void sol_law_describe(const sol_law *law, char *buf, size_t len)
{
    if (law->kind == SOL_LAW_EXPONENTIAL)
        snprintf(buf, len, "exponential(%g)", law->a);
    else if (law->kind == SOL_LAW_HYPEREXP)
        snprintf(buf, len, "hyperexponential(%zu branches, mean %g)", law->nbr, sol_law_mean(law));
    else
        snprintf(buf, len, "%s(%g, %g)", names[law->kind], law->a, law->b);
}

/* Shape and scale of the gamma-type laws (exponential, Erlang, gamma). */
static void gamma_params(const sol_law *law, double *shape, double *scale)
{
    if (law->kind == SOL_LAW_EXPONENTIAL) {
        *shape = 1.0;
        *scale = law->a;
    } else {
        *shape = law->a;
        *scale = law->b;
    }
}

/* Mills ratio phi(z0)/Q(z0) of the truncated normal, the shift of its mean in sigmas. */
static double normal_lambda(const sol_law *law)
{
    return gsl_ran_ugaussian_pdf(law->z0) / law->q0;
}

double sol_law_mean(const sol_law *law)
{
    double k, s, sum = 0.0;
    switch (law->kind) {
    case SOL_LAW_EXPONENTIAL:
    case SOL_LAW_ERLANG:
    case SOL_LAW_GAMMA:
        gamma_params(law, &k, &s);
        return k * s;
    case SOL_LAW_UNIFORM:
        return 0.5 * (law->a + law->b);
    case SOL_LAW_NORMAL:
        return law->a + law->b * normal_lambda(law);
    case SOL_LAW_LOGNORMAL:
        return exp(law->a + 0.5 * law->b * law->b);
    case SOL_LAW_WEIBULL:
        return law->b * gsl_sf_gamma(1.0 + 1.0 / law->a);
    case SOL_LAW_HYPEREXP:
        for (size_t i = 0; i < law->nbr; i++)
            sum += law->p[i] * law->m[i];
        return sum;
    }
    return NAN;
}

double sol_law_var(const sol_law *law)
{
    double k, s, m = sol_law_mean(law), m2 = 0.0, lam, g1, g2;
    switch (law->kind) {
    case SOL_LAW_EXPONENTIAL:
    case SOL_LAW_ERLANG:
    case SOL_LAW_GAMMA:
        gamma_params(law, &k, &s);
        return k * s * s;
    case SOL_LAW_UNIFORM:
        return (law->b - law->a) * (law->b - law->a) / 12.0;
    case SOL_LAW_NORMAL:
        lam = normal_lambda(law);
        return law->b * law->b * (1.0 + law->z0 * lam - lam * lam);
    case SOL_LAW_LOGNORMAL:
        return expm1(law->b * law->b) * exp(2.0 * law->a + law->b * law->b);
    case SOL_LAW_WEIBULL:
        g1 = gsl_sf_gamma(1.0 + 1.0 / law->a);
        g2 = gsl_sf_gamma(1.0 + 2.0 / law->a);
        return law->b * law->b * (g2 - g1 * g1);
    case SOL_LAW_HYPEREXP:
        for (size_t i = 0; i < law->nbr; i++)
            m2 += law->p[i] * 2.0 * law->m[i] * law->m[i];
        return m2 - m * m;
    }
    return NAN;
}

double sol_law_support_min(const sol_law *law)
{
    return law->kind == SOL_LAW_UNIFORM ? law->a : 0.0;
}

/* cdf (upper = 0) or sf (upper = 1), each without cancellation on its own side. */
static double law_prob(const sol_law *law, double x, int upper)
{
    double k, s, z, sum = 0.0;
    if (x <= sol_law_support_min(law))
        return upper ? 1.0 : 0.0;
    switch (law->kind) {
    case SOL_LAW_EXPONENTIAL:
    case SOL_LAW_ERLANG:
    case SOL_LAW_GAMMA:
        gamma_params(law, &k, &s);
        return upper ? gsl_cdf_gamma_Q(x, k, s) : gsl_cdf_gamma_P(x, k, s);
    case SOL_LAW_UNIFORM:
        return upper ? gsl_cdf_flat_Q(x, law->a, law->b) : gsl_cdf_flat_P(x, law->a, law->b);
    case SOL_LAW_NORMAL:
        z = (x - law->a) / law->b;
        if (upper)
            return gsl_cdf_ugaussian_Q(z) / law->q0;
        if (law->z0 > 0.0)
            return (law->q0 - gsl_cdf_ugaussian_Q(z)) / law->q0;
        return (gsl_cdf_ugaussian_P(z) - gsl_cdf_ugaussian_P(law->z0)) / law->q0;
    case SOL_LAW_LOGNORMAL:
        return upper ? gsl_cdf_lognormal_Q(x, law->a, law->b)
                     : gsl_cdf_lognormal_P(x, law->a, law->b);
    case SOL_LAW_WEIBULL:
        return upper ? gsl_cdf_weibull_Q(x, law->b, law->a) : gsl_cdf_weibull_P(x, law->b, law->a);
    case SOL_LAW_HYPEREXP:
        for (size_t i = 0; i < law->nbr; i++)
            sum += law->p[i] * (upper ? exp(-x / law->m[i]) : -expm1(-x / law->m[i]));
        return sum;
    }
    return NAN;
}

/* E[X; X <= x] (upper = 0) or E[X; X > x] (upper = 1). */
static double law_pe(const sol_law *law, double x, int upper)
{
    double k, s, z, c, sum = 0.0, full = 0.0;
    if (x <= sol_law_support_min(law))
        return upper ? sol_law_mean(law) : 0.0;
    switch (law->kind) {
    case SOL_LAW_EXPONENTIAL:
    case SOL_LAW_ERLANG:
    case SOL_LAW_GAMMA:
        /* x f(x; k, s) = k s f(x; k+1, s) */
        gamma_params(law, &k, &s);
        return k * s * (upper ? gsl_cdf_gamma_Q(x, k + 1.0, s) : gsl_cdf_gamma_P(x, k + 1.0, s));
    case SOL_LAW_UNIFORM:
        /* (b - c)(b + c) / 2(b - a), ordered so that values near 1e308 do not overflow */
        c = x < law->b ? x : law->b;
        if (upper)
            return (law->b - c) / (law->b - law->a) * (0.5 * law->b + 0.5 * c);
        return (c - law->a) / (law->b - law->a) * (0.5 * c + 0.5 * law->a);
    case SOL_LAW_NORMAL:
        z = (x - law->a) / law->b;
        if (upper)
            return (law->a * gsl_cdf_ugaussian_Q(z) + law->b * gsl_ran_ugaussian_pdf(z)) / law->q0;
        return law->a * law_prob(law, x, 0) +
               law->b * (gsl_ran_ugaussian_pdf(law->z0) - gsl_ran_ugaussian_pdf(z)) / law->q0;
    case SOL_LAW_LOGNORMAL:
        /* x f(x; mu, s) = e^{mu + s^2/2} f(x; mu + s^2, s) */
        full = exp(law->a + 0.5 * law->b * law->b);
        z = (log(x) - law->a - law->b * law->b) / law->b;
        return full * (upper ? gsl_cdf_ugaussian_Q(z) : gsl_cdf_ugaussian_P(z));
    case SOL_LAW_WEIBULL:
        /* substitute y = (x/scale)^shape: an incomplete gamma function of order 1 + 1/shape */
        full = law->b * gsl_sf_gamma(1.0 + 1.0 / law->a);
        z = pow(x / law->b, law->a);
        return full * (upper ? gsl_sf_gamma_inc_Q(1.0 + 1.0 / law->a, z)
                             : gsl_sf_gamma_inc_P(1.0 + 1.0 / law->a, z));
    case SOL_LAW_HYPEREXP:
        for (size_t i = 0; i < law->nbr; i++)
            sum +=
                law->p[i] * law->m[i] *
                (upper ? gsl_cdf_gamma_Q(x, 2.0, law->m[i]) : gsl_cdf_gamma_P(x, 2.0, law->m[i]));
        return sum;
    }
    return NAN;
}

double sol_law_cdf(const sol_law *law, double x)
{
    return law_prob(law, x, 0);
}

double sol_law_sf(const sol_law *law, double x)
{
    return law_prob(law, x, 1);
}

double sol_law_lpe(const sol_law *law, double x)
{
    return law_pe(law, x, 0);
}

double sol_law_upe(const sol_law *law, double x)
{
    return law_pe(law, x, 1);
}

struct hyper_root {
    const sol_law *law;
    double logq;
};

static double hyper_eq(double x, void *arg)
{
    const struct hyper_root *r = arg;
    return log(law_prob(r->law, x, 1)) - r->logq;
}

/* The hyperexponential has no inverse CDF in GSL: Brent on log sf(x) = log q, bracketed by
 * sf(x) <= exp(-x / max mean). */
static double hyper_isf(const sol_law *law, double q)
{
    double mmax = 0.0;
    for (size_t i = 0; i < law->nbr; i++)
        mmax = law->m[i] > mmax ? law->m[i] : mmax;
    struct hyper_root r = {law, log(q)};
    gsl_function f = {hyper_eq, &r};
    double lo = 0.0, hi = mmax * -log(q) * 1.0001 + 1e-300;
    if (q >= 1.0)
        return 0.0;
    gsl_root_fsolver *s = gsl_root_fsolver_alloc(gsl_root_fsolver_brent);
    if (s == NULL || gsl_root_fsolver_set(s, &f, lo, hi) != GSL_SUCCESS) {
        gsl_root_fsolver_free(s);
        return NAN;
    }
    double x = NAN;
    for (int it = 0; it < 200; it++) {
        if (gsl_root_fsolver_iterate(s) != GSL_SUCCESS) {
            x = NAN;
            break;
        }
        x = gsl_root_fsolver_root(s);
        lo = gsl_root_fsolver_x_lower(s);
        hi = gsl_root_fsolver_x_upper(s);
        if (gsl_root_test_interval(lo, hi, 0.0, 1e-14) == GSL_SUCCESS)
            break;
    }
    gsl_root_fsolver_free(s);
    return x;
}

double sol_law_isf(const sol_law *law, double q)
{
    double k, s;
    if (q >= 1.0)
        return sol_law_support_min(law);
    switch (law->kind) {
    case SOL_LAW_EXPONENTIAL:
    case SOL_LAW_ERLANG:
    case SOL_LAW_GAMMA:
        gamma_params(law, &k, &s);
        return gsl_cdf_gamma_Qinv(q, k, s);
    case SOL_LAW_UNIFORM:
        return gsl_cdf_flat_Qinv(q, law->a, law->b);
    case SOL_LAW_NORMAL:
        return law->a + law->b * gsl_cdf_ugaussian_Qinv(q * law->q0);
    case SOL_LAW_LOGNORMAL:
        return gsl_cdf_lognormal_Qinv(q, law->a, law->b);
    case SOL_LAW_WEIBULL:
        return gsl_cdf_weibull_Qinv(q, law->b, law->a);
    case SOL_LAW_HYPEREXP:
        return hyper_isf(law, q);
    }
    return NAN;
}

double sol_law_quantile(const sol_law *law, double u)
{
    double k, s;
    if (u <= 0.0)
        return sol_law_support_min(law);
    if (u >= 0.5 || law->kind == SOL_LAW_HYPEREXP)
        return sol_law_isf(law, 1.0 - u);
    switch (law->kind) {
    case SOL_LAW_EXPONENTIAL:
    case SOL_LAW_ERLANG:
    case SOL_LAW_GAMMA:
        gamma_params(law, &k, &s);
        return gsl_cdf_gamma_Pinv(u, k, s);
    case SOL_LAW_UNIFORM:
        return gsl_cdf_flat_Pinv(u, law->a, law->b);
    case SOL_LAW_NORMAL:
        if (law->z0 > 0.0)
            return law->a + law->b * gsl_cdf_ugaussian_Qinv(law->q0 * (1.0 - u));
        return law->a + law->b * gsl_cdf_ugaussian_Pinv(gsl_cdf_ugaussian_P(law->z0) + u * law->q0);
    case SOL_LAW_LOGNORMAL:
        return gsl_cdf_lognormal_Pinv(u, law->a, law->b);
    case SOL_LAW_WEIBULL:
        return gsl_cdf_weibull_Pinv(u, law->b, law->a);
    case SOL_LAW_HYPEREXP:
        break;
    }
    return NAN;
}

double sol_law_sample(const sol_law *law, gsl_rng *rng)
{
    double k, s, x, u;
    switch (law->kind) {
    case SOL_LAW_EXPONENTIAL:
        return gsl_ran_exponential(rng, law->a);
    case SOL_LAW_ERLANG:
    case SOL_LAW_GAMMA:
        gamma_params(law, &k, &s);
        return gsl_ran_gamma(rng, k, s);
    case SOL_LAW_UNIFORM:
        return gsl_ran_flat(rng, law->a, law->b);
    case SOL_LAW_NORMAL:
        /* Rejection while acceptance is at least 1/4, the upper tail sampler beyond. */
        if (law->q0 >= 0.25) {
            do
                x = law->a + gsl_ran_gaussian(rng, law->b);
            while (x < 0.0);
            return x;
        }
        return law->a + law->b * gsl_ran_ugaussian_tail(rng, law->z0);
    case SOL_LAW_LOGNORMAL:
        return gsl_ran_lognormal(rng, law->a, law->b);
    case SOL_LAW_WEIBULL:
        return gsl_ran_weibull(rng, law->b, law->a);
    case SOL_LAW_HYPEREXP:
        u = gsl_rng_uniform(rng);
        for (size_t i = 0; i + 1 < law->nbr; i++) {
            if (u < law->p[i])
                return gsl_ran_exponential(rng, law->m[i]);
            u -= law->p[i];
        }
        return gsl_ran_exponential(rng, law->m[law->nbr - 1]);
    }
    return NAN;
}

/* Smallest e with 2^e >= x (x > 0). */
static int exp2_ceil(double x)
{
    int ex;
    double f = frexp(x, &ex);
    return f == 0.5 ? ex - 1 : ex;
}

/* Splits mass w at position c between the lattice points around it so the mean stays c. */
static void split_atom(double *m, int64_t k0, size_t n, double h, double w, double c)
{
    double r = c / h;
    double fl = floor(r);
    int64_t i = (int64_t)fl - k0;
    double frac = r - fl;
    if (i < 0) {
        i = 0;
        frac = 0.0;
    }
    if ((size_t)i >= n - 1) {
        m[n - 1] += w;
        return;
    }
    m[i] += w * (1.0 - frac);
    m[i + 1] += w * frac;
}

/* The lattice geometry for step 2^e: interior cells [ka, kb), tail atoms and the index range. */
struct geom {
    double h;
    int64_t ka, kb, lo, hi;
    double flo, clo, shi, chi;
};

/* 0 when planned; -1 when a tail expectation is not finite; 1 when a tail atom lies too far
 * out for lattice indices at this step (a coarser step may do). */
static int plan(const sol_law *law, double qlo, double qhi, int e, struct geom *g)
{
    double h = ldexp(1.0, e);
    g->h = h;
    g->ka = (int64_t)floor(qlo / h);
    g->kb = (int64_t)ceil(qhi / h);
    if (g->kb <= g->ka)
        g->kb = g->ka + 1;
    double xa = (double)g->ka * h, xb = (double)g->kb * h;
    g->flo = law_prob(law, xa, 0);
    g->clo = g->flo > 0.0 ? law_pe(law, xa, 0) / g->flo : xa;
    g->shi = law_prob(law, xb, 1);
    g->chi = g->shi > 0.0 ? law_pe(law, xb, 1) / g->shi : xb;
    if (!isfinite(g->clo) || !isfinite(g->chi))
        return -1;
    /* The conditional mean of a heavy upper tail can lie far beyond the quantile: its index must
       fit an int64 before it is converted (heavy Weibull and lognormal laws reach 2^63). */
    if (g->chi / h > 0x1p62)
        return 1;
    g->lo = g->ka;
    if (g->flo > 0.0 && g->clo < xa)
        g->lo = (int64_t)floor(g->clo / h);
    g->hi = g->kb;
    if (g->shi > 0.0 && g->chi > xb)
        g->hi = (int64_t)ceil(g->chi / h);
    return 0;
}

sol_status sol_law_discretise(sol_ctx *ctx, const sol_law *law, size_t max_len, int *e, int64_t *k0,
                              size_t *n, double **masses)
{
    char desc[128];
    sol_law_describe(law, desc, sizeof desc);
    double eps = sol_ctx_tail_eps(ctx);
    double smin = sol_law_support_min(law);
    double qlo = law->kind == SOL_LAW_UNIFORM ? law->a : sol_law_quantile(law, eps);
    double qhi = law->kind == SOL_LAW_UNIFORM ? law->b : sol_law_isf(law, eps);
    /* A lower quantile that underflows (gamma of shape 1e-5) only means the law starts at its
       support's minimum; an upper one that overflows cannot be represented at all. */
    if (!isfinite(qlo) || qlo < smin)
        qlo = smin;
    if (!isfinite(qhi) || !isfinite(sol_law_mean(law)))
        return sol_ctx_fail(ctx, SOL_ELIMIT,
                            "%s: values too large to discretise: its 1 - %g quantile or its mean "
                            "is beyond the largest double (1.8e308); use a larger time unit or a "
                            "lighter tail",
                            desc, eps);
    /* The lattice reaches the 1 - eps quantile and keeps the tail beyond as one atom, which later
       trimming may move: the law is only represented when that tail carries little of the mean
       (a lognormal of sigma 6 holds 5% of its mean in events rarer than 1e-14). */
    double mean = sol_law_mean(law), beyond = law_pe(law, qhi, 1);
    if (mean > 0.0 && beyond > TAIL_MEAN_MAX * mean)
        return sol_ctx_fail(ctx, SOL_ELIMIT,
                            "%s: tail too heavy to discretise: %.3g%% of its mean lies beyond its "
                            "1 - %g quantile (%g), in events too rare for the lattice; use a "
                            "distribution with a lighter tail",
                            desc, 100.0 * beyond / mean, eps, qhi);
    double width = qhi - qlo;
    double amax = fabs(qlo) > fabs(qhi) ? fabs(qlo) : fabs(qhi);
    if (!(width > amax * 0x1p-40))
        return sol_ctx_fail(ctx, SOL_ELIMIT,
                            "%s: spread too narrow for its size: %g wide around %g, below the "
                            "lattice's resolution (1 part in 2^40); use DETERMINISTIC(%g) instead",
                            desc, width, amax, sol_law_mean(law));
    /* Indices stay below 2^52 so positions k*h are exact doubles. */
    double hmin = fmax(width / (double)(max_len - 4), amax * 0x1p-52);
    int ee = exp2_ceil(hmin);
    struct geom g;
    for (;; ee++) {
        if (ee > 1000)
            return sol_ctx_fail(ctx, SOL_ELIMIT,
                                "%s: values too large to discretise (the lattice step would exceed "
                                "2^1000); use a larger time unit",
                                desc);
        int rc = plan(law, qlo, qhi, ee, &g);
        if (rc < 0)
            return sol_ctx_fail(ctx, SOL_ENUMERIC,
                                "%s: its tail's expectation is not a finite number; use a "
                                "lighter tail or a larger time unit",
                                desc);
        if (rc == 0 && g.hi - g.lo + 1 <= (int64_t)max_len)
            break;
    }
    size_t len = (size_t)(g.hi - g.lo + 1), cells = (size_t)(g.kb - g.ka);
    double *m = calloc(len, sizeof *m);
    double *pv = malloc(2 * (cells + 1) * sizeof *pv);
    if (m == NULL || pv == NULL) {
        free(m);
        free(pv);
        return sol_ctx_fail(ctx, SOL_ENOMEM, "%s: out of memory for %zu lattice points", desc, len);
    }
    double *ev = pv + cells + 1;
    /* Boundaries below the median use (cdf, lpe), above it (sf, upe): differences then never
     * cancel in a tail. */
    double med = sol_law_quantile(law, 0.5);
    size_t jm = 0;
    while (jm < cells && (double)(g.ka + (int64_t)jm) * g.h < med)
        jm++;
    for (size_t j = 0; j <= cells; j++) {
        double x = (double)(g.ka + (int64_t)j) * g.h;
        int up = j > jm;
        pv[j] = law_prob(law, x, up);
        ev[j] = law_pe(law, x, up);
    }
    double pjm = 0.0, ejm = 0.0;
    if (jm < cells) {
        double x = (double)(g.ka + (int64_t)jm) * g.h;
        pjm = law_prob(law, x, 1);
        ejm = law_pe(law, x, 1);
    }
    int bad = 0;
    for (size_t j = 0; j < cells; j++) {
        double xa = (double)(g.ka + (int64_t)j) * g.h, dp, de;
        if (j < jm) {
            dp = pv[j + 1] - pv[j];
            de = ev[j + 1] - ev[j];
        } else {
            dp = (j == jm ? pjm : pv[j]) - pv[j + 1];
            de = (j == jm ? ejm : ev[j]) - ev[j + 1];
        }
        double right = (de - xa * dp) / g.h, left = dp - right;
        if (!isfinite(left) || !isfinite(right))
            bad = 1;
        size_t i = (size_t)(g.ka - g.lo) + j;
        m[i] += left;
        m[i + 1] += right;
    }
    free(pv);
    if (g.flo > 0.0)
        split_atom(m, g.lo, len, g.h, g.flo, g.clo);
    if (g.shi > 0.0)
        split_atom(m, g.lo, len, g.h, g.shi, g.chi);
    double total = 0.0;
    for (size_t i = 0; i < len; i++) {
        if (m[i] < 0.0)
            m[i] = 0.0; /* roundoff of a difference of nearly equal partial expectations */
        total += m[i];
    }
    if (bad || !(fabs(total - 1.0) < 1e-6)) {
        free(m);
        if (bad || !isfinite(total))
            return sol_ctx_fail(ctx, SOL_ENUMERIC,
                                "%s: values too large to discretise (its partial expectations "
                                "overflow); use a larger time unit",
                                desc);
        return sol_ctx_fail(ctx, SOL_ENUMERIC, "%s: discretisation lost mass (total %g)", desc,
                            total);
    }
    for (size_t i = 0; i < len; i++)
        m[i] /= total;
    if (law->kind != SOL_LAW_UNIFORM) {
        double iqr = sol_law_quantile(law, 0.75) - sol_law_quantile(law, 0.25);
        /* A step wider than the body spreads the body's mass over whole cells: sums keep their
           exact means, but maxima over processors gain (LOGNORMAL(0, 2) as 10 tasks on 10
           processors: +40% at the default precision). Say so, and what would help. */
        if (!isfinite(iqr))
            iqr = 0.0; /* quartiles that underflow: the body is one point at this scale */
        if (!(iqr >= g.h)) {
            double need = iqr > 0.0 ? ldexp((double)max_len, exp2_ceil(4.0 * g.h / iqr)) : INFINITY;
            char fix[96];
            if (need <= (double)SOL_LEN_MAX)
                snprintf(fix, sizeof fix, "a lattice length of %.0f resolves it", need);
            else
                snprintf(fix, sizeof fix,
                         "no lattice length up to %zu resolves it (simulation may)",
                         (size_t)SOL_LEN_MAX);
            sol_ctx_notef(ctx,
                          "%s: heavy tail: lattice step %g > interquartile range %g, "
                          "so quantiles and maxima over processors (p > 1) may be far off; %s",
                          desc, g.h, iqr, fix);
        } else if (iqr / g.h < 8.0)
            sol_ctx_notef(ctx,
                          "%s: heavy tail; lattice step %g leaves %.1f cells for the "
                          "interquartile range, so low quantiles are coarse",
                          desc, g.h, iqr / g.h);
    }
    *e = ee;
    *k0 = g.lo;
    *n = len;
    *masses = m;
    return SOL_OK;
}
