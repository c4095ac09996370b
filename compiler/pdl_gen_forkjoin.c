/* pdl_gen_forkjoin: the scaled model of a FORK-JOIN phase (paper Figure 6): jobs one after
 * another, each a fork (scatter), its tasks as an INDEPENDENT model on p processors, and a join
 * (gather). Jobs that are all alike are summed at once; others are built one by one. */
#include "pdl_gen.h"

#include <stdlib.h>

/* One job j: fork, tasks, join. */
static int job(pdl_gen *g, const pdl_phase *ph, uint64_t j, sol_dist **out)
{
    uint64_t p = pdl_gen_p(g), tasks;
    pdl_env env;
    pdl_gen_env(g, &env);
    env.scope |= PDL_SCOPE_J;
    env.j = (double)j;
    if (pdl_gen_count(g, ph->tasks_per_job, &env, "number of tasks per job", 0, PDL_MAX_COUNT,
                      &tasks) != 0)
        return -1;
    uint64_t b;
    if (pdl_gen_block(g, ph, &env, &b) != 0)
        return -1;
    double bytes = 0, fork = 0;
    uint64_t active = tasks < p ? tasks : p;
    if (ph->volume &&
        (pdl_gen_eval(g, ph->volume, &env, &bytes) != 0 ||
         pdl_gen_scatter(g, bytes, active ? active - 1 : 0, ph->volume->loc, &fork) != 0))
        return -1;
    sol_dist *x = NULL, *work = NULL;
    uint64_t *counts = malloc(p * sizeof *counts);
    pdl_shares sh;
    int rc = counts ? pdl_gen_dist(g, ph->runtime, &env, &x) : pdl_gen_nomem(g);
    if (rc == 0 && (rc = pdl_shares_init(g, &sh, p)) == 0) {
        pdl_gen_mapping_counts(ph->dynamic ? PDL_MAP_BLOCK : ph->mapping, b, tasks, p, counts);
        rc = pdl_gen_load_shares(g, x, counts, NULL, ph->runtime->loc, &sh);
        if (rc == 0)
            rc = pdl_shares_finish(g, &sh, &work);
        pdl_shares_free(&sh);
    }
    /* The gather of the results mirrors the scatter of the fork. */
    if (rc == 0 && fork > 0) {
        if (sol_dist_shift(pdl_gen_solver(g), work, 2 * fork, out) != SOL_OK)
            rc = pdl_gen_solver_error(g, ph->loc);
    } else if (rc == 0) {
        *out = sol_dist_retain(work);
    }
    if (work)
        sol_dist_free(work);
    if (x)
        sol_dist_free(x);
    free(counts);
    return rc;
}

int pdl_gen_forkjoin(pdl_gen *g, const pdl_phase *ph, pdl_shares *out)
{
    uint64_t p = pdl_gen_p(g), J;
    pdl_env env;
    pdl_gen_env(g, &env);
    if (pdl_gen_count(g, ph->jobs, &env, "number of jobs", 1, PDL_MAX_COUNT, &J) != 0)
        return -1;
    sol_dist *a = NULL, *total = NULL;
    if (ph->interarrival && pdl_gen_dist(g, ph->interarrival, &env, &a) != 0)
        return -1;
    int arrivals = a && sol_dist_max_value(a) > 0;
    int alike = !pdl_dist_uses(ph->runtime, PDL_V_J) &&
                !pdl_expr_uses(ph->tasks_per_job, PDL_V_J) && !pdl_expr_uses(ph->volume, PDL_V_J);
    int rc = 0;
    if (alike && !arrivals) {
        sol_dist *one;
        rc = job(g, ph, 0, &one);
        if (rc == 0) {
            rc = pdl_gen_sum_linear(g, one, J, &total);
            sol_dist_free(one);
        }
    } else if (J > PDL_MAX_JOBS) {
        pdl_error(pdl_gen_diag(g), ph->jobs->loc,
                  "%llu jobs that differ (or arrive over time) is more than the %u pdlc models "
                  "one by one",
                  (unsigned long long)J, PDL_MAX_JOBS);
        rc = -1;
    } else {
        /* Job j starts when job j-1 has joined and job j has arrived; as in a macropipeline the
           two times are associated, so treating them as independent bounds the mean above. */
        sol_dist *arrive = NULL, *one = NULL;
        rc = pdl_gen_point(g, 0, ph->loc, &total);
        if (rc == 0)
            rc = pdl_gen_point(g, 0, ph->loc, &arrive);
        for (uint64_t j = 0; j < J && rc == 0; j++) {
            if (!one || !alike) {
                if (one)
                    sol_dist_free(one);
                one = NULL;
                if ((rc = job(g, ph, j, &one)) != 0)
                    break;
                /* Without arrivals the jobs are only added up. */
                if (!arrivals && (rc = pdl_gen_linear(g, &one)) != 0)
                    break;
            }
            sol_ctx *sc = pdl_gen_solver(g);
            sol_dist *start = NULL, *end = NULL, *next = NULL;
            if (arrivals && sol_dist_max(sc, total, arrive, &start) != SOL_OK)
                rc = pdl_gen_solver_error(g, ph->loc);
            if (rc == 0 && sol_dist_series(sc, start ? start : total, one, &end) != SOL_OK)
                rc = pdl_gen_solver_error(g, ph->loc);
            if (rc == 0 && arrivals && sol_dist_series(sc, arrive, a, &next) != SOL_OK)
                rc = pdl_gen_solver_error(g, ph->loc);
            if (start)
                sol_dist_free(start);
            if (rc == 0) {
                sol_dist_free(total);
                total = end;
                if (next) {
                    sol_dist_free(arrive);
                    arrive = next;
                }
            } else {
                if (end)
                    sol_dist_free(end);
                if (next)
                    sol_dist_free(next);
            }
        }
        if (one)
            sol_dist_free(one);
        if (arrive)
            sol_dist_free(arrive);
    }
    if (rc == 0)
        rc = pdl_shares_closed(g, out, p, total);
    if (total)
        sol_dist_free(total);
    if (a)
        sol_dist_free(a);
    return rc;
}

/* Generic model: job j's fork on processor 0 (after job j-1's join and job j's arrival), each
 * processor's share of the tasks as one chain after the fork's message to it, the join after
 * every chain's message back; job j+1's fork after job j's join. */
int pdl_graph_forkjoin(pdl_gen *g, const pdl_phase *ph, pdl_segment *s, int join)
{
    uint64_t p = pdl_gen_p(g), J;
    pdl_env env;
    pdl_gen_env(g, &env);
    if (pdl_gen_count(g, ph->jobs, &env, "number of jobs", 1, PDL_MAX_COUNT, &J) != 0)
        return -1;
    if ((double)J * (3.0 * (double)p + 3) > (double)pdl_gen_graph_limit(g)) {
        pdl_error(pdl_gen_diag(g), ph->jobs->loc, "the generic model has more than %zu nodes",
                  pdl_gen_graph_limit(g));
        pdl_note(pdl_gen_diag(g), ph->jobs->loc, "%llu jobs on %llu processors",
                 (unsigned long long)J, (unsigned long long)p);
        return -1;
    }
    sol_dist *a = NULL, *zero = NULL;
    uint64_t *counts = malloc(p * sizeof *counts);
    int rc = counts ? pdl_gen_point(g, 0, ph->loc, &zero) : pdl_gen_nomem(g);
    if (rc == 0 && ph->interarrival)
        rc = pdl_gen_dist(g, ph->interarrival, &env, &a);
    uint32_t prev_join = PDL_NONE, arrive = PDL_NONE;
    uint32_t sync = PDL_TAG(PDL_NODE_SYNC, ph->index), work = PDL_TAG(PDL_NODE_WORK, ph->index);
    pdl_loc vat = ph->volume ? ph->volume->loc : ph->name_loc;
    for (uint64_t j = 0; j < J && rc == 0; j++) {
        pdl_env je = env;
        je.scope |= PDL_SCOPE_J;
        je.j = (double)j;
        uint64_t tasks, b;
        double bytes = 0;
        rc = pdl_gen_count(g, ph->tasks_per_job, &je, "number of tasks per job", 0, PDL_MAX_COUNT,
                           &tasks);
        if (rc == 0)
            rc = pdl_gen_block(g, ph, &je, &b);
        if (rc == 0 && ph->volume)
            rc = pdl_gen_eval(g, ph->volume, &je, &bytes);
        uint32_t fork, joinn;
        if (rc == 0)
            rc = pdl_seg_node(g, s, zero, sync, &fork);
        if (rc == 0)
            rc = prev_join == PDL_NONE ? pdl_seg_join(g, s, join, 0, fork, ph)
                                       : pdl_seg_arc(g, s, prev_join, fork);
        if (rc == 0 && a && j > 0 && sol_dist_max_value(a) > 0) {
            uint32_t n;
            rc = pdl_seg_node(g, s, a, PDL_TAG(PDL_NODE_ARRIVAL, ph->index), &n);
            if (rc == 0)
                rc = arrive == PDL_NONE ? pdl_seg_join(g, s, join, 0, n, ph)
                                        : pdl_seg_arc(g, s, arrive, n);
            if (rc == 0)
                rc = pdl_seg_arc(g, s, n, fork);
            arrive = n;
        }
        if (rc == 0)
            rc = pdl_seg_node(g, s, zero, sync, &joinn);
        sol_dist *x = NULL, *last = NULL;
        uint64_t lastc = 0;
        if (rc == 0)
            rc = pdl_gen_dist(g, ph->runtime, &je, &x);
        if (rc == 0)
            pdl_gen_mapping_counts(ph->dynamic ? PDL_MAP_BLOCK : ph->mapping, b, tasks, p, counts);
        for (uint64_t k = 0; k < p && rc == 0; k++) {
            if (!counts[k])
                continue;
            if (!last || lastc != counts[k]) {
                if (last)
                    sol_dist_free(last);
                last = NULL;
                lastc = counts[k];
                if ((rc = pdl_gen_sum(g, x, counts[k], &last)) != 0)
                    break;
            }
            uint32_t c;
            rc = pdl_seg_node_on(g, s, last, work, k, PDL_NONE, &c);
            if (rc == 0)
                rc = pdl_seg_message(g, s, fork, 0, c, k, bytes, ph->index, vat);
            if (rc == 0)
                rc = pdl_seg_message(g, s, c, k, joinn, 0, bytes, ph->index, vat);
        }
        if (rc == 0 && tasks == 0)
            rc = pdl_seg_arc(g, s, fork, joinn);
        if (last)
            sol_dist_free(last);
        if (x)
            sol_dist_free(x);
        prev_join = joinn;
    }
    if (rc == 0)
        rc = pdl_seg_set_exits(g, s, NULL, prev_join, ph);
    if (zero)
        sol_dist_free(zero);
    if (a)
        sol_dist_free(a);
    free(counts);
    return rc;
}
