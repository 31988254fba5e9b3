/*
 * system.h - testbed system descriptions (YAML, docs/testbed.md): which
 * processes run which nodes, executors and callback groups, and what every
 * timer and subscription does (work, what it publishes or calls).
 */
#ifndef TB_SYSTEM_H
#define TB_SYSTEM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tbrt/runtime.h"

struct tb_sys_strings {
	char **items; /* NULL-terminated */
	size_t count;
};

struct tb_sys_work {
	int64_t mean_ns, jitter_ns; /* busy-wait, uniform in mean ± jitter */
};

struct tb_sys_group {
	int line;
	char *name;
	enum tb_group_type type;
};

struct tb_sys_publisher {
	int line;
	char *topic;
	size_t payload, depth;
};

struct tb_sys_timer {
	int line;
	int64_t period_ns;
	struct tb_sys_strings publish, call;
	char *use_latest; /* publish with the stamp of this topic's latest msg */
	char *group;
	struct tb_sys_work work;
};

struct tb_sys_subscription {
	int line;
	char *topic;
	struct tb_sys_strings publish;
	char *group;
	size_t depth;
	struct tb_sys_work work;
};

struct tb_sys_service {
	int line;
	char *name;
	char *group;
	struct tb_sys_work work;
};

struct tb_sys_node {
	int line;
	char *name, *ns, *fqn;
	bool same_stamp; /* inputs: same_stamp (else latest) */
	struct tb_sys_group *groups;
	size_t n_groups;
	struct tb_sys_publisher *publishers;
	size_t n_publishers;
	struct tb_sys_timer *timers;
	size_t n_timers;
	struct tb_sys_subscription *subscriptions;
	size_t n_subscriptions;
	struct tb_sys_service *services;
	size_t n_services;
};

struct tb_sys_executor {
	int line;
	enum tb_executor_type type;
	unsigned threads;
	struct tb_sys_strings nodes; /* names or fully qualified names */
};

struct tb_sys_process {
	int line;
	char *name;
	bool intra_process;
	struct tb_sys_strings command; /* empty: the testbed app */
	struct tb_sys_node *nodes;
	size_t n_nodes;
	struct tb_sys_executor *executors;
	size_t n_executors;
};

struct tb_system {
	char *name;
	size_t default_payload, default_depth;
	struct tb_sys_process *processes;
	size_t n_processes;
};

/* Loads and checks a description. On error returns NULL with
 * "FILE:LINE: reason" in err. */
struct tb_system *tb_system_load(const char *path, char *err, size_t err_size);
void tb_system_free(struct tb_system *sys);

const struct tb_sys_process *tb_system_process(const struct tb_system *sys,
	const char *name);
/* The node an executor entry names, or NULL. */
const struct tb_sys_node *tb_sys_process_node(const struct tb_sys_process *p,
	const char *name_or_fqn);
/* True when the node publishes or calls nothing: its callbacks end chains. */
bool tb_sys_node_is_sink(const struct tb_sys_node *node);

#endif
