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
		.min_change_ratio = 0.05, .min_change_ns = 20000, .min_count = 10,
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

static int by_p(const void *x, const void *y, void *ctx)
{
	const ca_cmp_row *rows = ctx;
	double a = rows[*(const size_t *)x].p, b = rows[*(const size_t *)y].p;
	return (a > b) - (a < b);
}

/* Each tested row's p corrected for the number of tests. */
static bool correct(ca_cmp_row *rows, size_t n, size_t tests, ca_cmp_correction c)
{
	size_t *order = malloc((tests + 1) * sizeof *order), k = 0;
	if (!order)
		return false;
	for (size_t i = 0; i < n; i++)
		if (!isnan(rows[i].p))
			order[k++] = i;
	caret_sort_r(order, k, sizeof *order, by_p, rows);
	double running = 0;
	for (size_t j = 0; j < k; j++) {
		ca_cmp_row *r = &rows[order[j]];
		double factor = c == CA_CMP_HOLM ? (double)(k - j) : c == CA_CMP_BONFERRONI ?
			(double)k : 1;
		double adjusted = fmin(1, r->p * factor);
		/* Holm's adjusted p-values never decrease along the order */
		running = c == CA_CMP_HOLM ? fmax(running, adjusted) : adjusted;
		r->p_adjusted = running;
	}
	free(order);
	return true;
}

/* Slower or faster: significant after the correction, the median moved by
 * the practical threshold at least, its interval away from 0, and the
 * rank test and the median agreeing on the direction. */
static void decide(ca_cmp_row *r, const ca_cmp_settings *s)
{
	if (r->verdict != CA_CMP_NO_CHANGE || !(r->p_adjusted < s->alpha))
		return;
	const ca_cmp_diff *d = &r->diff[CA_CMP_P50];
	if (d->value >= r->threshold && d->low > 0 && r->prob_slower > 0.5)
		r->verdict = CA_CMP_SLOWER;
	else if (-d->value >= r->threshold && d->high < 0 && r->prob_slower < 0.5)
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
		if (r->base && !sorted_latencies(r->base, &x, &cap_x, s->percentiles, &r->stats[0]))
			ok = false;
		else if (r->new_ && !sorted_latencies(r->new_, &y, &cap_y, s->percentiles,
			&r->stats[1]))
			ok = false;
		else if (r->base && r->new_) {
			test_row(r, x, y, s);
			res->tests += !isnan(r->p);
		}
	}
	free(x);
	free(y);
	if (ok && !correct(res->rows, res->n_rows, res->tests, s->correction))
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
