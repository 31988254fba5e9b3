/*
 * radix.c - stable sorts of large arrays by 64-bit keys (records.h): LSD
 * radix, a pass skipped when every key has the same digit (times share
 * their high bits). Sorting runs and messages this way instead of qsort's
 * comparisons is what makes the joins linear in time. Orders of items
 * are sorted on 16-bit digits through their indexes (copying (key,
 * index) pairs measured slower); plain values (latencies, for their
 * percentiles) on 11-bit digits, counted in one pass.
 */
#include <stdlib.h>
#include <string.h>

#include "records.h"

#define BITS 11
#define DIGITS (1u << BITS)
#define PASSES ((64 + BITS - 1) / BITS)

#define ORDER_DIGITS 65536

/* One stable sort: order by keys[order[i]]. */
static void radix_order(size_t *order, size_t n, const uint64_t *keys, size_t *tmp,
	size_t *counts)
{
	for (unsigned shift = 0; shift < 64; shift += 16) {
		memset(counts, 0, ORDER_DIGITS * sizeof *counts);
		for (size_t i = 0; i < n; i++)
			counts[(keys[order[i]] >> shift) & (ORDER_DIGITS - 1)]++;
		if (counts[(keys[order[0]] >> shift) & (ORDER_DIGITS - 1)] == n)
			continue; /* one digit for all: the order stays */
		size_t sum = 0;
		for (size_t d = 0; d < ORDER_DIGITS; d++) {
			size_t c = counts[d];
			counts[d] = sum;
			sum += c;
		}
		for (size_t i = 0; i < n; i++)
			tmp[counts[(keys[order[i]] >> shift) & (ORDER_DIGITS - 1)]++] = order[i];
		memcpy(order, tmp, n * sizeof *order);
	}
}

/* Sorts n values (each a key, or an item whose first member is its key,
 * of size bytes) into place, tmp as large: stable, LSD. */
static void radix_sort(void *items, void *tmp, size_t n, size_t size, size_t *counts)
{
	memset(counts, 0, PASSES * DIGITS * sizeof *counts);
	for (size_t i = 0; i < n; i++) {
		uint64_t k;
		memcpy(&k, (char *)items + i * size, sizeof k);
		for (unsigned p = 0; p < PASSES; p++)
			counts[p * DIGITS + ((k >> (p * BITS)) & (DIGITS - 1))]++;
	}
	char *from = items, *to = tmp;
	for (unsigned p = 0; p < PASSES; p++) {
		size_t *c = counts + p * DIGITS, sum = 0;
		uint64_t first;
		memcpy(&first, from, sizeof first);
		if (c[(first >> (p * BITS)) & (DIGITS - 1)] == n)
			continue; /* one digit for all: the order stays */
		for (size_t d = 0; d < DIGITS; d++) {
			size_t here = c[d];
			c[d] = sum;
			sum += here;
		}
		for (size_t i = 0; i < n; i++) {
			uint64_t k;
			memcpy(&k, from + i * size, sizeof k);
			memcpy(to + c[(k >> (p * BITS)) & (DIGITS - 1)]++ * size, from + i * size, size);
		}
		char *swap = from;
		from = to;
		to = swap;
	}
	if (from != (char *)items)
		memcpy(items, from, n * size);
}

static bool grow(void **p, size_t *cap, size_t bytes)
{
	if (bytes <= *cap)
		return true;
	void *q = realloc(*p, bytes);
	if (!q)
		return false;
	*p = q;
	*cap = bytes;
	return true;
}

bool ca_radix_prepare(struct ca_radix **rp, size_t n)
{
	struct ca_radix *r = *rp;
	if (!r && !(r = *rp = calloc(1, sizeof *r)))
		return false;
	size_t bytes = (n + 1) * sizeof(size_t);
	if (!grow((void **)&r->order, &r->cap_order, bytes) ||
	    !grow((void **)&r->tmp, &r->cap_tmp, bytes) ||
	    !grow((void **)&r->keys, &r->cap_keys, (n + 1) * sizeof *r->keys) ||
	    !grow((void **)&r->counts, &r->cap_counts, ORDER_DIGITS * sizeof *r->counts))
		return false;
	r->n = n;
	for (size_t i = 0; i < n; i++)
		r->order[i] = i;
	return true;
}

struct ca_radix *ca_radix_new(size_t n)
{
	struct ca_radix *r = NULL;
	if (!ca_radix_prepare(&r, n)) {
		ca_radix_free(r);
		return NULL;
	}
	return r;
}

void ca_radix_by(struct ca_radix *r)
{
	if (r->n > 1)
		radix_order(r->order, r->n, r->keys, r->tmp, r->counts);
}

bool ca_radix_sort_values(int64_t *v, size_t n)
{
	if (n < 2)
		return true;
	uint64_t *u = (uint64_t *)v, *tmp = malloc(n * sizeof *tmp);
	size_t *counts = malloc(PASSES * DIGITS * sizeof *counts);
	if (!tmp || !counts) {
		free(tmp);
		free(counts);
		return false;
	}
	for (size_t i = 0; i < n; i++) /* signed order as unsigned: flip the sign bit */
		u[i] ^= UINT64_C(1) << 63;
	radix_sort(u, tmp, n, sizeof *u, counts);
	for (size_t i = 0; i < n; i++)
		u[i] ^= UINT64_C(1) << 63;
	free(tmp);
	free(counts);
	return true;
}

bool ca_radix_permute(struct ca_radix *r, void *items, size_t size)
{
	if (!r->n) /* nothing to move: items may be NULL (an empty column) */
		return true;
	if (!grow(&r->scratch, &r->cap_scratch, r->n * size + 1))
		return false;
	char *copy = r->scratch;
	for (size_t i = 0; i < r->n; i++)
		memcpy(copy + i * size, (char *)items + r->order[i] * size, size);
	memcpy(items, copy, r->n * size);
	return true;
}

void ca_sort_unless_sorted(void *items, size_t n, size_t size,
	int (*cmp)(const void *, const void *))
{
	const char *v = items;
	for (size_t i = 1; i < n; i++)
		if (cmp(v + (i - 1) * size, v + i * size) > 0) {
			qsort(items, n, size, cmp);
			return;
		}
}

void ca_radix_free(struct ca_radix *r)
{
	if (!r)
		return;
	free(r->order);
	free(r->tmp);
	free(r->keys);
	free(r->counts);
	free(r->scratch);
	free(r);
}
