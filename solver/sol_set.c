/* Sorted sets of node ids: the adjacency of graphs under reduction, where merges test sets for
 * equality and arcs come and go one at a time. */
#include "sol_set.h"

#include <stdlib.h>
#include <string.h>

void sol_set_free(sol_set *s)
{
    free(s->a);
    memset(s, 0, sizeof *s);
}

size_t sol_set_find(const sol_set *s, uint32_t x)
{
    size_t lo = 0, hi = s->n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (s->a[mid] < x)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

int sol_set_has(const sol_set *s, uint32_t x)
{
    size_t i = sol_set_find(s, x);
    return i < s->n && s->a[i] == x;
}

/* Room for one more id. */
static int reserve(sol_set *s)
{
    if (s->n < s->cap)
        return 0;
    size_t c = s->cap ? 2 * s->cap : 4;
    uint32_t *p = realloc(s->a, c * sizeof *p);
    if (p == NULL)
        return -1;
    s->a = p;
    s->cap = c;
    return 0;
}

int sol_set_insert(sol_set *s, uint32_t x)
{
    size_t i = sol_set_find(s, x);
    if (i < s->n && s->a[i] == x)
        return 0;
    if (reserve(s))
        return -1;
    memmove(s->a + i + 1, s->a + i, (s->n - i) * sizeof *s->a);
    s->a[i] = x;
    s->n++;
    return 1;
}

int sol_set_push(sol_set *s, uint32_t x)
{
    if (reserve(s))
        return -1;
    s->a[s->n++] = x;
    return 0;
}

int sol_set_remove(sol_set *s, uint32_t x)
{
    size_t i = sol_set_find(s, x);
    if (i >= s->n || s->a[i] != x)
        return 0;
    memmove(s->a + i, s->a + i + 1, (s->n - i - 1) * sizeof *s->a);
    s->n--;
    return 1;
}

int sol_set_equal(const sol_set *a, const sol_set *b)
{
    return a->n == b->n && (a->n == 0 || memcmp(a->a, b->a, a->n * sizeof *a->a) == 0);
}

int sol_set_copy(sol_set *dst, const sol_set *src)
{
    dst->n = 0;
    for (size_t i = 0; i < src->n; i++)
        if (sol_set_push(dst, src->a[i]) < 0)
            return -1;
    return 0;
}
