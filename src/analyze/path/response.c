/*
 * response.c - response time along a path, as the original CARET defines
 * it (docs/latency.md, "Path latency and response time"). Each message
 * gives an input S (its start) and an output E (its end); a lost message
 * is answered by the earliest output of the inputs after it. The first
 * output is left out: its inputs may predate the trace.
 */
#include <stdlib.h>

#include "ca.h"
#include "followed.h"
#include "path.h"
#include "records.h"

struct io {
	uint64_t input, output;
	uint64_t reported; /* the input the response time is taken from */
	bool answered;     /* the message has its own output; later: chosen */
};

static int by_input(const void *a, const void *b)
{
	const struct io *x = a, *y = b;
	return (x->input > y->input) - (x->input < y->input);
}

static int by_output_then_input(const void *a, const void *b)
{
	const struct io *x = a, *y = b;
	if (x->output != y->output)
		return x->output < y->output ? -1 : 1;
	return (x->input > y->input) - (x->input < y->input);
}

/* The messages as (input, output) pairs, one per distinct input, sorted
 * by input, the first output's left out. Returns how many. */
static size_t pairs_of(const ca_path_message *m, size_t n, ca_path_span span, struct io *v)
{
	for (size_t i = 0; i < n; i++) {
		v[i].answered = ca_path_message_span(&m[i], span, &v[i].input, &v[i].output);
		if (v[i].answered && v[i].input > v[i].output)
			v[i].input = 0; /* reversed timestamps: not a measurement */
	}
	ca_sort_unless_sorted(v, n, sizeof *v, by_input);
	/* Newest first: a lost message takes the earliest output seen so far;
	 * equal inputs keep the earliest output. */
	uint64_t earliest = 0;
	size_t top = n, kept = 0; /* v[top..n) holds the pairs kept */
	for (size_t i = n; i-- > 0;) {
		struct io x = v[i];
		if (!x.answered && !earliest)
			continue;
		if (!x.answered)
			x.output = earliest;
		if (!x.input)
			continue;
		if (top < n && v[top].input == x.input) {
			if (x.output < v[top].output)
				v[top].output = x.output;
		} else
			v[--top] = x;
		if (!earliest || x.output < earliest)
			earliest = x.output;
	}
	for (size_t i = top; i < n; i++)
		if (v[i].output != earliest)
			v[kept++] = v[i];
	return kept;
}

/* The response times of case `which` from the n pairs of pairs_of, left
 * as they were found (the case's marks aside). */
static size_t times_of(struct io *v, size_t n, ca_response_case which, uint64_t *inputs,
	int64_t *times)
{
	size_t out = 0;
	/* all: every input. Otherwise one input per output: the latest (best),
	 * the earliest (worst), or the input before the earliest (worst with
	 * external latency: the one that just missed the run that answered,
	 * so its wait counts too; the first input only ever reports). */
	bool external = which == CA_RESPONSE_WORST_WITH_EXTERNAL_LATENCY;
	for (size_t i = n; i-- > 0;)
		v[i].reported = external ? (i ? v[i - 1].input : 0) : v[i].input;
	struct io *c = external && n ? v + 1 : v;
	size_t k = external && n ? n - 1 : n;
	for (size_t i = 0; i < k; i++)
		c[i].answered = which == CA_RESPONSE_ALL;
	if (which != CA_RESPONSE_ALL) {
		ca_sort_unless_sorted(c, k, sizeof *c, by_output_then_input);
		for (size_t a = 0, b; a < k; a = b) {
			for (b = a; b < k && c[b].output == c[a].output; b++)
				;
			c[which == CA_RESPONSE_BEST ? b - 1 : a].answered = true;
		}
		ca_sort_unless_sorted(c, k, sizeof *c, by_input); /* inputs are distinct */
	}
	for (size_t i = 0; i < k; i++)
		if (c[i].answered) {
			inputs[out] = c[i].reported;
			times[out++] = (int64_t)(c[i].output - c[i].reported);
		}
	return out;
}

size_t ca_path_response_times(const ca_path_latency *l, ca_path_span span,
	ca_response_case which, uint64_t *inputs, int64_t *times)
{
	const ca_path_message *m;
	size_t n = ca_path_latency_messages(l, &m, NULL);
	struct ca_response_cache *c = ca_path_latency_responses(l);
	if (!c)
		return ca_response_times(m, n, span, which, inputs, times);
	if (!c->pairs || c->span.first_callback != span.first_callback ||
	    c->span.last_callback != span.last_callback) {
		free(c->pairs);
		if (!(c->pairs = malloc((n + 1) * sizeof(struct io))))
			return (size_t)-1;
		c->n = pairs_of(m, n, span, c->pairs);
		c->span = span;
	}
	return times_of(c->pairs, c->n, which, inputs, times);
}

size_t ca_response_times(const ca_path_message *m, size_t n, ca_path_span span,
	ca_response_case which, uint64_t *inputs, int64_t *times)
{
	struct io *v = malloc((n + 1) * sizeof *v);
	if (!v)
		return (size_t)-1;
	size_t out = times_of(v, pairs_of(m, n, span, v), which, inputs, times);
	free(v);
	return out;
}
