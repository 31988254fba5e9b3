/*
 * caret/analyze.h - libcaret-analyze: CTF traces of ROS 2 systems into
 * tables of events, and (next) the architecture and latencies.
 *
 * Ownership: a ca_trace is owned by the caller and freed with
 * ca_trace_free (NULL is fine). Strings returned by the library belong to
 * the trace and live as long as it does.
 */
#ifndef CARET_ANALYZE_H
#define CARET_ANALYZE_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct ca_trace ca_trace;

/* Loads every CTF trace found under the paths (a session directory, a
 * host's directory, or a parent of several: the leaf traces are found)
 * through libbabeltrace2, into one table per event of the schema
 * (docs/trace-format.md), merged events included. Returns NULL on failure
 * with a one-line reason in err, e.g. "cannot read trace: path=...: ...". */
ca_trace *ca_trace_load(const char *const *paths, size_t n_paths, char *err,
	size_t err_size);
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

#ifdef __cplusplus
}
#endif

#endif
