/*
 * test_analyze_model - the architecture model on traces built row by row
 * (ca_trace_new / ca_trace_add_row), one rule per test: duplicates
 * (live and replayed copies) dropped, replayed events placed at
 * init_timestamp shifted by caret_init, an address reused by a new object,
 * ros2: and ros2_caret: forms together, rcl's /rosout publisher created
 * before its node's rcl_node_init, stable names and construction order,
 * intra-process callbacks, static executors, and the check's findings.
 * Then on the real Humble traces: counts that follow from the events.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "trace_builder.h"

static size_t count_findings(ca_severity severity, const char *needle)
{
	const ca_finding *f;
	size_t n = ca_trace_findings(t, &f), hits = 0;
	for (size_t i = 0; i < n; i++)
		hits += f[i].severity == severity && strstr(f[i].text, needle) != NULL;
	return hits;
}

/* A node with a timer and a subscription, in the ros2_caret form. */
static void caret_node(int32_t pid, uint64_t base, uint64_t t0, const char *name)
{
	ROW(ros2_caret_rcl_node_init, t0 + 1, pid, "node_handle", base, "node_name", S(name),
		"namespace", S("/ns"), "init_timestamp", t0 + 1);
	ROW(ros2_caret_rcl_timer_init, t0 + 2, pid, "timer_handle", base + 0x10, "period",
		U(50000000), "init_timestamp", t0 + 2);
	ROW(ros2_caret_rclcpp_timer_link_node, t0 + 3, pid, "timer_handle", base + 0x10,
		"node_handle", base, "init_timestamp", t0 + 3);
	ROW(ros2_caret_rclcpp_timer_callback_added, t0 + 4, pid, "timer_handle", base + 0x10,
		"callback", base + 0x14, "init_timestamp", t0 + 4);
	ROW(ros2_caret_rclcpp_callback_register, t0 + 5, pid, "callback", base + 0x14,
		"symbol", S("on_timer"), "init_timestamp", t0 + 5);
	ROW(ros2_caret_rcl_subscription_init, t0 + 6, pid, "subscription_handle", base + 0x20,
		"node_handle", base, "rmw_subscription_handle", base + 0x28, "topic_name",
		S("/in"), "queue_depth", U(10), "init_timestamp", t0 + 6);
	ROW(ros2_caret_rclcpp_subscription_init, t0 + 7, pid, "subscription_handle",
		base + 0x20, "subscription", base + 0x30, "init_timestamp", t0 + 7);
	ROW(ros2_caret_rclcpp_subscription_callback_added, t0 + 8, pid, "subscription",
		base + 0x30, "callback", base + 0x34, "init_timestamp", t0 + 8);
	ROW(ros2_caret_rclcpp_callback_register, t0 + 9, pid, "callback", base + 0x34,
		"symbol", S("on_in"), "init_timestamp", t0 + 9);
}

static void test_architecture_and_names(void **state)
{
	(void)state;
	ROW(ros2_caret_caret_init, 1000, 7, "clock_offset", U(1000), "distribution", S("humble"));
	caret_node(7, 0x1000, 100, "a");
	const ca_architecture *a = build();
	assert_int_equal(a->n_nodes, 1);
	assert_string_equal(a->nodes[0].fqn, "/ns/a");
	assert_int_equal(a->n_callbacks, 2);
	assert_string_equal(a->callbacks[0].name, "/ns/a/callback_0");
	assert_int_equal(a->callbacks[0].kind, CA_CALLBACK_TIMER);
	assert_string_equal(a->callbacks[0].symbol, "on_timer");
	assert_int_equal(a->callbacks[0].node, 0);
	assert_string_equal(a->callbacks[1].name, "/ns/a/callback_1");
	assert_int_equal(a->callbacks[1].kind, CA_CALLBACK_SUBSCRIPTION);
	assert_int_equal(a->subscriptions[0].callback, 1);
	assert_int_equal(a->timers[0].period_ns, 50000000);
	assert_int_equal(a->processes[0].caret_inits, 1);
	assert_string_equal(a->processes[0].distribution, "humble");
	/* No executor events: a warning, not an error. */
	assert_int_equal(count_findings(CA_WARNING, "no executor"), 1);
	assert_int_equal(count_findings(CA_ERROR, ""), 0);
}

static void test_duplicates_dropped(void **state)
{
	(void)state;
	/* Live at 100..109, replayed at 5000.. with the same init_timestamps. */
	caret_node(7, 0x1000, 100, "a");
	ROW(ros2_caret_caret_init, 5000, 7, "clock_offset", U(5000), "distribution", S("humble"));
	caret_node(7, 0x1000, 100, "a");
	const ca_architecture *a = build();
	assert_int_equal(a->n_nodes, 1);
	assert_int_equal(a->n_callbacks, 2);
	assert_int_equal(a->processes[0].duplicates, 9);
	assert_int_equal(a->processes[0].init_events, 18);
	assert_int_equal(count_findings(CA_INFO, "9 duplicate"), 1);
}

static void test_replay_placed_by_caret_init(void **state)
{
	(void)state;
	/* caret_init at 10000 with clock_offset 9000: the replay clock runs
	 * 1000 behind, so an init_timestamp of 100 is placed at 1100. */
	ROW(ros2_caret_caret_init, 10000, 7, "clock_offset", U(9000), "distribution", S("humble"));
	ROW(ros2_caret_rcl_node_init, 10001, 7, "node_handle", U(0x1000), "node_name", S("a"),
		"namespace", S("/"), "init_timestamp", U(100));
	const ca_architecture *a = build();
	assert_int_equal(a->nodes[0].time, 1100);
	assert_string_equal(a->nodes[0].fqn, "/a");
}

/* caret_init's clock_offset INT64_MIN: the shift does not fit an int64
 * (a signed overflow before); the events keep their recorded time and the
 * process says why (issue 45, item 9) */
static void test_caret_init_offset_unplaceable(void **state)
{
	(void)state;
	ROW(ros2_caret_caret_init, 10000, 7, "clock_offset", U(INT64_MIN), "distribution",
		S("humble"));
	ROW(ros2_caret_rcl_node_init, 10001, 7, "node_handle", U(0x1000), "node_name", S("a"),
		"namespace", S("/"), "init_timestamp", U(100));
	ROW(ros2_caret_caret_init, 20000, 8, "clock_offset", U(INT64_MAX), "distribution",
		S("humble"));
	ROW(ros2_caret_rcl_node_init, 20001, 8, "node_handle", U(0x1000), "node_name", S("b"),
		"namespace", S("/"), "init_timestamp", U(100));
	const ca_architecture *a = build();
	assert_int_equal(a->n_nodes, 2);
	assert_int_equal(a->nodes[0].time, 10001);
	assert_int_equal(a->nodes[1].time, 20001);
	assert_int_equal(count_findings(CA_ERROR, "1 replayed initialization event could not be "
		"placed in time: caret_init's clock_offset -9223372036854775808"), 1);
	assert_int_equal(count_findings(CA_ERROR, "could not be placed"), 2);
}

/* a clock_offset 57 years from its caret_init's time: placed, but beyond
 * a day is not the trace's clock: a warning names the process's offset */
static void test_caret_init_offset_implausible(void **state)
{
	(void)state;
	const uint64_t years57 = 57ull * 365 * 86400 * 1000000000;
	ROW(ros2_caret_caret_init, years57 + 10000, 7, "clock_offset", U(10000), "distribution",
		S("humble"));
	ROW(ros2_caret_rcl_node_init, years57 + 10001, 7, "node_handle", U(0x1000), "node_name",
		S("a"), "namespace", S("/"), "init_timestamp", U(10000));
	ROW(ros2_caret_caret_init, 1000, 8, "clock_offset", U(1000 + 3600000000000ull),
		"distribution", S("humble"));
	const ca_architecture *a = build();
	assert_int_equal(a->nodes[0].time, years57 + 10000);
	assert_int_equal(count_findings(CA_WARNING, "caret_init's clock_offset 10000 moves the "
		"replayed initialization events by 20805.0 days"), 1);
	assert_int_equal(count_findings(CA_WARNING, "clock_offset"), 1); /* an hour: fine */
	assert_int_equal(count_findings(CA_ERROR, "placed"), 0);
}

static void test_address_reused(void **state)
{
	(void)state;
	ROW(ros2_rcl_node_init, 10, 7, "node_handle", U(0x1000), "node_name", S("first"),
		"namespace", S("/"));
	ROW(ros2_rcl_publisher_init, 20, 7, "publisher_handle", U(0x2000), "node_handle",
		U(0x1000), "topic_name", S("/one"));
	ROW(ros2_rcl_node_init, 30, 7, "node_handle", U(0x1000), "node_name", S("second"),
		"namespace", S("/"));
	ROW(ros2_rcl_publisher_init, 40, 7, "publisher_handle", U(0x2000), "node_handle",
		U(0x1000), "topic_name", S("/two"));
	ROW(ros2_rclcpp_publish, 25, 7, "publisher_handle", U(0x2000), "message", U(1));
	ROW(ros2_rclcpp_publish, 45, 7, "publisher_handle", U(0x2000), "message", U(2));
	const ca_architecture *a = build();
	assert_int_equal(a->n_nodes, 2);
	assert_int_equal(a->n_publishers, 2);
	assert_string_equal(a->nodes[a->publishers[0].node].fqn, "/first");
	assert_string_equal(a->nodes[a->publishers[1].node].fqn, "/second");
	assert_int_equal(a->processes[0].reused, 2);
	const ca_node_count *n;
	size_t k = ca_trace_node_counts(t, &n);
	assert_int_equal(k, 3);
	assert_string_equal(n[0].node, "/first");
	assert_int_equal(n[0].publishes, 1);
	assert_string_equal(n[1].node, "/second");
	assert_int_equal(n[1].publishes, 1);
}

static void test_rosout_before_node(void **state)
{
	(void)state;
	/* rcl creates /rosout's publisher inside rcl_node_init, before the
	 * node's own event; both forms in one process. */
	ROW(ros2_rcl_publisher_init, 10, 7, "publisher_handle", U(0x2000), "node_handle",
		U(0x1000), "topic_name", S("/rosout"));
	ROW(ros2_caret_rcl_node_init, 20, 7, "node_handle", U(0x1000), "node_name", S("n"),
		"namespace", S("/"), "init_timestamp", U(20));
	const ca_architecture *a = build();
	assert_int_equal(a->publishers[0].node, 0);
	assert_int_equal(count_findings(CA_ERROR, ""), 0);
}

static void test_construction_order(void **state)
{
	(void)state;
	ROW(ros2_rcl_node_init, 1, 7, "node_handle", U(0x1000), "node_name", S("n"),
		"namespace", S("/"));
	for (uint64_t i = 0; i < 3; i++) {
		uint64_t timer = 0x2000 + 0x10 * i, time = 10 + 10 * i;
		ROW(ros2_rcl_timer_init, time, 7, "timer_handle", timer, "period",
			U(i == 1 ? 20 : 10));
		ROW(ros2_rclcpp_timer_link_node, time + 1, 7, "timer_handle", timer,
			"node_handle", U(0x1000));
		ROW(ros2_rclcpp_timer_callback_added, time + 2, 7, "timer_handle", timer,
			"callback", timer + 4);
		ROW(ros2_rclcpp_callback_register, time + 3, 7, "callback", timer + 4, "symbol",
			S("tick"));
	}
	const ca_architecture *a = build();
	assert_int_equal(a->n_callbacks, 3);
	assert_string_equal(a->callbacks[2].name, "/n/callback_2");
	assert_int_equal(a->callbacks[0].construction_order, 0);
	assert_int_equal(a->callbacks[1].construction_order, 0); /* another period */
	assert_int_equal(a->callbacks[2].construction_order, 1); /* like the first */
}

/* The original's names: timers first, then subscriptions, each by
 * creation; services and /parameter_events apart, shifting nothing; the
 * index padded to the digits of the count; groups by address. */
static void test_original_names(void **state)
{
	(void)state;
	ROW(ros2_rcl_node_init, 1, 7, "node_handle", U(0x1000), "rmw_handle", U(0x1008),
		"node_name", S("n"), "namespace", S("/"));
	/* a service, /parameter_events, then nine subscriptions, then a timer */
	ROW(ros2_rcl_service_init, 2, 7, "service_handle", U(0x1100), "node_handle",
		U(0x1000), "rmw_service_handle", U(0x1108), "service_name", S("/n/get_parameters"));
	ROW(ros2_rclcpp_service_callback_added, 3, 7, "service_handle", U(0x1100), "callback",
		U(0x1104));
	for (uint64_t i = 0; i < 10; i++) {
		uint64_t sub = 0x3000 + 0x40 * i, time = 10 + 10 * i;
		ROW(ros2_rcl_subscription_init, time, 7, "subscription_handle", sub, "node_handle",
			U(0x1000), "rmw_subscription_handle", sub + 8, "topic_name",
			S(i == 0 ? "/parameter_events" : "/in"), "queue_depth", U(10));
		ROW(ros2_rclcpp_subscription_init, time + 1, 7, "subscription_handle", sub,
			"subscription", sub + 0x10);
		ROW(ros2_rclcpp_subscription_callback_added, time + 2, 7, "subscription",
			sub + 0x10, "callback", sub + 0x14);
	}
	ROW(ros2_rcl_timer_init, 200, 7, "timer_handle", U(0x2000), "period", U(10));
	ROW(ros2_rclcpp_timer_link_node, 201, 7, "timer_handle", U(0x2000), "node_handle",
		U(0x1000));
	ROW(ros2_rclcpp_timer_callback_added, 202, 7, "timer_handle", U(0x2000), "callback",
		U(0x2004));
	const ca_architecture *a = build();
	assert_int_equal(a->n_callbacks, 12);
	for (size_t i = 0; i < a->n_callbacks; i++) {
		const ca_callback *cb = &a->callbacks[i];
		if (cb->kind == CA_CALLBACK_TIMER)
			assert_string_equal(cb->name, "/n/callback_00"); /* 10 callbacks: 2 digits */
		else if (cb->kind == CA_CALLBACK_SERVICE)
			assert_string_equal(cb->name, "/n/service_callback_0");
		else if (!strcmp(a->subscriptions[cb->owner].topic, "/parameter_events"))
			assert_string_equal(cb->name, "/n/ignored_callback_0");
		else if (a->subscriptions[cb->owner].handle == 0x3040) /* the first on /in */
			assert_string_equal(cb->name, "/n/callback_01");
		else if (a->subscriptions[cb->owner].handle == 0x3000 + 0x40 * 9)
			assert_string_equal(cb->name, "/n/callback_09");
		assert_true(cb->hidden == (cb->kind == CA_CALLBACK_SERVICE ||
			(cb->kind == CA_CALLBACK_SUBSCRIPTION &&
			 !strcmp(a->subscriptions[cb->owner].topic, "/parameter_events"))));
	}
}

static void test_intra_process_callback(void **state)
{
	(void)state;
	ROW(ros2_rcl_node_init, 1, 7, "node_handle", U(0x1000), "node_name", S("n"),
		"namespace", S("/"));
	ROW(ros2_rcl_subscription_init, 2, 7, "subscription_handle", U(0x2000), "node_handle",
		U(0x1000), "rmw_subscription_handle", U(0x2100), "topic_name", S("/t"));
	/* rclcpp: the intra-process object's callback comes first, then both
	 * subscription_init events, then the main object's callback. */
	ROW(ros2_rclcpp_subscription_callback_added, 3, 7, "subscription", U(0x3000),
		"callback", U(0x3004));
	ROW(ros2_rclcpp_subscription_init, 4, 7, "subscription_handle", U(0x2000),
		"subscription", U(0x3000));
	ROW(ros2_rclcpp_subscription_init, 5, 7, "subscription_handle", U(0x2000),
		"subscription", U(0x4000));
	ROW(ros2_rclcpp_subscription_callback_added, 6, 7, "subscription", U(0x4000),
		"callback", U(0x4004));
	ROW(ros2_callback_start, 10, 7, "callback", U(0x3004), "is_intra_process", U(1));
	ROW(ros2_callback_end, 11, 7, "callback", U(0x3004));
	ROW(ros2_callback_start, 12, 7, "callback", U(0x4004), "is_intra_process", U(0));
	ROW(ros2_callback_end, 13, 7, "callback", U(0x4004));
	const ca_architecture *a = build();
	assert_int_equal(a->n_callbacks, 1);
	assert_int_equal(a->callbacks[0].address, 0x4004);
	assert_int_equal(a->callbacks[0].intra_address, 0x3004);
	assert_int_equal(a->processes[0].unknown_handles, 0);
	const ca_node_count *n;
	ca_trace_node_counts(t, &n);
	assert_int_equal(n[0].callback_runs, 2);
}

static void test_static_executor(void **state)
{
	(void)state;
	caret_node(7, 0x1000, 100, "a");
	ROW(ros2_caret_construct_static_executor, 200, 7, "executor_addr", U(0x9000),
		"entities_collector_addr", U(0x9100), "executor_type_name",
		S("static_single_threaded_executor"), "init_timestamp", U(200));
	ROW(ros2_caret_callback_group_add_timer, 201, 7, "callback_group_addr", U(0x8000),
		"timer_handle", U(0x1010), "init_timestamp", U(201));
	ROW(ros2_caret_callback_group_add_subscription, 202, 7, "callback_group_addr",
		U(0x8000), "subscription_handle", U(0x1020), "init_timestamp", U(202));
	ROW(ros2_caret_add_callback_group_static_executor, 203, 7, "entities_collector_addr",
		U(0x9100), "callback_group_addr", U(0x8000), "group_type_name",
		S("mutually_exclusive"), "init_timestamp", U(203));
	const ca_architecture *a = build();
	assert_int_equal(a->n_groups, 1);
	assert_int_equal(a->groups[0].executor, 0);
	assert_int_equal(a->groups[0].node, 0);
	assert_string_equal(a->groups[0].type, "mutually_exclusive");
	assert_string_equal(a->groups[0].name, "/ns/a/callback_group_0");
	assert_string_equal(a->executors[0].name, "executor_0");
	assert_int_equal(a->timers[0].group, 0);
	assert_int_equal(count_findings(CA_WARNING, "group"), 0);
	assert_int_equal(count_findings(CA_ERROR, ""), 0);
}

static void test_findings(void **state)
{
	(void)state;
	/* A timer never linked to a node, a subscription without callback, a
	 * callback_start naming nothing known, publishes without DDS stamps. */
	ROW(ros2_rcl_node_init, 1, 7, "node_handle", U(0x1000), "node_name", S("n"),
		"namespace", S("/"));
	ROW(ros2_rcl_timer_init, 2, 7, "timer_handle", U(0x2000), "period", U(10));
	ROW(ros2_rclcpp_timer_callback_added, 3, 7, "timer_handle", U(0x2000), "callback",
		U(0x2004));
	ROW(ros2_rcl_subscription_init, 4, 7, "subscription_handle", U(0x3000), "node_handle",
		U(0x1000), "topic_name", S("/t"));
	ROW(ros2_rcl_publisher_init, 5, 7, "publisher_handle", U(0x4000), "node_handle",
		U(0x1000), "topic_name", S("/p"));
	ROW(ros2_callback_start, 10, 7, "callback", U(0xdead), "is_intra_process", U(0));
	ROW(ros2_rclcpp_publish, 11, 7, "publisher_handle", U(0x4000), "message", U(1));
	ROW(ros2_callback_start, 12, 8, "callback", U(0x1), "is_intra_process", U(0));
	build();
	assert_int_equal(count_findings(CA_ERROR, "1 timer has no node"), 1);
	assert_int_equal(count_findings(CA_ERROR, "1 callback has no node"), 1);
	assert_int_equal(count_findings(CA_ERROR, "1 subscription has no callback (e.g. /t)"), 1);
	assert_int_equal(count_findings(CA_ERROR, "ros2:callback_start event names an unknown "
		"callback (e.g. 0xdead)"), 1);
	assert_int_equal(count_findings(CA_ERROR, "no DDS source timestamps"), 1);
	assert_int_equal(count_findings(CA_ERROR, "no initialization events: the process"), 1);
	assert_int_equal(count_findings(CA_WARNING, "no symbol"), 1);
}

static void test_no_ros_events(void **state)
{
	(void)state;
	char err[256];
	assert_int_not_equal(ca_trace_finish(t, err, sizeof err), 0);
	assert_non_null(strstr(err, "no ROS 2 or CARET events"));
}

/* ---- the real traces ---------------------------------------------------- */

static ca_trace *load_real(const char *name)
{
	char path[4096], err[1024];
	const char *shared = getenv("CARET_SHARED_DIR");
	snprintf(path, sizeof path, "%s/data/real-humble/%s", shared ? shared : "../shared", name);
	const char *paths[] = { path };
	ca_trace *r = ca_trace_load(paths, 1, err, sizeof err);
	if (!r)
		fail_msg("%s", err);
	return r;
}

static void test_real_intra(void **state)
{
	(void)state;
	ca_trace *r = load_real("caret-fork-intra");
	const ca_architecture *a = ca_trace_architecture(r);
	/* 39 callbacks registered: 34 objects, 5 of them with an intra-process
	 * address as well; every callback has a node, a symbol and a group. */
	size_t intra = 0;
	for (size_t i = 0; i < a->n_callbacks; i++) {
		intra += a->callbacks[i].intra_address != 0;
		assert_int_not_equal(a->callbacks[i].node, CA_NONE);
		assert_non_null(a->callbacks[i].symbol);
	}
	assert_int_equal(a->n_callbacks, 34);
	assert_int_equal(intra, 5);
	assert_int_equal(ca_trace_rows(r, "ros2_caret:rclcpp_callback_register"),
		a->n_callbacks + intra);
	assert_int_equal(a->n_nodes, 4);
	assert_int_equal(a->n_executors, 2);
	ca_trace_free(r);
}

static void test_real_tracetools(void **state)
{
	(void)state;
	ca_trace *r = load_real("tracetools-fork-inter");
	const ca_architecture *a = ca_trace_architecture(r);
	assert_int_equal(a->n_nodes, 3);
	assert_int_equal(a->n_callbacks, 24); /* 18 services, 5 subscriptions, 1 timer */
	assert_int_equal(a->n_executors, 0);
	for (size_t i = 0; i < a->n_publishers; i++)
		assert_int_not_equal(a->publishers[i].node, CA_NONE); /* /rosout too */
	ca_trace_free(r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_architecture_and_names, setup, teardown),
		cmocka_unit_test_setup_teardown(test_duplicates_dropped, setup, teardown),
		cmocka_unit_test_setup_teardown(test_replay_placed_by_caret_init, setup, teardown),
		cmocka_unit_test_setup_teardown(test_caret_init_offset_unplaceable, setup, teardown),
		cmocka_unit_test_setup_teardown(test_caret_init_offset_implausible, setup, teardown),
		cmocka_unit_test_setup_teardown(test_address_reused, setup, teardown),
		cmocka_unit_test_setup_teardown(test_rosout_before_node, setup, teardown),
		cmocka_unit_test_setup_teardown(test_construction_order, setup, teardown),
		cmocka_unit_test_setup_teardown(test_original_names, setup, teardown),
		cmocka_unit_test_setup_teardown(test_intra_process_callback, setup, teardown),
		cmocka_unit_test_setup_teardown(test_static_executor, setup, teardown),
		cmocka_unit_test_setup_teardown(test_findings, setup, teardown),
		cmocka_unit_test_setup_teardown(test_no_ros_events, setup, teardown),
		cmocka_unit_test(test_real_intra),
		cmocka_unit_test(test_real_tracetools),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
