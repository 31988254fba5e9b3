/*
 * node_path.c - caret/analyze.h's node path records: per run of a
 * subscription callback, the DDS source timestamp of the message it took
 * and the output its node's message context gives it (callback_chain:
 * the run's own first publish; use_latest_message: the node's next
 * publish while that input is the latest, as the path follower's policy).
 */
#include <stdlib.h>
#include <string.h>

#include "api.h"
#include "error_build.h"
#include "sort_r.h"

static int by_time(const void *a, const void *b, void *ctx)
{
	(void)ctx;
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return (x > y) - (x < y);
}

/* The publish times of node `node` on `topic`, sorted: malloc'd (NULL with
 * *n 0 when there is none, or out of memory: *oom). */
static uint64_t *publishes_of(const caret_trace *t, size_t node, const char *topic, size_t *n,
	bool *oom)
{
	const ca_architecture *a = ca_trace_architecture(t->trace);
	const ca_publish_instance *pubs;
	size_t n_pubs = ca_records_publishes(t->records, &pubs), k = 0;
	uint64_t *out = malloc((n_pubs + 1) * sizeof *out);
	*oom = !out;
	for (size_t i = 0; out && i < n_pubs; i++) {
		const ca_publish_instance *p = &pubs[i];
		if (p->publisher == CA_NONE)
			continue;
		const ca_publisher *pub = &a->publishers[p->publisher];
		if (pub->node == node && pub->topic && !strcmp(pub->topic, topic))
			out[k++] = ca_publish_time(p);
	}
	if (out)
		caret_sort_unless_sorted_r(out, k, sizeof *out, by_time, NULL);
	*n = k;
	return out;
}

/* Run i's output under use_latest_message: the first publish at or after
 * its start, unless the next input came before it (that one took it). */
static void use_latest(caret_node_record *out, size_t n, const uint64_t *pubs, size_t n_pubs)
{
	size_t j = 0;
	for (size_t i = 0; i < n; i++) {
		while (j < n_pubs && pubs[j] < out[i].callback_start_ns)
			j++;
		if (j < n_pubs && (i + 1 == n || pubs[j] <= out[i + 1].callback_start_ns))
			out[i].publish_ns = pubs[j];
	}
}

caret_status caret_node_path_records(caret_trace *t, size_t callback, const char *topic,
	caret_policy policy, caret_node_record **records, size_t *n, caret_error **error)
{
	const ca_architecture *a = ca_trace_architecture(t->trace);
	*records = NULL;
	*n = 0;
	*error = NULL;
	if (policy != CARET_POLICY_CALLBACK_CHAIN && policy != CARET_POLICY_USE_LATEST_MESSAGE) {
		caret_error_add(error, CARET_ERR_INVALID, NULL, -1, NULL,
			"node path records take callback_chain or use_latest_message");
		return CARET_ERR_INVALID;
	}
	caret_chain_record *chain;
	size_t m;
	/* the runs (and callback_chain's outputs), the arguments checked */
	caret_status s = caret_callback_chain(t, callback, topic, &chain, &m, error);
	if (s != CARET_OK)
		return s;
	caret_node_record *out = calloc(m + 1, sizeof *out);
	size_t n_pubs = 0;
	bool oom = !out;
	uint64_t *pubs = oom || policy != CARET_POLICY_USE_LATEST_MESSAGE ? NULL :
		publishes_of(t, a->callbacks[callback].node, topic, &n_pubs, &oom);
	if (oom) {
		free(chain);
		free(out);
		caret_error_add(error, CARET_ERR_NO_MEMORY, NULL, -1, NULL, "out of memory");
		return CARET_ERR_NO_MEMORY;
	}
	for (size_t i = 0; i < m; i++) {
		out[i].callback_start_ns = chain[i].callback_start_ns;
		if (policy == CARET_POLICY_CALLBACK_CHAIN)
			out[i].publish_ns = chain[i].publish_ns;
	}
	free(chain);
	if (pubs)
		use_latest(out, m, pubs, n_pubs);
	free(pubs);
	/* the inputs' source timestamps: the inter-process messages the runs took */
	const ca_communication *comms;
	size_t count, lo = ca_records_callback_stretch(t->records, callback, &count), hi = lo + count;
	size_t n_comms = ca_records_communications(t->records, &comms);
	for (size_t i = 0; i < n_comms; i++) {
		const ca_communication *c = &comms[i];
		if (!c->intra && c->callback_instance >= lo && c->callback_instance < hi)
			out[c->callback_instance - lo].source_timestamp_ns = c->source_stamp;
	}
	*records = out;
	*n = m;
	return CARET_OK;
}
