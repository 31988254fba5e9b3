/*
 * ab_page.c - the A/B page (ab_report.h): its frame, the header
 * (ab_header.c), the bar, the significant changes (slower first, each by how
 * much its median moved), a section per kind (a table of every object on
 * both sides, then a card each: both timelines, both distributions), the
 * objects of one side only; then the data (ab_object.h) and the page's
 * script (web/ab/, on top of the single report's base, view, thin,
 * timeline and histogram scripts).
 */
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ab_object.h"
#include "ab_report.h"
#include "assets.h"
#include "json.h"
#include "plural.h"
#include "report.h"
#include "sort_r.h"

static const char *const side_names[2] = { "base", "new" };

/* The page's sections of objects, in page order. */
static const struct kind_section {
	ca_cmp_kind kind;
	const char *id, *title, *what, *about;
} kinds[] = {
	{ CA_CMP_PATH, "paths", "Paths", "instance", "the end-to-end latency of each message "
		"that went the whole path (caret path latency's default span), at its start" },
	{ CA_CMP_CALLBACK, "callbacks", "Callbacks", "run", "callback_end − callback_start of "
		"each run, at its start" },
	{ CA_CMP_TOPIC, "topics", "Communication", "message", "the subscriber's callback_start − "
		"rclcpp_publish of each message, per topic and delivery, at its publish" },
	{ CA_CMP_NODE, "nodes", "Node paths", "instance", "a node's input to its output (caret "
		"latency nodes), at the run's start" },
};
enum { KINDS = sizeof kinds / sizeof kinds[0] };

static const struct kind_section *section_of(ca_cmp_kind kind)
{
	for (size_t k = 0; k < KINDS; k++)
		if (kinds[k].kind == kind)
			return &kinds[k];
	return NULL;
}

struct page {
	const struct report_ab *ab;
	FILE *out, *data;
	size_t data_members;
	const ca_cmp_row *rows;
	size_t n_rows;
	char **ids; /* each row's card id, or NULL: no card */
	bool failed;
};

/* ---- numbers ------------------------------------------------------------- */

/* ns in ms, with the digits the page's charts give (4 under 1 ms, so that
 * a few µs still show; 3 under 100 ms; 1 past). */
static int digits(double ns)
{
	return fabs(ns) < 1e6 ? 4 : fabs(ns) < 1e8 ? 3 : 1;
}

static void ms(FILE *out, double ns)
{
	fprintf(out, "%.*f", digits(ns), ns / 1e6);
}

static void signed_ms(FILE *out, double ns)
{
	fprintf(out, "%+.*f", digits(ns), ns / 1e6);
}

/* "+1.023 ms [+0.981, +1.060]" (an interval only when there is one). */
static void difference(FILE *out, const ca_cmp_diff *d)
{
	if (isnan(d->value)) {
		fputs("<span class='muted'>–</span>", out);
		return;
	}
	signed_ms(out, d->value);
	if (d->has_ci) {
		fputs(" <span class='ci'>[", out);
		signed_ms(out, d->low);
		fputs(", ", out);
		signed_ms(out, d->high);
		fputs("]</span>", out);
	}
}

/* A corrected p-value ("< 1e-16" past what a double tells apart from 0). */
static void p_value(FILE *out, double p)
{
	if (p < 1e-16)
		fputs("&lt; 1e-16 (corrected)", out);
	else
		fprintf(out, "%.3g (corrected)", p);
}

static void verdict(FILE *out, ca_cmp_verdict v)
{
	const char *name = ca_cmp_verdict_name(v);
	fprintf(out, "<span class='verdict-ab %s'>%s</span>", v == CA_CMP_SLOWER ? "slower" :
		v == CA_CMP_FASTER ? "faster" : v == CA_CMP_NO_CHANGE ? "same" : "none", name);
}

/* The change of p50 relative to the base's p50 (0 without one). */
static double relative(const ca_cmp_row *r)
{
	return r->stats[0].p50 > 0 && !isnan(r->diff[CA_CMP_P50].value) ?
		r->diff[CA_CMP_P50].value / r->stats[0].p50 : 0;
}

static void bar(FILE *out)
{
	fputs("<nav id='bar'><span class='toc'><a href='#changes'>Changes</a>", out);
	for (size_t k = 0; k < KINDS; k++)
		fprintf(out, "<a href='#%s'>%s</a>", kinds[k].id, kinds[k].title);
	fputs("<a href='#one-side'>One side only</a></span><input id='search' type='search' "
		"placeholder='search paths, callbacks, topics, nodes' aria-label='search'><span "
		"id='view'><button id='zoom-out' title='zoom out'>−</button><button id='zoom-in' "
		"title='zoom in'>+</button><button id='pan-left' title='earlier'>◀</button><button "
		"id='pan-right' title='later'>▶</button><button id='zoom-reset' title='the whole "
		"recordings'>all</button><span id='view-range'></span></span></nav><p class='hint'>"
		"Each timeline shows both recordings, <i class='side s0'></i>base and <i class='side "
		"s1'></i>new, each instance at its time since its own recording began; all "
		"timelines share one axis: drag across one to zoom in, ctrl+wheel to zoom, "
		"shift+wheel to pan, double-click for the whole. Hover a point or a bar for its "
		"values.</p>", out);
}

/* ---- the changes ------------------------------------------------------------ */

/* Slower before faster; within each, the greater change of p50 first (in
 * time: what it costs a latency budget); a and b index rows. */
static int by_change(const void *a, const void *b, void *rows)
{
	const ca_cmp_row *r = rows, *x = &r[*(const size_t *)a], *y = &r[*(const size_t *)b];
	if (x->verdict != y->verdict)
		return x->verdict == CA_CMP_SLOWER ? -1 : 1;
	double dx = fabs(x->diff[CA_CMP_P50].value), dy = fabs(y->diff[CA_CMP_P50].value);
	return (dx < dy) - (dx > dy);
}

static void name_cell(struct page *p, size_t i)
{
	FILE *out = p->out;
	fputs("<td>", out);
	if (p->ids[i])
		fprintf(out, "<a href='#%s'>", p->ids[i]);
	report_text(out, p->rows[i].name);
	fputs(p->ids[i] ? "</a></td>" : "</td>", out);
}

static void changes(struct page *p)
{
	FILE *out = p->out;
	size_t *order = malloc((p->n_rows + 1) * sizeof *order), n = 0;
	if (!order) {
		p->failed = true;
		return;
	}
	for (size_t i = 0; i < p->n_rows; i++)
		if (p->rows[i].verdict == CA_CMP_SLOWER || p->rows[i].verdict == CA_CMP_FASTER)
			order[n++] = i;
	caret_sort_r(order, n, sizeof *order, by_change, (void *)p->rows);
	fputs("<section id='changes'><h2>Significant changes</h2>", out);
	if (!n) {
		fputs("<p class='verdict good'>No significant change: every object on both sides is "
			"the same, or too few to tell.</p></section>", out);
		free(order);
		return;
	}
	fprintf(out, "<p>%zu %s, slower first, each by how much its median moved (most "
		"first). Differences: new − base in ms, with their %g %% interval.</p>"
		"<table class='stats changes'><thead><tr><th>object</th><th class='kind'>kind</th>"
		"<th>base p50</th><th>base p99</th><th>new p50</th><th>new p99</th><th>Δ p50</th>"
		"<th>Δ p50 %%</th><th>Δ p99</th><th>verdict</th></tr></thead><tbody>", n,
		caret_plural(n, "change", "changes"), p->ab->settings->confidence * 100);
	for (size_t k = 0; k < n; k++) {
		size_t i = order[k];
		const ca_cmp_row *r = &p->rows[i];
		fprintf(out, "<tr data-name='");
		report_text(out, r->name);
		fprintf(out, "' data-verdict='%s'>", ca_cmp_verdict_name(r->verdict));
		name_cell(p, i);
		fprintf(out, "<td class='kind'>%s</td><td>", ca_cmp_kind_name(r->kind));
		ms(out, r->stats[0].p50);
		fputs("</td><td>", out);
		ms(out, r->stats[0].p99);
		fputs("</td><td>", out);
		ms(out, r->stats[1].p50);
		fputs("</td><td>", out);
		ms(out, r->stats[1].p99);
		fputs("</td><td>", out);
		difference(out, &r->diff[CA_CMP_P50]);
		fprintf(out, "</td><td>%+.1f %%</td><td>", 100 * relative(r));
		difference(out, &r->diff[CA_CMP_P99]);
		fputs("</td><td>", out);
		verdict(out, r->verdict);
		fputs("</td></tr>", out);
	}
	fputs("</tbody></table></section>", out);
	free(order);
}

/* ---- the sections of objects ------------------------------------------------- */

/* A side's instances of an object, each at its time since its
 * recording's first event; false when out of memory. */
static bool side_of(const ca_cmp_side *side, const ca_cmp_object *o, struct ab_side *s,
	uint64_t **since, int64_t **latency)
{
	*since = malloc((o->n + 1) * sizeof **since);
	*latency = malloc((o->n + 1) * sizeof **latency);
	if (!*since || !*latency)
		return false;
	size_t traces = ca_cmp_side_traces(side);
	*s = (struct ab_side){ .since = *since, .latency = *latency, .n = o->n };
	for (size_t t = 0; t < traces; t++) {
		uint64_t first, last;
		ca_cmp_side_trace(side, t, &first, &last);
		s->span = last - first > s->span ? last - first : s->span;
	}
	for (size_t i = 0; i < o->n; i++) {
		uint64_t first = 0, last = 0;
		if (o->instances[i].trace < traces)
			ca_cmp_side_trace(side, o->instances[i].trace, &first, &last);
		(*since)[i] = o->instances[i].start > first ? o->instances[i].start - first : 0;
		(*latency)[i] = o->instances[i].latency;
	}
	return true;
}

static void card(struct page *p, size_t i, const struct kind_section *ks)
{
	const ca_cmp_row *r = &p->rows[i];
	FILE *out = p->out;
	fprintf(out, "<div class='card ab' id='%s' data-chart='%s' data-kind='%s' data-verdict='%s' "
		"data-name='", p->ids[i], p->ids[i], ca_cmp_kind_name(r->kind),
		ca_cmp_verdict_name(r->verdict));
	report_text(out, r->name);
	fputs("'><h3>", out);
	report_text(out, r->name);
	fputs(" ", out);
	verdict(out, r->verdict);
	fputs("</h3><p class='sub'>Δ p50 ", out);
	difference(out, &r->diff[CA_CMP_P50]);
	fputs(" ms · Δ p99 ", out);
	difference(out, &r->diff[CA_CMP_P99]);
	fputs(" ms · Δ mean ", out);
	difference(out, &r->diff[CA_CMP_MEAN]);
	fputs(" ms", out);
	if (!isnan(r->p_adjusted)) {
		fprintf(out, " · P(new slower than base) %.3f, p ", r->prob_slower);
		p_value(out, r->p_adjusted);
	}
	if (r->run_diff.has_ci) {
		fprintf(out, " · runs %zu / %zu: Δ of their p50s' mean ", r->runs[0], r->runs[1]);
		difference(out, &r->run_diff);
		fputs(" ms, p ", out);
		p_value(out, r->run_p_adjusted);
	}
	fputs("</p><div class='plots'><div class='tl'></div><div class='hist'></div></div></div>",
		out);

	struct ab_side sides[2];
	uint64_t *since[2] = { NULL, NULL };
	int64_t *latency[2] = { NULL, NULL };
	const ca_cmp_object *objects[2] = { r->base, r->new_ };
	bool ok = true;
	for (int s = 0; s < 2; s++)
		ok = side_of(p->ab->side[s], objects[s], &sides[s], &since[s], &latency[s]) && ok;
	if (p->data_members++)
		fputc(',', p->data);
	fprintf(p->data, "\"%s\":", p->ids[i]);
	if (ok)
		ok = ab_object_write(p->data, r->name, ks->what, sides);
	else
		fputs("null", p->data);
	p->failed = p->failed || !ok;
	for (int s = 0; s < 2; s++) {
		free(since[s]);
		free(latency[s]);
	}
}

/* The named paths of the architecture file that neither side followed (a
 * node or topic of them in neither recording), said under the Paths. */
static void paths_not_followed(struct page *p)
{
	char **names, err[512];
	size_t n, said = 0;
	if (!p->ab->arch_file ||
	    ca_arch_file_path_names(p->ab->arch_file, &names, &n, err, sizeof err) != 0)
		return;
	for (size_t i = 0; i < n; i++) {
		bool followed = false;
		for (size_t r = 0; r < p->n_rows && !followed; r++)
			followed = p->rows[r].kind == CA_CMP_PATH && !strcmp(p->rows[r].name, names[i]);
		if (!followed) {
			fputs(said++ ? ", " : "<p class='warning not-followed'>Followed in neither "
				"recording (a node or topic of it not in them: caret path latency --arch "
				"FILE --path NAME says which): ", p->out);
			report_text(p->out, names[i]);
		}
		free(names[i]);
	}
	free(names);
	if (said)
		fputs("</p>", p->out);
}

static void kind_section(struct page *p, const struct kind_section *ks)
{
	FILE *out = p->out;
	size_t shown = 0;
	for (size_t i = 0; i < p->n_rows; i++)
		shown += p->rows[i].kind == ks->kind && p->rows[i].base && p->rows[i].new_;
	if (!shown && (ks->kind != CA_CMP_PATH || !p->ab->arch_file))
		return; /* a kind neither side has */
	fprintf(out, "<section id='%s'><h2>%s</h2><p>Latency: %s. Each object on both sides, "
		"changes first; differences new − base in ms with their interval.</p>", ks->id,
		ks->title, ks->about);
	if (ks->kind == CA_CMP_PATH)
		paths_not_followed(p);
	if (!shown) {
		fputs("<p>No path of the architecture file on both sides.</p></section>", out);
		return;
	}
	fputs("<div class='dist-switch'></div><table class='stats'><thead><tr><th>object</th>"
		"<th>base n</th><th>base p50</th><th>base p99</th><th>new n</th><th>new p50</th>"
		"<th>new p99</th><th>Δ p50</th><th>Δ p99</th><th>verdict</th></tr></thead><tbody>",
		out);
	for (size_t i = 0; i < p->n_rows; i++) {
		const ca_cmp_row *r = &p->rows[i];
		if (r->kind != ks->kind || !r->base || !r->new_)
			continue;
		fputs("<tr data-name='", out);
		report_text(out, r->name);
		fprintf(out, "' data-verdict='%s'>", ca_cmp_verdict_name(r->verdict));
		name_cell(p, i);
		for (int s = 0; s < 2; s++) {
			fprintf(out, "<td>%" PRIu64 "</td><td>", r->stats[s].count);
			ms(out, r->stats[s].p50);
			fputs("</td><td>", out);
			ms(out, r->stats[s].p99);
			fputs("</td>", out);
		}
		fputs("<td>", out);
		difference(out, &r->diff[CA_CMP_P50]);
		fputs("</td><td>", out);
		difference(out, &r->diff[CA_CMP_P99]);
		fputs("</td><td>", out);
		verdict(out, r->verdict);
		fputs("</td></tr>", out);
	}
	fputs("</tbody></table>", out);
	for (size_t i = 0; i < p->n_rows; i++)
		if (p->ids[i] && p->rows[i].kind == ks->kind)
			card(p, i, ks);
	fputs("</section>", out);
}

static void one_side(struct page *p)
{
	FILE *out = p->out;
	fputs("<section id='one-side'><h2>On one side only</h2>", out);
	for (int s = 0; s < 2; s++) {
		ca_cmp_verdict v = s ? CA_CMP_NEW_ONLY : CA_CMP_BASE_ONLY;
		size_t n = 0;
		for (size_t i = 0; i < p->n_rows; i++)
			n += p->rows[i].verdict == v;
		fprintf(out, "<h4><i class='side s%d'></i>only in %s: %zu</h4>", s, side_names[s], n);
		if (!n)
			continue;
		fputs("<table class='stats one-side'><thead><tr><th>object</th><th class='kind'>kind"
			"</th><th>count</th><th>p50 ms</th><th>p99 ms</th></tr></thead><tbody>", out);
		for (size_t i = 0; i < p->n_rows; i++) {
			const ca_cmp_row *r = &p->rows[i];
			if (r->verdict != v)
				continue;
			fputs("<tr data-name='", out);
			report_text(out, r->name);
			fprintf(out, "' data-side='%s'><td>", side_names[s]);
			report_text(out, r->name);
			fprintf(out, "</td><td class='kind'>%s</td><td>%" PRIu64 "</td><td>",
				ca_cmp_kind_name(r->kind), r->stats[s].count);
			ms(out, r->stats[s].p50);
			fputs("</td><td>", out);
			ms(out, r->stats[s].p99);
			fputs("</td></tr>", out);
		}
		fputs("</tbody></table>", out);
	}
	fputs("</section>", out);
}

/* ---- the page ------------------------------------------------------------------ */

int report_ab_write(const struct report_ab *ab, FILE *out, char *err, size_t err_size)
{
	struct page p = { .ab = ab };
	struct report_buffer html, data;
	p.n_rows = ca_cmp_result_rows(ab->result, &p.rows);
	p.ids = calloc(p.n_rows + 1, sizeof *p.ids);
	if (!p.ids || !report_buffer_open(&html)) {
		free(p.ids);
		snprintf(err, err_size, "out of memory");
		return -1;
	}
	if (!report_buffer_open(&data)) {
		report_buffer_put(&html, NULL);
		free(p.ids);
		snprintf(err, err_size, "out of memory");
		return -1;
	}
	p.out = html.f;
	p.data = data.f;
	/* a card for each object with instances on both sides */
	for (size_t i = 0, n = 0; i < p.n_rows; i++)
		if (p.rows[i].base && p.rows[i].new_ && p.rows[i].base->n && p.rows[i].new_->n &&
		    section_of(p.rows[i].kind) && (p.ids[i] = malloc(24)))
			snprintf(p.ids[i], 24, "ab%zu", n++);
	report_ab_header(p.out, ab, p.rows, p.n_rows);
	bar(p.out);
	changes(&p);
	for (size_t k = 0; k < KINDS; k++)
		kind_section(&p, &kinds[k]);
	one_side(&p);
	fputs("<footer class='muted'>Definitions of every number: docs/latency.md and "
		"docs/compare.md of caret-c. Times are each trace's clock.</footer>", p.out);

	uint64_t longest = 0;
	for (int s = 0; s < 2; s++)
		for (size_t i = 0; i < ab->n_recordings[s]; i++) {
			const struct ab_recording *r = &ab->recordings[s][i];
			longest = r->last - r->first > longest ? r->last - r->first : longest;
		}
	fprintf(out, "<!DOCTYPE html>\n<html lang='en'><head><meta charset='utf-8'><meta "
		"name='viewport' content='width=device-width'><title>caret report: A/B</title>"
		"<style>%s</style><style>%s</style><style>%s</style></head><body class='ab'>",
		ca_asset_uplot_css, ca_asset_report_css, ca_asset_ab_css);
	report_buffer_put(&html, out);
	fputs("<script type='application/json' id='caret-data'>{\"dur\":", out);
	json_int(out, (int64_t)(longest / 1000));
	fputs(",\"charts\":{", out);
	report_buffer_put(&data, out);
	fprintf(out, "}}</script><script>%s</script><script>%s</script></body></html>\n",
		ca_asset_uplot_js, ca_asset_ab_js);
	for (size_t i = 0; i < p.n_rows; i++)
		free(p.ids[i]);
	free(p.ids);
	if (p.failed) {
		snprintf(err, err_size, "out of memory");
		return -1;
	}
	if (ferror(out)) {
		snprintf(err, err_size, "cannot write the report");
		return -1;
	}
	return 0;
}
