/*
 * latency_actions.c - `caret latency actions`: the goals of each action
 * (ca_action_goals, over the trace's service calls), per action, client
 * node and server node: the goal's round trip (send_goal), the result's
 * (get_result), and the goal to its result (the client's send_goal request
 * to its take of the result), docs/latency.md "actions".
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "latency_tables.h"

static const ca_architecture *arch;
static const ca_service_call *goal_calls;

static const char *node_of_client(size_t client)
{
	size_t n = client == CA_NONE ? CA_NONE : arch->clients[client].node;
	return n == CA_NONE ? "?" : arch->nodes[n].fqn;
}

static const char *node_of_service(size_t service)
{
	size_t n = service == CA_NONE ? CA_NONE : arch->services[service].node;
	return n == CA_NONE ? "?" : arch->nodes[n].fqn;
}

/* The three measures of a goal: 0 goal, 1 result, 2 goal to result; false
 * when the trace lacks one of its ends. */
static bool goal_measure(const ca_action_goal *g, int m, int64_t *value)
{
	const ca_service_call *s = &goal_calls[g->send_goal];
	const ca_service_call *r = g->get_result == CA_NONE ? NULL : &goal_calls[g->get_result];
	uint64_t from = m == 1 ? (r ? r->send_request : 0) : s->send_request;
	uint64_t to = m == 0 ? s->take_response : r ? r->take_response : 0;
	*value = (int64_t)(to - from);
	return from && to;
}

/* Goals of one row: the same action, client node and server node. */
static int row_key(const ca_action_goal *a, const ca_action_goal *b)
{
	if (a->action_length != b->action_length)
		return a->action_length < b->action_length ? -1 : 1;
	int c = strncmp(a->action, b->action, (size_t)a->action_length);
	if (c)
		return c;
	c = strcmp(node_of_client(goal_calls[a->send_goal].client),
		node_of_client(goal_calls[b->send_goal].client));
	return c ? c : strcmp(node_of_service(goal_calls[a->send_goal].service),
		node_of_service(goal_calls[b->send_goal].service));
}

static int by_row_then_sent(const void *x, const void *y)
{
	const ca_action_goal *a = x, *b = y;
	int c = row_key(a, b);
	if (c)
		return c;
	uint64_t sa = goal_calls[a->send_goal].send_request, sb = goal_calls[b->send_goal].send_request;
	return (sa > sb) - (sa < sb);
}

static void write_records(FILE *out, const ca_action_goal *goals, size_t n)
{
	fprintf(out, "action,client,server,client_pid,goal_send_ns,goal_accepted_ns,"
		"result_request_ns,result_ns\n");
	for (size_t i = 0; i < n; i++) {
		const ca_service_call *s = &goal_calls[goals[i].send_goal];
		const ca_service_call *r = goals[i].get_result == CA_NONE ? NULL :
			&goal_calls[goals[i].get_result];
		fprintf(out, "%.*s,%s,%s,%" PRId64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 "\n",
			goals[i].action_length, goals[i].action, node_of_client(s->client),
			node_of_service(s->service), s->client_pid, s->send_request, s->take_response,
			r ? r->send_request : 0, r ? r->take_response : 0);
	}
}

static void print_row(enum cli_format f, const ca_action_goal *g, const char *measure,
	const ca_stats *s, uint64_t incomplete, bool first)
{
	const char *client = node_of_client(goal_calls[g->send_goal].client);
	const char *server = node_of_service(goal_calls[g->send_goal].service);
	if (f == CLI_TEXT) {
		char label[512];
		snprintf(label, sizeof label, "%.*s (%s -> %s)", g->action_length, g->action, client,
			server);
		printf("%-48s %-14s ", label, measure);
	} else if (f == CLI_CSV) {
		printf("%.*s,%s,%s,%s,", g->action_length, g->action, client, server, measure);
	} else {
		char action[512];
		snprintf(action, sizeof action, "%.*s", g->action_length, g->action);
		printf("%s{\"action\": ", first ? "" : ", ");
		cli_json_string(stdout, action);
		printf(", \"client\": ");
		cli_json_string(stdout, client);
		printf(", \"server\": ");
		cli_json_string(stdout, server);
		printf(", \"measure\": \"%s\", ", measure);
	}
	cli_print_stats(stdout, f, s);
	printf(f == CLI_TEXT ? " %10" PRIu64 "\n" : f == CLI_CSV ? ",%" PRIu64 "\n" :
		", \"incomplete\": %" PRIu64 "}", incomplete);
}

int latency_actions(const ca_trace *t, const ca_records *rec, const struct latency_output *out)
{
	enum cli_format f = out->format;
	FILE *records = out->records;
	(void)rec; /* its goals are the service calls' */
	static const char *const measures[] = { "goal", "result", "goal_to_result" };
	char err[256];
	ca_service_calls *x = ca_service_calls_build(t, err, sizeof err);
	if (!x) {
		fprintf(stderr, "caret latency: %s\n", err);
		return 1;
	}
	arch = ca_trace_architecture(t);
	size_t n_calls = ca_service_calls_get(x, &goal_calls);
	ca_action_goal *goals = NULL;
	size_t n = ca_action_goals(arch, goal_calls, n_calls, &goals);
	int64_t *values = n == (size_t)-1 ? NULL : malloc((n + 1) * sizeof *values);
	if (!values) {
		fprintf(stderr, "caret latency: out of memory\n");
		free(goals);
		ca_service_calls_free(x);
		return 1;
	}
	qsort(goals, n, sizeof *goals, by_row_then_sent);
	if (records)
		write_records(records, goals, n);
	if (f == CLI_TEXT)
		printf("%-48s %-14s %8s %10s %10s %10s %10s %10s %10s %10s\n",
			"action (client -> server)", "measure", "count", "min_us", "mean_us", "p50_us",
			"p90_us", "p99_us", "max_us", "incomplete");
	else if (f == CLI_CSV)
		printf("action,client,server,measure,count,min_ns,mean_ns,p50_ns,p90_ns,p99_ns,max_ns,"
			"incomplete\n");
	else
		printf("{\"actions\": [");
	for (size_t i = 0, j; i < n; i = j) {
		for (j = i; j < n && !row_key(&goals[i], &goals[j]); j++)
			;
		for (int m = 0; m < 3; m++) {
			size_t k = 0;
			for (size_t g = i; g < j; g++)
				k += goal_measure(&goals[g], m, &values[k]);
			ca_stats s;
			ca_stats_of(values, k, out->percentiles, &s);
			print_row(f, &goals[i], measures[m], &s, (uint64_t)(j - i - k), !i && !m);
		}
	}
	if (f == CLI_JSON)
		printf("]}\n");
	if (!n)
		fprintf(stderr, "note: no action goals in the trace (calls of ACTION/_action/send_goal: "
			"rclcpp_action's, recorded by caret-c's tracer or by ros2_tracing from Kilted "
			"on)\n");
	free(values);
	free(goals);
	ca_service_calls_free(x);
	return 0;
}
