/*
 * test_api.c - the public API's rules (caret/analyze.h): _free(NULL)
 * everywhere, bad arguments as CARET_ERR_INVALID or CARET_ERR_NOT_FOUND
 * errors (never a crash), iterators that stay at their end, arrays kept
 * with the trace; on a shared real trace (three nodes, 50 messages). v2:
 * path stamps, callback chains, the architecture file. v3: a lazy open.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "caret/analyze.h"

static caret_trace *trace;

static int open_real(void **state)
{
	(void)state;
	const char *shared = getenv("CARET_SHARED_DIR");
	char path[1024];
	caret_error *error;
	if (!shared)
		return -1;
	snprintf(path, sizeof path, "%s/data/real-humble/caret-fork-inter", shared);
	const char *paths[] = { path };
	return caret_open(paths, 1, NULL, &trace, &error) == CARET_OK ? 0 : -1;
}

static int close_real(void **state)
{
	(void)state;
	caret_trace_free(trace);
	return 0;
}

static void frees_null(void **state)
{
	(void)state;
	caret_trace_free(NULL);
	caret_iter_free(NULL);
	caret_path_latency_free(NULL);
	caret_error_free(NULL);
	caret_free(NULL);
	assert_int_equal(caret_analyze_api_version(), CARET_ANALYZE_API_VERSION);
	assert_null(caret_callbacks(NULL));
	assert_false(caret_next_callback(NULL, NULL));
}

static void bad_open(void **state)
{
	(void)state;
	caret_trace *t = (caret_trace *)1;
	caret_error *error;
	caret_open_options o = caret_open_defaults();
	assert_true(isnan(o.since) && isnan(o.until));
	assert_int_equal(caret_open(NULL, 0, &o, &t, &error), CARET_ERR_INVALID);
	assert_null(t);
	caret_error_free(error);
	o.reader = (caret_reader)7;
	const char *paths[] = { "/tmp" };
	assert_int_equal(caret_open(paths, 1, &o, &t, &error), CARET_ERR_INVALID);
	assert_non_null(strstr(caret_error_message(error), "unknown reader"));
	caret_error_free(error);
}

static void summary_and_iterators(void **state)
{
	(void)state;
	caret_summary s;
	caret_trace_summary(trace, &s);
	assert_int_equal(s.events, 1456);
	assert_int_equal(s.nodes, 3);
	assert_int_equal(s.callbacks, 3);
	assert_int_equal(s.communications, 2);
	assert_true(s.first_ns > 0 && s.last_ns > s.first_ns);
	/* recorded in 2026: the clock's offset puts the first event there */
	assert_true(s.first_ns + (uint64_t)s.epoch_offset_ns > 1767225600ull * 1000000000ull);

	caret_iter *it = caret_callbacks(trace);
	caret_callback cb;
	size_t n = 0, timers = 0;
	while (caret_next_callback(it, &cb)) {
		n++;
		if (cb.type == CARET_CALLBACK_TIMER) {
			timers++;
			assert_string_equal(cb.name, "/sensor/callback_0");
			assert_int_equal(cb.period_ns, 100000000);
		} else {
			assert_int_equal(cb.type, CARET_CALLBACK_SUBSCRIPTION);
			assert_non_null(cb.topic);
		}
	}
	assert_false(caret_next_callback(it, &cb)); /* stays at its end */
	caret_communication c;
	assert_false(caret_next_communication(it, &c)); /* another kind's iterator */
	caret_iter_free(it);
	assert_int_equal(n, 3);
	assert_int_equal(timers, 1);
}

static void records(void **state)
{
	(void)state;
	caret_iter *it = caret_callbacks(trace);
	caret_callback cb;
	caret_error *error;
	const caret_run *runs, *again;
	size_t n, m;
	assert_true(caret_next_callback(it, &cb));
	caret_iter_free(it);
	assert_int_equal(caret_callback_runs(trace, cb.id, &runs, &n, &error), CARET_OK);
	assert_null(error);
	assert_int_equal(n, 50);
	for (size_t i = 1; i < n; i++)
		assert_true(runs[i].start_ns >= runs[i - 1].start_ns);
	assert_int_equal(caret_callback_runs(trace, cb.id, &again, &m, &error), CARET_OK);
	assert_ptr_equal(again, runs); /* gathered once, kept */
	assert_int_equal(caret_callback_runs(trace, 99999, &runs, &n, &error), CARET_ERR_NOT_FOUND);
	assert_int_equal(n, 0);
	caret_error_free(error);

	const caret_message *msgs;
	assert_int_equal(caret_communication_messages(trace, 0, &msgs, &n, &error), CARET_OK);
	assert_int_equal(n, 50);
	assert_true(msgs[0].rclcpp_publish_ns && msgs[0].callback_start_ns > msgs[0].rclcpp_publish_ns);
	assert_int_equal(caret_communication_messages(trace, 2, &msgs, &n, &error),
		CARET_ERR_NOT_FOUND);
	caret_error_free(error);

	/* v2: every publish, each handled message's among them, in time order */
	caret_message *rec;
	size_t n_rec;
	assert_int_equal(caret_communication_messages(trace, 0, &msgs, &n, &error), CARET_OK);
	assert_int_equal(caret_communication_records(trace, 0, &rec, &n_rec, &error), CARET_OK);
	assert_true(n_rec >= n);
	for (size_t i = 1; i < n_rec; i++)
		assert_true(rec[i].rclcpp_publish_ns > rec[i - 1].rclcpp_publish_ns);
	for (size_t i = 0; i < n; i++) {
		bool found = false;
		for (size_t k = 0; k < n_rec; k++)
			if (rec[k].rclcpp_publish_ns == msgs[i].rclcpp_publish_ns) {
				found = rec[k].callback_start_ns == msgs[i].callback_start_ns &&
					rec[k].dds_write_ns == msgs[i].dds_write_ns;
				break;
			}
		assert_true(found);
	}
	/* v2: intra, the records' flags all set */
	bool every = n_rec > 0, intra = !every;
	for (size_t i = 0; i < n_rec; i++)
		every = every && rec[i].intra;
	assert_int_equal(caret_communication_intra(trace, 0, &intra, &error), CARET_OK);
	assert_int_equal(intra, every);
	assert_int_equal(caret_communication_intra(trace, 2, &intra, &error), CARET_ERR_NOT_FOUND);
	assert_false(intra);
	caret_error_free(error);
	caret_free(rec);
	assert_int_equal(caret_communication_records(trace, 2, &rec, &n_rec, &error),
		CARET_ERR_NOT_FOUND);
	assert_null(rec);
	caret_error_free(error);
}

static void paths(void **state)
{
	(void)state;
	caret_error *error;
	assert_null(caret_search_paths(trace, "/sensor", "/nowhere", 0, &error));
	assert_int_equal(caret_error_status(error), CARET_ERR_NOT_FOUND);
	caret_error_free(error);
	assert_null(caret_search_paths(trace, NULL, "/sink", 0, &error));
	assert_int_equal(caret_error_status(error), CARET_ERR_INVALID);
	caret_error_free(error);

	caret_iter *it = caret_search_paths(trace, "/sensor", "/sink", 0, &error);
	caret_path p;
	assert_non_null(it);
	assert_true(caret_next_path(it, &p));
	assert_int_equal(p.n_nodes, 3);
	assert_string_equal(p.topics[0], "/topic_a");
	caret_path_latency *l;
	assert_int_equal(caret_follow_path(trace, &p, CARET_POLICY_CALLBACK_CHAIN, &l, &error),
		CARET_OK);
	const caret_path_message *m;
	const int64_t *hops;
	size_t hop_count, n = caret_path_latency_messages(l, &m, &hops, &hop_count);
	assert_int_equal(n, 50);
	assert_int_equal(hop_count, 5);
	for (size_t i = 0; i < n; i++)
		assert_true(m[i].last_start_ns > m[i].publish_ns && hops[i * hop_count] >= 0);
	caret_path_latency_free(l);

	caret_path one = { 1, p.nodes, p.topics, NULL };
	assert_int_equal(caret_follow_path(trace, &one, CARET_POLICY_CALLBACK_CHAIN, &l, &error),
		CARET_ERR_INVALID);
	assert_null(l);
	caret_error_free(error);
	const char *nodes[] = { "/sensor", "/nowhere" }, *topics[] = { "/topic_a" };
	caret_path missing = { 2, nodes, topics, NULL };
	assert_int_equal(caret_follow_path(trace, &missing, CARET_POLICY_CALLBACK_CHAIN, &l,
		&error), CARET_ERR_NOT_FOUND);
	assert_non_null(strstr(caret_error_message(error), "/nowhere"));
	caret_error_free(error);
	caret_iter_free(it);
}

/* v2: each message's stages along the path agree with its hops and with
 * the messages of the communications it went through */
static void stamps(void **state)
{
	(void)state;
	caret_error *error;
	caret_iter *it = caret_search_paths(trace, "/sensor", "/sink", 0, &error);
	caret_path p;
	caret_path_latency *l;
	assert_true(caret_next_path(it, &p));
	caret_policy per_node[] = { CARET_POLICY_DEFAULT, CARET_POLICY_CALLBACK_CHAIN,
		CARET_POLICY_DEFAULT };
	p.policies = per_node;
	assert_int_equal(caret_follow_path(trace, &p, CARET_POLICY_USE_LATEST_MESSAGE, &l, &error),
		CARET_OK);
	const caret_path_message *m;
	const int64_t *hops;
	const uint64_t *st;
	size_t hop_count, columns, n = caret_path_latency_messages(l, &m, &hops, &hop_count);
	assert_int_equal(caret_path_latency_stamps(l, &st, &columns), n);
	assert_int_equal(columns, 5 * 2 + 2);
	const caret_message *msgs;
	size_t n_msgs;
	caret_iter *comms = caret_communications(trace);
	caret_communication c;
	while (caret_next_communication(comms, &c) && strcmp(c.topic, "/topic_a") != 0)
		;
	caret_iter_free(comms);
	assert_string_equal(c.topic, "/topic_a");
	assert_int_equal(caret_communication_messages(trace, c.id, &msgs, &n_msgs, &error),
		CARET_OK);
	for (size_t i = 0; i < n; i++) {
		const uint64_t *r = &st[i * columns];
		assert_int_equal(r[0], m[i].callback_start_ns);
		assert_int_equal(r[1], m[i].publish_ns);
		assert_true(r[2] >= r[1] && r[3] >= r[2] && r[4] > 0); /* rcl, dds, source */
		assert_int_equal(r[5] - r[1], hops[i * hop_count + 1]);
		assert_int_equal(r[6] - r[5], hops[i * hop_count + 2]);
		assert_int_equal(r[10], m[i].last_start_ns);
		assert_int_equal(r[11], m[i].last_end_ns);
		bool found = false; /* the first topic's message of that publish */
		for (size_t k = 0; k < n_msgs; k++)
			if (msgs[k].rclcpp_publish_ns == r[1]) {
				found = true;
				assert_int_equal(msgs[k].rcl_publish_ns, r[2]);
				assert_int_equal(msgs[k].source_timestamp_ns, r[4]);
				assert_int_equal(msgs[k].callback_start_ns, r[5]);
			}
		assert_true(found);
	}
	/* response times: inputs are messages' first callback starts, in order */
	uint64_t *inputs = calloc(n + 1, sizeof *inputs);
	int64_t *times = calloc(n + 1, sizeof *times);
	size_t count;
	assert_int_equal(caret_path_response_times(l, true, true, CARET_RESPONSE_WORST, inputs,
		times, &count, &error), CARET_OK);
	assert_true(count > 0 && count <= n);
	for (size_t i = 0; i < count; i++) {
		bool input = false;
		for (size_t k = 0; k < n; k++)
			input |= m[k].callback_start_ns == inputs[i];
		assert_true(input && times[i] > 0);
		assert_true(i == 0 || inputs[i] >= inputs[i - 1]);
	}
	assert_int_equal(caret_path_response_times(l, true, true, (caret_response_case)9, inputs,
		times, &count, &error), CARET_ERR_INVALID);
	caret_error_free(error);
	free(inputs);
	free(times);
	caret_path_latency_free(l);
	caret_iter_free(it);
}

/* v2: a callback's runs each with its first publish on the topic */
static void chains(void **state)
{
	(void)state;
	caret_error *error;
	caret_iter *it = caret_callbacks(trace);
	caret_callback cb;
	caret_chain_record *r;
	size_t n, n_runs, checked = 0;
	const caret_run *runs;
	while (caret_next_callback(it, &cb)) {
		if (strcmp(cb.node, "/filter") != 0)
			continue;
		assert_int_equal(caret_callback_chain(trace, cb.id, "/topic_b", &r, &n, &error),
			CARET_OK);
		assert_int_equal(caret_callback_runs(trace, cb.id, &runs, &n_runs, &error), CARET_OK);
		assert_int_equal(n, n_runs);
		for (size_t i = 0; i < n; i++) {
			assert_int_equal(r[i].callback_start_ns, runs[i].start_ns);
			assert_true(r[i].publish_ns > runs[i].start_ns &&
				r[i].publish_ns < runs[i].end_ns);
			checked++;
		}
		caret_free(r);
		/* a topic it does not publish: its runs, no publish */
		assert_int_equal(caret_callback_chain(trace, cb.id, "/topic_a", &r, &n, &error),
			CARET_OK);
		for (size_t i = 0; i < n; i++)
			assert_int_equal(r[i].publish_ns, 0);
		caret_free(r);
	}
	caret_iter_free(it);
	assert_int_equal(checked, 50);
	assert_int_equal(caret_callback_chain(trace, 99999, "/topic_b", &r, &n, &error),
		CARET_ERR_NOT_FOUND);
	assert_null(r);
	caret_error_free(error);
}

/* v2: node path records: callback_chain's as caret_callback_chain's; under
 * use_latest_message the node's next publish, its input's source stamp */
static void node_paths(void **state)
{
	(void)state;
	caret_error *error;
	caret_iter *it = caret_callbacks(trace);
	caret_callback cb;
	caret_chain_record *c;
	caret_node_record *r;
	size_t n, m, checked = 0;
	while (caret_next_callback(it, &cb)) {
		if (strcmp(cb.node, "/filter") != 0)
			continue;
		assert_int_equal(caret_callback_chain(trace, cb.id, "/topic_b", &c, &m, &error),
			CARET_OK);
		assert_int_equal(caret_node_path_records(trace, cb.id, "/topic_b",
			CARET_POLICY_CALLBACK_CHAIN, &r, &n, &error), CARET_OK);
		assert_int_equal(n, m);
		for (size_t i = 0; i < n; i++)
			assert_int_equal(r[i].publish_ns, c[i].publish_ns);
		caret_free(r);
		/* one publish per run, before the next run: the same output */
		assert_int_equal(caret_node_path_records(trace, cb.id, "/topic_b",
			CARET_POLICY_USE_LATEST_MESSAGE, &r, &n, &error), CARET_OK);
		assert_int_equal(n, m);
		for (size_t i = 0; i < n; i++) {
			assert_int_equal(r[i].callback_start_ns, c[i].callback_start_ns);
			assert_int_equal(r[i].publish_ns, c[i].publish_ns);
			/* inter-process: the message was sent before the run took it */
			assert_true(r[i].source_timestamp_ns > 0);
			checked++;
		}
		caret_free(r);
		assert_int_equal(caret_node_path_records(trace, cb.id, "/topic_b",
			CARET_POLICY_INHERIT_UNIQUE_STAMP, &r, &n, &error), CARET_ERR_INVALID);
		assert_null(r);
		caret_error_free(error);
		caret_free(c);
	}
	caret_iter_free(it);
	assert_int_equal(checked, 50);
	assert_int_equal(caret_node_path_records(trace, 99999, "/topic_b",
		CARET_POLICY_USE_LATEST_MESSAGE, &r, &n, &error), CARET_ERR_NOT_FOUND);
	caret_error_free(error);
	caret_free(NULL);
}

/* v2: the architecture file written, checked, and a named path read */
static void architecture(void **state)
{
	(void)state;
	caret_error *error;
	char file[] = "/tmp/test_api_XXXXXX";
	int fd = mkstemp(file);
	assert_true(fd >= 0);
	assert_int_equal(caret_write_architecture(trace, file, false, &error), CARET_OK);
	assert_int_equal(caret_check_architecture(file, &error), CARET_OK);
	/* its named_paths: [] given a path */
	FILE *f = fopen(file, "r");
	static char text[1 << 16], with_path[1 << 17];
	size_t len = fread(text, 1, sizeof text - 1, f);
	fclose(f);
	text[len] = 0;
	char *at = strstr(text, "named_paths: []");
	assert_non_null(at);
	snprintf(with_path, sizeof with_path, "%.*snamed_paths:\n- path_name: p0\n  node_chain:\n"
		"  - {node_name: /sensor, publish_topic_name: /topic_a, subscribe_topic_name: UNDEFINED}\n"
		"  - {node_name: /filter, publish_topic_name: /topic_b, subscribe_topic_name: /topic_a}\n"
		"  - {node_name: /sink, publish_topic_name: UNDEFINED, subscribe_topic_name: /topic_b}\n%s",
		(int)(at - text), text, at + strlen("named_paths: []\n"));
	f = fopen(file, "w");
	fputs(with_path, f);
	fclose(f);
	caret_iter *it = caret_architecture_path(file, "p0", &error);
	caret_path p;
	assert_non_null(it);
	assert_true(caret_next_path(it, &p));
	assert_int_equal(p.n_nodes, 3);
	assert_string_equal(p.nodes[1], "/filter");
	assert_string_equal(p.topics[1], "/topic_b");
	assert_non_null(p.policies);
	assert_int_equal(p.policies[1], CARET_POLICY_CALLBACK_CHAIN); /* its message_contexts */
	assert_false(caret_next_path(it, &p));
	caret_iter_free(it);
	assert_null(caret_architecture_path(file, "p1", &error));
	assert_int_equal(caret_error_status(error), CARET_ERR_NOT_FOUND);
	caret_error_free(error);

	f = fopen(file, "w");
	fputs("nodes:\n- node_name: /a\n  shape: square\n", f);
	fclose(f);
	assert_int_equal(caret_check_architecture(file, &error), CARET_ERR_FORMAT);
	caret_error_free(error);
	close(fd);
	unlink(file);
	assert_int_equal(caret_check_architecture("/nonexistent/arch.yaml", &error), CARET_ERR_IO);
	caret_error_free(error);
	assert_int_equal(caret_write_architecture(trace, "/nonexistent/arch.yaml", false, &error),
		CARET_ERR_IO);
	caret_error_free(error);
}

/* v3: a lazy open joins nothing until asked: the same runs, communication
 * records and path columns as an eager one, the runs first (a pass that
 * keeps runs alone), then the joined records */
static void lazy(void **state)
{
	(void)state;
	const char *shared = getenv("CARET_SHARED_DIR");
	char path[1024];
	snprintf(path, sizeof path, "%s/data/real-humble/caret-fork-inter", shared);
	const char *paths[] = { path };
	caret_open_options o = caret_open_defaults();
	o.lazy = true;
	caret_trace *t;
	caret_error *error;
	assert_int_equal(caret_open(paths, 1, &o, &t, &error), CARET_OK);
	caret_iter *it = caret_callbacks(trace);
	caret_callback cb;
	while (caret_next_callback(it, &cb)) {
		const caret_run *a, *b;
		size_t na, nb;
		assert_int_equal(caret_callback_runs(t, cb.id, &a, &na, &error), CARET_OK);
		assert_int_equal(caret_callback_runs(trace, cb.id, &b, &nb, &error), CARET_OK);
		assert_int_equal(na, nb);
		assert_memory_equal(a, b, na * sizeof *a);
	}
	caret_iter_free(it);
	it = caret_communications(trace);
	caret_communication c;
	while (caret_next_communication(it, &c)) {
		caret_message *a, *b;
		size_t na, nb;
		assert_int_equal(caret_communication_records(t, c.id, &a, &na, &error), CARET_OK);
		assert_int_equal(caret_communication_records(trace, c.id, &b, &nb, &error), CARET_OK);
		assert_int_equal(na, nb);
		assert_memory_equal(a, b, na * sizeof *a);
		caret_free(a);
		caret_free(b);
	}
	caret_iter_free(it);
	const char *nodes[] = { "/sensor", "/filter", "/sink" }, *topics[] = { "/topic_a", "/topic_b" };
	caret_path p = { 3, nodes, topics, NULL };
	caret_path_latency *la, *lb;
	assert_int_equal(caret_follow_path(t, &p, CARET_POLICY_USE_LATEST_MESSAGE, &la, &error),
		CARET_OK);
	assert_int_equal(caret_follow_path(trace, &p, CARET_POLICY_USE_LATEST_MESSAGE, &lb, &error),
		CARET_OK);
	const uint64_t *st;
	size_t columns, n = caret_path_latency_stamps(lb, &st, &columns);
	uint64_t *column = calloc(n + 1, sizeof *column);
	assert_true(n > 0);
	for (size_t k = 0; k < columns; k++) {
		assert_true(caret_path_latency_column(la, k, column));
		for (size_t i = 0; i < n; i++)
			assert_int_equal(column[i], st[i * columns + k]);
	}
	assert_false(caret_path_latency_column(la, columns, column));
	caret_path_topic seen;
	for (size_t k = 0; k < 2; k++) { /* inter-process topics, both */
		assert_true(caret_path_latency_topic(la, k, &seen));
		assert_true(seen.inter && !seen.intra);
	}
	assert_false(caret_path_latency_topic(la, 2, &seen));
	free(column);
	caret_path_latency_free(la);
	caret_path_latency_free(lb);
	caret_trace_free(t);
}

/* v3: a node's publishes on a topic, with their stages; none of a node
 * that does not publish it */
static void publisher_records(void **state)
{
	(void)state;
	caret_message *r;
	size_t n;
	caret_error *error;
	assert_int_equal(caret_publisher_records(trace, "/sensor", "/topic_a", &r, &n, &error),
		CARET_OK);
	assert_int_equal(n, 50);
	for (size_t i = 0; i < n; i++) {
		assert_true(r[i].rclcpp_publish_ns && r[i].rcl_publish_ns >= r[i].rclcpp_publish_ns);
		assert_true(r[i].dds_write_ns >= r[i].rcl_publish_ns && r[i].source_timestamp_ns);
		assert_true(!r[i].take_ns && !r[i].callback_start_ns && !r[i].intra);
		assert_true(i == 0 || r[i].rclcpp_publish_ns > r[i - 1].rclcpp_publish_ns);
	}
	caret_free(r);
	assert_int_equal(caret_publisher_records(trace, "/sink", "/topic_a", &r, &n, &error),
		CARET_ERR_NOT_FOUND);
	assert_null(r);
	caret_error_free(error);
	assert_int_equal(caret_publisher_records(trace, NULL, "/topic_a", &r, &n, &error),
		CARET_ERR_INVALID);
	caret_error_free(error);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(frees_null),
		cmocka_unit_test(bad_open),
		cmocka_unit_test_setup_teardown(summary_and_iterators, open_real, close_real),
		cmocka_unit_test_setup_teardown(records, open_real, close_real),
		cmocka_unit_test_setup_teardown(paths, open_real, close_real),
		cmocka_unit_test_setup_teardown(stamps, open_real, close_real),
		cmocka_unit_test_setup_teardown(chains, open_real, close_real),
		cmocka_unit_test_setup_teardown(node_paths, open_real, close_real),
		cmocka_unit_test_setup_teardown(architecture, open_real, close_real),
		cmocka_unit_test_setup_teardown(lazy, open_real, close_real),
		cmocka_unit_test_setup_teardown(publisher_records, open_real, close_real),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
