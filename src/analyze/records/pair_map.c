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

static bool grow(struct ca_pair_map *m)
{
	size_t size = m->size ? 2 * m->size : 64;
	struct ca_pair_slot *slots = calloc(size, sizeof *slots);
	if (!slots)
		return false;
	for (size_t i = 0; i < m->size; i++) {
		if (!m->slots[i].used)
			continue;
		size_t k = ca_pair_hash(m->slots[i].a, m->slots[i].b) & (size - 1);
		while (slots[k].used)
			k = (k + 1) & (size - 1);
		slots[k] = m->slots[i];
	}
	free(m->slots);
	m->slots = slots;
	m->size = size;
	return true;
}

uint64_t *ca_pair_map_add(struct ca_pair_map *m, size_t k, uint64_t a, uint64_t b)
{
	if ((m->n + 1) * 2 > m->size) {
		bool found;
		if (!grow(m))
			return NULL;
		k = ca_pair_slot_of(m, a, b, &found); /* the slots moved */
	}
	m->slots[k] = (struct ca_pair_slot){ a, b, 0, true };
	m->n++;
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
	if (v)
		ca_pair_map_remove_at(m, v);
}

void ca_pair_map_remove_at(struct ca_pair_map *m, uint64_t *value)
{
	size_t hole = (size_t)((struct ca_pair_slot *)(void *)((char *)value -
		offsetof(struct ca_pair_slot, value)) - m->slots), mask = m->size - 1;
	/* the entries after the hole in its run move back when the hole lies
	 * between their home and where they sit: every lookup still finds them */
	for (size_t k = (hole + 1) & mask; m->slots[k].used; k = (k + 1) & mask) {
		size_t home = ca_pair_hash(m->slots[k].a, m->slots[k].b) & mask;
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
