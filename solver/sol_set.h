/* Sorted sets of node ids for the solver's graph reductions (sol_graph.c, sol_bounds.c).
 * Internal to the solver; a plain struct because the sets live in arrays indexed by node. */
#ifndef SOL_SET_H
#define SOL_SET_H

#include <stddef.h>
#include <stdint.h>

/* Ids in increasing order; a zeroed struct is the empty set. */
typedef struct sol_set {
    uint32_t *a;
    size_t n, cap;
} sol_set;

/* Releases the storage; the set is empty afterwards. */
void sol_set_free(sol_set *s);
/* Position of the first id >= x (binary search, O(log n)). */
size_t sol_set_find(const sol_set *s, uint32_t x);
/* Whether x is in the set. O(log n). */
int sol_set_has(const sol_set *s, uint32_t x);
/* Adds x: 1 when added, 0 when present, -1 out of memory. O(n) (the shift). */
int sol_set_insert(sol_set *s, uint32_t x);
/* Appends x, which must exceed every id present (for building sets in order). 0, or -1 out of
 * memory. Amortised O(1). */
int sol_set_push(sol_set *s, uint32_t x);
/* Removes x: 1 when removed, 0 when absent. O(n). */
int sol_set_remove(sol_set *s, uint32_t x);
/* Whether both hold the same ids. O(n). */
int sol_set_equal(const sol_set *a, const sol_set *b);
/* Makes dst a copy of src. 0, or -1 out of memory (dst then holds a prefix). O(n). */
int sol_set_copy(sol_set *dst, const sol_set *src);

#endif
