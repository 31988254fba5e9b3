/*
 * html.c - the HTML report: one self-contained file (inline CSS and SVG,
 * no script, nothing fetched) with the check's findings, the system graph,
 * callback and communication latencies, and each path's end-to-end
 * latency, per-hop breakdown and message flow. docs/dev/README.md says why
 * SVG written here rather than a charting library.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "path.h"
#include "records.h"
#include "svg.h"
#include "vec.h"

static const char style[] =
	"body{font-family:sans-serif;margin:24px;max-width:1500px;color:#222}"
	"h1{margin-bottom:4px}h2{border-bottom:1px solid #ccc;padding-bottom:4px;margin-top:36px}"
	"table{border-collapse:collapse;margin:8px 0}td,th{padding:3px 10px;text-align:right;"
	"border-bottom:1px solid #eee}td:first-child,th:first-child{text-align:left}"
	".chart{margin:6px 12px 6px 0;background:#fafafa;border:1px solid #eee}"
	".axis{stroke:#444}.tick{font-size:10px;fill:#444}.label{font-size:11px;fill:#222}"
	".lane{stroke:#ddd}.msg{stroke-width:1.5}.edge{fill:none;stroke:#888}"
	".node rect{fill:#eef3fa;stroke:#4e79a7}.name{font-size:11px;font-weight:bold}"
	".error{color:#b00}.warning{color:#a60}.info{color:#555}.charts{display:flex;flex-wrap:wrap}";

static void stats_row(FILE *out, const char *name, int64_t *v, size_t n, const char *extra)
{
	ca_stats s;
	ca_stats_of(v, n, CA_PERCENTILE_LINEAR, &s);
	fputs("<tr><td>", out);
	ca_html_text(out, name);
	fprintf(out, "</td><td>%" PRIu64 "</td><td>%.3f</td><td>%.3f</td><td>%.3f</td><td>%.3f"
		"</td><td>%.3f</td><td>%s</td></tr>", s.count, s.min / 1e6, s.mean / 1e6, s.p50 / 1e6,
		s.p99 / 1e6, s.max / 1e6, extra ? extra : "");
}

static void stats_head(FILE *out, const char *first, const char *extra)
{
	fprintf(out, "<table><tr><th>%s</th><th>count</th><th>min ms</th><th>mean ms</th>"
		"<th>p50 ms</th><th>p99 ms</th><th>max ms</th><th>%s</th></tr>", first, extra);
}

/* ---- sections ----------------------------------------------------------- */

static void check_section(FILE *out, const ca_trace *t)
{
	const ca_finding *f;
	size_t n = ca_trace_findings(t, &f), errors = 0;
	static const char *const names[] = { "info", "warning", "error" };
	fputs("<section id='check'><h2>Check</h2><ul>", out);
	for (size_t i = 0; i < n; i++) {
		errors += f[i].severity == CA_ERROR;
		fprintf(out, "<li class='%s'>%s", names[f[i].severity], names[f[i].severity]);
		if (f[i].pid >= 0)
			fprintf(out, " (pid %" PRId64 ")", f[i].pid);
		fputs(": ", out);
		ca_html_text(out, f[i].text);
		fputs("</li>", out);
	}
	fprintf(out, "</ul><p>%s</p></section>", errors ? "<b class='error'>Latencies from this "
		"trace would be wrong or incomplete (see the errors).</b>" : "No error: the trace "
		"can give correct latencies.");
}

static const char *executor_of(const ca_architecture *a, size_t node)
{
	for (size_t g = 0; g < a->n_groups; g++)
		if (a->groups[g].node == node && a->groups[g].executor != CA_NONE)
			return a->executors[a->groups[g].executor].name;
	return NULL;
}

static void graph_section(FILE *out, const ca_architecture *a)
{
	const char **names = calloc(a->n_nodes + 1, sizeof *names);
	char **subs = calloc(a->n_nodes + 1, sizeof *subs);
	struct ca_graph_edge *e = NULL;
	size_t n = 0, n_edges = 0, cap = 0;
	size_t *index = calloc(a->n_nodes + 1, sizeof *index);
	if (!names || !subs || !index)
		goto out;
	for (size_t i = 0; i < a->n_nodes; i++) { /* one box per name */
		size_t k = 0;
		while (k < n && strcmp(names[k], a->nodes[i].fqn))
			k++;
		index[i] = k;
		if (k < n)
			continue;
		names[n] = a->nodes[i].fqn;
		const char *x = executor_of(a, i);
		size_t len = x ? strlen(x) + 64 : 0;
		if (x && (subs[n] = malloc(len))) {
			for (size_t e2 = 0; e2 < a->n_executors; e2++)
				if (a->executors[e2].name == x)
					snprintf(subs[n], len, "%s (%s)", x, a->executors[e2].type);
		}
		n++;
	}
	size_t n_links = 0;
	struct ca_topic_link *links = ca_topic_links(a, &n_links);
	for (size_t i = 0; links && i < n_links; i++) {
		size_t from = index[links[i].from], to = index[links[i].to];
		bool seen = from == to;
		for (size_t k = 0; k < n_edges && !seen; k++)
			seen = e[k].from == from && e[k].to == to && !strcmp(e[k].label, links[i].topic);
		struct ca_graph_edge *x = seen ? NULL : VEC_PUSH(e, n_edges, cap);
		if (x)
			*x = (struct ca_graph_edge){ from, to, links[i].topic };
	}
	free(links);
	fprintf(out, "<section id='graph'><h2>System graph</h2><p>%zu nodes, %zu topic links, "
		"%zu executors (topics every node has, such as /parameter_events and /rosout, are "
		"left out).</p>", n, n_edges, a->n_executors);
	ca_svg_graph(out, names, (const char *const *)subs, n, e, n_edges);
	fputs("</section>", out);
out:
	for (size_t i = 0; subs && i < n; i++)
		free(subs[i]);
	free(subs);
	free(names);
	free(index);
	free(e);
}

#define MAX_CHARTED 40 /* callbacks or topics with charts; the rest in tables */

static void callbacks_section(FILE *out, const ca_architecture *a, const ca_records *r,
	uint64_t t0)
{
	const ca_callback_instance *runs;
	size_t n = ca_records_callbacks(r, &runs), charted = 0;
	int64_t *v = malloc((n + 1) * sizeof *v);
	uint64_t *t = malloc((n + 1) * sizeof *t);
	if (!v || !t)
		goto out;
	fputs("<section id='callbacks'><h2>Callbacks</h2><p>Callback latency: "
		"callback_end − callback_start of each run.</p>", out);
	stats_head(out, "callback", "not ended");
	for (size_t i = 0; i < n;) { /* runs are sorted by callback */
		size_t j = i, k = 0, open = 0;
		for (; j < n && runs[j].callback == runs[i].callback; j++)
			if (runs[j].end)
				v[k++] = (int64_t)(runs[j].end - runs[j].start);
			else
				open++;
		char extra[32];
		snprintf(extra, sizeof extra, "%zu", open);
		if (runs[i].callback != CA_NONE)
			stats_row(out, a->callbacks[runs[i].callback].name, v, k, extra);
		i = j;
	}
	fputs("</table>", out);
	for (size_t i = 0; i < n && charted < MAX_CHARTED;) {
		size_t j = i, k = 0;
		for (; j < n && runs[j].callback == runs[i].callback; j++)
			if (runs[j].end) {
				t[k] = runs[j].start;
				v[k++] = (int64_t)(runs[j].end - runs[j].start);
			}
		if (runs[i].callback != CA_NONE && k) {
			fputs("<h3>", out);
			ca_html_text(out, a->callbacks[runs[i].callback].name);
			fputs("</h3><div class='charts'>", out);
			ca_svg_timeline(out, t, v, k, t0, "callback latency");
			ca_svg_histogram(out, v, k, "callback latency");
			fputs("</div>", out);
			charted++;
		}
		i = j;
	}
	if (charted == MAX_CHARTED)
		fprintf(out, "<p>Charts for the first %d callbacks; the table has them all.</p>",
			MAX_CHARTED);
	fputs("</section>", out);
out:
	free(v);
	free(t);
}

static void topics_section(FILE *out, const ca_trace *tr, const ca_records *r, uint64_t t0)
{
	const ca_communication *c;
	const ca_callback_instance *runs;
	const ca_publish_instance *pubs;
	const ca_topic_count *topics;
	size_t n = ca_records_communications(r, &c), n_topics = ca_trace_topic_counts(tr, &topics);
	size_t charted = 0;
	ca_records_callbacks(r, &runs);
	ca_records_publishes(r, &pubs);
	int64_t *v = malloc((n + 1) * sizeof *v);
	uint64_t *t = malloc((n + 1) * sizeof *t);
	size_t *messages = malloc((n + 1) * sizeof *messages);
	if (!v || !t || !messages)
		goto out;
	fputs("<section id='topics'><h2>Communication</h2><p>Communication latency: the "
		"subscriber's callback_start − rclcpp_publish of each message, inter- and "
		"intra-process apart.</p>", out);
	for (int pass = 0; pass < 2; pass++) {
		if (!pass)
			stats_head(out, "topic", "not received");
		for (size_t k = 0; k < n_topics; k++)
			for (int intra = 0; intra < 2; intra++) {
				size_t m = ca_records_topic_messages(r, topics[k].topic, intra, messages,
					NULL);
				if (!m)
					continue;
				for (size_t i = 0; i < m; i++) {
					const ca_communication *x = &c[messages[i]];
					t[i] = runs[x->callback_instance].start;
					v[i] = (int64_t)(t[i] - ca_publish_time(&pubs[x->publish]));
				}
				char name[600], extra[32];
				snprintf(name, sizeof name, "%s (%s)", topics[k].topic,
					intra ? "intra-process" : "inter-process");
				snprintf(extra, sizeof extra, "%" PRIu64,
					ca_records_topic_not_received(r, topics[k].topic, intra));
				if (!pass) {
					stats_row(out, name, v, m, extra);
				} else if (charted++ < MAX_CHARTED) {
					fputs("<h3>", out);
					ca_html_text(out, name);
					fputs("</h3><div class='charts'>", out);
					ca_svg_timeline(out, t, v, m, t0, "communication latency");
					ca_svg_histogram(out, v, m, "communication latency");
					fputs("</div>", out);
				}
			}
		if (!pass)
			fputs("</table>", out);
	}
	fputs("</section>", out);
out:
	free(v);
	free(t);
	free(messages);
}

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

static void path_section(FILE *out, const ca_records *r, const ca_path *p, const char *title,
	ca_node_policy policy, uint64_t t0)
{
	char err[512];
	ca_path_latency *l = ca_path_latency_build(r, p, policy, err, sizeof err);
	fputs("<h3>", out);
	ca_html_text(out, title);
	fputs("</h3><p>", out);
	for (size_t i = 0; i < p->node_count; i++) {
		if (i) {
			fputs(" → [", out);
			ca_html_text(out, p->topics[i - 1]);
			fputs("] → ", out);
		}
		ca_html_text(out, p->nodes[i]);
	}
	fputs("</p>", out);
	if (!l) {
		fputs("<p class='error'>", out);
		ca_html_text(out, err);
		fputs("</p>", out);
		return;
	}
	const ca_path_message *m;
	const int64_t *hops;
	size_t n = ca_path_latency_messages(l, &m, &hops);
	size_t h = ca_path_latency_hop_count(l);
	const ca_path_span span = { false, false }, whole = { true, true };
	int64_t *v = malloc((n + 1) * sizeof *v), *done_hops = malloc((n * h + 1) * sizeof *v);
	uint64_t *t = malloc((n + 1) * sizeof *t);
	double *mean = calloc(h + 1, sizeof *mean);
	char **labels = calloc(h + 1, sizeof *labels);
	if (v && done_hops && t && mean && labels) {
		fprintf(out, "<p>End-to-end latency, as the original CARET counts it by default: from "
			"the first node's publish on the first topic to the start of the last node's "
			"callback; %" PRIu64 " of %zu messages of the first node did not reach it. "
			"Response time per case as in docs/latency.md.</p>", ca_path_latency_lost(l, span),
			n);
		stats_head(out, "hop", "");
		stats_row(out, "end to end", v, ca_path_latencies(l, span, NULL, v), NULL);
		static const char *const cases[] = { "response time (all)", "response time (best)",
			"response time (worst)", "response time (worst-with-external-latency)" };
		for (int c = CA_RESPONSE_ALL; c <= CA_RESPONSE_WORST_WITH_EXTERNAL_LATENCY; c++) {
			size_t r_n = ca_path_response_times(l, span, (ca_response_case)c, t, v);
			stats_row(out, cases[c], v, r_n == (size_t)-1 ? 0 : r_n, NULL);
		}
		/* The breakdown and the flow: the messages that went all the way,
		 * both callbacks included. */
		size_t done = 0;
		for (size_t i = 0; i < n; i++) {
			uint64_t start, end;
			if (!ca_path_message_span(&m[i], whole, &start, &end))
				continue;
			t[done] = start;
			memcpy(&done_hops[done * h], &hops[i * h], h * sizeof *hops);
			done++;
		}
		for (size_t k = 0; k < h; k++) {
			labels[k] = malloc(600);
			if (!labels[k])
				break;
			hop_label(p, k, labels[k], 600);
			for (size_t i = 0; i < done; i++) {
				v[i] = done_hops[i * h + k];
				mean[k] += (double)v[i] / (double)done;
			}
			if (ca_path_hop_in_span(k, h, span))
				stats_row(out, labels[k], v, done, NULL);
		}
		fputs("</table><div class='charts'>", out);
		uint64_t *at = malloc((n + 1) * sizeof *at);
		size_t k = at ? ca_path_latencies(l, span, at, v) : 0;
		if (at)
			ca_svg_timeline(out, at, v, k, t0, "end-to-end latency");
		ca_svg_histogram(out, v, k, "end-to-end latency");
		free(at);
		fputs("</div>", out);
		bool labelled = true;
		for (size_t k = 0; k < h; k++)
			labelled = labelled && labels[k];
		if (labelled) {
			fputs("<p>Where the time goes, both callbacks included, over the messages that "
				"reached the end:</p>", out);
			ca_svg_stacked(out, (const char *const *)labels, mean, h);
			fputs("<p>The first messages along the path, each in its own slot: a bar while a "
				"node works on it, an arrow while it travels.</p>", out);
			ca_svg_flow(out, p->nodes, p->node_count, t, done_hops, done < 5 ? done : 5);
		}
	}
	free(t);
	free(done_hops);
	for (size_t k = 0; labels && k < h; k++)
		free(labels[k]);
	free(labels);
	free(mean);
	free(v);
	ca_path_latency_free(l);
}

/* ---- tf ------------------------------------------------------------------- */

/* The edges of the tf tree, each once (frame and child as string ids). */
struct tf_edge {
	uint64_t frame, child;
	bool is_static;
	uint64_t sends, first, last; /* first and last send times */
	int64_t pid;                 /* the broadcasting process (the first seen) */
	size_t run;                  /* a run it was sent in, for its callback */
};

static size_t tf_edge_of(struct tf_edge *e, size_t *n, uint64_t frame, uint64_t child)
{
	for (size_t i = 0; i < *n; i++)
		if (e[i].frame == frame && e[i].child == child)
			return i;
	e[*n] = (struct tf_edge){ frame, child, false, 0, 0, 0, -1, CA_NONE };
	return (*n)++;
}

/* The tf tree (frames, broadcasters, rates), then per edge the latency from
 * broadcast to each buffer and the age of what lookups read. */
static void tf_section(FILE *out, const ca_trace *tr, const ca_records *r)
{
	char err[128];
	ca_tf *tf = ca_tf_build(tr, r, err, sizeof err);
	const ca_tf_send *sends;
	const ca_tf_set *sets;
	const ca_tf_lookup *lookups;
	const ca_tf_use *uses;
	size_t n_sends = ca_tf_sends(tf, &sends), n_sets = ca_tf_sets(tf, &sets);
	size_t n_uses = ca_tf_uses(tf, &uses), n_edges = 0;
	ca_tf_lookups(tf, &lookups);
	struct tf_edge *edges = calloc(n_sends + n_sets + 1, sizeof *edges);
	int64_t *v = malloc((n_sets + n_uses + 1) * sizeof *v);
	const ca_callback_instance *runs;
	const ca_architecture *a = ca_trace_architecture(tr);
	ca_records_callbacks(r, &runs);
	if (!tf || !edges || !v || (!n_sends && !n_sets))
		goto out;
	for (size_t i = 0; i < n_sends; i++) {
		struct tf_edge *e = &edges[tf_edge_of(edges, &n_edges, sends[i].frame, sends[i].child)];
		e->is_static = sends[i].is_static;
		e->first = e->sends++ ? e->first : sends[i].time;
		e->last = sends[i].time;
		if (e->pid < 0)
			e->pid = sends[i].pid;
		if (e->run == CA_NONE)
			e->run = sends[i].run;
	}
	for (size_t i = 0; i < n_sets; i++)
		edges[tf_edge_of(edges, &n_edges, sets[i].frame, sets[i].child)].is_static |=
			sets[i].is_static;
	fputs("<section id='tf'><h2>tf</h2><p>The transform tree as broadcast and taken in "
		"(docs/latency.md, \"tf\"): per edge, who broadcasts it and how often, the "
		"latency from sendTransform to each buffer's setTransform, and the age of the "
		"transform a lookup read, since its broadcast.</p><table><tr><th>edge</th>"
		"<th>static</th><th>broadcast by</th><th>sent</th><th>rate Hz</th></tr>", out);
	for (size_t i = 0; i < n_edges; i++) {
		const struct tf_edge *e = &edges[i];
		size_t cb = e->run == CA_NONE ? CA_NONE : runs[e->run].callback;
		fputs("<tr><td>", out);
		ca_html_text(out, ca_trace_string(tr, e->frame));
		fputs(" → ", out);
		ca_html_text(out, ca_trace_string(tr, e->child));
		fprintf(out, "</td><td>%s</td><td>", e->is_static ? "yes" : "no");
		if (e->pid >= 0)
			fprintf(out, "pid %" PRId64 " ", e->pid);
		ca_html_text(out, cb != CA_NONE ? a->callbacks[cb].name : e->sends ? "(no callback)" :
			"(not in the trace)");
		fprintf(out, "</td><td>%" PRIu64 "</td><td>%.1f</td></tr>", e->sends,
			e->sends > 1 && e->last > e->first ?
			(double)(e->sends - 1) * 1e9 / (double)(e->last - e->first) : 0.0);
	}
	fputs("</table>", out);
	stats_head(out, "edge", "");
	for (size_t i = 0; i < n_edges; i++) {
		char name[600];
		size_t k = 0;
		for (size_t j = 0; j < n_sets; j++)
			if (sets[j].frame == edges[i].frame && sets[j].child == edges[i].child &&
			    sets[j].send != CA_NONE)
				v[k++] = (int64_t)(sets[j].time - sends[sets[j].send].time);
		snprintf(name, sizeof name, "%s → %s: broadcast → set", ca_trace_string(tr,
			edges[i].frame), ca_trace_string(tr, edges[i].child));
		if (k)
			stats_row(out, name, v, k, NULL);
		k = 0;
		for (size_t j = 0; j < n_uses; j++) {
			const ca_tf_set *s = &sets[uses[j].set];
			if (s->frame == edges[i].frame && s->child == edges[i].child && s->send != CA_NONE)
				v[k++] = (int64_t)(lookups[uses[j].lookup].time - sends[s->send].time);
		}
		snprintf(name, sizeof name, "%s → %s: age at lookup", ca_trace_string(tr,
			edges[i].frame), ca_trace_string(tr, edges[i].child));
		if (k)
			stats_row(out, name, v, k, NULL);
	}
	fputs("</table></section>", out);
out:
	free(edges);
	free(v);
	ca_tf_free(tf);
}

/* What the latencies below rest on (ca_records_caveat), under the check. */
static void caveats(FILE *out, const ca_records *r)
{
	char note[512];
	for (size_t i = 0; ca_records_caveat(r, i, note, sizeof note); i++) {
		fputs("<p class='warning'>Note: ", out);
		ca_html_text(out, note);
		fputs(".</p>", out);
	}
}

/* The longest chain in the graph (by nodes), from a node that no topic
 * reaches: the path shown when none is named. */
static ca_path_set *longest_path(const ca_trace *t, const ca_records *r,
	const ca_architecture *a)
{
	size_t n = a->n_nodes;
	struct ca_tf_links tf = { 0 }; /* chains go through tf too */
	size_t *depth = calloc(n + 1, sizeof *depth), *prev = malloc((n + 1) * sizeof *prev);
	const char **via = calloc(n + 1, sizeof *via);
	ca_path_set *set = NULL;
	if (!depth || !prev || !via)
		goto out;
	for (size_t i = 0; i < n; i++)
		prev[i] = CA_NONE;
	size_t n_links = 0;
	struct ca_topic_link *links = ca_topic_links(a, &n_links);
	if (!links || ca_tf_links_of(t, r, &tf)) {
		free(links);
		goto out;
	}
	for (size_t round = 0; round < n; round++) {
		bool changed = false;
		for (size_t i = 0; i < n_links + tf.n; i++) {
			const struct ca_topic_link *l = i < n_links ? &links[i] : &tf.links[i - n_links];
			size_t from = l->from, to = l->to;
			if (depth[to] >= depth[from] + 1 || depth[from] + 1 >= n)
				continue;
			depth[to] = depth[from] + 1;
			prev[to] = from;
			via[to] = l->topic;
			changed = true;
		}
		if (!changed)
			break;
	}
	free(links);
	size_t end = 0;
	for (size_t i = 1; i < n; i++)
		end = depth[i] > depth[end] ? i : end;
	if (!n || !depth[end])
		goto out;
	size_t count = depth[end] + 1;
	const char **nodes = calloc(count, sizeof *nodes), **topics = calloc(count, sizeof *topics);
	if (!nodes || !topics) {
		free(nodes);
		free(topics);
		goto out;
	}
	for (size_t i = count, x = end; i-- > 0; x = prev[x]) {
		nodes[i] = a->nodes[x].fqn;
		if (i)
			topics[i - 1] = via[x];
	}
	set = ca_path_set_of(nodes, topics, NULL, count, false);
	if (set && ca_path_set_adopt(set, &tf)) {
		ca_path_set_free(set);
		set = NULL;
	}
out:
	ca_tf_links_free(&tf);
	free(depth);
	free(prev);
	free(via);
	return set;
}

int ca_report_write_html(const ca_trace *t, const ca_records *r, const char *arch_file,
	const char *const *path_names, size_t n_paths, FILE *out, char *err, size_t err_size)
{
	const ca_architecture *a = ca_trace_architecture(t);
	uint64_t t0 = UINT64_MAX, t1 = 0;
	for (size_t i = 0; i < a->n_processes; i++) {
		uint64_t first, last;
		if (ca_trace_process_window(t, a->processes[i].pid, &first, &last)) {
			t0 = first < t0 ? first : t0;
			t1 = last > t1 ? last : t1;
		}
	}
	if (t0 == UINT64_MAX)
		t0 = 0;
	fprintf(out, "<!DOCTYPE html>\n<html lang='en'><head><meta charset='utf-8'>"
		"<title>caret report</title><style>%s</style></head><body>"
		"<h1>caret report</h1><p>%" PRIu64 " events (%" PRIu64 " discarded), %zu processes, "
		"%.1f s recorded.</p>", style, ca_trace_event_count(t), ca_trace_discarded(t),
		a->n_processes, t1 > t0 ? (double)(t1 - t0) / 1e9 : 0.0);
	check_section(out, t);
	caveats(out, r);
	graph_section(out, a);
	callbacks_section(out, a, r, t0);
	topics_section(out, t, r, t0);
	tf_section(out, t, r);
	fputs("<section id='paths'><h2>Paths</h2>", out);
	if (arch_file) {
		for (size_t i = 0; i < n_paths; i++) {
			ca_path_set *set = ca_arch_file_path(arch_file, path_names[i], err, err_size);
			const ca_path *p;
			if (!set)
				return -1;
			ca_path_set_paths(set, &p);
			path_section(out, r, p, path_names[i], CA_POLICY_USE_LATEST_MESSAGE, t0);
			ca_path_set_free(set);
		}
	} else {
		ca_path_set *set = longest_path(t, r, a);
		const ca_path *p;
		if (ca_path_set_paths(set, &p))
			path_section(out, r, p, "the longest chain found (no path named)",
				CA_POLICY_USE_LATEST_MESSAGE, t0);
		else
			fputs("<p>No chain of nodes linked by topics in this trace.</p>", out);
		ca_path_set_free(set);
	}
	fputs("</section><p class='info'>Definitions: docs/latency.md of caret-c. Times are the "
		"trace clock.</p></body></html>\n", out);
	if (ferror(out)) {
		snprintf(err, err_size, "cannot write the report");
		return -1;
	}
	return 0;
}
