/* Convolution kernels on raw mass arrays: direct (exact, nonnegative) and GSL radix-2 FFT
 * (O(L log L), absolute error ~ machine epsilon, clamped and renormalised), and the measured
 * crossover between them. Used by sol_dist and timed by tests/bench/bench_conv. */
#ifndef SOL_CONV_H
#define SOL_CONV_H

#include <stddef.h>

#include "sol_ctx.h"

/* Square length n at or above which FFT beats direct convolution on the reference machine;
 * the measured numbers are next to its use in sol_conv.c. */
#define SOL_CONV_CROSSOVER ((size_t)256)

/* out[0 .. na+nb-2] = a * b. The caller owns all arrays; out must not alias a or b.
 * Cost O(na * nb). */
void sol_conv_direct(const double *a, size_t na, const double *b, size_t nb, double *out);

/* The same by FFT on length L = the power of two >= na+nb-1; negative round-off is clamped to 0
 * and the result rescaled so its sum is sum(a) * sum(b). a may equal b (one transform saved).
 * SOL_ENOMEM when scratch cannot be allocated, SOL_ENUMERIC if GSL fails. Cost O(L log L) time,
 * O(L) scratch. */
sol_status sol_conv_fft(sol_ctx *ctx, const double *a, size_t na, const double *b, size_t nb,
                        double *out);

/* Nonzero when the FFT is expected to be faster for these lengths (cost model calibrated by the
 * benchmark). O(1). */
int sol_conv_prefers_fft(size_t na, size_t nb);

/* Direct or FFT, whichever sol_conv_prefers_fft picks; counted in the context. */
sol_status sol_conv(sol_ctx *ctx, const double *a, size_t na, const double *b, size_t nb,
                    double *out);

#endif
