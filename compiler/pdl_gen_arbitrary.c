/* pdl_gen_arbitrary: the scaled model of an ARBITRARY phase: the task graph is list-scheduled
 * onto p processors (priority: longest remaining path of mean runtimes), processor order and
 * communication nodes are added, and the graph is solved - exactly when series-parallel, else by
 * the solver's upper bound (Kleindorfer's forward pass on what does not reduce). */
#include "pdl_gen.h"

#include "sol_bounds.h"
#include "sol_graph.h"

#include <stdlib.h>
#include <string.h>

typedef struct sched {
    size_t n;
    double *mean;  /* mean runtime of each task */
    double *prio;  /* bottom level: mean of the longest path from the task to an exit */
    size_t **pred; /* predecessor lists */
    size_t *npred;
    uint64_t *proc; /* processor a task was scheduled on */
    double *finish; /* its expected finish in the schedule */
    size_t *order;  /* tasks in order of scheduling */
} sched;

static void sched_free(sched *s)
{
    for (size_t t = 0; s->pred && t < s->n; t++)
        free(s->pred[t]);
    free(s->pred);
    free(s->npred);
    free(s->mean);
    free(s->prio);
    free(s->proc);
    free(s->finish);
    free(s->order);
}

/* Ready tasks, highest priority first (ties: definition order), in a binary heap. */
typedef struct ready {
    size_t *t;
    size_t n;
    const double *prio;
} ready;

static int higher(const ready *r, size_t a, size_t b)
{
    return r->prio[a] > r->prio[b] || (r->prio[a] == r->prio[b] && a < b);
}

static void ready_push(ready *r, size_t task)
{
    size_t i = r->n++;
    r->t[i] = task;
    while (i > 0 && higher(r, r->t[i], r->t[(i - 1) / 2])) {
        size_t tmp = r->t[i];
        r->t[i] = r->t[(i - 1) / 2];
        r->t[(i - 1) / 2] = tmp;
        i = (i - 1) / 2;
    }
}

static size_t ready_pop(ready *r)
{
    size_t top = r->t[0];
    r->t[0] = r->t[--r->n];
    for (size_t i = 0;;) {
        size_t l = 2 * i + 1, rr = l + 1, m = i;
        if (l < r->n && higher(r, r->t[l], r->t[m]))
            m = l;
        if (rr < r->n && higher(r, r->t[rr], r->t[m]))
            m = rr;
        if (m == i)
            break;
        size_t tmp = r->t[i];
        r->t[i] = r->t[m];
        r->t[m] = tmp;
        i = m;
    }
    return top;
}

/* Processors by the time they are free, as a heap of (time, processor) entries with lazy
 * deletion: a processor's time only grows, so an entry whose time is stale is dropped when it
 * reaches the top. */
typedef struct freeq {
    double *time;
    uint64_t *k;
    size_t n;
} freeq;

static int freeq_less(const freeq *q, size_t a, size_t b)
{
    return q->time[a] < q->time[b] || (q->time[a] == q->time[b] && q->k[a] < q->k[b]);
}

static void freeq_swap(freeq *q, size_t a, size_t b)
{
    double t = q->time[a];
    q->time[a] = q->time[b];
    q->time[b] = t;
    uint64_t k = q->k[a];
    q->k[a] = q->k[b];
    q->k[b] = k;
}

static void freeq_push(freeq *q, double time, uint64_t k)
{
    size_t i = q->n++;
    q->time[i] = time;
    q->k[i] = k;
    while (i > 0 && freeq_less(q, i, (i - 1) / 2)) {
        freeq_swap(q, i, (i - 1) / 2);
        i = (i - 1) / 2;
    }
}

static void freeq_pop(freeq *q)
{
    freeq_swap(q, 0, --q->n);
    for (size_t i = 0;;) {
        size_t l = 2 * i + 1, r = l + 1, m = i;
        if (l < q->n && freeq_less(q, l, m))
            m = l;
        if (r < q->n && freeq_less(q, r, m))
            m = r;
        if (m == i)
            return;
        freeq_swap(q, i, m);
        i = m;
    }
}

/* The processor free first. */
static uint64_t freeq_first(freeq *q, const double *free_at)
{
    while (q->time[0] != free_at[q->k[0]])
        freeq_pop(q);
    return q->k[0];
}

/* Earliest start of task t on processor k (expected times), messages included. */
static int est(pdl_gen *g, const sched *s, size_t t, uint64_t k, const double *free_at,
               double bytes, pdl_loc at, double *start)
{
    double st = free_at[k];
    for (size_t q = 0; q < s->npred[t]; q++) {
        size_t u = s->pred[t][q];
        double msg = 0;
        if (s->proc[u] != k && pdl_gen_message(g, bytes, s->proc[u], k, at, &msg) != 0)
            return -1;
        if (s->finish[u] + msg > st)
            st = s->finish[u] + msg;
    }
    *start = st;
    return 0;
}

/* List scheduling: take the ready task of highest priority and put it where it can start
 * first - on a processor that ran one of its predecessors (no message) or on the processor that
 * is free first. O(T log T + A) heap operations and start estimates. */
static int schedule(pdl_gen *g, const pdl_phase *ph, sched *s, double bytes, pdl_loc at)
{
    uint64_t p = pdl_gen_p(g);
    uint64_t procs = p < s->n ? p : s->n;
    double *free_at = calloc(procs ? procs : 1, sizeof *free_at);
    size_t *left = malloc(s->n * sizeof *left);
    ready r = {malloc(s->n * sizeof(size_t)), 0, s->prio};
    /* procs initial entries plus one per scheduled task */
    freeq fq = {malloc((procs + s->n + 1) * sizeof(double)),
                malloc((procs + s->n + 1) * sizeof(uint64_t)), 0};
    int rc = free_at && left && r.t && fq.time && fq.k ? 0 : pdl_gen_nomem(g);
    for (uint64_t k = 0; k < procs && rc == 0; k++)
        freeq_push(&fq, 0, k);
    for (size_t t = 0; t < s->n && rc == 0; t++) {
        left[t] = s->npred[t];
        if (!left[t])
            ready_push(&r, t);
    }
    for (size_t done = 0; done < s->n && rc == 0; done++) {
        size_t t = ready_pop(&r);
        uint64_t best = freeq_first(&fq, free_at);
        double best_start;
        rc = est(g, s, t, best, free_at, bytes, at, &best_start);
        for (size_t q = 0; q < s->npred[t] && rc == 0; q++) {
            uint64_t k = s->proc[s->pred[t][q]];
            double st;
            rc = est(g, s, t, k, free_at, bytes, at, &st);
            if (rc == 0 && (st < best_start || (st == best_start && k < best))) {
                best = k;
                best_start = st;
            }
        }
        if (rc != 0)
            break;
        s->proc[t] = best;
        s->finish[t] = best_start + s->mean[t];
        s->order[done] = t;
        free_at[best] = s->finish[t];
        freeq_push(&fq, free_at[best], best);
        for (size_t q = 0; q < ph->tasks[t].nsucc; q++)
            if (--left[ph->tasks[t].succ[q]] == 0)
                ready_push(&r, ph->tasks[t].succ[q]);
    }
    free(free_at);
    free(left);
    free(r.t);
    free(fq.time);
    free(fq.k);
    return rc;
}

/* Schedules ph on the current p and adds its tasks to the segment: task nodes, arcs (through a
 * message node when they cross processors), processor order, and the first task on each
 * processor joined to the previous instance. exit[k] receives each processor's last task. */
static int build(pdl_gen *g, const pdl_phase *ph, pdl_segment *seg, int join, uint32_t *exit)
{
    uint64_t p = pdl_gen_p(g);
    size_t n = ph->ntasks;
    pdl_env env;
    pdl_gen_env(g, &env);
    if (n > PDL_MAX_TASKS) {
        pdl_error(pdl_gen_diag(g), ph->name_loc, "phase '%s' has %zu tasks; the limit is %u",
                  ph->name, n, PDL_MAX_TASKS);
        return -1;
    }
    double bytes = 0;
    if (ph->volume && pdl_gen_eval(g, ph->volume, &env, &bytes) != 0)
        return -1;
    pdl_loc at = ph->volume ? ph->volume->loc : ph->name_loc;
    sched s = {n,
               calloc(n ? n : 1, sizeof(double)),
               calloc(n ? n : 1, sizeof(double)),
               calloc(n ? n : 1, sizeof(size_t *)),
               calloc(n ? n : 1, sizeof(size_t)),
               calloc(n ? n : 1, sizeof(uint64_t)),
               calloc(n ? n : 1, sizeof(double)),
               calloc(n ? n : 1, sizeof(size_t))};
    sol_dist **dist = calloc(n ? n : 1, sizeof *dist);
    uint32_t *id = malloc((n ? n : 1) * sizeof *id);
    int rc = s.mean && s.prio && s.pred && s.npred && s.proc && s.finish && s.order && dist && id
                 ? 0
                 : pdl_gen_nomem(g);
    for (size_t t = 0; t < n && rc == 0; t++) {
        rc = pdl_gen_dist(g, ph->tasks[t].dist, &env, &dist[t]);
        if (rc == 0)
            s.mean[t] = sol_dist_mean(dist[t]);
    }
    /* Predecessor lists, and bottom levels in reverse topological order. */
    for (size_t t = 0; t < n && rc == 0; t++) {
        s.pred[t] = malloc((ph->tasks[t].npred ? ph->tasks[t].npred : 1) * sizeof(size_t));
        if (!s.pred[t])
            rc = pdl_gen_nomem(g);
    }
    for (size_t t = 0; t < n && rc == 0; t++)
        for (size_t q = 0; q < ph->tasks[t].nsucc; q++) {
            size_t v = ph->tasks[t].succ[q];
            s.pred[v][s.npred[v]++] = t;
        }
    for (size_t k = n; k-- > 0 && rc == 0;) {
        size_t t = ph->topo[k];
        double below = 0;
        for (size_t q = 0; q < ph->tasks[t].nsucc; q++)
            if (s.prio[ph->tasks[t].succ[q]] > below)
                below = s.prio[ph->tasks[t].succ[q]];
        s.prio[t] = s.mean[t] + below;
    }
    if (rc == 0)
        rc = schedule(g, ph, &s, bytes, at);
    uint32_t tag = PDL_TAG(PDL_NODE_WORK, ph->index);
    for (size_t t = 0; t < n && rc == 0; t++)
        rc = pdl_seg_node_on(g, seg, dist[t], tag, s.proc[t], (uint32_t)t, &id[t]);
    for (size_t t = 0; t < n && rc == 0; t++)
        for (size_t q = 0; q < ph->tasks[t].nsucc && rc == 0; q++) {
            size_t v = ph->tasks[t].succ[q];
            rc = pdl_seg_message(g, seg, id[t], s.proc[t], id[v], s.proc[v], bytes, ph->index, at);
        }
    for (uint64_t k = 0; k < p; k++)
        exit[k] = PDL_NONE;
    for (size_t q = 0; q < n && rc == 0; q++) {
        size_t t = s.order[q];
        uint64_t k = s.proc[t];
        rc = exit[k] == PDL_NONE ? pdl_seg_join(g, seg, join, k, id[t], ph)
                                 : pdl_seg_arc(g, seg, exit[k], id[t]);
        exit[k] = id[t];
    }
    for (size_t t = 0; dist && t < n; t++)
        if (dist[t])
            sol_dist_free(dist[t]);
    free(dist);
    free(id);
    sched_free(&s);
    return rc;
}

int pdl_gen_arbitrary(pdl_gen *g, const pdl_phase *ph, pdl_shares *out)
{
    uint64_t p = pdl_gen_p(g);
    pdl_segment seg;
    if (pdl_segment_init(g, &seg) != 0)
        return -1;
    uint32_t *exit = malloc(p * sizeof *exit);
    sol_dist *total = NULL;
    int rc = exit ? build(g, ph, &seg, -1, exit) : pdl_gen_nomem(g);
    /* On more processors than the schedule uses the graph is the same for every p: the memo
       solves it once. */
    pdl_key key;
    pdl_key_init(&key);
    if (rc == 0) {
        pdl_key_add(&key, "arbitrary", 9);
        pdl_key_graph(&key, seg.graph);
    }
    /* exact when series-parallel, otherwise Kleindorfer's upper bound of what does not reduce */
    if (rc == 0 && !pdl_gen_memo_get(g, &key, &total)) {
        if (sol_bounds_upper_dist(pdl_gen_solver(g), seg.graph, &total) != SOL_OK)
            rc = pdl_gen_solver_error(g, ph->name_loc);
        else
            pdl_gen_memo_put(g, &key, total);
    }
    pdl_key_free(&key);
    if (rc == 0)
        rc = pdl_shares_closed(g, out, p, total);
    if (total)
        sol_dist_free(total);
    free(exit);
    pdl_segment_free(&seg);
    return rc;
}

int pdl_graph_arbitrary(pdl_gen *g, const pdl_phase *ph, pdl_segment *s, int join)
{
    uint32_t *exit = malloc(pdl_gen_p(g) * sizeof *exit);
    int rc = exit ? build(g, ph, s, join, exit) : pdl_gen_nomem(g);
    if (rc == 0)
        rc = pdl_seg_set_exits(g, s, exit, PDL_NONE, ph);
    free(exit);
    return rc;
}
