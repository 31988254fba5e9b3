/*
 * pair_map.h - a hash map from a pair of 64-bit keys to a 64-bit value
 * (pair_map.c). The lookups are inline: the streamed joins and the path
 * follower make several per event, and a call cost as much as the probe.
 */
#ifndef CA_PAIR_MAP_H
#define CA_PAIR_MAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct ca_pair_slot {
	uint64_t a, b, value;
	bool used;
};

struct ca_pair_map {
	struct ca_pair_slot *slots;
	size_t n, size;
};

static inline size_t ca_pair_hash(uint64_t a, uint64_t b)
{
	uint64_t h = (a + b * 0x9e3779b97f4a7c15ull) * 0xbf58476d1ce4e5b9ull;
	return (size_t)(h ^ (h >> 29));
}

/* The slot of (a, b) in m (m->size > 0): its own (*found), or the free
 * one that ends its run, where it would go. One hash, one probe, for a
 * lookup and an insertion alike. */
static inline size_t ca_pair_slot_of(const struct ca_pair_map *m, uint64_t a, uint64_t b,
	bool *found)
{
	size_t mask = m->size - 1, k = ca_pair_hash(a, b) & mask;
	const struct ca_pair_slot *slots = m->slots;
	for (; slots[k].used; k = (k + 1) & mask)
		if (slots[k].a == a && slots[k].b == b) {
			*found = true;
			return k;
		}
	*found = false;
	return k;
}

static inline uint64_t *ca_pair_map_get(const struct ca_pair_map *m, uint64_t a, uint64_t b)
{
	bool found;
	if (!m->size)
		return NULL;
	size_t k = ca_pair_slot_of(m, a, b, &found);
	return found ? &m->slots[k].value : NULL;
}

/* The key added at slot k, where ca_pair_slot_of found it would go (not
 * inline: it may grow the map). */
uint64_t *ca_pair_map_add(struct ca_pair_map *m, size_t k, uint64_t a, uint64_t b);

/* The key's value, put (as 0, *added true) when the map has none; NULL
 * out of memory. Valid until the map changes. */
static inline uint64_t *ca_pair_map_at(struct ca_pair_map *m, uint64_t a, uint64_t b,
	bool *added)
{
	bool found = false;
	size_t k = m->size ? ca_pair_slot_of(m, a, b, &found) : 0;
	*added = !found;
	return found ? &m->slots[k].value : ca_pair_map_add(m, k, a, b);
}

/* The value put (replacing the key's), or NULL out of memory. */
uint64_t *ca_pair_map_put(struct ca_pair_map *m, uint64_t a, uint64_t b, uint64_t value);
void ca_pair_map_remove(struct ca_pair_map *m, uint64_t a, uint64_t b);
/* The entry whose value is *value (from a lookup, the map unchanged
 * since) removed: no second lookup. */
void ca_pair_map_remove_at(struct ca_pair_map *m, uint64_t *value);
void ca_pair_map_free(struct ca_pair_map *m);

#endif
