/* Solver context: precision settings, the last error's message, truncation notes and counters.
 * Every solver call takes one; a context is not thread-safe (use one per thread), while the
 * distributions it creates are immutable and may be shared across threads. */
#ifndef SOL_CTX_H
#define SOL_CTX_H

#include <stddef.h>
#include <stdint.h>

typedef enum sol_status {
    SOL_OK = 0,
    SOL_ENOMEM,   /* allocation failed */
    SOL_EINVAL,   /* bad parameter (the message names it and says why) */
    SOL_ELIMIT,   /* an internal limit (lattice index range, graph size, a count) was exceeded */
    SOL_ENUMERIC, /* a numerical routine (GSL) failed or produced a non-finite value */
    SOL_ENOTSP    /* the task graph is not series-parallel (a residual graph is returned) */
} sol_status;

typedef struct sol_ctx sol_ctx;

/* Bounds of the precision knob (maximum lattice length) and its default. The default was
 * chosen from measurements of the oracle suite (tests/solver/test_oracle.c): see sol_ctx.c. */
#define SOL_LEN_MIN     ((size_t)64)
#define SOL_LEN_MAX     ((size_t)1 << 24)
#define SOL_LEN_DEFAULT ((size_t)1 << 14)
/* Default tail mass below which a lattice tail (or a geometric series) is cut. */
#define SOL_TAIL_EPS_DEFAULT 1e-14

/* Allocates a context with default precision; NULL when out of memory. Also switches GSL's
 * error handler off for the whole process (GSL would otherwise abort): the solver checks every
 * GSL result itself. The caller owns the context and frees it with sol_ctx_free. O(1). */
sol_ctx *sol_ctx_alloc(void);
void sol_ctx_free(sol_ctx *ctx);

/* Maximum lattice length n (the --precision knob), SOL_LEN_MIN..SOL_LEN_MAX. A larger n makes
 * the step h finer: errors of max/quantiles shrink like h^2, costs grow like n log n. O(1). */
sol_status sol_ctx_set_max_len(sol_ctx *ctx, size_t n);
size_t sol_ctx_max_len(const sol_ctx *ctx);
/* Tail mass eps, 1e-300 < eps <= 1e-6: parametric laws are discretised over [Q(eps), Q(1-eps)]
 * (the tails beyond are kept mean-exactly as atoms), lattice tails lighter than eps are trimmed,
 * and geometric series stop when the remaining mass is below eps. O(1). */
sol_status sol_ctx_set_tail_eps(sol_ctx *ctx, double eps);
double sol_ctx_tail_eps(const sol_ctx *ctx);

/* Message of the last failed call (empty string when none); owned by the context and valid
 * until the next failing call. O(1). */
const char *sol_ctx_message(const sol_ctx *ctx);
sol_status sol_ctx_status(const sol_ctx *ctx);
const char *sol_status_name(sol_status st);

/* Total probability mass dropped by trimming and truncation since the last reset, and the notes
 * about truncations or coarse resolution that the caller may want to report as warnings. Notes
 * are owned by the context; at most SOL_NOTES_MAX are kept (later ones are counted, not stored). */
#define SOL_NOTES_MAX 64
double sol_ctx_tail_mass(const sol_ctx *ctx);
size_t sol_ctx_note_count(const sol_ctx *ctx);
const char *sol_ctx_note(const sol_ctx *ctx, size_t i);
void sol_ctx_reset_notes(sol_ctx *ctx);

/* Counters of the work done (for benchmarks and tests). */
typedef struct sol_counters {
    uint64_t conv_direct; /* direct convolutions */
    uint64_t conv_fft;    /* FFT convolutions */
    uint64_t regrids;     /* step doublings (coarsenings) */
    uint64_t lattices;    /* lattice distributions created */
    uint64_t points;      /* exact point distributions created */
} sol_counters;
sol_counters sol_ctx_counters(const sol_ctx *ctx);
void sol_ctx_count_conv(sol_ctx *ctx, int fft);
void sol_ctx_count_regrid(sol_ctx *ctx);
void sol_ctx_count_dist(sol_ctx *ctx, int lattice);

/* For solver modules: record a failure (printf-style message) and return st; record dropped tail
 * mass; add a note. They never fail: messages are truncated to fit. */
#if defined(__GNUC__)
#define SOL_PRINTF(a, b) __attribute__((format(printf, a, b)))
#else
#define SOL_PRINTF(a, b)
#endif
sol_status sol_ctx_fail(sol_ctx *ctx, sol_status st, const char *fmt, ...) SOL_PRINTF(3, 4);
void sol_ctx_add_tail(sol_ctx *ctx, double mass);
void sol_ctx_notef(sol_ctx *ctx, const char *fmt, ...) SOL_PRINTF(2, 3);

#endif
