/*
 * cmd_path.c - `caret path search` (the chains of nodes between two nodes)
 * and `caret path latency` (end-to-end latency of the messages along one
 * chain, with the per-hop breakdown).
 */
#include <getopt.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_util.h"
#include "path_split.h"
#include "plural.h"
#include "verbs.h"

static int usage(FILE *out)
{
	fprintf(out,
		"usage: caret path search --from NODE --to NODE [--max-depth N] [--max-paths N]\n"
		"                         TRACE...\n"
		"       caret path latency (--nodes A,B,C... | --arch FILE --path NAME)\n"
		"                          [--include-first-callback] [--include-last-callback]\n"
		"                          [--policy P] [--format F] [--records FILE]\n"
		"                          [--response-records FILE]\n"
		"                          [--percentiles linear|nearest] [--split] TRACE...\n"
		"\n"
		"search   every simple path of nodes linked by topics (a node publishes what\n"
		"         the next subscribes; /parameter_events, /rosout and /caret/* left\n"
		"         out) from one node to another, at most --max-depth\n"
		"         topics long (default 20) and at most --max-paths of them (default\n"
		"         1000); says when a bound cut the search\n"
		"latency  follows every message the first node publishes along the path:\n"
		"         end-to-end latency, as the original CARET by default from the\n"
		"         first node's publish to the last node's callback start; per hop:\n"
		"         each topic (publish to the subscriber's callback start), each node\n"
		"         (input to output) and, when included, the first and last\n"
		"         callbacks; the response time in the original's four cases (all,\n"
		"         best, worst, worst-with-external-latency: docs/latency.md); the\n"
		"         messages that did not reach the end\n"
		"\n"
		"  --split     under each topic hop, its inter-process messages' parts:\n"
		"              publish_to_write (to the DDS write), write_to_reception (to\n"
		"              the subscriber's middleware), reception_to_callback (the\n"
		"              wait for the executor); needs a trace of caret record\n"
		"  --include-first-callback  start at the first callback's start, not at\n"
		"              its publish\n"
		"  --include-last-callback   end at the last callback's end, not at its\n"
		"              start\n"
		"  --nodes A,B,C  the chain by node names; the topic between two is the one\n"
		"              they share, else a tf link, else a service one calls and the\n"
		"              other serves (request:SERVICE, response:SERVICE back to the\n"
		"              client's response run: --nodes /client,/server,/client)\n"
		"  --arch FILE --path NAME  the named path of an architecture file (its\n"
		"              node_chain, with publish_topic_name / subscribe_topic_name)\n"
		"  --policy P  how a node turns input into output: use_latest_message\n"
		"              (default, the original CARET's: every publish while the\n"
		"              input is its latest, one instance each),\n"
		"              consume_latest_message (its next publish only: a node that\n"
		"              uses an input once), callback_chain (published by the\n"
		"              callback that took it) or inherit_unique_stamp (the output\n"
		"              carries the input's header stamp); an architecture file's\n"
		"              message_contexts override it per node\n"
		"  --format F  text (default, microseconds), csv or json (nanoseconds)\n"
		"  --records FILE  every message along the path as CSV (one row per publish\n"
		"              of the first node, and per further output it fed at a\n"
		"              use_latest_message node; a lost message's missing times empty)\n"
		"  --response-records FILE  every response time as CSV: case, input, time\n"
		"  --percentiles M  linear (default: numpy's, as the original CARET) or\n"
		"              nearest (nearest rank); docs/latency.md defines both\n"
		"The messages are followed as the trace is read, in memory that grows with the\n"
		"path's messages and its nodes' publishes; a path through tf or a service, or\n"
		"a node inheriting stamps, is followed over the records of the path's nodes\n"
		"instead.\n");
	fputs(CLI_LOAD_OPTIONS_HELP, out);
	fputs(CLI_MEMORY_HELP, out);
	return out == stdout ? 0 : 2;
}

static void print_path(const ca_path *p)
{
	for (size_t i = 0; i < p->node_count; i++)
		printf(i ? " -> [%s] -> %s" : "%s%s", i ? CLI_NAME(p->topics[i - 1]) : "",
			CLI_NAME(p->nodes[i]));
	printf("\n");
}

/* What one `caret path search` was asked. */
struct search_options {
	ca_load_options load;
	const char *from, *to;
	long depth, paths; /* --max-depth, --max-paths */
	char **traces;
	int n_traces;
};

/* The arguments into o: -1 to go on, else the exit status. */
static int parse_search(int argc, char **argv, struct search_options *o)
{
	static const struct option opts[] = {
		{ "from", required_argument, NULL, 'f' },
		{ "to", required_argument, NULL, 't' },
		{ "max-depth", required_argument, NULL, 'd' },
		{ "max-paths", required_argument, NULL, 'n' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 },
	};
	/* a path of up to 1,000 topics, a million of them listed */
	static const struct cli_number depth = { "--max-depth", CLI_COUNT, 1, 1000, false },
		paths = { "--max-paths", CLI_COUNT, 1, 1e6, false };
	int c;
	static char who[] = "caret path search"; /* getopt's messages name argv[0] */
	argv[0] = who;
	optind = 1;
	while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		if (c == 'f')
			o->from = optarg;
		else if (c == 't')
			o->to = optarg;
		else if (c == 'd' || c == 'n') {
			double v;
			if (cli_number("path search", c == 'd' ? &depth : &paths, optarg, &v))
				return 2;
			*(c == 'd' ? &o->depth : &o->paths) = (long)v;
		} else /* help, or an option getopt named, with the verb */
			return c == 'h' ? usage(stdout) : 2;
	}
	if (!o->from || !o->to || optind >= argc) {
		fprintf(stderr, "caret path search: --from, --to and a TRACE are needed\n");
		return 2;
	}
	o->traces = argv + optind;
	o->n_traces = argc - optind;
	return -1;
}

static int run_search(const struct search_options *o)
{
	ca_trace *t = cli_load("path search", o->traces, o->n_traces, &o->load);
	if (!t)
		return 1;
	char err[1024];
	ca_path_set *set = ca_path_search(t, o->from, o->to, (size_t)o->depth, (size_t)o->paths,
		err, sizeof err);
	if (!set) {
		fprintf(stderr, "caret path search: %s\n", err);
		ca_trace_free(t);
		return 1;
	}
	const ca_path *p;
	size_t n = ca_path_set_paths(set, &p);
	cli_begin_output("path search", CLI_TEXT, t);
	for (size_t i = 0; i < n; i++)
		print_path(&p[i]);
	printf("%zu path%s from %s to %s\n", n, n == 1 ? "" : "s", CLI_NAME(o->from),
		CLI_NAME(o->to));
	if (ca_path_set_count_cut(set))
		printf("search stopped at %ld %s (--max-paths): there are more\n", o->paths,
			caret_plural((uint64_t)o->paths, "path", "paths"));
	if (ca_path_set_depth_cut(set))
		printf("paths longer than %ld %s were not searched (--max-depth)\n", o->depth,
			caret_plural((uint64_t)o->depth, "topic", "topics"));
	ca_path_set_free(set);
	ca_trace_free(t);
	return 0;
}

static int search(int argc, char **argv, const ca_load_options *load)
{
	struct search_options o = { .load = *load, .depth = 20, .paths = 1000 };
	int status = parse_search(argc, argv, &o);
	return status >= 0 ? status : run_search(&o);
}

/* ---- latency ------------------------------------------------------------ */

static size_t split_nodes(char *list, const char **nodes, size_t max)
{
	size_t n = 0;
	for (char *s = strtok(list, ","); s && n < max; s = strtok(NULL, ","))
		nodes[n++] = s;
	return n;
}

static void print_stats(enum cli_format f, const char *name, const ca_stats *s, bool first)
{
	if (f == CLI_TEXT)
		printf("%-52s ", CLI_NAME(name));
	else if (f == CLI_CSV)
		printf("%s,", name);
	else {
		printf("%s{\"hop\": ", first ? "" : ", ");
		cli_json_string(stdout, name);
		printf(", ");
	}
	cli_print_stats(stdout, f, s);
	printf(f == CLI_JSON ? "}" : "\n");
}

static const char *const response_case_names[] = {
	[CA_RESPONSE_ALL] = "all",
	[CA_RESPONSE_BEST] = "best",
	[CA_RESPONSE_WORST] = "worst",
	[CA_RESPONSE_WORST_WITH_EXTERNAL_LATENCY] = "worst-with-external-latency",
};

static void print_time(FILE *out, uint64_t t)
{
	if (t)
		fprintf(out, "%" PRIu64, t);
}

/* Every message along the path: its times, its latency under span, its hops
 * (a lost message's missing ones empty). */
static void write_records(FILE *out, const ca_path *p, const ca_path_latency *l,
	ca_path_span span)
{
	const ca_path_message *m;
	const int64_t *hops;
	size_t n = ca_path_latency_messages(l, &m, &hops), h = ca_path_latency_hop_count(l);
	char name[600];
	fprintf(out, "first_callback_start_ns,first_publish_ns,last_callback_start_ns,"
		"last_callback_end_ns,start_ns,end_ns,latency_ns");
	for (size_t k = 0; k < h; k++) {
		ca_path_hop_name(p, k, name, sizeof name);
		fprintf(out, ",%s", name);
	}
	fprintf(out, "\n");
	for (size_t i = 0; i < n; i++) {
		uint64_t start, end;
		bool ended = ca_path_message_span(&m[i], span, &start, &end);
		fprintf(out, "%" PRIu64 ",%" PRIu64 ",", m[i].callback_start, m[i].publish);
		print_time(out, m[i].last_start);
		fputc(',', out);
		print_time(out, m[i].last_end);
		fprintf(out, ",%" PRIu64 ",", start);
		if (ended)
			fprintf(out, "%" PRIu64 ",%" PRId64, end, (int64_t)(end - start));
		else
			fputc(',', out);
		for (size_t k = 0; k < h; k++)
			if (hops[i * h + k] == CA_HOP_NONE)
				fputc(',', out);
			else
				fprintf(out, ",%" PRId64, hops[i * h + k]);
		fprintf(out, "\n");
	}
}

/* The hops' statistics, worked out in a thread of their own while the
 * caller's works out the end-to-end and response times: the report's
 * sorts on both cores. */
struct hop_stats {
	const ca_path_latency *l;
	ca_path_span span;
	ca_percentile_method pm;
	ca_stats *stats; /* per hop */
	bool ok;
};

static void *work_out_hops(void *arg)
{
	struct hop_stats *w = arg;
	const ca_path_message *m;
	const int64_t *hops;
	size_t n = ca_path_latency_messages(w->l, &m, &hops), h = ca_path_latency_hop_count(w->l);
	int64_t *v = malloc((n + 1) * sizeof *v);
	w->ok = v != NULL;
	for (size_t k = 0; v && k < h; k++) {
		if (!ca_path_hop_in_span(k, h, w->span))
			continue;
		size_t count = 0;
		for (size_t i = 0; i < n; i++)
			if (hops[i * h + k] != CA_HOP_NONE)
				v[count++] = hops[i * h + k];
		ca_stats_select(v, count, w->pm, &w->stats[k]);
	}
	free(v);
	return NULL;
}

/* Topic hop k's parts (--split), each a row under the hop's. */
static bool print_split(enum cli_format f, const ca_hop_splitter *split,
	const ca_path_latency *l, size_t k, ca_percentile_method pm)
{
	ca_stats parts[PATH_SPLIT_PARTS];
	char name[64];
	if (path_split_hop(split, l, k, pm, parts) == (size_t)-1)
		return false;
	for (int i = 0; i < PATH_SPLIT_PARTS; i++) {
		snprintf(name, sizeof name, "  %s", path_split_names[i]);
		print_stats(f, f == CLI_TEXT ? name : path_split_names[i], &parts[i], false);
	}
	return true;
}

static int report(const ca_trace *t, const ca_path *p, const ca_path_latency *l,
	ca_path_span span, enum cli_format f, ca_percentile_method pm, FILE *records,
	FILE *responses, const ca_hop_splitter *split)
{
	const ca_path_message *m;
	const int64_t *hops;
	size_t n = ca_path_latency_messages(l, &m, &hops), h = ca_path_latency_hop_count(l), count;
	int64_t *v = malloc((n + 1) * sizeof *v);
	uint64_t *inputs = malloc((n + 1) * sizeof *inputs);
	char name[600];
	ca_stats s;
	int status = 0;
	struct hop_stats w = { l, span, pm, calloc(h + 1, sizeof *w.stats), false };
	pthread_t worker;
	bool working = false;

	if (!v || !inputs || !w.stats)
		goto out_of_memory;
	if (!(working = !pthread_create(&worker, NULL, work_out_hops, &w)))
		work_out_hops(&w);
	if (records)
		write_records(records, p, l, span);
	cli_begin_output("path latency", f, t);
	if (f == CLI_TEXT) {
		printf("path: ");
		print_path(p);
		if (span.first_callback)
			printf("from the start of %s's callback", CLI_NAME(p->nodes[0]));
		else
			printf("from %s's publish on %s", CLI_NAME(p->nodes[0]),
				CLI_NAME(p->topics[0]));
		printf(" to the %s of %s's callback\n", span.last_callback ? "end" : "start",
			CLI_NAME(p->nodes[p->node_count - 1]));
		printf("%-52s %8s %10s %10s %10s %10s %10s %10s\n", "hop", "count", "min_us", "mean_us",
			"p50_us", "p90_us", "p99_us", "max_us");
	} else if (f == CLI_CSV) {
		printf("hop,count,min_ns,mean_ns,p50_ns,p90_ns,p99_ns,max_ns\n");
	} else {
		printf("\"include_first_callback\": %s, \"include_last_callback\": %s, \"hops\": [",
			span.first_callback ? "true" : "false", span.last_callback ? "true" : "false");
	}
	ca_stats_select(v, ca_path_latencies(l, span, NULL, v), pm, &s);
	print_stats(f, "end to end", &s, true);
	if (responses)
		fprintf(responses, "case,input_ns,response_time_ns\n");
	for (int c = CA_RESPONSE_ALL; c <= CA_RESPONSE_WORST_WITH_EXTERNAL_LATENCY; c++) {
		count = ca_path_response_times(l, span, (ca_response_case)c, inputs, v);
		if (count == (size_t)-1)
			goto out_of_memory; /* the worker is joined there */
		for (size_t i = 0; responses && i < count; i++)
			fprintf(responses, "%s,%" PRIu64 ",%" PRId64 "\n", response_case_names[c],
				inputs[i], v[i]);
		ca_stats_select(v, count, pm, &s);
		snprintf(name, sizeof name, "response time (%s)", response_case_names[c]);
		print_stats(f, name, &s, false);
	}
	if (working)
		pthread_join(worker, NULL);
	working = false;
	if (!w.ok)
		goto out_of_memory;
	for (size_t k = 0; k < h; k++) {
		if (!ca_path_hop_in_span(k, h, span))
			continue;
		ca_path_hop_name(p, k, name, sizeof name);
		print_stats(f, name, &w.stats[k], false);
		if (split && k % 2 && !print_split(f, split, l, k, pm))
			goto out_of_memory;
	}
	uint64_t lost = ca_path_latency_lost(l, span);
	if (!n)
		fprintf(stderr, "caret path latency: the trace has no publish of %s on %s: no message "
			"to follow\n", p->nodes[0], p->topics[0]);
	if (f == CLI_JSON)
		printf("], \"messages\": %zu, \"not_reaching_the_end\": %" PRIu64 "}\n", n, lost);
	else if (f == CLI_TEXT)
		printf("%" PRIu64 " of %zu %s of the first node did not reach the end of the "
			"path\n", lost, n, caret_plural(n, "message", "messages"));
	else
		printf("not reaching the end,%" PRIu64 ",,,,,,\n", lost);
	goto out;
out_of_memory:
	if (working)
		pthread_join(worker, NULL);
	fprintf(stderr, "caret path latency: out of memory\n");
	status = 1;
out:
	free(w.stats);
	free(v);
	free(inputs);
	return status;
}

/* What one `caret path latency` was asked. */
struct latency_options {
	ca_load_options load;
	const char *nodes[64]; /* --nodes */
	size_t n_nodes;
	const char *arch, *path_name; /* --arch FILE --path NAME */
	ca_node_policy policy;
	ca_path_span span;
	enum cli_format format;
	ca_percentile_method percentiles;
	const char *records_path, *responses_path;
	bool split; /* --split: each topic hop in its parts */
	char **paths; /* the traces */
	int n_paths;
};

static int parse_policy(const char *arg, ca_node_policy *policy)
{
	if (!ca_policy_of_name(arg, policy))
		return 0;
	fprintf(stderr, "caret path latency: unknown policy '%s' (" CA_POLICY_NAMES ")\n", arg);
	return -1;
}

/* One option into o: 0, or the exit status (a bad value, an unknown option). */
static int take_latency_option(int c, struct latency_options *o)
{
	switch (c) {
	case 'n': o->n_nodes = split_nodes(optarg, o->nodes, 64); return 0;
	case 'a': o->arch = optarg; return 0;
	case 'P': o->path_name = optarg; return 0;
	case 'p': return parse_policy(optarg, &o->policy) ? 2 : 0;
	case 'f': return cli_parse_format("path latency", optarg, &o->format) ? 2 : 0;
	case 'r': o->records_path = optarg; return 0;
	case 'R': o->responses_path = optarg; return 0;
	case '1': o->span.first_callback = true; return 0;
	case '2': o->span.last_callback = true; return 0;
	case 'q': return cli_parse_percentiles("path latency", optarg, &o->percentiles) ? 2 : 0;
	case 's': o->split = true; return 0;
	default: return 2; /* getopt named the option, and the verb */
	}
}

/* The arguments into o: -1 to go on, else the exit status. */
static int parse_latency(int argc, char **argv, struct latency_options *o)
{
	static const struct option opts[] = {
		{ "nodes", required_argument, NULL, 'n' },
		{ "arch", required_argument, NULL, 'a' },
		{ "path", required_argument, NULL, 'P' },
		{ "policy", required_argument, NULL, 'p' },
		{ "format", required_argument, NULL, 'f' },
		{ "records", required_argument, NULL, 'r' },
		{ "percentiles", required_argument, NULL, 'q' },
		{ "include-first-callback", no_argument, NULL, '1' },
		{ "include-last-callback", no_argument, NULL, '2' },
		{ "response-records", required_argument, NULL, 'R' },
		{ "split", no_argument, NULL, 's' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 },
	};
	int c, status;
	static char who[] = "caret path latency"; /* getopt's messages name argv[0] */
	argv[0] = who;
	optind = 1;
	while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		if (c == 'h')
			return usage(stdout);
		if ((status = take_latency_option(c, o)) != 0)
			return status;
	}
	bool named = o->arch && o->path_name;
	if ((o->n_nodes < 2) == !named || !o->arch != !o->path_name || optind >= argc) {
		fprintf(stderr, "caret path latency: --nodes A,B... (two or more), or --arch FILE "
			"--path NAME, and a TRACE are needed\n");
		return 2;
	}
	o->paths = argv + optind;
	o->n_paths = argc - optind;
	return -1;
}

/* Closes a file written; false (after a message) when it did not write. */
static bool close_written(FILE *f, const char *path)
{
	if (!f || fclose(f) == 0)
		return true;
	fprintf(stderr, "caret path latency: cannot write %s\n", path);
	return false;
}

/* The path's latency written as asked: 0, or 1 after a message. */
static int write_latency(const struct latency_options *o, const ca_trace *t, const ca_path *p,
	const ca_path_latency *l, const ca_records *rec, const ca_hop_splitter *split)
{
	FILE *records = o->records_path ? fopen(o->records_path, "w") : NULL;
	FILE *responses = o->responses_path ? fopen(o->responses_path, "w") : NULL;
	int status = 1;
	if ((o->records_path && !records) || (o->responses_path && !responses))
		fprintf(stderr, "caret path latency: cannot write %s\n",
			o->records_path && !records ? o->records_path : o->responses_path);
	else if (!(status = report(t, p, l, o->span, o->format, o->percentiles, records, responses,
			split)))
		cli_print_caveats("path latency", rec);
	if (!close_written(records, o->records_path) ||
	    !close_written(responses, o->responses_path))
		status = 1;
	return status;
}

static int run_latency(struct latency_options *o)
{
	char err[1024];
	/* a named path is known before the trace is loaded */
	ca_path_set *set = o->arch ? ca_arch_file_path(o->arch, o->path_name, err, sizeof err) :
		NULL;
	const ca_path *p = NULL;
	ca_path_set_paths(set, &p);
	if (o->arch && !set) {
		fprintf(stderr, "caret path latency: %s\n", err);
		return 1;
	}
	/* the path followed as the load's second pass scans the events (else
	 * the records of its nodes alone, built in that pass); no table of
	 * runtime events is held but the tf events' (paths through tf) */
	ca_path named = { o->n_nodes, o->nodes, NULL, NULL };
	ca_records_options mine = { .nodes = p ? p->nodes : o->nodes,
		.n_nodes = p ? p->node_count : o->n_nodes, .follow = p ? p : &named,
		.follow_policy = o->policy };
	o->load.keep_runtime = !cli_lean() || o->split; /* --split: the joined records too */
	o->load.keep_links = true;
	o->load.records = o->load.keep_runtime ? NULL : &mine;
	o->load.records_only = true; /* it shows no runtime count nor finding */
	ca_trace *t = cli_load("path latency", o->paths, o->n_paths, &o->load);
	if (t && !o->arch) {
		set = ca_path_of_nodes(t, o->nodes, o->n_nodes, err, sizeof err);
		ca_path_set_paths(set, &p);
	}
	ca_records *rec = t && set ? ca_records_build_options(t, &mine, err, sizeof err) : NULL;
	ca_path_latency *l = rec ? ca_path_latency_build(rec, p, o->policy, err, sizeof err) : NULL;
	ca_records *joined = l && o->split ? ca_records_build(t, err, sizeof err) : NULL;
	ca_hop_splitter *split = joined ? ca_hop_splitter_new(joined) : NULL;
	int status = 1;
	if (t && !l)
		fprintf(stderr, "caret path latency: %s\n", err);
	else if (o->split && !joined)
		fprintf(stderr, "caret path latency: %s\n", err);
	else if (o->split && !split)
		fprintf(stderr, "caret path latency --split: no message on the path has its reception "
			"by the subscriber's middleware in the trace: it was recorded by another tracer "
			"(the original CARET's, ros2_tracing) or an older caret-c; record again with "
			"caret record\n");
	else if (l)
		status = write_latency(o, t, p, l, rec, split);
	ca_hop_splitter_free(split);
	ca_records_free(joined);
	ca_path_latency_free(l);
	ca_records_free(rec);
	ca_path_set_free(set);
	ca_trace_free(t);
	return status;
}

static int latency(int argc, char **argv, const ca_load_options *load)
{
	struct latency_options o = { .load = *load, .policy = CA_POLICY_USE_LATEST_MESSAGE,
		.format = CLI_TEXT, .percentiles = CA_PERCENTILE_LINEAR };
	int status = parse_latency(argc, argv, &o);
	return status >= 0 ? status : run_latency(&o);
}

int caret_cmd_path(int argc, char **argv, const ca_load_options *load)
{
	if (argc < 2)
		return usage(stderr);
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))
		return usage(stdout);
	if (!strcmp(argv[1], "search"))
		return search(argc - 1, argv + 1, load);
	if (!strcmp(argv[1], "latency"))
		return latency(argc - 1, argv + 1, load);
	fprintf(stderr, "caret path: '%s': expected search or latency\n", argv[1]);
	return 2;
}
