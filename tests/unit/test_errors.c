/*
 * test_errors.c - errors as data (caret/error.h): the chain of causes
 * itself, and what a load of a damaged copy of a real trace says through
 * it: the stream file, the byte in it, the status; and the same words as
 * the one-line error the verbs print.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "ca.h"
#include "caret/error.h"
#include "error_build.h"

static void chain(void **state)
{
	(void)state;
	caret_error *e = NULL;
	assert_int_equal(caret_error_status(NULL), CARET_OK);
	assert_string_equal(caret_error_message(NULL), "");
	assert_int_equal(caret_error_cause_count(NULL), 0);
	caret_error_free(NULL);

	caret_error_add(&e, CARET_ERR_FORMAT, "/t/ch0_0", 4096, "ros2:rcl_init", "bad %s", "magic");
	caret_error_add(&e, CARET_ERR_IO, NULL, -1, NULL, "cannot read trace: path=/t");
	assert_int_equal(caret_error_status(e), CARET_ERR_IO);
	assert_int_equal(caret_error_cause_count(e), 2);
	const caret_error_cause *inner = caret_error_cause_at(e, 1);
	assert_int_equal(inner->status, CARET_ERR_FORMAT);
	assert_string_equal(inner->file, "/t/ch0_0");
	assert_int_equal(inner->offset, 4096);
	assert_string_equal(inner->event, "ros2:rcl_init");
	assert_string_equal(inner->message, "bad magic");
	assert_null(caret_error_cause_at(e, 2));
	assert_string_equal(caret_error_message(e), "cannot read trace: path=/t: /t/ch0_0: bad magic");
	assert_string_equal(caret_status_name(CARET_ERR_NOT_FOUND), "not found");
	assert_string_equal(caret_status_name((caret_status)99), "?");

	/* past 8 causes the outermost stay, the innermost is kept */
	for (int i = 0; i < 10; i++)
		caret_error_add(&e, CARET_ERR_INVALID, NULL, -1, NULL, "level %d", i);
	assert_int_equal(caret_error_cause_count(e), 8);
	assert_string_equal(caret_error_cause_at(e, 0)->message, "level 9");
	assert_string_equal(caret_error_cause_at(e, 7)->message, "bad magic");
	caret_error_free(e);
}

/* A copy of one real trace (a leaf directory with metadata, ch0_0, ...). */
static char *copy_trace(char *dir)
{
	const char *shared = getenv("CARET_SHARED_DIR");
	static char src[1024];
	char cmd[4096];
	if (!shared)
		return NULL;
	snprintf(src, sizeof src, "%s/data/real-humble/tracetools-fork-inter/ust/uid/0/64-bit",
		shared);
	if (!mkdtemp(dir))
		return NULL;
	snprintf(cmd, sizeof cmd, "cp -r '%s'/metadata '%s'/ch0_0 '%s'/", src, src, dir);
	return system(cmd) == 0 ? dir : NULL;
}

static void remove_tree(const char *dir)
{
	char cmd[1024];
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
	assert_int_equal(system(cmd), 0);
}

/* The first event's id (LTTng's large header: 16 bits after the packet's
 * 84 bytes of header and context) made one the metadata does not declare:
 * the framing is sound, the decoding fails there. */
static void damaged_event(void **state)
{
	(void)state;
	char dir[] = "/tmp/test_errors.XXXXXX", stream[1100];
	assert_non_null(copy_trace(dir)); /* CARET_SHARED_DIR: the shared real traces */
	snprintf(stream, sizeof stream, "%s/ch0_0", dir);
	FILE *f = fopen(stream, "r+b");
	assert_non_null(f);
	assert_int_equal(fseek(f, 84, SEEK_SET), 0);
	assert_int_equal(fwrite("\xfe\xff", 1, 2, f), 2);
	assert_int_equal(fclose(f), 0);

	const char *paths[] = { dir };
	ca_load_options o = ca_load_defaults();
	ca_trace *t = NULL;
	caret_error *e = NULL;
	assert_int_equal(ca_trace_open(paths, 1, &o, &t, &e), CARET_ERR_FORMAT);
	assert_null(t);
	assert_int_equal(caret_error_cause_count(e), 2);
	const caret_error_cause *outer = caret_error_cause_at(e, 0), *root = caret_error_cause_at(e, 1);
	char outer_text[1100];
	snprintf(outer_text, sizeof outer_text, "cannot read trace: path=%s", dir);
	assert_string_equal(outer->message, outer_text);
	assert_null(outer->file);
	assert_string_equal(root->file, stream);
	assert_true(root->offset >= 84 && root->offset <= 96);
	assert_null(root->event); /* no class has that id */
	assert_non_null(strstr(root->message, "an event of id 65534"));

	/* the verbs' one line says the same */
	char err[4096];
	assert_null(ca_trace_load_options(paths, 1, &o, err, sizeof err));
	assert_string_equal(err, caret_error_message(e));
	caret_error_free(e);
	remove_tree(dir);
}

/* The stream cut short: the framing check finds it before any reader,
 * and says where. */
static void truncated_stream(void **state)
{
	(void)state;
	char dir[] = "/tmp/test_errors.XXXXXX", stream[1100], cmd[2300];
	assert_non_null(copy_trace(dir));
	snprintf(stream, sizeof stream, "%s/ch0_0", dir);
	snprintf(cmd, sizeof cmd, "truncate -s -100 '%s'", stream);
	assert_int_equal(system(cmd), 0);

	const char *paths[] = { dir };
	ca_load_options o = ca_load_defaults();
	ca_trace *t = NULL;
	caret_error *e = NULL;
	assert_int_equal(ca_trace_open(paths, 1, &o, &t, &e), CARET_ERR_FORMAT);
	assert_int_equal(caret_error_cause_count(e), 2);
	const caret_error_cause *root = caret_error_cause_at(e, 1);
	assert_string_equal(root->file, stream);
	assert_true(root->offset >= 0);
	char expect[64];
	snprintf(expect, sizeof expect, "truncated: the packet at byte %" PRId64 " needs",
		root->offset);
	assert_non_null(strstr(root->message, expect));
	char err[4096];
	assert_null(ca_trace_load_options(paths, 1, &o, err, sizeof err));
	assert_string_equal(err, caret_error_message(e));
	caret_error_free(e);
	remove_tree(dir);
}

static void missing_path(void **state)
{
	(void)state;
	const char *paths[] = { "/nonexistent/caret-test-trace" };
	ca_load_options o = ca_load_defaults();
	ca_trace *t = NULL;
	caret_error *e = NULL;
	assert_int_equal(ca_trace_open(paths, 1, &o, &t, &e), CARET_ERR_NOT_FOUND);
	assert_null(t);
	assert_non_null(strstr(caret_error_message(e), "No such file or directory"));
	caret_error_free(e);

	char dir[] = "/tmp/test_errors.XXXXXX";
	assert_non_null(mkdtemp(dir));
	paths[0] = dir;
	assert_int_equal(ca_trace_open(paths, 1, &o, &t, &e), CARET_ERR_NOT_FOUND);
	assert_non_null(strstr(caret_error_message(e), "no CTF trace here"));
	caret_error_free(e);
	remove_tree(dir);

	assert_int_equal(ca_trace_open(paths, 0, &o, &t, &e), CARET_ERR_INVALID);
	caret_error_free(e);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(chain),
		cmocka_unit_test(damaged_event),
		cmocka_unit_test(truncated_stream),
		cmocka_unit_test(missing_path),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
