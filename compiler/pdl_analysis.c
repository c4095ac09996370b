/* pdl_analysis: the analyses evaluate the scaled model under what-if switches (other phases at
 * zero, no communication, no synchronisation; pdl_gen_set_zeroed) and combine the means so that
 * the parts of a breakdown add up exactly to the whole, by construction. */
#include "pdl_analysis.h"

#include "pdl_generic.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const speedup_cols[] = {"procs", "mean", "speedup", "efficiency", NULL};
static const char *const profile_cols[] = {"procs",    "phase",           "share", "phase_speedup",
                                           "limiting", "avg_parallelism", NULL};
static const char *const losses_cols[] = {"procs",
                                          "total",
                                          "effective",
                                          "lost",
                                          "efficiency",
                                          "loss_sequential",
                                          "loss_imbalance",
                                          "loss_communication",
                                          "loss_synchronization",
                                          "avg_parallelism",
                                          NULL};
static const char *const bottleneck_cols[] = {"procs",           "t_computation",
                                              "t_communication", "t_synchronization",
                                              "t_sequential",    "b_computation",
                                              "b_communication", "b_synchronization",
                                              "b_sequential",    "comm_comp_ratio",
                                              "bottleneck",      "comm_bottleneck_from",
                                              "avg_parallelism", NULL};
static const char *const path_cols[] = {
    "step", "phase", "kind", "processor", "task", "times", "mean", "avg_parallelism", NULL};

const char *const *pdl_report_columns(pdl_report_kind k)
{
    switch (k) {
    case PDL_REPORT_PROFILE:
        return profile_cols;
    case PDL_REPORT_LOSSES:
        return losses_cols;
    case PDL_REPORT_BOTTLENECK:
        return bottleneck_cols;
    case PDL_REPORT_CRITICAL_PATH:
        return path_cols;
    default:
        return speedup_cols;
    }
}

/* E[T(p)] of the scaled model with the given switches (closed parts as means: fast). */
static int mean_of(pdl_gen *g, size_t machine, uint64_t p, const unsigned char *zero, int no_comm,
                   int no_sync, double *out)
{
    pdl_gen_set_zeroed(g, zero, no_comm, no_sync);
    sol_dist *t;
    int rc = pdl_gen_program(g, machine, p, &t);
    pdl_gen_set_zeroed(g, NULL, 0, 0);
    if (rc != 0)
        return -1;
    *out = sol_dist_mean(t);
    sol_dist_free(t);
    return 0;
}

static size_t new_row(const pdl_rows *rows)
{
    return rows->add(rows->arg);
}

/* ---- average parallelism ---- */

/* The most processors any phase can use: its units, stages, largest job, or tasks. */
static uint64_t useful_procs(pdl_gen *g)
{
    const pdl_program *prog = pdl_gen_checked(g)->prog;
    pdl_env env;
    pdl_gen_env(g, &env);
    uint64_t most = 1;
    for (size_t k = 0; k < prog->nphases; k++) {
        const pdl_phase *ph = prog->phases[k];
        uint64_t n = 0;
        if (!ph->used || ph->kind != PDL_PH_WORK)
            continue;
        switch (ph->scheme) {
        case PDL_S_MACROPIPELINE:
            (void)pdl_eval_count(ph->stages, &env, NULL, "", 0, PDL_MAX_COUNT, &n);
            break;
        case PDL_S_FORK_JOIN: {
            uint64_t jobs = 0;
            (void)pdl_eval_count(ph->jobs, &env, NULL, "", 0, PDL_MAX_COUNT, &jobs);
            pdl_env je = env;
            je.scope |= PDL_SCOPE_J;
            for (uint64_t j = 0; j < jobs && j < PDL_MAX_JOBS; j++) {
                uint64_t t = 0;
                je.j = (double)j;
                (void)pdl_eval_count(ph->tasks_per_job, &je, NULL, "", 0, PDL_MAX_COUNT, &t);
                n = t > n ? t : n;
            }
            break;
        }
        case PDL_S_ARBITRARY:
            n = ph->ntasks;
            break;
        default:
            (void)pdl_eval_count(ph->units, &env, NULL, "", 0, PDL_MAX_COUNT, &n);
            break;
        }
        most = n > most ? n : most;
    }
    return most < PDL_AP_PROCS ? most : PDL_AP_PROCS;
}

/* The generic model on one processor per unit with communication and barriers free: the
 * program's own parallelism (seed 000), whatever the machine's network or size. */
static int free_generic(pdl_gen *g, size_t machine, pdl_generic_opts *o, pdl_generic_result *r)
{
    if (pdl_gen_begin(g, machine, 1) != 0)
        return -1;
    uint64_t p = useful_procs(g);
    pdl_gen_set_zeroed(g, NULL, 1, 1);
    int rc = pdl_generic_program(g, machine, p, o, r);
    pdl_gen_set_zeroed(g, NULL, 0, 0);
    if (rc != 0)
        pdl_note(pdl_gen_diag(g), (pdl_loc){0, 0, 0},
                 "the average parallelism and the critical path need the generic model on %llu "
                 "processors",
                 (unsigned long long)p);
    return rc;
}

int pdl_average_parallelism(pdl_gen *g, size_t machine, double *ap)
{
    double work;
    if (mean_of(g, machine, 1, NULL, 1, 1, &work) != 0)
        return -1;
    pdl_generic_opts o = {.want = PDL_WANT_CPM, .threads = 1};
    pdl_generic_result r;
    if (free_generic(g, machine, &o, &r) != 0)
        return -1;
    *ap = r.cpm > 0 ? work / r.cpm : 1.0;
    return 0;
}

double pdl_average_parallelism_or_nan(pdl_gen *g, size_t machine)
{
    pdl_diag *d = pdl_gen_diag(g);
    double ap;
    pdl_diag_hold(d);
    int rc = pdl_average_parallelism(g, machine, &ap);
    const char *why;
    size_t held = pdl_diag_release(d, &why);
    if (rc == 0)
        return ap;
    pdl_warning(d, (pdl_loc){0, 0, 0},
                "the average parallelism cannot be computed (%s); its column is left empty",
                held ? why : "out of memory");
    return NAN;
}

/* The avg_parallelism cell: left empty when it could not be computed. */
static void set_ap(pdl_table *t, size_t row, size_t col, double ap)
{
    if (!isnan(ap))
        pdl_table_set_num(t, row, col, ap);
}

/* ---- profile ---- */

/* Phases that appear in the pattern, in definition order. */
static size_t used_phases(const pdl_program *prog, const pdl_phase **out)
{
    size_t n = 0;
    for (size_t k = 0; k < prog->nphases; k++)
        if (prog->phases[k]->used)
            out[n++] = prog->phases[k];
    return n;
}

static int profile(pdl_gen *g, size_t machine, const uint64_t *procs, size_t nprocs,
                   const pdl_rows *rows, double ap)
{
    pdl_table *t = rows->t;
    const pdl_program *prog = pdl_gen_checked(g)->prog;
    size_t np = prog->nphases;
    const pdl_phase **ph = malloc((np + 1) * sizeof *ph);
    unsigned char *zero = malloc(np ? np : 1);
    double *one = malloc((np + 1) * sizeof *one), *at = malloc((np + 1) * sizeof *at);
    if (!ph || !zero || !one || !at) {
        free(ph);
        free(zero);
        free(one);
        free(at);
        return pdl_gen_nomem(g);
    }
    size_t n = used_phases(prog, ph);
    int rc = 0;
    /* Row k < n: phase k alone (every other phase at zero, no barrier time); row n: the
       synchronisation alone (barriers and SYNCHRONIZATION phases, every other phase at 0). */
    for (size_t k = 0; k <= n && rc == 0; k++) {
        for (size_t q = 0; q < np; q++)
            zero[q] =
                k < n ? prog->phases[q] != ph[k] : prog->phases[q]->kind != PDL_PH_SYNCHRONIZATION;
        rc = mean_of(g, machine, 1, zero, 0, k < n, &one[k]);
    }
    for (size_t i = 0; i < nprocs && rc == 0; i++) {
        uint64_t p = procs[i];
        double total;
        rc = mean_of(g, machine, p, NULL, 0, 0, &total);
        size_t worst = 0;
        double worst_loss = -1;
        for (size_t k = 0; k <= n && rc == 0; k++) {
            for (size_t q = 0; q < np; q++)
                zero[q] = k < n ? prog->phases[q] != ph[k]
                                : prog->phases[q]->kind != PDL_PH_SYNCHRONIZATION;
            rc = mean_of(g, machine, p, zero, 0, k < n, &at[k]);
            /* the part that keeps the program from scaling most: the largest time above the
               ideal at[k] = one[k] / p */
            double loss = at[k] - one[k] / (double)p;
            if (rc == 0 && loss > worst_loss && loss > 1e-12 * total) {
                worst_loss = loss;
                worst = k;
            }
        }
        for (size_t k = 0; k <= n && rc == 0; k++) {
            if (k == n && one[n] == 0 && at[n] == 0)
                continue; /* no synchronisation cost at all: no row */
            size_t r = new_row(rows);
            if (r == (size_t)-1) {
                rc = pdl_gen_nomem(g);
                break;
            }
            size_t c = rows->col0;
            pdl_table_set_num(t, r, c++, (double)p);
            pdl_table_set_str(t, r, c++, k < n ? ph[k]->name : "(synchronization)");
            pdl_table_set_num(t, r, c++, total > 0 ? at[k] / total : 0);
            pdl_table_set_num(t, r, c++, at[k] > 0 ? one[k] / at[k] : 1);
            pdl_table_set_num(t, r, c++, worst_loss > 0 && k == worst);
            set_ap(t, r, c++, ap);
        }
    }
    free(ph);
    free(zero);
    free(one);
    free(at);
    return rc;
}

/* ---- losses and bottlenecks ---- */

/* The runtime split along the program: t_full with everything; without communication; the
 * base without communication and synchronisation; the sequential phases alone. */
typedef struct split {
    double full, nocomm, base, seq;
} split;

/* A flag per phase of the program, for pdl_gen_set_zeroed; NULL after reporting. */
static unsigned char *phase_flags(pdl_gen *g)
{
    size_t np = pdl_gen_checked(g)->prog->nphases;
    unsigned char *zero = malloc(np ? np : 1);
    if (!zero)
        pdl_gen_nomem(g);
    return zero;
}

static int split_at(pdl_gen *g, size_t machine, uint64_t p, unsigned char *zero, split *s)
{
    const pdl_program *prog = pdl_gen_checked(g)->prog;
    size_t np = prog->nphases;
    if (mean_of(g, machine, p, NULL, 0, 0, &s->full) != 0 ||
        mean_of(g, machine, p, NULL, 1, 0, &s->nocomm) != 0)
        return -1;
    for (size_t q = 0; q < np; q++)
        zero[q] = prog->phases[q]->kind == PDL_PH_SYNCHRONIZATION;
    if (mean_of(g, machine, p, zero, 1, 1, &s->base) != 0)
        return -1;
    for (size_t q = 0; q < np; q++)
        zero[q] = prog->phases[q]->kind != PDL_PH_SEQUENTIAL;
    return mean_of(g, machine, p, zero, 1, 1, &s->seq);
}

static int losses(pdl_gen *g, size_t machine, const uint64_t *procs, size_t nprocs,
                  const pdl_rows *rows, double ap)
{
    pdl_table *t = rows->t;
    unsigned char *zero = phase_flags(g);
    if (!zero)
        return -1;
    split one;
    int rc = split_at(g, machine, 1, zero, &one);
    for (size_t i = 0; i < nprocs && rc == 0; i++) {
        uint64_t p = procs[i];
        double P = (double)p;
        split s;
        if ((rc = split_at(g, machine, p, zero, &s)) != 0)
            break;
        /* DVM's breakdown (seed 003): total time p E[T(p)], effective E[T(1)], lost = total -
           effective. Each overhead counts p times what it adds at p minus what it added at p = 1
           (so every part is 0 at p = 1); the rest of the parallel part is load imbalance. The
           parts add up to the lost time exactly: p (full - nocomm) + p (nocomm - base) + p base
           - [(full - nocomm) + (nocomm - base) + base](1) = p full - full(1). */
        double total = P * s.full, effective = one.full, lost = total - effective;
        double comm = P * (s.full - s.nocomm) - (one.full - one.nocomm);
        double sync = P * (s.nocomm - s.base) - (one.nocomm - one.base);
        double seq = (P - 1) * s.seq;
        double imbalance = lost - comm - sync - seq;
        size_t r = new_row(rows);
        if (r == (size_t)-1) {
            rc = pdl_gen_nomem(g);
            break;
        }
        size_t c = rows->col0;
        pdl_table_set_num(t, r, c++, P);
        pdl_table_set_num(t, r, c++, total);
        pdl_table_set_num(t, r, c++, effective);
        pdl_table_set_num(t, r, c++, lost);
        pdl_table_set_num(t, r, c++, total > 0 ? effective / total : 1);
        pdl_table_set_num(t, r, c++, seq);
        pdl_table_set_num(t, r, c++, imbalance);
        pdl_table_set_num(t, r, c++, comm);
        pdl_table_set_num(t, r, c++, sync);
        set_ap(t, r, c++, ap);
    }
    free(zero);
    return rc;
}

static const char *const components[] = {"computation", "communication", "synchronization",
                                         "sequential"};

static int bottleneck(pdl_gen *g, size_t machine, const uint64_t *procs, size_t nprocs,
                      const pdl_rows *rows, double ap)
{
    pdl_table *t = rows->t;
    unsigned char *zero = phase_flags(g);
    if (!zero)
        return -1;
    int rc = 0;
    uint64_t comm_from = 0;
    size_t first = pdl_table_rows(t);
    for (size_t i = 0; i < nprocs && rc == 0; i++) {
        uint64_t p = procs[i];
        split s;
        if ((rc = split_at(g, machine, p, zero, &s)) != 0)
            break;
        /* The component times add up to E[T(p)] (seed 002's non-overlapped model). */
        double tc[4] = {s.base - s.seq, s.full - s.nocomm, s.nocomm - s.base, s.seq};
        double sum = tc[0] + tc[1] + tc[2] + tc[3];
        size_t r = new_row(rows);
        if (r == (size_t)-1) {
            rc = pdl_gen_nomem(g);
            break;
        }
        size_t c = rows->col0, worst = 0;
        double worst_b = -1;
        pdl_table_set_num(t, r, c++, (double)p);
        for (int k = 0; k < 4; k++)
            pdl_table_set_num(t, r, c++, tc[k]);
        /* B-ratio: a component over the sum of the others; undefined (left empty) when the
           others are all 0. The bottleneck is the largest B-ratio. */
        for (int k = 0; k < 4; k++) {
            double others = sum - tc[k];
            if (others > 1e-12 * sum) {
                double b = tc[k] / others;
                pdl_table_set_num(t, r, c, b);
                if (b > worst_b) {
                    worst_b = b;
                    worst = (size_t)k;
                }
            } else if (tc[k] > 0) {
                worst_b = INFINITY;
                worst = (size_t)k;
            }
            c++;
        }
        if (tc[0] > 0)
            pdl_table_set_num(t, r, c, tc[1] / tc[0]);
        c++;
        pdl_table_set_str(t, r, c++, components[worst]);
        c++; /* comm_bottleneck_from, once it is known */
        set_ap(t, r, c++, ap);
        if (worst == 1 && !comm_from)
            comm_from = p;
    }
    free(zero);
    /* The smallest p (of those modelled) from which communication is the bottleneck, on every
       row of this machine; empty when it never is. */
    size_t col = rows->col0 + 11;
    for (size_t r = first; rc == 0 && comm_from && r < pdl_table_rows(t); r++)
        pdl_table_set_num(t, r, col, (double)comm_from);
    return rc;
}

/* ---- critical path ---- */

typedef struct path_rows {
    pdl_gen *g;
    const pdl_rows *rows;
    double ap;
    size_t step;
    int rc;
} path_rows;

static const char *kind_name(const pdl_program *prog, const pdl_path_step *s)
{
    if (s->phase == PDL_NONE)
        return s->kind == PDL_NODE_COMM ? "contention" : "barrier";
    const pdl_phase *ph = prog->phases[s->phase];
    switch (s->kind) {
    case PDL_NODE_COMM:
        return "message";
    case PDL_NODE_ARRIVAL:
        return "arrival";
    case PDL_NODE_SYNC:
        return ph->kind == PDL_PH_SYNCHRONIZATION ? "synchronization" : "fork-join";
    default:
        return ph->kind == PDL_PH_SEQUENTIAL ? "sequential" : "work";
    }
}

/* One row per run of steps of the same phase, kind and processor (a chain of units on one
 * processor is one row). */
static void path_step_rows(void *arg, const pdl_path_step *steps, size_t n, double times)
{
    path_rows *pr = arg;
    const pdl_program *prog = pdl_gen_checked(pr->g)->prog;
    for (size_t i = 0; i < n && pr->rc == 0;) {
        size_t j = i;
        double mean = 0;
        while (j < n && steps[j].phase == steps[i].phase && steps[j].kind == steps[i].kind &&
               steps[j].proc == steps[i].proc && steps[j].task == steps[i].task) {
            mean += steps[j].mean;
            j++;
        }
        const pdl_path_step *s = &steps[i];
        size_t r = new_row(pr->rows);
        if (r == (size_t)-1) {
            pr->rc = pdl_gen_nomem(pr->g);
            return;
        }
        size_t c = pr->rows->col0;
        pdl_table *t = pr->rows->t;
        pdl_table_set_num(t, r, c++, (double)++pr->step);
        pdl_table_set_str(t, r, c++, s->phase == PDL_NONE ? "" : prog->phases[s->phase]->name);
        pdl_table_set_str(t, r, c++, kind_name(prog, s));
        if (s->proc != PDL_NONE)
            pdl_table_set_num(t, r, c, (double)s->proc);
        c++;
        if (s->task != PDL_NONE && s->phase != PDL_NONE)
            pdl_table_set_str(t, r, c, prog->phases[s->phase]->tasks[s->task].name);
        c++;
        pdl_table_set_num(t, r, c++, times);
        pdl_table_set_num(t, r, c++, mean);
        pdl_table_set_num(t, r, c++, pr->ap);
        i = j;
    }
}

static int critical_path(pdl_gen *g, size_t machine, const pdl_rows *rows, double ap)
{
    path_rows pr = {g, rows, ap, 0, 0};
    pdl_generic_opts o = {
        .want = PDL_WANT_CPM, .threads = 1, .path = path_step_rows, .path_arg = &pr};
    pdl_generic_result r;
    if (free_generic(g, machine, &o, &r) != 0)
        return -1;
    return pr.rc;
}

int pdl_analysis_rows(pdl_gen *g, pdl_report_kind k, size_t machine, const uint64_t *procs,
                      size_t nprocs, const pdl_rows *rows)
{
    double ap;
    pdl_gen_set_mean_only(g, 1);
    if (k == PDL_REPORT_CRITICAL_PATH) {
        /* the path needs the generic model itself: no generic model, no report */
        if (pdl_average_parallelism(g, machine, &ap) != 0)
            return -1;
    } else {
        ap = pdl_average_parallelism_or_nan(g, machine);
    }
    switch (k) {
    case PDL_REPORT_PROFILE:
        return profile(g, machine, procs, nprocs, rows, ap);
    case PDL_REPORT_LOSSES:
        return losses(g, machine, procs, nprocs, rows, ap);
    case PDL_REPORT_BOTTLENECK:
        return bottleneck(g, machine, procs, nprocs, rows, ap);
    case PDL_REPORT_CRITICAL_PATH:
        return critical_path(g, machine, rows, ap);
    default:
        return -1;
    }
}
