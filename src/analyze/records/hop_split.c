/*
 * hop_split.c - a followed path's topic hops split where each message
 * waited (ca_records_message_hops), for what shows a path: a topic hop of
 * a followed message is found among the joined records' communications by
 * its publish time and its subscriber's callback start, the two ends the
 * follower measured it between.
 */
#include <stdlib.h>

#include "records.h"
#include "sort_r.h"

struct ca_hop_splitter {
	const ca_records *r;
	size_t *by_publish; /* communications with a publish, by publish time */
	size_t n;
};

static uint64_t publish_time(const ca_records *r, size_t communication)
{
	return ca_publish_time(&r->publishes[r->communications[communication].publish]);
}

static int by_publish_time(const void *a, const void *b, void *ctx)
{
	uint64_t x = publish_time(ctx, *(const size_t *)a), y = publish_time(ctx, *(const size_t *)b);
	return (x > y) - (x < y);
}

ca_hop_splitter *ca_hop_splitter_new(const ca_records *r)
{
	if (!r || !r->dds_hops)
		return NULL;
	ca_hop_splitter *s = calloc(1, sizeof *s);
	if (!s || !(s->by_publish = malloc((r->n_communications + 1) * sizeof *s->by_publish))) {
		free(s);
		return NULL;
	}
	s->r = r;
	for (size_t i = 0; i < r->n_communications; i++)
		if (r->dds_hops[i] != INT64_MIN)
			s->by_publish[s->n++] = i;
	caret_sort_r(s->by_publish, s->n, sizeof *s->by_publish, by_publish_time, (void *)r);
	return s;
}

void ca_hop_splitter_free(ca_hop_splitter *s)
{
	if (s)
		free(s->by_publish);
	free(s);
}

/* The split communication published at `publish` whose run started at
 * `start`, or CA_NONE. */
static size_t communication_at(const ca_hop_splitter *s, uint64_t publish, uint64_t start)
{
	size_t lo = 0, hi = s->n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (publish_time(s->r, s->by_publish[mid]) < publish)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (; lo < s->n && publish_time(s->r, s->by_publish[lo]) == publish; lo++) {
		const ca_communication *c = &s->r->communications[s->by_publish[lo]];
		if (s->r->runs[c->callback_instance].start == start)
			return s->by_publish[lo];
	}
	return CA_NONE;
}

bool ca_path_hop_split(const ca_hop_splitter *s, const ca_path_latency *l, size_t message,
	size_t hop, ca_message_hops *out)
{
	const ca_path_message *m;
	const int64_t *hops;
	size_t n = ca_path_latency_messages(l, &m, &hops), hop_count = ca_path_latency_hop_count(l);
	if (!s || message >= n || hop % 2 == 0 || hop >= hop_count || !m[message].publish)
		return false;
	hops += message * hop_count;
	uint64_t publish = m[message].publish;
	for (size_t h = 1; h < hop; h++) {
		if (hops[h] == CA_HOP_NONE)
			return false;
		publish += (uint64_t)hops[h];
	}
	if (hops[hop] == CA_HOP_NONE)
		return false;
	size_t c = communication_at(s, publish, publish + (uint64_t)hops[hop]);
	return c != CA_NONE && ca_records_message_hops(s->r, c, out);
}
