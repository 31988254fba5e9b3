/*
 * system.c - loads a system description with libyaml's document API and
 * checks it. Every error names the file, the line and the reason; the first
 * one found is reported.
 */
#include "system.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <yaml.h>

struct parser {
	yaml_document_t doc;
	const char *path;
	char *err;
	size_t err_size;
	bool failed;
};

static void fail(struct parser *p, int line, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void fail(struct parser *p, int line, const char *fmt, ...)
{
	if (p->failed)
		return;
	p->failed = true;
	int n = snprintf(p->err, p->err_size, "%s:%d: ", p->path, line);
	if (n < 0 || (size_t)n >= p->err_size)
		return;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(p->err + n, p->err_size - (size_t)n, fmt, ap);
	va_end(ap);
}

static int line_of(const yaml_node_t *n)
{
	return n ? (int)n->start_mark.line + 1 : 0;
}

static const char *scalar(const yaml_node_t *n)
{
	return n && n->type == YAML_SCALAR_NODE ? (const char *)n->data.scalar.value : NULL;
}

static yaml_node_t *node_at(struct parser *p, int index)
{
	return yaml_document_get_node(&p->doc, index);
}

/* Checks that mapping m has only the given keys. */
static bool expect_map(struct parser *p, yaml_node_t *m, const char *what,
	const char *const *keys)
{
	if (!m || m->type != YAML_MAPPING_NODE) {
		fail(p, line_of(m), "%s must be a mapping", what);
		return false;
	}
	for (yaml_node_pair_t *pair = m->data.mapping.pairs.start;
	     pair < m->data.mapping.pairs.top; pair++) {
		yaml_node_t *k = node_at(p, pair->key);
		const char *key = scalar(k);
		bool known = false;
		for (const char *const *kk = keys; key && *kk; kk++)
			known |= strcmp(*kk, key) == 0;
		if (!known) {
			fail(p, line_of(k), "unknown key '%s' in %s", key ? key : "?", what);
			return false;
		}
	}
	return true;
}

static yaml_node_t *get(struct parser *p, yaml_node_t *m, const char *key)
{
	for (yaml_node_pair_t *pair = m->data.mapping.pairs.start;
	     pair < m->data.mapping.pairs.top; pair++) {
		const char *k = scalar(node_at(p, pair->key));
		if (k && strcmp(k, key) == 0)
			return node_at(p, pair->value);
	}
	return NULL;
}

static char *get_string(struct parser *p, yaml_node_t *m, const char *key,
	bool required, const char *what)
{
	yaml_node_t *v = get(p, m, key);
	if (!v) {
		if (required)
			fail(p, line_of(m), "%s needs '%s'", what, key);
		return NULL;
	}
	const char *s = scalar(v);
	if (!s || !*s) {
		fail(p, line_of(v), "'%s' of %s must be a non-empty string", key, what);
		return NULL;
	}
	return strdup(s);
}

static int64_t get_int(struct parser *p, yaml_node_t *m, const char *key,
	int64_t fallback, int64_t min, int64_t max, const char *what)
{
	yaml_node_t *v = get(p, m, key);
	if (!v)
		return fallback;
	const char *s = scalar(v);
	char *end = NULL;
	errno = 0;
	long long x = s ? strtoll(s, &end, 10) : 0;
	if (!s || !*s || *end || errno || x < min || x > max) {
		fail(p, line_of(v), "'%s' of %s must be an integer in [%lld, %lld]",
			key, what, (long long)min, (long long)max);
		return fallback;
	}
	return x;
}

static bool get_bool(struct parser *p, yaml_node_t *m, const char *key,
	const char *what)
{
	yaml_node_t *v = get(p, m, key);
	const char *s = scalar(v);
	if (!v)
		return false;
	if (s && (!strcmp(s, "true") || !strcmp(s, "yes")))
		return true;
	if (s && (!strcmp(s, "false") || !strcmp(s, "no")))
		return false;
	fail(p, line_of(v), "'%s' of %s must be true or false", key, what);
	return false;
}

static void get_strings(struct parser *p, yaml_node_t *m, const char *key,
	struct tb_sys_strings *out, const char *what)
{
	yaml_node_t *v = get(p, m, key);
	if (!v)
		return;
	if (v->type == YAML_SCALAR_NODE) { /* one item without brackets */
		out->items = calloc(2, sizeof *out->items); /* NULL-terminated */
		out->items[0] = strdup(scalar(v));
		out->count = 1;
		return;
	}
	if (v->type != YAML_SEQUENCE_NODE) {
		fail(p, line_of(v), "'%s' of %s must be a list of strings", key, what);
		return;
	}
	size_t n = (size_t)(v->data.sequence.items.top - v->data.sequence.items.start);
	out->items = calloc(n + 1, sizeof *out->items); /* NULL-terminated: argv */
	for (size_t i = 0; i < n; i++) {
		const char *s = scalar(node_at(p, v->data.sequence.items.start[i]));
		if (!s || !*s) {
			fail(p, line_of(v), "'%s' of %s must be a list of strings", key, what);
			return;
		}
		out->items[out->count++] = strdup(s);
	}
}

static void get_work(struct parser *p, yaml_node_t *m, struct tb_sys_work *w,
	const char *what)
{
	static const char *const keys[] = { "mean", "jitter", NULL };
	yaml_node_t *v = get(p, m, "work_us");
	if (!v)
		return;
	if (v->type == YAML_SCALAR_NODE) {
		w->mean_ns = 1000 * get_int(p, m, "work_us", 0, 0, 10000000, what);
		return;
	}
	if (!expect_map(p, v, "work_us", keys))
		return;
	w->mean_ns = 1000 * get_int(p, v, "mean", 0, 0, 10000000, "work_us");
	w->jitter_ns = 1000 * get_int(p, v, "jitter", 0, 0, 10000000, "work_us");
	if (w->jitter_ns > w->mean_ns)
		fail(p, line_of(v), "work_us: jitter larger than mean");
}

/* Calls each(p, item, out + i) for the sequence under key; returns count. */
#define PARSE_SEQ(p, m, key, what, out, count, each)                             \
	do {                                                                     \
		yaml_node_t *seq_ = get(p, m, key);                              \
		if (!seq_)                                                       \
			break;                                                   \
		if (seq_->type != YAML_SEQUENCE_NODE) {                          \
			fail(p, line_of(seq_), "'%s' of %s must be a list", key, what); \
			break;                                                   \
		}                                                                \
		size_t n_ = (size_t)(seq_->data.sequence.items.top -             \
				     seq_->data.sequence.items.start);           \
		(out) = calloc(n_ ? n_ : 1, sizeof *(out));                      \
		for (size_t i_ = 0; i_ < n_ && !(p)->failed; i_++, (count)++)    \
			each(p, node_at(p, seq_->data.sequence.items.start[i_]), \
			     &(out)[i_]);                                        \
	} while (0)

static void parse_group(struct parser *p, yaml_node_t *m, struct tb_sys_group *g)
{
	static const char *const keys[] = { "name", "type", NULL };
	if (!expect_map(p, m, "callback group", keys))
		return;
	g->line = line_of(m);
	g->name = get_string(p, m, "name", true, "callback group");
	char *type = get_string(p, m, "type", true, "callback group");
	if (type && !strcmp(type, "reentrant"))
		g->type = TB_GROUP_REENTRANT;
	else if (type && !strcmp(type, "mutually_exclusive"))
		g->type = TB_GROUP_MUTUALLY_EXCLUSIVE;
	else if (type)
		fail(p, line_of(get(p, m, "type")), "callback group type '%s' is not "
			"mutually_exclusive or reentrant", type);
	free(type);
}

static void parse_publisher(struct parser *p, yaml_node_t *m, struct tb_sys_publisher *pub)
{
	static const char *const keys[] = { "topic", "payload", "depth", NULL };
	if (!expect_map(p, m, "publisher", keys))
		return;
	pub->line = line_of(m);
	pub->topic = get_string(p, m, "topic", true, "publisher");
	pub->payload = (size_t)get_int(p, m, "payload", 0, 0, 64 << 20, "publisher");
	pub->depth = (size_t)get_int(p, m, "depth", 0, 0, 10000, "publisher");
}

static void parse_timer(struct parser *p, yaml_node_t *m, struct tb_sys_timer *t)
{
	static const char *const keys[] = { "period_ms", "publish", "call",
		"use_latest", "work_us", "group", NULL };
	if (!expect_map(p, m, "timer", keys))
		return;
	t->line = line_of(m);
	if (!get(p, m, "period_ms"))
		fail(p, t->line, "timer needs 'period_ms'");
	t->period_ns = 1000000 * get_int(p, m, "period_ms", 100, 1, 3600000, "timer");
	get_strings(p, m, "publish", &t->publish, "timer");
	get_strings(p, m, "call", &t->call, "timer");
	t->use_latest = get_string(p, m, "use_latest", false, "timer");
	t->group = get_string(p, m, "group", false, "timer");
	get_work(p, m, &t->work, "timer");
}

static void parse_subscription(struct parser *p, yaml_node_t *m,
	struct tb_sys_subscription *s)
{
	static const char *const keys[] = { "topic", "publish", "work_us", "group",
		"depth", NULL };
	if (!expect_map(p, m, "subscription", keys))
		return;
	s->line = line_of(m);
	s->topic = get_string(p, m, "topic", true, "subscription");
	get_strings(p, m, "publish", &s->publish, "subscription");
	s->group = get_string(p, m, "group", false, "subscription");
	s->depth = (size_t)get_int(p, m, "depth", 0, 0, 10000, "subscription");
	get_work(p, m, &s->work, "subscription");
}

static void parse_service(struct parser *p, yaml_node_t *m, struct tb_sys_service *s)
{
	static const char *const keys[] = { "name", "work_us", "group", NULL };
	if (!expect_map(p, m, "service", keys))
		return;
	s->line = line_of(m);
	s->name = get_string(p, m, "name", true, "service");
	s->group = get_string(p, m, "group", false, "service");
	get_work(p, m, &s->work, "service");
}

static void parse_node(struct parser *p, yaml_node_t *m, struct tb_sys_node *n)
{
	static const char *const keys[] = { "name", "namespace", "inputs",
		"callback_groups", "publishers", "timers", "subscriptions",
		"services", NULL };
	if (!expect_map(p, m, "node", keys))
		return;
	n->line = line_of(m);
	n->name = get_string(p, m, "name", true, "node");
	n->ns = get_string(p, m, "namespace", false, "node");
	if (!n->ns)
		n->ns = strdup("/");
	if (n->name && strchr(n->name, '/'))
		fail(p, n->line, "node name '%s' must not contain '/'", n->name);
	if (n->ns[0] != '/')
		fail(p, n->line, "namespace '%s' must start with '/'", n->ns);
	if (n->name) {
		size_t len = strlen(n->ns) + strlen(n->name) + 2;
		n->fqn = malloc(len);
		snprintf(n->fqn, len, "%s/%s", strcmp(n->ns, "/") ? n->ns : "", n->name);
	}
	char *inputs = get_string(p, m, "inputs", false, "node");
	if (inputs && !strcmp(inputs, "same_stamp"))
		n->same_stamp = true;
	else if (inputs && strcmp(inputs, "latest"))
		fail(p, line_of(get(p, m, "inputs")),
			"inputs '%s' is not latest or same_stamp", inputs);
	free(inputs);
	PARSE_SEQ(p, m, "callback_groups", "node", n->groups, n->n_groups, parse_group);
	PARSE_SEQ(p, m, "publishers", "node", n->publishers, n->n_publishers, parse_publisher);
	PARSE_SEQ(p, m, "timers", "node", n->timers, n->n_timers, parse_timer);
	PARSE_SEQ(p, m, "subscriptions", "node", n->subscriptions, n->n_subscriptions,
		parse_subscription);
	PARSE_SEQ(p, m, "services", "node", n->services, n->n_services, parse_service);
}

static void parse_executor(struct parser *p, yaml_node_t *m, struct tb_sys_executor *e)
{
	static const char *const keys[] = { "type", "threads", "nodes", NULL };
	if (!expect_map(p, m, "executor", keys))
		return;
	e->line = line_of(m);
	char *type = get_string(p, m, "type", false, "executor");
	if (!type || !strcmp(type, "single_threaded"))
		e->type = TB_EXECUTOR_SINGLE_THREADED;
	else if (!strcmp(type, "multi_threaded"))
		e->type = TB_EXECUTOR_MULTI_THREADED;
	else if (!strcmp(type, "static_single_threaded"))
		e->type = TB_EXECUTOR_STATIC_SINGLE_THREADED;
	else
		fail(p, line_of(get(p, m, "type")), "executor type '%s' is not "
			"single_threaded, multi_threaded or static_single_threaded", type);
	free(type);
	e->threads = (unsigned)get_int(p, m, "threads", 0, 1, 64, "executor");
	if (e->threads && e->type != TB_EXECUTOR_MULTI_THREADED)
		fail(p, line_of(get(p, m, "threads")),
			"'threads' is for multi_threaded executors only");
	get_strings(p, m, "nodes", &e->nodes, "executor");
	if (!e->nodes.count)
		fail(p, e->line, "executor needs 'nodes'");
}

static void parse_process(struct parser *p, yaml_node_t *m, struct tb_sys_process *pr)
{
	static const char *const keys[] = { "name", "intra_process", "command",
		"executors", "nodes", NULL };
	if (!expect_map(p, m, "process", keys))
		return;
	pr->line = line_of(m);
	pr->name = get_string(p, m, "name", true, "process");
	if (pr->name && strpbrk(pr->name, "/ \t"))
		fail(p, pr->line, "process name '%s' must not contain '/' or blanks",
			pr->name);
	pr->intra_process = get_bool(p, m, "intra_process", "process");
	get_strings(p, m, "command", &pr->command, "process");
	PARSE_SEQ(p, m, "nodes", "process", pr->nodes, pr->n_nodes, parse_node);
	PARSE_SEQ(p, m, "executors", "process", pr->executors, pr->n_executors,
		parse_executor);
	if (!pr->command.count && !pr->n_nodes)
		fail(p, pr->line, "process needs 'nodes' (or a 'command')");
}

/* ---- consistency ------------------------------------------------------ */

const struct tb_sys_node *tb_sys_process_node(const struct tb_sys_process *p,
	const char *name)
{
	for (size_t i = 0; i < p->n_nodes; i++)
		if (!strcmp(p->nodes[i].fqn, name))
			return &p->nodes[i];
	for (size_t i = 0; i < p->n_nodes; i++)
		if (!strcmp(p->nodes[i].name, name))
			return &p->nodes[i];
	return NULL;
}

static bool has_string(const struct tb_sys_strings *s, const char *x)
{
	for (size_t i = 0; i < s->count; i++)
		if (!strcmp(s->items[i], x))
			return true;
	return false;
}

static bool node_publishes(const struct tb_sys_node *n, const char *topic)
{
	for (size_t i = 0; i < n->n_timers; i++)
		if (has_string(&n->timers[i].publish, topic))
			return true;
	for (size_t i = 0; i < n->n_subscriptions; i++)
		if (has_string(&n->subscriptions[i].publish, topic))
			return true;
	return false;
}

bool tb_sys_node_is_sink(const struct tb_sys_node *n)
{
	for (size_t i = 0; i < n->n_timers; i++)
		if (n->timers[i].publish.count || n->timers[i].call.count)
			return false;
	for (size_t i = 0; i < n->n_subscriptions; i++)
		if (n->subscriptions[i].publish.count)
			return false;
	return true;
}

static bool system_publishes(const struct tb_system *s, const char *topic)
{
	for (size_t i = 0; i < s->n_processes; i++)
		for (size_t j = 0; j < s->processes[i].n_nodes; j++)
			if (node_publishes(&s->processes[i].nodes[j], topic))
				return true;
	return false;
}

static bool system_serves(const struct tb_system *s, const char *service)
{
	for (size_t i = 0; i < s->n_processes; i++)
		for (size_t j = 0; j < s->processes[i].n_nodes; j++)
			for (size_t k = 0; k < s->processes[i].nodes[j].n_services; k++)
				if (!strcmp(s->processes[i].nodes[j].services[k].name, service))
					return true;
	return false;
}

static void check_group(struct parser *p, const struct tb_sys_node *n,
	const char *group, int line)
{
	if (!group)
		return;
	for (size_t i = 0; i < n->n_groups; i++)
		if (!strcmp(n->groups[i].name, group))
			return;
	fail(p, line, "callback group '%s' is not declared in node %s", group, n->fqn);
}

static void check_name(struct parser *p, const char *name, int line, const char *what)
{
	if (name && (name[0] != '/' || !name[1]))
		fail(p, line, "%s '%s' must be an absolute name (start with '/')", what, name);
}

static void check_node(struct parser *p, const struct tb_system *s,
	const struct tb_sys_node *n)
{
	for (size_t i = 0; i < n->n_timers; i++) {
		const struct tb_sys_timer *t = &n->timers[i];
		check_group(p, n, t->group, t->line);
		for (size_t k = 0; k < t->publish.count; k++)
			check_name(p, t->publish.items[k], t->line, "topic");
		for (size_t k = 0; k < t->call.count; k++)
			if (!system_serves(s, t->call.items[k]))
				fail(p, t->line, "service %s is called but no node provides it",
					t->call.items[k]);
		bool subscribed = false;
		for (size_t k = 0; t->use_latest && k < n->n_subscriptions; k++)
			subscribed |= !strcmp(n->subscriptions[k].topic, t->use_latest);
		if (t->use_latest && !subscribed)
			fail(p, t->line, "use_latest %s is not subscribed by node %s",
				t->use_latest, n->fqn);
	}
	for (size_t i = 0; i < n->n_subscriptions; i++) {
		const struct tb_sys_subscription *sub = &n->subscriptions[i];
		check_group(p, n, sub->group, sub->line);
		check_name(p, sub->topic, sub->line, "topic");
		for (size_t k = 0; k < sub->publish.count; k++)
			check_name(p, sub->publish.items[k], sub->line, "topic");
		if (sub->topic && !system_publishes(s, sub->topic))
			fail(p, sub->line, "topic %s is subscribed but nothing publishes it",
				sub->topic);
	}
	for (size_t i = 0; i < n->n_services; i++) {
		check_group(p, n, n->services[i].group, n->services[i].line);
		check_name(p, n->services[i].name, n->services[i].line, "service");
	}
	for (size_t i = 0; i < n->n_publishers; i++)
		if (n->publishers[i].topic && !node_publishes(n, n->publishers[i].topic))
			fail(p, n->publishers[i].line, "publisher %s is never published "
				"by a callback of node %s", n->publishers[i].topic, n->fqn);
	if (n->same_stamp && n->n_subscriptions < 2)
		fail(p, n->line, "inputs: same_stamp needs at least two subscriptions "
			"in node %s", n->fqn);
}

static void check_process(struct parser *p, const struct tb_system *s,
	const struct tb_sys_process *pr)
{
	for (size_t i = 0; i < pr->n_executors; i++) {
		const struct tb_sys_executor *e = &pr->executors[i];
		for (size_t k = 0; k < e->nodes.count; k++)
			if (!tb_sys_process_node(pr, e->nodes.items[k]))
				fail(p, e->line, "executor names node '%s', which process %s "
					"does not have", e->nodes.items[k], pr->name);
	}
	for (size_t j = 0; j < pr->n_nodes; j++) {
		const struct tb_sys_node *n = &pr->nodes[j];
		unsigned spun = 0;
		for (size_t i = 0; i < pr->n_executors; i++)
			for (size_t k = 0; k < pr->executors[i].nodes.count; k++)
				spun += tb_sys_process_node(pr, pr->executors[i].nodes.items[k]) == n;
		if (pr->n_executors && spun != 1)
			fail(p, n->line, "node %s is in %u executors (must be in exactly one)",
				n->fqn, spun);
		check_node(p, s, n);
	}
}

static void check_system(struct parser *p, const struct tb_system *s)
{
	for (size_t i = 0; i < s->n_processes && !p->failed; i++) {
		const struct tb_sys_process *pr = &s->processes[i];
		for (size_t j = 0; j < i; j++)
			if (!strcmp(s->processes[j].name, pr->name))
				fail(p, pr->line, "process name %s used twice", pr->name);
		for (size_t j = 0; j < pr->n_nodes; j++)
			for (size_t i2 = 0; i2 <= i; i2++)
				for (size_t j2 = 0; j2 < s->processes[i2].n_nodes; j2++) {
					const struct tb_sys_node *o = &s->processes[i2].nodes[j2];
					if (o != &pr->nodes[j] && (i2 < i || j2 < j) &&
					    !strcmp(o->fqn, pr->nodes[j].fqn))
						fail(p, pr->nodes[j].line, "node %s declared twice",
							o->fqn);
				}
		check_process(p, s, pr);
	}
}

struct tb_system *tb_system_load(const char *path, char *err, size_t err_size)
{
	static const char *const keys[] = { "system", "defaults", "processes", NULL };
	static const char *const default_keys[] = { "payload", "depth", NULL };
	struct parser p = { .path = path, .err = err, .err_size = err_size };
	yaml_parser_t yp;
	FILE *f = fopen(path, "rb");

	if (!f) {
		snprintf(err, err_size, "%s: %s", path, strerror(errno));
		return NULL;
	}
	yaml_parser_initialize(&yp);
	yaml_parser_set_input_file(&yp, f);
	if (!yaml_parser_load(&yp, &p.doc)) {
		snprintf(err, err_size, "%s:%d: %s", path, (int)yp.problem_mark.line + 1,
			yp.problem ? yp.problem : "YAML syntax error");
		yaml_parser_delete(&yp);
		fclose(f);
		return NULL;
	}
	yaml_parser_delete(&yp);
	fclose(f);

	struct tb_system *s = calloc(1, sizeof *s);
	yaml_node_t *root = yaml_document_get_root_node(&p.doc);
	if (!root) {
		fail(&p, 1, "empty system description");
	} else if (expect_map(&p, root, "the system description", keys)) {
		s->name = get_string(&p, root, "system", true, "the system description");
		yaml_node_t *d = get(&p, root, "defaults");
		s->default_payload = 256;
		s->default_depth = 10;
		if (d && expect_map(&p, d, "defaults", default_keys)) {
			s->default_payload = (size_t)get_int(&p, d, "payload", 256, 0,
				64 << 20, "defaults");
			s->default_depth = (size_t)get_int(&p, d, "depth", 10, 1, 10000,
				"defaults");
		}
		PARSE_SEQ(&p, root, "processes", "the system description", s->processes,
			s->n_processes, parse_process);
		if (!p.failed && !s->n_processes)
			fail(&p, line_of(root), "the system has no 'processes'");
		if (!p.failed)
			check_system(&p, s);
	}
	yaml_document_delete(&p.doc);
	if (p.failed) {
		tb_system_free(s);
		return NULL;
	}
	return s;
}

const struct tb_sys_process *tb_system_process(const struct tb_system *sys,
	const char *name)
{
	for (size_t i = 0; i < sys->n_processes; i++)
		if (!strcmp(sys->processes[i].name, name))
			return &sys->processes[i];
	return NULL;
}

/* ---- freeing ---------------------------------------------------------- */

static void free_strings(struct tb_sys_strings *s)
{
	for (size_t i = 0; i < s->count; i++)
		free(s->items[i]);
	free(s->items);
}

static void free_node(struct tb_sys_node *n)
{
	for (size_t i = 0; i < n->n_groups; i++)
		free(n->groups[i].name);
	for (size_t i = 0; i < n->n_publishers; i++)
		free(n->publishers[i].topic);
	for (size_t i = 0; i < n->n_timers; i++) {
		free_strings(&n->timers[i].publish);
		free_strings(&n->timers[i].call);
		free(n->timers[i].use_latest);
		free(n->timers[i].group);
	}
	for (size_t i = 0; i < n->n_subscriptions; i++) {
		free(n->subscriptions[i].topic);
		free_strings(&n->subscriptions[i].publish);
		free(n->subscriptions[i].group);
	}
	for (size_t i = 0; i < n->n_services; i++) {
		free(n->services[i].name);
		free(n->services[i].group);
	}
	free(n->groups);
	free(n->publishers);
	free(n->timers);
	free(n->subscriptions);
	free(n->services);
	free(n->name);
	free(n->ns);
	free(n->fqn);
}

void tb_system_free(struct tb_system *s)
{
	if (!s)
		return;
	for (size_t i = 0; i < s->n_processes; i++) {
		struct tb_sys_process *pr = &s->processes[i];
		/* Counts include an item whose parsing failed half way. */
		for (size_t j = 0; j < pr->n_nodes; j++)
			free_node(&pr->nodes[j]);
		for (size_t j = 0; j < pr->n_executors; j++)
			free_strings(&pr->executors[j].nodes);
		free(pr->nodes);
		free(pr->executors);
		free_strings(&pr->command);
		free(pr->name);
	}
	free(s->processes);
	free(s->name);
	free(s);
}
