/*
 * followed.c - a path's messages once followed (followed.h): made by either
 * follower, read by the verbs, the report and the response times.
 */
#include "followed.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>

ca_path_latency *ca_path_latency_of(ca_path_message *messages, int64_t *hops, size_t n,
	size_t hop_count)
{
	ca_path_latency *l = calloc(1, sizeof *l);
	if (l)
		*l = (ca_path_latency){ .hop_count = hop_count, .messages = messages, .n_messages = n,
			.cap_messages = n, .hops = hops,
			.responses = calloc(1, sizeof(struct ca_response_cache)) };
	return l;
}

size_t ca_path_latency_messages(const ca_path_latency *l, const ca_path_message **messages,
	const int64_t **hops)
{
	*messages = l ? l->messages : NULL;
	if (hops)
		*hops = l ? l->hops : NULL;
	return l ? l->n_messages : 0;
}

size_t ca_path_latency_hop_count(const ca_path_latency *l)
{
	return l ? l->hop_count : 0;
}

bool ca_path_message_span(const ca_path_message *m, ca_path_span span, uint64_t *start,
	uint64_t *end)
{
	*start = span.first_callback ? m->callback_start : m->publish;
	*end = span.last_callback ? m->last_end : m->last_start;
	return *end != 0;
}

bool ca_path_hop_in_span(size_t hop, size_t hop_count, ca_path_span span)
{
	if (hop == 0)
		return span.first_callback;
	return hop + 1 < hop_count || span.last_callback;
}

void ca_path_hop_name(const ca_path *p, size_t hop, char *buf, size_t size)
{
	size_t k = p->node_count - 1;
	if (hop == 0)
		snprintf(buf, size, "callback %s", p->nodes[0]);
	else if (hop == 2 * k)
		snprintf(buf, size, "callback %s", p->nodes[k]);
	else if (hop % 2)
		snprintf(buf, size, "topic %s", p->topics[hop / 2]);
	else
		snprintf(buf, size, "node %s", p->nodes[hop / 2]);
}

size_t ca_path_latencies(const ca_path_latency *l, ca_path_span span, uint64_t *starts,
	int64_t *latencies)
{
	size_t k = 0;
	uint64_t start, end;
	for (size_t i = 0; l && i < l->n_messages; i++)
		if (ca_path_message_span(&l->messages[i], span, &start, &end)) {
			if (starts)
				starts[k] = start;
			latencies[k++] = (int64_t)(end - start);
		}
	return k;
}

uint64_t ca_path_latency_lost(const ca_path_latency *l, ca_path_span span)
{
	uint64_t lost = 0, start, end;
	for (size_t i = 0; l && i < l->n_messages; i++)
		lost += !ca_path_message_span(&l->messages[i], span, &start, &end);
	return lost;
}

void ca_path_latency_free(ca_path_latency *l)
{
	if (!l)
		return;
	free(l->messages);
	free(l->hops);
	free(l->stages);
	free(l->topics_seen);
	if (l->responses)
		free(l->responses->pairs);
	free(l->responses);
	free(l);
}

const struct ca_publish_stages *ca_path_latency_stages(const ca_path_latency *l, size_t topic,
	uint64_t time)
{
	size_t lo = 0, hi = l ? l->n_stages : 0;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		const struct ca_publish_stages *x = &l->stages[mid];
		if (x->topic < topic || (x->topic == topic && x->time < time))
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < (l ? l->n_stages : 0) && l->stages[lo].topic == topic &&
		l->stages[lo].time == time ? &l->stages[lo] : NULL;
}

uint64_t ca_path_latency_held_since(const ca_path_latency *l)
{
	return l ? l->held_since : 0;
}

ca_path_topic_seen ca_path_latency_topic(const ca_path_latency *l, size_t topic)
{
	return l && l->topics_seen ? l->topics_seen[topic] : (ca_path_topic_seen){ false, false };
}

struct ca_response_cache *ca_path_latency_responses(const ca_path_latency *l)
{
	return l ? l->responses : NULL;
}
