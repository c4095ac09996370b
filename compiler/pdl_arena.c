/* pdl_arena: bump allocation in geometrically growing blocks; one free releases everything.
 * Large requests get a block of their own so the current block's tail is not wasted. */
#include "pdl_arena.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct block {
    struct block *next;
    size_t size, used;
    max_align_t data[]; /* flexible array keeps data maximally aligned */
} block;

struct pdl_arena {
    block *head;
    size_t next_size;
};

enum { FIRST_BLOCK = 16 * 1024, MAX_BLOCK = 4 * 1024 * 1024 };

pdl_arena *pdl_arena_alloc(void)
{
    pdl_arena *a = calloc(1, sizeof *a);
    if (a)
        a->next_size = FIRST_BLOCK;
    return a;
}

void pdl_arena_free(pdl_arena *a)
{
    if (!a)
        return;
    block *b = a->head;
    while (b) {
        block *n = b->next;
        free(b);
        b = n;
    }
    free(a);
}

static block *new_block(size_t size)
{
    if (size > SIZE_MAX - sizeof(block))
        return NULL;
    block *b = malloc(sizeof(block) + size);
    if (b) {
        b->size = size;
        b->used = 0;
        b->next = NULL;
    }
    return b;
}

void *pdl_arena_calloc(pdl_arena *a, size_t count, size_t size)
{
    if (size && count > SIZE_MAX / size)
        return NULL;
    size_t n = count * size;
    const size_t align = sizeof(max_align_t);
    if (n > SIZE_MAX - align)
        return NULL;
    n = (n + align - 1) / align * align;
    if (n == 0)
        n = align;
    block *b = a->head;
    if (!b || b->size - b->used < n) {
        if (n > a->next_size / 4) {
            /* A big request: its own block, linked behind the current one. */
            block *big = new_block(n);
            if (!big)
                return NULL;
            big->used = n;
            if (b) {
                big->next = b->next;
                b->next = big;
            } else {
                a->head = big;
            }
            memset(big->data, 0, n);
            return big->data;
        }
        block *nb = new_block(a->next_size);
        if (!nb)
            return NULL;
        if (a->next_size < MAX_BLOCK)
            a->next_size *= 2;
        nb->next = b;
        a->head = b = nb;
    }
    void *p = (char *)b->data + b->used;
    b->used += n;
    memset(p, 0, n);
    return p;
}

char *pdl_arena_strndup(pdl_arena *a, const char *s, size_t len)
{
    if (len == SIZE_MAX)
        return NULL;
    char *d = pdl_arena_calloc(a, len + 1, 1);
    if (d)
        memcpy(d, s, len);
    return d;
}

char *pdl_arena_strdup(pdl_arena *a, const char *s)
{
    return pdl_arena_strndup(a, s, strlen(s));
}

char *pdl_arena_printf(pdl_arena *a, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (n < 0)
        return NULL;
    char *d = pdl_arena_calloc(a, (size_t)n + 1, 1);
    if (!d)
        return NULL;
    va_start(ap, fmt);
    vsnprintf(d, (size_t)n + 1, fmt, ap);
    va_end(ap);
    return d;
}

int pdl_vec_push(pdl_arena *a, pdl_vec *v, void *item)
{
    if (v->len == v->cap) {
        size_t cap = v->cap ? v->cap * 2 : 4;
        void **items = pdl_arena_calloc(a, cap, sizeof *items);
        if (!items)
            return -1;
        if (v->len)
            memcpy(items, v->items, v->len * sizeof *items);
        v->items = items;
        v->cap = cap;
    }
    v->items[v->len++] = item;
    return 0;
}
