/*
 * path.h - what the path code shares inside libcaret-analyze.
 */
#ifndef CA_PATH_H
#define CA_PATH_H

#include "ca.h"
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

/* The topic node `from` publishes and node `to` subscribes to, when there
 * is one alone (infrastructure left out); else NULL and err says why. */
const char *ca_path_shared_topic(const ca_architecture *a, const char *from, const char *to,
	char *err, size_t err_size);

/* "no node NAME in the trace" (topic: "no topic ...") into err, with the
 * nearest names of the trace and, when there are few, all of them
 * (caret_name_hint): what a path asked for and did not find. */
void ca_path_no_such_name(const ca_architecture *a, bool topic, const char *name, char *err,
	size_t err_size);

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

/* tf dependencies (tf_links.c): node `from` broadcast a transform that a
 * lookup in node `to` read; topic "tf:FRAME->CHILD", owned by the set. */
#define CA_TF_TOPIC_PREFIX "tf:"
struct ca_tf_links {
	struct ca_topic_link *links;
	size_t n;
	char **names;
	size_t n_names;
};

bool ca_topic_is_tf(const char *topic);
/* The trace's tf links (none without tf events), from records (built here
 * when NULL). 0, or -1 out of memory. */
int ca_tf_links_of(const ca_trace *t, const ca_records *records, struct ca_tf_links *links);
void ca_tf_links_free(struct ca_tf_links *links);
/* A node's end of a tf link, as an architecture file lists it: callback
 * `callback` of node `node` broadcast the edge FRAME->CHILD, or (lookup)
 * made a lookup that read it. Each (node, side, edge, callback) once. */
struct ca_tf_end {
	size_t node, callback;
	bool lookup;
	uint64_t frame, child; /* ca_trace_string ids */
};
/* The trace's tf ends (none without tf events), from records (built here
 * when NULL), in *ends (free it) and *n. 0, or -1 out of memory. */
int ca_tf_ends_of(const ca_trace *t, const ca_records *records, struct ca_tf_end **ends,
	size_t *n);
/* Service links (service_hops.c): "request:SERVICE" from the node whose
 * run sent a request to the node whose service callback took it,
 * "response:SERVICE" from that node back to the client's run that took
 * the response. */
#define CA_REQUEST_PREFIX "request:"
#define CA_RESPONSE_PREFIX "response:"
bool ca_topic_is_request(const char *topic);
bool ca_topic_is_response(const char *topic);
/* The link between two nodes through the one service one calls and the
 * other serves (malloc'd), or NULL: none (err untouched), or several. */
char *ca_service_link(const ca_architecture *a, const char *from, const char *to, char *err,
	size_t err_size);

/* Where a message is while a path is followed: a run of the records, or
 * a client's response run (client). */
struct ca_hop_at {
	size_t run;
	bool client;
};
struct ca_records;
struct ca_service_hops;
/* The trace's calls and client runs, indexed for following (NULL out of
 * memory). */
struct ca_service_hops *ca_service_hops_build(const struct ca_records *r);
void ca_service_hops_free(struct ca_service_hops *h);
uint64_t ca_hop_at_start(const struct ca_service_hops *h, struct ca_hop_at at);
uint64_t ca_hop_at_end(const struct ca_service_hops *h, struct ca_hop_at at);
/* Through the service link `link` from `from` (sent at or after since)
 * to node `node`: the first call sent in from's run (*sent: its request's
 * send, or its response's), and where it arrived in *to (the service
 * callback's run, or the client's run). false when none arrived there
 * (*sent 0: none was sent). */
bool ca_service_hop(const struct ca_service_hops *h, struct ca_hop_at from, uint64_t since,
	const char *link, const char *node, uint64_t *sent, struct ca_hop_at *to);
/* How many client's response runs there are (ca_hop_at.client's runs). */
size_t ca_service_hops_client_runs(const struct ca_service_hops *h);
/* The publishes made during client run `client_run` (indexes into the
 * records' publishes), in time order. */
size_t ca_service_hops_publishes(const struct ca_service_hops *h, size_t client_run,
	const size_t **publishes);

/* The set takes the links' names (they name its paths' tf hops). */
int ca_path_set_adopt(ca_path_set *set, struct ca_tf_links *links);

/* ca_path_longest over an architecture and tf links (NULL: none), which
 * the set takes over (*tf_links left empty). */
ca_path_set *ca_path_longest_of(const ca_architecture *a, struct ca_tf_links *tf_links,
	bool all);

/* The path stage's answers to records that follow a path (plan.c). */
struct ca_follow_planner;
extern const struct ca_follow_planner ca_path_planner;

#endif
