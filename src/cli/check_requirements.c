/*
 * check_requirements.c - `caret check --requirements FILE [--junit OUT]
 * TRACE...`: each requirement of the architecture file's deadlines: key
 * judged on the traces (a named path's end-to-end latency as caret path
 * latency counts it, a callback's runs as caret latency callbacks), one
 * line each, and as JUnit XML for a CI system: one test case per bound.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check_requirements.h"
#include "cli_util.h"
#include "close_names.h"
#include "plural.h"
#include "requirements.h"

/* At most this many records ride along the load's pass (ca.h): the
 * callbacks' runs and the first paths; the others take a pass each. */
#define MAX_RIDING 8

/* One requirement judged: its verdicts, or why it could not be. */
struct judged {
	const ca_requirement *q;
	ca_path_set *set;      /* a path's, from the file */
	bool missing;          /* its object is not in the trace: why says so */
	char why[1024];
	size_t n;
	ca_verdict v[3];
};

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

/* ---- the text ------------------------------------------------------------- */

static const char *object_word(const ca_requirement *q)
{
	return q->object == CA_REQUIREMENT_PATH ? "path" : "callback";
}

/* "81.200 ms at 1234 ns, ...": the worst instances, into buf. */
static const char *worst_text(const ca_verdict *v, char *buf, size_t size)
{
	size_t used = 0;
	buf[0] = '\0';
	for (size_t k = 0; k < v->n_worst && used < size; k++)
		used += (size_t)snprintf(buf + used, size - used, "%s%.3f ms at %" PRIu64 " ns",
			k ? ", " : "", (double)v->worst_ns[k] / 1e6, v->worst_start[k]);
	return buf;
}

/* Measured against the bound, in a few words, into buf. */
static const char *measured_text(const ca_requirement *q, const ca_verdict *v, char *buf,
	size_t size)
{
	const char *what = q->object == CA_REQUIREMENT_PATH ? "instances" : "runs";
	if (!v->count)
		snprintf(buf, size, "no %s in the trace", what);
	else if (v->bound == CA_BOUND_DEADLINE)
		snprintf(buf, size, "%zu of %zu %s over %.3f ms (%.4g%%, allowed %.4g%%)", v->misses,
			v->count, what, (double)v->limit_ns / 1e6, v->measured * 100, q->miss_ratio * 100);
	else
		snprintf(buf, size, "%s %.3f ms, bound %.3f ms, over %zu %s",
			v->bound == CA_BOUND_P99 ? "p99" : "max", v->measured / 1e6,
			(double)v->limit_ns / 1e6, v->count, what);
	return buf;
}

static const char *status_word(const struct judged *j, const ca_verdict *v)
{
	return j->missing ? "MISSING" : !v->count ? "NONE" : v->pass ? "PASS" : "FAIL";
}

static void print_judged(const struct judged *j)
{
	char name[256], measured[256], worst[256];
	if (j->missing) {
		printf("MISSING %s %s: %s\n", object_word(j->q), CLI_NAME(j->q->name),
			CLI_NAME(j->why));
		return;
	}
	for (size_t k = 0; k < j->n; k++) {
		const ca_verdict *v = &j->v[k];
		printf("%-4s %s %s: %s: %s", status_word(j, v), object_word(j->q),
			CLI_NAME(j->q->name), ca_verdict_name(j->q, v->bound, name, sizeof name),
			measured_text(j->q, v, measured, sizeof measured));
		if (v->n_worst)
			printf("; worst: %s", worst_text(v, worst, sizeof worst));
		putchar('\n');
	}
}

/* ---- JUnit XML ------------------------------------------------------------ */

/* Text as XML 1.0 takes it in an attribute or an element: the five
 * escaped, control characters (which XML 1.0 forbids) as '?'. */
static void xml_text(FILE *out, const char *s)
{
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;
		if (c == '&')
			fputs("&amp;", out);
		else if (c == '<')
			fputs("&lt;", out);
		else if (c == '>')
			fputs("&gt;", out);
		else if (c == '"')
			fputs("&quot;", out);
		else if (c == '\'')
			fputs("&apos;", out);
		else if (c < 0x20 && c != '\t' && c != '\n')
			fputc('?', out);
		else
			fputc(c, out);
	}
}

static void junit_case(FILE *out, const struct judged *j, const char *name)
{
	fputs("  <testcase classname=\"", out);
	xml_text(out, j->q->name);
	fputs("\" name=\"", out);
	xml_text(out, name);
	fputs("\"", out);
}

static void junit_verdict(FILE *out, const struct judged *j, const ca_verdict *v)
{
	char name[256], measured[256];
	junit_case(out, j, ca_verdict_name(j->q, v->bound, name, sizeof name));
	measured_text(j->q, v, measured, sizeof measured);
	if (v->pass) {
		fputs("/>\n", out);
		return;
	}
	fprintf(out, ">\n    <%s message=\"", v->count ? "failure" : "error");
	xml_text(out, measured);
	fprintf(out, "\" type=\"%s\">", v->count ? "requirement violated" : "no instance");
	fprintf(out, "%s ", object_word(j->q));
	xml_text(out, j->q->name);
	fputs(": ", out);
	xml_text(out, name);
	fputs(": ", out);
	xml_text(out, measured);
	if (v->n_worst)
		fputs("\nworst instances (start ns, latency ns):", out);
	for (size_t k = 0; k < v->n_worst; k++)
		fprintf(out, "\n%" PRIu64 " %" PRId64, v->worst_start[k], v->worst_ns[k]);
	fprintf(out, "</%s>\n  </testcase>\n", v->count ? "failure" : "error");
}

/* The report as JUnit XML: 0, or 1 after a message. */
static int write_junit(const char *path, const char *file, const struct judged *j, size_t n)
{
	size_t tests = 0, failures = 0, errors = 0;
	for (size_t i = 0; i < n; i++) {
		size_t bounds = (j[i].q->deadline_ns > 0) + (j[i].q->p99_ns > 0) +
			(j[i].q->max_ns > 0);
		tests += j[i].missing ? bounds : j[i].n;
		errors += j[i].missing ? bounds : 0;
		for (size_t k = 0; !j[i].missing && k < j[i].n; k++) {
			failures += j[i].v[k].count && !j[i].v[k].pass;
			errors += !j[i].v[k].count;
		}
	}
	FILE *out = fopen(path, "w");
	if (!out) {
		fprintf(stderr, "caret check: cannot write %s\n", path);
		return 1;
	}
	fputs("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuite name=\"caret requirements ",
		out);
	xml_text(out, file);
	fprintf(out, "\" tests=\"%zu\" failures=\"%zu\" errors=\"%zu\">\n", tests, failures,
		errors);
	for (size_t i = 0; i < n; i++) {
		if (!j[i].missing) {
			for (size_t k = 0; k < j[i].n; k++)
				junit_verdict(out, &j[i], &j[i].v[k]);
			continue;
		}
		/* a test case per bound still: the same cases from run to run */
		const ca_bound bounds[3] = { CA_BOUND_DEADLINE, CA_BOUND_P99, CA_BOUND_MAX };
		const int64_t set[3] = { j[i].q->deadline_ns, j[i].q->p99_ns, j[i].q->max_ns };
		for (size_t k = 0; k < 3; k++) {
			char name[256];
			if (!set[k])
				continue;
			junit_case(out, &j[i], ca_verdict_name(j[i].q, bounds[k], name, sizeof name));
			fputs(">\n    <error message=\"", out);
			xml_text(out, j[i].why);
			fputs("\" type=\"not in the trace\"/>\n  </testcase>\n", out);
		}
	}
	fputs("</testsuite>\n", out);
	if (fclose(out) != 0) {
		fprintf(stderr, "caret check: cannot write %s\n", path);
		return 1;
	}
	return 0;
}

/* ---- the run ---------------------------------------------------------------- */

/* The exit status of the verdicts, after a line that sums them up. */
static int verdict(const struct judged *j, size_t n)
{
	size_t passed = 0, failed = 0, unjudged = 0;
	for (size_t i = 0; i < n; i++) {
		unjudged += j[i].missing;
		for (size_t k = 0; !j[i].missing && k < j[i].n; k++) {
			passed += j[i].v[k].count && j[i].v[k].pass;
			failed += j[i].v[k].count && !j[i].v[k].pass;
			unjudged += !j[i].v[k].count;
		}
	}
	printf("result: %zu passed, %zu failed, %zu not judged\n", passed, failed, unjudged);
	return failed ? 3 : unjudged ? 1 : 0;
}

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
		status = verdict(j, n);
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
