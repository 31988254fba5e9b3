/*
 * stamps.c - a followed path's messages as the original's path columns:
 * the times along the path rebuilt from the first run's start and the
 * hops' durations (a node's time to its output is known once it made it,
 * whether or not the output got further, as the original shows it), each
 * inter-process publish's other stages (rcl, dds_write, source timestamp)
 * from the follower's own table of its topics' publishes: no record of
 * the trace is needed.
 */
#include <stdlib.h>

#include "api.h"
#include "followed.h"

/* One message's column `column` (caret_path_latency_stamps' layout): the
 * hops summed from its publish on the first topic, 0 where it did not get
 * there. */
static uint64_t stamp_of(const ca_path_latency *l, const ca_path_message *m,
	const int64_t *hops, size_t n_topics, size_t column)
{
	if (column == 0)
		return m->callback_start;
	if (column == 5 * n_topics + 1) /* the last run's end */
		return hops[2 * n_topics] != CA_HOP_NONE ? m->last_end : 0;
	/* topic k's publish: topic 0's, then hops 1 to 2k (each topic and the
	 * node after it); the next node's start: hop 2k + 1 too */
	size_t k = (column - 1) / 5, stage = (column - 1) % 5;
	uint64_t t = m->publish;
	for (size_t hop = 1; t && hop <= 2 * k + (stage == 4); hop++)
		t = hops[hop] != CA_HOP_NONE ? t + (uint64_t)hops[hop] : 0;
	if (!t || stage == 0 || stage == 4)
		return t;
	const struct ca_publish_stages *x = ca_path_latency_stages(l, k, t);
	return !x ? 0 : stage == 1 ? x->rcl : stage == 2 ? x->dds_write : x->source_stamp;
}

void caret_api_path_column(const ca_path_latency *l, size_t n_topics, size_t column,
	uint64_t *out)
{
	const ca_path_message *m;
	const int64_t *hops;
	size_t n = ca_path_latency_messages(l, &m, &hops), hop_count = ca_path_latency_hop_count(l);
	for (size_t i = 0; i < n; i++)
		out[i] = stamp_of(l, &m[i], &hops[i * hop_count], n_topics, column);
}

uint64_t *caret_api_path_stamps(const ca_path_latency *l, size_t n_topics, size_t *columns)
{
	const ca_path_message *m;
	size_t n = ca_path_latency_messages(l, &m, NULL), cols = 5 * n_topics + 2;
	uint64_t *out = calloc(n * cols + 1, sizeof *out), *column = malloc((n + 1) * sizeof *column);
	for (size_t c = 0; out && column && c < cols; c++) {
		caret_api_path_column(l, n_topics, c, column);
		for (size_t i = 0; i < n; i++)
			out[i * cols + c] = column[i];
	}
	free(column);
	if (!out)
		return NULL;
	*columns = cols;
	return out;
}
