/* chunks.c - see chunks.h. */
#define _GNU_SOURCE
#include "chunks.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "trace_dir.h"

bool live_chunks_add(struct live_chunks *c, const char *dir, uint64_t until, bool has_init)
{
	if (c->n == c->cap) {
		size_t cap = c->cap ? 2 * c->cap : 16;
		struct live_chunk *grown = realloc(c->items, cap * sizeof *grown);
		if (!grown)
			return false;
		c->items = grown;
		c->cap = cap;
	}
	char *copy = strdup(dir);
	if (!copy)
		return false;
	c->items[c->n++] = (struct live_chunk){ copy, until, has_init };
	return true;
}

size_t live_chunks_to_read(const struct live_chunks *c, uint64_t since, const char **paths)
{
	size_t n = 0;
	for (size_t i = 0; i < c->n; i++) {
		/* chunk i holds the events after chunk i - 1's until */
		if (c->items[i].has_init || c->items[i].until >= since)
			paths[n++] = c->items[i].dir;
	}
	return n;
}

void live_chunks_looked(struct live_chunks *c, uint64_t last_event, uint64_t counted_until)
{
	/* full: this look's takes the newest's place (later, with more chunks:
	 * they are counted later, never too early); the oldest, counted
	 * next, stay */
	if (c->n_marks == LIVE_MAX_MARKS)
		c->n_marks--;
	c->marks[c->n_marks++] = (struct live_chunk_mark){ c->n, last_event };
	size_t kept = 0;
	for (size_t k = 0; k < c->n_marks; k++) {
		if (c->marks[k].last > counted_until)
			c->marks[kept++] = c->marks[k];
		else if (c->marks[k].chunks > c->counted)
			c->counted = c->marks[k].chunks;
	}
	c->n_marks = kept;
}

size_t live_chunks_uncounted(const struct live_chunks *c, size_t keep, const char **paths)
{
	size_t n = 0, from = c->counted > keep ? c->counted - keep : 0;
	for (size_t i = 0; i < c->n; i++)
		if (c->items[i].has_init || i >= from)
			paths[n++] = c->items[i].dir;
	return n;
}

void live_chunks_prune(struct live_chunks *c, uint64_t before)
{
	size_t kept = 0;
	for (size_t i = 0; i < c->n; i++) {
		struct live_chunk *k = &c->items[i];
		if (k->until < before && !k->has_init) {
			if (!c->keep)
				cr_remove_tree(k->dir);
			free(k->dir);
			continue;
		}
		c->items[kept++] = *k;
	}
	c->n = kept;
}

void live_chunks_free(struct live_chunks *c)
{
	for (size_t i = 0; i < c->n; i++)
		free(c->items[i].dir);
	free(c->items);
	memset(c, 0, sizeof *c);
}
