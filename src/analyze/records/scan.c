/*
 * scan.c - one pass over the runtime events in time order (a merge of
 * the per-event tables), with the state of each thread: the callback runs
 * open in it (callbacks can nest: a callback that spins an executor) and
 * the publish whose stages (rclcpp, rcl, DDS write, source stamp) are
 * still coming, and (Jazzy) the intra-process publish whose ring-buffer
 * enqueues follow. Merged events carry their stages and need no state.
 */
#include <stdlib.h>
#include <string.h>

#include "records.h"
#include "vec.h"

#define MAX_NESTING 16

struct thread {
	int32_t pid, tid;
	uint64_t open_address[MAX_NESTING];
	size_t open_run[MAX_NESTING];
	uint64_t open_start[MAX_NESTING]; /* latencies_only: the open runs as started */
	struct ca_run_slot *open_slot[MAX_NESTING]; /* latencies_only with runs: their slots */
	size_t open_callback[MAX_NESTING];
	int depth;
	size_t publishing; /* publish with stages to come, or CA_NONE */
	size_t intra_publishing; /* intra-process publish being enqueued, or CA_NONE */
};

struct threads {
	struct ca_pair_map index; /* (pid, tid) -> slots[] */
	CA_ARRAY(struct thread, slots);
	uint64_t last_key; /* the thread asked for last (events come in runs of one) */
	size_t last;       /* its slot, or CA_NONE */
};

/* The thread's state when it is not last_thread's: looked up, or added. */
static __attribute__((noinline)) struct thread *find_thread(struct threads *th, int32_t pid,
	int32_t tid)
{
	uint64_t key = ca_thread_key(pid, tid);
	const uint64_t *i = ca_pair_map_get(&th->index, key, 0);
	if (i) {
		th->last_key = key;
		th->last = (size_t)*i;
		return &th->slots[*i];
	}
	struct thread *t = VEC_PUSH(th->slots, th->n_slots, th->cap_slots);
	if (!t || !ca_pair_map_put(&th->index, key, 0, th->n_slots - 1))
		return NULL;
	*t = (struct thread){ .pid = pid, .tid = tid, .publishing = CA_NONE,
		.intra_publishing = CA_NONE };
	return t;
}

/* The thread's state if it is the one asked for last (most events), else
 * NULL: find_thread's. */
static inline struct thread *last_thread(struct threads *th, int32_t pid, int32_t tid)
{
	if (th->last != CA_NONE && th->last_key == ca_thread_key(pid, tid) && th->last < th->n_slots)
		return &th->slots[th->last];
	return NULL;
}

static void free_threads(struct threads *th)
{
	free(th->slots);
	ca_pair_map_free(&th->index);
	*th = (struct threads){ .last = CA_NONE };
}

/* ---- the merge of tables ------------------------------------------------ */

/* The runs' events first: runs_only records scan those alone. */
#define N_RUN_EVENTS 3
static const enum cs_event_id scanned[] = {
	CS_EV_ros2_callback_start, CS_EV_ros2_callback_end,
	CS_EV_ros2_caret_merged_callback_timing,
	CS_EV_ros2_rclcpp_publish, CS_EV_ros2_rcl_publish, CS_EV_ros2_rmw_publish,
	CS_EV_ros2_caret_dds_write,
	CS_EV_ros2_caret_dds_bind_addr_to_stamp, CS_EV_ros2_rclcpp_intra_publish,
	CS_EV_ros2_caret_merged_publish_timing,
	CS_EV_ros2_rmw_take, CS_EV_ros2_dispatch_subscription_callback,
	CS_EV_ros2_dispatch_intra_process_subscription_callback, CS_EV_ros2_message_construct,
	CS_EV_ros2_rclcpp_ring_buffer_enqueue, CS_EV_ros2_rclcpp_ring_buffer_dequeue,
	CS_EV_ros2_caret_rmw_take_reception, CS_EV_ros2_caret_rmw_data_available,
};
#define N_SCANNED (sizeof scanned / sizeof *scanned)

/* Field columns, found once. */
struct columns {
	const uint64_t *f[N_SCANNED][CS_MAX_FIELDS];
};

/* ---- handlers ----------------------------------------------------------- */

struct scan {
	struct ca_records *r;
	struct threads threads;
	const ca_trace *t;
};

/* The object an event names: its kind + 1 (0: none) and its field. A
 * table, not a switch: the decoding thread asks it for every event. */
static const struct {
	uint8_t kind, field;
} object_of[CS_EVENT_COUNT] = {
	[CS_EV_ros2_callback_start] = { CA_H_CALLBACK + 1, 0 },
	[CS_EV_ros2_caret_merged_callback_timing] = { CA_H_CALLBACK + 1, 0 },
	[CS_EV_ros2_dispatch_subscription_callback] = { CA_H_CALLBACK + 1, 1 },
	[CS_EV_ros2_dispatch_intra_process_subscription_callback] = { CA_H_CALLBACK + 1, 1 },
	[CS_EV_ros2_rclcpp_publish] = { CA_H_PUBLISHER + 1, 0 },
	[CS_EV_ros2_rcl_publish] = { CA_H_PUBLISHER + 1, 0 },
	[CS_EV_ros2_rclcpp_intra_publish] = { CA_H_PUBLISHER + 1, 0 },
	[CS_EV_ros2_caret_merged_publish_timing] = { CA_H_PUBLISHER + 1, 0 },
	[CS_EV_ros2_rmw_take] = { CA_H_SUBSCRIPTION_RMW + 1, 0 },
	[CS_EV_ros2_caret_rmw_take_reception] = { CA_H_SUBSCRIPTION_RMW + 1, 0 },
	[CS_EV_ros2_caret_rmw_data_available] = { CA_H_SUBSCRIPTION_RMW + 1, 0 },
	[CS_EV_ros2_rclcpp_ring_buffer_dequeue] = { CA_H_RING_BUFFER + 1, 0 },
};

_Static_assert(sizeof(struct ca_handle_kept) <= CA_TEE_SCRATCH, "the tee's scratch holds it");

size_t ca_records_event_object(const struct ca_model *m, void *scratch, enum cs_event_id id,
	int32_t pid, uint64_t time, const uint64_t *v)
{
	uint32_t kind = object_of[id].kind;
	uint64_t address = kind ? v[object_of[id].field] : 0;
	if (!address)
		return CA_NONE;
	enum ca_handle_kind k = (enum ca_handle_kind)(kind - 1);
	return scratch ? ca_handle_find_kept(&m->handles, scratch, k, pid, address, time) :
		ca_handle_find(&m->handles, k, pid, address, time);
}

#define NEW(s, array) VEC_PUSH((s)->r->array, (s)->r->n_##array, (s)->r->cap_##array)

/* Whether records of the node are kept (ca_records_options.nodes). */
static bool kept(const struct scan *s, size_t node)
{
	return !s->r->keep_node || (node != CA_NONE && s->r->keep_node[node]);
}

/* Whether records of the callback's node are kept. */
static bool kept_callback(const struct scan *s, size_t callback)
{
	return !s->r->keep_callback || (callback != CA_NONE && s->r->keep_callback[callback]);
}

/* A new run: its index in r->runs, or (runs_only) its slot's address, or
 * (latencies_only) its number, and then (with_runs) its slot in *slot;
 * false out of memory. */
static bool new_run(struct scan *s, struct thread *th, size_t callback, uint64_t start,
	uint64_t end, bool intra, size_t *handle, struct ca_run_slot **slot)
{
	*slot = NULL;
	if (s->r->run_store && !(*slot = ca_run_store_add(s->r->run_store, callback, start, end,
		th->pid, th->tid, intra)))
		return false;
	if (s->r->stream) { /* latencies_only: runs numbered for the joins */
		*handle = ++s->r->next_run_id;
		return true;
	}
	if (s->r->run_store) {
		*handle = (size_t)(uintptr_t)*slot;
		return true;
	}
	if (!kept_callback(s, callback)) {
		*handle = CA_NONE; /* on the thread's stack all the same: runs nest */
		return true;
	}
	ca_callback_instance *run = NEW(s, runs);
	if (!run)
		return false;
	*run = (ca_callback_instance){ callback, start, end, th->pid, th->tid, intra };
	*handle = s->r->n_runs - 1;
	return true;
}

/* Whether the stream hears of a run of this callback. */
static bool streamed(const struct scan *s, size_t callback)
{
	return s->r->stream && kept_callback(s, callback);
}

static void start_run(struct scan *s, struct thread *th, uint64_t address, size_t callback,
	uint64_t time, bool intra)
{
	size_t handle;
	struct ca_run_slot *slot;
	if (!new_run(s, th, callback, time, 0, intra, &handle, &slot)) {
		s->r->oom = true;
		return;
	}
	if (th->depth == MAX_NESTING) {
		/* deeper than any executor nests: the ends of the runs below were
		 * lost (a trace with events discarded). The oldest goes, never
		 * ended; the newest run is the one publishes happen in. */
		s->r->losses.not_ended++;
		th->depth--;
		memmove(th->open_address, th->open_address + 1, th->depth * sizeof *th->open_address);
		memmove(th->open_run, th->open_run + 1, th->depth * sizeof *th->open_run);
		memmove(th->open_start, th->open_start + 1, th->depth * sizeof *th->open_start);
		memmove(th->open_callback, th->open_callback + 1,
			th->depth * sizeof *th->open_callback);
		memmove(th->open_slot, th->open_slot + 1, th->depth * sizeof *th->open_slot);
		if (s->r->stream)
			ca_stream_run_dropped(s->r->stream, th->pid, th->tid);
	}
	if (streamed(s, callback))
		ca_stream_run_start(s->r->stream, th->pid, th->tid,
			&(struct ca_stream_run){ time, callback, th->depth, handle }, intra);
	th->open_address[th->depth] = address;
	th->open_start[th->depth] = time;
	th->open_callback[th->depth] = callback;
	th->open_slot[th->depth] = slot;
	th->open_run[th->depth++] = handle;
}

/* Ends the innermost open run of the callback; runs opened inside it and
 * still open never ended. */
static void end_run(struct scan *s, struct thread *th, uint64_t address, uint64_t time)
{
	for (int d = th->depth - 1; d >= 0; d--) {
		if (th->open_address[d] != address)
			continue;
		if (th->open_slot[d]) /* a run kept in the run store */
			th->open_slot[d]->end = time;
		else if (!s->r->stream && th->open_run[d] != CA_NONE) /* a run kept in runs */
			s->r->runs[th->open_run[d]].end = time;
		if (s->r->stream && s->r->follow_request && streamed(s, th->open_callback[d]))
			ca_stream_run_end(s->r->stream, &(struct ca_stream_run){ th->open_start[d],
				th->open_callback[d], d, th->open_run[d] }, time);
		s->r->losses.not_ended += (uint64_t)(th->depth - 1 - d);
		th->depth = d;
		return;
	}
	s->r->losses.not_started++;
}

/* latencies_only: the publishes array is a pool of the publishes whose
 * stages are still coming (a thread's publishing or intra_publishing). */
static void pool_publish(struct ca_records *r, size_t i)
{
	size_t *slot = VEC_PUSH(r->free_publishes, r->n_free_publishes, r->cap_free_publishes);
	if (!slot)
		r->oom = true;
	else
		*slot = i;
}

/* Publish i back to the pool, if it is one's (inline: most are none). */
static inline void release_publish(struct scan *s, size_t i)
{
	if (s->r->stream && i != CA_NONE)
		pool_publish(s->r, i);
}

static void set_publishing(struct scan *s, struct thread *th, size_t i)
{
	release_publish(s, th->publishing);
	th->publishing = i;
}

static void set_intra_publishing(struct scan *s, struct thread *th, size_t i)
{
	release_publish(s, th->intra_publishing);
	th->intra_publishing = i;
}

static size_t index_of(const struct scan *s, const ca_publish_instance *p)
{
	return (size_t)(p - s->r->publishes);
}

/* A new publish, or NULL: out of memory, or of a node whose records are
 * not kept (then the thread's publish in progress is none). */
static ca_publish_instance *new_publish(struct scan *s, struct thread *th, size_t found,
	uint64_t message)
{
	struct ca_records *r = s->r;
	if (found != CA_NONE && !kept(s, r->m->publishers[found].node))
		return NULL;
	ca_publish_instance *p = r->stream && r->n_free_publishes ?
		&r->publishes[r->free_publishes[--r->n_free_publishes]] : NEW(s, publishes);
	if (!p) {
		r->oom = true;
		return NULL;
	}
	*p = (ca_publish_instance){ .publisher = found, .message = message, .pid = th->pid,
		.tid = th->tid, .callback_instance = CA_NONE };
	return p;
}

/* latencies_only: the publish's publisher is known (an intra-process
 * one's: at once); then its source stamp. */
static void publish_known(struct scan *s, struct thread *th, ca_publish_instance *p)
{
	if (!s->r->stream || (p->publisher == CA_NONE && !p->intra))
		return;
	int d = th->depth - 1;
	struct ca_stream_run open = { d >= 0 ? th->open_start[d] : 0,
		d >= 0 ? th->open_callback[d] : CA_NONE, d, d >= 0 ? th->open_run[d] : 0 };
	p->callback_instance = ca_stream_publish(s->r->stream, p, d >= 0 ? &open : NULL);
}

static void publish_stamped(struct scan *s, const ca_publish_instance *p)
{
	if (s->r->stream)
		ca_stream_stamp(s->r->stream, p);
}

/* latencies_only: a later stage of a publish already told. */
static void publish_staged(struct scan *s, const ca_publish_instance *p)
{
	if (s->r->stream)
		ca_stream_stages(s->r->stream, p);
}

static void add_take(struct scan *s, struct thread *th, uint64_t time, size_t callback,
	size_t subscription, uint64_t stamp, uint64_t message, uint64_t header, bool intra,
	uint64_t buffer, uint64_t slot)
{
	const struct ca_model *m = s->r->m;
	if (subscription == CA_NONE && callback != CA_NONE &&
	    m->callbacks[callback].kind == CA_CALLBACK_SUBSCRIPTION)
		subscription = m->callbacks[callback].owner;
	if (callback == CA_NONE && subscription != CA_NONE)
		callback = m->subscriptions[subscription].callback;
	struct ca_take k = { time, stamp, message, header, buffer, slot, th->pid, th->tid,
		callback, subscription, intra };
	if (!kept_callback(s, callback))
		return;
	if (s->r->stream) {
		ca_stream_take(s->r->stream, &k);
		return;
	}
	struct ca_take *kept = NEW(s, takes);
	if (!kept)
		s->r->oom = true;
	else
		*kept = k;
}

/* The subscription whose intra-process ring buffer this is, or CA_NONE. */
static size_t buffer_subscription(const struct scan *s, size_t buffer)
{
	return buffer == CA_NONE ? CA_NONE : s->r->m->ring_buffers[buffer].subscription;
}

/* One runtime event as its handler gets it: its time, the callback,
 * publisher, subscription or buffer it names (object), its fields v in
 * the schema's order; all in registers, the handler's call a jump. */
typedef void event_handler(struct scan *s, struct thread *th, uint64_t time, size_t object,
	const uint64_t *v);

/* ---- callback runs ---- */

static void on_callback_start(struct scan *s, struct thread *th, uint64_t time, size_t object,
	const uint64_t *v)
{
	start_run(s, th, v[0], object, time, v[1] != 0);
}

static void on_callback_end(struct scan *s, struct thread *th, uint64_t time, size_t object,
	const uint64_t *v)
{
	(void)object;
	end_run(s, th, v[0], time);
	set_intra_publishing(s, th, CA_NONE);
}

/* A whole run in one event (CARET's merged timing). */
static void on_merged_callback(struct scan *s, struct thread *th, uint64_t time, size_t object,
	const uint64_t *v)
{
	set_intra_publishing(s, th, CA_NONE);
	if (!v[1]) { /* its start came before recording: an end alone */
		s->r->losses.not_started++;
		return;
	}
	size_t handle;
	struct ca_run_slot *slot;
	if (!new_run(s, th, object, v[1], time, v[2] != 0, &handle, &slot))
		s->r->oom = true;
	else if (streamed(s, object))
		ca_stream_run_merged(s->r->stream, th->pid, th->tid,
			&(struct ca_stream_run){ v[1], object, th->depth, handle }, time,
			v[2] != 0);
}

/* ---- publishes: rclcpp, rcl, then the rmw or DDS write ---- */

/* A publish of its own at `time` in the thread; NULL (and the thread
 * publishing nothing) when out of memory. */
static ca_publish_instance *begin_publish(struct scan *s, struct thread *th, size_t object,
	const uint64_t *v)
{
	ca_publish_instance *p = new_publish(s, th, object, v[1]);
	set_publishing(s, th, p ? index_of(s, p) : CA_NONE);
	return p;
}

static void on_rclcpp_publish(struct scan *s, struct thread *th, uint64_t time, size_t object,
	const uint64_t *v)
{
	ca_publish_instance *p = begin_publish(s, th, object, v);
	if (!p)
		return;
	p->rclcpp_time = time;
	if (p->publisher != CA_NONE)
		publish_known(s, th, p);
}

/* The rcl stage of the publish in progress (upstream Humble's
 * rclcpp_publish does not name its publisher: this does), or an rcl-level
 * publish of its own. */
static void on_rcl_publish(struct scan *s, struct thread *th, uint64_t time, size_t object,
	const uint64_t *v)
{
	ca_publish_instance *p;
	if (th->publishing != CA_NONE && !s->r->publishes[th->publishing].rcl_time) {
		p = &s->r->publishes[th->publishing];
		p->rcl_time = time;
		if (p->publisher == CA_NONE && (p->publisher = object) != CA_NONE)
			publish_known(s, th, p);
		else
			publish_staged(s, p);
		return;
	}
	if (!(p = begin_publish(s, th, object, v)))
		return;
	p->rcl_time = time;
	if (p->publisher != CA_NONE)
		publish_known(s, th, p);
}

/* Jazzy's carry the DDS source timestamp the write uses (plain
 * ros2_tracing traces have no dds_bind_addr_to_stamp). */
static void on_write(struct scan *s, struct thread *th, uint64_t time, size_t object,
	const uint64_t *v)
{
	(void)object;
	if (th->publishing == CA_NONE || s->r->publishes[th->publishing].dds_write_time)
		return;
	ca_publish_instance *p = &s->r->publishes[th->publishing];
	p->dds_write_time = time;
	if (v[2] && !p->source_stamp) {
		p->source_stamp = v[2];
		publish_stamped(s, p);
	} else {
		publish_staged(s, p);
	}
}

static void on_bind_addr_to_stamp(struct scan *s, struct thread *th, uint64_t time, size_t object,
	const uint64_t *v)
{
	(void)time;
	(void)object;
	if (th->publishing == CA_NONE)
		return;
	ca_publish_instance *p = &s->r->publishes[th->publishing];
	if (p->source_stamp != v[1]) {
		p->source_stamp = v[1];
		publish_stamped(s, p);
	}
	set_publishing(s, th, CA_NONE);
}

/* A whole publish in one event (CARET's merged timing): complete. */
static void on_merged_publish(struct scan *s, struct thread *th, uint64_t time, size_t object,
	const uint64_t *v)
{
	(void)time;
	ca_publish_instance *p = new_publish(s, th, object, v[1]);
	if (!p)
		return;
	p->rclcpp_time = v[2];
	p->rcl_time = v[3];
	p->dds_write_time = v[4];
	p->source_stamp = v[5];
	publish_known(s, th, p);
	if (p->source_stamp)
		publish_stamped(s, p);
	release_publish(s, index_of(s, p));
}

/* ---- intra-process: the publish, its ring buffer ---- */

static void on_intra_publish(struct scan *s, struct thread *th, uint64_t time, size_t object,
	const uint64_t *v)
{
	ca_publish_instance *p = new_publish(s, th, object, v[1]);
	set_intra_publishing(s, th, p ? index_of(s, p) : CA_NONE);
	if (!p)
		return;
	p->rclcpp_time = time;
	p->intra = true;
	publish_known(s, th, p);
}

static void on_enqueue(struct scan *s, struct thread *th, uint64_t time, size_t object,
	const uint64_t *v)
{
	(void)object;
	if (s->r->stream) {
		if (th->intra_publishing != CA_NONE)
			ca_stream_enqueue(s->r->stream, th->pid, v[0], v[1],
				&s->r->publishes[th->intra_publishing]);
		return;
	}
	struct ca_enqueue *q = NEW(s, enqueues);
	if (!q)
		s->r->oom = true;
	else
		*q = (struct ca_enqueue){ time, v[0], v[1], th->pid, th->intra_publishing };
}

static void on_dequeue(struct scan *s, struct thread *th, uint64_t time, size_t object,
	const uint64_t *v)
{
	add_take(s, th, time, CA_NONE, buffer_subscription(s, object), 0, 0, 0, true,
		v[0], v[1]);
}

/* ---- takes: a message handed to a subscription, and its copies ---- */

static void on_rmw_take(struct scan *s, struct thread *th, uint64_t time, size_t object,
	const uint64_t *v)
{
	if (v[3]) /* taken */
		add_take(s, th, time, CA_NONE, object, v[2], v[1], 0, false, 0, 0);
}

/* When a message reached a subscription's middleware: the one just taken
 * (Fast DDS), or one not named (Cyclone DDS's arrival, at the event's
 * time). The joined records only: a streamed scan keeps no message. */
static void add_reception(struct scan *s, size_t subscription, uint64_t stamp, uint64_t received)
{
	if (subscription != CA_NONE && !s->r->stream && !s->r->runs_only &&
	    !ca_receptions_add(s->r, subscription, stamp, received))
		s->r->oom = true;
}

static void on_take_reception(struct scan *s, struct thread *th, uint64_t time, size_t object,
	const uint64_t *v)
{
	(void)th;
	(void)time;
	add_reception(s, object, v[1], v[2]);
}

static void on_data_available(struct scan *s, struct thread *th, uint64_t time, size_t object,
	const uint64_t *v)
{
	(void)th;
	(void)v;
	add_reception(s, object, 0, time);
}

static void on_dispatch(struct scan *s, struct thread *th, uint64_t time, size_t object,
	const uint64_t *v)
{
	add_take(s, th, time, object, CA_NONE, v[2], v[0], v[3], false, 0, 0);
}

static void on_intra_dispatch(struct scan *s, struct thread *th, uint64_t time, size_t object,
	const uint64_t *v)
{
	add_take(s, th, time, object, CA_NONE, 0, v[0], v[2], true, 0, 0);
}

static void on_message_construct(struct scan *s, struct thread *th, uint64_t time, size_t object,
	const uint64_t *v)
{
	(void)object;
	if (s->r->stream) {
		ca_stream_copy(s->r->stream, th->pid, v[1], v[0]);
		return;
	}
	struct ca_copy *k = NEW(s, copies);
	if (!k)
		s->r->oom = true;
	else
		*k = (struct ca_copy){ time, v[0], v[1], th->pid };
}

/* Each runtime event's handler; NULL: not one the records read. */
static event_handler *const handlers[CS_EVENT_COUNT] = {
	[CS_EV_ros2_callback_start] = on_callback_start,
	[CS_EV_ros2_callback_end] = on_callback_end,
	[CS_EV_ros2_caret_merged_callback_timing] = on_merged_callback,
	[CS_EV_ros2_rclcpp_publish] = on_rclcpp_publish,
	[CS_EV_ros2_rcl_publish] = on_rcl_publish,
	[CS_EV_ros2_rmw_publish] = on_write,
	[CS_EV_ros2_caret_dds_write] = on_write,
	[CS_EV_ros2_caret_dds_bind_addr_to_stamp] = on_bind_addr_to_stamp,
	[CS_EV_ros2_caret_merged_publish_timing] = on_merged_publish,
	[CS_EV_ros2_rclcpp_intra_publish] = on_intra_publish,
	[CS_EV_ros2_rclcpp_ring_buffer_enqueue] = on_enqueue,
	[CS_EV_ros2_rclcpp_ring_buffer_dequeue] = on_dequeue,
	[CS_EV_ros2_rmw_take] = on_rmw_take,
	[CS_EV_ros2_caret_rmw_take_reception] = on_take_reception,
	[CS_EV_ros2_caret_rmw_data_available] = on_data_available,
	[CS_EV_ros2_dispatch_subscription_callback] = on_dispatch,
	[CS_EV_ros2_dispatch_intra_process_subscription_callback] = on_intra_dispatch,
	[CS_EV_ros2_message_construct] = on_message_construct,
};

/* Runs-only records read the runs alone. */
static bool runs_event(enum cs_event_id id)
{
	return id == CS_EV_ros2_callback_start || id == CS_EV_ros2_callback_end ||
		id == CS_EV_ros2_caret_merged_callback_timing;
}

/* handle's slow path: an event of another thread than the last one's
 * (th NULL), or whose object the decoding thread did not find. */
static __attribute__((noinline)) void handle_slowly(struct scan *s, struct thread *th,
	enum cs_event_id id, uint64_t time, int32_t vpid, int32_t vtid, const uint64_t *v)
{
	if (!th && !(th = find_thread(&s->threads, vpid, vtid))) {
		s->r->oom = true;
		return;
	}
	handlers[id](s, th, time, s->t->tee_object ? (size_t)v[cs_events[id].field_count] :
		ca_records_event_object(s->r->m, NULL, id, vpid, time, v), v);
}

/* One runtime event, its fields in the schema's order. Inline in the
 * visits, every call last: most events cost no stack frame here. */
static inline __attribute__((always_inline)) void handle(struct scan *s, enum cs_event_id id,
	uint64_t time, int32_t vpid, int32_t vtid, const uint64_t *v)
{
	if (!handlers[id] || (s->r->runs_only && !runs_event(id)))
		return;
	struct thread *th = last_thread(&s->threads, vpid, vtid);
	if (!th || !s->t->tee_object) /* the object: found by the decoding thread, after the fields */
		handle_slowly(s, th, id, time, vpid, vtid, v);
	else
		handlers[id](s, th, time, (size_t)v[cs_events[id].field_count], v);
}

/* The arrays at their largest possible size up front: no doubling slack
 * and no copies while they fill, on traces of millions of events. */
static int reserve(struct ca_records *r)
{
	if (r->runs_only || r->latencies_only)
		return 0; /* the runs' chunks grow as they fill; the stream's pool is small */
#define ROWS(e) ca_trace_rows_of(r->t, CS_EV_##e)
	r->cap_runs = ROWS(ros2_callback_start) + ROWS(ros2_caret_merged_callback_timing) + 1;
	r->cap_publishes = ROWS(ros2_rclcpp_publish) + ROWS(ros2_rcl_publish) +
		ROWS(ros2_rclcpp_intra_publish) + ROWS(ros2_caret_merged_publish_timing) + 1;
	r->cap_takes = ROWS(ros2_rmw_take) + ROWS(ros2_dispatch_subscription_callback) +
		ROWS(ros2_dispatch_intra_process_subscription_callback) + 1;
	r->cap_copies = ROWS(ros2_message_construct) + 1;
	r->cap_takes += ROWS(ros2_rclcpp_ring_buffer_dequeue);
	r->cap_enqueues = ROWS(ros2_rclcpp_ring_buffer_enqueue) + 1;
#undef ROWS
	r->runs = malloc(r->cap_runs * sizeof *r->runs);
	r->publishes = malloc(r->cap_publishes * sizeof *r->publishes);
	r->takes = malloc(r->cap_takes * sizeof *r->takes);
	r->copies = malloc(r->cap_copies * sizeof *r->copies);
	r->enqueues = malloc(r->cap_enqueues * sizeof *r->enqueues);
	return r->runs && r->publishes && r->takes && r->copies && r->enqueues ? 0 : -1;
}

static inline __attribute__((always_inline)) void visit(void *ctx, enum cs_event_id id,
	uint64_t time, int32_t vpid, int32_t vtid, const uint64_t *values)
{
	struct scan *s = ctx;
	if (!s->r->oom)
		handle(s, id, time, vpid, vtid, values);
}

/* The tables merged in time order (ties: the order of scanned[]). */
static void merge_tables(struct scan *s)
{
	const struct ca_records *r = s->r;
	struct columns c;
	size_t pos[N_SCANNED] = { 0 }, n_scanned = r->runs_only ? N_RUN_EVENTS : N_SCANNED;
	for (size_t i = 0; i < n_scanned; i++)
		for (size_t f = 0; f < cs_events[scanned[i]].field_count; f++)
			c.f[i][f] = ca_table_column(r->t, scanned[i], cs_events[scanned[i]].fields[f].name);
	for (;;) {
		size_t best = N_SCANNED;
		uint64_t best_time = UINT64_MAX;
		for (size_t i = 0; i < n_scanned; i++) {
			const struct ca_table *tb = &r->t->tables[scanned[i]];
			if (pos[i] < tb->rows && tb->time[pos[i]] < best_time) {
				best = i;
				best_time = tb->time[pos[i]];
			}
		}
		if (best == N_SCANNED || r->oom)
			break;
		const struct ca_table *tb = &r->t->tables[scanned[best]];
		size_t row = pos[best]++;
		uint64_t v[CS_MAX_FIELDS];
		for (size_t f = 0; f < cs_events[scanned[best]].field_count; f++)
			v[f] = c.f[best][f][row];
		handle(s, scanned[best], tb->time[row], tb->vpid[row], tb->vtid[row], v);
	}
}

/* The end of a scan: runs still open never ended; the runs kept per
 * callback put in start order. */
static int end_scan(struct scan *s)
{
	struct ca_records *r = s->r;
	for (size_t i = 0; i < s->threads.n_slots; i++)
		r->losses.not_ended += (uint64_t)s->threads.slots[i].depth;
	free_threads(&s->threads);
	s->threads.last = CA_NONE;
	if (!r->oom && r->run_store && !ca_run_store_sort(r->run_store))
		r->oom = true;
	ca_receptions_sort(r);
	if (!r->oom && r->stream && ca_stream_end(r->stream) != 0)
		r->oom = true;
	if (r->stream) { /* what only the scan needed */
		ca_stream_free(r->stream);
		r->stream = NULL;
		free(r->publishes);
		r->publishes = NULL;
		r->n_publishes = r->cap_publishes = 0;
	}
	return r->oom ? -1 : 0;
}

int ca_records_scan(struct ca_records *r)
{
	struct scan s = { .r = r, .t = r->t, .threads.last = CA_NONE };

	if (reserve(r) != 0)
		return -1;
	if (r->t->runtime_not_kept) { /* a second pass of the reader, in time order */
		if (r->t->replay_runtime((ca_trace *)r->t, visit, &s) != 0)
			r->oom = true;
	} else {
		merge_tables(&s);
	}
	return end_scan(&s);
}

/* ---- a scan riding along the model's runtime pass ------------------------ */

int ca_records_scan_begin(struct ca_records *r)
{
	if (!(r->live = calloc(1, sizeof *r->live)))
		return -1;
	*r->live = (struct scan){ .r = r, .t = r->t, .threads.last = CA_NONE };
	/* which records: known with the model */
	return r->follow_request || r->follow_longest ? 0 : reserve(r);
}

/* The model is built when its runtime pass begins: what the scan needs
 * of it is there from the first event. */
static void meet_model(struct ca_records *r)
{
	if (r->m || r->oom)
		return;
	if (!(r->m = r->t->model)) {
		r->oom = true; /* no model: these records will not be handed out */
		return;
	}
	if ((r->runs_only || r->with_runs) && !(r->run_store = ca_run_store_new(r->m->n_callbacks)))
		r->oom = true;
	ca_records_choose_longest(r);
	if (!ca_records_setup_follow(r) ||
	    (r->follow_request && !r->latencies_only && reserve(r) != 0))
		r->oom = true;
	if (r->latencies_only && !(r->stream = ca_stream_new(r)))
		r->oom = true;
	if (!ca_records_filter_nodes(r))
		r->oom = true;
}

bool ca_records_filter_nodes(struct ca_records *r)
{
	if ((!r->n_node_names && !r->keep_none) || r->keep_node)
		return true;
	if (!(r->keep_node = calloc(r->m->n_nodes + 1, sizeof *r->keep_node)) ||
	    !(r->keep_callback = calloc(r->m->n_callbacks + 1, sizeof *r->keep_callback)))
		return false;
	for (size_t i = 0; i < r->m->n_nodes; i++)
		for (size_t k = 0; k < r->n_node_names && !r->keep_node[i]; k++)
			r->keep_node[i] = !strcmp(r->m->nodes[i].fqn, r->node_names[k]);
	for (size_t i = 0; i < r->m->n_callbacks; i++)
		r->keep_callback[i] = r->m->callbacks[i].node != CA_NONE &&
			r->keep_node[r->m->callbacks[i].node];
	r->node_names = NULL; /* the caller's: not read after this */
	return true;
}

/* The first event of a riding scan: the model met first. */
static __attribute__((noinline)) void visit_first(struct ca_records *r, enum cs_event_id id,
	uint64_t time, int32_t vpid, int32_t vtid, const uint64_t *values)
{
	meet_model(r);
	visit(r->live, id, time, vpid, vtid, values);
}

void ca_records_scan_visit(void *ctx, enum cs_event_id id, uint64_t time, int32_t vpid,
	int32_t vtid, const uint64_t *values)
{
	struct ca_records *r = ctx;
	if (!r->m && !r->oom)
		visit_first(r, id, time, vpid, vtid, values);
	else
		visit(r->live, id, time, vpid, vtid, values); /* nothing once out of memory */
}

void ca_records_scan_visit_all(void *ctx, enum cs_event_id id, uint64_t time, int32_t vpid,
	int32_t vtid, const uint64_t *values)
{
	const struct ca_riders *riders = ctx;
	for (size_t i = 0; i < riders->n; i++)
		ca_records_scan_visit(riders->r[i], id, time, vpid, vtid, values);
}

int ca_records_scan_end(struct ca_records *r)
{
	meet_model(r);
	int status = end_scan(r->live);
	free(r->live);
	r->live = NULL;
	return status;
}

void ca_records_scan_drop(struct ca_records *r)
{
	if (r->live)
		free_threads(&r->live->threads);
	free(r->live);
	r->live = NULL;
}
