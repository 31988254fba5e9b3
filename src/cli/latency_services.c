/*
 * latency_services.c - `caret latency services`: per service and client, each call's
 * request, service, response and round trip.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "latency_tables.h"
#include "sort_r.h"

/* ---- services ------------------------------------------------------------- */

static const char *client_node(const ca_architecture *a, size_t client)
{
	size_t n = client == CA_NONE ? CA_NONE : a->clients[client].node;
	return n == CA_NONE ? "?" : a->nodes[n].fqn;
}

static const char *service_node(const ca_architecture *a, size_t service)
{
	size_t n = service == CA_NONE ? CA_NONE : a->services[service].node;
	return n == CA_NONE ? "?" : a->nodes[n].fqn;
}

static const char *call_name(const ca_architecture *a, const ca_service_call *c)
{
	return c->client == CA_NONE ? "?" : a->clients[c->client].name;
}

/* By service name, client, service; then in the order sent. */
static int by_pair(const void *x, const void *y, void *ctx)
{
	const ca_architecture *call_arch = ctx;
	const ca_service_call *a = x, *b = y;
	int c = strcmp(call_name(call_arch, a), call_name(call_arch, b));
	if (c)
		return c;
	if (a->client != b->client)
		return a->client < b->client ? -1 : 1;
	if (a->service != b->service)
		return a->service < b->service ? -1 : 1;
	return (a->send_request > b->send_request) - (a->send_request < b->send_request);
}

int latency_services(const ca_trace *t, const ca_records *rec, const struct latency_output *out)
{
	enum cli_format f = out->format;
	FILE *records = out->records;
	(void)rec;
	char err[256];
	const ca_architecture *a = ca_trace_architecture(t);
	ca_service_calls *x = ca_service_calls_build(t, err, sizeof err);
	if (!x) {
		fprintf(stderr, "caret %s: %s\n", out->verb, err);
		return 1;
	}
	const ca_service_call *got;
	size_t n = ca_service_calls_get(x, &got);
	ca_service_call *calls = malloc((n + 1) * sizeof *calls);
	int64_t *values = malloc((n + 1) * sizeof *values);
	if (!calls || !values) {
		fprintf(stderr, "caret %s: out of memory\n", out->verb);
		free(calls);
		free(values);
		ca_service_calls_free(x);
		return 1;
	}
	if (n)
		memcpy(calls, got, n * sizeof *calls);
	caret_sort_r(calls, n, sizeof *calls, by_pair, (void *)a);
	if (records) {
		fprintf(records, "service,client,server,client_pid,server_pid,sequence_number,"
			"send_request_ns,take_request_ns,send_response_ns,take_response_ns\n");
		for (size_t i = 0; i < n; i++) {
			fprintf(records, "%s,%s,%s,%" PRId64 ",%" PRId64 ",%" PRId64,
				call_name(a, &calls[i]), client_node(a, calls[i].client),
				service_node(a, calls[i].service), calls[i].client_pid,
				calls[i].service_pid, calls[i].sequence_number);
			cli_csv_time(records, calls[i].send_request);
			cli_csv_time(records, calls[i].take_request);
			cli_csv_time(records, calls[i].send_response);
			cli_csv_time(records, calls[i].take_response);
			fputc('\n', records);
		}
	}
	latency_begin(out);
	if (f == CLI_TEXT)
		printf("%-56s %-10s %8s %10s %10s %10s %10s %10s %10s %10s\n", "service (client -> server)",
			"measure", "count", "min_us", "mean_us", "p50_us", "p90_us", "p99_us", "max_us",
			"incomplete");
	else if (f == CLI_CSV)
		printf("service,client,server,measure,count,min_ns,mean_ns,p50_ns,p90_ns,p99_ns,max_ns,"
			"incomplete\n");
	else
		printf("\"services\": [");
	bool first = true;
	for (size_t i = 0, j; i < n; i = j) {
		for (j = i; j < n && calls[j].client == calls[i].client &&
		     calls[j].service == calls[i].service &&
		     !strcmp(call_name(a, &calls[j]), call_name(a, &calls[i])); j++)
			;
		const char *name = call_name(a, &calls[i]), *client = client_node(a, calls[i].client),
			*server = service_node(a, calls[i].service);
		for (ca_call_measure m = 0; m < CA_CALL_MEASURES; m++) {
			size_t k = 0;
			for (size_t c = i; c < j; c++)
				k += ca_service_call_measure(&calls[c], m, &values[k]);
			ca_stats s;
			ca_stats_of(values, k, out->percentiles, &s);
			uint64_t incomplete = (uint64_t)(j - i - k);
			if (f == CLI_TEXT) {
				char label[512];
				snprintf(label, sizeof label, "%s (%s -> %s)", name, client, server);
				printf("%-56s %-10s ", CLI_NAME(label), ca_call_measure_name(m));
			} else if (f == CLI_CSV) {
				printf("%s,%s,%s,%s,", name, client, server, ca_call_measure_name(m));
			} else {
				printf("%s{\"service\": ", first ? "" : ", ");
				cli_json_string(stdout, name);
				printf(", \"client\": ");
				cli_json_string(stdout, client);
				printf(", \"server\": ");
				cli_json_string(stdout, server);
				printf(", \"measure\": \"%s\", ", ca_call_measure_name(m));
			}
			first = false;
			cli_print_stats(stdout, f, &s);
			printf(f == CLI_TEXT ? " %10" PRIu64 "\n" : f == CLI_CSV ? ",%" PRIu64 "\n" :
				", \"incomplete\": %" PRIu64 "}", incomplete);
		}
	}
	if (f == CLI_JSON)
		printf("]}\n");
	if (!n)
		fprintf(stderr, "note: no service calls in the trace (the rmw's requests and "
			"responses: recorded by caret-c's tracer, or by ros2_tracing from Kilted on)\n");
	uint64_t not_sent = ca_service_calls_not_sent(x);
	if (not_sent)
		fprintf(stderr, "note: %" PRIu64 " request%s taken by a service with no send in the "
			"trace\n", not_sent, not_sent == 1 ? "" : "s");
	free(calls);
	free(values);
	ca_service_calls_free(x);
	return 0;
}
