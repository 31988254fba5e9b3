/*
 * trace.h - what a loaded trace holds, shared by the loader (load/) and the
 * model (model/). Private to libcaret-analyze.
 */
#ifndef CA_TRACE_H
#define CA_TRACE_H

#include <stdbool.h>
#include <stdint.h>

#include "ca.h"
#include "schema.h"
#include "strings.h"

struct ctf_host;

/* One schema event's rows, in time order: one column per field. */
struct ca_table {
	size_t rows, cap;
	uint64_t *time;
	int32_t *vpid, *vtid;
	uint64_t *field[CS_MAX_FIELDS];
};

/* What one event class of the trace maps to, found once. */
struct ca_class_map {
	const void *cls;           /* key (the reader's event class); NULL: free slot */
	int id;                    /* schema event id, -1: unknown */
	int member[CS_MAX_FIELDS]; /* payload member of each schema field, -1 */
	int int_member[CS_MAX_FIELDS]; /* the same, when an integer (flat payloads), -1 */
	int vpid, vtid, procname;  /* members of the event's context, -1 */
	bool flat;                 /* native: every payload member one value */
};

struct ca_pid {
	int32_t vpid;
	uint64_t host;     /* string id of its trace's hostname, 0: not said */
	int64_t host_shift_ns; /* its host's clock moved by, onto the first host's */
	uint64_t procname; /* string id */
	int name_rank;     /* which thread named it (name_process in tables.c) */
	uint64_t name_time; /* when that thread's first event with that name came */
	uint64_t events;
	uint64_t first_time, last_time; /* of its events of the schema */
	uint64_t per_event[CS_EVENT_COUNT]; /* events of the schema, by id */
};

struct ca_discarded_stream {
	uint64_t name; /* string id */
	uint64_t count;   /* events LTTng discarded */
	uint64_t packets; /* packets lost (a gap in their sequence numbers) */
};

#define CA_CLASS_SLOTS 1024

struct ca_model;

/* How many records one load can scan in its runtime pass. */
#define CA_MAX_RIDING 8
/* The bytes of the tee's lookup's scratch (ca_trace.tee_object). */
#define CA_TEE_SCRATCH 2048

struct ca_trace {
	struct ca_table tables[CS_EVENT_COUNT];
	struct ca_class_map classes[CA_CLASS_SLOTS];
	struct ca_strings strings;
	struct ca_pid *pids;
	size_t n_pids, cap_pids;
	uint32_t *pid_index; /* open addressing: index + 1, 0 free */
	size_t pid_index_size, last_pid;
	struct ca_discarded_stream *discarded_streams;
	size_t n_discarded_streams, cap_discarded_streams;
	uint64_t events, unknown, discarded, lost_packets;
	/* The trace clock's offset from the Unix epoch (LTTng: realtime minus
	 * monotonic when the trace began), 0 if unknown. DDS source timestamps
	 * are realtime. */
	int64_t epoch_offset;
	/* The native reader: the earliest event of the first path with events
	 * (ns since the epoch), whose clock gives epoch_offset; skimmed events
	 * come last (ctf_tally.h), so it is not the first one delivered. */
	struct {
		bool open, seen, ns_clock;
		__int128 key;
		int64_t offset;
	} earliest;
	bool failed; /* out of memory */
	char reader_note[1024]; /* why the native reader handed a trace to babeltrace2 */
	/* the time range of the path being read (every event), and of them all
	 * (the latest first event, the earliest last one), for the window */
	uint64_t path_first, path_last, range_first, range_last;
	uint64_t read_first, read_last; /* of every path: the earliest event, the latest */
	uint64_t windowed_out;
	uint64_t skipped_packets, skipped_bytes; /* outside the window, not read */
	/* Runtime events counted (ca_pid), not kept in the tables: the model's
	 * runtime scan gets them from replay_runtime, a second pass of the
	 * reader over the paths, each event's fields in the schema's order
	 * (strings not interned: 0). */
	bool runtime_not_kept;
	bool links_kept; /* runtime_not_kept, the tf and service events kept all the same */
	int (*replay_runtime)(ca_trace *t, void (*visit)(void *ctx, enum cs_event_id id,
		uint64_t time, int32_t vpid, int32_t vtid, const uint64_t *values), void *ctx);
	char **paths;
	size_t n_paths;
	/* the recordings read (ctf_recordings.h): one, unless merging was asked */
	char **recordings;
	size_t n_recordings;
	char replay_error[1024]; /* why replay_runtime failed, when not out of memory */
	/* damage in an event's values that stopped a reader (stages.c) */
	char damage[1024];
	/* A second visitor of the model's runtime pass (the load sets it
	 * while the model is built): the scan of the records the load was
	 * asked for (ca_load_options.records, one or several: each of them
	 * sees every event), which then cost no pass of their own. prebuilt:
	 * those records, until ca_records_build_options takes them. */
	void (*tee)(void *ctx, enum cs_event_id id, uint64_t time, int32_t vpid, int32_t vtid,
		const uint64_t *values);
	void *tee_ctx;
	/* the tee joins messages as it goes (records.c's streamed joins, a
	 * path followed): the runtime pass's events are converted in the
	 * decoding thread, which then has time to spare, not in the
	 * caller's, which has none (bench/README.md) */
	bool tee_joins;
	/* with tee_joins: what the tee needs of the model found in the
	 * decoding thread, for each runtime event (records.h's
	 * ca_records_event_object), and handed to the tee after the event's
	 * fields, values[field_count]; NULL: the tee finds it. scratch: the
	 * converting thread's CA_TEE_SCRATCH bytes, zeroed when a pass
	 * begins, where it may keep what it found */
	size_t (*tee_object)(const struct ca_model *m, void *scratch, enum cs_event_id id,
		int32_t pid, uint64_t time, const uint64_t *values);
	/* ca_load_options.records_only: the tee alone in that pass, no runtime
	 * count, no finding */
	bool records_only;
	struct ca_records *prebuilt[CA_MAX_RIDING];
	size_t n_prebuilt;
	struct ca_model *model;
	/* ca_load_options' clock corrections, copied (every pass needs them) */
	char **clock_hosts;
	int64_t *clock_corrections;
	size_t n_clock_corrections;
	/* the hosts of all the paths, by name, when there are several and
	 * several paths (ctf_native_handlers.hosts); NULL otherwise */
	struct ctf_host *hosts;
	size_t n_hosts;
	bool framing_checked; /* ca_load_options' */
};

/* Event id's column of field `name` (the schema's order). */
static inline const uint64_t *ca_table_column(const struct ca_trace *t, enum cs_event_id id,
	const char *name)
{
	return t->tables[id].field[cs_field_index(&cs_events[id], name)];
}

/* The rows of event id in the trace: its table's, or when runtime events
 * are not kept, how many there were. */
uint64_t ca_trace_rows_of(const ca_trace *t, enum cs_event_id id);

/* A GID field's value in the tables: ca_gid_key (src/ctf/gid_key.h). */

/* Interns s; 0 (and t->failed) when out of memory. */
uint64_t ca_trace_intern(ca_trace *t, const char *s);

/* A trace built row by row instead of loaded (tests of the model): string
 * fields take ca_trace_intern ids; ca_trace_finish (pipeline.c) sorts the
 * rows by time and builds the model, like ca_trace_load. */
ca_trace *ca_trace_new(void);
int ca_trace_add_row(ca_trace *t, enum cs_event_id id, uint64_t time, int32_t vpid,
	int32_t vtid, const char *procname, const uint64_t *values);
int ca_trace_finish(ca_trace *t, char *err, size_t err_size);

#endif
