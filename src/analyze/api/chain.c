/*
 * chain.c - caret/analyze.h's node paths: a callback's runs and, per run,
 * its first publish on a topic (the original's callback_chain), from the
 * publishes' own link to the run they were made in.
 */
#include <stdlib.h>
#include <string.h>

#include "api.h"
#include "error_build.h"

caret_status caret_callback_chain(caret_trace *t, size_t callback, const char *topic,
	caret_chain_record **records, size_t *n, caret_error **error)
{
	const ca_callback_instance *runs;
	const ca_publish_instance *pubs;
	if (!API_BEGIN(t, records, n, error) || !API_GIVEN(topic, error))
		return CARET_ERR_INVALID;
	if (!caret_api_known_callback(t, callback, error))
		return CARET_ERR_NOT_FOUND;
	const ca_architecture *a = ca_trace_architecture(t->trace);
	const ca_records *r = caret_api_records(t, error);
	if (!r)
		return caret_error_status(*error);
	ca_records_callbacks(r, &runs);
	size_t count, lo = ca_records_callback_stretch(r, callback, &count), hi = lo + count;
	size_t n_pubs = ca_records_publishes(r, &pubs);
	caret_chain_record *out = calloc(hi - lo + 1, sizeof *out);
	if (!out) {
		caret_error_add(error, CARET_ERR_NO_MEMORY, NULL, -1, NULL, "out of memory");
		return CARET_ERR_NO_MEMORY;
	}
	for (size_t i = lo; i < hi; i++)
		out[i - lo].callback_start_ns = runs[i].start;
	size_t node = a->callbacks[callback].node;
	for (size_t i = 0; i < n_pubs; i++) {
		const ca_publish_instance *p = &pubs[i];
		if (p->callback_instance < lo || p->callback_instance >= hi || p->publisher == CA_NONE)
			continue;
		const ca_publisher *pub = &a->publishers[p->publisher];
		caret_chain_record *r = &out[p->callback_instance - lo];
		uint64_t when = ca_publish_time(p);
		if (pub->node == node && pub->topic && !strcmp(pub->topic, topic) &&
		    (!r->publish_ns || when < r->publish_ns))
			r->publish_ns = when;
	}
	*records = out;
	*n = hi - lo;
	return CARET_OK;
}

void caret_free(void *memory)
{
	free(memory);
}
