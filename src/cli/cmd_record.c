/* cmd_record.c - `caret record`: options into cr_record_options. */
#define _GNU_SOURCE
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "record.h"
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
		"summary. With -- CMD, launches CMD with libcaret.so preloaded, records it\n"
		"and stops when it exits. The trace path is printed on stdout.\n"
		"Its DDS domain is configured as rmw_cyclonedds_cpp configures the\n"
		"applications' (ROS_DOMAIN_ID; Humble's ROS_LOCALHOST_ONLY; Jazzy's\n"
		"ROS_AUTOMATIC_DISCOVERY_RANGE, ROS_STATIC_PEERS; CYCLONEDDS_URI): run it\n"
		"with the same settings as the system. Processes on Fast DDS\n"
		"(rmw_fastrtps_cpp) are reached the same way: their tracer speaks Cyclone\n"
		"DDS with these settings.\n"
		"\n"
		"  -s, --session NAME     session name (default caret-YYYYMMDD-HHMMSS-PID)\n"
		"  -o, --output DIR       trace directory (default ~/.ros/tracing/NAME)\n"
		"  -d, --duration S       record S seconds (default: until Ctrl-C)\n"
		"  -f, --frequency N      initialization records replayed per second and\n"
		"                         process (default 0: as fast as the buffers take)\n"
		"      --subbuf-size SIZE sub-buffer size, e.g. 4M (default 4M)\n"
		"      --num-subbuf N     sub-buffers per CPU (default 8)\n"
		"      --blocking         writers wait instead of discarding (no loss,\n"
		"                         but a slow consumer slows the application)\n"
		"      --light            fewer events: ros2_caret:* and the ros2 runtime\n"
		"                         events only (docs/recording.md)\n"
		"      --immediate        the processes start after the session: no Start\n"
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
		"  -h, --help             this text\n"
		"\n"
		"One caret record at a time (a lock); one left recording by a recorder that\n"
		"died is stopped and the recording goes on. Exit status: 0 when the trace\n"
		"holds what was asked; 1 when it cannot (the session stopped or destroyed\n"
		"by someone else, a process leaving RECORD before the End, the disk full,\n"
		"nothing recorded), each cause in one line; with -- CMD, CMD's own exit\n"
		"status when it failed on its own; 2 usage error.\n");
	return out == stdout ? 0 : 2;
}

int caret_cmd_record(int argc, char **argv, const ca_load_options *load)
{
	(void)load; /* recording reads no trace */
	static const struct option opts[] = {
		{ "session", required_argument, NULL, 's' },
		{ "output", required_argument, NULL, 'o' },
		{ "duration", required_argument, NULL, 'd' },
		{ "frequency", required_argument, NULL, 'f' },
		{ "subbuf-size", required_argument, NULL, 'S' },
		{ "num-subbuf", required_argument, NULL, 'N' },
		{ "blocking", no_argument, NULL, 'b' },
		{ "light", no_argument, NULL, 'l' },
		{ "immediate", no_argument, NULL, 'i' },
		{ "no-merge", no_argument, NULL, 'm' },
		{ "wait", required_argument, NULL, 'w' },
		{ "relayd", required_argument, NULL, 'R' },
		{ "rotate", required_argument, NULL, 'r' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 },
	};
	char lib[PATH_MAX];
	struct cr_record_options o = { .subbuf_size = 4 << 20, .num_subbuf = 8,
		.wait_timeout = 10, .track_vgid = -1 };
	bool ok = true;
	int c;

	const char *vgid = getenv("CARET_TEST_VGID");
	if (vgid && *vgid)
		o.track_vgid = atoi(vgid);
	optind = 1;
	while ((c = getopt_long(argc, argv, "+s:o:d:f:h", opts, NULL)) != -1) {
		switch (c) {
		case 's': o.session_name = optarg; break;
		case 'o': o.output_dir = optarg; break;
		case 'd': o.duration = cli_parse_seconds(optarg, false, &ok); break;
		case 'w': o.wait_timeout = cli_parse_seconds(optarg, false, &ok); break;
		case 'f': o.frequency = (uint32_t)cli_parse_seconds(optarg, false, &ok); break;
		case 'S': ok = (o.subbuf_size = cli_parse_size(optarg)) != 0; break;
		case 'N': ok = (o.num_subbuf = cli_parse_size(optarg)) != 0; break;
		case 'b': o.blocking = true; break;
		case 'l': o.light = true; break;
		case 'i': o.immediate = true; break;
		case 'm': o.no_merge = true; break;
		case 'R': o.relayd = optarg; ok = *optarg != '\0'; break;
		case 'r': o.rotate_seconds = cli_parse_seconds(optarg, false, &ok); ok = ok && o.rotate_seconds > 0;
			break;
		case 'h': return usage(stdout);
		default: return usage(stderr);
		}
		if (!ok)
			return cli_bad_value("record", opts, c, optarg);
	}
	if (optind < argc) {
		if (strcmp(argv[optind - 1], "--") != 0)
			return usage(stderr);
		o.command = argv + optind;
	}
	if (o.relayd && o.output_dir) {
		fprintf(stderr, "caret record: --relayd and --output: the relay daemon chooses "
			"where the trace goes\n");
		return 2;
	}
	if (o.no_merge && !o.command) {
		fprintf(stderr, "caret record: --no-merge applies to -- CMD only (set "
			"CARET_MERGE=0 in the applications' environment)\n");
		return 2;
	}
	cli_tracer_lib(lib, sizeof lib);
	o.tracer_lib = lib;
	return cr_record_run(&o);
}
