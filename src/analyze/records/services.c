/*
 * services.c - ca_service_calls_*: each service request followed from the
 * client's rmw_send_request to the service's rmw_take_request, and its
 * response from the service's rmw_send_response to the client's
 * rmw_take_response (Kilted's events, ros2; or the tracer's, ros2_caret,
 * on Humble and Jazzy: the same fields).
 *
 * A response is the client's by its DDS source timestamp: the service's
 * send_response carries it, the client's take_response finds it. That
 * also tells the client's gid as the service sees it (send_response's
 * client_gid), where no rmw_client_init gave it. A request is the
 * service's take of (the client's gid, the sequence number) -- or, the gid
 * unknown, the take of that sequence number nearest the send by a service
 * of the client's name. A send is recorded once the rmw has written it,
 * so the other side's take may come before it in the trace: a pair known
 * by its keys is not held to an order, only what is matched by time.
 */
#include <stdlib.h>
#include <string.h>

#include "model.h"
#include "records.h"
#include "trace.h"
#include "vec.h"

/* One rmw event of a kind, of either provider. */
struct event {
	uint64_t time, gid, stamp;
	int64_t pid, tid, seq;
	size_t object; /* client or service index; CA_NONE: unknown */
	bool used;
};

struct ca_service_calls {
	CA_ARRAY(ca_service_call, calls);
	CA_ARRAY(ca_client_run, runs); /* by pid, tid, start */
	uint64_t not_sent; /* requests taken whose send is not in the trace */
};

enum kind { SEND_REQUEST, TAKE_REQUEST, SEND_RESPONSE, TAKE_RESPONSE, KINDS };

static const struct {
	enum cs_event_id ids[2];
	const char *handle, *gid, *stamp, *taken;
	bool of_client;
} kinds[KINDS] = {
	[SEND_REQUEST] = { { CS_EV_ros2_rmw_send_request, CS_EV_ros2_caret_rmw_send_request },
		"rmw_client_handle", NULL, NULL, NULL, true },
	[TAKE_REQUEST] = { { CS_EV_ros2_rmw_take_request, CS_EV_ros2_caret_rmw_take_request },
		"rmw_service_handle", "client_gid", NULL, "taken", false },
	[SEND_RESPONSE] = { { CS_EV_ros2_rmw_send_response, CS_EV_ros2_caret_rmw_send_response },
		"rmw_service_handle", "client_gid", "timestamp", NULL, false },
	[TAKE_RESPONSE] = { { CS_EV_ros2_rmw_take_response, CS_EV_ros2_caret_rmw_take_response },
		"rmw_client_handle", NULL, "source_timestamp", "taken", true },
};

/* The client (or service) of an rmw handle in a process, or CA_NONE. */
static size_t object_of(const ca_architecture *a, bool client, int64_t pid, uint64_t handle)
{
	size_t n = client ? a->n_clients : a->n_services;
	for (size_t i = n; i-- > 0;) /* the latest: an address may be reused */
		if (client ? a->clients[i].pid == pid && a->clients[i].rmw_handle == handle :
			     a->services[i].pid == pid && a->services[i].rmw_handle == handle)
			return i;
	return CA_NONE;
}

static int by_object_seq_time(const void *x, const void *y)
{
	const struct event *a = x, *b = y;
	if (a->object != b->object)
		return a->object < b->object ? -1 : 1;
	if (a->seq != b->seq)
		return a->seq < b->seq ? -1 : 1;
	return (a->time > b->time) - (a->time < b->time);
}

static int by_time(const void *x, const void *y)
{
	const struct event *a = x, *b = y;
	return (a->time > b->time) - (a->time < b->time);
}

struct events {
	struct event *items;
	size_t n, cap;
};

/* Every event of kind k (taken ones only), sorted by object, sequence
 * number and time; -1 when out of memory. */
static int gather(const ca_trace *t, const ca_architecture *a, enum kind k, struct events *out)
{
	for (size_t p = 0; p < 2; p++) {
		enum cs_event_id id = kinds[k].ids[p];
		const struct ca_table *tb = &t->tables[id];
		const uint64_t *handle = ca_table_column(t, id, kinds[k].handle);
		const uint64_t *seq = ca_table_column(t, id, "sequence_number");
		const uint64_t *gid = kinds[k].gid ? ca_table_column(t, id, kinds[k].gid) : NULL;
		const uint64_t *stamp = kinds[k].stamp ? ca_table_column(t, id, kinds[k].stamp) : NULL;
		const uint64_t *taken = kinds[k].taken ? ca_table_column(t, id, kinds[k].taken) : NULL;
		for (size_t r = 0; r < tb->rows; r++) {
			if (taken && !taken[r])
				continue;
			struct event *e = VEC_PUSH(out->items, out->n, out->cap);
			if (!e)
				return -1;
			*e = (struct event){ .time = tb->time[r], .gid = gid ? gid[r] : 0,
				.stamp = stamp ? stamp[r] : 0, .pid = tb->vpid[r], .tid = tb->vtid[r],
				.seq = (int64_t)seq[r],
				.object = object_of(a, kinds[k].of_client, tb->vpid[r], handle[r]) };
		}
	}
	if (out->n > 1)
		qsort(out->items, out->n, sizeof *out->items,
			k == SEND_REQUEST ? by_time : by_object_seq_time);
	return 0;
}

/* The first unused event of (object, seq) at or after time for which
 * fits(e, key) holds (NULL: any), or NULL. */
static struct event *first_of(struct events *ev, size_t object, int64_t seq, uint64_t time,
	bool (*fits)(const struct event *, uint64_t), uint64_t key);

static uint64_t distance(uint64_t a, uint64_t b)
{
	return a > b ? a - b : b - a;
}

/* The unused event of (object, seq) nearest time for which fits(e, key)
 * holds, or NULL. */
static struct event *nearest_of(struct events *ev, size_t object, int64_t seq, uint64_t time,
	bool (*fits)(const struct event *, uint64_t), uint64_t key)
{
	struct event *best = NULL;
	for (struct event *e = first_of(ev, object, seq, 0, NULL, 0);
	     e && e < ev->items + ev->n && e->object == object && e->seq == seq; e++)
		if (!e->used && (!fits || fits(e, key)) &&
		    (!best || distance(e->time, time) < distance(best->time, time)))
			best = e;
	return best;
}

static struct event *first_of(struct events *ev, size_t object, int64_t seq, uint64_t time,
	bool (*fits)(const struct event *, uint64_t), uint64_t key)
{
	size_t lo = 0, hi = ev->n;
	struct event probe = { .object = object, .seq = seq, .time = 0 };
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (by_object_seq_time(&ev->items[mid], &probe) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (; lo < ev->n && ev->items[lo].object == object && ev->items[lo].seq == seq; lo++) {
		struct event *e = &ev->items[lo];
		if (!e->used && e->time >= time && (!fits || fits(e, key)))
			return e;
	}
	return NULL;
}

static bool gid_is(const struct event *e, uint64_t gid)
{
	return e->gid == gid;
}

static bool stamp_is(const struct event *e, uint64_t stamp)
{
	return e->stamp == stamp;
}

static int by_stamp(const void *x, const void *y)
{
	const struct event *a = *(struct event *const *)x, *b = *(struct event *const *)y;
	return (a->stamp > b->stamp) - (a->stamp < b->stamp);
}

/* The clients' gids: rmw_client_init's, else the client_gid of the
 * send_response whose stamp one of its take_responses found. */
static int client_gids(const ca_trace *t, const ca_architecture *a, struct events *ev,
	uint64_t *gid)
{
	for (size_t p = 0; p < 2; p++) {
		enum cs_event_id id = p ? CS_EV_ros2_caret_rmw_client_init : CS_EV_ros2_rmw_client_init;
		const uint64_t *handle = ca_table_column(t, id, "rmw_client_handle");
		const uint64_t *key = ca_table_column(t, id, "gid");
		for (size_t r = 0; r < t->tables[id].rows; r++) {
			size_t c = object_of(a, true, t->tables[id].vpid[r], handle[r]);
			if (c != CA_NONE && key[r])
				gid[c] = key[r];
		}
	}
	size_t n = ev[SEND_RESPONSE].n;
	struct event **sent = malloc((n + 1) * sizeof *sent);
	if (!sent)
		return -1;
	for (size_t i = 0; i < n; i++)
		sent[i] = &ev[SEND_RESPONSE].items[i];
	qsort(sent, n, sizeof *sent, by_stamp);
	for (size_t i = 0; i < ev[TAKE_RESPONSE].n; i++) {
		const struct event *took = &ev[TAKE_RESPONSE].items[i];
		if (!took->stamp || took->object == CA_NONE || gid[took->object])
			continue;
		struct event key = { .stamp = took->stamp }, *pkey = &key;
		struct event **s = bsearch(&pkey, sent, n, sizeof *sent, by_stamp);
		if (s && (*s)->gid)
			gid[took->object] = (*s)->gid;
	}
	free(sent);
	return 0;
}

/* The service take of a request: by the client's gid when known, else the
 * take of its sequence number nearest it by a service of its name. */
static struct event *take_of(const ca_architecture *a, struct events *taken, size_t client,
	int64_t seq, uint64_t sent, uint64_t gid)
{
	struct event *best = NULL;
	for (size_t s = 0; s < a->n_services; s++) {
		if (!a->services[s].name || !a->clients[client].name ||
		    strcmp(a->services[s].name, a->clients[client].name))
			continue;
		struct event *e = gid ? first_of(taken, s, seq, 0, gid_is, gid) : NULL;
		if (e)
			return e;
		e = nearest_of(taken, s, seq, sent, NULL, 0);
		if (e && (!best || distance(e->time, sent) < distance(best->time, sent)))
			best = e;
	}
	return best;
}

/* ---- client runs ---------------------------------------------------------- */

static int run_by_thread_start(const void *a, const void *b)
{
	const ca_client_run *x = a, *y = b;
	return ca_thread_time_order(x->pid, x->tid, x->start, y->pid, y->tid, y->start);
}

/* The run of (pid, tid) that began last at or before time, if it had not
 * ended before it; CA_NONE otherwise. */
static size_t client_run_at(const ca_service_calls *x, int64_t pid, int64_t tid, uint64_t time)
{
	ca_client_run key = { pid, tid, time, 0 };
	size_t lo = 0, hi = x->n_runs;
	while (lo < hi) { /* the first run after the key */
		size_t mid = lo + (hi - lo) / 2;
		if (run_by_thread_start(&x->runs[mid], &key) <= 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!lo)
		return CA_NONE;
	const ca_client_run *r = &x->runs[lo - 1];
	return r->pid == pid && r->tid == tid && (!r->end || r->end >= time) ? lo - 1 : CA_NONE;
}

/* Each client_callback_start with the next end of its thread (none:
 * the run threw, or the trace ended first). */
static int client_runs(const ca_trace *t, ca_service_calls *x)
{
	const struct ca_table *s = &t->tables[CS_EV_ros2_caret_client_callback_start];
	const struct ca_table *e = &t->tables[CS_EV_ros2_caret_client_callback_end];
	for (size_t i = 0; i < s->rows; i++) {
		ca_client_run *r = VEC_PUSH(x->runs, x->n_runs, x->cap_runs);
		if (!r)
			return -1;
		*r = (ca_client_run){ s->vpid[i], s->vtid[i], s->time[i], 0 };
	}
	if (x->n_runs > 1)
		qsort(x->runs, x->n_runs, sizeof *x->runs, run_by_thread_start);
	for (size_t i = 0; i < e->rows; i++) {
		size_t k = client_run_at(x, e->vpid[i], e->vtid[i], e->time[i]);
		if (k != CA_NONE && !x->runs[k].end)
			x->runs[k].end = e->time[i];
	}
	return 0;
}

static int follow(const ca_trace *t, ca_service_calls *x)
{
	const ca_architecture *a = ca_trace_architecture(t);
	struct events ev[KINDS] = { { 0 } };
	uint64_t *gid = calloc(a->n_clients + 1, sizeof *gid);
	int rc = -1;
	if (!gid)
		goto out;
	for (int k = 0; k < KINDS; k++)
		if (gather(t, a, (enum kind)k, &ev[k]))
			goto out;
	if (client_gids(t, a, ev, gid) || client_runs(t, x))
		goto out;
	for (size_t i = 0; i < ev[SEND_REQUEST].n; i++) {
		const struct event *send = &ev[SEND_REQUEST].items[i];
		ca_service_call *c = VEC_PUSH(x->calls, x->n_calls, x->cap_calls);
		if (!c)
			goto out;
		*c = (ca_service_call){ .client = send->object, .service = CA_NONE,
			.sequence_number = send->seq, .send_request = send->time,
			.client_pid = send->pid, .service_pid = -1, .client_tid = send->tid,
			.client_run = CA_NONE };
		if (send->object == CA_NONE)
			continue;
		struct event *take = take_of(a, &ev[TAKE_REQUEST], send->object, send->seq,
			send->time, gid[send->object]);
		if (!take)
			continue;
		take->used = true;
		c->service = take->object;
		c->service_pid = take->pid;
		c->service_tid = take->tid;
		c->take_request = take->time;
		struct event *reply = first_of(&ev[SEND_RESPONSE], take->object, send->seq,
			take->time, gid_is, take->gid);
		if (!reply)
			continue;
		reply->used = true;
		c->send_response = reply->time;
		struct event *back = reply->stamp ? first_of(&ev[TAKE_RESPONSE], send->object,
			send->seq, 0, stamp_is, reply->stamp) : NULL;
		if (!back) /* no stamp on either side: by time */
			back = nearest_of(&ev[TAKE_RESPONSE], send->object, send->seq, reply->time,
				stamp_is, 0);
		if (!back && !reply->stamp)
			back = nearest_of(&ev[TAKE_RESPONSE], send->object, send->seq, reply->time,
				NULL, 0);
		if (back) {
			back->used = true;
			c->take_response = back->time;
			c->response_tid = back->tid;
			c->client_run = client_run_at(x, back->pid, back->tid, back->time);
		}
	}
	for (size_t i = 0; i < ev[TAKE_REQUEST].n; i++)
		x->not_sent += !ev[TAKE_REQUEST].items[i].used;
	rc = 0;
out:
	for (int k = 0; k < KINDS; k++)
		free(ev[k].items);
	free(gid);
	return rc;
}

ca_service_calls *ca_service_calls_build(const ca_trace *trace, char *err, size_t err_size)
{
	ca_service_calls *x = calloc(1, sizeof *x);
	if (!x || follow(trace, x)) {
		ca_service_calls_free(x);
		snprintf(err, err_size, "out of memory");
		return NULL;
	}
	return x;
}

size_t ca_service_calls_get(const ca_service_calls *calls, const ca_service_call **out)
{
	*out = calls->calls;
	return calls->n_calls;
}

size_t ca_service_calls_client_runs(const ca_service_calls *calls, const ca_client_run **runs)
{
	*runs = calls->runs;
	return calls->n_runs;
}

uint64_t ca_service_calls_not_sent(const ca_service_calls *calls)
{
	return calls->not_sent;
}

void ca_service_calls_free(ca_service_calls *calls)
{
	if (!calls)
		return;
	free(calls->calls);
	free(calls->runs);
	free(calls);
}
