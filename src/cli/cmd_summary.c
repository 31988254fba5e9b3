/*
 * cmd_summary.c - `caret summary {nodes,topics,events} TRACE...`: event
 * counts per node, per topic or per event type, as text, CSV or JSON (the
 * original's node_summary, topic_summary and trace_point_summary).
 */
#include <getopt.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "cli_util.h"
#include "schema.h"
#include "verbs.h"

static int usage(FILE *out)
{
	fprintf(out,
		"usage: caret summary nodes|topics|events [--format text|csv|json] TRACE...\n"
		"\n"
		"Counts the events of the traces (session directories, or parents of\n"
		"several):\n"
		"  nodes   per node (fully qualified name): callback runs, publishes,\n"
		"          messages taken, and every runtime event that names one of the\n"
		"          node's callbacks, publishers or subscriptions; the rest (events\n"
		"          that name only a message, or an unknown object) on the line\n"
		"          (unattributed)\n"
		"  topics  per topic: publishers, subscriptions, publishes, messages taken,\n"
		"          and the runtime events of its publishers and subscriptions\n"
		"  events  per event type, known types in schema order, with the events of\n"
		"          other types and the discarded ones\n");
	fputs(CLI_LOAD_OPTIONS_HELP, out);
	fputs(CLI_MEMORY_HELP, out);
	return out == stdout ? 0 : 2;
}

/* One table: a header and rows of a name and numbers. */
struct table {
	enum cli_format format;
	const char *list; /* JSON: the array's key */
	const char *const *columns;
	size_t n_columns; /* the name column included */
	bool first;
};

static void table_begin(struct table *t)
{
	t->first = true;
	if (t->format == CLI_JSON) {
		printf("\"%s\": [", t->list); /* after cli_begin_output's "{" */
		return;
	}
	for (size_t c = 0; c < t->n_columns; c++)
		if (t->format == CLI_CSV)
			printf("%s%s", c ? "," : "", t->columns[c]);
		else
			printf(c ? " %14s" : "%-48s", t->columns[c]);
	printf("\n");
}

static void table_row(struct table *t, const char *name, const uint64_t *values)
{
	if (t->format == CLI_JSON) {
		printf("%s{\"%s\": ", t->first ? "" : ", ", t->columns[0]);
		cli_json_string(stdout, name);
		for (size_t c = 1; c < t->n_columns; c++)
			printf(", \"%s\": %" PRIu64, t->columns[c], values[c - 1]);
		printf("}");
	} else if (t->format == CLI_CSV) {
		printf("%s", name);
		for (size_t c = 1; c < t->n_columns; c++)
			printf(",%" PRIu64, values[c - 1]);
		printf("\n");
	} else {
		printf("%-48s", name);
		for (size_t c = 1; c < t->n_columns; c++)
			printf(" %14" PRIu64, values[c - 1]);
		printf("\n");
	}
	t->first = false;
}

static void table_end(struct table *t)
{
	if (t->format == CLI_JSON)
		printf("]}\n");
}

static void print_nodes(const ca_trace *tr, enum cli_format f)
{
	static const char *const columns[] = { "node", "callback_runs", "publishes", "takes",
		"events" };
	struct table t = { f, "nodes", columns, 5, true };
	const ca_node_count *n;
	size_t count = ca_trace_node_counts(tr, &n);
	table_begin(&t);
	for (size_t i = 0; i < count; i++)
		table_row(&t, n[i].node, (const uint64_t[]){ n[i].callback_runs, n[i].publishes,
			n[i].takes, n[i].events });
	table_end(&t);
}

static void print_topics(const ca_trace *tr, enum cli_format f)
{
	static const char *const columns[] = { "topic", "publishers", "subscriptions",
		"publishes", "takes", "events" };
	struct table t = { f, "topics", columns, 6, true };
	const ca_topic_count *n;
	size_t count = ca_trace_topic_counts(tr, &n);
	table_begin(&t);
	for (size_t i = 0; i < count; i++)
		table_row(&t, n[i].topic, (const uint64_t[]){ n[i].publishers,
			n[i].subscriptions, n[i].publishes, n[i].takes, n[i].events });
	table_end(&t);
}

static void print_events(const ca_trace *tr, enum cli_format f)
{
	static const char *const columns[] = { "event", "count" };
	struct table t = { f, "events", columns, 2, true };
	table_begin(&t);
	for (size_t i = 0; i < CS_EVENT_COUNT; i++) {
		uint64_t n = ca_trace_rows(tr, cs_events[i].full_name);
		if (n)
			table_row(&t, cs_events[i].full_name, &n);
	}
	uint64_t other = ca_trace_unknown_count(tr), total = ca_trace_event_count(tr),
		 discarded = ca_trace_discarded(tr);
	if (f == CLI_JSON) {
		printf("], \"other\": %" PRIu64 ", \"total\": %" PRIu64
			", \"discarded\": %" PRIu64 "}\n", other, total, discarded);
		return;
	}
	table_row(&t, "(other events)", &other);
	table_row(&t, "total", &total);
	table_row(&t, "discarded", &discarded);
}

static const struct {
	const char *name;
	void (*print)(const ca_trace *, enum cli_format);
} kinds[] = { { "nodes", print_nodes }, { "topics", print_topics }, { "events", print_events } };
#define N_KINDS (sizeof kinds / sizeof *kinds)

/* What one `caret summary` was asked. */
struct summary_options {
	ca_load_options load;
	size_t kind; /* in kinds[] */
	char verb[24]; /* "summary nodes": whom messages blame */
	enum cli_format format;
	char **paths;
	int n_paths;
};

/* The arguments into o: -1 to go on, else the exit status. */
static int parse(int argc, char **argv, struct summary_options *o)
{
	static const struct option opts[] = {
		{ "format", required_argument, NULL, 'f' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 },
	};
	int c;
	if (argc < 2)
		return usage(stderr);
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))
		return usage(stdout);
	while (o->kind < N_KINDS && strcmp(argv[1], kinds[o->kind].name))
		o->kind++;
	if (o->kind == N_KINDS) {
		fprintf(stderr, "caret summary: '%s': expected nodes, topics or events\n", argv[1]);
		return 2;
	}
	snprintf(o->verb, sizeof o->verb, "summary %s", kinds[o->kind].name);
	static char who[40]; /* getopt's own messages name argv[0] */
	snprintf(who, sizeof who, "caret %s", o->verb);
	argc--;
	argv++;
	argv[0] = who;
	optind = 1;
	while ((c = getopt_long(argc, argv, "f:h", opts, NULL)) != -1) {
		if (c == 'h')
			return usage(stdout);
		if (c != 'f')
			return usage(stderr);
		if (cli_parse_format(o->verb, optarg, &o->format) != 0)
			return 2;
	}
	if (optind >= argc)
		return usage(stderr);
	o->paths = argv + optind;
	o->n_paths = argc - optind;
	return -1;
}

static int run(struct summary_options *o)
{
	o->load.keep_runtime = !cli_lean(); /* counts */
	ca_trace *t = cli_load(o->verb, o->paths, o->n_paths, &o->load);
	if (!t)
		return 1;
	cli_begin_output(o->verb, o->format, t);
	kinds[o->kind].print(t, o->format);
	ca_trace_free(t);
	return 0;
}

int caret_cmd_summary(int argc, char **argv, const ca_load_options *load)
{
	struct summary_options o = { .load = *load, .format = CLI_TEXT };
	int status = parse(argc, argv, &o);
	return status >= 0 ? status : run(&o);
}
