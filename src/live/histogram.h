/*
 * histogram.h - one watched object's latencies since the start, in
 * buckets a Prometheus histogram exposes (metrics_text.c): around its
 * deadline when it has one (a bound at the deadline itself, so that the
 * bucket at it counts exactly the instances that met it), log-spaced
 * from 10 us to 10 s otherwise.
 */
#ifndef CL_HISTOGRAM_H
#define CL_HISTOGRAM_H

#include <stddef.h>
#include <stdint.h>

#define LIVE_HISTOGRAM_MAX_BOUNDS 32

struct live_histogram {
	size_t n_bounds;       /* 0: not chosen yet (no sample) */
	int64_t bounds_ns[LIVE_HISTOGRAM_MAX_BOUNDS]; /* increasing upper bounds (le) */
	uint64_t counts[LIVE_HISTOGRAM_MAX_BOUNDS + 1]; /* per bucket, not cumulative;
						       * the last one: over every bound */
	uint64_t count;
	uint64_t sum_ns;
};

/* The bounds for a deadline (0: none) into h, its counts cleared. */
void live_histogram_init(struct live_histogram *h, int64_t deadline_ns);
/* One sample (a latency, not negative). */
void live_histogram_add(struct live_histogram *h, int64_t ns);

#endif
