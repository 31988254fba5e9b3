/*
 * latency_topics.c - `caret latency topics` and `nodes`: communication latency per topic
 * and delivery, and the node latency per node path (callback_chain).
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "latency_tables.h"

/* ---- topics ------------------------------------------------------------- */

/* A topic's row of one delivery, if it has anything to show: 1, else 0. */
static size_t topic_row(struct latency_row *r, const char *topic, bool intra, int64_t *values,
	size_t n, uint64_t not_received, uint64_t not_published, ca_percentile_method percentiles)
{
	if (!n && !not_published && !not_received)
		return 0;
	r->name = topic;
	r->delivery = intra ? "intra" : "inter";
	r->lost_a = not_received;
	r->lost_b = not_published;
	ca_stats_of(values, n, percentiles, &r->stats);
	return 1;
}

static int by_name(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* The topics of the architecture's publishers and subscriptions, sorted,
 * each once (those of ca_trace_topic_counts, which a load made
 * records_only has not counted); NULL when out of memory. */
static const char **topic_names(const ca_architecture *a, size_t *n)
{
	const char **v = malloc((a->n_publishers + a->n_subscriptions + 1) * sizeof *v);
	size_t m = 0, k = 0;
	if (!v)
		return NULL;
	for (size_t i = 0; i < a->n_publishers; i++)
		v[m++] = a->publishers[i].topic;
	for (size_t i = 0; i < a->n_subscriptions; i++)
		v[m++] = a->subscriptions[i].topic;
	qsort(v, m, sizeof *v, by_name);
	for (size_t i = 0; i < m; i++)
		if (!k || strcmp(v[k - 1], v[i]))
			v[k++] = v[i];
	*n = k;
	return v;
}

/* From latencies_only records (no --records: no instance to write). */
static int topics_streamed(const ca_trace *t, const ca_records *rec, const struct latency_output *out)
{
	size_t n_topics = 0, most = 0, n_rows = 0;
	const char **topics = topic_names(ca_trace_architecture(t), &n_topics);
	for (size_t k = 0; topics && k < n_topics; k++)
		for (int intra = 0; intra < 2; intra++) {
			size_t n = ca_records_topic_latency_count(rec, topics[k], intra);
			most = n > most ? n : most;
		}
	struct latency_row *rows = calloc(2 * n_topics + 1, sizeof *rows);
	int64_t *values = malloc((most + 1) * sizeof *values);

	if (!topics || latency_out_of_memory(rows, values)) {
		free(topics);
		return 1;
	}
	for (size_t k = 0; k < n_topics; k++) {
		for (int intra = 0; intra < 2; intra++) {
			uint64_t lost = ca_records_topic_not_received(rec, topics[k], intra);
			uint64_t not_published;
			size_t m = ca_records_topic_latencies(rec, topics[k], intra, values,
				&not_published);
			n_rows += topic_row(&rows[n_rows], topics[k], intra, values, m, lost,
				not_published, out->percentiles);
		}
	}
	latency_print_rows(rows, n_rows, out, LATENCY_TOPICS);
	free(rows);
	free(values);
	free(topics);
	return 0;
}

int latency_topics(const ca_trace *t, const ca_records *rec, const struct latency_output *out)
{
	FILE *records = out->records;
	if (out->split)
		return latency_topics_split(t, rec, out);
	if (!records)
		return topics_streamed(t, rec, out);
	const ca_architecture *a = ca_trace_architecture(t);
	const ca_communication *c;
	const ca_callback_instance *runs;
	const ca_publish_instance *pubs;
	const ca_topic_count *topics;
	size_t n = ca_records_communications(rec, &c), n_topics = ca_trace_topic_counts(t, &topics);
	ca_records_callbacks(rec, &runs);
	ca_records_publishes(rec, &pubs);
	struct latency_row *rows = calloc(2 * n_topics + 1, sizeof *rows);
	int64_t *values = malloc((n + 1) * sizeof *values);
	size_t *messages = malloc((n + 1) * sizeof *messages), n_rows = 0;

	if (latency_out_of_memory(rows, values) || !messages) {
		free(messages);
		return 1;
	}
	if (records)
		fprintf(records, "topic,delivery,publisher_pid,publish_ns,source_stamp,take_ns,"
			"subscriber_pid,callback,callback_start_ns,latency_ns\n");
	for (size_t k = 0; k < n_topics; k++) {
		for (int intra = 0; intra < 2; intra++) {
			uint64_t lost = ca_records_topic_not_received(rec, topics[k].topic, intra);
			uint64_t not_published;
			size_t m = ca_records_topic_messages(rec, topics[k].topic, intra, messages,
				&not_published);
			for (size_t i = 0; i < m; i++) {
				const ca_communication *x = &c[messages[i]];
				const ca_publish_instance *p = &pubs[x->publish];
				const ca_callback_instance *run = &runs[x->callback_instance];
				values[i] = (int64_t)(run->start - ca_publish_time(p));
				if (records)
					fprintf(records, "%s,%s,%" PRId64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64
						",%" PRId64 ",%s,%" PRIu64 ",%" PRId64 "\n", topics[k].topic,
						intra ? "intra" : "inter", p->pid, ca_publish_time(p),
						p->source_stamp, x->take_time, run->pid,
						a->callbacks[run->callback].name, run->start, values[i]);
			}
			n_rows += topic_row(&rows[n_rows], topics[k].topic, intra, values, m, lost,
				not_published, out->percentiles);
		}
	}
	latency_print_rows(rows, n_rows, out, LATENCY_TOPICS);
	free(rows);
	free(values);
	free(messages);
	return 0;
}

/* ---- nodes -------------------------------------------------------------- */

/* A publish made in a subscription callback's run: which node path it
 * belongs to and how long after the run's start. */
struct node_output {
	size_t callback, run;
	const char *topic;
	uint64_t time;
	int64_t latency;
};

static int by_path_run_time(const void *a, const void *b)
{
	const struct node_output *x = a, *y = b;
	int c;
	if (x->callback != y->callback)
		return x->callback < y->callback ? -1 : 1;
	if ((c = strcmp(x->topic, y->topic)))
		return c;
	if (x->run != y->run)
		return x->run < y->run ? -1 : 1;
	return (x->time > y->time) - (x->time < y->time);
}

static bool is_node_input(const ca_architecture *a, size_t callback)
{
	return callback != CA_NONE && !a->callbacks[callback].hidden &&
		a->callbacks[callback].kind == CA_CALLBACK_SUBSCRIPTION;
}

static int by_callback_topic(const void *a, const void *b)
{
	const ca_node_path *x = *(const ca_node_path *const *)a, *y = *(const ca_node_path *const *)b;
	if (x->callback != y->callback)
		return x->callback < y->callback ? -1 : 1;
	return strcmp(x->topic, y->topic);
}

/* From latencies_only records (no --records: no instance to write). */
static int nodes_streamed(const ca_trace *t, const ca_records *rec, const struct latency_output *out)
{
	const ca_architecture *a = ca_trace_architecture(t);
	const ca_node_path *paths;
	size_t n = ca_records_node_paths(rec, &paths), m = 0, most = 0;
	const ca_node_path **v = malloc((n + 1) * sizeof *v);
	struct latency_row *rows = calloc(n + 1, sizeof *rows);
	for (size_t i = 0; v && i < n; i++) {
		if (!is_node_input(a, paths[i].callback))
			continue;
		v[m++] = &paths[i];
		most = paths[i].count > most ? paths[i].count : most;
	}
	int64_t *values = malloc((most + 1) * sizeof *values);

	if (latency_out_of_memory(rows, values) || !v) {
		free(v);
		return 1;
	}
	qsort(v, m, sizeof *v, by_callback_topic);
	for (size_t i = 0; i < m; i++) {
		const ca_callback *cb = &a->callbacks[v[i]->callback];
		memcpy(values, v[i]->values, v[i]->count * sizeof *values);
		rows[i].name = cb->name;
		rows[i].in = a->subscriptions[cb->owner].topic;
		rows[i].out = v[i]->topic;
		ca_stats_of(values, v[i]->count, out->percentiles, &rows[i].stats);
	}
	latency_print_rows(rows, m, out, LATENCY_NODES);
	free(v);
	free(rows);
	free(values);
	return 0;
}

int latency_nodes(const ca_trace *t, const ca_records *rec, const struct latency_output *out)
{
	FILE *records = out->records;
	if (!records)
		return nodes_streamed(t, rec, out);
	const ca_architecture *a = ca_trace_architecture(t);
	const ca_callback_instance *runs;
	const ca_publish_instance *pubs;
	size_t n_pubs = ca_records_publishes(rec, &pubs), m = 0, n_rows = 0;
	ca_records_callbacks(rec, &runs);
	struct node_output *v = malloc((n_pubs + 1) * sizeof *v);
	struct latency_row *rows = calloc(n_pubs + 1, sizeof *rows);
	int64_t *values = malloc((n_pubs + 1) * sizeof *values);

	if (latency_out_of_memory(rows, values) || !v) {
		free(v);
		return 1;
	}
	for (size_t i = 0; i < n_pubs; i++) {
		size_t run = pubs[i].callback_instance, cb;
		if (run == CA_NONE || pubs[i].publisher == CA_NONE ||
		    !is_node_input(a, cb = runs[run].callback))
			continue;
		uint64_t time = ca_publish_time(&pubs[i]);
		v[m++] = (struct node_output){ cb, run, a->publishers[pubs[i].publisher].topic, time,
			(int64_t)(time - runs[run].start) };
	}
	qsort(v, m, sizeof *v, by_path_run_time);
	if (records)
		fprintf(records, "callback,subscribe_topic,publish_topic,start_ns,publish_ns,"
			"latency_ns\n");
	for (size_t i = 0; i < m;) {
		size_t j = i, k = 0;
		const ca_callback *cb = &a->callbacks[v[i].callback];
		for (; j < m && v[j].callback == v[i].callback && !strcmp(v[j].topic, v[i].topic); j++) {
			if (j > i && v[j].run == v[j - 1].run)
				continue; /* a run's first publish on the topic is its output */
			values[k++] = v[j].latency;
			if (records)
				fprintf(records, "%s,%s,%s,%" PRIu64 ",%" PRIu64 ",%" PRId64 "\n", cb->name,
					a->subscriptions[cb->owner].topic, v[j].topic, runs[v[j].run].start,
					v[j].time, v[j].latency);
		}
		struct latency_row *r = &rows[n_rows++];
		r->name = cb->name;
		r->in = a->subscriptions[cb->owner].topic;
		r->out = v[i].topic;
		ca_stats_of(values, k, out->percentiles, &r->stats);
		i = j;
	}
	latency_print_rows(rows, n_rows, out, LATENCY_NODES);
	free(v);
	free(rows);
	free(values);
	return 0;
}
