/* pdl_ast: the tree the parser builds for a PDL program or a machine model file.
 * Every node lives in the parse arena and carries the byte range it came from; the checker
 * fills the "resolved" fields, after which the generator reads only resolved data. */
#ifndef PDL_AST_H
#define PDL_AST_H

#include "pdl_arena.h"
#include "pdl_diag.h"

#include <stdio.h>

/* ---- expressions ---- */
typedef enum pdl_expr_kind {
    PDL_E_NUM,      /* number literal */
    PDL_E_VAR,      /* variable or built-in name (p, i, j, bytes, hops, ...) */
    PDL_E_RTFACTOR, /* the machine's run-time factor */
    PDL_E_SIZEOF,   /* SIZEOF(type) */
    PDL_E_NEG,      /* unary minus */
    PDL_E_NOT,      /* logical not */
    PDL_E_BINARY,   /* a op b */
    PDL_E_COND,     /* c ? a : b */
    PDL_E_CALL      /* built-in function */
} pdl_expr_kind;

typedef enum pdl_binop {
    PDL_OP_ADD,
    PDL_OP_SUB,
    PDL_OP_MUL,
    PDL_OP_DIV,
    PDL_OP_MOD,
    PDL_OP_LT,
    PDL_OP_LE,
    PDL_OP_GT,
    PDL_OP_GE,
    PDL_OP_EQ,
    PDL_OP_NE,
    PDL_OP_AND,
    PDL_OP_OR
} pdl_binop;

typedef enum pdl_ctype {
    PDL_T_INT,
    PDL_T_FLOAT,
    PDL_T_DOUBLE,
    PDL_T_CHAR,
    PDL_T_LONG,
    PDL_T_COUNT
} pdl_ctype;

/* Resolved meaning of a VAR node (set by the checker; evaluation is then a lookup). */
typedef enum pdl_builtin_var {
    PDL_V_UNRESOLVED = 0,
    PDL_V_P,
    PDL_V_I,
    PDL_V_J,
    PDL_V_BYTES,
    PDL_V_HOPS,
    PDL_V_BINDING
} pdl_builtin_var;

typedef struct pdl_expr pdl_expr;
struct pdl_expr {
    pdl_expr_kind kind;
    pdl_loc loc;
    unsigned depth;      /* operators below this one on the longest path (0 for a leaf) */
    pdl_builtin_var var; /* VAR: what the name refers to */
    size_t slot;         /* VAR with PDL_V_BINDING: index into the checked bindings */
    union {
        double num;
        const char *name;  /* VAR */
        pdl_ctype ctype;   /* SIZEOF */
        pdl_expr *operand; /* NEG, NOT */
        struct {
            pdl_binop op;
            pdl_loc op_loc;
            pdl_expr *a, *b;
        } bin;
        struct {
            pdl_expr *c, *a, *b;
        } cond;
        struct {
            const char *name;
            pdl_loc name_loc;
            pdl_expr **args;
            size_t nargs;
        } call;
    } u;
};

/* ---- distributions ---- */
typedef enum pdl_dist_kind {
    PDL_D_UNKNOWN, /* not yet resolved (or unknown name: an error) */
    PDL_D_DETERMINISTIC,
    PDL_D_EXPONENTIAL,
    PDL_D_ERLANG,
    PDL_D_GAMMA,
    PDL_D_UNIFORM,
    PDL_D_NORMAL,
    PDL_D_LOGNORMAL,
    PDL_D_WEIBULL,
    PDL_D_HYPEREXPONENTIAL,
    PDL_D_NUMERICAL
} pdl_dist_kind;

typedef struct pdl_arg {
    pdl_loc loc;
    pdl_expr *expr;  /* an expression argument, or */
    const char *str; /* a string argument (NUMERICAL's file name), unquoted */
} pdl_arg;

typedef struct pdl_dist {
    pdl_loc loc;
    const char *name;
    pdl_loc name_loc;
    pdl_arg *args;
    size_t nargs;
    pdl_dist_kind kind; /* resolved by the checker */
    /* NUMERICAL: the file's data for each machine of the run ($ARCH may differ). */
    const struct pdl_numdata **numeric;
} pdl_dist;

/* ---- execution pattern ---- */
typedef enum pdl_pat_kind {
    PDL_P_PHASE, /* a named phase */
    PDL_P_SYNC,  /* the global barrier */
    PDL_P_SEQ,   /* kids in series */
    PDL_P_ALT,   /* weighted branches */
    PDL_P_POW,   /* kid ^ count */
    PDL_P_STAR,  /* kid *[q] */
    PDL_P_PLUS   /* kid +[q] */
} pdl_pat_kind;

struct pdl_phase;
typedef struct pdl_pat pdl_pat;
struct pdl_pat {
    pdl_pat_kind kind;
    pdl_loc loc;
    const char *name;        /* PHASE */
    struct pdl_phase *phase; /* PHASE: resolved by the checker */
    pdl_pat **kids;          /* SEQ, ALT: n kids; POW, STAR, PLUS: one */
    size_t nkids;
    pdl_expr **weights; /* ALT: one per kid, NULL where not given */
    pdl_expr *arg;      /* POW: count; STAR, PLUS: q */
};

/* ---- phases ---- */
typedef enum pdl_scheme {
    PDL_S_NONE,
    PDL_S_INDEPENDENT,
    PDL_S_NEIGHBOR,
    PDL_S_NEIGHBOR_TORUS,
    PDL_S_MACROPIPELINE,
    PDL_S_FORK_JOIN,
    PDL_S_PAIRED,
    PDL_S_ARBITRARY
} pdl_scheme;

typedef enum pdl_mapping { PDL_MAP_BLOCK, PDL_MAP_CYCLIC, PDL_MAP_BLOCK_CYCLIC } pdl_mapping;

typedef enum pdl_clause_kind {
    PDL_C_SCHEME,          /* PARALLELIZATION SCHEME IS s */
    PDL_C_SUBTASK_RUNTIME, /* SUBTASK RUNTIME IS dist */
    PDL_C_RUNTIME,         /* RUNTIME IS dist (sequential/synchronization phases, subtask parts) */
    PDL_C_SIZE_VECTOR,     /* PROBLEM SIZE IS VECTOR A(n) */
    PDL_C_SIZE_GRID,       /* PROBLEM SIZE IS GRID B(rows, cols) */
    PDL_C_DISTRIBUTION,    /* DISTRIBUTION IS BLOCK | CYCLIC | BLOCK CYCLIC(k) */
    PDL_C_SCHEDULING,      /* SCHEDULING IS STATIC | DYNAMIC */
    PDL_C_VOLUME,          /* COMMUNICATION VOLUME IS expr */
    PDL_C_DEPENDENCY,      /* DEPENDENCY IS d1, d2, ... */
    PDL_C_INDEP_PART,      /* INDEPENDENT SUBTASK IS: ... END */
    PDL_C_DEP_PART,        /* DEPENDENT SUBTASK IS: ... END */
    PDL_C_STAGES,          /* STAGES IS n */
    PDL_C_JOBS,            /* JOBS IS n */
    PDL_C_INTERARRIVAL,    /* INTERARRIVAL TIME IS dist */
    PDL_C_TASKS_PER_JOB,   /* TASKS PER JOB IS expr */
    PDL_C_TASK,            /* TASK a RUNTIME IS dist */
    PDL_C_ARC,             /* ARC a -> b (-> c ...) */
    PDL_C_COUNT
} pdl_clause_kind;

typedef struct pdl_clause pdl_clause;
struct pdl_clause {
    pdl_clause_kind kind;
    pdl_loc loc;     /* the whole clause */
    pdl_loc key_loc; /* its leading keywords, where diagnostics about the clause point */
    pdl_scheme scheme;
    pdl_loc value_loc; /* SCHEME, DISTRIBUTION, SCHEDULING: the value's keywords */
    pdl_dist *dist;    /* SUBTASK_RUNTIME, RUNTIME, INTERARRIVAL, TASK */
    pdl_expr *e1, *e2; /* VECTOR n; GRID rows, cols; BLOCK CYCLIC k; VOLUME; STAGES; JOBS; TASKS */
    const char *name;  /* VECTOR/GRID data name; TASK name */
    pdl_loc name_loc;
    pdl_mapping mapping;
    int dynamic;     /* SCHEDULING: 1 = DYNAMIC */
    pdl_expr **list; /* DEPENDENCY distances */
    size_t nlist;
    const char **names; /* ARC chain */
    pdl_loc *name_locs;
    size_t nnames;
    pdl_clause **body; /* INDEP_PART, DEP_PART */
    size_t nbody;
};

typedef enum pdl_phase_kind {
    PDL_PH_SEQUENTIAL,
    PDL_PH_SYNCHRONIZATION,
    PDL_PH_WORK
} pdl_phase_kind;

typedef struct pdl_task {
    const char *name;
    pdl_loc loc;
    pdl_dist *dist;
    size_t *succ; /* indices of successors in the phase's task array */
    size_t nsucc;
    size_t npred;
} pdl_task;

typedef struct pdl_phase pdl_phase;
struct pdl_phase {
    pdl_phase_kind kind;
    const char *name;
    pdl_loc name_loc;
    pdl_loc loc; /* the whole definition */
    pdl_clause **clauses;
    size_t nclauses;
    size_t index; /* position in the program's phase list */

    /* Resolved by the checker (NULL / 0 where a scheme does not use the clause). */
    int used;
    pdl_scheme scheme;
    pdl_dist *runtime; /* SEQUENTIAL/SYNCHRONIZATION runtime; work: SUBTASK RUNTIME */
    pdl_expr *units;   /* VECTOR n, or GRID cols */
    pdl_expr *rows;    /* GRID rows (NULL for a vector) */
    pdl_mapping mapping;
    pdl_expr *block; /* BLOCK CYCLIC(k) */
    int dynamic;
    pdl_expr *volume; /* COMMUNICATION VOLUME */
    pdl_expr **deps;  /* PAIRED distances */
    size_t ndeps;
    pdl_dist *indep_runtime, *dep_runtime;
    pdl_expr *indep_volume, *dep_volume;
    pdl_expr *stages, *jobs, *tasks_per_job;
    pdl_dist *interarrival;
    pdl_task *tasks; /* ARBITRARY, in definition order */
    size_t ntasks;
    size_t *topo; /* ARBITRARY: a topological order of task indices */
};

/* ---- program ---- */
typedef enum pdl_concat_kind {
    PDL_J_BARRIER,
    PDL_J_SERIAL,
    PDL_J_NEIGHBOR,
    PDL_J_NEIGHBOR_TORUS,
    PDL_J_TORUS
} pdl_concat_kind;

typedef struct pdl_concat {
    const char *first, *second;
    pdl_loc first_loc, second_loc, loc;
    pdl_concat_kind kind;
    pdl_phase *a, *b; /* resolved */
    int used;
} pdl_concat;

typedef struct pdl_param {
    const char *name;
    pdl_loc loc;
    pdl_expr *value; /* NULL: must come from --set */
} pdl_param;

typedef struct pdl_program {
    const char *name;
    pdl_loc name_loc;
    pdl_loc header_loc;
    uint32_t file;
    pdl_param **params;
    size_t nparams;
    pdl_pat *pattern;
    pdl_loc pattern_loc;
    pdl_phase **phases;
    size_t nphases;
    pdl_concat **concats;
    size_t nconcats;
    pdl_loc concat_loc;
    int has_concat_block;
} pdl_program;

/* ---- machine model file ---- */
typedef enum pdl_topology {
    PDL_TOPO_FULL,
    PDL_TOPO_RING,
    PDL_TOPO_MESH,
    PDL_TOPO_TORUS,
    PDL_TOPO_HYPERCUBE
} pdl_topology;

typedef enum pdl_mstmt_kind {
    PDL_M_RTFACTOR,
    PDL_M_SIZEOF,
    PDL_M_COMMUNICATION,
    PDL_M_LOGGP,
    PDL_M_MESSAGE_TIME,
    PDL_M_TOPOLOGY,
    PDL_M_BARRIER_TIME,
    PDL_M_CONTENTION,
    PDL_M_COUNT
} pdl_mstmt_kind;

typedef struct pdl_mstmt {
    pdl_mstmt_kind kind;
    pdl_loc loc, key_loc;
    pdl_expr *e1, *e2; /* RTFACTOR, SIZEOF, MESSAGE TIME: e1; MESH/TORUS dims: e1, e2 */
    pdl_ctype ctype;   /* SIZEOF */
    int shared_memory; /* COMMUNICATION */
    pdl_topology topology;
    pdl_dist *dist;     /* BARRIER TIME, CONTENTION */
    const char **names; /* LOGGP parameter names */
    pdl_loc *name_locs;
    pdl_expr **values;
    size_t nvalues;
} pdl_mstmt;

typedef struct pdl_machine_ast {
    const char *name;
    pdl_loc name_loc;
    uint32_t file;
    pdl_mstmt **stmts;
    size_t nstmts;
} pdl_machine_ast;

/* Names for messages and dumps. */
const char *pdl_scheme_name(pdl_scheme s);
const char *pdl_clause_name(pdl_clause_kind k);
const char *pdl_concat_name(pdl_concat_kind k);
const char *pdl_dist_name(pdl_dist_kind k);
const char *pdl_ctype_name(pdl_ctype t);
const char *pdl_phase_kind_name(pdl_phase_kind k);
const char *pdl_binop_name(pdl_binop op);
const char *pdl_mstmt_name(pdl_mstmt_kind k);

/* Readable dumps for `--emit ast`. */
void pdl_ast_dump_program(FILE *out, const pdl_program *prog);
void pdl_ast_dump_machine(FILE *out, const pdl_machine_ast *m);
void pdl_expr_print(FILE *out, const pdl_expr *e);

#endif
