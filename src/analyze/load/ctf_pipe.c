/*
 * ctf_pipe.c - the native reader on two cores: a thread decodes every
 * stream into its own ring of batches, and the caller's thread merges the
 * rings in time order and runs the handlers (the tables, the scans), which
 * are about half of what reading a trace costs.
 *
 * An event is decoded straight into its batch (ctf_stream.out), not
 * copied: its values sit in the record, and its text either in the trace
 * (mapped until the walk ends) or, when the stream had to copy it, in the
 * batch's text. Notes (events discarded, packets skipped) wait in their
 * ring's queue, each record saying how many come before it, so that the
 * handlers see them exactly where a walk in one thread would.
 *
 * Handlers that convert events (ctf_native_handlers.convert) have them
 * converted here, in the decoding thread, into their batch: the values
 * are decoded into the ring's scratch, and only the record, a fraction of
 * their size, crosses to the merge's core.
 *
 * The decoding thread never waits on one stream: it visits every stream
 * whose ring has a free batch, and sleeps only when none has, so the
 * merge, whatever stream it waits for, always gets it. A walk whose merge
 * has little to do (its events tallied, ctf_tally.h) has two decoding
 * threads, each with its share of the streams.
 */
#include <pthread.h>
#include <stdalign.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ctf_pipe.h"

#define BATCHES 8 /* per stream: room for a few ms of events between the threads */
#define VISIT_EVENTS 4096   /* decoded per visit of a stream, at most */
#define FIRST_BYTES (16 * 1024)
/* A batch grows up to 1 MiB (about 4,000 events: few hand-overs, each of
 * which may wake a thread), less when many streams share the budget of
 * all batches. */
#define LARGEST_BYTES (1024 * 1024)
#define SMALLEST_LARGEST (64 * 1024)
#define BUDGET_BYTES ((size_t)96 * 1024 * 1024)
/* A thread that finds nothing to do looks again this many times before
 * it sleeps: a batch takes microseconds, a sleep and a wake-up as long. */
#define SPINS 20000
/* Below this much trace one thread reads it in tens of milliseconds: a
 * second one would only take a core from whatever else runs. */
#define PIPE_MIN_BYTES ((uint64_t)32 * 1024 * 1024)
/* A stream this large is worth two decoders when the merge is idle. */
#define SPLIT_BYTES ((uint64_t)64 * 1024 * 1024)

enum kind { EVENT, END, FAILED };
enum note_kind { DISCARDED, SKIPPED };

struct record {
	uint32_t kind, size; /* size: the record's bytes, a multiple of 8 */
	uint32_t notes;      /* notes of the stream to hand out before it */
	uint32_t n_context, n_payload;
	uint32_t converted;  /* the bytes of the handlers' record in values' place */
	const struct ctf_event_class *cls;
	uint64_t timestamp;
	struct ctf_value values[]; /* EVENT: the context's, then the payload's */
};

#define EVENT_ROOM (sizeof(struct record) + 2 * CTF_MAX_VALUES * sizeof(struct ctf_value))

struct text_chunk {
	struct text_chunk *next;
	size_t used, cap;
	char bytes[];
};

/* What one thread writes often is kept off the other's cache lines. */
#define LINE 64

struct batch {
	alignas(LINE) unsigned char *data;
	size_t used, cap;
	struct text_chunk *text; /* the text copied out of the stream, newest first */
	atomic_bool full;        /* handed to the merge (set and cleared under the lock) */
	bool cramped;            /* its last visit ran out of room: it grows */
};

struct note {
	enum note_kind kind;
	uint64_t a, b;
};

struct ring {
	struct ctf_pipe *p;
	struct ctf_stream *s;
	struct batch batches[BATCHES];
	/* the decoder's side */
	alignas(LINE) size_t fill; /* its batch */
	size_t decoder;      /* the thread that decodes it */
	bool done;           /* it wrote its END or FAILED */
	uint32_t pending;    /* notes queued while decoding the next record */
	struct ctf_value *scratch; /* converting handlers: the decoded values */
	/* the notes, under the pipe's lock */
	alignas(LINE) struct note *notes;
	size_t head, tail, cap;
	/* the merge's side */
	alignas(LINE) size_t drain; /* its batch */
	bool holding;        /* batches[drain] is being read */
	size_t at;
	struct ctf_event event;
};

struct decoder_thread {
	struct ctf_pipe *p;
	size_t index;
	pthread_t thread;
	bool started;
};

struct ctf_pipe {
	const struct ctf_native_handlers *h;
	struct ring *rings;
	size_t n;
	struct decoder_thread decoders[CTF_PIPE_MAX_DECODERS];
	size_t n_decoders;
	pthread_mutex_t lock;
	pthread_cond_t changed;
	atomic_bool stop;
	size_t largest; /* a batch's bytes, at most */
};

uint64_t ctf_pipe_split_bytes(void)
{
	const char *v = getenv("CARET_READER_THREADS");
	return v && *v && atoi(v) > 1 ? 0 : SPLIT_BYTES;
}

long ctf_pipe_cores(void)
{
	const char *v = getenv("CARET_READER_THREADS");
	if (v && *v && atoi(v) <= 1)
		return 1;
	return sysconf(_SC_NPROCESSORS_ONLN);
}

bool ctf_pipe_wanted(uint64_t bytes)
{
	const char *v = getenv("CARET_READER_THREADS");
	if (v && *v)
		return atoi(v) > 1;
	return bytes >= PIPE_MIN_BYTES && sysconf(_SC_NPROCESSORS_ONLN) > 1;
}

/* ---- the decoding thread ------------------------------------------------- */

static void queue_note(struct ring *r, enum note_kind kind, uint64_t a, uint64_t b)
{
	struct ctf_pipe *p = r->p;
	pthread_mutex_lock(&p->lock);
	if (r->tail == r->cap) {
		size_t cap = r->cap ? 2 * r->cap : 16;
		struct note *grown = realloc(r->notes, cap * sizeof *grown);
		if (!grown) { /* the note is lost, not the walk */
			pthread_mutex_unlock(&p->lock);
			return;
		}
		r->notes = grown;
		r->cap = cap;
	}
	r->notes[r->tail++] = (struct note){ kind, a, b };
	r->pending++;
	pthread_mutex_unlock(&p->lock);
}

static void on_discarded(const char *path, uint64_t events, uint64_t packets, void *user)
{
	(void)path;
	queue_note(user, DISCARDED, events, packets);
}

static void on_skipped(const char *path, uint64_t bytes, void *user)
{
	(void)path;
	queue_note(user, SKIPPED, bytes, 0);
}

static bool needed(const struct ctf_event_class *cls, void *user)
{
	const struct ctf_native_handlers *h = ((struct ring *)user)->p->h;
	return h->needed(cls, h->user);
}

/* Room for n bytes of text in b; NULL out of memory. */
static char *text_room(struct batch *b, size_t n)
{
	struct text_chunk *c = b->text;
	if (!c || c->cap - c->used < n) {
		size_t cap = n > 65536 ? n : 65536;
		if (!(c = malloc(sizeof *c + cap)))
			return NULL;
		*c = (struct text_chunk){ b->text, 0, cap };
		b->text = c;
	}
	char *at = c->bytes + c->used;
	c->used += n;
	return at;
}

/* The event's text the stream copied (valid only until its next event)
 * moves into the batch. */
static bool keep_text(struct batch *b, struct ctf_stream *s, struct record *rec)
{
	if (!s->text_used)
		return true;
	char *text = text_room(b, s->text_used);
	if (!text)
		return false;
	memcpy(text, s->text, s->text_used);
	for (size_t i = 0; i < rec->n_context + rec->n_payload; i++) {
		const char *t = rec->values[i].s;
		if (t >= s->text && t < s->text + s->text_used)
			rec->values[i].s = text + (t - s->text);
	}
	return true;
}

static void reset(struct batch *b)
{
	b->used = 0;
	for (struct text_chunk *c = b->text, *next; c; c = next) {
		next = c->next;
		free(c);
	}
	b->text = NULL;
}

/* Decodes up to VISIT_EVENTS events of r's stream into its free batch. */
static void fill(struct ring *r)
{
	struct batch *b = &r->batches[r->fill];
	struct ctf_stream *s = r->s;
	reset(b);
	if (b->cramped && b->cap < r->p->largest) { /* its last visit ran out of room */
		size_t cap = 2 * b->cap < r->p->largest ? 2 * b->cap : r->p->largest;
		unsigned char *grown = realloc(b->data, cap);
		if (grown) {
			b->data = grown;
			b->cap = cap;
		}
	}
	b->cramped = false;
	size_t used = 0;
	uint32_t pending = 0;
	const struct ctf_native_handlers *h = r->p->h;
	size_t room = h->convert ? sizeof(struct record) + CTF_RECORD_BYTES : EVENT_ROOM;
	for (size_t k = 0; k < VISIT_EVENTS; k++) {
		if (b->cap - used < room) {
			b->cramped = true;
			break;
		}
		struct record *rec = (struct record *)(b->data + used);
		s->out = h->convert ? r->scratch : rec->values;
		int got = ctf_stream_next(s);
		pending = r->pending; /* notes are rare: the ring's line is read, not written */
		if (pending)
			r->pending = 0;
		*rec = (struct record){ got > 0 ? EVENT : got == 0 ? END : FAILED,
			sizeof *rec, pending, 0, 0, 0, NULL, 0 };
		if (got > 0) {
			rec->cls = s->event.cls;
			rec->timestamp = s->event.timestamp;
		}
		if (got > 0 && h->convert) {
			rec->converted = (uint32_t)h->convert(&s->event, s->meta, rec->values, h->user);
			rec->size += (rec->converted + 7) & ~7u;
		} else if (got > 0) {
			rec->n_context = (uint32_t)s->event.n_context;
			rec->n_payload = (uint32_t)s->event.n_payload;
			rec->size += (uint32_t)((rec->n_context + rec->n_payload) *
				sizeof(struct ctf_value));
			if (!keep_text(b, s, rec)) {
				snprintf(s->err, sizeof s->err, "%s: out of memory", s->path);
				rec->kind = FAILED;
			}
		}
		used += rec->size;
		if (rec->kind != EVENT) {
			r->done = true;
			break;
		}
	}
	b->used = used;
}

/* Whether some stream of decoder d, not done, has a free batch. */
static bool work_left(const struct ctf_pipe *p, size_t d)
{
	for (size_t i = 0; i < p->n; i++)
		if (p->rings[i].decoder == d && !p->rings[i].done &&
		    !atomic_load(&p->rings[i].batches[p->rings[i].fill].full))
			return true;
	return false;
}

static void *decode_streams(void *arg)
{
	const struct decoder_thread *self = arg;
	struct ctf_pipe *p = self->p;
	size_t d = self->index, left = 0;
	for (size_t i = 0; i < p->n; i++)
		left += p->rings[i].decoder == d;
	while (left) {
		for (int spin = 0; spin < SPINS && !atomic_load(&p->stop) && !work_left(p, d); spin++)
			;
		pthread_mutex_lock(&p->lock);
		while (!atomic_load(&p->stop) && !work_left(p, d))
			pthread_cond_wait(&p->changed, &p->lock);
		pthread_mutex_unlock(&p->lock);
		if (atomic_load(&p->stop))
			break;
		for (size_t i = 0; i < p->n; i++) {
			struct ring *r = &p->rings[i];
			if (r->decoder != d || r->done || atomic_load(&r->batches[r->fill].full) ||
			    atomic_load(&p->stop))
				continue;
			fill(r);
			left -= r->done;
			pthread_mutex_lock(&p->lock);
			atomic_store(&r->batches[r->fill].full, true);
			r->fill = (r->fill + 1) % BATCHES;
			pthread_cond_broadcast(&p->changed);
			pthread_mutex_unlock(&p->lock);
		}
	}
	return NULL;
}

/* ---- the merge's side -------------------------------------------------------- */

static void hand_out_notes(struct ring *r, uint32_t n)
{
	const struct ctf_native_handlers *h = r->p->h;
	for (uint32_t k = 0; k < n; k++) {
		pthread_mutex_lock(&r->p->lock);
		struct note note = r->notes[r->head++];
		if (r->head == r->tail)
			r->head = r->tail = 0;
		pthread_mutex_unlock(&r->p->lock);
		if (note.kind == DISCARDED && h->on_discarded)
			h->on_discarded(r->s->path, note.a, note.b, h->user);
		else if (note.kind == SKIPPED && h->on_skipped)
			h->on_skipped(r->s->path, note.a, h->user);
	}
}

int ctf_pipe_next(struct ctf_pipe *p, size_t i, const struct ctf_event **event)
{
	struct ring *r = &p->rings[i];
	for (;;) {
		struct batch *b = &r->batches[r->drain];
		if (r->holding && r->at < b->used) {
			const struct record *rec = (const struct record *)(b->data + r->at);
			r->at += rec->size;
			hand_out_notes(r, rec->notes);
			if (rec->kind != EVENT)
				return rec->kind == END ? 0 : -1;
			r->event = (struct ctf_event){ rec->cls, rec->timestamp, r->s->path, rec->values,
				rec->values + rec->n_context, rec->n_context, rec->n_payload,
				p->h->convert ? rec->values : NULL, rec->converted };
			*event = &r->event;
			return 1;
		}
		if (r->holding) { /* this batch is read: back to the decoder */
			pthread_mutex_lock(&p->lock);
			atomic_store(&b->full, false);
			r->drain = (r->drain + 1) % BATCHES;
			r->holding = false;
			pthread_cond_broadcast(&p->changed);
			pthread_mutex_unlock(&p->lock);
			b = &r->batches[r->drain];
		}
		for (int spin = 0; spin < SPINS && !atomic_load(&b->full); spin++)
			;
		if (!atomic_load(&b->full)) {
			pthread_mutex_lock(&p->lock);
			while (!atomic_load(&b->full))
				pthread_cond_wait(&p->changed, &p->lock);
			pthread_mutex_unlock(&p->lock);
		}
		r->holding = true;
		r->at = 0;
	}
}

/* Stops the decoding threads started, and waits for them. */
static void join_decoders(struct ctf_pipe *p)
{
	pthread_mutex_lock(&p->lock);
	atomic_store(&p->stop, true);
	pthread_cond_broadcast(&p->changed);
	pthread_mutex_unlock(&p->lock);
	for (size_t d = 0; d < p->n_decoders; d++)
		if (p->decoders[d].started)
			pthread_join(p->decoders[d].thread, NULL);
}

static void free_rings(struct ctf_pipe *p)
{
	for (size_t i = 0; i < p->n; i++) {
		struct ring *r = &p->rings[i];
		if (r->s)
			r->s->out = NULL;
		for (size_t k = 0; k < BATCHES; k++) {
			reset(&r->batches[k]);
			free(r->batches[k].data);
		}
		free(r->notes);
		free(r->scratch);
	}
	pthread_mutex_destroy(&p->lock);
	pthread_cond_destroy(&p->changed);
	free(p->rings);
	free(p);
}

static uint64_t bytes_of(const struct ctf_stream *s)
{
	return s->end - s->packet;
}

/* Each stream, in order, to the decoder with the fewest bytes so far (a
 * stream split in two parts, ctf_stream_split, goes to both). */
static void share_out(struct ctf_pipe *p)
{
	uint64_t load[CTF_PIPE_MAX_DECODERS] = { 0 };
	for (size_t i = 0; i < p->n; i++) {
		size_t d = 0;
		for (size_t t = 1; t < p->n_decoders; t++)
			if (load[t] < load[d])
				d = t;
		p->rings[i].decoder = d;
		load[d] += bytes_of(p->rings[i].s);
	}
}

struct ctf_pipe *ctf_pipe_start(struct ctf_stream **streams, size_t n,
	const struct ctf_native_handlers *h, size_t decoders)
{
	struct ctf_pipe *p = calloc(1, sizeof *p);
	size_t bytes = (n + 1) * sizeof *p->rings; /* a multiple of its alignment */
	if (!p || !(p->rings = aligned_alloc(alignof(struct ring), bytes))) {
		free(p);
		return NULL;
	}
	memset(p->rings, 0, bytes);
	p->h = h;
	p->n = n;
	p->largest = BUDGET_BYTES / BATCHES / n;
	p->largest = p->largest > LARGEST_BYTES ? LARGEST_BYTES :
		p->largest < SMALLEST_LARGEST ? SMALLEST_LARGEST : p->largest;
	pthread_mutex_init(&p->lock, NULL);
	pthread_cond_init(&p->changed, NULL);
	bool ok = true;
	for (size_t i = 0; i < n; i++)
		for (size_t k = 0; k < BATCHES; k++) {
			struct batch *b = &p->rings[i].batches[k];
			ok &= (b->data = malloc(b->cap = FIRST_BYTES)) != NULL;
		}
	for (size_t i = 0; i < n; i++) {
		struct ring *r = &p->rings[i];
		struct ctf_stream *s = streams[i];
		r->p = p;
		r->s = s;
		if (h->convert)
			ok &= (r->scratch = malloc(2 * CTF_MAX_VALUES * sizeof *r->scratch)) != NULL;
		s->on_discarded = on_discarded;
		s->on_skipped = on_skipped;
		s->needed = h->needed ? needed : NULL;
		s->user = r;
	}
	p->n_decoders = decoders < 1 || h->convert ? 1 : decoders > CTF_PIPE_MAX_DECODERS ?
		CTF_PIPE_MAX_DECODERS : decoders;
	share_out(p);
	for (size_t d = 0; ok && d < p->n_decoders; d++) {
		p->decoders[d] = (struct decoder_thread){ .p = p, .index = d };
		ok = !pthread_create(&p->decoders[d].thread, NULL, decode_streams, &p->decoders[d]);
		p->decoders[d].started = ok;
	}
	if (!ok) {
		join_decoders(p);
		for (size_t i = 0; i < n; i++) { /* the streams as they were */
			streams[i]->on_discarded = h->on_discarded;
			streams[i]->on_skipped = h->on_skipped;
			streams[i]->needed = h->needed;
			streams[i]->user = h->user;
		}
		free_rings(p);
		return NULL;
	}
	return p;
}

void ctf_pipe_stop(struct ctf_pipe *p)
{
	if (!p)
		return;
	join_decoders(p);
	free_rings(p);
}
