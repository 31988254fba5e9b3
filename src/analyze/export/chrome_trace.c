/*
 * chrome_trace.c - the trace in the Trace Event format (JSON) that
 * Perfetto's UI and chrome://tracing open (ca_export_chrome_trace):
 *
 *  - per process (pid) and thread (tid) a track, named by the process and
 *    by the executor whose callbacks the thread ran (metadata events);
 *  - each callback run a complete slice ("X"), each publish a slice inside
 *    the run it happened in;
 *  - each message a flow ("s" at its publish, "f" bound to the enclosing
 *    slice, the callback run it started);
 *  - each call of a service a flow from its send to the service's run,
 *    and one from the response's send to the client's run
 *    (chrome_services.c);
 *  - each instance of a path an async slice ("b"/"e") from its start to its
 *    end, with a nested slice per hop, on the tracks of a process of its
 *    own (pid 0, named "caret paths").
 *
 * Times are microseconds since the trace's first event, with three
 * decimals (nanoseconds).
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "json.h"
#include "model.h"
#include "path.h"
#include "trace_event.h"

#define PATHS_PID 0

/* The user's callbacks (their services' too), or with all every one. */
static bool shown(const ca_architecture *a, size_t cb, bool all)
{
	return cb != CA_NONE && (all || ca_callback_is_users(a, cb));
}

struct thread {
	int64_t pid, tid;
	size_t executor;
};

/* The processes and the threads that ran shown callbacks, named. */
static int tracks(struct te_writer *w, const ca_architecture *a, const ca_callback_instance *runs,
	size_t n, bool all)
{
	struct thread *t = NULL;
	size_t n_t = 0, cap = 0;
	for (size_t i = 0; i < a->n_processes; i++) {
		const ca_process *p = &a->processes[i];
		char name[512];
		snprintf(name, sizeof name, "%s%s%s%s%s", p->procname ? p->procname : "process",
			p->distribution ? " (" : "", p->distribution ? p->distribution : "",
			p->distribution ? ", " : "", p->distribution ? (p->rmw_implementation ?
			p->rmw_implementation : "rmw unknown") : "");
		if (p->distribution)
			strncat(name, ")", sizeof name - strlen(name) - 1);
		te_metadata(w, "process_name", p->pid, 0, name);
	}
	for (size_t i = 0; i < n; i++) {
		if (!shown(a, runs[i].callback, all))
			continue;
		size_t k = 0;
		while (k < n_t && !(t[k].pid == runs[i].pid && t[k].tid == runs[i].tid))
			k++;
		if (k == n_t) {
			if (n_t == cap) {
				cap = cap ? 2 * cap : 16;
				struct thread *grown = realloc(t, cap * sizeof *t);
				if (!grown) {
					free(t);
					return -1;
				}
				t = grown;
			}
			t[n_t++] = (struct thread){ runs[i].pid, runs[i].tid,
				ca_model_callback_executor(a, runs[i].callback) };
		}
	}
	for (size_t k = 0; k < n_t; k++) {
		char name[512];
		if (t[k].executor != CA_NONE)
			snprintf(name, sizeof name, "%s (%s) tid %" PRId64, a->executors[t[k].executor].name,
				a->executors[t[k].executor].type ? a->executors[t[k].executor].type : "?",
				t[k].tid);
		else
			snprintf(name, sizeof name, "tid %" PRId64, t[k].tid);
		te_name_thread(w, t[k].pid, t[k].tid, name);
	}
	free(t);
	return 0;
}

static void runs_and_publishes(struct te_writer *w, const ca_architecture *a,
	const ca_records *r, uint64_t t_end, bool all)
{
	const ca_callback_instance *runs;
	const ca_publish_instance *pubs;
	size_t n = ca_records_callbacks(r, &runs), n_pubs = ca_records_publishes(r, &pubs);
	for (size_t i = 0; i < n; i++) {
		const ca_callback_instance *x = &runs[i];
		if (!shown(a, x->callback, all))
			continue;
		const ca_callback *c = &a->callbacks[x->callback];
		uint64_t end = x->end ? x->end : (t_end > x->start ? t_end : x->start);
		FILE *out = te_event(w, 'X');
		fputs(",\"cat\":\"callback\",\"name\":", out);
		json_string(out, c->name);
		fprintf(out, ",\"pid\":%" PRId64 ",\"tid\":%" PRId64 ",\"ts\":", x->pid, x->tid);
		te_us(out, w->t0, x->start);
		fputs(",\"dur\":", out);
		te_duration(out, end - x->start);
		fputs(",\"args\":{\"node\":", out);
		json_string(out, c->node != CA_NONE ? a->nodes[c->node].fqn : NULL);
		fprintf(out, ",\"run\":%zu%s}}", i, x->end ? "" : ",\"not_ended\":true");
	}
	for (size_t i = 0; i < n_pubs; i++) {
		const ca_publish_instance *p = &pubs[i];
		size_t run = p->callback_instance;
		if (p->publisher == CA_NONE || (run != CA_NONE && !shown(a, runs[run].callback, all)) ||
		    (!all && a->publishers[p->publisher].hidden))
			continue;
		uint64_t start = ca_publish_time(p), end = start;
		if (p->dds_write_time > end)
			end = p->dds_write_time;
		if (p->rcl_time > end)
			end = p->rcl_time;
		if (run != CA_NONE && runs[run].end && end > runs[run].end)
			end = runs[run].end; /* inside its run, as slices nest */
		char name[600];
		snprintf(name, sizeof name, "tid %" PRId64, p->tid); /* a publish outside runs */
		te_name_thread(w, p->pid, p->tid, name);
		FILE *out = te_event(w, 'X');
		fputs(",\"cat\":\"publish\",\"name\":", out);
		snprintf(name, sizeof name, "publish %s", a->publishers[p->publisher].topic);
		json_string(out, name);
		fprintf(out, ",\"pid\":%" PRId64 ",\"tid\":%" PRId64 ",\"ts\":", p->pid, p->tid);
		te_us(out, w->t0, start);
		fputs(",\"dur\":", out);
		te_duration(out, end - start);
		fprintf(out, ",\"args\":{\"publish\":%zu,\"intra\":%s}}", i, p->intra ? "true" : "false");
	}
}

/* Each message a flow from its publish to the run it started (ids 1 to
 * the count returned). */
static size_t flows(struct te_writer *w, const ca_architecture *a, const ca_records *r, bool all)
{
	const ca_communication *c;
	const ca_callback_instance *runs;
	const ca_publish_instance *pubs;
	size_t n = ca_records_communications(r, &c);
	ca_records_callbacks(r, &runs);
	ca_records_publishes(r, &pubs);
	for (size_t i = 0; i < n; i++) {
		if (c[i].publish == CA_NONE || c[i].callback_instance == CA_NONE)
			continue;
		const ca_publish_instance *p = &pubs[c[i].publish];
		const ca_callback_instance *x = &runs[c[i].callback_instance];
		if (p->publisher == CA_NONE || !shown(a, x->callback, all) ||
		    (p->callback_instance != CA_NONE && !shown(a, runs[p->callback_instance].callback,
		    all)) || (!all && a->publishers[p->publisher].hidden))
			continue;
		const char *topic = a->publishers[p->publisher].topic;
		FILE *out = te_event(w, 's');
		fputs(",\"cat\":\"message\",\"name\":", out);
		json_string(out, topic);
		fprintf(out, ",\"id\":%zu,\"pid\":%" PRId64 ",\"tid\":%" PRId64 ",\"ts\":", i + 1,
			p->pid, p->tid);
		te_us(out, w->t0, ca_publish_time(p));
		fputc('}', out);
		out = te_event(w, 'f');
		fputs(",\"bp\":\"e\",\"cat\":\"message\",\"name\":", out);
		json_string(out, topic);
		fprintf(out, ",\"id\":%zu,\"pid\":%" PRId64 ",\"tid\":%" PRId64 ",\"ts\":", i + 1,
			x->pid, x->tid);
		te_us(out, w->t0, x->start);
		fprintf(out, ",\"args\":{\"intra\":%s}}", c[i].intra ? "true" : "false");
	}
	return n;
}

static void async(struct te_writer *w, char phase, const char *name, const char *id, uint64_t t,
	const char *args)
{
	FILE *out = te_event(w, phase);
	fputs(",\"cat\":\"path\",\"name\":", out);
	json_string(out, name);
	fprintf(out, ",\"id\":\"%s\",\"pid\":%d,\"tid\":0,\"ts\":", id, PATHS_PID);
	te_us(out, w->t0, t);
	if (args)
		fprintf(out, ",\"args\":{%s}", args);
	fputc('}', out);
}

static void hop_name(const ca_path *p, size_t hop, size_t h, char *buf, size_t size)
{
	if (hop == 0 || hop == h - 1)
		snprintf(buf, size, "callback %s", p->nodes[hop / 2]);
	else if (hop % 2)
		snprintf(buf, size, "topic %s", p->topics[hop / 2]);
	else
		snprintf(buf, size, "node %s", p->nodes[hop / 2]);
}

/* Each instance of a path with an end under the original's default span
 * (the first publish to the last callback's start), its hops nested. */
static int path_instances(struct te_writer *w, const ca_records *r, const ca_path *p,
	const char *name, size_t index, char *err, size_t err_size)
{
	ca_path_latency *l = ca_path_latency_build(r, p, CA_POLICY_USE_LATEST_MESSAGE, err,
		err_size);
	if (!l)
		return -1;
	const ca_path_message *m;
	const int64_t *hops;
	size_t n = ca_path_latency_messages(l, &m, &hops), h = ca_path_latency_hop_count(l);
	const ca_path_span span = { false, false };
	for (size_t i = 0; i < n; i++) {
		uint64_t start, end;
		if (!ca_path_message_span(&m[i], span, &start, &end))
			continue;
		char id[64], args[128], hop[600];
		snprintf(id, sizeof id, "path%zu-%zu", index, i);
		snprintf(args, sizeof args, "\"message\":%zu,\"latency_us\":%.3f", i,
			(double)(end - start) / 1e3);
		async(w, 'b', name, id, start, args);
		uint64_t t = m[i].callback_start;
		for (size_t k = 0; k < h && hops[i * h + k] != CA_HOP_NONE; k++) {
			uint64_t d = (uint64_t)(hops[i * h + k] > 0 ? hops[i * h + k] : 0);
			if (ca_path_hop_in_span(k, h, span)) {
				hop_name(p, k, h, hop, sizeof hop);
				async(w, 'b', hop, id, t, NULL);
				async(w, 'e', hop, id, t + d < end ? t + d : end, NULL);
			}
			t += d;
		}
		async(w, 'e', name, id, end, NULL);
	}
	ca_path_latency_free(l);
	return 0;
}

int ca_export_chrome_trace(const ca_trace *trace, const ca_records *records,
	const ca_path *const *paths, const char *const *path_names, size_t n_paths, bool all,
	FILE *out, char *err, size_t err_size)
{
	const ca_architecture *a = ca_trace_architecture(trace);
	const ca_callback_instance *runs;
	size_t n = ca_records_callbacks(records, &runs);
	uint64_t t0, t1;
	ca_model_time_span(trace, &t0, &t1);
	struct te_writer w = { .out = out, .t0 = t0, .all = all };
	fputs("{\"displayTimeUnit\":\"ms\",\"otherData\":{\"generator\":\"caret export\","
		"\"time_base\":\"microseconds since the trace's first event\"},\"traceEvents\":[", out);
	int status = -1;
	if (tracks(&w, a, runs, n, all)) {
		snprintf(err, err_size, "out of memory");
		goto out;
	}
	if (n_paths)
		te_metadata(&w, "process_name", PATHS_PID, 0, "caret paths");
	runs_and_publishes(&w, a, records, t1, all);
	size_t flow_ids = flows(&w, a, records, all);
	if (te_service_calls(&w, trace, records, flow_ids + 1, err, err_size))
		goto out;
	for (size_t i = 0; i < n_paths; i++)
		if (path_instances(&w, records, paths[i], path_names[i], i, err, err_size))
			goto out;
	fputs("\n]}\n", out);
	status = 0;
	if (ferror(out)) {
		snprintf(err, err_size, "cannot write the trace");
		status = -1;
	}
out:
	free(w.named);
	return status;
}
