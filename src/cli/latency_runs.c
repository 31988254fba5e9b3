/*
 * latency_runs.c - `caret latency callbacks` and `timers`: per callback, its runs
 * (latency, period, frequency, runs not ended); per timer, how late it fired.
 */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "latency_tables.h"

/* ---- callbacks ---------------------------------------------------------- */

/* Runs per 1 s window over the whole windows from the first start on
 * (analysis.md: frequency, count per 1 s window): the mean and the least.
 * Runs spanning less than a second have no whole window: their mean is
 * the runs per second of their span (not 0: 100,000 runs in 0.44 s are
 * not none), their least none (NAN). Runs are in start order. The
 * work is per run, not per window: a damaged timestamp can make the span
 * billions of seconds, and windows no run falls in only make the least 0. */
static void frequency(const ca_callback_instance *runs, size_t n, double *mean, double *least)
{
	const uint64_t second = 1000000000;
	uint64_t span = n ? runs[n - 1].start - runs[0].start : 0, windows = span / second;
	*mean = *least = NAN; /* none: no whole window to count, no span to divide */
	if (!windows) { /* under a second: the runs per second of their span */
		if (n > 1 && span)
			*mean = (double)(n - 1) * 1e9 / (double)span;
		return;
	}
	uint64_t fewest = UINT64_MAX, total = 0, count = 0, current = 0, filled = 0;
	for (size_t i = 0; i < n; i++) {
		uint64_t w = (runs[i].start - runs[0].start) / second;
		if (w >= windows) /* the last, partial window */
			break;
		if (count && w != current) {
			fewest = count < fewest ? count : fewest;
			total += count;
			filled++;
			count = 0;
		}
		current = w;
		count++;
	}
	if (count) {
		fewest = count < fewest ? count : fewest;
		total += count;
		filled++;
	}
	*mean = (double)total / (double)windows;
	*least = filled < windows ? 0 : (double)fewest;
}

/* Room for the runs of the callback that has most (CA_NONE included). */
static size_t most_runs(const ca_architecture *a, const ca_records *rec)
{
	size_t most = 0;
	for (size_t c = 0; c <= a->n_callbacks; c++) {
		size_t n = ca_records_callback_run_count(rec, c < a->n_callbacks ? c : CA_NONE);
		most = n > most ? n : most;
	}
	return most + 1;
}

int latency_callbacks(const ca_trace *t, const ca_records *rec, const struct latency_output *out)
{
	FILE *records = out->records;
	const ca_architecture *a = ca_trace_architecture(t);
	size_t most = most_runs(a, rec), n_rows = 0;
	ca_callback_instance *runs = malloc(most * sizeof *runs);
	struct latency_row *rows = calloc(a->n_callbacks + 1, sizeof *rows);
	int64_t *values = malloc(most * sizeof *values);

	if (latency_out_of_memory(rows, values) || !runs) {
		free(runs);
		return 1;
	}
	if (records)
		fprintf(records, "callback,pid,tid,start_ns,end_ns,latency_ns,intra\n");
	/* one callback at a time, in index order, unknown ones last */
	for (size_t c = 0; c <= a->n_callbacks; c++) {
		size_t callback = c < a->n_callbacks ? c : CA_NONE, k = 0;
		size_t n = ca_records_callback_runs(rec, callback, runs);
		uint64_t not_ended = 0;
		if (!n)
			continue;
		for (size_t j = 0; j < n; j++) {
			if (!runs[j].end) {
				not_ended++;
				continue;
			}
			values[k++] = (int64_t)(runs[j].end - runs[j].start);
			if (records)
				fprintf(records, "%s,%" PRId64 ",%" PRId64 ",%" PRIu64 ",%" PRIu64 ",%" PRId64
					",%d\n", callback == CA_NONE ? "(unknown)" : a->callbacks[callback].name,
					runs[j].pid, runs[j].tid, runs[j].start, runs[j].end, values[k - 1],
					runs[j].intra);
		}
		if (callback != CA_NONE) {
			struct latency_row *r = &rows[n_rows++];
			r->name = a->callbacks[callback].name;
			r->period = n > 1 ? (int64_t)(runs[n - 1].start - runs[0].start) /
				(int64_t)(n - 1) : 0;
			r->lost_a = not_ended;
			frequency(runs, n, &r->hz, &r->min_hz);
			ca_stats_select(values, k, out->percentiles, &r->stats);
		}
	}
	latency_print_rows(rows, n_rows, out, LATENCY_CALLBACKS);
	free(runs);
	free(rows);
	free(values);
	return 0;
}

/* ---- timers ------------------------------------------------------------- */

int latency_timers(const ca_trace *t, const ca_records *rec, const struct latency_output *out)
{
	FILE *records = out->records;
	const ca_architecture *a = ca_trace_architecture(t);
	size_t n_rows = 0;
	struct latency_row *rows = calloc(a->n_timers + 1, sizeof *rows);
	int64_t *values = malloc(most_runs(a, rec) * sizeof *values);

	if (latency_out_of_memory(rows, values))
		return 1;
	if (records)
		fprintf(records, "callback,period_ns,delay_ns\n");
	for (size_t k = 0; k < a->n_timers; k++) {
		size_t m = ca_records_timer_delays(rec, k, values);
		if (a->timers[k].callback == CA_NONE)
			continue;
		for (size_t i = 0; records && i < m; i++)
			fprintf(records, "%s,%" PRId64 ",%" PRId64 "\n",
				a->callbacks[a->timers[k].callback].name, a->timers[k].period_ns, values[i]);
		struct latency_row *r = &rows[n_rows++];
		r->name = a->callbacks[a->timers[k].callback].name;
		r->period = a->timers[k].period_ns;
		ca_stats_select(values, m, out->percentiles, &r->stats);
	}
	latency_print_rows(rows, n_rows, out, LATENCY_TIMERS);
	free(rows);
	free(values);
	return 0;
}
