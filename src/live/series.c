/* series.c - see series.h. */
#include "series.h"

#include "ca.h"

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
	if (!s->histogram.n_bounds)
		live_histogram_init(&s->histogram, s->limit_ns);
	live_histogram_add(&s->histogram, value);
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
	/* selections, not a sort: the window can hold 100,000 samples a callback */
	ca_stats st;
	ca_stats_select(v, n, CA_PERCENTILE_LINEAR, &st);
	out->p50 = st.p50;
	out->p99 = st.p99;
	out->max = st.max;
	free(v);
	return true;
}

void live_series_free(struct live_series *s)
{
	free(s->name);
	free(s->node);
	free(s->host);
	free(s->at);
	free(s->value);
	live_counted_free(&s->counted);
	memset(s, 0, sizeof *s);
}

struct live_series *live_series_named(struct live_series_list *l, size_t hint,
	const char *name, int64_t limit_ns)
{
	if (hint < l->n && !strcmp(l->items[hint].name, name))
		return &l->items[hint];
	for (size_t i = 0; i < l->n; i++)
		if (!strcmp(l->items[i].name, name))
			return &l->items[i];
	if (l->n == l->cap) {
		size_t cap = l->cap ? 2 * l->cap : 64;
		struct live_series *grown = realloc(l->items, cap * sizeof *grown);
		if (!grown)
			return NULL;
		l->items = grown;
		l->cap = cap;
	}
	struct live_series *s = &l->items[l->n];
	memset(s, 0, sizeof *s);
	if (!(s->name = strdup(name)))
		return NULL;
	s->limit_ns = limit_ns;
	l->n++;
	return s;
}

bool live_series_label_callback(struct live_series *s, const ca_architecture *a,
	size_t callback, bool with_host)
{
	const ca_callback *cb = &a->callbacks[callback];
	if (s->node || cb->node == CA_NONE)
		return true;
	if (!(s->node = strdup(a->nodes[cb->node].fqn ? a->nodes[cb->node].fqn : "")))
		return false;
	for (size_t i = 0; with_host && i < a->n_processes; i++)
		if (a->processes[i].pid == cb->pid && a->processes[i].host)
			return (s->host = strdup(a->processes[i].host)) != NULL;
	return true;
}

void live_series_list_expire(struct live_series_list *l, uint64_t before)
{
	for (size_t i = 0; i < l->n; i++)
		live_series_expire(&l->items[i], before);
}

void live_series_list_forget(struct live_series_list *l, uint64_t floor)
{
	for (size_t i = 0; i < l->n; i++)
		live_counted_forget(&l->items[i].counted, floor);
}

void live_series_list_free(struct live_series_list *l)
{
	for (size_t i = 0; i < l->n; i++)
		live_series_free(&l->items[i]);
	free(l->items);
	memset(l, 0, sizeof *l);
}
