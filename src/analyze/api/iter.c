/*
 * iter.c - caret/analyze.h's iterators: over the visible callbacks, the
 * communications (a publisher's messages to a subscription), and the
 * paths a search found.
 */
#include <stdlib.h>
#include <string.h>

#include "api.h"
#include "error_build.h"
#include "vec.h"

enum iter_kind { CALLBACKS, COMMUNICATIONS, PATHS };

struct caret_iter {
	enum iter_kind kind;
	const caret_trace *t;
	size_t next;
	ca_path_set *paths; /* PATHS */
	caret_policy *policies; /* PATHS: the last path's, as the public enum */
};

static caret_iter *new_iter(const caret_trace *t, enum iter_kind kind)
{
	caret_iter *it = t ? calloc(1, sizeof *it) : NULL;
	if (it)
		*it = (caret_iter){ kind, t, 0, NULL, NULL };
	return it;
}

void caret_iter_free(caret_iter *it)
{
	if (!it)
		return;
	ca_path_set_free(it->paths);
	free(it->policies);
	free(it);
}

/* ---- callbacks ---- */

caret_iter *caret_callbacks(const caret_trace *t)
{
	return new_iter(t, CALLBACKS);
}

static void fill_callback(const ca_architecture *a, size_t i, caret_callback *out)
{
	const ca_callback *c = &a->callbacks[i];
	*out = (caret_callback){ .id = i, .name = c->name, .symbol = c->symbol, .pid = c->pid,
		.node = c->node == CA_NONE ? NULL : a->nodes[c->node].fqn };
	switch (c->kind) {
	case CA_CALLBACK_TIMER:
		out->type = CARET_CALLBACK_TIMER;
		out->period_ns = c->owner == CA_NONE ? 0 : a->timers[c->owner].period_ns;
		break;
	case CA_CALLBACK_SUBSCRIPTION:
		out->type = CARET_CALLBACK_SUBSCRIPTION;
		out->topic = c->owner == CA_NONE ? NULL : a->subscriptions[c->owner].topic;
		break;
	case CA_CALLBACK_SERVICE:
		out->type = CARET_CALLBACK_SERVICE;
		out->topic = c->owner == CA_NONE ? NULL : a->services[c->owner].name;
		break;
	}
}

bool caret_next_callback(caret_iter *it, caret_callback *callback)
{
	if (!it || it->kind != CALLBACKS || !callback)
		return false;
	const ca_architecture *a = ca_trace_architecture(it->t->trace);
	while (it->next < a->n_callbacks && a->callbacks[it->next].hidden)
		it->next++;
	if (it->next >= a->n_callbacks)
		return false;
	fill_callback(a, it->next++, callback);
	return true;
}

/* ---- communications ---- */

static bool comm_visible(const ca_architecture *a, size_t p, size_t s)
{
	const ca_publisher *pub = &a->publishers[p];
	const ca_subscription *sub = &a->subscriptions[s];
	return !pub->hidden && !sub->hidden && pub->topic == sub->topic &&
		sub->callback != CA_NONE && !a->callbacks[sub->callback].hidden;
}

bool caret_api_find_communications(caret_trace *t)
{
	const ca_architecture *a = ca_trace_architecture(t->trace);
	size_t cap = 0;
	for (size_t p = 0; p < a->n_publishers; p++)
		for (size_t s = 0; s < a->n_subscriptions; s++) {
			if (!comm_visible(a, p, s))
				continue;
			struct caret_api_comm *c = VEC_PUSH(t->comms, t->n_comms, cap);
			if (!c)
				return false;
			*c = (struct caret_api_comm){ p, s, true };
		}
	/* a topic's messages with no publish belong to its publisher only
	 * when it has one */
	for (size_t i = 0; i < t->n_comms; i++)
		for (size_t j = 0; j < t->n_comms; j++)
			if (t->comms[i].subscription == t->comms[j].subscription &&
			    t->comms[i].publisher != t->comms[j].publisher)
				t->comms[i].sole = false;
	return true;
}

caret_iter *caret_communications(const caret_trace *t)
{
	return new_iter(t, COMMUNICATIONS);
}

bool caret_next_communication(caret_iter *it, caret_communication *out)
{
	if (!it || it->kind != COMMUNICATIONS || !out || it->next >= it->t->n_comms)
		return false;
	const ca_architecture *a = ca_trace_architecture(it->t->trace);
	const struct caret_api_comm *c = &it->t->comms[it->next];
	const ca_publisher *p = &a->publishers[c->publisher];
	const ca_subscription *s = &a->subscriptions[c->subscription];
	*out = (caret_communication){ .id = it->next++, .topic = p->topic,
		.publisher_node = p->node == CA_NONE ? NULL : a->nodes[p->node].fqn,
		.subscription_node = s->node == CA_NONE ? NULL : a->nodes[s->node].fqn,
		.callback = s->callback, .callback_name = a->callbacks[s->callback].name };
	return true;
}

/* ---- paths ---- */

caret_iter *caret_search_paths(const caret_trace *t, const char *from, const char *to,
	size_t max_depth, caret_error **error)
{
	char err[1024];
	if (!error)
		return NULL;
	*error = NULL;
	if (!API_GIVEN_TRACE(t, error) || !API_GIVEN(from, error) || !API_GIVEN(to, error))
		return NULL;
	caret_iter *it = new_iter(t, PATHS);
	if (!it) {
		caret_error_add(error, CARET_ERR_NO_MEMORY, NULL, -1, NULL, "out of memory");
		return NULL;
	}
	/* any max_depth: the search goes no deeper than the trace's node count */
	if (!(it->paths = ca_path_search(t->trace, from, to, max_depth ? max_depth : 20, 1000, err,
		      sizeof err))) {
		caret_error_add(error, strstr(err, "memory") ? CARET_ERR_NO_MEMORY :
			CARET_ERR_NOT_FOUND, NULL, -1, NULL, "%s", err);
		caret_iter_free(it);
		return NULL;
	}
	return it;
}

static caret_policy to_public(ca_node_policy p)
{
	switch (p) {
	case CA_POLICY_CALLBACK_CHAIN: return CARET_POLICY_CALLBACK_CHAIN;
	case CA_POLICY_USE_LATEST_MESSAGE: return CARET_POLICY_USE_LATEST_MESSAGE;
	case CA_POLICY_INHERIT_UNIQUE_STAMP: return CARET_POLICY_INHERIT_UNIQUE_STAMP;
	case CA_POLICY_CONSUME_LATEST_MESSAGE: return CARET_POLICY_CONSUME_LATEST_MESSAGE;
	default: return CARET_POLICY_DEFAULT;
	}
}

bool caret_next_path(caret_iter *it, caret_path *path)
{
	const ca_path *paths;
	if (!it || it->kind != PATHS || !path || it->next >= ca_path_set_paths(it->paths, &paths))
		return false;
	const ca_path *p = &paths[it->next++];
	*path = (caret_path){ p->node_count, p->nodes, p->topics, NULL };
	free(it->policies);
	it->policies = NULL;
	if (p->policies && (it->policies = malloc(p->node_count * sizeof *it->policies))) {
		for (size_t i = 0; i < p->node_count; i++)
			it->policies[i] = to_public(p->policies[i]);
		path->policies = it->policies;
	}
	return true;
}

caret_iter *caret_api_paths_iter(ca_path_set *set)
{
	caret_iter *it = calloc(1, sizeof *it);
	if (!it) {
		ca_path_set_free(set);
		return NULL;
	}
	*it = (caret_iter){ PATHS, NULL, 0, set, NULL };
	return it;
}
