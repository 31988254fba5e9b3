/*
 * bootstrap.c - confidence intervals of a difference between two samples:
 * a percentile bootstrap of percentiles that never builds a resample, and
 * the normal approximation of a difference of means; with a seeded
 * generator so that a comparison reproduces.
 *
 * A resample of n values drawn from the sorted x[1..n] (1-based) has as
 * its k-th smallest x[ceil(n U)], U the k-th smallest of n uniforms, which
 * is Beta(k, n - k + 1); the next one, U' = U + (1 - U)(1 - V^(1/(n-k))),
 * V uniform (the least of the n - k uniforms above U). A percentile
 * interpolated between the k-th and (k+1)-th of the resample so costs two
 * draws, whatever n.
 */
#include <math.h>
#include <stdlib.h>

#include "compare.h"

static uint64_t rotl(uint64_t x, int k)
{
	return (x << k) | (x >> (64 - k));
}

static uint64_t splitmix(uint64_t *x)
{
	uint64_t z = (*x += 0x9e3779b97f4a7c15ull);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

void ca_cmp_rng_seed(ca_cmp_rng *g, uint64_t seed)
{
	for (int i = 0; i < 4; i++)
		g->s[i] = splitmix(&seed);
}

uint64_t ca_cmp_rng_next(ca_cmp_rng *g)
{
	uint64_t *s = g->s, out = rotl(s[1] * 5, 7) * 9, t = s[1] << 17;
	s[2] ^= s[0];
	s[3] ^= s[1];
	s[1] ^= s[2];
	s[0] ^= s[3];
	s[2] ^= t;
	s[3] = rotl(s[3], 45);
	return out;
}

double ca_cmp_rng_uniform(ca_cmp_rng *g)
{
	/* 53 bits, never 0 nor 1 */
	return ((double)(ca_cmp_rng_next(g) >> 11) + 0.5) / 9007199254740992.0;
}

double ca_cmp_rng_normal(ca_cmp_rng *g)
{
	/* Box-Muller, one of the pair */
	double u = ca_cmp_rng_uniform(g), v = ca_cmp_rng_uniform(g);
	return sqrt(-2 * log(u)) * cos(6.283185307179586 * v);
}

/* Gamma(a, 1): Marsaglia and Tsang's method; a < 1 by boosting. */
static double gamma_draw(ca_cmp_rng *g, double a)
{
	if (a < 1) {
		double u = ca_cmp_rng_uniform(g);
		return gamma_draw(g, a + 1) * pow(u, 1 / a);
	}
	double d = a - 1.0 / 3, c = 1 / sqrt(9 * d);
	for (;;) {
		double x, v;
		do {
			x = ca_cmp_rng_normal(g);
			v = 1 + c * x;
		} while (v <= 0);
		v = v * v * v;
		double u = ca_cmp_rng_uniform(g);
		if (u < 1 - 0.0331 * x * x * x * x || log(u) < 0.5 * x * x + d * (1 - v + log(v)))
			return d * v;
	}
}

double ca_cmp_rng_beta(ca_cmp_rng *g, double a, double b)
{
	double x = gamma_draw(g, a), y = gamma_draw(g, b);
	return x / (x + y);
}

/* ca_stats_of's rank of percentile p: the 0-based index and the part
 * (hundredths) of the way to the next. */
static void rank_of(size_t n, unsigned p, ca_percentile_method m, size_t *whole, size_t *part)
{
	if (m == CA_PERCENTILE_NEAREST_RANK) {
		size_t rank = (n * p + 99) / 100;
		*whole = rank ? rank - 1 : 0;
		*part = 0;
		return;
	}
	*whole = (n - 1) * p / 100;
	*part = *whole + 1 < n ? (n - 1) * p % 100 : 0;
}

double ca_cmp_percentile(const int64_t *x, size_t n, unsigned p, ca_percentile_method m)
{
	size_t whole, part;
	if (!n)
		return 0;
	rank_of(n, p, m, &whole, &part);
	return part ? (double)x[whole] + (double)(x[whole + 1] - x[whole]) * (double)part / 100.0 :
		(double)x[whole];
}

/* The value of sorted x (n) at uniform u: x[ceil(n u)], 1-based. */
static int64_t at_uniform(const int64_t *x, size_t n, double u)
{
	double r = ceil((double)n * u);
	size_t k = r < 1 ? 1 : r > (double)n ? n : (size_t)r;
	return x[k - 1];
}

/* One replicate of percentile p of a resample of sorted x (n). */
static double replicate(const int64_t *x, size_t n, unsigned p, ca_percentile_method m,
	ca_cmp_rng *g)
{
	size_t whole, part;
	rank_of(n, p, m, &whole, &part);
	double k = (double)whole + 1; /* 1-based order statistic */
	double u = ca_cmp_rng_beta(g, k, (double)n - k + 1);
	int64_t lo = at_uniform(x, n, u);
	if (!part)
		return (double)lo;
	/* the next order statistic: the least of the n - k uniforms above u */
	double v = ca_cmp_rng_uniform(g);
	double u2 = u + (1 - u) * (1 - pow(v, 1 / ((double)n - k)));
	int64_t hi = at_uniform(x, n, u2);
	return (double)lo + (double)(hi - lo) * (double)part / 100.0;
}

static int by_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

/* The q-quantile of sorted d (n), interpolated. */
static double quantile(const double *d, size_t n, double q)
{
	double h = (double)(n - 1) * q;
	size_t i = (size_t)h;
	return i + 1 < n ? d[i] + (d[i + 1] - d[i]) * (h - (double)i) : d[n - 1];
}

void ca_cmp_bootstrap_percentile(const int64_t *a, size_t n_a, const int64_t *b, size_t n_b,
	unsigned p, ca_percentile_method m, size_t replicates, double confidence, ca_cmp_rng *g,
	double *low, double *high)
{
	size_t r = replicates ? replicates : 1;
	double *d = malloc(r * sizeof *d);
	if (!d) {
		*low = *high = NAN;
		return;
	}
	for (size_t i = 0; i < r; i++)
		d[i] = replicate(b, n_b, p, m, g) - replicate(a, n_a, p, m, g);
	qsort(d, r, sizeof *d, by_double);
	*low = quantile(d, r, (1 - confidence) / 2);
	*high = quantile(d, r, (1 + confidence) / 2);
	free(d);
}

/* The quantile of the standard normal at q (Acklam's rational
 * approximation, refined by one Newton step on erfc). */
static double normal_quantile(double q)
{
	static const double a[] = { -3.969683028665376e+01, 2.209460984245205e+02,
		-2.759285104469687e+02, 1.383577518672690e+02, -3.066479806614716e+01,
		2.506628277459239e+00 };
	static const double b[] = { -5.447609879822406e+01, 1.615858368580409e+02,
		-1.556989798598866e+02, 6.680131188771972e+01, -1.328068155288572e+01 };
	static const double c[] = { -7.784894002430293e-03, -3.223964580411365e-01,
		-2.400758277161838e+00, -2.549732539343734e+00, 4.374664141464968e+00,
		2.938163982698783e+00 };
	static const double e[] = { 7.784695709041462e-03, 3.224671290700398e-01,
		2.445134137142996e+00, 3.754408661907416e+00 };
	double x;
	if (q < 0.02425) {
		double t = sqrt(-2 * log(q));
		x = (((((c[0] * t + c[1]) * t + c[2]) * t + c[3]) * t + c[4]) * t + c[5]) /
			((((e[0] * t + e[1]) * t + e[2]) * t + e[3]) * t + 1);
	} else if (q > 1 - 0.02425) {
		return -normal_quantile(1 - q);
	} else {
		double t = q - 0.5, r = t * t;
		x = (((((a[0] * r + a[1]) * r + a[2]) * r + a[3]) * r + a[4]) * r + a[5]) * t /
			(((((b[0] * r + b[1]) * r + b[2]) * r + b[3]) * r + b[4]) * r + 1);
	}
	double err = 0.5 * erfc(-x / sqrt(2.0)) - q;
	return x - err * 2.5066282746310002 * exp(x * x / 2); /* sqrt(2 pi) */
}

static void mean_var(const int64_t *x, size_t n, double *mean, double *var)
{
	long double sum = 0, sq = 0;
	for (size_t i = 0; i < n; i++)
		sum += (long double)x[i];
	long double m = sum / (long double)n;
	for (size_t i = 0; i < n; i++)
		sq += ((long double)x[i] - m) * ((long double)x[i] - m);
	*mean = (double)m;
	*var = n > 1 ? (double)(sq / (long double)(n - 1)) : 0;
}

void ca_cmp_mean_interval(const int64_t *a, size_t n_a, const int64_t *b, size_t n_b,
	double confidence, double *low, double *high)
{
	double ma, va, mb, vb;
	mean_var(a, n_a, &ma, &va);
	mean_var(b, n_b, &mb, &vb);
	double se = sqrt(va / (double)n_a + vb / (double)n_b);
	double z = normal_quantile((1 + confidence) / 2);
	*low = mb - ma - z * se;
	*high = mb - ma + z * se;
}
