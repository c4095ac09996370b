/* sol_conv: direct and FFT convolution agree, keep the total mass and the mean, never go
 * negative; the crossover decision is monotone. */
#include <math.h>
#include <stdlib.h>

#include <gsl/gsl_rng.h>

#include "sol_conv.h"
#include "test_util.h"

static double *random_masses(gsl_rng *r, size_t n)
{
    double *a = malloc(n * sizeof *a), s = 0.0;
    CU_ASSERT_FATAL(a != NULL);
    for (size_t i = 0; i < n; i++)
        s += a[i] = gsl_rng_uniform(r) * exp(-20.0 * (double)i / (double)n);
    for (size_t i = 0; i < n; i++)
        a[i] /= s;
    return a;
}

static double mean(const double *a, size_t n)
{
    double m = 0.0;
    for (size_t i = 0; i < n; i++)
        m += (double)i * a[i];
    return m;
}

/* conv-1: FFT equals direct to 1e-15 absolute; mass 1 and mean additive. */
static void test_agree(void)
{
    sol_ctx *ctx = sol_ctx_alloc();
    gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
    const size_t sizes[][2] = {{1, 1}, {1, 100}, {7, 300}, {256, 256}, {1000, 3000}};
    for (size_t t = 0; t < 5; t++) {
        size_t na = sizes[t][0], nb = sizes[t][1], n = na + nb - 1;
        double *a = random_masses(r, na), *b = random_masses(r, nb);
        double *d = malloc(n * sizeof *d), *f = malloc(n * sizeof *f);
        sol_conv_direct(a, na, b, nb, d);
        TU_OK(sol_conv_fft(ctx, a, na, b, nb, f));
        double worst = 0.0, tot = 0.0;
        for (size_t i = 0; i < n; i++) {
            worst = fmax(worst, fabs(d[i] - f[i]));
            CU_ASSERT(f[i] >= 0.0);
            tot += f[i];
        }
        CU_ASSERT(worst < 1e-15);
        TU_REL(tot, 1.0, 1e-14, "total mass of a convolution");
        TU_REL(mean(f, n), mean(a, na) + mean(b, nb), 1e-12, "means add");
        TU_REL(mean(d, n), mean(a, na) + mean(b, nb), 1e-12, "means add");
        free(a);
        free(b);
        free(d);
        free(f);
    }
    /* self-convolution through the one-transform path */
    double *a = random_masses(r, 500), *d = malloc(999 * sizeof *d), *f = malloc(999 * sizeof *f);
    sol_conv_direct(a, 500, a, 500, d);
    TU_OK(sol_conv_fft(ctx, a, 500, a, 500, f));
    double worst = 0.0;
    for (size_t i = 0; i < 999; i++)
        worst = fmax(worst, fabs(d[i] - f[i]));
    CU_ASSERT(worst < 1e-15);
    TU_OK(sol_conv(ctx, a, 500, a, 500, f));
    sol_counters c = sol_ctx_counters(ctx);
    CU_ASSERT_EQUAL(c.conv_direct + c.conv_fft, 1);
    free(a);
    free(d);
    free(f);
    gsl_rng_free(r);
    sol_ctx_free(ctx);
}

/* conv-2: the cost model: direct for short kernels and below the crossover, FFT above. */
static void test_crossover(void)
{
    CU_ASSERT(!sol_conv_prefers_fft(8, 65536));
    CU_ASSERT(!sol_conv_prefers_fft(SOL_CONV_CROSSOVER / 2, SOL_CONV_CROSSOVER / 2));
    CU_ASSERT(sol_conv_prefers_fft(4 * SOL_CONV_CROSSOVER, 4 * SOL_CONV_CROSSOVER));
    int prev = 0;
    for (size_t n = 16; n <= 65536; n *= 2) {
        int now = sol_conv_prefers_fft(n, n);
        CU_ASSERT(now >= prev);
        prev = now;
    }
}

static const tu_case cases[] = {{"conv-1 direct and FFT agree", test_agree},
                                {"conv-2 crossover", test_crossover},
                                {NULL, NULL}};

int main(void)
{
    return tu_run("solver.conv", cases);
}
