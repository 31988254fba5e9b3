/*
 * compare.c - two sides matched by kind and name, each pair's statistics,
 * differences with their intervals, the rank test, the correction over
 * every pair tested and the verdict (docs/compare.md).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compare.h"
#include "sort_r.h"

struct ca_cmp_result {
	ca_cmp_row *rows;
	size_t n_rows, common, tests;
};

ca_cmp_settings ca_cmp_defaults(void)
{
	return (ca_cmp_settings){ .alpha = 0.01, .correction = CA_CMP_HOLM,
		.min_change_ratio = 0.10, .min_change_ns = 500000, .runs_min_change_ratio = 0.05,
		.runs_min_change_ns = 50000, .min_count = 10,
		.replicates = 2000, .confidence = 0.95, .seed = 46,
		.percentiles = CA_PERCENTILE_LINEAR };
}

const char *ca_cmp_verdict_name(ca_cmp_verdict v)
{
	static const char *const names[] = { "slower", "faster", "no change", "too few",
		"base only", "new only" };
	return v <= CA_CMP_NEW_ONLY ? names[v] : "?";
}

/* An object's latencies sorted, into *out (grown as needed), with stats. */
static bool sorted_latencies(const ca_cmp_object *o, int64_t **out, size_t *cap,
	ca_percentile_method m, ca_stats *stats)
{
	if (o->n + 1 > *cap) {
		int64_t *more = realloc(*out, (o->n + 1) * sizeof *more);
		if (!more)
			return false;
		*out = more;
		*cap = o->n + 1;
	}
	for (size_t i = 0; i < o->n; i++)
		(*out)[i] = o->instances[i].latency;
	ca_stats_of(*out, o->n, m, stats);
	return true;
}

/* The seed of one object: the settings' mixed with its kind and name, so
 * that its intervals do not depend on the objects compared with it. */
static uint64_t object_seed(uint64_t seed, ca_cmp_kind kind, const char *name)
{
	uint64_t h = 14695981039346656037ull ^ seed ^ ((uint64_t)kind << 56);
	for (const unsigned char *p = (const unsigned char *)name; *p; p++)
		h = (h ^ *p) * 1099511628211ull;
	return h;
}

static const unsigned percentile_of[CA_CMP_DIFFS] = { 0, 50, 90, 99 };

static double stat_of(const ca_stats *s, ca_cmp_stat k)
{
	return k == CA_CMP_MEAN ? s->mean : k == CA_CMP_P50 ? s->p50 : k == CA_CMP_P90 ? s->p90 :
		s->p99;
}

/* The differences, their intervals and the rank test of a row on both
 * sides (a and b: the sorted latencies of base and new). */
static void test_row(ca_cmp_row *r, const int64_t *a, const int64_t *b,
	const ca_cmp_settings *s)
{
	size_t na = r->base->n, nb = r->new_->n;
	for (int k = 0; k < CA_CMP_DIFFS; k++)
		r->diff[k] = (ca_cmp_diff){ stat_of(&r->stats[1], (ca_cmp_stat)k) -
			stat_of(&r->stats[0], (ca_cmp_stat)k), NAN, NAN, false };
	r->u = r->prob_slower = r->z = r->p = r->p_adjusted = NAN;
	r->threshold = fmax(s->min_change_ratio * fabs(r->stats[0].p50), (double)s->min_change_ns);
	if (na < s->min_count || nb < s->min_count || !na || !nb) {
		r->verdict = CA_CMP_TOO_FEW;
		return;
	}
	ca_cmp_rng g;
	ca_cmp_rng_seed(&g, object_seed(s->seed, r->kind, r->name));
	for (int k = CA_CMP_P50; k < CA_CMP_DIFFS; k++)
		ca_cmp_bootstrap_percentile(a, na, b, nb, percentile_of[k], s->percentiles,
			s->replicates, s->confidence, &g, &r->diff[k].low, &r->diff[k].high);
	ca_cmp_mean_interval(a, na, b, nb, s->confidence, &r->diff[CA_CMP_MEAN].low,
		&r->diff[CA_CMP_MEAN].high);
	for (int k = 0; k < CA_CMP_DIFFS; k++)
		r->diff[k].has_ci = !isnan(r->diff[k].low);
	ca_cmp_mann_whitney(a, na, b, nb, &r->u, &r->z, &r->p);
	r->prob_slower = r->u / ((double)na * (double)nb);
	r->verdict = CA_CMP_NO_CHANGE; /* until the correction says otherwise */
}

static int by_number(const void *x, const void *y, void *ctx)
{
	double a = ((const double *)ctx)[*(const size_t *)x];
	double b = ((const double *)ctx)[*(const size_t *)y];
	return (a > b) - (a < b);
}

/* The p-values p[0..n) that are not NAN corrected for their number, into
 * adjusted; false out of memory. */
static bool correct(const double *p, double *adjusted, size_t n, ca_cmp_correction c)
{
	size_t *order = malloc((n + 1) * sizeof *order), k = 0;
	if (!order)
		return false;
	for (size_t i = 0; i < n; i++)
		if (!isnan(p[i]))
			order[k++] = i;
	caret_sort_r(order, k, sizeof *order, by_number, (void *)p);
	double running = 0;
	for (size_t j = 0; j < k; j++) {
		double factor = c == CA_CMP_HOLM ? (double)(k - j) : c == CA_CMP_BONFERRONI ?
			(double)k : 1;
		double v = fmin(1, p[order[j]] * factor);
		/* Holm's adjusted p-values never decrease along the order */
		running = c == CA_CMP_HOLM ? fmax(running, v) : v;
		adjusted[order[j]] = running;
	}
	free(order);
	return true;
}

/* Both the rank tests' and the run-level tests' p corrected. */
static bool correct_rows(ca_cmp_row *rows, size_t n, ca_cmp_correction c)
{
	double *p = malloc(4 * (n + 1) * sizeof *p);
	if (!p)
		return false;
	for (size_t i = 0; i < n; i++) {
		p[i] = rows[i].p;
		p[2 * n + i] = rows[i].run_p;
	}
	bool ok = correct(p, p + n, n, c) && correct(p + 2 * n, p + 3 * n, n, c);
	for (size_t i = 0; ok && i < n; i++) {
		rows[i].p_adjusted = isnan(rows[i].p) ? NAN : p[n + i];
		rows[i].run_p_adjusted = isnan(rows[i].run_p) ? NAN : p[3 * n + i];
	}
	free(p);
	return ok;
}

/* The p50 of each run of o with min_count instances or more, into
 * p50s (room for the side's traces); how many. buf: room for o->n. */
static size_t run_p50s(const ca_cmp_object *o, const ca_cmp_settings *s, int64_t *buf,
	double *p50s)
{
	size_t runs = 0;
	for (size_t i = 0; i < o->n;) {
		size_t j = i, k = 0;
		for (; j < o->n && o->instances[j].trace == o->instances[i].trace; j++)
			buf[k++] = o->instances[j].latency;
		if (k >= s->min_count) {
			ca_stats st;
			ca_stats_of(buf, k, s->percentiles, &st);
			p50s[runs++] = st.p50;
		}
		i = j;
	}
	return runs;
}

/* The run-level change of a row (run_level.c), when both sides have two
 * runs or more; false out of memory. */
static bool run_level(ca_cmp_row *r, const ca_cmp_settings *s)
{
	size_t most = r->base->n > r->new_->n ? r->base->n : r->new_->n;
	int64_t *buf = malloc((most + 1) * sizeof *buf);
	double *a = malloc((r->base->n + 1) * sizeof *a), *b = malloc((r->new_->n + 1) * sizeof *b);
	bool ok = buf && a && b;
	if (ok) {
		r->runs[0] = run_p50s(r->base, s, buf, a);
		r->runs[1] = run_p50s(r->new_, s, buf, b);
		if (r->runs[0] >= 2 && r->runs[1] >= 2) {
			ca_cmp_welch(a, r->runs[0], b, r->runs[1], s->confidence, &r->run_diff,
				&r->run_p);
			/* the runs' drift tested: the threshold for runs */
			r->threshold = fmax(s->runs_min_change_ratio * fabs(r->stats[0].p50),
				(double)s->runs_min_change_ns);
		}
	}
	free(buf);
	free(a);
	free(b);
	return ok;
}

/* Slower or faster: significant after the correction, the median moved by
 * the practical threshold at least, its interval away from 0, and the
 * rank test and the median agreeing on the direction. */
static void decide(ca_cmp_row *r, const ca_cmp_settings *s)
{
	if (r->verdict != CA_CMP_NO_CHANGE || !(r->p_adjusted < s->alpha))
		return;
	/* with runs on both sides, the runs must say so too */
	const ca_cmp_diff *d = &r->diff[CA_CMP_P50], *runs = &r->run_diff;
	if (runs->has_ci && !(r->run_p_adjusted < s->alpha))
		return;
	if (d->value >= r->threshold && d->low > 0 && r->prob_slower > 0.5 &&
	    (!runs->has_ci || runs->low > 0))
		r->verdict = CA_CMP_SLOWER;
	else if (-d->value >= r->threshold && d->high < 0 && r->prob_slower < 0.5 &&
		 (!runs->has_ci || runs->high < 0))
		r->verdict = CA_CMP_FASTER;
}

static int by_verdict_kind_name(const void *x, const void *y, void *ctx)
{
	const ca_cmp_row *a = x, *b = y;
	(void)ctx;
	if (a->verdict != b->verdict)
		return a->verdict < b->verdict ? -1 : 1;
	if (a->kind != b->kind)
		return a->kind < b->kind ? -1 : 1;
	return strcmp(a->name, b->name);
}

static int by_kind_name(const ca_cmp_object *a, const ca_cmp_object *b)
{
	if (a->kind != b->kind)
		return a->kind < b->kind ? -1 : 1;
	return strcmp(a->name, b->name);
}

/* Rows of both sides merged by kind and name (tests not run yet). */
static ca_cmp_row *match(const ca_cmp_object *a, size_t na, const ca_cmp_object *b, size_t nb,
	size_t *n, size_t *common)
{
	ca_cmp_row *rows = calloc(na + nb + 1, sizeof *rows);
	size_t i = 0, j = 0, k = 0;
	*common = 0;
	while (rows && (i < na || j < nb)) {
		int c = i >= na ? 1 : j >= nb ? -1 : by_kind_name(&a[i], &b[j]);
		ca_cmp_row *r = &rows[k++];
		r->base = c <= 0 ? &a[i++] : NULL;
		r->new_ = c >= 0 ? &b[j++] : NULL;
		r->kind = r->base ? r->base->kind : r->new_->kind;
		r->name = r->base ? r->base->name : r->new_->name;
		r->verdict = !r->new_ ? CA_CMP_BASE_ONLY : !r->base ? CA_CMP_NEW_ONLY :
			CA_CMP_NO_CHANGE;
		*common += r->base && r->new_;
	}
	*n = k;
	return rows;
}

ca_cmp_result *ca_cmp_compare(ca_cmp_side *base, ca_cmp_side *new_, const ca_cmp_settings *s,
	char *err, size_t err_size)
{
	const ca_cmp_object *a, *b;
	size_t na = ca_cmp_side_objects(base, &a), nb = ca_cmp_side_objects(new_, &b);
	ca_cmp_result *res = calloc(1, sizeof *res);
	int64_t *x = NULL, *y = NULL;
	size_t cap_x = 0, cap_y = 0;
	bool ok = res && (res->rows = match(a, na, b, nb, &res->n_rows, &res->common));
	for (size_t i = 0; ok && i < res->n_rows; i++) {
		ca_cmp_row *r = &res->rows[i];
		for (int k = 0; k < CA_CMP_DIFFS; k++)
			r->diff[k] = (ca_cmp_diff){ NAN, NAN, NAN, false };
		r->u = r->prob_slower = r->z = r->p = r->p_adjusted = r->threshold = NAN;
		r->run_diff = (ca_cmp_diff){ NAN, NAN, NAN, false };
		r->run_p = r->run_p_adjusted = NAN;
		if (r->base && !sorted_latencies(r->base, &x, &cap_x, s->percentiles, &r->stats[0]))
			ok = false;
		else if (r->new_ && !sorted_latencies(r->new_, &y, &cap_y, s->percentiles,
			&r->stats[1]))
			ok = false;
		else if (r->base && r->new_) {
			test_row(r, x, y, s);
			res->tests += !isnan(r->p);
			ok = isnan(r->p) || run_level(r, s);
		}
	}
	free(x);
	free(y);
	if (ok && !correct_rows(res->rows, res->n_rows, s->correction))
		ok = false;
	if (!ok) {
		snprintf(err, err_size, "out of memory");
		ca_cmp_result_free(res);
		return NULL;
	}
	for (size_t i = 0; i < res->n_rows; i++)
		decide(&res->rows[i], s);
	caret_sort_r(res->rows, res->n_rows, sizeof *res->rows, by_verdict_kind_name, NULL);
	return res;
}

size_t ca_cmp_result_rows(const ca_cmp_result *r, const ca_cmp_row **rows)
{
	*rows = r ? r->rows : NULL;
	return r ? r->n_rows : 0;
}

size_t ca_cmp_result_common(const ca_cmp_result *r)
{
	return r ? r->common : 0;
}

size_t ca_cmp_result_tests(const ca_cmp_result *r)
{
	return r ? r->tests : 0;
}

void ca_cmp_result_free(ca_cmp_result *r)
{
	if (!r)
		return;
	free(r->rows);
	free(r);
}
