/*
 * sec_callbacks.c - the Callbacks section: a table of every callback of the
 * user's system (by node, then name; its symbol beside its name), then a card per callback whose
 * charts (web/page/cards.js) show one metric at a time: latency (end - start
 * of each run), frequency (runs per second), period (time since the run
 * before) and, for timers, the delay (start - the firing it was due at).
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "json.h"
#include "report.h"
#include "series.h"

struct metrics {
	struct series latency, starts, frequency, period, delay;
};

static void metrics_free(struct metrics *m)
{
	series_free(&m->latency);
	series_free(&m->starts);
	series_free(&m->frequency);
	series_free(&m->period);
	series_free(&m->delay);
}

/* What the callback is for, in a few words, into buf. */
static const char *describe(const ca_architecture *a, const ca_callback *c, char *buf,
	size_t size)
{
	if (c->kind == CA_CALLBACK_TIMER)
		snprintf(buf, size, "timer, %.6g ms", a->timers[c->owner].period_ns / 1e6);
	else if (c->kind == CA_CALLBACK_SUBSCRIPTION)
		snprintf(buf, size, "subscription to %s", a->subscriptions[c->owner].topic);
	else
		snprintf(buf, size, "service %s", a->services[c->owner].name);
	return buf;
}

/* The callback's symbol, shortened (the whole on hover), or nothing. */
static void symbol(FILE *out, const ca_callback *c)
{
	char a[1024], b[256];
	if (!c->symbol)
		return;
	fputs(" <span class='sym' title='", out);
	report_text(out, c->symbol);
	fputs("'>", out);
	report_text(out, report_short_name(ca_symbol_short(c->symbol, a, sizeof a), 60, b, sizeof b));
	fputs("</span>", out);
}

/* The callback's card, its charts' data, and (*latency) its latency's
 * statistics. */
static void write_card(struct report *r, FILE *cards, size_t callback, struct metrics *m,
	ca_stats *latency)
{
	const ca_architecture *a = r->arch;
	const ca_callback *c = &a->callbacks[callback];
	char id[32], what[600];
	report_chart_id(r, id, sizeof id);
	const ca_executor *x = report_executor_of_node(a, c->node);
	fprintf(cards, "<div class='card' id='%s' data-chart='%s' data-name='", id, id);
	report_text(cards, c->name);
	fputs("'><h3>", cards);
	report_text(cards, c->name);
	symbol(cards, c);
	fputs("</h3><p class='sub'>", cards);
	report_text(cards, describe(a, c, what, sizeof what));
	if (x) {
		fputs(" · ", cards);
		report_text(cards, x->name);
	}
	fprintf(cards, " · pid %" PRId64, c->pid);
	const ca_requirement *q = report_requirement(r, CA_REQUIREMENT_CALLBACK, c->name);
	int64_t deadline = q ? q->deadline_ns : 0;
	size_t misses = ca_deadline_misses(m->latency.v, m->latency.n, deadline);
	if (deadline)
		fprintf(cards, " · <span class='deadline'>deadline <b>%.3f ms</b>: <b>%zu</b> of %zu "
			"runs over it</span>", deadline / 1e6, misses, m->latency.n);
	const bool set[2] = { q && q->p99_ns, q && q->max_ns };
	const ca_bound bounds[2] = { CA_BOUND_P99, CA_BOUND_MAX };
	for (size_t k = 0; k < 2; k++) {
		char name[128];
		if (!set[k])
			continue;
		fputs(" · required: ", cards);
		report_text(cards, ca_verdict_name(q, bounds[k], name, sizeof name));
	}
	fputs("</p><div class='plots'><div class='tl'></div><div class='hist'></div></div></div>",
		cards);
	FILE *d = report_datum(r, id);
	fputs("{\"title\":", d);
	json_string(d, c->name);
	fputs(",\"m\":{\"latency\":", d);
	series_write(d, &m->latency, SERIES_NS, "run", r->t0, r->t1, latency);
	fputs(",\"frequency\":", d);
	series_write(d, &m->frequency, SERIES_PER_SECOND, "second", r->t0, r->t1, NULL);
	fputs(",\"period\":", d);
	series_write(d, &m->period, SERIES_NS, "run", r->t0, r->t1, NULL);
	if (c->kind == CA_CALLBACK_TIMER) {
		fputs(",\"timer delay\":", d);
		series_write(d, &m->delay, SERIES_NS, "run", r->t0, r->t1, NULL);
	}
	fputc('}', d);
	report_deadline_data(d, "latency", deadline, misses);
	fputc('}', d);
}

void report_callbacks_section(struct report *r)
{
	const ca_architecture *a = r->arch;
	size_t *order, n = report_callbacks_in_order(r, &order);
	struct report_buffer cards;
	struct metrics m = { 0 };
	ca_callback_instance *runs = NULL;
	int64_t *delays = NULL;
	FILE *out = r->out;
	if (!order || !report_buffer_open(&cards))
		goto out;
	fputs("<section id='callbacks'><h2>Callbacks</h2><p>Each callback of the system, by "
		"node. Latency: callback_end − callback_start of each run; frequency: runs started "
		"in each second; period: the time since the run before; a timer's delay: its start "
		"− the firing it was due at (creation + k × period).</p>"
		"<div class='metric-switch' data-section='callbacks'></div>", out);
	/* a column of the runs over their deadline when a callback has one */
	bool deadlines = false;
	for (size_t i = 0; i < r->n_requirements; i++)
		deadlines = deadlines || (r->requirements[i].object == CA_REQUIREMENT_CALLBACK &&
			r->requirements[i].deadline_ns);
	report_stats_head(out, "callback", deadlines ? "<th>not ended</th><th>mean Hz</th>"
		"<th class='kind'>kind</th><th>misses</th>" : "<th>not ended</th><th>mean Hz</th>"
		"<th class='kind'>kind</th>");
	for (size_t k = 0; k < n; k++) {
		size_t cb = order[k], count = ca_records_callback_run_count(r->runs, cb);
		ca_callback_instance *grown = realloc(runs, (count + 1) * sizeof *runs);
		if (!grown)
			break;
		runs = grown;
		count = ca_records_callback_runs(r->runs, cb, runs);
		series_clear(&m.latency);
		series_clear(&m.starts);
		series_clear(&m.frequency);
		series_clear(&m.period);
		series_clear(&m.delay);
		size_t ended = 0;
		for (size_t i = 0; i < count; i++) {
			series_push(&m.starts, runs[i].start, 0);
			if (runs[i].end) {
				series_push(&m.latency, runs[i].start, (int64_t)(runs[i].end - runs[i].start));
				ended++;
			}
		}
		series_period(&m.starts, &m.period);
		series_frequency(&m.starts, r->t0, r->t1, &m.frequency);
		const ca_callback *c = &a->callbacks[cb];
		if (c->kind == CA_CALLBACK_TIMER && (delays = realloc(delays, (count + 1) *
			sizeof *delays))) {
			/* one per run, but for runs before the timer was created */
			size_t d = ca_records_timer_delays(r->runs, c->owner, delays);
			for (size_t i = 0, skip = count > d ? count - d : 0; i < d && i + skip < count; i++)
				series_push(&m.delay, runs[i + skip].start, delays[i]);
		}
		char id[32], what[600];
		ca_stats latency = { 0 };
		report_next_chart_id(r, id, sizeof id);
		if (count)
			write_card(r, cards.f, cb, &m, &latency);
		fprintf(out, "<tr data-name='");
		report_text(out, c->name);
		fputs("'><td>", out);
		if (count)
			fprintf(out, "<a href='#%s'>", id);
		report_text(out, c->name);
		fputs(count ? "</a>" : "", out);
		symbol(out, c);
		fputs("</td>", out);
		report_stats_cells_of(out, &latency);
		double hz = count > 1 && runs[count - 1].start > runs[0].start ?
			(double)(count - 1) * 1e9 / (double)(runs[count - 1].start - runs[0].start) : 0;
		fprintf(out, "<td>%zu</td><td>%.2f</td><td class='kind'>", count - ended, hz);
		report_text(out, describe(a, c, what, sizeof what));
		fputs("</td>", out);
		const ca_requirement *q = report_requirement(r, CA_REQUIREMENT_CALLBACK, c->name);
		size_t misses = q && q->deadline_ns ? ca_deadline_misses(m.latency.v, m.latency.n,
			q->deadline_ns) : 0;
		if (q && q->deadline_ns)
			fprintf(out, "<td class='misses%s'>%zu</td>", misses ? " over" : "", misses);
		else if (deadlines)
			fputs("<td></td>", out);
		fputs("</tr>", out);
	}
	fputs("</tbody></table>", out);
	if (!n)
		fputs("<p>No callback of the system ran in the trace.</p>", out);
	report_buffer_put(&cards, out);
	fputs("</section>", out);
out:
	metrics_free(&m);
	free(order);
	free(runs);
	free(delays);
}
