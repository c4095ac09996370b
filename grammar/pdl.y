/* pdl.y: pure, reentrant LALR(1) grammar for PDL programs and machine model files.
 * The scanner injects START_PROGRAM or START_MACHINE first, so one parser serves both.
 * Semantic values are arena pointers (the arena is freed at once), so no %destructor is needed;
 * error recovery resynchronises at ';' and END so one run reports several errors. */

%define api.pure full
%define api.prefix {pdl_yy}
%define api.location.type {pdl_loc}
%define parse.error detailed
%define parse.lac full
%locations
%expect 0
%lex-param {void *scanner}
%parse-param {void *scanner} {struct pdl_parser *ctx}

%code requires {
#include "pdl_parse.h"
}

%code provides {
int pdl_yylex(PDL_YYSTYPE *lval, PDL_YYLTYPE *lloc, void *scanner);
}

%code {
#include <string.h>

/* A rule's location spans its first to last symbol; an empty rule sits at the end of the
 * previous symbol. */
#define YYLLOC_DEFAULT(Cur, Rhs, N)                                                             \
    do {                                                                                        \
        if (N) {                                                                                \
            (Cur).file = YYRHSLOC(Rhs, 1).file;                                                 \
            (Cur).begin = YYRHSLOC(Rhs, 1).begin;                                               \
            (Cur).end = YYRHSLOC(Rhs, N).end;                                                   \
        } else {                                                                                \
            (Cur).file = YYRHSLOC(Rhs, 0).file;                                                 \
            (Cur).begin = (Cur).end = YYRHSLOC(Rhs, 0).end;                                     \
        }                                                                                       \
    } while (0)

/* Deep enough for any real program, shallow enough that recursive passes over the tree stay
 * well inside the C stack (the checker, evaluator and dumps recurse on nesting). */
#define YYMAXDEPTH 2000
#define YYINITDEPTH 200
/* Left-associative chains (1 + 1 + ... + 1) build trees as deep as they are long while the
 * parser's stack stays flat, so expression depth is bounded on its own, at the same limit. */
#define PDL_MAX_EXPR_DEPTH (YYMAXDEPTH - 10)

static void pdl_yyerror(PDL_YYLTYPE *loc, void *scanner, struct pdl_parser *ctx, const char *msg);
static void *new_node(struct pdl_parser *ctx, size_t size);
#define NEW(T) ((T *)new_node(ctx, sizeof(T)))
static void push(struct pdl_parser *ctx, pdl_vec *v, void *item);
static pdl_expr *mk_num(struct pdl_parser *ctx, pdl_loc loc, double v);
static pdl_expr *mk_var(struct pdl_parser *ctx, pdl_loc loc, const char *name);
static pdl_expr *mk_unary(struct pdl_parser *ctx, pdl_loc loc, pdl_expr_kind k, pdl_expr *e);
static unsigned deeper(const pdl_expr *a, const pdl_expr *b);
static pdl_expr *mk_bin(struct pdl_parser *ctx, pdl_loc loc, pdl_binop op, pdl_loc op_loc,
                        pdl_expr *a, pdl_expr *b);
static pdl_expr *mk_call(struct pdl_parser *ctx, pdl_loc loc, const char *name, pdl_loc name_loc,
                         pdl_vec args);
static pdl_dist *mk_dist(struct pdl_parser *ctx, pdl_loc loc, const char *name, pdl_loc name_loc,
                         pdl_vec args);
static pdl_pat *mk_pat(struct pdl_parser *ctx, pdl_loc loc, pdl_pat_kind k);
static pdl_pat *mk_seq(struct pdl_parser *ctx, pdl_loc loc, pdl_vec items);
static pdl_clause *mk_clause(struct pdl_parser *ctx, pdl_loc loc, pdl_loc key_loc,
                             pdl_clause_kind k);
static pdl_phase *mk_phase(struct pdl_parser *ctx, pdl_loc loc, pdl_phase_kind k,
                           const char *name, pdl_loc name_loc, pdl_vec clauses);
static pdl_mstmt *mk_mstmt(struct pdl_parser *ctx, pdl_loc loc, pdl_loc key_loc,
                           pdl_mstmt_kind k);
static pdl_loc span(pdl_loc a, pdl_loc b);
}

%union {
    double num;
    const char *str;
    pdl_expr *expr;
    pdl_dist *dist;
    pdl_arg *arg;
    pdl_pat *pat;
    pdl_clause *clause;
    pdl_phase *phase;
    pdl_concat *concat;
    pdl_mstmt *mstmt;
    pdl_vec vec;
    int ival;
}

%token START_PROGRAM "start of program"
%token START_MACHINE "start of machine model"
%token <str> IDENT "identifier"
%token <str> STRING "string"
%token <num> NUMBER "number"
%token PROGRAM "'PROGRAM'" NAME "'NAME'" IS "'IS'" PARAMETER "'PARAMETER'"
%token EXECUTION "'EXECUTION'" PATTERN "'PATTERN'" SYNC "'SYNC'"
%token SEQUENTIAL "'SEQUENTIAL'" SYNCHRONIZATION "'SYNCHRONIZATION'" WORK "'WORK'"
%token PHASE "'PHASE'" END "'END'" RUNTIME "'RUNTIME'"
%token PARALLELIZATION "'PARALLELIZATION'" SCHEME "'SCHEME'"
%token INDEPENDENT "'INDEPENDENT'" NEIGHBOR "'NEIGHBOR'" NEIGHBOR_TORUS "'NEIGHBOR-TORUS'"
%token MACROPIPELINE "'MACROPIPELINE'" FORK_JOIN "'FORK-JOIN'" PAIRED "'PAIRED'"
%token ARBITRARY "'ARBITRARY'" SUBTASK "'SUBTASK'" PROBLEM "'PROBLEM'" SIZE "'SIZE'"
%token VECTOR "'VECTOR'" GRID "'GRID'" DISTRIBUTION "'DISTRIBUTION'" BLOCK "'BLOCK'"
%token CYCLIC "'CYCLIC'" SCHEDULING "'SCHEDULING'" STATIC "'STATIC'" DYNAMIC "'DYNAMIC'"
%token COMMUNICATION "'COMMUNICATION'" VOLUME "'VOLUME'" DEPENDENCY "'DEPENDENCY'"
%token DEPENDENT "'DEPENDENT'" STAGES "'STAGES'" JOBS "'JOBS'" INTERARRIVAL "'INTERARRIVAL'"
%token TIME "'TIME'" TASKS "'TASKS'" PER "'PER'" JOB "'JOB'" TASK "'TASK'" ARC "'ARC'"
%token CONCATENATION "'CONCATENATION'" BARRIER "'BARRIER'" SERIAL "'SERIAL'" TORUS "'TORUS'"
%token SIZEOF "'SIZEOF'" INT "'INT'" FLOAT "'FLOAT'" DOUBLE "'DOUBLE'" CHAR "'CHAR'"
%token LONG "'LONG'" RTFACTOR "'RTFactor'" MACHINE "'MACHINE'" MESSAGE "'MESSAGE'"
%token PASSING "'PASSING'" SHARED "'SHARED'" MEMORY "'MEMORY'" LOGGP "'LOGGP'"
%token TOPOLOGY "'TOPOLOGY'" RING "'RING'" MESH "'MESH'" HYPERCUBE "'HYPERCUBE'" FULL "'FULL'"
%token CONTENTION "'CONTENTION'"
%token ARROW "'->'" LE "'<='" GE "'>='" EQ "'=='" NE "'!='" AND "'&&'" OR "'||'"

%type <expr> expr primary count
%type <dist> dist
%type <arg> dist_arg
%type <vec> dist_args args expr_list clauses concat_entries arc_chain loggp_list mitems
%type <pat> alt rep atom
%type <vec> branches seq
%type <clause> clause
%type <phase> phase
%type <concat> concat_entry
%type <mstmt> mitem
%type <ival> scheme concat_kind ctype

%right '?' ':'
%left OR
%left AND
%left EQ NE
%left '<' LE '>' GE
%left '+' '-'
%left '*' '/' '%'
%precedence UNARY

%%

file
    : START_PROGRAM program
    | START_MACHINE machine
    ;

/* ---- program ---- */

program
    : header items
    ;

header
    : PROGRAM NAME IS STRING ';'
        { ctx->program->name = $4; ctx->program->name_loc = @4; ctx->program->header_loc = @$; }
    | error ';'
    ;

items
    : %empty
    | items item
    ;

item
    : PARAMETER IDENT '=' expr ';'
        { pdl_param *p = NEW(pdl_param); p->name = $2; p->loc = @2; p->value = $4;
          push(ctx, &ctx->params, p); }
    | PARAMETER IDENT ';'
        { pdl_param *p = NEW(pdl_param); p->name = $2; p->loc = @2;
          push(ctx, &ctx->params, p); }
    | EXECUTION PATTERN IS alt ';'
        {
            if (ctx->program->pattern) {
                pdl_error(ctx->diag, span(@1, @3), "second execution pattern");
                pdl_note(ctx->diag, ctx->program->pattern_loc, "the first one is here");
            } else {
                ctx->program->pattern = $4;
                ctx->program->pattern_loc = span(@1, @3);
            }
        }
    | phase { $1->index = ctx->phases.len; push(ctx, &ctx->phases, $1); }
    | CONCATENATION IS colon_opt concat_entries END ';'
        {
            pdl_program *pr = ctx->program;
            if (pr->has_concat_block) {
                pdl_error(ctx->diag, span(@1, @2), "second concatenation block");
                pdl_note(ctx->diag, pr->concat_loc, "the first one is here");
            }
            pr->has_concat_block = 1;
            pr->concat_loc = span(@1, @2);
            for (size_t i = 0; i < $4.len; i++)
                push(ctx, &ctx->concats, $4.items[i]);
        }
    | error ';'
    ;

colon_opt
    : %empty
    | ':'
    ;

phase
    : SEQUENTIAL PHASE IDENT IS colon_opt clauses END ';'
        { $$ = mk_phase(ctx, @$, PDL_PH_SEQUENTIAL, $3, @3, $6); }
    | SYNCHRONIZATION PHASE IDENT IS colon_opt clauses END ';'
        { $$ = mk_phase(ctx, @$, PDL_PH_SYNCHRONIZATION, $3, @3, $6); }
    | WORK PHASE IDENT IS colon_opt clauses END ';'
        { $$ = mk_phase(ctx, @$, PDL_PH_WORK, $3, @3, $6); }
    ;

clauses
    : %empty { $$ = (pdl_vec){0}; }
    | clauses clause { $$ = $1; if ($2) push(ctx, &$$, $2); }
    ;

clause
    : PARALLELIZATION SCHEME IS scheme ';'
        { $$ = mk_clause(ctx, @$, span(@1, @2), PDL_C_SCHEME); $$->scheme = (pdl_scheme)$4;
          $$->value_loc = @4; }
    | PARALLELIZATION SCHEME IS IDENT ';'
        { $$ = mk_clause(ctx, @$, span(@1, @2), PDL_C_SCHEME); $$->scheme = PDL_S_NONE;
          $$->name = $4; $$->value_loc = @4; }
    | SUBTASK RUNTIME IS dist ';'
        { $$ = mk_clause(ctx, @$, span(@1, @2), PDL_C_SUBTASK_RUNTIME); $$->dist = $4; }
    | RUNTIME IS dist ';'
        { $$ = mk_clause(ctx, @$, @1, PDL_C_RUNTIME); $$->dist = $3; }
    | PROBLEM SIZE IS VECTOR IDENT '(' expr ')' ';'
        { $$ = mk_clause(ctx, @$, span(@1, @2), PDL_C_SIZE_VECTOR); $$->name = $5;
          $$->name_loc = @5; $$->e1 = $7; }
    | PROBLEM SIZE IS GRID IDENT '(' expr ',' expr ')' ';'
        { $$ = mk_clause(ctx, @$, span(@1, @2), PDL_C_SIZE_GRID); $$->name = $5;
          $$->name_loc = @5; $$->e1 = $7; $$->e2 = $9; }
    | DISTRIBUTION IS BLOCK ';'
        { $$ = mk_clause(ctx, @$, @1, PDL_C_DISTRIBUTION); $$->mapping = PDL_MAP_BLOCK;
          $$->value_loc = @3; }
    | DISTRIBUTION IS CYCLIC ';'
        { $$ = mk_clause(ctx, @$, @1, PDL_C_DISTRIBUTION); $$->mapping = PDL_MAP_CYCLIC;
          $$->value_loc = @3; }
    | DISTRIBUTION IS BLOCK CYCLIC '(' expr ')' ';'
        { $$ = mk_clause(ctx, @$, @1, PDL_C_DISTRIBUTION); $$->mapping = PDL_MAP_BLOCK_CYCLIC;
          $$->e1 = $6; $$->value_loc = span(@3, @7); }
    | SCHEDULING IS STATIC ';'
        { $$ = mk_clause(ctx, @$, @1, PDL_C_SCHEDULING); $$->dynamic = 0; $$->value_loc = @3; }
    | SCHEDULING IS DYNAMIC ';'
        { $$ = mk_clause(ctx, @$, @1, PDL_C_SCHEDULING); $$->dynamic = 1; $$->value_loc = @3; }
    | COMMUNICATION VOLUME IS expr ';'
        { $$ = mk_clause(ctx, @$, span(@1, @2), PDL_C_VOLUME); $$->e1 = $4; }
    | DEPENDENCY IS expr_list ';'
        { $$ = mk_clause(ctx, @$, @1, PDL_C_DEPENDENCY);
          $$->list = (pdl_expr **)$3.items; $$->nlist = $3.len; }
    | INDEPENDENT SUBTASK IS colon_opt clauses END ';'
        { $$ = mk_clause(ctx, @$, span(@1, @2), PDL_C_INDEP_PART);
          $$->body = (pdl_clause **)$5.items; $$->nbody = $5.len; }
    | DEPENDENT SUBTASK IS colon_opt clauses END ';'
        { $$ = mk_clause(ctx, @$, span(@1, @2), PDL_C_DEP_PART);
          $$->body = (pdl_clause **)$5.items; $$->nbody = $5.len; }
    | STAGES IS expr ';'
        { $$ = mk_clause(ctx, @$, @1, PDL_C_STAGES); $$->e1 = $3; }
    | JOBS IS expr ';'
        { $$ = mk_clause(ctx, @$, @1, PDL_C_JOBS); $$->e1 = $3; }
    | INTERARRIVAL TIME IS dist ';'
        { $$ = mk_clause(ctx, @$, span(@1, @2), PDL_C_INTERARRIVAL); $$->dist = $4; }
    | TASKS PER JOB IS expr ';'
        { $$ = mk_clause(ctx, @$, span(@1, @3), PDL_C_TASKS_PER_JOB); $$->e1 = $5; }
    | TASK IDENT RUNTIME IS dist ';'
        { $$ = mk_clause(ctx, @$, @1, PDL_C_TASK); $$->name = $2; $$->name_loc = @2;
          $$->dist = $5; }
    | ARC arc_chain ';'
        { $$ = mk_clause(ctx, @$, @1, PDL_C_ARC);
          $$->nnames = $2.len;
          $$->names = new_node(ctx, $2.len * sizeof(const char *));
          $$->name_locs = new_node(ctx, $2.len * sizeof(pdl_loc));
          for (size_t i = 0; i < $2.len; i++) {
              pdl_expr *v = $2.items[i]; /* names are carried as VAR nodes for their places */
              $$->names[i] = v->u.name;
              $$->name_locs[i] = v->loc;
          } }
    | error ';' { $$ = NULL; }
    ;

scheme
    : INDEPENDENT { $$ = PDL_S_INDEPENDENT; }
    | NEIGHBOR { $$ = PDL_S_NEIGHBOR; }
    | NEIGHBOR_TORUS { $$ = PDL_S_NEIGHBOR_TORUS; }
    | MACROPIPELINE { $$ = PDL_S_MACROPIPELINE; }
    | FORK_JOIN { $$ = PDL_S_FORK_JOIN; }
    | PAIRED { $$ = PDL_S_PAIRED; }
    | ARBITRARY { $$ = PDL_S_ARBITRARY; }
    ;

arc_chain
    : IDENT ARROW IDENT
        { $$ = (pdl_vec){0}; push(ctx, &$$, mk_var(ctx, @1, $1));
          push(ctx, &$$, mk_var(ctx, @3, $3)); }
    | arc_chain ARROW IDENT { $$ = $1; push(ctx, &$$, mk_var(ctx, @3, $3)); }
    ;

/* ---- concatenation ---- */

concat_entries
    : %empty { $$ = (pdl_vec){0}; }
    | concat_entries concat_entry { $$ = $1; if ($2) push(ctx, &$$, $2); }
    ;

concat_entry
    : IDENT ',' IDENT ':' concat_kind ';'
        { $$ = NEW(pdl_concat); $$->first = $1; $$->first_loc = @1; $$->second = $3;
          $$->second_loc = @3; $$->kind = (pdl_concat_kind)$5; $$->loc = span(@1, @5); }
    | IDENT ',' IDENT ':' IDENT ';'
        {
            static const char *const kinds[] = {"BARRIER", "SERIAL", "NEIGHBOR", "NEIGHBOR-TORUS",
                                                "TORUS"};
            pdl_error(ctx->diag, @5, "unknown concatenation '%s'", $5);
            const char *s = pdl_closest($5, kinds, sizeof kinds / sizeof *kinds);
            if (s)
                pdl_note(ctx->diag, @5, "did you mean '%s'?", s);
            else
                pdl_note(ctx->diag, @5,
                         "a concatenation is BARRIER, SERIAL, NEIGHBOR, NEIGHBOR-TORUS or TORUS");
            $$ = NULL;
        }
    | error ';' { $$ = NULL; }
    ;

concat_kind
    : BARRIER { $$ = PDL_J_BARRIER; }
    | SERIAL { $$ = PDL_J_SERIAL; }
    | NEIGHBOR { $$ = PDL_J_NEIGHBOR; }
    | NEIGHBOR_TORUS { $$ = PDL_J_NEIGHBOR_TORUS; }
    | TORUS { $$ = PDL_J_TORUS; }
    ;

/* ---- execution pattern: a regular expression over phases ---- */

alt
    : branches
        {
            /* branches holds (pattern, weight) pairs; one unweighted branch is no branch */
            if ($1.len == 2 && !$1.items[1]) {
                $$ = $1.items[0];
            } else {
                size_t n = $1.len / 2;
                $$ = mk_pat(ctx, @$, PDL_P_ALT);
                $$->nkids = n;
                $$->kids = new_node(ctx, n * sizeof(pdl_pat *));
                $$->weights = new_node(ctx, n * sizeof(pdl_expr *));
                for (size_t i = 0; i < n; i++) {
                    $$->kids[i] = $1.items[2 * i];
                    $$->weights[i] = $1.items[2 * i + 1];
                }
            }
        }
    ;

branches
    : seq { $$ = (pdl_vec){0}; push(ctx, &$$, mk_seq(ctx, @1, $1)); push(ctx, &$$, NULL); }
    | seq '[' expr ']'
        { $$ = (pdl_vec){0}; push(ctx, &$$, mk_seq(ctx, @1, $1)); push(ctx, &$$, $3); }
    | branches '|' seq
        { $$ = $1; push(ctx, &$$, mk_seq(ctx, @3, $3)); push(ctx, &$$, NULL); }
    | branches '|' seq '[' expr ']'
        { $$ = $1; push(ctx, &$$, mk_seq(ctx, @3, $3)); push(ctx, &$$, $5); }
    ;

/* A sequence is collected flat (series is associative); mk_seq makes the node. */
seq
    : rep { $$ = (pdl_vec){0}; push(ctx, &$$, $1); }
    | seq ARROW rep { $$ = $1; push(ctx, &$$, $3); }
    ;

rep
    : atom { $$ = $1; }
    | atom '^' count
        { $$ = mk_pat(ctx, @$, PDL_P_POW); $$->kids = new_node(ctx, sizeof(pdl_pat *));
          $$->kids[0] = $1; $$->nkids = 1; $$->arg = $3; }
    | atom '*' '[' expr ']'
        { $$ = mk_pat(ctx, @$, PDL_P_STAR); $$->kids = new_node(ctx, sizeof(pdl_pat *));
          $$->kids[0] = $1; $$->nkids = 1; $$->arg = $4; }
    | atom '+' '[' expr ']'
        { $$ = mk_pat(ctx, @$, PDL_P_PLUS); $$->kids = new_node(ctx, sizeof(pdl_pat *));
          $$->kids[0] = $1; $$->nkids = 1; $$->arg = $4; }
    ;

count
    : NUMBER { $$ = mk_num(ctx, @1, $1); }
    | IDENT { $$ = mk_var(ctx, @1, $1); }
    | IDENT '(' args ')' { $$ = mk_call(ctx, @$, $1, @1, $3); }
    | '(' expr ')' { $$ = $2; }
    ;

atom
    : IDENT { $$ = mk_pat(ctx, @1, PDL_P_PHASE); $$->name = $1; }
    | SYNC { $$ = mk_pat(ctx, @1, PDL_P_SYNC); }
    | '(' alt ')' { $$ = $2; $$->loc = @$; }
    ;

/* ---- distributions and expressions ---- */

dist
    : IDENT '(' dist_args ')' { $$ = mk_dist(ctx, @$, $1, @1, $3); }
    | IDENT '(' ')' { $$ = mk_dist(ctx, @$, $1, @1, (pdl_vec){0}); }
    ;

dist_args
    : dist_arg { $$ = (pdl_vec){0}; push(ctx, &$$, $1); }
    | dist_args ',' dist_arg { $$ = $1; push(ctx, &$$, $3); }
    ;

dist_arg
    : expr { $$ = NEW(pdl_arg); $$->loc = @1; $$->expr = $1; }
    | STRING { $$ = NEW(pdl_arg); $$->loc = @1; $$->str = $1; }
    ;

expr_list
    : expr { $$ = (pdl_vec){0}; push(ctx, &$$, $1); }
    | expr_list ',' expr { $$ = $1; push(ctx, &$$, $3); }
    ;

args
    : %empty { $$ = (pdl_vec){0}; }
    | expr_list { $$ = $1; }
    ;

expr
    : primary { $$ = $1; }
    | '-' expr %prec UNARY { $$ = mk_unary(ctx, @$, PDL_E_NEG, $2); }
    | '+' expr %prec UNARY { $$ = $2; }
    | '!' expr %prec UNARY { $$ = mk_unary(ctx, @$, PDL_E_NOT, $2); }
    | expr '+' expr { $$ = mk_bin(ctx, @$, PDL_OP_ADD, @2, $1, $3); }
    | expr '-' expr { $$ = mk_bin(ctx, @$, PDL_OP_SUB, @2, $1, $3); }
    | expr '*' expr { $$ = mk_bin(ctx, @$, PDL_OP_MUL, @2, $1, $3); }
    | expr '/' expr { $$ = mk_bin(ctx, @$, PDL_OP_DIV, @2, $1, $3); }
    | expr '%' expr { $$ = mk_bin(ctx, @$, PDL_OP_MOD, @2, $1, $3); }
    | expr '<' expr { $$ = mk_bin(ctx, @$, PDL_OP_LT, @2, $1, $3); }
    | expr LE expr { $$ = mk_bin(ctx, @$, PDL_OP_LE, @2, $1, $3); }
    | expr '>' expr { $$ = mk_bin(ctx, @$, PDL_OP_GT, @2, $1, $3); }
    | expr GE expr { $$ = mk_bin(ctx, @$, PDL_OP_GE, @2, $1, $3); }
    | expr EQ expr { $$ = mk_bin(ctx, @$, PDL_OP_EQ, @2, $1, $3); }
    | expr NE expr { $$ = mk_bin(ctx, @$, PDL_OP_NE, @2, $1, $3); }
    | expr AND expr { $$ = mk_bin(ctx, @$, PDL_OP_AND, @2, $1, $3); }
    | expr OR expr { $$ = mk_bin(ctx, @$, PDL_OP_OR, @2, $1, $3); }
    | expr '?' expr ':' expr
        { $$ = NEW(pdl_expr); $$->kind = PDL_E_COND; $$->loc = @$; $$->u.cond.c = $1;
          $$->u.cond.a = $3; $$->u.cond.b = $5;
          $$->depth = deeper($1, $3);
          if ($$->depth < deeper($5, NULL)) $$->depth = deeper($5, NULL); }
    ;

primary
    : NUMBER { $$ = mk_num(ctx, @1, $1); }
    | IDENT { $$ = mk_var(ctx, @1, $1); }
    | IDENT '(' args ')' { $$ = mk_call(ctx, @$, $1, @1, $3); }
    | RTFACTOR { $$ = NEW(pdl_expr); $$->kind = PDL_E_RTFACTOR; $$->loc = @1; }
    | SIZEOF '(' ctype ')'
        { $$ = NEW(pdl_expr); $$->kind = PDL_E_SIZEOF; $$->loc = @$; $$->u.ctype = (pdl_ctype)$3; }
    | '(' expr ')' { $$ = $2; }
    ;

ctype
    : INT { $$ = PDL_T_INT; }
    | FLOAT { $$ = PDL_T_FLOAT; }
    | DOUBLE { $$ = PDL_T_DOUBLE; }
    | CHAR { $$ = PDL_T_CHAR; }
    | LONG { $$ = PDL_T_LONG; }
    ;

/* ---- machine model ---- */

machine
    : MACHINE NAME IS STRING ';' mitems
        {
            ctx->machine->name = $4;
            ctx->machine->name_loc = @4;
            ctx->machine->stmts = (pdl_mstmt **)$6.items;
            ctx->machine->nstmts = $6.len;
        }
    ;

mitems
    : %empty { $$ = (pdl_vec){0}; }
    | mitems mitem { $$ = $1; if ($2) push(ctx, &$$, $2); }
    ;

mitem
    : RTFACTOR IS expr ';'
        { $$ = mk_mstmt(ctx, @$, @1, PDL_M_RTFACTOR); $$->e1 = $3; }
    | SIZEOF '(' ctype ')' IS expr ';'
        { $$ = mk_mstmt(ctx, @$, span(@1, @4), PDL_M_SIZEOF); $$->ctype = (pdl_ctype)$3;
          $$->e1 = $6; }
    | COMMUNICATION IS MESSAGE PASSING ';'
        { $$ = mk_mstmt(ctx, @$, @1, PDL_M_COMMUNICATION); $$->shared_memory = 0; }
    | COMMUNICATION IS SHARED MEMORY ';'
        { $$ = mk_mstmt(ctx, @$, @1, PDL_M_COMMUNICATION); $$->shared_memory = 1; }
    | LOGGP '(' loggp_list ')' ';'
        {
            $$ = mk_mstmt(ctx, @$, @1, PDL_M_LOGGP);
            size_t n = $3.len / 2;
            $$->nvalues = n;
            $$->names = new_node(ctx, n * sizeof(const char *));
            $$->name_locs = new_node(ctx, n * sizeof(pdl_loc));
            $$->values = new_node(ctx, n * sizeof(pdl_expr *));
            for (size_t i = 0; i < n; i++) {
                pdl_expr *nm = $3.items[2 * i];
                $$->names[i] = nm->u.name;
                $$->name_locs[i] = nm->loc;
                $$->values[i] = $3.items[2 * i + 1];
            }
        }
    | MESSAGE TIME IS expr ';'
        { $$ = mk_mstmt(ctx, @$, span(@1, @2), PDL_M_MESSAGE_TIME); $$->e1 = $4; }
    | TOPOLOGY IS RING ';'
        { $$ = mk_mstmt(ctx, @$, @1, PDL_M_TOPOLOGY); $$->topology = PDL_TOPO_RING; }
    | TOPOLOGY IS HYPERCUBE ';'
        { $$ = mk_mstmt(ctx, @$, @1, PDL_M_TOPOLOGY); $$->topology = PDL_TOPO_HYPERCUBE; }
    | TOPOLOGY IS FULL ';'
        { $$ = mk_mstmt(ctx, @$, @1, PDL_M_TOPOLOGY); $$->topology = PDL_TOPO_FULL; }
    | TOPOLOGY IS MESH '(' expr ',' expr ')' ';'
        { $$ = mk_mstmt(ctx, @$, @1, PDL_M_TOPOLOGY); $$->topology = PDL_TOPO_MESH;
          $$->e1 = $5; $$->e2 = $7; }
    | TOPOLOGY IS TORUS '(' expr ',' expr ')' ';'
        { $$ = mk_mstmt(ctx, @$, @1, PDL_M_TOPOLOGY); $$->topology = PDL_TOPO_TORUS;
          $$->e1 = $5; $$->e2 = $7; }
    | TOPOLOGY IS IDENT ';'
        {
            static const char *const kinds[] = {"RING", "MESH", "TORUS", "HYPERCUBE", "FULL"};
            pdl_error(ctx->diag, @3, "unknown topology '%s'", $3);
            const char *s = pdl_closest($3, kinds, sizeof kinds / sizeof *kinds);
            if (s)
                pdl_note(ctx->diag, @3, "did you mean '%s'?", s);
            else
                pdl_note(ctx->diag, @3,
                         "a topology is RING, MESH(rows, cols), TORUS(rows, cols), HYPERCUBE or "
                         "FULL");
            $$ = NULL;
        }
    | BARRIER TIME IS dist ';'
        { $$ = mk_mstmt(ctx, @$, span(@1, @2), PDL_M_BARRIER_TIME); $$->dist = $4; }
    | CONTENTION IS dist ';'
        { $$ = mk_mstmt(ctx, @$, @1, PDL_M_CONTENTION); $$->dist = $3; }
    | error ';' { $$ = NULL; }
    ;

loggp_list
    : IDENT '=' expr
        { $$ = (pdl_vec){0}; push(ctx, &$$, mk_var(ctx, @1, $1)); push(ctx, &$$, $3); }
    | loggp_list ',' IDENT '=' expr
        { $$ = $1; push(ctx, &$$, mk_var(ctx, @3, $3)); push(ctx, &$$, $5); }
    ;

%%

static pdl_loc span(pdl_loc a, pdl_loc b)
{
    return (pdl_loc){a.file, a.begin, b.end};
}

static void *new_node(struct pdl_parser *ctx, size_t size)
{
    void *p = pdl_arena_calloc(ctx->arena, 1, size ? size : 1);
    if (!p) {
        pdl_error(ctx->diag, (pdl_loc){ctx->file, ctx->offset, ctx->offset}, "out of memory");
        ctx->fatal = 1;
        longjmp(ctx->bail, 1);
    }
    return p;
}

static void push(struct pdl_parser *ctx, pdl_vec *v, void *item)
{
    if (pdl_vec_push(ctx->arena, v, item) != 0) {
        pdl_error(ctx->diag, (pdl_loc){ctx->file, ctx->offset, ctx->offset}, "out of memory");
        ctx->fatal = 1;
        longjmp(ctx->bail, 1);
    }
}

static pdl_expr *mk_num(struct pdl_parser *ctx, pdl_loc loc, double v)
{
    pdl_expr *e = NEW(pdl_expr);
    e->kind = PDL_E_NUM;
    e->loc = loc;
    e->u.num = v;
    return e;
}

static pdl_expr *mk_var(struct pdl_parser *ctx, pdl_loc loc, const char *name)
{
    pdl_expr *e = NEW(pdl_expr);
    e->kind = PDL_E_VAR;
    e->loc = loc;
    e->u.name = name;
    return e;
}

static unsigned deeper(const pdl_expr *a, const pdl_expr *b)
{
    unsigned da = a ? a->depth : 0, db = b ? b->depth : 0;
    return 1 + (da > db ? da : db);
}

static pdl_expr *mk_unary(struct pdl_parser *ctx, pdl_loc loc, pdl_expr_kind k, pdl_expr *x)
{
    pdl_expr *e = NEW(pdl_expr);
    e->kind = k;
    e->loc = loc;
    e->u.operand = x;
    e->depth = deeper(x, NULL);
    return e;
}

static pdl_expr *mk_bin(struct pdl_parser *ctx, pdl_loc loc, pdl_binop op, pdl_loc op_loc,
                        pdl_expr *a, pdl_expr *b)
{
    unsigned depth = deeper(a, b);
    if (depth > PDL_MAX_EXPR_DEPTH) {
        /* The recursive passes over the tree would overflow the C stack: report, and keep the
           tree shallow (the parse fails on the error) so the rest can still be checked. */
        if (!ctx->too_deep) {
            pdl_error(ctx->diag, op_loc, "expression is nested too deeply");
            pdl_note(ctx->diag, op_loc,
                     "pdlc accepts expressions about %d operators deep, each operator of a chain "
                     "like a + b + c counting as one level",
                     PDL_MAX_EXPR_DEPTH);
        }
        ctx->too_deep = 1;
        return mk_num(ctx, loc, 0);
    }
    pdl_expr *e = NEW(pdl_expr);
    e->kind = PDL_E_BINARY;
    e->loc = loc;
    e->u.bin.op = op;
    e->u.bin.op_loc = op_loc;
    e->u.bin.a = a;
    e->u.bin.b = b;
    e->depth = depth;
    return e;
}

static pdl_expr *mk_call(struct pdl_parser *ctx, pdl_loc loc, const char *name, pdl_loc name_loc,
                         pdl_vec args)
{
    pdl_expr *e = NEW(pdl_expr);
    e->kind = PDL_E_CALL;
    e->loc = loc;
    e->u.call.name = name;
    e->u.call.name_loc = name_loc;
    e->u.call.args = (pdl_expr **)args.items;
    e->u.call.nargs = args.len;
    for (size_t i = 0; i < args.len; i++)
        if (e->depth < deeper(e->u.call.args[i], NULL))
            e->depth = deeper(e->u.call.args[i], NULL);
    return e;
}

static pdl_dist *mk_dist(struct pdl_parser *ctx, pdl_loc loc, const char *name, pdl_loc name_loc,
                         pdl_vec args)
{
    pdl_dist *d = NEW(pdl_dist);
    d->loc = loc;
    d->name = name;
    d->name_loc = name_loc;
    d->nargs = args.len;
    d->args = new_node(ctx, args.len * sizeof(pdl_arg));
    for (size_t i = 0; i < args.len; i++)
        d->args[i] = *(pdl_arg *)args.items[i];
    return d;
}

static pdl_pat *mk_pat(struct pdl_parser *ctx, pdl_loc loc, pdl_pat_kind k)
{
    pdl_pat *p = NEW(pdl_pat);
    p->kind = k;
    p->loc = loc;
    return p;
}

static pdl_pat *mk_seq(struct pdl_parser *ctx, pdl_loc loc, pdl_vec items)
{
    if (items.len == 1)
        return items.items[0];
    pdl_pat *p = mk_pat(ctx, loc, PDL_P_SEQ);
    p->kids = (pdl_pat **)items.items;
    p->nkids = items.len;
    return p;
}

static pdl_clause *mk_clause(struct pdl_parser *ctx, pdl_loc loc, pdl_loc key_loc,
                             pdl_clause_kind k)
{
    pdl_clause *c = NEW(pdl_clause);
    c->kind = k;
    c->loc = loc;
    c->key_loc = key_loc;
    return c;
}

static pdl_phase *mk_phase(struct pdl_parser *ctx, pdl_loc loc, pdl_phase_kind k,
                           const char *name, pdl_loc name_loc, pdl_vec clauses)
{
    pdl_phase *p = NEW(pdl_phase);
    p->kind = k;
    p->loc = loc;
    p->name = name;
    p->name_loc = name_loc;
    p->clauses = (pdl_clause **)clauses.items;
    p->nclauses = clauses.len;
    return p;
}

static pdl_mstmt *mk_mstmt(struct pdl_parser *ctx, pdl_loc loc, pdl_loc key_loc,
                           pdl_mstmt_kind k)
{
    pdl_mstmt *m = NEW(pdl_mstmt);
    m->kind = k;
    m->loc = loc;
    m->key_loc = key_loc;
    return m;
}

/* Whether only blanks precede offset `at` on its line (the token starts the line). */
static int starts_line(const char *text, uint32_t at)
{
    while (at > 0 && (text[at - 1] == ' ' || text[at - 1] == '\t'))
        at--;
    return at == 0 || text[at - 1] == '\n';
}

/* Bison's messages are already lower-case facts; we add the hint a user needs most. */
static void pdl_yyerror(PDL_YYLTYPE *loc, void *scanner, struct pdl_parser *ctx, const char *msg)
{
    (void)scanner;
    if (strcmp(msg, "memory exhausted") == 0) {
        pdl_error(ctx->diag, *loc, "input is nested too deeply");
        pdl_note(ctx->diag, *loc, "pdlc accepts parentheses and blocks nested about %d deep",
                 YYMAXDEPTH - 10);
        return;
    }
    pdl_error(ctx->diag, *loc, "%s", msg);
    size_t len;
    const char *text = pdl_diag_text(ctx->diag, loc->file, &len);
    if (!text || loc->end > len)
        return;
    int t = ctx->last_token;
    /* Keywords that start a top-level item are always welcome at top level, so an error on one
       that is not about a missing ';' means a block before it was not closed. */
    int starter = t == WORK || t == SEQUENTIAL || t == SYNCHRONIZATION || t == CONCATENATION ||
                  t == EXECUTION || t == PARAMETER || t == PROGRAM;
    int structural = starter || t == IS || t == END || t == PHASE || t == NAME || t == PATTERN;
    if (t >= PROGRAM && t <= CONTENTION && !structural && strstr(msg, "expecting identifier")) {
        pdl_note(ctx->diag, *loc, "'%.*s' is a reserved word in PDL; choose another name",
                 (int)(loc->end - loc->begin), text + loc->begin);
    } else if (strstr(msg, "expecting ';'")) {
        pdl_note(ctx->diag, *loc, starts_line(text, loc->begin)
                                      ? "is a ';' missing at the end of the previous line?"
                                      : "is a ';' missing before this?");
    } else if ((starter || t == PDL_YYEOF) &&
               (!strstr(msg, "expecting") || strstr(msg, "'END'"))) {
        pdl_note(ctx->diag, *loc, "is an 'END;' missing before this?");
    }
}

static int run(struct pdl_parser *ctx, pdl_diag *d, pdl_arena *a, uint32_t file, int start)
{
    size_t len = 0;
    const char *text = pdl_diag_text(d, file, &len);
    if (!text)
        return -1;
    ctx->diag = d;
    ctx->arena = a;
    ctx->file = file;
    ctx->start_token = start;
    void *scanner = NULL;
    size_t errors = pdl_diag_errors(d);
    if (setjmp(ctx->bail) != 0) {
        pdl_lex_end(scanner);
        return -1;
    }
    if (pdl_lex_begin(ctx, text, len, &scanner) != 0) {
        pdl_error(d, (pdl_loc){file, 0, 0}, "out of memory");
        return -1;
    }
    int rc = pdl_yyparse(scanner, ctx);
    pdl_lex_end(scanner);
    return rc == 0 && !ctx->fatal && pdl_diag_errors(d) == errors ? 0 : -1;
}

pdl_program *pdl_parse_program(pdl_diag *d, pdl_arena *a, uint32_t file)
{
    struct pdl_parser ctx;
    memset(&ctx, 0, sizeof ctx);
    ctx.program = pdl_arena_calloc(a, 1, sizeof *ctx.program);
    if (!ctx.program)
        return NULL;
    ctx.program->file = file;
    if (run(&ctx, d, a, file, START_PROGRAM) != 0)
        return NULL;
    pdl_program *pr = ctx.program;
    pr->params = (pdl_param **)ctx.params.items;
    pr->nparams = ctx.params.len;
    pr->phases = (pdl_phase **)ctx.phases.items;
    pr->nphases = ctx.phases.len;
    pr->concats = (pdl_concat **)ctx.concats.items;
    pr->nconcats = ctx.concats.len;
    return pr;
}

pdl_machine_ast *pdl_parse_machine(pdl_diag *d, pdl_arena *a, uint32_t file)
{
    struct pdl_parser ctx;
    memset(&ctx, 0, sizeof ctx);
    ctx.machine = pdl_arena_calloc(a, 1, sizeof *ctx.machine);
    if (!ctx.machine)
        return NULL;
    ctx.machine->file = file;
    return run(&ctx, d, a, file, START_MACHINE) == 0 ? ctx.machine : NULL;
}
