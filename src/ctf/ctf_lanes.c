/*
 * ctf_lanes.c - ctf_stream.c's fast lanes (ctf_lanes.h): which event
 * classes take them, found once per stream class, and the run of skimmed
 * events stepped over and tallied.
 */
#include <string.h>

#include "ctf_lanes.h"

/* The tables of plan_word's fast lanes (ctf_lanes_skim, and ctf_stream_next's
 * raw events): events whose header ends on a byte (word_end bits from
 * the aligned start) and whose bytes all follow it. */
void ctf_lanes_plan(struct ctf_stream *s, unsigned word_end)
{
	memset(s->skim_bits, 0, sizeof s->skim_bits);
	memset(s->raw_bits, 0, sizeof s->raw_bits);
	s->skims = s->lanes = false;
	for (size_t i = 0; s->plan_word && word_end % 8 == 0 && i < s->sc->n_events &&
	     i < CTF_LANE_IDS; i++) {
		const struct ctf_event_class *cls = s->sc->events[i];
		if (!cls || i == s->plan_extended)
			continue;
		if (cls->skim && cls->skim_bytes)
			s->skims = (s->skim_bits[i] = cls->skim_bytes * 8) != 0;
		else if (s->raw && cls->raw_bytes)
			s->lanes = (s->raw_bits[i] = cls->raw_bytes * 8) != 0;
	}
}

/* The skimmed events from s->pos on stepped over and tallied, as
 * ctf_stream.c's read_word and tallied would, with the position and the
 * clock kept in registers: up to the packet's content's end, or to an
 * event they would not take in one step (left to them, the stream at its
 * start). */
void ctf_lanes_skim(struct ctf_stream *s)
{
	const struct ctf_stream_class *sc = s->sc;
	const struct ctf_type *ctx = sc->event_context;
	const size_t ctx_bytes = ctx ? ctx->fixed_bytes : 0;
	const uint8_t *base = s->map + s->packet;
	const uint64_t align = s->word_align, id_mask = s->word_id_mask, mask = s->word_ts_mask;
	const uint64_t ts_at = s->plan_ts_at, word_end = s->word_end;
	uint64_t pos = s->pos, limit = s->limit, clock = s->clock;
	__asm__("" : "+r"(pos)); /* loaded alone: see decoder_at */
	/* the group of the event before (its thread): its stream class is sc,
	 * its bytes ctx_bytes, as ctf_tally_find found it */
	const struct ctf_tally_group *last = NULL;
	/* its bytes, of 8 to 32, as ctf_tally_same's four words, held here */
	const bool words = ctx_bytes >= 8 && ctx_bytes <= 32;
	const size_t i1 = ctx_bytes < 16 ? ctx_bytes - 8 : 8, i2 = ctx_bytes < 24 ? ctx_bytes - 8 : 16;
	uint64_t g0 = 0, g1 = 0, g2 = 0, g3 = 0;
	while (pos < limit) {
		uint64_t at = (pos + align - 1) & ~(align - 1), w;
		if (at + 64 > limit) /* the word past the content (bits: far from overflowing) */
			break;
		memcpy(&w, base + at / 8, 8);
		uint64_t id = w & id_mask, end = at + word_end, bits;
		if (id >= CTF_LANE_IDS || !(bits = s->skim_bits[id]) || end + bits > limit)
			break;
		struct ctf_tally_count *c;
		const uint8_t *b = base + end / 8;
		bool same = words ? last && !((ctf_tally_word(b) ^ g0) |
			(ctf_tally_word(b + i1) ^ g1) | (ctf_tally_word(b + i2) ^ g2) |
			(ctf_tally_word(b + ctx_bytes - 8) ^ g3)) :
			last && ctf_tally_same(last->bytes, b, ctx_bytes);
		if (same) {
			c = &last->by_class[id]; /* same sc, ctx_bytes: the id fits */
		} else {
			if (!(c = ctf_tally_find(&s->tallies, sc, b, ctx_bytes, id)))
				break;
			last = ctf_tally_last(&s->tallies);
			if (words) {
				g0 = ctf_tally_word(last->bytes);
				g1 = ctf_tally_word(last->bytes + i1);
				g2 = ctf_tally_word(last->bytes + i2);
				g3 = ctf_tally_word(last->bytes + ctx_bytes - 8);
			}
		}
		uint64_t ts = (w >> ts_at) & mask, next = (clock & ~mask) | ts;
		if (ts < (clock & mask))
			next += mask + 1;
		clock = next;
		if (!c->events++)
			c->first = clock + (uint64_t)s->meta->time_shift;
		c->last = clock + (uint64_t)s->meta->time_shift;
		pos = end + bits;
	}
	s->pos = pos;
	s->clock = clock;
}
