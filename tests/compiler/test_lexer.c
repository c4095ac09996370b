/* test_lexer: the scanner alone - token kinds, keyword case, hyphenated keywords, numbers,
 * strings, comments, and the byte ranges it gives every token (lex-N.M ids). */
#include "testutil.h"

#include "pdl.tab.h"

#include <string.h>

typedef struct lexed {
    int tok[64];
    pdl_loc loc[64];
    double num[64];
    const char *str[64];
    int n;
} lexed;

static void lex_all(fixture *f, const char *text, lexed *out)
{
    struct pdl_parser ctx;
    memset(&ctx, 0, sizeof ctx);
    memset(out, 0, sizeof *out);
    uint32_t id;
    CU_ASSERT_FATAL(pdl_diag_add_source(f->d, "t.pdl", text, strlen(text), &id) == 0);
    ctx.diag = f->d;
    ctx.arena = f->a;
    ctx.file = id;
    void *scanner = NULL;
    CU_ASSERT_FATAL(pdl_lex_begin(&ctx, text, strlen(text), &scanner) == 0);
    for (;;) {
        PDL_YYSTYPE v;
        PDL_YYLTYPE l;
        int t = pdl_yylex(&v, &l, scanner);
        if (t == PDL_YYEOF || out->n == 64)
            break;
        out->tok[out->n] = t;
        out->loc[out->n] = l;
        if (t == NUMBER)
            out->num[out->n] = v.num;
        if (t == IDENT || t == STRING)
            out->str[out->n] = v.str;
        out->n++;
    }
    pdl_lex_end(scanner);
}

/* lex-1.1: keywords are case-insensitive; identifiers keep their case. */
static void test_keyword_case(void)
{
    fixture f;
    fx_open(&f);
    lexed l;
    lex_all(&f, "work Work WORK Width width", &l);
    CU_ASSERT_EQUAL(l.n, 5);
    CU_ASSERT_EQUAL(l.tok[0], WORK);
    CU_ASSERT_EQUAL(l.tok[1], WORK);
    CU_ASSERT_EQUAL(l.tok[2], WORK);
    CU_ASSERT_EQUAL(l.tok[3], IDENT);
    CU_ASSERT_STRING_EQUAL(l.str[3], "Width");
    CU_ASSERT_STRING_EQUAL(l.str[4], "width");
    fx_close(&f);
}

/* lex-1.2: hyphenated scheme names are one token; a minus elsewhere is an operator. */
static void test_hyphenated(void)
{
    fixture f;
    fx_open(&f);
    lexed l;
    lex_all(&f, "NEIGHBOR-TORUS fork-join NEIGHBOR - TORUS a-b", &l);
    int expect[] = {NEIGHBOR_TORUS, FORK_JOIN, NEIGHBOR, '-', TORUS, IDENT, '-', IDENT};
    CU_ASSERT_EQUAL_FATAL(l.n, 8);
    for (int k = 0; k < 8; k++)
        CU_ASSERT_EQUAL(l.tok[k], expect[k]);
    fx_close(&f);
}

/* lex-1.3: '->' and the paper's '- >' are both arrows; comparison operators are tokens. */
static void test_operators(void)
{
    fixture f;
    fx_open(&f);
    lexed l;
    lex_all(&f, "a->b - > c <= >= == != && || ^ ? :", &l);
    int expect[] = {IDENT, ARROW, IDENT, ARROW, IDENT, LE, GE, EQ, NE, AND, OR, '^', '?', ':'};
    CU_ASSERT_EQUAL_FATAL(l.n, 14);
    for (int k = 0; k < 14; k++)
        CU_ASSERT_EQUAL(l.tok[k], expect[k]);
    fx_close(&f);
}

/* lex-1.4: number forms; values compared with the literal's exact double (strtod). */
static void test_numbers(void)
{
    fixture f;
    fx_open(&f);
    lexed l;
    lex_all(&f, "42 0.5 .25 1e-3 2.5E+2 7.", &l);
    double expect[] = {42, 0.5, 0.25, 1e-3, 250, 7};
    CU_ASSERT_EQUAL_FATAL(l.n, 6);
    for (int k = 0; k < 6; k++) {
        CU_ASSERT_EQUAL(l.tok[k], NUMBER);
        CU_ASSERT_DOUBLE_EQUAL(l.num[k], expect[k], 0);
    }
    CU_ASSERT_EQUAL(pdl_diag_errors(f.d), 0);
    fx_close(&f);
}

/* lex-1.5: strings lose their quotes; comments of both kinds vanish; locations are byte
 * ranges of the token text. */
static void test_strings_comments_locations(void)
{
    fixture f;
    fx_open(&f);
    lexed l;
    const char *text = "// line\nNAME /* block\n*/ 'dur.$ARCH' ;";
    lex_all(&f, text, &l);
    CU_ASSERT_EQUAL_FATAL(l.n, 3);
    CU_ASSERT_EQUAL(l.tok[0], NAME);
    CU_ASSERT_EQUAL(l.loc[0].begin, 8);
    CU_ASSERT_EQUAL(l.loc[0].end, 12);
    CU_ASSERT_EQUAL(l.tok[1], STRING);
    CU_ASSERT_STRING_EQUAL(l.str[1], "dur.$ARCH");
    CU_ASSERT_EQUAL(l.loc[1].begin, (uint32_t)(strstr(text, "'dur") - text));
    CU_ASSERT_EQUAL(l.loc[1].end, l.loc[1].begin + 11);
    CU_ASSERT_EQUAL(l.tok[2], ';');
    fx_close(&f);
}

/* lex-1.6: a stray byte is one error and an error token; NUL bytes are handled too. */
static void test_bad_bytes(void)
{
    fixture f;
    fx_open(&f);
    struct pdl_parser ctx;
    memset(&ctx, 0, sizeof ctx);
    const char text[] = {'a', ' ', '@', ' ', '\0', ' ', 'b'};
    uint32_t id;
    CU_ASSERT_FATAL(pdl_diag_add_source(f.d, "t.pdl", text, sizeof text, &id) == 0);
    ctx.diag = f.d;
    ctx.arena = f.a;
    ctx.file = id;
    void *scanner;
    CU_ASSERT_FATAL(pdl_lex_begin(&ctx, text, sizeof text, &scanner) == 0);
    int toks[8], n = 0;
    PDL_YYSTYPE v;
    PDL_YYLTYPE lo;
    for (int t; n < 8 && (t = pdl_yylex(&v, &lo, scanner)) != PDL_YYEOF;)
        toks[n++] = t;
    pdl_lex_end(scanner);
    CU_ASSERT_EQUAL(n, 4);
    CU_ASSERT_EQUAL(toks[0], IDENT);
    CU_ASSERT_EQUAL(toks[1], PDL_YYerror);
    CU_ASSERT_EQUAL(toks[2], PDL_YYerror);
    CU_ASSERT_EQUAL(toks[3], IDENT);
    CU_ASSERT_EQUAL(pdl_diag_errors(f.d), 2);
    CU_ASSERT_PTR_NOT_NULL(strstr(fx_text(&f), "unexpected character '\\x00'"));
    fx_close(&f);
}

int main(void)
{
    if (CU_initialize_registry() != CUE_SUCCESS)
        return 1;
    CU_pSuite s = CU_add_suite("lexer", NULL, NULL);
    CU_add_test(s, "lex-1.1 keyword case", test_keyword_case);
    CU_add_test(s, "lex-1.2 hyphenated keywords", test_hyphenated);
    CU_add_test(s, "lex-1.3 operators", test_operators);
    CU_add_test(s, "lex-1.4 numbers", test_numbers);
    CU_add_test(s, "lex-1.5 strings, comments, locations", test_strings_comments_locations);
    CU_add_test(s, "lex-1.6 bad bytes", test_bad_bytes);
    return fx_run();
}
