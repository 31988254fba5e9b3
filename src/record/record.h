/*
 * record.h - `caret record`: an LTTng session through liblttng-ctl, Start
 * over DDS to every traced process, live progress, End, summary.
 */
#ifndef CR_RECORD_H
#define CR_RECORD_H

#include <stdbool.h>
#include <stdint.h>

struct cr_record_options {
	const char *session_name;  /* NULL: caret-YYYYMMDD-HHMMSS-PID */
	const char *output_dir;    /* NULL: ~/.ros/tracing/<session> */
	double duration;           /* seconds; 0: until Ctrl-C */
	uint32_t frequency;        /* Start.recording_frequency; 0: as fast as possible */
	uint64_t subbuf_size, num_subbuf;
	bool blocking, light, immediate, no_merge;
	double wait_timeout;       /* seconds to wait for every process to reach RECORD */
	int track_vgid;            /* -1: all (tests: CARET_TEST_VGID) */
	char *const *command;      /* `-- CMD ARGS...`, or NULL */
	const char *tracer_lib;    /* libcaret.so for CMD */
};

/* Runs the whole recording; returns the process exit status (0 ok, 1
 * failure), having printed a one-line reason on failure. */
int cr_record_run(const struct cr_record_options *o);

#endif
