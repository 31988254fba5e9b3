/*
 * tb_app - runs one process of a testbed system description: its nodes,
 * callback groups, publishers, subscriptions, timers, services and clients
 * on the runtime, spun by the described executors, until SIGINT/SIGTERM or
 * the duration ends. tb-launch starts one per process.
 *
 * usage: tb_app SYSTEM --process NAME [--truth DIR] [--duration S]
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "system.h"
#include "tbrt/runtime.h"

#define MAX_STAMPS 64 /* remembered per input for same_stamp matching */

struct stamped {
	int64_t stamp, origin;
};

struct app_node;

/* What one timer or subscription callback does. */
struct app_callback {
	struct app_node *an;
	const struct tb_sys_work *work;
	tb_publisher **pubs;
	size_t n_pubs;
	tb_client **clients;
	size_t n_clients;
	int input;           /* subscription: index among the node's inputs */
	int use_latest;      /* timer: input whose latest stamp it forwards, -1 */
};

struct app_node {
	const struct tb_sys_node *sn;
	tb_node *node;
	pthread_mutex_t lock;
	struct stamped *latest;      /* per input */
	bool *has_latest;
	struct stamped (*recent)[MAX_STAMPS]; /* per input, same_stamp */
	size_t *n_recent;
	tb_publisher **all_pubs;     /* every topic the node publishes */
	size_t n_all_pubs;
	struct app_callback *callbacks; /* subscriptions, then timers */
	bool sink;
};

static tb_context *g_ctx;

static void on_signal(int sig)
{
	(void)sig;
	if (g_ctx)
		tb_context_shutdown(g_ctx);
}

/* Busy-waits mean ± jitter (uniform): simulated work. */
static void do_work(const struct tb_sys_work *w)
{
	static _Thread_local unsigned seed;
	if (!seed)
		seed = (unsigned)(getpid() ^ (uintptr_t)&seed);
	if (w->mean_ns <= 0)
		return;
	int64_t d = w->mean_ns;
	if (w->jitter_ns > 0)
		d += (int64_t)(rand_r(&seed) % (2 * w->jitter_ns + 1)) - w->jitter_ns;
	int64_t until = tb_now() + d;
	while (tb_now() < until)
		;
}

static void publish_all(tb_publisher **pubs, size_t n, int64_t stamp, int64_t origin)
{
	for (size_t i = 0; i < n; i++)
		if (!tb_publish(pubs[i], stamp, origin))
			fprintf(stderr, "tb_app: publish failed: %s\n", tb_last_error());
}

static void on_timer(tb_timer *timer, void *user)
{
	struct app_callback *cb = user;
	struct app_node *an = cb->an;
	int64_t start = tb_now(), stamp = start, origin = start;
	bool have = true;

	(void)timer;
	if (cb->use_latest >= 0) {
		pthread_mutex_lock(&an->lock);
		have = an->has_latest[cb->use_latest];
		stamp = an->latest[cb->use_latest].stamp;
		origin = an->latest[cb->use_latest].origin;
		pthread_mutex_unlock(&an->lock);
	}
	do_work(cb->work);
	if (have)
		publish_all(cb->pubs, cb->n_pubs, stamp, origin);
	for (size_t i = 0; i < cb->n_clients; i++)
		if (!tb_client_send(cb->clients[i]))
			fprintf(stderr, "tb_app: request failed: %s\n", tb_last_error());
}

static bool recent_has(struct app_node *an, size_t input, int64_t stamp,
	int64_t *origin)
{
	for (size_t i = 0; i < an->n_recent[input]; i++)
		if (an->recent[input][i].stamp == stamp) {
			*origin = an->recent[input][i].origin;
			return true;
		}
	return false;
}

static void recent_remove(struct app_node *an, size_t input, int64_t stamp)
{
	for (size_t i = 0; i < an->n_recent[input]; i++)
		if (an->recent[input][i].stamp == stamp) {
			an->recent[input][i] = an->recent[input][--an->n_recent[input]];
			return;
		}
}

/* same_stamp: the inputs complete a set for msg's stamp? Then the set's
 * earliest origin is returned in *origin and the set is forgotten. */
static bool complete_set(struct app_node *an, int input, const tb_message *msg,
	int64_t *origin)
{
	size_t n_inputs = an->sn->n_subscriptions;
	struct stamped *r = an->recent[input];

	if (an->n_recent[input] == MAX_STAMPS) /* forget the oldest */
		memmove(r, r + 1, (MAX_STAMPS - 1) * sizeof *r);
	an->n_recent[input] -= an->n_recent[input] == MAX_STAMPS;
	r[an->n_recent[input]++] = (struct stamped){ msg->stamp, msg->origin };

	*origin = msg->origin;
	for (size_t i = 0; i < n_inputs; i++) {
		int64_t o;
		if (!recent_has(an, i, msg->stamp, &o))
			return false;
		if (o < *origin)
			*origin = o;
	}
	for (size_t i = 0; i < n_inputs; i++)
		recent_remove(an, i, msg->stamp);
	return true;
}

static void on_message(tb_subscription *sub, const tb_message *msg, bool intra,
	void *user)
{
	struct app_callback *cb = user;
	struct app_node *an = cb->an;
	int64_t origin = msg->origin;
	bool publish = cb->n_pubs > 0;

	(void)intra;
	pthread_mutex_lock(&an->lock);
	an->latest[cb->input] = (struct stamped){ msg->stamp, msg->origin };
	an->has_latest[cb->input] = true;
	if (an->sn->same_stamp)
		publish = complete_set(an, cb->input, msg, &origin);
	pthread_mutex_unlock(&an->lock);

	do_work(cb->work);
	if (publish && an->sn->same_stamp)
		publish_all(an->all_pubs, an->n_all_pubs, msg->stamp, origin);
	else if (publish)
		publish_all(cb->pubs, cb->n_pubs, msg->stamp, origin);
	if (an->sink)
		tb_record_chain_end(sub, msg, tb_now());
}

static void on_request(tb_service *service, const tb_call *request, void *user)
{
	(void)service;
	(void)request;
	do_work(user);
}

/* ---- building the process ----------------------------------------------- */

static tb_callback_group *find_group(struct app_node *an, tb_callback_group *const *groups,
	const char *name)
{
	if (!name)
		return NULL;
	for (size_t i = 0; i < an->sn->n_groups; i++)
		if (!strcmp(an->sn->groups[i].name, name))
			return groups[i];
	return NULL;
}

static tb_publisher *publisher_for(struct app_node *an, const char *topic,
	const struct tb_system *sys)
{
	for (size_t i = 0; i < an->n_all_pubs; i++)
		if (!strcmp(tb_publisher_topic(an->all_pubs[i]), topic))
			return an->all_pubs[i];
	size_t payload = sys->default_payload, depth = sys->default_depth;
	for (size_t i = 0; i < an->sn->n_publishers; i++)
		if (!strcmp(an->sn->publishers[i].topic, topic)) {
			if (an->sn->publishers[i].payload)
				payload = an->sn->publishers[i].payload;
			if (an->sn->publishers[i].depth)
				depth = an->sn->publishers[i].depth;
		}
	tb_publisher *pub = tb_publisher_create(an->node, topic, depth, payload);
	if (pub)
		an->all_pubs[an->n_all_pubs++] = pub;
	return pub;
}

static int make_publishers(struct app_callback *cb, const struct tb_sys_strings *topics,
	const struct tb_system *sys)
{
	cb->pubs = calloc(topics->count + 1, sizeof *cb->pubs);
	for (size_t i = 0; i < topics->count; i++)
		if (!(cb->pubs[cb->n_pubs++] = publisher_for(cb->an, topics->items[i], sys)))
			return -1;
	return 0;
}

static size_t count_published(const struct tb_sys_node *n)
{
	size_t c = 0;
	for (size_t i = 0; i < n->n_timers; i++)
		c += n->timers[i].publish.count;
	for (size_t i = 0; i < n->n_subscriptions; i++)
		c += n->subscriptions[i].publish.count;
	return c;
}

static char *symbol(const char *node, const char *what)
{
	char *s = NULL;
	if (asprintf(&s, "tb_app::Node<%s>::%s", node, what) < 0)
		return NULL;
	return s;
}

static int build_node(struct app_node *an, const struct tb_system *sys)
{
	const struct tb_sys_node *sn = an->sn;
	size_t n_in = sn->n_subscriptions;

	pthread_mutex_init(&an->lock, NULL);
	an->latest = calloc(n_in + 1, sizeof *an->latest);
	an->has_latest = calloc(n_in + 1, sizeof *an->has_latest);
	an->recent = calloc(n_in + 1, sizeof *an->recent);
	an->n_recent = calloc(n_in + 1, sizeof *an->n_recent);
	an->all_pubs = calloc(count_published(sn) + 1, sizeof *an->all_pubs);
	an->callbacks = calloc(n_in + sn->n_timers + 1, sizeof *an->callbacks);
	an->sink = tb_sys_node_is_sink(sn);
	an->node = tb_node_create(g_ctx, sn->name, sn->ns);
	if (!an->node)
		return -1;

	tb_callback_group *groups[64] = { 0 };
	if (sn->n_groups > 64) {
		fprintf(stderr, "tb_app: %s: more than 64 callback groups\n", sn->fqn);
		return -1;
	}
	for (size_t i = 0; i < sn->n_groups; i++)
		groups[i] = tb_group_create(an->node, sn->groups[i].type);

	for (size_t i = 0; i < n_in; i++) {
		const struct tb_sys_subscription *s = &sn->subscriptions[i];
		struct app_callback *cb = &an->callbacks[i];
		cb->an = an;
		cb->work = &s->work;
		cb->input = (int)i;
		if (make_publishers(cb, &s->publish, sys) != 0)
			return -1;
		char what[512];
		snprintf(what, sizeof what, "on_message(%s)", s->topic);
		char *sym = symbol(sn->fqn, what);
		tb_subscription *sub = tb_subscription_create(an->node, s->topic,
			s->depth ? s->depth : sys->default_depth,
			find_group(an, groups, s->group), on_message, cb, sym);
		free(sym);
		if (!sub)
			return -1;
	}
	for (size_t i = 0; i < sn->n_services; i++) {
		const struct tb_sys_service *s = &sn->services[i];
		char what[512];
		snprintf(what, sizeof what, "on_request(%s)", s->name);
		char *sym = symbol(sn->fqn, what);
		tb_service *srv = tb_service_create(an->node, s->name,
			find_group(an, groups, s->group), on_request,
			(void *)&s->work, sym);
		free(sym);
		if (!srv)
			return -1;
	}
	for (size_t i = 0; i < sn->n_timers; i++) {
		const struct tb_sys_timer *t = &sn->timers[i];
		struct app_callback *cb = &an->callbacks[n_in + i];
		cb->an = an;
		cb->work = &t->work;
		cb->use_latest = -1;
		for (size_t k = 0; t->use_latest && k < n_in; k++)
			if (!strcmp(sn->subscriptions[k].topic, t->use_latest))
				cb->use_latest = (int)k;
		if (make_publishers(cb, &t->publish, sys) != 0)
			return -1;
		cb->clients = calloc(t->call.count + 1, sizeof *cb->clients);
		for (size_t k = 0; k < t->call.count; k++)
			if (!(cb->clients[cb->n_clients++] = tb_client_create(an->node,
				      t->call.items[k], find_group(an, groups, t->group),
				      NULL, NULL)))
				return -1;
		char what[64];
		snprintf(what, sizeof what, "on_timer_%zu()", i);
		char *sym = symbol(sn->fqn, what);
		tb_timer *timer = tb_timer_create(an->node, t->period_ns,
			find_group(an, groups, t->group), on_timer, cb, sym);
		free(sym);
		if (!timer)
			return -1;
	}
	return 0;
}

static void free_node(struct app_node *an)
{
	size_t n = an->sn ? an->sn->n_subscriptions + an->sn->n_timers : 0;

	for (size_t i = 0; an->callbacks && i < n; i++) {
		free(an->callbacks[i].pubs);
		free(an->callbacks[i].clients);
	}
	free(an->callbacks);
	free(an->all_pubs);
	free(an->latest);
	free(an->has_latest);
	free(an->recent);
	free(an->n_recent);
	if (an->sn)
		pthread_mutex_destroy(&an->lock);
}

static void *spin(void *exec)
{
	if (tb_executor_spin(exec) != 0)
		fprintf(stderr, "tb_app: executor stopped: %s\n", tb_last_error());
	return NULL;
}

static int usage(void)
{
	fprintf(stderr, "usage: tb_app SYSTEM --process NAME [--truth DIR] [--duration S]\n");
	return 2;
}

int main(int argc, char **argv)
{
	const char *path = NULL, *process = NULL, *truth = NULL;
	double duration = 0;
	char err[1024];

	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--process") && i + 1 < argc)
			process = argv[++i];
		else if (!strcmp(argv[i], "--truth") && i + 1 < argc)
			truth = argv[++i];
		else if (!strcmp(argv[i], "--duration") && i + 1 < argc)
			duration = atof(argv[++i]);
		else if (!strcmp(argv[i], "--help"))
			return usage(), 0;
		else if (argv[i][0] != '-' && !path)
			path = argv[i];
		else
			return usage();
	}
	if (!path || !process)
		return usage();

	struct tb_system *sys = tb_system_load(path, err, sizeof err);
	if (!sys) {
		fprintf(stderr, "tb_app: %s\n", err);
		return 2;
	}
	const struct tb_sys_process *pr = tb_system_process(sys, process);
	if (!pr) {
		fprintf(stderr, "tb_app: %s has no process '%s'\n", path, process);
		tb_system_free(sys);
		return 2;
	}

	struct sigaction sa = { .sa_handler = on_signal };
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);

	struct tb_context_options o = {
		.process_name = pr->name, .domain_id = -1,
		.intra_process = pr->intra_process, .truth_dir = truth,
	};
	g_ctx = tb_context_create(&o);
	if (!g_ctx) {
		fprintf(stderr, "tb_app: %s\n", tb_last_error());
		tb_system_free(sys);
		return 1;
	}

	int status = 0;
	struct app_node *nodes = calloc(pr->n_nodes + 1, sizeof *nodes);
	for (size_t i = 0; i < pr->n_nodes && !status; i++) {
		nodes[i].sn = &pr->nodes[i];
		if (build_node(&nodes[i], sys) != 0) {
			fprintf(stderr, "tb_app: node %s: %s\n", pr->nodes[i].fqn, tb_last_error());
			status = 1;
		}
	}

	/* No executor described: one single-threaded executor spins all. */
	size_t n_exec = pr->n_executors ? pr->n_executors : 1;
	tb_executor **execs = calloc(n_exec, sizeof *execs);
	for (size_t i = 0; i < n_exec && !status; i++) {
		const struct tb_sys_executor *se = pr->n_executors ? &pr->executors[i] : NULL;
		execs[i] = tb_executor_create(g_ctx,
			se ? se->type : TB_EXECUTOR_SINGLE_THREADED, se ? se->threads : 1);
		if (!execs[i]) {
			status = 1;
			break;
		}
		for (size_t j = 0; j < pr->n_nodes && !status; j++) {
			bool mine = !se;
			for (size_t k = 0; se && k < se->nodes.count; k++)
				mine |= tb_sys_process_node(pr, se->nodes.items[k]) == &pr->nodes[j];
			if (mine && tb_executor_add_node(execs[i], nodes[j].node) != 0)
				status = 1;
		}
	}
	if (status)
		fprintf(stderr, "tb_app: %s\n", tb_last_error());

	pthread_t *threads = calloc(n_exec, sizeof *threads);
	size_t started = 0;
	for (size_t i = 0; i < n_exec && !status; i++, started++)
		if (pthread_create(&threads[i], NULL, spin, execs[i]) != 0)
			status = 1;

	int64_t deadline = duration > 0 ? tb_now() + (int64_t)(duration * 1e9) : INT64_MAX;
	while (!status && tb_context_ok(g_ctx) && tb_now() < deadline) {
		struct timespec ts = { 0, 20000000 };
		nanosleep(&ts, NULL);
	}
	tb_context_shutdown(g_ctx);
	for (size_t i = 0; i < started; i++)
		pthread_join(threads[i], NULL);

	tb_context_destroy(g_ctx);
	for (size_t i = 0; i < pr->n_nodes; i++)
		free_node(&nodes[i]);
	free(nodes);
	free(execs);
	free(threads);
	tb_system_free(sys);
	return status;
}
