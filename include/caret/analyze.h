/*
 * caret/analyze.h - libcaret-analyze's public API: open the CTF traces of
 * a ROS 2 system, walk its callbacks, communications and paths, and read
 * their records (each callback run, each message, each message followed
 * along a path) as arrays. What a binding (Python), a report or another
 * tool builds on; docs/api.md tells the rules and shows a program.
 *
 * Rules: every handle is opaque and owned by the caller, freed with its
 * _free function (NULL is fine everywhere). Strings and arrays the library
 * returns belong to the trace and live as long as it does, unless the
 * function says otherwise. A function that can fail returns a
 * caret_status and, on failure, a caret_error the caller frees
 * (caret/error.h); *error is NULL on success. Times are nanoseconds of the
 * trace's clock (LTTng's monotonic clock), durations nanoseconds.
 *
 * Arguments: every pointer a function takes must be given (not NULL)
 * unless its comment says NULL is fine; a NULL one is CARET_ERR_INVALID
 * with an error naming the function and the argument ("caret_callback_runs:
 * trace is NULL"), never a crash. `error` itself must be given: without it
 * the function only returns CARET_ERR_INVALID (or NULL). An id past the
 * trace's objects is CARET_ERR_NOT_FOUND; an enum value that is none of
 * its constants, a time outside its range, CARET_ERR_INVALID. A file
 * argument must be a regular file: a FIFO, a directory or a device is
 * CARET_ERR_IO, said before anything opens it (a FIFO's open would wait).
 * An array argument holds the count its comment says: that is the
 * caller's part.
 */
#ifndef CARET_ANALYZE_H
#define CARET_ANALYZE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "caret/error.h"
#include "caret/export.h"

#ifdef __cplusplus
extern "C" {
#endif

/* This header's version: raised with every change a program built against
 * an older one would notice. caret_analyze_api_version() is the library's:
 * a program checks that they are equal. */
#define CARET_ANALYZE_API_VERSION 3
CARET_API int caret_analyze_api_version(void);

/* ---- a trace ------------------------------------------------------------------ */

typedef struct caret_trace caret_trace;

typedef enum caret_reader {
	CARET_READER_NATIVE,      /* caret-c's own CTF reader (the default) */
	CARET_READER_BABELTRACE2, /* through libbabeltrace2 */
} caret_reader;

typedef struct caret_open_options {
	caret_reader reader;
	/* runtime events from `since` seconds after the trace's first event
	 * and before `until` (NAN: no bound; the original's duration_filter);
	 * the first and last seconds left out (NAN: none; strip_filter).
	 * Initialization events all count. */
	double since, until, strip_start, strip_end;
	/* keep the runtime events in tables as well as their records (one
	 * pass of the reader instead of two, ten times the memory) */
	bool keep_events;
	/* read several recordings (LTTng session folders) under the paths as
	 * one system; false: caret_open fails naming them (CARET_ERR_INVALID,
	 * docs/trace-format.md#recordings) */
	bool merge;
	/* join the records when first asked for, in a pass of their own over
	 * the trace's files, instead of while opening (v3): the open keeps
	 * the architecture alone (what `caret check` keeps); the first
	 * callback's runs take a pass that keeps runs only (24 bytes a run),
	 * the first communication, chain or node path the joined records; a
	 * path is followed in a pass of its own either way. For a notebook on
	 * a large trace. (With keep_events the records are joined at once.) */
	bool lazy;
} caret_open_options;

CARET_API caret_open_options caret_open_defaults(void);

/* Opens every CTF trace under the paths (a session directory, a host's,
 * or, with merge, a parent of several recordings) as one system: the events read, the
 * architecture found, every callback run and message joined (unless lazy).
 * paths: n_paths of them, none NULL; options NULL: caret_open_defaults();
 * its since, until, strip_start and strip_end NAN or 0 to 9.2e9 s. */
CARET_API caret_status caret_open(const char *const *paths, size_t n_paths,
	const caret_open_options *options, caret_trace **trace, caret_error **error);
CARET_API void caret_trace_free(caret_trace *trace);

typedef struct caret_summary {
	uint64_t events;        /* every event read */
	uint64_t other_events;  /* of types not in caret-c's schema */
	uint64_t discarded;     /* events LTTng says it discarded */
	uint64_t first_ns, last_ns; /* the trace's first and last event */
	size_t processes, nodes, callbacks, communications;
	const char *reader_note; /* why the native reader handed it over, or NULL */
	/* the trace clock's offset from the epoch: a time + this is ns since
	 * the epoch, the times the original analyzer reports; 0 unknown (v2) */
	int64_t epoch_offset_ns;
	/* the first and last event read, before any time window (v3): the
	 * original's get_trace_range() */
	uint64_t read_first_ns, read_last_ns;
	/* whether the trace has publishes' rcl and DDS write stages at all
	 * (v3): the original's publisher records have those columns then */
	bool rcl_publish_recorded, dds_write_recorded;
} caret_summary;

/* All zero for a NULL trace; nothing done for a NULL summary. */
CARET_API void caret_trace_summary(const caret_trace *trace, caret_summary *summary);

/* ---- iterators ------------------------------------------------------------------ */

/* Each caret_X(trace) starts a walk over the X of the trace (NULL out of
 * memory, or for a NULL trace) and caret_next_X fills the next one (false
 * at the end, and for a NULL iterator or a NULL object to fill). The
 * objects are those of the original CARET's architecture: its hidden ones
 * (the tracer's own, ROS 2's infrastructure) are left out. */
typedef struct caret_iter caret_iter;
CARET_API void caret_iter_free(caret_iter *iter);

typedef enum caret_callback_type {
	CARET_CALLBACK_TIMER,
	CARET_CALLBACK_SUBSCRIPTION,
	CARET_CALLBACK_SERVICE,
} caret_callback_type;

typedef struct caret_callback {
	size_t id;           /* for caret_callback_runs */
	const char *name;    /* "/ns/node/callback_N", the original's */
	const char *node;    /* the node's full name */
	caret_callback_type type;
	const char *symbol;  /* the function's symbol; NULL: not registered */
	const char *topic;   /* a subscription's topic, a service's name; else NULL */
	int64_t period_ns;   /* a timer's period; else 0 */
	int64_t pid;
} caret_callback;

CARET_API caret_iter *caret_callbacks(const caret_trace *trace);
CARET_API bool caret_next_callback(caret_iter *iter, caret_callback *callback);

/* A publisher's messages to one subscription (one topic). */
typedef struct caret_communication {
	size_t id;                   /* for caret_communication_messages */
	const char *topic;
	const char *publisher_node;
	const char *subscription_node;
	size_t callback;             /* the subscription's callback (caret_callback.id) */
	const char *callback_name;
} caret_communication;

CARET_API caret_iter *caret_communications(const caret_trace *trace);
CARET_API bool caret_next_communication(caret_iter *iter, caret_communication *communication);

/* How a node of a path turns an input into an output (the original's
 * message_context policies). */
typedef enum caret_policy {
	CARET_POLICY_DEFAULT = -1,       /* in caret_path.policies: the one caret_follow_path is given */
	CARET_POLICY_USE_LATEST_MESSAGE, /* every output while the input is the latest (one
	                                    instance each: the original's; v3) */
	CARET_POLICY_CALLBACK_CHAIN,     /* the output of the run that took the input */
	CARET_POLICY_INHERIT_UNIQUE_STAMP, /* the output carrying the input's header stamp */
	CARET_POLICY_CONSUME_LATEST_MESSAGE, /* the next output only, while the input is the
	                                        latest (v3; v2's use_latest_message) */
} caret_policy;

/* A chain of nodes: n_nodes names, and the topic between each two (a tf
 * link "tf:FRAME->CHILD", or a service's "request:S" / "response:S"). As
 * an argument: n_nodes >= 2, every name given, each policy one of
 * caret_policy's (CARET_ERR_INVALID naming the one that is not). */
typedef struct caret_path {
	size_t n_nodes;
	const char *const *nodes;
	const char *const *topics; /* n_nodes - 1 */
	/* per node, its policy (an architecture file's message_contexts);
	 * NULL: every node the one caret_follow_path is given (v2) */
	const caret_policy *policies;
} caret_path;

/* The paths from node `from` to node `to` of at most max_depth nodes (0:
 * the default, 20; any larger value, SIZE_MAX included, is as the trace's
 * node count: a path visits each node once), shortest first. NULL with
 * *error when a node is not in the trace, an argument is NULL or memory
 * ran out. */
CARET_API caret_iter *caret_search_paths(const caret_trace *trace, const char *from, const char *to,
	size_t max_depth, caret_error **error);
CARET_API bool caret_next_path(caret_iter *iter, caret_path *path);

/* ---- records ------------------------------------------------------------------------ */

/* One run of a callback; end_ns 0: it had not ended when the trace did. */
typedef struct caret_run {
	uint64_t start_ns, end_ns;
	int64_t pid, tid;
} caret_run;

/* The runs of callback `callback` (caret_callback.id), in start order. */
CARET_API caret_status caret_callback_runs(caret_trace *trace, size_t callback,
	const caret_run **runs, size_t *n, caret_error **error);

/* One message of a communication: its publish's stages (0: not in the
 * trace: a message handled whose publish was not recorded), the take, and
 * the start of the callback run that handled it. */
typedef struct caret_message {
	uint64_t rclcpp_publish_ns, rcl_publish_ns, dds_write_ns;
	uint64_t source_timestamp_ns; /* DDS's source timestamp; 0: none (intra-process) */
	uint64_t take_ns;            /* 0: no take event */
	uint64_t callback_start_ns;
	bool intra;                  /* delivered within the process */
} caret_message;

/* The messages of communication `communication`, in publish order
 * (those without a publish last, by callback start). */
CARET_API caret_status caret_communication_messages(caret_trace *trace, size_t communication,
	const caret_message **messages, size_t *n, caret_error **error);

/* The original's communication records (v2): every publish of the
 * communication's publisher on its topic, in publish order, with the
 * subscription's handling of it (take_ns, callback_start_ns 0: not
 * handled, lost on the way or not yet when the trace ended); of an
 * intra-process communication (every record intra), the publishes it
 * handled only, as the original's (v3). *records is the caller's, freed
 * with caret_free. */
CARET_API caret_status caret_communication_records(caret_trace *trace, size_t communication,
	caret_message **records, size_t *n, caret_error **error);

/* The publishes of node `node`'s publishers on `topic` (v3), in publish
 * order, their stages as a caret_message's (take_ns and callback_start_ns
 * 0; intra set for an intra-process one): the original's publisher
 * records. *records is the caller's, freed with caret_free;
 * CARET_ERR_NOT_FOUND when the node has no publisher on the topic. */
CARET_API caret_status caret_publisher_records(caret_trace *trace, const char *node,
	const char *topic, caret_message **records, size_t *n, caret_error **error);

/* Where each inter-process message of the communication waited (v3,
 * issue 44): its publish, source timestamp and subscriber's callback
 * start, and its communication latency in three parts, the publish to its
 * DDS write, the write to its reception by the subscriber's middleware,
 * the reception to the callback start (docs/latency.md, "Where a message
 * waited"); split false (the parts 0) when the trace cannot tell (no
 * reception recorded for it, its DDS write not in the trace). The messages
 * handled, in publish order; *splits is the caller's, freed with caret_free. */
typedef struct caret_message_split {
	uint64_t rclcpp_publish_ns, source_timestamp_ns, callback_start_ns;
	int64_t publish_to_write_ns, write_to_reception_ns, reception_to_callback_ns;
	bool split;
} caret_message_split;
CARET_API caret_status caret_communication_splits(caret_trace *trace, size_t communication,
	caret_message_split **splits, size_t *n, caret_error **error);

/* Whether every record caret_communication_records gives has intra set
 * (v2): the original's is_intra_process, with no array made; false when
 * there is none. */
CARET_API caret_status caret_communication_intra(caret_trace *trace, size_t communication,
	bool *intra, caret_error **error);

/* ---- a path's latency ------------------------------------------------------------- */

/* One message followed along a path: the first node's run that published
 * it, that publish, and the last node's callback run (last_end_ns 0: it
 * did not get there, or not before the trace ended). */
typedef struct caret_path_message {
	uint64_t callback_start_ns, publish_ns, last_start_ns, last_end_ns;
} caret_path_message;

typedef struct caret_path_latency caret_path_latency;

/* Every message of the path's first node followed to its last node, as
 * `caret path latency` follows it: in a pass of its own over the trace
 * (its files read again, with the records of the path's nodes alone).
 * policy: one of the four policies (not CARET_POLICY_DEFAULT). */
CARET_API caret_status caret_follow_path(caret_trace *trace, const caret_path *path,
	caret_policy policy, caret_path_latency **latency, caret_error **error);
/* The messages, and per message hop_count durations (hops[i * hop_count
 * + h]): inside the first node, then for each topic its communication and
 * the next node's time to its output, the last node's run last;
 * INT64_MIN where the message did not get that far. Owned by latency.
 * messages, hops and hop_count may each be NULL (not wanted); 0 for a NULL
 * latency. */
CARET_API size_t caret_path_latency_messages(const caret_path_latency *latency,
	const caret_path_message **messages, const int64_t **hops, size_t *hop_count);
CARET_API void caret_path_latency_free(caret_path_latency *latency);

/* Per message (the rows of caret_path_latency_messages) the time of each
 * stage along the path, the original's path columns (v2): the first
 * node's callback start, then for each topic its publish's rclcpp, rcl and
 * dds_write stages and DDS source timestamp and the next node's callback
 * start, then the last callback's end: *columns = 5 * (n_nodes - 1) + 2
 * times a row, 0 where a message did not get there or the trace has no
 * such stage (an intra-process publish's rcl; a tf or service hop's
 * stages). Owned by latency, made when first asked for (v3: 0 rows and
 * *stamps NULL out of memory). stamps and columns may be NULL. */
CARET_API size_t caret_path_latency_stamps(const caret_path_latency *latency,
	const uint64_t **stamps, size_t *columns);
/* Column `column` of those rows alone, a time per message into out (room
 * for caret_path_latency_messages() of them), without making the rows
 * (v3); false for a column the path does not have, or a NULL latency or out. */
CARET_API bool caret_path_latency_column(const caret_path_latency *latency, size_t column,
	uint64_t *out);
/* What the path's pass saw on its topic `topic` (0: the first), known
 * without the trace's records (v3): the original's is_intra_process of
 * that hop's communication, and whether it published through the DDS (the
 * original's columns of the hop follow from the two). false for a topic
 * the path does not have, or a NULL latency or seen. */
typedef struct caret_path_topic {
	bool intra; /* a message was delivered within its process */
	bool inter; /* a publish went through the DDS (an rcl or DDS stage, a source stamp) */
} caret_path_topic;
CARET_API bool caret_path_latency_topic(const caret_path_latency *latency, size_t topic,
	caret_path_topic *seen);

/* Response time, the original's four cases (docs/latency.md): how long
 * from an input (a message's start) to the output that answers it. */
typedef enum caret_response_case {
	CARET_RESPONSE_ALL,   /* every input: its output's end - its start */
	CARET_RESPONSE_BEST,  /* per output: from the latest input it answers */
	CARET_RESPONSE_WORST, /* per output: from the earliest input it answers */
	CARET_RESPONSE_WORST_WITH_EXTERNAL_LATENCY, /* per output: from the input before
	                                               the earliest one */
} caret_response_case;

/* The response times of the path's messages (v2), from the first
 * callback's start (first_callback) or the first publish, to the last
 * callback's end (last_callback) or its start, in the order of their input:
 * inputs[i] (the time the original reports) and times[i], each with room
 * for caret_path_latency_messages() entries; *n of them. Not to be called
 * from two threads at once on the same latency. */
CARET_API caret_status caret_path_response_times(const caret_path_latency *latency,
	bool first_callback, bool last_callback, caret_response_case which, uint64_t *inputs,
	int64_t *times, size_t *n, caret_error **error);

/* ---- node paths: a callback's input to its output (v2) ------------------------- */

/* One run of a callback and its first publish on a topic (0: none). */
typedef struct caret_chain_record {
	uint64_t callback_start_ns, publish_ns;
} caret_chain_record;

/* Per run of callback `callback` (caret_callback.id), in start order, the
 * first publish of the callback's node on `topic` made in that run: the
 * original's callback_chain node path. *records is the caller's, freed
 * with caret_free. */
CARET_API caret_status caret_callback_chain(caret_trace *trace, size_t callback,
	const char *topic, caret_chain_record **records, size_t *n, caret_error **error);

/* One run of a subscription callback as a node path's input (v2): its
 * start, the DDS source timestamp of the message it took (0: none, an
 * intra-process one) and the node's output for it (0: none). */
typedef struct caret_node_record {
	uint64_t callback_start_ns, source_timestamp_ns, publish_ns;
} caret_node_record;

/* Per run of subscription callback `callback`, in start order, the output
 * on `topic` of the callback's node under `policy` (v2): the original's
 * node path records. CARET_POLICY_CALLBACK_CHAIN: the run's first publish
 * (as caret_callback_chain); CARET_POLICY_USE_LATEST_MESSAGE (v3): a
 * record for each publish of the node from the run's start until the
 * callback's next run starts (none: one record, publish_ns 0), so *n can
 * exceed the runs; CARET_POLICY_CONSUME_LATEST_MESSAGE: the first of those
 * publishes only. Other policies: CARET_ERR_INVALID. *records is the
 * caller's, freed with caret_free. */
CARET_API caret_status caret_node_path_records(caret_trace *trace, size_t callback,
	const char *topic, caret_policy policy, caret_node_record **records, size_t *n,
	caret_error **error);

/* Frees what a function above says is the caller's (NULL is fine). */
CARET_API void caret_free(void *memory);

/* ---- the architecture file (the original's YAML) (v2) --------------------------- */

/* Writes the trace's architecture as the original's Architecture.export
 * writes it (named_paths empty; `all`: every object and key, the hidden
 * ones too) to `file`. */
CARET_API caret_status caret_write_architecture(const caret_trace *trace, const char *file,
	bool all, caret_error **error);

/* Checks an architecture file: its keys, value types and the names that
 * refer to each other; CARET_ERR_FORMAT with the line when it does not. */
CARET_API caret_status caret_check_architecture(const char *file, caret_error **error);

/* The named path `name` of an architecture file as an iterator of that one
 * path (caret_next_path), its nodes' policies from the file's
 * message_contexts (CARET_POLICY_DEFAULT where it gives none). NULL with
 * *error when the file does not check or has no such path. The path's
 * strings live as long as the iterator. */
CARET_API caret_iter *caret_architecture_path(const char *file, const char *name,
	caret_error **error);

#ifdef __cplusplus
}
#endif

#endif
