/* cmd_record.c - `caret record`: options, caret-c's and the original's
 * (`ros2 caret record`), into cr_record_options. */
#define _GNU_SOURCE
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "record.h"
#include "session.h"
#include "cli_util.h"
#include "verbs.h"

static int usage(FILE *out)
{
	fprintf(out,
		"usage: caret record [OPTIONS] [-- CMD ARGS...]\n"
		"\n"
		"Records an LTTng trace of the ROS 2 processes running with libcaret.so\n"
		"preloaded on this ROS_DOMAIN_ID: creates the session, tells every process\n"
		"to replay its initialization data and record (Start), waits until all\n"
		"record, records until Ctrl-C or --duration, then ends (End) and prints a\n"
		"summary. With -- CMD, launches CMD with libcaret.so preloaded (the tracer\n"
		"caret env names: installed beside this caret, or CARET_TRACER_LIB),\n"
		"records it and stops when it exits. The trace path is printed on stdout.\n"
		"Its DDS domain is configured as rmw_cyclonedds_cpp configures the\n"
		"applications' (ROS_DOMAIN_ID; Humble's ROS_LOCALHOST_ONLY; Jazzy's\n"
		"ROS_AUTOMATIC_DISCOVERY_RANGE, ROS_STATIC_PEERS; CYCLONEDDS_URI): run it\n"
		"with the same settings as the system. Processes on Fast DDS\n"
		"(rmw_fastrtps_cpp) are reached the same way: their tracer speaks Cyclone\n"
		"DDS with these settings.\n"
		"\n"
		"  -s, --session NAME, --session-name NAME\n"
		"                         session name (default caret-YYYYMMDD-HHMMSS-PID)\n"
		"  -p, --path DIR         the folder the trace goes in, as DIR/NAME (default\n"
		"                         $ROS_TRACE_DIR, else $ROS_HOME/tracing, else\n"
		"                         ~/.ros/tracing, as ros2_tracing)\n"
		"  -o, --output DIR       the trace directory itself (default: see --path)\n"
		"  -d, --duration S       record S seconds (default: until Ctrl-C)\n"
		"  -f, --frequency N, --recording-frequency N\n"
		"                         initialization records replayed per second and\n"
		"                         process (default 0: as fast as the buffers take)\n"
		"      --subbuf-size SIZE sub-buffer size, e.g. 4M (default 4M)\n"
		"      --subbuffer-size-ust BYTES\n"
		"                         the same in the original's words: a power of two\n"
		"      --num-subbuf N     sub-buffers per CPU (default 8)\n"
		"      --blocking         writers wait instead of discarding (no loss,\n"
		"                         but a slow consumer slows the application)\n"
		"      --light            fewer events: ros2_caret:* and the ros2 runtime\n"
		"                         events only (docs/recording.md)\n"
		"      --immediate        start at once: processes that start after the\n"
		"                         session record from their start; one Start is sent\n"
		"                         to those already running, without waiting for them\n"
		"                         (a script's `ros2 caret record --immediate` works\n"
		"                         as it did: caret record never waits for Enter)\n"
		"      --no-merge         with -- CMD: standard events (CARET_MERGE=0)\n"
		"      --wait S           how long to wait for every process to record\n"
		"                         before naming the laggards (default 10)\n"
		"      --relayd HOST[:CTRL[:DATA]]\n"
		"                         stream the trace to the lttng-relayd on HOST (the\n"
		"                         analysis host; ports 5342, 5343 by default)\n"
		"                         instead of writing it here: the relay daemon files\n"
		"                         it under its output directory, HOSTNAME/SESSION-DATE,\n"
		"                         one folder per host (docs/multi-host.md)\n"
		"      --rotate S         close the trace's chunk every S seconds: each is\n"
		"                         archived as a complete trace (OUTPUT/archives/),\n"
		"                         for caret live --watch on the relay daemon's host\n"
		"  -l, --list             first list the events enabled and the contexts\n"
		"                         they carry (on stderr, as the original's -l)\n"
		"  -v, --verbose          the original's progress: caret record always says\n"
		"                         when every process records (and, on a terminal,\n"
		"                         the processes per state as they go)\n"
		"  -h, --help             this text\n"
		"\n"
		"One caret record at a time (a lock); one left recording by a recorder that\n"
		"died is stopped and the recording goes on. Exit status: 0 when the trace\n"
		"holds what was asked; 1 when it cannot (the session stopped or destroyed\n"
		"by someone else or gone with the session daemon, a process leaving RECORD\n"
		"before the End, the disk full, nothing recorded), each cause in one line;\n"
		"with -- CMD, CMD's own exit status when it failed on its own; 2 usage\n"
		"error. The original's options it cannot honour are refused, with why:\n"
		"--subbuffer-size-kernel (no kernel events are recorded, by the original\n"
		"either), -c/--record-clock (no clock recorder: /clock is not recorded).\n");
	return out == stdout ? 0 : 2;
}

/* The original's options that caret record cannot honour: the reason. */
static int refuse(const char *option, const char *why)
{
	fprintf(stderr, "caret record: %s: %s\n", option, why);
	return 2;
}

/* -l: the events and contexts the session enables, in the original's
 * layout (ros2_tracing's), on stderr: stdout is the trace's path. */
static void list_events(bool light)
{
	size_t n = 0;
	while (cr_session_event_name(light, n))
		n++;
	fprintf(stderr, "UST tracing enabled (%zu events)\n", n);
	for (size_t i = 0; i < n; i++)
		fprintf(stderr, "\t%s\n", cr_session_event_name(light, i));
	fprintf(stderr, "kernel tracing disabled\n");
	for (n = 0; cr_session_context_name(n); n++)
		;
	fprintf(stderr, "context (%zu fields)\n", n);
	for (size_t i = 0; i < n; i++)
		fprintf(stderr, "\t%s\n", cr_session_context_name(i));
}

static const struct option record_options[] = {
	{ "session", required_argument, NULL, 's' },
	{ "session-name", required_argument, NULL, 's' },
	{ "output", required_argument, NULL, 'o' },
	{ "path", required_argument, NULL, 'p' },
	{ "duration", required_argument, NULL, 'd' },
	{ "frequency", required_argument, NULL, 'f' },
	{ "recording-frequency", required_argument, NULL, 'f' },
	{ "subbuf-size", required_argument, NULL, 'S' },
	{ "subbuffer-size-ust", required_argument, NULL, 'U' },
	{ "subbuffer-size-kernel", required_argument, NULL, 'K' },
	{ "num-subbuf", required_argument, NULL, 'N' },
	{ "blocking", no_argument, NULL, 'b' },
	{ "light", no_argument, NULL, 'g' },
	{ "immediate", no_argument, NULL, 'i' },
	{ "no-merge", no_argument, NULL, 'm' },
	{ "wait", required_argument, NULL, 'w' },
	{ "relayd", required_argument, NULL, 'R' },
	{ "rotate", required_argument, NULL, 'r' },
	{ "list", no_argument, NULL, 'l' },
	{ "verbose", no_argument, NULL, 'v' },
	{ "record-clock", no_argument, NULL, 'c' },
	{ "help", no_argument, NULL, 'h' },
	{ 0 },
};

/* What the command line asked beyond cr_record_options. */
struct record_extras {
	bool list, subbuf_given, ust_given;
};

/* The numeric options' bounds (option_number.h): a chunk between a tenth
 * of a second and a day; --duration, --subbuf-size and --num-subbuf as
 * caret live's (cli_util.h). */
static const struct cli_number frequency_option = { "--frequency", CLI_COUNT, 0, 1e6, false },
	wait_option = { "--wait", CLI_SECONDS, 0, 86400, false },
	rotate_option = { "--rotate", CLI_SECONDS, 0.1, 86400, false },
	ust_size_option = { "--subbuffer-size-ust", CLI_BYTES, CLI_SUBBUF_MIN, CLI_SUBBUF_MAX,
		false };

/* A numeric option into *to: 0, or 2 after the message. */
static int take_number(const struct cli_number *n, const char *arg, double *to)
{
	return cli_number("record", n, arg, to);
}

/* One option into o: 0, or the exit status (2) after a message. */
static int take_option(int c, const char *arg, struct cr_record_options *o,
	struct record_extras *x)
{
	bool ok = true;
	double v = 0;
	int status = 0;
	switch (c) {
	case 's': o->session_name = arg; break;
	case 'o': o->output_dir = arg; break;
	case 'p': o->base_dir = arg; ok = *arg != '\0'; break;
	case 'd': return take_number(&cli_duration_option, arg, &o->duration);
	case 'w': return take_number(&wait_option, arg, &o->wait_timeout);
	case 'f': status = take_number(&frequency_option, arg, &v);
		o->frequency = (uint32_t)v;
		return status;
	case 'S': status = take_number(&cli_subbuf_size_option, arg, &v);
		o->subbuf_size = (uint64_t)v;
		x->subbuf_given = true;
		return status;
	case 'U':
		if ((status = take_number(&ust_size_option, arg, &v)))
			return status;
		o->subbuf_size = (uint64_t)v;
		if (o->subbuf_size & (o->subbuf_size - 1))
			return refuse("--subbuffer-size-ust", "value must be power of two.");
		x->ust_given = true;
		break;
	case 'K': return refuse("--subbuffer-size-kernel", "caret record records no kernel "
		"events (the original's kernel event list is empty too): there is no kernel "
		"channel to size");
	case 'c': return refuse("-c/--record-clock", "caret-c has no clock recorder (the "
		"original's caret_trace clock_recorder, which records /clock as "
		"ros2_caret:sim_time) and its analyzer no sim-time axis");
	case 'N': status = take_number(&cli_num_subbuf_option, arg, &v);
		o->num_subbuf = (uint64_t)v;
		return status;
	case 'b': o->blocking = true; break;
	case 'g': o->light = true; break;
	case 'i': o->immediate = true; break;
	case 'm': o->no_merge = true; break;
	case 'R': o->relayd = arg; ok = *arg != '\0'; break;
	case 'r': return take_number(&rotate_option, arg, &o->rotate_seconds);
	case 'l': x->list = true; break;
	case 'v': break; /* the progress is always said (--help) */
	default: return 2; /* getopt said which option, naming the verb (argv[0]) */
	}
	return ok ? 0 : cli_bad_value("record", record_options, c, arg);
}

/* Options that cannot go together: 0, or 2 after a message. */
static int check_together(const struct cr_record_options *o, const struct record_extras *x)
{
	const char *clash = NULL;
	if (o->relayd && o->output_dir)
		clash = "--relayd and --output: the relay daemon chooses where the trace goes";
	else if (o->relayd && o->base_dir)
		clash = "--relayd and --path: the relay daemon chooses where the trace goes";
	else if (o->output_dir && o->base_dir)
		clash = "--output and --path: --output names the trace directory itself, --path "
			"the folder it goes in; give one";
	else if (x->subbuf_given && x->ust_given)
		clash = "--subbuf-size and --subbuffer-size-ust both set the sub-buffer size";
	else if (o->no_merge && !o->command)
		clash = "--no-merge applies to -- CMD only (set CARET_MERGE=0 in the "
			"applications' environment)";
	if (clash)
		fprintf(stderr, "caret record: %s\n", clash);
	return clash ? 2 : 0;
}

int caret_cmd_record(int argc, char **argv, const ca_load_options *load)
{
	(void)load; /* recording reads no trace */
	char lib[PATH_MAX] = "";
	struct cr_record_options o = { .subbuf_size = 4 << 20, .num_subbuf = 8,
		.wait_timeout = 10, .track_vgid = -1 };
	struct record_extras x = { 0 };
	int c, status;

	const char *vgid = getenv("CARET_TEST_VGID");
	if (vgid && *vgid)
		o.track_vgid = atoi(vgid);
	static char who[] = "caret record"; /* getopt's own messages name argv[0] */
	argv[0] = who;
	optind = 1;
	while ((c = getopt_long(argc, argv, "+s:o:p:d:f:lvch", record_options, NULL)) != -1) {
		if (c == 'h')
			return usage(stdout);
		if ((status = take_option(c, optarg, &o, &x)) != 0)
			return status;
	}
	if (optind < argc) {
		if (strcmp(argv[optind - 1], "--") != 0) {
			fprintf(stderr, "caret record: unexpected argument '%s' (a command to launch "
				"goes after --: caret record [OPTIONS] -- CMD ARGS...)\n", argv[optind]);
			return 2;
		}
		o.command = argv + optind;
	}
	if ((status = check_together(&o, &x)) != 0)
		return status;
	if (x.list)
		list_events(o.light);
	/* -- CMD: the tracer beside this caret (as caret env finds it), or
	 * nothing is launched */
	if (o.command && cli_find_tracer("record", lib, sizeof lib))
		return 1;
	o.tracer_lib = lib;
	return cr_record_run(&o);
}
