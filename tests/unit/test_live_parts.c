/*
 * test_live_parts - the pieces of caret live that need no session: a
 * series over its sliding window (the analyzer's percentiles, misses over
 * the limit, samples leaving in time order, the totals kept), the window's
 * JSON (null where no run) and title (what the window covers so far), the
 * processes' changes as said, the chunks a look reads (those with
 * initialization events always, the others from a time on, or, of a host
 * --watch follows, from what the looks have counted) and which go, the
 * path instances counted once when seen late, durations as people write
 * them, and a host clock's estimate from its NTP-style bounds.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "ca.h"
#include "chunks.h"
#include "counted.h"
#include "duration.h"
#include "series.h"
#include "state.h"

static void series_window(void **state)
{
	(void)state;
	struct live_series s = { .limit_ns = 50 };
	struct live_window_stats st;
	/* 1..100 ns, ending at times 1000..1099 */
	for (int i = 1; i <= 100; i++)
		assert_true(live_series_add(&s, 999 + (uint64_t)i, i));
	assert_true(live_series_stats(&s, &st));
	assert_int_equal(st.count, 100);
	/* the analyzer's percentiles (the original's linear interpolation) */
	assert_true(st.p50 == 50.5);
	assert_true(st.p99 == 99.01);
	assert_int_equal(st.max, 100);
	assert_int_equal(st.misses, 50); /* 51..100 over 50 */
	/* those that ended before 1090 leave: 90..100 stay */
	live_series_expire(&s, 1089);
	assert_true(live_series_stats(&s, &st));
	assert_int_equal(st.count, 11);
	assert_true(st.p50 == 95);
	assert_int_equal(st.max, 100);
	assert_int_equal(st.misses, 11);
	assert_int_equal(s.total, 100);
	assert_int_equal(s.total_misses, 50);
	/* many more than fit at first: the array slides and grows */
	for (int i = 0; i < 5000; i++)
		assert_true(live_series_add(&s, 2000 + (uint64_t)i, 1));
	live_series_expire(&s, 6990);
	assert_true(live_series_stats(&s, &st));
	assert_int_equal(st.count, 10);
	live_series_expire(&s, 100000);
	assert_true(live_series_stats(&s, &st));
	assert_int_equal(st.count, 0);
	assert_int_equal(st.max, 0);
	live_series_free(&s);
}

/* The percentiles of caret live are those of every other table: the
 * analyzer's (ca_stats_of, linear), on values in any order. */
static void series_percentiles_as_the_analyzer(void **state)
{
	(void)state;
	struct live_series s = { 0 };
	struct live_window_stats st;
	int64_t values[37];
	for (int i = 0; i < 37; i++) {
		values[i] = (int64_t)((i * 7919) % 37) * 1000 + i * i;
		assert_true(live_series_add(&s, 1000 + (uint64_t)i, values[i]));
	}
	ca_stats want;
	ca_stats_of(values, 37, CA_PERCENTILE_LINEAR, &want);
	assert_true(live_series_stats(&s, &st));
	assert_true(st.p50 == want.p50);
	assert_true(st.p99 == want.p99);
	assert_int_equal(st.max, want.max);
	live_series_free(&s);
}

/* A window's JSON line: a callback with no run in the window has no
 * percentile or maximum (null), not 0. */
static void window_json_without_runs(void **state)
{
	(void)state;
	char *text = NULL;
	size_t size = 0;
	struct live_options o = { .json = true, .window_s = 10 };
	struct live L = { .o = &o };
	assert_non_null(L.out = open_memstream(&text, &size));
	assert_non_null(live_series_named(&L.callbacks, 0, "/sink/callback_0", 0));
	live_print_window(&L, 5000000000ULL);
	live_series_list_free(&L.callbacks);
	fclose(L.out);
	assert_non_null(strstr(text, "\"count\": 0, \"p50_ns\": null, \"p99_ns\": null, "
		"\"max_ns\": null"));
	free(text);
}

/* The title of a table: the window says what it covers so far (one second
 * in, not "last 10 s"), then the whole window; the processes gone said. */
static void window_title_says_what_it_covers(void **state)
{
	(void)state;
	char *text = NULL;
	size_t size = 0;
	struct live_options o = { .window_s = 10 };
	struct live L = { .o = &o, .first_end = 4000000000ULL, .processes = 2, .gone = 1 };
	assert_non_null(L.out = open_memstream(&text, &size));
	live_print_window(&L, 5000000000ULL);
	live_print_window(&L, 25000000000ULL);
	fclose(L.out);
	char *second = strstr(text + 1, "caret live ");
	assert_non_null(strstr(text, "| last 1.0 s of 10 | 2 processes, 1 gone |"));
	assert_non_null(second);
	assert_non_null(strstr(second, "| last 10 s | 2 processes, 1 gone |"));
	free(text);
}

/* A process that went or joined: said once, as a line (JSON: an object of
 * its own type). */
static void process_changes(void **state)
{
	(void)state;
	char *text = NULL;
	size_t size = 0;
	struct live_options o = { .json = true, .window_s = 10 };
	struct live L = { .o = &o };
	struct live_process p = { .pid = 42, .label = "filter_node (pid 42): /filter" };
	assert_non_null(L.out = open_memstream(&text, &size));
	live_print_process(&L, &p, false, 7);
	live_print_process(&L, &p, true, 9);
	fclose(L.out);
	assert_string_equal(text,
		"{\"type\": \"process\", \"change\": \"gone\", \"pid\": 42, \"process\": "
		"\"filter_node (pid 42): /filter\", \"until_ns\": 7}\n"
		"{\"type\": \"process\", \"change\": \"joined\", \"pid\": 42, \"process\": "
		"\"filter_node (pid 42): /filter\", \"until_ns\": 9}\n");
	assert_int_equal(L.n_changes, 2);
	assert_non_null(strstr(L.changes[0], "GONE filter_node (pid 42): /filter"));
	free(text);
}

static void chunks_read_and_pruned(void **state)
{
	(void)state;
	struct live_chunks c = { .keep = true }; /* nothing deleted on disk */
	assert_true(live_chunks_add(&c, "/nonexistent/c0", 100, true));  /* the replay */
	assert_true(live_chunks_add(&c, "/nonexistent/c1", 200, false));
	assert_true(live_chunks_add(&c, "/nonexistent/c2", 300, false));
	assert_true(live_chunks_add(&c, "/nonexistent/c3", 400, true));  /* a late process */
	assert_true(live_chunks_add(&c, "/nonexistent/c4", 500, false));
	const char *paths[5];
	/* from 250 on: c2 (its events reach 300), c3, c4; and c0 for its inits */
	size_t n = live_chunks_to_read(&c, 250, paths);
	assert_int_equal(n, 4);
	assert_string_equal(paths[0], "/nonexistent/c0");
	assert_string_equal(paths[1], "/nonexistent/c2");
	assert_string_equal(paths[3], "/nonexistent/c4");
	/* the chunks without initialization events that ended before 350 go:
	 * c1 and c2; c0 and c3 stay for their initialization events */
	live_chunks_prune(&c, 350);
	assert_int_equal(c.n, 3);
	n = live_chunks_to_read(&c, 0, paths);
	assert_int_equal(n, 3);
	assert_string_equal(paths[1], "/nonexistent/c3");
	live_chunks_free(&c);
}

/* --watch: a host ahead of the one the looks wait for (their events
 * counted up to the other's last) has its chunks past that point read
 * however far ahead it is, not only the lookback's; once a look counts
 * past a look's last event, the chunks that look had are counted whole. */
static void chunks_of_a_host_ahead(void **state)
{
	(void)state;
	struct live_chunks c = { .keep = true };
	const char *paths[16];
	char name[32];
	for (int i = 0; i < 3; i++) {
		snprintf(name, sizeof name, "/nonexistent/c%d", i);
		assert_true(live_chunks_add(&c, name, 0, i == 0));
	}
	/* the first look: everything; counted up to 250, this host's last at 300 */
	assert_int_equal(live_chunks_uncounted(&c, 1, paths), 3);
	live_chunks_looked(&c, 300, 250);
	assert_int_equal(c.counted, 0);
	/* seven more chunks while the other host is behind: counted to 280, 290 */
	for (int i = 3; i < 10; i++) {
		snprintf(name, sizeof name, "/nonexistent/c%d", i);
		assert_true(live_chunks_add(&c, name, 0, false));
		live_chunks_looked(&c, 300 + 100 * (uint64_t)i, 280 + (uint64_t)i);
	}
	/* nothing counted whole yet: every chunk read, a lookback of 1 or not */
	assert_int_equal(c.counted, 0);
	assert_int_equal(live_chunks_uncounted(&c, 1, paths), 10);
	/* the other host catches up to 650: the looks whose last was 300 and
	 * 600 (3 and 4 chunks) are counted whole; c3 (keep 1) on is read, and c0 */
	live_chunks_looked(&c, 1200, 650);
	assert_int_equal(c.counted, 4);
	size_t n = live_chunks_uncounted(&c, 1, paths);
	assert_int_equal(n, 8);
	assert_string_equal(paths[0], "/nonexistent/c0");
	assert_string_equal(paths[1], "/nonexistent/c3");
	/* up to date: all counted; the lookback's chunk before and c0 read */
	live_chunks_looked(&c, 1200, 1200);
	assert_int_equal(c.counted, 10);
	assert_int_equal(live_chunks_uncounted(&c, 1, paths), 2);
	/* ahead by more looks than marks are kept: the oldest stay, to be
	 * counted as the other host catches up */
	for (int i = 10; i < 40; i++) {
		snprintf(name, sizeof name, "/nonexistent/c%d", i);
		assert_true(live_chunks_add(&c, name, 0, false));
		live_chunks_looked(&c, 2000 + 100 * (uint64_t)i, 1200 + (uint64_t)i);
	}
	assert_int_equal(c.counted, 10);
	live_chunks_looked(&c, 6000, 3450); /* chunk 14's look had its last at 3400 */
	assert_int_equal(c.counted, 15);
	live_chunks_free(&c);
}

/* A path instance seen only after the look that passed its end (its last
 * run told at its end, in a later chunk) is new once; one counted is not
 * new again; none at or before the floor is. */
static void instances_counted_once(void **state)
{
	(void)state;
	struct live_counted c = { 0 };
	/* a look counted these, ending 100..109 (not in end order) */
	for (uint64_t i = 0; i < 10; i++)
		assert_true(live_counted_add(&c, 100 + (i ^ 1), 50 + (i ^ 1)));
	assert_false(live_counted_new(&c, 104, 54));  /* read again */
	assert_true(live_counted_new(&c, 104, 60));   /* another, ending at the same time */
	assert_true(live_counted_new(&c, 95, 40));    /* ended before, seen only now */
	assert_true(live_counted_add(&c, 95, 40));
	assert_false(live_counted_new(&c, 95, 40));
	/* forgotten up to 101: none at or before it is new, later ones kept */
	live_counted_forget(&c, 101);
	assert_false(live_counted_new(&c, 95, 41));
	assert_false(live_counted_new(&c, 101, 99));
	assert_false(live_counted_new(&c, 102, 52));
	assert_true(live_counted_new(&c, 102, 53));
	assert_int_equal(c.n, 8);
	live_counted_forget(&c, 50); /* never lowered */
	assert_int_equal(c.floor, 101);
	live_counted_free(&c);
}

static void durations(void **state)
{
	(void)state;
	assert_int_equal(caret_parse_duration_ns("50ms"), 50000000);
	assert_int_equal(caret_parse_duration_ns("1.5s"), 1500000000);
	assert_int_equal(caret_parse_duration_ns("200us"), 200000);
	assert_int_equal(caret_parse_duration_ns("250000ns"), 250000);
	assert_int_equal(caret_parse_duration_ns("50"), -1);   /* no unit */
	assert_int_equal(caret_parse_duration_ns("-5ms"), -1);
	assert_int_equal(caret_parse_duration_ns("ms"), -1);
	assert_int_equal(caret_parse_duration_ns("5 ms"), -1);
	assert_int_equal(caret_parse_duration_ns("1e30s"), -1);
	assert_int_equal(caret_parse_duration_ns(""), -1);
}

static void host_clock_estimate(void **state)
{
	(void)state;
	int64_t e, u;
	/* ahead by at least 1,000 and at most 1,400: 1,200 +- 200 */
	ca_host_clock h = { .host = "b", .low = 1000, .high = 1400 };
	assert_true(ca_host_clock_estimate(&h, &e, &u));
	assert_int_equal(e, 1200);
	assert_int_equal(u, 200);
	/* one way only, none, or bounds that disagree: no estimate */
	h = (ca_host_clock){ .host = "b", .low = INT64_MIN, .high = 1400 };
	assert_false(ca_host_clock_estimate(&h, &e, &u));
	h = (ca_host_clock){ .host = "b", .low = 1000, .high = INT64_MAX };
	assert_false(ca_host_clock_estimate(&h, &e, &u));
	h = (ca_host_clock){ .host = "b", .low = 2000, .high = 1400 };
	assert_false(ca_host_clock_estimate(&h, &e, &u));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(series_window),
		cmocka_unit_test(series_percentiles_as_the_analyzer),
		cmocka_unit_test(window_json_without_runs),
		cmocka_unit_test(window_title_says_what_it_covers),
		cmocka_unit_test(process_changes),
		cmocka_unit_test(chunks_read_and_pruned),
		cmocka_unit_test(chunks_of_a_host_ahead),
		cmocka_unit_test(instances_counted_once),
		cmocka_unit_test(durations),
		cmocka_unit_test(host_clock_estimate),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
