/*
 * arch_yaml_write.c - the architecture as the original's architecture file
 * (named_paths, executors, nodes with callback_groups, callbacks,
 * variable_passings, publishes, subscribes, message_contexts), written
 * through libyaml's emitter. Nodes sorted by name, their callbacks in
 * construction order; executors by name.
 */
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <yaml.h>

#include "caret/analyze.h"

struct writer {
	yaml_emitter_t emitter;
	const ca_architecture *a;
	bool failed;
};

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

/* executor_2 before executor_10 */
static int by_executor_name(const void *x, const void *y)
{
	const char *a = (*(const ca_executor *const *)x)->name;
	const char *b = (*(const ca_executor *const *)y)->name;
	size_t la = strlen(a), lb = strlen(b);
	return la != lb ? (la > lb) - (la < lb) : strcmp(a, b);
}

static void executors(struct writer *w)
{
	const ca_architecture *a = w->a;
	const ca_executor **sorted = malloc((a->n_executors + 1) * sizeof *sorted);
	if (!sorted) {
		w->failed = true;
		return;
	}
	for (size_t i = 0; i < a->n_executors; i++)
		sorted[i] = &a->executors[i];
	if (a->n_executors > 1)
		qsort(sorted, a->n_executors, sizeof *sorted, by_executor_name);

	scalar(w, "executors");
	begin_seq(w, !a->n_executors);
	for (size_t k = 0; k < a->n_executors; k++) {
		/* A group without callbacks has no known node; it is left out,
		 * as nothing in it runs. */
		size_t index = (size_t)(sorted[k] - a->executors), n_groups = 0;
		for (size_t g = 0; g < a->n_groups; g++)
			n_groups += a->groups[g].executor == index && a->groups[g].node != CA_NONE;
		begin_map(w);
		key(w, "executor_type", sorted[k]->type);
		key(w, "executor_name", sorted[k]->name);
		scalar(w, "callback_group_names");
		begin_seq(w, !n_groups);
		for (size_t g = 0; g < a->n_groups; g++)
			if (a->groups[g].executor == index && a->groups[g].node != CA_NONE)
				scalar(w, a->groups[g].name);
		end_seq(w);
		end_map(w);
	}
	end_seq(w);
	free(sorted);
}

/* ---- nodes -------------------------------------------------------------- */

static size_t group_of(const ca_architecture *a, const ca_callback *cb)
{
	return cb->kind == CA_CALLBACK_TIMER ? a->timers[cb->owner].group :
		cb->kind == CA_CALLBACK_SERVICE ? a->services[cb->owner].group :
		a->subscriptions[cb->owner].group;
}

static void callback_groups(struct writer *w, size_t node)
{
	const ca_architecture *a = w->a;
	size_t n = 0;
	for (size_t g = 0; g < a->n_groups; g++)
		n += a->groups[g].node == node;
	scalar(w, "callback_groups");
	begin_seq(w, !n);
	for (size_t g = 0; g < a->n_groups; g++) {
		if (a->groups[g].node != node)
			continue;
		size_t members = 0;
		for (size_t c = 0; c < a->n_callbacks; c++)
			members += group_of(a, &a->callbacks[c]) == g;
		begin_map(w);
		key(w, "callback_group_type", a->groups[g].type);
		key(w, "callback_group_name", a->groups[g].name);
		scalar(w, "callback_names");
		begin_seq(w, !members);
		for (size_t c = 0; c < a->n_callbacks; c++)
			if (group_of(a, &a->callbacks[c]) == g)
				scalar(w, a->callbacks[c].name);
		end_seq(w);
		end_map(w);
	}
	end_seq(w);
}

static const char *const callback_types[] = {
	[CA_CALLBACK_TIMER] = "timer_callback",
	[CA_CALLBACK_SUBSCRIPTION] = "subscription_callback",
	[CA_CALLBACK_SERVICE] = "service_callback",
};

static void callbacks(struct writer *w, size_t node)
{
	const ca_architecture *a = w->a;
	size_t n = 0;
	for (size_t c = 0; c < a->n_callbacks; c++)
		n += a->callbacks[c].node == node;
	scalar(w, "callbacks");
	begin_seq(w, !n);
	for (size_t c = 0; c < a->n_callbacks; c++) {
		const ca_callback *cb = &a->callbacks[c];
		if (cb->node != node)
			continue;
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
		scalar(w, "construction_order");
		number(w, cb->construction_order);
		end_map(w);
	}
	end_seq(w);
}

static void publishes(struct writer *w, size_t node)
{
	const ca_architecture *a = w->a;
	size_t n = 0;
	for (size_t p = 0; p < a->n_publishers; p++)
		n += a->publishers[p].node == node;
	scalar(w, "publishes");
	begin_seq(w, !n);
	for (size_t p = 0; p < a->n_publishers; p++) {
		if (a->publishers[p].node != node)
			continue;
		begin_map(w);
		key(w, "topic_name", a->publishers[p].topic);
		/* Which callbacks publish comes from runtime events (latency). */
		empty_list(w, "callback_names");
		end_map(w);
	}
	end_seq(w);
}

static void subscribes(struct writer *w, size_t node)
{
	const ca_architecture *a = w->a;
	size_t n = 0;
	for (size_t s = 0; s < a->n_subscriptions; s++)
		n += a->subscriptions[s].node == node;
	scalar(w, "subscribes");
	begin_seq(w, !n);
	for (size_t s = 0; s < a->n_subscriptions; s++) {
		const ca_subscription *sub = &a->subscriptions[s];
		if (sub->node != node)
			continue;
		begin_map(w);
		key(w, "topic_name", sub->topic);
		key(w, "callback_name", sub->callback == CA_NONE ? NULL :
			a->callbacks[sub->callback].name);
		end_map(w);
	}
	end_seq(w);
}

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
	if (!sorted) {
		w->failed = true;
		return;
	}
	for (size_t i = 0; i < a->n_nodes; i++)
		sorted[i] = &a->nodes[i];
	if (a->n_nodes > 1)
		qsort(sorted, a->n_nodes, sizeof *sorted, by_node_name);
	scalar(w, "nodes");
	begin_seq(w, !a->n_nodes);
	for (size_t k = 0; k < a->n_nodes; k++) {
		size_t node = (size_t)(sorted[k] - a->nodes);
		begin_map(w);
		key(w, "node_name", sorted[k]->fqn);
		callback_groups(w, node);
		callbacks(w, node);
		empty_list(w, "variable_passings");
		publishes(w, node);
		subscribes(w, node);
		empty_list(w, "message_contexts");
		end_map(w);
	}
	end_seq(w);
	free(sorted);
}

static int write_handler(void *data, unsigned char *buffer, size_t size)
{
	return fwrite(buffer, 1, size, data) == size;
}

int ca_arch_write_yaml(const ca_trace *t, FILE *out, char *err, size_t err_size)
{
	struct writer w = { .a = ca_trace_architecture(t) };
	yaml_event_t ev;

	if (!w.a || !yaml_emitter_initialize(&w.emitter)) {
		snprintf(err, err_size, "cannot write the architecture: no trace or out of memory");
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
	return w.failed ? -1 : 0;
}
