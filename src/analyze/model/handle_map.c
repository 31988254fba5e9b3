/*
 * handle_map.c - open addressing over (kind, pid, address), each slot the
 * newest entry of a chain that goes back in time.
 */
#include "handle_map.h"

#include <stdlib.h>

#include "vec.h"

static size_t hash_key(enum ca_handle_kind kind, int32_t pid, uint64_t address)
{
	uint64_t h = address ^ ((uint64_t)(uint32_t)pid << 32) ^ ((uint64_t)kind << 56);
	h ^= h >> 33;
	h *= 0xff51afd7ed558ccdull;
	h ^= h >> 33;
	return (size_t)h;
}

static bool same_key(const struct ca_handle_entry *e, enum ca_handle_kind kind,
	int32_t pid, uint64_t address)
{
	return e->address == address && e->pid == pid && e->kind == kind;
}

/* The slot of a key: the one holding it, or the free one it would take. */
static inline __attribute__((always_inline)) size_t slot_of(const struct ca_handle_map *m,
	enum ca_handle_kind kind, int32_t pid, uint64_t address)
{
	size_t k = hash_key(kind, pid, address) & (m->n_slots - 1);
	while (m->slots[k] && !same_key(&m->entries[m->slots[k] - 1], kind, pid, address))
		k = (k + 1) & (m->n_slots - 1);
	return k;
}

static bool grow_slots(struct ca_handle_map *m)
{
	size_t n = m->n_slots ? 2 * m->n_slots : 256;
	size_t *slots = calloc(n, sizeof *slots);
	if (!slots)
		return false;
	for (size_t i = 0; i < m->n_slots; i++) {
		if (!m->slots[i])
			continue;
		const struct ca_handle_entry *e = &m->entries[m->slots[i] - 1];
		size_t k = hash_key(e->kind, e->pid, e->address) & (n - 1);
		while (slots[k])
			k = (k + 1) & (n - 1);
		slots[k] = m->slots[i];
	}
	free(m->slots);
	m->slots = slots;
	m->n_slots = n;
	return true;
}

size_t ca_handle_add(struct ca_handle_map *m, enum ca_handle_kind kind, int32_t pid,
	uint64_t address, uint64_t time, size_t object)
{
	if ((m->n_keys + 1) * 2 > m->n_slots && !grow_slots(m))
		return CA_HANDLE_OOM;
	struct ca_handle_entry *e = VEC_PUSH(m->entries, m->n_entries, m->cap_entries);
	if (!e)
		return CA_HANDLE_OOM;
	size_t k = slot_of(m, kind, pid, address);
	*e = (struct ca_handle_entry){ address, time, pid, (uint8_t)kind, object, SIZE_MAX };
	size_t before = SIZE_MAX;
	if (m->slots[k]) {
		e->older = m->slots[k] - 1;
		before = m->entries[e->older].object;
	} else {
		m->n_keys++;
	}
	m->slots[k] = m->n_entries;
	return before;
}

size_t ca_handle_find(const struct ca_handle_map *m, enum ca_handle_kind kind,
	int32_t pid, uint64_t address, uint64_t time)
{
	if (!m->n_slots)
		return SIZE_MAX;
	size_t k = slot_of(m, kind, pid, address);
	if (!m->slots[k])
		return SIZE_MAX;
	size_t i = m->slots[k] - 1;
	while (m->entries[i].time > time && m->entries[i].older != SIZE_MAX)
		i = m->entries[i].older;
	return m->entries[i].object;
}

void ca_handle_map_free(struct ca_handle_map *m)
{
	free(m->entries);
	free(m->slots);
}
