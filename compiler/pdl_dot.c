/* pdl_dot: draws the scaled model by walking the execution pattern as pdl_gen.c evaluates it (a
 * fragment of graph per pattern node, joined where eval_seq joins shares), and the generic model
 * from the segments and closed parts pdl_generic.c hands to its callbacks. */
#include "pdl_dot.h"

#include "pdl_generic.h"
#include "pdl_report.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

/* ---- text ---- */

/* A growing string; running out of memory is remembered and checked once at the end, so the
 * drawing code need not test every append. */
typedef struct text {
    char *s;
    size_t n, cap;
    int nomem;
} text;

static int reserve(text *t, size_t more)
{
    if (t->nomem)
        return -1;
    if (t->n + more + 1 <= t->cap)
        return 0;
    size_t cap = t->cap ? t->cap : 1024;
    while (cap < t->n + more + 1)
        cap *= 2;
    char *s = realloc(t->s, cap);
    if (!s) {
        t->nomem = 1;
        return -1;
    }
    t->s = s;
    t->cap = cap;
    return 0;
}

static void vput(text *t, const char *fmt, va_list ap) PDL_PRINTF(2, 0);

static void vput(text *t, const char *fmt, va_list ap)
{
    va_list again;
    va_copy(again, ap);
    int len = vsnprintf(NULL, 0, fmt, ap);
    if (len < 0)
        t->nomem = 1;
    else if (reserve(t, (size_t)len) == 0) {
        vsnprintf(t->s + t->n, t->cap - t->n, fmt, again);
        t->n += (size_t)len;
    }
    va_end(again);
}

static void put(text *t, const char *fmt, ...) PDL_PRINTF(2, 3);

static void put(text *t, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vput(t, fmt, ap);
    va_end(ap);
}

/* A DOT string: quotes and backslashes escaped, '\n' as DOT's centred line break, other
 * control bytes (which DOT would take literally and break the layout) as spaces. */
static void put_quoted(text *t, const char *s, size_t n)
{
    if (reserve(t, 2 * n + 2) != 0)
        return;
    t->s[t->n++] = '"';
    for (size_t k = 0; k < n; k++) {
        unsigned char c = (unsigned char)s[k];
        if (c == '"' || c == '\\') {
            t->s[t->n++] = '\\';
            t->s[t->n++] = (char)c;
        } else if (c == '\n') {
            t->s[t->n++] = '\\';
            t->s[t->n++] = 'n';
        } else {
            t->s[t->n++] = c < 0x20 || c == 0x7F ? ' ' : (char)c;
        }
    }
    t->s[t->n++] = '"';
    t->s[t->n] = '\0';
}

/* ---- the graph being written ---- */

typedef struct dot {
    pdl_gen *g;
    uint64_t p;
    text out;          /* the graph so far */
    text lab;          /* the label of the next node, edge or cluster */
    uint32_t nodes;    /* nodes written; node ids are n0, n1, ... */
    uint32_t clusters; /* clusters written */
    int depth;         /* cluster nesting, for indentation */
    int too_big;       /* a node beyond PDL_DOT_MAX_NODES was asked for */
    int failed;        /* an error was reported (generic callbacks) */
    uint32_t *mark;    /* distinct node sets: mark[id] == stamp when id is in the set */
    uint32_t stamp;
    uint32_t prev;     /* generic: the exit of the previous part, or PDL_NONE */
    uint32_t segments; /* generic: segments drawn */
} dot;

static void lab(dot *t, const char *fmt, ...) PDL_PRINTF(2, 3);

static void lab(dot *t, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vput(&t->lab, fmt, ap);
    va_end(ap);
}

static void indent(dot *t)
{
    put(&t->out, "%*s", 2 * (t->depth + 1), "");
}

/* `, label="..."` from the pending label (if any), which is then cleared. */
static void put_label(dot *t, int comma)
{
    if (t->lab.n == 0)
        return;
    put(&t->out, comma ? ", label=" : "label=");
    put_quoted(&t->out, t->lab.s, t->lab.n);
    t->lab.n = 0;
}

/* A node with the given attributes and the pending label; -1 (and too_big set) past the
 * limit. */
static int node(dot *t, const char *attrs, uint32_t *id)
{
    if (t->nodes >= PDL_DOT_MAX_NODES) {
        t->too_big = 1;
        t->lab.n = 0;
        return -1;
    }
    *id = t->nodes++;
    indent(t);
    put(&t->out, "n%u [%s", (unsigned)*id, attrs);
    put_label(t, 1);
    put(&t->out, "];\n");
    return 0;
}

/* An edge with optional attributes and the pending label. */
static void edge(dot *t, uint32_t from, uint32_t to, const char *attrs)
{
    indent(t);
    put(&t->out, "n%u -> n%u", (unsigned)from, (unsigned)to);
    if (attrs || t->lab.n) {
        put(&t->out, " [%s", attrs ? attrs : "");
        put_label(t, attrs != NULL);
        put(&t->out, "]");
    }
    put(&t->out, ";\n");
}

static void cluster_open(dot *t)
{
    indent(t);
    put(&t->out, "subgraph cluster_%u {\n", (unsigned)t->clusters++);
    t->depth++;
}

/* Closes a cluster, labelled by the pending label: a subgraph's attributes may come anywhere in
 * its body, so the label can say what drawing the body found out (a repetition that stays per
 * processor). */
static void cluster_close(dot *t)
{
    if (t->lab.n) {
        indent(t);
        put_label(t, 0);
        put(&t->out, ";\n");
    }
    t->depth--;
    indent(t);
    put(&t->out, "}\n");
}

static const char *num(char buf[32], double v)
{
    pdl_format_number(buf, 32, v);
    return buf;
}

static int is_zero(const sol_dist *d)
{
    return !sol_dist_is_lattice(d) && sol_dist_max_value(d) == 0;
}

/* ---- fragments of the scaled model ---- */

/* The drawing of a pattern node: where each processor enters and leaves it (per processor, or
 * one node for all when the array is NULL), the tails still to feed the next synchronisation,
 * and whether it is "pure" in pdl_gen.c's sense (work joined SERIAL, so a SERIAL successor
 * continues per processor). */
typedef struct frag {
    uint32_t *in, *out;
    uint32_t in1, out1;
    uint32_t *tails;
    size_t ntails;
    int pure;
} frag;

static void frag_single(frag *f, uint32_t in, uint32_t out)
{
    memset(f, 0, sizeof *f);
    f->in1 = in;
    f->out1 = out;
}

static void frag_free(frag *f)
{
    free(f->in);
    free(f->out);
    free(f->tails);
    memset(f, 0, sizeof *f);
}

/* The distinct nodes of f's entries (outs = 0) or exits and tails (outs = 1), in processor
 * order. The caller frees *list. O(p). */
static int ends(dot *t, const frag *f, int outs, uint32_t **list, size_t *n)
{
    const uint32_t *per = outs ? f->out : f->in;
    size_t most = (per ? (size_t)(t->p < t->nodes ? t->p : t->nodes) : 1) + (outs ? f->ntails : 0);
    *n = 0;
    *list = malloc(most * sizeof **list);
    if (!*list)
        return pdl_gen_nomem(t->g);
    if (++t->stamp == 0) {
        memset(t->mark, 0, PDL_DOT_MAX_NODES * sizeof *t->mark);
        t->stamp = 1;
    }
    if (!per) {
        (*list)[(*n)++] = outs ? f->out1 : f->in1;
    } else {
        for (uint64_t k = 0; k < t->p; k++) {
            uint32_t v = per[k];
            if (t->mark[v] != t->stamp) {
                t->mark[v] = t->stamp;
                (*list)[(*n)++] = v;
            }
        }
    }
    for (size_t k = 0; outs && k < f->ntails; k++)
        (*list)[(*n)++] = f->tails[k];
    return 0;
}

/* Edges from every exit (and tail) of a to every entry of b: through `join` when it is a node,
 * directly when one side is a single node, else through a point, so that m exits and n entries
 * cost m + n edges rather than m n. */
static int connect(dot *t, const frag *a, const frag *b, uint32_t join)
{
    uint32_t *from = NULL, *to = NULL;
    size_t nfrom = 0, nto = 0;
    int rc = ends(t, a, 1, &from, &nfrom);
    if (rc == 0)
        rc = ends(t, b, 0, &to, &nto);
    if (rc == 0 && join == PDL_NONE && nfrom > 1 && nto > 1)
        rc = node(t, "shape=point", &join);
    for (size_t i = 0; rc == 0 && i < nfrom; i++) {
        if (join != PDL_NONE) {
            edge(t, from[i], join, NULL);
            continue;
        }
        for (size_t j = 0; j < nto; j++)
            edge(t, from[i], to[j], NULL);
    }
    for (size_t j = 0; rc == 0 && join != PDL_NONE && j < nto; j++)
        edge(t, join, to[j], NULL);
    free(from);
    free(to);
    return rc;
}

/* One node standing for f's entries (outs = 0) or exits (outs = 1): the node itself when there
 * is one, else a point joined to all of them. */
static int single_end(dot *t, const frag *f, int outs, uint32_t *id)
{
    uint32_t *list;
    size_t n;
    if (ends(t, f, outs, &list, &n) != 0)
        return -1;
    int rc = 0;
    if (n == 1) {
        *id = list[0];
    } else if ((rc = node(t, "shape=point", id)) == 0) {
        for (size_t k = 0; k < n; k++)
            edge(t, outs ? list[k] : *id, outs ? *id : list[k], NULL);
    }
    free(list);
    return rc;
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

static int append_tails(dot *t, frag *dst, const uint32_t *tails, size_t n)
{
    if (n == 0)
        return 0;
    uint32_t *all = realloc(dst->tails, (dst->ntails + n) * sizeof *all);
    if (!all)
        return pdl_gen_nomem(t->g);
    memcpy(all + dst->ntails, tails, n * sizeof *all);
    dst->tails = all;
    dst->ntails += n;
    return 0;
}

/* a then b per processor (SERIAL between pure parts): an edge from a's exit of processor k to
 * b's entry of processor k, once per distinct pair. Consumes a and b into *res. */
static int join_serial(dot *t, frag *a, frag *b, frag *res)
{
    int rc = 0;
    if (!a->out && !b->in) {
        edge(t, a->out1, b->in1, NULL);
    } else {
        uint64_t *pairs = malloc(t->p * sizeof *pairs);
        if (!pairs)
            rc = pdl_gen_nomem(t->g);
        for (uint64_t k = 0; rc == 0 && k < t->p; k++)
            pairs[k] = (uint64_t)(a->out ? a->out[k] : a->out1) << 32 | (b->in ? b->in[k] : b->in1);
        if (rc == 0)
            qsort(pairs, t->p, sizeof *pairs, cmp_u64);
        for (uint64_t k = 0; rc == 0 && k < t->p; k++)
            if (k == 0 || pairs[k] != pairs[k - 1])
                edge(t, (uint32_t)(pairs[k] >> 32), (uint32_t)pairs[k], NULL);
        free(pairs);
    }
    if (rc == 0)
        rc = append_tails(t, a, b->tails, b->ntails);
    if (rc != 0) {
        frag_free(a);
        frag_free(b);
        return -1;
    }
    *res = *a;
    free(res->out);
    res->out = b->out;
    res->out1 = b->out1;
    res->pure = 1;
    b->out = NULL;
    frag_free(b);
    memset(a, 0, sizeof *a);
    return 0;
}

/* a, a synchronisation (through `join` when it is a node), then b. Consumes a and b. */
static int join_sync(dot *t, frag *a, frag *b, uint32_t join, frag *res)
{
    if (connect(t, a, b, join) != 0) {
        frag_free(a);
        frag_free(b);
        return -1;
    }
    memset(res, 0, sizeof *res);
    res->in = a->in;
    res->in1 = a->in1;
    res->out = b->out;
    res->out1 = b->out1;
    res->tails = b->tails;
    res->ntails = b->ntails;
    a->in = NULL;
    b->out = NULL;
    b->tails = NULL;
    frag_free(a);
    frag_free(b);
    return 0;
}

/* ---- the scaled model ---- */

/* One instance of a work phase as its scheme's shares plus the machine's contention, as
 * pdl_gen.c's phase_shares builds them. */
static int scheme_shares(pdl_gen *g, const pdl_phase *ph, pdl_shares *sh)
{
    memset(sh, 0, sizeof *sh);
    pdl_gen_set_here(g, ph->name_loc);
    int rc;
    switch (ph->scheme) {
    case PDL_S_INDEPENDENT:
        rc = pdl_gen_independent(g, ph, sh);
        break;
    case PDL_S_NEIGHBOR:
    case PDL_S_NEIGHBOR_TORUS:
        rc = pdl_gen_neighbor(g, ph, sh);
        break;
    case PDL_S_MACROPIPELINE:
        rc = pdl_gen_macropipeline(g, ph, sh);
        break;
    case PDL_S_FORK_JOIN:
        rc = pdl_gen_forkjoin(g, ph, sh);
        break;
    case PDL_S_PAIRED:
        rc = pdl_gen_paired(g, ph, sh);
        break;
    case PDL_S_ARBITRARY:
        rc = pdl_gen_arbitrary(g, ph, sh);
        break;
    default:
        rc = -1;
        break;
    }
    sol_dist *c = NULL;
    if (rc == 0)
        rc = pdl_gen_contention(g, &c);
    if (rc == 0 && !is_zero(c))
        rc = pdl_shares_add_tail(g, sh, c);
    if (c)
        sol_dist_free(c);
    if (rc != 0)
        pdl_shares_free(sh);
    return rc;
}

/* Up to three ranges of processors per group, then "...". */
enum { SHOWN_RANGES = 3 };

typedef struct span {
    uint64_t lo[SHOWN_RANGES], hi[SHOWN_RANGES], last;
    size_t n;
    int seen, more;
} span;

/* "P0-P3,P6 (5)\nmean 2" for each group, in group order. */
static int group_nodes(dot *t, const pdl_shares *sh, uint32_t *id)
{
    span *sp = calloc(sh->n, sizeof *sp);
    if (!sp)
        return pdl_gen_nomem(t->g);
    for (uint64_t k = 0; k < sh->p; k++) {
        span *s = &sp[sh->of[k]];
        if (s->seen && s->last + 1 == k) {
            if (!s->more)
                s->hi[s->n - 1] = k;
        } else if (s->n < SHOWN_RANGES) {
            s->lo[s->n] = s->hi[s->n] = k;
            s->n++;
        } else {
            s->more = 1;
        }
        s->seen = 1;
        s->last = k;
    }
    int rc = 0;
    for (size_t i = 0; i < sh->n && rc == 0; i++) {
        for (size_t r = 0; r < sp[i].n; r++) {
            lab(t, "%sP%llu", r ? "," : "", (unsigned long long)sp[i].lo[r]);
            if (sp[i].hi[r] > sp[i].lo[r])
                lab(t, "-P%llu", (unsigned long long)sp[i].hi[r]);
        }
        char m[32];
        lab(t, "%s (%llu)\nmean %s", sp[i].more ? ",..." : "", (unsigned long long)sh->mult[i],
            num(m, sol_dist_mean(sh->d[i])));
        rc = node(t, "shape=box", &id[i]);
    }
    free(sp);
    return rc;
}

/* A work phase occurrence: a cluster of its processor groups and tail. */
static int draw_work(dot *t, const pdl_phase *ph, frag *f)
{
    pdl_shares sh;
    if (scheme_shares(t->g, ph, &sh) != 0)
        return -1;
    memset(f, 0, sizeof *f);
    f->pure = 1;
    cluster_open(t);
    int busy = 0, rc = 0;
    char m[32];
    for (size_t k = 0; k < sh.n; k++)
        busy = busy || !is_zero(sh.d[k]);
    if (!busy && !is_zero(sh.tail)) {
        /* a synchronised result: the phase as one delay for all processors */
        uint32_t id;
        lab(t, "P0");
        if (t->p > 1)
            lab(t, "-P%llu", (unsigned long long)(t->p - 1));
        lab(t, " (%llu), synchronised\nmean %s", (unsigned long long)t->p,
            num(m, sol_dist_mean(sh.tail)));
        rc = node(t, "shape=box", &id);
        if (rc == 0) {
            frag_single(f, id, id);
            f->pure = 1;
        }
    } else {
        uint32_t *gid = malloc(sh.n * sizeof *gid);
        f->in = malloc(t->p * sizeof *f->in);
        f->out = malloc(t->p * sizeof *f->out);
        if (!gid || !f->in || !f->out)
            rc = pdl_gen_nomem(t->g);
        if (rc == 0 && sh.n > (size_t)(PDL_DOT_MAX_NODES - t->nodes)) {
            t->too_big = 1; /* before writing thousands of labels */
            rc = -1;
        }
        if (rc == 0)
            rc = group_nodes(t, &sh, gid);
        for (uint64_t k = 0; rc == 0 && k < t->p; k++)
            f->in[k] = f->out[k] = gid[sh.of[k]];
        if (rc == 0 && !is_zero(sh.tail)) {
            uint32_t tail;
            lab(t, "tail\nmean %s", num(m, sol_dist_mean(sh.tail)));
            rc = node(t, "shape=box, style=rounded", &tail);
            for (size_t k = 0; rc == 0 && k < sh.n; k++)
                edge(t, gid[k], tail, NULL);
            if (rc == 0)
                rc = append_tails(t, f, &tail, 1);
        }
        free(gid);
    }
    lab(t, "phase %s (%s)", ph->name, pdl_scheme_name(ph->scheme));
    cluster_close(t);
    pdl_shares_free(&sh);
    if (rc != 0)
        frag_free(f);
    return rc;
}

static int closed_mean(dot *t, const pdl_dist *d, double *m)
{
    pdl_env env;
    pdl_gen_env(t->g, &env);
    sol_dist *x;
    if (pdl_gen_dist(t->g, d, &env, &x) != 0)
        return -1;
    *m = sol_dist_mean(x);
    sol_dist_free(x);
    return 0;
}

/* An octagon with the machine's barrier mean, titled `what`. */
static int barrier_node(dot *t, const char *what, uint32_t *id)
{
    sol_dist *b;
    if (pdl_gen_barrier(t->g, &b) != 0)
        return -1;
    char m[32];
    lab(t, "%s\nmean %s", what, num(m, sol_dist_mean(b)));
    sol_dist_free(b);
    return node(t, "shape=octagon", id);
}

static int draw(dot *t, const pdl_pat *p, frag *f);

/* x ^ 0 vanishes from a series, as in pdl_gen.c. */
static int skipped(dot *t, const pdl_pat *kid)
{
    pdl_env env;
    pdl_gen_env(t->g, &env);
    double v;
    return kid->kind == PDL_P_POW && pdl_eval(kid->arg, &env, NULL, &v) == PDL_EVAL_OK && v == 0;
}

/* a -> b -> ...: consecutive pure parts joined SERIAL continue per processor; any other join
 * synchronises (through a barrier for BARRIER, a zero-cost join for the neighbour kinds), and
 * after a synchronisation nothing is pure any more (pdl_gen.c's eval_seq). */
static int draw_seq(dot *t, const pdl_pat *const *kids, size_t nkids, frag *f)
{
    const pdl_pat *prev = NULL;
    int have = 0;
    memset(f, 0, sizeof *f);
    for (size_t k = 0; k < nkids; k++) {
        const pdl_pat *kid = kids[k];
        if (skipped(t, kid))
            continue;
        int kind = prev ? pdl_gen_join_kind(t->g, prev, kid) : PDL_JOIN_NONE;
        frag v, cur;
        if (draw(t, kid, &v) != 0) {
            if (have)
                frag_free(f);
            return -1;
        }
        prev = kid;
        if (!have) {
            *f = v;
            have = 1;
            continue;
        }
        cur = *f;
        if (kind == (int)PDL_J_SERIAL && cur.pure && v.pure) {
            if (join_serial(t, &cur, &v, f) != 0)
                return -1;
            continue;
        }
        uint32_t join = PDL_NONE;
        int rc = 0;
        if (kind == (int)PDL_J_BARRIER) {
            rc = barrier_node(t, "barrier", &join);
        } else if (kind >= 0 && kind != (int)PDL_J_SERIAL) {
            lab(t, "join %s\nmean 0", pdl_concat_name((pdl_concat_kind)kind));
            rc = node(t, "shape=octagon", &join);
        }
        if (rc != 0) {
            frag_free(&cur);
            frag_free(&v);
            return -1;
        }
        if (join_sync(t, &cur, &v, join, f) != 0)
            return -1;
    }
    if (!have) {
        uint32_t id;
        if (node(t, "shape=point", &id) != 0)
            return -1;
        frag_single(f, id, id);
    }
    return 0;
}

static int draw_alt(dot *t, const pdl_pat *p, frag *f)
{
    pdl_env env;
    pdl_gen_env(t->g, &env);
    uint32_t branch, merge, *exits = malloc(p->nkids * sizeof *exits);
    if (!exits)
        return pdl_gen_nomem(t->g);
    lab(t, "branch");
    int rc = node(t, "shape=diamond", &branch);
    for (size_t k = 0; k < p->nkids && rc == 0; k++) {
        double w = 1.0 / (double)p->nkids;
        frag v;
        uint32_t in;
        if (p->weights[k] && pdl_gen_eval(t->g, p->weights[k], &env, &w) != 0)
            rc = -1;
        if (rc == 0)
            rc = draw(t, p->kids[k], &v);
        if (rc != 0)
            break;
        rc = single_end(t, &v, 0, &in);
        if (rc == 0) {
            char m[32];
            lab(t, "%s", num(m, w));
            edge(t, branch, in, NULL);
            rc = single_end(t, &v, 1, &exits[k]);
        }
        frag_free(&v);
    }
    if (rc == 0) {
        lab(t, "merge");
        rc = node(t, "shape=diamond", &merge);
    }
    for (size_t k = 0; k < p->nkids && rc == 0; k++)
        edge(t, exits[k], merge, NULL);
    free(exits);
    if (rc == 0)
        frag_single(f, branch, merge);
    return rc;
}

/* x ^ n: x drawn once in a cluster saying n and how the copies join. */
static int draw_pow(dot *t, const pdl_pat *p, frag *f)
{
    pdl_env env;
    pdl_gen_env(t->g, &env);
    uint64_t n;
    if (pdl_gen_count(t->g, p->arg, &env, "repetition count", 0, PDL_MAX_COUNT, &n) != 0)
        return -1;
    if (n == 0) {
        uint32_t id;
        lab(t, "nothing (^ 0)");
        if (node(t, "shape=plaintext", &id) != 0)
            return -1;
        frag_single(f, id, id);
        return 0;
    }
    int kind = pdl_gen_join_kind(t->g, p->kids[0], p->kids[0]);
    cluster_open(t);
    if (draw(t, p->kids[0], f) != 0)
        return -1;
    lab(t, "\xC3\x97 %llu", (unsigned long long)n); /* U+00D7 MULTIPLICATION SIGN */
    if (n > 1 && kind == (int)PDL_J_BARRIER) {
        sol_dist *b;
        if (pdl_gen_barrier(t->g, &b) != 0) {
            frag_free(f);
            return -1;
        }
        char m[32];
        lab(t, ", copies joined BARRIER (mean %s)", num(m, sol_dist_mean(b)));
        sol_dist_free(b);
    } else if (n > 1 && kind >= 0) {
        lab(t, ", copies joined %s%s", pdl_concat_name((pdl_concat_kind)kind),
            f->pure && kind == (int)PDL_J_SERIAL ? " per processor" : "");
    }
    /* Only x ^ n of pure x joined SERIAL stays per processor (pdl_gen.c's eval_pow). */
    f->pure = f->pure && kind == (int)PDL_J_SERIAL;
    cluster_close(t);
    return 0;
}

/* x +[q] and x *[q]: x between two points with a back edge of probability q; *[q] can also
 * bypass x. */
static int draw_loop(dot *t, const pdl_pat *p, frag *f)
{
    pdl_env env;
    pdl_gen_env(t->g, &env);
    double q;
    if (pdl_gen_eval(t->g, p->arg, &env, &q) != 0)
        return -1;
    int kind = pdl_gen_join_kind(t->g, p->kids[0], p->kids[0]);
    int star = p->kind == PDL_P_STAR;
    char m[32];
    uint32_t entry = PDL_NONE, body, end, done = PDL_NONE;
    frag v;
    cluster_open(t);
    int rc = star ? node(t, "shape=point", &entry) : 0;
    if (rc == 0)
        rc = node(t, "shape=point", &body);
    if (rc == 0)
        rc = draw(t, p->kids[0], &v);
    if (rc != 0)
        return -1;
    frag start;
    frag_single(&start, body, body);
    rc = connect(t, &start, &v, PDL_NONE);
    if (rc == 0)
        rc = single_end(t, &v, 1, &end);
    frag_free(&v);
    if (rc == 0 && kind == (int)PDL_J_BARRIER) {
        uint32_t bar;
        rc = barrier_node(t, "barrier", &bar);
        if (rc == 0) {
            lab(t, "q = %s", num(m, q));
            edge(t, end, bar, "style=dashed, constraint=false");
            edge(t, bar, body, "style=dashed, constraint=false");
        }
    } else if (rc == 0) {
        lab(t, "q = %s", num(m, q));
        edge(t, end, body, "style=dashed, constraint=false");
    }
    if (rc == 0 && star) {
        rc = node(t, "shape=point", &done);
        if (rc == 0) {
            lab(t, "q = %s", num(m, q));
            edge(t, entry, body, NULL);
            lab(t, "1 - q = %s", num(m, 1 - q));
            edge(t, entry, done, "style=dashed");
            edge(t, end, done, NULL);
        }
    }
    lab(t, "%s[%s]", star ? "*" : "+", num(m, q));
    cluster_close(t);
    if (rc == 0)
        frag_single(f, star ? entry : body, star ? done : end);
    return rc;
}

/* A pattern node as a fragment (pdl_gen.c's eval). */
static int draw(dot *t, const pdl_pat *p, frag *f)
{
    uint32_t id;
    double mean;
    char m[32];
    memset(f, 0, sizeof *f);
    pdl_gen_set_here(t->g, p->loc);
    switch (p->kind) {
    case PDL_P_PHASE:
        if (p->phase->kind == PDL_PH_WORK)
            return draw_work(t, p->phase, f);
        if (closed_mean(t, p->phase->runtime, &mean) != 0)
            return -1;
        lab(t, "%s\n%s\nmean %s", p->phase->name,
            p->phase->kind == PDL_PH_SEQUENTIAL ? "sequential" : "synchronization", num(m, mean));
        if (node(t, p->phase->kind == PDL_PH_SEQUENTIAL ? "shape=ellipse" : "shape=octagon", &id) !=
            0)
            return -1;
        frag_single(f, id, id);
        return 0;
    case PDL_P_SYNC:
        if (barrier_node(t, "SYNC", &id) != 0)
            return -1;
        frag_single(f, id, id);
        return 0;
    case PDL_P_SEQ:
        return draw_seq(t, (const pdl_pat *const *)p->kids, p->nkids, f);
    case PDL_P_ALT:
        return draw_alt(t, p, f);
    case PDL_P_POW:
        return draw_pow(t, p, f);
    case PDL_P_STAR:
    case PDL_P_PLUS:
        return draw_loop(t, p, f);
    }
    return -1;
}

static const char *program_name(const dot *t)
{
    return pdl_gen_checked(t->g)->prog->name;
}

static void header(dot *t, int generic)
{
    put(&t->out, "digraph \"pdl\" {\n  graph [");
    lab(t, "%s: %s model on %llu processor%s of machine '%s'", program_name(t),
        generic ? "generic" : "scaled", (unsigned long long)t->p, t->p == 1 ? "" : "s",
        pdl_gen_machine(t->g)->name);
    if (generic)
        lab(t, "\nparts in pattern order, each with its expected runs; the mean is the sum of "
               "runs \xC3\x97 mean");
    put_label(t, 0);
    put(&t->out, ", labelloc=t, fontsize=12];\n  node [fontsize=10];\n  edge [fontsize=9];\n");
}

static int draw_scaled(dot *t, size_t machine)
{
    /* Solving first reports every error the model has exactly as pdlc's run would, and gives
       the mean for the end node. */
    sol_dist *total;
    if (pdl_gen_program(t->g, machine, t->p, &total) != 0)
        return -1;
    double mean = sol_dist_mean(total);
    sol_dist_free(total);
    if (pdl_gen_begin(t->g, machine, t->p) != 0)
        return -1;
    header(t, 0);
    uint32_t start, end;
    frag f, a, b;
    char m[32];
    lab(t, "start");
    if (node(t, "shape=circle", &start) != 0 || draw(t, pdl_gen_pattern(t->g), &f) != 0)
        return -1;
    lab(t, "end\nmean %s", num(m, mean));
    int rc = node(t, "shape=box, style=rounded, peripheries=2", &end);
    frag_single(&a, start, start);
    frag_single(&b, end, end);
    if (rc == 0)
        rc = connect(t, &a, &f, PDL_NONE);
    if (rc == 0)
        rc = connect(t, &f, &b, PDL_NONE);
    frag_free(&f);
    put(&t->out, "}\n");
    return rc;
}

/* ---- the generic model ---- */

static const char *kind_name(uint32_t kind)
{
    static const char *const names[] = {"work", "message", "sync", "arrival"};
    return kind < sizeof names / sizeof *names ? names[kind] : "?";
}

static const char *kind_shape(uint32_t kind)
{
    static const char *const shapes[] = {"shape=box", "shape=ellipse", "shape=octagon",
                                         "shape=invhouse"};
    return kind < sizeof shapes / sizeof *shapes ? shapes[kind] : "shape=box";
}

/* Keeps the parts in pattern order from top to bottom without claiming a precedence the
 * generic model does not have (the parts' means add up, weighted by their runs). */
static void order_edge(dot *t, uint32_t first, uint32_t last)
{
    if (t->prev != PDL_NONE)
        edge(t, t->prev, first, "style=invis");
    t->prev = last;
}

static void on_segment(void *arg, const pdl_segment *s, double times)
{
    dot *t = arg;
    if (t->too_big || t->failed)
        return;
    const sol_graph *gr = s->graph;
    const pdl_program *prog = pdl_gen_checked(t->g)->prog;
    size_t n = sol_graph_node_count(gr), na = sol_graph_arc_count(gr);
    if (n > (size_t)(PDL_DOT_MAX_NODES - t->nodes)) {
        t->too_big = 1;
        return;
    }
    unsigned char *named = calloc(prog->nphases ? prog->nphases : 1, 1);
    if (!named) {
        t->failed = 1;
        pdl_gen_nomem(t->g);
        return;
    }
    uint32_t base = t->nodes;
    char m[32];
    cluster_open(t);
    for (uint32_t v = 0; v < n; v++) {
        uint32_t tag = sol_graph_node_tag(gr, v), kind = PDL_TAG_KIND(tag);
        uint32_t ph = PDL_TAG_PHASE(tag), id;
        double mean = sol_dist_mean(sol_graph_node_dist(gr, v));
        if (kind == PDL_NODE_SYNC && ph >= prog->nphases && mean == 0) {
            node(t, "shape=point", &id); /* the segment's source and sink */
            continue;
        }
        lab(t, "%s", ph < prog->nphases ? prog->phases[ph]->name : "-");
        if (ph < prog->nphases && s->task[v] != PDL_NONE && s->task[v] < prog->phases[ph]->ntasks)
            lab(t, "\ntask %s", prog->phases[ph]->tasks[s->task[v]].name);
        lab(t, "\n%s", kind_name(kind));
        if (s->proc[v] != PDL_NONE)
            lab(t, ", P%llu", (unsigned long long)s->proc[v]);
        lab(t, "\nmean %s", num(m, mean));
        node(t, kind_shape(kind), &id);
    }
    for (size_t i = 0; i < na; i++) {
        uint32_t a, b;
        sol_graph_arc(gr, i, &a, &b);
        edge(t, base + a, base + b, NULL);
    }
    /* the cluster's title: the phases it holds, in order of appearance */
    lab(t, "segment %u:", (unsigned)++t->segments);
    for (uint32_t v = 0, first = 1; v < n; v++) {
        uint32_t ph = PDL_TAG_PHASE(sol_graph_node_tag(gr, v));
        if (ph < prog->nphases && !named[ph]) {
            named[ph] = 1;
            lab(t, "%s %s", first ? "" : ",", prog->phases[ph]->name);
            first = 0;
        }
    }
    lab(t, "\nexpected runs %s", num(m, times));
    cluster_close(t);
    free(named);
    order_edge(t, base + s->source, base + (uint32_t)n - 1);
}

static void on_closed(void *arg, uint32_t phase, int kind, double mean, double times)
{
    dot *t = arg;
    const pdl_program *prog = pdl_gen_checked(t->g)->prog;
    if (t->too_big || t->failed || (phase >= prog->nphases && mean == 0))
        return;
    char m[32], r[32];
    uint32_t id;
    const char *shape = "shape=octagon";
    if (phase < prog->nphases) {
        lab(t, "%s\n%s", prog->phases[phase]->name,
            kind == PDL_NODE_WORK ? "sequential" : "synchronization");
        if (kind == PDL_NODE_WORK)
            shape = "shape=ellipse";
    } else {
        lab(t, "%s", kind == PDL_NODE_COMM ? "contention" : "barrier");
    }
    lab(t, "\nmean %s\nexpected runs %s", num(m, mean), num(r, times));
    if (node(t, shape, &id) == 0)
        order_edge(t, id, id);
}

static int draw_generic(dot *t, size_t machine)
{
    if (pdl_gen_begin(t->g, machine, t->p) != 0)
        return -1;
    header(t, 1);
    /* Nothing to solve: the walk alone hands over every part. */
    pdl_generic_opts o = {.want = 0, .segment = on_segment, .segment_arg = t, .closed = on_closed};
    pdl_generic_result r;
    if (pdl_generic_program(t->g, machine, t->p, &o, &r) != 0 || t->failed)
        return -1;
    put(&t->out, "}\n");
    return 0;
}

int pdl_dot_write(pdl_gen *g, size_t machine, uint64_t p, int generic, FILE *out)
{
    dot t = {.g = g, .p = p, .prev = PDL_NONE};
    t.mark = calloc(PDL_DOT_MAX_NODES, sizeof *t.mark);
    int rc = t.mark ? 0 : pdl_gen_nomem(g);
    if (rc == 0)
        rc = generic ? draw_generic(&t, machine) : draw_scaled(&t, machine);
    if (t.too_big) {
        pdl_diag *d = pdl_gen_diag(g);
        pdl_error(d, (pdl_loc){0, 0, 0},
                  "the %s model on %llu processors has more than %d nodes to draw",
                  generic ? "generic" : "scaled", (unsigned long long)p, PDL_DOT_MAX_NODES);
        pdl_note(d, (pdl_loc){0, 0, 0}, "use fewer processors or a smaller problem");
        rc = -1;
    } else if (rc == 0 && (t.out.nomem || t.lab.nomem)) {
        rc = pdl_gen_nomem(g);
    }
    if (rc == 0 && (fwrite(t.out.s, 1, t.out.n, out) != t.out.n || ferror(out)))
        rc = -1;
    free(t.out.s);
    free(t.lab.s);
    free(t.mark);
    return rc;
}
