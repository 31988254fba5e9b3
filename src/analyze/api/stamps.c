/*
 * stamps.c - a followed path's messages as the original's path columns:
 * the times along the path rebuilt from the first run's start and the
 * hops' durations, each publish's other stages (rcl, dds_write, source
 * timestamp) looked up among the records' publishes of that node and
 * topic by its time. The follower records a callback chain node's time to
 * its output when the output arrives; the original shows the output of a
 * message lost after it, found here in the run that took it. (A latest
 * message node's time to its output is recorded at the output.)
 */
#include <stdlib.h>
#include <string.h>

#include "api.h"

/* The publishes of node `node` on `topic`, in time order (the records'
 * order); *n of them, NULL out of memory. */
static size_t *publishes_of(const ca_architecture *a, const ca_records *r, const char *node,
	const char *topic, size_t *n)
{
	const ca_publish_instance *p;
	size_t total = ca_records_publishes(r, &p), k = 0;
	size_t *out = malloc((total + 1) * sizeof *out);
	bool *mine = calloc(a->n_publishers + 1, sizeof *mine);
	for (size_t i = 0; out && mine && i < a->n_publishers; i++) {
		const ca_publisher *pub = &a->publishers[i];
		mine[i] = pub->node != CA_NONE && pub->topic && !strcmp(pub->topic, topic) &&
			!strcmp(a->nodes[pub->node].fqn, node);
	}
	for (size_t i = 0; out && mine && i < total; i++)
		if (p[i].publisher != CA_NONE && mine[p[i].publisher])
			out[k++] = i;
	free(mine);
	if (!mine) {
		free(out);
		return NULL;
	}
	*n = k;
	return out;
}

/* The first of `idx` (time order) at time t or later. */
static size_t first_from(const ca_publish_instance *p, const size_t *idx, size_t n, uint64_t t)
{
	size_t lo = 0, hi = n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (ca_publish_time(&p[idx[mid]]) < t)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* The publish among `idx` at time t, or NULL. */
static const ca_publish_instance *publish_at(const ca_publish_instance *p, const size_t *idx,
	size_t n, uint64_t t)
{
	size_t i = first_from(p, idx, n, t);
	return i < n && ca_publish_time(&p[idx[i]]) == t ? &p[idx[i]] : NULL;
}

/* What following a path needs to find a node's output by itself. */
struct outputs {
	const ca_architecture *a;
	const ca_callback_instance *runs;
	size_t n_runs;
	const ca_publish_instance *pubs;
	const ca_path *path;
	ca_node_policy policy; /* for nodes the path gives none */
};

/* The run of node k's callback taking topic k - 1 that started at t, or CA_NONE. */
static size_t run_started(const struct outputs *o, size_t k, uint64_t t)
{
	const ca_architecture *a = o->a;
	for (size_t s = 0; s < a->n_subscriptions; s++) {
		const ca_subscription *sub = &a->subscriptions[s];
		if (sub->callback == CA_NONE || sub->node == CA_NONE || !sub->topic ||
		    strcmp(sub->topic, o->path->topics[k - 1]) ||
		    strcmp(a->nodes[sub->node].fqn, o->path->nodes[k]))
			continue;
		size_t lo = 0, hi = o->n_runs; /* runs: by callback, then start */
		while (lo < hi) {
			size_t mid = lo + (hi - lo) / 2;
			const ca_callback_instance *r = &o->runs[mid];
			if (r->callback < sub->callback || (r->callback == sub->callback && r->start < t))
				lo = mid + 1;
			else
				hi = mid;
		}
		if (lo < o->n_runs && o->runs[lo].callback == sub->callback && o->runs[lo].start == t)
			return lo;
	}
	return CA_NONE;
}

/* Node k's output on topic k for the input its callback took at t, by its
 * policy: the first publish of that run (callback chain); 0: none found
 * (a latest message node: none made while it was the latest input; a
 * stamp inherited: not known without the next hop). */
static uint64_t output_of(const struct outputs *o, size_t k, uint64_t t, const size_t *idx,
	size_t n)
{
	ca_node_policy policy = o->path->policies && o->path->policies[k] != CA_POLICY_DEFAULT ?
		o->path->policies[k] : o->policy;
	if (policy != CA_POLICY_CALLBACK_CHAIN)
		return 0;
	size_t i = first_from(o->pubs, idx, n, t);
	size_t run = run_started(o, k, t);
	for (; run != CA_NONE && i < n; i++) {
		const ca_publish_instance *p = &o->pubs[idx[i]];
		if (o->runs[run].end && ca_publish_time(p) > o->runs[run].end)
			break;
		if (p->callback_instance == run)
			return ca_publish_time(p);
	}
	return 0;
}

/* One message's row: hops summed from its publish on the first topic. */
static void row_of(const struct outputs *o, const ca_path_message *m, const int64_t *hops,
	size_t *const *idx, const size_t *n_idx, uint64_t *row)
{
	const ca_publish_instance *pubs = o->pubs;
	size_t n_topics = o->path->node_count - 1, col = 1, hop = 1;
	uint64_t t = m->publish;
	row[0] = m->callback_start;
	for (size_t k = 0; k < n_topics; k++, hop += 2, col += 5) {
		if (k > 0) { /* the previous node's time to this publish */
			if (t && hops[hop - 1] != CA_HOP_NONE)
				t += (uint64_t)hops[hop - 1];
			else if (t) /* lost after it: found by the node's policy */
				t = output_of(o, k, t, idx[k], n_idx[k]);
		}
		const ca_publish_instance *p = t && idx[k] ? publish_at(pubs, idx[k], n_idx[k], t) :
			NULL;
		row[col] = t;
		if (p) {
			row[col + 1] = p->rcl_time;
			row[col + 2] = p->dds_write_time;
			row[col + 3] = p->source_stamp;
		}
		if (t && hops[hop] != CA_HOP_NONE)
			t += (uint64_t)hops[hop];
		else
			t = 0;
		row[col + 4] = t; /* the next node's callback start */
		if (!t) /* lost on this topic: nothing further (the row is zeros) */
			return;
	}
	row[col] = hops[hop - 1] != CA_HOP_NONE ? m->last_end : 0;
}

uint64_t *caret_api_path_stamps(const ca_trace *trace, const ca_records *r, const ca_path *path,
	ca_node_policy policy, const ca_path_latency *l, size_t *columns)
{
	const ca_architecture *a = ca_trace_architecture(trace);
	const ca_path_message *m;
	const int64_t *hops;
	const ca_publish_instance *pubs;
	size_t n = ca_path_latency_messages(l, &m, &hops), topics = path->node_count - 1;
	size_t cols = 5 * topics + 2;
	uint64_t *out = calloc(n * cols + 1, sizeof *out);
	size_t **idx = calloc(topics + 1, sizeof *idx), *n_idx = calloc(topics + 1, sizeof *n_idx);
	bool ok = out && idx && n_idx;
	ca_records_publishes(r, &pubs);
	struct outputs o = { a, NULL, 0, pubs, path, policy };
	o.n_runs = ca_records_callbacks(r, &o.runs);
	for (size_t k = 0; ok && k < topics; k++)
		ok = !!(idx[k] = publishes_of(a, r, path->nodes[k], path->topics[k], &n_idx[k]));
	for (size_t i = 0; ok && i < n; i++)
		row_of(&o, &m[i], &hops[i * ca_path_latency_hop_count(l)], idx, n_idx,
			&out[i * cols]);
	for (size_t k = 0; idx && k < topics; k++)
		free(idx[k]);
	free(idx);
	free(n_idx);
	if (!ok) {
		free(out);
		return NULL;
	}
	*columns = cols;
	return out;
}
