/* asked.c - the nodes of the watched paths, looked for in the first look
 * (state.h): one the trace does not have is said with the names nearest it
 * (caret_name_hint, as every verb says a name it did not find), and caret
 * live ends: there is nothing to watch. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "close_names.h"
#include "state.h"

static bool has_node(const ca_architecture *a, const char *fqn)
{
	for (size_t i = 0; i < a->n_nodes; i++)
		if (!strcmp(a->nodes[i].fqn, fqn))
			return true;
	return false;
}

/* "no node NAME in the trace (did you mean ...? its nodes: ...)": the
 * user's nodes offered, not the tracer's own. */
static void say_missing(const ca_architecture *a, const char *name)
{
	const char **names = malloc((a->n_nodes + 1) * sizeof *names);
	char hint[768] = "";
	size_t n = 0;
	for (size_t i = 0; names && i < a->n_nodes; i++)
		if (!a->nodes[i].hidden)
			names[n++] = a->nodes[i].fqn;
	if (names)
		caret_name_hint(hint, sizeof hint, name, "nodes", names, n, NULL);
	fprintf(stderr, "caret live: no node %s in the trace%s%s%s: nothing to watch\n", name,
		*hint ? " (" : "", hint, *hint ? ")" : "");
	free(names);
}

/* The nodes a watch names: --nodes', or its named path's. */
static size_t watched_nodes(const struct live_watch *w, const char *const **nodes)
{
	const ca_path *p;
	if (w->spec->n_nodes) {
		*nodes = w->spec->nodes;
		return w->spec->n_nodes;
	}
	if (!w->set || !ca_path_set_paths(w->set, &p))
		return 0;
	*nodes = p->nodes;
	return p->node_count;
}

bool live_nodes_present(const struct live *L, const ca_trace *t)
{
	const ca_architecture *a = ca_trace_architecture(t);
	for (size_t i = 0; i < L->o->n_paths; i++) {
		const char *const *nodes;
		size_t n = watched_nodes(&L->watches[i], &nodes);
		for (size_t k = 0; k < n; k++)
			if (!has_node(a, nodes[k])) {
				say_missing(a, nodes[k]);
				return false;
			}
	}
	return true;
}
