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

static size_t node_of(const ca_architecture *a, const ca_callback_instance *runs, size_t run)
{
	size_t cb = run == CA_NONE ? CA_NONE : runs[run].callback;
	return cb == CA_NONE ? CA_NONE : a->callbacks[cb].node;
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

int ca_tf_links_of(const ca_trace *t, const ca_records *records, struct ca_tf_links *out)
{
	const ca_architecture *a = ca_trace_architecture(t);
	char err[64];
	*out = (struct ca_tf_links){ 0 };
	if (!a || !has_tf(t))
		return 0;
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
	size_t n = ca_tf_uses(tf, &uses), cap = 0;
	for (size_t i = 0; i < n; i++) {
		const ca_tf_set *s = &sets[uses[i].set];
		size_t from = s->send == CA_NONE ? CA_NONE : node_of(a, runs, sends[s->send].run);
		size_t to = node_of(a, runs, lookups[uses[i].lookup].run);
		if (from == CA_NONE || to == CA_NONE || from == to)
			continue;
		const char *name = link_name(t, out, s->frame, s->child);
		bool known = false;
		for (size_t k = 0; k < out->n && !known; k++)
			known = out->links[k].from == from && out->links[k].to == to &&
				out->links[k].topic == name;
		if (!name)
			goto out;
		if (known)
			continue;
		struct ca_topic_link *x = VEC_PUSH(out->links, out->n, cap);
		if (!x)
			goto out;
		*x = (struct ca_topic_link){ from, to, name };
	}
	status = 0;
out:
	ca_tf_free(tf);
	ca_records_free(built);
	if (status)
		ca_tf_links_free(out);
	return status;
}

void ca_tf_links_free(struct ca_tf_links *l)
{
	for (size_t i = 0; i < l->n_names; i++)
		free(l->names[i]);
	free(l->names);
	free(l->links);
	*l = (struct ca_tf_links){ 0 };
}
