/*
 * test_ctf_iter - the CTF walker reads the real ROS 2 Humble traces in
 * ../shared/data/real-humble (recorded by the original CARET tracer and by
 * plain ros2_tracing) and rejects bad input with a message, not a crash.
 * Every event of those traces that our schema knows has our layout: that is
 * the compatibility the analyzer relies on.
 */
#include "ctf_iter.h"
#include "schema.h"
#include "schema_match.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

struct tally {
	uint64_t events, known, discarded, last_clock;
	uint64_t per_event[CS_EVENT_COUNT];
	unsigned out_of_order, mismatches;
	bool checked[CS_EVENT_COUNT];
};

static int tally_event(const bt_event *event, uint64_t clock, void *user)
{
	struct tally *t = user;
	const bt_event_class *ec = bt_event_borrow_class_const(event);
	const struct cs_event *e = cs_event_by_full_name(bt_event_class_get_name(ec));

	t->events++;
	t->out_of_order += clock < t->last_clock;
	t->last_clock = clock;
	if (!e)
		return 0;
	t->known++;
	t->per_event[e->id]++;
	if (t->checked[e->id])
		return 0;
	t->checked[e->id] = true;

	char why[256];
	const bt_field_class *payload = bt_event_class_borrow_payload_field_class_const(ec);
	if (ca_schema_match(payload, e, why, sizeof why) == 0)
		return 0;
	/* Humble's layouts with only `message`: upstream's rclcpp_publish
	 * (reference), and rmw_publish and CARET's dds_write, whose table
	 * layout is Jazzy's (which adds fields around message). */
	bool message_only = e->id == CS_EV_ros2_rclcpp_publish ||
		e->id == CS_EV_ros2_rmw_publish || e->id == CS_EV_ros2_caret_dds_write;
	if (message_only && payload && bt_field_class_structure_get_member_count(payload) == 1 &&
	    bt_field_class_structure_borrow_member_by_name_const(payload, "message"))
		return 0;
	fprintf(stderr, "%s: %s\n", e->full_name, why);
	t->mismatches++;
	return 0;
}

static void tally_discarded(const bt_stream *s, uint64_t count, void *user)
{
	(void)s;
	((struct tally *)user)->discarded += count;
}

static int read_trace(const char *path, struct tally *t, char *err, size_t n)
{
	struct ca_ctf_handlers h = { tally_event, tally_discarded, t, NULL };

	memset(t, 0, sizeof *t);
	return ca_ctf_iterate(path, &h, err, n);
}

static void real_trace_path(char *out, size_t n, const char *name)
{
	const char *shared = getenv("CARET_SHARED_DIR");
	snprintf(out, n, "%s/data/real-humble/%s", shared ? shared : "../shared", name);
}

static void check_real_trace(const char *name)
{
	char path[4096], err[1024];
	struct tally t;

	real_trace_path(path, sizeof path, name);
	if (read_trace(path, &t, err, sizeof err) != 0)
		fail_msg("%s", err);
	assert_true(t.events > 100);
	assert_int_equal(t.mismatches, 0);
	assert_int_equal(t.out_of_order, 0); /* muxed in time order */
	assert_int_equal(t.discarded, 0);
	assert_true(t.per_event[CS_EV_ros2_callback_start] > 0);
	assert_int_equal(t.per_event[CS_EV_ros2_callback_start],
		t.per_event[CS_EV_ros2_callback_end]);
	assert_true(t.per_event[CS_EV_ros2_rcl_node_init] +
		t.per_event[CS_EV_ros2_caret_rcl_node_init] >= 1);
}

static void test_real_caret_fork_inter(void **s) { (void)s; check_real_trace("caret-fork-inter"); }
static void test_real_caret_fork_intra(void **s) { (void)s; check_real_trace("caret-fork-intra"); }
static void test_real_caret_upstream_inter(void **s) { (void)s; check_real_trace("caret-upstream-inter"); }
static void test_real_tracetools_fork_inter(void **s) { (void)s; check_real_trace("tracetools-fork-inter"); }

static void test_caret_tracer_events(void **state)
{
	(void)state;
	char path[4096], err[1024];
	struct tally t;

	real_trace_path(path, sizeof path, "caret-fork-inter");
	assert_int_equal(read_trace(path, &t, err, sizeof err), 0);
	/* One caret_init per process; the original tracer records 3 processes. */
	assert_int_equal(t.per_event[CS_EV_ros2_caret_caret_init], 3);
	assert_true(t.per_event[CS_EV_ros2_caret_dds_bind_addr_to_stamp] > 0);

	/* Intra-process delivery: the fork's intra events are there. */
	real_trace_path(path, sizeof path, "caret-fork-intra");
	assert_int_equal(read_trace(path, &t, err, sizeof err), 0);
	assert_true(t.per_event[CS_EV_ros2_rclcpp_intra_publish] > 0);
	assert_true(t.per_event[CS_EV_ros2_dispatch_intra_process_subscription_callback] > 0);
}

static void test_missing_path(void **state)
{
	(void)state;
	char err[1024] = "";
	struct tally t;

	assert_int_equal(read_trace("/nonexistent/caret-trace", &t, err, sizeof err), -1);
	assert_non_null(strstr(err, "path=/nonexistent/caret-trace"));
}

static void make_temp_dir(char *dir, size_t n)
{
	snprintf(dir, n, "%s/caret-test-XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	assert_non_null(mkdtemp(dir));
}

static void write_file(const char *dir, const char *name, const void *data, size_t len)
{
	char path[4096];
	snprintf(path, sizeof path, "%s/%s", dir, name);
	FILE *f = fopen(path, "wb");
	assert_non_null(f);
	assert_int_equal(fwrite(data, 1, len, f), len);
	fclose(f);
}

static void remove_files(const char *dir, const char *const *names)
{
	char path[4096];
	for (; *names; names++) {
		snprintf(path, sizeof path, "%s/%s", dir, *names);
		unlink(path);
	}
	rmdir(dir);
}

static void test_directory_without_trace(void **state)
{
	(void)state;
	char dir[512], err[1024] = "";
	struct tally t;

	make_temp_dir(dir, sizeof dir);
	write_file(dir, "notes.txt", "x", 1);
	assert_int_equal(read_trace(dir, &t, err, sizeof err), -1);
	assert_non_null(strstr(err, "no CTF trace"));
	remove_files(dir, (const char *const[]){ "notes.txt", NULL });
}

static void test_corrupt_metadata(void **state)
{
	(void)state;
	char dir[512], err[1024] = "";
	static const char garbage[] = "/* CTF 1.8 */\ntrace { major = 1; minor = 8;\n event {{{";
	struct tally t;

	make_temp_dir(dir, sizeof dir);
	write_file(dir, "metadata", garbage, sizeof garbage - 1);
	write_file(dir, "channel0_0", "\0\0\0\0", 4);
	assert_int_equal(read_trace(dir, &t, err, sizeof err), -1);
	assert_non_null(strstr(err, "cannot read trace: path="));
	remove_files(dir, (const char *const[]){ "metadata", "channel0_0", NULL });
}

static void test_truncated_stream(void **state)
{
	(void)state;
	char src[4096], dir[512], err[1024] = "";
	struct tally t;

	/* The real metadata with a stream file cut inside its first packet. */
	real_trace_path(src, sizeof src, "caret-fork-inter/ust/uid/0/64-bit/metadata");
	FILE *f = fopen(src, "rb");
	assert_non_null(f);
	static char meta[1 << 20];
	size_t len = fread(meta, 1, sizeof meta, f);
	fclose(f);
	assert_true(len > 0 && len < sizeof meta);

	real_trace_path(src, sizeof src, "caret-fork-inter/ust/uid/0/64-bit/ch0_0");
	f = fopen(src, "rb");
	assert_non_null(f);
	static char stream[300];
	size_t slen = fread(stream, 1, sizeof stream, f);
	fclose(f);
	assert_int_equal(slen, sizeof stream);

	make_temp_dir(dir, sizeof dir);
	write_file(dir, "metadata", meta, len);
	write_file(dir, "ch0_0", stream, slen);
	assert_int_equal(read_trace(dir, &t, err, sizeof err), -1);
	assert_non_null(strstr(err, "cannot read trace: path="));
	remove_files(dir, (const char *const[]){ "metadata", "ch0_0", NULL });
}

/* The guard: an abort or a stall inside the walk (here, in the handler:
 * libbabeltrace2 does either on damage its checks cannot see) ends the
 * walk with an error instead of the process. */
static int abort_on_first(const bt_event *event, uint64_t clock, void *user)
{
	(void)event;
	(void)clock;
	(void)user;
	abort();
}

static int stall_on_first(const bt_event *event, uint64_t clock, void *user)
{
	(void)event;
	(void)clock;
	(void)user;
	for (;;)
		sleep(60);
	return 0;
}

static void test_guard(int (*handler)(const bt_event *, uint64_t, void *), const char *says)
{
	char path[4096], err[1024] = "";
	struct ca_ctf_handlers h = { handler, NULL, NULL, NULL };
	real_trace_path(path, sizeof path, "caret-fork-inter");
	assert_int_equal(ca_ctf_iterate(path, &h, err, sizeof err), -1);
	if (!strstr(err, says))
		fail_msg("%s", err);
	/* and the walker still works afterwards */
	struct tally t;
	assert_int_equal(read_trace(path, &t, err, sizeof err), 0);
	assert_true(t.events > 100);
}

static void test_guard_abort(void **state)
{
	(void)state;
	test_guard(abort_on_first, "aborted on it");
}

static void test_guard_stall(void **state)
{
	(void)state;
	test_guard(stall_on_first, "made no progress for 15 s");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_real_caret_fork_inter),
		cmocka_unit_test(test_real_caret_fork_intra),
		cmocka_unit_test(test_real_caret_upstream_inter),
		cmocka_unit_test(test_real_tracetools_fork_inter),
		cmocka_unit_test(test_caret_tracer_events),
		cmocka_unit_test(test_missing_path),
		cmocka_unit_test(test_directory_without_trace),
		cmocka_unit_test(test_corrupt_metadata),
		cmocka_unit_test(test_truncated_stream),
		cmocka_unit_test(test_guard_abort),
		cmocka_unit_test(test_guard_stall),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
