/* summary.c - the end of a recording: the session stopped, the trace read
 * back, what it holds and what went wrong said (recorder.h). */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>

#include "ctf_iter.h"
#include "plural.h"
#include "recorder.h"
#include "trace_dir.h"

#define DISK_FULL_BYTES (64 << 10) /* less than this left: LTTng cannot write a packet */

/* Bytes free for us on the file system holding the trace; -1 unknown. */
static int64_t free_bytes(const char *dir)
{
	struct statvfs st;
	if (statvfs(dir, &st) != 0)
		return -1;
	return (int64_t)(st.f_bavail * st.f_frsize);
}

bool cr_disk_full(const struct recorder *r)
{
	if (r->o->relayd) /* the relay daemon's disk: it says so itself */
		return false;
	int64_t left = free_bytes(r->output);
	return left >= 0 && left < DISK_FULL_BYTES;
}

bool cr_output_deleted(const struct recorder *r)
{
	struct stat st;
	return !r->o->relayd && stat(r->output, &st) != 0;
}

/* What went wrong while recording that makes the trace incomplete, said
 * in one line each; the number of such problems. */
static int report_losses(const struct recorder *r)
{
	int problems = r->rotation_failed; /* said then */
	const char *how = r->lost_state == CR_SESSION_STOPPED ? "stopped" : "destroyed";
	if (r->lost_state != CR_SESSION_STARTED) {
		problems++;
		if (cr_output_deleted(r)) /* the folder went first: LTTng ended the session over it */
			cr_fail(r, "%s was deleted %.1f s into the recording (the session %s was %s "
				"with it): the trace covers only that", r->output, r->lost_at,
				r->session_name, how);
		else if (r->lost_state <= CR_SESSION_NO_DAEMON)
			cr_fail(r, "the LTTng session daemon ended %.1f s into the recording (crashed, "
				"killed or stopped; %s), and the session %s with it: the trace covers "
				"only that", r->lost_at, r->lost_state == CR_SESSION_REPLACED ?
				"another one has started since" : "none answers now", r->session_name);
		else
			cr_fail(r, "the session %s was %s by someone else %.1f s into the recording: "
				"the trace covers only that", r->session_name, how, r->lost_at);
	}
	for (size_t i = 0; i < cr_processes_count(r->procs); i++) {
		const struct cr_process *p = cr_processes_at(r->procs, i);
		if (!p->left_record)
			continue;
		cr_fail(r, "%s (pid %" PRId64 ", %s) left RECORD %.1f s into the recording (an End "
			"or Start from another recorder?): its events after that are missing",
			p->name, p->pid, p->first_node[0] ? p->first_node : "no node",
			(double)(p->left_record - r->started) / 1e9);
		problems++;
	}
	return problems;
}

/* The tracers' own warnings (an invalid filter pattern...), once each. */
static void report_warnings(const struct recorder *r)
{
	size_t n = cr_processes_count(r->procs);
	for (size_t i = 0; i < n; i++) {
		const struct cr_process *p = cr_processes_at(r->procs, i);
		bool said = !p->warning[0];
		for (size_t k = 0; k < i && !said; k++)
			said = !strcmp(cr_processes_at(r->procs, k)->warning, p->warning);
		if (said)
			continue;
		size_t same = 0;
		for (size_t k = i; k < n; k++)
			same += !strcmp(cr_processes_at(r->procs, k)->warning, p->warning);
		CR_SAY(r, "warning from %zu process%s (pid %" PRId64 "%s): %s\n",
			same, same == 1 ? "" : "es", p->pid, same > 1 ? ", ..." : "", p->warning);
	}
	uint64_t foreign, malformed;
	cr_processes_ignored(r->procs, &foreign, &malformed);
	if (foreign || malformed)
		CR_SAY(r, "ignored %" PRIu64 " Status message%s from writers "
			"that are not caret tracers and %" PRIu64 " malformed one%s\n", foreign,
			foreign == 1 ? "" : "s", malformed, malformed == 1 ? "" : "s");
}

/* What the trace holds: every event, those of the tracer (ros2_caret:
 * every process with libcaret.so writes them), the discarded. */
struct counts {
	uint64_t events, tracers, discarded;
};

static int count_event(const bt_event *ev, uint64_t clock, void *user)
{
	struct counts *c = user;
	const char *name = bt_event_class_get_name(bt_event_borrow_class_const(ev));
	(void)clock;
	c->events++;
	c->tracers += name && !strncmp(name, "ros2_caret:", 11);
	return 0;
}

static void count_discarded(const bt_stream *s, uint64_t n, void *user)
{
	(void)s;
	((struct counts *)user)->discarded += n;
}

static int discarded_said(const struct recorder *r, int64_t discarded, const char *advice)
{
	return cr_fail(r, "%" PRId64 " events were discarded: latencies may be wrong; use bigger "
		"buffers (--subbuf-size, --num-subbuf)%s", discarded, advice);
}

/* The trace read back and summed up: the exit status. A trace with
 * nothing in it is taken away; one without a tracer's event is not what
 * caret record is for (the applications ran without libcaret.so). */
static int read_back(struct recorder *r, double recorded_seconds, int64_t lttng_discarded,
	int problems)
{
	char err[512];
	struct counts c = { 0 };
	struct ca_ctf_handlers h = { count_event, count_discarded, &c, NULL };
	size_t processes = cr_processes_count(r->procs);
	if (cr_dir_bytes(r->output) && ca_ctf_iterate(r->output, &h, err, sizeof err) != 0)
		return cr_fail(r, "the trace cannot be read back: %s", err);
	if (!c.events) {
		r->remove_output = true;
		return cr_fail(r, "nothing was recorded in %.1f s: no process with libcaret.so "
			"preloaded ran while the session recorded", recorded_seconds);
	}
	if (!c.tracers)
		return cr_fail(r, "the trace %s holds %" PRIu64 " events of ros2_tracing, none from "
			"libcaret.so: the applications ran without the tracer (start them with it "
			"preloaded: eval \"$(caret env)\" before launching them)", r->output, c.events);
	if (lttng_discarded > (int64_t)c.discarded)
		c.discarded = (uint64_t)lttng_discarded;
	report_warnings(r);
	CR_SAY(r, "recorded %.1f s, %zu %s, %" PRIu64 " %s, %" PRIu64 " discarded\n",
		recorded_seconds, processes, caret_plural(processes, "process", "processes"),
		c.events, caret_plural(c.events, "event", "events"), c.discarded);
	printf("%s\n", r->output);
	if (c.discarded)
		CR_SAY(r, "%" PRIu64 " events were discarded: latencies may be wrong; use bigger "
			"buffers (--subbuf-size, --num-subbuf) or --blocking\n", c.discarded);
	return problems ? 1 : 0;
}

int cr_finish(struct recorder *r, double recorded_seconds)
{
	char err[512];
	int64_t lttng_discarded = cr_session_discarded(r->session);
	size_t processes = cr_processes_count(r->procs);

	cr_end_progress(r);
	int problems = report_losses(r);
	if (r->lost_state != CR_SESSION_STARTED)
		recorded_seconds = r->lost_at;
	int stopped = cr_session_stop_and_destroy(r->session, err, sizeof err);
	r->session = NULL;
	cc_close(&r->ep);
	if (cr_disk_full(r))
		return cr_fail(r, "the disk holding %s is full (%" PRId64 " KiB left): the trace is "
			"incomplete", r->output, free_bytes(r->output) / 1024);
	if (stopped != 0 && r->lost_state > CR_SESSION_NO_DAEMON) /* gone with it: said */
		return cr_fail(r, "%s", err);
	if (r->o->relayd) { /* the trace is on the relay daemon's host */
		report_warnings(r);
		CR_SAY(r, "recorded %.1f s, %zu %s, streamed to %s\n", recorded_seconds, processes,
			caret_plural(processes, "process", "processes"), r->output);
		if (lttng_discarded > 0)
			return discarded_said(r, lttng_discarded, " or --blocking");
		return problems ? 1 : 0;
	}
	if (r->o->quiet) { /* live: the chunks were read as they came */
		report_warnings(r);
		if (lttng_discarded > 0)
			return discarded_said(r, lttng_discarded, "");
		return problems ? 1 : 0;
	}
	return read_back(r, recorded_seconds, lttng_discarded, problems);
}
