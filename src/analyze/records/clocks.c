/*
 * clocks.c - how far each host's clock is from the first host's, bounded
 * by the messages that cross between them, as NTP bounds it: a message
 * from the first host taken on host k says k's clock is at most (take -
 * publish) ahead (its transit takes no less than nothing); one the other
 * way says it is at least (publish - take) ahead. The estimate is the
 * middle of the two bounds, its uncertainty half their distance.
 */
#include <stdlib.h>
#include <string.h>

#include "ca.h"

static const char *host_of(const ca_architecture *a, int64_t pid)
{
	const ca_process *p = ca_architecture_process(a, pid);
	return p ? p->host : NULL;
}

static size_t host_index(const ca_host_clock *h, size_t n, const char *host)
{
	for (size_t i = 0; host && i < n; i++)
		if (!strcmp(h[i].host, host))
			return i;
	return CA_NONE;
}

/* The hosts of the trace, the first by name first (the reader puts
 * every host on its clock); their number. */
static size_t list_hosts(const ca_architecture *a, ca_host_clock *h)
{
	size_t n = 0;
	for (size_t i = 0; i < a->n_processes; i++) {
		const char *host = a->processes[i].host;
		if (!host)
			continue;
		size_t k = host_index(h, n, host);
		if (k == CA_NONE) {
			k = n++;
			h[k] = (ca_host_clock){ .host = host, .low = INT64_MIN, .high = INT64_MAX };
		}
		h[k].processes++;
	}
	for (size_t i = 1; i < n; i++)
		if (strcmp(h[i].host, h[0].host) < 0) {
			ca_host_clock first = h[0];
			h[0] = h[i];
			h[i] = first;
		}
	return n;
}

/* A publish by its DDS source timestamp. */
struct stamped {
	uint64_t stamp;
	size_t publish;
};

static int by_stamp(const void *a, const void *b)
{
	uint64_t x = ((const struct stamped *)a)->stamp, y = ((const struct stamped *)b)->stamp;
	return (x > y) - (x < y);
}

/* The publish of the message a communication took, found by its source
 * timestamp and topic rather than as the joins found it: they go in time
 * order, and a clock far ahead puts a take before its publish. */
static size_t publish_of(const ca_architecture *a, const ca_publish_instance *pubs,
	const struct stamped *byst, size_t n, const ca_communication *c)
{
	if (!c->source_stamp || !byst)
		return c->publish;
	size_t lo = 0, hi = n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (byst[mid].stamp < c->source_stamp)
			lo = mid + 1;
		else
			hi = mid;
	}
	const char *topic = a->subscriptions[c->subscription].topic;
	for (; lo < n && byst[lo].stamp == c->source_stamp; lo++) {
		const ca_publish_instance *p = &pubs[byst[lo].publish];
		if (p->publisher < a->n_publishers && topic &&
		    !strcmp(a->publishers[p->publisher].topic, topic))
			return byst[lo].publish;
	}
	return c->publish;
}

/* The first stage of a publish the trace has: the closest to the wire. */
static uint64_t sent(const ca_publish_instance *p)
{
	return p->dds_write_time ? p->dds_write_time : p->rcl_time ? p->rcl_time : p->rclcpp_time;
}

size_t ca_host_clocks(const ca_trace *t, const ca_records *r, ca_host_clock **out)
{
	const ca_architecture *a = ca_trace_architecture(t);
	ca_host_clock *h = calloc(a->n_processes + 1, sizeof *h);
	*out = NULL;
	if (!h)
		return 0;
	size_t n = list_hosts(a, h);
	if (n < 2) {
		free(h);
		return n;
	}
	h[0].low = h[0].high = 0;
	const ca_publish_instance *pubs;
	const ca_communication *comms;
	const ca_callback_instance *runs;
	size_t np = ca_records_publishes(r, &pubs), ns = 0;
	size_t nc = ca_records_communications(r, &comms);
	ca_records_callbacks(r, &runs);
	struct stamped *byst = malloc((np + 1) * sizeof *byst);
	for (size_t i = 0; byst && i < np; i++)
		if (pubs[i].source_stamp && !pubs[i].intra)
			byst[ns++] = (struct stamped){ pubs[i].source_stamp, i };
	if (byst)
		qsort(byst, ns, sizeof *byst, by_stamp);
	for (size_t i = 0; i < nc; i++) {
		const ca_communication *c = &comms[i];
		if (c->intra || c->subscription >= a->n_subscriptions)
			continue;
		size_t pi = publish_of(a, pubs, byst, ns, c);
		if (pi == CA_NONE)
			continue;
		const ca_publish_instance *p = &pubs[pi];
		uint64_t taken = c->take_time ? c->take_time :
			c->callback_instance != CA_NONE ? runs[c->callback_instance].start : 0;
		size_t from = host_index(h, n, host_of(a, p->pid));
		size_t to = host_index(h, n, host_of(a, a->subscriptions[c->subscription].pid));
		if (!taken || !sent(p) || from == CA_NONE || to == CA_NONE || from == to)
			continue;
		int64_t gap = (int64_t)(taken - sent(p)); /* transit + (to's clock - from's) */
		if (from == 0) { /* to's clock is at most gap ahead */
			h[to].from_first++;
			if (gap < h[to].high)
				h[to].high = gap;
		} else if (to == 0) { /* from's clock is at least -gap ahead */
			h[from].to_first++;
			if (-gap > h[from].low)
				h[from].low = -gap;
		}
	}
	free(byst);
	*out = h;
	return n;
}

bool ca_host_clock_estimate(const ca_host_clock *h, int64_t *estimate, int64_t *uncertainty)
{
	if (h->low == INT64_MIN || h->high == INT64_MAX || h->low > h->high)
		return false;
	*estimate = h->low + (h->high - h->low) / 2;
	*uncertainty = (h->high - h->low) / 2;
	return true;
}
