/*
 * chunks.h - the archived chunks of a live session: which to read for the
 * next look (those holding initialization events, always; the others while
 * they are within the lookback), and which can go.
 */
#ifndef CL_CHUNKS_H
#define CL_CHUNKS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct live_chunk {
	char *dir;
	uint64_t until;  /* every event of it is before this (trace clock) */
	bool has_init;   /* holds initialization events: read every time */
};

#define LIVE_MAX_MARKS 16

/* What a look had of the chunks of a host it read whole (caret live --watch). */
struct live_chunk_mark {
	size_t chunks;   /* the chunks then */
	uint64_t last;   /* the last event in them (the look's clock; 0: none) */
};

struct live_chunks {
	struct live_chunk *items;
	size_t n, cap;
	bool keep;       /* never delete a chunk (the trace is the user's) */
	/* --watch: items [0, counted) hold no event after what the looks have
	 * counted; the marks of the looks since, whose last events are not */
	size_t counted;
	struct live_chunk_mark marks[LIVE_MAX_MARKS];
	size_t n_marks;
};

/* Adds a chunk (dir copied); false out of memory. */
bool live_chunks_add(struct live_chunks *c, const char *dir, uint64_t until, bool has_init);
/* The dirs to read for a look back to `since` (trace clock), into paths
 * (room for c->n); how many. */
size_t live_chunks_to_read(const struct live_chunks *c, uint64_t since, const char **paths);
/* --watch: a look counted every instance up to counted_until, having read
 * all of these chunks, the last event in them at last_event: the chunks
 * of the looks whose last event is counted are counted whole. */
void live_chunks_looked(struct live_chunks *c, uint64_t last_event, uint64_t counted_until);
/* --watch: the dirs of the chunks with initialization events and those
 * from `keep` chunks before the first not counted whole on, into paths
 * (room for c->n); how many. A host ahead of the one the looks wait for
 * has its chunks past what they counted read, however far ahead. */
size_t live_chunks_uncounted(const struct live_chunks *c, size_t keep, const char **paths);
/* Deletes (unless keep) and forgets the chunks without initialization
 * events that ended before `before`. */
void live_chunks_prune(struct live_chunks *c, uint64_t before);
void live_chunks_free(struct live_chunks *c);

#endif
