/*
 * test_api_hostile.c - the public API (caret/analyze.h, linked as the
 * installed libcaret-analyze.so) given what a caller can plausibly get
 * wrong: a NULL for each pointer argument, SIZE_MAX and its neighbours
 * for a limit, a FIFO for a file, values outside an enum, absurd time
 * windows. Each is a CARET_ERR_INVALID (or CARET_ERR_IO) error naming the
 * argument, never a crash, a blocked open or a result as if all was well
 * (issue 45, item 7). An alarm ends a call that blocks.
 */
#include <limits.h>
#include <math.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "caret/analyze.h"

static caret_trace *trace;
static char trace_dir[1024], fifo[64];

static int open_real(void **state)
{
	(void)state;
	const char *shared = getenv("CARET_SHARED_DIR");
	caret_error *error;
	if (!shared)
		return -1;
	snprintf(trace_dir, sizeof trace_dir, "%s/data/real-humble/caret-fork-inter", shared);
	const char *paths[] = { trace_dir };
	snprintf(fifo, sizeof fifo, "/tmp/test_api_hostile_%d.fifo", (int)getpid());
	unlink(fifo);
	if (mkfifo(fifo, 0600) != 0)
		return -1;
	return caret_open(paths, 1, NULL, &trace, &error) == CARET_OK ? 0 : -1;
}

static int close_real(void **state)
{
	(void)state;
	caret_trace_free(trace);
	unlink(fifo);
	return 0;
}

/* The call's status and its error's are `status`, its message holds
 * `words` (the call made first: it sets `error`). */
#define EXPECT(call, status, words)                                                \
	do {                                                                       \
		caret_status got_ = (call);                                        \
		expect(got_, error, status, words);                           \
	} while (0)

static void expect(caret_status got, caret_error *error, caret_status status, const char *words)
{
	assert_int_equal(got, status);
	assert_int_equal(caret_error_status(error), status);
	if (!strstr(caret_error_message(error), words))
		fail_msg("\"%s\" does not say \"%s\"", caret_error_message(error), words);
	caret_error_free(error);
}

static size_t callback_of(const char *node)
{
	caret_iter *it = caret_callbacks(trace);
	caret_callback cb;
	size_t id = SIZE_MAX;
	while (id == SIZE_MAX && caret_next_callback(it, &cb))
		if (!strcmp(cb.node, node))
			id = cb.id;
	caret_iter_free(it);
	assert_true(id != SIZE_MAX);
	return id;
}

static void open_arguments(void **state)
{
	(void)state;
	caret_trace *t = (caret_trace *)1;
	caret_error *error;
	const char *with_null[] = { trace_dir, NULL };
	EXPECT(caret_open(with_null, 2, NULL, &t, &error), CARET_ERR_INVALID,
		"paths[1] is NULL");
	assert_null(t);
	EXPECT(caret_open(NULL, 1, NULL, &t, &error), CARET_ERR_INVALID, "paths is NULL");
	const char *paths[] = { trace_dir };
	EXPECT(caret_open(paths, 1, NULL, NULL, &error), CARET_ERR_INVALID,
		"trace is NULL");
	assert_int_equal(caret_open(paths, 1, NULL, &t, NULL), CARET_ERR_INVALID);
	/* a time window: NAN or seconds a clock value holds */
	const double bad[] = { -1, INFINITY, -INFINITY, 1e300 };
	for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
		caret_open_options o = caret_open_defaults();
		o.strip_start = bad[i];
		EXPECT(caret_open(paths, 1, &o, &t, &error), CARET_ERR_INVALID,
			"options->strip_start");
		o = caret_open_defaults();
		o.since = bad[i];
		EXPECT(caret_open(paths, 1, &o, &t, &error), CARET_ERR_INVALID,
			"options->since");
	}
	/* a FIFO where a trace should be: refused, not waited on */
	alarm(20);
	assert_int_not_equal(caret_open((const char *[]){ fifo }, 1, NULL, &t, &error), CARET_OK);
	alarm(0);
	assert_null(t);
	assert_non_null(strstr(caret_error_message(error), fifo));
	caret_error_free(error);
}

static void iterator_arguments(void **state)
{
	(void)state;
	caret_iter *it = caret_callbacks(trace);
	assert_false(caret_next_callback(it, NULL));
	caret_iter_free(it);
	it = caret_communications(trace);
	assert_false(caret_next_communication(it, NULL));
	caret_iter_free(it);
	assert_null(caret_communications(NULL));
	caret_trace_summary(trace, NULL);
	caret_summary s;
	caret_trace_summary(NULL, &s);
	assert_int_equal(s.events, 0);
}

static void search_arguments(void **state)
{
	(void)state;
	caret_error *error;
	/* any depth: the search goes no deeper than the graph */
	const size_t depths[] = { SIZE_MAX, SIZE_MAX - 1, SIZE_MAX - 2, SIZE_MAX / 2, 3 };
	for (size_t i = 0; i < sizeof depths / sizeof *depths; i++) {
		caret_iter *it = caret_search_paths(trace, "/sensor", "/sink", depths[i], &error);
		caret_path p;
		assert_non_null(it);
		assert_null(error);
		assert_true(caret_next_path(it, &p));
		assert_int_equal(p.n_nodes, 3);
		assert_false(caret_next_path(it, &p));
		assert_false(caret_next_path(it, NULL));
		caret_iter_free(it);
	}
	assert_null(caret_search_paths(NULL, "/sensor", "/sink", 0, &error));
	expect(CARET_ERR_INVALID, error, CARET_ERR_INVALID, "trace is NULL");
	assert_null(caret_search_paths(trace, "/sensor", NULL, 0, &error));
	expect(CARET_ERR_INVALID, error, CARET_ERR_INVALID, "to is NULL");
	assert_null(caret_search_paths(trace, "/sensor", "/sink", 0, NULL));
}

static void record_arguments(void **state)
{
	(void)state;
	caret_error *error;
	const caret_run *runs;
	const caret_message *messages;
	caret_message *records;
	caret_chain_record *chain;
	caret_node_record *node_records;
	size_t n, filter = callback_of("/filter");
	bool intra;
	EXPECT(caret_callback_runs(NULL, 0, &runs, &n, &error), CARET_ERR_INVALID,
		"caret_callback_runs: trace is NULL");
	EXPECT(caret_callback_runs(trace, 0, NULL, &n, &error), CARET_ERR_INVALID,
		"runs is NULL");
	EXPECT(caret_callback_runs(trace, 0, &runs, NULL, &error), CARET_ERR_INVALID,
		"n is NULL");
	assert_int_equal(caret_callback_runs(trace, 0, &runs, &n, NULL), CARET_ERR_INVALID);
	EXPECT(caret_callback_runs(trace, SIZE_MAX, &runs, &n, &error),
		CARET_ERR_NOT_FOUND, "no callback");
	EXPECT(caret_communication_messages(NULL, 0, &messages, &n, &error),
		CARET_ERR_INVALID, "trace is NULL");
	EXPECT(caret_communication_messages(trace, 0, NULL, &n, &error),
		CARET_ERR_INVALID, "messages is NULL");
	EXPECT(caret_communication_records(trace, 0, &records, NULL, &error),
		CARET_ERR_INVALID, "n is NULL");
	EXPECT(caret_communication_records(trace, SIZE_MAX, &records, &n, &error),
		CARET_ERR_NOT_FOUND, "no communication");
	EXPECT(caret_publisher_records(trace, "/sensor", NULL, &records, &n, &error),
		CARET_ERR_INVALID, "topic is NULL");
	EXPECT(caret_publisher_records(NULL, "/sensor", "/topic_a", &records, &n, &error),
		CARET_ERR_INVALID, "trace is NULL");
	EXPECT(caret_communication_splits(trace, 0, NULL, &n, &error), CARET_ERR_INVALID,
		"splits is NULL");
	EXPECT(caret_communication_intra(trace, 0, NULL, &error), CARET_ERR_INVALID,
		"intra is NULL");
	EXPECT(caret_communication_intra(NULL, 0, &intra, &error), CARET_ERR_INVALID,
		"trace is NULL");
	EXPECT(caret_callback_chain(trace, filter, NULL, &chain, &n, &error),
		CARET_ERR_INVALID, "topic is NULL");
	EXPECT(caret_callback_chain(NULL, filter, "/topic_b", &chain, &n, &error),
		CARET_ERR_INVALID, "trace is NULL");
	EXPECT(caret_node_path_records(trace, filter, "/topic_b", (caret_policy)7, &node_records,
		&n, &error), CARET_ERR_INVALID, "policy 7");
	EXPECT(caret_node_path_records(trace, filter, "/topic_b", CARET_POLICY_CALLBACK_CHAIN,
		NULL, &n, &error), CARET_ERR_INVALID, "records is NULL");
}

static void follow_arguments(void **state)
{
	(void)state;
	caret_error *error;
	caret_path_latency *l;
	const char *nodes[] = { "/sensor", "/filter", "/sink" };
	const char *topics[] = { "/topic_a", "/topic_b" }, *no_topic[] = { "/topic_a", NULL };
	const char *no_node[] = { "/sensor", NULL, "/sink" };
	caret_policy bad_policy[] = { CARET_POLICY_DEFAULT, (caret_policy)7, CARET_POLICY_DEFAULT };
	caret_policy below[] = { (caret_policy)-2, CARET_POLICY_DEFAULT, CARET_POLICY_DEFAULT };
	caret_path p = { 3, nodes, no_topic, NULL };
	EXPECT(caret_follow_path(trace, &p, CARET_POLICY_CALLBACK_CHAIN, &l, &error),
		CARET_ERR_INVALID, "path->topics[1] is NULL");
	assert_null(l);
	p = (caret_path){ 3, no_node, topics, NULL };
	EXPECT(caret_follow_path(trace, &p, CARET_POLICY_CALLBACK_CHAIN, &l, &error),
		CARET_ERR_INVALID, "path->nodes[1] is NULL");
	p = (caret_path){ 3, nodes, topics, bad_policy };
	EXPECT(caret_follow_path(trace, &p, CARET_POLICY_CALLBACK_CHAIN, &l, &error),
		CARET_ERR_INVALID, "path->policies[1] is 7");
	p.policies = below;
	EXPECT(caret_follow_path(trace, &p, CARET_POLICY_CALLBACK_CHAIN, &l, &error),
		CARET_ERR_INVALID, "path->policies[0] is -2");
	p.policies = NULL;
	EXPECT(caret_follow_path(trace, &p, CARET_POLICY_DEFAULT, &l, &error),
		CARET_ERR_INVALID, "policy -1");
	EXPECT(caret_follow_path(trace, NULL, CARET_POLICY_CALLBACK_CHAIN, &l, &error),
		CARET_ERR_INVALID, "path is NULL");
	EXPECT(caret_follow_path(NULL, &p, CARET_POLICY_CALLBACK_CHAIN, &l, &error),
		CARET_ERR_INVALID, "trace is NULL");
	EXPECT(caret_follow_path(trace, &p, CARET_POLICY_CALLBACK_CHAIN, NULL, &error),
		CARET_ERR_INVALID, "latency is NULL");

	assert_int_equal(caret_follow_path(trace, &p, CARET_POLICY_CALLBACK_CHAIN, &l, &error),
		CARET_OK);
	size_t count, n = caret_path_latency_messages(l, NULL, NULL, NULL);
	assert_int_equal(n, 50);
	assert_int_equal(caret_path_latency_stamps(l, NULL, NULL), n);
	uint64_t *inputs = calloc(n, sizeof *inputs);
	int64_t *times = calloc(n, sizeof *times);
	EXPECT(caret_path_response_times(l, true, true, CARET_RESPONSE_ALL, NULL, times, &count,
		&error), CARET_ERR_INVALID, "inputs is NULL");
	EXPECT(caret_path_response_times(l, true, true, CARET_RESPONSE_ALL, inputs, times, NULL,
		&error), CARET_ERR_INVALID, "n is NULL");
	EXPECT(caret_path_response_times(l, true, true, (caret_response_case)-1, inputs, times,
		&count, &error), CARET_ERR_INVALID, "which is -1");
	assert_false(caret_path_latency_column(l, SIZE_MAX, inputs));
	assert_false(caret_path_latency_topic(l, SIZE_MAX, &(caret_path_topic){ 0 }));
	free(inputs);
	free(times);
	caret_path_latency_free(l);
}

static void file_arguments(void **state)
{
	(void)state;
	caret_error *error;
	alarm(20); /* a FIFO opened blocks: the test dies instead of hanging */
	EXPECT(caret_check_architecture(fifo, &error), CARET_ERR_IO, "a FIFO");
	assert_null(caret_architecture_path(fifo, "p0", &error));
	expect(CARET_ERR_IO, error, CARET_ERR_IO, "a FIFO");
	EXPECT(caret_write_architecture(trace, fifo, false, &error), CARET_ERR_IO,
		"a FIFO");
	EXPECT(caret_check_architecture("/tmp", &error), CARET_ERR_IO, "a directory");
	alarm(0);
	EXPECT(caret_write_architecture(NULL, "/tmp/x.yaml", false, &error),
		CARET_ERR_INVALID, "trace is NULL");
	EXPECT(caret_write_architecture(trace, NULL, false, &error), CARET_ERR_INVALID,
		"file is NULL");
	EXPECT(caret_check_architecture(NULL, &error), CARET_ERR_INVALID, "file is NULL");
	assert_null(caret_architecture_path("/tmp/x.yaml", NULL, &error));
	expect(CARET_ERR_INVALID, error, CARET_ERR_INVALID, "name is NULL");
	assert_int_equal(caret_check_architecture(fifo, NULL), CARET_ERR_INVALID);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(open_arguments),
		cmocka_unit_test(iterator_arguments),
		cmocka_unit_test(search_arguments),
		cmocka_unit_test(record_arguments),
		cmocka_unit_test(follow_arguments),
		cmocka_unit_test(file_arguments),
	};
	return cmocka_run_group_tests(tests, open_real, close_real);
}
