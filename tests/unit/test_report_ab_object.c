/*
 * test_report_ab_object - one object of the A/B page's data
 * (report/ab_object.c): both sides' histograms share their bins and count
 * every instance of their side (the linear bins with the overflow, and
 * the logarithmic ladder); a side's points are its instances in the order
 * of their time since their recording began, or past SERIES_POINTS a
 * thinned set that keeps the greatest; each cumulative distribution starts
 * at the least value and rises to 1 at the greatest, ties counted whole;
 * an empty side is written whole, with nothing in it.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "ab_object.h"
#include "series.h"

/* The object's data for sides a and b, as a string (to free). */
static char *written(const struct ab_side side[2])
{
	char *text = NULL;
	size_t size = 0;
	FILE *f = open_memstream(&text, &size);
	assert_non_null(f);
	assert_true(ab_object_write(f, "/n/callback_0", "run", side));
	assert_int_equal(fclose(f), 0);
	return text;
}

/* The numbers of the list that follows the k-th (from 0) occurrence of key
 * at or after from, into out (at most max); how many. A list of lists
 * ([[..],[..]]) gives its first list; *end the text after the list. */
static size_t numbers(const char *from, const char *key, size_t k, double *out, size_t max,
	const char **end)
{
	const char *p = from;
	for (size_t i = 0; i <= k; i++) {
		p = strstr(p, key);
		assert_non_null(p);
		p += strlen(key);
	}
	while (*p == '[')
		p++;
	size_t n = 0;
	while (*p && *p != ']') {
		char *next;
		double v = strtod(p, &next);
		assert_true(next > p);
		if (n < max)
			out[n] = v;
		n++;
		p = *next == ',' ? next + 1 : next;
	}
	if (end)
		*end = p + 1;
	return n;
}

static double sum(const double *v, size_t n)
{
	double s = 0;
	for (size_t i = 0; i < n; i++)
		s += v[i];
	return s;
}

enum { BIG = 3 * SERIES_POINTS };
static double list[BIG + 16], other[BIG + 16];

static void test_shared_bins_count_every_instance(void **state)
{
	(void)state;
	/* base: 1..100 µs; new: 50 values of 2 µs steps, then one of 40 ms */
	uint64_t since_a[100], since_b[51];
	int64_t a[100], b[51];
	for (int i = 0; i < 100; i++) {
		since_a[i] = (uint64_t)i * 1000000;
		a[i] = (i + 1) * 1000;
	}
	for (int i = 0; i < 51; i++) {
		since_b[i] = (uint64_t)i * 1000000;
		b[i] = i < 50 ? (i + 1) * 2000 : 40000000;
	}
	struct ab_side side[2] = { { since_a, a, 100, 100000000 }, { since_b, b, 51, 51000000 } };
	char *text = written(side);
	const char *h = strstr(text, "\"h\":"), *after;
	assert_non_null(h);
	size_t bins = numbers(h, "\"c\":", 0, list, BIG, &after);
	size_t bins_new = numbers(after, ",", 0, other, BIG, NULL);
	assert_int_equal(bins, bins_new);
	double over[2];
	assert_int_equal(numbers(h, "\"over\":", 0, over, 2, NULL), 2);
	assert_int_equal(sum(list, bins) + over[0], 100);
	assert_int_equal(sum(other, bins) + over[1], 51);
	assert_true(over[1] >= 1); /* the 40 ms one, past the greater p99 */
	const char *log = strstr(h, "\"log\":");
	assert_non_null(log);
	size_t edges = numbers(log, "\"e\":", 0, list, BIG, NULL);
	for (size_t i = 1; i < edges; i++)
		assert_true(list[i] > list[i - 1]);
	assert_true(list[0] <= 1 && list[edges - 1] > 40000); /* µs: both ranges */
	size_t ladder = numbers(log, "\"c\":", 0, list, BIG, &after);
	assert_int_equal(ladder, edges - 1);
	assert_int_equal(sum(list, ladder), 100);
	assert_int_equal(numbers(after, ",", 0, other, BIG, NULL), ladder);
	assert_int_equal(sum(other, ladder), 51);
	free(text);
}

static void test_points_in_time_order_and_thinned(void **state)
{
	(void)state;
	/* base: three runs given out of order; new: BIG runs, one outlier */
	uint64_t since_a[3] = { 3000000, 1000000, 2000000 };
	int64_t a[3] = { 30000, 10000, 20000 };
	uint64_t *since_b = malloc(BIG * sizeof *since_b);
	int64_t *b = malloc(BIG * sizeof *b);
	assert_non_null(since_b);
	assert_non_null(b);
	for (size_t i = 0; i < BIG; i++) {
		since_b[i] = i * 1000;
		b[i] = 5000 + (int64_t)(i % 7) * 100;
	}
	b[BIG / 3] = 9000000;
	struct ab_side side[2] = { { since_a, a, 3, 4000000 }, { since_b, b, BIG, BIG * 1000 } };
	char *text = written(side);
	assert_int_equal(numbers(text, "\"x\":", 0, list, BIG, NULL), 3);
	assert_true(list[0] == 1000 && list[1] == 2000 && list[2] == 3000);
	assert_int_equal(numbers(text, "\"y\":", 0, list, BIG, NULL), 3);
	assert_true(list[0] == 10 && list[1] == 20 && list[2] == 30);
	size_t kept = numbers(text, "\"y\":", 1, list, BIG, NULL);
	assert_true(kept > 0 && kept <= SERIES_POINTS);
	double greatest = 0;
	for (size_t i = 0; i < kept; i++)
		greatest = list[i] > greatest ? list[i] : greatest;
	assert_true(greatest == 9000); /* µs: the outlier kept */
	assert_int_equal(numbers(text, "\"i\":", 0, other, BIG, NULL), kept);
	char count[32];
	snprintf(count, sizeof count, "\"n\":%d", BIG);
	assert_non_null(strstr(text, count));
	free(text);
	free(since_b);
	free(b);
}

static void test_cumulative_distribution(void **state)
{
	(void)state;
	/* base: 1000 values 1..1000 µs (quantiles of them); new: five equal */
	uint64_t since_a[1000], since_b[5] = { 0, 1, 2, 3, 4 };
	int64_t a[1000], b[5] = { 7000, 7000, 7000, 7000, 7000 };
	for (int i = 0; i < 1000; i++) {
		since_a[i] = (uint64_t)i;
		a[i] = (999 - i + 1) * 1000;
	}
	struct ab_side side[2] = { { since_a, a, 1000, 1000 }, { since_b, b, 5, 5 } };
	char *text = written(side);
	const char *cdf = strstr(text, "\"cdf\":");
	assert_non_null(cdf);
	size_t n = numbers(cdf, "\"v\":", 0, list, BIG, NULL);
	assert_int_equal(n, AB_CDF_POINTS);
	assert_true(list[0] == 1 && list[n - 1] == 1000);
	assert_int_equal(numbers(cdf, "\"p\":", 0, other, BIG, NULL), n);
	for (size_t i = 1; i < n; i++)
		assert_true(list[i] >= list[i - 1] && other[i] >= other[i - 1]);
	assert_true(fabs(other[0] - 0.001) < 1e-9 && other[n - 1] == 1);
	/* ties: each of the equal values has all of them at or below it */
	assert_int_equal(numbers(cdf, "\"v\":", 1, list, BIG, NULL), 5);
	assert_int_equal(numbers(cdf, "\"p\":", 1, other, BIG, NULL), 5);
	for (size_t i = 0; i < 5; i++)
		assert_true(list[i] == 7 && other[i] == 1); /* µs */
	free(text);
}

static void test_empty_side(void **state)
{
	(void)state;
	uint64_t since[2] = { 0, 1000 };
	int64_t v[2] = { 1000, 2000 };
	struct ab_side side[2] = { { since, v, 2, 1000 }, { NULL, NULL, 0, 0 } };
	char *text = written(side);
	assert_non_null(strstr(text, "\"n\":0"));
	double over[2];
	assert_int_equal(numbers(text, "\"over\":", 0, over, 2, NULL), 2);
	assert_true(over[1] == 0);
	assert_int_equal(numbers(strstr(text, "\"cdf\":"), "\"v\":", 1, list, BIG, NULL), 0);
	free(text);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_shared_bins_count_every_instance),
		cmocka_unit_test(test_points_in_time_order_and_thinned),
		cmocka_unit_test(test_cumulative_distribution),
		cmocka_unit_test(test_empty_side),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
