/*
 * cmd_latency.c - `caret latency callbacks|topics|timers|nodes|tf|services|
 * actions TRACE...`: latency statistics per callback (end - start), per
 * topic (subscriber callback start - publish, inter- and intra-process
 * apart, with the losses), per timer (delay), per node path (a
 * subscription callback's start to its publish), per tf edge, per service
 * and client (request, service, response, round trip), or per action
 * (latency_actions.c); --records FILE writes every instance as CSV.
 */
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_util.h"
#include "latency_actions.h"
#include "verbs.h"

static int usage(FILE *out)
{
	fprintf(out,
		"usage: caret latency callbacks|topics|timers|nodes|tf|services|actions\n"
		"                     [--format text|csv|json]\n"
		"                     [--records FILE] [--percentiles linear|nearest]\n"
		"                     TRACE...\n"
		"\n"
		"  callbacks  per callback: runs, latency (callback_end - callback_start)\n"
		"             min, mean, p50, p90, p99, max, the mean period between starts,\n"
		"             the frequency (runs per 1 s window: the mean and the least\n"
		"             over the whole windows between its first and last start),\n"
		"             and runs not ended inside the trace\n"
		"  topics     per topic and delivery (inter- or intra-process): messages\n"
		"             handled, communication latency (subscriber callback start -\n"
		"             rclcpp publish) statistics, messages published but not\n"
		"             handled by a subscription, and handled but with no publish in\n"
		"             the trace\n"
		"  timers     per timer callback: how late each run started after its\n"
		"             expected firing (timer creation + k x period)\n"
		"  nodes      per node path (a subscription callback and a topic its runs\n"
		"             publish on): the run's start to its first publish on the\n"
		"             topic, the original CARET's callback_chain node latency\n"
		"  tf         per transform edge and buffer: broadcast (sendTransform) to\n"
		"             the buffer's setTransform; per lookup and edge it read: the\n"
		"             age of the transform it used, since its broadcast\n"
		"  services   per service and client: calls, and for each the request\n"
		"             (client's send to the service's take), the service (take to\n"
		"             its response's send), the response (send to the client's\n"
		"             take) and the round trip (the client's send to its take);\n"
		"             calls whose stages the trace does not all show\n"
		"  actions    per action and client (rclcpp_action, over the action's\n"
		"             services): goals, and for each the goal's round trip\n"
		"             (send_goal), the result's (get_result) and the goal to its\n"
		"             result (the client's send_goal request to its take of the\n"
		"             result); goals whose ends the trace does not both show\n"
		"\n"
		"Times are in microseconds in text, nanoseconds in CSV and JSON (means and\n"
		"percentiles at full precision). Percentiles are numpy's linear\n"
		"interpolation, as the original CARET's (docs/latency.md).\n"
		"  -f, --format F     text (default), csv or json\n"
		"  -r, --records FILE write every instance as CSV to FILE\n"
		"      --percentiles M linear (default) or nearest (nearest rank)\n");
	fputs(CLI_LOAD_OPTIONS_HELP, out);
	fputs(CLI_MEMORY_HELP, out);
	return out == stdout ? 0 : 2;
}

struct row {
	const char *name, *delivery; /* delivery: NULL for callbacks */
	const char *in, *out;        /* nodes: the subscribed and published topics */
	ca_stats stats;
	int64_t period; /* callbacks: mean period, 0 if fewer than 2 runs */
	double hz, min_hz; /* callbacks: runs per 1 s window, mean and least */
	uint64_t lost_a, lost_b; /* not ended | not received, not published */
};

enum kind { CALLBACKS, TOPICS, TIMERS, NODES };

static ca_percentile_method percentiles; /* --percentiles, for every table */

static void print_node_rows(const struct row *rows, size_t n, enum cli_format f)
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
		const struct row *r = &rows[i];
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

static void print_rows(const struct row *rows, size_t n, enum cli_format f, enum kind kind)
{
	bool topics = kind == TOPICS;
	/* timers and nodes have no loss column: their runs are the callbacks' */
	const char *loss_a = topics ? "not_received" : kind == CALLBACKS ? "not_ended" : NULL;
	if (kind == NODES) {
		print_node_rows(rows, n, f);
		return;
	}
	if (f == CLI_TEXT)
		printf("%-44s %s%8s %10s %10s %10s %10s %10s %10s%s %12s%s\n",
			topics ? "topic" : "callback", topics ? "delivery " : "", "count", "min_us",
			"mean_us", "p50_us", "p90_us", "p99_us", "max_us",
			topics ? "" : kind == CALLBACKS ? "  period_us    freq_hz min_freq_hz" : "  period_us",
			loss_a ? loss_a : "", topics ? " not_published" : "");
	else if (f == CLI_CSV)
		printf("%s%s,count,min_ns,mean_ns,p50_ns,p90_ns,p99_ns,max_ns%s%s%s%s\n",
			topics ? "topic" : "callback", topics ? ",delivery" : "",
			topics ? "" : kind == CALLBACKS ? ",period_ns,frequency_hz,min_frequency_hz" :
			",period_ns", loss_a ? "," : "", loss_a ? loss_a : "",
			topics ? ",not_published" : "");
	else
		printf("{\"%s\": [", topics ? "topics" : kind == TIMERS ? "timers" : "callbacks");
	for (size_t i = 0; i < n; i++) {
		const struct row *r = &rows[i];
		const ca_stats *s = &r->stats;
		if (f == CLI_TEXT) {
			printf("%-44s ", r->name);
			if (topics)
				printf("%-9s", r->delivery);
			cli_print_stats(stdout, f, s);
			if (!topics)
				printf(" %11.1f", r->period / 1e3);
			if (kind == CALLBACKS)
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
			if (kind == CALLBACKS)
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
			if (kind == CALLBACKS)
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

/* Frees both and says so when either allocation failed. */
static bool out_of_memory(struct row *rows, int64_t *values)
{
	if (rows && values)
		return false;
	free(rows);
	free(values);
	fprintf(stderr, "caret latency: out of memory\n");
	return true;
}

/* ---- callbacks ---------------------------------------------------------- */

/* Runs per 1 s window over the whole windows from the first start on
 * (analysis.md: frequency, count per 1 s window): the mean and the least;
 * 0 when the runs span less than a second. Runs are in start order. The
 * work is per run, not per window: a damaged timestamp can make the span
 * billions of seconds, and windows no run falls in only make the least 0. */
static void frequency(const ca_callback_instance *runs, size_t n, double *mean, double *least)
{
	const uint64_t second = 1000000000;
	uint64_t windows = n ? (runs[n - 1].start - runs[0].start) / second : 0;
	*mean = *least = 0;
	if (!windows)
		return;
	uint64_t fewest = UINT64_MAX, total = 0, count = 0, current = 0, filled = 0;
	for (size_t i = 0; i < n; i++) {
		uint64_t w = (runs[i].start - runs[0].start) / second;
		if (w >= windows) /* the last, partial window */
			break;
		if (count && w != current) {
			fewest = count < fewest ? count : fewest;
			total += count;
			filled++;
			count = 0;
		}
		current = w;
		count++;
	}
	if (count) {
		fewest = count < fewest ? count : fewest;
		total += count;
		filled++;
	}
	*mean = (double)total / (double)windows;
	*least = filled < windows ? 0 : (double)fewest;
}

/* Room for the runs of the callback that has most (CA_NONE included). */
static size_t most_runs(const ca_architecture *a, const ca_records *rec)
{
	size_t most = 0;
	for (size_t c = 0; c <= a->n_callbacks; c++) {
		size_t n = ca_records_callback_run_count(rec, c < a->n_callbacks ? c : CA_NONE);
		most = n > most ? n : most;
	}
	return most + 1;
}

static int callbacks(const ca_trace *t, const ca_records *rec, enum cli_format f, FILE *records)
{
	const ca_architecture *a = ca_trace_architecture(t);
	size_t most = most_runs(a, rec), n_rows = 0;
	ca_callback_instance *runs = malloc(most * sizeof *runs);
	struct row *rows = calloc(a->n_callbacks + 1, sizeof *rows);
	int64_t *values = malloc(most * sizeof *values);

	if (out_of_memory(rows, values) || !runs) {
		free(runs);
		return 1;
	}
	if (records)
		fprintf(records, "callback,pid,tid,start_ns,end_ns,latency_ns,intra\n");
	/* one callback at a time, in index order, unknown ones last */
	for (size_t c = 0; c <= a->n_callbacks; c++) {
		size_t callback = c < a->n_callbacks ? c : CA_NONE, k = 0;
		size_t n = ca_records_callback_runs(rec, callback, runs);
		uint64_t not_ended = 0;
		if (!n)
			continue;
		for (size_t j = 0; j < n; j++) {
			if (!runs[j].end) {
				not_ended++;
				continue;
			}
			values[k++] = (int64_t)(runs[j].end - runs[j].start);
			if (records)
				fprintf(records, "%s,%" PRId64 ",%" PRId64 ",%" PRIu64 ",%" PRIu64 ",%" PRId64
					",%d\n", callback == CA_NONE ? "(unknown)" : a->callbacks[callback].name,
					runs[j].pid, runs[j].tid, runs[j].start, runs[j].end, values[k - 1],
					runs[j].intra);
		}
		if (callback != CA_NONE) {
			struct row *r = &rows[n_rows++];
			r->name = a->callbacks[callback].name;
			r->period = n > 1 ? (int64_t)(runs[n - 1].start - runs[0].start) /
				(int64_t)(n - 1) : 0;
			r->lost_a = not_ended;
			frequency(runs, n, &r->hz, &r->min_hz);
			ca_stats_of(values, k, percentiles, &r->stats);
		}
	}
	print_rows(rows, n_rows, f, CALLBACKS);
	free(runs);
	free(rows);
	free(values);
	return 0;
}

/* ---- topics ------------------------------------------------------------- */

/* A topic's row of one delivery, if it has anything to show: 1, else 0. */
static size_t topic_row(struct row *r, const char *topic, bool intra, int64_t *values, size_t n,
	uint64_t not_received, uint64_t not_published)
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
static int topics_streamed(const ca_trace *t, const ca_records *rec, enum cli_format f)
{
	size_t n_topics = 0, most = 0, n_rows = 0;
	const char **topics = topic_names(ca_trace_architecture(t), &n_topics);
	for (size_t k = 0; topics && k < n_topics; k++)
		for (int intra = 0; intra < 2; intra++) {
			size_t n = ca_records_topic_latency_count(rec, topics[k], intra);
			most = n > most ? n : most;
		}
	struct row *rows = calloc(2 * n_topics + 1, sizeof *rows);
	int64_t *values = malloc((most + 1) * sizeof *values);

	if (!topics || out_of_memory(rows, values)) {
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
				not_published);
		}
	}
	print_rows(rows, n_rows, f, TOPICS);
	free(rows);
	free(values);
	free(topics);
	return 0;
}

static int topics(const ca_trace *t, const ca_records *rec, enum cli_format f, FILE *records)
{
	if (!records)
		return topics_streamed(t, rec, f);
	const ca_architecture *a = ca_trace_architecture(t);
	const ca_communication *c;
	const ca_callback_instance *runs;
	const ca_publish_instance *pubs;
	const ca_topic_count *topics;
	size_t n = ca_records_communications(rec, &c), n_topics = ca_trace_topic_counts(t, &topics);
	ca_records_callbacks(rec, &runs);
	ca_records_publishes(rec, &pubs);
	struct row *rows = calloc(2 * n_topics + 1, sizeof *rows);
	int64_t *values = malloc((n + 1) * sizeof *values);
	size_t *messages = malloc((n + 1) * sizeof *messages), n_rows = 0;

	if (out_of_memory(rows, values) || !messages) {
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
				not_published);
		}
	}
	print_rows(rows, n_rows, f, TOPICS);
	free(rows);
	free(values);
	free(messages);
	return 0;
}

/* ---- timers ------------------------------------------------------------- */

static int timers(const ca_trace *t, const ca_records *rec, enum cli_format f, FILE *records)
{
	const ca_architecture *a = ca_trace_architecture(t);
	size_t n_rows = 0;
	struct row *rows = calloc(a->n_timers + 1, sizeof *rows);
	int64_t *values = malloc(most_runs(a, rec) * sizeof *values);

	if (out_of_memory(rows, values))
		return 1;
	if (records)
		fprintf(records, "callback,period_ns,delay_ns\n");
	for (size_t k = 0; k < a->n_timers; k++) {
		size_t m = ca_records_timer_delays(rec, k, values);
		if (a->timers[k].callback == CA_NONE)
			continue;
		for (size_t i = 0; records && i < m; i++)
			fprintf(records, "%s,%" PRId64 ",%" PRId64 "\n",
				a->callbacks[a->timers[k].callback].name, a->timers[k].period_ns, values[i]);
		struct row *r = &rows[n_rows++];
		r->name = a->callbacks[a->timers[k].callback].name;
		r->period = a->timers[k].period_ns;
		ca_stats_of(values, m, percentiles, &r->stats);
	}
	print_rows(rows, n_rows, f, TIMERS);
	free(rows);
	free(values);
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
static int nodes_streamed(const ca_trace *t, const ca_records *rec, enum cli_format f)
{
	const ca_architecture *a = ca_trace_architecture(t);
	const ca_node_path *paths;
	size_t n = ca_records_node_paths(rec, &paths), m = 0, most = 0;
	const ca_node_path **v = malloc((n + 1) * sizeof *v);
	struct row *rows = calloc(n + 1, sizeof *rows);
	for (size_t i = 0; v && i < n; i++) {
		if (!is_node_input(a, paths[i].callback))
			continue;
		v[m++] = &paths[i];
		most = paths[i].count > most ? paths[i].count : most;
	}
	int64_t *values = malloc((most + 1) * sizeof *values);

	if (out_of_memory(rows, values) || !v) {
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
		ca_stats_of(values, v[i]->count, percentiles, &rows[i].stats);
	}
	print_rows(rows, m, f, NODES);
	free(v);
	free(rows);
	free(values);
	return 0;
}

static int nodes(const ca_trace *t, const ca_records *rec, enum cli_format f, FILE *records)
{
	if (!records)
		return nodes_streamed(t, rec, f);
	const ca_architecture *a = ca_trace_architecture(t);
	const ca_callback_instance *runs;
	const ca_publish_instance *pubs;
	size_t n_pubs = ca_records_publishes(rec, &pubs), m = 0, n_rows = 0;
	ca_records_callbacks(rec, &runs);
	struct node_output *v = malloc((n_pubs + 1) * sizeof *v);
	struct row *rows = calloc(n_pubs + 1, sizeof *rows);
	int64_t *values = malloc((n_pubs + 1) * sizeof *values);

	if (out_of_memory(rows, values) || !v) {
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
		struct row *r = &rows[n_rows++];
		r->name = cb->name;
		r->in = a->subscriptions[cb->owner].topic;
		r->out = v[i].topic;
		ca_stats_of(values, k, percentiles, &r->stats);
		i = j;
	}
	print_rows(rows, n_rows, f, NODES);
	free(v);
	free(rows);
	free(values);
	return 0;
}

/* ---- tf ------------------------------------------------------------------- */

/* One tf row: a set latency or a lookup's age, with the frames it names. */
struct tf_row {
	const char *what, *frame, *child, *lookup; /* lookup: "target<-source" or "" */
	int64_t pid;
	uint64_t unmatched; /* with no send in the trace */
	ca_stats stats;
};

static void print_tf_rows(const struct tf_row *rows, size_t n, enum cli_format f)
{
	if (f == CLI_TEXT)
		printf("%-60s %8s %10s %10s %10s %10s %10s %10s %9s\n", "tf", "count", "min_us",
			"mean_us", "p50_us", "p90_us", "p99_us", "max_us", "not_sent");
	else if (f == CLI_CSV)
		printf("what,pid,frame_id,child_frame_id,lookup,count,min_ns,mean_ns,p50_ns,p90_ns,"
			"p99_ns,max_ns,not_sent\n");
	else
		printf("{\"tf\": [");
	for (size_t i = 0; i < n; i++) {
		const struct tf_row *r = &rows[i];
		if (f == CLI_TEXT) {
			char name[512];
			snprintf(name, sizeof name, "%s %s%s%s->%s (pid %" PRId64 ")", r->what, r->lookup,
				*r->lookup ? " via " : "", r->frame, r->child, r->pid);
			printf("%-60s ", name);
		} else if (f == CLI_CSV) {
			printf("%s,%" PRId64 ",%s,%s,%s,", r->what, r->pid, r->frame, r->child, r->lookup);
		} else {
			printf("%s{\"what\": \"%s\", \"pid\": %" PRId64 ", \"frame_id\": ", i ? ", " : "",
				r->what, r->pid);
			cli_json_string(stdout, r->frame);
			printf(", \"child_frame_id\": ");
			cli_json_string(stdout, r->child);
			printf(", \"lookup\": ");
			cli_json_string(stdout, r->lookup);
			printf(", ");
		}
		cli_print_stats(stdout, f, &r->stats);
		printf(f == CLI_TEXT ? " %9" PRIu64 "\n" : f == CLI_CSV ? ",%" PRIu64 "\n" :
			", \"not_sent\": %" PRIu64 "}", r->unmatched);
	}
	if (f == CLI_JSON)
		printf("]}\n");
}

/* Uses in the order of (lookup's pid, buffer, frames; the edge). */
static const ca_tf_lookup *use_lookups;
static const ca_tf_set *use_sets;

static int by_lookup_edge(const void *a, const void *b)
{
	const ca_tf_use *x = a, *y = b;
	const ca_tf_lookup *lx = &use_lookups[x->lookup], *ly = &use_lookups[y->lookup];
	const ca_tf_set *sx = &use_sets[x->set], *sy = &use_sets[y->set];
	uint64_t kx[] = { (uint64_t)lx->pid, lx->buffer, lx->target, lx->source, sx->child, x->lookup };
	uint64_t ky[] = { (uint64_t)ly->pid, ly->buffer, ly->target, ly->source, sy->child, y->lookup };
	for (size_t i = 0; i < sizeof kx / sizeof *kx; i++)
		if (kx[i] != ky[i])
			return kx[i] < ky[i] ? -1 : 1;
	return 0;
}

/* The callback a run belongs to, by name ("" when none). */
static const char *run_callback(const ca_architecture *a, const ca_callback_instance *runs,
	size_t run)
{
	size_t cb = run == CA_NONE ? CA_NONE : runs[run].callback;
	return cb == CA_NONE ? "" : a->callbacks[cb].name;
}

/* Uses i and j are of one row: the same lookup frames, buffer and edge. */
static int by_lookup_edge_key(const ca_tf_use *uses, size_t i, size_t j)
{
	const ca_tf_lookup *a = &use_lookups[uses[i].lookup], *b = &use_lookups[uses[j].lookup];
	return a->pid != b->pid || a->buffer != b->buffer || a->target != b->target ||
		a->source != b->source || use_sets[uses[i].set].child != use_sets[uses[j].set].child;
}

static int tf(const ca_trace *t, const ca_records *rec, enum cli_format f, FILE *records)
{
	char err[256];
	ca_tf *x = ca_tf_build(t, rec, err, sizeof err);
	const ca_callback_instance *runs;
	const ca_architecture *a = ca_trace_architecture(t);
	ca_records_callbacks(rec, &runs);
	const ca_tf_send *sends;
	const ca_tf_set *sets;
	const ca_tf_lookup *lookups;
	const ca_tf_use *used;
	if (!x) {
		fprintf(stderr, "caret latency: %s\n", err);
		return 1;
	}
	ca_tf_sends(x, &sends);
	size_t n_sets = ca_tf_sets(x, &sets), n_uses = ca_tf_uses(x, &used);
	ca_tf_lookups(x, &lookups);
	size_t most = n_sets > n_uses ? n_sets : n_uses;
	struct tf_row *rows = calloc(most + 1, sizeof *rows);
	int64_t *values = malloc((most + 1) * sizeof *values);
	ca_tf_use *uses = malloc((n_uses + 1) * sizeof *uses);
	char (*names)[64] = calloc(n_uses + 1, sizeof *names);
	size_t n_rows = 0;
	int status = 1;
	if (!rows || !values || !uses || !names) {
		fprintf(stderr, "caret latency: out of memory\n");
		goto out;
	}
	if (records)
		fprintf(records, "what,pid,frame_id,child_frame_id,lookup,stamp,send_ns,set_ns,"
			"lookup_ns,latency_ns,send_callback,lookup_callback,newer_stamp\n");
#define NAME(id) ca_trace_string(t, id)
	/* broadcast -> set, per buffer and edge (the sets come by buffer and child) */
	for (size_t i = 0, j; i < n_sets; i = j) {
		struct tf_row *r = &rows[n_rows++];
		size_t k = 0;
		*r = (struct tf_row){ "set", NAME(sets[i].frame), NAME(sets[i].child), "", sets[i].pid,
			0, { 0 } };
		for (j = i; j < n_sets && sets[j].pid == sets[i].pid && sets[j].buffer == sets[i].buffer &&
		     sets[j].child == sets[i].child; j++) {
			if (sets[j].send == CA_NONE) {
				r->unmatched++;
				continue;
			}
			const ca_tf_send *s = &sends[sets[j].send];
			values[k++] = (int64_t)(sets[j].time - s->time);
			if (records)
				fprintf(records, "set,%" PRId64 ",%s,%s,,%" PRIu64 ",%" PRIu64 ",%" PRIu64
					",,%" PRId64 ",%s,,\n", sets[j].pid, r->frame, r->child, sets[j].stamp,
					s->time, sets[j].time, values[k - 1], run_callback(a, runs, s->run));
		}
		ca_stats_of(values, k, percentiles, &r->stats);
	}
	/* lookup age, per lookup frames and the edge read */
	if (n_uses)
		memcpy(uses, used, n_uses * sizeof *uses);
	use_lookups = lookups;
	use_sets = sets;
	qsort(uses, n_uses, sizeof *uses, by_lookup_edge);
	for (size_t i = 0, j; i < n_uses; i = j) {
		const ca_tf_lookup *l = &lookups[uses[i].lookup];
		const ca_tf_set *e = &sets[uses[i].set];
		struct tf_row *r = &rows[n_rows++];
		size_t k = 0;
		snprintf(names[i], sizeof names[i], "%s<-%s", NAME(l->target), NAME(l->source));
		*r = (struct tf_row){ "lookup", NAME(e->frame), NAME(e->child), names[i], l->pid, 0,
			{ 0 } };
		for (j = i; j < n_uses && !by_lookup_edge_key(uses, i, j); j++) {
			const ca_tf_lookup *lj = &lookups[uses[j].lookup];
			const ca_tf_set *sj = &sets[uses[j].set];
			if (sj->send == CA_NONE) {
				r->unmatched++;
				continue;
			}
			const ca_tf_send *s = &sends[sj->send];
			values[k++] = (int64_t)(lj->time - s->time);
			if (records) {
				fprintf(records, "lookup,%" PRId64 ",%s,%s,%s,%" PRIu64 ",%" PRIu64 ",%" PRIu64
					",%" PRIu64 ",%" PRId64 ",%s,%s,", lj->pid, r->frame, r->child, names[i],
					sj->stamp, s->time, sj->time, lj->time, values[k - 1],
					run_callback(a, runs, s->run), run_callback(a, runs, lj->run));
				if (uses[j].newer != CA_NONE)
					fprintf(records, "%" PRIu64, sets[uses[j].newer].stamp);
				fputc('\n', records);
			}
		}
		ca_stats_of(values, k, percentiles, &r->stats);
	}
#undef NAME
	print_tf_rows(rows, n_rows, f);
	status = 0;
out:
	free(rows);
	free(values);
	free(uses);
	free(names);
	ca_tf_free(x);
	return status;
}

/* ---- services ------------------------------------------------------------- */

static const ca_architecture *call_arch;

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
static int by_pair(const void *x, const void *y)
{
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

/* Measure m of a call (request, service, response, round trip) into
 * *value; false when the trace lacks one of its two stages. A send is
 * recorded once the rmw has written it: the other side's take can come
 * first, a request or response latency below 0 (docs/latency.md). */
static bool call_measure(const ca_service_call *c, int m, int64_t *value)
{
	const uint64_t from[] = { c->send_request, c->take_request, c->send_response,
		c->send_request };
	const uint64_t to[] = { c->take_request, c->send_response, c->take_response,
		c->take_response };
	*value = (int64_t)(to[m] - from[m]);
	return from[m] && to[m];
}

static int services(const ca_trace *t, const ca_records *rec, enum cli_format f, FILE *records)
{
	static const char *const measures[] = { "request", "service", "response", "round_trip" };
	(void)rec;
	char err[256];
	const ca_architecture *a = ca_trace_architecture(t);
	ca_service_calls *x = ca_service_calls_build(t, err, sizeof err);
	if (!x) {
		fprintf(stderr, "caret latency: %s\n", err);
		return 1;
	}
	const ca_service_call *got;
	size_t n = ca_service_calls_get(x, &got);
	ca_service_call *calls = malloc((n + 1) * sizeof *calls);
	int64_t *values = malloc((n + 1) * sizeof *values);
	if (!calls || !values) {
		fprintf(stderr, "caret latency: out of memory\n");
		free(calls);
		free(values);
		ca_service_calls_free(x);
		return 1;
	}
	if (n)
		memcpy(calls, got, n * sizeof *calls);
	call_arch = a;
	qsort(calls, n, sizeof *calls, by_pair);
	if (records) {
		fprintf(records, "service,client,server,client_pid,server_pid,sequence_number,"
			"send_request_ns,take_request_ns,send_response_ns,take_response_ns\n");
		for (size_t i = 0; i < n; i++)
			fprintf(records, "%s,%s,%s,%" PRId64 ",%" PRId64 ",%" PRId64 ",%" PRIu64 ",%" PRIu64
				",%" PRIu64 ",%" PRIu64 "\n", call_name(a, &calls[i]),
				client_node(a, calls[i].client), service_node(a, calls[i].service),
				calls[i].client_pid, calls[i].service_pid, calls[i].sequence_number,
				calls[i].send_request, calls[i].take_request, calls[i].send_response,
				calls[i].take_response);
	}
	if (f == CLI_TEXT)
		printf("%-56s %-10s %8s %10s %10s %10s %10s %10s %10s %10s\n", "service (client -> server)",
			"measure", "count", "min_us", "mean_us", "p50_us", "p90_us", "p99_us", "max_us",
			"incomplete");
	else if (f == CLI_CSV)
		printf("service,client,server,measure,count,min_ns,mean_ns,p50_ns,p90_ns,p99_ns,max_ns,"
			"incomplete\n");
	else
		printf("{\"services\": [");
	bool first = true;
	for (size_t i = 0, j; i < n; i = j) {
		for (j = i; j < n && calls[j].client == calls[i].client &&
		     calls[j].service == calls[i].service &&
		     !strcmp(call_name(a, &calls[j]), call_name(a, &calls[i])); j++)
			;
		const char *name = call_name(a, &calls[i]), *client = client_node(a, calls[i].client),
			*server = service_node(a, calls[i].service);
		for (int m = 0; m < 4; m++) {
			size_t k = 0;
			for (size_t c = i; c < j; c++)
				k += call_measure(&calls[c], m, &values[k]);
			ca_stats s;
			ca_stats_of(values, k, percentiles, &s);
			uint64_t incomplete = (uint64_t)(j - i - k);
			if (f == CLI_TEXT) {
				char label[512];
				snprintf(label, sizeof label, "%s (%s -> %s)", name, client, server);
				printf("%-56s %-10s ", label, measures[m]);
			} else if (f == CLI_CSV) {
				printf("%s,%s,%s,%s,", name, client, server, measures[m]);
			} else {
				printf("%s{\"service\": ", first ? "" : ", ");
				cli_json_string(stdout, name);
				printf(", \"client\": ");
				cli_json_string(stdout, client);
				printf(", \"server\": ");
				cli_json_string(stdout, server);
				printf(", \"measure\": \"%s\", ", measures[m]);
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

static int actions(const ca_trace *t, const ca_records *rec, enum cli_format f, FILE *records)
{
	(void)rec;
	return cli_latency_actions(t, f, records, percentiles);
}

int caret_cmd_latency(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "format", required_argument, NULL, 'f' },
		{ "records", required_argument, NULL, 'r' },
		{ "percentiles", required_argument, NULL, 'q' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 },
	};
	enum cli_format f = CLI_TEXT;
	percentiles = CA_PERCENTILE_LINEAR;
	const char *records_path = NULL;
	int c;

	if (argc < 2)
		return usage(stderr);
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))
		return usage(stdout);
	int (*const kinds[])(const ca_trace *, const ca_records *, enum cli_format, FILE *) = {
		callbacks, topics, timers, nodes, tf, services, actions };
	static const char *const names[] = { "callbacks", "topics", "timers", "nodes", "tf",
		"services", "actions" };
	size_t kind = 0, n_kinds = sizeof names / sizeof *names;
	while (kind < n_kinds && strcmp(argv[1], names[kind]))
		kind++;
	if (kind == n_kinds) {
		fprintf(stderr, "caret latency: '%s': expected callbacks, topics, timers, nodes, tf, "
			"services or actions\n", argv[1]);
		return 2;
	}
	argc--;
	argv++;
	optind = 1;
	while ((c = getopt_long(argc, argv, "f:r:h", opts, NULL)) != -1) {
		if (c == 'h')
			return usage(stdout);
		if (c == 'r')
			records_path = optarg;
		else if (c == 'q') {
			if (cli_parse_percentiles("latency", optarg, &percentiles))
				return 2;
		} else if (c != 'f' || cli_parse_format("latency", optarg, &f) != 0)
			return 2;
	}
	if (optind >= argc)
		return usage(stderr);
	/* the records come from a second pass: no table of runtime events is
	 * held, but tf's events' for tf */
	/* (services read their events from the tables: a small part of most
	 * traces) */
	bool calls = kinds[kind] == services || kinds[kind] == actions;
	cli_load_options.keep_runtime = !cli_lean() || calls;
	cli_load_options.keep_links = kinds[kind] == tf;
	/* callback and timer latencies need the runs alone; without the
	 * tables, the records are scanned in the load's runtime pass */
	ca_records_options ro = { .runs_only = kinds[kind] == callbacks || kinds[kind] == timers,
		/* topic and node latencies joined as the scan goes, unless every
		 * instance is to be written */
		.latencies_only = !records_path && (kinds[kind] == topics || kinds[kind] == nodes) };
	bool no_records = calls || (kinds[kind] == tf && !records_path);
	cli_load_options.records = no_records ? NULL : &ro;
	/* callback, timer, and streamed topic and node latencies show no
	 * runtime count nor finding */
	cli_load_options.records_only = ro.runs_only || ro.latencies_only;
	ca_trace *t = cli_load("latency", argv + optind, argc - optind);
	cli_load_options.records = NULL; /* ro lives in this function only */
	cli_load_options.records_only = false;
	if (!t)
		return 1;
	char err[1024];
	/* tf's latencies need no record: its --records names the runs' callbacks */
	ca_records *rec = no_records ? NULL : ca_records_build_options(t, &ro, err, sizeof err);
	FILE *records = records_path ? fopen(records_path, "w") : NULL;
	int status = 1;
	if (!rec && !no_records)
		fprintf(stderr, "caret latency: %s\n", err);
	else if (records_path && !records)
		fprintf(stderr, "caret latency: cannot write %s\n", records_path);
	else if (!(status = kinds[kind](t, rec, f, records)) &&
		 (kinds[kind] == topics || kinds[kind] == nodes))
		cli_print_caveats("latency", rec); /* what rests on linked messages */
	if (records && fclose(records) != 0 && !status) {
		fprintf(stderr, "caret latency: cannot write %s\n", records_path);
		status = 1;
	}
	ca_records_free(rec);
	ca_trace_free(t);
	return status;
}
