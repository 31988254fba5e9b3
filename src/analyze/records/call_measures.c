/*
 * call_measures.c - the latencies of a service call and of an action's
 * goal (ca.h), one definition for `caret latency services|actions`, the
 * report and the export (docs/latency.md, "services" and "actions").
 */
#include "ca.h"

static const char *const call_names[CA_CALL_MEASURES] = { "request", "service", "response",
	"round_trip" };
static const char *const goal_names[CA_GOAL_MEASURES] = { "goal", "result",
	"goal_to_result" };

const char *ca_call_measure_name(ca_call_measure m)
{
	return m < CA_CALL_MEASURES ? call_names[m] : "?";
}

const char *ca_goal_measure_name(ca_goal_measure m)
{
	return m < CA_GOAL_MEASURES ? goal_names[m] : "?";
}

/* A send is recorded once the rmw has written it: the other side's take
 * can come first, a request or response latency below 0. */
bool ca_service_call_measure(const ca_service_call *c, ca_call_measure m, int64_t *value)
{
	const uint64_t from[CA_CALL_MEASURES] = { c->send_request, c->take_request,
		c->send_response, c->send_request };
	const uint64_t to[CA_CALL_MEASURES] = { c->take_request, c->send_response,
		c->take_response, c->take_response };
	if (m >= CA_CALL_MEASURES)
		return false;
	*value = (int64_t)(to[m] - from[m]);
	return from[m] && to[m];
}

bool ca_action_goal_measure(const ca_service_call *calls, const ca_action_goal *g,
	ca_goal_measure m, int64_t *value)
{
	const ca_service_call *s = &calls[g->send_goal];
	const ca_service_call *r = g->get_result == CA_NONE ? NULL : &calls[g->get_result];
	uint64_t from = m == CA_GOAL_RESULT ? (r ? r->send_request : 0) : s->send_request;
	uint64_t to = m == CA_GOAL_GOAL ? s->take_response : r ? r->take_response : 0;
	*value = (int64_t)(to - from);
	return m < CA_GOAL_MEASURES && from && to;
}
