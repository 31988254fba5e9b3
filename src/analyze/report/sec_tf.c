/*
 * sec_tf.c - the tf section, when the trace has tf events: the transform
 * tree as broadcast and taken in (each edge, static or not, who broadcasts
 * it and how often), then per edge the latency from sendTransform to each
 * buffer's setTransform and the age of what lookups read (docs/latency.md).
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "report.h"

static void stats_row(FILE *out, const char *name, int64_t *v, size_t n)
{
	fputs("<tr><td>", out);
	report_text(out, name);
	fputs("</td>", out);
	report_stats_cells(out, v, n);
	fputs("</tr>", out);
}

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
void report_tf_section(struct report *rep)
{
	FILE *out = rep->out;
	const ca_trace *tr = rep->trace;
	const ca_records *r = rep->every;
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
		report_text(out, ca_trace_string(tr, e->frame));
		fputs(" → ", out);
		report_text(out, ca_trace_string(tr, e->child));
		fprintf(out, "</td><td>%s</td><td>", e->is_static ? "yes" : "no");
		if (e->pid >= 0)
			fprintf(out, "pid %" PRId64 " ", e->pid);
		report_text(out, cb != CA_NONE ? a->callbacks[cb].name : e->sends ? "(no callback)" :
			"(not in the trace)");
		fprintf(out, "</td><td>%" PRIu64 "</td><td>%.1f</td></tr>", e->sends,
			e->sends > 1 && e->last > e->first ?
			(double)(e->sends - 1) * 1e9 / (double)(e->last - e->first) : 0.0);
	}
	fputs("</table>", out);
	report_stats_head(out, "edge", NULL);
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
			stats_row(out, name, v, k);
		k = 0;
		for (size_t j = 0; j < n_uses; j++) {
			const ca_tf_set *s = &sets[uses[j].set];
			if (s->frame == edges[i].frame && s->child == edges[i].child && s->send != CA_NONE)
				v[k++] = (int64_t)(lookups[uses[j].lookup].time - sends[s->send].time);
		}
		snprintf(name, sizeof name, "%s → %s: age at lookup", ca_trace_string(tr,
			edges[i].frame), ca_trace_string(tr, edges[i].child));
		if (k)
			stats_row(out, name, v, k);
	}
	fputs("</tbody></table></section>", out);
out:
	free(edges);
	free(v);
	ca_tf_free(tf);
}

