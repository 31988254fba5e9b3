/*
 * bench_reception - the cost of recording where a message waited, per
 * message received: N messages, each stored (Cyclone DDS: its reader's
 * listener called) and taken (rmw_take_with_info), through fake_rmw and,
 * preloaded, libcaret.so in front of it. With --tracepoint, each message
 * also emits one ros2:rmw_take through the testbed's libtracetools (the
 * baseline: one raw LTTng event). Prints ns per message.
 *
 * usage: bench_reception cyclonedds|fastdds ITERATIONS [--tracepoint]
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "fake_rmw.h"
#include "tracetools/tracetools.h"

static int64_t now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

int main(int argc, char **argv)
{
	if (argc < 3) {
		fprintf(stderr, "usage: bench_reception cyclonedds|fastdds ITERATIONS [--tracepoint]\n");
		return 2;
	}
	const char *id = !strcmp(argv[1], "fastdds") ? "rmw_fastrtps_cpp" : "rmw_cyclonedds_cpp";
	long n = atol(argv[2]);
	bool tracepoint = argc > 3 && !strcmp(argv[3], "--tracepoint");
	static char node, rmw, sub, message;
	ros_trace_rcl_init(&node);
	ros_trace_rcl_node_init(&node, &rmw, "bench", "/");
	void *s = rmw_create_subscription(&node, NULL, "/in", NULL, id);
	ros_trace_rcl_subscription_init(&sub, &node, s, "/in", 10);
	int64_t info[8];
	bool taken;

	int64_t start = now();
	for (long i = 0; i < n; i++) {
		fake_rmw_sample_stored(s);
		rmw_take_with_info(s, &message, &taken, info, NULL);
		if (tracepoint)
			ros_trace_rmw_take(s, &message, info[0], taken);
	}
	int64_t elapsed = now() - start;
	printf("%.1f\n", (double)elapsed / (double)n);
	return 0;
}
