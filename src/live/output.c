/* output.c - what `caret live` shows: a table a second (on a terminal,
 * redrawn in place), or one JSON object a line; each miss as found. */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "json_string.h"
#include "state.h"

static double ms(int64_t ns)
{
	return (double)ns / 1e6;
}

/* ---- JSON ------------------------------------------------------------------ */

static void json_stats(FILE *f, const struct live_series *s, int64_t limit)
{
	struct live_window_stats st;
	live_series_stats(s, &st);
	fprintf(f, "\"count\": %zu, \"p50_ns\": %" PRId64 ", \"p99_ns\": %" PRId64 ", \"max_ns\": %"
		PRId64 ", \"misses\": ", st.count, st.p50, st.p99, st.max);
	if (limit > 0)
		fprintf(f, "%zu", st.misses);
	else
		fputs("null", f);
	fprintf(f, ", \"total\": %" PRIu64 ", \"total_misses\": %" PRIu64, s->total,
		s->total_misses);
}

static void json_window(struct live *L, uint64_t until)
{
	FILE *f = L->out;
	fprintf(f, "{\"type\": \"window\", \"until_ns\": %" PRIu64 ", \"window_s\": %g, "
		"\"processes\": %zu, \"discarded\": %" PRIu64 ", \"callbacks\": [", until,
		L->o->window_s, L->processes, L->discarded);
	for (size_t i = 0; i < L->n_callbacks; i++) {
		fprintf(f, "%s{\"name\": ", i ? ", " : "");
		caret_json_string(f, L->callbacks[i].name);
		fprintf(f, ", ");
		json_stats(f, &L->callbacks[i], L->callback_period[i]);
		fprintf(f, ", \"period_ns\": %" PRId64 "}", L->callback_period[i]);
	}
	fprintf(f, "], \"paths\": [");
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

static void json_miss(struct live *L, const struct live_miss *m)
{
	FILE *f = L->out;
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

static void text_window(struct live *L, uint64_t until)
{
	FILE *f = L->out;
	char clock[32];
	time_t now = time(NULL);
	struct tm tm;
	localtime_r(&now, &tm);
	strftime(clock, sizeof clock, "%H:%M:%S", &tm);
	(void)until;
	if (L->tty)
		fputs("\033[H\033[2J", f); /* redrawn in place */
	fprintf(f, "caret live %s | last %g s | %zu %s | %" PRIu64 " discarded | %" PRIu64
		" %s\n", clock, L->o->window_s, L->processes, L->processes == 1 ? "process" :
		"processes", L->discarded, L->misses, L->misses == 1 ? "miss" : "misses");
	fprintf(f, "%-48s %7s %10s %10s %10s %7s\n", "callback", "count", "p50 ms", "p99 ms",
		"max ms", "misses");
	for (size_t i = 0; i < L->n_callbacks; i++)
		text_stats(f, L->callbacks[i].name, &L->callbacks[i], L->callback_period[i]);
	if (L->o->n_paths)
		fprintf(f, "%-48s %7s %10s %10s %10s %7s\n", "path", "count", "p50 ms", "p99 ms",
			"max ms", "misses");
	for (size_t i = 0; i < L->o->n_paths; i++) {
		const struct live_watch *w = &L->watches[i];
		text_stats(f, w->spec->label, &w->series, w->spec->deadline_ns);
		if (w->why[0])
			fprintf(f, "  not followed: %s\n", w->why);
		else if (w->not_reaching_end)
			fprintf(f, "  %" PRIu64 " not reaching the end\n", w->not_reaching_end);
	}
	if (L->tty) /* the misses scrolled away with the redraw: the latest again */
		for (size_t i = L->n_recent > 4 ? L->n_recent - 4 : 0; i < L->n_recent; i++)
			miss_line(f, &L->recent[i % 4]);
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
}

void live_print_miss(struct live *L, const struct live_miss *m)
{
	if (L->o->json)
		json_miss(L, m);
	else
		miss_line(L->out, m);
	fflush(L->out);
}
