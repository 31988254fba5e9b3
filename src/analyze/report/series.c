/*
 * series.c - see series.h. Histograms are written twice, for the page's
 * two views: linear bins of a round width up to the 99th percentile with
 * the rest in one overflow bin, and bins on a 1-2-5 logarithmic ladder over
 * the whole range.
 */
#include "series.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ca.h"
#include "json.h"
#include "records.h"

#define LINEAR_BINS 30
/* The seconds a frequency series counts one by one (over 11 days). */
#define SECONDS_MAX 1000000

void series_push(struct series *s, uint64_t t, int64_t v)
{
	if (s->failed)
		return;
	if (s->n == s->cap) {
		size_t cap = s->cap ? 2 * s->cap : 64;
		uint64_t *t2 = realloc(s->t, cap * sizeof *t2);
		if (t2)
			s->t = t2;
		int64_t *v2 = t2 ? realloc(s->v, cap * sizeof *v2) : NULL;
		if (!v2) {
			s->failed = true;
			return;
		}
		s->v = v2;
		s->cap = cap;
	}
	s->t[s->n] = t;
	s->v[s->n++] = v;
}

void series_clear(struct series *s)
{
	s->n = 0;
	s->failed = false;
}

void series_free(struct series *s)
{
	free(s->t);
	free(s->v);
	*s = (struct series){ 0 };
}

struct point {
	uint64_t t;
	int64_t v;
};

static int by_time(const void *a, const void *b)
{
	const struct point *x = a, *y = b;
	return x->t < y->t ? -1 : x->t > y->t ? 1 : x->v < y->v ? -1 : x->v > y->v;
}

void series_sort(struct series *s)
{
	size_t i = 1;
	while (i < s->n && s->t[i - 1] <= s->t[i])
		i++;
	if (i >= s->n)
		return;
	struct point *p = malloc(s->n * sizeof *p);
	if (!p) {
		s->failed = true;
		return;
	}
	for (i = 0; i < s->n; i++)
		p[i] = (struct point){ s->t[i], s->v[i] };
	qsort(p, s->n, sizeof *p, by_time);
	for (i = 0; i < s->n; i++) {
		s->t[i] = p[i].t;
		s->v[i] = p[i].v;
	}
	free(p);
}

void series_period(const struct series *times, struct series *out)
{
	for (size_t i = 1; i < times->n; i++)
		series_push(out, times->t[i], (int64_t)(times->t[i] - times->t[i - 1]));
}

/* The count of each second from `second` on, up to `last`, into out:
 * every second (empty ones too) while there are at most SECONDS_MAX, the
 * seconds holding times and the first and last of each empty stretch past
 * that. A damaged timestamp can make the span billions of seconds; the
 * chart draws the same steps either way. */
static void count_seconds(const struct series *times, uint64_t second, uint64_t last,
	struct series *out)
{
	const uint64_t s = 1000000000u;
	bool every = (last - second) / s < SECONDS_MAX;
	size_t i = 0;
	while (i < times->n && times->t[i] < second)
		i++;
	for (;;) {
		int64_t count = 0;
		while (i < times->n && times->t[i] - second < s)
			count++, i++;
		series_push(out, second, count);
		if (last - second < s)
			break;
		/* the next second; past an empty stretch, its last second */
		uint64_t next = second + s;
		if (!count && !every) {
			uint64_t upto = i < times->n && times->t[i] <= last ? times->t[i] : last;
			uint64_t skip = (upto - second) / s;
			next = skip > 1 ? second + (skip - 1) * s : next;
		}
		second = next;
	}
}

void series_frequency(const struct series *times, uint64_t from, uint64_t to,
	struct series *out)
{
	/* whole seconds only: a last part of a second would read as a drop
	 * (but a trace shorter than a second has its one part) */
	uint64_t last = to - from >= 1000000000u ? to - 1000000000u : from;
	count_seconds(times, from, last, out);
}

/* ---- writing -------------------------------------------------------------- */

static void value(FILE *out, int64_t v, enum series_unit unit)
{
	if (unit == SERIES_NS)
		json_us(out, v);
	else
		json_int(out, v);
}

int64_t series_round_up_125(double x)
{
	double p = pow(10, floor(log10(x)));
	for (int k = 0;; k++) {
		double m = (k % 3 == 0 ? 1 : k % 3 == 1 ? 2 : 5) * p * pow(10, k / 3);
		if (m >= x)
			return (int64_t)llround(m);
	}
}

int64_t series_round_down_125(double x)
{
	double p = pow(10, floor(log10(x)));
	double m = x >= 5 * p ? 5 * p : x >= 2 * p ? 2 * p : p;
	return (int64_t)llround(m);
}

static int64_t floor_to(int64_t v, int64_t step)
{
	int64_t q = v / step;
	return (v % step && v < 0 ? q - 1 : q) * step;
}

size_t series_ladder_bin(const int64_t *e, size_t n, int64_t v)
{
	size_t lo = 0, hi = n; /* the first edge above v, in [1, n] */
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		if (e[mid] <= v)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo ? lo - 1 : 0;
}

size_t series_ladder(int64_t lo, int64_t hi, int64_t smallest, int64_t *edges)
{
	size_t n_bins = 0;
	edges[0] = series_round_down_125((double)(lo > smallest ? lo : smallest));
	do {
		edges[n_bins + 1] = series_round_up_125((double)edges[n_bins] * 1.5);
		n_bins++;
	} while (edges[n_bins] <= hi && n_bins < SERIES_LADDER_EDGES - 2);
	return n_bins;
}

/* values (in any order) with their statistics s. */
static void histogram(FILE *out, const int64_t *values, size_t n, const ca_stats *s,
	enum series_unit unit)
{
	int64_t smallest = unit == SERIES_NS ? 100 : 1; /* what the page shows */
	int64_t lo = s->min, hi = s->max, cut = (int64_t)ceil(s->p99);
	double raw = (double)(cut - lo) / LINEAR_BINS;
	int64_t width = series_round_up_125(raw > (double)smallest ? raw : (double)smallest);
	int64_t start = floor_to(lo, width);
	size_t bins = (size_t)((cut - start) / width) + 1, over = 0;
	size_t *count = calloc(bins, sizeof *count);
	if (!count)
		return;
	for (size_t i = 0; i < n; i++) {
		size_t b = (size_t)((values[i] - start) / width);
		if (b < bins)
			count[b]++;
		else
			over++;
	}
	fputs(",\"h\":{\"lo\":", out);
	value(out, start, unit);
	fputs(",\"w\":", out);
	value(out, width, unit);
	fputs(",\"c\":[", out);
	for (size_t b = 0; b < bins; b++)
		json_item(out, b, (int64_t)count[b]);
	fputs("],\"over\":", out);
	json_int(out, (int64_t)over);
	fputs(",\"max\":", out);
	value(out, hi, unit);
	free(count);

	/* the logarithmic ladder: 1, 2, 5, 10, ... from below the least value
	 * (at least `smallest`) to above the greatest; 64 edges reach past
	 * the range of int64 */
	int64_t edges[SERIES_LADDER_EDGES];
	size_t counts[SERIES_LADDER_EDGES] = { 0 }, n_bins = series_ladder(lo, hi, smallest, edges);
	for (size_t i = 0; i < n; i++)
		counts[series_ladder_bin(edges, n_bins, values[i])]++;
	fputs(",\"log\":{\"e\":[", out);
	for (size_t b = 0; b <= n_bins; b++) {
		if (b)
			fputc(',', out);
		value(out, edges[b], unit);
	}
	fputs("],\"c\":[", out);
	for (size_t b = 0; b < n_bins; b++)
		json_item(out, b, (int64_t)counts[b]);
	fputs("]}}", out);
}

static void statistics(FILE *out, int64_t *v, size_t n, enum series_unit unit, ca_stats *stats)
{
	ca_stats s;
	ca_stats_select(v, n, CA_PERCENTILE_LINEAR, &s);
	if (stats)
		*stats = s;
	fputs(",\"s\":{\"min\":", out);
	value(out, s.min, unit);
	fputs(",\"mean\":", out);
	value(out, (int64_t)llround(s.mean), unit);
	fputs(",\"p50\":", out);
	value(out, (int64_t)llround(s.p50), unit);
	fputs(",\"p99\":", out);
	value(out, (int64_t)llround(s.p99), unit);
	fputs(",\"max\":", out);
	value(out, s.max, unit);
	fputc('}', out);
}

size_t series_thin(const struct series *s, uint64_t t0, uint64_t t1, size_t *keep)
{
	if (s->n <= SERIES_POINTS)
		return (size_t)-1;
	const size_t slices = SERIES_POINTS / 2;
	double span = t1 > t0 ? (double)(t1 - t0) + 1 : 1;
	size_t n = 0, low = 0, high = 0, slice = SIZE_MAX;
	for (size_t i = 0; i <= s->n; i++) {
		size_t at = SIZE_MAX;
		if (i < s->n) {
			double x = s->t[i] > t0 ? (double)(s->t[i] - t0) / span : 0;
			at = (size_t)(x * (double)slices);
			at = at < slices ? at : slices - 1;
		}
		if (at != slice && slice != SIZE_MAX) { /* the slice ended */
			keep[n++] = low < high ? low : high;
			if (low != high)
				keep[n++] = low < high ? high : low;
		}
		if (i == s->n)
			break;
		if (at != slice)
			low = high = i, slice = at;
		low = s->v[i] < s->v[low] ? i : low;
		high = s->v[i] > s->v[high] ? i : high;
	}
	return n;
}

void series_write(FILE *out, const struct series *s, enum series_unit unit, const char *what,
	uint64_t t0, uint64_t t1, ca_stats *stats)
{
	if (stats)
		*stats = (ca_stats){ 0 };
	size_t n = s->failed ? 0 : s->n, kept = n;
	size_t *keep = n > SERIES_POINTS ? malloc(SERIES_POINTS * sizeof *keep) : NULL;
	if (keep)
		kept = series_thin(s, t0, t1, keep);
	else if (n > SERIES_POINTS)
		n = kept = 0; /* out of memory: nothing rather than too much */
	fputs("{\"x\":[", out);
	for (size_t k = 0; k < kept; k++) {
		size_t i = keep ? keep[k] : k;
		if (k)
			fputc(',', out);
		json_int(out, s->t[i] > t0 ? (int64_t)((s->t[i] - t0) / 1000) : 0);
	}
	fputs("],\"y\":[", out);
	for (size_t k = 0; k < kept; k++) {
		if (k)
			fputc(',', out);
		value(out, s->v[keep ? keep[k] : k], unit);
	}
	fputc(']', out);
	if (keep) {
		fputs(",\"i\":[", out);
		for (size_t k = 0; k < kept; k++) {
			if (k)
				fputc(',', out);
			json_int(out, (int64_t)keep[k]);
		}
		fputc(']', out);
	}
	fprintf(out, ",\"n\":%zu,\"unit\":\"%s\",\"what\":", n, unit == SERIES_NS ? "ms" : "Hz");
	json_string(out, what);
	int64_t *copy = n ? malloc(n * sizeof *copy) : NULL;
	if (copy) {
		ca_stats st;
		memcpy(copy, s->v, n * sizeof *copy);
		statistics(out, copy, n, unit, &st); /* reorders the copy */
		histogram(out, copy, n, &st, unit);
		if (stats)
			*stats = st;
	}
	fputc('}', out);
	free(copy);
	free(keep);
}
