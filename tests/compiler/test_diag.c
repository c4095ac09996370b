/* test_diag: source registry and diagnostic printing - line/column arithmetic (UTF-8), caret
 * rendering with tabs, note placement, suggestions, escapes, input limits and the progress line
 * (diag-N.M ids). */
#include "testutil.h"

#include <stdlib.h>
#include <string.h>

/* diag-1.1: lines and character columns; a multibyte character is one column. */
static void test_linecol(void)
{
    fixture f;
    fx_open(&f);
    const char *t = "ab\n\xC3\xA9x\n\nz";
    uint32_t id;
    CU_ASSERT_FATAL(pdl_diag_add_source(f.d, "t", t, strlen(t), &id) == 0);
    unsigned line, col;
    pdl_diag_linecol(f.d, id, 0, &line, &col);
    CU_ASSERT(line == 1 && col == 1);
    pdl_diag_linecol(f.d, id, 5, &line, &col); /* the 'x' after U+00E9 */
    CU_ASSERT(line == 2 && col == 2);
    pdl_diag_linecol(f.d, id, 7, &line, &col); /* the empty third line */
    CU_ASSERT(line == 3 && col == 1);
    pdl_diag_linecol(f.d, id, (uint32_t)strlen(t), &line, &col); /* end of input */
    CU_ASSERT(line == 4 && col == 2);
    fx_close(&f);
}

/* diag-1.2: the caret line copies tabs, underlines the range, and stops at the line's end. */
static void test_render(void)
{
    fixture f;
    fx_open(&f);
    const char *t = "\tab cdef\nnext";
    uint32_t id;
    CU_ASSERT_FATAL(pdl_diag_add_source(f.d, "f.pdl", t, strlen(t), &id) == 0);
    pdl_error(f.d, (pdl_loc){id, 4, 12}, "bad %s", "thing");
    CU_ASSERT_STRING_EQUAL(fx_text(&f), "f.pdl:1:5: error: bad thing\n"
                                        "    1 | \tab cdef\n"
                                        "      | \t   ^~~~\n");
    fx_close(&f);
}

/* diag-1.3: a note at the error's own place shows no source; elsewhere it does. Notes after a
 * suppressed diagnostic are suppressed too. */
static void test_notes(void)
{
    fixture f;
    fx_open(&f);
    const char *t = "one two";
    uint32_t id;
    CU_ASSERT_FATAL(pdl_diag_add_source(f.d, "f", t, strlen(t), &id) == 0);
    pdl_warning(f.d, (pdl_loc){id, 4, 7}, "w");
    pdl_note(f.d, (pdl_loc){id, 4, 7}, "same");
    pdl_note(f.d, (pdl_loc){id, 0, 3}, "other");
    CU_ASSERT_STRING_EQUAL(fx_text(&f), "f:1:5: warning: w\n"
                                        "    1 | one two\n"
                                        "      |     ^~~\n"
                                        "f:1:5: note: same\n"
                                        "f:1:1: note: other\n"
                                        "    1 | one two\n"
                                        "      | ^~~\n");
    fx_close(&f);
    fx_open(&f);
    pdl_diag_set_quiet_warnings(f.d, 1);
    pdl_warning(f.d, (pdl_loc){0, 0, 0}, "hidden");
    pdl_note(f.d, (pdl_loc){0, 0, 0}, "hidden too");
    CU_ASSERT_STRING_EQUAL(fx_text(&f), "");
    CU_ASSERT_EQUAL(pdl_diag_warnings(f.d), 1);
    fx_close(&f);
}

/* diag-1.4: suggestions find near misses (one edit for short names, a transposition counts as
 * one) and nothing for names that are far off. */
static void test_closest(void)
{
    const char *c[] = {"width", "height", "w1", "ERLANG"};
    CU_ASSERT_STRING_EQUAL(pdl_closest("widht", c, 4), "width");
    CU_ASSERT_STRING_EQUAL(pdl_closest("heigth", c, 4), "height");
    CU_ASSERT_STRING_EQUAL(pdl_closest("w2", c, 4), "w1");
    CU_ASSERT_STRING_EQUAL(pdl_closest("erlang", c, 4), "ERLANG");
    CU_ASSERT_PTR_NULL(pdl_closest("depth", c, 4));
    CU_ASSERT_PTR_NULL(pdl_closest("width", c, 0));
}

/* diag-1.5: escapes keep output printable. */
static void test_escape(void)
{
    char buf[32];
    CU_ASSERT_STRING_EQUAL(pdl_escape("a\x01\\\xff", 4, buf, sizeof buf), "a\\x01\\x5C\\xFF");
    CU_ASSERT_STRING_EQUAL(pdl_escape("abcdefgh", 8, buf, 6), "a");
}

/* diag-1.6: a source over the size limit is refused with an error. */
static void test_too_large(void)
{
    fixture f;
    fx_open(&f);
    size_t n = (size_t)PDL_MAX_SOURCE_BYTES + 1;
    char *big = malloc(n);
    CU_ASSERT_PTR_NOT_NULL_FATAL(big);
    memset(big, ' ', n);
    uint32_t id;
    CU_ASSERT_EQUAL(pdl_diag_add_source(f.d, "big.pdl", big, n, &id), -1);
    CU_ASSERT_PTR_NOT_NULL(strstr(fx_text(&f), "pdlc: error: 'big.pdl' is too large"));
    free(big);
    fx_close(&f);
}

/* diag-1.7: after PDL_MAX_ERRORS errors the rest are counted but not printed. */
static void test_error_limit(void)
{
    fixture f;
    fx_open(&f);
    for (int k = 0; k < PDL_MAX_ERRORS + 10; k++)
        pdl_error(f.d, (pdl_loc){0, 0, 0}, "e%d", k);
    CU_ASSERT_EQUAL(pdl_diag_errors(f.d), PDL_MAX_ERRORS + 10);
    const char *t = fx_text(&f);
    CU_ASSERT_PTR_NOT_NULL(strstr(t, "e49\n"));
    CU_ASSERT_PTR_NULL(strstr(t, "e50\n"));
    CU_ASSERT_PTR_NOT_NULL(strstr(t, "stopping after 50 errors"));
    fx_close(&f);
}

/* diag-1.8: a progress line replaces itself in place (carriage return, text, erase to the end of
 * the line) and is erased before the next diagnostic and by pdl_diag_progress_end, which does
 * nothing when no line is shown. Expected bytes written from the VT100 sequences by hand. */
static void test_progress(void)
{
    fixture f;
    fx_open(&f);
    pdl_diag_progress_end(f.d); /* nothing shown: nothing written */
    pdl_diag_progress(f.d, "p = %d", 1);
    pdl_diag_progress(f.d, "p = %d", 2);
    pdl_error(f.d, (pdl_loc){0, 0, 0}, "e");
    pdl_diag_progress_end(f.d); /* already erased by the error */
    pdl_diag_progress(f.d, "p = 3");
    pdl_diag_progress_end(f.d);
    CU_ASSERT_STRING_EQUAL(fx_text(&f), "\rp = 1\033[K\rp = 2\033[K\r\033[Kpdlc: error: e\n"
                                        "\rp = 3\033[K\r\033[K");
    fx_close(&f);
}

/* diag-1.9: while held, errors are neither printed nor counted, their notes and any warnings are
 * dropped, and the first error's message is kept; after the release all prints again. */
static void test_hold(void)
{
    fixture f;
    fx_open(&f);
    pdl_diag_hold(f.d);
    pdl_error(f.d, (pdl_loc){0, 0, 0}, "first %d", 1);
    pdl_note(f.d, (pdl_loc){0, 0, 0}, "its note");
    pdl_warning(f.d, (pdl_loc){0, 0, 0}, "w");
    pdl_error(f.d, (pdl_loc){0, 0, 0}, "second");
    const char *first = NULL;
    CU_ASSERT_EQUAL(pdl_diag_release(f.d, &first), 2);
    CU_ASSERT_STRING_EQUAL(first, "first 1");
    CU_ASSERT_EQUAL(pdl_diag_errors(f.d), 0);
    CU_ASSERT_EQUAL(pdl_diag_warnings(f.d), 0);
    pdl_error(f.d, (pdl_loc){0, 0, 0}, "after");
    CU_ASSERT_STRING_EQUAL(fx_text(&f), "pdlc: error: after\n");
    CU_ASSERT_EQUAL(pdl_diag_errors(f.d), 1);
    fx_close(&f);
}

int main(void)
{
    if (CU_initialize_registry() != CUE_SUCCESS)
        return 1;
    CU_pSuite s = CU_add_suite("diag", NULL, NULL);
    CU_add_test(s, "diag-1.1 line and column", test_linecol);
    CU_add_test(s, "diag-1.2 caret rendering", test_render);
    CU_add_test(s, "diag-1.3 notes", test_notes);
    CU_add_test(s, "diag-1.4 suggestions", test_closest);
    CU_add_test(s, "diag-1.5 escapes", test_escape);
    CU_add_test(s, "diag-1.6 size limit", test_too_large);
    CU_add_test(s, "diag-1.7 error limit", test_error_limit);
    CU_add_test(s, "diag-1.8 progress line", test_progress);
    CU_add_test(s, "diag-1.9 held diagnostics", test_hold);
    return fx_run();
}
