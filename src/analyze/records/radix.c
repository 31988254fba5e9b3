/*
 * radix.c - stable sorts of large arrays by 64-bit keys (records.h): LSD
 * radix on 16-bit digits, a pass skipped when every key has the same
 * digit (times share their high bits). Sorting runs and messages this way
 * instead of qsort's comparisons is what makes the joins linear in time.
 */
#include <stdlib.h>
#include <string.h>

#include "records.h"

#define DIGITS 65536

/* One stable sort: order by keys[order[i]]. */
static void radix_order(size_t *order, size_t n, const uint64_t *keys, size_t *tmp,
	size_t *counts)
{
	for (unsigned shift = 0; shift < 64; shift += 16) {
		memset(counts, 0, DIGITS * sizeof *counts);
		for (size_t i = 0; i < n; i++)
			counts[(keys[order[i]] >> shift) & (DIGITS - 1)]++;
		if (counts[(keys[order[0]] >> shift) & (DIGITS - 1)] == n)
			continue; /* one digit for all: the order stays */
		size_t sum = 0;
		for (size_t d = 0; d < DIGITS; d++) {
			size_t c = counts[d];
			counts[d] = sum;
			sum += c;
		}
		for (size_t i = 0; i < n; i++)
			tmp[counts[(keys[order[i]] >> shift) & (DIGITS - 1)]++] = order[i];
		memcpy(order, tmp, n * sizeof *order);
	}
}

struct ca_radix *ca_radix_new(size_t n)
{
	struct ca_radix *r = malloc(sizeof *r);
	if (!r)
		return NULL;
	r->order = malloc((n + 1) * sizeof *r->order);
	r->tmp = malloc((n + 1) * sizeof *r->tmp);
	r->keys = malloc((n + 1) * sizeof *r->keys);
	r->counts = malloc(DIGITS * sizeof *r->counts);
	r->n = n;
	if (!r->order || !r->tmp || !r->keys || !r->counts) {
		ca_radix_free(r);
		return NULL;
	}
	for (size_t i = 0; i < n; i++)
		r->order[i] = i;
	return r;
}

void ca_radix_by(struct ca_radix *r)
{
	if (r->n > 1)
		radix_order(r->order, r->n, r->keys, r->tmp, r->counts);
}

bool ca_radix_permute(struct ca_radix *r, void *items, size_t size)
{
	char *copy = malloc(r->n * size + 1);
	if (!copy)
		return false;
	for (size_t i = 0; i < r->n; i++)
		memcpy(copy + i * size, (char *)items + r->order[i] * size, size);
	memcpy(items, copy, r->n * size);
	free(copy);
	return true;
}

void ca_radix_free(struct ca_radix *r)
{
	if (!r)
		return;
	free(r->order);
	free(r->tmp);
	free(r->keys);
	free(r->counts);
	free(r);
}
