/*
 * node_path.c - caret/analyze.h's node path records: per run of a
 * subscription callback, the DDS source timestamp of the message it took
 * and the output its node's message context gives it (callback_chain:
 * the run's own first publish; use_latest_message: each publish of the
 * node while that input is the latest, a record each, as the original's
 * left join; consume_latest_message: the first of them), as the path
 * follower's policies.
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

/* The runs' records under a latest message policy, into *out (malloc'd,
 * *n of them): a publish goes to the latest run started at or before it (a
 * run that starts at the publish's time is the latest), a record per
 * publish (every: use_latest_message) or its first only, and a run that
 * got none a record of its own. */
static bool latest(const caret_node_record *runs, size_t n_runs, const uint64_t *pubs,
	size_t n_pubs, bool every, caret_node_record **out, size_t *n)
{
	*out = malloc((n_runs + (every ? n_pubs : 0) + 1) * sizeof **out);
	if (!*out)
		return false;
	size_t k = 0, j = 0;
	for (size_t i = 0; i < n_runs; i++) {
		uint64_t next = i + 1 < n_runs ? runs[i + 1].callback_start_ns : UINT64_MAX;
		while (j < n_pubs && pubs[j] < runs[i].callback_start_ns)
			j++;
		size_t first = k;
		for (; j < n_pubs && pubs[j] < next && (every || k == first); j++) {
			(*out)[k] = runs[i];
			(*out)[k++].publish_ns = pubs[j];
		}
		if (k == first)
			(*out)[k++] = runs[i];
	}
	*n = k;
	return true;
}

caret_status caret_node_path_records(caret_trace *t, size_t callback, const char *topic,
	caret_policy policy, caret_node_record **records, size_t *n, caret_error **error)
{
	if (!API_BEGIN(t, records, n, error))
		return CARET_ERR_INVALID;
	const ca_architecture *a = ca_trace_architecture(t->trace);
	bool by_latest = policy == CARET_POLICY_USE_LATEST_MESSAGE ||
		policy == CARET_POLICY_CONSUME_LATEST_MESSAGE;
	if (policy != CARET_POLICY_CALLBACK_CHAIN && !by_latest) {
		caret_error_add(error, CARET_ERR_INVALID, NULL, -1, NULL, "caret_node_path_records: "
			"policy %d: node path records take callback_chain, use_latest_message or "
			"consume_latest_message", (int)policy);
		return CARET_ERR_INVALID;
	}
	caret_chain_record *chain;
	size_t m;
	/* the runs (and callback_chain's outputs), the arguments checked, the
	 * records joined (a lazy open's: now) */
	caret_status s = caret_callback_chain(t, callback, topic, &chain, &m, error);
	if (s != CARET_OK)
		return s;
	caret_node_record *runs = calloc(m + 1, sizeof *runs), *out = NULL;
	size_t n_pubs = 0, n_out = m;
	bool oom = !runs;
	uint64_t *pubs = oom || !by_latest ? NULL :
		publishes_of(t, a->callbacks[callback].node, topic, &n_pubs, &oom);
	for (size_t i = 0; !oom && i < m; i++) {
		runs[i].callback_start_ns = chain[i].callback_start_ns;
		if (policy == CARET_POLICY_CALLBACK_CHAIN)
			runs[i].publish_ns = chain[i].publish_ns;
	}
	free(chain);
	/* the inputs' source timestamps: the inter-process messages the runs took */
	const ca_communication *comms;
	size_t count, lo = ca_records_callback_stretch(t->records, callback, &count), hi = lo + count;
	size_t n_comms = oom ? 0 : ca_records_communications(t->records, &comms);
	for (size_t i = 0; i < n_comms; i++) {
		const ca_communication *c = &comms[i];
		if (!c->intra && c->callback_instance >= lo && c->callback_instance < hi)
			runs[c->callback_instance - lo].source_timestamp_ns = c->source_stamp;
	}
	if (!oom && by_latest)
		oom = !latest(runs, m, pubs, n_pubs, policy == CARET_POLICY_USE_LATEST_MESSAGE, &out,
			&n_out);
	free(pubs);
	if (by_latest || oom)
		free(runs);
	else
		out = runs;
	if (oom) {
		caret_error_add(error, CARET_ERR_NO_MEMORY, NULL, -1, NULL, "out of memory");
		return CARET_ERR_NO_MEMORY;
	}
	*records = out;
	*n = n_out;
	return CARET_OK;
}
