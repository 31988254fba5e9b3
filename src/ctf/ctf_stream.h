/*
 * ctf_stream.h - one stream file of a CTF trace, decoded event by event
 * (ctf_stream.c), for the native reader's merge (ctf_native.c).
 */
#ifndef CA_CTF_STREAM_H
#define CA_CTF_STREAM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "caret/error.h"
#include "ctf_native.h"
#include "ctf_tally.h"

#define CTF_LANE_IDS 256

struct ctf_stream {
	const struct ctf_meta *meta;
	char path[4096];
	const uint8_t *map;
	size_t size;                /* the file's bytes, all mapped */
	size_t end;                 /* where its packets end: size, or a part's end */
	size_t packet, packet_size; /* the current packet: its byte offset and size */
	size_t released;            /* bytes from the start no longer resident */
	bool in_packet;
	bool has_end;
	bool has_begin;             /* the packet's context says its first time */
	uint64_t packet_end;        /* the packet's timestamp_end (has_end) */
	/* bits from the packet's start: where the next read is, and the end
	 * of the packet's content. Apart, so that no load of both at once
	 * waits on the store of pos just before (a stall of the store
	 * forwarding that cost a third of the decoding) */
	uint64_t pos;
	const struct ctf_stream_class *sc;
	/* LTTng's event header (an id, then a compact timestamp or an
	 * extended id and timestamp), read without the generic decoder */
	const struct ctf_stream_class *plan_for;
	bool plan_ok;
	const struct ctf_type *plan_align, *plan_id, *plan_ts, *plan_ext_id, *plan_ext_ts;
	uint64_t plan_extended;
	bool plan_word;             /* the compact form read in one load */
	unsigned plan_ts_at;        /* its timestamp's first bit */
	/* plan_word's numbers, read from the types once, not per event: the
	 * header's alignment, its id's and timestamp's masks, its end bit */
	uint64_t word_align, word_id_mask, word_ts_mask, word_end;
	bool skims;                 /* plan_word, and a class skimmed in one step */
	bool lanes;                 /* plan_word, and a class delivered raw (raw) */
	bool raw_shape;             /* event's path, counts and places set by ctf_lanes_raw */
	/* by class id, for plan_word's stream class: the bits of an event
	 * skimmed in one step, of one delivered raw (0: neither; ids from
	 * CTF_LANE_IDS on go the generic way) */
	uint32_t skim_bits[CTF_LANE_IDS], raw_bits[CTF_LANE_IDS];
	uint64_t clock;             /* the stream's clock, updated by each header */
	uint64_t discarded, seq;    /* the last packet's events_discarded, packet_seq_num */
	uint64_t limit;             /* see pos */
	bool has_seq;
	char *text;                 /* the current event's text arrays */
	size_t text_used, text_cap;
	struct ctf_event event;     /* the current event */
	/* its context's values, then its payload's: in values, or where out
	 * says (ctf_pipe.c: room for 2 * CTF_MAX_VALUES) */
	struct ctf_value values[2 * CTF_MAX_VALUES];
	struct ctf_value *out;
	bool raw;                   /* events of classes with raw_bytes left undecoded */
	void (*on_discarded)(const char *path, uint64_t events, uint64_t packets, void *user);
	/* a time window (ctf_native_handlers): packets left undecoded */
	bool (*needed)(const struct ctf_event_class *cls, void *user);
	void (*on_skipped)(const char *path, uint64_t bytes, void *user);
	uint64_t skip_before, skip_after;
	const struct ctf_stream_class *skip_for;
	bool skip_ok;               /* skip_for's packets may be skipped */
	void *user;
	struct ctf_tally_map tallies; /* the skimmed events (ctf_tally.h) */
	char err[4608];
	/* err as data (caret/error.h): its status, the byte in the file where
	 * the reader was (-1: none), the event class it was reading (NULL:
	 * none), and where err's own words begin, after "PATH: " */
	caret_status err_status;
	int64_t err_offset;
	const char *err_event;
	size_t err_what;
};

/* s fails: err says "PATH: " and fmt's words, the rest as data. */
void ctf_stream_fail(struct ctf_stream *s, caret_status status, int64_t offset, const char *event,
	const char *fmt, ...) __attribute__((format(printf, 5, 6)));

/* Maps the file. 0, or -1 with the reason in s->err. */
int ctf_stream_open(struct ctf_stream *s, const struct ctf_meta *meta, const char *path);
/* Splits the stream at the packet boundary nearest its middle: s keeps
 * the packets before it, second (opened on the same file, nothing read
 * yet) takes the rest, in the state the packets before left it (the
 * discarded events and the sequence numbers they counted). 1 when split;
 * 0 when it is not (a single packet, a packet with no first time in its
 * context, damage: s is read whole, and finds it). */
int ctf_stream_split(struct ctf_stream *s, struct ctf_stream *second);
/* The next event in s->event: 1; 0 at the end; -1 with s->err. */
int ctf_stream_next(struct ctf_stream *s);
/* The times of the stream's first and last events, from its first events
 * and its last packet that has any, the packets between read by their
 * headers only: 1; 0 when it has no event; -1 with s->err. */
int ctf_stream_bounds(struct ctf_stream *s, uint64_t *first, uint64_t *last);
/* Hands each tally of the stream's skimmed events to fn. */
void ctf_stream_tallies(struct ctf_stream *s, void (*fn)(const struct ctf_tally *tally,
	const struct ctf_meta *meta, void *user), void *user);
void ctf_stream_close(struct ctf_stream *s);

#endif
