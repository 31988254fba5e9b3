/*
 * compare.h - two recordings (or two sets of runs) of one system compared:
 * `caret compare` and the report's A/B view build on this. Internal to
 * libcaret-analyze (not installed).
 *
 * A side is one or several traces. Gathering a trace adds its objects to
 * the side: every callback (its runs' latency), communication (topic and
 * delivery), node path and, with an architecture file, every named path,
 * each with its instances as (start, latency) pairs and the trace they
 * came from, made by the code `caret latency` and `caret path latency` use.
 * Comparing two sides matches objects by kind and name, gives each side's
 * statistics, the difference NEW - BASE of the mean and of p50, p90, p99
 * with a bootstrap confidence interval, a Mann-Whitney U test and a
 * verdict (docs/compare.md says how and why).
 *
 * Ownership: a side owns its objects and names (ca_cmp_side_free); a
 * result points into both sides, which must outlive it.
 */
#ifndef CA_COMPARE_H
#define CA_COMPARE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ca.h"

/* What an object is; each kind named as the verbs name it. */
typedef enum ca_cmp_kind {
	CA_CMP_CALLBACK, /* "/ns/node/callback_N" (caret latency callbacks) */
	CA_CMP_TOPIC,    /* "/topic inter" or "/topic intra" (caret latency topics) */
	CA_CMP_NODE,     /* "/ns/node/callback_N /in -> /out" (caret latency nodes) */
	CA_CMP_PATH,     /* the architecture file's path name (caret path latency) */
	CA_CMP_KINDS
} ca_cmp_kind;

/* "callback", "topic", "node", "path" (what --fail-on and --kinds say). */
const char *ca_cmp_kind_name(ca_cmp_kind kind);
/* The kind of such a name (singular or plural: "paths"); false if none. */
bool ca_cmp_kind_of_name(const char *name, ca_cmp_kind *kind);

/* One instance: when it began (its trace's clock, ns: a run's start, a
 * message's publish, a node path's run start, a path message's start
 * under the default span) and its latency (ns); trace: the index of the
 * trace of its side it came from (ca_cmp_side_trace). */
typedef struct ca_cmp_instance {
	uint64_t start;
	int64_t latency;
	uint32_t trace;
} ca_cmp_instance;

/* An object of a side: its instances by trace, then start. */
typedef struct ca_cmp_object {
	ca_cmp_kind kind;
	const char *name;
	const ca_cmp_instance *instances;
	size_t n;
} ca_cmp_object;

typedef struct ca_cmp_side ca_cmp_side;

ca_cmp_side *ca_cmp_side_new(void);
void ca_cmp_side_free(ca_cmp_side *side);

/* What gathering takes from a trace. */
typedef struct ca_cmp_gather_options {
	/* an architecture file whose named paths are followed (the default
	 * policy, use_latest_message, and span, as caret path latency's);
	 * NULL: no path */
	const char *arch_file;
	/* the kinds taken, a mask of 1u << ca_cmp_kind; 0: every kind */
	unsigned kinds;
	/* the tracer's own and the other hidden callbacks, and the topics
	 * every node has (/parameter_events, /rosout, /clock), too */
	bool all;
} ca_cmp_gather_options;

/* Loads the traces under paths as one recording (o: reader, window,
 * merge; its records fields are set here) and adds its objects to side as
 * trace number ca_cmp_side_traces(side) (the records the objects need
 * ride the load's pass). 0, or -1 with err ("cannot read trace: ...";
 * the side keeps what it had). */
int ca_cmp_side_load(ca_cmp_side *side, const char *const *paths, size_t n_paths,
	const ca_load_options *o, const ca_cmp_gather_options *g, char *err, size_t err_size);
/* The same for a trace loaded already (records built in passes of their
 * own); label names it (ca_cmp_side_trace). */
int ca_cmp_side_gather(ca_cmp_side *side, const ca_trace *trace, const char *label,
	const ca_cmp_gather_options *g, char *err, size_t err_size);

/* The traces added: their number, and of trace i its label (the paths
 * given, joined by ", ") and the span of its events (trace clock, ns). */
size_t ca_cmp_side_traces(const ca_cmp_side *side);
const char *ca_cmp_side_trace(const ca_cmp_side *side, size_t i, uint64_t *first,
	uint64_t *last);

/* The side's objects, by kind, then name; each name once (instances of
 * every trace pooled). Valid until the side is changed or freed. */
size_t ca_cmp_side_objects(ca_cmp_side *side, const ca_cmp_object **objects);
/* One object by kind and name, or NULL. */
const ca_cmp_object *ca_cmp_side_find(ca_cmp_side *side, ca_cmp_kind kind, const char *name);

/* ---- the comparison ------------------------------------------------------- */

/* How p-values are corrected for the objects compared at once. */
typedef enum ca_cmp_correction {
	CA_CMP_HOLM,       /* Holm-Bonferroni (the default): step-down */
	CA_CMP_BONFERRONI, /* each p times the number of tests */
	CA_CMP_NONE,
} ca_cmp_correction;

typedef struct ca_cmp_settings {
	double alpha;              /* significance after correction (0.01) */
	ca_cmp_correction correction;
	/* the practical threshold: a change smaller than either is no change
	 * (a fraction of the base p50, and ns): max(ratio * base p50, ns)
	 * (docs/compare.md: measured) */
	double min_change_ratio;   /* 0.10 */
	int64_t min_change_ns;     /* 500 us */
	/* the same, for an object with two runs or more on each side (the
	 * runs' own drift tested: run_diff): 0.05, 50 us */
	double runs_min_change_ratio;
	int64_t runs_min_change_ns;
	size_t min_count;          /* fewer instances on a side: too few (10) */
	size_t replicates;         /* bootstrap replicates (2000) */
	double confidence;         /* of the intervals (0.95) */
	uint64_t seed;             /* of the bootstrap (results reproduce) */
	ca_percentile_method percentiles;
} ca_cmp_settings;

ca_cmp_settings ca_cmp_defaults(void);

typedef enum ca_cmp_verdict {
	CA_CMP_SLOWER,
	CA_CMP_FASTER,
	CA_CMP_NO_CHANGE,
	CA_CMP_TOO_FEW,   /* a side has fewer than min_count instances */
	CA_CMP_BASE_ONLY, /* not in NEW */
	CA_CMP_NEW_ONLY,  /* not in BASE */
} ca_cmp_verdict;

/* "slower", "faster", "no change", "too few", "base only", "new only" */
const char *ca_cmp_verdict_name(ca_cmp_verdict v);

/* The statistics a difference is given for, with its interval. */
typedef enum ca_cmp_stat {
	CA_CMP_MEAN, CA_CMP_P50, CA_CMP_P90, CA_CMP_P99, CA_CMP_DIFFS
} ca_cmp_stat;

/* NEW - BASE of one statistic (ns) and its confidence interval [low,
 * high]; has_ci false (low, high NAN) when a side has too few instances. */
typedef struct ca_cmp_diff {
	double value, low, high;
	bool has_ci;
} ca_cmp_diff;

typedef struct ca_cmp_row {
	ca_cmp_kind kind;
	const char *name;
	const ca_cmp_object *base, *new_; /* NULL: not on that side */
	ca_stats stats[2];                /* [0] base, [1] new (all 0 when missing) */
	ca_cmp_diff diff[CA_CMP_DIFFS];
	/* Mann-Whitney: U of NEW over BASE (pairs where the NEW instance is
	 * slower, ties a half), P(new > base) = u / (n_base n_new), z, the
	 * two-sided p-value and the one corrected; NAN without a test */
	double u, prob_slower, z, p, p_adjusted;
	double threshold;                 /* the practical threshold, ns */
	/* The runs (traces) of each side with min_count instances or more;
	 * when both sides have 2 or more, the change of the mean of their
	 * runs' p50s with Welch's interval (run_diff; else has_ci false), its
	 * p-value and the one corrected (else NAN): run_level.c. */
	size_t runs[2];
	ca_cmp_diff run_diff;
	double run_p, run_p_adjusted;
	ca_cmp_verdict verdict;
} ca_cmp_row;

typedef struct ca_cmp_result ca_cmp_result;

/* Compares every object of base and new_: rows in the order a reader
 * wants them (slower, faster, no change, too few, base only, new only;
 * within each, by kind then name). NULL with err when out of memory. */
ca_cmp_result *ca_cmp_compare(ca_cmp_side *base, ca_cmp_side *new_, const ca_cmp_settings *s,
	char *err, size_t err_size);
size_t ca_cmp_result_rows(const ca_cmp_result *r, const ca_cmp_row **rows);
/* The objects on both sides; of those, the ones tested (enough instances
 * on each side: the number the rank tests' correction counts). */
size_t ca_cmp_result_common(const ca_cmp_result *r);
size_t ca_cmp_result_tests(const ca_cmp_result *r);
void ca_cmp_result_free(ca_cmp_result *r);

/* ---- the statistics, on their own (rank_test.c, bootstrap.c, run_level.c) -- */

/* Mann-Whitney U of b over a (sorted ascending, n_a and n_b > 0): u (pairs
 * where b's is greater, ties a half), z with the tie correction and a
 * continuity correction, two-sided p from the normal approximation. */
void ca_cmp_mann_whitney(const int64_t *a, size_t n_a, const int64_t *b, size_t n_b, double *u,
	double *z, double *p);

/* A seeded generator (xoshiro256**), for reproducible bootstraps. */
typedef struct ca_cmp_rng {
	uint64_t s[4];
} ca_cmp_rng;
void ca_cmp_rng_seed(ca_cmp_rng *g, uint64_t seed);
uint64_t ca_cmp_rng_next(ca_cmp_rng *g);
double ca_cmp_rng_uniform(ca_cmp_rng *g); /* in (0, 1) */
double ca_cmp_rng_normal(ca_cmp_rng *g);
double ca_cmp_rng_beta(ca_cmp_rng *g, double a, double b);

/* The percentile p (0-100) of a sorted sample as ca_stats_of takes it. */
double ca_cmp_percentile(const int64_t *sorted, size_t n, unsigned p, ca_percentile_method m);
/* A percentile bootstrap interval of percentile p of b minus that of a
 * (both sorted, non-empty): `replicates` resamples of each, drawn as the
 * order statistics a resample would have (docs/compare.md), the
 * (1 - confidence) / 2 and (1 + confidence) / 2 quantiles of the
 * differences. */
void ca_cmp_bootstrap_percentile(const int64_t *a, size_t n_a, const int64_t *b, size_t n_b,
	unsigned p, ca_percentile_method m, size_t replicates, double confidence, ca_cmp_rng *g,
	double *low, double *high);
/* The interval of the difference of the means (normal approximation,
 * unequal variances). */
void ca_cmp_mean_interval(const int64_t *a, size_t n_a, const int64_t *b, size_t n_b,
	double confidence, double *low, double *high);

/* Welch's t on two samples of run statistics (n_a, n_b >= 2): the change
 * of the means b - a with its interval, and the two-sided p-value. */
void ca_cmp_welch(const double *a, size_t n_a, const double *b, size_t n_b, double confidence,
	ca_cmp_diff *d, double *p);
/* Student's t distribution with df degrees of freedom: its CDF, and its
 * quantile at q. */
double ca_cmp_t_cdf(double t, double df);
double ca_cmp_t_quantile(double q, double df);

#endif
