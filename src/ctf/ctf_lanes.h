/*
 * ctf_lanes.h - the fast lanes of a stream (ctf_stream.c) whose event
 * header is LTTng's compact one read in one word (plan_word): an event of
 * a class the walk skims (ctf_native_handlers.skim) or delivers raw
 * (ctf_event.bytes) is stepped over by one table load, by class id, not
 * through the generic checks of its class. Most events of a trace.
 */
#ifndef CA_CTF_LANES_H
#define CA_CTF_LANES_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "ctf_stream.h"

/* The tables of plan_word's fast lanes (ctf_lanes_skim, and ctf_stream_next's
 * raw events): events whose header ends on a byte (word_end bits from
 * the aligned start) and whose bytes all follow it. */
void ctf_lanes_plan(struct ctf_stream *s, unsigned word_end);
/* The skimmed events from s->pos on stepped over and tallied, as
 * ctf_stream.c's read_word and tallied would, with the position and the
 * clock kept in registers: up to the packet's content's end, or to an
 * event they would not take in one step (left to them, the stream at its
 * start). */
void ctf_lanes_skim(struct ctf_stream *s);

/* The next event, when it is of a class delivered raw (raw_bits) and
 * fits in the packet: its header read as ctf_stream.c's read_word would,
 * the event pointing at its bytes; else false, nothing read. */
static inline __attribute__((always_inline)) bool ctf_lanes_raw(struct ctf_stream *s)
{
	uint64_t pos = s->pos;
	__asm__("" : "+r"(pos)); /* loaded alone: see decoder_at */
	uint64_t at = (pos + s->word_align - 1) & ~(s->word_align - 1), limit = s->limit, w;
	if (at + 64 > limit) /* the word past the content (bits: far from overflowing) */
		return false;
	const uint8_t *base = s->map + s->packet;
	memcpy(&w, base + at / 8, 8);
	uint64_t id = w & s->word_id_mask, end = at + s->word_end, bits;
	if (id >= CTF_LANE_IDS || !(bits = s->raw_bits[id]) || end + bits > limit)
		return false;
	uint64_t mask = s->word_ts_mask, ts = (w >> s->plan_ts_at) & mask, clock = s->clock;
	uint64_t next = (clock & ~mask) | ts;
	if (ts < (clock & mask))
		next += mask + 1;
	s->clock = next;
	struct ctf_event *e = &s->event;
	e->cls = s->sc->events[id];
	e->timestamp = next + (uint64_t)s->meta->time_shift;
	if (!s->raw_shape) { /* the same for every raw event, until next_event's */
		e->stream_path = s->path;
		e->n_context = e->n_payload = 0;
		e->context = e->payload = s->values; /* none: a valid place still */
		s->raw_shape = true;
	}
	e->bytes = base + end / 8;
	s->pos = end + bits;
	return true;
}

#endif
