/* cmd_live.c - `caret live`: options into live_options. */
#define _GNU_SOURCE
#include <getopt.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "live.h"
#include "cli_util.h"
#include "verbs.h"

static int usage(FILE *out)
{
	fprintf(out,
		"usage: caret live [--nodes A,B,C... | --arch FILE [--path NAME]] [--deadline D]\n"
		"                  [--json] [--duration S] [--snapshot-on-miss DIR]\n"
		"                  [--metrics HOST:PORT] [OPTIONS]\n"
		"\n"
		"Watches the ROS 2 processes running with libcaret.so preloaded on this\n"
		"ROS_DOMAIN_ID while they run: attaches as caret record does (Start, the\n"
		"initialization replayed), then every second the LTTng session rotates and\n"
		"the chunk it closed is read: per callback (timers', subscriptions' and the\n"
		"user's services'), per service (its calls' round trip), per action (goal to\n"
		"result) and per path watched, the latency of the instances that ended in\n"
		"the last window (count, p50, p99 as caret latency takes them, max, misses),\n"
		"a table a second (redrawn on a terminal) or, with --json, one JSON object a\n"
		"line; a process that joins or goes is said. A path instance over its\n"
		"deadline is printed as it is found (within 2 s of its end) with its hops,\n"
		"the one that took most marked.\n"
		"\n"
		"  --nodes A,B,C    a path by its nodes (as caret path latency)\n"
		"  --arch FILE      an architecture file: with --path NAME that named path,\n"
		"                   else every path of its deadlines: key (docs/live.md)\n"
		"  --path NAME      the named path of --arch FILE\n"
		"  --deadline D     the path's deadline, e.g. 50ms, 1.5s, 200us (over it: a\n"
		"                   miss); with --arch alone, overrides none of the file's\n"
		"  --policy P       how nodes turn input into output (caret path latency)\n"
		"  --include-first-callback, --include-last-callback\n"
		"                   what a path instance spans (caret path latency)\n"
		"  --json           one JSON object a line: {\"type\": \"window\", ...} a second,\n"
		"                   {\"type\": \"miss\", ...} per miss\n"
		"  -d, --duration S stop after S seconds (default: Ctrl-C)\n"
		"  --window S       the statistics cover the last S seconds (default 10)\n"
		"  --lookback S     the longest path instance followed, in seconds (default 3)\n"
		"  --period S       a look every S seconds (the session rotates that often;\n"
		"                   default 1; 0.5 finds a miss sooner for\n"
		"                   about twice the CPU)\n"
		"  --snapshot-on-miss DIR\n"
		"                   a flight recorder (an LTTng snapshot session) records\n"
		"                   beside: at a miss its buffers are written to DIR/miss-N,\n"
		"                   a trace caret report and every verb read, with the\n"
		"                   misses' JSON lines beside it (caret-live-miss.json:\n"
		"                   caret report names and marks them)\n"
		"  --max-snapshots N  at most N snapshots (default 10)\n"
		"  -o, --output DIR keep the whole trace there (default: each chunk deleted\n"
		"                   once no look needs it)\n"
		"  --watch DIR      several hosts: no session here; watch the chunks an\n"
		"                   lttng-relayd files under DIR (its --output) while each\n"
		"                   host records with caret record --relayd HOST --rotate 1,\n"
		"                   and look at them as one system (docs/multi-host.md)\n"
		"  --hosts N        with --watch: no look before N hosts have sent a chunk\n"
		"                   (a host that joins later: what it recorded before the\n"
		"                   look it joins in is not counted)\n"
		"  --metrics HOST:PORT\n"
		"                   serve what the looks counted since the start over HTTP\n"
		"                   at http://HOST:PORT/metrics for Prometheus: per callback,\n"
		"                   service, action and path a latency histogram (buckets\n"
		"                   around its deadline), counters of instances and misses,\n"
		"                   a gauge per traced process (docs/live.md#metrics);\n"
		"                   HOST an address or name of this machine (127.0.0.1: this\n"
		"                   machine only; [::1] for IPv6), a port in use ends it (1)\n"
		"  --relayd HOST    this host's part of --watch: its processes recorded and\n"
		"                   streamed to the lttng-relayd on HOST, a chunk a second\n"
		"                   (caret record --relayd HOST --rotate 1); the looks are\n"
		"                   --watch's, there\n"
		"  -s, --session NAME, --subbuf-size SIZE, --num-subbuf N, --light, --wait S\n"
		"                   as caret record (sub-buffers: 256K x 64 by default)\n"
		"  -h, --help       this text\n"
		"\n"
		"A timer callback's misses are its runs longer than its period; other\n"
		"callbacks have none. Exit status: 0; 3 when a deadline was missed; 1 when\n"
		"the recording failed or lost data, no traced process answered, or a node\n"
		"asked for is not in the trace (said in one line each); 2 usage error.\n");
	return out == stdout ? 0 : 2;
}

/* --nodes A,B,C into the one path spec */
static int take_nodes(char *list, struct live_path_spec *p)
{
	for (char *s = strtok(list, ","); s; s = strtok(NULL, ",")) {
		if (p->n_nodes == LIVE_MAX_NODES)
			return -1;
		p->nodes[p->n_nodes++] = s;
	}
	size_t used = 0;
	for (size_t i = 0; i < p->n_nodes && used < sizeof p->label; i++)
		used += (size_t)snprintf(p->label + used, sizeof p->label - used, "%s%s",
			i ? " -> " : "", p->nodes[i]);
	return p->n_nodes >= 2 ? 0 : -1;
}

/* --arch FILE alone: every path with a deadline in its deadlines: key */
static int take_file_deadlines(struct live_options *o)
{
	char **names, err[1024];
	int64_t *ns;
	size_t n;
	if (ca_arch_file_deadlines(o->arch, &names, &ns, &n, err, sizeof err) != 0) {
		fprintf(stderr, "caret live: %s\n", err);
		return 1;
	}
	if (!n || n > LIVE_MAX_PATHS) {
		fprintf(stderr, "caret live: %s: %s (give --path NAME, or a deadlines: key with up "
			"to %d paths)\n", o->arch, n ? "too many deadlines" :
			"no deadlines: key entry with a path's deadline",
			LIVE_MAX_PATHS);
		for (size_t i = 0; i < n; i++)
			free(names[i]);
		free(names);
		free(ns);
		return 2;
	}
	for (size_t i = 0; i < n; i++) {
		struct live_path_spec *p = &o->paths[o->n_paths++];
		p->path_name = names[i]; /* lives as long as the run */
		snprintf(p->label, sizeof p->label, "%s", names[i]);
		p->deadline_ns = ns[i];
	}
	free(names);
	free(ns);
	return 0;
}

static const struct option live_options_long[] = {
	{ "nodes", required_argument, NULL, 'n' },
	{ "arch", required_argument, NULL, 'a' },
	{ "path", required_argument, NULL, 'P' },
	{ "deadline", required_argument, NULL, 'D' },
	{ "policy", required_argument, NULL, 'p' },
	{ "include-first-callback", no_argument, NULL, '1' },
	{ "include-last-callback", no_argument, NULL, '2' },
	{ "json", no_argument, NULL, 'j' },
	{ "duration", required_argument, NULL, 'd' },
	{ "window", required_argument, NULL, 'W' },
	{ "lookback", required_argument, NULL, 'L' },
	{ "period", required_argument, NULL, 'T' },
	{ "snapshot-on-miss", required_argument, NULL, 'X' },
	{ "max-snapshots", required_argument, NULL, 'M' },
	{ "output", required_argument, NULL, 'o' },
	{ "session", required_argument, NULL, 's' },
	{ "subbuf-size", required_argument, NULL, 'S' },
	{ "num-subbuf", required_argument, NULL, 'N' },
	{ "light", no_argument, NULL, 'l' },
	{ "wait", required_argument, NULL, 'w' },
	{ "watch", required_argument, NULL, 'R' },
	{ "relayd", required_argument, NULL, 'Y' },
	{ "hosts", required_argument, NULL, 'H' },
	{ "metrics", required_argument, NULL, 'm' },
	{ "help", no_argument, NULL, 'h' },
	{ 0 },
};

/* What the command line names a path by, before it becomes a path spec. */
struct live_args {
	const char *nodes, *path_name;
	int64_t deadline;
};

static void defaults(struct live_options *o)
{
	memset(o, 0, sizeof *o);
	/* small sub-buffers: a look reads a chunk it read before from the
	 * packet its unfinished messages begin in, not from the chunk's start */
	o->record = (struct cr_record_options){ .subbuf_size = 256 << 10, .num_subbuf = 64,
		.wait_timeout = 10, .track_vgid = -1 };
	o->policy = CA_POLICY_USE_LATEST_MESSAGE;
	o->window_s = 10;
	o->lookback_s = 3;
	o->period_s = 1;
	o->max_snapshots = 10;
	const char *vgid = getenv("CARET_TEST_VGID");
	if (vgid && *vgid)
		o->record.track_vgid = atoi(vgid);
}

/* The numeric options' bounds (option_number.h); --duration,
 * --subbuf-size and --num-subbuf as caret record's. */
static const struct cli_number deadline_option = { "--deadline", CLI_DURATION, 0, 86400, true },
	window_option = { "--window", CLI_SECONDS, 0, 86400, true },
	lookback_option = { "--lookback", CLI_SECONDS, 1, 3600, false },
	period_option = { "--period", CLI_SECONDS, 0.1, 3600, false },
	max_snapshots_option = { "--max-snapshots", CLI_COUNT, 1, 1000, false },
	wait_option = { "--wait", CLI_SECONDS, 0, 86400, true },
	hosts_option = { "--hosts", CLI_COUNT, 1, LIVE_MAX_HOSTS, false },
	metrics_port_option = { "--metrics port", CLI_COUNT, 1, 65535, false };

/* A numeric option: 0 with its value in *v, or 2 after the message. */
static int number(const struct cli_number *n, const char *arg, double *v)
{
	return cli_number("live", n, arg, v);
}

/* --metrics HOST:PORT (HOST may be [an IPv6 address]) into o: 0, or 2
 * after a message. */
static int take_metrics(const char *arg, struct live_options *o)
{
	static char host[256], port[8];
	const char *colon = strrchr(arg, ':'), *h = arg;
	size_t n = colon ? (size_t)(colon - arg) : 0;
	double v;
	if (n >= 2 && h[0] == '[' && h[n - 1] == ']') { /* [::1]:9464 */
		h++;
		n -= 2;
	} else if (memchr(h, ':', n)) { /* an IPv6 address without brackets */
		n = 0;
	}
	if (!n || n >= sizeof host) {
		fprintf(stderr, "caret live: bad value '%s' for --metrics: HOST:PORT, e.g. "
			"127.0.0.1:9464 (an IPv6 address in brackets: [::1]:9464)\n", arg);
		return 2;
	}
	if (number(&metrics_port_option, colon + 1, &v))
		return 2;
	memcpy(host, h, n);
	host[n] = '\0';
	snprintf(port, sizeof port, "%u", (unsigned)v);
	o->metrics_host = host;
	o->metrics_port = port;
	return 0;
}

/* One option into o or a: 0, or the exit status (2) after a message. */
static int take_option(int c, const char *arg, struct live_options *o, struct live_args *a)
{
	double v = 0;
	int status = 0;
	switch (c) {
	case 'n': a->nodes = arg; break;
	case 'a': o->arch = arg; break;
	case 'P': a->path_name = arg; break;
	case 'D': status = number(&deadline_option, arg, &v);
		a->deadline = (int64_t)llround(v * 1e9);
		break;
	case 'p': status = ca_policy_of_name(arg, &o->policy) == 0 ? 0 :
			cli_bad_value("live", live_options_long, c, arg);
		break;
	case '1': o->span.first_callback = true; break;
	case '2': o->span.last_callback = true; break;
	case 'j': o->json = true; break;
	case 'd': status = number(&cli_duration_option, arg, &o->record.duration); break;
	case 'W': status = number(&window_option, arg, &o->window_s); break;
	case 'L': status = number(&lookback_option, arg, &o->lookback_s); break;
	case 'T': status = number(&period_option, arg, &o->period_s); break;
	case 'X': o->snapshot_dir = arg; break;
	case 'M': status = number(&max_snapshots_option, arg, &v);
		o->max_snapshots = (unsigned)v;
		break;
	case 'o': o->record.output_dir = arg; o->keep_trace = true; break;
	case 's': o->record.session_name = arg; break;
	case 'S': status = number(&cli_subbuf_size_option, arg, &v);
		o->record.subbuf_size = (uint64_t)v;
		break;
	case 'N': status = number(&cli_num_subbuf_option, arg, &v);
		o->record.num_subbuf = (uint64_t)v;
		break;
	case 'l': o->record.light = true; break;
	case 'w': status = number(&wait_option, arg, &o->record.wait_timeout); break;
	case 'R': o->watch_dir = arg; break;
	case 'Y': o->record.relayd = arg;
		status = *arg ? 0 : cli_bad_value("live", live_options_long, c, arg);
		break;
	case 'H': status = number(&hosts_option, arg, &v);
		o->hosts = (unsigned)v;
		break;
	case 'm': status = take_metrics(arg, o); break;
	}
	return status;
}

/* The command line into o and a: 0 to go on, else the exit status (-1:
 * --help, said: 0). */
static int parse(int argc, char **argv, struct live_options *o, struct live_args *a)
{
	static char who[] = "caret live";
	int c;
	argv[0] = who;
	optind = 1;
	while ((c = getopt_long(argc, argv, "d:o:s:h", live_options_long, NULL)) != -1) {
		if (c == 'h') {
			usage(stdout);
			return -1;
		}
		if (c == '?' || c == ':')
			return usage(stderr);
		int status = take_option(c, optarg, o, a);
		if (status)
			return status;
	}
	if (optind < argc) {
		fprintf(stderr, "caret live: unexpected argument '%s'\n", argv[optind]);
		return 2;
	}
	if ((a->nodes && o->arch) || (a->path_name && !o->arch) ||
	    (a->deadline && !a->nodes && !a->path_name)) {
		fprintf(stderr, "caret live: --nodes A,B,C or --arch FILE [--path NAME]; --deadline "
			"goes with --nodes or --path\n");
		return 2;
	}
	return 0;
}

/* --arch FILE --path NAME: that named path, with the file's deadline for
 * it unless --deadline gives one. */
static int take_named_path(struct live_options *o, const struct live_args *a)
{
	char **names, err[1024];
	int64_t *ns;
	size_t n;
	struct live_path_spec *p = &o->paths[0];
	p->path_name = a->path_name;
	snprintf(p->label, sizeof p->label, "%s", a->path_name);
	p->deadline_ns = a->deadline;
	o->n_paths = 1;
	if (ca_arch_file_deadlines(o->arch, &names, &ns, &n, err, sizeof err) != 0) {
		fprintf(stderr, "caret live: %s\n", err);
		return 1;
	}
	for (size_t i = 0; i < n; i++) {
		if (!a->deadline && !strcmp(names[i], a->path_name))
			p->deadline_ns = ns[i];
		free(names[i]);
	}
	free(names);
	free(ns);
	return 0;
}

/* The paths to watch, as the command line names them: 0, or the exit status. */
static int take_paths(struct live_options *o, const struct live_args *a)
{
	static char nodes_arg[4096];
	if (a->nodes) {
		snprintf(nodes_arg, sizeof nodes_arg, "%s", a->nodes);
		if (take_nodes(nodes_arg, &o->paths[0]) != 0) {
			fprintf(stderr, "caret live: --nodes takes 2 to %d node names, comma separated\n",
				LIVE_MAX_NODES);
			return 2;
		}
		o->paths[0].deadline_ns = a->deadline;
		o->n_paths = 1;
		return 0;
	}
	if (a->path_name)
		return take_named_path(o, a);
	return o->arch ? take_file_deadlines(o) : 0;
}

/* The options that cannot go together, and the snapshots' folder made
 * absolute (the session daemon writes it): 0, or the exit status. */
static int check_together(struct live_options *o)
{
	if (o->watch_dir && (o->snapshot_dir || o->keep_trace)) {
		fprintf(stderr, "caret live: --watch reads the relay daemon's files: no session "
			"here to snapshot or keep (--snapshot-on-miss, --output)\n");
		return 2;
	}
	if (o->record.relayd && (o->n_paths || o->watch_dir || o->snapshot_dir ||
				 o->keep_trace || o->json || o->metrics_host)) {
		fprintf(stderr, "caret live: --relayd records this host for a caret live "
			"--watch on HOST: the paths, deadlines, --json, snapshots, --metrics go "
			"there\n");
		return 2;
	}
	if (o->snapshot_dir && o->snapshot_dir[0] != '/') {
		static char absolute[PATH_MAX];
		char cwd[PATH_MAX / 2];
		snprintf(absolute, sizeof absolute, "%s/%.*s", getcwd(cwd, sizeof cwd) ? cwd : ".",
			PATH_MAX / 2 - 2, o->snapshot_dir);
		o->snapshot_dir = absolute;
	}
	return 0;
}

/* --relayd: this host's processes recorded for a caret live --watch on
 * the relay daemon's host (the looks are there). */
static int record_for_relayd(struct live_options *o)
{
	o->record.rotate_seconds = o->period_s;
	o->record.verb = "caret live";
	return cr_record_run(&o->record);
}

int caret_cmd_live(int argc, char **argv, const ca_load_options *load)
{
	(void)load; /* the chunks are read as they come: no window of a trace */
	static struct live_options o;
	static char lib[PATH_MAX];
	struct live_args a = { 0 };
	defaults(&o);
	int status = parse(argc, argv, &o, &a);
	if (status)
		return status < 0 ? 0 : status;
	if ((status = take_paths(&o, &a)) || (status = check_together(&o)))
		return status;
	cli_tracer_lib(lib, sizeof lib);
	o.record.tracer_lib = lib;
	return o.record.relayd ? record_for_relayd(&o) : live_run(&o);
}
