/* plotcheck: --plot's drawing through the real gnuplot (plot-N.M ids): SVG that xmllint accepts,
 * with an <svg> root and every series in the legend; PNG with its signature; the same SVG twice
 * for the same table; and the failures - no gnuplot, a failing gnuplot, a missing directory, a
 * bad extension, an unusable table - which must leave no file behind and keep an old target.
 * gnuplot and xmllint are required: a machine without them fails, naming the Debian package.
 *   usage: plotcheck SCRATCH_DIR */
#include "pdl_plot.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static int failures, checks;

#define CHECK(cond, ...)                                                                           \
    do {                                                                                           \
        checks++;                                                                                  \
        if (!(cond)) {                                                                             \
            failures++;                                                                            \
            printf("FAIL %s:%d: ", __FILE__, __LINE__);                                            \
            printf(__VA_ARGS__);                                                                   \
            printf("\n");                                                                          \
        }                                                                                          \
    } while (0)

static char dir[4096];

static char *slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    size_t cap = 4096, n = 0;
    char *s = malloc(cap + 1);
    size_t got;
    while (s && (got = fread(s + n, 1, cap - n, f)) > 0) {
        n += got;
        if (n == cap) {
            cap *= 2;
            char *t = realloc(s, cap + 1);
            if (!t) {
                free(s);
                s = NULL;
            }
            s = t;
        }
    }
    fclose(f);
    if (s) {
        s[n] = '\0';
        if (len)
            *len = n;
    }
    return s;
}

static const char *in_dir(const char *name)
{
    static char buf[2][4096 + 256 + 2]; /* the directory, a slash, a d_name */
    static int which;
    which ^= 1;
    snprintf(buf[which], sizeof buf[which], "%s/%s", dir, name);
    return buf[which];
}

/* The names in the scratch directory, space-separated, sorted by readdir order; "" when empty. */
static size_t count_entries(char *names, size_t size)
{
    DIR *d = opendir(dir);
    size_t n = 0;
    names[0] = '\0';
    if (!d)
        return 0;
    for (struct dirent *e; (e = readdir(d));) {
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
            continue;
        n++;
        size_t used = strlen(names);
        snprintf(names + used, size - used, "%s%s", used ? " " : "", e->d_name);
    }
    closedir(d);
    return n;
}

static void clear_dir(void)
{
    DIR *d = opendir(dir);
    if (!d)
        return;
    for (struct dirent *e; (e = readdir(d));)
        if (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0)
            remove(in_dir(e->d_name));
    closedir(d);
}

/* What a call printed to its error stream (caller frees). */
typedef struct capture {
    FILE *f;
    char *text;
    size_t len;
} capture;

static FILE *cap_open(capture *c)
{
    c->text = NULL;
    c->f = open_memstream(&c->text, &c->len);
    return c->f;
}

static const char *cap_text(capture *c)
{
    fflush(c->f);
    return c->text ? c->text : "";
}

static void cap_close(capture *c)
{
    fclose(c->f);
    free(c->text);
}

static int on_path(const char *tool)
{
    char cmd[256];
    snprintf(cmd, sizeof cmd, "command -v %s >/dev/null 2>&1", tool);
    return system(cmd) == 0;
}

static int xml_ok(const char *path)
{
    char cmd[4400];
    snprintf(cmd, sizeof cmd, "xmllint --noout '%s'", path);
    return system(cmd) == 0;
}

/* One series, no key columns: procs listed out of order, no bounds. */
static pdl_table *single(void)
{
    const char *cols[] = {"procs", "mean", "speedup", "efficiency"};
    const double p[] = {8, 1, 4, 2}, s[] = {6.1, 1, 3.6, 1.95};
    pdl_table *t = pdl_table_alloc(cols, 4);
    for (size_t k = 0; t && k < 4; k++) {
        size_t r = pdl_table_add_row(t);
        pdl_table_set_num(t, r, 0, p[k]);
        pdl_table_set_num(t, r, 1, 1000 / s[k]);
        pdl_table_set_num(t, r, 2, s[k]);
        pdl_table_set_num(t, r, 3, s[k] / p[k]);
    }
    return t;
}

/* Three series keyed by a sweep value and a machine, with bounds on the mean and the average
   parallelism; one machine's name has characters that need quoting in gnuplot and in XML, and
   one row has no bounds (the band skips it). */
static const char *const machines[] = {"meiko", "parsytec", "o'neil & <co>"};
static const double sizes[] = {100, 100, 200};
static const char *const legends[] = {"n=100, machine=meiko", "n=100, machine=parsytec",
                                      "n=200, machine=o'neil &amp; &lt;co>"};

static pdl_table *several(void)
{
    const char *cols[] = {"n",     "machine", "procs", "mean",           "speedup",
                          "lower", "upper",   "exact", "avg_parallelism"};
    pdl_table *t = pdl_table_alloc(cols, 9);
    for (size_t m = 0; t && m < 3; m++) {
        double t1 = 1000 * sizes[m];
        for (double p = 1; p <= 16; p *= 2) {
            double mean = t1 / p * (1 + 0.05 * (double)m * p);
            size_t r = pdl_table_add_row(t);
            pdl_table_set_num(t, r, 0, sizes[m]);
            pdl_table_set_str(t, r, 1, machines[m]);
            pdl_table_set_num(t, r, 2, p);
            pdl_table_set_num(t, r, 3, mean);
            pdl_table_set_num(t, r, 4, t1 / mean);
            if (!(m == 1 && p == 4)) {
                pdl_table_set_num(t, r, 5, mean * 0.9);
                pdl_table_set_num(t, r, 6, mean * 1.2);
            }
            pdl_table_set_num(t, r, 7, 0);
            pdl_table_set_num(t, r, 8, 10 + 2 * (double)m);
        }
    }
    return t;
}

/* plot-1.x: SVG and PNG of both tables. */
static void test_draw(void)
{
    pdl_table *a = single(), *b = several();
    CHECK(a && b, "out of memory");
    if (!a || !b)
        goto done;
    capture c;
    cap_open(&c);
    const char *svg = in_dir("single.svg");
    CHECK(pdl_plot_write(a, svg, "single.pdl", c.f) == 0, "plot-1.1 single.svg: %s", cap_text(&c));
    char *s = slurp(svg, NULL);
    CHECK(s && xml_ok(svg), "plot-1.1 single.svg is not well-formed XML");
    CHECK(s && strstr(s, "<svg"), "plot-1.1 no <svg root");
    CHECK(s && strstr(s, ">speedup</text>") && strstr(s, ">ideal</text>") &&
              strstr(s, ">single.pdl</text>") && strstr(s, ">processors</text>"),
          "plot-1.1 legend, title or axis label missing");
    CHECK(s && !strstr(s, "bounds") && !strstr(s, "parallelism"),
          "plot-1.1 a band or a parallelism line without the columns");
    free(s);

    svg = in_dir("Several.SVG");
    CHECK(pdl_plot_write(b, svg, "sweep 'n' of jacobi.pdl", c.f) == 0, "plot-1.2 several: %s",
          cap_text(&c));
    s = slurp(svg, NULL);
    CHECK(s && xml_ok(svg), "plot-1.2 Several.SVG is not well-formed XML");
    CHECK(s && strstr(s, "<svg"), "plot-1.2 no <svg root");
    for (size_t m = 0; s && m < 3; m++) {
        char want[128];
        snprintf(want, sizeof want, ">%s</text>", legends[m]);
        CHECK(strstr(s, want), "plot-1.2 legend '%s' missing", legends[m]);
    }
    /* The band and the parallelism line are explained once, not per series. */
    CHECK(s && strstr(s, ">bounds</text>") && strstr(s, ">average parallelism</text>") &&
              strstr(s, ">ideal</text>"),
          "plot-1.2 legend of the band or the lines missing");
    CHECK(s && strstr(s, ">sweep 'n' of jacobi.pdl</text>"), "plot-1.2 title missing");

    /* plot-1.3: the same table gives the same SVG. */
    const char *again = in_dir("again.svg");
    CHECK(pdl_plot_write(b, again, "sweep 'n' of jacobi.pdl", c.f) == 0, "plot-1.3: %s",
          cap_text(&c));
    size_t n1 = 0, n2 = 0;
    char *s2 = slurp(again, &n2);
    free(s);
    s = slurp(svg, &n1);
    CHECK(s && s2 && n1 == n2 && memcmp(s, s2, n1) == 0, "plot-1.3 two runs differ");
    free(s);
    free(s2);

    /* plot-1.4: PNG (pngcairo on Debian's gnuplot-nox) and its signature. */
    const char *png = in_dir("several.png");
    CHECK(pdl_plot_write(b, png, "jacobi.pdl", c.f) == 0, "plot-1.4 png: %s", cap_text(&c));
    size_t n = 0;
    s = slurp(png, &n);
    CHECK(s && n > 8 && memcmp(s, "\x89PNG\r\n\x1a\n", 8) == 0, "plot-1.4 no PNG signature");
    free(s);
    CHECK(strcmp(cap_text(&c), "") == 0, "plot-1.x printed on success: %s", cap_text(&c));
    cap_close(&c);

    /* plot-1.5: only the pictures remain: no temporary file beside them. */
    char names[4096];
    CHECK(count_entries(names, sizeof names) == 4, "plot-1.5 the directory holds: %s", names);

    /* plot-1.6: a single processor count, the only row of its table, still draws. */
    const char *cols[] = {"procs", "speedup"};
    pdl_table *one = pdl_table_alloc(cols, 2);
    CHECK(one && pdl_table_add_row(one) == 0, "out of memory");
    if (one) {
        pdl_table_set_num(one, 0, 0, 4);
        pdl_table_set_num(one, 0, 1, 3.5);
        cap_open(&c);
        CHECK(pdl_plot_write(one, in_dir("one.svg"), NULL, c.f) == 0, "plot-1.6: %s", cap_text(&c));
        CHECK(xml_ok(in_dir("one.svg")), "plot-1.6 one.svg is not well-formed XML");
        cap_close(&c);
        pdl_table_free(one);
    }
done:
    pdl_table_free(a);
    pdl_table_free(b);
    clear_dir();
}

/* plot-2.x: failures, each leaving the directory as it was. */
static void test_failures(void)
{
    pdl_table *a = single();
    CHECK(a, "out of memory");
    if (!a)
        return;
    char names[4096];
    capture c;

    /* plot-2.1: no gnuplot. */
    setenv("PDLC_GNUPLOT", "/nonexistent/gnuplot", 1);
    cap_open(&c);
    CHECK(pdl_plot_available(c.f) == 0, "plot-2.1 a missing gnuplot is available");
    CHECK(strstr(cap_text(&c), "pdlc: error: ") == cap_text(&c) &&
              strstr(cap_text(&c), "apt-get install gnuplot-nox") &&
              strstr(cap_text(&c), "drop --plot"),
          "plot-2.1 message: %s", cap_text(&c));
    CHECK(pdl_plot_available(NULL) == 0, "plot-2.1 NULL err");
    cap_close(&c);
    cap_open(&c);
    CHECK(pdl_plot_write(a, in_dir("x.svg"), "t", c.f) == -1, "plot-2.1 drew without gnuplot");
    CHECK(strstr(cap_text(&c), "gnuplot-nox"), "plot-2.1 write message: %s", cap_text(&c));
    CHECK(count_entries(names, sizeof names) == 0, "plot-2.1 left: %s", names);
    cap_close(&c);
    setenv("PDLC_GNUPLOT", "no-such-gnuplot-command", 1);
    CHECK(pdl_plot_available(NULL) == 0, "plot-2.1 a name not in PATH is available");

    /* plot-2.2: a gnuplot that fails, or exits 0 without drawing: error, the old file kept, no
       temporary left. */
    FILE *old = fopen(in_dir("keep.svg"), "w");
    CHECK(old && fputs("old", old) >= 0 && fclose(old) == 0, "cannot write keep.svg");
    setenv("PDLC_GNUPLOT", "false", 1);
    cap_open(&c);
    CHECK(pdl_plot_write(a, in_dir("keep.svg"), "t", c.f) == -1, "plot-2.2 false succeeded");
    CHECK(strstr(cap_text(&c), "pdlc: error: gnuplot failed drawing") &&
              strstr(cap_text(&c), "exit status 1"),
          "plot-2.2 message: %s", cap_text(&c));
    cap_close(&c);
    /* Reads the whole script, so the result does not depend on who is first at the pipe. */
    FILE *w = fopen(in_dir("eat.sh"), "w");
    CHECK(w && fputs("#!/bin/sh\ncat >/dev/null\n", w) >= 0 && fclose(w) == 0 &&
              chmod(in_dir("eat.sh"), 0755) == 0,
          "cannot write eat.sh");
    setenv("PDLC_GNUPLOT", in_dir("eat.sh"), 1);
    cap_open(&c);
    CHECK(pdl_plot_write(a, in_dir("keep.svg"), "t", c.f) == -1, "plot-2.2 eat.sh succeeded");
    CHECK(strstr(cap_text(&c), "pdlc: error: gnuplot wrote nothing"), "plot-2.2 message: %s",
          cap_text(&c));
    cap_close(&c);
    remove(in_dir("eat.sh"));
    char *s = slurp(in_dir("keep.svg"), NULL);
    CHECK(s && strcmp(s, "old") == 0, "plot-2.2 the old file was changed");
    free(s);
    CHECK(count_entries(names, sizeof names) == 1, "plot-2.2 left: %s", names);
    unsetenv("PDLC_GNUPLOT");

    /* plot-2.3: gnuplot's own error, passed on as notes: a wrapper puts a bad command before
       the script (no table or title can break the script itself). */
    w = fopen(in_dir("wrap.sh"), "w");
    CHECK(w && fputs("#!/bin/sh\n{ echo 'set terminal nosuchterm'; cat; } | gnuplot\n", w) >= 0 &&
              fclose(w) == 0 && chmod(in_dir("wrap.sh"), 0755) == 0,
          "cannot write wrap.sh");
    setenv("PDLC_GNUPLOT", in_dir("wrap.sh"), 1);
    cap_open(&c);
    CHECK(pdl_plot_write(a, in_dir("w.svg"), "t", c.f) == -1, "plot-2.3 a gnuplot error passed");
    CHECK(strstr(cap_text(&c), "pdlc: error: gnuplot failed drawing") &&
              strstr(cap_text(&c), "pdlc: note: gnuplot: line 0: unknown or ambiguous terminal"),
          "plot-2.3 message: %s", cap_text(&c));
    cap_close(&c);
    unsetenv("PDLC_GNUPLOT");
    remove(in_dir("wrap.sh"));
    CHECK(count_entries(names, sizeof names) == 1, "plot-2.3 left: %s", names);

    /* plot-2.4: a title with quotes, a line break and a backslash stays one gnuplot string. */
    cap_open(&c);
    CHECK(pdl_plot_write(a, in_dir("q.svg"), "a 'b'\n\\c", c.f) == 0, "plot-2.4: %s", cap_text(&c));
    cap_close(&c);
    char *q = slurp(in_dir("q.svg"), NULL);
    CHECK(q && strstr(q, ">a 'b' \\c</text>"), "plot-2.4 title not as given");
    free(q);
    remove(in_dir("q.svg"));

    /* plot-2.5: a directory in the target's place: gnuplot draws, the rename fails. */
    CHECK(mkdir(in_dir("d.svg"), 0777) == 0, "cannot make d.svg");
    cap_open(&c);
    CHECK(pdl_plot_write(a, in_dir("d.svg"), "t", c.f) == -1, "plot-2.5 drew over a directory");
    CHECK(strstr(cap_text(&c), "pdlc: error: cannot write"), "plot-2.5 message: %s", cap_text(&c));
    cap_close(&c);
    CHECK(count_entries(names, sizeof names) == 2, "plot-2.5 left: %s", names);
    rmdir(in_dir("d.svg"));

    /* plot-2.6: a directory that does not exist. */
    cap_open(&c);
    CHECK(pdl_plot_write(a, in_dir("nodir/x.svg"), "t", c.f) == -1, "plot-2.6 succeeded");
    CHECK(strstr(cap_text(&c), "pdlc: error: cannot write") && strstr(cap_text(&c), "nodir/x.svg"),
          "plot-2.6 message: %s", cap_text(&c));
    cap_close(&c);
    CHECK(count_entries(names, sizeof names) == 1, "plot-2.6 left: %s", names);

    /* plot-2.7: extensions. */
    CHECK(pdl_plot_format_ok("a.svg") && pdl_plot_format_ok("A.SVG") &&
              pdl_plot_format_ok("dir.x/b.Png"),
          "plot-2.7 a good extension refused");
    CHECK(!pdl_plot_format_ok("c.pdf") && !pdl_plot_format_ok("svg") &&
              !pdl_plot_format_ok("x.svg.txt") && !pdl_plot_format_ok("") &&
              !pdl_plot_format_ok("x.pngg"),
          "plot-2.7 a bad extension accepted");
    cap_open(&c);
    CHECK(pdl_plot_write(a, in_dir("x.pdf"), "t", c.f) == -1 &&
              strstr(cap_text(&c), "does not end in .svg or .png"),
          "plot-2.7 write to .pdf: %s", cap_text(&c));
    cap_close(&c);

    /* plot-2.8: tables --plot cannot draw: no speedup column, no rows. */
    const char *cols[] = {"procs", "mean"};
    pdl_table *t = pdl_table_alloc(cols, 2);
    CHECK(t, "out of memory");
    cap_open(&c);
    CHECK(t && pdl_plot_write(t, in_dir("y.svg"), "t", c.f) == -1 &&
              strstr(cap_text(&c), "'procs' and 'speedup' columns"),
          "plot-2.8 no speedup column: %s", cap_text(&c));
    cap_close(&c);
    pdl_table_free(t);
    const char *cols2[] = {"procs", "speedup"};
    t = pdl_table_alloc(cols2, 2);
    cap_open(&c);
    CHECK(t && pdl_plot_write(t, in_dir("y.svg"), "t", c.f) == -1 &&
              strstr(cap_text(&c), "no rows to draw"),
          "plot-2.8 no rows: %s", cap_text(&c));
    cap_close(&c);
    pdl_table_free(t);
    CHECK(count_entries(names, sizeof names) == 1, "plot-2.8 left: %s", names);
    pdl_table_free(a);
    clear_dir();
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fputs("usage: plotcheck SCRATCH_DIR\n", stderr);
        return 2;
    }
    /* The real tools, whatever the caller's environment says. */
    unsetenv("PDLC_GNUPLOT");
    int missing = 0;
    if (!pdl_plot_available(NULL)) {
        printf("FAIL gnuplot is not installed: apt-get install gnuplot-nox\n");
        missing = 1;
    }
    if (!on_path("xmllint")) {
        printf("FAIL xmllint is not installed: apt-get install libxml2-utils\n");
        missing = 1;
    }
    if (missing)
        return 1;
    snprintf(dir, sizeof dir, "%s/plotcheck.XXXXXX", argv[1]);
    if (mkdir(argv[1], 0777) != 0 && access(argv[1], W_OK) != 0) {
        perror(argv[1]);
        return 2;
    }
    if (!mkdtemp(dir)) {
        perror(dir);
        return 2;
    }
    test_draw();
    test_failures();
    rmdir(dir);
    printf("plotcheck: %d passed, %d failed\n", checks - failures, failures);
    return failures ? 1 : 0;
}
