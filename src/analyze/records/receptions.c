/*
 * receptions.c - when a message reached the subscriber's middleware, and
 * so each communication's DDS hop: its write to that reception. Two
 * tracer events tell it. On Fast DDS, rmw_take_reception gives a taken
 * message's reception time (the system clock, as its source stamp): the
 * hop is the reception less the source stamp. On Cyclone DDS,
 * rmw_data_available says that a sample reached a subscription's reader,
 * not which: each subscription's arrivals are matched to its messages in
 * the order they were written, each message to the first arrival not yet
 * matched at or after its write (no later than its take: below). With one
 * writer (a FIFO channel) that is its own; with messages of several
 * writers in flight at once it can be another's that came first: the hop
 * is then a lower bound, short by less than the DDS transit time.
 */
#include <stdint.h>
#include <stdlib.h>

#include "records.h"
#include "sort_r.h"
#include "vec.h"

#define UNKNOWN_HOP INT64_MIN

bool ca_receptions_add(struct ca_records *r, size_t subscription, uint64_t stamp,
	uint64_t received)
{
	struct ca_reception *x = VEC_PUSH_RAW(r->receptions, r->n_receptions, r->cap_receptions);
	if (!x)
		return false;
	*x = (struct ca_reception){ subscription, stamp, received };
	return true;
}

/* By subscription, then stamp (an arrival's is 0: a subscription's
 * arrivals come first, in time order), then time. */
static int by_subscription_and_stamp(const void *a, const void *b, void *ctx)
{
	(void)ctx;
	const struct ca_reception *x = a, *y = b;
	if (x->subscription != y->subscription)
		return x->subscription < y->subscription ? -1 : 1;
	if (x->stamp != y->stamp)
		return x->stamp < y->stamp ? -1 : 1;
	return (x->received > y->received) - (x->received < y->received);
}

void ca_receptions_sort(struct ca_records *r)
{
	caret_sort_unless_sorted_r(r->receptions, r->n_receptions, sizeof *r->receptions,
		by_subscription_and_stamp, NULL);
}

/* The first reception of (subscription, stamp) or after it. */
static size_t lower_bound(const struct ca_records *r, size_t subscription, uint64_t stamp)
{
	size_t lo = 0, hi = r->n_receptions;
	const struct ca_reception key = { subscription, stamp, 0 };
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (by_subscription_and_stamp(&r->receptions[mid], &key, NULL) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* A communication whose DDS hop the trace can tell: inter-process, its
 * publish and its DDS write in the trace. */
static bool has_write(const struct ca_records *r, const ca_communication *c)
{
	return !c->intra && c->publish != CA_NONE && c->subscription != CA_NONE &&
	       r->publishes[c->publish].dds_write_time;
}

/* Fast DDS: the reception of the message's own source stamp. */
static void match_stamped(struct ca_records *r)
{
	for (size_t i = 0; i < r->n_communications; i++) {
		const ca_communication *c = &r->communications[i];
		if (!has_write(r, c) || !c->source_stamp)
			continue;
		size_t k = lower_bound(r, c->subscription, c->source_stamp);
		if (k < r->n_receptions && r->receptions[k].subscription == c->subscription &&
		    r->receptions[k].stamp == c->source_stamp) {
			r->dds_hops[i] = (int64_t)(r->receptions[k].received - c->source_stamp);
			r->reception_kinds |= CA_RECEPTION_STAMPED;
		}
	}
}

static int by_subscription_and_write(const void *a, const void *b, void *ctx)
{
	const struct ca_records *r = ctx;
	const ca_communication *x = &r->communications[*(const size_t *)a];
	const ca_communication *y = &r->communications[*(const size_t *)b];
	if (x->subscription != y->subscription)
		return x->subscription < y->subscription ? -1 : 1;
	uint64_t wx = r->publishes[x->publish].dds_write_time;
	uint64_t wy = r->publishes[y->publish].dds_write_time;
	return (wx > wy) - (wx < wy);
}

/* The latest time a message can have reached the middleware: its take,
 * else its callback's start. */
static uint64_t latest_arrival(const struct ca_records *r, const ca_communication *c)
{
	return c->take_time ? c->take_time : r->runs[c->callback_instance].start;
}

/* Cyclone DDS: arrivals in order (see the top). Cyclone calls the
 * listener after it stored the sample and woke the reader's waiters: an
 * idle executor can take the sample before the receive thread gets to the
 * listener; the reception is then the take (the executor's wake-up counts
 * in the DDS hop). */
static int match_arrivals(struct ca_records *r)
{
	size_t *order = malloc((r->n_communications + 1) * sizeof *order), n = 0;
	if (!order)
		return -1;
	for (size_t i = 0; i < r->n_communications; i++)
		if (has_write(r, &r->communications[i]) && r->dds_hops[i] == UNKNOWN_HOP)
			order[n++] = i;
	caret_sort_r(order, n, sizeof *order, by_subscription_and_write, r);
	size_t next = 0; /* the first arrival not matched yet */
	size_t subscription = CA_NONE;
	for (size_t j = 0; j < n; j++) {
		const ca_communication *c = &r->communications[order[j]];
		if (c->subscription != subscription) {
			subscription = c->subscription;
			next = lower_bound(r, subscription, 0);
		}
		uint64_t write = r->publishes[c->publish].dds_write_time;
		while (next < r->n_receptions && r->receptions[next].subscription == subscription &&
		       !r->receptions[next].stamp && r->receptions[next].received < write)
			next++;
		if (next >= r->n_receptions || r->receptions[next].subscription != subscription ||
		    r->receptions[next].stamp)
			continue;
		uint64_t arrival = r->receptions[next].received, latest = latest_arrival(r, c);
		/* after the take: a late listener's, unless the next message was
		 * written first (then it is likely the next one's: this one's
		 * arrival was not recorded, e.g. it came before the recording) */
		if (arrival > latest && j + 1 < n &&
		    r->communications[order[j + 1]].subscription == subscription &&
		    arrival >= r->publishes[r->communications[order[j + 1]].publish].dds_write_time)
			continue;
		next++;
		r->dds_hops[order[j]] = (int64_t)((arrival < latest ? arrival : latest) - write);
		r->reception_kinds |= CA_RECEPTION_ARRIVAL_ORDER;
	}
	free(order);
	return 0;
}

int ca_receptions_match(struct ca_records *r)
{
	if (!r->n_receptions || !r->n_communications)
		return 0;
	if (!(r->dds_hops = malloc(r->n_communications * sizeof *r->dds_hops)))
		return -1;
	for (size_t i = 0; i < r->n_communications; i++)
		r->dds_hops[i] = UNKNOWN_HOP;
	match_stamped(r);
	int status = match_arrivals(r);
	free(r->receptions);
	r->receptions = NULL;
	r->n_receptions = r->cap_receptions = 0;
	return status;
}

unsigned ca_records_reception_kinds(const ca_records *r)
{
	return r ? r->reception_kinds : 0;
}

bool ca_records_message_hops(const ca_records *r, size_t communication, ca_message_hops *out)
{
	if (!r || !r->dds_hops || communication >= r->n_communications ||
	    r->dds_hops[communication] == UNKNOWN_HOP)
		return false;
	const ca_communication *c = &r->communications[communication];
	const ca_publish_instance *p = &r->publishes[c->publish];
	int64_t total = (int64_t)(r->runs[c->callback_instance].start - ca_publish_time(p));
	out->to_write = (int64_t)(p->dds_write_time - ca_publish_time(p));
	out->in_middleware = r->dds_hops[communication];
	out->to_callback = total - out->to_write - out->in_middleware;
	return true;
}
