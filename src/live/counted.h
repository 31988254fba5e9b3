/*
 * counted.h - the path instances a watch has counted lately, by (end,
 * start): an instance a look sees only after the look that passed its end
 * (a merged run is told at its end, in the chunk after the one its start
 * is in) is counted then, once.
 */
#ifndef CL_COUNTED_H
#define CL_COUNTED_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct live_counted_sample {
	uint64_t end, start;
};

struct live_counted {
	struct live_counted_sample *items; /* by end */
	size_t n, cap;
	/* the instances that ended at or before it are not remembered: not
	 * counted again, however they come */
	uint64_t floor;
};

/* Whether (end, start) may be counted now: it ended after the floor and is
 * not among those counted. */
bool live_counted_new(const struct live_counted *c, uint64_t end, uint64_t start);
/* Remembers (end, start); false out of memory. */
bool live_counted_add(struct live_counted *c, uint64_t end, uint64_t start);
/* Forgets the instances that ended at or before `floor` (raising it). */
void live_counted_forget(struct live_counted *c, uint64_t floor);
void live_counted_free(struct live_counted *c);

#endif
