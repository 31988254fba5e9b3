/*
 * latency_tf.c - `caret latency tf`: per transform edge and buffer, broadcast to
 * setTransform; per lookup and edge, the age of the transform it used.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "latency_tables.h"
#include "sort_r.h"

/* ---- tf ------------------------------------------------------------------- */

/* One tf row: a set latency or a lookup's age, with the frames it names. */
struct tf_row {
	const char *what, *frame, *child, *lookup; /* lookup: "target<-source" or "" */
	int64_t pid;
	uint64_t unmatched; /* with no send in the trace */
	ca_stats stats;
};

static void print_tf_rows(const struct tf_row *rows, size_t n, enum cli_format f)
{
	if (f == CLI_TEXT)
		printf("%-60s %8s %10s %10s %10s %10s %10s %10s %9s\n", "tf", "count", "min_us",
			"mean_us", "p50_us", "p90_us", "p99_us", "max_us", "not_sent");
	else if (f == CLI_CSV)
		printf("what,pid,frame_id,child_frame_id,lookup,count,min_ns,mean_ns,p50_ns,p90_ns,"
			"p99_ns,max_ns,not_sent\n");
	else
		printf("\"tf\": [");
	for (size_t i = 0; i < n; i++) {
		const struct tf_row *r = &rows[i];
		if (f == CLI_TEXT) {
			char name[512];
			snprintf(name, sizeof name, "%s %s%s%s->%s (pid %" PRId64 ")", r->what, r->lookup,
				*r->lookup ? " via " : "", r->frame, r->child, r->pid);
			printf("%-60s ", CLI_NAME(name));
		} else if (f == CLI_CSV) {
			printf("%s,%" PRId64 ",%s,%s,%s,", r->what, r->pid, r->frame, r->child, r->lookup);
		} else {
			printf("%s{\"what\": \"%s\", \"pid\": %" PRId64 ", \"frame_id\": ", i ? ", " : "",
				r->what, r->pid);
			cli_json_string(stdout, r->frame);
			printf(", \"child_frame_id\": ");
			cli_json_string(stdout, r->child);
			printf(", \"lookup\": ");
			cli_json_string(stdout, r->lookup);
			printf(", ");
		}
		cli_print_stats(stdout, f, &r->stats);
		printf(f == CLI_TEXT ? " %9" PRIu64 "\n" : f == CLI_CSV ? ",%" PRIu64 "\n" :
			", \"not_sent\": %" PRIu64 "}", r->unmatched);
	}
	if (f == CLI_JSON)
		printf("]}\n");
}

/* What the uses name: the sort's context and the rows' key. */
struct use_context {
	const ca_tf_lookup *lookups;
	const ca_tf_set *sets;
};

/* Uses in the order of (lookup's pid, buffer, frames; the edge). */
static int by_lookup_edge(const void *a, const void *b, void *ctx)
{
	const ca_tf_lookup *use_lookups = ((const struct use_context *)ctx)->lookups;
	const ca_tf_set *use_sets = ((const struct use_context *)ctx)->sets;
	const ca_tf_use *x = a, *y = b;
	const ca_tf_lookup *lx = &use_lookups[x->lookup], *ly = &use_lookups[y->lookup];
	const ca_tf_set *sx = &use_sets[x->set], *sy = &use_sets[y->set];
	uint64_t kx[] = { (uint64_t)lx->pid, lx->buffer, lx->target, lx->source, sx->child, x->lookup };
	uint64_t ky[] = { (uint64_t)ly->pid, ly->buffer, ly->target, ly->source, sy->child, y->lookup };
	for (size_t i = 0; i < sizeof kx / sizeof *kx; i++)
		if (kx[i] != ky[i])
			return kx[i] < ky[i] ? -1 : 1;
	return 0;
}

/* The callback a run belongs to, by name ("" when none). */
static const char *run_callback(const ca_architecture *a, const ca_callback_instance *runs,
	size_t run)
{
	size_t cb = run == CA_NONE ? CA_NONE : runs[run].callback;
	return cb == CA_NONE ? "" : a->callbacks[cb].name;
}

/* Uses i and j are of one row: the same lookup frames, buffer and edge. */
static int by_lookup_edge_key(const struct use_context *u, const ca_tf_use *uses, size_t i,
	size_t j)
{
	const ca_tf_lookup *a = &u->lookups[uses[i].lookup], *b = &u->lookups[uses[j].lookup];
	return a->pid != b->pid || a->buffer != b->buffer || a->target != b->target ||
		a->source != b->source || u->sets[uses[i].set].child != u->sets[uses[j].set].child;
}

int latency_tf(const ca_trace *t, const ca_records *rec, const struct latency_output *out)
{
	enum cli_format f = out->format;
	FILE *records = out->records;
	char err[256];
	ca_tf *x = ca_tf_build(t, rec, err, sizeof err);
	const ca_callback_instance *runs;
	const ca_architecture *a = ca_trace_architecture(t);
	ca_records_callbacks(rec, &runs);
	const ca_tf_send *sends;
	const ca_tf_set *sets;
	const ca_tf_lookup *lookups;
	const ca_tf_use *used;
	if (!x) {
		fprintf(stderr, "caret %s: %s\n", out->verb, err);
		return 1;
	}
	ca_tf_sends(x, &sends);
	size_t n_sets = ca_tf_sets(x, &sets), n_uses = ca_tf_uses(x, &used);
	ca_tf_lookups(x, &lookups);
	size_t most = n_sets > n_uses ? n_sets : n_uses;
	struct tf_row *rows = calloc(most + 1, sizeof *rows);
	int64_t *values = malloc((most + 1) * sizeof *values);
	ca_tf_use *uses = malloc((n_uses + 1) * sizeof *uses);
	char (*names)[64] = calloc(n_uses + 1, sizeof *names);
	size_t n_rows = 0;
	int status = 1;
	if (!rows || !values || !uses || !names) {
		fprintf(stderr, "caret %s: out of memory\n", out->verb);
		goto out;
	}
	if (records)
		fprintf(records, "what,pid,frame_id,child_frame_id,lookup,stamp,send_ns,set_ns,"
			"lookup_ns,latency_ns,send_callback,lookup_callback,newer_stamp\n");
#define NAME(id) ca_trace_string(t, id)
	/* broadcast -> set, per buffer and edge (the sets come by buffer and child) */
	for (size_t i = 0, j; i < n_sets; i = j) {
		struct tf_row *r = &rows[n_rows++];
		size_t k = 0;
		*r = (struct tf_row){ "set", NAME(sets[i].frame), NAME(sets[i].child), "", sets[i].pid,
			0, { 0 } };
		for (j = i; j < n_sets && sets[j].pid == sets[i].pid && sets[j].buffer == sets[i].buffer &&
		     sets[j].child == sets[i].child; j++) {
			if (sets[j].send == CA_NONE) {
				r->unmatched++;
				continue;
			}
			const ca_tf_send *s = &sends[sets[j].send];
			values[k++] = (int64_t)(sets[j].time - s->time);
			if (records)
				fprintf(records, "set,%" PRId64 ",%s,%s,,%" PRIu64 ",%" PRIu64 ",%" PRIu64
					",,%" PRId64 ",%s,,\n", sets[j].pid, r->frame, r->child, sets[j].stamp,
					s->time, sets[j].time, values[k - 1], run_callback(a, runs, s->run));
		}
		ca_stats_of(values, k, out->percentiles, &r->stats);
	}
	/* lookup age, per lookup frames and the edge read */
	if (n_uses)
		memcpy(uses, used, n_uses * sizeof *uses);
	struct use_context named = { lookups, sets };
	caret_sort_r(uses, n_uses, sizeof *uses, by_lookup_edge, &named);
	for (size_t i = 0, j; i < n_uses; i = j) {
		const ca_tf_lookup *l = &lookups[uses[i].lookup];
		const ca_tf_set *e = &sets[uses[i].set];
		struct tf_row *r = &rows[n_rows++];
		size_t k = 0;
		snprintf(names[i], sizeof names[i], "%s<-%s", NAME(l->target), NAME(l->source));
		*r = (struct tf_row){ "lookup", NAME(e->frame), NAME(e->child), names[i], l->pid, 0,
			{ 0 } };
		for (j = i; j < n_uses && !by_lookup_edge_key(&named, uses, i, j); j++) {
			const ca_tf_lookup *lj = &lookups[uses[j].lookup];
			const ca_tf_set *sj = &sets[uses[j].set];
			if (sj->send == CA_NONE) {
				r->unmatched++;
				continue;
			}
			const ca_tf_send *s = &sends[sj->send];
			values[k++] = (int64_t)(lj->time - s->time);
			if (records) {
				fprintf(records, "lookup,%" PRId64 ",%s,%s,%s,%" PRIu64 ",%" PRIu64 ",%" PRIu64
					",%" PRIu64 ",%" PRId64 ",%s,%s,", lj->pid, r->frame, r->child, names[i],
					sj->stamp, s->time, sj->time, lj->time, values[k - 1],
					run_callback(a, runs, s->run), run_callback(a, runs, lj->run));
				if (uses[j].newer != CA_NONE)
					fprintf(records, "%" PRIu64, sets[uses[j].newer].stamp);
				fputc('\n', records);
			}
		}
		ca_stats_of(values, k, out->percentiles, &r->stats);
	}
#undef NAME
	latency_begin(out);
	print_tf_rows(rows, n_rows, f);
	status = 0;
out:
	free(rows);
	free(values);
	free(uses);
	free(names);
	ca_tf_free(x);
	return status;
}
