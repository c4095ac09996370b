/* Monte Carlo of the makespan in fixed blocks of samples: each block has its own generator
 * seeded from (seed, block index) and its own mean and sum of squared deviations, merged in
 * block order (Chan et al.), so threads change the speed and never the bits. */
#include "sol_sim.h"

#include <math.h>
#include <stdlib.h>

#include <gsl/gsl_rng.h>

#ifdef _OPENMP
#include <omp.h>
/* the pragma only where OpenMP is on, so builds without it stay free of unknown-pragma warnings */
#define SIM_PARALLEL_FOR _Pragma("omp parallel for schedule(dynamic) num_threads(nthreads)")
#else
#define SIM_PARALLEL_FOR
#endif

#include "sol_dag.h"
#include "sol_dist.h"

/* splitmix64: decorrelates the seeds of consecutive blocks. */
static uint64_t mix64(uint64_t x)
{
    x += 0x9e3779b97f4a7c15u;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9u;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebu;
    return x ^ (x >> 31);
}

typedef struct block_stat {
    double mean, m2;
    uint64_t n;
} block_stat;

/* One block: count samples with generator r (seeded here), fin a scratch array of d->n. */
static void run_block(const sol_dag *d, uint64_t seed, uint64_t b, uint64_t count, gsl_rng *r,
                      double *fin, block_stat *out)
{
    gsl_rng_set(r, (unsigned long)(mix64(seed ^ mix64(b)) & 0xffffffffu));
    double mean = 0.0, m2 = 0.0;
    for (uint64_t s = 0; s < count; s++) {
        double T = 0.0;
        for (size_t k = 0; k < d->n; k++) {
            uint32_t v = d->order[k];
            double start = 0.0;
            for (size_t i = d->poff[v]; i < d->poff[v + 1]; i++)
                start = fin[d->pred[i]] > start ? fin[d->pred[i]] : start;
            fin[v] = start + sol_dist_sample(d->dist[v], r);
            T = fin[v] > T ? fin[v] : T;
        }
        /* Welford within the block */
        double delta = T - mean;
        mean += delta / (double)(s + 1);
        m2 += delta * (T - mean);
    }
    out->mean = mean;
    out->m2 = m2;
    out->n = count;
}

sol_status sol_sim_run(sol_ctx *ctx, const sol_graph *g, uint64_t samples, uint64_t seed,
                       int threads, sol_sim_progress progress, void *progress_arg,
                       sol_sim_result *out)
{
    out->mean = out->ci95 = out->sd = NAN;
    out->samples = 0;
    if (samples < 2 || samples > SOL_SIM_SAMPLES_MAX)
        return sol_ctx_fail(ctx, SOL_EINVAL, "simulation: %llu samples (need 2..2^40)",
                            (unsigned long long)samples);
    if (threads < 0)
        return sol_ctx_fail(ctx, SOL_EINVAL, "simulation: %d threads", threads);
    sol_dag d;
    sol_status st = sol_dag_build(ctx, g, &d);
    if (st != SOL_OK)
        return st;
    uint64_t nblocks = (samples + SOL_SIM_BLOCK - 1) / SOL_SIM_BLOCK;
    int nthreads = 1;
#ifdef _OPENMP
    nthreads = threads > 0 ? threads : omp_get_max_threads();
#endif
    /* a round is a few blocks per thread: progress is reported between rounds */
    uint64_t round = (uint64_t)nthreads * 4;
    if (round < nblocks / 100)
        round = nblocks / 100;
    block_stat *bs = malloc(round * sizeof *bs);
    gsl_rng **rng = calloc((size_t)nthreads, sizeof *rng);
    double *fin = malloc((size_t)nthreads * (d.n ? d.n : 1) * sizeof *fin);
    if (bs == NULL || rng == NULL || fin == NULL)
        st = sol_ctx_fail(ctx, SOL_ENOMEM, "out of memory for a simulation");
    for (int t = 0; st == SOL_OK && t < nthreads; t++)
        if ((rng[t] = gsl_rng_alloc(gsl_rng_mt19937)) == NULL)
            st = sol_ctx_fail(ctx, SOL_ENOMEM, "out of memory for a random number generator");
    double mean = 0.0, m2 = 0.0;
    uint64_t n = 0;
    for (uint64_t b0 = 0; st == SOL_OK && b0 < nblocks; b0 += round) {
        uint64_t nb = nblocks - b0 < round ? nblocks - b0 : round;
        long long nbl = (long long)nb;
        SIM_PARALLEL_FOR
        for (long long j = 0; j < nbl; j++) {
            int t = 0;
#ifdef _OPENMP
            t = omp_get_thread_num();
#endif
            uint64_t b = b0 + (uint64_t)j;
            uint64_t count =
                b + 1 < nblocks ? SOL_SIM_BLOCK : samples - (nblocks - 1) * SOL_SIM_BLOCK;
            run_block(&d, seed, b, count, rng[t], fin + (size_t)t * d.n, &bs[j]);
        }
        /* Chan et al.'s pairwise update, in block order */
        for (uint64_t j = 0; j < nb; j++) {
            double nn = (double)(n + bs[j].n), delta = bs[j].mean - mean;
            mean += delta * (double)bs[j].n / nn;
            m2 += bs[j].m2 + delta * delta * (double)n * (double)bs[j].n / nn;
            n += bs[j].n;
        }
        if (progress != NULL)
            progress(progress_arg, n, samples);
    }
    if (st == SOL_OK) {
        out->mean = mean;
        out->sd = sqrt(m2 / (double)(n - 1));
        out->ci95 = 1.959963984540054 * out->sd / sqrt((double)n);
        out->samples = n;
        if (!isfinite(out->mean) || !isfinite(out->sd))
            st = sol_ctx_fail(ctx, SOL_ENUMERIC, "simulation: the makespan is not finite");
    }
    for (int t = 0; rng != NULL && t < nthreads; t++)
        gsl_rng_free(rng[t]);
    free(rng);
    free(fin);
    free(bs);
    sol_dag_free(&d);
    return st;
}
