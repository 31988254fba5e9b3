/*
 * search.c - paths through the node graph: an edge where one node
 * publishes a topic another subscribes. Depth-first with an explicit
 * stack, bounded in depth and in the number of paths kept, so neither
 * time nor memory grows with the number of paths a large graph holds.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "close_names.h"
#include "model.h"
#include "path.h"

struct edge {
	size_t from, to;   /* node name indexes */
	const char *topic;
};


/* Node names, each once (nodes of several processes may share one). */
struct names {
	const char **name;
	size_t n;
};

static size_t name_index(const struct names *nm, const char *name)
{
	for (size_t i = 0; i < nm->n; i++)
		if (!strcmp(nm->name[i], name))
			return i;
	return CA_NONE;
}

/* Topics every node has (parameters, logging) and the CARET control
 * topics: they link everything to everything, so paths leave them out, as
 * the original's path search does by default. */
bool ca_topic_is_infrastructure(const char *topic)
{
	return !strcmp(topic, "/parameter_events") || !strcmp(topic, "/rosout") ||
		!strncmp(topic, "/caret/", 7);
}

struct ca_topic_link *ca_topic_links(const ca_architecture *a, size_t *n)
{
	struct ca_topic_link *links = NULL;
	size_t cap = 0;
	*n = 0;
	for (size_t p = 0; p < a->n_publishers; p++) {
		const ca_publisher *pub = &a->publishers[p];
		if (pub->node == CA_NONE || ca_topic_is_infrastructure(pub->topic))
			continue;
		for (size_t s = 0; s < a->n_subscriptions; s++) {
			const ca_subscription *sub = &a->subscriptions[s];
			if (sub->node == CA_NONE || sub->node == pub->node || strcmp(sub->topic, pub->topic))
				continue;
			struct ca_topic_link *x = VEC_PUSH(links, *n, cap);
			if (!x) {
				free(links);
				return NULL;
			}
			*x = (struct ca_topic_link){ pub->node, sub->node, pub->topic };
		}
	}
	return links ? links : calloc(1, sizeof *links);
}

static int by_edge(const void *a, const void *b)
{
	const struct edge *x = a, *y = b;
	if (x->from != y->from)
		return x->from < y->from ? -1 : 1;
	if (x->to != y->to)
		return x->to < y->to ? -1 : 1;
	return strcmp(x->topic, y->topic);
}

/* Edges sorted by source, duplicates dropped; first[n] .. first[n + 1] are
 * node n's. */
static struct edge *graph(const ca_architecture *a, const struct names *nm,
	const struct ca_tf_links *tf, size_t **first_out, size_t *n_out)
{
	size_t n = 0;
	struct ca_topic_link *links = ca_topic_links(a, &n);
	struct edge *e = links ? malloc((n + tf->n + 1) * sizeof *e) : NULL;
	if (!e) {
		free(links);
		return NULL;
	}
	for (size_t i = 0; i < n + tf->n; i++) { /* by name: nodes of several processes share one */
		const struct ca_topic_link *l = i < n ? &links[i] : &tf->links[i - n];
		e[i] = (struct edge){ name_index(nm, a->nodes[l->from].fqn),
			name_index(nm, a->nodes[l->to].fqn), l->topic };
	}
	n += tf->n;
	free(links);
	size_t same = 0;
	for (size_t i = 0; i < n; i++)
		if (e[i].from != e[i].to)
			e[same++] = e[i];
	n = same;
	if (n > 1)
		qsort(e, n, sizeof *e, by_edge);
	size_t kept = 0;
	for (size_t i = 0; i < n; i++)
		if (!kept || by_edge(&e[kept - 1], &e[i]))
			e[kept++] = e[i];
	size_t *first = calloc(nm->n + 1, sizeof *first);
	if (!first) {
		free(e);
		return NULL;
	}
	for (size_t i = 0; i < kept; i++)
		first[e[i].from + 1]++;
	for (size_t i = 0; i < nm->n; i++)
		first[i + 1] += first[i];
	*first_out = first;
	*n_out = kept;
	return e;
}

static int keep_path(ca_path_set *set, const struct names *nm, const size_t *nodes,
	const struct edge *const *via, size_t length)
{
	ca_path *p = VEC_PUSH(set->paths, set->n_paths, set->cap_paths);
	const char **n = malloc((length + 1) * sizeof *n), **t = malloc((length + 1) * sizeof *t);
	if (!p || !n || !t) {
		free(n);
		free(t);
		return -1;
	}
	for (size_t i = 0; i <= length; i++)
		n[i] = nm->name[nodes[i]];
	for (size_t i = 0; i < length; i++)
		t[i] = via[i]->topic;
	*p = (ca_path){ length + 1, n, t, NULL };
	return 0;
}

static int collect_names(const ca_architecture *a, struct names *nm)
{
	nm->name = malloc((a->n_nodes + 1) * sizeof *nm->name);
	if (!nm->name)
		return -1;
	for (size_t i = 0; i < a->n_nodes; i++)
		if (name_index(nm, a->nodes[i].fqn) == CA_NONE)
			nm->name[nm->n++] = a->nodes[i].fqn;
	return 0;
}

ca_path_set *ca_path_search(const ca_trace *t, const char *from, const char *to,
	size_t max_depth, size_t max_paths, char *err, size_t err_size)
{
	const ca_architecture *a = ca_trace_architecture(t);
	struct names nm = { 0 };
	ca_path_set *set = calloc(1, sizeof *set);
	struct edge *e = NULL;
	size_t *first = NULL, n_edges = 0, *nodes = NULL, *cursor = NULL;
	const struct edge **via = NULL;
	bool *on_path = NULL;
	struct ca_tf_links tf = { 0 };

	if (!set || !a || collect_names(a, &nm)) {
		snprintf(err, err_size, "out of memory");
		goto fail;
	}
	size_t src = name_index(&nm, from), dst = name_index(&nm, to);
	if (src == CA_NONE || dst == CA_NONE) {
		ca_path_no_such_name(a, false, src == CA_NONE ? from : to, err, err_size);
		goto fail;
	}
	if (ca_tf_links_of(t, NULL, &tf)) {
		snprintf(err, err_size, "out of memory");
		goto fail;
	}
	e = graph(a, &nm, &tf, &first, &n_edges);
	/* a path visits each node once: no deeper than the node count, which
	 * bounds the stacks below whatever depth was asked (SIZE_MAX: any) */
	if (max_depth > nm.n)
		max_depth = nm.n;
	nodes = calloc(max_depth + 2, sizeof *nodes);
	cursor = calloc(max_depth + 2, sizeof *cursor);
	via = calloc(max_depth + 2, sizeof *via);
	on_path = calloc(nm.n + 1, sizeof *on_path);
	if (!e || !nodes || !cursor || !via || !on_path) {
		snprintf(err, err_size, "out of memory");
		goto fail;
	}
	/* depth d: nodes[0..d] on the path, cursor[d] the next edge to try */
	size_t d = 0;
	nodes[0] = src;
	cursor[0] = first[src];
	on_path[src] = true;
	for (;;) {
		size_t n = nodes[d];
		if (cursor[d] == first[n + 1]) {
			on_path[n] = false;
			if (d == 0)
				break;
			d--;
			continue;
		}
		const struct edge *x = &e[cursor[d]++];
		if (on_path[x->to])
			continue;
		if (d + 1 > max_depth) {
			set->depth_cut = true;
			continue;
		}
		via[d] = x;
		if (x->to == dst) {
			if (set->n_paths == max_paths) {
				set->count_cut = true;
				break;
			}
			nodes[d + 1] = dst;
			if (keep_path(set, &nm, nodes, via, d + 1)) {
				snprintf(err, err_size, "out of memory");
				goto fail;
			}
			continue;
		}
		nodes[++d] = x->to;
		cursor[d] = first[x->to];
		on_path[x->to] = true;
	}
	if (ca_path_set_adopt(set, &tf) == 0)
		goto out;
	snprintf(err, err_size, "out of memory");
fail:
	ca_path_set_free(set);
	set = NULL;
out:
	ca_tf_links_free(&tf);
	free(nm.name);
	free(e);
	free(first);
	free(nodes);
	free(cursor);
	free(via);
	free(on_path);
	return set;
}

/* The names to choose from: the user's nodes (not the tracer's, hidden), or
 * the topics published or subscribed but those every node has; their
 * number. */
static size_t names_to_offer(const ca_architecture *a, bool topic, const char **names)
{
	size_t n = 0;
	if (!topic) {
		for (size_t i = 0; i < a->n_nodes; i++)
			if (!a->nodes[i].hidden)
				names[n++] = a->nodes[i].fqn;
		return n;
	}
	for (size_t i = 0; i < a->n_publishers + a->n_subscriptions; i++) {
		const char *t = i < a->n_publishers ? a->publishers[i].topic :
			a->subscriptions[i - a->n_publishers].topic;
		if (t && !ca_topic_is_infrastructure(t))
			names[n++] = t;
	}
	return n;
}

void ca_path_no_such_name(const ca_architecture *a, bool topic, const char *name, char *err,
	size_t err_size)
{
	size_t most = topic ? a->n_publishers + a->n_subscriptions : a->n_nodes;
	const char **names = malloc((most ? most : 1) * sizeof *names);
	char hint[768] = "";
	if (names)
		caret_name_hint(hint, sizeof hint, name, topic ? "topics" : "nodes", names,
			names_to_offer(a, topic, names),
			topic ? "caret summary topics" : "caret summary nodes");
	snprintf(err, err_size, "no %s %s in the trace%s%s%s", topic ? "topic" : "node", name,
		*hint ? " (" : "", hint, *hint ? ")" : "");
	free(names);
}

/* The one topic that node a publishes and node b subscribes. */
const char *ca_path_shared_topic(const ca_architecture *a, const char *from, const char *to,
	char *err, size_t err_size)
{
	const char *found = NULL;
	char several[512] = "";
	size_t n = 0;
	for (size_t p = 0; p < a->n_publishers; p++) {
		const ca_publisher *pub = &a->publishers[p];
		if (pub->node == CA_NONE || strcmp(a->nodes[pub->node].fqn, from) ||
		    ca_topic_is_infrastructure(pub->topic))
			continue;
		for (size_t s = 0; s < a->n_subscriptions; s++) {
			const ca_subscription *sub = &a->subscriptions[s];
			if (sub->node == CA_NONE || strcmp(a->nodes[sub->node].fqn, to) ||
			    strcmp(sub->topic, pub->topic) || (found && !strcmp(found, pub->topic)))
				continue;
			size_t len = strlen(several);
			snprintf(several + len, sizeof several - len, "%s%s", n++ ? ", " : "", pub->topic);
			found = pub->topic;
		}
	}
	if (n == 1)
		return found;
	if (!n)
		snprintf(err, err_size, "no topic from %s to %s (nor a tf or service link): if "
			"other nodes stand between them, 'caret path search --from %s --to %s' "
			"lists the chains to give to --nodes", from, to, from, to);
	else
		snprintf(err, err_size, "%s and %s share several topics (%s): name the path in an "
			"architecture file", from, to, several);
	return NULL;
}

ca_path_set *ca_path_set_of(const char **nodes, const char **topics, ca_node_policy *policies,
	size_t node_count, bool owns_strings)
{
	ca_path_set *set = calloc(1, sizeof *set);
	ca_path *p = set ? VEC_PUSH(set->paths, set->n_paths, set->cap_paths) : NULL;
	char **owned = owns_strings ? calloc(2 * node_count, sizeof *owned) : NULL;
	if (!p || (owns_strings && !owned)) {
		if (owns_strings)
			for (size_t i = 0; i < node_count; i++) {
				free((void *)nodes[i]);
				if (i + 1 < node_count)
					free((void *)topics[i]);
			}
		free(owned);
		free(nodes);
		free(topics);
		free(policies);
		if (set)
			free(set->paths);
		free(set);
		return NULL;
	}
	*p = (ca_path){ node_count, nodes, topics, policies };
	if (owns_strings) {
		for (size_t i = 0; i < node_count; i++) {
			owned[set->n_owned++] = (char *)nodes[i];
			if (i + 1 < node_count)
				owned[set->n_owned++] = (char *)topics[i];
		}
		set->owned = owned;
	}
	return set;
}

/* When two nodes share no topic: the one tf link between them (a transform
 * the first broadcasts and a lookup of the second reads). err keeps the
 * topic search's reason when there is none. */
static const char *tf_link(const ca_trace *t, struct ca_tf_links *tf, const char *from,
	const char *to, char *err, size_t err_size)
{
	const ca_architecture *a = ca_trace_architecture(t);
	const char *found = NULL;
	if (strncmp(err, "no topic", 8) || (!tf->names && ca_tf_links_of(t, NULL, tf)))
		return NULL;
	for (size_t i = 0; i < tf->n; i++) {
		const struct ca_topic_link *l = &tf->links[i];
		if (strcmp(a->nodes[l->from].fqn, from) || strcmp(a->nodes[l->to].fqn, to))
			continue;
		if (found && found != l->topic) {
			snprintf(err, err_size, "%s and %s share several tf links (%s, %s): name the "
				"path in an architecture file", from, to, found, l->topic);
			return NULL;
		}
		found = l->topic;
	}
	return found;
}

/* The service link from `from` to `to` when they share no topic nor tf
 * link; its name kept in `owned` (which the path set takes). */
static const char *service_link(const ca_architecture *a, struct ca_tf_links *owned,
	const char *from, const char *to, char *err, size_t err_size)
{
	if (strncmp(err, "no topic", 8))
		return NULL;
	char *name = ca_service_link(a, from, to, err, err_size);
	char **names = name ? realloc(owned->names, (owned->n_names + 1) * sizeof *names) : NULL;
	if (!names) {
		if (name)
			snprintf(err, err_size, "out of memory");
		free(name);
		return NULL;
	}
	owned->names = names;
	names[owned->n_names++] = name;
	return name;
}

ca_path_set *ca_path_of_nodes(const ca_trace *t, const char *const *names, size_t n,
	char *err, size_t err_size)
{
	const ca_architecture *a = ca_trace_architecture(t);
	struct ca_tf_links tf = { 0 }, services = { 0 };
	const char **nodes = calloc(n + 1, sizeof *nodes), **topics = calloc(n + 1, sizeof *topics);

	if (!a || !nodes || !topics) {
		snprintf(err, err_size, "out of memory");
		goto fail;
	}
	if (n < 2) {
		snprintf(err, err_size, "a path needs at least two nodes");
		goto fail;
	}
	for (size_t i = 0; i < n; i++) {
		for (size_t k = 0; k < a->n_nodes && !nodes[i]; k++)
			if (!strcmp(a->nodes[k].fqn, names[i]))
				nodes[i] = a->nodes[k].fqn;
		if (!nodes[i]) {
			ca_path_no_such_name(a, false, names[i], err, err_size);
			goto fail;
		}
		if (i && !(topics[i - 1] = ca_path_shared_topic(a, nodes[i - 1], nodes[i], err,
			err_size)) &&
		    !(topics[i - 1] = tf_link(t, &tf, nodes[i - 1], nodes[i], err, err_size)) &&
		    !(topics[i - 1] = service_link(a, &services, nodes[i - 1], nodes[i], err,
			err_size)))
			goto fail;
	}
	ca_path_set *set = ca_path_set_of(nodes, topics, NULL, n, false);
	if (!set || ca_path_set_adopt(set, &tf) || ca_path_set_adopt(set, &services)) {
		snprintf(err, err_size, "out of memory");
		ca_path_set_free(set);
		set = NULL;
	}
	ca_tf_links_free(&tf);
	ca_tf_links_free(&services);
	return set;
fail:
	ca_tf_links_free(&tf);
	ca_tf_links_free(&services);
	free(nodes);
	free(topics);
	return NULL;
}

int ca_path_set_adopt(ca_path_set *set, struct ca_tf_links *links)
{
	if (!links->n_names)
		return 0;
	char **owned = realloc(set->owned, (set->n_owned + links->n_names) * sizeof *owned);
	if (!owned)
		return -1;
	set->owned = owned;
	for (size_t i = 0; i < links->n_names; i++)
		owned[set->n_owned++] = links->names[i];
	links->n_names = 0;
	return 0;
}

size_t ca_path_set_paths(const ca_path_set *set, const ca_path **paths)
{
	*paths = set ? set->paths : NULL;
	return set ? set->n_paths : 0;
}

bool ca_path_set_depth_cut(const ca_path_set *set)
{
	return set && set->depth_cut;
}

bool ca_path_set_count_cut(const ca_path_set *set)
{
	return set && set->count_cut;
}

void ca_path_set_free(ca_path_set *set)
{
	if (!set)
		return;
	for (size_t i = 0; i < set->n_paths; i++) {
		free((void *)set->paths[i].nodes);
		free((void *)set->paths[i].topics);
		free((void *)set->paths[i].policies);
	}
	for (size_t i = 0; i < set->n_owned; i++)
		free(set->owned[i]);
	free(set->owned);
	free(set->paths);
	free(set);
}
