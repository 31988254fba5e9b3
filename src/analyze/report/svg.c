/*
 * svg.c - see svg.h. Charts are fixed-size SVG in user units; axes carry
 * their units; colours come from one small palette.
 */
#include "svg.h"

#include <inttypes.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

static const char *const palette[] = { "#4e79a7", "#f28e2b", "#59a14f", "#e15759",
	"#76b7b2", "#edc948", "#b07aa1", "#ff9da7", "#9c755f", "#bab0ac" };
#define PALETTE (sizeof palette / sizeof *palette)

void ca_html_text(FILE *out, const char *s)
{
	for (; s && *s; s++)
		switch (*s) {
		case '&': fputs("&amp;", out); break;
		case '<': fputs("&lt;", out); break;
		case '>': fputs("&gt;", out); break;
		case '"': fputs("&quot;", out); break;
		default: fputc(*s, out);
		}
}

/* ---- axes --------------------------------------------------------------- */

#define W 640
#define H 220
#define LEFT 56
#define BOTTOM 36
#define TOP 12
#define RIGHT 12

static void axes(FILE *out, double x0, double x1, double y0, double y1, const char *xlabel,
	const char *ylabel)
{
	int pw = W - LEFT - RIGHT, ph = H - TOP - BOTTOM;
	fprintf(out, "<line x1='%d' y1='%d' x2='%d' y2='%d' class='axis'/>", LEFT, TOP + ph,
		LEFT + pw, TOP + ph);
	fprintf(out, "<line x1='%d' y1='%d' x2='%d' y2='%d' class='axis'/>", LEFT, TOP, LEFT,
		TOP + ph);
	for (int i = 0; i <= 4; i++) {
		double fx = x0 + (x1 - x0) * i / 4, fy = y0 + (y1 - y0) * i / 4;
		fprintf(out, "<text x='%d' y='%d' class='tick' text-anchor='middle'>%.3g</text>",
			LEFT + pw * i / 4, TOP + ph + 14, fx);
		fprintf(out, "<text x='%d' y='%d' class='tick' text-anchor='end'>%.3g</text>",
			LEFT - 4, TOP + ph - ph * i / 4 + 4, fy);
	}
	fprintf(out, "<text x='%d' y='%d' class='label' text-anchor='middle'>", LEFT + pw / 2,
		H - 4);
	ca_html_text(out, xlabel);
	fprintf(out, "</text><text x='12' y='%d' class='label' text-anchor='middle' "
		"transform='rotate(-90 12 %d)'>", TOP + ph / 2, TOP + ph / 2);
	ca_html_text(out, ylabel);
	fputs("</text>", out);
}

static void begin(FILE *out, int w, int h, const char *title)
{
	fprintf(out, "<svg class='chart' width='%d' height='%d' viewBox='0 0 %d %d' "
		"role='img'><title>", w, h, w, h);
	ca_html_text(out, title);
	fputs("</title>", out);
}

void ca_svg_histogram(FILE *out, const int64_t *v, size_t n, const char *what)
{
	enum { BINS = 30 };
	size_t count[BINS] = { 0 }, most = 1;
	int64_t lo = INT64_MAX, hi = INT64_MIN;
	char label[256];
	for (size_t i = 0; i < n; i++) {
		lo = v[i] < lo ? v[i] : lo;
		hi = v[i] > hi ? v[i] : hi;
	}
	if (!n)
		lo = hi = 0;
	double width = hi > lo ? (double)(hi - lo) / BINS : 1;
	for (size_t i = 0; i < n; i++) {
		size_t b = (size_t)((double)(v[i] - lo) / width);
		count[b < BINS ? b : BINS - 1]++;
	}
	for (int b = 0; b < BINS; b++)
		most = count[b] > most ? count[b] : most;
	snprintf(label, sizeof label, "%s (ms)", what);
	begin(out, W, H, label);
	axes(out, lo / 1e6, (lo + width * BINS) / 1e6, 0, (double)most, label, "count");
	int pw = W - LEFT - RIGHT, ph = H - TOP - BOTTOM;
	for (int b = 0; b < BINS; b++) {
		if (!count[b])
			continue;
		double h = (double)ph * (double)count[b] / (double)most;
		fprintf(out, "<rect class='pt' x='%.1f' y='%.1f' width='%.1f' height='%.1f' "
			"fill='%s'><title>%zu between %.3f and %.3f ms</title></rect>",
			LEFT + (double)pw * b / BINS + 0.5, TOP + ph - h, (double)pw / BINS - 1, h,
			palette[0], count[b], (lo + width * b) / 1e6, (lo + width * (b + 1)) / 1e6);
	}
	fputs("</svg>", out);
}

void ca_svg_timeline(FILE *out, const uint64_t *t, const int64_t *v, size_t n, uint64_t t0,
	const char *what)
{
	double x1 = 0, y1 = 0;
	char label[256];
	for (size_t i = 0; i < n; i++) {
		double x = (double)(t[i] - t0) / 1e9, y = (double)v[i] / 1e6;
		x1 = x > x1 ? x : x1;
		y1 = y > y1 ? y : y1;
	}
	x1 = x1 > 0 ? x1 : 1;
	y1 = y1 > 0 ? y1 * 1.05 : 1;
	snprintf(label, sizeof label, "%s (ms)", what);
	begin(out, W, H, label);
	axes(out, 0, x1, 0, y1, "time since the trace began (s)", label);
	int pw = W - LEFT - RIGHT, ph = H - TOP - BOTTOM;
	/* Every point up to 4000; beyond, an even sample (said in the title). */
	size_t step = n > 4000 ? n / 4000 + 1 : 1;
	for (size_t i = 0; i < n; i += step)
		fprintf(out, "<circle class='pt' cx='%.1f' cy='%.1f' r='2' fill='%s'/>",
			LEFT + pw * ((double)(t[i] - t0) / 1e9) / x1,
			TOP + ph - ph * ((double)v[i] / 1e6) / y1, palette[0]);
	if (step > 1)
		fprintf(out, "<text x='%d' y='%d' class='tick'>every %zu-th of %zu points</text>",
			LEFT + 8, TOP + 10, step, n);
	fputs("</svg>", out);
}

void ca_svg_stacked(FILE *out, const char *const *labels, const double *parts, size_t n)
{
	double total = 0, x = 0;
	int bar = W - 2 * RIGHT, rows = (int)(n + 1) / 2, h = 60 + 18 * rows;
	for (size_t i = 0; i < n; i++)
		total += parts[i] > 0 ? parts[i] : 0;
	begin(out, W, h, "mean latency per hop (ms)");
	for (size_t i = 0; i < n; i++) {
		double w = total > 0 && parts[i] > 0 ? bar * parts[i] / total : 0;
		fprintf(out, "<rect class='pt' x='%.1f' y='8' width='%.1f' height='28' fill='%s'>"
			"<title>", RIGHT + x, w, palette[i % PALETTE]);
		ca_html_text(out, labels[i]);
		fprintf(out, ": %.3f ms</title></rect>", parts[i] / 1e6);
		x += w;
	}
	fprintf(out, "<text x='%d' y='50' class='tick'>total %.3f ms (mean of each hop)</text>",
		RIGHT, total / 1e6);
	for (size_t i = 0; i < n; i++) {
		int lx = RIGHT + (int)(i % 2) * (bar / 2), ly = 66 + 18 * (int)(i / 2);
		fprintf(out, "<rect x='%d' y='%d' width='10' height='10' fill='%s'/>"
			"<text x='%d' y='%d' class='tick'>", lx, ly - 9, palette[i % PALETTE], lx + 14, ly);
		ca_html_text(out, labels[i]);
		fprintf(out, ": %.3f ms</text>", parts[i] / 1e6);
	}
	fputs("</svg>", out);
}

/* Each message gets a slot of the same width, on one time scale (the
 * longest message fills its slot): messages are milliseconds long and tens
 * of milliseconds apart, so a shared time axis would show thin spikes. */
void ca_svg_flow(FILE *out, const char *const *lanes, size_t n_lanes, const uint64_t *starts,
	const int64_t *hops, size_t n_messages)
{
	size_t hop_count = 2 * n_lanes - 1;
	int label = 220, lane_h = 34, h = 44 + lane_h * (int)n_lanes;
	int pw = W + 200 - label - RIGHT, slot = n_messages ? pw / (int)n_messages : pw;
	uint64_t longest = 1;
	for (size_t m = 0; m < n_messages; m++) {
		uint64_t d = 0;
		for (size_t k = 0; k < hop_count; k++)
			d += (uint64_t)(hops[m * hop_count + k] > 0 ? hops[m * hop_count + k] : 0);
		longest = d > longest ? d : longest;
	}
	begin(out, W + 200, h, "message flow along the path (ms)");
	for (size_t l = 0; l < n_lanes; l++) {
		int y = 10 + lane_h * (int)l;
		fprintf(out, "<line x1='%d' y1='%d' x2='%d' y2='%d' class='lane'/>"
			"<text x='4' y='%d' class='tick'>", label, y + 12, label + pw, y + 12, y + 16);
		ca_html_text(out, lanes[l]);
		fputs("</text>", out);
	}
	double scale = (slot - 16) / (double)longest;
	for (size_t m = 0; m < n_messages; m++) {
		double x0 = label + slot * (double)m + 8;
		uint64_t t = 0;
		const char *colour = palette[m % PALETTE];
		for (size_t k = 0; k < hop_count; k++) {
			uint64_t d = (uint64_t)(hops[m * hop_count + k] > 0 ? hops[m * hop_count + k] : 0);
			int y = 10 + lane_h * (int)((k + 1) / 2);
			double x = x0 + scale * (double)t, w = scale * (double)d;
			if (k % 2 == 0) /* in a node: a bar */
				fprintf(out, "<rect class='pt' x='%.1f' y='%d' width='%.1f' height='12' "
					"fill='%s'><title>message %zu: %.3f ms</title></rect>", x, y + 6,
					w > 1 ? w : 1, colour, m + 1, d / 1e6);
			else /* a topic: an arrow to the next lane */
				fprintf(out, "<line class='pt msg' x1='%.1f' y1='%d' x2='%.1f' y2='%d' "
					"stroke='%s'><title>message %zu: %.3f ms</title></line>", x,
					y - lane_h + 18, x + w, y + 6, colour, m + 1, d / 1e6);
			t += d;
		}
		fprintf(out, "<text x='%.1f' y='%d' class='tick'>#%zu +%.0f ms: %.2f ms</text>",
			x0, h - 18, m + 1, (double)(starts[m] - starts[0]) / 1e6, (double)t / 1e6);
	}
	fprintf(out, "<text x='%d' y='%d' class='tick'>message #, its start after the first, its "
		"latency; one scale for all: the longest (%.3f ms) fills its slot</text>", label, h - 4,
		(double)longest / 1e6);
	fputs("</svg>", out);
}

void ca_svg_graph(FILE *out, const char *const *names, const char *const *sublabels, size_t n,
	const struct ca_graph_edge *e, size_t n_edges)
{
	int *depth = calloc(n + 1, sizeof *depth), *row = calloc(n + 1, sizeof *row);
	int columns = 1, rows = 1;
	if (!depth || !row) {
		free(depth);
		free(row);
		return;
	}
	/* longest chain from an input-less node; n rounds bound cycles */
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
	int *filled = calloc(n + 1, sizeof *filled);
	for (size_t i = 0; filled && i < n; i++) {
		row[i] = filled[depth[i]]++;
		columns = depth[i] + 1 > columns ? depth[i] + 1 : columns;
		rows = row[i] + 1 > rows ? row[i] + 1 : rows;
	}
	free(filled);
	int bw = 190, bh = 44, cw = 320, rh = 70;
	int w = columns * cw + 20, h = rows * rh + 20;
	begin(out, w, h, "system graph: nodes (executor below the name) linked by topics");
	fputs("<defs><marker id='arrow' viewBox='0 0 10 10' refX='10' refY='5' markerWidth='6' "
		"markerHeight='6' orient='auto'><path d='M0,0 L10,5 L0,10 z' fill='#555'/></marker>"
		"</defs>", out);
	for (size_t i = 0; i < n_edges; i++) {
		double x1 = 10 + depth[e[i].from] * cw + bw, y1 = 10 + row[e[i].from] * rh + bh / 2.0;
		double x2 = 10 + depth[e[i].to] * cw, y2 = 10 + row[e[i].to] * rh + bh / 2.0;
		fprintf(out, "<path class='edge' d='M%.0f,%.0f C%.0f,%.0f %.0f,%.0f %.0f,%.0f' "
			"marker-end='url(#arrow)'/><text x='%.0f' y='%.0f' class='tick' "
			"text-anchor='middle'>", x1, y1, x1 + 40, y1, x2 - 40, y2, x2, y2,
			(x1 + x2) / 2, (y1 + y2) / 2 - 4);
		ca_html_text(out, e[i].label);
		fputs("</text>", out);
	}
	for (size_t i = 0; i < n; i++) {
		int x = 10 + depth[i] * cw, y = 10 + row[i] * rh;
		fprintf(out, "<g class='pt node'><rect x='%d' y='%d' width='%d' height='%d' rx='6'/>"
			"<text x='%d' y='%d' class='name'>", x, y, bw, bh, x + 8, y + 18);
		ca_html_text(out, names[i]);
		fprintf(out, "</text><text x='%d' y='%d' class='tick'>", x + 8, y + 35);
		ca_html_text(out, sublabels[i] ? sublabels[i] : "");
		fputs("</text></g>", out);
	}
	fputs("</svg>", out);
	free(depth);
	free(row);
}
