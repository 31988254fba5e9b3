/* sort_r.c - see sort_r.h. */
#define _GNU_SOURCE /* qsort_r */
#include "sort_r.h"

#include <stdlib.h>

void caret_sort_r(void *items, size_t n, size_t size, caret_sort_cmp *cmp, void *ctx)
{
	if (n > 1)
		qsort_r(items, n, size, cmp, ctx);
}

void caret_sort_unless_sorted_r(void *items, size_t n, size_t size, caret_sort_cmp *cmp,
	void *ctx)
{
	const char *v = items;
	for (size_t i = 1; i < n; i++)
		if (cmp(v + (i - 1) * size, v + i * size, ctx) > 0) {
			qsort_r(items, n, size, cmp, ctx);
			return;
		}
}
