/*
 * init.c - initialization events (ros2: or ros2_caret: form) into the
 * objects of the architecture and the links between them.
 *
 * Rows are placed in time (a replayed ros2_caret event at its
 * init_timestamp, shifted by its process's caret_init), duplicates (live and
 * replayed copies) are dropped, and the rest are applied per process in
 * phases, each in time order: objects first, then what attaches to them, so
 * an event that names an object created in the same instant still finds it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model.h"
#include "vec.h"

enum init_kind {
	IK_NONE,
	IK_NODE, IK_PUBLISHER, IK_SUBSCRIPTION, IK_SERVICE, IK_CLIENT, IK_TIMER,
	IK_EXECUTOR, IK_STATIC_EXECUTOR,
	IK_SUB_RCLCPP, IK_TIMER_LINK,
	IK_SUB_CALLBACK, IK_SERVICE_CALLBACK, IK_TIMER_CALLBACK,
	IK_REGISTER, IK_ADD_GROUP, IK_ADD_GROUP_STATIC,
	IK_GROUP_TIMER, IK_GROUP_SUB, IK_GROUP_SERVICE, IK_GROUP_CLIENT,
	IK_META, /* rmw_implementation: counted, no object */
	IK_TRACETOOLS, /* tracetools_status: no object */
	IK_WARNING, /* tracer_warning: no object */
	IK_COLLECTOR_TO_EXECUTOR, IK_GROUP_TO_COLLECTOR, /* Jazzy's executors */
	IK_RING_BUFFER, IK_BUFFER_TO_IPB, IK_IPB_TO_SUBSCRIPTION, /* Jazzy's intra-process */
};

static const struct {
	const char *name;
	enum init_kind kind;
	int phase;
} kinds[] = {
	/* Nodes first: rcl creates a node's /rosout publisher before it traces
	 * rcl_node_init. */
	{ "rcl_node_init", IK_NODE, 0 },
	{ "construct_executor", IK_EXECUTOR, 0 },
	{ "construct_static_executor", IK_STATIC_EXECUTOR, 0 },
	{ "rcl_publisher_init", IK_PUBLISHER, 1 },
	{ "rcl_subscription_init", IK_SUBSCRIPTION, 1 },
	{ "rcl_service_init", IK_SERVICE, 1 },
	{ "rcl_client_init", IK_CLIENT, 1 },
	{ "rcl_timer_init", IK_TIMER, 1 },
	{ "rclcpp_subscription_init", IK_SUB_RCLCPP, 2 },
	{ "rclcpp_timer_link_node", IK_TIMER_LINK, 2 },
	{ "rclcpp_subscription_callback_added", IK_SUB_CALLBACK, 3 },
	{ "rclcpp_service_callback_added", IK_SERVICE_CALLBACK, 3 },
	{ "rclcpp_timer_callback_added", IK_TIMER_CALLBACK, 3 },
	{ "rclcpp_callback_register", IK_REGISTER, 4 },
	{ "add_callback_group", IK_ADD_GROUP, 4 },
	{ "add_callback_group_static_executor", IK_ADD_GROUP_STATIC, 4 },
	{ "callback_group_add_timer", IK_GROUP_TIMER, 4 },
	{ "callback_group_add_subscription", IK_GROUP_SUB, 4 },
	{ "callback_group_add_service", IK_GROUP_SERVICE, 4 },
	{ "callback_group_add_client", IK_GROUP_CLIENT, 4 },
	{ "rmw_implementation", IK_META, 4 },
	{ "tracetools_status", IK_TRACETOOLS, 4 },
	{ "tracer_warning", IK_WARNING, 4 },
	/* Jazzy: an executor's entities collector (made in its constructor,
	 * before the executor's own event), then the groups it collects. */
	{ "executor_entity_collector_to_executor", IK_COLLECTOR_TO_EXECUTOR, 1 },
	{ "callback_group_to_executor_entity_collector", IK_GROUP_TO_COLLECTOR, 4 },
	/* Jazzy: ring buffer, its ipb, the ipb's subscription (whose rclcpp
	 * object rclcpp_subscription_init names only after). */
	{ "rclcpp_construct_ring_buffer", IK_RING_BUFFER, 1 },
	{ "rclcpp_buffer_to_ipb", IK_BUFFER_TO_IPB, 3 },
	{ "rclcpp_ipb_to_subscription", IK_IPB_TO_SUBSCRIPTION, 3 },
};

struct init_row {
	uint64_t time; /* placed in time */
	int32_t pid;
	uint8_t phase, kind;
	uint16_t id;
	size_t row;
	size_t process;
};

static enum init_kind kind_of(enum cs_event_id id, int *phase)
{
	if (cs_events[id].role != CS_ROLE_INIT)
		return IK_NONE;
	for (size_t i = 0; i < sizeof kinds / sizeof *kinds; i++)
		if (!strcmp(kinds[i].name, cs_events[id].name)) {
			*phase = kinds[i].phase;
			return kinds[i].kind;
		}
	return IK_NONE; /* rcl_init, rmw_*_init, lifecycle: no object of ours */
}

/* ---- placing in time ---------------------------------------------------- */

/* What caret_init row r moves its process's init_timestamps by: its time
 * less its clock_offset (both int64 clock values; in 128 bits, for a
 * hostile offset such as INT64_MIN). */
static __int128 caret_init_shift(const ca_trace *t, size_t r)
{
	const struct ca_table *ci = &t->tables[CS_EV_ros2_caret_caret_init];
	int off = cs_field_index(&cs_events[CS_EV_ros2_caret_caret_init], "clock_offset");
	return (__int128)(int64_t)ci->time[r] - (int64_t)ci->field[off][r];
}

/* A ros2_caret initialization event at init_timestamp, shifted by the
 * caret_init of its process that came last before it (the first one when
 * none did). Without a caret_init the clocks are taken as the same. A
 * shift that takes the time out of int64 cannot be applied: the event
 * keeps its recorded time, *unplaced set. */
static uint64_t placed_time(const ca_trace *t, enum cs_event_id id, size_t row, bool *unplaced)
{
	const struct ca_table *tb = &t->tables[id];
	int f = cs_field_index(&cs_events[id], "init_timestamp");
	*unplaced = false;
	if (f < 0)
		return tb->time[row];
	const struct ca_table *ci = &t->tables[CS_EV_ros2_caret_caret_init];
	size_t best = SIZE_MAX;
	for (size_t r = 0; r < ci->rows; r++) {
		if (ci->vpid[r] != tb->vpid[row])
			continue;
		if (best == SIZE_MAX || ci->time[r] <= tb->time[row])
			best = r;
		if (ci->time[r] > tb->time[row])
			break;
	}
	__int128 shift = best == SIZE_MAX ? 0 : caret_init_shift(t, best);
	__int128 placed = (int64_t)tb->field[f][row] + shift;
	/* Below 0 is a time only where the event's own is: a host's clock
	 * put on an earlier first host's moves every time of it below 0,
	 * modulo 2^64 (ctf_meta's time_shift). */
	bool moved_below_0 = (int64_t)tb->time[row] < 0;
	if (placed >= (moved_below_0 ? INT64_MIN : 0) && placed <= INT64_MAX)
		return (uint64_t)(int64_t)placed;
	*unplaced = true;
	return tb->time[row];
}

/* ---- duplicates --------------------------------------------------------- */

/* Two rows are the same initialization when event, pid and every field are
 * equal (init_timestamp included); a ros2: event has no init_timestamp, so
 * its own time stands in. */
static bool same_init(const ca_trace *t, const struct init_row *a, const struct init_row *b)
{
	if (a->id != b->id || a->pid != b->pid)
		return false;
	const struct ca_table *tb = &t->tables[a->id];
	for (size_t f = 0; f < cs_events[a->id].field_count; f++)
		if (tb->field[f][a->row] != tb->field[f][b->row])
			return false;
	return cs_field_index(&cs_events[a->id], "init_timestamp") >= 0 ||
		tb->time[a->row] == tb->time[b->row];
}

static uint64_t init_hash(const ca_trace *t, const struct init_row *r)
{
	const struct ca_table *tb = &t->tables[r->id];
	uint64_t h = (uint64_t)r->id * 0x9e3779b97f4a7c15ull ^ (uint32_t)r->pid;
	for (size_t f = 0; f < cs_events[r->id].field_count; f++)
		h = (h ^ tb->field[f][r->row]) * 0x100000001b3ull;
	if (cs_field_index(&cs_events[r->id], "init_timestamp") < 0)
		h = (h ^ tb->time[r->row]) * 0x100000001b3ull;
	return h;
}

/* Drops duplicates in place, counting them per process. */
static int drop_duplicates(const ca_trace *t, struct ca_model *m, struct init_row *rows,
	size_t *n)
{
	size_t size = 64;
	while (size < 2 * *n)
		size *= 2;
	size_t *slots = calloc(size, sizeof *slots);
	if (!slots)
		return -1;
	size_t kept = 0;
	for (size_t i = 0; i < *n; i++) {
		size_t k = init_hash(t, &rows[i]) & (size - 1);
		bool dup = false;
		for (; slots[k]; k = (k + 1) & (size - 1))
			if (same_init(t, &rows[slots[k] - 1], &rows[i])) {
				dup = true;
				break;
			}
		if (dup) {
			m->processes[rows[i].process].duplicates++;
			continue;
		}
		rows[kept] = rows[i];
		slots[k] = ++kept;
	}
	free(slots);
	*n = kept;
	return 0;
}

static int by_pid_phase_time(const void *a, const void *b)
{
	const struct init_row *x = a, *y = b;
	if (x->pid != y->pid)
		return x->pid < y->pid ? -1 : 1;
	if (x->phase != y->phase)
		return x->phase < y->phase ? -1 : 1;
	if (x->time != y->time)
		return x->time < y->time ? -1 : 1;
	if (x->id != y->id)
		return x->id < y->id ? -1 : 1;
	return (x->row > y->row) - (x->row < y->row);
}

/* ---- applying ----------------------------------------------------------- */

struct ctx {
	ca_trace *t;
	struct ca_model *m;
	const struct init_row *r;
	bool oom;
};

static uint64_t field(const struct ctx *c, const char *name)
{
	return ca_row_field(c->t, c->r->id, c->r->row, name);
}

static const char *string(const struct ctx *c, const char *name)
{
	const char *s = ca_row_string(c->t, c->r->id, c->r->row, name);
	return s ? s : "";
}

/* Registers object under (kind, address) from this row's time on. */
static void add_handle(struct ctx *c, enum ca_handle_kind kind, uint64_t address, size_t object)
{
	size_t before = ca_handle_add(&c->m->handles, kind, c->r->pid, address, c->r->time, object);
	if (before == CA_HANDLE_OOM)
		c->oom = true;
	else if (before != SIZE_MAX && kind != CA_H_CALLBACK)
		c->m->processes[c->r->process].reused++;
}

/* The object a link names; counted when the trace never created it. */
static size_t find(struct ctx *c, enum ca_handle_kind kind, uint64_t address)
{
	size_t i = ca_handle_find(&c->m->handles, kind, c->r->pid, address, c->r->time);
	if (i == SIZE_MAX)
		c->m->dangling_links++;
	return i;
}

static void *or_oom(struct ctx *c, void *p)
{
	if (!p)
		c->oom = true;
	return p;
}

/* A new zeroed element of a model array; NULL (and c->oom) when out of memory. */
#define NEW(c, array) or_oom(c, VEC_PUSH((c)->m->array, (c)->m->n_##array, (c)->m->cap_##array))

static void add_node(struct ctx *c)
{
	ca_node *n = NEW(c, nodes);
	if (!n)
		return;
	n->pid = c->r->pid;
	n->handle = field(c, "node_handle");
	n->time = c->r->time;
	n->name = string(c, "node_name");
	n->ns = string(c, "namespace");
	size_t len = strlen(n->ns) + strlen(n->name) + 2;
	char *fqn = malloc(len);
	if (!fqn) {
		c->oom = true;
		return;
	}
	bool root = !strcmp(n->ns, "/") || !*n->ns;
	snprintf(fqn, len, "%s/%s", root ? "" : n->ns, n->name);
	n->fqn = ca_trace_string(c->t, ca_trace_intern(c->t, fqn));
	free(fqn);
	add_handle(c, CA_H_NODE, n->handle, c->m->n_nodes - 1);
}

static void add_publisher(struct ctx *c)
{
	ca_publisher *p = NEW(c, publishers);
	if (!p)
		return;
	*p = (ca_publisher){ .pid = c->r->pid, .handle = field(c, "publisher_handle"),
		.rmw_handle = field(c, "rmw_publisher_handle"), .time = c->r->time,
		.node = find(c, CA_H_NODE, field(c, "node_handle")),
		.topic = string(c, "topic_name"), .depth = field(c, "queue_depth") };
	add_handle(c, CA_H_PUBLISHER, p->handle, c->m->n_publishers - 1);
}

static void add_subscription(struct ctx *c)
{
	ca_subscription *s = NEW(c, subscriptions);
	struct ca_sub_rclcpp *x = NEW(c, sub_rclcpp);
	if (!s || !x)
		return;
	*s = (ca_subscription){ .pid = c->r->pid, .handle = field(c, "subscription_handle"),
		.rmw_handle = field(c, "rmw_subscription_handle"), .time = c->r->time,
		.node = find(c, CA_H_NODE, field(c, "node_handle")), .callback = CA_NONE,
		.group = CA_NONE, .topic = string(c, "topic_name"),
		.depth = field(c, "queue_depth") };
	add_handle(c, CA_H_SUBSCRIPTION, s->handle, c->m->n_subscriptions - 1);
	add_handle(c, CA_H_SUBSCRIPTION_RMW, s->rmw_handle, c->m->n_subscriptions - 1);
}

static void add_service(struct ctx *c)
{
	ca_service *s = NEW(c, services);
	if (!s)
		return;
	*s = (ca_service){ .pid = c->r->pid, .handle = field(c, "service_handle"),
		.rmw_handle = field(c, "rmw_service_handle"), .time = c->r->time, .node = find(c, CA_H_NODE, field(c, "node_handle")),
		.callback = CA_NONE, .group = CA_NONE, .name = string(c, "service_name") };
	add_handle(c, CA_H_SERVICE, s->handle, c->m->n_services - 1);
}

static void add_client(struct ctx *c)
{
	ca_client *s = NEW(c, clients);
	if (!s)
		return;
	*s = (ca_client){ .pid = c->r->pid, .handle = field(c, "client_handle"),
		.rmw_handle = field(c, "rmw_client_handle"), .time = c->r->time, .node = find(c, CA_H_NODE, field(c, "node_handle")),
		.group = CA_NONE, .name = string(c, "service_name") };
	add_handle(c, CA_H_CLIENT, s->handle, c->m->n_clients - 1);
}

static void add_timer(struct ctx *c)
{
	ca_timer *s = NEW(c, timers);
	if (!s)
		return;
	*s = (ca_timer){ .pid = c->r->pid, .handle = field(c, "timer_handle"),
		.time = c->r->time, .period_ns = (int64_t)field(c, "period"),
		.node = CA_NONE, .callback = CA_NONE, .group = CA_NONE };
	add_handle(c, CA_H_TIMER, s->handle, c->m->n_timers - 1);
}

static void add_executor(struct ctx *c, bool is_static)
{
	ca_executor *e = NEW(c, executors);
	if (!e)
		return;
	*e = (ca_executor){ .pid = c->r->pid, .address = field(c, "executor_addr"),
		.entities_collector = is_static ? field(c, "entities_collector_addr") : 0,
		.time = c->r->time, .type = string(c, "executor_type_name") };
	add_handle(c, CA_H_EXECUTOR, e->address, c->m->n_executors - 1);
	if (is_static)
		add_handle(c, CA_H_ENTITIES_COLLECTOR, e->entities_collector, c->m->n_executors - 1);
}

/* Jazzy: executor_entity_collector_to_executor. An executor whose own
 * event is missing (an executor class of the application's) is known by
 * this one. */
static void link_collector(struct ctx *c)
{
	uint64_t address = field(c, "executor_addr");
	size_t e = ca_handle_find(&c->m->handles, CA_H_EXECUTOR, c->r->pid, address, c->r->time);
	if (e == SIZE_MAX) {
		ca_executor *x = NEW(c, executors);
		if (!x)
			return;
		*x = (ca_executor){ .pid = c->r->pid, .address = address, .time = c->r->time,
			.type = "executor" };
		e = c->m->n_executors - 1;
		add_handle(c, CA_H_EXECUTOR, address, e);
	}
	uint64_t collector = field(c, "entities_collector_addr");
	/* the static executor's own event named it already */
	if (ca_handle_find(&c->m->handles, CA_H_ENTITIES_COLLECTOR, c->r->pid, collector,
		c->r->time) != e)
		add_handle(c, CA_H_ENTITIES_COLLECTOR, collector, e);
}

static void add_ring_buffer(struct ctx *c)
{
	struct ca_ring_buffer *b = NEW(c, ring_buffers);
	if (!b)
		return;
	*b = (struct ca_ring_buffer){ c->r->pid, field(c, "buffer"), 0, c->r->time, CA_NONE };
	add_handle(c, CA_H_RING_BUFFER, b->address, c->m->n_ring_buffers - 1);
}

static void link_buffer_to_ipb(struct ctx *c)
{
	size_t b = find(c, CA_H_RING_BUFFER, field(c, "buffer"));
	if (b == SIZE_MAX)
		return;
	c->m->ring_buffers[b].ipb = field(c, "ipb");
	add_handle(c, CA_H_IPB, c->m->ring_buffers[b].ipb, b);
}

/* The ipb's subscription: a SubscriptionIntraProcess, which
 * rclcpp_subscription_init ties to its rcl subscription. */
static void link_ipb_to_subscription(struct ctx *c)
{
	size_t b = find(c, CA_H_IPB, field(c, "ipb"));
	if (b != SIZE_MAX)
		c->m->ring_buffers[b].subscription = find(c, CA_H_SUBSCRIPTION_RCLCPP,
			field(c, "subscription"));
}

static void link_rclcpp_subscription(struct ctx *c)
{
	size_t s = find(c, CA_H_SUBSCRIPTION, field(c, "subscription_handle"));
	if (s == SIZE_MAX)
		return;
	struct ca_sub_rclcpp *x = &c->m->sub_rclcpp[s];
	uint64_t object = field(c, "subscription");
	if (x->count < 2)
		x->object[x->count++] = object;
	add_handle(c, CA_H_SUBSCRIPTION_RCLCPP, object, s);
}

/* The callback object of a callback_added event: a new one for an owner
 * that has none, or the owner's (a subscription's second, intra-process
 * callback address joins its first). */
static size_t add_callback(struct ctx *c, ca_callback_kind kind, size_t owner,
	size_t *owner_callback, size_t node, bool intra)
{
	uint64_t address = field(c, "callback");
	size_t i = *owner_callback;
	if (i == CA_NONE) {
		ca_callback *cb = NEW(c, callbacks);
		if (!cb)
			return CA_NONE;
		*cb = (ca_callback){ .pid = c->r->pid, .time = c->r->time, .kind = kind,
			.owner = owner, .node = node };
		i = *owner_callback = c->m->n_callbacks - 1;
	}
	ca_callback *cb = &c->m->callbacks[i];
	if (intra)
		cb->intra_address = address;
	else
		cb->address = address;
	add_handle(c, CA_H_CALLBACK, address, i);
	return i;
}

static void add_subscription_callback(struct ctx *c)
{
	uint64_t object = field(c, "subscription");
	size_t s = find(c, CA_H_SUBSCRIPTION_RCLCPP, object);
	if (s == SIZE_MAX)
		return;
	const struct ca_sub_rclcpp *x = &c->m->sub_rclcpp[s];
	bool intra = x->count == 2 && x->object[0] == object;
	add_callback(c, CA_CALLBACK_SUBSCRIPTION, s, &c->m->subscriptions[s].callback,
		c->m->subscriptions[s].node, intra);
}

static void add_service_callback(struct ctx *c)
{
	size_t s = find(c, CA_H_SERVICE, field(c, "service_handle"));
	if (s != SIZE_MAX)
		add_callback(c, CA_CALLBACK_SERVICE, s, &c->m->services[s].callback,
			c->m->services[s].node, false);
}

static void add_timer_callback(struct ctx *c)
{
	size_t s = find(c, CA_H_TIMER, field(c, "timer_handle"));
	if (s != SIZE_MAX)
		add_callback(c, CA_CALLBACK_TIMER, s, &c->m->timers[s].callback,
			c->m->timers[s].node, false);
}

static void link_timer_node(struct ctx *c)
{
	size_t s = find(c, CA_H_TIMER, field(c, "timer_handle"));
	if (s != SIZE_MAX)
		c->m->timers[s].node = find(c, CA_H_NODE, field(c, "node_handle"));
}

static void register_symbol(struct ctx *c)
{
	size_t i = find(c, CA_H_CALLBACK, field(c, "callback"));
	if (i != SIZE_MAX)
		c->m->callbacks[i].symbol = string(c, "symbol");
}

/* A callback group is known by its address from the first event that names
 * it (a group gets its members before an executor gets it). A member of
 * another node than the group's names a new group at a freed address (a
 * node destroyed, another made). */
static size_t group(struct ctx *c, const char *type, size_t node)
{
	uint64_t address = field(c, "callback_group_addr");
	size_t i = ca_handle_find(&c->m->handles, CA_H_GROUP, c->r->pid, address, c->r->time);
	if (i == SIZE_MAX || (node != CA_NONE && c->m->groups[i].node != CA_NONE &&
			      c->m->groups[i].node != node)) {
		ca_callback_group *g = NEW(c, groups);
		if (!g)
			return SIZE_MAX;
		*g = (ca_callback_group){ .pid = c->r->pid, .address = address,
			.time = c->r->time, .executor = CA_NONE, .node = CA_NONE };
		i = c->m->n_groups - 1;
		add_handle(c, CA_H_GROUP, address, i);
	}
	if (type && *type)
		c->m->groups[i].type = type;
	if (node != CA_NONE && c->m->groups[i].node == CA_NONE)
		c->m->groups[i].node = node;
	return i;
}

static void add_group_to_executor(struct ctx *c, enum ca_handle_kind by, const char *field_name)
{
	size_t e = find(c, by, field(c, field_name));
	size_t g = group(c, string(c, "group_type_name"), CA_NONE);
	if (g != SIZE_MAX)
		c->m->groups[g].executor = e;
}

static void add_to_group(struct ctx *c, enum ca_handle_kind kind, const char *field_name)
{
	size_t i = find(c, kind, field(c, field_name));
	if (i == SIZE_MAX)
		return;
	size_t node = kind == CA_H_TIMER ? c->m->timers[i].node :
		kind == CA_H_SUBSCRIPTION ? c->m->subscriptions[i].node :
		kind == CA_H_SERVICE ? c->m->services[i].node : c->m->clients[i].node;
	size_t g = group(c, NULL, node);
	if (g == SIZE_MAX)
		return;
	switch (kind) {
	case CA_H_TIMER: c->m->timers[i].group = g; break;
	case CA_H_SUBSCRIPTION: c->m->subscriptions[i].group = g; break;
	case CA_H_SERVICE: c->m->services[i].group = g; break;
	default: c->m->clients[i].group = g; break;
	}
}

static void apply(struct ctx *c)
{
	ca_process *p = &c->m->processes[c->r->process];
	switch ((enum init_kind)c->r->kind) {
	case IK_NODE: add_node(c); break;
	case IK_PUBLISHER: add_publisher(c); break;
	case IK_SUBSCRIPTION: add_subscription(c); break;
	case IK_SERVICE: add_service(c); break;
	case IK_CLIENT: add_client(c); break;
	case IK_TIMER: add_timer(c); break;
	case IK_EXECUTOR: add_executor(c, false); break;
	case IK_STATIC_EXECUTOR: add_executor(c, true); break;
	case IK_SUB_RCLCPP: link_rclcpp_subscription(c); break;
	case IK_TIMER_LINK: link_timer_node(c); break;
	case IK_SUB_CALLBACK: add_subscription_callback(c); break;
	case IK_SERVICE_CALLBACK: add_service_callback(c); break;
	case IK_TIMER_CALLBACK: add_timer_callback(c); break;
	case IK_REGISTER: register_symbol(c); break;
	case IK_ADD_GROUP: add_group_to_executor(c, CA_H_EXECUTOR, "executor_addr"); break;
	case IK_ADD_GROUP_STATIC:
		add_group_to_executor(c, CA_H_ENTITIES_COLLECTOR, "entities_collector_addr");
		break;
	case IK_GROUP_TIMER: add_to_group(c, CA_H_TIMER, "timer_handle"); break;
	case IK_GROUP_SUB: add_to_group(c, CA_H_SUBSCRIPTION, "subscription_handle"); break;
	case IK_GROUP_SERVICE: add_to_group(c, CA_H_SERVICE, "service_handle"); break;
	case IK_GROUP_CLIENT: add_to_group(c, CA_H_CLIENT, "client_handle"); break;
	case IK_META:
		if (!p->rmw_implementation)
			p->rmw_implementation = string(c, "rmw_impl");
		break;
	case IK_TRACETOOLS:
		p->tracetools_tracing = field(c, "tracing_enabled") != 0;
		break;
	case IK_WARNING:
		if (!p->tracer_warning)
			p->tracer_warning = string(c, "message");
		break;
	case IK_COLLECTOR_TO_EXECUTOR: link_collector(c); break;
	case IK_GROUP_TO_COLLECTOR:
		add_group_to_executor(c, CA_H_ENTITIES_COLLECTOR, "entities_collector_addr");
		break;
	case IK_RING_BUFFER: add_ring_buffer(c); break;
	case IK_BUFFER_TO_IPB: link_buffer_to_ipb(c); break;
	case IK_IPB_TO_SUBSCRIPTION: link_ipb_to_subscription(c); break;
	case IK_NONE: break;
	}
}

/* Links that only make sense once everything exists. */
static void finish_links(struct ca_model *m)
{
	for (size_t i = 0; i < m->n_callbacks; i++) {
		ca_callback *cb = &m->callbacks[i];
		size_t node = cb->kind == CA_CALLBACK_TIMER ? m->timers[cb->owner].node :
			cb->kind == CA_CALLBACK_SERVICE ? m->services[cb->owner].node :
			m->subscriptions[cb->owner].node;
		cb->node = node;
	}
#define GROUP_NODE(array)                                                  \
	for (size_t i = 0; i < m->n_##array; i++)                           \
		if (m->array[i].group != CA_NONE && m->groups[m->array[i].group].node == CA_NONE) \
			m->groups[m->array[i].group].node = m->array[i].node;
	GROUP_NODE(timers)
	GROUP_NODE(subscriptions)
	GROUP_NODE(services)
	GROUP_NODE(clients)
#undef GROUP_NODE
}

static void read_caret_inits(ca_trace *t, struct ca_model *m)
{
	const enum cs_event_id id = CS_EV_ros2_caret_caret_init;
	for (size_t r = 0; r < t->tables[id].rows; r++) {
		size_t i = ca_model_process_index(m, t->tables[id].vpid[r]);
		if (i == SIZE_MAX)
			continue;
		ca_process *p = &m->processes[i];
		if (!p->caret_inits++) {
			__int128 shift = caret_init_shift(t, r);
			p->clock_offset = (int64_t)ca_row_field(t, id, r, "clock_offset");
			p->clock_shift = shift > INT64_MAX ? INT64_MAX : shift < -INT64_MAX ?
				-INT64_MAX : (int64_t)shift;
			p->distribution = ca_row_string(t, id, r, "distribution");
		}
	}
}

int ca_model_init_objects(ca_trace *t, struct ca_model *m)
{
	struct init_row *rows = NULL;
	size_t n = 0, cap = 0;

	read_caret_inits(t, m);
	for (size_t id = 0; id < CS_EVENT_COUNT; id++) {
		int phase = 0;
		enum init_kind kind = kind_of((enum cs_event_id)id, &phase);
		const struct ca_table *tb = &t->tables[id];
		for (size_t r = 0; kind != IK_NONE && r < tb->rows; r++) {
			struct init_row *ir = VEC_PUSH(rows, n, cap);
			if (!ir) {
				free(rows);
				return -1;
			}
			bool unplaced;
			*ir = (struct init_row){ placed_time(t, (enum cs_event_id)id, r, &unplaced),
				tb->vpid[r], (uint8_t)phase, (uint8_t)kind, (uint16_t)id, r,
				ca_model_process_index(m, tb->vpid[r]) };
			m->processes[ir->process].init_events++;
			m->processes[ir->process].unplaced_inits += unplaced;
		}
	}
	if (drop_duplicates(t, m, rows, &n)) {
		free(rows);
		return -1;
	}
	if (n > 1) /* qsort wants a non-NULL base, even for 0 rows */
		qsort(rows, n, sizeof *rows, by_pid_phase_time);
	struct ctx c = { t, m, NULL, false };
	for (size_t i = 0; i < n && !c.oom; i++) {
		c.r = &rows[i];
		apply(&c);
	}
	free(rows);
	if (c.oom || t->failed)
		return -1;
	finish_links(m);
	return 0;
}
