/*
 * tables.c - the loader behind types/ca.h: events go into one
 * columnar table per schema event, strings interned, processes named. The
 * events come from one of two readers (tables_native.c, caret-c's own, by
 * default; tables_bt.c, through libbabeltrace2), each resolving field
 * positions once per event class.
 */
#include "ca.h"

#include <inttypes.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "strings.h"
#include "ctf_native.h"
#include "tables.h"
#include "thread_names.h"
#include "trace.h"
#include "vec.h"
#include "error_build.h"
#include "sort_r.h"

/* ---- strings ------------------------------------------------------------ */

uint64_t ca_trace_intern(ca_trace *t, const char *s)
{
	uint64_t id = ca_strings_intern(&t->strings, s);
	t->failed = t->failed || !id;
	return id;
}

const char *ca_trace_string(const ca_trace *t, uint64_t id)
{
	return t ? ca_strings_get(&t->strings, id) : NULL;
}

/* ---- event classes ---------------------------------------------------- */



/* ---- rows ------------------------------------------------------------- */

static bool grow_table(struct ca_table *tb, size_t fields)
{
	size_t cap = tb->cap ? 2 * tb->cap : 1024;
	void *p;
	if (!(p = realloc(tb->time, cap * sizeof *tb->time)))
		return false;
	tb->time = p;
	if (!(p = realloc(tb->vpid, cap * sizeof *tb->vpid)))
		return false;
	tb->vpid = p;
	if (!(p = realloc(tb->vtid, cap * sizeof *tb->vtid)))
		return false;
	tb->vtid = p;
	for (size_t f = 0; f < fields; f++) {
		if (!(p = realloc(tb->field[f], cap * sizeof *tb->field[f])))
			return false;
		tb->field[f] = p;
	}
	tb->cap = cap;
	return true;
}



/* ---- processes ---------------------------------------------------------- */

static bool grow_pid_index(ca_trace *t)
{
	size_t size = t->pid_index_size ? 2 * t->pid_index_size : 256;
	uint32_t *index = calloc(size, sizeof *index);
	if (!index)
		return false;
	for (size_t i = 0; i < t->n_pids; i++) {
		size_t k = ((uint32_t)t->pids[i].vpid * 2654435761u) & (size - 1);
		while (index[k])
			k = (k + 1) & (size - 1);
		index[k] = (uint32_t)i + 1;
	}
	free(t->pid_index);
	t->pid_index = index;
	t->pid_index_size = size;
	return true;
}

/* The entry of vpid, added when new: named procname if given (a trace
 * built by hand), else by its events (name_process). Events of one process
 * come in runs, so the last one found is tried first. */
struct ca_pid *ca_load_pid(ca_trace *t, int32_t vpid, const char *procname)
{
	if (t->last_pid < t->n_pids && t->pids[t->last_pid].vpid == vpid)
		return &t->pids[t->last_pid];
	if ((t->n_pids + 1) * 2 > t->pid_index_size && !grow_pid_index(t))
		return NULL;
	size_t k = ((uint32_t)vpid * 2654435761u) & (t->pid_index_size - 1);
	for (; t->pid_index[k]; k = (k + 1) & (t->pid_index_size - 1))
		if (t->pids[t->pid_index[k] - 1].vpid == vpid)
			return &t->pids[t->last_pid = t->pid_index[k] - 1];
	struct ca_pid *p = VEC_PUSH(t->pids, t->n_pids, t->cap_pids);
	if (!p)
		return NULL;
	p->vpid = vpid;
	p->procname = ca_trace_intern(t, procname ? procname : "");
	p->name_rank = procname ? 2 : -1;
	t->pid_index[k] = (uint32_t)t->n_pids;
	t->last_pid = t->n_pids - 1;
	return p;
}


uint64_t ca_trace_rows_of(const ca_trace *t, enum cs_event_id id)
{
	if (!t->runtime_not_kept || !cs_role_is_runtime(cs_events[id].role))
		return t->tables[id].rows;
	uint64_t n = 0;
	for (size_t i = 0; i < t->n_pids; i++)
		n += t->pids[i].per_event[id];
	return n;
}

/* The runtime events of the links of paths that are not topics, tf's and
 * services' (ca_load_options.keep_links): a small part of most traces. */
static bool is_link_event(int id)
{
	switch (id) {
	case CS_EV_ros2_caret_send_transform:
	case CS_EV_ros2_caret_tf_set_transform:
	case CS_EV_ros2_caret_tf_lookup_transform:
	case CS_EV_ros2_caret_tf_buffer_find_closest:
	case CS_EV_ros2_rmw_send_request:
	case CS_EV_ros2_rmw_take_request:
	case CS_EV_ros2_rmw_send_response:
	case CS_EV_ros2_rmw_take_response:
	case CS_EV_ros2_caret_rmw_send_request:
	case CS_EV_ros2_caret_rmw_take_request:
	case CS_EV_ros2_caret_rmw_send_response:
	case CS_EV_ros2_caret_rmw_take_response:
	case CS_EV_ros2_caret_client_callback_start:
	case CS_EV_ros2_caret_client_callback_end:
		return true;
	default:
		return false;
	}
}

bool ca_load_counts_only(const ca_trace *t, int id)
{
	return t->runtime_not_kept && cs_role_is_runtime(cs_events[id].role) &&
		!(t->links_kept && is_link_event(id));
}

void ca_load_count(ca_trace *t, int id, struct ca_pid *p, uint64_t n, uint64_t first,
	uint64_t last)
{
	p->events += n;
	if (!t->path_first || first < t->path_first)
		t->path_first = first;
	if (last > t->path_last)
		t->path_last = last;
	if (id < 0) {
		t->unknown += n;
		return;
	}
	p->per_event[id] += n;
	if (!p->first_time || first < p->first_time)
		p->first_time = first;
	if (last > p->last_time)
		p->last_time = last;
}

uint64_t *ca_load_row(ca_trace *t, int id, uint64_t time, int32_t vpid, int32_t vtid,
	struct ca_pid *p, size_t *row)
{
	ca_load_count(t, id, p, 1, time, time);
	if (id < 0 || ca_load_counts_only(t, id))
		return NULL; /* counted only: the model's second pass sees it */
	struct ca_table *tb = &t->tables[id];
	if (tb->rows == tb->cap && !grow_table(tb, cs_events[id].field_count)) {
		t->failed = true;
		return NULL;
	}
	size_t r = *row = tb->rows++;
	tb->time[r] = time;
	tb->vpid[r] = vpid;
	tb->vtid[r] = vtid;
	return tb->time; /* not NULL */
}





struct ca_class_map *ca_load_class(ca_trace *t, const void *cls, bool *fresh)
{
	size_t k = ((uintptr_t)cls >> 4) & (CA_CLASS_SLOTS - 1);
	for (size_t n = 0; n < CA_CLASS_SLOTS; n++, k = (k + 1) & (CA_CLASS_SLOTS - 1)) {
		struct ca_class_map *m = &t->classes[k];
		if (m->cls == cls || !m->cls) {
			*fresh = !m->cls;
			if (*fresh) /* written once: the line stays clean for other readers */
				m->cls = cls;
			return m;
		}
	}
	return NULL; /* more event classes than slots: counted as unknown */
}

/* A process is known by its main thread's name (rank 2), else by another
 * thread's (1), and by that of libcaret's control thread, which writes
 * first when a recording starts late, only when nothing else wrote (0);
 * -1: not named yet. */
void ca_load_name_process(ca_trace *t, struct ca_pid *p, const char *name, int32_t vpid,
	int32_t vtid, uint64_t time)
{
	if (!name)
		return;
	int rank = vtid == vpid ? 2 : strcmp(name, CARET_CONTROL_THREAD_NAME) ? 1 : 0;
	/* of one rank, the first name in time order (tallied events come
	 * after the others, out of order) */
	if (rank > p->name_rank || (rank == p->name_rank && time < p->name_time)) {
		p->procname = ca_trace_intern(t, name);
		p->name_rank = rank;
		p->name_time = time;
	}
}

void ca_load_discarded(ca_trace *t, const char *stream, uint64_t events, uint64_t packets)
{
	if (!events && !packets)
		return;
	uint64_t id = ca_trace_intern(t, stream ? stream : "(unnamed stream)");
	t->discarded += events;
	t->lost_packets += packets;
	for (size_t i = 0; i < t->n_discarded_streams; i++)
		if (t->discarded_streams[i].name == id) {
			t->discarded_streams[i].count += events;
			t->discarded_streams[i].packets += packets;
			return;
		}
	struct ca_discarded_stream *d = VEC_PUSH(t->discarded_streams,
		t->n_discarded_streams, t->cap_discarded_streams);
	if (!d) {
		t->failed = true;
		return;
	}
	d->name = id;
	d->count = events;
	d->packets = packets;
}

/* ---- time order --------------------------------------------------------- */

/* Traces given as separate paths are read one after the other; their rows
 * are merged into time order here (stable, so equal times keep trace order). */
static const uint64_t *sort_times;

static int by_time(const void *a, const void *b)
{
	size_t x = *(const size_t *)a, y = *(const size_t *)b;
	if (sort_times[x] != sort_times[y])
		return sort_times[x] < sort_times[y] ? -1 : 1;
	return x < y ? -1 : x > y;
}

static bool permute(void *column, const size_t *order, size_t rows, size_t size)
{
	char *copy = malloc(rows * size);
	if (!copy)
		return false;
	for (size_t r = 0; r < rows; r++)
		memcpy(copy + r * size, (char *)column + order[r] * size, size);
	memcpy(column, copy, rows * size);
	free(copy);
	return true;
}

static bool sort_table(struct ca_table *tb, size_t fields)
{
	size_t r = 1;
	while (r < tb->rows && tb->time[r - 1] <= tb->time[r])
		r++;
	if (r >= tb->rows)
		return true;
	size_t *order = malloc(tb->rows * sizeof *order);
	bool ok = order != NULL;
	for (r = 0; ok && r < tb->rows; r++)
		order[r] = r;
	if (ok) {
		sort_times = tb->time;
		qsort(order, tb->rows, sizeof *order, by_time);
	}
	ok = ok && permute(tb->vpid, order, tb->rows, sizeof *tb->vpid) &&
		permute(tb->vtid, order, tb->rows, sizeof *tb->vtid);
	for (size_t f = 0; ok && f < fields; f++)
		ok = permute(tb->field[f], order, tb->rows, sizeof *tb->field[f]);
	ok = ok && permute(tb->time, order, tb->rows, sizeof *tb->time);
	free(order);
	return ok;
}

/* After the rows: time order, then the model. */
static int by_stream_name(const void *a, const void *b, void *ctx)
{
	const ca_trace *sorting_names_of = ctx;
	const struct ca_discarded_stream *x = a, *y = b;
	return strcmp(ca_trace_string(sorting_names_of, x->name),
		ca_trace_string(sorting_names_of, y->name));
}

/* The tables in time order and the losses by stream; CARET_OK, or the
 * status with *error when they hold no event of the schema or memory ran
 * out. */
static caret_status finish_tables(ca_trace *t, bool sort, const char *path, caret_error **error)
{
	/* by name: the order their losses were met in depends on how far
	 * each stream was decoded ahead (ctf_pipe.c, tallied events) */
	caret_sort_r(t->discarded_streams, t->n_discarded_streams, sizeof *t->discarded_streams,
		by_stream_name, t);
	uint64_t known = t->events - t->unknown;
	for (size_t i = 0; i < CS_EVENT_COUNT && sort; i++)
		if (!sort_table(&t->tables[i], cs_events[i].field_count))
			t->failed = true;
	if (!t->failed && !known)
		caret_error_add(error, CARET_ERR_EMPTY, NULL, -1, NULL, "no ROS 2 or CARET events in "
			"the trace: path=%s (%" PRIu64 " events of other types)", path, t->unknown);
	else if (t->failed)
		caret_error_add(error, CARET_ERR_NO_MEMORY, NULL, -1, NULL,
			"out of memory while loading %s", path);
	return caret_error_status(*error);
}

ca_load_options ca_load_defaults(void)
{
	return (ca_load_options){ .reader = CA_READER_NATIVE, .since = NAN, .until = NAN,
		.strip_start = NAN, .strip_end = NAN, .keep_runtime = true };
}

static bool has_window(const ca_load_options *o)
{
	return !isnan(o->since) || !isnan(o->until) || !isnan(o->strip_start) ||
		!isnan(o->strip_end) || o->runtime_from_ns || o->runtime_until_ns;
}

/* Whether a runtime event at time (ns) is in the window. */
static bool in_window(const ca_trace *t, const ca_load_options *o, uint64_t time)
{
	double from_start = (double)(int64_t)(time - t->range_first) / 1e9;
	double to_end = (double)(int64_t)(t->range_last - time) / 1e9;
	return time >= o->runtime_from_ns && (!o->runtime_until_ns || time <= o->runtime_until_ns) &&
		(isnan(o->since) || from_start >= o->since) &&
		(isnan(o->until) || from_start < o->until) &&
		(isnan(o->strip_start) || from_start >= o->strip_start) &&
		(isnan(o->strip_end) || to_end >= o->strip_end);
}

/* A window that misses the trace (it starts past its end, or ends at its
 * start) is a mistake to say, not an empty result: CARET_ERR_INVALID. */
static caret_status check_window(const ca_trace *t, const ca_load_options *o,
	caret_error **error)
{
	if (isnan(o->since) && isnan(o->until) && isnan(o->strip_start) && isnan(o->strip_end))
		return CARET_OK; /* runtime_from_ns alone: a time of the clock, no span */
	double end = (double)(int64_t)(t->range_last - t->range_first) / 1e9, lo = 0,
	       hi = INFINITY;
	if (!isnan(o->since))
		lo = o->since;
	if (!isnan(o->strip_start) && o->strip_start > lo)
		lo = o->strip_start;
	if (!isnan(o->until))
		hi = o->until;
	if (!isnan(o->strip_end) && end - o->strip_end < hi)
		hi = end - o->strip_end;
	if (lo > end)
		caret_error_add(error, CARET_ERR_INVALID, NULL, -1, NULL, "the time window starts "
			"at %g s, past the trace's end at %.3f s (seconds from its first event)", lo, end);
	else if (hi <= 0)
		caret_error_add(error, CARET_ERR_INVALID, NULL, -1, NULL, "the time window ends at "
			"%g s, at the trace's start: no runtime event is in it", hi);
	else if (lo >= hi)
		caret_error_add(error, CARET_ERR_INVALID, NULL, -1, NULL, "the time window from %g s "
			"to %g s is empty (the trace lasts %.3f s)", lo, hi, end);
	return caret_error_status(*error);
}

/* Drops the runtime rows outside the window, and counts them out of their
 * process. */
static void apply_window(ca_trace *t, const ca_load_options *o)
{
	for (size_t i = 0; i < t->n_pids; i++)
		t->pids[i].first_time = t->pids[i].last_time = 0;
	for (int id = 0; id < CS_EVENT_COUNT; id++) {
		struct ca_table *tb = &t->tables[id];
		bool init = !cs_role_is_runtime(cs_events[id].role);
		size_t kept = 0;
		for (size_t r = 0; r < tb->rows; r++) {
			struct ca_pid *p = ca_load_pid(t, tb->vpid[r], NULL);
			if (!init && !in_window(t, o, tb->time[r])) {
				t->windowed_out++;
				if (p) {
					p->events--;
					p->per_event[id]--;
				}
				continue;
			}
			if (p && (!p->first_time || tb->time[r] < p->first_time))
				p->first_time = tb->time[r];
			if (p && tb->time[r] > p->last_time)
				p->last_time = tb->time[r];
			tb->time[kept] = tb->time[r];
			tb->vpid[kept] = tb->vpid[r];
			tb->vtid[kept] = tb->vtid[r];
			for (size_t f = 0; f < cs_events[id].field_count; f++)
				tb->field[f][kept] = tb->field[f][r];
			kept++;
		}
		tb->rows = kept;
	}
}

/* With a window, the native reader leaves the packets of runtime events
 * that lie wholly outside it unread. The window's range (the latest first
 * event, the earliest last one) is found first, from each stream's first
 * and last packets (ca_load_native_bounds), which also give each path's
 * range (ranges[2 i], ranges[2 i + 1]). A packet is read when it is within
 * a millisecond of the window: apply_window then drops its events
 * exactly. false: nothing is skipped (a trace the native reader cannot
 * tell the bounds of). */
static double larger(double a, double b) { return a > b ? a : b; }
static double smaller(double a, double b) { return a < b ? a : b; }

static bool plan_skip(const char *const *paths, size_t n, const ca_load_options *o,
	struct ca_skip *skip, uint64_t *ranges)
{
	uint64_t first = 0, last = 0;
	for (size_t i = 0; i < n; i++) {
		uint64_t *r = ranges + 2 * i;
		if (ca_load_native_bounds(paths[i], &r[0], &r[1]) != 0 || !r[0])
			return false;
		if (!i || r[0] > first)
			first = r[0];
		if (!i || r[1] < last)
			last = r[1];
	}
	double lo = 0, hi = INFINITY, margin = 1e-3; /* seconds from first */
	if (!isnan(o->since))
		lo = larger(lo, o->since);
	if (!isnan(o->strip_start))
		lo = larger(lo, o->strip_start);
	if (!isnan(o->until))
		hi = smaller(hi, o->until);
	if (!isnan(o->strip_end))
		hi = smaller(hi, (double)(int64_t)(last - first) / 1e9 - o->strip_end);
	skip->before = lo - margin <= 0 ? 0 : first + (uint64_t)((lo - margin) * 1e9);
	if (o->runtime_from_ns > skip->before)
		skip->before = o->runtime_from_ns;
	skip->after = hi + margin >= 1e9 ? UINT64_MAX :
		first + (uint64_t)(larger(hi + margin, 0) * 1e9);
	return true;
}

/* A load's trace, empty; when the runtime events are not kept, with the
 * paths their replay reads again. NULL with *error. */
static ca_trace *new_trace(const char *const *paths, size_t n_paths, const ca_load_options *o,
	caret_error **error)
{
	ca_trace *t = n_paths ? calloc(1, sizeof *t) : NULL;
	if (!t) {
		caret_error_add(error, n_paths ? CARET_ERR_NO_MEMORY : CARET_ERR_INVALID, NULL, -1,
			NULL, n_paths ? "out of memory" : "no trace path given");
		return NULL;
	}
	t->framing_checked = o->framing_checked;
	if (o->n_clock_corrections) {
		t->clock_hosts = calloc(o->n_clock_corrections, sizeof *t->clock_hosts);
		t->clock_corrections = malloc(o->n_clock_corrections * sizeof *t->clock_corrections);
		for (size_t i = 0; t->clock_hosts && t->clock_corrections &&
		     i < o->n_clock_corrections; i++) {
			t->clock_hosts[i] = strdup(o->clock_hosts[i]);
			t->clock_corrections[i] = o->clock_corrections[i];
			t->failed |= !t->clock_hosts[i];
			t->n_clock_corrections = i + 1;
		}
		t->failed |= !t->clock_hosts || !t->clock_corrections;
	}
	/* several paths are walked one after the other: a second pass's
	 * streamed joins would meet a message's take (one path) before its
	 * publish (a later one); the kept tables are put in one time order */
	if (o->keep_runtime || o->reader != CA_READER_NATIVE || has_window(o) || n_paths > 1)
		return t;
	t->runtime_not_kept = true;
	t->links_kept = o->keep_links;
	t->replay_runtime = ca_load_native_replay;
	if (!(t->paths = calloc(n_paths, sizeof *t->paths))) {
		caret_error_add(error, CARET_ERR_NO_MEMORY, NULL, -1, NULL, "out of memory");
		free(t);
		return NULL;
	}
	for (t->n_paths = 0; t->n_paths < n_paths; t->n_paths++)
		if (!(t->paths[t->n_paths] = strdup(paths[t->n_paths])))
			t->failed = true;
	return t;
}

/* One path read into t by the reader asked, or by babeltrace2 when the
 * native reader does not read it (unless the runtime events are not
 * kept: the second pass is the native reader's; CARET_ERR_UNSUPPORTED
 * then). */
static caret_status read_path(ca_trace *t, const char *path, const ca_load_options *o,
	const struct ca_skip *skip, caret_error **error)
{
	/* event classes are the reader's, freed after each path */
	memset(t->classes, 0, sizeof t->classes);
	t->path_first = t->path_last = 0;
	if (o->reader != CA_READER_NATIVE)
		return ca_load_babeltrace2(t, path, error);
	caret_status status = ca_load_native(t, path, skip, error);
	if (status != CARET_ERR_UNSUPPORTED || t->runtime_not_kept)
		return status;
	/* metadata the native reader does not know: babeltrace2 may */
	snprintf(t->reader_note, sizeof t->reader_note, "read through babeltrace2: %s",
		caret_error_message(*error));
	caret_error_free(*error);
	*error = NULL;
	memset(t->classes, 0, sizeof t->classes);
	status = ca_load_babeltrace2(t, path, error);
	if (status != CARET_OK && !t->failed) { /* its internals say less than why */
		caret_error_free(*error);
		*error = NULL;
		caret_error_add(error, status, NULL, -1, NULL, "cannot read trace: "
			"path=%s: %s; babeltrace2 cannot read it either", path,
			t->reader_note + strlen("read through babeltrace2: "));
	}
	return status;
}

static int by_host_name(const void *a, const void *b)
{
	return strcmp(((const struct ctf_host *)a)->name, ((const struct ctf_host *)b)->name);
}

/* Several paths from several hosts: every walk puts its hosts on the same
 * first host (a path that cannot be read is said by its walk). -1 out of
 * memory. */
static int plan_hosts(ca_trace *t, const char *const *paths, size_t n_paths)
{
	struct ctf_host *hosts = NULL;
	size_t n = 0;
	for (size_t i = 0; i < n_paths; i++) {
		char err[512];
		if (ctf_hosts_of(paths[i], &hosts, &n, err, sizeof err) != 0 &&
		    !strcmp(err, "out of memory")) {
			free(hosts);
			return -1;
		}
	}
	if (n < 2) {
		free(hosts);
		return 0;
	}
	qsort(hosts, n, sizeof *hosts, by_host_name);
	t->hosts = hosts;
	t->n_hosts = n;
	return 0;
}

ca_trace *ca_load_read(const char *const *paths, size_t n_paths, const ca_load_options *o,
	caret_error **error)
{
	ca_trace *t = new_trace(paths, n_paths, o, error);
	struct ca_skip skip;
	uint64_t *ranges = NULL;
	bool skipping = false;
	if (!t)
		return NULL;
	if (ca_load_recordings(t, paths, n_paths, o->merge, error) != CARET_OK) {
		ca_load_free(t);
		return NULL;
	}
	if (o->reader == CA_READER_NATIVE && n_paths > 1 && plan_hosts(t, paths, n_paths) != 0) {
		caret_error_add(error, CARET_ERR_NO_MEMORY, NULL, -1, NULL, "out of memory");
		ca_load_free(t);
		return NULL;
	}
	if (o->reader == CA_READER_NATIVE && has_window(o) &&
	    (ranges = malloc(2 * n_paths * sizeof *ranges)))
		skipping = plan_skip(paths, n_paths, o, &skip, ranges);
	for (size_t i = 0; i < n_paths; i++) {
		caret_status status = read_path(t, paths[i], o, skipping ? &skip : NULL, error);
		if (status == CARET_ERR_UNSUPPORTED && t->runtime_not_kept) {
			/* babeltrace2 must read it, and the second pass is the
			 * native reader's: keep the runtime events after all */
			ca_load_options keep = *o;
			keep.keep_runtime = true;
			caret_error_free(*error);
			*error = NULL;
			ca_load_free(t);
			free(ranges);
			return ca_load_read(paths, n_paths, &keep, error);
		}
		if (status != CARET_OK) {
			if (t->failed) { /* what failed first: memory */
				caret_error_free(*error);
				*error = NULL;
				caret_error_add(error, CARET_ERR_NO_MEMORY, NULL, -1, NULL,
					"out of memory while loading %s", paths[i]);
			}
			ca_load_free(t);
			free(ranges);
			return NULL;
		}
		if (skipping) { /* its first or last event may be in a packet left unread */
			t->path_first = ranges[2 * i];
			t->path_last = ranges[2 * i + 1];
		}
		if (!i || t->path_first < t->read_first)
			t->read_first = t->path_first;
		if (!i || t->path_last > t->read_last)
			t->read_last = t->path_last;
		/* the original's common range: the latest start, the earliest end */
		if (!i || t->path_first > t->range_first)
			t->range_first = t->path_first;
		if (!i || t->path_last < t->range_last)
			t->range_last = t->path_last;
	}
	bool sort = n_paths > 1;
	if (has_window(o) && check_window(t, o, error) != CARET_OK) {
		ca_load_free(t);
		free(ranges);
		return NULL;
	}
	if (has_window(o)) {
		for (size_t i = 0; sort && i < CS_EVENT_COUNT; i++) /* time order first */
			if (!sort_table(&t->tables[i], cs_events[i].field_count))
				t->failed = true;
		apply_window(t, o);
		sort = false;
	}
	free(ranges);
	if (finish_tables(t, sort, paths[0], error) != CARET_OK) {
		ca_load_free(t);
		return NULL;
	}
	return t;
}

uint64_t ca_trace_windowed_out(const ca_trace *t)
{
	return t ? t->windowed_out : 0;
}

uint64_t ca_trace_skipped_packets(const ca_trace *t, uint64_t *bytes)
{
	if (bytes)
		*bytes = t ? t->skipped_bytes : 0;
	return t ? t->skipped_packets : 0;
}

void ca_trace_read_span(const ca_trace *t, uint64_t *first, uint64_t *last)
{
	*first = t ? t->read_first : 0;
	*last = t ? t->read_last : 0;
}

const char *ca_trace_reader_note(const ca_trace *t)
{
	return t && t->reader_note[0] ? t->reader_note : NULL;
}

/* ---- traces built by hand (tests of the model) ------------------------- */

ca_trace *ca_trace_new(void)
{
	return calloc(1, sizeof(ca_trace));
}

int ca_trace_add_row(ca_trace *t, enum cs_event_id id, uint64_t time, int32_t vpid,
	int32_t vtid, const char *procname, const uint64_t *values)
{
	struct ca_pid *p = ca_load_pid(t, vpid, procname);
	size_t r;
	t->events++;
	if (!p || !ca_load_row(t, (int)id, time, vpid, vtid, p, &r))
		return -1;
	for (size_t f = 0; f < cs_events[id].field_count; f++)
		t->tables[id].field[f][r] = values[f];
	return t->failed ? -1 : 0;
}

int ca_load_finish_built(ca_trace *t, char *err, size_t err_size)
{
	caret_error *e = NULL;
	caret_status status = finish_tables(t, true, "(built)", &e);
	if (status)
		snprintf(err, err_size, "%s", caret_error_message(e));
	caret_error_free(e);
	return status ? -1 : 0;
}

void ca_load_free(ca_trace *t)
{
	if (!t)
		return;
	for (size_t i = 0; i < CS_EVENT_COUNT; i++) {
		struct ca_table *tb = &t->tables[i];
		free(tb->time);
		free(tb->vpid);
		free(tb->vtid);
		for (size_t f = 0; f < CS_MAX_FIELDS; f++)
			free(tb->field[f]);
	}
	ca_strings_free(&t->strings);
	free(t->pids);
	free(t->pid_index);
	free(t->discarded_streams);
	for (size_t i = 0; i < t->n_paths; i++)
		free(t->paths[i]);
	free(t->paths);
	free(t->hosts);
	for (size_t i = 0; i < t->n_clock_corrections; i++)
		free(t->clock_hosts[i]);
	free(t->clock_hosts);
	free(t->clock_corrections);
	for (size_t i = 0; i < t->n_recordings; i++)
		free(t->recordings[i]);
	free(t->recordings);
	free(t);
}

uint64_t ca_trace_event_count(const ca_trace *t) { return t ? t->events : 0; }
uint64_t ca_trace_unknown_count(const ca_trace *t) { return t ? t->unknown : 0; }
uint64_t ca_trace_discarded(const ca_trace *t) { return t ? t->discarded : 0; }

static const struct ca_table *table_of(const ca_trace *t, const char *name,
	const struct cs_event **ev)
{
	*ev = cs_event_by_full_name(name);
	return t && *ev ? &t->tables[(*ev)->id] : NULL;
}

size_t ca_trace_rows(const ca_trace *t, const char *name)
{
	const struct cs_event *ev;
	const struct ca_table *tb = table_of(t, name, &ev);
	return tb ? (size_t)ca_trace_rows_of(t, ev->id) : 0;
}

uint64_t ca_trace_time(const ca_trace *t, const char *name, size_t row)
{
	const struct cs_event *ev;
	const struct ca_table *tb = table_of(t, name, &ev);
	return tb && row < tb->rows ? tb->time[row] : 0;
}

int64_t ca_trace_vpid(const ca_trace *t, const char *name, size_t row)
{
	const struct cs_event *ev;
	const struct ca_table *tb = table_of(t, name, &ev);
	return tb && row < tb->rows ? tb->vpid[row] : 0;
}

uint64_t ca_trace_field(const ca_trace *t, const char *name, size_t row,
	const char *field)
{
	const struct cs_event *ev;
	const struct ca_table *tb = table_of(t, name, &ev);
	int f = ev ? cs_field_index(ev, field) : -1;
	return tb && f >= 0 && row < tb->rows ? tb->field[f][row] : 0;
}

size_t ca_trace_discarded_streams(const ca_trace *t)
{
	return t ? t->n_discarded_streams : 0;
}

const char *ca_trace_discarded_stream(const ca_trace *t, size_t i, uint64_t *count)
{
	if (!t || i >= t->n_discarded_streams) {
		if (count)
			*count = 0;
		return NULL;
	}
	if (count)
		*count = t->discarded_streams[i].count;
	return ca_trace_string(t, t->discarded_streams[i].name);
}
