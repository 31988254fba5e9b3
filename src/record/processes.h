/*
 * processes.h - the traced processes `caret record` drives, as their
 * Status messages tell.
 *
 * A process is identified by its DDS participant, which cannot collide:
 * a Status counts only when the participant that wrote it also has a Start
 * reader matched with the recorder's Start writer (every tracer, ours or
 * the original, has both). Status from other writers (a foreign or spoofed
 * publisher), malformed ones (a name that is not caret_trace_..., a state
 * out of range) and ones whose name changes under one writer are counted
 * and ignored.
 */
#ifndef CR_PROCESSES_H
#define CR_PROCESSES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <dds/dds.h>

struct cr_process {
	dds_guid_t participant;
	char name[64];              /* caret_trace_<uuid> */
	int64_t pid;
	int state;                  /* enum cc_state */
	int64_t last_seen;          /* monotonic ns */
	int64_t recording_since;    /* entered RECORD (monotonic ns), or 0 */
	int64_t left_record;        /* left RECORD before our End (monotonic ns), or 0 */
	char first_node[128];
	char warning[512];          /* the tracer's own warning, if any */
};

struct cr_tally {
	size_t live, wait, prepare, record;
};

struct cr_processes; /* opaque */

/* Reads Status on status_reader; authenticates writers against the
 * readers matched with start_writer. NULL when out of memory. */
struct cr_processes *cr_processes_create(dds_entity_t status_reader, dds_entity_t start_writer);
void cr_processes_free(struct cr_processes *ps);

/* Takes every Status received. While watch_record is set, a process that
 * leaves RECORD is marked (left_record). */
void cr_processes_update(struct cr_processes *ps, bool watch_record);

/* Processes heard from in the last few seconds, by state. */
struct cr_tally cr_processes_tally(const struct cr_processes *ps);
/* Whether the i-th process was heard from in the last few seconds (one
 * silent longer has ended, or its DDS left). */
bool cr_processes_live(const struct cr_processes *ps, size_t i);

size_t cr_processes_count(const struct cr_processes *ps);
const struct cr_process *cr_processes_at(const struct cr_processes *ps, size_t i);

/* Status messages ignored: from writers that did not prove to be tracers,
 * and malformed ones. */
void cr_processes_ignored(const struct cr_processes *ps, uint64_t *foreign, uint64_t *malformed);

#endif
