/* series.c - see series.h. */
#include "series.h"

#include <stdlib.h>
#include <string.h>

bool live_series_add(struct live_series *s, uint64_t at, int64_t value)
{
	if (s->n == s->cap) {
		if (s->first > s->cap / 2) { /* room at the front: slide back */
			memmove(s->at, s->at + s->first, (s->n - s->first) * sizeof *s->at);
			memmove(s->value, s->value + s->first, (s->n - s->first) * sizeof *s->value);
			s->n -= s->first;
			s->first = 0;
		} else {
			size_t cap = s->cap ? 2 * s->cap : 256;
			uint64_t *a = realloc(s->at, cap * sizeof *a);
			if (a)
				s->at = a;
			int64_t *v = a ? realloc(s->value, cap * sizeof *v) : NULL;
			if (!v)
				return false;
			s->value = v;
			s->cap = cap;
		}
	}
	s->at[s->n] = at;
	s->value[s->n++] = value;
	s->total++;
	s->total_misses += s->limit_ns > 0 && value > s->limit_ns;
	return true;
}

void live_series_expire(struct live_series *s, uint64_t before)
{
	while (s->first < s->n && s->at[s->first] < before)
		s->first++;
	if (s->first == s->n)
		s->first = s->n = 0;
}

static int by_value(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
	return (x > y) - (x < y);
}

/* nearest rank: the smallest value with at least p % at or below it */
static int64_t rank(const int64_t *sorted, size_t n, double p)
{
	size_t k = (size_t)((double)n * p / 100.0 + 0.999999999);
	return sorted[k ? k - 1 : 0];
}

bool live_series_stats(const struct live_series *s, struct live_window_stats *out)
{
	size_t n = s->n - s->first;
	memset(out, 0, sizeof *out);
	out->count = n;
	if (!n)
		return true;
	int64_t *v = malloc(n * sizeof *v);
	if (!v)
		return false;
	memcpy(v, s->value + s->first, n * sizeof *v);
	for (size_t i = 0; i < n; i++)
		out->misses += s->limit_ns > 0 && v[i] > s->limit_ns;
	qsort(v, n, sizeof *v, by_value);
	out->p50 = rank(v, n, 50);
	out->p99 = rank(v, n, 99);
	out->max = v[n - 1];
	free(v);
	return true;
}

void live_series_free(struct live_series *s)
{
	free(s->name);
	free(s->at);
	free(s->value);
	memset(s, 0, sizeof *s);
}
