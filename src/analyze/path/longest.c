/*
 * longest.c - the longest chain of nodes in the graph (ca_path_longest):
 * the path caret report and caret export show when none is named.
 */
#include <stdlib.h>

#include "path.h"

static bool shown(const ca_architecture *a, size_t node, bool all)
{
	return all || !a->nodes[node].hidden;
}

ca_path_set *ca_path_longest(const ca_trace *t, const ca_records *r, bool all)
{
	struct ca_tf_links tf = { 0 }; /* chains go through tf too */
	ca_path_set *set = NULL;
	if (ca_tf_links_of(t, r, &tf) == 0)
		set = ca_path_longest_of(ca_trace_architecture(t), &tf, all);
	ca_tf_links_free(&tf);
	return set;
}

ca_path_set *ca_path_longest_of(const ca_architecture *a, struct ca_tf_links *tf_links,
	bool all)
{
	size_t n = a->n_nodes, n_links = 0;
	struct ca_tf_links none = { 0 }, *tf_in = tf_links ? tf_links : &none;
	struct ca_tf_links tf = *tf_in; /* the set adopts the names; the caller's freed empty */
	size_t *depth = calloc(n + 1, sizeof *depth), *prev = malloc((n + 1) * sizeof *prev);
	const char **via = calloc(n + 1, sizeof *via);
	struct ca_topic_link *links = ca_topic_links(a, &n_links);
	ca_path_set *set = NULL;
	*tf_in = (struct ca_tf_links){ 0 };
	if (!depth || !prev || !via || !links)
		goto out;
	for (size_t i = 0; i < n; i++)
		prev[i] = CA_NONE;
	/* Bellman-Ford on depths; n rounds bound cycles */
	for (size_t round = 0; round < n; round++) {
		bool changed = false;
		for (size_t i = 0; i < n_links + tf.n; i++) {
			const struct ca_topic_link *l = i < n_links ? &links[i] : &tf.links[i - n_links];
			size_t from = l->from, to = l->to;
			if (depth[to] >= depth[from] + 1 || depth[from] + 1 >= n ||
			    !shown(a, from, all) || !shown(a, to, all))
				continue;
			depth[to] = depth[from] + 1;
			prev[to] = from;
			via[to] = l->topic;
			changed = true;
		}
		if (!changed)
			break;
	}
	size_t end = 0;
	for (size_t i = 1; i < n; i++)
		end = depth[i] > depth[end] ? i : end;
	if (!n || !depth[end])
		goto out;
	size_t count = depth[end] + 1;
	const char **nodes = calloc(count, sizeof *nodes), **topics = calloc(count, sizeof *topics);
	if (!nodes || !topics) {
		free(nodes);
		free(topics);
		goto out;
	}
	for (size_t i = count, x = end; i-- > 0; x = prev[x]) {
		nodes[i] = a->nodes[x].fqn;
		if (i)
			topics[i - 1] = via[x];
	}
	set = ca_path_set_of(nodes, topics, NULL, count, false);
	if (set && ca_path_set_adopt(set, &tf)) {
		ca_path_set_free(set);
		set = NULL;
	}
out:
	ca_tf_links_free(&tf);
	free(links);
	free(depth);
	free(prev);
	free(via);
	return set;
}
