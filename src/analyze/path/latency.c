/*
 * latency.c - messages followed along a path. From each run of the first
 * node that publishes on the first topic: the communication to the next
 * node's run (records), then the node's output for that input (by the
 * policy), and so on to the last node's run. A message that does not get
 * there keeps its row (the original's left merges), for response time.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "followed.h"
#include "path.h"
#include "records.h"
#include "sort_r.h"
#include "vec.h"

/* ---- indexes over the records ------------------------------------------- */

/* Lists in one array: items[first[k] .. first[k + 1]) belong to key k. */
struct lists {
	size_t *first, *items;
};

/* Groups indexes 0..n by key_of (keys 0..n_keys, CA_NONE skipped). */
static int group(struct lists *l, size_t n, size_t n_keys,
	size_t (*key_of)(const struct ca_records *, size_t), const struct ca_records *r)
{
	l->first = calloc(n_keys + 2, sizeof *l->first);
	l->items = calloc(n + 1, sizeof *l->items);
	if (!l->first || !l->items)
		return -1;
	for (size_t i = 0; i < n; i++) {
		size_t k = key_of(r, i);
		if (k != CA_NONE)
			l->first[k + 2]++;
	}
	for (size_t k = 0; k < n_keys; k++)
		l->first[k + 2] += l->first[k + 1];
	for (size_t i = 0; i < n; i++) {
		size_t k = key_of(r, i);
		if (k != CA_NONE)
			l->items[l->first[k + 1]++] = i;
	}
	return 0;
}

static void free_lists(struct lists *l)
{
	free(l->first);
	free(l->items);
}

static size_t run_of_publish(const struct ca_records *r, size_t i)
{
	return r->publishes[i].callback_instance;
}

static size_t publish_of_communication(const struct ca_records *r, size_t i)
{
	return r->communications[i].publish;
}

struct walk {
	const struct ca_records *r;
	const ca_path *path;
	ca_node_policy policy;
	struct lists by_run, by_publish; /* publishes of a run, communications of a publish */
	const char *const *nodes, *const *topics; /* interned, or NULL: absent */
	struct node_io *io; /* per node of the path (use_latest_message) */
	struct stamped **stamped; /* per topic of the path (inherit_unique_stamp) */
	size_t *n_stamped;
	/* tf hops (a topic "tf:FRAME->CHILD"): the transforms sent in each
	 * run, and the lookups that read each send */
	bool *tf_hop;
	ca_tf *tf;
	const ca_tf_send *tf_sends;
	const ca_tf_set *tf_sets;
	const ca_tf_use *tf_uses;
	size_t *sends_by_run, *uses_by_send, n_sends, n_uses;
	/* service hops (a topic "request:S" or "response:S", service_hops.c) */
	bool *service_hop;
	struct ca_service_hops *services;
};

static const char *run_node(const struct walk *w, size_t run)
{
	const ca_callback_instance *x = &w->r->runs[run];
	const struct ca_model *m = w->r->m;
	if (x->callback == CA_NONE || m->callbacks[x->callback].node == CA_NONE)
		return NULL;
	return m->nodes[m->callbacks[x->callback].node].fqn;
}

static const char *publish_topic(const struct walk *w, size_t p)
{
	size_t pub = w->r->publishes[p].publisher;
	return pub == CA_NONE ? NULL : w->r->m->publishers[pub].topic;
}

/* The publishes made where the data is: in a run of the records, or in a
 * client's response run. */
static size_t publishes_at(const struct walk *w, struct ca_hop_at at, const size_t **publishes)
{
	if (at.client)
		return ca_service_hops_publishes(w->services, at.run, publishes);
	*publishes = w->by_run.items + w->by_run.first[at.run];
	return w->by_run.first[at.run + 1] - w->by_run.first[at.run];
}

/* The run of node `node` that handled one of the publishes made at `at`
 * on `topic` at or after `from`, and that publish; CA_NONE if none. When
 * several did, the one that started first (ties: the first publish, then
 * the first callback): as a follower of the events in time order
 * (records/follow.c) sees it. */
static size_t next_run(const struct walk *w, struct ca_hop_at at, const char *topic,
	const char *node, uint64_t from, size_t *publish, size_t *communication)
{
	size_t best = CA_NONE;
	const size_t *pubs;
	size_t n_pubs = publishes_at(w, at, &pubs);
	for (size_t i = 0; i < n_pubs; i++) {
		size_t p = pubs[i];
		if (publish_topic(w, p) != topic || ca_publish_time(&w->r->publishes[p]) < from)
			continue;
		for (size_t k = w->by_publish.first[p]; k < w->by_publish.first[p + 1]; k++) {
			const ca_communication *c = &w->r->communications[w->by_publish.items[k]];
			if (run_node(w, c->callback_instance) != node || (best != CA_NONE &&
			    w->r->runs[c->callback_instance].start >= w->r->runs[best].start))
				continue;
			*publish = p;
			*communication = w->by_publish.items[k];
			best = c->callback_instance;
		}
	}
	return best;
}

/* use_latest_message needs, per node of the path: its publishes on the
 * outgoing topic and the runs that took an input on the incoming topic,
 * each sorted by time. */
struct timed {
	uint64_t time;
	size_t run;
};

struct node_io {
	struct timed *out, *in;
	size_t n_out, n_in;
	size_t out_at, in_at; /* where the last search ended: the next starts there */
};

static int by_time(const void *a, const void *b)
{
	const struct timed *x = a, *y = b;
	return (x->time > y->time) - (x->time < y->time);
}

static bool precedes(const struct timed *x, uint64_t t, bool after)
{
	return x->time < t || (after && x->time == t);
}

/* The first entry at or after t (strictly after, when after is set),
 * searched from *at, where the search before ended: the messages come in
 * time order, so the answer is mostly there or a step on, and a search of
 * the whole array (a cache miss at each step) is the exception. */
static size_t first_from(const struct timed *v, size_t n, uint64_t t, bool after, size_t *at)
{
	size_t lo = 0, hi = n, k = *at;
	for (size_t step = 0; step < 4 && k < n && precedes(&v[k], t, after); step++)
		k++;
	if ((k == n || !precedes(&v[k], t, after)) &&
	    (k == 0 || precedes(&v[k - 1], t, after)))
		return *at = k;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (precedes(&v[mid], t, after))
			lo = mid + 1;
		else
			hi = mid;
	}
	return *at = lo;
}

/* use_latest_message: the run of the node that next publishes on the
 * outgoing topic at or after the input run started, if no newer input
 * reached the node before that publish (*at: its time). */
static size_t latest_output_run(struct node_io *io, uint64_t input_start, uint64_t *at)
{
	size_t o = first_from(io->out, io->n_out, input_start, false, &io->out_at);
	size_t i = first_from(io->in, io->n_in, input_start, true, &io->in_at);
	if (o == io->n_out || (i < io->n_in && io->in[i].time < io->out[o].time))
		return CA_NONE;
	*at = io->out[o].time;
	return io->out[o].run;
}

static ca_node_policy policy_of(const struct walk *w, size_t node)
{
	const ca_node_policy *p = w->path->policies;
	if (node > 0 && (w->tf_hop[node - 1] || w->service_hop[node - 1]))
		return CA_POLICY_CALLBACK_CHAIN; /* the run that looked it up (took it) goes on */
	return p && p[node] != CA_POLICY_DEFAULT ? p[node] : w->policy;
}

/* inherit_unique_stamp needs, per topic of the path, the messages on it
 * to the next node by header stamp: (header, publish time, communication). */
struct stamped {
	uint64_t header, time;
	size_t communication;
};

static int by_header_time(const void *a, const void *b)
{
	const struct stamped *x = a, *y = b;
	if (x->header != y->header)
		return x->header < y->header ? -1 : 1;
	return (x->time > y->time) - (x->time < y->time);
}

/* The communication on topic i - 1 (to node i) whose message carries the
 * header stamp of communication `in`, published at or after `since`. */
static size_t inherited(const struct walk *w, size_t i, size_t in, uint64_t since)
{
	if (in == CA_NONE || !w->r->communications[in].header_stamp)
		return CA_NONE;
	const struct stamped *v = w->stamped[i - 1];
	size_t n = w->n_stamped[i - 1], lo = 0, hi = n;
	struct stamped key = { w->r->communications[in].header_stamp, since, 0 };
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (by_header_time(&v[mid], &key) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < n && v[lo].header == key.header ? v[lo].communication : CA_NONE;
}

/* Names of the path as the trace interned them (pointer-comparable). */
static int intern_path(struct walk *w, const char **nodes, const char **topics)
{
	const struct ca_model *m = w->r->m;
	const ca_path *path = w->path;
	for (size_t i = 0; i < path->node_count; i++)
		for (size_t k = 0; k < m->n_nodes && !nodes[i]; k++)
			if (!strcmp(m->nodes[k].fqn, path->nodes[i]))
				nodes[i] = m->nodes[k].fqn;
	for (size_t i = 0; i + 1 < path->node_count; i++) {
		if ((w->tf_hop[i] = ca_topic_is_tf(path->topics[i])))
			topics[i] = path->topics[i];
		if ((w->service_hop[i] = ca_topic_is_request(path->topics[i]) ||
			ca_topic_is_response(path->topics[i])))
			topics[i] = path->topics[i];
		for (size_t k = 0; k < m->n_publishers && !topics[i]; k++)
			if (!strcmp(m->publishers[k].topic, path->topics[i]))
				topics[i] = m->publishers[k].topic;
	}
	w->nodes = nodes;
	w->topics = topics;
	return 0;
}

/* ---- tf hops -------------------------------------------------------------- */

static int send_by_run(const void *a, const void *b, void *ctx)
{
	const ca_tf_send *tf_sends = ((const struct walk *)ctx)->tf_sends;
	size_t x = tf_sends[*(const size_t *)a].run, y = tf_sends[*(const size_t *)b].run;
	return (x > y) - (x < y);
}

static int use_by_send(const void *a, const void *b, void *ctx)
{
	const ca_tf_set *tf_sets = ((const struct walk *)ctx)->tf_sets;
	const ca_tf_use *tf_uses = ((const struct walk *)ctx)->tf_uses;
	size_t x = tf_sets[tf_uses[*(const size_t *)a].set].send;
	size_t y = tf_sets[tf_uses[*(const size_t *)b].set].send;
	return (x > y) - (x < y);
}

static int build_tf(struct walk *w)
{
	bool any = false;
	for (size_t i = 0; i + 1 < w->path->node_count; i++)
		any = any || w->tf_hop[i];
	if (!any)
		return 0;
	char err[64];
	if (!(w->tf = ca_tf_build(w->r->t, w->r, err, sizeof err)))
		return -1;
	w->n_sends = ca_tf_sends(w->tf, &w->tf_sends);
	ca_tf_sets(w->tf, &w->tf_sets);
	w->n_uses = ca_tf_uses(w->tf, &w->tf_uses);
	w->sends_by_run = malloc((w->n_sends + 1) * sizeof *w->sends_by_run);
	w->uses_by_send = malloc((w->n_uses + 1) * sizeof *w->uses_by_send);
	if (!w->sends_by_run || !w->uses_by_send)
		return -1;
	for (size_t i = 0; i < w->n_sends; i++)
		w->sends_by_run[i] = i;
	for (size_t i = 0; i < w->n_uses; i++)
		w->uses_by_send[i] = i;
	caret_sort_r(w->sends_by_run, w->n_sends, sizeof *w->sends_by_run, send_by_run, w);
	caret_sort_r(w->uses_by_send, w->n_uses, sizeof *w->uses_by_send, use_by_send, w);
	return 0;
}

/* Whether send s is of the tf hop's edge (its topic "tf:FRAME->CHILD"). */
static bool send_on(const struct walk *w, size_t s, const char *topic)
{
	char name[512];
	snprintf(name, sizeof name, CA_TF_TOPIC_PREFIX "%s->%s",
		ca_trace_string(w->r->t, w->tf_sends[s].frame),
		ca_trace_string(w->r->t, w->tf_sends[s].child));
	return !strcmp(name, topic);
}

/* The first send of `run` on the edge of topic i, or CA_NONE. */
static size_t send_in_run(const struct walk *w, size_t run, size_t i)
{
	size_t lo = 0, hi = w->n_sends;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (w->tf_sends[w->sends_by_run[mid]].run < run)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (; lo < w->n_sends && w->tf_sends[w->sends_by_run[lo]].run == run; lo++)
		if (send_on(w, w->sends_by_run[lo], w->topics[i]))
			return w->sends_by_run[lo];
	return CA_NONE;
}

/* The run of node i + 1 whose lookup first read what `run` sent on the edge
 * of topic i (*sent: when it was sent; *read: when that lookup was made),
 * or CA_NONE. */
static size_t tf_next_run(const struct walk *w, size_t run, size_t i, uint64_t *sent,
	uint64_t *read)
{
	size_t s = send_in_run(w, run, i), best = CA_NONE, lo = 0, hi = w->n_uses;
	const ca_tf_lookup *lookups;
	ca_tf_lookups(w->tf, &lookups);
	if (s == CA_NONE)
		return CA_NONE;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (w->tf_sets[w->tf_uses[w->uses_by_send[mid]].set].send < s)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (; lo < w->n_uses && w->tf_sets[w->tf_uses[w->uses_by_send[lo]].set].send == s; lo++) {
		const ca_tf_lookup *l = &lookups[w->tf_uses[w->uses_by_send[lo]].lookup];
		if (l->run != CA_NONE && run_node(w, l->run) == w->nodes[i + 1] &&
		    (best == CA_NONE || l->time < lookups[best].time))
			best = w->tf_uses[w->uses_by_send[lo]].lookup;
	}
	*sent = w->tf_sends[s].time;
	if (best == CA_NONE)
		return CA_NONE;
	*read = lookups[best].time;
	return lookups[best].run;
}

/* The first publish of `run` on `topic`. */
static size_t publish_on(const struct walk *w, size_t run, const char *topic)
{
	for (size_t i = w->by_run.first[run]; i < w->by_run.first[run + 1]; i++)
		if (publish_topic(w, w->by_run.items[i]) == topic)
			return w->by_run.items[i];
	return CA_NONE;
}

/* Follows the outputs of one run of the first node; adds a message, with
 * CA_HOP_NONE for the hops it did not get through. */
static int follow(struct walk *w, ca_path_latency *l, size_t run0)
{
	const struct ca_records *r = w->r;
	size_t k = w->path->node_count - 1, run = run0, publish = CA_NONE, comm = CA_NONE;
	ca_path_message *m = VEC_PUSH(l->messages, l->n_messages, l->cap_messages);
	int64_t *hops = m ? realloc(l->hops, l->cap_messages * l->hop_count * sizeof *hops) : NULL;
	if (!hops)
		return -1;
	l->hops = hops;
	int64_t *hop = &hops[(l->n_messages - 1) * l->hop_count];
	for (size_t i = 0; i < l->hop_count; i++)
		hop[i] = CA_HOP_NONE;
	m->callback_start = r->runs[run0].start;
	/* when the data entered the node: its run's start, or through tf the
	 * lookup that read it (the run may have begun before the transform
	 * arrived) */
	uint64_t entry = m->callback_start, next_entry = 0;
	bool at_client = false; /* run is a client's response run */
	for (size_t i = 1; i <= k; i++, entry = next_entry) {
		size_t before = run;
		ca_node_policy policy = i > 1 ? policy_of(w, i - 1) : CA_POLICY_CALLBACK_CHAIN;
		uint64_t pt = 0;
		if (w->service_hop[i - 1]) {
			/* a request to the service's run, or its response to the client's */
			struct ca_hop_at to;
			bool arrived = ca_service_hop(w->services, (struct ca_hop_at){ before, at_client },
				entry, w->topics[i - 1], w->nodes[i], &pt, &to);
			if (i == 1)
				m->publish = pt;
			if (!arrived) {
				run = CA_NONE;
				break;
			}
			run = to.run;
			at_client = to.client;
			next_entry = ca_hop_at_start(w->services, to);
			comm = CA_NONE;
		} else if (w->tf_hop[i - 1] && at_client) {
			run = CA_NONE; /* a client's response run is not placed in tf */
			break;
		} else if (w->tf_hop[i - 1]) {
			/* sent in this run, read by a lookup in the next node's run */
			if ((run = tf_next_run(w, before, i - 1, &pt, &next_entry)) == CA_NONE)
				break;
			comm = CA_NONE;
		} else if (policy == CA_POLICY_INHERIT_UNIQUE_STAMP) {
			/* the message on the next topic that carries the input's stamp */
			comm = inherited(w, i, comm, r->runs[before].start);
			if (comm == CA_NONE) {
				run = CA_NONE; /* lost here: it does not reach the end */
				break;
			}
			publish = r->communications[comm].publish;
			run = r->communications[comm].callback_instance;
		} else {
			uint64_t from = 0; /* use_latest_message: the output and later */
			if (policy == CA_POLICY_USE_LATEST_MESSAGE &&
			    (run = latest_output_run(&w->io[i - 1], r->runs[run].start, &from)) ==
				    CA_NONE)
				break;
			run = next_run(w, (struct ca_hop_at){ run, at_client }, w->topics[i - 1],
				w->nodes[i], from, &publish, &comm);
			at_client = false;
			if (run == CA_NONE)
				break;
		}
		if (!w->tf_hop[i - 1] && !w->service_hop[i - 1]) {
			pt = ca_publish_time(&r->publishes[publish]);
			next_entry = r->runs[run].start;
		}
		if (i == 1)
			m->publish = pt;
		/* the hop inside the node: from its input (or its own start) to
		 * the publish */
		hop[2 * (i - 1)] = (int64_t)(pt - entry);
		hop[2 * i - 1] = (int64_t)(next_entry - pt);
	}
	if (!m->publish && !w->service_hop[0]) { /* lost on the first topic: its own publish still starts the row */
		uint64_t sent = 0;
		if (w->tf_hop[0])
			sent = w->tf_sends[send_in_run(w, run0, 0)].time;
		m->publish = w->tf_hop[0] ? sent :
			ca_publish_time(&r->publishes[publish_on(w, run0, w->topics[0])]);
	}
	if (run == CA_NONE)
		return 0;
	m->last_start = entry;
	m->last_end = at_client ? ca_hop_at_end(w->services, (struct ca_hop_at){ run, true }) :
		r->runs[run].end;
	if (m->last_end)
		hop[2 * k] = (int64_t)(m->last_end - m->last_start);
	return 0;
}

static int by_run_start(const void *a, const void *b, void *ctx)
{
	const ca_callback_instance *sorted_runs = ctx;
	uint64_t x = sorted_runs[*(const size_t *)a].start, y = sorted_runs[*(const size_t *)b].start;
	return (x > y) - (x < y);
}

static void free_io(struct walk *w)
{
	for (size_t i = 0; w->io && i < w->path->node_count; i++) {
		free(w->io[i].out);
		free(w->io[i].in);
	}
	free(w->io);
}

static void free_stamped(struct walk *w)
{
	for (size_t i = 0; w->stamped && i < w->path->node_count; i++)
		free(w->stamped[i]);
	free(w->stamped);
	free(w->n_stamped);
}

static int build_stamped(struct walk *w)
{
	const struct ca_records *r = w->r;
	size_t n = w->path->node_count;
	w->stamped = calloc(n, sizeof *w->stamped);
	w->n_stamped = calloc(n, sizeof *w->n_stamped);
	if (!w->stamped || !w->n_stamped)
		return -1;
	for (size_t t = 1; t + 1 < n; t++) { /* topics after an inheriting node */
		if (policy_of(w, t) != CA_POLICY_INHERIT_UNIQUE_STAMP)
			continue;
		struct stamped *v = calloc(r->n_communications + 1, sizeof *v);
		size_t m = 0;
		if (!v)
			return -1;
		for (size_t c = 0; c < r->n_communications; c++) {
			const ca_communication *x = &r->communications[c];
			if (x->publish != CA_NONE && x->header_stamp && x->subscription != CA_NONE &&
			    r->m->subscriptions[x->subscription].topic == w->topics[t] &&
			    run_node(w, x->callback_instance) == w->nodes[t + 1])
				v[m++] = (struct stamped){ x->header_stamp,
					ca_publish_time(&r->publishes[x->publish]), c };
		}
		qsort(v, m, sizeof *v, by_header_time);
		w->stamped[t] = v;
		w->n_stamped[t] = m;
	}
	return 0;
}

/* use_latest_message's outputs and inputs of every node: one pass over
 * the publishes and one over the communications, each one's topic and
 * node found once (a cache miss or two each), not once per node. */
static int build_io(struct walk *w)
{
	const struct ca_records *r = w->r;
	size_t n = w->path->node_count;
	bool any = false;
	if (!(w->io = calloc(n, sizeof *w->io)))
		return -1;
	for (size_t k = 1; k + 1 < n; k++) {
		struct node_io *io = &w->io[k];
		if (policy_of(w, k) != CA_POLICY_USE_LATEST_MESSAGE)
			continue;
		io->out = calloc(r->n_publishes + 1, sizeof *io->out);
		io->in = calloc(r->n_communications + 1, sizeof *io->in);
		if (!io->out || !io->in)
			return -1;
		any = true;
	}
	for (size_t p = 0; any && p < r->n_publishes; p++) {
		size_t run = r->publishes[p].callback_instance;
		const char *topic = run == CA_NONE ? NULL : publish_topic(w, p), *node = NULL;
		for (size_t k = 1; topic && k + 1 < n; k++) {
			struct node_io *io = &w->io[k];
			if (!io->out || topic != w->topics[k])
				continue;
			if (!node && !(node = run_node(w, run)))
				break;
			if (node == w->nodes[k])
				io->out[io->n_out++] = (struct timed){ ca_publish_time(&r->publishes[p]), run };
		}
	}
	for (size_t c = 0; any && c < r->n_communications; c++) {
		const ca_communication *x = &r->communications[c];
		const char *topic = x->subscription == CA_NONE ? NULL :
			r->m->subscriptions[x->subscription].topic, *node = NULL;
		for (size_t k = 1; topic && k + 1 < n; k++) {
			struct node_io *io = &w->io[k];
			if (!io->in || topic != w->topics[k - 1])
				continue;
			if (!node && !(node = run_node(w, x->callback_instance)))
				break;
			if (node == w->nodes[k])
				io->in[io->n_in++] = (struct timed){ r->runs[x->callback_instance].start,
					x->callback_instance };
		}
	}
	for (size_t k = 1; k + 1 < n; k++) {
		struct node_io *io = &w->io[k];
		ca_sort_unless_sorted(io->out, io->n_out, sizeof *io->out, by_time);
		ca_sort_unless_sorted(io->in, io->n_in, sizeof *io->in, by_time);
	}
	return 0;
}

ca_path_latency *ca_path_latency_build(const ca_records *r, const ca_path *path,
	ca_node_policy policy, char *err, size_t err_size)
{
	bool followed;
	ca_path_latency *done = ca_records_followed(r, path, policy, &followed, err, err_size);
	if (followed) /* records that followed this path as they were scanned */
		return done;
	ca_path_latency *l = calloc(1, sizeof *l);
	if (l)
		l->responses = calloc(1, sizeof *l->responses); /* NULL: response times not kept */
	struct walk w = { .r = r, .path = path, .policy = policy };
	const char **nodes = calloc(path->node_count + 1, sizeof *nodes);
	const char **topics = calloc(path->node_count + 1, sizeof *topics);
	w.tf_hop = calloc(path->node_count + 1, sizeof *w.tf_hop);
	w.service_hop = calloc(path->node_count + 1, sizeof *w.service_hop);

	if (!l || !nodes || !topics || !w.tf_hop || !w.service_hop || path->node_count < 2 ||
	    group(&w.by_run, r->n_publishes, r->n_runs, run_of_publish, r) ||
	    group(&w.by_publish, r->n_communications, r->n_publishes, publish_of_communication, r)) {
		snprintf(err, err_size, path->node_count < 2 ? "a path needs at least two nodes" :
			"out of memory");
		goto fail;
	}
	intern_path(&w, nodes, topics);
	for (size_t i = 0; i < path->node_count; i++)
		if (!nodes[i] || (i + 1 < path->node_count && !topics[i])) {
			snprintf(err, err_size, "%s %s is not in the trace", nodes[i] ? "topic" : "node",
				nodes[i] ? path->topics[i] : path->nodes[i]);
			goto fail;
		}
	l->hop_count = 2 * (path->node_count - 1) + 1;
	bool through_services = false;
	for (size_t i = 0; i + 1 < path->node_count; i++)
		through_services = through_services || w.service_hop[i];
	if (build_io(&w) || build_stamped(&w) || build_tf(&w) ||
	    (through_services && !(w.services = ca_service_hops_build(r)))) {
		snprintf(err, err_size, "out of memory");
		goto fail;
	}
	/* Runs are sorted by callback then start; instances are wanted by
	 * start: walk the runs of the first node in start order. */
	size_t *order = malloc((r->n_runs + 1) * sizeof *order), n = 0;
	if (!order) {
		snprintf(err, err_size, "out of memory");
		goto fail;
	}
	for (size_t i = 0; i < r->n_runs; i++) {
		if (run_node(&w, i) != nodes[0])
			continue;
		bool publishes = w.tf_hop[0] && send_in_run(&w, i, 0) != CA_NONE;
		if (w.service_hop[0]) { /* it sent a request (or a response) of the link */
			uint64_t sent;
			struct ca_hop_at to;
			ca_service_hop(w.services, (struct ca_hop_at){ i, false }, 0, topics[0],
				nodes[1], &sent, &to);
			publishes = sent != 0;
		}
		for (size_t k = w.by_run.first[i]; k < w.by_run.first[i + 1]; k++)
			publishes = publishes || publish_topic(&w, w.by_run.items[k]) == topics[0];
		if (publishes)
			order[n++] = i;
	}
	caret_sort_unless_sorted_r(order, n, sizeof *order, by_run_start, (void *)r->runs);
	for (size_t i = 0; i < n; i++)
		if (follow(&w, l, order[i])) {
			free(order);
			snprintf(err, err_size, "out of memory");
			goto fail;
		}
	free(order);
	goto out;
fail:
	ca_path_latency_free(l);
	l = NULL;
out:
	free_lists(&w.by_run);
	free_lists(&w.by_publish);
	free_io(&w);
	free_stamped(&w);
	free(w.tf_hop);
	free(w.service_hop);
	ca_service_hops_free(w.services);
	free(w.sends_by_run);
	free(w.uses_by_send);
	ca_tf_free(w.tf);
	free(nodes);
	free(topics);
	return l;
}
