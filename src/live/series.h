/*
 * series.h - one watched object's latencies over a sliding window: each
 * sample is (when it ended, how long it took); samples arrive in about
 * the order they ended and leave once older than the window.
 */
#ifndef CL_SERIES_H
#define CL_SERIES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "counted.h"

struct live_series {
	char *name;
	int64_t limit_ns;      /* over it is a miss; 0: none */
	uint64_t *at;          /* end times */
	int64_t *value;        /* latencies */
	size_t first, n, cap;  /* the samples are [first, n) */
	uint64_t total, total_misses; /* since the start */
	struct live_counted counted;  /* the samples of the last looks, by (end, start) */
};

struct live_window_stats {
	size_t count, misses;
	int64_t p50, p99, max; /* 0 with no sample */
};

/* false out of memory */
bool live_series_add(struct live_series *s, uint64_t at, int64_t value);
/* Drops the samples that ended before `before`. */
void live_series_expire(struct live_series *s, uint64_t before);
/* The samples' statistics (percentiles by nearest rank); false out of memory. */
bool live_series_stats(const struct live_series *s, struct live_window_stats *out);
void live_series_free(struct live_series *s);

#endif
