/*
 * control_thread.c - the tracer's control endpoint (seed 004,
 * ../shared/reference/control-plane.md): a thread with its own DDS
 * participant, named caret_trace_<uuid>, in the domain of the
 * application's nodes. Start -> PREPARE: caret_init, then the stored
 * initialization events replayed at the requested pace, then RECORD.
 * End -> WAIT. Status is published on every transition and about once a
 * second. A Start is ignored when no session on this host records our
 * events. Its own DDS traffic is never recorded.
 *
 * The endpoint never creates the application's DDS domain: rmw_cyclonedds
 * creates it (with its own configuration) when the first node is made, and
 * fails if it already exists. So the endpoint is opened in the thread that
 * has just made a node (the node keeps the domain alive meanwhile), joining
 * that domain and its discovery settings. When rmw deletes the domain with
 * its last node, the participant goes with it; the next node opens a new
 * one. A process that never makes a node has no thread and no DDS.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>
#include <unistd.h>

#include "control.h"
#include "filter.h"
#include "init_store.h"
#include "thread_names.h"
#include "ros2_caret_tp.h"
#include "original.h"
#include "tracer.h"

#define STATUS_PERIOD_NS 1000000000LL
#define BURST 256 /* records replayed between checks for new commands */

/* The endpoint: replaced by node-making threads when it is gone, read by
 * the control thread (whose calls on a deleted one simply fail). */
static pthread_mutex_t ep_lock = PTHREAD_MUTEX_INITIALIZER;
static struct cc_endpoints ep;
static struct cc_endpoints live; /* the control thread's copy of ep */
/* Owned by the library, not by a participant: they outlive the domain. */
static dds_entity_t waitset, wakeup;
static pthread_t thread;
static atomic_bool started, stopping;
static atomic_bool status_due; /* a new endpoint or node: Status now */
static char name[64];
static pid_t started_in; /* the process that started the thread */

/* Node names for Status, in creation order. */
static pthread_mutex_t nodes_lock = PTHREAD_MUTEX_INITIALIZER;
static char **nodes;
static size_t n_nodes;
static char **status_names; /* the control thread's: nodes, then warnings */

void ct_control_note_node(const char *fqn)
{
	pthread_mutex_lock(&nodes_lock);
	char **grown = realloc(nodes, (n_nodes + 1) * sizeof *nodes);
	if (grown) {
		nodes = grown;
		nodes[n_nodes] = strdup(fqn);
		n_nodes += nodes[n_nodes] != NULL;
	}
	pthread_mutex_unlock(&nodes_lock);
}

static int wire_state(void)
{
	switch (atomic_load(&ct_state)) {
	case CT_STATE_PREPARE: return CC_PREPARE;
	case CT_STATE_RECORD: return CC_RECORD;
	default: return CC_WAIT;
	}
}

/* Status: the node names, then (reserved in the original, so compatible)
 * the tracer's warnings as entries that are not node names ("warning: "). */
static void publish_status(void)
{
	cc_status s = { .caret_node_name = name, .status = (int8_t)wire_state(),
		.pid = getpid() };
	static char warnings[2][600];
	const char *problems[2] = { ct_filter_problems(), ct_reported_problem() };
	for (size_t i = 0; i < 2; i++)
		if (problems[i] && !warnings[i][0])
			snprintf(warnings[i], sizeof warnings[i], "%s%s", CC_STATUS_WARNING,
				problems[i]);

	pthread_mutex_lock(&nodes_lock);
	char **names = realloc(status_names, (n_nodes + 2) * sizeof *names);
	if (names) {
		status_names = names;
		if (n_nodes)
			memcpy(names, nodes, n_nodes * sizeof *names);
		size_t n = n_nodes;
		for (size_t i = 0; i < 2; i++)
			if (problems[i])
				names[n++] = warnings[i];
		s.node_names._buffer = names;
		s.node_names._length = s.node_names._maximum = (uint32_t)n;
		dds_write(live.status, &s);
	}
	pthread_mutex_unlock(&nodes_lock);
}

/* The latest valid command of a reader: its source time, or 0 if none. */
static dds_time_t take_latest(dds_entity_t reader, uint32_t *frequency)
{
	void *samples[8] = { NULL };
	dds_sample_info_t infos[8];
	dds_time_t latest = 0;
	dds_return_t n;

	while ((n = dds_take(reader, samples, infos, 8, 8)) > 0) {
		for (int i = 0; i < n; i++) {
			if (!infos[i].valid_data || infos[i].source_timestamp < latest)
				continue;
			latest = infos[i].source_timestamp;
			if (frequency)
				*frequency = ((const cc_start *)samples[i])->recording_frequency;
		}
		dds_return_loan(reader, samples, n);
		memset(samples, 0, sizeof samples);
	}
	return latest;
}

static void set_state(int state)
{
	atomic_store(&ct_state, state);
	publish_status();
	ct_debug("%s: %s", name, cc_state_name(wire_state()));
}

static void sleep_ns(int64_t ns)
{
	struct timespec ts = { ns / 1000000000, ns % 1000000000 };
	nanosleep(&ts, NULL);
}

enum command { CMD_NONE, CMD_START, CMD_END };

/* The command that arrived last, if any. An End older than a Start still
 * counts (End then Start: record again from the start). A Start while a
 * recording is under way (PREPARE or RECORD) is ignored: a recorder
 * resending for latecomers, a flood, another client; End first to record
 * again. */
static enum command next_command(uint32_t *frequency)
{
	uint32_t asked = 0;
	dds_time_t end = take_latest(live.end, NULL);
	dds_time_t start = take_latest(live.start, &asked);

	if (!start && !end)
		return CMD_NONE;
	if (start && !lttng_ust_tracepoint_enabled(ros2_caret, caret_init)) {
		ct_debug("%s: Start ignored: no session on this host records ros2_caret", name);
		start = 0;
	}
	if (end && start > end && atomic_load(&ct_state) != CT_STATE_WAIT)
		set_state(CT_STATE_WAIT);
	if (start > end && atomic_load(&ct_state) != CT_STATE_WAIT) {
		ct_debug("%s: Start ignored: a recording is under way", name);
		start = 0;
	}
	if (!start && !end)
		return CMD_NONE;
	if (start > end) {
		*frequency = asked;
		return CMD_START;
	}
	return CMD_END;
}

/* Waits until the monotonic deadline for a command, publishing Status on
 * time meanwhile: pacing never delays End, Status or exit. */
static enum command wait_until(int64_t deadline, uint32_t *frequency, int64_t *last_status)
{
	for (;;) {
		enum command c = next_command(frequency);
		if (c != CMD_NONE)
			return c;
		if (atomic_load(&stopping))
			return CMD_END;
		int64_t now = ct_now();
		if (atomic_exchange(&status_due, false) || now - *last_status >= STATUS_PERIOD_NS) {
			publish_status();
			*last_status = now;
		}
		if (now >= deadline)
			return CMD_NONE;
		int64_t wait = deadline - now;
		dds_waitset_wait(waitset, NULL, 0, wait < DDS_MSECS(100) ? wait : DDS_MSECS(100));
		dds_set_guardcondition(wakeup, false);
	}
}

/* PREPARE: caret_init, then replay; returns the command that interrupted
 * it (End, or another recorder's Start), or CMD_NONE when RECORD was
 * reached. At a given frequency the records go in batches of a tenth of
 * a second, each followed by a wait that commands interrupt. */
static enum command prepare(uint32_t *frequency)
{
	set_state(CT_STATE_PREPARE);
	ct_emit_caret_init();
	struct ct_replay replay = { 0 };
	size_t replayed = 0;
	int64_t begun = ct_now(), last_status = begun;
	for (;;) {
		uint32_t pace = *frequency;
		size_t batch = pace ? (pace / 10 ? (pace / 10 < BURST ? pace / 10 : BURST) : 1) : BURST;
		size_t n = 0;
		while (n < batch && ct_store_replay_next(&replay))
			n++;
		replayed += n;
		enum command c;
		if (pace)
			c = wait_until(begun + (int64_t)((double)replayed * 1e9 / pace),
				frequency, &last_status);
		else {
			if (n == BURST)
				sleep_ns(200000); /* let the consumer drain the buffers */
			c = wait_until(0, frequency, &last_status);
		}
		if (c != CMD_NONE)
			return c;
		if (n < batch && ct_store_finish_replay(&replay))
			break;
	}
	publish_status();
	ct_debug("%s: RECORD after replaying %zu initialization records", name, replayed);
	return CMD_NONE;
}

static void *control_main(void *arg)
{
	(void)arg;
	ct_thread.in_control = true; /* our DDS writes are never recorded */
	pthread_setname_np(pthread_self(), CARET_CONTROL_THREAD_NAME);

	int64_t last_status = 0;
	while (!atomic_load(&stopping)) {
		dds_waitset_wait(waitset, NULL, 0, DDS_MSECS(500));
		dds_set_guardcondition(wakeup, false);
		pthread_mutex_lock(&ep_lock);
		live = ep;
		pthread_mutex_unlock(&ep_lock);
		if (!cc_alive(&live))
			continue; /* no node in this process now: the next one reopens */
		uint32_t frequency = 0;
		enum command c = next_command(&frequency);
		while (c != CMD_NONE && !atomic_load(&stopping)) {
			if (c == CMD_END) {
				if (atomic_load(&ct_state) != CT_STATE_WAIT)
					set_state(CT_STATE_WAIT);
				c = next_command(&frequency);
			} else {
				c = prepare(&frequency);
			}
			last_status = ct_now();
		}
		if (atomic_exchange(&status_due, false) || ct_now() - last_status >= STATUS_PERIOD_NS) {
			publish_status();
			last_status = ct_now();
		}
	}
	return NULL;
}

static void make_name(void)
{
	uint8_t u[16] = { 0 };
	if (getrandom(u, sizeof u, 0) != sizeof u) {
		uint64_t x = (uint64_t)ct_now() ^ ((uint64_t)getpid() << 32);
		memcpy(u, &x, sizeof x);
	}
	snprintf(name, sizeof name,
		"caret_trace_%02x%02x%02x%02x_%02x%02x_%02x%02x_%02x%02x_%02x%02x%02x%02x%02x%02x",
		u[0], u[1], u[2], u[3], u[4], u[5], u[6], u[7], u[8], u[9], u[10], u[11],
		u[12], u[13], u[14], u[15]);
}

/* The domain the application's rmw works in: ROS_DOMAIN_ID's if this
 * process has a participant there, else the one it has; -1 when it has
 * none. */
static int application_domain(void)
{
	dds_entity_t p[1];
	int domain = cc_domain_from_env();
	if (dds_lookup_participant((dds_domainid_t)domain, p, 1) > 0)
		return domain;
	for (int d = 0; d <= 232; d++)
		if (d != domain && dds_lookup_participant((dds_domainid_t)d, p, 1) > 0)
			return d;
	return -1;
}

/* The rmw does not use Cyclone DDS (Fast DDS...): the endpoint may create
 * its own domain, with the settings rmw_cyclonedds would use. */
static bool rmw_is_not_cyclone(void)
{
	/* librmw_implementation: in the global scope or rclpy's local one */
	const char *(*identifier)(void) = (const char *(*)(void))ct_original_lookup(
		"rmw_get_implementation_identifier");
	const char *id = identifier ? identifier() : NULL;
	return id && !strstr(id, "cyclonedds");
}

/* Opens the endpoint (ep_lock held); 0 or -1. */
static int open_endpoint(void)
{
	char err[256];
	int domain = application_domain();
	if (domain < 0 && rmw_is_not_cyclone())
		domain = cc_domain_from_env();
	if (domain < 0) {
		ct_debug("no control endpoint: the application has no DDS domain");
		return -1;
	}
	bool saved_in_control = ct_thread.in_control;
	ct_thread.in_control = true;
	int rc = cc_open(&ep, domain, CC_TRACER, err, sizeof err);
	if (rc == 0) {
		dds_waitset_attach(waitset, dds_create_readcondition(ep.start, DDS_ANY_STATE), 1);
		dds_waitset_attach(waitset, dds_create_readcondition(ep.end, DDS_ANY_STATE), 2);
	}
	ct_thread.in_control = saved_in_control;
	if (rc != 0)
		ct_debug("no control endpoint: %s", err);
	else
		ct_debug("%s: control endpoint in DDS domain %d", name, domain);
	return rc;
}

/* The thread, once per process (ep_lock held). */
static void start_thread(void)
{
	started_in = getpid();
	make_name();
	waitset = dds_create_waitset(DDS_CYCLONEDDS_HANDLE);
	wakeup = dds_create_guardcondition(DDS_CYCLONEDDS_HANDLE);
	if (waitset < 0 || wakeup < 0 || dds_waitset_attach(waitset, wakeup, 0) < 0) {
		ct_debug("cannot wait for control messages");
		return;
	}
	/* The application's signals are not ours to receive. */
	sigset_t all, old;
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	if (pthread_create(&thread, NULL, control_main, NULL) == 0)
		atomic_store(&started, true);
	else
		ct_debug("cannot start the control thread");
	pthread_sigmask(SIG_SETMASK, &old, NULL);
}

void ct_control_node_created(void)
{
	static bool tried; /* the thread, once */
	pthread_mutex_lock(&ep_lock);
	if (started_in < 0) { /* a forked child: Cyclone does not survive a fork */
		pthread_mutex_unlock(&ep_lock);
		return;
	}
	if (!tried) {
		tried = true;
		start_thread();
	}
	if (atomic_load(&started) && !cc_alive(&ep)) {
		cc_close(&ep); /* what the deleted domain left: nothing, or our own domain */
		open_endpoint();
	}
	pthread_mutex_unlock(&ep_lock);
	if (atomic_load(&started)) {
		atomic_store(&status_due, true); /* a Status with the new node */
		dds_set_guardcondition(wakeup, true);
	}
}

/* At exit: stop the thread, then leave the DDS domain. A forked child has
 * no control thread (and does not start one: Cyclone does not survive a
 * fork), so it must not join its parent's. */

__attribute__((destructor)) static void control_stop(void)
{
	if (!atomic_load(&started) || started_in != getpid())
		return;
	atomic_store(&stopping, true);
	dds_set_guardcondition(wakeup, true);
	struct timespec until;
	clock_gettime(CLOCK_REALTIME, &until);
	until.tv_sec += 2;
	if (pthread_timedjoin_np(thread, NULL, &until) != 0)
		return;
	pthread_mutex_lock(&ep_lock);
	cc_close(&ep);
	pthread_mutex_unlock(&ep_lock);
	dds_delete(waitset);
	dds_delete(wakeup);
}

static void in_child(void)
{
	started_in = -1; /* no endpoint, no thread in a forked child */
}

__attribute__((constructor)) static void control_register_fork(void)
{
	pthread_atfork(NULL, NULL, in_child);
}
