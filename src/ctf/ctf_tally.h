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

/* The count of class_id for the events of context bytes[0..n) of stream
 * class sc; NULL when out of memory. */
struct ctf_tally_count *ctf_tally_find(struct ctf_tally_map *m, const struct ctf_stream_class *sc,
	const uint8_t *bytes, size_t n, uint64_t class_id);
void ctf_tally_free(struct ctf_tally_map *m);

#endif
