/*
 * record.h - `caret record`: an LTTng session through liblttng-ctl, Start
 * over DDS to every traced process, live progress, End, summary.
 */
#ifndef CR_RECORD_H
#define CR_RECORD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct recorder; /* the recording running, as on_chunk sees it */

struct cr_record_options {
	const char *session_name;  /* NULL: caret-YYYYMMDD-HHMMSS-PID */
	const char *output_dir;    /* NULL: <base_dir>/<session> */
	/* the folder the trace goes in, as <base_dir>/<session> (the original's
	 * --path); NULL: $ROS_TRACE_DIR if set, else $ROS_HOME/tracing, else
	 * ~/.ros/tracing (ros2_tracing's default) */
	const char *base_dir;
	double duration;           /* seconds; 0: until Ctrl-C */
	uint32_t frequency;        /* Start.recording_frequency; 0: as fast as possible */
	uint64_t subbuf_size, num_subbuf;
	bool blocking, light, immediate, no_merge;
	double wait_timeout;       /* seconds to wait for every process to reach RECORD */
	int track_vgid;            /* -1: all (tests: CARET_TEST_VGID) */
	char *const *command;      /* `-- CMD ARGS...`, or NULL */
	const char *tracer_lib;    /* libcaret.so for CMD */
	/* caret live: the session rotates every rotate_seconds and each chunk
	 * archived (a complete CTF trace) goes to on_chunk, the last one
	 * after the End; every event before until_ns (CLOCK_MONOTONIC, the
	 * trace's clock) is in that chunk or an earlier one; on_chunk
	 * returning non-zero ends the recording */
	double rotate_seconds;
	int (*on_chunk)(void *user, struct recorder *r, const char *chunk, int64_t until_ns,
		bool last);
	void *user;
	bool snapshot_session;     /* a flight recorder beside it: cr_record_snapshot */
	bool quiet;                /* no progress line, no trace path on stdout, no read-back */
	const char *verb;          /* what messages are prefixed with; NULL: "caret record" */
	const char *relayd;        /* HOST[:CTRL[:DATA]]: the trace streamed to its lttng-relayd */
};

/* Runs the whole recording; returns the process exit status (0 ok, 1
 * failure), having printed a one-line reason on failure. */
int cr_record_run(const struct cr_record_options *o);

/* Writes the flight recorder's buffers (snapshot_session) under path (a
 * trace folder in it). 0, or -1 with err. */
int cr_record_snapshot(struct recorder *r, const char *path, char *err, size_t err_size);

/* Events LTTng discarded so far; -1 unknown. */
int64_t cr_record_discarded(const struct recorder *r);

/* When the processes were told to record (CLOCK_MONOTONIC ns, LTTng's clock). */
int64_t cr_record_started_ns(const struct recorder *r);

/* A traced process as the recorder hears its Status. */
struct cr_heard_process {
	int64_t pid;
	const char *first_node; /* "" when it names none */
	bool live;              /* heard in the last few seconds */
};
/* The i-th process heard from since the start into out; false past the last. */
bool cr_record_process(const struct recorder *r, size_t i, struct cr_heard_process *out);

#endif
