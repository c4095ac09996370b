/* Benchmark of the solver's kernels: direct and FFT convolution of two length-n mass arrays and
 * a k-fold max on a length-n lattice, for n = 256 .. 65536; prints times and the square-length
 * crossover it finds. Numbers, not assertions: SOL_CONV_CROSSOVER is set from its output. */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include <gsl/gsl_rng.h>

#include "sol_conv.h"
#include "sol_dist.h"

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* Seconds per call of f, repeated until at least 0.2 s have passed (at most 10000 calls). */
#define TIME_IT(result, stmt)                                                                      \
    do {                                                                                           \
        int reps_ = 0;                                                                             \
        double t0_ = now(), t_;                                                                    \
        do {                                                                                       \
            stmt;                                                                                  \
            reps_++;                                                                               \
            t_ = now() - t0_;                                                                      \
        } while (t_ < 0.2 && reps_ < 10000);                                                       \
        (result) = t_ / reps_;                                                                     \
    } while (0)

int main(int argc, char **argv)
{
    size_t max_n = argc > 1 ? (size_t)strtoul(argv[1], NULL, 10) : 65536;
    sol_ctx *ctx = sol_ctx_alloc();
    gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
    if (ctx == NULL || r == NULL)
        return 1;
    printf("%8s %14s %14s %14s %10s\n", "n", "direct_s", "fft_s", "max8_s", "faster");
    size_t crossover = 0;
    for (size_t n = 256; n <= max_n; n *= 2) {
        double *a = malloc(n * sizeof *a), *b = malloc(n * sizeof *b);
        double *out = malloc(2 * n * sizeof *out);
        if (a == NULL || b == NULL || out == NULL)
            return 1;
        for (size_t i = 0; i < n; i++) {
            a[i] = gsl_rng_uniform(r);
            b[i] = gsl_rng_uniform(r);
        }
        double td, tf, tm;
        TIME_IT(td, sol_conv_direct(a, n, b, n, out));
        TIME_IT(tf, sol_conv_fft(ctx, a, n, b, n, out));
        /* k-fold max on a lattice of about n points */
        sol_dist *x = NULL, *m = NULL;
        if (sol_ctx_set_max_len(ctx, n) != SOL_OK || sol_dist_exponential(ctx, 1.0, &x) != SOL_OK)
            return 1;
        TIME_IT(tm, sol_dist_max_n(ctx, x, 8, &m); sol_dist_free(m));
        sol_dist_free(x);
        if (crossover == 0 && tf < td)
            crossover = n;
        printf("%8zu %14.6e %14.6e %14.6e %10s\n", n, td, tf, tm, tf < td ? "fft" : "direct");
        fflush(stdout);
        free(a);
        free(b);
        free(out);
    }
    /* below 256 the search continues downwards so the crossover is exact to a power of two */
    if (crossover == 256) {
        for (size_t n = 128; n >= 16; n /= 2) {
            double a[128], b[128], out[256], td, tf;
            for (size_t i = 0; i < n; i++)
                a[i] = b[i] = gsl_rng_uniform(r);
            TIME_IT(td, sol_conv_direct(a, n, b, n, out));
            TIME_IT(tf, sol_conv_fft(ctx, a, n, b, n, out));
            printf("%8zu %14.6e %14.6e %14s %10s\n", n, td, tf, "-", tf < td ? "fft" : "direct");
            if (tf >= td)
                break;
            crossover = n;
        }
    }
    printf("crossover (square lengths): FFT faster from n = %zu (compiled-in SOL_CONV_CROSSOVER "
           "= %zu)\n",
           crossover, (size_t)SOL_CONV_CROSSOVER);
    gsl_rng_free(r);
    sol_ctx_free(ctx);
    return 0;
}
