/* pdl_gen_neighbor: the scaled model of one iteration of a NEIGHBOR or NEIGHBOR-TORUS phase
 * (paper Figure 4): each processor updates its columns, then exchanges the volume with its
 * neighbours; the neighbour synchronisation between iterations becomes a barrier (pdl_gen.c). */
#include "pdl_gen.h"

#include <stdlib.h>
#include <string.h>

/* The columns, the BLOCK CYCLIC block size and the bytes a boundary exchange sends (0 without a
 * COMMUNICATION VOLUME). 0, or -1 (reported). */
static int sizes(pdl_gen *g, const pdl_phase *ph, const pdl_env *env, uint64_t *n, uint64_t *b,
                 double *bytes)
{
    *bytes = 0;
    if (pdl_gen_count(g, ph->units, env, "problem size", 0, PDL_MAX_COUNT, n) != 0 ||
        pdl_gen_block(g, ph, env, b) != 0)
        return -1;
    return ph->volume ? pdl_gen_eval(g, ph->volume, env, bytes) : 0;
}

int pdl_gen_neighbor(pdl_gen *g, const pdl_phase *ph, pdl_shares *out)
{
    uint64_t p = pdl_gen_p(g), n, b;
    pdl_env env;
    pdl_gen_env(g, &env);
    double bytes;
    if (sizes(g, ph, &env, &n, &b, &bytes) != 0)
        return -1;
    if (pdl_shares_init(g, out, p) != 0)
        return -1;
    uint64_t *counts = malloc(p * sizeof *counts);
    double *exch = calloc(p, sizeof *exch);
    sol_dist *x = NULL;
    int rc = counts && exch ? pdl_gen_dist(g, ph->runtime, &env, &x) : -1;
    if (rc == 0)
        pdl_gen_mapping_counts(ph->mapping, b, n, p, counts);
    /* The processors holding columns, in column order, exchange with the next and previous
       ones (and wrap around for the torus). Processors beyond the columns stay idle. */
    uint64_t active = n < p ? n : p;
    int torus = ph->scheme == PDL_S_NEIGHBOR_TORUS;
    for (uint64_t k = 0; rc == 0 && bytes > 0 && k < active && active > 1; k++) {
        uint64_t partner[2];
        size_t np = 0;
        if (k > 0)
            partner[np++] = k - 1;
        else if (torus && active > 2)
            partner[np++] = active - 1;
        if (k + 1 < active)
            partner[np++] = k + 1;
        else if (torus && active > 2)
            partner[np++] = 0;
        rc = pdl_gen_exchange(g, bytes, k, partner, np, ph->volume->loc, &exch[k]);
    }
    if (rc == 0)
        rc = pdl_gen_load_shares(g, x, counts, exch, ph->runtime->loc, out);
    if (x)
        sol_dist_free(x);
    free(counts);
    free(exch);
    if (rc != 0)
        pdl_shares_free(out);
    return rc;
}

/* Generic model of one iteration (models.md): unit j of this iteration starts after units j-1,
 * j, j+1 of the previous one and after the previous unit on its processor. With BLOCK columns a
 * processor's first column depends on the previous iteration's last column of processor k-1 and
 * its last column on the first of k+1; the columns between depend only on their own processor,
 * whose order already implies them, so they collapse exactly into one node:
 * first -> middle (c-2 columns) -> last. Other mappings, or a join from a different phase, use
 * processor-level neighbour arcs (pdl_seg_join). */
int pdl_graph_neighbor(pdl_gen *g, const pdl_phase *ph, pdl_segment *s, int join)
{
    uint64_t p = pdl_gen_p(g), n, b;
    pdl_env env;
    pdl_gen_env(g, &env);
    double bytes;
    if (sizes(g, ph, &env, &n, &b, &bytes) != 0)
        return -1;
    pdl_loc vat = ph->volume ? ph->volume->loc : ph->name_loc;
    uint64_t *counts = malloc(p * sizeof *counts);
    uint32_t *first = malloc(p * sizeof *first), *last = malloc(p * sizeof *last);
    sol_dist *x = NULL, *mid = NULL;
    uint64_t midc = 0;
    int rc = counts && first && last ? pdl_gen_dist(g, ph->runtime, &env, &x) : pdl_gen_nomem(g);
    if (rc == 0)
        pdl_gen_mapping_counts(ph->mapping, b, n, p, counts);
    int torus = ph->scheme == PDL_S_NEIGHBOR_TORUS || join == (int)PDL_J_TORUS ||
                join == (int)PDL_J_NEIGHBOR_TORUS;
    /* Unit-level arcs need the same columns on the same processors as the previous instance. */
    int unit_level = rc == 0 && !s->empty && s->sync_exit == PDL_NONE && s->prev == ph &&
                     ph->mapping == PDL_MAP_BLOCK && s->ncols == n &&
                     (join == (int)PDL_J_NEIGHBOR || join == (int)PDL_J_TORUS ||
                      join == (int)PDL_J_NEIGHBOR_TORUS);
    uint32_t tag = PDL_TAG(PDL_NODE_WORK, ph->index);
    uint64_t active = n < p ? n : p;
    for (uint64_t k = 0; k < p && rc == 0; k++) {
        first[k] = last[k] = PDL_NONE;
        if (!counts[k])
            continue;
        rc = pdl_seg_node_on(g, s, x, tag, k, PDL_NONE, &first[k]);
        last[k] = first[k];
        if (rc == 0 && counts[k] > 2) {
            if (!mid || midc != counts[k] - 2) {
                if (mid)
                    sol_dist_free(mid);
                mid = NULL;
                midc = counts[k] - 2;
                rc = pdl_gen_sum(g, x, midc, &mid);
            }
            uint32_t m = PDL_NONE;
            if (rc == 0)
                rc = pdl_seg_node_on(g, s, mid, tag, k, PDL_NONE, &m);
            if (rc == 0)
                rc = pdl_seg_arc(g, s, first[k], m);
            last[k] = m;
        }
        if (rc == 0 && counts[k] > 1) {
            uint32_t l;
            rc = pdl_seg_node_on(g, s, x, tag, k, PDL_NONE, &l);
            if (rc == 0)
                rc = pdl_seg_arc(g, s, last[k], l);
            last[k] = l;
        }
        if (rc != 0)
            break;
        if (!unit_level) {
            rc = pdl_seg_join(g, s, join, k, first[k], ph);
            continue;
        }
        /* first(k) after last(k) (processor order) and last(k-1); last(k) after first(k+1). */
        uint64_t left = k > 0 ? k - 1 : (torus && active > 2 ? active - 1 : PDL_NONE);
        uint64_t right = k + 1 < active ? k + 1 : (torus && active > 2 ? 0 : PDL_NONE);
        rc = pdl_seg_arc(g, s, s->exit[k], first[k]);
        if (rc == 0 && left != PDL_NONE)
            rc = pdl_seg_message(g, s, s->exit[left], left, first[k], k, bytes, ph->index, vat);
        if (rc == 0 && right != PDL_NONE)
            rc = pdl_seg_message(g, s, s->first[right], right, last[k], k, bytes, ph->index, vat);
    }
    if (rc == 0) {
        rc = pdl_seg_set_exits(g, s, last, PDL_NONE, ph);
        memcpy(s->first, first, p * sizeof *first);
        s->ncols = n;
    }
    if (mid)
        sol_dist_free(mid);
    if (x)
        sol_dist_free(x);
    free(counts);
    free(first);
    free(last);
    return rc;
}
