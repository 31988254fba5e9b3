/*
 * cmd_env.c - `caret env`: the environment a ROS 2 process needs to be
 * traced, as shell lines (eval "$(caret env)"), with the tracer's path
 * found beside this caret (cli_find_tracer: installed, colcon's install
 * space, the Debian package or the build tree), so that no one types a
 * library path by hand. And `caret --version`.
 */
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "caret_version.h"
#include "cli_util.h"
#include "verbs.h"

static const char env_usage[] =
	"usage: caret env [--launch]\n"
	"\n"
	"Prints, as shell lines, what a ROS 2 process needs in its environment to be\n"
	"traced by caret-c: LD_PRELOAD set to the tracer, libcaret.so, as installed\n"
	"beside this caret. In a shell: eval \"$(caret env)\", then start the nodes\n"
	"(ros2 run, ros2 launch) in that shell.\n"
	"\n"
	"  --launch  the same for a ROS 2 Python launch file: the action to put\n"
	"            first in its LaunchDescription\n"
	"\n"
	"The tracer is PREFIX/<libdir>/caret/libcaret.so beside PREFIX/bin/caret\n"
	"(make install, the Debian package, colcon's install space), or the build\n"
	"tree's lib/libcaret.so; CARET_TRACER_LIB=FILE names another (caret record\n"
	"-- CMD preloads the same).\n"
	"\n"
	"At run time the traced processes need LTTng-UST (liblttng-ust1) and a\n"
	"session daemon (lttng-sessiond --daemonize, as root for the whole\n"
	"machine); nothing is recorded until a session is (caret record).\n";

int caret_cmd_env(int argc, char **argv, const ca_load_options *load)
{
	(void)load;
	static const struct option options[] = {
		{ "launch", no_argument, NULL, 'l' },
		{ "help", no_argument, NULL, 'h' },
		{ 0, 0, 0, 0 },
	};
	bool launch = false;
	int c;
	optind = 1;
	while ((c = getopt_long(argc, argv, "h", options, NULL)) != -1) {
		if (c == 'h') {
			fputs(env_usage, stdout);
			return 0;
		}
		if (c != 'l') {
			fputs(env_usage, stderr);
			return 2;
		}
		launch = true;
	}
	if (optind < argc) {
		fprintf(stderr, "caret env: unexpected argument '%s'\n", argv[optind]);
		return 2;
	}
	char tracer[PATH_MAX];
	if (cli_find_tracer("env", tracer, sizeof tracer))
		return 1;
	if (launch) {
		printf("# caret-c %s: first in the LaunchDescription (from launch.actions import\n"
			"# SetEnvironmentVariable); the session daemon must run (lttng-sessiond "
			"--daemonize)\n", CARET_VERSION);
		printf("SetEnvironmentVariable('LD_PRELOAD', '%s'),\n", tracer);
		return 0;
	}
	printf("# caret-c %s: a ROS 2 process started with this environment is traced\n"
		"# (eval \"$(caret env)\"); the session daemon must run: lttng-sessiond "
		"--daemonize\n", CARET_VERSION);
	printf("export LD_PRELOAD=%s${LD_PRELOAD:+:$LD_PRELOAD}\n", tracer);
	return 0;
}

int caret_print_version(void)
{
	printf("caret %s (git %s)\n", CARET_VERSION, CARET_GIT_REVISION);
	printf("ROS 2: humble, jazzy; rmw: rmw_cyclonedds_cpp, rmw_fastrtps_cpp\n");
	printf("readers: native (default), babeltrace2\n");
	return 0;
}

int caret_cmd_version(int argc, char **argv, const ca_load_options *load)
{
	(void)load;
	bool help = argc == 2 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"));
	if (argc > 1) {
		fprintf(help ? stdout : stderr, "usage: caret version\n"
			"\n"
			"The version alone (%s), as the original's `ros2 caret version` prints\n"
			"its own: for scripts. caret --version says more: the git revision, the\n"
			"ROS 2 distributions and middlewares supported, the readers.\n",
			CARET_VERSION);
		return help ? 0 : 2;
	}
	printf("%s\n", CARET_VERSION);
	return 0;
}
