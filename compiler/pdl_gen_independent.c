/* pdl_gen_independent: the scaled model of an INDEPENDENT phase (paper Figure 2; models.md):
 * processor k runs its units one after another, then the machine's contention node. Identical
 * units need two m-fold sums per p; units that depend on i are evaluated one by one. */
#include "pdl_gen.h"

#include <stdlib.h>
#include <string.h>

/* Processor of unit i under a static mapping of n units onto p processors. */
static uint64_t owner(pdl_mapping m, uint64_t b, uint64_t n, uint64_t p, uint64_t i)
{
    if (m == PDL_MAP_CYCLIC)
        return i % p;
    if (m == PDL_MAP_BLOCK_CYCLIC)
        return (i / (b ? b : 1)) % p;
    uint64_t q = n / p, r = n % p;
    return i < r * (q + 1) ? i / (q + 1) : r + (i - r * (q + 1)) / (q ? q : 1);
}

/* A min-heap of processors by (expected load, index): self-scheduling hands the next unit to the
 * processor that is free first. */
typedef struct heap {
    uint64_t *k;
    double *load;
    uint64_t n;
} heap;

static int before(const heap *h, uint64_t a, uint64_t b)
{
    return h->load[a] < h->load[b] || (h->load[a] == h->load[b] && a < b);
}

static void sift_down(heap *h, uint64_t i)
{
    for (;;) {
        uint64_t l = 2 * i + 1, r = l + 1, m = i;
        if (l < h->n && before(h, h->k[l], h->k[m]))
            m = l;
        if (r < h->n && before(h, h->k[r], h->k[m]))
            m = r;
        if (m == i)
            return;
        uint64_t t = h->k[i];
        h->k[i] = h->k[m];
        h->k[m] = t;
        i = m;
    }
}

/* Non-identical units: every unit's runtime is built (cached by its parameters), assigned to a
 * processor (static: by the mapping; dynamic: the next unit goes to the processor whose expected
 * load is least, as self-scheduling does), and each processor's units are convolved. */
static int indexed_shares(pdl_gen *g, const pdl_phase *ph, uint64_t n, uint64_t b, pdl_shares *out)
{
    uint64_t p = pdl_gen_p(g);
    if (n > PDL_MAX_INDEXED_UNITS) {
        pdl_error(pdl_gen_diag(g), ph->units->loc,
                  "%llu units whose runtime depends on 'i' is more than the %u pdlc evaluates "
                  "one by one",
                  (unsigned long long)n, PDL_MAX_INDEXED_UNITS);
        pdl_note(pdl_gen_diag(g), ph->runtime->loc,
                 "a runtime that does not depend on 'i' has no such limit");
        return -1;
    }
    pdl_env env;
    pdl_gen_env(g, &env);
    env.scope |= PDL_SCOPE_I;
    sol_dist **unit = calloc(n ? n : 1, sizeof *unit);
    sol_dist **load = calloc(p, sizeof *load);
    double *mean = calloc(p, sizeof *mean);
    uint32_t *key = malloc(p * sizeof *key);
    uint64_t workers = n < p ? n : p;
    heap h = {malloc((workers ? workers : 1) * sizeof *h.k), mean, workers};
    int rc = unit && load && mean && key && h.k ? 0 : -1;
    for (uint64_t k = 0; h.k && k < workers; k++)
        h.k[k] = k; /* all loads zero: already a heap */
    if (rc != 0)
        pdl_error(pdl_gen_diag(g), ph->loc, "out of memory building the model");
    for (uint64_t i = 0; i < n && rc == 0; i++) {
        env.i = (double)i;
        rc = pdl_gen_dist(g, ph->runtime, &env, &unit[i]);
    }
    for (uint64_t i = 0; i < n && rc == 0; i++) {
        uint64_t k;
        if (ph->dynamic) {
            k = h.k[0];
            mean[k] += sol_dist_mean(unit[i]);
            sift_down(&h, 0);
        } else {
            k = owner(ph->mapping, b, n, p, i);
        }
        if (!load[k]) {
            load[k] = sol_dist_retain(unit[i]);
        } else {
            sol_dist *s;
            if (sol_dist_series(pdl_gen_solver(g), load[k], unit[i], &s) != SOL_OK) {
                rc = pdl_gen_solver_error(g, ph->runtime->loc);
                break;
            }
            sol_dist_free(load[k]);
            load[k] = s;
        }
    }
    sol_dist *zero = NULL;
    if (rc == 0)
        rc = pdl_gen_point(g, 0, ph->loc, &zero);
    for (uint64_t k = 0; k < p && rc == 0; k++) {
        key[k] = (uint32_t)k;
        if (!load[k])
            load[k] = sol_dist_retain(zero);
    }
    if (rc == 0)
        rc = pdl_shares_group(g, out, key, load, p);
    if (zero)
        sol_dist_free(zero);
    for (uint64_t i = 0; unit && i < n; i++)
        if (unit[i])
            sol_dist_free(unit[i]);
    for (uint64_t k = 0; load && k < p; k++)
        if (load[k])
            sol_dist_free(load[k]);
    free(unit);
    free(load);
    free(mean);
    free(key);
    free(h.k);
    return rc;
}

int pdl_gen_independent(pdl_gen *g, const pdl_phase *ph, pdl_shares *out)
{
    uint64_t p = pdl_gen_p(g), n, b = 1;
    pdl_env env;
    pdl_gen_env(g, &env);
    if (pdl_gen_count(g, ph->units, &env, "problem size", 0, PDL_MAX_COUNT, &n) != 0)
        return -1;
    if (ph->block &&
        pdl_gen_count(g, ph->block, &env, "BLOCK CYCLIC block size", 1, PDL_MAX_COUNT, &b) != 0)
        return -1;
    if (pdl_shares_init(g, out, p) != 0)
        return -1;
    int rc;
    if (pdl_dist_uses(ph->runtime, PDL_V_I)) {
        rc = indexed_shares(g, ph, n, b, out);
    } else {
        sol_dist *x = NULL;
        uint64_t *counts = malloc(p * sizeof *counts);
        rc = counts ? pdl_gen_dist(g, ph->runtime, &env, &x) : -1;
        if (rc == 0) {
            /* Identical units: dynamic self-scheduling balances them like BLOCK. */
            pdl_gen_mapping_counts(ph->dynamic ? PDL_MAP_BLOCK : ph->mapping, b, n, p, counts);
            rc = pdl_gen_load_shares(g, x, counts, NULL, ph->runtime->loc, out);
        }
        if (x)
            sol_dist_free(x);
        free(counts);
    }
    /* The scatter of the shares from processor 0 comes first; a delay every processor waits
       for is shared, so it goes to the tail (max_k(c + U_k) = c + max_k U_k). */
    if (rc == 0 && ph->volume) {
        double bytes, t;
        uint64_t active = n < p ? n : p;
        rc = pdl_gen_eval(g, ph->volume, &env, &bytes);
        if (rc == 0)
            rc = pdl_gen_scatter(g, bytes, active ? active - 1 : 0, ph->volume->loc, &t);
        if (rc == 0 && t > 0) {
            sol_dist *c;
            rc = pdl_gen_point(g, t, ph->volume->loc, &c);
            if (rc == 0) {
                rc = pdl_shares_add_tail(g, out, c);
                sol_dist_free(c);
            }
        }
    }
    if (rc != 0)
        pdl_shares_free(out);
    return rc;
}
