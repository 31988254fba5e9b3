/*
 * latency_split.c - `caret latency topics --split`: where each message
 * waited. Per topic, the inter-process messages' latency (callback start -
 * publish) and its three parts: the publish to its DDS write, the write to
 * its reception by the subscriber's middleware, the reception to the
 * callback start (the wait for the executor), as ca_records_message_hops
 * tells them; the messages it cannot split are counted, not guessed.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "latency_tables.h"

enum part { TOTAL, TO_WRITE, IN_MIDDLEWARE, TO_CALLBACK, N_PARTS };

static const char *const part_names[N_PARTS] = {
	"total", "publish_to_write", "write_to_reception", "reception_to_callback",
};

/* One topic's split messages: each part's statistics. */
struct split_row {
	const char *topic;
	size_t messages, split; /* inter-process messages handled, of them split */
	ca_stats parts[N_PARTS];
};

static void print_header(enum cli_format f)
{
	if (f == CLI_TEXT)
		printf("%-40s %9s %8s %-22s %10s %10s %10s %10s %10s %10s\n", "topic", "messages",
			"split", "part", "min_us", "mean_us", "p50_us", "p90_us", "p99_us", "max_us");
	else if (f == CLI_CSV)
		printf("topic,messages,split,part,count,min_ns,mean_ns,p50_ns,p90_ns,p99_ns,max_ns\n");
	else
		printf("\"split\": [");
}

static void print_row(const struct split_row *r, enum cli_format f, bool first)
{
	if (f == CLI_JSON) {
		printf("%s{\"topic\": ", first ? "" : ", ");
		cli_json_string(stdout, r->topic);
		printf(", \"messages\": %zu, \"split\": %zu", r->messages, r->split);
		for (int p = 0; p < N_PARTS; p++) {
			printf(", \"%s\": {", part_names[p]);
			cli_print_stats(stdout, f, &r->parts[p]);
			printf("}");
		}
		printf("}");
		return;
	}
	for (int p = 0; p < N_PARTS; p++) {
		if (f == CLI_TEXT && !p)
			printf("%-40s %9zu %8zu %-22s", CLI_NAME(r->topic), r->messages, r->split,
				part_names[p]);
		else if (f == CLI_TEXT)
			printf("%-40s %9s %8s %-22s", "", "", "", part_names[p]);
		else
			printf("%s,%zu,%zu,%s,", r->topic, r->messages, r->split, part_names[p]);
		cli_print_stats(stdout, f, &r->parts[p]);
		printf("\n");
	}
}

/* The --records line of a message: its parts, empty when not split. */
static void print_record(FILE *out, const char *topic, const ca_communication *c,
	const ca_callback_instance *run, uint64_t publish, const ca_message_hops *h)
{
	fprintf(out, "%s,%" PRIu64 ",%" PRIu64 ",%" PRId64 ",", topic, c->source_stamp, publish,
		(int64_t)(run->start - publish));
	if (h)
		fprintf(out, "%" PRId64 ",%" PRId64 ",%" PRId64 "\n", h->to_write, h->in_middleware,
			h->to_callback);
	else
		fprintf(out, ",,\n");
}

/* A topic's row from its inter-process messages (values: room for them,
 * per part). */
static void split_topic(const ca_records *rec, const char *topic, const size_t *messages,
	size_t n, int64_t *values[N_PARTS], struct split_row *row, FILE *records,
	ca_percentile_method percentiles)
{
	const ca_communication *c;
	const ca_callback_instance *runs;
	const ca_publish_instance *pubs;
	ca_records_communications(rec, &c);
	ca_records_callbacks(rec, &runs);
	ca_records_publishes(rec, &pubs);
	*row = (struct split_row){ .topic = topic, .messages = n };
	for (size_t i = 0; i < n; i++) {
		const ca_communication *x = &c[messages[i]];
		uint64_t publish = ca_publish_time(&pubs[x->publish]);
		ca_message_hops h;
		bool split = ca_records_message_hops(rec, messages[i], &h);
		if (records)
			print_record(records, topic, x, &runs[x->callback_instance], publish,
				split ? &h : NULL);
		if (!split)
			continue;
		size_t k = row->split++;
		values[TOTAL][k] = (int64_t)(runs[x->callback_instance].start - publish);
		values[TO_WRITE][k] = h.to_write;
		values[IN_MIDDLEWARE][k] = h.in_middleware;
		values[TO_CALLBACK][k] = h.to_callback;
	}
	for (int p = 0; p < N_PARTS; p++)
		ca_stats_of(values[p], row->split, percentiles, &row->parts[p]);
}

/* Why nothing could be split, in one line. */
static void say_none(const struct latency_output *out, size_t inter, size_t intra)
{
	if (!inter)
		fprintf(stderr, "caret %s --split: no inter-process message in the trace%s: only "
			"those cross a middleware\n", out->verb, intra ? " (intra-process only)" : "");
	else
		fprintf(stderr, "caret %s --split: none of %zu inter-process messages has its "
			"reception by the subscriber's middleware in the trace: it was recorded by "
			"another tracer (the original CARET's, ros2_tracing) or an older caret-c; "
			"record again with caret record\n", out->verb, inter);
}

int latency_topics_split(const ca_trace *t, const ca_records *rec,
	const struct latency_output *out)
{
	const ca_topic_count *topics;
	const ca_communication *all;
	size_t n_all = ca_records_communications(rec, &all), n_topics = ca_trace_topic_counts(t, &topics);
	struct split_row *rows = calloc(n_topics + 1, sizeof *rows);
	size_t *messages = malloc((n_all + 1) * sizeof *messages);
	int64_t *values[N_PARTS] = { 0 };
	bool oom = !rows || !messages;
	for (int p = 0; p < N_PARTS; p++)
		oom |= !(values[p] = malloc((n_all + 1) * sizeof *values[p]));
	size_t n_rows = 0, inter = 0, intra = 0, split = 0;
	int status = 1;
	if (oom) {
		fprintf(stderr, "caret %s: out of memory\n", out->verb);
		goto out;
	}
	if (out->records)
		fprintf(out->records, "topic,source_stamp,publish_ns,latency_ns,publish_to_write_ns,"
			"write_to_reception_ns,reception_to_callback_ns\n");
	for (size_t k = 0; k < n_topics; k++) {
		uint64_t not_published;
		intra += ca_records_topic_messages(rec, topics[k].topic, true, messages,
			&not_published);
		size_t m = ca_records_topic_messages(rec, topics[k].topic, false, messages,
			&not_published);
		if (!m)
			continue;
		split_topic(rec, topics[k].topic, messages, m, values, &rows[n_rows], out->records,
			out->percentiles);
		inter += m;
		split += rows[n_rows++].split;
	}
	if (!split) {
		say_none(out, inter, intra);
		goto out;
	}
	latency_begin(out);
	print_header(out->format);
	for (size_t i = 0; i < n_rows; i++)
		print_row(&rows[i], out->format, !i);
	if (out->format == CLI_JSON)
		printf("], \"reception\": \"%s\"}\n",
			ca_records_reception_kinds(rec) & CA_RECEPTION_ARRIVAL_ORDER ?
			"arrival_order" : "middleware_time");
	else if (out->format == CLI_TEXT && ca_records_reception_kinds(rec) &
		 CA_RECEPTION_ARRIVAL_ORDER)
		printf("(Cyclone DDS: each reception is its reader's arrival, matched in the order "
			"of the writes and no later than the take; docs/latency.md)\n");
	if (out->format == CLI_TEXT && split < inter)
		printf("(%zu of %zu inter-process messages not split: their publish, DDS write or "
			"reception is not in the trace)\n", inter - split, inter);
	status = 0;
out:
	for (int p = 0; p < N_PARTS; p++)
		free(values[p]);
	free(messages);
	free(rows);
	return status;
}
