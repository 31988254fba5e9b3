/*
 * latency_rows.c - the tables of `caret latency callbacks|topics|timers|nodes` in text,
 * CSV or JSON.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "latency_tables.h"


static void print_node_rows(const struct latency_row *rows, size_t n, enum cli_format f)
{
	if (f == CLI_TEXT)
		printf("%-60s %8s %10s %10s %10s %10s %10s %10s\n", "node path", "count", "min_us",
			"mean_us", "p50_us", "p90_us", "p99_us", "max_us");
	else if (f == CLI_CSV)
		printf("callback,subscribe_topic,publish_topic,count,min_ns,mean_ns,p50_ns,p90_ns,"
			"p99_ns,max_ns\n");
	else
		printf("{\"node_paths\": [");
	for (size_t i = 0; i < n; i++) {
		const struct latency_row *r = &rows[i];
		if (f == CLI_TEXT) {
			char name[512];
			snprintf(name, sizeof name, "%s %s -> %s", r->name, r->in, r->out);
			printf("%-60s ", name);
		} else if (f == CLI_CSV) {
			printf("%s,%s,%s,", r->name, r->in, r->out);
		} else {
			printf("%s{\"callback\": ", i ? ", " : "");
			cli_json_string(stdout, r->name);
			printf(", \"subscribe_topic\": ");
			cli_json_string(stdout, r->in);
			printf(", \"publish_topic\": ");
			cli_json_string(stdout, r->out);
			printf(", ");
		}
		cli_print_stats(stdout, f, &r->stats);
		printf(f == CLI_JSON ? "}" : "\n");
	}
	if (f == CLI_JSON)
		printf("]}\n");
}

void latency_print_rows(const struct latency_row *rows, size_t n, enum cli_format f,
	enum latency_kind kind)
{
	bool topics = kind == LATENCY_TOPICS;
	/* timers and nodes have no loss column: their runs are the callbacks' */
	const char *loss_a = topics ? "not_received" : kind == LATENCY_CALLBACKS ? "not_ended" : NULL;
	if (kind == LATENCY_NODES) {
		print_node_rows(rows, n, f);
		return;
	}
	if (f == CLI_TEXT)
		printf("%-44s %s%8s %10s %10s %10s %10s %10s %10s%s %12s%s\n",
			topics ? "topic" : "callback", topics ? "delivery " : "", "count", "min_us",
			"mean_us", "p50_us", "p90_us", "p99_us", "max_us",
			topics ? "" : kind == LATENCY_CALLBACKS ? "  period_us    freq_hz min_freq_hz" : "  period_us",
			loss_a ? loss_a : "", topics ? " not_published" : "");
	else if (f == CLI_CSV)
		printf("%s%s,count,min_ns,mean_ns,p50_ns,p90_ns,p99_ns,max_ns%s%s%s%s\n",
			topics ? "topic" : "callback", topics ? ",delivery" : "",
			topics ? "" : kind == LATENCY_CALLBACKS ? ",period_ns,frequency_hz,min_frequency_hz" :
			",period_ns", loss_a ? "," : "", loss_a ? loss_a : "",
			topics ? ",not_published" : "");
	else
		printf("{\"%s\": [", topics ? "topics" : kind == LATENCY_TIMERS ? "timers" : "callbacks");
	for (size_t i = 0; i < n; i++) {
		const struct latency_row *r = &rows[i];
		const ca_stats *s = &r->stats;
		if (f == CLI_TEXT) {
			printf("%-44s ", r->name);
			if (topics)
				printf("%-9s", r->delivery);
			cli_print_stats(stdout, f, s);
			if (!topics)
				printf(" %11.1f", r->period / 1e3);
			if (kind == LATENCY_CALLBACKS)
				printf(" %10.1f %11.1f", r->hz, r->min_hz);
			if (loss_a)
				printf(" %12" PRIu64, r->lost_a);
			if (topics)
				printf(" %13" PRIu64, r->lost_b);
			printf("\n");
		} else if (f == CLI_CSV) {
			printf("%s", r->name);
			if (topics)
				printf(",%s", r->delivery);
			printf(",");
			cli_print_stats(stdout, f, s);
			if (!topics)
				printf(",%" PRId64, r->period);
			if (kind == LATENCY_CALLBACKS)
				printf(",%.1f,%.1f", r->hz, r->min_hz);
			if (loss_a)
				printf(",%" PRIu64, r->lost_a);
			if (topics)
				printf(",%" PRIu64, r->lost_b);
			printf("\n");
		} else {
			printf("%s{\"%s\": ", i ? ", " : "", topics ? "topic" : "callback");
			cli_json_string(stdout, r->name);
			if (topics)
				printf(", \"delivery\": \"%s\"", r->delivery);
			printf(", ");
			cli_print_stats(stdout, f, s);
			if (!topics)
				printf(", \"period_ns\": %" PRId64, r->period);
			if (kind == LATENCY_CALLBACKS)
				printf(", \"frequency_hz\": %.1f, \"min_frequency_hz\": %.1f", r->hz, r->min_hz);
			if (loss_a)
				printf(", \"%s\": %" PRIu64, loss_a, r->lost_a);
			if (topics)
				printf(", \"not_published\": %" PRIu64, r->lost_b);
			printf("}");
		}
	}
	if (f == CLI_JSON)
		printf("]}\n");
}

bool latency_out_of_memory(struct latency_row *rows, int64_t *values)
{
	if (rows && values)
		return false;
	free(rows);
	free(values);
	fprintf(stderr, "caret latency: out of memory\n");
	return true;
}
