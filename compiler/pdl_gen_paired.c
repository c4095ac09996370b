/* pdl_gen_paired: the scaled model of a PAIRED phase (paper Figure 7): the independent parts of
 * all iterations as an INDEPENDENT model (iterations dealt out cyclically), a barrier, then the
 * dependent parts - independent chains when that is exact, otherwise levels of d_min
 * consecutive iterations separated by barriers (an upper bound). */
#include "pdl_gen.h"

#include <stdlib.h>

/* The time of a message that carries a dependency over distance d with iterations dealt out
 * cyclically: the slowest of the processor pairs (k - d mod p, k). 0 when d lands on the same
 * processor. */
static int dependency_message(pdl_gen *g, double bytes, uint64_t d, pdl_loc at, double *t)
{
    uint64_t p = pdl_gen_p(g), shift = d % p;
    *t = 0;
    if (bytes <= 0 || shift == 0)
        return 0;
    for (uint64_t k = 0; k < p; k++) {
        double m;
        if (pdl_gen_message(g, bytes, (k + p - shift) % p, k, at, &m) != 0)
            return -1;
        *t = m > *t ? m : *t;
        if (pdl_gen_machine(g)->topology == PDL_TOPO_FULL || pdl_gen_machine(g)->shared_memory)
            break; /* every pair costs the same */
    }
    return 0;
}

/* `iters` consecutive iterations run by the processors they are dealt to, each after a message
 * delay c: max over processors of the sum of their dependent parts. */
static int level(pdl_gen *g, const sol_dist *dep, uint64_t iters, double c, pdl_loc at,
                 sol_dist **out)
{
    uint64_t p = pdl_gen_p(g);
    uint64_t *counts = malloc(p * sizeof *counts);
    if (!counts)
        return pdl_gen_nomem(g);
    pdl_gen_mapping_counts(PDL_MAP_CYCLIC, 1, iters, p, counts);
    pdl_shares sh;
    int rc = pdl_shares_init(g, &sh, p);
    if (rc == 0) {
        rc = pdl_gen_load_shares(g, dep, counts, NULL, at, &sh);
        sol_dist *w = NULL;
        if (rc == 0)
            rc = pdl_shares_finish(g, &sh, &w);
        if (rc == 0 && c > 0) {
            if (sol_dist_shift(pdl_gen_solver(g), w, c, out) != SOL_OK)
                rc = pdl_gen_solver_error(g, at);
        } else if (rc == 0) {
            *out = sol_dist_retain(w);
        }
        if (w)
            sol_dist_free(w);
        pdl_shares_free(&sh);
    }
    free(counts);
    return rc;
}

/* The dependent parts of n iterations with distances ds (dmin the smallest). */
static int dependent_parts(pdl_gen *g, const pdl_phase *ph, const sol_dist *dep, uint64_t n,
                           const uint64_t *ds, size_t nd, double bytes, sol_dist **out)
{
    uint64_t p = pdl_gen_p(g), dmin = ds[0];
    int multiples = 1;
    for (size_t k = 0; k < nd; k++) {
        dmin = ds[k] < dmin ? ds[k] : dmin;
    }
    for (size_t k = 0; k < nd; k++)
        multiples &= ds[k] % dmin == 0;
    pdl_loc at = ph->dep_runtime->loc;
    double cmax = 0, cmin = 0;
    for (size_t k = 0; k < nd; k++) {
        double c;
        if (dependency_message(g, bytes, ds[k], at, &c) != 0)
            return -1;
        cmax = c > cmax ? c : cmax;
        if (ds[k] == dmin)
            cmin = c;
    }
    if (n == 0)
        return pdl_gen_point(g, 0, at, out);
    if (multiples && p % dmin == 0) {
        /* Chains i = c, c + dmin, ...: each a sequence (every distance is a multiple of dmin),
           independent of the others; and with dmin dividing p a processor only ever runs one
           chain's iterations, so its order is implied: exact. Each link crossing processors
           pays the message of distance dmin. */
        uint64_t chains = n < dmin ? n : dmin, len = n / dmin, longer = n % dmin;
        sol_dist *acc = NULL;
        for (int extra = 1; extra >= 0; extra--) {
            uint64_t L = len + (uint64_t)extra, cnt = extra ? longer : chains - longer;
            if (!cnt || !L)
                continue;
            sol_dist *s, *sh, *m;
            if (pdl_gen_sum(g, dep, L, &s) != 0)
                return -1;
            sol_status st = sol_dist_shift(pdl_gen_solver(g), s, (double)(L - 1) * cmin, &sh);
            sol_dist_free(s);
            if (st != SOL_OK || sol_dist_max_n(pdl_gen_solver(g), sh, cnt, &m) != SOL_OK) {
                if (st == SOL_OK)
                    sol_dist_free(sh);
                if (acc)
                    sol_dist_free(acc);
                return pdl_gen_solver_error(g, at);
            }
            sol_dist_free(sh);
            if (acc) {
                sol_dist *mx;
                st = sol_dist_max(pdl_gen_solver(g), acc, m, &mx);
                sol_dist_free(acc);
                sol_dist_free(m);
                if (st != SOL_OK)
                    return pdl_gen_solver_error(g, at);
                acc = mx;
            } else {
                acc = m;
            }
        }
        *out = acc;
        return 0;
    }
    /* Levels of dmin consecutive iterations: no dependency inside a level (every distance is at
       least dmin), so with a barrier between levels each level is independent work, dealt out
       cyclically; the first level needs no message. */
    uint64_t full = n / dmin, rest = n % dmin;
    sol_dist *first = NULL, *later = NULL, *tail = NULL, *total = NULL;
    int rc = level(g, dep, full ? dmin : rest, 0, at, &first);
    if (rc == 0 && full > 1) {
        sol_dist *one;
        rc = level(g, dep, dmin, cmax, at, &one);
        if (rc == 0) {
            rc = pdl_gen_sum_linear(g, one, full - 1, &later); /* levels are only added up */
            sol_dist_free(one);
        }
    }
    if (rc == 0 && full && rest)
        rc = level(g, dep, rest, cmax, at, &tail);
    total = first;
    first = NULL;
    sol_dist *parts[2] = {later, tail};
    for (int k = 0; k < 2 && rc == 0; k++) {
        if (!parts[k])
            continue;
        sol_dist *s;
        if (sol_dist_series(pdl_gen_solver(g), total, parts[k], &s) != SOL_OK) {
            rc = pdl_gen_solver_error(g, at);
            break;
        }
        sol_dist_free(total);
        total = s;
    }
    if (later)
        sol_dist_free(later);
    if (tail)
        sol_dist_free(tail);
    if (rc != 0) {
        if (total)
            sol_dist_free(total);
        return -1;
    }
    *out = total;
    return 0;
}

int pdl_gen_paired(pdl_gen *g, const pdl_phase *ph, pdl_shares *out)
{
    uint64_t p = pdl_gen_p(g), n;
    pdl_env env;
    pdl_gen_env(g, &env);
    if (pdl_gen_count(g, ph->units, &env, "problem size", 0, PDL_MAX_COUNT, &n) != 0)
        return -1;
    uint64_t *ds = malloc(ph->ndeps * sizeof *ds);
    uint64_t *counts = malloc(p * sizeof *counts);
    if (!ds || !counts) {
        free(ds);
        free(counts);
        return pdl_gen_nomem(g);
    }
    int rc = 0;
    for (size_t k = 0; k < ph->ndeps && rc == 0; k++)
        rc = pdl_gen_count(g, ph->deps[k], &env, "dependency distance", 1, PDL_MAX_COUNT, &ds[k]);
    double scatter_bytes = 0, dep_bytes = 0, t_scatter = 0;
    if (rc == 0 && ph->volume)
        rc = pdl_gen_eval(g, ph->volume, &env, &scatter_bytes);
    if (rc == 0 && ph->dep_volume)
        rc = pdl_gen_eval(g, ph->dep_volume, &env, &dep_bytes);
    uint64_t active = n < p ? n : p;
    if (rc == 0 && ph->volume)
        rc =
            pdl_gen_scatter(g, scatter_bytes, active ? active - 1 : 0, ph->volume->loc, &t_scatter);
    sol_dist *indep = NULL, *dep = NULL, *dparts = NULL;
    if (rc == 0)
        rc = pdl_gen_dist(g, ph->indep_runtime, &env, &indep);
    if (rc == 0)
        rc = pdl_gen_dist(g, ph->dep_runtime, &env, &dep);
    if (rc == 0)
        rc = pdl_shares_init(g, out, p);
    if (rc == 0) {
        /* The independent parts per processor (they may continue a SERIAL predecessor); the
           barrier and the dependent parts follow as a shared delay. */
        pdl_gen_mapping_counts(PDL_MAP_CYCLIC, 1, n, p, counts);
        rc = pdl_gen_load_shares(g, indep, counts, NULL, ph->indep_runtime->loc, out);
        if (rc == 0)
            rc = dependent_parts(g, ph, dep, n, ds, ph->ndeps, dep_bytes, &dparts);
        if (rc == 0)
            rc = pdl_shares_add_tail(g, out, dparts);
        if (rc == 0 && t_scatter > 0) {
            sol_dist *c;
            rc = pdl_gen_point(g, t_scatter, ph->volume->loc, &c);
            if (rc == 0) {
                rc = pdl_shares_add_tail(g, out, c);
                sol_dist_free(c);
            }
        }
        if (rc != 0)
            pdl_shares_free(out);
    }
    if (indep)
        sol_dist_free(indep);
    if (dep)
        sol_dist_free(dep);
    if (dparts)
        sol_dist_free(dparts);
    free(ds);
    free(counts);
    return rc;
}

/* Generic model (models.md): iteration i's independent part I_i, then its dependent part D_i
 * after I_i and D_{i-d} for every distance d; iterations dealt out cyclically, each processor
 * running I_i, D_i in iteration order. A dependency crossing processors is a message of the
 * dependent part's volume; the phase's volume is scattered from processor 0 first. */
int pdl_graph_paired(pdl_gen *g, const pdl_phase *ph, pdl_segment *s, int join)
{
    uint64_t p = pdl_gen_p(g), n;
    pdl_env env;
    pdl_gen_env(g, &env);
    if (pdl_gen_count(g, ph->units, &env, "problem size", 0, PDL_MAX_COUNT, &n) != 0)
        return -1;
    if ((double)n * (2.0 + (double)ph->ndeps) + (double)p > (double)pdl_gen_graph_limit(g)) {
        pdl_error(pdl_gen_diag(g), ph->units->loc, "the generic model has more than %zu nodes",
                  pdl_gen_graph_limit(g));
        pdl_note(pdl_gen_diag(g), ph->units->loc, "%llu iterations, each a node or more",
                 (unsigned long long)n);
        return -1;
    }
    uint64_t *ds = malloc((ph->ndeps ? ph->ndeps : 1) * sizeof *ds);
    uint32_t *dnode = malloc((n ? n : 1) * sizeof *dnode), *exit = malloc(p * sizeof *exit);
    uint64_t active = n < p ? n : p;
    double *arrive = calloc(active + 1, sizeof *arrive);
    int rc = ds && dnode && exit && arrive ? 0 : pdl_gen_nomem(g);
    for (size_t k = 0; k < ph->ndeps && rc == 0; k++)
        rc = pdl_gen_count(g, ph->deps[k], &env, "dependency distance", 1, PDL_MAX_COUNT, &ds[k]);
    double sbytes = 0, dbytes = 0;
    if (rc == 0 && ph->volume)
        rc = pdl_gen_eval(g, ph->volume, &env, &sbytes);
    if (rc == 0 && ph->dep_volume)
        rc = pdl_gen_eval(g, ph->dep_volume, &env, &dbytes);
    if (rc == 0 && ph->volume && active > 1)
        rc = pdl_gen_scatter_arrivals(g, sbytes, active - 1, ph->volume->loc, arrive);
    sol_dist *I = NULL, *D = NULL;
    if (rc == 0)
        rc = pdl_gen_dist(g, ph->indep_runtime, &env, &I);
    if (rc == 0)
        rc = pdl_gen_dist(g, ph->dep_runtime, &env, &D);
    for (uint64_t k = 0; k < p; k++)
        exit[k] = PDL_NONE;
    uint32_t tag = PDL_TAG(PDL_NODE_WORK, ph->index);
    pdl_loc dat = ph->dep_volume ? ph->dep_volume->loc : ph->dep_runtime->loc;
    for (uint64_t i = 0; i < n && rc == 0; i++) {
        uint64_t k = i % p;
        uint32_t in, dn;
        rc = pdl_seg_node_on(g, s, I, tag, k, PDL_NONE, &in);
        if (rc == 0 && exit[k] == PDL_NONE) {
            /* the processor's first iteration: after the previous instance and its data */
            rc = pdl_seg_join(g, s, join, k, in, ph);
            if (rc == 0 && k > 0 && arrive[k] > 0) {
                sol_dist *t;
                uint32_t m;
                rc = pdl_gen_point(g, arrive[k], ph->volume->loc, &t);
                if (rc == 0) {
                    rc = pdl_seg_node(g, s, t, PDL_TAG(PDL_NODE_COMM, ph->index), &m);
                    sol_dist_free(t);
                }
                if (rc == 0)
                    rc = pdl_seg_join(g, s, join, 0, m, ph);
                if (rc == 0)
                    rc = pdl_seg_arc(g, s, m, in);
            }
        } else if (rc == 0) {
            rc = pdl_seg_arc(g, s, exit[k], in);
        }
        if (rc == 0)
            rc = pdl_seg_node_on(g, s, D, tag, k, PDL_NONE, &dn);
        if (rc == 0)
            rc = pdl_seg_arc(g, s, in, dn);
        for (size_t q = 0; q < ph->ndeps && rc == 0; q++)
            if (ds[q] <= i)
                rc = pdl_seg_message(g, s, dnode[i - ds[q]], (i - ds[q]) % p, dn, k, dbytes,
                                     ph->index, dat);
        dnode[i] = dn;
        exit[k] = dn;
    }
    if (rc == 0)
        rc = pdl_seg_set_exits(g, s, exit, PDL_NONE, ph);
    if (I)
        sol_dist_free(I);
    if (D)
        sol_dist_free(D);
    free(ds);
    free(dnode);
    free(exit);
    free(arrive);
    return rc;
}
