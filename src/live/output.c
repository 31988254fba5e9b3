/* output.c - what `caret live` shows: a table a second (on a terminal,
 * redrawn in place), or one JSON object a line; each miss as found. */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "json_string.h"
#include "state.h"

static double ms(double ns)
{
	return ns / 1e6;
}

/* ---- JSON ------------------------------------------------------------------ */

/* A percentile or maximum of the window, or null for a window without a
 * sample (no value, not 0). */
static void json_value(FILE *f, const char *key, size_t count, double v)
{
	if (count)
		fprintf(f, ", \"%s\": %.15g", key, v);
	else
		fprintf(f, ", \"%s\": null", key);
}

static void json_stats(FILE *f, const struct live_series *s, int64_t limit)
{
	struct live_window_stats st;
	live_series_stats(s, &st);
	fprintf(f, "\"count\": %zu", st.count);
	json_value(f, "p50_ns", st.count, st.p50);
	json_value(f, "p99_ns", st.count, st.p99);
	json_value(f, "max_ns", st.count, (double)st.max);
	fputs(", \"misses\": ", f);
	if (limit > 0)
		fprintf(f, "%zu", st.misses);
	else
		fputs("null", f);
	fprintf(f, ", \"total\": %" PRIu64 ", \"total_misses\": %" PRIu64, s->total,
		s->total_misses);
}

/* The seconds the window covers so far: since the recording began (--watch:
 * since the first sample counted), at most --window. */
static double covered(const struct live *L, uint64_t until)
{
	uint64_t began = L->recorder ? (uint64_t)cr_record_started_ns(L->recorder) : L->first_end;
	double seconds = began && until > began ? (double)(until - began) / 1e9 : 0;
	return seconds < L->o->window_s ? seconds : L->o->window_s;
}

/* "callbacks": [{"name": ..., stats, "period_ns": ...}, ...] (or services',
 * actions', without a period) */
static void json_rows(FILE *f, const char *key, const struct live_series_list *l,
	bool periods)
{
	fprintf(f, ", \"%s\": [", key);
	for (size_t i = 0; i < l->n; i++) {
		fprintf(f, "%s{\"name\": ", i ? ", " : "");
		caret_json_string(f, l->items[i].name);
		fprintf(f, ", ");
		json_stats(f, &l->items[i], l->items[i].limit_ns);
		if (periods)
			fprintf(f, ", \"period_ns\": %" PRId64, l->items[i].limit_ns);
		fputc('}', f);
	}
	fputc(']', f);
}

static void json_window(struct live *L, uint64_t until)
{
	FILE *f = L->out;
	fprintf(f, "{\"type\": \"window\", \"until_ns\": %" PRIu64 ", \"window_s\": %g, "
		"\"covered_s\": %.1f, \"processes\": %zu, \"gone\": %zu, \"discarded\": %"
		PRIu64, until, L->o->window_s, covered(L, until), L->processes, L->gone,
		L->discarded);
	json_rows(f, "callbacks", &L->callbacks, true);
	json_rows(f, "services", &L->services, false);
	json_rows(f, "actions", &L->actions, false);
	fprintf(f, ", \"paths\": [");
	for (size_t i = 0; i < L->o->n_paths; i++) {
		const struct live_watch *w = &L->watches[i];
		fprintf(f, "%s{\"name\": ", i ? ", " : "");
		caret_json_string(f, w->spec->label);
		fprintf(f, ", ");
		json_stats(f, &w->series, w->spec->deadline_ns);
		fprintf(f, ", \"deadline_ns\": %" PRId64 ", \"not_reaching_end\": %" PRIu64
			", \"not_followed\": ", w->spec->deadline_ns, w->not_reaching_end);
		if (w->why[0])
			caret_json_string(f, w->why);
		else
			fputs("null", f);
		fputc('}', f);
	}
	fprintf(f, "]}\n");
}

void live_json_miss(FILE *f, const struct live_miss *m)
{
	fprintf(f, "{\"type\": \"miss\", \"path\": ");
	caret_json_string(f, m->watch->spec->label);
	fprintf(f, ", \"start_ns\": %" PRIu64 ", \"end_ns\": %" PRIu64 ", \"latency_ns\": %" PRId64
		", \"deadline_ns\": %" PRId64 ", \"detected_after_ns\": %" PRId64 ", \"hops\": [",
		m->start, m->end, m->latency, m->watch->spec->deadline_ns, m->detected_after);
	for (size_t k = 0; k < m->n_hops; k++) {
		fprintf(f, "%s{\"hop\": ", k ? ", " : "");
		caret_json_string(f, m->hop_names[k]);
		fprintf(f, ", \"ns\": %" PRId64 "}", m->hops[k]);
	}
	fprintf(f, "], \"worst_hop\": ");
	if (m->n_hops)
		caret_json_string(f, m->hop_names[m->worst]);
	else
		fputs("null", f);
	fprintf(f, ", \"snapshot\": ");
	if (m->snapshot[0])
		caret_json_string(f, m->snapshot);
	else
		fputs("null", f);
	fprintf(f, "}\n");
}

/* ---- text ------------------------------------------------------------------- */

static void text_stats(FILE *f, const char *name, const struct live_series *s, int64_t limit)
{
	struct live_window_stats st;
	live_series_stats(s, &st);
	fprintf(f, "%-48.48s %7zu", name, st.count);
	if (st.count)
		fprintf(f, " %10.3f %10.3f %10.3f", ms(st.p50), ms(st.p99), ms(st.max));
	else
		fprintf(f, " %10s %10s %10s", "-", "-", "-");
	if (limit > 0)
		fprintf(f, " %7zu\n", st.misses);
	else
		fprintf(f, " %7s\n", "-");
}

static void miss_line(FILE *f, const struct live_miss *m)
{
	fprintf(f, "MISS %s: %.3f ms > %.3f ms, found %.2f s after it ended", m->watch->spec->label,
		ms(m->latency), ms(m->watch->spec->deadline_ns), (double)m->detected_after / 1e9);
	for (size_t k = 0; k < m->n_hops; k++)
		fprintf(f, "%s%s %.3f ms%s", k ? ", " : "; ", m->hop_names[k], ms(m->hops[k]),
			k == m->worst ? " (most)" : "");
	if (m->snapshot[0])
		fprintf(f, "; snapshot %s", m->snapshot);
	fputc('\n', f);
}

static void text_header(FILE *f, const char *first)
{
	fprintf(f, "%-48s %7s %10s %10s %10s %7s\n", first, "count", "p50 ms", "p99 ms", "max ms",
		"misses");
}

static void text_rows(FILE *f, const char *first, const struct live_series_list *l)
{
	if (l->n)
		text_header(f, first);
	for (size_t i = 0; i < l->n; i++)
		text_stats(f, l->items[i].name, &l->items[i], l->items[i].limit_ns);
}

/* "caret live 13:47:31 | last 10 s | 3 processes, 1 gone | 0 discarded | 1 miss" */
static void text_title(struct live *L, FILE *f, uint64_t until)
{
	char clock[32], gone[32] = "";
	time_t now = time(NULL);
	struct tm tm;
	localtime_r(&now, &tm);
	strftime(clock, sizeof clock, "%H:%M:%S", &tm);
	double seconds = covered(L, until);
	if (L->gone)
		snprintf(gone, sizeof gone, ", %zu gone", L->gone);
	fprintf(f, "caret live %s | last ", clock);
	if (seconds < L->o->window_s) /* the window not full yet: what it covers */
		fprintf(f, "%.1f s of %g", seconds, L->o->window_s);
	else
		fprintf(f, "%g s", L->o->window_s);
	fprintf(f, " | %zu %s%s | %" PRIu64 " discarded | %" PRIu64 " %s\n", L->processes,
		L->processes == 1 ? "process" : "processes", gone, L->discarded, L->misses,
		L->misses == 1 ? "miss" : "misses");
}

static void text_window(struct live *L, uint64_t until)
{
	FILE *f = L->out;
	if (L->tty)
		fputs("\033[H\033[2J", f); /* redrawn in place */
	text_title(L, f, until);
	text_header(f, "callback");
	for (size_t i = 0; i < L->callbacks.n; i++)
		text_stats(f, L->callbacks.items[i].name, &L->callbacks.items[i],
			L->callbacks.items[i].limit_ns);
	text_rows(f, "service (round trip)", &L->services);
	text_rows(f, "action (goal to result)", &L->actions);
	if (L->o->n_paths)
		text_header(f, "path");
	for (size_t i = 0; i < L->o->n_paths; i++) {
		const struct live_watch *w = &L->watches[i];
		text_stats(f, w->spec->label, &w->series, w->spec->deadline_ns);
		if (w->why[0])
			fprintf(f, "  not followed: %s\n", w->why);
		else if (w->not_reaching_end)
			fprintf(f, "  %" PRIu64 " not reaching the end\n", w->not_reaching_end);
	}
	if (L->tty) { /* what scrolled away with the redraw: the latest again */
		for (size_t i = L->n_changes > LIVE_RECENT ? L->n_changes - LIVE_RECENT : 0;
		     i < L->n_changes; i++)
			fprintf(f, "%s\n", L->changes[i % LIVE_RECENT]);
		for (size_t i = L->n_recent > LIVE_RECENT ? L->n_recent - LIVE_RECENT : 0;
		     i < L->n_recent; i++)
			miss_line(f, &L->recent[i % LIVE_RECENT]);
	}
	if (!L->tty)
		fputc('\n', f);
}

void live_print_window(struct live *L, uint64_t until)
{
	if (L->o->json)
		json_window(L, until);
	else
		text_window(L, until);
	fflush(L->out);
	live_metrics_update(L); /* --metrics serves what the window shows, since the start */
}

void live_print_miss(struct live *L, const struct live_miss *m)
{
	if (L->o->json)
		live_json_miss(L->out, m);
	else
		miss_line(L->out, m);
	fflush(L->out);
}

void live_print_process(struct live *L, const struct live_process *p, bool joined,
	uint64_t until)
{
	char *line = L->changes[L->n_changes++ % LIVE_RECENT];
	size_t size = sizeof L->changes[0];
	if (joined)
		snprintf(line, size, "JOINED %s", p->label);
	else
		snprintf(line, size, "GONE %s: no Status for 3 s (it ended, or its DDS left); its "
			"callbacks are no longer counted", p->label);
	if (L->o->json) {
		fprintf(L->out, "{\"type\": \"process\", \"change\": \"%s\", \"pid\": %" PRId64
			", \"process\": ", joined ? "joined" : "gone", p->pid);
		caret_json_string(L->out, p->label);
		fprintf(L->out, ", \"until_ns\": %" PRIu64 "}\n", until);
	} else {
		fprintf(L->out, "%s\n", line);
	}
	fflush(L->out);
}
