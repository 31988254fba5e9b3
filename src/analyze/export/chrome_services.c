/*
 * chrome_services.c - the service calls of the Trace Event export
 * (trace_event.h): for each call of the user's (every call with all), a
 * slice at the client's send of the request (inside the run that sent it,
 * if any), a flow from it to the service callback's run that took it, a
 * slice at the service's send of the response, a flow from it to the
 * client's run that took the response (rclcpp's execute_client: the take
 * and the response callback), a slice of its own. A service with no
 * callback run (rclcpp_action's, a waitable) gets a slice at its take,
 * the request's flow ending there (its response's thread is not in the
 * trace). A flow whose take the
 * trace places before its send (a send is recorded once the rmw has
 * written it) is left out: the format draws no arrow backwards in time.
 */
#define _GNU_SOURCE /* qsort_r */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "json.h"
#include "trace_event.h"

/* The runs of service callbacks, by process, thread and start. */
struct service_runs {
	const ca_callback_instance *runs;
	size_t *order, n;
};

static int by_thread_then_start(const void *x, const void *y, void *ctx)
{
	const ca_callback_instance *r = ctx;
	const ca_callback_instance *a = &r[*(const size_t *)x], *b = &r[*(const size_t *)y];
	if (a->pid != b->pid)
		return a->pid < b->pid ? -1 : 1;
	if (a->tid != b->tid)
		return a->tid < b->tid ? -1 : 1;
	return (a->start > b->start) - (a->start < b->start);
}

static bool service_runs_of(struct service_runs *s, const ca_architecture *a,
	const ca_records *records)
{
	size_t n = ca_records_callbacks(records, &s->runs);
	s->n = 0;
	if (!(s->order = malloc((n + 1) * sizeof *s->order)))
		return false;
	for (size_t i = 0; i < n; i++)
		if (s->runs[i].callback != CA_NONE &&
		    a->callbacks[s->runs[i].callback].kind == CA_CALLBACK_SERVICE)
			s->order[s->n++] = i;
	qsort_r(s->order, s->n, sizeof *s->order, by_thread_then_start, (void *)s->runs);
	return true;
}

/* The run of `callback` on the thread that took the request, the first
 * to start at or after the take; NULL when none. */
static const ca_callback_instance *service_run(const struct service_runs *s, size_t callback,
	int64_t pid, int64_t tid, uint64_t take)
{
	size_t lo = 0, hi = s->n;
	const ca_callback_instance key = { .pid = pid, .tid = tid, .start = take };
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		const ca_callback_instance *r = &s->runs[s->order[mid]];
		bool before = r->pid != key.pid ? r->pid < key.pid : r->tid != key.tid ?
			r->tid < key.tid : r->start < key.start;
		if (before)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (; lo < s->n; lo++) {
		const ca_callback_instance *r = &s->runs[s->order[lo]];
		if (r->pid != pid || r->tid != tid)
			return NULL;
		if (r->callback == callback)
			return r;
	}
	return NULL;
}

/* A slice of no duration (a moment: a send). */
static void moment(struct te_writer *w, const char *what, const char *name, int64_t pid,
	int64_t tid, uint64_t t, int64_t sequence)
{
	char label[600];
	snprintf(label, sizeof label, "%s %s", what, name);
	FILE *out = te_event(w, 'X');
	fputs(",\"cat\":\"service\",\"name\":", out);
	json_string(out, label);
	fprintf(out, ",\"pid\":%" PRId64 ",\"tid\":%" PRId64 ",\"ts\":", pid, tid);
	te_us(out, w->t0, t);
	fprintf(out, ",\"dur\":0,\"args\":{\"sequence_number\":%" PRId64 "}}", sequence);
}

/* A flow from (pid, tid, from) to the slice holding (pid2, tid2, to). */
static void flow(struct te_writer *w, size_t id, const char *name, int64_t pid, int64_t tid,
	uint64_t from, int64_t pid2, int64_t tid2, uint64_t to)
{
	for (int end = 0; end < 2; end++) {
		FILE *out = te_event(w, end ? 'f' : 's');
		fputs(end ? ",\"bp\":\"e\",\"cat\":\"service\",\"name\":" :
			",\"cat\":\"service\",\"name\":", out);
		json_string(out, name);
		fprintf(out, ",\"id\":%zu,\"pid\":%" PRId64 ",\"tid\":%" PRId64 ",\"ts\":", id,
			end ? pid2 : pid, end ? tid2 : tid);
		te_us(out, w->t0, end ? to : from);
		fputc('}', out);
	}
}

static void name_thread(struct te_writer *w, int64_t pid, int64_t tid)
{
	char name[64];
	snprintf(name, sizeof name, "tid %" PRId64, tid);
	te_name_thread(w, pid, tid, name);
}

/* Whether the service's take of a call is drawn: a take after the send,
 * of a service the export shows. */
static bool shown_take(const struct te_writer *w, const ca_architecture *a,
	const ca_service_call *c)
{
	return c->take_request >= c->send_request && c->service_pid >= 0 &&
		(w->all || ca_service_is_users(a, c->service));
}

/* One call: its request, then its response. */
static void one_call(struct te_writer *w, const ca_architecture *a, const ca_service_call *c,
	const struct service_runs *s, const ca_client_run *client_runs, size_t id)
{
	const char *name = c->client != CA_NONE ? a->clients[c->client].name :
		c->service != CA_NONE ? a->services[c->service].name : "?";
	size_t callback = c->service != CA_NONE ? a->services[c->service].callback : CA_NONE;
	/* the service's run, when the export has it (the user's, or all) */
	const ca_callback_instance *run = c->take_request && callback != CA_NONE &&
		(w->all || ca_callback_is_users(a, callback)) ?
		service_run(s, callback, c->service_pid, c->service_tid, c->take_request) : NULL;
	if (c->send_request) {
		name_thread(w, c->client_pid, c->client_tid);
		moment(w, "request", name, c->client_pid, c->client_tid, c->send_request,
			c->sequence_number);
	}
	if (c->send_request && run && run->start >= c->send_request)
		flow(w, id, name, c->client_pid, c->client_tid, c->send_request, run->pid,
			run->tid, run->start);
	else if (c->send_request && !run && shown_take(w, a, c)) {
		/* a service with no callback rclcpp traces (rclcpp_action's): its take */
		name_thread(w, c->service_pid, c->service_tid);
		moment(w, "take", name, c->service_pid, c->service_tid, c->take_request,
			c->sequence_number);
		flow(w, id, name, c->client_pid, c->client_tid, c->send_request, c->service_pid,
			c->service_tid, c->take_request);
	}
	if (!run || !c->send_response)
		return;
	moment(w, "response", name, run->pid, run->tid, c->send_response, c->sequence_number);
	if (c->client_run == CA_NONE || !c->take_response)
		return;
	const ca_client_run *back = &client_runs[c->client_run];
	uint64_t end = back->end ? back->end : back->start;
	char label[600];
	snprintf(label, sizeof label, "response callback %s", name);
	name_thread(w, back->pid, back->tid);
	FILE *out = te_event(w, 'X');
	fputs(",\"cat\":\"client\",\"name\":", out);
	json_string(out, label);
	fprintf(out, ",\"pid\":%" PRId64 ",\"tid\":%" PRId64 ",\"ts\":", back->pid, back->tid);
	te_us(out, w->t0, back->start);
	fputs(",\"dur\":", out);
	te_duration(out, end - back->start);
	fprintf(out, ",\"args\":{\"sequence_number\":%" PRId64 "}}", c->sequence_number);
	if (back->start >= c->send_response)
		flow(w, id + 1, name, run->pid, run->tid, c->send_response, back->pid, back->tid,
			back->start);
}

int te_service_calls(struct te_writer *w, const ca_trace *trace, const ca_records *records,
	size_t first_id, char *err, size_t err_size)
{
	const ca_architecture *a = ca_trace_architecture(trace);
	ca_service_calls *calls = ca_service_calls_build(trace, err, err_size);
	struct service_runs s = { 0 };
	if (!calls)
		return -1;
	if (!service_runs_of(&s, a, records)) {
		snprintf(err, err_size, "out of memory");
		ca_service_calls_free(calls);
		return -1;
	}
	const ca_service_call *c;
	const ca_client_run *client_runs;
	size_t n = ca_service_calls_get(calls, &c);
	ca_service_calls_client_runs(calls, &client_runs);
	for (size_t i = 0; i < n; i++)
		if (w->all || ca_client_is_users(a, c[i].client) || ca_service_is_users(a, c[i].service))
			one_call(w, a, &c[i], &s, client_runs, first_id + 2 * i);
	free(s.order);
	ca_service_calls_free(calls);
	return 0;
}
