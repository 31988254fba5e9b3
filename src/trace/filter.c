/* filter.c - see filter.h. */
#define _GNU_SOURCE
#include "filter.h"

#include <errno.h>
#include <pthread.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

bool ct_filter_active;

/* ---- patterns ------------------------------------------------------- */

struct patterns {
	regex_t *re;
	size_t count;
	bool all; /* "*" given */
	bool set;
};

static struct patterns select_nodes, ignore_nodes, select_topics, ignore_topics;

/* What was wrong with the variables, for the trace and the Status. */
static char problems[512];

static void forget(struct patterns *p)
{
	for (size_t i = 0; i < p->count; i++)
		regfree(&p->re[i]);
	free(p->re);
	*p = (struct patterns){ 0 };
}

static void add_problem(const char *var, const char *what)
{
	size_t n = strlen(problems);
	if (n + 2 < sizeof problems)
		snprintf(problems + n, sizeof problems - n, "%s%s: %s", n ? "; " : "", var, what);
}

/* A variable with an invalid pattern is not applied at all: what it would
 * filter is recorded, and the problem is reported (never "match nothing"). */
static void compile(struct patterns *p, const char *var)
{
	const char *value = getenv(var);
	if (!value || !*value)
		return;
	p->set = true;
	char *copy = strdup(value), *save = NULL;
	size_t max = 1;
	for (const char *c = value; *c; c++)
		max += *c == ':';
	p->re = calloc(max, sizeof *p->re);
	if (!copy || !p->re) {
		free(copy);
		forget(p);
		add_problem(var, "out of memory: not applied");
		return;
	}
	bool valid = true;
	for (char *tok = strtok_r(copy, ":", &save); tok && valid; tok = strtok_r(NULL, ":", &save)) {
		if (!strcmp(tok, "*")) {
			p->all = true;
			continue;
		}
		int rc = regcomp(&p->re[p->count], tok, REG_EXTENDED | REG_NOSUB);
		if (rc == 0) {
			p->count++;
			continue;
		}
		char msg[128], what[384];
		regerror(rc, &p->re[p->count], msg, sizeof msg);
		snprintf(what, sizeof what, "invalid pattern '%.200s' (%s): the variable is not "
			"applied", tok, msg);
		add_problem(var, what);
		valid = false;
	}
	free(copy);
	if (!valid) {
		forget(p);
		ct_debug("%s", problems);
	}
}

const char *ct_filter_problems(void)
{
	return problems[0] ? problems : NULL;
}

static bool matches(const struct patterns *p, const char *s)
{
	if (p->all)
		return true;
	for (size_t i = 0; i < p->count; i++)
		if (regexec(&p->re[i], s, 0, NULL, 0) == 0)
			return true;
	return false;
}

/* SELECT wins over IGNORE; an unknown name is recorded. */
static bool allowed_name(const struct patterns *sel, const struct patterns *ign,
	const char *name)
{
	if (!name)
		return true;
	if (sel->set)
		return matches(sel, name);
	if (ign->set)
		return !matches(ign, name);
	return true;
}

static bool decide(const char *node, const char *topic)
{
	return allowed_name(&select_nodes, &ignore_nodes, node) &&
	       allowed_name(&select_topics, &ignore_topics, topic);
}

bool ct_filter_init(void)
{
	struct patterns processes = { 0 };

	compile(&select_nodes, "CARET_SELECT_NODES");
	compile(&ignore_nodes, "CARET_IGNORE_NODES");
	compile(&select_topics, "CARET_SELECT_TOPICS");
	compile(&ignore_topics, "CARET_IGNORE_TOPICS");
	compile(&processes, "CARET_IGNORE_PROCESSES");
	ct_filter_active = select_nodes.set || ignore_nodes.set ||
			   select_topics.set || ignore_topics.set;
	return processes.set && matches(&processes, program_invocation_short_name);
}

/* ---- decision tables: written under the lock, read lock-free ---------- */

#define TABLE_SIZE 8192 /* per kind; when full, further entities are recorded */

struct slot {
	_Atomic uintptr_t key;
	_Atomic bool allowed;
};

enum table { T_CALLBACK, T_PUBLISHER, T_RMW_SUBSCRIPTION, T_STATE_MACHINE, T_BUFFER,
	T_COUNT };
static struct slot *tables[T_COUNT];

static size_t slot_of(uintptr_t key)
{
	return (size_t)((key >> 3) * 0x9e3779b97f4a7c15ull >> 51) & (TABLE_SIZE - 1);
}

static void table_set(enum table t, uint64_t key, bool allowed)
{
	if (!key)
		return;
	if (!tables[t] && !(tables[t] = calloc(TABLE_SIZE, sizeof(struct slot))))
		return;
	struct slot *s = tables[t];
	for (size_t i = slot_of(key), n = 0; n < TABLE_SIZE; i = (i + 1) & (TABLE_SIZE - 1), n++) {
		uintptr_t k = atomic_load_explicit(&s[i].key, memory_order_relaxed);
		if (k == key || k == 0) {
			/* An address reused by a new object gets the new decision. */
			atomic_store_explicit(&s[i].allowed, allowed, memory_order_relaxed);
			atomic_store_explicit(&s[i].key, key, memory_order_release);
			return;
		}
	}
	ct_debug("filter table %d full: further entities are recorded", t);
}

static bool table_get(enum table t, const void *p)
{
	uintptr_t key = (uintptr_t)p;
	struct slot *s = tables[t];
	if (!s || !key)
		return true;
	for (size_t i = slot_of(key), n = 0; n < TABLE_SIZE; i = (i + 1) & (TABLE_SIZE - 1), n++) {
		uintptr_t k = atomic_load_explicit(&s[i].key, memory_order_acquire);
		if (k == key)
			return atomic_load_explicit(&s[i].allowed, memory_order_relaxed);
		if (k == 0)
			return true;
	}
	return true;
}

bool ct_filter_lookup_callback(const void *p) { return table_get(T_CALLBACK, p); }
bool ct_filter_lookup_publisher(const void *p) { return table_get(T_PUBLISHER, p); }
bool ct_filter_lookup_rmw_subscription(const void *p) { return table_get(T_RMW_SUBSCRIPTION, p); }
bool ct_filter_lookup_state_machine(const void *p) { return table_get(T_STATE_MACHINE, p); }
bool ct_filter_lookup_buffer(const void *p) { return table_get(T_BUFFER, p); }

/* ---- what the initialization events tell ------------------------------ */

/* Links between handles, in arrival order (initialization only). */
struct link {
	uint64_t from, to;
	char *name;  /* node fqn or topic */
	bool allowed;
};

struct links {
	struct link *items;
	size_t count, capacity;
};

static struct links nodes;         /* node handle -> fqn */
static struct links subscriptions; /* rcl subscription handle -> decision */
static struct links sub_objects;   /* rclcpp subscription -> rcl handle */
static struct links timers;        /* timer handle -> callback */
static struct links services;      /* service handle -> node handle */
static struct links sub_callbacks; /* rclcpp subscription object -> its callback */
static struct links ipbs;          /* Jazzy: intra-process buffer -> its ring buffer */
static struct links buffers;       /* ring buffer -> rclcpp (intra) subscription object */
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

static void link_add(struct links *l, uint64_t from, uint64_t to, const char *name,
	bool allowed)
{
	if (l->count == l->capacity) {
		size_t cap = l->capacity ? 2 * l->capacity : 64;
		struct link *items = realloc(l->items, cap * sizeof *items);
		if (!items)
			return;
		l->items = items;
		l->capacity = cap;
	}
	l->items[l->count++] = (struct link){ from, to, name ? strdup(name) : NULL, allowed };
}

/* The latest link from `from` (an address may be reused). */
static const struct link *link_find(const struct links *l, uint64_t from)
{
	for (size_t i = l->count; i-- > 0;)
		if (l->items[i].from == from)
			return &l->items[i];
	return NULL;
}

/* A ring buffer's decision is its subscription's, known once the buffer,
 * the subscription object and the object's rcl handle are linked (Jazzy's
 * order: buffer to ipb, ipb to subscription, then rclcpp_subscription_init
 * of that object). */
static void decide_buffer(uint64_t buffer)
{
	const struct link *b = link_find(&buffers, buffer);
	const struct link *obj = b ? link_find(&sub_objects, b->to) : NULL;
	const struct link *sub = obj ? link_find(&subscriptions, obj->to) : NULL;
	if (sub)
		table_set(T_BUFFER, buffer, sub->allowed);
}

/* A subscription callback's decision is its subscription's, once the
 * rclcpp object that holds it is tied to its rcl handle. */
static void decide_callback(uint64_t object, uint64_t callback)
{
	const struct link *obj = link_find(&sub_objects, object);
	const struct link *sub = obj ? link_find(&subscriptions, obj->to) : NULL;
	if (sub)
		table_set(T_CALLBACK, callback, sub->allowed);
}

static const char *node_name(uint64_t node_handle)
{
	const struct link *n = link_find(&nodes, node_handle);
	return n ? n->name : NULL;
}

void ct_filter_observe(const struct ct_record *r)
{
	if (!ct_filter_active)
		return;
	const union ct_value *v = r->v;
	pthread_mutex_lock(&lock);
	switch (r->id) {
	case CS_EV_ros2_caret_rcl_node_init: {
		char fqn[1024];
		ct_record_node_fqn(r, fqn, sizeof fqn);
		link_add(&nodes, v[0].u, 0, fqn, true);
		break;
	}
	case CS_EV_ros2_caret_rcl_publisher_init:
		table_set(T_PUBLISHER, v[0].u, decide(node_name(v[1].u), v[3].s));
		break;
	case CS_EV_ros2_caret_rcl_subscription_init: {
		bool ok = decide(node_name(v[1].u), v[3].s);
		table_set(T_RMW_SUBSCRIPTION, v[2].u, ok);
		link_add(&subscriptions, v[0].u, 0, NULL, ok);
		break;
	}
	case CS_EV_ros2_caret_rclcpp_subscription_init:
		link_add(&sub_objects, v[1].u, v[0].u, NULL, true);
		/* Jazzy names an intra-process subscription object after its
		 * callback and its buffer */
		for (size_t i = sub_callbacks.count; i-- > 0;)
			if (sub_callbacks.items[i].from == v[1].u)
				decide_callback(v[1].u, sub_callbacks.items[i].to);
		for (size_t i = buffers.count; i-- > 0;)
			if (buffers.items[i].to == v[1].u)
				decide_buffer(buffers.items[i].from);
		break;
	case CS_EV_ros2_caret_rclcpp_buffer_to_ipb:
		link_add(&ipbs, v[1].u, v[0].u, NULL, true);
		break;
	case CS_EV_ros2_caret_rclcpp_ipb_to_subscription: {
		const struct link *ipb = link_find(&ipbs, v[0].u);
		if (ipb) {
			link_add(&buffers, ipb->to, v[1].u, NULL, true);
			decide_buffer(ipb->to);
		}
		break;
	}
	case CS_EV_ros2_caret_rclcpp_subscription_callback_added:
		link_add(&sub_callbacks, v[0].u, v[1].u, NULL, true);
		decide_callback(v[0].u, v[1].u);
		break;
	case CS_EV_ros2_caret_rclcpp_timer_callback_added:
		link_add(&timers, v[0].u, v[1].u, NULL, true);
		break;
	case CS_EV_ros2_caret_rclcpp_timer_link_node: {
		const struct link *t = link_find(&timers, v[0].u);
		if (t)
			table_set(T_CALLBACK, t->to, decide(node_name(v[1].u), NULL));
		break;
	}
	case CS_EV_ros2_caret_rcl_service_init:
		link_add(&services, v[0].u, v[1].u, NULL, true);
		break;
	case CS_EV_ros2_caret_rclcpp_service_callback_added: {
		const struct link *s = link_find(&services, v[0].u);
		if (s)
			table_set(T_CALLBACK, v[1].u, decide(node_name(s->to), NULL));
		break;
	}
	case CS_EV_ros2_caret_rcl_lifecycle_state_machine_init:
		table_set(T_STATE_MACHINE, v[1].u, decide(node_name(v[0].u), NULL));
		break;
	default:
		break;
	}
	pthread_mutex_unlock(&lock);
}
