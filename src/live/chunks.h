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

struct live_chunks {
	struct live_chunk *items;
	size_t n, cap;
	bool keep;       /* never delete a chunk (the trace is the user's) */
};

/* Adds a chunk (dir copied); false out of memory. */
bool live_chunks_add(struct live_chunks *c, const char *dir, uint64_t until, bool has_init);
/* The dirs to read for a look back to `since` (trace clock), into paths
 * (room for c->n); how many. */
size_t live_chunks_to_read(const struct live_chunks *c, uint64_t since, const char **paths);
/* Deletes (unless keep) and forgets the chunks without initialization
 * events that ended before `before`. */
void live_chunks_prune(struct live_chunks *c, uint64_t before);
void live_chunks_free(struct live_chunks *c);
/* Deletes a directory and everything under it (symlinks not followed). */
void live_remove_tree(const char *dir);

#endif
