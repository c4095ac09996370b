/* test_report: the result table and its three textual forms - the aligned terminal table, CSV
 * quoting and JSON escapes - against outputs written out by hand (report-N.M ids). */
#include "testutil.h"

#include "pdl_report.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The table's text in the given format (caller frees), or NULL. */
static char *render(const pdl_table *t, pdl_format fmt, const char *program)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    if (!f)
        return NULL;
    int rc = pdl_table_write(f, t, fmt, program);
    fclose(f);
    if (rc != 0) {
        free(buf);
        return NULL;
    }
    return buf;
}

static int has_trailing_space(const char *s)
{
    for (; *s; s++)
        if (*s == ' ' && (s[1] == '\n' || s[1] == '\0'))
            return 1;
    return 0;
}

/* machine | procs | mean | note, with a string holding a comma, empty cells in the first and
   last column, and a number as long as pdl_format_number makes them. */
static pdl_table *sample(void)
{
    const char *cols[] = {"machine", "procs", "mean", "note"};
    pdl_table *t = pdl_table_alloc(cols, 4);
    if (!t)
        return NULL;
    size_t r = pdl_table_add_row(t);
    pdl_table_set_str(t, r, 0, "meiko");
    pdl_table_set_num(t, r, 1, 1);
    pdl_table_set_num(t, r, 2, 100.5);
    r = pdl_table_add_row(t);
    pdl_table_set_str(t, r, 0, "a,b");
    pdl_table_set_num(t, r, 1, 16);
    pdl_table_set_num(t, r, 2, 2.25);
    pdl_table_set_str(t, r, 3, "x y");
    r = pdl_table_add_row(t);
    pdl_table_set_num(t, r, 1, 128);
    pdl_table_set_num(t, r, 2, 0.000001234567891);
    return t;
}

/* report-1.1: widths are the widest cell with the header; numbers and numeric headers right,
   strings left; two spaces between columns; empty cells blank and no trailing blanks. */
static void test_table_layout(void)
{
    pdl_table *t = sample();
    CU_ASSERT_PTR_NOT_NULL_FATAL(t);
    char *s = render(t, PDL_FMT_TABLE, "p.pdl");
    CU_ASSERT_PTR_NOT_NULL_FATAL(s);
    CU_ASSERT_STRING_EQUAL(s, "machine  procs               mean  note\n"
                              "-------  -----  -----------------  ----\n"
                              "meiko        1              100.5\n"
                              "a,b         16               2.25  x y\n"
                              "           128  0.000001234567891\n");
    CU_ASSERT_FALSE(has_trailing_space(s));
    free(s);
    pdl_table_free(t);
}

/* report-1.2: a header wider than its cells sets the width; a column of strings and numbers
   keeps its header left and each number right; an empty last column leaves no blanks. */
static void test_table_mixed(void)
{
    const char *cols[] = {"x", "a_long_header", "value", "empty"};
    pdl_table *t = pdl_table_alloc(cols, 4);
    CU_ASSERT_PTR_NOT_NULL_FATAL(t);
    size_t r = pdl_table_add_row(t);
    pdl_table_set_num(t, r, 0, 12345);
    pdl_table_set_num(t, r, 1, 7);
    pdl_table_set_str(t, r, 2, "text");
    r = pdl_table_add_row(t);
    pdl_table_set_num(t, r, 0, -3);
    pdl_table_set_num(t, r, 1, 1e-3);
    pdl_table_set_num(t, r, 2, 42);
    char *s = render(t, PDL_FMT_TABLE, NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(s);
    CU_ASSERT_STRING_EQUAL(s, "    x  a_long_header  value  empty\n"
                              "-----  -------------  -----  -----\n"
                              "12345              7  text\n"
                              "   -3          0.001     42\n");
    CU_ASSERT_FALSE(has_trailing_space(s));
    free(s);
    pdl_table_free(t);
}

/* report-1.3: a UTF-8 name takes one column per character; a line break or tab inside a cell
   becomes a space (the rows stay one line each); a string's own trailing blanks are dropped at
   the line's end. */
static void test_table_text(void)
{
    const char *cols[] = {"name", "p"};
    pdl_table *t = pdl_table_alloc(cols, 2);
    CU_ASSERT_PTR_NOT_NULL_FATAL(t);
    size_t r = pdl_table_add_row(t);
    pdl_table_set_str(t, r, 0, "Z\xC3\xBCrich");
    pdl_table_set_num(t, r, 1, 2);
    r = pdl_table_add_row(t);
    pdl_table_set_str(t, r, 0, "a\nb\tc");
    pdl_table_set_num(t, r, 1, 10);
    r = pdl_table_add_row(t);
    pdl_table_set_num(t, r, 1, 3);
    pdl_table_set_str(t, r, 0, "x");
    pdl_table_set_str(t, r, 1, "end  ");
    char *s = render(t, PDL_FMT_TABLE, NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(s);
    CU_ASSERT_STRING_EQUAL(s, "name    p\n"
                              "------  -----\n"
                              "Z\xC3\xBCrich      2\n"
                              "a b c      10\n"
                              "x       end\n");
    CU_ASSERT_FALSE(has_trailing_space(s));
    free(s);
    pdl_table_free(t);
}

/* report-1.4: no columns or no rows still give a header and a rule. */
static void test_table_empty(void)
{
    const char *cols[] = {"procs", "mean"};
    pdl_table *t = pdl_table_alloc(cols, 2);
    CU_ASSERT_PTR_NOT_NULL_FATAL(t);
    char *s = render(t, PDL_FMT_TABLE, NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(s);
    CU_ASSERT_STRING_EQUAL(s, "procs  mean\n-----  ----\n");
    free(s);
    pdl_table_free(t);
    t = pdl_table_alloc(NULL, 0);
    CU_ASSERT_PTR_NOT_NULL_FATAL(t);
    pdl_table_add_row(t);
    s = render(t, PDL_FMT_TABLE, NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(s);
    CU_ASSERT_STRING_EQUAL(s, "\n\n\n");
    free(s);
    pdl_table_free(t);
}

/* report-1.5: every number is the same text in the table as in CSV (one column, so each CSV
   line is the bare number), including the longest pdl_format_number can make. */
static void test_table_numbers_match_csv(void)
{
    const double v[] = {0,
                        -0.0,
                        1,
                        160,
                        87.104632123456,
                        1.234e-12,
                        -2.5e-7,
                        21037060,
                        1e15,
                        -1.7976931348623157e308,
                        1e300,
                        0.1 + 0.2,
                        123456789.5,
                        9.999999999949, /* rounds up */
                        -4.9406564584124654e-324,
                        1e-50};
    size_t n = sizeof v / sizeof *v;
    const char *cols[] = {"v"};
    pdl_table *t = pdl_table_alloc(cols, 1);
    CU_ASSERT_PTR_NOT_NULL_FATAL(t);
    for (size_t k = 0; k < n; k++)
        pdl_table_set_num(t, pdl_table_add_row(t), 0, v[k]);
    char *csv = render(t, PDL_FMT_CSV, NULL), *tab = render(t, PDL_FMT_TABLE, NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(csv);
    CU_ASSERT_PTR_NOT_NULL_FATAL(tab);
    char *cs = NULL, *ts = NULL;
    char *cl = strtok_r(csv, "\n", &cs), *tl = strtok_r(tab, "\n", &ts);
    CU_ASSERT_STRING_EQUAL(cl, "v");
    tl = strtok_r(NULL, "\n", &ts); /* the rule */
    for (size_t k = 0; k < n; k++) {
        cl = strtok_r(NULL, "\n", &cs);
        tl = strtok_r(NULL, "\n", &ts);
        CU_ASSERT_PTR_NOT_NULL_FATAL(cl);
        CU_ASSERT_PTR_NOT_NULL_FATAL(tl);
        while (*tl == ' ')
            tl++;
        CU_ASSERT_STRING_EQUAL(tl, cl);
        char buf[PDL_NUM_TEXT_MAX];
        pdl_table_cell_text(t, k, 0, buf, sizeof buf);
        CU_ASSERT_STRING_EQUAL(buf, cl);
    }
    /* The largest magnitude is written out in full: 309 digits and the sign. */
    char buf[PDL_NUM_TEXT_MAX];
    pdl_table_cell_text(t, 9, 0, buf, sizeof buf);
    CU_ASSERT_EQUAL(strlen(buf), 310);
    /* The smallest subnormal, -4.9e-324: "-0." and 321 zeros before its digits "49406564584"
       (ten significant digits round to 4.940656458, trailing zeros dropped); 1e-50 likewise
       "0." + 49 zeros + "1", not 0. */
    pdl_table_cell_text(t, 14, 0, buf, sizeof buf);
    CU_ASSERT_EQUAL(strncmp(buf, "-0.000", 6), 0);
    CU_ASSERT_EQUAL(strlen(buf), 3 + 323 + 10);
    CU_ASSERT_EQUAL(strcmp(buf + 3 + 323, "4940656458"), 0);
    pdl_table_cell_text(t, 15, 0, buf, sizeof buf);
    CU_ASSERT_EQUAL(strlen(buf), 2 + 49 + 1);
    CU_ASSERT_EQUAL(buf[2 + 49], '1');
    free(csv);
    free(tab);
    pdl_table_free(t);
}

/* report-1.6: cell text and kind: numbers as CSV writes them, strings as they are, "" for an
   empty cell; a small buffer cuts like snprintf. */
static void test_cell_access(void)
{
    pdl_table *t = sample();
    CU_ASSERT_PTR_NOT_NULL_FATAL(t);
    char buf[32];
    pdl_table_cell_text(t, 0, 2, buf, sizeof buf);
    CU_ASSERT_STRING_EQUAL(buf, "100.5");
    CU_ASSERT_TRUE(pdl_table_is_num(t, 0, 2));
    pdl_table_cell_text(t, 1, 0, buf, sizeof buf);
    CU_ASSERT_STRING_EQUAL(buf, "a,b");
    CU_ASSERT_FALSE(pdl_table_is_num(t, 1, 0));
    strcpy(buf, "stale");
    pdl_table_cell_text(t, 2, 0, buf, sizeof buf);
    CU_ASSERT_STRING_EQUAL(buf, "");
    CU_ASSERT_FALSE(pdl_table_is_num(t, 2, 0));
    CU_ASSERT_FALSE(pdl_table_is_num(t, 0, 3));
    pdl_table_cell_text(t, 2, 2, buf, 5);
    CU_ASSERT_STRING_EQUAL(buf, "0.00");
    pdl_table_cell_text(t, 0, 0, buf, 0); /* writes nothing at all */
    CU_ASSERT_STRING_EQUAL(buf, "0.00");
    CU_ASSERT_STRING_EQUAL(pdl_table_col_name(t, 3), "note");
    /* A string set over a number makes the cell a string. */
    pdl_table_set_str(t, 0, 2, "n/a");
    CU_ASSERT_FALSE(pdl_table_is_num(t, 0, 2));
    pdl_table_set_num(t, 0, 2, 3);
    CU_ASSERT_TRUE(pdl_table_is_num(t, 0, 2));
    pdl_table_free(t);
}

/* report-2.1: CSV quotes a field only when it holds a comma, a quote or a line break, doubling
   quotes (RFC 4180); empty cells are empty fields; headers are quoted the same way. */
static void test_csv_quoting(void)
{
    const char *cols[] = {"name", "a,b", "v"};
    pdl_table *t = pdl_table_alloc(cols, 3);
    CU_ASSERT_PTR_NOT_NULL_FATAL(t);
    size_t r = pdl_table_add_row(t);
    pdl_table_set_str(t, r, 0, "say \"hi\"");
    pdl_table_set_str(t, r, 1, "x,y");
    pdl_table_set_num(t, r, 2, 0.5);
    r = pdl_table_add_row(t);
    pdl_table_set_str(t, r, 0, "two\nlines");
    pdl_table_set_str(t, r, 1, "plain text");
    r = pdl_table_add_row(t);
    pdl_table_set_num(t, r, 2, -4);
    char *s = render(t, PDL_FMT_CSV, NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(s);
    CU_ASSERT_STRING_EQUAL(s, "name,\"a,b\",v\n"
                              "\"say \"\"hi\"\"\",\"x,y\",0.5\n"
                              "\"two\nlines\",plain text,\n"
                              ",,-4\n");
    free(s);
    pdl_table_free(t);
}

/* report-2.2: JSON: empty cells (and non-finite numbers) are null, strings escape quotes,
   backslashes and control characters, numbers are bare; the program name is escaped too. */
static void test_json_escapes(void)
{
    const char *cols[] = {"m\"x", "v"};
    pdl_table *t = pdl_table_alloc(cols, 2);
    CU_ASSERT_PTR_NOT_NULL_FATAL(t);
    size_t r = pdl_table_add_row(t);
    pdl_table_set_str(t, r, 0, "a\\b\n\x01");
    pdl_table_set_num(t, r, 1, 2.5);
    r = pdl_table_add_row(t);
    pdl_table_set_num(t, r, 1, 1e-3);
    r = pdl_table_add_row(t);
    pdl_table_set_num(t, r, 1, NAN); /* JSON has no NaN: null keeps the document valid */
    char *s = render(t, PDL_FMT_JSON, "dir\\p.pdl");
    CU_ASSERT_PTR_NOT_NULL_FATAL(s);
    CU_ASSERT_STRING_EQUAL(s, "{\n"
                              "  \"program\": \"dir\\\\p.pdl\",\n"
                              "  \"columns\": [\"m\\\"x\", \"v\"],\n"
                              "  \"rows\": [\n"
                              "    {\"m\\\"x\": \"a\\\\b\\u000a\\u0001\", \"v\": 2.5},\n"
                              "    {\"m\\\"x\": null, \"v\": 0.001},\n"
                              "    {\"m\\\"x\": null, \"v\": null}\n"
                              "  ]\n"
                              "}\n");
    free(s);
    pdl_table_free(t);
    /* No rows: an empty array on one line, and a missing program name is "". */
    const char *one[] = {"procs"};
    t = pdl_table_alloc(one, 1);
    CU_ASSERT_PTR_NOT_NULL_FATAL(t);
    s = render(t, PDL_FMT_JSON, NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(s);
    CU_ASSERT_STRING_EQUAL(s, "{\n  \"program\": \"\",\n  \"columns\": [\"procs\"],\n"
                              "  \"rows\": []\n}\n");
    free(s);
    pdl_table_free(t);
}

int main(void)
{
    if (CU_initialize_registry() != CUE_SUCCESS)
        return 1;
    CU_pSuite s = CU_add_suite("report", NULL, NULL);
    CU_add_test(s, "report-1.1 table layout", test_table_layout);
    CU_add_test(s, "report-1.2 table widths and mixed columns", test_table_mixed);
    CU_add_test(s, "report-1.3 table text", test_table_text);
    CU_add_test(s, "report-1.4 empty tables", test_table_empty);
    CU_add_test(s, "report-1.5 numbers as in CSV", test_table_numbers_match_csv);
    CU_add_test(s, "report-1.6 cell access", test_cell_access);
    CU_add_test(s, "report-2.1 CSV quoting", test_csv_quoting);
    CU_add_test(s, "report-2.2 JSON escapes and null", test_json_escapes);
    return fx_run();
}
