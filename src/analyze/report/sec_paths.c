/*
 * sec_paths.c - the Paths section: per path (each named one of the
 * architecture file, or the longest chain of nodes found), its end-to-end
 * latency and response times (a card whose charts switch between them),
 * the statistics of every hop, where the time goes (the mean of each hop),
 * and the worst instances first: those at the maximum, the 99th percentile
 * and the median, and the first ones, each hop of each, with their flow
 * through the nodes drawn by the page (web/page/flows.js), which also draws the
 * flow of any instance clicked on the timeline. On a trace with receptions,
 * each topic hop also split where its messages waited (sec_split.c).
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "json.h"
#include "path.h"
#include "plural.h"
#include "records.h"
#include "report.h"
#include "series.h"

struct report_path {
	char title[512];
	const ca_path *path;
	ca_path_latency *latency; /* NULL: error says why */
	char error[512];
};

struct report_paths {
	struct report_path *p;
	size_t n;
	const ca_path_latency **latencies; /* views for the scheduling section */
	const ca_path **defs;
};

/* The path's latency: handed over by the records that followed it, else
 * walked over every record, else followed in a pass of its own. */
static ca_path_latency *latency_of(const struct report *r, const ca_path *path,
	const ca_records *followed, char *err, size_t err_size)
{
	const ca_node_policy policy = CA_POLICY_USE_LATEST_MESSAGE;
	ca_path_latency *l = followed ? ca_path_latency_build(followed, path, policy, err,
		err_size) : NULL;
	if (!l && r->every)
		l = ca_path_latency_build(r->every, path, policy, err, err_size);
	if (l || r->every)
		return l;
	ca_records_options o = { .follow = path, .follow_policy = policy };
	ca_records *own = ca_records_build_options(r->trace, &o, err, err_size);
	if (own)
		l = ca_path_latency_build(own, path, policy, err, err_size);
	ca_records_free(own); /* the latency owns its arrays */
	return l;
}

struct report_paths *report_paths_build(struct report *r, const char *const *titles,
	const ca_path *const *paths, const ca_records *const *followed, size_t n)
{
	struct report_paths *ps = calloc(1, sizeof *ps);
	if (!ps || !(ps->p = calloc(n + 1, sizeof *ps->p)) ||
	    !(ps->latencies = calloc(n + 1, sizeof *ps->latencies)) ||
	    !(ps->defs = calloc(n + 1, sizeof *ps->defs))) {
		snprintf(r->err, r->err_size, "out of memory");
		report_paths_free(ps);
		return NULL;
	}
	for (size_t i = 0; i < n; i++) {
		struct report_path *p = &ps->p[i];
		snprintf(p->title, sizeof p->title, "%s", titles[i]);
		p->path = paths[i];
		p->latency = latency_of(r, paths[i], followed[i], p->error, sizeof p->error);
		ps->latencies[i] = p->latency;
		ps->defs[i] = p->path;
	}
	ps->n = n;
	return ps;
}

size_t report_paths_view(const struct report_paths *ps, const ca_path_latency *const **l,
	const ca_path *const **defs)
{
	*l = ps->latencies;
	*defs = ps->defs;
	return ps->n;
}

bool report_paths_failed(const struct report_paths *ps, char *err, size_t err_size)
{
	for (size_t i = 0; i < ps->n; i++)
		if (!ps->p[i].latency) {
			snprintf(err, err_size, "path %s: %s", ps->p[i].title, ps->p[i].error);
			return true;
		}
	return false;
}

void report_paths_free(struct report_paths *ps)
{
	if (!ps)
		return;
	for (size_t i = 0; ps->p && i < ps->n; i++)
		ca_path_latency_free(ps->p[i].latency);
	free(ps->p);
	free(ps->latencies);
	free(ps->defs);
	free(ps);
}

/* ---- one path ------------------------------------------------------------- */

static void hop_label(const ca_path *p, size_t hop, char *buf, size_t size)
{
	size_t k = p->node_count - 1;
	if (hop == 0 || hop == 2 * k)
		snprintf(buf, size, "callback %s", p->nodes[hop / 2]);
	else if (hop % 2)
		snprintf(buf, size, "topic %s", p->topics[hop / 2]);
	else
		snprintf(buf, size, "node %s", p->nodes[hop / 2]);
}

/* A message with an end under the default span: where it starts (the x of
 * the timeline), its latency and its index among the path's messages. */
struct instance {
	uint64_t start;
	int64_t latency;
	size_t message;
};

static int by_start(const void *x, const void *y)
{
	const struct instance *a = x, *b = y;
	return a->start < b->start ? -1 : a->start > b->start ? 1 :
		a->message < b->message ? -1 : a->message > b->message;
}

/* The position of the instance with the least latency at or above v. */
static size_t instance_at_or_above(const struct instance *in, size_t n, double v)
{
	size_t best = 0;
	for (size_t i = 0; i < n; i++)
		if ((double)in[i].latency >= v &&
		    ((double)in[best].latency < v || in[i].latency < in[best].latency))
			best = i;
	return best;
}

static const char *const cases[] = { "response (all)", "response (best)", "response (worst)",
	"response (worst-with-external-latency)" };

/* The chain: /a → [topic] → /b ... */
static void chain(FILE *out, const ca_path *p)
{
	fputs("<p class='chain'>", out);
	for (size_t i = 0; i < p->node_count; i++) {
		if (i) {
			fputs(" → <span class='topic'>[", out);
			report_text(out, p->topics[i - 1]);
			fputs("]</span> → ", out);
		}
		fputs("<b>", out);
		report_text(out, p->nodes[i]);
		fputs("</b>", out);
	}
	fputs("</p>", out);
}

/* Where the time goes: the mean of each hop, both callbacks included, over
 * the messages that went all the way (a bar of parts as wide as they are);
 * with split (sec_split.c), each topic hop in the parts of where its
 * messages waited. */
static void where_time_goes(const struct report *r, char **labels, const double *mean,
	size_t h, const struct split_mean *split)
{
	FILE *out = r->out;
	static const char *const colours[] = { "#4e79a7", "#f28e2b", "#59a14f", "#e15759",
		"#76b7b2", "#edc948", "#b07aa1", "#ff9da7", "#9c755f", "#bab0ac" };
	double total = 0;
	for (size_t k = 0; k < h; k++)
		total += mean[k] > 0 ? mean[k] : 0;
	fputs("<h4>Where the time goes</h4><p class='sub'>The mean of each hop, both callbacks "
		"included, over the messages that went all the way: ", out);
	fprintf(out, "%.3f ms in all.</p><div class='stack'>", total / 1e6);
	for (size_t k = 0; k < h && total > 0; k++) {
		double share = mean[k] > 0 ? 100 * mean[k] / total : 0;
		if (split && k % 2 && split[k].split) {
			report_split_segment(out, labels[k], colours[k % 10], share, mean[k], &split[k]);
			continue;
		}
		fprintf(out, "<span style='width:%.3f%%;background:%s' title='", share,
			colours[k % 10]);
		report_text(out, labels[k]);
		fprintf(out, ": %.3f ms (%.1f%%)'></span>", mean[k] / 1e6, share);
	}
	fputs("</div><ul class='legend'>", out);
	for (size_t k = 0; k < h; k++) {
		fprintf(out, "<li><i style='background:%s'></i>", colours[k % 10]);
		report_text(out, labels[k]);
		fprintf(out, " <b>%.3f ms</b> (%.1f%%)</li>", mean[k] / 1e6,
			total > 0 && mean[k] > 0 ? 100 * mean[k] / total : 0.0);
	}
	fputs("</ul>", out);
	if (split)
		report_split_legend(r, out, labels, split, h);
}

/* The worst instances' hops side by side: max, p99, p50 and the first. */
static void worst_table(const struct report *r, const struct report_path *p, char **labels,
	const struct instance *in, const size_t *pick, const char *const *pick_names,
	size_t n_pick, const int64_t *hops, size_t h)
{
	FILE *out = r->out;
	uint64_t t0 = r->t0;
	size_t messages[4];
	for (size_t j = 0; j < n_pick && j < 4; j++)
		messages[j] = in[pick[j]].message;
	const ca_path_message *m;
	ca_path_latency_messages(p->latency, &m, NULL);
	fputs("<h4>Worst instances first</h4><p class='sub'>Each hop of the instances at the "
		"maximum, the 99th percentile and the median of the end-to-end latency, and of "
		"the first one (ms; hops outside the end-to-end span in grey). The p99 and p50 "
		"instances are those of least latency at or above the table's percentile (taken "
		"as everywhere on this page: numpy's linear interpolation, as the original "
		"CARET's), so their own latency, the last row, may be above it. Their flow through "
		"the nodes is drawn below; click a point of the timeline for any other.</p>"
		"<table class='worst'><thead><tr><th>hop</th>", out);
	for (size_t j = 0; j < n_pick; j++)
		fprintf(out, "<th>%s<br><span class='muted'>#%zu at %.3f s</span></th>", pick_names[j],
			pick[j], (double)(int64_t)(m[in[pick[j]].message].callback_start - t0) / 1e9);
	fputs("</tr></thead><tbody>", out);
	const ca_path_span span = { false, false };
	for (size_t k = 0; k < h; k++) {
		fprintf(out, "<tr%s><td>", ca_path_hop_in_span(k, h, span) ? "" : " class='outside'");
		report_text(out, labels[k]);
		fputs("</td>", out);
		for (size_t j = 0; j < n_pick; j++) {
			int64_t v = hops[in[pick[j]].message * h + k];
			if (v == CA_HOP_NONE)
				fputs("<td>—</td>", out);
			else
				fprintf(out, "<td>%.3f</td>", v / 1e6);
		}
		fputs("</tr>", out);
		if (r->splitter && k % 2)
			report_split_rows(r, out, p->latency, k, messages, n_pick);
	}
	fputs("<tr class='total'><td>end to end</td>", out);
	for (size_t j = 0; j < n_pick; j++)
		fprintf(out, "<td>%.3f</td>", in[pick[j]].latency / 1e6);
	fputs("</tr></tbody></table>", out);
}

/* Whether a snapshot's miss is of this path: its label is the path's
 * name (caret live --arch) or its nodes joined by " -> " (--nodes). */
static bool miss_of_path(const struct report_miss *m, const struct report_path *p)
{
	if (!strcmp(m->path, p->title))
		return true;
	const char *s = m->path;
	for (size_t i = 0; i < p->path->node_count; i++) {
		size_t len = strlen(p->path->nodes[i]);
		if (i && strncmp(s, " -> ", 4))
			return false;
		s += i ? 4 : 0;
		if (strncmp(s, p->path->nodes[i], len))
			return false;
		s += len;
	}
	return !*s;
}

/* The deadline drawn on the path: its requirement's, else that of a
 * snapshot's miss of it; 0 for none. */
static int64_t path_deadline(const struct report *r, const struct report_path *p)
{
	const ca_requirement *q = report_requirement(r, CA_REQUIREMENT_PATH, p->title);
	if (q && q->deadline_ns)
		return q->deadline_ns;
	for (size_t i = 0; i < r->n_misses; i++)
		if (miss_of_path(&r->misses[i], p) && r->misses[i].deadline > 0)
			return r->misses[i].deadline;
	return 0;
}

/* The deadline said above the table, with the requirement's other bounds
 * (those alone when it has no deadline). */
static void deadline_text(const struct report *r, const struct report_path *p,
	int64_t deadline, const struct instance *in, size_t n_in)
{
	FILE *out = r->out;
	const ca_requirement *q = report_requirement(r, CA_REQUIREMENT_PATH, p->title);
	if (!deadline && !q)
		return;
	size_t misses = 0;
	for (size_t i = 0; i < n_in; i++)
		misses += in[i].latency > deadline;
	fputs("<p class='deadline'>", out);
	if (deadline)
		fprintf(out, "Deadline <b>%.3f ms</b> (%s): <b>%zu</b> of %zu %s over it (%.2f%%), "
			"drawn red on the timeline and past the dashed line of the histogram.",
			deadline / 1e6, q && q->deadline_ns ? "the architecture file's requirement" :
			"the snapshot's miss", misses, n_in, caret_plural(n_in, "instance", "instances"),
			n_in ? 100.0 * (double)misses / (double)n_in : 0.0);
	/* the other bounds, as caret check --requirements names them */
	const bool set[3] = { q && q->has_miss_ratio, q && q->p99_ns, q && q->max_ns };
	const ca_bound bounds[3] = { CA_BOUND_DEADLINE, CA_BOUND_P99, CA_BOUND_MAX };
	for (size_t k = 0; k < 3; k++) {
		char name[128];
		if (!set[k])
			continue;
		fputs(k ? " Required: " : " Allowed: ", out);
		report_text(out, ca_verdict_name(q, bounds[k], name, sizeof name));
		fputc('.', out);
	}
	fputs("</p>", out);
}

/* The data of the deadline and of the snapshot's misses of the path:
 * ,"dl":{...} and ,"snap":[{"x":µs since t0,"y":µs}]. */
static void deadline_data(const struct report *r, FILE *d, const struct report_path *p,
	int64_t deadline, const struct instance *in, size_t n_in)
{
	size_t misses = 0;
	for (size_t i = 0; i < n_in; i++)
		misses += in[i].latency > deadline;
	report_deadline_data(d, "end to end", deadline, misses);
	bool first = true;
	for (size_t i = 0; i < r->n_misses; i++) {
		const struct report_miss *m = &r->misses[i];
		if (!miss_of_path(m, p) || m->start < r->t0)
			continue;
		fputs(first ? ",\"snap\":[{\"x\":" : ",{\"x\":", d);
		json_us(d, (int64_t)(m->start - r->t0));
		fputs(",\"y\":", d);
		json_us(d, m->latency);
		fputc('}', d);
		first = false;
	}
	if (!first)
		fputc(']', d);
}

/* The page's data of the path: its series, its hops' labels and, for the
 * instances the page can show (all, or those of the thinned timeline and
 * the picked ones), their start and hops. */
static void path_data(struct report *r, const char *id, const struct report_path *p,
	char **labels, const struct instance *in, size_t n_in, const size_t *pick,
	const char *const *pick_names, size_t n_pick, struct series *e2e, struct series *resp,
	int64_t deadline)
{
	const ca_path_message *m;
	const int64_t *hops;
	ca_path_latency_messages(p->latency, &m, &hops);
	size_t h = ca_path_latency_hop_count(p->latency);
	const ca_path_span span = { false, false };
	FILE *d = report_datum(r, id);
	fputs("{\"title\":", d);
	json_string(d, p->title);
	fputs(",\"m\":{\"end to end\":", d);
	series_write(d, e2e, SERIES_NS, "instance", r->t0, r->t1, NULL);
	for (int c = 0; c < 4; c++) {
		fputc(',', d);
		json_string(d, cases[c]);
		fputc(':', d);
		series_write(d, &resp[c], SERIES_NS, "output", r->t0, r->t1, NULL);
	}
	fputs("},\"nodes\":[", d);
	for (size_t i = 0; i < p->path->node_count; i++) {
		if (i)
			fputc(',', d);
		json_string(d, p->path->nodes[i]);
	}
	fputs("],\"hops\":[", d);
	for (size_t k = 0; k < h; k++) {
		if (k)
			fputc(',', d);
		json_string(d, labels[k]);
	}
	fputs("],\"inspan\":[", d);
	for (size_t k = 0; k < h; k++)
		fprintf(d, "%s%d", k ? "," : "", ca_path_hop_in_span(k, h, span));
	/* the instances: positions in the timeline's order */
	size_t *keep = malloc((SERIES_POINTS + n_pick + 1) * sizeof *keep);
	size_t kept = keep ? series_thin(e2e, r->t0, r->t1, keep) : 0;
	bool all = kept == (size_t)-1;
	if (!all && keep)
		for (size_t j = 0; j < n_pick; j++)
			keep[kept++] = pick[j];
	size_t count = all ? n_in : kept;
	fputs("],\"inst\":{", d);
	if (!all) {
		fputs("\"k\":[", d);
		for (size_t i = 0; i < count; i++)
			json_item(d, i, (int64_t)keep[i]);
		fputs("],", d);
	}
	fputs("\"m\":[", d);
	for (size_t i = 0; i < count; i++) {
		if (i)
			fputc(',', d);
		json_int(d, (int64_t)in[all ? i : keep[i]].message);
	}
	fputs("],\"s\":[", d);
	for (size_t i = 0; i < count; i++) {
		const ca_path_message *x = &m[in[all ? i : keep[i]].message];
		if (i)
			fputc(',', d);
		json_us(d, x->callback_start > r->t0 ? (int64_t)(x->callback_start - r->t0) : 0);
	}
	fputs("],\"h\":[", d);
	for (size_t i = 0; i < count; i++)
		for (size_t k = 0; k < h; k++) {
			int64_t v = hops[in[all ? i : keep[i]].message * h + k];
			if (i || k)
				fputc(',', d);
			if (v == CA_HOP_NONE)
				fputs("null", d);
			else
				json_us(d, v);
		}
	fputc(']', d);
	if (r->splitter && keep) {
		for (size_t i = 0; i < count; i++) /* their messages, over what they were */
			keep[i] = in[all ? i : keep[i]].message;
		report_split_data(r, d, p->latency, keep, count);
	}
	fputs("},\"worst\":[", d);
	for (size_t j = 0; j < n_pick; j++) {
		fprintf(d, "%s{\"name\":", j ? "," : "");
		json_string(d, pick_names[j]);
		fprintf(d, ",\"pos\":%zu}", pick[j]);
	}
	fputc(']', d);
	deadline_data(r, d, p, deadline, in, n_in);
	fputc('}', d);
	free(keep);
}

/* The messages with an end under the default span, by their start; how
 * many (in, room for every message). */
static size_t instances_of(const ca_path_latency *l, struct instance *in)
{
	const ca_path_message *m;
	const ca_path_span span = { false, false };
	size_t n = ca_path_latency_messages(l, &m, NULL), n_in = 0;
	for (size_t i = 0; i < n; i++) {
		uint64_t start, end;
		if (ca_path_message_span(&m[i], span, &start, &end))
			in[n_in++] = (struct instance){ start, (int64_t)(end - start), i };
	}
	qsort(in, n_in, sizeof *in, by_start);
	return n_in;
}

/* The table: end to end, each response-time case (their series into
 * resp), each hop over the messages that went all the way (their means
 * into mean). Returns how many went all the way. v, t: room for every
 * message. */
static size_t latency_table(FILE *out, const struct report_path *p, const struct instance *in,
	size_t n_in, char **labels, double *mean, struct series *resp, int64_t *v, uint64_t *t,
	int64_t deadline)
{
	/* with a deadline, a column of the instances over it */
	const char *no_misses = deadline ? "<td></td>" : "";
	const ca_path_message *m;
	const int64_t *hops;
	size_t n = ca_path_latency_messages(p->latency, &m, &hops);
	size_t h = ca_path_latency_hop_count(p->latency), done = 0;
	const ca_path_span span = { false, false }, whole = { true, true };
	report_stats_head(out, "", deadline ? "<th>misses</th>" : NULL);
	fputs("<tr><td>end to end</td>", out);
	for (size_t i = 0; i < n_in; i++)
		v[i] = in[i].latency;
	size_t misses = ca_deadline_misses(v, n_in, deadline);
	report_stats_cells(out, v, n_in);
	if (deadline)
		fprintf(out, "<td class='misses%s'>%zu</td>", misses ? " over" : "", misses);
	fputs("</tr>", out);
	for (int c = CA_RESPONSE_ALL; c <= CA_RESPONSE_WORST_WITH_EXTERNAL_LATENCY; c++) {
		size_t k = ca_path_response_times(p->latency, span, (ca_response_case)c, t, v);
		k = k == (size_t)-1 ? 0 : k;
		for (size_t i = 0; i < k; i++)
			series_push(&resp[c], t[i], v[i]);
		series_sort(&resp[c]);
		fputs("<tr><td>", out);
		report_text(out, cases[c]);
		fputs("</td>", out);
		report_stats_cells(out, v, k);
		fprintf(out, "%s</tr>", no_misses);
	}
	for (size_t k = 0; k < h; k++) {
		done = 0;
		for (size_t i = 0; i < n; i++) {
			uint64_t start, end;
			if (ca_path_message_span(&m[i], whole, &start, &end))
				v[done++] = hops[i * h + k];
		}
		for (size_t i = 0; i < done; i++)
			mean[k] += (double)v[i] / (double)done;
		fprintf(out, "<tr%s><td>", ca_path_hop_in_span(k, h, span) ? "" : " class='outside'");
		report_text(out, labels[k]);
		fputs("</td>", out);
		report_stats_cells(out, v, done);
		fprintf(out, "%s</tr>", no_misses);
	}
	fputs("</tbody></table>", out);
	return done;
}

/* The instances at the maximum, the 99th percentile and the median, and
 * the first: their positions in pick, each once, named by all it is
 * ("max = p99") in text. Returns how many. v: room for n_in. */
static size_t pick_worst(const struct instance *in, size_t n_in, int64_t *v, size_t pick[4],
	char text[4][256])
{
	size_t max = 0, n_pick = 0;
	for (size_t i = 0; i < n_in; i++) {
		v[i] = in[i].latency;
		max = in[i].latency > in[max].latency ? i : max;
	}
	ca_stats s;
	ca_stats_select(v, n_in, CA_PERCENTILE_LINEAR, &s);
	const size_t at[4] = { max, instance_at_or_above(in, n_in, s.p99),
		instance_at_or_above(in, n_in, s.p50), 0 };
	/* a percentile's column says the value it was picked at: the table's
	 * (linear), which the instance's own latency may be above */
	char name[4][48];
	snprintf(name[0], sizeof name[0], "max");
	snprintf(name[1], sizeof name[1], "p99 (≥ %.3f)", s.p99 / 1e6);
	snprintf(name[2], sizeof name[2], "p50 (≥ %.3f)", s.p50 / 1e6);
	snprintf(name[3], sizeof name[3], "first");
	for (size_t j = 0; j < 4; j++) {
		size_t k = 0;
		while (k < n_pick && pick[k] != at[j])
			k++;
		if (k == n_pick) {
			pick[n_pick] = at[j];
			snprintf(text[n_pick++], sizeof *text, "%s", name[j]);
		} else {
			size_t used = strlen(text[k]);
			snprintf(text[k] + used, sizeof *text - used, " = %s", name[j]);
		}
	}
	return n_pick;
}

/* The card's head: its title, the chain, and an error when the path's
 * latency could not be built. */
static void path_head(FILE *out, const char *id, const struct report_path *p)
{
	fprintf(out, "<div class='card path' id='%s' data-chart='%s' data-name='", id, id);
	report_text(out, p->title);
	for (size_t i = 0; i < p->path->node_count; i++) {
		fputc(' ', out);
		report_text(out, p->path->nodes[i]);
	}
	fputs("'><h3>", out);
	report_text(out, p->title);
	fputs("</h3>", out);
	chain(out, p->path);
	if (!p->latency) {
		fputs("<p class='error'>", out);
		report_text(out, p->error);
		fputs("</p>", out);
	}
}

static void one_path(struct report *r, const struct report_path *p)
{
	FILE *out = r->out;
	char id[32];
	report_chart_id(r, id, sizeof id);
	path_head(out, id, p);
	if (!p->latency) {
		fputs("</div>", out);
		return;
	}
	const ca_path_message *m;
	const int64_t *hops;
	size_t n = ca_path_latency_messages(p->latency, &m, &hops);
	size_t h = ca_path_latency_hop_count(p->latency), n_pick = 0, pick[4];
	struct instance *in = malloc((n + 1) * sizeof *in);
	int64_t *v = malloc((n + 1) * sizeof *v);
	uint64_t *t = malloc((n + 1) * sizeof *t);
	double *mean = calloc(h + 1, sizeof *mean);
	struct split_mean *split = r->splitter ? calloc(h + 1, sizeof *split) : NULL;
	char **labels = calloc(h + 1, sizeof *labels), pick_text[4][256];
	const char *pick_names[4];
	struct series e2e = { 0 }, resp[4] = { { 0 } };
	if (!in || !v || !t || !mean || !labels)
		goto out;
	for (size_t k = 0; k < h; k++)
		if (!(labels[k] = malloc(600)))
			goto out;
		else
			hop_label(p->path, k, labels[k], 600);
	size_t n_in = instances_of(p->latency, in);
	for (size_t i = 0; i < n_in; i++)
		series_push(&e2e, in[i].start, in[i].latency);
	fprintf(out, "<p>End-to-end latency as the original CARET counts it by default: from "
		"the first node's publish on the first topic to the start of the last node's "
		"callback. %zu of %zu %s of the first node reached the end.</p>", n_in, n,
		caret_plural(n, "message", "messages"));
	int64_t deadline = path_deadline(r, p);
	deadline_text(r, p, deadline, in, n_in);
	size_t done = latency_table(out, p, in, n_in, labels, mean, resp, v, t, deadline);
	fputs("<div class='plots'><div class='tl'></div><div class='hist'></div></div>", out);
	if (split && !report_split_means(r, p->latency, split)) {
		free(split);
		split = NULL;
	}
	if (done)
		where_time_goes(r, labels, mean, h, split);
	if (n_in) {
		n_pick = pick_worst(in, n_in, v, pick, pick_text);
		for (size_t j = 0; j < n_pick; j++)
			pick_names[j] = pick_text[j];
		worst_table(r, p, labels, in, pick, pick_names, n_pick, hops, h);
		fputs("<div class='flows'></div>", out);
	}
	fputs("</div>", out);
	path_data(r, id, p, labels, in, n_in, pick, pick_names, n_pick, &e2e, resp, deadline);
out:
	for (size_t k = 0; labels && k < h; k++)
		free(labels[k]);
	free(labels);
	free(mean);
	free(split);
	free(in);
	free(v);
	free(t);
	series_free(&e2e);
	for (int c = 0; c < 4; c++)
		series_free(&resp[c]);
}

/* Whether a message of the path went all the way (the default span). */
static bool reaches_end(const ca_path_latency *l)
{
	const ca_path_message *m;
	const ca_path_span span = { false, false };
	size_t n = ca_path_latency_messages(l, &m, NULL);
	for (size_t i = 0; i < n; i++) {
		uint64_t start, end;
		if (ca_path_message_span(&m[i], span, &start, &end))
			return true;
	}
	return false;
}

/* The chain found that no message went all the way through (a publish
 * outside any callback run, topics of an action): said, not charted. */
static void chain_not_followed(FILE *out, const struct report_path *p)
{
	fputs("<p>The longest chain of nodes found:</p>", out);
	chain(out, p->path);
	fputs("<p>No message went all the way through it (the first node publishes outside "
		"any callback run the trace shows, or the last one never took a message). Name a "
		"path in an architecture file: caret report --arch FILE --path NAME.</p>", out);
}

int report_paths_section(struct report *r, const struct report_paths *ps)
{
	FILE *out = r->out;
	fputs("<section id='paths'><h2>Paths</h2><div class='metric-switch' "
		"data-section='paths'></div>", out);
	for (size_t i = 0; i < ps->n; i++)
		if (r->options->n_paths || !ps->p[i].latency || reaches_end(ps->p[i].latency))
			one_path(r, &ps->p[i]);
		else
			chain_not_followed(r->out, &ps->p[i]);
	if (!ps->n)
		fputs("<p>No chain of nodes linked by topics in this trace; name one in an "
			"architecture file (caret report --arch FILE --path NAME).</p>", out);
	fputs("</section>", out);
	return 0;
}
