/*
 * pair_map.c - a hash map from a pair of 64-bit keys to a 64-bit value,
 * for the streamed joins (stream.c): open addressing, linear probing,
 * grown at half full. The streamed joins key it by what recurs (message
 * addresses, ring-buffer slots, threads), so a newer value replaces an
 * older one and the map stays as small as the set of keys in use; the path
 * follower (follow.c) removes what it is done with.
 */
#include <stddef.h>
#include <stdlib.h>

#include "records.h"

struct ca_pair_slot {
	uint64_t a, b, value;
	bool used;
};

static size_t pair_hash(uint64_t a, uint64_t b)
{
	uint64_t h = (a * 0x9e3779b97f4a7c15ull) ^ (b + 0x632be59bd9b4e019ull + (a << 6));
	h *= 0xbf58476d1ce4e5b9ull;
	return (size_t)(h ^ (h >> 31));
}

static bool grow(struct ca_pair_map *m)
{
	size_t size = m->size ? 2 * m->size : 64;
	struct ca_pair_slot *slots = calloc(size, sizeof *slots);
	if (!slots)
		return false;
	for (size_t i = 0; i < m->size; i++) {
		if (!m->slots[i].used)
			continue;
		size_t k = pair_hash(m->slots[i].a, m->slots[i].b) & (size - 1);
		while (slots[k].used)
			k = (k + 1) & (size - 1);
		slots[k] = m->slots[i];
	}
	free(m->slots);
	m->slots = slots;
	m->size = size;
	return true;
}

/* The slot of (a, b) in m (m->size > 0): its own (*found), or the free
 * one that ends its run, where it would go. One hash, one probe, for a
 * lookup and an insertion alike. */
static inline size_t slot_of(const struct ca_pair_map *m, uint64_t a, uint64_t b, bool *found)
{
	size_t mask = m->size - 1, k = pair_hash(a, b) & mask;
	const struct ca_pair_slot *slots = m->slots;
	for (; slots[k].used; k = (k + 1) & mask)
		if (slots[k].a == a && slots[k].b == b) {
			*found = true;
			return k;
		}
	*found = false;
	return k;
}

uint64_t *ca_pair_map_get(const struct ca_pair_map *m, uint64_t a, uint64_t b)
{
	bool found;
	if (!m->size)
		return NULL;
	size_t k = slot_of(m, a, b, &found);
	return found ? &m->slots[k].value : NULL;
}

uint64_t *ca_pair_map_at(struct ca_pair_map *m, uint64_t a, uint64_t b, bool *added)
{
	bool found = false;
	size_t k = m->size ? slot_of(m, a, b, &found) : 0;
	*added = false;
	if (found)
		return &m->slots[k].value;
	if ((m->n + 1) * 2 > m->size) {
		if (!grow(m))
			return NULL;
		k = slot_of(m, a, b, &found); /* the slots moved */
	}
	m->slots[k] = (struct ca_pair_slot){ a, b, 0, true };
	m->n++;
	*added = true;
	return &m->slots[k].value;
}

uint64_t *ca_pair_map_put(struct ca_pair_map *m, uint64_t a, uint64_t b, uint64_t value)
{
	bool added;
	uint64_t *v = ca_pair_map_at(m, a, b, &added);
	if (v)
		*v = value;
	return v;
}

void ca_pair_map_remove(struct ca_pair_map *m, uint64_t a, uint64_t b)
{
	uint64_t *v = ca_pair_map_get(m, a, b);
	if (!v)
		return;
	size_t hole = (size_t)((struct ca_pair_slot *)(void *)((char *)v -
		offsetof(struct ca_pair_slot, value)) - m->slots), mask = m->size - 1;
	/* the entries after the hole in its run move back when the hole lies
	 * between their home and where they sit: every lookup still finds them */
	for (size_t k = (hole + 1) & mask; m->slots[k].used; k = (k + 1) & mask) {
		size_t home = pair_hash(m->slots[k].a, m->slots[k].b) & mask;
		if (((k - home) & mask) >= ((k - hole) & mask)) {
			m->slots[hole] = m->slots[k];
			hole = k;
		}
	}
	m->slots[hole].used = false;
	m->n--;
}

void ca_pair_map_free(struct ca_pair_map *m)
{
	free(m->slots);
	*m = (struct ca_pair_map){ 0 };
}
