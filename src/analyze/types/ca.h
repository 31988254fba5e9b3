/*
 * ca.h - the whole of libcaret-analyze, as its stages, the CLI, the report
 * and the tests use it: every table, record and path, with the structs the
 * stages fill. Not installed: other programs build on the small public
 * API of include/caret/analyze.h (docs/api.md), which this one underlies.
 *
 * Ownership: a ca_trace is owned by the caller and freed with
 * ca_trace_free (NULL is fine). Strings returned by the library belong to
 * the trace and live as long as it does.
 */
#ifndef CA_H
#define CA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "caret/error.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct ca_trace ca_trace;

/* Loads every CTF trace found under the paths (a session directory, a
 * host's directory, or a parent of one: the leaf traces are found; several
 * recordings only with ca_load_options.merge) into one table per event of the schema (docs/trace-format.md), merged
 * events included. Returns NULL on failure with a one-line reason in err,
 * e.g. "cannot read trace: path=...: ...". */
ca_trace *ca_trace_load(const char *const *paths, size_t n_paths, char *err,
	size_t err_size);

/* Which CTF reader: caret-c's own (the default; a trace whose metadata it
 * does not support is read through babeltrace2, see ca_trace_reader_note),
 * or libbabeltrace2's. The same tables either way. */
typedef enum ca_reader { CA_READER_NATIVE, CA_READER_BABELTRACE2 } ca_reader;
ca_trace *ca_trace_load_with(const char *const *paths, size_t n_paths, ca_reader reader,
	char *err, size_t err_size);
/* Why the native reader handed a trace to babeltrace2, or NULL. */
const char *ca_trace_reader_note(const ca_trace *trace);
/* The earliest and the latest event read, of every path, before any time
 * window (each path in its own clock). */
void ca_trace_read_span(const ca_trace *trace, uint64_t *first, uint64_t *last);

/* How to load: the reader, and a time window as the original analyzer's
 * duration_filter and strip_filter define it. Times are seconds from the
 * trace's first event (of any type; with several paths, the latest first
 * event of them); the end is its last event (the earliest last one). A
 * runtime event at t is kept when since <= t < until, t >= strip_start and
 * end - t >= strip_end; a bound that is NAN is not set. Initialization
 * events (docs/trace-format.md) are always kept: the architecture is the
 * whole trace's. */
typedef struct ca_load_options {
	ca_reader reader;
	double since, until, strip_start, strip_end;
	/* false: runtime events are counted, not kept, and the model's
	 * runtime counts come from a second pass of the native reader. The
	 * memory no longer grows with the runtime events: enough for the
	 * architecture, the counts and the findings (caret check);
	 * ca_records_build then takes a third pass. Ignored (kept) with a
	 * window or babeltrace2, or when a trace's metadata needs babeltrace2. */
	bool keep_runtime;
	/* Not NULL (and the runtime events not kept): the records
	 * ca_records_build_options will be asked for with these options are
	 * scanned in the second pass, beside the model's runtime counts,
	 * instead of a third; n_records of them (0 means 1; at most 8), each
	 * seeing every event of that one pass. */
	const struct ca_records_options *records;
	size_t n_records;
	/* With the runtime events not kept: the tf events (sent, set and
	 * looked-up transforms) and the service events (the rmw's requests
	 * and responses, the clients' runs) kept all the same, for
	 * ca_tf_build, ca_service_calls_build and the links of paths through
	 * tf and services (a small part of most traces). */
	bool keep_links;
	/* With the runtime events not kept and `records` given: the second
	 * pass scans those records alone. The model's runtime counts (per node
	 * and topic, the processes' merged, plain and unknown-handle counts)
	 * are not made, nor the findings (ca_trace_findings: none), for a
	 * caller that shows none of them (caret latency, caret path latency). */
	bool records_only;
	/* Read several recordings (LTTng sessions: docs/trace-format.md#
	 * recordings) under the paths as one system; false (the default):
	 * the load fails naming them, so that runs are never added up by
	 * accident. */
	bool merge;
	/* Traces of several hosts (their metadata's hostname, e.g. the
	 * folders lttng-relayd writes) are read on the first host's clock, each
	 * host's times moved by the clock offsets the traces say; then, for
	 * each hostname here, its correction (ns it was ahead of the first
	 * host beyond that: ca_host_clock_estimate) taken off. Copied. */
	const char *const *clock_hosts;
	const int64_t *clock_corrections;
	size_t n_clock_corrections;
	/* the traces were read before (framing checked then): not checked
	 * again (caret live's chunks, read in several looks) */
	bool framing_checked;
	/* runtime events from this time of the trace's clock on (0: all),
	 * packets wholly before it unread: what caret live's look needs of
	 * the chunks it read before */
	uint64_t runtime_from_ns;
	/* runtime events up to this time (0: all): caret live's cut of its
	 * chunks. LTTng cuts each stream (a channel's on a CPU) on its own
	 * when it rotates, at or after the moment the rotation was asked: the
	 * events written after that moment are in the chunk or in the next
	 * one, stream by stream, while every one before it is there. */
	uint64_t runtime_until_ns;
} ca_load_options;
/* The options with nothing set: the native reader, no window. */
ca_load_options ca_load_defaults(void);
/* The one load: the traces under paths read with options o, the model
 * built, the records o asks for scanned. CARET_OK with *trace, or the
 * status with *error (caret/error.h: its causes down to the stream file,
 * byte and event; free it) and *trace NULL. */
caret_status ca_trace_open(const char *const *paths, size_t n_paths, const ca_load_options *o,
	ca_trace **trace, caret_error **error);
/* The same, the error in words (err). */
ca_trace *ca_trace_load_options(const char *const *paths, size_t n_paths,
	const ca_load_options *options, char *err, size_t err_size);
/* The recordings read (their folders), i < ca_trace_recording_count;
 * NULL past the last (and for a trace built in memory). */
size_t ca_trace_recording_count(const ca_trace *trace);
const char *ca_trace_recording(const ca_trace *trace, size_t i);
/* Runtime events the window left out (0 without a window). */
uint64_t ca_trace_windowed_out(const ca_trace *trace);
/* Packets of runtime events the native reader left unread, wholly outside
 * the window (their events are not in ca_trace_event_count), and their
 * bytes in *bytes (if not NULL). Traces recorded by `caret record` keep
 * initialization events in a channel of their own; a packet of a channel
 * that holds initialization events is always read. */
uint64_t ca_trace_skipped_packets(const ca_trace *trace, uint64_t *bytes);
void ca_trace_free(ca_trace *trace);

uint64_t ca_trace_event_count(const ca_trace *trace);   /* every event read */
uint64_t ca_trace_unknown_count(const ca_trace *trace); /* not in the schema */
uint64_t ca_trace_discarded(const ca_trace *trace);     /* reported by LTTng */

/* Rows of one event, by its trace name ("ros2:callback_start"); 0 for a
 * name the schema does not have. */
size_t ca_trace_rows(const ca_trace *trace, const char *event_name);

/* Row `row` of an event: its timestamp (ns), vpid, vtid, and the value of
 * field `field` (integers as uint64, signed ones two's complement; strings
 * as ca_trace_string ids; a field the trace lacks reads 0). Out-of-range
 * arguments read 0. */
uint64_t ca_trace_time(const ca_trace *trace, const char *event_name, size_t row);
int64_t ca_trace_vpid(const ca_trace *trace, const char *event_name, size_t row);
uint64_t ca_trace_field(const ca_trace *trace, const char *event_name, size_t row,
	const char *field);
/* The string of a string field's value, or NULL. */
const char *ca_trace_string(const ca_trace *trace, uint64_t id);

/* Discarded-event notifications, per stream that had any, by name: the
 * stream's name (its file, as babeltrace2 names it) and the count. Returns the
 * number of such streams; index >= that reads NULL / 0. */
size_t ca_trace_discarded_streams(const ca_trace *trace);
const char *ca_trace_discarded_stream(const ca_trace *trace, size_t index,
	uint64_t *count);

/* ---- architecture: the system rebuilt from initialization events -------
 *
 * Everything is per process: an object is identified by (pid, address).
 *
 * Names are the original CARET analyzer's (docs/dev/original-architecture.md):
 * per node, "callback_N" over its timers (by creation), then its
 * subscriptions (by creation), zero-padded to the digits of their count;
 * "callback_group_N" in address order; "executor_N" over all executors
 * with a callback group, in address order. What the original leaves out
 * keeps names of its own that shift nothing ("service_callback_N",
 * "ignored_callback_N" for /parameter_events, /rosout and /clock,
 * "service_only_callback_group_N", "empty_callback_group_N",
 * "unused_executor_N"), and is marked hidden: the tracer's caret_trace_
 * nodes and their executors, services, those topics' publishers and
 * subscriptions, /rviz2's subscriptions.
 * Links between objects are indexes into the arrays of ca_architecture;
 * CA_NONE when the trace does not say. The arrays are sorted by pid, then
 * by the time the object was created (a replayed initialization event is
 * placed at its init_timestamp, see docs/trace-format.md). All strings and
 * arrays belong to the trace.
 */
#define CA_NONE SIZE_MAX

typedef enum ca_callback_kind {
	CA_CALLBACK_TIMER,
	CA_CALLBACK_SUBSCRIPTION,
	CA_CALLBACK_SERVICE,
} ca_callback_kind;

typedef struct ca_process {
	int64_t pid;
	const char *procname;
	const char *host;       /* the hostname its trace names; NULL: not said */
	int64_t host_shift_ns;  /* what its host's times were moved by (several hosts) */
	uint64_t events;        /* every event of this pid */
	uint64_t caret_inits;   /* ros2_caret:caret_init events */
	int64_t clock_offset;   /* of the first caret_init */
	/* what the first caret_init moves the replayed initialization events
	 * by (its time less its clock_offset), saturated to int64; the events
	 * it could not move (the time it gives not a clock value: kept at
	 * their recorded time) */
	int64_t clock_shift;
	uint64_t unplaced_inits;
	const char *distribution, *rmw_implementation; /* NULL: not recorded */
	int tracetools_tracing; /* its libtracetools emits ros2 events: 1, 0, -1 unknown */
	const char *tracer_warning; /* what the tracer could not do as asked, or NULL */
	uint64_t init_events;   /* initialization events, duplicates included */
	uint64_t duplicates;    /* identical initialization events dropped */
	uint64_t reused;        /* addresses reused by a later object */
	uint64_t merged_events; /* merged_callback_timing + merged_publish_timing */
	uint64_t plain_events;  /* callback_start/end and the publish stages */
	uint64_t unknown_handles; /* runtime events naming no known object */
} ca_process;

typedef struct ca_node {
	int64_t pid;
	uint64_t handle, time;
	const char *name, *ns, *fqn; /* "camera", "/sensing", "/sensing/camera" */
	bool hidden;            /* left out of the original's architecture (below) */
} ca_node;

typedef struct ca_publisher {
	int64_t pid;
	uint64_t handle, rmw_handle, time;
	size_t node;
	const char *topic;
	uint64_t depth;
	bool hidden;
} ca_publisher;

typedef struct ca_subscription {
	int64_t pid;
	uint64_t handle, rmw_handle, time;
	size_t node, callback, group;
	const char *topic;
	uint64_t depth;
	bool hidden;
} ca_subscription;

typedef struct ca_timer {
	int64_t pid;
	uint64_t handle, time;
	int64_t period_ns;
	size_t node, callback, group;
} ca_timer;

typedef struct ca_service {
	int64_t pid;
	uint64_t handle, rmw_handle, time;
	size_t node, callback, group;
	const char *name;
} ca_service;

typedef struct ca_client {
	int64_t pid;
	uint64_t handle, rmw_handle, time;
	size_t node, group;
	const char *name;
} ca_client;

typedef struct ca_callback {
	int64_t pid;
	uint64_t address;       /* what callback_start names */
	uint64_t intra_address; /* a subscription's intra-process callback, or 0 */
	uint64_t time;
	ca_callback_kind kind;
	size_t owner;           /* index into timers, subscriptions or services */
	size_t node;
	const char *symbol;     /* NULL: no rclcpp_callback_register */
	const char *name;       /* "/ns/node/callback_N", the original's (below) */
	uint32_t construction_order; /* among the node's callbacks of the same
				      * kind, topic or period, and symbol */
	bool hidden;
} ca_callback;

typedef struct ca_callback_group {
	int64_t pid;
	uint64_t address, time;
	const char *type;       /* "mutually_exclusive", "reentrant", NULL */
	size_t executor, node;  /* node: of its first member */
	const char *name;       /* "/ns/node/callback_group_N" */
	bool hidden;
} ca_callback_group;

typedef struct ca_executor {
	int64_t pid;
	uint64_t address, entities_collector, time;
	const char *type;       /* "single_threaded_executor", ... */
	const char *name;       /* "executor_N" */
	bool hidden;
} ca_executor;

typedef struct ca_architecture {
	const ca_process *processes;        size_t n_processes;
	const ca_node *nodes;               size_t n_nodes;
	const ca_publisher *publishers;     size_t n_publishers;
	const ca_subscription *subscriptions; size_t n_subscriptions;
	const ca_timer *timers;             size_t n_timers;
	const ca_service *services;         size_t n_services;
	const ca_client *clients;           size_t n_clients;
	const ca_callback *callbacks;       size_t n_callbacks;
	const ca_callback_group *groups;    size_t n_groups;
	const ca_executor *executors;       size_t n_executors;
} ca_architecture;

/* The architecture of a loaded trace (built by ca_trace_load). */
const ca_architecture *ca_trace_architecture(const ca_trace *trace);

/* What the user made, told from what ROS 2 gives every node (model/
 * ros2_own.c): a service name ROS 2 creates for a node on its own (the
 * parameter services, Jazzy's get_type_description, a lifecycle node's
 * and a component container's); the user's services and clients (of a
 * node not the tracer's, not named so: an action's services are the
 * user's); the user's callbacks (not hidden, or the callback of a user's
 * service, which the original's architecture leaves out with all). */
bool ca_service_name_is_ros2_own(const char *name);
bool ca_service_is_users(const ca_architecture *a, size_t service);
bool ca_client_is_users(const ca_architecture *a, size_t client);
bool ca_callback_is_users(const ca_architecture *a, size_t callback);
/* A process named by its program and the user's nodes in it, into buf:
 * "nc_chain (pid 1234): /sensor, /filter" (the first four, then "and N
 * more"; "no node" for none). Returns the length written. */
size_t ca_process_label(const ca_architecture *a, size_t process, char *buf, size_t size);
/* Its nodes alone: "/sensor, /filter". */
size_t ca_process_nodes(const ca_architecture *a, size_t process, char *buf, size_t size);
/* A callback's symbol shortened (model/symbol_short.c): parameters and
 * template arguments cut to "…", "(anonymous namespace)::" dropped, a
 * std::bind shown as "std::bind(&Class::…)": "Filter::Filter(…)::{lambda(…)
 * #1}". Into buf; "" for NULL. */
const char *ca_symbol_short(const char *symbol, char *buf, size_t size);

/* The first and last event time of a process in the trace (its recorded
 * window); false for a pid the trace does not have. */
bool ca_trace_process_window(const ca_trace *trace, int64_t pid, uint64_t *first,
	uint64_t *last);

/* The process of a pid, or NULL. */
const ca_process *ca_architecture_process(const ca_architecture *arch, int64_t pid);

/* ---- check: can the trace give correct latencies? ---------------------- */

typedef enum ca_severity {
	CA_INFO,    /* worth knowing */
	CA_WARNING, /* some numbers may be missing */
	CA_ERROR,   /* latencies from this trace would be wrong or incomplete */
} ca_severity;

typedef struct ca_finding {
	ca_severity severity;
	int64_t pid;      /* -1: the whole trace */
	const char *text; /* one line, no trailing newline */
} ca_finding;

/* What ca_trace_load found wrong or worth saying about the trace, in order
 * of pid (whole-trace findings first). */
size_t ca_trace_findings(const ca_trace *trace, const ca_finding **findings);

/* ---- counts per node and per topic (summary nodes / topics) ------------ */

typedef struct ca_node_count {
	const char *node;      /* fully qualified; "(unattributed)" for the rest */
	uint64_t callback_runs, publishes, takes;
	uint64_t events;       /* every event attributed to the node */
} ca_node_count;

typedef struct ca_topic_count {
	const char *topic;
	uint64_t publishers, subscriptions;
	uint64_t publishes, takes;
	uint64_t events;       /* every event attributed to the topic */
} ca_topic_count;

/* Sorted by name; the arrays belong to the trace. */
size_t ca_trace_node_counts(const ca_trace *trace, const ca_node_count **counts);
size_t ca_trace_topic_counts(const ca_trace *trace, const ca_topic_count **counts);

/* ---- records: what happened at runtime, joined --------------------------
 *
 * Built on demand from a loaded trace (ca_records_build), both event forms
 * alike (merged events or the events they replace). Times are trace clock
 * ns; a stage the trace does not show is 0. Indexes into the arrays of
 * ca_architecture, or into the records' own arrays; CA_NONE for none.
 */
typedef struct ca_records ca_records;

typedef struct ca_callback_instance {
	size_t callback;     /* ca_architecture.callbacks; CA_NONE: unknown */
	uint64_t start, end; /* end 0: not ended inside the trace */
	int64_t pid, tid;
	bool intra;          /* started for an intra-process message */
} ca_callback_instance;

typedef struct ca_publish_instance {
	size_t publisher;    /* ca_architecture.publishers; CA_NONE: unknown */
	uint64_t rclcpp_time, rcl_time, dds_write_time;
	uint64_t source_stamp; /* DDS source timestamp, 0: none */
	uint64_t message;    /* address */
	int64_t pid, tid;
	bool intra;          /* rclcpp_intra_publish (delivered by pointer) */
	size_t callback_instance; /* the run it happened in, or CA_NONE */
} ca_publish_instance;

typedef struct ca_communication {
	size_t publish;           /* ca_records_publishes(); CA_NONE: not in the trace */
	size_t callback_instance; /* the subscriber's run that handled the message */
	size_t subscription;      /* ca_architecture.subscriptions */
	bool intra;
	uint64_t take_time;       /* rmw_take / dispatch time, 0: none */
	uint64_t source_stamp;    /* inter-process: the matching key */
	uint64_t header_stamp;    /* the message's header stamp (dispatch events), 0: unknown */
} ca_communication;

/* Counts of what could not be joined, per kind. */
typedef struct ca_record_losses {
	uint64_t not_ended;        /* callback_start without callback_end */
	uint64_t not_started;      /* callback_end without callback_start */
	uint64_t not_published;    /* received, no publish of it in the trace */
	uint64_t taken_not_run;    /* taken by a known subscription, no callback run after it */
	/* of not_published: intra-process messages handled with no take or
	 * publish event to link them (upstream Humble's rclcpp) */
	uint64_t intra_unlinked;
	/* not a loss: inter-process messages matched by time, the publish
	 * having no DDS source timestamp (plain ros2_tracing; join.c) */
	uint64_t matched_by_time;
} ca_record_losses;

/* What the numbers of these records rest on that their reader must know,
 * one sentence each (matched by time; intra-process messages that cannot
 * be linked): caveat i in buf; false when there is no caveat i. */
bool ca_records_caveat(const ca_records *r, size_t i, char *buf, size_t size);

/* Joins the runtime events of the trace. NULL with err on out of memory. */
ca_records *ca_records_build(const ca_trace *trace, char *err, size_t err_size);

/* How a node turns an input into an output (analysis.md, docs/latency.md). */
typedef enum ca_node_policy {
	CA_POLICY_DEFAULT = -1,      /* the one ca_path_latency_build is given */
	CA_POLICY_CALLBACK_CHAIN,    /* published by the run that took the input */
	CA_POLICY_USE_LATEST_MESSAGE, /* every publish while it is the latest input (the original's) */
	CA_POLICY_INHERIT_UNIQUE_STAMP, /* the output carries the input's header stamp */
	CA_POLICY_CONSUME_LATEST_MESSAGE, /* the next publish only, while it is the latest input */
} ca_node_policy;

/* The policies' names, as the architecture file and the CLI spell them. */
#define CA_POLICY_NAMES "use_latest_message, consume_latest_message, callback_chain, " \
	"inherit_unique_stamp"

/* The policy named `name` into *policy: 0, or -1 when no policy has that name. */
int ca_policy_of_name(const char *name, ca_node_policy *policy);
/* A policy's name ("default" for CA_POLICY_DEFAULT). */
const char *ca_policy_name(ca_node_policy policy);

typedef struct ca_records_options {
	/* The callback runs alone (ca_records_callback_runs, the losses'
	 * not_ended and not_started, ca_records_timer_delays), kept per
	 * callback in 24 bytes a run: no publish, message or join, and no
	 * ca_records_callbacks array. What callback and timer latencies need,
	 * in a fraction of the time and memory. */
	bool runs_only;
	/* The messages' latencies alone, per topic and delivery and per node
	 * path (ca_records_topic_latencies, ca_records_node_paths), with the
	 * losses and ca_records_not_received: joined as the events are
	 * scanned, no array of records kept (none of ca_records_callbacks,
	 * _publishes, _communications). Their memory is 8 bytes a latency and
	 * 16 an inter-process publish. What `caret latency topics` and
	 * `nodes` need. */
	bool latencies_only;
	/* Every record (neither of the above) of these nodes alone (fully
	 * qualified names; n_nodes 0: every node): their callbacks' runs,
	 * their publishers' publishes and their subscriptions' messages; what
	 * following a path through them needs (ca_path_latency_build), in a
	 * fraction of the memory of a large system's records. */
	const char *const *nodes;
	size_t n_nodes;
	/* A path (its nodes then are the nodes above; topics NULL: between two
	 * nodes the one they share) followed as the events are scanned, with
	 * this policy for the nodes the path names none for: no array of
	 * records kept (the losses are), and ca_path_latency_build of the same
	 * path and policy hands its messages over, once; in memory that grows
	 * with the publishes of the path's nodes (16 bytes each) and the
	 * messages followed, not with the events. A path the scan cannot
	 * follow (a hop through tf, a node inheriting stamps or named twice, a
	 * topic not in the trace) gets its nodes' full records instead. */
	const struct ca_path *follow;
	ca_node_policy follow_policy;
	/* Follow, as `follow` does, the path ca_path_longest would give
	 * (without tf links, and the tracer's own nodes left out), chosen
	 * when the scan meets the architecture, when follow is NULL. */
	bool follow_longest;
	/* With latencies_only: each latency's publish time kept too (8 more
	 * bytes a latency), for latencies against time; the callbacks' runs
	 * kept too, as runs_only keeps them (ca_records_callback_runs). */
	bool latency_times, with_runs;
} ca_records_options;
/* o NULL: every record, as ca_records_build. */
ca_records *ca_records_build_options(const ca_trace *trace, const ca_records_options *o,
	char *err, size_t err_size);
void ca_records_free(ca_records *records);

/* Callback runs sorted by callback, then start (then thread); none in
 * runs_only records. */
size_t ca_records_callbacks(const ca_records *r, const ca_callback_instance **out);
/* The runs of one callback (CA_NONE: those of unknown callbacks) in the
 * order of ca_records_callbacks(), copied into out (room for
 * ca_records_callback_run_count()); every kind of records. */
size_t ca_records_callback_run_count(const ca_records *r, size_t callback);
size_t ca_records_callback_runs(const ca_records *r, size_t callback, ca_callback_instance *out);
/* Where the runs of callback begin in ca_records_callbacks()'s array, and
 * in *count how many there are (none in runs_only records). */
size_t ca_records_callback_stretch(const ca_records *r, size_t callback, size_t *count);
/* Publishes in time order (rclcpp stage, or the first stage seen). */
size_t ca_records_publishes(const ca_records *r, const ca_publish_instance **out);
/* Messages handled by a callback, in the order of their callback run. */
size_t ca_records_communications(const ca_records *r, const ca_communication **out);
/* Where a message waited (records/receptions.c): its communication's
 * latency (callback start - publish) in three, the publish to its DDS
 * write, the write to its reception by the subscriber's middleware, the
 * reception to the callback start (the wait for the executor); the three
 * add up to the latency. False when the trace cannot tell: an
 * intra-process message (no middleware), its publish or DDS write not in
 * the trace, no reception recorded for it (a trace of another tracer), or
 * records that keep no message. */
typedef struct ca_message_hops {
	int64_t to_write, in_middleware, to_callback;
} ca_message_hops;
bool ca_records_message_hops(const ca_records *r, size_t communication, ca_message_hops *out);
/* How the receptions were known, a mask (0: none recorded): the
 * middleware's own reception time (Fast DDS), arrivals matched in order
 * (Cyclone DDS: a lower bound when messages of several writers are in
 * flight at once). */
enum { CA_RECEPTION_STAMPED = 1, CA_RECEPTION_ARRIVAL_ORDER = 2 };
unsigned ca_records_reception_kinds(const ca_records *r);
const ca_record_losses *ca_records_losses(const ca_records *r);
/* The innermost callback run open in thread (pid, tid) at time t (its
 * index in ca_records_callbacks()), or CA_NONE. */
size_t ca_records_run_at(const ca_records *r, int64_t pid, int64_t tid, uint64_t t);

/* When a publish happened: its rclcpp stage, else the first stage seen. */
uint64_t ca_publish_time(const ca_publish_instance *publish);

/* The messages on `topic` with the given delivery that a callback handled
 * and whose publish is in the trace: their indexes into
 * ca_records_communications() in `messages` (room for all of them), and
 * their number; *not_published (if not NULL) counts those handled with no
 * publish in the trace. Latency of each: callback start - ca_publish_time. */
size_t ca_records_topic_messages(const ca_records *r, const char *topic, bool intra,
	size_t *messages, uint64_t *not_published);

/* latencies_only records: the latencies (callback start -
 * ca_publish_time, ns) of the messages on `topic` with the given delivery
 * whose publish is in the trace, in no particular order, copied into
 * values (room for ca_records_topic_latency_count()); *not_published (if
 * not NULL) as ca_records_topic_messages'. */
size_t ca_records_topic_latency_count(const ca_records *r, const char *topic, bool intra);
size_t ca_records_topic_latencies(const ca_records *r, const char *topic, bool intra,
	int64_t *values, uint64_t *not_published);

/* A node path of latencies_only records: a callback and a topic its runs
 * published on; per run, the first publish on the topic - the run's start
 * (ns), in no particular order; with latency_times, each run's start in
 * starts (NULL otherwise), index for index. */
typedef struct ca_node_path {
	size_t callback;     /* ca_architecture.callbacks */
	const char *topic;
	const int64_t *values;
	size_t count;
	const uint64_t *starts;
} ca_node_path;
/* The node paths of latencies_only records, in the order first seen. */
size_t ca_records_node_paths(const ca_records *r, const ca_node_path **out);

/* Published messages that a subscription of the topic did not handle:
 * for each subscription, the publishes on its topic (inter-process ones
 * from other processes, intra-process ones from its own) made while its
 * process was recording, minus the messages it handled. */
uint64_t ca_records_not_received(const ca_records *r, size_t subscription);
/* Those of one delivery (inter- or intra-process publishes), summed over
 * the topic's subscriptions. */
uint64_t ca_records_topic_not_received(const ca_records *r, const char *topic, bool intra);

/* ---- paths: chains of nodes linked by topics ----------------------------- */

/* A path through the node graph: node_count nodes (fully qualified names)
 * and the topic between each pair, topics[i] from nodes[i] to nodes[i + 1]. */
typedef struct ca_path {
	size_t node_count;
	const char *const *nodes;
	const char *const *topics;
	/* per node, how it turns input into output (an architecture file's
	 * message_contexts); NULL, or CA_POLICY_DEFAULT entries: the default */
	const ca_node_policy *policies;
} ca_path;

typedef struct ca_path_set ca_path_set;

/* Every simple path from node `from` to node `to` (fully qualified names)
 * in the graph of the architecture (an edge where a node publishes a topic
 * that another subscribes; /parameter_events, /rosout and /caret/... left
 * out, as every node has them), at most max_depth topics long, at most
 * max_paths of them; depth-first, so memory stays O(nodes + edges + the
 * paths kept). NULL with err for an unknown node. */
ca_path_set *ca_path_search(const ca_trace *trace, const char *from, const char *to,
	size_t max_depth, size_t max_paths, char *err, size_t err_size);
size_t ca_path_set_paths(const ca_path_set *set, const ca_path **paths);
/* Whether a bound cut the search: a path went on past max_depth, or more
 * than max_paths paths exist. */
bool ca_path_set_depth_cut(const ca_path_set *set);
bool ca_path_set_count_cut(const ca_path_set *set);
void ca_path_set_free(ca_path_set *set);

/* The path through the given nodes, each topic the one the two nodes share;
 * NULL with err when a pair shares none or several (name the topics). */
ca_path_set *ca_path_of_nodes(const ca_trace *trace, const char *const *nodes, size_t n,
	char *err, size_t err_size);

/* The longest chain of nodes linked by topics (or tf) in the trace, from a
 * node no topic reaches: the path shown when none is named. The tracer's
 * own nodes are left out unless `all`. NULL when there is no chain (or out
 * of memory). */
ca_path_set *ca_path_longest(const ca_trace *trace, const ca_records *records, bool all);

typedef struct ca_path_latency ca_path_latency;

/* Follows every message of the path's first node along the path: first
 * callback run (start) -> publish -> subscriber run -> (node policy) ->
 * publish -> ... -> last run. Each message has 2 * topics + 1 hops: the
 * first callback up to its publish, then per topic the communication and
 * the next node (its last hop: the last callback, start to end). */
ca_path_latency *ca_path_latency_build(const ca_records *records, const ca_path *path,
	ca_node_policy policy, char *err, size_t err_size);

/* One message of the first node, followed along the path (0: not reached). */
typedef struct ca_path_message {
	uint64_t callback_start; /* the first node's run that published it */
	uint64_t publish;        /* its publish on the first topic */
	uint64_t last_start;     /* the last node's callback start */
	uint64_t last_end;       /* that callback's end (0 too when the trace ends first) */
} ca_path_message;

/* What a path's latency spans, as the original's include_first_callback and
 * include_last_callback (both false by default): from the first callback's
 * start or from its publish on the first topic, to the last callback's end
 * or to its start. */
typedef struct ca_path_span {
	bool first_callback, last_callback;
} ca_path_span;

/* A hop that a message did not get through. */
#define CA_HOP_NONE INT64_MIN

/* What a followed path saw on one of its topics. */
typedef struct ca_path_topic_seen {
	bool intra; /* a message delivered within its process */
	bool inter; /* a publish through the DDS (an rcl or DDS write stage, a source stamp) */
} ca_path_topic_seen;
/* The first run's start of the oldest message whose input a
 * use_latest_message node still held at the end of what l followed: later
 * facts may take it on again (0: none). */
uint64_t ca_path_latency_held_since(const ca_path_latency *l);
/* What l saw on its topic `topic` (nothing for NULL). */
ca_path_topic_seen ca_path_latency_topic(const ca_path_latency *l, size_t topic);
/* Every publish of the first node on the first topic, in the order of the
 * first callback's start; hops (if not NULL): messages x hop_count, with
 * CA_HOP_NONE past where a message was lost. */
size_t ca_path_latency_messages(const ca_path_latency *l, const ca_path_message **messages,
	const int64_t **hops);
size_t ca_path_latency_hop_count(const ca_path_latency *l);
/* A message's start and end under span; false when it has no end (lost on
 * the way, or cut by the end of the trace). */
bool ca_path_message_span(const ca_path_message *m, ca_path_span span, uint64_t *start,
	uint64_t *end);
/* Whether hop k is part of the span (the first and last callbacks are not
 * by default); the hops of a span add up to its latency. */
bool ca_path_hop_in_span(size_t hop, size_t hop_count, ca_path_span span);
/* What hop k of path p is: "callback N" (the first or last node's run),
 * "topic T" (publish to the next callback's start) or "node N" (its input
 * to its output). */
void ca_path_hop_name(const ca_path *p, size_t hop, char *buf, size_t size);
/* The latency of every message that has an end under span, in message
 * order: its start in starts (if not NULL), end - start in latencies (each
 * with room for ca_path_latency_messages() entries). Returns how many. */
size_t ca_path_latencies(const ca_path_latency *l, ca_path_span span, uint64_t *starts,
	int64_t *latencies);
/* Messages that have no end under span. */
uint64_t ca_path_latency_lost(const ca_path_latency *l, ca_path_span span);
void ca_path_latency_free(ca_path_latency *l);
/* A followed path's topic hop split as ca_records_message_hops splits its
 * message (records/hop_split.c), from joined records of the same trace:
 * the hop (odd: topic k is hop 2k + 1) of message `message` of l. A
 * splitter indexes the records once (NULL: they hold no reception, or out
 * of memory); false for a hop it cannot split. */
typedef struct ca_hop_splitter ca_hop_splitter;
ca_hop_splitter *ca_hop_splitter_new(const ca_records *joined);
bool ca_path_hop_split(const ca_hop_splitter *s, const ca_path_latency *l, size_t message,
	size_t hop, ca_message_hops *out);
void ca_hop_splitter_free(ca_hop_splitter *s);

/* Response time, the original's four cases (docs/latency.md): how long
 * from an input (a message's start) to the output that answers it. */
typedef enum ca_response_case {
	CA_RESPONSE_ALL,   /* every input: its output's end - its start */
	CA_RESPONSE_BEST,  /* per output: from the latest input it answers */
	CA_RESPONSE_WORST, /* per output: from the earliest input it answers */
	CA_RESPONSE_WORST_WITH_EXTERNAL_LATENCY, /* per output: from the input
	                                           before the earliest one */
} ca_response_case;

/* The response times of the path's messages under span, in the order of
 * their input: inputs[i] (the timestamp the original reports) and
 * times[i], each with room for ca_path_latency_messages() entries. Returns
 * how many, or (size_t)-1 when out of memory. What every case starts from
 * is kept with l for the span last asked (the four cases work it out
 * once): not to be called from two threads at once on the same l. */
size_t ca_path_response_times(const ca_path_latency *l, ca_path_span span,
	ca_response_case which, uint64_t *inputs, int64_t *times);
/* The same over n messages given (in any order). */
size_t ca_response_times(const ca_path_message *messages, size_t n, ca_path_span span,
	ca_response_case which, uint64_t *inputs, int64_t *times);

/* ---- tf: data through transforms ------------------------------------------ */

/* Frames are ca_trace_string ids (0: a number the buffer never announced). */
typedef struct ca_tf_send {
	int64_t pid, tid;
	uint64_t broadcaster, frame, child, stamp, time; /* time: the event's */
	bool is_static;
	size_t run; /* the callback run it was sent in, or CA_NONE */
} ca_tf_send;

/* A transform a buffer took in, and the send it came from (or CA_NONE). */
typedef struct ca_tf_set {
	int64_t pid;
	uint64_t buffer, frame, child, stamp, time;
	bool is_static;
	size_t send;
} ca_tf_set;

/* A lookup that returned: target and source frames, the time asked (0:
 * the latest) and the stamp of what it returned. */
typedef struct ca_tf_lookup {
	int64_t pid, tid;
	uint64_t buffer, target, source, lookup_time, stamp, time;
	size_t run; /* the callback run it was made in, or CA_NONE */
} ca_tf_lookup;

/* A transform a lookup read, on a non-static edge between its frames: the
 * one the lookup's tf_buffer_find_closest names (traced), else the latest
 * the buffer held at or before the stamp returned. A lookup between two
 * transforms is charged to the older (set); newer is the one tf2
 * interpolated with (CA_NONE: none, or not traced). */
typedef struct ca_tf_use {
	size_t lookup, set, newer;
	bool traced;
} ca_tf_use;

typedef struct ca_tf ca_tf;

/* The trace's tf events, joined (docs/latency.md, "tf"), sends and lookups
 * placed in the callback runs of records (if not NULL). NULL with err when
 * out of memory; a trace without tf events gives an empty one. */
ca_tf *ca_tf_build(const ca_trace *trace, const ca_records *records, char *err,
	size_t err_size);
size_t ca_tf_sends(const ca_tf *tf, const ca_tf_send **sends);
/* by pid, buffer, child frame, stamp */
size_t ca_tf_sets(const ca_tf *tf, const ca_tf_set **sets);
size_t ca_tf_lookups(const ca_tf *tf, const ca_tf_lookup **lookups);
size_t ca_tf_uses(const ca_tf *tf, const ca_tf_use **uses);
void ca_tf_free(ca_tf *tf);

/* ---- services ------------------------------------------------------------- */

/* A service call: the client's request, its take by the service, the
 * service's response and the client's take of it (rmw events: Kilted's
 * ros2_tracing, or the tracer's on Humble and Jazzy). Times are trace
 * clock ns, 0 where the trace does not show the stage. */
typedef struct ca_service_call {
	size_t client, service; /* ca_architecture.clients / .services; CA_NONE: unknown */
	int64_t sequence_number;
	uint64_t send_request, take_request, send_response, take_response;
	int64_t client_pid, service_pid; /* service_pid -1: not taken in the trace */
	/* the threads of the send, of the service's take, and of the client's
	 * take of the response */
	int64_t client_tid, service_tid, response_tid;
	size_t client_run; /* ca_service_calls_client_runs' run that took the response */
} ca_service_call;
typedef struct ca_service_calls ca_service_calls;

/* A client's response callback run (caret-c's client_callback_start/end:
 * rclcpp's execute_client, the take and the callback); end 0: not ended
 * in the trace. */
typedef struct ca_client_run {
	int64_t pid, tid;
	uint64_t start, end;
} ca_client_run;

/* Every request the trace shows sent, in the order sent, followed as far
 * as the trace shows it (docs/latency.md, "services"). NULL with err when
 * out of memory; a trace without service events gives none. */
ca_service_calls *ca_service_calls_build(const ca_trace *trace, char *err, size_t err_size);
size_t ca_service_calls_get(const ca_service_calls *calls, const ca_service_call **out);
/* The client runs of the trace, by process, thread and start. */
size_t ca_service_calls_client_runs(const ca_service_calls *calls, const ca_client_run **runs);
/* Requests a service took whose send is not in the trace. */
uint64_t ca_service_calls_not_sent(const ca_service_calls *calls);
void ca_service_calls_free(ca_service_calls *calls);

/* ---- actions -------------------------------------------------------------- */

/* A goal of an action, as rclcpp_action carries it over the action's
 * services (ACTION/_action/send_goal, then ACTION/_action/get_result): the
 * client's send_goal call and the get_result call its client node made
 * next, once the goal was answered (indexes into the calls; get_result
 * CA_NONE when the trace shows none). Goals are told apart by order: the
 * goal's id is in the messages, which the trace does not hold. */
typedef struct ca_action_goal {
	const char *action; /* ACTION: its first action_length characters */
	int action_length;
	size_t send_goal, get_result;
} ca_action_goal;

/* The goals among calls (ca_service_calls_get's, in the order sent), in
 * *goals (free it), in the order sent; (size_t)-1 when out of memory. */
size_t ca_action_goals(const ca_architecture *a, const ca_service_call *calls, size_t n,
	ca_action_goal **goals);

/* The latencies of a call (records/call_measures.c): request (the client's
 * send to the service's take), service (take to its response's send),
 * response (that send to the client's take), round trip (the client's
 * send to its take of the response); of a goal: goal (send_goal's round
 * trip), result (get_result's), goal to result (send_goal's request to
 * the take of the result). Each into *value; false when the trace lacks
 * one of its two ends. The names are those of `caret latency`'s rows. */
typedef enum ca_call_measure {
	CA_CALL_REQUEST, CA_CALL_SERVICE, CA_CALL_RESPONSE, CA_CALL_ROUND_TRIP, CA_CALL_MEASURES
} ca_call_measure;
typedef enum ca_goal_measure {
	CA_GOAL_GOAL, CA_GOAL_RESULT, CA_GOAL_TO_RESULT, CA_GOAL_MEASURES
} ca_goal_measure;
bool ca_service_call_measure(const ca_service_call *call, ca_call_measure m, int64_t *value);
bool ca_action_goal_measure(const ca_service_call *calls, const ca_action_goal *goal,
	ca_goal_measure m, int64_t *value);
const char *ca_call_measure_name(ca_call_measure m);
const char *ca_goal_measure_name(ca_goal_measure m);

/* ---- timers --------------------------------------------------------------- */

/* How late a timer callback started: start - the last expected firing at or
 * before it (timer creation + k * period). Fills delays (one per ended or
 * not ended run of the timer's callback, in start order; the array must
 * hold ca_records_callback_run_count() of the timer's callback) and
 * returns how many. */
size_t ca_records_timer_delays(const ca_records *records, size_t timer, int64_t *delays);

/* ---- the HTML report ------------------------------------------------------ */

typedef struct ca_report_options {
	/* an architecture file whose named paths to show (path_names, at
	 * least one); NULL: the longest chain of nodes found in the trace */
	const char *arch_file;
	const char *const *path_names;
	size_t n_paths;
	/* the traces' paths as given, for the header (may be 0) */
	const char *const *trace_paths;
	size_t n_trace_paths;
	/* the tracer's own nodes and callbacks, the services and the topics
	 * every node has (/parameter_events, /rosout, /clock) shown too */
	bool all;
} ca_report_options;

/* One self-contained HTML page (its script, styles, chart library and
 * data inline; nothing fetched): a header (trace, recording date,
 * distribution, rmw, duration), the check's findings per process, the
 * system graph, each path's end-to-end latency and response times with its
 * worst instances first, per-hop breakdown and flows, the callbacks'
 * scheduling per executor and thread, and per callback and topic the
 * latency, frequency and period (docs/report.md).
 *
 * In three steps, so that the report reads the trace in the one pass of
 * its load: ca_report_new (the named paths read from the architecture
 * file: NULL with err when one is not there; the options, arrays
 * included, must outlive the report), ca_report_records (the records it
 * reads: to give the load as ca_load_options.records and n_records),
 * then ca_report_write of the trace loaded (records the load did not scan
 * are built in passes of their own; a trace with tf events or receptions
 * also gets every record, in a pass of its own: tf's placed in the
 * callbacks, each path's topic hops split where its messages waited). 0; 1
 * with err when the page was written but a named path could not be
 * followed (the page says why too); -1 with err. */
typedef struct ca_report ca_report;
ca_report *ca_report_new(const ca_report_options *options, char *err, size_t err_size);
size_t ca_report_records(const ca_report *report, const ca_records_options **records);
int ca_report_write(ca_report *report, const ca_trace *trace, FILE *out, char *err,
	size_t err_size);
void ca_report_free(ca_report *report);

/* ---- the Trace Event format (Perfetto, chrome://tracing) ---------------------- */

/* The trace as Trace Event JSON: callback runs as complete slices on a
 * track per thread under their process, publishes as slices within them,
 * each message a flow from its publish to the callback run it started,
 * and each instance of the given paths (may be 0) as an async slice from
 * its start to its end. Times in microseconds from the trace's first
 * event. `all`: the tracer's own callbacks too. 0, or -1 with err. */
int ca_export_chrome_trace(const ca_trace *trace, const ca_records *records,
	const ca_path *const *paths, const char *const *path_names, size_t n_paths, bool all,
	FILE *out, char *err, size_t err_size);

/* ---- statistics ---------------------------------------------------------- */

typedef struct ca_stats {
	uint64_t count;
	int64_t min, max;
	double p50, p90, p99; /* by the method asked for */
	double mean;          /* full precision */
} ca_stats;

/* How percentiles are taken from the n sorted values v[0..n-1]:
 * LINEAR (the default, numpy's and so the original CARET's): at rank
 * h = (n - 1) * p / 100, v[floor(h)] + (h - floor(h)) * (v[floor(h) + 1] -
 * v[floor(h)]); NEAREST_RANK: the smallest value with at least p % of the
 * values at or below it, v[ceil(n * p / 100) - 1]. */
typedef enum ca_percentile_method {
	CA_PERCENTILE_LINEAR,
	CA_PERCENTILE_NEAREST_RANK,
} ca_percentile_method;

/* Sorts values in place and fills stats (all 0 when n is 0). */
void ca_stats_of(int64_t *values, size_t n, ca_percentile_method method, ca_stats *stats);
/* ca_stats_of's statistics, the values reordered but not sorted (a few
 * selections: fewer instructions than the sort, for values read no more). */
void ca_stats_select(int64_t *values, size_t n, ca_percentile_method method, ca_stats *stats);

/* ---- several hosts: their clocks -------------------------------------------- */

/* A host of a trace read from several (their traces' hostnames), and how
 * far its clock is ahead of the first host's (ns, after the traces'
 * clock offsets), as the inter-process messages crossing between the two
 * bound it: at least low, at most high (INT64_MIN, INT64_MAX: no message
 * that way; low > high: the messages disagree, the clock drifted). */
typedef struct ca_host_clock {
	const char *host;
	size_t processes;
	int64_t low, high;
	uint64_t to_first, from_first; /* messages it sent to the first host, took from it */
} ca_host_clock;

/* The hosts (the first host first, its bounds 0), *out malloc'd (free);
 * their number: 0 or 1 when the trace is of one host, and then *out is
 * NULL. */
size_t ca_host_clocks(const ca_trace *trace, const ca_records *records, ca_host_clock **out);
/* The middle of the bounds and half their distance; false when a bound
 * is missing (messages one way only, or none) or they disagree. */
bool ca_host_clock_estimate(const ca_host_clock *h, int64_t *estimate, int64_t *uncertainty);

/* ---- the architecture file (the original's YAML keys) ------------------ */

/* Writes the architecture of the trace as YAML as the original writes it
 * (named_paths empty, executors, nodes with callback_groups, callbacks,
 * variable_passings, publishes, subscribes, message_contexts; what it
 * leaves out left out: the hidden objects), or with `all` every object of
 * the model and every key. 0, or -1 with err. */
int ca_arch_write_yaml(const ca_trace *trace, FILE *out, bool all, char *err, size_t err_size);

typedef struct ca_arch_file_summary {
	size_t named_paths, executors, nodes, callback_groups, callbacks;
	size_t publishes, subscribes;
	size_t tf_broadcasts, tf_lookups; /* edges: caret-c's keys */
} ca_arch_file_summary;

/* Loads an architecture file and checks its keys, value types and the
 * names that refer to each other. 0 with the counts in summary, or -1 with
 * a one-line reason in err ("FILE:LINE: unknown key 'x' in a callback..."). */
int ca_arch_file_check(const char *path, ca_arch_file_summary *summary, char *err,
	size_t err_size);

/* The named path `name` of an architecture file: the node_chain's node
 * names and, between each two, the first one's publish_topic_name (or the
 * next one's subscribe_topic_name); each node's policy from its
 * message_contexts entry for that input and output topic (context_type
 * callback_chain, use_latest_message or inherit_unique_stamp). NULL with
 * err when the file does not check, has no such path, a topic is missing,
 * or a context_type is unknown. */
ca_path_set *ca_arch_file_path(const char *path, const char *name, char *err,
	size_t err_size);
/* The names of an architecture file's named paths, in its order: 0 with
 * *names (free each, then the array) and *n, or -1 with err and nothing
 * to free. */
int ca_arch_file_path_names(const char *path, char ***names, size_t *n, char *err,
	size_t err_size);
/* The paths' deadlines of the file's deadlines: key (caret-c's own; its
 * requirements, requirements.h): what caret live watches, per entry on a
 * named path with a deadline its name and the deadline in ns, in the
 * file's order: 0 with
 * *names (free each, then the array), *deadlines_ns (free) and *n, or -1
 * with err and nothing to free. */
int ca_arch_file_deadlines(const char *path, char ***names, int64_t **deadlines_ns, size_t *n,
	char *err, size_t err_size);

#ifdef __cplusplus
}
#endif

#endif
