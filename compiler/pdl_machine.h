/* pdl_machine: a checked machine model (the ideal machine or one read with --machine) and the
 * costs it defines: message time from LogGP or a formula in bytes and hops, hops from the
 * topology, barrier time and contention as distributions in p. */
#ifndef PDL_MACHINE_H
#define PDL_MACHINE_H

#include "pdl_ast.h"
#include "pdl_expr.h"

#include <stdint.h>

typedef enum pdl_msg_model { PDL_MSG_NONE, PDL_MSG_LOGGP, PDL_MSG_FORMULA } pdl_msg_model;

typedef struct pdl_machine {
    const char *name;
    uint32_t file; /* source id of the machine file; 0 for the ideal machine */
    int ideal;
    double rtfactor;
    double sizes[PDL_T_COUNT];
    int shared_memory;
    pdl_msg_model msg;
    double L, o, g, G;        /* LOGGP */
    const pdl_expr *msg_time; /* MESSAGE TIME formula in bytes, hops (and p) */
    pdl_loc msg_loc;
    pdl_topology topology;
    uint64_t dims[2];           /* MESH / TORUS rows and columns */
    const pdl_dist *barrier;    /* NULL: no cost */
    const pdl_dist *contention; /* NULL: no cost */
} pdl_machine;

/* The ideal machine: RTFactor 1, default SIZEOFs, every communication, barrier and contention
 * cost zero; named "ideal". */
void pdl_machine_ideal(pdl_machine *m);

/* An environment with this machine's RTFactor and SIZEOF values. */
void pdl_machine_env(const pdl_machine *m, pdl_env *env);

/* Network distance between processors a and b (0-based, both < p) on the topology. Processors
 * fill a mesh or torus row by row. Returns -1 (and *why) when p does not fit the topology. */
int pdl_machine_hops(const pdl_machine *m, uint64_t p, uint64_t a, uint64_t b, double *hops,
                     const char **why);

/* Time of one message of `bytes` bytes over `hops` hops on p processors. Formula errors are
 * reported through d at the formula; returns -1 then. */
int pdl_machine_message_time(const pdl_machine *m, double bytes, double hops, double p, pdl_diag *d,
                             double *out);

#endif
