/* test_snapshot_miss.c - the misses file caret live writes beside a
 * snapshot (caret-live-miss.json), read back by the report
 * (src/analyze/report/snapshot_miss.c): the lines caret live writes, their
 * keys in any order, strings with escapes and the characters of JSON's
 * syntax inside them, nested lists and objects passed over; lines of
 * another kind, cut short or without the times left out; several folders. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "report.h"

/* A folder holding a misses file of these lines; its path in dir. */
static void folder_with(char dir[64], const char *lines)
{
	snprintf(dir, 64, "/tmp/test_snapshot_miss-XXXXXX");
	assert_non_null(mkdtemp(dir));
	char name[128];
	snprintf(name, sizeof name, "%s/%s", dir, CA_SNAPSHOT_MISS_FILE);
	FILE *f = fopen(name, "w");
	assert_non_null(f);
	fputs(lines, f);
	assert_int_equal(fclose(f), 0);
}

static void folder_remove(const char *dir)
{
	char name[128];
	snprintf(name, sizeof name, "%s/%s", dir, CA_SNAPSHOT_MISS_FILE);
	unlink(name);
	rmdir(dir);
}

static void lines_as_live_writes_them(void **state)
{
	(void)state;
	char dir[64];
	folder_with(dir,
		"{\"type\": \"miss\", \"path\": \"/sensor -> /filter -> /sink\", \"start_ns\": "
		"2215099646062, \"end_ns\": 2215251677031, \"latency_ns\": 152031000, "
		"\"deadline_ns\": 50000000, \"detected_after_ns\": 1270000000, \"hops\": [{\"hop\": "
		"\"topic /topic_a\", \"ns\": 71000}, {\"hop\": \"node /filter\", \"ns\": 151602000}], "
		"\"worst_hop\": \"node /filter\", \"snapshot\": \"/home/me/misses/miss-1\"}\n"
		/* keys in another order, a hop whose name holds JSON's syntax, the
		 * path's name escaped */
		"{\"hops\": [{\"hop\": \"topic /x\\\"}], \\\"start_ns\\\": 1\", \"ns\": [1, {\"a\": []}]}],"
		" \"end_ns\": 30, \"path\": \"a\\\"b\\\\c\\u0041\\n\", \"latency_ns\": 20, "
		"\"start_ns\": 10, \"snapshot\": null, \"deadline_ns\": 5}\n"
		/* of another kind, cut short, without its times: left out */
		"{\"type\": \"window\", \"paths\": []}\n"
		"{\"type\": \"miss\", \"path\": \"p\", \"start_ns\": 1\n"
		"{\"type\": \"miss\", \"path\": \"p\", \"latency_ns\": 5}\n"
		"not json at all\n");
	const char *dirs[] = { dir };
	struct report_miss *m;
	size_t n = report_read_misses(dirs, 1, &m);
	folder_remove(dir);
	assert_int_equal(n, 2);
	assert_string_equal(m[0].path, "/sensor -> /filter -> /sink");
	assert_int_equal(m[0].start, 2215099646062);
	assert_int_equal(m[0].end, 2215251677031);
	assert_int_equal(m[0].latency, 152031000);
	assert_int_equal(m[0].deadline, 50000000);
	assert_string_equal(m[1].path, "a\"b\\cA\n");
	assert_int_equal(m[1].start, 10);
	assert_int_equal(m[1].end, 30);
	assert_int_equal(m[1].latency, 20);
	assert_int_equal(m[1].deadline, 5);
	free(m);
}

/* Folders without the file give none; several folders' misses add up. */
static void folders_without_and_several(void **state)
{
	(void)state;
	char a[64], b[64];
	const char *line = "{\"path\": \"p\", \"start_ns\": 1, \"end_ns\": 2, \"latency_ns\": 1, "
		"\"deadline_ns\": 1}\n";
	folder_with(a, line);
	folder_with(b, line);
	const char *dirs[] = { a, "/nonexistent/folder", b };
	struct report_miss *m;
	assert_int_equal(report_read_misses(dirs, 3, &m), 2);
	free(m);
	assert_int_equal(report_read_misses(dirs + 1, 1, &m), 0);
	assert_null(m);
	folder_remove(a);
	folder_remove(b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(lines_as_live_writes_them),
		cmocka_unit_test(folders_without_and_several),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
