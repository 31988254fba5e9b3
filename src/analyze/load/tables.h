/*
 * tables.h - what the two readers (tables_native.c, tables_bt.c) share
 * with the loader (tables.c). Private to libcaret-analyze.
 */
#ifndef CA_TABLES_H
#define CA_TABLES_H

#include <stdbool.h>
#include <stdint.h>

#include "caret/error.h"
#include "trace.h"


/* Packets to leave unread (ca_load_native): those wholly before `before`
 * or after `after` (trace clock ns), of runtime events only. */
struct ca_skip {
	uint64_t before, after;
};

/* Each reads the traces under path into t: CARET_OK, or the status with
 * *error (caret/error.h). ca_load_native: CARET_ERR_UNSUPPORTED when the
 * metadata has what the native reader does not read (babeltrace2 may). */
caret_status ca_load_native(ca_trace *t, const char *path, const struct ca_skip *skip,
	caret_error **error);
/* The runtime events of t's paths again (t->replay_runtime), through the
 * native reader: 0, or -1 (t->failed when out of memory). */
int ca_load_native_replay(ca_trace *t, void (*visit)(void *ctx, enum cs_event_id id,
	uint64_t time, int32_t vpid, int32_t vtid, const uint64_t *values), void *ctx);
/* The times of the first and the last event under path: 0, or non-zero
 * when the native reader cannot tell (then nothing is skipped). */
int ca_load_native_bounds(const char *path, uint64_t *first, uint64_t *last);
caret_status ca_load_babeltrace2(ca_trace *t, const char *path, caret_error **error);

/* The entry of vpid, added when new (named procname if not NULL). NULL
 * when out of memory. */
struct ca_pid *ca_load_pid(ca_trace *t, int32_t vpid, const char *procname);
/* Names process p by a thread's procname (the main thread's wins). */
void ca_load_name_process(ca_trace *t, struct ca_pid *p, const char *name, int32_t vpid,
	int32_t vtid, uint64_t time);
/* Event id is counted, not kept (a runtime event of a load that keeps
 * none): no row, its payload unread. */
bool ca_load_counts_only(const ca_trace *t, int id);
/* n events of id (-1: not in the schema) of process p, the first at
 * first, the last at last: counted, no row. */
void ca_load_count(ca_trace *t, int id, struct ca_pid *p, uint64_t n, uint64_t first,
	uint64_t last);
/* A new row of event id (-1: not in the schema, counted) at time, for
 * vpid/vtid; its fields are filled by the caller in t->tables[id] at *row.
 * NULL when there is no row to fill (t->failed when out of memory). */
uint64_t *ca_load_row(ca_trace *t, int id, uint64_t time, int32_t vpid, int32_t vtid,
	struct ca_pid *p, size_t *row);
/* The map of a reader's event class: found, or a fresh slot (*fresh) for
 * the caller to fill; NULL when every slot is taken. */
struct ca_class_map *ca_load_class(ca_trace *t, const void *cls, bool *fresh);
/* count events LTTng discarded in stream, and packets lost from it */
void ca_load_discarded(ca_trace *t, const char *stream, uint64_t events, uint64_t packets);

/* Whether event id's stage times (CARET's merged events: values, its
 * fields in the schema's order) are damaged: a stage after a later one or
 * after the event's own time. Then true, with t->damage saying so (stream:
 * the file it is in, NULL when not known). Other events: false. */
bool ca_load_stages_damaged(ca_trace *t, int id, uint64_t time, int32_t vpid, int32_t vtid,
	const uint64_t *values, const char *stream);
/* *error (freed first) in the words of t->damage, for the path read. */
void ca_load_say_damage(const ca_trace *t, const char *path, caret_error **error);
static inline bool ca_load_has_stages(int id)
{
	return id == CS_EV_ros2_caret_merged_callback_timing ||
		id == CS_EV_ros2_caret_merged_publish_timing;
}

/* The read stage of a load: the traces under paths read into tables (the
 * window applied, rows in time order); NULL with err. No model yet: the
 * pipeline builds the rest (pipeline/pipeline.c). */
ca_trace *ca_load_read(const char *const *paths, size_t n_paths, const ca_load_options *o,
	caret_error **error);
/* A trace built by hand (ca_trace_add_row): its rows sorted and checked,
 * 0 or -1 with err. */
int ca_load_finish_built(ca_trace *t, char *err, size_t err_size);
/* The tables and what the read made; not the model nor records (the
 * pipeline frees those first). */
void ca_load_free(ca_trace *t);
/* The recordings under the paths into t (recordings.c): CARET_OK, or
 * with *error when there are several and merge is false (or none). */
caret_status ca_load_recordings(ca_trace *t, const char *const *paths, size_t n_paths,
	bool merge, caret_error **error);

#endif
