/*
 * check.c - what the model says about the trace's fitness for latencies:
 * findings per process (and for the whole trace), each one line, with a
 * severity. ERROR means latencies from this trace would be wrong or
 * incomplete; caret check exits 1 on any.
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model.h"
#include "vec.h"

struct out {
	ca_trace *t;
	struct ca_model *m;
	bool oom;
};

static void say(struct out *o, ca_severity severity, int64_t pid, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
static void say(struct out *o, ca_severity severity, int64_t pid, const char *fmt, ...)
{
	char buf[1024];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	const char *text = ca_trace_string(o->t, ca_trace_intern(o->t, buf));
	ca_finding *f = VEC_PUSH(o->m->findings, o->m->n_findings, o->m->cap_findings);
	if (!f || !text) {
		o->oom = true;
		return;
	}
	*f = (ca_finding){ severity, pid, text };
}

static const char *plural(uint64_t n, const char *one, const char *many)
{
	return n == 1 ? one : many;
}

/* ---- the whole trace ---------------------------------------------------- */

/* Beyond a day, a clock offset is not a clock read beside another (a
 * caret_init's clock_offset and LTTng's clock differ by microseconds, two
 * hosts' offsets from the epoch by their clocks' disagreement): another
 * clock, a clock not set, or damage. */
#define PLAUSIBLE_SHIFT_NS (86400 * (int64_t)1000000000)

static bool implausible(int64_t shift)
{
	return shift > PLAUSIBLE_SHIFT_NS || shift < -PLAUSIBLE_SHIFT_NS;
}

/* Each host whose times were moved beyond a day onto the first host's
 * clock (the offsets from the epoch their metadata say), once. */
static void check_host_clocks(struct out *o)
{
	const struct ca_model *m = o->m;
	for (size_t i = 0; i < m->n_processes; i++) {
		const ca_process *p = &m->processes[i];
		bool said = false;
		for (size_t k = 0; k < i && !said; k++)
			said = m->processes[k].host && p->host && !strcmp(m->processes[k].host, p->host);
		if (!said && p->host && implausible(p->host_shift_ns))
			say(o, CA_WARNING, -1, "host %s: its clock offset from the epoch is %.1f days "
				"off the first host's (their traces' metadata): its times were moved by "
				"that much (is its clock set?)", p->host, (double)p->host_shift_ns / 86400e9);
	}
}

static void check_trace(struct out *o)
{
	const ca_trace *t = o->t;
	const struct ca_model *m = o->m;
	uint64_t init = 0;

	for (size_t i = 0; i < t->n_discarded_streams; i++) {
		const struct ca_discarded_stream *d = &t->discarded_streams[i];
		if (d->count)
			say(o, CA_ERROR, -1, "%" PRIu64 " %s discarded by LTTng in stream %s "
				"(buffers full): what happened in the gap is lost", d->count,
				plural(d->count, "event", "events"),
				ca_trace_string(t, d->name));
		if (d->packets)
			say(o, CA_ERROR, -1, "%" PRIu64 " %s lost from stream %s (a gap in "
				"their sequence numbers: overwritten, or their file cut or "
				"removed): what happened in them is lost", d->packets,
				plural(d->packets, "packet", "packets"),
				ca_trace_string(t, d->name));
	}
	for (size_t i = 0; i < m->n_processes; i++)
		init += m->processes[i].init_events;
	if (!init)
		say(o, CA_ERROR, -1, "no initialization events: the architecture cannot be "
			"rebuilt (start the session before the apps, or record with caret record)");
	check_host_clocks(o);
	if (t->unknown)
		say(o, CA_INFO, -1, "%" PRIu64 " %s outside the ROS 2 / CARET "
			"schema %s ignored", t->unknown, plural(t->unknown, "event of a type",
			"events of types"), plural(t->unknown, "was", "were"));
	if (m->dangling_links)
		say(o, CA_WARNING, -1, "%" PRIu64 " initialization %s name objects the trace "
			"never created", m->dangling_links,
			plural(m->dangling_links, "event", "events"));
	for (size_t i = 0; i < m->n_nodes; i++) {
		size_t same = 0, first = SIZE_MAX;
		for (size_t j = 0; j < m->n_nodes; j++)
			if (!strcmp(m->nodes[i].fqn, m->nodes[j].fqn)) {
				same++;
				if (first == SIZE_MAX)
					first = j;
			}
		if (same > 1 && first == i)
			say(o, CA_WARNING, -1, "node name %s is used by %zu nodes: "
				"their numbers are added up", m->nodes[i].fqn, same);
	}
}

/* ---- one process -------------------------------------------------------- */

/* Counts objects of one process failing a test, with the first as example. */
#define COUNT_MISSING(o, pid, array, test, severity, ...)                     \
	do {                                                                  \
		uint64_t n_ = 0;                                              \
		size_t first_ = SIZE_MAX;                                     \
		for (size_t i_ = 0; i_ < (o)->m->n_##array; i_++)             \
			if ((o)->m->array[i_].pid == (pid) && (test)(o, i_)) {  \
				if (!n_++)                                    \
					first_ = i_;                          \
			}                                                     \
		if (n_)                                                       \
			say(o, severity, pid, __VA_ARGS__);                   \
	} while (0)

static bool callback_without_node(struct out *o, size_t i)
{
	return o->m->callbacks[i].node == CA_NONE;
}

static bool callback_without_symbol(struct out *o, size_t i)
{
	return !o->m->callbacks[i].symbol;
}

static bool subscription_without_callback(struct out *o, size_t i)
{
	return o->m->subscriptions[i].callback == CA_NONE;
}

static bool service_without_callback(struct out *o, size_t i)
{
	return o->m->services[i].callback == CA_NONE;
}

static bool timer_without_node(struct out *o, size_t i)
{
	return o->m->timers[i].node == CA_NONE;
}

static bool timer_without_callback(struct out *o, size_t i)
{
	return o->m->timers[i].callback == CA_NONE;
}

static bool publisher_without_node(struct out *o, size_t i)
{
	return o->m->publishers[i].node == CA_NONE;
}

static size_t callback_group(const struct ca_model *m, const ca_callback *cb)
{
	return cb->kind == CA_CALLBACK_TIMER ? m->timers[cb->owner].group :
		cb->kind == CA_CALLBACK_SERVICE ? m->services[cb->owner].group :
		m->subscriptions[cb->owner].group;
}

static bool callback_without_group(struct out *o, size_t i)
{
	return callback_group(o->m, &o->m->callbacks[i]) == CA_NONE;
}

static bool group_without_node(struct out *o, size_t i)
{
	return o->m->groups[i].node == CA_NONE;
}

static bool group_without_executor(struct out *o, size_t i)
{
	return o->m->groups[i].executor == CA_NONE;
}

static void check_initialization(struct out *o, size_t p)
{
	const struct ca_model *m = o->m;
	int64_t pid = m->processes[p].pid;
	size_t n_callbacks = 0, n_executors = 0;

	for (size_t i = 0; i < m->n_callbacks; i++)
		n_callbacks += m->callbacks[i].pid == pid;
	for (size_t i = 0; i < m->n_executors; i++)
		n_executors += m->executors[i].pid == pid;

	COUNT_MISSING(o, pid, callbacks, callback_without_node, CA_ERROR,
		"%" PRIu64 " %s no node (e.g. callback at 0x%" PRIx64 "): its timer, "
		"subscription or service initialization is missing", n_,
		plural(n_, "callback has", "callbacks have"), m->callbacks[first_].address);
	COUNT_MISSING(o, pid, subscriptions, subscription_without_callback, CA_ERROR,
		"%" PRIu64 " %s no callback (e.g. %s): rclcpp_subscription_init or "
		"rclcpp_subscription_callback_added is missing", n_,
		plural(n_, "subscription has", "subscriptions have"),
		m->subscriptions[first_].topic);
	COUNT_MISSING(o, pid, services, service_without_callback, CA_ERROR,
		"%" PRIu64 " %s no callback (e.g. %s): rclcpp_service_callback_added is missing",
		n_, plural(n_, "service has", "services have"), m->services[first_].name);
	COUNT_MISSING(o, pid, timers, timer_without_node, CA_ERROR,
		"%" PRIu64 " %s no node (e.g. timer at 0x%" PRIx64 "): rclcpp_timer_link_node "
		"is missing", n_, plural(n_, "timer has", "timers have"),
		m->timers[first_].handle);
	COUNT_MISSING(o, pid, timers, timer_without_callback, CA_ERROR,
		"%" PRIu64 " %s no callback (e.g. timer at 0x%" PRIx64 "): "
		"rclcpp_timer_callback_added is missing", n_,
		plural(n_, "timer has", "timers have"), m->timers[first_].handle);
	COUNT_MISSING(o, pid, publishers, publisher_without_node, CA_ERROR,
		"%" PRIu64 " %s no node (e.g. %s): its node's rcl_node_init is missing", n_,
		plural(n_, "publisher has", "publishers have"), m->publishers[first_].topic);
	COUNT_MISSING(o, pid, callbacks, callback_without_symbol, CA_WARNING,
		"%" PRIu64 " %s no symbol (e.g. %s): rclcpp_callback_register is missing", n_,
		plural(n_, "callback has", "callbacks have"), m->callbacks[first_].name);
	if (n_callbacks && !n_executors) {
		say(o, CA_WARNING, pid, "no executor or callback group events "
			"(ros2_caret:construct_executor, add_callback_group, callback_group_add_*): "
			"executors and callback groups are unknown");
		return;
	}
	COUNT_MISSING(o, pid, callbacks, callback_without_group, CA_WARNING,
		"%" PRIu64 " %s in no known callback group (e.g. %s)", n_,
		plural(n_, "callback is", "callbacks are"), m->callbacks[first_].name);
	COUNT_MISSING(o, pid, groups, group_without_node, CA_INFO,
		"%" PRIu64 " callback %s no callbacks, so no known node (e.g. %s): "
		"left out of the architecture file", n_,
		plural(n_, "group has", "groups have"), m->groups[first_].name);
	COUNT_MISSING(o, pid, groups, group_without_executor, CA_WARNING,
		"%" PRIu64 " callback %s never added to an executor (e.g. %s)", n_,
		plural(n_, "group was", "groups were"), m->groups[first_].name);
}

static void check_clock_shift(struct out *o, const ca_process *proc)
{
	int64_t shift = proc->clock_shift;
	if (proc->unplaced_inits)
		say(o, CA_ERROR, proc->pid, "%" PRIu64 " replayed initialization %s could not be "
			"placed in time: caret_init's clock_offset %" PRId64 " moves them outside the "
			"clock's values (kept at their replay's time)", proc->unplaced_inits,
			plural(proc->unplaced_inits, "event", "events"), proc->clock_offset);
	else if (proc->caret_inits && implausible(shift))
		say(o, CA_WARNING, proc->pid, "caret_init's clock_offset %" PRId64 " moves the "
			"replayed initialization events by %.1f days (beyond a day: not the trace's "
			"clock; their times are unlikely)", proc->clock_offset, (double)shift / 86400e9);
}

static void check_caret_init(struct out *o, size_t p)
{
	const ca_process *proc = &o->m->processes[p];
	const uint64_t *per_event = o->t->pids[p].per_event;
	uint64_t caret_form = 0;

	for (size_t id = 0; id < CS_EVENT_COUNT; id++)
		if (cs_events[id].role == CS_ROLE_INIT && !strcmp(cs_events[id].provider, "ros2_caret"))
			caret_form += per_event[id];
	if (!proc->caret_inits && caret_form)
		say(o, CA_WARNING, proc->pid, "no caret_init: replayed initialization events "
			"are placed at their init_timestamp without correction");
	else if (!proc->caret_inits)
		say(o, CA_WARNING, proc->pid, "no caret_init: not recorded through libcaret.so "
			"(plain ros2_tracing events)");
	else if (proc->caret_inits > 1)
		say(o, CA_INFO, proc->pid, "%" PRIu64 " caret_init events: recording was started "
			"%" PRIu64 " times", proc->caret_inits, proc->caret_inits);
	check_clock_shift(o, proc);
}

/* The distribution of a ros2_tracing version (ros2:rcl_init's): Humble
 * 4.1, Iron 7.x, Jazzy 8.0-8.2, Kilted 8.3-8.6 (its services' events came
 * in 8.5), Rolling 8.7-8.10 between them, Lyrical 9.x; NULL otherwise. */
static const char *distribution_of(const char *version)
{
	unsigned major = 0, minor = 0;
	if (sscanf(version, "%u.%u", &major, &minor) != 2)
		return NULL;
	if (major == 4 && minor == 1)
		return "Humble";
	if (major == 7)
		return "Iron";
	if (major == 8)
		return minor <= 2 ? "Jazzy" : minor <= 6 ? "Kilted" : minor <= 10 ? "Rolling" : NULL;
	if (major == 9)
		return "Lyrical";
	return NULL;
}

/* Plain ros2_tracing events name their tracetools' version (rcl_init):
 * a distribution other than Humble and Jazzy is named, never guessed. */
static void check_distribution(struct out *o, size_t p)
{
	const ca_process *proc = &o->m->processes[p];
	const struct ca_table *tb = &o->t->tables[CS_EV_ros2_rcl_init];
	const uint64_t *version = ca_table_column(o->t, CS_EV_ros2_rcl_init, "version");
	for (size_t r = 0; r < tb->rows; r++) {
		if (tb->vpid[r] != proc->pid)
			continue;
		const char *v = ca_trace_string(o->t, version[r]);
		const char *d = v ? distribution_of(v) : NULL;
		if (!v || !*v)
			return;
		if (!d)
			say(o, CA_WARNING, proc->pid, "tracetools %s: a version of no distribution "
				"caret-c knows; its events are read as Jazzy's and Kilted's are", v);
		else if (strcmp(d, "Humble") && strcmp(d, "Jazzy"))
			say(o, CA_INFO, proc->pid, "tracetools %s: ROS 2 %s, whose ABI caret-c's "
				"tracer does not record (it forwards every call there); its ros2 "
				"events are read as they are", v, d);
		return;
	}
}

/* Jazzy's rmw_publish (and CARET's Jazzy dds_write) with the DDS source
 * timestamp of the write; callback runs for an intra-process message. */
struct flagged {
	uint64_t *stamped_writes, *intra_runs;
};

/* Whose trace has publishes and no DDS source timestamp: ros2_tracing's
 * alone (no caret_init), or the original CARET tracer's (caret_init, and
 * none of caret-c's tracetools_status) whose DDS stage recorded nothing:
 * on Cyclone DDS the source stamp, and the rmw's name, come from its hook
 * of dds_write_impl (update_dds_function_addr), which Debian's libddsc
 * does not export, so that the hook never runs. */
static const char *unstamped_because(const ca_process *proc)
{
	if (!proc->caret_inits)
		return "plain ros2_tracing: no CARET tracer recorded it";
	if (proc->tracetools_tracing == -1)
		return "the original CARET tracer's trace with no DDS stage: on Cyclone DDS its "
			"DDS hook is on dds_write_impl, which Debian's Cyclone DDS (libddsc0debian) "
			"does not export, so it never ran, nor recorded the rmw it records there";
	return "the tracer bound no publish to its DDS write";
}

static void check_no_stamps(struct out *o, size_t p)
{
	const ca_process *proc = &o->m->processes[p];
	const uint64_t *n = o->t->pids[p].per_event;
	uint64_t publishes = n[CS_EV_ros2_rclcpp_publish] + n[CS_EV_ros2_rcl_publish];
	if (!publishes)
		return;
	if (o->t->epoch_offset)
		say(o, CA_WARNING, proc->pid, "%" PRIu64 " publish events but no DDS source "
			"timestamps (ros2_caret:dds_bind_addr_to_stamp; %s): inter-process messages "
			"are matched by time instead (the subscriber's source timestamp against the "
			"publish on the trace clock plus its offset from the epoch; docs/latency.md)",
			publishes, unstamped_because(proc));
	else
		say(o, CA_ERROR, proc->pid, "%" PRIu64 " publish events but no DDS source "
			"timestamps (ros2_caret:dds_bind_addr_to_stamp; %s) and no clock offset in the "
			"trace: inter-process messages cannot be matched to the callbacks that take "
			"them", publishes, unstamped_because(proc));
}

static void check_runtime(struct out *o, size_t p, const struct flagged *f)
{
	const ca_process *proc = &o->m->processes[p];
	if (proc->tracetools_tracing == 0)
		say(o, CA_ERROR, proc->pid, "the process's libtracetools was built without LTTng "
			"(ros_trace_compile_status() is false): the ros2 runtime events it should "
			"emit (rmw_take, dispatch_*, and callback_start, rcl_publish unmerged) are "
			"missing; messages cannot be linked (install a tracetools built with LTTng)");
	if (proc->tracer_warning)
		say(o, CA_WARNING, proc->pid, "the tracer says: %s", proc->tracer_warning);
	const uint64_t *n = o->t->pids[p].per_event;
	const struct ca_unknown *u = &o->m->unknown[p];

	/* The process's initialization is all in the trace when the tracer
	 * replayed it (caret_init) or the recording saw rcl_init: an object no
	 * initialization event announced is then not ours to follow. */
	bool init_complete = proc->caret_inits || n[CS_EV_ros2_rcl_init];
	for (size_t id = 0; id < CS_EVENT_COUNT; id++) {
		if (!u->count[id])
			continue;
		/* rcl and rmw have publishers and subscriptions of their own
		 * (discovery, shutdown) that no initialization event announces;
		 * what rclcpp publishes and runs is what latencies are made of. */
		bool internal = id == CS_EV_ros2_rcl_publish || id == CS_EV_ros2_rmw_take;
		const char *object = id == CS_EV_ros2_rmw_take ? "subscription" :
			id == CS_EV_ros2_rcl_publish || id == CS_EV_ros2_rclcpp_publish ||
			id == CS_EV_ros2_rclcpp_intra_publish ||
			id == CS_EV_ros2_caret_merged_publish_timing ? "publisher" : "callback";
		if (internal && init_complete)
			say(o, CA_INFO, proc->pid, "%" PRIu64 " %s %s a %s no initialization event "
				"announces (e.g. 0x%" PRIx64 "): rcl's or rmw's own (discovery, "
				"shutdown), outside every latency", u->count[id], cs_events[id].full_name,
				plural(u->count[id], "event names", "events name"), object,
				u->example[id]);
		else
			say(o, internal ? CA_WARNING : CA_ERROR, proc->pid, "%" PRIu64 " %s %s an "
				"unknown %s (e.g. 0x%" PRIx64 ")%s", u->count[id],
				cs_events[id].full_name, plural(u->count[id], "event names",
				"events name"), object, u->example[id], internal ? ": rcl- or "
				"rmw-internal (no initialization event), or its initialization is "
				"missing" : ": its initialization is missing");
	}
	uint64_t stamped = n[CS_EV_ros2_caret_dds_bind_addr_to_stamp] +
		n[CS_EV_ros2_caret_merged_publish_timing] + f->stamped_writes[p];
	if (!stamped)
		check_no_stamps(o, p);
	uint64_t intra = f->intra_runs[p];
	if (intra && !n[CS_EV_ros2_rclcpp_intra_publish])
		say(o, CA_ERROR, proc->pid, "%" PRIu64 " intra-process callback %s but no "
			"intra-process publish (ros2:rclcpp_intra_publish): intra-process messages "
			"cannot be linked to their publishes (the rclcpp of upstream Humble does not "
			"trace them; CARET's rclcpp fork does)", intra, plural(intra, "run", "runs"));
	if (n[CS_EV_ros2_callback_start] != n[CS_EV_ros2_callback_end])
		say(o, CA_INFO, proc->pid, "%" PRIu64 " callback_start but %" PRIu64
			" callback_end (runs cut by the start or end of recording)",
			n[CS_EV_ros2_callback_start], n[CS_EV_ros2_callback_end]);
	if (proc->merged_events && proc->plain_events)
		say(o, CA_INFO, proc->pid, "runtime events merged and unmerged "
			"(%" PRIu64 " merged, %" PRIu64 " unmerged)", proc->merged_events,
			proc->plain_events);
	else if (proc->merged_events)
		say(o, CA_INFO, proc->pid, "runtime events merged (%" PRIu64 " merged %s)",
			proc->merged_events, plural(proc->merged_events, "event", "events"));
	else if (proc->plain_events)
		say(o, CA_INFO, proc->pid, "runtime events unmerged (%" PRIu64 " %s)",
			proc->plain_events, plural(proc->plain_events, "event", "events"));
	else
		say(o, CA_WARNING, proc->pid, "no callback or publish events recorded");
	if (proc->duplicates)
		say(o, CA_INFO, proc->pid, "%" PRIu64 " duplicate initialization %s dropped "
			"(live and replayed copies)", proc->duplicates,
			plural(proc->duplicates, "event", "events"));
	if (proc->reused)
		say(o, CA_INFO, proc->pid, "%" PRIu64 " %s reused by a later object",
			proc->reused, plural(proc->reused, "address", "addresses"));
}

/* A process that wrote no event of the schema is not a ROS 2 process. */
static bool is_ros(const ca_trace *t, size_t p)
{
	for (size_t id = 0; id < CS_EVENT_COUNT; id++)
		if (t->pids[p].per_event[id])
			return true;
	return false;
}

int ca_model_check(ca_trace *t, struct ca_model *m)
{
	struct out o = { t, m, false };
	struct flagged f = { m->stamped_writes, m->intra_runs }; /* runtime.c counts them */

	check_trace(&o);
	for (size_t p = 0; p < m->n_processes; p++) {
		if (!is_ros(t, p))
			continue;
		if (!m->processes[p].init_events) {
			say(&o, CA_ERROR, m->processes[p].pid, "runtime events but no initialization "
				"events: the process was not traced from its start and did not "
				"replay (was libcaret.so preloaded?)");
		} else {
			check_caret_init(&o, p);
			check_distribution(&o, p);
			check_initialization(&o, p);
		}
		check_runtime(&o, p, &f);
	}
	return o.oom ? -1 : 0;
}
