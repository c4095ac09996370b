/* Convolution kernels on raw mass arrays: direct (exact, nonnegative) and GSL radix-2 FFT
 * (O(L log L), absolute error ~ machine epsilon, clamped and renormalised), and the measured
 * crossover between them. Used by sol_dist and timed by tests/bench/bench_conv. */
#ifndef SOL_CONV_H
#define SOL_CONV_H

#include <stddef.h>

#include "sol_ctx.h"

/* Square length n at which FFT starts to beat direct convolution. Measured by bench_conv
 * (RelWithDebInfo, -O2, one core of a 2-core Xeon VM, GSL 2.7.1), seconds per convolution:
 *        n   direct     FFT          n   direct     FFT
 *       64   2.19e-06   2.68e-06    4096   9.01e-03   4.88e-04
 *      128   9.41e-06   5.33e-06   16384   1.40e-01   2.62e-03
 *      256   3.63e-05   1.56e-05   65536   2.31e+00   1.32e-02
 * Direct wins at 64, FFT at 128; 96 is between them. */
#define SOL_CONV_CROSSOVER ((size_t)96)

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
