/*
 * runtime.c - every runtime event that names an object (a callback, a
 * publisher, a subscription) is looked up at its time: unknown handles are
 * counted per process and event, known ones counted per node and topic.
 * Events that name only a message (dds_write, message_construct...) are
 * counted as unattributed. Upstream Humble's rclcpp_publish names no
 * publisher: its publish is counted where the rcl_publish of the same
 * message, which follows it, goes.
 */
#include <stdlib.h>
#include <string.h>

#include "model.h"
#include "vec.h"

enum what { NAMES_NOTHING, CALLBACK_RUN, CALLBACK_OTHER, PUBLISH, PUBLISH_STAGE, TAKE };

static const struct {
	enum cs_event_id id;
	const char *field;
	enum ca_handle_kind kind;
	enum what what;
	bool merged, plain; /* counted as merged or as plain (unmerged) events */
} named[] = {
	{ CS_EV_ros2_callback_start, "callback", CA_H_CALLBACK, CALLBACK_RUN, false, true },
	{ CS_EV_ros2_callback_end, "callback", CA_H_CALLBACK, CALLBACK_OTHER, false, true },
	{ CS_EV_ros2_caret_merged_callback_timing, "callback", CA_H_CALLBACK, CALLBACK_RUN, true, false },
	{ CS_EV_ros2_dispatch_subscription_callback, "callback", CA_H_CALLBACK, CALLBACK_OTHER, false, false },
	{ CS_EV_ros2_dispatch_intra_process_subscription_callback, "callback", CA_H_CALLBACK,
		CALLBACK_OTHER, false, false },
	{ CS_EV_ros2_rclcpp_publish, "publisher_handle", CA_H_PUBLISHER, PUBLISH, false, true },
	{ CS_EV_ros2_rclcpp_intra_publish, "publisher_handle", CA_H_PUBLISHER, PUBLISH, false, false },
	{ CS_EV_ros2_rcl_publish, "publisher_handle", CA_H_PUBLISHER, PUBLISH_STAGE, false, true },
	{ CS_EV_ros2_caret_merged_publish_timing, "publisher_handle", CA_H_PUBLISHER, PUBLISH, true, false },
	{ CS_EV_ros2_rmw_take, "rmw_subscription_handle", CA_H_SUBSCRIPTION_RMW, TAKE, false, false },
	/* Jazzy: intra-process messages into and out of a subscription's buffer */
	{ CS_EV_ros2_rclcpp_ring_buffer_enqueue, "buffer", CA_H_RING_BUFFER, CALLBACK_OTHER,
		false, false },
	{ CS_EV_ros2_rclcpp_ring_buffer_dequeue, "buffer", CA_H_RING_BUFFER, TAKE, false, false },
};

/* Jazzy's rmw_publish (and CARET's Jazzy dds_write) with the DDS source
 * timestamp of the write; callback runs for an intra-process message. */
static const enum cs_event_id writes[] = { CS_EV_ros2_rmw_publish, CS_EV_ros2_caret_dds_write };
static const enum cs_event_id starts[] = { CS_EV_ros2_callback_start,
	CS_EV_ros2_caret_merged_callback_timing };

#define N_WHAT (TAKE + 1)

/* Events counted by what they are (one store an event); runs, publishes,
 * takes and events in all read from them at the end. */
struct tally {
	uint64_t by_what[N_WHAT];
};

static void count(struct tally *k, enum what what)
{
	k->by_what[what]++;
}

static uint64_t events_of(const struct tally *k)
{
	uint64_t n = 0;
	for (size_t i = 0; i < N_WHAT; i++)
		n += k->by_what[i];
	return n;
}

/* (pid, message) of publishes that rclcpp_publish could not name: how many
 * of their rcl_publish are still to come. Open addressing. */
struct unnamed {
	struct unnamed_slot {
		uint64_t message;
		int32_t pid;
		uint16_t used;
		uint16_t pending;
	} *slots;
	size_t size; /* power of two, or 0 */
};

/* The slot of (pid, message): its own, or the free one it would take. */
static struct unnamed_slot *unnamed_slot(struct unnamed *u, int32_t pid, uint64_t message)
{
	size_t i = ((message >> 3) * 0x9e3779b97f4a7c15ull ^ (uint32_t)pid) & (u->size - 1);
	while (u->slots[i].used && !(u->slots[i].pid == pid && u->slots[i].message == message))
		i = (i + 1) & (u->size - 1);
	return &u->slots[i];
}

struct scan {
	ca_trace *t;
	struct ca_model *m;
	struct tally *node, *publisher, *subscription, unattributed;
	struct unnamed unnamed;
	size_t p;         /* the process of last_pid (SIZE_MAX: none yet) */
	int32_t last_pid;
	/* per entry of named[]: its handle, message and taken fields (-1) */
	int fields[sizeof named / sizeof *named][3];
	int stamp_field[2], intra_field[2]; /* of writes[], starts[] below */
	int8_t which[CS_EVENT_COUNT]; /* the entry of named[] of each event (-1) */
	bool other[CS_EVENT_COUNT];   /* visit's other events: writes[], starts[], plain */
	struct ca_handle_kept kept;   /* the objects found that hold at any time */
};

/* The node (and publisher or subscription) an object stands for. */
static void attribute(struct scan *s, enum ca_handle_kind kind, size_t object, enum what what)
{
	const struct ca_model *m = s->m;
	size_t node = CA_NONE;
	if (kind == CA_H_CALLBACK) {
		const ca_callback *cb = &m->callbacks[object];
		node = cb->node;
		if (cb->kind == CA_CALLBACK_SUBSCRIPTION)
			count(&s->subscription[cb->owner], what);
	} else if (kind == CA_H_PUBLISHER) {
		node = m->publishers[object].node;
		count(&s->publisher[object], what);
	} else if (kind == CA_H_RING_BUFFER) {
		size_t sub = m->ring_buffers[object].subscription;
		if (sub != CA_NONE) {
			node = m->subscriptions[sub].node;
			count(&s->subscription[sub], what);
		}
	} else {
		node = m->subscriptions[object].node;
		count(&s->subscription[object], what);
	}
	count(node != CA_NONE ? &s->node[node] : &s->unattributed, what);
}

/* One runtime event of named[which]: its process, its handle, and for
 * some events the message it names and whether a take took one. */
static void scan_event(struct scan *s, size_t which, uint64_t time, int32_t vpid,
	uint64_t handle, uint64_t message, uint64_t taken)
{
	if (s->p == SIZE_MAX || vpid != s->last_pid) {
		s->last_pid = vpid;
		s->p = ca_model_process_index(s->m, vpid);
	}
	size_t p = s->p;
	ca_process *proc = &s->m->processes[p];
	proc->merged_events += named[which].merged;
	proc->plain_events += named[which].plain;
	enum what what = named[which].what;
	if (named[which].id == CS_EV_ros2_rmw_take && !taken)
		what = PUBLISH_STAGE; /* an empty take: an event, not a message */
	if (named[which].id == CS_EV_ros2_rclcpp_publish && !handle && s->unnamed.size) {
		what = PUBLISH_STAGE; /* the rcl_publish that follows is the publish */
		struct unnamed_slot *u = unnamed_slot(&s->unnamed, vpid, message);
		*u = (struct unnamed_slot){ message, vpid, 1, (uint16_t)(u->pending + 1) };
	}
	if (named[which].id == CS_EV_ros2_rcl_publish && s->unnamed.size) {
		struct unnamed_slot *u = unnamed_slot(&s->unnamed, vpid, message);
		if (u->pending) {
			u->pending--;
			what = PUBLISH;
		}
	}
	size_t object = handle ? ca_handle_find_kept(&s->m->handles, &s->kept, named[which].kind,
		vpid, handle, time) : SIZE_MAX;
	if (object != SIZE_MAX) {
		attribute(s, named[which].kind, object, what);
		return;
	}
	count(&s->unattributed, what);
	if (!handle)
		return; /* upstream rclcpp_publish: named by its rcl_publish */
	struct ca_unknown *u = &s->m->unknown[p];
	if (!u->count[named[which].id]++)
		u->example[named[which].id] = handle;
	proc->unknown_handles++;
}

/* The fields the scan reads, by position in their events, found once. */
static void find_fields(struct scan *s)
{
	memset(s->which, -1, sizeof s->which);
	for (size_t i = 0; i < sizeof named / sizeof *named; i++) {
		s->which[named[i].id] = (int8_t)i;
		const struct cs_event *ev = &cs_events[named[i].id];
		s->fields[i][0] = cs_field_index(ev, named[i].field);
		s->fields[i][1] = cs_field_index(ev, "message");
		s->fields[i][2] = named[i].id == CS_EV_ros2_rmw_take ? cs_field_index(ev, "taken") : -1;
	}
	for (size_t k = 0; k < 2; k++) {
		s->stamp_field[k] = cs_field_index(&cs_events[writes[k]], "timestamp");
		s->intra_field[k] = cs_field_index(&cs_events[starts[k]], "is_intra_process");
		s->other[writes[k]] = s->other[starts[k]] = true;
	}
	s->other[CS_EV_ros2_caret_dds_write] = true;
	s->other[CS_EV_ros2_caret_dds_bind_addr_to_stamp] = true;
}

static void scan_named(struct scan *s, size_t which)
{
	const struct ca_table *tb = &s->t->tables[named[which].id];
	int f = s->fields[which][0], message = s->fields[which][1], taken = s->fields[which][2];
	for (size_t r = 0; r < tb->rows; r++)
		scan_event(s, which, tb->time[r], tb->vpid[r], tb->field[f][r],
			message < 0 ? 0 : tb->field[message][r], taken < 0 ? 0 : tb->field[taken][r]);
}

/* ---- what caret check counts per process ------------------------------------- */

static void flag(struct scan *s, uint64_t *counts, int32_t vpid, uint64_t value)
{
	if (!value)
		return;
	size_t p = ca_model_process_index(s->m, vpid);
	if (p != SIZE_MAX)
		counts[p]++;
}

static void count_flagged(struct scan *s, uint64_t *counts, const enum cs_event_id *ids,
	const int *fields)
{
	for (size_t k = 0; k < 2; k++) {
		const struct ca_table *tb = &s->t->tables[ids[k]];
		int f = fields[k];
		for (size_t r = 0; r < tb->rows; r++)
			flag(s, counts, tb->vpid[r], tb->field[f][r]);
	}
}

/* ---- runtime events not kept: the loader's second pass ------------------------ */

static void visit(void *ctx, enum cs_event_id id, uint64_t time, int32_t vpid, int32_t vtid,
	const uint64_t *values)
{
	struct scan *s = ctx;
	(void)vtid;
	int i = s->which[id];
	if (i >= 0) {
		const int *f = s->fields[i];
		scan_event(s, (size_t)i, time, vpid, values[f[0]], f[1] < 0 ? 0 : values[f[1]],
			f[2] < 0 ? 0 : values[f[2]]);
	}
	if (!s->other[id])
		return;
	if (id == CS_EV_ros2_caret_dds_write || id == CS_EV_ros2_caret_dds_bind_addr_to_stamp) {
		size_t p = ca_model_process_index(s->m, vpid);
		if (p != SIZE_MAX)
			s->m->processes[p].plain_events++;
	}
	for (size_t k = 0; k < 2; k++) {
		if (id == writes[k])
			flag(s, s->m->stamped_writes, vpid, values[s->stamp_field[k]]);
		if (id == starts[k])
			flag(s, s->m->intra_runs, vpid, values[s->intra_field[k]]);
	}
}

/* ---- per node and per topic, by name ------------------------------------ */

static int by_node_name(const void *a, const void *b)
{
	return strcmp(((const ca_node_count *)a)->node, ((const ca_node_count *)b)->node);
}

static int by_topic_name(const void *a, const void *b)
{
	return strcmp(((const ca_topic_count *)a)->topic, ((const ca_topic_count *)b)->topic);
}

static void add_tally(ca_node_count *c, const struct tally *k)
{
	c->callback_runs += k->by_what[CALLBACK_RUN];
	c->publishes += k->by_what[PUBLISH];
	c->takes += k->by_what[TAKE];
	c->events += events_of(k);
}

static ca_node_count *node_count(struct ca_model *m, const char *name)
{
	for (size_t i = 0; i < m->n_node_counts; i++)
		if (!strcmp(m->node_counts[i].node, name))
			return &m->node_counts[i];
	ca_node_count *c = VEC_PUSH(m->node_counts, m->n_node_counts, m->cap_node_counts);
	if (c)
		c->node = name;
	return c;
}

static ca_topic_count *topic_count(struct ca_model *m, const char *name)
{
	for (size_t i = 0; i < m->n_topic_counts; i++)
		if (!strcmp(m->topic_counts[i].topic, name))
			return &m->topic_counts[i];
	ca_topic_count *c = VEC_PUSH(m->topic_counts, m->n_topic_counts, m->cap_topic_counts);
	if (c)
		c->topic = name;
	return c;
}

static int gather(struct scan *s)
{
	struct ca_model *m = s->m;
	for (size_t i = 0; i < m->n_nodes; i++) {
		ca_node_count *c = node_count(m, m->nodes[i].fqn);
		if (!c)
			return -1;
		add_tally(c, &s->node[i]);
	}
	if (m->n_node_counts > 1)
		qsort(m->node_counts, m->n_node_counts, sizeof *m->node_counts, by_node_name);
	/* The rest of the runtime events: those that name no known object. */
	uint64_t attributed = 0;
	for (size_t i = 0; i < m->n_node_counts; i++)
		attributed += m->node_counts[i].events;
	ca_node_count *rest = VEC_PUSH(m->node_counts, m->n_node_counts, m->cap_node_counts);
	if (!rest)
		return -1;
	rest->node = "(unattributed)";
	add_tally(rest, &s->unattributed);
	rest->events = 0;
	for (size_t id = 0; id < CS_EVENT_COUNT; id++)
		if (cs_role_is_runtime(cs_events[id].role))
			rest->events += ca_trace_rows_of(s->t, (enum cs_event_id)id);
	rest->events -= attributed;

	for (size_t i = 0; i < m->n_publishers; i++) {
		ca_topic_count *c = topic_count(m, m->publishers[i].topic);
		if (!c)
			return -1;
		c->publishers++;
		c->publishes += s->publisher[i].by_what[PUBLISH];
		c->events += events_of(&s->publisher[i]);
	}
	for (size_t i = 0; i < m->n_subscriptions; i++) {
		ca_topic_count *c = topic_count(m, m->subscriptions[i].topic);
		if (!c)
			return -1;
		c->subscriptions++;
		c->takes += s->subscription[i].by_what[TAKE];
		c->events += events_of(&s->subscription[i]);
	}
	if (m->n_topic_counts > 1)
		qsort(m->topic_counts, m->n_topic_counts, sizeof *m->topic_counts, by_topic_name);
	return 0;
}

/* Room for every rclcpp_publish of the trace that names no publisher (of
 * them all, when they are not kept). */
static int init_unnamed(const ca_trace *t, struct unnamed *u)
{
	const struct ca_table *tb = &t->tables[CS_EV_ros2_rclcpp_publish];
	int handle = cs_field_index(&cs_events[CS_EV_ros2_rclcpp_publish], "publisher_handle");
	size_t n = 0;
	if (t->runtime_not_kept)
		n = ca_trace_rows_of(t, CS_EV_ros2_rclcpp_publish);
	for (size_t r = 0; r < tb->rows; r++)
		n += !tb->field[handle][r];
	*u = (struct unnamed){ NULL, 0 };
	if (!n)
		return 0;
	for (u->size = 64; u->size < 2 * n;)
		u->size *= 2;
	u->slots = calloc(u->size, sizeof *u->slots);
	return u->slots ? 0 : -1;
}

int ca_model_scan_runtime(ca_trace *t, struct ca_model *m)
{
	struct scan s = { .t = t, .m = m,
		.node = calloc(m->n_nodes + 1, sizeof(struct tally)),
		.publisher = calloc(m->n_publishers + 1, sizeof(struct tally)),
		.subscription = calloc(m->n_subscriptions + 1, sizeof(struct tally)),
		.p = SIZE_MAX };
	int status = -1;
	find_fields(&s);
	m->stamped_writes = calloc(m->n_processes + 1, sizeof *m->stamped_writes);
	m->intra_runs = calloc(m->n_processes + 1, sizeof *m->intra_runs);
	if (s.node && s.publisher && s.subscription && m->stamped_writes && m->intra_runs &&
	    init_unnamed(t, &s.unnamed) == 0) {
		if (t->runtime_not_kept) {
			status = t->replay_runtime(t, visit, &s);
		} else {
			for (size_t i = 0; i < sizeof named / sizeof *named; i++)
				scan_named(&s, i);
			const enum cs_event_id plain[] = { CS_EV_ros2_caret_dds_write,
				CS_EV_ros2_caret_dds_bind_addr_to_stamp };
			for (size_t i = 0; i < 2; i++)
				for (size_t r = 0; r < t->tables[plain[i]].rows; r++) {
					size_t p = ca_model_process_index(m, t->tables[plain[i]].vpid[r]);
					m->processes[p].plain_events++;
				}
			count_flagged(&s, m->stamped_writes, writes, s.stamp_field);
			count_flagged(&s, m->intra_runs, starts, s.intra_field);
			status = 0;
		}
		/* unnamed publishes whose rcl_publish never came: publisher unknown */
		for (size_t i = 0; i < s.unnamed.size; i++)
			s.unattributed.by_what[PUBLISH] += s.unnamed.slots[i].pending;
		status = status ? status : gather(&s);
	}
	free(s.node);
	free(s.publisher);
	free(s.subscription);
	free(s.unnamed.slots);
	return status;
}
