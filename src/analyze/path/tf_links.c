/*
 * tf_links.c - tf dependencies as links of the node graph: node `from`
 * broadcast a transform that a lookup made in node `to` read (ca_tf_*). The
 * link's topic is "tf:FRAME->CHILD", a name no ROS topic can have, so the
 * path code tells tf hops from topics by it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "path.h"
#include "trace.h"

bool ca_topic_is_tf(const char *topic)
{
	return topic && !strncmp(topic, CA_TF_TOPIC_PREFIX, strlen(CA_TF_TOPIC_PREFIX));
}

static bool has_tf(const ca_trace *t)
{
	return t->tables[CS_EV_ros2_caret_send_transform].rows &&
		t->tables[CS_EV_ros2_caret_tf_lookup_transform].rows;
}

/* The name of an edge's link, owned by l (each name once). */
static const char *link_name(const ca_trace *t, struct ca_tf_links *l, uint64_t frame,
	uint64_t child)
{
	char buf[512];
	snprintf(buf, sizeof buf, CA_TF_TOPIC_PREFIX "%s->%s", ca_trace_string(t, frame),
		ca_trace_string(t, child));
	for (size_t i = 0; i < l->n_names; i++)
		if (!strcmp(l->names[i], buf))
			return l->names[i];
	char *copy = strdup(buf);
	char **names = copy ? realloc(l->names, (l->n_names + 1) * sizeof *names) : NULL;
	if (!names) {
		free(copy);
		return NULL;
	}
	l->names = names;
	return l->names[l->n_names++] = copy;
}

static bool same_end(const struct ca_tf_end *x, const struct ca_tf_end *y)
{
	return x->node == y->node && x->callback == y->callback && x->lookup == y->lookup &&
		x->frame == y->frame && x->child == y->child;
}

/* Adds the end unless it is there; false when out of memory. */
static bool add_end(struct ca_tf_end **ends, size_t *n, size_t *cap, struct ca_tf_end e)
{
	for (size_t k = 0; k < *n; k++)
		if (same_end(&(*ends)[k], &e))
			return true;
	struct ca_tf_end *x = VEC_PUSH(*ends, *n, *cap);
	if (x)
		*x = e;
	return x != NULL;
}

/* Calls each(use's set, sending run, looking-up run, arg) for every
 * transform a lookup read; -1 when out of memory. */
static int each_use(const ca_trace *t, const ca_records *records,
	bool (*each)(const ca_tf_set *, const ca_callback_instance *,
		const ca_callback_instance *, void *),
	void *arg)
{
	char err[64];
	ca_records *built = records ? NULL : ca_records_build(t, err, sizeof err);
	const ca_records *r = records ? records : built;
	ca_tf *tf = r ? ca_tf_build(t, r, err, sizeof err) : NULL;
	const ca_callback_instance *runs;
	const ca_tf_send *sends;
	const ca_tf_set *sets;
	const ca_tf_lookup *lookups;
	const ca_tf_use *uses;
	int status = -1;
	if (!tf)
		goto out;
	ca_records_callbacks(r, &runs);
	ca_tf_sends(tf, &sends);
	ca_tf_sets(tf, &sets);
	ca_tf_lookups(tf, &lookups);
	size_t n = ca_tf_uses(tf, &uses);
	for (size_t i = 0; i < n; i++) {
		const ca_tf_set *s = &sets[uses[i].set];
		size_t send_run = s->send == CA_NONE ? CA_NONE : sends[s->send].run;
		size_t lookup_run = lookups[uses[i].lookup].run;
		if (send_run == CA_NONE || lookup_run == CA_NONE ||
		    runs[send_run].callback == CA_NONE || runs[lookup_run].callback == CA_NONE)
			continue;
		if (!each(s, &runs[send_run], &runs[lookup_run], arg))
			goto out;
	}
	status = 0;
out:
	ca_tf_free(tf);
	ca_records_free(built);
	return status;
}

struct ends {
	const ca_architecture *a;
	struct ca_tf_end *ends;
	size_t n, cap;
};

static bool end_of_use(const ca_tf_set *s, const ca_callback_instance *send,
	const ca_callback_instance *lookup, void *arg)
{
	struct ends *e = arg;
	const ca_architecture *a = e->a;
	return add_end(&e->ends, &e->n, &e->cap, (struct ca_tf_end){ a->callbacks[send->callback].node,
		send->callback, false, s->frame, s->child }) &&
		add_end(&e->ends, &e->n, &e->cap, (struct ca_tf_end){
			a->callbacks[lookup->callback].node, lookup->callback, true, s->frame,
			s->child });
}

int ca_tf_ends_of(const ca_trace *t, const ca_records *records, struct ca_tf_end **ends,
	size_t *n)
{
	struct ends e = { .a = ca_trace_architecture(t) };
	*ends = NULL;
	*n = 0;
	if (!e.a || !has_tf(t))
		return 0;
	if (each_use(t, records, end_of_use, &e)) {
		free(e.ends);
		return -1;
	}
	*ends = e.ends;
	*n = e.n;
	return 0;
}

struct links {
	const ca_trace *t;
	const ca_architecture *a;
	struct ca_tf_links *out;
	size_t cap;
};

static bool link_of_use(const ca_tf_set *s, const ca_callback_instance *send,
	const ca_callback_instance *lookup, void *arg)
{
	struct links *l = arg;
	size_t from = l->a->callbacks[send->callback].node;
	size_t to = l->a->callbacks[lookup->callback].node;
	if (from == to)
		return true;
	const char *name = link_name(l->t, l->out, s->frame, s->child);
	if (!name)
		return false;
	for (size_t k = 0; k < l->out->n; k++)
		if (l->out->links[k].from == from && l->out->links[k].to == to &&
		    l->out->links[k].topic == name)
			return true;
	struct ca_topic_link *x = VEC_PUSH(l->out->links, l->out->n, l->cap);
	if (x)
		*x = (struct ca_topic_link){ from, to, name };
	return x != NULL;
}

int ca_tf_links_of(const ca_trace *t, const ca_records *records, struct ca_tf_links *out)
{
	struct links l = { t, ca_trace_architecture(t), out, 0 };
	*out = (struct ca_tf_links){ 0 };
	if (!l.a || !has_tf(t))
		return 0;
	if (each_use(t, records, link_of_use, &l)) {
		ca_tf_links_free(out);
		return -1;
	}
	return 0;
}

void ca_tf_links_free(struct ca_tf_links *l)
{
	for (size_t i = 0; i < l->n_names; i++)
		free(l->names[i]);
	free(l->names);
	free(l->links);
	*l = (struct ca_tf_links){ 0 };
}
