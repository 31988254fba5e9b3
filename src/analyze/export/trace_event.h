/*
 * trace_event.h - writing events of the Trace Event format (private to
 * export/): the writer of one file, times in µs since the trace's first
 * event, the tracks it has named. chrome_trace.c writes the callbacks,
 * messages and paths; chrome_services.c the service calls.
 */
#ifndef CA_EXPORT_TRACE_EVENT_H
#define CA_EXPORT_TRACE_EVENT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "ca.h"

struct te_thread {
	int64_t pid, tid;
};

struct te_writer {
	FILE *out;
	uint64_t t0;
	size_t events;
	struct te_thread *named; /* threads named so far */
	size_t n_named, cap_named;
	bool all;                /* every object, not the user's alone */
};

/* ns on the trace clock as µs since t0 (three decimals); a duration. */
void te_us(FILE *out, uint64_t t0, uint64_t t);
void te_duration(FILE *out, uint64_t d);
/* Begins an event of a phase ("X", "s"...) and returns the stream. */
FILE *te_event(struct te_writer *w, char phase);
/* A "process_name" or "thread_name" metadata event. */
void te_metadata(struct te_writer *w, const char *what, int64_t pid, int64_t tid,
	const char *name);
/* Whether a thread has its name; te_name_thread names it (once). */
bool te_thread_named(const struct te_writer *w, int64_t pid, int64_t tid);
void te_name_thread(struct te_writer *w, int64_t pid, int64_t tid, const char *name);

/* The service calls (chrome_services.c): each shown call's send and its
 * service's run, the client's response run, the request and the response
 * as flows (ids from first_id on). 0, or -1 with err. */
int te_service_calls(struct te_writer *w, const ca_trace *trace, const ca_records *records,
	size_t first_id, char *err, size_t err_size);

#endif
