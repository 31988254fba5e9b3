/* counted.c - see counted.h. */
#include "counted.h"

#include <stdlib.h>
#include <string.h>

/* The first entry that ended at or after `end`. */
static size_t first_at(const struct live_counted *c, uint64_t end)
{
	size_t lo = 0, hi = c->n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (c->end[mid] < end)
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
	for (size_t i = first_at(c, end); i < c->n && c->end[i] == end; i++)
		if (c->start[i] == start)
			return false;
	return true;
}

bool live_counted_add(struct live_counted *c, uint64_t end, uint64_t start)
{
	if (c->n == c->cap) {
		size_t cap = c->cap ? 2 * c->cap : 256;
		uint64_t *e = realloc(c->end, cap * sizeof *e);
		if (e)
			c->end = e;
		uint64_t *s = e ? realloc(c->start, cap * sizeof *s) : NULL;
		if (!s)
			return false;
		c->start = s;
		c->cap = cap;
	}
	/* they come in about the order they ended: mostly appended */
	size_t i = c->n;
	while (i > 0 && c->end[i - 1] > end) {
		c->end[i] = c->end[i - 1];
		c->start[i] = c->start[i - 1];
		i--;
	}
	c->end[i] = end;
	c->start[i] = start;
	c->n++;
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
	memmove(c->end, c->end + gone, (c->n - gone) * sizeof *c->end);
	memmove(c->start, c->start + gone, (c->n - gone) * sizeof *c->start);
	c->n -= gone;
}

void live_counted_free(struct live_counted *c)
{
	free(c->end);
	free(c->start);
	memset(c, 0, sizeof *c);
}
