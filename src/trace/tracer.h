/*
 * tracer.h - what every part of libcaret.so shares: the recording state,
 * per-thread hook state, the clock, and debug output.
 *
 * The tracer runs inside other people's processes: hooks never allocate,
 * lock or make a syscall on the runtime path (the clock is the vDSO's),
 * preserve errno, guard against re-entry, and print nothing unless
 * CARET_DEBUG is set.
 */
#ifndef CT_TRACER_H
#define CT_TRACER_H

#include <errno.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

#define CT_HIDDEN __attribute__((visibility("hidden")))
#define CT_EXPORT __attribute__((visibility("default")))
#define CT_TLS __thread __attribute__((tls_model("initial-exec")))
#define CT_UNLIKELY(x) __builtin_expect(!!(x), 0)

/* Seed 004: WAIT (keep initialization data only), PREPARE (replaying it
 * into a new session), RECORD (everything goes to LTTng). */
enum ct_state { CT_STATE_WAIT, CT_STATE_PREPARE, CT_STATE_RECORD };

CT_HIDDEN extern _Atomic int ct_state;
CT_HIDDEN extern bool ct_merge;           /* CARET_MERGE != 0 */
CT_HIDDEN extern bool ct_process_ignored; /* CARET_IGNORE_PROCESSES */

static inline bool ct_recording(void)
{
	return atomic_load_explicit(&ct_state, memory_order_relaxed) == CT_STATE_RECORD;
}

/* The clock LTTng stamps events with (CLOCK_MONOTONIC), in ns. */
static inline int64_t ct_now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/* Per-thread hook state. */
struct ct_thread {
	int depth; /* hooks entered: > 1 means re-entry */
	bool in_control; /* the tracer's own DDS traffic: never recorded */
	bool publish_allowed; /* filter decision of the publish in progress */
	/* The message an rmw announced (rmw_publish) and is now writing, for
	 * a DDS hook that sees only the serialized sample (Fast DDS). */
	const void *writing_message;
	/* An rclcpp_publish that named no publisher (upstream Humble), held
	 * while filters are on until its rcl_publish says whose it is. */
	const void *unnamed_message;
	int64_t unnamed_time;
	/* The message of this thread's last rclcpp_publish: an rcl_publish of
	 * another comes from rclpy (rclpy_attach.h). */
	const void *announced_message;
	/* A service request or response being written (hooks_services.c):
	 * its event, emitted by the DDS write hook just before the sample goes
	 * out (where the request's sequence number or the response's source
	 * timestamp is known), else by the rmw hook after the write. */
	struct ct_service_write {
		int kind; /* CT_SERVICE_WRITE_* */
		const void *handle, *message;
		const uint8_t *client_gid;
		int64_t sequence_number;
		bool emitted;
		bool record;         /* recorded (else a request only probes, below) */
		bool seen;           /* a DDS hook read a request's number... */
		int64_t seen_number; /* ...this one */
	} service_write;
	/* With filters on: which of the callback runs open in this thread
	 * (innermost last, up to 32) the filters leave out; tf events follow
	 * the run they happen in. */
	uint32_t runs_left_out;
	int run_depth;
};
CT_HIDDEN extern CT_TLS struct ct_thread ct_thread;

/* A callback run begins or ends in this thread (filters on). */
static inline void ct_run_begins(bool allowed)
{
	int d = ct_thread.run_depth++;
	if (d < 32)
		ct_thread.runs_left_out = (ct_thread.runs_left_out & ~(1u << d)) |
			((uint32_t)!allowed << d);
}

static inline void ct_run_ends(void)
{
	if (ct_thread.run_depth > 0)
		ct_thread.run_depth--;
}

/* Whether the innermost run open in this thread is left out by the filters
 * (false outside any run, or with no filter). */
static inline bool ct_in_run_left_out(void)
{
	int d = ct_thread.run_depth - 1;
	return d >= 0 && d < 32 && (ct_thread.runs_left_out >> d & 1);
}

/* Hook prologue/epilogue: errno kept, re-entry refused. */
#define CT_ENTER(saved_errno)                                \
	int saved_errno = errno;                             \
	bool ct_reentered_ __attribute__((unused)) = ct_thread.depth++ > 0
#define CT_REENTERED() ct_reentered_
#define CT_LEAVE(saved_errno)      \
	do {                       \
		ct_thread.depth--; \
		errno = saved_errno; \
	} while (0)

/* First initialization event of the process: reads the environment,
 * decides the initial state, records caret_init and rmw_implementation.
 * Idempotent and thread-safe. */
CT_HIDDEN void ct_initialize(void);

union ct_value;
enum cs_event_id;
/* An initialization event: its leading values, then init_timestamp. Stored
 * for replay, learned by the filters, emitted when recording. */
CT_HIDDEN void ct_record_initialization(int id, const union ct_value *values,
	size_t n, int64_t init_timestamp);

/* The process's libtracetools emits its events (built with LTTng). */
CT_HIDDEN bool ct_tracetools_tracing(void);

/* Enter RECORD from the current state (emits caret_init); used at start and
 * by the control thread after a replay. */
CT_HIDDEN void ct_emit_caret_init(void);

/* The control thread (control_thread.c), told that this thread has just
 * made a node: starts the thread the first time, and opens the DDS
 * endpoint in the node's domain when there is none (the first node, or the
 * first after rmw deleted the domain with its last node). Never in a
 * forked child. */
CT_HIDDEN void ct_control_node_created(void);
/* A node of this process, for Status. */
CT_HIDDEN void ct_control_note_node(const char *fqn);

/* The service write in progress in this thread (ct_thread.service_write),
 * emitted now, just before its sample goes out: a request with the rmw's
 * sequence number for it, a response with its DDS source timestamp
 * (hooks_services.c; called by the DDS write hooks). */
enum { CT_SERVICE_WRITE_NONE, CT_SERVICE_WRITE_REQUEST, CT_SERVICE_WRITE_RESPONSE };
CT_HIDDEN void ct_service_write_request(int64_t sequence_number);
CT_HIDDEN void ct_service_write_response(int64_t source_timestamp);

/* A problem of the tracer's that the recorder should hear of: the first
 * one reported is kept (copied) and sent with every Status, as a warning,
 * and said once on stderr under CARET_DEBUG. ct_reported_problem: it, or
 * NULL. */
CT_HIDDEN void ct_report_problem(const char *text);
CT_HIDDEN const char *ct_reported_problem(void);

/* stderr line prefixed "caret: ", only when CARET_DEBUG is set. */
CT_HIDDEN void ct_debug(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif
