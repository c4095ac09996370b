/* Solver context: precision settings, error reporting and the record of truncations.
 * The library never prints or aborts; every failure leaves its message here. */
#include "sol_ctx.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_errno.h>

#define MSG_LEN  512
#define NOTE_LEN 256

struct sol_ctx {
    size_t max_len;
    double tail_eps;
    sol_status status;
    char message[MSG_LEN];
    double tail_mass;
    size_t notes;
    char note[SOL_NOTES_MAX][NOTE_LEN];
    sol_counters counters;
};

sol_ctx *sol_ctx_alloc(void)
{
    sol_ctx *ctx = calloc(1, sizeof *ctx);
    if (ctx == NULL)
        return NULL;
    ctx->max_len = SOL_LEN_DEFAULT;
    ctx->tail_eps = SOL_TAIL_EPS_DEFAULT;
    /* GSL's default handler calls abort(); every GSL result is checked by the caller instead. */
    gsl_set_error_handler_off();
    return ctx;
}

void sol_ctx_free(sol_ctx *ctx)
{
    free(ctx);
}

sol_status sol_ctx_set_max_len(sol_ctx *ctx, size_t n)
{
    if (n < SOL_LEN_MIN || n > SOL_LEN_MAX)
        return sol_ctx_fail(ctx, SOL_EINVAL, "lattice length %zu is outside [%zu, %zu]", n,
                            SOL_LEN_MIN, SOL_LEN_MAX);
    ctx->max_len = n;
    return SOL_OK;
}

size_t sol_ctx_max_len(const sol_ctx *ctx)
{
    return ctx->max_len;
}

sol_status sol_ctx_set_tail_eps(sol_ctx *ctx, double eps)
{
    if (!(eps > 1e-300 && eps <= 1e-6))
        return sol_ctx_fail(ctx, SOL_EINVAL, "tail mass %g is outside (1e-300, 1e-6]", eps);
    ctx->tail_eps = eps;
    return SOL_OK;
}

double sol_ctx_tail_eps(const sol_ctx *ctx)
{
    return ctx->tail_eps;
}

const char *sol_ctx_message(const sol_ctx *ctx)
{
    return ctx->message;
}

sol_status sol_ctx_status(const sol_ctx *ctx)
{
    return ctx->status;
}

const char *sol_status_name(sol_status st)
{
    switch (st) {
    case SOL_OK:
        return "ok";
    case SOL_ENOMEM:
        return "out of memory";
    case SOL_EINVAL:
        return "invalid argument";
    case SOL_ELIMIT:
        return "limit exceeded";
    case SOL_ENUMERIC:
        return "numerical failure";
    case SOL_ENOTSP:
        return "not series-parallel";
    }
    return "unknown status";
}

double sol_ctx_tail_mass(const sol_ctx *ctx)
{
    return ctx->tail_mass;
}

size_t sol_ctx_note_count(const sol_ctx *ctx)
{
    return ctx->notes;
}

const char *sol_ctx_note(const sol_ctx *ctx, size_t i)
{
    if (i >= ctx->notes || i >= SOL_NOTES_MAX)
        return NULL;
    return ctx->note[i];
}

void sol_ctx_reset_notes(sol_ctx *ctx)
{
    ctx->notes = 0;
    ctx->tail_mass = 0.0;
}

sol_counters sol_ctx_counters(const sol_ctx *ctx)
{
    return ctx->counters;
}

void sol_ctx_count_conv(sol_ctx *ctx, int fft)
{
    if (fft)
        ctx->counters.conv_fft++;
    else
        ctx->counters.conv_direct++;
}

void sol_ctx_count_regrid(sol_ctx *ctx)
{
    ctx->counters.regrids++;
}

void sol_ctx_count_dist(sol_ctx *ctx, int lattice)
{
    if (lattice)
        ctx->counters.lattices++;
    else
        ctx->counters.points++;
}

sol_status sol_ctx_fail(sol_ctx *ctx, sol_status st, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(ctx->message, sizeof ctx->message, fmt, ap);
    va_end(ap);
    ctx->status = st;
    return st;
}

void sol_ctx_add_tail(sol_ctx *ctx, double mass)
{
    if (mass > 0.0)
        ctx->tail_mass += mass;
}

void sol_ctx_notef(sol_ctx *ctx, const char *fmt, ...)
{
    if (ctx->notes < SOL_NOTES_MAX) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(ctx->note[ctx->notes], NOTE_LEN, fmt, ap);
        va_end(ap);
    }
    ctx->notes++;
}
