/*
 * sec_graph.c - the System graph: one box per node name, in columns along
 * the data flow (the longest chain of topics and service calls from a node
 * without inputs), its executor under its name, arrows labelled with
 * topics, dashed arrows from a service's clients to its server labelled
 * with the service. The nodes of one process sit in one band named by the
 * process (and its host, when the trace has several). Drawn as SVG here;
 * it scales down to its box, long names are shortened with the full name
 * on hover, and a click on a node searches for it.
 */
#define _GNU_SOURCE /* qsort_r */
#include <inttypes.h>
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
#define BAND_HEAD 18 /* the process's name above its nodes */
#define BAND_GAP 8

struct graph_edge {
	size_t from, to;
	const char *topic; /* or the service's name */
	bool service;
	int action;        /* an action's service: the length of the action's name */
};

/* Two edges labelled alike: the same topic, service or action. */
static bool same_label(const struct graph_edge *a, const struct graph_edge *b)
{
	if (a->service != b->service || a->action != b->action)
		return false;
	return a->action ? !strncmp(a->topic, b->topic, (size_t)a->action) :
		!strcmp(a->topic, b->topic);
}

/* The edge's label: the topic, the service, or "ACTION (action)". */
static const char *edge_label(const struct graph_edge *e, char *buf, size_t size)
{
	if (!e->action)
		return e->topic;
	snprintf(buf, size, "%.*s (action)", e->action, e->topic);
	return buf;
}

/* The bands: a process each (the first process of a box's name), in the
 * order of their hosts, then of the processes. */
struct bands {
	size_t *of_box;   /* box -> band */
	size_t *process;  /* band -> process index */
	size_t n;
	bool hosts;       /* the trace has several: bands say theirs */
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
		if (same_label(&e[k], &e[i]))
			return -1;
		bool counted = false; /* the same topic on an even earlier edge */
		for (size_t j = 0; j < k && !counted; j++)
			counted = e[j].from == e[k].from && same_label(&e[j], &e[k]);
		slot += !counted;
	}
	return slot;
}

/* Where each box goes: its column (depth), its band, its row in the band;
 * each band's first y. */
struct layout {
	int *depth, *row, *band_y;
	int columns, width, height;
};

static bool layout_of(struct layout *l, size_t n, const struct graph_edge *e, size_t n_edges,
	const struct bands *b)
{
	int *rows = calloc(b->n + 1, sizeof *rows);
	l->depth = calloc(n + 1, sizeof *l->depth);
	l->row = calloc(n + 1, sizeof *l->row);
	l->band_y = calloc(b->n + 1, sizeof *l->band_y);
	int *filled = calloc((n + 1) * (b->n + 1), sizeof *filled); /* band x column */
	bool ok = rows && l->depth && l->row && l->band_y && filled;
	if (ok) {
		columns_of(l->depth, n, e, n_edges);
		l->columns = 1;
		for (size_t i = 0; i < n; i++) {
			size_t band = b->of_box[i];
			l->row[i] = filled[band * (n + 1) + (size_t)l->depth[i]]++;
			rows[band] = l->row[i] + 1 > rows[band] ? l->row[i] + 1 : rows[band];
			l->columns = l->depth[i] + 1 > l->columns ? l->depth[i] + 1 : l->columns;
		}
		int y = 10;
		for (size_t k = 0; k < b->n; k++) {
			l->band_y[k] = y;
			y += BAND_HEAD + rows[k] * ROW_H + BAND_GAP;
		}
		l->width = (l->columns - 1) * COLUMN_W + BOX_W + 28;
		l->height = y + 6;
	}
	free(rows);
	free(filled);
	return ok;
}

static void layout_free(struct layout *l)
{
	free(l->depth);
	free(l->row);
	free(l->band_y);
}

static int box_x(const struct layout *l, size_t i)
{
	return 14 + l->depth[i] * COLUMN_W;
}

static int box_y(const struct layout *l, const struct bands *b, size_t i)
{
	return l->band_y[b->of_box[i]] + BAND_HEAD + l->row[i] * ROW_H;
}

static void draw_bands(FILE *out, const ca_architecture *a, const struct bands *b,
	const struct layout *l)
{
	for (size_t k = 0; k < b->n; k++) {
		const ca_process *p = &a->processes[b->process[k]];
		int y = l->band_y[k], h = (k + 1 < b->n ? l->band_y[k + 1] : l->height - 6) - y -
			BAND_GAP;
		char label[1100];
		snprintf(label, sizeof label, "%s%s%s (pid %" PRId64 ")", b->hosts && p->host ?
			p->host : "", b->hosts && p->host ? " · " : "", p->procname ? p->procname : "?",
			p->pid);
		fprintf(out, "<g class='process'><rect x='4' y='%d' width='%d' height='%d' rx='8'/>"
			"<text x='12' y='%d' class='band'>", y, l->width - 8, h, y + 13);
		report_text(out, label);
		fputs("</text></g>", out);
	}
}

static void draw_edge(FILE *out, const struct graph_edge *e, size_t i,
	const struct layout *l, const struct bands *b)
{
	char a[256], name[600];
	const char *label = edge_label(&e[i], name, sizeof name);
	double x1 = box_x(l, e[i].from) + BOX_W, y1 = box_y(l, b, e[i].from) + BOX_H / 2.0;
	double x2 = box_x(l, e[i].to), y2 = box_y(l, b, e[i].to) + BOX_H / 2.0;
	double lx = x1 + (COLUMN_W - BOX_W) / 2.0, ly = y1 - 5;
	const char *cls = e[i].service ? "edge service" : "edge";
	if (x2 <= x1) { /* backwards (a cycle) or within a column: around below */
		double yb = l->height - 4;
		fprintf(out, "<path class='%s' d='M%.0f,%.0f C%.0f,%.0f %.0f,%.0f %.0f,%.0f' "
			"marker-end='url(#arrow)'><title>", cls, x1 - BOX_W / 2.0, y1 + BOX_H / 2.0,
			x1, yb, x2, yb, x2 + BOX_W / 2.0, y2 + BOX_H / 2.0);
		/* the name where the curve runs low, between the two boxes */
		lx = (x1 - BOX_W / 2.0 + x2 + BOX_W / 2.0) / 2.0;
		ly = yb - 12;
	} else {
		fprintf(out, "<path class='%s' d='M%.0f,%.0f C%.0f,%.0f %.0f,%.0f %.0f,%.0f' "
			"marker-end='url(#arrow)'><title>", cls, x1, y1, x1 + 40, y1, x2 - 40, y2, x2, y2);
	}
	fputs(e[i].service && !e[i].action ? "service " : "", out);
	report_text(out, label);
	fputs("</title></path>", out);
	/* the name once per box that sends, in the gap after it (under the
	 * curve of a backward edge); a box's several names one above the other */
	int slot = label_slot(e, i);
	if (slot < 0)
		return;
	fprintf(out, "<text x='%.0f' y='%.0f' class='%s' text-anchor='middle'><title>", lx,
		ly - 12.0 * slot, e[i].service ? "topic service" : "topic");
	fputs(e[i].service && !e[i].action ? "service " : "", out);
	report_text(out, label);
	fputs("</title>", out);
	report_text(out, report_short_name(label, TOPIC_CHARS, a, sizeof a));
	fputs("</text>", out);
}

static void draw(FILE *out, const ca_architecture *arch, const char *const *names,
	const char *const *subs, size_t n, const struct graph_edge *e, size_t n_edges,
	const struct bands *b)
{
	struct layout l = { 0 };
	char a[256], s[256];
	if (!layout_of(&l, n, e, n_edges, b))
		goto out;
	fprintf(out, "<svg class='graph' viewBox='0 0 %d %d' style='max-width:%dpx' role='img'>"
		"<title>system graph: nodes (executor below the name) in their processes, linked "
		"by topics and by service calls (dashed, client to server)</title>"
		"<defs><marker id='arrow' viewBox='0 0 10 10' refX='10' refY='5' markerWidth='6' "
		"markerHeight='6' orient='auto'><path d='M0,0 L10,5 L0,10 z' fill='#667'/></marker>"
		"</defs>", l.width, l.height, l.width);
	draw_bands(out, arch, b, &l);
	for (size_t i = 0; i < n_edges; i++)
		draw_edge(out, e, i, &l, b);
	for (size_t i = 0; i < n; i++) {
		int x = box_x(&l, i), y = box_y(&l, b, i);
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
		report_text(out, subs[i] ? report_short_name(subs[i], NAME_CHARS + 4, s, sizeof s) : "");
		fputs("</text></g>", out);
	}
	fputs("</svg>", out);
out:
	layout_free(&l);
}

/* An edge, once. */
static void add_edge(struct graph_edge **e, size_t *n, size_t *cap, struct graph_edge edge)
{
	if (edge.from == CA_NONE || edge.to == CA_NONE || edge.from == edge.to)
		return;
	for (size_t k = 0; k < *n; k++)
		if ((*e)[k].from == edge.from && (*e)[k].to == edge.to && same_label(&(*e)[k], &edge))
			return;
	struct graph_edge *x = VEC_PUSH(*e, *n, *cap);
	if (x)
		*x = edge;
}

/* Client -> server, for each service the user's clients call. */
static void service_edges(const struct report *r, const size_t *box, struct graph_edge **e,
	size_t *n, size_t *cap)
{
	const ca_architecture *a = r->arch;
	for (size_t c = 0; c < a->n_clients; c++) {
		if (!report_shows_client(r, c) || a->clients[c].node == CA_NONE)
			continue;
		/* an action's services (ACTION/_action/...) are one edge, the action */
		const char *name = a->clients[c].name, *action = strstr(name, "/_action/");
		for (size_t s = 0; s < a->n_services; s++)
			if (report_shows_service(r, s) && a->services[s].node != CA_NONE &&
			    !strcmp(a->services[s].name, name))
				add_edge(e, n, cap, (struct graph_edge){ box[a->clients[c].node],
					box[a->services[s].node], name, true,
					action ? (int)(action - name) : 0 });
	}
}

static int by_host_then_pid(const void *x, const void *y, void *arch)
{
	const ca_architecture *a = arch;
	const ca_process *p = &a->processes[*(const size_t *)x];
	const ca_process *q = &a->processes[*(const size_t *)y];
	int c = strcmp(p->host ? p->host : "", q->host ? q->host : "");
	return c ? c : (p->pid > q->pid) - (p->pid < q->pid);
}

/* The band of each box (pid of its first node: box_pid). */
static bool bands_of(struct bands *b, const ca_architecture *a, const int64_t *box_pid,
	size_t n)
{
	b->of_box = calloc(n + 1, sizeof *b->of_box);
	b->process = calloc(a->n_processes + 1, sizeof *b->process);
	if (!b->of_box || !b->process)
		return false;
	for (size_t p = 0; p < a->n_processes; p++) {
		bool used = false;
		for (size_t i = 0; i < n && !used; i++)
			used = box_pid[i] == a->processes[p].pid;
		if (used)
			b->process[b->n++] = p;
		if (p && a->processes[p].host && a->processes[0].host &&
		    strcmp(a->processes[p].host, a->processes[0].host))
			b->hosts = true;
	}
	qsort_r(b->process, b->n, sizeof *b->process, by_host_then_pid, (void *)a);
	for (size_t i = 0; i < n; i++)
		for (size_t k = 0; k < b->n; k++)
			if (a->processes[b->process[k]].pid == box_pid[i])
				b->of_box[i] = k;
	return true;
}

void report_graph_section(struct report *r)
{
	const ca_architecture *a = r->arch;
	const char **names = calloc(a->n_nodes + 1, sizeof *names);
	char **subs = calloc(a->n_nodes + 1, sizeof *subs);
	size_t *box = calloc(a->n_nodes + 1, sizeof *box);
	int64_t *box_pid = calloc(a->n_nodes + 1, sizeof *box_pid);
	struct graph_edge *e = NULL;
	struct bands b = { 0 };
	size_t n = 0, n_edges = 0, cap = 0, n_links = 0, executors = 0, services = 0;
	struct ca_topic_link *links = ca_topic_links(a, &n_links);
	if (!names || !subs || !box || !box_pid || !links)
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
		box_pid[n] = a->nodes[i].pid;
		const ca_executor *x = report_executor_of_node(a, i);
		if (x && (subs[n] = malloc(strlen(x->name) + strlen(x->type ? x->type : "") + 8)))
			report_executor_label(x, subs[n]);
		n++;
	}
	for (size_t i = 0; i < a->n_executors; i++)
		executors += r->options->all || !a->executors[i].hidden;
	for (size_t i = 0; i < n_links; i++)
		if (box[links[i].from] != CA_NONE && report_shows_topic(r, links[i].topic))
			add_edge(&e, &n_edges, &cap, (struct graph_edge){ box[links[i].from],
				box[links[i].to], links[i].topic, false, 0 });
	size_t topic_edges = n_edges;
	service_edges(r, box, &e, &n_edges, &cap);
	for (size_t i = 0; i < a->n_services; i++)
		services += report_shows_service(r, i);
	if (!bands_of(&b, a, box_pid, n))
		goto out;
	fprintf(r->out, "<section id='graph'><h2>System graph</h2><p>%zu %s in %zu %s, %zu topic "
		"%s, %zu %s (%zu client → server %s), %zu %s. Click a node to search for it.</p>", n,
		caret_plural(n, "node", "nodes"), b.n, caret_plural(b.n, "process", "processes"),
		topic_edges, caret_plural(topic_edges, "link", "links"), services,
		caret_plural(services, "service", "services"), n_edges - topic_edges,
		caret_plural(n_edges - topic_edges, "link", "links"), executors,
		caret_plural(executors, "executor", "executors"));
	if (n)
		draw(r->out, a, names, (const char *const *)subs, n, e, n_edges, &b);
	fputs("</section>", r->out);
out:
	for (size_t i = 0; subs && i < n; i++)
		free(subs[i]);
	free(subs);
	free(names);
	free(box);
	free(box_pid);
	free(b.of_box);
	free(b.process);
	free(links);
	free(e);
}
