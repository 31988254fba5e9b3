/*
 * path.h - what the path code shares inside libcaret-analyze.
 */
#ifndef CA_PATH_H
#define CA_PATH_H

#include "caret/analyze.h"
#include "vec.h"

struct ca_path_set {
	ca_path *paths;
	size_t n_paths, cap_paths;
	bool depth_cut, count_cut;
	char **owned; /* strings the set owns (paths read from a file) */
	size_t n_owned;
};

/* A set of one path over node_count names, the topics between them and
 * the nodes' policies (NULL: the default); the set takes the arrays and,
 * with owns_strings, their strings. NULL (arrays freed) when out of memory. */
ca_path_set *ca_path_set_of(const char **nodes, const char **topics, ca_node_policy *policies,
	size_t node_count, bool owns_strings);

/* /parameter_events, /rosout, /caret/...: topics every node has, left out
 * of paths and graphs. */
bool ca_topic_is_infrastructure(const char *topic);

/* A topic link of the architecture: node `from` publishes `topic`, node
 * `to` (another one) subscribes to it; indexes into the nodes. */
struct ca_topic_link {
	size_t from, to;
	const char *topic;
};

/* Every topic link, infrastructure topics left out. Returns the array
 * (free it) with *n links, or NULL when out of memory. */
struct ca_topic_link *ca_topic_links(const ca_architecture *a, size_t *n);

#endif
