/*
 * requirements_out.c - the verdicts of caret check --requirements as
 * text, one line per bound, and as JUnit XML: one <testsuite>, one
 * <testcase> per bound (classname the path or callback, name the bound),
 * a <failure> with the measured value and the worst instances, an <error>
 * for one that could not be judged.
 */
#include <inttypes.h>
#include <stdio.h>

#include "cli_util.h"
#include "requirements_out.h"

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

void print_judged(const struct judged *j)
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
int write_junit(const char *path, const char *file, const struct judged *j, size_t n)
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

/* ---- the result ------------------------------------------------------------- */

int requirements_verdict(const struct judged *j, size_t n)
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
