/*
 * cmd_check.c - `caret check TRACE...`: whether a trace can give correct
 * latencies, per process. Exit 0 when it can (warnings allowed), 1 when
 * any finding is an error or the trace cannot be read, 2 on usage errors.
 * `caret check_ctf`: the same check under the original's name, options
 * and messages.
 */
#include <getopt.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "check_requirements.h"
#include "cli_util.h"
#include "plural.h"
#include "ros2caret_out.h"
#include "verbs.h"

static int usage(FILE *out)
{
	fprintf(out,
		"usage: caret check TRACE...\n"
		"       caret check --requirements FILE [--junit OUT] TRACE...\n"
		"\n"
		"Reads the traces (session directories, or parents of several) and says,\n"
		"per process (named by its program and its nodes, its objects counted\n"
		"apart: the system's, then ROS 2's own and the tracer's: parameter\n"
		"services, /parameter_events, /rosout...), whether the trace can give\n"
		"correct latencies: caret_init and the initialization data complete\n"
		"(every callback with a node and a symbol, every subscription and timer\n"
		"with a callback, every timer with a node), executors and callback\n"
		"groups, runtime events naming unknown objects, DDS source timestamps for\n"
		"inter-process messages, merged or unmerged events, duplicates dropped;\n"
		"and for the whole trace, events discarded by LTTng and packets lost.\n"
		"\n"
		"Exit status: 0 fine (warnings allowed), 1 an error was found or the\n"
		"trace cannot be read, 2 usage error.\n"
		"\n"
		"  --requirements FILE  instead: judges the requirements of the architecture\n"
		"                 file's deadlines: key on the trace (a named path's end-to-end\n"
		"                 latency as caret path latency counts it, a callback's runs\n"
		"                 as caret latency callbacks): deadline (with miss_ratio), p99,\n"
		"                 max; a line each: PASS, FAIL (measured against the bound, the\n"
		"                 worst instances' start ns and latency), NONE (no instance),\n"
		"                 MISSING (not in the trace, the nearest names);\n"
		"                 exit 0 all passed, 3 one failed, 1 none failed but one could\n"
		"                 not be judged (docs/requirements.md)\n"
		"  --junit OUT    with --requirements: also JUnit XML into OUT, a test case per\n"
		"                 bound (classname: the path or callback)\n");
	fputs(CLI_LOAD_OPTIONS_HELP, out);
	fputs(CLI_MEMORY_HELP, out);
	return out == stdout ? 0 : 2;
}

static const char *severity_name(ca_severity s)
{
	return s == CA_ERROR ? "error" : s == CA_WARNING ? "warning" : "info";
}

/* The objects of a process, the user's (mine) and ROS 2's or the
 * tracer's apart (ca_callback_is_users and the hidden flags), per kind. */
enum { KIND_NODES, KIND_CALLBACKS, KIND_PUBLISHERS, KIND_SUBSCRIPTIONS, KIND_TIMERS,
	KIND_SERVICES, KIND_CLIENTS, KIND_GROUPS, KIND_EXECUTORS, KINDS };

/* A group the original's names leave out (a service's alone) that holds
 * a callback of the user's. */
static bool holds_users_callback(const ca_architecture *a, size_t group)
{
	for (size_t i = 0; i < a->n_callbacks; i++) {
		const ca_callback *c = &a->callbacks[i];
		size_t g = c->kind == CA_CALLBACK_TIMER ? a->timers[c->owner].group :
			c->kind == CA_CALLBACK_SERVICE ? a->services[c->owner].group :
			a->subscriptions[c->owner].group;
		if (g == group && ca_callback_is_users(a, i))
			return true;
	}
	return false;
}

static void count_kinds(const ca_architecture *a, int64_t pid, size_t mine[KINDS],
	size_t theirs[KINDS])
{
#define COUNT(kind, array, users) \
	for (size_t k = 0; k < a->n_##array; k++) \
		if (a->array[k].pid == pid) \
			((users) ? mine : theirs)[kind]++;
	COUNT(KIND_NODES, nodes, !a->nodes[k].hidden)
	COUNT(KIND_CALLBACKS, callbacks, ca_callback_is_users(a, k))
	COUNT(KIND_PUBLISHERS, publishers, !a->publishers[k].hidden)
	COUNT(KIND_SUBSCRIPTIONS, subscriptions, !a->subscriptions[k].hidden)
	COUNT(KIND_TIMERS, timers, a->timers[k].callback == CA_NONE ?
		a->timers[k].node == CA_NONE || !a->nodes[a->timers[k].node].hidden :
		ca_callback_is_users(a, a->timers[k].callback))
	COUNT(KIND_SERVICES, services, ca_service_is_users(a, k))
	COUNT(KIND_CLIENTS, clients, ca_client_is_users(a, k))
	COUNT(KIND_GROUPS, groups, !a->groups[k].hidden || holds_users_callback(a, k))
	COUNT(KIND_EXECUTORS, executors, !a->executors[k].hidden)
#undef COUNT
}

static void print_counts(const char *whose, const size_t counts[KINDS])
{
	static const char *const names[KINDS][2] = {
		{ "node", "nodes" }, { "callback", "callbacks" }, { "publisher", "publishers" },
		{ "subscription", "subscriptions" }, { "timer", "timers" },
		{ "service", "services" }, { "client", "clients" },
		{ "callback group", "callback groups" }, { "executor", "executors" },
	};
	printf("  %s:", whose);
	for (int i = 0; i < KINDS; i++)
		printf("%s %zu %s", i ? "," : "", counts[i], names[i][counts[i] != 1]);
	printf("\n");
}

/* "process PID (PROCNAME): its nodes", then its objects: the system's,
 * then ROS 2's own and the tracer's. */
static void print_process(const ca_architecture *a, const ca_process *p)
{
	size_t mine[KINDS] = { 0 }, theirs[KINDS] = { 0 };
	char nodes[1024];
	count_kinds(a, p->pid, mine, theirs);
	ca_process_nodes(a, (size_t)(p - a->processes), nodes, sizeof nodes);
	if (cli_host_clocks()->n > 1 && p->host) /* its pid on its host (ctf_meta.pid_base) */
		printf("process %" PRId64 " on %s (%s): %s\n", p->pid & 0xffffff,
			CLI_NAME(p->host), CLI_NAME(p->procname ? p->procname : "?"), CLI_NAME(nodes));
	else
		printf("process %" PRId64 " (%s): %s\n", p->pid,
			CLI_NAME(p->procname ? p->procname : "?"), CLI_NAME(nodes));
	print_counts("the system's", mine);
	print_counts("ROS 2's own and the tracer's", theirs);
	/* the tracer that replayed its initialization: caret-c's records its
	 * libtracetools' status, the original's does not (and records the rmw
	 * from its DDS hook: not at all when that never ran, a finding says) */
	if (p->caret_inits)
		printf("  caret_init: %s, distribution %s, rmw %s\n",
			p->tracetools_tracing == -1 ? "the original CARET tracer" : "caret-c's tracer",
			p->distribution && *p->distribution ? p->distribution : "not recorded",
			p->rmw_implementation ? p->rmw_implementation : "not recorded");
}

/* A trace of several hosts: each host's clock against the first host's,
 * as the messages crossing between them bound it; a host whose clock
 * cannot be estimated is a warning (its hops are timed on the traces'
 * clock offsets alone). The number of warnings. */
static size_t print_hosts(void)
{
	const struct cli_host_clocks *c = cli_host_clocks();
	size_t warnings = 0;
	if (c->n < 2)
		return 0;
	const char *first = c->hosts[0].host;
	printf("hosts: %zu, on %s's clock (each trace's clock offset from the epoch%s)\n", c->n,
		first, c->applied ? ", then each estimate below taken off" : "");
	printf("  %s: %zu %s (the reference)\n", first, c->hosts[0].processes,
		caret_plural(c->hosts[0].processes, "process", "processes"));
	for (size_t i = 1; i < c->n; i++) {
		const ca_host_clock *h = &c->hosts[i];
		int64_t estimate, uncertainty;
		printf("  %s: %zu %s, ", h->host, h->processes,
			caret_plural(h->processes, "process", "processes"));
		if (ca_host_clock_estimate(h, &estimate, &uncertainty)) {
			printf("clock ahead of %s's by %" PRId64 " ns +- %" PRId64 " ns (%.3f ms +- "
				"%.3f ms; from %" PRIu64 " messages from %s, %" PRIu64 " to it)\n", first,
				estimate, uncertainty, (double)estimate / 1e6, (double)uncertainty / 1e6,
				h->from_first, first, h->to_first);
			continue;
		}
		warnings++;
		if (h->low > h->high && h->low != INT64_MIN && h->high != INT64_MAX)
			printf("warning: its clock cannot be estimated: the messages disagree (at least "
				"%" PRId64 " ns, at most %" PRId64 " ns ahead: a clock that drifted or "
				"jumped)\n", h->low, h->high);
		else if (h->high != INT64_MAX)
			printf("warning: its clock cannot be estimated: no message from it to %s (from "
				"%" PRIu64 " messages the other way: at most %" PRId64 " ns ahead)\n",
				first, h->from_first, h->high);
		else if (h->low != INT64_MIN)
			printf("warning: its clock cannot be estimated: no message from %s to it (from "
				"%" PRIu64 " messages the other way: at least %" PRId64 " ns ahead)\n",
				first, h->to_first, h->low);
		else
			printf("warning: its clock cannot be estimated: no message crosses between it "
				"and %s\n", first);
	}
	if (warnings)
		printf("  warning: latencies across hosts whose clock is not estimated rest on the "
			"traces' clock offsets (as synchronized as the hosts were)\n");
	return warnings;
}

/* What one `caret check` was asked: the traces, and how to say it. */
struct check_options {
	ca_load_options load;
	char **paths;
	int n_paths;
	const char *verb; /* "check", or "check_ctf" */
	const char *requirements, *junit; /* --requirements FILE, --junit OUT */
	bool ros2caret;   /* the findings as the original's logger lines (check_ctf) */
};

/* The arguments into o: -1 to go on, else the exit status. */
static int parse(int argc, char **argv, struct check_options *o)
{
	static const struct option opts[] = {
		{ "requirements", required_argument, NULL, 'r' },
		{ "junit", required_argument, NULL, 'j' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 },
	};
	int c;
	optind = 1;
	while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1)
		if (c == 'r')
			o->requirements = optarg;
		else if (c == 'j')
			o->junit = optarg;
		else
			return usage(c == 'h' ? stdout : stderr);
	if (o->junit && !o->requirements) {
		fprintf(stderr, "caret check: --junit goes with --requirements FILE\n");
		return 2;
	}
	if (optind >= argc)
		return usage(stderr);
	o->paths = argv + optind;
	o->n_paths = argc - optind;
	return -1;
}

/* caret check's report on stdout; the number of errors. */
static size_t report(const ca_trace *t)
{
	const ca_architecture *a = ca_trace_architecture(t);
	const ca_finding *f;
	size_t n = ca_trace_findings(t, &f), errors = 0, warnings = 0;

	cli_begin_output("check", CLI_TEXT, t);
	printf("trace: %" PRIu64 " %s, %" PRIu64 " of other types, %" PRIu64
		" discarded\n", ca_trace_event_count(t), caret_plural(ca_trace_event_count(t),
		"event", "events"), ca_trace_unknown_count(t), ca_trace_discarded(t));
	for (size_t i = 0; i < n && f[i].pid < 0; i++)
		printf("  %s: %s\n", severity_name(f[i].severity), CLI_NAME(f[i].text));
	warnings += print_hosts();
	for (size_t p = 0; p < a->n_processes; p++) {
		bool shown = false;
		for (size_t i = 0; i < n; i++) {
			if (f[i].pid != a->processes[p].pid)
				continue;
			if (!shown)
				print_process(a, &a->processes[p]);
			shown = true;
			printf("  %s: %s\n", severity_name(f[i].severity), CLI_NAME(f[i].text));
		}
	}
	for (size_t i = 0; i < n; i++) {
		errors += f[i].severity == CA_ERROR;
		warnings += f[i].severity == CA_WARNING;
	}
	if (errors)
		printf("result: %zu error%s, %zu warning%s: latencies from this trace would be "
			"wrong or incomplete\n", errors, errors == 1 ? "" : "s", warnings,
			warnings == 1 ? "" : "s");
	else
		printf("result: ok (%zu warning%s)\n", warnings, warnings == 1 ? "" : "s");
	return errors;
}

static bool has_any(const ca_trace *t, const char *const *events)
{
	for (; *events; events++)
		if (ca_trace_rows(t, *events))
			return true;
	return false;
}

/* The original's own verdict on a trace without the events CARET's
 * LD_PRELOAD tracer adds (its event_counter.py), in its words: scripts
 * look for them. Its DDS events first, as it raises on the first. */
static void say_original_preload(const ca_trace *t)
{
	static const char *const dds[] = { "ros2_caret:dds_bind_addr_to_stamp",
		"ros2_caret:dds_bind_addr_to_addr",
		"ros2_caret:merged_publish_timing", /* caret-c's, holding that stage */
		NULL };
	static const char *const preload[] = { "ros2_caret:add_callback_group",
		"ros2_caret:add_callback_group_static_executor",
		"ros2_caret:callback_group_to_executor_entity_collector",
		"ros2_caret:executor_entity_collector_to_executor",
		"ros2_caret:construct_executor", "ros2_caret:construct_static_executor",
		"ros2_caret:callback_group_add_timer", "ros2_caret:callback_group_add_subscription",
		"ros2_caret:callback_group_add_service", "ros2_caret:callback_group_add_client",
		"ros2_caret:dds_write", "ros2_caret:sim_time", "ros2_caret:rmw_implementation",
		NULL };
	if (!has_any(t, dds))
		ros2caret_log(ROS2CARET_WARNING, "Failed to find dds trace point added by LD_PRELOAD. "
			"Measurement results will not be correct. Function symbols used for hooks may "
			"be hidden in the DDS layer.");
	else if (!has_any(t, preload))
		ros2caret_log(ROS2CARET_WARNING, "Failed to find trace point added by LD_PRELOAD. "
			"Measurement results will not be correct. The measurement may have been "
			"performed without setting LD_PRELOAD.");
}

/* check_ctf's report: the folders read on stderr (stdout is the
 * original's), its own message, every warning and error as its logger's
 * lines, the result; the number of errors. */
static size_t report_logged(const ca_trace *t)
{
	size_t warnings, errors;
	cli_begin_output("check_ctf", CLI_CSV, t);
	say_original_preload(t);
	ros2caret_log_findings(t, &warnings, &errors);
	warnings += print_hosts(); /* several hosts: their clocks, on stdout */
	if (errors)
		ros2caret_log(ROS2CARET_ERROR, "result: %zu error%s, %zu warning%s: latencies from "
			"this trace would be wrong or incomplete", errors, errors == 1 ? "" : "s",
			warnings, warnings == 1 ? "" : "s");
	else
		ros2caret_log(ROS2CARET_INFO, "result: ok (%zu warning%s)", warnings,
			warnings == 1 ? "" : "s");
	return errors;
}

static int run(struct check_options *o)
{
	if (o->requirements)
		return check_requirements(o->requirements, o->junit, o->paths, o->n_paths, &o->load);
	/* the findings need counts, not the runtime events: on a large trace
	 * they are counted in a second pass, and memory stays small */
	o->load.keep_runtime = !cli_lean();
	ca_trace *t = cli_load(o->verb, o->paths, o->n_paths, &o->load);
	if (!t)
		return 1;
	size_t errors = o->ros2caret ? report_logged(t) : report(t);
	ca_trace_free(t);
	return errors ? 1 : 0;
}

int caret_cmd_check(int argc, char **argv, const ca_load_options *load)
{
	struct check_options o = { .load = *load, .verb = "check" };
	int status = parse(argc, argv, &o);
	return status >= 0 ? status : run(&o);
}

static int usage_check_ctf(FILE *out)
{
	fprintf(out,
		"usage: caret check_ctf [-m N] TRACE...\n"
		"\n"
		"The original's `ros2 caret check_ctf` under its name: caret check (the same\n"
		"findings and exit status) with the original's options, its warnings and\n"
		"errors written as the original's logger lines on stderr\n"
		"(\"WARNING : DATE TIME | ...\"), a process's with \"process PID (NAME): \"\n"
		"first, then the result. A trace without the events of CARET's LD_PRELOAD\n"
		"tracer gets the original's own message first (\"Failed to find dds trace\n"
		"point added by LD_PRELOAD. ...\"). Several TRACE paths are read as one\n"
		"system (the original's multi-host), as with --merge.\n"
		"\n"
		"  -m, --max_callback_construction_order_on_path_searching N\n"
		"                     taken as the original takes it (an integer, 0 or\n"
		"                     more): it bounds the original's path search, which a\n"
		"                     check does not do\n"
		"\n"
		"Exit status: 0 fine (warnings allowed), 1 an error was found or the\n"
		"trace cannot be read (the original exits 0 in any case), 2 usage error.\n");
	fputs(CLI_LOAD_OPTIONS_HELP, out);
	return out == stdout ? 0 : 2;
}

int caret_cmd_check_ctf(int argc, char **argv, const ca_load_options *load)
{
	static const struct option opts[] = {
		{ "max_callback_construction_order_on_path_searching", required_argument, NULL,
			'm' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 },
	};
	struct check_options o = { .load = *load, .verb = "check_ctf", .ros2caret = true };
	int c;
	optind = 1;
	while ((c = getopt_long(argc, argv, "m:h", opts, NULL)) != -1) {
		if (c != 'm')
			return usage_check_ctf(c == 'h' ? stdout : stderr);
		if (ros2caret_check_max_order("check_ctf", optarg))
			return 2;
	}
	if (optind >= argc)
		return usage_check_ctf(stderr);
	o.paths = argv + optind;
	o.n_paths = argc - optind;
	o.load.merge |= o.n_paths > 1; /* the original's several hosts: one system */
	return run(&o);
}
