/*
 * splits.c - caret_communication_splits: where each inter-process message
 * of a communication waited (ca_records_message_hops), in publish order.
 */
#include <stdlib.h>

#include "api.h"
#include "error_build.h"
#include "sort_r.h"

static int by_publish_then_start(const void *a, const void *b, void *ctx)
{
	(void)ctx;
	const caret_message_split *x = a, *y = b;
	if (x->rclcpp_publish_ns != y->rclcpp_publish_ns)
		return x->rclcpp_publish_ns < y->rclcpp_publish_ns ? -1 : 1;
	return (x->callback_start_ns > y->callback_start_ns) -
		(x->callback_start_ns < y->callback_start_ns);
}

static caret_message_split split_of(const ca_records *r, size_t i)
{
	const ca_communication *all;
	const ca_publish_instance *pubs;
	const ca_callback_instance *runs;
	ca_records_communications(r, &all);
	ca_records_publishes(r, &pubs);
	ca_records_callbacks(r, &runs);
	const ca_publish_instance *p = &pubs[all[i].publish];
	caret_message_split s = { .rclcpp_publish_ns = ca_publish_time(p),
		.source_timestamp_ns = p->source_stamp,
		.callback_start_ns = runs[all[i].callback_instance].start };
	ca_message_hops h;
	if (ca_records_message_hops(r, i, &h))
		s = (caret_message_split){ s.rclcpp_publish_ns, s.source_timestamp_ns,
			s.callback_start_ns, h.to_write, h.in_middleware, h.to_callback, true };
	return s;
}

caret_status caret_communication_splits(caret_trace *t, size_t communication,
	caret_message_split **splits, size_t *n, caret_error **error)
{
	if (!API_BEGIN(t, splits, n, error))
		return CARET_ERR_INVALID;
	if (!caret_api_known_communication(t, communication, error))
		return CARET_ERR_NOT_FOUND;
	const ca_records *r = caret_api_records(t, error);
	if (!r)
		return caret_error_status(*error);
	const ca_communication *all;
	size_t total = ca_records_communications(r, &all), k = 0;
	caret_message_split *out = malloc((total + 1) * sizeof *out);
	if (!out) {
		caret_error_add(error, CARET_ERR_NO_MEMORY, NULL, -1, NULL, "out of memory");
		return CARET_ERR_NO_MEMORY;
	}
	for (size_t i = 0; i < total; i++)
		if (!all[i].intra && all[i].publish != CA_NONE &&
		    caret_api_of_comm(r, &t->comms[communication], &all[i]))
			out[k++] = split_of(r, i);
	caret_sort_unless_sorted_r(out, k, sizeof *out, by_publish_then_start, NULL);
	*splits = out;
	*n = k;
	return CARET_OK;
}
