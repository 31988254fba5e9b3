/*
 * requirements.c - a requirement's bounds judged over the latencies of
 * its path or callback (requirements.h); the file's entries are read in
 * arch_yaml_read.c with the rest of the file.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ca.h"
#include "requirements.h"

double ca_parse_ratio(const char *text)
{
	char *end;
	if (!text)
		return -1;
	errno = 0;
	double v = strtod(text, &end);
	if (end == text || errno || !isfinite(v))
		return -1;
	while (*end == ' ')
		end++;
	if (*end == '%') {
		v /= 100;
		end++;
	}
	return *end || v < 0 || v > 1 ? -1 : v;
}

void ca_requirements_free(ca_requirement *q, size_t n)
{
	for (size_t i = 0; q && i < n; i++)
		free(q[i].name);
	free(q);
}

size_t ca_deadline_misses(const int64_t *latency, size_t n, int64_t deadline_ns)
{
	size_t over = 0;
	for (size_t i = 0; i < n; i++)
		over += latency[i] > deadline_ns;
	return over;
}

/* The CA_WORST_SHOWN instances of most latency above `above`, most first. */
static void worst_of(const uint64_t *start, const int64_t *latency, size_t n, int64_t above,
	ca_verdict *v)
{
	v->n_worst = 0;
	for (size_t i = 0; i < n; i++) {
		if (latency[i] <= above)
			continue;
		size_t k = v->n_worst < CA_WORST_SHOWN ? v->n_worst++ : CA_WORST_SHOWN;
		/* insert by latency, the earlier first among equals */
		while (k > 0 && v->worst_ns[k - 1] < latency[i]) {
			if (k < CA_WORST_SHOWN) {
				v->worst_ns[k] = v->worst_ns[k - 1];
				v->worst_start[k] = v->worst_start[k - 1];
			}
			k--;
		}
		if (k < CA_WORST_SHOWN) {
			v->worst_ns[k] = latency[i];
			v->worst_start[k] = start[i];
		}
	}
}

size_t ca_requirement_judge(const ca_requirement *q, const uint64_t *start, int64_t *latency,
	size_t n, ca_verdict v[3])
{
	size_t k = 0;
	ca_verdict *deadline = NULL, *p99 = NULL, *max = NULL;
	if (q->deadline_ns > 0)
		*(deadline = &v[k++]) = (ca_verdict){ .bound = CA_BOUND_DEADLINE,
			.limit_ns = q->deadline_ns };
	if (q->p99_ns > 0)
		*(p99 = &v[k++]) = (ca_verdict){ .bound = CA_BOUND_P99, .limit_ns = q->p99_ns };
	if (q->max_ns > 0)
		*(max = &v[k++]) = (ca_verdict){ .bound = CA_BOUND_MAX, .limit_ns = q->max_ns };
	for (size_t i = 0; i < k; i++) {
		v[i].count = n;
		/* the worst instances before the statistics reorder the latencies */
		worst_of(start, latency, n, v[i].bound == CA_BOUND_DEADLINE ? q->deadline_ns :
			INT64_MIN, &v[i]);
	}
	if (!n)
		return k;
	if (deadline) {
		deadline->misses = ca_deadline_misses(latency, n, q->deadline_ns);
		deadline->measured = (double)deadline->misses / (double)n;
		deadline->pass = deadline->measured <= q->miss_ratio;
	}
	ca_stats s;
	if (p99 || max)
		ca_stats_select(latency, n, CA_PERCENTILE_LINEAR, &s);
	if (p99) {
		p99->measured = s.p99;
		p99->pass = s.p99 <= (double)q->p99_ns;
	}
	if (max) {
		max->measured = (double)s.max;
		max->pass = s.max <= q->max_ns;
	}
	return k;
}

/* 2 s, 50 ms, 1.5 ms, 250 us: from a second on in s, from a millisecond
 * in ms, below in us. */
static void duration_text(int64_t ns, char *buf, size_t size)
{
	if (ns >= 1000000000)
		snprintf(buf, size, "%.10g s", (double)ns / 1e9);
	else if (ns >= 1000000)
		snprintf(buf, size, "%.10g ms", (double)ns / 1e6);
	else
		snprintf(buf, size, "%.10g us", (double)ns / 1e3);
}

const char *ca_verdict_name(const ca_requirement *q, ca_bound bound, char *buf, size_t size)
{
	char d[48];
	switch (bound) {
	case CA_BOUND_DEADLINE:
		duration_text(q->deadline_ns, d, sizeof d);
		if (q->has_miss_ratio)
			snprintf(buf, size, "deadline %s, misses <= %.6g%%", d, q->miss_ratio * 100);
		else
			snprintf(buf, size, "deadline %s", d);
		break;
	case CA_BOUND_P99:
		duration_text(q->p99_ns, d, sizeof d);
		snprintf(buf, size, "p99 <= %s", d);
		break;
	case CA_BOUND_MAX:
		duration_text(q->max_ns, d, sizeof d);
		snprintf(buf, size, "max <= %s", d);
		break;
	}
	return buf;
}
