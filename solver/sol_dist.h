/* Distributions of nonnegative (or any real) durations: exact points for a few atoms, otherwise
 * masses on a lattice k*h with h = 2^e, mean kept exact under discretisation and regridding.
 * Immutable and reference counted so the compiler can share one among many graph nodes. */
#ifndef SOL_DIST_H
#define SOL_DIST_H

#include <stddef.h>
#include <stdint.h>

#include <gsl/gsl_rng.h>

#include "sol_ctx.h"

typedef struct sol_dist sol_dist;

/* Distributions with at most this many atoms are kept as exact (value, probability) pairs. */
#define SOL_POINTS_MAX 64
/* Largest count accepted by sol_dist_series_n, sol_dist_max_n and sol_dist_min_n. */
#define SOL_COUNT_MAX ((uint64_t)1 << 62)

/* Ownership, for every function below that returns a sol_dist **out: on SOL_OK the caller owns
 * one reference to *out (drop it with sol_dist_free); on failure *out is NULL and the context
 * holds the message. Inputs are only read; they are never consumed.
 * n below is the lattice length (at most sol_ctx_max_len), a the atom count (<= 64). */

/* Reference counting (thread-safe). retain returns d. O(1). */
sol_dist *sol_dist_retain(const sol_dist *d);
void sol_dist_free(sol_dist *d);

/* Constructors. Parametric laws are discretised through their GSL CDFs and keep the law for
 * exact cdf/quantile/sampling. Cost O(n) GSL evaluations (deterministic O(1)). */
sol_status sol_dist_deterministic(sol_ctx *ctx, double x, sol_dist **out);
sol_status sol_dist_exponential(sol_ctx *ctx, double mean, sol_dist **out);
/* k phases (a positive integer), each exponential with mean phase_mean: mean k * phase_mean. */
sol_status sol_dist_erlang(sol_ctx *ctx, double k, double phase_mean, sol_dist **out);
sol_status sol_dist_gamma(sol_ctx *ctx, double shape, double scale, sol_dist **out);
/* a = b gives the deterministic a. */
sol_status sol_dist_uniform(sol_ctx *ctx, double a, double b, sol_dist **out);
/* Normal(mu, sigma) truncated at 0 and renormalised; sigma = 0 gives the deterministic mu. */
sol_status sol_dist_normal(sol_ctx *ctx, double mu, double sigma, sol_dist **out);
/* exp(Normal(mu, sigma)); sigma = 0 gives the deterministic e^mu. */
sol_status sol_dist_lognormal(sol_ctx *ctx, double mu, double sigma, sol_dist **out);
sol_status sol_dist_weibull(sol_ctx *ctx, double shape, double scale, sol_dist **out);
/* Branch i (probability probs[i], exponential with mean means[i]); arrays are copied. */
sol_status sol_dist_hyperexp(sol_ctx *ctx, size_t nbranch, const double *probs, const double *means,
                             sol_dist **out);
/* Measured data: (value, probability) pairs, probabilities summing to 1 within 1e-6 (then
 * renormalised); or samples, each of weight 1/count. Exact points when at most 64 distinct
 * values, otherwise a mean-exact lattice. Arrays are copied. O(count log count + n). */
sol_status sol_dist_histogram(sol_ctx *ctx, size_t count, const double *values, const double *probs,
                              sol_dist **out);
sol_status sol_dist_samples(sol_ctx *ctx, size_t count, const double *samples, sol_dist **out);

/* a + c. Exact for points and for c a multiple of h; otherwise each mass is split between the
 * two lattice points around its new position (mean exact, variance + <= h^2/4). O(n). */
sol_status sol_dist_shift(sol_ctx *ctx, const sol_dist *a, double c, sol_dist **out);
/* c * a for c > 0. Exact for points and powers of two; otherwise regridded mean-exactly. O(n). */
sol_status sol_dist_scale(sol_ctx *ctx, const sol_dist *a, double c, sol_dist **out);
/* a + b for independent a, b (convolution). Points: O(a^2 log a). Lattices: the finer is
 * coarsened to the coarser step; direct O(n^2) below the crossover, FFT O(n log n) above. */
sol_status sol_dist_series(sol_ctx *ctx, const sol_dist *a, const sol_dist *b, sol_dist **out);
/* Sum of m iid copies by repeated squaring (m = 0: deterministic 0). O(n log n log m). */
sol_status sol_dist_series_n(sol_ctx *ctx, const sol_dist *a, uint64_t m, sol_dist **out);
/* max(a, b) of independent variables: product of CDFs, computed in the upper tail as
 * 1 - exp(sum log1p(-S)). O(n) after aligning steps. */
sol_status sol_dist_max(sol_ctx *ctx, const sol_dist *a, const sol_dist *b, sol_dist **out);
/* Maximum of count independent variables. O(count * n). */
sol_status sol_dist_max_all(sol_ctx *ctx, size_t count, const sol_dist *const *ds, sol_dist **out);
/* Maximum of k iid copies: F^k = exp(k log1p(-S)) (k = 0: deterministic 0). O(n). */
sol_status sol_dist_max_n(sol_ctx *ctx, const sol_dist *a, uint64_t k, sol_dist **out);
/* min(a, b) of independent variables: product of survival functions. O(n). */
sol_status sol_dist_min(sol_ctx *ctx, const sol_dist *a, const sol_dist *b, sol_dist **out);
/* Maximum of comonotone variables with these marginals: CDF = the pointwise minimum of the
 * CDFs (the upper Frechet bound). The maximum of any dependent variables with these marginals is
 * stochastically at least this: the lower Kleindorfer bound uses it. O(count * n). */
sol_status sol_dist_max_comonotone(sol_ctx *ctx, size_t count, const sol_dist *const *ds,
                                   sol_dist **out);
/* Minimum of k >= 1 iid copies: S^k. O(n). */
sol_status sol_dist_min_n(sol_ctx *ctx, const sol_dist *a, uint64_t k, sol_dist **out);
/* Mixture: ds[i] with probability weights[i] (>= 0, summing to 1 within 1e-9). O(count * n). */
sol_status sol_dist_mixture(sol_ctx *ctx, size_t count, const sol_dist *const *ds,
                            const double *weights, sol_dist **out);
/* Geometric sums: star = X_1 + ... + X_N with P(N = k) = (1-q) q^k, k >= 0; plus the same with
 * P(N = k) = (1-q) q^(k-1), k >= 1. 0 <= q < 1. The series is summed by doubling and cut where
 * the remaining mass q^K falls below the context's tail mass (recorded in the context).
 * O(n log n log K), K = log(eps) / log(q). */
sol_status sol_dist_star(sol_ctx *ctx, const sol_dist *a, double q, sol_dist **out);
sol_status sol_dist_plus(sol_ctx *ctx, const sol_dist *a, double q, sol_dist **out);

/* Queries. Mean and variance are exact bookkeeping where the operation allows it (laws, sums,
 * mixtures, shifts, geometric sums), otherwise computed from the masses. O(1). */
double sol_dist_mean(const sol_dist *d);
double sol_dist_var(const sol_dist *d);
/* P(X <= t) and the smallest t with P(X <= t) >= u (u in [0, 1]). Parametric laws answer
 * exactly; points are step functions; a lattice is read as each mass spread uniformly over its
 * cell of width h (the continuous reading of the mean-exact discretisation), clamped to the
 * outermost lattice points. O(log n). */
double sol_dist_cdf(const sol_dist *d, double t);
double sol_dist_quantile(const sol_dist *d, double u);
/* Smallest and largest stored value (lattice point or atom). O(1). */
double sol_dist_min_value(const sol_dist *d);
double sol_dist_max_value(const sol_dist *d);

/* Stored masses, for output: value i and its probability, i < sol_dist_len. Lattice values are
 * (k0 + i) * h; points are sorted. O(1). */
int sol_dist_is_lattice(const sol_dist *d);
double sol_dist_step(const sol_dist *d); /* h, or 0 for points */
size_t sol_dist_len(const sol_dist *d);
double sol_dist_value(const sol_dist *d, size_t i);
double sol_dist_mass(const sol_dist *d, size_t i);
/* The parametric family ("erlang", ...) when built from a law and only shifted or scaled since,
 * else NULL. O(1). */
const char *sol_dist_law_name(const sol_dist *d);

/* Phase structure for Markov-chain solvers: 1 with *phases >= 1 and *rate (per phase) when d is
 * exactly an exponential or Erlang law (only scaled since, or a sum of Erlangs with one phase
 * mean, which keeps its law); 1 with *phases = 0 and *rate = 0 for the deterministic 0; else 0
 * and the outputs untouched. O(1). */
int sol_dist_erlang_params(const sol_dist *d, uint64_t *phases, double *rate);

/* One variate: exact with gsl_ran_* when the law is known, otherwise an atom of the stored
 * masses. O(log n). */
double sol_dist_sample(const sol_dist *d, gsl_rng *rng);

#endif
