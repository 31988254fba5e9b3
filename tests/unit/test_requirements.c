/* test_requirements.c - the requirements of an architecture file's
 * deadlines: key (requirements.h): good files read back with every bound,
 * the files of before (path_name and deadline alone) still good, bad ones
 * refused with file:line and why, ratios, and the verdicts over known
 * latencies. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "ca.h"
#include "requirements.h"

/* A file of two named paths' nodes, /filter listing its callback and
 * /sink none (a file written by hand), then `deadlines`. */
static const char base[] =
	"named_paths:\n"
	"- path_name: sensor_to_sink\n"
	"  node_chain:\n"
	"  - node_name: /sensor\n"
	"    publish_topic_name: /topic_a\n"
	"  - node_name: /filter\n"
	"    subscribe_topic_name: /topic_a\n"
	"    publish_topic_name: /topic_b\n"
	"  - node_name: /sink\n"
	"    subscribe_topic_name: /topic_b\n"
	"executors: []\n"
	"nodes:\n"
	"- node_name: /sensor\n"
	"- node_name: /filter\n"
	"  callbacks:\n"
	"  - callback_name: /filter/callback_0\n"
	"    callback_type: subscription_callback\n"
	"    topic_name: /topic_a\n"
	"    symbol: on_a\n"
	"- node_name: /sink\n"
	"deadlines:\n";

static char file[64];

/* The base with these deadlines: entries written to a file of its own. */
static const char *with(const char *deadlines)
{
	snprintf(file, sizeof file, "/tmp/test_requirements-XXXXXX");
	int fd = mkstemp(file);
	assert_true(fd >= 0);
	FILE *f = fdopen(fd, "w");
	assert_non_null(f);
	fputs(base, f);
	fputs(deadlines, f);
	assert_int_equal(fclose(f), 0);
	return file;
}

/* Reads the file; returns the status, the error in err. */
static int read_back(const char *deadlines, ca_requirement **q, size_t *n, char *err,
	size_t size)
{
	err[0] = '\0';
	int status = ca_arch_file_requirements(with(deadlines), q, n, err, size);
	unlink(file);
	return status;
}

static void every_bound_read_back(void **state)
{
	(void)state;
	ca_requirement *q;
	size_t n;
	char err[1024];
	assert_int_equal(read_back("- path_name: sensor_to_sink\n  deadline: 50ms\n"
		"  miss_ratio: 1%\n  p99: 40ms\n  max: 0.1s\n"
		"- callback_name: /filter/callback_0\n  deadline: 500us\n  miss_ratio: 0.25\n"
		"- callback_name: /sink/callback_3\n  max: 2ms\n", &q, &n, err, sizeof err), 0);
	assert_int_equal(n, 3);
	assert_int_equal(q[0].object, CA_REQUIREMENT_PATH);
	assert_string_equal(q[0].name, "sensor_to_sink");
	assert_int_equal(q[0].deadline_ns, 50000000);
	assert_true(q[0].has_miss_ratio && q[0].miss_ratio == 0.01);
	assert_int_equal(q[0].p99_ns, 40000000);
	assert_int_equal(q[0].max_ns, 100000000);
	assert_int_equal(q[0].line, 22);
	assert_int_equal(q[1].object, CA_REQUIREMENT_CALLBACK);
	assert_string_equal(q[1].name, "/filter/callback_0");
	assert_int_equal(q[1].deadline_ns, 500000);
	assert_true(q[1].miss_ratio == 0.25);
	assert_int_equal(q[1].p99_ns, 0);
	/* a callback of a node that lists none: the trace will say */
	assert_string_equal(q[2].name, "/sink/callback_3");
	assert_false(q[2].has_miss_ratio);
	assert_int_equal(q[2].deadline_ns, 0);
	assert_int_equal(q[2].max_ns, 2000000);
	char name[128];
	assert_string_equal(ca_verdict_name(&q[0], CA_BOUND_DEADLINE, name, sizeof name),
		"deadline 50 ms, misses <= 1%");
	assert_string_equal(ca_verdict_name(&q[0], CA_BOUND_P99, name, sizeof name), "p99 <= 40 ms");
	assert_string_equal(ca_verdict_name(&q[1], CA_BOUND_DEADLINE, name, sizeof name),
		"deadline 500 us, misses <= 25%");
	assert_string_equal(ca_verdict_name(&q[0], CA_BOUND_MAX, name, sizeof name), "max <= 100 ms");
	q[0].max_ns = 2500000000;
	assert_string_equal(ca_verdict_name(&q[0], CA_BOUND_MAX, name, sizeof name), "max <= 2.5 s");
	ca_requirements_free(q, n);
}

/* The files caret live read before requirements: still good, the same
 * deadlines for it; a callback's requirement or a path's without a
 * deadline is not one caret live watches. */
static void files_of_before_still_good(void **state)
{
	(void)state;
	char **names, err[1024];
	int64_t *ns;
	size_t n;
	const char *path = with("- path_name: sensor_to_sink\n  deadline: 50ms\n"
		"- callback_name: /filter/callback_0\n  deadline: 1ms\n");
	assert_int_equal(ca_arch_file_deadlines(path, &names, &ns, &n, err, sizeof err), 0);
	unlink(file);
	assert_int_equal(n, 1);
	assert_string_equal(names[0], "sensor_to_sink");
	assert_int_equal(ns[0], 50000000);
	free(names[0]);
	free(names);
	free(ns);
}

/* Each bad entry: refused, the file's line and the reason in one line. */
static void bad_entries_refused(void **state)
{
	(void)state;
	static const struct {
		const char *entries, *line, *why;
	} cases[] = {
		{ "- path_name: sensor_to_sink\n  callback_name: /filter/callback_0\n  deadline: 1ms\n",
		  ":22:", "a deadline names both a path and a callback" },
		{ "- deadline: 1ms\n", ":22:", "a deadline names neither a path nor a callback" },
		{ "- path_name: sensor_to_sink\n", ":22:",
		  "the deadline of 'sensor_to_sink' sets no bound: deadline, p99 or max" },
		{ "- path_name: sensor_to_sink\n  deadline: 50ms\n  miss_ratio: 1.5\n", ":24:",
		  "miss_ratio '1.5' of 'sensor_to_sink' is not a share from 0 to 1" },
		{ "- path_name: sensor_to_sink\n  deadline: 50ms\n  miss_ratio: 101%\n", ":24:",
		  "miss_ratio '101%' of 'sensor_to_sink' is not a share" },
		{ "- path_name: sensor_to_sink\n  p99: 50ms\n  miss_ratio: 0.1\n", ":24:",
		  "miss_ratio of 'sensor_to_sink' without a deadline" },
		{ "- path_name: sensor_to_sink\n  p99: 40\n", ":23:",
		  "p99 '40' of 'sensor_to_sink' is not a duration such as 50ms, 1.5s, 200us: "
		  "the unit is missing" },
		{ "- path_name: sensor_to_sink\n  max: 0ms\n", ":23:", "max '0ms' of 'sensor_to_sink' "
		  "is not a duration" },
		{ "- callback_name: /filter/callback_0\n  max: 1ms\n"
		  "- callback_name: /filter/callback_0\n  p99: 1ms\n", ":24:",
		  "two deadlines for the callback '/filter/callback_0'" },
		{ "- callback_name: /planner/callback_0\n  max: 1ms\n", ":22:",
		  "deadline of the callback '/planner/callback_0': it names no node of the file" },
		{ "- callback_name: /filter/callback_1\n  max: 1ms\n", ":22:",
		  "deadline of the callback '/filter/callback_1': no callback of that name in "
		  "/filter (did you mean /filter/callback_0?" },
		{ "- path_name: sensor_to_snk\n  deadline: 1ms\n", ":22:",
		  "deadline of 'sensor_to_snk': no named path of that name (did you mean "
		  "sensor_to_sink?" },
		{ "- path_name: sensor_to_sink\n  deadline: 1ms\n  p95: 1ms\n", ":24:",
		  "unknown key 'p95' in a deadline (expected: path_name, callback_name, deadline, "
		  "miss_ratio, p99, max)" },
	};
	for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
		ca_requirement *q = NULL;
		size_t n = 0;
		char err[1024];
		if (read_back(cases[i].entries, &q, &n, err, sizeof err) != -1 ||
		    !strstr(err, cases[i].line) || !strstr(err, cases[i].why) || strchr(err, '\n'))
			fail_msg("case %zu: got '%s', expected %s and '%s'", i, err, cases[i].line,
				cases[i].why);
		assert_null(q);
		assert_int_equal(n, 0);
	}
}

static void ratios(void **state)
{
	(void)state;
	assert_true(ca_parse_ratio("0.01") == 0.01);
	assert_true(ca_parse_ratio("1%") == 0.01);
	assert_true(ca_parse_ratio("2.5 %") == 0.025);
	assert_true(ca_parse_ratio("0") == 0);
	assert_true(ca_parse_ratio("1") == 1);
	assert_true(ca_parse_ratio("100%") == 1);
	assert_true(ca_parse_ratio("1.01") < 0);
	assert_true(ca_parse_ratio("-0.1") < 0);
	assert_true(ca_parse_ratio("1%%") < 0);
	assert_true(ca_parse_ratio("nan") < 0);
	assert_true(ca_parse_ratio("") < 0);
	assert_true(ca_parse_ratio("half") < 0);
	assert_true(ca_parse_ratio(NULL) < 0);
}

/* Latencies 1..100 ms, started at 1000 + i: 5 over 95 ms; p99 (linear)
 * 99.01 ms; the worst three the last three. */
static void verdicts_over_known_latencies(void **state)
{
	(void)state;
	uint64_t start[100];
	int64_t latency[100];
	for (size_t i = 0; i < 100; i++) {
		size_t k = (i * 37) % 100; /* not in order */
		start[i] = 1000 + k;
		latency[i] = (int64_t)(k + 1) * 1000000;
	}
	ca_requirement q = { .deadline_ns = 95000000, .has_miss_ratio = true, .miss_ratio = 0.05,
		.p99_ns = 99000000, .max_ns = 100000000 };
	ca_verdict v[3];
	assert_int_equal(ca_requirement_judge(&q, start, latency, 100, v), 3);
	assert_int_equal(v[0].bound, CA_BOUND_DEADLINE);
	assert_int_equal(v[0].misses, 5);
	assert_true(v[0].pass); /* 5% allowed */
	assert_int_equal(v[0].n_worst, 3);
	assert_int_equal(v[0].worst_ns[0], 100000000);
	assert_int_equal(v[0].worst_start[0], 1099);
	assert_int_equal(v[0].worst_ns[2], 98000000);
	assert_int_equal(v[1].bound, CA_BOUND_P99);
	assert_false(v[1].pass);
	assert_true(v[1].measured > 99009999 && v[1].measured < 99010001);
	assert_int_equal(v[2].bound, CA_BOUND_MAX);
	assert_true(v[2].pass);
	assert_true(v[2].measured == 100000000);
	/* no ratio given: one miss fails */
	for (size_t i = 0; i < 100; i++)
		latency[i] = (int64_t)((start[i] - 1000) + 1) * 1000000;
	ca_requirement strict = { .deadline_ns = 99500000 };
	assert_int_equal(ca_requirement_judge(&strict, start, latency, 100, v), 1);
	assert_false(v[0].pass);
	assert_int_equal(v[0].misses, 1);
	assert_int_equal(v[0].n_worst, 1);
	assert_int_equal(v[0].worst_start[0], 1099);
	/* no instance: nothing passes */
	assert_int_equal(ca_requirement_judge(&q, start, latency, 0, v), 3);
	assert_false(v[0].pass || v[1].pass || v[2].pass);
	assert_int_equal(v[0].count, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(every_bound_read_back),
		cmocka_unit_test(files_of_before_still_good),
		cmocka_unit_test(bad_entries_refused),
		cmocka_unit_test(ratios),
		cmocka_unit_test(verdicts_over_known_latencies),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
