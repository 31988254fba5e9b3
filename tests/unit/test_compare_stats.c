/* test_compare_stats.c - caret compare's statistics (src/analyze/compare):
 * the Mann-Whitney test against values worked out by hand, the bootstrap
 * interval covering a known shift and reproducing from its seed, the
 * generator's Beta draws, and the verdicts of two sides built by hand. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "compare.h"
#include "side.h"

static void mann_whitney_of_separated_samples(void **state)
{
	(void)state;
	/* every b above every a: U = 9; mean 4.5, variance 3*3*7/12 = 5.25;
	 * z = (9 - 4.5 - 0.5) / sqrt(5.25) = 1.74574, p = 0.080856 (scipy's
	 * mannwhitneyu, asymptotic with continuity, says the same) */
	const int64_t a[] = { 1, 2, 3 }, b[] = { 4, 5, 6 };
	double u, z, p;
	ca_cmp_mann_whitney(a, 3, b, 3, &u, &z, &p);
	assert_true(u == 9);
	assert_true(fabs(z - 1.7457431) < 1e-6);
	assert_true(fabs(p - 0.0808556) < 1e-6);
	/* the other way round: U = 0, the same p, z negative */
	ca_cmp_mann_whitney(b, 3, a, 3, &u, &z, &p);
	assert_true(u == 0);
	assert_true(fabs(z + 1.7457431) < 1e-6);
	assert_true(fabs(p - 0.0808556) < 1e-6);
}

static void mann_whitney_with_ties(void **state)
{
	(void)state;
	/* a = 1 2 2 3, b = 2 3 3 4: U of b = (1 + 2 * 0.5) + 2 * (3 + 0.5) + 4
	 * = 13; ties of 3 at 2 and at 3: sum t^3 - t = 48; variance 16 / 12 *
	 * (9 - 48 / 56) = 10.857143; z = 4.5 / sqrt(10.857143) = 1.365698;
	 * p = 0.172034 */
	const int64_t a[] = { 1, 2, 2, 3 }, b[] = { 2, 3, 3, 4 };
	double u, z, p;
	ca_cmp_mann_whitney(a, 4, b, 4, &u, &z, &p);
	assert_true(u == 13);
	assert_true(fabs(z - 1.365698) < 1e-6);
	assert_true(fabs(p - 0.172034) < 1e-6);
	/* all equal: no evidence, p 1 */
	const int64_t c[] = { 7, 7, 7 };
	ca_cmp_mann_whitney(c, 3, c, 3, &u, &z, &p);
	assert_true(u == 4.5 && z == 0 && p == 1);
}

static void beta_draws_have_their_mean(void **state)
{
	(void)state;
	ca_cmp_rng g;
	ca_cmp_rng_seed(&g, 1);
	double sum = 0, small = 0;
	for (int i = 0; i < 20000; i++) {
		sum += ca_cmp_rng_beta(&g, 3, 7);
		small += ca_cmp_rng_beta(&g, 0.5, 0.5);
	}
	assert_true(fabs(sum / 20000 - 0.3) < 0.005);
	assert_true(fabs(small / 20000 - 0.5) < 0.01);
}

static int by_value(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
	return (x > y) - (x < y);
}

/* n values of a normal(mean, sd) latency, sorted. */
static int64_t *normal_sample(ca_cmp_rng *g, size_t n, double mean, double sd)
{
	int64_t *v = malloc(n * sizeof *v);
	assert_non_null(v);
	for (size_t i = 0; i < n; i++)
		v[i] = (int64_t)(mean + sd * ca_cmp_rng_normal(g));
	qsort(v, n, sizeof *v, by_value);
	return v;
}

static void bootstrap_interval_covers_a_known_shift(void **state)
{
	(void)state;
	ca_cmp_rng data, boot;
	ca_cmp_rng_seed(&data, 7);
	/* 1 ms latencies, 0.1 ms spread; the new ones 0.3 ms later */
	int64_t *a = normal_sample(&data, 400, 1e6, 1e5), *b = normal_sample(&data, 500, 1.3e6, 1e5);
	int covered = 0;
	for (int trial = 0; trial < 20; trial++) {
		double low, high;
		ca_cmp_rng_seed(&boot, (uint64_t)trial);
		ca_cmp_bootstrap_percentile(a, 400, b, 500, 50, CA_PERCENTILE_LINEAR, 2000, 0.95, &boot,
			&low, &high);
		/* about +-2 * 1.25 * 0.1 ms / sqrt(450) * sqrt(2): 17 us each side */
		assert_true(low > 0 && high - low < 60e3 && high - low > 10e3);
		covered += low < 3e5 && 3e5 < high;
	}
	assert_true(covered >= 17); /* a 95 % interval: seldom misses */
	/* the p99's interval is wider than the median's */
	double l50, h50, l99, h99;
	ca_cmp_rng_seed(&boot, 1);
	ca_cmp_bootstrap_percentile(a, 400, b, 500, 50, CA_PERCENTILE_LINEAR, 2000, 0.95, &boot,
		&l50, &h50);
	ca_cmp_bootstrap_percentile(a, 400, b, 500, 99, CA_PERCENTILE_LINEAR, 2000, 0.95, &boot,
		&l99, &h99);
	assert_true(h99 - l99 > h50 - l50);
	/* the mean's: around 3e5 */
	ca_cmp_mean_interval(a, 400, b, 500, 0.95, &l50, &h50);
	assert_true(l50 < 3e5 && 3e5 < h50 && h50 - l50 < 40e3);
	free(a);
	free(b);
}

static void bootstrap_reproduces_from_its_seed(void **state)
{
	(void)state;
	ca_cmp_rng data, g1, g2;
	ca_cmp_rng_seed(&data, 3);
	int64_t *a = normal_sample(&data, 300, 2e5, 3e4), *b = normal_sample(&data, 300, 2e5, 3e4);
	double l1, h1, l2, h2;
	ca_cmp_rng_seed(&g1, 46);
	ca_cmp_rng_seed(&g2, 46);
	ca_cmp_bootstrap_percentile(a, 300, b, 300, 90, CA_PERCENTILE_LINEAR, 1000, 0.95, &g1, &l1,
		&h1);
	ca_cmp_bootstrap_percentile(a, 300, b, 300, 90, CA_PERCENTILE_LINEAR, 1000, 0.95, &g2, &l2,
		&h2);
	assert_true(l1 == l2 && h1 == h2);
	/* no shift: the interval holds 0 */
	assert_true(l1 < 0 && 0 < h1);
	ca_cmp_rng_seed(&g2, 47);
	ca_cmp_bootstrap_percentile(a, 300, b, 300, 90, CA_PERCENTILE_LINEAR, 1000, 0.95, &g2, &l2,
		&h2);
	assert_true(l1 != l2 || h1 != h2);
	free(a);
	free(b);
}

/* An object of n normal latencies into side's last trace. */
static void add_object(ca_cmp_side *side, ca_cmp_rng *g, ca_cmp_kind kind, const char *name,
	size_t n, double mean, double sd)
{
	uint64_t *starts = malloc((n + 1) * sizeof *starts);
	int64_t *lat = malloc((n + 1) * sizeof *lat);
	assert_true(starts && lat);
	for (size_t i = 0; i < n; i++) {
		starts[i] = 1000000000ull + 20000000ull * i;
		lat[i] = (int64_t)(mean + sd * ca_cmp_rng_normal(g));
	}
	assert_int_equal(cmp_side_add(side, kind, name, starts, lat, n), 0);
	free(starts);
	free(lat);
}

static const ca_cmp_row *row_named(const ca_cmp_row *rows, size_t n, const char *name)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(rows[i].name, name))
			return &rows[i];
	fail_msg("no row %s", name);
	return NULL;
}

static void sides_compared_by_name(void **state)
{
	(void)state;
	ca_cmp_side *base = ca_cmp_side_new(), *new_ = ca_cmp_side_new();
	ca_cmp_rng g;
	ca_cmp_rng_seed(&g, 11);
	assert_int_equal(cmp_side_add_trace(base, "base", 0, 1), 0);
	assert_int_equal(cmp_side_add_trace(new_, "new", 0, 1), 0);
	/* unchanged; 1 ms slower; 0.5 ms faster; a shift under the threshold
	 * (5 % of 1 ms: 50 us; this one 10 us, significant with 5000 each);
	 * too few; one side only */
	add_object(base, &g, CA_CMP_CALLBACK, "/a/callback_0", 300, 2e5, 2e4);
	add_object(new_, &g, CA_CMP_CALLBACK, "/a/callback_0", 300, 2e5, 2e4);
	add_object(base, &g, CA_CMP_NODE, "/filter/callback_0 /a -> /b", 300, 2.5e5, 2e4);
	add_object(new_, &g, CA_CMP_NODE, "/filter/callback_0 /a -> /b", 300, 1.25e6, 2e4);
	add_object(base, &g, CA_CMP_PATH, "sensor_to_sink", 300, 1e6, 5e4);
	add_object(new_, &g, CA_CMP_PATH, "sensor_to_sink", 300, 5e5, 5e4);
	add_object(base, &g, CA_CMP_TOPIC, "/a inter", 5000, 1e6, 1e4);
	add_object(new_, &g, CA_CMP_TOPIC, "/a inter", 5000, 1.01e6, 1e4);
	add_object(base, &g, CA_CMP_TOPIC, "/rare inter", 5, 1e5, 1e3);
	add_object(new_, &g, CA_CMP_TOPIC, "/rare inter", 50, 1e5, 1e3);
	add_object(base, &g, CA_CMP_CALLBACK, "/gone/callback_0", 30, 1e5, 1e3);
	add_object(new_, &g, CA_CMP_CALLBACK, "/born/callback_0", 30, 1e5, 1e3);

	/* the verdicts' logic at a small practical threshold (5 %, 20 us) */
	ca_cmp_settings s = ca_cmp_defaults();
	s.min_change_ratio = 0.05;
	s.min_change_ns = 20000;
	char err[256];
	ca_cmp_result *r = ca_cmp_compare(base, new_, &s, err, sizeof err);
	assert_non_null(r);
	const ca_cmp_row *rows;
	size_t n = ca_cmp_result_rows(r, &rows);
	assert_int_equal(n, 7);
	assert_int_equal(ca_cmp_result_common(r), 5);
	assert_int_equal(ca_cmp_result_tests(r), 4);
	/* in the reader's order: slower, faster, no change..., one side only */
	assert_int_equal(rows[0].verdict, CA_CMP_SLOWER);
	assert_string_equal(rows[0].name, "/filter/callback_0 /a -> /b");
	assert_true(rows[0].diff[CA_CMP_P50].low < 1e6 && 1e6 < rows[0].diff[CA_CMP_P50].high);
	assert_true(rows[0].prob_slower > 0.99);
	assert_int_equal(rows[1].verdict, CA_CMP_FASTER);
	assert_string_equal(rows[1].name, "sensor_to_sink");
	assert_int_equal(row_named(rows, n, "/a/callback_0")->verdict, CA_CMP_NO_CHANGE);
	const ca_cmp_row *small = row_named(rows, n, "/a inter");
	assert_true(small->p_adjusted < 0.01); /* significant, */
	assert_int_equal(small->verdict, CA_CMP_NO_CHANGE); /* but under 50 us */
	assert_true(fabs(small->threshold - 5e4) < 1e3);
	assert_int_equal(row_named(rows, n, "/rare inter")->verdict, CA_CMP_TOO_FEW);
	assert_false(row_named(rows, n, "/rare inter")->diff[CA_CMP_P50].has_ci);
	assert_int_equal(row_named(rows, n, "/gone/callback_0")->verdict, CA_CMP_BASE_ONLY);
	assert_int_equal(rows[n - 1].verdict, CA_CMP_NEW_ONLY);
	/* Holm: the smallest p times the 4 tests, never above the next's */
	assert_true(rows[0].p_adjusted <= 1 && rows[0].p_adjusted >= rows[0].p);
	/* the same settings, the same numbers */
	ca_cmp_result *again = ca_cmp_compare(base, new_, &s, err, sizeof err);
	const ca_cmp_row *rows2;
	ca_cmp_result_rows(again, &rows2);
	assert_true(rows2[0].diff[CA_CMP_P99].low == rows[0].diff[CA_CMP_P99].low);
	ca_cmp_result_free(again);
	ca_cmp_result_free(r);
	/* the side's objects by kind, then name, instances by trace and start */
	const ca_cmp_object *o = ca_cmp_side_find(base, CA_CMP_PATH, "sensor_to_sink");
	assert_non_null(o);
	assert_int_equal(o->n, 300);
	assert_true(o->instances[0].start < o->instances[1].start);
	assert_null(ca_cmp_side_find(base, CA_CMP_PATH, "nothing"));
	ca_cmp_side_free(base);
	ca_cmp_side_free(new_);
}

static void welch_of_known_samples(void **state)
{
	(void)state;
	/* Student's t: 97.5 % quantiles of the tables */
	assert_true(fabs(ca_cmp_t_quantile(0.975, 2) - 4.302653) < 1e-5);
	assert_true(fabs(ca_cmp_t_quantile(0.975, 10) - 2.228139) < 1e-5);
	assert_true(fabs(ca_cmp_t_quantile(0.025, 4) + 2.776445) < 1e-5);
	/* 1 2 3 against 4 5 6: a change of 3, se sqrt(2/3), df 4: the
	 * interval 3 -+ 2.776445 * 0.816497, t 3.674235, p 0.021312 */
	const double a[] = { 1, 2, 3 }, b[] = { 4, 5, 6 };
	ca_cmp_diff d;
	double p;
	ca_cmp_welch(a, 3, b, 3, 0.95, &d, &p);
	assert_true(d.value == 3 && d.has_ci);
	assert_true(fabs(d.low - 0.733044) < 1e-5 && fabs(d.high - 5.266956) < 1e-5);
	assert_true(fabs(p - 0.021312) < 1e-5);
}

/* Runs that drift: each run's latencies around its own median. */
static void add_runs(ca_cmp_side *side, ca_cmp_rng *g, const char *label, const double *medians,
	int n)
{
	for (int i = 0; i < n; i++) {
		assert_int_equal(cmp_side_add_trace(side, label, 0, 1), 0);
		add_object(side, g, CA_CMP_PATH, "p", 400, medians[i], 2e4);
	}
}

static void runs_that_drift_are_no_change(void **state)
{
	(void)state;
	ca_cmp_rng g;
	ca_cmp_rng_seed(&g, 5);
	/* two runs a side, each run's own level: the instances see a change
	 * of 50 us, the runs say that is their drift */
	ca_cmp_side *base = ca_cmp_side_new(), *new_ = ca_cmp_side_new();
	add_runs(base, &g, "b", (const double[]){ 1.0e6, 1.1e6 }, 2);
	add_runs(new_, &g, "n", (const double[]){ 1.05e6, 1.15e6 }, 2);
	ca_cmp_settings s = ca_cmp_defaults();
	char err[256];
	ca_cmp_result *r = ca_cmp_compare(base, new_, &s, err, sizeof err);
	const ca_cmp_row *rows;
	assert_int_equal(ca_cmp_result_rows(r, &rows), 1);
	assert_true(rows[0].p_adjusted < 0.01); /* the instances: significant */
	assert_true(rows[0].runs[0] == 2 && rows[0].runs[1] == 2 && rows[0].run_diff.has_ci);
	assert_true(rows[0].run_diff.low < 0 && rows[0].run_diff.high > 0);
	/* the runs' threshold: 5 % of the base p50 (over 50 us) */
	assert_true(fabs(rows[0].threshold - 0.05 * rows[0].stats[0].p50) < 1);
	assert_int_equal(rows[0].verdict, CA_CMP_NO_CHANGE);
	ca_cmp_result_free(r);
	ca_cmp_side_free(new_);
	/* three runs a side, 1 ms slower each: slower, by the runs too */
	new_ = ca_cmp_side_new();
	add_runs(base, &g, "b", (const double[]){ 1.05e6 }, 1);
	add_runs(new_, &g, "n", (const double[]){ 2.0e6, 2.1e6, 2.05e6 }, 3);
	r = ca_cmp_compare(base, new_, &s, err, sizeof err);
	ca_cmp_result_rows(r, &rows);
	assert_int_equal(rows[0].verdict, CA_CMP_SLOWER);
	assert_true(rows[0].run_diff.low > 0.8e6 && rows[0].run_diff.high < 1.2e6);
	assert_true(rows[0].run_p_adjusted < 0.01);
	ca_cmp_result_free(r);
	ca_cmp_side_free(base);
	ca_cmp_side_free(new_);
}

static void kinds_are_named(void **state)
{
	(void)state;
	ca_cmp_kind k;
	assert_true(ca_cmp_kind_of_name("paths", &k) && k == CA_CMP_PATH);
	assert_true(ca_cmp_kind_of_name("callback", &k) && k == CA_CMP_CALLBACK);
	assert_false(ca_cmp_kind_of_name("pathss", &k));
	assert_false(ca_cmp_kind_of_name("hop", &k));
	assert_string_equal(ca_cmp_kind_name(CA_CMP_NODE), "node");
	assert_string_equal(ca_cmp_verdict_name(CA_CMP_NO_CHANGE), "no change");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(mann_whitney_of_separated_samples),
		cmocka_unit_test(mann_whitney_with_ties),
		cmocka_unit_test(beta_draws_have_their_mean),
		cmocka_unit_test(bootstrap_interval_covers_a_known_shift),
		cmocka_unit_test(bootstrap_reproduces_from_its_seed),
		cmocka_unit_test(sides_compared_by_name),
		cmocka_unit_test(welch_of_known_samples),
		cmocka_unit_test(runs_that_drift_are_no_change),
		cmocka_unit_test(kinds_are_named),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
