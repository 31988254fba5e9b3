/*
 * stream.c - the joins of latencies_only records, made as the scan goes
 * (time order) instead of over arrays of every record (join.c): what
 * `caret latency topics` and `nodes` need, in memory that grows with the
 * latencies kept (8 bytes each) and the inter-process publishes (16 bytes
 * each), not with the events.
 *
 * The scan tells this file when a publish's publisher, then its source
 * stamp, become known, when a message is taken, copied or put in a ring
 * buffer, and when a callback run starts. Each lookup join.c makes by
 * "the last entry with this key at or before the take" is here a map
 * holding the newest entry per key, asked at the take; a take waits in its
 * thread, per callback and delivery, for the run that handles it.
 */
#include <stdlib.h>
#include <string.h>

#include "records.h"
#include "vec.h"

/* How long a message taken with a source stamp no publish has yet waits
 * for its publish's stamp: a subscriber can take a message before the
 * publishing thread has traced the stamp of its write. */
#define STAMP_GRACE 1000000000 /* ns */

/* How far behind the scan the follower's facts settle: a publish is told
 * at its last stage with the time of its first, some microseconds before
 * (a thread preempted between them for longer may have its messages
 * followed out of order); a merged run, at its end with its start's
 * time, and the publishes it made. */
#define FOLLOW_LAG 10000000 /* ns */
#define FOLLOW_LAG_MERGED STAMP_GRACE

/* The publishes a thread made outside any open run, kept for a merged
 * run (whose event comes at its end) to claim. */
#define MAX_UNPLACED 256

struct timed { /* sorted by key, then as inserted */
	uint64_t key, time;
};

struct timed_vec {
	struct timed *v;
	size_t n, cap;
};

struct topic_slot {
	struct timed_vec stamped;   /* (source stamp, publish time) */
	struct timed_vec unstamped; /* (epoch publish time, thread): no stamp yet */
};

struct values {
	int64_t *v;
	size_t n, cap;
};

struct times {
	uint64_t *t;
	size_t n, cap;
};

struct waiting_take {
	struct ca_take take;
	uint64_t seq, takes, publish_time; /* intra-process: found at the take; 0: none */
	bool active;
};

/* A thread's takes for one callback: [0] inter-process, [1] intra-process. */
struct waiting_pair {
	struct waiting_take of[2];
};

/* An inter-process message handled, its publish not found yet. */
struct deferred {
	size_t subscription;
	uint64_t stamp, deadline;
	struct ca_stream_run run; /* that handled it */
};

struct unplaced {
	uint64_t time, ref; /* ref: a path follower's */
	const char *topic;
};

struct output { /* a topic an open run published on */
	int depth;
	const char *topic;
};

struct stream_thread {
	struct output *outputs; /* the open runs' so far */
	size_t n_outputs, cap_outputs;
	struct unplaced *unplaced;
	size_t n_unplaced, cap_unplaced;
};

struct ca_stream {
	struct ca_records *r;
	const struct ca_model *m;
	struct ca_pair_map topic_of;   /* topic -> topics[] */
	struct topic_slot *topics;
	size_t n_topics;
	struct ca_pair_map intra;      /* (pid, message) -> publish time */
	struct ca_pair_map copies;     /* (pid, copy) -> original */
	struct ca_pair_map enqueues;   /* (buffer, slot key) -> publish time */
	struct ca_pair_map waiting_of; /* (thread, callback) -> waiting[] */
	CA_ARRAY(struct waiting_pair, waiting);
	struct ca_pair_map thread_of;  /* (thread, 0) -> threads[] */
	uint64_t last_thread_key;      /* the thread asked for last, at last_thread */
	size_t last_thread;
	CA_ARRAY(struct stream_thread, threads);
	struct ca_pair_map path_of;    /* (callback, topic) -> r->node_paths[] */
	struct values *path_values;    /* parallel to r->node_paths */
	struct times *path_starts;     /* the same, their runs' starts (latency_times) */
	struct values *delivered;      /* [2 subscription + intra] */
	struct times *delivered_at;    /* the same, their publish times (latency_times) */
	struct ca_deliveries deliveries;
	uint64_t *received;            /* [2 subscription + intra] */
	CA_ARRAY(struct deferred, deferred); /* from first_deferred on, by deadline */
	size_t first_deferred;
	uint64_t seq, now;
	/* Records that follow a path: the follower, and where the maps of
	 * publishes hold a time (latencies) they hold its reference. */
	struct ca_follow *follow;
	uint64_t follow_lag;
};

static void oom(struct ca_stream *s)
{
	s->r->oom = true;
}

/* ---- setup ---------------------------------------------------------------- */

static size_t topic_index(const struct ca_stream *s, const char *topic)
{
	uint64_t *i = ca_pair_map_get(&s->topic_of, (uintptr_t)topic, 0);
	return i ? (size_t)*i : CA_NONE;
}

static bool add_topic(struct ca_stream *s, const char *topic, size_t *n)
{
	if (!topic || topic_index(s, topic) != CA_NONE)
		return true;
	return ca_pair_map_put(&s->topic_of, (uintptr_t)topic, 0, (*n)++) != NULL;
}

static bool map_topics(struct ca_stream *s)
{
	const struct ca_model *m = s->m;
	size_t n = 0;
	for (size_t i = 0; i < m->n_publishers; i++)
		if (!add_topic(s, m->publishers[i].topic, &n))
			return false;
	for (size_t i = 0; i < m->n_subscriptions; i++)
		if (!add_topic(s, m->subscriptions[i].topic, &n))
			return false;
	if (!(s->topics = calloc(n + 1, sizeof *s->topics)))
		return false;
	s->n_topics = n;
	return true;
}

struct ca_stream *ca_stream_new(struct ca_records *r)
{
	struct ca_stream *s = calloc(1, sizeof *s);
	if (!s)
		return NULL;
	size_t n = 2 * r->m->n_subscriptions + 1;
	s->r = r;
	s->m = r->m;
	s->last_thread_key = UINT64_MAX; /* no thread's */
	s->delivered = calloc(n, sizeof *s->delivered);
	bool ready = ca_deliveries_init(&s->deliveries, r->t, r->m);
	if (r->latency_times && !(s->delivered_at = calloc(n, sizeof *s->delivered_at)))
		ready = false;
	s->received = calloc(n, sizeof *s->received);
	r->not_received = calloc(n, sizeof *r->not_received);
	r->not_published = calloc(n, sizeof *r->not_published);
	r->latencies = calloc(n, sizeof *r->latencies);
	if (r->follow_path.nodes &&
	    !(s->follow = ca_follow_new(r->m, &r->follow_path, NULL)))
		ready = false;
	s->follow_lag = ca_trace_rows_of(r->t, CS_EV_ros2_caret_merged_callback_timing) ||
		ca_trace_rows_of(r->t, CS_EV_ros2_caret_merged_publish_timing) ?
		FOLLOW_LAG_MERGED : FOLLOW_LAG;
	if (!ready || !r->latencies || !s->delivered || !s->received || !r->not_received ||
	    !r->not_published || !map_topics(s)) {
		ca_stream_free(s);
		return NULL;
	}
	return s;
}

void ca_stream_free(struct ca_stream *s)
{
	if (!s)
		return;
	for (size_t i = 0; i < s->n_topics; i++) {
		free(s->topics[i].stamped.v);
		free(s->topics[i].unstamped.v);
	}
	free(s->topics);
	for (size_t i = 0; i < s->n_threads; i++) {
		free(s->threads[i].outputs);
		free(s->threads[i].unplaced);
	}
	free(s->threads);
	for (size_t i = 0; s->delivered && i < 2 * s->m->n_subscriptions; i++)
		free(s->delivered[i].v);
	for (size_t i = 0; s->delivered_at && i < 2 * s->m->n_subscriptions; i++)
		free(s->delivered_at[i].t);
	free(s->delivered_at);
	for (size_t i = 0; i < s->r->n_node_paths; i++) {
		free(s->path_values[i].v);
		if (s->path_starts)
			free(s->path_starts[i].t);
	}
	free(s->path_values);
	free(s->path_starts);
	free(s->delivered);
	ca_deliveries_free(&s->deliveries);
	free(s->received);
	free(s->waiting);
	free(s->deferred);
	ca_follow_free(s->follow);
	struct ca_pair_map *maps[] = { &s->topic_of, &s->intra, &s->copies, &s->enqueues,
		&s->waiting_of, &s->thread_of, &s->path_of };
	for (size_t i = 0; i < sizeof maps / sizeof *maps; i++)
		ca_pair_map_free(maps[i]);
	free(s);
}

/* ---- sorted (key, time) vectors --------------------------------------------- */

/* Inserted after every entry of a key not above it: entries come nearly
 * in key order (stamps and times grow), so the move is short. */
static bool timed_insert(struct timed_vec *t, uint64_t key, uint64_t time)
{
	struct timed *last = VEC_PUSH_RAW(t->v, t->n, t->cap);
	if (!last)
		return false;
	size_t i = (size_t)(last - t->v);
	while (i > 0 && t->v[i - 1].key > key) {
		t->v[i] = t->v[i - 1];
		i--;
	}
	t->v[i] = (struct timed){ key, time };
	return true;
}

/* The position after the last entry whose key is <= key. */
static size_t timed_upper(const struct timed_vec *t, uint64_t key)
{
	size_t lo = 0, hi = t->n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (t->v[mid].key <= key)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* ---- publishes -------------------------------------------------------------- */

/* thread_of's slow path: the thread looked up, or added. */
static __attribute__((noinline)) struct stream_thread *find_thread(struct ca_stream *s,
	int32_t pid, int32_t tid)
{
	uint64_t key = ca_thread_key(pid, tid);
	uint64_t *i = ca_pair_map_get(&s->thread_of, key, 0);
	if (i) {
		s->last_thread_key = key;
		s->last_thread = (size_t)*i;
		return &s->threads[*i];
	}
	struct stream_thread *th = VEC_PUSH(s->threads, s->n_threads, s->cap_threads);
	if (!th || !ca_pair_map_put(&s->thread_of, ca_thread_key(pid, tid), 0, s->n_threads - 1))
		return NULL;
	return th;
}

/* The thread asked for last, most calls (inline, its lookup out of line). */
static inline struct stream_thread *thread_of(struct ca_stream *s, int32_t pid, int32_t tid)
{
	if (s->n_threads && s->last_thread_key == ca_thread_key(pid, tid))
		return &s->threads[s->last_thread];
	return find_thread(s, pid, tid);
}

/* Room for one more node path's run starts (latency_times); false out of
 * memory. */
static bool more_path_starts(struct ca_stream *s)
{
	if (!s->r->latency_times)
		return true;
	struct times *ps = realloc(s->path_starts, (s->r->n_node_paths + 1) * sizeof *ps);
	if (ps)
		s->path_starts = ps;
	return ps != NULL;
}

/* Another latency of the node path (callback, topic), of a run that
 * started at `start`. */
static void node_output(struct ca_stream *s, size_t callback, const char *topic, uint64_t start,
	int64_t latency)
{
	uint64_t *i = ca_pair_map_get(&s->path_of, callback, (uintptr_t)topic);
	struct ca_records *r = s->r;
	if (!i) {
		struct values *pv = realloc(s->path_values, (r->n_node_paths + 1) * sizeof *pv);
		if (pv)
			s->path_values = pv;
		if (pv && !more_path_starts(s))
			pv = NULL;
		ca_node_path *np = pv ? VEC_PUSH(r->node_paths, r->n_node_paths, r->cap_node_paths) :
			NULL;
		if (!np || !(i = ca_pair_map_put(&s->path_of, callback, (uintptr_t)topic,
			r->n_node_paths - 1))) {
			oom(s);
			return;
		}
		*np = (ca_node_path){ callback, topic, NULL, 0, NULL };
		s->path_values[r->n_node_paths - 1] = (struct values){ 0 };
		if (s->path_starts)
			s->path_starts[r->n_node_paths - 1] = (struct times){ 0 };
	}
	struct values *v = &s->path_values[*i];
	int64_t *x = VEC_PUSH_RAW(v->v, v->n, v->cap);
	if (!x)
		oom(s);
	else
		*x = latency;
	if (s->path_starts) {
		struct times *at = &s->path_starts[*i];
		uint64_t *y = VEC_PUSH_RAW(at->t, at->n, at->cap);
		if (!y)
			oom(s);
		else
			*y = start;
	}
}

/* The publish is the first on its topic of the open run at depth: a
 * node path's output (its later ones on the topic are not). */
static bool first_output(struct stream_thread *th, int depth, const char *topic, bool *failed)
{
	for (size_t i = th->n_outputs; i-- > 0;)
		if (th->outputs[i].depth == depth && th->outputs[i].topic == topic)
			return false;
	struct output *o = VEC_PUSH(th->outputs, th->n_outputs, th->cap_outputs);
	if (!o) {
		*failed = true;
		return false;
	}
	*o = (struct output){ depth, topic };
	return true;
}

uint64_t ca_stream_publish(struct ca_stream *s, const ca_publish_instance *p,
	const struct ca_stream_run *open)
{
	const struct ca_model *m = s->m;
	uint64_t time = ca_publish_time(p), ref = 0;
	const char *topic = p->publisher == CA_NONE ? NULL : m->publishers[p->publisher].topic;
	if (s->follow && !(ref = ca_follow_publish(s->follow, time, open, topic)))
		oom(s);
	if (s->follow && !p->intra && !ca_follow_stages(s->follow, ref, topic, p->rcl_time,
		    p->dds_write_time, p->source_stamp))
		oom(s);
	uint64_t value = s->follow ? ref : time; /* what the maps hold of it */
	if (p->intra && !ca_pair_map_put(&s->intra, ca_thread_key(p->pid, 0), p->message, value))
		oom(s);
	bool unstamped = !p->intra && !p->source_stamp && s->r->t->epoch_offset;
	if (s->follow && open && !unstamped)
		return ref; /* the follower has it, and no stamp is to come: nothing more */
	size_t ti = topic ? topic_index(s, topic) : CA_NONE;
	if (ti == CA_NONE)
		return ref;
	struct topic_slot *ts = &s->topics[ti];
	if (!s->follow)
		ca_deliveries_publish(&s->deliveries, p);
	if (unstamped && !timed_insert(&ts->unstamped, time + (uint64_t)s->r->t->epoch_offset,
		    s->follow ? ref : ca_thread_key(p->pid, p->tid)))
		oom(s);
	if (s->follow && open)
		return ref; /* the follower has it; no node path is made */
	struct stream_thread *th = thread_of(s, p->pid, p->tid);
	bool failed = !th;
	if (th && open) {
		if (open->callback != CA_NONE && first_output(th, open->depth, topic, &failed))
			node_output(s, open->callback, topic, open->start, (int64_t)(time - open->start));
	} else if (th) { /* for a merged run to claim */
		if (th->n_unplaced == MAX_UNPLACED)
			memmove(th->unplaced, th->unplaced + 1, --th->n_unplaced * sizeof *th->unplaced);
		struct unplaced *u = VEC_PUSH(th->unplaced, th->n_unplaced, th->cap_unplaced);
		if (u)
			*u = (struct unplaced){ time, ref, topic };
		failed = !u;
	}
	if (failed)
		oom(s);
	return ref;
}

void ca_stream_stages(struct ca_stream *s, const ca_publish_instance *p)
{
	if (s->follow && !p->intra && p->publisher != CA_NONE && p->callback_instance != CA_NONE &&
	    !ca_follow_stages(s->follow, p->callback_instance, s->m->publishers[p->publisher].topic,
		    p->rcl_time, p->dds_write_time, p->source_stamp))
		oom(s);
}

void ca_stream_stamp(struct ca_stream *s, const ca_publish_instance *p)
{
	if (p->intra || p->publisher == CA_NONE)
		return;
	ca_stream_stages(s, p);
	size_t ti = topic_index(s, s->m->publishers[p->publisher].topic);
	if (ti == CA_NONE)
		return;
	struct topic_slot *ts = &s->topics[ti];
	uint64_t time = ca_publish_time(p);
	uint64_t who = s->follow ? p->callback_instance : ca_thread_key(p->pid, p->tid);
	if (s->r->t->epoch_offset) { /* out of the unstamped, where it was put */
		uint64_t epoch = time + (uint64_t)s->r->t->epoch_offset;
		for (size_t i = ts->unstamped.n; i-- > 0 && ts->unstamped.v[i].key >= epoch;) {
			if (ts->unstamped.v[i].key == epoch && ts->unstamped.v[i].time == who) {
				memmove(ts->unstamped.v + i, ts->unstamped.v + i + 1,
					(--ts->unstamped.n - i) * sizeof *ts->unstamped.v);
				break;
			}
		}
	}
	if (!timed_insert(&ts->stamped, p->source_stamp, s->follow ? who : time))
		oom(s);
}

/* ---- intra-process copies and ring buffers ------------------------------------ */

void ca_stream_copy(struct ca_stream *s, int32_t pid, uint64_t copy, uint64_t original)
{
	if (!ca_pair_map_put(&s->copies, ca_thread_key(pid, 0), copy, original))
		oom(s);
}

void ca_stream_enqueue(struct ca_stream *s, int32_t pid, uint64_t buffer, uint64_t slot,
	const ca_publish_instance *p)
{
	/* what the maps hold of a publish: its time, a follower's reference */
	uint64_t value = s->follow ? p->callback_instance : ca_publish_time(p);
	if (!ca_pair_map_put(&s->enqueues, buffer, ca_slot_key(slot, pid), value))
		oom(s);
}

/* ---- takes ------------------------------------------------------------------- */

/* The time of an inter-process message's publish on the subscription's
 * topic (a follower's: its reference), as join.c's publish_of finds it:
 * by source stamp, else (by_time not NULL) the last publish with no stamp
 * before it; 0 when none. */
static uint64_t inter_publish_time(const struct ca_stream *s, size_t subscription,
	uint64_t stamp, bool *by_time)
{
	size_t ti = topic_index(s, s->m->subscriptions[subscription].topic);
	if (ti == CA_NONE)
		return 0;
	const struct topic_slot *ts = &s->topics[ti];
	size_t i = timed_upper(&ts->stamped, stamp);
	if (i && ts->stamped.v[i - 1].key == stamp)
		return ts->stamped.v[i - 1].time;
	if (!by_time)
		return 0;
	i = timed_upper(&ts->unstamped, stamp);
	if (!i || stamp - ts->unstamped.v[i - 1].key > CA_MAX_WRITE_DELAY)
		return 0;
	*by_time = true;
	return s->follow ? ts->unstamped.v[i - 1].time :
		ts->unstamped.v[i - 1].key - (uint64_t)s->r->t->epoch_offset;
}

/* The time of an intra-process take's publish, now that every entry before
 * the take is in (join.c: the last before it): 0 when there is none. */
static uint64_t intra_publish_time(const struct ca_stream *s, const struct ca_take *k)
{
	const uint64_t *v;
	if (k->buffer) {
		v = ca_pair_map_get(&s->enqueues, k->buffer, ca_slot_key(k->slot, k->pid));
		return v ? *v : 0;
	}
	uint64_t message = k->message;
	if ((v = ca_pair_map_get(&s->copies, ca_thread_key(k->pid, 0), message)))
		message = *v;
	v = ca_pair_map_get(&s->intra, ca_thread_key(k->pid, 0), message);
	return v ? *v : 0;
}

static struct waiting_pair *waiting_for(const struct ca_stream *s, int32_t pid, int32_t tid,
	size_t callback)
{
	const uint64_t *i = ca_pair_map_get(&s->waiting_of, ca_thread_key(pid, tid), callback);
	return i ? &s->waiting[*i] : NULL;
}

void ca_stream_take(struct ca_stream *s, const struct ca_take *k)
{
	if (k->callback == CA_NONE)
		return; /* an rmw-internal reader (discovery): no callback to run */
	bool added;
	uint64_t *i = ca_pair_map_at(&s->waiting_of, ca_thread_key(k->pid, k->tid), k->callback,
		&added);
	if (i && added) { /* both deliveries, zeroed: none active */
		*i = s->n_waiting;
		struct waiting_pair *pair = VEC_PUSH(s->waiting, s->n_waiting, s->cap_waiting);
		i = pair ? i : NULL;
	}
	if (!i) {
		oom(s);
		return;
	}
	struct waiting_take *w = &s->waiting[*i].of[k->intra];
	const struct waiting_take *other = &s->waiting[*i].of[!k->intra];
	/* an rmw_take and a dispatch of one message complete each other, when
	 * nothing of the other delivery came between them */
	bool complete = w->active && (!other->active || other->seq < w->seq);
	uint64_t stamp = k->stamp || !complete ? k->stamp : w->take.stamp;
	uint64_t header = k->header || !complete ? k->header : w->take.header;
	size_t subscription = k->subscription != CA_NONE || !complete ? k->subscription :
		w->take.subscription;
	w->takes = w->active ? w->takes + 1 : 1;
	w->take = *k; /* merged in place: one copy */
	w->take.stamp = stamp;
	w->take.header = header;
	w->take.subscription = subscription;
	w->seq = ++s->seq;
	w->publish_time = 0;
	w->active = true;
	if (k->intra)
		w->publish_time = intra_publish_time(s, &w->take);
	s->now = k->time > s->now ? k->time : s->now;
}

/* ---- runs ------------------------------------------------------------------- */

/* Run `run` handled a message of subscription `sub` published at
 * publish_time (a follower's: the publish's reference; 0: not found). */
static void deliver(struct ca_stream *s, size_t sub, bool intra, const struct ca_stream_run *run,
	uint64_t publish_time, bool by_time)
{
	struct ca_records *r = s->r;
	uint64_t start = run->start;
	r->losses.not_published += !publish_time;
	r->losses.matched_by_time += by_time;
	if (sub == CA_NONE)
		return;
	if (s->follow) {
		if (!ca_follow_deliver(s->follow, run, s->m->subscriptions[sub].topic, publish_time,
			0, intra))
			oom(s);
		return;
	}
	if (!publish_time) {
		r->not_published[2 * sub + intra]++;
		return;
	}
	struct values *v = &s->delivered[2 * sub + intra];
	int64_t *x = VEC_PUSH_RAW(v->v, v->n, v->cap);
	if (!x)
		oom(s);
	else
		*x = (int64_t)(start - publish_time);
	if (s->delivered_at) {
		struct times *at = &s->delivered_at[2 * sub + intra];
		uint64_t *y = VEC_PUSH_RAW(at->t, at->n, at->cap);
		if (!y)
			oom(s);
		else
			*y = publish_time;
	}
	s->received[2 * sub + intra]++;
}

/* The deferred messages whose grace is over (all of them at the end):
 * their publish by stamp, else by time. */
static void settle_deferred_now(struct ca_stream *s, bool all)
{
	while (s->first_deferred < s->n_deferred) {
		const struct deferred *d = &s->deferred[s->first_deferred];
		if (!all && d->deadline > s->now)
			break;
		bool by_time = false;
		uint64_t time = inter_publish_time(s, d->subscription, d->stamp, &by_time);
		s->first_deferred++;
		deliver(s, d->subscription, false, &d->run, time, by_time);
	}
	if (s->first_deferred == s->n_deferred)
		s->first_deferred = s->n_deferred = 0;
	else if (s->first_deferred > 4096 && s->first_deferred * 2 > s->n_deferred) {
		s->n_deferred -= s->first_deferred;
		memmove(s->deferred, s->deferred + s->first_deferred,
			s->n_deferred * sizeof *s->deferred);
		s->first_deferred = 0;
	}
}

/* The message a run handles, taken by k: delivered now, or (an
 * inter-process one whose stamp no publish has yet) deferred. */
static void handled(struct ca_stream *s, const struct ca_take *k, uint64_t publish_time,
	const struct ca_stream_run *run)
{
	if (k->intra || k->subscription == CA_NONE || !k->stamp) {
		deliver(s, k->subscription, k->intra, run, publish_time, false);
		return;
	}
	uint64_t time = inter_publish_time(s, k->subscription, k->stamp, NULL);
	if (time) {
		deliver(s, k->subscription, false, run, time, false);
		return;
	}
	struct deferred *d = VEC_PUSH_RAW(s->deferred, s->n_deferred, s->cap_deferred);
	if (!d) {
		oom(s);
		return;
	}
	/* in the order of their runs' starts, which a merged run's end (where
	 * it is told) need not follow: the first is the earliest, the bound of
	 * what the follower may settle (settle_follower) */
	size_t i = (size_t)(d - s->deferred);
	for (; i > s->first_deferred && s->deferred[i - 1].run.start > run->start; i--)
		s->deferred[i] = s->deferred[i - 1];
	s->deferred[i] = (struct deferred){ k->subscription, k->stamp, run->start + STAMP_GRACE,
		*run };
}

/* The same, none deferred checked inline (most runs). */
static inline void settle_deferred(struct ca_stream *s, bool all)
{
	if (s->first_deferred < s->n_deferred)
		settle_deferred_now(s, all);
}

/* The follower's facts before `now` less the lag, and before every
 * message whose publish could still be found (settle_deferred): settled. */
static void settle_follower(struct ca_stream *s)
{
	if (!s->follow)
		return;
	uint64_t settled = s->now > s->follow_lag ? s->now - s->follow_lag : 0;
	if (s->first_deferred < s->n_deferred) {
		uint64_t start = s->deferred[s->first_deferred].run.start;
		settled = start < settled ? start : settled;
	}
	if (!ca_follow_settle(s->follow, settled))
		oom(s);
}

/* A run starts: the message it handles is the latest take waiting for it
 * (join.c: the takes before a run, after the previous one, go to it). */
static void run_starts(struct ca_stream *s, int32_t pid, int32_t tid,
	const struct ca_stream_run *run, bool intra)
{
	if (run->callback == CA_NONE)
		return;
	struct waiting_pair *pair = waiting_for(s, pid, tid, run->callback);
	struct waiting_take *w[2] = { pair ? &pair->of[0] : NULL, pair ? &pair->of[1] : NULL },
		*chosen = NULL;
	for (int d = 0; d < 2; d++) {
		if (!w[d] || !w[d]->active || w[d]->take.time > run->start)
			continue; /* a merged run's take after its start goes to a later run */
		w[d]->active = false;
		if (d && !intra) { /* an intra-process take, a run not for one */
			s->r->losses.taken_not_run += w[d]->takes;
			continue;
		}
		if (!chosen || w[d]->seq > chosen->seq)
			chosen = w[d];
	}
	const ca_callback *cb = &s->m->callbacks[run->callback];
	if (chosen) {
		handled(s, &chosen->take, chosen->publish_time, run);
	} else if (intra && cb->kind == CA_CALLBACK_SUBSCRIPTION) {
		/* nothing links this intra-process message to its publish */
		s->r->losses.intra_unlinked++;
		deliver(s, cb->owner, true, run, 0, false);
	}
}

void ca_stream_run_start(struct ca_stream *s, int32_t pid, int32_t tid,
	const struct ca_stream_run *run, bool intra)
{
	struct stream_thread *th = thread_of(s, pid, tid);
	if (!th) {
		oom(s);
		return;
	}
	s->now = run->start > s->now ? run->start : s->now;
	settle_deferred(s, false);
	settle_follower(s);
	size_t keep = th->n_outputs; /* the outputs of runs no longer open go */
	while (keep > 0 && th->outputs[keep - 1].depth >= run->depth)
		keep--;
	th->n_outputs = keep;
	run_starts(s, pid, tid, run, intra);
}

void ca_stream_run_dropped(struct ca_stream *s, int32_t pid, int32_t tid)
{
	struct stream_thread *th = thread_of(s, pid, tid);
	if (!th) {
		oom(s);
		return;
	}
	size_t kept = 0;
	for (size_t i = 0; i < th->n_outputs; i++)
		if (th->outputs[i].depth > 0)
			th->outputs[kept++] = (struct output){ th->outputs[i].depth - 1,
				th->outputs[i].topic };
	th->n_outputs = kept;
}

void ca_stream_run_merged(struct ca_stream *s, int32_t pid, int32_t tid,
	const struct ca_stream_run *run, uint64_t end, bool intra)
{
	struct stream_thread *th = thread_of(s, pid, tid);
	if (!th) {
		oom(s);
		return;
	}
	s->now = end > s->now ? end : s->now;
	settle_deferred(s, false);
	settle_follower(s);
	run_starts(s, pid, tid, run, intra);
	/* the publishes made in it: each topic's first is its output */
	const char *claimed[MAX_UNPLACED];
	size_t n_claimed = 0, kept = 0;
	for (size_t i = 0; i < th->n_unplaced; i++) {
		struct unplaced u = th->unplaced[i];
		if (u.time < run->start || u.time > end) {
			th->unplaced[kept++] = u;
			continue;
		}
		if (s->follow) { /* every one placed; the follower sees the outputs */
			if (!ca_follow_place(s->follow, u.ref, run, u.topic))
				oom(s);
			continue;
		}
		bool seen = false;
		for (size_t j = 0; j < n_claimed && !seen; j++)
			seen = claimed[j] == u.topic;
		if (seen)
			continue;
		claimed[n_claimed++] = u.topic;
		if (run->callback != CA_NONE)
			node_output(s, run->callback, u.topic, run->start,
				(int64_t)(u.time - run->start));
	}
	th->n_unplaced = kept;
	if (s->follow && !ca_follow_end(s->follow, run, end))
		oom(s);
}

void ca_stream_run_end(struct ca_stream *s, const struct ca_stream_run *run, uint64_t end)
{
	if (s->follow && !ca_follow_end(s->follow, run, end))
		oom(s);
}

/* ---- the end ------------------------------------------------------------------ */

int ca_stream_end(struct ca_stream *s)
{
	struct ca_records *r = s->r;
	settle_deferred(s, true);
	if (s->follow && !(r->followed = ca_follow_finish(s->follow)))
		oom(s);
	for (size_t i = 0; i < s->n_waiting; i++)
		for (int d = 0; d < 2; d++)
			if (s->waiting[i].of[d].active)
				r->losses.taken_not_run += s->waiting[i].of[d].takes;
	ca_deliveries_not_received(&s->deliveries, s->received, r->not_received);
	for (size_t i = 0; i < 2 * s->m->n_subscriptions; i++) {
		r->latencies[i] = (struct ca_latency_list){ s->delivered[i].v,
			s->delivered_at ? s->delivered_at[i].t : NULL, s->delivered[i].n };
		s->delivered[i] = (struct values){ 0 };
		if (s->delivered_at)
			s->delivered_at[i] = (struct times){ 0 };
	}
	for (size_t i = 0; i < r->n_node_paths; i++) {
		r->node_paths[i].values = s->path_values[i].v;
		r->node_paths[i].count = s->path_values[i].n;
		r->node_paths[i].starts = s->path_starts ? s->path_starts[i].t : NULL;
		s->path_values[i] = (struct values){ 0 };
		if (s->path_starts)
			s->path_starts[i] = (struct times){ 0 };
	}
	return r->oom ? -1 : 0;
}
