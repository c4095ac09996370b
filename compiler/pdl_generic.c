/* pdl_generic: walks the execution pattern like pdl_gen.c but keeps the program's real
 * structure inside every run of work phases joined without a barrier: such a run is one task
 * graph, built by the schemes' pdl_graph_* builders and handed to the solver's bounds,
 * simulation and Markov chain. Around segments the program synchronises, so values add up. */
#include "pdl_generic.h"

#include "sol_bounds.h"
#include "sol_markov.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Residual size up to which the solver's greedy bound searches run. */
#define PDL_SEARCH_NODES 200
/* States up to which --method bounds first solves segments whose runtimes are all exponential
 * or Erlang exactly by the Markov chain (about 2 us per state: a few seconds at most). */
#define PDL_MARKOV_EXACT_STATES 3000000

/* Method bookkeeping: a solver method, or one of these. */
enum { M_EXACT = -1, M_MIXED = -2 };

/* What is known about the mean of a part of the program; every field is linear in the part. */
typedef struct gval {
    double lower, upper;
    int lower_m, upper_m;
    int exact;
    double sim, var; /* simulation estimate and its variance */
    double markov;
    double cpm; /* critical path of means */
} gval;

typedef struct walker {
    pdl_gen *g;
    const pdl_generic_opts *o;
    uint64_t segments; /* segments solved so far for this p (seeds) */
    double times;      /* how many times the part being walked runs, on average */
} walker;

static gval exact_value(double m)
{
    return (gval){m, m, M_EXACT, M_EXACT, 1, m, 0, m, m};
}

/* A closed part (a sequential or synchronization phase, a barrier) on the critical path. */
static gval closed_part(walker *w, uint32_t phase, int kind, double m, double times)
{
    if (w->o->closed)
        w->o->closed(w->o->segment_arg, phase, kind, m, w->times * times);
    if (w->o->path && m > 0) {
        pdl_path_step st = {phase, kind, PDL_NONE, PDL_NONE, m};
        w->o->path(w->o->path_arg, &st, 1, w->times * times);
    }
    return exact_value(m);
}

static int merge_method(int a, int b)
{
    if (a == M_EXACT)
        return b;
    if (b == M_EXACT || a == b)
        return a;
    return M_MIXED;
}

/* a + c b */
static void add_scaled(gval *a, const gval *b, double c)
{
    a->lower += c * b->lower;
    a->upper += c * b->upper;
    a->sim += c * b->sim;
    a->var += c * c * b->var;
    a->markov += c * b->markov;
    a->cpm += c * b->cpm;
    if (c != 0 && (!b->exact || b->lower_m != M_EXACT)) {
        a->lower_m = merge_method(a->lower_m, b->lower_m);
        a->upper_m = merge_method(a->upper_m, b->upper_m);
    }
    a->exact = a->exact && (b->exact || c == 0);
}

static int closed_mean(walker *w, const pdl_dist *d, double *m)
{
    pdl_env env;
    pdl_gen_env(w->g, &env);
    sol_dist *x;
    if (pdl_gen_dist(w->g, d, &env, &x) != 0)
        return -1;
    *m = sol_dist_mean(x);
    sol_dist_free(x);
    return 0;
}

static int barrier_mean(walker *w, double *m)
{
    sol_dist *x;
    if (pdl_gen_barrier(w->g, &x) != 0)
        return -1;
    *m = sol_dist_mean(x);
    sol_dist_free(x);
    return 0;
}

static int join_cost(walker *w, int kind, double *m)
{
    *m = 0;
    return kind == (int)PDL_J_BARRIER ? barrier_mean(w, m) : 0;
}

static int append(walker *w, pdl_segment *s, const pdl_phase *ph, int join)
{
    pdl_gen *g = w->g;
    pdl_gen_set_here(g, ph->name_loc);
    switch (ph->scheme) {
    case PDL_S_INDEPENDENT:
        return pdl_graph_independent(g, ph, s, join);
    case PDL_S_NEIGHBOR:
    case PDL_S_NEIGHBOR_TORUS:
        return pdl_graph_neighbor(g, ph, s, join);
    case PDL_S_MACROPIPELINE:
        return pdl_graph_macropipeline(g, ph, s, join);
    case PDL_S_FORK_JOIN:
        return pdl_graph_forkjoin(g, ph, s, join);
    case PDL_S_PAIRED:
        return pdl_graph_paired(g, ph, s, join);
    case PDL_S_ARBITRARY:
        return pdl_graph_arbitrary(g, ph, s, join);
    default:
        return -1;
    }
}

/* A segment under construction, with the mean of the contention nodes of its instances (each
 * instance's shared delay adds to the program's runtime). */
typedef struct openseg {
    int open;
    pdl_segment s;
    double contention;
} openseg;

static int instance(walker *w, openseg *os, const pdl_phase *ph, int join)
{
    if (!os->open) {
        if (pdl_segment_init(w->g, &os->s) != 0)
            return -1;
        os->open = 1;
        os->contention = 0;
        join = -1;
    }
    if (append(w, &os->s, ph, join) != 0)
        return -1;
    sol_dist *c;
    if (pdl_gen_contention(w->g, &c) != 0)
        return -1;
    os->contention += sol_dist_mean(c);
    sol_dist_free(c);
    return 0;
}

/* The error at the phase it concerns (if any), the solver's own "Markov chain: " prefix dropped,
 * and a note with p and what the method needs. */
static int markov_error(walker *w, pdl_loc at, const char *msg)
{
    static const char prefix[] = "Markov chain: ";
    if (strncmp(msg, prefix, sizeof prefix - 1) == 0)
        msg += sizeof prefix - 1;
    pdl_error(pdl_gen_diag(w->g), at, "cannot solve the model by a Markov chain: %s", msg);
    pdl_note(pdl_gen_diag(w->g), at,
             "for p = %llu; --method markov needs exponential or Erlang runtimes, no messages or "
             "barriers that take time, and a state space under the limit",
             (unsigned long long)pdl_gen_p(w->g));
    return -1;
}

/* The chain only has states for exponential phases: say which phase has a node it cannot take,
 * and what kind, before asking the solver (whose message knows only node numbers). */
static int markov_check(walker *w, const sol_graph *graph)
{
    const pdl_program *prog = pdl_gen_checked(w->g)->prog;
    for (uint32_t v = 0; v < sol_graph_node_count(graph); v++) {
        const sol_dist *d = sol_graph_node_dist(graph, v);
        uint64_t phases;
        double rate;
        if (sol_dist_erlang_params(d, &phases, &rate))
            continue;
        uint32_t tag = sol_graph_node_tag(graph, v), ph = PDL_TAG_PHASE(tag);
        const char *name = ph < prog->nphases ? prog->phases[ph]->name : "?";
        const char *law = sol_dist_law_name(d);
        char msg[256];
        if (PDL_TAG_KIND(tag) == PDL_NODE_COMM)
            snprintf(msg, sizeof msg, "phase '%s' sends messages that take time", name);
        else
            snprintf(msg, sizeof msg, "phase '%s' has a %s runtime", name,
                     law ? law : "non-exponential");
        return markov_error(w, ph < prog->nphases ? prog->phases[ph]->name_loc : (pdl_loc){0, 0, 0},
                            msg);
    }
    return 0;
}

/* The longest path of mean durations through a segment's graph (Kahn's order; O(N + A)), and
 * the path itself for the callback. */
static int segment_cpm(walker *w, const pdl_segment *s, double *cpm)
{
    const sol_graph *gr = s->graph;
    size_t n = sol_graph_node_count(gr), na = sol_graph_arc_count(gr);
    size_t *indeg = calloc(n, sizeof *indeg), *start = calloc(n + 1, sizeof *start);
    uint32_t *succ = malloc((na ? na : 1) * sizeof *succ), *order = malloc(n * sizeof *order);
    uint32_t *pred = malloc(n * sizeof *pred);
    double *len = calloc(n, sizeof *len);
    pdl_path_step *steps = malloc(n * sizeof *steps);
    int rc = 0;
    if (!indeg || !start || !succ || !order || !pred || !len || !steps) {
        rc = pdl_gen_nomem(w->g);
        goto done;
    }
    for (size_t i = 0; i < na; i++) {
        uint32_t a, b;
        sol_graph_arc(gr, i, &a, &b);
        start[a + 1]++;
        indeg[b]++;
    }
    for (size_t v = 0; v < n; v++)
        start[v + 1] += start[v];
    size_t *fill = calloc(n, sizeof *fill);
    for (size_t i = 0; fill && i < na; i++) {
        uint32_t a, b;
        sol_graph_arc(gr, i, &a, &b);
        succ[start[a] + fill[a]++] = b;
    }
    free(fill);
    size_t head = 0, tail = 0;
    for (uint32_t v = 0; v < n; v++) {
        pred[v] = PDL_NONE;
        if (!indeg[v])
            order[tail++] = v;
    }
    uint32_t best = 0;
    while (head < tail) {
        uint32_t v = order[head++];
        len[v] += sol_dist_mean(sol_graph_node_dist(gr, v));
        if (len[v] > len[best])
            best = v;
        for (size_t q = start[v]; q < start[v + 1]; q++) {
            uint32_t u = succ[q];
            if (len[v] > len[u] || pred[u] == PDL_NONE) {
                if (len[v] >= len[u]) {
                    len[u] = len[v];
                    pred[u] = v;
                }
            }
            if (--indeg[u] == 0)
                order[tail++] = u;
        }
    }
    *cpm = n ? len[best] : 0;
    if (w->o->path) {
        size_t k = 0;
        for (uint32_t v = best; v != PDL_NONE; v = pred[v]) {
            double m = sol_dist_mean(sol_graph_node_dist(gr, v));
            uint32_t tag = sol_graph_node_tag(gr, v);
            if (m <= 0 && PDL_TAG_KIND(tag) == PDL_NODE_SYNC)
                continue;
            steps[k++] = (pdl_path_step){PDL_TAG_PHASE(tag), (int)PDL_TAG_KIND(tag), s->proc[v],
                                         s->task[v], m};
        }
        for (size_t i = 0; i < k / 2; i++) { /* it was collected backwards */
            pdl_path_step t = steps[i];
            steps[i] = steps[k - 1 - i];
            steps[k - 1 - i] = t;
        }
        w->o->path(w->o->path_arg, steps, k, w->times);
    }
done:
    free(indeg);
    free(start);
    free(succ);
    free(order);
    free(pred);
    free(len);
    free(steps);
    return rc;
}

/* Solves a finished segment: its graph ends in one sink after every processor's last node. */
static int close_segment(walker *w, openseg *os, gval *out)
{
    *out = exact_value(0);
    if (!os->open)
        return 0;
    pdl_gen *g = w->g;
    sol_ctx *sc = pdl_gen_solver(g);
    pdl_segment *s = &os->s;
    int rc = 0;
    sol_dist *zero;
    uint32_t sink;
    rc = pdl_gen_point(g, 0, (pdl_loc){0, 0, 0}, &zero);
    if (rc == 0) {
        rc = pdl_seg_node(g, s, zero, PDL_TAG(PDL_NODE_SYNC, PDL_NONE), &sink);
        sol_dist_free(zero);
    }
    for (uint64_t k = 0; k < s->p && rc == 0; k++)
        if (s->exit[k] != PDL_NONE && (k == 0 || s->exit[k] != s->exit[k - 1]))
            rc = pdl_seg_arc(g, s, s->exit[k], sink);
    if (rc == 0)
        rc = pdl_seg_arc(g, s, s->source, sink);
    if (rc == 0 && w->o->segment)
        w->o->segment(w->o->segment_arg, s, w->times);
    gval v = exact_value(0);
    if (rc == 0 && (w->o->want & PDL_WANT_BOUNDS)) {
        sol_bounds_result r;
        sol_bounds_opts bo;
        sol_bounds_opts_default(&bo);
        /* The greedy searches cost O(N A) per step and up to A steps: worth it on the residuals
           of meshes like the paper's (under a hundred nodes), not on thousands of nodes, where
           Kleindorfer, Dodin and conditioning still run. */
        bo.search_nodes = PDL_SEARCH_NODES;
        bo.markov_states = w->o->exact_states ? w->o->exact_states : PDL_MARKOV_EXACT_STATES;
        if (sol_bounds_mean(sc, s->graph, &bo, &r) != SOL_OK) {
            rc = pdl_gen_solver_error(g, (pdl_loc){0, 0, 0});
        } else {
            v.lower = r.lower;
            v.upper = r.upper;
            v.exact = r.exact;
            /* exact by reduction needs no name; exact by the Markov chain keeps its own */
            int sp = r.exact && r.lower_method == SOL_BOUND_SP;
            v.lower_m = sp ? M_EXACT : (int)r.lower_method;
            v.upper_m = sp ? M_EXACT : (int)r.upper_method;
        }
    }
    if (rc == 0 && (w->o->want & PDL_WANT_SIM)) {
        sol_sim_result r;
        /* each segment its own stream, the same for every run of the same p */
        uint64_t seed = w->o->seed * 0x9E3779B97F4A7C15u + (++w->segments);
        if (sol_sim_run(sc, s->graph, w->o->samples, seed, w->o->threads, w->o->progress,
                        w->o->progress_arg, &r) != SOL_OK) {
            rc = pdl_gen_solver_error(g, (pdl_loc){0, 0, 0});
        } else {
            v.sim = r.mean;
            v.var = pow(r.ci95 / 1.959963984540054, 2);
        }
    }
    if (rc == 0 && (w->o->want & PDL_WANT_MARKOV))
        rc = markov_check(w, s->graph);
    if (rc == 0 && (w->o->want & PDL_WANT_MARKOV)) {
        size_t states;
        if (sol_markov_mean(sc, s->graph, w->o->markov_states, &v.markov, &states) != SOL_OK)
            rc = markov_error(w, (pdl_loc){0, 0, 0}, sol_ctx_message(sc));
    }
    if (rc == 0 && (w->o->want & PDL_WANT_CPM))
        rc = segment_cpm(w, s, &v.cpm);
    if (rc == 0) {
        gval c = closed_part(w, PDL_NONE, PDL_NODE_COMM, os->contention, 1);
        add_scaled(&v, &c, 1);
        *out = v;
    }
    pdl_segment_free(s);
    os->open = 0;
    return rc;
}

/* A work phase alone, or x ^ n of one joined to itself without a barrier: the instances that
 * extend a segment, and how consecutive ones join. 0 when the node is something else. */
static int extends(walker *w, const pdl_pat *p, const pdl_phase **ph, uint64_t *n, int *self)
{
    pdl_gen *g = w->g;
    if (p->kind == PDL_P_PHASE && p->phase->kind == PDL_PH_WORK) {
        *ph = p->phase;
        *n = 1;
        *self = (int)PDL_J_BARRIER;
        return 1;
    }
    if (p->kind == PDL_P_POW && p->kids[0]->kind == PDL_P_PHASE &&
        p->kids[0]->phase->kind == PDL_PH_WORK) {
        int kind = pdl_gen_join_kind(g, p->kids[0], p->kids[0]);
        if (kind == (int)PDL_J_BARRIER)
            return 0;
        pdl_env env;
        pdl_gen_env(g, &env);
        if (pdl_gen_count(g, p->arg, &env, "repetition count", 0, PDL_MAX_COUNT, n) != 0)
            return -1;
        *ph = p->kids[0]->phase;
        *self = kind;
        return 1;
    }
    return 0;
}

static int geval(walker *w, const pdl_pat *p, gval *out);

static int joins_segment(int kind)
{
    return kind == (int)PDL_J_SERIAL || kind == (int)PDL_J_NEIGHBOR || kind == (int)PDL_J_TORUS ||
           kind == (int)PDL_J_NEIGHBOR_TORUS;
}

static int gseq(walker *w, const pdl_pat *const *kids, size_t nkids, gval *out)
{
    pdl_gen *g = w->g;
    gval total = exact_value(0);
    openseg os = {0};
    const pdl_pat *prev = NULL;
    int rc = 0;
    for (size_t k = 0; k < nkids && rc == 0; k++) {
        const pdl_pat *kid = kids[k];
        double v;
        pdl_env env;
        pdl_gen_env(g, &env);
        if (kid->kind == PDL_P_POW && pdl_eval(kid->arg, &env, NULL, &v) == PDL_EVAL_OK && v == 0)
            continue; /* x ^ 0 vanishes */
        int kind = prev ? pdl_gen_join_kind(g, prev, kid) : PDL_JOIN_NONE;
        const pdl_phase *ph;
        uint64_t n;
        int self;
        int ext = extends(w, kid, &ph, &n, &self);
        if (ext < 0) {
            rc = -1;
            break;
        }
        if (ext && n == 0)
            continue;
        if (ext && os.open && joins_segment(kind)) {
            for (uint64_t i = 0; i < n && rc == 0; i++)
                rc = instance(w, &os, ph, i == 0 ? kind : self);
            prev = kid;
            continue;
        }
        gval seg, cost;
        double c;
        rc = close_segment(w, &os, &seg);
        if (rc == 0) {
            add_scaled(&total, &seg, 1);
            rc = join_cost(w, prev ? kind : PDL_JOIN_NONE, &c);
        }
        if (rc == 0) {
            cost = closed_part(w, PDL_NONE, PDL_NODE_SYNC, c, 1);
            add_scaled(&total, &cost, 1);
        }
        if (rc == 0 && ext) {
            for (uint64_t i = 0; i < n && rc == 0; i++)
                rc = instance(w, &os, ph, i == 0 ? -1 : self);
        } else if (rc == 0) {
            gval part;
            rc = geval(w, kid, &part);
            if (rc == 0)
                add_scaled(&total, &part, 1);
        }
        prev = kid;
    }
    gval seg;
    if (rc == 0 && (rc = close_segment(w, &os, &seg)) == 0)
        add_scaled(&total, &seg, 1);
    else if (os.open)
        pdl_segment_free(&os.s);
    *out = total;
    return rc;
}

static int geval(walker *w, const pdl_pat *p, gval *out)
{
    pdl_gen *g = w->g;
    pdl_env env;
    pdl_gen_env(g, &env);
    pdl_gen_set_here(g, p->loc);
    double m;
    *out = exact_value(0);
    switch (p->kind) {
    case PDL_P_PHASE:
        if (p->phase->kind == PDL_PH_WORK)
            return gseq(w, &p, 1, out);
        if (closed_mean(w, p->phase->runtime, &m) != 0)
            return -1;
        *out =
            closed_part(w, (uint32_t)p->phase->index,
                        p->phase->kind == PDL_PH_SEQUENTIAL ? PDL_NODE_WORK : PDL_NODE_SYNC, m, 1);
        return 0;
    case PDL_P_SYNC:
        if (barrier_mean(w, &m) != 0)
            return -1;
        *out = closed_part(w, PDL_NONE, PDL_NODE_SYNC, m, 1);
        return 0;
    case PDL_P_SEQ:
        return gseq(w, (const pdl_pat *const *)p->kids, p->nkids, out);
    case PDL_P_ALT:
        for (size_t k = 0; k < p->nkids; k++) {
            double wk = 1.0 / (double)p->nkids;
            gval part;
            if (p->weights[k] && pdl_gen_eval(g, p->weights[k], &env, &wk) != 0)
                return -1;
            double outer = w->times;
            w->times *= wk;
            int rc = geval(w, p->kids[k], &part);
            w->times = outer;
            if (rc != 0)
                return -1;
            add_scaled(out, &part, wk);
        }
        return 0;
    case PDL_P_POW: {
        const pdl_phase *ph;
        uint64_t n;
        int self;
        int ext = extends(w, p, &ph, &n, &self);
        if (ext < 0)
            return -1;
        if (ext)
            return gseq(w, &p, 1, out);
        if (pdl_gen_count(g, p->arg, &env, "repetition count", 0, PDL_MAX_COUNT, &n) != 0)
            return -1;
        gval one, cost;
        double c;
        if (n == 0)
            return 0;
        double outer = w->times;
        w->times *= (double)n;
        int rc = geval(w, p->kids[0], &one);
        w->times = outer;
        if (rc != 0 || join_cost(w, pdl_gen_join_kind(g, p->kids[0], p->kids[0]), &c) != 0)
            return -1;
        add_scaled(out, &one, (double)n);
        cost = closed_part(w, PDL_NONE, PDL_NODE_SYNC, c, (double)(n - 1));
        add_scaled(out, &cost, (double)(n - 1));
        return 0;
    }
    case PDL_P_STAR:
    case PDL_P_PLUS: {
        double q, c;
        gval body, cost;
        if (pdl_gen_eval(g, p->arg, &env, &q) != 0)
            return -1;
        /* E[x +[q]] = E[x]/(1-q) + E[join] q/(1-q); x *[q] is that with probability q */
        double f = p->kind == PDL_P_PLUS ? 1 : q;
        double outer = w->times;
        w->times *= f / (1 - q);
        int rc = geval(w, p->kids[0], &body);
        w->times = outer;
        if (rc != 0 || join_cost(w, pdl_gen_join_kind(g, p->kids[0], p->kids[0]), &c) != 0)
            return -1;
        add_scaled(out, &body, f / (1 - q));
        cost = closed_part(w, PDL_NONE, PDL_NODE_SYNC, c, f * q / (1 - q));
        add_scaled(out, &cost, f * q / (1 - q));
        return 0;
    }
    }
    return -1;
}

static const char *method_name(int m)
{
    if (m == M_EXACT)
        return sol_bound_method_name(SOL_BOUND_SP);
    if (m == M_MIXED)
        return "mixed";
    return sol_bound_method_name((sol_bound_method)m);
}

int pdl_generic_program(pdl_gen *g, size_t machine, uint64_t p, const pdl_generic_opts *o,
                        pdl_generic_result *out)
{
    memset(out, 0, sizeof *out);
    if (pdl_gen_begin(g, machine, p) != 0)
        return -1;
    walker w = {g, o, 0, 1.0};
    gval v;
    if (geval(&w, pdl_gen_pattern(g), &v) != 0)
        return -1;
    out->lower = v.lower;
    out->upper = v.upper;
    out->lower_method = method_name(v.lower_m);
    out->upper_method = method_name(v.upper_m);
    out->exact = v.exact;
    out->sim_mean = v.sim;
    out->sim_ci95 = 1.959963984540054 * sqrt(v.var);
    out->markov_mean = v.markov;
    out->cpm = v.cpm;
    return 0;
}
