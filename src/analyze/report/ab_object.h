/*
 * ab_object.h - one object of the A/B page (caret report --baseline) as
 * the page draws it (web/ab/): each side's instances as a timeline's
 * points (thinned as series.h does), on shared histogram bins, and as
 * quantiles for the cumulative distribution.
 */
#ifndef CA_REPORT_AB_OBJECT_H
#define CA_REPORT_AB_OBJECT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* One side's instances: latency[i] began since[i] ns after its
 * recording's first event (a side of several recordings has each at its
 * own); span: the longest of its recordings (ns). In any order. */
struct ab_side {
	const uint64_t *since;
	const int64_t *latency;
	size_t n;
	uint64_t span;
};

/* The quantiles the cumulative distribution gets of a side, at most. */
#define AB_CDF_POINTS 400

/* {"title":title,"what":what,"sides":[{"x":[µs since its recording began],"y":[µs],
 * "i":[indexes, when thinned],"n":count,"s":{min,mean,p50,p90,p99,max}}
 * x2],"h":{"lo","w","c":[[base],[new]],"over":[b,n],"max","log":{"e",
 * "c":[[..],[..]]}},"cdf":[{"v":[µs],"p":[share]} x2]}; false when out of
 * memory (the value written is then still whole, with no point). */
bool ab_object_write(FILE *d, const char *title, const char *what, const struct ab_side side[2]);

#endif
