/*
 * gather.c - caret/analyze.h's records: a callback's runs and a
 * communication's messages, gathered from the trace's records into arrays
 * of their own the first time they are asked for, kept with the trace.
 */
#include <stdlib.h>
#include <string.h>

#include "api.h"
#include "error_build.h"
#include "sort_r.h"

static caret_status no_memory(caret_error **error)
{
	caret_error_add(error, CARET_ERR_NO_MEMORY, NULL, -1, NULL, "out of memory");
	return CARET_ERR_NO_MEMORY;
}

/* Room for per-object counts, once. */
static bool make_counts(size_t **counts, size_t n)
{
	if (!*counts)
		*counts = calloc(n + 1, sizeof **counts);
	return *counts != NULL;
}

caret_status caret_callback_runs(caret_trace *t, size_t callback, const caret_run **runs,
	size_t *n, caret_error **error)
{
	if (!API_BEGIN(t, runs, n, error))
		return CARET_ERR_INVALID;
	if (!caret_api_known_callback(t, callback, error))
		return CARET_ERR_NOT_FOUND;
	const ca_architecture *a = ca_trace_architecture(t->trace);
	if (!t->runs)
		t->runs = calloc(a->n_callbacks + 1, sizeof *t->runs);
	if (!t->runs || !make_counts(&t->n_runs, a->n_callbacks))
		return no_memory(error);
	if (!t->runs[callback]) {
		const ca_records *r = caret_api_run_records(t, error);
		if (!r)
			return caret_error_status(*error);
		size_t count = ca_records_callback_run_count(r, callback);
		ca_callback_instance *found = malloc((count + 1) * sizeof *found);
		caret_run *out = malloc((count + 1) * sizeof *out);
		if (!found || !out) {
			free(found);
			free(out);
			return no_memory(error);
		}
		count = ca_records_callback_runs(r, callback, found);
		for (size_t i = 0; i < count; i++)
			out[i] = (caret_run){ found[i].start, found[i].end, found[i].pid, found[i].tid };
		free(found);
		t->runs[callback] = out;
		t->n_runs[callback] = count;
	}
	*runs = t->runs[callback];
	*n = t->n_runs[callback];
	return CARET_OK;
}

/* The publish order, those with none last by callback start. */
static int by_publish(const void *a, const void *b, void *ctx)
{
	(void)ctx;
	const caret_message *x = a, *y = b;
	uint64_t px = x->rclcpp_publish_ns ? x->rclcpp_publish_ns : UINT64_MAX;
	uint64_t py = y->rclcpp_publish_ns ? y->rclcpp_publish_ns : UINT64_MAX;
	if (px != py)
		return px < py ? -1 : 1;
	return (x->callback_start_ns > y->callback_start_ns) -
		(x->callback_start_ns < y->callback_start_ns);
}

/* Whether record x is a message of communication c. */
bool caret_api_of_comm(const ca_records *r, const struct caret_api_comm *c,
	const ca_communication *x)
{
	const ca_publish_instance *p;
	if (x->subscription != c->subscription || x->callback_instance == CA_NONE)
		return false;
	if (x->publish == CA_NONE)
		return c->sole;
	ca_records_publishes(r, &p);
	return p[x->publish].publisher == c->publisher;
}

static caret_message message_of(const ca_records *r, const ca_communication *x)
{
	const ca_publish_instance *pubs;
	const ca_callback_instance *runs;
	ca_records_publishes(r, &pubs);
	ca_records_callbacks(r, &runs);
	caret_message m = { .take_ns = x->take_time, .intra = x->intra,
		.callback_start_ns = runs[x->callback_instance].start };
	if (x->publish != CA_NONE) {
		const ca_publish_instance *p = &pubs[x->publish];
		m.rclcpp_publish_ns = p->rclcpp_time;
		m.rcl_publish_ns = p->rcl_time;
		m.dds_write_ns = p->dds_write_time;
		m.source_timestamp_ns = p->source_stamp;
	}
	return m;
}

caret_status caret_communication_messages(caret_trace *t, size_t communication,
	const caret_message **messages, size_t *n, caret_error **error)
{
	if (!API_BEGIN(t, messages, n, error))
		return CARET_ERR_INVALID;
	if (!caret_api_known_communication(t, communication, error))
		return CARET_ERR_NOT_FOUND;
	if (!t->messages)
		t->messages = calloc(t->n_comms + 1, sizeof *t->messages);
	if (!t->messages || !make_counts(&t->n_messages, t->n_comms))
		return no_memory(error);
	if (!t->messages[communication]) {
		const ca_records *r = caret_api_records(t, error);
		if (!r)
			return caret_error_status(*error);
		const ca_communication *all;
		size_t total = ca_records_communications(r, &all), k = 0;
		const struct caret_api_comm *c = &t->comms[communication];
		caret_message *out = malloc((total + 1) * sizeof *out);
		if (!out)
			return no_memory(error);
		for (size_t i = 0; i < total; i++)
			if (caret_api_of_comm(r, c, &all[i]))
				out[k++] = message_of(r, &all[i]);
		caret_sort_unless_sorted_r(out, k, sizeof *out, by_publish, NULL);
		t->messages[communication] = out;
		t->n_messages[communication] = k;
	}
	*messages = t->messages[communication];
	*n = t->n_messages[communication];
	return CARET_OK;
}

void caret_api_free_gathered(caret_trace *t)
{
	const ca_architecture *a = t->trace ? ca_trace_architecture(t->trace) : NULL;
	for (size_t i = 0; t->runs && a && i < a->n_callbacks; i++)
		free(t->runs[i]);
	for (size_t i = 0; t->messages && i < t->n_comms; i++)
		free(t->messages[i]);
	free(t->runs);
	free(t->n_runs);
	free(t->messages);
	free(t->n_messages);
	free(t->comms);
}

/* An intra-process communication's records are the publishes it
 * delivered, as the original's (a publish joined with its dispatch to the
 * subscription): one not handled (lost, or the trace ended first) has no
 * row; an inter-process one keeps its row, its handling 0. The rows left. */
static size_t drop_undelivered_if_intra(caret_message *rows, size_t n)
{
	bool intra = n > 0;
	for (size_t i = 0; i < n && intra; i++)
		intra = rows[i].intra;
	if (!intra)
		return n;
	size_t k = 0;
	for (size_t i = 0; i < n; i++)
		if (rows[i].callback_start_ns)
			rows[k++] = rows[i];
	return k;
}

caret_status caret_communication_records(caret_trace *t, size_t communication,
	caret_message **records, size_t *n, caret_error **error)
{
	if (!API_BEGIN(t, records, n, error))
		return CARET_ERR_INVALID;
	if (!caret_api_known_communication(t, communication, error))
		return CARET_ERR_NOT_FOUND;
	const struct caret_api_comm *c = &t->comms[communication];
	const ca_records *r = caret_api_records(t, error);
	if (!r)
		return caret_error_status(*error);
	const ca_publish_instance *pubs;
	const ca_communication *all;
	size_t n_pubs = ca_records_publishes(r, &pubs), k = 0;
	size_t total = ca_records_communications(r, &all);
	caret_message *out = malloc((n_pubs + 1) * sizeof *out);
	size_t *row_of = malloc((n_pubs + 1) * sizeof *row_of); /* publish -> its row */
	if (!out || !row_of) {
		free(out);
		free(row_of);
		return no_memory(error);
	}
	for (size_t i = 0; i < n_pubs; i++) {
		row_of[i] = CA_NONE;
		if (pubs[i].publisher != c->publisher)
			continue;
		row_of[i] = k;
		out[k++] = (caret_message){ .rclcpp_publish_ns = pubs[i].rclcpp_time,
			.rcl_publish_ns = pubs[i].rcl_time, .dds_write_ns = pubs[i].dds_write_time,
			.source_timestamp_ns = pubs[i].source_stamp, .intra = pubs[i].intra };
	}
	/* each publish's first handling by the subscription */
	for (size_t i = 0; i < total; i++) {
		if (all[i].publish == CA_NONE || !caret_api_of_comm(r, c, &all[i]))
			continue;
		caret_message *m = &out[row_of[all[i].publish]];
		caret_message handled = message_of(r, &all[i]);
		if (!m->callback_start_ns || handled.callback_start_ns < m->callback_start_ns) {
			m->take_ns = handled.take_ns;
			m->callback_start_ns = handled.callback_start_ns;
			m->intra = handled.intra;
		}
	}
	free(row_of);
	*records = out;
	*n = drop_undelivered_if_intra(out, k);
	return CARET_OK;
}

/* Whether node `node`'s publishers include architecture publisher p on topic. */
static bool publishes_on(const ca_architecture *a, size_t p, const char *node, const char *topic)
{
	const ca_publisher *pub = &a->publishers[p];
	return pub->node != CA_NONE && pub->topic && !strcmp(pub->topic, topic) &&
		!strcmp(a->nodes[pub->node].fqn, node);
}

caret_status caret_publisher_records(caret_trace *t, const char *node, const char *topic,
	caret_message **records, size_t *n, caret_error **error)
{
	if (!API_BEGIN(t, records, n, error) || !API_GIVEN(node, error) ||
	    !API_GIVEN(topic, error))
		return CARET_ERR_INVALID;
	const ca_architecture *a = ca_trace_architecture(t->trace);
	bool known = false;
	for (size_t p = 0; p < a->n_publishers && !known; p++)
		known = publishes_on(a, p, node, topic);
	if (!known) {
		caret_error_add(error, CARET_ERR_NOT_FOUND, NULL, -1, NULL,
			"no publisher of %s on %s", node, topic);
		return CARET_ERR_NOT_FOUND;
	}
	const ca_records *r = caret_api_records(t, error);
	if (!r)
		return caret_error_status(*error);
	const ca_publish_instance *pubs;
	size_t n_pubs = ca_records_publishes(r, &pubs), k = 0;
	caret_message *out = malloc((n_pubs + 1) * sizeof *out);
	if (!out)
		return no_memory(error);
	for (size_t i = 0; i < n_pubs; i++)
		if (pubs[i].publisher != CA_NONE && publishes_on(a, pubs[i].publisher, node, topic))
			out[k++] = (caret_message){ .rclcpp_publish_ns = pubs[i].rclcpp_time,
				.rcl_publish_ns = pubs[i].rcl_time, .dds_write_ns = pubs[i].dds_write_time,
				.source_timestamp_ns = pubs[i].source_stamp, .intra = pubs[i].intra };
	caret_sort_unless_sorted_r(out, k, sizeof *out, by_publish, NULL);
	*records = out;
	*n = k;
	return CARET_OK;
}

caret_status caret_communication_intra(caret_trace *t, size_t communication, bool *intra,
	caret_error **error)
{
	if (intra)
		*intra = false;
	if (!error)
		return CARET_ERR_INVALID;
	*error = NULL;
	if (!API_GIVEN_TRACE(t, error) || !API_GIVEN(intra, error))
		return CARET_ERR_INVALID;
	if (!caret_api_known_communication(t, communication, error))
		return CARET_ERR_NOT_FOUND;
	/* caret_communication_records' intra flags, without its rows: per
	 * publish its own flag, or its first handling's */
	const struct caret_api_comm *c = &t->comms[communication];
	const ca_records *r = caret_api_records(t, error);
	if (!r)
		return caret_error_status(*error);
	const ca_publish_instance *pubs;
	const ca_callback_instance *runs;
	const ca_communication *all;
	size_t n_pubs = ca_records_publishes(r, &pubs), mine = 0;
	size_t total = ca_records_communications(r, &all);
	ca_records_callbacks(r, &runs);
	uint64_t *first = calloc(n_pubs + 1, sizeof *first); /* first handling's start; 0 none */
	bool *flag = malloc(n_pubs + 1);
	if (!first || !flag) {
		free(first);
		free(flag);
		return no_memory(error);
	}
	for (size_t i = 0; i < n_pubs; i++)
		flag[i] = pubs[i].intra;
	for (size_t i = 0; i < total; i++) {
		if (all[i].publish == CA_NONE || !caret_api_of_comm(r, c, &all[i]))
			continue;
		uint64_t start = runs[all[i].callback_instance].start;
		if (!first[all[i].publish] || start < first[all[i].publish]) {
			first[all[i].publish] = start;
			flag[all[i].publish] = all[i].intra;
		}
	}
	bool every = true;
	for (size_t i = 0; i < n_pubs; i++)
		if (pubs[i].publisher == c->publisher) {
			mine++;
			every = every && flag[i];
		}
	free(first);
	free(flag);
	*intra = mine && every;
	return CARET_OK;
}
