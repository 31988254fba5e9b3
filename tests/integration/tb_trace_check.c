#define _DEFAULT_SOURCE /* strsep */
/*
 * tb_trace_check - checks, from an LTTng trace alone, that a testbed run
 * described itself correctly: every node, publisher, subscription, timer
 * (with its period), service, client, callback and symbol of the system
 * description appears in the ros2 initialization events with consistent
 * handles; callback_start/callback_end per callback equal the ground
 * truth's callback count; every message taken from DDS carries a source
 * timestamp recorded on the publishing side (dds_bind_addr_to_stamp).
 *
 * With --tracer (a run with libcaret.so preloaded) the initialization events
 * must come as ros2_caret events whose init_timestamp is not after the
 * event's own timestamp, in the ground truth's creation order, and the
 * executor and callback-group events must describe the structure the truth
 * records. Merged events count as the events they replace.
 *
 * With --late (a recording started after the apps, by caret record or a
 * Start): every process has caret_init, all its initialization events come
 * before its first runtime event, nothing was discarded, and callback runs
 * are whole and no more than the truth's (the recording saw only part).
 *
 * usage: tb_trace_check [--tracer|--late] SYSTEM TRACE_DIR TRUTH_DIR PID_FILE
 */
#include "ctf_iter.h"
#include "schema.h"
#include "system.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum kind {
	R_NODE, R_PUB, R_SUB, R_SUB_OBJ, R_SUB_CB, R_TIMER, R_TIMER_CB, R_TIMER_NODE,
	R_SERVICE, R_SERVICE_CB, R_CLIENT, R_REGISTER,
	/* structure (ros2_caret only): a = executor or group, b = group or
	 * handle, c = entities collector, s1 = type name */
	R_EXECUTOR, R_EXEC_GROUP, R_GROUP_ENTITY, R_KINDS
};

/* One initialization fact: up to three addresses, a number, two strings. */
struct rec {
	enum kind kind;
	int64_t pid;
	uint64_t a, b, c;
	int64_t v;
	char *s1, *s2;
};

struct cb_count {
	int64_t pid;
	uint64_t callback;
	unsigned starts, ends, truth;
};

struct stamp {
	int64_t pid;
	uint64_t stamp;
};

struct pub_count {
	int64_t pid;
	unsigned inter, intra, misordered;
	unsigned caret_inits;
	uint64_t last_init, first_runtime;
};

struct state {
	bool tracer, late;
	uint64_t discarded;
	unsigned init_events, late_stamps, plain_init_events;
	struct pub_count pubs[64]; /* per pid, same order as pids */
	int64_t pids[64];
	size_t n_pids;
	struct rec *recs;
	size_t n_recs, cap_recs;
	struct cb_count *cbs;
	size_t n_cbs, cap_cbs;
	struct stamp *takes, *binds;
	size_t n_takes, n_binds, cap_takes, cap_binds;
	unsigned failures;
};

static void fail(struct state *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void fail(struct state *s, const char *fmt, ...)
{
	va_list ap;
	fprintf(stderr, "tb_trace_check: ");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	s->failures++;
}

#define PUSH(arr, n, cap, item)                                          \
	do {                                                             \
		if ((n) == (cap)) {                                      \
			(cap) = (cap) ? 2 * (cap) : 256;                 \
			(arr) = realloc((arr), (cap) * sizeof *(arr));   \
		}                                                        \
		(arr)[(n)++] = (item);                                   \
	} while (0)

static const bt_field *field(const bt_event *ev, const char *name)
{
	const bt_field *p = bt_event_borrow_payload_field_const(ev);
	return p ? bt_field_structure_borrow_member_field_by_name_const(p, name) : NULL;
}

static uint64_t u64(const bt_event *ev, const char *name)
{
	const bt_field *f = field(ev, name);
	if (!f)
		return 0;
	if (bt_field_get_class_type(f) == BT_FIELD_CLASS_TYPE_SIGNED_INTEGER)
		return (uint64_t)bt_field_integer_signed_get_value(f);
	return bt_field_integer_unsigned_get_value(f);
}

static char *str(const bt_event *ev, const char *name)
{
	const bt_field *f = field(ev, name);
	return strdup(f ? bt_field_string_get_value(f) : "");
}

static int64_t vpid(const bt_event *ev)
{
	const bt_field *ctx = bt_event_borrow_common_context_field_const(ev);
	const bt_field *f = ctx ?
		bt_field_structure_borrow_member_field_by_name_const(ctx, "vpid") : NULL;
	return f ? bt_field_integer_signed_get_value(f) : -1;
}

static struct cb_count *cb_of(struct state *s, int64_t pid, uint64_t cb)
{
	for (size_t i = 0; i < s->n_cbs; i++)
		if (s->cbs[i].pid == pid && s->cbs[i].callback == cb)
			return &s->cbs[i];
	struct cb_count c = { pid, cb, 0, 0, 0 };
	PUSH(s->cbs, s->n_cbs, s->cap_cbs, c);
	return &s->cbs[s->n_cbs - 1];
}

static void add(struct state *s, enum kind k, int64_t pid, uint64_t a, uint64_t b,
	uint64_t c, int64_t v, char *s1, char *s2)
{
	struct rec r = { k, pid, a, b, c, v, s1, s2 };
	PUSH(s->recs, s->n_recs, s->cap_recs, r);
}

/* ros2_caret executor and callback-group events; true when ev was one. */
static bool on_structure_event(struct state *s, const char *name, const bt_event *ev,
	int64_t pid)
{
	if (!strcmp(name, "construct_executor"))
		add(s, R_EXECUTOR, pid, u64(ev, "executor_addr"), 0, 0, 0,
			str(ev, "executor_type_name"), NULL);
	else if (!strcmp(name, "construct_static_executor"))
		add(s, R_EXECUTOR, pid, u64(ev, "executor_addr"), 0,
			u64(ev, "entities_collector_addr"), 0,
			str(ev, "executor_type_name"), NULL);
	else if (!strcmp(name, "add_callback_group"))
		add(s, R_EXEC_GROUP, pid, u64(ev, "executor_addr"),
			u64(ev, "callback_group_addr"), 0, 0, str(ev, "group_type_name"), NULL);
	else if (!strcmp(name, "add_callback_group_static_executor"))
		add(s, R_EXEC_GROUP, pid, u64(ev, "entities_collector_addr"),
			u64(ev, "callback_group_addr"), 1, 0, str(ev, "group_type_name"), NULL);
	else if (!strncmp(name, "callback_group_add_", 19)) {
		const char *kind = name + 19;
		char handle[32];
		snprintf(handle, sizeof handle, "%s_handle", kind);
		add(s, R_GROUP_ENTITY, pid, u64(ev, "callback_group_addr"), u64(ev, handle),
			0, 0, strdup(kind), NULL);
	} else {
		return false;
	}
	return true;
}

static int on_event(const bt_event *ev, uint64_t clock, void *user)
{
	struct state *s = user;
	const char *name = bt_event_class_get_name(bt_event_borrow_class_const(ev));
	int64_t pid = vpid(ev);
	bool ours = false;
	for (size_t i = 0; i < s->n_pids; i++)
		ours |= s->pids[i] == pid;
	if (!ours)
		return 0;
	bool merged_publish = !strcmp(name, "ros2_caret:merged_publish_timing");
	if (!strcmp(name, "ros2_caret:dds_bind_addr_to_stamp") ||
	    (merged_publish && u64(ev, "source_stamp"))) {
		struct stamp st = { pid, u64(ev, "source_stamp") };
		PUSH(s->binds, s->n_binds, s->cap_binds, st);
		if (!merged_publish)
			return 0;
	}
	struct pub_count *pc = NULL;
	for (size_t i = 0; i < s->n_pids; i++)
		if (s->pids[i] == pid)
			pc = &s->pubs[i];
	const struct cs_event *known = cs_event_by_full_name(name);
	if (known && (known->role == CS_ROLE_RUNTIME || known->role == CS_ROLE_MERGED)) {
		if (!pc->first_runtime || clock < pc->first_runtime)
			pc->first_runtime = clock;
	} else if (known && known->role == CS_ROLE_INIT && clock > pc->last_init) {
		pc->last_init = clock;
	}
	pc->caret_inits += known && known->id == CS_EV_ros2_caret_caret_init;
	if (!strcmp(name, "ros2_caret:merged_callback_timing")) {
		struct cb_count *c = cb_of(s, pid, u64(ev, "callback"));
		uint64_t start = u64(ev, "callback_start_timestamp");
		c->starts += start != 0;
		c->ends++;
		pc->misordered += start > clock;
		return 0;
	}
	if (!strcmp(name, "ros2_caret:merged_publish_timing")) {
		/* Expanded: rclcpp_publish, rcl_publish, dds_write, bind, in
		 * this order, none after the event. */
		uint64_t t[4] = { u64(ev, "rclcpp_publish_timestamp"),
			u64(ev, "rcl_publish_timestamp"), u64(ev, "dds_write_timestamp"), clock };
		uint64_t last = 0;
		for (int i = 0; i < 4; i++) {
			if (!t[i])
				continue;
			pc->misordered += t[i] < last;
			last = t[i];
		}
		pc->inter += t[0] != 0;
		return 0;
	}
	if (!strcmp(name, "ros2:rclcpp_publish"))
		pc->inter++;
	if (!strcmp(name, "ros2:rclcpp_intra_publish"))
		pc->intra++;
	bool caret = !strncmp(name, "ros2_caret:", 11);
	if (caret) {
		const bt_field *ts = field(ev, "init_timestamp");
		if (ts) {
			s->init_events++;
			s->late_stamps += bt_field_integer_signed_get_value(ts) > (int64_t)clock;
		}
		name += 11;
		if (on_structure_event(s, name, ev, pid))
			return 0;
	} else if (!strncmp(name, "ros2:", 5)) {
		name += 5;
	} else {
		return 0;
	}
	if (!strcmp(name, "callback_start"))
		cb_of(s, pid, u64(ev, "callback"))->starts++;
	else if (!strcmp(name, "callback_end"))
		cb_of(s, pid, u64(ev, "callback"))->ends++;
	else if (!strcmp(name, "rmw_take") && u64(ev, "taken")) {
		struct stamp st = { pid, u64(ev, "source_timestamp") };
		PUSH(s->takes, s->n_takes, s->cap_takes, st);
	} else if (!strcmp(name, "rcl_node_init"))
		add(s, R_NODE, pid, u64(ev, "node_handle"), 0, 0, 0,
			str(ev, "node_name"), str(ev, "namespace"));
	else if (!strcmp(name, "rcl_publisher_init"))
		add(s, R_PUB, pid, u64(ev, "publisher_handle"), u64(ev, "node_handle"),
			0, 0, str(ev, "topic_name"), NULL);
	else if (!strcmp(name, "rcl_subscription_init"))
		add(s, R_SUB, pid, u64(ev, "subscription_handle"), u64(ev, "node_handle"),
			0, 0, str(ev, "topic_name"), NULL);
	else if (!strcmp(name, "rclcpp_subscription_init"))
		add(s, R_SUB_OBJ, pid, u64(ev, "subscription_handle"),
			u64(ev, "subscription"), 0, 0, NULL, NULL);
	else if (!strcmp(name, "rclcpp_subscription_callback_added"))
		add(s, R_SUB_CB, pid, u64(ev, "subscription"), u64(ev, "callback"),
			0, 0, NULL, NULL);
	else if (!strcmp(name, "rcl_timer_init"))
		add(s, R_TIMER, pid, u64(ev, "timer_handle"), 0, 0,
			(int64_t)u64(ev, "period"), NULL, NULL);
	else if (!strcmp(name, "rclcpp_timer_callback_added"))
		add(s, R_TIMER_CB, pid, u64(ev, "timer_handle"), u64(ev, "callback"),
			0, 0, NULL, NULL);
	else if (!strcmp(name, "rclcpp_timer_link_node"))
		add(s, R_TIMER_NODE, pid, u64(ev, "timer_handle"), u64(ev, "node_handle"),
			0, 0, NULL, NULL);
	else if (!strcmp(name, "rcl_service_init"))
		add(s, R_SERVICE, pid, u64(ev, "service_handle"), u64(ev, "node_handle"),
			0, 0, str(ev, "service_name"), NULL);
	else if (!strcmp(name, "rclcpp_service_callback_added"))
		add(s, R_SERVICE_CB, pid, u64(ev, "service_handle"), u64(ev, "callback"),
			0, 0, NULL, NULL);
	else if (!strcmp(name, "rcl_client_init"))
		add(s, R_CLIENT, pid, u64(ev, "client_handle"), u64(ev, "node_handle"),
			0, 0, str(ev, "service_name"), NULL);
	else if (!strcmp(name, "rclcpp_callback_register"))
		add(s, R_REGISTER, pid, u64(ev, "callback"), 0, 0, 0,
			str(ev, "symbol"), NULL);
	return 0;
}

/* The unique record of kind k in pid with a (and b, s1 when given). */
static const struct rec *find(struct state *s, enum kind k, int64_t pid,
	const uint64_t *a, const uint64_t *b, const char *s1)
{
	const struct rec *found = NULL;
	for (size_t i = 0; i < s->n_recs; i++) {
		const struct rec *r = &s->recs[i];
		if (r->kind != k || r->pid != pid || (a && r->a != *a) ||
		    (b && r->b != *b) || (s1 && strcmp(r->s1, s1)))
			continue;
		if (found)
			return NULL; /* ambiguous */
		found = r;
	}
	return found;
}

static size_t count(struct state *s, enum kind k, int64_t pid, const uint64_t *b)
{
	size_t n = 0;
	for (size_t i = 0; i < s->n_recs; i++)
		n += s->recs[i].kind == k && s->recs[i].pid == pid &&
		     (!b || s->recs[i].b == *b);
	return n;
}

/* callback -> its symbol, which must name the node. */
static void check_symbol(struct state *s, int64_t pid, uint64_t cb, const char *fqn,
	const char *what)
{
	const struct rec *reg = find(s, R_REGISTER, pid, &cb, NULL, NULL);
	if (!reg || !strstr(reg->s1, fqn))
		fail(s, "%s %s: callback 0x%" PRIx64 " has no symbol naming the node",
			fqn, what, cb);
	cb_of(s, pid, cb); /* a callback that never ran still has a count */
}

static unsigned check_node(struct state *s, int64_t pid, const struct tb_sys_node *n)
{
	unsigned entities = 0;
	const struct rec *node = NULL;
	for (size_t i = 0; i < s->n_recs; i++) {
		const struct rec *r = &s->recs[i];
		if (r->kind == R_NODE && r->pid == pid && !strcmp(r->s1, n->name) &&
		    !strcmp(r->s2, n->ns))
			node = r;
	}
	if (!node) {
		fail(s, "node %s: no rcl_node_init in pid %" PRId64, n->fqn, pid);
		return 0;
	}
	uint64_t nh = node->a;

	for (size_t i = 0; i < n->n_subscriptions; i++, entities++) {
		const char *topic = n->subscriptions[i].topic;
		const struct rec *sub = find(s, R_SUB, pid, NULL, &nh, topic);
		const struct rec *obj = sub ? find(s, R_SUB_OBJ, pid, &sub->a, NULL, NULL) : NULL;
		const struct rec *cb = obj ? find(s, R_SUB_CB, pid, &obj->b, NULL, NULL) : NULL;
		if (!cb) {
			fail(s, "%s: subscription %s: rcl/rclcpp init chain incomplete",
				n->fqn, topic);
			continue;
		}
		check_symbol(s, pid, cb->b, n->fqn, topic);
	}
	/* One publisher per topic the node publishes. */
	for (size_t i = 0; i < n->n_subscriptions + n->n_timers; i++) {
		const struct tb_sys_strings *topics = i < n->n_subscriptions ?
			&n->subscriptions[i].publish : &n->timers[i - n->n_subscriptions].publish;
		for (size_t k = 0; k < topics->count; k++)
			if (!find(s, R_PUB, pid, NULL, &nh, topics->items[k]))
				fail(s, "%s: no rcl_publisher_init for %s", n->fqn,
					topics->items[k]);
	}
	entities += count(s, R_PUB, pid, &nh);
	if (count(s, R_TIMER_NODE, pid, &nh) != n->n_timers)
		fail(s, "%s: %zu timers linked to the node, the description has %zu",
			n->fqn, count(s, R_TIMER_NODE, pid, &nh), n->n_timers);
	for (size_t i = 0; i < s->n_recs; i++) {
		const struct rec *link = &s->recs[i];
		if (link->kind != R_TIMER_NODE || link->pid != pid || link->b != nh)
			continue;
		const struct rec *t = find(s, R_TIMER, pid, &link->a, NULL, NULL);
		const struct rec *cb = find(s, R_TIMER_CB, pid, &link->a, NULL, NULL);
		bool period_ok = false;
		for (size_t k = 0; t && k < n->n_timers; k++)
			period_ok |= n->timers[k].period_ns == t->v;
		if (!t || !cb || !period_ok) {
			fail(s, "%s: timer 0x%" PRIx64 ": init, callback or period wrong",
				n->fqn, link->a);
			continue;
		}
		check_symbol(s, pid, cb->b, n->fqn, "timer");
		entities++;
	}
	for (size_t i = 0; i < n->n_services; i++, entities++) {
		const struct rec *srv = find(s, R_SERVICE, pid, NULL, &nh, n->services[i].name);
		const struct rec *cb = srv ? find(s, R_SERVICE_CB, pid, &srv->a, NULL, NULL) : NULL;
		if (!cb) {
			fail(s, "%s: service %s: init chain incomplete", n->fqn,
				n->services[i].name);
			continue;
		}
		check_symbol(s, pid, cb->b, n->fqn, n->services[i].name);
	}
	for (size_t i = 0; i < n->n_timers; i++)
		for (size_t k = 0; k < n->timers[i].call.count; k++, entities++)
			if (!find(s, R_CLIENT, pid, NULL, &nh, n->timers[i].call.items[k]))
				fail(s, "%s: no rcl_client_init for %s", n->fqn,
					n->timers[i].call.items[k]);
	return entities + 1;
}

/* The truth's entities file of a process: kind,node,name,handle,callback,group. */
struct entity {
	char kind[32], name[256];
	uint64_t handle, callback, group;
};

static size_t read_entities(const char *dir, const char *process, int64_t pid,
	struct entity *out, size_t max)
{
	char path[4096], line[2048];
	size_t n = 0;
	snprintf(path, sizeof path, "%s/%s.entities.%" PRId64 ".csv", dir, process, pid);
	FILE *f = fopen(path, "r");
	if (!f)
		return 0;
	while (n < max && fgets(line, sizeof line, f)) {
		char *col[10] = { 0 }, *rest = line, *c;
		int k = 0;
		while (k < 10 && (c = strsep(&rest, ","))) /* keeps empty columns */
			col[k++] = c;
		if (k < 7 || !strcmp(col[1], "kind"))
			continue;
		struct entity *e = &out[n++];
		snprintf(e->kind, sizeof e->kind, "%s", col[1]);
		snprintf(e->name, sizeof e->name, "%s", col[3]);
		e->handle = strtoull(col[4], NULL, 16);
		e->callback = strtoull(col[5], NULL, 16);
		e->group = strtoull(col[6], NULL, 16);
	}
	fclose(f);
	return n;
}

static bool has_rec(struct state *s, enum kind k, int64_t pid, uint64_t a, uint64_t b,
	uint64_t c, const char *s1)
{
	for (size_t i = 0; i < s->n_recs; i++) {
		const struct rec *r = &s->recs[i];
		if (r->kind == k && r->pid == pid && r->a == a && r->b == b && r->c == c &&
		    (!s1 || !strcmp(r->s1, s1)))
			return true;
	}
	return false;
}

/* Executors, their groups and the groups' entities, as the truth has them;
 * and the rcl entities in the truth's creation order. */
static unsigned check_structure(struct state *s, const char *dir, const char *process,
	int64_t pid)
{
	static struct entity e[4096];
	size_t n = read_entities(dir, process, pid, e, 4096), expected = 0, order = 0;
	static const enum kind order_kinds[] = { R_NODE, R_PUB, R_SUB, R_TIMER, R_SERVICE, R_CLIENT };

	for (size_t i = 0; i < n; i++) {
		bool ok = true;
		if (!strcmp(e[i].kind, "executor")) {
			ok = has_rec(s, R_EXECUTOR, pid, e[i].handle, 0, e[i].callback, e[i].name);
		} else if (!strcmp(e[i].kind, "executor_group")) {
			uint64_t collector = 0;
			for (size_t j = 0; j < n; j++)
				if (!strcmp(e[j].kind, "executor") && e[j].handle == e[i].handle)
					collector = e[j].callback;
			ok = collector ?
				has_rec(s, R_EXEC_GROUP, pid, collector, e[i].group, 1, e[i].name) :
				has_rec(s, R_EXEC_GROUP, pid, e[i].handle, e[i].group, 0, e[i].name);
		} else if (strcmp(e[i].kind, "node") && strcmp(e[i].kind, "callback_group") &&
			   strcmp(e[i].kind, "publisher")) {
			ok = has_rec(s, R_GROUP_ENTITY, pid, e[i].group, e[i].handle, 0, e[i].kind);
		} else {
			continue;
		}
		expected++;
		if (!ok)
			fail(s, "%s: %s %s 0x%" PRIx64 " (group 0x%" PRIx64 "): no matching "
				"ros2_caret structure event", process, e[i].kind, e[i].name,
				e[i].handle, e[i].group);
	}
	size_t structure = count(s, R_EXECUTOR, pid, NULL) + count(s, R_EXEC_GROUP, pid, NULL) +
		count(s, R_GROUP_ENTITY, pid, NULL);
	if (structure != expected)
		fail(s, "%s: %zu structure events, the truth has %zu", process, structure, expected);

	/* Creation order: the truth's rcl entities, then the trace's. */
	size_t t = 0;
	for (size_t i = 0; i < s->n_recs; i++) {
		const struct rec *r = &s->recs[i];
		bool ordered = false;
		for (size_t k = 0; k < sizeof order_kinds / sizeof *order_kinds; k++)
			ordered |= r->kind == order_kinds[k];
		if (!ordered || r->pid != pid)
			continue;
		while (t < n && (!strcmp(e[t].kind, "callback_group") ||
				 !strncmp(e[t].kind, "executor", 8)))
			t++;
		if (t >= n || e[t].handle != r->a) {
			fail(s, "%s: initialization event %zu (handle 0x%" PRIx64 ") is not "
				"in the truth's creation order", process, order, r->a);
			break;
		}
		t++;
		order++;
	}
	return (unsigned)expected;
}

/* Publishes of the truth made through a publisher (not client requests):
 * inter-process ones go through rclcpp_publish, intra ones through
 * rclcpp_intra_publish. */
static void check_publishes(struct state *s, const char *dir, const char *process,
	size_t index)
{
	static struct entity e[4096];
	char path[4096], line[2048];
	int64_t pid = s->pids[index];
	size_t n = read_entities(dir, process, pid, e, 4096);
	unsigned inter = 0, intra = 0;

	snprintf(path, sizeof path, "%s/%s.publishes.%" PRId64 ".csv", dir, process, pid);
	FILE *f = fopen(path, "r");
	while (f && fgets(line, sizeof line, f)) {
		char *col[12] = { 0 }, *rest = line, *c;
		int k = 0;
		while (k < 12 && (c = strsep(&rest, ",")))
			col[k++] = c;
		if (k < 10 || !strcmp(col[0], "pid"))
			continue;
		bool via_publisher = false;
		for (size_t i = 0; i < n; i++)
			via_publisher |= !strcmp(e[i].kind, "publisher") &&
				!strcmp(e[i].name, col[2]) && strstr(col[1], "/");
		if (!via_publisher)
			continue;
		inter += atoi(col[9]) == 1;
		intra += atoi(col[8]) > 0;
	}
	if (f)
		fclose(f);
	const struct pub_count *pc = &s->pubs[index];
	if (pc->inter != inter || pc->intra != intra)
		fail(s, "%s: %u inter-process and %u intra-process publishes recorded, "
			"the truth has %u and %u", process, pc->inter, pc->intra, inter, intra);
	if (pc->misordered)
		fail(s, "%s: %u merged events with stages out of order", process,
			pc->misordered);
}

/* Adds the truth's count of each callback of pid's process. */
static int read_truth(struct state *s, const char *dir, const char *process, int64_t pid)
{
	char path[4096], line[1024];
	snprintf(path, sizeof path, "%s/%s.callbacks.%" PRId64 ".csv", dir, process, pid);
	FILE *f = fopen(path, "r");
	if (!f) {
		fail(s, "cannot read %s", path);
		return -1;
	}
	while (fgets(line, sizeof line, f)) {
		/* pid,node,callback_name,callback,... */
		char *save = NULL, *col = strtok_r(line, ",", &save);
		for (int i = 0; col && i < 3; i++)
			col = strtok_r(NULL, ",", &save);
		if (col && !strncmp(col, "0x", 2))
			cb_of(s, pid, strtoull(col, NULL, 16))->truth++;
	}
	fclose(f);
	return 0;
}

static void free_state(struct state *s)
{
	for (size_t i = 0; i < s->n_recs; i++) {
		free(s->recs[i].s1);
		free(s->recs[i].s2);
	}
	free(s->recs);
	free(s->cbs);
	free(s->takes);
	free(s->binds);
}

static void on_discarded(const bt_stream *stream, uint64_t count, void *user)
{
	(void)stream;
	((struct state *)user)->discarded += count;
}

/* A late recording: per process, caret_init, then the replayed
 * initialization, then runtime events. */
static void check_late(struct state *s, const char *process, size_t index)
{
	const struct pub_count *pc = &s->pubs[index];
	if (!pc->caret_inits)
		fail(s, "%s: no caret_init", process);
	if (pc->first_runtime && pc->last_init > pc->first_runtime)
		fail(s, "%s: initialization events after the first runtime event "
			"(%" PRIu64 " > %" PRIu64 ")", process, pc->last_init, pc->first_runtime);
	if (!pc->first_runtime)
		fail(s, "%s: no runtime event recorded", process);
}

static int by_stamp(const void *x, const void *y)
{
	const struct stamp *a = x, *b = y;
	return a->stamp < b->stamp ? -1 : a->stamp > b->stamp;
}

int main(int argc, char **argv)
{
	struct state s = { 0 };
	char err[1024], names[64][128];

	if (argc > 1 && (!strcmp(argv[1], "--tracer") || !strcmp(argv[1], "--late"))) {
		s.tracer = true;
		s.late = !strcmp(argv[1], "--late");
		argv++;
		argc--;
	}
	if (argc != 5) {
		fprintf(stderr, "usage: tb_trace_check [--tracer|--late] SYSTEM TRACE_DIR TRUTH_DIR PID_FILE\n");
		return 2;
	}
	struct tb_system *sys = tb_system_load(argv[1], err, sizeof err);
	if (!sys) {
		fprintf(stderr, "tb_trace_check: %s\n", err);
		return 2;
	}
	FILE *pf = fopen(argv[4], "r");
	while (pf && s.n_pids < 64 &&
	       fscanf(pf, "%127s %" SCNd64, names[s.n_pids], &s.pids[s.n_pids]) == 2)
		s.n_pids++;
	if (pf)
		fclose(pf);

	struct ca_ctf_handlers h = { on_event, on_discarded, &s, NULL };
	if (ca_ctf_iterate(argv[2], &h, err, sizeof err) != 0) {
		fprintf(stderr, "tb_trace_check: %s\n", err);
		free_state(&s);
		tb_system_free(sys);
		return 1;
	}

	unsigned entities = 0, instances = 0, structure = 0;
	for (size_t i = 0; i < s.n_pids; i++) {
		const struct tb_sys_process *p = tb_system_process(sys, names[i]);
		if (!p) {
			fail(&s, "pid file names unknown process %s", names[i]);
			continue;
		}
		for (size_t j = 0; j < p->n_nodes; j++)
			entities += check_node(&s, s.pids[i], &p->nodes[j]);
		read_truth(&s, argv[3], p->name, s.pids[i]);
		if (s.tracer)
			structure += check_structure(&s, argv[3], p->name, s.pids[i]);
		if (s.tracer && !s.late)
			check_publishes(&s, argv[3], p->name, i);
		if (s.late)
			check_late(&s, p->name, i);
	}
	if (s.tracer && s.plain_init_events)
		fail(&s, "%u initialization events as ros2:*, not ros2_caret:*",
			s.plain_init_events);
	if (s.tracer && (!s.init_events || s.late_stamps))
		fail(&s, "%u of %u init_timestamps after their event's timestamp",
			s.late_stamps, s.init_events);
	if (s.n_pids != sys->n_processes)
		fail(&s, "%zu processes in the pid file, %zu in the system", s.n_pids,
			sys->n_processes);
	for (size_t i = 0; i < s.n_cbs; i++) {
		const struct cb_count *c = &s.cbs[i];
		/* Late: a run cut by the start of the recording has no start. */
		bool ok = s.late ? c->ends <= c->truth && c->ends - c->starts <= 1 &&
				   c->starts <= c->ends :
				   c->starts == c->truth && c->ends == c->truth;
		if (!ok)
			fail(&s, "pid %" PRId64 " callback 0x%" PRIx64 ": %u starts, %u ends, "
				"truth %u", c->pid, c->callback, c->starts, c->ends, c->truth);
		instances += s.late ? c->ends : c->truth;
	}
	if (s.discarded)
		fail(&s, "%" PRIu64 " events discarded", s.discarded);

	size_t matched = 0, across = 0;
	qsort(s.binds, s.n_binds, sizeof *s.binds, by_stamp);
	for (size_t i = 0; i < s.n_takes; i++) {
		const struct stamp *b = bsearch(&s.takes[i], s.binds, s.n_binds,
			sizeof *s.binds, by_stamp);
		if (!b) {
			/* Late: written before its publisher recorded, taken after. */
			if (!s.late)
				fail(&s, "pid %" PRId64 ": take with source timestamp %" PRIu64
					" has no DDS write", s.takes[i].pid, s.takes[i].stamp);
			continue;
		}
		matched++;
		across += b->pid != s.takes[i].pid;
	}
	if (s.late && s.n_takes && !matched)
		fail(&s, "no DDS take matched to a write");
	printf("tb_trace_check: %s: %u entities, %u callback instances as in the truth, "
		"%zu DDS takes matched to writes (%zu across processes)", sys->name,
		entities, instances, matched, across);
	if (s.tracer)
		printf(", %u init events stamped in order, %u structure events as in the truth",
			s.init_events, structure);
	printf(": %s\n", s.failures ? "MISMATCH" : "ok");
	tb_system_free(sys);
	unsigned failures = s.failures;
	free_state(&s);
	return failures ? 1 : 0;
}
