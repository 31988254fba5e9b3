/* init_store.c - see init_store.h. Initialization happens at start-up, not
 * on the runtime path, so a mutex and allocation are fine here. */
#include "init_store.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "ros2_caret_tp.h"
#include "ros2_caret_emit.h"

#define CHUNK 1024 /* records per chunk: stored records never move */

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static struct ct_record **chunks;
static size_t n_chunks, count, bytes;
static uint32_t *index_of;   /* open addressing: record index + 1, 0 free */
static size_t index_size;    /* power of two */

static struct ct_record *at(size_t i)
{
	return &chunks[i / CHUNK][i % CHUNK];
}

static uint64_t mix(uint64_t h, uint64_t x)
{
	return (h ^ x) * 0x100000001b3ull;
}

static uint64_t hash(const struct ct_record *r)
{
	const struct cs_event *ev = &cs_events[r->id];
	uint64_t h = mix(0xcbf29ce484222325ull, (uint64_t)r->id);

	/* init_timestamp (last) is not part of identity: a repeat is a repeat. */
	for (size_t i = 0; i + 1 < ev->field_count; i++) {
		if (ev->fields[i].type == CS_TYPE_STR)
			for (const char *p = r->v[i].s ? r->v[i].s : ""; *p; p++)
				h = mix(h, (unsigned char)*p);
		else
			h = mix(h, r->v[i].u);
	}
	return h;
}

static bool same(const struct ct_record *a, const struct ct_record *b)
{
	const struct cs_event *ev = &cs_events[a->id];

	if (a->id != b->id)
		return false;
	for (size_t i = 0; i + 1 < ev->field_count; i++) {
		if (ev->fields[i].type == CS_TYPE_STR) {
			if (strcmp(a->v[i].s ? a->v[i].s : "", b->v[i].s ? b->v[i].s : ""))
				return false;
		} else if (a->v[i].u != b->v[i].u) {
			return false;
		}
	}
	return true;
}

static bool index_insert(size_t record, uint64_t h)
{
	for (size_t i = h & (index_size - 1);; i = (i + 1) & (index_size - 1))
		if (!index_of[i]) {
			index_of[i] = (uint32_t)record + 1;
			return true;
		}
}

static bool grow_index(void)
{
	size_t size = index_size ? 2 * index_size : 4096;
	uint32_t *old = index_of;
	size_t old_size = index_size;

	index_of = calloc(size, sizeof *index_of);
	if (!index_of) {
		index_of = old;
		return false;
	}
	index_size = size;
	for (size_t i = 0; i < old_size; i++)
		if (old[i])
			index_insert(old[i] - 1, hash(at(old[i] - 1)));
	free(old);
	bytes += size * sizeof *index_of - old_size * sizeof *index_of;
	return true;
}

/* The stored record equal to r, or NULL. */
static const struct ct_record *find(const struct ct_record *r, uint64_t h)
{
	if (!index_size)
		return NULL;
	for (size_t i = h & (index_size - 1); index_of[i]; i = (i + 1) & (index_size - 1))
		if (same(at(index_of[i] - 1), r))
			return at(index_of[i] - 1);
	return NULL;
}

/* Copies r's strings; false when out of memory. */
static bool copy_into(struct ct_record *dst, const struct ct_record *r)
{
	const struct cs_event *ev = &cs_events[r->id];

	*dst = *r;
	for (size_t i = 0; i < ev->field_count; i++) {
		if (ev->fields[i].type != CS_TYPE_STR)
			continue;
		const char *s = r->v[i].s ? r->v[i].s : "";
		size_t n = strlen(s) + 1;
		char *copy = malloc(n);
		if (!copy) {
			for (size_t j = 0; j < i; j++)
				if (ev->fields[j].type == CS_TYPE_STR)
					free((char *)dst->v[j].s);
			return false;
		}
		memcpy(copy, s, n);
		dst->v[i].s = copy;
		bytes += n;
	}
	return true;
}

bool ct_store_add(const struct ct_record *r)
{
	uint64_t h = hash(r);
	bool added = false, emit = false;

	pthread_mutex_lock(&lock);
	if (find(r, h))
		goto out;
	if ((count + 1) * 2 > index_size && !grow_index())
		goto out;
	if (count == n_chunks * CHUNK) {
		struct ct_record **c = realloc(chunks, (n_chunks + 1) * sizeof *c);
		if (!c)
			goto out;
		chunks = c;
		chunks[n_chunks] = malloc(CHUNK * sizeof **chunks);
		if (!chunks[n_chunks])
			goto out;
		n_chunks++;
		bytes += CHUNK * sizeof **chunks + sizeof *c;
	}
	if (!copy_into(at(count), r))
		goto out;
	index_insert(count, h);
	count++;
	added = true;
	/* Decided under the lock: a replay's end (which switches to RECORD
	 * under it too) either covers this record or comes before it. */
	emit = ct_recording();
out:
	pthread_mutex_unlock(&lock);
	/* Emitted outside the lock: LTTng takes its own locks, and a fork
	 * takes them before ours. */
	if (emit)
		ct_emit_record(r);
	return added;
}

bool ct_store_replay_next(struct ct_replay *replay)
{
	const struct ct_record *r = NULL;

	pthread_mutex_lock(&lock);
	if (replay->next < count)
		r = at(replay->next++);
	pthread_mutex_unlock(&lock);
	/* A stored record never changes or moves (until a test's reset). */
	if (r)
		ct_emit_record(r);
	return r != NULL;
}

bool ct_store_finish_replay(struct ct_replay *replay)
{
	bool done;

	pthread_mutex_lock(&lock);
	done = replay->next >= count;
	if (done)
		atomic_store(&ct_state, CT_STATE_RECORD);
	pthread_mutex_unlock(&lock);
	return done;
}

size_t ct_store_count(void)
{
	pthread_mutex_lock(&lock);
	size_t n = count;
	pthread_mutex_unlock(&lock);
	return n;
}

size_t ct_store_bytes(void)
{
	pthread_mutex_lock(&lock);
	size_t n = bytes;
	pthread_mutex_unlock(&lock);
	return n;
}

void ct_store_reset(void)
{
	pthread_mutex_lock(&lock);
	for (size_t i = 0; i < count; i++) {
		const struct cs_event *ev = &cs_events[at(i)->id];
		for (size_t j = 0; j < ev->field_count; j++)
			if (ev->fields[j].type == CS_TYPE_STR)
				free((char *)at(i)->v[j].s);
	}
	for (size_t i = 0; i < n_chunks; i++)
		free(chunks[i]);
	free(chunks);
	free(index_of);
	chunks = NULL;
	index_of = NULL;
	n_chunks = count = bytes = index_size = 0;
	pthread_mutex_unlock(&lock);
}

/* A fork while another thread holds the lock must not leave it held. */
static void before_fork(void) { pthread_mutex_lock(&lock); }
static void after_fork(void) { pthread_mutex_unlock(&lock); }

__attribute__((constructor)) static void register_fork_handlers(void)
{
	pthread_atfork(before_fork, after_fork, after_fork);
}
