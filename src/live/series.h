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
#include "histogram.h"

struct live_series {
	char *name;
	int64_t limit_ns;      /* over it is a miss; 0: none */
	uint64_t *at;          /* end times */
	int64_t *value;        /* latencies */
	size_t first, n, cap;  /* the samples are [first, n) */
	uint64_t total, total_misses; /* since the start */
	struct live_counted counted;  /* the samples of the last looks, by (end, start) */
	struct live_histogram histogram; /* every sample since the start (--metrics) */
	char *node, *host;   /* a callback's node, its host's name with --watch; NULL: none */
};

struct live_window_stats {
	size_t count, misses;
	double p50, p99; /* as every table of the analyzer takes them (linear) */
	int64_t max;     /* all 0 with no sample: shown as none */
};

/* Series by name, in the order they came: a table's rows (the callbacks,
 * the services, the actions). */
struct live_series_list {
	struct live_series *items;
	size_t n, cap;
};

/* false out of memory */
bool live_series_add(struct live_series *s, uint64_t at, int64_t value);
/* Drops the samples that ended before `before`. */
void live_series_expire(struct live_series *s, uint64_t before);
/* The samples' statistics (percentiles as the analyzer's, ca_stats_of's
 * linear interpolation); false out of memory. */
bool live_series_stats(const struct live_series *s, struct live_window_stats *out);
void live_series_free(struct live_series *s);

/* The series of that name (looked for at hint first: a look meets its rows
 * in the order the last one did), added with that limit when new; NULL out
 * of memory. */
struct live_series *live_series_named(struct live_series_list *l, size_t hint,
	const char *name, int64_t limit_ns);
/* A callback's series labelled with its node and, when with_host, its
 * process's host (once: a later look names them alike); false out of memory. */
struct ca_architecture;
bool live_series_label_callback(struct live_series *s, const struct ca_architecture *a,
	size_t callback, bool with_host);
/* Every series of the list: samples older than `before` dropped. */
void live_series_list_expire(struct live_series_list *l, uint64_t before);
/* Every series of the list: its counted samples up to floor forgotten. */
void live_series_list_forget(struct live_series_list *l, uint64_t floor);
void live_series_list_free(struct live_series_list *l);

#endif
