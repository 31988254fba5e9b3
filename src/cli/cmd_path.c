/*
 * cmd_path.c - `caret path search` (the chains of nodes between two nodes)
 * and `caret path latency` (end-to-end latency of the messages along one
 * chain, with the per-hop breakdown).
 */
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_util.h"
#include "verbs.h"

static int usage(FILE *out)
{
	fprintf(out,
		"usage: caret path search --from NODE --to NODE [--max-depth N] [--max-paths N]\n"
		"                         TRACE...\n"
		"       caret path latency (--nodes A,B,C... | --arch FILE --path NAME)\n"
		"                          [--policy P] [--format F] [--records FILE]\n"
		"                          [--percentiles linear|nearest] TRACE...\n"
		"\n"
		"search   every simple path of nodes linked by topics (a node publishes what\n"
		"         the next subscribes; /parameter_events, /rosout and /caret/* left\n"
		"         out) from one node to another, at most --max-depth\n"
		"         topics long (default 20) and at most --max-paths of them (default\n"
		"         1000); says when a bound cut the search\n"
		"latency  follows every message the first node publishes along the path:\n"
		"         end-to-end latency (first callback start to last callback end) and\n"
		"         per hop: the first callback up to its publish, each topic\n"
		"         (publish to the subscriber's callback start), each node (input to\n"
		"         output), the last callback; messages that did not reach the end;\n"
		"         the worst-case response time (from the first node's previous run,\n"
		"         as an input may have waited that long; the best case is the\n"
		"         end-to-end latency)\n"
		"\n"
		"  --nodes A,B,C  the chain by node names; the topic between two is the one\n"
		"              they share\n"
		"  --arch FILE --path NAME  the named path of an architecture file (its\n"
		"              node_chain, with publish_topic_name / subscribe_topic_name)\n"
		"  --policy P  how a node turns input into output: use_latest_message\n"
		"              (default: its next publish while the input is its latest),\n"
		"              callback_chain (published by the callback that took it) or\n"
		"              inherit_unique_stamp (the output carries the input's header\n"
		"              stamp); an architecture file's message_contexts override it\n"
		"              per node\n"
		"  --format F  text (default, microseconds), csv or json (nanoseconds)\n"
		"  --records FILE  every message along the path as CSV\n"
		"  --percentiles M  linear (default: numpy's, as the original CARET) or\n"
		"              nearest (nearest rank); docs/latency.md defines both\n");
	return out == stdout ? 0 : 2;
}

static void print_path(const ca_path *p)
{
	for (size_t i = 0; i < p->node_count; i++)
		printf(i ? " -> [%s] -> %s" : "%s%s", i ? p->topics[i - 1] : "", p->nodes[i]);
	printf("\n");
}

static int search(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "from", required_argument, NULL, 'f' },
		{ "to", required_argument, NULL, 't' },
		{ "max-depth", required_argument, NULL, 'd' },
		{ "max-paths", required_argument, NULL, 'n' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 },
	};
	const char *from = NULL, *to = NULL;
	long depth = 20, paths = 1000;
	int c;
	char *end;

	optind = 1;
	while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		if (c == 'f')
			from = optarg;
		else if (c == 't')
			to = optarg;
		else if (c == 'd' || c == 'n') {
			long v = strtol(optarg, &end, 10);
			if (*end || v < 1) {
				fprintf(stderr, "caret path: --%s takes a positive number, not '%s'\n",
					c == 'd' ? "max-depth" : "max-paths", optarg);
				return 2;
			}
			*(c == 'd' ? &depth : &paths) = v;
		} else
			return usage(c == 'h' ? stdout : stderr);
	}
	if (!from || !to || optind >= argc) {
		fprintf(stderr, "caret path search: --from, --to and a TRACE are needed\n");
		return 2;
	}
	ca_trace *t = cli_load("path", argv + optind, argc - optind);
	if (!t)
		return 1;
	char err[1024];
	ca_path_set *set = ca_path_search(t, from, to, (size_t)depth, (size_t)paths, err, sizeof err);
	if (!set) {
		fprintf(stderr, "caret path: %s\n", err);
		ca_trace_free(t);
		return 1;
	}
	const ca_path *p;
	size_t n = ca_path_set_paths(set, &p);
	for (size_t i = 0; i < n; i++)
		print_path(&p[i]);
	printf("%zu path%s from %s to %s\n", n, n == 1 ? "" : "s", from, to);
	if (ca_path_set_count_cut(set))
		printf("search stopped at %ld paths (--max-paths): there are more\n", paths);
	if (ca_path_set_depth_cut(set))
		printf("paths longer than %ld topics were not searched (--max-depth)\n", depth);
	ca_path_set_free(set);
	ca_trace_free(t);
	return 0;
}

/* ---- latency ------------------------------------------------------------ */

static size_t split_nodes(char *list, const char **nodes, size_t max)
{
	size_t n = 0;
	for (char *s = strtok(list, ","); s && n < max; s = strtok(NULL, ","))
		nodes[n++] = s;
	return n;
}

static void hop_name(const ca_path *p, size_t hop, char *buf, size_t size)
{
	size_t k = p->node_count - 1;
	if (hop == 0)
		snprintf(buf, size, "callback %s", p->nodes[0]);
	else if (hop == 2 * k)
		snprintf(buf, size, "callback %s", p->nodes[k]);
	else if (hop % 2)
		snprintf(buf, size, "topic %s", p->topics[hop / 2]);
	else
		snprintf(buf, size, "node %s", p->nodes[hop / 2]);
}

static void print_stats(enum cli_format f, const char *name, const ca_stats *s, bool first)
{
	if (f == CLI_TEXT)
		printf("%-52s ", name);
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

static int report(const ca_path *p, const ca_path_latency *l, enum cli_format f,
	ca_percentile_method pm, FILE *records)
{
	const uint64_t *starts, *ends;
	const int64_t *hops;
	size_t n = ca_path_latency_instances(l, &starts, &ends, &hops);
	size_t h = ca_path_latency_hop_count(l);
	int64_t *v = malloc((n + 1) * sizeof *v);
	char name[600];
	ca_stats s;

	if (!v) {
		fprintf(stderr, "caret path: out of memory\n");
		return 1;
	}
	if (records) {
		fprintf(records, "start_ns,end_ns,latency_ns");
		for (size_t k = 0; k < h; k++) {
			hop_name(p, k, name, sizeof name);
			fprintf(records, ",%s", name);
		}
		fprintf(records, "\n");
		for (size_t i = 0; i < n; i++) {
			fprintf(records, "%" PRIu64 ",%" PRIu64 ",%" PRIu64, starts[i], ends[i],
				ends[i] - starts[i]);
			for (size_t k = 0; k < h; k++)
				fprintf(records, ",%" PRId64, hops[i * h + k]);
			fprintf(records, "\n");
		}
	}
	if (f == CLI_TEXT) {
		printf("path: ");
		print_path(p);
		printf("%-52s %8s %10s %10s %10s %10s %10s %10s\n", "hop", "count", "min_us", "mean_us",
			"p50_us", "p90_us", "p99_us", "max_us");
	} else if (f == CLI_CSV) {
		printf("hop,count,min_ns,mean_ns,p50_ns,p90_ns,p99_ns,max_ns\n");
	} else {
		printf("{\"hops\": [");
	}
	for (size_t i = 0; i < n; i++)
		v[i] = (int64_t)(ends[i] - starts[i]);
	ca_stats_of(v, n, pm, &s);
	print_stats(f, "end to end", &s, true);
	/* Response time: an input waits at most from the first node's previous
	 * run to this one before it is taken. */
	const uint64_t *previous = ca_path_latency_previous_starts(l);
	size_t m = 0;
	for (size_t i = 0; i < n; i++)
		if (previous[i])
			v[m++] = (int64_t)(ends[i] - previous[i]);
	ca_stats_of(v, m, pm, &s);
	print_stats(f, "response time, worst case", &s, false);
	for (size_t k = 0; k < h; k++) {
		for (size_t i = 0; i < n; i++)
			v[i] = hops[i * h + k];
		ca_stats_of(v, n, pm, &s);
		hop_name(p, k, name, sizeof name);
		print_stats(f, name, &s, false);
	}
	if (f == CLI_JSON)
		printf("], \"not_reaching_the_end\": %" PRIu64 "}\n", ca_path_latency_lost(l));
	else if (f == CLI_TEXT)
		printf("%" PRIu64 " messages of the first node did not reach the end of the path\n",
			ca_path_latency_lost(l));
	else
		printf("not reaching the end,%" PRIu64 ",,,,,,\n", ca_path_latency_lost(l));
	free(v);
	return 0;
}

static int latency(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "nodes", required_argument, NULL, 'n' },
		{ "arch", required_argument, NULL, 'a' },
		{ "path", required_argument, NULL, 'P' },
		{ "policy", required_argument, NULL, 'p' },
		{ "format", required_argument, NULL, 'f' },
		{ "records", required_argument, NULL, 'r' },
		{ "percentiles", required_argument, NULL, 'q' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 },
	};
	const char *nodes[64], *records_path = NULL, *arch = NULL, *path_name = NULL;
	ca_percentile_method pm = CA_PERCENTILE_LINEAR;
	size_t n_nodes = 0;
	ca_node_policy policy = CA_POLICY_USE_LATEST_MESSAGE;
	enum cli_format f = CLI_TEXT;
	int c;

	optind = 1;
	while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		if (c == 'n')
			n_nodes = split_nodes(optarg, nodes, 64);
		else if (c == 'a')
			arch = optarg;
		else if (c == 'P')
			path_name = optarg;
		else if (c == 'p' && !strcmp(optarg, "use_latest_message"))
			policy = CA_POLICY_USE_LATEST_MESSAGE;
		else if (c == 'p' && !strcmp(optarg, "callback_chain"))
			policy = CA_POLICY_CALLBACK_CHAIN;
		else if (c == 'p' && !strcmp(optarg, "inherit_unique_stamp"))
			policy = CA_POLICY_INHERIT_UNIQUE_STAMP;
		else if (c == 'p') {
			fprintf(stderr, "caret path: unknown policy '%s' (use_latest_message, "
				"callback_chain, inherit_unique_stamp)\n", optarg);
			return 2;
		} else if (c == 'f') {
			if (cli_parse_format("path", optarg, &f))
				return 2;
		} else if (c == 'r')
			records_path = optarg;
		else if (c == 'q') {
			if (cli_parse_percentiles("path", optarg, &pm))
				return 2;
		} else
			return usage(c == 'h' ? stdout : stderr);
	}
	if ((n_nodes < 2) == !(arch && path_name) || (!arch != !path_name) || optind >= argc) {
		fprintf(stderr, "caret path latency: --nodes A,B... (two or more), or --arch FILE "
			"--path NAME, and a TRACE are needed\n");
		return 2;
	}
	ca_trace *t = cli_load("path", argv + optind, argc - optind);
	if (!t)
		return 1;
	char err[1024];
	int status = 1;
	ca_path_set *set = arch ? ca_arch_file_path(arch, path_name, err, sizeof err) :
		ca_path_of_nodes(t, nodes, n_nodes, err, sizeof err);
	ca_records *rec = set ? ca_records_build(t, err, sizeof err) : NULL;
	const ca_path *p = NULL;
	ca_path_set_paths(set, &p);
	ca_path_latency *l = rec ? ca_path_latency_build(rec, p, policy, err, sizeof err) : NULL;
	FILE *records = l && records_path ? fopen(records_path, "w") : NULL;
	if (!l)
		fprintf(stderr, "caret path: %s\n", err);
	else if (records_path && !records)
		fprintf(stderr, "caret path: cannot write %s\n", records_path);
	else
		status = report(p, l, f, pm, records);
	if (records && fclose(records) != 0 && !status) {
		fprintf(stderr, "caret path: cannot write %s\n", records_path);
		status = 1;
	}
	ca_path_latency_free(l);
	ca_records_free(rec);
	ca_path_set_free(set);
	ca_trace_free(t);
	return status;
}

int caret_cmd_path(int argc, char **argv)
{
	if (argc < 2)
		return usage(stderr);
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))
		return usage(stdout);
	if (!strcmp(argv[1], "search"))
		return search(argc - 1, argv + 1);
	if (!strcmp(argv[1], "latency"))
		return latency(argc - 1, argv + 1);
	fprintf(stderr, "caret path: '%s': expected search or latency\n", argv[1]);
	return 2;
}
