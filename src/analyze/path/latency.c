/*
 * latency.c - a path's messages followed over the records' arrays: the
 * records of the path's nodes told to the path follower (records/follow.c)
 * as facts, in any order, and the hops only the records can give worked
 * out as links: a tf hop (a transform sent in a run, read by a lookup in
 * the next node's run) and a service hop (a request sent in a run, to the
 * service's run that took it; a response, to the client's response run).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "followed.h"
#include "path.h"
#include "records.h"
#include "sort_r.h"

struct walk {
	const struct ca_records *r;
	const ca_path *path;
	ca_node_policy policy;
	const char *const *nodes, *const *topics; /* interned, or NULL: absent */
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
	struct ca_follow *follow;
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

static ca_node_policy policy_of(const struct walk *w, size_t node)
{
	const ca_node_policy *p = w->path->policies;
	if (node > 0 && (w->tf_hop[node - 1] || w->service_hop[node - 1]))
		return CA_POLICY_CALLBACK_CHAIN; /* the run that looked it up (took it) goes on */
	return p && p[node] != CA_POLICY_DEFAULT ? p[node] : w->policy;
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

/* ---- the records told as facts ------------------------------------------ */

/* A run of the records as the follower knows it: numbered from 1; a
 * client's response run after them. */
static struct ca_stream_run run_of(const struct walk *w, size_t run)
{
	const ca_callback_instance *x = &w->r->runs[run];
	return (struct ca_stream_run){ x->start, x->callback, 0, run + 1 };
}

static uint64_t id_at(const struct walk *w, struct ca_hop_at at)
{
	return at.client ? w->r->n_runs + 1 + at.run : at.run + 1;
}

/* Every publish (its reference its index + 1), where it was made, and
 * the outputs among them. */
static bool tell_publishes(struct walk *w)
{
	const struct ca_records *r = w->r;
	for (size_t p = 0; p < r->n_publishes; p++) {
		size_t run = r->publishes[p].callback_instance;
		uint64_t time = ca_publish_time(&r->publishes[p]);
		const char *topic = publish_topic(w, p);
		if (ca_follow_note_publish(w->follow, time, run == CA_NONE ? 0 : run + 1) != p + 1)
			return false;
		const ca_publish_instance *made = &r->publishes[p];
		if (!made->intra && !ca_follow_stages(w->follow, p + 1, topic, made->rcl_time,
			made->dds_write_time, made->source_stamp))
			return false;
		if (run == CA_NONE || !topic)
			continue;
		struct ca_stream_run x = run_of(w, run);
		if (!ca_follow_output(w->follow, time, &x, topic))
			return false;
	}
	/* a client's response run is no run of the records: its publishes are
	 * those of its thread while it ran */
	size_t n_clients = w->services ? ca_service_hops_client_runs(w->services) : 0;
	for (size_t c = 0; c < n_clients; c++) {
		const size_t *made;
		size_t n = ca_service_hops_publishes(w->services, c, &made);
		struct ca_stream_run x = { 0, CA_NONE, 0, id_at(w, (struct ca_hop_at){ c, true }) };
		for (size_t i = 0; i < n; i++)
			if (!ca_follow_place(w->follow, made[i] + 1, &x, NULL))
				return false;
	}
	return true;
}

static bool tell_deliveries_and_ends(struct walk *w)
{
	const struct ca_records *r = w->r;
	for (size_t i = 0; i < r->n_communications; i++) {
		const ca_communication *c = &r->communications[i];
		if (c->callback_instance == CA_NONE || c->subscription == CA_NONE)
			continue;
		struct ca_stream_run x = run_of(w, c->callback_instance);
		if (!ca_follow_deliver(w->follow, &x, r->m->subscriptions[c->subscription].topic,
			c->publish == CA_NONE ? 0 : c->publish + 1, c->header_stamp, c->intra))
			return false;
	}
	for (size_t i = 0; i < r->n_runs; i++) {
		struct ca_stream_run x = run_of(w, i);
		if (r->runs[i].end && !ca_follow_end(w->follow, &x, r->runs[i].end))
			return false;
	}
	return true;
}

/* Hop i + 1 of run `run` through tf: what it sent first on the edge, to
 * the lookup of node i + 1 that first read it. */
static bool tell_tf_link(struct walk *w, size_t i, size_t run)
{
	if (send_in_run(w, run, i) == CA_NONE)
		return true;
	uint64_t sent = 0, read = 0;
	size_t to = tf_next_run(w, run, i, &sent, &read);
	struct ca_follow_link link = { 0, 0, 0 };
	if (to != CA_NONE)
		link = (struct ca_follow_link){ to + 1, read,
			i + 2 == w->path->node_count ? w->r->runs[to].end : 0 };
	struct ca_stream_run x = run_of(w, run);
	return ca_follow_link(w->follow, i + 1, sent, &x, &link);
}

/* Hop i + 1 of run `run` through a service: every call it could be, in
 * the order they were sent; the follower takes the first from the time
 * the message entered the run. */
static bool tell_service_links(struct walk *w, size_t i, size_t run)
{
	struct ca_stream_run x = run_of(w, run);
	uint64_t since = x.start, sent;
	struct ca_hop_at to;
	for (;;) {
		bool arrived = ca_service_hop(w->services, (struct ca_hop_at){ run, false }, since,
			w->topics[i], w->nodes[i + 1], &sent, &to);
		if (!sent)
			return true;
		struct ca_follow_link link = { 0, 0, 0 };
		if (arrived)
			link = (struct ca_follow_link){ id_at(w, to), ca_hop_at_start(w->services, to),
				i + 2 == w->path->node_count ? ca_hop_at_end(w->services, to) : 0 };
		if (!ca_follow_link(w->follow, i + 1, sent, &x, &link))
			return false;
		since = sent + 1;
	}
}

static bool tell_links(struct walk *w)
{
	const struct ca_records *r = w->r;
	for (size_t i = 0; i + 1 < w->path->node_count; i++) {
		if (!w->tf_hop[i] && !w->service_hop[i])
			continue;
		for (size_t run = 0; run < r->n_runs; run++) {
			if (run_node(w, run) != w->nodes[i])
				continue;
			if (!(w->tf_hop[i] ? tell_tf_link(w, i, run) : tell_service_links(w, i, run)))
				return false;
		}
	}
	return true;
}

/* The follower for the path as interned, each node's policy resolved. */
static struct ca_follow *new_follower(struct walk *w)
{
	size_t n = w->path->node_count;
	ca_node_policy *policies = calloc(n, sizeof *policies);
	uint8_t *kinds = calloc(n, sizeof *kinds);
	struct ca_follow *f = NULL;
	if (policies && kinds) {
		for (size_t i = 0; i < n; i++) {
			policies[i] = i ? policy_of(w, i) : CA_POLICY_CALLBACK_CHAIN;
			kinds[i] = i + 1 == n ? CA_FOLLOW_TOPIC : w->tf_hop[i] ? CA_FOLLOW_LINK :
				w->service_hop[i] ? CA_FOLLOW_LINK_SINCE_ENTRY : CA_FOLLOW_TOPIC;
		}
		ca_path interned = { n, (const char **)w->nodes, (const char **)w->topics,
			policies };
		if ((f = ca_follow_new(w->r->m, &interned, kinds)))
			ca_follow_unordered(f);
	}
	free(policies);
	free(kinds);
	return f;
}

ca_path_latency *ca_path_latency_build(const ca_records *r, const ca_path *path,
	ca_node_policy policy, char *err, size_t err_size)
{
	bool followed;
	ca_path_latency *done = ca_records_followed(r, path, policy, &followed, err, err_size);
	if (followed) /* records that followed this path as they were scanned */
		return done;
	ca_path_latency *l = NULL;
	struct walk w = { .r = r, .path = path, .policy = policy };
	const char **nodes = calloc(path->node_count + 1, sizeof *nodes);
	const char **topics = calloc(path->node_count + 1, sizeof *topics);
	w.tf_hop = calloc(path->node_count + 1, sizeof *w.tf_hop);
	w.service_hop = calloc(path->node_count + 1, sizeof *w.service_hop);

	if (!nodes || !topics || !w.tf_hop || !w.service_hop || path->node_count < 2) {
		snprintf(err, err_size, path->node_count < 2 ? "a path needs at least two nodes" :
			"out of memory");
		goto out;
	}
	intern_path(&w, nodes, topics);
	for (size_t i = 0; i < path->node_count; i++)
		if (!nodes[i] || (i + 1 < path->node_count && !topics[i])) {
			ca_path_no_such_name(&r->m->arch, nodes[i] != NULL,
				nodes[i] ? path->topics[i] : path->nodes[i], err, err_size);
			goto out;
		}
	bool through_services = false;
	for (size_t i = 0; i + 1 < path->node_count; i++)
		through_services = through_services || w.service_hop[i];
	if (build_tf(&w) || (through_services && !(w.services = ca_service_hops_build(r))) ||
	    !(w.follow = new_follower(&w)) || !tell_publishes(&w) ||
	    !tell_deliveries_and_ends(&w) || !tell_links(&w) ||
	    !(l = ca_follow_finish(w.follow)))
		snprintf(err, err_size, "out of memory");
out:
	ca_follow_free(w.follow);
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
