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
 * converted here, in the decoding thread, and merged here too: the
 * values are decoded into the stream's scratch, converted into its next
 * record, and the streams' next records go in time order into one ring
 * (the pipe's `out`), so that the caller's thread only hands records over
 * (ctf_pipe_hand_over_merged). A record is a fraction of the values' size.
 *
 * The decoding thread never waits on one stream: it visits every stream
 * whose ring has a free batch, and sleeps only when none has, so the
 * merge, whatever stream it waits for, always gets it. A walk whose merge
 * has little to do (its events tallied, ctf_tally.h) has two decoding
 * threads, each with its share of the streams.
 *
 * Two threads sharing one core are slower than one (every batch handed
 * over, every wake-up, on the same core): a walk starts its decoders only
 * when a core is free, and stops them, the merge's thread decoding each
 * batch it needs from then on, once they wait for a core
 * (docs/dev/analyzer-performance.md).
 */
#define _GNU_SOURCE /* sched_getaffinity's CPU_COUNT, gettid */
#include <fcntl.h>
#include <inttypes.h>
#include <pthread.h>
#include <sched.h>
#include <stdalign.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "vec.h"

#include "ctf_pipe.h"

#define BATCHES 8 /* per stream: room for a few ms of events between the threads */
/* A decoding thread that slept wakes when a stream has this many free
 * batches, not at each one: a wake-up costs the merge's thread a system
 * call, as long as a few hundred events. */
#define WAKE_FREE (BATCHES / 2)
/* The merge, when it slept, wakes when a stream has this many batches
 * filled, or its last: in a walk whose decoding is the slower side, one
 * wake-up per batch was one per millisecond, each a system call on both
 * sides and, on a VM, an interrupt to wake the sleeping core. */
#define WAKE_FULL (BATCHES / 2)
#define VISIT_EVENTS 4096   /* decoded per visit of a stream, at most */
/* Merged records per batch, at most (about 70 bytes a record): as many
 * as a stream's visit decodes; fewer (1024, to stay in a core's
 * second-level cache) measured no faster, and slower when another process
 * takes a core (more hand-overs, more wake-ups). */
#define MERGED_EVENTS VISIT_EVENTS
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
/* A decoding thread ahead of the merge looks again for this long before
 * it sleeps: each wake-up costs the merge's thread a system call (tens of
 * microseconds on a VM), but a longer spin (2 ms) made a walk sharing its
 * core with another process a third slower. */
#define DECODER_SPIN_NS 100000
/* Below this much trace one thread reads it in tens of milliseconds: a
 * second one would only take a core from whatever else runs. */
#define PIPE_MIN_BYTES ((uint64_t)32 * 1024 * 1024)
/* A stream this large is worth two decoders when the merge is idle. */
#define SPLIT_BYTES ((uint64_t)64 * 1024 * 1024)
/* The merge looks this often at how long the walk's threads waited for a
 * core (their run delay), and goes on alone, the decoding threads
 * stopped, once it is more than CONTENDED_PERCENT of the time: another
 * process has the second core, and two threads sharing one are slower
 * than one (each batch handed over, each wake-up, on the same core). */
#define WATCH_NS 20000000
#define CONTENDED_PERCENT 25
/* Runnable tasks are read this many times, WAIT_NS apart, before a walk
 * starts: a task that was runnable in every sample holds its core (a
 * kernel worker's burst is gone by the next). */
#define SAMPLES 3
#define SAMPLE_NS 500000
/* What the samples found is taken again by a walk that starts this soon
 * after (a load's second pass): with the other core busy, sampling costs
 * two sleeps and wake-ups, and the answer is the same. */
#define SAMPLED_FOR_NS 500000000

enum kind { EVENT, END, FAILED };
enum note_kind { DISCARDED, SKIPPED };

struct record {
	uint32_t kind, size; /* size: the record's bytes, a multiple of 8 */
	uint32_t notes;      /* notes of the stream to hand out before it */
	uint32_t n_context, n_payload;
	uint32_t converted;  /* the bytes of the handlers' record in values' place */
	uint32_t stream;     /* merged: the event's stream */
	const struct ctf_event_class *cls; /* merged: NULL (the handlers' record says) */
	uint64_t timestamp;
	const uint8_t *bytes; /* an undecoded event's (ctf_event.bytes): in the mapping */
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
	const char *path; /* its stream's */
	uint64_t a, b;
};

struct ring {
	struct ctf_pipe *p;
	struct ctf_stream *s;
	struct batch batches[BATCHES];
	/* the decoder's side */
	alignas(LINE) size_t fill; /* its batch */
	size_t decoder;      /* the thread that decodes it */
	/* it wrote its END or FAILED: written by its decoder, read by the
	 * merge too (worth_taking) */
	atomic_bool done;
	uint32_t pending;    /* notes queued while decoding the next record */
	struct ctf_value *scratch; /* converting handlers: the decoded values */
	/* merged: the stream's next event, converted (next_size bytes of
	 * next), and its place in time */
	unsigned char *next;
	size_t next_size;
	uint64_t next_time;
	__int128 next_key;
	/* the notes, under the pipe's lock */
	alignas(LINE) struct note *notes;
	size_t head, tail, cap;
	bool merge_waits;    /* the merge sleeps until it is worth_taking (under the lock) */
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
	atomic_int tid; /* its run delay is watched (0 until it runs) */
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
	/* merged (converting handlers): the records of every stream, in time
	 * order, and what the decoding thread needs to put them so */
	struct ring *out;
	size_t *heap; /* streams with a next record, by its key */
	size_t n_heap;
	__int128 last;
	bool delivered;
	char err[sizeof ((struct ctf_stream *)0)->err]; /* what a FAILED record failed on */
	const struct ctf_stream *failed; /* the stream whose error err is, if one's */
	/* the merge's thread alone (decoders stopped, it decodes each batch
	 * it needs), and what it watches to decide so */
	bool solo;
	unsigned contended_percent; /* 0: alone from the first batch on (tests) */
	pid_t merge_tid;
	uint64_t watch_since, watch_delay;
};

uint64_t ctf_pipe_split_bytes(void)
{
	const char *v = getenv("CARET_READER_THREADS");
	return v && *v && atoi(v) > 1 ? 0 : SPLIT_BYTES;
}

static uint64_t now_ns(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (uint64_t)t.tv_sec * 1000000000 + (uint64_t)t.tv_nsec;
}

/* A line of /proc into buf, NUL-terminated; false when unreadable. */
static bool read_proc(const char *path, char *buf, size_t size)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return false;
	ssize_t n = read(fd, buf, size - 1);
	close(fd);
	if (n <= 0)
		return false;
	buf[n] = 0;
	return true;
}

/* Tasks runnable now on the whole machine (ourselves included), from
 * /proc/loadavg's "running/total"; 0 when unknown. */
static long runnable_now(void)
{
	char buf[128];
	long running = 0;
	if (!read_proc("/proc/loadavg", buf, sizeof buf))
		return 0;
	return sscanf(buf, "%*s %*s %*s %ld/", &running) == 1 ? running : 0;
}

/* The cores this process may run on that no other task keeps busy: a
 * second decoding thread on a core another process uses only takes turns
 * with it (and with the merge), slower than one thread. */
static long free_cores(void)
{
	long online = sysconf(_SC_NPROCESSORS_ONLN), allowed = online;
	cpu_set_t set;
	if (sched_getaffinity(0, sizeof set, &set) == 0)
		allowed = CPU_COUNT(&set);
	long others = -1;
	for (int k = 0; k < SAMPLES && others != 0; k++) {
		if (k) {
			struct timespec wait = { 0, SAMPLE_NS };
			nanosleep(&wait, NULL);
		}
		long busy = runnable_now() - 1; /* not this thread */
		if (others < 0 || busy < others)
			others = busy < 0 ? 0 : busy;
	}
	long free = online - others;
	return free < allowed ? (free < 1 ? 1 : free) : allowed;
}

/* free_cores, or what it said less than SAMPLED_FOR_NS ago (any thread's
 * walk: a race only samples twice). */
static long free_cores_recent(void)
{
	static _Atomic uint64_t sampled_at;
	static _Atomic long sampled;
	uint64_t now = now_ns(), at = atomic_load(&sampled_at);
	long cores = atomic_load(&sampled);
	if (at && cores > 0 && now - at < SAMPLED_FOR_NS)
		return cores;
	cores = free_cores();
	atomic_store(&sampled, cores);
	atomic_store(&sampled_at, now_ns());
	return cores;
}

long ctf_pipe_cores(void)
{
	const char *v = getenv("CARET_READER_THREADS");
	if (v && *v)
		return atoi(v) <= 1 ? 1 : sysconf(_SC_NPROCESSORS_ONLN);
	return free_cores_recent();
}

bool ctf_pipe_wanted(uint64_t bytes, long cores)
{
	const char *v = getenv("CARET_READER_THREADS");
	if (v && *v)
		return atoi(v) > 1;
	return bytes >= PIPE_MIN_BYTES && cores > 1;
}

/* ---- the decoding thread ------------------------------------------------- */

static void queue_note(struct ring *stream, enum note_kind kind, uint64_t a, uint64_t b)
{
	struct ctf_pipe *p = stream->p;
	struct ring *r = p->out ? p->out : stream; /* merged: in the order of the records */
	pthread_mutex_lock(&p->lock);
	if (!VEC_ROOM(r->notes, r->tail, r->cap)) { /* the note is lost, not the walk */
		pthread_mutex_unlock(&p->lock);
		return;
	}
	r->notes[r->tail++] = (struct note){ kind, stream->s->path, a, b };
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

/* r's free batch, emptied (grown when its last visit ran out of room). */
static struct batch *free_batch(struct ring *r)
{
	struct batch *b = &r->batches[r->fill];
	reset(b);
	if (b->cramped && b->cap < r->p->largest) {
		size_t cap = 2 * b->cap < r->p->largest ? 2 * b->cap : r->p->largest;
		unsigned char *grown = realloc(b->data, cap);
		if (grown) {
			b->data = grown;
			b->cap = cap;
		}
	}
	b->cramped = false;
	return b;
}

/* The notes queued since r's last record, for the next one. */
static uint32_t take_pending(struct ring *r)
{
	uint32_t pending = r->pending; /* notes are rare: the line is read, not written */
	if (pending)
		r->pending = 0;
	return pending;
}

/* Decodes up to VISIT_EVENTS events of r's stream into its free batch. */
static void fill(struct ring *r)
{
	struct batch *b = free_batch(r);
	struct ctf_stream *s = r->s;
	size_t used = 0;
	for (size_t k = 0; k < VISIT_EVENTS; k++) {
		if (b->cap - used < EVENT_ROOM) {
			b->cramped = true;
			break;
		}
		struct record *rec = (struct record *)(b->data + used);
		s->out = rec->values;
		int got = ctf_stream_next(s);
		*rec = (struct record){ got > 0 ? EVENT : got == 0 ? END : FAILED,
			sizeof *rec, take_pending(r), 0, 0, 0, 0, NULL, 0, NULL };
		if (got > 0) {
			rec->cls = s->event.cls;
			rec->timestamp = s->event.timestamp;
			rec->bytes = s->event.bytes;
			rec->n_context = (uint32_t)s->event.n_context;
			rec->n_payload = (uint32_t)s->event.n_payload;
			rec->size += (uint32_t)((rec->n_context + rec->n_payload) *
				sizeof(struct ctf_value));
			if (!keep_text(b, s, rec)) {
				ctf_stream_fail(s, CARET_ERR_NO_MEMORY, -1, NULL, "out of memory");
				rec->kind = FAILED;
			}
		}
		used += rec->size;
		if (rec->kind != EVENT) {
			atomic_store(&r->done, true);
			break;
		}
	}
	b->used = used;
}

/* ---- merged: the streams' records in time order, in the decoding thread ---- */

/* r's next event, converted into r->next: 1; 0 at the stream's end; -1
 * with p->err. */
static int next_head(struct ctf_pipe *p, struct ring *r)
{
	struct ctf_stream *s = r->s;
	s->out = r->scratch;
	int got = ctf_stream_next(s);
	if (got < 0) {
		snprintf(p->err, sizeof p->err, "%s", s->err);
		p->failed = s;
	}
	if (got <= 0)
		return got;
	r->next_time = s->event.timestamp;
	r->next_key = ctf_order_key(s->meta, r->next_time);
	r->next_size = p->h->convert(&s->event, s->meta, r->next, p->h->user);
	return 1;
}

/* Heap entry a's stream comes before b's: the earlier head, ties to the
 * stream first in the walk (as ctf_native.c's merge orders them). */
static bool head_before(const struct ctf_pipe *p, size_t a, size_t b)
{
	__int128 x = p->rings[p->heap[a]].next_key, y = p->rings[p->heap[b]].next_key;
	return x != y ? x < y : p->heap[a] < p->heap[b];
}

static void heap_down(struct ctf_pipe *p, size_t i)
{
	for (;;) {
		size_t l = 2 * i + 1, r = l + 1, m = i;
		if (l < p->n_heap && head_before(p, l, m))
			m = l;
		if (r < p->n_heap && head_before(p, r, m))
			m = r;
		if (m == i)
			return;
		size_t x = p->heap[i];
		p->heap[i] = p->heap[m];
		p->heap[m] = x;
		i = m;
	}
}

/* Every stream's first record, in the walk's order (their notes too):
 * false with p->err. */
static bool first_heads(struct ctf_pipe *p)
{
	for (size_t i = 0; i < p->n; i++) {
		int got = next_head(p, &p->rings[i]);
		if (got < 0)
			return false;
		if (got > 0)
			p->heap[p->n_heap++] = i;
	}
	for (size_t i = p->n_heap / 2; i-- > 0;)
		heap_down(p, i);
	return true;
}

/* Up to MERGED_EVENTS records of the streams' events, in time order, into
 * out's free batch; the END or FAILED that ends them. */
static void fill_merged(struct ctf_pipe *p)
{
	struct ring *o = p->out;
	struct batch *b = free_batch(o);
	size_t used = 0;
	uint32_t kind = p->err[0] ? FAILED : EVENT; /* first_heads failed */
	for (size_t k = 0; k < MERGED_EVENTS && kind == EVENT; k++) {
		/* room for an event's record and a FAILED after it */
		if (b->cap - used < 2 * sizeof(struct record) + CTF_RECORD_BYTES) {
			b->cramped = true;
			break;
		}
		if (!p->n_heap) {
			kind = END;
			break;
		}
		size_t i = p->heap[0];
		struct ring *r = &p->rings[i];
		/* a stream's time that went back (a damaged timestamp) would put
		 * its events out of order: an error, as babeltrace2's muxer says */
		if (p->delivered && r->next_key < p->last) {
			snprintf(p->err, sizeof p->err, "%s: damaged: an event at %" PRIu64 " after "
				"events at a later time (time goes backwards)", r->s->path, r->next_time);
			kind = FAILED;
			break;
		}
		p->last = r->next_key;
		p->delivered = true;
		if (r->next_size) { /* a record to hand over */
			struct record *rec = (struct record *)(b->data + used);
			*rec = (struct record){ EVENT, sizeof *rec + ((r->next_size + 7) & ~(size_t)7),
				take_pending(o), 0, 0, (uint32_t)r->next_size, (uint32_t)i, NULL,
				r->next_time, NULL };
			if (r->next_size <= 64) /* most: one inline copy, no call */
				memcpy(rec->values, r->next, 64);
			else
				memcpy(rec->values, r->next, r->next_size);
			used += rec->size;
		}
		int got = next_head(p, r);
		if (got < 0)
			kind = FAILED;
		else if (!got)
			p->heap[0] = p->heap[--p->n_heap];
		heap_down(p, 0);
	}
	if (kind != EVENT) {
		struct record *rec = (struct record *)(b->data + used);
		*rec = (struct record){ kind, sizeof *rec, take_pending(o), 0, 0, 0, 0, NULL, 0, NULL };
		used += rec->size;
		atomic_store(&o->done, true);
	}
	b->used = used;
}

/* ---- waiting and handing over ------------------------------------------------ */

/* Whether some stream of decoder d (merged: the out ring), not done, has
 * a free batch. */
static bool work_left(const struct ctf_pipe *p, size_t d)
{
	if (p->out)
		return !atomic_load(&p->out->done) && !atomic_load(&p->out->batches[p->out->fill].full);
	for (size_t i = 0; i < p->n; i++)
		if (p->rings[i].decoder == d && !atomic_load(&p->rings[i].done) &&
		    !atomic_load(&p->rings[i].batches[p->rings[i].fill].full))
			return true;
	return false;
}

static size_t free_batches(const struct ring *r)
{
	size_t n = 0;
	for (size_t k = 0; k < BATCHES; k++)
		n += !atomic_load(&r->batches[k].full);
	return n;
}

/* Whether decoder d, asleep, has enough to wake for: a stream (merged:
 * the out ring), not done, with WAKE_FREE free batches (the merge,
 * waiting for one, has them all). */
static bool worth_waking(const struct ctf_pipe *p, size_t d)
{
	if (p->out)
		return !atomic_load(&p->out->done) && free_batches(p->out) >= WAKE_FREE;
	for (size_t i = 0; i < p->n; i++)
		if (p->rings[i].decoder == d && !atomic_load(&p->rings[i].done) &&
		    free_batches(&p->rings[i]) >= WAKE_FREE)
			return true;
	return false;
}

/* Whether the merge, asleep on r, has enough to wake for: WAKE_FULL
 * batches, or r's last (under the lock). */
static bool worth_taking(const struct ring *r)
{
	return BATCHES - free_batches(r) >= WAKE_FULL ||
		(atomic_load(&r->done) && atomic_load(&r->batches[r->drain].full));
}

/* r's batch just filled goes to the merge (woken only when worth it: the
 * other decoders sleeping on the same condition are not woken either). */
static void hand_over_batch(struct ctf_pipe *p, struct ring *r)
{
	pthread_mutex_lock(&p->lock);
	atomic_store(&r->batches[r->fill].full, true);
	r->fill = (r->fill + 1) % BATCHES;
	if (r->merge_waits && worth_taking(r))
		pthread_cond_broadcast(&p->changed);
	pthread_mutex_unlock(&p->lock);
}

/* Until decoder d has a free batch to fill, or the walk stops. */
static void wait_for_work(struct ctf_pipe *p, size_t d)
{
	for (uint64_t spin = 0, until = 0; !atomic_load(&p->stop) && !work_left(p, d); spin++) {
		if (spin % 1024 == 0) { /* the clock read now and then */
			struct timespec now;
			clock_gettime(CLOCK_MONOTONIC, &now);
			uint64_t ns = (uint64_t)now.tv_sec * 1000000000 + (uint64_t)now.tv_nsec;
			if (!until)
				until = ns + DECODER_SPIN_NS;
			else if (ns >= until)
				break;
		}
	}
	pthread_mutex_lock(&p->lock); /* nothing to do after the spin: a sleep */
	while (!atomic_load(&p->stop) && !work_left(p, d) && !worth_waking(p, d))
		pthread_cond_wait(&p->changed, &p->lock);
	pthread_mutex_unlock(&p->lock);
}

static void *decode_streams(void *arg)
{
	struct decoder_thread *self = arg;
	struct ctf_pipe *p = self->p;
	atomic_store(&self->tid, (int)gettid());
	size_t d = self->index, left = 0;
	for (size_t i = 0; i < p->n; i++)
		left += p->rings[i].decoder == d;
	if (p->out) {
		left = 1;
		first_heads(p);
	}
	while (left) {
		wait_for_work(p, d);
		if (atomic_load(&p->stop))
			break;
		if (p->out) {
			fill_merged(p);
			left -= atomic_load(&p->out->done);
			hand_over_batch(p, p->out);
			continue;
		}
		for (size_t i = 0; i < p->n; i++) {
			struct ring *r = &p->rings[i];
			if (r->decoder != d || atomic_load(&r->done) || atomic_load(&r->batches[r->fill].full) ||
			    atomic_load(&p->stop))
				continue;
			fill(r);
			left -= atomic_load(&r->done);
			hand_over_batch(p, r);
		}
	}
	return NULL;
}

/* ---- one thread when the cores are taken ------------------------------------ */

static void join_decoders(struct ctf_pipe *p);

/* How long thread tid of this process waited for a core, runnable (ns,
 * /proc/PID/task/TID/schedstat's second field); 0 when unknown. */
static uint64_t run_delay(pid_t tid)
{
	char path[64], buf[128];
	unsigned long long ran, waited;
	snprintf(path, sizeof path, "/proc/self/task/%d/schedstat", (int)tid);
	if (!read_proc(path, buf, sizeof buf))
		return 0;
	return sscanf(buf, "%llu %llu", &ran, &waited) == 2 ? waited : 0;
}

static uint64_t threads_delay(struct ctf_pipe *p)
{
	uint64_t sum = run_delay(p->merge_tid);
	for (size_t d = 0; d < p->n_decoders; d++) {
		int tid = atomic_load(&p->decoders[d].tid);
		if (p->decoders[d].started && tid)
			sum += run_delay(tid);
	}
	return sum;
}

/* Every WATCH_NS, the time the walk's threads waited for a core: when
 * another process took one since the walk started, the merge's thread
 * decodes alone from then on (the decoders stop after their batch). */
static void watch_cores(struct ctf_pipe *p)
{
	uint64_t now = now_ns();
	if (p->watch_since && now - p->watch_since < WATCH_NS && p->contended_percent)
		return;
	uint64_t delay = threads_delay(p);
	bool contended = !p->contended_percent || (p->watch_since &&
		(delay - p->watch_delay) * 100 > (now - p->watch_since) * p->contended_percent);
	p->watch_since = now;
	p->watch_delay = delay;
	if (contended) {
		join_decoders(p);
		p->solo = true;
	}
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
			h->on_discarded(note.path, note.a, note.b, h->user);
		else if (note.kind == SKIPPED && h->on_skipped)
			h->on_skipped(note.path, note.a, h->user);
	}
}

/* r's next record (its notes handed out first), read from the batches the
 * decoding thread filled. */
static const struct record *take_record(struct ctf_pipe *p, struct ring *r)
{
	for (;;) {
		struct batch *b = &r->batches[r->drain];
		if (r->holding && r->at < b->used) {
			const struct record *rec = (const struct record *)(b->data + r->at);
			r->at += rec->size;
			if (rec->notes)
				hand_out_notes(r, rec->notes);
			return rec;
		}
		if (r->holding) { /* this batch is read: back to the decoder */
			pthread_mutex_lock(&p->lock);
			atomic_store(&b->full, false);
			r->drain = (r->drain + 1) % BATCHES;
			r->holding = false;
			if (free_batches(r) == WAKE_FREE) /* see worth_waking */
				pthread_cond_broadcast(&p->changed);
			pthread_mutex_unlock(&p->lock);
			b = &r->batches[r->drain];
			if (!p->solo)
				watch_cores(p);
		}
		if (p->solo && !atomic_load(&b->full)) { /* the decoders stopped: decoded here */
			if (p->out)
				fill_merged(p);
			else
				fill(r);
			hand_over_batch(p, r);
		}
		for (int spin = 0; spin < SPINS && !atomic_load(&b->full); spin++)
			;
		if (!atomic_load(&b->full)) {
			pthread_mutex_lock(&p->lock);
			r->merge_waits = true;
			while (!worth_taking(r))
				pthread_cond_wait(&p->changed, &p->lock);
			r->merge_waits = false;
			pthread_mutex_unlock(&p->lock);
		}
		r->holding = true;
		r->at = 0;
	}
}

int ctf_pipe_next(struct ctf_pipe *p, size_t i, const struct ctf_event **event)
{
	struct ring *r = &p->rings[i];
	const struct record *rec = take_record(p, r);
	if (rec->kind != EVENT)
		return rec->kind == END ? 0 : -1;
	r->event = (struct ctf_event){ rec->cls, rec->timestamp, r->s->path, rec->values,
		rec->values + rec->n_context, rec->n_context, rec->n_payload, rec->bytes };
	*event = &r->event;
	return 1;
}

bool ctf_pipe_merged(const struct ctf_pipe *p)
{
	return p->out != NULL;
}

int ctf_pipe_hand_over_merged(struct ctf_pipe *p, const struct ctf_meta *const *metas)
{
	const struct ctf_native_handlers *h = p->h;
	struct ring *r = p->out;
	for (;;) {
		const struct record *rec = take_record(p, r);
		if (rec->kind != EVENT)
			return rec->kind == END ? 0 : -1;
		const struct batch *b = &r->batches[r->drain];
		for (;;) {
			if (h->on_record(rec->values, rec->converted, rec->timestamp,
				metas[rec->stream], h->user) != 0) {
				snprintf(p->err, sizeof p->err, "stopped by the event handler");
				return -1;
			}
			/* the rest of the batch, without the checks between batches
			 * (take_record hands out notes, ends and failures) */
			if (r->at >= b->used)
				break;
			rec = (const struct record *)(b->data + r->at);
			if (rec->notes || rec->kind != EVENT)
				break;
			r->at += rec->size;
		}
	}
}

const char *ctf_pipe_error(const struct ctf_pipe *p)
{
	return p->err;
}

const struct ctf_stream *ctf_pipe_failed_stream(const struct ctf_pipe *p)
{
	return p->failed;
}

/* Stops the decoding threads started, and waits for them. */
static void join_decoders(struct ctf_pipe *p)
{
	pthread_mutex_lock(&p->lock);
	atomic_store(&p->stop, true);
	pthread_cond_broadcast(&p->changed);
	pthread_mutex_unlock(&p->lock);
	for (size_t d = 0; d < p->n_decoders; d++)
		if (p->decoders[d].started) {
			pthread_join(p->decoders[d].thread, NULL);
			p->decoders[d].started = false;
		}
}

static void free_rings(struct ctf_pipe *p)
{
	for (size_t i = 0; i <= p->n; i++) { /* the streams', then the out ring */
		struct ring *r = &p->rings[i];
		if (r->s)
			r->s->out = NULL;
		for (size_t k = 0; k < BATCHES; k++) {
			reset(&r->batches[k]);
			free(r->batches[k].data);
		}
		free(r->notes);
		free(r->scratch);
		free(r->next);
	}
	pthread_mutex_destroy(&p->lock);
	pthread_cond_destroy(&p->changed);
	free(p->heap);
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
	/* a ring per stream, and the out ring (a multiple of the alignment) */
	size_t bytes = (n + 1) * sizeof *p->rings;
	if (!p || !(p->rings = aligned_alloc(alignof(struct ring), bytes))) {
		free(p);
		return NULL;
	}
	memset(p->rings, 0, bytes);
	p->h = h;
	p->n = n;
	p->merge_tid = gettid();
	/* CARET_READER_CONTENDED=PERCENT: another bound (0: the tests' way to
	 * have the decoders stop after their first batches) */
	const char *contended = getenv("CARET_READER_CONTENDED");
	p->contended_percent = contended && *contended ? (unsigned)atoi(contended) :
		CONTENDED_PERCENT;
	p->largest = BUDGET_BYTES / BATCHES / n;
	p->largest = p->largest > LARGEST_BYTES ? LARGEST_BYTES :
		p->largest < SMALLEST_LARGEST ? SMALLEST_LARGEST : p->largest;
	pthread_mutex_init(&p->lock, NULL);
	pthread_cond_init(&p->changed, NULL);
	bool ok = true;
	if (h->convert) { /* merged in the decoding thread */
		p->out = &p->rings[n];
		p->out->p = p;
		ok &= (p->heap = malloc(n * sizeof *p->heap)) != NULL;
	}
	for (size_t i = 0; i <= n; i++) {
		if ((i == n) != (p->out != NULL))
			continue; /* the rings the merge reads have batches */
		for (size_t k = 0; k < BATCHES; k++) {
			struct batch *b = &p->rings[i].batches[k];
			ok &= (b->data = malloc(b->cap = FIRST_BYTES)) != NULL;
		}
	}
	for (size_t i = 0; i < n; i++) {
		struct ring *r = &p->rings[i];
		struct ctf_stream *s = streams[i];
		r->p = p;
		r->s = s;
		if (h->convert)
			ok &= (r->scratch = malloc(2 * CTF_MAX_VALUES * sizeof *r->scratch)) != NULL &&
				(r->next = malloc(CTF_RECORD_BYTES)) != NULL;
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
