/*
 * main.c - the `caret` command: parses the verb and hands over to it.
 * Exit status: 0 ok, 1 failure, 2 usage error.
 */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "cli_util.h"
#include "verbs.h"

struct verb {
	const char *name, *summary;
	int (*run)(int argc, char **argv, const ca_load_options *load);
	bool reads_traces; /* takes --reader, --merge and the time window */
};

static const struct verb verbs[] = {
	{ "record", "record a trace of running (or launched) ROS 2 processes", caret_cmd_record,
		false },
	{ "live", "latency and deadline misses of running processes, every second",
		caret_cmd_live, false },
	{ "check", "can a trace give correct latencies? (per process)", caret_cmd_check, true },
	{ "summary", "count events per node, topic or event type", caret_cmd_summary, true },
	{ "arch", "write the architecture of traces as YAML, or check such a file", caret_cmd_arch,
		true },
	{ "latency", "latency per callback, topic or timer, with losses", caret_cmd_latency, true },
	{ "path", "search chains of nodes; end-to-end latency along one", caret_cmd_path, true },
	{ "compare", "did it get slower? two recordings (or sets of runs) compared",
		caret_cmd_compare, true },
	{ "report", "write the HTML report of a trace", caret_cmd_report, true },
	{ "export", "write a trace for Perfetto or chrome://tracing", caret_cmd_export, true },
	{ "env", "the environment a ROS 2 process needs to be traced (LD_PRELOAD)",
		caret_cmd_env, false },
};

/* The original's verbs (ros2 caret VERB) under their names, with their
 * options, onto the verbs above (docs/migrating.md). */
static const struct verb originals[] = {
	{ "check_ctf", "caret check, its findings as the original's warnings",
		caret_cmd_check_ctf, true },
	{ "check_caret_rclcpp", "the packages of a colcon workspace built without CARET's rclcpp",
		caret_cmd_check_caret_rclcpp, false },
	{ "create_architecture_file", "caret arch -o FILE (architecture.yaml; -f overwrites)",
		caret_cmd_create_architecture_file, true },
	{ "node_summary", "caret summary nodes in the original's table", caret_cmd_node_summary,
		true },
	{ "topic_summary", "caret summary topics in the original's table", caret_cmd_topic_summary,
		true },
	{ "trace_point_summary", "caret summary events in the original's table",
		caret_cmd_trace_point_summary, true },
	{ "verify_paths", "can an architecture file's named paths be followed?",
		caret_cmd_verify_paths, false },
	{ "version", "the version alone", caret_cmd_version, false },
};

#define COUNT(a) (sizeof(a) / sizeof *(a))

static int usage(FILE *out)
{
	fprintf(out, "usage: caret VERB [OPTIONS] (caret VERB --help)\n"
		"       caret --version\n\nverbs:\n");
	for (size_t i = 0; i < COUNT(verbs); i++)
		fprintf(out, "  %-10s %s\n", verbs[i].name, verbs[i].summary);
	fprintf(out, "\nthe original's verbs (ros2 caret VERB), with its options and output:\n");
	for (size_t i = 0; i < COUNT(originals); i++)
		fprintf(out, "  %-24s %s\n", originals[i].name, originals[i].summary);
	fprintf(out, "  (record: caret record takes the original's options too)\n");
	return out == stdout ? 0 : 2;
}

static const struct verb *find_verb(const char *name)
{
	for (size_t i = 0; i < COUNT(verbs); i++)
		if (!strcmp(name, verbs[i].name))
			return &verbs[i];
	for (size_t i = 0; i < COUNT(originals); i++)
		if (!strcmp(name, originals[i].name))
			return &originals[i];
	return NULL;
}

int main(int argc, char **argv)
{
	if (argc < 2)
		return usage(stderr);
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") || !strcmp(argv[1], "help"))
		return usage(stdout);
	if (!strcmp(argv[1], "--version"))
		return caret_print_version();
	const struct verb *v = find_verb(argv[1]);
	if (!v) {
		fprintf(stderr, "caret: unknown verb '%s'\n", argv[1]);
		return usage(stderr);
	}
	/* the analyzer verbs' --reader and window, taken off argv */
	ca_load_options load = ca_load_defaults();
	if (v->reads_traces && cli_take_load_options(v->name, &argc, argv, &load) != 0)
		return 2;
	return v->run(argc - 1, argv + 1, &load);
}
