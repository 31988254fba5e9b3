/*
 * requirements.h - the requirements of an architecture file (its
 * deadlines: key, caret-c's own; the original CARET passes over it): per
 * named path or callback, a deadline on each instance with the share of
 * instances allowed over it, and bounds on the 99th percentile and the
 * maximum of its latency. caret check --requirements judges them on a
 * trace, caret report draws them, caret live watches the paths'
 * deadlines (docs/requirements.md).
 */
#ifndef CA_REQUIREMENTS_H
#define CA_REQUIREMENTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* What a requirement is on: a named path of the file (its end-to-end
 * latency as caret path latency counts it), or a callback by the name the
 * verbs print (its runs' end - start, as caret latency callbacks). */
typedef enum ca_requirement_object {
	CA_REQUIREMENT_PATH,
	CA_REQUIREMENT_CALLBACK,
} ca_requirement_object;

typedef struct ca_requirement {
	ca_requirement_object object;
	char *name;
	int64_t deadline_ns;  /* 0: none */
	double miss_ratio;    /* share allowed over the deadline (0 unless given) */
	bool has_miss_ratio;
	int64_t p99_ns, max_ns; /* 0: none */
	size_t line;          /* of the entry in the file */
} ca_requirement;

/* The file's requirements, in its order, checked as caret arch --check
 * checks them: 0 with *out (ca_requirements_free) and *n (0 when the file
 * has no deadlines: key), or -1 with err (file:line: why). */
int ca_arch_file_requirements(const char *path, ca_requirement **out, size_t *n, char *err,
	size_t err_size);
void ca_requirements_free(ca_requirement *q, size_t n);

/* "0.01", "1%", "0.5 %": the share in [0, 1]; -1 for anything else. */
double ca_parse_ratio(const char *text);

/* One bound of a requirement judged over the instances of its object. */
typedef enum ca_bound {
	CA_BOUND_DEADLINE, /* instances over deadline_ns: at most miss_ratio of them */
	CA_BOUND_P99,      /* the 99th percentile (numpy's linear) at most p99_ns */
	CA_BOUND_MAX,      /* the maximum at most max_ns */
} ca_bound;

#define CA_WORST_SHOWN 3

typedef struct ca_verdict {
	ca_bound bound;
	bool pass;
	int64_t limit_ns;     /* the deadline, p99 or max bound */
	double measured;      /* ns (p99, max); the share over the deadline */
	size_t count, misses; /* instances; those over the deadline */
	/* the instances of most latency (over the deadline, for a deadline),
	 * most first: their start (trace clock, ns) and latency */
	size_t n_worst;
	uint64_t worst_start[CA_WORST_SHOWN];
	int64_t worst_ns[CA_WORST_SHOWN];
} ca_verdict;

/* The verdicts of q's bounds (one each it sets, in the order deadline,
 * p99, max; at most 3, into v) over n instances: their starts and
 * latencies, in any order (latency is reordered). n 0: every verdict
 * fails with count 0. Returns how many. */
size_t ca_requirement_judge(const ca_requirement *q, const uint64_t *start, int64_t *latency,
	size_t n, ca_verdict v[3]);

/* How many of the n latencies are over deadline_ns. */
size_t ca_deadline_misses(const int64_t *latency, size_t n, int64_t deadline_ns);

/* "deadline 50 ms", "deadline 50 ms, misses ≤ 1%", "p99 ≤ 40 ms",
 * "max ≤ 80 ms": the bound as a requirement names it, into buf. */
const char *ca_verdict_name(const ca_requirement *q, ca_bound bound, char *buf, size_t size);

/* The file caret live --snapshot-on-miss writes beside a snapshot's
 * trace: the misses it was written for, one JSON line each (the line
 * caret live --json prints); caret report marks them (docs/live.md). */
#define CA_SNAPSHOT_MISS_FILE "caret-live-miss.json"

#endif
