/*
 * arch_yaml_read.c - loads an architecture file back (libyaml's document
 * loader) and checks it against the original's keys: every mapping's keys
 * known and the required ones present, lists and scalars where expected,
 * callback types and their topic or period, and the names that refer to
 * each other (executor -> callback groups -> callbacks, paths -> nodes).
 * Errors say file:line and what was expected, in one line.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <yaml.h>

#include "ca.h"
#include "close_names.h"
#include "name_index.h"
#include "path.h"
#include "duration.h"
#include "requirements.h"

enum value_type { SCALAR, INTEGER, MAPS, SCALARS };

/* Lists and mappings in lists and mappings: an architecture file has 6. */
#define MAX_DEPTH 64

struct rule;
struct key_rule {
	const char *key;
	enum value_type type;
	bool required;
	const struct rule *items; /* MAPS: the rule of each item */
};

struct rule {
	const char *what; /* "a callback" */
	const struct key_rule *keys;
};

#define END { NULL, SCALAR, false, NULL }

static const struct rule chain_rule = { "a node_chain entry", (const struct key_rule[]){
	{ "node_name", SCALAR, true, NULL }, { "publish_topic_name", SCALAR, false, NULL },
	{ "subscribe_topic_name", SCALAR, false, NULL },
	{ "publisher_construction_order", INTEGER, false, NULL },
	{ "subscription_construction_order", INTEGER, false, NULL }, END } };
static const struct rule path_rule = { "a named path", (const struct key_rule[]){
	{ "path_name", SCALAR, true, NULL }, { "node_chain", MAPS, true, &chain_rule }, END } };
static const struct rule executor_rule = { "an executor", (const struct key_rule[]){
	{ "executor_type", SCALAR, true, NULL }, { "executor_name", SCALAR, true, NULL },
	{ "callback_group_names", SCALARS, true, NULL }, END } };
static const struct rule group_rule = { "a callback group", (const struct key_rule[]){
	{ "callback_group_type", SCALAR, true, NULL },
	{ "callback_group_name", SCALAR, true, NULL },
	{ "callback_names", SCALARS, true, NULL }, END } };
static const struct rule callback_rule = { "a callback", (const struct key_rule[]){
	{ "callback_name", SCALAR, true, NULL }, { "callback_type", SCALAR, true, NULL },
	{ "symbol", SCALAR, true, NULL }, { "period_ns", INTEGER, false, NULL },
	{ "topic_name", SCALAR, false, NULL }, { "service_name", SCALAR, false, NULL },
	{ "construction_order", INTEGER, false, NULL }, END } };
static const struct rule passing_rule = { "a variable passing", (const struct key_rule[]){
	{ "callback_name_write", SCALAR, true, NULL },
	{ "callback_name_read", SCALAR, true, NULL }, END } };
static const struct rule publish_rule = { "a publish", (const struct key_rule[]){
	{ "topic_name", SCALAR, true, NULL }, { "callback_names", SCALARS, false, NULL },
	{ "construction_order", INTEGER, false, NULL }, END } };
static const struct rule subscribe_rule = { "a subscribe", (const struct key_rule[]){
	{ "topic_name", SCALAR, true, NULL }, { "callback_name", SCALAR, false, NULL },
	{ "construction_order", INTEGER, false, NULL }, END } };
/* The original writes the callbacks that chain input to output under a
 * callback_chain context. */
static const struct rule context_rule = { "a message context", (const struct key_rule[]){
	{ "context_type", SCALAR, true, NULL },
	{ "subscription_topic_name", SCALAR, true, NULL },
	{ "publisher_topic_name", SCALAR, true, NULL },
	{ "callbacks", SCALARS, false, NULL }, END } };
/* caret-c's own: the ends of tf links (the original passes over them) */
static const struct rule tf_edge_rule = { "a tf broadcast or lookup", (const struct key_rule[]){
	{ "frame_id", SCALAR, true, NULL }, { "child_frame_id", SCALAR, true, NULL },
	{ "callback_names", SCALARS, false, NULL }, END } };
static const struct rule node_rule = { "a node", (const struct key_rule[]){
	{ "node_name", SCALAR, true, NULL },
	{ "callback_groups", MAPS, false, &group_rule },
	{ "callbacks", MAPS, false, &callback_rule },
	{ "variable_passings", MAPS, false, &passing_rule },
	{ "publishes", MAPS, false, &publish_rule },
	{ "subscribes", MAPS, false, &subscribe_rule },
	{ "message_contexts", MAPS, false, &context_rule },
	{ "tf_broadcasts", MAPS, false, &tf_edge_rule },
	{ "tf_lookups", MAPS, false, &tf_edge_rule }, END } };
/* caret-c's own: the requirements on a named path or a callback
 * (requirements.h; caret live watches the paths' deadlines) */
static const struct rule deadline_rule = { "a deadline", (const struct key_rule[]){
	{ "path_name", SCALAR, false, NULL }, { "callback_name", SCALAR, false, NULL },
	{ "deadline", SCALAR, false, NULL }, { "miss_ratio", SCALAR, false, NULL },
	{ "p99", SCALAR, false, NULL }, { "max", SCALAR, false, NULL }, END } };
static const struct rule top_rule = { "the top level", (const struct key_rule[]){
	{ "named_paths", MAPS, true, &path_rule }, { "executors", MAPS, true, &executor_rule },
	{ "nodes", MAPS, true, &node_rule }, { "deadlines", MAPS, false, &deadline_rule }, END } };

struct reader {
	yaml_document_t doc;
	const char *path;
	char *err;
	size_t err_size;
	bool failed;
	ca_arch_file_summary *sum;
	/* names defined by the nodes: lookups keep the check linear */
	struct name_index nodes, groups, callbacks;
};

static void fail(struct reader *r, const yaml_node_t *at, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static void fail(struct reader *r, const yaml_node_t *at, const char *fmt, ...)
{
	if (r->failed)
		return;
	r->failed = true;
	int n = snprintf(r->err, r->err_size, "%s:%zu: ", r->path,
		at ? at->start_mark.line + 1 : 1);
	va_list ap;
	va_start(ap, fmt);
	if (n >= 0 && (size_t)n < r->err_size)
		vsnprintf(r->err + n, r->err_size - (size_t)n, fmt, ap);
	va_end(ap);
	/* names quoted from the file may hold line breaks: the reason stays
	 * one line */
	for (char *c = r->err; *c; c++)
		if ((unsigned char)*c < 0x20 || *c == 0x7f)
			*c = '?';
}

static const char *text(const yaml_node_t *n)
{
	return n && n->type == YAML_SCALAR_NODE ? (const char *)n->data.scalar.value : NULL;
}

static yaml_node_t *node(struct reader *r, int id)
{
	return yaml_document_get_node(&r->doc, id);
}

/* The value of key in a mapping node, or NULL. */
static yaml_node_t *value_of(struct reader *r, yaml_node_t *map, const char *key)
{
	for (yaml_node_pair_t *p = map->data.mapping.pairs.start;
	     p < map->data.mapping.pairs.top; p++) {
		const char *k = text(node(r, p->key));
		if (k && !strcmp(k, key))
			return node(r, p->value);
	}
	return NULL;
}

static void expected_keys(const struct rule *rule, char *buf, size_t size)
{
	size_t n = 0;
	buf[0] = '\0';
	for (const struct key_rule *k = rule->keys; k->key && n < size; k++)
		n += (size_t)snprintf(buf + n, size - n, "%s%s", n ? ", " : "", k->key);
}

static bool is_integer(const char *s)
{
	char *end;
	errno = 0;
	(void)strtoll(s, &end, 10);
	return *s && !*end && !errno;
}

static void check_map(struct reader *r, yaml_node_t *map, const struct rule *rule);

static void check_value(struct reader *r, yaml_node_t *v, const struct key_rule *k,
	const struct rule *rule)
{
	switch (k->type) {
	case SCALAR:
	case INTEGER:
		if (!text(v))
			fail(r, v, "'%s' of %s must be a single value", k->key, rule->what);
		else if (k->type == INTEGER && !is_integer(text(v)))
			fail(r, v, "'%s' of %s must be an integer, not '%s'", k->key, rule->what,
				text(v));
		return;
	case SCALARS:
	case MAPS:
		if (v->type != YAML_SEQUENCE_NODE) {
			fail(r, v, "'%s' of %s must be a list", k->key, rule->what);
			return;
		}
		for (yaml_node_item_t *i = v->data.sequence.items.start;
		     i < v->data.sequence.items.top && !r->failed; i++) {
			yaml_node_t *item = node(r, *i);
			if (k->type == SCALARS && !text(item))
				fail(r, item, "'%s' of %s must be a list of names", k->key, rule->what);
			else if (k->type == MAPS)
				check_map(r, item, k->items);
		}
		return;
	}
}

static void check_map(struct reader *r, yaml_node_t *map, const struct rule *rule)
{
	char keys[512];
	uint64_t seen = 0; /* the rule's keys met (rules have fewer than 64) */
	if (!map || map->type != YAML_MAPPING_NODE) {
		expected_keys(rule, keys, sizeof keys);
		fail(r, map, "%s must be a mapping with the keys %s", rule->what, keys);
		return;
	}
	for (yaml_node_pair_t *p = map->data.mapping.pairs.start;
	     p < map->data.mapping.pairs.top && !r->failed; p++) {
		yaml_node_t *kn = node(r, p->key);
		const char *k = text(kn);
		const struct key_rule *kr = rule->keys;
		while (kr->key && (!k || strcmp(kr->key, k)))
			kr++;
		if (!kr->key) {
			expected_keys(rule, keys, sizeof keys);
			fail(r, kn, "unknown key '%s' in %s (expected: %s)", k ? k : "?",
				rule->what, keys);
			return;
		}
		/* a key given twice: which one a reader keeps is anyone's guess */
		uint64_t bit = (uint64_t)1 << (kr - rule->keys);
		if (seen & bit) {
			fail(r, kn, "the key '%s' twice in %s", k, rule->what);
			return;
		}
		seen |= bit;
		check_value(r, node(r, p->value), kr, rule);
	}
	for (const struct key_rule *kr = rule->keys; kr->key && !r->failed; kr++)
		if (kr->required && !value_of(r, map, kr->key))
			fail(r, map, "%s lacks the key '%s'", rule->what, kr->key);
}

/* ---- meaning ------------------------------------------------------------ */

/* The items of a list-valued key (an empty range when absent). */
static void items(struct reader *r, yaml_node_t *map, const char *key,
	yaml_node_item_t **begin, yaml_node_item_t **end)
{
	yaml_node_t *v = value_of(r, map, key);
	*begin = *end = NULL;
	if (v && v->type == YAML_SEQUENCE_NODE) {
		*begin = v->data.sequence.items.start;
		*end = v->data.sequence.items.top;
	}
}

#define EACH(r, map, key, var)                                                  \
	for (yaml_node_item_t *var##_b, *var##_e, *var##_i =                     \
		(items(r, map, key, &var##_b, &var##_e), var##_b);               \
	     var##_i < var##_e; var##_i++)

/* What to say of a named path `wanted` the file does not have: the nearest
 * names and the names there are (caret_name_hint). */
static void hint_names(struct reader *r, const char *wanted, char *out, size_t size)
{
	size_t n = 0;
	yaml_node_t *top = yaml_document_get_root_node(&r->doc);
	EACH(r, top, "named_paths", p)
		n++;
	const char **names = calloc(n + 1, sizeof *names);
	n = 0;
	EACH(r, top, "named_paths", p)
		if (names)
			names[n++] = text(value_of(r, node(r, *p_i), "path_name"));
	caret_name_hint(out, size, wanted, "named paths", names, n, NULL);
	free(names);
}

static void check_callback(struct reader *r, yaml_node_t *cb)
{
	const char *type = text(value_of(r, cb, "callback_type"));
	const char *need = !strcmp(type, "timer_callback") ? "period_ns" :
		!strcmp(type, "subscription_callback") ? "topic_name" :
		!strcmp(type, "service_callback") ? "service_name" : NULL;
	if (!need)
		fail(r, cb, "callback_type '%s' is none of timer_callback, "
			"subscription_callback, service_callback", type);
	else if (!value_of(r, cb, need))
		fail(r, cb, "a %s lacks the key '%s'", type, need);
	yaml_node_t *period = value_of(r, cb, "period_ns");
	if (period && strtoll(text(period), NULL, 10) < 0)
		fail(r, period, "'period_ns' of a callback must be 0 or more, not '%s'", text(period));
}

/* Indexes every node, callback group and callback by name. */
static bool index_names(struct reader *r, yaml_node_t *top)
{
	bool ok = true;
	EACH(r, top, "nodes", n) {
		yaml_node_t *nd = node(r, *n_i);
		ok = ok && name_index_put(&r->nodes, text(value_of(r, nd, "node_name")), nd);
		EACH(r, nd, "callback_groups", g) {
			yaml_node_t *gr = node(r, *g_i);
			ok = ok && name_index_put(&r->groups,
				text(value_of(r, gr, "callback_group_name")), gr);
		}
		EACH(r, nd, "callbacks", c) {
			yaml_node_t *cb = node(r, *c_i);
			ok = ok && name_index_put(&r->callbacks,
				text(value_of(r, cb, "callback_name")), cb);
		}
	}
	if (!ok)
		fail(r, top, "out of memory");
	return ok;
}

/* A duration key of a deadlines: entry, when there: more than zero. */
static void check_duration(struct reader *r, yaml_node_t *entry, const char *key,
	const char *name)
{
	yaml_node_t *v = value_of(r, entry, key);
	if (v && caret_parse_duration_ns(text(v)) <= 0)
		fail(r, v, "%s '%s' of '%s' is not a duration such as 50ms, 1.5s, 200us: "
			"%s (units: " CARET_DURATION_UNITS ")", key, text(v), name,
			caret_duration_problem(text(v)) ? caret_duration_problem(text(v)) : "zero");
}

/* A callback_name: a callback of the file's nodes; one of a node that
 * lists no callbacks (a file written by hand) is taken on trust, as the
 * trace will say whether it is there. */
static void check_callback_name(struct reader *r, yaml_node_t *at, const char *name)
{
	if (name_index_get(&r->callbacks, name))
		return;
	const char *slash = strrchr(name, '/');
	char node_name[512];
	snprintf(node_name, sizeof node_name, "%.*s", slash ? (int)(slash - name) : 0, name);
	yaml_node_t *nd = slash && slash > name ? name_index_get(&r->nodes, node_name) : NULL;
	if (!nd) {
		fail(r, at, "deadline of the callback '%s': it names no node of the file (a "
			"callback's name is NODE/NAME, as caret latency callbacks prints it)", name);
		return;
	}
	size_t n = 0;
	EACH(r, nd, "callbacks", c)
		n++;
	if (!n)
		return;
	const char **names = calloc(n, sizeof *names);
	char hint[768] = "";
	n = 0;
	EACH(r, nd, "callbacks", c)
		if (names)
			names[n++] = text(value_of(r, node(r, *c_i), "callback_name"));
	caret_name_hint(hint, sizeof hint, name, "callbacks", names, n, NULL);
	free(names);
	fail(r, at, "deadline of the callback '%s': no callback of that name in %s (%s)", name,
		node_name, hint);
}

/* The name an entry is on (its path_name or callback_name), or NULL. */
static yaml_node_t *requirement_name(struct reader *r, yaml_node_t *entry, bool *callback)
{
	yaml_node_t *path = value_of(r, entry, "path_name");
	*callback = !path;
	return path ? path : value_of(r, entry, "callback_name");
}

/* Each entry of deadlines: names a named path or a callback, once, and
 * bounds it: durations with their unit, a ratio in [0, 1] with a deadline. */
static void check_deadlines(struct reader *r, yaml_node_t *top)
{
	EACH(r, top, "deadlines", d) {
		yaml_node_t *entry = node(r, *d_i);
		bool callback, other;
		yaml_node_t *name = requirement_name(r, entry, &callback);
		if (!name || (value_of(r, entry, "path_name") && value_of(r, entry, "callback_name"))) {
			fail(r, entry, "a deadline names %s: path_name (a named path) or callback_name",
				name ? "both a path and a callback" : "neither a path nor a callback");
			return;
		}
		if (callback)
			check_callback_name(r, name, text(name));
		bool named = callback;
		EACH(r, top, "named_paths", p)
			named = named || !strcmp(text(value_of(r, node(r, *p_i), "path_name")),
				text(name));
		if (!named) {
			char hint[768];
			hint_names(r, text(name), hint, sizeof hint);
			fail(r, name, "deadline of '%s': no named path of that name (%s)", text(name),
				hint);
		}
		for (yaml_node_item_t *e = d_b; e < d_i && named; e++) {
			yaml_node_t *before = requirement_name(r, node(r, *e), &other);
			if (before && other == callback && !strcmp(text(before), text(name)))
				fail(r, name, "two deadlines for the %s '%s' (one entry each, with all "
					"its bounds)", callback ? "callback" : "path", text(name));
		}
		static const char *const durations[] = { "deadline", "p99", "max" };
		bool bounded = false;
		for (size_t k = 0; k < 3; k++) {
			check_duration(r, entry, durations[k], text(name));
			bounded = bounded || value_of(r, entry, durations[k]);
		}
		if (!bounded)
			fail(r, entry, "the deadline of '%s' sets no bound: deadline, p99 or max",
				text(name));
		yaml_node_t *ratio = value_of(r, entry, "miss_ratio");
		if (ratio && ca_parse_ratio(text(ratio)) < 0)
			fail(r, ratio, "miss_ratio '%s' of '%s' is not a share from 0 to 1 such as "
				"0.01 or 1%%", text(ratio), text(name));
		else if (ratio && !value_of(r, entry, "deadline"))
			fail(r, ratio, "miss_ratio of '%s' without a deadline: the share of instances "
				"over which deadline?", text(name));
	}
}

static void check_meaning(struct reader *r, yaml_node_t *top)
{
	ca_arch_file_summary *s = r->sum;
	if (!index_names(r, top))
		return;
	check_deadlines(r, top);
	EACH(r, top, "named_paths", p) {
		s->named_paths++;
		EACH(r, node(r, *p_i), "node_chain", c) {
			yaml_node_t *entry = node(r, *c_i);
			const char *name = text(value_of(r, entry, "node_name"));
			if (!name_index_get(&r->nodes, name))
				fail(r, entry, "node_chain names node '%s', which is not in nodes", name);
		}
	}
	EACH(r, top, "executors", e) {
		s->executors++;
		EACH(r, node(r, *e_i), "callback_group_names", g)
			if (!name_index_get(&r->groups, text(node(r, *g_i))))
				fail(r, node(r, *g_i), "callback group '%s' is not in any node",
					text(node(r, *g_i)));
	}
	EACH(r, top, "nodes", n) {
		yaml_node_t *nd = node(r, *n_i);
		s->nodes++;
		EACH(r, nd, "callbacks", c) {
			s->callbacks++;
			if (!r->failed)
				check_callback(r, node(r, *c_i));
		}
		EACH(r, nd, "callback_groups", g) {
			s->callback_groups++;
			EACH(r, node(r, *g_i), "callback_names", c)
				if (!name_index_get(&r->callbacks, text(node(r, *c_i))))
					fail(r, node(r, *c_i), "callback '%s' is not in any node",
						text(node(r, *c_i)));
		}
		EACH(r, nd, "message_contexts", x) {
			yaml_node_t *ctx = node(r, *x_i);
			const char *type = text(value_of(r, ctx, "context_type"));
			ca_node_policy policy;
			if (ca_policy_of_name(type, &policy) && strcmp(type, "tilde") &&
			    strcmp(type, "UNDEFINED"))
				fail(r, ctx, "context_type '%s' is none of " CA_POLICY_NAMES
					", tilde, UNDEFINED", type);
			EACH(r, ctx, "callbacks", c)
				if (!name_index_get(&r->callbacks, text(node(r, *c_i))))
					fail(r, node(r, *c_i), "callback '%s' is not in any node",
						text(node(r, *c_i)));
		}
		EACH(r, nd, "publishes", x)
			s->publishes++;
		EACH(r, nd, "subscribes", x)
			s->subscribes++;
		static const char *const tf_keys[] = { "tf_broadcasts", "tf_lookups" };
		for (size_t k = 0; k < 2; k++)
			EACH(r, nd, tf_keys[k], x) {
				*(k ? &s->tf_lookups : &s->tf_broadcasts) += 1;
				EACH(r, node(r, *x_i), "callback_names", c)
					if (!name_index_get(&r->callbacks, text(node(r, *c_i))))
						fail(r, node(r, *c_i), "callback '%s' is not in any node",
							text(node(r, *c_i)));
			}
	}
}

/* A list or mapping reached twice (a YAML alias to it) would make every
 * walk of the document multiply: architecture files have none. */
static void refuse_shared(struct reader *r)
{
	size_t n = (size_t)(r->doc.nodes.top - r->doc.nodes.start);
	unsigned char *refs = calloc(n + 1, 1);
	if (!refs) {
		fail(r, NULL, "out of memory");
		return;
	}
	for (yaml_node_t *x = r->doc.nodes.start; x < r->doc.nodes.top && !r->failed; x++) {
		int ids[2];
		size_t count = 0;
		if (x->type == YAML_SEQUENCE_NODE)
			count = (size_t)(x->data.sequence.items.top - x->data.sequence.items.start);
		else if (x->type == YAML_MAPPING_NODE)
			count = (size_t)(x->data.mapping.pairs.top - x->data.mapping.pairs.start);
		for (size_t i = 0; i < count && !r->failed; i++) {
			int k = 1;
			if (x->type == YAML_SEQUENCE_NODE) {
				ids[0] = x->data.sequence.items.start[i];
			} else {
				ids[0] = x->data.mapping.pairs.start[i].key;
				ids[1] = x->data.mapping.pairs.start[i].value;
				k = 2;
			}
			for (int j = 0; j < k; j++) {
				yaml_node_t *target = node(r, ids[j]);
				if (!target || target->type == YAML_SCALAR_NODE || ids[j] < 1 ||
				    (size_t)ids[j] > n)
					continue;
				if (refs[ids[j]]++)
					fail(r, target, "an alias (*) to a list or mapping: architecture "
						"files have none (write the content out)");
			}
		}
	}
	free(refs);
}

/* A NUL inside a name ("a\0b") would cut it short in every use of it:
 * the scalars are refused whole. */
static void refuse_nul(struct reader *r)
{
	for (yaml_node_t *x = r->doc.nodes.start; x < r->doc.nodes.top && !r->failed; x++)
		if (x->type == YAML_SCALAR_NODE &&
		    strlen((const char *)x->data.scalar.value) != x->data.scalar.length)
			fail(r, x, "a NUL character in the value '%s...'",
				(const char *)x->data.scalar.value);
}

static void release_names(struct reader *r)
{
	name_index_free(&r->nodes);
	name_index_free(&r->groups);
	name_index_free(&r->callbacks);
}

/* What a file that is not an architecture file is. */
static const char *file_kind(mode_t mode)
{
	return S_ISDIR(mode) ? "a directory" : S_ISFIFO(mode) ? "a FIFO" : "not a regular file";
}

/* The file opened for reading, if it is a regular file: checked before
 * opening, for a FIFO would block the open, and after, for a file
 * swapped in between (opened non-blocking). NULL with r->err. */
static FILE *open_regular(struct reader *r)
{
	struct stat st;
	if (stat(r->path, &st) != 0) {
		snprintf(r->err, r->err_size, "cannot open %s: %s", r->path, strerror(errno));
		return NULL;
	}
	int fd = S_ISREG(st.st_mode) ? open(r->path, O_RDONLY | O_CLOEXEC | O_NONBLOCK) : -1;
	if (fd < 0 && S_ISREG(st.st_mode)) {
		snprintf(r->err, r->err_size, "cannot open %s: %s", r->path, strerror(errno));
		return NULL;
	}
	if (fd >= 0 && fstat(fd, &st) != 0)
		st.st_mode = 0;
	if (!S_ISREG(st.st_mode)) {
		snprintf(r->err, r->err_size, "%s is %s, not an architecture file", r->path,
			file_kind(st.st_mode));
		if (fd >= 0)
			close(fd);
		return NULL;
	}
	FILE *f = fdopen(fd, "r");
	if (!f) {
		snprintf(r->err, r->err_size, "cannot open %s: %s", r->path, strerror(errno));
		close(fd);
	}
	return f;
}

/* One parser event against the document's shape so far: -1 with r->err
 * past MAX_DEPTH or at a second document. */
static int shape_event(struct reader *r, const yaml_event_t *ev, int *depth, int *documents)
{
	size_t line = ev->start_mark.line + 1;
	switch (ev->type) {
	case YAML_DOCUMENT_START_EVENT:
		if (++*documents == 1)
			return 0;
		snprintf(r->err, r->err_size, "%s:%zu: a second YAML document: an architecture "
			"file is one", r->path, line);
		return -1;
	case YAML_SEQUENCE_START_EVENT:
	case YAML_MAPPING_START_EVENT:
		if (++*depth <= MAX_DEPTH)
			return 0;
		snprintf(r->err, r->err_size, "%s:%zu: nested more than %d deep (an architecture "
			"file needs 6)", r->path, line, MAX_DEPTH);
		return -1;
	case YAML_SEQUENCE_END_EVENT:
	case YAML_MAPPING_END_EVENT:
		--*depth;
		return 0;
	default:
		return 0;
	}
}

/* The document's shape, from the parser's events before the loader builds
 * it: libyaml's loader takes seconds over 100,000 levels of nesting and
 * reads any number of documents. 0, or -1 with r->err. */
static int check_shape(struct reader *r, FILE *f)
{
	yaml_parser_t parser;
	yaml_event_t ev;
	int depth = 0, documents = 0, status = 0;
	if (!yaml_parser_initialize(&parser)) {
		snprintf(r->err, r->err_size, "%s: out of memory", r->path);
		return -1;
	}
	yaml_parser_set_input_file(&parser, f);
	bool end = false;
	/* a syntax error ends the walk: the loader says where */
	while (!end && !status && yaml_parser_parse(&parser, &ev)) {
		end = ev.type == YAML_STREAM_END_EVENT;
		status = shape_event(r, &ev, &depth, &documents);
		yaml_event_delete(&ev);
	}
	yaml_parser_delete(&parser);
	rewind(f);
	return status;
}

/* Loads and checks the file into r->doc; the caller deletes the document
 * when this returns 0. */
static int load_checked(struct reader *r)
{
	yaml_parser_t parser;
	FILE *f = open_regular(r);

	if (!f)
		return -1;
	if (check_shape(r, f) != 0) {
		fclose(f);
		return -1;
	}
	if (!yaml_parser_initialize(&parser)) {
		fclose(f);
		snprintf(r->err, r->err_size, "%s: out of memory", r->path);
		return -1;
	}
	yaml_parser_set_input_file(&parser, f);
	int loaded = yaml_parser_load(&parser, &r->doc);
	if (!loaded)
		snprintf(r->err, r->err_size, "%s:%zu: YAML syntax: %s", r->path,
			parser.problem_mark.line + 1, parser.problem ? parser.problem : "?");
	yaml_parser_delete(&parser);
	fclose(f);
	if (!loaded)
		return -1;
	yaml_node_t *top = yaml_document_get_root_node(&r->doc);
	if (!top) {
		snprintf(r->err, r->err_size, "%s: empty, expected the keys named_paths, "
			"executors, nodes", r->path);
		r->failed = true;
	} else {
		refuse_shared(r);
		refuse_nul(r);
		if (!r->failed)
			check_map(r, top, &top_rule);
	}
	if (!r->failed)
		check_meaning(r, top);
	if (r->failed) {
		yaml_document_delete(&r->doc);
		release_names(r);
		return -1;
	}
	return 0;
}

int ca_arch_file_check(const char *path, ca_arch_file_summary *summary, char *err,
	size_t err_size)
{
	struct reader r = { .path = path, .err = err, .err_size = err_size, .sum = summary };
	memset(summary, 0, sizeof *summary);
	if (load_checked(&r) != 0)
		return -1;
	yaml_document_delete(&r.doc);
	release_names(&r);
	return 0;
}

static char *copy(const char *s)
{
	return s ? strdup(s) : NULL;
}

/* Each node's policy for its input and output topic on the path, from its
 * message_contexts; CA_POLICY_DEFAULT where it has none. NULL with r->err
 * for an unknown context_type or out of memory. */
static ca_node_policy *node_policies(struct reader *r, const char **nodes,
	const char **topics, size_t n)
{
	ca_node_policy *policies = malloc(n * sizeof *policies);
	if (!policies) {
		snprintf(r->err, r->err_size, "out of memory");
		return NULL;
	}
	for (size_t i = 0; i < n; i++) {
		policies[i] = CA_POLICY_DEFAULT;
		if (i == 0 || i + 1 == n)
			continue;
		yaml_node_t *nd = name_index_get(&r->nodes, nodes[i]);
		if (nd) {
			EACH(r, nd, "message_contexts", c) {
				yaml_node_t *ctx = node(r, *c_i);
				if (strcmp(text(value_of(r, ctx, "subscription_topic_name")), topics[i - 1]) ||
				    strcmp(text(value_of(r, ctx, "publisher_topic_name")), topics[i]))
					continue;
				const char *type = text(value_of(r, ctx, "context_type"));
				bool known = !ca_policy_of_name(type, &policies[i]);
				if (!known && strcmp(type, "UNDEFINED")) { /* tilde */
					snprintf(r->err, r->err_size, "%s:%zu: context_type '%s' is not "
						"supported (" CA_POLICY_NAMES ")", r->path,
						ctx->start_mark.line + 1, type);
					free(policies);
					return NULL;
				}
			}
		}
	}
	return policies;
}

int ca_arch_file_path_names(const char *path, char ***names, size_t *n, char *err,
	size_t err_size)
{
	ca_arch_file_summary sum;
	struct reader r = { .path = path, .err = err, .err_size = err_size, .sum = &sum };
	*names = NULL;
	*n = 0;
	if (load_checked(&r) != 0)
		return -1;
	yaml_node_t *top = yaml_document_get_root_node(&r.doc);
	int status = 0;
	EACH(&r, top, "named_paths", p) {
		char **grown = realloc(*names, (*n + 1) * sizeof *grown);
		char *name = copy(text(value_of(&r, node(&r, *p_i), "path_name")));
		if (grown)
			*names = grown;
		if (!grown || !name) {
			free(name);
			snprintf(err, err_size, "out of memory");
			status = -1;
			break;
		}
		(*names)[(*n)++] = name;
	}
	yaml_document_delete(&r.doc);
	release_names(&r);
	for (size_t i = 0; status && i < *n; i++)
		free((*names)[i]);
	if (status) {
		free(*names);
		*names = NULL;
		*n = 0;
	}
	return status;
}

/* A duration key of a checked entry, 0 when absent. */
static int64_t duration_of(struct reader *r, yaml_node_t *entry, const char *key)
{
	yaml_node_t *v = value_of(r, entry, key);
	return v ? caret_parse_duration_ns(text(v)) : 0;
}

int ca_arch_file_requirements(const char *path, ca_requirement **out, size_t *n, char *err,
	size_t err_size)
{
	ca_arch_file_summary sum;
	struct reader r = { .path = path, .err = err, .err_size = err_size, .sum = &sum };
	*out = NULL;
	*n = 0;
	if (load_checked(&r) != 0)
		return -1;
	yaml_node_t *top = yaml_document_get_root_node(&r.doc);
	size_t count = 0;
	EACH(&r, top, "deadlines", d)
		count++;
	ca_requirement *q = calloc(count + 1, sizeof *q);
	bool ok = q != NULL;
	EACH(&r, top, "deadlines", d) {
		if (!ok)
			break;
		yaml_node_t *entry = node(&r, *d_i), *ratio = value_of(&r, entry, "miss_ratio");
		bool callback;
		ca_requirement *x = &q[(*n)++];
		ok = (x->name = copy(text(requirement_name(&r, entry, &callback)))) != NULL;
		x->object = callback ? CA_REQUIREMENT_CALLBACK : CA_REQUIREMENT_PATH;
		x->deadline_ns = duration_of(&r, entry, "deadline");
		x->p99_ns = duration_of(&r, entry, "p99");
		x->max_ns = duration_of(&r, entry, "max");
		x->has_miss_ratio = ratio != NULL;
		x->miss_ratio = ratio ? ca_parse_ratio(text(ratio)) : 0;
		x->line = entry->start_mark.line + 1;
	}
	yaml_document_delete(&r.doc);
	release_names(&r);
	if (!ok) {
		snprintf(err, err_size, "out of memory");
		ca_requirements_free(q, *n);
		*n = 0;
		return -1;
	}
	*out = q;
	return 0;
}

int ca_arch_file_deadlines(const char *path, char ***names, int64_t **deadlines_ns, size_t *n,
	char *err, size_t err_size)
{
	ca_requirement *q;
	size_t count;
	*names = NULL;
	*deadlines_ns = NULL;
	*n = 0;
	if (ca_arch_file_requirements(path, &q, &count, err, err_size) != 0)
		return -1;
	*names = calloc(count + 1, sizeof **names);
	*deadlines_ns = calloc(count + 1, sizeof **deadlines_ns);
	bool ok = *names && *deadlines_ns;
	/* the paths' deadlines: what caret live watches */
	for (size_t i = 0; ok && i < count; i++) {
		if (q[i].object != CA_REQUIREMENT_PATH || !q[i].deadline_ns)
			continue;
		(*names)[*n] = q[i].name;
		q[i].name = NULL;
		(*deadlines_ns)[(*n)++] = q[i].deadline_ns;
	}
	ca_requirements_free(q, count);
	if (!ok) {
		snprintf(err, err_size, "out of memory");
		free(*names);
		free(*deadlines_ns);
		*names = NULL;
		*deadlines_ns = NULL;
		return -1;
	}
	return 0;
}

ca_path_set *ca_arch_file_path(const char *path, const char *name, char *err, size_t err_size)
{
	ca_arch_file_summary sum;
	struct reader r = { .path = path, .err = err, .err_size = err_size, .sum = &sum };
	ca_path_set *set = NULL;
	memset(&sum, 0, sizeof sum);
	if (err_size)
		err[0] = '\0';
	if (load_checked(&r) != 0)
		return NULL;
	yaml_node_t *top = yaml_document_get_root_node(&r.doc), *found = NULL;
	EACH(&r, top, "named_paths", p)
		if (!strcmp(text(value_of(&r, node(&r, *p_i), "path_name")), name))
			found = node(&r, *p_i);
	yaml_node_t *chain = found ? value_of(&r, found, "node_chain") : NULL;
	size_t n = chain ? (size_t)(chain->data.sequence.items.top - chain->data.sequence.items.start) : 0;
	if (!found || n < 2) {
		char names[768];
		if (found)
			snprintf(err, err_size, "%s: path %s has fewer than two nodes", path, name);
		else { /* the names that are there, to choose from */
			hint_names(&r, name, names, sizeof names);
			snprintf(err, err_size, "%s: no named path %s (%s)", path, name, names);
		}
		yaml_document_delete(&r.doc);
		release_names(&r);
		return NULL;
	}
	const char **nodes = calloc(n, sizeof *nodes), **topics = calloc(n, sizeof *topics);
	bool ok = nodes && topics;
	for (size_t i = 0; ok && i < n; i++) {
		yaml_node_t *entry = node(&r, chain->data.sequence.items.start[i]);
		ok = (nodes[i] = copy(text(value_of(&r, entry, "node_name")))) != NULL;
		if (!ok || i + 1 == n)
			continue;
		/* the topic between node i and i + 1: what i publishes, or what the
		 * next subscribes */
		const char *topic = text(value_of(&r, entry, "publish_topic_name"));
		if (!topic)
			topic = text(value_of(&r, node(&r, chain->data.sequence.items.start[i + 1]),
				"subscribe_topic_name"));
		if (!topic) {
			snprintf(err, err_size, "%s:%zu: path %s: no publish_topic_name after node %s",
				path, entry->start_mark.line + 1, name, nodes[i]);
			ok = false;
			continue;
		}
		ok = (topics[i] = copy(topic)) != NULL;
	}
	ca_node_policy *policies = ok ? node_policies(&r, nodes, topics, n) : NULL;
	ok = ok && policies;
	if (ok && !(set = ca_path_set_of(nodes, topics, policies, n, true)))
		snprintf(err, err_size, "out of memory");
	if (!ok) {
		for (size_t i = 0; nodes && topics && i < n; i++) {
			free((void *)nodes[i]);
			free((void *)topics[i]);
		}
		free(nodes);
		free(topics);
		if (!*err)
			snprintf(err, err_size, "out of memory");
	}
	yaml_document_delete(&r.doc);
	release_names(&r);
	return set;
}
