/*
 * cmd_verify_paths.c - `caret verify_paths FILE [-p NAME...]`, the
 * original's verify_paths: for each named path of an architecture file,
 * whether caret path latency --arch FILE --path NAME can follow it as the
 * file says (its nodes and topics there, each node inside the path with a
 * message context for its input and output topic), in the original's
 * layout. Exit 0 when every path is, 1 when one is not or the file cannot
 * be read, 2 on usage errors.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_util.h"
#include "ros2caret_out.h"
#include "verbs.h"

static int usage(FILE *out)
{
	fprintf(out,
		"usage: caret verify_paths FILE [-p|--verified_path_names NAME...] [-m N]\n"
		"\n"
		"The original's `ros2 caret verify_paths` under its name: for each named path\n"
		"of the architecture FILE (all of them, or those given), prints\n"
		"\"=============== [NAME] ===============\" after an empty line, then on\n"
		"stderr, as the original's logger lines: \"No problem. CARET can calculate\n"
		"the latency of `NAME`\" when caret path latency --arch FILE --path NAME\n"
		"follows it as the file says; else, for each node inside the path without a\n"
		"message_contexts entry for its input and output topic (or with context_type\n"
		"UNDEFINED), the original's warning 'Detected \"message_context is None\"...'\n"
		"naming the node and its topics (caret path latency would follow such a node\n"
		"by its --policy, use_latest_message by default); and a path the file does\n"
		"not have, or whose nodes and topics it lacks, as an error. FILE is checked\n"
		"as caret arch --check checks it.\n"
		"\n"
		"  -p, --verified_path_names NAME...\n"
		"                     the named paths to verify (default: every one)\n"
		"  -m, --max_callback_construction_order_on_path_searching N\n"
		"                     taken as the original takes it (an integer, 0 or\n"
		"                     more): it bounds the original's path search, which\n"
		"                     verifying does not do\n"
		"\n"
		"Exit status: 0 every path verified; 1 a path not, FILE unreadable or\n"
		"without named paths (the original exits 0, or fails with a traceback on a\n"
		"name FILE does not have); 2 usage error.\n");
	return out == stdout ? 0 : 2;
}

/* What one verify_paths was asked. */
struct verify_options {
	const char *file;
	char **names; /* -p's, in argv; NULL: every named path */
	size_t n_names;
};

/* The original's option name arg (or an unambiguous beginning of one, as
 * argparse takes it): 'p', 'm', 'h', or 0. */
static int option_of(const char *arg)
{
	static const struct { const char *name; int code; } names[] = {
		{ "--verified_path_names", 'p' },
		{ "--max_callback_construction_order_on_path_searching", 'm' },
		{ "--help", 'h' },
	};
	int found = 0;
	if (!strcmp(arg, "-p") || !strcmp(arg, "-m") || !strcmp(arg, "-h"))
		return arg[1];
	for (size_t k = 0; k < sizeof names / sizeof *names; k++)
		if (strlen(arg) > 2 && !strncmp(names[k].name, arg, strlen(arg)))
			found = found ? -1 : names[k].code;
	return found > 0 ? found : 0;
}

/* The arguments into o (-p takes every word up to the next option, as
 * argparse's nargs='+'): -1 to go on, else the exit status. */
static int parse(int argc, char **argv, struct verify_options *o)
{
	for (int i = 1; i < argc; i++) {
		int c = argv[i][0] == '-' ? option_of(argv[i]) : 0;
		if (c == 'h')
			return usage(stdout);
		if (c == 'm') {
			if (++i >= argc) {
				fprintf(stderr, "caret verify_paths: -m needs a value\n");
				return 2;
			}
			if (ros2caret_check_max_order("verify_paths", argv[i]))
				return 2;
		} else if (c == 'p') {
			o->names = argv + i + 1;
			while (i + 1 < argc && argv[i + 1][0] != '-')
				o->n_names++, i++;
			if (!o->n_names) {
				fprintf(stderr, "caret verify_paths: -p takes one or more path names\n");
				return 2;
			}
		} else if (argv[i][0] == '-' || o->file) {
			fprintf(stderr, "caret verify_paths: %s '%s'\n", argv[i][0] == '-' ?
				"unrecognized option" : "one FILE only, not also", argv[i]);
			return usage(stderr);
		} else
			o->file = argv[i];
	}
	return o->file ? -1 : usage(stderr);
}

/* One named path: its nodes inside it each with a message context; false
 * after saying what is missing. */
static bool verify_one(const char *file, const char *name)
{
	char err[1024];
	printf("\n=============== [%s] ===============\n", CLI_NAME(name));
	fflush(stdout); /* before the logger lines on stderr, as the original */
	ca_path_set *set = ca_arch_file_path(file, name, err, sizeof err);
	const ca_path *paths;
	if (!set || !ca_path_set_paths(set, &paths)) {
		ros2caret_log(ROS2CARET_ERROR, "%s", set ? "no path" : err);
		ca_path_set_free(set);
		return false;
	}
	const ca_path *p = &paths[0];
	bool ok = true;
	for (size_t i = 1; i + 1 < p->node_count; i++) {
		if (p->policies && p->policies[i] != CA_POLICY_DEFAULT)
			continue;
		ok = false;
		ros2caret_log(ROS2CARET_WARNING, "Detected \"message_context is None\". Correct "
			"these node_path definitions. node_name: %s, subscribe_topic_name: %s, "
			"publish_topic_name: %s: no message_contexts entry for them, or UNDEFINED "
			"(caret path latency follows the node by its --policy; the original "
			"infers callback_chain where a publish names the subscription's callback)",
			CLI_NAME(p->nodes[i]), CLI_NAME(p->topics[i - 1]), CLI_NAME(p->topics[i]));
	}
	if (ok)
		ros2caret_log(ROS2CARET_INFO, "No problem. CARET can calculate the latency of `%s`",
			CLI_NAME(name));
	ca_path_set_free(set);
	return ok;
}

static int run(const struct verify_options *o)
{
	char err[1024], **all = NULL;
	size_t n_all = 0, failed = 0;
	if (ca_arch_file_path_names(o->file, &all, &n_all, err, sizeof err) != 0) {
		fprintf(stderr, "caret verify_paths: %s\n", err);
		return 1;
	}
	if (!o->names && !n_all)
		fprintf(stderr, "caret verify_paths: %s has no named paths: add them under "
			"named_paths (caret path search finds the chains of nodes)\n", o->file);
	size_t n = o->names ? o->n_names : n_all;
	for (size_t i = 0; i < n; i++)
		failed += !verify_one(o->file, o->names ? o->names[i] : all[i]);
	for (size_t i = 0; i < n_all; i++)
		free(all[i]);
	free(all);
	return failed || !n ? 1 : 0;
}

int caret_cmd_verify_paths(int argc, char **argv, const ca_load_options *load)
{
	(void)load; /* an architecture file, no trace */
	struct verify_options o = { 0 };
	int status = parse(argc, argv, &o);
	return status >= 0 ? status : run(&o);
}
