/*
 * rank_test.c - the Mann-Whitney U test of two sorted samples, in one
 * merge: average ranks for ties, the variance corrected for them, the
 * normal approximation with a continuity correction (two-sided).
 */
#include <math.h>

#include "compare.h"

void ca_cmp_mann_whitney(const int64_t *a, size_t n_a, const int64_t *b, size_t n_b, double *u,
	double *z, double *p)
{
	/* walk both in order, a group of equal values at a time: b's members
	 * of the group beat every a below it and tie with a's in it */
	size_t i = 0, j = 0;
	double wins = 0, ties = 0; /* ties: sum of t^3 - t over the groups */
	while (i < n_a || j < n_b) {
		int64_t v = i < n_a && (j >= n_b || a[i] <= b[j]) ? a[i] : b[j];
		size_t ta = 0, tb = 0;
		while (i < n_a && a[i] == v)
			i++, ta++;
		while (j < n_b && b[j] == v)
			j++, tb++;
		/* i - ta: a's below v */
		wins += (double)tb * ((double)(i - ta) + 0.5 * (double)ta);
		double t = (double)(ta + tb);
		ties += t * t * t - t;
	}
	double na = (double)n_a, nb = (double)n_b, n = na + nb;
	double mean = na * nb / 2;
	double var = na * nb / 12 * ((n + 1) - ties / (n * (n - 1)));
	*u = wins;
	if (!(var > 0)) { /* every value equal: no evidence either way */
		*z = 0;
		*p = 1;
		return;
	}
	double d = wins - mean;
	d = d > 0.5 ? d - 0.5 : d < -0.5 ? d + 0.5 : 0; /* continuity */
	*z = d / sqrt(var);
	*p = erfc(fabs(*z) / sqrt(2.0));
	if (*p > 1)
		*p = 1;
}
