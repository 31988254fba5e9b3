/*
 * handle_map.c - open addressing over (kind, pid, address), each slot the
 * newest entry of a chain that goes back in time.
 */
#include "handle_map.h"

#include <stdlib.h>

#include "vec.h"

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
		size_t k = ca_handle_hash(e->kind, e->pid, e->address) & (n - 1);
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
	size_t k = ca_handle_slot_of(m, kind, pid, address);
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

void ca_handle_map_free(struct ca_handle_map *m)
{
	free(m->entries);
	free(m->slots);
}

/* Out of line, even optimized across files: its callers' probe stays
 * small, with no stack frame. */
__attribute__((noinline)) size_t ca_handle_find_keep(const struct ca_handle_map *m,
	struct ca_handle_known *k, enum ca_handle_kind kind, int32_t pid, uint64_t address,
	uint64_t time)
{
	size_t newest = m->n_slots ? m->slots[ca_handle_slot_of(m, kind, pid, address)] : 0;
	size_t object = newest ? ca_handle_chain_at(m, newest - 1, time) : SIZE_MAX;
	if (!newest || m->entries[newest - 1].older == SIZE_MAX) /* the same at any time */
		*k = (struct ca_handle_known){ address, pid, (uint32_t)kind + 1, object };
	return object;
}
