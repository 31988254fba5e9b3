/* counted.c - see counted.h. */
#include "counted.h"

#include <stdlib.h>
#include <string.h>

#include "vec.h"

/* The first sample that ended at or after `end`. */
static size_t first_at(const struct live_counted *c, uint64_t end)
{
	size_t lo = 0, hi = c->n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (c->items[mid].end < end)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

bool live_counted_new(const struct live_counted *c, uint64_t end, uint64_t start)
{
	if (end <= c->floor)
		return false;
	for (size_t i = first_at(c, end); i < c->n && c->items[i].end == end; i++)
		if (c->items[i].start == start)
			return false;
	return true;
}

bool live_counted_add(struct live_counted *c, uint64_t end, uint64_t start)
{
	if (!VEC_ROOM(c->items, c->n, c->cap))
		return false;
	/* they come in about the order they ended: mostly appended */
	size_t i = c->n++;
	for (; i > 0 && c->items[i - 1].end > end; i--)
		c->items[i] = c->items[i - 1];
	c->items[i] = (struct live_counted_sample){ end, start };
	return true;
}

void live_counted_forget(struct live_counted *c, uint64_t floor)
{
	if (floor <= c->floor)
		return;
	c->floor = floor;
	size_t gone = first_at(c, floor + 1);
	if (!gone)
		return;
	memmove(c->items, c->items + gone, (c->n - gone) * sizeof *c->items);
	c->n -= gone;
}

void live_counted_free(struct live_counted *c)
{
	free(c->items);
	memset(c, 0, sizeof *c);
}
