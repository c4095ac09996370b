/* pdl_gen_pipeline: the scaled model of a MACROPIPELINE phase (paper Figure 5): S stages in
 * blocks on min(p, S) processors; unit (processor k, job j) runs k's stages of job j; the
 * wavefront is cut into anti-diagonals k + j = d separated by barriers. */
#include "pdl_gen.h"

#include <stdlib.h>
#include <string.h>

/* Jobs whose arrivals are modelled one by one. */
#define MAX_ARRIVAL_JOBS 100000u

typedef struct pipe {
    pdl_gen *g;
    size_t nclass;
    sol_dist **unit;  /* per class: the unit's runtime (its stages, after its incoming message) */
    uint64_t *prefix; /* prefix[c * (P + 1) + k]: processors < k in class c */
    uint64_t P;       /* processors in use */
    uint64_t J;
    pdl_loc at;
} pipe;

/* The anti-diagonal holding the units of processors lo..hi: the max of their runtimes. */
static int diagonal(pipe *pp, uint64_t lo, uint64_t hi, sol_dist **out)
{
    pdl_gen *g = pp->g;
    sol_dist *acc = NULL;
    for (size_t c = 0; c < pp->nclass; c++) {
        uint64_t cnt = pp->prefix[c * (pp->P + 1) + hi + 1] - pp->prefix[c * (pp->P + 1) + lo];
        if (!cnt)
            continue;
        sol_dist *m, *mx;
        if (sol_dist_max_n(pdl_gen_solver(g), pp->unit[c], cnt, &m) != SOL_OK) {
            if (acc)
                sol_dist_free(acc);
            return pdl_gen_solver_error(g, pp->at);
        }
        if (!acc) {
            acc = m;
            continue;
        }
        sol_status st = sol_dist_max(pdl_gen_solver(g), acc, m, &mx);
        sol_dist_free(m);
        sol_dist_free(acc);
        if (st != SOL_OK)
            return pdl_gen_solver_error(g, pp->at);
        acc = mx;
    }
    *out = acc;
    return acc ? 0 : pdl_gen_point(g, 0, pp->at, out);
}

static int add(pdl_gen *g, sol_dist **acc, const sol_dist *x, pdl_loc at)
{
    sol_dist *s;
    if (sol_dist_series(pdl_gen_solver(g), *acc, x, &s) != SOL_OK)
        return pdl_gen_solver_error(g, at);
    sol_dist_free(*acc);
    *acc = s;
    return 0;
}

/* Without arrivals: the sum of the diagonals; the full ones in the middle (every processor busy)
 * are identical and summed at once, so the cost grows with p, not with the number of jobs. */
static int sum_diagonals(pipe *pp, sol_dist **total)
{
    pdl_gen *g = pp->g;
    uint64_t P = pp->P, J = pp->J, last = P + J - 2;
    if (pdl_gen_point(g, 0, pp->at, total) != 0)
        return -1;
    for (uint64_t d = 0; d <= last;) {
        uint64_t lo = d + 1 > J ? d + 1 - J : 0, hi = d < P - 1 ? d : P - 1;
        uint64_t reps = 1;
        if (lo == 0 && hi == P - 1 && J >= P)
            reps = J - P + 1; /* diagonals P-1 .. J-1 */
        sol_dist *m, *mr;
        if (diagonal(pp, lo, hi, &m) != 0)
            return -1;
        /* Diagonals are only added up. */
        int rc = pdl_gen_sum_linear(g, m, reps, &mr);
        sol_dist_free(m);
        if (rc != 0)
            return -1;
        rc = add(g, total, mr, pp->at);
        sol_dist_free(mr);
        if (rc != 0)
            return -1;
        d += reps;
    }
    return 0;
}

/* With arrivals: diagonal d starts when diagonal d-1 is done and job d has arrived. The two
 * times are treated as independent; both increase with the same interarrival times, so they are
 * associated and the independent max is stochastically larger: an upper bound, as the scaled
 * model is meant to be. */
static int with_arrivals(pipe *pp, const sol_dist *a, sol_dist **total)
{
    pdl_gen *g = pp->g;
    sol_ctx *sc = pdl_gen_solver(g);
    uint64_t P = pp->P, J = pp->J, last = P + J - 2;
    sol_dist *done = NULL, *arrive = NULL;
    int rc = pdl_gen_point(g, 0, pp->at, &done);
    if (rc == 0)
        rc = pdl_gen_point(g, 0, pp->at, &arrive);
    for (uint64_t d = 0; d <= last && rc == 0; d++) {
        uint64_t lo = d + 1 > J ? d + 1 - J : 0, hi = d < P - 1 ? d : P - 1;
        sol_dist *m;
        if ((rc = diagonal(pp, lo, hi, &m)) != 0)
            break;
        if (d < J) {
            sol_dist *start;
            if (sol_dist_max(sc, done, arrive, &start) != SOL_OK) {
                sol_dist_free(m);
                rc = pdl_gen_solver_error(g, pp->at);
                break;
            }
            sol_dist_free(done);
            done = start;
            rc = add(g, &arrive, a, pp->at);
        }
        if (rc == 0)
            rc = add(g, &done, m, pp->at);
        sol_dist_free(m);
    }
    if (arrive)
        sol_dist_free(arrive);
    if (rc != 0) {
        if (done)
            sol_dist_free(done);
        return -1;
    }
    *total = done;
    return 0;
}

int pdl_gen_macropipeline(pdl_gen *g, const pdl_phase *ph, pdl_shares *out)
{
    uint64_t p = pdl_gen_p(g), S, J;
    pdl_env env;
    pdl_gen_env(g, &env);
    if (pdl_gen_count(g, ph->stages, &env, "number of stages", 1, PDL_MAX_COUNT, &S) != 0 ||
        pdl_gen_count(g, ph->jobs, &env, "number of jobs", 1, PDL_MAX_COUNT, &J) != 0)
        return -1;
    double bytes = 0;
    if (ph->volume && pdl_gen_eval(g, ph->volume, &env, &bytes) != 0)
        return -1;
    sol_dist *a = NULL;
    if (ph->interarrival && pdl_gen_dist(g, ph->interarrival, &env, &a) != 0)
        return -1;
    int arrivals = a && sol_dist_max_value(a) > 0;
    if (arrivals && J > MAX_ARRIVAL_JOBS) {
        pdl_error(pdl_gen_diag(g), ph->jobs->loc,
                  "%llu jobs with an interarrival time is more than the %u pdlc models one by "
                  "one",
                  (unsigned long long)J, MAX_ARRIVAL_JOBS);
        sol_dist_free(a);
        return -1;
    }
    pipe pp = {g, 0, NULL, NULL, S < p ? S : p, J, ph->runtime->loc};
    uint64_t P = pp.P;
    uint64_t *counts = malloc(P * sizeof *counts);
    double *comm = calloc(P, sizeof *comm);
    uint64_t *cls = malloc(P * sizeof *cls);
    uint64_t *ckeys = malloc(P * sizeof *ckeys); /* at most one class per processor */
    double *cextra = malloc(P * sizeof *cextra);
    sol_dist *x = NULL, *total = NULL;
    int rc = counts && comm && cls && ckeys && cextra ? pdl_gen_dist(g, ph->runtime, &env, &x) : -1;
    if (rc == 0)
        pdl_gen_mapping_counts(PDL_MAP_BLOCK, 1, S, P, counts);
    /* A unit of processor k > 0 first receives job j's data from processor k - 1. */
    for (uint64_t k = 1; k < P && rc == 0 && bytes > 0; k++)
        rc = pdl_gen_message(g, bytes, k - 1, k, ph->volume->loc, &comm[k]);
    /* Classes of processors by (stages, message time): block counts differ by at most one and
       message times by the topology's distances, so there are few; diagonals then cost one
       max_n per class. */
    for (uint64_t k = 0; k < P && rc == 0; k++) {
        size_t c = 0;
        while (c < pp.nclass && !(ckeys[c] == counts[k] && cextra[c] == comm[k]))
            c++;
        if (c == pp.nclass) {
            ckeys[c] = counts[k];
            cextra[c] = comm[k];
            pp.nclass++;
        }
        cls[k] = c;
    }
    if (rc == 0) {
        pp.unit = calloc(pp.nclass, sizeof *pp.unit);
        pp.prefix = calloc(pp.nclass * (P + 1), sizeof *pp.prefix);
        if (!pp.unit || !pp.prefix)
            rc = -1;
    }
    for (size_t c = 0; c < pp.nclass && rc == 0; c++) {
        sol_dist *s;
        rc = pdl_gen_sum(g, x, ckeys[c], &s);
        if (rc == 0 && cextra[c] != 0) {
            if (sol_dist_shift(pdl_gen_solver(g), s, cextra[c], &pp.unit[c]) != SOL_OK)
                rc = pdl_gen_solver_error(g, ph->loc);
            sol_dist_free(s);
        } else if (rc == 0) {
            pp.unit[c] = s;
        }
        for (uint64_t k = 0; k < P && rc == 0; k++)
            pp.prefix[c * (P + 1) + k + 1] = pp.prefix[c * (P + 1) + k] + (cls[k] == c);
    }
    /* The total depends on p only through what the key names: on more processors than stages
       it is the same for every p, and the memo computes it once. */
    pdl_key key;
    pdl_key_init(&key);
    if (rc == 0) {
        const void *ids[2] = {ph, pdl_gen_machine(g)};
        uint64_t sizes[3] = {P, J, pp.nclass};
        pdl_key_add(&key, "pipeline", 8);
        pdl_key_add(&key, ids, sizeof ids);
        pdl_key_add(&key, sizes, sizeof sizes);
        pdl_key_add(&key, ckeys, pp.nclass * sizeof *ckeys);
        pdl_key_add(&key, cextra, pp.nclass * sizeof *cextra);
        pdl_key_add(&key, cls, P * sizeof *cls);
        pdl_key_dist(&key, x);
        if (arrivals)
            pdl_key_dist(&key, a);
    }
    if (rc == 0 && !pdl_gen_memo_get(g, &key, &total)) {
        rc = arrivals ? with_arrivals(&pp, a, &total) : sum_diagonals(&pp, &total);
        if (rc == 0)
            pdl_gen_memo_put(g, &key, total);
    }
    pdl_key_free(&key);
    if (rc == 0)
        rc = pdl_shares_closed(g, out, p, total);
    if (total)
        sol_dist_free(total);
    for (size_t c = 0; pp.unit && c < pp.nclass; c++)
        if (pp.unit[c])
            sol_dist_free(pp.unit[c]);
    free(pp.unit);
    free(pp.prefix);
    free(counts);
    free(comm);
    free(cls);
    free(ckeys);
    free(cextra);
    if (x)
        sol_dist_free(x);
    if (a)
        sol_dist_free(a);
    return rc;
}

/* Generic model (models.md): (stage s, job j) after (s-1, j), (s, j-1) and job j's arrival. A
 * processor runs its block of stages for job j, then for job j+1: its (s, j-1) is done before
 * its first stage of job j starts, so a block collapses exactly into one node per (processor,
 * job). Arrivals are a chain of interarrival nodes. Nodes: about 2 P J (with messages) + J. */
int pdl_graph_macropipeline(pdl_gen *g, const pdl_phase *ph, pdl_segment *s, int join)
{
    uint64_t p = pdl_gen_p(g), S, J;
    pdl_env env;
    pdl_gen_env(g, &env);
    if (pdl_gen_count(g, ph->stages, &env, "number of stages", 1, PDL_MAX_COUNT, &S) != 0 ||
        pdl_gen_count(g, ph->jobs, &env, "number of jobs", 1, PDL_MAX_COUNT, &J) != 0)
        return -1;
    uint64_t P = S < p ? S : p;
    if ((double)P * (double)J * 2 + (double)J > (double)pdl_gen_graph_limit(g)) {
        pdl_error(pdl_gen_diag(g), ph->jobs->loc, "the generic model has more than %zu nodes",
                  pdl_gen_graph_limit(g));
        pdl_note(pdl_gen_diag(g), ph->jobs->loc, "%llu jobs on %llu processors",
                 (unsigned long long)J, (unsigned long long)P);
        return -1;
    }
    double bytes = 0;
    if (ph->volume && pdl_gen_eval(g, ph->volume, &env, &bytes) != 0)
        return -1;
    pdl_loc vat = ph->volume ? ph->volume->loc : ph->name_loc;
    sol_dist *x = NULL, *a = NULL;
    sol_dist **unit = calloc(P, sizeof *unit);
    uint64_t *counts = malloc(P * sizeof *counts);
    uint32_t *prev = malloc(P * sizeof *prev), *exit = malloc(p * sizeof *exit);
    int rc =
        unit && counts && prev && exit ? pdl_gen_dist(g, ph->runtime, &env, &x) : pdl_gen_nomem(g);
    if (rc == 0 && ph->interarrival)
        rc = pdl_gen_dist(g, ph->interarrival, &env, &a);
    if (rc == 0)
        pdl_gen_mapping_counts(PDL_MAP_BLOCK, 1, S, P, counts);
    for (uint64_t k = 0; k < P && rc == 0; k++)
        rc = pdl_gen_sum(g, x, counts[k], &unit[k]);
    uint32_t tag = PDL_TAG(PDL_NODE_WORK, ph->index), arrive = PDL_NONE;
    for (uint64_t j = 0; j < J && rc == 0; j++) {
        if (a && j > 0 && sol_dist_max_value(a) > 0) {
            /* job j arrives one interarrival time after job j-1 */
            uint32_t n;
            rc = pdl_seg_node(g, s, a, PDL_TAG(PDL_NODE_ARRIVAL, ph->index), &n);
            if (rc == 0)
                rc = arrive == PDL_NONE ? pdl_seg_join(g, s, join, 0, n, ph)
                                        : pdl_seg_arc(g, s, arrive, n);
            arrive = n;
        }
        for (uint64_t k = 0; k < P && rc == 0; k++) {
            uint32_t u;
            rc = pdl_seg_node_on(g, s, unit[k], tag, k, PDL_NONE, &u);
            if (rc == 0 && j == 0)
                rc = pdl_seg_join(g, s, join, k, u, ph);
            if (rc == 0 && j > 0)
                rc = pdl_seg_arc(g, s, prev[k], u);
            if (rc == 0 && k == 0 && arrive != PDL_NONE)
                rc = pdl_seg_arc(g, s, arrive, u);
            if (rc == 0 && k > 0)
                rc = pdl_seg_message(g, s, prev[k - 1], k - 1, u, k, bytes, ph->index, vat);
            /* prev[k-1] now holds (k-1, j): written just before, in this job's loop */
            prev[k] = u;
        }
    }
    for (uint64_t k = 0; k < p; k++)
        exit[k] = k < P ? prev[k] : PDL_NONE;
    if (rc == 0)
        rc = pdl_seg_set_exits(g, s, exit, PDL_NONE, ph);
    for (uint64_t k = 0; unit && k < P; k++)
        if (unit[k])
            sol_dist_free(unit[k]);
    free(unit);
    free(counts);
    free(prev);
    free(exit);
    if (x)
        sol_dist_free(x);
    if (a)
        sol_dist_free(a);
    return rc;
}
