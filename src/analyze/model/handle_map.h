/*
 * handle_map.h - (kind, pid, address) -> object index, by time.
 *
 * Addresses are per process and can be reused once an object dies, so a key
 * holds a chain of objects, each from its creation time on. Finding a key at
 * time t gives the newest object created at or before t (or the oldest when
 * t is before all of them: an event stamped slightly before its object's
 * initialization still finds it).
 */
#ifndef CA_HANDLE_MAP_H
#define CA_HANDLE_MAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum ca_handle_kind {
	CA_H_NODE,
	CA_H_PUBLISHER,
	CA_H_SUBSCRIPTION,        /* rcl handle */
	CA_H_SUBSCRIPTION_RMW,    /* rmw handle (rmw_take) */
	CA_H_SUBSCRIPTION_RCLCPP, /* rclcpp object (callback_added) */
	CA_H_TIMER,
	CA_H_SERVICE,
	CA_H_CLIENT,
	CA_H_CALLBACK,
	CA_H_GROUP,
	CA_H_EXECUTOR,
	CA_H_ENTITIES_COLLECTOR,
	CA_H_RING_BUFFER, /* Jazzy: a subscription's intra-process ring buffer */
	CA_H_IPB,         /* Jazzy: the intra-process buffer holding it */
};

struct ca_handle_entry {
	uint64_t address, time;
	int32_t pid;
	uint8_t kind;
	size_t object;
	size_t older; /* entry of the previous object with this key, or SIZE_MAX */
};

struct ca_handle_map {
	struct ca_handle_entry *entries;
	size_t n_entries, cap_entries;
	size_t *slots; /* newest entry + 1 per key, 0: free */
	size_t n_keys, n_slots;
};

/* Adds object (created at time) under the key. Returns the object that held
 * the key before (SIZE_MAX: none), or -2 cast to size_t when out of memory;
 * see CA_HANDLE_OOM. */
#define CA_HANDLE_OOM ((size_t)-2)
size_t ca_handle_add(struct ca_handle_map *m, enum ca_handle_kind kind, int32_t pid,
	uint64_t address, uint64_t time, size_t object);

static inline size_t ca_handle_hash(enum ca_handle_kind kind, int32_t pid, uint64_t address)
{
	uint64_t h = address ^ ((uint64_t)(uint32_t)pid << 32) ^ ((uint64_t)kind << 56);
	h ^= h >> 33;
	h *= 0xff51afd7ed558ccdull;
	h ^= h >> 33;
	return (size_t)h;
}

/* The slot of a key: the one holding it, or the free one it would take. */
static inline size_t ca_handle_slot_of(const struct ca_handle_map *m, enum ca_handle_kind kind,
	int32_t pid, uint64_t address)
{
	size_t k = ca_handle_hash(kind, pid, address) & (m->n_slots - 1);
	const struct ca_handle_entry *e;
	while (m->slots[k] && ((e = &m->entries[m->slots[k] - 1])->address != address ||
		e->pid != pid || e->kind != kind))
		k = (k + 1) & (m->n_slots - 1);
	return k;
}

/* The object at time t of the chain whose newest entry is i. */
static inline size_t ca_handle_chain_at(const struct ca_handle_map *m, size_t i, uint64_t time)
{
	while (m->entries[i].time > time && m->entries[i].older != SIZE_MAX)
		i = m->entries[i].older;
	return m->entries[i].object;
}

/* The object of the key at time t, or SIZE_MAX. Inline: the records' scan
 * asks it for most runtime events. */
static inline size_t ca_handle_find(const struct ca_handle_map *m, enum ca_handle_kind kind,
	int32_t pid, uint64_t address, uint64_t time)
{
	if (!m->n_slots)
		return SIZE_MAX;
	size_t k = ca_handle_slot_of(m, kind, pid, address);
	return m->slots[k] ? ca_handle_chain_at(m, m->slots[k] - 1, time) : SIZE_MAX;
}

/* The answers of ca_handle_find that hold at any time (the key has one
 * object, or none), kept by a caller of ca_handle_find_kept: most runtime
 * events name one of a few objects, found there in one probe. Zeroed:
 * empty. Not shared between threads. */
#define CA_HANDLE_KEPT 64
struct ca_handle_kept {
	struct ca_handle_known {
		uint64_t address;
		int32_t pid;
		uint32_t kind; /* + 1: 0 is an empty slot */
		size_t object;
	} slots[CA_HANDLE_KEPT];
};

/* ca_handle_find_kept's lookup when k does not hold the key: the answer,
 * put in k when it holds at any time. */
size_t ca_handle_find_keep(const struct ca_handle_map *m, struct ca_handle_known *k,
	enum ca_handle_kind kind, int32_t pid, uint64_t address, uint64_t time);

/* ca_handle_find, the answers that hold at any time kept in kept. */
static inline size_t ca_handle_find_kept(const struct ca_handle_map *m,
	struct ca_handle_kept *kept, enum ca_handle_kind kind, int32_t pid, uint64_t address,
	uint64_t time)
{
	struct ca_handle_known *k = &kept->slots[(address >> 4 ^ kind) & (CA_HANDLE_KEPT - 1)];
	if (k->address == address && k->pid == pid && k->kind == (uint32_t)kind + 1)
		return k->object;
	return ca_handle_find_keep(m, k, kind, pid, address, time);
}

void ca_handle_map_free(struct ca_handle_map *m);

#endif
