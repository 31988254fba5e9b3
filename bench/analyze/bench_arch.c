/*
 * bench_arch - the initialization of a whole system description (tb-gen
 * output, or any testbed system) traced from one process, without running
 * it: every node with its publishers, subscriptions and timers, callbacks
 * and symbols, through whatever implements ros_trace_* here. A trace of a
 * system too large to run on this machine, for the path search bench.
 *
 * usage: bench_arch SYSTEM.yaml
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "system.h"
#include "tracetools/tracetools.h"

static char *addresses;
static size_t next_address;

/* A distinct address for each object (never dereferenced). */
static const void *address(void)
{
	return addresses + 16 * next_address++;
}

static void publisher(const void *node, const char *topic, char **done, size_t *n_done)
{
	for (size_t i = 0; i < *n_done; i++)
		if (!strcmp(done[i], topic))
			return;
	done[(*n_done)++] = (char *)topic;
	ros_trace_rcl_publisher_init(address(), node, address(), topic, 10);
}

static void publishers(const void *node, const struct tb_sys_strings *topics, char **done,
	size_t *n_done)
{
	for (size_t i = 0; i < topics->count; i++)
		publisher(node, topics->items[i], done, n_done);
}

int main(int argc, char **argv)
{
	char err[512], *done[256];
	if (argc != 2) {
		fprintf(stderr, "usage: bench_arch SYSTEM.yaml\n");
		return 2;
	}
	struct tb_system *sys = tb_system_load(argv[1], err, sizeof err);
	if (!sys) {
		fprintf(stderr, "bench_arch: %s\n", err);
		return 1;
	}
	addresses = calloc(1, 16 << 20);
	ros_trace_rcl_init(address());
	for (size_t p = 0; p < sys->n_processes; p++)
		for (size_t k = 0; k < sys->processes[p].n_nodes; k++) {
			const struct tb_sys_node *n = &sys->processes[p].nodes[k];
			const void *node = address();
			size_t n_done = 0;
			ros_trace_rcl_node_init(node, address(), n->name, n->ns);
			for (size_t i = 0; i < n->n_publishers && n_done < 200; i++)
				publisher(node, n->publishers[i].topic, done, &n_done);
			for (size_t i = 0; i < n->n_timers; i++) {
				const void *timer = address(), *callback = address();
				publishers(node, &n->timers[i].publish, done, &n_done);
				ros_trace_rcl_timer_init(timer, n->timers[i].period_ns);
				ros_trace_rclcpp_timer_link_node(timer, node);
				ros_trace_rclcpp_timer_callback_added(timer, callback);
				ros_trace_rclcpp_callback_register(callback, "bench::on_timer");
			}
			for (size_t i = 0; i < n->n_subscriptions; i++) {
				const void *sub = address(), *object = address(), *callback = address();
				publishers(node, &n->subscriptions[i].publish, done, &n_done);
				ros_trace_rcl_subscription_init(sub, node, address(),
					n->subscriptions[i].topic, 10);
				ros_trace_rclcpp_subscription_init(sub, object);
				ros_trace_rclcpp_subscription_callback_added(object, callback);
				ros_trace_rclcpp_callback_register(callback, "bench::on_message");
			}
		}
	tb_system_free(sys);
	free(addresses);
	return 0;
}
