/*
 * deliveries.c - what each subscription should have received, counted
 * one publish at a time (join.c at the end, stream.c as the scan goes):
 * the publishes on its topic made while its process was recording,
 * inter-process ones from other processes, intra-process ones from its
 * own. Less the messages it handled, that is its not_received.
 */
#include <stdlib.h>

#include "records.h"

bool ca_deliveries_init(struct ca_deliveries *d, const ca_trace *t, const struct ca_model *m)
{
	*d = (struct ca_deliveries){ .m = m };
	size_t n = m->n_subscriptions;
	d->window = calloc(n + 1, sizeof *d->window);
	d->expected = calloc(2 * n + 1, sizeof *d->expected);
	d->next = calloc(n + 1, sizeof *d->next);
	if (!d->window || !d->expected || !d->next)
		return false;
	/* each topic's subscriptions, chained from the first in the map */
	for (size_t i = n; i-- > 0;) {
		const ca_subscription *s = &m->subscriptions[i];
		const uint64_t *first = ca_pair_map_get(&d->first_of, (uintptr_t)s->topic, 0);
		d->next[i] = first ? (size_t)*first : CA_NONE;
		if (!ca_pair_map_put(&d->first_of, (uintptr_t)s->topic, 0, i))
			return false;
		const struct ca_pid *p = &t->pids[ca_model_process_index(m, s->pid)];
		d->window[i][0] = p->first_time;
		d->window[i][1] = p->last_time;
	}
	return true;
}

void ca_deliveries_publish(struct ca_deliveries *d, const ca_publish_instance *p)
{
	if (p->publisher == CA_NONE)
		return;
	const struct ca_model *m = d->m;
	const uint64_t *first = ca_pair_map_get(&d->first_of,
		(uintptr_t)m->publishers[p->publisher].topic, 0);
	uint64_t time = ca_publish_time(p);
	for (size_t s = first ? (size_t)*first : CA_NONE; s != CA_NONE; s = d->next[s]) {
		bool own = m->subscriptions[s].pid == p->pid;
		if (own == p->intra && time >= d->window[s][0] && time <= d->window[s][1])
			d->expected[2 * s + p->intra]++;
	}
}

void ca_deliveries_not_received(const struct ca_deliveries *d, const uint64_t *received,
	uint64_t *not_received)
{
	for (size_t i = 0; i < 2 * d->m->n_subscriptions; i++)
		not_received[i] = d->expected[i] > received[i] ? d->expected[i] - received[i] : 0;
}

void ca_deliveries_free(struct ca_deliveries *d)
{
	free(d->window);
	free(d->expected);
	free(d->next);
	ca_pair_map_free(&d->first_of);
	*d = (struct ca_deliveries){ 0 };
}
