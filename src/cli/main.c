/*
 * main.c - the `caret` command: parses the verb and hands over to it.
 * Exit status: 0 ok, 1 failure, 2 usage error.
 */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "cli_util.h"
#include "verbs.h"

static const struct verb {
	const char *name, *summary;
	int (*run)(int argc, char **argv, const ca_load_options *load);
} verbs[] = {
	{ "record", "record a trace of running (or launched) ROS 2 processes", caret_cmd_record },
	{ "live", "latency and deadline misses of running processes, every second",
		caret_cmd_live },
	{ "check", "can a trace give correct latencies? (per process)", caret_cmd_check },
	{ "summary", "count events per node, topic or event type", caret_cmd_summary },
	{ "arch", "write the architecture of traces as YAML, or check such a file", caret_cmd_arch },
	{ "latency", "latency per callback, topic or timer, with losses", caret_cmd_latency },
	{ "path", "search chains of nodes; end-to-end latency along one", caret_cmd_path },
	{ "report", "write the HTML report of a trace", caret_cmd_report },
	{ "export", "write a trace for Perfetto or chrome://tracing", caret_cmd_export },
	{ "env", "the environment a ROS 2 process needs to be traced (LD_PRELOAD)",
		caret_cmd_env },
};

static int usage(FILE *out)
{
	fprintf(out, "usage: caret VERB [OPTIONS] (caret VERB --help)\n"
		"       caret --version\n\nverbs:\n");
	for (size_t i = 0; i < sizeof verbs / sizeof *verbs; i++)
		fprintf(out, "  %-10s %s\n", verbs[i].name, verbs[i].summary);
	return out == stdout ? 0 : 2;
}

int main(int argc, char **argv)
{
	if (argc < 2)
		return usage(stderr);
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") || !strcmp(argv[1], "help"))
		return usage(stdout);
	if (!strcmp(argv[1], "--version") || !strcmp(argv[1], "version"))
		return caret_print_version();
	for (size_t i = 0; i < sizeof verbs / sizeof *verbs; i++)
		if (!strcmp(argv[1], verbs[i].name)) {
			/* the analyzer verbs' --reader and window, taken off argv */
			ca_load_options load = ca_load_defaults();
			if (strcmp(verbs[i].name, "record") && strcmp(verbs[i].name, "env") &&
			    strcmp(verbs[i].name, "live") &&
			    cli_take_load_options(&argc, argv, &load) != 0)
				return 2;
			return verbs[i].run(argc - 1, argv + 1, &load);
		}
	fprintf(stderr, "caret: unknown verb '%s'\n", argv[1]);
	return usage(stderr);
}
