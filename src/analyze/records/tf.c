/*
 * tf.c - ca_tf_*: data followed through tf. Each transform a buffer took
 * in (tf_set_transform, frames by the buffer's frame numbers) is matched
 * to the send_transform that broadcast it (stamp and frames); each lookup
 * is matched to the transforms it read: on every non-static edge of the
 * tree between its two frames, the one its tf_buffer_find_closest event
 * names, or in a trace without them the latest one the buffer held at or
 * before the stamp the lookup returned (docs/latency.md, "tf").
 */
#include <stdio.h>
#include <stdlib.h>

#include "model.h"
#include "records.h"
#include "trace.h"
#include "vec.h"
#include "sort_r.h"

#define MAX_DEPTH 64 /* frames from a leaf to the root, at most */

struct frame_name {
	int64_t pid;
	uint64_t buffer, number, name;
};

/* What one edge of a lookup read (tf_buffer_find_closest): frames as
 * string ids; newer_stamp 0 when tf2 used one transform. */
struct edge_read {
	int64_t pid, tid;
	uint64_t time, child, stamp, newer_stamp;
	size_t lookup; /* the lookup it was read in, CA_NONE until placed */
};

struct ca_tf {
	CA_ARRAY(ca_tf_send, sends);
	CA_ARRAY(ca_tf_set, sets);
	CA_ARRAY(ca_tf_lookup, lookups);
	CA_ARRAY(ca_tf_use, uses);
	CA_ARRAY(struct frame_name, names);
	CA_ARRAY(struct edge_read, reads); /* by lookup, then child */
};

static int by_frame_number(const void *a, const void *b)
{
	const struct frame_name *x = a, *y = b;
	if (x->pid != y->pid)
		return x->pid < y->pid ? -1 : 1;
	if (x->buffer != y->buffer)
		return x->buffer < y->buffer ? -1 : 1;
	return (x->number > y->number) - (x->number < y->number);
}

/* The frame a buffer's number names (a string id), 0 if never announced. */
static uint64_t frame_of(const ca_tf *tf, int64_t pid, uint64_t buffer, uint64_t number)
{
	struct frame_name key = { pid, buffer, number, 0 };
	if (!tf->n_names)
		return 0;
	const struct frame_name *f = bsearch(&key, tf->names, tf->n_names, sizeof key,
		by_frame_number);
	return f ? f->name : 0;
}

static int send_key(const ca_tf_send *s, uint64_t stamp, uint64_t frame, uint64_t child)
{
	if (s->stamp != stamp)
		return s->stamp < stamp ? -1 : 1;
	if (s->frame != frame)
		return s->frame < frame ? -1 : 1;
	return (s->child > child) - (s->child < child);
}

static int by_send_key(const void *a, const void *b)
{
	const ca_tf_send *y = b;
	int c = send_key(a, y->stamp, y->frame, y->child);
	return c ? c : (((const ca_tf_send *)a)->time > y->time) -
		(((const ca_tf_send *)a)->time < y->time);
}

/* The send of (stamp, frame, child) made last at or before time. */
static size_t send_of(const ca_tf *tf, uint64_t stamp, uint64_t frame, uint64_t child,
	uint64_t time)
{
	size_t lo = 0, hi = tf->n_sends, found = CA_NONE;
	while (lo < hi) { /* first send with a key >= the one sought */
		size_t mid = lo + (hi - lo) / 2;
		if (send_key(&tf->sends[mid], stamp, frame, child) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (; lo < tf->n_sends && !send_key(&tf->sends[lo], stamp, frame, child); lo++)
		if (tf->sends[lo].time <= time)
			found = lo;
	return found;
}

/* The same transform, sent or taken (an initialization event may come live
 * and replayed, from another thread, in one trace). */
static bool same_send(const ca_tf_send *a, const ca_tf_send *b)
{
	return a->pid == b->pid && a->broadcaster == b->broadcaster && a->frame == b->frame &&
		a->child == b->child && a->stamp == b->stamp && a->time == b->time &&
		a->is_static == b->is_static;
}

static bool same_set(const ca_tf_set *a, const ca_tf_set *b)
{
	return a->pid == b->pid && a->buffer == b->buffer && a->frame == b->frame &&
		a->child == b->child && a->stamp == b->stamp && a->time == b->time &&
		a->is_static == b->is_static;
}

/* The edges lookups read. tf2 uses the newer transform only when it
 * interpolates: the parent did not change between the two. */
static int load_reads(const ca_trace *t, ca_tf *tf)
{
	enum cs_event_id id = CS_EV_ros2_caret_tf_buffer_find_closest;
	const struct ca_table *s = &t->tables[id];
	const uint64_t *buffer = ca_table_column(t, id, "tf_buffer_core");
	const uint64_t *frame = ca_table_column(t, id, "frame_id_compact");
	const uint64_t *child = ca_table_column(t, id, "child_frame_id_compact");
	const uint64_t *stamp = ca_table_column(t, id, "stamp");
	const uint64_t *newer_frame = ca_table_column(t, id, "frame_id_compact_");
	const uint64_t *newer_stamp = ca_table_column(t, id, "stamp_");
	for (size_t i = 0; i < s->rows; i++) {
		struct edge_read *r = VEC_PUSH(tf->reads, tf->n_reads, tf->cap_reads);
		if (!r)
			return -1;
		bool interpolated = newer_stamp[i] && newer_frame[i] == frame[i] &&
			newer_stamp[i] != stamp[i];
		*r = (struct edge_read){ s->vpid[i], s->vtid[i], s->time[i],
			frame_of(tf, s->vpid[i], buffer[i], child[i]), stamp[i],
			interpolated ? newer_stamp[i] : 0, CA_NONE };
	}
	return 0;
}

static int load(const ca_trace *t, ca_tf *tf)
{
	const struct ca_table *n = &t->tables[CS_EV_ros2_caret_init_tf_buffer_frame_id_compact];
	const uint64_t *buffer = ca_table_column(t, CS_EV_ros2_caret_init_tf_buffer_frame_id_compact,
		"tf_buffer_core");
	const uint64_t *name = ca_table_column(t, CS_EV_ros2_caret_init_tf_buffer_frame_id_compact,
		"frame_id");
	const uint64_t *number = ca_table_column(t, CS_EV_ros2_caret_init_tf_buffer_frame_id_compact,
		"frame_id_compact");
	for (size_t i = 0; i < n->rows; i++) {
		struct frame_name *f = VEC_PUSH(tf->names, tf->n_names, tf->cap_names);
		if (!f)
			return -1;
		*f = (struct frame_name){ n->vpid[i], buffer[i], number[i], name[i] };
	}
	if (tf->n_names > 1)
		qsort(tf->names, tf->n_names, sizeof *tf->names, by_frame_number);

	/* dynamic transforms at their events' time, static ones (initialization
	 * events, maybe replayed) at their init_timestamp */
	for (int is_static = 0; is_static < 2; is_static++) {
		enum cs_event_id id = is_static ? CS_EV_ros2_caret_send_static_transform :
			CS_EV_ros2_caret_send_transform;
		const struct ca_table *s = &t->tables[id];
		const uint64_t *broadcaster = ca_table_column(t, id, "tf_broadcaster");
		const uint64_t *stamp = ca_table_column(t, id, "stamp"), *frame = ca_table_column(t, id, "frame_id");
		const uint64_t *child = ca_table_column(t, id, "child_frame_id");
		const uint64_t *at = is_static ? ca_table_column(t, id, "init_timestamp") : s->time;
		for (size_t i = 0; i < s->rows; i++) {
			ca_tf_send *x = VEC_PUSH(tf->sends, tf->n_sends, tf->cap_sends);
			if (!x)
				return -1;
			*x = (ca_tf_send){ s->vpid[i], s->vtid[i], broadcaster[i], frame[i], child[i],
				stamp[i], at[i], is_static, CA_NONE };
		}
	}
	if (tf->n_sends > 1)
		qsort(tf->sends, tf->n_sends, sizeof *tf->sends, by_send_key);
	size_t kept = 0;
	for (size_t i = 0; i < tf->n_sends; i++) /* sorted: repeats are neighbours */
		if (!kept || !same_send(&tf->sends[kept - 1], &tf->sends[i]))
			tf->sends[kept++] = tf->sends[i];
	tf->n_sends = kept;

	for (int is_static = 0; is_static < 2; is_static++) {
		enum cs_event_id id = is_static ? CS_EV_ros2_caret_tf_set_static_transform :
			CS_EV_ros2_caret_tf_set_transform;
		const struct ca_table *s = &t->tables[id];
		const uint64_t *stamp = ca_table_column(t, id, "stamp");
		const uint64_t *frame = ca_table_column(t, id, "frame_id_compact");
		const uint64_t *child = ca_table_column(t, id, "child_frame_id_compact");
		const uint64_t *at = is_static ? ca_table_column(t, id, "init_timestamp") : s->time;
		buffer = ca_table_column(t, id, "tf_buffer_core");
		for (size_t i = 0; i < s->rows; i++) {
			ca_tf_set *x = VEC_PUSH(tf->sets, tf->n_sets, tf->cap_sets);
			if (!x)
				return -1;
			uint64_t f = frame_of(tf, s->vpid[i], buffer[i], frame[i]);
			uint64_t c = frame_of(tf, s->vpid[i], buffer[i], child[i]);
			*x = (ca_tf_set){ s->vpid[i], buffer[i], f, c, stamp[i], at[i], is_static,
				f && c ? send_of(tf, stamp[i], f, c, at[i]) : CA_NONE };
		}
	}

	enum cs_event_id id = CS_EV_ros2_caret_tf_lookup_transform;
	const struct ca_table *s = &t->tables[id];
	const uint64_t *frame, *child, *stamp;
	buffer = ca_table_column(t, id, "tf_buffer_core");
	frame = ca_table_column(t, id, "target_frame_id_compact");
	child = ca_table_column(t, id, "source_frame_id_compact");
	const uint64_t *asked = ca_table_column(t, id, "lookup_time");
	stamp = ca_table_column(t, id, "stamp");
	for (size_t i = 0; i < s->rows; i++) {
		ca_tf_lookup *x = VEC_PUSH(tf->lookups, tf->n_lookups, tf->cap_lookups);
		if (!x)
			return -1;
		*x = (ca_tf_lookup){ s->vpid[i], s->vtid[i], buffer[i],
			frame_of(tf, s->vpid[i], buffer[i], frame[i]),
			frame_of(tf, s->vpid[i], buffer[i], child[i]), asked[i], stamp[i], s->time[i],
			CA_NONE };
	}
	return load_reads(t, tf);
}

/* ---- what a lookup read ---------------------------------------------- */

/* The sets of one buffer by (child, stamp): a child frame has one parent. */
static int by_buffer_child_stamp(const void *a, const void *b)
{
	const ca_tf_set *x = a, *y = b;
	if (x->pid != y->pid)
		return x->pid < y->pid ? -1 : 1;
	if (x->buffer != y->buffer)
		return x->buffer < y->buffer ? -1 : 1;
	if (x->child != y->child)
		return x->child < y->child ? -1 : 1;
	if (x->stamp != y->stamp)
		return x->stamp < y->stamp ? -1 : 1;
	return (x->time > y->time) - (x->time < y->time);
}

/* The first set of (pid, buffer, child) with a stamp at or after `stamp`,
 * or n. */
static size_t first_from(const ca_tf *tf, int64_t pid, uint64_t buffer, uint64_t child,
	uint64_t stamp)
{
	ca_tf_set key = { pid, buffer, 0, child, stamp, 0, false, 0 };
	size_t lo = 0, hi = tf->n_sets;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (by_buffer_child_stamp(&tf->sets[mid], &key) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < tf->n_sets && tf->sets[lo].pid == pid && tf->sets[lo].buffer == buffer &&
		tf->sets[lo].child == child ? lo : tf->n_sets;
}

/* The first set of (pid, buffer, child), or n. */
static size_t first_of_child(const ca_tf *tf, int64_t pid, uint64_t buffer, uint64_t child)
{
	return first_from(tf, pid, buffer, child, 0);
}

/* The frames from `frame` up to the root of the buffer's tree (as the
 * buffer knew them at `time`), frame first; returns how many. */
static size_t ancestors(const ca_tf *tf, const ca_tf_lookup *l, uint64_t frame, uint64_t *up)
{
	size_t n = 0;
	while (frame && n < MAX_DEPTH) {
		up[n++] = frame;
		size_t i = first_of_child(tf, l->pid, l->buffer, frame);
		frame = i < tf->n_sets && tf->sets[i].time <= l->time ? tf->sets[i].frame : 0;
		for (size_t k = 0; k < n && frame; k++)
			if (up[k] == frame)
				frame = 0; /* a cycle: stop */
	}
	return n;
}

/* ---- what a lookup's events say it read -------------------------------- */

static int lookup_by_thread_time(const void *a, const void *b, void *ctx)
{
	const ca_tf_lookup *order_lookups = ctx;
	const ca_tf_lookup *x = &order_lookups[*(const size_t *)a];
	const ca_tf_lookup *y = &order_lookups[*(const size_t *)b];
	return ca_thread_time_order(x->pid, x->tid, x->time, y->pid, y->tid, y->time);
}

static int read_by_thread_time(const void *a, const void *b)
{
	const struct edge_read *x = a, *y = b;
	return ca_thread_time_order(x->pid, x->tid, x->time, y->pid, y->tid, y->time);
}

static int read_by_lookup_child(const void *a, const void *b)
{
	const struct edge_read *x = a, *y = b;
	if (x->lookup != y->lookup)
		return x->lookup < y->lookup ? -1 : 1;
	if (x->child != y->child)
		return x->child < y->child ? -1 : 1;
	return (x->time > y->time) - (x->time < y->time);
}

/* The tracer emits a lookup's reads just before the lookup, in its thread:
 * each read belongs to the first lookup of its thread at or after it. */
static int place_reads(ca_tf *tf)
{
	if (!tf->n_reads)
		return 0;
	size_t *order = malloc((tf->n_lookups + 1) * sizeof *order);
	if (!order)
		return -1;
	for (size_t i = 0; i < tf->n_lookups; i++)
		order[i] = i;
	caret_sort_r(order, tf->n_lookups, sizeof *order, lookup_by_thread_time, tf->lookups);
	qsort(tf->reads, tf->n_reads, sizeof *tf->reads, read_by_thread_time);
	size_t k = 0;
	for (size_t i = 0; i < tf->n_reads; i++) {
		struct edge_read *r = &tf->reads[i];
		while (k < tf->n_lookups && ca_thread_time_order(tf->lookups[order[k]].pid,
			tf->lookups[order[k]].tid, tf->lookups[order[k]].time, r->pid, r->tid,
			r->time) < 0)
			k++;
		if (k < tf->n_lookups && tf->lookups[order[k]].pid == r->pid &&
		    tf->lookups[order[k]].tid == r->tid)
			r->lookup = order[k];
	}
	free(order);
	qsort(tf->reads, tf->n_reads, sizeof *tf->reads, read_by_lookup_child);
	return 0;
}

/* The first read of lookup k on the edge of `child`, NULL when none;
 * *any: whether lookup k has reads at all (a trace that has them). */
static const struct edge_read *read_of(const ca_tf *tf, size_t k, uint64_t child, bool *any)
{
	size_t lo = 0, hi = tf->n_reads;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (tf->reads[mid].lookup < k)
			lo = mid + 1;
		else
			hi = mid;
	}
	*any = lo < tf->n_reads && tf->reads[lo].lookup == k;
	for (; lo < tf->n_reads && tf->reads[lo].lookup == k; lo++)
		if (tf->reads[lo].child == child)
			return &tf->reads[lo];
	return NULL;
}

/* The set of (child, stamp) a lookup read: the last one the buffer took
 * by the lookup, or the first after it (its event is emitted once the
 * set returned, and the lookup's thread can take the mutex first). */
static size_t set_read(const ca_tf *tf, const ca_tf_lookup *l, uint64_t child, uint64_t stamp)
{
	size_t found = CA_NONE;
	for (size_t i = first_from(tf, l->pid, l->buffer, child, stamp);
	     i < tf->n_sets && tf->sets[i].pid == l->pid && tf->sets[i].buffer == l->buffer &&
	     tf->sets[i].child == child && tf->sets[i].stamp == stamp; i++)
		if (!tf->sets[i].is_static && (found == CA_NONE || tf->sets[i].time <= l->time))
			found = i;
	return found;
}

/* The set an edge (its child) gave a lookup: the latest the buffer held at
 * the lookup with a stamp at or before the one returned; static edges
 * give none (their stamp does not count). */
static size_t used_set(const ca_tf *tf, const ca_tf_lookup *l, uint64_t child)
{
	size_t used = CA_NONE;
	for (size_t i = first_of_child(tf, l->pid, l->buffer, child);
	     i < tf->n_sets && tf->sets[i].pid == l->pid && tf->sets[i].buffer == l->buffer &&
	     tf->sets[i].child == child && tf->sets[i].stamp <= l->stamp; i++)
		if (tf->sets[i].time <= l->time)
			used = tf->sets[i].is_static ? CA_NONE : i;
	return used;
}

static int link_lookups(ca_tf *tf)
{
	uint64_t a[MAX_DEPTH], b[MAX_DEPTH];
	for (size_t k = 0; k < tf->n_lookups; k++) {
		const ca_tf_lookup *l = &tf->lookups[k];
		size_t na = ancestors(tf, l, l->target, a), nb = ancestors(tf, l, l->source, b);
		/* the edges below the common ancestor, on both sides */
		size_t common_a = na, common_b = nb;
		for (size_t i = 0; i < na && common_a == na; i++)
			for (size_t j = 0; j < nb; j++)
				if (a[i] == b[j]) {
					common_a = i;
					common_b = j;
					break;
				}
		/* No common frame: an edge between the two was set before the
		 * recording (a static one, sent once at start). The lookup
		 * returned, so the path runs through both chains to their tops. */
		for (int side = 0; side < 2; side++) {
			const uint64_t *chain = side ? b : a;
			for (size_t i = 0; i < (side ? common_b : common_a); i++) {
				bool traced;
				const struct edge_read *r = read_of(tf, k, chain[i], &traced);
				/* a traced lookup without a read of this edge read a
				 * static one (tf2's StaticCache is not hooked) */
				size_t set = r ? set_read(tf, l, r->child, r->stamp) :
					traced ? CA_NONE : used_set(tf, l, chain[i]);
				size_t newer = r && r->newer_stamp ?
					set_read(tf, l, r->child, r->newer_stamp) : CA_NONE;
				ca_tf_use *u = set == CA_NONE ? NULL :
					VEC_PUSH(tf->uses, tf->n_uses, tf->cap_uses);
				if (set != CA_NONE && !u)
					return -1;
				if (u)
					*u = (ca_tf_use){ k, set, newer, r != NULL };
			}
		}
	}
	return 0;
}

ca_tf *ca_tf_build(const ca_trace *t, const ca_records *records, char *err, size_t err_size)
{
	if (t->runtime_not_kept && !t->links_kept) {
		snprintf(err, err_size, "cannot follow transforms: the trace was loaded without "
			"its runtime events (keep_runtime and keep_links false)");
		return NULL;
	}
	ca_tf *tf = calloc(1, sizeof *tf);
	if (!tf || load(t, tf) != 0)
		goto oom;
	for (size_t i = 0; records && i < tf->n_sends; i++)
		tf->sends[i].run = ca_records_run_at(records, tf->sends[i].pid, tf->sends[i].tid,
			tf->sends[i].time);
	for (size_t i = 0; records && i < tf->n_lookups; i++)
		tf->lookups[i].run = ca_records_run_at(records, tf->lookups[i].pid,
			tf->lookups[i].tid, tf->lookups[i].time);
	/* by buffer, child frame and stamp: how the edges are searched */
	if (tf->n_sets > 1)
		qsort(tf->sets, tf->n_sets, sizeof *tf->sets, by_buffer_child_stamp);
	size_t kept = 0;
	for (size_t i = 0; i < tf->n_sets; i++) /* sorted: repeats are neighbours */
		if (!kept || !same_set(&tf->sets[kept - 1], &tf->sets[i]))
			tf->sets[kept++] = tf->sets[i];
	tf->n_sets = kept;
	if (place_reads(tf) != 0 || link_lookups(tf) != 0)
		goto oom;
	return tf;
oom:
	snprintf(err, err_size, "out of memory");
	ca_tf_free(tf);
	return NULL;
}

size_t ca_tf_sends(const ca_tf *tf, const ca_tf_send **sends)
{
	*sends = tf ? tf->sends : NULL;
	return tf ? tf->n_sends : 0;
}

size_t ca_tf_sets(const ca_tf *tf, const ca_tf_set **sets)
{
	*sets = tf ? tf->sets : NULL;
	return tf ? tf->n_sets : 0;
}

size_t ca_tf_lookups(const ca_tf *tf, const ca_tf_lookup **lookups)
{
	*lookups = tf ? tf->lookups : NULL;
	return tf ? tf->n_lookups : 0;
}

size_t ca_tf_uses(const ca_tf *tf, const ca_tf_use **uses)
{
	*uses = tf ? tf->uses : NULL;
	return tf ? tf->n_uses : 0;
}

void ca_tf_free(ca_tf *tf)
{
	if (!tf)
		return;
	free(tf->sends);
	free(tf->sets);
	free(tf->lookups);
	free(tf->uses);
	free(tf->names);
	free(tf->reads);
	free(tf);
}
