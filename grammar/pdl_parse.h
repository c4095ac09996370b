/* pdl_parse: entry points of the PDL front end (scanner pdl.l + parser pdl.y).
 * Text in, AST out: the tree lives in the caller's arena; errors go to the caller's diag. */
#ifndef PDL_PARSE_H
#define PDL_PARSE_H

#include "pdl_ast.h"

#include <setjmp.h>

/* Parse state shared by scanner and parser (the scanner's "extra"). Internal to the front end. */
struct pdl_parser {
    pdl_diag *diag;
    pdl_arena *arena;
    uint32_t file;
    uint32_t offset; /* scanner position, bytes */
    int start_token; /* selects program or machine grammar, returned once */
    int last_token;  /* for error hints */
    pdl_loc comment_start;
    int fatal;    /* out of memory: stop */
    int too_deep; /* an expression went past PDL_MAX_EXPR_DEPTH (reported once) */
    jmp_buf bail;
    pdl_program *program;
    pdl_vec params, phases, concats; /* the program's lists while they grow */
    pdl_machine_ast *machine;
};

/* Parses source `file` (registered in d) as a PDL program. Returns the tree (arena-owned),
 * or NULL when there were syntax errors (all reported; the partial tree is dropped). */
pdl_program *pdl_parse_program(pdl_diag *d, pdl_arena *a, uint32_t file);
/* Same for a machine model file. */
pdl_machine_ast *pdl_parse_machine(pdl_diag *d, pdl_arena *a, uint32_t file);

/* Scanner helpers used by the parser (defined in pdl.l). */
int pdl_lex_begin(struct pdl_parser *ctx, const char *text, size_t len, void **scanner);
void pdl_lex_end(void *scanner);

#endif
