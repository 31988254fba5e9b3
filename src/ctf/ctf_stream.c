/*
 * ctf_stream.c - one CTF stream file, mapped, decoded packet by packet and
 * event by event with the types of its metadata (ctf_native.h): packet
 * header and context, event header (compact or large: a partial timestamp
 * updates the clock's low bits, and wraps), stream and event contexts,
 * payload, flattened into ctf_values.
 */
#include <errno.h>
#include <stdarg.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "gid_key.h"
#include "ctf_lanes.h"
#include "ctf_stream.h"

#define CTF_PACKET_MAGIC 0xC1FC1FC1u

/* ---- bits ----------------------------------------------------------------- */

struct decoder {
	struct ctf_stream *s;
	const uint8_t *base; /* the packet */
	uint64_t pos, limit;  /* bits from base */
	struct ctf_value *out;
	size_t n, cap;
	bool keep;            /* false: inside an array, values not kept */
};

void ctf_stream_fail(struct ctf_stream *s, caret_status status, int64_t offset, const char *event,
	const char *fmt, ...)
{
	int n = snprintf(s->err, sizeof s->err, "%s: ", s->path);
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(s->err + n, sizeof s->err - (size_t)n, fmt, ap);
	va_end(ap);
	s->err_status = status;
	s->err_offset = offset;
	s->err_event = event;
	s->err_what = (size_t)n;
}

/* The class of the event being decoded, if one is. */
static const char *event_named(const struct ctf_stream *s)
{
	return s->event.cls ? s->event.cls->name : NULL;
}

static bool failed(struct decoder *d, const char *what)
{
	struct ctf_stream *s = d->s;
	if (!s->err[0])
		ctf_stream_fail(s, CARET_ERR_FORMAT, (int64_t)(s->packet + d->pos / 8), event_named(s),
			"%s at byte %zu of the packet at byte %zu", what, (size_t)(d->pos / 8),
			s->packet);
	return false;
}

static inline bool align_to(struct decoder *d, unsigned align)
{
	if (align > 1)
		d->pos = (d->pos + align - 1) & ~(uint64_t)(align - 1);
	return d->pos <= d->limit || failed(d, "an event goes past the packet's content");
}

/* Any integer: a bit field, big-endian, or not byte-aligned. */
static __attribute__((noinline)) uint64_t bits_at(const uint8_t *b, unsigned shift,
	const struct ctf_type *t)
{
	unsigned bytes = (shift + t->size + 7) / 8;
	uint64_t x = 0;
	if (t->big_endian) {
		for (unsigned i = 0; i < bytes; i++)
			x = x << 8 | b[i];
		x >>= bytes * 8 - t->size - shift;
	} else {
		unsigned __int128 w = 0;
		for (unsigned i = 0; i < bytes; i++)
			w |= (unsigned __int128)b[i] << (8 * i);
		x = (uint64_t)(w >> shift);
	}
	return x;
}

static inline __attribute__((always_inline)) bool read_bits(struct decoder *d, const struct ctf_type *t, uint64_t *v)
{
	if (!align_to(d, t->align))
		return false;
	if (d->pos + t->size > d->limit)
		return failed(d, "an event goes past the packet's content");
	const uint8_t *b = d->base + d->pos / 8;
	unsigned shift = (unsigned)(d->pos % 8);
	uint64_t x;
	/* the native reader assumes a little-endian host */
	if (!shift && !t->big_endian && t->size == 64) {
		memcpy(&x, b, 8);
	} else if (!shift && !t->big_endian && t->size == 32) {
		uint32_t w;
		memcpy(&w, b, 4);
		x = w;
	} else if (!shift && !t->big_endian && t->size == 16) {
		uint16_t w;
		memcpy(&w, b, 2);
		x = w;
	} else if (!shift && t->size == 8) {
		x = b[0];
	} else {
		x = bits_at(b, shift, t);
	}
	if (t->size < 64) {
		x &= ((uint64_t)1 << t->size) - 1;
		if (t->is_signed && (x >> (t->size - 1)) & 1)
			x |= ~(uint64_t)0 << t->size;
	}
	d->pos += t->size;
	*v = x;
	return true;
}

/* A NUL-terminated string, in the packet: it must end inside the content. */
static bool read_string(struct decoder *d, const char **text)
{
	if (!align_to(d, 8))
		return false;
	const uint8_t *b = d->base + d->pos / 8;
	const uint8_t *nul = memchr(b, 0, (size_t)((d->limit - d->pos) / 8));
	if (!nul)
		return failed(d, "a string goes past the packet's content");
	d->pos += (uint64_t)(nul - b + 1) * 8;
	*text = (const char *)b;
	return true;
}

static struct ctf_value *push(struct decoder *d, const struct ctf_field *f)
{
	if (!d->keep)
		return NULL;
	if (d->n == d->cap) {
		failed(d, "an event has more fields than the reader keeps");
		return NULL;
	}
	struct ctf_value *v = &d->out[d->n++];
	*v = (struct ctf_value){ f, 0, NULL, 0 };
	return v;
}

/* The latest integer value of a field named `name` decoded in this event
 * (a sequence's length, a variant's tag). */
static bool find_value(const struct ctf_value *scope, size_t n, const char *name, uint64_t *v)
{
	for (size_t i = n; i-- > 0;)
		if (scope[i].field && !strcmp(scope[i].field->name, name)) {
			*v = scope[i].u;
			return true;
		}
	return false;
}

/* Text for a value: in the stream's scratch space, valid until the next
 * event. */
static const char *keep_text(struct decoder *d, const uint8_t *b, size_t n)
{
	struct ctf_stream *s = d->s;
	if (s->text_used + n + 1 > s->text_cap) {
		failed(d, "an event's text is longer than the reader keeps");
		return NULL;
	}
	char *t = s->text + s->text_used;
	memcpy(t, b, n);
	t[n] = '\0';
	s->text_used += n + 1;
	return t;
}

/* ---- values --------------------------------------------------------------- */

static bool decode(struct decoder *d, const struct ctf_field *f, const struct ctf_type *t);

static bool decode_text_array(struct decoder *d, const struct ctf_field *f, uint64_t length)
{
	if (!align_to(d, 8))
		return false;
	if (length > (d->limit - d->pos) / 8) /* no overflow, whatever the length */
		return failed(d, "an event goes past the packet's content");
	const uint8_t *b = d->base + d->pos / 8;
	d->pos += length * 8;
	struct ctf_value *v = push(d, f);
	if (v) {
		const uint8_t *nul = memchr(b, 0, (size_t)length);
		v->n_elements = length;
		/* NUL-terminated in the file (procname is, padded): no copy */
		v->s = nul ? (const char *)b : keep_text(d, b, (size_t)length);
		return v->s != NULL;
	}
	return d->keep ? false : true;
}

static bool decode_array(struct decoder *d, const struct ctf_field *f, const struct ctf_type *e,
	uint64_t length)
{
	if (e->kind == CTF_INT && e->text && e->size == 8)
		return decode_text_array(d, f, length);
	struct ctf_value *v = push(d, f);
	if (d->keep && !v)
		return false;
	if (v)
		v->n_elements = length;
	if ((e->kind == CTF_INT || e->kind == CTF_FLOAT) && e->size % 8 == 0 &&
	    e->align <= e->size && e->size % e->align == 0) {
		/* fixed-size elements: skipped at once */
		if (!align_to(d, e->align))
			return false;
		if (length > (d->limit - d->pos) / e->size)
			return failed(d, "an array goes past the packet's content");
		if (v && e->kind == CTF_INT && e->size == 8 && !e->is_signed) /* a GID */
			v->u = ca_gid_key(d->base + d->pos / 8, (size_t)length);
		d->pos += length * e->size;
		return true;
	}
	bool keep = d->keep;
	d->keep = false;
	for (uint64_t i = 0; i < length; i++) {
		uint64_t before = d->pos;
		bool ok = decode(d, f, e) && (d->pos != before || failed(d, "an array of empty elements"));
		if (!ok) {
			d->keep = keep;
			return false;
		}
	}
	d->keep = keep;
	return true;
}

static bool decode_variant(struct decoder *d, const struct ctf_type *t)
{
	uint64_t tag;
	const struct ctf_type *tag_type = NULL;
	if (!t->tag_name || !find_value(d->out, d->n, t->tag_name, &tag))
		return failed(d, "a variant's tag is not in the event");
	for (size_t i = d->n; i-- > 0;)
		if (d->out[i].field && !strcmp(d->out[i].field->name, t->tag_name)) {
			tag_type = d->out[i].field->type;
			break;
		}
	const char *label = NULL;
	for (size_t i = 0; tag_type && i < tag_type->n_ranges; i++)
		if ((int64_t)tag >= tag_type->ranges[i].lo && (int64_t)tag <= tag_type->ranges[i].hi)
			label = tag_type->ranges[i].label;
	for (size_t i = 0; label && i < t->n_fields; i++)
		if (!strcmp(t->fields[i].name, label) ||
		    (t->fields[i].name[0] == '_' && !strcmp(t->fields[i].name + 1, label)))
			return decode(d, &t->fields[i], t->fields[i].type);
	return failed(d, "a variant's tag selects no option");
}

static bool decode(struct decoder *d, const struct ctf_field *f, const struct ctf_type *t)
{
	uint64_t x = 0, length; /* x: set when read_bits succeeds; gcc cannot see it */
	struct ctf_value *v;
	switch (t->kind) {
	case CTF_INT:
	case CTF_FLOAT:
		if (!read_bits(d, t, &x))
			return false;
		if ((v = push(d, f)))
			v->u = x;
		return !d->keep || v;
	case CTF_STRING: {
		const char *text;
		if (!read_string(d, &text))
			return false;
		if ((v = push(d, f)))
			v->s = text;
		return !d->keep || v;
	}
	case CTF_ARRAY:
		return decode_array(d, f, t->element, t->length);
	case CTF_SEQUENCE:
		if (!find_value(d->out, d->n, t->length_name, &length))
			return failed(d, "a sequence's length is not in the event");
		return decode_array(d, f, t->element, length);
	case CTF_STRUCT:
		if (!align_to(d, t->align))
			return false;
		for (size_t i = 0; i < t->n_fields; i++)
			if (!decode(d, &t->fields[i], t->fields[i].type))
				return false;
		return true;
	case CTF_VARIANT:
		return decode_variant(d, t);
	}
	return false;
}

/* A flat structure (every payload and context LTTng-UST writes for ROS 2):
 * one pass, no recursion. */
static bool decode_flat(struct decoder *d, const struct ctf_type *t)
{
	if (!align_to(d, t->align))
		return false;
	if (d->n + t->n_fields > d->cap)
		return failed(d, "an event has more fields than the reader keeps");
	for (size_t i = 0; i < t->n_fields; i++) {
		const struct ctf_field *f = &t->fields[i];
		const struct ctf_type *ft = f->type;
		uint64_t length;
		switch (ft->kind) {
		case CTF_INT:
		case CTF_FLOAT: {
			struct ctf_value *v = &d->out[d->n++];
			*v = (struct ctf_value){ f, 0, NULL, 0 };
			if (!read_bits(d, ft, &v->u))
				return false;
			break;
		}
		case CTF_STRING: {
			const char *text;
			if (!read_string(d, &text))
				return false;
			d->out[d->n++] = (struct ctf_value){ f, 0, text, 0 };
			break;
		}
		case CTF_ARRAY:
			if (!decode_array(d, f, ft->element, ft->length))
				return false;
			break;
		case CTF_SEQUENCE:
			if (!find_value(d->out, d->n, ft->length_name, &length))
				return failed(d, "a sequence's length is not in the event");
			if (!decode_array(d, f, ft->element, length))
				return false;
			break;
		default:
			return failed(d, "an unexpected type in a flat structure");
		}
	}
	return true;
}

/* A flat structure of a fixed layout (ctf_tsdl.c's plan_fixed): one
 * bounds check for the whole. Anything amiss goes through decode_flat,
 * which says where it is. */
static bool decode_fixed(struct decoder *d, const struct ctf_type *t)
{
	uint64_t pos = d->pos;
	if (t->align > 1)
		pos = (pos + t->align - 1) & ~(uint64_t)(t->align - 1);
	if (pos % 8 || pos > d->limit || (uint64_t)t->fixed_bytes * 8 > d->limit - pos ||
	    d->n + t->n_fields > d->cap)
		return decode_flat(d, t);
	const uint8_t *b = d->base + pos / 8;
	struct ctf_value *out = d->out + d->n;
	for (size_t i = 0; i < t->n_fields; i++) {
		const struct ctf_fixed *x = &t->fixed[i];
		const uint8_t *at = b + x->offset;
		uint64_t v;
		if (x->op == CTF_FIX_TEXT) {
			/* LTTng pads a text array with NULs: most end in one */
			bool ended = x->length && (!at[x->length - 1] || memchr(at, 0, x->length));
			const char *text = ended ? (const char *)at : keep_text(d, at, x->length);
			if (!text)
				return false;
			out[i] = (struct ctf_value){ &t->fields[i], 0, text, x->length };
			continue;
		}
		if (x->op == CTF_FIX_SKIP) {
			uint64_t key = x->bytes == 1 ? ca_gid_key(at, x->length) : 0;
			out[i] = (struct ctf_value){ &t->fields[i], key, NULL, x->length };
			continue;
		}
		switch (x->bytes) {
		case 1:
			v = x->op == CTF_FIX_SIGNED ? (uint64_t)(int64_t)(int8_t)at[0] : at[0];
			break;
		case 2: {
			uint16_t w;
			memcpy(&w, at, 2);
			v = x->op == CTF_FIX_SIGNED ? (uint64_t)(int64_t)(int16_t)w : w;
			break;
		}
		case 4: {
			uint32_t w;
			memcpy(&w, at, 4);
			v = x->op == CTF_FIX_SIGNED ? (uint64_t)(int64_t)(int32_t)w : w;
			break;
		}
		default:
			memcpy(&v, at, 8);
			break;
		}
		out[i] = (struct ctf_value){ &t->fields[i], v, NULL, 0 };
	}
	d->n += t->n_fields;
	d->pos = pos + (uint64_t)t->fixed_bytes * 8;
	return true;
}

static bool decode_with(struct decoder *d, const struct ctf_type *t)
{
	return !t || (t->fixed ? decode_fixed(d, t) : t->flat ? decode_flat(d, t) :
		decode(d, NULL, t));
}

/* A decoder at the stream's position. The position is loaded alone: a
 * load of it with its neighbours would wait for the store of it that
 * ended the event before (a failed store forwarding, a third of the
 * decoding's time). */
static struct decoder decoder_at(struct ctf_stream *s, struct ctf_value *out, size_t cap)
{
	uint64_t pos = s->pos;
	__asm__("" : "+r"(pos));
	return (struct decoder){ .s = s, .base = s->map + s->packet, .pos = pos,
		.limit = s->limit, .out = out, .cap = cap, .keep = true };
}

static bool decode_into(struct ctf_stream *s, const struct ctf_type *t, struct ctf_value *out,
	size_t cap, size_t *n)
{
	struct decoder d = decoder_at(s, out, cap);
	d.n = *n;
	if (!decode_with(&d, t))
		return false;
	s->pos = d.pos;
	*n = d.n;
	return true;
}

static const struct ctf_value *value_named(const struct ctf_value *v, size_t n, const char *name)
{
	for (size_t i = n; i-- > 0;)
		if (v[i].field && !strcmp(v[i].field->name, name))
			return &v[i];
	return NULL;
}

/* ---- packets -------------------------------------------------------------- */

/* A timestamp of `bits` bits: the clock's low bits replaced, plus one wrap
 * when they went down. */
static void update_clock(struct ctf_stream *s, unsigned bits, uint64_t ts)
{
	if (bits >= 64) {
		s->clock = ts;
		return;
	}
	uint64_t mask = ((uint64_t)1 << bits) - 1, low = s->clock & mask;
	uint64_t next = (s->clock & ~mask) | ts;
	if (ts < low)
		next += mask + 1;
	s->clock = next;
}

/* Reads the packet at s->packet: header, context, what it says was lost. */
/* The pages of the packets read so far leave the resident memory (they
 * are the file's: read again from it if ever needed), so a trace of many
 * GB is not all resident at the end of the walk. */
static void release_read(struct ctf_stream *s)
{
	size_t page = 1 << 21; /* in 2 MB steps: few calls */
	size_t upto = s->packet / page * page;
	if (upto > s->released) {
		madvise((void *)(s->map + s->released), upto - s->released, MADV_DONTNEED);
		s->released = upto;
	}
}

/* The packet about to be read mapped in one call, not fault by fault (64
 * KB each, twice per trace: the tally pass and the runtime pass); where
 * the kernel cannot, its faults as before. */
static void prefault(const struct ctf_stream *s)
{
#ifdef MADV_POPULATE_READ
	size_t page = 4096, from = s->packet / page * page;
	size_t to = s->packet + s->packet_size < s->size ? s->packet + s->packet_size : s->size;
	if (to > from)
		madvise((void *)(s->map + from), to - from, MADV_POPULATE_READ);
#else
	(void)s;
#endif
}

/* Whether the packets of the current stream class may be left undecoded:
 * none of its event classes is needed wherever it is. */
static bool skippable(struct ctf_stream *s)
{
	if (s->skip_for != s->sc) {
		s->skip_for = s->sc;
		s->skip_ok = true;
		for (size_t i = 0; s->needed && i < s->sc->n_events; i++)
			if (s->sc->events[i] && s->needed(s->sc->events[i], s->user))
				s->skip_ok = false;
	}
	return s->skip_ok;
}

static void plan_header(struct ctf_stream *s);

static int open_packet(struct ctf_stream *s)
{
	struct ctf_value hdr[CTF_MAX_VALUES];
	size_t n = 0;
	const struct ctf_meta *m = s->meta;
	s->event.cls = NULL; /* a failure here is in no event */
	s->pos = 0;
	s->limit = (uint64_t)(s->end - s->packet) * 8;
	s->text_used = 0;
	if (!decode_into(s, m->packet_header, hdr, CTF_MAX_VALUES, &n))
		return -1;
	const struct ctf_value *magic = value_named(hdr, n, "magic");
	const struct ctf_value *stream_id = value_named(hdr, n, "stream_id");
	if (magic && magic->u != CTF_PACKET_MAGIC) {
		ctf_stream_fail(s, CARET_ERR_FORMAT, (int64_t)s->packet, NULL,
			"the packet at byte %zu has no CTF magic number", s->packet);
		return -1;
	}
	uint64_t id = stream_id ? stream_id->u : 0;
	if (!(s->sc = ctf_meta_stream(m, id))) {
		ctf_stream_fail(s, CARET_ERR_FORMAT, (int64_t)s->packet, NULL, "the packet at byte %zu "
			"is of stream %" PRIu64 ", which the metadata does not declare", s->packet, id);
		return -1;
	}
	if (s->plan_for != s->sc)
		plan_header(s);
	size_t hdr_n = n;
	if (!decode_into(s, s->sc->packet_context, hdr, CTF_MAX_VALUES, &n))
		return -1;
	const struct ctf_value *v = hdr + hdr_n;
	size_t nv = n - hdr_n;
	const struct ctf_value *content = value_named(v, nv, "content_size");
	const struct ctf_value *packet = value_named(v, nv, "packet_size");
	const struct ctf_value *begin = value_named(v, nv, "timestamp_begin");
	const struct ctf_value *end = value_named(v, nv, "timestamp_end");
	const struct ctf_value *discarded = value_named(v, nv, "events_discarded");
	const struct ctf_value *seq = value_named(v, nv, "packet_seq_num");
	uint64_t left = (uint64_t)(s->end - s->packet) * 8;
	uint64_t packet_bits = packet ? packet->u : left;
	uint64_t content_bits = content ? content->u : packet_bits;
	if (packet_bits % 8 || packet_bits > left || content_bits > packet_bits ||
	    content_bits < s->pos || !packet_bits) {
		ctf_stream_fail(s, CARET_ERR_FORMAT, (int64_t)s->packet, NULL, "truncated or damaged: "
			"the packet at byte %zu says %" PRIu64 " bytes (%" PRIu64 " of content), the file "
			"has %" PRIu64 " after it", s->packet, packet_bits / 8, content_bits / 8,
			left / 8);
		return -1;
	}
	s->packet_size = (size_t)(packet_bits / 8);
	s->limit = content_bits;
	if (begin)
		s->clock = begin->u;
	s->has_begin = begin != NULL;
	s->has_end = end != NULL;
	s->packet_end = end ? end->u : 0;
	uint64_t lost_events = 0, lost_packets = 0;
	if (discarded && discarded->u > s->discarded)
		lost_events = discarded->u - s->discarded;
	if (discarded)
		s->discarded = discarded->u;
	if (seq) {
		if (s->has_seq && seq->u > s->seq + 1)
			lost_packets = seq->u - s->seq - 1;
		s->seq = seq->u;
		s->has_seq = true;
	}
	if ((lost_events || lost_packets) && s->on_discarded)
		s->on_discarded(s->path, lost_events, lost_packets, s->user);
	if (s->skip_after && begin && end && skippable(s) &&
	    (end->u < s->skip_before || begin->u > s->skip_after)) {
		s->limit = s->pos; /* outside the window: no event decoded */
		if (s->on_skipped)
			s->on_skipped(s->path, s->packet_size, s->user);
	}
	return 0;
}

/* ---- the stream ------------------------------------------------------------ */

int ctf_stream_open(struct ctf_stream *s, const struct ctf_meta *m, const char *path)
{
	*s = (struct ctf_stream){ .meta = m };
	snprintf(s->path, sizeof s->path, "%s", path);
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	struct stat st;
	if (fd < 0 || fstat(fd, &st) != 0) {
		ctf_stream_fail(s, CARET_ERR_IO, -1, NULL, "%s", strerror(errno));
		if (fd >= 0)
			close(fd);
		return -1;
	}
	s->size = s->end = (size_t)st.st_size;
	s->text_cap = 1 << 16;
	s->text = malloc(s->text_cap);
	if (s->size) {
		s->map = mmap(NULL, s->size, PROT_READ, MAP_PRIVATE, fd, 0);
		if (s->map != MAP_FAILED)
			madvise((void *)s->map, s->size, MADV_SEQUENTIAL);
	}
	close(fd);
	if (!s->text || s->map == MAP_FAILED) {
		ctf_stream_fail(s, s->text ? CARET_ERR_IO : CARET_ERR_NO_MEMORY, -1, NULL, "%s",
			s->text ? strerror(errno) : "out of memory");
		s->map = NULL;
		return -1;
	}
	s->packet_size = 0;
	s->packet = 0;
	s->in_packet = false;
	return 0;
}

/* The first packet at or after the stream's middle, every packet up to
 * it (itself included) with its first time in its context; 0 if none.
 * second, which reads them, is left as they leave it. */
static size_t middle_packet(const struct ctf_stream *s, struct ctf_stream *second)
{
	size_t at = 0;
	uint64_t discarded = 0, seq = 0;
	bool has_seq = false;
	for (;;) {
		second->packet = at;
		release_read(second); /* a header a packet: the pages mapped around them go */
		if (open_packet(second) != 0 || !second->has_begin)
			return 0; /* damage is for the walk to find, in order */
		if (at && at >= s->end / 2)
			break;
		discarded = second->discarded;
		seq = second->seq;
		has_seq = second->has_seq;
		if ((at += second->packet_size) >= s->end)
			return 0;
	}
	second->discarded = discarded;
	second->seq = seq;
	second->has_seq = has_seq;
	return at;
}

int ctf_stream_split(struct ctf_stream *s, struct ctf_stream *second)
{
	/* the packets before its part are s's to note */
	void (*on_discarded)(const char *, uint64_t, uint64_t, void *) = second->on_discarded;
	void (*on_skipped)(const char *, uint64_t, void *) = second->on_skipped;
	second->on_discarded = NULL;
	second->on_skipped = NULL;
	size_t at = middle_packet(s, second);
	second->on_discarded = on_discarded;
	second->on_skipped = on_skipped;
	second->err[0] = '\0';
	if (!at)
		return 0;
	second->packet = at;
	second->in_packet = false;
	s->end = at;
	return 1;
}

static const struct ctf_type *member(const struct ctf_type *t, const char *name)
{
	for (size_t i = 0; t && t->kind == CTF_STRUCT && i < t->n_fields; i++)
		if (!strcmp(t->fields[i].name, name))
			return t->fields[i].type;
	return NULL;
}

static bool plain_int(const struct ctf_type *t)
{
	return t && t->kind == CTF_INT && !t->n_ranges;
}

/* Whether the stream class's event header is LTTng's: struct { enum id;
 * variant <id> { struct { timestamp } compact; struct { id; timestamp }
 * extended; } v; }, the extended option chosen by one label's value. */
static void plan_header(struct ctf_stream *s)
{
	const struct ctf_type *h = s->sc->event_header, *id = member(h, "id"), *v = member(h, "v");
	s->plan_for = s->sc;
	s->plan_ok = false;
	s->skims = s->lanes = false; /* ctf_lanes_plan says, for a plan_word */
	if (!id || id->kind != CTF_INT || !id->n_ranges || !v || v->kind != CTF_VARIANT ||
	    !v->tag_name || strcmp(v->tag_name, "id") || v->n_fields != 2 || h->n_fields != 2)
		return;
	const struct ctf_type *compact = NULL, *extended = NULL;
	for (size_t i = 0; i < v->n_fields; i++) {
		if (!strcmp(v->fields[i].name, "compact"))
			compact = v->fields[i].type;
		else if (!strcmp(v->fields[i].name, "extended"))
			extended = v->fields[i].type;
	}
	bool found = false;
	for (size_t i = 0; i < id->n_ranges; i++)
		if (!strcmp(id->ranges[i].label, "extended") && id->ranges[i].lo == id->ranges[i].hi) {
			s->plan_extended = (uint64_t)id->ranges[i].lo;
			found = true;
		}
	for (size_t i = 0; found && i < id->n_ranges; i++)
		if (strcmp(id->ranges[i].label, "compact") && strcmp(id->ranges[i].label, "extended"))
			found = false;
	if (!found || !compact || !extended || compact->n_fields != 1 || extended->n_fields != 2)
		return;
	s->plan_ts = member(compact, "timestamp");
	s->plan_ext_id = member(extended, "id");
	s->plan_ext_ts = member(extended, "timestamp");
	s->plan_id = id;
	s->plan_align = h;
	s->plan_ok = plain_int(s->plan_ts) && s->plan_ts->maps_clock && plain_int(s->plan_ext_id) &&
		plain_int(s->plan_ext_ts) && s->plan_ext_ts->maps_clock && compact->align <= 8 &&
		extended->align <= 8;
	/* the compact form in one little-endian word: the id's bits first,
	 * the timestamp's at plan_ts_at */
	const struct ctf_type *ts = s->plan_ts;
	unsigned at = id->size;
	if (compact->align > 1)
		at = (at + compact->align - 1) & ~(compact->align - 1);
	if (ts && ts->align > 1)
		at = (at + ts->align - 1) & ~(ts->align - 1);
	s->plan_word = s->plan_ok && h->align % 8 == 0 && id->align <= h->align &&
		!id->big_endian && !id->is_signed && !ts->big_endian && !ts->is_signed &&
		id->size < 64 && ts->size < 64 && at + ts->size <= 64;
	s->plan_ts_at = at;
	ctf_lanes_plan(s, at + (ts ? ts->size : 0));
	if (s->plan_word) {
		s->word_align = h->align;
		s->word_id_mask = ((uint64_t)1 << id->size) - 1;
		s->word_ts_mask = ((uint64_t)1 << ts->size) - 1;
		s->word_end = at + ts->size;
	}
}

/* The compact header in one word (plan_word), most events: the event's
 * id, the clock updated; false for read_header to read it. */
static inline __attribute__((always_inline)) bool read_word(struct ctf_stream *s, uint64_t *id)
{
	uint64_t pos = s->pos;
	__asm__("" : "+r"(pos)); /* loaded alone: see decoder_at */
	uint64_t at = (pos + s->word_align - 1) & ~(s->word_align - 1), limit = s->limit;
	if (s->plan_word && at < limit && limit - at >= 64) { /* most events */
		uint64_t w, mask = s->word_ts_mask;
		memcpy(&w, s->map + s->packet + at / 8, 8);
		uint64_t i = w & s->word_id_mask;
		if (i != s->plan_extended) {
			/* update_clock's, the mask known */
			uint64_t ts = (w >> s->plan_ts_at) & mask, clock = s->clock;
			uint64_t next = (clock & ~mask) | ts;
			if (ts < (clock & mask))
				next += mask + 1;
			s->clock = next;
			s->pos = at + s->word_end;
			*id = i;
			return true;
		}
	}
	return false;
}

/* The planned header: the event's id, the clock updated. */
static bool read_header(struct ctf_stream *s, uint64_t *id)
{
	struct decoder d = decoder_at(s, NULL, 0);
	uint64_t ts = 0; /* set when read_bits succeeds; gcc cannot see it */
	const struct ctf_type *ts_type = s->plan_ts;
	if (!align_to(&d, s->plan_align->align) || !read_bits(&d, s->plan_id, id))
		return false;
	if (*id == s->plan_extended) {
		if (!read_bits(&d, s->plan_ext_id, id))
			return false;
		ts_type = s->plan_ext_ts;
	}
	if (!read_bits(&d, ts_type, &ts))
		return false;
	update_clock(s, ts_type->size, ts);
	s->pos = d.pos;
	return true;
}

/* Moves to the next event, past the ends of packets: 1, 0 at the
 * stream's end, -1 with s->err. */
static int to_event(struct ctf_stream *s)
{
	for (;;) {
		if (!s->in_packet) {
			if (s->packet >= s->end)
				return 0;
			if (open_packet(s) != 0)
				return -1;
			s->in_packet = true;
			prefault(s);
		}
		if (s->pos < s->limit)
			return 1;
		if (s->has_end && s->clock > s->packet_end) {
			/* an event after the packet's end: a damaged timestamp
			 * (babeltrace2's muxer stops there too) */
			ctf_stream_fail(s, CARET_ERR_FORMAT, (int64_t)s->packet, NULL, "damaged: the "
				"packet at byte %zu ends at %" PRIu64 ", before its last event (%" PRIu64
				")", s->packet, s->packet_end, s->clock);
			return -1;
		}
		s->packet += s->packet_size;
		s->in_packet = false;
		release_read(s);
	}
}

/* The event's id, from its header; the clock updated. Apart from its
 * fast path (event_id), with its own stack frame. */
static __attribute__((noinline)) bool any_header(struct ctf_stream *s, uint64_t *id)
{
	if (s->plan_ok) /* planned in open_packet */
		return read_header(s, id);
	*id = 0;
	struct ctf_value hdr[CTF_MAX_VALUES];
	size_t n = 0;
	if (!decode_into(s, s->sc->event_header, hdr, CTF_MAX_VALUES, &n))
		return false;
	for (size_t i = 0; i < n; i++) {
		if (!hdr[i].field)
			continue;
		if (!strcmp(hdr[i].field->name, "id"))
			*id = hdr[i].u; /* the extended header's comes last */
		else if (!strcmp(hdr[i].field->name, "timestamp"))
			update_clock(s, hdr[i].field->type->size, hdr[i].u);
	}
	return true;
}

static inline __attribute__((always_inline)) bool event_id(struct ctf_stream *s, uint64_t *id)
{
	return (s->plan_ok && read_word(s, id)) || any_header(s, id);
}

/* Where a fixed structure at bit pos ends (pos when there is none);
 * false when it would not fit in the packet. */
static bool fixed_end(const struct ctf_stream *s, const struct ctf_type *t, uint64_t *pos)
{
	if (!t)
		return true;
	uint64_t at = *pos;
	if (t->align > 1)
		at = (at + t->align - 1) & ~(uint64_t)(t->align - 1);
	if (at % 8 || at > s->limit || (uint64_t)t->fixed_bytes * 8 > s->limit - at)
		return false;
	*pos = at + (uint64_t)t->fixed_bytes * 8;
	return true;
}

/* A skimmed event (class id, its header read) stepped over and counted
 * by its stream event context: false when it does not fit in its packet,
 * or when out of memory (it is decoded then). */
static bool tallied(struct ctf_stream *s, uint64_t id, uint64_t start)
{
	const struct ctf_type *ctx = s->sc->event_context;
	const struct ctf_event_class *cls = s->sc->events[id];
	uint64_t end = s->pos, bytes_at;
	if (cls->skim_bytes && end % 8 == 0) { /* byte-aligned: one step */
		bytes_at = end;
		if (end > s->limit || (uint64_t)cls->skim_bytes * 8 > s->limit - end)
			return false;
		end += (uint64_t)cls->skim_bytes * 8;
	} else {
		if (!fixed_end(s, ctx, &end))
			return false;
		bytes_at = end - (ctx ? (uint64_t)ctx->fixed_bytes * 8 : 0);
		if (!fixed_end(s, cls->context, &end) || !fixed_end(s, cls->payload, &end) ||
		    end == start)
			return false;
	}
	struct ctf_tally_count *c = ctf_tally_find(&s->tallies, s->sc,
		s->map + s->packet + bytes_at / 8, ctx ? ctx->fixed_bytes : 0, id);
	if (!c)
		return false;
	if (!c->events++)
		c->first = s->clock + (uint64_t)s->meta->time_shift;
	c->last = s->clock + (uint64_t)s->meta->time_shift;
	s->pos = end;
	return true;
}

/* ctf_stream_next but for its fast lane, in a frame of its own. */
static __attribute__((noinline)) int next_event(struct ctf_stream *s)
{
	struct ctf_event *e = &s->event;
	uint64_t id, start;
	for (;;) {
		int r = to_event(s);
		if (r <= 0)
			return r;
		if (s->skims) {
			ctf_lanes_skim(s);
			if (s->pos >= s->limit)
				continue; /* to the next packet */
		}
		if (s->lanes && ctf_lanes_raw(s))
			return 1;
		start = s->pos;
		s->text_used = 0;
		s->event.cls = NULL; /* not known until its id is read */
		if (!event_id(s, &id))
			return -1;
		if (id >= s->sc->n_events || !s->sc->events[id]) {
			ctf_stream_fail(s, CARET_ERR_FORMAT, (int64_t)(s->packet + s->pos / 8), NULL,
				"an event of id %" PRIu64 " at byte %zu of the packet at byte %zu, which the "
				"metadata does not declare", id, (size_t)(s->pos / 8), s->packet);
			return -1;
		}
		if (!s->sc->events[id]->skim || !tallied(s, id, start))
			break;
	}
	e->cls = s->sc->events[id];
	e->timestamp = s->clock + (uint64_t)s->meta->time_shift;
	e->stream_path = s->path;
	e->n_context = e->n_payload = 0;
	s->raw_shape = false;
	struct ctf_value *v = s->out ? s->out : s->values;
	uint64_t raw = (uint64_t)e->cls->raw_bytes * 8, at = s->pos;
	if (s->raw && raw && at % 8 == 0 && at <= s->limit && raw <= s->limit - at) {
		e->bytes = s->map + s->packet + at / 8; /* the handler reads it (convert) */
		e->context = e->payload = v;
		s->pos = at + raw;
		return 1;
	}
	e->bytes = NULL;
	struct decoder d = decoder_at(s, v, CTF_MAX_VALUES);
	e->context = v;
	if (!decode_with(&d, s->sc->event_context) || !decode_with(&d, e->cls->context))
		return -1;
	e->n_context = d.n;
	e->payload = d.out = v + d.n;
	d.n = 0;
	if (!decode_with(&d, e->cls->payload))
		return -1;
	e->n_payload = d.n;
	s->pos = d.pos;
	if (s->pos == start) { /* the next one would be read at the same place, forever */
		ctf_stream_fail(s, CARET_ERR_FORMAT, (int64_t)(s->packet + s->pos / 8), e->cls->name,
			"an event of no size at byte %zu of the packet at byte %zu", (size_t)(s->pos / 8),
			s->packet);
		return -1;
	}
	return 1;
}

int ctf_stream_next(struct ctf_stream *s)
{
	/* most events of a walk that delivers them raw: no frame to set up */
	if (s->lanes && s->in_packet && ctf_lanes_raw(s)) /* false at the packet's end */
		return 1;
	return next_event(s);
}

void ctf_stream_tallies(struct ctf_stream *s, void (*fn)(const struct ctf_tally *tally,
	const struct ctf_meta *meta, void *user), void *user)
{
	for (size_t i = 0; i < s->tallies.n; i++) {
		const struct ctf_tally_group *g = &s->tallies.groups[i];
		struct ctf_value context[CTF_MAX_VALUES];
		struct decoder d = { .s = s, .base = g->bytes, .limit = (uint64_t)g->n_bytes * 8,
			.out = context, .cap = CTF_MAX_VALUES, .keep = true };
		s->text_used = 0;
		if (g->sc->event_context && !decode_fixed(&d, g->sc->event_context))
			continue; /* it was read once: it fits */
		for (size_t id = 0; id < g->sc->n_events; id++) {
			const struct ctf_tally_count *c = &g->by_class[id];
			if (c->events)
				fn(&(struct ctf_tally){ g->sc->events[id], s->path, context, d.n,
					c->events, c->first, c->last }, s->meta, user);
		}
	}
}

int ctf_stream_bounds(struct ctf_stream *s, uint64_t *first, uint64_t *last)
{
	int r = ctf_stream_next(s);
	if (r <= 0)
		return r;
	*first = *last = s->event.timestamp;
	size_t last_packet = s->packet, at = s->packet + s->packet_size;
	while (at < s->end) { /* headers only, to find the last packet with events */
		s->packet = at;
		if (open_packet(s) != 0)
			return -1;
		if (s->limit > s->pos)
			last_packet = at;
		at += s->packet_size;
	}
	s->packet = last_packet;
	s->in_packet = false;
	while ((r = ctf_stream_next(s)) > 0)
		*last = s->event.timestamp;
	return r < 0 ? -1 : 1;
}

void ctf_stream_close(struct ctf_stream *s)
{
	if (s->map)
		munmap((void *)s->map, s->size);
	free(s->text);
	ctf_tally_free(&s->tallies);
	s->map = NULL;
	s->text = NULL;
}
