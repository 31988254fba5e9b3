/*
 * side.h - how gathering fills a side (side.c): a trace begun, then its
 * objects' instances added under it (the last trace begun).
 */
#ifndef CA_COMPARE_SIDE_H
#define CA_COMPARE_SIDE_H

#include "compare.h"

/* A trace of the side begun: 0, or -1 out of memory. */
int cmp_side_add_trace(ca_cmp_side *side, const char *label, uint64_t first, uint64_t last);
/* The last trace begun taken back, its instances too (a gather that failed
 * half way). */
void cmp_side_drop_trace(ca_cmp_side *side);
/* n instances of object (kind, name) from the last trace begun (the
 * object made when new, even with n 0): 0, or -1 out of memory. */
int cmp_side_add(ca_cmp_side *side, ca_cmp_kind kind, const char *name, const uint64_t *starts,
	const int64_t *latencies, size_t n);

#endif
