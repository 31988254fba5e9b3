/*
 * join.c - links what the scan collected: each publish to the callback run
 * it happened in; each take to the next run of its callback in the same
 * thread; each run that handled a message to its publish (inter-process:
 * same topic and DDS source timestamp; intra-process: the message address,
 * through its copies, or (Jazzy) the ring-buffer slot its publish filled
 * and its run emptied); and counts what found no partner.
 */
#include <stdlib.h>
#include <string.h>

#include "records.h"
#include "vec.h"

/* ---- sorting ------------------------------------------------------------ */

/* A signed key in unsigned order. */
static uint64_t signed_key(int64_t v)
{
	return (uint64_t)v ^ ((uint64_t)1 << 63);
}

/* Whether the runs are in start order, ties by thread: the scan makes
 * them at their starts, so they nearly always are. */
static bool in_start_order(const struct ca_records *r)
{
	for (size_t i = 1; i < r->n_runs; i++) {
		const ca_callback_instance *a = &r->runs[i - 1], *b = &r->runs[i];
		if (a->start > b->start || (a->start == b->start && a->tid > b->tid))
			return false;
	}
	return true;
}

/* The runs by callback, start, then thread (what ca_records_callbacks
 * promises);
 * r->by_thread: their indexes by pid, thread, then start. Radix passes,
 * least significant key first; the passes by start and thread are not
 * needed when the runs are in start order already. */
enum run_key { BY_CALLBACK, BY_START, BY_TID, BY_PID };

/* One stable radix sort of x's order by a key of the runs. */
static void sort_by(struct ca_radix *x, const ca_callback_instance *runs, enum run_key k)
{
	for (size_t i = 0; i < x->n; i++)
		x->keys[i] = k == BY_CALLBACK ? runs[i].callback : k == BY_START ? runs[i].start :
			signed_key(k == BY_TID ? runs[i].tid : runs[i].pid);
	ca_radix_by(x);
}

static int sort_runs_and_threads(struct ca_records *r)
{
	size_t n = r->n_runs;
	if (!ca_radix_prepare(&r->sorter[0], n))
		return -1;
	struct ca_radix *x = r->sorter[0], *y = NULL;
	bool presorted = in_start_order(r);
	if (presorted) { /* by thread, on the indexes before the runs move */
		if (!ca_radix_prepare(&r->sorter[1], n))
			return -1;
		y = r->sorter[1];
		sort_by(y, r->runs, BY_TID);
		sort_by(y, r->runs, BY_PID);
	} else {
		sort_by(x, r->runs, BY_TID);
		sort_by(x, r->runs, BY_START);
	}
	sort_by(x, r->runs, BY_CALLBACK);
	if (!ca_radix_permute(x, r->runs, sizeof *r->runs))
		return -1;
	if (presorted) { /* where each run went: the inverse of x's order */
		for (size_t i = 0; i < n; i++)
			x->tmp[x->order[i]] = i;
		for (size_t i = 0; i < n; i++)
			r->by_thread[i] = x->tmp[y->order[i]];
		return 0;
	}
	for (size_t i = 0; i < n; i++)
		x->order[i] = i;
	sort_by(x, r->runs, BY_START);
	sort_by(x, r->runs, BY_TID);
	sort_by(x, r->runs, BY_PID);
	memcpy(r->by_thread, x->order, n * sizeof *x->order);
	return 0;
}

/* ---- publishes in callback runs ----------------------------------------- */

/* The innermost run of the publish's thread that holds its time. */
/* Whether by_thread's entry k comes before (pid, tid, t): ordered by
 * thread, then start. */
static bool run_before(const ca_records *r, size_t k, int64_t pid, int64_t tid, uint64_t t)
{
	const ca_callback_instance *x = &r->runs[r->by_thread[k]];
	return x->pid != pid ? x->pid < pid : x->tid != tid ? x->tid < tid : x->start <= t;
}

/* The run of (pid, tid) not ended at t that started last, from *hint: where
 * the search before ended. Publishes come in time order, mostly from the
 * thread before, so the answer is mostly there or a step on; a search of
 * every run (two cache misses a step) is the exception. */
static size_t run_at_from(const ca_records *r, int64_t pid, int64_t tid, uint64_t t,
	size_t *hint)
{
	size_t lo = *hint, hi = r->n_runs; /* first run after (pid, tid, t) */
	for (int step = 0; step < 4 && lo < hi && run_before(r, lo, pid, tid, t); step++)
		lo++;
	if ((lo < hi && run_before(r, lo, pid, tid, t)) ||
	    (lo > 0 && !run_before(r, lo - 1, pid, tid, t))) {
		lo = 0;
		while (lo < hi) {
			size_t mid = lo + (hi - lo) / 2;
			if (run_before(r, mid, pid, tid, t))
				lo = mid + 1;
			else
				hi = mid;
		}
	}
	*hint = lo;
	for (size_t k = lo; k-- > 0;) {
		const ca_callback_instance *x = &r->runs[r->by_thread[k]];
		if (x->pid != pid || x->tid != tid)
			break;
		if (!x->end || x->end >= t)
			return r->by_thread[k];
	}
	return CA_NONE;
}

size_t ca_records_run_at(const ca_records *r, int64_t pid, int64_t tid, uint64_t t)
{
	size_t hint = 0;
	return run_at_from(r, pid, tid, t, &hint);
}

static void place_publishes(struct ca_records *r)
{
	size_t hint = 0;
	for (size_t i = 0; i < r->n_publishes; i++) {
		ca_publish_instance *p = &r->publishes[i];
		p->callback_instance = run_at_from(r, p->pid, p->tid, ca_publish_time(p), &hint);
	}
}

/* ---- takes to runs ------------------------------------------------------ */

static bool take_after(const struct ca_records *r, size_t i, const struct ca_take *k)
{
	const ca_callback_instance *x = &r->runs[i];
	return x->callback < k->callback || (x->callback == k->callback && x->start < k->time);
}

/* The first run of the take's callback, in its thread, starting at or after
 * it (and for the intra-process kind, started for an intra-process
 * message). Runs are sorted by callback then start; the search starts
 * where the one before for the same callback ended (*hint): takes come in
 * time order. */
static size_t run_of_take(const struct ca_records *r, const struct ca_take *k, size_t *hint)
{
	size_t lo = *hint, hi = r->n_runs;
	for (int step = 0; step < 4 && lo < hi && take_after(r, lo, k); step++)
		lo++;
	if ((lo < hi && take_after(r, lo, k)) || (lo > 0 && !take_after(r, lo - 1, k))) {
		lo = 0;
		while (lo < hi) {
			size_t mid = lo + (hi - lo) / 2;
			if (take_after(r, mid, k))
				lo = mid + 1;
			else
				hi = mid;
		}
	}
	*hint = lo;
	for (size_t i = lo; i < r->n_runs && r->runs[i].callback == k->callback; i++)
		if (r->runs[i].pid == k->pid && r->runs[i].tid == k->tid)
			return !k->intra || r->runs[i].intra ? i : CA_NONE;
	return CA_NONE;
}

/* ---- publishes by key --------------------------------------------------- */

struct keyed {
	uint64_t a, b, time; /* (topic or pid, stamp or message), time */
	size_t index;
};

static int by_key_time(const void *x, const void *y)
{
	const struct keyed *p = x, *q = y;
	if (p->a != q->a)
		return p->a < q->a ? -1 : 1;
	if (p->b != q->b)
		return p->b < q->b ? -1 : 1;
	return (p->time > q->time) - (p->time < q->time);
}

/* v in by_key_time's order; false when out of memory. */
static bool sort_keyed(struct ca_records *r, struct keyed *v, size_t n)
{
	if (n < 2)
		return true;
	if (!ca_radix_prepare(&r->sorter[0], n))
		return false;
	struct ca_radix *x = r->sorter[0];
	bool in_time_order = true; /* as the scan makes them, mostly */
	for (size_t i = 0; i < n; i++) {
		x->keys[i] = v[i].time;
		in_time_order = in_time_order && (!i || v[i - 1].time <= v[i].time);
	}
	if (!in_time_order)
		ca_radix_by(x);
	for (size_t i = 0; i < n; i++)
		x->keys[i] = v[i].b;
	ca_radix_by(x);
	for (size_t i = 0; i < n; i++)
		x->keys[i] = v[i].a;
	ca_radix_by(x);
	return ca_radix_permute(x, v, sizeof *v);
}

/* The position of the last entry with key (a, b) and time <= t (any time
 * when t is UINT64_MAX), or SIZE_MAX. */
static size_t last_at(const struct keyed *v, size_t n, uint64_t a, uint64_t b, uint64_t t)
{
	size_t lo = 0, hi = n;
	struct keyed key = { a, b, t, 0 };
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (by_key_time(&v[mid], &key) <= 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo && v[lo - 1].a == a && v[lo - 1].b == b ? lo - 1 : SIZE_MAX;
}

/* The last entry with key (a, b) and time <= t, or CA_NONE. */
static size_t last_before(const struct keyed *v, size_t n, uint64_t a, uint64_t b, uint64_t t)
{
	size_t p = last_at(v, n, a, b, t);
	return p == SIZE_MAX ? CA_NONE : v[p].index;
}

/* Where a key's entry was found last, for lookups of the same key at
 * later times: takes come in time order, and the keys of intra-process
 * messages (their addresses) recur. Direct-mapped by key. */
#define RECENT 64
struct recent {
	uint64_t a, b;
	size_t pos; /* SIZE_MAX: none */
};

static bool same_key(const struct keyed *x, uint64_t a, uint64_t b)
{
	return x->a == a && x->b == b;
}

/* last_before, from where the key was found last when that is at or
 * before t and the answer a few entries on; else by bisection. */
static size_t last_before_near(const struct keyed *v, size_t n, uint64_t a, uint64_t b,
	uint64_t t, struct recent *recent)
{
	struct recent *c = &recent[(a * 0x9E3779B97F4A7C15u ^ b) % RECENT];
	size_t p = SIZE_MAX;
	if (c->pos != SIZE_MAX && c->a == a && c->b == b && v[c->pos].time <= t) {
		p = c->pos;
		for (int step = 0; p != SIZE_MAX && p + 1 < n && same_key(&v[p + 1], a, b) &&
		     v[p + 1].time <= t; step++)
			p = step < 8 ? p + 1 : SIZE_MAX; /* far on: bisect */
	}
	if (p == SIZE_MAX)
		p = last_at(v, n, a, b, t);
	if (p != SIZE_MAX)
		*c = (struct recent){ a, b, p };
	return p == SIZE_MAX ? CA_NONE : v[p].index;
}

struct indexes {
	struct keyed *unstamped; /* (topic, 0, epoch time): no source stamp */
	size_t n_unstamped;
	struct keyed *inter; /* (topic, source stamp) */
	struct keyed *intra; /* (pid, message) */
	struct keyed *copies; /* (pid, copy) -> original */
	struct keyed *enqueues; /* (buffer, slot << 31 | pid): Jazzy's ring buffers */
	size_t n_inter, n_intra, n_copies, n_enqueues;
	struct recent recent_intra[RECENT], recent_copies[RECENT], recent_enqueues[RECENT];
};

static int build_indexes(struct ca_records *r, struct indexes *x)
{
	size_t intra = 0, stamped = 0, unstamped = 0;
	memset(x->recent_intra, 0xff, sizeof x->recent_intra); /* pos SIZE_MAX: none */
	memset(x->recent_copies, 0xff, sizeof x->recent_copies);
	memset(x->recent_enqueues, 0xff, sizeof x->recent_enqueues);
	for (size_t i = 0; i < r->n_publishes; i++) {
		const ca_publish_instance *p = &r->publishes[i];
		intra += p->intra;
		stamped += !p->intra && p->source_stamp && p->publisher != CA_NONE;
		unstamped += !p->intra && !p->source_stamp && p->publisher != CA_NONE;
	}
	x->inter = calloc(stamped + 1, sizeof *x->inter);
	x->intra = calloc(intra + 1, sizeof *x->intra);
	x->copies = calloc(r->n_copies + 1, sizeof *x->copies);
	x->unstamped = calloc(unstamped + 1, sizeof *x->unstamped);
	x->enqueues = calloc(r->n_enqueues + 1, sizeof *x->enqueues);
	if (!x->inter || !x->intra || !x->copies || !x->unstamped || !x->enqueues)
		return -1;
	for (size_t i = 0; i < r->n_publishes; i++) {
		const ca_publish_instance *p = &r->publishes[i];
		if (p->intra)
			x->intra[x->n_intra++] = (struct keyed){ (uint64_t)p->pid, p->message,
				ca_publish_time(p), i };
		else if (p->source_stamp && p->publisher != CA_NONE)
			x->inter[x->n_inter++] = (struct keyed){
				(uintptr_t)r->m->publishers[p->publisher].topic, p->source_stamp, 0, i };
		else if (p->publisher != CA_NONE && r->t->epoch_offset)
			x->unstamped[x->n_unstamped++] = (struct keyed){
				(uintptr_t)r->m->publishers[p->publisher].topic, 0,
				ca_publish_time(p) + (uint64_t)r->t->epoch_offset, i };
	}
	for (size_t i = 0; i < r->n_copies; i++)
		x->copies[x->n_copies++] = (struct keyed){ (uint64_t)r->copies[i].pid,
			r->copies[i].copy, r->copies[i].time, i };
	for (size_t i = 0; i < r->n_enqueues; i++) {
		const struct ca_enqueue *q = &r->enqueues[i];
		if (q->publish != CA_NONE)
			x->enqueues[x->n_enqueues++] = (struct keyed){ q->buffer,
				ca_slot_key(q->slot, q->pid), q->time, q->publish };
	}
	return sort_keyed(r, x->inter, x->n_inter) && sort_keyed(r, x->intra, x->n_intra) &&
		sort_keyed(r, x->copies, x->n_copies) &&
		sort_keyed(r, x->unstamped, x->n_unstamped) &&
		sort_keyed(r, x->enqueues, x->n_enqueues) ? 0 : -1;
}

static size_t publish_of(const struct ca_records *r, struct indexes *x,
	const struct ca_take *k, bool *by_time)
{
	*by_time = false;
	if (!k->intra) {
		if (k->subscription == CA_NONE || !k->stamp)
			return CA_NONE;
		uint64_t topic = (uintptr_t)r->m->subscriptions[k->subscription].topic;
		size_t p = last_before(x->inter, x->n_inter, topic, k->stamp, UINT64_MAX);
		/* A publish without its source stamp (plain ros2_tracing): the
		 * DDS source timestamp is the realtime clock at the write, just
		 * after the publish; the trace's epoch offset puts the publish on
		 * that clock. The last publish on the topic before it is the one. */
		if (p == CA_NONE) {
			p = last_before(x->unstamped, x->n_unstamped, topic, 0, k->stamp);
			if (p != CA_NONE && k->stamp - (ca_publish_time(&r->publishes[p]) +
				(uint64_t)r->t->epoch_offset) > CA_MAX_WRITE_DELAY)
				p = CA_NONE;
			*by_time = p != CA_NONE;
		}
		return p;
	}
	/* Jazzy: the last message put into the slot this take emptied */
	if (k->buffer)
		return last_before_near(x->enqueues, x->n_enqueues, k->buffer,
			ca_slot_key(k->slot, k->pid), k->time, x->recent_enqueues);
	uint64_t message = k->message;
	size_t c = last_before_near(x->copies, x->n_copies, (uint64_t)k->pid, message, k->time,
		x->recent_copies);
	if (c != CA_NONE)
		message = r->copies[c].original;
	return last_before_near(x->intra, x->n_intra, (uint64_t)k->pid, message, k->time,
		x->recent_intra);
}

/* ---- what a subscription should have received --------------------------- */

/* Each subscription's publishes (deliveries.c) less the messages it
 * handled. */
static int count_not_received(struct ca_records *r)
{
	struct ca_deliveries d;
	bool ready = ca_deliveries_init(&d, r->t, r->m);
	uint64_t *received = calloc(2 * r->m->n_subscriptions + 1, sizeof *received);
	if (ready && received) {
		for (size_t i = 0; i < r->n_communications; i++)
			if (r->communications[i].publish != CA_NONE &&
			    r->communications[i].subscription != CA_NONE)
				received[2 * r->communications[i].subscription +
					r->communications[i].intra]++;
		for (size_t i = 0; i < r->n_publishes; i++)
			ca_deliveries_publish(&d, &r->publishes[i]);
		ca_deliveries_not_received(&d, received, r->not_received);
	}
	ca_deliveries_free(&d);
	free(received);
	return ready && received ? 0 : -1;
}

static void free_sorters(struct ca_records *r)
{
	for (int i = 0; i < 2; i++) {
		ca_radix_free(r->sorter[i]);
		r->sorter[i] = NULL;
	}
}

int ca_records_join(struct ca_records *r)
{
	struct indexes x = { 0 };
	size_t *by_thread = r->by_thread = malloc((r->n_runs + 1) * sizeof *by_thread);
	size_t *take_of_run = malloc((r->n_runs + 1) * sizeof *take_of_run);
	size_t *hints = calloc(r->m->n_callbacks + 1, sizeof *hints); /* run_of_take's */
	int status = -1;

	if (!by_thread || !take_of_run || !hints || build_indexes(r, &x))
		goto out;
	if (sort_runs_and_threads(r) != 0)
		goto out;
	free_sorters(r); /* the largest sorts are done: their memory goes before the joins' */
	for (size_t i = 0; i < r->n_runs; i++)
		take_of_run[i] = CA_NONE;
	place_publishes(r);

	for (size_t i = 0; i < r->n_takes; i++) {
		struct ca_take *k = &r->takes[i];
		if (k->callback == CA_NONE)
			continue; /* an rmw-internal reader (discovery): no callback to run */
		size_t run = run_of_take(r, k, &hints[k->callback]);
		if (run == CA_NONE) {
			r->losses.taken_not_run++;
			continue;
		}
		/* The last take before the run; an rmw_take and a dispatch of one
		 * message complete each other (stamp, header). */
		size_t before = take_of_run[run];
		if (before != CA_NONE && r->takes[before].intra == k->intra) {
			if (!k->stamp)
				k->stamp = r->takes[before].stamp;
			if (!k->header)
				k->header = r->takes[before].header;
			if (k->subscription == CA_NONE)
				k->subscription = r->takes[before].subscription;
		}
		take_of_run[run] = i;
	}
	r->cap_communications = r->n_runs + 1;
	if (!(r->communications = malloc(r->cap_communications * sizeof *r->communications)))
		goto out;
	for (size_t i = 0; i < r->n_runs; i++) {
		const ca_callback_instance *run = &r->runs[i];
		bool by_time = false;
		ca_communication *c;
		if (take_of_run[i] != CA_NONE) {
			const struct ca_take *k = &r->takes[take_of_run[i]];
			if (!(c = VEC_PUSH(r->communications, r->n_communications, r->cap_communications)))
				goto out;
			*c = (ca_communication){ publish_of(r, &x, k, &by_time), i, k->subscription,
				k->intra, k->time, k->stamp, k->header };
		} else if (run->intra && run->callback != CA_NONE &&
			   r->m->callbacks[run->callback].kind == CA_CALLBACK_SUBSCRIPTION) {
			/* An intra-process message with no take event to name it
			 * (upstream Humble's rclcpp traces none): handled, and
			 * nothing links it to its publish. */
			if (!(c = VEC_PUSH(r->communications, r->n_communications, r->cap_communications)))
				goto out;
			*c = (ca_communication){ CA_NONE, i, r->m->callbacks[run->callback].owner, true,
				0, 0, 0 };
			r->losses.intra_unlinked++;
		} else
			continue;
		r->losses.not_published += c->publish == CA_NONE;
		r->losses.matched_by_time += by_time;
	}
	free(x.inter);
	free(x.intra);
	free(x.copies);
	free(x.unstamped);
	free(x.enqueues);
	x = (struct indexes){ 0 };
	free(take_of_run);
	take_of_run = NULL; /* by_thread stays: ca_records_run_at */
	/* What only the joins needed, gone before the counts' arrays come. */
	free(r->takes);
	free(r->copies);
	free(r->enqueues);
	r->takes = NULL;
	r->copies = NULL;
	r->enqueues = NULL;
	r->n_takes = r->n_copies = r->n_enqueues = 0;
	r->not_received = calloc(2 * r->m->n_subscriptions + 1, sizeof *r->not_received);
	if (!r->not_received || count_not_received(r) != 0 || ca_receptions_match(r) != 0)
		goto out;
	status = 0;
out:
	free(hints);
	free(take_of_run);
	free(x.inter);
	free(x.intra);
	free(x.copies);
	free(x.unstamped);
	free(x.enqueues);
	free_sorters(r);
	return status;
}
