/*
 * run_store.c - the callback runs of records built runs_only (what the
 * callback and timer latencies need), kept per callback in chunks of
 * compact slots: 24 bytes a run instead of a ca_callback_instance (48)
 * and the sorts' arrays, and no sort at all, since a callback's runs are
 * made in start order. A chunk never moves: a slot's address stays valid
 * while its run is open.
 */
#include <stdlib.h>
#include <string.h>

#include "records.h"

#define FIRST_CHUNK 64
#define LARGEST_CHUNK 65536
#define INTRA_BIT ((uint64_t)1 << 63)

static uint64_t start_of(const struct ca_run_slot *x)
{
	return x->start_intra & ~INTRA_BIT;
}

struct run_chunk {
	struct run_chunk *next;
	size_t n, cap;
	struct ca_run_slot slots[];
};

struct ca_run_bucket {
	struct run_chunk *first, *last;
	size_t n;
};

struct ca_run_store *ca_run_store_new(size_t n_callbacks)
{
	struct ca_run_store *s = calloc(1, sizeof *s);
	if (s && !(s->buckets = calloc(n_callbacks + 1, sizeof *s->buckets))) {
		free(s);
		return NULL;
	}
	if (s)
		s->n_callbacks = n_callbacks;
	return s;
}

void ca_run_store_free(struct ca_run_store *s)
{
	if (!s)
		return;
	for (size_t b = 0; b <= s->n_callbacks; b++)
		for (struct run_chunk *c = s->buckets[b].first, *next; c; c = next) {
			next = c->next;
			free(c);
		}
	free(s->buckets);
	free(s);
}

/* Unknown callbacks (CA_NONE) share the last bucket. */
static struct ca_run_bucket *bucket_of(const struct ca_run_store *s, size_t callback)
{
	return &s->buckets[callback < s->n_callbacks ? callback : s->n_callbacks];
}

struct ca_run_slot *ca_run_store_add(struct ca_run_store *s, size_t callback, uint64_t start,
	uint64_t end, int32_t pid, int32_t tid, bool intra)
{
	struct ca_run_bucket *b = bucket_of(s, callback);
	struct run_chunk *c = b->last;
	if (!c || c->n == c->cap) { /* chunks double, up to a bound on the slack */
		size_t cap = c ? (c->cap < LARGEST_CHUNK ? 2 * c->cap : c->cap) : FIRST_CHUNK;
		struct run_chunk *fresh = malloc(sizeof *fresh + cap * sizeof *fresh->slots);
		if (!fresh)
			return NULL;
		*fresh = (struct run_chunk){ .cap = cap };
		if (c)
			c->next = fresh;
		else
			b->first = fresh;
		b->last = c = fresh;
	}
	struct ca_run_slot *slot = &c->slots[c->n++];
	*slot = (struct ca_run_slot){ start | (intra ? INTRA_BIT : 0), end, pid, tid };
	b->n++;
	return slot;
}

size_t ca_run_store_count(const struct ca_run_store *s, size_t callback)
{
	return bucket_of(s, callback)->n;
}

static ca_callback_instance instance_of(const struct ca_run_slot *x, size_t callback)
{
	return (ca_callback_instance){ callback, start_of(x), x->end, x->pid,
		x->tid, (x->start_intra & INTRA_BIT) != 0 };
}

size_t ca_run_store_runs(const struct ca_run_store *s, size_t callback,
	ca_callback_instance *out)
{
	size_t n = 0, key = callback < s->n_callbacks ? callback : CA_NONE;
	for (const struct run_chunk *c = bucket_of(s, callback)->first; c; c = c->next)
		for (size_t i = 0; i < c->n; i++)
			out[n++] = instance_of(&c->slots[i], key);
	return n;
}

size_t ca_run_store_starts(const struct ca_run_store *s, size_t callback, uint64_t *out)
{
	size_t n = 0;
	for (const struct run_chunk *c = bucket_of(s, callback)->first; c; c = c->next)
		for (size_t i = 0; i < c->n; i++)
			out[n++] = start_of(&c->slots[i]);
	return n;
}

/* ---- the order of ca_records_callbacks(): start, then thread ------------- */

struct numbered {
	struct ca_run_slot slot;
	size_t made; /* ties: the order the runs were made in, as the full sort */
};

static int by_start_thread(const void *a, const void *b)
{
	const struct numbered *x = a, *y = b;
	uint64_t s = start_of(&x->slot), t = start_of(&y->slot);
	if (s != t)
		return s < t ? -1 : 1;
	if (x->slot.tid != y->slot.tid)
		return x->slot.tid < y->slot.tid ? -1 : 1;
	return (x->made > y->made) - (x->made < y->made);
}

static bool slot_before(const struct ca_run_slot *a, const struct ca_run_slot *b)
{
	uint64_t s = start_of(a), t = start_of(b);
	return s < t || (s == t && a->tid <= b->tid);
}

static bool in_order(const struct ca_run_bucket *b)
{
	const struct ca_run_slot *prev = NULL;
	for (const struct run_chunk *c = b->first; c; c = c->next)
		for (size_t i = 0; i < c->n; prev = &c->slots[i++])
			if (prev && !slot_before(prev, &c->slots[i]))
				return false;
	return true;
}

/* Runs whose end event made them (merged events) can come out of start
 * order; sorting them costs only the callback's own runs, once. */
bool ca_run_store_sort(struct ca_run_store *s)
{
	for (size_t k = 0; k <= s->n_callbacks; k++) {
		struct ca_run_bucket *b = &s->buckets[k];
		if (in_order(b))
			continue;
		struct numbered *v = malloc(b->n * sizeof *v);
		size_t n = 0;
		if (!v)
			return false;
		for (const struct run_chunk *c = b->first; c; c = c->next)
			for (size_t i = 0; i < c->n; i++, n++)
				v[n] = (struct numbered){ c->slots[i], n };
		qsort(v, n, sizeof *v, by_start_thread);
		n = 0;
		for (struct run_chunk *c = b->first; c; c = c->next)
			for (size_t i = 0; i < c->n; i++)
				c->slots[i] = v[n++].slot;
		free(v);
	}
	return true;
}
