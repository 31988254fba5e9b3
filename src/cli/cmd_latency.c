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
#include "latency_tables.h"
#include "verbs.h"

static int usage(FILE *out)
{
	fprintf(out,
		"usage: caret latency callbacks|topics|timers|nodes|tf|services|actions\n"
		"                     [--format text|csv|json]\n"
		"                     [--records FILE] [--percentiles linear|nearest]\n"
		"                     [--split] (topics)\n"
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
		"             the trace; with --split, each topic's inter-process messages\n"
		"             in three parts: publish_to_write (rclcpp publish to the DDS\n"
		"             write), write_to_reception (to the subscriber's middleware:\n"
		"             Fast DDS's reception time, Cyclone DDS's reader arrival) and\n"
		"             reception_to_callback (the wait for the executor)\n"
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
		"      --percentiles M linear (default) or nearest (nearest rank)\n"
		"      --split        topics: where each message waited (above)\n");
	fputs(CLI_LOAD_OPTIONS_HELP, out);
	fputs(CLI_MEMORY_HELP, out);
	return out == stdout ? 0 : 2;
}

/* What one run of the verb was asked. */
struct latency_options {
	ca_load_options load;
	size_t kind; /* in tables[] */
	struct latency_output out;
	const char *records_path; /* --records */
	char verb[32];            /* "latency callbacks": whom messages blame */
	char **paths;
	int n_paths;
};

static const struct {
	const char *name;
	latency_table *table;
} tables[] = {
	{ "callbacks", latency_callbacks }, { "topics", latency_topics },
	{ "timers", latency_timers }, { "nodes", latency_nodes }, { "tf", latency_tf },
	{ "services", latency_services }, { "actions", latency_actions },
};
#define N_TABLES (sizeof tables / sizeof *tables)

/* The arguments into o: -1 to go on, else the exit status (help, usage). */
static int parse(int argc, char **argv, struct latency_options *o)
{
	static const struct option opts[] = {
		{ "format", required_argument, NULL, 'f' },
		{ "records", required_argument, NULL, 'r' },
		{ "percentiles", required_argument, NULL, 'q' },
		{ "split", no_argument, NULL, 's' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 },
	};
	int c;
	if (argc < 2)
		return usage(stderr);
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))
		return usage(stdout);
	while (o->kind < N_TABLES && strcmp(argv[1], tables[o->kind].name))
		o->kind++;
	if (o->kind == N_TABLES) {
		fprintf(stderr, "caret latency: '%s': expected callbacks, topics, timers, nodes, tf, "
			"services or actions\n", argv[1]);
		return 2;
	}
	snprintf(o->verb, sizeof o->verb, "latency %s", tables[o->kind].name);
	static char who[48]; /* getopt's own messages name argv[0] */
	snprintf(who, sizeof who, "caret %s", o->verb);
	argc--;
	argv++;
	argv[0] = who;
	o->out.verb = o->verb;
	optind = 1;
	while ((c = getopt_long(argc, argv, "f:r:h", opts, NULL)) != -1) {
		if (c == 'h')
			return usage(stdout);
		if (c == 'r')
			o->records_path = optarg;
		else if (c == 's' && tables[o->kind].table == latency_topics)
			o->out.split = true;
		else if (c == 's') {
			fprintf(stderr, "caret %s: --split is for topics (caret latency topics --split)\n",
				o->verb);
			return 2;
		} else if (c == 'q') {
			if (cli_parse_percentiles(o->verb, optarg, &o->out.percentiles))
				return 2;
		} else if (c != 'f' || cli_parse_format(o->verb, optarg, &o->out.format) != 0)
			return 2;
	}
	if (optind >= argc)
		return usage(stderr);
	o->paths = argv + optind;
	o->n_paths = argc - optind;
	return -1;
}

/* The table's records, what the load keeps and what rides it. */
static bool plan_load(struct latency_options *o, ca_records_options *ro)
{
	latency_table *table = tables[o->kind].table;
	/* the records come from a second pass: no table of runtime events is
	 * held, but tf's events' for tf (services read their events from the
	 * tables: a small part of most traces) */
	bool calls = table == latency_services || table == latency_actions;
	o->load.keep_runtime = !cli_lean() || calls;
	o->load.keep_links = table == latency_tf;
	/* callback and timer latencies need the runs alone; without the
	 * tables, the records are scanned in the load's runtime pass */
	*ro = (ca_records_options){ .runs_only = table == latency_callbacks ||
		table == latency_timers,
		/* topic and node latencies joined as the scan goes, unless every
		 * instance is to be written */
		.latencies_only = !o->records_path && !o->out.split &&
			(table == latency_topics || table == latency_nodes) };
	bool no_records = calls || (table == latency_tf && !o->records_path);
	o->load.records = no_records ? NULL : ro;
	/* callback, timer, and streamed topic and node latencies show no
	 * runtime count nor finding */
	o->load.records_only = ro->runs_only || ro->latencies_only;
	return !no_records;
}

static int run(struct latency_options *o)
{
	ca_records_options ro;
	bool with_records = plan_load(o, &ro);
	latency_table *table = tables[o->kind].table;
	ca_trace *t = cli_load(o->verb, o->paths, o->n_paths, &o->load);
	if (!t)
		return 1;
	o->out.trace = t;
	char err[1024];
	/* tf's latencies need no record: its --records names the runs' callbacks */
	ca_records *rec = with_records ? ca_records_build_options(t, &ro, err, sizeof err) : NULL;
	o->out.records = o->records_path ? fopen(o->records_path, "w") : NULL;
	int status = 1;
	if (!rec && with_records)
		fprintf(stderr, "caret %s: %s\n", o->verb, err);
	else if (o->records_path && !o->out.records)
		fprintf(stderr, "caret %s: cannot write %s\n", o->verb, o->records_path);
	else if (!(status = table(t, rec, &o->out)) &&
		 (table == latency_topics || table == latency_nodes))
		cli_print_caveats(o->verb, rec); /* what rests on linked messages */
	if (o->out.records && fclose(o->out.records) != 0 && !status) {
		fprintf(stderr, "caret %s: cannot write %s\n", o->verb, o->records_path);
		status = 1;
	}
	ca_records_free(rec);
	ca_trace_free(t);
	return status;
}

int caret_cmd_latency(int argc, char **argv, const ca_load_options *load)
{
	struct latency_options o = { .load = *load,
		.out = { .format = CLI_TEXT, .percentiles = CA_PERCENTILE_LINEAR } };
	int status = parse(argc, argv, &o);
	return status >= 0 ? status : run(&o);
}
