/*
 * metrics_text.c - what `caret live --metrics` serves (state.h): each
 * callback's, service's, action's and watched path's latencies since the
 * start as a histogram, its instances and misses as counters, its
 * deadline (a timer's period) as a gauge, and each traced process up or
 * gone; in Prometheus's text format 0.0.4, or OpenMetrics 1.0 (the
 * counters' families named without _total, units said, "# EOF" last).
 */
#define _GNU_SOURCE
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "metrics_http.h"
#include "state.h"

/* One kind of row: the families' names and words. */
struct kind {
	const char *name;   /* caret_<name>_latency_seconds */
	const char *label;  /* the label naming the row */
	const char *what;   /* in the help texts: "callback run" */
	const char *counted; /* caret_<name>_<counted>_total */
	const char *limit;  /* caret_<name>_<limit>_seconds, or NULL: no limit */
	const char *misses; /* caret_<name>_<misses>_total */
	const char *limit_help, *misses_help;
};

/* A row: its series, its name, its limit (0: none), its labels written
 * once (escaped, without braces), for each of its 30 or so lines. */
struct row {
	const struct live_series *s;
	const char *name;
	int64_t limit;
	char *labels;
};

/* ns as seconds, exactly ("0.05", "12.000000001"): no binary fraction's
 * noise; into buf (32 bytes), which it returns. */
static const char *seconds_text(char *buf, uint64_t ns)
{
	int n = snprintf(buf, 32, "%" PRIu64 ".%09" PRIu64, ns / 1000000000, ns % 1000000000);
	while (buf[n - 1] == '0')
		buf[--n] = '\0';
	if (buf[n - 1] == '.')
		buf[n - 1] = '\0';
	return buf;
}

static void seconds(FILE *f, uint64_t ns)
{
	char buf[32];
	fputs(seconds_text(buf, ns), f);
}

/* A label value escaped as both formats want: \\, \", \n. */
static void label_value(FILE *f, const char *v)
{
	fputc('"', f);
	if (!strpbrk(v, "\\\"\n")) { /* most names: nothing to escape */
		fputs(v, f);
		v += strlen(v);
	}
	for (; *v; v++) {
		if (*v == '\\' || *v == '"')
			fprintf(f, "\\%c", *v);
		else if (*v == '\n')
			fputs("\\n", f);
		else
			fputc(*v, f);
	}
	fputc('"', f);
}

/* callback="...",node="...",host="..." (node and host where known) into
 * r->labels; false out of memory. */
static bool row_labels(const struct kind *k, struct row *r)
{
	size_t len;
	FILE *f = open_memstream(&r->labels, &len);
	if (!f)
		return false;
	fprintf(f, "%s=", k->label);
	label_value(f, r->name);
	if (r->s->node) {
		fputs(",node=", f);
		label_value(f, r->s->node);
	}
	if (r->s->host) {
		fputs(",host=", f);
		label_value(f, r->s->host);
	}
	return fclose(f) == 0;
}

/* {the row's labels[,le="..."]} */
static void labels(FILE *f, const struct row *r, const char *le)
{
	fputc('{', f);
	fputs(r->labels, f);
	if (le)
		fprintf(f, ",le=\"%s\"", le);
	fputc('}', f);
}

/* HELP, TYPE (and UNIT) of a family; a counter's family is named without
 * _total in OpenMetrics. */
static void family(FILE *f, bool om, const char *name, const char *suffix, const char *type,
	const char *unit, const char *help)
{
	bool counter = !strcmp(type, "counter");
	const char *shown = om && counter ? "" : suffix;
	fprintf(f, "# HELP %s%s %s\n# TYPE %s%s %s\n", name, shown, help, name, shown, type);
	if (om && unit)
		fprintf(f, "# UNIT %s%s %s\n", name, shown, unit);
}

static void histogram(FILE *f, const struct kind *k, const struct row *r)
{
	struct live_histogram h = r->s->histogram;
	if (!h.n_bounds) /* no sample yet: its buckets, empty */
		live_histogram_init(&h, r->limit);
	uint64_t cumulative = 0;
	for (size_t b = 0; b <= h.n_bounds; b++) {
		char le[32] = "+Inf";
		if (b < h.n_bounds)
			seconds_text(le, (uint64_t)h.bounds_ns[b]);
		cumulative += h.counts[b];
		fprintf(f, "caret_%s_latency_seconds_bucket", k->name);
		labels(f, r, le);
		fprintf(f, " %" PRIu64 "\n", cumulative);
	}
	fprintf(f, "caret_%s_latency_seconds_sum", k->name);
	labels(f, r, NULL);
	fputc(' ', f);
	seconds(f, h.sum_ns);
	fprintf(f, "\ncaret_%s_latency_seconds_count", k->name);
	labels(f, r, NULL);
	fprintf(f, " %" PRIu64 "\n", h.count);
}

/* The families of one kind of row, its labels written. */
static void families(FILE *f, bool om, const struct kind *k, const struct row *r, size_t n)
{
	char name[96], help[256];
	snprintf(name, sizeof name, "caret_%s_latency_seconds", k->name);
	snprintf(help, sizeof help, "Latency of each %s since caret live started.", k->what);
	family(f, om, name, "", "histogram", "seconds", help);
	for (size_t i = 0; i < n; i++)
		histogram(f, k, &r[i]);
	snprintf(name, sizeof name, "caret_%s_%s", k->name, k->counted);
	snprintf(help, sizeof help, "Each %s counted since caret live started.", k->what);
	family(f, om, name, "_total", "counter", NULL, help);
	for (size_t i = 0; i < n; i++) {
		fprintf(f, "%s_total", name);
		labels(f, &r[i], NULL);
		fprintf(f, " %" PRIu64 "\n", r[i].s->total);
	}
	if (!k->limit)
		return;
	snprintf(name, sizeof name, "caret_%s_%s_seconds", k->name, k->limit);
	family(f, om, name, "", "gauge", "seconds", k->limit_help);
	for (size_t i = 0; i < n; i++) {
		if (r[i].limit <= 0)
			continue;
		fputs(name, f);
		labels(f, &r[i], NULL);
		fputc(' ', f);
		seconds(f, (uint64_t)r[i].limit);
		fputc('\n', f);
	}
	snprintf(name, sizeof name, "caret_%s_%s", k->name, k->misses);
	family(f, om, name, "_total", "counter", NULL, k->misses_help);
	for (size_t i = 0; i < n; i++) {
		if (r[i].limit <= 0)
			continue;
		fprintf(f, "%s_total", name);
		labels(f, &r[i], NULL);
		fprintf(f, " %" PRIu64 "\n", r[i].s->total_misses);
	}
}

/* The families of one kind of row (its labels written, then freed);
 * false out of memory. */
static bool rows(FILE *f, bool om, const struct kind *k, struct row *r, size_t n)
{
	bool ok = true;
	for (size_t i = 0; i < n; i++)
		r[i].labels = NULL;
	for (size_t i = 0; i < n && ok; i++)
		ok = row_labels(k, &r[i]);
	if (ok)
		families(f, om, k, r, n);
	for (size_t i = 0; i < n; i++)
		free(r[i].labels);
	return ok;
}

static const struct kind callback_kind = { "callback", "callback", "callback run", "runs",
	"period", "misses", "A timer callback's period: a run longer than it delays the next.",
	"Timer callback runs longer than the timer's period." },
	service_kind = { "service", "service", "service call (its round trip)", "calls", NULL,
		NULL, NULL, NULL },
	action_kind = { "action", "action", "action goal (goal to result)", "goals", NULL, NULL,
		NULL, NULL },
	path_kind = { "path", "path", "path instance", "instances", "deadline",
		"deadline_misses", "The path's deadline.", "Path instances over the deadline." };

/* A list's rows (its series' own names and limits). */
static bool list_rows(FILE *f, bool om, const struct kind *k, const struct live_series_list *l)
{
	struct row *r = malloc((l->n + 1) * sizeof *r);
	if (!r)
		return false;
	for (size_t i = 0; i < l->n; i++)
		r[i] = (struct row){ .s = &l->items[i], .name = l->items[i].name,
			.limit = l->items[i].limit_ns };
	bool ok = rows(f, om, k, r, l->n);
	free(r);
	return ok;
}

static void processes(FILE *f, bool om, const struct live *L)
{
	family(f, om, "caret_process_up", "", "gauge", NULL,
		"A traced process: 1 while it records, 0 once gone.");
	for (size_t i = 0; i < L->n_known; i++) {
		const struct live_process *p = &L->known[i];
		fprintf(f, "caret_process_up{pid=\"%" PRId64 "\",process=", p->pid);
		label_value(f, p->program);
		if (p->host[0]) {
			fputs(",host=", f);
			label_value(f, p->host);
		}
		fprintf(f, "} %d\n", p->live ? 1 : 0);
	}
}

char *live_metrics_text(const struct live *L, bool openmetrics, size_t *len)
{
	char *text = NULL;
	FILE *f = open_memstream(&text, len);
	if (!f)
		return NULL;
	bool om = openmetrics, ok = true;
	family(f, om, "caret_live_looks", "_total", "counter", NULL,
		"Looks caret live made at the trace (one a --period).");
	fprintf(f, "caret_live_looks_total %" PRIu64 "\n", L->looks);
	family(f, om, "caret_live_discarded_events", "_total", "counter", NULL,
		"Events LTTng discarded (its buffers full): what the counts miss.");
	fprintf(f, "caret_live_discarded_events_total %" PRIu64 "\n", L->discarded);
	processes(f, om, L);
	ok = list_rows(f, om, &callback_kind, &L->callbacks) &&
		list_rows(f, om, &service_kind, &L->services) &&
		list_rows(f, om, &action_kind, &L->actions);
	struct row r[LIVE_MAX_PATHS];
	size_t n = L->o ? L->o->n_paths : 0;
	for (size_t i = 0; i < n; i++)
		r[i] = (struct row){ .s = &L->watches[i].series, .name = L->watches[i].spec->label,
			.limit = L->watches[i].spec->deadline_ns };
	ok = ok && rows(f, om, &path_kind, r, n);
	if (om)
		fputs("# EOF\n", f);
	if (fclose(f) != 0 || !ok) {
		free(text);
		return NULL;
	}
	return text;
}

void live_metrics_update(struct live *L)
{
	if (!L->metrics)
		return;
	size_t len[2];
	char *prometheus = live_metrics_text(L, false, &len[0]);
	char *openmetrics = prometheus ? live_metrics_text(L, true, &len[1]) : NULL;
	if (openmetrics) /* else out of memory: the last texts are served still */
		live_metrics_publish(L->metrics, prometheus, len[0], openmetrics, len[1]);
	else
		free(prometheus);
}
