/*
 * actions.c - ca_action_goals: the goals of actions among the service
 * calls. rclcpp_action (through rcl_action) sends a goal as a request of
 * the service ACTION/_action/send_goal and, once it is accepted and its
 * result wanted, asks ACTION/_action/get_result, whose response comes when
 * the goal is done (docs/latency.md, "actions").
 */
#include <stdlib.h>
#include <string.h>

#include "ca.h"
#include "vec.h"

#define SEND_GOAL "/_action/send_goal"
#define GET_RESULT "/_action/get_result"

/* The length of ACTION in a client's service name ACTION + suffix, 0 if
 * the name does not end so. */
static size_t action_length(const char *name, const char *suffix)
{
	size_t n = strlen(name), k = strlen(suffix);
	return n > k && !strcmp(name + n - k, suffix) ? n - k : 0;
}

/* Whether call c is a get_result of the action `action` (length len) from
 * node `node` of process pid. */
static bool result_call_of(const ca_architecture *a, const ca_service_call *c, int64_t pid,
	size_t node, const char *action, size_t len)
{
	if (c->client == CA_NONE || c->client_pid != pid || a->clients[c->client].node != node)
		return false;
	const char *name = a->clients[c->client].name;
	return action_length(name, GET_RESULT) == len && !strncmp(name, action, len);
}

size_t ca_action_goals(const ca_architecture *a, const ca_service_call *calls, size_t n,
	ca_action_goal **goals)
{
	ca_action_goal *out = NULL;
	size_t n_out = 0, cap = 0;
	bool *taken = calloc(n + 1, sizeof *taken); /* get_result calls already paired */
	if (!taken)
		return (size_t)-1;
	for (size_t i = 0; i < n; i++) {
		const ca_service_call *g = &calls[i];
		const char *name = g->client == CA_NONE ? NULL : a->clients[g->client].name;
		size_t len = name ? action_length(name, SEND_GOAL) : 0;
		if (!len)
			continue;
		ca_action_goal *x = VEC_PUSH(out, n_out, cap);
		if (!x) {
			free(out);
			free(taken);
			return (size_t)-1;
		}
		*x = (ca_action_goal){ name, (int)len, i, CA_NONE };
		/* the first get_result its node asked once the goal was answered
		 * (calls come in the order sent) */
		if (!g->take_response)
			continue;
		for (size_t j = i + 1; j < n; j++)
			if (!taken[j] && calls[j].send_request >= g->take_response &&
			    result_call_of(a, &calls[j], g->client_pid, a->clients[g->client].node, name,
				    len)) {
				x->get_result = j;
				taken[j] = true;
				break;
			}
	}
	free(taken);
	*goals = out;
	return n_out;
}
