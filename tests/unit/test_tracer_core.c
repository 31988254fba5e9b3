/*
 * test_tracer_core - the tracer's initialization store and filters, without
 * a session: identical repeats kept once, strings copied, memory accounted,
 * replay in order and restartable, the switch to RECORD only once all is
 * replayed; filter decisions per handle from the initialization events.
 */
#include "filter.h"
#include "init_store.h"
#include "tracer.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

static struct ct_record node_record(uint64_t handle, const char *name, const char *ns,
	int64_t ts)
{
	struct ct_record r = { .id = CS_EV_ros2_caret_rcl_node_init };
	r.v[0].u = handle;
	r.v[1].u = handle + 1;
	r.v[2].s = name;
	r.v[3].s = ns;
	r.v[4].i = ts;
	return r;
}

static int reset(void **state)
{
	(void)state;
	ct_store_reset();
	atomic_store(&ct_state, CT_STATE_WAIT);
	return 0;
}

static void test_repeats_kept_once(void **state)
{
	(void)state;
	char name[16] = "camera";
	struct ct_record r = node_record(0x1000, name, "/sensing", 1);

	assert_true(ct_store_add(&r));
	r.v[4].i = 2; /* the same event again later: a repeat */
	assert_false(ct_store_add(&r));
	strcpy(name, "lidar"); /* the store kept its own copy of "camera" */
	assert_true(ct_store_add(&r));
	assert_int_equal(ct_store_count(), 2);
	assert_true(ct_store_bytes() > 0);
}

static struct ct_record link_record(int id, uint64_t a, uint64_t b, int64_t ts)
{
	struct ct_record r = { .id = (enum cs_event_id)id };
	r.v[0].u = a;
	r.v[1].u = b;
	r.v[2].i = ts;
	return r;
}

/* A subscription destroyed and another made at the same addresses: its
 * callback_added equals the first one's but for the time, and is kept,
 * because a record since (the new subscription's rclcpp_subscription_init)
 * named the address again. Its own repeat is still dropped. */
static void test_reused_address_is_a_new_object(void **state)
{
	(void)state;
	const int added = CS_EV_ros2_caret_rclcpp_subscription_callback_added;
	const int linked = CS_EV_ros2_caret_rclcpp_subscription_init;
	struct ct_record first = link_record(added, 0x10, 0x20, 1);
	struct ct_record relink = link_record(linked, 0x30, 0x10, 2);
	struct ct_record again = link_record(added, 0x10, 0x20, 3);

	assert_true(ct_store_add(&first));
	first.v[2].i = 2;
	assert_false(ct_store_add(&first)); /* a repeat */
	assert_true(ct_store_add(&relink));
	assert_true(ct_store_add(&again)); /* a new object at the old address */
	again.v[2].i = 4;
	assert_false(ct_store_add(&again)); /* its repeat */
	assert_int_equal(ct_store_count(), 3);
}

static void test_replay_in_order_and_restartable(void **state)
{
	(void)state;
	for (uint64_t i = 0; i < 3000; i++) { /* several chunks */
		struct ct_record r = node_record(0x10000 + 16 * i, "n", "/", (int64_t)i);
		assert_true(ct_store_add(&r));
	}
	for (int round = 0; round < 2; round++) {
		struct ct_replay replay = { 0 };
		size_t n = 0;
		while (ct_store_replay_next(&replay))
			n++;
		assert_int_equal(n, 3000);
		assert_int_equal(replay.next, 3000);
	}
}

static void test_record_only_after_full_replay(void **state)
{
	(void)state;
	struct ct_record a = node_record(0x2000, "a", "/", 1), b = node_record(0x3000, "b", "/", 2);
	struct ct_replay replay = { 0 };

	atomic_store(&ct_state, CT_STATE_PREPARE);
	ct_store_add(&a);
	assert_true(ct_store_replay_next(&replay));
	ct_store_add(&b); /* arrives during the replay */
	assert_false(ct_store_finish_replay(&replay));
	assert_int_equal(atomic_load(&ct_state), CT_STATE_PREPARE);
	assert_true(ct_store_replay_next(&replay));
	assert_false(ct_store_replay_next(&replay));
	assert_true(ct_store_finish_replay(&replay));
	assert_true(ct_recording());
}

static void observe(enum cs_event_id id, uint64_t a, uint64_t b, uint64_t c,
	const char *s1, const char *s2)
{
	struct ct_record r = { .id = id };
	r.v[0].u = a;
	r.v[1].u = b;
	const struct cs_event *ev = &cs_events[id];
	for (size_t i = 2; i < ev->field_count; i++) {
		if (ev->fields[i].type == CS_TYPE_STR)
			r.v[i].s = i == 2 || !s2 ? s1 : s2;
		else
			r.v[i].u = c;
	}
	if (id == CS_EV_ros2_caret_rcl_node_init) {
		r.v[2].s = s1;
		r.v[3].s = s2;
	}
	ct_filter_observe(&r);
}

static void test_filter_decisions(void **state)
{
	(void)state;
	setenv("CARET_IGNORE_NODES", "^/sensing/camera$:[invalid", 1);
	setenv("CARET_IGNORE_TOPICS", "points", 1);
	assert_false(ct_filter_init());
	assert_true(ct_filter_active);

	observe(CS_EV_ros2_caret_rcl_node_init, 0x100, 0x101, 0, "camera", "/sensing");
	observe(CS_EV_ros2_caret_rcl_node_init, 0x200, 0x201, 0, "fusion", "/perception");
	/* fusion publishes /objects, subscribes /points; camera has a timer */
	observe(CS_EV_ros2_caret_rcl_publisher_init, 0x210, 0x200, 0x211, "/objects", NULL);
	observe(CS_EV_ros2_caret_rcl_subscription_init, 0x220, 0x200, 0x221, "/sensing/points", NULL);
	observe(CS_EV_ros2_caret_rclcpp_subscription_init, 0x220, 0x222, 0, NULL, NULL);
	observe(CS_EV_ros2_caret_rclcpp_subscription_callback_added, 0x222, 0x223, 0, NULL, NULL);
	observe(CS_EV_ros2_caret_rclcpp_timer_callback_added, 0x110, 0x111, 0, NULL, NULL);
	observe(CS_EV_ros2_caret_rclcpp_timer_link_node, 0x110, 0x100, 0, NULL, NULL);

	assert_true(ct_allow_publisher((void *)0x210));
	assert_false(ct_allow_rmw_subscription((void *)0x221));
	assert_false(ct_allow_callback((void *)0x223)); /* topic ignored */
	/* CARET_IGNORE_NODES holds an invalid pattern: not applied at all (a
	 * typo never hides data), and said */
	assert_true(ct_allow_callback((void *)0x111));
	assert_non_null(ct_filter_problems());
	assert_non_null(strstr(ct_filter_problems(),
		"CARET_IGNORE_NODES: invalid pattern '[invalid'"));
	assert_non_null(strstr(ct_filter_problems(), "the variable is not applied"));
	assert_true(ct_allow_callback((void *)0x999));  /* unknown: recorded */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_repeats_kept_once, reset),
		cmocka_unit_test_setup(test_reused_address_is_a_new_object, reset),
		cmocka_unit_test_setup(test_replay_in_order_and_restartable, reset),
		cmocka_unit_test_setup(test_record_only_after_full_replay, reset),
		cmocka_unit_test_setup(test_filter_decisions, reset),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
