/*
 * sec_split.c - where a path's messages waited, on its card: each topic
 * hop in three parts (ca_path_hop_split), the publish to its DDS write,
 * the write to its reception by the subscriber's middleware, the reception
 * to the callback start (the executor's wait). Drawn inside the hop's part
 * of "where the time goes", under its row of the worst instances, and in
 * the flows (the page's data, web/page/flows.js). Only when the trace
 * recorded receptions (html.c gives the report a splitter then).
 */
#include <stdlib.h>

#include "json.h"
#include "report.h"

static const char *const part_names[SPLIT_PARTS] = { "publish→DDS write",
	"DDS write→reception", "reception→callback (the executor's wait)" };

bool report_split_means(const struct report *r, const ca_path_latency *l, struct split_mean *s)
{
	const ca_path_message *m;
	const int64_t *hops;
	size_t n = ca_path_latency_messages(l, &m, &hops), h = ca_path_latency_hop_count(l);
	const ca_path_span whole = { true, true };
	if (!r->splitter)
		return false;
	/* sums over the messages that went all the way, as the hops' means */
	for (size_t i = 0; i < n; i++) {
		uint64_t start, end;
		if (!ca_path_message_span(&m[i], whole, &start, &end))
			continue;
		for (size_t k = 1; k < h; k += 2) {
			ca_message_hops x;
			s[k].done++;
			if (!ca_path_hop_split(r->splitter, l, i, k, &x)) {
				s[k].rest += (double)hops[i * h + k];
				continue;
			}
			s[k].split++;
			s[k].part[0] += (double)x.to_write;
			s[k].part[1] += (double)x.in_middleware;
			s[k].part[2] += (double)x.to_callback;
		}
	}
	for (size_t k = 1; k < h; k += 2) {
		for (int p = 0; p < SPLIT_PARTS; p++)
			s[k].part[p] /= s[k].done ? (double)s[k].done : 1;
		s[k].rest /= s[k].done ? (double)s[k].done : 1;
	}
	return true;
}

/* One part inside a hop's segment: its width a share of the segment. */
static void part(FILE *out, const char *label, const char *name, const char *cls,
	const char *colour, double ns, double whole)
{
	double width = whole > 0 && ns > 0 ? 100 * ns / whole : 0;
	fprintf(out, "<span class='part %s' style='width:%.3f%%;background-color:%s' "
		"data-ns='%.0f' title='", cls, width, colour, ns);
	report_text(out, label);
	fputs(", ", out);
	report_text(out, name);
	fprintf(out, ": %.3f ms'></span>", ns / 1e6);
}

void report_split_segment(FILE *out, const char *label, const char *colour, double share,
	double mean, const struct split_mean *s)
{
	static const char *const cls[SPLIT_PARTS] = { "p0", "p1", "p2" };
	/* the parts fill the segment: shares of their sum (a negative mean, a
	 * clock's, drawn as nothing) */
	double whole = s->rest > 0 ? s->rest : 0;
	for (int p = 0; p < SPLIT_PARTS; p++)
		whole += s->part[p] > 0 ? s->part[p] : 0;
	fprintf(out, "<span class='hop split' style='width:%.3f%%;background:%s' data-ns='%.0f' "
		"data-hop='", share, colour, mean);
	report_text(out, label);
	fputs("' title='", out);
	report_text(out, label);
	fprintf(out, ": %.3f ms (%.1f%%)'>", mean / 1e6, share);
	for (int p = 0; p < SPLIT_PARTS; p++)
		part(out, label, part_names[p], cls[p], colour, s->part[p], whole);
	if (s->split < s->done) {
		char name[96];
		snprintf(name, sizeof name, "the %zu not split", s->done - s->split);
		part(out, label, name, "rest", "#bab0ac", s->rest, whole);
	}
	fputs("</span>", out);
}

/* How the receptions were known (ca_records_reception_kinds). */
static void known_by(FILE *out, unsigned kinds)
{
	fputs("The reception is ", out);
	if (kinds & CA_RECEPTION_STAMPED)
		fputs("Fast DDS's reception time of each message (rmw_take_reception)", out);
	if (kinds == (CA_RECEPTION_STAMPED | CA_RECEPTION_ARRIVAL_ORDER))
		fputs("; or ", out);
	if (kinds & CA_RECEPTION_ARRIVAL_ORDER)
		fputs("Cyclone DDS's reader arrival (rmw_data_available), matched to the messages in "
			"the order of their writes: a lower bound when several writers' messages are in "
			"flight at once", out);
	fputs(" (docs/latency.md, where a message waited).", out);
}

void report_split_legend(const struct report *r, FILE *out, char **labels,
	const struct split_mean *s, size_t h)
{
	fputs("<ul class='legend split-legend'>", out);
	for (size_t k = 1; k < h; k += 2) {
		if (!s[k].split)
			continue;
		fputs("<li>", out);
		report_text(out, labels[k]);
		fputc(':', out);
		for (int p = 0; p < SPLIT_PARTS; p++) {
			fprintf(out, " <i class='part p%d'></i>", p);
			report_text(out, part_names[p]);
			fprintf(out, " <b>%.3f ms</b>", s[k].part[p] / 1e6);
		}
		fputs("</li>", out);
	}
	fputs("</ul><p class='sub split-note'>Each topic hop is split where its messages waited: "
		"publish→DDS write, DDS write→reception (the middleware), reception→callback (the "
		"wait for the executor), each summed over the messages split and divided by all "
		"that went all the way, so that they add up to the hop's mean. ", out);
	known_by(out, r->receptions);
	bool all = true;
	for (size_t k = 1; k < h; k += 2) {
		if (s[k].split == s[k].done)
			continue;
		fputs(all ? " Not split (grey: an intra-process message, its write or its reception "
			"not in the trace): " : "; ", out);
		report_text(out, labels[k]);
		fprintf(out, " %zu of %zu", s[k].done - s[k].split, s[k].done);
		all = false;
	}
	fputs(all ? " Every message of each topic hop was split.</p>" : ".</p>", out);
}

void report_split_rows(const struct report *r, FILE *out, const ca_path_latency *l, size_t hop,
	const size_t *messages, size_t n)
{
	for (int p = 0; p < SPLIT_PARTS; p++) {
		fprintf(out, "<tr class='part' data-part='%d'><td><i class='part p%d'></i>", p, p);
		report_text(out, part_names[p]);
		fputs("</td>", out);
		for (size_t j = 0; j < n; j++) {
			ca_message_hops x = { 0 };
			if (!ca_path_hop_split(r->splitter, l, messages[j], hop, &x)) {
				fputs("<td>—</td>", out);
				continue;
			}
			const int64_t v[SPLIT_PARTS] = { x.to_write, x.in_middleware, x.to_callback };
			fprintf(out, "<td>%.3f</td>", (double)v[p] / 1e6);
		}
		fputs("</tr>", out);
	}
}

void report_split_data(const struct report *r, FILE *d, const ca_path_latency *l,
	const size_t *messages, size_t n)
{
	size_t h = ca_path_latency_hop_count(l);
	bool first = true;
	fputs(",\"sp\":[", d);
	for (size_t i = 0; i < n; i++)
		for (size_t k = 1; k < h; k += 2) {
			ca_message_hops x = { 0 };
			bool split = ca_path_hop_split(r->splitter, l, messages[i], k, &x);
			const int64_t v[SPLIT_PARTS] = { x.to_write, x.in_middleware, x.to_callback };
			for (int p = 0; p < SPLIT_PARTS; p++) {
				fputs(first ? "" : ",", d);
				first = false;
				if (split)
					json_us(d, v[p]);
				else
					fputs("null", d);
			}
		}
	fputc(']', d);
}
