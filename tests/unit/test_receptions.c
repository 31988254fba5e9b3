/*
 * test_receptions - where a message waited (records/receptions.c) on
 * traces built row by row: Fast DDS's reception time by the message's
 * source stamp; Cyclone DDS's arrivals matched in the order of the writes
 * (one that came before the write skipped, one after the take counted as
 * the take, a message with none not split); a trace without receptions
 * (nothing split, no kind); the parts adding up to the latency.
 */
#include <stdio.h>
#include <stdlib.h>

#include "trace_builder.h"

/* Process pid: node "n<pid>" with a subscription to /t (callback 0x34,
 * rmw 0x28) and a publisher on /t (0x40), addresses offset by base. */
static void system_of(int32_t pid, uint64_t base)
{
	char name[16];
	snprintf(name, sizeof name, "n%d", pid);
	ROW(ros2_rcl_node_init, 1, pid, "node_handle", base, "node_name", S(name), "namespace", S("/"));
	ROW(ros2_rcl_subscription_init, 5, pid, "subscription_handle", base + 0x20, "node_handle",
		base, "rmw_subscription_handle", base + 0x28, "topic_name", S("/t"));
	ROW(ros2_rclcpp_subscription_init, 6, pid, "subscription_handle", base + 0x20,
		"subscription", base + 0x30);
	ROW(ros2_rclcpp_subscription_callback_added, 7, pid, "subscription", base + 0x30,
		"callback", base + 0x34);
	ROW(ros2_rcl_publisher_init, 8, pid, "publisher_handle", base + 0x40, "node_handle", base,
		"topic_name", S("/t"));
}

/* pid 1 publishes at `at` (written 2 ns later, source stamp `stamp`); pid 2
 * takes it at `take` and runs its callback from take + 10. */
static void message(uint64_t at, uint64_t stamp, uint64_t take)
{
	ROW(ros2_caret_merged_publish_timing, at + 5, 1, "publisher_handle", U(0x1040), "message",
		U(0x9), "rclcpp_publish_timestamp", U(at), "rcl_publish_timestamp", U(at + 1),
		"dds_write_timestamp", U(at + 2), "source_stamp", U(stamp));
	ROW(ros2_rmw_take, take, 2, "rmw_subscription_handle", U(0x2028), "message", U(0x5),
		"source_timestamp", U(stamp), "taken", U(1));
	ROW(ros2_caret_merged_callback_timing, take + 20, 2, "callback", U(0x2034),
		"callback_start_timestamp", U(take + 10));
}

static void arrival(uint64_t at)
{
	ROW(ros2_caret_rmw_data_available, at, 2, "rmw_subscription_handle", U(0x2028));
}

static ca_records *records(void)
{
	char err[256];
	build();
	ca_records *r = ca_records_build(t, err, sizeof err);
	assert_non_null(r);
	return r;
}

/* Message i's parts, which must add up to its latency. */
static bool hops_of(const ca_records *r, size_t i, ca_message_hops *h)
{
	const ca_communication *c;
	const ca_callback_instance *runs;
	const ca_publish_instance *p;
	ca_records_communications(r, &c);
	ca_records_callbacks(r, &runs);
	ca_records_publishes(r, &p);
	if (!ca_records_message_hops(r, i, h))
		return false;
	assert_int_equal(h->to_write + h->in_middleware + h->to_callback,
		runs[c[i].callback_instance].start - ca_publish_time(&p[c[i].publish]));
	return true;
}

static void test_fast_dds_reception_time(void **state)
{
	(void)state;
	system_of(1, 0x1000);
	system_of(2, 0x2000);
	message(100, 5000, 300);
	/* received 40 ns after its source stamp (the system clock's) */
	ROW(ros2_caret_rmw_take_reception, 301, 2, "rmw_subscription_handle", U(0x2028),
		"source_stamp", U(5000), "received_stamp", U(5040));
	message(400, 5300, 600); /* no reception recorded for it */
	ca_records *r = records();
	ca_message_hops h;
	assert_true(hops_of(r, 0, &h));
	assert_int_equal(h.to_write, 2);
	assert_int_equal(h.in_middleware, 40);
	assert_int_equal(h.to_callback, 310 - 100 - 2 - 40);
	assert_false(ca_records_message_hops(r, 1, &h));
	assert_int_equal(ca_records_reception_kinds(r), CA_RECEPTION_STAMPED);
	ca_records_free(r);
}

static void test_cyclone_arrivals_in_order(void **state)
{
	(void)state;
	system_of(1, 0x1000);
	system_of(2, 0x2000);
	arrival(50); /* before any write: not one of these messages' */
	message(100, 5000, 300);
	arrival(150);
	message(200, 5100, 400);
	arrival(250);
	/* an idle executor took the third before the listener ran: the take */
	message(500, 5400, 560);
	arrival(570);
	ca_records *r = records();
	ca_message_hops h;
	assert_true(hops_of(r, 0, &h));
	assert_int_equal(h.in_middleware, 150 - 102);
	assert_int_equal(h.to_callback, 310 - 150);
	assert_true(hops_of(r, 1, &h));
	assert_int_equal(h.in_middleware, 250 - 202);
	assert_true(hops_of(r, 2, &h));
	assert_int_equal(h.in_middleware, 560 - 502);
	assert_int_equal(h.to_callback, 10);
	assert_int_equal(ca_records_reception_kinds(r), CA_RECEPTION_ARRIVAL_ORDER);
	ca_records_free(r);
}

static void test_arrivals_missing(void **state)
{
	(void)state;
	system_of(1, 0x1000);
	system_of(2, 0x2000);
	/* the first message's arrival not recorded (it came before the
	 * recording): the next message's, after the next write, is not taken
	 * for it, and the others keep their own */
	message(100, 5000, 300);
	message(400, 5300, 600);
	arrival(450);
	message(700, 5600, 900);
	arrival(750);
	message(1000, 5900, 1200); /* no arrival after its write: not split */
	ca_records *r = records();
	ca_message_hops h;
	assert_false(ca_records_message_hops(r, 0, &h));
	assert_true(hops_of(r, 1, &h));
	assert_int_equal(h.in_middleware, 450 - 402);
	assert_true(hops_of(r, 2, &h));
	assert_int_equal(h.in_middleware, 750 - 702);
	assert_false(ca_records_message_hops(r, 3, &h));
	ca_records_free(r);
}

static void test_no_reception(void **state)
{
	(void)state;
	system_of(1, 0x1000);
	system_of(2, 0x2000);
	message(100, 5000, 300);
	ca_records *r = records();
	ca_message_hops h;
	assert_int_equal(ca_records_communications(r, &(const ca_communication *){ 0 }), 1);
	assert_false(ca_records_message_hops(r, 0, &h));
	assert_int_equal(ca_records_reception_kinds(r), 0);
	assert_null(ca_hop_splitter_new(r));
	ca_records_free(r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_fast_dds_reception_time, setup, teardown),
		cmocka_unit_test_setup_teardown(test_cyclone_arrivals_in_order, setup, teardown),
		cmocka_unit_test_setup_teardown(test_arrivals_missing, setup, teardown),
		cmocka_unit_test_setup_teardown(test_no_reception, setup, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
