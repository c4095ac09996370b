/* pdl_cli: getopt_long over pdlc's options. Each option's meaning is documented in man/pdlc.1;
 * this file only turns text into values and says precisely what is wrong with bad ones. */
#include "pdl_cli.h"

#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#ifndef PDLC_VERSION
#define PDLC_VERSION "0.0.0"
#endif

static const char usage_text[] =
    "Usage: pdlc FILE [OPTION]...\n"
    "Predict how the parallel program described in the PDL file FILE scales.\n"
    "\n"
    "  -c, --check              parse and check FILE only; print nothing on success\n"
    "  -D, --set NAME=VALUE     give variable NAME the value VALUE (repeatable)\n"
    "  -m, --machine FILE       read a machine model (repeatable; default: the ideal machine)\n"
    "      --emit ast           print the parsed program for debugging\n"
    "  -h, --help               print this help and exit\n"
    "  -V, --version            print the version and exit\n"
    "\n"
    "Exit status: 0 success, 1 errors in the input, 2 wrong usage.\n"
    "See pdlc(1) for the command and pdl(5) for the language.\n";

enum { OPT_EMIT = 256 };

static pdl_cli_result usage_error(FILE *err, const char *fmt, ...) PDL_PRINTF(2, 3);
static pdl_cli_result usage_error(FILE *err, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs("pdlc: error: ", err);
    vfprintf(err, fmt, ap);
    va_end(ap);
    fputs("\nTry 'pdlc --help' for more information.\n", err);
    return PDL_CLI_USAGE;
}

static int is_identifier(const char *s, size_t len)
{
    if (len == 0 || !(isalpha((unsigned char)s[0]) || s[0] == '_'))
        return 0;
    for (size_t k = 1; k < len; k++)
        if (!(isalnum((unsigned char)s[k]) || s[k] == '_'))
            return 0;
    return 1;
}

/* Parses a finite number with nothing after it. */
static int parse_number(const char *s, double *v)
{
    char *end;
    errno = 0;
    *v = strtod(s, &end);
    while (isspace((unsigned char)*end))
        end++;
    return end != s && *end == '\0' && errno == 0 && isfinite(*v);
}

static pdl_cli_result add_set(pdl_options *o, const char *arg, FILE *err)
{
    const char *eq = strchr(arg, '=');
    if (!eq)
        return usage_error(err, "--set expects NAME=VALUE, got '%s'", arg);
    size_t len = (size_t)(eq - arg);
    if (!is_identifier(arg, len))
        return usage_error(err, "--set: '%s' does not start with a variable name", arg);
    double v;
    if (!parse_number(eq + 1, &v))
        return usage_error(err, "--set: the value in '%s' is not a number", arg);
    pdl_setvar *n = realloc(o->sets, (o->nsets + 1) * sizeof *n);
    char *name = malloc(len + 1);
    if (!n || !name) {
        free(name);
        if (n)
            o->sets = n;
        return usage_error(err, "%s", "out of memory");
    }
    memcpy(name, arg, len);
    name[len] = '\0';
    o->sets = n;
    /* A later --set of the same name replaces the earlier one. */
    for (size_t k = 0; k < o->nsets; k++) {
        if (strcmp(o->sets[k].name, name) == 0) {
            free(name);
            o->sets[k].value = v;
            return PDL_CLI_RUN;
        }
    }
    o->sets[o->nsets].name = name;
    o->sets[o->nsets].value = v;
    o->nsets++;
    return PDL_CLI_RUN;
}

pdl_cli_result pdl_cli_parse(int argc, char **argv, pdl_options *o, FILE *out, FILE *err)
{
    static const struct option longopts[] = {{"check", no_argument, NULL, 'c'},
                                             {"set", required_argument, NULL, 'D'},
                                             {"machine", required_argument, NULL, 'm'},
                                             {"emit", required_argument, NULL, OPT_EMIT},
                                             {"help", no_argument, NULL, 'h'},
                                             {"version", no_argument, NULL, 'V'},
                                             {NULL, 0, NULL, 0}};
    memset(o, 0, sizeof *o);
    optind = 0; /* full reinitialisation (glibc), so tests can parse several times */
    opterr = 0;
    int c;
    int r = PDL_CLI_RUN;
    while (r == PDL_CLI_RUN && (c = getopt_long(argc, argv, ":cD:m:hV", longopts, NULL)) != -1) {
        switch (c) {
        case 'c':
            o->check = 1;
            break;
        case 'D':
            r = add_set(o, optarg, err);
            break;
        case 'm': {
            const char **n = realloc(o->machines, (o->nmachines + 1) * sizeof *n);
            if (!n)
                return usage_error(err, "%s", "out of memory");
            o->machines = n;
            o->machines[o->nmachines++] = optarg;
            break;
        }
        case OPT_EMIT:
            if (strcmp(optarg, "ast") == 0)
                o->emit = PDL_EMIT_AST;
            else
                r = usage_error(err, "--emit: unknown output '%s' (expected: ast)", optarg);
            break;
        case 'h':
            fputs(usage_text, out);
            return PDL_CLI_DONE;
        case 'V':
            fputs("pdlc " PDLC_VERSION "\n", out);
            return PDL_CLI_DONE;
        case ':':
            return usage_error(err, "option '%s' needs a value", argv[optind - 1]);
        default:
            if (optopt)
                return usage_error(err, "unknown option '-%c'", optopt);
            return usage_error(err, "unknown option '%s'", argv[optind - 1]);
        }
    }
    if (r != PDL_CLI_RUN)
        return r;
    if (optind >= argc)
        return usage_error(err, "%s", "no input file");
    if (optind + 1 < argc)
        return usage_error(err, "more than one input file ('%s')", argv[optind + 1]);
    o->input = argv[optind];
    return PDL_CLI_RUN;
}

void pdl_cli_free(pdl_options *o)
{
    for (size_t k = 0; k < o->nsets; k++)
        free((char *)o->sets[k].name);
    free(o->sets);
    free(o->machines);
    memset(o, 0, sizeof *o);
}
