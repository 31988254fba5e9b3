/*
 * series.h - one metric of a callback, topic or path as the page draws it:
 * a value at each time (a run's latency at its start, a message's at its
 * publish), written as the timeline's points, a histogram and statistics.
 * Series longer than SERIES_POINTS are thinned here to the least and the
 * greatest value of each slice of the trace's time, so no outlier is lost;
 * the page thins again per pixel of the view it draws.
 */
#ifndef CA_REPORT_SERIES_H
#define CA_REPORT_SERIES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "ca.h"

#define SERIES_POINTS 20000

/* What a value is: ns (shown in ms), or a count per second (Hz). */
enum series_unit { SERIES_NS, SERIES_PER_SECOND };

struct series {
	uint64_t *t;   /* trace clock, ns; in time order once sorted */
	int64_t *v;
	size_t n, cap;
	bool failed;   /* out of memory: written as empty */
};

void series_push(struct series *s, uint64_t t, int64_t v);
void series_clear(struct series *s);
void series_free(struct series *s);
/* By time (stable). */
void series_sort(struct series *s);

/* The period of sorted times: at each time but the first, the time since
 * the one before. */
void series_period(const struct series *times, struct series *out);
/* Occurrences per second: for each whole second from `from` up to `to`,
 * the times in it (at the second's start); a trace shorter than a second
 * has one. */
void series_frequency(const struct series *times, uint64_t from, uint64_t to,
	struct series *out);

/* The points the page gets of a sorted series: every one, or past
 * SERIES_POINTS per slice of [t0, t1] the least and the greatest value.
 * Their indexes in keep (room for SERIES_POINTS); returns how many, or
 * (size_t)-1 when every point is kept (keep untouched). */
size_t series_thin(const struct series *s, uint64_t t0, uint64_t t1, size_t *keep);

/* The smallest of 1, 2, 5 x 10^k at least x, and the greatest at most x
 * (x >= 1): the round widths and edges of the histograms' bins. */
int64_t series_round_up_125(double x);
int64_t series_round_down_125(double x);
/* The logarithmic ladder of a histogram of values in [lo, hi]: edges 1, 2,
 * 5, 10, ... from at most lo (at least `smallest`) to above hi, into edges
 * (room for SERIES_LADDER_EDGES); returns the bins (edges - 1). */
#define SERIES_LADDER_EDGES 64
size_t series_ladder(int64_t lo, int64_t hi, int64_t smallest, int64_t *edges);
/* The bin of value v among the ladder's edges e[0..n]: the last edge at or
 * below it (values below e[0] in the first bin). */
size_t series_ladder_bin(const int64_t *e, size_t n, int64_t v);

/* {"x":[µs since t0],"y":[values],"i":[indexes, when thinned],"n":count,
 * "unit":"ms"|"Hz","what":what,"s":{statistics},"h":{histogram}}; the
 * statistics also in *stats (if not NULL), all 0 for no value. */
void series_write(FILE *out, const struct series *s, enum series_unit unit, const char *what,
	uint64_t t0, uint64_t t1, ca_stats *stats);

#endif
