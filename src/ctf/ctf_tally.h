/*
 * ctf_tally.h - the events a walk only counts (ctf_native_handlers.skim),
 * tallied per stream as they are stepped over: grouped by the bytes of
 * their stream's event context (for LTTng: the process, the thread and its
 * name), counted per event class with their first and last times.
 */
#ifndef CA_CTF_TALLY_H
#define CA_CTF_TALLY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "ctf_native.h"

/* A stream event context longer than this is not tallied (its events are
 * decoded). LTTng's vpid, vtid and procname take 25 bytes. */
#define CTF_TALLY_BYTES 64

struct ctf_tally_count {
	uint64_t events, first, last; /* clock values */
};

struct ctf_tally_group {
	const struct ctf_stream_class *sc;
	uint8_t bytes[CTF_TALLY_BYTES];
	uint32_t n_bytes;
	struct ctf_tally_count *by_class; /* by event class id, sc->n_events */
};

struct ctf_tally_map {
	struct ctf_tally_group *groups;
	size_t n, cap;
	uint32_t *index; /* open addressing: group + 1, 0 free */
	size_t index_size;
	size_t last;     /* the group found last: consecutive events share it */
};

/* ctf_tally_find's search when the last group is not the event's. */
struct ctf_tally_count *ctf_tally_search(struct ctf_tally_map *m,
	const struct ctf_stream_class *sc, const uint8_t *bytes, size_t n, uint64_t class_id);
void ctf_tally_free(struct ctf_tally_map *m);

static inline uint64_t ctf_tally_word(const uint8_t *p)
{
	uint64_t w;
	memcpy(&w, p, 8);
	return w;
}

/* Whether a[0..n) and b[0..n) are equal, n at most CTF_TALLY_BYTES: word
 * by word, the last word overlapping the one before (a call of memcmp
 * costs more than LTTng's 25 bytes); up to 32 bytes in four words, their
 * places the same for every event of a walk. */
static inline bool ctf_tally_same(const uint8_t *a, const uint8_t *b, size_t n)
{
	uint64_t diff = 0;
	if (n < 8) {
		for (size_t i = 0; i < n; i++)
			diff |= (uint64_t)(a[i] ^ b[i]);
		return !diff;
	}
	if (n <= 32) {
		size_t i1 = n < 16 ? n - 8 : 8, i2 = n < 24 ? n - 8 : 16;
		return !((ctf_tally_word(a) ^ ctf_tally_word(b)) |
			(ctf_tally_word(a + i1) ^ ctf_tally_word(b + i1)) |
			(ctf_tally_word(a + i2) ^ ctf_tally_word(b + i2)) |
			(ctf_tally_word(a + n - 8) ^ ctf_tally_word(b + n - 8)));
	}
	for (size_t i = 0; i + 8 < n; i += 8)
		diff |= ctf_tally_word(a + i) ^ ctf_tally_word(b + i);
	return !(diff | (ctf_tally_word(a + n - 8) ^ ctf_tally_word(b + n - 8)));
}

/* The group ctf_tally_find found last (NULL: none yet); valid until the
 * next call of ctf_tally_find, which may move the groups. */
static inline const struct ctf_tally_group *ctf_tally_last(const struct ctf_tally_map *m)
{
	return m->last < m->n ? &m->groups[m->last] : NULL;
}

/* The count of class_id for the events of context bytes[0..n) of stream
 * class sc; NULL when out of memory. Most events come from the thread of
 * the event before them: the last group is tried here, inline. */
static inline struct ctf_tally_count *ctf_tally_find(struct ctf_tally_map *m,
	const struct ctf_stream_class *sc, const uint8_t *bytes, size_t n, uint64_t class_id)
{
	if (m->last < m->n) {
		struct ctf_tally_group *g = &m->groups[m->last];
		if (g->sc == sc && g->n_bytes == n && class_id < sc->n_events &&
		    ctf_tally_same(g->bytes, bytes, n))
			return &g->by_class[class_id];
	}
	return ctf_tally_search(m, sc, bytes, n, class_id);
}

#endif
