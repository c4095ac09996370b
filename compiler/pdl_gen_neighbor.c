/* pdl_gen_neighbor: the scaled model of one iteration of a NEIGHBOR or NEIGHBOR-TORUS phase
 * (paper Figure 4): each processor updates its columns, then exchanges the volume with its
 * neighbours; the neighbour synchronisation between iterations becomes a barrier (pdl_gen.c). */
#include "pdl_gen.h"

#include <stdlib.h>

int pdl_gen_neighbor(pdl_gen *g, const pdl_phase *ph, pdl_shares *out)
{
    uint64_t p = pdl_gen_p(g), n, b = 1;
    pdl_env env;
    pdl_gen_env(g, &env);
    if (pdl_gen_count(g, ph->units, &env, "problem size", 0, PDL_MAX_COUNT, &n) != 0)
        return -1;
    if (ph->block &&
        pdl_gen_count(g, ph->block, &env, "BLOCK CYCLIC block size", 1, PDL_MAX_COUNT, &b) != 0)
        return -1;
    double bytes = 0;
    if (ph->volume && pdl_gen_eval(g, ph->volume, &env, &bytes) != 0)
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
