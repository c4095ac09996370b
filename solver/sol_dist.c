/* Distributions: exact points (few atoms) or masses on a power-of-two lattice, and the algebra
 * of independent durations on them (sum, max, min, mixture, geometric sums). Lattice steps are
 * powers of two so grids always align; regridding merges cells mean-exactly. */
#include "sol_dist.h"

#include <math.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_randist.h>

#include "sol_conv.h"
#include "sol_law.h"

/* Positions k*h are exact doubles while |k| <= 2^52. */
#define KMAX ((int64_t)1 << 52)
#define EMIN (-1060)
#define EMAX 1000
/* Relative distance under which two atoms are merged (at their weighted mean). */
#define MERGE_REL 1e-13

struct sol_dist {
    atomic_size_t refs;
    int lattice;
    int e;      /* lattice: h = 2^e */
    int64_t k0; /* lattice: first index */
    size_t n;
    double *x; /* points: sorted distinct values; NULL for a lattice */
    double *m;
    double *cum; /* cum[i] = sum of m[0..i] */
    double mean, var;
    sol_law *law; /* when set, the variable is lshift + lscale * (a variate of law) */
    double lshift, lscale;
};

/* A lattice under construction: masses at (k0 + i) * 2^e; owns m. */
typedef struct lat {
    int e;
    int64_t k0;
    size_t n;
    double *m;
} lat;

static void lat_free(lat *L)
{
    free(L->m);
    L->m = NULL;
    L->n = 0;
}

static double step(int e)
{
    return ldexp(1.0, e);
}

/* Smallest e with 2^e >= x, x > 0. */
static int exp2_ceil(double x)
{
    int ex;
    double f = frexp(x, &ex);
    return f == 0.5 ? ex - 1 : ex;
}

/* The smallest step at which values in [lo, hi] fit max_len points with exact positions. */
static int fit_exp(double lo, double hi, size_t max_len)
{
    double amax = fmax(fabs(lo), fabs(hi));
    double hmin = fmax((hi - lo) / (double)(max_len - 2), amax * 0x1p-52);
    if (!(hmin > 0.0))
        return EMIN;
    int e = exp2_ceil(hmin);
    return e < EMIN ? EMIN : e;
}

static int64_t floor_div(int64_t k, int64_t d)
{
    int64_t q = k / d;
    return (k % d != 0 && k < 0) ? q - 1 : q;
}

/* ---------------------------------------------------------------- creation and release */

static sol_status nomem(sol_ctx *ctx, const char *what)
{
    return sol_ctx_fail(ctx, SOL_ENOMEM, "out of memory for %s", what);
}

sol_dist *sol_dist_retain(const sol_dist *d)
{
    sol_dist *w = (sol_dist *)d; /* immutable except for the counter */
    atomic_fetch_add(&w->refs, 1);
    return w;
}

void sol_dist_free(sol_dist *d)
{
    if (d == NULL || atomic_fetch_sub(&d->refs, 1) != 1)
        return;
    free(d->x);
    free(d->m);
    free(d->cum);
    sol_law_free(d->law);
    free(d);
}

/* Completes d (masses set): cumulative sums and moments; mv overrides the moments when the
 * operation knows them exactly. */
static sol_status finish(sol_ctx *ctx, sol_dist *d, const double *mv, sol_dist **out)
{
    d->cum = malloc(d->n * sizeof *d->cum);
    if (d->cum == NULL) {
        sol_dist_free(d);
        return nomem(ctx, "a distribution");
    }
    double c = 0.0, mean = 0.0;
    for (size_t i = 0; i < d->n; i++) {
        c += d->m[i];
        d->cum[i] = c;
        mean += d->m[i] * sol_dist_value(d, i);
    }
    double var = 0.0;
    for (size_t i = 0; i < d->n; i++) {
        double dx = sol_dist_value(d, i) - mean;
        var += d->m[i] * dx * dx;
    }
    d->mean = mv ? mv[0] : mean;
    d->var = mv ? mv[1] : var;
    if (!isfinite(d->mean) || !isfinite(d->var)) {
        sol_dist_free(d);
        return sol_ctx_fail(ctx, SOL_ENUMERIC, "distribution moments are not finite");
    }
    sol_ctx_count_dist(ctx, d->lattice);
    *out = d;
    return SOL_OK;
}

static sol_dist *dist_alloc(void)
{
    sol_dist *d = calloc(1, sizeof *d);
    if (d != NULL) {
        atomic_init(&d->refs, 1);
        d->lscale = 1.0;
    }
    return d;
}

/* Wraps a lattice (ownership of L->m passes to the result, also on failure); zero cells at
 * both ends are dropped. */
static sol_status from_lat(sol_ctx *ctx, lat *L, const double *mv, sol_dist **out)
{
    *out = NULL;
    size_t a = 0, b = L->n;
    while (a < b && L->m[a] == 0.0)
        a++;
    while (b > a && L->m[b - 1] == 0.0)
        b--;
    if (a == b) {
        lat_free(L);
        return sol_ctx_fail(ctx, SOL_ENUMERIC, "distribution lost all its mass");
    }
    if (a > 0)
        memmove(L->m, L->m + a, (b - a) * sizeof *L->m);
    double total = 0.0;
    for (size_t i = 0; i < b - a; i++)
        total += L->m[i];
    for (size_t i = 0; i < b - a; i++)
        L->m[i] /= total;
    sol_dist *d = dist_alloc();
    if (d == NULL) {
        lat_free(L);
        return nomem(ctx, "a distribution");
    }
    d->lattice = 1;
    d->e = L->e;
    d->k0 = L->k0 + (int64_t)a;
    d->n = b - a;
    d->m = L->m;
    L->m = NULL;
    L->n = 0;
    return finish(ctx, d, mv, out);
}

/* Lattice of points (x, p) at step 2^e, each mass split mean-exactly between its neighbours. */
static sol_status points_to_lat(sol_ctx *ctx, const double *x, const double *p, size_t n, int e,
                                lat *L)
{
    double h = step(e);
    int64_t lo = (int64_t)floor(x[0] / h), hi = (int64_t)ceil(x[n - 1] / h);
    L->e = e;
    L->k0 = lo;
    L->n = (size_t)(hi - lo + 1);
    L->m = calloc(L->n, sizeof *L->m);
    if (L->m == NULL)
        return nomem(ctx, "a lattice");
    for (size_t i = 0; i < n; i++) {
        double r = x[i] / h, fl = floor(r);
        size_t j = (size_t)((int64_t)fl - lo);
        double f = r - fl;
        L->m[j] += p[i] * (1.0 - f);
        if (f > 0.0)
            L->m[j + 1] += p[i] * f;
    }
    return SOL_OK;
}

static int cmp_pair(const void *a, const void *b)
{
    double x = ((const double *)a)[0], y = ((const double *)b)[0];
    return (x > y) - (x < y);
}

/* Sorts (x, p) pairs held interleaved in xp, merges near-equal values at their weighted mean and
 * drops zero masses; returns the new count. */
static size_t pairs_normalise(double *xp, size_t n)
{
    qsort(xp, n, 2 * sizeof *xp, cmp_pair);
    size_t k = 0;
    for (size_t i = 0; i < n; i++) {
        double x = xp[2 * i], p = xp[2 * i + 1];
        if (p <= 0.0)
            continue;
        if (k > 0) {
            double *y = xp + 2 * (k - 1);
            if (x - y[0] <= MERGE_REL * fmax(fabs(x), fabs(y[0]))) {
                y[0] = (y[0] * y[1] + x * p) / (y[1] + p);
                y[1] += p;
                continue;
            }
        }
        xp[2 * k] = x;
        xp[2 * k + 1] = p;
        k++;
    }
    return k;
}

/* Builds a distribution from interleaved (x, p) pairs (xp is consumed): exact points when few,
 * otherwise a lattice at the finest step that fits. */
static sol_status from_pairs(sol_ctx *ctx, double *xp, size_t n, const double *mv, sol_dist **out)
{
    *out = NULL;
    n = pairs_normalise(xp, n);
    if (n == 0) {
        free(xp);
        return sol_ctx_fail(ctx, SOL_ENUMERIC, "distribution lost all its mass");
    }
    double *x = malloc(n * sizeof *x), *p = malloc(n * sizeof *p);
    if (x == NULL || p == NULL) {
        free(xp);
        free(x);
        free(p);
        return nomem(ctx, "points");
    }
    double total = 0.0;
    for (size_t i = 0; i < n; i++) {
        x[i] = xp[2 * i];
        p[i] = xp[2 * i + 1];
        total += p[i];
    }
    free(xp);
    for (size_t i = 0; i < n; i++)
        p[i] /= total;
    if (n > SOL_POINTS_MAX) {
        lat L;
        int e = fit_exp(x[0], x[n - 1], sol_ctx_max_len(ctx));
        sol_status st = points_to_lat(ctx, x, p, n, e, &L);
        free(x);
        free(p);
        if (st != SOL_OK)
            return st;
        return from_lat(ctx, &L, mv, out);
    }
    sol_dist *d = dist_alloc();
    if (d == NULL) {
        free(x);
        free(p);
        return nomem(ctx, "a distribution");
    }
    d->n = n;
    d->x = x;
    d->m = p;
    return finish(ctx, d, mv, out);
}

/* ---------------------------------------------------------------- lattice algebra */

/* Merges cells so the step becomes 2^e_new (>= L->e): a mass at fine index k goes to the two
 * coarse points around k*h in proportion to distance, which keeps the mean. O(n). */
static sol_status lat_coarsen(sol_ctx *ctx, lat *L, int e_new)
{
    if (e_new <= L->e)
        return SOL_OK;
    if (e_new > EMAX)
        return sol_ctx_fail(ctx, SOL_ELIMIT, "lattice step would exceed 2^%d", EMAX);
    int s = e_new - L->e;
    if (s > 60) {
        /* everything collapses onto at most two coarse points */
        double mean = 0.0, total = 0.0, h = step(L->e), H = step(e_new);
        for (size_t i = 0; i < L->n; i++) {
            mean += L->m[i] * (double)(L->k0 + (int64_t)i) * h;
            total += L->m[i];
        }
        double r = mean / total / H, fl = floor(r);
        double *m = calloc(2, sizeof *m);
        if (m == NULL)
            return nomem(ctx, "a lattice");
        m[0] = total * (1.0 - (r - fl));
        m[1] = total * (r - fl);
        free(L->m);
        L->m = m;
        L->n = 2;
        L->k0 = (int64_t)fl;
        L->e = e_new;
        sol_ctx_count_regrid(ctx);
        return SOL_OK;
    }
    int64_t f = (int64_t)1 << s;
    int64_t lo = floor_div(L->k0, f);
    int64_t hi = floor_div(L->k0 + (int64_t)L->n - 1 + f - 1, f);
    size_t n = (size_t)(hi - lo + 1);
    double *m = calloc(n, sizeof *m);
    if (m == NULL)
        return nomem(ctx, "a lattice");
    double inv = 1.0 / (double)f;
    for (size_t i = 0; i < L->n; i++) {
        int64_t k = L->k0 + (int64_t)i, j = floor_div(k, f);
        double w = (double)(k - j * f) * inv;
        size_t t = (size_t)(j - lo);
        m[t] += L->m[i] * (1.0 - w);
        if (w > 0.0)
            m[t + 1] += L->m[i] * w;
    }
    free(L->m);
    L->m = m;
    L->n = n;
    L->k0 = lo;
    L->e = e_new;
    sol_ctx_count_regrid(ctx);
    return SOL_OK;
}

/* Cuts the end cells whose cumulated mass is at most thr times the total, moving that mass onto
 * the first kept cell (the mean moves by at most thr * support width); records it. O(n). */
static void lat_trim(sol_ctx *ctx, lat *L, double thr)
{
    double total = 0.0;
    for (size_t i = 0; i < L->n; i++)
        total += L->m[i];
    double lim = thr * total, lo = 0.0, hi = 0.0;
    size_t a = 0, b = L->n;
    while (a + 1 < b && lo + L->m[a] <= lim)
        lo += L->m[a++];
    while (b - 1 > a && hi + L->m[b - 1] <= lim)
        hi += L->m[--b];
    if (a == 0 && b == L->n)
        return;
    L->m[a] += lo;
    L->m[b - 1] += hi;
    memmove(L->m, L->m + a, (b - a) * sizeof *L->m);
    L->k0 += (int64_t)a;
    L->n = b - a;
    sol_ctx_add_tail(ctx, total > 0.0 ? (lo + hi) / total : 0.0);
}

/* Coarsens until the lattice has at most max_len points and exact positions. O(n). */
static sol_status lat_fit(sol_ctx *ctx, lat *L)
{
    size_t max_len = sol_ctx_max_len(ctx);
    int e = L->e;
    for (;;) {
        int64_t f = (int64_t)1 << (e - L->e < 62 ? e - L->e : 62);
        int64_t lo = floor_div(L->k0, f), hi = floor_div(L->k0 + (int64_t)L->n - 1 + f - 1, f);
        if ((uint64_t)(hi - lo + 1) <= max_len && lo >= -KMAX && hi <= KMAX)
            break;
        e++;
    }
    return lat_coarsen(ctx, L, e);
}

/* Copies d as a lattice of step 2^e (e >= d's own step for a lattice). */
static sol_status to_lat(sol_ctx *ctx, const sol_dist *d, int e, lat *L)
{
    if (!d->lattice)
        return points_to_lat(ctx, d->x, d->m, d->n, e, L);
    L->e = d->e;
    L->k0 = d->k0;
    L->n = d->n;
    L->m = malloc(d->n * sizeof *L->m);
    if (L->m == NULL)
        return nomem(ctx, "a lattice");
    memcpy(L->m, d->m, d->n * sizeof *L->m);
    sol_status st = lat_coarsen(ctx, L, e);
    if (st != SOL_OK)
        lat_free(L);
    return st;
}

/* The common step of several distributions: the coarsest lattice step, and at least the step
 * at which each point set fits. */
static int common_exp(sol_ctx *ctx, size_t count, const sol_dist *const *ds)
{
    int e = EMIN;
    for (size_t i = 0; i < count; i++) {
        int ei = ds[i]->lattice
                     ? ds[i]->e
                     : fit_exp(ds[i]->x[0], ds[i]->x[ds[i]->n - 1], sol_ctx_max_len(ctx));
        e = ei > e ? ei : e;
    }
    return e;
}

/* Convolution of two lattices of the same step; a may be b (self-convolution). */
static sol_status lat_conv(sol_ctx *ctx, const lat *a, const lat *b, lat *out)
{
    size_t n = a->n + b->n - 1;
    out->m = malloc(n * sizeof *out->m);
    if (out->m == NULL)
        return nomem(ctx, "a convolution");
    out->e = a->e;
    out->k0 = a->k0 + b->k0;
    out->n = n;
    sol_status st = sol_conv(ctx, a->m, a->n, b->m, b->n, out->m);
    if (st != SOL_OK)
        lat_free(out);
    return st;
}

/* Convolution followed by trimming and fitting: the step of every series operation. */
static sol_status lat_series(sol_ctx *ctx, const lat *a, const lat *b, lat *out)
{
    sol_status st = lat_conv(ctx, a, b, out);
    if (st != SOL_OK)
        return st;
    lat_trim(ctx, out, sol_ctx_tail_eps(ctx));
    st = lat_fit(ctx, out);
    if (st != SOL_OK)
        lat_free(out);
    return st;
}

/* ---------------------------------------------------------------- constructors */

/* A time that left the range of doubles: only arithmetic on huge values gets here (what users
 * write is checked before), so the message speaks of the model, not of an argument. */
static sol_status overflow(sol_ctx *ctx, double x)
{
    return sol_ctx_fail(ctx, SOL_EINVAL,
                        isnan(x) ? "a time in the model is undefined (overflowing terms cancel); "
                                   "use a larger time unit"
                                 : "a time in the model exceeds the largest double (1.8e308); "
                                   "use a larger time unit");
}

sol_status sol_dist_deterministic(sol_ctx *ctx, double x, sol_dist **out)
{
    *out = NULL;
    if (!isfinite(x))
        return overflow(ctx, x);
    double *xp = malloc(2 * sizeof *xp);
    if (xp == NULL)
        return nomem(ctx, "a distribution");
    xp[0] = x;
    xp[1] = 1.0;
    return from_pairs(ctx, xp, 1, NULL, out);
}

/* Wraps a validated law (consumed): discretised lattice, exact moments, law kept. */
static sol_status from_law(sol_ctx *ctx, sol_law *law, sol_dist **out)
{
    lat L;
    sol_status st = sol_law_discretise(ctx, law, sol_ctx_max_len(ctx), &L.e, &L.k0, &L.n, &L.m);
    if (st != SOL_OK) {
        sol_law_free(law);
        return st;
    }
    double mv[2] = {sol_law_mean(law), sol_law_var(law)};
    st = from_lat(ctx, &L, mv, out);
    if (st != SOL_OK) {
        sol_law_free(law);
        return st;
    }
    (*out)->law = law;
    return SOL_OK;
}

static sol_status law2(sol_ctx *ctx, sol_law_kind kind, double a, double b, sol_dist **out)
{
    sol_law *law;
    *out = NULL;
    sol_status st = sol_law_new(ctx, kind, a, b, &law);
    if (st != SOL_OK)
        return st;
    return from_law(ctx, law, out);
}

sol_status sol_dist_exponential(sol_ctx *ctx, double mean, sol_dist **out)
{
    return law2(ctx, SOL_LAW_EXPONENTIAL, mean, 0.0, out);
}

sol_status sol_dist_erlang(sol_ctx *ctx, double k, double phase_mean, sol_dist **out)
{
    return law2(ctx, SOL_LAW_ERLANG, k, phase_mean, out);
}

sol_status sol_dist_gamma(sol_ctx *ctx, double shape, double scale, sol_dist **out)
{
    return law2(ctx, SOL_LAW_GAMMA, shape, scale, out);
}

sol_status sol_dist_uniform(sol_ctx *ctx, double a, double b, sol_dist **out)
{
    if (a == b && isfinite(a))
        return sol_dist_deterministic(ctx, a, out);
    return law2(ctx, SOL_LAW_UNIFORM, a, b, out);
}

sol_status sol_dist_normal(sol_ctx *ctx, double mu, double sigma, sol_dist **out)
{
    if (sigma == 0.0 && isfinite(mu)) {
        if (mu < 0.0) {
            *out = NULL;
            return sol_ctx_fail(ctx, SOL_EINVAL, "normal: mu %g with sigma 0 has no mass above 0",
                                mu);
        }
        return sol_dist_deterministic(ctx, mu, out);
    }
    return law2(ctx, SOL_LAW_NORMAL, mu, sigma, out);
}

sol_status sol_dist_lognormal(sol_ctx *ctx, double mu, double sigma, sol_dist **out)
{
    if (sigma == 0.0 && isfinite(mu))
        return sol_dist_deterministic(ctx, exp(mu), out);
    return law2(ctx, SOL_LAW_LOGNORMAL, mu, sigma, out);
}

sol_status sol_dist_weibull(sol_ctx *ctx, double shape, double scale, sol_dist **out)
{
    return law2(ctx, SOL_LAW_WEIBULL, shape, scale, out);
}

sol_status sol_dist_hyperexp(sol_ctx *ctx, size_t nbranch, const double *probs, const double *means,
                             sol_dist **out)
{
    sol_law *law;
    *out = NULL;
    sol_status st = sol_law_new_hyperexp(ctx, nbranch, probs, means, &law);
    if (st != SOL_OK)
        return st;
    return from_law(ctx, law, out);
}

sol_status sol_dist_histogram(sol_ctx *ctx, size_t count, const double *values, const double *probs,
                              sol_dist **out)
{
    *out = NULL;
    if (count == 0)
        return sol_ctx_fail(ctx, SOL_EINVAL, "histogram: no values");
    if (count > ((size_t)1 << 40))
        return sol_ctx_fail(ctx, SOL_ELIMIT, "histogram: %zu values exceed 2^40", count);
    double total = 0.0;
    for (size_t i = 0; i < count; i++) {
        if (!isfinite(values[i]))
            return sol_ctx_fail(ctx, SOL_EINVAL, "histogram: value %zu (%g) is not finite", i + 1,
                                values[i]);
        if (!(isfinite(probs[i]) && probs[i] >= 0.0))
            return sol_ctx_fail(ctx, SOL_EINVAL,
                                "histogram: probability %zu (%g) must be in [0, 1]", i + 1,
                                probs[i]);
        total += probs[i];
    }
    if (!(fabs(total - 1.0) <= 1e-6))
        return sol_ctx_fail(ctx, SOL_EINVAL, "histogram: probabilities sum to %.9g, not 1", total);
    double *xp = malloc(2 * count * sizeof *xp);
    if (xp == NULL)
        return nomem(ctx, "a histogram");
    for (size_t i = 0; i < count; i++) {
        xp[2 * i] = values[i];
        xp[2 * i + 1] = probs[i] / total;
    }
    return from_pairs(ctx, xp, count, NULL, out);
}

sol_status sol_dist_samples(sol_ctx *ctx, size_t count, const double *samples, sol_dist **out)
{
    *out = NULL;
    if (count == 0)
        return sol_ctx_fail(ctx, SOL_EINVAL, "samples: no values");
    if (count > ((size_t)1 << 40))
        return sol_ctx_fail(ctx, SOL_ELIMIT, "samples: %zu values exceed 2^40", count);
    double *xp = malloc(2 * count * sizeof *xp);
    if (xp == NULL)
        return nomem(ctx, "samples");
    for (size_t i = 0; i < count; i++) {
        if (!isfinite(samples[i])) {
            free(xp);
            return sol_ctx_fail(ctx, SOL_EINVAL, "samples: value %zu (%g) is not finite", i + 1,
                                samples[i]);
        }
        xp[2 * i] = samples[i];
        xp[2 * i + 1] = 1.0 / (double)count;
    }
    return from_pairs(ctx, xp, count, NULL, out);
}

/* ---------------------------------------------------------------- shift and scale */

/* Copies the law of a onto d with the affine map value -> c0 + c1 * value. A failed copy only
 * loses exact sampling, so it is not an error. */
static void inherit_law(sol_dist *d, const sol_dist *a, double c0, double c1)
{
    if (a->law == NULL)
        return;
    d->law = sol_law_copy(a->law);
    d->lshift = c0 + c1 * a->lshift;
    d->lscale = c1 * a->lscale;
}

/* Moves each mass at position pos(i) to c0 + c1 * pos(i) on the lattice of step 2^e, splitting
 * mean-exactly. */
static sol_status lat_affine(sol_ctx *ctx, const sol_dist *a, double c0, double c1, int e, lat *L)
{
    double h = step(a->e), H = step(e);
    double first = (c0 + c1 * (double)a->k0 * h) / H;
    double last = (c0 + c1 * (double)(a->k0 + (int64_t)a->n - 1) * h) / H;
    if (!(fabs(first) < (double)KMAX && fabs(last) < (double)KMAX))
        return sol_ctx_fail(ctx, SOL_ELIMIT, "shifted or scaled lattice leaves the index range");
    L->e = e;
    L->k0 = (int64_t)floor(first);
    L->n = (size_t)((int64_t)ceil(last) - L->k0 + 1);
    L->m = calloc(L->n, sizeof *L->m);
    if (L->m == NULL)
        return nomem(ctx, "a lattice");
    for (size_t i = 0; i < a->n; i++) {
        double r = (c0 + c1 * (double)(a->k0 + (int64_t)i) * h) / H, fl = floor(r);
        int64_t j = (int64_t)fl - L->k0;
        if (j < 0)
            j = 0;
        size_t t = (size_t)j;
        double w = r - fl;
        if (t + 1 >= L->n) {
            L->m[L->n - 1] += a->m[i];
            continue;
        }
        L->m[t] += a->m[i] * (1.0 - w);
        L->m[t + 1] += a->m[i] * w;
    }
    return lat_fit(ctx, L);
}

static sol_status affine(sol_ctx *ctx, const sol_dist *a, double c0, double c1, sol_dist **out)
{
    double mv[2] = {c0 + c1 * a->mean, c1 * c1 * a->var};
    sol_status st;
    if (!a->lattice) {
        double *xp = malloc(2 * a->n * sizeof *xp);
        if (xp == NULL)
            return nomem(ctx, "points");
        for (size_t i = 0; i < a->n; i++) {
            xp[2 * i] = c0 + c1 * a->x[i];
            xp[2 * i + 1] = a->m[i];
        }
        st = from_pairs(ctx, xp, a->n, mv, out);
    } else {
        lat L = {0, 0, 0, NULL};
        int e = a->e;
        if (c1 != 1.0) {
            /* new step just below c1 * h: at most twice as many points, regridded if needed */
            int ex;
            frexp(c1, &ex);
            e = a->e + ex - 1;
        }
        double r = c0 / step(e);
        if (c1 == ldexp(1.0, e - a->e) && r == floor(r) && fabs(r) < (double)KMAX) {
            /* exact: same masses, moved index or step */
            st = to_lat(ctx, a, a->e, &L);
            if (st == SOL_OK) {
                L.e = e;
                L.k0 += (int64_t)r;
                st = lat_fit(ctx, &L);
            }
        } else {
            st = lat_affine(ctx, a, c0, c1, e, &L);
        }
        if (st != SOL_OK) {
            lat_free(&L);
            return st;
        }
        st = from_lat(ctx, &L, mv, out);
    }
    if (st == SOL_OK)
        inherit_law(*out, a, c0, c1);
    return st;
}

sol_status sol_dist_shift(sol_ctx *ctx, const sol_dist *a, double c, sol_dist **out)
{
    *out = NULL;
    if (!isfinite(c))
        return overflow(ctx, c);
    return affine(ctx, a, c, 1.0, out);
}

sol_status sol_dist_scale(sol_ctx *ctx, const sol_dist *a, double c, sol_dist **out)
{
    *out = NULL;
    if (!isfinite(c))
        return overflow(ctx, c);
    if (!(c > 0.0))
        return sol_ctx_fail(ctx, SOL_EINVAL, "scale: factor %g must be positive", c);
    return affine(ctx, a, 0.0, c, out);
}

/* ---------------------------------------------------------------- series */

static sol_status points_series(sol_ctx *ctx, const sol_dist *a, const sol_dist *b,
                                const double *mv, sol_dist **out)
{
    size_t n = a->n * b->n;
    double *xp = malloc(2 * n * sizeof *xp);
    if (xp == NULL)
        return nomem(ctx, "points");
    for (size_t i = 0; i < a->n; i++)
        for (size_t j = 0; j < b->n; j++) {
            xp[2 * (i * b->n + j)] = a->x[i] + b->x[j];
            xp[2 * (i * b->n + j) + 1] = a->m[i] * b->m[j];
        }
    return from_pairs(ctx, xp, n, mv, out);
}

/* Phases and phase mean when d is exactly an exponential or Erlang variate (scaled, not
 * shifted); 0 otherwise. */
static int erlang_of(const sol_dist *d, double *k, double *phase_mean)
{
    if (d->law == NULL || d->lshift != 0.0)
        return 0;
    sol_law_kind kind;
    double a, b;
    sol_law_params(d->law, &kind, &a, &b);
    if (kind == SOL_LAW_EXPONENTIAL) {
        *k = 1.0;
        *phase_mean = a * d->lscale;
        return 1;
    }
    if (kind == SOL_LAW_ERLANG) {
        *k = a;
        *phase_mean = b * d->lscale;
        return 1;
    }
    return 0;
}

/* A sum of Erlangs with one phase mean is an Erlang: the sum keeps that law, so it is still
 * sampled exactly and a Markov chain can still expand it into phases. A failed allocation only
 * loses the law. */
static void erlang_sum_law(sol_dist *d, const sol_dist *a, const sol_dist *b)
{
    double ka, ma, kb, mb;
    if (!erlang_of(a, &ka, &ma) || !erlang_of(b, &kb, &mb) || ma != mb || ka + kb > 1e15)
        return;
    d->law = sol_law_new_erlang(ka + kb, ma);
    d->lshift = 0.0;
    d->lscale = 1.0;
}

int sol_dist_erlang_params(const sol_dist *d, uint64_t *phases, double *rate)
{
    double k, pm;
    if (erlang_of(d, &k, &pm)) {
        *phases = (uint64_t)k;
        *rate = 1.0 / pm;
        return 1;
    }
    if (!d->lattice && d->n == 1 && d->x[0] == 0.0) {
        *phases = 0;
        *rate = 0.0;
        return 1;
    }
    return 0;
}

sol_status sol_dist_series(sol_ctx *ctx, const sol_dist *a, const sol_dist *b, sol_dist **out)
{
    *out = NULL;
    double mv[2] = {a->mean + b->mean, a->var + b->var};
    if (!a->lattice && !b->lattice)
        return points_series(ctx, a, b, mv, out);
    const sol_dist *ds[2] = {a, b};
    int e = common_exp(ctx, 2, ds);
    lat La, Lb, R;
    sol_status st = to_lat(ctx, a, e, &La);
    if (st != SOL_OK)
        return st;
    if (a == b) { /* self-convolution: one FFT transform less */
        st = lat_series(ctx, &La, &La, &R);
        lat_free(&La);
        st = st != SOL_OK ? st : from_lat(ctx, &R, mv, out);
        if (st == SOL_OK)
            erlang_sum_law(*out, a, b);
        return st;
    }
    st = to_lat(ctx, b, e, &Lb);
    if (st != SOL_OK) {
        lat_free(&La);
        return st;
    }
    st = lat_series(ctx, &La, &Lb, &R);
    lat_free(&La);
    lat_free(&Lb);
    if (st != SOL_OK)
        return st;
    st = from_lat(ctx, &R, mv, out);
    if (st == SOL_OK)
        erlang_sum_law(*out, a, b);
    return st;
}

static sol_status count_check(sol_ctx *ctx, const char *op, uint64_t k)
{
    if (k > SOL_COUNT_MAX)
        return sol_ctx_fail(ctx, SOL_ELIMIT, "%s: count %llu exceeds 2^62", op,
                            (unsigned long long)k);
    return SOL_OK;
}

sol_status sol_dist_series_n(sol_ctx *ctx, const sol_dist *a, uint64_t m, sol_dist **out)
{
    *out = NULL;
    sol_status st = count_check(ctx, "series", m);
    if (st != SOL_OK)
        return st;
    if (m == 0)
        return sol_dist_deterministic(ctx, 0.0, out);
    if (m == 1) {
        *out = sol_dist_retain(a);
        return SOL_OK;
    }
    /* Repeated squaring: acc collects the powers of two of m, base is a^(2^i). */
    sol_dist *base = sol_dist_retain(a), *acc = NULL;
    while (m > 0) {
        if (m & 1) {
            sol_dist *next;
            if (acc == NULL) {
                next = sol_dist_retain(base);
            } else {
                st = sol_dist_series(ctx, acc, base, &next);
                sol_dist_free(acc);
            }
            acc = next;
            if (st != SOL_OK)
                break;
        }
        m >>= 1;
        if (m > 0) {
            sol_dist *sq;
            st = sol_dist_series(ctx, base, base, &sq);
            sol_dist_free(base);
            base = sq;
            if (st != SOL_OK)
                break;
        }
    }
    sol_dist_free(base);
    if (st != SOL_OK) {
        sol_dist_free(acc);
        return st;
    }
    *out = acc;
    return SOL_OK;
}

/* ---------------------------------------------------------------- max and min */

/* One term of log(prod F) (max) or log(prod S) (min) for an input with F = P(X <= y) and
 * S = P(X > y): the logarithm of whichever is small is taken directly, the other through log1p,
 * so neither tail of the product loses precision. */
static double log_term(double F, double S, int is_min)
{
    if (is_min)
        return S < 0.5 ? log(S) : log1p(-F);
    return F < 0.5 ? log(F) : log1p(-S);
}

/* Masses from acc[j] = log of the product at the j-th position: differences of the CDF below the
 * median and of the survival function above it. */
static void masses_from_logs(const double *acc, size_t n, int is_min, double *m)
{
    double Fp = 0.0, Sp = 1.0;
    for (size_t j = 0; j < n; j++) {
        double F = is_min ? -expm1(acc[j]) : exp(acc[j]);
        double S = is_min ? exp(acc[j]) : -expm1(acc[j]);
        double v = F <= 0.5 ? F - Fp : Sp - S;
        m[j] = v > 0.0 ? v : 0.0;
        Fp = F;
        Sp = S;
    }
}

/* Modes of the extremes below (the is_min argument): the maximum or the minimum of independent
 * inputs, or the maximum of comonotone ones (CDF = the pointwise minimum of the inputs' CDFs, the
 * upper Frechet bound: the smallest distribution the maximum of dependent inputs can have). */
#define EX_MAX    0
#define EX_MIN    1
#define EX_COMONO 2

/* Accumulates one input's log-term: a weighted sum of logs for independent inputs, their
 * minimum for comonotone ones (acc starts at log 1 = 0 in both cases). */
static void acc_add(double *acc, double w, double term, int mode)
{
    if (mode == EX_COMONO)
        *acc = term < *acc ? term : *acc;
    else
        *acc += w * term;
}

/* Extremes of point distributions: evaluated at the union of all atoms. */
static sol_status points_extreme(sol_ctx *ctx, size_t count, const sol_dist *const *ds,
                                 const double *w, int is_min, sol_dist **out)
{
    size_t n = 0;
    for (size_t i = 0; i < count; i++)
        n += ds[i]->n;
    double *y = malloc(n * sizeof *y), *acc = calloc(n, sizeof *acc);
    double *xp = malloc(2 * n * sizeof *xp);
    if (y == NULL || acc == NULL || xp == NULL) {
        free(y);
        free(acc);
        free(xp);
        return nomem(ctx, "points");
    }
    size_t k = 0;
    for (size_t i = 0; i < count; i++)
        for (size_t j = 0; j < ds[i]->n; j++)
            y[k++] = ds[i]->x[j];
    qsort(y, n, sizeof *y, cmp_pair); /* cmp_pair compares the first double */
    size_t u = 0;
    for (size_t j = 0; j < n; j++)
        if (u == 0 || y[j] != y[u - 1])
            y[u++] = y[j];
    for (size_t i = 0; i < count; i++) {
        const sol_dist *d = ds[i];
        size_t t = 0;
        double F = 0.0, S = 1.0;
        for (size_t j = 0; j < u; j++) {
            int moved = 0;
            while (t < d->n && d->x[t] <= y[j]) {
                F += d->m[t++];
                moved = 1;
            }
            if (moved) { /* the mass above, summed from the top for precision */
                S = 0.0;
                for (size_t r = d->n; r > t; r--)
                    S += d->m[r - 1];
            }
            acc_add(&acc[j], w[i], log_term(F, S, is_min == EX_MIN), is_min);
        }
    }
    double *m = malloc(u * sizeof *m);
    if (m == NULL) {
        free(y);
        free(acc);
        free(xp);
        return nomem(ctx, "points");
    }
    masses_from_logs(acc, u, is_min == EX_MIN, m);
    for (size_t j = 0; j < u; j++) {
        xp[2 * j] = y[j];
        xp[2 * j + 1] = m[j];
    }
    free(y);
    free(acc);
    free(m);
    return from_pairs(ctx, xp, u, NULL, out);
}

/* Adds w * log-term of lattice L over the index range [lo, lo + n) into acc. O(n + L->n). */
static sol_status lat_acc(sol_ctx *ctx, const lat *L, int64_t lo, size_t n, double w, int is_min,
                          double *acc)
{
    double *S = malloc((L->n + 1) * sizeof *S);
    if (S == NULL)
        return nomem(ctx, "an extreme");
    /* S[i] = mass above index i, summed from the top so the upper tail keeps its precision */
    S[L->n] = 0.0;
    S[L->n - 1] = 0.0;
    for (size_t i = L->n - 1; i > 0; i--)
        S[i - 1] = S[i] + L->m[i];
    /* the range may start inside L (a max starts at the largest lower end) */
    double F = 0.0;
    for (int64_t i = 0; i < lo - L->k0 && i < (int64_t)L->n; i++)
        F += L->m[i];
    for (size_t j = 0; j < n; j++) {
        int64_t i = lo + (int64_t)j - L->k0;
        double Fj, Sj;
        if (i < 0) {
            Fj = 0.0;
            Sj = 1.0;
        } else if (i >= (int64_t)L->n) {
            Fj = 1.0;
            Sj = 0.0;
        } else {
            F += L->m[i];
            Fj = F;
            Sj = S[i];
        }
        acc_add(&acc[j], w, log_term(Fj, Sj, is_min == EX_MIN), is_min);
    }
    free(S);
    return SOL_OK;
}

/* max (is_min = EX_MAX) or min (EX_MIN) of independent inputs, input i counted w[i] times, or
 * the max of comonotone inputs (EX_COMONO, weights ignored). */
static sol_status extreme(sol_ctx *ctx, size_t count, const sol_dist *const *ds, const double *w,
                          int is_min, sol_dist **out)
{
    *out = NULL;
    int any_lattice = 0;
    for (size_t i = 0; i < count; i++)
        any_lattice |= ds[i]->lattice;
    if (!any_lattice)
        return points_extreme(ctx, count, ds, w, is_min, out);
    int e = common_exp(ctx, count, ds);
    lat *L = calloc(count, sizeof *L);
    if (L == NULL)
        return nomem(ctx, "an extreme");
    sol_status st = SOL_OK;
    int64_t lo = 0, hi = 0;
    for (size_t i = 0; i < count && st == SOL_OK; i++) {
        st = to_lat(ctx, ds[i], e, &L[i]);
        if (st != SOL_OK)
            break;
        int64_t a = L[i].k0, b = L[i].k0 + (int64_t)L[i].n - 1;
        /* max lives on [max lo, max hi], min on [min lo, min hi] */
        if (i == 0 || (is_min == EX_MIN ? a < lo : a > lo))
            lo = a;
        if (i == 0 || (is_min == EX_MIN ? b < hi : b > hi))
            hi = b;
    }
    lat R = {e, lo, 0, NULL};
    double *acc = NULL;
    if (st == SOL_OK) {
        R.n = (size_t)(hi - lo + 1);
        acc = calloc(R.n, sizeof *acc);
        R.m = malloc(R.n * sizeof *R.m);
        if (acc == NULL || R.m == NULL)
            st = nomem(ctx, "an extreme");
    }
    for (size_t i = 0; i < count && st == SOL_OK; i++)
        st = lat_acc(ctx, &L[i], lo, R.n, w[i], is_min, acc);
    for (size_t i = 0; i < count; i++)
        lat_free(&L[i]);
    free(L);
    if (st == SOL_OK) {
        masses_from_logs(acc, R.n, is_min == EX_MIN, R.m);
        lat_trim(ctx, &R, sol_ctx_tail_eps(ctx));
        st = lat_fit(ctx, &R);
    }
    free(acc);
    if (st != SOL_OK) {
        lat_free(&R);
        return st;
    }
    return from_lat(ctx, &R, NULL, out);
}

sol_status sol_dist_max(sol_ctx *ctx, const sol_dist *a, const sol_dist *b, sol_dist **out)
{
    const sol_dist *ds[2] = {a, b};
    const double w[2] = {1.0, 1.0};
    return extreme(ctx, 2, ds, w, 0, out);
}

sol_status sol_dist_min(sol_ctx *ctx, const sol_dist *a, const sol_dist *b, sol_dist **out)
{
    const sol_dist *ds[2] = {a, b};
    const double w[2] = {1.0, 1.0};
    return extreme(ctx, 2, ds, w, 1, out);
}

sol_status sol_dist_max_all(sol_ctx *ctx, size_t count, const sol_dist *const *ds, sol_dist **out)
{
    *out = NULL;
    if (count == 0)
        return sol_dist_deterministic(ctx, 0.0, out);
    if (count == 1) {
        *out = sol_dist_retain(ds[0]);
        return SOL_OK;
    }
    double *w = malloc(count * sizeof *w);
    if (w == NULL)
        return nomem(ctx, "a maximum");
    for (size_t i = 0; i < count; i++)
        w[i] = 1.0;
    sol_status st = extreme(ctx, count, ds, w, 0, out);
    free(w);
    return st;
}

sol_status sol_dist_max_comonotone(sol_ctx *ctx, size_t count, const sol_dist *const *ds,
                                   sol_dist **out)
{
    *out = NULL;
    if (count == 0)
        return sol_dist_deterministic(ctx, 0.0, out);
    if (count == 1) {
        *out = sol_dist_retain(ds[0]);
        return SOL_OK;
    }
    double *w = malloc(count * sizeof *w); /* read by the shared code, ignored by the mode */
    if (w == NULL)
        return nomem(ctx, "a maximum");
    for (size_t i = 0; i < count; i++)
        w[i] = 1.0;
    sol_status st = extreme(ctx, count, ds, w, EX_COMONO, out);
    free(w);
    return st;
}

static sol_status extreme_n(sol_ctx *ctx, const sol_dist *a, uint64_t k, int is_min, sol_dist **out)
{
    const char *op = is_min ? "min_n" : "max_n";
    *out = NULL;
    sol_status st = count_check(ctx, op, k);
    if (st != SOL_OK)
        return st;
    if (k == 0) {
        if (is_min)
            return sol_ctx_fail(ctx, SOL_EINVAL, "min_n: the minimum of no variables");
        return sol_dist_deterministic(ctx, 0.0, out);
    }
    if (k == 1) {
        *out = sol_dist_retain(a);
        return SOL_OK;
    }
    double w = (double)k;
    return extreme(ctx, 1, &a, &w, is_min, out);
}

sol_status sol_dist_max_n(sol_ctx *ctx, const sol_dist *a, uint64_t k, sol_dist **out)
{
    return extreme_n(ctx, a, k, 0, out);
}

sol_status sol_dist_min_n(sol_ctx *ctx, const sol_dist *a, uint64_t k, sol_dist **out)
{
    return extreme_n(ctx, a, k, 1, out);
}

/* ---------------------------------------------------------------- mixtures */

static sol_status check_weights(sol_ctx *ctx, size_t count, const double *w, double *total)
{
    *total = 0.0;
    if (count == 0)
        return sol_ctx_fail(ctx, SOL_EINVAL, "mixture: no components");
    for (size_t i = 0; i < count; i++) {
        if (!(isfinite(w[i]) && w[i] >= 0.0))
            return sol_ctx_fail(ctx, SOL_EINVAL, "mixture: weight %zu (%g) must be >= 0", i + 1,
                                w[i]);
        *total += w[i];
    }
    if (!(fabs(*total - 1.0) <= 1e-9))
        return sol_ctx_fail(ctx, SOL_EINVAL, "mixture: weights sum to %.12g, not 1", *total);
    return SOL_OK;
}

sol_status sol_dist_mixture(sol_ctx *ctx, size_t count, const sol_dist *const *ds,
                            const double *weights, sol_dist **out)
{
    double total, mean = 0.0, m2 = 0.0;
    *out = NULL;
    sol_status st = check_weights(ctx, count, weights, &total);
    if (st != SOL_OK)
        return st;
    int any_lattice = 0;
    size_t natoms = 0;
    for (size_t i = 0; i < count; i++) {
        double w = weights[i] / total;
        mean += w * ds[i]->mean;
        m2 += w * (ds[i]->var + ds[i]->mean * ds[i]->mean);
        if (weights[i] > 0.0) {
            any_lattice |= ds[i]->lattice;
            natoms += ds[i]->n;
        }
    }
    double mv[2] = {mean, fmax(m2 - mean * mean, 0.0)};
    if (!any_lattice) {
        double *xp = malloc(2 * natoms * sizeof *xp);
        if (xp == NULL)
            return nomem(ctx, "points");
        size_t k = 0;
        for (size_t i = 0; i < count; i++)
            for (size_t j = 0; weights[i] > 0.0 && j < ds[i]->n; j++) {
                xp[2 * k] = ds[i]->x[j];
                xp[2 * k + 1] = weights[i] / total * ds[i]->m[j];
                k++;
            }
        return from_pairs(ctx, xp, natoms, mv, out);
    }
    /* The common step must also fit the union of all supports. */
    int e = common_exp(ctx, count, ds);
    double lo = INFINITY, hi = -INFINITY;
    for (size_t i = 0; i < count; i++) {
        if (weights[i] > 0.0) {
            lo = fmin(lo, sol_dist_min_value(ds[i]));
            hi = fmax(hi, sol_dist_max_value(ds[i]));
        }
    }
    int ef = fit_exp(lo, hi, sol_ctx_max_len(ctx));
    e = ef > e ? ef : e;
    lat R = {e, 0, 0, NULL};
    R.k0 = (int64_t)floor(lo / step(e));
    R.n = (size_t)((int64_t)ceil(hi / step(e)) - R.k0 + 2);
    R.m = calloc(R.n, sizeof *R.m);
    if (R.m == NULL)
        return nomem(ctx, "a mixture");
    for (size_t i = 0; i < count && st == SOL_OK; i++) {
        if (weights[i] <= 0.0)
            continue;
        lat L;
        st = to_lat(ctx, ds[i], e, &L);
        if (st != SOL_OK)
            break;
        double w = weights[i] / total;
        for (size_t j = 0; j < L.n; j++)
            R.m[(size_t)(L.k0 - R.k0) + j] += w * L.m[j];
        lat_free(&L);
    }
    if (st == SOL_OK)
        st = lat_fit(ctx, &R);
    if (st != SOL_OK) {
        lat_free(&R);
        return st;
    }
    return from_lat(ctx, &R, mv, out);
}

/* Adds b into a, first coarsening both so that the union of their ranges fits. */
static sol_status lat_add(sol_ctx *ctx, lat *a, lat *b)
{
    size_t max_len = sol_ctx_max_len(ctx);
    int e = a->e > b->e ? a->e : b->e;
    for (;; e++) {
        int64_t fa = (int64_t)1 << (e - a->e < 62 ? e - a->e : 62);
        int64_t fb = (int64_t)1 << (e - b->e < 62 ? e - b->e : 62);
        int64_t la = floor_div(a->k0, fa), lb = floor_div(b->k0, fb);
        int64_t ha = floor_div(a->k0 + (int64_t)a->n - 1 + fa - 1, fa);
        int64_t hb = floor_div(b->k0 + (int64_t)b->n - 1 + fb - 1, fb);
        if ((uint64_t)((ha > hb ? ha : hb) - (la < lb ? la : lb) + 1) <= max_len)
            break;
    }
    sol_status st = lat_coarsen(ctx, a, e);
    if (st == SOL_OK)
        st = lat_coarsen(ctx, b, e);
    if (st != SOL_OK)
        return st;
    int64_t lo = a->k0 < b->k0 ? a->k0 : b->k0;
    int64_t ha = a->k0 + (int64_t)a->n, hb = b->k0 + (int64_t)b->n;
    int64_t hi = ha > hb ? ha : hb;
    if (lo != a->k0 || hi != ha) {
        double *m = calloc((size_t)(hi - lo), sizeof *m);
        if (m == NULL)
            return nomem(ctx, "a geometric sum");
        memcpy(m + (a->k0 - lo), a->m, a->n * sizeof *m);
        free(a->m);
        a->m = m;
        a->k0 = lo;
        a->n = (size_t)(hi - lo);
    }
    for (size_t j = 0; j < b->n; j++)
        a->m[(size_t)(b->k0 - a->k0) + j] += b->m[j];
    return SOL_OK;
}

/* Brings two lattices to the coarser of their steps. */
static sol_status lat_align(sol_ctx *ctx, lat *a, lat *b)
{
    sol_status st = lat_coarsen(ctx, a, b->e);
    return st != SOL_OK ? st : lat_coarsen(ctx, b, a->e);
}

sol_status sol_dist_star(sol_ctx *ctx, const sol_dist *a, double q, sol_dist **out)
{
    *out = NULL;
    if (!(q >= 0.0 && q < 1.0))
        return sol_ctx_fail(ctx, SOL_EINVAL, "star: repeat probability %g must be in [0, 1)", q);
    if (q == 0.0 || (!a->lattice && a->n == 1 && a->x[0] == 0.0))
        return sol_dist_deterministic(ctx, 0.0, out);
    double en = q / (1.0 - q), vn = q / ((1.0 - q) * (1.0 - q));
    double mv[2] = {en * a->mean, en * a->var + vn * a->mean * a->mean};
    double eps = sol_ctx_tail_eps(ctx);
    /* Doubling: S = sum_{k<K} q^k a^{*k}, P = q^K a^{*K}; S += S * P, P = P * P, K *= 2, until
     * the mass q^K left out is below eps. */
    lat S = {0, 0, 1, NULL}, P;
    int e = common_exp(ctx, 1, &a);
    sol_status st = to_lat(ctx, a, e, &P);
    if (st != SOL_OK)
        return st;
    S.e = P.e;
    S.m = malloc(sizeof *S.m);
    if (S.m == NULL) {
        lat_free(&P);
        return nomem(ctx, "a geometric sum");
    }
    S.m[0] = 1.0;
    for (size_t j = 0; j < P.n; j++)
        P.m[j] *= q;
    double rest = q;
    while (st == SOL_OK && rest > eps) {
        lat SP = {0, 0, 0, NULL}, PP = {0, 0, 0, NULL};
        st = lat_align(ctx, &S, &P);
        if (st == SOL_OK)
            st = lat_series(ctx, &S, &P, &SP);
        if (st == SOL_OK)
            st = lat_add(ctx, &S, &SP);
        if (st == SOL_OK && rest * rest > eps)
            st = lat_series(ctx, &P, &P, &PP);
        lat_free(&SP);
        lat_free(&P);
        P = PP;
        rest *= rest;
    }
    lat_free(&P);
    if (st != SOL_OK) {
        lat_free(&S);
        return st;
    }
    lat_trim(ctx, &S, eps);
    sol_ctx_add_tail(ctx, rest);
    return from_lat(ctx, &S, mv, out);
}

sol_status sol_dist_plus(sol_ctx *ctx, const sol_dist *a, double q, sol_dist **out)
{
    sol_dist *s;
    *out = NULL;
    sol_status st = sol_dist_star(ctx, a, q, &s);
    if (st != SOL_OK)
        return st;
    st = sol_dist_series(ctx, a, s, out);
    sol_dist_free(s);
    return st;
}

/* ---------------------------------------------------------------- queries */

double sol_dist_mean(const sol_dist *d)
{
    return d->mean;
}

double sol_dist_var(const sol_dist *d)
{
    return d->var;
}

int sol_dist_is_lattice(const sol_dist *d)
{
    return d->lattice;
}

double sol_dist_step(const sol_dist *d)
{
    return d->lattice ? step(d->e) : 0.0;
}

size_t sol_dist_len(const sol_dist *d)
{
    return d->n;
}

double sol_dist_value(const sol_dist *d, size_t i)
{
    if (d->lattice)
        return ldexp((double)(d->k0 + (int64_t)i), d->e);
    return d->x[i];
}

double sol_dist_mass(const sol_dist *d, size_t i)
{
    return d->m[i];
}

double sol_dist_min_value(const sol_dist *d)
{
    return sol_dist_value(d, 0);
}

double sol_dist_max_value(const sol_dist *d)
{
    return sol_dist_value(d, d->n - 1);
}

const char *sol_dist_law_name(const sol_dist *d)
{
    return d->law ? sol_law_name(d->law) : NULL;
}

/* First index whose cumulative mass reaches u. */
static size_t find_cum(const sol_dist *d, double u)
{
    size_t lo = 0, hi = d->n - 1;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (d->cum[mid] >= u)
            hi = mid;
        else
            lo = mid + 1;
    }
    return lo;
}

double sol_dist_cdf(const sol_dist *d, double t)
{
    if (isnan(t))
        return NAN;
    if (d->law != NULL)
        return sol_law_cdf(d->law, (t - d->lshift) / d->lscale);
    if (t < sol_dist_min_value(d))
        return 0.0;
    if (t >= sol_dist_max_value(d))
        return 1.0;
    if (!d->lattice) {
        size_t lo = 0, hi = d->n - 1; /* last atom <= t */
        while (lo < hi) {
            size_t mid = hi - (hi - lo) / 2;
            if (d->x[mid] <= t)
                lo = mid;
            else
                hi = mid - 1;
        }
        return d->cum[lo];
    }
    /* each mass spread uniformly over [x - h/2, x + h/2] */
    double h = step(d->e), r = t / h + 0.5, fl = floor(r);
    size_t i = (size_t)((int64_t)fl - d->k0);
    double below = i > 0 ? d->cum[i - 1] : 0.0;
    double F = below + d->m[i] * (r - fl);
    return F < 1.0 ? F : 1.0;
}

double sol_dist_quantile(const sol_dist *d, double u)
{
    if (!(u >= 0.0 && u <= 1.0))
        return NAN;
    if (d->law != NULL && u < 1.0)
        return d->lshift + d->lscale * sol_law_quantile(d->law, u);
    if (!d->lattice)
        return d->x[find_cum(d, u - 1e-12)];
    size_t i = find_cum(d, u);
    double below = i > 0 ? d->cum[i - 1] : 0.0;
    double h = step(d->e), x = sol_dist_value(d, i);
    double t = d->m[i] > 0.0 ? x - 0.5 * h + h * (u - below) / d->m[i] : x;
    t = t > x + 0.5 * h ? x + 0.5 * h : t;
    t = t < sol_dist_min_value(d) ? sol_dist_min_value(d) : t;
    return t > sol_dist_max_value(d) ? sol_dist_max_value(d) : t;
}

double sol_dist_sample(const sol_dist *d, gsl_rng *rng)
{
    if (d->law != NULL)
        return d->lshift + d->lscale * sol_law_sample(d->law, rng);
    return sol_dist_value(d, find_cum(d, gsl_rng_uniform(rng) * d->cum[d->n - 1]));
}
