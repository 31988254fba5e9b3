/* tracer.c - process-wide tracer state and its one-time initialization. */
#define _GNU_SOURCE
#include "tracer.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "abi.h"
#include "active.h"
#include "original.h"
#include "filter.h"
#include "init_store.h"
#include "ros2_caret_tp.h"

_Atomic int ct_state = CT_STATE_WAIT;
bool ct_merge = true;
bool ct_process_ignored;
CT_TLS struct ct_thread ct_thread = { .publish_allowed = true };

static pthread_once_t once = PTHREAD_ONCE_INIT;

void ct_debug(const char *fmt, ...)
{
	/* read here, not at initialization: the ABI is detected before */
	static _Atomic int debug_on = -1;
	if (debug_on < 0)
		debug_on = getenv("CARET_DEBUG") != NULL;
	if (!debug_on)
		return;
	int saved = errno;
	/* one write a line: the processes of a system share one stderr, and
	 * lines written in pieces came out interleaved, two on one line */
	char line[512];
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(line + 7, sizeof line - 8, fmt, ap);
	va_end(ap);
	if (n >= 0) {
		size_t len = 7 + ((size_t)n < sizeof line - 8 ? (size_t)n : sizeof line - 9);
		memcpy(line, "caret: ", 7);
		line[len++] = '\n';
		ssize_t w = write(STDERR_FILENO, line, len);
		(void)w;
	}
	errno = saved;
}

static char problem[400];
static atomic_bool problem_set;
static atomic_bool problem_claimed;

void ct_report_problem(const char *text)
{
	if (atomic_exchange(&problem_claimed, true))
		return;
	snprintf(problem, sizeof problem, "%s", text);
	atomic_store_explicit(&problem_set, true, memory_order_release);
	ct_debug("%s", problem);
}

const char *ct_reported_problem(void)
{
	return atomic_load_explicit(&problem_set, memory_order_acquire) ? problem : NULL;
}

bool ct_tracetools_tracing(void)
{
	bool (*compile_status)(void) = (bool (*)(void))ct_original_lookup(
		"ros_trace_compile_status");
	return compile_status && compile_status();
}

/* The distribution: ROS_DISTRO as CARET records it, else the ABI detected
 * (the original analyzer tells Jazzy's traces by it). */
void ct_emit_caret_init(void)
{
	const char *distro = getenv("ROS_DISTRO");
	lttng_ust_tracepoint(ros2_caret, caret_init, ct_now(),
		distro && *distro ? distro : ct_abi_name(ct_abi()));
}

static void initialize_once(void)
{
	const char *merge = getenv("CARET_MERGE");

	if (!ct_active())
		return; /* every hook forwards; nothing to store */
	ct_merge = !(merge && !strcmp(merge, "0"));
	ct_process_ignored = ct_filter_init();
	if (ct_process_ignored) {
		ct_debug("process %s ignored (CARET_IGNORE_PROCESSES)",
			program_invocation_short_name);
		return;
	}

	const char *rmw = getenv("RMW_IMPLEMENTATION");
	struct ct_record r = { .id = CS_EV_ros2_caret_rmw_implementation };
	r.v[0].s = rmw && *rmw ? rmw : "rmw_cyclonedds_cpp";
	r.v[1].i = ct_now();
	ct_store_add(&r);
	struct ct_record status = { .id = CS_EV_ros2_caret_tracetools_status };
	status.v[0].i = ct_tracetools_tracing();
	status.v[1].i = ct_now();
	ct_store_add(&status);
	if (ct_filter_problems()) {
		struct ct_record warning = { .id = CS_EV_ros2_caret_tracer_warning };
		warning.v[0].s = ct_filter_problems();
		warning.v[1].i = ct_now();
		ct_store_add(&warning);
	}

	/* A session already recording our events: record from the start,
	 * without asking anyone (LTTng-UST knows what is enabled here). */
	if (lttng_ust_tracepoint_enabled(ros2_caret, rcl_init)) {
		ct_emit_caret_init();
		struct ct_replay replay = { 0 };
		while (ct_store_replay_next(&replay))
			;
		ct_store_finish_replay(&replay);
	}
	ct_debug("initialized: %s ABI, state %s, merge %s, filters %s", ct_abi_name(ct_abi()),
		ct_recording() ? "RECORD" : "WAIT", ct_merge ? "on" : "off",
		ct_filter_active ? "on" : "off");
}

void ct_initialize(void)
{
	pthread_once(&once, initialize_once);
}

void ct_record_initialization(int id, const union ct_value *values, size_t n,
	int64_t init_timestamp)
{
	ct_initialize();
	if (ct_process_ignored || !ct_active())
		return;
	struct ct_record r = { .id = (enum cs_event_id)id };
	for (size_t i = 0; i < n; i++)
		r.v[i] = values[i];
	r.v[n].i = init_timestamp;
	ct_filter_observe(&r);
	bool stored = ct_store_add(&r);
	if (r.id == CS_EV_ros2_caret_rcl_node_init) {
		if (stored) {
			char fqn[1024];
			ct_record_node_fqn(&r, fqn, sizeof fqn);
			ct_control_note_node(fqn);
		}
		ct_control_node_created();
	}
}
