/*
 * cmd_check_caret_rclcpp.c - `caret check_caret_rclcpp WORKSPACE`, the
 * original's check: which packages of a colcon workspace were built
 * against upstream rclcpp rather than CARET's fork (on Humble, their
 * intra-process messages cannot be linked: caret check says so of a
 * trace). A binary under WORKSPACE/build calling ros2_tracing's rclcpp
 * tracepoints is CARET's when it also calls one only the fork has; a
 * package is when one of its binaries is. Read from each binary's dynamic
 * symbols, as the original reads `nm -D`.
 */
#define _GNU_SOURCE
#include <ftw.h>
#include <getopt.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli_util.h"
#include "elf_symbols.h"
#include "ros2caret_out.h"
#include "verbs.h"

static int usage(FILE *out)
{
	fprintf(out,
		"usage: caret check_caret_rclcpp WORKSPACE\n"
		"       caret check_caret_rclcpp -w|--workspace WORKSPACE\n"
		"\n"
		"The original's `ros2 caret check_caret_rclcpp` under its name: reads the\n"
		"dynamic symbols of every executable and shared library under\n"
		"WORKSPACE/build (as `nm -D` lists them) and names the packages whose\n"
		"binaries call ros2_tracing's rclcpp tracepoints\n"
		"(ros_trace_rclcpp_publish, _subscription_init, _subscription_callback_added)\n"
		"but none that only CARET's rclcpp fork has (ros_trace_dispatch_*,\n"
		"_message_construct, _rclcpp_intra_publish): on Humble their intra-process\n"
		"messages cannot be linked to their publish. Written as the original's\n"
		"logger lines on stderr: \"All packages are built using caret-rclcpp.\", or\n"
		"\"The following packages have not been built using caret-rclcpp:\" and the\n"
		"packages, one a line. With ROS_DISTRO set to a distribution after Humble\n"
		"it only says the check is not needed there (their rclcpp is traced\n"
		"upstream).\n"
		"\n"
		"Exit status: 0 checked (packages named or not); 1 no WORKSPACE/build, or\n"
		"no binary under it calling an rclcpp tracepoint (not built, or built\n"
		"with tracing disabled); 2 usage error.\n");
	return out == stdout ? 0 : 2;
}

static const char *const rclcpp_symbols[] = { "ros_trace_rclcpp_publish",
	"ros_trace_rclcpp_subscription_init", "ros_trace_rclcpp_subscription_callback_added",
	NULL };
static const char *const fork_symbols[] = {
	"ros_trace_dispatch_intra_process_subscription_callback",
	"ros_trace_dispatch_subscription_callback", "ros_trace_message_construct",
	"ros_trace_rclcpp_intra_publish", NULL };

struct package {
	char *name;
	bool caret; /* one of its binaries calls a fork-only tracepoint */
};

/* What the walk found (nftw's callback takes no user pointer). */
static struct {
	size_t build_len; /* of "WORKSPACE/build" */
	struct package *packages;
	size_t n, cap;
	bool out_of_memory;
} scan;

struct calls {
	bool rclcpp, fork;
};

static bool listed(const char *const *names, const char *name)
{
	for (; *names; names++)
		if (!strcmp(*names, name))
			return true;
	return false;
}

static bool note_symbol(const char *name, void *user)
{
	struct calls *c = user;
	c->rclcpp |= listed(rclcpp_symbols, name);
	c->fork |= listed(fork_symbols, name);
	return !(c->rclcpp && c->fork);
}

/* The package of a binary: the first folder under build/. */
static struct package *package_of(const char *path)
{
	const char *rel = path + scan.build_len + 1;
	size_t len = strcspn(rel, "/");
	for (size_t i = 0; i < scan.n; i++)
		if (strlen(scan.packages[i].name) == len && !strncmp(scan.packages[i].name, rel, len))
			return &scan.packages[i];
	if (scan.n == scan.cap) {
		size_t cap = scan.cap ? 2 * scan.cap : 16;
		struct package *p = realloc(scan.packages, cap * sizeof *p);
		if (!p)
			return NULL;
		scan.packages = p;
		scan.cap = cap;
	}
	struct package *p = &scan.packages[scan.n];
	if (!(p->name = strndup(rel, len)))
		return NULL;
	p->caret = false;
	scan.n++;
	return p;
}

static int visit_file(const char *path, const struct stat *st, int type, struct FTW *ftw)
{
	(void)ftw;
	struct calls c = { 0 };
	if (type != FTW_F || !st->st_size || elf_dynamic_symbols(path, note_symbol, &c) <= 0 ||
	    !c.rclcpp)
		return 0;
	struct package *p = package_of(path);
	if (!p) {
		scan.out_of_memory = true;
		return 1;
	}
	p->caret |= c.fork;
	return 0;
}

static int by_name(const void *a, const void *b)
{
	return strcmp(((const struct package *)a)->name, ((const struct package *)b)->name);
}

/* The packages without the fork, in the original's message. */
static void say_packages(void)
{
	size_t size = 64;
	for (size_t i = 0; i < scan.n; i++)
		size += strlen(scan.packages[i].name) + 2;
	char *text = malloc(size), *at = text;
	if (!text)
		return;
	at += sprintf(at, "The following packages have not been built using caret-rclcpp:");
	for (size_t i = 0; i < scan.n; i++)
		if (!scan.packages[i].caret)
			at += sprintf(at, "\n\t%s", scan.packages[i].name);
	ros2caret_log(ROS2CARET_WARNING, "%s", text);
	free(text);
}

static int check(const char *workspace)
{
	char build[PATH_MAX];
	struct stat st;
	snprintf(build, sizeof build, "%s/build", workspace);
	if (stat(build, &st) != 0 || !S_ISDIR(st.st_mode)) {
		ros2caret_log(ROS2CARET_ERROR, "\"build\" directory not found (%s). Specify the path "
			"to the workspace where the build command completed.", build);
		return 1;
	}
	const char *distro = getenv("ROS_DISTRO");
	if (distro && *distro && strcmp(distro, "humble")) {
		ros2caret_log(ROS2CARET_INFO, "ROS_DISTRO is %s: its rclcpp is traced upstream, "
			"CARET's rclcpp fork is a Humble matter: nothing to check.", distro);
		return 0;
	}
	scan.build_len = strlen(build);
	if (nftw(build, visit_file, 32, FTW_PHYS) != 0 || scan.out_of_memory) {
		fprintf(stderr, "caret check_caret_rclcpp: cannot read %s: %s\n", build,
			scan.out_of_memory ? "out of memory" : "a folder could not be walked");
		return 1;
	}
	if (!scan.n) {
		fprintf(stderr, "caret check_caret_rclcpp: no binary under %s calls an rclcpp "
			"tracepoint (ros_trace_rclcpp_publish...): not built yet, not a ROS 2 C++ "
			"workspace, or built with tracing disabled\n", build);
		return 1;
	}
	qsort(scan.packages, scan.n, sizeof *scan.packages, by_name);
	size_t missing = 0;
	for (size_t i = 0; i < scan.n; i++)
		missing += !scan.packages[i].caret;
	if (missing)
		say_packages();
	else
		ros2caret_log(ROS2CARET_INFO, "All packages are built using caret-rclcpp.");
	return 0;
}

int caret_cmd_check_caret_rclcpp(int argc, char **argv, const ca_load_options *load)
{
	(void)load; /* a workspace, no trace */
	static const struct option opts[] = {
		{ "workspace", required_argument, NULL, 'w' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 },
	};
	const char *workspace = NULL;
	int c;
	optind = 1;
	while ((c = getopt_long(argc, argv, "w:h", opts, NULL)) != -1) {
		if (c != 'w')
			return usage(c == 'h' ? stdout : stderr);
		workspace = optarg;
	}
	if (optind < argc && !workspace)
		workspace = argv[optind++];
	if (!workspace || optind < argc)
		return usage(stderr);
	int status = check(workspace);
	for (size_t i = 0; i < scan.n; i++)
		free(scan.packages[i].name);
	free(scan.packages);
	return status;
}
