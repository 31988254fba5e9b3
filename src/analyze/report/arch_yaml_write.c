/*
 * arch_yaml_write.c - the architecture as the original writes its
 * architecture file (docs/dev/original-architecture.md): what it leaves
 * out left out, executors and nodes sorted by name, callbacks and
 * callback_names by name, publishes and subscribes by topic, each optional
 * key only where the original writes it, publishes' callback_names and
 * message_contexts filled as it fills them. With `all`, everything the
 * model holds, every key written. A node in a tf link also gets
 * tf_broadcasts and tf_lookups, keys of ours that the original's reader
 * passes over. Through libyaml's emitter.
 */
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <yaml.h>

#include "ca.h"
#include "path.h"

struct writer {
	yaml_emitter_t emitter;
	const ca_trace *t;
	const ca_architecture *a;
	bool failed, all;
	struct ca_tf_end *tf; /* the tf links' ends, for tf_broadcasts/tf_lookups */
	size_t n_tf;
};

/* What is written: everything with `all`, else what the original keeps. */
#define SHOWN(w, object) ((w)->all || !(object).hidden)

static void emit(struct writer *w, yaml_event_t *ev, bool ok)
{
	if (!w->failed && (!ok || !yaml_emitter_emit(&w->emitter, ev)))
		w->failed = true;
}

static void scalar(struct writer *w, const char *s)
{
	yaml_event_t ev;
	emit(w, &ev, yaml_scalar_event_initialize(&ev, NULL, NULL, (yaml_char_t *)s,
		(int)strlen(s), 1, 1, YAML_ANY_SCALAR_STYLE));
}

static void number(struct writer *w, int64_t n)
{
	char buf[32];
	snprintf(buf, sizeof buf, "%" PRId64, n);
	scalar(w, buf);
}

static void key(struct writer *w, const char *k, const char *value)
{
	scalar(w, k);
	scalar(w, value ? value : "UNDEFINED");
}

static void begin_map(struct writer *w)
{
	yaml_event_t ev;
	emit(w, &ev, yaml_mapping_start_event_initialize(&ev, NULL, NULL, 1,
		YAML_BLOCK_MAPPING_STYLE));
}

static void end_map(struct writer *w)
{
	yaml_event_t ev;
	emit(w, &ev, yaml_mapping_end_event_initialize(&ev));
}

/* A sequence; flow style for an empty one ("[]"). */
static void begin_seq(struct writer *w, bool empty)
{
	yaml_event_t ev;
	emit(w, &ev, yaml_sequence_start_event_initialize(&ev, NULL, NULL, 1,
		empty ? YAML_FLOW_SEQUENCE_STYLE : YAML_BLOCK_SEQUENCE_STYLE));
}

static void end_seq(struct writer *w)
{
	yaml_event_t ev;
	emit(w, &ev, yaml_sequence_end_event_initialize(&ev));
}

static void empty_list(struct writer *w, const char *k)
{
	scalar(w, k);
	begin_seq(w, true);
	end_seq(w);
}

/* ---- executors ---------------------------------------------------------- */

/* executor_2 before executor_10 (the original pads; ours too, but a
 * name of another form may mix in with `all`) */
static int by_executor_name(const void *x, const void *y)
{
	const char *a = (*(const ca_executor *const *)x)->name;
	const char *b = (*(const ca_executor *const *)y)->name;
	size_t la = strlen(a), lb = strlen(b);
	return la != lb ? (la > lb) - (la < lb) : strcmp(a, b);
}

static int by_string(const void *x, const void *y)
{
	return strcmp(*(const char *const *)x, *(const char *const *)y);
}

/* A list of names, sorted unless `all` keeps the model's order. */
static void names(struct writer *w, const char *k, const char **items, size_t n, bool sort)
{
	if (sort && n > 1)
		qsort(items, n, sizeof *items, by_string);
	scalar(w, k);
	begin_seq(w, !n);
	for (size_t i = 0; i < n; i++)
		scalar(w, items[i]);
	end_seq(w);
}

static void executors(struct writer *w)
{
	const ca_architecture *a = w->a;
	const ca_executor **sorted = malloc((a->n_executors + 1) * sizeof *sorted);
	const char **groups = malloc((a->n_groups + 1) * sizeof *groups);
	if (!sorted || !groups) {
		free(sorted);
		free(groups);
		w->failed = true;
		return;
	}
	size_t n = 0;
	for (size_t i = 0; i < a->n_executors; i++)
		if (SHOWN(w, a->executors[i]))
			sorted[n++] = &a->executors[i];
	if (n > 1)
		qsort(sorted, n, sizeof *sorted, by_executor_name);

	scalar(w, "executors");
	begin_seq(w, !n);
	for (size_t k = 0; k < n; k++) {
		/* A group without callbacks has no known node; it is left out,
		 * as nothing in it runs. */
		size_t index = (size_t)(sorted[k] - a->executors), n_groups = 0;
		for (size_t g = 0; g < a->n_groups; g++)
			if (a->groups[g].executor == index && a->groups[g].node != CA_NONE &&
			    SHOWN(w, a->groups[g]))
				groups[n_groups++] = a->groups[g].name;
		begin_map(w);
		key(w, "executor_type", sorted[k]->type);
		key(w, "executor_name", sorted[k]->name);
		names(w, "callback_group_names", groups, n_groups, !w->all);
		end_map(w);
	}
	end_seq(w);
	free(sorted);
	free(groups);
}

/* ---- nodes -------------------------------------------------------------- */

static size_t group_of(const ca_architecture *a, const ca_callback *cb)
{
	return cb->kind == CA_CALLBACK_TIMER ? a->timers[cb->owner].group :
		cb->kind == CA_CALLBACK_SERVICE ? a->services[cb->owner].group :
		a->subscriptions[cb->owner].group;
}

static int by_group_address(const void *x, const void *y)
{
	const ca_callback_group *a = *(const ca_callback_group *const *)x;
	const ca_callback_group *b = *(const ca_callback_group *const *)y;
	return (a->address > b->address) - (a->address < b->address);
}

/* In the original: groups in address order, each one's callbacks by name. */
static void callback_groups(struct writer *w, size_t node)
{
	const ca_architecture *a = w->a;
	const ca_callback_group **groups = malloc((a->n_groups + 1) * sizeof *groups);
	const char **members = malloc((a->n_callbacks + 1) * sizeof *members);
	if (!groups || !members) {
		free(groups);
		free(members);
		w->failed = true;
		return;
	}
	size_t n = 0;
	for (size_t g = 0; g < a->n_groups; g++)
		if (a->groups[g].node == node && SHOWN(w, a->groups[g]))
			groups[n++] = &a->groups[g];
	if (!w->all && n > 1)
		qsort(groups, n, sizeof *groups, by_group_address);
	scalar(w, "callback_groups");
	begin_seq(w, !n);
	for (size_t k = 0; k < n; k++) {
		size_t g = (size_t)(groups[k] - a->groups), m = 0;
		for (size_t c = 0; c < a->n_callbacks; c++)
			if (group_of(a, &a->callbacks[c]) == g && SHOWN(w, a->callbacks[c]))
				members[m++] = a->callbacks[c].name;
		begin_map(w);
		key(w, "callback_group_type", groups[k]->type);
		key(w, "callback_group_name", groups[k]->name);
		names(w, "callback_names", members, m, !w->all);
		end_map(w);
	}
	end_seq(w);
	free(groups);
	free(members);
}

static const char *const callback_types[] = {
	[CA_CALLBACK_TIMER] = "timer_callback",
	[CA_CALLBACK_SUBSCRIPTION] = "subscription_callback",
	[CA_CALLBACK_SERVICE] = "service_callback",
};

/* Whether a callback is written: in a group (the original writes no
 * other), unless `all`. */
static bool written_callback(const struct writer *w, const ca_callback *cb)
{
	return w->all || (!cb->hidden && group_of(w->a, cb) != CA_NONE);
}

static int by_callback_name(const void *x, const void *y)
{
	return strcmp((*(const ca_callback *const *)x)->name,
		(*(const ca_callback *const *)y)->name);
}

/* The node's written callbacks, by name (model order with `all`). */
static size_t node_callbacks(const struct writer *w, size_t node, const ca_callback **out)
{
	size_t n = 0;
	for (size_t c = 0; c < w->a->n_callbacks; c++)
		if (w->a->callbacks[c].node == node && written_callback(w, &w->a->callbacks[c]))
			out[n++] = &w->a->callbacks[c];
	if (!w->all && n > 1)
		qsort(out, n, sizeof *out, by_callback_name);
	return n;
}

static void callbacks(struct writer *w, const ca_callback **cbs, size_t n)
{
	const ca_architecture *a = w->a;
	if (!n && !w->all)
		return;
	scalar(w, "callbacks");
	begin_seq(w, !n);
	for (size_t k = 0; k < n; k++) {
		const ca_callback *cb = cbs[k];
		begin_map(w);
		key(w, "callback_name", cb->name);
		key(w, "callback_type", callback_types[cb->kind]);
		if (cb->kind == CA_CALLBACK_TIMER) {
			scalar(w, "period_ns");
			number(w, a->timers[cb->owner].period_ns);
		} else if (cb->kind == CA_CALLBACK_SUBSCRIPTION) {
			key(w, "topic_name", a->subscriptions[cb->owner].topic);
		} else {
			key(w, "service_name", a->services[cb->owner].name);
		}
		key(w, "symbol", cb->symbol);
		if (w->all || cb->construction_order > 0) {
			scalar(w, "construction_order");
			number(w, cb->construction_order);
		}
		end_map(w);
	}
	end_seq(w);
}

/* The original's default: one entry of UNDEFINED names, with two or more
 * callbacks (which of them hands data to which is yours to say). */
static void variable_passings(struct writer *w, size_t n_callbacks)
{
	if (w->all || n_callbacks < 2) {
		if (w->all)
			empty_list(w, "variable_passings");
		return;
	}
	scalar(w, "variable_passings");
	begin_seq(w, false);
	begin_map(w);
	key(w, "callback_name_write", NULL);
	key(w, "callback_name_read", NULL);
	end_map(w);
	end_seq(w);
}

/* Nothing in a trace ties a publisher to the callback that publishes; the
 * original's rule: the node's only callback written (services, ignored
 * topics, callbacks in no group aside), else UNDEFINED. */
static const ca_callback *only_callback(const struct writer *w, size_t node)
{
	const ca_callback *only = NULL;
	for (size_t c = 0; c < w->a->n_callbacks; c++) {
		const ca_callback *cb = &w->a->callbacks[c];
		if (cb->node != node || !written_callback(w, cb))
			continue;
		if (only)
			return NULL;
		only = cb;
	}
	return only;
}

static int by_topic(const void *x, const void *y)
{
	const char *a = *(const char *const *)x, *b = *(const char *const *)y;
	return strcmp(a ? a : "", b ? b : "");
}

/* The written publishers' (or subscriptions') topics of a node, sorted;
 * subscriptions only with a callback. */
static size_t node_topics(const struct writer *w, size_t node, bool subscriptions,
	const char **out)
{
	const ca_architecture *a = w->a;
	size_t n = 0;
	if (subscriptions) {
		for (size_t s = 0; s < a->n_subscriptions; s++)
			if (a->subscriptions[s].node == node && SHOWN(w, a->subscriptions[s]) &&
			    (w->all || (a->subscriptions[s].callback != CA_NONE &&
			     written_callback(w, &a->callbacks[a->subscriptions[s].callback]))))
				out[n++] = (const char *)&a->subscriptions[s];
	} else {
		for (size_t p = 0; p < a->n_publishers; p++)
			if (a->publishers[p].node == node && SHOWN(w, a->publishers[p]))
				out[n++] = (const char *)&a->publishers[p];
	}
	return n;
}

/* Publishers and subscriptions by topic, then creation: the original
 * numbers those of one node on one topic in creation order. */
static int by_topic_then_time(const char *topic_a, uint64_t time_a, const char *topic_b,
	uint64_t time_b)
{
	int c = strcmp(topic_a ? topic_a : "", topic_b ? topic_b : "");
	return c ? c : (time_a > time_b) - (time_a < time_b);
}

static int by_publisher_topic(const void *x, const void *y)
{
	const ca_publisher *a = *(const ca_publisher *const *)x;
	const ca_publisher *b = *(const ca_publisher *const *)y;
	return by_topic_then_time(a->topic, a->time, b->topic, b->time);
}

/* construction_order: how many before entry i of the sorted list share its
 * topic; written when above 0 (or with --all). */
static void construction_order(struct writer *w, const char *const *topics, size_t i)
{
	size_t order = 0;
	while (order < i && !strcmp(topics[i - order - 1] ? topics[i - order - 1] : "",
		topics[i] ? topics[i] : ""))
		order++;
	if (order || w->all) {
		scalar(w, "construction_order");
		number(w, (int64_t)order);
	}
}

static void publishes(struct writer *w, size_t node)
{
	const ca_architecture *a = w->a;
	const ca_publisher **pubs = malloc((a->n_publishers + 1) * sizeof *pubs);
	const char **topics = malloc((a->n_publishers + 1) * sizeof *topics);
	if (!pubs || !topics) {
		free(pubs);
		free(topics);
		w->failed = true;
		return;
	}
	size_t n = node_topics(w, node, false, (const char **)pubs);
	if (!w->all && n > 1)
		qsort(pubs, n, sizeof *pubs, by_publisher_topic);
	for (size_t i = 0; i < n; i++)
		topics[i] = pubs[i]->topic;
	const ca_callback *only = w->all ? NULL : only_callback(w, node);
	if (n || w->all) {
		scalar(w, "publishes");
		begin_seq(w, !n);
		for (size_t i = 0; i < n; i++) {
			begin_map(w);
			key(w, "topic_name", topics[i]);
			if (w->all) {
				empty_list(w, "callback_names");
			} else {
				scalar(w, "callback_names");
				begin_seq(w, false);
				scalar(w, only ? only->name : "UNDEFINED");
				end_seq(w);
			}
			construction_order(w, topics, i);
			end_map(w);
		}
		end_seq(w);
	}
	free(pubs);
	free(topics);
}

static int by_subscription_topic(const void *x, const void *y)
{
	const ca_subscription *a = *(const ca_subscription *const *)x;
	const ca_subscription *b = *(const ca_subscription *const *)y;
	return by_topic_then_time(a->topic, a->time, b->topic, b->time);
}

static void subscribes(struct writer *w, size_t node)
{
	const ca_architecture *a = w->a;
	const ca_subscription **subs = malloc((a->n_subscriptions + 1) * sizeof *subs);
	const char **topics = malloc((a->n_subscriptions + 1) * sizeof *topics);
	if (!subs || !topics) {
		free(subs);
		free(topics);
		w->failed = true;
		return;
	}
	size_t n = node_topics(w, node, true, (const char **)subs);
	if (!w->all && n > 1)
		qsort(subs, n, sizeof *subs, by_subscription_topic);
	for (size_t i = 0; i < n; i++)
		topics[i] = subs[i]->topic;
	if (n || w->all) {
		scalar(w, "subscribes");
		begin_seq(w, !n);
		for (size_t i = 0; i < n; i++) {
			begin_map(w);
			key(w, "topic_name", subs[i]->topic);
			key(w, "callback_name", subs[i]->callback == CA_NONE ? NULL :
				a->callbacks[subs[i]->callback].name);
			construction_order(w, topics, i);
			end_map(w);
		}
		end_seq(w);
	}
	free(subs);
	free(topics);
}

/* Per (subscribed topic, published topic), sorted: callback_chain when the
 * subscription's callback is the one the publisher is given (the node's
 * only callback), else UNDEFINED: how the node hands input to output is
 * yours to say. */
static void message_contexts(struct writer *w, size_t node)
{
	const ca_architecture *a = w->a;
	if (w->all) {
		empty_list(w, "message_contexts");
		return;
	}
	const ca_subscription **subs = malloc((a->n_subscriptions + 1) * sizeof *subs);
	const ca_publisher **pubs = malloc((a->n_publishers + 1) * sizeof *pubs);
	const char **topics = malloc((a->n_publishers + 1) * sizeof *topics);
	if (!subs || !pubs || !topics) {
		free(subs);
		free(pubs);
		free(topics);
		w->failed = true;
		return;
	}
	size_t n_subs = node_topics(w, node, true, (const char **)subs);
	size_t n_pubs = node_topics(w, node, false, (const char **)pubs);
	for (size_t i = 0; i < n_pubs; i++)
		topics[i] = pubs[i]->topic;
	if (n_subs > 1)
		qsort(subs, n_subs, sizeof *subs, by_subscription_topic);
	if (n_pubs > 1)
		qsort(topics, n_pubs, sizeof *topics, by_topic);
	const ca_callback *only = only_callback(w, node);
	if (n_subs && n_pubs) {
		scalar(w, "message_contexts");
		begin_seq(w, false);
		for (size_t s = 0; s < n_subs; s++)
			for (size_t p = 0; p < n_pubs; p++) {
				const ca_callback *cb = subs[s]->callback == CA_NONE ? NULL :
					&a->callbacks[subs[s]->callback];
				bool chain = cb && cb == only;
				begin_map(w);
				key(w, "context_type", chain ? "callback_chain" : NULL);
				key(w, "subscription_topic_name", subs[s]->topic);
				key(w, "publisher_topic_name", topics[p]);
				if (chain) {
					scalar(w, "callbacks");
					begin_seq(w, false);
					scalar(w, cb->name);
					end_seq(w);
				}
				end_map(w);
			}
		end_seq(w);
	}
	free(subs);
	free(pubs);
	free(topics);
}

/* ---- tf ------------------------------------------------------------------ */

struct tf_entry {
	const char *frame, *child, *callback;
};

static int by_edge_then_callback(const void *x, const void *y)
{
	const struct tf_entry *a = x, *b = y;
	int c = strcmp(a->frame, b->frame);
	c = c ? c : strcmp(a->child, b->child);
	return c ? c : strcmp(a->callback, b->callback);
}

/* The edges the node broadcast (or its lookups read): frame_id,
 * child_frame_id and the callbacks, one entry per edge. */
static void tf_side(struct writer *w, size_t node, bool lookup, const char *k)
{
	struct tf_entry *e = malloc((w->n_tf + 1) * sizeof *e);
	const char **cbs = malloc((w->n_tf + 1) * sizeof *cbs);
	size_t n = 0;
	if (!e || !cbs) {
		w->failed = true;
		goto out;
	}
	for (size_t i = 0; i < w->n_tf; i++) {
		const struct ca_tf_end *x = &w->tf[i];
		const ca_callback *cb = &w->a->callbacks[x->callback];
		if (x->node == node && x->lookup == lookup && SHOWN(w, *cb))
			e[n++] = (struct tf_entry){ ca_trace_string(w->t, x->frame),
				ca_trace_string(w->t, x->child), cb->name };
	}
	if (!n)
		goto out;
	qsort(e, n, sizeof *e, by_edge_then_callback);
	scalar(w, k);
	begin_seq(w, false);
	for (size_t i = 0, j; i < n; i = j) {
		size_t n_cbs = 0;
		for (j = i; j < n && !strcmp(e[j].frame, e[i].frame) && !strcmp(e[j].child, e[i].child); j++)
			cbs[n_cbs++] = e[j].callback;
		begin_map(w);
		key(w, "frame_id", e[i].frame);
		key(w, "child_frame_id", e[i].child);
		names(w, "callback_names", cbs, n_cbs, false);
		end_map(w);
	}
	end_seq(w);
out:
	free(e);
	free(cbs);
}

/* ---- nodes (cont.) -------------------------------------------------------- */

static int by_node_name(const void *x, const void *y)
{
	const ca_node *a = *(const ca_node *const *)x, *b = *(const ca_node *const *)y;
	int c = strcmp(a->fqn, b->fqn);
	return c ? c : (a->pid > b->pid) - (a->pid < b->pid);
}

static void nodes(struct writer *w)
{
	const ca_architecture *a = w->a;
	const ca_node **sorted = malloc((a->n_nodes + 1) * sizeof *sorted);
	const ca_callback **cbs = malloc((a->n_callbacks + 1) * sizeof *cbs);
	if (!sorted || !cbs) {
		free(sorted);
		free(cbs);
		w->failed = true;
		return;
	}
	size_t n = 0;
	for (size_t i = 0; i < a->n_nodes; i++)
		if (SHOWN(w, a->nodes[i]))
			sorted[n++] = &a->nodes[i];
	if (n > 1)
		qsort(sorted, n, sizeof *sorted, by_node_name);
	scalar(w, "nodes");
	begin_seq(w, !n);
	for (size_t k = 0; k < n; k++) {
		size_t node = (size_t)(sorted[k] - a->nodes);
		size_t n_cbs = node_callbacks(w, node, cbs);
		begin_map(w);
		key(w, "node_name", sorted[k]->fqn);
		callback_groups(w, node);
		callbacks(w, cbs, n_cbs);
		variable_passings(w, n_cbs);
		publishes(w, node);
		subscribes(w, node);
		message_contexts(w, node);
		tf_side(w, node, false, "tf_broadcasts");
		tf_side(w, node, true, "tf_lookups");
		end_map(w);
	}
	end_seq(w);
	free(sorted);
	free(cbs);
}

static int write_handler(void *data, unsigned char *buffer, size_t size)
{
	return fwrite(buffer, 1, size, data) == size;
}

int ca_arch_write_yaml(const ca_trace *t, FILE *out, bool all, char *err, size_t err_size)
{
	struct writer w = { .t = t, .a = ca_trace_architecture(t), .all = all };
	yaml_event_t ev;

	if (!w.a || ca_tf_ends_of(t, NULL, &w.tf, &w.n_tf) || !yaml_emitter_initialize(&w.emitter)) {
		snprintf(err, err_size, "cannot write the architecture: no trace or out of memory");
		free(w.tf);
		return -1;
	}
	yaml_emitter_set_output(&w.emitter, write_handler, out);
	yaml_emitter_set_unicode(&w.emitter, 1);
	yaml_emitter_set_width(&w.emitter, -1);
	emit(&w, &ev, yaml_stream_start_event_initialize(&ev, YAML_UTF8_ENCODING));
	emit(&w, &ev, yaml_document_start_event_initialize(&ev, NULL, NULL, NULL, 1));
	begin_map(&w);
	empty_list(&w, "named_paths");
	executors(&w);
	nodes(&w);
	end_map(&w);
	emit(&w, &ev, yaml_document_end_event_initialize(&ev, 1));
	emit(&w, &ev, yaml_stream_end_event_initialize(&ev));
	if (!w.failed && !yaml_emitter_flush(&w.emitter))
		w.failed = true;
	if (w.failed)
		snprintf(err, err_size, "cannot write the architecture: %s",
			w.emitter.problem ? w.emitter.problem : "write error");
	yaml_emitter_delete(&w.emitter);
	free(w.tf);
	return w.failed ? -1 : 0;
}
