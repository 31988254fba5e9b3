/*
 * ab_object.c - see ab_object.h. Both sides' histograms share their bins
 * (a round width from the lesser minimum to the greater p99, then one
 * overflow bin; and one logarithmic ladder over both ranges), so the page
 * overlays them bar on bar.
 */
#include "ab_object.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ca.h"
#include "json.h"
#include "series.h"

#define LINEAR_BINS 30
#define SMALLEST_WIDTH 100 /* ns: the page shows 0.0001 ms */

/* A side's points (thinned past SERIES_POINTS), its count and statistics. */
static bool side_points(FILE *d, const struct ab_side *s, const ca_stats *st)
{
	struct series points = { 0 };
	for (size_t i = 0; i < s->n; i++)
		series_push(&points, s->since[i], s->latency[i]);
	series_sort(&points);
	size_t *keep = points.n > SERIES_POINTS ? malloc(SERIES_POINTS * sizeof *keep) : NULL;
	bool whole = !points.failed && (keep || points.n <= SERIES_POINTS);
	size_t n = whole ? points.n : 0, kept = keep ? series_thin(&points, 0, s->span, keep) : n;
	fputs("{\"x\":[", d);
	for (size_t k = 0; k < kept; k++)
		json_item(d, k, (int64_t)(points.t[keep ? keep[k] : k] / 1000));
	fputs("],\"y\":[", d);
	for (size_t k = 0; k < kept; k++) {
		fputs(k ? "," : "", d);
		json_us(d, points.v[keep ? keep[k] : k]);
	}
	fputc(']', d);
	if (keep) {
		fputs(",\"i\":[", d);
		for (size_t k = 0; k < kept; k++)
			json_item(d, k, (int64_t)keep[k]);
		fputc(']', d);
	}
	fputs(",\"n\":", d);
	json_int(d, (int64_t)s->n);
	fputs(",\"s\":{\"min\":", d);
	json_us(d, st->min);
	const double stats[] = { st->mean, st->p50, st->p90, st->p99 };
	static const char *const names[] = { "mean", "p50", "p90", "p99" };
	for (int k = 0; k < 4; k++) {
		fprintf(d, ",\"%s\":", names[k]);
		json_us(d, (int64_t)llround(stats[k]));
	}
	fputs(",\"max\":", d);
	json_us(d, st->max);
	fputs("}}", d);
	free(keep);
	series_free(&points);
	return whole;
}

static int64_t floor_to(int64_t v, int64_t step)
{
	int64_t q = v / step;
	return (v % step && v < 0 ? q - 1 : q) * step;
}

/* The shared bins of both sides' sorted values v[k][0..n[k]). */
static bool shared_bins(FILE *d, int64_t *const v[2], const size_t n[2], const ca_stats st[2])
{
	int64_t lo = INT64_MAX, hi = INT64_MIN, cut = INT64_MIN;
	for (int k = 0; k < 2; k++)
		if (n[k]) {
			lo = st[k].min < lo ? st[k].min : lo;
			hi = st[k].max > hi ? st[k].max : hi;
			int64_t p99 = (int64_t)ceil(st[k].p99);
			cut = p99 > cut ? p99 : cut;
		}
	if (lo > hi)
		lo = hi = cut = 0;
	double raw = (double)(cut - lo) / LINEAR_BINS;
	int64_t width = series_round_up_125(raw > SMALLEST_WIDTH ? raw : SMALLEST_WIDTH);
	int64_t start = floor_to(lo, width);
	size_t bins = (size_t)((cut - start) / width) + 1;
	size_t *count = calloc(2 * bins, sizeof *count), over[2] = { 0, 0 };
	if (!count)
		return false;
	for (int k = 0; k < 2; k++)
		for (size_t i = 0; i < n[k]; i++) {
			size_t b = (size_t)((v[k][i] - start) / width);
			if (b < bins)
				count[k * bins + b]++;
			else
				over[k]++;
		}
	fputs(",\"h\":{\"lo\":", d);
	json_us(d, start);
	fputs(",\"w\":", d);
	json_us(d, width);
	fputs(",\"max\":", d);
	json_us(d, hi);
	fputs(",\"c\":[", d);
	for (int k = 0; k < 2; k++) {
		fputs(k ? ",[" : "[", d);
		for (size_t b = 0; b < bins; b++)
			json_item(d, b, (int64_t)count[k * bins + b]);
		fputc(']', d);
	}
	fprintf(d, "],\"over\":[%zu,%zu]", over[0], over[1]);
	free(count);

	int64_t edges[SERIES_LADDER_EDGES];
	size_t ladder = series_ladder(lo, hi, SMALLEST_WIDTH, edges);
	fputs(",\"log\":{\"e\":[", d);
	for (size_t b = 0; b <= ladder; b++) {
		fputs(b ? "," : "", d);
		json_us(d, edges[b]);
	}
	fputs("],\"c\":[", d);
	for (int k = 0; k < 2; k++) {
		size_t c[SERIES_LADDER_EDGES] = { 0 };
		for (size_t i = 0; i < n[k]; i++)
			c[series_ladder_bin(edges, ladder, v[k][i])]++;
		fputs(k ? ",[" : "[", d);
		for (size_t b = 0; b < ladder; b++)
			json_item(d, b, (int64_t)c[b]);
		fputc(']', d);
	}
	fputs("]}}", d);
	return true;
}

/* The rank after the last value equal to v[r] in sorted v[0..n). */
static size_t past_equal(const int64_t *v, size_t n, size_t r)
{
	size_t lo = r + 1, hi = n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (v[mid] == v[r])
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* The cumulative distribution of sorted values: at most AB_CDF_POINTS
 * ranks, evenly spread from the least to the greatest, each with the
 * share of values at or below it. */
static void cdf(FILE *d, const int64_t *v, size_t n)
{
	size_t points = n < AB_CDF_POINTS ? n : AB_CDF_POINTS;
	fputs("{\"v\":[", d);
	for (size_t k = 0; k < points; k++) {
		size_t r = points > 1 ? (size_t)llround((double)k * (double)(n - 1) /
			(double)(points - 1)) : 0;
		fputs(k ? "," : "", d);
		json_us(d, v[r]);
	}
	fputs("],\"p\":[", d);
	for (size_t k = 0; k < points; k++) {
		size_t r = points > 1 ? (size_t)llround((double)k * (double)(n - 1) /
			(double)(points - 1)) : 0;
		/* each value equal to v[r] is at or below it */
		fprintf(d, "%s%.5g", k ? "," : "", (double)past_equal(v, n, r) / (double)n);
	}
	fputs("]}", d);
}

bool ab_object_write(FILE *d, const char *title, const char *what, const struct ab_side side[2])
{
	int64_t *sorted[2] = { NULL, NULL };
	size_t n[2] = { 0, 0 };
	ca_stats st[2] = { { 0 }, { 0 } };
	bool whole = true;
	for (int k = 0; k < 2; k++) {
		sorted[k] = malloc((side[k].n + 1) * sizeof *sorted[k]);
		if (!sorted[k]) {
			whole = false;
			continue;
		}
		n[k] = side[k].n;
		if (n[k])
			memcpy(sorted[k], side[k].latency, n[k] * sizeof *sorted[k]);
		ca_stats_of(sorted[k], n[k], CA_PERCENTILE_LINEAR, &st[k]); /* sorts them */
	}
	fputs("{\"title\":", d);
	json_string(d, title);
	fputs(",\"what\":", d);
	json_string(d, what);
	fputs(",\"sides\":[", d);
	for (int k = 0; k < 2; k++) {
		fputs(k ? "," : "", d);
		whole = side_points(d, &side[k], &st[k]) && whole;
	}
	fputc(']', d);
	if (!shared_bins(d, sorted, n, st)) {
		whole = false;
		fputs(",\"h\":{\"lo\":0,\"w\":1,\"max\":0,\"c\":[[],[]],\"over\":[0,0],"
			"\"log\":{\"e\":[],\"c\":[[],[]]}}", d);
	}
	fputs(",\"cdf\":[", d);
	for (int k = 0; k < 2; k++) {
		fputs(k ? "," : "", d);
		cdf(d, sorted[k], n[k]);
	}
	fputs("]}", d);
	free(sorted[0]);
	free(sorted[1]);
	return whole;
}
