/*
 * recorder.h - the recording under way, as the parts of caret record share
 * it (private): record.c runs it, start.c finds the traced processes and
 * brings them to RECORD, summary.c reads the trace back and says what it
 * holds.
 */
#ifndef CR_RECORDER_H
#define CR_RECORDER_H

#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

#include "control.h"
#include "processes.h"
#include "record.h"
#include "session.h"

struct cr_lock;

struct recorder {
	const struct cr_record_options *o;
	struct cc_endpoints ep;
	struct cr_session *session;
	struct cr_session *flight; /* snapshot_session */
	char flight_name[140];
	struct cr_lock *lock;
	struct cr_processes *procs;
	bool tty;
	char session_name[128], output[PATH_MAX], err[512];
	char url[PATH_MAX];  /* net://HOST when streamed to lttng-relayd */
	int64_t start_sent, started;
	pid_t child;
	/* the session stopped or destroyed by someone else, or gone with its
	 * daemon: how (cr_session_state; CR_SESSION_STARTED: not lost), when */
	int lost_state;
	double lost_at;
	bool rotation_failed; /* said: the events after the last chunk are lost */
	/* output did not exist before this run (LTTng makes it): a run that
	 * ends without a trace takes it away again */
	bool output_is_ours, remove_output;
};

/* What the messages begin with: the verb recording (caret record, caret live). */
const char *cr_who(const struct recorder *r);
#define CR_SAY(r, ...) (fprintf(stderr, "%s: ", cr_who(r)), fprintf(stderr, __VA_ARGS__))
/* The message, one line on stderr (below the progress line); returns 1. */
int cr_fail(const struct recorder *r, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* Whether Ctrl-C (SIGINT), SIGTERM or SIGHUP asked the recording to end. */
bool cr_stop_asked(void);
/* The monotonic time seconds after t; INT64_MAX (never) past what int64
 * nanoseconds hold, t for none (0, negative, NaN): --duration, --wait or
 * --rotate of 1e300 s or inf is "never", not a signed overflow (the
 * options' parser bounds them; this keeps the recorder sound whoever fills
 * its options). */
int64_t cr_after(int64_t t, double seconds);
/* The progress line, on a terminal: what the recorder does and since when,
 * the processes per state, the trace's size, the events discarded. */
void cr_show_progress(const struct recorder *r, const char *doing, double seconds);
/* Ends the progress line, if one is shown. */
void cr_end_progress(const struct recorder *r);

/* start.c: the traced processes of the domain, found (0; else nothing
 * answered: the likely cause said, the exit status); then told to record
 * and waited for (0, or the exit status after Ctrl-C in the wait). */
int cr_find_processes(struct recorder *r);
int cr_start_processes(struct recorder *r);
/* End to every process (after their readers are seen). */
void cr_send_end(struct recorder *r);
/* --immediate: Start again for a process found waiting. */
void cr_start_waiting(struct recorder *r);

/* summary.c: the session stopped, the trace read back and summed up; the
 * exit status. */
int cr_finish(struct recorder *r, double recorded_seconds);
/* Whether the disk holding the trace has no room left for a packet. */
bool cr_disk_full(const struct recorder *r);
/* Whether the trace's folder here (not a relay daemon's) is gone. */
bool cr_output_deleted(const struct recorder *r);

#endif
