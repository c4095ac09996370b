/* pdl_plot: writes a gnuplot script with the table's series as inline data blocks, runs gnuplot
 * on it (no shell: the program is spawned directly) and renames its output into place. */
#include "pdl_plot.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <signal.h>
#include <spawn.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

/* Lines of gnuplot's own output repeated after a failure: enough for its message and the
   offending command, not a screenful of cascading errors. */
#define GNUPLOT_NOTE_LINES 8

static const char *gnuplot_command(void)
{
    const char *c = getenv("PDLC_GNUPLOT");
    return c && *c ? c : "gnuplot";
}

/* What posix_spawnp would run: a name with a slash as it is, otherwise the first executable
   regular file of that name in PATH (an empty entry is the current directory, as for execvp). */
static int can_execute(const char *cmd)
{
    struct stat st;
    if (strchr(cmd, '/'))
        return stat(cmd, &st) == 0 && S_ISREG(st.st_mode) && access(cmd, X_OK) == 0;
    const char *path = getenv("PATH");
    if (!path)
        path = "/bin:/usr/bin";
    size_t clen = strlen(cmd);
    for (const char *p = path;;) {
        const char *end = strchr(p, ':');
        size_t dlen = end ? (size_t)(end - p) : strlen(p);
        char *full = malloc(dlen + clen + 3);
        if (!full)
            return 0;
        if (dlen == 0)
            snprintf(full, dlen + clen + 3, "./%s", cmd);
        else
            snprintf(full, dlen + clen + 3, "%.*s/%s", (int)dlen, p, cmd);
        int ok = stat(full, &st) == 0 && S_ISREG(st.st_mode) && access(full, X_OK) == 0;
        free(full);
        if (ok)
            return 1;
        if (!end)
            return 0;
        p = end + 1;
    }
}

int pdl_plot_available(FILE *err)
{
    const char *cmd = gnuplot_command();
    if (can_execute(cmd))
        return 1;
    if (err) {
        if (getenv("PDLC_GNUPLOT") && *getenv("PDLC_GNUPLOT"))
            fprintf(err, "pdlc: error: --plot needs gnuplot, but PDLC_GNUPLOT='%s' cannot be run\n",
                    cmd);
        else
            fprintf(err, "pdlc: error: --plot needs gnuplot, which is not in PATH\n");
        fprintf(err, "pdlc: note: install gnuplot (Debian: apt-get install gnuplot-nox) or drop "
                     "--plot\n");
    }
    return 0;
}

static int ends_with(const char *s, const char *suffix)
{
    size_t n = strlen(s), m = strlen(suffix);
    return n >= m && strcasecmp(s + n - m, suffix) == 0;
}

int pdl_plot_format_ok(const char *path)
{
    return path && (ends_with(path, ".svg") || ends_with(path, ".png"));
}

/* ---- series ---- */

typedef struct point {
    double procs, speedup;
    double lo, hi; /* the speedup band; NAN when the row has no usable bounds */
} point;

typedef struct series {
    size_t first; /* the row that named the series */
    char *label;  /* "n=100, machine=meiko"; "" when the table has no key columns */
    double ap;    /* avg_parallelism; NAN when absent */
    point *pts;
    size_t npts, cap;
    int has_band;
} series;

typedef struct plot_data {
    series *s;
    size_t n;
} plot_data;

static void free_data(plot_data *d)
{
    for (size_t k = 0; k < d->n; k++) {
        free(d->s[k].label);
        free(d->s[k].pts);
    }
    free(d->s);
}

static int num_at(const pdl_table *t, size_t row, size_t col, double *v)
{
    if (col == (size_t)-1 || !pdl_table_is_num(t, row, col))
        return 0;
    *v = pdl_table_num(t, row, col);
    return isfinite(*v);
}

/* Whether two rows agree on every key column, compared as text so that strings and numbers
   group the way the CSV shows them. */
static int same_key(const pdl_table *t, size_t a, size_t b, size_t nkeys)
{
    char x[PDL_NUM_TEXT_MAX], y[PDL_NUM_TEXT_MAX];
    for (size_t k = 0; k < nkeys; k++) {
        if (pdl_table_is_num(t, a, k) != pdl_table_is_num(t, b, k))
            return 0;
        pdl_table_cell_text(t, a, k, x, sizeof x);
        pdl_table_cell_text(t, b, k, y, sizeof y);
        if (strcmp(x, y) != 0)
            return 0;
    }
    return 1;
}

static char *make_label(const pdl_table *t, size_t row, size_t nkeys)
{
    char val[PDL_NUM_TEXT_MAX];
    size_t len = 1;
    for (size_t k = 0; k < nkeys; k++) {
        pdl_table_cell_text(t, row, k, val, sizeof val);
        len += strlen(pdl_table_col_name(t, k)) + strlen(val) + 3;
    }
    char *s = malloc(len);
    if (!s)
        return NULL;
    s[0] = '\0';
    for (size_t k = 0; k < nkeys; k++) {
        pdl_table_cell_text(t, row, k, val, sizeof val);
        if (k)
            strcat(s, ", ");
        strcat(s, pdl_table_col_name(t, k));
        strcat(s, "=");
        strcat(s, val);
    }
    return s;
}

static int add_point(series *s, point p)
{
    if (s->npts == s->cap) {
        size_t cap = s->cap ? s->cap * 2 : 16;
        point *n = realloc(s->pts, cap * sizeof *n);
        if (!n)
            return -1;
        s->pts = n;
        s->cap = cap;
    }
    s->pts[s->npts++] = p;
    return 0;
}

static int by_procs(const void *a, const void *b)
{
    const point *x = a, *y = b;
    return (x->procs > y->procs) - (x->procs < y->procs);
}

/* Groups the rows into series in order of first appearance. The band is T1/upper .. T1/lower with
   T1 = speedup * mean of the same row: the bounds are on the mean runtime, and a larger runtime
   is a smaller speedup. Returns 0, or -1 with the message printed. */
static int collect(const pdl_table *t, plot_data *d, FILE *err)
{
    size_t cp = pdl_table_col(t, "procs"), cs = pdl_table_col(t, "speedup");
    size_t cm = pdl_table_col(t, "mean"), cl = pdl_table_col(t, "lower");
    size_t cu = pdl_table_col(t, "upper"), ca = pdl_table_col(t, "avg_parallelism");
    if (cp == (size_t)-1 || cs == (size_t)-1) {
        fprintf(err, "pdlc: error: --plot needs a table with 'procs' and 'speedup' columns\n");
        return -1;
    }
    size_t nrows = pdl_table_rows(t);
    for (size_t r = 0; r < nrows; r++) {
        point p = {0, 0, NAN, NAN};
        if (!num_at(t, r, cp, &p.procs) || !num_at(t, r, cs, &p.speedup))
            continue;
        size_t k = 0;
        while (k < d->n && !same_key(t, d->s[k].first, r, cp))
            k++;
        if (k == d->n) {
            series *n = realloc(d->s, (d->n + 1) * sizeof *n);
            if (!n)
                goto oom;
            d->s = n;
            d->s[k] = (series){r, make_label(t, r, cp), NAN, NULL, 0, 0, 0};
            d->n++;
            if (!d->s[k].label)
                goto oom;
        }
        series *s = &d->s[k];
        double mean, lower, upper, ap;
        if (num_at(t, r, cm, &mean) && num_at(t, r, cl, &lower) && num_at(t, r, cu, &upper) &&
            lower > 0 && upper > 0) {
            double t1 = p.speedup * mean;
            p.lo = t1 / upper;
            p.hi = t1 / lower;
            s->has_band = 1;
        }
        if (isnan(s->ap) && num_at(t, r, ca, &ap))
            s->ap = ap;
        if (add_point(s, p) != 0)
            goto oom;
    }
    if (d->n == 0) {
        fprintf(err, "pdlc: error: --plot: the table has no rows to draw\n");
        return -1;
    }
    /* Lines join points in the order of p, whatever order --procs listed them in. */
    for (size_t k = 0; k < d->n; k++)
        qsort(d->s[k].pts, d->s[k].npts, sizeof *d->s[k].pts, by_procs);
    return 0;
oom:
    fprintf(err, "pdlc: error: out of memory\n");
    return -1;
}

/* ---- the script ---- */

/* A gnuplot single-quoted string: no escapes inside except '' for a quote. Control characters
   would end the command early, so they become spaces. */
static void put_quoted(FILE *f, const char *s)
{
    fputc('\'', f);
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '\'')
            fputs("''", f);
        else
            fputc(c < 0x20 || c == 0x7F ? ' ' : c, f);
    }
    fputc('\'', f);
}

static void put_num(FILE *f, double v)
{
    char buf[PDL_NUM_TEXT_MAX];
    pdl_format_number(buf, sizeof buf, v);
    fputs(buf, f);
}

static void write_script(FILE *f, const plot_data *d, const char *output, int png,
                         const char *title)
{
    fputs("set encoding utf8\n", f);
    /* Text is taken literally (noenhanced): names like lower_method or a^2 are not markup. A
       gnuplot built without cairo has only libgd's png, which needs truecolor for the
       translucent bands. */
    if (png)
        fputs("if (strstrt(' '.GPVAL_TERMINALS.' ', ' pngcairo ') > 0) {\n"
              "    set terminal pngcairo size 800,500 noenhanced font 'sans,11' "
              "background rgb 'white'\n"
              "} else {\n"
              "    set terminal png truecolor size 800,500 noenhanced background rgb 'white'\n"
              "}\n",
              f);
    else
        fputs("set terminal svg size 800,500 noenhanced font 'sans,11' background rgb 'white'\n",
              f);
    fputs("set output ", f);
    put_quoted(f, output);
    fputs("\nset title ", f);
    put_quoted(f, title ? title : "");
    fputs("\nset xlabel 'processors'\nset ylabel 'speedup'\n"
          "set key left top Left reverse opaque\nset grid\n",
          f);
    /* The y axis covers the curves, bands and ideal line; an average parallelism far above them
       (often hundreds, against speedups of tens) would squash them, so such a line is left out
       and its value said in the legend instead. */
    double ytop = 0;
    for (size_t k = 0; k < d->n; k++)
        for (size_t i = 0; i < d->s[k].npts; i++) {
            const point *pt = &d->s[k].pts[i];
            ytop = fmax(ytop, fmax(pt->procs, pt->speedup));
            if (!isnan(pt->hi))
                ytop = fmax(ytop, pt->hi);
        }
    double shown = ytop;
    for (size_t k = 0; k < d->n; k++)
        if (!isnan(d->s[k].ap) && d->s[k].ap <= 2 * ytop)
            shown = fmax(shown, d->s[k].ap);
    fputs("set yrange [0:", f);
    put_num(f, shown > 0 ? 1.05 * shown : 1);
    fputs("]\n", f);
    /* The x axis spans the processor counts exactly; a single count would make gnuplot widen an
       empty range by 1% either side, so it gets 0 .. 2p instead. */
    double lo = INFINITY, hi = -INFINITY;
    for (size_t k = 0; k < d->n; k++)
        for (size_t i = 0; i < d->s[k].npts; i++) {
            lo = fmin(lo, d->s[k].pts[i].procs);
            hi = fmax(hi, d->s[k].pts[i].procs);
        }
    if (lo < hi) {
        fputs("set autoscale xfix\n", f);
    } else {
        fputs("set xrange [0:", f);
        put_num(f, 2 * hi);
        fputs("]\n", f);
    }
    for (size_t k = 0; k < d->n; k++) {
        const series *s = &d->s[k];
        fprintf(f, "$s%zu << EOD\n", k);
        for (size_t i = 0; i < s->npts; i++) {
            put_num(f, s->pts[i].procs);
            fputc(' ', f);
            put_num(f, s->pts[i].speedup);
            fputc('\n', f);
        }
        fputs("EOD\n", f);
        if (!s->has_band)
            continue;
        fprintf(f, "$b%zu << EOD\n", k);
        for (size_t i = 0; i < s->npts; i++) {
            if (isnan(s->pts[i].lo))
                continue;
            put_num(f, s->pts[i].procs);
            fputc(' ', f);
            put_num(f, s->pts[i].lo);
            fputc(' ', f);
            put_num(f, s->pts[i].hi);
            fputc('\n', f);
        }
        fputs("EOD\n", f);
    }
    /* Bands first so the curves are drawn over them; one colour per series for its curve, band
       and parallelism line. The legend names each series once, by its curve; what the shaded
       band and the dashed line mean is said once, in grey, not once per series. */
    int bands = 0, aps = 0;
    fputs("plot ", f);
    for (size_t k = 0; k < d->n; k++) {
        if (!d->s[k].has_band)
            continue;
        fprintf(f,
                "$b%zu using 1:2:3 with filledcurves fs transparent solid 0.2 noborder lc %zu "
                "notitle, \\\n     ",
                k, k + 1);
        bands = 1;
    }
    for (size_t k = 0; k < d->n; k++) {
        const series *s = &d->s[k];
        fprintf(f, "$s%zu using 1:2 with linespoints lw 2 pt 7 ps 0.6 lc %zu title ", k, k + 1);
        int above = !isnan(s->ap) && s->ap > shown;
        if (above) {
            /* "machine=meiko (average parallelism 196.2, above)" */
            size_t len = strlen(s->label) + 64;
            char *key = malloc(len);
            if (key) {
                snprintf(key, len, "%s%s(average parallelism %.4g, above)", s->label,
                         *s->label ? " " : "", s->ap);
                put_quoted(f, key);
                free(key);
            } else {
                put_quoted(f, *s->label ? s->label : "speedup");
            }
        } else {
            put_quoted(f, *s->label ? s->label : "speedup");
        }
        fputs(", \\\n     ", f);
        if (!isnan(s->ap) && !above) {
            put_num(f, s->ap);
            fprintf(f, " with lines dt 2 lc %zu notitle, \\\n     ", k + 1);
            aps = 1;
        }
    }
    if (bands)
        fputs("keyentry with filledcurves fs transparent solid 0.2 noborder lc rgb 'gray50' "
              "title 'bounds', \\\n     ",
              f);
    if (aps)
        fputs("keyentry with lines dt 2 lc rgb 'gray50' title 'average parallelism', \\\n     ", f);
    fputs("x with lines dt 3 lc rgb 'gray40' title 'ideal'\nunset output\n", f);
}

/* ---- running gnuplot ---- */

/* Writes all of buf to fd. SIGPIPE is blocked meanwhile so that a gnuplot that exits early is an
   EPIPE to report, not the end of pdlc; a SIGPIPE raised here is taken back off the queue. */
static int write_all(int fd, const char *buf, size_t len)
{
    sigset_t pipe_set, old, pending;
    sigemptyset(&pipe_set);
    sigaddset(&pipe_set, SIGPIPE);
    sigpending(&pending);
    int was_pending = sigismember(&pending, SIGPIPE);
    pthread_sigmask(SIG_BLOCK, &pipe_set, &old);
    int rc = 0;
    while (len > 0) {
        ssize_t n = write(fd, buf, len);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0) {
            rc = -1;
            break;
        }
        buf += n;
        len -= (size_t)n;
    }
    int saved = errno;
    if (!was_pending) {
        sigpending(&pending);
        if (sigismember(&pending, SIGPIPE)) {
            struct timespec zero = {0, 0};
            sigtimedwait(&pipe_set, NULL, &zero);
        }
    }
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    errno = saved;
    return rc;
}

/* Repeats gnuplot's last lines of output, each as a note, after a failure. */
static void relay_output(FILE *log, FILE *err)
{
    char line[512];
    char kept[GNUPLOT_NOTE_LINES][512];
    size_t n = 0;
    rewind(log);
    while (fgets(line, sizeof line, log)) {
        line[strcspn(line, "\r\n")] = '\0';
        char *s = line;
        while (*s == ' ' || *s == '\t')
            s++;
        /* The caret under an echoed command means nothing once the indentation is gone. */
        if (*s == '\0' || strcmp(s, "^") == 0)
            continue;
        if (n == GNUPLOT_NOTE_LINES) {
            memmove(kept[0], kept[1], sizeof kept - sizeof kept[0]);
            n--;
        }
        snprintf(kept[n++], sizeof kept[0], "%s", s);
    }
    for (size_t k = 0; k < n; k++)
        fprintf(err, "pdlc: note: gnuplot: %s\n", kept[k]);
}

/* Runs gnuplot with the script on its standard input and its output (stdout and stderr) in log,
   which is shown only when it fails. Returns 0 when it ran and exited with status 0. */
static int run_gnuplot(const char *script, size_t len, const char *path, FILE *err)
{
    const char *cmd = gnuplot_command();
    FILE *log = tmpfile();
    int fds[2] = {-1, -1};
    if (!log || pipe(fds) != 0) {
        fprintf(err, "pdlc: error: cannot run gnuplot: %s\n", strerror(errno));
        if (log)
            fclose(log);
        return -1;
    }
    /* pdlc's end of the pipe must not stay open in gnuplot, or gnuplot never sees end of input. */
    fcntl(fds[1], F_SETFD, FD_CLOEXEC);
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_adddup2(&fa, fds[0], STDIN_FILENO);
    posix_spawn_file_actions_adddup2(&fa, fileno(log), STDOUT_FILENO);
    posix_spawn_file_actions_adddup2(&fa, fileno(log), STDERR_FILENO);
    if (fds[0] != STDIN_FILENO) /* only when pdlc's own stdin was closed */
        posix_spawn_file_actions_addclose(&fa, fds[0]);
    char *argv[] = {(char *)cmd, NULL};
    pid_t pid;
    int rc = posix_spawnp(&pid, cmd, &fa, NULL, argv, environ);
    posix_spawn_file_actions_destroy(&fa);
    close(fds[0]);
    if (rc != 0) {
        close(fds[1]);
        fclose(log);
        fprintf(err, "pdlc: error: cannot run gnuplot '%s': %s\n", cmd, strerror(rc));
        return -1;
    }
    int wrote = write_all(fds[1], script, len);
    close(fds[1]);
    int status;
    pid_t w;
    while ((w = waitpid(pid, &status, 0)) < 0 && errno == EINTR)
        ;
    int ok = w == pid && WIFEXITED(status) && WEXITSTATUS(status) == 0 && wrote == 0;
    if (!ok) {
        if (w != pid)
            fprintf(err, "pdlc: error: gnuplot: %s\n", strerror(errno));
        else if (WIFSIGNALED(status))
            fprintf(err, "pdlc: error: gnuplot was killed by signal %d while drawing '%s'\n",
                    WTERMSIG(status), path);
        else if (WIFEXITED(status) && WEXITSTATUS(status) != 0)
            fprintf(err, "pdlc: error: gnuplot failed drawing '%s' (exit status %d)\n", path,
                    WEXITSTATUS(status));
        else
            fprintf(err, "pdlc: error: gnuplot stopped reading its script for '%s'\n", path);
        relay_output(log, err);
    }
    fclose(log);
    return ok ? 0 : -1;
}

/* The script in memory, so it goes to gnuplot in one piece and a write error is seen up front. */
static char *build_script(const plot_data *d, const char *output, int png, const char *title,
                          size_t *len)
{
    char *buf = NULL;
    FILE *f = open_memstream(&buf, len);
    if (!f)
        return NULL;
    write_script(f, d, output, png, title);
    int bad = ferror(f);
    if (fclose(f) != 0 || bad) {
        free(buf);
        return NULL;
    }
    return buf;
}

int pdl_plot_write(const pdl_table *t, const char *path, const char *title, FILE *err)
{
    if (!pdl_plot_format_ok(path)) {
        fprintf(err, "pdlc: error: --plot: '%s' does not end in .svg or .png\n", path);
        return -1;
    }
    for (const char *s = path; *s; s++) {
        if ((unsigned char)*s < 0x20) {
            fprintf(err, "pdlc: error: --plot: the file name has a control character\n");
            return -1;
        }
    }
    if (!pdl_plot_available(err))
        return -1;
    plot_data d = {NULL, 0};
    if (collect(t, &d, err) != 0) {
        free_data(&d);
        return -1;
    }
    int rc = -1;
    char *script = NULL;
    /* The picture replaces a file by renaming; a device or pipe must not be replaced. */
    struct stat st;
    if (stat(path, &st) == 0 && !S_ISREG(st.st_mode)) {
        fprintf(err, "pdlc: error: cannot write the plot to '%s': not a regular file\n", path);
        free_data(&d);
        return -1;
    }
    size_t n = strlen(path);
    char *tmp = malloc(n + 16);
    if (!tmp) {
        fprintf(err, "pdlc: error: out of memory\n");
        goto done;
    }
    /* gnuplot writes beside the target, so the rename cannot cross file systems. */
    snprintf(tmp, n + 16, "%s.tmp.XXXXXX", path);
    int fd = mkstemp(tmp);
    if (fd < 0) {
        fprintf(err, "pdlc: error: cannot write '%s': %s\n", path, strerror(errno));
        free(tmp);
        tmp = NULL;
        goto done;
    }
    /* mkstemp makes the file private; the picture should have the usual permissions. */
    mode_t mask = umask(0);
    umask(mask);
    fchmod(fd, 0666 & ~mask);
    close(fd);
    size_t len;
    script = build_script(&d, tmp, ends_with(path, ".png"), title, &len);
    if (!script) {
        fprintf(err, "pdlc: error: out of memory\n");
        goto done;
    }
    if (run_gnuplot(script, len, path, err) != 0)
        goto done;
    if (stat(tmp, &st) != 0 || st.st_size == 0) {
        fprintf(err, "pdlc: error: gnuplot wrote nothing to '%s'\n", path);
        goto done;
    }
    if (rename(tmp, path) != 0) {
        fprintf(err, "pdlc: error: cannot write '%s': %s\n", path, strerror(errno));
        goto done;
    }
    rc = 0;
done:
    if (rc != 0 && tmp)
        remove(tmp);
    free(tmp);
    free(script);
    free_data(&d);
    return rc;
}
