/*
 * cmd_summary.c - `caret summary {nodes,topics,events} TRACE...`: event
 * counts per node, per topic or per event type, as text, CSV or JSON; and
 * the original's node_summary, topic_summary and trace_point_summary under
 * their names, options and layout (summary_original.c).
 */
#include <getopt.h>
#include <inttypes.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_util.h"
#include "ros2caret_out.h"
#include "schema.h"
#include "summary_original.h"
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
		printf("%-48s", CLI_NAME(name));
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
	bool ros2caret;     /* the original's verb: its layout */
	bool display_check; /* its -c: the check's warnings too */
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
			return 2; /* getopt said which option, naming the verb */
		if (cli_parse_format(o->verb, optarg, &o->format) != 0)
			return 2;
	}
	if (optind >= argc)
		return usage(stderr);
	o->paths = argv + optind;
	o->n_paths = argc - optind;
	return -1;
}

static bool window_set(const ca_load_options *l)
{
	return !isnan(l->since) || !isnan(l->until) || !isnan(l->strip_start) ||
		!isnan(l->strip_end);
}

/* The original's summaries: its -c shows the check's warnings, which it
 * hides otherwise; discarded events are said either way. */
static int run_original(struct summary_options *o, const ca_trace *t)
{
	size_t warnings, errors;
	cli_begin_output(o->verb, CLI_CSV, t); /* stderr: stdout is the original's */
	if (o->display_check)
		ros2caret_log_findings(t, &warnings, &errors);
	else if (ca_trace_discarded(t))
		ros2caret_log(ROS2CARET_WARNING, "Tracer discarded %" PRIu64 " events.",
			ca_trace_discarded(t));
	return summary_print_original(o->verb, t, (enum summary_group)o->kind,
		window_set(&o->load));
}

static int run(struct summary_options *o)
{
	o->load.keep_runtime = !cli_lean(); /* counts */
	ca_trace *t = cli_load(o->verb, o->paths, o->n_paths, &o->load);
	if (!t)
		return 1;
	int status = 0;
	if (o->ros2caret)
		status = run_original(o, t);
	else {
		cli_begin_output(o->verb, o->format, t);
		kinds[o->kind].print(t, o->format);
	}
	ca_trace_free(t);
	return status;
}

int caret_cmd_summary(int argc, char **argv, const ca_load_options *load)
{
	struct summary_options o = { .load = *load, .format = CLI_TEXT };
	int status = parse(argc, argv, &o);
	return status >= 0 ? status : run(&o);
}

/* ---- the original's node_summary, topic_summary, trace_point_summary ---- */

static int usage_original(FILE *out, const char *verb)
{
	static const char *const natives[] = { "nodes", "topics", "events" };
	static const char *const groups[] = { "node", "topic", "event type" };
	size_t k = !strcmp(verb, "node_summary") ? 0 : !strcmp(verb, "topic_summary") ? 1 : 2;
	fprintf(out,
		"usage: caret %s TRACE... [--duration_filter DURATION OFFSET]\n"
		"                 [--strip_filter LSTRIP RSTRIP] [-c|--display_check]\n"
		"\n"
		"The original's `ros2 caret %s` under its name: the counts of caret\n"
		"summary %s (runtime events per %s) in the original's layout: the trace's\n"
		"creation date, range and duration (with a filter, the range of the\n"
		"callback runs kept too) between two rules, then its table (tabulate's\n"
		"presto) sorted by number_of_trace_points, the largest first.%s Several\n"
		"TRACE paths are read as one system (the original's multi-host), as with\n"
		"--merge. The trace folders read are said on stderr.\n"
		"\n"
		"  --duration_filter DURATION OFFSET\n"
		"               only runtime events from OFFSET s after the trace's start,\n"
		"               for DURATION s (--since OFFSET --until OFFSET+DURATION)\n"
		"  --strip_filter LSTRIP RSTRIP\n"
		"               leave out the first LSTRIP and the last RSTRIP seconds\n"
		"               (--strip-start LSTRIP --strip-end RSTRIP)\n"
		"  -c, --display_check\n"
		"               also caret check's warnings and errors, as the original's\n"
		"               logger lines on stderr (discarded events are said anyway)\n"
		"\n"
		"Exit status: 0; 1 when the trace cannot be read%s; 2 usage error.\n",
		verb, verb, natives[k], groups[k],
		k == 2 ? " Every event type of caret-c's schema is listed, those with no\n"
		"event too, by the names the trace gives them." : " The line of\n"
		"unattributed events is left out, as the original leaves out '-'.",
		k == 0 ? " or has no node" : k == 1 ? " or has no topic" : "");
	fputs(CLI_LOAD_OPTIONS_HELP, out);
	return out == stdout ? 0 : 2;
}

/* The two numbers after a --duration_filter or --strip_filter at argv[*i]
 * (argparse's nargs='+': the original reads the first two, so exactly two
 * here), each seconds within the time window's bounds (option_number.h);
 * false after a usage message. */
static bool take_pair(const char *verb, int argc, char **argv, int *i, double v[2])
{
	const char *option = argv[*i];
	const char *words[2];
	int n = 0;
	char *end;
	while (*i + 1 < argc && n < 3) {
		(void)strtod(argv[*i + 1], &end); /* a number, or the traces begin */
		if (!*argv[*i + 1] || *end)
			break;
		if (n < 2)
			words[n] = argv[*i + 1];
		n++;
		++*i;
	}
	if (n != 2) {
		fprintf(stderr, "caret %s: %s takes two numbers, seconds (%d given)\n", verb, option,
			n);
		return false;
	}
	const struct cli_number seconds = { option, CLI_SECONDS, 0, 1e9, false };
	return cli_number(verb, &seconds, words[0], &v[0]) == 0 &&
		cli_number(verb, &seconds, words[1], &v[1]) == 0;
}

/* The original's option name argv[i] (or an unambiguous beginning of
 * one, as argparse takes it): 'd', 's', 'c', 'h', or 0. */
static int original_option(const char *arg)
{
	static const struct { const char *name; int code; } names[] = {
		{ "--duration_filter", 'd' }, { "--strip_filter", 's' },
		{ "--display_check", 'c' }, { "--help", 'h' },
	};
	int found = 0;
	if (!strcmp(arg, "-c") || !strcmp(arg, "-h"))
		return arg[1];
	for (size_t k = 0; k < sizeof names / sizeof *names; k++)
		if (strlen(arg) > 2 && !strncmp(names[k].name, arg, strlen(arg)))
			found = found ? -1 : names[k].code;
	return found > 0 ? found : 0;
}

/* The original's options onto o (its filters onto the time window); -1
 * to go on, else the exit status. */
static int parse_original(int argc, char **argv, struct summary_options *o)
{
	double d[2], s[2];
	bool duration = false, strip = false, options = true;
	int n = 0;
	for (int i = 1; i < argc; i++) {
		int c = options && argv[i][0] == '-' ? original_option(argv[i]) : 0;
		if (options && !strcmp(argv[i], "--"))
			options = false;
		else if (c == 'h')
			return usage_original(stdout, o->verb);
		else if (c == 'c')
			o->display_check = true;
		else if (c == 'd' || c == 's') {
			if (!take_pair(o->verb, argc, argv, &i, c == 'd' ? d : s))
				return 2;
			*(c == 'd' ? &duration : &strip) = true;
		} else if (options && argv[i][0] == '-' && argv[i][1]) {
			fprintf(stderr, "caret %s: unrecognized option '%s'\n", o->verb, argv[i]);
			return usage_original(stderr, o->verb);
		} else
			argv[++n] = argv[i]; /* a trace: kept in order */
	}
	if (!n)
		return usage_original(stderr, o->verb);
	if ((duration && (!isnan(o->load.since) || !isnan(o->load.until))) ||
	    (strip && (!isnan(o->load.strip_start) || !isnan(o->load.strip_end)))) {
		fprintf(stderr, "caret %s: a filter and caret-c's window options both set one "
			"bound: give one of them\n", o->verb);
		return 2;
	}
	if (duration && !(d[0] > 0)) {
		fprintf(stderr, "caret %s: --duration_filter's DURATION must be above 0\n", o->verb);
		return 2;
	}
	if (duration) {
		o->load.since = d[1];
		o->load.until = d[1] + d[0];
	}
	if (strip) {
		o->load.strip_start = s[0];
		o->load.strip_end = s[1];
	}
	o->paths = argv + 1;
	o->n_paths = n;
	o->load.merge |= n > 1; /* the original's several hosts: one system */
	return -1;
}

static int run_alias(int argc, char **argv, const ca_load_options *load, size_t kind)
{
	struct summary_options o = { .load = *load, .kind = kind, .ros2caret = true };
	snprintf(o.verb, sizeof o.verb, "%s", argv[0]);
	int status = parse_original(argc, argv, &o);
	return status >= 0 ? status : run(&o);
}

int caret_cmd_node_summary(int argc, char **argv, const ca_load_options *load)
{
	return run_alias(argc, argv, load, SUMMARY_NODE_NAME);
}

int caret_cmd_topic_summary(int argc, char **argv, const ca_load_options *load)
{
	return run_alias(argc, argv, load, SUMMARY_TOPIC_NAME);
}

int caret_cmd_trace_point_summary(int argc, char **argv, const ca_load_options *load)
{
	return run_alias(argc, argv, load, SUMMARY_TRACE_POINT);
}
