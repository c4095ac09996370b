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

/* Each processor's load: the sum of the units it runs (NULL for an idle processor).
 * Identical units: the mapping's counts (dynamic self-scheduling balances them like BLOCK), one
 * m-fold sum per distinct count. Units whose runtime depends on i: each built (cached by its
 * parameters) and assigned - static: by the mapping; dynamic: to the processor whose expected
 * load is least, as self-scheduling does - then convolved per processor. */
static int loads(pdl_gen *g, const pdl_phase *ph, uint64_t n, uint64_t b, sol_dist **load)
{
    uint64_t p = pdl_gen_p(g);
    pdl_env env;
    pdl_gen_env(g, &env);
    if (!pdl_dist_uses(ph->runtime, PDL_V_I)) {
        sol_dist *x = NULL, *last = NULL;
        uint64_t *counts = malloc(p * sizeof *counts), lastc = 0;
        int rc = counts ? pdl_gen_dist(g, ph->runtime, &env, &x) : pdl_gen_nomem(g);
        if (rc == 0)
            pdl_gen_mapping_counts(ph->dynamic ? PDL_MAP_BLOCK : ph->mapping, b, n, p, counts);
        for (uint64_t k = 0; k < p && rc == 0; k++) {
            if (!counts[k])
                continue;
            if (!last || counts[k] != lastc) {
                if (last)
                    sol_dist_free(last);
                last = NULL;
                rc = pdl_gen_sum(g, x, counts[k], &last);
                lastc = counts[k];
            }
            if (rc == 0)
                load[k] = sol_dist_retain(last);
        }
        if (last)
            sol_dist_free(last);
        if (x)
            sol_dist_free(x);
        free(counts);
        return rc;
    }
    if (n > PDL_MAX_INDEXED_UNITS) {
        pdl_error(pdl_gen_diag(g), ph->units->loc,
                  "%llu units whose runtime depends on 'i' is more than the %u pdlc evaluates "
                  "one by one",
                  (unsigned long long)n, PDL_MAX_INDEXED_UNITS);
        pdl_note(pdl_gen_diag(g), ph->runtime->loc,
                 "a runtime that does not depend on 'i' has no such limit");
        return -1;
    }
    env.scope |= PDL_SCOPE_I;
    sol_dist **unit = calloc(n ? n : 1, sizeof *unit);
    double *mean = calloc(p, sizeof *mean);
    uint64_t workers = n < p ? n : p;
    heap h = {malloc((workers ? workers : 1) * sizeof *h.k), mean, workers};
    int rc = unit && mean && h.k ? 0 : pdl_gen_nomem(g);
    for (uint64_t k = 0; h.k && k < workers; k++)
        h.k[k] = k; /* all loads zero: already a heap */
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
            sol_dist *sum;
            if (sol_dist_series(pdl_gen_solver(g), load[k], unit[i], &sum) != SOL_OK) {
                rc = pdl_gen_solver_error(g, ph->runtime->loc);
                break;
            }
            sol_dist_free(load[k]);
            load[k] = sum;
        }
    }
    for (uint64_t i = 0; unit && i < n; i++)
        if (unit[i])
            sol_dist_free(unit[i]);
    free(unit);
    free(mean);
    free(h.k);
    return rc;
}

static void free_loads(sol_dist **load, uint64_t p)
{
    for (uint64_t k = 0; load && k < p; k++)
        if (load[k])
            sol_dist_free(load[k]);
    free(load);
}

static int sizes(pdl_gen *g, const pdl_phase *ph, uint64_t *n, uint64_t *b)
{
    pdl_env env;
    pdl_gen_env(g, &env);
    if (pdl_gen_count(g, ph->units, &env, "problem size", 0, PDL_MAX_COUNT, n) != 0 ||
        pdl_gen_block(g, ph, &env, b) != 0)
        return -1;
    return 0;
}

int pdl_gen_independent(pdl_gen *g, const pdl_phase *ph, pdl_shares *out)
{
    uint64_t p = pdl_gen_p(g), n, b;
    pdl_env env;
    pdl_gen_env(g, &env);
    if (sizes(g, ph, &n, &b) != 0 || pdl_shares_init(g, out, p) != 0)
        return -1;
    sol_dist **load = calloc(p, sizeof *load), *zero = NULL;
    uint32_t *key = malloc(p * sizeof *key);
    int rc = load && key ? loads(g, ph, n, b, load) : pdl_gen_nomem(g);
    if (rc == 0)
        rc = pdl_gen_point(g, 0, ph->loc, &zero);
    /* Processors whose load is the same distribution object (equal counts of identical units)
       form one group: a hash of the objects, so grouping is O(p). */
    size_t cap = 16;
    while (cap < 2 * p)
        cap *= 2;
    const sol_dist **seen = rc == 0 ? calloc(cap, sizeof *seen) : NULL;
    uint32_t *first = rc == 0 ? malloc(cap * sizeof *first) : NULL;
    if (rc == 0 && (!seen || !first))
        rc = pdl_gen_nomem(g);
    for (uint64_t k = 0; k < p && rc == 0; k++) {
        if (!load[k])
            load[k] = sol_dist_retain(zero);
        size_t h = ((uintptr_t)load[k] >> 4) * 0x9E3779B97F4A7C15u & (cap - 1);
        while (seen[h] && seen[h] != load[k])
            h = (h + 1) & (cap - 1);
        if (!seen[h]) {
            seen[h] = load[k];
            first[h] = (uint32_t)k;
        }
        key[k] = first[h]; /* the key is the first processor with this load */
    }
    free(seen);
    free(first);
    if (rc == 0)
        rc = pdl_shares_group(g, out, key, load, p);
    if (zero)
        sol_dist_free(zero);
    free_loads(load, p);
    free(key);
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

/* Generic model: each processor runs its units as one chain (exact collapse: nothing else
 * depends on the units inside), after its part of the scatter from processor 0 arrives. */
int pdl_graph_independent(pdl_gen *g, const pdl_phase *ph, pdl_segment *s, int join)
{
    uint64_t p = pdl_gen_p(g), n, b;
    pdl_env env;
    pdl_gen_env(g, &env);
    if (sizes(g, ph, &n, &b) != 0)
        return -1;
    uint64_t active = n < p ? n : p;
    sol_dist **load = calloc(p, sizeof *load);
    uint32_t *exit = malloc(p * sizeof *exit);
    double *arrive = calloc(active + 1, sizeof *arrive), bytes = 0;
    int rc = load && exit && arrive ? loads(g, ph, n, b, load) : pdl_gen_nomem(g);
    if (rc == 0 && ph->volume) {
        rc = pdl_gen_eval(g, ph->volume, &env, &bytes);
        if (rc == 0 && active > 1)
            rc = pdl_gen_scatter_arrivals(g, bytes, active - 1, ph->volume->loc, arrive);
    }
    uint32_t tag = PDL_TAG(PDL_NODE_WORK, ph->index);
    for (uint64_t k = 0; k < p && rc == 0; k++) {
        exit[k] = PDL_NONE;
        if (!load[k])
            continue;
        uint32_t work;
        rc = pdl_seg_node_on(g, s, load[k], tag, k, PDL_NONE, &work);
        if (rc == 0)
            rc = pdl_seg_join(g, s, join, k, work, ph);
        if (rc == 0 && k > 0 && k < active && arrive[k] > 0) {
            /* The part sent to k leaves when processor 0 starts the phase. */
            sol_dist *t;
            uint32_t msg;
            rc = pdl_gen_point(g, arrive[k], ph->volume->loc, &t);
            if (rc == 0) {
                rc = pdl_seg_node(g, s, t, PDL_TAG(PDL_NODE_COMM, ph->index), &msg);
                sol_dist_free(t);
            }
            if (rc == 0)
                rc = pdl_seg_join(g, s, join, 0, msg, ph);
            if (rc == 0)
                rc = pdl_seg_arc(g, s, msg, work);
        }
        exit[k] = work;
    }
    if (rc == 0)
        rc = pdl_seg_set_exits(g, s, exit, PDL_NONE, ph);
    free_loads(load, p);
    free(exit);
    free(arrive);
    return rc;
}
