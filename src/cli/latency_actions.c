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
#include "sort_r.h"

/* What the goals' indexes name: the architecture and the service calls. */
struct goal_view {
	const ca_architecture *arch;
	const ca_service_call *calls;
};

static const char *node_of_client(const struct goal_view *v, size_t client)
{
	size_t n = client == CA_NONE ? CA_NONE : v->arch->clients[client].node;
	return n == CA_NONE ? "?" : v->arch->nodes[n].fqn;
}

static const char *node_of_service(const struct goal_view *v, size_t service)
{
	size_t n = service == CA_NONE ? CA_NONE : v->arch->services[service].node;
	return n == CA_NONE ? "?" : v->arch->nodes[n].fqn;
}

/* Goals of one row: the same action, client node and server node. */
static int row_key(const struct goal_view *v, const ca_action_goal *a, const ca_action_goal *b)
{
	if (a->action_length != b->action_length)
		return a->action_length < b->action_length ? -1 : 1;
	int c = strncmp(a->action, b->action, (size_t)a->action_length);
	if (c)
		return c;
	c = strcmp(node_of_client(v, v->calls[a->send_goal].client),
		node_of_client(v, v->calls[b->send_goal].client));
	return c ? c : strcmp(node_of_service(v, v->calls[a->send_goal].service),
		node_of_service(v, v->calls[b->send_goal].service));
}

static int by_row_then_sent(const void *x, const void *y, void *ctx)
{
	const struct goal_view *v = ctx;
	const ca_action_goal *a = x, *b = y;
	int c = row_key(v, a, b);
	if (c)
		return c;
	uint64_t sa = v->calls[a->send_goal].send_request, sb = v->calls[b->send_goal].send_request;
	return (sa > sb) - (sa < sb);
}

static void write_records(FILE *out, const struct goal_view *v, const ca_action_goal *goals,
	size_t n)
{
	fprintf(out, "action,client,server,client_pid,goal_send_ns,goal_accepted_ns,"
		"result_request_ns,result_ns\n");
	for (size_t i = 0; i < n; i++) {
		const ca_service_call *s = &v->calls[goals[i].send_goal];
		const ca_service_call *r = goals[i].get_result == CA_NONE ? NULL :
			&v->calls[goals[i].get_result];
		fprintf(out, "%.*s,%s,%s,%" PRId64, goals[i].action_length, goals[i].action,
			node_of_client(v, s->client), node_of_service(v, s->service), s->client_pid);
		cli_csv_time(out, s->send_request);
		cli_csv_time(out, s->take_response);
		cli_csv_time(out, r ? r->send_request : 0);
		cli_csv_time(out, r ? r->take_response : 0);
		fputc('\n', out);
	}
}

static void print_row(const struct goal_view *v, enum cli_format f, const ca_action_goal *g,
	const char *measure,
	const ca_stats *s, uint64_t incomplete, bool first)
{
	const char *client = node_of_client(v, v->calls[g->send_goal].client);
	const char *server = node_of_service(v, v->calls[g->send_goal].service);
	if (f == CLI_TEXT) {
		char label[512];
		snprintf(label, sizeof label, "%.*s (%s -> %s)", g->action_length, g->action, client,
			server);
		printf("%-48s %-14s ", CLI_NAME(label), measure);
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
	char err[256];
	ca_service_calls *x = ca_service_calls_build(t, err, sizeof err);
	if (!x) {
		fprintf(stderr, "caret %s: %s\n", out->verb, err);
		return 1;
	}
	struct goal_view view = { ca_trace_architecture(t), NULL }, *v = &view;
	size_t n_calls = ca_service_calls_get(x, &view.calls);
	ca_action_goal *goals = NULL;
	size_t n = ca_action_goals(view.arch, view.calls, n_calls, &goals);
	int64_t *values = n == (size_t)-1 ? NULL : malloc((n + 1) * sizeof *values);
	if (!values) {
		fprintf(stderr, "caret %s: out of memory\n", out->verb);
		free(goals);
		ca_service_calls_free(x);
		return 1;
	}
	caret_sort_r(goals, n, sizeof *goals, by_row_then_sent, v);
	if (records)
		write_records(records, v, goals, n);
	latency_begin(out);
	if (f == CLI_TEXT)
		printf("%-48s %-14s %8s %10s %10s %10s %10s %10s %10s %10s\n",
			"action (client -> server)", "measure", "count", "min_us", "mean_us", "p50_us",
			"p90_us", "p99_us", "max_us", "incomplete");
	else if (f == CLI_CSV)
		printf("action,client,server,measure,count,min_ns,mean_ns,p50_ns,p90_ns,p99_ns,max_ns,"
			"incomplete\n");
	else
		printf("\"actions\": [");
	for (size_t i = 0, j; i < n; i = j) {
		for (j = i; j < n && !row_key(v, &goals[i], &goals[j]); j++)
			;
		for (ca_goal_measure m = 0; m < CA_GOAL_MEASURES; m++) {
			size_t k = 0;
			for (size_t g = i; g < j; g++)
				k += ca_action_goal_measure(v->calls, &goals[g], m, &values[k]);
			ca_stats s;
			ca_stats_of(values, k, out->percentiles, &s);
			print_row(v, f, &goals[i], ca_goal_measure_name(m), &s, (uint64_t)(j - i - k), !i && !m);
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
