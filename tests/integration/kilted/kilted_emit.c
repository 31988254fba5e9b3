/*
 * kilted_emit - a trace with Kilted's field layout (ros2_tracing 8.6:
 * u8[16] gids, the rmw service events), as a Kilted process records it
 * without libcaret.so: the ros2 provider generated from events.def with
 * every GID 16 bytes long (gen_tp --gid16). One process, a client node
 * and a server node; N calls of /add_two_ints, each stage 100 us (the
 * service's callback 200 us) after the one before; a publisher and a
 * subscription whose init events carry 16-byte gids.
 * usage: kilted_emit N
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "ros2_kilted_tp.h"

#define P(x) ((const void *)(uintptr_t)(x))

static void wait_us(long us)
{
	struct timespec ts = { 0, us * 1000 };
	nanosleep(&ts, NULL);
}

static int64_t wallclock(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_REALTIME, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 10;
	const uint8_t pub_gid[16] = { 1, 15, 112, 183, 1, 2, 3, 4, 5, 6, 7, 8, 0, 0, 20, 3 };
	const uint8_t sub_gid[16] = { 1, 15, 112, 183, 1, 2, 3, 4, 5, 6, 7, 8, 0, 0, 21, 4 };
	const uint8_t client_gid[16] = { 1, 15, 112, 183, 1, 2, 3, 4, 5, 6, 7, 8, 0, 0, 22, 4 };

	lttng_ust_tracepoint(ros2, rcl_init, P(0x1000), "8.6.0");
	lttng_ust_tracepoint(ros2, rcl_node_init, P(0x2001), P(0x3001), "client", "/");
	lttng_ust_tracepoint(ros2, rcl_node_init, P(0x2002), P(0x3002), "server", "/");
	lttng_ust_tracepoint(ros2, rmw_publisher_init, P(0x4001), pub_gid);
	lttng_ust_tracepoint(ros2, rcl_publisher_init, P(0x5001), P(0x2001), P(0x4001), "/chatter",
		10);
	lttng_ust_tracepoint(ros2, rmw_subscription_init, P(0x4002), sub_gid);
	lttng_ust_tracepoint(ros2, rcl_subscription_init, P(0x5002), P(0x2002), P(0x4002),
		"/chatter", 10);
	lttng_ust_tracepoint(ros2, rcl_service_init, P(0x6001), P(0x2002), P(0x7001),
		"/add_two_ints");
	lttng_ust_tracepoint(ros2, rclcpp_service_callback_added, P(0x6001), P(0x8001));
	lttng_ust_tracepoint(ros2, rclcpp_callback_register, P(0x8001), "add_two_ints_callback");
	lttng_ust_tracepoint(ros2, rcl_client_init, P(0x6002), P(0x2001), P(0x7002),
		"/add_two_ints");
	lttng_ust_tracepoint(ros2, rmw_client_init, P(0x7002), client_gid);
	for (int i = 1; i <= n; i++) {
		lttng_ust_tracepoint(ros2, rmw_send_request, P(0x7002), P(0x9000 + i), i);
		wait_us(100);
		lttng_ust_tracepoint(ros2, rmw_take_request, P(0x7001), P(0xa000 + i), client_gid, i,
			1);
		lttng_ust_tracepoint(ros2, callback_start, P(0x8001), 0);
		wait_us(200);
		lttng_ust_tracepoint(ros2, callback_end, P(0x8001));
		int64_t stamp = wallclock();
		lttng_ust_tracepoint(ros2, rmw_send_response, P(0x7001), P(0xb000 + i), client_gid, i,
			stamp);
		wait_us(100);
		lttng_ust_tracepoint(ros2, rmw_take_response, P(0x7002), P(0xc000 + i), i, stamp, 1);
		wait_us(1000);
	}
	printf("%d calls\n", n);
	return 0;
}
