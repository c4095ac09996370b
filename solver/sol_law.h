/* Parametric laws (GSL's CDFs, inverse CDFs, partial expectations and samplers) and their
 * mean-exact discretisation onto a power-of-two lattice. Internal to the solver: sol_dist wraps
 * a law so that untransformed parametric distributions can be queried and sampled exactly. */
#ifndef SOL_LAW_H
#define SOL_LAW_H

#include <stddef.h>
#include <stdint.h>

#include <gsl/gsl_rng.h>

#include "sol_ctx.h"

typedef enum sol_law_kind {
    SOL_LAW_EXPONENTIAL, /* a = mean */
    SOL_LAW_ERLANG,      /* a = phases k (integer), b = mean of each phase */
    SOL_LAW_GAMMA,       /* a = shape, b = scale */
    SOL_LAW_UNIFORM,     /* a < b */
    SOL_LAW_NORMAL,      /* a = mu, b = sigma, truncated at 0 and renormalised */
    SOL_LAW_LOGNORMAL,   /* a = mu, b = sigma of the logarithm */
    SOL_LAW_WEIBULL,     /* a = shape, b = scale */
    SOL_LAW_HYPEREXP     /* branches with probabilities and means */
} sol_law_kind;

typedef struct sol_law sol_law;

/* Validates the parameters of a two-parameter family (b ignored for the exponential) and
 * allocates the law; SOL_EINVAL with a message naming the parameter. Degenerate parameters
 * (sigma = 0, a = b) are rejected here: sol_dist turns them into deterministic values first.
 * The caller owns *out. O(1). */
sol_status sol_law_new(sol_ctx *ctx, sol_law_kind kind, double a, double b, sol_law **out);
/* Hyperexponential with n >= 1 branches; probabilities must be >= 0 and sum to 1 (within 1e-9,
 * then renormalised), means > 0. The arrays are copied. O(n). */
sol_status sol_law_new_hyperexp(sol_ctx *ctx, size_t n, const double *probs, const double *means,
                                sol_law **out);
/* A copy owned by the caller; NULL when out of memory. O(branches). */
sol_law *sol_law_copy(const sol_law *law);
void sol_law_free(sol_law *law);

/* The family and its two parameters a, b as listed in sol_law_kind (hyperexponential: a = branch
 * count, b = 0). O(1). */
void sol_law_params(const sol_law *law, sol_law_kind *kind, double *a, double *b);
/* Erlang(k, phase_mean) without a context, for laws derived from valid ones (a sum of Erlangs);
 * NULL when out of memory. The caller owns the result. O(1). */
sol_law *sol_law_new_erlang(double k, double phase_mean);

/* Family name ("erlang", ...), and "name(p1, p2)" written into buf. O(branches). */
const char *sol_law_name(const sol_law *law);
void sol_law_describe(const sol_law *law, char *buf, size_t len);

/* Exact moments and distribution functions; all O(branches) GSL calls. sf is 1 - cdf computed
 * without cancellation; lpe(x) = E[X; X <= x], upe(x) = E[X; X > x]. */
double sol_law_mean(const sol_law *law);
double sol_law_var(const sol_law *law);
double sol_law_cdf(const sol_law *law, double x);
double sol_law_sf(const sol_law *law, double x);
double sol_law_lpe(const sol_law *law, double x);
double sol_law_upe(const sol_law *law, double x);
/* Lower end of the support (0, or a for the uniform). */
double sol_law_support_min(const sol_law *law);
/* x with cdf(x) = u (0 <= u < 1), and x with sf(x) = q for small q without cancellation;
 * NaN if GSL fails. */
double sol_law_quantile(const sol_law *law, double u);
double sol_law_isf(const sol_law *law, double q);
/* One variate by gsl_ran_*. O(1) (O(branches) for the hyperexponential). */
double sol_law_sample(const sol_law *law, gsl_rng *rng);

/* Mean-exact discretisation onto the lattice k*h, h = 2^e, at most max_len points: the cells
 * between Q(eps) and Q(1-eps) are split between their endpoints so each cell's conditional mean
 * is kept (actuar's "unbiased" rule, with closed-form partial expectations); each tail beyond is
 * one atom at its conditional mean, split likewise. Heavy tails therefore widen the lattice and
 * coarsen h instead of biasing the mean; a note is added to the context when the interquartile
 * range gets fewer than 8 cells. On success the caller owns *masses (sum 1).
 * Cost O(max_len) GSL evaluations. */
sol_status sol_law_discretise(sol_ctx *ctx, const sol_law *law, size_t max_len, int *e, int64_t *k0,
                              size_t *n, double **masses);

#endif
