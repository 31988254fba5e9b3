/*
 * live.h - `caret live`: a recording whose session rotates every second,
 * each chunk read as soon as LTTng archives it; per callback and per path
 * watched, the latency over the last window, and each end-to-end instance
 * over its path's deadline reported with its hops (docs/live.md).
 */
#ifndef CL_LIVE_H
#define CL_LIVE_H

#include <stdbool.h>
#include <stdint.h>

#include "ca.h"
#include "record.h"

#define LIVE_MAX_PATHS 16
#define LIVE_MAX_NODES 64
#define LIVE_MAX_HOSTS 32 /* --watch's hosts (--hosts at most) */

/* A path watched: a named path of an architecture file, or --nodes. */
struct live_path_spec {
	char label[256];            /* what the table calls it */
	const char *path_name;      /* named: in live_options.arch */
	const char *nodes[LIVE_MAX_NODES];
	size_t n_nodes;             /* --nodes */
	int64_t deadline_ns;        /* 0: none */
};

struct live_options {
	struct cr_record_options record; /* the session, its buffers, --duration */
	const char *arch;                /* --arch FILE */
	struct live_path_spec paths[LIVE_MAX_PATHS];
	size_t n_paths;
	ca_node_policy policy;
	ca_path_span span;
	bool json;
	double window_s;     /* the statistics cover the instances ended in the last window_s */
	double lookback_s;   /* an instance longer than this is not followed */
	double period_s;     /* a look every period_s: the session rotates that often */
	const char *snapshot_dir; /* --snapshot-on-miss */
	unsigned max_snapshots;
	bool keep_trace;     /* -o given: every chunk stays */
	const char *watch_dir; /* --watch: lttng-relayd's output, the hosts recording into it */
	unsigned hosts;        /* --hosts: with --watch, no look before that many have sent */
	const char *metrics_host, *metrics_port; /* --metrics HOST:PORT, or NULL */
};

/* Runs it: the exit status (0; 1 after a message saying what was lost or
 * failed; 3 when a deadline was missed). */
int live_run(struct live_options *o);

#endif
