/*
 * test_analyze_load - ca_trace_load puts every event of the real Humble
 * traces into its table with the values babeltrace2 reads: rows, and a
 * checksum of every field (strings by content), compared with an
 * independent walk of the same trace that looks fields up by name.
 */
#include "ca.h"
#include "ctf_iter.h"
#include "schema.h"
#include "tables.h"

#include <setjmp.h>
#include <stdbool.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

struct expected {
	uint64_t rows[CS_EVENT_COUNT], sum[CS_EVENT_COUNT], events;
};

static uint64_t str_hash(const char *s)
{
	uint64_t h = 1469598103934665603ull;
	for (; s && *s; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211ull;
	return h;
}

/* A GID's value in the tables (docs/trace-format.md): FNV-1a of its first
 * 16 bytes, 0 when they are all zero. */
static uint64_t gid_key(const bt_field *array)
{
	uint64_t h = 0xcbf29ce484222325ull, n = bt_field_array_get_length(array);
	bool zeros = true;
	for (uint64_t i = 0; i < n && i < 16; i++) {
		uint64_t b = bt_field_integer_unsigned_get_value(
			bt_field_array_borrow_element_field_by_index_const(array, i));
		zeros = zeros && !b;
		h = (h ^ b) * 1099511628211ull;
	}
	return zeros ? 0 : h;
}

static int walk(const bt_event *ev, uint64_t clock, void *user)
{
	struct expected *x = user;
	const struct cs_event *e = cs_event_by_full_name(
		bt_event_class_get_name(bt_event_borrow_class_const(ev)));
	const bt_field *payload = bt_event_borrow_payload_field_const(ev);

	x->events++;
	if (!e)
		return 0;
	x->rows[e->id]++;
	x->sum[e->id] += clock;
	for (size_t f = 0; f < e->field_count; f++) {
		const bt_field *v = payload ?
			bt_field_structure_borrow_member_field_by_name_const(payload, e->fields[f].name) : NULL;
		if (!v)
			continue;
		switch (bt_field_get_class_type(v)) {
		case BT_FIELD_CLASS_TYPE_UNSIGNED_INTEGER:
			x->sum[e->id] += bt_field_integer_unsigned_get_value(v) * (f + 1);
			break;
		case BT_FIELD_CLASS_TYPE_SIGNED_INTEGER:
			x->sum[e->id] += (uint64_t)bt_field_integer_signed_get_value(v) * (f + 1);
			break;
		case BT_FIELD_CLASS_TYPE_STRING:
			x->sum[e->id] += str_hash(bt_field_string_get_value(v)) * (f + 1);
			break;
		case BT_FIELD_CLASS_TYPE_STATIC_ARRAY:
			x->sum[e->id] += gid_key(v) * (f + 1);
			break;
		default:
			break;
		}
	}
	return 0;
}

static void real_path(char *out, size_t n, const char *name)
{
	const char *shared = getenv("CARET_SHARED_DIR");
	snprintf(out, n, "%s/data/real-humble/%s", shared ? shared : "../shared", name);
}

static void check_trace(const char *name)
{
	char path[4096], err[1024];
	struct expected x = { 0 };
	struct ca_ctf_handlers h = { walk, NULL, &x, NULL };

	real_path(path, sizeof path, name);
	assert_int_equal(ca_ctf_iterate(path, &h, err, sizeof err), 0);
	const char *paths[] = { path };
	ca_trace *t = ca_trace_load(paths, 1, err, sizeof err);
	if (!t)
		fail_msg("%s", err);
	assert_int_equal(ca_trace_event_count(t), x.events);
	assert_int_equal(ca_trace_discarded(t), 0);

	uint64_t known = 0;
	for (size_t id = 0; id < CS_EVENT_COUNT; id++) {
		const struct cs_event *e = &cs_events[id];
		size_t rows = ca_trace_rows(t, e->full_name);
		assert_int_equal(rows, x.rows[id]);
		known += rows;
		uint64_t sum = 0;
		for (size_t r = 0; r < rows; r++) {
			sum += ca_trace_time(t, e->full_name, r);
			for (size_t f = 0; f < e->field_count; f++) {
				uint64_t v = ca_trace_field(t, e->full_name, r, e->fields[f].name);
				if (e->fields[f].type == CS_TYPE_STR)
					v = v ? str_hash(ca_trace_string(t, v)) : 0;
				sum += v * (f + 1);
			}
		}
		if (sum != x.sum[id])
			fail_msg("%s: %s values differ from babeltrace2's", name, e->full_name);
	}
	assert_int_equal(known + ca_trace_unknown_count(t), ca_trace_event_count(t));
	ca_trace_free(t);
}

static void test_caret_fork_inter(void **s) { (void)s; check_trace("caret-fork-inter"); }
static void test_caret_fork_intra(void **s) { (void)s; check_trace("caret-fork-intra"); }
static void test_caret_upstream_inter(void **s) { (void)s; check_trace("caret-upstream-inter"); }
static void test_tracetools_fork_inter(void **s) { (void)s; check_trace("tracetools-fork-inter"); }

/* runtime_until_ns (caret live's cut of its chunks): exactly the runtime
 * rows up to it kept, every initialization row whatever its time. */
static void test_runtime_cut(void **state)
{
	(void)state;
	char path[4096];
	real_path(path, sizeof path, "caret-fork-inter");
	const char *paths[] = { path };
	ca_load_options o = ca_load_defaults();
	ca_trace *whole = NULL, *cut = NULL;
	caret_error *e = NULL;
	assert_int_equal(ca_trace_open(paths, 1, &o, &whole, &e), CARET_OK);
	uint64_t first = UINT64_MAX, last = 0;
	for (size_t id = 0; id < CS_EVENT_COUNT; id++) {
		const char *name = cs_events[id].full_name;
		for (size_t r = 0; cs_role_is_runtime(cs_events[id].role) &&
		     r < ca_trace_rows(whole, name); r++) {
			uint64_t time = ca_trace_time(whole, name, r);
			first = time < first ? time : first;
			last = time > last ? time : last;
		}
	}
	assert_true(first < last);
	o.runtime_until_ns = first + (last - first) / 2;
	assert_int_equal(ca_trace_open(paths, 1, &o, &cut, &e), CARET_OK);
	size_t kept = 0, dropped = 0;
	for (size_t id = 0; id < CS_EVENT_COUNT; id++) {
		const char *name = cs_events[id].full_name;
		size_t up_to = 0, rows = ca_trace_rows(whole, name);
		for (size_t r = 0; r < rows; r++)
			up_to += !cs_role_is_runtime(cs_events[id].role) ||
				ca_trace_time(whole, name, r) <= o.runtime_until_ns;
		assert_int_equal(ca_trace_rows(cut, name), up_to);
		kept += up_to;
		dropped += rows - up_to;
	}
	assert_true(kept > 0 && dropped > 0);
	ca_trace_free(whole);
	ca_trace_free(cut);
}

static void test_values_and_strings(void **state)
{
	(void)state;
	char path[4096], other[4096], err[1024];
	real_path(path, sizeof path, "caret-fork-inter");
	real_path(other, sizeof other, "caret-upstream-inter");
	/* one folder twice would count its events twice: refused, named */
	const char *twice[] = { path, path };
	assert_null(ca_trace_load(twice, 2, err, sizeof err));
	assert_non_null(strstr(err, "is read twice"));
	/* two recordings merged: their rows add up */
	const char *one[] = { other };
	ca_trace *t = ca_trace_load(one, 1, err, sizeof err);
	assert_non_null(t);
	size_t other_nodes = ca_trace_rows(t, "ros2_caret:rcl_node_init");
	ca_trace_free(t);
	const char *paths[] = { path, other };
	ca_load_options o = ca_load_defaults();
	o.merge = true;
	t = ca_trace_load_options(paths, 2, &o, err, sizeof err);
	assert_non_null(t);
	size_t nodes = ca_trace_rows(t, "ros2_caret:rcl_node_init");
	assert_true(nodes > other_nodes && other_nodes > 0);
	bool sink = false;
	for (size_t r = 0; r < nodes; r++) {
		const char *n = ca_trace_string(t, ca_trace_field(t, "ros2_caret:rcl_node_init",
			r, "node_name"));
		assert_non_null(n);
		sink |= !strcmp(n, "sink");
		assert_true(ca_trace_vpid(t, "ros2_caret:rcl_node_init", r) > 0);
	}
	assert_true(sink);
	/* Out of range and unknown names read 0. */
	assert_int_equal(ca_trace_rows(t, "ros2:nope"), 0);
	assert_int_equal(ca_trace_field(t, "ros2_caret:rcl_node_init", nodes, "node_handle"), 0);
	assert_int_equal(ca_trace_field(t, "ros2_caret:rcl_node_init", 0, "nope"), 0);
	assert_null(ca_trace_string(t, 0));
	ca_trace_free(t);
	ca_trace_free(NULL);
}

static void test_bad_paths(void **state)
{
	(void)state;
	char err[1024] = "";
	const char *missing[] = { "/nonexistent/trace" };
	assert_null(ca_trace_load(missing, 1, err, sizeof err));
	assert_non_null(strstr(err, "path=/nonexistent/trace"));
	assert_null(ca_trace_load(missing, 0, err, sizeof err));
	assert_non_null(strstr(err, "no trace path"));
}

/* A merged event's stages come in order, before the event (stages.c):
 * otherwise the values are damage, said with the field. */
static void test_stage_times(void **state)
{
	(void)state;
	ca_trace *t = ca_trace_new();
	assert_non_null(t);
	enum cs_event_id cb = CS_EV_ros2_caret_merged_callback_timing;
	enum cs_event_id pub = CS_EV_ros2_caret_merged_publish_timing;
	/* the stage fields where stages.c reads them */
	assert_int_equal(cs_field_index(&cs_events[cb], "callback_start_timestamp"), 1);
	assert_int_equal(cs_field_index(&cs_events[pub], "rclcpp_publish_timestamp"), 2);
	assert_int_equal(cs_field_index(&cs_events[pub], "dds_write_timestamp"), 4);
	assert_true(ca_load_has_stages(cb) && ca_load_has_stages(pub));
	assert_false(ca_load_has_stages(CS_EV_ros2_callback_start));
	uint64_t run[] = { 0x10, 150, 0 };
	assert_false(ca_load_stages_damaged(t, cb, 200, 1, 2, run, NULL));
	run[1] = 0; /* started before the recording: no stage */
	assert_false(ca_load_stages_damaged(t, cb, 200, 1, 2, run, NULL));
	run[1] = 200 + (UINT64_C(1) << 62);
	assert_true(ca_load_stages_damaged(t, cb, 200, 1, 2, run, "ch0_1"));
	assert_non_null(strstr(t->damage, "ch0_1: damaged: a ros2_caret:merged_callback_timing "
		"event of process 1, thread 2, at 200 (trace clock) has its callback_start_timestamp "
		"146 years after the event's own time"));
	uint64_t publish[] = { 0x20, 0x30, 100, 110, 0, 0 }; /* no DDS write */
	assert_false(ca_load_stages_damaged(t, pub, 120, 1, 2, publish, NULL));
	publish[3] = 90; /* rcl before rclcpp */
	assert_true(ca_load_stages_damaged(t, pub, 120, 1, 2, publish, NULL));
	assert_non_null(strstr(t->damage, "has its rclcpp_publish_timestamp 0.000000010 s after "
		"rcl_publish_timestamp"));
	ca_trace_free(t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_caret_fork_inter),
		cmocka_unit_test(test_caret_fork_intra),
		cmocka_unit_test(test_caret_upstream_inter),
		cmocka_unit_test(test_tracetools_fork_inter),
		cmocka_unit_test(test_runtime_cut),
		cmocka_unit_test(test_values_and_strings),
		cmocka_unit_test(test_bad_paths),
		cmocka_unit_test(test_stage_times),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
