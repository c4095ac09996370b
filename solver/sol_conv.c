/* Convolution kernels: direct for short arrays, GSL radix-2 real FFT above the crossover.
 * The FFT's error is absolute, so its tails are clamped at zero and the total mass restored. */
#include "sol_conv.h"

#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_errno.h>
#include <gsl/gsl_fft_halfcomplex.h>
#include <gsl/gsl_fft_real.h>

void sol_conv_direct(const double *a, size_t na, const double *b, size_t nb, double *out)
{
    memset(out, 0, (na + nb - 1) * sizeof *out);
    /* Row by row so the inner loop is a vectorisable axpy. */
    for (size_t i = 0; i < na; i++) {
        double ai = a[i];
        if (ai == 0.0)
            continue;
        double *o = out + i;
        for (size_t j = 0; j < nb; j++)
            o[j] += ai * b[j];
    }
}

static size_t pow2_at_least(size_t n)
{
    size_t L = 1;
    while (L < n)
        L <<= 1;
    return L;
}

/* Multiplies halfcomplex radix-2 spectra x *= y (length L). */
static void hc_multiply(double *x, const double *y, size_t L)
{
    x[0] *= y[0];
    x[L / 2] *= y[L / 2];
    for (size_t k = 1; k < L / 2; k++) {
        double xr = x[k], xi = x[L - k], yr = y[k], yi = y[L - k];
        x[k] = xr * yr - xi * yi;
        x[L - k] = xr * yi + xi * yr;
    }
}

static double sum(const double *a, size_t n)
{
    double s = 0.0;
    for (size_t i = 0; i < n; i++)
        s += a[i];
    return s;
}

sol_status sol_conv_fft(sol_ctx *ctx, const double *a, size_t na, const double *b, size_t nb,
                        double *out)
{
    size_t nout = na + nb - 1;
    size_t L = pow2_at_least(nout);
    if (L < 2)
        L = 2;
    int self = (a == b && na == nb);
    double *x = calloc(self ? L : 2 * L, sizeof *x);
    if (x == NULL)
        return sol_ctx_fail(ctx, SOL_ENOMEM, "out of memory for an FFT of length %zu", L);
    double *y = self ? x : x + L;
    memcpy(x, a, na * sizeof *x);
    int rc = gsl_fft_real_radix2_transform(x, 1, L);
    if (!self) {
        memcpy(y, b, nb * sizeof *y);
        rc = rc ? rc : gsl_fft_real_radix2_transform(y, 1, L);
    }
    if (rc == GSL_SUCCESS) {
        hc_multiply(x, y, L);
        rc = gsl_fft_halfcomplex_radix2_inverse(x, 1, L);
    }
    if (rc != GSL_SUCCESS) {
        free(x);
        return sol_ctx_fail(ctx, SOL_ENUMERIC, "GSL FFT of length %zu failed: %s", L,
                            gsl_strerror(rc));
    }
    double total = 0.0;
    for (size_t i = 0; i < nout; i++) {
        out[i] = x[i] > 0.0 ? x[i] : 0.0;
        total += out[i];
    }
    free(x);
    double want = sum(a, na) * sum(b, nb);
    if (total > 0.0 && want > 0.0) {
        double f = want / total;
        for (size_t i = 0; i < nout; i++)
            out[i] *= f;
    }
    return SOL_OK;
}

/* Cost model: direct costs ~ na*nb multiply-adds, the FFT ~ C * L log2 L with L >= na+nb-1.
 * C is set so the square crossover matches SOL_CONV_CROSSOVER measured by bench_conv (numbers
 * in sol_conv.h); a kernel shorter than 32 always goes direct (cost linear in the long side). */
int sol_conv_prefers_fft(size_t na, size_t nb)
{
    size_t small = na < nb ? na : nb;
    if (small < 32)
        return 0;
    size_t L = pow2_at_least(na + nb - 1), lg = 0;
    while (((size_t)1 << lg) < L)
        lg++;
    size_t Lc = pow2_at_least(2 * SOL_CONV_CROSSOVER - 1), lgc = 0;
    while (((size_t)1 << lgc) < Lc)
        lgc++;
    /* direct/fft cost ratio against the same ratio at the crossover */
    double c = (double)SOL_CONV_CROSSOVER * (double)SOL_CONV_CROSSOVER / ((double)Lc * lgc);
    return (double)na * (double)nb > c * (double)L * (double)lg;
}

sol_status sol_conv(sol_ctx *ctx, const double *a, size_t na, const double *b, size_t nb,
                    double *out)
{
    int fft = sol_conv_prefers_fft(na, nb);
    sol_ctx_count_conv(ctx, fft);
    if (!fft) {
        sol_conv_direct(a, na, b, nb, out);
        return SOL_OK;
    }
    return sol_conv_fft(ctx, a, na, b, nb, out);
}
