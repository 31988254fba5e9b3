/*
 * test_record_session - src/record/session.c against the real LTTng
 * session daemon: create, start, stop and destroy a session, refuse a
 * duplicate name, report an unwritable output directory, and never leave a
 * session behind. Every session tracks only an unused vgid, so it records
 * nothing from tests that run in parallel. Skipped without a daemon.
 */
#define _GNU_SOURCE
#include "schema.h"
#include "session.h"

#include <ftw.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>
#include <lttng/lttng.h>

#define UNUSED_VGID 65533 /* no process runs with it */

struct fixture {
	char name[64];
	char tmp[64];        /* mkdtemp directory, removed in teardown */
	char output_dir[96]; /* tmp/trace: LTTng creates it */
	struct cr_session *session;
	char err[256];
};

static int next_id;

static bool session_exists(const char *name)
{
	struct lttng_session *sessions = NULL;
	int n = lttng_list_sessions(&sessions);
	assert_true(n >= 0);
	bool found = false;
	for (int i = 0; i < n; i++)
		found = found || strcmp(sessions[i].name, name) == 0;
	free(sessions);
	return found;
}

static struct cr_session_options options(const struct fixture *f)
{
	return (struct cr_session_options){
		.name = f->name,
		.output_dir = f->output_dir,
		.track_vgid = UNUSED_VGID,
	};
}

static int remove_entry(const char *path, const struct stat *st, int type, struct FTW *ftw)
{
	(void)st, (void)type, (void)ftw;
	remove(path);
	return 0;
}

static int setup(void **state)
{
	struct fixture *f = calloc(1, sizeof *f);
	if (!f)
		return -1;
	snprintf(f->name, sizeof f->name, "caret-test-record-session-%d-%d", (int)getpid(),
		 next_id++);
	snprintf(f->tmp, sizeof f->tmp, "/tmp/caret-test-session-XXXXXX");
	if (!mkdtemp(f->tmp)) {
		free(f);
		return -1;
	}
	snprintf(f->output_dir, sizeof f->output_dir, "%s/trace", f->tmp);
	*state = f;
	return 0;
}

/* Runs on every path, even after a failed assertion. */
static int teardown(void **state)
{
	struct fixture *f = *state;
	cr_session_stop_and_destroy(f->session, NULL, 0);
	/* A session the API lost track of (a bug under test) must go too. */
	lttng_destroy_session(f->name);
	nftw(f->tmp, remove_entry, 8, FTW_DEPTH | FTW_PHYS);
	free(f);
	return 0;
}

static void test_create_start_stop_destroy(void **state)
{
	struct fixture *f = *state;
	struct cr_session_options o = options(f);

	f->session = cr_session_create(&o, f->err, sizeof f->err);
	assert_non_null(f->session);
	assert_true(session_exists(f->name));

	/* Other sessions may run on this machine: only "answered" is certain. */
	int before = cr_active_session_records_caret(UNUSED_VGID, f->err, sizeof f->err);
	assert_int_not_equal(before, -1);

	f->err[0] = '\0';
	struct cr_session *twin = cr_session_create(&o, f->err, sizeof f->err);
	assert_null(twin);
	assert_non_null(strstr(f->err, "already exists"));
	assert_non_null(strstr(f->err, f->name));
	assert_true(session_exists(f->name)); /* the namesake was not destroyed */

	assert_int_equal(cr_session_start(f->session, f->err, sizeof f->err), 0);
	assert_int_equal(cr_active_session_records_caret(UNUSED_VGID, f->err, sizeof f->err), 1);
	assert_int_equal(cr_session_discarded(f->session), 0);
	struct stat st;
	assert_int_equal(stat(f->output_dir, &st), 0);
	assert_true(S_ISDIR(st.st_mode));
	(void)cr_session_bytes_on_disk(f->session); /* nothing traced: any size */

	int rc = cr_session_stop_and_destroy(f->session, f->err, sizeof f->err);
	f->session = NULL;
	assert_int_equal(rc, 0);
	assert_false(session_exists(f->name));
}

static void test_channel_and_events_configured(void **state)
{
	struct fixture *f = *state;
	struct cr_session_options o = options(f);
	o.subbuf_size = 1 << 20;
	o.num_subbuf = 4;
	o.blocking = true;
	o.light = true;

	f->session = cr_session_create(&o, f->err, sizeof f->err);
	assert_non_null(f->session);

	struct lttng_domain domain = {.type = LTTNG_DOMAIN_UST};
	struct lttng_handle *h = lttng_create_handle(f->name, &domain);
	assert_non_null(h);
	struct lttng_channel *channels = NULL;
	int n = lttng_list_channels(h, &channels);
	/* runtime events in "caret", initialization events in "caret_init" */
	assert_int_equal(n, 2);
	for (int i = 0; i < n; i++) {
		assert_true(!strcmp(channels[i].name, "caret") ||
			!strcmp(channels[i].name, "caret_init"));
		assert_int_equal(channels[i].attr.overwrite, 0);
		assert_int_equal(channels[i].attr.subbuf_size, 1 << 20);
		assert_int_equal(channels[i].attr.num_subbuf, 4);
		int64_t timeout = 0;
		assert_int_equal(lttng_channel_get_blocking_timeout(&channels[i], &timeout), 0);
		assert_int_equal(timeout, -1);
	}
	free(channels);

	/* the light set, by name: runtime events in "caret" (ros2's few,
	 * ros2_caret's all), no ros2 executor event */
	struct lttng_event *events = NULL;
	n = lttng_list_events(h, "caret", &events);
	assert_true(n > 9);
	bool callback_start = false, dds_write = false;
	for (int i = 0; i < n; i++) {
		const struct cs_event *e = cs_event_by_full_name(events[i].name);
		assert_non_null(e);
		assert_true(e->role == CS_ROLE_RUNTIME || e->role == CS_ROLE_MERGED);
		assert_string_not_equal(e->name, "rclcpp_executor_execute");
		callback_start = callback_start || !strcmp(e->full_name, "ros2:callback_start");
		dds_write = dds_write || !strcmp(e->full_name, "ros2_caret:dds_write");
	}
	free(events);
	assert_true(callback_start);
	assert_true(dds_write);

	/* the light set: ros2_caret's initialization events only, by name */
	n = lttng_list_events(h, "caret_init", &events);
	assert_true(n > 20);
	for (int i = 0; i < n; i++) {
		const struct cs_event *e = cs_event_by_full_name(events[i].name);
		assert_non_null(e);
		assert_string_equal(e->provider, "ros2_caret");
		assert_true(e->role == CS_ROLE_INIT || e->role == CS_ROLE_META);
	}
	free(events);
	lttng_destroy_handle(h);
}

static void test_stop_and_destroy_in_any_state(void **state)
{
	struct fixture *f = *state;
	struct cr_session_options o = options(f);

	assert_int_equal(cr_session_stop_and_destroy(NULL, f->err, sizeof f->err), 0);

	f->session = cr_session_create(&o, f->err, sizeof f->err);
	assert_non_null(f->session);
	int rc = cr_session_stop_and_destroy(f->session, f->err, sizeof f->err); /* never started */
	f->session = NULL;
	assert_int_equal(rc, 0);
	assert_false(session_exists(f->name));
}

static void test_unwritable_output_dir(void **state)
{
	struct fixture *f = *state;
	snprintf(f->output_dir, sizeof f->output_dir, "/proc/caret-test-%d", (int)getpid());
	struct cr_session_options o = options(f);

	f->err[0] = '\0';
	f->session = cr_session_create(&o, f->err, sizeof f->err);
	if (f->session) { /* LTTng creates the directory only when starting */
		assert_int_equal(cr_session_start(f->session, f->err, sizeof f->err), -1);
		int rc = cr_session_stop_and_destroy(f->session, NULL, 0);
		f->session = NULL;
		assert_int_equal(rc, 0);
	}
	assert_true(f->err[0] != '\0');
	assert_false(session_exists(f->name));
}

static void test_bad_options(void **state)
{
	struct fixture *f = *state;
	struct cr_session_options o = options(f);

	o.subbuf_size = 3000;
	f->err[0] = '\0';
	assert_null(cr_session_create(&o, f->err, sizeof f->err));
	assert_non_null(strstr(f->err, "power of two"));

	o = options(f);
	o.output_dir = "relative/trace";
	f->err[0] = '\0';
	assert_null(cr_session_create(&o, f->err, sizeof f->err));
	assert_non_null(strstr(f->err, "absolute"));

	assert_false(session_exists(f->name));
}

int main(void)
{
	if (!cr_sessiond_alive()) {
		fprintf(stderr, "test_record_session: no LTTng session daemon answers"
			" (tests/unit/with_sessiond.sh starts one)\n");
		return 1;
	}
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_create_start_stop_destroy, setup, teardown),
		cmocka_unit_test_setup_teardown(test_channel_and_events_configured, setup, teardown),
		cmocka_unit_test_setup_teardown(test_stop_and_destroy_in_any_state, setup, teardown),
		cmocka_unit_test_setup_teardown(test_unwritable_output_dir, setup, teardown),
		cmocka_unit_test_setup_teardown(test_bad_options, setup, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
