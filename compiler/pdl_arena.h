/* pdl_arena: bump allocator for everything a parse produces (tokens' text, AST, checked data).
 * Nothing allocated from an arena is freed alone; pdl_arena_free releases it all at once. */
#ifndef PDL_ARENA_H
#define PDL_ARENA_H

#include <stddef.h>

typedef struct pdl_arena pdl_arena;

/* Returns NULL when out of memory. */
pdl_arena *pdl_arena_alloc(void);
/* Frees every block the arena handed out; NULL is accepted. */
void pdl_arena_free(pdl_arena *a);

/* Zeroed, aligned memory owned by the arena; NULL on overflow of size or out of memory. */
void *pdl_arena_calloc(pdl_arena *a, size_t count, size_t size);
/* A NUL-terminated copy of s[0..len) owned by the arena. */
char *pdl_arena_strndup(pdl_arena *a, const char *s, size_t len);
char *pdl_arena_strdup(pdl_arena *a, const char *s);
/* printf into arena memory. */
char *pdl_arena_printf(pdl_arena *a, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

/* Growable array of pointers kept in the arena (the grammar's lists). Old storage is
 * abandoned to the arena on growth, which is fine for parse-sized data. */
typedef struct pdl_vec {
    void **items;
    size_t len, cap;
} pdl_vec;

/* Returns 0 on success, -1 when out of memory. */
int pdl_vec_push(pdl_arena *a, pdl_vec *v, void *item);

#endif
