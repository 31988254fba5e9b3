/*
 * check_requirements.c - `caret check --requirements FILE [--junit OUT]
 * TRACE...`: each requirement of the architecture file's deadlines: key
 * judged on the traces (a named path's end-to-end latency as caret path
 * latency counts it, a callback's runs as caret latency callbacks), one
 * line each, and as JUnit XML for a CI system: one test case per bound
 * (requirements_out.c).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check_requirements.h"
#include "cli_util.h"
#include "close_names.h"
#include "requirements.h"
#include "requirements_out.h"

/* At most this many records ride along the load's pass (ca.h): the
 * callbacks' runs and the first paths; the others take a pass each. */
#define MAX_RIDING 8

/* The instances of a path's messages that reached its end (the default
 * span, as caret path latency): their starts and latencies. How many. */
static size_t path_instances(const ca_path_latency *l, uint64_t **start, int64_t **latency)
{
	const ca_path_message *m;
	const ca_path_span span = { false, false };
	size_t n = ca_path_latency_messages(l, &m, NULL), k = 0;
	*start = malloc((n + 1) * sizeof **start);
	*latency = malloc((n + 1) * sizeof **latency);
	for (size_t i = 0; *start && *latency && i < n; i++) {
		uint64_t s, e;
		if (ca_path_message_span(&m[i], span, &s, &e)) {
			(*start)[k] = s;
			(*latency)[k++] = (int64_t)(e - s);
		}
	}
	return k;
}

static void judge_path(struct judged *j, const ca_records *rec)
{
	char err[1024];
	const ca_path *p = NULL;
	ca_path_set_paths(j->set, &p);
	ca_path_latency *l = rec ? ca_path_latency_build(rec, p, CA_POLICY_USE_LATEST_MESSAGE, err,
		sizeof err) : NULL;
	if (!l) {
		j->missing = true;
		snprintf(j->why, sizeof j->why, "%s", rec ? err : "out of memory");
		return;
	}
	uint64_t *start;
	int64_t *latency;
	size_t n = path_instances(l, &start, &latency);
	if (start && latency)
		j->n = ca_requirement_judge(j->q, start, latency, n, j->v);
	free(start);
	free(latency);
	ca_path_latency_free(l);
}

/* The callbacks of that name (one per process that has it): their ended
 * runs. Not there: why names the nearest callbacks. */
static void judge_callback(struct judged *j, const ca_trace *t, const ca_records *runs)
{
	const ca_architecture *a = ca_trace_architecture(t);
	size_t total = 0, found = 0;
	for (size_t c = 0; c < a->n_callbacks; c++)
		if (!strcmp(a->callbacks[c].name, j->q->name)) {
			total += ca_records_callback_run_count(runs, c);
			found++;
		}
	if (!found) {
		const char **names = calloc(a->n_callbacks + 1, sizeof *names);
		size_t n = 0;
		for (size_t c = 0; names && c < a->n_callbacks; c++)
			if (ca_callback_is_users(a, c))
				names[n++] = a->callbacks[c].name;
		char hint[768];
		caret_name_hint(hint, sizeof hint, j->q->name, "callbacks", names, n,
			"caret latency callbacks");
		free(names);
		j->missing = true;
		snprintf(j->why, sizeof j->why, "no callback %s in the trace (%s)", j->q->name, hint);
		return;
	}
	ca_callback_instance *r = malloc((total + 1) * sizeof *r);
	uint64_t *start = malloc((total + 1) * sizeof *start);
	int64_t *latency = malloc((total + 1) * sizeof *latency);
	size_t k = 0;
	for (size_t c = 0; r && start && latency && c < a->n_callbacks; c++) {
		if (strcmp(a->callbacks[c].name, j->q->name))
			continue;
		size_t n = ca_records_callback_runs(runs, c, r);
		for (size_t i = 0; i < n; i++)
			if (r[i].end) {
				start[k] = r[i].start;
				latency[k++] = (int64_t)(r[i].end - r[i].start);
			}
	}
	if (r && start && latency)
		j->n = ca_requirement_judge(j->q, start, latency, k, j->v);
	free(r);
	free(start);
	free(latency);
}

/* ---- the run ---------------------------------------------------------------- */

/* The paths' sets from the file, and the records to ride along the
 * load: the callbacks' runs, then each path followed. */
static bool plan(struct judged *j, size_t n, const char *file, ca_records_options *want,
	size_t *n_want)
{
	char err[1024];
	want[0] = (ca_records_options){ .runs_only = true };
	*n_want = 1;
	for (size_t i = 0; i < n; i++) {
		if (j[i].q->object != CA_REQUIREMENT_PATH)
			continue;
		const ca_path *p = NULL;
		if (!(j[i].set = ca_arch_file_path(file, j[i].q->name, err, sizeof err)) ||
		    !ca_path_set_paths(j[i].set, &p)) {
			fprintf(stderr, "caret check: %s\n", err);
			return false;
		}
		want[(*n_want)++] = (ca_records_options){ .follow = p,
			.follow_policy = CA_POLICY_USE_LATEST_MESSAGE };
	}
	return true;
}

int check_requirements(const char *file, const char *junit, char **traces, int n_traces,
	ca_load_options *load)
{
	char err[1024];
	ca_requirement *q;
	size_t n;
	if (ca_arch_file_requirements(file, &q, &n, err, sizeof err) != 0) {
		fprintf(stderr, "caret check: %s\n", err);
		return 1;
	}
	if (!n) {
		fprintf(stderr, "caret check: %s has no deadlines: key, no requirement to check "
			"(docs/requirements.md)\n", file);
		ca_requirements_free(q, n);
		return 1;
	}
	struct judged *j = calloc(n, sizeof *j);
	ca_records_options *want = calloc(n + 1, sizeof *want);
	ca_records **rec = calloc(n + 1, sizeof *rec);
	size_t n_want = 0;
	int status = 1;
	ca_trace *t = NULL;
	for (size_t i = 0; j && i < n; i++)
		j[i].q = &q[i];
	if (!j || !want || !rec)
		fprintf(stderr, "caret check: out of memory\n");
	else if (plan(j, n, file, want, &n_want)) {
		load->keep_runtime = !cli_lean();
		load->keep_links = true;
		load->records_only = true;
		load->records = load->keep_runtime ? NULL : want;
		load->n_records = n_want < MAX_RIDING ? n_want : MAX_RIDING;
		t = cli_load("check", traces, n_traces, load);
	}
	bool built = t != NULL;
	for (size_t i = 0; built && i < n_want; i++)
		if (!(rec[i] = ca_records_build_options(t, &want[i], err, sizeof err))) {
			fprintf(stderr, "caret check: %s\n", err);
			built = false;
		}
	if (built) {
		cli_begin_output("check", CLI_TEXT, t);
		for (size_t i = 0, path = 1; i < n; i++) {
			if (q[i].object == CA_REQUIREMENT_PATH)
				judge_path(&j[i], rec[path++]);
			else
				judge_callback(&j[i], t, rec[0]);
			print_judged(&j[i]);
		}
		status = requirements_verdict(j, n);
		if (junit && write_junit(junit, file, j, n) != 0 && status == 0)
			status = 1;
	}
	for (size_t i = 0; rec && i < n_want; i++)
		ca_records_free(rec[i]);
	for (size_t i = 0; j && i < n; i++)
		ca_path_set_free(j[i].set);
	ca_trace_free(t);
	free(rec);
	free(want);
	free(j);
	ca_requirements_free(q, n);
	return status;
}
