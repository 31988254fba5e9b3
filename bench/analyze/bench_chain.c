/*
 * bench_chain - a chain of 6 nodes in one process, traced through
 * whatever implements ros_trace_* here (libcaret.so preloaded in the
 * bench): node 0's timer publishes /hop1, node k's subscription takes
 * /hop<k> intra-process and publishes /hop<k+1>, node 5 ends the chain.
 * Each iteration is one message along the 5-hop path (23 events), so the
 * trace holds a long path to follow. Nodes are /bench/n0 ... /bench/n5.
 *
 * usage: bench_chain ITERATIONS
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>

#include "tracetools/tracetools.h"

#define NODES 6

struct node {
	char handle, rmw, pub, rmw_pub, sub, rmw_sub, sub_obj, timer, callback;
	char name[8], topic_in[8], topic_out[8];
};

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 1000;
	static struct node nodes[NODES];
	static char context, messages[NODES];

	ros_trace_rcl_init(&context);
	for (int k = 0; k < NODES; k++) {
		struct node *x = &nodes[k];
		snprintf(x->name, sizeof x->name, "n%d", k);
		snprintf(x->topic_in, sizeof x->topic_in, "/hop%d", k);
		snprintf(x->topic_out, sizeof x->topic_out, "/hop%d", k + 1);
		ros_trace_rcl_node_init(&x->handle, &x->rmw, x->name, "/bench");
		if (k + 1 < NODES)
			ros_trace_rcl_publisher_init(&x->pub, &x->handle, &x->rmw_pub, x->topic_out, 10);
		if (k == 0) {
			ros_trace_rcl_timer_init(&x->timer, 1000000);
			ros_trace_rclcpp_timer_link_node(&x->timer, &x->handle);
			ros_trace_rclcpp_timer_callback_added(&x->timer, &x->callback);
		} else {
			ros_trace_rcl_subscription_init(&x->sub, &x->handle, &x->rmw_sub, x->topic_in, 10);
			ros_trace_rclcpp_subscription_init(&x->sub, &x->sub_obj);
			ros_trace_rclcpp_subscription_callback_added(&x->sub_obj, &x->callback);
		}
		ros_trace_rclcpp_callback_register(&x->callback, "bench::on_input");
	}
	for (long i = 0; i < n; i++)
		for (int k = 0; k < NODES; k++) {
			struct node *x = &nodes[k];
			if (k)
				ros_trace_dispatch_intra_process_subscription_callback(&messages[k - 1],
					&x->callback, (uint64_t)i);
			ros_trace_callback_start(&x->callback, k > 0);
			if (k + 1 < NODES)
				ros_trace_rclcpp_intra_publish(&x->pub, &messages[k]);
			ros_trace_callback_end(&x->callback);
		}
	return 0;
}
