/*
 * svg.h - the charts of the HTML report, written as inline SVG (no
 * library, no script, nothing fetched): histograms, timelines, stacked
 * bars, message flows and the system graph. Every drawn data point has
 * class "pt", so a test can count them.
 */
#ifndef CA_SVG_H
#define CA_SVG_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* s with &, <, >, " escaped. */
void ca_html_text(FILE *out, const char *s);

/* A histogram of values (ns), shown in milliseconds. */
void ca_svg_histogram(FILE *out, const int64_t *values, size_t n, const char *what);

/* values (ns) against times (ns, from t0), a point each. */
void ca_svg_timeline(FILE *out, const uint64_t *times, const int64_t *values, size_t n,
	uint64_t t0, const char *what);

/* One bar split into labelled parts (ns), with a legend. */
void ca_svg_stacked(FILE *out, const char *const *labels, const double *parts, size_t n);

/* Lanes (one per node) and, per message, its stages as bars and arrows:
 * hops[m * hop_count + k], starting at starts[m]; hop_count = 2 * lanes - 1. */
void ca_svg_flow(FILE *out, const char *const *lanes, size_t n_lanes, const uint64_t *starts,
	const int64_t *hops, size_t n_messages);

struct ca_graph_edge {
	size_t from, to;
	const char *label;
};

/* Boxes in columns by depth (longest chain of edges from a node without
 * inputs), edges labelled; sub-labels (executors) under the names. */
void ca_svg_graph(FILE *out, const char *const *names, const char *const *sublabels,
	size_t n, const struct ca_graph_edge *edges, size_t n_edges);

#endif
