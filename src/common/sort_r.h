/*
 * sort_r.h - sorting with a context: a comparator that needs more than its
 * two items (an index array sorted by what the indexes name) gets it as a
 * third argument, not through a file-scope pointer that two threads (the
 * report's) or two nested sorts would share.
 */
#ifndef CARET_SORT_R_H
#define CARET_SORT_R_H

#include <stddef.h>

typedef int caret_sort_cmp(const void *a, const void *b, void *ctx);

/* glibc's qsort_r: the same algorithm as qsort, so the same order. */
void caret_sort_r(void *items, size_t n, size_t size, caret_sort_cmp *cmp, void *ctx);
/* Sorts only when not in order already (a pass that compares neighbours). */
void caret_sort_unless_sorted_r(void *items, size_t n, size_t size, caret_sort_cmp *cmp,
	void *ctx);

#endif
