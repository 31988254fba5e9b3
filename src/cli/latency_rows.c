/*
 * latency_rows.c - the tables of `caret latency callbacks|topics|timers|nodes` in text,
 * CSV or JSON.
 */
#include <inttypes.h>
#include <math.h>
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
		printf("\"node_paths\": [");
	for (size_t i = 0; i < n; i++) {
		const struct latency_row *r = &rows[i];
		if (f == CLI_TEXT) {
			char name[512];
			snprintf(name, sizeof name, "%s %s -> %s", r->name, r->in, r->out);
			printf("%-60s ", CLI_NAME(name));
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

/* The columns of a table: topics have a delivery and two losses,
 * callbacks a period, frequencies and runs not ended, timers a period. */
struct columns {
	bool topics, callbacks;
	const char *loss_a; /* NULL: timers (their runs are the callbacks') */
};

static void print_header(enum cli_format f, const struct columns *c, enum latency_kind kind)
{
	if (f == CLI_TEXT)
		printf("%-44s %s%8s %10s %10s %10s %10s %10s %10s%s %12s%s\n",
			c->topics ? "topic" : "callback", c->topics ? "delivery " : "", "count",
			"min_us", "mean_us", "p50_us", "p90_us", "p99_us", "max_us",
			c->topics ? "" : c->callbacks ? "  period_us    freq_hz min_freq_hz" :
			"  period_us", c->loss_a ? c->loss_a : "", c->topics ? " not_published" : "");
	else if (f == CLI_CSV)
		printf("%s%s,count,min_ns,mean_ns,p50_ns,p90_ns,p99_ns,max_ns%s%s%s%s\n",
			c->topics ? "topic" : "callback", c->topics ? ",delivery" : "",
			c->topics ? "" : c->callbacks ? ",period_ns,frequency_hz,min_frequency_hz" :
			",period_ns", c->loss_a ? "," : "", c->loss_a ? c->loss_a : "",
			c->topics ? ",not_published" : "");
	else
		printf("\"%s\": [", c->topics ? "topics" : kind == LATENCY_TIMERS ? "timers" :
			"callbacks");
}

/* A callback's mean period: none of fewer than two runs (0 in the row);
 * a timer's, its own. */
static double period(const struct latency_row *r)
{
	return r->period ? (double)r->period : NAN;
}

static void print_text_row(const struct latency_row *r, const struct columns *c)
{
	printf("%-44s ", CLI_NAME(r->name));
	if (c->topics)
		printf("%-9s", r->delivery);
	cli_print_stats(stdout, CLI_TEXT, &r->stats);
	char b[3][32];
	if (!c->topics)
		printf(" %11s", cli_cell(CLI_TEXT, b[0], 1, period(r) / 1e3));
	if (c->callbacks)
		printf(" %10s %11s", cli_cell(CLI_TEXT, b[1], 1, r->hz),
			cli_cell(CLI_TEXT, b[2], 1, r->min_hz));
	if (c->loss_a)
		printf(" %12" PRIu64, r->lost_a);
	if (c->topics)
		printf(" %13" PRIu64, r->lost_b);
	printf("\n");
}

static void print_csv_row(const struct latency_row *r, const struct columns *c)
{
	printf("%s", r->name);
	if (c->topics)
		printf(",%s", r->delivery);
	printf(",");
	cli_print_stats(stdout, CLI_CSV, &r->stats);
	char b[3][32];
	if (!c->topics)
		printf(",%s", cli_cell(CLI_CSV, b[0], 0, period(r)));
	if (c->callbacks)
		printf(",%s,%s", cli_cell(CLI_CSV, b[1], 1, r->hz), cli_cell(CLI_CSV, b[2], 1, r->min_hz));
	if (c->loss_a)
		printf(",%" PRIu64, r->lost_a);
	if (c->topics)
		printf(",%" PRIu64, r->lost_b);
	printf("\n");
}

static void print_json_row(const struct latency_row *r, const struct columns *c, bool first)
{
	printf("%s{\"%s\": ", first ? "" : ", ", c->topics ? "topic" : "callback");
	cli_json_string(stdout, r->name);
	if (c->topics)
		printf(", \"delivery\": \"%s\"", r->delivery);
	printf(", ");
	cli_print_stats(stdout, CLI_JSON, &r->stats);
	char b[3][32];
	if (!c->topics)
		printf(", \"period_ns\": %s", cli_cell(CLI_JSON, b[0], 0, period(r)));
	if (c->callbacks)
		printf(", \"frequency_hz\": %s, \"min_frequency_hz\": %s",
			cli_cell(CLI_JSON, b[1], 1, r->hz), cli_cell(CLI_JSON, b[2], 1, r->min_hz));
	if (c->loss_a)
		printf(", \"%s\": %" PRIu64, c->loss_a, r->lost_a);
	if (c->topics)
		printf(", \"not_published\": %" PRIu64, r->lost_b);
	printf("}");
}

void latency_begin(const struct latency_output *out)
{
	cli_begin_output(out->verb, out->format, out->trace);
}

void latency_print_rows(const struct latency_row *rows, size_t n,
	const struct latency_output *out, enum latency_kind kind)
{
	enum cli_format f = out->format;
	latency_begin(out);
	if (kind == LATENCY_NODES) {
		print_node_rows(rows, n, f);
		return;
	}
	bool topics = kind == LATENCY_TOPICS;
	struct columns c = { topics, kind == LATENCY_CALLBACKS,
		topics ? "not_received" : kind == LATENCY_CALLBACKS ? "not_ended" : NULL };
	print_header(f, &c, kind);
	for (size_t i = 0; i < n; i++)
		if (f == CLI_TEXT)
			print_text_row(&rows[i], &c);
		else if (f == CLI_CSV)
			print_csv_row(&rows[i], &c);
		else
			print_json_row(&rows[i], &c, i == 0);
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
