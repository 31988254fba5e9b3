/*
 * cmd_arch.c - `caret arch TRACE... [-o FILE]`: the architecture of the
 * traces as YAML in the original's keys; `caret arch --check FILE` loads
 * such a file back and checks it. `caret create_architecture_file`: the
 * same file under the original's name and options.
 */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdlib.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cli_util.h"
#include "plural.h"
#include "ros2caret_out.h"
#include "verbs.h"

static int usage(FILE *out)
{
	fprintf(out,
		"usage: caret arch [-o FILE] [--all] TRACE...\n"
		"       caret arch --check FILE\n"
		"\n"
		"Writes the architecture rebuilt from the traces' initialization events\n"
		"(executors, nodes, callback groups, callbacks with symbols, periods and\n"
		"topics, publishes, subscribes) as an architecture file with the keys of\n"
		"the original CARET, to FILE or standard output, as the original writes\n"
		"it: the same names (per node, callback_N over its timers, then its\n"
		"subscriptions, each in creation order), the same order and keys, the\n"
		"same publishes' callback_names and message_contexts; left out as the\n"
		"original leaves them out: the tracer's caret_trace_ nodes, services,\n"
		"/parameter_events, /rosout and /clock (named apart: they shift no\n"
		"name). named_paths is left empty for you to fill in\n"
		"(docs/analyzer.md).\n"
		"\n"
		"A trace with tf events adds two keys of caret-c's own, which the\n"
		"original passes over: a node's tf_broadcasts (the transforms its\n"
		"callbacks broadcast that a lookup in another node read) and tf_lookups\n"
		"(the transforms its callbacks' lookups read), each an edge frame_id ->\n"
		"child_frame_id with its callback_names. A named path goes through such\n"
		"a link as through a topic named tf:FRAME->CHILD (docs/latency.md).\n"
		"\n"
		"--check FILE loads an architecture file back and checks its keys, value\n"
		"types and the names that refer to each other, and the requirements of its\n"
		"deadlines: key (docs/requirements.md); prints what it holds.\n"
		"\n"
		"  -o, --output FILE   write to FILE instead of standard output\n"
		"      --all           every object, services and the tracer's own\n"
		"                      included, and every key\n"
		"      --check FILE    check FILE instead of reading traces\n");
	fputs(CLI_LOAD_OPTIONS_HELP, out);
	return out == stdout ? 0 : 2;
}

static int check_file(const char *path)
{
	ca_arch_file_summary s;
	char err[1024];
	if (ca_arch_file_check(path, &s, err, sizeof err) != 0) {
		fprintf(stderr, "caret arch: %s\n", err);
		return 1;
	}
	printf("%s: ok: %zu named %s, %zu %s, %zu %s, %zu callback %s, %zu %s, %zu %s, %zu %s",
		path, s.named_paths, caret_plural(s.named_paths, "path", "paths"), s.executors,
		caret_plural(s.executors, "executor", "executors"), s.nodes,
		caret_plural(s.nodes, "node", "nodes"), s.callback_groups,
		caret_plural(s.callback_groups, "group", "groups"), s.callbacks,
		caret_plural(s.callbacks, "callback", "callbacks"), s.publishes,
		caret_plural(s.publishes, "publish", "publishes"), s.subscribes,
		caret_plural(s.subscribes, "subscribe", "subscribes"));
	if (s.tf_broadcasts || s.tf_lookups)
		printf(", %zu tf broadcasts, %zu tf lookups", s.tf_broadcasts, s.tf_lookups);
	printf("\n");
	return 0;
}

/* What one `caret arch` was asked. */
struct arch_options {
	ca_load_options load;
	const char *output, *check;
	bool all;
	char **paths;
	int n_paths;
	const char *verb;  /* "arch", or "create_architecture_file" */
	bool keep_existing; /* an existing output is refused (no -f) */
	bool ros2caret;     /* the original's logger line on success */
};

/* The arguments into o: -1 to go on, else the exit status. */
static int parse(int argc, char **argv, struct arch_options *o)
{
	static const struct option opts[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "check", required_argument, NULL, 'c' },
		{ "all", no_argument, NULL, 'a' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 },
	};
	int c;
	optind = 1;
	while ((c = getopt_long(argc, argv, "o:h", opts, NULL)) != -1) {
		if (c == 'o')
			o->output = optarg;
		else if (c == 'c')
			o->check = optarg;
		else if (c == 'a')
			o->all = true;
		else
			return usage(c == 'h' ? stdout : stderr);
	}
	if (o->check && (optind < argc || o->output)) {
		fprintf(stderr, "caret arch: --check takes one file and nothing else\n");
		return 2;
	}
	if (!o->check && optind >= argc)
		return usage(stderr);
	o->paths = argv + optind;
	o->n_paths = argc - optind;
	return -1;
}

/* A trace without executor and callback group events (plain ros2_tracing)
 * gives a file with nodes and topics but no callback: said, not silent. The
 * file is still written (exit 0): its nodes and topics name paths. */
static void warn_lacks_groups(const char *verb, const ca_trace *t)
{
	const ca_architecture *a = ca_trace_architecture(t);
	if (!a || !a->n_callbacks || a->n_groups)
		return;
	fprintf(stderr, "caret %s: warning: the trace has no executor or callback group events "
		"(ros2_caret:construct_executor, add_callback_group, callback_group_add_*; CARET's "
		"tracer records them, plain ros2_tracing does not): its %zu callback%s belong%s to no "
		"callback group, so the file lists nodes and topics but no executor, callback "
		"group or callback\n", verb, a->n_callbacks, a->n_callbacks == 1 ? "" : "s",
		a->n_callbacks == 1 ? "s" : "");
}

/* The output file, opened: an existing one refused when asked to keep it
 * (create_architecture_file without -f, as the original's export). */
static FILE *open_output(const struct arch_options *o)
{
	if (!o->output)
		return stdout;
	FILE *out = fopen(o->output, o->keep_existing ? "wx" : "w");
	if (!out && errno == EEXIST)
		ros2caret_log(ROS2CARET_ERROR, "%s exists (-f overwrites it). Failed to create "
			"architecture file.", o->output);
	else if (!out)
		fprintf(stderr, "caret %s: cannot write %s: %s\n", o->verb, o->output,
			strerror(errno));
	return out;
}

/* The architecture of the traces written as YAML. */
static int write_arch(const struct arch_options *o)
{
	if (o->keep_existing && access(o->output, F_OK) == 0) { /* before a long load */
		ros2caret_log(ROS2CARET_ERROR, "%s exists (-f overwrites it). Failed to create "
			"architecture file.", o->output);
		return 1;
	}
	ca_trace *t = cli_load(o->verb, o->paths, o->n_paths, &o->load);
	if (!t)
		return 1;
	warn_lacks_groups(o->verb, t);
	FILE *out = open_output(o);
	char err[1024];
	int status = 0;
	if (!out) {
		status = 1;
	} else if ((fputs("# ", out), cli_print_trace_folders(out, t)) < 0 ||
		   ca_arch_write_yaml(t, out, o->all, err, sizeof err) != 0) {
		fprintf(stderr, "caret %s: %s\n", o->verb, err);
		status = 1;
	}
	if (out && out != stdout && fclose(out) != 0 && !status) {
		fprintf(stderr, "caret %s: cannot write %s: %s\n", o->verb, o->output,
			strerror(errno));
		status = 1;
	}
	char full[PATH_MAX];
	if (!status && o->ros2caret)
		ros2caret_log(ROS2CARET_INFO, "Architecture file successfully created. PATH: %s",
			realpath(o->output, full) ? full : o->output);
	ca_trace_free(t);
	return status;
}

int caret_cmd_arch(int argc, char **argv, const ca_load_options *load)
{
	struct arch_options o = { .load = *load, .verb = "arch" };
	int status = parse(argc, argv, &o);
	if (status >= 0)
		return status;
	return o.check ? check_file(o.check) : write_arch(&o);
}

static int usage_create(FILE *out)
{
	fprintf(out,
		"usage: caret create_architecture_file TRACE... [-o|--output_path FILE]\n"
		"                                      [-f|--force] [-m N]\n"
		"\n"
		"The original's `ros2 caret create_architecture_file` under its name: caret\n"
		"arch -o FILE (the same file: the original's keys, named_paths empty for\n"
		"you to fill in), then the original's logger line on stderr\n"
		"(\"INFO    : DATE TIME | Architecture file successfully created. PATH:\n"
		"/abs/path\"). Several TRACE paths are read as one system (the original's\n"
		"multi-host), as with --merge.\n"
		"\n"
		"  -o, --output_path FILE  where to write (default ./architecture.yaml)\n"
		"  -f, --force             overwrite FILE if it exists; without it an\n"
		"                          existing FILE is refused (\"... Failed to create\n"
		"                          architecture file.\"), before the trace is read\n"
		"  -m, --max_callback_construction_order_on_path_searching N\n"
		"                          taken as the original takes it (an integer, 0 or\n"
		"                          more): it bounds the original's path search, not\n"
		"                          the file\n"
		"\n"
		"Exit status: 0 written; 1 when FILE exists (without -f), cannot be\n"
		"written, or the trace cannot be read (the original exits 0 in any\n"
		"case); 2 usage error.\n");
	fputs(CLI_LOAD_OPTIONS_HELP, out);
	return out == stdout ? 0 : 2;
}

int caret_cmd_create_architecture_file(int argc, char **argv, const ca_load_options *load)
{
	static const struct option opts[] = {
		{ "output_path", required_argument, NULL, 'o' },
		{ "force", no_argument, NULL, 'f' },
		{ "max_callback_construction_order_on_path_searching", required_argument, NULL,
			'm' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 },
	};
	struct arch_options o = { .load = *load, .verb = "create_architecture_file",
		.output = "architecture.yaml", .keep_existing = true, .ros2caret = true };
	int c;
	optind = 1;
	while ((c = getopt_long(argc, argv, "o:fm:h", opts, NULL)) != -1) {
		if (c == 'o')
			o.output = optarg;
		else if (c == 'f')
			o.keep_existing = false;
		else if (c == 'm' && ros2caret_check_max_order(o.verb, optarg))
			return 2;
		else if (c != 'm')
			return usage_create(c == 'h' ? stdout : stderr);
	}
	if (optind >= argc)
		return usage_create(stderr);
	o.paths = argv + optind;
	o.n_paths = argc - optind;
	o.load.merge |= o.n_paths > 1; /* the original's several hosts: one system */
	return write_arch(&o);
}
