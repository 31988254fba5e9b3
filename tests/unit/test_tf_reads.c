/*
 * test_tf_reads.c - ca_tf_build with the tracer's tf_buffer_find_closest:
 * each edge of a lookup charged to the transforms the lookup's own events
 * name, not to the ones a trace without them lets the analyzer infer.
 */
#include "trace_builder.h"

#define BUFFER 0xb0
#define ODOM 1
#define BASE 2

/* A broadcaster (pid 20) sends odom -> base_link stamped 100, 200, 300 at
 * 900, 1900, 2900; the listener's buffer (pid 10) takes each 100 later. */
static void tree(void)
{
	ROW(ros2_caret_init_tf_buffer_frame_id_compact, 1, 10, "tf_buffer_core", U(BUFFER),
		"frame_id", S("odom"), "frame_id_compact", U(ODOM), "init_timestamp", U(1));
	ROW(ros2_caret_init_tf_buffer_frame_id_compact, 2, 10, "tf_buffer_core", U(BUFFER),
		"frame_id", S("base_link"), "frame_id_compact", U(BASE), "init_timestamp", U(2));
	for (uint64_t k = 1; k <= 3; k++) {
		ROW(ros2_caret_send_transform, 1000 * k - 100, 20, "tf_broadcaster", U(0xbc),
			"stamp", U(100 * k), "frame_id", S("odom"), "child_frame_id", S("base_link"));
		ROW(ros2_caret_tf_set_transform, 1000 * k, 10, "tf_buffer_core", U(BUFFER), "stamp",
			U(100 * k), "frame_id_compact", U(ODOM), "child_frame_id_compact", U(BASE));
	}
}

/* What one edge read (in thread tid, at time), then the lookup. */
static void read_edge(uint64_t time, int32_t tid, uint64_t stamp, uint64_t newer_frame,
	uint64_t newer)
{
	ROWT(ros2_caret_tf_buffer_find_closest, time, 10, tid, "tf_buffer_core", U(BUFFER),
		"frame_id_compact", U(ODOM), "child_frame_id_compact", U(BASE), "stamp", U(stamp),
		"frame_id_compact_", U(newer_frame), "child_frame_id_compact_", U(newer ? BASE : 0),
		"stamp_", U(newer));
}

static void lookup(uint64_t time, int32_t tid, uint64_t asked, uint64_t stamp)
{
	ROWT(ros2_caret_tf_lookup_transform, time, 10, tid, "tf_buffer_core", U(BUFFER),
		"target_frame_id_compact", U(ODOM), "source_frame_id_compact", U(BASE),
		"lookup_time", U(asked), "stamp", U(stamp));
}

/* The uses of ca_tf_build, as (stamp of the set, of the newer one or 0). */
static size_t uses_of(ca_tf **tf, uint64_t stamps[][2], bool *traced)
{
	char err[256];
	const ca_tf_use *u;
	const ca_tf_set *sets;
	*tf = ca_tf_build(t, NULL, err, sizeof err);
	assert_non_null(*tf);
	ca_tf_sets(*tf, &sets);
	size_t n = ca_tf_uses(*tf, &u);
	for (size_t i = 0; i < n; i++) {
		stamps[i][0] = sets[u[i].set].stamp;
		stamps[i][1] = u[i].newer == CA_NONE ? 0 : sets[u[i].newer].stamp;
		traced[i] = u[i].traced;
	}
	return n;
}

/* The lookup took the transform stamped 300 before the set's event was
 * emitted (the listener's thread emits it once setTransform returned):
 * by the events' times alone, it read 200. */
static void test_read_before_its_set_event(void **state)
{
	(void)state;
	tree();
	read_edge(2950, 11, 300, 0, 0);
	lookup(2950, 11, 0, 300);
	build();
	ca_tf *tf;
	uint64_t s[4][2];
	bool traced[4];
	assert_int_equal(uses_of(&tf, s, traced), 1);
	assert_int_equal(s[0][0], 300);
	assert_int_equal(s[0][1], 0);
	assert_true(traced[0]);
	ca_tf_free(tf);
}

/* A lookup in the past interpolated between 200 and 300: charged to 200,
 * 300 named; when the parent changed between them, tf2 used 200 alone. */
static void test_interpolated(void **state)
{
	(void)state;
	tree();
	read_edge(3500, 11, 200, ODOM, 300);
	lookup(3500, 11, 250, 250);
	read_edge(3600, 11, 200, ODOM + 7, 300);
	lookup(3600, 11, 250, 250);
	build();
	ca_tf *tf;
	uint64_t s[4][2];
	bool traced[4];
	assert_int_equal(uses_of(&tf, s, traced), 2);
	assert_int_equal(s[0][0], 200);
	assert_int_equal(s[0][1], 300);
	assert_int_equal(s[1][0], 200);
	assert_int_equal(s[1][1], 0);
	ca_tf_free(tf);
}

/* Reads belong to the next lookup of their own thread: thread 12's read
 * is not thread 11's, and a lookup without reads is inferred as before
 * (the latest set taken by then with a stamp at or before the one returned). */
static void test_reads_stay_in_their_thread(void **state)
{
	(void)state;
	tree();
	read_edge(2950, 12, 300, 0, 0);
	lookup(2960, 11, 0, 300); /* no read of its own */
	lookup(2970, 12, 0, 300);
	build();
	ca_tf *tf;
	uint64_t s[4][2];
	bool traced[4];
	assert_int_equal(uses_of(&tf, s, traced), 2);
	const ca_tf_lookup *l;
	ca_tf_lookups(tf, &l);
	const ca_tf_use *u;
	ca_tf_uses(tf, &u);
	for (size_t i = 0; i < 2; i++) {
		bool mine = l[u[i].lookup].tid == 12;
		assert_int_equal(traced[i], mine);
		assert_int_equal(s[i][0], mine ? 300 : 200);
	}
	ca_tf_free(tf);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_read_before_its_set_event, setup, teardown),
		cmocka_unit_test_setup_teardown(test_interpolated, setup, teardown),
		cmocka_unit_test_setup_teardown(test_reads_stay_in_their_thread, setup, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
