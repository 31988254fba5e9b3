/*
 * test_live_metrics - caret live --metrics' text (src/live/metrics_text.c,
 * histogram.c) and its server's routing (metrics_http.c), without a
 * session: the buckets around a deadline (one at it: the bucket there
 * counts the instances that met it), log-spaced without one; the buckets
 * cumulative and ending at +Inf with the count; label values escaped;
 * counters' and units' names in each format, "# EOF" only in
 * OpenMetrics; GET /metrics, the Accept header's choice, 404, 405, 400.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "histogram.h"
#include "metrics_http.h"
#include "state.h"

static void buckets_around_a_deadline(void **state)
{
	(void)state;
	struct live_histogram h;
	live_histogram_init(&h, 50000000); /* 50 ms */
	bool at_deadline = false;
	for (size_t i = 0; i < h.n_bounds; i++) {
		if (i)
			assert_true(h.bounds_ns[i] > h.bounds_ns[i - 1]);
		at_deadline |= h.bounds_ns[i] == 50000000;
	}
	assert_true(at_deadline);
	assert_int_equal(h.bounds_ns[0], 50000);             /* D / 1000 */
	assert_int_equal(h.bounds_ns[h.n_bounds - 1], 500000000); /* 10 D */
	/* a value on a bound is in that bound's bucket (le: at most) */
	live_histogram_add(&h, 50000000);
	live_histogram_add(&h, 50000001);
	live_histogram_add(&h, 0);
	live_histogram_add(&h, 600000000); /* over every bound: +Inf's */
	assert_int_equal(h.count, 4);
	assert_int_equal(h.counts[h.n_bounds], 1);
	assert_int_equal(h.counts[0], 1);
	assert_true(h.sum_ns == 700000001ULL);
	/* a deadline of a few ns: no zero or repeated bound */
	live_histogram_init(&h, 3);
	for (size_t i = 0; i < h.n_bounds; i++)
		assert_true(h.bounds_ns[i] > 0 && (!i || h.bounds_ns[i] > h.bounds_ns[i - 1]));
	/* none: 10 us to 10 s */
	live_histogram_init(&h, 0);
	assert_int_equal(h.bounds_ns[0], 10000);
	assert_true(h.bounds_ns[h.n_bounds - 1] == 10000000000LL);
}

/* A state with a callback whose name needs escaping, a path with a
 * deadline, and two processes, one gone. */
static void fill(struct live *L, struct live_options *o)
{
	o->n_paths = 1;
	snprintf(o->paths[0].label, sizeof o->paths[0].label, "%s", "/sensor -> /sink");
	o->paths[0].deadline_ns = 50000000;
	L->o = o;
	L->watches[0].spec = &o->paths[0];
	L->watches[0].series.limit_ns = 50000000;
	struct live_series *s = live_series_named(&L->callbacks, 0, "/a\"b\\c\nd/callback_0",
		10000000);
	assert_non_null(s);
	s->node = strdup("/a\"b\\c\nd");
	for (int i = 1; i <= 100; i++) /* 1..100 ms: 90 over the 10 ms period */
		assert_true(live_series_add(s, 1000 + (uint64_t)i, i * 1000000LL));
	/* the path: 3 within 50 ms, 1 over */
	for (int i = 0; i < 4; i++)
		assert_true(live_series_add(&L->watches[0].series, 2000 + (uint64_t)i,
			i == 3 ? 150000000 : 1000000));
	static struct live_process procs[2] = { { .pid = 41, .program = "pipe\"line",
		.live = true }, { .pid = 42, .program = "gone", .live = false } };
	L->known = procs;
	L->n_known = 2;
	L->looks = 7;
}

static char *text_of(struct live *L, bool om)
{
	size_t len;
	char *t = live_metrics_text(L, om, &len);
	assert_non_null(t);
	assert_int_equal(strlen(t), len);
	return t;
}

static void prometheus_text(void **state)
{
	(void)state;
	static struct live L;
	static struct live_options o;
	fill(&L, &o);
	char *t = text_of(&L, false);
	assert_non_null(strstr(t, "# TYPE caret_callback_latency_seconds histogram\n"));
	assert_non_null(strstr(t, "# TYPE caret_path_deadline_misses_total counter\n"));
	assert_null(strstr(t, "# EOF"));
	assert_null(strstr(t, "# UNIT"));
	/* escaped: \\ \" \n */
	const char *labels = "{callback=\"/a\\\"b\\\\c\\nd/callback_0\",node=\"/a\\\"b\\\\c\\nd\"";
	char line[512];
	snprintf(line, sizeof line, "caret_callback_latency_seconds_bucket%s,le=\"0.01\"} 10\n",
		labels);
	assert_non_null(strstr(t, line));
	snprintf(line, sizeof line, "caret_callback_latency_seconds_bucket%s,le=\"+Inf\"} 100\n",
		labels);
	assert_non_null(strstr(t, line));
	snprintf(line, sizeof line, "caret_callback_latency_seconds_count%s} 100\n", labels);
	assert_non_null(strstr(t, line));
	snprintf(line, sizeof line, "caret_callback_latency_seconds_sum%s} 5.05\n", labels);
	assert_non_null(strstr(t, line));
	snprintf(line, sizeof line, "caret_callback_misses_total%s} 90\n", labels);
	assert_non_null(strstr(t, line));
	snprintf(line, sizeof line, "caret_callback_period_seconds%s} 0.01\n", labels);
	assert_non_null(strstr(t, line));
	/* the buckets cumulative, each at least the one before */
	unsigned long last = 0;
	size_t buckets = 0;
	for (const char *p = strstr(t, "caret_callback_latency_seconds_bucket{"); p;
	     p = strstr(p + 1, "caret_callback_latency_seconds_bucket{")) {
		unsigned long v = strtoul(strchr(strstr(p, "} "), ' '), NULL, 10);
		assert_true(v >= last);
		last = v;
		buckets++;
	}
	assert_int_equal(buckets, 24); /* 23 bounds around the period and +Inf */
	assert_non_null(strstr(t, "caret_path_latency_seconds_bucket{path=\"/sensor -> /sink\","
		"le=\"0.05\"} 3\n"));
	assert_non_null(strstr(t, "caret_path_instances_total{path=\"/sensor -> /sink\"} 4\n"));
	assert_non_null(strstr(t, "caret_path_deadline_misses_total{path=\"/sensor -> /sink\"} "
		"1\n"));
	assert_non_null(strstr(t, "caret_path_deadline_seconds{path=\"/sensor -> /sink\"} 0.05\n"));
	assert_non_null(strstr(t, "caret_process_up{pid=\"41\",process=\"pipe\\\"line\"} 1\n"));
	assert_non_null(strstr(t, "caret_process_up{pid=\"42\",process=\"gone\"} 0\n"));
	assert_non_null(strstr(t, "caret_live_looks_total 7\n"));
	free(t);
	live_series_list_free(&L.callbacks);
	live_series_free(&L.watches[0].series);
}

static void openmetrics_text(void **state)
{
	(void)state;
	static struct live L;
	static struct live_options o;
	fill(&L, &o);
	char *t = text_of(&L, true);
	size_t n = strlen(t);
	assert_true(n > 6 && !strcmp(t + n - 6, "# EOF\n"));
	assert_ptr_equal(strstr(t, "# EOF"), t + n - 6); /* once, last */
	/* a counter's family without _total, its samples with it */
	assert_non_null(strstr(t, "# TYPE caret_path_deadline_misses counter\n"));
	assert_null(strstr(t, "# TYPE caret_path_deadline_misses_total"));
	assert_non_null(strstr(t, "caret_path_deadline_misses_total{path=\"/sensor -> /sink\"} 1\n"));
	assert_non_null(strstr(t, "# UNIT caret_path_latency_seconds seconds\n"));
	free(t);
	live_series_list_free(&L.callbacks);
	live_series_free(&L.watches[0].series);
}

/* No sample yet: every family's buckets there, empty. */
static void empty_series(void **state)
{
	(void)state;
	static struct live L;
	static struct live_options o;
	o.n_paths = 1;
	snprintf(o.paths[0].label, sizeof o.paths[0].label, "p");
	o.paths[0].deadline_ns = 1000000;
	L.o = &o;
	L.watches[0].spec = &o.paths[0];
	char *t = text_of(&L, false);
	assert_non_null(strstr(t, "caret_path_latency_seconds_bucket{path=\"p\",le=\"0.001\"} 0\n"));
	assert_non_null(strstr(t, "caret_path_latency_seconds_count{path=\"p\"} 0\n"));
	assert_non_null(strstr(t, "caret_path_latency_seconds_sum{path=\"p\"} 0\n"));
	free(t);
}

static void routes(void **state)
{
	(void)state;
	bool om;
	assert_int_equal(live_metrics_route("GET /metrics HTTP/1.1\r\nHost: x\r\n\r\n", &om), 200);
	assert_false(om);
	assert_int_equal(live_metrics_route("GET /metrics?x=1 HTTP/1.1\r\nHost: x\r\nACCEPT: "
		"application/openmetrics-text;version=1.0.0,text/plain;q=0.5\r\n\r\n", &om), 200);
	assert_true(om);
	/* Prometheus's Accept when it prefers the text format */
	assert_int_equal(live_metrics_route("GET /metrics HTTP/1.1\r\nAccept: text/plain;"
		"version=0.0.4;q=1,*/*;q=0.1\r\nUser-Agent: openmetrics-text\r\n\r\n", &om), 200);
	assert_false(om);
	assert_int_equal(live_metrics_route("HEAD /metrics HTTP/1.0\r\n\r\n", &om), 200);
	assert_int_equal(live_metrics_route("GET / HTTP/1.1\r\n\r\n", &om), 404);
	assert_int_equal(live_metrics_route("GET /metricsx HTTP/1.1\r\n\r\n", &om), 404);
	assert_int_equal(live_metrics_route("POST /metrics HTTP/1.1\r\n\r\n", &om), 405);
	assert_int_equal(live_metrics_route("hello\r\n\r\n", &om), 400);
	assert_int_equal(live_metrics_route("GET /metrics SPDY/3\r\n\r\n", &om), 400);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(buckets_around_a_deadline),
		cmocka_unit_test(prometheus_text),
		cmocka_unit_test(openmetrics_text),
		cmocka_unit_test(empty_series),
		cmocka_unit_test(routes),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
