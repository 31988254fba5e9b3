/*
 * names.c - names that stay the same from one run to the next, where
 * addresses and pids do not: "/ns/node/callback_N" and
 * "/ns/node/callback_group_N" by creation order within the node,
 * "executor_N" in the order of the executors' first group names.
 * Objects without a node are named after their pid ("pid 123/callback_0").
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model.h"

static const char *intern_name(ca_trace *t, const char *owner, const char *what, size_t n)
{
	char buf[4096];
	if (owner)
		snprintf(buf, sizeof buf, "%s/%s_%zu", owner, what, n);
	else
		snprintf(buf, sizeof buf, "%s_%zu", what, n);
	return ca_trace_string(t, ca_trace_intern(t, buf));
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

static int name_callbacks(ca_trace *t, struct ca_model *m, struct counters *k)
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
		char buf[64];
		size_t *n = counter(k, m, cb->node, cb->pid);
		cb->name = intern_name(t, owner_of(m, cb->node, cb->pid, buf, sizeof buf),
			"callback", (*n)++);
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

static void name_groups(ca_trace *t, struct ca_model *m, struct counters *k)
{
	for (size_t i = 0; i < m->n_groups; i++) {
		ca_callback_group *g = &m->groups[i];
		char buf[64];
		size_t *n = counter(k, m, g->node, g->pid);
		g->name = intern_name(t, owner_of(m, g->node, g->pid, buf, sizeof buf),
			"callback_group", (*n)++);
	}
}

/* ---- executors ---------------------------------------------------------- */

struct executor_key {
	const char *first_group; /* smallest group name, NULL: no group */
	uint64_t time;
	size_t index;
};

static int by_first_group(const void *a, const void *b)
{
	const struct executor_key *x = a, *y = b;
	if (x->first_group && y->first_group) {
		int c = strcmp(x->first_group, y->first_group);
		if (c)
			return c;
	} else if (x->first_group || y->first_group) {
		return x->first_group ? -1 : 1;
	}
	return (x->time > y->time) - (x->time < y->time);
}

static int name_executors(ca_trace *t, struct ca_model *m)
{
	struct executor_key *keys = calloc(m->n_executors + 1, sizeof *keys);
	if (!keys)
		return -1;
	for (size_t i = 0; i < m->n_executors; i++)
		keys[i] = (struct executor_key){ NULL, m->executors[i].time, i };
	for (size_t g = 0; g < m->n_groups; g++) {
		size_t e = m->groups[g].executor;
		if (e != CA_NONE && (!keys[e].first_group ||
			strcmp(m->groups[g].name, keys[e].first_group) < 0))
			keys[e].first_group = m->groups[g].name;
	}
	if (m->n_executors > 1)
		qsort(keys, m->n_executors, sizeof *keys, by_first_group);
	for (size_t i = 0; i < m->n_executors; i++)
		m->executors[keys[i].index].name = intern_name(t, NULL, "executor", i);
	free(keys);
	return 0;
}

int ca_model_name_objects(ca_trace *t, struct ca_model *m)
{
	struct counters k = {
		calloc(m->n_nodes + 1, sizeof(size_t)),
		calloc(m->n_processes + 1, sizeof(size_t)),
	};
	int status = -1;
	if (k.per_node && k.per_process && !name_callbacks(t, m, &k)) {
		memset(k.per_node, 0, (m->n_nodes + 1) * sizeof(size_t));
		memset(k.per_process, 0, (m->n_processes + 1) * sizeof(size_t));
		name_groups(t, m, &k);
		status = name_executors(t, m);
	}
	free(k.per_node);
	free(k.per_process);
	return status || t->failed ? -1 : 0;
}
