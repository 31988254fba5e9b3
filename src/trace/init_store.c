/* init_store.c - see init_store.h. Initialization happens at start-up, not
 * on the runtime path, so a mutex and allocation are fine here. */
#include "init_store.h"

#include <pthread.h>
#include <stdint.h>
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

/* Address -> the newest record that holds it: a repeat of a record is one
 * only while no later record named its addresses (else an object died and
 * another was made at the same address, with the same links). */
struct newest_slot {
	uint64_t address;
	uint32_t record; /* + 1, 0 free */
};
static struct newest_slot *newest;
static size_t newest_size, newest_count; /* power of two; used slots */

static struct ct_record *at(size_t i)
{
	return &chunks[i / CHUNK][i % CHUNK];
}

static uint64_t mix(uint64_t h, uint64_t x)
{
	return (h ^ x) * 0x100000001b3ull;
}

/* Fields whose value is pointed to (a string, a GID's bytes): copied into
 * the store, compared and hashed by content. A NULL one reads as empty (a
 * GID of zeros). */
static const char zeros[CS_GID_LENGTH];

static bool is_pointed(enum cs_type type)
{
	return type == CS_TYPE_STR || cs_gid_length(type);
}

static const char *pointed(enum cs_type type, const char *s)
{
	return s ? s : type == CS_TYPE_STR ? "" : zeros;
}

static size_t pointed_size(enum cs_type type, const char *s)
{
	return type == CS_TYPE_STR ? strlen(s) + 1 : cs_gid_length(type);
}

static uint64_t hash(const struct ct_record *r)
{
	const struct cs_event *ev = &cs_events[r->id];
	uint64_t h = mix(0xcbf29ce484222325ull, (uint64_t)r->id);

	/* init_timestamp (last) is not part of identity: a repeat is a repeat. */
	for (size_t i = 0; i + 1 < ev->field_count; i++) {
		if (is_pointed(ev->fields[i].type)) {
			const char *p = pointed(ev->fields[i].type, r->v[i].s);
			for (size_t k = 0, n = pointed_size(ev->fields[i].type, p); k < n; k++)
				h = mix(h, (unsigned char)p[k]);
		} else {
			h = mix(h, r->v[i].u);
		}
	}
	return h;
}

static bool same(const struct ct_record *a, const struct ct_record *b)
{
	const struct cs_event *ev = &cs_events[a->id];

	if (a->id != b->id)
		return false;
	for (size_t i = 0; i + 1 < ev->field_count; i++) {
		enum cs_type type = ev->fields[i].type;
		if (is_pointed(type)) {
			const char *pa = pointed(type, a->v[i].s), *pb = pointed(type, b->v[i].s);
			size_t na = pointed_size(type, pa);
			if (na != pointed_size(type, pb) || memcmp(pa, pb, na))
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

/* The index of the newest stored record equal to r, or SIZE_MAX. */
static size_t find(const struct ct_record *r, uint64_t h)
{
	size_t found = SIZE_MAX;
	for (size_t i = h & (index_size - 1); index_size && index_of[i]; i = (i + 1) & (index_size - 1))
		if (same(at(index_of[i] - 1), r) && (found == SIZE_MAX || index_of[i] - 1 > found))
			found = index_of[i] - 1;
	return found;
}

static struct newest_slot *newest_slot(uint64_t address)
{
	size_t i = mix(0xcbf29ce484222325ull, address) & (newest_size - 1);
	while (newest[i].record && newest[i].address != address)
		i = (i + 1) & (newest_size - 1);
	return &newest[i];
}

static bool grow_newest(void)
{
	size_t size = newest_size ? 2 * newest_size : 4096, old_size = newest_size;
	struct newest_slot *old = newest;
	newest = calloc(size, sizeof *newest);
	if (!newest) {
		newest = old;
		return false;
	}
	newest_size = size;
	for (size_t i = 0; i < old_size; i++)
		if (old[i].record)
			*newest_slot(old[i].address) = old[i];
	free(old);
	bytes += (size - old_size) * sizeof *newest;
	return true;
}

/* Record i is now the newest to hold each of its addresses. */
static bool note_addresses(size_t i)
{
	const struct ct_record *r = at(i);
	const struct cs_event *ev = &cs_events[r->id];
	for (size_t f = 0; f < ev->field_count; f++) {
		if (ev->fields[f].type != CS_TYPE_HEX64 || !r->v[f].u)
			continue;
		if ((newest_count + 1) * 2 > newest_size && !grow_newest())
			return false;
		struct newest_slot *slot = newest_slot(r->v[f].u);
		newest_count += !slot->record;
		*slot = (struct newest_slot){ r->v[f].u, (uint32_t)i + 1 };
	}
	return true;
}

/* A record after record j named one of r's addresses. */
static bool named_since(const struct ct_record *r, size_t j)
{
	const struct cs_event *ev = &cs_events[r->id];
	for (size_t f = 0; f < ev->field_count && newest_size; f++)
		if (ev->fields[f].type == CS_TYPE_HEX64 && r->v[f].u &&
		    newest_slot(r->v[f].u)->record > j + 1)
			return true;
	return false;
}

/* Copies r's strings; false when out of memory. */
static bool copy_into(struct ct_record *dst, const struct ct_record *r)
{
	const struct cs_event *ev = &cs_events[r->id];

	*dst = *r;
	for (size_t i = 0; i < ev->field_count; i++) {
		if (!is_pointed(ev->fields[i].type))
			continue;
		const char *s = pointed(ev->fields[i].type, r->v[i].s);
		size_t n = pointed_size(ev->fields[i].type, s);
		char *copy = malloc(n);
		if (!copy) {
			for (size_t j = 0; j < i; j++)
				if (is_pointed(ev->fields[j].type))
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
	size_t same_as = find(r, h);
	if (same_as != SIZE_MAX && !named_since(r, same_as))
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
	if (!note_addresses(count - 1))
		ct_debug("out of memory: a repeat may be stored twice");
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
			if (is_pointed(ev->fields[j].type))
				free((char *)at(i)->v[j].s);
	}
	for (size_t i = 0; i < n_chunks; i++)
		free(chunks[i]);
	free(chunks);
	free(index_of);
	free(newest);
	chunks = NULL;
	index_of = NULL;
	newest = NULL;
	n_chunks = count = bytes = index_size = newest_size = newest_count = 0;
	pthread_mutex_unlock(&lock);
}

/* A fork while another thread holds the lock must not leave it held. */
static void before_fork(void) { pthread_mutex_lock(&lock); }
static void after_fork(void) { pthread_mutex_unlock(&lock); }

__attribute__((constructor)) static void register_fork_handlers(void)
{
	pthread_atfork(before_fork, after_fork, after_fork);
}
