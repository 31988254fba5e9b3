/*
 * sec_graph.c - the System graph: one box per node name, in columns along
 * the data flow (the longest chain of topics from a node without inputs),
 * its executor under its name, arrows labelled with topics. Drawn as SVG
 * here; it scales down to its box, long names are shortened with the full
 * name on hover, and a click on a node searches for it.
 */
#include <stdlib.h>
#include <string.h>

#include "path.h"
#include "report.h"
#include "vec.h"
#include "plural.h"

#define BOX_W 172
#define BOX_H 42
#define COLUMN_W 300 /* a gap of 128 between boxes for the topics' names */
#define ROW_H 64
#define NAME_CHARS 24
#define TOPIC_CHARS 19

struct graph_edge {
	size_t from, to;
	const char *topic;
};

/* Columns: the longest chain of edges reaching each box; n rounds bound
 * cycles. */
static void columns_of(int *depth, size_t n, const struct graph_edge *e, size_t n_edges)
{
	for (size_t round = 0; round < n; round++) {
		bool changed = false;
		for (size_t i = 0; i < n_edges; i++)
			if (depth[e[i].to] < depth[e[i].from] + 1 && depth[e[i].from] + 1 < (int)n) {
				depth[e[i].to] = depth[e[i].from] + 1;
				changed = true;
			}
		if (!changed)
			break;
	}
}

/* Where edge i's topic is written among the topics of its box: the
 * number of other topics the box's earlier edges carry, or -1 when an
 * earlier edge of the box carries the same topic (written once). */
static int label_slot(const struct graph_edge *e, size_t i)
{
	int slot = 0;
	for (size_t k = 0; k < i; k++) {
		if (e[k].from != e[i].from)
			continue;
		if (!strcmp(e[k].topic, e[i].topic))
			return -1;
		bool counted = false; /* the same topic on an even earlier edge */
		for (size_t j = 0; j < k && !counted; j++)
			counted = e[j].from == e[k].from && !strcmp(e[j].topic, e[k].topic);
		slot += !counted;
	}
	return slot;
}

static void draw(FILE *out, const char *const *names, const char *const *subs, size_t n,
	const struct graph_edge *e, size_t n_edges)
{
	int *depth = calloc(n + 1, sizeof *depth), *row = calloc(n + 1, sizeof *row);
	int *filled = calloc(n + 1, sizeof *filled), columns = 1, rows = 1;
	char a[256], b[256];
	if (!depth || !row || !filled)
		goto out;
	columns_of(depth, n, e, n_edges);
	for (size_t i = 0; i < n; i++) {
		row[i] = filled[depth[i]]++;
		columns = depth[i] + 1 > columns ? depth[i] + 1 : columns;
		rows = row[i] + 1 > rows ? row[i] + 1 : rows;
	}
	int w = (columns - 1) * COLUMN_W + BOX_W + 20, h = rows * ROW_H + 10;
	fprintf(out, "<svg class='graph' viewBox='0 0 %d %d' style='max-width:%dpx' role='img'>"
		"<title>system graph: nodes (executor below the name) linked by topics</title>"
		"<defs><marker id='arrow' viewBox='0 0 10 10' refX='10' refY='5' markerWidth='6' "
		"markerHeight='6' orient='auto'><path d='M0,0 L10,5 L0,10 z' fill='#667'/></marker>"
		"</defs>", w, h, w);
	for (size_t i = 0; i < n_edges; i++) {
		double x1 = 10 + depth[e[i].from] * COLUMN_W + BOX_W;
		double y1 = 10 + row[e[i].from] * ROW_H + BOX_H / 2.0;
		double x2 = 10 + depth[e[i].to] * COLUMN_W, y2 = 10 + row[e[i].to] * ROW_H + BOX_H / 2.0;
		if (x2 <= x1) { /* backwards (a cycle) or within a column: around below */
			double yb = 10 + rows * ROW_H - 4;
			fprintf(out, "<path class='edge' d='M%.0f,%.0f C%.0f,%.0f %.0f,%.0f %.0f,%.0f' "
				"marker-end='url(#arrow)'><title>", x1 - BOX_W / 2.0, y1 + BOX_H / 2.0,
				x1, yb, x2, yb, x2 + BOX_W / 2.0, y2 + BOX_H / 2.0);
		} else {
			fprintf(out, "<path class='edge' d='M%.0f,%.0f C%.0f,%.0f %.0f,%.0f %.0f,%.0f' "
				"marker-end='url(#arrow)'><title>", x1, y1, x1 + 40, y1, x2 - 40, y2, x2, y2);
		}
		report_text(out, e[i].topic);
		fputs("</title></path>", out);
		/* the topic's name once per publishing box, in the gap after it;
		 * a box's several topics one above the other */
		int slot = label_slot(e, i);
		if (slot < 0)
			continue;
		fprintf(out, "<text x='%.0f' y='%.0f' class='topic' text-anchor='middle'><title>",
			x1 + (COLUMN_W - BOX_W) / 2.0, y1 - 5 - 12.0 * slot);
		report_text(out, e[i].topic);
		fputs("</title>", out);
		report_text(out, report_short_name(e[i].topic, TOPIC_CHARS, a, sizeof a));
		fputs("</text>", out);
	}
	for (size_t i = 0; i < n; i++) {
		int x = 10 + depth[i] * COLUMN_W, y = 10 + row[i] * ROW_H;
		fputs("<g class='pt node' data-name='", out);
		report_text(out, names[i]);
		fputs("'><title>", out);
		report_text(out, names[i]);
		if (subs[i]) {
			fputs("\n", out);
			report_text(out, subs[i]);
		}
		fprintf(out, "</title><rect x='%d' y='%d' width='%d' height='%d' rx='6'/>"
			"<text x='%d' y='%d' class='name'>", x, y, BOX_W, BOX_H, x + 8, y + 17);
		report_text(out, report_short_name(names[i], NAME_CHARS, a, sizeof a));
		fprintf(out, "</text><text x='%d' y='%d' class='sub'>", x + 8, y + 33);
		report_text(out, subs[i] ? report_short_name(subs[i], NAME_CHARS + 4, b, sizeof b) : "");
		fputs("</text></g>", out);
	}
	fputs("</svg>", out);
out:
	free(depth);
	free(row);
	free(filled);
}

void report_graph_section(struct report *r)
{
	const ca_architecture *a = r->arch;
	const char **names = calloc(a->n_nodes + 1, sizeof *names);
	char **subs = calloc(a->n_nodes + 1, sizeof *subs);
	size_t *box = calloc(a->n_nodes + 1, sizeof *box);
	struct graph_edge *e = NULL;
	size_t n = 0, n_edges = 0, cap = 0, n_links = 0, executors = 0;
	struct ca_topic_link *links = ca_topic_links(a, &n_links);
	if (!names || !subs || !box || !links)
		goto out;
	for (size_t i = 0; i < a->n_nodes; i++) { /* one box per name */
		box[i] = CA_NONE;
		if (!report_shows_node(r, i))
			continue;
		size_t k = 0;
		while (k < n && strcmp(names[k], a->nodes[i].fqn))
			k++;
		box[i] = k;
		if (k < n)
			continue;
		names[n] = a->nodes[i].fqn;
		const ca_executor *x = report_executor_of_node(a, i);
		if (x && (subs[n] = malloc(strlen(x->name) + strlen(x->type ? x->type : "") + 8)))
			report_executor_label(x, subs[n]);
		n++;
	}
	for (size_t i = 0; i < a->n_executors; i++)
		executors += r->options->all || !a->executors[i].hidden;
	for (size_t i = 0; i < n_links; i++) {
		size_t from = box[links[i].from], to = box[links[i].to];
		if (from == CA_NONE || to == CA_NONE || from == to ||
		    !report_shows_topic(r, links[i].topic))
			continue;
		bool seen = false;
		for (size_t k = 0; k < n_edges && !seen; k++)
			seen = e[k].from == from && e[k].to == to && !strcmp(e[k].topic, links[i].topic);
		struct graph_edge *x = seen ? NULL : VEC_PUSH(e, n_edges, cap);
		if (x)
			*x = (struct graph_edge){ from, to, links[i].topic };
	}
	fprintf(r->out, "<section id='graph'><h2>System graph</h2><p>%zu %s, %zu topic %s, %zu "
		"%s. Click a node to search for it.</p>", n, caret_plural(n, "node", "nodes"), n_edges,
		caret_plural(n_edges, "link", "links"), executors,
		caret_plural(executors, "executor", "executors"));
	if (n)
		draw(r->out, names, (const char *const *)subs, n, e, n_edges);
	fputs("</section>", r->out);
out:
	for (size_t i = 0; subs && i < n; i++)
		free(subs[i]);
	free(subs);
	free(names);
	free(box);
	free(links);
	free(e);
}
