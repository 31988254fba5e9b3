/*
 * api.c - caret/analyze.h over the analyzer's stages: a caret_trace is a
 * loaded trace with every record scanned in the load's second pass (no
 * pass of their own), and each callback's runs and each communication's
 * messages gathered into arrays the first time they are asked for; a
 * path is followed by a pass of its own, the CLI's (follow_streamed).
 */
#include "caret/analyze.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api.h"
#include "ca.h"
#include "error_build.h"
#include "model.h"
#include "path.h"
#include "trace.h"

int caret_analyze_api_version(void)
{
	return CARET_ANALYZE_API_VERSION;
}

caret_open_options caret_open_defaults(void)
{
	return (caret_open_options){ .reader = CARET_READER_NATIVE, .since = NAN, .until = NAN,
		.strip_start = NAN, .strip_end = NAN };
}

static const ca_records_options every_record; /* zero: every record, joined */
static const ca_records_options runs_alone = { .runs_only = true };

/* A time option: NAN (no bound) or seconds from 0 to what int64 nanoseconds
 * hold (the window is turned into clock values). */
static bool valid_seconds(double s)
{
	return isnan(s) || (s >= 0 && s < 0x1p63 / 1e9);
}

/* The caller's paths and options, each checked: false with *error. */
static bool valid_open(const char *const *paths, size_t n_paths, const caret_open_options *o,
	caret_error **error)
{
	for (size_t i = 0; paths && i < n_paths; i++)
		if (!paths[i]) {
			caret_error_add(error, CARET_ERR_INVALID, NULL, -1, NULL,
				"caret_open: paths[%zu] is NULL", i);
			return false;
		}
	if (o->reader != CARET_READER_NATIVE && o->reader != CARET_READER_BABELTRACE2) {
		caret_error_add(error, CARET_ERR_INVALID, NULL, -1, NULL, "caret_open: unknown "
			"reader %d", (int)o->reader);
		return false;
	}
	const double times[] = { o->since, o->until, o->strip_start, o->strip_end };
	const char *const names[] = { "since", "until", "strip_start", "strip_end" };
	for (size_t i = 0; i < sizeof times / sizeof *times; i++)
		if (!valid_seconds(times[i])) {
			caret_error_add(error, CARET_ERR_INVALID, NULL, -1, NULL, "caret_open: "
				"options->%s is %g: seconds from 0 to 9.2e9, or NAN (none)", names[i],
				times[i]);
			return false;
		}
	return true;
}

caret_status caret_open(const char *const *paths, size_t n_paths, const caret_open_options *options,
	caret_trace **trace, caret_error **error)
{
	caret_open_options defaults = caret_open_defaults();
	const caret_open_options *o = options ? options : &defaults;
	ca_load_options load = ca_load_defaults();
	if (trace)
		*trace = NULL;
	if (!error)
		return CARET_ERR_INVALID;
	*error = NULL;
	if (!API_GIVEN(trace, error) || (n_paths && !API_GIVEN(paths, error)) ||
	    !valid_open(paths, n_paths, o, error))
		return CARET_ERR_INVALID;
	load.reader = o->reader == CARET_READER_NATIVE ? CA_READER_NATIVE : CA_READER_BABELTRACE2;
	load.since = o->since;
	load.until = o->until;
	load.strip_start = o->strip_start;
	load.strip_end = o->strip_end;
	load.keep_runtime = o->keep_events;
	load.merge = o->merge;
	load.keep_links = true; /* paths through tf and services */
	bool lazy = o->lazy && !o->keep_events;
	load.records = o->keep_events || lazy ? NULL : &every_record;
	caret_trace *t = calloc(1, sizeof *t);
	if (!t) {
		caret_error_add(error, CARET_ERR_NO_MEMORY, NULL, -1, NULL, "out of memory");
		return CARET_ERR_NO_MEMORY;
	}
	char err[1024];
	if (ca_trace_open(paths, n_paths, &load, &t->trace, error) != CARET_OK ||
	    (!lazy && !(t->records = ca_records_build_options(t->trace, &every_record, err,
		sizeof err))) || !caret_api_find_communications(t)) {
		if (!*error && !t->records)
			caret_error_add(error, CARET_ERR_NO_MEMORY, NULL, -1, NULL, "%s", err);
		else if (!*error)
			caret_error_add(error, CARET_ERR_NO_MEMORY, NULL, -1, NULL, "out of memory");
		caret_trace_free(t);
		return caret_error_status(*error);
	}
	*trace = t;
	return CARET_OK;
}

void caret_trace_free(caret_trace *t)
{
	if (!t)
		return;
	caret_api_free_gathered(t);
	ca_records_free(t->records);
	ca_records_free(t->run_records);
	ca_trace_free(t->trace);
	free(t);
}

void caret_trace_summary(const caret_trace *t, caret_summary *s)
{
	if (!s)
		return;
	*s = (caret_summary){ 0 };
	if (!t)
		return;
	const ca_architecture *a = ca_trace_architecture(t->trace);
	s->events = ca_trace_event_count(t->trace);
	s->other_events = ca_trace_unknown_count(t->trace);
	s->discarded = ca_trace_discarded(t->trace);
	ca_model_time_span(t->trace, &s->first_ns, &s->last_ns);
	s->processes = a->n_processes;
	for (size_t i = 0; i < a->n_nodes; i++)
		s->nodes += !a->nodes[i].hidden;
	for (size_t i = 0; i < a->n_callbacks; i++)
		s->callbacks += !a->callbacks[i].hidden;
	s->communications = t->n_comms;
	s->reader_note = ca_trace_reader_note(t->trace);
	s->epoch_offset_ns = t->trace->epoch_offset;
	ca_trace_read_span(t->trace, &s->read_first_ns, &s->read_last_ns);
	size_t merged = ca_trace_rows(t->trace, "ros2_caret:merged_publish_timing");
	s->rcl_publish_recorded = merged || ca_trace_rows(t->trace, "ros2:rcl_publish");
	s->dds_write_recorded = merged || ca_trace_rows(t->trace, "ros2_caret:dds_write");
}

/* Records built in a pass of their own (a lazy open's), or NULL with *error. */
static ca_records *records_now(caret_trace *t, const ca_records_options *o, caret_error **error)
{
	char err[1024];
	ca_records *r = ca_records_build_options(t->trace, o, err, sizeof err);
	if (!r)
		caret_error_add(error, strstr(err, "memory") ? CARET_ERR_NO_MEMORY : CARET_ERR_IO,
			NULL, -1, NULL, "%s", err);
	return r;
}

const ca_records *caret_api_records(caret_trace *t, caret_error **error)
{
	if (!t->records)
		t->records = records_now(t, &every_record, error);
	return t->records;
}

const ca_records *caret_api_run_records(caret_trace *t, caret_error **error)
{
	if (t->records)
		return t->records;
	if (!t->run_records)
		t->run_records = records_now(t, &runs_alone, error);
	return t->run_records;
}

/* ---- a path's latency ------------------------------------------------------------- */

struct caret_path_latency {
	ca_path_latency *l;
	size_t topics;    /* the path's */
	uint64_t *stamps; /* caret_path_latency_stamps, made when first asked for */
};

_Static_assert(sizeof(caret_path_message) == sizeof(ca_path_message) &&
	offsetof(caret_path_message, last_end_ns) == offsetof(ca_path_message, last_end),
	"caret_path_message is ca_path_message's layout");

_Static_assert((int)CARET_RESPONSE_WORST_WITH_EXTERNAL_LATENCY ==
	(int)CA_RESPONSE_WORST_WITH_EXTERNAL_LATENCY && (int)CARET_RESPONSE_BEST ==
	(int)CA_RESPONSE_BEST, "caret_response_case is ca_response_case");

static const ca_node_policy policies[] = {
	[CARET_POLICY_USE_LATEST_MESSAGE] = CA_POLICY_USE_LATEST_MESSAGE,
	[CARET_POLICY_CALLBACK_CHAIN] = CA_POLICY_CALLBACK_CHAIN,
	[CARET_POLICY_INHERIT_UNIQUE_STAMP] = CA_POLICY_INHERIT_UNIQUE_STAMP,
	[CARET_POLICY_CONSUME_LATEST_MESSAGE] = CA_POLICY_CONSUME_LATEST_MESSAGE,
};

/* The path followed as `caret path latency` follows it: a pass of its own
 * over the events with the records of the path's nodes alone, each message
 * followed as the events come (ca_records_options.follow). Over the
 * trace's joined arrays every fact of every node would be sorted first
 * (ca_follow_unordered): on a 5-hop path of 5 M events 1.5 s against 0.9 s
 * for the pass. A path the scan cannot follow (tf, inherited stamps) is
 * followed over the records of its nodes. NULL (err set): not followed. */
static ca_path_latency *follow_streamed(const caret_trace *t, const ca_path *p,
	ca_node_policy policy, char *err, size_t err_size)
{
	ca_records_options o = { .nodes = p->nodes, .n_nodes = p->node_count, .follow = p,
		.follow_policy = policy };
	ca_records *r = ca_records_build_options(t->trace, &o, err, err_size);
	ca_path_latency *l = r ? ca_path_latency_build(r, p, policy, err, err_size) : NULL;
	ca_records_free(r);
	return l;
}

/* A path as caret_path says: two nodes or more, each name given, each
 * policy one of caret_policy's (false with *error naming what is not). */
static bool valid_path(const caret_path *path, caret_error **error)
{
	if (!API_GIVEN(path, error) || !API_GIVEN(path->nodes, error) ||
	    !API_GIVEN(path->topics, error))
		return false;
	const char *bad = path->n_nodes < 2 ? "n_nodes" : NULL;
	size_t at = 0;
	for (size_t i = 0; !bad && i < path->n_nodes; i++) {
		at = i;
		if (!path->nodes[i])
			bad = "nodes";
		else if (i + 1 < path->n_nodes && !path->topics[i])
			bad = "topics";
		else if (path->policies && (path->policies[i] < CARET_POLICY_DEFAULT ||
			 path->policies[i] > CARET_POLICY_CONSUME_LATEST_MESSAGE))
			bad = "policies";
	}
	if (!bad)
		return true;
	if (!strcmp(bad, "n_nodes"))
		caret_error_add(error, CARET_ERR_INVALID, NULL, -1, NULL, "caret_follow_path: "
			"path->n_nodes is %zu: a path needs at least two nodes", path->n_nodes);
	else if (!strcmp(bad, "policies"))
		caret_error_add(error, CARET_ERR_INVALID, NULL, -1, NULL, "caret_follow_path: "
			"path->policies[%zu] is %d, not a caret_policy (-1 to 3)", at,
			(int)path->policies[at]);
	else
		caret_error_add(error, CARET_ERR_INVALID, NULL, -1, NULL, "caret_follow_path: "
			"path->%s[%zu] is NULL", bad, at);
	return false;
}

caret_status caret_follow_path(caret_trace *t, const caret_path *path, caret_policy policy,
	caret_path_latency **latency, caret_error **error)
{
	char err[1024];
	if (latency)
		*latency = NULL;
	if (!error)
		return CARET_ERR_INVALID;
	*error = NULL;
	if (!API_GIVEN_TRACE(t, error) || !API_GIVEN(latency, error) || !valid_path(path, error))
		return CARET_ERR_INVALID;
	if ((unsigned)policy >= sizeof policies / sizeof *policies) {
		caret_error_add(error, CARET_ERR_INVALID, NULL, -1, NULL, "caret_follow_path: "
			"policy %d is not one of the path policies (0 to %zu)", (int)policy,
			sizeof policies / sizeof *policies - 1);
		return CARET_ERR_INVALID;
	}
	ca_node_policy *per_node = path->policies ? calloc(path->n_nodes, sizeof *per_node) : NULL;
	for (size_t i = 0; per_node && i < path->n_nodes; i++) {
		caret_policy k = path->policies[i];
		per_node[i] = k == CARET_POLICY_DEFAULT ? CA_POLICY_DEFAULT : policies[k];
	}
	ca_path p = { path->n_nodes, path->nodes, path->topics, per_node };
	caret_path_latency *out = calloc(1, sizeof *out);
	strcpy(err, "out of memory");
	if (!out || (path->policies && !per_node) ||
	    !(out->l = follow_streamed(t, &p, policies[policy], err, sizeof err))) {
		caret_error_add(error, !out || strstr(err, "memory") ? CARET_ERR_NO_MEMORY :
			CARET_ERR_NOT_FOUND, NULL, -1, NULL, "%s", err);
		caret_path_latency_free(out);
		free(per_node);
		return caret_error_status(*error);
	}
	free(per_node);
	out->topics = path->n_nodes - 1;
	*latency = out;
	return CARET_OK;
}

size_t caret_path_latency_messages(const caret_path_latency *latency,
	const caret_path_message **messages, const int64_t **hops, size_t *hop_count)
{
	const ca_path_message *m = NULL;
	size_t n = latency ? ca_path_latency_messages(latency->l, &m, hops) : 0;
	if (messages)
		*messages = (const caret_path_message *)m;
	if (hop_count)
		*hop_count = latency ? ca_path_latency_hop_count(latency->l) : 0;
	if (!latency && hops)
		*hops = NULL;
	return n;
}

void caret_path_latency_free(caret_path_latency *latency)
{
	if (!latency)
		return;
	ca_path_latency_free(latency->l);
	free(latency->stamps);
	free(latency);
}

size_t caret_path_latency_stamps(const caret_path_latency *latency, const uint64_t **stamps,
	size_t *columns)
{
	size_t cols = 0;
	if (latency && !latency->stamps) /* the rows kept with it once made */
		((caret_path_latency *)latency)->stamps = caret_api_path_stamps(latency->l,
			latency->topics, &cols);
	if (stamps)
		*stamps = latency ? latency->stamps : NULL;
	if (columns)
		*columns = latency ? 5 * latency->topics + 2 : 0;
	return latency && latency->stamps ? ca_path_latency_messages(latency->l,
		&(const ca_path_message *){ NULL }, NULL) : 0;
}

bool caret_path_latency_column(const caret_path_latency *latency, size_t column, uint64_t *out)
{
	if (!latency || column >= 5 * latency->topics + 2 || !out)
		return false;
	caret_api_path_column(latency->l, latency->topics, column, out);
	return true;
}

bool caret_path_latency_topic(const caret_path_latency *latency, size_t topic,
	caret_path_topic *seen)
{
	if (!latency || topic >= latency->topics || !seen)
		return false;
	ca_path_topic_seen s = ca_path_latency_topic(latency->l, topic);
	*seen = (caret_path_topic){ s.intra, s.inter };
	return true;
}

caret_status caret_path_response_times(const caret_path_latency *latency, bool first_callback,
	bool last_callback, caret_response_case which, uint64_t *inputs, int64_t *times,
	size_t *n, caret_error **error)
{
	if (n)
		*n = 0;
	if (!error)
		return CARET_ERR_INVALID;
	*error = NULL;
	if (!API_GIVEN(latency, error) || !API_GIVEN(inputs, error) || !API_GIVEN(times, error) ||
	    !API_GIVEN(n, error))
		return CARET_ERR_INVALID;
	if ((unsigned)which > CARET_RESPONSE_WORST_WITH_EXTERNAL_LATENCY) {
		caret_error_add(error, CARET_ERR_INVALID, NULL, -1, NULL, "caret_path_response_times: "
			"which is %d, not a caret_response_case (0 to 3)", (int)which);
		return CARET_ERR_INVALID;
	}
	/* caret_response_case's values are ca_response_case's */
	size_t count = ca_path_response_times(latency->l, (ca_path_span){ first_callback,
		last_callback }, (ca_response_case)which, inputs, times);
	if (count == (size_t)-1) {
		caret_error_add(error, CARET_ERR_NO_MEMORY, NULL, -1, NULL, "out of memory");
		return CARET_ERR_NO_MEMORY;
	}
	*n = count;
	return CARET_OK;
}
