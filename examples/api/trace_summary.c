/*
 * trace_summary.c - a small program on libcaret-analyze's public API
 * (caret/analyze.h, docs/api.md): opens a trace, prints each callback's
 * runs and mean latency, each communication's messages and mean latency,
 * and with two node names, the paths between them and the end-to-end
 * latency of the first.
 *
 *   trace_summary TRACE [FROM TO]
 *   (docs/api.md: how to build it)
 */
#include <inttypes.h>
#include <stdio.h>

#include <caret/analyze.h>

static int fail(const char *what, caret_error *error)
{
	fprintf(stderr, "trace_summary: %s: %s (%s)\n", what, caret_error_message(error),
		caret_status_name(caret_error_status(error)));
	/* the causes as data: where the reader was when it failed */
	for (size_t i = 0; i < caret_error_cause_count(error); i++) {
		const caret_error_cause *c = caret_error_cause_at(error, i);
		if (c->file)
			fprintf(stderr, "  in %s at byte %" PRId64 "%s%s\n", c->file, c->offset,
				c->event ? ", event " : "", c->event ? c->event : "");
	}
	caret_error_free(error);
	return 1;
}

static void callbacks(caret_trace *trace)
{
	caret_iter *it = caret_callbacks(trace);
	caret_callback cb;
	while (caret_next_callback(it, &cb)) {
		const caret_run *runs;
		size_t n, ended = 0;
		caret_error *error;
		double sum = 0;
		if (caret_callback_runs(trace, cb.id, &runs, &n, &error) != CARET_OK) {
			fail(cb.name, error);
			continue;
		}
		for (size_t i = 0; i < n; i++)
			if (runs[i].end_ns) {
				sum += (double)(runs[i].end_ns - runs[i].start_ns);
				ended++;
			}
		printf("callback %s runs=%zu mean_ns=%.2f\n", cb.name, n, ended ? sum / ended : 0.0);
	}
	caret_iter_free(it);
}

static void communications(caret_trace *trace)
{
	caret_iter *it = caret_communications(trace);
	caret_communication c;
	while (caret_next_communication(it, &c)) {
		const caret_message *m;
		size_t n, published = 0;
		caret_error *error;
		double sum = 0;
		if (caret_communication_messages(trace, c.id, &m, &n, &error) != CARET_OK) {
			fail(c.topic, error);
			continue;
		}
		for (size_t i = 0; i < n; i++)
			if (m[i].rclcpp_publish_ns) {
				sum += (double)(m[i].callback_start_ns - m[i].rclcpp_publish_ns);
				published++;
			}
		printf("communication %s %s -> %s messages=%zu mean_ns=%.2f\n", c.topic,
			c.publisher_node, c.callback_name, n, published ? sum / published : 0.0);
	}
	caret_iter_free(it);
}

static int paths(caret_trace *trace, const char *from, const char *to)
{
	caret_error *error;
	caret_iter *it = caret_search_paths(trace, from, to, 0, &error);
	caret_path path, first = { 0 };
	if (!it)
		return fail("path search", error);
	while (caret_next_path(it, &path)) {
		printf("path");
		for (size_t i = 0; i < path.n_nodes; i++)
			printf(" %s", path.nodes[i]);
		printf("\n");
		if (!first.n_nodes)
			first = path;
	}
	caret_path_latency *latency;
	int status = 0;
	if (first.n_nodes &&
	    caret_follow_path(trace, &first, CARET_POLICY_USE_LATEST_MESSAGE, &latency, &error) ==
		    CARET_OK) {
		const caret_path_message *m;
		size_t hop_count, reached = 0;
		size_t n = caret_path_latency_messages(latency, &m, NULL, &hop_count);
		double sum = 0;
		for (size_t i = 0; i < n; i++)
			if (m[i].last_start_ns) { /* from the publish to the last callback's start */
				sum += (double)(m[i].last_start_ns - m[i].publish_ns);
				reached++;
			}
		printf("end to end messages=%zu reached=%zu hops=%zu mean_ns=%.2f\n", n, reached,
			hop_count, reached ? sum / reached : 0.0);
		caret_path_latency_free(latency);
	} else if (first.n_nodes) {
		status = fail("path latency", error);
	}
	caret_iter_free(it);
	return status;
}

int main(int argc, char **argv)
{
	if (argc != 2 && argc != 4) {
		fprintf(stderr, "usage: trace_summary TRACE [FROM TO]\n");
		return 2;
	}
	if (caret_analyze_api_version() != CARET_ANALYZE_API_VERSION) {
		fprintf(stderr, "trace_summary: built for API %d, the library is %d\n",
			CARET_ANALYZE_API_VERSION, caret_analyze_api_version());
		return 1;
	}
	caret_open_options options = caret_open_defaults();
	caret_trace *trace;
	caret_error *error;
	if (caret_open((const char *const *)&argv[1], 1, &options, &trace, &error) != CARET_OK)
		return fail("open", error);
	caret_summary s;
	caret_trace_summary(trace, &s);
	printf("trace: %" PRIu64 " events, %" PRIu64 " discarded, %zu processes, %zu nodes, "
		"%zu callbacks, %zu communications\n", s.events, s.discarded, s.processes, s.nodes,
		s.callbacks, s.communications);
	callbacks(trace);
	communications(trace);
	int status = argc == 4 ? paths(trace, argv[2], argv[3]) : 0;
	caret_trace_free(trace);
	return status;
}
