/*
 * test_analyze_records - the runtime joins on traces built row by row:
 * nested callback runs, publishes placed in their run, the unmerged publish
 * chain and its merged form, upstream's rclcpp_publish without publisher,
 * inter-process messages by source stamp, intra-process ones through a
 * copy, each loss counted, not_received, the streamed joins of
 * latencies_only records, timer delays, a path's
 * inherit_unique_stamp hop, the statistics, and the radix sorts of empty
 * arrays.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "records.h"
#include "trace_builder.h"

/* Process pid: node "n<pid>" with a timer (callback 0x14, handle 0x10) and
 * a subscription to /t (callback 0x34, rmw 0x28) and a publisher on /t
 * (0x40), addresses offset by base. */
static void system_of(int32_t pid, uint64_t base)
{
	char name[16];
	snprintf(name, sizeof name, "n%d", pid);
	ROW(ros2_rcl_node_init, 1, pid, "node_handle", base, "node_name", S(name), "namespace", S("/"));
	ROW(ros2_rcl_timer_init, 2, pid, "timer_handle", base + 0x10, "period", U(100));
	ROW(ros2_rclcpp_timer_link_node, 3, pid, "timer_handle", base + 0x10, "node_handle", base);
	ROW(ros2_rclcpp_timer_callback_added, 4, pid, "timer_handle", base + 0x10, "callback",
		base + 0x14);
	ROW(ros2_rcl_subscription_init, 5, pid, "subscription_handle", base + 0x20, "node_handle",
		base, "rmw_subscription_handle", base + 0x28, "topic_name", S("/t"));
	ROW(ros2_rclcpp_subscription_init, 6, pid, "subscription_handle", base + 0x20,
		"subscription", base + 0x30);
	ROW(ros2_rclcpp_subscription_callback_added, 7, pid, "subscription", base + 0x30,
		"callback", base + 0x34);
	ROW(ros2_rcl_publisher_init, 8, pid, "publisher_handle", base + 0x40, "node_handle", base,
		"topic_name", S("/t"));
}

static ca_records *records(void)
{
	char err[256];
	build();
	ca_records *r = ca_records_build(t, err, sizeof err);
	assert_non_null(r);
	return r;
}

static void test_nested_runs_and_publish_chain(void **state)
{
	(void)state;
	system_of(1, 0x1000);
	/* timer run [100, 200] holds a subscription run [120, 150] (a callback
	 * that spins), which publishes through rclcpp, rcl and DDS. */
	ROW(ros2_callback_start, 100, 1, "callback", U(0x1014));
	ROW(ros2_callback_start, 120, 1, "callback", U(0x1034));
	ROW(ros2_rclcpp_publish, 130, 1, "publisher_handle", U(0x1040), "message", U(0x9));
	ROW(ros2_rcl_publish, 131, 1, "publisher_handle", U(0x1040), "message", U(0x9));
	ROW(ros2_caret_dds_write, 132, 1, "message", U(0x9));
	ROW(ros2_caret_dds_bind_addr_to_stamp, 133, 1, "addr", U(0x9), "source_stamp", U(777));
	ROW(ros2_callback_end, 150, 1, "callback", U(0x1034));
	ROW(ros2_callback_end, 200, 1, "callback", U(0x1014));
	ca_records *r = records();
	const ca_callback_instance *runs;
	const ca_publish_instance *p;
	assert_int_equal(ca_records_callbacks(r, &runs), 2);
	assert_int_equal(ca_records_publishes(r, &p), 1);
	/* sorted by callback: the timer's (0) first */
	assert_int_equal(runs[0].start, 100);
	assert_int_equal(runs[0].end, 200);
	assert_int_equal(runs[1].start, 120);
	assert_int_equal(runs[1].end, 150);
	assert_int_equal(p[0].rclcpp_time, 130);
	assert_int_equal(p[0].rcl_time, 131);
	assert_int_equal(p[0].dds_write_time, 132);
	assert_int_equal(p[0].source_stamp, 777);
	assert_int_equal(p[0].callback_instance, 1); /* the inner run */
	assert_int_equal(ca_records_losses(r)->not_ended, 0);
	ca_records_free(r);
}

static void test_inter_process_by_stamp(void **state)
{
	(void)state;
	system_of(1, 0x1000);
	system_of(2, 0x2000);
	/* pid 1 publishes (merged form), pid 2 takes it and runs its callback
	 * (merged), then another take whose publish is not in the trace. */
	ROW(ros2_caret_merged_callback_timing, 200, 1, "callback", U(0x1014),
		"callback_start_timestamp", U(100));
	ROW(ros2_caret_merged_publish_timing, 150, 1, "publisher_handle", U(0x1040), "message",
		U(0x9), "rclcpp_publish_timestamp", U(110), "rcl_publish_timestamp", U(111),
		"dds_write_timestamp", U(112), "source_stamp", U(555));
	/* a run that began before recording: an end alone, not a run */
	ROWT(ros2_caret_merged_callback_timing, 250, 2, 23, "callback", U(0x2034),
		"callback_start_timestamp", U(0));
	ROWT(ros2_rmw_take, 300, 2, 22, "rmw_subscription_handle", U(0x2028), "message", U(0x5),
		"source_timestamp", U(555), "taken", U(1));
	ROWT(ros2_caret_merged_callback_timing, 400, 2, 22, "callback", U(0x2034),
		"callback_start_timestamp", U(310));
	ROWT(ros2_rmw_take, 500, 2, 22, "rmw_subscription_handle", U(0x2028), "message", U(0x5),
		"source_timestamp", U(999), "taken", U(1));
	ROWT(ros2_caret_merged_callback_timing, 600, 2, 22, "callback", U(0x2034),
		"callback_start_timestamp", U(510));
	ca_records *r = records();
	const ca_communication *c;
	const ca_callback_instance *runs;
	const ca_publish_instance *p;
	assert_int_equal(ca_records_communications(r, &c), 2);
	assert_int_equal(ca_records_callbacks(r, &runs), 3);
	assert_int_equal(ca_records_losses(r)->not_started, 1);
	ca_records_publishes(r, &p);
	assert_int_equal(c[0].publish, 0);
	assert_int_equal(runs[c[0].callback_instance].start, 310);
	assert_int_equal(runs[c[0].callback_instance].start - p[c[0].publish].rclcpp_time, 200);
	assert_int_equal(c[1].publish, CA_NONE);
	assert_int_equal(ca_records_losses(r)->not_published, 1);
	assert_int_equal(p[0].callback_instance != CA_NONE, 1); /* inside the timer run */
	/* pid 2's subscription got the one publish of pid 1 made while pid 2
	 * was recording (from 1): nothing lost; pid 1's own subscription does
	 * not count inter-process publishes of its own process. */
	const ca_architecture *a = ca_trace_architecture(t);
	for (size_t s = 0; s < a->n_subscriptions; s++)
		assert_int_equal(ca_records_not_received(r, s), 0);
	ca_records_free(r);
}

static void test_upstream_publish_and_losses(void **state)
{
	(void)state;
	system_of(1, 0x1000);
	/* upstream Humble: rclcpp_publish names only its message */
	ROW(ros2_rclcpp_publish, 10, 1, "message", U(0x9));
	ROW(ros2_rcl_publish, 11, 1, "publisher_handle", U(0x1040), "message", U(0x9));
	ROW(ros2_callback_end, 20, 1, "callback", U(0x1014));   /* never started */
	ROW(ros2_callback_start, 30, 1, "callback", U(0x1014)); /* never ends */
	ROWT(ros2_rmw_take, 40, 1, 7, "rmw_subscription_handle", U(0x1028), "message", U(0x5),
		"source_timestamp", U(1), "taken", U(1));            /* no run after it */
	ROWT(ros2_rmw_take, 41, 1, 7, "rmw_subscription_handle", U(0x7777), "message", U(0x6),
		"source_timestamp", U(2), "taken", U(1)); /* an rmw-internal reader: not a loss */
	ca_records *r = records();
	const ca_publish_instance *p;
	assert_int_equal(ca_records_publishes(r, &p), 1);
	assert_int_equal(p[0].publisher, 0);
	assert_int_equal(p[0].rclcpp_time, 10);
	assert_int_equal(p[0].rcl_time, 11);
	const ca_record_losses *l = ca_records_losses(r);
	assert_int_equal(l->not_started, 1);
	assert_int_equal(l->not_ended, 1);
	assert_int_equal(l->taken_not_run, 1);
	ca_records_free(r);
}

static void test_intra_process_through_copy(void **state)
{
	(void)state;
	system_of(1, 0x1000);
	ROW(ros2_rclcpp_intra_publish, 10, 1, "publisher_handle", U(0x1040), "message", U(0x9));
	ROW(ros2_message_construct, 11, 1, "original_message", U(0x9), "constructed_message", U(0xc));
	/* an older publish of the same address must not be chosen */
	ROW(ros2_rclcpp_intra_publish, 50, 1, "publisher_handle", U(0x1040), "message", U(0xc));
	ROW(ros2_dispatch_intra_process_subscription_callback, 20, 1, "message", U(0xc),
		"callback", U(0x1034));
	ROW(ros2_callback_start, 21, 1, "callback", U(0x1034), "is_intra_process", U(1));
	ROW(ros2_callback_end, 25, 1, "callback", U(0x1034));
	ca_records *r = records();
	const ca_communication *c;
	const ca_publish_instance *p;
	assert_int_equal(ca_records_communications(r, &c), 1);
	ca_records_publishes(r, &p);
	assert_true(c[0].intra);
	assert_int_equal(p[c[0].publish].rclcpp_time, 10);
	/* two intra publishes on /t while recording, one handled */
	assert_int_equal(ca_records_not_received(r, 0), 1);
	ca_records_free(r);
}

/* latencies_only records: a take traced before its publisher's stamp
 * (the grace), a node path's first output per run, a merged run claiming
 * the publish its thread made inside it; the full joins agree. */
static void test_streamed_latencies(void **state)
{
	(void)state;
	system_of(1, 0x1000);
	system_of(2, 0x2000);
	ROW(ros2_callback_start, 100, 1, "callback", U(0x1014));
	ROW(ros2_rclcpp_publish, 105, 1, "publisher_handle", U(0x1040), "message", U(0x9));
	ROW(ros2_rcl_publish, 106, 1, "publisher_handle", U(0x1040), "message", U(0x9));
	ROW(ros2_caret_dds_write, 107, 1, "message", U(0x9));
	ROWT(ros2_rmw_take, 110, 2, 22, "rmw_subscription_handle", U(0x2028), "message", U(0x5),
		"source_timestamp", U(777), "taken", U(1));
	ROWT(ros2_callback_start, 120, 2, 22, "callback", U(0x2034));
	ROWT(ros2_callback_end, 125, 2, 22, "callback", U(0x2034));
	ROW(ros2_caret_dds_bind_addr_to_stamp, 130, 1, "addr", U(0x9), "source_stamp", U(777));
	ROW(ros2_rclcpp_publish, 140, 1, "publisher_handle", U(0x1040), "message", U(0xb));
	ROW(ros2_callback_end, 200, 1, "callback", U(0x1014));
	ROWT(ros2_caret_merged_publish_timing, 300, 1, 12, "publisher_handle", U(0x1040),
		"message", U(0xd), "rclcpp_publish_timestamp", U(250), "rcl_publish_timestamp",
		U(251), "dds_write_timestamp", U(252), "source_stamp", U(888));
	ROWT(ros2_caret_merged_callback_timing, 320, 1, 12, "callback", U(0x1014),
		"callback_start_timestamp", U(240));
	ca_records *full = records();
	char err[256];
	ca_records_options o = { .latencies_only = true };
	ca_records *r = ca_records_build_options(t, &o, err, sizeof err);
	assert_non_null(r);
	const ca_communication *c;
	assert_int_equal(ca_records_communications(r, &c), 0); /* no array kept */
	assert_int_equal(ca_records_topic_latency_count(r, "/t", false), 1);
	int64_t v[4];
	uint64_t not_published;
	assert_int_equal(ca_records_topic_latencies(r, "/t", false, v, &not_published), 1);
	assert_int_equal(v[0], 120 - 105);
	assert_int_equal(not_published, 0);
	assert_int_equal(ca_records_losses(r)->matched_by_time, 0);
	/* the full joins: the same message */
	const ca_callback_instance *runs;
	const ca_publish_instance *p;
	assert_int_equal(ca_records_communications(full, &c), 1);
	ca_records_callbacks(full, &runs);
	ca_records_publishes(full, &p);
	assert_int_equal(runs[c[0].callback_instance].start - ca_publish_time(&p[c[0].publish]),
		v[0]);
	/* the timer's node path on /t: its first publish per run, 105 - 100
	 * and (merged) 250 - 240; the publish at 140 is not an output */
	const ca_node_path *np;
	assert_int_equal(ca_records_node_paths(r, &np), 1);
	assert_int_equal(np[0].count, 2);
	assert_string_equal(np[0].topic, "/t");
	assert_int_equal(ca_trace_architecture(t)->callbacks[np[0].callback].kind, CA_CALLBACK_TIMER);
	assert_true((np[0].values[0] == 5 && np[0].values[1] == 10) ||
		(np[0].values[0] == 10 && np[0].values[1] == 5));
	const ca_architecture *a = ca_trace_architecture(t);
	for (size_t s = 0; s < a->n_subscriptions; s++)
		assert_int_equal(ca_records_not_received(r, s), ca_records_not_received(full, s));
	ca_records_free(r);
	ca_records_free(full);
}

static void test_timer_delays(void **state)
{
	(void)state;
	system_of(1, 0x1000); /* timer 0x1010 created at 2, period 100 */
	ROW(ros2_callback_start, 105, 1, "callback", U(0x1014));
	ROW(ros2_callback_end, 110, 1, "callback", U(0x1014));
	ROW(ros2_callback_start, 203, 1, "callback", U(0x1014));
	ROW(ros2_callback_end, 210, 1, "callback", U(0x1014));
	ROW(ros2_callback_start, 352, 1, "callback", U(0x1014)); /* one firing skipped */
	ROW(ros2_callback_end, 360, 1, "callback", U(0x1014));
	ca_records *r = records();
	int64_t d[8];
	assert_int_equal(ca_records_timer_delays(r, 0, d), 3);
	assert_int_equal(d[0], 3);
	assert_int_equal(d[1], 1);
	assert_int_equal(d[2], 50);
	ca_records_free(r);
}

/* Node `name` in process pid: a subscription to `in` (callback base + 0x34,
 * rmw base + 0x28) unless NULL, a timer (callback base + 0x14) otherwise,
 * and a publisher on `out` (base + 0x40) unless NULL. */
static void node_on(int32_t pid, uint64_t base, const char *name, const char *in, const char *out)
{
	ROW(ros2_rcl_node_init, 1, pid, "node_handle", base, "node_name", S(name), "namespace", S("/"));
	if (in) {
		ROW(ros2_rcl_subscription_init, 5, pid, "subscription_handle", base + 0x20,
			"node_handle", base, "rmw_subscription_handle", base + 0x28, "topic_name", S(in));
		ROW(ros2_rclcpp_subscription_init, 6, pid, "subscription_handle", base + 0x20,
			"subscription", base + 0x30);
		ROW(ros2_rclcpp_subscription_callback_added, 7, pid, "subscription", base + 0x30,
			"callback", base + 0x34);
	} else {
		ROW(ros2_rcl_timer_init, 2, pid, "timer_handle", base + 0x10, "period", U(1000));
		ROW(ros2_rclcpp_timer_link_node, 3, pid, "timer_handle", base + 0x10, "node_handle", base);
		ROW(ros2_rclcpp_timer_callback_added, 4, pid, "timer_handle", base + 0x10, "callback",
			base + 0x14);
	}
	if (out)
		ROW(ros2_rcl_publisher_init, 8, pid, "publisher_handle", base + 0x40, "node_handle", base,
			"topic_name", S(out));
}

/* A run of pid's callback from `start`, taking the message of source stamp
 * `in` with header stamp `header` (in 0: a timer run), publishing one of
 * source stamp `out` (0: none). */
static void run_of(int32_t pid, uint64_t base, uint64_t start, uint64_t in, uint64_t header,
	uint64_t out)
{
	uint64_t cb = base + (in ? 0x34 : 0x14);
	if (in) {
		ROW(ros2_rmw_take, start - 2, pid, "rmw_subscription_handle", base + 0x28, "message",
			U(0x5), "source_timestamp", in, "taken", U(1));
		ROW(ros2_dispatch_subscription_callback, start - 1, pid, "message", U(0x5), "callback",
			cb, "source_stamp", in, "message_timestamp", header);
	}
	ROW(ros2_callback_start, start, pid, "callback", cb);
	if (out) {
		ROW(ros2_rclcpp_publish, start + 5, pid, "publisher_handle", base + 0x40, "message",
			U(0x9));
		ROW(ros2_rcl_publish, start + 6, pid, "publisher_handle", base + 0x40, "message", U(0x9));
		ROW(ros2_caret_dds_write, start + 7, pid, "message", U(0x9));
		ROW(ros2_caret_dds_bind_addr_to_stamp, start + 8, pid, "addr", U(0x9), "source_stamp",
			out);
	}
	ROW(ros2_callback_end, start + 10, pid, "callback", cb);
}

/* inherit_unique_stamp: /mid's output must carry its input's header stamp;
 * a message whose output does not is lost there, not at the end. */
static void test_path_inherit_unique_stamp(void **state)
{
	(void)state;
	char err[256];
	node_on(1, 0x1000, "first", NULL, "/a");
	node_on(2, 0x2000, "mid", "/a", "/b");
	node_on(3, 0x3000, "last", "/b", NULL);
	/* message 1: /mid takes header 42 and sends on, /last gets header 43 */
	run_of(1, 0x1000, 100, 0, 0, 501);
	run_of(2, 0x2000, 200, 501, 42, 601);
	run_of(3, 0x3000, 300, 601, 43, 0);
	/* message 2: header 44 all the way */
	run_of(1, 0x1000, 1100, 0, 0, 502);
	run_of(2, 0x2000, 1200, 502, 44, 602);
	run_of(3, 0x3000, 1300, 602, 44, 0);
	ca_records *r = records();
	const char *nodes[] = { "/first", "/mid", "/last" }, *topics[] = { "/a", "/b" };
	ca_path path = { 3, nodes, topics, NULL };
	ca_path_latency *l = ca_path_latency_build(r, &path, CA_POLICY_INHERIT_UNIQUE_STAMP, err,
		sizeof err);
	assert_non_null(l);
	const ca_path_message *m;
	assert_int_equal(ca_path_latency_messages(l, &m, NULL), 2);
	assert_int_equal(m[0].last_start, 0); /* lost at /mid */
	assert_int_equal(m[1].publish, 1105);
	assert_int_equal(m[1].last_start, 1300);
	assert_int_equal(ca_path_latency_lost(l, (ca_path_span){ false, false }), 1);
	ca_path_latency_free(l);
	/* callback_chain follows both */
	l = ca_path_latency_build(r, &path, CA_POLICY_CALLBACK_CHAIN, err, sizeof err);
	assert_non_null(l);
	assert_int_equal(ca_path_latency_lost(l, (ca_path_span){ false, false }), 0);
	ca_path_latency_free(l);
	ca_records_free(r);
}

static void test_stats(void **state)
{
	(void)state;
	int64_t v[100];
	ca_stats s;
	for (int i = 0; i < 100; i++)
		v[i] = 100 - i;
	ca_stats_of(v, 100, CA_PERCENTILE_NEAREST_RANK, &s);
	assert_int_equal(s.count, 100);
	assert_int_equal(s.min, 1);
	assert_int_equal(s.max, 100);
	assert_true(s.p50 == 50 && s.p90 == 90 && s.p99 == 99);
	assert_true(s.mean == 50.5);
	/* numpy.percentile([1..100], [50, 90, 99]) = 50.5, 90.1, 99.01 */
	ca_stats_of(v, 100, CA_PERCENTILE_LINEAR, &s);
	assert_true(s.p50 == 50.5);
	assert_true(s.p90 > 90.0999999 && s.p90 < 90.1000001);
	assert_true(s.p99 > 99.0099999 && s.p99 < 99.0100001);
	/* numpy.percentile([10, 20, 40], [50, 90, 99]) = 20, 36, 39.6 */
	int64_t w[3] = { 40, 10, 20 };
	ca_stats_of(w, 3, CA_PERCENTILE_LINEAR, &s);
	assert_true(s.p50 == 20 && s.p90 == 36);
	assert_true(s.p99 > 39.5999999 && s.p99 < 39.6000001);
	assert_true(s.mean > 23.3333333 && s.mean < 23.3333334); /* not rounded */
	/* one value: every percentile is it */
	int64_t one[1] = { 7 };
	ca_stats_of(one, 1, CA_PERCENTILE_LINEAR, &s);
	assert_true(s.p50 == 7 && s.p99 == 7);
	ca_stats_of(v, 0, CA_PERCENTILE_LINEAR, &s);
	assert_int_equal(s.count, 0);
}

/* An empty array (NULL, as an empty table's column is) sorted and
 * permuted: nothing copied (memcpy to NULL was undefined: UBSan). */
static void test_radix_empty(void **state)
{
	(void)state;
	struct ca_radix *r = ca_radix_new(0);
	assert_non_null(r);
	ca_radix_by(r);
	assert_true(ca_radix_permute(r, NULL, sizeof(uint64_t)));
	assert_true(ca_radix_sort_values(NULL, 0));
	ca_radix_free(r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_nested_runs_and_publish_chain, setup, teardown),
		cmocka_unit_test_setup_teardown(test_inter_process_by_stamp, setup, teardown),
		cmocka_unit_test_setup_teardown(test_upstream_publish_and_losses, setup, teardown),
		cmocka_unit_test_setup_teardown(test_intra_process_through_copy, setup, teardown),
		cmocka_unit_test_setup_teardown(test_streamed_latencies, setup, teardown),
		cmocka_unit_test_setup_teardown(test_timer_delays, setup, teardown),
		cmocka_unit_test_setup_teardown(test_path_inherit_unique_stamp, setup, teardown),
		cmocka_unit_test(test_stats),
		cmocka_unit_test(test_radix_empty),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
