/* pdl_ast: names of the tree's enumerations and the readable dump behind `--emit ast`.
 * The dump is for people debugging programs: one node per line, indented by depth. */
#include "pdl_ast.h"

#include <math.h>
#include <stdlib.h>

const char *pdl_scheme_name(pdl_scheme s)
{
    static const char *const names[] = {"(none)",         "INDEPENDENT",   "NEIGHBOR",
                                        "NEIGHBOR-TORUS", "MACROPIPELINE", "FORK-JOIN",
                                        "PAIRED",         "ARBITRARY"};
    return (unsigned)s < sizeof names / sizeof *names ? names[s] : "?";
}

const char *pdl_clause_name(pdl_clause_kind k)
{
    static const char *const names[] = {"PARALLELIZATION SCHEME",
                                        "SUBTASK RUNTIME",
                                        "RUNTIME",
                                        "PROBLEM SIZE",
                                        "PROBLEM SIZE",
                                        "DISTRIBUTION",
                                        "SCHEDULING",
                                        "COMMUNICATION VOLUME",
                                        "DEPENDENCY",
                                        "INDEPENDENT SUBTASK",
                                        "DEPENDENT SUBTASK",
                                        "STAGES",
                                        "JOBS",
                                        "INTERARRIVAL TIME",
                                        "TASKS PER JOB",
                                        "TASK",
                                        "ARC"};
    return (unsigned)k < sizeof names / sizeof *names ? names[k] : "?";
}

const char *pdl_concat_name(pdl_concat_kind k)
{
    static const char *const names[] = {"BARRIER", "SERIAL", "NEIGHBOR", "NEIGHBOR-TORUS", "TORUS"};
    return (unsigned)k < sizeof names / sizeof *names ? names[k] : "?";
}

const char *pdl_dist_name(pdl_dist_kind k)
{
    static const char *const names[] = {"?",       "DETERMINISTIC",    "EXPONENTIAL", "ERLANG",
                                        "GAMMA",   "UNIFORM",          "NORMAL",      "LOGNORMAL",
                                        "WEIBULL", "HYPEREXPONENTIAL", "NUMERICAL"};
    return (unsigned)k < sizeof names / sizeof *names ? names[k] : "?";
}

const char *pdl_ctype_name(pdl_ctype t)
{
    static const char *const names[] = {"INT", "FLOAT", "DOUBLE", "CHAR", "LONG"};
    return (unsigned)t < sizeof names / sizeof *names ? names[t] : "?";
}

const char *pdl_phase_kind_name(pdl_phase_kind k)
{
    static const char *const names[] = {"SEQUENTIAL", "SYNCHRONIZATION", "WORK"};
    return (unsigned)k < sizeof names / sizeof *names ? names[k] : "?";
}

const char *pdl_binop_name(pdl_binop op)
{
    static const char *const names[] = {
        "+", "-", "*", "/", "%", "<", "<=", ">", ">=", "==", "!=", "&&", "||"};
    return (unsigned)op < sizeof names / sizeof *names ? names[op] : "?";
}

const char *pdl_mstmt_name(pdl_mstmt_kind k)
{
    static const char *const names[] = {"RTFACTOR",     "SIZEOF",   "COMMUNICATION", "LOGGP",
                                        "MESSAGE TIME", "TOPOLOGY", "BARRIER TIME",  "CONTENTION"};
    return (unsigned)k < sizeof names / sizeof *names ? names[k] : "?";
}

/* The shortest %g form that reads back as the same double. */
static void print_number(FILE *out, double v)
{
    char buf[40];
    if (v == (double)(long long)v && fabs(v) < 1e15) {
        fprintf(out, "%lld", (long long)v);
        return;
    }
    for (int prec = 1; prec <= 17; prec++) {
        snprintf(buf, sizeof buf, "%.*g", prec, v);
        if (strtod(buf, NULL) == v)
            break;
    }
    fputs(buf, out);
}

/* Fully parenthesised, so the dump shows how the parser grouped operators. */
void pdl_expr_print(FILE *out, const pdl_expr *e)
{
    if (!e) {
        fputs("?", out);
        return;
    }
    switch (e->kind) {
    case PDL_E_NUM:
        print_number(out, e->u.num);
        break;
    case PDL_E_VAR:
        fputs(e->u.name, out);
        break;
    case PDL_E_RTFACTOR:
        fputs("RTFactor", out);
        break;
    case PDL_E_SIZEOF:
        fprintf(out, "SIZEOF(%s)", pdl_ctype_name(e->u.ctype));
        break;
    case PDL_E_NEG:
    case PDL_E_NOT:
        fputs(e->kind == PDL_E_NEG ? "(-" : "(!", out);
        pdl_expr_print(out, e->u.operand);
        fputc(')', out);
        break;
    case PDL_E_BINARY:
        fputc('(', out);
        pdl_expr_print(out, e->u.bin.a);
        fprintf(out, " %s ", pdl_binop_name(e->u.bin.op));
        pdl_expr_print(out, e->u.bin.b);
        fputc(')', out);
        break;
    case PDL_E_COND:
        fputc('(', out);
        pdl_expr_print(out, e->u.cond.c);
        fputs(" ? ", out);
        pdl_expr_print(out, e->u.cond.a);
        fputs(" : ", out);
        pdl_expr_print(out, e->u.cond.b);
        fputc(')', out);
        break;
    case PDL_E_CALL:
        fprintf(out, "%s(", e->u.call.name);
        for (size_t i = 0; i < e->u.call.nargs; i++) {
            if (i)
                fputs(", ", out);
            pdl_expr_print(out, e->u.call.args[i]);
        }
        fputc(')', out);
        break;
    }
}

static void indent(FILE *out, int depth)
{
    for (int i = 0; i < depth; i++)
        fputs("  ", out);
}

static void dump_dist(FILE *out, const pdl_dist *d)
{
    if (!d) {
        fputs("?", out);
        return;
    }
    fprintf(out, "%s(", d->name);
    for (size_t i = 0; i < d->nargs; i++) {
        if (i)
            fputs(", ", out);
        if (d->args[i].str)
            fprintf(out, "'%s'", d->args[i].str);
        else
            pdl_expr_print(out, d->args[i].expr);
    }
    fputc(')', out);
}

static void dump_pat(FILE *out, const pdl_pat *p, int depth)
{
    indent(out, depth);
    switch (p->kind) {
    case PDL_P_PHASE:
        fprintf(out, "phase %s\n", p->name);
        return;
    case PDL_P_SYNC:
        fputs("sync\n", out);
        return;
    case PDL_P_SEQ:
        fputs("series\n", out);
        break;
    case PDL_P_ALT:
        fputs("branch\n", out);
        break;
    case PDL_P_POW:
        fputs("repeat ^ ", out);
        pdl_expr_print(out, p->arg);
        fputc('\n', out);
        break;
    case PDL_P_STAR:
    case PDL_P_PLUS:
        fprintf(out, "loop %s q=", p->kind == PDL_P_STAR ? "*" : "+");
        pdl_expr_print(out, p->arg);
        fputc('\n', out);
        break;
    }
    for (size_t i = 0; i < p->nkids; i++) {
        if (p->kind == PDL_P_ALT && p->weights && p->weights[i]) {
            indent(out, depth + 1);
            fputs("weight ", out);
            pdl_expr_print(out, p->weights[i]);
            fputc('\n', out);
        }
        dump_pat(out, p->kids[i], depth + 1);
    }
}

static void dump_clause(FILE *out, const pdl_clause *c, int depth)
{
    indent(out, depth);
    fprintf(out, "%s", pdl_clause_name(c->kind));
    switch (c->kind) {
    case PDL_C_SCHEME:
        fprintf(out, " %s", c->name ? c->name : pdl_scheme_name(c->scheme));
        break;
    case PDL_C_SUBTASK_RUNTIME:
    case PDL_C_RUNTIME:
    case PDL_C_INTERARRIVAL:
        fputc(' ', out);
        dump_dist(out, c->dist);
        break;
    case PDL_C_SIZE_VECTOR:
        fprintf(out, " VECTOR %s(", c->name);
        pdl_expr_print(out, c->e1);
        fputc(')', out);
        break;
    case PDL_C_SIZE_GRID:
        fprintf(out, " GRID %s(", c->name);
        pdl_expr_print(out, c->e1);
        fputs(", ", out);
        pdl_expr_print(out, c->e2);
        fputc(')', out);
        break;
    case PDL_C_DISTRIBUTION:
        fputs(c->mapping == PDL_MAP_BLOCK    ? " BLOCK"
              : c->mapping == PDL_MAP_CYCLIC ? " CYCLIC"
                                             : " BLOCK CYCLIC ",
              out);
        if (c->mapping == PDL_MAP_BLOCK_CYCLIC)
            pdl_expr_print(out, c->e1);
        break;
    case PDL_C_SCHEDULING:
        fputs(c->dynamic ? " DYNAMIC" : " STATIC", out);
        break;
    case PDL_C_VOLUME:
    case PDL_C_STAGES:
    case PDL_C_JOBS:
    case PDL_C_TASKS_PER_JOB:
        fputc(' ', out);
        pdl_expr_print(out, c->e1);
        break;
    case PDL_C_DEPENDENCY:
        for (size_t i = 0; i < c->nlist; i++) {
            fputs(i ? ", " : " ", out);
            pdl_expr_print(out, c->list[i]);
        }
        break;
    case PDL_C_TASK:
        fprintf(out, " %s ", c->name);
        dump_dist(out, c->dist);
        break;
    case PDL_C_ARC:
        for (size_t i = 0; i < c->nnames; i++)
            fprintf(out, "%s%s", i ? " -> " : " ", c->names[i]);
        break;
    case PDL_C_INDEP_PART:
    case PDL_C_DEP_PART:
    case PDL_C_COUNT:
        break;
    }
    fputc('\n', out);
    for (size_t i = 0; i < c->nbody; i++)
        dump_clause(out, c->body[i], depth + 1);
}

void pdl_ast_dump_program(FILE *out, const pdl_program *prog)
{
    fprintf(out, "program '%s'\n", prog->name ? prog->name : "");
    for (size_t i = 0; i < prog->nparams; i++) {
        fprintf(out, "  parameter %s", prog->params[i]->name);
        if (prog->params[i]->value) {
            fputs(" = ", out);
            pdl_expr_print(out, prog->params[i]->value);
        }
        fputc('\n', out);
    }
    if (prog->pattern) {
        fputs("  pattern\n", out);
        dump_pat(out, prog->pattern, 2);
    }
    for (size_t i = 0; i < prog->nphases; i++) {
        const pdl_phase *ph = prog->phases[i];
        fprintf(out, "  %s phase %s\n", pdl_phase_kind_name(ph->kind), ph->name);
        for (size_t j = 0; j < ph->nclauses; j++)
            dump_clause(out, ph->clauses[j], 2);
    }
    if (prog->has_concat_block) {
        fputs("  concatenation\n", out);
        for (size_t i = 0; i < prog->nconcats; i++) {
            const pdl_concat *c = prog->concats[i];
            fprintf(out, "    %s, %s : %s\n", c->first, c->second, pdl_concat_name(c->kind));
        }
    }
}

void pdl_ast_dump_machine(FILE *out, const pdl_machine_ast *m)
{
    fprintf(out, "machine '%s'\n", m->name ? m->name : "");
    for (size_t i = 0; i < m->nstmts; i++) {
        const pdl_mstmt *s = m->stmts[i];
        fprintf(out, "  %s", pdl_mstmt_name(s->kind));
        switch (s->kind) {
        case PDL_M_SIZEOF:
            fprintf(out, "(%s)", pdl_ctype_name(s->ctype));
            /* fall through */
        case PDL_M_RTFACTOR:
        case PDL_M_MESSAGE_TIME:
            fputc(' ', out);
            pdl_expr_print(out, s->e1);
            break;
        case PDL_M_COMMUNICATION:
            fputs(s->shared_memory ? " SHARED MEMORY" : " MESSAGE PASSING", out);
            break;
        case PDL_M_LOGGP:
            for (size_t k = 0; k < s->nvalues; k++) {
                fprintf(out, "%s%s=", k ? ", " : " ", s->names[k]);
                pdl_expr_print(out, s->values[k]);
            }
            break;
        case PDL_M_TOPOLOGY: {
            static const char *const t[] = {"FULL", "RING", "MESH", "TORUS", "HYPERCUBE"};
            fprintf(out, " %s", t[s->topology]);
            if (s->e1) {
                fputc('(', out);
                pdl_expr_print(out, s->e1);
                fputs(", ", out);
                pdl_expr_print(out, s->e2);
                fputc(')', out);
            }
            break;
        }
        case PDL_M_BARRIER_TIME:
        case PDL_M_CONTENTION:
            fputc(' ', out);
            dump_dist(out, s->dist);
            break;
        case PDL_M_COUNT:
            break;
        }
        fputc('\n', out);
    }
}
