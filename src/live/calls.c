/* calls.c - the user's service calls and action goals of a look (state.h):
 * a call's round trip, the client's send to its take of the response; a
 * goal's from its send_goal request to the take of its result (caret
 * latency services and actions measure the same). Rows by name, client
 * node and server node; ROS 2's own services (the parameters') left out. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "state.h"

static const char *node_of(const ca_architecture *a, size_t node)
{
	return node == CA_NONE ? "?" : a->nodes[node].fqn;
}

/* "NAME: CLIENT -> SERVER" of the call that names the row, into buf. */
static const char *row_name(const ca_architecture *a, const ca_service_call *c,
	const char *name, int name_length, char *buf, size_t size)
{
	size_t client = c->client == CA_NONE ? CA_NONE : a->clients[c->client].node;
	size_t server = c->service == CA_NONE ? CA_NONE : a->services[c->service].node;
	snprintf(buf, size, "%.*s: %s -> %s", name_length, name, node_of(a, client),
		node_of(a, server));
	return buf;
}

static bool users_call(const ca_architecture *a, const ca_service_call *c)
{
	return ca_client_is_users(a, c->client) || ca_service_is_users(a, c->service);
}

/* One sample from `start` to `end` (0: not there yet) into the row: counted
 * once when it ended in the look; on its way, the next look reads back to
 * its start. false out of memory. */
static bool count_span(struct live *L, struct live_series_list *rows, size_t hint,
	const char *name, uint64_t start, uint64_t end, uint64_t until)
{
	uint64_t lost = (uint64_t)(L->o->lookback_s * 1e9);
	if (!end || end > until) {
		if (start && start + lost > until && start < L->open_since)
			L->open_since = start;
		return true;
	}
	if (!start || end < start)
		return true;
	struct live_series *s = live_series_named(rows, hint, name, 0);
	return s && live_count_once(L, s, end, start) >= 0;
}

static bool count_services(struct live *L, const ca_architecture *a,
	const ca_service_call *calls, size_t n, uint64_t until)
{
	char name[512];
	bool ok = true;
	for (size_t i = 0; i < n && ok; i++) {
		const ca_service_call *c = &calls[i];
		if (!users_call(a, c))
			continue;
		const char *service = c->client != CA_NONE ? a->clients[c->client].name :
			c->service != CA_NONE ? a->services[c->service].name : "?";
		row_name(a, c, service, (int)strlen(service), name, sizeof name);
		ok = count_span(L, &L->services, i, name, c->send_request, c->take_response, until);
	}
	return ok;
}

static bool count_actions(struct live *L, const ca_architecture *a,
	const ca_service_call *calls, size_t n, uint64_t until)
{
	ca_action_goal *goals = NULL;
	size_t n_goals = n ? ca_action_goals(a, calls, n, &goals) : 0;
	char name[512];
	bool ok = n_goals != (size_t)-1;
	for (size_t i = 0; ok && i < n_goals; i++) {
		const ca_action_goal *g = &goals[i];
		const ca_service_call *send = &calls[g->send_goal];
		if (!users_call(a, send))
			continue;
		uint64_t result = g->get_result == CA_NONE ? 0 : calls[g->get_result].take_response;
		row_name(a, send, g->action, g->action_length, name, sizeof name);
		ok = count_span(L, &L->actions, i, name, send->send_request, result, until);
	}
	free(goals);
	return ok;
}

bool live_count_calls(struct live *L, const ca_trace *t, uint64_t until)
{
	char err[256];
	ca_service_calls *x = ca_service_calls_build(t, err, sizeof err);
	if (!x)
		return false;
	const ca_architecture *a = ca_trace_architecture(t);
	const ca_service_call *calls;
	size_t n = ca_service_calls_get(x, &calls);
	bool ok = count_services(L, a, calls, n, until) && count_actions(L, a, calls, n, until);
	ca_service_calls_free(x);
	return ok;
}
