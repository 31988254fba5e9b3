/*
 * names.c - the original CARET analyzer's names, which stay the same from
 * one run to the next for callbacks and groups (docs/dev/original-
 * architecture.md): "/ns/node/callback_N" over the node's timers, then its
 * subscriptions, each kind in creation order, N zero-padded to the digits
 * of their count; "/ns/node/callback_group_N" in address order;
 * "executor_N" over every executor with a group, in address order. What
 * the original leaves out is marked hidden and named apart, so that it
 * shifts no other name. Objects without a node are named after their pid
 * ("pid 123/callback_0").
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model.h"
#include "sort_r.h"

/* "owner/what_N", N zero-padded to width digits. */
static const char *intern_name(ca_trace *t, const char *owner, const char *what, size_t n,
	int width)
{
	char buf[4096];
	if (owner)
		snprintf(buf, sizeof buf, "%s/%s_%0*zu", owner, what, width, n);
	else
		snprintf(buf, sizeof buf, "%s_%0*zu", what, width, n);
	return ca_trace_string(t, ca_trace_intern(t, buf));
}

/* The digits of a count (the original pads indexes to them; 1 for 0). */
static int digits(size_t count)
{
	int d = 1;
	while (count >= 10) {
		count /= 10;
		d++;
	}
	return d;
}

/* The owner part of a name: the node's name, or "pid N". */
static const char *owner_of(const struct ca_model *m, size_t node, int64_t pid, char *buf,
	size_t size)
{
	if (node != CA_NONE)
		return m->nodes[node].fqn;
	snprintf(buf, size, "pid %" PRId64, pid);
	return buf;
}

/* Counts per node, plus one counter per process for objects without one. */
struct counters {
	size_t *per_node, *per_process;
};

static size_t *counter(struct counters *k, const struct ca_model *m, size_t node, int64_t pid)
{
	return node != CA_NONE ? &k->per_node[node] :
		&k->per_process[ca_model_process_index(m, pid)];
}

static const char *topic_or_name(const struct ca_model *m, const ca_callback *cb)
{
	if (cb->kind == CA_CALLBACK_SUBSCRIPTION)
		return m->subscriptions[cb->owner].topic;
	if (cb->kind == CA_CALLBACK_SERVICE)
		return m->services[cb->owner].name;
	return NULL;
}

/* Callbacks alike for the original's construction_order: same node, kind,
 * topic (service name, timer period) and symbol. */
static bool alike(const struct ca_model *m, const ca_callback *a, const ca_callback *b)
{
	if (a->node != b->node || a->kind != b->kind)
		return false;
	if (a->kind == CA_CALLBACK_TIMER &&
	    m->timers[a->owner].period_ns != m->timers[b->owner].period_ns)
		return false;
	const char *x = topic_or_name(m, a), *y = topic_or_name(m, b);
	if ((x || y) && (!x || !y || strcmp(x, y)))
		return false;
	return (!a->symbol && !b->symbol) ||
		(a->symbol && b->symbol && !strcmp(a->symbol, b->symbol));
}

/* ---- what the original leaves out ---------------------------------------- */

static bool ignored_topic(const char *topic)
{
	static const char *const topics[] = { "/parameter_events", "/rosout", "/clock" };
	for (size_t i = 0; topic && i < 3; i++)
		if (!strcmp(topic, topics[i]))
			return true;
	return false;
}

static bool node_hidden(const struct ca_model *m, size_t node)
{
	return node != CA_NONE && m->nodes[node].hidden;
}

/* A subscription the original never names: an ignored topic, or /rviz2's. */
static bool subscription_ignored(const struct ca_model *m, const ca_subscription *s)
{
	return ignored_topic(s->topic) ||
		(s->node != CA_NONE && !strcmp(m->nodes[s->node].fqn, "/rviz2"));
}

static size_t group_of(const struct ca_model *m, const ca_callback *cb)
{
	return cb->kind == CA_CALLBACK_TIMER ? m->timers[cb->owner].group :
		cb->kind == CA_CALLBACK_SERVICE ? m->services[cb->owner].group :
		m->subscriptions[cb->owner].group;
}

static void mark_hidden(struct ca_model *m)
{
	for (size_t i = 0; i < m->n_nodes; i++)
		m->nodes[i].hidden = strstr(m->nodes[i].fqn, "caret_trace_") != NULL;
	for (size_t i = 0; i < m->n_publishers; i++)
		m->publishers[i].hidden = ignored_topic(m->publishers[i].topic) ||
			node_hidden(m, m->publishers[i].node);
	for (size_t i = 0; i < m->n_subscriptions; i++)
		m->subscriptions[i].hidden = subscription_ignored(m, &m->subscriptions[i]) ||
			node_hidden(m, m->subscriptions[i].node);
	for (size_t i = 0; i < m->n_callbacks; i++) {
		ca_callback *cb = &m->callbacks[i];
		cb->hidden = cb->kind == CA_CALLBACK_SERVICE || node_hidden(m, cb->node) ||
			(cb->kind == CA_CALLBACK_SUBSCRIPTION && m->subscriptions[cb->owner].hidden);
	}
}

/* ---- callbacks ------------------------------------------------------------ */

static uint64_t owner_time(const struct ca_model *m, const ca_callback *cb)
{
	return cb->kind == CA_CALLBACK_TIMER ? m->timers[cb->owner].time :
		cb->kind == CA_CALLBACK_SERVICE ? m->services[cb->owner].time :
		m->subscriptions[cb->owner].time;
}

/* The original's numbering class: 0 timers, 1 subscriptions (one counter
 * for both), 2 services, 3 ignored subscriptions. */
static int callback_class(const struct ca_model *m, const ca_callback *cb)
{
	if (cb->kind == CA_CALLBACK_TIMER)
		return 0;
	if (cb->kind == CA_CALLBACK_SERVICE)
		return 2;
	return subscription_ignored(m, &m->subscriptions[cb->owner]) ? 3 : 1;
}

static int by_class_then_time(const void *x, const void *y, void *ctx)
{
	const struct ca_model *sort_model = ctx;
	const ca_callback *a = &sort_model->callbacks[*(const size_t *)x];
	const ca_callback *b = &sort_model->callbacks[*(const size_t *)y];
	int ca = callback_class(sort_model, a), cb = callback_class(sort_model, b);
	if (ca != cb)
		return ca - cb;
	uint64_t ta = owner_time(sort_model, a), tb = owner_time(sort_model, b);
	if (ta != tb)
		return (ta > tb) - (ta < tb);
	return (*(const size_t *)x > *(const size_t *)y) - (*(const size_t *)x < *(const size_t *)y);
}

/* construction_order: the earlier callbacks alike in the node. */
static int order_alike(struct ca_model *m)
{
	size_t *previous_in_node = malloc((m->n_callbacks + 1) * sizeof *previous_in_node);
	size_t *last_in_node = malloc((m->n_nodes + 1) * sizeof *last_in_node);
	if (!previous_in_node || !last_in_node) {
		free(previous_in_node);
		free(last_in_node);
		return -1;
	}
	for (size_t i = 0; i < m->n_nodes; i++)
		last_in_node[i] = CA_NONE;
	for (size_t i = 0; i < m->n_callbacks; i++) {
		ca_callback *cb = &m->callbacks[i];
		previous_in_node[i] = CA_NONE;
		if (cb->node == CA_NONE)
			continue;
		for (size_t j = last_in_node[cb->node]; j != CA_NONE; j = previous_in_node[j])
			if (alike(m, cb, &m->callbacks[j]))
				cb->construction_order++;
		previous_in_node[i] = last_in_node[cb->node];
		last_in_node[cb->node] = i;
	}
	free(previous_in_node);
	free(last_in_node);
	return 0;
}

/* Names one node's callbacks (their indexes in `members`). */
static void name_node_callbacks(ca_trace *t, struct ca_model *m, size_t *members, size_t n)
{
	static const char *const what[] = { "callback", "callback", "service_callback",
		"ignored_callback" };
	size_t count[4] = { 0 }, next[4] = { 0 };
	caret_sort_r(members, n, sizeof *members, by_class_then_time, m);
	for (size_t i = 0; i < n; i++)
		count[callback_class(m, &m->callbacks[members[i]])]++;
	count[0] = count[1] += count[0]; /* timers and subscriptions: one counter */
	for (size_t i = 0; i < n; i++) {
		ca_callback *cb = &m->callbacks[members[i]];
		int c = callback_class(m, cb), k = c == 1 ? 0 : c;
		cb->name = intern_name(t, m->nodes[cb->node].fqn, what[c], next[k]++,
			digits(count[c]));
	}
}

static int name_callbacks(ca_trace *t, struct ca_model *m, struct counters *k)
{
	size_t *members = malloc((m->n_callbacks + 1) * sizeof *members);
	if (!members || order_alike(m)) {
		free(members);
		return -1;
	}
	/* Callbacks are sorted by pid, then creation: a node's are gathered
	 * by scanning for them (nodes are few next to callbacks per node). */
	for (size_t node = 0; node < m->n_nodes; node++) {
		size_t n = 0;
		for (size_t i = 0; i < m->n_callbacks; i++)
			if (m->callbacks[i].node == node)
				members[n++] = i;
		name_node_callbacks(t, m, members, n);
	}
	for (size_t i = 0; i < m->n_callbacks; i++) {
		ca_callback *cb = &m->callbacks[i];
		char buf[64];
		if (cb->node == CA_NONE)
			cb->name = intern_name(t, owner_of(m, cb->node, cb->pid, buf, sizeof buf),
				"callback", (*counter(k, m, cb->node, cb->pid))++, 1);
	}
	free(members);
	return 0;
}

/* ---- callback groups -------------------------------------------------------- */

/* 0 numbered (has a callback other than services, or only callbacks of
 * ignored topics: empty to the original, which numbers it), 1 service-only,
 * 2 empty. */
static int group_class(const struct ca_model *m, size_t g)
{
	bool services = false, ignored = false;
	for (size_t i = 0; i < m->n_callbacks; i++) {
		const ca_callback *cb = &m->callbacks[i];
		if (group_of(m, cb) != g)
			continue;
		if (cb->kind == CA_CALLBACK_SUBSCRIPTION &&
		    subscription_ignored(m, &m->subscriptions[cb->owner]))
			ignored = true; /* the original loads no such callback */
		else if (cb->kind != CA_CALLBACK_SERVICE)
			return 0;
		else
			services = true;
	}
	return services ? 1 : ignored ? 0 : 2;
}

/* Address order, the pid apart when two processes share an address. */
static int address_then_pid(uint64_t a, int64_t pid_a, uint64_t b, int64_t pid_b)
{
	if (a != b)
		return (a > b) - (a < b);
	return (pid_a > pid_b) - (pid_a < pid_b);
}

static int by_address(const void *x, const void *y, void *ctx)
{
	const struct ca_model *sort_model = ctx;
	const ca_callback_group *a = &sort_model->groups[*(const size_t *)x];
	const ca_callback_group *b = &sort_model->groups[*(const size_t *)y];
	return address_then_pid(a->address, a->pid, b->address, b->pid);
}

static int name_groups(ca_trace *t, struct ca_model *m, struct counters *k)
{
	static const char *const what[] = { "callback_group", "service_only_callback_group",
		"empty_callback_group" };
	size_t *order = malloc((m->n_groups + 1) * sizeof *order);
	int *classes = malloc((m->n_groups + 1) * sizeof *classes);
	if (!order || !classes) {
		free(order);
		free(classes);
		return -1;
	}
	for (size_t g = 0; g < m->n_groups; g++) {
		order[g] = g;
		classes[g] = group_class(m, g);
	}
	caret_sort_r(order, m->n_groups, sizeof *order, by_address, m);
	for (size_t node = 0; node < m->n_nodes; node++) {
		size_t next[3] = { 0 };
		for (size_t i = 0; i < m->n_groups; i++) {
			ca_callback_group *g = &m->groups[order[i]];
			if (g->node != node)
				continue;
			g->name = intern_name(t, m->nodes[node].fqn, what[classes[order[i]]],
				next[classes[order[i]]]++, 1);
			g->hidden = classes[order[i]] != 0 || m->nodes[node].hidden;
		}
	}
	for (size_t i = 0; i < m->n_groups; i++) {
		ca_callback_group *g = &m->groups[order[i]];
		char buf[64];
		if (g->node == CA_NONE)
			g->name = intern_name(t, owner_of(m, g->node, g->pid, buf, sizeof buf),
				"callback_group", (*counter(k, m, g->node, g->pid))++, 1);
	}
	free(order);
	free(classes);
	return 0;
}

/* ---- executors ---------------------------------------------------------- */

static int by_executor_address(const void *x, const void *y, void *ctx)
{
	const struct ca_model *sort_model = ctx;
	const ca_executor *a = &sort_model->executors[*(const size_t *)x];
	const ca_executor *b = &sort_model->executors[*(const size_t *)y];
	return address_then_pid(a->address, a->pid, b->address, b->pid);
}

/* Numbered: executors with a group of a known node, in address order,
 * the tracer's own included (then hidden: their numbers stay taken). */
static int name_executors(ca_trace *t, struct ca_model *m)
{
	size_t *order = malloc((m->n_executors + 1) * sizeof *order);
	bool *used = calloc(m->n_executors + 1, sizeof *used);
	if (!order || !used) {
		free(order);
		free(used);
		return -1;
	}
	for (size_t e = 0; e < m->n_executors; e++) {
		order[e] = e;
		m->executors[e].hidden = false;
	}
	for (size_t g = 0; g < m->n_groups; g++) {
		size_t e = m->groups[g].executor;
		if (e == CA_NONE || m->groups[g].node == CA_NONE)
			continue;
		used[e] = true;
		if (m->nodes[m->groups[g].node].hidden)
			m->executors[e].hidden = true;
	}
	size_t n_used = 0;
	for (size_t e = 0; e < m->n_executors; e++)
		n_used += used[e];
	caret_sort_r(order, m->n_executors, sizeof *order, by_executor_address, m);
	size_t next_used = 0, next_unused = 0;
	for (size_t i = 0; i < m->n_executors; i++) {
		ca_executor *e = &m->executors[order[i]];
		if (used[order[i]])
			e->name = intern_name(t, NULL, "executor", next_used++, digits(n_used));
		else {
			e->name = intern_name(t, NULL, "unused_executor", next_unused++, 1);
			e->hidden = true;
		}
	}
	free(order);
	free(used);
	return 0;
}

int ca_model_name_objects(ca_trace *t, struct ca_model *m)
{
	struct counters k = {
		calloc(m->n_nodes + 1, sizeof(size_t)),
		calloc(m->n_processes + 1, sizeof(size_t)),
	};
	int status = -1;
	if (k.per_node && k.per_process) {
		mark_hidden(m);
		if (!name_callbacks(t, m, &k)) {
			memset(k.per_process, 0, (m->n_processes + 1) * sizeof(size_t));
			if (!name_groups(t, m, &k))
				status = name_executors(t, m);
		}
	}
	free(k.per_node);
	free(k.per_process);
	return status || t->failed ? -1 : 0;
}
