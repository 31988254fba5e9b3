/*
 * session.h - the LTTng recording session of `caret record`, through
 * liblttng-ctl (never the `lttng` command): one user-space session with
 * per-UID buffers and two channels carrying the vpid, vtid and procname
 * contexts, "caret" for runtime events and "caret_init" for
 * initialization events (the analyzer skips packets of the first outside
 * a time window), plus the queries the recorder needs while it runs
 * (discarded events, bytes written, another recorder already running).
 *
 * Errors come back as a one-line reason in the caller's err buffer.
 */
#ifndef CR_SESSION_H
#define CR_SESSION_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct cr_session_options {
	const char *name;          /* session name */
	const char *output_dir;    /* absolute path; created by LTTng */
	uint64_t subbuf_size;      /* bytes, power of two; 0 -> 4 MiB */
	uint64_t num_subbuf;       /* power of two; 0 -> 8 */
	bool blocking;             /* writers wait instead of discarding (infinite blocking timeout) */
	bool light;                /* only the smaller event set (see session.c) instead of ros2:* and ros2_caret:* */
	int track_vgid;            /* >= 0: track only this virtual group id (tests); -1: all */
	/* a flight recorder (LTTng snapshot mode): channels overwrite their
	 * oldest data, nothing is written until cr_session_snapshot */
	bool snapshot;
	/* "net://HOST[:CTRL[:DATA]]": streamed to that lttng-relayd instead
	 * of written under output_dir (ignored then); NULL: local */
	const char *url;
};

struct cr_session; /* opaque */

/* The events a session enables (all of caret-c's schema, or the light
 * set), i from 0: the i-th's name, NULL past the last; and the contexts
 * each event carries, the same way (caret record -l lists them). */
const char *cr_session_event_name(bool light, size_t i);
const char *cr_session_context_name(size_t i);

/*
 * Creates the session (user-space domain, per-UID buffers, channels
 * "caret" and "caret_init" with the given sub-buffers each, discard mode unless blocking,
 * contexts vpid, vtid and procname), enables the events and applies the
 * vgid tracker when asked. Does not start it. Returns NULL with a one-line
 * reason in err; on failure nothing is left behind.
 */
struct cr_session *cr_session_create(const struct cr_session_options *o,
				     char *err, size_t err_size);

int cr_session_start(struct cr_session *s, char *err, size_t err_size);

/*
 * Stops (waiting until the data is flushed) and destroys the session; safe
 * to call in any state, and with NULL; frees s. Returns 0, or -1 with err.
 */
int cr_session_stop_and_destroy(struct cr_session *s, char *err, size_t err_size);
/* Stops tracing (already stopped, or gone: fine); the session stays, to be
 * rotated a last time. */
void cr_session_stop(struct cr_session *s);

/*
 * Rotates the session (it keeps recording into a new chunk) and waits
 * until the chunk closed is archived: its absolute path, a complete CTF
 * trace, into chunk. 0, or -1 with err.
 */
int cr_session_rotate(struct cr_session *s, char *chunk, size_t chunk_size,
		      char *err, size_t err_size);

/*
 * Writes what a snapshot session's buffers hold under dir (created): a
 * complete CTF trace in dir/<name>-<date>-<n>/. 0, or -1 with err.
 */
int cr_session_snapshot(struct cr_session *s, const char *dir, char *err, size_t err_size);

/* Events discarded so far on the two channels; -1 if unknown. */
int64_t cr_session_discarded(const struct cr_session *s);

/* Bytes written so far under output_dir (sum of regular file sizes). */
uint64_t cr_session_bytes_on_disk(const struct cr_session *s);

/*
 * 1 when some started session on this machine (including one created by
 * the caller) records ros2_caret events in the user-space domain, 0 when
 * none does (1: err holds that session's name), -1 when the session
 * daemon cannot be reached (err says why).
 * track_vgid >= 0: only sessions that record that virtual group count
 * (tests run side by side, each session tracking its own group).
 */
int cr_active_session_records_caret(int track_vgid, char *err, size_t err_size);

/* What cr_session_state finds: below CR_SESSION_STARTED, lost. */
enum cr_session_state {
	CR_SESSION_REPLACED = -3,  /* its daemon ended; another answers (its pid file) */
	CR_SESSION_NO_DAEMON = -2, /* no session daemon answers any more */
	CR_SESSION_ABSENT = -1,    /* destroyed */
	CR_SESSION_STOPPED = 0,    /* by someone */
	CR_SESSION_STARTED = 1,
};

/* Whether the session still records (enum cr_session_state). A daemon that
 * is there but fails to list its sessions is asked again; failing still,
 * the session counts as started (not known to be lost). */
int cr_session_state(const struct cr_session *s);

/* Stops and destroys the session of that name if it exists (a session a
 * dead recorder left behind; its trace stays on disk). 1 destroyed, 0 none
 * such, -1 with err. */
int cr_session_destroy_named(const char *name, char *err, size_t err_size);

/* 1 if a session daemon answers, else 0. */
int cr_sessiond_alive(void);

/* Keeps liblttng-ctl's own error lines ("PERROR - ...: sendmsg: Broken
 * pipe (in lttcomm_send_unix_sock() ...)") off stderr: each failure is
 * said by its caller, in one line. */
void cr_session_quiet(void);

#endif
