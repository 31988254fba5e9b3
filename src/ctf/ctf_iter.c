/* ctf_iter.c - see ctf_iter.h. */
#define _GNU_SOURCE /* timer_create's SIGEV_THREAD_ID */
#include "ctf_iter.h"

#include <errno.h>
#include <setjmp.h>
#include <stdbool.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "ctf_native.h"

#define STALL_SECONDS 15 /* no message for this long: the reader is stuck */
#define STALL_TEXT "15"

struct walk {
	const struct ca_ctf_handlers *handlers;
	int handler_failed;
};

/* ---- the guard: libbabeltrace2 aborting or stuck ends in an error ---------
 * The checks of ctf_check.c catch the damage known to do this; the guard is
 * for the rest. While it is armed, SIGABRT and a stall of STALL_SECONDS
 * (a per-thread timer's SIGALRM seeing no new message) jump back to
 * ca_ctf_iterate, which abandons the graph and reports. */

static _Thread_local sigjmp_buf *guard_escape;
static _Thread_local volatile sig_atomic_t guard_progress, guard_seen, guard_still;

static void guard_signal(int sig)
{
	if (!guard_escape) {
		signal(sig, SIG_DFL);
		raise(sig);
		return;
	}
	if (sig == SIGALRM) {
		if (guard_progress != guard_seen) {
			guard_seen = guard_progress;
			guard_still = 0;
			return;
		}
		if (++guard_still < STALL_SECONDS)
			return;
	}
	siglongjmp(*guard_escape, sig);
}

/* Graphs (and their plugins and parameters) left behind by a jump back,
 * kept reachable on purpose: abandoned, not leaked. */
#define MAX_ABANDONED 256
static const void *abandoned[MAX_ABANDONED] __attribute__((used));
static _Atomic size_t n_abandoned;

struct guard {
	struct sigaction old_abort, old_alarm;
	timer_t timer;
	bool timer_made;
};

static void guard_arm(struct guard *g, sigjmp_buf *escape)
{
	struct sigaction sa = { .sa_handler = guard_signal };
	sigemptyset(&sa.sa_mask);
	guard_progress = guard_seen = guard_still = 0;
	guard_escape = escape;
	sigaction(SIGABRT, &sa, &g->old_abort);
	sigaction(SIGALRM, &sa, &g->old_alarm);
	struct sigevent ev = { .sigev_notify = SIGEV_THREAD_ID, .sigev_signo = SIGALRM };
	ev._sigev_un._tid = gettid();
	struct itimerspec every_second = { { 1, 0 }, { 1, 0 } };
	g->timer_made = timer_create(CLOCK_MONOTONIC, &ev, &g->timer) == 0 &&
		timer_settime(g->timer, 0, &every_second, NULL) == 0;
}

static void guard_disarm(struct guard *g)
{
	if (g->timer_made)
		timer_delete(g->timer);
	guard_escape = NULL;
	sigaction(SIGABRT, &g->old_abort, NULL);
	sigaction(SIGALRM, &g->old_alarm, NULL);
}

static uint64_t event_clock_value(const bt_message *msg)
{
	const bt_stream_class *sc = bt_stream_borrow_class_const(
		bt_event_borrow_stream_const(bt_message_event_borrow_event_const(msg)));

	if (!bt_stream_class_borrow_default_clock_class_const(sc))
		return 0;
	return bt_clock_snapshot_get_value(
		bt_message_event_borrow_default_clock_snapshot_const(msg));
}

static int handle_message(struct walk *w, const bt_message *msg)
{
	const struct ca_ctf_handlers *h = w->handlers;
	uint64_t count = 0;

	switch (bt_message_get_type(msg)) {
	case BT_MESSAGE_TYPE_EVENT:
		if (h->on_event)
			return h->on_event(bt_message_event_borrow_event_const(msg),
				event_clock_value(msg), h->user);
		return 0;
	case BT_MESSAGE_TYPE_DISCARDED_EVENTS:
		if (h->on_discarded) {
			if (bt_message_discarded_events_get_count(msg, &count) !=
			    BT_PROPERTY_AVAILABILITY_AVAILABLE)
				count = 0;
			h->on_discarded(
				bt_message_discarded_events_borrow_stream_const(msg),
				count, h->user);
		}
		return 0;
	case BT_MESSAGE_TYPE_DISCARDED_PACKETS:
		if (h->on_lost_packets) {
			if (bt_message_discarded_packets_get_count(msg, &count) !=
			    BT_PROPERTY_AVAILABILITY_AVAILABLE)
				count = 0;
			h->on_lost_packets(
				bt_message_discarded_packets_borrow_stream_const(msg),
				count, h->user);
		}
		return 0;
	default:
		return 0;
	}
}

static bt_graph_simple_sink_component_consume_func_status
sink_consume(bt_message_iterator *iterator, void *data)
{
	struct walk *w = data;
	bt_message_array_const msgs;
	uint64_t count = 0;

	switch (bt_message_iterator_next(iterator, &msgs, &count)) {
	case BT_MESSAGE_ITERATOR_NEXT_STATUS_OK:
		break;
	case BT_MESSAGE_ITERATOR_NEXT_STATUS_END:
		return BT_GRAPH_SIMPLE_SINK_COMPONENT_CONSUME_FUNC_STATUS_END;
	case BT_MESSAGE_ITERATOR_NEXT_STATUS_AGAIN:
		return BT_GRAPH_SIMPLE_SINK_COMPONENT_CONSUME_FUNC_STATUS_AGAIN;
	case BT_MESSAGE_ITERATOR_NEXT_STATUS_MEMORY_ERROR:
		return BT_GRAPH_SIMPLE_SINK_COMPONENT_CONSUME_FUNC_STATUS_MEMORY_ERROR;
	default:
		return BT_GRAPH_SIMPLE_SINK_COMPONENT_CONSUME_FUNC_STATUS_ERROR;
	}

	int failed = 0;
	guard_progress++;
	for (uint64_t i = 0; i < count; i++) {
		if (!failed && handle_message(w, msgs[i]) != 0)
			failed = 1;
		bt_message_put_ref(msgs[i]);
	}
	if (failed) {
		w->handler_failed = 1;
		return BT_GRAPH_SIMPLE_SINK_COMPONENT_CONSUME_FUNC_STATUS_ERROR;
	}
	return BT_GRAPH_SIMPLE_SINK_COMPONENT_CONSUME_FUNC_STATUS_OK;
}

/* Formats "cannot read trace: path=P: what[: deepest babeltrace2 cause]". */
static void set_error(char *err, size_t size, const char *path,
	const char *what)
{
	const bt_error *error = bt_current_thread_take_error();
	const char *cause = NULL;

	if (error && bt_error_get_cause_count(error) > 0) {
		/* Cause 0 is the most recent, usually the most precise one. */
		cause = bt_error_cause_get_message(
			bt_error_borrow_cause_by_index(error, 0));
	}
	if (err && size)
		snprintf(err, size, "cannot read trace: path=%s: %s%s%s", path,
			what, cause ? ": " : "", cause ? cause : "");
	if (error)
		bt_error_release(error);
}

static const bt_plugin *find_plugin(const char *name)
{
	const bt_plugin *plugin = NULL;

	if (bt_plugin_find(name, BT_TRUE, BT_TRUE, BT_TRUE, BT_TRUE, BT_FALSE,
			   &plugin) != BT_PLUGIN_FIND_STATUS_OK)
		return NULL;
	return plugin;
}

/* Connects every output port of the source to a fresh muxer input port
 * (the muxer adds one each time one is connected). */
static int connect_source_to_muxer(bt_graph *graph,
	const bt_component_source *src, const bt_component_filter *mux)
{
	uint64_t n = bt_component_source_get_output_port_count(src);

	for (uint64_t i = 0; i < n; i++) {
		const bt_port_output *out =
			bt_component_source_borrow_output_port_by_index_const(src, i);
		uint64_t last = bt_component_filter_get_input_port_count(mux) - 1;
		const bt_port_input *in =
			bt_component_filter_borrow_input_port_by_index_const(mux, last);
		if (bt_graph_connect_ports(graph, out, in, NULL) !=
		    BT_GRAPH_CONNECT_PORTS_STATUS_OK)
			return -1;
	}
	return n > 0 ? 0 : -1;
}

int ca_ctf_iterate(const char *path, const struct ca_ctf_handlers *handlers,
	char *err, size_t err_size)
{
	struct walk w = { .handlers = handlers };
	/* static: they change between sigsetjmp and a jump back */
	static _Thread_local sigjmp_buf escape;
	static _Thread_local struct guard guard;
	const bt_plugin *ctf = find_plugin("ctf"), *utils = find_plugin("utils");
	bt_graph *graph = NULL;
	bt_value *params = NULL, *inputs = NULL;
	const bt_component_source *src = NULL;
	const bt_component_filter *mux = NULL;
	const bt_component_sink *sink = NULL;
	int ret = -1;

	if (!ctf || !utils) {
		set_error(err, err_size, path,
			"babeltrace2 plugins 'ctf' and 'utils' not found");
		goto out;
	}
	graph = bt_graph_create(0);
	params = bt_value_map_create();
	if (!graph || !params ||
	    bt_value_map_insert_empty_array_entry(params, "inputs", &inputs) !=
		    BT_VALUE_MAP_INSERT_ENTRY_STATUS_OK) {
		set_error(err, err_size, path, "out of memory");
		goto out;
	}
	/* the traces found and checked as the native reader does */
	char **dirs;
	size_t n_dirs;
	if (ctf_find_traces(path, &dirs, &n_dirs, err, err_size) != 0)
		goto out;
	for (size_t i = 0; i < n_dirs; i++) {
		char cut[600];
		if (ctf_metadata_whole(dirs[i], cut, sizeof cut) != 0) {
			snprintf(err, err_size, "cannot read trace: path=%s: %s", path, cut);
			ctf_free_dirs(dirs, n_dirs);
			goto out;
		}
	}
	for (size_t i = 0; i < n_dirs; i++)
		if (bt_value_array_append_string_element(inputs, dirs[i]) !=
		    BT_VALUE_ARRAY_APPEND_ELEMENT_STATUS_OK) {
			ctf_free_dirs(dirs, n_dirs);
			set_error(err, err_size, path, "out of memory");
			goto out;
		}
	ctf_free_dirs(dirs, n_dirs);
	int sig = sigsetjmp(escape, 1);
	if (sig) {
		guard_disarm(&guard);
		/* the graph is left as it was (libbabeltrace2's state is unknown),
		 * but kept reachable: abandoned on purpose, not leaked */
		size_t k = (n_abandoned += 4) - 4;
		if (k + 4 <= MAX_ABANDONED) {
			abandoned[k] = graph;
			abandoned[k + 1] = ctf;
			abandoned[k + 2] = utils;
			abandoned[k + 3] = params;
		}
		snprintf(err, err_size, "cannot read trace: path=%s: %s", path, sig == SIGABRT ?
			"libbabeltrace2 aborted on it: the trace is damaged" :
			"libbabeltrace2 made no progress for " STALL_TEXT " s: the trace is damaged");
		return -1;
	}
	guard_arm(&guard, &escape);
	if (bt_graph_add_source_component(graph,
		    bt_plugin_borrow_source_component_class_by_name_const(ctf, "fs"),
		    "source", params, BT_LOGGING_LEVEL_NONE, &src) !=
	    BT_GRAPH_ADD_COMPONENT_STATUS_OK) {
		set_error(err, err_size, path, "not a readable CTF trace");
		goto out;
	}
	if (bt_graph_add_filter_component(graph,
		    bt_plugin_borrow_filter_component_class_by_name_const(utils, "muxer"),
		    "muxer", NULL, BT_LOGGING_LEVEL_NONE, &mux) !=
		    BT_GRAPH_ADD_COMPONENT_STATUS_OK ||
	    bt_graph_add_simple_sink_component(graph, "caret", NULL,
		    sink_consume, NULL, &w, &sink) != BT_GRAPH_ADD_COMPONENT_STATUS_OK) {
		set_error(err, err_size, path, "cannot build the reading graph");
		goto out;
	}
	if (connect_source_to_muxer(graph, src, mux) != 0 ||
	    bt_graph_connect_ports(graph,
		    bt_component_filter_borrow_output_port_by_index_const(mux, 0),
		    bt_component_sink_borrow_input_port_by_index_const(sink, 0),
		    NULL) != BT_GRAPH_CONNECT_PORTS_STATUS_OK) {
		set_error(err, err_size, path, "the trace has no stream to read");
		goto out;
	}

	bt_graph_run_status status;
	do {
		status = bt_graph_run(graph);
	} while (status == BT_GRAPH_RUN_STATUS_AGAIN);
	guard_disarm(&guard);
	if (status != BT_GRAPH_RUN_STATUS_OK) {
		set_error(err, err_size, path, w.handler_failed ?
			"stopped by the event handler" : "error while reading");
		goto out;
	}
	ret = 0;
out:
	if (guard_escape)
		guard_disarm(&guard);
	bt_value_put_ref(params);
	bt_graph_put_ref(graph);
	bt_plugin_put_ref(ctf);
	bt_plugin_put_ref(utils);
	return ret;
}
