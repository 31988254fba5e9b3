/*
 * bench_tracer - the cost of the tracer on the runtime path: N simulated
 * callback instances, each callback_start, one publish (rclcpp_publish,
 * rcl_publish, rmw_publish) and callback_end, through whatever implements
 * ros_trace_* in this process (the testbed's libtracetools.so, or
 * libcaret.so preloaded in front of it). Prints ns per callback instance.
 *
 * usage: bench_tracer ITERATIONS
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "tracetools/tracetools.h"

static int64_t now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 100000;
	static char node, rmw, pub, rmw_pub, sub, rmw_sub, obj, callback, message;

	/* The initialization a node with one subscription would make. */
	ros_trace_rcl_init(&node);
	ros_trace_rcl_node_init(&node, &rmw, "bench", "/");
	ros_trace_rcl_publisher_init(&pub, &node, &rmw_pub, "/out", 10);
	ros_trace_rcl_subscription_init(&sub, &node, &rmw_sub, "/in", 10);
	ros_trace_rclcpp_subscription_init(&sub, &obj);
	ros_trace_rclcpp_subscription_callback_added(&obj, &callback);
	ros_trace_rclcpp_callback_register(&callback, "bench::on_message");

	int64_t start = now();
	for (long i = 0; i < n; i++) {
		ros_trace_callback_start(&callback, false);
		ros_trace_rclcpp_publish(&pub, &message);
		ros_trace_rcl_publish(&pub, &message);
		ros_trace_rmw_publish(&message);
		ros_trace_callback_end(&callback);
	}
	int64_t elapsed = now() - start;
	printf("%.1f\n", (double)elapsed / (double)n);
	return 0;
}
