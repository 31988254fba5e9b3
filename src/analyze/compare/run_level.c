/*
 * run_level.c - the change between sides of several runs each, with the
 * run as the unit: each run's p50, then the difference of their means and
 * its interval by Welch's t (unequal variances, Welch-Satterthwaite's
 * degrees of freedom). Instances of one run share its machine's state
 * (load, clocks, caches): two runs of an unchanged system differ by more
 * than their instances' spread says, which only runs can measure.
 */
#include <math.h>
#include <stdlib.h>

#include "compare.h"

/* The regularized incomplete beta I_x(a, b), by its continued fraction
 * (modified Lentz), for the t distribution. */
static double beta_fraction(double a, double b, double x)
{
	const double tiny = 1e-300;
	double c = 1, d = 1 - (a + b) * x / (a + 1);
	d = fabs(d) < tiny ? tiny : d;
	d = 1 / d;
	double h = d;
	for (int m = 1; m <= 300; m++) {
		double m2 = 2.0 * m, aa = m * (b - m) * x / ((a + m2 - 1) * (a + m2));
		d = 1 + aa * d;
		d = fabs(d) < tiny ? tiny : d;
		c = 1 + aa / c;
		c = fabs(c) < tiny ? tiny : c;
		d = 1 / d;
		h *= d * c;
		aa = -(a + m) * (a + b + m) * x / ((a + m2) * (a + m2 + 1));
		d = 1 + aa * d;
		d = fabs(d) < tiny ? tiny : d;
		c = 1 + aa / c;
		c = fabs(c) < tiny ? tiny : c;
		d = 1 / d;
		double step = d * c;
		h *= step;
		if (fabs(step - 1) < 1e-15)
			break;
	}
	return h;
}

static double incomplete_beta(double a, double b, double x)
{
	if (x <= 0)
		return 0;
	if (x >= 1)
		return 1;
	double front = exp(lgamma(a + b) - lgamma(a) - lgamma(b) + a * log(x) + b * log1p(-x));
	if (x < (a + 1) / (a + b + 2))
		return front * beta_fraction(a, b, x) / a;
	return 1 - front * beta_fraction(b, a, 1 - x) / b;
}

double ca_cmp_t_cdf(double t, double df)
{
	double tail = 0.5 * incomplete_beta(df / 2, 0.5, df / (df + t * t));
	return t >= 0 ? 1 - tail : tail;
}

double ca_cmp_t_quantile(double q, double df)
{
	if (q == 0.5)
		return 0;
	if (q < 0.5)
		return -ca_cmp_t_quantile(1 - q, df);
	double lo = 0, hi = 1;
	while (ca_cmp_t_cdf(hi, df) < q && hi < 1e12)
		hi *= 2;
	for (int i = 0; i < 200 && hi - lo > 1e-12 * hi; i++) {
		double mid = (lo + hi) / 2;
		if (ca_cmp_t_cdf(mid, df) < q)
			lo = mid;
		else
			hi = mid;
	}
	return (lo + hi) / 2;
}

static void mean_var(const double *x, size_t n, double *mean, double *var)
{
	double sum = 0, sq = 0;
	for (size_t i = 0; i < n; i++)
		sum += x[i];
	*mean = sum / (double)n;
	for (size_t i = 0; i < n; i++)
		sq += (x[i] - *mean) * (x[i] - *mean);
	*var = n > 1 ? sq / (double)(n - 1) : 0;
}

void ca_cmp_welch(const double *a, size_t n_a, const double *b, size_t n_b, double confidence,
	ca_cmp_diff *d, double *p)
{
	double ma, va, mb, vb;
	mean_var(a, n_a, &ma, &va);
	mean_var(b, n_b, &mb, &vb);
	double sa = va / (double)n_a, sb = vb / (double)n_b, se = sqrt(sa + sb);
	d->value = mb - ma;
	if (!(se > 0)) { /* every run the same: nothing to say it varies */
		d->low = d->high = d->value;
		d->has_ci = true;
		*p = d->value == 0 ? 1 : 0;
		return;
	}
	double df = (sa + sb) * (sa + sb) /
		(sa * sa / ((double)n_a - 1) + sb * sb / ((double)n_b - 1));
	double t = ca_cmp_t_quantile((1 + confidence) / 2, df);
	d->low = d->value - t * se;
	d->high = d->value + t * se;
	d->has_ci = true;
	*p = 2 * (1 - ca_cmp_t_cdf(fabs(d->value) / se, df));
}
