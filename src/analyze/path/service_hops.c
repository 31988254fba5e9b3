/*
 * service_hops.c - a path's hops through a service. "request:SERVICE" goes
 * from a run that sent a request of SERVICE to the service callback's run
 * that took it; "response:SERVICE" from that run to the client's run that
 * took the response (rclcpp sends it just after the service's run ended) (caret-c's client_callback_start/end:
 * rclcpp has no run of its own for it). Calls come from ca_service_calls;
 * runs of the records are found by their thread and start, and the
 * publishes of a client's run by its thread and time (records give them no
 * run). docs/latency.md, "Paths through services".
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "path.h"
#include "records.h"
#include "sort_r.h"

struct ca_service_hops {
	const struct ca_records *r;
	ca_service_calls *x;
	const ca_service_call *calls;
	const ca_client_run *client_runs;
	size_t n_calls, n_client_runs;
	size_t *by_send;      /* calls by (client pid, tid, send_request) */
	size_t *by_response;  /* calls by (service pid, tid, send_response) */
	size_t *free_publishes, n_free; /* publishes in no run, by (pid, tid, time) */
};

bool ca_topic_is_request(const char *topic)
{
	return topic && !strncmp(topic, CA_REQUEST_PREFIX, strlen(CA_REQUEST_PREFIX));
}

bool ca_topic_is_response(const char *topic)
{
	return topic && !strncmp(topic, CA_RESPONSE_PREFIX, strlen(CA_RESPONSE_PREFIX));
}

/* ---- orders --------------------------------------------------------------- */

static int send_order(const void *a, const void *b, void *ctx)
{
	const struct ca_service_hops *sorting = ctx;
	const ca_service_call *x = &sorting->calls[*(const size_t *)a];
	const ca_service_call *y = &sorting->calls[*(const size_t *)b];
	return ca_thread_time_order(x->client_pid, x->client_tid, x->send_request, y->client_pid,
		y->client_tid, y->send_request);
}

static int response_order(const void *a, const void *b, void *ctx)
{
	const struct ca_service_hops *sorting = ctx;
	const ca_service_call *x = &sorting->calls[*(const size_t *)a];
	const ca_service_call *y = &sorting->calls[*(const size_t *)b];
	return ca_thread_time_order(x->service_pid, x->service_tid, x->send_response, y->service_pid,
		y->service_tid, y->send_response);
}

static int publish_order(const void *a, const void *b, void *ctx)
{
	const struct ca_service_hops *sorting = ctx;
	const ca_publish_instance *x = &sorting->r->publishes[*(const size_t *)a];
	const ca_publish_instance *y = &sorting->r->publishes[*(const size_t *)b];
	return ca_thread_time_order(x->pid, x->tid, ca_publish_time(x), y->pid, y->tid,
		ca_publish_time(y));
}

static size_t *indexes(size_t n, caret_sort_cmp *order, struct ca_service_hops *h)
{
	size_t *v = malloc((n + 1) * sizeof *v);
	if (!v)
		return NULL;
	for (size_t i = 0; i < n; i++)
		v[i] = i;
	caret_sort_r(v, n, sizeof *v, order, h);
	return v;
}

/* The first of v[0..n) whose (pid, tid, time) key(i) is at or after the
 * one given. */
static size_t lower_bound(const size_t *v, size_t n, const struct ca_service_hops *h,
	void (*key)(const struct ca_service_hops *, size_t, int64_t *, int64_t *, uint64_t *),
	int64_t pid, int64_t tid, uint64_t time)
{
	size_t lo = 0, hi = n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int64_t p, t;
		uint64_t at;
		key(h, v[mid], &p, &t, &at);
		if (ca_thread_time_order(p, t, at, pid, tid, time) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

static void send_key(const struct ca_service_hops *h, size_t i, int64_t *p, int64_t *t,
	uint64_t *at)
{
	*p = h->calls[i].client_pid;
	*t = h->calls[i].client_tid;
	*at = h->calls[i].send_request;
}

static void response_key(const struct ca_service_hops *h, size_t i, int64_t *p, int64_t *t,
	uint64_t *at)
{
	*p = h->calls[i].service_pid;
	*t = h->calls[i].service_tid;
	*at = h->calls[i].send_response;
}

static void run_key(const struct ca_service_hops *h, size_t i, int64_t *p, int64_t *t,
	uint64_t *at)
{
	*p = h->r->runs[i].pid;
	*t = h->r->runs[i].tid;
	*at = h->r->runs[i].start;
}

static void publish_key(const struct ca_service_hops *h, size_t i, int64_t *p, int64_t *t,
	uint64_t *at)
{
	*p = h->r->publishes[i].pid;
	*t = h->r->publishes[i].tid;
	*at = ca_publish_time(&h->r->publishes[i]);
}

/* ---- building ------------------------------------------------------------- */

struct ca_service_hops *ca_service_hops_build(const struct ca_records *r)
{
	char err[64];
	struct ca_service_hops *h = calloc(1, sizeof *h);
	if (!h || !(h->x = ca_service_calls_build(r->t, err, sizeof err)))
		goto oom;
	h->r = r;
	h->n_calls = ca_service_calls_get(h->x, &h->calls);
	h->n_client_runs = ca_service_calls_client_runs(h->x, &h->client_runs);
	h->by_send = indexes(h->n_calls, send_order, h);
	h->by_response = indexes(h->n_calls, response_order, h);
	h->free_publishes = malloc((r->n_publishes + 1) * sizeof *h->free_publishes);
	if (!h->by_send || !h->by_response || !h->free_publishes)
		goto oom;
	for (size_t i = 0; i < r->n_publishes; i++)
		if (r->publishes[i].callback_instance == CA_NONE)
			h->free_publishes[h->n_free++] = i;
	caret_sort_r(h->free_publishes, h->n_free, sizeof *h->free_publishes, publish_order, h);
	return h;
oom:
	ca_service_hops_free(h);
	return NULL;
}

void ca_service_hops_free(struct ca_service_hops *h)
{
	if (!h)
		return;
	ca_service_calls_free(h->x);
	free(h->by_send);
	free(h->by_response);
	free(h->free_publishes);
	free(h);
}

/* ---- where the data is ---------------------------------------------------- */

static void span_of(const struct ca_service_hops *h, struct ca_hop_at at, int64_t *pid,
	int64_t *tid, uint64_t *start, uint64_t *end)
{
	if (at.client) {
		const ca_client_run *c = &h->client_runs[at.run];
		*pid = c->pid, *tid = c->tid, *start = c->start, *end = c->end;
	} else {
		const ca_callback_instance *x = &h->r->runs[at.run];
		*pid = x->pid, *tid = x->tid, *start = x->start, *end = x->end;
	}
}

uint64_t ca_hop_at_start(const struct ca_service_hops *h, struct ca_hop_at at)
{
	int64_t pid, tid;
	uint64_t start, end;
	span_of(h, at, &pid, &tid, &start, &end);
	return start;
}

uint64_t ca_hop_at_end(const struct ca_service_hops *h, struct ca_hop_at at)
{
	int64_t pid, tid;
	uint64_t start, end;
	span_of(h, at, &pid, &tid, &start, &end);
	return end;
}

static bool in_span(uint64_t t, uint64_t start, uint64_t end)
{
	return t >= start && (!end || t <= end);
}

static const char *node_name(const ca_architecture *a, size_t node)
{
	return node == CA_NONE ? NULL : a->nodes[node].fqn;
}

/* The service callback's run that took call c's request: the first run of
 * the service's thread from its take on (the records' runs by thread), of
 * node `node`; CA_NONE if none. */
static size_t serving_run(const struct ca_service_hops *h, const ca_service_call *c,
	const char *node)
{
	const struct ca_records *r = h->r;
	size_t i = lower_bound(r->by_thread, r->n_runs, h, run_key, c->service_pid,
		c->service_tid, c->take_request);
	if (i == r->n_runs)
		return CA_NONE;
	const ca_callback_instance *x = &r->runs[r->by_thread[i]];
	const ca_architecture *a = &r->m->arch;
	const char *serving = x->callback == CA_NONE ? NULL :
		node_name(a, a->callbacks[x->callback].node);
	if (x->pid != c->service_pid || x->tid != c->service_tid || !serving ||
	    strcmp(serving, node))
		return CA_NONE;
	return r->by_thread[i];
}

bool ca_service_hop(const struct ca_service_hops *h, struct ca_hop_at from, uint64_t since,
	const char *link, const char *node, uint64_t *sent, struct ca_hop_at *to)
{
	const ca_architecture *a = &h->r->m->arch;
	bool request = ca_topic_is_request(link);
	const char *service = link + strlen(request ? CA_REQUEST_PREFIX : CA_RESPONSE_PREFIX);
	int64_t pid, tid;
	uint64_t start, end;
	span_of(h, from, &pid, &tid, &start, &end);
	const size_t *v = request ? h->by_send : h->by_response;
	void (*key)(const struct ca_service_hops *, size_t, int64_t *, int64_t *, uint64_t *) =
		request ? send_key : response_key;
	*sent = 0;
	for (size_t k = lower_bound(v, h->n_calls, h, key, pid, tid, start > since ? start : since);
	     k < h->n_calls; k++) {
		const ca_service_call *c = &h->calls[v[k]];
		int64_t p, t;
		uint64_t at;
		key(h, v[k], &p, &t, &at);
		/* a request is sent in the run; rclcpp sends a service's response
		 * once its callback's run ended: the first one after the run's
		 * start, of the request taken before it */
		if (p != pid || t != tid || (request && !in_span(at, start, end)) ||
		    (!request && c->take_request > start))
			break;
		if (c->client == CA_NONE || strcmp(a->clients[c->client].name, service))
			continue;
		*sent = at;
		if (request) {
			to->run = c->service == CA_NONE ? CA_NONE : serving_run(h, c, node);
			to->client = false;
		} else {
			const char *client_node = node_name(a, a->clients[c->client].node);
			to->run = client_node && !strcmp(client_node, node) ? c->client_run : CA_NONE;
			to->client = true;
		}
		return to->run != CA_NONE;
	}
	return false;
}

size_t ca_service_hops_client_runs(const struct ca_service_hops *h)
{
	return h->n_client_runs;
}

size_t ca_service_hops_publishes(const struct ca_service_hops *h, size_t client_run,
	const size_t **publishes)
{
	const ca_client_run *c = &h->client_runs[client_run];
	size_t i = lower_bound(h->free_publishes, h->n_free, h, publish_key, c->pid, c->tid,
		c->start), k = i;
	for (; k < h->n_free; k++) {
		const ca_publish_instance *p = &h->r->publishes[h->free_publishes[k]];
		if (p->pid != c->pid || p->tid != c->tid || !in_span(ca_publish_time(p), c->start,
			c->end))
			break;
	}
	*publishes = h->free_publishes + i;
	return k - i;
}

/* ---- links between nodes -------------------------------------------------- */

/* The link "request:S" or "response:S" from node `from` to node `to`: the
 * one service S that `from` calls and `to` serves (or the other way); NULL
 * when none (err as it was) or several (err says so). The name is
 * malloc'd. */
char *ca_service_link(const ca_architecture *a, const char *from, const char *to, char *err,
	size_t err_size)
{
	const char *found = NULL;
	bool found_response = false;
	size_t n = 0;
	for (int response = 0; response < 2; response++)
		for (size_t c = 0; c < a->n_clients; c++) {
			const ca_client *client = &a->clients[c];
			const char *caller = node_name(a, client->node);
			if (!caller || strcmp(caller, response ? to : from) || !client->name)
				continue;
			for (size_t s = 0; s < a->n_services; s++) {
				const char *server = node_name(a, a->services[s].node);
				if (!server || strcmp(server, response ? from : to) ||
				    !a->services[s].name || strcmp(a->services[s].name, client->name) ||
				    (found && found_response == response && !strcmp(found, client->name)))
					continue;
				n++;
				found = client->name;
				found_response = response;
			}
		}
	if (n > 1)
		snprintf(err, err_size, "%s and %s share several services: name the path in an "
			"architecture file", from, to);
	if (n != 1)
		return NULL; /* none: err keeps why no topic links them */
	const char *prefix = found_response ? CA_RESPONSE_PREFIX : CA_REQUEST_PREFIX;
	size_t len = strlen(prefix) + strlen(found) + 1;
	char *name = malloc(len);
	if (name)
		snprintf(name, len, "%s%s", prefix, found);
	return name;
}
