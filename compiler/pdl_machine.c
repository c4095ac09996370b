/* pdl_machine: the cost functions of a machine model. The ideal machine makes every cost zero;
 * a real one gives message time (LogGP or a fitted formula), distances and barrier costs. */
#include "pdl_machine.h"

#include <math.h>
#include <string.h>

void pdl_machine_ideal(pdl_machine *m)
{
    memset(m, 0, sizeof *m);
    m->name = "ideal";
    m->ideal = 1;
    m->rtfactor = 1.0;
    pdl_env env;
    pdl_env_init(&env);
    memcpy(m->sizes, env.sizes, sizeof m->sizes);
    m->msg = PDL_MSG_NONE;
    m->topology = PDL_TOPO_FULL;
}

void pdl_machine_env(const pdl_machine *m, pdl_env *env)
{
    pdl_env_init(env);
    env->rtfactor = m->rtfactor;
    memcpy(env->sizes, m->sizes, sizeof env->sizes);
}

static uint64_t popcount64(uint64_t x)
{
    uint64_t n = 0;
    for (; x; x &= x - 1)
        n++;
    return n;
}

int pdl_machine_hops(const pdl_machine *m, uint64_t p, uint64_t a, uint64_t b, double *hops,
                     const char **why)
{
    if (a == b) {
        *hops = 0;
        return 0;
    }
    switch (m->topology) {
    case PDL_TOPO_FULL:
        *hops = 1;
        return 0;
    case PDL_TOPO_RING: {
        uint64_t d = a > b ? a - b : b - a;
        *hops = (double)(d < p - d ? d : p - d);
        return 0;
    }
    case PDL_TOPO_HYPERCUBE:
        *hops = (double)popcount64(a ^ b);
        return 0;
    case PDL_TOPO_MESH:
    case PDL_TOPO_TORUS: {
        uint64_t rows = m->dims[0], cols = m->dims[1];
        if (rows == 0 || cols == 0 || p > rows * cols) {
            *why = m->topology == PDL_TOPO_MESH ? "mesh" : "torus";
            return -1;
        }
        uint64_t ra = a / cols, ca = a % cols, rb = b / cols, cb = b % cols;
        uint64_t dr = ra > rb ? ra - rb : rb - ra, dc = ca > cb ? ca - cb : cb - ca;
        if (m->topology == PDL_TOPO_TORUS) {
            if (rows - dr < dr)
                dr = rows - dr;
            if (cols - dc < dc)
                dc = cols - dc;
        }
        *hops = (double)(dr + dc);
        return 0;
    }
    }
    *hops = 1;
    return 0;
}

int pdl_machine_message_time(const pdl_machine *m, double bytes, double hops, double p, pdl_diag *d,
                             double *out)
{
    if (bytes <= 0) {
        *out = 0;
        return 0;
    }
    switch (m->msg) {
    case PDL_MSG_NONE:
        *out = 0;
        return 0;
    case PDL_MSG_LOGGP:
        /* seeds/004: a message of b bytes costs L + 2o + (b - 1)G end to end. */
        *out = m->L + 2 * m->o + (bytes - 1) * m->G;
        return 0;
    case PDL_MSG_FORMULA: {
        pdl_env env;
        pdl_machine_env(m, &env);
        env.scope = PDL_SCOPE_P | PDL_SCOPE_MSG;
        env.bytes = bytes;
        env.hops = hops;
        env.p = p;
        double t;
        pdl_eval_status s = pdl_eval(m->msg_time, &env, d, &t);
        if (s != PDL_EVAL_OK) {
            if (s == PDL_EVAL_UNKNOWN && d)
                pdl_error(d, m->msg_loc, "MESSAGE TIME cannot be evaluated");
            return -1;
        }
        if (t < 0) {
            if (d)
                pdl_error(d, m->msg_loc,
                          "MESSAGE TIME is negative (%.10g) for %.10g bytes over %.10g hops", t,
                          bytes, hops);
            return -1;
        }
        *out = t;
        return 0;
    }
    }
    *out = 0;
    return 0;
}
